/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Content codings undone before robots.txt is parsed (ra_decode.h), the
 * capture that uses them (ra_capture_answer) and what an answer that
 * cannot be decoded does to a site (ra_audit_robots, the status page).
 * The compressed inputs are made here with zlib and libbrotlienc.
 */
#include <stdlib.h>
#include <string.h>

#define ZLIB_CONST
#include <zlib.h>
#include <brotli/encode.h>

#include "ra_test.h"
#include "ra_audit.h"
#include "ra_decode.h"
#include "ra_http.h"
#include "ra_status.h"
#include "ra_lint.h"

#define S(lit)  ((ra_str_t) ra_string(lit))

#define T0      1700000000000LL

static const char  robots[] =
    "User-agent: *\n"
    "Disallow: /private\n"
    "Allow: /private/open\n"
    "\n"
    "User-agent: Googlebot\n"
    "Disallow: /nogoogle\n"
    "Sitemap: https://example.com/sitemap.xml\n";

#define ROBOTS  ra_str(robots, sizeof(robots) - 1)

/* zlib's deflate with windowBits wbits: 31 gzip, 15 zlib, -15 raw */
static ra_str_t
zpack(ra_str_t in, int wbits)
{
    z_stream        z;
    size_t          cap;
    unsigned char  *out;

    memset(&z, 0, sizeof(z));
    assert_int_equal(deflateInit2(&z, 9, Z_DEFLATED, wbits, 9,
                                  Z_DEFAULT_STRATEGY), Z_OK);
    cap = deflateBound(&z, (uLong) in.len) + 64;
    out = malloc(cap);
    assert_non_null(out);
    z.next_in = in.data;
    z.avail_in = (uInt) in.len;
    z.next_out = out;
    z.avail_out = (uInt) cap;
    assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
    cap = z.total_out;
    deflateEnd(&z);
    return ra_str(out, cap);
}

static ra_str_t
gz(ra_str_t in)
{
    return zpack(in, 31);
}

static ra_str_t
brpack(ra_str_t in)
{
    size_t          n = BrotliEncoderMaxCompressedSize(in.len) + 64;
    unsigned char  *out = malloc(n);

    assert_non_null(out);
    assert_true(BrotliEncoderCompress(5, 22, BROTLI_MODE_TEXT, in.len,
                                      in.data, &n, out));
    return ra_str(out, n);
}

static void
drop(ra_str_t s)
{
    free((void *) s.data);
}

/* decodes in with value, complete, max RA_ROBOTS_MAX: the return code */
static int
dec(const char *value, ra_str_t in, int complete, ra_buf_t *out,
    ra_decode_info_t *info)
{
    return ra_decode(ra_str(value, strlen(value)), in, complete,
                     RA_ROBOTS_MAX, &ra_malloc_allocator,
                     &ra_malloc_allocator, out, info);
}

static void
assert_robots(const ra_buf_t *out)
{
    assert_int_equal(out->len, sizeof(robots) - 1);
    assert_memory_equal(out->data, robots, sizeof(robots) - 1);
}

static void
codings_list(void **state)
{
    ra_codings_t  cs;

    (void) state;
    assert_int_equal(ra_codings_parse(ra_str(NULL, 0), &cs), RA_OK);
    assert_int_equal(cs.n, 0);
    assert_int_equal(ra_codings_parse(S(" identity , ,"), &cs), RA_OK);
    assert_int_equal(cs.n, 0);
    assert_int_equal(ra_codings_parse(S("GZip,br , x-gzip,\tDeflate"), &cs),
                     RA_OK);
    assert_int_equal(cs.n, 4);
    assert_int_equal(cs.codings[0], RA_CODING_GZIP);
    assert_int_equal(cs.codings[1], RA_CODING_BR);
    assert_int_equal(cs.codings[2], RA_CODING_GZIP);
    assert_int_equal(cs.codings[3], RA_CODING_DEFLATE);
    assert_int_equal(ra_codings_parse(S("gzip, zstd"), &cs), RA_ERROR);
    assert_int_equal(cs.bad.len, 4);
    assert_memory_equal(cs.bad.data, "zstd", 4);
    assert_int_equal(ra_codings_parse(S("gzip;q=1"), &cs), RA_ERROR);
    assert_int_equal(ra_codings_parse(S("gzip,gzip,gzip,gzip,br"), &cs),
                     RA_ERROR);
    assert_memory_equal(cs.bad.data, "br", 2);
    assert_true(ra_coding_is_identity(S("")));
    assert_true(ra_coding_is_identity(S("identity")));
    assert_false(ra_coding_is_identity(S("gzip")));
    assert_false(ra_coding_is_identity(S("compress")));
    assert_string_equal(ra_coding_name(RA_CODING_BR), "br");
}

