/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The ledger's blob heap, where the robots.txt bodies of the sites' versions
 * live: first fit over an address-ordered free list, coalescing.  The
 * blocks tile the heap at every instant (a split writes the tail's header
 * before it shrinks the block), so a rebuild can walk them; a used block
 * names its owner (site, version), so a rebuild can tell the bodies
 * versions still hold from the ones a dead process left.
 */
#include <string.h>

#include "ra_ledger_impl.h"

static ra_blob_t *
ra_blob_at(const ra_ledger_t *l, uint32_t off)
{
    return (ra_blob_t *) (l->base + off);
}

static uint32_t
ra_blob_end(const ra_ledger_t *l)
{
    return l->hdr->off_blobs + l->hdr->plan.blob_bytes;
}

/* Is off a plausible block offset (in the heap, on a granule)? */
static int
ra_blob_ok(const ra_ledger_t *l, uint32_t off)
{
    return off >= l->hdr->off_blobs && off < ra_blob_end(l)
           && (off - l->hdr->off_blobs) % RA_BLOB_GRAIN == 0
           && ra_blob_end(l) - off >= RA_BLOB_HDR;
}

/* The heap's most free blocks: a bound for every walk of its list. */
static uint32_t
ra_blob_max(const ra_ledger_t *l)
{
    return l->hdr->plan.blob_bytes / (RA_BLOB_HDR + RA_BLOB_GRAIN) + 1;
}

/* A new heap: all of it one free block. */
void
ra_blob_format(const ra_ledger_t *l)
{
    ra_ledger_hdr_t  *h = l->hdr;
    ra_blob_t        *b = ra_blob_at(l, h->off_blobs);

    b->size = h->plan.blob_bytes;
    b->next = 0;
    h->blob_free = h->off_blobs;
    h->blob_free_bytes = h->plan.blob_bytes;
}

static void
ra_blob_free(ra_ledger_t *l, uint32_t body)
{
    uint32_t    off, prev, cur, n;
    ra_blob_t  *b, *p, *c;

    if (body == 0) {
        return;
    }
    off = body - (uint32_t) RA_BLOB_HDR;
    if (body < RA_BLOB_HDR || !ra_blob_ok(l, off)) {
        ra_broken(l);
        return;
    }
    b = ra_blob_at(l, off);
    b->owner = 0;
    RA_STEP();
    ra_atomic_set(&l->hdr->blob_free_bytes, l->hdr->blob_free_bytes + b->size);

    prev = 0;
    n = ra_blob_max(l);
    for (cur = l->hdr->blob_free; cur && cur < off && n; cur = c->next, n--) {
        if (!ra_blob_ok(l, cur)) {
            ra_broken(l);
            return;
        }
        c = ra_blob_at(l, cur);
        prev = cur;
    }
    b->next = cur;
    RA_STEP();
    if (cur && ra_blob_ok(l, cur) && off + b->size == cur) {
        c = ra_blob_at(l, cur);
        b->size += c->size;
        RA_STEP();
        b->next = c->next;
    }
    RA_STEP();
    if (prev) {
        p = ra_blob_at(l, prev);
        p->next = off;
        RA_STEP();
        if (prev + p->size == off) {
            p->size += b->size;
            RA_STEP();
            p->next = b->next;
        }
    } else {
        l->hdr->blob_free = off;
    }
}

/* Returns the body's offset, or 0 when no free block is large enough. */
uint32_t
ra_blob_alloc(ra_ledger_t *l, size_t len, uint32_t owner)
{
    uint32_t    need, prev, cur, rest, n;
    ra_blob_t  *b, *p, *r;

    need = (uint32_t) RA_ALIGN_UP(RA_BLOB_HDR + len, RA_BLOB_GRAIN);
    prev = 0;
    n = ra_blob_max(l);
    for (cur = l->hdr->blob_free; cur && n; prev = cur, cur = b->next, n--) {
        if (!ra_blob_ok(l, cur)) {
            ra_broken(l);
            return 0;
        }
        b = ra_blob_at(l, cur);
        if (b->size < need || b->size > ra_blob_end(l) - cur) {
            continue;
        }
        if (b->size - need >= RA_BLOB_HDR + RA_BLOB_GRAIN) {
            /* split: the tail stays free; its header first */
            rest = cur + need;
            r = ra_blob_at(l, rest);
            r->size = b->size - need;
            r->next = b->next;
            r->owner = 0;
            r->mark = 0;
            RA_STEP();
            b->size = need;
        } else {
            rest = b->next;
        }
        RA_STEP();
        if (prev) {
            p = ra_blob_at(l, prev);
            p->next = rest;
        } else {
            l->hdr->blob_free = rest;
        }
        RA_STEP();
        ra_atomic_set(&l->hdr->blob_free_bytes,
                      l->hdr->blob_free_bytes - b->size);
        b->next = 0;
        b->owner = owner;
        return cur + (uint32_t) RA_BLOB_HDR;
    }
    return 0;
}

void
ra_version_drop(ra_ledger_t *l, ra_version_slot_t *v)
{
    ra_blob_free(l, v->blob);
    RA_STEP();
    memset(v, 0, sizeof(*v));
}

/* Frees the body of the oldest version that is not a site's current
 * one; returns 0 when there is none left to free. */
