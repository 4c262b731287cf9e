/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The audit ledger in one region: header, site table, stat table, their
 * hash heads, the violation ring and a blob heap for robots.txt bodies.
 * Every link is an index + 1 or a byte offset from the region's start.
 *
 * The structs below are the region's layout, private to this file:
 * changing one changes the layout, and RA_LEDGER_LAYOUT must change with
 * it.  The public types of ra_ledger.h are copies made from them.
 */
#include <stdlib.h>
#include <string.h>

#include "ra_crawlers.h"
#include "ra_ledger.h"

#define RA_ALIGN_UP(n, a)  (((n) + (a) - 1) & ~((size_t) (a) - 1))

/* counters and totals: updated without the lock by any process */
#define ra_atomic_add(p, n)    __atomic_fetch_add(p, n, __ATOMIC_RELAXED)
#define ra_atomic_read(p)      __atomic_load_n(p, __ATOMIC_RELAXED)
/* numbers changed under the lock but read without it (ra_ledger_totals) */
#define ra_atomic_set(p, v)    __atomic_store_n(p, v, __ATOMIC_RELAXED)

typedef struct {
    uint64_t  hash;             /* 0: empty slot */
    int64_t   first_seen;
    int64_t   last_seen;
    int64_t   until;
    uint32_t  blob;             /* offset of the body; 0 none */
    uint32_t  body_len;
    uint32_t  size;
    uint32_t  decoded;
    uint16_t  status;
    uint8_t   answer;
    uint8_t   truncated;
    uint8_t   body_lost;
    uint8_t   ctype_len;
    uint8_t   coding_len;
    char      ctype[RA_CTYPE_MAX];
    char      coding[RA_CODING_MAX];
    uint16_t  lint_errors;
    uint16_t  lint_warnings;
    uint16_t  lint_infos;
    uint16_t  groups;
    uint32_t  rules;
    uint32_t  sitemaps;
    unsigned char  sha256[32];
} ra_version_slot_t;

typedef struct {
    uint64_t           counters[RA_CNT_MAX];      /* atomics */
    uint64_t           browser_requests;          /* atomic */
    uint64_t           no_user_agent;             /* atomic */
    int64_t            created;
    int64_t            last_seen;
    int64_t            robots_date;
    int64_t            unreachable_since;
    int64_t            undecodable;
    uint32_t           failures;
    uint16_t           robots_status;
    uint32_t           last_size;
    uint8_t            last_ctype_len;
    char               last_ctype[RA_CTYPE_MAX];
    uint8_t            bad_coding_len;
    char               bad_coding[RA_CODING_MAX];
    uint8_t            name_len;
    uint8_t            nversions;
    uint8_t            current;
    uint8_t            used;
    uint32_t           epoch;           /* tells reuses of a slot apart */
    char               name[RA_SITE_NAME_MAX];
    ra_version_slot_t  versions[RA_VERSIONS];
    uint32_t           hnext, lprev, lnext;       /* ids; 0 = none */
    /* alert budget (ra_alert.h) */
    uint32_t           alert_mark;
    ra_bucket_t        alert_bucket;
    ra_gate_t          gates[RA_GENERIC_GATES];
} ra_site_slot_t;

typedef struct {
    uint64_t  counters[RA_CNT_MAX];               /* atomics */
    int64_t   first_seen;
    int64_t   last_seen;
    int64_t   prev_request;                       /* for Crawl-delay */
    int64_t   last_fetch;
    uint64_t  last_fetch_version;
    int64_t   last_alert;
    uint32_t  alerts_suppressed;
    uint32_t  site;                               /* site id */
    uint16_t  last_fetch_status;
    uint8_t   verification;
    uint8_t   kind;
    uint8_t   category;
    uint8_t   name_len;
    uint8_t   token_len;
    uint8_t   used;
    char      name[RA_NAME_MAX];
    char      token[RA_NAME_MAX];
    uint32_t  hnext, lprev, lnext;
    uint32_t  alert_mark;                         /* budget window */
} ra_stat_slot_t;

typedef struct {
    int64_t   time;
    uint32_t  site;                       /* site id (0: slot empty) */
    uint32_t  site_epoch;                 /* the site's epoch then */
    uint32_t  line;
    uint8_t   verdict;
    uint8_t   verification;
    uint8_t   name_len;
    uint8_t   method_len;
    uint8_t   addr_len;
    uint16_t  uri_len;
    uint16_t  pattern_len;
    uint32_t  uri_full_len;
    char      name[RA_NAME_MAX];
    char      method[RA_METHOD_MAX];
    char      addr[RA_ADDR_TEXT_MAX];
    char      uri[RA_URI_MAX];
    char      pattern[RA_PATTERN_MAX];
} ra_vio_slot_t;

