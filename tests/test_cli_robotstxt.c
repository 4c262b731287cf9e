/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * 'robots-audit robots-txt' as a user runs it: the block on stdout, merged
 * into a file twice with the same bytes, written with --output, refused
 * when lint faults it, and --report's verdicts, text and JSON.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ra_test.h"

static const char  site[] = "# the site's own\nUser-agent: *\n"
                            "Disallow: /private\n\nSitemap: https://e.x/s\n";
static const char  known[] = "User-agent: GPTBot\nDisallow: /\n\n"
                             "User-agent: *\nDisallow: /private\n";

static char  file[64], report[64], out1[80], out2[80];

static int
setup(void **state)
{
    (void) state;
    ra_test_tmp_file(file, site, sizeof(site) - 1);
    ra_test_tmp_file(report, known, sizeof(known) - 1);
    snprintf(out1, sizeof(out1), "%s.one", file);
    snprintf(out2, sizeof(out2), "%s.two", file);
    return 0;
}

static int
teardown(void **state)
{
    (void) state;
    unlink(file);
    unlink(report);
    unlink(out1);
    unlink(out2);
    return 0;
}

static void
block_on_stdout(void **state)
{
    ra_test_run_t  r;

    (void) state;
    ra_test_need_cli();
    ra_test_cli(&r, "robots-txt --disallow-purpose ai-training"
                " --allow-purpose search"
                " --content-signal 'search=yes, ai-train=no'", NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "# BEGIN robots-audit (generated:"
                           " robots-audit robots-txt --disallow-purpose"
                           " ai-training --allow-purpose search"
                           " --content-signal 'search=yes, ai-train=no')\n"));
    assert_non_null(strstr(r.out, "\nUser-agent: GPTBot\n"));
    assert_non_null(strstr(r.out, "\nUser-agent: Google-Extended\n"));
    assert_non_null(strstr(r.out, "\nUser-agent: Applebot-Extended\n"));
    assert_null(strstr(r.out, "\nUser-agent: Googlebot\n"));
    assert_non_null(strstr(r.out, "\nUser-agent: *\n"
                           "Content-Signal: search=yes, ai-train=no\n"
                           "# END robots-audit\n"));
    ra_test_run_free(&r);

    /* the purposes spelt otherwise give the same block */
    ra_test_cli(&r, "robots-txt --disallow-purpose 'AI-Training, ai-user'"
                " --disallow-purpose ai-search", NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "--disallow-purpose"
                           " ai-training,ai-search,ai-user)\n"));
    ra_test_run_free(&r);
}

static void
merge_twice_same_bytes(void **state)
{
    ra_test_run_t  r;
    char           args[512];
    ra_str_t       one, two;
    struct stat    st;
    mode_t         mask;

    (void) state;
    ra_test_need_cli();
    snprintf(args, sizeof(args), "robots-txt --disallow-purpose ai-training"
             " --merge %s --output %s", file, out1);
    ra_test_cli(&r, args, NULL);
    assert_int_equal(r.status, 0);
    assert_int_equal(r.len, 0);
    ra_test_run_free(&r);
    snprintf(args, sizeof(args), "robots-txt --disallow-purpose ai-training"
             " --merge %s --output %s", out1, out2);
    ra_test_cli(&r, args, NULL);
    assert_int_equal(r.status, 0);
    ra_test_run_free(&r);

    /* a web server reads it: a new file gets 0666 less the umask, a
     * replaced one keeps its mode */
    assert_int_equal(stat(out1, &st), 0);
    mask = umask(022);
    umask(mask);
    assert_int_equal(st.st_mode & 0777, 0666 & ~mask);
    assert_int_equal(chmod(out1, 0644), 0);
    snprintf(args, sizeof(args), "robots-txt --disallow-purpose ai-training"
             " --merge %s --output %s", out1, out1);
    ra_test_cli(&r, args, NULL);
    assert_int_equal(r.status, 0);
    ra_test_run_free(&r);
    assert_int_equal(stat(out1, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0644);

    assert_int_equal(ra_test_read_file(out1, &one), 0);
    assert_int_equal(ra_test_read_file(out2, &two), 0);
    assert_int_equal(one.len, two.len);
    assert_memory_equal(one.data, two.data, one.len);
    /* the site's lines first, as they were, then a blank line */
    assert_memory_equal(one.data, site, sizeof(site) - 1);
    assert_memory_equal(one.data + sizeof(site) - 1, "\n# BEGIN ", 9);
    free((void *) one.data);
    free((void *) two.data);

    /* and it lints clean */
    snprintf(args, sizeof(args), "lint %s", out2);
    ra_test_cli(&r, args, NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "0 errors, 0 warnings"));
    ra_test_run_free(&r);

    /* another purpose replaces the block in place */
    snprintf(args, sizeof(args), "robots-txt --disallow-purpose ai-search"
             " --merge %s", out2);
    ra_test_cli(&r, args, NULL);
    assert_int_equal(r.status, 0);
    assert_memory_equal(r.out, site, sizeof(site) - 1);
    assert_non_null(strstr(r.out, "\nUser-agent: PerplexityBot\n"));
    assert_null(strstr(r.out, "\nUser-agent: GPTBot\n"));
    assert_null(strstr(strstr(r.out, "# BEGIN") + 1, "# BEGIN"));
    ra_test_run_free(&r);
}

