/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The ledger's site and stat records: finding one by its key through the
 * hash chains, creating it from a free list, moving it to the head of its
 * LRU list when it is used, and evicting the least recently used one of its
 * class when the table is full, in O(1) and between ra_begin() and ra_end(),
 * so that a process dying at any step leaves a mark the next lock repairs.
 * Also the ids, epochs and tags by which a process's hints name records.
 */
#include "ra_ledger_impl.h"

/* ---- LRU lists and hash chains --------------------------------------- */

/* A link past its table (n slots) is never followed: the list is marked
 * broken and the next lock rebuilds it from the slots. */
#define RA_LRU_UNLINK(l, tab, n, x, head, tail)                               \
    do {                                                                      \
        if ((x)->lprev > (n) || (x)->lnext > (n)) {                           \
            ra_broken(l);                                                     \
            (x)->lprev = (x)->lnext = 0;                                      \
            break;                                                            \
        }                                                                     \
        if ((x)->lprev) (tab)[(x)->lprev - 1].lnext = (x)->lnext;             \
        else (head) = (x)->lnext;                                             \
        RA_STEP();                                                            \
        if ((x)->lnext) (tab)[(x)->lnext - 1].lprev = (x)->lprev;             \
        else (tail) = (x)->lprev;                                             \
        RA_STEP();                                                            \
        (x)->lprev = (x)->lnext = 0;                                          \
    } while (0)

#define RA_LRU_PUSH(l, tab, n, x, id, head, tail)                             \
    do {                                                                      \
        if ((head) > (n)) {                                                   \
            ra_broken(l);                                                     \
            (head) = 0;                                                       \
        }                                                                     \
        (x)->lprev = 0;                                                       \
        (x)->lnext = (head);                                                  \
        RA_STEP();                                                            \
        if (head) (tab)[(head) - 1].lprev = (id);                             \
        RA_STEP();                                                            \
        (head) = (id);                                                        \
        if ((tail) == 0) (tail) = (id);                                       \
    } while (0)

static void
ra_hash_unlink(const ra_ledger_t *l, uint32_t *heads, uint32_t mask,
    uint32_t h, uint32_t id, uint32_t max,
    uint32_t *(*next_of)(const ra_ledger_t *, uint32_t))
{
    uint32_t  *link = &heads[h & mask];
    uint32_t   n;

    for (n = max; *link && *link != id && n; n--) {
        if (*link > max) {
            ra_broken(l);
            return;
        }
        link = next_of(l, *link);
    }
    if (*link == id) {
        *link = *next_of(l, id);
    } else {
        ra_broken(l);
    }
}

static uint32_t *
ra_site_next(const ra_ledger_t *l, uint32_t id)
{
    return &RA_SITES(l)[id - 1].hnext;
}

static uint32_t *
ra_stat_next(const ra_ledger_t *l, uint32_t id)
{
    return &RA_STATS(l)[id - 1].hnext;
}

static int
ra_stat_is(const ra_stat_slot_t *st, uint32_t site, const ra_stat_key_t *key,
    size_t n)
{
    return st->site == site && st->verification == key->verification
           && (st->kind == RA_UA_GENERIC) == (key->kind == RA_UA_GENERIC)
           && st->name_len == n
           && ra_strcaseeq(ra_str(st->name, n), ra_str(key->name.data, n));
}

/* One byte, written whole: a reader sees the old method or the new. */
static void
ra_stat_verified_by(ra_stat_slot_t *st, const ra_stat_key_t *key)
{
    if (key->verified_by != 0 && key->verified_by < RA_VERIFIED_BY_MAX) {
        __atomic_store_n(&st->verified_by, (uint8_t) key->verified_by,
                         __ATOMIC_RELAXED);
    }
}

/* The fold's last step, which may run twice: the kind's new sums,
 * computed before fold_tag was set, stored. */
void
ra_fold_apply(ra_site_slot_t *s)
{
    unsigned  c, k = s->fold_kind % RA_EVICTED_KINDS;

    for (c = 0; c < RA_CNT_MAX; c++) {
        s->evicted[k][c] = s->fold_sum[c];
    }
    s->evicted_records[k] = s->fold_sum[RA_CNT_MAX];
}

