/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The ledger through its own operations: totals, "the zone is full" notes
 * shared by every handle on a region, snapshots naming their own sites,
 * the alert gate, versions and what a verdict copies out.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ra_test.h"
#include "ra_ledger.h"
#include "ra_crawlers.h"
#include "ra_report.h"
#include "ra_verify.h"

#define H        (3600LL * 1000)
#define T0       (1700000000000LL)
#define S(lit)   ra_str(lit, sizeof(lit) - 1)

static unsigned char *
region_new(size_t size, ra_ledger_t *l)
{
    unsigned char  *r = malloc(size);

    assert_non_null(r);
    assert_int_equal(ra_ledger_format(r, size, T0), RA_OK);
    ra_ledger_open(l, r, NULL);
    return r;
}

static uint32_t
site(ra_ledger_t *l, const char *name, int64_t now)
{
    return ra_ledger_site_locked(l, ra_str(name, strlen(name)), now);
}

static uint32_t
stat(ra_ledger_t *l, uint32_t sid, const char *name, unsigned verif,
    const char *token, int64_t now)
{
    ra_stat_key_t  key;

    memset(&key, 0, sizeof(key));
    key.name = ra_str(name, strlen(name));
    key.verification = verif;
    key.kind = RA_UA_KNOWN;
    key.category = RA_CAT_SEARCH;
    key.token = ra_str(token, strlen(token));
    return ra_ledger_stat_locked(l, sid, &key, now);
}

static uint32_t
generic(ra_ledger_t *l, uint32_t sid, unsigned i, int64_t now)
{
    char           name[32];
    ra_stat_key_t  key;

    memset(&key, 0, sizeof(key));
    key.name = ra_str(name, (size_t) snprintf(name, sizeof(name),
                                              "FloodBot%u", i));
    key.verification = RA_VERIFY_UNVERIFIABLE;
    key.kind = RA_UA_GENERIC;
    key.category = RA_CAT_MAX;
    return ra_ledger_stat_locked(l, sid, &key, now);
}

/* the snapshot's record of (site name, crawler name, verification) */
static const ra_stat_t *
snap_stat(const ra_snapshot_t *snap, const char *sname, const char *name,
    unsigned verif)
{
    uint32_t  i;

    for (i = 0; i < snap->nstats; i++) {
        const ra_stat_t  *st = &snap->stats[i];
        const ra_site_t  *s = &snap->sites[st->site - 1];

        if (st->name_len == strlen(name)
            && memcmp(st->name, name, st->name_len) == 0
            && st->verification == verif && s->name_len == strlen(sname)
            && memcmp(s->name, sname, s->name_len) == 0)
        {
            return st;
        }
    }
    return NULL;
}

static void
answer(ra_ledger_t *l, uint32_t sid, int status, const char *body,
    int64_t now)
{
    ra_version_t  v;

    memset(&v, 0, sizeof(v));
    v.status = (uint16_t) status;
    v.size = (uint32_t) strlen(body);
    v.rules = 7;
    (void) ra_ledger_answer_locked(l, sid, &v, ra_str(body, strlen(body)),
                                   now);
}

/* the caller's hash of an answer (made outside the lock) is the one the
 * version is recorded and found by; without one, the ledger hashes */
static void
ledger_answer_caller_hash(void **state)
{
    ra_ledger_t     l;
    unsigned char  *r = region_new(256 * 1024, &l);
    ra_version_t    v;
    uint32_t        sid;
    const char     *b = "User-agent: *\nDisallow: /x\n";
    ra_str_t        body = ra_str(b, strlen(b));
    uint64_t        h = ra_ledger_version_hash(200, body);

    (void) state;
    sid = site(&l, "a.example", T0);
    memset(&v, 0, sizeof(v));
    v.status = 200;
    v.size = (uint32_t) body.len;
    v.hash = h;
    assert_int_equal(ra_ledger_answer_locked(&l, sid, &v, body, T0), 0);
    assert_int_equal(ra_ledger_find_version_locked(&l, sid, h, NULL), 0);
    /* the same answer again, hashed here: the same version */
    v.hash = 0;
    assert_int_equal(ra_ledger_answer_locked(&l, sid, &v, body, T0 + 1), 0);
    assert_int_equal(ra_ledger_find_version_locked(&l, sid, h, NULL), 0);
    /* a hash given is taken as it is: another version */
    v.hash = h ^ 2;
    assert_int_equal(ra_ledger_answer_locked(&l, sid, &v, body, T0 + 2), 1);
    assert_int_equal(ra_ledger_find_version_locked(&l, sid, h ^ 2, NULL), 1);
    assert_null(ra_ledger_verify(&l));
    free(r);
}

/* totals: lock-free, and what a snapshot says */
static void
ledger_totals(void **state)
{
    size_t            size = 256 * 1024;
    ra_ledger_t       l;
    unsigned char    *r = region_new(size, &l);
    ra_ledger_plan_t  plan;
    ra_totals_t       t;
    ra_snapshot_t     snap;
    uint32_t          a, b, s1, s2;

    (void) state;
    ra_ledger_totals(&l, &t);
    assert_int_equal(ra_ledger_plan(size, &plan), RA_OK);
    assert_memory_equal(&t.plan, &plan, sizeof(plan));
    assert_true(t.created == T0);
    assert_int_equal(t.sites, 0);
    assert_int_equal(t.stats, 0);
    assert_int_equal(t.requests, 0);
    assert_int_equal(t.blob_free_bytes, plan.blob_bytes);

    a = site(&l, "a.example", T0);
    b = site(&l, "B.example", T0);
    assert_int_equal(site(&l, "b.EXAMPLE", T0), b);
    s1 = stat(&l, a, "Googlebot", RA_VERIFY_VERIFIED, "Googlebot", T0);
    s2 = stat(&l, b, "Googlebot", RA_VERIFY_VERIFIED, "Googlebot", T0);
    assert_true(s1 != s2);
    ra_ledger_count_locked(&l, a, s1, RA_CNT_REQUESTS);
    ra_ledger_count_locked(&l, a, s1, RA_CNT_VIOLATION);
    ra_ledger_fetch_locked(&l, b, s2, 200, T0 + 1);
    ra_ledger_browser_locked(&l, b, 0);
    answer(&l, a, 200, "User-agent: *\nDisallow: /\n", T0);

    ra_ledger_totals(&l, &t);
    assert_int_equal(t.sites, 2);
    assert_int_equal(t.stats, 2);
    assert_int_equal(t.requests, 3);        /* two counted, one browser */
    assert_true(t.blob_free_bytes < plan.blob_bytes);
    assert_int_equal(t.site_evictions + t.stat_evictions, 0);

    assert_int_equal(ra_ledger_snapshot(&l, &ra_malloc_allocator, 0, &snap),
                     RA_OK);
    assert_memory_equal(&snap.totals, &t, sizeof(t));
    assert_int_equal(snap.nsites, 2);
    assert_int_equal(snap.nstats, 2);
    ra_snapshot_free(&snap, &ra_malloc_allocator);
    free(r);
}

static void
evict_sites(ra_ledger_t *l, int from, int n, int64_t now)
{
    char  name[32];
    int   i;

    for (i = from; i < from + n; i++) {
        snprintf(name, sizeof(name), "s%d.example", i);
        (void) site(l, name, now);
    }
}

/* "the zone is full": once per interval over every handle on the
 * region, and only when evictions moved */
static void
ledger_full_note_once_per_interval(void **state)
{
    ra_ledger_t     a, b;
    unsigned char  *r = region_new(RA_LEDGER_MIN_SIZE, &a);
    ra_totals_t     t;
    uint32_t        cap, sid, i;
    char            name[32];

    (void) state;
    ra_ledger_open(&b, r, NULL);            /* another process's handle */
    ra_ledger_totals(&a, &t);
    cap = t.plan.sites;
    assert_int_equal(ra_ledger_full_note(&a, T0, &t), 0);     /* none */

    evict_sites(&a, 0, (int) cap + 3, T0);
    memset(&t, 0, sizeof(t));
    assert_int_equal(ra_ledger_full_note(&b, T0 + 10, &t), 1);
    assert_int_equal(t.site_evictions, 3);
    assert_int_equal(t.sites, cap);
    /* the other handle, and this one, within the minute: no */
    assert_int_equal(ra_ledger_full_note(&a, T0 + 11, &t), 0);
    assert_int_equal(ra_ledger_full_note(&b, T0 + 12, &t), 0);
    evict_sites(&b, 1000, 2, T0 + 20);
    assert_int_equal(ra_ledger_full_note(&a, T0 + 10 + RA_FULL_NOTE_MS - 1,
                                         &t), 0);
    /* a minute on, with more evictions: yes, once */
    assert_int_equal(ra_ledger_full_note(&a, T0 + 10 + RA_FULL_NOTE_MS, &t),
                     1);
    assert_int_equal(t.site_evictions, 5);
    assert_int_equal(ra_ledger_full_note(&b, T0 + 10 + RA_FULL_NOTE_MS, &t),
                     0);
    /* much later, but nothing moved: no */
    assert_int_equal(ra_ledger_full_note(&b, T0 + 100 * RA_FULL_NOTE_MS, &t),
                     0);
    /* crawler records count too (crawlers of the table hold at most
     * known_max records) */
    sid = site(&a, "s1001.example", T0 + 100 * RA_FULL_NOTE_MS);
    for (i = 0; i <= t.known_max; i++) {
        snprintf(name, sizeof(name), "Bot%u", i);
        (void) stat(&a, sid, name, RA_VERIFY_VERIFIED, "", T0);
    }
    assert_int_equal(ra_ledger_full_note(&b, T0 + 100 * RA_FULL_NOTE_MS, &t),
                     1);
    assert_int_equal(t.stat_evictions, 1);
    assert_int_equal(t.site_evictions, 5);
    free(r);
}

