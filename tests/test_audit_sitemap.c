/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Sitemaps in the servers: the list taken from the robots.txt in force,
 * which answer is a crawler's fetch of one (and that a browser's is not),
 * the capture fed in pieces of every size (plain and gzip split at odd
 * places) with its lint against robots.txt, the bounds, and the ledger's
 * record of it all as a snapshot copies it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ra_test.h"
#include "ra_audit_body.h"
#include "ra_audit_sitemap.h"
#include "ra_report.h"
#include "ra_sitemap.h"

#define T0  1700000000000LL

static const char  googlebot[] =
    "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
static const char  firefox[] =
    "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0";

static const char  robots_txt[] =
    "User-agent: *\n"
    "Disallow: /private/\n"
    "Sitemap: http://example.com/sitemap.xml\n"
    "Sitemap: http://example.com/b.xml.gz\n"
    "Sitemap: http://example.com/never.xml\n";

static const char  plain_xml[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
    "  <url><loc>http://example.com/</loc></url>\n"
    "  <url><loc>http://example.com/private/a&amp;b</loc></url>\n"
    "  <url><loc>http://other.example/x</loc>"
    "<lastmod>2024-05-01</lastmod></url>\n"
    "</urlset>\n";

static const char  gz_xml[] =
    "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"
    "<url><loc>http://example.com/ok</loc></url>"
    "<url><loc>http://example.com/private/b</loc>"
    "<lastmod>yesterday</lastmod></url></urlset>";

typedef struct {
    ra_test_arena_t  *arena;
    unsigned char    *region;
    ra_ledger_t       ledger;
    ra_audit_t       *au;
    ra_snapshot_t     snap;
} fx_t;

static fx_t *
fx_new(void)
{
    fx_t             *f = calloc(1, sizeof(*f));
    ra_audit_conf_t   conf;
    size_t            size = 2u * 1024 * 1024;

    f->region = malloc(size);
    assert_int_equal(ra_ledger_format(f->region, size, T0), RA_OK);
    ra_ledger_open(&f->ledger, f->region, NULL);
    f->arena = ra_test_arena_new();
    memset(&conf, 0, sizeof(conf));
    conf.alloc = &ra_malloc_allocator;
    conf.crawlers = ra_test_builtin_table(ra_test_arena_alloc(f->arena));
    assert_non_null(conf.crawlers);
    f->au = ra_audit_create(&conf, &f->ledger);
    assert_non_null(f->au);
    return f;
}

static void
fx_free(fx_t *f)
{
    ra_snapshot_free(&f->snap, &ra_malloc_allocator);
    ra_audit_destroy(f->au);
    ra_test_arena_free(f->arena);
    free(f->region);
    free(f);
}

static void
robots(fx_t *f, const char *site, int status, const char *body)
{
    ra_answer_t  a;

    memset(&a, 0, sizeof(a));
    a.status = status;
    a.body = ra_str(body, strlen(body));
    a.content_type = (ra_str_t) ra_string("text/plain");
    assert_int_equal(ra_audit_robots(f->au, ra_str_z(site), &a, T0),
                     RA_OK);
}

static void
request(ra_request_t *r, const char *ua, const char *uri, int status)
{
    memset(r, 0, sizeof(*r));
    r->site = (ra_str_t) ra_string("example.com");
    r->time = T0;
    r->addr = (ra_str_t) ra_string("66.249.66.1");
    r->user_agent = ra_str_z(ua);
    r->method = (ra_str_t) ra_string("GET");
    r->uri = ra_str_z(uri);
    r->authority = (ra_str_t) ra_string("Example.COM:8080");
    r->status = status;
}

/* A "file" for the body stream's reads: the bytes at off of a piece */
static int
file_read(void *ctx, void *dst, size_t k, size_t off)
{
    memcpy(dst, (const unsigned char *) ctx + off, k);
    return RA_OK;
}

/* A whole answer fed in pieces of `piece` bytes (0: at once, through
 * ra_audit_sitemap_start()); in pieces, as a server's filter streams it
 * (ra_audit_body.h: the User-Agent identified once, the pieces in memory
 * and from a file in turn).  1 when the core captured it. */
static int
fetch(fx_t *f, const char *ua, const char *uri, int status,
    const void *body, size_t len, size_t piece, int64_t t)
{
    ra_request_t      r;
    ra_sm_capture_t  *c;
    ra_identity_t     id;
    ra_body_t         b;
    size_t            off, k;
    unsigned          done = 0;
    const unsigned char  *p = body;

    request(&r, ua, uri, status);
    if (piece == 0) {
        c = ra_audit_sitemap_start(f->au, &r, 1, &ra_malloc_allocator, t);
        if (c != NULL) {
            ra_audit_sitemap_feed(c, body, len);
            ra_audit_sitemap_end(f->au, c, t);
        }
        return c != NULL;
    }
    (void) ra_audit_crawler(f->au, r.user_agent, &id);
    ra_body_init(&b, &id);
    b.sitemap = ra_audit_sitemap_start_by(f->au, &r, &id, 1,
                                          &ra_malloc_allocator, t);
    if (b.sitemap == NULL) {
        return 0;
    }
    b.want = RA_BODY_SITEMAP;
    for (off = 0; !(done & RA_BODY_SITEMAP); off += k) {
        k = len - off < piece ? len - off : piece;
        done = (off / piece) % 2
               ? ra_body_read(&b, k, file_read, (void *) (p + off),
                              off + k == len)
               : ra_body_feed(&b, p + off, k, off + k == len);
    }
    assert_int_equal(done, RA_BODY_SITEMAP);
    ra_audit_sitemap_end(f->au, b.sitemap, t);
    return 1;
}

static const ra_sitemaps_t *
sitemaps(fx_t *f)
{
    ra_snapshot_free(&f->snap, &ra_malloc_allocator);
    assert_int_equal(ra_ledger_snapshot(&f->ledger, &ra_malloc_allocator, 0,
                                        &f->snap), RA_OK);
    assert_true(f->snap.nsites >= 1);
    return &f->snap.sites[0].sitemaps;
}

static int
has_crawler(const ra_sitemap_t *sm, const char *name)
{
    unsigned  i;

    for (i = 0; i < sm->ncrawlers; i++) {
        if (sm->crawler_len[i] == strlen(name)
            && memcmp(sm->crawlers[i], name, strlen(name)) == 0)
        {
            return 1;
        }
    }
    return 0;
}

static const ra_sitemap_example_t *
example(const ra_sitemap_t *sm, ra_sm_code_e kind)
{
    unsigned  i;

    for (i = 0; i < sm->nexamples; i++) {
        if (sm->examples[i].kind == kind) {
            return &sm->examples[i];
        }
    }
    return NULL;
}

/* the list is the robots.txt's Sitemap: lines, in order */
static void
listed_from_robots(void **state)
{
    fx_t                *f = fx_new();
    const ra_sitemaps_t *m;

    (void) state;
    robots(f, "example.com", 200, robots_txt);
    m = sitemaps(f);
    assert_int_equal(m->n, 3);
    assert_int_equal(m->lines, 3);
    assert_memory_equal(m->maps[1].url, "http://example.com/b.xml.gz", 27);
    assert_true(m->maps[0].listed && m->maps[2].listed);
    assert_int_equal(m->maps[0].fetches, 0);
    fx_free(f);
}

/* a browser's fetch changes nothing, nor a crawler's of another page */
static void
browser_and_other_pages_are_no_fetch(void **state)
{
    fx_t  *f = fx_new();

    (void) state;
    robots(f, "example.com", 200, robots_txt);
    assert_false(fetch(f, firefox, "/sitemap.xml", 200, plain_xml,
                       sizeof(plain_xml) - 1, 0, T0));
    assert_false(fetch(f, googlebot, "/page.html", 200, "x", 1, 0, T0));
    assert_false(fetch(f, googlebot, "/sitemap.xml?x", 200, "x", 1, 0, T0));
    assert_int_equal(sitemaps(f)->maps[0].fetches, 0);
    fx_free(f);
}

/* the plain sitemap in pieces of every size: the same lint each time */
static void
plain_in_pieces(void **state)
{
    fx_t                        *f = fx_new();
    const ra_sitemap_t          *sm;
    const ra_sitemap_example_t  *e;
    size_t                       piece;

    (void) state;
    robots(f, "example.com", 200, robots_txt);
    for (piece = 0; piece <= 23; piece++) {
        assert_true(fetch(f, googlebot, "/sitemap.xml", 200, plain_xml,
                          sizeof(plain_xml) - 1, piece, T0 + 1000
                          + (int64_t) piece));
        sm = &sitemaps(f)->maps[0];
        assert_int_equal(sm->fetches, piece + 1);
        assert_true(sm->linted && sm->complete && !sm->gzip);
        assert_int_equal(sm->kind, RA_SM_URLSET);
        assert_int_equal(sm->urls, 3);
        assert_int_equal(sm->status, 200);
        assert_int_equal(sm->size, sizeof(plain_xml) - 1);
        /* "*", Googlebot and Bingbot all read the "*" group */
        assert_int_equal(sm->counts[RA_SMF_DISALLOWED], 3);
        assert_int_equal(sm->counts[RA_SMF_OTHER_HOST], 1);
        assert_int_equal(sm->counts[RA_SMF_MALFORMED], 0);
        e = example(sm, RA_SMF_DISALLOWED);
        assert_non_null(e);
        assert_int_equal(e->rule_line, 2);
        assert_int_equal(e->line, 4);
        assert_int_equal(e->crawler, 1);
        assert_int_equal(e->detail_len, 19);
        assert_memory_equal(e->detail, "Disallow: /private/", 19);
        assert_memory_equal(e->url, "http://example.com/private/a&b", 30);
        assert_non_null(example(sm, RA_SMF_OTHER_HOST));
        assert_true(has_crawler(sm, "Googlebot"));
        assert_int_equal(sm->first, T0 + 1000);
        assert_int_equal(sm->last, T0 + 1000 + (int64_t) piece);
    }
    fx_free(f);
}

/* the gzip sitemap split at odd places, and a failed fetch of another */
static void
gzip_in_pieces(void **state)
{
    fx_t                *f = fx_new();
    const ra_sitemaps_t *m;
    unsigned char        gz[1024];
    size_t               n, piece;

    (void) state;
    robots(f, "example.com", 200, robots_txt);
    n = ra_test_gzip(gz_xml, sizeof(gz_xml) - 1, gz, sizeof(gz));
    for (piece = 0; piece <= 13; piece += piece < 3 ? 1 : 5) {
        assert_true(fetch(f, googlebot, "/b.xml.gz", 200, gz, n, piece,
                          T0));
        m = sitemaps(f);
        assert_true(m->maps[1].gzip && m->maps[1].complete);
        assert_int_equal(m->maps[1].urls, 2);
        assert_int_equal(m->maps[1].size, n);
        assert_int_equal(m->maps[1].counts[RA_SMF_DISALLOWED], 3);
        assert_int_equal(m->maps[1].counts[RA_SMF_LASTMOD], 1);
        assert_int_equal(m->maps[1].counts[RA_SMF_OTHER_HOST], 0);
    }
    /* a 404: fetched, nothing linted */
    assert_false(fetch(f, googlebot, "/never.xml", 404, "gone", 4, 0, T0));
    m = sitemaps(f);
    assert_int_equal(m->maps[2].fetches, 1);
    assert_int_equal(m->maps[2].status, 404);
    assert_false(m->maps[2].linted);
    assert_int_equal(m->maps[0].fetches, 0);
    fx_free(f);
}

/* without Sitemap: lines, /sitemap.xml is the one crawlers try */
static void
fallback_without_lines(void **state)
{
    fx_t                *f = fx_new();
    const ra_sitemaps_t *m;

    (void) state;
    robots(f, "example.com", 200, "User-agent: *\nDisallow: /private/\n");
    assert_int_equal(sitemaps(f)->n, 0);
    assert_true(fetch(f, googlebot, "/sitemap.xml", 200, plain_xml,
                      sizeof(plain_xml) - 1, 7, T0));
    m = sitemaps(f);
    assert_int_equal(m->n, 1);
    assert_false(m->maps[0].listed);
    assert_int_equal(m->maps[0].counts[RA_SMF_DISALLOWED], 3);
    /* the robots.txt now lists one: the fetched one stays, not listed */
    robots(f, "example.com", 200, robots_txt);
    m = sitemaps(f);
    assert_int_equal(m->n, 4);
    assert_true(m->maps[0].listed);
    assert_false(m->maps[3].listed);
    assert_int_equal(m->maps[3].fetches, 1);
    fx_free(f);
}

/* at most RA_SITEMAPS kept of any number of lines; URLs too long left */
static void
list_bounds(void **state)
{
    fx_t                *f = fx_new();
    const ra_sitemaps_t *m;
    char                 body[8192], *p = body;
    unsigned             i;

    (void) state;
    p += sprintf(p, "Sitemap: http://example.com/%0200d.xml\n", 1);
    for (i = 0; i < 20; i++) {
        p += sprintf(p, "Sitemap: http://example.com/s%u.xml\n", i);
    }
    robots(f, "example.com", 200, body);
    m = sitemaps(f);
    assert_int_equal(m->n, RA_SITEMAPS);
    assert_int_equal(m->lines, 21);
    assert_memory_equal(m->maps[0].url, "http://example.com/s0.xml", 25);
    fx_free(f);
}

/* a 503 keeps the list of the file in force; a 404 lists none */
static void
list_follows_the_file_in_force(void **state)
{
    fx_t  *f = fx_new();

    (void) state;
    robots(f, "example.com", 200, robots_txt);
    robots(f, "example.com", 503, "busy");
    assert_int_equal(sitemaps(f)->n, 3);
    robots(f, "example.com", 404, "none");
    assert_int_equal(sitemaps(f)->n, 0);
    fx_free(f);
}

/* which request is a sitemap's: host (ports and case aside), path+query */
static void
match_rules(void **state)
{
    ra_sitemaps_t  m;

    (void) state;
    memset(&m, 0, sizeof(m));
    m.n = 3;
    strcpy(m.maps[0].url, "https://Example.com/a.xml");
    m.maps[0].url_len = 25;
    strcpy(m.maps[1].url, "http://example.com/s.php?page=2");
    m.maps[1].url_len = 31;
    strcpy(m.maps[2].url, "http://cdn.example/c.xml");
    m.maps[2].url_len = 24;
    assert_int_equal(ra_sitemaps_match(&m, ra_str_z("example.com:443"),
                                       ra_str_z("/a.xml")), 0);
    assert_int_equal(ra_sitemaps_match(&m, ra_str_z("EXAMPLE.com"),
                                       ra_str_z("/s.php?page=2")), 1);
    assert_int_equal(ra_sitemaps_match(&m, ra_str_z("example.com"),
                                       ra_str_z("/s.php?page=3")), -1);
    assert_int_equal(ra_sitemaps_match(&m, ra_str_z("example.com"),
                                       ra_str_z("/c.xml")), -1);
    assert_int_equal(ra_sitemaps_match(&m, ra_str_z("cdn.example"),
                                       ra_str_z("/c.xml")), 2);
    assert_int_equal(ra_sitemaps_match(&m, ra_str_z("example.com"),
                                       ra_str_z("/A.xml")), -1);
}

/* The report of f's snapshot in fmt, NUL-terminated (free()). */
static char *
render(fx_t *f, ra_report_format_e fmt)
{
    ra_report_opts_t  o;
    ra_buf_t          out;
    char             *z;

    (void) sitemaps(f);
    memset(&o, 0, sizeof(o));
    o.now = T0 + 5000;
    ra_buf_init(&out, &ra_malloc_allocator, 0, 0);
    assert_int_equal(ra_report_render(&f->snap, fmt, &o, &out), RA_OK);
    z = malloc(out.len + 1);
    memcpy(z, out.data, out.len);
    z[out.len] = '\0';
    ra_buf_release(&out);
    return z;
}

/* every format shows them, every URL escaped as the format wants */
static void
reports_show_them(void **state)
{
    fx_t  *f = fx_new();
    char  *p;

    (void) state;
    robots(f, "example.com", 200,
           "User-agent: *\nDisallow: /private/\n"
           "Sitemap: http://example.com/sitemap.xml\n"
           "Sitemap: http://example.com/a\"<b>.xml\n");
    assert_true(fetch(f, googlebot, "/sitemap.xml", 200, plain_xml,
                      sizeof(plain_xml) - 1, 5, T0 + 1000));

    p = render(f, RA_REPORT_JSON);
    assert_non_null(strstr(p, "\"sitemaps\":[{\"url\":\"http://example.com/"
                              "sitemap.xml\",\"listed\":true,\"fetched\":true,"
                              "\"fetches\":1,\"crawlers\":[\"Googlebot\"]"));
    assert_non_null(strstr(p, "\"findings\":{\"disallowed\":3,"
                              "\"other-host\":1,"));
    assert_non_null(strstr(p, "{\"kind\":\"disallowed\",\"url\":\"http://"
                              "example.com/private/a\\u0026b\",\"line\":4,"
                              "\"crawler\":\"*\",\"rule\":\"Disallow: "
                              "/private/\",\"rule_line\":2}"));
    assert_non_null(strstr(p, "{\"url\":\"http://example.com/a\\\""
                              "\\u003cb\\u003e.xml\","
                              "\"listed\":true,\"fetched\":false"));
    assert_non_null(strstr(p, "\"sitemap_lines\":2"));
    free(p);

    p = render(f, RA_REPORT_TEXT);
    assert_non_null(strstr(p, "sitemaps (2 Sitemap: lines in robots.txt)"));
    assert_non_null(strstr(p, "e.g. disallowed, line 4: http://example.com/"
                              "private/a&b (for * by 'Disallow: /private/', "
                              "robots.txt line 2)"));
    free(p);

    p = render(f, RA_REPORT_HTML);
    assert_non_null(strstr(p, "<h3>Sitemaps</h3>"));
    assert_non_null(strstr(p, "http://example.com/a&quot;&lt;b&gt;.xml"));
    assert_null(strstr(p, "a\"<b>"));
    free(p);

    p = render(f, RA_REPORT_PROMETHEUS);
    assert_non_null(strstr(p, "robots_audit_sitemap_fetches_total{site="
                              "\"example.com\",sitemap=\"http://example.com/"
                              "sitemap.xml\"} 1\n"));
    assert_non_null(strstr(p, "robots_audit_sitemap_fetches_total{site="
                              "\"example.com\",sitemap=\"http://example.com/"
                              "a\\\"<b>.xml\"} 0\n"));
    assert_non_null(strstr(p, "robots_audit_sitemap_findings{site=\"example"
                              ".com\",sitemap=\"http://example.com/sitemap."
                              "xml\",kind=\"disallowed\"} 3\n"));
    free(p);
    fx_free(f);
}

int
main(void)
{
    const struct CMUnitTest  tests[] = {
        cmocka_unit_test(listed_from_robots),
        cmocka_unit_test(browser_and_other_pages_are_no_fetch),
        cmocka_unit_test(plain_in_pieces),
        cmocka_unit_test(gzip_in_pieces),
        cmocka_unit_test(fallback_without_lines),
        cmocka_unit_test(list_bounds),
        cmocka_unit_test(list_follows_the_file_in_force),
        cmocka_unit_test(match_rules),
        cmocka_unit_test(reports_show_them),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
