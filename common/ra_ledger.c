/*
 * The audit ledger in one region: header, site table, stat table, their
 * hash heads, the violation ring and a blob heap for robots.txt bodies.
 * Every link is an index + 1 or a byte offset from the region's start.
 */
#include <stdlib.h>
#include <string.h>

#include "ra_ledger.h"

#define RA_ALIGN_UP(n, a)  (((n) + (a) - 1) & ~((size_t) (a) - 1))

/* blob heap block: a header before the body, 16-byte granules */
typedef struct {
    uint32_t  size;         /* bytes, header included */
    uint32_t  next;         /* next free block's offset (free blocks) */
} ra_blob_t;

#define RA_BLOB_GRAIN  16
#define RA_BLOB_HDR    RA_ALIGN_UP(sizeof(ra_blob_t), RA_BLOB_GRAIN)

static const char  *ra_counter_names[RA_CNT_MAX] = {
    "requests", "robots_fetches", "compliant", "violation", "stale",
    "unreachable", "exempt", "crawl_delay", "no_robots_fetch"
};

const char *
ra_counter_name(ra_counter_e c)
{
    return (unsigned) c < RA_CNT_MAX ? ra_counter_names[c] : "unknown";
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
     * Google treats both as "no robots.txt" (REFERENCE.md A.4, A.5) */
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

    n = (uint32_t) (size * 15 / 100 / (sizeof(ra_site_t) + 2 * 4));
    h->plan.sites = n < 2 ? 2 : n;
    n = (uint32_t) (size * 30 / 100 / (sizeof(ra_stat_t) + 2 * 4));
    h->plan.stats = n < 8 ? 8 : n;
    n = (uint32_t) (size * 10 / 100 / sizeof(ra_violation_t));
    h->plan.violations = n < 8 ? 8 : n > 4096 ? 4096 : n;
    h->site_hash_size = ra_pow2(h->plan.sites);
    h->stat_hash_size = ra_pow2(h->plan.stats);

    off = h->header_size;
    h->off_sites = (uint32_t) off;
    off = RA_ALIGN_UP(off + (size_t) h->plan.sites * sizeof(ra_site_t), 64);
    h->off_site_hash = (uint32_t) off;
    off = RA_ALIGN_UP(off + (size_t) h->site_hash_size * 4, 64);
    h->off_stats = (uint32_t) off;
    off = RA_ALIGN_UP(off + (size_t) h->plan.stats * sizeof(ra_stat_t), 64);
    h->off_stat_hash = (uint32_t) off;
    off = RA_ALIGN_UP(off + (size_t) h->stat_hash_size * 4, 64);
    h->off_violations = (uint32_t) off;
    off = RA_ALIGN_UP(off + (size_t) h->plan.violations
                            * sizeof(ra_violation_t), 64);
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

#define RA_SITES(l)       ((ra_site_t *) ((l)->base + (l)->hdr->off_sites))
#define RA_SITE_HASH(l)   ((uint32_t *) ((l)->base + (l)->hdr->off_site_hash))
#define RA_STATS(l)       ((ra_stat_t *) ((l)->base + (l)->hdr->off_stats))
#define RA_STAT_HASH(l)   ((uint32_t *) ((l)->base + (l)->hdr->off_stat_hash))
#define RA_VIOS(l)        ((ra_violation_t *) ((l)->base                     \
                                               + (l)->hdr->off_violations))

ra_site_t *
ra_ledger_site_at(const ra_ledger_t *l, uint32_t site)
{
    return site && site <= l->hdr->plan.sites ? &RA_SITES(l)[site - 1] : NULL;
}

ra_stat_t *
ra_ledger_stat_at(const ra_ledger_t *l, uint32_t stat)
{
    return stat && stat <= l->hdr->plan.stats ? &RA_STATS(l)[stat - 1] : NULL;
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
    l->hdr->blob_free_bytes += b->size;

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
        l->hdr->blob_free_bytes -= b->size;
        b->next = 0;
        return cur + (uint32_t) RA_BLOB_HDR;
    }
    return 0;
}

static void
ra_version_drop(ra_ledger_t *l, ra_version_t *v)
{
    ra_blob_free(l, v->blob);
    memset(v, 0, sizeof(*v));
}

/* Frees the body of the oldest version that is not a site's current
 * one; returns 0 when there is none left to free. */
