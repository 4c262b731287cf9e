/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The ledger's read side for reports: a snapshot is a private copy of the
 * sites, stat records and recent violations, taken under the lock and
 * bounded by a view (the status page's) or whole (the CLI's), with the
 * busiest records chosen by bounded heaps, never by sorting the table.
 * Renderers read the copy; none of them sees the region.
 */
#include <stdlib.h>
#include <string.h>

#include "ra_ledger_impl.h"

static void
ra_site_out(const ra_site_slot_t *s, ra_site_t *out)
{
    unsigned  k;

    memset(out, 0, sizeof(*out));
    for (k = 0; k < RA_CNT_MAX; k++) {
        out->counters[k] = ra_atomic_read(&s->counters[k]);
    }
    out->browser_requests = ra_atomic_read(&s->browser_requests);
    out->evidence_dropped = ra_atomic_read(&s->evidence_dropped);
    out->no_user_agent = ra_atomic_read(&s->no_user_agent);
    for (k = 0; k < RA_CNT_MAX; k++) {
        out->generic[k] = ra_atomic_read(&s->generic[k]);
    }
    for (k = 0; k < RA_PURPOSES; k++) {
        out->purpose_requests[k] = ra_atomic_read(&s->purpose_requests[k]);
    }
    memcpy(out->evicted, s->evicted, sizeof(out->evicted));
    memcpy(out->evicted_records, s->evicted_records,
           sizeof(out->evicted_records));
    out->redirect_n = s->redirect_n < RA_REDIRECT_HOPS ? s->redirect_n
                                                       : RA_REDIRECT_HOPS;
    for (k = 0; k < out->redirect_n; k++) {
        out->redirect_len[k] = s->redirect_len[k] < RA_REDIRECT_PATH_MAX
                               ? s->redirect_len[k] : RA_REDIRECT_PATH_MAX;
        memcpy(out->redirect[k], s->redirect[k], out->redirect_len[k]);
    }
    out->created = s->created;
    out->last_seen = s->last_seen;
    out->robots_date = s->robots_date;
    out->unreachable_since = s->unreachable_since;
    out->undecodable = s->undecodable;
    out->bad_coding_len = s->bad_coding_len < RA_CODING_MAX
                          ? s->bad_coding_len : RA_CODING_MAX;
    memcpy(out->bad_coding, s->bad_coding, out->bad_coding_len);
    out->failures = s->failures;
    out->failing_since = s->failures ? s->failing_since : 0;
    out->pages_answered = s->pages_answered;
    out->robots_status = s->robots_status;
    out->last_size = s->last_size;
    out->last_ctype_len = s->last_ctype_len < RA_CTYPE_MAX
                          ? s->last_ctype_len : RA_CTYPE_MAX;
    memcpy(out->last_ctype, s->last_ctype, out->last_ctype_len);
    out->name_len = s->name_len < RA_SITE_NAME_MAX ? s->name_len
                                                   : RA_SITE_NAME_MAX;
    memcpy(out->name, s->name, out->name_len);
    out->nversions = s->nversions;
    out->current = s->current;
    for (k = 0; k < RA_VERSIONS; k++) {
        ra_version_out(&s->versions[k], &out->versions[k]);
    }
    for (k = 0; k < RA_REFER_SLOTS; k++) {
        out->referrals[k] = ra_atomic_read(&s->referrals[k]);
        out->referral_crawls[k] = ra_atomic_read(&s->referral_crawls[k]);
    }
    out->rule_version = s->rule_version;
    out->rule_other_matched = s->rule_other_matched;
    out->rule_other_violations = s->rule_other_violations;
    memcpy(out->rule_hits, s->rule_hits, sizeof(out->rule_hits));
    out->episode_next = s->episode_next % RA_EPISODES;
    memcpy(out->episodes, s->episodes, sizeof(out->episodes));
    memcpy(out->spark, s->spark, sizeof(out->spark));
    memcpy(&out->pages, &s->pages, sizeof(out->pages));
}

