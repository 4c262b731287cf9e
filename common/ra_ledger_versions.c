/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A site's robots.txt versions as verdicts read them: what a crawler was
 * served and when (bind, fetch), the versions and history a verdict depends
 * on, copied under the lock or, by a process's hint, without it (the site's
 * vseq tells a reader that a change was under way), and the versions'
 * bodies and lookups by hash.
 */
#include <string.h>

#include "ra_ledger_impl.h"

/* A version slot as the public ra_version_t (snapshots copy these). */
void
ra_version_out(const ra_version_slot_t *v, ra_version_t *out)
{
    memset(out, 0, sizeof(*out));
    out->hash = v->hash;
    out->first_seen = v->first_seen;
    out->last_seen = v->last_seen;
    out->until = v->until;
    out->body_len = v->blob ? v->body_len : 0;
    out->size = v->size;
    out->decoded = v->decoded;
    out->status = v->status;
    out->answer = v->answer;
    out->truncated = v->truncated;
    out->body_lost = v->body_lost;
    out->ctype_len = v->ctype_len < RA_CTYPE_MAX ? v->ctype_len
                                                 : RA_CTYPE_MAX;
    memcpy(out->ctype, v->ctype, out->ctype_len);
    out->coding_len = v->coding_len < RA_CODING_MAX ? v->coding_len
                                                    : RA_CODING_MAX;
    memcpy(out->coding, v->coding, out->coding_len);
    out->lint_errors = v->lint_errors;
    out->lint_warnings = v->lint_warnings;
    out->lint_infos = v->lint_infos;
    out->groups = v->groups;
    out->rules = v->rules;
    out->sitemaps = v->sitemaps;
    memcpy(out->sha256, v->sha256, sizeof(out->sha256));
}

/* What a verdict reads of a site (ra_ledger_state_t) */
static void
ra_state_site(const ra_site_slot_t *s, ra_ledger_state_t *out)
{
    unsigned                  k;
    const ra_version_slot_t  *v;
    ra_version_fact_t        *f;

    /* only what a verdict reads (this runs on every judged request);
     * empty slots read as hash 0 and nothing else */
    for (k = 0; k < RA_VERSIONS; k++) {
        v = &s->versions[k];
        f = &out->versions[k];
        if (v->hash) {
            f->hash = v->hash;
            f->until = v->until;
            f->body_len = v->blob ? v->body_len : 0;
            f->status = v->status;
            f->answer = v->answer;
            f->body_lost = v->body_lost;
        } else {
            memset(f, 0, sizeof(*f));
        }
    }
    out->current = s->nversions && s->current < RA_VERSIONS
                   && s->versions[s->current].hash ? s->current : -1;
    out->failing_since = s->failures ? s->failing_since : 0;
}

void
ra_ledger_current_locked(const ra_ledger_t *l, uint32_t site,
    ra_version_fact_t *out)
{
    ra_ledger_state_t     st;
    const ra_site_slot_t *s = ra_site_at(l, site);

    memset(out, 0, sizeof(*out));
    if (s != NULL) {
        ra_state_site(s, &st);
        if (st.current >= 0) {
            *out = st.versions[st.current];
        }
    }
}

/* ... and of a record */
static void
ra_state_stat(const ra_site_slot_t *s, const ra_stat_slot_t *st,
    ra_ledger_state_t *out)
{
    out->last_fetch = st->last_fetch;
    out->last_fetch_version = st->last_fetch_version;
    out->last_fetch_status = st->last_fetch_status;
    out->pages_answered = __atomic_load_n(&s->pages_answered,
                                          __ATOMIC_RELAXED);
}

void
ra_ledger_state_locked(ra_ledger_t *l, uint32_t site, uint32_t stat,
    int64_t now, ra_ledger_state_t *out)
{
    ra_site_slot_t           *s = ra_site_at(l, site);
    ra_stat_slot_t           *st = ra_stat_at(l, stat);

    memset(out, 0, sizeof(*out));
    out->current = -1;
    if (s == NULL || st == NULL) {
        return;
    }
    /* a process died inside a change of it: none is under way now */
    if (s->vseq & 1) {
        __atomic_store_n(&s->vseq, s->vseq + 1, __ATOMIC_RELEASE);
    }
    /* cleared above */
    ra_state_site(s, out);
    ra_state_stat(s, st, out);
    out->prev_request = __atomic_exchange_n(&st->prev_request, now,
                                            __ATOMIC_RELAXED);
}

void
ra_ledger_site_state_locked(ra_ledger_t *l, uint32_t site,
    ra_ledger_state_t *out)
{
    ra_site_slot_t  *s = ra_site_at(l, site);

    memset(out, 0, sizeof(*out));
    out->current = -1;
    if (s != NULL) {
        ra_state_site(s, out);
    }
}

uint32_t
ra_ledger_site_facts_at_locked(const ra_ledger_t *l, uint32_t site)
{
    const ra_site_slot_t  *s = ra_site_at(l, site);

    return s != NULL && s->used && !(s->vseq & 1) ? s->vseq + 1 : 0;
}

