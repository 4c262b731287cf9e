/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Page-level directives: X-Robots-Tag values with and without a crawler
 * prefix, the meta scan of an HTML head (attribute order, quotes, case,
 * comments and scripts, the 16 KiB window), the dates unavailable_after
 * and lastmod carry, and the conflicts of one answer with robots.txt.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ra_test.h"
#include "ra_datefmt.h"
#include "ra_pagedir.h"

#define S(lit)  ra_str(lit, sizeof(lit) - 1)

static uint32_t
flags_for(const ra_pagedir_t *pd, unsigned mask, const char *crawler)
{
    ra_pd_set_t  set;

    (void) ra_pagedir_for(pd, mask, ra_str_z(crawler), &set);
    return set.flags;
}

static void
test_header_plain(void **state)
{
    ra_pagedir_t  pd;
    ra_str_t      v = RA_TEST_STR("noindex, nofollow");

    (void) state;
    ra_pagedir_init(&pd);
    ra_pagedir_header(&pd, v);
    assert_int_equal(pd.nscopes, 1);
    assert_int_equal(pd.scopes[0].agent.len, 0);
    assert_int_equal(pd.scopes[0].set.flags, RA_PD_NOINDEX | RA_PD_NOFOLLOW);
    assert_int_equal(flags_for(&pd, 3, "Googlebot"),
                     RA_PD_NOINDEX | RA_PD_NOFOLLOW);
    ra_test_exact_free(v);
}

static void
test_header_agents(void **state)
{
    ra_pagedir_t  pd;
    ra_str_t      v = RA_TEST_STR("googlebot: noindex, nofollow, "
                                  "otherbot: noarchive");
    ra_str_t      w = RA_TEST_STR("NONE");

    (void) state;
    ra_pagedir_init(&pd);
    ra_pagedir_header(&pd, v);
    assert_int_equal(pd.nscopes, 2);
    assert_int_equal(flags_for(&pd, 3, "Googlebot"),
                     RA_PD_NOINDEX | RA_PD_NOFOLLOW);
    assert_int_equal(flags_for(&pd, 3, "otherbot"), RA_PD_NOARCHIVE);
    assert_int_equal(flags_for(&pd, 3, "bingbot"), 0);
    ra_pagedir_header(&pd, w);
    assert_int_equal(flags_for(&pd, 3, "bingbot"),
                     RA_PD_NONE | RA_PD_NOINDEX | RA_PD_NOFOLLOW);
    assert_int_equal(pd.headers, 2);
    ra_test_exact_free(v);
    ra_test_exact_free(w);
}

static void
test_header_values(void **state)
{
    ra_pagedir_t  pd;
    ra_pd_set_t   set;
    ra_str_t      v = RA_TEST_STR("unavailable_after: Fri, 25 Jun 2010 "
                                  "15:00:00 PST, max-snippet: 20, "
                                  "max-snippet:50, noai, bogus");
    ra_str_t      g = RA_TEST_STR("googlebot: unavailable_after: "
                                  "2030-01-01, noimageai");

    (void) state;
    ra_pagedir_init(&pd);
    ra_pagedir_header(&pd, v);
    ra_pagedir_header(&pd, g);
    (void) ra_pagedir_for(&pd, 3, S(""), &set);
    assert_true(set.flags & RA_PD_UNAVAILABLE_AFTER);
    assert_true(set.flags & RA_PD_NOAI);
    assert_int_equal(set.max_snippet, 20);
    assert_int_equal(set.unavailable_after.len,
                     strlen("Fri, 25 Jun 2010 15:00:00 PST"));
    assert_true(set.date_ok);
    assert_int_equal(set.unknown, 1);
    assert_memory_equal(set.first_unknown.data, "bogus", 5);
    (void) ra_pagedir_for(&pd, 3, S("googlebot"), &set);
    assert_true(set.flags & RA_PD_NOIMAGEAI);
    assert_int_equal(set.unavailable_after.len, 29);    /* the first */
    ra_test_exact_free(v);
    ra_test_exact_free(g);
}