/* The politeness summary, fixed-size: the busiest
 * minute and the median gap over the buckets of the last 24 hours */
static void
ledger_politeness(void **state)
{
    ra_polite_t  p;
    uint32_t     peak;
    int64_t      gap, S = RA_POLITE_SPAN_MS, t0, t;
    int          i;

    (void) state;
    t0 = T0 - T0 % S;
    memset(&p, 0, sizeof(p));
    ra_polite_read(&p, t0, &peak, &gap);
    assert_int_equal(peak, 0);
    assert_int_equal(gap, -1);
    /* 100 requests 300 ms apart: 100 in a minute at most, gaps in
     * [250, 500) ms */
    for (i = 0; i < 100; i++) {
        ra_polite_add(&p, t0 + i * 300);
    }
    ra_polite_read(&p, t0 + 30000, &peak, &gap);
    assert_int_equal(peak, 100);
    assert_true(gap >= 250 && gap < 500);
    /* the next span, 30 s gaps: the median moves as they outnumber */
    for (i = 1; i <= 300; i++) {
        ra_polite_add(&p, t0 + S + i * 30000);
    }
    ra_polite_read(&p, t0 + 2 * S, &peak, &gap);
    assert_int_equal(peak, 100);
    assert_true(gap >= 16000 && gap < 32000);
    /* an older request counts in its minute, adds no gap; one older than
     * the ring is ignored */
    t = t0 + S + 300 * 30000;
    ra_polite_add(&p, t - 10);
    ra_polite_add(&p, t0 - 7 * S);
    ra_polite_read(&p, t0 + 2 * S, &peak, &gap);
    assert_int_equal(peak, 100);
    assert_true(gap >= 16000 && gap < 32000);
    /* 24 hours after the first span, only the second one is left */
    ra_polite_read(&p, t0 + RA_POLITE_BUCKETS * S, &peak, &gap);
    assert_int_equal(peak, 2);       /* 30 s apart */
    assert_true(gap >= 16000 && gap < 32000);
    ra_polite_read(&p, t0 + (RA_POLITE_BUCKETS + 1) * S, &peak, &gap);
    assert_int_equal(peak, 0);
    assert_int_equal(gap, -1);
    /* a day of silence clears the ring */
    ra_polite_add(&p, t0 + 60 * S);
    ra_polite_read(&p, t0 + 60 * S, &peak, &gap);
    assert_int_equal(peak, 1);
    assert_int_equal(gap, 256000);       /* the last bin: its lower bound */
    /* a bin about to overflow halves its bucket's: the median holds */
    memset(&p, 0, sizeof(p));
    for (i = 0; i < 70000; i++) {
        ra_polite_add(&p, t0 + i * 10);          /* 10 ms: bin 0 */
    }
    ra_polite_add(&p, t0 + 70000 * 10 + 1000);   /* one of 1 s */
    ra_polite_read(&p, t0 + 700000, &peak, &gap);
    assert_int_equal(peak, 6000);
    assert_true(gap >= 0 && gap < 250);
    assert_true(sizeof(ra_polite_t) <= 176);     /* per record */
}

/* Recent violations newest first by time, whatever
 * order they were recorded in (logs replay out of order) */
static void
ledger_violations_by_time(void **state)
{
    ra_ledger_t      l;
    unsigned char   *r = region_new(RA_LEDGER_MIN_SIZE, &l);
    ra_snapshot_t    snap;
    ra_violation_t   vio;
    uint32_t         a;
    static const int64_t  times[] = { 5, 1, 9, 9, 3 };
    unsigned         i;

    (void) state;
    a = site(&l, "a.example", T0);
    memset(&vio, 0, sizeof(vio));
    vio.verdict = 3;
    for (i = 0; i < 5; i++) {
        vio.time = T0 + times[i];
        vio.line = i + 1;                       /* names the entry */
        ra_ledger_violation_locked(&l, a, &vio);
    }
    assert_int_equal(ra_ledger_snapshot(&l, &ra_malloc_allocator, 0, &snap),
                     RA_OK);
    assert_int_equal(snap.nviolations, 5);
    /* 9 (recorded last first), 9, 5, 3, 1 */
    assert_int_equal(snap.violations[0].line, 4);
    assert_int_equal(snap.violations[1].line, 3);
    assert_int_equal(snap.violations[2].line, 1);
    assert_int_equal(snap.violations[3].line, 5);
    assert_int_equal(snap.violations[4].line, 2);
    ra_snapshot_free(&snap, &ra_malloc_allocator);
    free(r);
}

/* a snapshot's stats and violations name sites by index + 1 in it; the
 * violations of an evicted site go with it */
/*
 * A generic bot's record is never a table crawler's, whatever the case of
 * the name: (site, "Kangaroo-Bot", unverifiable) of the table and a
 * generic "kangaroo-bot" (or "Kangaroo-Bot") are two records, each found
 * again as itself, by key and by id (a hint), and the structure holds.
 */
static void
ledger_generic_never_a_table_record(void **state)
{
    ra_ledger_t      l;
    unsigned char   *r = region_new(RA_LEDGER_MIN_SIZE, &l);
    ra_stat_key_t    known, gen;
    uint32_t         a, k, g;

    (void) state;
    a = site(&l, "a.example", T0);
    memset(&known, 0, sizeof(known));
    known.name = ra_str("Kangaroo-Bot", 12);
    known.verification = RA_VERIFY_UNVERIFIABLE;
    known.kind = RA_UA_KNOWN;
    known.category = RA_CAT_AI_TRAINING;
    known.token = ra_str("Kangaroo", 8);
    gen = known;
    gen.name = ra_str("kangaroo-bot", 12);
    gen.kind = RA_UA_GENERIC;
    gen.category = RA_CAT_MAX;
    gen.token = gen.name;

    g = ra_ledger_stat_locked(&l, a, &gen, T0);
    k = ra_ledger_stat_locked(&l, a, &known, T0 + 1);
    assert_int_not_equal(g, 0);
    assert_int_not_equal(k, 0);
    assert_int_not_equal(k, g);
    gen.name = ra_str("Kangaroo-Bot", 12);
    assert_int_equal(ra_ledger_stat_locked(&l, a, &gen, T0 + 2), g);
    assert_int_equal(ra_ledger_stat_again_locked(&l, a, g, &gen, T0 + 3), g);
    assert_int_equal(ra_ledger_stat_again_locked(&l, a, g, &known, T0 + 4),
                     k);
    assert_int_equal(ra_ledger_stat_again_locked(&l, a, k, &gen, T0 + 5), g);
    assert_int_equal(ra_ledger_stat_locked(&l, a, &known, T0 + 6), k);
    assert_null(ra_ledger_verify(&l));
    free(r);
}

/* A record keeps the method that last decided its verification: a
 * request decided by none leaves it, another method replaces it, and the
 * snapshot copies it. */