static int
ra_blob_evict_one(ra_ledger_t *l)
{
    uint32_t       i, k;
    ra_site_t     *s;
    ra_version_t  *v, *oldest = NULL;

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
    ra_ledger_add(&l->hdr->blob_evictions, 1);
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
ra_site_hash_of(const ra_site_t *s)
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
    ra_stat_t        *st = &RA_STATS(l)[id - 1];

    ra_hash_unlink(RA_STAT_HASH(l), h->stat_hash_size - 1,
                   ra_stat_hash_of(st->site, st->verification, st->name,
                                   st->name_len),
                   id, ra_stat_next, l);
    RA_LRU_UNLINK(RA_STATS(l), st, h->stat_head, h->stat_tail);
    memset(st, 0, sizeof(*st));
    h->stat_count--;
}

static void
ra_site_evict(ra_ledger_t *l, uint32_t id)
{
    uint32_t          i;
    ra_ledger_hdr_t  *h = l->hdr;
    ra_site_t        *s = &RA_SITES(l)[id - 1];

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
    h->site_count--;
}

uint32_t
ra_ledger_site_locked(ra_ledger_t *l, ra_str_t name, int64_t now)
{
    size_t            i, n;
    uint32_t          hv, id;
    ra_site_t        *s, *sites = RA_SITES(l);
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
        ra_ledger_add(&h->site_evictions, 1);
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
    h->site_count++;
    return id;
}

uint32_t
ra_ledger_stat_locked(ra_ledger_t *l, uint32_t site, ra_str_t name,
    unsigned verification, int64_t now, int *created)
{
    size_t            n;
    uint32_t          hv, id;
    ra_stat_t        *st, *stats = RA_STATS(l);
    ra_ledger_hdr_t  *h = l->hdr;

    n = name.len < RA_NAME_MAX ? name.len : RA_NAME_MAX;
    hv = ra_stat_hash_of(site, verification, (const char *) name.data, n);
    *created = 0;

    for (id = RA_STAT_HASH(l)[hv & (h->stat_hash_size - 1)]; id;
         id = st->hnext)
    {
        st = &stats[id - 1];
        if (st->site == site && st->verification == verification
            && st->name_len == n && memcmp(st->name, name.data, n) == 0)
        {
            RA_LRU_UNLINK(stats, st, h->stat_head, h->stat_tail);
            RA_LRU_PUSH(stats, st, id, h->stat_head, h->stat_tail);
            return id;
        }
    }

    if (h->stat_count == h->plan.stats) {
        ra_stat_evict(l, h->stat_tail);
        ra_ledger_add(&h->stat_evictions, 1);
    }
    for (id = 1; stats[id - 1].used; id++) { /* a free slot exists */ }

    st = &stats[id - 1];
    memset(st, 0, sizeof(*st));
    st->used = 1;
    st->site = site;
    st->verification = (uint8_t) verification;
    st->name_len = (uint8_t) n;
    memcpy(st->name, name.data, n);
    st->first_seen = st->last_seen = now;
    st->hnext = RA_STAT_HASH(l)[hv & (h->stat_hash_size - 1)];
    RA_STAT_HASH(l)[hv & (h->stat_hash_size - 1)] = id;
    RA_LRU_PUSH(stats, st, id, h->stat_head, h->stat_tail);
    h->stat_count++;
    *created = 1;
    return id;
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
    int            k, slot, oldest;
    uint8_t        answer;
    uint64_t       hash;
    ra_site_t     *s = ra_ledger_site_at(l, site);
    ra_version_t  *v, *cur;

    if (s == NULL || !s->used) {
        return -1;
    }
    s->robots_date = now;
    s->robots_status = in->status;
    answer = (uint8_t) ra_answer_of_status(in->status);

    if (answer == RA_ANSWER_UNREACHABLE) {
        s->failures++;
        s->unreachable_since = now;
        return -1;
    }
    s->failures = 0;

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
        __atomic_fetch_add(&l->hdr->generation, 1, __ATOMIC_RELEASE);
    }

    v = &s->versions[slot];
    if (cur != NULL && cur != v) {
        cur->until = now;
        __atomic_fetch_add(&l->hdr->generation, 1, __ATOMIC_RELEASE);
    }
    v->until = 0;
    v->last_seen = now;
    v->status = in->status;
    v->answer = answer;
    v->size = in->size;
    v->truncated = in->truncated;
    v->ctype_len = in->ctype_len > RA_CTYPE_MAX ? RA_CTYPE_MAX : in->ctype_len;
    memcpy(v->ctype, in->ctype, v->ctype_len);
    v->lint_errors = in->lint_errors;
    v->lint_warnings = in->lint_warnings;
    v->lint_infos = in->lint_infos;
    v->groups = in->groups;
    v->rules = in->rules;
    v->sitemaps = in->sitemaps;
    s->current = (uint8_t) slot;
    return slot;
}

