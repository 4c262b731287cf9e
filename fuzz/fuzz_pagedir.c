/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Page directives: one input is "X-ROBOTS-TAG\nHTML".  The value is read
 * as a header, the rest scanned as an HTML head, and the conflicts of
 * the answer judged against a fixed robots.txt.  Invariants: scopes stay
 * within RA_PD_SCOPES and point into the input; "none" always brings
 * noindex and nofollow; max-snippet is -1 or more; what applies to a
 * crawler holds what applies to all; every conflict is of a known kind
 * with directives to show; the dates' checks end.
 */
#include "fuzz.h"
#include "ra_datefmt.h"
#include "ra_pagedir.h"

typedef struct {
    unsigned  n;
} fz_seen_t;

static void
on_conflict(void *ctx, const ra_conflict_t *c)
{
    fz_seen_t  *s = ctx;

    FZ_CHECK((unsigned) c->kind < RA_CONFLICT_KINDS);
    FZ_CHECK(c->kind != RA_CONFLICT_NOINDEX_CRAWLED);
    FZ_CHECK(c->flags != 0 && c->crawler.len != 0);
    if (c->kind == RA_CONFLICT_NOINDEX_DISALLOWED) {
        FZ_CHECK(!c->match.allowed && c->match.line >= 1);
    }
    s->n++;
}

static void
check_set(const ra_pd_set_t *set)
{
    if (set->flags & RA_PD_NONE) {
        FZ_CHECK((set->flags & (RA_PD_NOINDEX | RA_PD_NOFOLLOW))
                 == (RA_PD_NOINDEX | RA_PD_NOFOLLOW));
    }
    if (set->flags & RA_PD_MAX_SNIPPET) {
        FZ_CHECK(set->max_snippet >= -1);
    }
    FZ_CHECK(set->unknown == 0 || set->first_unknown.len != 0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char      robots[] = "User-agent: *\nDisallow: /p\n\n"
                                      "User-agent: bingbot\nAllow: /\n";
    const unsigned char   *nl = size ? memchr(data, '\n', size) : NULL;
    ra_str_t               hdr, html, all = ra_str(data, size);
    ra_pagedir_t           pd;
    ra_pd_set_t            any, one;
    ra_rules_t            *rules;
    fz_seen_t              seen = { 0 };
    uint32_t               i;

    hdr = ra_str(data, nl != NULL ? (size_t) (nl - data) : size);
    html = nl != NULL ? ra_str(nl + 1, size - hdr.len - 1) : ra_str("", 0);

    ra_pagedir_init(&pd);
    ra_pagedir_header(&pd, hdr);
    ra_pagedir_html(&pd, html);
    FZ_CHECK(pd.nscopes <= RA_PD_SCOPES);
    FZ_CHECK(pd.scan_cut == (html.len > RA_PD_SCAN) || !pd.scan_cut);
    for (i = 0; i < pd.nscopes; i++) {
        const ra_pd_scope_t  *s = &pd.scopes[i];

        FZ_CHECK(fz_within(s->agent, data, size));
        FZ_CHECK(fz_within(s->set.unavailable_after, data, size));
        FZ_CHECK(fz_within(s->set.first_unknown, data, size));
        FZ_CHECK(s->set.flags != 0 || s->set.unknown != 0);
        check_set(&s->set);
        if (s->source == RA_PD_META) {
            FZ_CHECK(s->agent.len == 0 || fz_within(s->agent, html.data,
                                                    html.len));
        }
    }

    (void) ra_pagedir_for(&pd, 3, ra_str("", 0), &any);
    (void) ra_pagedir_for(&pd, 3, ra_str("Googlebot", 9), &one);
    check_set(&any);
    check_set(&one);
    FZ_CHECK((one.flags & any.flags) == any.flags);

    FZ_CHECK(ra_rules_compile(ra_str(robots, sizeof(robots) - 1),
                              &ra_malloc_allocator, &rules, NULL) == RA_OK);
    ra_pagedir_conflicts(&pd, rules, ra_str("/p/x", 4), on_conflict, &seen);
    ra_pagedir_conflicts(&pd, NULL, hdr, on_conflict, &seen);
    ra_rules_free(rules);

    (void) ra_date_w3c(all);
    (void) ra_date_mail(all);
    return 0;
}
