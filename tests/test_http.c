/* SPDX-License-Identifier: BSD-2-Clause */
/* The request-level policies both server modules take from the core:
 * robots.txt request, capture, capture buffer, sites, status page. */
#include <string.h>

#include "ra_test.h"
#include "ra_http.h"
#include "ra_status.h"
#include "ra_json.h"
#include "ra_parse.h"
#include "ra_crawlers.h"

#define S(lit)  ((ra_str_t) ra_string(lit))

/* The servers' own pages are nobody's traffic */
static void
server_pages(void **state)
{
    (void) state;
    assert_true(ra_http_server_page(S("/server-status"), S(""), 0));
    assert_true(ra_http_server_page(S("/server-status?auto"), S(""), 0));
    assert_true(ra_http_server_page(S("//server-status/"), S(""), 0));
    assert_true(ra_http_server_page(S("/a/../server-info"), S(""), 0));
    assert_true(ra_http_server_page(S("/%73erver-status"), S(""), 0));
    assert_true(ra_http_server_page(S("/nginx_status"), S(""), 0));
    assert_true(ra_http_server_page(S("/stub_status"), S(""), 0));
    assert_true(ra_http_server_page(S("http://h/server-status"), S(""), 0));
    assert_false(ra_http_server_page(S("/server-statusx"), S(""), 0));
    assert_false(ra_http_server_page(S("/x/server-status"), S(""), 0));
    assert_false(ra_http_server_page(S("/Server-Status"), S(""), 0));
    assert_false(ra_http_server_page(S("/"), S(""), 0));
    assert_false(ra_http_server_page(S(""), S(""), 0));
    assert_false(ra_http_server_page(ra_str(NULL, 0), ra_str(NULL, 0), 0));
    /* a handler says it wherever it is mapped; the module's own location */
    assert_true(ra_http_server_page(S("/status"), S("server-status"), 0));
    assert_true(ra_http_server_page(S("/x"), S("server-info"), 0));
    assert_true(ra_http_server_page(S("/ra"), S("robots-audit-status"), 0));
    assert_false(ra_http_server_page(S("/x"), S("default-handler"), 0));
    /* the handler alone (no target: Apache's glue asks so) */
    assert_true(ra_http_server_page(S(""), S("server-info"), 0));
    assert_false(ra_http_server_page(S(""), S("default-handler"), 0));
    assert_false(ra_http_server_page(ra_str(NULL, 0), S("text/html"), 0));
    /* of the handlers' lengths, and not one of them */
    assert_false(ra_http_server_page(S(""), S("server-statu"), 0));
    assert_false(ra_http_server_page(S(""), S("server-infos"), 0));
    assert_false(ra_http_server_page(S(""), S("robots-audit-statuz"), 0));
    assert_false(ra_http_server_page(S(""), S("Server-Status"), 0));
    assert_true(ra_http_server_page(S(""), S("server-status"), 0));
    assert_true(ra_http_server_page(S(""), S("robots-audit-status"), 0));
    assert_true(ra_http_server_page(S("/anything"), S(""), 1));
}

static void
robots_request(void **state)
{
    (void) state;
    assert_true(ra_http_is_robots(S("/robots.txt")));
    assert_true(ra_http_is_robots(S("/robots.txt?x=1")));
    assert_true(ra_http_is_robots(S("/robots.txt?")));
    assert_false(ra_http_is_robots(S("/robots.txt/")));
    assert_false(ra_http_is_robots(S("/Robots.txt")));
    assert_false(ra_http_is_robots(S("/robots.txtx")));
    assert_false(ra_http_is_robots(S("/a/robots.txt")));
    assert_false(ra_http_is_robots(S("")));
    assert_false(ra_http_is_robots(ra_str(NULL, 0)));
    /* the glue and ra_audit read the target alike: a fragment, the
     * absolute form */
    assert_true(ra_http_is_robots(S("/robots.txt#a")));
    assert_true(ra_http_is_robots(S("http://example.com/robots.txt")));
    assert_true(ra_http_is_robots(S("http://example.com/robots.txt?x")));
    assert_false(ra_http_is_robots(S("http://example.com/x/robots.txt")));
    /* the canonical path, as the servers read it (test_canon.c has the
     * rest) */
    assert_true(ra_http_is_robots(S("//robots.txt")));
    assert_true(ra_http_is_robots(S("/robots.txt/../robots.txt")));
    assert_true(ra_http_is_robots(S("/%72obots.txt")));
    assert_false(ra_http_is_robots(S("/robots.txt/../private/x")));
    assert_false(ra_http_is_robots(S("/%2Frobots.txt")));
}

/* answers about the request, which any client can provoke, are never
 * the file */
static void
answer_is_file(void **state)
{
    static const int  request[] = { 0, 400, 408, 411, 412, 413, 414, 416,
                                    417, 421, 431, 494, 495, 496, 497, 499,
                                    501, 505, -1, 1000 };
    static const int  file[] = { 200, 204, 301, 302, 401, 403, 404, 410,
                                 429, 500, 502, 503, 504 };
    size_t            i;

    (void) state;
    for (i = 0; i < sizeof(request) / sizeof(request[0]); i++) {
        assert_false(ra_http_answer_is_file(request[i]));
    }
    for (i = 0; i < sizeof(file) / sizeof(file[0]); i++) {
        assert_true(ra_http_answer_is_file(file[i]));
    }
    assert_false(ra_http_capture_wanted(S("GET"), S("/robots.txt"), 412, 0));
    assert_false(ra_http_capture_wanted(S("GET"), S("/robots.txt"), 501, 0));
    assert_true(ra_http_capture_wanted(S("GET"), S("/robots.txt"), 503, 0));
}