/*
 * An evicted record's counts go to its site's evicted sums, so that
 * what a flood pushes out stays counted.  The sums are computed into the
 * journal first and only stored once fold_tag names the record: a process
 * that dies before that leaves the sums as they were and the record whole;
 * one that dies after it leaves the journal, which the rebuild applies
 * again (the same values) before it frees the record
 * (ra_ledger_fold_repair()).  Counts a process adds without the lock
 * after the sums were read are lost with the record, as they were before.
 */
static void
ra_stat_fold(ra_site_slot_t *s, uint32_t id, const ra_stat_slot_t *st)
{
    unsigned  c, k = ra_evicted_kind(st);

    for (c = 0; c < RA_CNT_MAX; c++) {
        s->fold_sum[c] = s->evicted[k][c] + ra_atomic_read(&st->counters[c]);
    }
    s->fold_sum[RA_CNT_MAX] = s->evicted_records[k] + 1;
    s->fold_kind = (uint8_t) k;
    s->fold_stat = id;
    RA_STEP();
    __atomic_store_n(&s->fold_tag, st->tag, __ATOMIC_RELEASE);
    RA_STEP();
    ra_fold_apply(s);
}

void
ra_ledger_fold_repair(const ra_ledger_t *l)
{
    uint32_t         id;
    ra_site_slot_t  *s;
    ra_stat_slot_t  *st;

    for (id = 1; id <= l->hdr->plan.sites; id++) {
        s = &RA_SITES(l)[id - 1];
        if (!s->used || s->fold_tag == 0) {
            continue;
        }
        st = ra_stat_at(l, s->fold_stat);
        if (st != NULL && st->used && st->site == id
            && st->tag == s->fold_tag)
        {
            /* it died between the tag and the record's end: the sums
             * may be half stored, the record must go */
            ra_fold_apply(s);
            memset(st, 0, sizeof(*st));
        }
        s->fold_tag = 0;
    }
}

/* Evicts a stat record: its counts folded into its site's evicted sums
 * (unless the site goes too: fold 0), out of its hash chain, its class's
 * LRU list and its site's list, then onto the free list. */
static void
ra_stat_evict(ra_ledger_t *l, uint32_t id, int fold)
{
    unsigned          c;
    ra_ledger_hdr_t  *h = l->hdr;
    ra_stat_slot_t   *st = ra_stat_at(l, id), *stats = RA_STATS(l);
    ra_site_slot_t   *s, *fs;

    if (st == NULL || !st->used) {
        ra_broken(l);
        return;
    }
    c = ra_stat_cls(st);
    fs = fold ? ra_site_at(l, st->site) : NULL;
    if (fs != NULL && fs->used && fs->epoch == st->site_epoch
        && st->tag != 0)
    {
        ra_stat_fold(fs, id, st);
        RA_STEP();
    } else {
        fs = NULL;
    }
    ra_hash_unlink(l, RA_STAT_HASH(l), h->stat_hash_size - 1,
                   ra_stat_hash_of(st->site, st->verification, st->name,
                                   st->name_len),
                   id, h->plan.stats, ra_stat_next);
    RA_STEP();
    RA_LRU_UNLINK(l, stats, h->plan.stats,
                  st, h->stat_head[c], h->stat_tail[c]);
    RA_STEP();
    /* the site's list */
    s = ra_site_at(l, st->site);
    if (st->sprev > h->plan.stats || st->snext > h->plan.stats) {
        ra_broken(l);                   /* rebuilt at the next lock */
    } else {
        if (st->sprev) {
            stats[st->sprev - 1].snext = st->snext;
        } else if (s != NULL) {
            s->stats = st->snext;
        }
        RA_STEP();
        if (st->snext) {
            stats[st->snext - 1].sprev = st->sprev;
        }
    }
    RA_STEP();
    memset(st, 0, sizeof(*st));
    RA_STEP();
    if (fs != NULL) {
        __atomic_store_n(&fs->fold_tag, 0, __ATOMIC_RELEASE);
        RA_STEP();
    }
    st->hnext = h->stat_free;
    h->stat_free = id;
    RA_STEP();
    ra_atomic_set(&h->stat_n[c], h->stat_n[c] - 1);
    ra_atomic_set(&h->stat_count, h->stat_count - 1);
}

