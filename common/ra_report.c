/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Reports from a ledger snapshot (see ra_report.h).
 *
 * A snapshot may come from a region another process wrote, so nothing in
 * it is trusted: every length is clamped to its array, every index is
 * checked, and every byte of text goes through an escaper.  This file
 * uses no function of the ledger or the audit engine: it reads plain
 * data, so that the renderers can be tested on hand-made snapshots.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ra_report.h"
#include "ra_digest.h"
#include "ra_accesslog.h"
#include "ra_verdict.h"
#include "ra_crawlers.h"
#include "ra_refer.h"
#include "ra_verify.h"
#include "ra_parse.h"

#define RA_REP_VIOLATIONS   25
#define RA_REP_CRAWLERS     100
#define RA_REP_FINDINGS     50

/* ra_counter_e order; the JSON member names (docs/design.md, "JSON") */
static const char  *const ra_rep_counter[RA_CNT_MAX] = {
    "requests", "robots_fetches", "compliant", "violation", "stale",
    "unreachable", "exempt", "crawl_delay", "no_robots_fetch", "unknown",
    "refused_violation", "refused_unreachable", "refused_impostor",
    "unreachable_30d",
    "llms_fetches"
};

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

static ra_str_t
ra_rep_label(const ra_stat_t *st)
{
    static const char  generic[] = "generic", browser[] = "browser";

    if (st->kind == RA_UA_GENERIC) {
        return ra_str(generic, sizeof(generic) - 1);
    }
    if (st->kind == RA_UA_BROWSER) {
        return ra_str(browser, sizeof(browser) - 1);
    }
    return ra_rep_field(st->name, st->name_len);
}

/* Is the site in the 30-day phase (docs/design.md, "Verdicts")? */
static int
ra_rep_30d(const ra_site_t *s, int64_t now)
{
    return ra_unreachable_30d(s->failing_since, s->pages_answered, now);
}

/* A median gap: as ra_rep_ms(), with "+" when it is the last bin's lower
 * bound (ra_polite_t: "at least"). */
static void ra_rep_ms(ra_buf_t *b, int64_t ms);

static void
ra_rep_gap(ra_buf_t *b, int64_t ms)
{
    ra_rep_ms(b, ms);
    if (ms >= (int64_t) RA_POLITE_GAP0_MS << (RA_POLITE_BINS - 2)) {
        ra_buf_ch(b, '+');
    }
}

/* A duration in ms, short: "850ms", "12.5s", "4m10s"; "-" when < 0. */
static void
ra_rep_ms(ra_buf_t *b, int64_t ms)
{
    if (ms < 0) {
        ra_buf_ch(b, '-');
    } else if (ms < 1000) {
        ra_buf_printf(b, "%lldms", (long long) ms);
    } else if (ms < 60000) {
        ra_buf_printf(b, "%lld.%llds", (long long) (ms / 1000),
                      (long long) (ms % 1000 / 100));
    } else {
        ra_buf_printf(b, "%lldm%llds", (long long) (ms / 60000),
                      (long long) (ms % 60000 / 1000));
    }
}

size_t
ra_report_label(unsigned kind, ra_str_t name, char *out, size_t cap)
{
    static const char  gen[] = " (generic)";
    size_t             n;

    if (cap == 0) {
        return 0;
    }
    n = name.len < cap - 1 ? name.len : cap - 1;
    if (n) {
        memcpy(out, name.data, n);
    }
    if (kind == RA_UA_GENERIC && !(n == 7 && memcmp(out, "generic", 7) == 0)
        && n + sizeof(gen) <= cap)
    {
        memcpy(out + n, gen, sizeof(gen) - 1);
        n += sizeof(gen) - 1;
    }
    out[n] = '\0';
    return n;
}

static int
ra_rep_strcmp(ra_str_t a, ra_str_t b)
{
    int  c = memcmp(a.data, b.data, a.len < b.len ? a.len : b.len);

    if (c != 0) {
        return c;
    }
    return a.len < b.len ? -1 : a.len > b.len;
}

/* display order: site, most requests first, name */
static int
ra_rep_cmp_display(const void *x, const void *y)
{
    const ra_rep_ent_t  *a = x, *b = y;
    uint64_t             ra, rb;
    int                  c;

    if (a->site != b->site) {
        return a->site < b->site ? -1 : 1;
    }
    ra = a->st->counters[RA_CNT_REQUESTS];
    rb = b->st->counters[RA_CNT_REQUESTS];
    if (ra != rb) {
        return ra > rb ? -1 : 1;
    }
    c = ra_rep_strcmp(ra_rep_field(a->st->name, a->st->name_len),
                      ra_rep_field(b->st->name, b->st->name_len));
    if (c != 0) {
        return c;
    }
    return (int) a->st->verification - (int) b->st->verification;
}

/* metric order: site, label, verification; equal keys are summed */
static int
ra_rep_cmp_metric(const void *x, const void *y)
{
    const ra_rep_ent_t  *a = x, *b = y;
    int                  c;

    if (a->site != b->site) {
        return a->site < b->site ? -1 : 1;
    }
    c = ra_rep_strcmp(ra_rep_label(a->st), ra_rep_label(b->st));
    if (c != 0) {
        return c;
    }
    return (int) a->st->verification - (int) b->st->verification;
}

static const ra_version_t *
ra_rep_current(const ra_site_t *s)
{
    const ra_version_t  *v;

    if (s->nversions == 0 || s->current >= RA_VERSIONS) {
        return NULL;
    }
    v = &s->versions[s->current];
    return v->hash != 0 ? v : NULL;
}

/* The current version's lint errors, and the finding that the last
 * answer could not be decoded (it keeps the version in force). */
static unsigned
ra_rep_errors(const ra_site_t *s, const ra_version_t *v)
{
    return (v ? v->lint_errors : 0u) + (s->undecodable ? 1u : 0u);
}

/* "1234 bytes", or "1234 bytes served (gzip), 5678 decoded" */
static void
ra_rep_size(ra_buf_t *b, const ra_version_t *v, int html)
{
    ra_buf_printf(b, "%u bytes", v ? v->size : 0);
    if (v != NULL && v->coding_len) {
        ra_buf_cstr(b, " served (");
        if (html) {
            ra_buf_html(b, ra_rep_field(v->coding, v->coding_len));
        } else {
            ra_buf_log(b, ra_rep_field(v->coding, v->coding_len));
        }
        ra_buf_printf(b, "), %u decoded", v->decoded);
    }
    if (v != NULL && v->truncated) {
        ra_buf_cstr(b, " (truncated)");
    }
}

static unsigned
ra_rep_versions_24h(const ra_site_t *s, int64_t now)
{
    unsigned  i, n = 0;

    for (i = 0; i < RA_VERSIONS; i++) {
        if (s->versions[i].hash != 0
            && (s->versions[i].until == 0
                || s->versions[i].until >= now - RA_DAY_MS))
        {
            n++;
        }
    }
    return n;
}

static const char *
ra_rep_answer_name(unsigned answer)
{
    switch (answer) {
    case RA_ANSWER_RULES:       return "rules";
    case RA_ANSWER_ALLOW_ALL:   return "allow-all";
    case RA_ANSWER_UNREACHABLE: return "unreachable";
    default:                    return "none";
    }
}

/* The class of the last answer itself (a 503 is "unreachable" even while
 * the last good file stays in force); "none" before any. */
static const char *
ra_rep_last_answer(const ra_site_t *s)
{
    return ra_rep_answer_name(s->robots_status
                              ? (unsigned) ra_answer_of_status(
                                    s->robots_status)
                              : RA_ANSWER_NONE);
}

/* The ring holds violations and "unreachable" verdicts (crawling while
 * robots.txt answered 5xx/429). */
static const char *
ra_rep_vio_verdict(const ra_violation_t *x)
{
    return x->verdict == RA_VERDICT_UNREACHABLE ? "unreachable"
                                                : "violation";
}

static ra_str_t
ra_rep_site_name(const ra_site_t *s)
{
    return ra_rep_field(s->name, s->name_len);
}

/* The site's crawler records: in the ledger (a view may have copied
 * fewer), or in the snapshot (a hand-made one says nothing). */
static uint32_t
ra_rep_stats_total(const ra_rep_t *r, uint32_t si)
{
    uint32_t  n = r->first[si + 1] - r->first[si];

    return r->snap->sites[si].stats_total > n ? r->snap->sites[si].stats_total
                                              : n;
}

static uint32_t
ra_rep_sites_total(const ra_snapshot_t *snap)
{
    return snap->sites_total > snap->nsites ? snap->sites_total
                                            : snap->nsites;
}

/* Has the output reached the caller's budget?  Then no further site
 * starts (each one is bounded), and the report says it was cut. */
static int
ra_rep_over_budget(ra_rep_t *r)
{
    if (r->opts->max_bytes && r->b->len >= r->opts->max_bytes) {
        r->cut = 1;
        return 1;
    }
    return 0;
}

/* ---- preparation ---------------------------------------------------- */

static int
ra_rep_prepare(ra_rep_t *r)
{
    const ra_snapshot_t  *snap = r->snap;
    uint32_t              i, id;
    size_t                n;

    r->first = ra_alloc(r->scratch, (snap->nsites + 1) * sizeof(uint32_t));
    if (r->first == NULL) {
        return RA_ENOMEM;
    }

    n = snap->nstats;
    r->ents = ra_alloc(r->scratch, n * sizeof(ra_rep_ent_t));
    if (r->ents == NULL) {
        return RA_ENOMEM;
    }
    r->nents = 0;
    for (i = 0; i < snap->nstats; i++) {
        id = snap->stats[i].site;
        if (id == 0 || id > snap->nsites) {
            continue;           /* its site was not in the snapshot */
        }
        r->ents[r->nents].st = &snap->stats[i];
        r->ents[r->nents].site = id - 1;
        r->nents++;
    }
    return RA_OK;
}

static void
ra_rep_sort(ra_rep_t *r, int (*cmp)(const void *, const void *))
{
    uint32_t  i, s;

    if (r->nents > 1) {
        qsort(r->ents, r->nents, sizeof(ra_rep_ent_t), cmp);
    }
    for (i = 0, s = 0; s <= r->snap->nsites; s++) {
        while (i < r->nents && r->ents[i].site < s) {
            i++;
        }
        r->first[s] = i;
    }
}

/* Findings per site: the caller's, else a lint of the snapshot's body. */
static int
ra_rep_lints(ra_rep_t *r)
{
    const ra_snapshot_t  *snap = r->snap;
    const ra_version_t   *v;
    ra_lint_http_t        http;
    uint32_t              i;
    size_t                n = snap->nsites ? snap->nsites : 1;
    int                   rc = RA_OK;

    r->lints = ra_alloc(r->scratch, n * sizeof(ra_lint_t *));
    if (r->lints == NULL) {
        return RA_ENOMEM;
    }
    for (i = 0; i < snap->nsites; i++) {
        r->lints[i] = r->opts->lints != NULL ? r->opts->lints[i] : NULL;
    }
    if (!r->opts->relint || snap->bodies == NULL) {
        return RA_OK;
    }

    r->own = ra_alloc(r->scratch, n * sizeof(ra_lint_t));
    r->owned = ra_alloc(r->scratch, n);
    if (r->own == NULL || r->owned == NULL) {
        return RA_ENOMEM;
    }
    memset(r->owned, 0, n);
    for (i = 0; i < snap->nsites; i++) {
        const ra_site_t  *s = &snap->sites[i];

        v = ra_rep_current(s);
        if (r->lints[i] != NULL) {
            continue;
        }
        if (v == NULL || snap->bodies[i].data == NULL
            || v->answer != RA_ANSWER_RULES || v->body_lost)
        {
            v = NULL;
            if (!s->undecodable) {
                continue;
            }
        }
        memset(&http, 0, sizeof(http));
        http.crawlers = r->opts->crawlers;
        /* the last answer could not be decoded: its finding, then the
         * version still in force */
        http.undecodable = s->undecodable != 0;
        http.content_encoding = ra_rep_field(s->bad_coding,
                                             s->bad_coding_len);
        http.status = v ? v->status : s->robots_status;
        if (v != NULL) {
            http.content_type = ra_rep_field(v->ctype, v->ctype_len);
            http.size = v->coding_len ? v->decoded : v->size;
            http.truncated = v->truncated;
        }
        if (ra_lint(v ? snap->bodies[i] : ra_str(NULL, 0), &http,
                    r->scratch, &r->own[i])
            != RA_OK)
        {
            rc = RA_ENOMEM;     /* show what was found so far */
        }
        r->owned[i] = 1;
        r->lints[i] = &r->own[i];
    }
    return rc;
}

static void
ra_rep_cleanup(ra_rep_t *r)
{
    uint32_t  i;

    if (r->owned != NULL) {
        for (i = 0; i < r->snap->nsites; i++) {
            if (r->owned[i]) {
                ra_lint_free(&r->own[i], r->scratch);
            }
        }
    }
    ra_free(r->scratch, r->owned);
    ra_free(r->scratch, r->own);
    ra_free(r->scratch, r->lints);
    ra_free(r->scratch, r->ents);
    ra_free(r->scratch, r->first);
    ra_free(r->scratch, r->order);
}

static void
ra_rep_iso(ra_buf_t *b, int64_t ms)
{
    char  t[24];

    ra_buf_add(b, t, ra_time_iso(ms, t));
}

/* Per-mille of part in whole, for bars and percentages. */
static unsigned
ra_rep_permille(uint64_t part, uint64_t whole)
{
    if (whole == 0) {
        return 0;
    }
    if (part > UINT64_MAX / 1000) {
        return (unsigned) (part / (whole / 1000 ? whole / 1000 : 1));
    }
    return (unsigned) (part * 1000 / whole);
}

static uint64_t
ra_rep_judged(const uint64_t *c)
{
    return c[RA_CNT_COMPLIANT] + c[RA_CNT_STALE] + c[RA_CNT_EXEMPT]
           + c[RA_CNT_VIOLATION] + c[RA_CNT_UNREACHABLE];
}

/* ---- JSON ----------------------------------------------------------- */

static void ra_rep_json_time(ra_buf_t *b, int64_t ms);

/* ---- order (issue 18): sites and rows stay where they were ---------- */

typedef struct {
    const ra_site_t  *s;
    uint32_t          i;
} ra_rep_site_ent_t;

static int
ra_rep_cmp_site_name(const void *x, const void *y)
{
    const ra_rep_site_ent_t  *a = x, *b = y;
    int                       c;

    c = ra_rep_strcmp(ra_rep_site_name(a->s), ra_rep_site_name(b->s));
    return c != 0 ? c : a->i < b->i ? -1 : a->i > b->i;
}

static int
ra_rep_cmp_site_vio(const void *x, const void *y)
{
    const ra_rep_site_ent_t  *a = x, *b = y;
    uint64_t                  va = a->s->counters[RA_CNT_VIOLATION];
    uint64_t                  vb = b->s->counters[RA_CNT_VIOLATION];

    if (va != vb) {
        return va > vb ? -1 : 1;
    }
    return ra_rep_cmp_site_name(x, y);
}

static int
ra_rep_cmp_row_name(const void *x, const void *y)
{
    const ra_rep_ent_t  *a = x, *b = y;
    int                  c;

    c = ra_rep_strcmp(ra_rep_field(a->st->name, a->st->name_len),
                      ra_rep_field(b->st->name, b->st->name_len));
    if (c != 0) {
        return c;
    }
    return (int) a->st->verification - (int) b->st->verification;
}

static int
ra_rep_cmp_row_vio(const void *x, const void *y)
{
    const ra_rep_ent_t  *a = x, *b = y;
    uint64_t             va = a->st->counters[RA_CNT_VIOLATION];
    uint64_t             vb = b->st->counters[RA_CNT_VIOLATION];

    if (va != vb) {
        return va > vb ? -1 : 1;
    }
    return ra_rep_cmp_row_name(x, y);
}

/* The sites' order (by name, or most violations first), and each site's
 * rows: the ones shown (the busiest max_crawlers, as before) sorted the
 * same way.  Without memory, the snapshot's order stays. */
static void
ra_rep_order(ra_rep_t *r)
{
    const ra_snapshot_t  *snap = r->snap;
    ra_rep_site_ent_t    *e;
    uint32_t              i, n;
    int                 (*cmp)(const void *, const void *);

    cmp = r->opts->sort_violations ? ra_rep_cmp_row_vio : ra_rep_cmp_row_name;
    for (i = 0; i < snap->nsites; i++) {
        n = r->first[i + 1] - r->first[i];
        n = n < r->max_crawlers ? n : r->max_crawlers;
        if (n > 1) {
            qsort(r->ents + r->first[i], n, sizeof(ra_rep_ent_t), cmp);
        }
    }
    if (snap->nsites == 0) {
        return;
    }
    e = ra_alloc(r->scratch, snap->nsites * sizeof(*e));
    r->order = ra_alloc(r->scratch, snap->nsites * sizeof(uint32_t));
    if (e == NULL || r->order == NULL) {
        ra_free(r->scratch, e);
        ra_free(r->scratch, r->order);
        r->order = NULL;
        return;
    }
    for (i = 0; i < snap->nsites; i++) {
        e[i].s = &snap->sites[i];
        e[i].i = i;
    }
    qsort(e, snap->nsites, sizeof(*e), r->opts->sort_violations
                                       ? ra_rep_cmp_site_vio
                                       : ra_rep_cmp_site_name);
    for (i = 0; i < snap->nsites; i++) {
        r->order[i] = e[i].i;
    }
    ra_free(r->scratch, e);
}

/* The k-th site shown. */
static uint32_t
ra_rep_nth(const ra_rep_t *r, uint32_t k)
{
    return r->order != NULL ? r->order[k] : k;
}