static void
ledger_verified_by(void **state)
{
    ra_ledger_t      l;
    unsigned char   *r = region_new(RA_LEDGER_MIN_SIZE, &l);
    ra_snapshot_t    snap;
    ra_stat_key_t    key;
    uint32_t         a, id, id2;

    (void) state;
    a = site(&l, "a.example", T0);
    memset(&key, 0, sizeof(key));
    key.name = ra_str("Googlebot", 9);
    key.verification = RA_VERIFY_VERIFIED;
    key.kind = RA_UA_KNOWN;
    key.category = RA_CAT_SEARCH;
    key.token = ra_str("googlebot", 9);
    key.verified_by = RA_VERIFIED_BY_RANGES;
    id = ra_ledger_stat_locked(&l, a, &key, T0);
    assert_int_not_equal(id, 0);
    assert_int_equal(ra_ledger_snapshot(&l, &ra_malloc_allocator, 0, &snap),
                     RA_OK);
    assert_int_equal(snap_stat(&snap, "a.example", "Googlebot",
                               RA_VERIFY_VERIFIED)->verified_by,
                     RA_VERIFIED_BY_RANGES);
    ra_snapshot_free(&snap, &ra_malloc_allocator);

    /* none, then a value out of range: kept; rdns: replaced, same record */
    key.verified_by = RA_VERIFIED_BY_NONE;
    assert_int_equal(ra_ledger_stat_locked(&l, a, &key, T0 + 1), id);
    key.verified_by = RA_VERIFIED_BY_MAX;
    assert_int_equal(ra_ledger_stat_locked(&l, a, &key, T0 + 2), id);
    assert_int_equal(ra_ledger_snapshot(&l, &ra_malloc_allocator, 0, &snap),
                     RA_OK);
    assert_int_equal(snap_stat(&snap, "a.example", "Googlebot",
                               RA_VERIFY_VERIFIED)->verified_by,
                     RA_VERIFIED_BY_RANGES);
    ra_snapshot_free(&snap, &ra_malloc_allocator);
    key.verified_by = RA_VERIFIED_BY_RDNS;
    id2 = ra_ledger_stat_locked(&l, a, &key, T0 + 3);
    assert_int_equal(id2, id);
    assert_int_equal(ra_ledger_snapshot(&l, &ra_malloc_allocator, 0, &snap),
                     RA_OK);
    assert_int_equal(snap_stat(&snap, "a.example", "Googlebot",
                               RA_VERIFY_VERIFIED)->verified_by,
                     RA_VERIFIED_BY_RDNS);
    assert_null(ra_ledger_verify(&l));
    ra_snapshot_free(&snap, &ra_malloc_allocator);

    /* a violation keeps the method that decided its verification */
    {
        ra_violation_t  vio;

        memset(&vio, 0, sizeof(vio));
        vio.verdict = 3;
        vio.time = T0 + 4;
        vio.verification = RA_VERIFY_VERIFIED;
        vio.verified_by = RA_VERIFIED_BY_RDNS;
        memcpy(vio.name, "Googlebot", 9);
        vio.name_len = 9;
        ra_ledger_violation_locked(&l, a, &vio);
        vio.time = T0 + 5;
        vio.verified_by = 77;                   /* out of range: none */
        ra_ledger_violation_locked(&l, a, &vio);
        assert_int_equal(ra_ledger_snapshot(&l, &ra_malloc_allocator, 0,
                                            &snap), RA_OK);
        assert_int_equal(snap.nviolations, 2);
        /* newest first */
        assert_int_equal(snap.violations[0].verified_by, RA_VERIFIED_BY_NONE);
        assert_int_equal(snap.violations[1].verified_by, RA_VERIFIED_BY_RDNS);
        ra_snapshot_free(&snap, &ra_malloc_allocator);
    }
    free(r);
}

static void
ledger_snapshot_names_its_sites(void **state)
{
    ra_ledger_t      l;
    unsigned char   *r = region_new(RA_LEDGER_MIN_SIZE, &l);
    ra_snapshot_t    snap;
    ra_violation_t   vio;
    ra_totals_t      t;
    uint32_t         a, b, sa, sb, i;

    (void) state;
    a = site(&l, "a.example", T0);
    b = site(&l, "b.example", T0 + 1);      /* most recent: first */
    sa = stat(&l, a, "Alpha", RA_VERIFY_UNVERIFIABLE, "alpha", T0);
    sb = stat(&l, b, "Beta", RA_VERIFY_UNVERIFIABLE, "beta", T0);
    ra_ledger_count_locked(&l, a, sa, RA_CNT_REQUESTS);
    ra_ledger_count_locked(&l, b, sb, RA_CNT_REQUESTS);
    memset(&vio, 0, sizeof(vio));
    vio.verdict = 3;
    vio.line = 9;
    vio.site = 12345;                       /* ignored */
    memcpy(vio.name, "Alpha", 5);
    vio.name_len = 5;
    vio.time = T0 + 2;
    ra_ledger_violation_locked(&l, a, &vio);
    memcpy(vio.name, "Beta", 4);
    vio.name_len = 4;
    vio.time = T0 + 3;
    ra_ledger_violation_locked(&l, b, &vio);

    assert_int_equal(ra_ledger_snapshot(&l, &ra_malloc_allocator, 0, &snap),
                     RA_OK);
    assert_int_equal(snap.nsites, 2);
    assert_memory_equal(snap.sites[0].name, "b.example", 9);
    assert_memory_equal(snap.sites[1].name, "a.example", 9);
    assert_int_equal(snap.nstats, 2);
    for (i = 0; i < snap.nstats; i++) {
        const ra_stat_t  *st = &snap.stats[i];

        assert_true(st->site == 1 || st->site == 2);
        assert_memory_equal(snap.sites[st->site - 1].name,
                            st->name[0] == 'A' ? "a" : "b", 1);
        assert_int_equal(st->counters[RA_CNT_REQUESTS], 1);
        assert_int_equal(st->kind, RA_UA_KNOWN);
        assert_int_equal(st->category, RA_CAT_SEARCH);
    }
    assert_int_equal(snap.stats[0].site, 1);    /* grouped in site order */
    assert_int_equal(snap.nviolations, 2);
    assert_memory_equal(snap.violations[0].name, "Beta", 4);  /* newest */
    assert_int_equal(snap.violations[0].site, 1);
    assert_int_equal(snap.violations[1].site, 2);
    assert_int_equal(snap.violations[1].line, 9);
    ra_snapshot_free(&snap, &ra_malloc_allocator);

    /* evict a.example (least recently used): its violation goes */
    ra_ledger_totals(&l, &t);
    (void) site(&l, "b.example", T0 + 4);
    evict_sites(&l, 0, (int) t.plan.sites - 1, T0 + 5);
    assert_int_equal(ra_ledger_snapshot(&l, &ra_malloc_allocator, 0, &snap),
                     RA_OK);
    assert_int_equal(snap.nviolations, 1);
    assert_memory_equal(snap.violations[0].name, "Beta", 4);
    assert_memory_equal(snap.sites[snap.violations[0].site - 1].name,
                        "b.example", 9);
    assert_int_equal(snap.nstats, 1);
    ra_snapshot_free(&snap, &ra_malloc_allocator);
    free(r);
}

/* the alert gate: one per interval, with the count held back */
static void
ledger_alert_gate(void **state)
{
    ra_ledger_t     l;
    unsigned char  *r = region_new(RA_LEDGER_MIN_SIZE, &l);
    uint32_t        sid, tid, held;

    (void) state;
    sid = site(&l, "a.example", T0);
    tid = stat(&l, sid, "Alpha", RA_VERIFY_VERIFIED, "alpha", T0);
    assert_int_equal(ra_ledger_alert_locked(&l, tid, T0, 1000, &held), 1);
    assert_int_equal(held, 0);
    assert_int_equal(ra_ledger_alert_locked(&l, tid, T0 + 1, 1000, &held), 0);
    assert_int_equal(ra_ledger_alert_locked(&l, tid, T0 + 999, 1000, &held),
                     0);
    assert_int_equal(ra_ledger_alert_locked(&l, tid, T0 + 1000, 1000, &held),
                     1);
    assert_int_equal(held, 2);
    /* interval 0: every one */
    assert_int_equal(ra_ledger_alert_locked(&l, tid, T0 + 1000, 0, &held), 1);
    assert_int_equal(held, 0);
    assert_int_equal(ra_ledger_alert_locked(&l, tid, T0 + 1000, 0, &held), 1);
    /* a clock set back (the ledger outlives reloads) alerts again rather
     * than keeping quiet until it catches up */
    assert_int_equal(ra_ledger_alert_locked(&l, tid, T0 + 500000, 1000,
                                            &held), 1);
    assert_int_equal(ra_ledger_alert_locked(&l, tid, T0 + 2000, 1000, &held),
                     1);
    assert_int_equal(ra_ledger_alert_locked(&l, tid, T0 + 2001, 1000, &held),
                     0);
    free(r);
}

/* versions: recorded, found by hash, copied out with the history a
 * verdict needs; a new record's kind, category and token stay */
