/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The ledger's region as the ledger's own files see it: this header is
 * private to common/ra_ledger*.c, and no other file includes it.  It holds
 * the region's layout (the structs of its header, tables and blob heap),
 * the crash-safety marks every structural change sets (ra_begin(),
 * RA_STEP(), the sites' vseq), and the small helpers each piece of the
 * ledger uses on every request, as static inline functions so that
 * splitting the ledger into files costs no call on the hot path.
 *
 * Every link in the region is an index + 1 or a byte offset from its
 * start.  The structs below are the layout: changing one changes it, and
 * RA_LEDGER_LAYOUT must change with it.  The public types of ra_ledger.h
 * are copies made from them.
 */
#ifndef RA_LEDGER_IMPL_H
#define RA_LEDGER_IMPL_H

#include <string.h>

#include "ra_crawlers.h"
#include "ra_ledger.h"
#include "ra_rdns.h"
#include "ra_verify.h"

#define RA_LEDGER_MAGIC        0x3130544944554152ULL  /* "RAUDIT01" */
#define RA_LEDGER_LAYOUT       17

#define RA_ALIGN_UP(n, a)  (((n) + (a) - 1) & ~((size_t) (a) - 1))

/* counters and totals: updated without the lock by any process */
#define ra_atomic_add(p, n)    __atomic_fetch_add(p, n, __ATOMIC_RELAXED)
#define ra_atomic_sub(p, n)    __atomic_fetch_sub(p, n, __ATOMIC_RELAXED)
#define ra_atomic_read(p)      __atomic_load_n(p, __ATOMIC_RELAXED)
/* numbers changed under the lock but read without it (ra_ledger_totals) */
#define ra_atomic_set(p, v)    __atomic_store_n(p, v, __ATOMIC_RELAXED)

/* stat record classes: each has its own LRU list and bound */
#define RA_CLS_KNOWN    0       /* crawlers of the table, verified */
#define RA_CLS_GENERIC  1       /* generic bots */
#define RA_CLS_SUSPECT  2       /* crawlers of the table not verified
                                   (impostor, unverifiable): names anyone
                                   can send, so never in the verified ones'
                                   class */
#define RA_CLS_MAX      3

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
    /* layout 13: the last time a verified crawler was served this
     * version; such a version is evicted last (ra_answer_locked()) */
    int64_t   verified_fetch;
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
    int64_t            failing_since;   /* first 5xx/429 of the run */
    int64_t            pages_answered;
    uint16_t           robots_status;
    uint32_t           last_size;
    uint8_t            last_ctype_len;
    char               last_ctype[RA_CTYPE_MAX];
    uint8_t            bad_coding_len;
    char               bad_coding[RA_CODING_MAX];
    uint8_t            name_len;
    uint8_t            nversions;
    uint8_t            current;
    uint8_t            used;            /* set last when created */
    uint32_t           epoch;           /* tells reuses of a slot apart */
    char               name[RA_SITE_NAME_MAX];
    ra_version_slot_t  versions[RA_VERSIONS];
    /* what every generic bot of the site counted, evicted or not */
    uint64_t           generic[RA_CNT_MAX];       /* atomics */
    /* ids; 0 = none.  hnext links the free list while the slot is free */
    uint32_t           hnext, lprev, lnext;
    uint32_t           stats;           /* first of the site's records */
    uint32_t           mark;            /* rebuild's stamp */
    /* alert budget (ra_alert.h) */
    uint32_t           alert_mark;
    ra_bucket_t        alert_bucket;
    ra_bucket_t        alert_open;      /* the share of all but verified */
    ra_gate_t          gates[RA_GENERIC_GATES];
    /* crawl-to-refer (ra_ledger_referral_locked()) */
    uint64_t           referrals[RA_REFER_SLOTS];         /* atomics */
    uint64_t           referral_crawls[RA_REFER_SLOTS];   /* atomics */
    /* layout 8: plain numbers, under the lock (ra_ledger.h) */
    uint64_t           rule_version;    /* set after the entries' reset */
    uint64_t           rule_other_matched;
    uint64_t           rule_other_violations;
    ra_rule_hit_t      rule_hits[RA_RULE_LINES];   /* line set last */
    uint32_t           episode_next;    /* < RA_EPISODES */
    ra_episode_t       episodes[RA_EPISODES];      /* start set last */
    ra_spark_t         spark[RA_HOURS];            /* plain numbers */
    /* layout 10: odd while what a verdict reads of the site (versions,
     * current, failures, its records' last fetch) changes, under the
     * lock; read without it by ra_ledger_state_hinted() */
    uint32_t           vseq;
    /* layout 12: requests by purpose (ra_site_t), atomics */
    uint64_t           purpose_requests[RA_PURPOSES];
    /* layout 13: an answer other than 2xx that one client got and the
     * site has not yet been seen to give anyone else
     * (ra_ledger_answer_everyone_locked()); pending_hash 0: none */
    uint64_t           pending_hash;
    uint64_t           pending_client;  /* its address block's hash */
    uint64_t           pending_ua;      /* its User-Agent's hash */
    int64_t            served_at;       /* the last answer that served
                                           the file: 2xx, 304, 206 */
    /* layout 13: where /robots.txt redirects, hop by hop (canonical
     * paths of the site; ra_ledger_redirect_locked()) */
    uint8_t            redirect_n;
    uint8_t            redirect_len[RA_REDIRECT_HOPS];
    char               redirect[RA_REDIRECT_HOPS][RA_REDIRECT_PATH_MAX];
    /* layout 14: evidence lines the evidence log's byte budget dropped
     * (ra_evidence.h), an atomic */
    uint64_t           evidence_dropped;
    /* layout 15: what the records evicted from the site had counted, by
     * what they were (RA_EVICTED_*), and how many there were; plain
     * numbers changed under the lock by ra_stat_evict() through the fold
     * journal below: fold_sum holds the kind's new sums, fold_tag (set
     * last, cleared once the record is gone) names the record being
     * folded, so that a rebuild finishes a fold a process died in
     * (ra_ledger_fold_repair()) and no record is counted twice or lost */
    uint64_t           evicted[RA_EVICTED_KINDS][RA_CNT_MAX];
    uint64_t           evicted_records[RA_EVICTED_KINDS];
    uint64_t           fold_sum[RA_CNT_MAX + 1];
    uint32_t           fold_stat;
    uint32_t           fold_tag;        /* 0: no fold under way */
    uint8_t            fold_kind;
    /* layout 17: its set of sitemaps (ra_ledger_sitemap.c): id + 1, 0
     * none; the set's owner says whether it is still this site's */
    uint32_t           sitemaps;
    /* layout 17: page directives (ra_ledger_pages.c), plain numbers
     * changed under the lock */
    ra_pages_t         pages;
} ra_site_slot_t;