static void
test_scopes_bounded(void **state)
{
    ra_pagedir_t  pd;
    char          buf[12][32];
    int           i;

    (void) state;
    ra_pagedir_init(&pd);
    for (i = 0; i < 12; i++) {      /* scopes point into the text */
        snprintf(buf[i], sizeof(buf[i]), "bot%d: noindex", i);
        ra_pagedir_header(&pd, ra_str(buf[i], strlen(buf[i])));
    }
    assert_int_equal(pd.nscopes, RA_PD_SCOPES);
    assert_int_equal(pd.dropped, 12 - RA_PD_SCOPES);
}

static void
test_meta(void **state)
{
    ra_pagedir_t  pd;
    ra_str_t      h = RA_TEST_STR(
        "<!doctype html><html><HEAD>\n"
        "<!-- <meta name=\"robots\" content=\"nofollow\"> -->\n"
        "<script>var s = '<meta name=robots content=noarchive>';</script>\n"
        "<meta name=\"viewport\" content=\"width=device-width\">\n"
        "<meta name=\"description\" content=\"noindex\">\n"
        "<meta content='NOINDEX, max-snippet:10' NAME='Robots'>\n"
        "<meta name=googlebot content=nosnippet/>\n"
        "</head><body><meta name=robots content=noai></body></html>");

    (void) state;
    ra_pagedir_init(&pd);
    ra_pagedir_html(&pd, h);
    /* "description" reads as a crawler's tag only because its content is
     * a directive: it applies to no real crawler */
    assert_int_equal(flags_for(&pd, 1u << RA_PD_META, "bingbot"),
                     RA_PD_NOINDEX | RA_PD_MAX_SNIPPET);
    assert_int_equal(flags_for(&pd, 1u << RA_PD_META, "Googlebot"),
                     RA_PD_NOINDEX | RA_PD_MAX_SNIPPET | RA_PD_NOSNIPPET);
    assert_int_equal(flags_for(&pd, 1u << RA_PD_HEADER, "Googlebot"), 0);
    assert_int_equal(pd.metas, 3);
    assert_false(pd.scan_cut);
    ra_test_exact_free(h);
}

static void
test_meta_window(void **state)
{
    ra_pagedir_t  pd;
    size_t        n = RA_PD_SCAN + 100;
    char         *h = malloc(n);
    static const char  meta[] = "<meta name=robots content=noindex>";

    (void) state;
    assert_non_null(h);
    memset(h, ' ', n);
    memcpy(h + RA_PD_SCAN - 10, meta, sizeof(meta) - 1);    /* cut */
    ra_pagedir_init(&pd);
    ra_pagedir_html(&pd, ra_str(h, n));
    assert_int_equal(pd.nscopes, 0);
    assert_true(pd.scan_cut);
    memcpy(h, meta, sizeof(meta) - 1);
    ra_pagedir_init(&pd);
    ra_pagedir_html(&pd, ra_str(h, n));
    assert_int_equal(flags_for(&pd, 3, ""), RA_PD_NOINDEX);
    /* unterminated everything: no read past the window */
    memset(h, '<', n);
    ra_pagedir_init(&pd);
    ra_pagedir_html(&pd, ra_str(h, n));
    memcpy(h, "<meta name='robots' content=\"", 29);
    ra_pagedir_html(&pd, ra_str(h, 29));
    free(h);
}

static void
test_dates(void **state)
{
    (void) state;
    assert_true(ra_date_w3c(S("2024")));
    assert_true(ra_date_w3c(S("2024-02")));
    assert_true(ra_date_w3c(S("2024-02-29")));
    assert_true(ra_date_w3c(S("2024-02-29T10:30+01:00")));
    assert_true(ra_date_w3c(S("2024-02-29T10:30:15.25Z")));
    assert_false(ra_date_w3c(S("2024-13-01")));
    assert_false(ra_date_w3c(S("2024-02-29T10:30")));
    assert_false(ra_date_w3c(S("29/02/2024")));
    assert_false(ra_date_w3c(S("2024-02-29 10:30:00")));
    assert_false(ra_date_w3c(S("")));
    assert_true(ra_date_mail(S("25 Jun 2010 15:00:00 PST")));
    assert_true(ra_date_mail(S("Fri, 25 Jun 2010 15:00:00 GMT")));
    assert_true(ra_date_mail(S("Friday, 25-Jun-10 15:00:00 GMT")));
    assert_true(ra_date_mail(S("5 Jun 2010 15:00 +0200")));
    assert_false(ra_date_mail(S("Fri 25 Jun 2010")));
    assert_false(ra_date_mail(S("tomorrow")));
    assert_true(ra_pagedir_date_ok(S("2030-01-01")));
}