static void
ra_stat_out(const ra_stat_slot_t *st, uint32_t site, ra_stat_t *out)
{
    unsigned  k;

    memset(out, 0, sizeof(*out));
    for (k = 0; k < RA_CNT_MAX; k++) {
        out->counters[k] = ra_atomic_read(&st->counters[k]);
    }
    out->first_seen = st->first_seen;
    out->last_seen = st->last_seen;
    out->last_fetch = st->last_fetch;
    out->last_fetch_version = st->last_fetch_version;
    out->site = site;
    out->last_fetch_status = st->last_fetch_status;
    out->verification = st->verification;
    out->kind = st->kind;
    out->category = st->category;
    out->name_len = st->name_len;
    memcpy(out->name, st->name, RA_NAME_MAX);
    out->token_len = st->token_len;
    memcpy(out->token, st->token, RA_NAME_MAX);
    out->crawl_delay_ms = st->crawl_delay_ms;
    out->verified_by = __atomic_load_n(&st->verified_by, __ATOMIC_RELAXED);
    out->polite = st->polite;
    memcpy(out->hours, st->hours, sizeof(out->hours));
    out->rule_version = st->rule_version;
    memcpy(out->rule_hits, st->rule_hits, sizeof(out->rule_hits));
}

static void
ra_vio_out(const ra_vio_slot_t *x, uint32_t site, ra_violation_t *out)
{
    memset(out, 0, sizeof(*out));
    out->time = x->time;
    out->site = site;
    out->line = x->line;
    out->verdict = x->verdict;
    out->verification = x->verification;
    out->verified_by = x->verified_by;
    out->name_len = x->name_len;
    out->method_len = x->method_len;
    out->addr_len = x->addr_len;
    out->uri_len = x->uri_len;
    out->pattern_len = x->pattern_len;
    out->uri_full_len = x->uri_full_len;
    memcpy(out->name, x->name, RA_NAME_MAX);
    memcpy(out->method, x->method, RA_METHOD_MAX);
    memcpy(out->addr, x->addr, RA_ADDR_TEXT_MAX);
    memcpy(out->uri, x->uri, RA_URI_MAX);
    memcpy(out->pattern, x->pattern, RA_PATTERN_MAX);
    out->last_fetch = x->last_fetch;
    memcpy(out->robots_sha256, x->robots_sha256, 32);
    out->purpose = x->purpose;
}

/* Violations newest first by time; of the same time, the ring's order
 * (the later recorded first). */
typedef struct {
    int64_t   time;
    uint32_t  idx;                  /* in ring order, newest first */
} ra_vio_key_t;

static int
ra_vio_key_cmp(const void *a, const void *b)
{
    const ra_vio_key_t  *x = a, *y = b;

    if (x->time != y->time) {
        return x->time > y->time ? -1 : 1;
    }
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* The snapshot's violations ordered by time (logs replay out of order,
 * and several processes append to the ring): RA_OK, or RA_ENOMEM with
 * the ring's order kept. */
static int
ra_vio_sort(ra_snapshot_t *snap, const ra_alloc_t *a)
{
    uint32_t         i;
    ra_vio_key_t    *keys;
    ra_violation_t  *sorted;

    for (i = 1; i < snap->nviolations; i++) {
        if (snap->violations[i].time > snap->violations[i - 1].time) {
            break;
        }
    }
    if (i >= snap->nviolations) {
        return RA_OK;                   /* already in order */
    }
    keys = ra_alloc(a, snap->nviolations * sizeof(ra_vio_key_t));
    sorted = ra_alloc(a, (snap->nviolations + 1) * sizeof(ra_violation_t));
    if (keys == NULL || sorted == NULL) {
        ra_free(a, keys);
        ra_free(a, sorted);
        return RA_ENOMEM;
    }
    for (i = 0; i < snap->nviolations; i++) {
        keys[i].time = snap->violations[i].time;
        keys[i].idx = i;
    }
    qsort(keys, snap->nviolations, sizeof(ra_vio_key_t), ra_vio_key_cmp);
    for (i = 0; i < snap->nviolations; i++) {
        sorted[i] = snap->violations[keys[i].idx];
    }
    ra_free(a, keys);
    ra_free(a, snap->violations);
    snap->violations = sorted;
    return RA_OK;
}

static int
ra_stat_cmp(const void *a, const void *b)
{
    const ra_stat_t  *x = a, *y = b;
    uint64_t          rx, ry;

    if (x->site != y->site) {
        return x->site < y->site ? -1 : 1;
    }
    rx = x->counters[RA_CNT_REQUESTS];
    ry = y->counters[RA_CNT_REQUESTS];
    if (rx != ry) {
        return rx > ry ? -1 : 1;
    }
    return memcmp(x->name, y->name, RA_NAME_MAX);
}