static void
capture_wanted(void **state)
{
    (void) state;
    assert_true(ra_http_capture_wanted(S("GET"), S("/robots.txt"), 200, 0));
    assert_true(ra_http_capture_wanted(S("GET"), S("/robots.txt"), 503, 0));
    assert_true(ra_http_capture_wanted(S("GET"), S("/robots.txt"), 404, 0));
    assert_false(ra_http_capture_wanted(S("HEAD"), S("/robots.txt"), 200, 0));
    assert_false(ra_http_capture_wanted(S("POST"), S("/robots.txt"), 200, 0));
    assert_false(ra_http_capture_wanted(S("GET"), S("/robots.txt"), 304, 0));
    assert_false(ra_http_capture_wanted(S("GET"), S("/robots.txt"), 206, 0));
    assert_false(ra_http_capture_wanted(S("GET"), S("/robots.txt"), 200, 1));
    assert_false(ra_http_capture_wanted(S("GET"), S("/index.html"), 200, 0));
    /* spellings the servers serve the file for (ra_http_is_robots), and
     * only those: the 404 Apache gives "/robots.txt%3F" or "/%2Frobots.txt"
     * must never become the site's robots.txt */
    assert_true(ra_http_capture_wanted(S("GET"), S("//robots.txt"), 200, 0));
    assert_true(ra_http_capture_wanted(S("GET"), S("/a/../robots.txt"), 200,
                                       0));
    assert_false(ra_http_capture_wanted(S("GET"), S("/robots.txt%3F"), 404,
                                        0));
    assert_false(ra_http_capture_wanted(S("GET"), S("/%2Frobots.txt"), 404,
                                        0));
    assert_false(ra_http_capture_wanted(S("GET"), S("/robots.txt/."), 404,
                                        0));

    assert_true(ra_http_has_body(200, 0));
    assert_true(ra_http_has_body(503, 0));
    assert_false(ra_http_has_body(200, 1));
    assert_false(ra_http_has_body(204, 0));
    assert_false(ra_http_has_body(304, 0));
    assert_false(ra_http_has_body(101, 0));
}


/* a server's reader for ra_capture_read(): copies, or fails */
static int
read_ok(void *ctx, void *dst, size_t k)
{
    (void) ctx;
    memset(dst, 'z', k);
    return RA_OK;
}

static int
read_fails(void *ctx, void *dst, size_t k)
{
    (void) ctx;
    (void) dst;
    (void) k;
    return RA_ERROR;
}

static void
capture_buffer(void **state)
{
    size_t          i, keep;
    ra_answer_t     ans;
    ra_capture_t    c;
    unsigned char  *dst, chunk[7000];

    (void) state;
    memset(chunk, 'a', sizeof(chunk));

    /* small: kept whole, header as given */
    ra_capture_start(&c, &ra_malloc_allocator, NULL, 200, 12,
                     ra_str(NULL, 0));
    ra_capture_add(&c, "User-agent:", 11);
    ra_capture_add(&c, "*", 1);
    ra_capture_answer(&c, S("text/plain"), S(""), &ans);
    assert_int_equal(ans.status, 200);
    assert_int_equal(ans.body.len, 12);
    assert_memory_equal(ans.body.data, "User-agent:*", 12);
    assert_int_equal(ans.size, 12);
    assert_false(ans.truncated);
    assert_int_equal(ans.content_type.len, 10);
    /* nginx keeps the charset apart until its header filter runs */
    ra_capture_answer(&c, S("text/plain"), S("utf-8"), &ans);
    assert_int_equal(ans.content_type.len, 25);
    assert_memory_equal(ans.content_type.data, "text/plain; charset=utf-8",
                        25);
    ra_free(&ra_malloc_allocator, (void *) ans.content_type.data);
    ra_capture_answer(&c, S("text/plain; Charset=utf-8"), S("utf-8"), &ans);
    assert_int_equal(ans.content_type.len, 25);     /* said once */
    ra_capture_answer(&c, ra_str(NULL, 0), S("utf-8"), &ans);
    assert_int_equal(ans.content_type.len, 0);      /* no type, no charset */
    ra_buf_release(&c.body);

    /* empty answer: no memory at all */
    ra_capture_start(&c, &ra_malloc_allocator, NULL, 200, -1,
                     ra_str(NULL, 0));
    ra_capture_answer(&c, ra_str(NULL, 0), ra_str(NULL, 0), &ans);
    assert_int_equal(ans.body.len, 0);
    assert_null(c.body.data);
    /* no header: "absent" (data set, length 0), as lint reads it, from
     * either server */
    assert_non_null(ans.content_type.data);
    assert_int_equal(ans.content_type.len, 0);

    /* over the cap: the first RA_ROBOTS_MAX bytes, every byte counted */
    ra_capture_start(&c, &ra_malloc_allocator, NULL, 200, -1,
                     ra_str(NULL, 0));
    for (i = 0; i < 100; i++) {
        chunk[0] = (unsigned char) ('0' + i % 10);
        ra_capture_add(&c, chunk, sizeof(chunk));
    }
    assert_false(c.failed);
    assert_int_equal(c.body.len, RA_ROBOTS_MAX);
    assert_true(c.body.cap <= RA_ROBOTS_MAX);
    assert_int_equal(c.body.data[7000], '1');
    ra_capture_answer(&c, ra_str(NULL, 0), ra_str(NULL, 0), &ans);
    assert_int_equal(ans.size, 700000);
    assert_true(ans.truncated);
    ra_buf_release(&c.body);

    /* sendfile: space, copy, commit; a full body asks for nothing */
    ra_capture_start(&c, &ra_malloc_allocator, NULL, 200,
                     RA_ROBOTS_MAX + 10, ra_str(NULL, 0));
    dst = ra_capture_space(&c, RA_ROBOTS_MAX - 5, &keep);
    assert_non_null(dst);
    assert_int_equal(keep, RA_ROBOTS_MAX - 5);
    assert_int_equal(c.body.cap, RA_ROBOTS_MAX);    /* sized once */
    memset(dst, 'x', keep);
    ra_capture_commit(&c, keep);
    dst = ra_capture_space(&c, 10, &keep);
    assert_int_equal(keep, 5);
    memset(dst, 'y', keep);
    ra_capture_commit(&c, keep);
    dst = ra_capture_space(&c, 10, &keep);
    assert_null(dst);
    assert_int_equal(keep, 0);
    /* full: what follows is counted without being read */
    assert_int_equal(ra_capture_skip(&c, 7), 1);
    ra_capture_answer(&c, ra_str(NULL, 0), ra_str(NULL, 0), &ans);
    assert_int_equal(ans.size, RA_ROBOTS_MAX + 22);
    assert_int_equal(ans.body.len, RA_ROBOTS_MAX);
    assert_int_equal(ans.body.data[RA_ROBOTS_MAX - 1], 'y');
    ra_buf_release(&c.body);

    /* a failed read: the answer is not recorded */
    ra_capture_start(&c, &ra_malloc_allocator, NULL, 200, -1,
                     ra_str(NULL, 0));
    assert_int_equal(ra_capture_skip(&c, 3), 0);   /* room: read them */
    assert_int_equal(c.size, 0);
    (void) ra_capture_space(&c, 10, &keep);
    ra_capture_fail(&c);
    assert_true(c.failed);
    assert_null(ra_capture_space(&c, 10, &keep));
    assert_int_equal(ra_capture_skip(&c, 5), 1);   /* failed: counted */
    assert_int_equal(c.size, 25);
    ra_buf_release(&c.body);

    /* the same in one step, through the server's reader */
    ra_capture_start(&c, &ra_malloc_allocator, NULL, 200, -1,
                     ra_str(NULL, 0));
    assert_int_equal(ra_capture_read(&c, 4, read_ok, NULL), RA_OK);
    assert_int_equal(c.body.len, 4);
    assert_memory_equal(c.body.data, "zzzz", 4);
    assert_int_equal(ra_capture_read(&c, 4, read_fails, NULL), RA_ERROR);
    assert_true(c.failed);
    assert_int_equal(c.body.len, 4);
    assert_int_equal(ra_capture_read(&c, 4, read_fails, NULL), RA_OK);
    assert_int_equal(c.size, 12);
    ra_buf_release(&c.body);

    /* a C string as a span: NULL, a value not there, reads "" */
    assert_int_equal(ra_str_z("abc").len, 3);
    assert_memory_equal(ra_str_z("abc").data, "abc", 3);
    assert_int_equal(ra_str_z(NULL).len, 0);
    assert_non_null(ra_str_z(NULL).data);
}

