/* SPDX-License-Identifier: BSD-2-Clause */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "ra_crawlers.h"
#include "ra_setup.h"

int
ra_cli_error(const char *cmd, const char *fmt, ...)
{
    va_list  ap;

    fprintf(stderr, "robots-audit %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return RA_EXIT_USAGE;
}

int
ra_cli_read_file(const char *cmd, const char *path, ra_str_t *out)
{
    FILE         *f;
    size_t        len, cap, n;
    unsigned char *buf, *nbuf;
    struct stat   st;
    int           is_stdin;

    is_stdin = strcmp(path, "-") == 0;
    if (is_stdin) {
        f = stdin;
    } else {
        if (stat(path, &st) != 0) {
            ra_cli_error(cmd, "%s: %s", path, strerror(errno));
            return -1;
        }
        if (S_ISDIR(st.st_mode)) {
            ra_cli_error(cmd, "%s: is a directory", path);
            return -1;
        }
        f = fopen(path, "rb");
        if (f == NULL) {
            ra_cli_error(cmd, "%s: %s", path, strerror(errno));
            return -1;
        }
    }

    len = 0;
    cap = 64 * 1024;
    buf = malloc(cap);
    if (buf == NULL) {
        goto nomem;
    }
    for ( ;; ) {
        if (len == cap) {
            if (cap >= RA_CLI_MAX_INPUT) {
                ra_cli_error(cmd, "%s: larger than %u MiB", path,
                             RA_CLI_MAX_INPUT >> 20);
                goto fail;
            }
            cap *= 2;
            nbuf = realloc(buf, cap);
            if (nbuf == NULL) {
                goto nomem;
            }
            buf = nbuf;
        }
        n = fread(buf + len, 1, cap - len, f);
        len += n;
        if (n == 0) {
            break;
        }
    }
    if (ferror(f)) {
        ra_cli_error(cmd, "%s: read error: %s", path, strerror(errno));
        goto fail;
    }
    if (!is_stdin) {
        fclose(f);
    }
    *out = ra_str(buf, len);
    return 0;

nomem:
    ra_cli_error(cmd, "%s: out of memory", path);
fail:
    free(buf);
    if (!is_stdin) {
        fclose(f);
    }
    return -1;
}

int
ra_cli_write(const char *cmd, FILE *f, ra_buf_t *b)
{
    if (b->failed) {
        ra_cli_error(cmd, "out of memory");
        return -1;
    }
    if (b->len && fwrite(b->data, 1, b->len, f) != b->len) {
        ra_cli_error(cmd, "write error: %s", strerror(errno));
        return -1;
    }
    return 0;
}

int
ra_cli_replace(const char *path, const void *data, size_t len,
    unsigned mode, char *why, size_t cap)
{
    ra_buf_t  msg;
    int       rc = 0;

    ra_buf_init(&msg, &ra_malloc_allocator, 256, 0);
    if (ra_file_replace_mode(path, data, len, mode, &msg) != RA_OK) {
        snprintf(why, cap, "%.*s", (int) msg.len, (const char *) msg.data);
        rc = -1;
    }
    ra_buf_release(&msg);
    return rc;
}

long
ra_cli_getline(FILE *f, char **line, size_t *cap)
{
    ssize_t  n;

    n = getline(line, cap, f);
    if (n < 0) {
        return -1;
    }
    while (n > 0 && ((*line)[n - 1] == '\n' || (*line)[n - 1] == '\r')) {
        n--;
    }
    return (long) n;
}

/* the CLI's host: the core's lines go to stderr as they are */
static void
ra_cli_log(const ra_host_t *h, void *where, ra_log_level_e level,
    ra_str_t line)
{
    (void) h;
    (void) where;
    (void) level;
    fprintf(stderr, "%.*s\n", (int) line.len, (const char *) line.data);
}

static void *
ra_cli_alloc(void *ctx, size_t size)
{
    (void) ctx;
    return malloc(size);
}

static void
ra_cli_free(void *ctx, void *p)
{
    (void) ctx;
    free(p);
}

const ra_host_t  ra_cli_host = {
    NULL, ra_cli_log, NULL, NULL,
    { ra_cli_alloc, ra_cli_free, NULL }, { NULL, NULL, NULL }, NULL, 0,
    ra_host_sha256_libcrypto, ra_host_ed25519_libcrypto, NULL, NULL
};

void
ra_cli_setup(ra_setup_t *s)
{
    ra_setup_init(s, &ra_cli_host, &ra_malloc_allocator);
}

int
ra_cli_setup_file(const char *cmd, ra_setup_t *s, int ranges,
    const char *path)
{
    ra_buf_t  why;
    int       rc;

    ra_buf_init(&why, &ra_malloc_allocator, 0, 1024);
    rc = ranges ? ra_setup_ranges_file(s, path, &why)
                : ra_setup_crawlers_file(s, path, &why);
    if (rc != RA_OK) {
        ra_cli_error(cmd, "%.*s", (int) why.len, (char *) why.data);
    }
    ra_buf_release(&why);
    return rc == RA_OK ? 0 : -1;
}

int
ra_cli_setup_compile(const char *cmd, ra_setup_t *s)
{
    ra_buf_t  why;
    int       rc;

    ra_buf_init(&why, &ra_malloc_allocator, 0, 1024);
    rc = ra_setup_compile(s, &why);
    if (rc != RA_OK) {
        ra_cli_error(cmd, "%.*s", (int) why.len, (char *) why.data);
    }
    ra_buf_release(&why);
    return rc == RA_OK ? 0 : -1;
}

ra_crawlers_t *
ra_cli_crawlers(const char *cmd, const char *path)
{
    ra_setup_t  s;

    ra_cli_setup(&s);
    if ((path != NULL && ra_cli_setup_file(cmd, &s, 0, path) != 0)
        || ra_cli_setup_compile(cmd, &s) != 0)
    {
        return NULL;
    }
    return s.crawlers;
}