ra_str_t
ra_ledger_body_locked(const ra_ledger_t *l, const ra_version_t *v)
{
    if (v->blob == 0) {
        return ra_str("", 0);
    }
    return ra_str(l->base + v->blob, v->body_len);
}

void
ra_ledger_violation_locked(ra_ledger_t *l, const ra_violation_t *v)
{
    ra_ledger_hdr_t  *h = l->hdr;

    RA_VIOS(l)[h->vio_next] = *v;
    h->vio_next = (h->vio_next + 1) % h->plan.violations;
    ra_ledger_add(&h->violations_total, 1);
}


/* ---- snapshots ------------------------------------------------------ */

static int
ra_stat_cmp(const void *a, const void *b)
{
    const ra_stat_t  *x = a, *y = b;
    uint64_t          rx, ry;

    if (x->site != y->site) {
        return x->hnext < y->hnext ? -1 : 1;    /* hnext holds the rank */
    }
    rx = x->counters[RA_CNT_REQUESTS];
    ry = y->counters[RA_CNT_REQUESTS];
    if (rx != ry) {
        return rx > ry ? -1 : 1;
    }
    return memcmp(x->name, y->name, RA_NAME_MAX);
}

int
ra_ledger_snapshot(ra_ledger_t *l, const ra_alloc_t *a, int with_bodies,
    ra_snapshot_t *snap)
{
    int               rc = RA_ENOMEM;
    uint32_t          i, k, id, n, *rank;
    ra_site_t        *s;
    ra_version_t     *v;
    ra_violation_t   *vio;
    ra_ledger_hdr_t  *h = l->hdr;

    memset(snap, 0, sizeof(*snap));
    rank = NULL;

    ra_ledger_lock(l);
    snap->hdr = *h;
    snap->sites = ra_alloc(a, (h->site_count + 1) * sizeof(ra_site_t));
    snap->site_ids = ra_alloc(a, (h->site_count + 1) * sizeof(uint32_t));
    snap->bodies = ra_alloc(a, (h->site_count + 1) * sizeof(ra_str_t));
    snap->stats = ra_alloc(a, (h->stat_count + 1) * sizeof(ra_stat_t));
    snap->violations = ra_alloc(a, (size_t) h->plan.violations
                                   * sizeof(ra_violation_t));
    rank = ra_alloc(a, ((size_t) h->plan.sites + 1) * sizeof(uint32_t));
    if (!snap->sites || !snap->site_ids || !snap->bodies || !snap->stats
        || !snap->violations || !rank)
    {
        goto unlock;
    }
    memset(rank, 0, ((size_t) h->plan.sites + 1) * sizeof(uint32_t));

    /* sites, most recently seen first */
    for (id = h->site_head; id; id = s->lnext) {
        s = &RA_SITES(l)[id - 1];
        n = snap->nsites++;
        snap->sites[n] = *s;
        snap->site_ids[n] = id;
        rank[id] = n + 1;
        snap->bodies[n] = ra_str("", 0);
        v = &s->versions[s->current];
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

    for (i = 0; i < h->plan.stats; i++) {
        if (RA_STATS(l)[i].used && snap->nstats < h->stat_count) {
            snap->stats[snap->nstats++] = RA_STATS(l)[i];
        }
    }

    /* the ring, newest first; entries of evicted sites are dropped */
    for (k = 0; k < h->plan.violations; k++) {
        i = (h->vio_next + h->plan.violations - 1 - k) % h->plan.violations;
        vio = &RA_VIOS(l)[i];
        if (vio->site == 0 || vio->site > h->plan.sites) {
            continue;
        }
        s = &RA_SITES(l)[vio->site - 1];
        if (!s->used || s->epoch != vio->site_epoch) {
            continue;
        }
        snap->violations[snap->nviolations++] = *vio;
    }
    rc = RA_OK;

unlock:
    ra_ledger_unlock(l);

    if (rc == RA_OK) {
        /* group stats by site (in snapshot order), busiest first; the
         * copies' hash links are free to hold the site's rank */
        for (i = 0; i < snap->nstats; i++) {
            snap->stats[i].hnext = snap->stats[i].site <= h->plan.sites
                                   ? rank[snap->stats[i].site] : 0;
        }
        qsort(snap->stats, snap->nstats, sizeof(ra_stat_t), ra_stat_cmp);
    } else {
        ra_snapshot_free(snap, a);
    }
    ra_free(a, rank);
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
    ra_free(a, snap->site_ids);
    ra_free(a, snap->bodies);
    ra_free(a, snap->stats);
    ra_free(a, snap->violations);
    memset(snap, 0, sizeof(*snap));
}