static void *
fail_alloc(void *ctx, size_t n)
{
    (void) ctx;
    (void) n;
    return NULL;
}

static void
capture_out_of_memory(void **state)
{
    ra_capture_t  c;
    ra_alloc_t    none = { fail_alloc, NULL, NULL };

    (void) state;
    ra_capture_start(&c, &none, NULL, 200, -1, ra_str(NULL, 0));
    ra_capture_add(&c, "abc", 3);
    assert_true(c.failed);
    assert_int_equal(c.body.len, 0);
    assert_int_equal(c.size, 3);
}

static void
sites(void **state)
{
    ra_str_t          got;
    ra_sitenames_t    s;
    ra_test_arena_t  *arena = ra_test_arena_new();
    const ra_alloc_t *a = ra_test_arena_alloc(arena);

    (void) state;
    assert_true(ra_site_name_exact(S("example.com")));
    assert_false(ra_site_name_exact(S("*.example.com")));
    assert_false(ra_site_name_exact(S(".example.com")));
    assert_false(ra_site_name_exact(S("www.example.*")));
    assert_false(ra_site_name_exact(S("w?w.example.com")));
    assert_false(ra_site_name_exact(S("~^www\\d+\\.example\\.net$")));
    assert_false(ra_site_name_exact(S("")));

    assert_int_equal(ra_sitenames_init(&s, a, S("Example.COM")), RA_OK);
    assert_int_equal(ra_sitenames_add(&s, a, S("example.com")), RA_OK);
    assert_int_equal(ra_sitenames_add(&s, a, S("WWW.example.com")), RA_OK);
    assert_int_equal(ra_sitenames_add(&s, a, S("*.example.com")), RA_OK);
    assert_int_equal(ra_sitenames_add(&s, a, S("~^x\\.example\\.com$")),
                     RA_OK);
    assert_int_equal(ra_sitenames_add(&s, a, S("a.example.com")), RA_OK);
    assert_int_equal(ra_sitenames_add(&s, a, S("b.example.com")), RA_OK);
    assert_int_equal(ra_sitenames_add(&s, a, S("c.example.com")), RA_OK);
    /* two inexact skipped, and the primary again */
    assert_int_equal(s.nnames, 4);
    assert_int_equal(ra_sitenames_add(&s, a, S("B.Example.com")), RA_OK);
    assert_int_equal(ra_sitenames_add(&s, a, S("EXAMPLE.COM")), RA_OK);
    assert_int_equal(s.nnames, 4);              /* nor any name twice */
    got = ra_sitenames_pick(&s, S("example.com"));
    assert_ptr_equal(got.data, s.primary.data);

    got = ra_sitenames_pick(&s, S("www.example.com"));
    assert_int_equal(got.len, 15);
    assert_memory_equal(got.data, "www.example.com", 15);
    got = ra_sitenames_pick(&s, S("WWW.Example.Com.:8080"));
    assert_memory_equal(got.data, "www.example.com", 15);
    got = ra_sitenames_pick(&s, S("c.example.com"));
    assert_memory_equal(got.data, "c.example.com", 13);
    /* a wildcard's host, a random Host, none: the primary name */
    got = ra_sitenames_pick(&s, S("zzz.example.com"));
    assert_memory_equal(got.data, "example.com", 11);
    got = ra_sitenames_pick(&s, S("evil.test"));
    assert_memory_equal(got.data, "example.com", 11);
    got = ra_sitenames_pick(&s, S(""));
    assert_memory_equal(got.data, "example.com", 11);
    got = ra_sitenames_pick(&s, S("[::1]:8080"));
    assert_memory_equal(got.data, "example.com", 11);

    /* a server of one name (given again as server_name lists it): that
     * name for any host */
    assert_int_equal(ra_sitenames_init(&s, a, S("One.example")), RA_OK);
    assert_int_equal(ra_sitenames_add(&s, a, S("one.EXAMPLE")), RA_OK);
    assert_int_equal(s.nnames, 0);
    got = ra_sitenames_pick(&s, S("one.example:80"));
    assert_memory_equal(got.data, "one.example", 11);
    got = ra_sitenames_pick(&s, S("[::1]:80"));
    assert_memory_equal(got.data, "one.example", 11);
    got = ra_sitenames_pick(&s, S("127.0.0.1"));
    assert_memory_equal(got.data, "one.example", 11);

    /* a server without a name */
    assert_int_equal(ra_sitenames_init(&s, a, S("")), RA_OK);
    got = ra_sitenames_pick(&s, S("anything"));
    assert_int_equal(got.len, 7);
    assert_memory_equal(got.data, "default", 7);

    ra_test_arena_free(arena);
}

