/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What a judged request leaves in the ledger besides its counts: the ring of
 * recent violations (verified crawlers' in a part of their own), how often
 * each line of the site's robots.txt in force decided a request, and the
 * alert gates and budgets that rate the alerts about them.
 */
#include <string.h>

#include "ra_ledger_impl.h"

/* The record's share of a rule hit (ra_ledger_rule_hit_locked()). */
static void
ra_stat_rule_hit(ra_stat_slot_t *st, uint64_t version, uint32_t line,
    int allow, int violation)
{
    ra_crawler_hit_t  *e;
    unsigned           i;

    if (st->rule_version != version) {
        st->rule_version = 0;
        memset(st->rule_hits, 0, sizeof(st->rule_hits));
        st->rule_version = version;
    }
    for (i = 0; i < RA_CRAWLER_RULE_LINES; i++) {
        e = &st->rule_hits[i];
        if (e->line == line || e->line == 0) {
            if (e->line == 0) {
                e->allow = allow != 0;
                e->matched = 0;
                e->violations = 0;
                e->line = line;
            }
            e->matched++;
            e->violations += violation != 0;
            return;
        }
    }
}

void
ra_ledger_rule_hit_locked(ra_ledger_t *l, uint32_t site, uint32_t stat,
    uint64_t version, uint32_t line, int allow, int violation)
{
    ra_site_slot_t  *s = ra_site_at(l, site);
    ra_stat_slot_t  *st = ra_stat_at(l, stat);
    ra_rule_hit_t   *e, *free_e = NULL;
    unsigned         i;

    if (s == NULL || !s->used || line == 0 || version == 0
        || s->nversions == 0 || s->current >= RA_VERSIONS
        || s->versions[s->current].hash != version)
    {
        return;
    }
    if (s->rule_version != version) {
        /* a new version in force: its counts start; the version is set
         * last, so that a process dying here leaves it to do again */
        s->rule_version = 0;
        memset(s->rule_hits, 0, sizeof(s->rule_hits));
        s->rule_other_matched = 0;
        s->rule_other_violations = 0;
        s->rule_version = version;
    }
    if (st != NULL && st->used) {
        ra_stat_rule_hit(st, version, line, allow, violation);
    }
    for (i = 0; i < RA_RULE_LINES; i++) {
        e = &s->rule_hits[i];
        if (e->line == line) {
            e->matched++;
            e->violations += violation != 0;
            return;
        }
        if (e->line == 0 && free_e == NULL) {
            free_e = e;
        }
    }
    if (free_e == NULL) {
        s->rule_other_matched++;
        s->rule_other_violations += violation != 0;
        return;
    }
    free_e->allow = allow != 0;
    free_e->matched = 1;
    free_e->violations = violation != 0;
    free_e->line = line;
}

void
ra_ledger_violation_locked(ra_ledger_t *l, uint32_t site,
    const ra_violation_t *v)
{
    ra_ledger_hdr_t  *h = l->hdr;
    ra_site_slot_t   *s = ra_site_at(l, site);
    ra_vio_slot_t    *x;
    uint32_t          i, *next, lo, hi;

    /* verified crawlers' violations have their own part of the ring, so
     * that a flood of anyone else's never pushes them out */
    if (v->verification == RA_VERIFY_VERIFIED && h->vio_trusted) {
        next = &h->vio_next_trusted;
        lo = 0;
        hi = h->vio_trusted;
    } else {
        next = &h->vio_next;
        lo = h->vio_trusted;
        hi = h->plan.violations;
    }
    i = *next;
    if (s == NULL || i < lo || i >= hi) {
        return;
    }
    ra_begin(l);
    x = &RA_VIOS(l)[i];
    /* the slot's site last: a slot half written names none */
    x->site = 0;
    RA_STEP();
    memset(x, 0, sizeof(*x));
    x->time = v->time;
    x->seq = ra_atomic_read(&h->violations_total) + 1;
    x->site_epoch = s->epoch;
    x->line = v->line;
    x->verdict = v->verdict;
    x->verification = v->verification;
    x->verified_by = v->verified_by < RA_VERIFIED_BY_MAX ? v->verified_by : 0;
    x->name_len = v->name_len < RA_NAME_MAX ? v->name_len : RA_NAME_MAX;
    memcpy(x->name, v->name, x->name_len);
    x->method_len = v->method_len < RA_METHOD_MAX ? v->method_len
                                                  : RA_METHOD_MAX;
    memcpy(x->method, v->method, x->method_len);
    x->addr_len = v->addr_len < RA_ADDR_TEXT_MAX ? v->addr_len
                                                 : RA_ADDR_TEXT_MAX;
    memcpy(x->addr, v->addr, x->addr_len);
    x->uri_len = v->uri_len < RA_URI_MAX ? v->uri_len : RA_URI_MAX;
    memcpy(x->uri, v->uri, x->uri_len);
    x->uri_full_len = v->uri_full_len;
    x->pattern_len = v->pattern_len < RA_PATTERN_MAX ? v->pattern_len
                                                     : RA_PATTERN_MAX;
    memcpy(x->pattern, v->pattern, x->pattern_len);
    x->last_fetch = v->last_fetch;
    x->purpose = v->purpose;
    if (s->nversions && s->current < RA_VERSIONS
        && s->versions[s->current].hash != 0)
    {
        memcpy(x->robots_sha256, s->versions[s->current].sha256, 32);
    }
    RA_STEP();
    __atomic_store_n(&x->site, site, __ATOMIC_RELEASE);
    RA_STEP();
    *next = i + 1 < hi ? i + 1 : lo;
    ra_end(l);
    ra_atomic_add(&h->violations_total, 1);
}

int
ra_ledger_alert_locked(ra_ledger_t *l, uint32_t stat, int64_t now,
    int64_t interval, uint32_t *suppressed)
{
    ra_stat_slot_t  *st = ra_stat_at(l, stat);

    *suppressed = 0;
    if (st == NULL) {
        return 0;
    }
    if (st->last_alert == 0 || interval <= 0 || now < st->last_alert
        || now - st->last_alert >= interval)
    {                                   /* a clock set back alerts again */
        *suppressed = st->alerts_suppressed;
        st->alerts_suppressed = 0;
        st->last_alert = now;
        return 1;
    }
    st->alerts_suppressed++;
    return 0;
}

int
ra_ledger_alert_state_locked(ra_ledger_t *l, uint32_t site, uint32_t stat,
    ra_alert_state_t *out)
{
    ra_site_slot_t  *s = ra_site_at(l, site);
    ra_stat_slot_t  *st = ra_stat_at(l, stat);

    memset(out, 0, sizeof(*out));
    if (s == NULL) {
        return RA_ERROR;
    }
    out->all = &l->hdr->budget;
    out->site = &s->alert_bucket;
    out->site_open = &s->alert_open;
    out->site_mark = &s->alert_mark;
    out->stat_mark = st != NULL ? &st->alert_mark : NULL;
    out->gates = s->gates;
    out->top = l->hdr->alert_top;
    return RA_OK;
}

int
ra_ledger_site_sha_locked(const ra_ledger_t *l, uint32_t site,
    unsigned char sha256[32])
{
    ra_site_slot_t  *s = ra_site_at(l, site);

    if (s == NULL || !s->used || s->nversions == 0
        || s->current >= RA_VERSIONS || s->versions[s->current].hash == 0)
    {
        return 0;
    }
    memcpy(sha256, s->versions[s->current].sha256, 32);
    return 1;
}

void
ra_ledger_evidence_state_locked(ra_ledger_t *l, uint32_t site,
    ra_evidence_state_t *out)
{
    ra_site_slot_t  *s = site != 0 ? ra_site_at(l, site) : NULL;

    out->window = &l->hdr->evidence;
    out->site_dropped = s != NULL && s->used ? &s->evidence_dropped : NULL;
    out->all_dropped = &l->hdr->evidence_dropped;
}