static void
ledger_versions_and_state(void **state)
{
    ra_ledger_t        l;
    unsigned char     *r = region_new(256 * 1024, &l);
    ra_ledger_state_t  g;
    ra_version_t       v;
    ra_snapshot_t      snap;
    ra_str_t           body;
    uint32_t           sid, tid;
    const char        *b1 = "User-agent: *\nDisallow: /one\n";
    const char        *b2 = "User-agent: *\nDisallow: /two\n";

    (void) state;
    sid = site(&l, "a.example", T0);
    tid = stat(&l, sid, "Alpha", RA_VERIFY_VERIFIED, "alpha", T0);
    assert_false(ra_ledger_has_version_locked(&l, sid));
    answer(&l, sid, 503, "", T0);           /* unreachable: no version */
    assert_false(ra_ledger_has_version_locked(&l, sid));
    answer(&l, sid, 200, b1, T0 + 1);
    answer(&l, sid, 200, b2, T0 + H);
    assert_true(ra_ledger_has_version_locked(&l, sid));
    assert_int_equal(ra_ledger_find_version_locked(&l, sid,
                         ra_ledger_version_hash(200, ra_str(b1, strlen(b1))),
                         &v), 0);
    assert_int_equal(v.rules, 7);
    assert_true(v.until == T0 + H);
    assert_int_equal(ra_ledger_find_version_locked(&l, sid,
                         ra_ledger_version_hash(404, ra_str("", 0)), NULL),
                     -1);

    ra_ledger_fetch_locked(&l, sid, tid, 200, T0 + 2 * H);
    ra_ledger_state_locked(&l, sid, tid, T0 + 3 * H, &g);
    assert_int_equal(g.current, 1);
    assert_int_equal(g.versions[1].body_len, strlen(b2));
    assert_true(g.versions[1].until == 0);
    assert_true(g.last_fetch == T0 + 2 * H);
    assert_int_equal(g.last_fetch_status, 200);
    assert_true(g.last_fetch_version == g.versions[1].hash);
    assert_true(g.prev_request == 0);
    body = ra_ledger_body_locked(&l, sid, 0);
    assert_int_equal(body.len, strlen(b1));
    assert_memory_equal(body.data, b1, body.len);
    assert_int_equal(ra_ledger_body_locked(&l, sid, 5).len, 0);
    ra_ledger_state_locked(&l, sid, tid, T0 + 4 * H, &g);
    assert_true(g.prev_request == T0 + 3 * H);

    /* found again with another token: the first one stays */
    assert_int_equal(stat(&l, sid, "Alpha", RA_VERIFY_VERIFIED, "other",
                          T0 + 5 * H), tid);
    assert_int_equal(ra_ledger_snapshot(&l, &ra_malloc_allocator, 1, &snap),
                     RA_OK);
    assert_int_equal(snap.nstats, 1);
    assert_int_equal(snap.stats[0].token_len, 5);
    assert_memory_equal(snap.stats[0].token, "alpha", 5);
    assert_true(snap.stats[0].last_seen == T0 + 5 * H);
    assert_int_equal(snap.stats[0].counters[RA_CNT_ROBOTS_FETCHES], 1);
    assert_int_equal(snap.bodies[0].len, strlen(b2));
    assert_int_equal(snap.sites[0].failures, 0);
    assert_int_equal(snap.sites[0].nversions, 2);
    ra_snapshot_free(&snap, &ra_malloc_allocator);
    free(r);
}

/*
 * A flood of generic bots, each with a new name and a violation: they
 * evict one another only, in their own area; a verified Googlebot keeps
 * its record and its violations; the site's generic aggregate (and the
 * Prometheus counter drawn from it) keeps rising; evictions are counted.
 */
static void
ledger_flood_keeps_evidence(void **state)
{
    size_t          size = 512 * 1024;
    ra_ledger_t     l;
    unsigned char  *r = region_new(size, &l);
    ra_totals_t     t;
    ra_snapshot_t   snap;
    ra_violation_t  vio;
    ra_buf_t        b;
    uint32_t        sid, g, id, i, n, flood;
    uint64_t        before;
    char            want[160];
    const ra_stat_t *st;

    (void) state;
    ra_ledger_totals(&l, &t);
    sid = site(&l, "a.example", T0);
    g = stat(&l, sid, "Googlebot", RA_VERIFY_VERIFIED, "googlebot", T0);
    for (i = 0; i < 5; i++) {
        ra_ledger_count_locked(&l, sid, g, RA_CNT_REQUESTS);
        ra_ledger_count_locked(&l, sid, g, RA_CNT_VIOLATION);
    }
    memset(&vio, 0, sizeof(vio));
    vio.verdict = 3;
    vio.name_len = 9;
    memcpy(vio.name, "Googlebot", 9);
    ra_ledger_violation_locked(&l, sid, &vio);

    /* three times the whole table of new generic names */
    flood = 3 * t.plan.stats;
    for (i = 0; i < flood; i++) {
        id = generic(&l, sid, i, T0 + 1 + i);
        assert_true(id != 0 && id != g);
        ra_ledger_count_locked(&l, sid, id, RA_CNT_REQUESTS);
        ra_ledger_count_locked(&l, sid, id, RA_CNT_VIOLATION);
        if (i % 997 == 0) {
            ra_totals_t  u;

            ra_ledger_totals(&l, &u);
            assert_true(u.stats_generic <= u.generic_max);
        }
    }
    assert_null(ra_ledger_verify(&l));
    ra_ledger_totals(&l, &t);
    assert_int_equal(t.stats_generic, t.generic_max);
    assert_int_equal(t.stats, t.generic_max + 1);
    assert_true(t.stat_evictions == flood - t.generic_max);

    /* Googlebot: the same record, untouched (found, not created) */
    assert_int_equal(stat(&l, sid, "Googlebot", RA_VERIFY_VERIFIED,
                          "googlebot", T0 + flood + 1), g);
    assert_int_equal(ra_ledger_snapshot(&l, &ra_malloc_allocator, 0, &snap),
                     RA_OK);
    st = snap_stat(&snap, "a.example", "Googlebot", RA_VERIFY_VERIFIED);
    assert_non_null(st);
    assert_int_equal(st->counters[RA_CNT_VIOLATION], 5);
    assert_int_equal(snap.nsites, 1);
    assert_true(snap.sites[0].generic[RA_CNT_VIOLATION] == flood);
    assert_true(snap.sites[0].generic[RA_CNT_REQUESTS] == flood);
    assert_true(snap.sites[0].counters[RA_CNT_VIOLATION] == flood + 5);
    assert_int_equal(snap.nviolations, 1);

    /* Prometheus: the generic counter is the aggregate, not what the
     * records still in the table add up to */
    ra_buf_init(&b, &ra_malloc_allocator, 0, 0);
    assert_int_equal(ra_report_render(&snap, RA_REPORT_PROMETHEUS, NULL, &b),
                     RA_OK);
    ra_buf_ch(&b, '\0');
    snprintf(want, sizeof(want), "robots_audit_requests_total{site=\"a."
             "example\",crawler=\"generic\",verification=\"unverifiable\","
             "method=\"none\",verdict=\"violation\"} %u\n", flood);
    assert_non_null(strstr((const char *) b.data, want));
    snprintf(want, sizeof(want), "robots_audit_evictions_total{table="
             "\"stats\"} %llu\n", (unsigned long long) t.stat_evictions);
    assert_non_null(strstr((const char *) b.data, want));
    ra_buf_release(&b);
    ra_snapshot_free(&snap, &ra_malloc_allocator);

    /* still rising */
    before = flood;
    id = generic(&l, sid, flood + 7, T0 + 2 * flood);
    ra_ledger_count_locked(&l, sid, id, RA_CNT_VIOLATION);
    assert_int_equal(ra_ledger_snapshot(&l, &ra_malloc_allocator, 0, &snap),
                     RA_OK);
    assert_true(snap.sites[0].generic[RA_CNT_VIOLATION] == before + 1);
    ra_snapshot_free(&snap, &ra_malloc_allocator);

    /*
     * Verified crawlers of the table take generic bots' slots when nothing is
     * free, down to the generic reserve, then evict each other only:
     * Googlebot, the least recently used, goes first.
     */
    before = t.stat_evictions;
    n = t.known_max;            /* Googlebot + n - 1 new ones fill it */
    for (i = 1; i < n; i++) {
        char  name[32];

        snprintf(name, sizeof(name), "Known%u", i);
        assert_true(stat(&l, sid, name, RA_VERIFY_VERIFIED, "",
                         T0 + 3 * flood + i) != 0);
    }
    ra_ledger_totals(&l, &t);
    assert_int_equal(t.stats, t.plan.stats);
    assert_int_equal(t.stats_generic, t.plan.stats - t.known_max);
    assert_null(ra_ledger_verify(&l));
    /* one more: a crawler of the table is evicted, not a generic bot */
    (void) stat(&l, sid, "KnownLast", RA_VERIFY_VERIFIED, "",
                T0 + 5 * flood);
    ra_ledger_totals(&l, &t);
    assert_int_equal(t.stats_generic, t.plan.stats - t.known_max);
    assert_int_equal(ra_ledger_snapshot(&l, &ra_malloc_allocator, 0, &snap),
                     RA_OK);
    assert_null(snap_stat(&snap, "a.example", "Googlebot",
                          RA_VERIFY_VERIFIED));
    ra_snapshot_free(&snap, &ra_malloc_allocator);
    /* and generic bots still find room in their reserve */
    assert_true(generic(&l, sid, 5 * flood, T0 + 6 * flood) != 0);
    ra_ledger_totals(&l, &t);
    assert_int_equal(t.stats_generic, t.plan.stats - t.known_max);
    assert_null(ra_ledger_verify(&l));
    free(r);
}

/* A site evicted takes its records with it (its own list: no scan), and
 * the slots come back through the free lists. */
