/*
 * Verdicts (DESIGN.md section 3) over the shared ledger.
 *
 * A request takes the ledger's lock twice at most: once to find its site
 * and stat records and copy what the verdict depends on (the site's
 * versions, the crawler's last fetch and previous request), once to count
 * the verdict.  Rule sets are compiled outside the lock from bodies copied
 * out of it, and cached in this process by version hash.
 */
#include <stdlib.h>
#include <string.h>

#include "ra_audit.h"
#include "ra_lint.h"

#define RA_CACHE_SLOTS        64
#define RA_CACHE_BYTES        (64u * 1024 * 1024)
#define RA_ALERT_INTERVAL     60000

/*
 * Identities of recent User-Agents, per process: traffic repeats a few
 * hundred User-Agents over and over, and a hit (a hash and a compare of
 * the exact bytes) costs a tenth of a pass of the automaton.  Direct
 * mapped, 1024 slots of at most 256 bytes: 280 KiB, whatever the traffic.
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
    uint8_t              used;
    unsigned char        ua[RA_UA_MAX];
} ra_ua_slot_t;

typedef struct {
    uint64_t     hash;
    ra_rules_t  *rules;
    size_t       bytes;
    uint64_t     tick;
} ra_cache_t;

struct ra_audit_s {
    ra_audit_conf_t  conf;
    ra_ledger_t      ledger;
    ra_cache_t       cache[RA_CACHE_SLOTS];
    size_t           cache_bytes;
    uint64_t         tick;
    const ra_rules_t *pin;              /* never evicted (see below) */
    ra_ua_slot_t    *ua;                /* RA_UA_SLOTS, or NULL */
};

static const char  *ra_verdict_names[] = {
    "none", "fetch", "compliant", "violation", "stale", "unreachable",
    "exempt"
};

const char *
ra_verdict_name(ra_verdict_e v)
{
    return (unsigned) v <= RA_VERDICT_EXEMPT ? ra_verdict_names[v]
                                             : "unknown";
}

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
    if (au->conf.alert_interval <= 0) {
        au->conf.alert_interval = RA_ALERT_INTERVAL;
    }
    if (au->conf.cache_bytes == 0) {
        au->conf.cache_bytes = RA_CACHE_BYTES;
    }
    /* without the memory, every User-Agent is identified afresh */
    au->ua = ra_alloc(conf->alloc, RA_UA_SLOTS * sizeof(ra_ua_slot_t));
    if (au->ua != NULL) {
        memset(au->ua, 0, RA_UA_SLOTS * sizeof(ra_ua_slot_t));
    }
    return au;
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
    ra_free(au->conf.alloc, au->ua);
    ra_free(au->conf.alloc, au);
}


/* ---- the rule-set cache --------------------------------------------- */

static ra_cache_t *
ra_cache_find(ra_audit_t *au, uint64_t hash)
{
    size_t  i;

    for (i = 0; i < RA_CACHE_SLOTS; i++) {
        if (au->cache[i].hash == hash && au->cache[i].rules != NULL) {
            au->cache[i].tick = ++au->tick;
            return &au->cache[i];
        }
    }
    return NULL;
}

