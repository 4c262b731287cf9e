/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The audit ledger in one region: header, site table, stat table, their
 * hash heads, the violation ring and a blob heap for robots.txt bodies.
 * Every link is an index + 1 or a byte offset from the region's start.
 *
 * The region's layout is private to the ledger's files (ra_ledger_impl.h):
 * the public types of ra_ledger.h are copies made from it.
 */
#include <stdlib.h>
#include <string.h>

#include "ra_ledger_impl.h"

int
ra_unreachable_30d(int64_t failing_since, int64_t pages_answered,
    int64_t now)
{
    return failing_since > 0 && now - failing_since >= RA_UNREACHABLE_30D_MS
           && pages_answered > 0 && now - pages_answered < RA_DAY_MS;
}

ra_answer_e
ra_answer_of_status(int status)
{
    if (status >= 200 && status < 300) {
        return RA_ANSWER_RULES;
    }
    if (status == 429 || status >= 500 || status <= 0) {
        return RA_ANSWER_UNREACHABLE;
    }
    /* 3xx as a final answer (redirects not followed to the end) and 4xx:
     * Google treats both as "no robots.txt" (docs/robots-txt.md A.4, A.5) */
    return RA_ANSWER_ALLOW_ALL;
}


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
    /* reverse DNS: 3 %, at most RA_RDNS_MAX entries */
    n = (uint32_t) (size * 3 / 100 / sizeof(ra_rdns_entry_t));
    n = n < RA_RDNS_WAYS ? RA_RDNS_WAYS : n > RA_RDNS_MAX ? RA_RDNS_MAX : n;
    h->plan.rdns = n - n % RA_RDNS_WAYS;
    h->off_rdns = (uint32_t) off;
    off = RA_ALIGN_UP(off + ra_rdns_area_size(h->plan.rdns), 64);
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
        || want.site_hash_size != h->site_hash_size
        || want.stat_hash_size != h->stat_hash_size
        || want.generic_max != h->generic_max
        || want.known_max != h->known_max
        || want.suspect_max != h->suspect_max
        || want.vio_trusted != h->vio_trusted)
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
    t->generic_max = h->generic_max;
    t->known_max = h->known_max;
    t->blob_free_bytes = ra_atomic_read(&h->blob_free_bytes);
    t->plan = h->plan;
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


/* ---- 5xx/429 episodes ------------------------------------------------ */

static ra_episode_t *
ra_episode_open_of(ra_site_slot_t *s)
{
    ra_episode_t  *e;

    e = &s->episodes[(s->episode_next + RA_EPISODES - 1) % RA_EPISODES];
    return e->start != 0 && e->end == 0 ? e : NULL;
}

/* A 5xx/429 answer: the episode going on, or a new one (its start set
 * last, then the ring's next slot). */
static void
ra_episode_answer(ra_site_slot_t *s, int status, int64_t now)
{
    ra_episode_t  *e = ra_episode_open_of(s);

    if (e == NULL) {
        e = &s->episodes[s->episode_next % RA_EPISODES];
        e->start = 0;
        memset(e, 0, sizeof(*e));
        e->start = now > 0 ? now : 1;
        s->episode_next = (s->episode_next + 1) % RA_EPISODES;
    }
    e->answers++;
    e->status = (uint16_t) (status > 0 && status < 1000 ? status : 0);
}

/* Any other answer ends the episode going on. */
static void
ra_episode_end(ra_site_slot_t *s, int64_t now)
{
    ra_episode_t  *e = ra_episode_open_of(s);

    if (e != NULL) {
        e->end = now > e->start ? now : e->start;
    }
}

/* A crawler's request during an episode. */
void
ra_episode_crawler(ra_site_slot_t *s, const ra_stat_slot_t *st)
{
    ra_episode_t  *e = ra_episode_open_of(s);
    unsigned       i, n;
    size_t         len;

    if (e == NULL) {
        return;
    }
    if (st == NULL || !st->used) {
        e->others++;
        return;
    }
    len = st->name_len < RA_NAME_MAX ? st->name_len : RA_NAME_MAX;
    n = e->ncrawlers < RA_EPISODE_CRAWLERS ? e->ncrawlers
                                           : RA_EPISODE_CRAWLERS;
    for (i = 0; i < n; i++) {
        if (e->name_len[i] == len && memcmp(e->name[i], st->name, len) == 0) {
            e->requests[i]++;
            return;
        }
    }
    if (n == RA_EPISODE_CRAWLERS) {
        e->others++;
        return;
    }
    memcpy(e->name[n], st->name, len);
    e->name_len[n] = (uint8_t) len;
    e->requests[n] = 1;
    e->ncrawlers = (uint8_t) (n + 1);
}

