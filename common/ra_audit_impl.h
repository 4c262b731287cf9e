/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private to the engine's files (ra_audit.c, ra_audit_robots.c,
 * ra_audit_count.c, ra_audit_request.c, ra_audit_page.c): the engine's
 * state (struct ra_audit_s and its per-process tables of hints) and the
 * few steps one of them takes from another.  Nothing outside those files
 * includes it; the public face of the engine is ra_audit.h.
 */
#ifndef RA_AUDIT_IMPL_H
#define RA_AUDIT_IMPL_H

#include <string.h>

#include "ra_audit.h"
#include "ra_refer.h"
#include "ra_undeclared_memo.h"

_Static_assert(RA_REFER_OPS <= 127, "an operator's index fits an int8_t");
_Static_assert(RA_REFER_OPS == RA_REFER_SLOTS,
               "the ledger keeps a counter per referrer-table operator");

#define RA_CACHE_SLOTS        64
#define RA_CACHE_BYTES        (64u * 1024 * 1024)

/*
 * Identities of recent User-Agents, per process: traffic repeats a few
 * hundred User-Agents over and over, and a hit (a hash of a sample of the
 * bytes and a compare of all of them, ra_ua_key()) costs a fraction of a
 * pass of the automaton.  512 sets of two ways, 1024 slots of at most 256
 * bytes: 280 KiB, whatever the traffic.
 */
#define RA_UA_SLOTS           1024
#define RA_UA_MAX             256

typedef struct {
    uint64_t             hash;
    const ra_crawler_t  *crawler;
    uint16_t             len;
    uint16_t             tok_off;       /* the token, as a span of the UA */
    uint16_t             tok_len;
    uint8_t              kind;
    uint8_t              used;          /* 0: empty; 2: its set's way
                                           filled last, 1: the other */
    unsigned char        ua[RA_UA_MAX];
} ra_ua_slot_t;

/*
 * The impostor alert gate (RA_IMPOSTOR_SLOTS in ra_audit.h): per process,
 * (site, crawler, client address block) to the time of its last alert
 * and the alerts held back since.  The site is kept in lower case and cut
 * at RA_SITE_NAME_MAX bytes, as the ledger keeps it; the block is
 * ra_alert_block()'s (/24 IPv4, /48 IPv6), so that rotating addresses of
 * one network are one key.
 */
typedef struct {
    uint64_t             hash;
    int64_t              last;          /* ms of the last alert */
    const ra_crawler_t  *crawler;       /* NULL: a free slot */
    uint32_t             suppressed;
    uint64_t             block;         /* ra_alert_block() */
    uint8_t              site_len;
    unsigned char        site[RA_SITE_NAME_MAX];
} ra_imp_slot_t;

_Static_assert(RA_SITE_NAME_MAX <= UINT8_MAX, "lengths fit a byte");
_Static_assert((RA_IMPOSTOR_SLOTS & (RA_IMPOSTOR_SLOTS - 1)) == 0,
               "a power of two");

typedef struct {
    uint64_t     hash;
    ra_rules_t  *rules;
    size_t       bytes;
    uint64_t     tick;
} ra_cache_t;

/*
 * The sites this process found last, by the name's bytes as requests give
 * it: a hit costs a compare and the ledger's check that the slot still
 * holds the site (its epoch), not a lower-casing, a hash and a chain walk
 * (ra_audit_site_locked()).
 */
#define RA_SITE_HINTS         8
/* A browser's request is counted by the hint without the lock
 * (ra_ledger_browser_hinted()); once this long after the hint was last
 * found or touched under the lock, it takes the lock to keep the site's
 * place among the most recently used (eviction goes by that order). */
#define RA_SITE_TOUCH_MS      1000

typedef struct {
    uint32_t       id;
    uint32_t       epoch;               /* 0: empty */
    int64_t        touched;             /* last found under the lock */
    uint16_t       len;
    unsigned char  name[RA_SITE_NAME_MAX];
    /* what a verdict read of the site last, without the lock, and at
     * which of its changes (ra_ledger_hint_t's facts; 0: none) */
    uint32_t           facts_at;
    ra_ledger_state_t  facts;
} ra_site_hint_t;

/*
 * The referrer table's operator of a crawler of the table, by the
 * crawler's address (the table lives as long as the engine): a hit costs
 * a compare, not a case-insensitive compare with every operator's name
 * (ra_refer_operator()).
 */
#define RA_REFER_HINTS        16