/*
 * Layout 17: a set of sitemaps (ra_sitemaps_t), in a table of their own
 * (fewer sets than sites: only sites whose robots.txt lists sitemaps, or
 * whose /sitemap.xml crawlers fetched, take one).  A set is its site's
 * while site and epoch name that site and the site's slot names the set
 * back; any other set is free.  So no free list or link needs repair: a
 * process that dies while taking a set leaves it free or taken, either
 * way whole.  When none is free, the one touched longest ago is taken.
 */
typedef struct {
    uint32_t       site;            /* id; 0: never taken */
    uint32_t       epoch;           /* the site slot's epoch then */
    int64_t        touched;
    ra_sitemaps_t  maps;
} ra_sm_set_t;

_Static_assert(RA_PURPOSES == RA_CAT_MAX, "RA_PURPOSES is RA_CAT_MAX");

typedef struct {
    /* what a hash chain's walk reads, in the slot's first cache line:
     * another key's record costs one miss, not three */
    uint32_t  hnext;                              /* hnext: free list too */
    uint32_t  hash;                               /* of its key */
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
    uint8_t   used;                               /* set last */
    char      name[RA_NAME_MAX];
    char      token[RA_NAME_MAX];
    uint32_t  site_epoch;                         /* its site's epoch */
    uint32_t  lprev, lnext;
    uint32_t  sprev, snext;                       /* the site's records */
    uint32_t  mark;                               /* rebuild's stamp */
    uint32_t  alert_mark;                         /* budget window */
    int32_t   crawl_delay_ms;                     /* 0: none */
    ra_polite_t  polite;                          /* plain numbers */
    ra_hour_t    hours[RA_HOURS];                 /* plain numbers */
    uint64_t     rule_version;                    /* set after the reset */
    ra_crawler_hit_t  rule_hits[RA_CRAWLER_RULE_LINES];  /* line set last */
    uint8_t   verified_by;                        /* the last method that
                                                     decided it */
    uint32_t  tag;                                /* layout 11: a number
                                                     from next_epoch at its
                                                     creation, what a hint
                                                     checks (its hash can be
                                                     met by another key) */
} ra_stat_slot_t;