/* The region's header.  Only offsets, sizes and atomics. */
struct ra_ledger_hdr_s {
    uint64_t  magic;
    uint32_t  layout;
    uint32_t  header_size;
    uint64_t  region_size;
    ra_ledger_plan_t  plan;
    uint32_t  off_sites, off_site_hash;
    uint32_t  off_stats, off_stat_hash;
    uint32_t  off_violations;
    uint32_t  off_blobs;
    uint32_t  site_hash_size, stat_hash_size;     /* powers of two */
    int64_t   created;
    uint64_t  site_evictions;   /* atomics */
    uint64_t  stat_evictions;
    uint64_t  blob_evictions;
    uint64_t  violations_total;
    uint64_t  requests;         /* everything counted */
    /* ra_ledger_full_note(), compare-and-swapped by every process */
    int64_t   full_noted;       /* when it last answered 1; 0 never */
    uint64_t  full_seen;        /* site + stat evictions then */
    /* LRU lists (ids) and the violation ring's next slot */
    uint32_t  site_head, site_tail, site_count;
    uint32_t  stat_head, stat_tail, stat_count;
    uint32_t  vio_next;
    uint32_t  next_epoch;
    /* blob heap: first free block (offset), bytes free */
    uint32_t  blob_free;
    uint32_t  blob_free_bytes;
    /* the alert budget of all sites and its summary (ra_alert.h) */
    ra_budget_t  budget;
};

/* blob heap block: a header before the body, 16-byte granules */
typedef struct {
    uint32_t  size;         /* bytes, header included */
    uint32_t  next;         /* next free block's offset (free blocks) */
} ra_blob_t;

#define RA_BLOB_GRAIN  16
#define RA_BLOB_HDR    RA_ALIGN_UP(sizeof(ra_blob_t), RA_BLOB_GRAIN)

static const char  *const ra_counter_names[RA_CNT_MAX] = {
    "requests", "robots_fetches", "compliant", "violation", "stale",
    "unreachable", "exempt", "crawl_delay", "no_robots_fetch", "unknown",
    "refused_violation", "refused_unreachable", "refused_impostor"
};

const char *
ra_counter_name(ra_counter_e c)
{
    return (unsigned) c < RA_CNT_MAX ? ra_counter_names[c] : "invalid";
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
 * stats 30 %, sites 15 %, violations 10 % (at most 4096 kept).
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
    h->plan.violations = n < 8 ? 8 : n > 4096 ? 4096 : n;
    h->site_hash_size = ra_pow2(h->plan.sites);
    h->stat_hash_size = ra_pow2(h->plan.stats);

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

int
ra_ledger_format(void *base, size_t size, int64_t now)
{
    ra_ledger_hdr_t  *h = base;
    ra_blob_t        *b;

    if (ra_ledger_plan(size, &(ra_ledger_plan_t) { 0, 0, 0, 0 }) != RA_OK) {
        return RA_ELIMIT;
    }
    memset(base, 0, size);
    ra_layout(size, h);
    h->magic = RA_LEDGER_MAGIC;
    h->layout = RA_LEDGER_LAYOUT;
    h->created = now;
    h->next_epoch = 1;

    /* the whole blob area is one free block */
    b = (ra_blob_t *) ((unsigned char *) base + h->off_blobs);
    b->size = h->plan.blob_bytes;
    b->next = 0;
    h->blob_free = h->off_blobs;
    h->blob_free_bytes = h->plan.blob_bytes;
    return RA_OK;
}

int
ra_ledger_check(const void *base, size_t size, const char **why)
{
    const ra_ledger_hdr_t  *h = base;
    ra_ledger_hdr_t         want;

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
        || want.off_blobs != h->off_blobs)
    {
        *why = "the zone's layout does not match this build";
        return RA_ERROR;
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
    if (l->lock.lock != NULL) {
        l->lock.lock(l->lock.ctx);
    }
}

void
ra_ledger_unlock(const ra_ledger_t *l)
{
    if (l->lock.unlock != NULL) {
        l->lock.unlock(l->lock.ctx);
    }
}

#define RA_SITES(l)      ((ra_site_slot_t *) ((l)->base + (l)->hdr->off_sites))
#define RA_SITE_HASH(l)  ((uint32_t *) ((l)->base + (l)->hdr->off_site_hash))
#define RA_STATS(l)      ((ra_stat_slot_t *) ((l)->base + (l)->hdr->off_stats))
#define RA_STAT_HASH(l)  ((uint32_t *) ((l)->base + (l)->hdr->off_stat_hash))
#define RA_VIOS(l)       ((ra_vio_slot_t *) ((l)->base                       \
                                             + (l)->hdr->off_violations))