/* Anchors: the site's name with anything but [a-z0-9.-] as '_'. */
static void
ra_rep_anchor(ra_buf_t *b, const ra_site_t *s)
{
    ra_str_t  n = ra_rep_site_name(s);
    size_t    i;
    char      c;

    ra_buf_cstr(b, "site-");
    for (i = 0; i < n.len; i++) {
        c = n.data[i];
        ra_buf_ch(b, (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
                     || c == '.' || c == '-' ? c : '_');
    }
}

/* A percentage rounded to a whole number, never 0 or 100 when it is
 * not (a single violation in 1,000 is "1%", not "0%"). */
static unsigned
ra_rep_pct(uint64_t part, uint64_t whole)
{
    unsigned  pm = ra_rep_permille(part, whole);
    unsigned  pct = (pm + 5) / 10;

    if (part > 0 && pct == 0) {
        return 1;
    }
    if (part < whole && pct == 100) {
        return 99;
    }
    return pct;
}


/* ---- rule hits, hours, episodes (issue 18) -------------------------- */

typedef struct {
    ra_rule_hit_t  hits[RA_RULE_LINES];     /* by line */
    ra_str_t       value[RA_RULE_LINES];    /* the line's value, or empty */
    unsigned       n, k;
} ra_rep_hits_t;

static int
ra_rep_hits_line(void *ctx, const ra_line_t *ln)
{
    ra_rep_hits_t  *h = ctx;

    while (h->k < h->n && h->hits[h->k].line < ln->line) {
        h->k++;
    }
    if (h->k == h->n) {
        return RA_ERROR;        /* every line found: stop */
    }
    if (h->hits[h->k].line == ln->line) {
        h->value[h->k] = ln->value;
    }
    return RA_OK;
}

/* Adds a hit to h, in line order. */
static void
ra_rep_hits_add(ra_rep_hits_t *h, const ra_rule_hit_t *t)
{
    unsigned  j;

    if (t->line == 0 || h->n >= RA_RULE_LINES) {
        return;
    }
    for (j = h->n; j > 0 && h->hits[j - 1].line > t->line; j--) {
        h->hits[j] = h->hits[j - 1];
    }
    h->hits[j] = *t;
    h->n++;
}

/* Each hit's line value, from the snapshot's body (when it has one). */
static void
ra_rep_hits_values(const ra_rep_t *r, uint32_t si, ra_rep_hits_t *h)
{
    const ra_version_t  *v = ra_rep_current(&r->snap->sites[si]);

    if (h->n && v != NULL && r->snap->bodies != NULL
        && r->snap->bodies[si].data != NULL && !v->body_lost)
    {
        (void) ra_parse(r->snap->bodies[si], ra_rep_hits_line, h, NULL);
    }
}

/* The site's rule hits, when they are of the version in force, by line,
 * with each line's value. */
static void
ra_rep_hits(const ra_rep_t *r, uint32_t si, ra_rep_hits_t *h)
{
    const ra_site_t     *s = &r->snap->sites[si];
    const ra_version_t  *v = ra_rep_current(s);
    unsigned             i;

    memset(h, 0, sizeof(*h));
    if (v == NULL || s->rule_version != v->hash) {
        return;
    }
    for (i = 0; i < RA_RULE_LINES; i++) {
        ra_rep_hits_add(h, &s->rule_hits[i]);
    }
    ra_rep_hits_values(r, si, h);
}

/* The same for one crawler record (?crawler=). */
static void
ra_rep_crawler_hits(const ra_rep_t *r, uint32_t si, const ra_stat_t *st,
    ra_rep_hits_t *h)
{
    const ra_version_t  *v = ra_rep_current(&r->snap->sites[si]);
    ra_rule_hit_t        t;
    unsigned             i;

    memset(h, 0, sizeof(*h));
    if (v == NULL || st->rule_version != v->hash) {
        return;
    }
    for (i = 0; i < RA_CRAWLER_RULE_LINES; i++) {
        memset(&t, 0, sizeof(t));
        t.line = st->rule_hits[i].line;
        t.allow = st->rule_hits[i].allow;
        t.matched = st->rule_hits[i].matched;
        t.violations = st->rule_hits[i].violations;
        ra_rep_hits_add(h, &t);
    }
    ra_rep_hits_values(r, si, h);
}

/* The counters of the last hours (ra_hours_sum()) as a JSON object. */
static void
ra_rep_json_window(ra_buf_t *b, const char *key, const ra_stat_t *st,
    int64_t now, unsigned hours)
{
    uint64_t  c[RA_CNT_MAX];
    unsigned  k;

    ra_hours_sum(st->hours, now, hours, c);
    ra_buf_printf(b, ",\"%s\":{", key);
    for (k = 0; k < RA_CNT_MAX; k++) {
        ra_buf_printf(b, "%s\"%s\":", k ? "," : "", ra_rep_counter[k]);
        ra_buf_u64(b, c[k]);
    }
    ra_buf_ch(b, '}');
}

static void
ra_rep_json_hours(ra_buf_t *b, const ra_stat_t *st, int64_t now)
{
    ra_rep_json_window(b, "last_hour", st, now, 1);
    ra_rep_json_window(b, "last_24h", st, now, RA_HOURS);
}

static void ra_rep_json_hits(ra_buf_t *b, const ra_rep_hits_t *hp);

/* ?crawler=: the lines that decided the record's requests */
static void
ra_rep_json_crawler_hits(ra_rep_t *r, uint32_t si, const ra_stat_t *st)
{
    ra_rep_hits_t  h;

    if (!r->opts->crawler_rules) {
        return;
    }
    ra_rep_crawler_hits(r, si, st, &h);
    ra_rep_json_hits(r->b, &h);
}

/* [{line, type, pattern, matched, violations}] */
static void
ra_rep_json_hits(ra_buf_t *b, const ra_rep_hits_t *hp)
{
    const ra_rep_hits_t  h = *hp;
    unsigned             i;

    ra_buf_cstr(b, ",\"rule_hits\":[");
    for (i = 0; i < h.n; i++) {
        ra_buf_printf(b, "%s{\"line\":%u,\"type\":\"%s\",\"pattern\":",
                      i ? "," : "", h.hits[i].line,
                      h.hits[i].allow ? "allow" : "disallow");
        if (h.value[i].data != NULL) {
            ra_buf_json_str(b, h.value[i]);
        } else {
            ra_buf_cstr(b, "null");
        }
        ra_buf_cstr(b, ",\"matched\":");
        ra_buf_u64(b, h.hits[i].matched);
        ra_buf_cstr(b, ",\"violations\":");
        ra_buf_u64(b, h.hits[i].violations);
        ra_buf_ch(b, '}');
    }
    ra_buf_ch(b, ']');
}

/* robots.rule_hits, and what the entries leave out */
static void
ra_rep_json_rule_hits(ra_rep_t *r, uint32_t si)
{
    const ra_site_t  *s = &r->snap->sites[si];
    ra_buf_t         *b = r->b;
    ra_rep_hits_t     h;

    ra_rep_hits(r, si, &h);
    ra_rep_json_hits(b, &h);
    ra_buf_printf(b, ",\"rule_hits_lines_kept\":%u,\"rule_hits_other\":"
                  "{\"matched\":", RA_RULE_LINES);
    ra_buf_u64(b, h.n ? s->rule_other_matched : 0);
    ra_buf_cstr(b, ",\"violations\":");
    ra_buf_u64(b, h.n ? s->rule_other_violations : 0);
    ra_buf_ch(b, '}');
}

/* The k-th newest episode of the site, or NULL. */
static const ra_episode_t *
ra_rep_episode(const ra_site_t *s, unsigned k)
{
    const ra_episode_t  *e;

    if (k >= RA_EPISODES) {
        return NULL;
    }
    e = &s->episodes[(s->episode_next % RA_EPISODES + 2 * RA_EPISODES - 1
                      - k) % RA_EPISODES];
    return e->start != 0 ? e : NULL;
}

static int64_t
ra_rep_episode_ms(const ra_episode_t *e, int64_t now)
{
    int64_t  end = e->end ? e->end : now;

    return end > e->start ? end - e->start : 0;
}

/* counting_since, and episodes: newest first */
static void
ra_rep_json_site_time(ra_rep_t *r, uint32_t si)
{
    const ra_site_t     *s = &r->snap->sites[si];
    const ra_episode_t  *e;
    ra_buf_t            *b = r->b;
    unsigned             k, i, n;

    ra_buf_cstr(b, ",\"counting_since\":");
    ra_rep_json_time(b, s->created);
    ra_buf_cstr(b, ",\"episodes\":[");
    for (k = 0, n = 0; (e = ra_rep_episode(s, k)) != NULL; k++) {
        ra_buf_cstr(b, n++ ? ",{\"start\":" : "{\"start\":");
        ra_rep_json_time(b, e->start);
        ra_buf_cstr(b, ",\"end\":");
        ra_rep_json_time(b, e->end);
        ra_buf_printf(b, ",\"duration_ms\":%lld,\"answers\":%u,"
                      "\"status\":%u,\"crawlers\":[",
                      (long long) ra_rep_episode_ms(e, r->now), e->answers,
                      e->status);
        for (i = 0; i < e->ncrawlers && i < RA_EPISODE_CRAWLERS; i++) {
            ra_buf_cstr(b, i ? ",{\"crawler\":" : "{\"crawler\":");
            ra_buf_json_str(b, ra_rep_field(e->name[i], e->name_len[i]));
            ra_buf_printf(b, ",\"requests\":%u}", e->requests[i]);
        }
        ra_buf_printf(b, "],\"other_requests\":%u}", e->others);
    }
    ra_buf_ch(b, ']');
}

static int
ra_rep_sha_known(const unsigned char *sha)
{
    unsigned  i;

    for (i = 0; i < RA_SHA256_LEN; i++) {
        if (sha[i]) {
            return 1;
        }
    }
    return 0;
}

static void ra_rep_json_method(ra_buf_t *b, unsigned method);

/* A violation's evidence: verified_by, robots_sha256, last_robots_fetch */
static void
ra_rep_json_evidence(ra_buf_t *b, const ra_violation_t *x)
{
    char  hex[2 * RA_SHA256_LEN + 1];

    ra_rep_json_method(b, x->verified_by);
    ra_buf_cstr(b, ",\"robots_sha256\":");
    if (ra_rep_sha_known(x->robots_sha256)) {
        ra_hex(x->robots_sha256, RA_SHA256_LEN, hex);
        ra_buf_printf(b, "\"%s\"", hex);
    } else {
        ra_buf_cstr(b, "null");
    }
    ra_buf_cstr(b, ",\"last_robots_fetch\":");
    ra_rep_json_time(b, x->last_fetch);
}

/* ,"verified_by": the method that decided a verification ("ranges",
 * "rdns", "signature"; a crawler's record: the last one), null when none
 * did (issue 16). */
static void
ra_rep_json_method(ra_buf_t *b, unsigned method)
{
    const char  *m = ra_verified_by_name((int) method);

    if (*m) {
        ra_buf_printf(b, ",\"verified_by\":\"%s\"", m);
    } else {
        ra_buf_cstr(b, ",\"verified_by\":null");
    }
}

static void
ra_rep_json_time(ra_buf_t *b, int64_t ms)
{
    if (ms == 0) {
        ra_buf_cstr(b, "null");
        return;
    }
    ra_buf_ch(b, '"');
    ra_rep_iso(b, ms);
    ra_buf_ch(b, '"');
}

static void
ra_rep_json_findings(ra_rep_t *r, const ra_lint_t *l)
{
    ra_buf_t  *b = r->b;
    uint32_t   i;

    ra_buf_cstr(b, ",\"findings\":[");
    for (i = 0; i < l->nfindings && i < r->max_findings; i++) {
        const ra_lint_finding_t  *f = &l->findings[i];

        ra_buf_printf(b, "%s{\"line\":%u,\"column\":%u,\"severity\":\"%s\","
                      "\"code\":\"%s\",\"message\":", i ? "," : "",
                      f->line, f->column,
                      ra_lint_severity_name(f->severity),
                      ra_lint_code_name(f->code));
        ra_buf_json_str(b, f->message);
        ra_buf_ch(b, '}');
    }
    ra_buf_printf(b, "],\"findings_not_shown\":%u",
                  l->summary.suppressed
                  + (l->nfindings > r->max_findings
                     ? l->nfindings - r->max_findings : 0));
}

/* The version in force: since when, its size, its SHA-256. */
static void
ra_rep_json_in_force(ra_buf_t *b, const ra_version_t *v)
{
    char  hex[2 * RA_SHA256_LEN + 1];

    if (v == NULL) {
        ra_buf_cstr(b, "null");
        return;
    }
    ra_hex(v->sha256, RA_SHA256_LEN, hex);
    ra_buf_cstr(b, "{\"since\":");
    ra_rep_json_time(b, v->first_seen);
    ra_buf_printf(b, ",\"status\":%u,\"answer\":\"%s\",\"bytes\":%u,"
                  "\"decoded_bytes\":%u,\"content_type\":", v->status,
                  ra_rep_answer_name(v->answer), v->size,
                  v->coding_len ? v->decoded : v->size);
    if (v->ctype_len) {
        ra_buf_json_str(b, ra_rep_field(v->ctype, v->ctype_len));
    } else {
        ra_buf_cstr(b, "null");
    }
    ra_buf_printf(b, ",\"sha256\":\"%s\"}", hex);
}

/* ---- crawl-to-refer, purposes, llms.txt ------------------------------ */

static void ra_rep_html_num(ra_buf_t *b, uint64_t v, int bad);

/* The purpose shown for a record: its table category, or NULL (generic
 * bots, browsers). */
static const char *
ra_rep_purpose(const ra_stat_t *st)
{
    return st->kind == RA_UA_KNOWN && st->category < RA_CAT_MAX
           ? ra_crawler_category_name(st->category) : NULL;
}

/* How many operators of the referrer table have counts for the site. */
static unsigned
ra_rep_nreferrals(const ra_rep_t *r, const ra_site_t *s)
{
    unsigned  k, n = 0;

    for (k = 0; k < r->refer.nops && k < RA_REFER_SLOTS; k++) {
        n += s->referrals[k] || s->referral_crawls[k];
    }
    return n;
}

/* JSON "referrals": [{operator, referrals, crawler_requests}], the
 * operators with a count. */
static void
ra_rep_json_referrals(ra_rep_t *r, const ra_site_t *s)
{
    unsigned  k, n = 0;

    ra_buf_cstr(r->b, ",\"referrals\":[");
    for (k = 0; k < r->refer.nops && k < RA_REFER_SLOTS; k++) {
        if (!s->referrals[k] && !s->referral_crawls[k]) {
            continue;
        }
        ra_buf_cstr(r->b, n++ ? ",{\"operator\":" : "{\"operator\":");
        ra_buf_json_str(r->b, r->refer.ops[k].name);
        ra_buf_cstr(r->b, ",\"referrals\":");
        ra_buf_u64(r->b, s->referrals[k]);
        ra_buf_cstr(r->b, ",\"crawler_requests\":");
        ra_buf_u64(r->b, s->referral_crawls[k]);
        ra_buf_ch(r->b, '}');
    }
    ra_buf_ch(r->b, ']');
}

/* crawler requests per referral, "-" without referrals */
static void
ra_rep_ratio(ra_buf_t *b, uint64_t crawls, uint64_t referrals)
{
    if (referrals == 0) {
        ra_buf_cstr(b, "-");
    } else {
        ra_buf_printf(b, "%.1f", (double) crawls / (double) referrals);
    }
}

static void
ra_rep_html_referrals(ra_rep_t *r, const ra_site_t *s)
{
    unsigned  k;

    if (ra_rep_nreferrals(r, s) == 0) {
        return;
    }
    ra_buf_cstr(r->b, "<h3>crawl-to-refer</h3><table><tr><th>operator</th>"
                "<th class=\"n\" title=\"browser visits its search engine "
                "or assistant referred\">referrals</th>"
                "<th class=\"n\" title=\"requests of its crawlers, "
                "impostors excluded\">crawler requests</th>"
                "<th class=\"n\" title=\"crawler requests per referral\">"
                "crawls per referral</th></tr>");
    for (k = 0; k < r->refer.nops && k < RA_REFER_SLOTS; k++) {
        if (!s->referrals[k] && !s->referral_crawls[k]) {
            continue;
        }
        ra_buf_cstr(r->b, "<tr><td>");
        ra_buf_html(r->b, r->refer.ops[k].name);
        ra_buf_cstr(r->b, "</td>");
        ra_rep_html_num(r->b, s->referrals[k], 0);
        ra_rep_html_num(r->b, s->referral_crawls[k], 0);
        ra_buf_cstr(r->b, "<td class=\"n\">");
        ra_rep_ratio(r->b, s->referral_crawls[k], s->referrals[k]);
        ra_buf_cstr(r->b, "</td></tr>");
    }
    ra_buf_cstr(r->b, "</table>");
}

static void
ra_rep_text_referrals(ra_rep_t *r, const ra_site_t *s)
{
    unsigned  k, n = 0;

    for (k = 0; k < r->refer.nops && k < RA_REFER_SLOTS; k++) {
        if (!s->referrals[k] && !s->referral_crawls[k]) {
            continue;
        }
        ra_buf_cstr(r->b, n++ ? ", " : "  crawl-to-refer: ");
        ra_buf_log(r->b, r->refer.ops[k].name);
        ra_buf_cstr(r->b, " ");
        ra_buf_u64(r->b, s->referrals[k]);
        ra_buf_cstr(r->b, " referrals / ");
        ra_buf_u64(r->b, s->referral_crawls[k]);
        ra_buf_cstr(r->b, " crawler requests");
    }
    if (n) {
        ra_buf_ch(r->b, '\n');
    }
}

/* robots_audit_referrals_total, robots_audit_referral_crawler_requests_
 * total, robots_audit_purpose_requests_total, robots_audit_llms_fetches_
 * total: operators and purposes are bounded by their tables. */
static uint32_t ra_rep_prom_run(ra_rep_t *r, uint32_t i, int by_verification,
    int skip_impostors, uint64_t *sum, const ra_stat_t **last);
static void ra_rep_prom_family(ra_buf_t *b, const char *name,
    const char *type, const char *help);
static void ra_rep_prom_site(ra_buf_t *b, const char *name,
    const ra_site_t *s);

static void
ra_rep_prom_ai(ra_rep_t *r)
{
    const ra_snapshot_t  *snap = r->snap;
    const ra_stat_t      *last;
    uint64_t              sum[RA_CNT_MAX], per[RA_CAT_MAX + 1];
    uint32_t              si, i, next;
    unsigned              k, pass;

    for (pass = 0; pass < 2; pass++) {
        ra_rep_prom_family(r->b, pass ? "robots_audit_referral_crawler_"
                                        "requests_total"
                                      : "robots_audit_referrals_total",
            "counter", pass ? "Requests of the operator's crawlers "
            "(impostors excluded), beside its referrals (crawl-to-refer)."
            : "Browser visits whose Referer is the operator's search "
            "engine or assistant (data/referrers.txt).");
        for (si = 0; si < snap->nsites; si++) {
            const ra_site_t  *s = &snap->sites[si];

            for (k = 0; k < r->refer.nops && k < RA_REFER_SLOTS; k++) {
                if (!s->referrals[k] && !s->referral_crawls[k]) {
                    continue;
                }
                ra_rep_prom_site(r->b, pass ? "robots_audit_referral_"
                                              "crawler_requests_total"
                                            : "robots_audit_referrals_total",
                                 s);
                ra_buf_cstr(r->b, ",operator=\"");
                ra_buf_prom_label(r->b, r->refer.ops[k].name);
                ra_buf_cstr(r->b, "\"} ");
                ra_buf_u64(r->b, pass ? s->referral_crawls[k]
                                      : s->referrals[k]);
                ra_buf_ch(r->b, '\n');
            }
        }
    }

    ra_rep_prom_family(r->b, "robots_audit_purpose_requests_total",
        "counter", "Crawler requests by the purpose of the crawler "
        "(its table category; purpose=\"generic\": generic bots; "
        "impostors excluded: they are not the crawler they name).");
    for (si = 0; si < snap->nsites; si++) {
        /* the site's own sums: never evicted, so each only rises */
        for (k = 0; k < RA_CAT_MAX; k++) {
            per[k] = snap->sites[si].purpose_requests[k];
        }
        per[RA_CAT_MAX] = snap->sites[si].generic[RA_CNT_REQUESTS];
        for (k = 0; k <= RA_CAT_MAX; k++) {
            if (per[k] == 0) {
                continue;
            }
            ra_rep_prom_site(r->b, "robots_audit_purpose_requests_total",
                             &snap->sites[si]);
            ra_buf_printf(r->b, ",purpose=\"%s\"} ", k < RA_CAT_MAX
                          ? ra_crawler_category_name(k) : "generic");
            ra_buf_u64(r->b, per[k]);
            ra_buf_ch(r->b, '\n');
        }
    }

    ra_rep_prom_family(r->b, "robots_audit_llms_fetches_total", "counter",
        "Requests for /llms.txt or /llms-full.txt by crawler (also judged "
        "and counted in robots_audit_requests_total).");
    for (i = 0; i < r->nents; i = next) {
        next = ra_rep_prom_run(r, i, 0, 0, sum, &last);
        if (sum[RA_CNT_LLMS_FETCHES] == 0) {
            continue;
        }
        ra_rep_prom_site(r->b, "robots_audit_llms_fetches_total",
                         &snap->sites[r->ents[i].site]);
        ra_buf_cstr(r->b, ",crawler=\"");
        ra_buf_prom_label(r->b, ra_rep_label(r->ents[i].st));
        ra_buf_cstr(r->b, "\"} ");
        ra_buf_u64(r->b, sum[RA_CNT_LLMS_FETCHES]);
        ra_buf_ch(r->b, '\n');
    }
}

/* JSON "ai_preferences" (Content-Signal and Content-Usage lines as
 * written, with their group) and "policy_tokens" (groups for tokens no
 * crawler fetches with, and what they control), as lint found them */
static void
ra_rep_json_prefs(ra_rep_t *r, const ra_lint_t *l)
{
    static const char  *kind[] = { "content-signal", "content-usage" };
    uint32_t            i, k, n;

    for (k = 0; k < 2; k++) {
        ra_buf_cstr(r->b, k ? ",\"policy_tokens\":["
                            : ",\"ai_preferences\":[");
        for (i = 0, n = 0; i < l->nprefs && i < RA_LINT_MAX_PREFS; i++) {
            const ra_lint_pref_t  *p = &l->prefs[i];
            ra_str_t               agent = ra_rep_field(p->agent,
                                               strnlen(p->agent,
                                                       sizeof(p->agent)));
            ra_str_t               text = ra_rep_field(p->text,
                                              strnlen(p->text,
                                                      sizeof(p->text)));

            if ((k == 1) != (p->kind == RA_LINT_PREF_POLICY)) {
                continue;
            }
            ra_buf_cstr(r->b, n++ ? "," : "");
            if (k == 1) {
                ra_buf_cstr(r->b, "{\"token\":");
                ra_buf_json_str(r->b, agent);
                ra_buf_cstr(r->b, ",\"controls\":");
                ra_buf_json_str(r->b, text);
            } else {
                ra_buf_printf(r->b, "{\"kind\":\"%s\",\"value\":",
                              kind[p->kind == RA_LINT_PREF_USAGE]);
                ra_buf_json_str(r->b, text);
                ra_buf_cstr(r->b, ",\"group\":");
                if (agent.len) {
                    ra_buf_json_str(r->b, agent);
                } else {
                    ra_buf_cstr(r->b, "null");
                }
            }
            ra_buf_printf(r->b, ",\"line\":%u}", p->line);
        }
        ra_buf_ch(r->b, ']');
    }
    ra_buf_printf(r->b, ",\"ai_preferences_more\":%u", l->more_prefs);
}

static void
ra_rep_json_site(ra_rep_t *r, uint32_t si)
{
    const ra_site_t     *s = &r->snap->sites[si];
    const ra_version_t  *v = ra_rep_current(s);
    ra_buf_t            *b = r->b;
    uint32_t             i, j, n, id, peak;
    int64_t              gap;
    unsigned             c;

    ra_buf_cstr(b, "{\"site\":");
    ra_buf_json_str(b, ra_rep_site_name(s));

    /* robots.txt: the last answer, the current version and its lint */
    ra_buf_cstr(b, ",\"robots\":{\"status\":");
    if (s->robots_status) {
        ra_buf_printf(b, "%u", s->robots_status);
    } else {
        ra_buf_cstr(b, "null");
    }
    /* status, answer, content_type, bytes, date: the last answer as it
     * was; in_force (and the decoding and lint members): the version
     * crawlers go by */
    ra_buf_printf(b, ",\"answer\":\"%s\",\"content_type\":",
                  ra_rep_last_answer(s));
    if (s->last_ctype_len) {
        ra_buf_json_str(b, ra_rep_field(s->last_ctype, s->last_ctype_len));
    } else {
        ra_buf_cstr(b, "null");
    }
    ra_buf_printf(b, ",\"bytes\":%u,\"in_force\":", s->last_size);
    ra_rep_json_in_force(b, v);
    ra_buf_printf(b, ",\"decoded_bytes\":%u,\"content_encoding\":",
                  v == NULL ? 0 : v->coding_len ? v->decoded : v->size);
    if (v != NULL && v->coding_len) {
        ra_buf_json_str(b, ra_rep_field(v->coding, v->coding_len));
    } else {
        ra_buf_cstr(b, "null");
    }
    ra_buf_printf(b, ",\"truncated\":%s,\"body_lost\":%s,"
                  "\"versions_24h\":%u,\"date\":",
                  v && v->truncated ? "true" : "false",
                  v && v->body_lost ? "true" : "false",
                  ra_rep_versions_24h(s, r->now));
    ra_rep_json_time(b, s->robots_date);
    ra_buf_printf(b, ",\"consecutive_failures\":%u,\"unreachable_since\":",
                  s->failures);
    ra_rep_json_time(b, s->unreachable_since);
    ra_buf_cstr(b, ",\"failing_since\":");
    ra_rep_json_time(b, s->failing_since);
    ra_buf_printf(b, ",\"unreachable_30d\":%s",
                  ra_rep_30d(s, r->now) ? "true" : "false");
    /* where /robots.txt redirects within the site, hop by hop */
    ra_buf_cstr(b, ",\"redirected_to\":[");
    for (c = 0; c < s->redirect_n && c < RA_REDIRECT_HOPS; c++) {
        if (c) {
            ra_buf_ch(b, ',');
        }
        ra_buf_json_str(b, ra_rep_field(s->redirect[c], s->redirect_len[c]));
    }
    ra_buf_ch(b, ']');
    ra_buf_cstr(b, ",\"undecodable\":");
    if (s->undecodable) {
        ra_buf_cstr(b, "{\"content_encoding\":");
        ra_buf_json_str(b, ra_rep_field(s->bad_coding, s->bad_coding_len));
        ra_buf_cstr(b, ",\"since\":");
        ra_rep_json_time(b, s->undecodable);
        ra_buf_ch(b, '}');
    } else {
        ra_buf_cstr(b, "null");
    }
    ra_buf_printf(b, ",\"groups\":%u,\"rules\":%u,\"sitemaps\":%u,"
                  "\"errors\":%u,\"warnings\":%u,\"infos\":%u",
                  v ? v->groups : 0, v ? v->rules : 0, v ? v->sitemaps : 0,
                  ra_rep_errors(s, v), v ? v->lint_warnings : 0,
                  v ? v->lint_infos : 0);
    if (r->lints[si] != NULL) {
        ra_rep_json_findings(r, r->lints[si]);
        ra_rep_json_prefs(r, r->lints[si]);
    }
    ra_rep_json_rule_hits(r, si);
    ra_buf_ch(b, '}');

    ra_buf_cstr(b, ",\"requests\":");
    ra_buf_u64(b, s->counters[RA_CNT_REQUESTS]);
    ra_buf_cstr(b, ",\"browser_requests\":");
    ra_buf_u64(b, s->browser_requests);
    ra_buf_cstr(b, ",\"no_user_agent\":");
    ra_buf_u64(b, s->no_user_agent);
    ra_buf_cstr(b, ",\"first_seen\":");
    ra_rep_json_time(b, s->created);
    ra_buf_cstr(b, ",\"last_seen\":");
    ra_rep_json_time(b, s->last_seen);
    ra_rep_json_site_time(r, si);

    /* crawlers: those of the snapshot (a view's, or every record) */
    ra_buf_cstr(b, ",\"crawlers\":[");
    for (i = r->first[si], n = 0;
         i < r->first[si + 1] && n < r->max_crawlers; i++, n++)
    {
        const ra_stat_t  *st = r->ents[i].st;

        ra_buf_cstr(b, i > r->first[si] ? ",{\"crawler\":" : "{\"crawler\":");
        ra_buf_json_str(b, ra_rep_field(st->name, st->name_len));
        ra_buf_cstr(b, ",\"token\":");
        if (st->token_len) {
            ra_buf_json_str(b, ra_rep_field(st->token, st->token_len));
        } else {
            ra_buf_cstr(b, "null");
        }
        ra_buf_printf(b, ",\"kind\":\"%s\",\"category\":",
                      st->kind == RA_UA_KNOWN ? "known"
                      : st->kind == RA_UA_GENERIC ? "generic" : "browser");
        if (st->kind == RA_UA_KNOWN) {
            ra_buf_printf(b, "\"%s\"",
                          ra_crawler_category_name(st->category));
        } else {
            ra_buf_cstr(b, "null");
        }
        ra_buf_cstr(b, ",\"purpose\":");
        if (ra_rep_purpose(st) != NULL) {
            ra_buf_printf(b, "\"%s\"", ra_rep_purpose(st));
        } else {
            ra_buf_cstr(b, "null");
        }
        ra_buf_printf(b, ",\"verification\":\"%s\"",
                      ra_verify_name(st->verification));
        ra_rep_json_method(b, st->verified_by);
        for (c = 0; c < RA_CNT_MAX; c++) {
            ra_buf_printf(b, ",\"%s\":", ra_rep_counter[c]);
            ra_buf_u64(b, st->counters[c]);
        }
        ra_buf_cstr(b, ",\"first_seen\":");
        ra_rep_json_time(b, st->first_seen);
        ra_buf_cstr(b, ",\"last_seen\":");
        ra_rep_json_time(b, st->last_seen);
        ra_rep_json_hours(b, st, r->now);
        ra_rep_json_crawler_hits(r, si, st);
        ra_polite_read(&st->polite, r->now, &peak, &gap);
        ra_buf_printf(b, ",\"peak_per_minute\":%u,\"median_gap_ms\":",
                      peak);
        if (gap >= 0) {
            ra_buf_printf(b, "%lld", (long long) gap);
        } else {
            ra_buf_cstr(b, "null");
        }
        ra_buf_cstr(b, ",\"crawl_delay_ms\":");
        if (st->crawl_delay_ms > 0) {
            ra_buf_printf(b, "%d", (int) st->crawl_delay_ms);
        } else {
            ra_buf_cstr(b, "null");
        }
        ra_buf_cstr(b, ",\"last_robots_fetch\":");
        if (st->last_fetch) {
            ra_buf_cstr(b, "{\"time\":");
            ra_rep_json_time(b, st->last_fetch);
            ra_buf_printf(b, ",\"status\":%u}", st->last_fetch_status);
        } else {
            ra_buf_cstr(b, "null");
        }
        ra_buf_ch(b, '}');
    }

    if (ra_rep_stats_total(r, si) > n) {
        r->cut = 1;
    }
    ra_buf_printf(b, "],\"crawlers_shown\":%u,\"crawlers_total\":%u", n,
                  ra_rep_stats_total(r, si));
    ra_rep_json_referrals(r, s);

    /* recent violations of this site, newest first */
    ra_buf_cstr(b, ",\"recent_violations\":[");
    id = si + 1;
    for (j = 0, n = 0; j < r->snap->nviolations && n < r->max_vio; j++) {
        const ra_violation_t  *x = &r->snap->violations[j];

        if (x->site != id) {
            continue;
        }
        ra_buf_cstr(b, n++ ? ",{\"time\":" : "{\"time\":");
        ra_rep_json_time(b, x->time);
        ra_buf_cstr(b, ",\"time_ms\":");
        ra_buf_printf(b, "%lld", (long long) x->time);
        ra_buf_printf(b, ",\"verdict\":\"%s\",\"crawler\":",
                      ra_rep_vio_verdict(x));
        ra_buf_json_str(b, ra_rep_field(x->name, x->name_len));
        ra_buf_printf(b, ",\"verification\":\"%s\",\"client\":",
                      ra_verify_name(x->verification));
        ra_buf_json_str(b, ra_rep_field(x->addr, x->addr_len));
        ra_buf_cstr(b, ",\"method\":");
        ra_buf_json_str(b, ra_rep_field(x->method, x->method_len));
        ra_buf_cstr(b, ",\"uri\":");
        ra_buf_json_str(b, ra_rep_field(x->uri, x->uri_len));
        ra_buf_printf(b, ",\"uri_truncated\":%s,\"rule\":",
                      x->uri_full_len > x->uri_len ? "true" : "false");
        if (x->pattern_len || x->line) {
            ra_buf_json_str(b, ra_rep_field(x->pattern, x->pattern_len));
        } else {
            ra_buf_cstr(b, "null");
        }
        ra_buf_printf(b, ",\"line\":%u", x->line);
        ra_rep_json_evidence(b, x);
        ra_buf_ch(b, '}');
    }
    if (s->violations_total > n) {
        r->cut = 1;
    }
    ra_buf_printf(b, "],\"recent_violations_shown\":%u,"
                  "\"recent_violations_total\":%u}", n,
                  s->violations_total > n ? s->violations_total : n);
}

/* "rdns": reverse-DNS lookups (ra_rdns.h) */
static void
ra_rep_json_rdns(ra_buf_t *b, const ra_totals_t *h)
{
    ra_buf_printf(b, ",\"rdns\":{\"pending\":%u,\"verified\":",
                  h->rdns_pending);
    ra_buf_u64(b, h->rdns_verified);
    ra_buf_cstr(b, ",\"failed\":");
    ra_buf_u64(b, h->rdns_failed);
    ra_buf_cstr(b, ",\"lookups\":");
    ra_buf_u64(b, h->rdns_lookups);
    ra_buf_cstr(b, ",\"refused\":");
    ra_buf_u64(b, h->rdns_refused);
    ra_buf_ch(b, '}');
}

/* ,"ranges":[{"file":..,"intervals":N,"modified":..,"age_seconds":N,
 * "stale":false},...]: each loaded range list's age (issue 16); modified
 * and age_seconds null when its file's time is unknown. */
static void
ra_rep_json_ranges(ra_rep_t *r)
{
    const ra_ranges_t  *rg = r->opts->ranges;
    ra_buf_t           *b = r->b;
    size_t              i;
    int64_t             age;

    if (rg == NULL) {
        return;
    }
    ra_buf_cstr(b, ",\"ranges\":[");
    for (i = 0; i < ra_ranges_lists(rg); i++) {
        ra_buf_cstr(b, i ? ",{\"file\":" : "{\"file\":");
        ra_buf_json_str(b, ra_ranges_name(rg, i));
        ra_buf_printf(b, ",\"intervals\":%zu,\"modified\":",
                      ra_ranges_intervals(rg, i));
        age = ra_ranges_age(rg, i, r->now);
        if (age < 0) {
            ra_buf_cstr(b, "null,\"age_seconds\":null");
        } else {
            ra_rep_json_time(b, ra_ranges_mtime(rg, i));
            ra_buf_printf(b, ",\"age_seconds\":%lld",
                          (long long) (age / 1000));
        }
        ra_buf_printf(b, ",\"stale\":%s}",
                      ra_ranges_stale(rg, i, r->now) ? "true" : "false");
    }
    ra_buf_ch(b, ']');
}

static void
ra_rep_json(ra_rep_t *r)
{
    const ra_totals_t      *h = &r->snap->totals;
    ra_buf_t               *b = r->b;
    uint32_t                i;

    ra_buf_cstr(b, "{\"generated\":");
    ra_rep_json_time(b, r->now);
    ra_rep_json_ranges(r);
    ra_buf_cstr(b, ",\"sites\":[");
    for (i = 0; i < r->snap->nsites && !ra_rep_over_budget(r); i++) {
        if (i) {
            ra_buf_ch(b, ',');
        }
        ra_rep_json_site(r, ra_rep_nth(r, i));
    }
    r->sites_shown = i;
    ra_buf_printf(b, "],\"sites_shown\":%u,\"sites_total\":%u,"
                  "\"truncated\":%s", i, ra_rep_sites_total(r->snap),
                  r->cut || r->snap->truncated
                  || ra_rep_sites_total(r->snap) > i ? "true" : "false");
    ra_buf_cstr(b, ",\"ledger\":{\"requests\":");
    ra_buf_u64(b, h->requests);
    ra_buf_cstr(b, ",\"crawler_requests\":");
    ra_buf_u64(b, h->crawler_requests);
    ra_buf_cstr(b, ",\"violations\":");
    ra_buf_u64(b, h->violations_total);
    ra_buf_printf(b, ",\"sites\":%u,\"stats\":%u,\"capacity\":{\"sites\":%u,"
                  "\"stats\":%u,\"violations\":%u,\"blob_bytes\":%u},"
                  "\"evictions\":{\"sites\":",
                  h->sites, h->stats, h->plan.sites,
                  h->plan.stats, h->plan.violations, h->plan.blob_bytes);
    ra_buf_u64(b, h->site_evictions);
    ra_buf_cstr(b, ",\"stats\":");
    ra_buf_u64(b, h->stat_evictions);
    ra_buf_cstr(b, ",\"blobs\":");
    ra_buf_u64(b, h->blob_evictions);
    ra_buf_cstr(b, "}}");
    ra_rep_json_rdns(b, h);
    if (r->opts->with_lines) {
        ra_buf_cstr(b, ",\"lines\":");
        ra_buf_u64(b, r->opts->lines);
        ra_buf_cstr(b, ",\"malformed_lines\":");
        ra_buf_u64(b, r->opts->malformed_lines);
    }
    ra_buf_cstr(b, "}\n");
}

/* ---- Prometheus ----------------------------------------------------- */

static void
ra_rep_prom_family(ra_buf_t *b, const char *name, const char *type,
    const char *help)
{
    ra_buf_printf(b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* reverse-DNS lookups by outcome, and those in flight */
static void
ra_rep_prom_rdns(ra_buf_t *b, const ra_totals_t *h)
{
    ra_rep_prom_family(b, "robots_audit_rdns_lookups_total", "counter",
        "Reverse-DNS lookups by outcome (refused: over the budget).");
    ra_buf_cstr(b, "robots_audit_rdns_lookups_total{result=\"verified\"} ");
    ra_buf_u64(b, h->rdns_verified);
    ra_buf_cstr(b, "\nrobots_audit_rdns_lookups_total{result=\"failed\"} ");
    ra_buf_u64(b, h->rdns_failed);
    ra_buf_cstr(b, "\nrobots_audit_rdns_lookups_total{result=\"refused\"} ");
    ra_buf_u64(b, h->rdns_refused);
    ra_buf_ch(b, '\n');
    ra_rep_prom_family(b, "robots_audit_rdns_pending", "gauge",
        "Reverse-DNS lookups in flight.");
    ra_buf_printf(b, "robots_audit_rdns_pending %u\n", h->rdns_pending);
}

static void
ra_rep_prom_site(ra_buf_t *b, const char *name, const ra_site_t *s)
{
    ra_buf_printf(b, "%s{site=\"", name);
    ra_buf_prom_label(b, ra_rep_site_name(s));
    ra_buf_ch(b, '"');
}

/* How a record's verification was decided (issue 16): the method label
 * of robots_audit_requests_total ("ranges", "rdns", "signature", "none"),
 * the record's last deciding method: a crawler decided by two methods in
 * turn (signed requests and unsigned ones) carries the latest one. */
static void
ra_rep_prom_method(ra_buf_t *b, const ra_stat_t *st)
{
    const char  *m = ra_verified_by_name(st->verified_by);

    ra_buf_printf(b, ",method=\"%s\"", *m ? m : "none");
}

/* Sums the run of entries sharing (site, label[, verification]) that
 * starts at i; returns the index after it. */
static uint32_t
ra_rep_prom_run(ra_rep_t *r, uint32_t i, int by_verification,
    int skip_impostors, uint64_t *sum, const ra_stat_t **last)
{
    const ra_rep_ent_t  *e = &r->ents[i];
    ra_str_t             label = ra_rep_label(e->st);
    uint32_t             j;
    unsigned             c;

    memset(sum, 0, RA_CNT_MAX * sizeof(uint64_t));
    *last = NULL;
    for (j = i; j < r->nents; j++) {
        const ra_rep_ent_t  *f = &r->ents[j];

        if (f->site != e->site
            || ra_rep_strcmp(ra_rep_label(f->st), label) != 0
            || (by_verification && f->st->verification
                                   != e->st->verification))
        {
            break;
        }
        if (skip_impostors && f->st->verification == RA_VERIFY_IMPOSTOR) {
            continue;
        }
        for (c = 0; c < RA_CNT_MAX; c++) {
            sum[c] += f->st->counters[c];
        }
        if (f->st->last_fetch
            && (*last == NULL || f->st->last_fetch > (*last)->last_fetch))
        {
            *last = f->st;
        }
    }
    /* generic bots: the site's aggregate, which keeps what evicted
     * records counted, so that these counters only rise */
    if (e->st->kind == RA_UA_GENERIC) {
        const ra_site_t  *s = &r->snap->sites[e->site];

        for (c = 0; c < RA_CNT_MAX; c++) {
            if (s->generic[c] > sum[c]) {
                sum[c] = s->generic[c];
            }
        }
    }
    return j;
}

/* robots_audit_ranges_age_seconds{file}: each loaded range list's age
 * (issue 16), for an alert on a refresh that stopped working; a list
 * whose file's time is unknown has no sample. */
static void
ra_rep_prom_ranges(ra_rep_t *r)
{
    const ra_ranges_t  *rg = r->opts->ranges;
    ra_buf_t           *b = r->b;
    size_t              i;
    int64_t             age;

    if (rg == NULL || ra_ranges_lists(rg) == 0) {
        return;
    }
    ra_rep_prom_family(b, "robots_audit_ranges_age_seconds", "gauge",
        "Age of each loaded IP-range file: now minus its modification time "
        "when it was loaded (older than 7 days: RA203).");
    for (i = 0; i < ra_ranges_lists(rg); i++) {
        age = ra_ranges_age(rg, i, r->now);
        if (age < 0) {
            continue;
        }
        ra_buf_cstr(b, "robots_audit_ranges_age_seconds{file=\"");
        ra_buf_prom_label(b, ra_ranges_name(rg, i));
        ra_buf_printf(b, "\"} %lld\n", (long long) (age / 1000));
    }
}

static void
ra_rep_prom(ra_rep_t *r)
{
    static const struct {
        ra_counter_e  c;
        const char   *name;
    } verdicts[] = {
        { RA_CNT_COMPLIANT, "compliant" }, { RA_CNT_VIOLATION, "violation" },
        { RA_CNT_STALE, "stale" }, { RA_CNT_UNREACHABLE, "unreachable" },
        { RA_CNT_EXEMPT, "exempt" }, { RA_CNT_UNKNOWN, "unknown" }
    };
    static const char  *sev[] = { "error", "warning", "info" };

    const ra_snapshot_t     *snap = r->snap;
    const ra_totals_t       *h = &snap->totals;
    const ra_stat_t         *last;
    const ra_version_t      *v;
    ra_buf_t                *b = r->b;
    uint64_t                 sum[RA_CNT_MAX], judged;
    uint32_t                 i, next, si;
    unsigned                 k, n;
    int                      pass;

    ra_rep_prom_family(b, "robots_audit_requests_total", "counter",
        "Crawler requests by verdict (other: robots.txt fetches and "
        "requests not judged).");
    for (i = 0; i < r->nents; i = next) {
        next = ra_rep_prom_run(r, i, 1, 0, sum, &last);
        judged = 0;
        for (k = 0; k <= sizeof(verdicts) / sizeof(verdicts[0]); k++) {
            uint64_t  val;

            if (k < sizeof(verdicts) / sizeof(verdicts[0])) {
                val = sum[verdicts[k].c];
                judged += val;
            } else {
                val = sum[RA_CNT_REQUESTS] > judged
                      ? sum[RA_CNT_REQUESTS] - judged : 0;
            }
            ra_rep_prom_site(b, "robots_audit_requests_total",
                             &snap->sites[r->ents[i].site]);
            ra_buf_cstr(b, ",crawler=\"");
            ra_buf_prom_label(b, ra_rep_label(r->ents[i].st));
            ra_buf_printf(b, "\",verification=\"%s\"",
                          ra_verify_name(r->ents[i].st->verification));
            ra_rep_prom_method(b, r->ents[i].st);
            ra_buf_printf(b, ",verdict=\"%s\"} ",
                          k < sizeof(verdicts) / sizeof(verdicts[0])
                          ? verdicts[k].name : "other");
            ra_buf_u64(b, val);
            ra_buf_ch(b, '\n');
        }
    }

    ra_rep_prom_family(b, "robots_audit_flags_total", "counter",
        "Crawler requests flagged crawl_delay (faster than the group's "
        "Crawl-delay) or no_robots_fetch (no robots.txt fetch in 24 h).");
    for (i = 0; i < r->nents; i = next) {
        next = ra_rep_prom_run(r, i, 1, 0, sum, &last);
        for (k = 0; k < 2; k++) {
            ra_rep_prom_site(b, "robots_audit_flags_total",
                             &snap->sites[r->ents[i].site]);
            ra_buf_cstr(b, ",crawler=\"");
            ra_buf_prom_label(b, ra_rep_label(r->ents[i].st));
            ra_buf_printf(b, "\",verification=\"%s\",flag=\"%s\"} ",
                          ra_verify_name(r->ents[i].st->verification),
                          k ? "no_robots_fetch" : "crawl_delay");
            ra_buf_u64(b, sum[k ? RA_CNT_NO_ROBOTS_FETCH
                                : RA_CNT_CRAWL_DELAY]);
            ra_buf_ch(b, '\n');
        }
    }

    ra_rep_prom_family(b, "robots_audit_refused_total", "counter",
        "Crawler requests answered 403 by enforce, by what it refused them "
        "for (robots_audit_enforce / RobotsAuditEnforce); each is counted "
        "in robots_audit_requests_total too.");
    for (i = 0; i < r->nents; i = next) {
        next = ra_rep_prom_run(r, i, 0, 0, sum, &last);
        for (k = RA_REFUSE_VIOLATION; k < RA_REFUSE_MAX; k++) {
            ra_rep_prom_site(b, "robots_audit_refused_total",
                             &snap->sites[r->ents[i].site]);
            ra_buf_cstr(b, ",crawler=\"");
            ra_buf_prom_label(b, ra_rep_label(r->ents[i].st));
            ra_buf_printf(b, "\",verdict=\"%s\"} ",
                          ra_refuse_name((ra_refuse_e) k));
            ra_buf_u64(b, sum[RA_CNT_REFUSED_VIOLATION + k
                              - RA_REFUSE_VIOLATION]);
            ra_buf_ch(b, '\n');
        }
    }

    /* per (site, crawler) over its verified and unverifiable records */
    for (pass = 0; pass < 2; pass++) {
        if (pass == 0) {
            ra_rep_prom_family(b, "robots_audit_robots_fetches_total",
                "counter", "robots.txt fetches by crawler (impostors "
                "excluded; status=\"all\": the ledger counts fetches, not "
                "fetches per status).");
        } else {
            ra_rep_prom_family(b, "robots_audit_robots_last_fetch_status",
                "gauge", "HTTP status of the crawler's last robots.txt "
                "fetch.");
        }
        for (i = 0; i < r->nents; i = next) {
            next = ra_rep_prom_run(r, i, 0, 1, sum, &last);
            if (pass == 1 && last == NULL) {
                continue;
            }
            if (pass == 0 && sum[RA_CNT_ROBOTS_FETCHES] == 0) {
                /* only crawlers that could fetch: skip impostor-only */
                if (last == NULL && sum[RA_CNT_REQUESTS] == 0) {
                    continue;
                }
            }
            ra_rep_prom_site(b, pass ? "robots_audit_robots_last_fetch_status"
                                     : "robots_audit_robots_fetches_total",
                             &snap->sites[r->ents[i].site]);
            ra_buf_cstr(b, ",crawler=\"");
            ra_buf_prom_label(b, ra_rep_label(r->ents[i].st));
            if (pass == 0) {
                ra_buf_cstr(b, "\",status=\"all\"} ");
                ra_buf_u64(b, sum[RA_CNT_ROBOTS_FETCHES]);
            } else {
                ra_buf_printf(b, "\"} %u", last->last_fetch_status);
            }
            ra_buf_ch(b, '\n');
        }
    }

    ra_rep_prom_ai(r);

    ra_rep_prom_family(b, "robots_audit_robots_findings", "gauge",
        "Lint findings of the site's current robots.txt by severity.");
    for (si = 0; si < snap->nsites; si++) {
        v = ra_rep_current(&snap->sites[si]);
        for (k = 0; k < 3; k++) {
            n = k == 0 ? ra_rep_errors(&snap->sites[si], v)
                : v == NULL ? 0 : k == 1 ? v->lint_warnings : v->lint_infos;
            ra_rep_prom_site(b, "robots_audit_robots_findings",
                             &snap->sites[si]);
            ra_buf_printf(b, ",severity=\"%s\"} %u\n", sev[k], n);
        }
    }

    /* labels that change only with the answer's class, never with an
     * edit of the file: sizes and ages are gauges of their own */
    ra_rep_prom_family(b, "robots_audit_robots_info", "gauge",
        "The site's last robots.txt answer: status, and the Content-Type "
        "of the current version (value always 1).");
    for (si = 0; si < snap->nsites; si++) {
        const ra_site_t  *s = &snap->sites[si];

        v = ra_rep_current(s);
        ra_rep_prom_site(b, "robots_audit_robots_info", s);
        ra_buf_printf(b, ",status=\"%u\",content_type=\"", s->robots_status);
        if (v != NULL) {
            ra_buf_prom_label(b, ra_rep_field(v->ctype, v->ctype_len));
        }
        ra_buf_cstr(b, "\"} 1\n");
    }

    ra_rep_prom_family(b, "robots_audit_robots_bytes", "gauge",
        "Size in bytes of the site's current robots.txt version as served "
        "(0: none).");
    for (si = 0; si < snap->nsites; si++) {
        v = ra_rep_current(&snap->sites[si]);
        ra_rep_prom_site(b, "robots_audit_robots_bytes", &snap->sites[si]);
        ra_buf_printf(b, "} %u\n", v ? v->size : 0);
    }

    ra_rep_prom_family(b, "robots_audit_robots_version_age_seconds", "gauge",
        "Seconds since the site's current robots.txt version was first "
        "served (absent: none).");
    for (si = 0; si < snap->nsites; si++) {
        v = ra_rep_current(&snap->sites[si]);
        if (v == NULL || v->first_seen == 0) {
            continue;
        }
        ra_rep_prom_site(b, "robots_audit_robots_version_age_seconds",
                         &snap->sites[si]);
        ra_buf_printf(b, "} %lld\n", (long long) (r->now > v->first_seen
                                      ? (r->now - v->first_seen) / 1000 : 0));
    }

    ra_rep_prom_family(b, "robots_audit_robots_unreachable_30d", "gauge",
        "1 while the site's robots.txt has answered only 5xx/429 for 30 "
        "days and its other pages answer: crawlers act as if there were "
        "none.");
    for (si = 0; si < snap->nsites; si++) {
        ra_rep_prom_site(b, "robots_audit_robots_unreachable_30d",
                         &snap->sites[si]);
        ra_buf_printf(b, "} %d\n", ra_rep_30d(&snap->sites[si], r->now));
    }

    ra_rep_prom_family(b, "robots_audit_robots_versions", "gauge",
        "robots.txt versions in force during the last 24 hours.");
    for (si = 0; si < snap->nsites; si++) {
        ra_rep_prom_site(b, "robots_audit_robots_versions", &snap->sites[si]);
        ra_buf_printf(b, "} %u\n",
                      ra_rep_versions_24h(&snap->sites[si], r->now));
    }

    ra_rep_prom_family(b, "robots_audit_robots_consecutive_failures",
        "gauge", "Consecutive 5xx/429 answers to robots.txt requests.");
    for (si = 0; si < snap->nsites; si++) {
        ra_rep_prom_site(b, "robots_audit_robots_consecutive_failures",
                         &snap->sites[si]);
        ra_buf_printf(b, "} %u\n", snap->sites[si].failures);
    }

    ra_rep_prom_family(b, "robots_audit_site_requests_total", "counter",
        "Requests the site's audit saw, by client kind.");
    for (si = 0; si < snap->nsites; si++) {
        ra_rep_prom_site(b, "robots_audit_site_requests_total",
                         &snap->sites[si]);
        ra_buf_cstr(b, ",kind=\"crawler\"} ");
        ra_buf_u64(b, snap->sites[si].counters[RA_CNT_REQUESTS]);
        ra_buf_ch(b, '\n');
        ra_rep_prom_site(b, "robots_audit_site_requests_total",
                         &snap->sites[si]);
        ra_buf_cstr(b, ",kind=\"browser\"} ");
        ra_buf_u64(b, snap->sites[si].browser_requests);
        ra_buf_ch(b, '\n');
        ra_rep_prom_site(b, "robots_audit_site_requests_total",
                         &snap->sites[si]);
        ra_buf_cstr(b, ",kind=\"no_user_agent\"} ");
        ra_buf_u64(b, snap->sites[si].no_user_agent);
        ra_buf_ch(b, '\n');
    }

    ra_rep_prom_rdns(b, h);
    ra_rep_prom_ranges(r);

    /* ledger health */
    ra_rep_prom_family(b, "robots_audit_evictions_total", "counter",
        "Ledger records evicted to make room (least recently used).");
    ra_buf_cstr(b, "robots_audit_evictions_total{table=\"sites\"} ");
    ra_buf_u64(b, h->site_evictions);
    ra_buf_cstr(b, "\nrobots_audit_evictions_total{table=\"stats\"} ");
    ra_buf_u64(b, h->stat_evictions);
    ra_buf_cstr(b, "\nrobots_audit_evictions_total{table=\"blobs\"} ");
    ra_buf_u64(b, h->blob_evictions);
    ra_buf_ch(b, '\n');

    ra_rep_prom_family(b, "robots_audit_ledger_entries", "gauge",
        "Ledger records in use.");
    ra_buf_printf(b, "robots_audit_ledger_entries{table=\"sites\"} %u\n"
                  "robots_audit_ledger_entries{table=\"stats\"} %u\n",
                  h->sites, h->stats);
    ra_rep_prom_family(b, "robots_audit_ledger_capacity", "gauge",
        "Ledger records the region holds.");
    ra_buf_printf(b, "robots_audit_ledger_capacity{table=\"sites\"} %u\n"
                  "robots_audit_ledger_capacity{table=\"stats\"} %u\n"
                  "robots_audit_ledger_capacity{table=\"violations\"} %u\n",
                  h->plan.sites, h->plan.stats, h->plan.violations);
    ra_rep_prom_family(b, "robots_audit_ledger_blob_free_bytes", "gauge",
        "Free bytes of the robots.txt body heap.");
    ra_buf_printf(b, "robots_audit_ledger_blob_free_bytes %u\n",
                  h->blob_free_bytes);
    ra_rep_prom_family(b, "robots_audit_judged_requests_total", "counter",
        "Crawler requests the audit engine judged or counted as robots.txt "
        "fetches, all sites (not browsers').");
    ra_buf_cstr(b, "robots_audit_judged_requests_total ");
    ra_buf_u64(b, h->crawler_requests);
    ra_buf_ch(b, '\n');
    ra_rep_prom_family(b, "robots_audit_violations_total", "counter",
        "Violations recorded, all sites.");
    ra_buf_cstr(b, "robots_audit_violations_total ");
    ra_buf_u64(b, h->violations_total);
    ra_buf_ch(b, '\n');

    if (r->opts->with_lines) {
        ra_rep_prom_family(b, "robots_audit_log_lines_total", "counter",
            "Access-log lines read (malformed: not in the log's format).");
        ra_buf_cstr(b, "robots_audit_log_lines_total{result=\"parsed\"} ");
        ra_buf_u64(b, r->opts->lines - (r->opts->malformed_lines
                                        <= r->opts->lines
                                        ? r->opts->malformed_lines
                                        : r->opts->lines));
        ra_buf_cstr(b, "\nrobots_audit_log_lines_total"
                    "{result=\"malformed\"} ");
        ra_buf_u64(b, r->opts->malformed_lines);
        ra_buf_ch(b, '\n');
    }
}

/* ---- text ----------------------------------------------------------- */

/* Escaped, padded to width (columns: escapes count as what they print). */
static void
ra_rep_text_cell(ra_buf_t *b, ra_str_t s, size_t width)
{
    size_t  start = b->len;

    ra_buf_log(b, s);
    while (b->len - start < width && !b->failed && !b->truncated) {
        ra_buf_ch(b, ' ');
    }
}

/*
 * What the site's robots.txt states beyond crawl rules (from its lint):
 * AI-preference lines (Content-Signal, Content-Usage) and the groups for
 * policy tokens, listed as policy, not as crawlers that never came.
 */
static void
ra_rep_prefs(ra_rep_t *r, uint32_t si, int html)
{
    const ra_lint_t  *l = r->lints[si];
    ra_buf_t         *b = r->b;
    uint32_t          i, k;
    static const char *what[] = { "Content-Signal", "Content-Usage" };

    if (l == NULL || l->nprefs == 0) {
        return;
    }
    for (k = 0; k < 2; k++) {
        int  any = 0;

        for (i = 0; i < l->nprefs; i++) {
            const ra_lint_pref_t  *p = &l->prefs[i];
            ra_str_t               agent = ra_str(p->agent, strlen(p->agent));
            ra_str_t               text = ra_str(p->text, strlen(p->text));

            if ((k == 0) != (p->kind != RA_LINT_PREF_POLICY)) {
                continue;
            }
            if (!any) {
                ra_buf_cstr(b, html ? (k == 0 ? "<dl><dt>AI preferences"
                                              "</dt><dd>"
                                              : "<dl><dt>policy tokens"
                                                "</dt><dd>")
                                    : (k == 0 ? "  AI preferences: "
                                              : "  policy tokens (no "
                                                "crawler fetches with "
                                                "them): "));
            } else {
                ra_buf_cstr(b, html ? "<br>" : "; ");
            }
            any = 1;
            if (p->kind == RA_LINT_PREF_POLICY) {
                if (html) {
                    ra_buf_cstr(b, "<code>");
                    ra_buf_html(b, agent);
                    ra_buf_printf(b, "</code> <span class=\"muted\">(line "
                                  "%u): policy, controls use of content "
                                  "for ", p->line);
                    ra_buf_html(b, text);
                    ra_buf_cstr(b, "</span>");
                } else {
                    ra_buf_log(b, agent);
                    ra_buf_printf(b, " (line %u): controls use of content "
                                  "for ", p->line);
                    ra_buf_log(b, text);
                }
                continue;
            }
            if (html) {
                ra_buf_printf(b, "<code>%s: ", what[p->kind]);
                ra_buf_html(b, text);
                ra_buf_cstr(b, "</code> <span class=\"muted\">for ");
                ra_buf_html(b, agent.len ? agent : ra_str("no group", 8));
                ra_buf_printf(b, " (line %u)</span>", p->line);
            } else {
                ra_buf_printf(b, "%s: ", what[p->kind]);
                ra_buf_log(b, text);
                ra_buf_cstr(b, " for ");
                ra_buf_log(b, agent.len ? agent : ra_str("no group", 8));
                ra_buf_printf(b, " (line %u)", p->line);
            }
        }
        if (any) {
            if (k == 0 && l->more_prefs) {
                ra_buf_printf(b, html ? "<br>%u more" : "; %u more",
                              l->more_prefs);
            }
            ra_buf_cstr(b, html ? "</dd></dl>" : "\n");
        }
    }
}

static void
ra_rep_text_robots(ra_rep_t *r, uint32_t si)
{
    const ra_site_t     *s = &r->snap->sites[si];
    const ra_version_t  *v = ra_rep_current(s);
    const ra_lint_t     *l = r->lints[si];
    ra_buf_t            *b = r->b;
    unsigned             n;
    uint32_t             i;

    ra_buf_cstr(b, "  robots.txt: ");
    if (s->robots_status == 0 && v == NULL) {
        ra_buf_cstr(b, "never fetched\n");
    } else {
        ra_buf_printf(b, "status %u", s->robots_status);
        if (s->robots_status
            && ra_answer_of_status(s->robots_status) == RA_ANSWER_UNREACHABLE)
        {
            /* the answer as it was, then the file still in force */
            ra_buf_printf(b, " (unreachable), ");
            if (s->last_ctype_len) {
                ra_buf_log(b, ra_rep_field(s->last_ctype,
                                           s->last_ctype_len));
                ra_buf_cstr(b, ", ");
            }
            ra_buf_printf(b, "%u bytes; in force:", s->last_size);
        }
        if (v != NULL) {
            char  hex[2 * RA_SHA256_LEN + 1];

            ra_hex(v->sha256, RA_SHA256_LEN, hex);
            ra_buf_printf(b, " (%s), ", ra_rep_answer_name(v->answer));
            if (v->ctype_len) {
                ra_buf_log(b, ra_rep_field(v->ctype, v->ctype_len));
                ra_buf_cstr(b, ", ");
            }
            ra_rep_size(b, v, 0);
            ra_buf_printf(b, ", sha256 %.12s", hex);
            ra_buf_printf(b, "; %u group%s, %u rule%s, %u sitemap%s",
                          v->groups, v->groups == 1 ? "" : "s",
                          v->rules, v->rules == 1 ? "" : "s",
                          v->sitemaps, v->sitemaps == 1 ? "" : "s");
        }
        n = ra_rep_versions_24h(s, r->now);
        ra_buf_printf(b, "; %u version%s in 24 h", n, n == 1 ? "" : "s");
        if (s->robots_date) {
            ra_buf_cstr(b, "; answered ");
            ra_rep_iso(b, s->robots_date);
        }
        if (s->failures) {
            ra_buf_printf(b, "; %u consecutive failure%s", s->failures,
                          s->failures == 1 ? "" : "s");
        }
        ra_buf_ch(b, '\n');
        if (ra_rep_30d(s, r->now)) {
            ra_buf_cstr(b, "  unreachable_30d: robots.txt has failed since ");
            ra_rep_iso(b, s->failing_since);
            ra_buf_cstr(b, " while the site answers: crawlers act as if "
                        "there were none (all allowed)\n");
        }
        for (n = 0; n < s->redirect_n && n < RA_REDIRECT_HOPS; n++) {
            ra_buf_cstr(b, n ? " -> " : "  redirected to ");
            ra_buf_log(b, ra_rep_field(s->redirect[n], s->redirect_len[n]));
            ra_buf_cstr(b, n + 1 == s->redirect_n ? "\n" : "");
        }
        if (s->undecodable) {
            ra_buf_cstr(b, "  last answer: Content-Encoding ");
            ra_buf_log(b, ra_rep_field(s->bad_coding, s->bad_coding_len));
            ra_buf_cstr(b, " could not be decoded since ");
            ra_rep_iso(b, s->undecodable);
            ra_buf_cstr(b, "; the version above stays in force\n");
        }
        if (v != NULL || s->undecodable) {
            n = ra_rep_errors(s, v);
            ra_buf_printf(b, "  lint: %u error%s, %u warning%s, %u info%s\n",
                          n, n == 1 ? "" : "s",
                          v ? v->lint_warnings : 0,
                          v && v->lint_warnings == 1 ? "" : "s",
                          v ? v->lint_infos : 0,
                          v && v->lint_infos == 1 ? "" : "s");
        }
    }
    ra_rep_prefs(r, si, 0);
    if (l != NULL) {
        for (i = 0; i < l->nfindings && i < r->max_findings; i++) {
            const ra_lint_finding_t  *f = &l->findings[i];

            ra_buf_printf(b, "    %u:%u: %s: ", f->line, f->column,
                          ra_lint_severity_name(f->severity));
            ra_buf_log(b, f->message);
            ra_buf_printf(b, " [%s]\n", ra_lint_code_name(f->code));
        }
        if (l->nfindings > r->max_findings || l->summary.suppressed) {
            ra_buf_printf(b, "    (%u more findings not shown)\n",
                          l->summary.suppressed
                          + (l->nfindings > r->max_findings
                             ? l->nfindings - r->max_findings : 0));
        }
    }
}

static void
ra_rep_text_row(ra_buf_t *b, ra_str_t name, const char *verif,
    const uint64_t *c, const ra_stat_t *st, int64_t now)
{
    uint64_t     judged = ra_rep_judged(c);
    unsigned     pm;
    uint32_t     peak;
    int64_t      gap;
    size_t       start;
    const char  *purpose = st != NULL ? ra_rep_purpose(st) : NULL;

    ra_buf_cstr(b, "  ");
    ra_rep_text_cell(b, name, 32);
    ra_buf_printf(b, " %-12s %-16s %9llu %6llu %5llu %9llu %9llu %6llu "
                  "%7llu %6llu %7llu %6llu %8llu", verif,
                  purpose != NULL ? purpose : "-",
                  (unsigned long long) c[RA_CNT_REQUESTS],
                  (unsigned long long) c[RA_CNT_ROBOTS_FETCHES],
                  (unsigned long long) c[RA_CNT_LLMS_FETCHES],
                  (unsigned long long) c[RA_CNT_COMPLIANT],
                  (unsigned long long) c[RA_CNT_VIOLATION],
                  (unsigned long long) c[RA_CNT_STALE],
                  (unsigned long long) c[RA_CNT_UNREACHABLE],
                  (unsigned long long) c[RA_CNT_EXEMPT],
                  (unsigned long long) c[RA_CNT_UNKNOWN],
                  (unsigned long long) c[RA_CNT_CRAWL_DELAY],
                  (unsigned long long) c[RA_CNT_NO_ROBOTS_FETCH]);
    if (judged) {
        pm = ra_rep_permille(c[RA_CNT_COMPLIANT] + c[RA_CNT_STALE]
                             + c[RA_CNT_EXEMPT], judged);
        ra_buf_printf(b, " %5u.%u%%", pm / 10, pm % 10);
    } else {
        ra_buf_cstr(b, "       -");
    }
    /* politeness: peak per minute, median gap, its Crawl-delay */
    if (st != NULL) {
        ra_polite_read(&st->polite, now, &peak, &gap);
        ra_buf_printf(b, " %8u ", peak);
        start = b->len;
        ra_rep_gap(b, gap);
        while (b->len - start < 10 && !b->failed && !b->truncated) {
            ra_buf_ch(b, ' ');
        }
        ra_rep_ms(b, st->crawl_delay_ms > 0 ? st->crawl_delay_ms : -1);
    }
    ra_buf_ch(b, '\n');
}

static void
ra_rep_text_site(ra_rep_t *r, uint32_t si)
{
    const ra_site_t  *s = &r->snap->sites[si];
    ra_buf_t         *b = r->b;
    uint64_t          rest[RA_CNT_MAX];
    uint32_t          i, j, n, id, others = 0;
    unsigned          c;
    char              label[RA_REPORT_LABEL_MAX];

    ra_buf_cstr(b, "site ");
    ra_buf_log(b, ra_rep_site_name(s));
    ra_buf_cstr(b, ": ");
    ra_buf_u64(b, s->counters[RA_CNT_REQUESTS]);
    ra_buf_cstr(b, " crawler requests, ");
    ra_buf_u64(b, s->browser_requests);
    ra_buf_cstr(b, " from browsers, ");
    ra_buf_u64(b, s->no_user_agent);
    ra_buf_cstr(b, " without User-Agent\n");
    ra_rep_text_robots(r, si);

    if (r->first[si] == r->first[si + 1]) {
        ra_buf_cstr(b, "  no crawler seen\n");
    } else {
        ra_buf_printf(b, "  %-32s %-12s %-16s %9s %6s %5s %9s %9s %6s %7s "
                      "%6s %7s %6s %8s %7s %8s %-10s %s\n", "crawler",
                      "verification", "purpose", "requests", "robots", "llms",
                      "compliant", "violation", "stale",
                      "unreach", "exempt", "unknown", "delay", "no-fetch",
                      "ok", "peak/min", "gap", "crawl-delay");
    }
    memset(rest, 0, sizeof(rest));
    for (i = r->first[si], n = 0; i < r->first[si + 1]; i++, n++) {
        const ra_stat_t  *st = r->ents[i].st;

        if (n >= r->max_crawlers) {
            for (c = 0; c < RA_CNT_MAX; c++) {
                rest[c] += st->counters[c];
            }
            others++;
            continue;
        }
        ra_rep_text_row(b, ra_str(label, ra_report_label(st->kind,
                            ra_rep_field(st->name, st->name_len), label,
                            sizeof(label))),
                        ra_verify_name(st->verification), st->counters, st,
                        r->now);
    }
    if (others) {
        int   len;

        len = snprintf(label, sizeof(label), "(%u others)", others);
        ra_rep_text_row(b, ra_str(label, (size_t) len), "-", rest, NULL,
                        r->now);
    }
    if (ra_rep_stats_total(r, si) > r->first[si + 1] - r->first[si]) {
        ra_buf_printf(b, "  showing %u of %u crawler records\n",
                      r->first[si + 1] - r->first[si],
                      ra_rep_stats_total(r, si));
    }
    ra_rep_text_referrals(r, s);

    id = si + 1;
    for (j = 0, n = 0; j < r->snap->nviolations && n < r->max_vio; j++) {
        const ra_violation_t  *x = &r->snap->violations[j];

        if (x->site != id) {
            continue;
        }
        if (n++ == 0) {
            ra_buf_cstr(b, "  recent violations, newest first:\n");
        }
        ra_buf_cstr(b, "    ");
        ra_rep_iso(b, x->time);
        ra_buf_printf(b, " %s ", ra_rep_vio_verdict(x));
        ra_buf_log(b, ra_rep_field(x->name, x->name_len));
        ra_buf_printf(b, " (%s) ", ra_verify_name(x->verification));
        ra_buf_log(b, ra_rep_field(x->addr, x->addr_len));
        ra_buf_ch(b, ' ');
        ra_buf_log(b, ra_rep_field(x->method, x->method_len));
        ra_buf_ch(b, ' ');
        ra_buf_log(b, ra_rep_field(x->uri, x->uri_len));
        if (x->uri_full_len > x->uri_len) {
            ra_buf_cstr(b, "...");
        }
        if (x->line) {
            ra_buf_cstr(b, "  rule '");
            ra_buf_log(b, ra_rep_field(x->pattern, x->pattern_len));
            ra_buf_printf(b, "' line %u", x->line);
        }
        ra_buf_ch(b, '\n');
    }
}

static void
ra_rep_text(ra_rep_t *r)
{
    ra_buf_t  *b = r->b;
    uint32_t   i;

    ra_buf_cstr(b, "robots-audit report, ");
    ra_rep_iso(b, r->now);
    if (r->opts->with_lines) {
        ra_buf_cstr(b, ": ");
        ra_buf_u64(b, r->opts->lines);
        ra_buf_cstr(b, " lines, ");
        ra_buf_u64(b, r->opts->malformed_lines);
        ra_buf_cstr(b, " malformed");
    }
    ra_buf_ch(b, '\n');
    for (i = 0; i < r->snap->nsites && !ra_rep_over_budget(r); i++) {
        ra_buf_ch(b, '\n');
        ra_rep_text_site(r, ra_rep_nth(r, i));
    }
    if (ra_rep_sites_total(r->snap) > i) {
        ra_buf_printf(b, "\nshowing %u of %u sites\n", i,
                      ra_rep_sites_total(r->snap));
    }
    if (r->snap->totals.site_evictions || r->snap->totals.stat_evictions) {
        ra_buf_cstr(b, "\nledger evictions: sites ");
        ra_buf_u64(b, r->snap->totals.site_evictions);
        ra_buf_cstr(b, ", crawler records ");
        ra_buf_u64(b, r->snap->totals.stat_evictions);
        ra_buf_ch(b, '\n');
    }
}

/* ---- HTML ----------------------------------------------------------- */

static const char  ra_rep_css[] =
    "body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222;"
    "background:#fafafa}"
    "h1{font-size:1.4em;margin:0 0 .2em}h2{font-size:1.2em;margin:0 0 .5em}"
    "section{background:#fff;border:1px solid #ddd;border-radius:6px;"
    "padding:1em;margin:1em 0}"
    "table{border-collapse:collapse;width:100%;margin:.5em 0}"
    "th,td{padding:.25em .5em;border-bottom:1px solid #eee;text-align:left;"
    "vertical-align:top}"
    "td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}"
    "dl{display:grid;grid-template-columns:max-content 1fr;gap:.1em 1em;"
    "margin:0}dt{color:#666}dd{margin:0}"
    ".muted{color:#777}.err{color:#b00020}.warn{color:#a15c00}"
    ".bad{color:#b00020;font-weight:bold}.good{color:#1b7a2f}"
    ".bar{display:inline-flex;width:7em;height:.8em;background:#eee;"
    "border-radius:3px;overflow:hidden;vertical-align:middle;"
    "margin-right:.4em}td.nw{white-space:nowrap}"
    ".bar span{display:block;height:100%}"
    ".c{background:#2e9e4f}.s{background:#8bc34a}.e{background:#90a4ae}"
    ".v{background:#d32f2f}.u{background:#ff9800}"
    "code{font:12px ui-monospace,monospace;word-break:break-all}"
    "summary{cursor:pointer}"
    ".health{font-size:.75em;font-weight:normal;padding:.15em .6em;"
    "border-radius:1em;margin-left:.6em;vertical-align:middle;color:#fff}"
    ".h-ok{background:#2e7d32}.h-warn{background:#b26a00}"
    ".h-bad{background:#b00020}.h-none{background:#78909c}"
    ".wide{overflow-x:auto}.wide table{font-size:13px}"
    ".wide th,.wide td{padding:.2em .35em}"
    ".wide td code{word-break:normal}"
    /* issue 18: nothing wider than the screen; tables scroll in their
     * box; the robots.txt in force with its counts */
    "h2,p,dd{overflow-wrap:anywhere}"
    ".wide{max-width:100%}"
    "pre.robots{font:12px/1.5 ui-monospace,monospace;margin:.3em 0;"
    "overflow-x:auto;max-height:32em;background:#f6f6f6;padding:.4em}"
    ".ln{display:inline-block;min-width:3.5em;color:#999;text-align:right;"
    "margin-right:.8em}"
    ".hit{color:#555;margin-left:1em}"
    ".hit.bad{color:#b00020;font-weight:bold}"
    ".spark{vertical-align:middle;margin-left:.4em}"
    "a{color:#0b57d0}"
    "@media (max-width:600px){body{margin:.5em}"
    "section{padding:.6em}}";

/* The status page's "verified by" column: the method, or a dash. */
static void
ra_rep_html_verified_by(ra_buf_t *b, const ra_stat_t *st)
{
    const char  *m = ra_verified_by_name(st->verified_by);

    if (*m) {
        ra_buf_printf(b, "<td>%s</td>", m);
    } else {
        ra_buf_cstr(b, "<td class=\"muted\">&ndash;</td>");
    }
}

static void
ra_rep_html_num(ra_buf_t *b, uint64_t v, int bad)
{
    ra_buf_cstr(b, bad && v ? "<td class=\"n bad\">" : "<td class=\"n\">");
    ra_buf_u64(b, v);
    ra_buf_cstr(b, "</td>");
}

static void
ra_rep_html_bar(ra_buf_t *b, const uint64_t *c)
{
    static const struct {
        ra_counter_e  c;
        const char   *cls;
    } parts[] = {
        { RA_CNT_COMPLIANT, "c" }, { RA_CNT_STALE, "s" },
        { RA_CNT_EXEMPT, "e" }, { RA_CNT_UNREACHABLE, "u" },
        { RA_CNT_VIOLATION, "v" }
    };
    uint64_t  judged = ra_rep_judged(c);
    unsigned  i, pm;

    if (judged == 0) {
        ra_buf_cstr(b, "<td class=\"muted\">no judged request</td>");
        return;
    }
    ra_buf_printf(b, "<td class=\"nw\"><div class=\"bar\" title=\"%u%% "
                  "compliant, stale or exempt\">",
                  ra_rep_pct(c[RA_CNT_COMPLIANT] + c[RA_CNT_STALE]
                             + c[RA_CNT_EXEMPT], judged));
    for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
        pm = ra_rep_permille(c[parts[i].c], judged);
        if (pm) {
            ra_buf_printf(b, "<span class=\"%s\" style=\"width:%u.%u%%\">"
                          "</span>", parts[i].cls, pm / 10, pm % 10);
        }
    }
    ra_buf_printf(b, "</div>%u%%</td>",
                  ra_rep_pct(c[RA_CNT_COMPLIANT] + c[RA_CNT_STALE]
                             + c[RA_CNT_EXEMPT], judged));
}

/* The site's robots.txt health at a glance, a badge beside its name:
 * failing (5xx/429 answers: crawlers must stop), never fetched, lint
 * errors, answered 4xx (everything allowed), or OK. */
static void
ra_rep_html_health(ra_buf_t *b, const ra_site_t *s, int64_t now)
{
    const ra_version_t  *v = ra_rep_current(s);

    if (ra_rep_30d(s, now)) {
        ra_buf_printf(b, "<span class=\"health h-warn\">unreachable_30d: "
                      "robots.txt failing (%u) for 30 days while the site "
                      "answers, crawlers act as if there were none (all "
                      "allowed)</span>", s->robots_status);
    } else if (s->failures
        || (v != NULL && v->answer == RA_ANSWER_UNREACHABLE))
    {
        ra_buf_printf(b, "<span class=\"health h-bad\">robots.txt failing: "
                      "%u, crawlers must stop</span>", s->robots_status);
    } else if (s->undecodable) {
        ra_buf_cstr(b, "<span class=\"health h-warn\">robots.txt could not "
                    "be decoded (Content-Encoding: ");
        ra_buf_html(b, ra_rep_field(s->bad_coding, s->bad_coding_len));
        ra_buf_cstr(b, ")</span>");
    } else if (s->robots_status == 0 || v == NULL) {
        ra_buf_cstr(b, "<span class=\"health h-none\">robots.txt never "
                    "fetched</span>");
    } else if (v->lint_errors) {
        ra_buf_printf(b, "<span class=\"health h-warn\">robots.txt: %u "
                      "lint error%s</span>", v->lint_errors,
                      v->lint_errors == 1 ? "" : "s");
    } else if (v->answer == RA_ANSWER_ALLOW_ALL) {
        ra_buf_printf(b, "<span class=\"health h-warn\">robots.txt %u: "
                      "everything allowed</span>", s->robots_status);
    } else {
        ra_buf_cstr(b, "<span class=\"health h-ok\">robots.txt OK</span>");
    }
}

static void ra_rep_html_robots_text(ra_rep_t *r, uint32_t si);

static void
ra_rep_html_robots(ra_rep_t *r, uint32_t si)
{
    const ra_site_t     *s = &r->snap->sites[si];
    const ra_version_t  *v = ra_rep_current(s);
    const ra_lint_t     *l = r->lints[si];
    ra_buf_t            *b = r->b;
    uint32_t             i;

    ra_buf_cstr(b, "<h3>robots.txt</h3><dl><dt>last answer</dt><dd>");
    if (s->robots_status) {
        ra_buf_printf(b, "%u <span class=\"muted\">(%s)</span>, ",
                      s->robots_status, ra_rep_last_answer(s));
        if (s->last_ctype_len) {
            ra_buf_cstr(b, "<code>");
            ra_buf_html(b, ra_rep_field(s->last_ctype, s->last_ctype_len));
            ra_buf_cstr(b, "</code>, ");
        }
        ra_buf_printf(b, "%u bytes", s->last_size);
    } else {
        ra_buf_cstr(b, "<span class=\"muted\">never fetched</span>");
    }
    ra_buf_cstr(b, "</dd><dt>in force</dt><dd>");
    if (v != NULL) {
        char  hex[2 * RA_SHA256_LEN + 1];

        ra_hex(v->sha256, RA_SHA256_LEN, hex);
        ra_buf_printf(b, "%u <span class=\"muted\">(%s)</span> since ",
                      v->status, ra_rep_answer_name(v->answer));
        ra_rep_iso(b, v->first_seen);
        ra_buf_cstr(b, ", ");
        if (v->ctype_len) {
            ra_buf_cstr(b, "<code>");
            ra_buf_html(b, ra_rep_field(v->ctype, v->ctype_len));
            ra_buf_cstr(b, "</code>, ");
        }
        ra_rep_size(b, v, 1);
        ra_buf_printf(b, ", sha256 <code title=\"%s\">%.12s</code>", hex,
                      hex);
    } else {
        ra_buf_cstr(b, "<span class=\"muted\">no robots.txt known</span>");
    }
    ra_buf_printf(b, "</dd><dt>versions in 24 h</dt><dd>%u</dd>",
                  ra_rep_versions_24h(s, r->now));
    if (s->redirect_n) {
        ra_buf_cstr(b, "<dt>redirected to</dt><dd>");
        for (i = 0; i < s->redirect_n && i < RA_REDIRECT_HOPS; i++) {
            ra_buf_cstr(b, i ? " &rarr; <code>" : "<code>");
            ra_buf_html(b, ra_rep_field(s->redirect[i], s->redirect_len[i]));
            ra_buf_cstr(b, "</code>");
        }
        ra_buf_cstr(b, " <span class=\"muted\">(followed: the file in "
                    "force is the last one's answer)</span></dd>");
    }
    if (s->undecodable) {
        ra_buf_cstr(b, "<dt>last answer</dt><dd class=\"warn\">"
                    "Content-Encoding <code>");
        ra_buf_html(b, ra_rep_field(s->bad_coding, s->bad_coding_len));
        ra_buf_cstr(b, "</code> could not be decoded since ");
        ra_rep_iso(b, s->undecodable);
        ra_buf_cstr(b, ": the version shown stays in force</dd>");
    }
    if (v != NULL) {
        ra_buf_printf(b, "<dt>content</dt><dd>%u group%s, %u rule%s, "
                      "%u sitemap%s</dd><dt>lint</dt><dd>"
                      "<span class=\"%s\">%u error%s</span>, "
                      "<span class=\"%s\">%u warning%s</span>, "
                      "%u info%s</dd>",
                      v->groups, v->groups == 1 ? "" : "s",
                      v->rules, v->rules == 1 ? "" : "s",
                      v->sitemaps, v->sitemaps == 1 ? "" : "s",
                      ra_rep_errors(s, v) ? "err" : "good",
                      ra_rep_errors(s, v),
                      ra_rep_errors(s, v) == 1 ? "" : "s",
                      v->lint_warnings ? "warn" : "good",
                      v->lint_warnings, v->lint_warnings == 1 ? "" : "s",
                      v->lint_infos, v->lint_infos == 1 ? "" : "s");
    }
    ra_buf_cstr(b, "<dt>robots date</dt><dd>");
    if (s->robots_date) {
        ra_rep_iso(b, s->robots_date);
    } else {
        ra_buf_cstr(b, "-");
    }
    ra_buf_printf(b, "</dd><dt>consecutive failures</dt><dd%s>%u</dd></dl>",
                  s->failures ? " class=\"bad\"" : "", s->failures);
    ra_rep_prefs(r, si, 1);
    ra_rep_html_robots_text(r, si);

    if (l == NULL || l->nfindings == 0) {
        return;
    }
    ra_buf_printf(b, "<details%s><summary>%u finding%s</summary><table>"
                  "<tr><th class=\"n\">line</th><th>severity</th>"
                  "<th>finding</th><th>code</th></tr>",
                  l->summary.errors ? " open" : "", l->nfindings,
                  l->nfindings == 1 ? "" : "s");
    for (i = 0; i < l->nfindings && i < r->max_findings; i++) {
        const ra_lint_finding_t  *f = &l->findings[i];

        ra_buf_printf(b, "<tr><td class=\"n\">%u:%u</td><td class=\"%s\">%s"
                      "</td><td>", f->line, f->column,
                      f->severity == RA_SEV_ERROR ? "err"
                      : f->severity == RA_SEV_WARNING ? "warn" : "muted",
                      ra_lint_severity_name(f->severity));
        ra_buf_html(b, f->message);
        ra_buf_printf(b, "</td><td><code>%s</code></td></tr>",
                      ra_lint_code_name(f->code));
    }
    ra_buf_cstr(b, "</table>");
    if (l->nfindings > r->max_findings || l->summary.suppressed) {
        ra_buf_printf(b, "<p class=\"muted\">%u more not shown</p>",
                      l->summary.suppressed
                      + (l->nfindings > r->max_findings
                         ? l->nfindings - r->max_findings : 0));
    }
    ra_buf_cstr(b, "</details>");
}


/* ---- HTML additions (issue 18) ---------------------------------------- */

/* An inline SVG of the site's requests (grey) and violations (red) per
 * hour over the last 24 hours, oldest left; no script. */
static void
ra_rep_html_spark(ra_buf_t *b, const ra_site_t *s, int64_t now)
{
    uint32_t  req[RA_HOURS], vio[RA_HOURS], hour, max = 0, k;
    unsigned  i, j;

    hour = now > 0 ? (uint32_t) (now / RA_HOUR_MS) : 0;
    for (i = 0; i < RA_HOURS; i++) {
        req[i] = vio[i] = 0;
    }
    for (i = 0; i < RA_HOURS; i++) {
        k = s->spark[i].hour;
        if (k == 0 || k > hour || hour - k >= RA_HOURS) {
            continue;
        }
        j = RA_HOURS - 1 - (hour - k);
        req[j] = s->spark[i].requests + s->spark[i].violations;
        vio[j] = s->spark[i].violations;
        if (req[j] > max) {
            max = req[j];
        }
    }
    ra_buf_printf(b, "<svg class=\"spark\" width=\"120\" height=\"24\" "
                  "viewBox=\"0 0 %u 24\" role=\"img\"><title>requests "
                  "(grey) and violations (red) per hour, last 24 hours; "
                  "busiest hour %u</title>", RA_HOURS * 5, max);
    for (i = 0; i < RA_HOURS && max; i++) {
        if (req[i]) {
            k = (uint32_t) ((uint64_t) req[i] * 23 / max);
            ra_buf_printf(b, "<rect x=\"%u\" y=\"%u\" width=\"4\" "
                          "height=\"%u\" fill=\"#9e9e9e\"/>", i * 5,
                          23 - k, k + 1);
        }
        if (vio[i]) {
            k = (uint32_t) ((uint64_t) vio[i] * 23 / max);
            ra_buf_printf(b, "<rect x=\"%u\" y=\"%u\" width=\"4\" "
                          "height=\"%u\" fill=\"#d32f2f\"/>", i * 5,
                          23 - k, k + 1);
        }
    }
    ra_buf_cstr(b, "<line x1=\"0\" y1=\"23.5\" x2=\"120\" y2=\"23.5\" "
                "stroke=\"#ccc\"/></svg>");
}

/* Counting since, and the last 24 hours at a glance. */
static void
ra_rep_html_time(ra_rep_t *r, uint32_t si)
{
    const ra_site_t  *s = &r->snap->sites[si];
    ra_buf_t         *b = r->b;

    ra_buf_cstr(b, "<p class=\"muted\">counting since ");
    ra_rep_iso(b, s->created);
    ra_buf_cstr(b, " &middot; last 24 h:");
    ra_rep_html_spark(b, s, r->now);
    ra_buf_cstr(b, "</p>");
}

/* Context for printing the robots.txt in force line by line. */
typedef struct {
    ra_buf_t             *b;
    const ra_rep_hits_t  *h;
    uint32_t              shown;
    uint32_t              hidden;
} ra_rep_lines_t;

#define RA_REP_ROBOTS_LINES  300        /* lines shown (and any counted) */
#define RA_REP_ROBOTS_WIDTH  200        /* bytes of a line shown */

static int
ra_rep_html_line(void *ctx, const ra_line_t *ln)
{
    ra_rep_lines_t  *x = ctx;
    ra_buf_t        *b = x->b;
    unsigned         i;
    const ra_rule_hit_t  *hit = NULL;

    for (i = 0; i < x->h->n; i++) {
        if (x->h->hits[i].line == ln->line) {
            hit = &x->h->hits[i];
            break;
        }
    }
    if (ln->line > RA_REP_ROBOTS_LINES && hit == NULL) {
        x->hidden++;
        return RA_OK;
    }
    if (x->hidden && ln->line > RA_REP_ROBOTS_LINES) {
        ra_buf_printf(b, "<span class=\"ln\">&hellip;</span>"
                      "<span class=\"muted\">%u line%s"
                      "</span>\n", x->hidden, x->hidden == 1 ? "" : "s");
        x->hidden = 0;
    }
    ra_buf_printf(b, "<span class=\"ln\">%u</span>", ln->line);
    ra_buf_html(b, ra_str(ln->raw.data, ln->raw.len < RA_REP_ROBOTS_WIDTH
                                        ? ln->raw.len
                                        : RA_REP_ROBOTS_WIDTH));
    if (ln->raw.len > RA_REP_ROBOTS_WIDTH) {
        ra_buf_cstr(b, "&hellip;");
    }
    if (hit != NULL) {
        ra_buf_printf(b, "<span class=\"hit%s\">",
                      hit->violations ? " bad" : "");
        ra_buf_u64(b, hit->matched);
        ra_buf_cstr(b, hit->allow ? " allowed" : " disallowed");
        if (hit->violations) {
            ra_buf_cstr(b, ", ");
            ra_buf_u64(b, hit->violations);
            ra_buf_cstr(b, hit->violations == 1 ? " violation"
                                                : " violations");
        }
        ra_buf_cstr(b, "</span>");
    }
    ra_buf_ch(b, '\n');
    x->shown++;
    return RA_OK;
}

/* The robots.txt in force as text, each line with the requests it
 * decided (allowed or disallowed) and the violations among them. */
static void
ra_rep_html_robots_text(ra_rep_t *r, uint32_t si)
{
    const ra_site_t     *s = &r->snap->sites[si];
    const ra_version_t  *v = ra_rep_current(s);
    ra_buf_t            *b = r->b;
    ra_rep_hits_t        h;
    ra_rep_lines_t       x;
    char                 hex[2 * RA_SHA256_LEN + 1];

    if (v == NULL || v->answer != RA_ANSWER_RULES) {
        return;
    }
    ra_rep_hits(r, si, &h);
    ra_hex(v->sha256, RA_SHA256_LEN, hex);
    ra_buf_cstr(b, "<details open><summary>robots.txt in force: ");
    ra_rep_size(b, v, 1);
    ra_buf_cstr(b, ", since ");
    ra_rep_iso(b, v->first_seen);
    ra_buf_printf(b, ", sha256 <code>%s</code></summary>", hex);
    if (r->snap->bodies == NULL || r->snap->bodies[si].data == NULL
        || v->body_lost)
    {
        ra_buf_cstr(b, "<p class=\"muted\">its text is not in the ledger "
                    "(the zone had no room for it)</p></details>");
        return;
    }
    ra_buf_cstr(b, "<pre class=\"robots\">");
    memset(&x, 0, sizeof(x));
    x.b = b;
    x.h = &h;
    (void) ra_parse(r->snap->bodies[si], ra_rep_html_line, &x, NULL);
    if (x.hidden) {
        ra_buf_printf(b, "<span class=\"ln\">&hellip;</span>"
                      "<span class=\"muted\">%u more "
                      "line%s</span>\n", x.hidden, x.hidden == 1 ? "" : "s");
    }
    ra_buf_cstr(b, "</pre>");
    if (h.n && (s->rule_other_matched || s->rule_other_violations)) {
        ra_buf_cstr(b, "<p class=\"muted\">lines beyond the first ");
        ra_buf_printf(b, "%u that decided a request: ", RA_RULE_LINES);
        ra_buf_u64(b, s->rule_other_matched);
        ra_buf_cstr(b, " requests, ");
        ra_buf_u64(b, s->rule_other_violations);
        ra_buf_cstr(b, " violations</p>");
    }
    ra_buf_cstr(b, "<p class=\"muted\">beside each line: the requests it "
                "decided since this version came into force, and the "
                "violations among them; requests no line decided were "
                "allowed</p></details>");
}

/* ?crawler=: per row shown, the lines that decided its requests. */
static void
ra_rep_html_crawler_hits(ra_rep_t *r, uint32_t si)
{
    ra_buf_t       *b = r->b;
    ra_rep_hits_t   h;
    uint32_t        i, n;
    unsigned        k;

    if (!r->opts->crawler_rules) {
        return;
    }
    for (i = r->first[si], n = 0;
         i < r->first[si + 1] && n < r->max_crawlers; i++)
    {
        const ra_stat_t  *st = r->ents[i].st;

        ra_rep_crawler_hits(r, si, st, &h);
        for (k = 0; k < h.n; k++) {
            if (n++ == 0) {
                ra_buf_cstr(b, "<h3>lines that decided its requests</h3>"
                            "<div class=\"wide\"><table><tr>"
                            "<th>crawler</th><th>verification</th>"
                            "<th class=\"n\">line</th><th>rule</th>"
                            "<th class=\"n\">requests</th>"
                            "<th class=\"n\">violations</th></tr>");
            }
            ra_buf_cstr(b, "<tr><td>");
            ra_buf_html(b, ra_rep_field(st->name, st->name_len));
            ra_buf_printf(b, "</td><td>%s</td><td class=\"n\">%u</td>"
                          "<td><code>%s: ", ra_verify_name(st->verification),
                          h.hits[k].line,
                          h.hits[k].allow ? "Allow" : "Disallow");
            ra_buf_html(b, h.value[k]);
            ra_buf_printf(b, "</code></td>");
            ra_rep_html_num(b, h.hits[k].matched, 0);
            ra_rep_html_num(b, h.hits[k].violations, 1);
            ra_buf_cstr(b, "</tr>");
        }
    }
    if (n) {
        ra_buf_cstr(b, "</table></div>");
    }
}

/* 5xx/429 episodes of robots.txt, newest first. */
static void
ra_rep_html_episodes(ra_rep_t *r, uint32_t si)
{
    const ra_site_t     *s = &r->snap->sites[si];
    const ra_episode_t  *e;
    ra_buf_t            *b = r->b;
    unsigned             k, i;

    for (k = 0; (e = ra_rep_episode(s, k)) != NULL; k++) {
        if (k == 0) {
            ra_buf_cstr(b, "<h3>robots.txt 5xx/429 episodes</h3>"
                        "<div class=\"wide\"><table><tr><th>start</th>"
                        "<th>end</th><th>duration</th>"
                        "<th class=\"n\">answers</th><th>last status</th>"
                        "<th>crawlers meanwhile (requests)</th></tr>");
        }
        ra_buf_cstr(b, "<tr><td class=\"nw\">");
        ra_rep_iso(b, e->start);
        ra_buf_cstr(b, "</td><td class=\"nw\">");
        if (e->end) {
            ra_rep_iso(b, e->end);
        } else {
            ra_buf_cstr(b, "<span class=\"bad\">going on</span>");
        }
        ra_buf_cstr(b, "</td><td>");
        ra_rep_ms(b, ra_rep_episode_ms(e, r->now));
        ra_buf_printf(b, "</td><td class=\"n\">%u</td><td>%u</td><td>",
                      e->answers, e->status);
        for (i = 0; i < e->ncrawlers && i < RA_EPISODE_CRAWLERS; i++) {
            if (i) {
                ra_buf_cstr(b, ", ");
            }
            ra_buf_html(b, ra_rep_field(e->name[i], e->name_len[i]));
            ra_buf_printf(b, " (%u)", e->requests[i]);
        }
        if (e->others) {
            ra_buf_printf(b, "%sothers (%u)", i ? ", " : "", e->others);
        } else if (i == 0) {
            ra_buf_cstr(b, "<span class=\"muted\">none</span>");
        }
        ra_buf_cstr(b, "</td></tr>");
    }
    if (k) {
        ra_buf_cstr(b, "</table></div>");
    }
}

/* A crawler's name, linked to its operator's documentation (the crawler
 * table's url, http or https only). */
static void
ra_rep_html_crawler(ra_rep_t *r, const ra_stat_t *st, ra_str_t label)
{
    const ra_crawler_t  *c = NULL;
    ra_buf_t            *b = r->b;

    if (st->kind == RA_UA_KNOWN && r->opts->crawlers != NULL) {
        c = ra_crawlers_find(r->opts->crawlers,
                             ra_rep_field(st->name, st->name_len));
    }
    if (c != NULL && ((c->url.len > 8 && memcmp(c->url.data, "https://", 8)
                       == 0)
                      || (c->url.len > 7
                          && memcmp(c->url.data, "http://", 7) == 0)))
    {
        ra_buf_cstr(b, "<a href=\"");
        ra_buf_html(b, c->url);
        ra_buf_cstr(b, "\" rel=\"noreferrer\">");
        ra_buf_html(b, label);
        ra_buf_cstr(b, "</a>");
        return;
    }
    ra_buf_html(b, label);
}

/* The sites at the top: links to their sections, the order. */
static void
ra_rep_html_summary(ra_rep_t *r)
{
    ra_buf_t  *b = r->b;
    uint32_t   i, si;
    uint64_t   judged;

    if (r->snap->nsites == 0) {
        return;
    }
    ra_buf_cstr(b, "<section><h2>sites</h2>");
    if (!r->opts->standalone) {
        ra_buf_printf(b, "<p class=\"muted\">order: %s &middot; %s</p>",
                      r->opts->sort_violations
                      ? "<a href=\"?sort=name\">by name</a>" : "by name",
                      r->opts->sort_violations
                      ? "most violations first"
                      : "<a href=\"?sort=violations\">most violations "
                        "first</a>");
    }
    ra_buf_cstr(b, "<div class=\"wide\"><table><tr><th>site</th>"
                "<th class=\"n\">crawler requests</th>"
                "<th class=\"n\">violations</th><th>compliance</th>"
                "<th>last 24 h</th></tr>");
    for (i = 0; i < r->snap->nsites; i++) {
        const ra_site_t  *s;

        si = ra_rep_nth(r, i);
        s = &r->snap->sites[si];
        ra_buf_cstr(b, "<tr><td><a href=\"#");
        ra_rep_anchor(b, s);
        ra_buf_cstr(b, "\">");
        ra_buf_html(b, ra_rep_site_name(s));
        ra_buf_cstr(b, "</a></td>");
        ra_rep_html_num(b, s->counters[RA_CNT_REQUESTS], 0);
        ra_rep_html_num(b, s->counters[RA_CNT_VIOLATION], 1);
        judged = ra_rep_judged(s->counters);
        if (judged) {
            ra_buf_printf(b, "<td>%u%%</td>",
                          ra_rep_pct(s->counters[RA_CNT_COMPLIANT]
                                     + s->counters[RA_CNT_STALE]
                                     + s->counters[RA_CNT_EXEMPT], judged));
        } else {
            ra_buf_cstr(b, "<td class=\"muted\">-</td>");
        }
        ra_buf_cstr(b, "<td>");
        ra_rep_html_spark(b, s, r->now);
        ra_buf_cstr(b, "</td></tr>");
    }
    ra_buf_cstr(b, "</table></div></section>\n");
}

/* Every verdict and flag in a sentence. */
static const char  ra_rep_legend[] =
    "<section id=\"legend\"><h2>legend</h2><dl>"
    "<dt><span class=\"good\">compliant</span></dt><dd>the robots.txt in "
    "force allows the request for this crawler.</dd>"
    "<dt><span class=\"bad\">violation</span></dt><dd>the robots.txt in "
    "force disallows it, and no version the crawler may still go by (what "
    "it fetched in the last 24 hours, or one in force then) allows it.</dd>"
    "<dt>stale</dt><dd>the robots.txt in force disallows it, but an older "
    "version the crawler may still go by allowed it: not counted as a "
    "violation.</dd>"
    "<dt>unreachable</dt><dd>the crawler's own last robots.txt fetch, less "
    "than 12 hours ago, was answered 5xx or 429, which tells crawlers to "
    "crawl nothing; it crawled anyway.</dd>"
    "<dt>exempt</dt><dd>a fetch a person asked for (a user-triggered "
    "agent): robots.txt does not apply.</dd>"
    "<dt>unknown</dt><dd>judged while no robots.txt of the site was known, "
    "so neither compliant nor a violation.</dd>"
    "<dt>crawl-delay</dt><dd>the request came sooner after the crawler's "
    "previous one than the Crawl-delay of its group asks (only for "
    "crawlers that honour Crawl-delay).</dd>"
    "<dt>no fetch</dt><dd>the crawler had not fetched robots.txt in the 24 "
    "hours before the request.</dd>"
    "<dt>refused</dt><dd>answered 403 by enforce (violation, unreachable "
    "or impostor).</dd>"
    "<dt>unreachable_30d</dt><dd>robots.txt has answered only 5xx/429 for "
    "30 days while the site's other pages answer: crawlers may act as if "
    "there were none, so requests are judged compliant.</dd>"
    "<dt><span class=\"good\">verified</span></dt><dd>the client is who "
    "its User-Agent says (published address ranges, reverse DNS or a "
    "signature: verified_by).</dd>"
    "<dt>unverifiable</dt><dd>the operator publishes no way to check the "
    "claim.</dd>"
    "<dt><span class=\"bad\">impostor</span></dt><dd>the client claims a "
    "crawler whose published ranges it is outside.</dd>"
    "<dt>generic</dt><dd>a bot not in the crawler table, named by the "
    "token of its User-Agent.</dd>"
    "<dt>bars</dt><dd><span class=\"good\">compliant</span>, stale, "
    "exempt, unreachable, <span class=\"bad\">violation</span>, as shares "
    "of judged requests; percentages are rounded, never to 0 or 100 % "
    "unless exact.</dd>"
    "</dl></section>\n";

static void
ra_rep_html_site(ra_rep_t *r, uint32_t si)
{
    const ra_site_t  *s = &r->snap->sites[si];
    ra_buf_t         *b = r->b;
    uint32_t          i, j, n, id, others = 0, peak;
    int64_t           gap;
    char              label[RA_REPORT_LABEL_MAX];

    ra_buf_cstr(b, "<section id=\"");
    ra_rep_anchor(b, s);
    ra_buf_cstr(b, "\"><h2>");
    ra_buf_html(b, ra_rep_site_name(s));
    ra_rep_html_health(b, s, r->now);
    ra_buf_cstr(b, "</h2><p class=\"muted\">");
    ra_buf_u64(b, s->counters[RA_CNT_REQUESTS]);
    ra_buf_cstr(b, " crawler requests, ");
    ra_buf_u64(b, s->browser_requests);
    ra_buf_cstr(b, " from browsers, ");
    ra_buf_u64(b, s->no_user_agent);
    ra_buf_cstr(b, " without User-Agent</p>");
    ra_rep_html_time(r, si);
    ra_rep_html_robots(r, si);
    ra_rep_html_episodes(r, si);

    ra_buf_cstr(b, "<h3>crawlers</h3>");
    if (r->first[si] == r->first[si + 1]) {
        ra_buf_cstr(b, "<p class=\"muted\">no crawler seen</p>");
    } else {
        ra_buf_cstr(b, "<div class=\"wide\"><table><tr><th>crawler</th>"
                    "<th>token</th><th>purpose</th>"
                    "<th>verification</th>"
                    "<th title=\"how the verification was decided\">"
                    "verified by</th><th class=\"n\">requests</th>"
                    "<th class=\"n\">robots.txt</th>"
                    "<th class=\"n\" title=\"requests for /llms.txt or "
                    "/llms-full.txt\">llms.txt</th>"
                    "<th class=\"n\">compliant</th>"
                    "<th class=\"n\">violation</th><th class=\"n\">stale</th>"
                    "<th class=\"n\">unreachable</th>"
                    "<th class=\"n\">exempt</th>"
                    "<th class=\"n\">unknown</th>"
                    "<th class=\"n\">crawl-delay</th>"
                    "<th class=\"n\">no fetch</th>"

                    "<th class=\"n\" title=\"answered 403 by enforce\">"
                    "refused</th>"
                    "<th class=\"n\" title=\"most requests in one minute, "
                    "last 20 to 24 hours\">peak/min</th>"
                    "<th class=\"n\" title=\"median time between its "
                    "requests, last 20 to 24 hours (within a factor of 2)\">"
                    "median gap</th>"
                    "<th class=\"n\" title=\"of the group that applied to "
                    "it\">Crawl-delay</th>"
                    "<th>compliance</th>"
                    "<th>last seen</th></tr>");
    }
    for (i = r->first[si], n = 0; i < r->first[si + 1]; i++, n++) {
        const ra_stat_t  *st = r->ents[i].st;

        if (n >= r->max_crawlers) {
            others++;
            continue;
        }
        ra_buf_cstr(b, "<tr><td>");
        ra_rep_html_crawler(r, st, ra_str(label, ra_report_label(st->kind,
                            ra_rep_field(st->name, st->name_len), label,
                            sizeof(label))));
        ra_buf_cstr(b, "</td><td><code>");
        ra_buf_html(b, ra_rep_field(st->token, st->token_len));
        ra_buf_printf(b, "</code></td><td>%s</td>",
                      ra_rep_purpose(st) ? ra_rep_purpose(st) : "");
        ra_buf_printf(b, "<td class=\"%s\">%s</td>",
                      st->verification == RA_VERIFY_IMPOSTOR ? "bad"
                      : st->verification == RA_VERIFY_VERIFIED ? "good"
                      : "muted", ra_verify_name(st->verification));
        ra_rep_html_verified_by(b, st);
        ra_rep_html_num(b, st->counters[RA_CNT_REQUESTS], 0);
        ra_rep_html_num(b, st->counters[RA_CNT_ROBOTS_FETCHES], 0);
        ra_rep_html_num(b, st->counters[RA_CNT_LLMS_FETCHES], 0);
        ra_rep_html_num(b, st->counters[RA_CNT_COMPLIANT], 0);
        ra_rep_html_num(b, st->counters[RA_CNT_VIOLATION], 1);
        ra_rep_html_num(b, st->counters[RA_CNT_STALE], 0);
        ra_rep_html_num(b, st->counters[RA_CNT_UNREACHABLE], 1);
        ra_rep_html_num(b, st->counters[RA_CNT_EXEMPT], 0);
        ra_rep_html_num(b, st->counters[RA_CNT_UNKNOWN], 0);
        ra_rep_html_num(b, st->counters[RA_CNT_CRAWL_DELAY], 0);
        ra_rep_html_num(b, st->counters[RA_CNT_NO_ROBOTS_FETCH], 0);
        ra_rep_html_num(b, st->counters[RA_CNT_REFUSED_VIOLATION]
                           + st->counters[RA_CNT_REFUSED_UNREACHABLE]
                           + st->counters[RA_CNT_REFUSED_IMPOSTOR], 0);
        ra_polite_read(&st->polite, r->now, &peak, &gap);
        ra_buf_printf(b, "<td class=\"n\">%u</td><td class=\"n%s\">", peak,
                      st->crawl_delay_ms > 0 && gap >= 0
                      && gap < st->crawl_delay_ms ? " bad" : "");
        ra_rep_gap(b, gap);
        ra_buf_cstr(b, "</td><td class=\"n\">");
        ra_rep_ms(b, st->crawl_delay_ms > 0 ? st->crawl_delay_ms : -1);
        ra_buf_cstr(b, "</td>");
        ra_rep_html_bar(b, st->counters);
        ra_buf_cstr(b, "<td class=\"nw\">");
        if (st->last_seen) {
            ra_rep_iso(b, st->last_seen);
        }
        ra_buf_cstr(b, "</td></tr>");
    }
    if (r->first[si] != r->first[si + 1]) {
        ra_buf_cstr(b, "</table></div>");
    }
    ra_rep_html_crawler_hits(r, si);
    if (ra_rep_stats_total(r, si) > n - others) {
        ra_buf_printf(b, "<p class=\"muted\">showing %u of %u crawler "
                      "records: the busiest, and those with violations "
                      "(<code>?limit=</code> and <code>?site=</code> "
                      "choose)</p>", n - others, ra_rep_stats_total(r, si));
    }
    ra_rep_html_referrals(r, s);

    id = si + 1;
    for (j = 0, n = 0; j < r->snap->nviolations && n < r->max_vio; j++) {
        const ra_violation_t  *x = &r->snap->violations[j];

        if (x->site != id) {
            continue;
        }
        if (n++ == 0) {
            ra_buf_cstr(b, "<h3>recent violations</h3><div class=\"wide\">"
                        "<table><tr>"
                        "<th>time</th><th>verdict</th><th>crawler</th>"
                        "<th>client</th>"
                        "<th>method</th><th>URI</th><th>rule</th>"
                        "<th class=\"n\">line</th></tr>");
        }
        ra_buf_cstr(b, "<tr><td>");
        ra_rep_iso(b, x->time);
        ra_buf_printf(b, "</td><td class=\"bad\">%s</td><td>",
                      ra_rep_vio_verdict(x));
        ra_buf_html(b, ra_rep_field(x->name, x->name_len));
        ra_buf_printf(b, " <span class=\"muted\">%s%s%s%s</span></td>"
                      "<td><code>", ra_verify_name(x->verification),
                      *ra_verified_by_name(x->verified_by) ? " (" : "",
                      ra_verified_by_name(x->verified_by),
                      *ra_verified_by_name(x->verified_by) ? ")" : "");
        ra_buf_html(b, ra_rep_field(x->addr, x->addr_len));
        ra_buf_cstr(b, "</code></td><td>");
        ra_buf_html(b, ra_rep_field(x->method, x->method_len));
        ra_buf_cstr(b, "</td><td><code>");
        ra_buf_html(b, ra_rep_field(x->uri, x->uri_len));
        if (x->uri_full_len > x->uri_len) {
            ra_buf_cstr(b, "&hellip;");
        }
        ra_buf_cstr(b, "</code></td><td><code>");
        ra_buf_html(b, ra_rep_field(x->pattern, x->pattern_len));
        ra_buf_printf(b, "</code></td><td class=\"n\">%u</td></tr>",
                      x->line);
    }
    if (n) {
        ra_buf_cstr(b, "</table></div>");
        if (s->violations_total > n) {
            ra_buf_printf(b, "<p class=\"muted\">showing the newest %u of "
                          "%u recent violations</p>", n,
                          s->violations_total);
        }
    } else {
        ra_buf_cstr(b, "<p class=\"muted\">no violation recorded</p>");
    }
    ra_buf_cstr(b, "</section>");
}

/* reverse-DNS lookups, once there were any */
static void
ra_rep_html_rdns(ra_buf_t *b, const ra_totals_t *h)
{
    if (h->rdns_lookups == 0 && h->rdns_refused == 0) {
        return;
    }
    ra_buf_printf(b, " &middot; reverse DNS: %u pending, ", h->rdns_pending);
    ra_buf_u64(b, h->rdns_verified);
    ra_buf_cstr(b, " verified, ");
    ra_buf_u64(b, h->rdns_failed);
    ra_buf_cstr(b, " failed, ");
    ra_buf_u64(b, h->rdns_refused);
    ra_buf_cstr(b, " refused");
}

/* One line: each loaded range file and its age, stale ones in red. */
static void
ra_rep_html_ranges(ra_rep_t *r)
{
    const ra_ranges_t  *rg = r->opts->ranges;
    ra_buf_t           *b = r->b;
    size_t              i;
    int64_t             age;

    if (rg == NULL || ra_ranges_lists(rg) == 0) {
        return;
    }
    ra_buf_cstr(b, "<p class=\"muted\">IP-range files: ");
    for (i = 0; i < ra_ranges_lists(rg); i++) {
        ra_buf_cstr(b, i ? ", <code>" : "<code>");
        ra_buf_html(b, ra_ranges_name(rg, i));
        ra_buf_cstr(b, "</code> ");
        age = ra_ranges_age(rg, i, r->now);
        if (age < 0) {
            ra_buf_cstr(b, "(age unknown)");
        } else if (ra_ranges_stale(rg, i, r->now)) {
            ra_buf_printf(b, "<span class=\"bad\" title=\"older than 7 "
                          "days: robots-audit ranges update\">%lld days "
                          "old</span>", (long long) (age / 86400000));
        } else if (age < 86400000) {
            ra_buf_printf(b, "%lld h old", (long long) (age / 3600000));
        } else {
            ra_buf_printf(b, "%lld days old", (long long) (age / 86400000));
        }
    }
    ra_buf_cstr(b, "</p>\n");
}

static void
ra_rep_html(ra_rep_t *r)
{
    const ra_totals_t      *h = &r->snap->totals;
    ra_buf_t               *b = r->b;
    ra_str_t                title = r->opts->title;
    uint32_t                i;

    if (title.data == NULL) {
        title = ra_str("robots-audit", 12);
    }
    ra_buf_cstr(b, "<!DOCTYPE html>\n<html lang=\"en\"><head>"
                "<meta charset=\"utf-8\">");
    if (!r->opts->standalone) {
        ra_buf_cstr(b, "<meta http-equiv=\"refresh\" content=\"30\">");
    }
    ra_buf_cstr(b, "<meta name=\"viewport\" content=\"width=device-width\">"
                "<title>");
    ra_buf_html(b, title);
    ra_buf_cstr(b, "</title><style>");
    ra_buf_cstr(b, ra_rep_css);
    ra_buf_cstr(b, "</style></head>\n<body><h1>");
    ra_buf_html(b, title);
    ra_buf_cstr(b, "</h1><p class=\"muted\">");
    ra_rep_iso(b, r->now);
    ra_buf_printf(b, " &middot; %u site%s &middot; ",
                  ra_rep_sites_total(r->snap),
                  ra_rep_sites_total(r->snap) == 1 ? "" : "s");
    ra_buf_u64(b, h->crawler_requests);
    ra_buf_cstr(b, " crawler requests judged (");
    ra_buf_u64(b, h->requests);
    ra_buf_cstr(b, " requests in all) &middot; ");
    ra_buf_u64(b, h->violations_total);
    ra_buf_cstr(b, " violations");
    if (r->opts->with_lines) {
        ra_buf_cstr(b, " &middot; ");
        ra_buf_u64(b, r->opts->lines);
        ra_buf_cstr(b, " log lines, ");
        ra_buf_u64(b, r->opts->malformed_lines);
        ra_buf_cstr(b, " malformed");
    }
    if (h->site_evictions || h->stat_evictions) {
        ra_buf_cstr(b, " &middot; <span class=\"warn\">evictions: ");
        ra_buf_u64(b, h->site_evictions);
        ra_buf_cstr(b, " sites, ");
        ra_buf_u64(b, h->stat_evictions);
        ra_buf_cstr(b, " crawler records</span>");
    }
    ra_rep_html_rdns(b, h);
    ra_buf_cstr(b, "</p>\n");
    ra_rep_html_summary(r);
    ra_rep_html_ranges(r);
    for (i = 0; i < r->snap->nsites && !ra_rep_over_budget(r); i++) {
        ra_rep_html_site(r, ra_rep_nth(r, i));
        ra_buf_ch(b, '\n');
    }
    if (ra_rep_sites_total(r->snap) > i) {
        ra_buf_printf(b, "<p class=\"warn\">showing %u of %u sites, the most "
                      "recently seen (<code>?site=</code> chooses one)</p>\n",
                      i, ra_rep_sites_total(r->snap));
    }
    if (r->snap->nsites == 0) {
        ra_buf_cstr(b, "<p class=\"muted\">no site seen yet</p>\n");
    }
    ra_buf_cstr(b, ra_rep_legend);
    ra_buf_cstr(b, "</body></html>\n");
}

/* ---- Apache mod_status ------------------------------------------------ */

void
ra_report_status_kv(const ra_totals_t *t, ra_buf_t *out)
{
    ra_buf_cstr(out, "RobotsAuditRequests: ");
    ra_buf_u64(out, t->requests);
    ra_buf_cstr(out, "\nRobotsAuditCrawlerRequests: ");
    ra_buf_u64(out, t->crawler_requests);
    ra_buf_cstr(out, "\nRobotsAuditViolations: ");
    ra_buf_u64(out, t->violations_total);
    ra_buf_printf(out, "\nRobotsAuditSites: %u\n"
                  "RobotsAuditCrawlerRecords: %u\n"
                  "RobotsAuditSiteEvictions: ", t->sites, t->stats);
    ra_buf_u64(out, t->site_evictions);
    ra_buf_cstr(out, "\nRobotsAuditCrawlerEvictions: ");
    ra_buf_u64(out, t->stat_evictions);
    ra_buf_ch(out, '\n');
}

/* The fragment below mod_status's own tables: the same markup as its
 * (bare <table>, <hr /> before the heading). */
static void
ra_rep_status_html(ra_rep_t *r)
{
    static const ra_counter_e  cols[] = {
        RA_CNT_REQUESTS, RA_CNT_COMPLIANT, RA_CNT_VIOLATION, RA_CNT_STALE,
        RA_CNT_UNREACHABLE
    };

    const ra_snapshot_t  *snap = r->snap;
    const ra_totals_t    *t = &snap->totals;
    const ra_site_t      *s;
    ra_buf_t             *b = r->b;
    uint32_t              i;
    unsigned              k;

    ra_buf_cstr(b, "<hr /><h2>robots-audit</h2>\n<dl><dt>");
    ra_buf_u64(b, t->crawler_requests);
    ra_buf_cstr(b, " crawler requests judged (");
    ra_buf_u64(b, t->requests);
    ra_buf_cstr(b, " in all), ");
    ra_buf_u64(b, t->violations_total);
    ra_buf_printf(b, " violations, %u sites, %u crawler records; "
                  "evictions: ", t->sites > snap->nsites ? t->sites
                                                         : snap->nsites,
                  t->stats > snap->nstats ? t->stats : snap->nstats);
    ra_buf_u64(b, t->site_evictions);
    ra_buf_cstr(b, " sites, ");
    ra_buf_u64(b, t->stat_evictions);
    ra_buf_cstr(b, " crawler records</dt></dl>\n");
    if (r->opts->no_table || snap->nsites == 0) {
        return;
    }
    ra_buf_cstr(b, "<table border=\"0\"><tr><th>site</th><th>robots.txt</th>"
                "<th>crawler requests</th><th>compliant</th>"
                "<th>violation</th><th>stale</th><th>unreachable</th>"
                "<th>browser requests</th></tr>\n");
    for (i = 0; i < snap->nsites; i++) {
        s = &snap->sites[i];
        ra_buf_cstr(b, "<tr><td>");
        ra_buf_html(b, ra_rep_site_name(s));
        ra_buf_printf(b, "</td><td>%u</td>", s->robots_status);
        for (k = 0; k < sizeof(cols) / sizeof(cols[0]); k++) {
            ra_buf_cstr(b, "<td>");
            ra_buf_u64(b, s->counters[cols[k]]);
            ra_buf_cstr(b, "</td>");
        }
        ra_buf_cstr(b, "<td>");
        ra_buf_u64(b, s->browser_requests);
        ra_buf_cstr(b, "</td></tr>\n");
    }
    ra_buf_cstr(b, "</table>\n");
    if (ra_rep_sites_total(snap) > snap->nsites) {
        ra_buf_printf(b, "<p>showing %u of %u sites, the most recently "
                      "seen</p>\n", snap->nsites, ra_rep_sites_total(snap));
    }
}



/* ---- CSV (issue 18): the violations, evidence to keep ---------------- */

/* One cell (RFC 4180): quoted when it holds a comma, quote, CR or LF;
 * control bytes as \xHH; a cell a spreadsheet would read as a formula
 * (=, +, -, @ first) gets a leading apostrophe. */
static void
ra_rep_csv_cell(ra_buf_t *b, ra_str_t v)
{
    size_t          i;
    int             quote = 0;
    unsigned char   c;

    for (i = 0; i < v.len; i++) {
        c = (unsigned char) v.data[i];
        if (c == ',' || c == '"' || c < 0x20 || c == 0x7f) {
            quote = 1;
            break;
        }
    }
    if (quote) {
        ra_buf_ch(b, '"');
    }
    if (v.len && (v.data[0] == '=' || v.data[0] == '+' || v.data[0] == '-'
                  || v.data[0] == '@'))
    {
        ra_buf_ch(b, '\'');
    }
    for (i = 0; i < v.len; i++) {
        c = (unsigned char) v.data[i];
        if (c == '"') {
            ra_buf_cstr(b, "\"\"");
        } else if (c < 0x20 || c == 0x7f) {
            ra_buf_printf(b, "\\x%02x", c);
        } else {
            ra_buf_ch(b, (char) c);
        }
    }
    if (quote) {
        ra_buf_ch(b, '"');
    }
}

/* The purpose the violation was recorded with (its crawler's table
 * category); nothing for a generic bot's. */
static void
ra_rep_csv_purpose(ra_buf_t *b, const ra_violation_t *x)
{
    if (x->purpose != 0 && x->purpose <= RA_CAT_MAX) {
        ra_buf_cstr(b, ra_crawler_category_name(x->purpose - 1u));
    }
}

static void
ra_rep_csv_row(ra_buf_t *b, const ra_site_t *s, const ra_violation_t *x)
{
    const char  *by = ra_verified_by_name(x->verified_by);
    char         hex[2 * RA_SHA256_LEN + 1];

    ra_rep_iso(b, x->time);
    ra_buf_ch(b, ',');
    ra_rep_csv_cell(b, ra_rep_site_name(s));
    ra_buf_ch(b, ',');
    ra_rep_csv_cell(b, ra_rep_field(x->name, x->name_len));
    ra_buf_printf(b, ",%s,%s,", ra_verify_name(x->verification),
                  by != NULL ? by : "");
    ra_rep_csv_cell(b, ra_rep_field(x->addr, x->addr_len));
    ra_buf_ch(b, ',');
    ra_rep_csv_cell(b, ra_rep_field(x->method, x->method_len));
    ra_buf_ch(b, ',');
    ra_rep_csv_cell(b, ra_rep_field(x->uri, x->uri_len));
    ra_buf_ch(b, ',');
    ra_rep_csv_cell(b, ra_rep_field(x->pattern, x->pattern_len));
    ra_buf_printf(b, ",%u,", x->line);
    if (ra_rep_sha_known(x->robots_sha256)) {
        ra_hex(x->robots_sha256, RA_SHA256_LEN, hex);
        ra_buf_cstr(b, hex);
    }
    ra_buf_ch(b, ',');
    if (x->last_fetch) {
        ra_rep_iso(b, x->last_fetch);
    }
    ra_buf_ch(b, ',');
    ra_rep_csv_purpose(b, x);
    ra_buf_cstr(b, "\r\n");
}

/* Per site in the order shown, its violations (not unreachable
 * verdicts) newest first. */
static void
ra_rep_csv(ra_rep_t *r)
{
    ra_buf_t  *b = r->b;
    uint32_t   i, j, n, si;

    ra_buf_cstr(b, RA_REPORT_CSV_HEADER "\r\n");
    for (i = 0; i < r->snap->nsites && !ra_rep_over_budget(r); i++) {
        si = ra_rep_nth(r, i);
        for (j = 0, n = 0; j < r->snap->nviolations && n < r->max_vio; j++) {
            const ra_violation_t  *x = &r->snap->violations[j];

            if (x->site != si + 1 || x->verdict != RA_VERDICT_VIOLATION) {
                continue;
            }
            ra_rep_csv_row(b, &r->snap->sites[si], x);
            n++;
        }
    }
}

/* ---- entry points --------------------------------------------------- */

static int64_t
ra_rep_newest(const ra_snapshot_t *snap)
{
    int64_t   t = snap->totals.created;
    uint32_t  i;

    for (i = 0; i < snap->nsites; i++) {
        if (snap->sites[i].last_seen > t) {
            t = snap->sites[i].last_seen;
        }
    }
    for (i = 0; i < snap->nstats; i++) {
        if (snap->stats[i].last_seen > t) {
            t = snap->stats[i].last_seen;
        }
    }
    return t;
}

int
ra_report_render(const ra_snapshot_t *snap, ra_report_format_e fmt,
    const ra_report_opts_t *opts, ra_buf_t *out)
{
    ra_rep_t           r;
    ra_report_opts_t   none;
    int                rc;

    if (fmt > RA_REPORT_CSV) {
        return RA_ERROR;
    }
    if (fmt == RA_REPORT_STATUS_KV) {
        ra_report_status_kv(&snap->totals, out);
        return RA_OK;
    }
    if (opts == NULL) {
        memset(&none, 0, sizeof(none));
        opts = &none;
    }
    memset(&r, 0, sizeof(r));
    (void) ra_refer_builtin(&r.refer);
    r.snap = snap;
    r.opts = opts;
    r.b = out;
    r.scratch = opts->scratch != NULL ? opts->scratch : out->alloc;
    r.now = opts->now ? opts->now : ra_rep_newest(snap);
    r.max_findings = opts->max_findings ? opts->max_findings
                                        : RA_REP_FINDINGS;
    if (fmt == RA_REPORT_JSON || fmt == RA_REPORT_CSV) {
        r.max_vio = opts->max_violations ? opts->max_violations : UINT32_MAX;
        r.max_crawlers = UINT32_MAX;
    } else {
        r.max_vio = opts->max_violations ? opts->max_violations
                                         : RA_REP_VIOLATIONS;
        r.max_crawlers = opts->max_crawlers ? opts->max_crawlers
                                            : RA_REP_CRAWLERS;
    }

    if (fmt == RA_REPORT_STATUS_HTML) {
        ra_rep_status_html(&r);
        return RA_OK;
    }

    rc = ra_rep_prepare(&r);
    if (rc == RA_OK && fmt != RA_REPORT_PROMETHEUS && fmt != RA_REPORT_CSV) {
        rc = ra_rep_lints(&r);
        if (rc == RA_ENOMEM && r.lints == NULL) {
            goto done;
        }
    }
    if (r.first == NULL || r.ents == NULL) {
        rc = RA_ENOMEM;
        goto done;
    }
    ra_rep_sort(&r, fmt == RA_REPORT_PROMETHEUS ? ra_rep_cmp_metric
                                                : ra_rep_cmp_display);
    if (fmt != RA_REPORT_PROMETHEUS) {
        ra_rep_order(&r);
    }
    switch (fmt) {
    case RA_REPORT_JSON:
        ra_rep_json(&r);
        break;
    case RA_REPORT_HTML:
        ra_rep_html(&r);
        break;
    case RA_REPORT_PROMETHEUS:
        ra_rep_prom(&r);
        break;
    case RA_REPORT_CSV:
        ra_rep_csv(&r);
        break;
    default:
        ra_rep_text(&r);
    }

done:
    ra_rep_cleanup(&r);
    return rc;
}

int
ra_report_format_by_name(ra_str_t name, ra_report_format_e *fmt)
{
    static const char  *names[] = { "text", "json", "html", "prometheus" };
    unsigned            i;

    for (i = 0; i < 4; i++) {
        if (name.len == strlen(names[i])
            && memcmp(name.data, names[i], name.len) == 0)
        {
            *fmt = (ra_report_format_e) i;
            return RA_OK;
        }
    }
    if (name.len == 3 && memcmp(name.data, "csv", 3) == 0) {
        *fmt = RA_REPORT_CSV;
        return RA_OK;
    }
    return RA_ERROR;
}

const char *
ra_report_content_type(ra_report_format_e fmt)
{
    switch (fmt) {
    case RA_REPORT_JSON:
        return "application/json";
    case RA_REPORT_HTML:
    case RA_REPORT_STATUS_HTML:
        return "text/html; charset=utf-8";
    case RA_REPORT_PROMETHEUS:
        return "text/plain; version=0.0.4; charset=utf-8";
    case RA_REPORT_CSV:
        return "text/csv; charset=utf-8";
    default:
        return "text/plain; charset=utf-8";
    }
}