static void
identity(void **state)
{
    ra_buf_t          out;
    ra_decode_info_t  info;

    (void) state;
    assert_int_equal(dec("", ROBOTS, 1, &out, &info), RA_OK);
    assert_robots(&out);
    assert_false(info.truncated);
    ra_buf_release(&out);
    assert_int_equal(dec("identity", ROBOTS, 1, &out, &info), RA_OK);
    assert_robots(&out);
    ra_buf_release(&out);
    /* nothing to decode, whatever the coding */
    assert_int_equal(dec("gzip", ra_str(NULL, 0), 1, &out, &info), RA_OK);
    assert_int_equal(out.len, 0);
    ra_buf_release(&out);
}

static void
gzip_and_deflate(void **state)
{
    ra_str_t          g, z, raw, two;
    ra_buf_t          out;
    ra_decode_info_t  info;
    unsigned char    *p;

    (void) state;
    g = gz(ROBOTS);
    assert_int_equal(dec("gzip", g, 1, &out, &info), RA_OK);
    assert_robots(&out);
    assert_false(info.truncated);
    ra_buf_release(&out);
    assert_int_equal(dec("X-GZIP", g, 1, &out, &info), RA_OK);
    assert_robots(&out);
    ra_buf_release(&out);

    /* two members are one body; what follows the last is ignored */
    p = malloc(2 * g.len + 3);
    memcpy(p, g.data, g.len);
    memcpy(p + g.len, g.data, g.len);
    memcpy(p + 2 * g.len, "\0\0\0", 3);
    two = ra_str(p, 2 * g.len + 3);
    assert_int_equal(dec("gzip", two, 1, &out, &info), RA_OK);
    assert_int_equal(out.len, 2 * (sizeof(robots) - 1));
    assert_memory_equal(out.data + sizeof(robots) - 1, robots,
                        sizeof(robots) - 1);
    ra_buf_release(&out);
    drop(two);

    /* deflate as RFC 9110 says (zlib) and as some servers send it (raw) */
    z = zpack(ROBOTS, 15);
    raw = zpack(ROBOTS, -15);
    assert_int_equal(dec("deflate", z, 1, &out, &info), RA_OK);
    assert_robots(&out);
    ra_buf_release(&out);
    assert_int_equal(dec("deflate", raw, 1, &out, &info), RA_OK);
    assert_robots(&out);
    ra_buf_release(&out);

    /* gzip is not deflate, nor the other way round */
    assert_int_equal(dec("deflate", g, 1, &out, &info), RA_ERROR);
    assert_int_equal(dec("gzip", z, 1, &out, &info), RA_ERROR);
    assert_string_equal(info.error, "corrupt gzip data");
    drop(g);
    drop(z);
    drop(raw);
}

static void
brotli(void **state)
{
    ra_str_t          b;
    ra_buf_t          out;
    ra_decode_info_t  info;

    (void) state;
    b = brpack(ROBOTS);
    assert_int_equal(dec("br", b, 1, &out, &info), RA_OK);
    assert_robots(&out);
    assert_false(info.truncated);
    ra_buf_release(&out);
    assert_int_equal(dec("gzip", b, 1, &out, &info), RA_ERROR);
    drop(b);
}