/* A target's kind from its path alone (the part before '?', no '#' in
 * it) is its kind: ra_http_path_kind(path) == ra_http_target_kind(path
 * "?" query), for targets made of names, escapes, dot segments and empty
 * segments, with and without a query (which may name a file too) */
static void
path_kind_is_target_kind(void **state)
{
    static const char *const  segs[] = {
        "robots.txt", "llms.txt", "llms-full.txt", "server-status",
        "server-info", "nginx_status", "stub_status", "robot%73.txt",
        "%2Frobots.txt", "..", ".", "", "a", "ROBOTS.TXT", "x.js",
        "index.html", "robots.txt%3F", "%72obots.txt", "favicon.ico",
        "llms.tx", "status", "%2e%2e", "robots.txt;x", "aaaaaaaaaaaaaaaaaaaaa"
    };
    static const char *const  queries[] = {
        "", "?", "?x=1", "?/robots.txt", "?a#b", "??", "?robots.txt#x"
    };
    char       t[256];
    size_t     n, q, k, i;
    unsigned   seed = 12345, want, got;

    (void) state;
    for (i = 0; i < 20000; i++) {
        n = 0;
        t[n++] = '/';
        for (k = 0, seed = seed * 1103515245u + 12345u; k < 1 + (seed >> 16) % 4;
             k++)
        {
            const char  *sg;

            seed = seed * 1103515245u + 12345u;
            sg = segs[(seed >> 16) % (sizeof(segs) / sizeof(segs[0]))];
            if (k > 0) {
                t[n++] = '/';
            }
            memcpy(t + n, sg, strlen(sg));
            n += strlen(sg);
        }
        seed = seed * 1103515245u + 12345u;
        if ((seed >> 16) % 5 == 0) {
            t[n++] = '/';
        }
        q = n;
        seed = seed * 1103515245u + 12345u;
        k = (seed >> 16) % (sizeof(queries) / sizeof(queries[0]));
        memcpy(t + n, queries[k], strlen(queries[k]));
        n += strlen(queries[k]);
        want = ra_http_target_kind(ra_str(t, n));
        got = ra_http_path_kind(ra_str(t, q));
        if (want != got) {
            fail_msg("%.*s: path kind %u, target kind %u", (int) n, t, got,
                     want);
        }
        assert_int_equal(ra_http_path_kind(ra_str(t, q)),
                         ra_http_target_kind_walk(ra_str(t, n)));
    }
    assert_int_equal(ra_http_path_kind(S("/robots.txt")), RA_TARGET_ROBOTS);
    assert_int_equal(ra_http_path_kind(S("/llms-full.txt")), RA_TARGET_LLMS);
    assert_int_equal(ra_http_path_kind(S("/server-status/")),
                     RA_TARGET_SERVER_PAGE);
    assert_int_equal(ra_http_path_kind(S("/a/robots.txt")), 0);
    assert_int_equal(ra_http_path_kind(S("")), 0);
}

/* where a server's parser says the path ends, and a tail from a pointer */
/* a server's method string: GET without a strlen(), the rest as they
 * are, a missing one as "" */
static void
method_z(void **state)
{
    static const char  get[] = "GET", ge[] = "GE", propfind[] = "PROPFIND",
                       getx[] = "GETX";
    ra_str_t           m;

    (void) state;
    m = ra_http_method_z(get);
    assert_true(m.data == (const unsigned char *) get && m.len == 3);
    assert_int_equal(ra_http_method_z(ge).len, 2);
    assert_int_equal(ra_http_method_z(getx).len, 4);
    assert_int_equal(ra_http_method_z(propfind).len, 8);
    assert_int_equal(ra_http_method_z(NULL).len, 0);
}