/* The slot of an id; callers pass ids this file handed out. */
static ra_site_slot_t *
ra_site_at(const ra_ledger_t *l, uint32_t site)
{
    return site && site <= l->hdr->plan.sites ? &RA_SITES(l)[site - 1]
                                              : NULL;
}

static ra_stat_slot_t *
ra_stat_at(const ra_ledger_t *l, uint32_t stat)
{
    return stat && stat <= l->hdr->plan.stats ? &RA_STATS(l)[stat - 1]
                                              : NULL;
}


/* ---- lock-free reads -------------------------------------------------- */

void
ra_ledger_totals(const ra_ledger_t *l, ra_totals_t *t)
{
    ra_ledger_hdr_t  *h = l->hdr;

    memset(t, 0, sizeof(*t));
    t->created = h->created;
    t->requests = ra_atomic_read(&h->requests);
    t->violations_total = ra_atomic_read(&h->violations_total);
    t->site_evictions = ra_atomic_read(&h->site_evictions);
    t->stat_evictions = ra_atomic_read(&h->stat_evictions);
    t->blob_evictions = ra_atomic_read(&h->blob_evictions);
    t->sites = ra_atomic_read(&h->site_count);
    t->stats = ra_atomic_read(&h->stat_count);
    t->blob_free_bytes = ra_atomic_read(&h->blob_free_bytes);
    t->plan = h->plan;
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


/* ---- blob heap: first fit, address-ordered free list, coalescing ---- */

static ra_blob_t *
ra_blob_at(const ra_ledger_t *l, uint32_t off)
{
    return (ra_blob_t *) (l->base + off);
}

static void
ra_blob_free(ra_ledger_t *l, uint32_t body)
{
    uint32_t    off, prev, cur;
    ra_blob_t  *b, *p, *c;

    if (body == 0) {
        return;
    }
    off = body - (uint32_t) RA_BLOB_HDR;
    b = ra_blob_at(l, off);
    ra_atomic_set(&l->hdr->blob_free_bytes, l->hdr->blob_free_bytes + b->size);

    prev = 0;
    for (cur = l->hdr->blob_free; cur && cur < off; cur = c->next) {
        c = ra_blob_at(l, cur);
        prev = cur;
    }
    b->next = cur;
    if (cur && off + b->size == cur) {
        c = ra_blob_at(l, cur);
        b->size += c->size;
        b->next = c->next;
    }
    if (prev) {
        p = ra_blob_at(l, prev);
        p->next = off;
        if (prev + p->size == off) {
            p->size += b->size;
            p->next = b->next;
        }
    } else {
        l->hdr->blob_free = off;
    }
}

/* Returns the body's offset, or 0 when no free block is large enough. */
static uint32_t
ra_blob_alloc(ra_ledger_t *l, size_t len)
{
    uint32_t    need, prev, cur, rest;
    ra_blob_t  *b, *p, *r;

    need = (uint32_t) RA_ALIGN_UP(RA_BLOB_HDR + len, RA_BLOB_GRAIN);
    prev = 0;
    for (cur = l->hdr->blob_free; cur; prev = cur, cur = b->next) {
        b = ra_blob_at(l, cur);
        if (b->size < need) {
            continue;
        }
        if (b->size - need >= RA_BLOB_HDR + RA_BLOB_GRAIN) {
            /* split: the tail stays free */
            rest = cur + need;
            r = ra_blob_at(l, rest);
            r->size = b->size - need;
            r->next = b->next;
            b->size = need;
        } else {
            rest = b->next;
        }
        if (prev) {
            p = ra_blob_at(l, prev);
            p->next = rest;
        } else {
            l->hdr->blob_free = rest;
        }
        ra_atomic_set(&l->hdr->blob_free_bytes,
                      l->hdr->blob_free_bytes - b->size);
        b->next = 0;
        return cur + (uint32_t) RA_BLOB_HDR;
    }
    return 0;
}

static void
ra_version_drop(ra_ledger_t *l, ra_version_slot_t *v)
{
    ra_blob_free(l, v->blob);
    memset(v, 0, sizeof(*v));
}

/* Frees the body of the oldest version that is not a site's current
 * one; returns 0 when there is none left to free. */
static int
ra_blob_evict_one(ra_ledger_t *l)
{
    uint32_t            i, k;
    ra_site_slot_t     *s;
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
            }
        }
    }
    if (oldest == NULL) {
        return 0;
    }
    ra_blob_free(l, oldest->blob);
    oldest->blob = 0;
    oldest->body_lost = 1;
    ra_atomic_add(&l->hdr->blob_evictions, 1);
    return 1;
}


