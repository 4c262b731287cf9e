/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Counting, the ledger's part of every request: a record's and its site's
 * counters, hourly buckets and sparkline, referrals, purposes and
 * politeness, under the lock or, by a process's hint, without it (atomics
 * only, refused when something only the lock may change is due).  Nothing
 * here changes the structure: a process dying anywhere in it leaves the
 * ledger consistent, at most some of its counts made.
 */
#include <string.h>

#include "ra_ledger_impl.h"

static const char  *const ra_counter_names[RA_CNT_MAX] = {
    "requests", "robots_fetches", "compliant", "violation", "stale",
    "unreachable", "exempt", "crawl_delay", "no_robots_fetch", "unknown",
    "refused_violation", "refused_unreachable", "refused_impostor",
    "refused_policy",
    "unreachable_30d",
    "llms_fetches"
};

const char *
ra_counter_name(ra_counter_e c)
{
    return (unsigned) c < RA_CNT_MAX ? ra_counter_names[c] : "invalid";
}


/* ---- counting --------------------------------------------------------- */

void
ra_ledger_browser_locked(ra_ledger_t *l, uint32_t site, int no_user_agent)
{
    ra_site_slot_t  *s = ra_site_at(l, site);

    if (s != NULL) {
        ra_atomic_add(no_user_agent ? &s->no_user_agent
                                    : &s->browser_requests, 1);
    }
    ra_atomic_add(&l->hdr->requests, 1);
}

int
ra_ledger_browser_hinted(ra_ledger_t *l, uint32_t site, uint32_t epoch,
    int no_user_agent, unsigned op, int status, int64_t now)
{
    ra_site_slot_t  *s = ra_site_hinted(l, site, epoch);

    if (s == NULL) {
        return 0;
    }
    ra_atomic_add(no_user_agent ? &s->no_user_agent : &s->browser_requests,
                  1);
    if (op < RA_REFER_SLOTS) {
        ra_atomic_add(&s->referrals[op], 1);
    }
    if (status >= 100 && status < 500) {
        ra_atomic_later(&s->pages_answered, now);
    }
    ra_atomic_later(&s->last_seen, now);
    ra_atomic_add(&l->hdr->requests, 1);
    return 1;
}

/* The record's hourly bucket of its last request (ra_hour_t): reset
 * when it held an older hour; a request older than the bucket's hour
 * (logs out of order by a day) is not counted in it. */
static void
ra_hour_add(ra_stat_slot_t *st, ra_counter_e c)
{
    uint32_t    hour;
    ra_hour_t  *b;

    if (st->last_seen <= 0) {
        return;
    }
    hour = (uint32_t) (st->last_seen / RA_HOUR_MS);
    b = &st->hours[hour % RA_HOURS];
    if (b->hour != hour) {
        if (b->hour > hour) {
            return;
        }
        memset(b->counters, 0, sizeof(b->counters));
        b->hour = hour;
    }
    b->counters[c]++;
}

void
ra_hours_sum(const ra_hour_t *h, int64_t now, unsigned hours, uint64_t *out)
{
    uint32_t  hour, k;
    unsigned  i, c;

    memset(out, 0, RA_CNT_MAX * sizeof(uint64_t));
    if (now <= 0) {
        return;
    }
    hour = (uint32_t) (now / RA_HOUR_MS);
    for (i = 0; i < RA_HOURS; i++) {
        k = h[i].hour;
        if (k == 0 || k > hour || hour - k >= hours || k % RA_HOURS != i) {
            continue;
        }
        for (c = 0; c < RA_CNT_MAX; c++) {
            out[c] += h[i].counters[c];
        }
    }
}

/* The site's hourly requests and violations, as ra_hour_add(). */
static void
ra_spark_add(ra_site_slot_t *s, int violation)
{
    uint32_t     hour;
    ra_spark_t  *b;

    if (s->last_seen <= 0) {
        return;
    }
    hour = (uint32_t) (s->last_seen / RA_HOUR_MS);
    b = &s->spark[hour % RA_HOURS];
    if (b->hour != hour) {
        if (b->hour > hour) {
            return;
        }
        b->requests = 0;
        b->violations = 0;
        b->hour = hour;
    }
    if (violation) {
        b->violations++;
    } else {
        b->requests++;
    }
}

void
ra_ledger_referral_locked(ra_ledger_t *l, uint32_t site, unsigned op,
    int crawler)
{
    ra_site_slot_t  *s = ra_site_at(l, site);

    if (s != NULL && op < RA_REFER_SLOTS) {
        ra_atomic_add(crawler ? &s->referral_crawls[op] : &s->referrals[op],
                      1);
    }
}

/* The site's purpose counter a request of st adds to: a table crawler's
 * that is not an impostor (NULL for the rest). */
