/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The report's model: the values every format derives from a snapshot's
 * records (a site's robots.txt, a crawler row, a violation, rule hits,
 * episodes, findings, range lists), computed here once so that JSON,
 * HTML, Prometheus, text and CSV print the same values and compute none
 * of their own; and the iterators that pick what a site shows.  Nothing
 * in a snapshot is trusted: lengths are clamped to their arrays.
 */
#include <string.h>

#include "ra_report_impl.h"
#include "ra_accesslog.h"
#include "ra_verdict.h"
#include "ra_crawlers.h"
#include "ra_verify.h"
#include "ra_parse.h"

/* A record's crawler label in metrics: its name for a verified crawler;
 * "generic" for every generic bot and "unverified" for every other record
 * (impostors, unverifiable crawlers, browsers), whose names anyone can
 * send: so that the labels stay bounded by what verified crawlers
 * produce, whatever the traffic (ra_report.h). */
ra_str_t
ra_rep_label(const ra_stat_t *st)
{
    static const char  generic[] = "generic", unverified[] = "unverified";

    if (st->kind == RA_UA_GENERIC) {
        return ra_str(generic, sizeof(generic) - 1);
    }
    if (st->verification != RA_VERIFY_VERIFIED) {
        return ra_str(unverified, sizeof(unverified) - 1);
    }
    return ra_rep_field(st->name, st->name_len);
}

/* What the site's evicted records had counted, every kind summed into c
 * (RA_CNT_MAX numbers); returns how many records they were. */
