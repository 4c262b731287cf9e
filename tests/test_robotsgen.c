/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The purpose robots.txt (ra_robotsgen.h): the block lists every token of
 * the table for a disallowed purpose, checked against the table itself;
 * exceptions are commented; the block lints clean; merging replaces only
 * the block and is idempotent; the report's verdicts follow the judge.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ra_test.h"
#include "ra_alert.h"
#include "ra_buf.h"
#include "ra_crawlers.h"
#include "ra_robotsgen.h"

static ra_test_arena_t  *arena;
static ra_crawlers_t    *tab;

static int
setup(void **state)
{
    (void) state;
    arena = ra_test_arena_new();
    tab = ra_test_builtin_table(ra_test_arena_alloc(arena));
    return tab != NULL ? 0 : -1;
}

static int
teardown(void **state)
{
    (void) state;
    ra_test_arena_free(arena);
    return 0;
}

static unsigned
purposes(const char *list)
{
    unsigned  set = 0;
    ra_str_t  bad;

    assert_null(ra_alert_purposes_parse(ra_str_z(list), &set, &bad));
    return set;
}

/* The block as a NUL-terminated string (free()). */
static char *
block_of(unsigned dis, unsigned allow, const char *signal)
{
    ra_robotsgen_opts_t  o;
    ra_buf_t             b;
    char                *s;

    memset(&o, 0, sizeof(o));
    o.disallow = dis;
    o.allow = allow;
    o.content_signal = ra_str_z(signal);
    ra_buf_init(&b, &ra_malloc_allocator, 4096, 0);
    assert_null(ra_robotsgen_block(tab, &o, &b));
    ra_buf_ch(&b, '\0');
    assert_false(b.failed);
    s = strdup((char *) b.data);
    ra_buf_release(&b);
    return s;
}

static int
has_agent_line(const char *block, ra_str_t tok)
{
    char  line[128];

    snprintf(line, sizeof(line), "\nUser-agent: %.*s\n", (int) tok.len,
             (const char *) tok.data);
    return strstr(block, line) != NULL;
}

static void
every_table_token_of_the_purpose_is_listed(void **state)
{
    ra_robotsgen_opts_t  o;
    const ra_crawler_t  *c;
    size_t               i, k, listed = 0;
    unsigned             fate;
    char                *b, word[128];
    const char          *head = RA_ROBOTSGEN_BEGIN " (generated: robots-audit"
                                " robots-txt --disallow-purpose ai-training)\n";

    (void) state;
    memset(&o, 0, sizeof(o));
    o.disallow = purposes("ai-training");
    b = block_of(o.disallow, 0, NULL);
    for (i = 0; i < ra_crawlers_count(tab); i++) {
        c = ra_crawlers_get(tab, i);
        for (k = 0; k < c->ntokens; k++) {
            fate = ra_robotsgen_fate(tab, &o, c, k, NULL);
            if (c->category != RA_CAT_AI_TRAINING) {
                /* no other purpose's token gets a line of its own */
                if (fate == RA_RG_LISTED) {
                    fail_msg("%.*s listed", (int) c->name.len,
                             (const char *) c->name.data);
                }
                continue;
            }
            if (fate == RA_RG_LISTED) {
                assert_true(has_agent_line(b, c->tokens[k]));
                listed++;
            } else {
                /* left out, and the block says so */
                snprintf(word, sizeof(word), "%.*s", (int) c->tokens[k].len,
                         (const char *) c->tokens[k].data);
                assert_non_null(strstr(b, word));
                assert_false(has_agent_line(b, c->tokens[k]));
            }
        }
    }
    assert_true(listed > 40);
    assert_true(has_agent_line(b, ra_str_z("Google-Extended")));
    assert_true(has_agent_line(b, ra_str_z("Applebot-Extended")));
    assert_true(has_agent_line(b, ra_str_z("GPTBot")));
    assert_non_null(strstr(b, "\n# ai-training: disallowed\n"));
    assert_non_null(strstr(b, "\nDisallow: /\n"));
    assert_int_equal(strncmp(b, head, strlen(head)), 0);
    assert_non_null(strstr(b, "\n" RA_ROBOTSGEN_END "\n"));
    free(b);
}