static void
ra_cache_drop(ra_audit_t *au, ra_cache_t *c)
{
    au->cache_bytes -= c->bytes;
    ra_rules_free(c->rules);
    memset(c, 0, sizeof(*c));
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
     * does not fit (that looped forever), and the pinned set stays:
     * ra_audit_request() still reads the current version's set (the
     * match's pattern and group point into it) while it compiles older
     * ones.  With nothing else to evict, the budget is exceeded by this
     * one set.
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
            } else if (c->rules != au->pin
                       && (victim == NULL || c->tick < victim->tick))
            {
                victim = c;
            }
        }
        if (victim == NULL
            || au->cache_bytes + bytes <= au->conf.cache_bytes)
        {
            if (empty == NULL) {
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
    uint64_t  h = 0x9e3779b97f4a7c15ULL ^ n, w;

    for ( /* void */ ; n >= 8; p += 8, n -= 8) {
        memcpy(&w, p, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdULL;
        h ^= h >> 32;
    }
    w = 0;
    memcpy(&w, p, n);
    h = (h ^ w) * 0xc4ceb9fe1a85ec53ULL;
    return h ^ (h >> 29);
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
    h = ra_ua_hash(ua.data, ua.len);
    slot = &au->ua[h & (RA_UA_SLOTS - 1)];
    if (slot->used && slot->hash == h && slot->len == ua.len
        && memcmp(slot->ua, ua.data, ua.len) == 0)
    {
        id->kind = slot->kind;
        id->crawler = slot->crawler;
        id->token = ra_str(ua.data + slot->tok_off, slot->tok_len);
        return;
    }
    (void) ra_crawlers_identify(au->conf.crawlers, ua, id);

    slot->used = 1;
    slot->hash = h;
    slot->len = (uint16_t) ua.len;
    memcpy(slot->ua, ua.data, ua.len);
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


/* ---- robots.txt answers ------------------------------------------------ */

static void
ra_version_from_answer(ra_version_t *v, const ra_answer_t *ans)
{
    size_t  n;

    v->status = (uint16_t) (ans->status > 0 && ans->status < 1000
                            ? ans->status : 0);
    v->size = (uint32_t) (ans->size ? ans->size : ans->body.len);
    v->truncated = ans->truncated || v->size > ans->body.len;
    n = ans->content_type.len < RA_CTYPE_MAX ? ans->content_type.len
                                             : RA_CTYPE_MAX;
    if (n) {
        memcpy(v->ctype, ans->content_type.data, n);
        v->ctype_len = (uint8_t) n;
    }
}

int
ra_audit_robots(ra_audit_t *au, ra_str_t site, const ra_answer_t *ans,
    int64_t now)
{
    int             i, rc;
    uint32_t        sid;
    uint64_t        hash;
    ra_site_t      *s;
    ra_lint_t       lint;
    ra_version_t    v;
    ra_lint_http_t  http;
    ra_ledger_t    *l = &au->ledger;

    memset(&v, 0, sizeof(v));
    ra_version_from_answer(&v, ans);
    hash = ra_ledger_version_hash(ans->status, ans->body);

    /* the same version again (the usual case): no need to lint it */
    ra_ledger_lock(l);
    sid = ra_ledger_site_locked(l, site, now);
    s = ra_ledger_site_at(l, sid);
    if (ans->initial) {
        for (i = 0; i < s->nversions; i++) {
            if (s->versions[i].hash) {
                ra_ledger_unlock(l);
                return RA_OK;
            }
        }
    }
    for (i = 0; i < s->nversions; i++) {
        if (s->versions[i].hash == hash
            && ra_answer_of_status(ans->status) != RA_ANSWER_UNREACHABLE)
        {
            v.lint_errors = s->versions[i].lint_errors;
            v.lint_warnings = s->versions[i].lint_warnings;
            v.lint_infos = s->versions[i].lint_infos;
            v.groups = s->versions[i].groups;
            v.rules = s->versions[i].rules;
            v.sitemaps = s->versions[i].sitemaps;
            (void) ra_ledger_answer_locked(l, sid, &v, ans->body, now);
            ra_ledger_unlock(l);
            return RA_OK;
        }
    }
    ra_ledger_unlock(l);

    memset(&http, 0, sizeof(http));
    http.status = ans->status;
    http.content_type = ans->content_type;
    http.size = v.size;
    http.truncated = v.truncated;
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

    ra_ledger_lock(l);
    sid = ra_ledger_site_locked(l, site, now);
    s = ra_ledger_site_at(l, sid);
    for (i = 0; ans->initial && i < s->nversions; i++) {
        if (s->versions[i].hash) {
            ra_ledger_unlock(l);        /* captured meanwhile */
            return rc;
        }
    }
    (void) ra_ledger_answer_locked(l, sid, &v, ans->body, now);
    ra_ledger_unlock(l);
    return rc;
}


/* ---- requests ----------------------------------------------------------- */

/* What a verdict depends on, copied out under the lock. */
typedef struct {
    ra_version_t  versions[RA_VERSIONS];
    int           current;              /* -1: no robots.txt known */
    int64_t       prev_request;
    int64_t       last_fetch;
    uint64_t      last_fetch_version;
    int           last_fetch_status;
    ra_str_t      bodies[RA_VERSIONS];  /* copies of uncached bodies */
} ra_state_t;

/* The request target's path as rules see it: origin-form as it is (a
 * leading "//" is a path here, not an authority), anything else through
 * the URL rules. */
static ra_str_t
ra_request_path(ra_str_t uri)
{
    const unsigned char  *hash;

    if (uri.len && uri.data[0] == '/') {
        hash = memchr(uri.data, '#', uri.len);
        if (hash != NULL) {
            uri.len = (size_t) (hash - uri.data);
        }
        return uri;
    }
    return ra_url_path(uri);
}

static int
ra_is_robots_txt(ra_str_t path)
{
    size_t  n = 0;

    while (n < path.len && path.data[n] != '?') {
        n++;
    }
    return n == 11 && memcmp(path.data, "/robots.txt", 11) == 0;
}

static void
ra_copy_text(char *dst, uint8_t *dlen, size_t max, ra_str_t s)
{
    size_t  n = s.len < max ? s.len : max;

    if (n) {
        memcpy(dst, s.data, n);
    }
    *dlen = (uint8_t) n;
}

/* Reads what the verdict needs; copies bodies this process has not
 * compiled yet.  Under the lock. */
static int
ra_gather_locked(ra_audit_t *au, ra_site_t *s, ra_stat_t *st,
    ra_state_t *g)
{
    int            k;
    ra_str_t       body;
    ra_version_t  *v;

    memset(g, 0, sizeof(*g));
    g->current = s->nversions && s->versions[s->current].hash
                 ? s->current : -1;
    memcpy(g->versions, s->versions, sizeof(g->versions));
    g->prev_request = st->prev_request;
    g->last_fetch = st->last_fetch;
    g->last_fetch_version = st->last_fetch_version;
    g->last_fetch_status = st->last_fetch_status;

    for (k = 0; k < RA_VERSIONS; k++) {
        v = &s->versions[k];
        if (v->hash == 0 || v->answer != RA_ANSWER_RULES || v->blob == 0
            || ra_cache_find(au, v->hash) != NULL)
        {
            continue;
        }
        body = ra_ledger_body_locked(&au->ledger, v);
        g->bodies[k].data = ra_alloc(au->conf.alloc, body.len);
        if (g->bodies[k].data == NULL) {
            return RA_ENOMEM;
        }
        memcpy((void *) g->bodies[k].data, body.data, body.len);
        g->bodies[k].len = body.len;
    }
    return RA_OK;
}

/* The rules of version k: NULL when unknown (its body did not fit). */
static const ra_rules_t *
ra_version_rules(ra_audit_t *au, ra_state_t *g, int k)
{
    ra_cache_t    *c;
    ra_version_t  *v = &g->versions[k];

    c = ra_cache_find(au, v->hash);
    if (c != NULL) {
        return c->rules;
    }
    if (v->answer == RA_ANSWER_ALLOW_ALL) {
        return ra_cache_add(au, v->hash, ra_str("", 0), 0);
    }
    if (v->answer == RA_ANSWER_RULES && v->blob == 0 && v->body_len == 0
        && !v->body_lost)
    {
        return ra_cache_add(au, v->hash, ra_str("", 0), 1);  /* empty */
    }
    if (g->bodies[k].data == NULL) {
        return NULL;
    }
    return ra_cache_add(au, v->hash, g->bodies[k], 1);
}

static int
ra_allows(const ra_rules_t *rs, const ra_str_t *agents, size_t n,
    int ignores_star, ra_str_t path, const ra_alloc_t *a, ra_match_t *m)
{
    (void) ra_rules_match(rs, RA_MODE_RFC, agents, n, path, a, m);
    /* AdsBot-Google and kin never read the "*" group */
    if (ignores_star && m->group.len == 1 && m->group.data[0] == '*') {
        m->allowed = 1;
        m->why = RA_WHY_NO_GROUP;
        m->line = 0;
    }
    return m->allowed;
}

static void
ra_count(ra_site_t *s, ra_stat_t *st, ra_counter_e c)
{
    ra_ledger_add(&st->counters[c], 1);
    ra_ledger_add(&s->counters[c], 1);
}

int
ra_audit_request(ra_audit_t *au, const ra_request_t *req, ra_verdict_t *out)
{
    int                  k, rc, created, cur_allowed, ignores_star;
    size_t               ntokens;
    uint32_t             sid, tid;
    ra_str_t             path, tokens[8], generic = ra_string("generic");
    ra_addr_t            addr;
    ra_site_t           *s;
    ra_stat_t           *st;
    ra_state_t           g;
    ra_match_t           m, mv;
    ra_identity_t        id;
    ra_violation_t       vio;
    const ra_rules_t    *rs;
    const ra_crawler_t  *c;
    ra_ledger_t         *l = &au->ledger;
    int64_t              now = req->time;

    memset(out, 0, sizeof(*out));
    ra_identify(au, req->user_agent, &id);
    out->kind = id.kind;

    if (id.kind == RA_UA_BROWSER) {
        ra_ledger_lock(l);
        sid = ra_ledger_site_locked(l, req->site, now);
        ra_ledger_add(&ra_ledger_site_at(l, sid)->browser_requests, 1);
        ra_ledger_add(&l->hdr->requests, 1);
        ra_ledger_unlock(l);
        return RA_OK;
    }

    /* who it is, what it reads, whether it is who it claims to be */
    c = id.crawler;
    out->crawler = c;
    ntokens = 0;
    ignores_star = 0;
    if (c != NULL) {
        out->name = c->name;
        for (ntokens = 0; ntokens < c->ntokens && ntokens < 8; ntokens++) {
            tokens[ntokens] = c->tokens[ntokens];
        }
        ignores_star = (c->flags & RA_CRAWLER_IGNORES_STAR) != 0;
        out->verification = RA_VERIFY_UNVERIFIABLE;
        if (ra_addr_parse(req->addr, &addr) == RA_OK) {
            out->verification = (unsigned) ra_verify(au->conf.ranges, c,
                                                     &addr);
        }
    } else {
        out->name = id.token.len ? id.token : generic;
        if (id.token.len) {
            tokens[ntokens++] = id.token;
        }
        out->verification = RA_VERIFY_UNVERIFIABLE;
    }
    if (out->name.len > RA_NAME_MAX) {
        out->name.len = RA_NAME_MAX;
    }

    path = ra_request_path(req->uri);

    ra_ledger_lock(l);
    sid = ra_ledger_site_locked(l, req->site, now);
    s = ra_ledger_site_at(l, sid);
    tid = ra_ledger_stat_locked(l, sid, out->name, out->verification, now,
                                &created);
    st = ra_ledger_stat_at(l, tid);
    if (created) {
        st->kind = (uint8_t) id.kind;
        st->category = (uint8_t) (c ? c->category : RA_CAT_MAX);
        if (ntokens) {
            ra_copy_text(st->token, &st->token_len, RA_NAME_MAX, tokens[0]);
        }
    }
    st->last_seen = now;
    ra_ledger_add(&l->hdr->requests, 1);

    if (ra_is_robots_txt(path)) {
        /* a robots.txt fetch: what it was served */
        st->last_fetch = now;
        st->last_fetch_status = (uint16_t) (req->status > 0
                                            && req->status < 1000
                                            ? req->status : 0);
        st->last_fetch_version =
            ra_answer_of_status(req->status) != RA_ANSWER_UNREACHABLE
            && s->nversions ? s->versions[s->current].hash : 0;
        ra_count(s, st, RA_CNT_REQUESTS);
        ra_count(s, st, RA_CNT_ROBOTS_FETCHES);
        ra_ledger_unlock(l);
        out->verdict = RA_VERDICT_FETCH;
        return RA_OK;
    }

    rc = ra_gather_locked(au, s, st, &g);
    st->prev_request = now;
    ra_ledger_unlock(l);

    /* judge, outside the lock */
    memset(&m, 0, sizeof(m));
    m.allowed = 1;
    if (c != NULL && (c->flags & RA_CRAWLER_USER_TRIGGERED)) {
        out->verdict = RA_VERDICT_EXEMPT;
    } else if (g.last_fetch
               && ra_answer_of_status(g.last_fetch_status)
                  == RA_ANSWER_UNREACHABLE
               && now - g.last_fetch < RA_UNREACHABLE_MS)
    {
        out->verdict = RA_VERDICT_UNREACHABLE;
    } else {
        rs = g.current >= 0 ? ra_version_rules(au, &g, g.current) : NULL;
        au->pin = rs;           /* m points into it until we return */
        cur_allowed = rs == NULL
                      || ra_allows(rs, tokens, ntokens, ignores_star, path,
                                   au->conf.alloc, &m);
        if (cur_allowed) {
            out->verdict = RA_VERDICT_COMPLIANT;
        } else {
            out->verdict = RA_VERDICT_VIOLATION;
            for (k = 0; k < RA_VERSIONS; k++) {
                if (k == g.current || g.versions[k].hash == 0) {
                    continue;
                }
                if (g.last_fetch && now - g.last_fetch < RA_DAY_MS) {
                    /* it fetched: only what it was served counts */
                    if (g.versions[k].hash != g.last_fetch_version) {
                        continue;
                    }
                } else if (g.versions[k].until
                           && g.versions[k].until < now - RA_DAY_MS)
                {
                    continue;       /* not in force in the last 24 h */
                }
                rs = ra_version_rules(au, &g, k);
                if (rs != NULL && ra_allows(rs, tokens, ntokens, ignores_star,
                                            path, au->conf.alloc, &mv))
                {
                    out->verdict = RA_VERDICT_STALE;
                    break;
                }
            }
        }
    }

    if (out->verdict != RA_VERDICT_EXEMPT) {
        if (g.last_fetch == 0 || now - g.last_fetch >= RA_DAY_MS) {
            out->flags |= RA_FLAG_NO_ROBOTS_FETCH;
        }
        if (m.crawl_delay_ms > 0 && c != NULL
            && (c->flags & RA_CRAWLER_CRAWL_DELAY) && g.prev_request
            && now - g.prev_request < m.crawl_delay_ms)
        {
            out->flags |= RA_FLAG_CRAWL_DELAY;
        }
    }
    out->token = m.group;
    out->line = m.line;
    out->rule_type = m.type;
    out->pattern = m.pattern;

    for (k = 0; k < RA_VERSIONS; k++) {
        ra_free(au->conf.alloc, (void *) g.bodies[k].data);
    }

    /* count; a violation also goes to the ring and may raise an alert */
    ra_ledger_lock(l);
    sid = ra_ledger_site_locked(l, req->site, now);
    s = ra_ledger_site_at(l, sid);
    tid = ra_ledger_stat_locked(l, sid, out->name, out->verification, now,
                                &created);
    st = ra_ledger_stat_at(l, tid);
    ra_count(s, st, RA_CNT_REQUESTS);
    switch (out->verdict) {
    case RA_VERDICT_COMPLIANT:   ra_count(s, st, RA_CNT_COMPLIANT); break;
    case RA_VERDICT_VIOLATION:   ra_count(s, st, RA_CNT_VIOLATION); break;
    case RA_VERDICT_STALE:       ra_count(s, st, RA_CNT_STALE); break;
    case RA_VERDICT_UNREACHABLE: ra_count(s, st, RA_CNT_UNREACHABLE); break;
    case RA_VERDICT_EXEMPT:      ra_count(s, st, RA_CNT_EXEMPT); break;
    default: break;
    }
    if (out->flags & RA_FLAG_CRAWL_DELAY) {
        ra_count(s, st, RA_CNT_CRAWL_DELAY);
    }
    if (out->flags & RA_FLAG_NO_ROBOTS_FETCH) {
        ra_count(s, st, RA_CNT_NO_ROBOTS_FETCH);
    }

    if (out->verdict == RA_VERDICT_VIOLATION
        || out->verdict == RA_VERDICT_UNREACHABLE)
    {
        memset(&vio, 0, sizeof(vio));
        vio.time = now;
        vio.site = sid;
        vio.site_epoch = s->epoch;
        vio.line = out->line;
        vio.verification = (uint8_t) out->verification;
        vio.verdict = (uint8_t) out->verdict;
        ra_copy_text(vio.name, &vio.name_len, RA_NAME_MAX, out->name);
        ra_copy_text(vio.method, &vio.method_len, RA_METHOD_MAX, req->method);
        ra_copy_text(vio.addr, &vio.addr_len, RA_ADDR_TEXT_MAX, req->addr);
        vio.uri_len = (uint16_t) (req->uri.len < RA_URI_MAX ? req->uri.len
                                                            : RA_URI_MAX);
        if (vio.uri_len) {
            memcpy(vio.uri, req->uri.data, vio.uri_len);
        }
        vio.uri_full_len = (uint32_t) req->uri.len;
        vio.pattern_len = (uint16_t) (out->pattern.len < RA_PATTERN_MAX
                                      ? out->pattern.len : RA_PATTERN_MAX);
        if (vio.pattern_len) {
            memcpy(vio.pattern, out->pattern.data, vio.pattern_len);
        }
        ra_ledger_violation_locked(l, &vio);

        if (out->verification != RA_VERIFY_IMPOSTOR) {
            if (st->last_alert == 0
                || now - st->last_alert >= au->conf.alert_interval)
            {
                out->alert = 1;
                out->suppressed = st->alerts_suppressed;
                st->alerts_suppressed = 0;
                st->last_alert = now;
            } else {
                st->alerts_suppressed++;
            }
        }
    }
    ra_ledger_unlock(l);
    return rc;
}