typedef struct {
    int       n[RA_CONFLICT_KINDS];
    char      who[RA_CONFLICT_KINDS][64];
    uint32_t  flags[RA_CONFLICT_KINDS];
    uint32_t  line;
} seen_t;

static void
on_conflict(void *ctx, const ra_conflict_t *c)
{
    seen_t  *s = ctx;

    s->n[c->kind]++;
    s->flags[c->kind] |= c->flags;
    if (c->kind == RA_CONFLICT_NOINDEX_DISALLOWED) {
        s->line = c->match.line;
    }
    (void) ra_str_cut(s->who[c->kind], 63, c->crawler);
}

static void
test_conflicts(void **state)
{
    ra_pagedir_t   pd;
    ra_rules_t    *rules;
    seen_t         s;
    ra_str_t       robots = RA_TEST_STR("User-agent: *\nDisallow: /private/\n"
                                        "\nUser-agent: Bingbot\nAllow: /\n");
    ra_str_t       h = RA_TEST_STR("<meta name=robots content=\"index\">"
                                   "<meta name=googlebot content=noarchive>");

    (void) state;
    assert_int_equal(ra_rules_compile(robots, &ra_malloc_allocator, &rules,
                                      NULL), RA_OK);
    ra_pagedir_init(&pd);
    ra_pagedir_header(&pd, S("noindex, noai"));
    ra_pagedir_html(&pd, h);

    memset(&s, 0, sizeof(s));
    ra_pagedir_conflicts(&pd, rules, S("/private/x.html"), on_conflict, &s);
    /* (a) for "*" and Googlebot (Bingbot may crawl /private/) */
    assert_int_equal(s.n[RA_CONFLICT_NOINDEX_DISALLOWED], 2);
    assert_int_equal(s.line, 2);
    /* (c) header noindex+noai against meta "index": all three crawlers */
    assert_int_equal(s.n[RA_CONFLICT_HEADER_META], 3);
    assert_true(s.flags[RA_CONFLICT_HEADER_META] & RA_PD_NOINDEX);
    /* (d) noai for Googlebot and Bingbot, noarchive for Googlebot */
    assert_int_equal(s.n[RA_CONFLICT_IGNORED], 2);
    assert_int_equal(s.flags[RA_CONFLICT_IGNORED],
                     RA_PD_NOAI | RA_PD_NOARCHIVE);
    assert_int_equal(s.n[RA_CONFLICT_NOINDEX_CRAWLED], 0);

    memset(&s, 0, sizeof(s));
    ra_pagedir_conflicts(&pd, rules, S("/public.html"), on_conflict, &s);
    assert_int_equal(s.n[RA_CONFLICT_NOINDEX_DISALLOWED], 0);
    assert_string_equal(ra_conflict_kind_name(RA_CONFLICT_IGNORED),
                        "ignored");
    assert_int_equal(ra_pagedir_ignored(S("Bingbot"), RA_PD_NOARCHIVE), 0);
    ra_rules_free(rules);
    ra_test_exact_free(robots);
    ra_test_exact_free(h);
}

int
main(void)
{
    const struct CMUnitTest  tests[] = {
        cmocka_unit_test(test_header_plain),
        cmocka_unit_test(test_header_agents),
        cmocka_unit_test(test_header_values),
        cmocka_unit_test(test_scopes_bounded),
        cmocka_unit_test(test_meta),
        cmocka_unit_test(test_meta_window),
        cmocka_unit_test(test_dates),
        cmocka_unit_test(test_conflicts),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