static void
ledger_site_eviction_frees_its_records(void **state)
{
    ra_ledger_t     l;
    unsigned char  *r = region_new(4 * RA_LEDGER_MIN_SIZE, &l);
    ra_totals_t     t;
    uint32_t        a, i;

    (void) state;
    a = site(&l, "first.example", T0);
    for (i = 0; i < 6; i++) {
        assert_true(generic(&l, a, i, T0) != 0);
    }
    (void) stat(&l, a, "Googlebot", RA_VERIFY_VERIFIED, "googlebot", T0);
    answer(&l, a, 200, "User-agent: *\nDisallow: /\n", T0);
    ra_ledger_totals(&l, &t);
    assert_int_equal(t.stats, 7);
    evict_sites(&l, 0, (int) t.plan.sites, T0 + 1);
    ra_ledger_totals(&l, &t);
    assert_int_equal(t.site_evictions, 1);
    assert_int_equal(t.stats, 0);
    assert_int_equal(t.stats_generic, 0);
    assert_int_equal(t.blob_free_bytes, t.plan.blob_bytes);
    assert_null(ra_ledger_verify(&l));
    free(r);
}


/* Rule hits per line of the version in force, bounded, and
 * starting again with a new version */
static void
ledger_rule_hits(void **state)
{
    ra_ledger_t     l;
    unsigned char  *r = region_new(256 * 1024, &l);
    ra_snapshot_t   snap;
    ra_version_t    v;
    const ra_stat_t *st;
    uint32_t        a, g, i;
    uint64_t        h1, h2;
    const char     *body = "User-agent: *\nDisallow: /private\nAllow: /\n";

    (void) state;
    a = site(&l, "rules.example", T0);
    answer(&l, a, 200, body, T0);
    assert_true(ra_ledger_find_version_locked(&l, a,
                    ra_ledger_version_hash(200, ra_str(body, strlen(body))),
                    &v) >= 0);
    h1 = v.hash;
    /* a hash that is not the version in force counts nothing */
    ra_ledger_rule_hit_locked(&l, a, 0, h1 + 1, 2, 0, 1);
    ra_ledger_rule_hit_locked(&l, a, 0, h1, 2, 0, 1);
    ra_ledger_rule_hit_locked(&l, a, 0, h1, 2, 0, 0);
    ra_ledger_rule_hit_locked(&l, a, 0, h1, 3, 1, 0);
    ra_ledger_rule_hit_locked(&l, a, 0, h1, 0, 1, 0);      /* no line */
    /* more lines than kept: summed apart */
    for (i = 0; i < RA_RULE_LINES + 5; i++) {
        ra_ledger_rule_hit_locked(&l, a, 0, h1, 100 + i, 0, i % 2);
    }
    assert_int_equal(ra_ledger_snapshot(&l, &ra_malloc_allocator, 0, &snap),
                     RA_OK);
    assert_int_equal(snap.nsites, 1);
    assert_true(snap.sites[0].rule_version == h1);
    assert_int_equal(snap.sites[0].rule_hits[0].line, 2);
    assert_int_equal(snap.sites[0].rule_hits[0].allow, 0);
    assert_int_equal(snap.sites[0].rule_hits[0].matched, 2);
    assert_int_equal(snap.sites[0].rule_hits[0].violations, 1);
    assert_int_equal(snap.sites[0].rule_hits[1].line, 3);
    assert_int_equal(snap.sites[0].rule_hits[1].allow, 1);
    assert_int_equal(snap.sites[0].rule_hits[1].matched, 1);
    assert_int_equal(snap.sites[0].rule_hits[RA_RULE_LINES - 1].line,
                     100 + RA_RULE_LINES - 3);
    assert_int_equal(snap.sites[0].rule_other_matched, 7);
    assert_int_equal(snap.sites[0].rule_other_violations, 3);
    ra_snapshot_free(&snap, &ra_malloc_allocator);

    /* a crawler's share: its first RA_CRAWLER_RULE_LINES lines */
    g = stat(&l, a, "Googlebot", RA_VERIFY_VERIFIED, "googlebot", T0);
    ra_ledger_rule_hit_locked(&l, a, g, h1, 2, 0, 1);
    ra_ledger_rule_hit_locked(&l, a, g, h1, 2, 0, 0);
    ra_ledger_rule_hit_locked(&l, a, g, h1, 3, 1, 0);
    for (i = 0; i < RA_CRAWLER_RULE_LINES + 3; i++) {
        ra_ledger_rule_hit_locked(&l, a, g, h1, 200 + i, 0, 0);
    }
    ra_ledger_rule_hit_locked(&l, a, g, h1 + 1, 2, 0, 1);  /* not in force */
    assert_int_equal(ra_ledger_snapshot(&l, &ra_malloc_allocator, 0, &snap),
                     RA_OK);
    st = snap_stat(&snap, "rules.example", "Googlebot", RA_VERIFY_VERIFIED);
    assert_non_null(st);
    assert_true(st->rule_version == h1);
    assert_int_equal(st->rule_hits[0].line, 2);
    assert_int_equal(st->rule_hits[0].matched, 2);
    assert_int_equal(st->rule_hits[0].violations, 1);
    assert_int_equal(st->rule_hits[1].line, 3);
    assert_int_equal(st->rule_hits[1].allow, 1);
    assert_int_equal(st->rule_hits[RA_CRAWLER_RULE_LINES - 1].line,
                     200 + RA_CRAWLER_RULE_LINES - 3);
    /* the site counted the same requests */
    assert_int_equal(snap.sites[0].rule_hits[0].matched, 4);
    ra_snapshot_free(&snap, &ra_malloc_allocator);

    /* a new version: its own counts */
    answer(&l, a, 200, "User-agent: *\nDisallow: /\n", T0 + H);
    h2 = ra_ledger_version_hash(200, S("User-agent: *\nDisallow: /\n"));
    ra_ledger_rule_hit_locked(&l, a, 0, h1, 2, 0, 1);      /* old: ignored */
    ra_ledger_rule_hit_locked(&l, a, 0, h2, 2, 0, 1);
    assert_int_equal(ra_ledger_snapshot(&l, &ra_malloc_allocator, 0, &snap),
                     RA_OK);
    assert_true(snap.sites[0].rule_version == h2);
    assert_int_equal(snap.sites[0].rule_hits[0].matched, 1);
    assert_int_equal(snap.sites[0].rule_hits[1].line, 0);
    assert_int_equal(snap.sites[0].rule_other_matched, 0);
    ra_snapshot_free(&snap, &ra_malloc_allocator);
    assert_null(ra_ledger_verify(&l));
    free(r);
}

/* Hourly buckets per crawler record, summed over the current
 * hour and the last 24; older hours leave, out-of-order ones are not
 * counted into a newer bucket */
static void
ledger_hours(void **state)
{
    ra_ledger_t     l;
    unsigned char  *r = region_new(256 * 1024, &l);
    ra_snapshot_t   snap;
    const ra_stat_t *st;
    uint64_t        c[RA_CNT_MAX];
    uint32_t        a, t;
    int64_t         base = (T0 / H) * H;    /* the top of an hour */
    int             i;

    (void) state;
    a = site(&l, "hours.example", base);
    /* one request an hour for 30 hours, a violation every third */
    for (i = 0; i < 30; i++) {
        a = site(&l, "hours.example", base + i * H + 60000);
        t = stat(&l, a, "Googlebot", RA_VERIFY_VERIFIED, "googlebot",
                 base + i * H + 60000);
        ra_ledger_count_locked(&l, a, t, RA_CNT_REQUESTS);
        ra_ledger_count_locked(&l, a, t, i % 3 ? RA_CNT_COMPLIANT
                                               : RA_CNT_VIOLATION);
    }
    /* three more in the last hour */
    for (i = 0; i < 3; i++) {
        a = site(&l, "hours.example", base + 29 * H + 120000 + i);
        t = stat(&l, a, "Googlebot", RA_VERIFY_VERIFIED, "googlebot",
                 base + 29 * H + 120000 + i);
        ra_ledger_count_locked(&l, a, t, RA_CNT_REQUESTS);
    }
    /* a request logged 25 hours late: not in any bucket */
    a = site(&l, "hours.example", base + 4 * H);
    t = stat(&l, a, "Googlebot", RA_VERIFY_VERIFIED, "googlebot",
             base + 4 * H);
    ra_ledger_count_locked(&l, a, t, RA_CNT_REQUESTS);

    assert_int_equal(ra_ledger_snapshot(&l, &ra_malloc_allocator, 0, &snap),
                     RA_OK);
    st = snap_stat(&snap, "hours.example", "Googlebot", RA_VERIFY_VERIFIED);
    assert_non_null(st);
    assert_int_equal(st->counters[RA_CNT_REQUESTS], 34);
    assert_true(st->first_seen == base + 60000);
    ra_hours_sum(st->hours, base + 29 * H + 1800000, 1, c);
    assert_int_equal(c[RA_CNT_REQUESTS], 4);
    assert_int_equal(c[RA_CNT_COMPLIANT], 1);           /* 29 % 3 */
    assert_int_equal(c[RA_CNT_VIOLATION], 0);
    ra_hours_sum(st->hours, base + 29 * H + 1800000, 24, c);
    /* hours 6..29: 24 requests, 3 more; violations at 6,9,...,27 */
    assert_int_equal(c[RA_CNT_REQUESTS], 27);
    assert_int_equal(c[RA_CNT_VIOLATION], 8);
    assert_int_equal(c[RA_CNT_COMPLIANT], 16);
    /* two hours later the current hour is empty */
    ra_hours_sum(st->hours, base + 31 * H, 1, c);
    assert_int_equal(c[RA_CNT_REQUESTS], 0);
    ra_hours_sum(st->hours, base + 31 * H, 24, c);
    assert_int_equal(c[RA_CNT_REQUESTS], 25);
    /* the site's sparkline buckets: requests and violations per hour */
    for (i = 0; i < RA_HOURS; i++) {
        const ra_spark_t  *k = &snap.sites[0].spark[i];
        uint32_t           hr = k->hour - (uint32_t) (base / H);

        assert_true(hr >= 6 && hr <= 29);
        assert_int_equal(k->hour % RA_HOURS, (uint32_t) i);
        assert_int_equal(k->requests, hr == 29 ? 4 : 1);
        assert_int_equal(k->violations, hr % 3 == 0);
    }
    ra_snapshot_free(&snap, &ra_malloc_allocator);
    free(r);
}