typedef struct {
    int64_t   time;
    uint64_t  seq;                        /* violations_total then: the
                                             order recorded, over both
                                             parts of the ring */
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
    uint8_t   verified_by;                /* layout 8 */
    int64_t   last_fetch;
    unsigned char  robots_sha256[32];
    uint8_t   purpose;                    /* layout 12 */
} ra_vio_slot_t;

/* layout 17: where the undeclared-crawler tables lie and their sizes
 * (ra_ledger_undeclared.c), chosen from the region's size */
typedef struct {
    uint32_t  off;              /* the first slot; 0: none */
    uint32_t  slots;            /* tables: one site's each */
    uint32_t  slot_size;        /* bytes of a slot, its table included */
    uint32_t  clients;          /* entries of each table */
    uint32_t  flagged;          /* flagged records of each table */
    uint32_t  resets;           /* tables made anew, found half-written
                                   (an atomic; not compared by a check) */
} ra_undecl_area_t;

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
    uint64_t  crawler_requests; /* of which crawlers' */
    /* ra_ledger_full_note(), compare-and-swapped by every process */
    int64_t   full_noted;       /* when it last answered 1; 0 never */
    uint64_t  full_seen;        /* site + stat evictions then */
    /* LRU lists (ids), most recent first: sites, and stat records by
     * class (RA_CLS_*), each with its count; free lists (ids) */
    uint32_t  site_head, site_tail, site_count;
    uint32_t  stat_head[RA_CLS_MAX], stat_tail[RA_CLS_MAX];
    uint32_t  stat_n[RA_CLS_MAX];
    uint32_t  stat_count;       /* all classes */
    uint32_t  site_free, stat_free;
    /* class bounds: generic records never exceed generic_max, suspect
     * ones suspect_max; verified ones never exceed known_max, which
     * leaves a sixteenth to the other two */
    uint32_t  generic_max, known_max, suspect_max;
    /* the violation ring in two parts: verified crawlers' violations in
     * the first vio_trusted slots (next: vio_next_trusted), everyone
     * else's in the others (next: vio_next, from vio_trusted) */
    uint32_t  vio_trusted;
    uint32_t  vio_next_trusted;
    uint32_t  vio_next;
    uint32_t  next_epoch;
    /* blob heap: first free block (offset), bytes free */
    uint32_t  blob_free;
    uint32_t  blob_free_bytes;
    /* the alert budget of all sites and its summary (ra_alert.h) */
    ra_budget_t  budget;
    /* crash safety: dirty is set while a structural change is under
     * way (links, counts, free lists, the ring, the heap); a process
     * that takes the lock and finds it set (or broken: a loop found a
     * link out of place) rebuilds everything from the slots */
    uint32_t  dirty;
    uint32_t  broken;
    uint32_t  mark;             /* the last rebuild's stamp */
    uint64_t  repairs;          /* rebuilds (atomic) */
    uint32_t  off_rdns;         /* the reverse-DNS cache (ra_rdns.h) */
    /* layout 13: sites whose robots.txt redirects to a path of the site
     * now, an atomic: only while it is not 0 does a request for another
     * path ask whether its answer is robots.txt
     * (ra_ledger_redirect_hop_locked()).  It may stay too high (a process
     * that died mid-change, a site evicted with its chain), which costs
     * lookups; it is never too low, which would miss a capture. */
    uint32_t  redirects;
    /* layout 14: the evidence log's byte budget of every process, under
     * the lock, and the lines it dropped of every site (an atomic: a site
     * evicted keeps its count here) */
    ra_byte_window_t   evidence;
    uint64_t           evidence_dropped;
    /* layout 14: lines the alert and evidence logs lost (RA_LOGFILE_*),
     * atomics; when a process last said so (compare-and-swapped) and the
     * count it said */
    uint64_t           log_errors[RA_LOGFILES];
    int64_t            log_error_noted[RA_LOGFILES];
    uint64_t           log_error_seen[RA_LOGFILES];
    /* layout 15: 1 while the log ends in a torn line that no process
     * could end yet (the disk was full even for its newline): the next
     * writer ends it first, so that its own line starts on a line of its
     * own; an atomic, swapped */
    uint32_t           log_owed[RA_LOGFILES];
    /* layout 14: the clients of the alert summary window's violations
     * (ra_alert_budget_take()), under the lock */
    ra_alert_client_t  alert_top[RA_ALERT_TOP_SLOTS];
    /* layout 17: the event stream's lines by outcome */
    ra_events_tally_t  events;
    /* layout 17: the sets of sitemaps (ra_sm_set_t) */
    uint32_t           off_sm_sets;
    uint32_t           sm_sets;
    /* layout 17: the undeclared-crawler tables */
    ra_undecl_area_t   undecl;
};