void
ra_ledger_bind_locked(ra_ledger_t *l, uint32_t site, uint32_t stat,
    int status, uint64_t version, int64_t now)
{
    int              began;
    unsigned         k;
    ra_site_slot_t  *s = ra_site_at(l, site);
    ra_stat_slot_t  *st = ra_stat_at(l, stat);

    if (s == NULL || st == NULL) {
        return;
    }
    if (ra_answer_of_status(status) == RA_ANSWER_UNREACHABLE) {
        version = 0;                    /* its status says it all */
    } else if (version == 0 && s->nversions) {
        version = s->versions[s->current].hash;
    }
    began = ra_vseq_begin(s);
    st->last_fetch = now;
    st->last_fetch_status = (uint16_t) (status > 0 && status < 1000
                                        ? status : 0);
    st->last_fetch_version = version;
    ra_vseq_end(s, began);
    /* what a verified crawler may still be reading stays in the ledger */
    if (version != 0 && st->verification == RA_VERIFY_VERIFIED) {
        for (k = 0; k < s->nversions && k < RA_VERSIONS; k++) {
            if (s->versions[k].hash == version) {
                s->versions[k].verified_fetch = now;
                break;
            }
        }
    }
}

void
ra_ledger_fetch_locked(ra_ledger_t *l, uint32_t site, uint32_t stat,
    int status, int64_t now)
{
    if (ra_site_at(l, site) == NULL || ra_stat_at(l, stat) == NULL) {
        return;
    }
    ra_ledger_bind_locked(l, site, stat, status, 0, now);
    ra_ledger_count_locked(l, site, stat, RA_CNT_REQUESTS);
    ra_ledger_count_locked(l, site, stat, RA_CNT_ROBOTS_FETCHES);
}

int
ra_ledger_answer_everyone_locked(ra_ledger_t *l, uint32_t site,
    uint64_t hash, uint64_t client, uint64_t ua, int64_t now)
{
    ra_site_slot_t  *s = ra_site_at(l, site);

    if (s == NULL || !s->used) {
        return 0;
    }
    /* the same answer to another network and another User-Agent, and
     * the file served to nobody for a day: what the site gives everyone
     * (a User-Agent blocklist answers two blocked bots alike, but serves
     * the file to the others) */
    if (s->pending_hash == hash && s->pending_client != client
        && s->pending_ua != ua
        && (s->served_at == 0 || now - s->served_at >= RA_DAY_MS))
    {
        return 1;       /* cleared when ra_ledger_answer_locked() records
                           it */
    }
    s->pending_hash = hash;
    s->pending_client = client;
    s->pending_ua = ua;
    return 0;
}

int
ra_ledger_redirect_locked(ra_ledger_t *l, uint32_t site, unsigned hop,
    ra_str_t path)
{
    unsigned         k;
    ra_site_slot_t  *s = ra_site_at(l, site);

    if (s == NULL || !s->used || hop > s->redirect_n) {
        return -1;
    }
    if (hop >= RA_REDIRECT_HOPS || path.len == 0
        || path.len > RA_REDIRECT_PATH_MAX)
    {
        ra_ledger_redirect_end_locked(l, site, hop);
        return -1;
    }
    for (k = 0; k < hop; k++) {
        if (s->redirect_len[k] == path.len
            && memcmp(s->redirect[k], path.data, path.len) == 0)
        {
            ra_ledger_redirect_end_locked(l, site, hop);
            return -1;                  /* a loop */
        }
    }
    /* the length last: a process that dies in between leaves a shorter
     * chain or an old path, never bytes read past a length */
    if (s->redirect_n == 0) {
        ra_atomic_add(&l->hdr->redirects, 1);
    }
    s->redirect_n = (uint8_t) hop;
    memcpy(s->redirect[hop], path.data, path.len);
    s->redirect_len[hop] = (uint8_t) path.len;
    s->redirect_n = (uint8_t) (hop + 1);
    return (int) hop + 1;
}

void
ra_ledger_redirect_end_locked(ra_ledger_t *l, uint32_t site, unsigned hop)
{
    ra_site_slot_t  *s = ra_site_at(l, site);

    if (s != NULL && s->used && hop < s->redirect_n) {
        s->redirect_n = (uint8_t) hop;
        if (hop == 0 && l->hdr->redirects != 0) {
            ra_atomic_sub(&l->hdr->redirects, 1);
        }
    }
}