/* 5xx/429 episodes: start, end, the crawlers meanwhile; a
 * bounded ring per site */
static void
ledger_episodes(void **state)
{
    ra_ledger_t     l;
    unsigned char  *r = region_new(256 * 1024, &l);
    ra_snapshot_t   snap;
    const ra_episode_t *e;
    uint32_t        a, g, b, i;
    char            name[16];

    (void) state;
    a = site(&l, "down.example", T0);
    answer(&l, a, 200, "User-agent: *\nDisallow: /x\n", T0);
    g = stat(&l, a, "Googlebot", RA_VERIFY_VERIFIED, "googlebot", T0);
    ra_ledger_count_locked(&l, a, g, RA_CNT_REQUESTS);   /* before */
    answer(&l, a, 503, "", T0 + 1000);
    answer(&l, a, 429, "", T0 + 2000);
    ra_ledger_count_locked(&l, a, g, RA_CNT_REQUESTS);
    ra_ledger_count_locked(&l, a, g, RA_CNT_REQUESTS);
    b = stat(&l, a, "bingbot", RA_VERIFY_IMPOSTOR, "bingbot", T0 + 2500);
    ra_ledger_count_locked(&l, a, b, RA_CNT_REQUESTS);
    for (i = 0; i < RA_EPISODE_CRAWLERS + 1; i++) {
        snprintf(name, sizeof(name), "Bot%u", i);
        b = stat(&l, a, name, RA_VERIFY_VERIFIED, "x", T0 + 2600);
        ra_ledger_count_locked(&l, a, b, RA_CNT_REQUESTS);
    }
    assert_int_equal(ra_ledger_snapshot(&l, &ra_malloc_allocator, 0, &snap),
                     RA_OK);
    assert_int_equal(snap.sites[0].episode_next, 1);
    e = &snap.sites[0].episodes[0];
    assert_true(e->start == T0 + 1000);
    assert_true(e->end == 0);                   /* still going on */
    ra_snapshot_free(&snap, &ra_malloc_allocator);

    ra_ledger_answer_unchanged_locked(&l, a, T0 + 5000);    /* a 304 */
    ra_ledger_count_locked(&l, a, g, RA_CNT_REQUESTS);      /* after */
    assert_int_equal(ra_ledger_snapshot(&l, &ra_malloc_allocator, 0, &snap),
                     RA_OK);
    e = &snap.sites[0].episodes[0];
    assert_true(e->start == T0 + 1000);
    assert_true(e->end == T0 + 5000);
    assert_int_equal(e->answers, 2);
    assert_int_equal(e->status, 429);
    assert_int_equal(e->ncrawlers, RA_EPISODE_CRAWLERS);
    assert_int_equal(e->name_len[0], 9);
    assert_memory_equal(e->name[0], "Googlebot", 9);
    assert_int_equal(e->requests[0], 2);
    assert_memory_equal(e->name[1], "bingbot", 7);
    assert_int_equal(e->requests[1], 1);
    assert_int_equal(e->others, 3);             /* Bot2, Bot3, Bot4 */
    ra_snapshot_free(&snap, &ra_malloc_allocator);

    /* the ring keeps the last RA_EPISODES */
    for (i = 0; i < RA_EPISODES + 2; i++) {
        answer(&l, a, 500, "", T0 + 10000 + i * 100);
        answer(&l, a, 200, "User-agent: *\nDisallow: /x\n",
               T0 + 10050 + i * 100);
    }
    assert_int_equal(ra_ledger_snapshot(&l, &ra_malloc_allocator, 0, &snap),
                     RA_OK);
    for (i = 0; i < RA_EPISODES; i++) {
        e = &snap.sites[0].episodes[i];
        assert_true(e->start >= T0 + 10000);
        assert_true(e->end - e->start == 50);
    }
    e = &snap.sites[0].episodes[(snap.sites[0].episode_next + RA_EPISODES
                                 - 1) % RA_EPISODES];
    assert_true(e->start == T0 + 10000 + (RA_EPISODES + 1) * 100);
    ra_snapshot_free(&snap, &ra_malloc_allocator);
    assert_null(ra_ledger_verify(&l));
    free(r);
}

/* A violation keeps its evidence: verified_by, the crawler's
 * last robots.txt fetch, the SHA-256 of the version in force */
static void
ledger_violation_evidence(void **state)
{
    ra_ledger_t     l;
    unsigned char  *r = region_new(256 * 1024, &l);
    ra_snapshot_t   snap;
    ra_violation_t  vio;
    ra_version_t    v;
    uint32_t        a;

    (void) state;
    a = site(&l, "evidence.example", T0);
    memset(&v, 0, sizeof(v));
    v.status = 200;
    v.size = 5;
    memset(v.sha256, 0xab, sizeof(v.sha256));
    (void) ra_ledger_answer_locked(&l, a, &v, S("x: y\n"), T0);
    memset(&vio, 0, sizeof(vio));
    vio.time = T0 + 1;
    vio.verdict = 3;
    vio.verification = RA_VERIFY_VERIFIED;
    vio.verified_by = RA_VERIFIED_BY_RANGES;
    vio.last_fetch = T0 - 5;
    ra_ledger_violation_locked(&l, a, &vio);
    assert_int_equal(ra_ledger_snapshot(&l, &ra_malloc_allocator, 0, &snap),
                     RA_OK);
    assert_int_equal(snap.nviolations, 1);
    assert_int_equal(snap.violations[0].verified_by, RA_VERIFIED_BY_RANGES);
    assert_true(snap.violations[0].last_fetch == T0 - 5);
    assert_memory_equal(snap.violations[0].robots_sha256, v.sha256, 32);
    ra_snapshot_free(&snap, &ra_malloc_allocator);
    free(r);
}

/* the snapshot's site of this name, or NULL */
static const ra_site_t *
snap_site(const ra_snapshot_t *snap, const char *name)
{
    uint32_t  i;

    for (i = 0; i < snap->nsites; i++) {
        if (snap->sites[i].name_len == strlen(name)
            && memcmp(snap->sites[i].name, name, strlen(name)) == 0)
        {
            return &snap->sites[i];
        }
    }
    return NULL;
}

/*
 * A process's hint (site id and epoch, record id and tag) counts without
 * the lock while its slots hold what they held; once the site is evicted
 * and its slot reused by another site, the hint is refused and nothing is
 * counted on the new occupant.  The hinted counts are the locked ones:
 * the site's browsers, referrals, pages answered, the record's counters,
 * its hour and the site's.
 */