static uint64_t *
ra_purpose_of(ra_site_slot_t *s, const ra_stat_slot_t *st)
{
    return st->kind == RA_UA_KNOWN && st->category < RA_PURPOSES
           && st->verification != RA_VERIFY_IMPOSTOR
           ? &s->purpose_requests[st->category] : NULL;
}

void
ra_ledger_count_locked(ra_ledger_t *l, uint32_t site, uint32_t stat,
    ra_counter_e c)
{
    ra_site_slot_t  *s = ra_site_at(l, site);
    ra_stat_slot_t  *st = ra_stat_at(l, stat);
    uint64_t        *pc;

    if ((unsigned) c >= RA_CNT_MAX) {
        return;
    }
    if (st != NULL) {
        ra_atomic_add(&st->counters[c], 1);
        ra_hour_add(st, c);
    }
    if (s != NULL) {
        ra_atomic_add(&s->counters[c], 1);
        if (c == RA_CNT_REQUESTS && s->failures) {
            ra_episode_crawler(s, st);
        }
        if (c == RA_CNT_REQUESTS || c == RA_CNT_VIOLATION) {
            ra_spark_add(s, c == RA_CNT_VIOLATION);
        }
        /* the site's generic aggregate: never evicted, so it only rises
         * however many generic records come and go */
        if (st != NULL && st->used && ra_stat_cls(st) == RA_CLS_GENERIC) {
            ra_atomic_add(&s->generic[c], 1);
        }
        if (c == RA_CNT_REQUESTS && st != NULL && st->used
            && (pc = ra_purpose_of(s, st)) != NULL)
        {
            ra_atomic_add(pc, 1);
        }
    }
    if (c == RA_CNT_REQUESTS) {
        ra_atomic_add(&l->hdr->requests, 1);
        ra_atomic_add(&l->hdr->crawler_requests, 1);
    }
}

int
ra_ledger_count_hinted(ra_ledger_t *l, const ra_ledger_hint_t *hint,
    uint32_t counters, unsigned op, int64_t now, int32_t crawl_delay_ms,
    unsigned verified_by)
{
    unsigned         c, generic;
    uint32_t         hour, m;
    uint64_t        *pc;
    ra_hour_t       *b;
    ra_spark_t      *sp;
    ra_site_slot_t  *s;
    ra_stat_slot_t  *st;

    if (now <= 0 || (s = ra_site_hinted(l, hint->site, hint->epoch)) == NULL
        || (st = ra_stat_hinted(l, hint)) == NULL)
    {
        return 0;                       /* another record, or none */
    }
    hour = (uint32_t) (now / RA_HOUR_MS);
    b = &st->hours[hour % RA_HOURS];
    sp = &s->spark[hour % RA_HOURS];
    /* what only the lock may change: a new hour's buckets (a reset), a
     * 5xx/429 episode's crawlers, a budget summary that may be due */
    if (__atomic_load_n(&b->hour, __ATOMIC_RELAXED) != hour
        || __atomic_load_n(&sp->hour, __ATOMIC_RELAXED) != hour
        || __atomic_load_n(&s->failures, __ATOMIC_RELAXED) != 0
        || __atomic_load_n(&l->hdr->budget.suppressed, __ATOMIC_RELAXED) != 0)
    {
        return 0;
    }
    generic = ra_stat_cls(st) == RA_CLS_GENERIC;
    for (m = counters & ((1u << RA_CNT_MAX) - 1); m != 0; m &= m - 1) {
        c = (unsigned) __builtin_ctz(m);
        ra_atomic_add(&st->counters[c], 1);
        ra_atomic_add(&b->counters[c], 1);
        ra_atomic_add(&s->counters[c], 1);
        if (generic) {
            ra_atomic_add(&s->generic[c], 1);
        }
    }
    if (counters & (1u << RA_CNT_REQUESTS)) {
        ra_atomic_add(&sp->requests, 1);
        ra_atomic_add(&l->hdr->requests, 1);
        ra_atomic_add(&l->hdr->crawler_requests, 1);
        if ((pc = ra_purpose_of(s, st)) != NULL) {
            ra_atomic_add(pc, 1);
        }
    }
    if (op < RA_REFER_SLOTS) {
        ra_atomic_add(&s->referral_crawls[op], 1);
    }
    /* plain numbers: two processes adding the same crawler's request at
     * the same instant may each miss the other's (a minute's count, a
     * gap), never more (ra_polite_t) */
    ra_polite_add(&st->polite, now);
    if (crawl_delay_ms >= 0) {
        __atomic_store_n(&st->crawl_delay_ms, crawl_delay_ms,
                         __ATOMIC_RELAXED);
    }
    if (verified_by != 0 && verified_by < RA_VERIFIED_BY_MAX) {
        __atomic_store_n(&st->verified_by, (uint8_t) verified_by,
                         __ATOMIC_RELAXED);
    }
    ra_atomic_later(&st->last_seen, now);
    return 1;
}

