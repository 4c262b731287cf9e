/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Verdicts (docs/design.md, "Verdicts") over the shared ledger.
 *
 * A request takes the ledger's lock twice at most: once to find its site
 * and stat records and copy what the verdict depends on (the site's
 * versions, the crawler's last fetch and previous request), once to count
 * the verdict.  In between, ra_judge() decides without the lock.  With
 * this process's hints of the site and record found less than
 * RA_SITE_TOUCH_MS ago, a browser's count, the read and a count that
 * moves only counters take no lock (docs/design.md, "Locking").  Rule
 * sets are cached in this process by version hash; a version the verdict
 * needs and this process has not compiled has its body copied out under
 * the lock (a third, short hold), once, and is compiled outside it.  A
 * request whose needed versions are all compiled copies no body.
 */
#include <stdlib.h>
#include <string.h>

#include "ra_alert.h"
#include "ra_audit.h"
#include "ra_digest.h"
#include "ra_http.h"
#include "ra_lint.h"
#include "ra_refer.h"

_Static_assert(RA_REFER_OPS <= 127, "an operator's index fits an int8_t");
_Static_assert(RA_REFER_OPS == RA_REFER_SLOTS,
               "the ledger keeps a counter per referrer-table operator");

#define RA_CACHE_SLOTS        64
#define RA_CACHE_BYTES        (64u * 1024 * 1024)
#define RA_TOKENS_MAX         8       /* a crawler's tokens judged */
#define RA_JUDGE_STACK        RA_MATCH_STACK  /* canonical paths up to this
                                                 size need no memory */

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
};

#define RA_BODY_MEMO_MAX  (64 * 1024)

ra_audit_t *
ra_audit_create(const ra_audit_conf_t *conf, ra_ledger_t *ledger)
{
    ra_audit_t  *au;

    au = ra_alloc(conf->alloc, sizeof(ra_audit_t));
    if (au == NULL) {
        return NULL;
    }
    memset(au, 0, sizeof(*au));
    au->conf = *conf;
    au->ledger = *ledger;
    if (au->conf.alert_interval < 0) {
        au->conf.alert_interval = RA_ALERT_INTERVAL_DEFAULT;
    }
    if (au->conf.alert_budget.site == 0) {
        au->conf.alert_budget.site = RA_ALERT_SITE_PER_MIN;
    }
    if (au->conf.alert_budget.total == 0) {
        au->conf.alert_budget.total = RA_ALERT_TOTAL_PER_MIN;
    }
    au->conf.zone_name = ra_str("the ledger", 10);
    if (conf->zone_name.len) {
        au->zone = ra_alloc(conf->alloc, conf->zone_name.len);
        if (au->zone == NULL) {
            ra_free(conf->alloc, au);
            return NULL;
        }
        memcpy(au->zone, conf->zone_name.data, conf->zone_name.len);
        au->conf.zone_name = ra_str(au->zone, conf->zone_name.len);
    }
    if (au->conf.cache_bytes == 0) {
        au->conf.cache_bytes = RA_CACHE_BYTES;
    }
    /* the embedded table loads (a unit test checks it); were it not to,
     * no referral would be counted */
    if (ra_refer_builtin(&au->refer) != RA_OK) {
        au->refer.nops = 0;
    }
    if (conf->impostors_of != NULL) {
        au->imp = conf->impostors_of->imp;
    } else {
        au->imp = ra_alloc(conf->alloc,
                           RA_IMPOSTOR_SLOTS * sizeof(ra_imp_slot_t));
        if (au->imp == NULL) {
            ra_free(conf->alloc, au->zone);
            ra_free(conf->alloc, au);
            return NULL;
        }
        memset(au->imp, 0, RA_IMPOSTOR_SLOTS * sizeof(ra_imp_slot_t));
    }
    /* without the memory, every User-Agent is identified afresh */
    au->ua = ra_alloc(conf->alloc, RA_UA_SLOTS * sizeof(ra_ua_slot_t));
    if (au->ua != NULL) {
        memset(au->ua, 0, RA_UA_SLOTS * sizeof(ra_ua_slot_t));
    }
    /* without it, every signature is verified afresh and unbudgeted */
    if (conf->sig_keys != NULL) {
        au->sig_cache = ra_alloc(conf->alloc, sizeof(ra_sig_cache_t));
        if (au->sig_cache != NULL) {
            memset(au->sig_cache, 0, sizeof(ra_sig_cache_t));
            au->sig_cache->per_second = conf->sig_verify_per_sec;
        }
    }
    return au;
}

const ra_sig_cache_t *
ra_audit_sig_cache(const ra_audit_t *au)
{
    return au->sig_cache;
}

const ra_crawlers_t *
ra_audit_crawlers(const ra_audit_t *au)
{
    return au != NULL ? au->conf.crawlers : NULL;
}

const ra_ranges_t *
ra_audit_ranges(const ra_audit_t *au)
{
    return au != NULL ? au->conf.ranges : NULL;
}

void
ra_audit_destroy(ra_audit_t *au)
{
    size_t  i;

    if (au == NULL) {
        return;
    }
    for (i = 0; i < RA_CACHE_SLOTS; i++) {
        ra_rules_free(au->cache[i].rules);
    }
    ra_free(au->conf.alloc, au->zone);
    ra_free(au->conf.alloc, au->body_memo);
    ra_free(au->conf.alloc, au->ua);
    ra_free(au->conf.alloc, au->sig_cache);
    if (au->conf.impostors_of == NULL) {
        ra_free(au->conf.alloc, au->imp);
    }
    ra_free(au->conf.alloc, au);
}


uint64_t
ra_audit_body_copies(const ra_audit_t *au)
{
    return au->body_copies;
}


/* ---- the rule-set cache --------------------------------------------- */

static ra_cache_t *
ra_cache_find(ra_audit_t *au, uint64_t hash)
{
    size_t       i;
    ra_cache_t  *c = &au->cache[au->cache_last];

    /* most requests are for the site and version of the one before */
    if (c->hash != hash || c->rules == NULL) {
        for (i = 0, c = NULL; i < RA_CACHE_SLOTS; i++) {
            if (au->cache[i].hash == hash && au->cache[i].rules != NULL) {
                c = &au->cache[i];
                au->cache_last = i;
                break;
            }
        }
        if (c == NULL) {
            return NULL;
        }
    }
    c->tick = ++au->tick;
    return c;
}

static void
ra_cache_drop(ra_audit_t *au, ra_cache_t *c)
{
    ra_group_memo_forget(&au->groups, c->rules);
    au->cache_bytes -= c->bytes;
    ra_rules_free(c->rules);
    memset(c, 0, sizeof(*c));
}

static int
ra_cache_busy(const ra_audit_t *au, uint64_t hash)
{
    size_t  k;

    for (k = 0; k < RA_VERSIONS; k++) {
        if (au->busy[k] == hash) {
            return 1;
        }
    }
    return 0;
}

/* Compiles body (or the empty rule set) into the cache; the least
 * recently used entries make room.  NULL when out of memory. */
static ra_rules_t *
ra_cache_add(ra_audit_t *au, uint64_t hash, ra_str_t body, int rules)
{
    size_t       i, bytes;
    ra_cache_t  *c, *victim, *empty;
    ra_rules_t  *rs;

    if (rules) {
        if (ra_rules_compile(body, au->conf.alloc, &rs, NULL) != RA_OK) {
            return NULL;
        }
    } else if (ra_rules_empty(au->conf.alloc, &rs) != RA_OK) {
        return NULL;
    }

    /*
     * Evict least recently used entries until the new set fits, then take
     * a free slot.  An empty slot must not end the search while the set
     * does not fit (that looped forever), and the sets of the request
     * being judged stay (see busy).  With nothing else to evict, the
     * budget is exceeded by those sets.
     */
    bytes = ra_rules_bytes(rs);
    for ( ;; ) {
        victim = NULL;
        empty = NULL;
        for (i = 0; i < RA_CACHE_SLOTS; i++) {
            c = &au->cache[i];
            if (c->rules == NULL) {
                if (empty == NULL) {
                    empty = c;
                }
            } else if (!ra_cache_busy(au, c->hash)
                       && (victim == NULL || c->tick < victim->tick))
            {
                victim = c;
            }
        }
        if (victim == NULL
            || au->cache_bytes + bytes <= au->conf.cache_bytes)
        {
            if (empty == NULL) {
                if (victim == NULL) {
                    /* every slot holds a busy set: cannot happen with
                     * more slots than versions, but never lose rs */
                    ra_rules_free(rs);
                    return NULL;
                }
                ra_cache_drop(au, victim);      /* every slot is used */
                empty = victim;
            }
            break;
        }
        ra_cache_drop(au, victim);
    }
    victim = empty;
    victim->hash = hash;
    victim->rules = rs;
    victim->bytes = ra_rules_bytes(rs);
    victim->tick = ++au->tick;
    au->cache_bytes += victim->bytes;
    return rs;
}


/* ---- identities ------------------------------------------------------ */

