/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The engine (ra_audit.h): its making and unmaking, the rule sets it
 * compiles from the versions the ledger holds (cached in this process
 * by version hash: a version the verdict needs and this process has not
 * compiled has its body copied out under the lock, once, and is compiled
 * outside it; a request whose needed versions are all compiled copies no
 * body), and the identities of the User-Agents it has seen.  What the
 * engine does with a request is ra_audit_request.c's, with a robots.txt
 * answer ra_audit_robots.c's; the verdict itself is ra_judge.c's.
 */
#include <stdlib.h>
#include <string.h>

#include "ra_audit_impl.h"

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

struct ra_events_s *
ra_audit_events(const ra_audit_t *au)
{
    return au != NULL ? au->conf.events : NULL;
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

/* The identity cache's key (ra_hash_sample()): a hit compares the exact
 * bytes anyway, so a sample only has to tell apart the User-Agents that
 * share a set.  Two User-Agents alike in all of it share a set of two
 * ways (ra_identify()). */
#define ra_ua_key(p, n)  ra_hash_sample(p, n)

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

void
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


/* ---- the rule sets a verdict asks for ------------------------------------ */

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

/* resolve()'s answer without the ledger's lock: the cache, or what the
 * version's facts say alone; RA_EAGAIN when its body must be compiled */
int
ra_gather_cached(const ra_judge_state_t *g, unsigned k,
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
    return RA_EAGAIN;
}

/* resolve() of the engine: the cache, else a compile of the body */
int
ra_gather_resolve(const ra_judge_state_t *g, unsigned k,
    const ra_rules_t **rs)
{
    int  rc = ra_gather_cached(g, k, rs);

    if (rc != RA_EAGAIN) {
        return rc;
    }
    return ra_gather_compile(g->ctx, &g->facts.versions[k], rs);
}