/*
 * The crawler records this process found last, by (crawler of the table,
 * or a generic bot's name, verification, site): a hit is checked by the
 * ledger against the
 * record's key (ra_ledger_stat_again_locked()) instead of hashing the
 * key and walking its chain; for RA_SITE_TOUCH_MS after that, a request
 * reads what its verdict needs without the lock
 * (ra_ledger_state_hinted(), checked by the site's epoch and the
 * record's tag).
 */
#define RA_STAT_HINTS         64

typedef struct {
    const ra_crawler_t  *crawler;       /* NULL: a generic bot's, by name */
    ra_ledger_hint_t     at;            /* the site's and record's ids, the
                                           site's epoch, the record's tag;
                                           stat 0: empty */
    int64_t              touched;       /* last found under the lock */
    unsigned             verification;
    uint8_t              name_len;      /* a generic bot's name */
    unsigned char        name[RA_NAME_MAX];
} ra_stat_hint_t;

typedef struct {
    const ra_crawler_t  *crawler;       /* NULL: empty */
    int                  op;
} ra_refer_hint_t;

/*
 * The operators of the Referers this process saw last, by the Referer's
 * bytes (browsers send the same few: "https://www.google.com/"): a hit
 * costs a hash and a compare, not the host's extraction and the table's
 * patterns (ra_refer_match()).  Referers over RA_REFERER_HINT_MAX bytes
 * are matched every time.
 */
#define RA_REFERER_HINTS      32
#define RA_REFERER_HINT_MAX   64

typedef struct {
    uint8_t        len;                 /* 0: empty */
    int8_t         op;
    unsigned char  text[RA_REFERER_HINT_MAX];
} ra_referer_hint_t;

/*
 * The ranges' verdict on the crawler addresses this process saw last, by
 * the address's bytes as requests give it and the crawler: a hit costs a
 * hash and a compare, not inet_pton() and the ranges' searches.  The
 * engine's ranges do not change (a reload makes another engine); a hint
 * also holds how many lists they had, and is taken again if that
 * changed.
 */
#define RA_VERIFY_HINTS       256
#define RA_VERIFY_HINT_TEXT   46        /* INET6_ADDRSTRLEN - 1 */

typedef struct {
    const ra_crawler_t  *crawler;       /* NULL: empty */
    size_t               lists;
    ra_addr_t            addr;
    uint8_t              verification;
    uint8_t              len;
    unsigned char        text[RA_VERIFY_HINT_TEXT];
} ra_verify_hint_t;

_Static_assert(RA_VERIFY_HINTS == 256, "a hint's index is a hash's top 8 bits");

struct ra_audit_s {
    ra_audit_conf_t  conf;
    ra_ledger_t      ledger;
    ra_cache_t       cache[RA_CACHE_SLOTS];
    size_t           cache_last;        /* the slot ra_cache_find() found
                                           last */
    size_t           cache_bytes;
    uint64_t         tick;
    /* the versions of the request being judged: never evicted while it
     * is, so that a set found cached when the bodies were copied out is
     * still there when the verdict asks for it */
    uint64_t         busy[RA_VERSIONS];
    uint64_t         body_copies;       /* ra_audit_body_copies() */
    ra_group_memo_t  groups;            /* of the cache's sets */
    ra_ua_slot_t    *ua;                /* RA_UA_SLOTS, or NULL */
    ra_imp_slot_t   *imp;               /* RA_IMPOSTOR_SLOTS: its own, or
                                           conf.impostors_of's */
    unsigned char   *zone;              /* conf.zone_name's copy */
    ra_refer_t       refer;             /* the referrer table */
    ra_sig_cache_t  *sig_cache;         /* with conf.sig_keys: this
                                           process's verifications */
    ra_site_hint_t   site_hint[RA_SITE_HINTS];
    ra_refer_hint_t  refer_hint[RA_REFER_HINTS];
    ra_referer_hint_t  referer_hint[RA_REFERER_HINTS];
    ra_stat_hint_t   stat_hint[RA_STAT_HINTS];
    ra_verify_hint_t verify_hint[RA_VERIFY_HINTS];
    /* the last robots.txt body with rules this process hashed (up to
     * RA_BODY_MEMO_MAX bytes): the same bytes again (the usual capture)
     * are compared, not hashed */
    unsigned char   *body_memo;
    size_t           body_memo_len;
    size_t           body_memo_cap;
    uint64_t         body_memo_hash;
    ra_undecl_memo_t undecl;            /* ra_audit_undeclared()'s */
};

#define RA_BODY_MEMO_MAX  (64 * 1024)

