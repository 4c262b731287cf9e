/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private to the report's files (ra_report.c and ra_report_*.c): the model
 * that ra_report.c builds from a snapshot (the order of sites and crawler
 * rows, the bounds, each site's findings) and the values it derives from
 * each record, so that every format prints the same values and computes
 * none of its own.  No other file includes this header.
 */
#ifndef RA_REPORT_IMPL_H
#define RA_REPORT_IMPL_H

#include "ra_report.h"
#include "ra_refer.h"

#define RA_REP_VIOLATIONS   25
#define RA_REP_CRAWLERS     100
#define RA_REP_FINDINGS     50

typedef struct {
    const ra_stat_t  *st;
    uint32_t          site;         /* position in snap->sites */
} ra_rep_ent_t;

typedef struct {
    const ra_snapshot_t     *snap;
    const ra_report_opts_t  *opts;
    ra_buf_t                *b;
    const ra_alloc_t        *scratch;
    int64_t                  now;
    ra_rep_ent_t            *ents;
    uint32_t                 nents;
    uint32_t                *first;     /* nsites + 1 run starts */
    const ra_lint_t        **lints;     /* per site, or NULL */
    ra_lint_t               *own;       /* re-linted, per site */
    unsigned char           *owned;
    uint32_t                 max_vio;
    uint32_t                 max_crawlers;
    uint32_t                 max_findings;
    uint32_t                 sites_shown;   /* the byte budget may stop
                                               before the last */
    unsigned                 cut:1;         /* something not shown */
    ra_refer_t               refer;         /* operators' names */
    uint32_t                *order;     /* sites in the order shown */
} ra_rep_t;

/* A fixed array and its length byte, clamped: a region another process
 * wrote may hold any length. */
#define ra_rep_field(arr, n)                                                \
    ra_str((arr), (size_t) (n) < sizeof(arr) ? (size_t) (n) : sizeof(arr))

/* The rule hits of a site or a crawler record, by line, with each line's
 * value when the snapshot holds the body. */
typedef struct {
    ra_rule_hit_t  hits[RA_RULE_LINES];     /* by line */
    ra_str_t       value[RA_RULE_LINES];    /* the line's value, or empty */
    unsigned       n, k;
} ra_rep_hits_t;

/* ---- the model (ra_report.c) ------------------------------------------ */

ra_str_t ra_rep_label(const ra_stat_t *st);
ra_str_t ra_rep_site_name(const ra_site_t *s);
int ra_rep_strcmp(ra_str_t a, ra_str_t b);
int ra_rep_30d(const ra_site_t *s, int64_t now);
const ra_version_t *ra_rep_current(const ra_site_t *s);
unsigned ra_rep_errors(const ra_site_t *s, const ra_version_t *v);
unsigned ra_rep_versions_24h(const ra_site_t *s, int64_t now);
const char *ra_rep_answer_name(unsigned answer);
const char *ra_rep_last_answer(const ra_site_t *s);
const char *ra_rep_vio_verdict(const ra_violation_t *x);
const char *ra_rep_purpose(const ra_stat_t *st);
int ra_rep_sha_known(const unsigned char *sha);
uint32_t ra_rep_stats_total(const ra_rep_t *r, uint32_t si);
uint32_t ra_rep_sites_total(const ra_snapshot_t *snap);
int ra_rep_over_budget(ra_rep_t *r);
uint32_t ra_rep_nth(const ra_rep_t *r, uint32_t k);
unsigned ra_rep_permille(uint64_t part, uint64_t whole);
uint64_t ra_rep_judged(const uint64_t *c);
unsigned ra_rep_nreferrals(const ra_rep_t *r, const ra_site_t *s);
void ra_rep_hits(const ra_rep_t *r, uint32_t si, ra_rep_hits_t *h);
void ra_rep_crawler_hits(const ra_rep_t *r, uint32_t si, const ra_stat_t *st,
    ra_rep_hits_t *h);
const ra_episode_t *ra_rep_episode(const ra_site_t *s, unsigned k);
int64_t ra_rep_episode_ms(const ra_episode_t *e, int64_t now);

/* Printing shared by the formats for people (text and HTML). */
void ra_rep_iso(ra_buf_t *b, int64_t ms);
void ra_rep_ms(ra_buf_t *b, int64_t ms);
void ra_rep_gap(ra_buf_t *b, int64_t ms);
void ra_rep_size(ra_buf_t *b, const ra_version_t *v, int html);
void ra_rep_prefs(ra_rep_t *r, uint32_t si, int html);

/* ---- the formats, one file each --------------------------------------- */

void ra_rep_json(ra_rep_t *r);
void ra_rep_html(ra_rep_t *r);
void ra_rep_prom(ra_rep_t *r);
void ra_rep_text(ra_rep_t *r);
void ra_rep_csv(ra_rep_t *r);
void ra_rep_status_html(ra_rep_t *r);

#endif /* RA_REPORT_IMPL_H */