/* blob heap block: a header before the body, 16-byte granules; the
 * blocks tile the heap, so a walk by sizes finds every one */
typedef struct {
    uint32_t  size;         /* bytes, header included */
    uint32_t  next;         /* next free block's offset (free blocks) */
    uint32_t  owner;        /* used: site id * RA_VERSIONS + k + 1; 0 free */
    uint32_t  mark;         /* rebuild's stamp */
} ra_blob_t;

#define RA_BLOB_GRAIN  16
#define RA_BLOB_HDR    RA_ALIGN_UP(sizeof(ra_blob_t), RA_BLOB_GRAIN)

#define RA_SITES(l)      ((ra_site_slot_t *) ((l)->base + (l)->hdr->off_sites))
#define RA_SITE_HASH(l)  ((uint32_t *) ((l)->base + (l)->hdr->off_site_hash))
#define RA_STATS(l)      ((ra_stat_slot_t *) ((l)->base + (l)->hdr->off_stats))
#define RA_STAT_HASH(l)  ((uint32_t *) ((l)->base + (l)->hdr->off_stat_hash))
#define RA_SM_SETS(l)    ((ra_sm_set_t *) ((l)->base + (l)->hdr->off_sm_sets))
#define RA_VIOS(l)       ((ra_vio_slot_t *) ((l)->base                       \
                                             + (l)->hdr->off_violations))

/* The slot of an id; callers pass ids the ledger handed out. */
static inline ra_site_slot_t *
ra_site_at(const ra_ledger_t *l, uint32_t site)
{
    return site && site <= l->hdr->plan.sites ? &RA_SITES(l)[site - 1]
                                              : NULL;
}

static inline ra_stat_slot_t *
ra_stat_at(const ra_ledger_t *l, uint32_t stat)
{
    return stat && stat <= l->hdr->plan.stats ? &RA_STATS(l)[stat - 1]
                                              : NULL;
}

/* ---- crash safety ------------------------------------------------------ */

/*
 * Every structural change runs between ra_begin() and ra_end(): the mark
 * is in memory before the change's first store and leaves it after its
 * last one.  A process killed in between leaves it set; the next
 * ra_ledger_lock() sees it and rebuilds.  In the fault-injection build
 * (RA_LEDGER_FAULT, tests only) RA_STEP() lets a test end the process
 * between any two steps of a change.
 */
#ifdef RA_LEDGER_FAULT
void ra_ledger_fault_point(int line);
#define RA_STEP()  ra_ledger_fault_point(__LINE__)
#else
#define RA_STEP()  ((void) 0)
#endif

static inline void
ra_begin(const ra_ledger_t *l)
{
    __atomic_store_n(&l->hdr->dirty, 1, __ATOMIC_SEQ_CST);
    RA_STEP();
}

