/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * 'robots-audit lint --page', 'lint --sitemap' and 'sitemap check' as a
 * user runs them: an HTTP response with X-Robots-Tag and meta tags under
 * a disallowed path, a bare HTML file, a sitemap with disallowed URLs
 * (plain and gzip), both output formats and the exit codes 0/1/2.  Runs
 * build/robots-audit from the repository root; skips when it is absent.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ra_test.h"

static const char  robots[] =
    "User-agent: *\n"
    "Disallow: /private/\n"
    "\n"
    "User-agent: Googlebot\n"
    "Disallow: /a\n";

static const char  response[] =
    "HTTP/1.1 200 OK\r\n"
    "Content-Type: text/html\r\n"
    "X-Robots-Tag: noindex\r\n"
    "X-Robots-Tag: bingbot: unavailable_after: Fri, 25 Jun 2010 "
    "15:00:00 PST\r\n"
    "\r\n"
    "<html><head><meta name=\"robots\" content=\"index, follow\">"
    "<meta content=noarchive name=GoogleBot></head><body></body></html>\n";

static const char  sitemap[] =
    "<?xml version=\"1.0\"?>\n"
    "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
    "<url><loc>https://example.com/</loc><lastmod>2024-01-01</lastmod>"
    "</url>\n"
    "<url><loc>https://example.com/private/p</loc></url>\n"
    "<url><loc>https://example.com/a?x=1&amp;y=2</loc>"
    "<lastmod>01/02/2024</lastmod></url>\n"
    "</urlset>\n";

static void
run(ra_test_run_t *r, const char *fmt, const char *a, const char *b)
{
    char  args[512];

    snprintf(args, sizeof(args), fmt, a, b);
    ra_test_cli(r, args, NULL);
}

static void
test_page(void **state)
{
    char           rp[64], pp[64], want[256];
    ra_test_run_t  r;

    (void) state;
    ra_test_need_cli();
    ra_test_tmp_file(rp, robots, sizeof(robots) - 1);
    ra_test_tmp_file(pp, response, sizeof(response) - 1);

    /* directives only: exit 0 */
    run(&r, "lint --page %s%s", pp, "");
    assert_int_equal(r.status, 0);
    snprintf(want, sizeof(want), "%s: X-Robots-Tag *: noindex\n", pp);
    assert_non_null(strstr(r.out, want));
    snprintf(want, sizeof(want), "%s: X-Robots-Tag bingbot: "
             "unavailable_after (Fri, 25 Jun 2010 15:00:00 PST)\n", pp);
    assert_non_null(strstr(r.out, want));
    snprintf(want, sizeof(want), "%s: meta GoogleBot: noarchive\n", pp);
    assert_non_null(strstr(r.out, want));
    ra_test_run_free(&r);

    /* under a disallowed path: noindex-disallowed is an error */
    run(&r, "lint --page %s --robots %s "
        "--url https://example.com/private/r.html", pp, rp);
    assert_int_equal(r.status, 1);
    /* Googlebot's own group replaces "*": it may fetch /private/ */
    snprintf(want, sizeof(want), "%s: error: Bingbot: noindex cannot be "
             "seen: robots.txt line 2 'Disallow: /private/' keeps it from "
             "/private/r.html [noindex-disallowed]\n", pp);
    assert_non_null(strstr(r.out, want));
    assert_non_null(strstr(r.out, "[header-meta]"));
    assert_non_null(strstr(r.out, "Googlebot: does not honour noarchive "
                                  "[ignored]"));
    assert_non_null(strstr(r.out, "Bingbot: does not honour "
                                  "unavailable_after [ignored]"));
    assert_null(strstr(r.out, "error: Googlebot"));
    snprintf(want, sizeof(want), "%s: 2 errors, 5 warnings\n", pp);
    assert_non_null(strstr(r.out, want));
    ra_test_run_free(&r);

    /* allowed path: warnings only, exit 0; JSON */
    run(&r, "lint --page %s --robots %s --url /public --format json", pp,
        rp);
    assert_int_equal(r.status, 0);
    assert_null(strstr(r.out, "noindex-disallowed"));
    assert_non_null(strstr(r.out, "\"status\":200"));
    assert_non_null(strstr(r.out, "{\"kind\":\"header-meta\",\"severity\":"
                                  "\"warning\",\"crawler\":\"*\",\"path\":"
                                  "\"/public\",\"directives\":[\"noindex\"],"
                                  "\"rule\":null}"));
    ra_test_run_free(&r);

    /* --help after --page is no FILE */
    run(&r, "lint --page --help%s%s", "", "");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "usage: robots-audit lint --page"));
    ra_test_run_free(&r);

    /* usage errors */
    run(&r, "lint --page %s --robots %s", pp, rp);
    assert_int_equal(r.status, 2);
    ra_test_run_free(&r);
    run(&r, "lint --page /nonexistent/%s%s", "x", "");
    assert_int_equal(r.status, 2);
    ra_test_run_free(&r);
    unlink(rp);
    unlink(pp);
}

