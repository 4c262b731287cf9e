/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A request judged and counted (ra_audit_request(), docs/design.md,
 * "Verdicts"): who the client is and whether it is who it claims to be,
 * what the verdict reads, the verdict, and its count.
 *
 * A request takes the ledger's lock twice at most: once to find its site
 * and stat records and copy what the verdict depends on (the site's
 * versions, the crawler's last fetch and previous request), once to count
 * the verdict.  In between, ra_judge() decides without the lock.  With
 * this process's hints of the site and record found less than
 * RA_SITE_TOUCH_MS ago, a browser's count, the read and a count that
 * moves only counters take no lock (docs/design.md, "Locking").  A
 * version the verdict needs and this process has not compiled has its
 * body copied out under the lock (a third, short hold: ra_audit.c).
 */
#include <string.h>

#include "ra_audit_impl.h"
#include "ra_http.h"
#include "ra_policy.h"

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

/* Who the request says it is (ra_audit.h).  Inlined into the request
 * path here, and exported for the CLI's identify. */
inline __attribute__((always_inline)) void
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

/* Who sent req and whether it is who it claims (ra_audit_client() and
 * ra_audit_key(), as a request's verdict asks them), for a robots.txt
 * answer: 1 for a crawler or a generic bot, with *key its record's key;
 * 0 for a browser or a client without a User-Agent. */
int
ra_audit_claim(ra_audit_t *au, const ra_request_t *req, ra_verdict_t *out,
    ra_identity_t *id, ra_str_t *tokens, ra_judge_who_t *who,
    ra_stat_key_t *key)
{
    int               no_ua;
    ra_sig_verdict_t  sv;

    if (!ra_audit_client(au, req, out, id, &sv, &no_ua)) {
        return 0;
    }
    ra_audit_key(au, id, req, &sv, out, tokens, who, key);
    return 1;
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
uint32_t
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
uint32_t
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

/* Clears the verdict: every field but the bytes past token_len,
 * pattern_len and the budget's held names (what every request would
 * clear for nothing). */
static inline __attribute__((always_inline)) void
ra_verdict_reset(ra_verdict_t *out)
{
    memset(out, 0, offsetof(ra_verdict_t, token));
    memset((char *) out + offsetof(ra_verdict_t, pattern) + RA_PATTERN_MAX,
           0, offsetof(ra_verdict_t, budget)
              - offsetof(ra_verdict_t, pattern) - RA_PATTERN_MAX);
    memset(&out->budget, 0, offsetof(ra_alert_summary_t, held_len));
    out->budget.budget.site = out->budget.budget.total = 0;
    out->sig_result = RA_SIG_NONE;
    out->sig_why = "";
    out->last_fetch = 0;
    out->sha_known = 0;
}

/* Crawl-to-refer: the operator that sent a browser's visit, by its
 * Referer (once: not its redirects nor its ranges), else by the
 * utm_source its target names (not from the site's own page); -1 when
 * none did, or the visit was no visit (its status).  no_ua: no operator
 * sends a client without a User-Agent. */
static int
ra_audit_browser_referral(ra_audit_t *au, const ra_request_t *req,
    int no_ua)
{
    int  op = -1;

    if (no_ua) {
        return -1;
    }
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
    return op;
}

/* A browser's request, or a client's without a User-Agent (no_ua):
 * counted in the site's totals, by this process's hint without the lock
 * when it can be, else under the lock. */
static void
ra_audit_browser(ra_audit_t *au, const ra_request_t *req, int no_ua,
    unsigned target)
{
    int           op;
    uint32_t      sid;
    ra_ledger_t  *l = &au->ledger;
    int64_t       now = req->time;

    op = ra_audit_browser_referral(au, req, no_ua);
    if (ra_audit_browser_hinted(au, req, no_ua, op, target)) {
        return;                         /* nothing evicted: no note due */
    }

    ra_ledger_lock(l);
    sid = ra_audit_site_locked(au, req->site, now, !au->conf.crawler_sites);
    ra_ledger_browser_locked(l, sid, no_ua);
    if (op >= 0) {
        ra_ledger_referral_locked(l, sid, (unsigned) op, 0);
    }
    if (!(target & RA_TARGET_ROBOTS)) {
        ra_ledger_page_locked(l, sid, req->status, now);
    }
    ra_ledger_unlock(l);

    ra_audit_full(au, req);
}

/*
 * A crawler's robots.txt fetch, counted under the lock: what it was
 * served; an answer about the request (412 to an If-Match, 501 to a bad
 * Transfer-Encoding) is counted, not taken for what the crawler read; a
 * HEAD or a query (query) fetches no file (a request, not a fetch).  op:
 * the crawl-to-refer operator, or -1.
 */
static void
ra_audit_fetch(ra_audit_t *au, const ra_request_t *req,
    const ra_identity_t *id, const ra_stat_key_t *key, int query, int op)
{
    uint32_t      sid, tid;
    ra_ledger_t  *l = &au->ledger;
    int64_t       now = req->time;

    ra_ledger_lock(l);
    sid = ra_audit_site_locked(au, req->site, now, 1);
    tid = ra_audit_stat_locked(au, sid, id->crawler, key, now);
    if (query || !ra_method_fetches(req->method)) {
        ra_ledger_count_locked(l, sid, tid, RA_CNT_REQUESTS);
    } else if (req->recorded) {
        /* bound when its answer went out (ra_audit_robots()) */
        ra_ledger_count_locked(l, sid, tid, RA_CNT_REQUESTS);
        ra_ledger_count_locked(l, sid, tid, RA_CNT_ROBOTS_FETCHES);
    } else if (ra_http_answer_is_file(req->status)) {
        /* 304, 206: the version in force, and robots.txt answers (not
         * captured: the modules see no new file) */
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

    ra_audit_full(au, req);
}

/*
 * Gather: what the verdict reads (g->facts), and the site and record it
 * counts in (*at: site, epoch, stat, tag).  Without the lock when this
 * process's hints still hold (ra_audit_state_hinted()); else under it,
 * which also counts the page's answer for the site.  Either way the
 * site's versions are busy until the verdict is done.
 */
static inline __attribute__((always_inline)) void
ra_audit_gather(ra_audit_t *au, const ra_request_t *req,
    const ra_identity_t *id, const ra_stat_key_t *key, ra_judge_state_t *g,
    ra_ledger_hint_t *at)
{
    uint32_t      sid, tid;
    ra_ledger_t  *l = &au->ledger;
    int64_t       now = req->time;

    if (ra_audit_state_hinted(au, req, id->crawler, key, at, &g->facts)) {
        ra_gather_busy(au, &g->facts);  /* read without the lock */
        return;
    }

    ra_ledger_lock(l);
    sid = ra_audit_site_locked(au, req->site, now, 1);
    tid = ra_audit_stat_locked(au, sid, id->crawler, key, now);
    ra_ledger_page_locked(l, sid, req->status, now);
    ra_ledger_state_locked(l, sid, tid, now, &g->facts);
    ra_gather_busy(au, &g->facts);
    at->site = sid;
    at->epoch = ra_ledger_site_epoch_locked(l, sid);
    at->stat = tid;
    at->tag = ra_ledger_stat_tag_locked(l, tid);
    ra_ledger_unlock(l);
}

/*
 * Judge, outside the lock (a version not compiled yet takes the lock once
 * more, to copy its body: ra_gather_resolve()), then what enforce or the
 * scope's policy refuses (the caller answers as ra_policy_answer() says)
 * and an impostor's alert, when the purpose of the crawler it claims to be
 * alerts: its gate is this process's, outside the lock; the alert then
 * meets the budgets as any other.  RA_OK or RA_ENOMEM (the request is
 * counted, not judged).
 */
static inline __attribute__((always_inline)) int
ra_audit_decide(ra_audit_t *au, const ra_request_t *req,
    const ra_judge_who_t *who, ra_judge_state_t *g, ra_verdict_t *out)
{
    int                rc;
    unsigned           k;
    ra_gather_t        x;

    x.au = au;
    x.site = req->site;
    x.now = req->time;
    memset(g->rules, 0, sizeof(g->rules));
    g->resolve = ra_gather_resolve;
    g->ctx = &x;
    g->scratch = au->conf.alloc;
    g->memo = &au->groups;

    rc = ra_judge(g, who, ra_http_target_path(req->uri), req->time, out);
    for (k = 0; k < RA_VERSIONS; k++) {
        au->busy[k] = 0;
    }

    out->refused = ra_enforce_refuses(req->enforce, out);
    /* the policy refuses what enforce let through, robots.txt or not */
    if (out->refused == RA_REFUSE_NONE
        && ra_policy_refuses(req->policy, out) != RA_POLICY_PASS)
    {
        out->refused = RA_REFUSE_POLICY;
    }
    if (out->verification == RA_VERIFY_IMPOSTOR
        && ra_alert_purpose_wanted(au->conf.alert_purposes, out->crawler))
    {
        out->alert = ra_impostor_alert(au, req, out, &out->suppressed);
    }
    return rc;
}

/*
 * Count: without the lock when only counters move and the records found
 * before (at) are still there: 1, nothing evicted; else under the lock,
 * with the ring, the rule hit and the alerts (ra_count_locked()): 0.
 * rc: the decision's (RA_ENOMEM counts under the lock).
 */
static inline __attribute__((always_inline)) int
ra_audit_count(ra_audit_t *au, const ra_request_t *req, ra_verdict_t *out,
    unsigned target, int op, const ra_stat_key_t *key,
    ra_ledger_hint_t *at, const ra_ledger_state_t *facts, int rc)
{
    uint32_t      sid, tid, mask;
    ra_ledger_t  *l = &au->ledger;
    int64_t       now = req->time;

    mask = ra_count_mask(out, target);
    if (mask != 0 && rc != RA_ENOMEM
        && ra_ledger_count_hinted(l, at, mask,
                                  op >= 0 ? (unsigned) op : RA_REFER_SLOTS,
                                  now, out->crawl_delay_ms, key->verified_by))
    {
        return 1;
    }

    ra_ledger_lock(l);
    sid = ra_audit_site_locked(au, req->site, now, 1);
    tid = ra_ledger_stat_again_locked(l, sid, at->stat, key, now);
    ra_count_locked(au, sid, tid, req, out, facts);
    if (target & RA_TARGET_LLMS) {
        /* does anyone read it? judged as any URL, and counted */
        ra_ledger_count_locked(l, sid, tid, RA_CNT_LLMS_FETCHES);
    }
    if (op >= 0) {
        ra_ledger_referral_locked(l, sid, (unsigned) op, 1);
    }
    ra_ledger_unlock(l);
    return 0;
}

/*
 * A request: what kind it is; who sent it (a browser is only counted);
 * a crawler's robots.txt fetch is counted as one; any other request of a
 * crawler is gathered, decided and counted.  The ledger's lock is taken
 * only inside those steps, each of them once at most (and the decision's
 * body copy, ra_gather_resolve()).
 */
int
ra_audit_request(ra_audit_t *au, const ra_request_t *req, ra_verdict_t *out)
{
    int                  rc, no_ua, op, query;
    unsigned             target;
    ra_str_t             tokens[RA_TOKENS_MAX];
    ra_ledger_hint_t     at;
    ra_stat_key_t        key;
    ra_identity_t        id;
    ra_judge_who_t       who;
    ra_judge_state_t     g;
    ra_sig_verdict_t     sv;

    ra_verdict_reset(out);
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

    /* the browser step, about 70% of the requests: one identification
     * (a cache hit, mostly) and one counter, without the lock; whatever
     * else a browser's request needs belongs in ra_audit_browser(), kept
     * as cheap.  No User-Agent at all ("-" in logs) is counted apart:
     * neither a browser nor a crawler that can be judged */
    if (!ra_audit_client(au, req, out, &id, &sv, &no_ua)) {
        ra_audit_browser(au, req, no_ua, target);
        return RA_OK;
    }
    /* who it is, what it reads, whether it is who it claims to be */
    ra_audit_key(au, &id, req, &sv, out, tokens, &who, &key);
    op = ra_refer_crawler(au, &id, out);

    if (target & RA_TARGET_ROBOTS) {
        ra_audit_fetch(au, req, &id, &key, query, op);
        out->verdict = RA_VERDICT_FETCH;
        return RA_OK;
    }

    ra_audit_gather(au, req, &id, &key, &g, &at);
    rc = ra_audit_decide(au, req, &who, &g, out);
    if (ra_audit_count(au, req, out, target, op, &key, &at, &g.facts, rc)) {
        return rc;                      /* nothing evicted: no note due */
    }
    if (rc == RA_ENOMEM) {
        ra_logf(au->conf.host, req->where, RA_LOG_ERR, RA_TAG_NOMEM,
                "out of memory, request counted but not judged");
    }
    ra_audit_full(au, req);
    return rc;
}
