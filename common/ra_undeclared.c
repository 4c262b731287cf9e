/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The undeclared-crawler detector (ra_undeclared.h): the table of clients
 * with its hash chains and its two eviction lists, the signals a request
 * adds to its client's entry, and the score that flags it.
 *
 * The table is one block: the header, then the hash buckets, then the
 * entries, then the flagged records.  Links are entry indices + 1 (0 is
 * none), so the block means the same at any address.  Entries sit on one
 * of two lists, least recently seen at the tail: unflagged clients and
 * flagged ones.  A new client takes a free entry, else the tail of the
 * unflagged list, and only when every entry is flagged the tail of the
 * flagged list: a flood of new addresses pushes out the old unflagged
 * ones and leaves the evidence against flagged ones for last.
 *
 * The window slides by halves: a client idle for a whole window starts
 * over, and when a busy client's counters span more than the window and
 * hold RA_UNDECL_KEEP_PAGES pages or more, they are halved and the window
 * restarts half a window ago, so that what it did long ago weighs less
 * and less.  A slow crawler, a page every few minutes, keeps its pages
 * until they are enough to judge.  Exact sliding windows would need each
 * request's time; halving keeps an entry fixed-size.
 */
#include "ra_undeclared.h"

#define RA_UNDECL_MAGIC     0x52415544u     /* "RAUD" */
#define RA_UNDECL_LISTS     2               /* unflagged, flagged */
#define RA_UNDECL_MAX       (1u << 24)
#define RA_UNDECL_KEEP_PAGES 32             /* kept past the window */

typedef struct {
    uint64_t   key[2];
    int64_t    first_ms;
    int64_t    last_ms;
    int64_t    win_ms;          /* when its counters started */
    int64_t    page_ms;         /* its last page */
    uint64_t   requests;
    uint64_t   paths;           /* a bit per page path hash: distinct */
    int64_t    gap_sum;         /* page gaps in tenths of a second */
    int64_t    gap_sq;
    uint32_t   next;            /* in its bucket */
    uint32_t   lru_prev;
    uint32_t   lru_next;
    uint32_t   rec;             /* its record + 1 once flagged */
    uint32_t   ring[RA_UNDECL_RING];    /* its last pages' path hashes */
    uint32_t   ua_hash;         /* the User-Agent last checked */
    uint16_t   pages;
    uint16_t   subres;
    uint16_t   chained;         /* pages reached from one it fetched */
    uint16_t   gaps;
    uint16_t   judged;          /* requests other than for robots.txt */
    uint16_t   disallowed;      /* of which the '*' group disallows */
    uint8_t    ringpos;
    uint8_t    robots;
    uint8_t    cloud;
    uint8_t    ua_bad;
    uint8_t    list;            /* 0 unflagged, 1 flagged */
    uint8_t    used;
    uint8_t    ua_bits;         /* a bit per User-Agent hash: distinct */
    uint8_t    shared;          /* people share the address */
} ra_undecl_entry_t;

/* The two bytes above took what was the entry's padding: a table laid
 * out before them reads as zeros there, and keeps its layout. */
_Static_assert(sizeof(ra_undecl_entry_t) == 152,
               "the undeclared table's entry keeps its size");

struct ra_undecl_s {
    uint32_t   magic;
    uint32_t   nbuckets;        /* a power of two */
    uint32_t   nentries;
    uint32_t   nrecords;
    uint32_t   used;            /* entries holding a client */
    uint32_t   fresh;           /* entries never used yet */
    uint32_t   head[RA_UNDECL_LISTS];   /* most recently seen */
    uint32_t   tail[RA_UNDECL_LISTS];
    uint32_t   rec_used;        /* records taken so far */
    uint32_t   pad;
    uint64_t   evictions;
    uint64_t   evicted_flagged;
    uint64_t   off_buckets;     /* from the start of the block */
    uint64_t   off_entries;
    uint64_t   off_records;
    uint64_t   off_recent;
    uint64_t   recent;          /* violations kept so far, all time */
};

#define ra_undecl_align(n)  (((n) + 15) & ~(size_t) 15)

