/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The count step of a request (ra_audit_request()): a verdict's counters,
 * the violation ring, and whether an alert goes out: the ledger's gates
 * per (site, crawler) and per (site, address block) for generic bots,
 * this process's impostor gate, and the alert budgets (ra_alert.h); and
 * the evidence log's budget (ra_evidence.h), which a violation's line
 * meets once it is counted.
 */
#include <string.h>

#include "ra_audit_impl.h"
#include "ra_evidence.h"

int
ra_audit_evidence_take(ra_audit_t *au, ra_str_t site, size_t bytes,
    int64_t now)
{
    int                  ok;
    uint32_t             sid;
    ra_evidence_state_t  st;
    ra_ledger_t         *l = &au->ledger;

    ra_ledger_lock(l);
    sid = ra_ledger_site_find_locked(l, site, now);
    ra_ledger_evidence_state_locked(l, sid, &st);
    ok = ra_evidence_budget_take(&st, bytes, au->conf.evidence_budget, now);
    ra_ledger_unlock(l);
    return ok;
}

int
ra_audit_log_error(ra_audit_t *au, unsigned which, int64_t now,
    uint64_t *failed)
{
    return ra_ledger_log_error(&au->ledger, which, now, failed);
}

void
ra_audit_events_count(ra_audit_t *au, int outcome)
{
    if (au != NULL && outcome >= 0) {
        ra_ledger_events_count(&au->ledger, (unsigned) outcome);
    }
}

int
ra_audit_log_owed(ra_audit_t *au, unsigned which, int owed)
{
    return ra_ledger_log_owed(&au->ledger, which, owed);
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
    /* the summary names the clients with the most violations */
    st.client = req->addr;
    st.violation = out->verdict == RA_VERDICT_VIOLATION;
    ra_alert_budget_count(&st);
    if (ra_alert_budget_due(st.all, req->time, au->conf.alert_interval,
                            &out->budget))
    {
        out->summary = 1;
        out->budget.budget = au->conf.alert_budget;
        ra_alert_budget_top(st.top, &out->budget);
    }
}

/* Counts the verdict; a violation also goes to the ring and, but for an
 * impostor's (ra_impostor_alert(), before the lock), may raise an alert;
 * any alert then meets the budgets.  Under the lock. */
void
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
    /* the evidence line says what the ring says (ra_evidence.h) */
    out->last_fetch = f->last_fetch;
    out->sha_known = (unsigned) ra_ledger_site_sha_locked(l, sid,
                                                          out->robots_sha256);

    if (out->verification == RA_VERIFY_IMPOSTOR) {
        /* gated before, in this process (ra_impostor_alert()) */
    } else if (!ra_alert_purpose_wanted(au->conf.alert_purposes,
                                        out->crawler))
    {
        /* kept as evidence above; no alert about this purpose, and none
         * held back for the budget summary */
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
unsigned
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