/* The n largest keys offered, as a min-heap of (key, stat id): bounded
 * work per record, whatever the table holds.  Equal keys: the most
 * recently seen record wins, then the lower id, so that a view does not
 * change between two identical ledgers. */
typedef struct {
    uint64_t  key;
    int64_t   seen;
    uint32_t  id;
} ra_top_t;

static int
ra_top_less(const ra_top_t *x, const ra_top_t *y)
{
    if (x->key != y->key) {
        return x->key < y->key;
    }
    if (x->seen != y->seen) {
        return x->seen < y->seen;
    }
    return x->id > y->id;
}

static void
ra_top_offer(ra_top_t *h, uint32_t *n, uint32_t cap, uint64_t key,
    int64_t seen, uint32_t id)
{
    uint32_t  i, c;
    ra_top_t  e = { key, seen, id };

    if (cap == 0) {
        return;
    }
    if (*n < cap) {
        for (i = (*n)++; i && ra_top_less(&e, &h[(i - 1) / 2]);
             i = (i - 1) / 2)
        {
            h[i] = h[(i - 1) / 2];
        }
        h[i] = e;
        return;
    }
    if (!ra_top_less(&h[0], &e)) {
        return;                 /* no larger than the smallest kept */
    }
    for (i = 0; (c = 2 * i + 1) < *n; i = c) {
        if (c + 1 < *n && ra_top_less(&h[c + 1], &h[c])) {
            c++;
        }
        if (!ra_top_less(&h[c], &e)) {
            break;
        }
        h[i] = h[c];
    }
    h[i] = e;
}

/* Adds a record's hourly buckets to a sum's (the newer hour wins a
 * bucket). */
static void
ra_hours_fold(const ra_hour_t *from, ra_hour_t *to)
{
    unsigned  i, c;

    for (i = 0; i < RA_HOURS; i++) {
        if (from[i].hour == 0 || from[i].hour < to[i].hour) {
            continue;
        }
        if (from[i].hour > to[i].hour) {
            to[i] = from[i];
            continue;
        }
        for (c = 0; c < RA_CNT_MAX; c++) {
            to[i].counters[c] += from[i].counters[c];
        }
    }
}

/* Is the record one whose name anyone can send, which Prometheus sums
 * per site and verification: a generic bot's, or a table crawler's that
 * is not verified (ra_report.h)? */
static int
ra_stat_folded(const ra_stat_slot_t *st)
{
    return st->kind == RA_UA_GENERIC
           || st->verification != RA_VERIFY_VERIFIED;
}

/* Sums such a record into the site's "generic" or "unverified" one. */
static void
ra_stat_fold_into(const ra_stat_slot_t *st, uint32_t site, ra_stat_t *out)
{
    unsigned  k;

    if (out->name_len == 0) {
        memset(out, 0, sizeof(*out));
        out->site = site;
        out->kind = st->kind == RA_UA_GENERIC ? RA_UA_GENERIC : RA_UA_KNOWN;
        out->verification = st->verification;
        out->category = st->category;
        out->name_len = st->kind == RA_UA_GENERIC ? 7 : 10;
        memcpy(out->name, st->kind == RA_UA_GENERIC ? "generic"
                                                    : "unverified",
               out->name_len);
        out->first_seen = st->first_seen;
    }
    for (k = 0; k < RA_CNT_MAX; k++) {
        out->counters[k] += ra_atomic_read(&st->counters[k]);
    }
    if (st->first_seen && st->first_seen < out->first_seen) {
        out->first_seen = st->first_seen;
    }
    if (st->last_seen > out->last_seen) {
        out->last_seen = st->last_seen;
    }
    if (st->last_fetch > out->last_fetch) {
        out->last_fetch = st->last_fetch;
        out->last_fetch_version = st->last_fetch_version;
        out->last_fetch_status = st->last_fetch_status;
    }
    ra_hours_fold(st->hours, out->hours);
}

#define RA_VERIFY_KINDS  3      /* ra_verify_e values */
/* folded records per site: generic bots' and unverified crawlers', by
 * verification */
#define RA_FOLDS         (2 * RA_VERIFY_KINDS)