unsigned
ra_ledger_redirect_hop_locked(const ra_ledger_t *l, uint32_t site,
    ra_str_t path)
{
    unsigned         k;
    ra_site_slot_t  *s = ra_site_at(l, site);

    if (path.len > RA_REDIRECT_PATH_MAX) {
        return 0;
    }
    for (k = 0; s != NULL && s->used && k < s->redirect_n
                && k < RA_REDIRECT_HOPS; k++)
    {
        if (s->redirect_len[k] == path.len
            && memcmp(s->redirect[k], path.data, path.len) == 0)
        {
            return k + 1;
        }
    }
    return 0;
}

int
ra_ledger_redirects(const ra_ledger_t *l)
{
    return __atomic_load_n(&l->hdr->redirects, __ATOMIC_RELAXED) != 0;
}

/* ---- versions ---------------------------------------------------------- */

/* A version slot as the public ra_version_t (snapshots copy these). */
void
ra_version_out(const ra_version_slot_t *v, ra_version_t *out)
{
    memset(out, 0, sizeof(*out));
    out->hash = v->hash;
    out->first_seen = v->first_seen;
    out->last_seen = v->last_seen;
    out->until = v->until;
    out->body_len = v->blob ? v->body_len : 0;
    out->size = v->size;
    out->decoded = v->decoded;
    out->status = v->status;
    out->answer = v->answer;
    out->truncated = v->truncated;
    out->body_lost = v->body_lost;
    out->ctype_len = v->ctype_len < RA_CTYPE_MAX ? v->ctype_len
                                                 : RA_CTYPE_MAX;
    memcpy(out->ctype, v->ctype, out->ctype_len);
    out->coding_len = v->coding_len < RA_CODING_MAX ? v->coding_len
                                                    : RA_CODING_MAX;
    memcpy(out->coding, v->coding, out->coding_len);
    out->lint_errors = v->lint_errors;
    out->lint_warnings = v->lint_warnings;
    out->lint_infos = v->lint_infos;
    out->groups = v->groups;
    out->rules = v->rules;
    out->sitemaps = v->sitemaps;
    memcpy(out->sha256, v->sha256, sizeof(out->sha256));
}

/* What a verdict reads of a site (ra_ledger_state_t) */
static void
ra_state_site(const ra_site_slot_t *s, ra_ledger_state_t *out)
{
    unsigned                  k;
    const ra_version_slot_t  *v;
    ra_version_fact_t        *f;

    /* only what a verdict reads (this runs on every judged request);
     * empty slots read as hash 0 and nothing else */
    for (k = 0; k < RA_VERSIONS; k++) {
        v = &s->versions[k];
        f = &out->versions[k];
        if (v->hash) {
            f->hash = v->hash;
            f->until = v->until;
            f->body_len = v->blob ? v->body_len : 0;
            f->status = v->status;
            f->answer = v->answer;
            f->body_lost = v->body_lost;
        } else {
            memset(f, 0, sizeof(*f));
        }
    }
    out->current = s->nversions && s->current < RA_VERSIONS
                   && s->versions[s->current].hash ? s->current : -1;
    out->failing_since = s->failures ? s->failing_since : 0;
}

/* ... and of a record */
static void
ra_state_stat(const ra_site_slot_t *s, const ra_stat_slot_t *st,
    ra_ledger_state_t *out)
{
    out->last_fetch = st->last_fetch;
    out->last_fetch_version = st->last_fetch_version;
    out->last_fetch_status = st->last_fetch_status;
    out->pages_answered = __atomic_load_n(&s->pages_answered,
                                          __ATOMIC_RELAXED);
}

void
ra_ledger_state_locked(ra_ledger_t *l, uint32_t site, uint32_t stat,
    int64_t now, ra_ledger_state_t *out)
{
    ra_site_slot_t           *s = ra_site_at(l, site);
    ra_stat_slot_t           *st = ra_stat_at(l, stat);

    memset(out, 0, sizeof(*out));
    out->current = -1;
    if (s == NULL || st == NULL) {
        return;
    }
    /* a process died inside a change of it: none is under way now */
    if (s->vseq & 1) {
        __atomic_store_n(&s->vseq, s->vseq + 1, __ATOMIC_RELEASE);
    }
    /* cleared above */
    ra_state_site(s, out);
    ra_state_stat(s, st, out);
    out->prev_request = __atomic_exchange_n(&st->prev_request, now,
                                            __ATOMIC_RELAXED);
}