static uint32_t
ra_undecl_buckets_for(uint32_t n)
{
    uint32_t  b = 16;

    while (b < n) {
        b <<= 1;
    }
    return b;
}

size_t
ra_undecl_size(uint32_t nentries, uint32_t nrecords)
{
    if (nentries == 0 || nrecords == 0 || nentries > RA_UNDECL_MAX
        || nrecords > RA_UNDECL_MAX)
    {
        return 0;
    }
    return ra_undecl_align(sizeof(ra_undecl_t))
           + ra_undecl_align(sizeof(uint32_t)
                             * (size_t) ra_undecl_buckets_for(nentries))
           + ra_undecl_align(sizeof(ra_undecl_entry_t) * (size_t) nentries)
           + ra_undecl_align(sizeof(ra_undecl_rec_t) * (size_t) nrecords)
           + sizeof(ra_undecl_viol_t) * RA_UNDECL_RECENT;
}

ra_undecl_t *
ra_undecl_init(void *mem, size_t size, uint32_t nentries, uint32_t nrecords)
{
    ra_undecl_t  *t = mem;
    size_t        need = ra_undecl_size(nentries, nrecords);

    if (mem == NULL || need == 0 || size < need) {
        return NULL;
    }
    memset(mem, 0, need);
    t->magic = RA_UNDECL_MAGIC;
    t->nbuckets = ra_undecl_buckets_for(nentries);
    t->nentries = nentries;
    t->nrecords = nrecords;
    t->off_buckets = ra_undecl_align(sizeof(ra_undecl_t));
    t->off_entries = t->off_buckets
                     + ra_undecl_align(sizeof(uint32_t) * t->nbuckets);
    t->off_records = t->off_entries
                     + ra_undecl_align(sizeof(ra_undecl_entry_t) * nentries);
    t->off_recent = t->off_records
                    + ra_undecl_align(sizeof(ra_undecl_rec_t) * nrecords);
    return t;
}

ra_undecl_t *
ra_undecl_create(const ra_alloc_t *a, uint32_t nentries, uint32_t nrecords)
{
    size_t  size = ra_undecl_size(nentries, nrecords);
    void   *mem;

    if (size == 0) {
        return NULL;
    }
    mem = ra_alloc(a, size);
    return mem != NULL ? ra_undecl_init(mem, size, nentries, nrecords) : NULL;
}

static uint32_t *
ra_undecl_bucket_base(ra_undecl_t *t)
{
    return (uint32_t *) (void *) ((unsigned char *) t + t->off_buckets);
}

static ra_undecl_entry_t *
ra_undecl_entry(ra_undecl_t *t, uint32_t link)
{
    return (ra_undecl_entry_t *) (void *) ((unsigned char *) t
                                            + t->off_entries)
           + (link - 1);
}

uint32_t
ra_undecl_records(const ra_undecl_t *t)
{
    return t->rec_used;
}

ra_undecl_rec_t *
ra_undecl_record(ra_undecl_t *t, uint32_t i)
{
    if (i >= t->rec_used) {
        return NULL;
    }
    return (ra_undecl_rec_t *) (void *) ((unsigned char *) t
                                          + t->off_records) + i;
}

ra_undecl_viol_t *
ra_undecl_recent_slot(ra_undecl_t *t)
{
    ra_undecl_viol_t  *ring = (ra_undecl_viol_t *) (void *)
                              ((unsigned char *) t + t->off_recent);

    return &ring[t->recent++ % RA_UNDECL_RECENT];
}

const ra_undecl_viol_t *
ra_undecl_recent(const ra_undecl_t *t, uint32_t i)
{
    const ra_undecl_viol_t  *ring = (const ra_undecl_viol_t *) (const void *)
                                    ((const unsigned char *) t
                                     + t->off_recent);

    if (i >= RA_UNDECL_RECENT || i >= t->recent) {
        return NULL;
    }
    return &ring[(t->recent - 1 - i) % RA_UNDECL_RECENT];
}

uint32_t
ra_undecl_clients(const ra_undecl_t *t)
{
    return t->used;
}

