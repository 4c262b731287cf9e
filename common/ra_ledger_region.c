/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The ledger's region: one block of shared memory holding a header, the
 * site table, the stat table, their hash heads, the violation ring, the
 * reverse-DNS cache, the undeclared-crawler tables and a blob heap for
 * robots.txt bodies.  This file lays
 * it out (each table's share of the size), formats it, checks a region a
 * server kept across a reload, attaches to one, takes the lock (which
 * repairs a structure a dead process left inconsistent) and reads the
 * totals without it.  The ledger's other concerns live in its other files
 * (common/ra_ledger_*.c), which share the region's layout through
 * ra_ledger_impl.h; the public types of ra_ledger.h are copies made from
 * it.
 */
#include <stdlib.h>
#include <string.h>

#include "ra_ledger_impl.h"

/* ---- layout ----------------------------------------------------------- */

static uint32_t
ra_pow2(uint32_t n)
{
    uint32_t  p = 1;

    while (p < n) {
        p <<= 1;
    }
    return p;
}

/*
 * A fixed share of the region for each table: bodies get 40 % (a few
 * hundred typical robots.txt files, or one 500 KiB file in a 2 MiB zone),
 * stats 30 %, sites 15 %, violations 10 % (at most 4096 kept), and a
 * quarter of that again for verified crawlers' violations.  Of the stat
 * records, generic bots hold at
 * most half, and so do suspect ones; verified crawlers all but a
 * sixteenth, which stays the other two's whatever happens.
 */
static void
ra_layout(size_t size, ra_ledger_hdr_t *h)
{
    size_t    off;
    uint32_t  n;

    memset(h, 0, sizeof(*h));
    h->header_size = (uint32_t) RA_ALIGN_UP(sizeof(ra_ledger_hdr_t), 64);

    n = (uint32_t) (size * 15 / 100 / (sizeof(ra_site_slot_t) + 2 * 4));
    h->plan.sites = n < 2 ? 2 : n;
    n = (uint32_t) (size * 30 / 100 / (sizeof(ra_stat_slot_t) + 2 * 4));
    h->plan.stats = n < 8 ? 8 : n;
    n = (uint32_t) (size * 10 / 100 / sizeof(ra_vio_slot_t));
    n = n < 8 ? 8 : n > 4096 ? 4096 : n;
    /* verified crawlers' part comes on top: everyone else keeps what a
     * ring for all had */
    h->vio_trusted = n / 4 < 2 ? 2 : n / 4;
    h->plan.violations = n + h->vio_trusted;
    h->site_hash_size = ra_pow2(h->plan.sites);
    h->stat_hash_size = ra_pow2(h->plan.stats);
    h->generic_max = h->plan.stats / 2;
    h->suspect_max = h->plan.stats / 2;
    h->known_max = h->plan.stats - (h->plan.stats >= 32 ? h->plan.stats / 16
                                                        : 2);

    off = h->header_size;
    h->off_sites = (uint32_t) off;
    off = RA_ALIGN_UP(off + (size_t) h->plan.sites * sizeof(ra_site_slot_t),
                      64);
    h->off_site_hash = (uint32_t) off;
    off = RA_ALIGN_UP(off + (size_t) h->site_hash_size * 4, 64);
    h->off_stats = (uint32_t) off;
    off = RA_ALIGN_UP(off + (size_t) h->plan.stats * sizeof(ra_stat_slot_t),
                      64);
    h->off_stat_hash = (uint32_t) off;
    off = RA_ALIGN_UP(off + (size_t) h->stat_hash_size * 4, 64);
    h->off_violations = (uint32_t) off;
    off = RA_ALIGN_UP(off + (size_t) h->plan.violations
                            * sizeof(ra_vio_slot_t), 64);
    /* sets of sitemaps: one for every second site */
    h->sm_sets = h->plan.sites / 2 < 1 ? 1 : h->plan.sites / 2;
    h->off_sm_sets = (uint32_t) off;
    off = RA_ALIGN_UP(off + (size_t) h->sm_sets * sizeof(ra_sm_set_t), 64);
    /* reverse DNS: 3 %, at most RA_RDNS_MAX entries */
    n = (uint32_t) (size * 3 / 100 / sizeof(ra_rdns_entry_t));
    n = n < RA_RDNS_WAYS ? RA_RDNS_WAYS : n > RA_RDNS_MAX ? RA_RDNS_MAX : n;
    h->plan.rdns = n - n % RA_RDNS_WAYS;
    h->off_rdns = (uint32_t) off;
    off = RA_ALIGN_UP(off + ra_rdns_area_size(h->plan.rdns), 64);
    /* the undeclared-crawler tables: an eighth, when it holds one */
    off = ra_undecl_area_layout(size, off, &h->undecl);
    h->off_blobs = (uint32_t) off;
    h->plan.blob_bytes = off < size
                         ? (uint32_t) ((size - off) & ~(size_t) 15) : 0;
    h->region_size = size;
}

int
ra_ledger_plan(size_t size, ra_ledger_plan_t *plan)
{
    ra_ledger_hdr_t  h;

    if (size < RA_LEDGER_MIN_SIZE || size > UINT32_MAX) {
        return RA_ELIMIT;
    }
    ra_layout(size, &h);
    if (h.plan.blob_bytes < 4096) {
        return RA_ELIMIT;
    }
    *plan = h.plan;
    return RA_OK;
}

/* Both free lists hold every slot, lowest id first. */
static void
ra_free_lists_all(const ra_ledger_t *l)
{
    uint32_t          id;
    ra_ledger_hdr_t  *h = l->hdr;

    h->site_free = h->stat_free = 0;
    for (id = h->plan.sites; id; id--) {
        RA_SITES(l)[id - 1].hnext = h->site_free;
        h->site_free = id;
    }
    for (id = h->plan.stats; id; id--) {
        RA_STATS(l)[id - 1].hnext = h->stat_free;
        h->stat_free = id;
    }
}

int
ra_ledger_format(void *base, size_t size, int64_t now)
{
    ra_ledger_hdr_t  *h = base;
    ra_ledger_t       l;

    if (ra_ledger_plan(size, &(ra_ledger_plan_t) { 0 }) != RA_OK) {
        return RA_ELIMIT;
    }
    memset(base, 0, size);
    ra_layout(size, h);
    h->magic = RA_LEDGER_MAGIC;
    h->layout = RA_LEDGER_LAYOUT;
    h->vio_next = h->vio_trusted;
    h->created = now;
    h->next_epoch = 1;
    ra_ledger_open(&l, base, NULL);
    ra_free_lists_all(&l);
    ra_blob_format(&l);
    ra_rdns_format((unsigned char *) base + h->off_rdns, h->plan.rdns);
    ra_undecl_area_format(&l);
    return RA_OK;
}

int
ra_ledger_check(void *base, size_t size, const char **why)
{
    ra_ledger_hdr_t  *h = base;
    ra_ledger_hdr_t   want;
    ra_ledger_t       l;

    if (h->magic != RA_LEDGER_MAGIC) {
        *why = "the zone holds no robots-audit ledger";
        return RA_ERROR;
    }
    if (h->layout != RA_LEDGER_LAYOUT) {
        *why = "the zone was laid out by another version of robots-audit";
        return RA_ERROR;
    }
    if (h->region_size != size) {
        *why = "the zone's size changed";
        return RA_ERROR;
    }
    ra_layout(size, &want);
    if (memcmp(&want.plan, &h->plan, sizeof(want.plan)) != 0
        || want.off_sites != h->off_sites
        || want.off_site_hash != h->off_site_hash
        || want.off_stats != h->off_stats
        || want.off_stat_hash != h->off_stat_hash
        || want.off_violations != h->off_violations
        || want.off_blobs != h->off_blobs
        || want.off_rdns != h->off_rdns
        || want.off_sm_sets != h->off_sm_sets
        || want.sm_sets != h->sm_sets
        || want.site_hash_size != h->site_hash_size
        || want.stat_hash_size != h->stat_hash_size
        || want.generic_max != h->generic_max
        || want.known_max != h->known_max
        || want.suspect_max != h->suspect_max
        || want.vio_trusted != h->vio_trusted
        || want.undecl.off != h->undecl.off
        || want.undecl.slots != h->undecl.slots
        || want.undecl.slot_size != h->undecl.slot_size
        || want.undecl.clients != h->undecl.clients
        || want.undecl.flagged != h->undecl.flagged)
    {
        *why = "the zone's layout does not match this build";
        return RA_ERROR;
    }
    /*
     * The header is this build's: now the structure.  Other processes
     * (a reload's old workers) may be changing it, so nothing is rebuilt
     * here: when it does not hold together, the mark is set and the
     * first process to take the lock rebuilds it from the slots.
     */
    ra_ledger_open(&l, base, NULL);
    if (ra_ledger_verify(&l) != NULL) {
        __atomic_store_n(&h->broken, 1, __ATOMIC_SEQ_CST);
    }
    ra_undecl_area_verify(&l);
    return RA_OK;
}

size_t
ra_ledger_size(const void *base)
{
    const ra_ledger_hdr_t  *h = base;

    if (h->magic != RA_LEDGER_MAGIC || h->layout != RA_LEDGER_LAYOUT) {
        return 0;
    }
    return (size_t) h->region_size;
}

void
ra_ledger_open(ra_ledger_t *l, void *base, const ra_lock_t *lock)
{
    memset(l, 0, sizeof(*l));
    l->base = base;
    l->hdr = base;
    if (lock != NULL) {
        l->lock = *lock;
    }
}

void
ra_ledger_lock(const ra_ledger_t *l)
{
    ra_ledger_hdr_t  *h = l->hdr;

    if (l->lock.lock != NULL) {
        l->lock.lock(l->lock.ctx);
    }
    /* a writer died inside a change, or something does not hold */
    if (__atomic_load_n(&h->dirty, __ATOMIC_ACQUIRE)
        || __atomic_load_n(&h->broken, __ATOMIC_ACQUIRE))
    {
        ra_ledger_rebuild(l);
        ra_logf(l->host, NULL, RA_LOG_ERR, RA_TAG_LEDGER_REBUILT,
                "the ledger's structure was left inconsistent (a process "
                "died inside its lock, or a reload found it so): rebuilt "
                "from its records (%llu rebuilds so far); the record being "
                "changed may be lost",
                (unsigned long long) ra_atomic_read(&h->repairs));
    }
}

void
ra_ledger_unlock(const ra_ledger_t *l)
{
    if (l->lock.unlock != NULL) {
        l->lock.unlock(l->lock.ctx);
    }
}

void *
ra_ledger_rdns_area(const ra_ledger_t *l)
{
    return l->base + l->hdr->off_rdns;
}


#ifdef RA_LEDGER_FAULT_ENV
/*
 * The server modules' fault build (scripts/fault-modules.sh, for
 * t/044-ledger-faults.t): the process that first renames away the file
 * named by $RA_LEDGER_FAULT_FILE, which holds a number N, kills itself
 * (SIGKILL, as kill -9 would) at its Nth step inside a change.  Its
 * counter is the one mutable static of the core, in this build only.
 */
#include <signal.h>
#include <stdio.h>

void
ra_ledger_fault_point(int line)
{
    static long  left;
    const char  *path;
    char         taken[1024];
    FILE        *f;

    (void) line;
    path = left == 0 ? getenv("RA_LEDGER_FAULT_FILE") : NULL;
    if (path != NULL
        && snprintf(taken, sizeof(taken), "%s.taken", path)
           < (int) sizeof(taken)
        && rename(path, taken) == 0)
    {
        f = fopen(taken, "r");
        if (f != NULL) {
            if (fscanf(f, "%ld", &left) != 1) {
                left = 0;
            }
            fclose(f);
        }
        (void) remove(taken);
    }
    if (left > 0 && --left == 0) {
        raise(SIGKILL);
    }
}
#endif


/* ---- lock-free reads -------------------------------------------------- */

static void
ra_ledger_rdns_totals(const ra_ledger_t *l, ra_totals_t *t)
{
    ra_rdns_counts_t  c;

    ra_rdns_counts(ra_ledger_rdns_area(l), ra_host_now(l->host), &c);
    t->rdns_pending = c.pending;
    t->rdns_lookups = c.lookups;
    t->rdns_verified = c.verified;
    t->rdns_failed = c.failed;
    t->rdns_refused = c.refused;
}

void
ra_ledger_totals(const ra_ledger_t *l, ra_totals_t *t)
{
    unsigned          k;
    ra_ledger_hdr_t  *h = l->hdr;

    memset(t, 0, sizeof(*t));
    t->created = h->created;
    t->requests = ra_atomic_read(&h->requests);
    t->crawler_requests = ra_atomic_read(&h->crawler_requests);
    t->violations_total = ra_atomic_read(&h->violations_total);
    t->site_evictions = ra_atomic_read(&h->site_evictions);
    t->stat_evictions = ra_atomic_read(&h->stat_evictions);
    t->blob_evictions = ra_atomic_read(&h->blob_evictions);
    t->repairs = ra_atomic_read(&h->repairs);
    t->sites = ra_atomic_read(&h->site_count);
    t->stats = ra_atomic_read(&h->stat_count);
    t->stats_generic = ra_atomic_read(&h->stat_n[RA_CLS_GENERIC]);
    t->stats_verified = ra_atomic_read(&h->stat_n[RA_CLS_KNOWN]);
    t->generic_max = h->generic_max;
    t->known_max = h->known_max;
    t->blob_free_bytes = ra_atomic_read(&h->blob_free_bytes);
    t->plan = h->plan;
    t->evidence_dropped = ra_atomic_read(&h->evidence_dropped);
    for (k = 0; k < RA_LOGFILES; k++) {
        t->log_write_errors[k] = ra_atomic_read(&h->log_errors[k]);
    }
    for (k = 0; k < RA_EVENT_OUTCOMES; k++) {
        t->events.lines[k] = ra_atomic_read(&h->events.lines[k]);
    }
    ra_ledger_rdns_totals(l, t);
}

int
ra_ledger_full_note(ra_ledger_t *l, int64_t now, ra_totals_t *t)
{
    int64_t           last;
    uint64_t          total;
    ra_ledger_hdr_t  *h = l->hdr;

    total = ra_atomic_read(&h->site_evictions)
            + ra_atomic_read(&h->stat_evictions);
    if (total == ra_atomic_read(&h->full_seen)) {
        return 0;
    }
    last = __atomic_load_n(&h->full_noted, __ATOMIC_ACQUIRE);
    if (last != 0 && now >= last && now - last < RA_FULL_NOTE_MS) {
        return 0;
    }
    /* one process wins the interval; 0 stays "never" */
    if (!__atomic_compare_exchange_n(&h->full_noted, &last,
                                     now > 0 ? now : 1, 0, __ATOMIC_ACQ_REL,
                                     __ATOMIC_RELAXED))
    {
        return 0;
    }
    ra_atomic_set(&h->full_seen, total);
    ra_ledger_totals(l, t);
    return 1;
}


void
ra_ledger_events_count(ra_ledger_t *l, unsigned outcome)
{
    if (outcome < RA_EVENT_OUTCOMES) {
        ra_atomic_add(&l->hdr->events.lines[outcome], 1);
    }
}

int
ra_ledger_log_owed(ra_ledger_t *l, unsigned which, int owed)
{
    if (which >= RA_LOGFILES) {
        return 0;
    }
    return (int) __atomic_exchange_n(&l->hdr->log_owed[which],
                                     (uint32_t) (owed != 0), __ATOMIC_ACQ_REL);
}

int
ra_ledger_log_error(ra_ledger_t *l, unsigned which, int64_t now,
    uint64_t *failed)
{
    int64_t           last;
    uint64_t          total, seen;
    ra_ledger_hdr_t  *h = l->hdr;

    *failed = 0;
    if (which >= RA_LOGFILES) {
        return 0;
    }
    total = ra_atomic_add(&h->log_errors[which], 1) + 1;
    last = __atomic_load_n(&h->log_error_noted[which], __ATOMIC_ACQUIRE);
    if (last != 0 && now >= last && now - last < RA_LOG_ERROR_NOTE_MS) {
        return 0;
    }
    /* one process wins the minute; 0 stays "never" */
    if (!__atomic_compare_exchange_n(&h->log_error_noted[which], &last,
                                     now > 0 ? now : 1, 0, __ATOMIC_ACQ_REL,
                                     __ATOMIC_RELAXED))
    {
        return 0;
    }
    seen = __atomic_exchange_n(&h->log_error_seen[which], total,
                               __ATOMIC_ACQ_REL);
    *failed = total > seen ? total - seen : 1;
    return 1;
}