static void
ledger_hints_refused_after_reuse(void **state)
{
    ra_ledger_t        l;
    unsigned char     *r = region_new(RA_LEDGER_MIN_SIZE, &l);
    ra_ledger_plan_t   plan;
    ra_ledger_hint_t   hint;
    ra_snapshot_t      snap;
    const ra_site_t   *s;
    const ra_stat_t   *st;
    uint32_t           a, i, other, epoch;
    uint64_t           hours[RA_CNT_MAX];
    char               name[32];
    int64_t            t = T0 + 5 * H;

    (void) state;
    assert_int_equal(ra_ledger_plan(RA_LEDGER_MIN_SIZE, &plan), RA_OK);
    a = site(&l, "a.example", t);
    epoch = ra_ledger_site_epoch_locked(&l, a);
    assert_int_not_equal(epoch, 0);
    assert_int_equal(ra_ledger_site_hint(&l, a, epoch), a);
    assert_int_equal(ra_ledger_site_hint(&l, a, epoch + 1), 0);
    assert_int_equal(ra_ledger_site_hint(&l, 0, epoch), 0);
    assert_int_equal(ra_ledger_site_hint(&l, plan.sites + 1, epoch), 0);

    /* browsers: counted as ra_ledger_browser_locked() and the rest */
    assert_int_equal(ra_ledger_browser_hinted(&l, a, epoch, 0, 3, 200, t), 1);
    assert_int_equal(ra_ledger_browser_hinted(&l, a, epoch, 1, RA_REFER_SLOTS,
                                              0, t + 1), 1);
    assert_int_equal(ra_ledger_browser_hinted(&l, a, epoch, 0, 999, 503,
                                              t + 2), 1);

    /* a record: the first request of an hour resets its bucket under the
     * lock, so the hint refuses it; then it counts */
    memset(&hint, 0, sizeof(hint));
    hint.site = a;
    hint.epoch = epoch;
    hint.stat = stat(&l, a, "TestBot", RA_VERIFY_VERIFIED, "TestBot", t);
    hint.tag = ra_ledger_stat_tag_locked(&l, hint.stat);
    assert_int_not_equal(hint.tag, 0);
    assert_int_equal(ra_ledger_count_hinted(&l, &hint,
                         1u << RA_CNT_REQUESTS | 1u << RA_CNT_COMPLIANT,
                         RA_REFER_SLOTS, t, 0, 0), 0);
    ra_ledger_count_locked(&l, a, hint.stat, RA_CNT_REQUESTS);
    ra_ledger_count_locked(&l, a, hint.stat, RA_CNT_COMPLIANT);
    assert_int_equal(ra_ledger_count_hinted(&l, &hint,
                         1u << RA_CNT_REQUESTS | 1u << RA_CNT_COMPLIANT
                         | 1u << RA_CNT_CRAWL_DELAY, 2, t + 1000, 2000,
                         RA_VERIFIED_BY_RANGES), 1);
    /* a wrong tag: another record */
    hint.tag ^= 1;
    assert_int_equal(ra_ledger_count_hinted(&l, &hint,
                         1u << RA_CNT_REQUESTS, RA_REFER_SLOTS, t + 2000, 0,
                         0), 0);
    hint.tag ^= 1;

    assert_int_equal(ra_ledger_snapshot(&l, &ra_malloc_allocator, 0, &snap),
                     RA_OK);
    s = snap_site(&snap, "a.example");
    assert_non_null(s);
    assert_int_equal(s->browser_requests, 2);
    assert_int_equal(s->no_user_agent, 1);
    assert_int_equal(s->referrals[3], 1);
    assert_int_equal(s->referral_crawls[2], 1);
    assert_int_equal(s->pages_answered, t);       /* 503: not answered */
    assert_int_equal(s->counters[RA_CNT_REQUESTS], 2);
    assert_int_equal(s->counters[RA_CNT_COMPLIANT], 2);
    assert_int_equal(s->counters[RA_CNT_CRAWL_DELAY], 1);
    assert_int_equal(s->spark[(t / H) % RA_HOURS].requests, 2);
    st = snap_stat(&snap, "a.example", "TestBot", RA_VERIFY_VERIFIED);
    assert_non_null(st);
    assert_int_equal(st->counters[RA_CNT_REQUESTS], 2);
    assert_int_equal(st->counters[RA_CNT_CRAWL_DELAY], 1);
    assert_int_equal(st->crawl_delay_ms, 2000);
    assert_int_equal(st->verified_by, RA_VERIFIED_BY_RANGES);
    assert_int_equal(st->last_seen, t + 1000);
    ra_hours_sum(st->hours, t + 1000, 1, hours);
    assert_int_equal(hours[RA_CNT_REQUESTS], 2);
    assert_int_equal(hours[RA_CNT_COMPLIANT], 2);
    assert_int_equal(snap.totals.requests, 5);
    assert_int_equal(snap.totals.crawler_requests, 2);
    ra_snapshot_free(&snap, &ra_malloc_allocator);

    /* other sites take every slot; one of them gets a's */
    other = 0;
    for (i = 0; i < plan.sites && other == 0; i++) {
        snprintf(name, sizeof(name), "b%u.example", i);
        if (site(&l, name, t + 10 + i) == a) {
            other = a;
        }
    }
    assert_int_equal(other, a);
    assert_int_not_equal(ra_ledger_site_epoch_locked(&l, a), epoch);
    (void) stat(&l, a, "TestBot", RA_VERIFY_VERIFIED, "TestBot", t + 100);
    assert_int_equal(ra_ledger_site_hint(&l, a, epoch), 0);
    assert_int_equal(ra_ledger_browser_hinted(&l, a, epoch, 0, 3, 200,
                                              t + 200), 0);
    assert_int_equal(ra_ledger_count_hinted(&l, &hint,
                         1u << RA_CNT_REQUESTS, 3, t + 200, 0, 0), 0);
    assert_int_equal(ra_ledger_snapshot(&l, &ra_malloc_allocator, 0, &snap),
                     RA_OK);
    assert_null(snap_site(&snap, "a.example"));
    s = snap_site(&snap, name);
    assert_non_null(s);
    assert_int_equal(s->browser_requests, 0);
    assert_int_equal(s->referrals[3], 0);
    assert_int_equal(s->referral_crawls[3], 0);
    assert_int_equal(s->counters[RA_CNT_REQUESTS], 0);
    st = snap_stat(&snap, name, "TestBot", RA_VERIFY_VERIFIED);
    assert_non_null(st);
    assert_int_equal(st->counters[RA_CNT_REQUESTS], 0);
    ra_snapshot_free(&snap, &ra_malloc_allocator);
    assert_null(ra_ledger_verify(&l));
    free(r);
}

/*
 * What a verdict reads, without the lock by a hint: the same as under it,
 * a new version seen at once, the record's previous request moved on,
 * the page answered; refused once the record's slot holds another.
 */
static void
ledger_state_hinted(void **state)
{
    ra_ledger_t        l;
    unsigned char     *r = region_new(256 * 1024, &l);
    ra_ledger_hint_t   hint;
    ra_ledger_state_t  a, b;
    int64_t            t = T0 + 3 * H;

    (void) state;
    memset(&hint, 0, sizeof(hint));
    hint.site = site(&l, "a.example", t);
    hint.epoch = ra_ledger_site_epoch_locked(&l, hint.site);
    hint.stat = stat(&l, hint.site, "TestBot", RA_VERIFY_VERIFIED, "TestBot",
                     t);
    hint.tag = ra_ledger_stat_tag_locked(&l, hint.stat);
    answer(&l, hint.site, 200, "User-agent: *\nDisallow: /a\n", t);
    ra_ledger_fetch_locked(&l, hint.site, hint.stat, 200, t + 1);

    ra_ledger_state_locked(&l, hint.site, hint.stat, t + 2, &a);
    assert_int_equal(ra_ledger_state_hinted(&l, &hint, t + 3, 200, 0, &b), 1);
    assert_int_equal(a.current, b.current);
    assert_true(b.current >= 0);
    assert_true(a.versions[a.current].hash == b.versions[b.current].hash);
    assert_int_equal(b.last_fetch, t + 1);
    assert_true(b.last_fetch_version == a.versions[a.current].hash);
    assert_int_equal(b.prev_request, t + 2);
    assert_int_equal(a.pages_answered, 0);
    assert_int_equal(b.pages_answered, t + 3);

    /* a new version in force: read at once */
    answer(&l, hint.site, 200, "User-agent: *\nDisallow: /b\n", t + 4);
    assert_int_equal(ra_ledger_state_hinted(&l, &hint, t + 5, 0, 0, &b), 1);
    assert_int_equal(b.prev_request, t + 3);
    assert_true(b.versions[b.current].hash != a.versions[a.current].hash);
    assert_true(b.versions[b.current].until == 0);
    assert_true(b.versions[a.current].until == t + 4);
    ra_ledger_state_locked(&l, hint.site, hint.stat, t + 6, &a);
    assert_true(a.versions[a.current].hash == b.versions[b.current].hash);

    /* 5xx answers: the failing run is read as it is */
    answer(&l, hint.site, 503, "", t + 7);
    assert_int_equal(ra_ledger_state_hinted(&l, &hint, t + 8, 0, 0, &b), 1);
    assert_int_equal(b.failing_since, t + 7);

    /* another key's record in the slot: refused */
    hint.tag ^= 1;
    assert_int_equal(ra_ledger_state_hinted(&l, &hint, t + 9, 0, 0, &b), 0);
    assert_null(ra_ledger_verify(&l));
    free(r);
}

/*
 * A record's hint is refused once its slot holds another record, even
 * one whose key hashes alike: "Bot269zbYwi" and "Bot8zcUuXWb" meet in
 * the 32-bit hash of (site 1, unverifiable, name), and generic names are
 * anyone's to send.  When the second is created in the first's slot (the
 * first evicted as its class's oldest), the first's hint must neither
 * count on it nor read its fetches (they decide "unreachable", "no
 * robots.txt fetch" and which older version excuses a request).
 */