static void
path_before_query(void **state)
{
    static const char  u[] = "/robots.txt?x=1";
    static const char  line[] = "GET http://a.example/x HTTP/1.1";
    ra_str_t           t = ra_str(u, sizeof(u) - 1), p;

    (void) state;
    p = ra_http_path_before(t, (const unsigned char *) u + 12);
    assert_int_equal(p.len, 11);
    assert_ptr_equal(p.data, u);
    p = ra_http_path_before(t, NULL);
    assert_int_equal(p.len, t.len);
    /* not after a '?', before the target, or past its end: none */
    assert_null(ra_http_path_before(t, (const unsigned char *) u + 5).data);
    assert_null(ra_http_path_before(t, (const unsigned char *) u).data);
    assert_null(ra_http_path_before(t, (const unsigned char *) u + 16).data);
    /* "?" at the end: the query is empty */
    p = ra_http_path_before(ra_str(u, 12), (const unsigned char *) u + 12);
    assert_int_equal(p.len, 11);

    p = ra_str_from(ra_str(line, sizeof(line) - 1),
                    (const unsigned char *) line + 4);
    assert_int_equal(p.len, sizeof(line) - 5);
    assert_memory_equal(p.data, "http://", 7);
    assert_null(ra_str_from(ra_str(line, 3), (const unsigned char *) line
                            + 4).data);
    assert_null(ra_str_from(ra_str(line, 3), NULL).data);
    assert_null(ra_str_from(ra_str(NULL, 0), (const unsigned char *)
                            line).data);
}

/* ra_site_is() as it read byte by byte: the reference of the test below */
static int
ref_site_is(ra_str_t host, ra_str_t name)
{
    size_t                i, n = name.len;
    const unsigned char  *h = host.data, *c = name.data;

    if (n > host.len) {
        return 0;
    }
    for (i = 0; i < n; i++) {
        if (ra_lower(h[i]) != c[i] || h[i] == ':') {
            return 0;
        }
    }
    if (n == host.len || h[n] == ':') {
        return !(n > 1 && c[n - 1] == '.');
    }
    return h[n] == '.' && (n + 1 == host.len || h[n + 1] == ':');
}

/* A server's names of 1 to 24 bytes against hosts that differ from them
 * in one byte anywhere (case, ':', bytes >= 0x80 whose low bits are a
 * letter, a letter's neighbours) or in what follows: picked as a byte
 * by byte comparison picks them */
static void
sites_bytewise(void **state)
{
    static const unsigned char  subst[] = {
        ':', 0xc1, 0xda, 0xe1, 0xba, '@', '[', '`', '{', 'A', 'Z', 'a', 'z',
        '.', '-', '0', 0x00, 0x7f, 0xff, 0x80, 0x3a | 0x80
    };
    static const char *const    tails[] = { "", ":80", ".", ".:80", "x",
                                            ":", "..", "." };
    unsigned char     name[32], host[64];
    size_t            n, i, k, t, tl;
    ra_str_t          got;
    ra_sitenames_t    s;
    ra_test_arena_t  *arena = ra_test_arena_new();
    const ra_alloc_t *a = ra_test_arena_alloc(arena);
    int               want;

    (void) state;
    for (n = 1; n <= 24; n++) {
        for (i = 0; i < n; i++) {
            name[i] = (unsigned char) "abcdefghijklmnopqrstuvwxyz0123-."[
                          (i * 7 + n) % 32];
        }
        name[0] = 'q';
        assert_int_equal(ra_sitenames_init(&s, a, S("primary.test")), RA_OK);
        assert_int_equal(ra_sitenames_add(&s, a, ra_str(name, n)), RA_OK);
        if (s.nnames != 1) {
            continue;                   /* not an exact name */
        }
        for (t = 0; t < sizeof(tails) / sizeof(tails[0]); t++) {
            tl = strlen(tails[t]);
            /* i == n: the name as it is, upper-cased */
            for (i = 0; i <= n; i++) {
                for (k = 0; k < sizeof(subst) + 1; k++) {
                    memcpy(host, name, n);
                    if (i == n) {
                        size_t  j;

                        for (j = 0; j < n; j += 1 + k % 3) {
                            if (host[j] >= 'a' && host[j] <= 'z') {
                                host[j] ^= 0x20;
                            }
                        }
                    } else if (k < sizeof(subst)) {
                        host[i] = subst[k];
                    } else {
                        host[i] ^= 0x20;
                    }
                    memcpy(host + n, tails[t], tl);
                    want = ref_site_is(ra_str(host, n + tl), s.names[0]);
                    got = ra_sitenames_pick(&s, ra_str(host, n + tl));
                    if (want) {
                        assert_ptr_equal(got.data, s.names[0].data);
                    } else {
                        assert_ptr_not_equal(got.data, s.names[0].data);
                    }
                }
            }
        }
    }
    ra_test_arena_free(arena);
}

static ra_str_t
cstr(const char *p)
{
    return ra_str(p, strlen(p));
}

/* The kind asked once and handed on says what the target says: the
 * capture with a kind = the capture with the target, for every method,
 * status and Range; ra_http_request_kind() takes what the glue set, else
 * asks */
