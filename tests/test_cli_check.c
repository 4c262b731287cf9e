/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * 'robots-audit check' as a user runs it: output lines, exit codes 0/1/2,
 * stdin, --mode, --user-agent, and every kind of bad input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ra_test.h"

static const char  robots[] =
    "User-agent: Googlebot\nDisallow: /g\n\n"
    "User-agent: Googlebot-Image\nDisallow: /img\n\n"
    "User-agent: *\nDisallow: /private\nDisallow: /\xe3\x83\x84\n";

static char  file[64];

static int
setup(void **state)
{
    (void) state;
    ra_test_tmp_file(file, robots, sizeof(robots) - 1);
    return 0;
}

static int
teardown(void **state)
{
    (void) state;
    unlink(file);
    return 0;
}

static void
check_lines_and_exit_codes(void **state)
{
    ra_test_run_t  r;
    char           args[256];

    (void) state;
    ra_test_need_cli();
    snprintf(args, sizeof(args), "check %s FooBot https://h/ok /private/x",
             file);
    ra_test_cli(&r, args, NULL);
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "allowed\thttps://h/ok\t0\t-\t"
                               "group=* line=7\n"
                               "disallowed\t/private/x\t8\t"
                               "disallow: /private\tgroup=* line=7\n");
    ra_test_run_free(&r);

    snprintf(args, sizeof(args), "check %s FooBot /ok /also-ok", file);
    ra_test_cli(&r, args, NULL);
    assert_int_equal(r.status, 0);
    ra_test_run_free(&r);

    /* the agent is a token taken verbatim: "Foo Bar" is not "Foo" */
    snprintf(args, sizeof(args), "check %s 'Googlebot News' /g/1", file);
    ra_test_cli(&r, args, NULL);
    assert_int_equal(r.status, 0);
    ra_test_run_free(&r);
}

/* The classic mistake: a Googlebot group replaces "*", so /private/ is
 * allowed for Googlebot; check says which group decided, and where. */
static void
check_names_the_group_that_decided(void **state)
{
    ra_test_run_t  r;
    char           args[256], f[64];
    static const char  mistake[] =
        "User-agent: *\nDisallow: /private/\n\n"
        "User-agent: Googlebot\nDisallow: /tmp/\n";

    (void) state;
    ra_test_need_cli();
    ra_test_tmp_file(f, mistake, sizeof(mistake) - 1);
    snprintf(args, sizeof(args), "check %s Googlebot /private/x", f);
    ra_test_cli(&r, args, NULL);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "allowed\t/private/x\t0\t-\t"
                               "group=googlebot line=4\n");
    ra_test_run_free(&r);
    snprintf(args, sizeof(args), "check %s Bingbot /private/x", f);
    ra_test_cli(&r, args, NULL);
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "disallowed\t/private/x\t2\t"
                               "disallow: /private/\tgroup=* line=1\n");
    ra_test_run_free(&r);
    /* AdsBot-Google ignores "*": no group applies */
    snprintf(args, sizeof(args), "check --user-agent 'AdsBot-Google "
             "(+http://www.google.com/adsbot.html)' %s /private/x", f);
    ra_test_cli(&r, args, NULL);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "allowed\t/private/x\t0\t-\tgroup=- "
                               "line=0\n");
    ra_test_run_free(&r);
    unlink(f);
}

static void
check_urls_from_stdin(void **state)
{
    ra_test_run_t  r;
    char           args[256];

    (void) state;
    ra_test_need_cli();
    snprintf(args, sizeof(args), "check %s Googlebot", file);
    ra_test_cli(&r, args, "https://h/g/1\n\n/private\r\n");
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "disallowed\thttps://h/g/1\t2\tdisallow: /g"
                               "\tgroup=googlebot line=1\n"
                               "allowed\t/private\t0\t-\t"
                               "group=googlebot line=1\n");
    ra_test_run_free(&r);
}

/* stdin is read in blocks: a URL longer than a block, lines across block
 * boundaries, a last line without a newline, a bad line after good ones
 * (what was judged is still written) */
static void
check_stdin_blocks(void **state)
{
    ra_test_run_t  r;
    char           args[256], *in, *want;
    size_t         i, n = 0, w = 0, big = 600 * 1024;

    (void) state;
    ra_test_need_cli();
    in = malloc(big + 40 * 30000 + 64);
    want = malloc(big + 80 * 30000 + 64);
    for (i = 0; i < 30000; i++) {
        n += (size_t) sprintf(in + n, i % 2 ? "/private/%zu\r\n" : "/p/%zu\n",
                              i);
        w += (size_t) sprintf(want + w, i % 2
                              ? "disallowed\t/private/%zu\t8\t"
                                "disallow: /private\tgroup=* line=7\n"
                              : "allowed\t/p/%zu\t0\t-\tgroup=* line=7\n", i);
    }
    in[n++] = '/';
    memset(in + n, 'a', big);
    n += big;
    in[n] = '\0';
    w += (size_t) sprintf(want + w, "allowed\t/");
    memset(want + w, 'a', big);
    w += big;
    strcpy(want + w, "\t0\t-\tgroup=* line=7\n");
    snprintf(args, sizeof(args), "check %s FooBot", file);
    ra_test_cli(&r, args, in);
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, want);
    ra_test_run_free(&r);

    strcpy(in, "/private\n/ok\nnot-a-url\n/never\n");
    ra_test_cli(&r, args, in);
    assert_int_equal(r.status, 2);
    assert_string_equal(r.out, "disallowed\t/private\t8\tdisallow: /private"
                               "\tgroup=* line=7\n"
                               "allowed\t/ok\t0\t-\tgroup=* line=7\n");
    ra_test_run_free(&r);
    free(in);
    free(want);
}