uint64_t
ra_undecl_evictions(const ra_undecl_t *t, uint64_t *flagged)
{
    if (flagged != NULL) {
        *flagged = t->evicted_flagged;
    }
    return t->evictions;
}

/* the key of an address: IPv4 whole, IPv6 by its /64 */
static void
ra_undecl_key(const uint8_t addr[16], uint64_t key[2])
{
    static const uint8_t  mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                         0xff, 0xff };
    unsigned              i;

    key[0] = key[1] = 0;
    for (i = 0; i < 8; i++) {
        key[0] = key[0] << 8 | addr[i];
        key[1] = key[1] << 8 | addr[8 + i];
    }
    if (memcmp(addr, mapped, sizeof(mapped)) != 0) {
        key[1] = 0;
    }
}

static uint32_t
ra_undecl_hash_key(const uint64_t key[2])
{
    uint64_t  h = key[0] * 0x9e3779b97f4a7c15ULL
                  ^ (key[1] + 0x632be59bd9b4e019ULL) * 0xbf58476d1ce4e5b9ULL;

    h ^= h >> 31;
    return (uint32_t) (h ^ h >> 29);
}

/* Does the list of entries from head, linked by lru_next, hold only
 * entries of that list, each once (at most n steps)? */
static int
ra_undecl_list_ok(const ra_undecl_t *t, const ra_undecl_entry_t *ents,
    uint32_t head, unsigned list, uint32_t *count)
{
    uint32_t  link, prev = 0, n = 0;

    for (link = head; link; link = ents[link - 1].lru_next) {
        if (link > t->fresh || ++n > t->used
            || ents[link - 1].list != list || !ents[link - 1].used
            || ents[link - 1].lru_prev != prev)
        {
            return 0;
        }
        prev = link;
    }
    *count += n;
    return prev == t->tail[list];
}

/* The header a table of those counts has, laid out at its own start */
static int
ra_undecl_header_ok(const ra_undecl_t *t, uint32_t nentries,
    uint32_t nrecords)
{
    size_t  buckets = ra_undecl_buckets_for(nentries);
    size_t  off = ra_undecl_align(sizeof(ra_undecl_t));

    return t->magic == RA_UNDECL_MAGIC && t->nentries == nentries
           && t->nrecords == nrecords && t->nbuckets == buckets
           && t->off_buckets == off
           && t->off_entries == (off += ra_undecl_align(4 * buckets))
           && t->off_records
              == (off += ra_undecl_align(sizeof(ra_undecl_entry_t)
                                         * (size_t) nentries))
           && t->off_recent
              == off + ra_undecl_align(sizeof(ra_undecl_rec_t)
                                       * (size_t) nrecords)
           && t->used <= t->fresh && t->fresh <= nentries
           && t->rec_used <= nrecords && t->head[0] <= t->fresh
           && t->head[1] <= t->fresh && t->tail[0] <= t->fresh
           && t->tail[1] <= t->fresh;
}

/* Does every chain hold only entries in use that hash to it, and all of
 * them together as many as are used (at most used steps in all)? */
static int
ra_undecl_chains_ok(const ra_undecl_t *t, const ra_undecl_entry_t *ents,
    const uint32_t *buckets)
{
    uint32_t  b, link, n = 0;

    for (b = 0; b < t->nbuckets; b++) {
        for (link = buckets[b]; link; link = ents[link - 1].next) {
            if (link > t->fresh || ++n > t->used || !ents[link - 1].used
                || (ra_undecl_hash_key(ents[link - 1].key)
                    & (t->nbuckets - 1)) != b
                || (ents[link - 1].rec
                    && ents[link - 1].rec > t->rec_used))
            {
                return 0;
            }
        }
    }
    return n == t->used;
}

