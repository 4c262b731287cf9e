/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * 'robots-audit lint' as a user runs it: both output formats, exit codes
 * 0/1/2, stdin, escaping of hostile bytes, and the time it takes over
 * every stress file.  Runs build/robots-audit from the repository root
 * (where make runs the tests); skips when it is not there.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <zlib.h>

#include "ra_test.h"

#define CLI  RA_TEST_CLI

/* "robots-audit lint ARGS" */
static void
cli(ra_test_run_t *r, const char *args)
{
    char  lint[4096];

    snprintf(lint, sizeof(lint), "lint %s", args);
    ra_test_cli(r, lint, NULL);
}

/* JSON shape: balanced {} and [] outside strings, nothing after the
 * document but a newline, no raw control bytes in strings. */
static int
json_ok(const char *s)
{
    int  depth = 0, in_str = 0;

    for ( /* void */ ; *s; s++) {
        if (in_str) {
            if ((unsigned char) *s < 0x20) {
                return 0;
            }
            if (*s == '\\') {
                s++;
            } else if (*s == '"') {
                in_str = 0;
            }
            continue;
        }
        switch (*s) {
        case '"': in_str = 1; break;
        case '{': case '[': depth++; break;
        case '}': case ']':
            if (--depth == 0) {
                return strcmp(s + 1, "\n") == 0;
            }
            break;
        }
    }
    return 0;
}

static const char  bad[] = "User-agent: *\nDisallow: private\n";
static const char  clean[] =
    "User-agent: *\nDisallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\n"
    "\nSitemap: https://example.com/sitemap.xml\n";

static void
test_text_errors(void **state)
{
    char       path[64], want[256];
    ra_test_run_t  r;

    (void) state;
    ra_test_need_cli();
    ra_test_tmp_file(path, bad, sizeof(bad) - 1);
    cli(&r, path);
    assert_int_equal(r.status, 1);
    snprintf(want, sizeof(want), "%s:2:11: error: Disallow 'private' does "
             "not start with '/' or '*'", path);
    assert_non_null(strstr(r.out, want));
    assert_non_null(strstr(r.out, "[path-start]\n"));
    snprintf(want, sizeof(want), "%s: 1 group, 1 rule, 0 sitemaps, 32 bytes; "
             "1 error, 0 warnings, 0 infos\n", path);
    assert_non_null(strstr(r.out, want));
    ra_test_run_free(&r);
    unlink(path);
}

static void
test_text_clean(void **state)
{
    char       path[64], want[256];
    ra_test_run_t  r;

    (void) state;
    ra_test_need_cli();
    ra_test_tmp_file(path, clean, sizeof(clean) - 1);
    cli(&r, path);
    assert_int_equal(r.status, 0);
    /* one line: the summary */
    snprintf(want, sizeof(want), "%s: 1 group, 2 rules, 1 sitemap, %zu "
             "bytes; 0 errors, 0 warnings, 0 infos\n", path, sizeof(clean) - 1);
    assert_string_equal(r.out, want);
    ra_test_run_free(&r);
    unlink(path);
}

/* --content-encoding: a gzip body (as curl -o saves it) is decoded, one
 * that cannot be decoded is the error content-encoding */
static void
test_content_encoding(void **state)
{
    char           path[64], want[256];
    uLongf         n = 512;
    unsigned char  gz[512];
    z_stream       z;
    ra_test_run_t  r;

    (void) state;
    ra_test_need_cli();
    memset(&z, 0, sizeof(z));
    assert_int_equal(deflateInit2(&z, 9, Z_DEFLATED, 31, 8,
                                  Z_DEFAULT_STRATEGY), Z_OK);
    z.next_in = (unsigned char *) clean;
    z.avail_in = sizeof(clean) - 1;
    z.next_out = gz;
    z.avail_out = sizeof(gz);
    assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
    n = z.total_out;
    deflateEnd(&z);
    ra_test_tmp_file(path, gz, n);

    snprintf(want, sizeof(want), "--content-encoding gzip %s", path);
    cli(&r, want);
    assert_int_equal(r.status, 0);
    snprintf(want, sizeof(want), "%s: 1 group, 2 rules, 1 sitemap, %zu "
             "bytes; 0 errors, 0 warnings, 0 infos\n", path,
             sizeof(clean) - 1);
    assert_string_equal(r.out, want);
    ra_test_run_free(&r);

    /* not br, not deflate; an unknown coding */
    snprintf(want, sizeof(want), "--content-encoding 'gzip, br' %s", path);
    cli(&r, want);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, ":0:0: error: robots.txt sent with "
                                  "Content-Encoding 'gzip, br' that could "
                                  "not be decoded"));
    assert_non_null(strstr(r.out, "[content-encoding]\n"));
    ra_test_run_free(&r);
    snprintf(want, sizeof(want), "--format json --content-encoding=xz %s",
             path);
    cli(&r, want);
    assert_int_equal(r.status, 1);
    assert_true(json_ok(r.out));
    assert_non_null(strstr(r.out, "\"code\":\"content-encoding\""));
    ra_test_run_free(&r);

    /* without --content-encoding: one error that says what it is, not
     * "0 rules" with a screenful of warnings and exit 0 */
    cli(&r, path);
    assert_int_equal(r.status, 1);
    snprintf(want, sizeof(want), "%s:1:1: error: the file is "
             "gzip-compressed data (it starts with 1F 8B): ", path);
    assert_non_null(strstr(r.out, want));
    assert_non_null(strstr(r.out, "[binary]\n"));
    assert_non_null(strstr(r.out, "1 error, 0 warnings, 0 infos\n"));
    ra_test_run_free(&r);
    unlink(path);
}

