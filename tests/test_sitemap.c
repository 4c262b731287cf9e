/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Sitemaps: the XML reader (urlset and sitemap index, entities, CDATA,
 * comments, what is malformed), and the lint: gzip, URLs robots.txt
 * disallows (with the deciding rule), other hosts, lastmod, bad locs and
 * the protocol's limits.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ra_test.h"
#include "ra_sitemap.h"

typedef struct {
    int       n[RA_SMF_NCODES];
    int       entries;
    char      last_loc[256];
    char      disallowed[8][128];     /* "crawler line url" */
    int       ndis;
    uint32_t  line;
} seen_t;

static void
on_entry(void *ctx, const ra_sm_entry_t *e)
{
    seen_t  *s = ctx;

    s->entries++;
    s->last_loc[ra_str_cut(s->last_loc, sizeof(s->last_loc) - 1, e->loc)]
        = '\0';
}

static void
on_finding(void *ctx, const ra_sm_finding_t *f)
{
    seen_t  *s = ctx;
    char     c[32], u[64];

    s->n[f->code]++;
    s->line = f->line;
    if (f->code == RA_SMF_DISALLOWED && s->ndis < 8) {
        c[ra_str_cut(c, sizeof(c) - 1, f->crawler)] = '\0';
        u[ra_str_cut(u, sizeof(u) - 1, f->url)] = '\0';
        snprintf(s->disallowed[s->ndis++], 128, "%s %u %s", c,
                 f->match.line, u);
    }
}