int
ra_ledger_state_hinted(ra_ledger_t *l, ra_ledger_hint_t *hint,
    int64_t now, int status, unsigned verified_by, ra_ledger_state_t *out)
{
    uint32_t         q;
    ra_site_slot_t  *s = ra_site_hinted(l, hint->site, hint->epoch);
    ra_stat_slot_t  *st = ra_stat_hinted(l, hint);

    if (s == NULL || st == NULL) {
        return 0;
    }
    if (status >= 100 && status < 500) {
        ra_atomic_later(&s->pages_answered, now);   /* as _page_locked() */
    }
    q = __atomic_load_n(&s->vseq, __ATOMIC_ACQUIRE);
    if (q & 1) {
        return 0;                       /* a change under way */
    }
    if (hint->facts != q + 1) {
        ra_state_site(s, out);
    }
    ra_state_stat(s, st, out);
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    /* the same slots (their places do not move): do they still hold
     * what the hint names? */
    if (__atomic_load_n(&s->vseq, __ATOMIC_RELAXED) != q
        || !ra_site_holds(s, hint->epoch) || !ra_stat_holds(st, hint))
    {
        return 0;                       /* changed meanwhile */
    }
    hint->facts = q + 1;
    out->prev_request = __atomic_exchange_n(&st->prev_request, now,
                                            __ATOMIC_RELAXED);
    ra_atomic_later(&s->last_seen, now);
    ra_atomic_later(&st->last_seen, now);
    if (verified_by != 0 && verified_by < RA_VERIFIED_BY_MAX) {
        __atomic_store_n(&st->verified_by, (uint8_t) verified_by,
                         __ATOMIC_RELAXED);
    }
    return 1;
}

ra_str_t
ra_ledger_body_locked(const ra_ledger_t *l, uint32_t site, unsigned k)
{
    ra_site_slot_t     *s = ra_site_at(l, site);
    ra_version_slot_t  *v;

    if (s == NULL || k >= RA_VERSIONS) {
        return ra_str("", 0);
    }
    v = &s->versions[k];
    if (v->hash == 0 || v->blob == 0) {
        return ra_str("", 0);
    }
    return ra_str(l->base + v->blob, v->body_len);
}

int
ra_ledger_has_version_locked(const ra_ledger_t *l, uint32_t site)
{
    unsigned         k;
    ra_site_slot_t  *s = ra_site_at(l, site);

    for (k = 0; s != NULL && k < s->nversions && k < RA_VERSIONS; k++) {
        if (s->versions[k].hash) {
            return 1;
        }
    }
    return 0;
}

int
ra_ledger_find_version_locked(const ra_ledger_t *l, uint32_t site,
    uint64_t hash, ra_version_t *out)
{
    unsigned         k;
    ra_site_slot_t  *s = ra_site_at(l, site);

    for (k = 0; s != NULL && hash && k < s->nversions && k < RA_VERSIONS;
         k++)
    {
        if (s->versions[k].hash == hash) {
            if (out != NULL) {
                ra_version_out(&s->versions[k], out);
            }
            return (int) k;
        }
    }
    return -1;
}


/* ---- robots.txt answers ------------------------------------------------ */

/* FNV-1a, 8 bytes a turn (a captured robots.txt is hashed on every
 * fetch: the same values, half the instructions) */
static uint64_t
ra_hash64(uint64_t h, const unsigned char *p, size_t n)
{
    const uint64_t  prime = 1099511628211ULL;

    for (; n >= 8; n -= 8, p += 8) {
        h = (h ^ p[0]) * prime;
        h = (h ^ p[1]) * prime;
        h = (h ^ p[2]) * prime;
        h = (h ^ p[3]) * prime;
        h = (h ^ p[4]) * prime;
        h = (h ^ p[5]) * prime;
        h = (h ^ p[6]) * prime;
        h = (h ^ p[7]) * prime;
    }
    for (; n != 0; n--, p++) {
        h = (h ^ *p) * prime;
    }
    return h;
}

uint64_t
ra_ledger_version_hash(int status, ra_str_t body)
{
    uint8_t   answer = (uint8_t) ra_answer_of_status(status);
    uint64_t  hash;

    /* a version is its rules: the body for 2xx, nothing for "allow all" */
    hash = ra_hash64(14695981039346656037ULL, &answer, 1);
    if (answer == RA_ANSWER_RULES) {
        hash = ra_hash64(hash, body.data, body.len);
    }
    return hash | 1;                    /* 0 marks an empty slot */
}