static void
user_triggered_agents_are_a_comment(void **state)
{
    char  *b;

    (void) state;
    b = block_of(purposes("ai-user"), 0, NULL);
    assert_false(has_agent_line(b, ra_str_z("ChatGPT-User")));
    assert_non_null(strstr(b, "robots.txt does not apply"));
    assert_non_null(strstr(b, "ChatGPT-User"));
    /* named once, though two entries carry it */
    assert_null(strstr(strstr(b, "ChatGPT-User") + 1, "ChatGPT-User,"));
    assert_true(has_agent_line(b, ra_str_z("Claude-User")));
    free(b);
}

static void
allowed_purpose_wins_a_shared_token(void **state)
{
    ra_robotsgen_opts_t   o;
    const ra_crawler_t   *c, *who;
    char                 *b;

    (void) state;
    c = ra_crawlers_find(tab, ra_str_z("SemrushBot-OCOB"));
    assert_non_null(c);
    assert_int_equal(c->ntokens, 2);
    memset(&o, 0, sizeof(o));

    /* SemrushBot is the SEO crawler's own token: never shut out by the
     * ai-user group, and an allowed seo says so */
    o.disallow = purposes("ai-user");
    assert_int_equal(ra_robotsgen_fate(tab, &o, c, 1, &who), RA_RG_SHARED);
    assert_non_null(who);
    assert_int_equal(who->category, RA_CAT_SEO);
    o.allow = purposes("seo");
    assert_int_equal(ra_robotsgen_fate(tab, &o, c, 1, &who), RA_RG_ALLOWED);
    assert_int_equal(ra_robotsgen_fate(tab, &o, c, 0, NULL), RA_RG_LISTED);

    /* a purpose both lists name: allowed, no group */
    b = block_of(purposes("ai-training ai-search"),
                 purposes("ai-search"), NULL);
    assert_non_null(strstr(b, "# ai-search: both disallowed and allowed;"
                              " allowed wins, no group\n"));
    assert_false(has_agent_line(b, ra_str_z("OAI-SearchBot")));
    assert_true(has_agent_line(b, ra_str_z("GPTBot")));
    free(b);
}

static void
block_and_merge_lint_clean(void **state)
{
    static const char  *files[] = {
        "",
        "User-agent: *\nDisallow: /private\n",
        "User-agent: Googlebot\nAllow: /\n\nUser-agent: *\nDisallow: /x\n"
        "\nSitemap: https://example.com/sitemap.xml",
    };
    ra_buf_t   out;
    ra_lint_t  l;
    size_t     i, start, end;
    char      *b;

    (void) state;
    b = block_of(purposes("ai-training,ai-user,ai-search"),
                 purposes("search"), "search=yes, ai-train=no");
    for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        ra_buf_init(&out, &ra_malloc_allocator, 4096, 0);
        assert_null(ra_robotsgen_merge(ra_str_z(files[i]), ra_str_z(b),
                                       &out, &start, &end));
        assert_int_equal(ra_robotsgen_lint(ra_str(out.data, out.len), start,
                                           end, tab, &ra_malloc_allocator,
                                           &l), 0);
        assert_int_equal(l.summary.errors, 0);
        assert_int_equal(l.summary.warnings, 0);
        ra_lint_free(&l, &ra_malloc_allocator);
        ra_buf_release(&out);
    }
    free(b);

    /* a signal lint faults is counted against the block */
    b = block_of(purposes("ai-training"), 0, "ai-train=maybe");
    ra_buf_init(&out, &ra_malloc_allocator, 4096, 0);
    assert_null(ra_robotsgen_merge(ra_str_z(""), ra_str_z(b), &out, &start,
                                   &end));
    assert_true(ra_robotsgen_lint(ra_str(out.data, out.len), start, end, tab,
                                  &ra_malloc_allocator, &l) > 0);
    ra_lint_free(&l, &ra_malloc_allocator);
    ra_buf_release(&out);
    free(b);
}