int
ra_undecl_check(const void *mem, size_t size, uint32_t nentries,
    uint32_t nrecords)
{
    const ra_undecl_t        *t = mem;
    const ra_undecl_entry_t  *ents;
    uint32_t                  n = 0;
    size_t                    need = ra_undecl_size(nentries, nrecords);

    if (mem == NULL || need == 0 || size < need
        || !ra_undecl_header_ok(t, nentries, nrecords))
    {
        return 0;
    }
    ents = (const ra_undecl_entry_t *) (const void *)
           ((const unsigned char *) t + t->off_entries);
    return ra_undecl_list_ok(t, ents, t->head[0], 0, &n)
           && ra_undecl_list_ok(t, ents, t->head[1], 1, &n)
           && n == t->used
           && ra_undecl_chains_ok(t, ents, (const uint32_t *) (const void *)
                                  ((const unsigned char *) t
                                   + t->off_buckets));
}

/* FNV-1a over bytes, never 0 (0 marks an empty ring slot): for paths,
 * whose bits the distinct-page count and the Referer ring read */
static uint32_t
ra_undecl_hash(ra_str_t s)
{
    uint32_t  h = 2166136261u;
    size_t    i;

    for (i = 0; i < s.len; i++) {
        h = (h ^ s.data[i]) * 16777619u;
    }
    return h | 1;
}

/* A User-Agent's key (ra_hash_sample()): only compared for equality, on
 * every request of a browser, where hashing every byte cost more than
 * the rest of the detector's work.  Two User-Agents alike in all of its
 * sample are one to the detector: a client changing between them is
 * not asked about the second, nor counted as a User-Agent more. */
static uint32_t
ra_undecl_ua_hash(ra_str_t s)
{
    uint64_t  h = ra_hash_sample(s.data, s.len);

    return (uint32_t) (h ^ h >> 32) | 1;
}

/* the lists: links are entry indices + 1 */
static void
ra_undecl_unlink(ra_undecl_t *t, ra_undecl_entry_t *e)
{
    if (e->lru_prev) {
        ra_undecl_entry(t, e->lru_prev)->lru_next = e->lru_next;
    } else {
        t->head[e->list] = e->lru_next;
    }
    if (e->lru_next) {
        ra_undecl_entry(t, e->lru_next)->lru_prev = e->lru_prev;
    } else {
        t->tail[e->list] = e->lru_prev;
    }
    e->lru_prev = e->lru_next = 0;
}

static void
ra_undecl_push(ra_undecl_t *t, ra_undecl_entry_t *e, uint32_t link)
{
    e->lru_prev = 0;
    e->lru_next = t->head[e->list];
    if (e->lru_next) {
        ra_undecl_entry(t, e->lru_next)->lru_prev = link;
    } else {
        t->tail[e->list] = link;
    }
    t->head[e->list] = link;
}

/* Takes the entry at link out of its bucket and list */
static void
ra_undecl_evict(ra_undecl_t *t, uint32_t link)
{
    ra_undecl_entry_t  *e = ra_undecl_entry(t, link);
    uint32_t           *b = ra_undecl_bucket_base(t)
                            + (ra_undecl_hash_key(e->key)
                               & (t->nbuckets - 1));

    while (*b != link) {
        b = &ra_undecl_entry(t, *b)->next;
    }
    *b = e->next;
    ra_undecl_unlink(t, e);
    if (e->rec) {
        ra_undecl_record(t, e->rec - 1)->entry = 0;
        t->evicted_flagged++;
    }
    t->evictions++;
    t->used--;
    e->used = 0;
}

/* The entry of key, found or made (evicting when full) */
static uint32_t
ra_undecl_find(ra_undecl_t *t, const uint64_t key[2], int64_t now)
{
    uint32_t           *b = ra_undecl_bucket_base(t)
                            + (ra_undecl_hash_key(key) & (t->nbuckets - 1));
    uint32_t            link;
    ra_undecl_entry_t  *e;

    for (link = *b; link; link = e->next) {
        e = ra_undecl_entry(t, link);
        if (e->key[0] == key[0] && e->key[1] == key[1]) {
            return link;
        }
    }
    if (t->fresh < t->nentries) {
        link = ++t->fresh;
    } else {
        link = t->tail[0] ? t->tail[0] : t->tail[1];
        ra_undecl_evict(t, link);
    }
    e = ra_undecl_entry(t, link);
    memset(e, 0, sizeof(*e));
    e->key[0] = key[0];
    e->key[1] = key[1];
    e->first_ms = e->last_ms = e->win_ms = now;
    e->used = 1;
    e->next = *b;
    *b = link;
    t->used++;
    ra_undecl_push(t, e, link);
    return link;
}

