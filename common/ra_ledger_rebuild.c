/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Crash safety, the repair side: a process that dies inside a structural
 * change leaves the dirty mark set (ra_begin()), and the next one to take
 * the lock rebuilds the structure from the slots themselves (hash chains,
 * LRU lists, free lists, counts, the violation ring's next slots, the blob
 * heap), losing at most the record being changed.  ra_ledger_verify() says
 * whether the structure holds; a reload's check marks one that does not.
 */
#include "ra_ledger_impl.h"

/* Is the slot a whole record? */
static int
ra_site_sound(const ra_site_slot_t *s)
{
    return s->used && s->name_len <= RA_SITE_NAME_MAX
           && s->nversions <= RA_VERSIONS && s->current < RA_VERSIONS
           && s->episode_next < RA_EPISODES;
}

static int
ra_stat_sound(const ra_ledger_t *l, const ra_stat_slot_t *st)
{
    const ra_site_slot_t  *s = ra_site_at(l, st->site);

    return st->used && s != NULL && s->used && s->epoch == st->site_epoch
           && st->name_len <= RA_NAME_MAX && st->token_len <= RA_NAME_MAX;
}

/*
 * The LRU list rebuilt: the old list's order as far as it can be walked
 * (records that belong in it, each once), then every other record of the
 * class in slot order.  in() says whether a record belongs.
 */
#define RA_LRU_REBUILD(tab, max, head, tail, count, stamp, in)                \
    do {                                                                      \
        uint32_t  id_, old_ = (head), n_, last_ = 0;                          \
        (count) = 0;                                                          \
        (head) = (tail) = 0;                                                  \
        for (n_ = (max); old_ && old_ <= (max) && n_; n_--) {                 \
            uint32_t  next_ = (tab)[old_ - 1].lnext;                          \
            if (in(&(tab)[old_ - 1]) && (tab)[old_ - 1].mark != (stamp)) {    \
                (tab)[old_ - 1].mark = (stamp);                               \
                (tab)[old_ - 1].lprev = last_;                                \
                (tab)[old_ - 1].lnext = 0;                                    \
                if (last_) (tab)[last_ - 1].lnext = old_;                     \
                else (head) = old_;                                           \
                last_ = old_;                                                 \
                (count)++;                                                    \
            }                                                                 \
            old_ = next_;                                                     \
        }                                                                     \
        for (id_ = 1; id_ <= (max); id_++) {                                  \
            if (in(&(tab)[id_ - 1]) && (tab)[id_ - 1].mark != (stamp)) {      \
                (tab)[id_ - 1].mark = (stamp);                                \
                (tab)[id_ - 1].lprev = last_;                                 \
                (tab)[id_ - 1].lnext = 0;                                     \
                if (last_) (tab)[last_ - 1].lnext = id_;                      \
                else (head) = id_;                                            \
                last_ = id_;                                                  \
                (count)++;                                                    \
            }                                                                 \
        }                                                                     \
        (tail) = last_;                                                       \
    } while (0)

#define RA_IN_SITE(x)     ((x)->used)
#define RA_IN_KNOWN(x)    ((x)->used && ra_stat_cls(x) == RA_CLS_KNOWN)
#define RA_IN_GENERIC(x)  ((x)->used && ra_stat_cls(x) == RA_CLS_GENERIC)
#define RA_IN_SUSPECT(x)  ((x)->used && ra_stat_cls(x) == RA_CLS_SUSPECT)