static void
merge_replaces_only_the_block(void **state)
{
    static const char  before[] = "# site rules\r\nUser-agent: *\r\n"
                                  "Disallow: /tmp\r\n\r\n";
    static const char  after[] = "\nSitemap: https://e.example/s.xml";
    ra_buf_t   one, two, old;
    size_t     s1, e1, s2, e2;
    char      *b, *b2;

    (void) state;
    b = block_of(purposes("ai-training"), 0, NULL);
    b2 = block_of(purposes("ai-training,ai-search"), 0, NULL);

    /* an old block between the operator's lines */
    ra_buf_init(&old, &ra_malloc_allocator, 4096, 0);
    ra_buf_cstr(&old, before);
    ra_buf_cstr(&old, b2);
    ra_buf_cstr(&old, after);

    ra_buf_init(&one, &ra_malloc_allocator, 4096, 0);
    assert_null(ra_robotsgen_merge(ra_str(old.data, old.len), ra_str_z(b),
                                   &one, &s1, &e1));
    assert_int_equal(s1, strlen(before));
    assert_memory_equal(one.data, before, strlen(before));
    assert_int_equal(e1 - s1, strlen(b));
    assert_memory_equal(one.data + s1, b, strlen(b));
    assert_int_equal(one.len - e1, strlen(after));
    assert_memory_equal(one.data + e1, after, strlen(after));

    /* twice is once */
    ra_buf_init(&two, &ra_malloc_allocator, 4096, 0);
    assert_null(ra_robotsgen_merge(ra_str(one.data, one.len), ra_str_z(b),
                                   &two, &s2, &e2));
    assert_int_equal(two.len, one.len);
    assert_memory_equal(two.data, one.data, one.len);
    ra_buf_release(&two);

    /* appended to a file without one, after a blank line; then stable */
    ra_buf_init(&two, &ra_malloc_allocator, 4096, 0);
    assert_null(ra_robotsgen_merge(ra_str_z("User-agent: *\nDisallow:"),
                                   ra_str_z(b), &two, &s2, &e2));
    assert_int_equal(s2, strlen("User-agent: *\nDisallow:\n\n"));
    assert_memory_equal(two.data, "User-agent: *\nDisallow:\n\n", s2);
    assert_int_equal(e2, two.len);
    ra_buf_release(&one);
    ra_buf_init(&one, &ra_malloc_allocator, 4096, 0);
    assert_null(ra_robotsgen_merge(ra_str(two.data, two.len), ra_str_z(b),
                                   &one, &s1, &e1));
    assert_int_equal(one.len, two.len);
    assert_memory_equal(one.data, two.data, two.len);

    ra_buf_release(&one);
    ra_buf_release(&two);
    ra_buf_release(&old);
    free(b);
    free(b2);
}

static void
merge_refuses_a_broken_block(void **state)
{
    ra_buf_t  out;
    size_t    s, e;

    (void) state;
    ra_buf_init(&out, &ra_malloc_allocator, 256, 0);
    assert_non_null(ra_robotsgen_merge(
        ra_str_z("a\n" RA_ROBOTSGEN_BEGIN " (x)\nUser-agent: x\n"),
        ra_str_z("b\n"), &out, &s, &e));
    assert_non_null(ra_robotsgen_merge(
        ra_str_z(RA_ROBOTSGEN_BEGIN "\n" RA_ROBOTSGEN_END "\n"
                 RA_ROBOTSGEN_BEGIN "\n" RA_ROBOTSGEN_END "\n"),
        ra_str_z("b\n"), &out, &s, &e));
    ra_buf_release(&out);
}

static void
options_that_cannot_be_written(void **state)
{
    ra_robotsgen_opts_t  o;
    ra_buf_t             b;

    (void) state;
    memset(&o, 0, sizeof(o));
    ra_buf_init(&b, &ra_malloc_allocator, 256, 0);
    assert_non_null(ra_robotsgen_block(tab, &o, &b));
    o.disallow = purposes("ai-training");
    o.content_signal = ra_str_z("search=yes\nDisallow: /");
    assert_non_null(ra_robotsgen_block(tab, &o, &b));
    ra_buf_release(&b);
}