/* 20 MiB of one robots.txt repeated compresses to a few KiB: decoding
 * stops at 500 KiB, with the rest unread */
static void
bomb(void **state)
{
    size_t            n = 20u * 1024 * 1024, i;
    unsigned char    *big = malloc(n);
    ra_str_t          g, b, z;
    ra_buf_t          out;
    ra_decode_info_t  info;

    (void) state;
    for (i = 0; i < n; i++) {
        big[i] = (unsigned char) robots[i % (sizeof(robots) - 1)];
    }
    g = gz(ra_str(big, n));
    b = brpack(ra_str(big, n));
    z = zpack(ra_str(big, n), -15);
    assert_true(g.len < RA_ROBOTS_MAX / 4);      /* ~80 KiB */
    assert_true(b.len < RA_ROBOTS_MAX / 8);

    assert_int_equal(dec("gzip", g, 1, &out, &info), RA_OK);
    assert_int_equal(out.len, RA_ROBOTS_MAX);
    assert_true(out.cap <= RA_ROBOTS_MAX);
    assert_true(info.truncated);
    assert_true(info.capped);
    assert_memory_equal(out.data, big, RA_ROBOTS_MAX);
    ra_buf_release(&out);

    assert_int_equal(dec("br", b, 1, &out, &info), RA_OK);
    assert_int_equal(out.len, RA_ROBOTS_MAX);
    assert_true(info.capped);
    assert_memory_equal(out.data, big, RA_ROBOTS_MAX);
    ra_buf_release(&out);

    assert_int_equal(dec("deflate", z, 1, &out, &info), RA_OK);
    assert_int_equal(out.len, RA_ROBOTS_MAX);
    assert_true(info.capped);
    ra_buf_release(&out);

    /* a smaller cap stops there */
    assert_int_equal(ra_decode(S("gzip"), g, 1, 1000, &ra_malloc_allocator,
                               &ra_malloc_allocator, &out, &info), RA_OK);
    assert_int_equal(out.len, 1000);
    assert_true(info.capped);
    ra_buf_release(&out);

    drop(g);
    drop(b);
    drop(z);
    free(big);
}

static void
truncated_and_corrupt(void **state)
{
    ra_str_t          g, b, cut;
    ra_buf_t          out;
    ra_decode_info_t  info;
    unsigned char    *p;

    (void) state;
    g = gz(ROBOTS);
    b = brpack(ROBOTS);

    /* the whole answer, ending early: an error */
    cut = ra_str(g.data, g.len - 12);
    assert_int_equal(dec("gzip", cut, 1, &out, &info), RA_ERROR);
    assert_string_equal(info.error, "the gzip data ends early");
    assert_int_equal(out.len, 0);
    /* a prefix (the capture kept the first bytes): a prefix of the body */
    assert_int_equal(dec("gzip", cut, 0, &out, &info), RA_OK);
    assert_true(info.truncated);
    assert_false(info.capped);
    assert_true(out.len > 0 && out.len <= sizeof(robots) - 1);
    assert_memory_equal(out.data, robots, out.len);
    ra_buf_release(&out);
    cut = ra_str(b.data, b.len / 2);
    assert_int_equal(dec("br", cut, 1, &out, &info), RA_ERROR);
    assert_string_equal(info.error, "the br data ends early");

    /* bytes changed in the middle: the CRC or the stream says so */
    p = malloc(g.len);
    memcpy(p, g.data, g.len);
    p[g.len / 2] ^= 0x55;
    p[g.len / 2 + 1] ^= 0xaa;
    assert_int_equal(dec("gzip", ra_str(p, g.len), 1, &out, &info),
                     RA_ERROR);
    assert_string_equal(info.error, "corrupt gzip data");
    free(p);
    p = malloc(b.len);
    memcpy(p, b.data, b.len);
    p[0] = 0xff;
    p[1] = 0xff;
    assert_int_equal(dec("br", ra_str(p, b.len), 1, &out, &info),
                     RA_ERROR);
    assert_string_equal(info.error, "corrupt br data");
    free(p);

    /* plain text called gzip */
    assert_int_equal(dec("gzip", ROBOTS, 1, &out, &info), RA_ERROR);
    assert_int_equal(dec("deflate", ROBOTS, 1, &out, &info), RA_ERROR);
    assert_int_equal(dec("br", ROBOTS, 1, &out, &info), RA_ERROR);
    drop(g);
    drop(b);
}