void
ra_ledger_rebuild(const ra_ledger_t *l)
{
    uint32_t          id, stamp, n, k;
    uint32_t         *sh = RA_SITE_HASH(l), *th = RA_STAT_HASH(l);
    ra_ledger_hdr_t  *h = l->hdr;
    ra_site_slot_t   *s, *sites = RA_SITES(l);
    ra_stat_slot_t   *st, *stats = RA_STATS(l);

    stamp = ++h->mark;
    if (stamp == 0 || ~stamp == 0) {
        stamp = h->mark = 1;
    }

    /* sites: whole records stay, anything else is cleared */
    memset(sh, 0, (size_t) h->site_hash_size * 4);
    for (id = 1; id <= h->plan.sites; id++) {
        s = &sites[id - 1];
        if (!ra_site_sound(s)) {
            memset(s, 0, sizeof(*s));
            continue;
        }
        s->stats = 0;
        k = ra_site_hash_of(s) & (h->site_hash_size - 1);
        s->hnext = sh[k];
        sh[k] = id;
    }
    RA_LRU_REBUILD(sites, h->plan.sites, h->site_head, h->site_tail, n,
                   stamp, RA_IN_SITE);
    ra_atomic_set(&h->site_count, n);
    h->site_free = 0;
    for (id = h->plan.sites; id; id--) {
        if (!sites[id - 1].used) {
            sites[id - 1].hnext = h->site_free;
            h->site_free = id;
        }
    }
    if (h->next_epoch == 0) {
        h->next_epoch = 1;
    }

    /* a fold a process died in is finished first: its record goes */
    ra_ledger_fold_repair(l);

    /* stats: whole records of live sites stay */
    memset(th, 0, (size_t) h->stat_hash_size * 4);
    for (id = h->plan.stats; id; id--) {
        st = &stats[id - 1];
        if (!ra_stat_sound(l, st)) {
            memset(st, 0, sizeof(*st));
            continue;
        }
        st->hash = ra_stat_hash_of(st->site, st->verification, st->name,
                                   st->name_len);
        k = st->hash & (h->stat_hash_size - 1);
        st->hnext = th[k];
        th[k] = id;
        s = &sites[st->site - 1];
        st->sprev = 0;
        st->snext = s->stats;
        if (s->stats) {
            stats[s->stats - 1].sprev = id;
        }
        s->stats = id;
    }
    RA_LRU_REBUILD(stats, h->plan.stats, h->stat_head[RA_CLS_KNOWN],
                   h->stat_tail[RA_CLS_KNOWN], n, stamp, RA_IN_KNOWN);
    ra_atomic_set(&h->stat_n[RA_CLS_KNOWN], n);
    RA_LRU_REBUILD(stats, h->plan.stats, h->stat_head[RA_CLS_GENERIC],
                   h->stat_tail[RA_CLS_GENERIC], n, stamp, RA_IN_GENERIC);
    ra_atomic_set(&h->stat_n[RA_CLS_GENERIC], n);
    RA_LRU_REBUILD(stats, h->plan.stats, h->stat_head[RA_CLS_SUSPECT],
                   h->stat_tail[RA_CLS_SUSPECT], n, stamp, RA_IN_SUSPECT);
    ra_atomic_set(&h->stat_n[RA_CLS_SUSPECT], n);
    ra_atomic_set(&h->stat_count, h->stat_n[RA_CLS_KNOWN]
                                  + h->stat_n[RA_CLS_GENERIC]
                                  + h->stat_n[RA_CLS_SUSPECT]);
    h->stat_free = 0;
    for (id = h->plan.stats; id; id--) {
        if (!stats[id - 1].used) {
            stats[id - 1].hnext = h->stat_free;
            h->stat_free = id;
        }
    }

    /* the ring: a slot half written is dropped by its own lengths being
     * clamped wherever it is read; the next slot must be one */
    if (h->vio_next < h->vio_trusted || h->vio_next >= h->plan.violations) {
        h->vio_next = h->vio_trusted;
    }
    if (h->vio_next_trusted >= h->vio_trusted) {
        h->vio_next_trusted = 0;
    }

    ra_blob_rebuild(l, stamp);

    ra_atomic_add(&h->repairs, 1);
    __atomic_store_n(&h->broken, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&h->dirty, 0, __ATOMIC_RELEASE);
}

/* Walks an LRU list: its length, or UINT32_MAX when it does not hold. */
#define RA_LRU_VERIFY(tab, max, head, tail, in, out)                          \
    do {                                                                      \
        uint32_t  id_ = (head), prev_ = 0, n_ = 0;                            \
        while (id_ && id_ <= (max) && n_ <= (max)                             \
               && in(&(tab)[id_ - 1]) && (tab)[id_ - 1].lprev == prev_)       \
        {                                                                     \
            prev_ = id_;                                                      \
            id_ = (tab)[id_ - 1].lnext;                                       \
            n_++;                                                             \
        }                                                                     \
        (out) = id_ == 0 && prev_ == (tail) ? n_ : UINT32_MAX;                \
    } while (0)