/* Restarts an unflagged entry idle for a whole window; halves the
 * counters of one busy for longer than a window */
static void
ra_undecl_slide(ra_undecl_entry_t *e, int64_t now)
{
    if (now - e->last_ms > RA_UNDECL_WINDOW_MS) {
        e->first_ms = e->win_ms = now;
        e->requests = 0;
        e->pages = e->subres = e->chained = e->gaps = e->judged = 0;
        e->gap_sum = e->gap_sq = 0;
        e->paths = 0;
        e->robots = e->disallowed = 0;
        e->page_ms = 0;
        /* people share the address still: an address found shared
         * stays so while the table remembers it, or each quiet spell of
         * a balancer would let its first requests flag it again */
        e->ua_bits = 0;
        return;
    }
    if (now - e->win_ms > RA_UNDECL_WINDOW_MS
        && e->pages >= RA_UNDECL_KEEP_PAGES)
    {
        e->win_ms = now - RA_UNDECL_WINDOW_MS / 2;
        e->pages /= 2;
        e->subres /= 2;
        e->chained /= 2;
        e->gaps /= 2;
        e->gap_sum /= 2;
        e->gap_sq /= 2;
        e->disallowed /= 2;
        e->judged /= 2;
        /* the distinct pages stay: a bitmap cannot be halved, and a
         * crawler's many paths are what the window is there to see */
    }
}

static unsigned
ra_undecl_popcount(uint64_t v)
{
    unsigned  n = 0;

    while (v) {
        v &= v - 1;
        n++;
    }
    return n;
}

/* 1 when the page gaps are those of a machine: 8 or more distinct pages
 * whose gaps vary by less than half their mean (a coefficient of
 * variation under 0.5), or come faster than one in two seconds */
static int
ra_undecl_regular(const ra_undecl_entry_t *e, unsigned distinct)
{
    double  n, mean, var;

    if (e->gaps < 7 || distinct < 8) {
        return 0;
    }
    n = e->gaps;
    mean = (double) e->gap_sum / n;
    if (mean < 20.0) {
        return 1;
    }
    var = (double) e->gap_sq / n - mean * mean;
    return var < 0.25 * mean * mean;
}

/* The score of an entry and the signals that make it */
static int32_t
ra_undecl_score(const ra_undecl_entry_t *e, uint32_t *signals)
{
    int32_t   s = 0;
    uint32_t  sig = 0;
    unsigned  distinct = ra_undecl_popcount(e->paths);

    if (e->robots) {
        /* decisive, unless the client loads subresources as a person's
         * browser does: a browser extension may read robots.txt */
        s += e->subres >= 2 ? 75 : 100;
        sig |= RA_UNDECL_SIG_ROBOTS;
    }
    if (e->disallowed) {
        s += 50;
        sig |= RA_UNDECL_SIG_DISALLOWED;
    }
    if (e->ua_bad) {
        s += 50;
        sig |= RA_UNDECL_SIG_IMPOSSIBLE_UA;
    }
    if (distinct >= 4 && e->subres * 4 < distinct) {
        s += distinct >= 12 ? 50 : 35;
        sig |= RA_UNDECL_SIG_NO_SUBRES;
    }
    if (distinct >= 4 && e->chained == 0) {
        s += distinct >= 12 ? 50 : 25;
        sig |= RA_UNDECL_SIG_NO_REFERER;
    }
    if (ra_undecl_regular(e, distinct)) {
        s += 30;
        sig |= RA_UNDECL_SIG_REGULAR;
    }
    if (e->cloud) {
        s += 30;
        sig |= RA_UNDECL_SIG_CLOUD;
    }
    *signals = sig;
    return s;
}