static void
ra_site_evict(ra_ledger_t *l, uint32_t id)
{
    uint32_t          i, n;
    ra_ledger_hdr_t  *h = l->hdr;
    ra_site_slot_t   *s = ra_site_at(l, id);

    if (s == NULL || !s->used) {
        ra_broken(l);
        return;
    }
    /* its stats go with it: a reused slot must not inherit them */
    for (n = h->plan.stats; s->stats && n; n--) {
        ra_stat_evict(l, s->stats, 0);
        RA_STEP();
        if (h->broken) {
            return;
        }
    }
    for (i = 0; i < RA_VERSIONS; i++) {
        ra_version_drop(l, &s->versions[i]);
    }
    ra_hash_unlink(l, RA_SITE_HASH(l), h->site_hash_size - 1,
                   ra_site_hash_of(s), id, h->plan.sites, ra_site_next);
    RA_STEP();
    RA_LRU_UNLINK(l, RA_SITES(l), h->plan.sites,
                  s, h->site_head, h->site_tail);
    RA_STEP();
    memset(s, 0, sizeof(*s));
    RA_STEP();
    s->hnext = h->site_free;
    h->site_free = id;
    RA_STEP();
    ra_atomic_set(&h->site_count, h->site_count - 1);
}

/* The head of a free list, taken off it; 0 when it is empty or holds
 * something it should not. */
static uint32_t
ra_pop_free(const ra_ledger_t *l, uint32_t *head, uint32_t max, int is_site)
{
    uint32_t  id = *head;
    int       used;

    if (id == 0 || id > max) {
        if (id) {
            ra_broken(l);
        }
        return 0;
    }
    used = is_site ? RA_SITES(l)[id - 1].used : RA_STATS(l)[id - 1].used;
    if (used) {
        ra_broken(l);
        return 0;
    }
    *head = is_site ? RA_SITES(l)[id - 1].hnext : RA_STATS(l)[id - 1].hnext;
    return id;
}

static uint32_t ra_site_find_or_add(ra_ledger_t *l, ra_str_t name,
    int64_t now, int create);

uint32_t
ra_ledger_site_locked(ra_ledger_t *l, ra_str_t name, int64_t now)
{
    return ra_site_find_or_add(l, name, now, 1);
}

uint32_t
ra_ledger_site_find_locked(ra_ledger_t *l, ra_str_t name, int64_t now)
{
    return ra_site_find_or_add(l, name, now, 0);
}

/* A site found: the most recently used, seen now. */
static void
ra_site_touch(ra_ledger_t *l, ra_site_slot_t *s, uint32_t id, int64_t now)
{
    ra_site_slot_t   *sites = RA_SITES(l);
    ra_ledger_hdr_t  *h = l->hdr;

    if (h->site_head != id) {
        ra_begin(l);
        RA_LRU_UNLINK(l, sites, h->plan.sites,
                      s, h->site_head, h->site_tail);
        RA_LRU_PUSH(l, sites, h->plan.sites,
                    s, id, h->site_head, h->site_tail);
        ra_end(l);
    }
    s->last_seen = now;
}

uint32_t
ra_ledger_site_again_locked(ra_ledger_t *l, uint32_t site, uint32_t epoch,
    int64_t now)
{
    ra_site_slot_t  *s = ra_site_at(l, site);

    if (s == NULL || !s->used || epoch == 0 || s->epoch != epoch) {
        return 0;
    }
    ra_site_touch(l, s, site, now);
    return site;
}

uint32_t
ra_ledger_site_epoch_locked(const ra_ledger_t *l, uint32_t site)
{
    ra_site_slot_t  *s = ra_site_at(l, site);

    return s != NULL && s->used ? s->epoch : 0;
}