const char *
ra_ledger_verify(const ra_ledger_t *l)
{
    uint32_t          id, n, k, used, count, steps;
    ra_ledger_hdr_t  *h = l->hdr;
    ra_site_slot_t   *s, *sites = RA_SITES(l);
    ra_stat_slot_t   *st, *stats = RA_STATS(l);

    if (h->dirty) {
        return "a change was left half done";
    }
    if (h->vio_next < h->vio_trusted || h->vio_next >= h->plan.violations
        || (h->vio_trusted && h->vio_next_trusted >= h->vio_trusted))
    {
        return "the violation ring's next slot is out of range";
    }

    /* sites: counted, chained once each, listed, the rest free */
    used = 0;
    for (id = 1; id <= h->plan.sites; id++) {
        s = &sites[id - 1];
        if (s->used && !ra_site_sound(s)) {
            return "a site record is not whole";
        }
        if (s->used && s->fold_tag != 0) {
            return "a record's fold into its site was left half done";
        }
        used += s->used;
    }
    if (used != h->site_count) {
        return "the site count is wrong";
    }
    RA_LRU_VERIFY(sites, h->plan.sites, h->site_head, h->site_tail,
                  RA_IN_SITE, n);
    if (n != used) {
        return "the site LRU list does not hold";
    }
    count = 0;
    for (k = 0; k < h->site_hash_size; k++) {
        steps = h->plan.sites;
        for (id = RA_SITE_HASH(l)[k]; id; id = sites[id - 1].hnext) {
            if (id > h->plan.sites || !steps-- || !sites[id - 1].used
                || (ra_site_hash_of(&sites[id - 1])
                    & (h->site_hash_size - 1)) != k)
            {
                return "a site hash chain does not hold";
            }
            count++;
        }
    }
    if (count != used) {
        return "the site hash chains do not hold every site";
    }
    n = 0;
    for (id = h->site_free; id; id = sites[id - 1].hnext) {
        if (id > h->plan.sites || sites[id - 1].used
            || n++ > h->plan.sites)
        {
            return "the site free list does not hold";
        }
    }
    if (n + used != h->plan.sites) {
        return "the site free list misses slots";
    }

    /* stats */
    used = 0;
    for (id = 1; id <= h->plan.stats; id++) {
        st = &stats[id - 1];
        if (st->used && !ra_stat_sound(l, st)) {
            return "a stat record is not whole, or its site is gone";
        }
        used += st->used;
    }
    if (used != h->stat_count) {
        return "the stat count is wrong";
    }
    RA_LRU_VERIFY(stats, h->plan.stats, h->stat_head[RA_CLS_KNOWN],
                  h->stat_tail[RA_CLS_KNOWN], RA_IN_KNOWN, n);
    if (n != h->stat_n[RA_CLS_KNOWN] || n > h->known_max) {
        return "the known crawlers' LRU list does not hold";
    }
    RA_LRU_VERIFY(stats, h->plan.stats, h->stat_head[RA_CLS_GENERIC],
                  h->stat_tail[RA_CLS_GENERIC], RA_IN_GENERIC, k);
    if (k != h->stat_n[RA_CLS_GENERIC] || k > h->generic_max) {
        return "the generic bots' LRU list does not hold";
    }
    n += k;
    RA_LRU_VERIFY(stats, h->plan.stats, h->stat_head[RA_CLS_SUSPECT],
                  h->stat_tail[RA_CLS_SUSPECT], RA_IN_SUSPECT, k);
    if (k != h->stat_n[RA_CLS_SUSPECT] || n + k != used
        || k > h->suspect_max)
    {
        return "the suspect records' LRU list does not hold";
    }
    count = 0;
    for (k = 0; k < h->stat_hash_size; k++) {
        steps = h->plan.stats;
        for (id = RA_STAT_HASH(l)[k]; id; id = stats[id - 1].hnext) {
            if (id > h->plan.stats || !steps-- || !stats[id - 1].used) {
                return "a stat hash chain does not hold";
            }
            st = &stats[id - 1];
            if (st->hash != ra_stat_hash_of(st->site, st->verification,
                                            st->name, st->name_len)
                || (st->hash & (h->stat_hash_size - 1)) != k)
            {
                return "a stat hash chain does not hold";
            }
            count++;
        }
    }
    if (count != used) {
        return "the stat hash chains do not hold every record";
    }
    count = 0;
    for (id = 1; id <= h->plan.sites; id++) {
        uint32_t  prev = 0;

        steps = h->plan.stats;
        for (k = sites[id - 1].stats; k; k = stats[k - 1].snext) {
            if (k > h->plan.stats || !steps-- || !stats[k - 1].used
                || stats[k - 1].site != id || stats[k - 1].sprev != prev)
            {
                return "a site's list of records does not hold";
            }
            prev = k;
            count++;
        }
    }
    if (count != used) {
        return "the sites' lists do not hold every record";
    }
    n = 0;
    for (id = h->stat_free; id; id = stats[id - 1].hnext) {
        if (id > h->plan.stats || stats[id - 1].used || n++ > h->plan.stats)
        {
            return "the stat free list does not hold";
        }
    }
    if (n + used != h->plan.stats) {
        return "the stat free list misses slots";
    }

    return ra_blob_verify(l);
}
