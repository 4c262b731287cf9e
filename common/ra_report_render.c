/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Reports from a ledger snapshot (see ra_report.h): the entry points, the
 * choice of format and its bounds, and the order every format shows: the
 * records of the sites in the snapshot, sorted (sites by name or most
 * violations first, each site's rows likewise), and each site's lint
 * findings, the caller's or the renderer's own.  The values derived from
 * each record live in ra_report_model.c; each format lives in a file of
 * its own (ra_report_json.c, ra_report_html.c with its crawler tables in
 * ra_report_html_crawlers.c, ra_report_prom.c, ra_report_text.c,
 * ra_report_csv.c, ra_report_status.c) and only prints.
 *
 * A snapshot may come from a region another process wrote, so nothing in
 * it is trusted: every length is clamped to its array, every index is
 * checked, and every byte of text goes through an escaper.  The report
 * uses no function of the ledger or the audit engine: it reads plain
 * data, so that the renderers can be tested on hand-made snapshots.
 */
#include <stdlib.h>
#include <string.h>

#include "ra_report_impl.h"
#include "ra_crawlers.h"

/* a site's rows by name, then verification */
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

/* display order: site, most requests first, name */
static int
ra_rep_cmp_display(const void *x, const void *y)
{
    const ra_rep_ent_t  *a = x, *b = y;
    uint64_t             ra, rb;

    if (a->site != b->site) {
        return a->site < b->site ? -1 : 1;
    }
    ra = a->st->counters[RA_CNT_REQUESTS];
    rb = b->st->counters[RA_CNT_REQUESTS];
    if (ra != rb) {
        return ra > rb ? -1 : 1;
    }
    return ra_rep_cmp_row_name(x, y);
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

/*
 * Prometheus: what each site's evicted records of the table's crawlers
 * counted, as rows of its own (RA_VERIFY_KINDS a site at most): the
 * verified ones' labelled "evicted", the others' summed with the live
 * records labelled "unverified" (ra_rep_label()), so that no count
 * leaves the sums over crawlers when its record is evicted.  Generic
 * bots' are in the site's generic aggregate already: no row.
 */
#define RA_REP_EVICTED_ROWS  3      /* ra_verify_e values */

static void
ra_rep_evicted_rows(ra_rep_t *r)
{
    const ra_snapshot_t  *snap = r->snap;
    ra_stat_t            *st;
    uint32_t              si, n = 0;
    unsigned              v;

    for (si = 0; si < snap->nsites; si++) {
        for (v = 0; v < RA_REP_EVICTED_ROWS; v++) {
            if (snap->sites[si].evicted_records[v] == 0) {
                continue;
            }
            st = &r->evicted[n++];
            memset(st, 0, sizeof(*st));
            memcpy(st->counters, snap->sites[si].evicted[v],
                   sizeof(st->counters));
            st->site = si + 1;
            st->kind = RA_UA_KNOWN;
            st->verification = (uint8_t) v;
            st->name_len = 7;
            memcpy(st->name, "evicted", 7);
            r->ents[r->nents].st = st;
            r->ents[r->nents].site = si;
            r->nents++;
        }
    }
}

static int
ra_rep_prepare(ra_rep_t *r, int with_evicted)
{
    const ra_snapshot_t  *snap = r->snap;
    uint32_t              i, id;
    size_t                n, extra;

    r->first = ra_alloc(r->scratch, (snap->nsites + 1) * sizeof(uint32_t));
    if (r->first == NULL) {
        return RA_ENOMEM;
    }

    extra = with_evicted ? (size_t) snap->nsites * RA_REP_EVICTED_ROWS : 0;
    n = snap->nstats + extra;
    r->ents = ra_alloc(r->scratch, (n ? n : 1) * sizeof(ra_rep_ent_t));
    if (r->ents == NULL) {
        return RA_ENOMEM;
    }
    if (extra) {
        r->evicted = ra_alloc(r->scratch, extra * sizeof(ra_stat_t));
        if (r->evicted == NULL) {
            return RA_ENOMEM;
        }
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
    if (extra) {
        ra_rep_evicted_rows(r);
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
    ra_free(r->scratch, r->evicted);
    ra_free(r->scratch, r->first);
    ra_free(r->scratch, r->order);
}

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

/* Most violations first; 0 for as many. */
static int
ra_rep_cmp_more(const uint64_t *ca, const uint64_t *cb)
{
    uint64_t  va = ca[RA_CNT_VIOLATION], vb = cb[RA_CNT_VIOLATION];

    return va == vb ? 0 : va > vb ? -1 : 1;
}

static int
ra_rep_cmp_site_vio(const void *x, const void *y)
{
    const ra_rep_site_ent_t  *a = x, *b = y;
    int                       c = ra_rep_cmp_more(a->s->counters,
                                                  b->s->counters);

    return c != 0 ? c : ra_rep_cmp_site_name(x, y);
}

static int
ra_rep_cmp_row_vio(const void *x, const void *y)
{
    const ra_rep_ent_t  *a = x, *b = y;
    int                  c = ra_rep_cmp_more(a->st->counters,
                                             b->st->counters);

    return c != 0 ? c : ra_rep_cmp_row_name(x, y);
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

    if (fmt > RA_REPORT_CSV_CRAWLERS) {
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
    if (fmt == RA_REPORT_JSON || fmt >= RA_REPORT_CSV) {
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

    rc = ra_rep_prepare(&r, fmt == RA_REPORT_PROMETHEUS);
    if (rc == RA_OK && fmt != RA_REPORT_PROMETHEUS && fmt < RA_REPORT_CSV) {
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
    case RA_REPORT_CSV_CRAWLERS:
        ra_rep_csv_crawlers(&r);
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
    if (name.len == 12 && memcmp(name.data, "csv-crawlers", 12) == 0) {
        *fmt = RA_REPORT_CSV_CRAWLERS;
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
    case RA_REPORT_CSV_CRAWLERS:
        return "text/csv; charset=utf-8";
    default:
        return "text/plain; charset=utf-8";
    }
}