static void
unknown_coding(void **state)
{
    ra_buf_t          out;
    ra_decode_info_t  info;

    (void) state;
    assert_int_equal(dec("compress", ROBOTS, 1, &out, &info), RA_ERROR);
    assert_string_equal(info.error, "unknown content coding");
    assert_int_equal(dec("gzip, zstd", ROBOTS, 1, &out, &info), RA_ERROR);
    assert_int_equal(dec("gzip,gzip,gzip,gzip,gzip", ROBOTS, 1, &out,
                         &info), RA_ERROR);
    assert_string_equal(info.error, "too many content codings");
}

/* "gzip, br": gzip applied first, br over it; br is undone first */
static void
stacked(void **state)
{
    ra_str_t          g, gb, z, zg, g2, g3, g4;
    ra_buf_t          out;
    ra_decode_info_t  info;

    (void) state;
    g = gz(ROBOTS);
    gb = brpack(g);
    assert_int_equal(dec("gzip, br", gb, 1, &out, &info), RA_OK);
    assert_robots(&out);
    ra_buf_release(&out);
    /* the wrong order fails */
    assert_int_equal(dec("br, gzip", gb, 1, &out, &info), RA_ERROR);
    assert_int_equal(dec("identity, gzip, identity, br", gb, 1, &out,
                         &info), RA_OK);
    assert_robots(&out);
    ra_buf_release(&out);

    z = zpack(ROBOTS, 15);
    zg = gz(z);
    assert_int_equal(dec("deflate,gzip", zg, 1, &out, &info), RA_OK);
    assert_robots(&out);
    ra_buf_release(&out);

    /* four layers are undone, the limit */
    g2 = gz(g);
    g3 = gz(g2);
    g4 = gz(g3);
    assert_int_equal(dec("gzip, gzip, gzip, gzip", g4, 1, &out, &info),
                     RA_OK);
    assert_robots(&out);
    ra_buf_release(&out);
    assert_int_equal(dec("gzip, gzip, gzip", g4, 1, &out, &info), RA_OK);
    assert_int_equal(out.len, g.len);
    ra_buf_release(&out);

    drop(g);
    drop(gb);
    drop(z);
    drop(zg);
    drop(g2);
    drop(g3);
    drop(g4);
}

static void *
fail_alloc(void *ctx, size_t n)
{
    (void) ctx;
    (void) n;
    return NULL;
}

static void
out_of_memory(void **state)
{
    ra_str_t          g = gz(ROBOTS), b = brpack(ROBOTS);
    ra_buf_t          out;
    ra_decode_info_t  info;
    ra_alloc_t        none = { fail_alloc, NULL, NULL };

    (void) state;
    assert_int_equal(ra_decode(S("gzip"), g, 1, RA_ROBOTS_MAX,
                               &ra_malloc_allocator, &none, &out, &info),
                     RA_ENOMEM);
    assert_int_equal(ra_decode(S("br"), b, 1, RA_ROBOTS_MAX,
                               &ra_malloc_allocator, &none, &out, &info),
                     RA_ENOMEM);
    assert_int_equal(ra_decode(S("gzip"), g, 1, RA_ROBOTS_MAX, &none,
                               &ra_malloc_allocator, &out, &info),
                     RA_ENOMEM);
    drop(g);
    drop(b);
}