static inline void
ra_end(const ra_ledger_t *l)
{
    RA_STEP();
    __atomic_store_n(&l->hdr->dirty, 0, __ATOMIC_RELEASE);
}

/* A link out of place: the next lock rebuilds. */
static inline void
ra_broken(const ra_ledger_t *l)
{
    __atomic_store_n(&l->hdr->broken, 1, __ATOMIC_SEQ_CST);
}

/*
 * A change of what a verdict reads of a site (ra_ledger_state_locked())
 * runs between ra_vseq_begin() and ra_vseq_end(), under the lock: the
 * site's vseq is odd meanwhile, so that a reader without the lock
 * (ra_ledger_state_hinted()) that saw it odd, or saw it move, reads
 * again under the lock.  A change inside another one of the same site
 * leaves it odd (begin answers 0, and its end then does nothing).  A
 * process that dies inside one leaves it odd: the next
 * ra_ledger_state_locked() of the site, under the lock where no change
 * can be under way, makes it even again.
 */
static inline int
ra_vseq_begin(ra_site_slot_t *s)
{
    uint32_t  q = s->vseq;

    if (q & 1) {
        return 0;
    }
    __atomic_store_n(&s->vseq, q + 1, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_RELEASE);
    return 1;
}

static inline void
ra_vseq_end(ra_site_slot_t *s, int began)
{
    if (began) {
        __atomic_store_n(&s->vseq, s->vseq + 1, __ATOMIC_RELEASE);
    }
}


/* ---- hashes, record classes and body owners ------------------------ */

static inline uint32_t
ra_hash32(uint32_t h, const unsigned char *p, size_t n, int fold)
{
    size_t  i;

    for (i = 0; i < n; i++) {
        h = (h ^ (uint32_t) (fold ? ra_lower(p[i]) : p[i])) * 16777619u;
    }
    return h;
}

static inline uint32_t
ra_site_hash_of(const ra_site_slot_t *s)
{
    return ra_hash32(2166136261u, (const unsigned char *) s->name,
                     s->name_len < RA_SITE_NAME_MAX ? s->name_len
                                                    : RA_SITE_NAME_MAX, 0);
}

/*
 * A record is a (site, verification, name); the name in any case: a
 * generic bot's is the bytes it sends ("Ruby", "ruby", "RUBY"), one tool
 * whatever the case, whose robots.txt fetch under one spelling counts for
 * its requests under another.  The table's names have one spelling.  A
 * generic bot's name is never a table crawler's (ra_stat_is()): anyone's
 * program may call itself "kangaroo-bot" or "Kangaroo-Bot", which the
 * table's Kangaroo-Bot (User-Agent "Kangaroo Bot") is not; the hash
 * leaves the kind out, the two share a chain.
 */
static inline uint32_t
ra_stat_hash_of(uint32_t site, unsigned verification, const char *name,
    size_t len)
{
    uint32_t  h = 2166136261u;

    h = ra_hash32(h, (const unsigned char *) &site, sizeof(site), 0);
    h = (h ^ verification) * 16777619u;
    return ra_hash32(h, (const unsigned char *) name,
                     len < RA_NAME_MAX ? len : RA_NAME_MAX, 1);
}

static inline unsigned
ra_stat_cls_of(unsigned kind, unsigned verification)
{
    return kind == RA_UA_GENERIC ? RA_CLS_GENERIC
           : verification == RA_VERIFY_VERIFIED ? RA_CLS_KNOWN
           : RA_CLS_SUSPECT;
}

static inline unsigned
ra_stat_cls(const ra_stat_slot_t *st)
{
    return ra_stat_cls_of(st->kind, st->verification);
}

/* Where an evicted record's counts go: generic bots' apart (their
 * site's generic aggregate also keeps them), the others by verification */
static inline unsigned
ra_evicted_kind(const ra_stat_slot_t *st)
{
    return st->kind == RA_UA_GENERIC ? RA_EVICTED_GENERIC
           : st->verification % RA_EVICTED_GENERIC;
}

static inline uint32_t
ra_blob_owner(uint32_t site, unsigned k)
{
    return (site - 1) * RA_VERSIONS + k + 1;
}


/* ---- hints: read without the lock -------------------------------- */

