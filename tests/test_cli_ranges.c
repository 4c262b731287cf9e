/* SPDX-License-Identifier: BSD-2-Clause */
/* 'robots-audit ranges' without the network: the built-in publishers
 * cover every range file the crawler table names and each one is used,
 * and the usage errors.  t/049-ranges-update.t fetches from loopback. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "ra_test.h"
#include "ra_crawlers.h"

#define BIN  "./build/robots-audit"

/* the name Google's crawlers' file had before it moved (2026-03): still
 * named by the table so that configurations loading it keep verifying,
 * but no publisher writes it any more */
#define RA_OLD_GOOGLE  "googlebot.json"

/* 1 when "NAME URL" lines in list hold a line for name */
static int
listed(const char *list, ra_str_t name)
{
    const char  *p = list;

    while (*p) {
        const char  *sp = strchr(p, ' ');
        const char  *nl = strchr(p, '\n');

        if (sp == NULL || nl == NULL) {
            return 0;
        }
        if ((size_t) (sp - p) == name.len
            && memcmp(p, name.data, name.len) == 0)
        {
            return 1;
        }
        p = nl + 1;
    }
    return 0;
}

static void
table_and_publishers_agree(void **state)
{
    static char           out[16384];
    ra_test_arena_t      *ar = ra_test_arena_new();
    ra_crawlers_t        *t;
    ra_crawlers_err_t     err;
    const ra_crawler_t   *c;
    const char           *p;
    size_t                i, r, nsrc = 0, nnamed = 0;

    (void) state;
    assert_int_equal(
        ra_test_sh(BIN " ranges sources --format list", out, sizeof(out)), 0);
    t = ra_crawlers_create(ra_test_arena_alloc(ar));
    assert_non_null(t);
    assert_int_equal(ra_crawlers_add_builtin(t, &err), RA_OK);
    assert_int_equal(ra_crawlers_compile(t, &err), RA_OK);

    /* every file the table names has a publisher */
    for (i = 0; i < ra_crawlers_count(t); i++) {
        c = ra_crawlers_get(t, i);
        for (r = 0; r < c->nranges; r++) {
            if (ra_strcaseeq(c->ranges[r], ra_str(RA_OLD_GOOGLE,
                                               strlen(RA_OLD_GOOGLE))))
            {
                continue;
            }
            if (!listed(out, c->ranges[r])) {
                fail_msg("%.*s names %.*s, which no publisher writes",
                         (int) c->name.len, (const char *) c->name.data,
                         (int) c->ranges[r].len,
                         (const char *) c->ranges[r].data);
            }
            nnamed++;
        }
    }
    assert_true(nnamed > 50);

    /* every crawler publisher's file is used by some crawler, and no
     * cloud provider's is (a cloud range never verifies one) */
    for (p = out; *p; p = strchr(p, '\n') + 1) {
        size_t  nl = strcspn(p, " "), ll = strcspn(p, "\n");
        int     used = 0, cloud;

        assert_true(strncmp(p + nl, " https://", 9) == 0);
        cloud = ll > 6 && strncmp(p + ll - 6, " cloud", 6) == 0;
        assert_true(cloud || (ll > 8 && strncmp(p + ll - 8, " crawler", 8)
                                        == 0));
        assert_int_equal(cloud, strncmp(p, "cloud-", 6) == 0);
        for (i = 0; i < ra_crawlers_count(t) && !used; i++) {
            c = ra_crawlers_get(t, i);
            for (r = 0; r < c->nranges; r++) {
                if (c->ranges[r].len == nl
                    && memcmp(c->ranges[r].data, p, nl) == 0)
                {
                    used = 1;
                }
            }
        }
        if (cloud) {
            if (used) {
                fail_msg("cloud file %.*s: a crawler names it", (int) nl, p);
            }
            continue;
        }
        if (!used) {
            fail_msg("publisher %.*s: no crawler uses it", (int) nl, p);
        }
        nsrc++;
    }
    assert_true(nsrc >= 15);
    /* the files the issue names */
    assert_true(listed(out, ra_str("common-crawlers.json", 20)));
    assert_true(listed(out, ra_str("special-crawlers.json", 21)));
    assert_true(listed(out, ra_str("user-triggered-fetchers.json", 28)));
    assert_true(listed(out, ra_str("user-triggered-fetchers-google.json",
                                   35)));
    assert_true(listed(out, ra_str("user-triggered-agents.json", 26)));
    assert_true(listed(out, ra_str("ccbot.json", 10)));

    /* the text form names the crawlers and the documentation */
    assert_int_equal(ra_test_sh(BIN " ranges sources", out, sizeof(out)), 0);
    assert_non_null(strstr(out, "gptbot.json\n  url:      https://openai.com"
                                "/gptbot.json\n  kind:     crawler\n"
                                "  crawlers: GPTBot\n  source:   https://"));
    assert_non_null(strstr(out, "cloud-aws.json\n  url:      https://"
                                "ip-ranges.amazonaws.com/ip-ranges.json\n"
                                "  kind:     cloud (provider aws)\n"
                                "  source:   https://docs.aws.amazon.com/"));
    assert_non_null(strstr(out, "chatgpt.com.json\n  url:      https://"
                                "chatgpt.com/.well-known/http-message-"
                                "signatures-directory\n"));
    assert_null(strstr(out, "(none)"));
    ra_test_arena_free(ar);
}

