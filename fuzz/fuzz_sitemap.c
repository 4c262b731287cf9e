/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Sitemaps: each input is a sitemap as fetched (gzip when it starts with
 * gzip's magic), linted against a fixed robots.txt, and its XML read by
 * the reader alone.  Invariants: every finding has a known code and a
 * line of the document; an entry's loc is at most RA_SM_LOC_MAX bytes;
 * the entries counted are those reported; a complete read found a root;
 * a disallowed URL's deciding rule is a disallow line of the robots.txt.
 */
#include "fuzz.h"
#include "ra_sitemap.h"

typedef struct {
    uint32_t  entries;
    uint32_t  findings;
    uint32_t  max_line;
} fz_seen_t;

static void
on_entry(void *ctx, const ra_sm_entry_t *e)
{
    fz_seen_t  *s = ctx;

    FZ_CHECK(e->loc.len <= RA_SM_LOC_MAX);
    FZ_CHECK(e->line >= 1);
    s->entries++;
}

static void
on_finding(void *ctx, const ra_sm_finding_t *f)
{
    fz_seen_t  *s = ctx;

    FZ_CHECK((unsigned) f->code < RA_SMF_NCODES);
    if (f->line > s->max_line) {
        s->max_line = f->line;
    }
    if (f->code == RA_SMF_DISALLOWED) {
        FZ_CHECK(!f->match.allowed);
        FZ_CHECK(f->match.line == 2 || f->match.line == 5);
        FZ_CHECK(f->crawler.len != 0);
    }
    s->findings++;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char  robots[] = "User-agent: *\nDisallow: /p\n\n"
                                  "User-agent: Googlebot\nDisallow: /*.gz$\n";
    ra_rules_t        *rules;
    ra_sm_summary_t    sum, sum2;
    fz_seen_t          seen, seen2;
    uint32_t           i, total = 0;

    FZ_CHECK(ra_rules_compile(ra_str(robots, sizeof(robots) - 1),
                              &ra_malloc_allocator, &rules, NULL) == RA_OK);
    memset(&seen, 0, sizeof(seen));
    FZ_CHECK(ra_sitemap_lint(ra_str(data, size),
                             ra_str("https://example.com/sitemap.xml", 31),
                             rules, &ra_malloc_allocator, on_finding, &seen,
                             &sum) == RA_OK);
    for (i = 0; i < RA_SMF_NCODES; i++) {
        total += sum.counts[i];
    }
    FZ_CHECK(total == seen.findings);
    FZ_CHECK(seen.max_line <= sum.lines);
    FZ_CHECK(sum.bytes <= RA_SM_MAX_BYTES);
    ra_rules_free(rules);

    memset(&seen2, 0, sizeof(seen2));
    memset(&sum2, 0, sizeof(sum2));
    ra_sitemap_parse(ra_str(data, size), on_entry, on_finding, &seen2, &sum2);
    FZ_CHECK(seen2.entries == sum2.entries);
    FZ_CHECK(!sum2.complete || sum2.kind != RA_SM_UNKNOWN);
    FZ_CHECK(seen2.findings == sum2.counts[RA_SMF_MALFORMED]);
    if (!sum.gzip && sum.counts[RA_SMF_TOO_BIG] == 0) {
        FZ_CHECK(sum2.entries == sum.entries && sum2.kind == sum.kind);
    }
    return 0;
}
