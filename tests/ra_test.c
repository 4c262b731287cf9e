/* SPDX-License-Identifier: BSD-2-Clause */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <zlib.h>

#include "ra_test.h"

typedef struct ra_test_block_s {
    struct ra_test_block_s  *next;
    max_align_t              align[];
} ra_test_block_t;

struct ra_test_arena_s {
    ra_test_block_t  *blocks;
    size_t            bytes;
    ra_alloc_t        alloc;
};

static void *
ra_test_arena_get(void *ctx, size_t size)
{
    ra_test_arena_t  *a = ctx;
    ra_test_block_t  *b;

    b = malloc(sizeof(*b) + size);
    if (b == NULL) {
        return NULL;
    }
    b->next = a->blocks;
    a->blocks = b;
    a->bytes += size;
    return b->align;
}

ra_test_arena_t *
ra_test_arena_new(void)
{
    ra_test_arena_t  *a = calloc(1, sizeof(*a));

    assert_non_null(a);
    a->alloc.alloc = ra_test_arena_get;
    a->alloc.ctx = a;
    return a;
}

const ra_alloc_t *
ra_test_arena_alloc(ra_test_arena_t *a)
{
    return &a->alloc;
}

size_t
ra_test_arena_bytes(ra_test_arena_t *a)
{
    return a->bytes;
}

void
ra_test_arena_free(ra_test_arena_t *a)
{
    ra_test_block_t  *b, *next;

    if (a == NULL) {
        return;
    }
    for (b = a->blocks; b; b = next) {
        next = b->next;
        free(b);
    }
    free(a);
}

ra_str_t
ra_test_exact(const void *s, size_t len)
{
    void  *p = malloc(len ? len : 1);

    assert_non_null(p);
    if (len) {
        memcpy(p, s, len);
    }
    return ra_str(p, len);
}

void
ra_test_exact_free(ra_str_t s)
{
    free((void *) s.data);
}

const char *
ra_test_shared(void)
{
    static const char  *cands[] = { "../shared/data", "../../shared/data" };
    const char         *env;
    struct stat         st;
    size_t              i;

    env = getenv("RA_SHARED_DATA");
    if (env != NULL) {
        return stat(env, &st) == 0 ? env : NULL;
    }
    for (i = 0; i < sizeof(cands) / sizeof(cands[0]); i++) {
        if (stat(cands[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            return cands[i];
        }
    }
    return NULL;
}

int
ra_test_read_file(const char *path, ra_str_t *out)
{
    FILE   *f;
    long    n;
    char   *buf;

    f = fopen(path, "rb");
    if (f == NULL) {
        return -1;
    }
    if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0
        || fseek(f, 0, SEEK_SET) != 0)
    {
        fclose(f);
        return -1;
    }
    buf = malloc((size_t) n + 1);
    if (buf == NULL || fread(buf, 1, (size_t) n, f) != (size_t) n) {
        free(buf);
        fclose(f);
        return -1;
    }
    fclose(f);
    *out = ra_str(buf, (size_t) n);
    return 0;
}

static const char *
ra_test_json_skip_ws(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') {
        p++;
    }
    return p;
}

