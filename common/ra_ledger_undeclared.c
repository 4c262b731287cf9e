/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The undeclared-crawler tables in the ledger's region: a fixed number of
 * slots, each one site's detector table (ra_undeclared.h) behind a small
 * header naming the site.  A site takes a free slot, else the one seen
 * longest ago, made anew.  The tables hold offsets only, so every
 * process reads the same ones, and they last as long as the region does
 * (a reload, a graceful restart).
 *
 * Crash safety: a table changes only under the ledger's lock, between
 * the slot's dirty mark set and cleared (ra_ledger_undecl_locked(),
 * ra_ledger_undecl_done_locked()).  A process that takes the lock and
 * finds the mark set knows the one before died inside a change, at
 * whatever instruction: its table is made anew (RA326), which loses that
 * site's clients, never the ledger's coherence.  A region kept across a
 * reload is checked table by table (ra_undecl_check()); one that does
 * not hold is marked, and made anew by the next process to use it.
 */
#include <string.h>

#include "ra_ledger_impl.h"
#include "ra_tags.h"
#include "ra_undeclared.h"

/* the defaults: a table per site of this many clients and flagged
 * ones, as many tables as an eighth of the region holds (at most
 * RA_UNDECL_AREA_SLOTS); a region too small for one gets smaller ones,
 * and one too small for those none */
#define RA_UNDECL_AREA_CLIENTS   1024
#define RA_UNDECL_AREA_FLAGGED   64
#define RA_UNDECL_AREA_SLOTS     64
#define RA_UNDECL_SMALL_CLIENTS  256
#define RA_UNDECL_SMALL_FLAGGED  16

typedef struct {
    uint32_t  dirty;            /* 1 while a table changes */
    uint32_t  used;             /* set last when taken */
    uint32_t  name_len;
    uint32_t  gen;              /* taken this many times (0 skipped; a
                                   region made before it was counted
                                   holds 0, made 1 when found): a
                                   process's hint of the slot holds while
                                   it stays */
    int64_t   last_seen;
    char      name[RA_SITE_NAME_MAX];
} ra_undecl_slot_t;

#define RA_UNDECL_SLOT_HDR  RA_ALIGN_UP(sizeof(ra_undecl_slot_t), 64)

size_t
ra_undecl_area_layout(size_t size, size_t off, ra_undecl_area_t *a)
{
    size_t    share = size / 8, table;
    uint32_t  n;

    memset(a, 0, sizeof(*a));
    a->clients = RA_UNDECL_AREA_CLIENTS;
    a->flagged = RA_UNDECL_AREA_FLAGGED;
    table = ra_undecl_size(a->clients, a->flagged);
    if (share / (RA_UNDECL_SLOT_HDR + table) == 0) {
        a->clients = RA_UNDECL_SMALL_CLIENTS;
        a->flagged = RA_UNDECL_SMALL_FLAGGED;
        table = ra_undecl_size(a->clients, a->flagged);
    }
    a->slot_size = (uint32_t) RA_ALIGN_UP(RA_UNDECL_SLOT_HDR + table, 64);
    n = (uint32_t) (share / a->slot_size);
    a->slots = n > RA_UNDECL_AREA_SLOTS ? RA_UNDECL_AREA_SLOTS : n;
    if (a->slots == 0) {
        a->clients = a->flagged = a->slot_size = 0;
        return off;
    }
    a->off = (uint32_t) off;
    return RA_ALIGN_UP(off + (size_t) a->slots * a->slot_size, 64);
}

static ra_undecl_slot_t *
ra_undecl_slot(const ra_ledger_t *l, uint32_t i)
{
    return (ra_undecl_slot_t *) (void *) (l->base + l->hdr->undecl.off
                                          + (size_t) i
                                            * l->hdr->undecl.slot_size);
}

static void *
ra_undecl_slot_table(const ra_ledger_t *l, uint32_t i)
{
    return (unsigned char *) ra_undecl_slot(l, i) + RA_UNDECL_SLOT_HDR;
}

static size_t
ra_undecl_table_size(const ra_ledger_t *l)
{
    return l->hdr->undecl.slot_size - RA_UNDECL_SLOT_HDR;
}