int
ra_ledger_snapshot(ra_ledger_t *l, const ra_alloc_t *a, int with_bodies,
    ra_snapshot_t *snap)
{
    return ra_ledger_snapshot_view(l, a, with_bodies, NULL, snap);
}

int
ra_ledger_snapshot_view(ra_ledger_t *l, const ra_alloc_t *a,
    int with_bodies, const ra_snapshot_view_t *view, ra_snapshot_t *snap)
{
    int                  rc = RA_ENOMEM;
    uint32_t             i, j, k, id, n, r, steps, cap_sites, per = 0;
    uint32_t            *rank = NULL, *hn = NULL, *vn = NULL;
    size_t               nstats_cap, nvio_cap;
    uint64_t             bad;
    ra_top_t            *top = NULL;
    ra_str_t             want = { 0, NULL };
    ra_site_slot_t      *s;
    ra_stat_slot_t      *st;
    uint32_t             nt, no;
    ra_vio_slot_t       *x, *y;
    ra_version_slot_t   *v;
    ra_ledger_hdr_t     *h = l->hdr;
    /* what bounds the snapshot (view keeps narrowing it) */
    const ra_snapshot_view_t  *bound = view != NULL && !view->every
                                       ? view : NULL;

    memset(snap, 0, sizeof(*snap));
    if (view != NULL && view->site.data != NULL) {
        want = ra_str(view->site.data, view->site.len < RA_SITE_NAME_MAX
                                       ? view->site.len : RA_SITE_NAME_MAX);
    }

    ra_ledger_lock(l);
    ra_ledger_totals(l, &snap->totals);
    cap_sites = h->site_count;
    if (view != NULL) {
        if (bound != NULL && bound->max_sites < cap_sites) {
            cap_sites = bound->max_sites;
        }
        if (want.data != NULL && cap_sites > 1) {
            cap_sites = 1;
        }
    }
    snap->sites = ra_alloc(a, (cap_sites + 1) * sizeof(ra_site_t));
    snap->bodies = ra_alloc(a, (cap_sites + 1) * sizeof(ra_str_t));
    /* site id -> index + 1 in the snapshot */
    rank = ra_alloc(a, ((size_t) h->plan.sites + 1) * sizeof(uint32_t));
    vn = ra_alloc(a, (cap_sites + 1) * sizeof(uint32_t));
    if (!snap->sites || !snap->bodies || !rank || !vn) {
        goto unlock;
    }
    memset(rank, 0, ((size_t) h->plan.sites + 1) * sizeof(uint32_t));
    memset(vn, 0, (cap_sites + 1) * sizeof(uint32_t));

    /* sites, most recently seen first */
    for (id = h->site_head, steps = 0;
         id && id <= h->plan.sites && steps < h->plan.sites;
         id = s->lnext, steps++)
    {
        s = &RA_SITES(l)[id - 1];
        if (want.data != NULL
            && !ra_strcaseeq(want, ra_str(s->name,
                                          s->name_len < RA_SITE_NAME_MAX
                                          ? s->name_len : RA_SITE_NAME_MAX)))
        {
            continue;
        }
        snap->sites_total++;
        if (snap->nsites >= cap_sites) {
            continue;
        }
        n = snap->nsites++;
        ra_site_out(s, &snap->sites[n]);
        ra_ledger_sitemaps_copy(l, id, &snap->sites[n].sitemaps);
        rank[id] = n + 1;
        snap->bodies[n] = ra_str("", 0);
        v = &s->versions[s->current < RA_VERSIONS ? s->current : 0];
        if (with_bodies && s->nversions && v->hash && v->blob) {
            snap->bodies[n].data = ra_alloc(a, v->body_len);
            if (snap->bodies[n].data == NULL) {
                goto unlock;
            }
            memcpy((void *) snap->bodies[n].data, l->base + v->blob,
                   v->body_len);
            snap->bodies[n].len = v->body_len;
        }
    }

    /* records: every one, or per site the busiest and the worst (bounded
     * heaps), or every known crawler's and one "generic" per site and
     * verification */
    if (bound == NULL) {
        nstats_cap = h->stat_count;
    } else if (bound->sites_only) {
        nstats_cap = 0;
    } else if (bound->fold_generic) {
        nstats_cap = (size_t) snap->nsites * RA_FOLDS;
        for (i = 0; i < h->plan.stats; i++) {
            st = &RA_STATS(l)[i];
            if (st->used && st->site <= h->plan.sites && rank[st->site]
                && !ra_stat_folded(st))
            {
                nstats_cap++;
            }
        }
    } else {
        per = bound->max_crawlers + bound->max_violators;
        nstats_cap = (size_t) snap->nsites * per;
        top = ra_alloc(a, nstats_cap * sizeof(ra_top_t));
        hn = ra_alloc(a, ((size_t) snap->nsites * 2 + 1) * sizeof(uint32_t));
        if (top == NULL || hn == NULL) {
            goto unlock;
        }
        memset(hn, 0, ((size_t) snap->nsites * 2 + 1) * sizeof(uint32_t));
    }
    snap->stats = ra_alloc(a, (nstats_cap + 1) * sizeof(ra_stat_t));
    if (snap->stats == NULL) {
        goto unlock;
    }
    if (bound != NULL && bound->fold_generic && !bound->sites_only) {
        /* slots [0, nsites * 6): the sites' generic and unverified
         * records, squeezed out below when unused */
        memset(snap->stats, 0,
               (size_t) snap->nsites * RA_FOLDS * sizeof(ra_stat_t));
        snap->nstats = snap->nsites * RA_FOLDS;
    }

    for (i = 0; i < h->plan.stats; i++) {
        st = &RA_STATS(l)[i];
        if (!st->used || st->site > h->plan.sites || rank[st->site] == 0) {
            continue;
        }
        if (view != NULL
            && !ra_purpose_match(view->purpose, st->kind, st->category))
        {
            continue;
        }
        r = rank[st->site] - 1;
        snap->sites[r].stats_total++;
        if (view != NULL && view->crawler.data != NULL
            && !ra_strcaseeq(view->crawler,
                             ra_str(st->name, st->name_len < RA_NAME_MAX
                                              ? st->name_len : RA_NAME_MAX)))
        {
            continue;           /* ?crawler=: another crawler's */
        }
        if (bound == NULL) {
            if (snap->nstats < nstats_cap) {
                ra_stat_out(st, r + 1, &snap->stats[snap->nstats++]);
            }
        } else if (bound->sites_only) {
            continue;                   /* counted in stats_total only */
        } else if (bound->fold_generic) {
            if (ra_stat_folded(st)) {
                ra_stat_fold_into(st, r + 1, &snap->stats[
                    r * RA_FOLDS + (st->kind == RA_UA_GENERIC
                                    ? 0 : RA_VERIFY_KINDS)
                    + st->verification % RA_VERIFY_KINDS]);
            } else if (snap->nstats < nstats_cap) {
                ra_stat_out(st, r + 1, &snap->stats[snap->nstats++]);
            }
        } else {
            ra_top_offer(&top[(size_t) r * per], &hn[2 * r],
                         bound->max_crawlers,
                         ra_atomic_read(&st->counters[RA_CNT_REQUESTS]),
                         st->last_seen, i + 1);
            bad = ra_atomic_read(&st->counters[RA_CNT_VIOLATION])
                  + ra_atomic_read(&st->counters[RA_CNT_UNREACHABLE]);
            if (bad) {
                ra_top_offer(&top[(size_t) r * per + bound->max_crawlers],
                             &hn[2 * r + 1], bound->max_violators, bad,
                             st->last_seen, i + 1);
            }
        }
    }

    if (bound != NULL && bound->fold_generic) {
        /* squeeze out the generic slots no record was folded into */
        for (i = 0, j = 0; i < snap->nstats; i++) {
            if (i < snap->nsites * RA_FOLDS
                && snap->stats[i].name_len == 0)
            {
                continue;
            }
            if (i != j) {
                snap->stats[j] = snap->stats[i];
            }
            j++;
        }
        snap->nstats = j;
    } else if (bound != NULL) {
        /* the busiest, then the worst that are not among them */
        for (r = 0; r < snap->nsites; r++) {
            ra_top_t  *busy = &top[(size_t) r * per];
            ra_top_t  *worst = busy + bound->max_crawlers;

            for (k = 0; k < hn[2 * r]; k++) {
                ra_stat_out(&RA_STATS(l)[busy[k].id - 1], r + 1,
                            &snap->stats[snap->nstats++]);
            }
            for (k = 0; k < hn[2 * r + 1]; k++) {
                for (j = 0; j < hn[2 * r] && busy[j].id != worst[k].id; j++) {
                    /* void */
                }
                if (j == hn[2 * r]) {
                    ra_stat_out(&RA_STATS(l)[worst[k].id - 1], r + 1,
                                &snap->stats[snap->nstats++]);
                }
            }
        }
    }

    /* the ring, newest first; entries of evicted sites are dropped */
    nvio_cap = h->plan.violations;
    if (bound != NULL && (size_t) snap->nsites * bound->max_violations
                        < nvio_cap)
    {
        nvio_cap = (size_t) snap->nsites * bound->max_violations;
    }
    snap->violations = ra_alloc(a, (nvio_cap + 1) * sizeof(ra_violation_t));
    if (snap->violations == NULL) {
        goto unlock;
    }
    /* both parts merged, newest first (each part is in time order but
     * for logs replayed out of order; ra_vio_sort settles those), of
     * equal times the later recorded first */
    nt = h->vio_trusted;
    no = h->plan.violations - nt;
    for (k = 0, j = 0, n = 0; (j < nt || n < no) && k < h->plan.violations;
         k++)
    {
        x = j < nt ? &RA_VIOS(l)[(h->vio_next_trusted + nt - 1 - j) % nt]
                   : NULL;
        y = n < no ? &RA_VIOS(l)[nt + (h->vio_next - nt + no - 1 - n) % no]
                   : NULL;
        if (x == NULL
            || (y != NULL && (y->time > x->time
                              || (y->time == x->time && y->seq > x->seq))))
        {
            x = y;
            n++;
        } else {
            j++;
        }
        if (x->site == 0 || x->site > h->plan.sites || rank[x->site] == 0) {
            continue;
        }
        s = &RA_SITES(l)[x->site - 1];
        if (!s->used || s->epoch != x->site_epoch) {
            continue;
        }
        if (view != NULL && view->purpose != 0
            && x->purpose != view->purpose)
        {
            continue;           /* ?purpose=: another purpose's */
        }
        r = rank[x->site] - 1;
        snap->sites[r].violations_total++;
        if (view != NULL && view->crawler.data != NULL
            && !ra_strcaseeq(view->crawler,
                             ra_str(x->name, x->name_len < RA_NAME_MAX
                                             ? x->name_len : RA_NAME_MAX)))
        {
            continue;
        }
        if ((bound == NULL || vn[r] < bound->max_violations)
            && snap->nviolations < nvio_cap)
        {
            vn[r]++;
            ra_vio_out(x, r + 1, &snap->violations[snap->nviolations++]);
        }
    }

    snap->truncated = snap->sites_total > snap->nsites;
    for (r = 0; r < snap->nsites; r++) {
        if (snap->sites[r].violations_total > vn[r]) {
            snap->truncated = 1;
        }
    }
    if (bound != NULL && !bound->fold_generic) {
        for (r = 0; r < snap->nsites; r++) {
            n = hn[2 * r] + hn[2 * r + 1];
            if (snap->sites[r].stats_total > n) {
                snap->truncated = 1;    /* (n counts the union at most) */
            }
        }
    }
    rc = RA_OK;

unlock:
    ra_ledger_unlock(l);

    if (rc == RA_OK) {
        /* grouped by site (in snapshot order), busiest first */
        qsort(snap->stats, snap->nstats, sizeof(ra_stat_t), ra_stat_cmp);
        (void) ra_vio_sort(snap, a);
    } else {
        ra_snapshot_free(snap, a);
    }
    ra_free(a, rank);
    ra_free(a, vn);
    ra_free(a, top);
    ra_free(a, hn);
    return rc;
}

void
ra_snapshot_free(ra_snapshot_t *snap, const ra_alloc_t *a)
{
    uint32_t  i;

    if (snap->bodies != NULL) {
        for (i = 0; i < snap->nsites; i++) {
            if (snap->bodies[i].len) {
                ra_free(a, (void *) snap->bodies[i].data);
            }
        }
    }
    ra_free(a, snap->sites);
    ra_free(a, snap->bodies);
    ra_free(a, snap->stats);
    ra_free(a, snap->violations);
    memset(snap, 0, sizeof(*snap));
}

int
ra_purpose_match(unsigned purpose, unsigned kind, unsigned category)
{
    return purpose == 0 || (kind == RA_UA_KNOWN && category + 1 == purpose);
}