static void
ra_test_put_utf8(unsigned char **d, unsigned cp)
{
    unsigned char  *o = *d;

    if (cp < 0x80) {
        *o++ = (unsigned char) cp;
    } else if (cp < 0x800) {
        *o++ = (unsigned char) (0xc0 | cp >> 6);
        *o++ = (unsigned char) (0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
        *o++ = (unsigned char) (0xe0 | cp >> 12);
        *o++ = (unsigned char) (0x80 | ((cp >> 6) & 0x3f));
        *o++ = (unsigned char) (0x80 | (cp & 0x3f));
    } else {
        *o++ = (unsigned char) (0xf0 | cp >> 18);
        *o++ = (unsigned char) (0x80 | ((cp >> 12) & 0x3f));
        *o++ = (unsigned char) (0x80 | ((cp >> 6) & 0x3f));
        *o++ = (unsigned char) (0x80 | (cp & 0x3f));
    }
    *d = o;
}

/* Parses the JSON string at p (at its opening quote); returns the byte
 * after the closing quote or NULL.  out gets the decoded bytes. */
static const char *
ra_test_json_string(const char *p, unsigned char *out, size_t *len)
{
    unsigned        cp, lo;
    unsigned char  *d = out;

    if (*p++ != '"') {
        return NULL;
    }
    while (*p != '"') {
        if (*p == '\0') {
            return NULL;
        }
        if (*p != '\\') {
            if (d) *d++ = (unsigned char) *p;
            p++;
            continue;
        }
        p++;
        switch (*p) {
        case 'n': cp = '\n'; break;
        case 't': cp = '\t'; break;
        case 'r': cp = '\r'; break;
        case 'b': cp = '\b'; break;
        case 'f': cp = '\f'; break;
        case 'u':
            if (sscanf(p + 1, "%4x", &cp) != 1) {
                return NULL;
            }
            p += 4;
            if (cp >= 0xd800 && cp < 0xdc00 && p[1] == '\\' && p[2] == 'u'
                && sscanf(p + 3, "%4x", &lo) == 1)
            {
                cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                p += 6;
            }
            break;
        default: cp = (unsigned char) *p;
        }
        if (d) ra_test_put_utf8(&d, cp);
        p++;
    }
    if (d) *d = '\0';
    if (len) *len = d ? (size_t) (d - out) : 0;
    return p + 1;
}

int
ra_test_json_get(const char *obj, const char *key, char **out, size_t *len)
{
    const char     *p = ra_test_json_skip_ws(obj), *q;
    unsigned char  *kbuf;
    size_t          klen, n;
    int             depth;

    if (*p++ != '{') {
        return -1;
    }
    kbuf = malloc(strlen(obj) + 1);
    assert_non_null(kbuf);
    for ( ;; ) {
        p = ra_test_json_skip_ws(p);
        if (*p == '}' || *p == '\0') {
            break;
        }
        p = ra_test_json_string(p, kbuf, &klen);
        if (p == NULL) break;
        p = ra_test_json_skip_ws(p);
        if (*p++ != ':') break;
        p = ra_test_json_skip_ws(p);
        if (klen == strlen(key) && memcmp(kbuf, key, klen) == 0) {
            free(kbuf);
            *out = malloc(strlen(p) + 1);
            assert_non_null(*out);
            if (*p == '"') {
                return ra_test_json_string(p, (unsigned char *) *out, len)
                       ? 0 : -1;
            }
            for (q = p; *q && *q != ',' && *q != '}' && *q != ' '; q++) { }
            n = (size_t) (q - p);
            memcpy(*out, p, n);
            (*out)[n] = '\0';
            if (len) *len = n;
            return 0;
        }
        /* skip the value */
        if (*p == '"') {
            p = ra_test_json_string(p, NULL, NULL);
            if (p == NULL) break;
        } else {
            depth = 0;
            while (*p && (depth > 0 || (*p != ',' && *p != '}'))) {
                if (*p == '"') { p = ra_test_json_string(p, NULL, NULL); if (!p) goto done; continue; }
                if (*p == '{' || *p == '[') depth++;
                if (*p == '}' || *p == ']') depth--;
                p++;
            }
        }
        p = ra_test_json_skip_ws(p);
        if (*p == ',') p++;
    }
done:
    free(kbuf);
    return -1;
}

int
ra_test_base64(const char *in, unsigned char **out, size_t *len)
{
    static const char  tab[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const char        *c;
    unsigned           acc = 0;
    int                bits = 0;
    size_t             n = 0;
    unsigned char     *d;

    d = malloc(strlen(in) + 1);
    assert_non_null(d);
    for ( ; *in && *in != '='; in++) {
        c = strchr(tab, *in);
        if (c == NULL) {
            free(d);
            return -1;
        }
        acc = acc << 6 | (unsigned) (c - tab);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            d[n++] = (unsigned char) (acc >> bits);
        }
    }
    *out = d;
    *len = n;
    return 0;
}

void
ra_test_need_cli(void)
{
    struct stat  st;

    if (stat(RA_TEST_CLI, &st) != 0) {
        print_message("skip: " RA_TEST_CLI " not built (run from the repo"
                      " root)\n");
        skip();
    }
}

void
ra_test_tmp_file(char *path, const void *data, size_t len)
{
    int  fd;

    strcpy(path, "/tmp/ra-test-XXXXXX");
    fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, data, len), (ssize_t) len);
    close(fd);
}