/* ---- the capture ------------------------------------------------------ */

static void
capture(ra_capture_t *c, const ra_alloc_t *a, int status, const char *coding,
    ra_str_t body, ra_answer_t *ans)
{
    size_t  i, n;

    ra_capture_start(c, a, a, status, (int64_t) body.len,
                     ra_str(coding, strlen(coding)));
    /* in pieces, as a server's buffers come */
    for (i = 0; i < body.len; i += n) {
        n = body.len - i < 1000 ? body.len - i : 1000;
        ra_capture_add(c, body.data + i, n);
    }
    ra_capture_answer(c, S("text/plain"), ra_str(NULL, 0), ans);
}

static void
capture_decodes(void **state)
{
    ra_str_t          g, big;
    ra_answer_t       ans;
    ra_capture_t      c;
    unsigned char    *p;
    ra_test_arena_t  *arena = ra_test_arena_new();
    const ra_alloc_t *a = ra_test_arena_alloc(arena);

    (void) state;
    g = gz(ROBOTS);
    capture(&c, a, 200, "gzip", g, &ans);
    assert_false(c.failed);
    assert_int_equal(ans.body.len, sizeof(robots) - 1);
    assert_memory_equal(ans.body.data, robots, sizeof(robots) - 1);
    assert_int_equal(ans.size, g.len);              /* served */
    assert_int_equal(ans.decoded, sizeof(robots) - 1);
    assert_int_equal(ans.content_encoding.len, 4);
    assert_false(ans.truncated);
    assert_false(ans.undecodable);

    /* identity: as before, nothing decoded */
    capture(&c, a, 200, "identity", ROBOTS, &ans);
    assert_int_equal(ans.content_encoding.len, 0);
    assert_int_equal(ans.decoded, 0);
    assert_int_equal(ans.body.len, sizeof(robots) - 1);

    /* corrupt: a 2xx is undecodable, its body none */
    p = malloc(g.len);
    memcpy(p, g.data, g.len);
    p[g.len - 6] ^= 0xff;                           /* the CRC */
    capture(&c, a, 200, "gzip", ra_str(p, g.len), &ans);
    assert_true(ans.undecodable);
    assert_string_equal(ans.decode_error, "corrupt gzip data");
    assert_int_equal(ans.body.len, 0);
    assert_int_equal(ans.size, g.len);
    capture(&c, a, 200, "xz", ROBOTS, &ans);
    assert_true(ans.undecodable);
    assert_string_equal(ans.decode_error, "unknown content coding");
    /* a 404's body is not read by crawlers: nothing undecodable */
    capture(&c, a, 404, "gzip", ra_str(p, g.len), &ans);
    assert_false(ans.undecodable);
    free(p);

    /* more than the capture keeps of a coded body: the first bytes are
     * decoded as far as they go */
    p = malloc(RA_ROBOTS_MAX + 100000);
    for (size_t i = 0; i < RA_ROBOTS_MAX + 100000; i++) {
        p[i] = (unsigned char) (rand() & 0xff);
    }
    big = gz(ra_str(p, RA_ROBOTS_MAX + 100000));    /* incompressible */
    assert_true(big.len > RA_ROBOTS_MAX);
    capture(&c, a, 200, "gzip", big, &ans);
    assert_false(ans.undecodable);
    assert_true(ans.truncated);
    assert_int_equal(ans.size, big.len);
    assert_true(ans.body.len > RA_ROBOTS_MAX - 1000);
    assert_memory_equal(ans.body.data, p, ans.body.len);
    free(p);
    drop(big);
    drop(g);
    ra_test_arena_free(arena);
}