void
ra_undecl_area_format(const ra_ledger_t *l)
{
    uint32_t  i;

    for (i = 0; i < l->hdr->undecl.slots; i++) {
        memset(ra_undecl_slot(l, i), 0, RA_UNDECL_SLOT_HDR);
    }
}

void
ra_undecl_area_verify(const ra_ledger_t *l)
{
    uint32_t           i;
    ra_undecl_slot_t  *s;

    for (i = 0; i < l->hdr->undecl.slots; i++) {
        s = ra_undecl_slot(l, i);
        if (s->used && !ra_undecl_check(ra_undecl_slot_table(l, i),
                                        ra_undecl_table_size(l),
                                        l->hdr->undecl.clients,
                                        l->hdr->undecl.flagged))
        {
            __atomic_store_n(&s->dirty, 1, __ATOMIC_SEQ_CST);
        }
    }
}

/* Makes slot i's table anew for the site name (dirty is set: a death
 * in here leaves it so, and the next process does it again) */
static void
ra_undecl_take(const ra_ledger_t *l, uint32_t i, ra_str_t name, int64_t now)
{
    ra_undecl_slot_t  *s = ra_undecl_slot(l, i);
    size_t             k, n = name.len < RA_SITE_NAME_MAX
                              ? name.len : RA_SITE_NAME_MAX;

    __atomic_store_n(&s->used, 0, __ATOMIC_SEQ_CST);
    s->gen = s->gen + 1 != 0 ? s->gen + 1 : 1;
    (void) ra_undecl_init(ra_undecl_slot_table(l, i), ra_undecl_table_size(l),
                          l->hdr->undecl.clients, l->hdr->undecl.flagged);
    for (k = 0; k < n; k++) {
        s->name[k] = (char) ra_lower(name.data[k]);
    }
    s->name_len = (uint32_t) n;
    s->last_seen = now;
    __atomic_store_n(&s->used, 1, __ATOMIC_RELEASE);
}

static int
ra_undecl_slot_is(const ra_undecl_slot_t *s, ra_str_t name)
{
    size_t  n = name.len < RA_SITE_NAME_MAX ? name.len : RA_SITE_NAME_MAX;

    return s->used && s->name_len == n
           && ra_strcaseeq(ra_str(s->name, n), ra_str(name.data, n));
}

/* The slot of the site's table, probed from its hash; else a free one,
 * else the one seen longest ago (n slots, n > 0) */
static uint32_t
ra_undecl_slot_pick(const ra_ledger_t *l, ra_str_t site, uint32_t n)
{
    uint32_t           i, h, pick = 0;
    ra_undecl_slot_t  *s, *p = NULL;

    h = ra_hash32(2166136261u, site.data,
                  site.len < RA_SITE_NAME_MAX ? site.len : RA_SITE_NAME_MAX,
                  1) % n;
    for (i = 0; i < n; i++) {
        s = ra_undecl_slot(l, (h + i) % n);
        if (ra_undecl_slot_is(s, site)) {
            return (h + i) % n;
        }
        if (!s->used) {
            if (p == NULL || p->used) {
                p = s;
                pick = (h + i) % n;
            }
        } else if (p == NULL || (p->used && s->last_seen < p->last_seen)) {
            p = s;
            pick = (h + i) % n;
        }
    }
    return pick;
}

/* Marks slot pick's table as changing, and makes it anew for the site
 * when it held another one, or was left half-written */
static struct ra_undecl_s *
ra_undecl_enter(ra_ledger_t *l, uint32_t pick, ra_str_t site, int64_t now,
    int same)
{
    uint32_t           was;
    ra_undecl_slot_t  *p = ra_undecl_slot(l, pick);

    was = __atomic_load_n(&p->dirty, __ATOMIC_ACQUIRE);
    __atomic_store_n(&p->dirty, 1, __ATOMIC_SEQ_CST);
    RA_STEP();
    if (!same && !ra_undecl_slot_is(p, site)) {
        ra_undecl_take(l, pick, site, now);
    } else if (was) {
        ra_atomic_add(&l->hdr->undecl.resets, 1);
        ra_logf(l->host, NULL, RA_LOG_ERR, RA_TAG_UNDECL_RESET,
                "the undeclared-crawler table of site \"%.*s\" was left "
                "half-written (a process died changing it, or a reload "
                "found it so): made anew, its clients forgotten",
                (int) p->name_len, p->name);
        ra_undecl_take(l, pick, site, now);
    }
    if (now > p->last_seen) {
        p->last_seen = now;
    }
    return ra_undecl_slot_table(l, pick);
}