static void
capture_wanted_kind_agrees(void **state)
{
    static const char  *const methods[] = { "GET", "HEAD", "POST", "GE" };
    static const char  *const targets[] = {
        "/robots.txt", "//robots.txt", "/a/../robots.txt", "/robots.txt%3F",
        "/%2Frobots.txt", "/index.html", "/llms.txt", "/server-status",
        "/robot%73.txt?x", "http://h/robots.txt", "", "/",
    };
    static const int    statuses[] = {
        0, 200, 206, 304, 404, 412, 501, 503, 999, 1000
    };
    size_t        m, t, k, r;
    unsigned      kind;
    ra_str_t      method, target;
    ra_request_t  req;

    (void) state;
    for (t = 0; t < sizeof(targets) / sizeof(targets[0]); t++) {
        target = cstr(targets[t]);
        kind = ra_http_target_kind(target);
        for (m = 0; m < sizeof(methods) / sizeof(methods[0]); m++) {
            method = cstr(methods[m]);
            for (k = 0; k < sizeof(statuses) / sizeof(statuses[0]); k++) {
                for (r = 0; r < 2; r++) {
                    int  want = ra_http_capture_wanted(method, target,
                                                       statuses[k], (int) r);

                    assert_int_equal(ra_http_capture_wanted_kind(method,
                                         kind, statuses[k], (int) r), want);
                    assert_int_equal(ra_http_capture_wanted_kind(method,
                                         kind | RA_TARGET_KNOWN, statuses[k],
                                         (int) r), want);
                }
            }
        }
        memset(&req, 0, sizeof(req));
        req.uri = target;
        assert_int_equal(ra_http_request_kind(&req), kind);
        /* what the glue set is taken as it is (here: another answer) */
        req.target_kind = RA_TARGET_KNOWN | (kind ^ RA_TARGET_LLMS);
        assert_int_equal(ra_http_request_kind(&req), kind ^ RA_TARGET_LLMS);
        req.target_kind = RA_TARGET_KNOWN;
        assert_int_equal(ra_http_request_kind(&req), 0);
    }
}

/* ra_sitenames_pick() as it was written first (memchr, then each name
 * with ra_strcaseeq): the reference for the one-pass pick */
static ra_str_t
ref_pick(const ra_sitenames_t *s, ra_str_t host)
{
    size_t                i;
    uint32_t              k;
    const unsigned char  *colon;

    if (host.len && host.data[0] == '[') {
        for (i = 0; i < host.len && host.data[i] != ']'; i++) {
            /* void */
        }
        host.len = i < host.len ? i + 1 : host.len;
    } else if (host.len) {
        colon = memchr(host.data, ':', host.len);
        if (colon != NULL) {
            host.len = (size_t) (colon - host.data);
        }
    }
    if (host.len > 1 && host.data[host.len - 1] == '.') {
        host.len--;
    }
    if (host.len == 0 || ra_strcaseeq(host, s->primary)) {
        return s->primary;
    }
    for (k = 0; k < s->nnames; k++) {
        if (ra_strcaseeq(host, s->names[k])) {
            return s->names[k];
        }
    }
    return s->primary;
}

/* random Host values against random names: the same span as the
 * reference, every time (names ending in '.', holding ':', bracketed,
 * cut at RA_SITE_NAME_MAX; hosts with ports, dots, brackets, case) */
static void
sites_pick_agrees(void **state)
{
    static const char  *const pieces[] = {
        "example.com", "EXAMPLE.com", "www.", "a", "b", ".", ".", ":",
        ":8080", "[", "]", "::1", "x", "Ex", "ample", ".com",
    };
    static const char  *const names[] = {
        "example.com", "www.example.com", "a", "b.", "example.com.", "x:y",
        "[::1]", "[::1]x", ".", "ex", "wWw.Example.COM", "ab", "a.b",
    };
    char              host[64], longname[200];
    size_t            i, k, n, len;
    uint64_t          seed = 0x9e3779b97f4a7c15ULL;
    ra_str_t          h, got, want;
    ra_sitenames_t    s;
    ra_test_arena_t  *arena = ra_test_arena_new();
    const ra_alloc_t *a = ra_test_arena_alloc(arena);

    (void) state;
#define RND()  (seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17)
    for (i = 0; i < 2000; i++) {
        /* a server: a primary (maybe none) and a few names */
        k = RND() % (sizeof(names) / sizeof(names[0]) + 1);
        assert_int_equal(ra_sitenames_init(&s, a, k ? cstr(names[k - 1])
                                                    : S("")), RA_OK);
        for (n = RND() % 4; n; n--) {
            k = RND() % (sizeof(names) / sizeof(names[0]));
            assert_int_equal(ra_sitenames_add(&s, a, cstr(names[k])), RA_OK);
        }
        if (i % 50 == 0) {
            memset(longname, 'l', sizeof(longname));
            assert_int_equal(ra_sitenames_add(&s, a,
                                 ra_str(longname, sizeof(longname))), RA_OK);
        }
        for (k = 0; k < 200; k++) {
            len = 0;
            for (n = RND() % 5; n; n--) {
                const char  *pc = pieces[RND() % (sizeof(pieces)
                                                  / sizeof(pieces[0]))];

                if (len + strlen(pc) > sizeof(host)) {
                    break;
                }
                memcpy(host + len, pc, strlen(pc));
                len += strlen(pc);
            }
            h = ra_test_exact(host, len);
            got = ra_sitenames_pick(&s, h);
            want = ref_pick(&s, h);
            if (got.data != want.data || got.len != want.len) {
                print_message("Host \"%.*s\": \"%.*s\", the reference "
                              "\"%.*s\"\n", (int) len, host, (int) got.len,
                              got.data, (int) want.len, want.data);
                fail();
            }
            ra_test_exact_free(h);
        }
        /* a Host as long as the long name, and one byte longer */
        h = ra_str(longname, RA_SITE_NAME_MAX);
        assert_true(ra_sitenames_pick(&s, h).data == ref_pick(&s, h).data);
        h = ra_str(longname, RA_SITE_NAME_MAX + 1);
        assert_true(ra_sitenames_pick(&s, h).data == ref_pick(&s, h).data);
    }
#undef RND
    ra_test_arena_free(arena);
}