uint64_t
ra_rep_evicted(const ra_site_t *s, uint64_t *c)
{
    uint64_t  n = 0;
    unsigned  k, i;

    memset(c, 0, RA_CNT_MAX * sizeof(uint64_t));
    for (k = 0; k < RA_EVICTED_KINDS; k++) {
        n += s->evicted_records[k];
        for (i = 0; i < RA_CNT_MAX; i++) {
            c[i] += s->evicted[k][i];
        }
    }
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

/* The k-th site shown. */
uint32_t
ra_rep_nth(const ra_rep_t *r, uint32_t k)
{
    return r->order != NULL ? r->order[k] : k;
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
ra_rep_size(ra_buf_t *b, const ra_version_t *v,
    void (*esc)(ra_buf_t *, ra_str_t))
{
    ra_buf_printf(b, "%u bytes", v ? v->size : 0);
    if (v != NULL && v->coding_len) {
        ra_buf_cstr(b, " served (");
        esc(b, ra_rep_field(v->coding, v->coding_len));
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

void
ra_rep_iso(ra_buf_t *b, int64_t ms)
{
    char  t[24];

    ra_buf_add(b, t, ra_time_iso(ms, t));
}

void
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

/* One cell (RFC 4180): quoted when it holds a comma, quote, CR or LF;
 * control bytes as \xHH; a cell a spreadsheet would read as a formula
 * (=, +, -, @ first) gets a leading apostrophe. */
void
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

/* A percentage rounded to a whole number, never 0 or 100 when it is
 * not (a single violation in 1,000 is "1%", not "0%"). */
unsigned
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

uint64_t
ra_rep_judged(const uint64_t *c)
{
    return c[RA_CNT_COMPLIANT] + c[RA_CNT_STALE] + c[RA_CNT_EXEMPT]
           + c[RA_CNT_VIOLATION] + c[RA_CNT_UNREACHABLE];
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

/* A script's or a tool's record (the table's category tool: HTTP
 * libraries, downloaders, configuration tools): the HTML page lists them
 * apart from the crawlers, and they do not count as crawlers that ignore
 * robots.txt. */
int
ra_rep_is_tool(const ra_stat_t *st)
{
    return st->kind == RA_UA_KNOWN && st->category == RA_CAT_TOOL;
}

static int
ra_rep_same_crawler(const ra_stat_t *a, const ra_stat_t *b)
{
    return a->kind == b->kind
           && ra_rep_strcmp(ra_rep_field(a->name, a->name_len),
                            ra_rep_field(b->name, b->name_len)) == 0;
}

/* The crawlers of site si that ignore robots.txt: the names among its
 * rows shown with violations, tools left out; a crawler with records of
 * two verifications counts once. */
uint32_t
ra_rep_offenders(const ra_rep_t *r, uint32_t si)
{
    const ra_rep_ent_t  *e = r->ents + r->first[si];
    uint32_t             i, j, n = 0, shown = ra_rep_rows_shown(r, si);

    for (i = 0; i < shown; i++) {
        if (e[i].st->counters[RA_CNT_VIOLATION] == 0
            || ra_rep_is_tool(e[i].st))
        {
            continue;
        }
        for (j = 0; j < i; j++) {
            if (e[j].st->counters[RA_CNT_VIOLATION] != 0
                && ra_rep_same_crawler(e[i].st, e[j].st))
            {
                break;
            }
        }
        n += j == i;
    }
    return n;
}

/* The crawler table's entry of a record (opts->crawlers), or NULL: a
 * generic bot, or no table given. */
const ra_crawler_t *
ra_rep_crawler(const ra_rep_t *r, const ra_stat_t *st)
{
    if (st->kind != RA_UA_KNOWN || r->opts->crawlers == NULL) {
        return NULL;
    }
    return ra_crawlers_find(r->opts->crawlers,
                            ra_rep_field(st->name, st->name_len));
}

/* Why a record is unverifiable (ra_verify_means_e): c is its table
 * entry (ra_rep_crawler()).  Without the table the page cannot tell, and
 * says what it always said: the operator publishes no method. */
unsigned
ra_rep_unverified(const ra_rep_t *r, const ra_crawler_t *c)
{
    return (unsigned) ra_verify_means(r->opts->ranges, c,
                                      r->opts->resolver);
}

/* "N crawler requests, N from browsers, N without User-Agent" */
void
ra_rep_site_counts(ra_buf_t *b, const ra_site_t *s)
{
    ra_buf_u64(b, s->counters[RA_CNT_REQUESTS]);
    ra_buf_cstr(b, " crawler requests, ");
    ra_buf_u64(b, s->browser_requests);
    ra_buf_cstr(b, " from browsers, ");
    ra_buf_u64(b, s->no_user_agent);
    ra_buf_cstr(b, " without User-Agent");
    ra_rep_evicted_counts(b, s);
}

/* "; N crawler records evicted (R requests, V violations) counted here"
 * once the site's records were evicted: their counts are in the totals,
 * and the page says where they went */
void
ra_rep_evicted_counts(ra_buf_t *b, const ra_site_t *s)
{
    uint64_t  c[RA_CNT_MAX], n = ra_rep_evicted(s, c);

    if (n == 0) {
        return;
    }
    ra_buf_cstr(b, "; ");
    ra_buf_u64(b, n);
    ra_buf_printf(b, " crawler record%s evicted (", n == 1 ? "" : "s");
    ra_buf_u64(b, c[RA_CNT_REQUESTS]);
    ra_buf_cstr(b, " requests, ");
    ra_buf_u64(b, c[RA_CNT_VIOLATION]);
    ra_buf_printf(b, " violation%s, ", c[RA_CNT_VIOLATION] == 1 ? "" : "s");
    ra_buf_u64(b, c[RA_CNT_UNREACHABLE]);
    ra_buf_cstr(b, " unreachable) still counted");
}

/* The plural's "s" of a count. */
const char *
ra_rep_s(unsigned n)
{
    return n == 1 ? "" : "s";
}

/* "N groups, N rules, N sitemaps" of a version */
void
ra_rep_content_counts(ra_buf_t *b, const ra_version_t *v)
{
    ra_buf_printf(b, "%u group%s, %u rule%s, %u sitemap%s",
                  v->groups, ra_rep_s(v->groups), v->rules,
                  ra_rep_s(v->rules), v->sitemaps, ra_rep_s(v->sitemaps));
}

/* The i-th hop /robots.txt redirects to within the site. */
ra_str_t
ra_rep_redirect(const ra_site_t *s, unsigned i)
{
    return ra_rep_field(s->redirect[i], s->redirect_len[i]);
}

void
ra_rep_robots(const ra_rep_t *r, uint32_t si, ra_rep_robots_t *m)
{
    const ra_site_t     *s = &r->snap->sites[si];
    const ra_version_t  *v = ra_rep_current(s);

    memset(m, 0, sizeof(*m));
    m->s = s;
    m->v = v;
    m->name = ra_rep_site_name(s);
    m->last_ctype = ra_rep_field(s->last_ctype, s->last_ctype_len);
    m->bad_coding = ra_rep_field(s->bad_coding, s->bad_coding_len);
    m->last_answer = ra_rep_last_answer(s);
    m->errors = ra_rep_errors(s, v);
    m->versions_24h = ra_rep_versions_24h(s, r->now);
    m->unreachable_30d = ra_rep_30d(s, r->now);
    m->redirects = s->redirect_n < RA_REDIRECT_HOPS ? s->redirect_n
                                                    : RA_REDIRECT_HOPS;
    if (v != NULL) {
        m->ctype = ra_rep_field(v->ctype, v->ctype_len);
        m->coding = ra_rep_field(v->coding, v->coding_len);
        m->decoded = v->coding_len ? v->decoded : v->size;
        ra_hex(v->sha256, RA_SHA256_LEN, m->sha);
    }
}

const char  *const ra_rep_counter_names[RA_CNT_MAX] = {
    "requests", "robots_fetches", "compliant", "violation", "stale",
    "unreachable", "exempt", "crawl_delay", "no_robots_fetch", "unknown",
    "refused_violation", "refused_unreachable", "refused_impostor",
    "refused_policy",
    "unreachable_30d",
    "llms_fetches"
};

/* The crawler rows shown of site si: the first max_crawlers. */
uint32_t
ra_rep_rows_shown(const ra_rep_t *r, uint32_t si)
{
    uint32_t  n = r->first[si + 1] - r->first[si];

    return n < r->max_crawlers ? n : r->max_crawlers;
}

void
ra_rep_row(const ra_rep_t *r, const ra_stat_t *st, ra_rep_row_t *w)
{
    w->st = st;
    w->name = ra_rep_field(st->name, st->name_len);
    w->label = ra_str(w->label_buf, ra_report_label(st->kind, w->name,
                                                     w->label_buf,
                                                     sizeof(w->label_buf)));
    w->token = ra_rep_field(st->token, st->token_len);
    w->purpose = ra_rep_purpose(st);
    w->verification = ra_verify_name(st->verification);
    w->verified_by = ra_verified_by_name(st->verified_by);
    ra_polite_read(&st->polite, r->now, &w->peak, &w->gap);
    w->delay = st->crawl_delay_ms > 0 ? st->crawl_delay_ms : -1;
    w->refused = st->counters[RA_CNT_REFUSED_VIOLATION]
                 + st->counters[RA_CNT_REFUSED_UNREACHABLE]
                 + st->counters[RA_CNT_REFUSED_IMPOSTOR];
}

/* The next violation (or unreachable verdict) of site si in the ring,
 * newest first, from *j on; NULL when none is left. */
const ra_violation_t *
ra_rep_vio_next(const ra_rep_t *r, uint32_t si, uint32_t *j)
{
    const ra_violation_t  *x;

    while (*j < r->snap->nviolations) {
        x = &r->snap->violations[(*j)++];
        if (x->site == si + 1) {
            return x;
        }
    }
    return NULL;
}

void
ra_rep_vio(const ra_violation_t *x, ra_rep_vio_t *w)
{
    w->x = x;
    w->name = ra_rep_field(x->name, x->name_len);
    w->addr = ra_rep_field(x->addr, x->addr_len);
    w->method = ra_rep_field(x->method, x->method_len);
    w->uri = ra_rep_field(x->uri, x->uri_len);
    w->pattern = ra_rep_field(x->pattern, x->pattern_len);
    w->verdict = ra_rep_vio_verdict(x);
    w->verification = ra_verify_name(x->verification);
    w->verified_by = ra_verified_by_name(x->verified_by);
    w->uri_cut = x->uri_full_len > x->uri_len;
    w->sha_known = ra_rep_sha_known(x->robots_sha256) != 0;
    w->sha[0] = '\0';
    if (w->sha_known) {
        ra_hex(x->robots_sha256, RA_SHA256_LEN, w->sha);
    }
}

/* Hands each(r, w, n) the site's recent violations shown (max_vio at
 * most), newest first, n counting from 0; returns how many. */
uint32_t
ra_rep_violations(ra_rep_t *r, uint32_t si,
    void (*each)(ra_rep_t *r, const ra_rep_vio_t *w, uint32_t n))
{
    const ra_violation_t  *x;
    ra_rep_vio_t           w;
    uint32_t               j, n;

    for (j = 0, n = 0;
         n < r->max_vio && (x = ra_rep_vio_next(r, si, &j)) != NULL; n++)
    {
        ra_rep_vio(x, &w);
        each(r, &w, n);
    }
    return n;
}

/* The next operator of the referrer table with counts for the site, from
 * *k on; 0 when none is left. */
int
ra_rep_referral_next(const ra_rep_t *r, const ra_site_t *s, unsigned *k)
{
    for (; *k < r->refer.nops && *k < RA_REFER_SLOTS; (*k)++) {
        if (s->referrals[*k] || s->referral_crawls[*k]) {
            return 1;
        }
    }
    return 0;
}

/* The next AI-preference line (policy 0: Content-Signal, Content-Usage)
 * or policy-token group (policy 1) that lint found, from *i on, with its
 * group's agent and its text; NULL when none is left. */
const ra_lint_pref_t *
ra_rep_pref_next(const ra_lint_t *l, unsigned policy, uint32_t *i,
    ra_str_t *agent, ra_str_t *text)
{
    const ra_lint_pref_t  *p;

    while (*i < l->nprefs && *i < RA_LINT_MAX_PREFS) {
        p = &l->prefs[(*i)++];
        if ((policy != 0) != (p->kind == RA_LINT_PREF_POLICY)) {
            continue;
        }
        *agent = ra_rep_field(p->agent, strnlen(p->agent, sizeof(p->agent)));
        *text = ra_rep_field(p->text, strnlen(p->text, sizeof(p->text)));
        return p;
    }
    return NULL;
}

/*
 * What the site's robots.txt states beyond crawl rules (from its lint):
 * AI-preference lines (Content-Signal, Content-Usage) and the groups for
 * policy tokens, listed as policy, not as crawlers that never came.
 */
void
ra_rep_prefs(ra_rep_t *r, uint32_t si, const ra_rep_prefs_fmt_t *f)
{
    static const char     *what[] = { "Content-Signal", "Content-Usage" };
    const ra_lint_t       *l = r->lints[si];
    const ra_lint_pref_t  *p;
    ra_buf_t              *b = r->b;
    ra_str_t               agent, text;
    uint32_t               i, k, n;

    if (l == NULL || l->nprefs == 0) {
        return;
    }
    for (k = 0; k < 2; k++) {
        for (i = 0, n = 0;
             (p = ra_rep_pref_next(l, k, &i, &agent, &text)) != NULL; n++)
        {
            ra_buf_cstr(b, n ? f->sep : f->start[k]);
            ra_buf_cstr(b, f->code);
            if (k == 1) {
                f->esc(b, agent);
                ra_buf_printf(b, "%s%s(line %u): %scontrols use of content "
                              "for ", f->code_end, f->note, p->line,
                              f->policy);
                f->esc(b, text);
            } else {
                ra_buf_printf(b, "%s: ", what[p->kind]);
                f->esc(b, text);
                ra_buf_printf(b, "%s%sfor ", f->code_end, f->note);
                f->esc(b, agent.len ? agent : ra_str("no group", 8));
                ra_buf_printf(b, " (line %u)", p->line);
            }
            ra_buf_cstr(b, f->note_end);
        }
        if (n) {
            if (k == 0 && l->more_prefs) {
                ra_buf_printf(b, "%s%u more", f->sep, l->more_prefs);
            }
            ra_buf_cstr(b, f->end);
        }
    }
}

/* The findings shown, and those not: suppressed by lint or over the
 * bound. */
uint32_t
ra_rep_findings_shown(const ra_rep_t *r, const ra_lint_t *l)
{
    return l->nfindings < r->max_findings ? l->nfindings : r->max_findings;
}

uint32_t
ra_rep_findings_hidden(const ra_rep_t *r, const ra_lint_t *l)
{
    return l->summary.suppressed
           + (l->nfindings - ra_rep_findings_shown(r, l));
}

/* The loaded IP-range lists (opts->ranges), each with its age. */
size_t
ra_rep_ranges(const ra_rep_t *r)
{
    return r->opts->ranges != NULL ? ra_ranges_lists(r->opts->ranges) : 0;
}

void
ra_rep_range(const ra_rep_t *r, size_t i, ra_rep_range_t *g)
{
    const ra_ranges_t  *rg = r->opts->ranges;

    g->name = ra_ranges_name(rg, i);
    g->intervals = ra_ranges_intervals(rg, i);
    g->mtime = ra_ranges_mtime(rg, i);
    g->age = ra_ranges_age(rg, i, r->now);
    g->stale = ra_ranges_stale(rg, i, r->now);
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

/* ---- the site's crawler policy ----------------------------------------- */

/* The next policy written for si's server after p (NULL: the first) that
 * blocks something: one of a server of that name, or of every server (no
 * name); NULL at the end. */
const ra_policy_site_t *
ra_rep_policy_next(const ra_rep_t *r, uint32_t si, const ra_policy_site_t *p)
{
    ra_str_t  name = ra_rep_site_name(&r->snap->sites[si]);

    for (p = p != NULL ? p->next : r->opts->policies; p != NULL;
         p = p->next)
    {
        if (ra_policy_any(p->policy)
            && (p->site == NULL || p->site->len == 0
                || ra_strcaseeq(*p->site, name)))
        {
            return p;
        }
    }
    return NULL;
}

/* The next of si's crawler rows from *i (start at r->first[si]) that a
 * policy refused, *i past it; NULL at the end. */
const ra_stat_t *
ra_rep_refused_next(const ra_rep_t *r, uint32_t si, uint32_t *i)
{
    const ra_stat_t  *st;

    while (*i < r->first[si + 1]) {
        st = r->ents[(*i)++].st;
        if (st->counters[RA_CNT_REFUSED_POLICY] != 0) {
            return st;
        }
    }
    return NULL;
}