static void
ledger_hint_refused_for_colliding_key(void **state)
{
    ra_ledger_t        l;
    unsigned char     *r = region_new(RA_LEDGER_MIN_SIZE, &l);
    ra_ledger_hint_t   hint;
    ra_ledger_state_t  f;
    ra_stat_key_t      key;
    ra_totals_t        tot;
    ra_snapshot_t      snap;
    const ra_stat_t   *st;
    uint32_t           a, x, y, i;
    int64_t            t = T0 + 7 * H;

    (void) state;
    a = site(&l, "a.example", t);
    assert_int_equal(a, 1);         /* the hash below is site 1's */
    memset(&key, 0, sizeof(key));
    key.verification = RA_VERIFY_UNVERIFIABLE;
    key.kind = RA_UA_GENERIC;
    key.category = RA_CAT_MAX;
    key.name = S("Bot269zbYwi");
    x = ra_ledger_stat_locked(&l, a, &key, t);
    assert_int_not_equal(x, 0);
    memset(&hint, 0, sizeof(hint));
    hint.site = a;
    hint.epoch = ra_ledger_site_epoch_locked(&l, a);
    hint.stat = x;
    hint.tag = ra_ledger_stat_tag_locked(&l, x);
    ra_ledger_count_locked(&l, a, x, RA_CNT_REQUESTS);
    assert_int_equal(ra_ledger_count_hinted(&l, &hint,
                         1u << RA_CNT_REQUESTS, RA_REFER_SLOTS, t + 1, 0,
                         0), 1);

    /* other generic names until the class is full, x its oldest */
    ra_ledger_totals(&l, &tot);
    for (i = 1; i < tot.generic_max; i++) {
        assert_int_not_equal(generic(&l, a, i, t + 1 + i), 0);
    }
    key.name = S("Bot8zcUuXWb");
    y = ra_ledger_stat_locked(&l, a, &key, t + 2 + i);
    assert_int_equal(y, x);         /* x evicted, its slot reused */
    ra_ledger_count_locked(&l, a, y, RA_CNT_REQUESTS);
    ra_ledger_fetch_locked(&l, a, y, 503, t + 3 + i);

    /* x's hint: refused, nothing counted on y, y's fetch not read */
    assert_int_equal(ra_ledger_count_hinted(&l, &hint,
                         1u << RA_CNT_REQUESTS | 1u << RA_CNT_COMPLIANT,
                         RA_REFER_SLOTS, t + 4 + i, 0, 0), 0);
    memset(&f, 0, sizeof(f));
    assert_int_equal(ra_ledger_state_hinted(&l, &hint, t + 5 + i, 0, 0, &f),
                     0);
    assert_int_equal(ra_ledger_snapshot(&l, &ra_malloc_allocator, 0, &snap),
                     RA_OK);
    st = snap_stat(&snap, "a.example", "Bot8zcUuXWb",
                   RA_VERIFY_UNVERIFIABLE);
    assert_non_null(st);
    assert_int_equal(st->counters[RA_CNT_COMPLIANT], 0);
    assert_int_equal(st->counters[RA_CNT_REQUESTS], 2);     /* its own */
    ra_snapshot_free(&snap, &ra_malloc_allocator);
    assert_null(ra_ledger_verify(&l));
    free(r);
}

/*
 * Hinted counts from two processes at once on one region (shared
 * memory, fork): every count lands, the structure holds.
 */
#define FORK_N  20000

static void
ledger_hinted_counts_across_processes(void **state)
{
    size_t             size = 256 * 1024;
    unsigned char     *r;
    ra_ledger_t        l;
    ra_ledger_hint_t   hint;
    ra_snapshot_t      snap;
    const ra_site_t   *s;
    const ra_stat_t   *st;
    pid_t              pid[2];
    int                k, i, status, bad;
    int64_t            t = T0 + 7 * H;

    (void) state;
    r = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
             -1, 0);
    assert_true(r != MAP_FAILED);
    assert_int_equal(ra_ledger_format(r, size, T0), RA_OK);
    ra_ledger_open(&l, r, NULL);
    memset(&hint, 0, sizeof(hint));
    hint.site = site(&l, "a.example", t);
    hint.epoch = ra_ledger_site_epoch_locked(&l, hint.site);
    hint.stat = stat(&l, hint.site, "TestBot", RA_VERIFY_VERIFIED, "TestBot",
                     t);
    hint.tag = ra_ledger_stat_tag_locked(&l, hint.stat);
    ra_ledger_count_locked(&l, hint.site, hint.stat, RA_CNT_REQUESTS);

    for (k = 0; k < 2; k++) {
        pid[k] = fork();
        assert_true(pid[k] >= 0);
        if (pid[k] == 0) {
            for (i = 0, bad = 0; i < FORK_N; i++) {
                bad |= !ra_ledger_browser_hinted(&l, hint.site, hint.epoch,
                                                 0, 1, 200, t + i);
                bad |= !ra_ledger_count_hinted(&l, &hint,
                           1u << RA_CNT_REQUESTS | 1u << RA_CNT_COMPLIANT,
                           1, t + i, 0, 0);
            }
            _exit(bad);
        }
    }
    for (k = 0; k < 2; k++) {
        assert_int_equal(waitpid(pid[k], &status, 0), pid[k]);
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), 0);
    }

    assert_null(ra_ledger_verify(&l));
    assert_int_equal(ra_ledger_snapshot(&l, &ra_malloc_allocator, 0, &snap),
                     RA_OK);
    s = snap_site(&snap, "a.example");
    assert_non_null(s);
    assert_int_equal(s->browser_requests, 2 * FORK_N);
    assert_int_equal(s->referrals[1], 2 * FORK_N);
    assert_int_equal(s->referral_crawls[1], 2 * FORK_N);
    assert_int_equal(s->counters[RA_CNT_REQUESTS], 2 * FORK_N + 1);
    assert_int_equal(s->counters[RA_CNT_COMPLIANT], 2 * FORK_N);
    st = snap_stat(&snap, "a.example", "TestBot", RA_VERIFY_VERIFIED);
    assert_non_null(st);
    assert_int_equal(st->counters[RA_CNT_REQUESTS], 2 * FORK_N + 1);
    assert_int_equal(st->counters[RA_CNT_COMPLIANT], 2 * FORK_N);
    assert_int_equal(snap.totals.requests, 4 * FORK_N + 1);
    assert_int_equal(snap.totals.crawler_requests, 2 * FORK_N + 1);
    ra_snapshot_free(&snap, &ra_malloc_allocator);
    munmap(r, size);
}

/* A version's hash is FNV-1a over its answer's class and (2xx) its body,
 * whatever the body's length (8 bytes a turn and the rest) */
static void
ledger_version_hash_is_fnv1a(void **state)
{
    unsigned char  body[41];
    uint8_t        answer;
    uint64_t       h;
    size_t         n, i;

    (void) state;
    for (i = 0; i < sizeof(body); i++) {
        body[i] = (unsigned char) (i * 37 + 200);
    }
    for (n = 0; n <= sizeof(body); n++) {
        answer = (uint8_t) ra_answer_of_status(200);
        h = (14695981039346656037ULL ^ answer) * 1099511628211ULL;
        for (i = 0; i < n; i++) {
            h = (h ^ body[i]) * 1099511628211ULL;
        }
        assert_true(ra_ledger_version_hash(200, ra_str(body, n)) == (h | 1));
    }
    /* not 2xx: the class alone */
    answer = (uint8_t) ra_answer_of_status(404);
    h = (14695981039346656037ULL ^ answer) * 1099511628211ULL;
    assert_true(ra_ledger_version_hash(404, ra_str(body, 9)) == (h | 1));
}

int
main(void)
{
    const struct CMUnitTest  tests[] = {
        cmocka_unit_test(ledger_totals),
        cmocka_unit_test(ledger_version_hash_is_fnv1a),
        cmocka_unit_test(ledger_full_note_once_per_interval),
        cmocka_unit_test(ledger_snapshot_names_its_sites),
        cmocka_unit_test(ledger_verified_by),
        cmocka_unit_test(ledger_generic_never_a_table_record),
        cmocka_unit_test(ledger_politeness),
        cmocka_unit_test(ledger_violations_by_time),
        cmocka_unit_test(ledger_alert_gate),
        cmocka_unit_test(ledger_versions_and_state),
        cmocka_unit_test(ledger_answer_caller_hash),
        cmocka_unit_test(ledger_flood_keeps_evidence),
        cmocka_unit_test(ledger_site_eviction_frees_its_records),
        cmocka_unit_test(ledger_rule_hits),
        cmocka_unit_test(ledger_hours),
        cmocka_unit_test(ledger_episodes),
        cmocka_unit_test(ledger_violation_evidence),
        cmocka_unit_test(ledger_hints_refused_after_reuse),
        cmocka_unit_test(ledger_state_hinted),
        cmocka_unit_test(ledger_hint_refused_for_colliding_key),
        cmocka_unit_test(ledger_hinted_counts_across_processes),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
