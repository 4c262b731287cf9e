/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The engine's step for a browser's request in a server: its client goes
 * through its site's undeclared-crawler table in the ledger's region
 * (ra_ledger_undecl_locked()), judged against the '*' group of the site's
 * robots.txt in force (ra_undecl_judge()), all under one taking of the
 * ledger's lock once this process has compiled that robots.txt.  Once the client is flagged,
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

/* The '*' group's rules of the site's robots.txt in force, NULL when it
 * has none known (every path then allowed), the lock held: what the
 * site's versions say, then this process's cache of compiled sets; a
 * version not compiled yet is, once, outside the lock (which it leaves
 * and takes again) */
static const ra_rules_t *
ra_undecl_rules_locked(ra_audit_t *au, const ra_request_t *req)
{
    int                rc;
    uint32_t           sid;
    ra_gather_t        x;
    ra_judge_state_t   g;
    const ra_rules_t  *rs = NULL;

    memset(&g, 0, sizeof(g));
    sid = ra_ledger_site_find_locked(&au->ledger, req->site, req->time);
    ra_ledger_site_state_locked(&au->ledger, sid, &g.facts);
    if (g.facts.current < 0 || g.facts.current >= RA_VERSIONS) {
        return NULL;
    }
    x.au = au;
    x.site = req->site;
    x.now = req->time;
    g.ctx = &x;
    rc = ra_gather_cached(&g, (unsigned) g.facts.current, &rs);
    if (rc == RA_EAGAIN) {
        ra_ledger_unlock(&au->ledger);
        rc = ra_gather_resolve(&g, (unsigned) g.facts.current, &rs);
        ra_ledger_lock(&au->ledger);
    }
    return rc == RA_OK ? rs : NULL;
}

/* A flagged client's violation meets the alert budgets (anyone's share:
 * it names no crawler); under the lock */
static unsigned
ra_undecl_budget_locked(ra_audit_t *au, const ra_request_t *req)
{
    uint32_t          sid;
    ra_alert_state_t  st;

    sid = ra_ledger_site_find_locked(&au->ledger, req->site, req->time);
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
    uint32_t           slot;
    ra_addr_t          a;
    ra_undecl_t       *t;
    const ra_rules_t  *rs;

    u->v.verdict = RA_UNDECL_V_NONE;
    u->alert = 0;
    if (au->ledger.base == NULL || req->method.len == 0
        || ra_ua_absent(req->user_agent)
        || (ra_http_request_kind(req) & RA_TARGET_SERVER_PAGE)
        || ra_addr_parse(req->addr, &a) != RA_OK)
    {
        return 0;
    }
    memset(&u->r, 0, sizeof(u->r));
    memcpy(u->r.addr, a.b, sizeof(u->r.addr));
    u->r.time_ms = req->time;
    u->r.path = req->uri;
    u->r.referer = req->referer;
    u->r.user_agent = req->user_agent;
    /* the cloud lookup is outside the lock: the set is the process's,
     * built with its configuration */
    u->r.cloud = ra_ranges_cloud(au->conf.cloud, &a) >= 0;
    u->site = req->site;
    u->method = req->method;
    ra_ledger_lock(&au->ledger);
    rs = ra_undecl_rules_locked(au, req);
    t = ra_ledger_undecl_locked(&au->ledger, req->site, req->time, &slot);
    if (t == NULL) {
        ra_ledger_unlock(&au->ledger);
        return 0;
    }
    /* a server judges from the flagging request on (its window before
     * went by unjudged) */
    ra_undecl_judge(t, rs, &u->r, req->method, 0, au->conf.alloc, &u->v);
    if (u->v.hit.rec != 0) {
        memcpy(&u->rec, ra_undecl_record(t, u->v.hit.rec - 1),
               sizeof(u->rec));
    }
    ra_ledger_undecl_done_locked(&au->ledger, slot);
    if (u->v.verdict == RA_UNDECL_V_VIOLATION) {
        u->alert = ra_undecl_budget_locked(au, req);
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
