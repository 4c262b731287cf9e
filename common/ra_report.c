/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Reports from a ledger snapshot (see ra_report.h): the entry points, the
 * choice of format, and the model every format prints from: the order of
 * sites and crawler rows, the filters and bounds, and the values derived
 * from each record, computed here once.  Each format lives in a file of
 * its own (ra_report_json.c, ra_report_html.c, ra_report_prom.c,
 * ra_report_text.c, ra_report_csv.c, ra_report_status.c) and only prints.
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
#include "ra_digest.h"
#include "ra_accesslog.h"
#include "ra_audit.h"
#include "ra_crawlers.h"
#include "ra_verify.h"
#include "ra_parse.h"

ra_str_t
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
int
ra_rep_30d(const ra_site_t *s, int64_t now)
{
    return ra_unreachable_30d(s->failing_since, s->pages_answered, now);
}

void
ra_rep_gap(ra_buf_t *b, int64_t ms)
{
    ra_rep_ms(b, ms);
    if (ms >= (int64_t) RA_POLITE_GAP0_MS << (RA_POLITE_BINS - 2)) {
        ra_buf_ch(b, '+');
    }
}

/* A duration in ms, short: "850ms", "12.5s", "4m10s"; "-" when < 0. */
void
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

int
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

const ra_version_t *
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
unsigned
ra_rep_errors(const ra_site_t *s, const ra_version_t *v)
{
    return (v ? v->lint_errors : 0u) + (s->undecodable ? 1u : 0u);
}

/* "1234 bytes", or "1234 bytes served (gzip), 5678 decoded" */
void
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

unsigned
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

const char *
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
const char *
ra_rep_last_answer(const ra_site_t *s)
{
    return ra_rep_answer_name(s->robots_status
                              ? (unsigned) ra_answer_of_status(
                                    s->robots_status)
                              : RA_ANSWER_NONE);
}

/* The ring holds violations and "unreachable" verdicts (crawling while
 * robots.txt answered 5xx/429). */
const char *
ra_rep_vio_verdict(const ra_violation_t *x)
{
    return x->verdict == RA_VERDICT_UNREACHABLE ? "unreachable"
                                                : "violation";
}

ra_str_t
ra_rep_site_name(const ra_site_t *s)
{
    return ra_rep_field(s->name, s->name_len);
}

/* The site's crawler records: in the ledger (a view may have copied
 * fewer), or in the snapshot (a hand-made one says nothing). */
uint32_t
ra_rep_stats_total(const ra_rep_t *r, uint32_t si)
{
    uint32_t  n = r->first[si + 1] - r->first[si];

    return r->snap->sites[si].stats_total > n ? r->snap->sites[si].stats_total
                                              : n;
}

uint32_t
ra_rep_sites_total(const ra_snapshot_t *snap)
{
    return snap->sites_total > snap->nsites ? snap->sites_total
                                            : snap->nsites;
}

/* Has the output reached the caller's budget?  Then no further site
 * starts (each one is bounded), and the report says it was cut. */
int
ra_rep_over_budget(ra_rep_t *r)
{
    if (r->opts->max_bytes && r->b->len >= r->opts->max_bytes) {
        r->cut = 1;
        return 1;
    }
    return 0;
}

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

void
ra_rep_iso(ra_buf_t *b, int64_t ms)
{
    char  t[24];

    ra_buf_add(b, t, ra_time_iso(ms, t));
}

/* Per-mille of part in whole, for bars and percentages. */
unsigned
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

uint64_t
ra_rep_judged(const uint64_t *c)
{
    return c[RA_CNT_COMPLIANT] + c[RA_CNT_STALE] + c[RA_CNT_EXEMPT]
           + c[RA_CNT_VIOLATION] + c[RA_CNT_UNREACHABLE];
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
uint32_t
ra_rep_nth(const ra_rep_t *r, uint32_t k)
{
    return r->order != NULL ? r->order[k] : k;
}

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
void
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
void
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

/* The k-th newest episode of the site, or NULL. */
const ra_episode_t *
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

int64_t
ra_rep_episode_ms(const ra_episode_t *e, int64_t now)
{
    int64_t  end = e->end ? e->end : now;

    return end > e->start ? end - e->start : 0;
}

int
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

/* The purpose shown for a record: its table category, or NULL (generic
 * bots, browsers). */
const char *
ra_rep_purpose(const ra_stat_t *st)
{
    return st->kind == RA_UA_KNOWN && st->category < RA_CAT_MAX
           ? ra_crawler_category_name(st->category) : NULL;
}

/* How many operators of the referrer table have counts for the site. */
unsigned
ra_rep_nreferrals(const ra_rep_t *r, const ra_site_t *s)
{
    unsigned  k, n = 0;

    for (k = 0; k < r->refer.nops && k < RA_REFER_SLOTS; k++) {
        n += s->referrals[k] || s->referral_crawls[k];
    }
    return n;
}

/*
 * What the site's robots.txt states beyond crawl rules (from its lint):
 * AI-preference lines (Content-Signal, Content-Usage) and the groups for
 * policy tokens, listed as policy, not as crawlers that never came.
 */
void
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