static uint32_t
ra_site_find_or_add(ra_ledger_t *l, ra_str_t name, int64_t now, int create)
{
    size_t            i, n;
    uint32_t          hv, id, steps;
    ra_site_slot_t   *s, *sites = RA_SITES(l);
    ra_ledger_hdr_t  *h = l->hdr;
    char              low[RA_SITE_NAME_MAX];

    n = name.len < RA_SITE_NAME_MAX ? name.len : RA_SITE_NAME_MAX;
    for (i = 0; i < n; i++) {
        low[i] = (char) ra_lower(name.data[i]);
    }
    hv = ra_hash32(2166136261u, (const unsigned char *) low, n, 0);

    steps = h->plan.sites;
    for (id = RA_SITE_HASH(l)[hv & (h->site_hash_size - 1)];
         id && id <= h->plan.sites && steps; id = s->hnext, steps--)
    {
        s = &sites[id - 1];
        if (s->name_len == n && memcmp(s->name, low, n) == 0) {
            ra_site_touch(l, s, id, now);
            return id;
        }
    }
    if (!create) {
        return 0;
    }

    ra_begin(l);
    if (h->site_free == 0 && h->site_tail) {
        ra_site_evict(l, h->site_tail);
        ra_atomic_add(&h->site_evictions, 1);
    }
    id = ra_pop_free(l, &h->site_free, h->plan.sites, 1);
    if (id == 0) {
        /* only when the structure does not hold: rebuilt at the next
         * lock; the request is counted in the totals only */
        ra_broken(l);
        ra_end(l);
        return 0;
    }
    RA_STEP();
    s = &sites[id - 1];
    memset(s, 0, sizeof(*s));
    s->epoch = h->next_epoch++;
    s->name_len = (uint8_t) n;
    memcpy(s->name, low, n);
    s->created = s->last_seen = now;
    RA_STEP();
    __atomic_store_n(&s->used, 1, __ATOMIC_RELEASE);
    RA_STEP();
    s->hnext = RA_SITE_HASH(l)[hv & (h->site_hash_size - 1)];
    RA_SITE_HASH(l)[hv & (h->site_hash_size - 1)] = id;
    RA_STEP();
    RA_LRU_PUSH(l, sites, h->plan.sites, s, id, h->site_head, h->site_tail);
    RA_STEP();
    ra_atomic_set(&h->site_count, h->site_count + 1);
    ra_end(l);
    return id;
}

/* A record found: the most recently used of its class, seen now. */
static void
ra_stat_touch(ra_ledger_t *l, ra_stat_slot_t *st, uint32_t id,
    const ra_stat_key_t *key, int64_t now)
{
    unsigned          c = ra_stat_cls(st);
    ra_stat_slot_t   *stats = RA_STATS(l);
    ra_ledger_hdr_t  *h = l->hdr;

    if (h->stat_head[c] != id) {
        ra_begin(l);
        RA_LRU_UNLINK(l, stats, h->plan.stats,
                      st, h->stat_head[c], h->stat_tail[c]);
        RA_LRU_PUSH(l, stats, h->plan.stats,
                    st, id, h->stat_head[c], h->stat_tail[c]);
        ra_end(l);
    }
    st->last_seen = now;
    ra_stat_verified_by(st, key);
}

uint32_t
ra_ledger_stat_again_locked(ra_ledger_t *l, uint32_t site, uint32_t stat,
    const ra_stat_key_t *key, int64_t now)
{
    size_t           n;
    ra_stat_slot_t  *st = ra_stat_at(l, stat);
    ra_site_slot_t  *s = ra_site_at(l, site);

    n = key->name.len < RA_NAME_MAX ? key->name.len : RA_NAME_MAX;
    if (st != NULL && s != NULL && s->used && st->used
        && st->site_epoch == s->epoch && ra_stat_is(st, site, key, n))
    {
        ra_stat_touch(l, st, stat, key, now);
        return stat;
    }
    return ra_ledger_stat_locked(l, site, key, now);
}