/* *p = v when v is later, whichever process writes last a later time */
static inline void
ra_atomic_later(int64_t *p, int64_t v)
{
    int64_t  cur = __atomic_load_n(p, __ATOMIC_RELAXED);

    while (v > cur
           && !__atomic_compare_exchange_n(p, &cur, v, 1, __ATOMIC_RELAXED,
                                           __ATOMIC_RELAXED))
    {
        /* cur is the value another process stored: compare again */
    }
}

/* Does the site's slot hold the site of that epoch? */
static inline __attribute__((always_inline)) int
ra_site_holds(const ra_site_slot_t *s, uint32_t epoch)
{
    return __atomic_load_n(&s->epoch, __ATOMIC_ACQUIRE) == epoch
           && __atomic_load_n(&s->used, __ATOMIC_ACQUIRE);
}

/* Does the record's slot hold the record the hint names? */
static inline __attribute__((always_inline)) int
ra_stat_holds(const ra_stat_slot_t *st, const ra_ledger_hint_t *hint)
{
    return __atomic_load_n(&st->used, __ATOMIC_ACQUIRE)
           && __atomic_load_n(&st->site, __ATOMIC_RELAXED) == hint->site
           && __atomic_load_n(&st->site_epoch, __ATOMIC_RELAXED)
              == hint->epoch
           && __atomic_load_n(&st->tag, __ATOMIC_RELAXED) == hint->tag;
}

/* The site's slot when it holds the site of that epoch, else NULL */
static inline __attribute__((always_inline)) ra_site_slot_t *
ra_site_hinted(const ra_ledger_t *l, uint32_t site, uint32_t epoch)
{
    ra_site_slot_t  *s = ra_site_at(l, site);

    return s != NULL && epoch != 0 && ra_site_holds(s, epoch) ? s : NULL;
}

/* The record a hint names, when its slot still holds it */
static inline __attribute__((always_inline)) ra_stat_slot_t *
ra_stat_hinted(const ra_ledger_t *l, const ra_ledger_hint_t *hint)
{
    ra_stat_slot_t  *st = ra_stat_at(l, hint->stat);

    return st != NULL && hint->tag != 0 && ra_stat_holds(st, hint)
           ? st : NULL;
}


/* ---- what one file of the ledger calls in another --------------------- */

/* ra_ledger_versions.c: a version slot as the public ra_version_t */
void ra_version_out(const ra_version_slot_t *v, ra_version_t *out);

/* ra_ledger_answer.c: a crawler's request during a 5xx/429 episode of
 * the site's robots.txt */
void ra_episode_crawler(ra_site_slot_t *s, const ra_stat_slot_t *st);

/* ra_ledger_rebuild.c: rebuilds the structure from the slots (the lock
 * held) */
void ra_ledger_rebuild(const ra_ledger_t *l);

/* ra_ledger_records.c: the fold of an evicted record's counts into its
 * site's evicted sums, again (it is idempotent); and the repair of a fold
 * a process died in, for the rebuild: finished, the record freed */
void ra_fold_apply(ra_site_slot_t *s);
void ra_ledger_fold_repair(const ra_ledger_t *l);

/* ra_ledger_undeclared.c: the undeclared-crawler tables' place from
 * off in a region of size bytes (returns the offset past them), their
 * slots emptied, and a kept region's tables checked (one that does not
 * hold is marked, made anew by the next process to use it) */
size_t ra_undecl_area_layout(size_t size, size_t off, ra_undecl_area_t *a);
void ra_undecl_area_format(const ra_ledger_t *l);
void ra_undecl_area_verify(const ra_ledger_t *l);

/* ra_ledger_blob.c: the blob heap */
void ra_blob_format(const ra_ledger_t *l);
uint32_t ra_blob_alloc(ra_ledger_t *l, size_t len, uint32_t owner);
void ra_version_drop(ra_ledger_t *l, ra_version_slot_t *v);
int ra_blob_evict_one(ra_ledger_t *l);
void ra_blob_rebuild(const ra_ledger_t *l, uint32_t stamp);
const char *ra_blob_verify(const ra_ledger_t *l);

#endif /* RA_LEDGER_IMPL_H */