int
ra_blob_evict_one(ra_ledger_t *l)
{
    int                 began;
    uint32_t            i, k;
    ra_site_slot_t     *s, *os = NULL;
    ra_version_slot_t  *v, *oldest = NULL;

    for (i = 0; i < l->hdr->plan.sites; i++) {
        s = &RA_SITES(l)[i];
        if (!s->used) {
            continue;
        }
        for (k = 0; k < RA_VERSIONS; k++) {
            v = &s->versions[k];
            if (v->hash && v->blob && k != s->current
                && (oldest == NULL || v->until < oldest->until))
            {
                oldest = v;
                os = s;
            }
        }
    }
    if (oldest == NULL) {
        return 0;
    }
    began = ra_vseq_begin(os);
    ra_blob_free(l, oldest->blob);
    RA_STEP();
    oldest->blob = 0;
    oldest->body_lost = 1;
    ra_vseq_end(os, began);
    ra_atomic_add(&l->hdr->blob_evictions, 1);
    return 1;
}

/* The blob heap from the versions that hold bodies: every block no
 * sound version owns becomes free, neighbours coalesced. */
void
ra_blob_rebuild(const ra_ledger_t *l, uint32_t stamp)
{
    uint32_t            off, end = ra_blob_end(l), prev = 0, id, k, hoff;
    uint32_t            free_bytes = 0;
    ra_blob_t          *b, *p;
    ra_site_slot_t     *s;
    ra_version_slot_t  *v;
    ra_ledger_hdr_t    *h = l->hdr;

    /* the tiling: where it stops holding, the rest is one block */
    for (off = h->off_blobs; off < end; off += b->size) {
        b = ra_blob_at(l, off);
        if (end - off < RA_BLOB_HDR || b->size < RA_BLOB_HDR
            || b->size % RA_BLOB_GRAIN || b->size > end - off)
        {
            b->size = end - off;
            b->owner = 0;
        }
        b->mark = stamp;
    }

    /* the bodies versions hold: a block they own, whole */
    for (id = 1; id <= h->plan.sites; id++) {
        s = &RA_SITES(l)[id - 1];
        s->vseq += s->vseq & 1;         /* no change is under way */
        for (k = 0; s->used && k < RA_VERSIONS; k++) {
            v = &s->versions[k];
            if (v->blob == 0) {
                continue;
            }
            hoff = v->blob - (uint32_t) RA_BLOB_HDR;
            b = ra_blob_at(l, hoff);
            if (v->hash && v->blob >= RA_BLOB_HDR && ra_blob_ok(l, hoff)
                && b->mark == stamp && b->owner == ra_blob_owner(id, k)
                && b->size >= RA_BLOB_HDR + (size_t) v->body_len)
            {
                b->mark = ~stamp;
            } else {
                s->vseq += 2;           /* a reader reads again */
                v->blob = 0;
                v->body_lost = v->hash != 0;
            }
        }
    }

    /* the free list, in address order */
    h->blob_free = 0;
    for (off = h->off_blobs; off < end; off += b->size) {
        b = ra_blob_at(l, off);
        if (b->mark == ~stamp) {
            b->mark = 0;
            continue;
        }
        b->mark = 0;
        b->owner = 0;
        b->next = 0;
        free_bytes += b->size;
        p = prev ? ra_blob_at(l, prev) : NULL;
        if (p != NULL && prev + p->size == off) {
            p->size += b->size;
            b = p;                      /* the walk goes on from p's end */
            off = prev;
            continue;
        }
        if (p != NULL) {
            p->next = off;
        } else {
            h->blob_free = off;
        }
        prev = off;
    }
    ra_atomic_set(&h->blob_free_bytes, free_bytes);
}


/* The heap's part of ra_ledger_verify(): the blocks tile it, its free
 * list is in address order and adds up, and every version's body is the
 * block it owns.  NULL, or a static sentence saying what does not hold. */
const char *
ra_blob_verify(const ra_ledger_t *l)
{
    uint32_t          id, n, k, off, end, bytes, fb;
    ra_ledger_hdr_t  *h = l->hdr;
    ra_site_slot_t   *s, *sites = RA_SITES(l);
    ra_blob_t        *b;

    /* the heap tiles, its free list is in order and adds up */
    end = ra_blob_end(l);
    fb = 0;
    for (off = h->off_blobs; off < end; off += b->size) {
        b = ra_blob_at(l, off);
        if (end - off < RA_BLOB_HDR || b->size < RA_BLOB_HDR
            || b->size % RA_BLOB_GRAIN || b->size > end - off)
        {
            return "the body heap's blocks do not tile it";
        }
        if (b->owner == 0) {
            fb += b->size;
        }
    }
    bytes = 0;
    n = 0;
    for (off = h->blob_free; off; off = b->next) {
        if (!ra_blob_ok(l, off) || n++ > ra_blob_max(l)) {
            return "the body heap's free list does not hold";
        }
        b = ra_blob_at(l, off);
        if (b->owner != 0 || (b->next && b->next <= off)) {
            return "the body heap's free list is out of order";
        }
        bytes += b->size;
    }
    if (bytes != h->blob_free_bytes || bytes != fb) {
        return "the body heap's free bytes do not add up";
    }
    for (id = 1; id <= h->plan.sites; id++) {
        s = &sites[id - 1];
        for (k = 0; s->used && k < RA_VERSIONS; k++) {
            if (s->versions[k].blob == 0) {
                continue;
            }
            off = s->versions[k].blob - (uint32_t) RA_BLOB_HDR;
            if (!ra_blob_ok(l, off)
                || ra_blob_at(l, off)->owner != ra_blob_owner(id, k))
            {
                return "a version's body is not the block it owns";
            }
        }
    }
    return NULL;
}