/* The path of a Referer: after "scheme://host", up to '?' or '#' */
static ra_str_t
ra_undecl_referer_path(ra_str_t ref)
{
    size_t  i = 0, end;

    while (i + 2 < ref.len && !(ref.data[i] == ':' && ref.data[i + 1] == '/'
                                && ref.data[i + 2] == '/'))
    {
        i++;
    }
    if (i + 2 >= ref.len) {
        return ra_str(NULL, 0);
    }
    for (i += 3; i < ref.len && ref.data[i] != '/'; i++) {
        /* the host */
    }
    for (end = i; end < ref.len && ref.data[end] != '?'
                  && ref.data[end] != '#'; end++)
    {
        /* the path */
    }
    if (i == end) {
        return ra_str("/", 1);
    }
    return ra_str(ref.data + i, end - i);
}

static ra_str_t
ra_undecl_path_only(ra_str_t path)
{
    size_t  i;

    for (i = 0; i < path.len; i++) {
        if (path.data[i] == '?' || path.data[i] == '#') {
            break;
        }
    }
    return ra_str(path.data, i);
}

/* A page: its gap, its distinct path, whether its Referer is a page
 * the client fetched */
static void
ra_undecl_page(ra_undecl_entry_t *e, const ra_undecl_req_t *r)
{
    uint32_t  h = ra_undecl_hash(ra_undecl_path_only(r->path));
    uint32_t  rh;
    int64_t   gap;
    unsigned  i;
    ra_str_t  ref = ra_undecl_referer_path(r->referer);

    if (ref.len) {
        rh = ra_undecl_hash(ref);
        for (i = 0; i < RA_UNDECL_RING; i++) {
            if (e->ring[i] == rh) {
                if (e->chained < UINT16_MAX) {
                    e->chained++;
                }
                break;
            }
        }
    }
    e->ring[e->ringpos] = h;
    e->ringpos = (uint8_t) ((e->ringpos + 1) % RA_UNDECL_RING);
    e->paths |= (uint64_t) 1 << ((h * 0x9e3779b1u) >> 26);
    if (e->pages && e->page_ms && e->gaps < UINT16_MAX) {
        gap = (r->time_ms - e->page_ms) / 100;
        if (gap < 0) {
            gap = 0;
        }
        if (gap > RA_UNDECL_WINDOW_MS / 100) {
            gap = RA_UNDECL_WINDOW_MS / 100;
        }
        e->gap_sum += gap;
        e->gap_sq += gap * gap;
        e->gaps++;
    }
    e->page_ms = r->time_ms;
    if (e->pages < UINT16_MAX) {
        e->pages++;
    }
}

/* Adds a User-Agent to a record unless it holds it or is full */
static void
ra_undecl_rec_ua(ra_undecl_rec_t *rec, ra_str_t ua, uint32_t h)
{
    uint32_t  i;

    for (i = 0; i < rec->nuas; i++) {
        if (rec->ua_hash[i] == h) {
            return;
        }
    }
    if (rec->nuas == RA_UNDECL_UAS) {
        return;
    }
    rec->ua_hash[i] = h;
    rec->ua_len[i] = (uint16_t) ra_str_cut(rec->ua[i], RA_UNDECL_UA_MAX, ua);
    rec->nuas++;
}

/* A record for a newly flagged entry: the client's own when it was
 * flagged before and its entry evicted since, a fresh one, else the one
 * seen longest ago (whose entry, if any, loses it).  Only a flagging
 * walks the records: it happens once per client. */
static uint32_t
ra_undecl_take_record(ra_undecl_t *t, const uint8_t addr[16])
{
    uint32_t          i, oldest = 0;
    ra_undecl_rec_t  *rec, *o;

    for (i = 0; i < t->rec_used; i++) {
        rec = ra_undecl_record(t, i);
        if (rec->entry == 0 && memcmp(rec->addr, addr, 16) == 0) {
            return i;
        }
    }
    if (t->rec_used < t->nrecords) {
        return t->rec_used++;
    }
    for (i = 1; i < t->nrecords; i++) {
        rec = ra_undecl_record(t, i);
        o = ra_undecl_record(t, oldest);
        if (rec->last_ms < o->last_ms) {
            oldest = i;
        }
    }
    o = ra_undecl_record(t, oldest);
    if (o->entry) {
        ra_undecl_entry(t, o->entry)->rec = 0;
    }
    return oldest;
}