static int ra_answer_locked(ra_ledger_t *l, uint32_t site,
    const ra_version_t *in, ra_str_t body, int64_t now);
static void ra_answer_unchanged_locked(ra_ledger_t *l, uint32_t site,
    int64_t now);
static int ra_undecodable_locked(ra_ledger_t *l, uint32_t site, int status,
    ra_str_t coding, int64_t now);

int
ra_ledger_answer_locked(ra_ledger_t *l, uint32_t site, const ra_version_t *in,
    ra_str_t body, int64_t now)
{
    int              k, began;
    ra_site_slot_t  *s = ra_site_at(l, site);

    began = s != NULL && ra_vseq_begin(s);
    k = ra_answer_locked(l, site, in, body, now);
    if (s != NULL) {
        ra_vseq_end(s, began);
    }
    return k;
}

void
ra_ledger_answer_unchanged_locked(ra_ledger_t *l, uint32_t site, int64_t now)
{
    int              began;
    ra_site_slot_t  *s = ra_site_at(l, site);

    began = s != NULL && ra_vseq_begin(s);
    ra_answer_unchanged_locked(l, site, now);
    if (s != NULL) {
        ra_vseq_end(s, began);
    }
}

int
ra_ledger_undecodable_locked(ra_ledger_t *l, uint32_t site, int status,
    ra_str_t coding, int64_t now)
{
    int              same, began;
    ra_site_slot_t  *s = ra_site_at(l, site);

    began = s != NULL && ra_vseq_begin(s);
    same = ra_undecodable_locked(l, site, status, coding, now);
    if (s != NULL) {
        ra_vseq_end(s, began);
    }
    return same;
}

static int
ra_answer_locked(ra_ledger_t *l, uint32_t site, const ra_version_t *in,
    ra_str_t body, int64_t now)
{
    int                 k, slot, oldest, pinned;
    uint8_t             answer;
    uint64_t            hash;
    ra_site_slot_t     *s = ra_site_at(l, site);
    ra_version_slot_t  *v, *cur;

    if (s == NULL || !s->used) {
        return -1;
    }
    s->pending_hash = 0;                /* no longer anyone's alone */
    if (ra_answer_of_status(in->status) == RA_ANSWER_RULES) {
        s->served_at = now;
    }
    s->robots_date = now;
    s->robots_status = in->status;
    s->last_size = in->size;
    s->last_ctype_len = in->ctype_len > RA_CTYPE_MAX ? RA_CTYPE_MAX
                                                     : in->ctype_len;
    memcpy(s->last_ctype, in->ctype, s->last_ctype_len);
    answer = (uint8_t) ra_answer_of_status(in->status);

    if (answer == RA_ANSWER_UNREACHABLE) {
        if (s->failures == 0 || s->failing_since == 0) {
            s->failing_since = now;
        }
        ra_episode_answer(s, in->status, now);
        s->failures++;
        s->unreachable_since = now;
        return -1;
    }
    ra_episode_end(s, now);
    s->failures = 0;
    s->failing_since = 0;
    s->undecodable = 0;
    s->bad_coding_len = 0;

    /* the caller's when it has it (hashed outside the lock) */
    hash = in->hash != 0 ? in->hash
                         : ra_ledger_version_hash(in->status, body);
    ra_begin(l);

    /* versions replaced more than 24 hours ago are of no use any more */
    for (k = 0; k < RA_VERSIONS; k++) {
        v = &s->versions[k];
        if (v->hash && v->until && v->until < now - RA_DAY_MS) {
            ra_version_drop(l, v);
        }
    }

    cur = s->nversions ? &s->versions[s->current] : NULL;
    if (cur != NULL && cur->hash == 0) {
        cur = NULL;
    }
    slot = -1;
    for (k = 0; k < RA_VERSIONS; k++) {
        if (s->versions[k].hash == hash) {
            slot = k;
            break;
        }
    }

    if (slot < 0) {
        /* a free slot, else the version replaced longest ago that no
         * verified crawler was served in the last 24 hours: a site whose
         * every answer differs (a time stamp in a comment) replaces only
         * those; else the version replaced longest ago */
        oldest = -1;
        pinned = -1;
        for (k = 0; k < RA_VERSIONS; k++) {
            v = &s->versions[k];
            if (v->hash == 0) {
                slot = k;
                break;
            }
            if (v == cur) {
                continue;
            }
            if (v->verified_fetch && now - v->verified_fetch < RA_DAY_MS) {
                if (pinned < 0 || v->until < s->versions[pinned].until) {
                    pinned = k;
                }
            } else if (oldest < 0 || v->until < s->versions[oldest].until) {
                oldest = k;
            }
        }
        if (slot < 0) {
            slot = oldest >= 0 ? oldest : pinned;
            ra_version_drop(l, &s->versions[slot]);
        }
        v = &s->versions[slot];
        memset(v, 0, sizeof(*v));
        v->hash = hash;
        v->first_seen = now;
        if (answer == RA_ANSWER_RULES && body.len) {
            for (k = 0; (v->blob = ra_blob_alloc(l, body.len,
                                 ra_blob_owner(site, (unsigned) slot))) == 0
                        && k < (int) RA_VERSIONS * (int) l->hdr->plan.sites;
                 k++)
            {
                if (!ra_blob_evict_one(l)) {
                    break;
                }
            }
            RA_STEP();
            if (v->blob) {
                memcpy(l->base + v->blob, body.data, body.len);
                v->body_len = (uint32_t) body.len;
            } else {
                v->body_lost = 1;
            }
        }
        if ((uint8_t) (slot + 1) > s->nversions) {
            s->nversions = (uint8_t) (slot + 1);
        }
    }

    v = &s->versions[slot];
    if (cur != NULL && cur != v) {
        cur->until = now;
    }
    v->until = 0;
    v->last_seen = now;
    v->status = in->status;
    v->answer = answer;
    v->size = in->size;
    v->decoded = in->decoded;
    v->truncated = in->truncated;
    v->ctype_len = in->ctype_len > RA_CTYPE_MAX ? RA_CTYPE_MAX : in->ctype_len;
    memcpy(v->ctype, in->ctype, v->ctype_len);
    v->coding_len = in->coding_len > RA_CODING_MAX ? RA_CODING_MAX
                                                   : in->coding_len;
    memcpy(v->coding, in->coding, v->coding_len);
    v->lint_errors = in->lint_errors;
    v->lint_warnings = in->lint_warnings;
    v->lint_infos = in->lint_infos;
    v->groups = in->groups;
    v->rules = in->rules;
    v->sitemaps = in->sitemaps;
    memcpy(v->sha256, in->sha256, sizeof(v->sha256));
    s->current = (uint8_t) slot;
    ra_end(l);
    return slot;
}