/* What the engine's resolve() needs to find a body in the ledger again:
 * the request's site (by name: ids do not outlive the lock) and time. */
typedef struct {
    ra_audit_t  *au;
    ra_str_t     site;
    int64_t      now;
} ra_gather_t;


/* ---- what one file of the engine takes from another -------------------- */

/* ra_audit.c: the identities of User-Agents, and the rule sets a verdict
 * asks for (the cache, else compiled) */
#define ra_ua_hash(p, n)  ra_hash_bytes(p, n)
void ra_identify(ra_audit_t *au, ra_str_t ua, ra_identity_t *id);
int ra_gather_resolve(const ra_judge_state_t *g, unsigned k,
    const ra_rules_t **rs);
/* The same when it needs no lock (the cache, or the facts alone); else
 * RA_EAGAIN: the body must be copied under the lock, then compiled */
int ra_gather_cached(const ra_judge_state_t *g, unsigned k,
    const ra_rules_t **rs);

/* ra_audit_request.c: the site and crawler record, found through this
 * process's hints (under the lock), and who a client is */
uint32_t ra_audit_site_locked(ra_audit_t *au, ra_str_t name, int64_t now,
    int create);
uint32_t ra_audit_stat_locked(ra_audit_t *au, uint32_t sid,
    const ra_crawler_t *c, const ra_stat_key_t *key, int64_t now);
int ra_audit_claim(ra_audit_t *au, const ra_request_t *req,
    ra_verdict_t *out, ra_identity_t *id, ra_str_t *tokens,
    ra_judge_who_t *who, ra_stat_key_t *key);

/* ra_audit_count.c: the count step's parts */
void ra_count_locked(ra_audit_t *au, uint32_t sid, uint32_t tid,
    const ra_request_t *req, ra_verdict_t *out, const ra_ledger_state_t *f);
unsigned ra_impostor_alert(ra_audit_t *au, const ra_request_t *req,
    const ra_verdict_t *v, uint32_t *suppressed);

/* Does the request target carry a query?  "/robots.txt?x" is not the
 * file crawlers read, whatever a backend answers to it. */
static inline int
ra_target_has_query(ra_str_t target)
{
    return target.len != 0 && memchr(target.data, '?', target.len) != NULL;
}

/* A GET (or a method the log did not say): the only fetch of a file. */
static inline int
ra_method_fetches(ra_str_t method)
{
    return method.len == 0
           || (method.len == 3 && memcmp(method.data, "GET", 3) == 0);
}

static inline uint64_t
ra_text_hash(ra_str_t t)
{
    return ra_ua_hash(t.data, t.len);
}

/*
 * The counters of a judged request's record (a mask of 1 <<
 * ra_counter_e): its request, its verdict's, its flags' and its refusal's.
 * ra_count_locked() adds them under the lock, ra_count_mask() without it.
 */
static inline uint32_t
ra_verdict_counters(const ra_verdict_t *out)
{
    uint32_t  m = 1u << RA_CNT_REQUESTS;

    switch (out->verdict) {
    case RA_VERDICT_COMPLIANT:
        m |= 1u << RA_CNT_COMPLIANT;
        break;
    case RA_VERDICT_VIOLATION:
        m |= 1u << RA_CNT_VIOLATION;
        break;
    case RA_VERDICT_STALE:
        m |= 1u << RA_CNT_STALE;
        break;
    case RA_VERDICT_UNREACHABLE:
        m |= 1u << RA_CNT_UNREACHABLE;
        break;
    case RA_VERDICT_EXEMPT:
        m |= 1u << RA_CNT_EXEMPT;
        break;
    case RA_VERDICT_UNKNOWN:
        m |= 1u << RA_CNT_UNKNOWN;
        break;
    default:
        break;
    }
    if (out->flags & RA_FLAG_CRAWL_DELAY) {
        m |= 1u << RA_CNT_CRAWL_DELAY;
    }
    if (out->flags & RA_FLAG_NO_ROBOTS_FETCH) {
        m |= 1u << RA_CNT_NO_ROBOTS_FETCH;
    }
    if (out->flags & RA_FLAG_UNREACHABLE_30D) {
        m |= 1u << RA_CNT_UNREACHABLE_30D;
    }
    if (out->refused > RA_REFUSE_NONE && out->refused < RA_REFUSE_COUNTED) {
        m |= 1u << (RA_CNT_REFUSED_VIOLATION + out->refused
                    - RA_REFUSE_VIOLATION);
    }
    return m;
}

#endif /* RA_AUDIT_IMPL_H */
