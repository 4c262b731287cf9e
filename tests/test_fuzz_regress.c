/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the fuzzers (fuzz/, make fuzz) found, one case each, with the
 * input that showed it (also kept in fuzz/corpus/<target>/regress-*, so
 * that make fuzz-smoke replays it under clang's sanitizers):
 *
 *   lint_group_without_rules   fuzz_lint: a group with no rule in a file
 *                              with no rule at all added an offset to a
 *                              NULL rule array (UBSan, clang only)
 *   buf_escapers_null_span     fuzz_report: the escapers added a span's
 *                              length to its NULL data (UBSan, clang only)
 *   audit_cache_budget         fuzz_report: with the rule-set cache over
 *                              budget and a slot free, ra_cache_add()
 *                              looped forever; evicting to fit could free
 *                              the current version's set that the verdict
 *                              still pointed into (ASan: use after free;
 *                              the verdict now holds copies)
 *   lint_size_limit_at_line_end
 *                              fuzz_lint: a file over 500 KiB whose limit
 *                              meets a line terminator put the size
 *                              finding on the line after the last one
 *                              read, past summary.lines
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ra_test.h"
#include "ra_audit.h"
#include "ra_buf.h"
#include "ra_lint.h"

#define H        (3600LL * 1000)
#define T0       (1700000000000LL)

static void
lint_group_without_rules(void **state)
{
    ra_test_arena_t  *arena = ra_test_arena_new();
    ra_lint_t         out;
    ra_lint_http_t    http;
    ra_str_t          body = RA_TEST_STR("User-agent: *\n");

    (void) state;
    memset(&http, 0, sizeof(http));
    http.status = 200;
    assert_int_equal(ra_lint(body, &http, ra_test_arena_alloc(arena), &out),
                     RA_OK);
    assert_int_equal(out.summary.groups, 1);
    assert_int_equal(out.summary.rules, 0);
    ra_test_exact_free(body);
    ra_test_arena_free(arena);
}

static void
buf_escapers_null_span(void **state)
{
    ra_buf_t  b;
    ra_str_t  null_span = ra_null_string;

    (void) state;
    ra_buf_init(&b, &ra_malloc_allocator, 0, 0);
    ra_buf_json_str(&b, null_span);
    ra_buf_html(&b, null_span);
    ra_buf_prom_label(&b, null_span);
    ra_buf_log(&b, null_span);
    assert_false(b.failed);
    assert_int_equal(b.len, 2);
    assert_memory_equal(b.data, "\"\"", 2);
    ra_buf_release(&b);
}

/* Every finding inside the lines read; the size finding where the limit
 * falls: *line and *col. */
static void
lint_size_place(const unsigned char *body, size_t len, uint32_t *line,
    uint32_t *col)
{
    uint32_t    i, found = 0;
    ra_lint_t   out;
    ra_lint_http_t  http;

    memset(&http, 0, sizeof(http));
    assert_int_equal(ra_lint(ra_str(body, len), &http, &ra_malloc_allocator,
                             &out), RA_OK);
    for (i = 0; i < out.nfindings; i++) {
        assert_true(out.findings[i].line <= out.summary.lines);
        if (out.findings[i].code == RA_LC_SIZE_LIMIT) {
            *line = out.findings[i].line;
            *col = out.findings[i].column;
            found++;
        }
    }
    assert_int_equal(found, 1);
    ra_lint_free(&out, &ra_malloc_allocator);
}

static void
lint_size_limit_at_line_end(void **state)
{
    uint32_t        line, col;
    ra_str_t        raw;
    unsigned char  *b;
    size_t          n = RA_ROBOTS_MAX + 64;

    (void) state;
    /* the fuzzer's input (fuzz/corpus/fuzz_lint/regress-line-past-end):
     * 7 bytes of HTTP facts (all 0: status unknown, linted), the body */
    assert_int_equal(ra_test_read_file(
        "fuzz/corpus/fuzz_lint/regress-line-past-end", &raw), 0);
    assert_true(raw.len > 7 + RA_ROBOTS_MAX);
    lint_size_place(raw.data + 7, raw.len - 7, &line, &col);
    free((void *) raw.data);

    /* "x...x\r" | "\nDisallow: /" : the limit splits a CRLF; it falls at
     * column 1 of the empty line after the CR (line 2) */
    b = malloc(n);
    assert_non_null(b);
    memset(b, 'x', n);
    b[RA_ROBOTS_MAX - 1] = '\r';
    b[RA_ROBOTS_MAX] = '\n';
    memcpy(b + RA_ROBOTS_MAX + 1, "Disallow: /\n", 12);
    lint_size_place(b, n, &line, &col);
    assert_int_equal(line, 2);
    assert_int_equal(col, 1);

    /* "x...x\n" | "\n...": an empty line 2 ends at the limit */
    b[RA_ROBOTS_MAX - 1] = '\n';
    lint_size_place(b, n, &line, &col);
    assert_int_equal(line, 2);
    assert_int_equal(col, 1);

    /* "x\n...x" | "\n": the limit falls at the end of line 2 */
    memset(b, 'x', n);
    b[1] = '\n';
    b[RA_ROBOTS_MAX] = '\n';
    lint_size_place(b, n, &line, &col);
    assert_int_equal(line, 2);
    assert_int_equal(col, RA_ROBOTS_MAX - 2 + 1);
    free(b);
}

static void
robots(ra_audit_t *au, const char *body, int64_t t)
{
    ra_answer_t  a;

    memset(&a, 0, sizeof(a));
    a.status = 200;
    a.body = ra_str(body, strlen(body));
    assert_int_equal(ra_audit_robots(au, ra_str("example.com", 11), &a, t),
                     RA_OK);
}

static void
audit_cache_budget(void **state)
{
    size_t              size = 256 * 1024;
    unsigned char      *region = malloc(size);
    ra_ledger_t         ledger;
    ra_crawlers_t      *crawlers;
    ra_crawlers_err_t   cerr;
    ra_test_arena_t    *arena = ra_test_arena_new();
    ra_audit_conf_t     conf;
    ra_audit_t         *au;
    ra_request_t        req;
    ra_verdict_t        v;

    (void) state;
    assert_non_null(region);
    assert_int_equal(ra_ledger_format(region, size, T0), RA_OK);
    ra_ledger_open(&ledger, region, NULL);
    crawlers = ra_crawlers_create(ra_test_arena_alloc(arena));
    assert_int_equal(ra_crawlers_add(crawlers, ra_str("crawler TestBot\n"
                                     "ua TestBot\ncategory search\n", 43),
                                     &cerr), RA_OK);
    assert_int_equal(ra_crawlers_compile(crawlers, &cerr), RA_OK);
    memset(&conf, 0, sizeof(conf));
    conf.alloc = &ra_malloc_allocator;
    conf.crawlers = crawlers;
    conf.alert_interval = -1;
    conf.cache_bytes = 1;           /* no rule set fits */
    au = ra_audit_create(&conf, &ledger);
    assert_non_null(au);

    /* three versions within 24 hours, each disallowing /private: the
     * verdict compiles the current one, then both older ones */
    robots(au, "User-agent: *\nDisallow: /private/a\nDisallow: /private\n",
           T0);
    robots(au, "User-agent: *\n\nDisallow: /private\n", T0 + H);
    robots(au, "User-agent: *\n\n\nDisallow: /priv\n", T0 + 2 * H);

    memset(&req, 0, sizeof(req));
    req.site = ra_str("example.com", 11);
    req.time = T0 + 3 * H;
    req.addr = ra_str("192.0.2.1", 9);
    req.user_agent = ra_str("TestBot/1.0", 11);
    req.method = ra_str("GET", 3);
    req.uri = ra_str("/private/x", 10);
    assert_int_equal(ra_audit_request(au, &req, &v), RA_OK);
    assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
    /* the current version decided, and its pattern is still readable */
    assert_int_equal(v.line, 4);
    assert_int_equal(ra_verdict_pattern(&v).len, 5);
    assert_memory_equal(ra_verdict_pattern(&v).data, "/priv", 5);
    assert_int_equal(ra_verdict_token(&v).len, 1);
    assert_memory_equal(ra_verdict_token(&v).data, "*", 1);
    /* and again, the sets found in the cache this time */
    req.time += 1;
    assert_int_equal(ra_audit_request(au, &req, &v), RA_OK);
    assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
    assert_int_equal(v.line, 4);
    assert_memory_equal(ra_verdict_pattern(&v).data, "/priv", 5);

    ra_audit_destroy(au);
    ra_test_arena_free(arena);
    free(region);
}

int
main(void)
{
    const struct CMUnitTest  tests[] = {
        cmocka_unit_test(lint_group_without_rules),
        cmocka_unit_test(buf_escapers_null_span),
        cmocka_unit_test(audit_cache_budget),
        cmocka_unit_test(lint_size_limit_at_line_end),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