static void
query_args(void **state)
{
    ra_str_t  v;

    (void) state;
    assert_int_equal(ra_query_arg(S("format=json"), "format", &v), RA_OK);
    assert_int_equal(v.len, 4);
    assert_int_equal(ra_query_arg(S("a=1&format=prometheus;b"), "format",
                                  &v), RA_OK);
    assert_memory_equal(v.data, "prometheus", 10);
    assert_int_equal(ra_query_arg(S("x=1;format=text"), "format", &v),
                     RA_OK);
    assert_memory_equal(v.data, "text", 4);
    assert_int_equal(ra_query_arg(S("xformat=json"), "format", &v),
                     RA_ERROR);
    assert_int_equal(ra_query_arg(S("format"), "format", &v), RA_ERROR);
    assert_int_equal(ra_query_arg(S(""), "format", &v), RA_ERROR);
    assert_int_equal(ra_query_arg(ra_str(NULL, 0), "format", &v), RA_ERROR);
    assert_int_equal(ra_query_arg(S("format="), "format", &v), RA_OK);
    assert_int_equal(v.len, 0);
}

static int
json_any(void *ctx, unsigned event, ra_str_t raw, unsigned depth)
{
    (void) ctx;
    (void) event;
    (void) raw;
    (void) depth;
    return 0;
}

/* needle in the first n bytes of p */
static const char *
memstr(const void *p, size_t n, const char *needle)
{
    size_t  k = strlen(needle), i;

    for (i = 0; i + k <= n; i++) {
        if (memcmp((const char *) p + i, needle, k) == 0) {
            return (const char *) p + i;
        }
    }
    return NULL;
}

static void
status_page(void **state)
{
    void             *region;
    ra_ledger_t       l;
    ra_status_page_t  p;
    ra_json_err_t     jerr;
    size_t            size = 256 * 1024;
    ra_lock_t         nolock = { NULL, NULL, NULL };

    (void) state;
    region = test_malloc(size);
    assert_int_equal(ra_ledger_format(region, size, 1700000000000LL),
                     RA_OK);
    ra_ledger_open(&l, region, &nolock);

    /* HTML by default, no caching: counters are live */
    ra_status_page(&l, NULL, S("GET"), S(""), 1700000000000LL,
                   &ra_malloc_allocator, &p);
    assert_int_equal(p.status, 200);
    assert_string_equal(p.cache_control, "no-store");
    assert_non_null(strstr(p.content_type, "text/html"));
    assert_false(p.header_only);
    assert_true(p.body.len > 0);
    ra_status_page_free(&p);

    ra_status_page(&l, NULL, S("GET"), S("format=json"), 1700000000000LL,
                   &ra_malloc_allocator, &p);
    assert_int_equal(p.status, 200);
    assert_non_null(strstr(p.content_type, "application/json"));
    assert_int_equal(ra_json_parse(ra_str(p.body.data, p.body.len),
                                   json_any, NULL, &jerr), RA_OK);
    ra_status_page_free(&p);

    ra_status_page(&l, NULL, S("HEAD"), S("format=prometheus"),
                   1700000000000LL,
                   &ra_malloc_allocator, &p);
    assert_int_equal(p.status, 200);
    assert_true(p.header_only);
    assert_non_null(strstr(p.content_type, "text/plain"));
    ra_status_page_free(&p);

    ra_status_page(&l, NULL, S("GET"), S("format=xml"), 0,
                   &ra_malloc_allocator,
                   &p);
    assert_int_equal(p.status, 400);
    assert_string_equal(p.cache_control, "no-store");
    ra_status_page_free(&p);

    ra_status_page(&l, NULL, S("POST"), S(""), 0, &ra_malloc_allocator, &p);
    assert_int_equal(p.status, 405);
    assert_string_equal(p.allow, "GET, HEAD");
    ra_status_page_free(&p);

    ra_status_page(NULL, NULL, S("GET"), S(""), 0, &ra_malloc_allocator, &p);
    assert_int_equal(p.status, 503);
    ra_status_page_free(&p);

    /* ?purpose= keeps the table's crawlers of that purpose */
    {
        ra_stat_key_t  key;
        uint32_t       site, st;

        memset(&key, 0, sizeof(key));
        ra_ledger_lock(&l);
        site = ra_ledger_site_locked(&l, S("a.example"), 1700000000000LL);
        key.kind = RA_UA_KNOWN;
        /* verified: Prometheus names verified crawlers only */
        key.verification = RA_VERIFY_VERIFIED;
        key.name = S("SearchOne");
        key.category = RA_CAT_SEARCH;
        st = ra_ledger_stat_locked(&l, site, &key, 1700000000000LL);
        ra_ledger_count_locked(&l, site, st, RA_CNT_REQUESTS);
        key.name = S("AgentTwo");
        key.category = RA_CAT_AI_USER;
        st = ra_ledger_stat_locked(&l, site, &key, 1700000000000LL);
        ra_ledger_count_locked(&l, site, st, RA_CNT_REQUESTS);
        key.kind = RA_UA_GENERIC;
        key.verification = RA_VERIFY_UNVERIFIABLE;
        key.name = S("somebot");
        key.category = RA_CAT_MAX;
        st = ra_ledger_stat_locked(&l, site, &key, 1700000000000LL);
        ra_ledger_count_locked(&l, site, st, RA_CNT_REQUESTS);
        /* a violation of each: ?purpose= shows its crawlers' only */
        {
            static const char  *who[] = { "SearchOne", "AgentTwo",
                                          "somebot" };
            static const char  *uri[] = { "/v-search", "/v-agent",
                                          "/v-generic" };
            static const uint8_t  purpose[] = { RA_CAT_SEARCH + 1,
                                                RA_CAT_AI_USER + 1, 0 };
            ra_violation_t  v;
            unsigned        k;

            for (k = 0; k < 3; k++) {
                memset(&v, 0, sizeof(v));
                v.time = 1700000000000LL + k;
                v.verdict = RA_VERDICT_VIOLATION;
                v.name_len = (uint8_t) strlen(who[k]);
                memcpy(v.name, who[k], v.name_len);
                v.uri_len = (uint16_t) strlen(uri[k]);
                memcpy(v.uri, uri[k], v.uri_len);
                v.uri_full_len = v.uri_len;
                v.purpose = purpose[k];
                ra_ledger_violation_locked(&l, site, &v);
            }
        }
        ra_ledger_unlock(&l);
    }
    ra_status_page(&l, NULL, S("GET"), S("format=json&purpose=ai-user"),
                   1700000000000LL, &ra_malloc_allocator, &p);
    assert_int_equal(p.status, 200);
    assert_non_null(memstr(p.body.data, p.body.len, "\"AgentTwo\""));
    assert_null(memstr(p.body.data, p.body.len, "\"SearchOne\""));
    assert_null(memstr(p.body.data, p.body.len, "\"somebot\""));
    assert_non_null(memstr(p.body.data, p.body.len,
                                   "\"crawlers_shown\":1,"
                                   "\"crawlers_total\":1"));
    assert_non_null(memstr(p.body.data, p.body.len, "\"/v-agent\""));
    assert_null(memstr(p.body.data, p.body.len, "/v-search"));
    assert_null(memstr(p.body.data, p.body.len, "/v-generic"));
    assert_non_null(memstr(p.body.data, p.body.len,
                           "\"recent_violations_shown\":1,"
                           "\"recent_violations_total\":1"));
    ra_status_page_free(&p);
    ra_status_page(&l, NULL, S("GET"), S("format=csv&purpose=search"),
                   1700000000000LL, &ra_malloc_allocator, &p);
    assert_int_equal(p.status, 200);
    assert_non_null(memstr(p.body.data, p.body.len, "/v-search"));
    assert_null(memstr(p.body.data, p.body.len, "/v-agent"));
    ra_status_page_free(&p);
    ra_status_page(&l, NULL, S("GET"), S("format=prometheus&purpose=search"),
                   1700000000000LL, &ra_malloc_allocator, &p);
    assert_int_equal(p.status, 200);
    assert_non_null(memstr(p.body.data, p.body.len,
                                   "crawler=\"SearchOne\""));
    assert_null(memstr(p.body.data, p.body.len,
                               "crawler=\"AgentTwo\""));
    ra_status_page_free(&p);
    ra_status_page(&l, NULL, S("GET"), S("format=json"), 1700000000000LL,
                   &ra_malloc_allocator, &p);
    assert_non_null(memstr(p.body.data, p.body.len, "\"AgentTwo\""));
    assert_non_null(memstr(p.body.data, p.body.len, "\"SearchOne\""));
    assert_non_null(memstr(p.body.data, p.body.len, "/v-generic"));
    ra_status_page_free(&p);
    ra_status_page(&l, NULL, S("GET"), S("purpose=scraping"), 0,
                   &ra_malloc_allocator, &p);
    assert_int_equal(p.status, 400);
    assert_non_null(memstr(p.body.data, p.body.len,
                                   "purpose is one of"));
    ra_status_page_free(&p);

    test_free(region);
}