static void
ra_answer_unchanged_locked(ra_ledger_t *l, uint32_t site, int64_t now)
{
    ra_site_slot_t     *s = ra_site_at(l, site);

    ra_version_slot_t  *cur;

    if (s == NULL || !s->used) {
        return;
    }
    ra_episode_end(s, now);
    s->failures = 0;
    s->failing_since = 0;
    s->served_at = now;
    /* the last answer is the version in force again */
    cur = s->nversions ? &s->versions[s->current] : NULL;
    if (cur != NULL && cur->hash != 0) {
        s->robots_date = now;
        s->robots_status = cur->status;
        s->last_size = cur->size;
        s->last_ctype_len = cur->ctype_len > RA_CTYPE_MAX ? RA_CTYPE_MAX
                                                          : cur->ctype_len;
        memcpy(s->last_ctype, cur->ctype, s->last_ctype_len);
    }
}

static int
ra_undecodable_locked(ra_ledger_t *l, uint32_t site, int status,
    ra_str_t coding, int64_t now)
{
    int              same;
    size_t           n;
    ra_site_slot_t  *s = ra_site_at(l, site);

    if (s == NULL || !s->used) {
        return 0;
    }
    n = coding.len < RA_CODING_MAX ? coding.len : RA_CODING_MAX;
    same = s->undecodable && s->bad_coding_len == n
           && (n == 0 || memcmp(s->bad_coding, coding.data, n) == 0);
    s->robots_date = now;
    s->robots_status = (uint16_t) (status > 0 && status < 1000 ? status : 0);
    ra_episode_end(s, now);
    s->failures = 0;
    s->failing_since = 0;
    if (!same) {
        s->undecodable = now > 0 ? now : 1;     /* since the first */
    }
    s->bad_coding_len = (uint8_t) n;
    if (n) {
        memcpy(s->bad_coding, coding.data, n);
    }
    return same;
}