/* 8 bytes a step: cheap enough that a hit costs far less than a pass */
static uint64_t
ra_ua_hash(const unsigned char *p, size_t n)
{
    size_t    all = n;
    uint64_t  h = 0x9e3779b97f4a7c15ULL ^ n, g = 0x2545f4914f6cdd1dULL, w, v;

    /* sixteen bytes a step, in two lanes */
    for ( /* void */ ; n >= 16; p += 16, n -= 16) {
        memcpy(&w, p, 8);
        memcpy(&v, p + 8, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdULL;
        g = (g ^ v) * 0xc4ceb9fe1a85ec53ULL;
        h ^= g >> 29;
        g ^= h >> 32;
    }
    h ^= g * 0x9e3779b97f4a7c15ULL;
    for ( /* void */ ; n >= 8; p += 8, n -= 8) {
        memcpy(&w, p, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdULL;
        h ^= h >> 32;
    }
    /* the last bytes: the last eight (some hashed already) when there
     * were that many, else one by one (p may be NULL when n is 0) */
    w = 0;
    if (n && all >= 8) {
        memcpy(&w, p + n - 8, 8);
    } else {
        for ( /* void */ ; n; n--) {
            w = w << 8 | *p++;
        }
    }
    h = (h ^ w) * 0xc4ceb9fe1a85ec53ULL;
    return h ^ (h >> 29);
}

/*
 * The identity cache's key: the length and a sample of the bytes, not
 * all of them (a hit compares the exact bytes anyway, so a sample only
 * has to tell apart the User-Agents that share a set): the last 32 bytes,
 * where browsers and crawlers put their versions and names, and the
 * words at a quarter, a half and three quarters of the length.  A shorter
 * one is hashed whole.  Two User-Agents alike in all of these share a set
 * of two ways (ra_identify()).
 */
static uint64_t
ra_ua_key(const unsigned char *p, size_t n)
{
    uint64_t  a, b, c, d, e, f, g, x, y;

    if (n < 48) {
        return ra_ua_hash(p, n);
    }
    /* loaded into scalars, not arrays: no copy through the stack (and no
     * stack guard) on the hit path */
    memcpy(&a, p + n - 32, 8);
    memcpy(&b, p + n - 24, 8);
    memcpy(&c, p + n - 16, 8);
    memcpy(&d, p + n - 8, 8);
    memcpy(&e, p + n / 4, 8);
    memcpy(&f, p + n / 2, 8);
    memcpy(&g, p + n / 2 + n / 4, 8);
    x = (a ^ e) * 0xff51afd7ed558ccdULL ^ (c ^ g);
    y = (b ^ f) * 0xc4ceb9fe1a85ec53ULL ^ (d ^ (uint64_t) n);
    x = (x ^ (y << 23 | y >> 41)) * 0x9e3779b97f4a7c15ULL;
    return x ^ (x >> 29);
}

/* Is the slot's User-Agent this one? */
static int
ra_ua_same(const ra_ua_slot_t *slot, uint64_t h, ra_str_t ua)
{
    return slot->hash == h && slot->len == ua.len && slot->used
           && (ua.len == 0 || memcmp(slot->ua, ua.data, ua.len) == 0);
}

/* A miss: the automaton's answer, kept in the way of the set not filled
 * last (used 2: the last one filled, 1: the other one).  Out of line, so
 * that the hit path stays a few registers and no stack frame. */
static void __attribute__((noinline))
ra_identify_miss(ra_audit_t *au, ra_ua_slot_t *slot, uint64_t h, ra_str_t ua,
    ra_identity_t *id)
{
    (void) ra_crawlers_identify(au->conf.crawlers, ua, id);

    if (slot->used == 2) {
        slot->used = 1;
        slot++;
    } else if (slot[1].used) {
        slot[1].used = 1;
    }
    slot->used = 2;
    slot->hash = h;
    slot->len = (uint16_t) ua.len;
    if (ua.len) {
        memcpy(slot->ua, ua.data, ua.len);
    }
    slot->kind = (uint8_t) id->kind;
    slot->crawler = id->crawler;
    /* a generic bot's token is a span of the UA; a known crawler's lives
     * in the table and is found again through the crawler */
    if (id->token.len && id->token.data >= ua.data
        && id->token.data + id->token.len <= ua.data + ua.len)
    {
        slot->tok_off = (uint16_t) (id->token.data - ua.data);
        slot->tok_len = (uint16_t) id->token.len;
    } else {
        slot->tok_off = slot->tok_len = 0;
    }
}

static void
ra_identify(ra_audit_t *au, ra_str_t ua, ra_identity_t *id)
{
    uint64_t       h;
    ra_ua_slot_t  *slot;

    if (au->ua == NULL || ua.len > RA_UA_MAX) {
        (void) ra_crawlers_identify(au->conf.crawlers, ua, id);
        return;
    }
    /* two ways a set; a hit is confirmed by all the bytes */
    h = ra_ua_key(ua.data, ua.len);
    slot = &au->ua[(h & (RA_UA_SLOTS / 2 - 1)) * 2];
    if (ra_ua_same(slot, h, ua) || ra_ua_same(++slot, h, ua)) {
        id->kind = slot->kind;
        id->crawler = slot->crawler;
        id->token = ra_str(ua.data + slot->tok_off, slot->tok_len);
        return;
    }
    ra_identify_miss(au, slot - 1, h, ua, id);
}


/* ---- robots.txt answers ------------------------------------------------ */

/* on every request's path: inlined (defined with the requests below) */
static inline int ra_audit_client(ra_audit_t *au, const ra_request_t *req,
    ra_verdict_t *out, ra_identity_t *id, ra_sig_verdict_t *sv, int *no_ua);
static inline void ra_audit_key(ra_audit_t *au, const ra_identity_t *id,
    const ra_request_t *req, const ra_sig_verdict_t *sv, ra_verdict_t *out,
    ra_str_t *tokens, ra_judge_who_t *who, ra_stat_key_t *key);
static uint32_t ra_audit_site_locked(ra_audit_t *au, ra_str_t name,
    int64_t now, int create);
static uint32_t ra_audit_stat_locked(ra_audit_t *au, uint32_t sid,
    const ra_crawler_t *c, const ra_stat_key_t *key, int64_t now);

static void
ra_version_from_answer(ra_version_t *v, const ra_answer_t *ans)
{
    size_t  n;

    v->status = (uint16_t) (ans->status > 0 && ans->status < 1000
                            ? ans->status : 0);
    /* what was served, saturated: a 4 GiB answer is not a small one */
    v->size = (uint32_t) ((ans->size ? ans->size : ans->body.len)
                          > UINT32_MAX ? UINT32_MAX
                          : (ans->size ? ans->size : ans->body.len));
    v->truncated = ans->truncated
                   || (ans->content_encoding.len == 0
                       && v->size > ans->body.len);
    n = ans->content_encoding.len < RA_CODING_MAX
        ? ans->content_encoding.len : RA_CODING_MAX;
    if (n) {
        memcpy(v->coding, ans->content_encoding.data, n);
        v->coding_len = (uint8_t) n;
        v->decoded = (uint32_t) ((ans->decoded ? ans->decoded
                                               : ans->body.len)
                                 > UINT32_MAX ? UINT32_MAX
                                 : (ans->decoded ? ans->decoded
                                                 : ans->body.len));
    }
    n = ans->content_type.len < RA_CTYPE_MAX ? ans->content_type.len
                                             : RA_CTYPE_MAX;
    if (n) {
        memcpy(v->ctype, ans->content_type.data, n);
        v->ctype_len = (uint8_t) n;
    }
}

static void
ra_version_lint_from(ra_version_t *v, const ra_version_t *from)
{
    v->lint_errors = from->lint_errors;
    v->lint_warnings = from->lint_warnings;
    v->lint_infos = from->lint_infos;
    v->groups = from->groups;
    v->rules = from->rules;
    v->sitemaps = from->sitemaps;
}

/* A 2xx the glue could not decode: the site keeps its version, and says
 * so once (RA202) until an answer decodes again. */
static int
ra_audit_undecodable(ra_audit_t *au, ra_str_t site, const ra_answer_t *ans,
    int64_t now)
{
    int           same;
    uint32_t      sid;
    ra_buf_t      name, coding;
    ra_ledger_t  *l = &au->ledger;

    ra_ledger_lock(l);
    sid = ra_ledger_site_locked(l, site, now);
    same = ra_ledger_undecodable_locked(l, sid, ans->status,
                                        ans->content_encoding, now);
    ra_ledger_unlock(l);
    if (same) {
        return RA_OK;
    }

    /* both came from the network: escaped for the log */
    ra_buf_init(&name, au->conf.alloc, 0, 4 * RA_SITE_NAME_MAX);
    ra_buf_init(&coding, au->conf.alloc, 0, 4 * RA_CODING_MAX);
    ra_buf_log(&name, site);
    ra_buf_log(&coding, ans->content_encoding);
    ra_logf(au->conf.host, NULL, RA_LOG_WARN, RA_TAG_UNDECODABLE,
            "site=\"%.*s\" robots.txt sent with Content-Encoding \"%.*s\" "
            "could not be decoded (%s): the previous version stays in "
            "force", (int) name.len,
            name.data != NULL ? (const char *) name.data : "",
            (int) coding.len,
            coding.data != NULL ? (const char *) coding.data : "",
            ans->decode_error != NULL ? ans->decode_error : "unknown");
    ra_buf_release(&name);
    ra_buf_release(&coding);
    return RA_OK;
}

/* ra_ledger_version_hash(status, body), by the last body's when these are
 * its bytes (a 2xx answer's hash is its body's, whatever the status) */
static uint64_t
ra_audit_version_hash(ra_audit_t *au, int status, ra_str_t body)
{
    uint64_t        h;
    unsigned char  *p;

    if (body.len == 0 || body.len > RA_BODY_MEMO_MAX
        || ra_answer_of_status(status) != RA_ANSWER_RULES)
    {
        return ra_ledger_version_hash(status, body);
    }
    if (au->body_memo_len == body.len
        && memcmp(au->body_memo, body.data, body.len) == 0)
    {
        return au->body_memo_hash;
    }
    h = ra_ledger_version_hash(status, body);
    if (au->body_memo_cap < body.len) {
        p = ra_alloc(au->conf.alloc, body.len);
        if (p == NULL) {
            return h;                   /* the memo as it was */
        }
        ra_free(au->conf.alloc, au->body_memo);
        au->body_memo = p;
        au->body_memo_cap = body.len;
    }
    memcpy(au->body_memo, body.data, body.len);
    au->body_memo_len = body.len;
    au->body_memo_hash = h;
    return h;
}

/* Records an answer that is the site's: lints it, stores it as the
 * current version when it is new (hash: its version's). */
static int
ra_audit_record(ra_audit_t *au, ra_str_t site, const ra_answer_t *ans,
    uint64_t hash, int64_t now)
{
    int             rc;
    uint32_t        sid;
    ra_lint_t       lint;
    ra_version_t    v, old;
    ra_lint_http_t  http;
    ra_ledger_t    *l = &au->ledger;

    if (ans->undecodable && !ans->initial) {
        return ra_audit_undecodable(au, site, ans, now);
    }

    memset(&v, 0, sizeof(v));
    ra_version_from_answer(&v, ans);
    v.hash = hash;                      /* not hashed again under the lock */

    /* the same version again (the usual case): no need to lint it */
    ra_ledger_lock(l);
    sid = ra_ledger_site_locked(l, site, now);
    if (ans->initial && ra_ledger_has_version_locked(l, sid)) {
        ra_ledger_unlock(l);
        return RA_OK;
    }
    if (ra_answer_of_status(ans->status) != RA_ANSWER_UNREACHABLE
        && ra_ledger_find_version_locked(l, sid, hash, &old) >= 0)
    {
        ra_version_lint_from(&v, &old);
        memcpy(v.sha256, old.sha256, sizeof(v.sha256));
        (void) ra_ledger_answer_locked(l, sid, &v, ans->body, now);
        ra_ledger_unlock(l);
        return RA_OK;
    }
    ra_ledger_unlock(l);

    memset(&http, 0, sizeof(http));
    http.status = ans->status;
    http.content_type = ans->content_type;
    /* crawlers' limits are on the decoded body */
    http.size = v.coding_len ? v.decoded : v.size;
    http.truncated = v.truncated;
    http.crawlers = au->conf.crawlers;  /* names the policy tokens */
    http.redirects = ans->hop;
    rc = ra_lint(ans->body, &http, au->conf.alloc, &lint);
    if (rc == RA_OK) {
        v.lint_errors = (uint16_t) lint.summary.errors;
        v.lint_warnings = (uint16_t) lint.summary.warnings;
        v.lint_infos = (uint16_t) lint.summary.infos;
        v.groups = (uint16_t) lint.summary.groups;
        v.rules = lint.summary.rules;
        v.sitemaps = lint.summary.sitemaps;
    }
    ra_lint_free(&lint, au->conf.alloc);
    /* what identifies the file for the operator: a new version is
     * digested once, outside the lock */
    (void) ra_sha256(ans->body, v.sha256);

    ra_ledger_lock(l);
    sid = ra_ledger_site_locked(l, site, now);
    /* unless one was captured meanwhile */
    if (!ans->initial || !ra_ledger_has_version_locked(l, sid)) {
        (void) ra_ledger_answer_locked(l, sid, &v, ans->body, now);
    }
    ra_ledger_unlock(l);

    if (rc == RA_ENOMEM) {
        ra_logf(au->conf.host, NULL, RA_LOG_ERR, RA_TAG_NOMEM,
                "out of memory recording robots.txt");
    }
    return rc;
}

/* Does the request target carry a query?  "/robots.txt?x" is not the
 * file crawlers read, whatever a backend answers to it. */
static int
ra_target_has_query(ra_str_t target)
{
    return target.len != 0 && memchr(target.data, '?', target.len) != NULL;
}

/* A GET (or a method the log did not say): the only fetch of a file. */
static int
ra_method_fetches(ra_str_t method)
{
    return method.len == 0
           || (method.len == 3 && memcmp(method.data, "GET", 3) == 0);
}

static uint64_t
ra_text_hash(ra_str_t t)
{
    return ra_ua_hash(t.data, t.len);
}

int
ra_audit_redirects(const ra_audit_t *au)
{
    return ra_ledger_redirects(&au->ledger);
}

/* The canonical path of a path into dst (RA_REDIRECT_PATH_MAX + 1
 * bytes): its length, or 0 when that is longer, or the path is not one
 * the servers agree on, or it has a query (a redirect target is a file,
 * and a target with a query is no robots.txt: ra_http_is_robots()). */
#define RA_REDIRECT_SPELLING_MAX  (4 * RA_REDIRECT_PATH_MAX)

static size_t
ra_redirect_canon(ra_str_t path, unsigned char *dst)
{
    size_t         n;
    unsigned       flags;
    unsigned char  buf[RA_REDIRECT_SPELLING_MAX + 1];

    if (path.len == 0 || path.len > RA_REDIRECT_SPELLING_MAX
        || memchr(path.data, '?', path.len) != NULL)
    {
        return 0;
    }
    n = ra_http_canon(path, buf, &flags);
    if (n == 0 || n > RA_REDIRECT_PATH_MAX
        || (flags & (RA_CANON_ABOVE_ROOT | RA_CANON_BAD_ESCAPE
                     | RA_CANON_ENCODED_SLASH)))
    {
        return 0;
    }
    memcpy(dst, buf, n);
    return n;
}

unsigned
ra_audit_robots_hop(ra_audit_t *au, ra_str_t site, ra_str_t target,
    int64_t now)
{
    size_t         n;
    uint32_t       sid;
    unsigned       hop;
    unsigned char  canon[RA_REDIRECT_PATH_MAX + 1];
    ra_ledger_t   *l = &au->ledger;

    if (!ra_ledger_redirects(l)) {
        return 0;
    }
    n = ra_redirect_canon(ra_http_target_path(target), canon);
    if (n == 0) {
        return 0;
    }
    ra_ledger_lock(l);
    sid = ra_audit_site_locked(au, site, now, 0);
    hop = sid != 0 ? ra_ledger_redirect_hop_locked(l, sid, ra_str(canon, n))
                   : 0;
    ra_ledger_unlock(l);
    return hop;
}

/* Is host (a URL's authority: no user information, any port) the
 * site's name?  Only the server's name counts: the Host a request names
 * is the client's to choose. */
static int
ra_redirect_same_host(ra_str_t host, ra_str_t site)
{
    const unsigned char  *c;

    if (memchr(host.data, '@', host.len) != NULL) {
        return 0;
    }
    if (host.len && host.data[0] != '['
        && (c = memchr(host.data, ':', host.len)) != NULL)
    {
        host.len = (size_t) (c - host.data);
    }
    return site.len != 0 && ra_strcaseeq(host, site);
}

/*
 * Where a 3xx's Location leads from base (the path it answered): the
 * canonical path of the site into dst (RA_REDIRECT_PATH_MAX + 1 bytes)
 * and its length; 0 when it leads to another host or to nothing the
 * site serves.  A Location is an absolute URL, a scheme-relative one, an
 * absolute path, or a path relative to base (RFC 9110 10.2.2, RFC 3986
 * 5.2); its fragment is dropped.
 */
static size_t
ra_redirect_target(ra_str_t location, ra_str_t base, ra_str_t site,
    unsigned char *dst)
{
    size_t                i, n;
    ra_str_t              loc = location, host;
    const unsigned char  *p, *e;
    unsigned char         joined[2 * RA_REDIRECT_SPELLING_MAX + 1];

    while (loc.len && (loc.data[0] == ' ' || loc.data[0] == '\t')) {
        loc.data++;
        loc.len--;
    }
    while (loc.len && (loc.data[loc.len - 1] == ' '
                       || loc.data[loc.len - 1] == '\t'))
    {
        loc.len--;
    }
    if ((p = memchr(loc.data, '#', loc.len)) != NULL) {
        loc.len = (size_t) (p - loc.data);
    }
    if (loc.len == 0) {
        return 0;
    }
    p = loc.data;
    e = loc.data + loc.len;
    if (ra_startswith_ci(loc, "http://")) {
        p += 7;
    } else if (ra_startswith_ci(loc, "https://")) {
        p += 8;
    } else if (loc.len >= 2 && p[0] == '/' && p[1] == '/') {
        p += 2;
    } else if (p[0] == '/') {
        return ra_redirect_canon(loc, dst);
    } else {
        /* relative to base's directory; a scheme ("ftp:") is no path */
        for (i = 0; i < loc.len && loc.data[i] != '/'; i++) {
            if (loc.data[i] == ':') {
                return 0;
            }
        }
        for (n = base.len; n > 0 && base.data[n - 1] != '/'; n--) {
            /* void: base's directory, its '/' kept */
        }
        if (n == 0 || n > RA_REDIRECT_SPELLING_MAX
            || loc.len > RA_REDIRECT_SPELLING_MAX)
        {
            return 0;
        }
        memcpy(joined, base.data, n);
        memcpy(joined + n, loc.data, loc.len);
        return ra_redirect_canon(ra_str(joined, n + loc.len), dst);
    }
    /* an authority, then the path */
    host.data = p;
    while (p < e && *p != '/' && *p != '?') {
        p++;
    }
    host.len = (size_t) (p - host.data);
    if (!ra_redirect_same_host(host, site)) {
        return 0;
    }
    if (p == e) {
        dst[0] = '/';
        return 1;
    }
    return ra_redirect_canon(ra_str(p, (size_t) (e - p)), dst);
}

/* Where a 3xx answer to a robots.txt request leads within the site (its
 * canonical path into dst, RA_REDIRECT_PATH_MAX + 1 bytes, and its
 * length), 0 for any other answer or a target elsewhere; *same: the
 * target is the path it answered (http to https: the same file, served
 * elsewhere) */
static size_t
ra_answer_redirect(const ra_answer_t *ans, ra_str_t site, unsigned char *dst,
    int *same)
{
    size_t               n;
    ra_str_t             base = ra_str("/robots.txt", 11);
    unsigned char        canon[RA_REDIRECT_PATH_MAX + 1];

    *same = 0;
    if (ans->status < 300 || ans->status >= 400 || ans->location.len == 0) {
        return 0;
    }
    /* relative to the path it answered, as the chain holds it */
    if (ans->hop > 0) {
        n = ra_redirect_canon(ra_http_target_path(ans->req->uri), canon);
        if (n == 0) {
            return 0;
        }
        base = ra_str(canon, n);
    }
    n = ra_redirect_target(ans->location, base, site, dst);
    *same = n != 0 && (ans->hop == 0 ? ra_http_is_robots(ra_str(dst, n))
                                     : n == base.len
                                       && memcmp(dst, base.data, n) == 0);
    return n;
}

/* The site's answer at hop ends the chain there, or (to: a path of the
 * site, n > 0) redirects to to: recorded, 1.  0 when the chain ends, with
 * *looped set when it ends at a redirect that cannot be followed (a
 * loop, a sixth hop): lint reads it as past the limit. */
static int
ra_audit_redirect(ra_audit_t *au, ra_str_t site, unsigned hop,
    const unsigned char *to, size_t n, int64_t now, int *looped)
{
    int            k = -1;
    uint32_t       sid;
    ra_ledger_t   *l = &au->ledger;

    *looped = 0;
    ra_ledger_lock(l);
    sid = ra_ledger_site_locked(l, site, now);
    if (n != 0 && !ra_http_is_robots(ra_str(to, n))) {
        k = ra_ledger_redirect_locked(l, sid, hop, ra_str(to, n));
    }
    if (k < 0) {
        ra_ledger_redirect_end_locked(l, sid, hop);
        *looped = n != 0;
    }
    ra_ledger_unlock(l);
    return k > 0;
}

int
ra_audit_robots(ra_audit_t *au, ra_str_t site, const ra_answer_t *ans,
    int64_t now)
{
    int                  rc, everyone, crawler, looped, same, no_ua;
    size_t               to_len;
    unsigned             answer;
    uint32_t             sid, tid;
    uint64_t             hash, bound, claim;
    ra_str_t             tokens[RA_TOKENS_MAX];
    ra_answer_t          past;
    ra_verdict_t         cv;
    ra_identity_t        id;
    ra_judge_who_t       who;
    ra_stat_key_t        key;
    ra_sig_verdict_t     sv;
    unsigned char        to[RA_REDIRECT_PATH_MAX + 1];
    ra_ledger_t         *l = &au->ledger;
    const ra_request_t  *req = ans->req;

    answer = ra_answer_of_status(ans->status);
    if (req != NULL
        && ((ans->hop == 0 && ra_target_has_query(req->uri))
            || !ra_method_fetches(req->method)
            /* a redirect's target that the chain no longer reaches (its
             * first answer changed meanwhile) is robots.txt no more */
            || (ans->hop > 0
                && ra_audit_robots_hop(au, site, req->uri, now) != ans->hop)))
    {
        return RA_OK;                   /* not the file: nobody's */
    }
    hash = ra_audit_version_hash(au, ans->status, ans->body);
    if (req == NULL) {
        return ra_audit_record(au, site, ans, hash, now);
    }
    /* a redirect within the site is followed, not read as "allow all" */
    to_len = ra_answer_redirect(ans, site, to, &same);

    memset(&cv, 0, sizeof(cv));
    crawler = ra_audit_client(au, req, &cv, &id, &sv, &no_ua);
    if (!crawler && answer == RA_ANSWER_UNREACHABLE) {
        /* a failure is evidence only when a crawler met it: a browser
         * or a client without a User-Agent gets a rate limit's 503 as
         * easily */
        return RA_OK;
    }
    if (crawler) {
        ra_audit_key(au, &id, req, &sv, &cv, tokens, &who, &key);
    }

    /* a 2xx is the site's file; any other answer is the site's only when
     * a verified crawler got it, or a second client after a first (a
     * redirect: to the same place) */
    everyone = !same;
    if (everyone && answer != RA_ANSWER_RULES
        && !(crawler && id.kind == RA_UA_KNOWN
             && cv.verification == RA_VERIFY_VERIFIED))
    {
        claim = to_len ? hash ^ ra_text_hash(ra_str(to, to_len)) : hash;
        ra_ledger_lock(l);
        sid = ra_ledger_site_locked(l, site, now);
        everyone = ra_ledger_answer_everyone_locked(l, sid, claim,
                       ra_alert_block(req->addr),
                       ra_text_hash(req->user_agent), now);
        ra_ledger_unlock(l);
    }
    rc = RA_OK;
    looped = 0;
    if (everyone
        && !ra_audit_redirect(au, site, ans->hop, to, to_len, now, &looped))
    {
        if (looped) {
            /* a loop or a sixth hop: Google reads the answer as a 404
             * ("allow all"), and lint says the limit was passed */
            past = *ans;
            past.hop = RA_REDIRECT_HOPS + 1;
            rc = ra_audit_record(au, site, &past, hash, now);
        } else {
            rc = ra_audit_record(au, site, ans, hash, now);
        }
    }

    /* the crawler is bound by what it got: this version (a 2xx that could
     * not be decoded: the one in force), "allow all", or a failure its
     * status says; one sent on within the site (or to the same path by
     * another scheme) reads the site's file */
    if (crawler) {
        bound = answer == RA_ANSWER_UNREACHABLE
                || (answer == RA_ANSWER_RULES && ans->undecodable)
                || (to_len && !looped)
                ? 0 : hash;
        ra_ledger_lock(l);
        sid = ra_audit_site_locked(au, site, now, 1);
        tid = ra_audit_stat_locked(au, sid, id.crawler, &key, now);
        ra_ledger_bind_locked(l, sid, tid, ans->status, bound, now);
        ra_ledger_unlock(l);
    }
    return rc;
}


/* ---- the judge --------------------------------------------------------- */

static int
ra_judge_rules(const ra_judge_state_t *g, unsigned k, const ra_rules_t **rs)
{
    *rs = NULL;
    if (g->resolve != NULL) {
        return g->resolve(g, k, rs);
    }
    *rs = g->rules[k];
    return RA_OK;
}

void
ra_group_memo_forget(ra_group_memo_t *memo, const ra_rules_t *rs)
{
    size_t  i;

    for (i = 0; memo != NULL && i < RA_GROUP_MEMO; i++) {
        if (memo->slot[i].rules == rs) {
            memo->slot[i].rules = NULL;
        }
    }
}

/*
 * The memo's slots go in pairs, the hash's and its neighbour, so that two
 * crawlers whose hashes meet both stay.  A miss takes the first unless it
 * holds a group of the same set (the second then gives way).
 */
static ra_group_memo_slot_t *
ra_memo_victim(ra_group_memo_slot_t *s, ra_group_memo_slot_t *s2,
    const ra_rules_t *rs)
{
    return s->rules == rs ? s2 : s;
}

static int
ra_memo_token_is(const ra_group_memo_slot_t *s, const ra_rules_t *rs,
    ra_str_t t)
{
    return s->rules == rs && s->key == NULL && s->token_len == t.len
           && memcmp(s->token, t.data, t.len) == 0;
}

/* A generic bot's group: remembered by its one token's bytes */
static void __attribute__((noinline))
ra_judge_group_token(const ra_judge_state_t *g, const ra_rules_t *rs,
    const ra_judge_who_t *who, ra_rules_group_t *grp)
{
    uint64_t               h;
    ra_str_t               t = who->tokens[0];
    ra_group_memo_slot_t  *s, *s2;

    /* a slot by length and three bytes (the bytes are compared) */
    h = (uint64_t) t.len << 24 ^ (uint64_t) t.data[0] << 16
        ^ (uint64_t) t.data[t.len / 2] << 8 ^ t.data[t.len - 1];
    h = (h ^ ((uint64_t) (uintptr_t) rs << 7)) * 0x9e3779b97f4a7c15ULL;
    s = &g->memo->slot[h >> 59];
    if (!ra_memo_token_is(s, rs, t)) {
        s2 = &g->memo->slot[(h >> 59) ^ 1];
        s = ra_memo_token_is(s2, rs, t) ? s2 : ra_memo_victim(s, s2, rs);
    }
    if (!ra_memo_token_is(s, rs, t)) {
        ra_rules_group(rs, who->tokens, 1, &s->group);
        s->rules = rs;
        s->key = NULL;
        s->token_len = (uint8_t) t.len;
        memcpy(s->token, t.data, t.len);
        s->named = s->group.group.data == t.data;
    }
    *grp = s->group;
    if (s->named) {
        grp->group = t;         /* this request's token, as chosen */
    }
}

/* The group who reads in rs: the memo's, else chosen (and remembered).
 * In the judge's own frame. */
static inline __attribute__((always_inline)) void
ra_judge_group(const ra_judge_state_t *g, const ra_rules_t *rs,
    const ra_judge_who_t *who, ra_rules_group_t *grp)
{
    uint64_t               h;
    ra_group_memo_slot_t  *s, *s2;

    if (g->memo != NULL && who->key == NULL && who->ntokens == 1
        && who->tokens[0].len && who->tokens[0].len <= RA_GROUP_MEMO_TOKEN)
    {
        ra_judge_group_token(g, rs, who, grp);
        return;
    }
    if (g->memo == NULL || who->key == NULL) {
        ra_rules_group(rs, who->tokens, who->ntokens, grp);
        return;
    }
    h = ((uint64_t) (uintptr_t) who->key ^ ((uint64_t) (uintptr_t) rs << 7))
        * 0x9e3779b97f4a7c15ULL;
    s = &g->memo->slot[h >> 59];
    if (s->rules != rs || s->key != who->key) {
        s2 = &g->memo->slot[(h >> 59) ^ 1];
        s = s2->rules == rs && s2->key == who->key
            ? s2 : ra_memo_victim(s, s2, rs);
    }
    if (s->rules != rs || s->key != who->key) {
        ra_rules_group(rs, who->tokens, who->ntokens, &s->group);
        s->rules = rs;
        s->key = who->key;
    }
    *grp = s->group;
}

/* One spelling of the path (its shape: ra_rules_path_shape(), or 0)
 * against rs (group grp), for who. */
static inline int
ra_allows_one(const ra_rules_t *rs, const ra_rules_group_t *grp,
    const ra_judge_who_t *who, ra_str_t path, unsigned shape,
    const ra_alloc_t *scratch, ra_match_t *m)
{
    /* a path too long for the stack without scratch memory is judged on
     * its first RA_MATCH_STACK bytes */
    (void) ra_rules_match_shaped(rs, RA_MODE_RFC, grp, path, shape, scratch,
                                 m);
    /* AdsBot-Google and kin never read the "*" group: nothing applies */
    if ((who->flags & RA_CRAWLER_IGNORES_STAR)
        && m->group.len == 1 && m->group.data[0] == '*')
    {
        memset(m, 0, sizeof(*m));
        m->allowed = 1;
        m->why = RA_WHY_NO_GROUP;
        m->crawl_delay_ms = -1;
    }
    return m->allowed;
}

/* The canonical spelling, once the path as received is allowed: m is
 * its match when it is not.  Out of line: most paths have none. */
static int __attribute__((noinline))
ra_allows_canon(const ra_rules_t *rs, const ra_rules_group_t *grp,
    const ra_judge_who_t *who, ra_str_t canon, const ra_alloc_t *scratch,
    ra_match_t *m)
{
    ra_match_t  mc;

    if (!ra_allows_one(rs, grp, who, canon, 0, scratch, &mc)) {
        *m = mc;
        return 0;
    }
    return 1;
}

/* Both spellings: allowed when each is; m is the match of the one that
 * is not (the path as received first, of that shape). canon.data NULL:
 * the same.  In the judge's own frame: a call less a request. */
static inline __attribute__((always_inline)) int
ra_allows(const ra_rules_t *rs, const ra_rules_group_t *grp,
    const ra_judge_who_t *who, ra_str_t path, unsigned shape, ra_str_t canon,
    const ra_alloc_t *scratch, ra_match_t *m)
{
    if (!ra_allows_one(rs, grp, who, path, shape, scratch, m)) {
        return 0;
    }
    if (canon.data != NULL) {
        return ra_allows_canon(rs, grp, who, canon, scratch, m);
    }
    return 1;
}

/*
 * The canonical form of path (ra_http_canon) when it differs from it,
 * else a span with data NULL.  Written to stack (RA_JUDGE_STACK bytes),
 * or for a longer path to memory from scratch, returned in *heap to be
 * released; without that memory, the canonical form of the path's first
 * RA_JUDGE_STACK - 1 bytes (as the matcher judges such a path on its
 * first bytes).  A path of shape RA_JUDGE_CANONICAL (ra_rules_path_shape():
 * a '/' first, a '%' only in an escape both keep, and no "//" or "/."
 * before any '?') is canonical to ra_http_canonical() without asking it.
 */
#define RA_JUDGE_CANONICAL  (RA_PATH_PLAIN | RA_PATH_DOTLESS)

static ra_str_t
ra_judge_canon(ra_str_t path, unsigned shape, const ra_alloc_t *scratch,
    unsigned char *stack, unsigned char **heap)
{
    size_t          n;
    unsigned        f;
    unsigned char  *buf;

    *heap = NULL;
    if ((shape & RA_JUDGE_CANONICAL) == RA_JUDGE_CANONICAL
        || ra_http_canonical(path))
    {
        return ra_str(NULL, 0);         /* the common case: no copy */
    }
    buf = stack;
    if (path.len >= RA_JUDGE_STACK) {
        buf = scratch != NULL ? ra_alloc(scratch, path.len + 1) : NULL;
        if (buf == NULL) {
            buf = stack;
            path.len = RA_JUDGE_STACK - 1;
        }
        *heap = buf != stack ? buf : NULL;
    }
    n = ra_http_canon(path, buf, &f);
    return (f & RA_CANON_CHANGED) ? ra_str(buf, n) : ra_str(NULL, 0);
}

int
ra_judge_allows(const ra_rules_t *rs, const ra_judge_who_t *who,
    ra_str_t path, const ra_alloc_t *scratch, ra_match_t *m)
{
    int               allowed;
    unsigned          shape;
    ra_str_t          canon;
    ra_rules_group_t  grp;
    unsigned char     stack[RA_JUDGE_STACK], *heap;

    shape = ra_rules_path_shape(path);
    canon = ra_judge_canon(path, shape, scratch, stack, &heap);
    ra_rules_group(rs, who->tokens, who->ntokens, &grp);
    allowed = ra_allows(rs, &grp, who, path, shape, canon, scratch, m);
    if (heap != NULL) {
        ra_free(scratch, heap);
    }
    return allowed;
}

static void
ra_verdict_decision(ra_verdict_t *out, const ra_match_t *m)
{
    out->line = m->line;
    out->rule_type = m->type;
    out->token_len = m->group.len < RA_NAME_MAX ? m->group.len : RA_NAME_MAX;
    if (out->token_len) {
        memcpy(out->token, m->group.data, out->token_len);
    }
    out->pattern_len = m->pattern.len < RA_PATTERN_MAX ? m->pattern.len
                                                       : RA_PATTERN_MAX;
    if (out->pattern_len) {
        memcpy(out->pattern, m->pattern.data, out->pattern_len);
    }
}

static void
ra_verdict_clear(ra_verdict_t *out)
{
    out->verdict = RA_VERDICT_NONE;
    out->flags = 0;
    out->line = 0;
    out->crawl_delay_ms = 0;
    out->rule_type = RA_RULE_NONE;
    out->token_len = 0;
    out->pattern_len = 0;
}

int
ra_judge(const ra_judge_state_t *g, const ra_judge_who_t *who, ra_str_t path,
    int64_t now, ra_verdict_t *out)
{
    int                       k, rc, fetched, held;
    unsigned                  shape;
    ra_str_t                  canon;
    ra_match_t                m, mv;
    ra_rules_group_t          grp;
    const ra_rules_t         *rs;
    const ra_ledger_state_t  *f = &g->facts;
    unsigned char             stack[RA_JUDGE_STACK], *heap;

    ra_verdict_clear(out);
    if (who->flags & RA_CRAWLER_USER_TRIGGERED) {
        out->verdict = RA_VERDICT_EXEMPT;
        return RA_OK;
    }

    /* the path as received and as the server reads it: the stricter
     * verdict wins (docs/design.md, "Verdicts") */
    canon = ra_str(NULL, 0);
    heap = NULL;
    rc = RA_OK;

    memset(&m, 0, sizeof(m));
    m.allowed = 1;
    if (ra_unreachable_30d(f->failing_since, f->pages_answered, now)) {
        /* 30 days of 5xx/429 while the site answers: as if there were no
         * robots.txt (RFC 9309 2.3.1.4), whatever C's own fetch got */
        out->verdict = RA_VERDICT_COMPLIANT;
        out->flags |= RA_FLAG_UNREACHABLE_30D;

    } else if (f->last_fetch
        && ra_answer_of_status(f->last_fetch_status) == RA_ANSWER_UNREACHABLE
        && now - f->last_fetch < RA_UNREACHABLE_MS)
    {
        out->verdict = RA_VERDICT_UNREACHABLE;

    } else {
        shape = ra_rules_path_shape(path);
        canon = ra_judge_canon(path, shape, g->scratch, stack, &heap);
        rs = NULL;
        if (f->current >= 0 && f->current < RA_VERSIONS) {
            rc = ra_judge_rules(g, (unsigned) f->current, &rs);
            if (rc != RA_OK) {
                goto done;
            }
        }
        if (rs == NULL) {
            /* nothing to judge against: neither compliant nor not */
            out->verdict = RA_VERDICT_UNKNOWN;
        } else {
            ra_judge_group(g, rs, who, &grp);
            out->verdict = ra_allows(rs, &grp, who, path, shape, canon,
                                     g->scratch, &m)
                           ? RA_VERDICT_COMPLIANT : RA_VERDICT_VIOLATION;
        }
        /* a copy: resolving older versions may release this set */
        ra_verdict_decision(out, &m);

        /* an older copy excuses the request when it allows both
         * spellings */
        fetched = f->last_fetch && now - f->last_fetch < RA_DAY_MS;
        held = 0;
        for (k = 0; out->verdict == RA_VERDICT_VIOLATION && k < RA_VERSIONS;
             k++)
        {
            if (fetched && f->versions[k].hash == f->last_fetch_version) {
                held = 1;
            }
            if (k == f->current || f->versions[k].hash == 0) {
                continue;
            }
            if (fetched) {
                /* it fetched: only what it was served counts */
                if (f->versions[k].hash != f->last_fetch_version) {
                    continue;
                }
            } else if (f->versions[k].until
                       && f->versions[k].until < now - RA_DAY_MS)
            {
                continue;       /* not in force in the last 24 h */
            }
            rc = ra_judge_rules(g, (unsigned) k, &rs);
            if (rc != RA_OK) {
                ra_verdict_clear(out);
                goto done;
            }
            if (rs == NULL) {
                continue;
            }
            ra_judge_group(g, rs, who, &grp);
            if (ra_allows(rs, &grp, who, path, shape, canon, g->scratch,
                          &mv))
            {
                out->verdict = RA_VERDICT_STALE;
            }
        }
        /* what it was served is none of the site's versions: an answer
         * only it got ("allow all" for a 403 to its User-Agent), or a
         * copy evicted since; either may allow the path, and no rule of
         * the site can show it did not */
        if (out->verdict == RA_VERDICT_VIOLATION && fetched && !held
            && f->last_fetch_version != 0)
        {
            out->verdict = RA_VERDICT_STALE;
        }
    }

    if (f->last_fetch == 0 || now - f->last_fetch >= RA_DAY_MS) {
        out->flags |= RA_FLAG_NO_ROBOTS_FETCH;
    }
    out->crawl_delay_ms = m.crawl_delay_ms > 0 ? m.crawl_delay_ms : 0;
    if (m.crawl_delay_ms > 0 && (who->flags & RA_CRAWLER_CRAWL_DELAY)
        && f->prev_request && now - f->prev_request < m.crawl_delay_ms)
    {
        out->flags |= RA_FLAG_CRAWL_DELAY;
    }

done:

    if (heap != NULL) {
        ra_free(g->scratch, heap);
    }
    return rc;
}


/* ---- requests ----------------------------------------------------------- */

/* What the engine's resolve() needs to find a body in the ledger again:
 * the request's site (by name: ids do not outlive the lock) and time. */
typedef struct {
    ra_audit_t  *au;
    ra_str_t     site;
    int64_t      now;
} ra_gather_t;

/* Marks every version of the request busy until the verdict is done, so
 * that a set found cached now stays cached.  Copies nothing: a body is
 * copied only when resolve() needs a version this process has not
 * compiled (ra_gather_compile()), once per version and process. */
static void
ra_gather_busy(ra_audit_t *au, const ra_ledger_state_t *f)
{
    unsigned  k;

    for (k = 0; k < RA_VERSIONS; k++) {
        au->busy[k] = f->versions[k].hash;
    }
}

/*
 * Compiles version v of the request's site into the cache: its body is
 * copied under the lock (found again by the site's name and the
 * version's hash, which names its bytes), then compiled outside it.  A
 * version the ledger no longer holds, or whose body it lost meanwhile, is
 * unknown (*rs NULL), as it would have been a moment later.
 */
static int
ra_gather_compile(ra_gather_t *x, const ra_version_fact_t *v,
    const ra_rules_t **rs)
{
    int           k;
    uint32_t      sid;
    ra_str_t      body, copy;
    ra_audit_t   *au = x->au;
    ra_ledger_t  *l = &au->ledger;

    copy = ra_str("", 0);
    ra_ledger_lock(l);
    sid = ra_ledger_site_locked(l, x->site, x->now);
    k = ra_ledger_find_version_locked(l, sid, v->hash, NULL);
    body = k >= 0 ? ra_ledger_body_locked(l, sid, (unsigned) k)
                  : ra_str("", 0);
    if (body.len == v->body_len && body.len) {
        copy.data = ra_alloc(au->conf.alloc, body.len);
        if (copy.data == NULL) {
            ra_ledger_unlock(l);
            return RA_ENOMEM;
        }
        memcpy((void *) copy.data, body.data, body.len);
        copy.len = body.len;
        au->body_copies++;
    }
    ra_ledger_unlock(l);

    if (copy.len == 0) {
        return RA_OK;                   /* unknown */
    }
    *rs = ra_cache_add(au, v->hash, copy, 1);
    ra_free(au->conf.alloc, (void *) copy.data);
    return *rs != NULL ? RA_OK : RA_ENOMEM;
}

/* resolve() of the engine: the cache, else a compile of the body */
static int
ra_gather_resolve(const ra_judge_state_t *g, unsigned k,
    const ra_rules_t **rs)
{
    ra_gather_t         *x = g->ctx;
    ra_audit_t          *au = x->au;
    ra_cache_t          *c;
    const ra_version_fact_t  *v = &g->facts.versions[k];

    *rs = NULL;
    c = ra_cache_find(au, v->hash);
    if (c != NULL) {
        *rs = c->rules;
        return RA_OK;
    }
    if (v->answer == RA_ANSWER_ALLOW_ALL) {
        *rs = ra_cache_add(au, v->hash, ra_str("", 0), 0);
        return *rs != NULL ? RA_OK : RA_ENOMEM;
    }
    if (v->answer != RA_ANSWER_RULES || v->body_lost) {
        return RA_OK;                   /* unknown */
    }
    if (v->body_len == 0) {
        *rs = ra_cache_add(au, v->hash, ra_str("", 0), 1);    /* empty */
        return *rs != NULL ? RA_OK : RA_ENOMEM;
    }
    return ra_gather_compile(x, v, rs);
}

/* The request's Web Bot Auth signature, checked only when it has one
 * (docs/web-bot-auth.md). */
static void
ra_audit_sig(ra_audit_t *au, const ra_request_t *req, ra_sig_verdict_t *sv)
{
    ra_sig_request_t  r;
    ra_sig_window_t   w;

    memset(&r, 0, sizeof(r));
    r.signature = req->signature;
    r.signature_input = req->signature_input;
    r.signature_agent = req->signature_agent;
    r.method = req->method;
    r.authority = req->authority.len ? req->authority : req->site;
    r.target = req->uri;
    r.scheme = req->scheme;
    w.now = req->time;
    w.max_age = au->conf.sig_max_age;
    w.skew = au->conf.sig_skew > 0 ? au->conf.sig_skew : -1;
    (void) ra_sig_verify(au->conf.sig_keys, au->conf.host, &r, &w,
                         au->sig_cache, sv);
}

/* Reverse DNS when ranges did not verify c (ra_audit.h). */
static void
ra_audit_rdns(ra_audit_t *au, const ra_crawler_t *c, const ra_addr_t *a,
    const ra_request_t *req, ra_verdict_t *out)
{
    const ra_host_t   *h = au->conf.host;
    ra_rdns_answer_t   ans;
    int                r, started;
    int64_t            now = req->time;

    if (out->verification == RA_VERIFY_VERIFIED || !ra_verify_has_rdns(c)
        || h == NULL || h->rdns_start == NULL)
    {
        return;
    }
    ra_ledger_lock(&au->ledger);
    r = ra_rdns_find_locked(ra_ledger_rdns_area(&au->ledger),
                            &au->conf.rdns, a, now, &ans);
    ra_ledger_unlock(&au->ledger);

    if (r == RA_RDNS_START) {
        /* a host that answers at once (the CLI, its cache file) has
         * called ra_audit_rdns_done() already: look again */
        started = h->rdns_start(h, req->where, a->b);
        ra_ledger_lock(&au->ledger);
        if (started != RA_OK) {
            (void) ra_rdns_done_locked(ra_ledger_rdns_area(&au->ledger),
                                       &au->conf.rdns, a, 0, ra_str("", 0),
                                       NULL, 0, 0, now);
        } else {
            r = ra_rdns_find_locked(ra_ledger_rdns_area(&au->ledger),
                                    &au->conf.rdns, a, now, &ans);
        }
        ra_ledger_unlock(&au->ledger);
    }

    /* until an answer decides, the ranges' verdict stands: unverifiable
     * without loaded ranges, impostor outside loaded ones */
    if (r == RA_RDNS_HIT) {
        out->verification = (unsigned) ra_verify_rdns_check(c, a,
                                ra_str(ans.name, ans.name_len), a,
                                ans.confirmed ? 1 : 0);
        out->verified_by = RA_VERIFIED_BY_RDNS;
    }
}

void
ra_audit_rdns_done(ra_audit_t *au, const uint8_t addr[16], int ok,
    ra_str_t ptr_name, const ra_addr_t *forward, size_t nforward)
{
    ra_addr_t  a;
    int        trusted;
    int64_t    now = ra_host_now(au->conf.host);

    memcpy(a.b, addr, 16);
    trusted = ok && ra_rdns_trusted(au->conf.crawlers, ptr_name);
    ra_ledger_lock(&au->ledger);
    (void) ra_rdns_done_locked(ra_ledger_rdns_area(&au->ledger),
                               &au->conf.rdns, &a, ok, ptr_name, forward,
                               nforward, trusted, now);
    ra_ledger_unlock(&au->ledger);
}

/* ra_addr_parse() of text and ra_verify() of c there, through this
 * process's hints: RA_ERROR when text is no address. */
static int
ra_audit_verify(ra_audit_t *au, const ra_crawler_t *c, ra_str_t text,
    ra_addr_t *addr, unsigned *verification)
{
    size_t             lists;
    uint64_t           h;
    ra_verify_hint_t  *vh;

    if (text.len == 0 || text.len > RA_VERIFY_HINT_TEXT) {
        if (ra_addr_parse(text, addr) != RA_OK) {
            return RA_ERROR;
        }
        *verification = (unsigned) ra_verify(au->conf.ranges, c, addr);
        return RA_OK;
    }
    /* eight bytes a step, not one */
    h = ra_ua_hash(text.data, text.len) ^ (uint64_t) (uintptr_t) c;
    vh = &au->verify_hint[(h * 0x9e3779b97f4a7c15ULL) >> 56];
    lists = au->conf.ranges != NULL ? ra_ranges_lists(au->conf.ranges) : 0;
    if (vh->crawler == c && vh->len == text.len && vh->lists == lists
        && memcmp(vh->text, text.data, text.len) == 0)
    {
        *addr = vh->addr;
        *verification = vh->verification;
        return RA_OK;
    }
    if (ra_addr_parse(text, addr) != RA_OK) {
        return RA_ERROR;
    }
    *verification = (unsigned) ra_verify(au->conf.ranges, c, addr);
    vh->crawler = c;
    vh->lists = lists;
    vh->addr = *addr;
    vh->verification = (uint8_t) *verification;
    vh->len = (uint8_t) text.len;
    memcpy(vh->text, text.data, text.len);
    return RA_OK;
}

/* Who the request says it is: name, verification, tokens.  A crawler
 * whose table entry names signature-agent origins is judged by its
 * signature when it sends one that can be checked: valid and of one of
 * its origins, verified; failing, or another origin's, impostor.  Else
 * (no signature, or one that cannot be checked here) by its ranges, then
 * by reverse DNS when those do not verify it. */
static inline __attribute__((always_inline)) void
ra_audit_who(ra_audit_t *au, const ra_identity_t *id, const ra_request_t *req,
    const ra_sig_verdict_t *sv, ra_verdict_t *out, ra_str_t *tokens,
    ra_judge_who_t *who)
{
    int                  sig;
    unsigned             v;
    ra_addr_t            addr;
    const ra_crawler_t  *c = id->crawler;

    memset(who, 0, sizeof(*who));
    who->tokens = tokens;
    out->crawler = c;
    out->verification = RA_VERIFY_UNVERIFIABLE;
    if (c != NULL) {
        out->name = c->name;
        for (who->ntokens = 0;
             who->ntokens < c->ntokens && who->ntokens < RA_TOKENS_MAX;
             who->ntokens++)
        {
            tokens[who->ntokens] = c->tokens[who->ntokens];
        }
        who->flags = c->flags;
        who->key = c;
        sig = ra_sig_decide(c, sv);
        if (sig >= 0) {
            out->verification = (unsigned) sig;
            out->verified_by = RA_VERIFIED_BY_SIGNATURE;
        } else if (ra_audit_verify(au, c, req->addr, &addr, &v) == RA_OK) {
            out->verification = v;
            if (out->verification != RA_VERIFY_UNVERIFIABLE) {
                out->verified_by = RA_VERIFIED_BY_RANGES;
            }
            ra_audit_rdns(au, c, &addr, req, out);
        }
    } else {
        out->name = id->token.len ? id->token
                                  : (ra_str_t) ra_string("generic");
        if (id->token.len) {
            tokens[who->ntokens++] = id->token;
        }
    }
    if (out->name.len > RA_NAME_MAX) {
        out->name.len = RA_NAME_MAX;
    }
}

/* Who sent req, by its User-Agent and a signature it carries (checked
 * once; a valid one of an origin the table names is that crawler's,
 * whatever its User-Agent: signed agents send a browser's): *id, *sv and
 * out's kind and signature fields.  0 for a browser or a client without
 * a User-Agent (*no_ua says which), which are no crawler; 1 for a crawler
 * or a generic bot. */
static inline __attribute__((always_inline)) int
ra_audit_client(ra_audit_t *au, const ra_request_t *req, ra_verdict_t *out,
    ra_identity_t *id, ra_sig_verdict_t *sv, int *no_ua)
{
    const ra_crawler_t  *sc;

    ra_identify(au, req->user_agent, id);
    memset(sv, 0, sizeof(*sv));
    sv->result = RA_SIG_NONE;
    sv->why = "";
    *no_ua = ra_ua_absent(req->user_agent);
    if (req->signature.len != 0 && req->signature_input.len != 0) {
        ra_audit_sig(au, req, sv);
        out->sig_result = sv->result;
        out->sig_why = sv->why;
        if (id->kind != RA_UA_KNOWN
            && (sc = ra_sig_crawler(au->conf.crawlers, sv)) != NULL)
        {
            id->kind = RA_UA_KNOWN;
            id->crawler = sc;
            id->token = sc->tokens[0];
            *no_ua = 0;
        }
    }
    out->kind = id->kind;
    return !(id->kind == RA_UA_BROWSER || *no_ua);
}

/* A crawler's claim checked (ra_audit_who()) and the key of its record */
static inline __attribute__((always_inline)) void
ra_audit_key(ra_audit_t *au, const ra_identity_t *id, const ra_request_t *req,
    const ra_sig_verdict_t *sv, ra_verdict_t *out, ra_str_t *tokens,
    ra_judge_who_t *who, ra_stat_key_t *key)
{
    ra_audit_who(au, id, req, sv, out, tokens, who);
    memset(key, 0, sizeof(*key));
    key->name = out->name;
    key->verification = out->verification;
    key->kind = id->kind;
    key->category = id->crawler ? id->crawler->category : RA_CAT_MAX;
    key->token = who->ntokens ? tokens[0] : ra_str("", 0);
    key->verified_by = out->verified_by;
}

/* An alert that passed its gate goes out when the budgets have a line
 * for it (else it is counted for the summary); a summary is due when the
 * window is over.  gate: a generic bot's block gate, or NULL.  Under the
 * lock. */
static void
ra_budget_locked(ra_audit_t *au, uint32_t sid, uint32_t tid,
    const ra_request_t *req, ra_verdict_t *out, ra_gate_t *gate)
{
    ra_alert_state_t  st;

    if (ra_ledger_alert_state_locked(&au->ledger, sid, tid, &st) != RA_OK) {
        return;
    }
    if (out->alert) {
        st.crawler_mark = gate != NULL ? &gate->mark : st.stat_mark;
        /* only a verified crawler's name is not anyone's to give */
        st.verified = out->crawler != NULL
                      && out->verification == RA_VERIFY_VERIFIED;
        st.name = out->name;
        out->alert = (unsigned) ra_alert_budget_take(&st,
                                    &au->conf.alert_budget, req->time);
    }
    if (ra_alert_budget_due(st.all, req->time, au->conf.alert_interval,
                            &out->budget))
    {
        out->summary = 1;
        out->budget.budget = au->conf.alert_budget;
    }
}

/*
 * The counters of a judged request's record (a mask of 1 <<
 * ra_counter_e): its request, its verdict's, its flags' and its refusal's.
 * ra_count_locked() adds them under the lock, ra_count_mask() without it.
 */
static uint32_t
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
    if (out->refused > RA_REFUSE_NONE && out->refused < RA_REFUSE_MAX) {
        m |= 1u << (RA_CNT_REFUSED_VIOLATION + out->refused
                    - RA_REFUSE_VIOLATION);
    }
    return m;
}

/* Counts the verdict; a violation also goes to the ring and, but for an
 * impostor's (ra_impostor_alert(), before the lock), may raise an alert;
 * any alert then meets the budgets.  Under the lock. */
static void
ra_count_locked(ra_audit_t *au, uint32_t sid, uint32_t tid,
    const ra_request_t *req, ra_verdict_t *out, const ra_ledger_state_t *f)
{
    unsigned           c;
    uint32_t           m;
    ra_ledger_t       *l = &au->ledger;
    ra_gate_t         *g = NULL;
    ra_violation_t     vio;
    ra_alert_state_t   st;

    for (c = 0, m = ra_verdict_counters(out); m != 0; c++, m >>= 1) {
        if (m & 1) {
            ra_ledger_count_locked(l, sid, tid, (ra_counter_e) c);
        }
    }
    ra_ledger_polite_locked(l, tid, req->time, out->crawl_delay_ms);
    /* the deciding line of the version judged against (ra_judge():
     * always the current one) */
    if (out->line && f->current >= 0 && f->current < RA_VERSIONS) {
        ra_ledger_rule_hit_locked(l, sid, tid, f->versions[f->current].hash,
                                  out->line, out->rule_type == RA_RULE_ALLOW,
                                  out->verdict == RA_VERDICT_VIOLATION);
    }

    if (out->verdict != RA_VERDICT_VIOLATION
        && out->verdict != RA_VERDICT_UNREACHABLE)
    {
        ra_budget_locked(au, sid, tid, req, out, NULL);
        return;
    }
    memset(&vio, 0, sizeof(vio));
    vio.time = req->time;
    vio.line = out->line;
    vio.verification = (uint8_t) out->verification;
    vio.verified_by = (uint8_t) out->verified_by;
    vio.last_fetch = f->last_fetch;
    vio.verdict = (uint8_t) out->verdict;
    /* as its record's key.category (ra_purpose_match()) */
    vio.purpose = out->crawler != NULL && out->crawler->category < RA_CAT_MAX
                  ? (uint8_t) (out->crawler->category + 1) : 0;
    vio.name_len = (uint8_t) ra_str_cut(vio.name, RA_NAME_MAX, out->name);
    vio.method_len = (uint8_t) ra_str_cut(vio.method, RA_METHOD_MAX,
                                            req->method);
    vio.addr_len = (uint8_t) ra_str_cut(vio.addr, RA_ADDR_TEXT_MAX,
                                          req->addr);
    vio.uri_len = (uint16_t) ra_str_cut(vio.uri, RA_URI_MAX, req->uri);
    vio.uri_full_len = (uint32_t) req->uri.len;
    vio.pattern_len = (uint16_t) ra_str_cut(vio.pattern, RA_PATTERN_MAX,
                                              ra_verdict_pattern(out));
    ra_ledger_violation_locked(l, sid, &vio);

    if (out->verification == RA_VERIFY_IMPOSTOR) {
        /* gated before, in this process (ra_impostor_alert()) */
    } else if (out->crawler == NULL) {
        /* a generic bot: one per (site, address block), whatever name
         * it gives this time */
        if (ra_ledger_alert_state_locked(l, sid, tid, &st) == RA_OK) {
            out->alert = (unsigned) ra_alert_gate(st.gates,
                             ra_alert_block(req->addr), req->time,
                             au->conf.alert_interval, &out->suppressed, &g);
        }
    } else {
        out->alert = (unsigned) ra_ledger_alert_locked(l, tid, req->time,
                                                      au->conf.alert_interval,
                                                      &out->suppressed);
    }
    ra_budget_locked(au, sid, tid, req, out, g);
}

static unsigned ra_imp_gate(ra_imp_slot_t *slot, uint64_t h,
    const ra_crawler_t *crawler, const unsigned char *site, size_t nsite,
    uint64_t block, int64_t now, int64_t interval, uint32_t *suppressed);

/* Does a judged request of an impostor alert now?  Every verdict of a
 * judge alerts (not a robots.txt fetch, not a request left unjudged), at
 * most once per interval per (site, crawler, address block) in this
 * process;
 * *suppressed: the alerts held back since the key's last one. */
static unsigned
ra_impostor_alert(ra_audit_t *au, const ra_request_t *req,
    const ra_verdict_t *v, uint32_t *suppressed)
{
    size_t          i, nsite;
    unsigned        alert;
    uint64_t        h, block;
    ra_imp_slot_t  *slot;
    unsigned char   site[RA_SITE_NAME_MAX];
    int64_t         now = req->time, interval = au->conf.alert_interval;

    *suppressed = 0;
    if (v->verification != RA_VERIFY_IMPOSTOR || v->crawler == NULL) {
        return 0;
    }
    switch (v->verdict) {
    case RA_VERDICT_COMPLIANT:
    case RA_VERDICT_VIOLATION:
    case RA_VERDICT_STALE:
    case RA_VERDICT_UNREACHABLE:
    case RA_VERDICT_EXEMPT:
    case RA_VERDICT_UNKNOWN:
        break;
    default:
        return 0;
    }

    nsite = req->site.len < RA_SITE_NAME_MAX ? req->site.len
                                             : RA_SITE_NAME_MAX;
    for (i = 0; i < nsite; i++) {
        site[i] = (unsigned char) ra_lower(req->site.data[i]);
    }
    block = ra_alert_block(req->addr);
    h = ra_ua_hash(site, nsite);
    h = (h ^ block) * 0x9e3779b97f4a7c15ULL;
    h ^= (uint64_t) (uintptr_t) v->crawler;
    h ^= h >> 31;
    slot = &au->imp[h & (RA_IMPOSTOR_SLOTS - 1)];

    /* a table shared by threads' engines: under their lock */
    if (au->conf.impostors_lock.lock != NULL) {
        au->conf.impostors_lock.lock(au->conf.impostors_lock.ctx);
    }
    alert = ra_imp_gate(slot, h, v->crawler, site, nsite, block, now,
                        interval, suppressed);
    if (au->conf.impostors_lock.unlock != NULL) {
        au->conf.impostors_lock.unlock(au->conf.impostors_lock.ctx);
    }
    return alert;
}

/* The gate of one (site, crawler, block) key in its slot. */
static unsigned
ra_imp_gate(ra_imp_slot_t *slot, uint64_t h, const ra_crawler_t *crawler,
    const unsigned char *site, size_t nsite, uint64_t block, int64_t now,
    int64_t interval, uint32_t *suppressed)
{
    if (slot->crawler != crawler || slot->hash != h
        || slot->site_len != nsite || slot->block != block
        || memcmp(slot->site, site, nsite) != 0)
    {
        /* a new key, or one whose slot another took meanwhile */
        slot->hash = h;
        slot->crawler = crawler;
        slot->site_len = (uint8_t) nsite;
        slot->block = block;
        memcpy(slot->site, site, nsite);
        slot->last = now;
        slot->suppressed = 0;
        return 1;
    }
    /* a clock that went back does not hold alerts back */
    if (interval <= 0 || now - slot->last >= interval || now < slot->last) {
        *suppressed = slot->suppressed;
        slot->suppressed = 0;
        slot->last = now;
        return 1;
    }
    if (slot->suppressed < UINT32_MAX) {
        slot->suppressed++;
    }
    return 0;
}

/* Are a site hint's n bytes the request's name?  A name of 8 to 16
 * bytes (most hosts) in two overlapping words, without a call. */
static int
ra_site_name_is(const unsigned char *hint, const unsigned char *name,
    size_t n)
{
    uint64_t  a0, a1, b0, b1;

    if (n < 8 || n > 16) {
        return memcmp(hint, name, n) == 0;
    }
    memcpy(&a0, hint, 8);
    memcpy(&b0, name, 8);
    memcpy(&a1, hint + n - 8, 8);
    memcpy(&b1, name + n - 8, 8);
    return ((a0 ^ b0) | (a1 ^ b1)) == 0;
}

/* The hint a site's name as requests give it has (name.len in [1,
 * RA_SITE_NAME_MAX]) */
static ra_site_hint_t *
ra_site_hint_of(ra_audit_t *au, ra_str_t name)
{
    return &au->site_hint[(name.len ^ name.data[name.len - 1])
                          & (RA_SITE_HINTS - 1)];
}

/* The site's id, under the lock: by this process's hint when the ledger
 * still holds that site, else by name (created when create is set, as
 * ra_ledger_site_locked() does; else found only, 0 when absent). */
static uint32_t
ra_audit_site_locked(ra_audit_t *au, ra_str_t name, int64_t now, int create)
{
    uint32_t         sid;
    ra_site_hint_t  *hint;
    ra_ledger_t     *l = &au->ledger;

    if (name.len == 0 || name.len > RA_SITE_NAME_MAX) {
        return create ? ra_ledger_site_locked(l, name, now)
                      : ra_ledger_site_find_locked(l, name, now);
    }
    hint = ra_site_hint_of(au, name);
    if (hint->epoch != 0 && hint->len == name.len
        && memcmp(hint->name, name.data, name.len) == 0)
    {
        sid = ra_ledger_site_again_locked(l, hint->id, hint->epoch, now);
        if (sid != 0) {
            hint->touched = now;
            return sid;
        }
    }
    sid = create ? ra_ledger_site_locked(l, name, now)
                 : ra_ledger_site_find_locked(l, name, now);
    hint->id = sid;
    hint->epoch = ra_ledger_site_epoch_locked(l, sid);
    hint->touched = now;
    hint->facts_at = 0;
    hint->len = (uint16_t) name.len;
    memcpy(hint->name, name.data, name.len);
    return sid;
}

/*
 * A browser's request (no_ua: of a client without a User-Agent) counted
 * without the lock, when this process found its site under the lock less
 * than RA_SITE_TOUCH_MS ago and the ledger's slot still holds it (its
 * epoch): 1; else 0, nothing counted (the caller takes the lock).
 */
static int
ra_audit_browser_hinted(ra_audit_t *au, const ra_request_t *req, int no_ua,
    int op, unsigned target)
{
    ra_str_t         name = req->site;
    ra_site_hint_t  *hint;

    if (name.len == 0 || name.len > RA_SITE_NAME_MAX) {
        return 0;
    }
    hint = ra_site_hint_of(au, name);
    if (hint->epoch == 0 || hint->len != name.len
        || req->time < hint->touched
        || req->time - hint->touched >= RA_SITE_TOUCH_MS
        || !ra_site_name_is(hint->name, name.data, name.len))
    {
        return 0;
    }
    return ra_ledger_browser_hinted(&au->ledger, hint->id, hint->epoch, no_ua,
                                    op >= 0 ? (unsigned) op : RA_REFER_SLOTS,
                                    target & RA_TARGET_ROBOTS ? 0
                                                              : req->status,
                                    req->time);
}

/* One line a minute at most, whichever process sees the count move. */
static void
ra_audit_full(ra_audit_t *au, const ra_request_t *req)
{
    ra_totals_t       t;
    const ra_host_t  *h = au->conf.host;

    if (h == NULL || h->log == NULL
        || !ra_ledger_full_note(&au->ledger, req->time, &t))
    {
        return;
    }
    ra_logf(h, req->where, RA_LOG_WARN, RA_TAG_ZONE_FULL,
            "%.*s is full: %llu sites and %llu crawler records evicted so "
            "far; a larger zone keeps more", (int) au->conf.zone_name.len,
            (const char *) au->conf.zone_name.data,
            (unsigned long long) t.site_evictions,
            (unsigned long long) t.stat_evictions);
}

/* A crawler's stat hint: by the crawler of the table (a generic bot's by
 * its name), the site and the verification */
static ra_stat_hint_t *
ra_stat_hint_of(ra_audit_t *au, uint32_t sid, const ra_crawler_t *c,
    const ra_stat_key_t *key)
{
    uintptr_t  a = (uintptr_t) c;

    if (c == NULL) {
        a = (uintptr_t) ra_ua_hash(key->name.data, key->name.len);
    }
    return &au->stat_hint[(a ^ (a >> 7) ^ sid * 0x9e3779b1u
                           ^ key->verification * 31u) & (RA_STAT_HINTS - 1)];
}

/* Is the hint the one of key on site sid? */
static int
ra_stat_hint_is(const ra_stat_hint_t *hint, uint32_t sid,
    const ra_crawler_t *c, const ra_stat_key_t *key)
{
    return hint->at.stat != 0 && hint->crawler == c && hint->at.site == sid
           && hint->verification == key->verification
           && (c != NULL
               || (hint->name_len == key->name.len
                   && memcmp(hint->name, key->name.data, key->name.len)
                      == 0));
}

/* The crawler record of key on site, under the lock: by this process's
 * hint, else by its key (as ra_ledger_stat_locked()). */
static uint32_t
ra_audit_stat_locked(ra_audit_t *au, uint32_t sid, const ra_crawler_t *c,
    const ra_stat_key_t *key, int64_t now)
{
    uint32_t         tid;
    ra_stat_hint_t  *hint;

    if (c == NULL && key->name.len > RA_NAME_MAX) {
        return ra_ledger_stat_locked(&au->ledger, sid, key, now);
    }
    hint = ra_stat_hint_of(au, sid, c, key);
    if (ra_stat_hint_is(hint, sid, c, key)) {
        tid = ra_ledger_stat_again_locked(&au->ledger, sid, hint->at.stat,
                                          key, now);
    } else {
        tid = ra_ledger_stat_locked(&au->ledger, sid, key, now);
    }
    hint->crawler = c;
    hint->at.site = sid;
    hint->at.epoch = ra_ledger_site_epoch_locked(&au->ledger, sid);
    hint->at.stat = tid;
    hint->at.tag = ra_ledger_stat_tag_locked(&au->ledger, tid);
    hint->touched = now;
    hint->verification = key->verification;
    hint->name_len = 0;
    if (c == NULL) {
        hint->name_len = (uint8_t) key->name.len;
        memcpy(hint->name, key->name.data, key->name.len);
    }
    return tid;
}

/* The site's part of what a verdict reads (ra_ledger_hint_t's facts):
 * the versions in 16-byte moves (what gcc makes of this memcpy() on the
 * hinted path is a "rep movsl", one instruction every 4 bytes) */
static void
ra_site_facts(ra_ledger_state_t *to, const ra_ledger_state_t *from)
{
    typedef uint64_t  ra_move16_t __attribute__((vector_size(16),
                                                 aligned(8)));
    enum { n = sizeof(to->versions) };
    ra_move16_t           w;
    size_t                i;
    unsigned char        *t = (unsigned char *) to->versions;
    const unsigned char  *f = (const unsigned char *) from->versions;

    _Static_assert(n % 16 == 0, "ra_version_fact_t: 16-byte moves");
#pragma GCC unroll 16
    for (i = 0; i < n; i += 16) {
        memcpy(&w, f + i, 16);
        memcpy(t + i, &w, 16);
    }
    to->current = from->current;
    to->failing_since = from->failing_since;
}

/* What a crawler's verdict reads, without the lock: when this process
 * found its site and record under the lock less than RA_SITE_TOUCH_MS
 * ago and the ledger's slots still hold them.  1 with *at and *facts set;
 * else 0 (the caller takes the lock). */
static int
ra_audit_state_hinted(ra_audit_t *au, const ra_request_t *req,
    const ra_crawler_t *c, const ra_stat_key_t *key, ra_ledger_hint_t *at,
    ra_ledger_state_t *facts)
{
    ra_str_t         name = req->site;
    ra_site_hint_t  *sh;
    ra_stat_hint_t  *th;
    int64_t          now = req->time;

    if (name.len == 0 || name.len > RA_SITE_NAME_MAX
        || (c == NULL && key->name.len > RA_NAME_MAX))
    {
        return 0;
    }
    sh = ra_site_hint_of(au, name);
    if (sh->epoch == 0 || sh->len != name.len || now < sh->touched
        || now - sh->touched >= RA_SITE_TOUCH_MS
        || !ra_site_name_is(sh->name, name.data, name.len))
    {
        return 0;
    }
    th = ra_stat_hint_of(au, sh->id, c, key);
    if (!ra_stat_hint_is(th, sh->id, c, key) || th->at.epoch != sh->epoch
        || now < th->touched || now - th->touched >= RA_SITE_TOUCH_MS)
    {
        return 0;
    }
    *at = th->at;
    at->facts = sh->facts_at;
    if (sh->facts_at) {
        ra_site_facts(facts, &sh->facts);   /* read before */
    }
    if (!ra_ledger_state_hinted(&au->ledger, at, now, req->status,
                                key->verified_by, facts))
    {
        return 0;
    }
    if (at->facts != sh->facts_at) {
        ra_site_facts(&sh->facts, facts);
        sh->facts_at = at->facts;
    }
    return 1;
}

/* The counters ra_count_locked() adds for this verdict (a mask of 1 <<
 * ra_counter_e), when that is all the count step does: no ring, no
 * alert, no rule hit; else 0 (count under the lock). */
static uint32_t
ra_count_mask(const ra_verdict_t *out, unsigned target)
{
    uint32_t  m;

    if (out->alert || out->summary || out->line) {
        return 0;
    }
    switch (out->verdict) {
    case RA_VERDICT_COMPLIANT:
    case RA_VERDICT_STALE:
    case RA_VERDICT_EXEMPT:
    case RA_VERDICT_UNKNOWN:
        break;
    default:
        return 0;                       /* violation, unreachable: the
                                           ring and the alerts */
    }
    m = ra_verdict_counters(out);
    if (target & RA_TARGET_LLMS) {
        m |= 1u << RA_CNT_LLMS_FETCHES;
    }
    return m;
}

int
ra_audit_site_wanted(ra_audit_t *au, ra_str_t site, ra_str_t user_agent,
    int64_t now)
{
    uint32_t       sid;
    ra_identity_t  id;

    if (!au->conf.crawler_sites) {
        return 1;
    }
    ra_ledger_lock(&au->ledger);
    sid = ra_ledger_site_find_locked(&au->ledger, site, now);
    ra_ledger_unlock(&au->ledger);
    if (sid != 0) {
        return 1;
    }
    if (ra_ua_absent(user_agent)) {
        return 0;
    }
    ra_identify(au, user_agent, &id);
    return id.kind != RA_UA_BROWSER;
}

/* Crawl-to-refer: the operator a browser's Referer names
 * (ra_refer_match()), through this process's hints. */
static int
ra_audit_referer(ra_audit_t *au, ra_str_t referer)
{
    uint64_t            h;
    ra_referer_hint_t  *rh;

    if (referer.len == 0 || referer.len > RA_REFERER_HINT_MAX) {
        return ra_refer_match(&au->refer, referer);
    }
    h = ra_ua_hash(referer.data, referer.len);
    rh = &au->referer_hint[(h ^ (h >> 29)) & (RA_REFERER_HINTS - 1)];
    if (rh->len != referer.len
        || memcmp(rh->text, referer.data, referer.len) != 0)
    {
        rh->op = (int8_t) ra_refer_match(&au->refer, referer);
        rh->len = (uint8_t) referer.len;
        memcpy(rh->text, referer.data, referer.len);
    }
    return rh->op;
}

/* Crawl-to-refer: the operator a request of a table crawler (not an
 * impostor) counts for, when the referrer table names it; else -1.
 * Decided before the lock is taken. */
static int
ra_refer_crawler(ra_audit_t *au, const ra_identity_t *id,
    const ra_verdict_t *v)
{
    uintptr_t         a = (uintptr_t) id->crawler;
    ra_refer_hint_t  *hint;

    if (id->crawler == NULL || v->verification == RA_VERIFY_IMPOSTOR) {
        return -1;
    }
    hint = &au->refer_hint[(a ^ (a >> 6) ^ (a >> 11)) & (RA_REFER_HINTS - 1)];
    if (hint->crawler != id->crawler) {
        hint->crawler = id->crawler;
        hint->op = ra_refer_operator(&au->refer, id->crawler->operator_name);
    }
    return hint->op;
}

int
ra_audit_request(ra_audit_t *au, const ra_request_t *req, ra_verdict_t *out)
{
    int                  rc, no_ua, op, query;
    unsigned             k, target;
    uint32_t             sid, tid, mask;
    ra_str_t             path, tokens[RA_TOKENS_MAX];
    ra_ledger_hint_t     hint;
    ra_gather_t          x;
    ra_stat_key_t        key;
    ra_identity_t        id;
    ra_judge_who_t       who;
    ra_judge_state_t     g;
    ra_sig_verdict_t     sv;
    ra_ledger_t         *l = &au->ledger;
    int64_t              now = req->time;

    /* every field but the bytes past token_len, pattern_len and the
     * budget's held names (what every request would clear for nothing) */
    memset(out, 0, offsetof(ra_verdict_t, token));
    memset((char *) out + offsetof(ra_verdict_t, pattern) + RA_PATTERN_MAX,
           0, offsetof(ra_verdict_t, budget)
              - offsetof(ra_verdict_t, pattern) - RA_PATTERN_MAX);
    memset(&out->budget, 0, offsetof(ra_alert_summary_t, held_len));
    out->budget.budget.site = out->budget.budget.total = 0;
    out->sig_result = RA_SIG_NONE;
    out->sig_why = "";
    /* the servers' own pages are nobody's traffic (the kind the glue
     * asked already, if it did) */
    target = ra_http_request_kind(req);
    if (target & RA_TARGET_SERVER_PAGE) {
        return RA_OK;
    }
    /* /robots.txt with a query is no fetch of the file, recorded or not;
     * a redirect's target recorded is */
    query = (target & RA_TARGET_ROBOTS) && ra_target_has_query(req->uri);
    if (req->recorded) {
        target |= RA_TARGET_ROBOTS;
    }
    /* no User-Agent at all ("-" in logs) is counted apart: neither a
     * browser nor a crawler that can be judged */
    if (!ra_audit_client(au, req, out, &id, &sv, &no_ua)) {
        /* crawl-to-refer: a browser visit its Referer's operator sent
         * (once: not its redirects nor its ranges), else the operator
         * its target's utm_source names (not from the site's own page) */
        op = -1;
        if (!no_ua) {
            if (req->referer.len) {
                op = ra_audit_referer(au, req->referer);
            }
            if (op < 0
                && (op = ra_refer_match_target(&au->refer, req->uri)) >= 0
                && ra_refer_same_site(req->referer, req->site))
            {
                op = -1;
            }
            if (op >= 0 && !ra_refer_visit(req->status)) {
                op = -1;
            }
        }
        if (ra_audit_browser_hinted(au, req, no_ua, op, target)) {
            return RA_OK;               /* nothing evicted: no note due */
        }
        ra_ledger_lock(l);
        sid = ra_audit_site_locked(au, req->site, now,
                                   !au->conf.crawler_sites);
        ra_ledger_browser_locked(l, sid, no_ua);
        if (op >= 0) {
            ra_ledger_referral_locked(l, sid, (unsigned) op, 0);
        }
        if (!(target & RA_TARGET_ROBOTS)) {
            ra_ledger_page_locked(l, sid, req->status, now);
        }
        ra_ledger_unlock(l);
        ra_audit_full(au, req);
        return RA_OK;
    }

    /* who it is, what it reads, whether it is who it claims to be */
    ra_audit_key(au, &id, req, &sv, out, tokens, &who, &key);
    op = ra_refer_crawler(au, &id, out);

    path = ra_http_target_path(req->uri);

    /* gather */
    memset(&x, 0, sizeof(x));
    x.au = au;
    x.site = req->site;
    x.now = now;
    /* g.facts: ra_ledger_state_locked() sets all of it */
    memset(g.rules, 0, sizeof(g.rules));
    g.resolve = ra_gather_resolve;
    g.ctx = &x;
    g.scratch = au->conf.alloc;
    g.memo = &au->groups;

    if (!(target & RA_TARGET_ROBOTS)
        && ra_audit_state_hinted(au, req, id.crawler, &key, &hint, &g.facts))
    {
        /* read without the lock */
        sid = hint.site;
        tid = hint.stat;
        ra_gather_busy(au, &g.facts);
        goto judge;
    }
    ra_ledger_lock(l);
    sid = ra_audit_site_locked(au, req->site, now, 1);
    tid = ra_audit_stat_locked(au, sid, id.crawler, &key, now);
    if (target & RA_TARGET_ROBOTS) {
        /* a robots.txt fetch: what it was served; an answer about the
         * request (412 to an If-Match, 501 to a bad Transfer-Encoding) is
         * counted, not taken for what the crawler read; a HEAD or a
         * query fetches no file (a request, not a fetch) */
        if (query || !ra_method_fetches(req->method)) {
            ra_ledger_count_locked(l, sid, tid, RA_CNT_REQUESTS);
        } else if (req->recorded) {
            /* bound when its answer went out (ra_audit_robots()) */
            ra_ledger_count_locked(l, sid, tid, RA_CNT_REQUESTS);
            ra_ledger_count_locked(l, sid, tid, RA_CNT_ROBOTS_FETCHES);
        } else if (ra_http_answer_is_file(req->status)) {
            /* 304, 206: the version in force, and robots.txt answers
             * (not captured: the modules see no new file) */
            if (ra_http_answer_unchanged(req->status)) {
                ra_ledger_answer_unchanged_locked(l, sid, now);
            }
            ra_ledger_fetch_locked(l, sid, tid, req->status, now);
        } else {
            ra_ledger_count_locked(l, sid, tid, RA_CNT_REQUESTS);
            ra_ledger_count_locked(l, sid, tid, RA_CNT_ROBOTS_FETCHES);
        }
        ra_ledger_polite_locked(l, tid, now, -1);
        if (op >= 0) {
            ra_ledger_referral_locked(l, sid, (unsigned) op, 1);
        }
        ra_ledger_unlock(l);
        out->verdict = RA_VERDICT_FETCH;
        ra_audit_full(au, req);
        return RA_OK;
    }
    ra_ledger_page_locked(l, sid, req->status, now);
    ra_ledger_state_locked(l, sid, tid, now, &g.facts);
    ra_gather_busy(au, &g.facts);
    hint.site = sid;
    hint.epoch = ra_ledger_site_epoch_locked(l, sid);
    hint.stat = tid;
    hint.tag = ra_ledger_stat_tag_locked(l, tid);
    ra_ledger_unlock(l);

judge:
    /* judge, outside the lock (a version not compiled yet takes the lock
     * once more, to copy its body) */
    rc = ra_judge(&g, &who, path, now, out);

    for (k = 0; k < RA_VERSIONS; k++) {
        au->busy[k] = 0;
    }

    /* refuse (the caller answers 403); an impostor's gate is this
     * process's, outside the lock; its alert then meets the budgets as
     * any other */
    out->refused = ra_enforce_refuses(req->enforce, out);
    if (out->verification == RA_VERIFY_IMPOSTOR) {
        out->alert = ra_impostor_alert(au, req, out, &out->suppressed);
    }

    /* count: without the lock when only counters move and the records
     * found before are still there; else under it */
    mask = ra_count_mask(out, target);
    if (mask != 0 && rc != RA_ENOMEM
        && ra_ledger_count_hinted(l, &hint, mask,
                                  op >= 0 ? (unsigned) op : RA_REFER_SLOTS,
                                  now, out->crawl_delay_ms, key.verified_by))
    {
        return rc;                      /* nothing evicted: no note due */
    }
    ra_ledger_lock(l);
    sid = ra_audit_site_locked(au, req->site, now, 1);
    tid = ra_ledger_stat_again_locked(l, sid, tid, &key, now);
    ra_count_locked(au, sid, tid, req, out, &g.facts);
    if (target & RA_TARGET_LLMS) {
        /* does anyone read it? judged as any URL, and counted */
        ra_ledger_count_locked(l, sid, tid, RA_CNT_LLMS_FETCHES);
    }
    if (op >= 0) {
        ra_ledger_referral_locked(l, sid, (unsigned) op, 1);
    }
    ra_ledger_unlock(l);

    if (rc == RA_ENOMEM) {
        ra_logf(au->conf.host, req->where, RA_LOG_ERR, RA_TAG_NOMEM,
                "out of memory, request counted but not judged");
    }
    ra_audit_full(au, req);
    return rc;
}