void
ra_test_cli(ra_test_run_t *r, const char *args, const char *stdin_text)
{
    char    cmd[8192], in[64];
    FILE   *p;
    size_t  cap = 4096, n;
    int     st;

    in[0] = '\0';
    if (stdin_text != NULL) {
        ra_test_tmp_file(in, stdin_text, strlen(stdin_text));
    }
    snprintf(cmd, sizeof(cmd), RA_TEST_CLI " %s %s%s 2>/dev/null", args,
             in[0] ? "< " : "< /dev/null", in);
    p = popen(cmd, "r");
    assert_non_null(p);
    r->out = malloc(cap);
    assert_non_null(r->out);
    r->len = 0;
    while ((n = fread(r->out + r->len, 1, cap - r->len - 1, p)) > 0) {
        r->len += n;
        if (cap - r->len - 1 == 0) {
            cap *= 2;
            r->out = realloc(r->out, cap);
            assert_non_null(r->out);
        }
    }
    r->out[r->len] = '\0';
    st = pclose(p);
    r->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    if (in[0]) {
        unlink(in);
    }
}

void
ra_test_run_free(ra_test_run_t *r)
{
    free(r->out);
    r->out = NULL;
}


int
ra_test_sh(const char *cmd, char *out, size_t cap)
{
    FILE    *f;
    size_t   n;
    int      st;

    f = popen(cmd, "r");
    assert_non_null(f);
    n = fread(out, 1, cap - 1, f);
    out[n] = '\0';
    st = pclose(f);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}


static void
ra_test_log_line(const ra_host_t *h, void *where, ra_log_level_e level,
    ra_str_t line)
{
    ra_test_log_t  *c = h->ctx;

    assert_true(line.len <= RA_HOST_LINE_MAX);
    if (c->n < RA_TEST_LOG_LINES) {
        memcpy(c->lines[c->n], line.data, line.len);
        c->lines[c->n][line.len] = '\0';
        c->levels[c->n] = (int) level;
        c->where[c->n] = where;
        c->n++;
    }
}

void
ra_test_host(ra_host_t *h, ra_test_log_t *log,
    int64_t (*now)(const ra_host_t *h))
{
    memset(h, 0, sizeof(*h));
    memset(log, 0, sizeof(*log));
    h->ctx = log;
    h->log = ra_test_log_line;
    h->now = now;
    h->heap = ra_malloc_allocator;
}

size_t
ra_test_gzip(const void *in, size_t len, unsigned char *out, size_t cap)
{
    z_stream  z;

    memset(&z, 0, sizeof(z));
    assert_int_equal(deflateInit2(&z, 9, Z_DEFLATED, 31, 8,
                                  Z_DEFAULT_STRATEGY), Z_OK);
    z.next_in = (unsigned char *) in;
    z.avail_in = (uInt) len;
    z.next_out = out;
    z.avail_out = (uInt) cap;
    assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
    deflateEnd(&z);
    return cap - z.avail_out;
}

ra_crawlers_t *
ra_test_builtin_table(const ra_alloc_t *a)
{
    ra_crawlers_err_t  err;
    ra_crawlers_t     *t = ra_crawlers_create(a);

    if (t == NULL || ra_crawlers_add_builtin(t, &err) != RA_OK
        || ra_crawlers_compile(t, &err) != RA_OK)
    {
        return NULL;
    }
    return t;
}