static void
capture_out_of_memory(void **state)
{
    ra_str_t      g = gz(ROBOTS);
    ra_answer_t   ans;
    ra_capture_t  c;
    ra_alloc_t    none = { fail_alloc, NULL, NULL };

    (void) state;
    ra_capture_start(&c, &ra_malloc_allocator, &none, 200, -1, S("gzip"));
    ra_capture_add(&c, g.data, g.len);
    ra_capture_answer(&c, S("text/plain"), ra_str(NULL, 0), &ans);
    assert_true(c.failed);                          /* not recorded */
    ra_buf_release(&c.body);
    drop(g);
}


/* ---- a site whose answer cannot be decoded ---------------------------- */

typedef struct {
    ra_host_t   host;
    char        lines[8][RA_HOST_LINE_MAX + 1];
    int         n;
} cap_host_t;

static void
cap_log(const ra_host_t *h, void *where, ra_log_level_e level, ra_str_t line)
{
    cap_host_t  *c = h->ctx;

    (void) where;
    (void) level;
    if (c->n < 8) {
        memcpy(c->lines[c->n], line.data, line.len);
        c->lines[c->n][line.len] = '\0';
        c->n++;
    }
}

/* the status page of the ledger in format fmt, as a C string */
static char *
page(ra_ledger_t *l, const char *fmt)
{
    char              *s;
    ra_status_page_t   pg;

    assert_int_equal(ra_status_page(l, NULL, S("GET"),
                                    ra_str(fmt, strlen(fmt)),
                                    T0 + 10000, &ra_malloc_allocator, &pg),
                     RA_OK);
    assert_int_equal(pg.status, 200);
    s = malloc(pg.body.len + 1);
    memcpy(s, pg.body.data, pg.body.len);
    s[pg.body.len] = '\0';
    ra_status_page_free(&pg);
    return s;
}

static void
undecodable_site(void **state)
{
    size_t            size = 1024 * 1024;
    unsigned char    *region = malloc(size);
    char             *s;
    ra_str_t          g, site = S("example.com");
    ra_ledger_t       l;
    ra_audit_t       *au;
    ra_answer_t       ans;
    ra_capture_t      c;
    cap_host_t        h;
    ra_audit_conf_t   conf;
    unsigned char    *bad;

    (void) state;
    memset(&h, 0, sizeof(h));
    h.host.ctx = &h;
    h.host.log = cap_log;
    h.host.heap = ra_malloc_allocator;
    assert_int_equal(ra_ledger_format(region, size, T0), RA_OK);
    ra_ledger_open(&l, region, NULL);
    memset(&conf, 0, sizeof(conf));
    conf.alloc = &ra_malloc_allocator;
    conf.host = &h.host;
    conf.alert_interval = -1;
    au = ra_audit_create(&conf, &l);
    assert_non_null(au);

    /* a good gzip answer: its rules, both sizes */
    g = gz(ROBOTS);
    capture(&c, &ra_malloc_allocator, 200, "gzip", g, &ans);
    assert_int_equal(ra_audit_robots(au, site, &ans, T0), RA_OK);
    ra_buf_release(&c.body);
    ra_buf_release(&c.decoded);
    s = page(&l, "format=json");
    assert_non_null(strstr(s, "\"groups\":2,\"rules\":3,\"sitemaps\":1,"
                              "\"errors\":0"));
    assert_non_null(strstr(s, "\"decoded_bytes\":" "138"
                              ",\"content_encoding\":\"gzip\""));
    assert_non_null(strstr(s, "\"undecodable\":null"));
    free(s);

    /* then a corrupt one: the rules stay, the site says why */
    bad = malloc(g.len);
    memcpy(bad, g.data, g.len);
    bad[g.len / 2] ^= 0x5a;
    capture(&c, &ra_malloc_allocator, 200, "gzip", ra_str(bad, g.len), &ans);
    assert_true(ans.undecodable);
    assert_int_equal(ra_audit_robots(au, site, &ans, T0 + 1000), RA_OK);
    assert_int_equal(h.n, 1);
    assert_non_null(strstr(h.lines[0], "[RA202] site=\"example.com\" "
                           "robots.txt sent with Content-Encoding \"gzip\" "
                           "could not be decoded (corrupt gzip data)"));
    /* said once while it lasts */
    assert_int_equal(ra_audit_robots(au, site, &ans, T0 + 2000), RA_OK);
    assert_int_equal(h.n, 1);
    ra_buf_release(&c.body);
    ra_buf_release(&c.decoded);

    s = page(&l, "format=json");
    assert_non_null(strstr(s, "\"groups\":2,\"rules\":3,\"sitemaps\":1,"
                              "\"errors\":1"));
    assert_non_null(strstr(s, "\"undecodable\":{\"content_encoding\":"
                              "\"gzip\",\"since\":"));
    free(s);
    s = page(&l, "format=html");
    assert_non_null(strstr(s, "health h-warn\">robots.txt could not be "
                              "decoded (Content-Encoding: gzip)"));
    assert_non_null(strstr(s, "<code>content-encoding</code>"));
    assert_non_null(strstr(s, "bytes served (gzip), 138 decoded"));
    free(s);
    s = page(&l, "format=prometheus");
    assert_non_null(strstr(s, "robots_audit_robots_findings{site=\"example"
                              ".com\",severity=\"error\"} 1"));
    free(s);

    /* a good answer again clears it */
    capture(&c, &ra_malloc_allocator, 200, "", ROBOTS, &ans);
    assert_int_equal(ra_audit_robots(au, site, &ans, T0 + 3000), RA_OK);
    ra_buf_release(&c.body);
    s = page(&l, "format=json");
    assert_non_null(strstr(s, "\"undecodable\":null"));
    assert_non_null(strstr(s, "\"errors\":0"));
    assert_non_null(strstr(s, "\"content_encoding\":null"));
    free(s);

    free(bad);
    drop(g);
    ra_audit_destroy(au);
    free(region);
}