static void
lint_refuses_a_bad_block(void **state)
{
    char  out[8192];

    (void) state;
    ra_test_need_cli();
    assert_int_equal(ra_test_sh(RA_TEST_CLI " robots-txt --disallow-purpose"
                                " ai-training --content-signal"
                                " 'ai-train=maybe' 2>&1 </dev/null", out,
                                sizeof(out)), 2);
    assert_non_null(strstr(out, "warning: content signal ai-train='maybe'"));
    assert_non_null(strstr(out, "[content-signal]"));
    assert_non_null(strstr(out, "nothing written"));
    /* and nothing on stdout */
    assert_int_equal(ra_test_sh(RA_TEST_CLI " robots-txt --disallow-purpose"
                                " ai-training --content-signal"
                                " 'ai-train=maybe' 2>/dev/null </dev/null",
                                out, sizeof(out)), 2);
    assert_string_equal(out, "");
}

static void
report_text_and_json(void **state)
{
    ra_test_run_t  r;
    char           args[256];

    (void) state;
    ra_test_need_cli();
    snprintf(args, sizeof(args), "robots-txt --report %s", report);
    ra_test_cli(&r, args, NULL);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "ai-training      GPTBot       "));
    assert_non_null(strstr(r.out, " disallowed group=GPTBot line=2\n"));
    assert_non_null(strstr(r.out, "search           Googlebot                "
                           "      partly     group=* line=4\n"));
    ra_test_run_free(&r);

    snprintf(args, sizeof(args), "robots-txt --report %s --format json",
             report);
    ra_test_cli(&r, args, NULL);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "{\"name\":\"GPTBot\",\"purpose\":"
                           "\"ai-training\",\"verdict\":\"disallowed\","
                           "\"group\":\"GPTBot\",\"line\":2,\"flags\":[]}"));
    assert_non_null(strstr(r.out, "{\"name\":\"Googlebot\",\"purpose\":"
                           "\"search\",\"verdict\":\"partly\""));
    ra_test_run_free(&r);

    /* nothing disallowed: 0 */
    snprintf(args, sizeof(args), "robots-txt --report %s", file);
    ra_test_cli(&r, args, NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, " 0 disallowed\n"));
    ra_test_run_free(&r);
}

static void
bad_input_exits_2(void **state)
{
    static const char  *bad[] = {
        "robots-txt",
        "robots-txt --disallow-purpose robots",
        "robots-txt --disallow-purpose generic",
        "robots-txt --disallow-purpose ai-training extra",
        "robots-txt --disallow-purpose ai-training --format json",
        "robots-txt --report /nonexistent/robots.txt",
        "robots-txt --report x --disallow-purpose ai-training",
        "robots-txt --disallow-purpose ai-training --merge /nonexistent/r",
    };
    ra_test_run_t  r;
    size_t         i;

    (void) state;
    ra_test_need_cli();
    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        ra_test_cli(&r, bad[i], NULL);
        if (r.status != 2) {
            fail_msg("'%s' exited %d", bad[i], r.status);
        }
        ra_test_run_free(&r);
    }
    ra_test_cli(&r, "robots-txt --help", NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "--disallow-purpose"));
    ra_test_run_free(&r);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(block_on_stdout),
        cmocka_unit_test(merge_twice_same_bytes),
        cmocka_unit_test(lint_refuses_a_bad_block),
        cmocka_unit_test(report_text_and_json),
        cmocka_unit_test(bad_input_exits_2),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