static void
test_json(void **state)
{
    char       path[64], args[256];
    ra_test_run_t  r;

    (void) state;
    ra_test_need_cli();
    ra_test_tmp_file(path, bad, sizeof(bad) - 1);
    snprintf(args, sizeof(args), "--format json %s", path);
    cli(&r, args);
    assert_int_equal(r.status, 1);
    assert_true(json_ok(r.out));
    assert_true(strncmp(r.out, "{\"file\":\"/tmp/ra-test-", 21) == 0);
    assert_non_null(strstr(r.out, "\"size\":32,\"status\":null,"
                                  "\"content_type\":null,\"summary\":{"));
    assert_non_null(strstr(r.out, "\"findings\":[{\"line\":2,\"column\":11,"
                                  "\"severity\":\"error\",\"code\":"
                                  "\"path-start\",\"message\":\"Disallow "));
    assert_non_null(strstr(r.out, "\"errors\":1,\"warnings\":0,"));
    ra_test_run_free(&r);

    /* with the answer's facts, and --opt=value */
    snprintf(args, sizeof(args), "--format=json --status=200 "
             "--content-type 'text/html; charset=utf-8' %s", path);
    cli(&r, args);
    assert_int_equal(r.status, 1);
    assert_true(json_ok(r.out));
    assert_non_null(strstr(r.out, "\"status\":200,\"content_type\":"
                                  "\"text/html; charset=utf-8\""));
    assert_non_null(strstr(r.out, "{\"line\":0,\"column\":0,\"severity\":"
                                  "\"warning\",\"code\":\"content-type\""));
    ra_test_run_free(&r);

    ra_test_tmp_file(path, clean, sizeof(clean) - 1);
    snprintf(args, sizeof(args), "--format json %s", path);
    cli(&r, args);
    assert_int_equal(r.status, 0);
    assert_true(json_ok(r.out));
    assert_non_null(strstr(r.out, "\"findings\":[],\"suppressed\":{}}\n"));
    ra_test_run_free(&r);
    unlink(path);
}

static void
test_answer_options(void **state)
{
    char       path[64], args[256];
    ra_test_run_t  r;

    (void) state;
    ra_test_need_cli();
    ra_test_tmp_file(path, clean, sizeof(clean) - 1);

    snprintf(args, sizeof(args), "--status 503 %s", path);
    cli(&r, args);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, ":0:0: error: HTTP 503: "));
    assert_non_null(strstr(r.out, "[status-unreachable]"));
    ra_test_run_free(&r);

    snprintf(args, sizeof(args), "--status 403 %s", path);
    cli(&r, args);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "[status-forbidden]"));
    ra_test_run_free(&r);

    snprintf(args, sizeof(args), "--status 404 %s", path);
    cli(&r, args);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, ":0:0: info: HTTP 404"));
    ra_test_run_free(&r);

    snprintf(args, sizeof(args), "--redirects 6 %s", path);
    cli(&r, args);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "[redirect-limit]"));
    ra_test_run_free(&r);

    snprintf(args, sizeof(args), "--content-type text/html %s", path);
    cli(&r, args);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, ":0:0: warning: Content-Type is text/html"));
    ra_test_run_free(&r);
    unlink(path);
}