static void
lint_finding(void **state)
{
    ra_lint_t       lint;
    ra_lint_http_t  http;

    (void) state;
    memset(&http, 0, sizeof(http));
    http.status = 200;
    http.undecodable = 1;
    http.content_encoding = S("gzip, \x01zz");
    assert_int_equal(ra_lint(ra_str(NULL, 0), &http, &ra_malloc_allocator,
                             &lint), RA_OK);
    assert_int_equal(lint.nfindings, 1);
    assert_int_equal(lint.findings[0].code, RA_LC_CONTENT_ENCODING);
    assert_int_equal(lint.findings[0].severity, RA_SEV_ERROR);
    assert_int_equal(lint.findings[0].line, 0);
    assert_string_equal(ra_lint_code_name(RA_LC_CONTENT_ENCODING),
                        "content-encoding");
    assert_non_null(strstr((const char *) lint.findings[0].message.data,
                           "robots.txt sent with Content-Encoding "
                           "'gzip, \\x01zz' that could not be decoded"));
    assert_int_equal(lint.summary.errors, 1);
    ra_lint_free(&lint, &ra_malloc_allocator);

    /* with the body still in force: both */
    assert_int_equal(ra_lint(ROBOTS, &http, &ra_malloc_allocator, &lint),
                     RA_OK);
    assert_int_equal(lint.summary.groups, 2);
    assert_int_equal(lint.summary.errors, 1);
    ra_lint_free(&lint, &ra_malloc_allocator);
}

int
main(void)
{
    const struct CMUnitTest  tests[] = {
        cmocka_unit_test(codings_list),
        cmocka_unit_test(identity),
        cmocka_unit_test(gzip_and_deflate),
        cmocka_unit_test(brotli),
        cmocka_unit_test(bomb),
        cmocka_unit_test(truncated_and_corrupt),
        cmocka_unit_test(unknown_coding),
        cmocka_unit_test(stacked),
        cmocka_unit_test(out_of_memory),
        cmocka_unit_test(capture_decodes),
        cmocka_unit_test(capture_out_of_memory),
        cmocka_unit_test(undecodable_site),
        cmocka_unit_test(lint_finding),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