int
ra_ledger_state_hinted(ra_ledger_t *l, ra_ledger_hint_t *hint,
    int64_t now, int status, unsigned verified_by, ra_ledger_state_t *out)
{
    uint32_t         q;
    ra_site_slot_t  *s = ra_site_hinted(l, hint->site, hint->epoch);
    ra_stat_slot_t  *st = ra_stat_hinted(l, hint);

    if (s == NULL || st == NULL) {
        return 0;
    }
    if (status >= 100 && status < 500) {
        ra_atomic_later(&s->pages_answered, now);   /* as _page_locked() */
    }
    q = __atomic_load_n(&s->vseq, __ATOMIC_ACQUIRE);
    if (q & 1) {
        return 0;                       /* a change under way */
    }
    if (hint->facts != q + 1) {
        ra_state_site(s, out);
    }
    ra_state_stat(s, st, out);
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    /* the same slots (their places do not move): do they still hold
     * what the hint names? */
    if (__atomic_load_n(&s->vseq, __ATOMIC_RELAXED) != q
        || !ra_site_holds(s, hint->epoch) || !ra_stat_holds(st, hint))
    {
        return 0;                       /* changed meanwhile */
    }
    hint->facts = q + 1;
    out->prev_request = __atomic_exchange_n(&st->prev_request, now,
                                            __ATOMIC_RELAXED);
    ra_atomic_later(&s->last_seen, now);
    ra_atomic_later(&st->last_seen, now);
    if (verified_by != 0 && verified_by < RA_VERIFIED_BY_MAX) {
        __atomic_store_n(&st->verified_by, (uint8_t) verified_by,
                         __ATOMIC_RELAXED);
    }
    return 1;
}

ra_str_t
ra_ledger_body_locked(const ra_ledger_t *l, uint32_t site, unsigned k)
{
    ra_site_slot_t     *s = ra_site_at(l, site);
    ra_version_slot_t  *v;

    if (s == NULL || k >= RA_VERSIONS) {
        return ra_str("", 0);
    }
    v = &s->versions[k];
    if (v->hash == 0 || v->blob == 0) {
        return ra_str("", 0);
    }
    return ra_str(l->base + v->blob, v->body_len);
}

int
ra_ledger_has_version_locked(const ra_ledger_t *l, uint32_t site)
{
    unsigned         k;
    ra_site_slot_t  *s = ra_site_at(l, site);

    for (k = 0; s != NULL && k < s->nversions && k < RA_VERSIONS; k++) {
        if (s->versions[k].hash) {
            return 1;
        }
    }
    return 0;
}

int
ra_ledger_find_version_locked(const ra_ledger_t *l, uint32_t site,
    uint64_t hash, ra_version_t *out)
{
    unsigned         k;
    ra_site_slot_t  *s = ra_site_at(l, site);

    for (k = 0; s != NULL && hash && k < s->nversions && k < RA_VERSIONS;
         k++)
    {
        if (s->versions[k].hash == hash) {
            if (out != NULL) {
                ra_version_out(&s->versions[k], out);
            }
            return (int) k;
        }
    }
    return -1;
}

void
ra_ledger_bind_locked(ra_ledger_t *l, uint32_t site, uint32_t stat,
    int status, uint64_t version, int64_t now)
{
    int              began;
    unsigned         k;
    ra_site_slot_t  *s = ra_site_at(l, site);
    ra_stat_slot_t  *st = ra_stat_at(l, stat);

    if (s == NULL || st == NULL) {
        return;
    }
    if (ra_answer_of_status(status) == RA_ANSWER_UNREACHABLE) {
        version = 0;                    /* its status says it all */
    } else if (version == 0 && s->nversions) {
        version = s->versions[s->current].hash;
    }
    began = ra_vseq_begin(s);
    st->last_fetch = now;
    st->last_fetch_status = (uint16_t) (status > 0 && status < 1000
                                        ? status : 0);
    st->last_fetch_version = version;
    ra_vseq_end(s, began);
    /* what a verified crawler may still be reading stays in the ledger */
    if (version != 0 && st->verification == RA_VERIFY_VERIFIED) {
        for (k = 0; k < s->nversions && k < RA_VERSIONS; k++) {
            if (s->versions[k].hash == version) {
                s->versions[k].verified_fetch = now;
                break;
            }
        }
    }
}

void
ra_ledger_fetch_locked(ra_ledger_t *l, uint32_t site, uint32_t stat,
    int status, int64_t now)
{
    if (ra_site_at(l, site) == NULL || ra_stat_at(l, stat) == NULL) {
        return;
    }
    ra_ledger_bind_locked(l, site, stat, status, 0, now);
    ra_ledger_count_locked(l, site, stat, RA_CNT_REQUESTS);
    ra_ledger_count_locked(l, site, stat, RA_CNT_ROBOTS_FETCHES);
}
