/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The engine's step for a browser's request in a server: its client goes
 * through its site's undeclared-crawler table in the ledger's region
 * (ra_ledger_undecl_locked()), judged against the '*' group of the site's
 * robots.txt in force (ra_undecl_judge()), all under one taking of the
 * ledger's lock once this process has compiled that robots.txt.  The
 * site, its version in force, its table and the client's address are
 * found through this process's memo (ra_undeclared_memo.h), each checked
 * against the ledger as it is now.  Once the client is flagged,
 * each of its violations meets the alert budgets as a crawler's does, and
 * enforce's "undeclared" refuses it.  The lines it writes are
 * ra_outcome_undeclared()'s, the same for the servers and the CLI.
 */
#include <string.h>

#include "ra_audit_impl.h"
#include "ra_cloud.h"
#include "ra_http.h"
#include "ra_undeclared.h"
#include "ra_verify.h"

/* The memo of a site's name as requests give it (name.len in [1,
 * RA_SITE_NAME_MAX]) */
static ra_undecl_memo_site_t *
ra_undecl_memo_of(ra_audit_t *au, ra_str_t name)
{
    return &au->undecl.site[(name.len ^ name.data[name.len - 1])
                            & (RA_UNDECL_MEMO_SITES - 1)];
}

/* The site's id under the lock, touched as ra_ledger_site_find_locked()
 * touches it (never created): by this process's memo while the ledger's
 * slot still holds the site, else by name (and memo filled anew) */
static uint32_t
ra_undecl_site_locked(ra_audit_t *au, ra_undecl_memo_site_t *m,
    ra_str_t name, int64_t now)
{
    uint32_t  sid;

    if (m == NULL) {
        return ra_ledger_site_find_locked(&au->ledger, name, now);
    }
    if (m->len == name.len && memcmp(m->name, name.data, name.len) == 0) {
        sid = ra_ledger_site_again_locked(&au->ledger, m->site, m->epoch,
                                          now);
        if (sid != 0) {
            return sid;
        }
    }
    sid = ra_ledger_site_find_locked(&au->ledger, name, now);
    memset(m, 0, sizeof(*m));
    if (sid != 0) {
        m->site = sid;
        m->epoch = ra_ledger_site_epoch_locked(&au->ledger, sid);
        m->len = (uint16_t) name.len;
        memcpy(m->name, name.data, name.len);
    }
    return sid;
}

/* The '*' group's rules of the site's robots.txt in force, NULL when it
 * has none known (every path then allowed), the lock held: which version
 * is in force (read again only when the site changed since the memo read
 * it), then this process's cache of compiled sets; a version not
 * compiled yet is, once, outside the lock (which it leaves and takes
 * again) */
static const ra_rules_t *
ra_undecl_rules_locked(ra_audit_t *au, ra_undecl_memo_site_t *m,
    const ra_request_t *req)
{
    int                rc;
    uint32_t           sid, at;
    ra_gather_t        x;
    ra_judge_state_t   g;
    ra_version_fact_t  cur;
    const ra_rules_t  *rs = NULL;

    sid = ra_undecl_site_locked(au, m, req->site, req->time);
    at = ra_ledger_site_facts_at_locked(&au->ledger, sid);
    if (m != NULL && sid != 0 && at != 0 && m->facts_at == at) {
        cur = m->current;
    } else {
        ra_ledger_current_locked(&au->ledger, sid, &cur);
        if (m != NULL && sid != 0) {
            m->current = cur;
            m->facts_at = at;
        }
    }
    if (cur.hash == 0) {
        return NULL;
    }
    /* the version in force as version 0 of a state of its own: all that
     * ra_gather_cached() and ra_gather_resolve() read of one (its facts'
     * version k, ctx), without clearing the rest of it on every request */
    x.au = au;
    x.site = req->site;
    x.now = req->time;
    g.ctx = &x;
    g.facts.versions[0] = cur;
    rc = ra_gather_cached(&g, 0, &rs);
    if (rc == RA_EAGAIN) {
        ra_ledger_unlock(&au->ledger);
        rc = ra_gather_resolve(&g, 0, &rs);
        ra_ledger_lock(&au->ledger);
    }
    return rc == RA_OK ? rs : NULL;
}

/* The client's address parsed, and whether it lies in the cloud ranges:
 * by this process's memo of the addresses it saw last, else parsed and
 * looked up (outside the lock: the set is the process's, built with its
 * configuration); RA_OK or RA_ERROR (not an address) */
static int
ra_undecl_addr(ra_audit_t *au, ra_str_t text, ra_addr_t *a, int *cloud)
{
    ra_undecl_memo_addr_t  *m;

    if (text.len == 0 || text.len > RA_UNDECL_MEMO_TEXT) {
        if (ra_addr_parse(text, a) != RA_OK) {
            return RA_ERROR;
        }
        *cloud = ra_ranges_cloud(au->conf.cloud, a) >= 0;
        return RA_OK;
    }
    m = &au->undecl.addr[(text.len ^ text.data[text.len - 1]
                          ^ text.data[text.len / 2])
                         & (RA_UNDECL_MEMO_ADDRS - 1)];
    if (m->len == text.len && memcmp(m->text, text.data, text.len) == 0) {
        *a = m->addr;
        *cloud = m->cloud;
        return RA_OK;
    }
    if (ra_addr_parse(text, a) != RA_OK) {
        return RA_ERROR;
    }
    *cloud = ra_ranges_cloud(au->conf.cloud, a) >= 0;
    m->addr = *a;
    m->cloud = (uint8_t) *cloud;
    m->len = (uint8_t) text.len;
    memcpy(m->text, text.data, text.len);
    return RA_OK;
}