static void
test_usage(void **state)
{
    char        path[64], args[256];
    ra_test_run_t   r;
    size_t      i;
    static const char  *bad_args[] = {
        "",
        "--bogus %s",
        "--status abc %s",
        "--status 99 %s",
        "--status 600 %s",
        "--status",
        "--redirects -1 %s",
        "--format xml %s",
        "%s %s",
        "/nonexistent/robots.txt",
        "/tmp",
    };

    (void) state;
    ra_test_need_cli();
    ra_test_tmp_file(path, clean, sizeof(clean) - 1);
    for (i = 0; i < sizeof(bad_args) / sizeof(bad_args[0]); i++) {
        snprintf(args, sizeof(args), bad_args[i], path, path);
        cli(&r, args);
        if (r.status != 2) {
            print_message("'lint %s' exited %d\n", args, r.status);
        }
        assert_int_equal(r.status, 2);
        assert_int_equal(r.len, 0);     /* nothing on stdout */
        ra_test_run_free(&r);
    }

    cli(&r, "--help");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "usage: robots-audit lint"));
    ra_test_run_free(&r);
    unlink(path);
}

static void
test_stdin_and_escapes(void **state)
{
    /* ESC ] ... BEL would retitle a terminal; ESC [ would recolour it */
    static const char  hostile[] =
        "User-agent: *\n\x1b]0;owned\x07: x\nDisallow: /\x1b[31mred\n"
        "Sitemap: \x1b[2J\n";
    char       path[64], args[256];
    ra_test_run_t  r;

    (void) state;
    ra_test_need_cli();
    ra_test_tmp_file(path, hostile, sizeof(hostile) - 1);

    ra_test_cli(&r, "lint -", hostile);
    assert_int_equal(r.status, 1);              /* sitemap-url */
    assert_non_null(strstr(r.out, "<stdin>:2:1: "));
    assert_null(memchr(r.out, 0x1b, r.len));
    assert_null(memchr(r.out, 0x07, r.len));
    assert_non_null(strstr(r.out, "\\x1b]0;owned\\x07"));
    ra_test_run_free(&r);

    snprintf(args, sizeof(args), "--format json %s", path);
    cli(&r, args);
    assert_true(json_ok(r.out));
    assert_null(memchr(r.out, 0x1b, r.len));
    ra_test_run_free(&r);
    unlink(path);
}

static void
test_stress_timing(void **state)
{
    /* lint over every stress file: no crash, exit 0 or 1, < 1 s total */
    char             args[1024];
    const char      *dir;
    ra_test_run_t        r;
    int              i, n = 0;
    double           secs;
    struct timespec  t0, t1;
    static const char  *files[] = {
        "01_empty", "02_only_bom", "03_bom_crlf", "04_cr_only",
        "05_mixed_endings", "06_nul_bytes", "07_invalid_utf8",
        "08_line_len_boundaries", "09_huge_line_1mib", "10_600kib",
        "11_500kib_boundary", "12_10k_rules", "13_10k_groups",
        "14_10k_ua_lines", "15_wildcard_aaab", "16_many_stars",
        "17_wildcard_500kib_bomb", "18_dollar_variants", "19_percent_edge",
        "20_comments_everywhere", "21_whitespace_weird", "22_missing_colon",
        "23_typos", "24_key_prefix", "25_html_page", "26_ua_weird",
        "27_rules_before_ua", "28_long_ua_value", "29_same_ua_5000_groups",
        "30_utf16le", "31_300k_crlf_lines", "32_control_chars",
        "33_star_500kib_bomb",
    };

    (void) state;
    ra_test_need_cli();
    RA_TEST_NEED_SHARED();
    dir = ra_test_shared();

    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (i = 0; i < (int) (sizeof(files) / sizeof(files[0])); i++) {
        snprintf(args, sizeof(args), "--format %s %s/robots-stress/%s.txt",
                 i % 2 ? "json" : "text", dir, files[i]);
        cli(&r, args);
        if (r.status != 0 && r.status != 1) {
            print_message("%s: exit %d\n", files[i], r.status);
            fail();
        }
        if (i % 2) {
            assert_true(json_ok(r.out));
        }
        ra_test_run_free(&r);
        n++;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    secs = (double) (t1.tv_sec - t0.tv_sec)
           + (double) (t1.tv_nsec - t0.tv_nsec) / 1e9;
    /* a figure to read, never a verdict: timing belongs to bench/ */
    print_message("lint over %d stress files: %.3f s\n", n, secs);
}

int
main(void)
{
    const struct CMUnitTest  tests[] = {
        cmocka_unit_test(test_text_errors),
        cmocka_unit_test(test_text_clean),
        cmocka_unit_test(test_json),
        cmocka_unit_test(test_answer_options),
        cmocka_unit_test(test_usage),
        cmocka_unit_test(test_content_encoding),
        cmocka_unit_test(test_stdin_and_escapes),
        cmocka_unit_test(test_stress_timing),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