/* Ties entry and record i together and moves the entry to the flagged
 * list, evicted last */
static void
ra_undecl_bind(ra_undecl_t *t, ra_undecl_entry_t *e, uint32_t link,
    uint32_t i)
{
    ra_undecl_record(t, i)->entry = link;
    e->rec = i + 1;
    ra_undecl_unlink(t, e);
    e->list = 1;
    ra_undecl_push(t, e, link);
}

static void
ra_undecl_flag(ra_undecl_t *t, ra_undecl_entry_t *e, uint32_t link,
    const ra_undecl_req_t *r, unsigned kind, int32_t score,
    uint32_t signals)
{
    uint8_t           addr[16];
    uint32_t          i;
    ra_undecl_rec_t  *rec;

    memcpy(addr, r->addr, sizeof(addr));
    if (e->key[1] == 0) {
        memset(addr + 8, 0, 8);
    }
    i = ra_undecl_take_record(t, addr);
    rec = ra_undecl_record(t, i);
    if (rec->entry == 0 && rec->requests
        && memcmp(rec->addr, addr, sizeof(addr)) == 0)
    {
        /* flagged again after its entry was evicted: one record */
        rec->requests += e->requests;
        rec->signals |= signals;
        rec->score = score > rec->score ? score : rec->score;
        ra_undecl_bind(t, e, link, i);
        return;
    }
    memset(rec, 0, sizeof(*rec));
    memcpy(rec->addr, addr, sizeof(addr));
    rec->first_ms = e->first_ms;
    rec->flagged_ms = r->time_ms;
    rec->requests = e->requests;
    rec->flagged_at = e->requests;
    /* the window's verdicts before this request, for a caller that
     * judges its whole window */
    rec->before_violation = e->disallowed - r->disallowed;
    rec->before_compliant = e->judged - e->disallowed
                            - (kind != RA_UNDECL_ROBOTS && !r->disallowed);
    rec->signals = signals;
    rec->score = score;
    ra_undecl_bind(t, e, link, i);
}

void
ra_undecl_see(ra_undecl_t *t, const ra_undecl_req_t *r, ra_undecl_hit_t *hit)
{
    ra_undecl_see_kind(t, r, ra_undecl_path_kind(r->path), hit);
}

/* An address people share, behind a balancer that does not pass on the
 * client's address or a NAT: RA_UNDECL_SHARED_UAS or more distinct
 * User-Agents, and the subresource loads of a person's browser.  Its
 * requests are many clients', and no one's robots.txt fetch or
 * disallowed path may make a crawler of all of them.  A bot that rotates
 * User-Agents but loads no subresources stays one client. */
static int
ra_undecl_is_shared(const ra_undecl_entry_t *e)
{
    return e->subres >= 2
           && ra_undecl_popcount(e->ua_bits) >= RA_UNDECL_SHARED_UAS;
}

/* A flagged client found shared lets go of its record, which stays as
 * the evidence of what it did while it looked like one client (its
 * signals now say "shared"), and is not flagged again while its entry
 * lasts */
static void
ra_undecl_release(ra_undecl_t *t, ra_undecl_entry_t *e, uint32_t link,
    ra_undecl_rec_t *rec)
{
    rec->entry = 0;
    rec->signals |= RA_UNDECL_SIG_SHARED;
    e->rec = 0;
    ra_undecl_unlink(t, e);
    e->list = 0;
    ra_undecl_push(t, e, link);
}

uint32_t
ra_undecl_count_client(ra_undecl_t *t, const ra_undecl_req_t *r, int *shared)
{
    uint64_t            key[2];
    uint32_t            link;
    ra_undecl_entry_t  *e;

    ra_undecl_key(r->addr, key);
    link = ra_undecl_find(t, key, r->time_ms);
    e = ra_undecl_entry(t, link);
    if (e->rec == 0) {
        ra_undecl_slide(e, r->time_ms);
    }
    if (t->head[e->list] != link) {
        ra_undecl_unlink(t, e);
        ra_undecl_push(t, e, link);
    }
    e->last_ms = r->time_ms;
    e->requests++;
    *shared = e->shared;
    return link;
}