static const char  urlset[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"\n"
    "        xmlns:image=\"http://www.google.com/schemas/sitemap-image/1.1\">\n"
    "  <!-- a comment with <url> inside -->\n"
    "  <url><loc>https://example.com/</loc>"
    "<lastmod>2024-05-01</lastmod></url>\n"
    "  <url><loc> https://example.com/a?x=1&amp;y=&#50; </loc>\n"
    "    <image:image><image:loc>https://cdn.example/i.png</image:loc>"
    "</image:image>\n"
    "    <lastmod>yesterday</lastmod></url>\n"
    "  <url><loc><![CDATA[https://example.com/private/p]]></loc></url>\n"
    "  <url><loc>http://other.example/z</loc></url>\n"
    "  <url><loc>/relative</loc></url>\n"
    "</urlset>\n";

static void
test_parse(void **state)
{
    seen_t           s;
    ra_sm_summary_t  sum;
    ra_str_t         x = RA_TEST_STR(urlset);

    (void) state;
    memset(&s, 0, sizeof(s));
    ra_sitemap_parse(x, on_entry, on_finding, &s, &sum);
    assert_int_equal(sum.kind, RA_SM_URLSET);
    assert_true(sum.complete);
    assert_int_equal(sum.entries, 5);
    assert_int_equal(s.entries, 5);
    assert_int_equal(s.n[RA_SMF_MALFORMED], 0);
    assert_string_equal(s.last_loc, "/relative");
    assert_int_equal(sum.lines, 13);
    ra_test_exact_free(x);
}

static void
test_index(void **state)
{
    seen_t           s;
    ra_sm_summary_t  sum;
    ra_str_t         x = RA_TEST_STR(
        "<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"
        "<sitemap><loc>https://example.com/s1.xml.gz</loc></sitemap>"
        "<sitemap><lastmod>2024-01-01</lastmod></sitemap>"
        "</sitemapindex>");

    (void) state;
    memset(&s, 0, sizeof(s));
    ra_sitemap_parse(x, on_entry, on_finding, &s, &sum);
    assert_int_equal(sum.kind, RA_SM_INDEX);
    assert_int_equal(s.entries, 1);
    assert_int_equal(s.n[RA_SMF_MALFORMED], 1);     /* no loc */
    assert_true(sum.complete);
    ra_test_exact_free(x);
}

static void
malformed(const char *xml, uint32_t line)
{
    seen_t           s;
    ra_sm_summary_t  sum;
    ra_str_t         x = ra_test_exact(xml, strlen(xml));

    memset(&s, 0, sizeof(s));
    ra_sitemap_parse(x, on_entry, on_finding, &s, &sum);
    assert_int_equal(s.n[RA_SMF_MALFORMED], 1);
    assert_false(sum.complete);
    assert_int_equal(s.line, line);
    ra_test_exact_free(x);
}

static void
test_malformed(void **state)
{
    (void) state;
    malformed("<urlset><url><loc>x</url></urlset>", 1);
    malformed("<urlset>\n<url>\n<loc>x</loc>\n</url>", 4);
    malformed("<html><body/></html>", 1);
    malformed("", 1);
    malformed("junk", 1);
    malformed("<urlset>\n<!-- open", 2);
    malformed("<urlset><url><loc>a&b</loc></url></urlset>", 1);
    malformed("<urlset></urlset><urlset/>", 1);
    malformed("<urlset><url", 1);
    malformed("<urlset attr='>", 1);
}

static const char  robots[] =
    "User-agent: *\n"
    "Disallow: /private/\n"
    "\n"
    "User-agent: Googlebot\n"
    "Disallow: /a\n";

static void
lint(const char *xml, size_t len, const char *url, seen_t *s,
    ra_sm_summary_t *sum)
{
    ra_rules_t  *rules;
    ra_str_t     r = RA_TEST_STR(robots);
    ra_str_t     x = ra_test_exact(xml, len);

    assert_int_equal(ra_rules_compile(r, &ra_malloc_allocator, &rules, NULL),
                     RA_OK);
    memset(s, 0, sizeof(*s));
    assert_int_equal(ra_sitemap_lint(x, ra_str_z(url), rules,
                                     &ra_malloc_allocator, on_finding, s,
                                     sum), RA_OK);
    ra_rules_free(rules);
    ra_test_exact_free(x);
    ra_test_exact_free(r);
}

static void
check_urlset_findings(const seen_t *s)
{
    /* /private/p: "*" and Bingbot (line 2); /a?x=1&y=2: Googlebot (5) */
    assert_int_equal(s->n[RA_SMF_DISALLOWED], 3);
    assert_string_equal(s->disallowed[0], "Googlebot 5 https://example.com/a"
                                          "?x=1&y=2");
    assert_string_equal(s->disallowed[1], "* 2 https://example.com/private/p");
    assert_string_equal(s->disallowed[2],
                        "Bingbot 2 https://example.com/private/p");
    assert_int_equal(s->n[RA_SMF_OTHER_HOST], 1);
    assert_int_equal(s->n[RA_SMF_LASTMOD], 1);
    assert_int_equal(s->n[RA_SMF_BAD_LOC], 1);
    assert_int_equal(s->n[RA_SMF_MALFORMED], 0);
}

static void
test_lint(void **state)
{
    seen_t           s;
    ra_sm_summary_t  sum;

    (void) state;
    lint(urlset, sizeof(urlset) - 1, "", &s, &sum);
    check_urlset_findings(&s);
    assert_false(sum.gzip);
    /* the sitemap's own URL decides the host: then example.com is other */
    lint(urlset, sizeof(urlset) - 1, "https://www.example.com/sitemap.xml",
         &s, &sum);
    assert_int_equal(s.n[RA_SMF_OTHER_HOST], 4);
}

static void
test_gzip(void **state)
{
    seen_t           s;
    ra_sm_summary_t  sum;
    unsigned char    gz[4096];
    size_t           n;

    (void) state;
    n = ra_test_gzip(urlset, sizeof(urlset) - 1, gz, sizeof(gz));
    lint((const char *) gz, n, "", &s, &sum);
    assert_true(sum.gzip);
    check_urlset_findings(&s);
    gz[n / 2] ^= 0xff;
    gz[n / 2 + 1] ^= 0xff;
    lint((const char *) gz, n, "", &s, &sum);
    assert_true(s.n[RA_SMF_UNDECODABLE] + s.n[RA_SMF_MALFORMED] >= 1);
}

static void
test_limits(void **state)
{
    seen_t           s;
    ra_sm_summary_t  sum;
    static const char  one[] = "<url><loc>https://e.com/x</loc></url>\n";
    size_t           n = RA_SM_MAX_URLS + 2, i, len;
    char            *xml = malloc(n * (sizeof(one) - 1) + 64), *p;
    unsigned char   *gz;
    size_t           cap = 64u * 1024 * 1024 / 512;

    (void) state;
    assert_non_null(xml);
    p = xml + sprintf(xml, "<urlset>");
    for (i = 0; i < n; i++) {
        memcpy(p, one, sizeof(one) - 1);
        p += sizeof(one) - 1;
    }
    p += sprintf(p, "</urlset>");
    lint(xml, (size_t) (p - xml), "", &s, &sum);
    assert_int_equal(s.n[RA_SMF_TOO_MANY], 1);
    assert_int_equal(sum.entries, n);
    free(xml);

    /* a gzip bomb: 51 MiB of spaces decode to the limit and stop (the
     * sanitizer run checks it; under valgrind it would take a minute) */
    if (getenv("RA_UNDER_VALGRIND") != NULL) {
        return;
    }
    len = RA_SM_MAX_BYTES + 1024 * 1024;
    xml = malloc(len);
    gz = malloc(cap);
    assert_non_null(xml);
    assert_non_null(gz);
    memset(xml, ' ', len);
    memcpy(xml, "<urlset>", 8);
    n = ra_test_gzip(xml, len, gz, cap);
    free(xml);
    lint((const char *) gz, n, "", &s, &sum);
    assert_int_equal(s.n[RA_SMF_TOO_BIG], 1);
    assert_int_equal(sum.bytes, RA_SM_MAX_BYTES);
    free(gz);
}


/* The lint fed piece by piece, pieces of size piece (the last shorter). */
static void
lint_pieces(const void *body, size_t len, size_t piece, seen_t *s,
    ra_sm_summary_t *sum)
{
    ra_sm_lint_t  *x;
    ra_rules_t    *rules;
    size_t         off, k;
    static const char  rtxt[] = "User-agent: *\nDisallow: /private\n";

    memset(s, 0, sizeof(*s));
    assert_int_equal(ra_rules_compile(ra_str(rtxt, sizeof(rtxt) - 1),
                                      &ra_malloc_allocator, &rules, NULL),
                     RA_OK);
    assert_int_equal(ra_sitemap_lint_start(&x, ra_str("", 0), rules,
                                           &ra_malloc_allocator, on_finding,
                                           s, sum), RA_OK);
    for (off = 0; off < len; off += k) {
        k = len - off < piece ? len - off : piece;
        assert_int_equal(ra_sitemap_lint_feed(x, (const char *) body + off,
                                              k), RA_OK);
    }
    ra_sitemap_lint_end(x);
    ra_rules_free(rules);
}

/* pieces of every size read as the whole: plain, gzip (split at odd
 * places), a malformed document, and the bound on one construct */
static void
test_stream(void **state)
{
    static const char  bad[] =
        "<urlset><url><loc>https://example.com/a</loc></url>\n"
        "<url><loc>https://example.com/&bogus;</loc></url></urlset>";
    seen_t           whole, part;
    ra_sm_summary_t  ws, ps;
    unsigned char    gz[4096];
    size_t           n, piece, k;
    char            *big;
    struct {
        const void  *p;
        size_t       len;
    } docs[3];

    (void) state;
    n = ra_test_gzip(urlset, sizeof(urlset) - 1, gz, sizeof(gz));
    docs[0].p = urlset;
    docs[0].len = sizeof(urlset) - 1;
    docs[1].p = gz;
    docs[1].len = n;
    docs[2].p = bad;
    docs[2].len = sizeof(bad) - 1;
    for (k = 0; k < 3; k++) {
        lint_pieces(docs[k].p, docs[k].len, docs[k].len, &whole, &ws);
        for (piece = 1; piece <= 41; piece++) {
            lint_pieces(docs[k].p, docs[k].len, piece, &part, &ps);
            assert_memory_equal(part.n, whole.n, sizeof(whole.n));
            assert_int_equal(part.ndis, whole.ndis);
            assert_memory_equal(part.disallowed, whole.disallowed,
                                sizeof(whole.disallowed));
            assert_int_equal(part.line, whole.line);
            assert_int_equal(ps.entries, ws.entries);
            assert_int_equal(ps.lines, ws.lines);
            assert_int_equal(ps.bytes, ws.bytes);
            assert_int_equal(ps.raw, docs[k].len);
            assert_int_equal(ps.complete, ws.complete);
            assert_int_equal(ps.gzip, k == 1);
        }
    }
    assert_int_equal(whole.n[RA_SMF_MALFORMED], 1);
    assert_int_equal(whole.line, 2);

    /* a comment longer than the window: malformed when read in pieces */
    big = malloc(RA_SM_WINDOW + 64);
    assert_non_null(big);
    memcpy(big, "<urlset><!--", 12);
    memset(big + 12, 'x', RA_SM_WINDOW + 20);
    memcpy(big + 12 + RA_SM_WINDOW + 20, "--></urlset>", 12);
    lint_pieces(big, RA_SM_WINDOW + 44, 4096, &part, &ps);
    assert_int_equal(part.n[RA_SMF_MALFORMED], 1);
    assert_false(ps.complete);
    free(big);
}

int
main(void)
{
    const struct CMUnitTest  tests[] = {
        cmocka_unit_test(test_parse),
        cmocka_unit_test(test_index),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_lint),
        cmocka_unit_test(test_gzip),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_stream),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