/* A flagged client's violation meets the alert budgets (anyone's share:
 * it names no crawler); under the lock */
static unsigned
ra_undecl_budget_locked(ra_audit_t *au, ra_undecl_memo_site_t *m,
    const ra_request_t *req)
{
    uint32_t          sid;
    ra_alert_state_t  st;

    sid = ra_undecl_site_locked(au, m, req->site, req->time);
    if (sid == 0
        || ra_ledger_alert_state_locked(&au->ledger, sid, 0, &st) != RA_OK)
    {
        return 1;
    }
    st.crawler_mark = NULL;
    st.verified = 0;
    st.name = ra_str("undeclared", 10);
    st.client = req->addr;
    st.violation = 1;
    return (unsigned) ra_alert_budget_take(&st, &au->conf.alert_budget,
                                           req->time);
}

int
ra_audit_undeclared_on(const ra_audit_t *au)
{
    return !au->conf.undeclared_off && au->ledger.base != NULL
           && ra_ledger_undecl_slots(&au->ledger) != 0;
}

int
ra_audit_undeclared(ra_audit_t *au, const ra_request_t *req,
    ra_verdict_t *v, ra_undecl_out_t *u)
{
    int                     cloud;
    uint64_t                ph;
    uint32_t                slot = 0, gen = 0;
    ra_addr_t               a;
    ra_undecl_t            *t;
    ra_undecl_memo_site_t  *m = NULL;
    ra_undecl_memo_path_t  *p = NULL;
    const ra_rules_t       *rs;

    u->v.verdict = RA_UNDECL_V_NONE;
    u->alert = 0;
    if (au->ledger.base == NULL || req->method.len == 0
        || ra_ua_absent(req->user_agent)
        || (ra_http_request_kind(req) & RA_TARGET_SERVER_PAGE)
        || ra_undecl_addr(au, req->addr, &a, &cloud) != RA_OK)
    {
        return 0;
    }
    memset(&u->r, 0, sizeof(u->r));
    memcpy(u->r.addr, a.b, sizeof(u->r.addr));
    u->r.time_ms = req->time;
    u->r.path = req->uri;
    u->r.referer = req->referer;
    u->r.user_agent = req->user_agent;
    u->r.cloud = (unsigned) cloud;
    u->site = req->site;
    u->method = req->method;
    if (req->site.len != 0 && req->site.len <= RA_SITE_NAME_MAX) {
        m = ra_undecl_memo_of(au, req->site);
    }
    ph = ra_ua_hash(req->uri.data, req->uri.len);
    ra_ledger_lock(&au->ledger);
    rs = ra_undecl_rules_locked(au, m, req);
    /* a path the version in force allowed before is not matched again:
     * the judge then reads it as a path no rule names */
    if (rs != NULL && m != NULL && m->len == req->site.len
        && m->current.hash != 0 && req->uri.len <= RA_UNDECL_MEMO_PATH)
    {
        p = &au->undecl.path[((ph * 0x9e3779b97f4a7c15ULL) >> 32)
                              & (RA_UNDECL_MEMO_PATHS - 1)];
        if (p->version == m->current.hash && p->hash == ph
            && p->len == req->uri.len
            && memcmp(p->text, req->uri.data, req->uri.len) == 0)
        {
            rs = NULL;
            p = NULL;
        }
    }
    /* the table's slot as the memo had it: after the step above the
     * memo names this site (found, or filled anew), or none (len 0) */
    if (m != NULL && m->len == req->site.len) {
        slot = m->slot;
        gen = m->slot_gen;
    }
    t = ra_ledger_undecl_hinted_locked(&au->ledger, req->site, req->time,
                                       &slot, &gen);
    if (t == NULL) {
        ra_ledger_unlock(&au->ledger);
        return 0;
    }
    if (m != NULL && m->len == req->site.len) {
        m->slot = slot;
        m->slot_gen = gen;
    }
    /* a server judges from the flagging request on (its window before
     * went by unjudged) */
    ra_undecl_judge(t, rs, &u->r, req->method, 0, au->conf.alloc, &u->v);
    if (p != NULL && !u->v.shared && u->v.match.allowed) {
        p->version = m->current.hash;
        p->hash = ph;
        p->len = (uint16_t) req->uri.len;
        memcpy(p->text, req->uri.data, req->uri.len);
    }
    if (u->v.hit.rec != 0) {
        memcpy(&u->rec, ra_undecl_record(t, u->v.hit.rec - 1),
               sizeof(u->rec));
    }
    ra_ledger_undecl_done_locked(&au->ledger, slot);
    if (u->v.verdict == RA_UNDECL_V_VIOLATION) {
        u->alert = ra_undecl_budget_locked(au, m, req);
    }
    ra_ledger_unlock(&au->ledger);

    /* enforce's word "undeclared": a flagged client's disallowed path,
     * nothing else (a person behind its address still reads the site) */
    if (u->v.verdict == RA_UNDECL_V_VIOLATION
        && (req->enforce & RA_ENFORCE_UNDECLARED)
        && v->refused == RA_REFUSE_NONE)
    {
        v->refused = RA_REFUSE_UNDECLARED;
    }
    return u->v.verdict != RA_UNDECL_V_NONE;
}