void
ra_undecl_see_entry(ra_undecl_t *t, uint32_t link, const ra_undecl_req_t *r,
    unsigned kind, ra_undecl_hit_t *hit)
{
    uint32_t            signals, uah;
    int32_t             score = 0;
    ra_undecl_entry_t  *e = ra_undecl_entry(t, link);
    ra_undecl_rec_t    *rec = NULL;

    if (hit != NULL) {
        memset(hit, 0, sizeof(*hit));
    }
    if (e->shared) {
        /* people's address: nothing of one of them is a signal */
        return;
    }
    if (e->rec) {
        rec = ra_undecl_record(t, e->rec - 1);
    }
    if (kind == RA_UNDECL_SUBRES && e->subres < UINT16_MAX) {
        e->subres++;
    }
    uah = ra_undecl_ua_hash(r->user_agent);
    if (uah != e->ua_hash) {
        /* asked once per User-Agent a client changes to */
        e->ua_hash = uah;
        e->ua_bits = (uint8_t) (e->ua_bits | 1u << (uah >> 29));
        if (rec == NULL) {
            e->ua_bad = (uint8_t) (e->ua_bad | ra_undecl_ua_impossible(
                                                  r->user_agent));
        }
    }
    if (ra_undecl_is_shared(e)) {
        e->shared = 1;
        if (rec != NULL) {
            ra_undecl_release(t, e, link, rec);
        }
        return;
    }
    if (rec != NULL) {
        rec->requests++;
        rec->last_ms = r->time_ms;
        /* a record that holds all the User-Agents it keeps takes no
         * other */
        if (rec->nuas < RA_UNDECL_UAS) {
            ra_undecl_rec_ua(rec, r->user_agent, uah);
        }
        if (hit != NULL) {
            hit->rec = e->rec;
            hit->score = rec->score;
        }
        return;
    }
    switch (kind) {
    case RA_UNDECL_ROBOTS:
        e->robots = 1;
        break;
    case RA_UNDECL_PAGE:
        ra_undecl_page(e, r);
        break;
    default:
        break;
    }
    if (kind != RA_UNDECL_ROBOTS && e->judged < UINT16_MAX)
    {
        e->judged++;
        e->disallowed += r->disallowed;
    }
    e->cloud = r->cloud;
    score = ra_undecl_score(e, &signals);
    if (score >= RA_UNDECL_THRESHOLD) {
        ra_undecl_flag(t, e, link, r, kind, score, signals);
        rec = ra_undecl_record(t, e->rec - 1);
        rec->last_ms = r->time_ms;
        ra_undecl_rec_ua(rec, r->user_agent, uah);
    }
    if (hit != NULL) {
        hit->rec = e->rec;
        hit->flagged_now = rec != NULL;
        hit->score = score;
    }
}

void
ra_undecl_see_kind(ra_undecl_t *t, const ra_undecl_req_t *r, unsigned kind,
    ra_undecl_hit_t *hit)
{
    int       shared;
    uint32_t  link = ra_undecl_count_client(t, r, &shared);

    ra_undecl_see_entry(t, link, r, kind, hit);
}

const char *
ra_undecl_signal_name(uint32_t bit)
{
    switch (bit) {
    case RA_UNDECL_SIG_ROBOTS:        return "robots.txt";
    case RA_UNDECL_SIG_DISALLOWED:    return "disallowed";
    case RA_UNDECL_SIG_IMPOSSIBLE_UA: return "impossible-ua";
    case RA_UNDECL_SIG_NO_SUBRES:     return "no-subresources";
    case RA_UNDECL_SIG_NO_REFERER:    return "no-referer-chain";
    case RA_UNDECL_SIG_REGULAR:       return "regular-rate";
    case RA_UNDECL_SIG_CLOUD:         return "cloud";
    case RA_UNDECL_SIG_SHARED:        return "shared";
    default:                          return NULL;
    }
}