uint32_t
ra_ledger_stat_locked(ra_ledger_t *l, uint32_t site, const ra_stat_key_t *key,
    int64_t now)
{
    size_t            n;
    unsigned          c;
    uint32_t          hv, id, steps, victim;
    ra_stat_slot_t   *st, *stats = RA_STATS(l);
    ra_site_slot_t   *s = ra_site_at(l, site);
    ra_ledger_hdr_t  *h = l->hdr;

    if (s == NULL || !s->used) {
        return 0;
    }
    n = key->name.len < RA_NAME_MAX ? key->name.len : RA_NAME_MAX;
    hv = ra_stat_hash_of(site, key->verification,
                         (const char *) key->name.data, n);

    steps = h->plan.stats;
    for (id = RA_STAT_HASH(l)[hv & (h->stat_hash_size - 1)];
         id && id <= h->plan.stats && steps; id = st->hnext, steps--)
    {
        st = &stats[id - 1];
        if (st->hash == hv && ra_stat_is(st, site, key, n)) {
            ra_stat_touch(l, st, id, key, now);
            return id;
        }
    }

    /*
     * Room for a new record, in O(1).  Generic bots and suspect records
     * (names anyone can send) evict their own class's least recently
     * used once it holds its bound (generic_max, suspect_max) or nothing
     * is free (then the other one's when their own is empty); verified
     * crawlers take a free slot, else the bigger of those two classes'
     * tail, and evict each other only when they hold known_max records.
     * So a verified record is only ever evicted by a verified one.
     */
    c = ra_stat_cls_of(key->kind, key->verification);
    victim = 0;
    if (c == RA_CLS_KNOWN) {
        if (h->stat_n[c] >= h->known_max) {
            victim = h->stat_tail[c];
        } else if (h->stat_free == 0) {
            victim = h->stat_n[RA_CLS_GENERIC] >= h->stat_n[RA_CLS_SUSPECT]
                     ? h->stat_tail[RA_CLS_GENERIC]
                     : h->stat_tail[RA_CLS_SUSPECT];
        }
    } else if (h->stat_n[c] >= (c == RA_CLS_GENERIC ? h->generic_max
                                                     : h->suspect_max))
    {
        victim = h->stat_tail[c];
    } else if (h->stat_free == 0) {
        victim = h->stat_n[c] ? h->stat_tail[c]
                 : h->stat_tail[c == RA_CLS_GENERIC ? RA_CLS_SUSPECT
                                                     : RA_CLS_GENERIC];
    }
    ra_begin(l);
    if (victim) {
        ra_stat_evict(l, victim, 1);
        ra_atomic_add(&h->stat_evictions, 1);
    }
    RA_STEP();
    id = ra_pop_free(l, &h->stat_free, h->plan.stats, 0);
    if (id == 0) {
        ra_broken(l);
        ra_end(l);
        return 0;
    }
    RA_STEP();
    st = &stats[id - 1];
    memset(st, 0, sizeof(*st));
    st->hash = hv;
    st->site = site;
    st->site_epoch = s->epoch;
    st->verification = (uint8_t) key->verification;
    st->kind = (uint8_t) key->kind;
    st->category = (uint8_t) key->category;
    st->name_len = (uint8_t) ra_str_cut(st->name, RA_NAME_MAX, key->name);
    st->token_len = (uint8_t) ra_str_cut(st->token, RA_NAME_MAX,
                                           key->token);
    st->first_seen = st->last_seen = now;
    ra_stat_verified_by(st, key);
    st->tag = h->next_epoch++;
    if (st->tag == 0) {
        st->tag = h->next_epoch++;
    }
    RA_STEP();
    __atomic_store_n(&st->used, 1, __ATOMIC_RELEASE);
    RA_STEP();
    st->hnext = RA_STAT_HASH(l)[hv & (h->stat_hash_size - 1)];
    RA_STAT_HASH(l)[hv & (h->stat_hash_size - 1)] = id;
    RA_STEP();
    RA_LRU_PUSH(l, stats, h->plan.stats,
                st, id, h->stat_head[c], h->stat_tail[c]);
    RA_STEP();
    st->snext = s->stats;
    if (s->stats) {
        stats[s->stats - 1].sprev = id;
    }
    RA_STEP();
    s->stats = id;
    RA_STEP();
    ra_atomic_set(&h->stat_n[c], h->stat_n[c] + 1);
    ra_atomic_set(&h->stat_count, h->stat_count + 1);
    ra_end(l);
    return id;
}

uint32_t
ra_ledger_stat_tag_locked(const ra_ledger_t *l, uint32_t stat)
{
    ra_stat_slot_t  *st = ra_stat_at(l, stat);

    return st != NULL && st->used ? st->tag : 0;
}

uint32_t
ra_ledger_site_hint(const ra_ledger_t *l, uint32_t site, uint32_t epoch)
{
    return ra_site_hinted(l, site, epoch) != NULL ? site : 0;
}
