/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private to the report's files (the ra_report_*.c files): the state
 * that ra_report_render.c builds from a snapshot (the order of sites and
 * crawler rows, the bounds, each site's findings) and the values that
 * ra_report_model.c derives from each record, so that every format prints
 * the same values and computes none of its own.  No other file includes
 * this header.
 */
#ifndef RA_REPORT_IMPL_H
#define RA_REPORT_IMPL_H

#include "ra_report.h"
#include "ra_events.h"
#include "ra_digest.h"
#include "ra_refer.h"
#include "ra_crawlers.h"
#include "ra_policy.h"

/* Did the servers of the ledger write an event stream (ra_events.h)?
 * Its lines are shown then only, so that a page without one is as it
 * was. */
static inline int
ra_rep_events_any(const ra_totals_t *h)
{
    return h->events.lines[RA_EVENTS_SENT] != 0
           || h->events.lines[RA_EVENTS_DROPPED] != 0
           || h->events.lines[RA_EVENTS_OVERSIZE] != 0;
}

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
    ra_stat_t               *evicted;   /* Prometheus: rows of the sites'
                                           evicted sums (ra_rep_prepare) */
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

/* A site's robots.txt as every format shows it: the last answer, the
 * version in force and what is derived from them. */
typedef struct {
    const ra_site_t     *s;
    const ra_version_t  *v;         /* in force, or NULL */
    ra_str_t             name;
    ra_str_t             last_ctype;    /* of the last answer */
    ra_str_t             ctype;         /* of v; empty without v */
    ra_str_t             coding;        /* v's Content-Encoding, or empty */
    ra_str_t             bad_coding;    /* the one not decoded */
    const char          *last_answer;
    unsigned             errors;
    unsigned             versions_24h;
    unsigned             redirects;     /* hops kept */
    uint32_t             decoded;       /* v's decoded size; 0 without v */
    int                  unreachable_30d;
    char                 sha[2 * RA_SHA256_LEN + 1];   /* v's, in hex */
} ra_rep_robots_t;

/* A crawler row as every format shows it. */
typedef struct {
    const ra_stat_t  *st;
    ra_str_t          name;         /* the record's own */
    ra_str_t          label;        /* ra_report_label(): in label_buf */
    ra_str_t          token;
    const char       *purpose;      /* NULL: none */
    const char       *verification;
    const char       *verified_by;  /* "": no method decided */
    uint32_t          peak;         /* most requests in a minute */
    int64_t           gap;          /* median gap in ms; < 0: none */
    int64_t           delay;        /* its Crawl-delay in ms; -1: none */
    uint64_t          refused;
    char              label_buf[RA_REPORT_LABEL_MAX];
} ra_rep_row_t;

/* A violation as every format shows it. */
typedef struct {
    const ra_violation_t  *x;
    ra_str_t               name, addr, method, uri, pattern;
    const char            *verdict;
    const char            *verification;
    const char            *verified_by;     /* "": no method decided */
    unsigned               uri_cut:1;       /* longer than kept */
    unsigned               sha_known:1;
    char                   sha[2 * RA_SHA256_LEN + 1];
} ra_rep_vio_t;

/* A loaded IP-range list and its age at "now". */
typedef struct {
    ra_str_t   name;
    size_t     intervals;
    int64_t    mtime;
    int64_t    age;             /* ms; < 0: its file's time is unknown */
    int        stale;
} ra_rep_range_t;

/* How a format for people writes what a site's robots.txt states beyond
 * crawl rules (ra_rep_prefs()): its escaper and the words around each
 * part; text has plain words where HTML has markup. */
typedef struct {
    void          (*esc)(ra_buf_t *, ra_str_t);
    const char     *start[2];   /* before the first preference line, the
                                   first policy token */
    const char     *sep;        /* between two */
    const char     *code;       /* around a value */
    const char     *code_end;
    const char     *note;       /* around the remark after it */
    const char     *note_end;
    const char     *policy;     /* a policy token's remark begins with */
    const char     *end;        /* after the last */
} ra_rep_prefs_fmt_t;

/* ---- the model (ra_report_render.c, ra_report_model.c) ----------------- */

void ra_rep_robots(const ra_rep_t *r, uint32_t si, ra_rep_robots_t *m);
ra_str_t ra_rep_redirect(const ra_site_t *s, unsigned i);
uint32_t ra_rep_rows_shown(const ra_rep_t *r, uint32_t si);
void ra_rep_row(const ra_rep_t *r, const ra_stat_t *st, ra_rep_row_t *w);
const ra_violation_t *ra_rep_vio_next(const ra_rep_t *r, uint32_t si,
    uint32_t *j);
void ra_rep_vio(const ra_violation_t *x, ra_rep_vio_t *w);
uint32_t ra_rep_violations(ra_rep_t *r, uint32_t si,
    void (*each)(ra_rep_t *r, const ra_rep_vio_t *w, uint32_t n));
int ra_rep_referral_next(const ra_rep_t *r, const ra_site_t *s, unsigned *k);
const ra_lint_pref_t *ra_rep_pref_next(const ra_lint_t *l, unsigned policy,
    uint32_t *i, ra_str_t *agent, ra_str_t *text);
uint32_t ra_rep_findings_shown(const ra_rep_t *r, const ra_lint_t *l);
uint32_t ra_rep_findings_hidden(const ra_rep_t *r, const ra_lint_t *l);
size_t ra_rep_ranges(const ra_rep_t *r);
void ra_rep_range(const ra_rep_t *r, size_t i, ra_rep_range_t *g);

int ra_rep_is_tool(const ra_stat_t *st);
uint32_t ra_rep_offenders(const ra_rep_t *r, uint32_t si);
const ra_crawler_t *ra_rep_crawler(const ra_rep_t *r, const ra_stat_t *st);
unsigned ra_rep_unverified(const ra_rep_t *r, const ra_crawler_t *c);

ra_str_t ra_rep_label(const ra_stat_t *st);
uint64_t ra_rep_evicted(const ra_site_t *s, uint64_t *c);
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
const ra_policy_site_t *ra_rep_policy_next(const ra_rep_t *r, uint32_t si,
    const ra_policy_site_t *p);
const ra_stat_t *ra_rep_refused_next(const ra_rep_t *r, uint32_t si,
    uint32_t *i);
uint32_t ra_rep_nth(const ra_rep_t *r, uint32_t k);
unsigned ra_rep_permille(uint64_t part, uint64_t whole);
uint64_t ra_rep_judged(const uint64_t *c);
void ra_rep_hits(const ra_rep_t *r, uint32_t si, ra_rep_hits_t *h);
void ra_rep_crawler_hits(const ra_rep_t *r, uint32_t si, const ra_stat_t *st,
    ra_rep_hits_t *h);
const ra_episode_t *ra_rep_episode(const ra_site_t *s, unsigned k);
int64_t ra_rep_episode_ms(const ra_episode_t *e, int64_t now);

/* Printing shared by the formats for people (text and HTML). */
void ra_rep_iso(ra_buf_t *b, int64_t ms);
/* A time as JSON: an ISO string, or null for 0. */
void ra_rep_json_time(ra_buf_t *b, int64_t ms);
void ra_rep_ms(ra_buf_t *b, int64_t ms);
void ra_rep_gap(ra_buf_t *b, int64_t ms);
void ra_rep_size(ra_buf_t *b, const ra_version_t *v,
    void (*esc)(ra_buf_t *, ra_str_t));
void ra_rep_site_counts(ra_buf_t *b, const ra_site_t *s);
void ra_rep_evicted_counts(ra_buf_t *b, const ra_site_t *s);
void ra_rep_content_counts(ra_buf_t *b, const ra_version_t *v);
const char *ra_rep_s(unsigned n);
void ra_rep_prefs(ra_rep_t *r, uint32_t si, const ra_rep_prefs_fmt_t *f);

/* A percentage rounded to a whole number, never 0 or 100 when it is not
 * (the HTML page's compliance). */
unsigned ra_rep_pct(uint64_t part, uint64_t whole);

/* The HTML page's crawler tables and what to do about the offenders
 * (ra_report_html_crawlers.c), and the number cell every table of the
 * page prints. */
/* a number's cell: RA_REP_NUM_BAD marks one above 0, RA_REP_NUM_X puts
 * it in a column the narrow page hides */
#define RA_REP_NUM_BAD  1u
#define RA_REP_NUM_X    2u
void ra_rep_html_num(ra_buf_t *b, uint64_t v, unsigned flags);
void ra_rep_html_crawlers(ra_rep_t *r, uint32_t si);

/* ---- the formats, one file each --------------------------------------- */

void ra_rep_json(ra_rep_t *r);
void ra_rep_html(ra_rep_t *r);
void ra_rep_prom(ra_rep_t *r);
void ra_rep_text(ra_rep_t *r);
void ra_rep_csv(ra_rep_t *r);
void ra_rep_csv_crawlers(ra_rep_t *r);

/* The counters' names in ra_counter_e order: JSON's members and the
 * crawler CSV's columns (docs/design.md, "JSON") */
extern const char  *const ra_rep_counter_names[RA_CNT_MAX];
void ra_rep_status_html(ra_rep_t *r);

/* The undeclared crawlers of site si (opts->undeclared), one function
 * per format (ra_report_undeclared.c); nothing when it has none */
void ra_rep_undeclared_json(ra_rep_t *r, uint32_t si);
void ra_rep_undeclared_text(ra_rep_t *r, uint32_t si);
void ra_rep_undeclared_html(ra_rep_t *r, uint32_t si);
void ra_rep_undeclared_prom(ra_rep_t *r);
void ra_rep_undeclared_csv(ra_rep_t *r);

/* The sitemaps of site si (ra_sitemaps_t), one function per format
 * (ra_report_sitemaps.c); text and HTML show nothing when it has none */
void ra_rep_sitemaps_json(ra_rep_t *r, uint32_t si);
void ra_rep_sitemaps_text(ra_rep_t *r, uint32_t si);
void ra_rep_sitemaps_html(ra_rep_t *r, uint32_t si);
void ra_rep_sitemaps_prom(ra_rep_t *r);
/* The page directives of site si and their conflicts, one function per
 * format (ra_report_pages.c); text and HTML print nothing for a site
 * without any, Prometheus leaves such sites out */
void ra_rep_pages_json(ra_rep_t *r, uint32_t si);
void ra_rep_pages_text(ra_rep_t *r, uint32_t si);
void ra_rep_pages_html(ra_rep_t *r, uint32_t si);
void ra_rep_pages_prom(ra_rep_t *r);

/* One CSV cell (RFC 4180), for every CSV row (ra_report_model.c) */
void ra_rep_csv_cell(ra_buf_t *b, ra_str_t v);

#endif /* RA_REPORT_IMPL_H */