static void
test_page_stdin(void **state)
{
    ra_test_run_t  r;

    (void) state;
    ra_test_need_cli();
    ra_test_cli(&r, "lint --page -",
                "<META NAME='robots' CONTENT='none'><body>"
                "<meta name=robots content=noai>");
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "<stdin>: meta *: none\n");
    ra_test_run_free(&r);
}

static void
test_sitemap(void **state)
{
    char           rp[64], sp[64], gp[64], want[256];
    unsigned char  gz[1024];
    size_t         n;
    ra_test_run_t  r;
    static const char  disallowed[] =
        "https://example.com/private/p\t*\t2\tdisallow: /private/\n"
        "https://example.com/private/p\tBingbot\t2\tdisallow: /private/\n"
        "https://example.com/a?x=1&y=2\tGooglebot\t5\tdisallow: /a\n";

    (void) state;
    ra_test_need_cli();
    ra_test_tmp_file(rp, robots, sizeof(robots) - 1);
    ra_test_tmp_file(sp, sitemap, sizeof(sitemap) - 1);
    n = ra_test_gzip(sitemap, sizeof(sitemap) - 1, gz, sizeof(gz));
    ra_test_tmp_file(gp, gz, n);

    run(&r, "sitemap check %s %s", sp, rp);
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, disallowed);
    ra_test_run_free(&r);
    run(&r, "sitemap check %s %s", gp, rp);
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, disallowed);
    ra_test_run_free(&r);

    run(&r, "lint --sitemap %s %s", gp, rp);
    assert_int_equal(r.status, 1);
    snprintf(want, sizeof(want), "%s:5: warning: lastmod '01/02/2024' is no "
             "W3C datetime", gp);
    assert_non_null(strstr(r.out, want));
    snprintf(want, sizeof(want), "%s: urlset (gzip), 3 URLs, %zu bytes: "
             "3 errors, 1 warning", gp, sizeof(sitemap) - 1);
    assert_non_null(strstr(r.out, want));
    ra_test_run_free(&r);

    /* without robots.txt: only the warning, exit 0 */
    run(&r, "lint --sitemap %s --format json%s", sp, "");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\"code\":\"lastmod\""));
    assert_non_null(strstr(r.out, "\"kind\":\"urlset\",\"gzip\":false,"
                                  "\"urls\":3"));
    ra_test_run_free(&r);

    run(&r, "sitemap check %s%s", sp, "");
    assert_int_equal(r.status, 2);
    ra_test_run_free(&r);
    unlink(rp);
    unlink(sp);
    unlink(gp);
}

int
main(void)
{
    const struct CMUnitTest  tests[] = {
        cmocka_unit_test(test_page),
        cmocka_unit_test(test_page_stdin),
        cmocka_unit_test(test_sitemap),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