static void
report_follows_the_judge(void **state)
{
    static const char      body[] = "User-agent: GPTBot\nDisallow: /\n\n"
                                    "User-agent: *\nDisallow: /private\n";
    static const char      open[] = "User-agent: Bingbot\nDisallow:\n";
    ra_rules_t            *rs;
    ra_robotsgen_judged_t  j;
    const ra_crawler_t    *c;

    (void) state;
    assert_int_equal(ra_rules_compile(ra_str_z(body), &ra_malloc_allocator,
                                      &rs, NULL), RA_OK);
    c = ra_crawlers_find(tab, ra_str_z("GPTBot"));
    assert_int_equal(ra_robotsgen_judge(rs, ra_str_z(body), c, NULL, &j),
                     RA_OK);
    assert_int_equal(j.verdict, RA_RG_DISALLOW);
    assert_true(j.group.len == 6 && memcmp(j.group.data, "GPTBot", 6) == 0);
    assert_int_equal(j.line, 2);
    assert_string_equal(ra_robotsgen_verdict_name(j.verdict), "disallowed");

    c = ra_crawlers_find(tab, ra_str_z("Googlebot"));
    assert_int_equal(ra_robotsgen_judge(rs, ra_str_z(body), c, NULL, &j),
                     RA_OK);
    assert_int_equal(j.verdict, RA_RG_PARTLY);
    assert_true(j.group.len == 1 && j.group.data[0] == '*');
    assert_int_equal(j.line, 4);
    ra_rules_free(rs);

    /* an empty Disallow disallows nothing; no group at all allows */
    assert_int_equal(ra_rules_compile(ra_str_z(open), &ra_malloc_allocator,
                                      &rs, NULL), RA_OK);
    c = ra_crawlers_find(tab, ra_str_z("bingbot"));
    assert_int_equal(ra_robotsgen_judge(rs, ra_str_z(open), c, NULL, &j),
                     RA_OK);
    assert_int_equal(j.verdict, RA_RG_ALLOW);
    c = ra_crawlers_find(tab, ra_str_z("GPTBot"));
    assert_int_equal(ra_robotsgen_judge(rs, ra_str_z(open), c, NULL, &j),
                     RA_OK);
    assert_int_equal(j.verdict, RA_RG_ALLOW);
    assert_int_equal(j.group.len, 0);
    ra_rules_free(rs);
}

static void
generated_block_disallows_what_it_lists(void **state)
{
    ra_robotsgen_opts_t    o;
    ra_rules_t            *rs;
    ra_robotsgen_judged_t  j;
    const ra_crawler_t    *c;
    size_t                 i;
    char                  *b;

    (void) state;
    memset(&o, 0, sizeof(o));
    o.disallow = purposes("ai-training");
    o.allow = purposes("search");
    b = block_of(o.disallow, o.allow, NULL);
    assert_int_equal(ra_rules_compile(ra_str_z(b), &ra_malloc_allocator,
                                      &rs, NULL), RA_OK);
    for (i = 0; i < ra_crawlers_count(tab); i++) {
        c = ra_crawlers_get(tab, i);
        assert_int_equal(ra_robotsgen_judge(rs, ra_str_z(b), c, NULL, &j),
                         RA_OK);
        if (c->category == RA_CAT_SEARCH) {
            assert_int_equal(j.verdict, RA_RG_ALLOW);
        }
        if (ra_robotsgen_fate(tab, &o, c, 0, NULL) == RA_RG_LISTED) {
            assert_int_equal(j.verdict, RA_RG_DISALLOW);
        }
    }
    ra_rules_free(rs);
    free(b);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_table_token_of_the_purpose_is_listed),
        cmocka_unit_test(user_triggered_agents_are_a_comment),
        cmocka_unit_test(allowed_purpose_wins_a_shared_token),
        cmocka_unit_test(block_and_merge_lint_clean),
        cmocka_unit_test(merge_replaces_only_the_block),
        cmocka_unit_test(merge_refuses_a_broken_block),
        cmocka_unit_test(options_that_cannot_be_written),
        cmocka_unit_test(report_follows_the_judge),
        cmocka_unit_test(generated_block_disallows_what_it_lists),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