/* ---- LRU lists ---------------------------------------------------------- */

#define RA_LRU_UNLINK(tab, x, head, tail)                                     \
    do {                                                                      \
        if ((x)->lprev) (tab)[(x)->lprev - 1].lnext = (x)->lnext;             \
        else (head) = (x)->lnext;                                             \
        if ((x)->lnext) (tab)[(x)->lnext - 1].lprev = (x)->lprev;             \
        else (tail) = (x)->lprev;                                             \
        (x)->lprev = (x)->lnext = 0;                                          \
    } while (0)

#define RA_LRU_PUSH(tab, x, id, head, tail)                                   \
    do {                                                                      \
        (x)->lprev = 0;                                                       \
        (x)->lnext = (head);                                                  \
        if (head) (tab)[(head) - 1].lprev = (id);                             \
        (head) = (id);                                                        \
        if ((tail) == 0) (tail) = (id);                                       \
    } while (0)

static uint32_t
ra_hash32(uint32_t h, const unsigned char *p, size_t n, int fold)
{
    size_t  i;

    for (i = 0; i < n; i++) {
        h = (h ^ (uint32_t) (fold ? ra_lower(p[i]) : p[i])) * 16777619u;
    }
    return h;
}

static void
ra_hash_unlink(uint32_t *heads, uint32_t mask, uint32_t h, uint32_t id,
    uint32_t *(*next_of)(const ra_ledger_t *, uint32_t),
    const ra_ledger_t *l)
{
    uint32_t  *link = &heads[h & mask];

    while (*link && *link != id) {
        link = next_of(l, *link);
    }
    if (*link == id) {
        *link = *next_of(l, id);
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

static uint32_t
ra_site_hash_of(const ra_site_slot_t *s)
{
    return ra_hash32(2166136261u, (const unsigned char *) s->name,
                     s->name_len, 0);
}

static uint32_t
ra_stat_hash_of(uint32_t site, unsigned verification, const char *name,
    size_t len)
{
    uint32_t  h = 2166136261u;

    h = ra_hash32(h, (const unsigned char *) &site, sizeof(site), 0);
    h = (h ^ verification) * 16777619u;
    return ra_hash32(h, (const unsigned char *) name, len, 0);
}

static void
ra_stat_evict(ra_ledger_t *l, uint32_t id)
{
    ra_ledger_hdr_t  *h = l->hdr;
    ra_stat_slot_t   *st = &RA_STATS(l)[id - 1];

    ra_hash_unlink(RA_STAT_HASH(l), h->stat_hash_size - 1,
                   ra_stat_hash_of(st->site, st->verification, st->name,
                                   st->name_len),
                   id, ra_stat_next, l);
    RA_LRU_UNLINK(RA_STATS(l), st, h->stat_head, h->stat_tail);
    memset(st, 0, sizeof(*st));
    ra_atomic_set(&h->stat_count, h->stat_count - 1);
}

static void
ra_site_evict(ra_ledger_t *l, uint32_t id)
{
    uint32_t          i;
    ra_ledger_hdr_t  *h = l->hdr;
    ra_site_slot_t   *s = &RA_SITES(l)[id - 1];

    /* its stats go with it: a reused slot must not inherit them */
    for (i = 0; i < h->plan.stats; i++) {
        if (RA_STATS(l)[i].used && RA_STATS(l)[i].site == id) {
            ra_stat_evict(l, i + 1);
        }
    }
    for (i = 0; i < RA_VERSIONS; i++) {
        ra_version_drop(l, &s->versions[i]);
    }
    ra_hash_unlink(RA_SITE_HASH(l), h->site_hash_size - 1,
                   ra_site_hash_of(s), id, ra_site_next, l);
    RA_LRU_UNLINK(RA_SITES(l), s, h->site_head, h->site_tail);
    memset(s, 0, sizeof(*s));
    ra_atomic_set(&h->site_count, h->site_count - 1);
}

uint32_t
ra_ledger_site_locked(ra_ledger_t *l, ra_str_t name, int64_t now)
{
    size_t            i, n;
    uint32_t          hv, id;
    ra_site_slot_t   *s, *sites = RA_SITES(l);
    ra_ledger_hdr_t  *h = l->hdr;
    char              low[RA_SITE_NAME_MAX];

    n = name.len < RA_SITE_NAME_MAX ? name.len : RA_SITE_NAME_MAX;
    for (i = 0; i < n; i++) {
        low[i] = (char) ra_lower(name.data[i]);
    }
    hv = ra_hash32(2166136261u, (const unsigned char *) low, n, 0);

    for (id = RA_SITE_HASH(l)[hv & (h->site_hash_size - 1)]; id;
         id = s->hnext)
    {
        s = &sites[id - 1];
        if (s->name_len == n && memcmp(s->name, low, n) == 0) {
            RA_LRU_UNLINK(sites, s, h->site_head, h->site_tail);
            RA_LRU_PUSH(sites, s, id, h->site_head, h->site_tail);
            s->last_seen = now;
            return id;
        }
    }

    if (h->site_count == h->plan.sites) {
        ra_site_evict(l, h->site_tail);
        ra_atomic_add(&h->site_evictions, 1);
    }
    for (id = 1; sites[id - 1].used; id++) { /* a free slot exists */ }

    s = &sites[id - 1];
    memset(s, 0, sizeof(*s));
    s->used = 1;
    s->epoch = h->next_epoch++;
    s->name_len = (uint8_t) n;
    memcpy(s->name, low, n);
    s->created = s->last_seen = now;
    s->hnext = RA_SITE_HASH(l)[hv & (h->site_hash_size - 1)];
    RA_SITE_HASH(l)[hv & (h->site_hash_size - 1)] = id;
    RA_LRU_PUSH(sites, s, id, h->site_head, h->site_tail);
    ra_atomic_set(&h->site_count, h->site_count + 1);
    return id;
}

uint32_t
ra_ledger_stat_locked(ra_ledger_t *l, uint32_t site, const ra_stat_key_t *key,
    int64_t now)
{
    size_t            n;
    uint32_t          hv, id;
    ra_stat_slot_t   *st, *stats = RA_STATS(l);
    ra_ledger_hdr_t  *h = l->hdr;

    n = key->name.len < RA_NAME_MAX ? key->name.len : RA_NAME_MAX;
    hv = ra_stat_hash_of(site, key->verification,
                         (const char *) key->name.data, n);

    for (id = RA_STAT_HASH(l)[hv & (h->stat_hash_size - 1)]; id;
         id = st->hnext)
    {
        st = &stats[id - 1];
        if (st->site == site && st->verification == key->verification
            && st->name_len == n && memcmp(st->name, key->name.data, n) == 0)
        {
            RA_LRU_UNLINK(stats, st, h->stat_head, h->stat_tail);
            RA_LRU_PUSH(stats, st, id, h->stat_head, h->stat_tail);
            st->last_seen = now;
            return id;
        }
    }

    if (h->stat_count == h->plan.stats) {
        ra_stat_evict(l, h->stat_tail);
        ra_atomic_add(&h->stat_evictions, 1);
    }
    for (id = 1; stats[id - 1].used; id++) { /* a free slot exists */ }

    st = &stats[id - 1];
    memset(st, 0, sizeof(*st));
    st->used = 1;
    st->site = site;
    st->verification = (uint8_t) key->verification;
    st->kind = (uint8_t) key->kind;
    st->category = (uint8_t) key->category;
    st->name_len = (uint8_t) ra_str_cut(st->name, RA_NAME_MAX, key->name);
    st->token_len = (uint8_t) ra_str_cut(st->token, RA_NAME_MAX,
                                           key->token);
    st->first_seen = st->last_seen = now;
    st->hnext = RA_STAT_HASH(l)[hv & (h->stat_hash_size - 1)];
    RA_STAT_HASH(l)[hv & (h->stat_hash_size - 1)] = id;
    RA_LRU_PUSH(stats, st, id, h->stat_head, h->stat_tail);
    ra_atomic_set(&h->stat_count, h->stat_count + 1);
    return id;
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

void
ra_ledger_count_locked(ra_ledger_t *l, uint32_t site, uint32_t stat,
    ra_counter_e c)
{
    ra_site_slot_t  *s = ra_site_at(l, site);
    ra_stat_slot_t  *st = ra_stat_at(l, stat);

    if ((unsigned) c >= RA_CNT_MAX) {
        return;
    }
    if (st != NULL) {
        ra_atomic_add(&st->counters[c], 1);
    }
    if (s != NULL) {
        ra_atomic_add(&s->counters[c], 1);
    }
    if (c == RA_CNT_REQUESTS) {
        ra_atomic_add(&l->hdr->requests, 1);
    }
}

void
ra_ledger_fetch_locked(ra_ledger_t *l, uint32_t site, uint32_t stat,
    int status, int64_t now)
{
    ra_site_slot_t  *s = ra_site_at(l, site);
    ra_stat_slot_t  *st = ra_stat_at(l, stat);

    if (s == NULL || st == NULL) {
        return;
    }
    st->last_fetch = now;
    st->last_fetch_status = (uint16_t) (status > 0 && status < 1000
                                        ? status : 0);
    st->last_fetch_version =
        ra_answer_of_status(status) != RA_ANSWER_UNREACHABLE && s->nversions
        ? s->versions[s->current].hash : 0;
    ra_ledger_count_locked(l, site, stat, RA_CNT_REQUESTS);
    ra_ledger_count_locked(l, site, stat, RA_CNT_ROBOTS_FETCHES);
}

int
ra_ledger_alert_locked(ra_ledger_t *l, uint32_t stat, int64_t now,
    int64_t interval, uint32_t *suppressed)
{
    ra_stat_slot_t  *st = ra_stat_at(l, stat);

    *suppressed = 0;
    if (st == NULL) {
        return 0;
    }
    if (st->last_alert == 0 || interval <= 0
        || now - st->last_alert >= interval)
    {
        *suppressed = st->alerts_suppressed;
        st->alerts_suppressed = 0;
        st->last_alert = now;
        return 1;
    }
    st->alerts_suppressed++;
    return 0;
}

int
ra_ledger_alert_state_locked(ra_ledger_t *l, uint32_t site, uint32_t stat,
    ra_alert_state_t *out)
{
    ra_site_slot_t  *s = ra_site_at(l, site);
    ra_stat_slot_t  *st = ra_stat_at(l, stat);

    memset(out, 0, sizeof(*out));
    if (s == NULL) {
        return RA_ERROR;
    }
    out->all = &l->hdr->budget;
    out->site = &s->alert_bucket;
    out->site_mark = &s->alert_mark;
    out->stat_mark = st != NULL ? &st->alert_mark : NULL;
    out->gates = s->gates;
    return RA_OK;
}


/* ---- versions ---------------------------------------------------------- */

static void
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

void
ra_ledger_state_locked(ra_ledger_t *l, uint32_t site, uint32_t stat,
    int64_t now, ra_ledger_state_t *out)
{
    unsigned         k;
    ra_site_slot_t  *s = ra_site_at(l, site);
    ra_stat_slot_t  *st = ra_stat_at(l, stat);

    memset(out, 0, sizeof(*out));
    out->current = -1;
    if (s == NULL || st == NULL) {
        return;
    }
    for (k = 0; k < RA_VERSIONS; k++) {
        ra_version_out(&s->versions[k], &out->versions[k]);
    }
    out->current = s->nversions && s->current < RA_VERSIONS
                   && s->versions[s->current].hash ? s->current : -1;
    out->prev_request = st->prev_request;
    out->last_fetch = st->last_fetch;
    out->last_fetch_version = st->last_fetch_version;
    out->last_fetch_status = st->last_fetch_status;
    st->prev_request = now;
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

static uint64_t
ra_hash64(uint64_t h, const unsigned char *p, size_t n)
{
    size_t  i;

    for (i = 0; i < n; i++) {
        h = (h ^ p[i]) * 1099511628211ULL;
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

int
ra_ledger_answer_locked(ra_ledger_t *l, uint32_t site, const ra_version_t *in,
    ra_str_t body, int64_t now)
{
    int                 k, slot, oldest;
    uint8_t             answer;
    uint64_t            hash;
    ra_site_slot_t     *s = ra_site_at(l, site);
    ra_version_slot_t  *v, *cur;

    if (s == NULL || !s->used) {
        return -1;
    }
    s->robots_date = now;
    s->robots_status = in->status;
    s->last_size = in->size;
    s->last_ctype_len = in->ctype_len > RA_CTYPE_MAX ? RA_CTYPE_MAX
                                                     : in->ctype_len;
    memcpy(s->last_ctype, in->ctype, s->last_ctype_len);
    answer = (uint8_t) ra_answer_of_status(in->status);

    if (answer == RA_ANSWER_UNREACHABLE) {
        s->failures++;
        s->unreachable_since = now;
        return -1;
    }
    s->failures = 0;
    s->undecodable = 0;
    s->bad_coding_len = 0;

    hash = ra_ledger_version_hash(in->status, body);

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
        /* a free slot, else the version replaced longest ago */
        oldest = -1;
        for (k = 0; k < RA_VERSIONS; k++) {
            v = &s->versions[k];
            if (v->hash == 0) {
                slot = k;
                break;
            }
            if (v != cur && (oldest < 0 || v->until
                                           < s->versions[oldest].until))
            {
                oldest = k;
            }
        }
        if (slot < 0) {
            slot = oldest;
            ra_version_drop(l, &s->versions[slot]);
        }
        v = &s->versions[slot];
        memset(v, 0, sizeof(*v));
        v->hash = hash;
        v->first_seen = now;
        if (answer == RA_ANSWER_RULES && body.len) {
            while ((v->blob = ra_blob_alloc(l, body.len)) == 0) {
                if (!ra_blob_evict_one(l)) {
                    break;
                }
            }
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
    return slot;
}

int
ra_ledger_undecodable_locked(ra_ledger_t *l, uint32_t site, int status,
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
    s->failures = 0;
    if (!same) {
        s->undecodable = now > 0 ? now : 1;     /* since the first */
    }
    s->bad_coding_len = (uint8_t) n;
    if (n) {
        memcpy(s->bad_coding, coding.data, n);
    }
    return same;
}

void
ra_ledger_violation_locked(ra_ledger_t *l, uint32_t site,
    const ra_violation_t *v)
{
    ra_ledger_hdr_t  *h = l->hdr;
    ra_site_slot_t   *s = ra_site_at(l, site);
    ra_vio_slot_t    *x;

    if (s == NULL) {
        return;
    }
    x = &RA_VIOS(l)[h->vio_next];
    memset(x, 0, sizeof(*x));
    x->time = v->time;
    x->site = site;
    x->site_epoch = s->epoch;
    x->line = v->line;
    x->verdict = v->verdict;
    x->verification = v->verification;
    x->name_len = v->name_len < RA_NAME_MAX ? v->name_len : RA_NAME_MAX;
    memcpy(x->name, v->name, x->name_len);
    x->method_len = v->method_len < RA_METHOD_MAX ? v->method_len
                                                  : RA_METHOD_MAX;
    memcpy(x->method, v->method, x->method_len);
    x->addr_len = v->addr_len < RA_ADDR_TEXT_MAX ? v->addr_len
                                                 : RA_ADDR_TEXT_MAX;
    memcpy(x->addr, v->addr, x->addr_len);
    x->uri_len = v->uri_len < RA_URI_MAX ? v->uri_len : RA_URI_MAX;
    memcpy(x->uri, v->uri, x->uri_len);
    x->uri_full_len = v->uri_full_len;
    x->pattern_len = v->pattern_len < RA_PATTERN_MAX ? v->pattern_len
                                                     : RA_PATTERN_MAX;
    memcpy(x->pattern, v->pattern, x->pattern_len);
    h->vio_next = (h->vio_next + 1) % h->plan.violations;
    ra_atomic_add(&h->violations_total, 1);
}


/* ---- snapshots ------------------------------------------------------ */

static void
ra_site_out(const ra_site_slot_t *s, ra_site_t *out)
{
    unsigned  k;

    memset(out, 0, sizeof(*out));
    for (k = 0; k < RA_CNT_MAX; k++) {
        out->counters[k] = ra_atomic_read(&s->counters[k]);
    }
    out->browser_requests = ra_atomic_read(&s->browser_requests);
    out->no_user_agent = ra_atomic_read(&s->no_user_agent);
    out->created = s->created;
    out->last_seen = s->last_seen;
    out->robots_date = s->robots_date;
    out->unreachable_since = s->unreachable_since;
    out->undecodable = s->undecodable;
    out->bad_coding_len = s->bad_coding_len < RA_CODING_MAX
                          ? s->bad_coding_len : RA_CODING_MAX;
    memcpy(out->bad_coding, s->bad_coding, out->bad_coding_len);
    out->failures = s->failures;
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

/* Sums a generic bot's record into the site's "generic" one. */
static void
ra_stat_fold(const ra_stat_slot_t *st, uint32_t site, ra_stat_t *out)
{
    unsigned  k;

    if (out->name_len == 0) {
        memset(out, 0, sizeof(*out));
        out->site = site;
        out->kind = RA_UA_GENERIC;
        out->verification = st->verification;
        out->category = st->category;
        out->name_len = 7;
        memcpy(out->name, "generic", 7);
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
}

#define RA_VERIFY_KINDS  3      /* ra_verify_e values */

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
    ra_vio_slot_t       *x;
    ra_version_slot_t   *v;
    ra_ledger_hdr_t     *h = l->hdr;

    memset(snap, 0, sizeof(*snap));
    if (view != NULL && view->site.data != NULL) {
        want = ra_str(view->site.data, view->site.len < RA_SITE_NAME_MAX
                                       ? view->site.len : RA_SITE_NAME_MAX);
    }

    ra_ledger_lock(l);
    ra_ledger_totals(l, &snap->totals);
    cap_sites = h->site_count;
    if (view != NULL) {
        if (view->max_sites < cap_sites) {
            cap_sites = view->max_sites;
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
    if (view == NULL) {
        nstats_cap = h->stat_count;
    } else if (view->fold_generic) {
        nstats_cap = (size_t) snap->nsites * RA_VERIFY_KINDS;
        for (i = 0; i < h->plan.stats; i++) {
            st = &RA_STATS(l)[i];
            if (st->used && st->site <= h->plan.sites && rank[st->site]
                && st->kind != RA_UA_GENERIC)
            {
                nstats_cap++;
            }
        }
    } else {
        per = view->max_crawlers + view->max_violators;
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
    if (view != NULL && view->fold_generic) {
        /* slots [0, nsites * 3): the sites' generic records, squeezed
         * out below when unused */
        memset(snap->stats, 0,
               (size_t) snap->nsites * RA_VERIFY_KINDS * sizeof(ra_stat_t));
        snap->nstats = snap->nsites * RA_VERIFY_KINDS;
    }

    for (i = 0; i < h->plan.stats; i++) {
        st = &RA_STATS(l)[i];
        if (!st->used || st->site > h->plan.sites || rank[st->site] == 0) {
            continue;
        }
        r = rank[st->site] - 1;
        snap->sites[r].stats_total++;
        if (view == NULL) {
            if (snap->nstats < nstats_cap) {
                ra_stat_out(st, r + 1, &snap->stats[snap->nstats++]);
            }
        } else if (view->fold_generic) {
            if (st->kind == RA_UA_GENERIC) {
                ra_stat_fold(st, r + 1, &snap->stats[r * RA_VERIFY_KINDS
                                         + st->verification
                                           % RA_VERIFY_KINDS]);
            } else if (snap->nstats < nstats_cap) {
                ra_stat_out(st, r + 1, &snap->stats[snap->nstats++]);
            }
        } else {
            ra_top_offer(&top[(size_t) r * per], &hn[2 * r],
                         view->max_crawlers,
                         ra_atomic_read(&st->counters[RA_CNT_REQUESTS]),
                         st->last_seen, i + 1);
            bad = ra_atomic_read(&st->counters[RA_CNT_VIOLATION])
                  + ra_atomic_read(&st->counters[RA_CNT_UNREACHABLE]);
            if (bad) {
                ra_top_offer(&top[(size_t) r * per + view->max_crawlers],
                             &hn[2 * r + 1], view->max_violators, bad,
                             st->last_seen, i + 1);
            }
        }
    }

    if (view != NULL && view->fold_generic) {
        /* squeeze out the generic slots no record was folded into */
        for (i = 0, j = 0; i < snap->nstats; i++) {
            if (i < snap->nsites * RA_VERIFY_KINDS
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
    } else if (view != NULL) {
        /* the busiest, then the worst that are not among them */
        for (r = 0; r < snap->nsites; r++) {
            ra_top_t  *busy = &top[(size_t) r * per];
            ra_top_t  *worst = busy + view->max_crawlers;

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
    if (view != NULL && (size_t) snap->nsites * view->max_violations
                        < nvio_cap)
    {
        nvio_cap = (size_t) snap->nsites * view->max_violations;
    }
    snap->violations = ra_alloc(a, (nvio_cap + 1) * sizeof(ra_violation_t));
    if (snap->violations == NULL) {
        goto unlock;
    }
    for (k = 0; k < h->plan.violations; k++) {
        i = (h->vio_next + h->plan.violations - 1 - k) % h->plan.violations;
        x = &RA_VIOS(l)[i];
        if (x->site == 0 || x->site > h->plan.sites || rank[x->site] == 0) {
            continue;
        }
        s = &RA_SITES(l)[x->site - 1];
        if (!s->used || s->epoch != x->site_epoch) {
            continue;
        }
        r = rank[x->site] - 1;
        snap->sites[r].violations_total++;
        if ((view == NULL || vn[r] < view->max_violations)
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
    if (view != NULL && !view->fold_generic) {
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