/* A sources file of these lines (printf's format) is refused before any
 * fetch, saying why. */
static void
sources_refused(const char *lines, const char *why)
{
    char  cmd[512], out[4096];

    snprintf(cmd, sizeof(cmd), "printf '%s' > build/tests/src-bad.txt && "
             BIN " ranges update --dir build --sources "
             "build/tests/src-bad.txt 2>&1", lines);
    assert_int_equal(ra_test_sh(cmd, out, sizeof(out)), 2);
    if (strstr(out, why) == NULL) {
        fail_msg("'%s' not in: %s", why, out);
    }
}

static void
usage_errors(void **state)
{
    char  out[8192];

    (void) state;
    assert_int_equal(ra_test_sh(BIN " ranges 2>/dev/null", out, sizeof(out)),
                     2);
    assert_int_equal(
        ra_test_sh(BIN " ranges fetch 2>/dev/null", out, sizeof(out)), 2);
    assert_int_equal(
        ra_test_sh(BIN " ranges update 2>/dev/null", out, sizeof(out)), 2);
    assert_int_equal(ra_test_sh(BIN " ranges update --dir /nonexistent/x "
                                    "2>/dev/null",
                                out, sizeof(out)),
                     2);
    assert_int_equal(ra_test_sh(BIN " ranges update --dir build --timeout 0 "
                                    "2>/dev/null",
                                out, sizeof(out)),
                     2);
    assert_int_equal(ra_test_sh(BIN " ranges update --dir build --agent "
                                    "https://x.example 2>/dev/null",
                                out, sizeof(out)),
                     2);
    assert_int_equal(ra_test_sh(BIN " ranges sources --format yaml 2>/dev/null",
                                out, sizeof(out)),
                     2);
    assert_int_equal(ra_test_sh(BIN " ranges update --help", out, sizeof(out)),
                     0);
    assert_non_null(strstr(out, "--keys-dir KDIR"));
    /* a sources file that is not one: refused before any fetch */
    assert_int_equal(
        ra_test_sh("printf 'a.json\\n' > build/tests/src-bad.txt && " BIN
                   " ranges update --dir build --sources "
                   "build/tests/src-bad.txt 2>&1",
                   out, sizeof(out)),
        2);
    assert_non_null(strstr(out, "line 1: expected 'NAME URL'"));
    /* a kind, when given, is the one the name says */
    sources_refused("a.json https://x.example/a.json cloud\\n",
                    "line 1: 'a.json' is a crawler file's name");
    sources_refused("# x\\ncloud-a.csv https://x.example/a.csv crawler\\n",
                    "line 2: 'cloud-a.csv' is a cloud file's");
    sources_refused("a.json https://x.example/a.json kind=x\\n",
                    "kind 'kind=x': 'crawler' or 'cloud'");
    sources_refused("a.json file:///etc/passwd\\n", "not an http or https URL");
}

int
main(void)
{
    const struct CMUnitTest  tests[] = {
        cmocka_unit_test(table_and_publishers_agree),
        cmocka_unit_test(usage_errors),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