struct ra_undecl_s *
ra_ledger_undecl_locked(ra_ledger_t *l, ra_str_t site, int64_t now,
    uint32_t *slot)
{
    uint32_t  gen = 0;

    return ra_ledger_undecl_hinted_locked(l, site, now, slot, &gen);
}

struct ra_undecl_s *
ra_ledger_undecl_hinted_locked(ra_ledger_t *l, ra_str_t site, int64_t now,
    uint32_t *slot, uint32_t *gen)
{
    int                 same = 0;
    uint32_t            n = l->hdr->undecl.slots, pick = *slot;
    struct ra_undecl_s *t;
    ra_undecl_slot_t   *s;

    if (n == 0 || site.len == 0) {
        return NULL;
    }
    /* a slot not taken since the hint was had still holds its site */
    if (*gen != 0 && pick < n) {
        s = ra_undecl_slot(l, pick);
        same = s->used && s->gen == *gen;
    }
    if (!same) {
        pick = ra_undecl_slot_pick(l, site, n);
    }
    t = ra_undecl_enter(l, pick, site, now, same);
    s = ra_undecl_slot(l, pick);
    if (s->gen == 0) {
        s->gen = 1;                     /* taken before it was counted */
    }
    *slot = pick;
    *gen = s->gen;
    return t;
}

void
ra_ledger_undecl_done_locked(ra_ledger_t *l, uint32_t slot)
{
    RA_STEP();
    __atomic_store_n(&ra_undecl_slot(l, slot)->dirty, 0, __ATOMIC_RELEASE);
}

uint32_t
ra_ledger_undecl_slots(const ra_ledger_t *l)
{
    return l->hdr->undecl.slots;
}

uint64_t
ra_ledger_undecl_resets(const ra_ledger_t *l)
{
    return ra_atomic_read(&l->hdr->undecl.resets);
}

void
ra_ledger_undecl_free(const ra_alloc_t *a, struct ra_undecl_sites_s *out)
{
    size_t  i;

    for (i = 0; out->sites != NULL && i < out->n; i++) {
        ra_free(a, (void *) out->sites[i].name.data);
        ra_free(a, out->sites[i].table);
    }
    ra_free(a, (void *) out->sites);
    out->sites = NULL;
    out->n = 0;
}

int
ra_ledger_undecl_copy_locked(ra_ledger_t *l, const ra_alloc_t *a,
    struct ra_undecl_sites_s *out)
{
    int                rc = RA_OK;
    uint32_t           i, n = l->hdr->undecl.slots;
    size_t             size = n != 0 ? ra_undecl_table_size(l) : 0;
    char              *name;
    void              *t;
    ra_undecl_site_t  *sites;
    ra_undecl_slot_t  *s;

    out->sites = NULL;
    out->n = 0;
    if (n == 0) {
        return RA_OK;
    }
    sites = ra_alloc(a, n * sizeof(*sites));
    if (sites == NULL) {
        return RA_ENOMEM;
    }
    out->sites = sites;
    for (i = 0; i < n; i++) {
        s = ra_undecl_slot(l, i);
        /* a table being made anew (its maker died) is shown next time;
         * one without a flagged client shows nothing */
        if (!s->used || __atomic_load_n(&s->dirty, __ATOMIC_ACQUIRE)
            || ra_undecl_records(ra_undecl_slot_table(l, i)) == 0)
        {
            continue;
        }
        name = ra_alloc(a, s->name_len + 1);
        t = ra_alloc(a, size);
        if (name == NULL || t == NULL) {
            ra_free(a, name);
            ra_free(a, t);
            rc = RA_ENOMEM;
            break;
        }
        memcpy(name, s->name, s->name_len);
        name[s->name_len] = '\0';
        memcpy(t, ra_undecl_slot_table(l, i), size);
        sites[out->n].name = ra_str(name, s->name_len);
        sites[out->n].table = t;
        out->n++;
    }
    if (rc != RA_OK) {
        ra_ledger_undecl_free(a, out);
    }
    return rc;
}