void
ra_ledger_page_locked(ra_ledger_t *l, uint32_t site, int status,
    int64_t now)
{
    ra_site_slot_t  *s = ra_site_at(l, site);

    if (s != NULL && status >= 100 && status < 500) {
        ra_atomic_later(&s->pages_answered, now);   /* hinted ones too */
    }
}

void
ra_ledger_polite_locked(ra_ledger_t *l, uint32_t stat, int64_t now,
    int32_t crawl_delay_ms)
{
    ra_stat_slot_t  *st = ra_stat_at(l, stat);

    if (st == NULL) {
        return;
    }
    ra_polite_add(&st->polite, now);
    if (crawl_delay_ms >= 0) {
        st->crawl_delay_ms = crawl_delay_ms;
    }
}


/* ---- politeness ------------------------------------------------------- */

#define RA_MINUTE_MS  60000LL

static unsigned
ra_polite_bin(int64_t gap)
{
    unsigned  k = 0;

    while (k < RA_POLITE_BINS - 1
           && gap >= (int64_t) RA_POLITE_GAP0_MS << k)
    {
        k++;
    }
    return k;
}

void
ra_polite_add(ra_polite_t *p, int64_t now)
{
    unsigned  k, slot, b;
    uint32_t  span, minute, h;

    if (now <= 0) {
        return;
    }
    span = (uint32_t) (now / RA_POLITE_SPAN_MS);
    minute = (uint32_t) (now / RA_MINUTE_MS);
    if (p->bucket == 0) {
        memset(p, 0, sizeof(*p));
        p->bucket = span;
    } else if (span > p->bucket) {
        /* clear the spans between, at most the whole ring */
        for (h = p->bucket + 1, k = 0; h <= span && k < RA_POLITE_BUCKETS;
             h++, k++)
        {
            slot = h % RA_POLITE_BUCKETS;
            p->peak[slot] = 0;
            memset(p->gaps[slot], 0, sizeof(p->gaps[slot]));
        }
        p->bucket = span;
    } else if (p->bucket - span >= RA_POLITE_BUCKETS) {
        return;                         /* older than the ring */
    }
    slot = span % RA_POLITE_BUCKETS;

    if (minute != p->minute) {
        p->minute = minute;
        p->minute_count = 0;
    }
    if (p->minute_count < UINT16_MAX) {
        p->minute_count++;
    }
    if (p->minute_count > p->peak[slot]) {
        p->peak[slot] = p->minute_count;
    }

    if (p->last > 0 && now >= p->last) {
        b = ra_polite_bin(now - p->last);
        if (p->gaps[slot][b] == UINT16_MAX) {
            for (k = 0; k < RA_POLITE_BINS; k++) {
                p->gaps[slot][k] /= 2;
            }
        }
        p->gaps[slot][b]++;
    }
    if (now > p->last) {
        p->last = now;
    }
}

void
ra_polite_read(const ra_polite_t *p, int64_t now, uint32_t *peak,
    int64_t *median_gap_ms)
{
    unsigned  k, b, slot;
    uint64_t  bins[RA_POLITE_BINS], n = 0, half, seen;
    uint32_t  cur, h;
    int64_t   lo, hi;

    *peak = 0;
    *median_gap_ms = -1;
    memset(bins, 0, sizeof(bins));
    if (p->bucket == 0 || now <= 0) {
        return;
    }
    cur = (uint32_t) (now / RA_POLITE_SPAN_MS);
    for (k = 0; k < RA_POLITE_BUCKETS && k <= p->bucket; k++) {
        h = p->bucket - k;
        /* the current span and those before it: 20 to 24 hours */
        if (h > cur || cur - h >= RA_POLITE_BUCKETS) {
            continue;
        }
        slot = h % RA_POLITE_BUCKETS;
        if (p->peak[slot] > *peak) {
            *peak = p->peak[slot];
        }
        for (b = 0; b < RA_POLITE_BINS; b++) {
            bins[b] += p->gaps[slot][b];
            n += p->gaps[slot][b];
        }
    }
    if (n == 0) {
        return;
    }
    /* the lower median: the gap of rank ceil(n / 2), placed linearly
     * within its bin; the last bin says its lower bound */
    half = (n + 1) / 2;
    for (b = 0, seen = 0; b < RA_POLITE_BINS; b++) {
        if (seen + bins[b] >= half) {
            break;
        }
        seen += bins[b];
    }
    lo = b == 0 ? 0 : (int64_t) RA_POLITE_GAP0_MS << (b - 1);
    if (b >= RA_POLITE_BINS - 1) {
        *median_gap_ms = lo;
        return;
    }
    hi = (int64_t) RA_POLITE_GAP0_MS << b;
    *median_gap_ms = lo + (int64_t) ((hi - lo) * (double) (half - seen)
                                     / (double) (bins[b] + 1));
}