/* ra_sitenames_one() says so, and every Host picks the primary */
static void
assert_one_name(const ra_sitenames_t *s)
{
    static const char *const  hosts[] = {
        "", "example.com", "EXAMPLE.com.:80", "www.example.com",
        "x.example.com", "[::1]:8080", "[::1]", "default", "evil.test", ":80",
    };
    size_t  i;

    assert_true(ra_sitenames_one(s));
    for (i = 0; i < sizeof(hosts) / sizeof(hosts[0]); i++) {
        assert_true(ra_sitenames_pick(s, cstr(hosts[i])).data
                    == s->primary.data);
    }
}

/* ra_sitenames_one(): only when every Host picks the primary */
static void
sites_one(void **state)
{
    ra_sitenames_t    s;
    ra_test_arena_t  *arena = ra_test_arena_new();
    const ra_alloc_t *a = ra_test_arena_alloc(arena);

    (void) state;
    /* a name, none, and a name with inexact ones only */
    assert_int_equal(ra_sitenames_init(&s, a, S("example.com")), RA_OK);
    assert_one_name(&s);
    assert_int_equal(ra_sitenames_init(&s, a, S("")), RA_OK);
    assert_one_name(&s);
    assert_int_equal(ra_sitenames_init(&s, a, S("example.com")), RA_OK);
    assert_int_equal(ra_sitenames_add(&s, a, S("*.example.com")), RA_OK);
    assert_int_equal(ra_sitenames_add(&s, a, S("~^x\\.example")), RA_OK);
    assert_one_name(&s);
    /* one exact name more: its Host picks it */
    assert_int_equal(ra_sitenames_add(&s, a, S("www.example.com")), RA_OK);
    assert_false(ra_sitenames_one(&s));
    assert_true(ra_sitenames_pick(&s, S("www.example.com")).data
                != s.primary.data);
    ra_test_arena_free(arena);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(method_z),
        cmocka_unit_test(robots_request),
        cmocka_unit_test(server_pages),
        cmocka_unit_test(capture_wanted),
        cmocka_unit_test(answer_is_file),
        cmocka_unit_test(capture_buffer),
        cmocka_unit_test(capture_out_of_memory),
        cmocka_unit_test(sites),
        cmocka_unit_test(sites_bytewise),
        cmocka_unit_test(path_kind_is_target_kind),
        cmocka_unit_test(path_before_query),
        cmocka_unit_test(sites_pick_agrees),
        cmocka_unit_test(sites_one),
        cmocka_unit_test(capture_wanted_kind_agrees),
        cmocka_unit_test(query_args),
        cmocka_unit_test(status_page),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