static void
check_modes_differ_where_reference_says(void **state)
{
    ra_test_run_t  r;
    char           args[256];

    (void) state;
    ra_test_need_cli();
    /* raw UTF-8 in the URL meets the %-encoded rule only in rfc mode */
    snprintf(args, sizeof(args), "check --mode rfc %s x /\xe3\x83\x84", file);
    ra_test_cli(&r, args, NULL);
    assert_int_equal(r.status, 1);
    ra_test_run_free(&r);
    snprintf(args, sizeof(args), "check --mode google %s x /\xe3\x83\x84",
             file);
    ra_test_cli(&r, args, NULL);
    assert_int_equal(r.status, 0);
    ra_test_run_free(&r);
    /* rfc: /robots.txt is always allowed; and %70 is 'p' */
    snprintf(args, sizeof(args), "check %s x /robots.txt /%%70rivate", file);
    ra_test_cli(&r, args, NULL);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "allowed\t/robots.txt\t0\t-\tgroup=- "
                                  "line=0\n"));
    assert_non_null(strstr(r.out, "disallowed\t/%70rivate\t8"));
    ra_test_run_free(&r);
}

static void
check_user_agent_uses_tokens_in_order(void **state)
{
    ra_test_run_t  r;
    char           args[256];

    (void) state;
    ra_test_need_cli();
    snprintf(args, sizeof(args), "check --user-agent 'Googlebot-Image/1.0' "
             "%s /img/1 /g/1 /private", file);
    ra_test_cli(&r, args, NULL);
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "disallowed\t/img/1\t5\tdisallow: /img\t"
                               "group=googlebot-image line=4\n"
                               "allowed\t/g/1\t0\t-\t"
                               "group=googlebot-image line=4\n"
                               "allowed\t/private\t0\t-\t"
                               "group=googlebot-image line=4\n");
    ra_test_run_free(&r);
    /* a browser: the "*" group */
    snprintf(args, sizeof(args), "check --user-agent 'Mozilla/5.0 (X11; "
             "Linux x86_64) Firefox/120.0' %s /private", file);
    ra_test_cli(&r, args, NULL);
    assert_int_equal(r.status, 1);
    ra_test_run_free(&r);
}

static void
check_bad_input_exits_2(void **state)
{
    static const char  *bad[] = {
        "check",                                    /* no arguments */
        "check /nonexistent/robots.txt x /a",       /* missing file */
        "check /tmp x /a",                          /* a directory */
        "check --mode bing FILE x /a",              /* bad mode */
        "check FILE '' /a",                         /* empty agent */
        "check FILE x example.com/a",               /* URL without scheme */
        "check --user-agent '' FILE /a",            /* empty UA */
        "check --nope FILE x /a",                   /* unknown option */
    };
    ra_test_run_t  r;
    char           args[256], bin[64], *p;
    size_t         i;
    static const unsigned char  gz[] = { 0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00,
                                         0x00, 0x00, 0x00, 0x03, 0x01, 0x02,
                                         0x03, 0x04, 0x05, 0x06 };

    (void) state;
    ra_test_need_cli();
    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        snprintf(args, sizeof(args), "%s", bad[i]);
        p = strstr(args, "FILE");
        if (p != NULL) {
            memmove(p + strlen(file), p + 4, strlen(p + 4) + 1);
            memcpy(p, file, strlen(file));
        }
        ra_test_cli(&r, args, NULL);
        assert_int_equal(r.status, 2);
        assert_int_equal(r.len, 0);
        ra_test_run_free(&r);
    }

    /* binary garbage and UTF-16 are refused, not judged */
    ra_test_tmp_file(bin, gz, sizeof(gz));
    snprintf(args, sizeof(args), "check %s x /a", bin);
    ra_test_cli(&r, args, NULL);
    assert_int_equal(r.status, 2);
    ra_test_run_free(&r);
    unlink(bin);
    ra_test_tmp_file(bin, "\xff\xfeU\0s\0e\0r\0", 10);
    snprintf(args, sizeof(args), "check %s x /a", bin);
    ra_test_cli(&r, args, NULL);
    assert_int_equal(r.status, 2);
    ra_test_run_free(&r);
    unlink(bin);

    /* a line on stdin that is no URL stops with 2 */
    snprintf(args, sizeof(args), "check %s x", file);
    ra_test_cli(&r, args, "/ok\nnot a url\n/never\n");
    assert_int_equal(r.status, 2);
    assert_string_equal(r.out, "allowed\t/ok\t0\t-\tgroup=* line=7\n");
    ra_test_run_free(&r);
}

static void
check_help(void **state)
{
    ra_test_run_t  r;

    (void) state;
    ra_test_need_cli();
    ra_test_cli(&r, "check --help", NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "usage: robots-audit check"));
    ra_test_run_free(&r);
    ra_test_cli(&r, "--help", NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "check"));
    ra_test_run_free(&r);
    ra_test_cli(&r, "--version", NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "robots-audit "));
    ra_test_run_free(&r);
    ra_test_cli(&r, "frobnicate", NULL);
    assert_int_equal(r.status, 2);
    ra_test_run_free(&r);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(check_lines_and_exit_codes),
        cmocka_unit_test(check_urls_from_stdin),
        cmocka_unit_test(check_stdin_blocks),
        cmocka_unit_test(check_names_the_group_that_decided),
        cmocka_unit_test(check_modes_differ_where_reference_says),
        cmocka_unit_test(check_user_agent_uses_tokens_in_order),
        cmocka_unit_test(check_bad_input_exits_2),
        cmocka_unit_test(check_help),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
