/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A site's robots.txt answers as the ledger records them: what an answer's
 * status means (ra_answer_of_status()), a new body becoming the site's
 * current version (its bytes copied into the blob heap), runs of 5xx/429
 * answers and the episodes they make, answers served unchanged or with a
 * coding that could not be undone, answers other than 2xx given to
 * everyone, and the chain of redirects crawlers follow to the file.
 */
#include <string.h>

#include "ra_ledger_impl.h"

ra_answer_e
ra_answer_of_status(int status)
{
    if (status >= 200 && status < 300) {
        return RA_ANSWER_RULES;
    }
    if (status == 429 || status >= 500 || status <= 0) {
        return RA_ANSWER_UNREACHABLE;
    }
    /* 3xx as a final answer (redirects not followed to the end) and 4xx:
     * Google treats both as "no robots.txt" (docs/robots-txt.md A.4, A.5) */
    return RA_ANSWER_ALLOW_ALL;
}

int
ra_unreachable_30d(int64_t failing_since, int64_t pages_answered,
    int64_t now)
{
    return failing_since > 0 && now - failing_since >= RA_UNREACHABLE_30D_MS
           && pages_answered > 0 && now - pages_answered < RA_DAY_MS;
}


/* ---- 5xx/429 episodes ------------------------------------------------ */

static ra_episode_t *
ra_episode_open_of(ra_site_slot_t *s)
{
    ra_episode_t  *e;

    e = &s->episodes[(s->episode_next + RA_EPISODES - 1) % RA_EPISODES];
    return e->start != 0 && e->end == 0 ? e : NULL;
}

/* A 5xx/429 answer: the episode going on, or a new one (its start set
 * last, then the ring's next slot). */
static void
ra_episode_answer(ra_site_slot_t *s, int status, int64_t now)
{
    ra_episode_t  *e = ra_episode_open_of(s);

    if (e == NULL) {
        e = &s->episodes[s->episode_next % RA_EPISODES];
        e->start = 0;
        memset(e, 0, sizeof(*e));
        e->start = now > 0 ? now : 1;
        s->episode_next = (s->episode_next + 1) % RA_EPISODES;
    }
    e->answers++;
    e->status = (uint16_t) (status > 0 && status < 1000 ? status : 0);
}

/* Any other answer ends the episode going on. */
static void
ra_episode_end(ra_site_slot_t *s, int64_t now)
{
    ra_episode_t  *e = ra_episode_open_of(s);

    if (e != NULL) {
        e->end = now > e->start ? now : e->start;
    }
}

/* A crawler's request during an episode. */
void
ra_episode_crawler(ra_site_slot_t *s, const ra_stat_slot_t *st)
{
    ra_episode_t  *e = ra_episode_open_of(s);
    unsigned       i, n;
    size_t         len;

    if (e == NULL) {
        return;
    }
    if (st == NULL || !st->used) {
        e->others++;
        return;
    }
    len = st->name_len < RA_NAME_MAX ? st->name_len : RA_NAME_MAX;
    n = e->ncrawlers < RA_EPISODE_CRAWLERS ? e->ncrawlers
                                           : RA_EPISODE_CRAWLERS;
    for (i = 0; i < n; i++) {
        if (e->name_len[i] == len && memcmp(e->name[i], st->name, len) == 0) {
            e->requests[i]++;
            return;
        }
    }
    if (n == RA_EPISODE_CRAWLERS) {
        e->others++;
        return;
    }
    memcpy(e->name[n], st->name, len);
    e->name_len[n] = (uint8_t) len;
    e->requests[n] = 1;
    e->ncrawlers = (uint8_t) (n + 1);
}


/* ---- robots.txt answers ------------------------------------------------ */

/* FNV-1a, 8 bytes a turn (a captured robots.txt is hashed on every
 * fetch: the same values, half the instructions) */
static uint64_t
ra_hash64(uint64_t h, const unsigned char *p, size_t n)
{
    const uint64_t  prime = 1099511628211ULL;

    for (; n >= 8; n -= 8, p += 8) {
        h = (h ^ p[0]) * prime;
        h = (h ^ p[1]) * prime;
        h = (h ^ p[2]) * prime;
        h = (h ^ p[3]) * prime;
        h = (h ^ p[4]) * prime;
        h = (h ^ p[5]) * prime;
        h = (h ^ p[6]) * prime;
        h = (h ^ p[7]) * prime;
    }
    for (; n != 0; n--, p++) {
        h = (h ^ *p) * prime;
    }
    return h;
}

uint64_t
ra_ledger_version_hash(int status, ra_str_t body)
{
    uint8_t   answer = (uint8_t) ra_answer_of_status(status);
    uint64_t  hash;

    /* a version is its rules: the body for 2xx, nothing for "allow all" */
    hash = ra_hash64(14695981039346656037ULL, &answer, 1);
    if (answer == RA_ANSWER_RULES) {
        hash = ra_hash64(hash, body.data, body.len);
    }
    return hash | 1;                    /* 0 marks an empty slot */
}

static int ra_answer_locked(ra_ledger_t *l, uint32_t site,
    const ra_version_t *in, ra_str_t body, int64_t now);
static void ra_answer_unchanged_locked(ra_ledger_t *l, uint32_t site,
    int64_t now);
static int ra_undecodable_locked(ra_ledger_t *l, uint32_t site, int status,
    ra_str_t coding, int64_t now);

int
ra_ledger_answer_locked(ra_ledger_t *l, uint32_t site, const ra_version_t *in,
    ra_str_t body, int64_t now)
{
    int              k, began;
    ra_site_slot_t  *s = ra_site_at(l, site);

    began = s != NULL && ra_vseq_begin(s);
    k = ra_answer_locked(l, site, in, body, now);
    if (s != NULL) {
        ra_vseq_end(s, began);
    }
    return k;
}

void
ra_ledger_answer_unchanged_locked(ra_ledger_t *l, uint32_t site, int64_t now)
{
    int              began;
    ra_site_slot_t  *s = ra_site_at(l, site);

    began = s != NULL && ra_vseq_begin(s);
    ra_answer_unchanged_locked(l, site, now);
    if (s != NULL) {
        ra_vseq_end(s, began);
    }
}

int
ra_ledger_undecodable_locked(ra_ledger_t *l, uint32_t site, int status,
    ra_str_t coding, int64_t now)
{
    int              same, began;
    ra_site_slot_t  *s = ra_site_at(l, site);

    began = s != NULL && ra_vseq_begin(s);
    same = ra_undecodable_locked(l, site, status, coding, now);
    if (s != NULL) {
        ra_vseq_end(s, began);
    }
    return same;
}

static int
ra_answer_locked(ra_ledger_t *l, uint32_t site, const ra_version_t *in,
    ra_str_t body, int64_t now)
{
    int                 k, slot, oldest, pinned;
    uint8_t             answer;
    uint64_t            hash;
    ra_site_slot_t     *s = ra_site_at(l, site);
    ra_version_slot_t  *v, *cur;

    if (s == NULL || !s->used) {
        return -1;
    }
    s->pending_hash = 0;                /* no longer anyone's alone */
    if (ra_answer_of_status(in->status) == RA_ANSWER_RULES) {
        s->served_at = now;
    }
    s->robots_date = now;
    s->robots_status = in->status;
    s->last_size = in->size;
    s->last_ctype_len = in->ctype_len > RA_CTYPE_MAX ? RA_CTYPE_MAX
                                                     : in->ctype_len;
    memcpy(s->last_ctype, in->ctype, s->last_ctype_len);
    answer = (uint8_t) ra_answer_of_status(in->status);

    if (answer == RA_ANSWER_UNREACHABLE) {
        if (s->failures == 0 || s->failing_since == 0) {
            s->failing_since = now;
        }
        ra_episode_answer(s, in->status, now);
        s->failures++;
        s->unreachable_since = now;
        return -1;
    }
    ra_episode_end(s, now);
    s->failures = 0;
    s->failing_since = 0;
    s->undecodable = 0;
    s->bad_coding_len = 0;

    /* the caller's when it has it (hashed outside the lock) */
    hash = in->hash != 0 ? in->hash
                         : ra_ledger_version_hash(in->status, body);
    ra_begin(l);

    /* versions replaced more than 24 hours ago are of no use any more */
    for (k = 0; k < RA_VERSIONS; k++) {
        v = &s->versions[k];
        if (v->hash && v->until && v->until < now - RA_DAY_MS) {
            ra_version_drop(l, v);
        }
    }

    cur = s->nversions ? &s->versions[s->current] : NULL;
    if (cur != NULL && cur->hash == 0) {
        cur = NULL;
    }
    slot = -1;
    for (k = 0; k < RA_VERSIONS; k++) {
        if (s->versions[k].hash == hash) {
            slot = k;
            break;
        }
    }

    if (slot < 0) {
        /* a free slot, else the version replaced longest ago that no
         * verified crawler was served in the last 24 hours: a site whose
         * every answer differs (a time stamp in a comment) replaces only
         * those; else the version replaced longest ago */
        oldest = -1;
        pinned = -1;
        for (k = 0; k < RA_VERSIONS; k++) {
            v = &s->versions[k];
            if (v->hash == 0) {
                slot = k;
                break;
            }
            if (v == cur) {
                continue;
            }
            if (v->verified_fetch && now - v->verified_fetch < RA_DAY_MS) {
                if (pinned < 0 || v->until < s->versions[pinned].until) {
                    pinned = k;
                }
            } else if (oldest < 0 || v->until < s->versions[oldest].until) {
                oldest = k;
            }
        }
        if (slot < 0) {
            slot = oldest >= 0 ? oldest : pinned;
            ra_version_drop(l, &s->versions[slot]);
        }
        v = &s->versions[slot];
        memset(v, 0, sizeof(*v));
        v->hash = hash;
        v->first_seen = now;
        if (answer == RA_ANSWER_RULES && body.len) {
            for (k = 0; (v->blob = ra_blob_alloc(l, body.len,
                                 ra_blob_owner(site, (unsigned) slot))) == 0
                        && k < (int) RA_VERSIONS * (int) l->hdr->plan.sites;
                 k++)
            {
                if (!ra_blob_evict_one(l)) {
                    break;
                }
            }
            RA_STEP();
            if (v->blob) {
                memcpy(l->base + v->blob, body.data, body.len);
                v->body_len = (uint32_t) body.len;
            } else {
                v->body_lost = 1;
            }
        }
        if ((uint8_t) (slot + 1) > s->nversions) {
            s->nversions = (uint8_t) (slot + 1);
        }
    }

    v = &s->versions[slot];
    if (cur != NULL && cur != v) {
        cur->until = now;
    }
    v->until = 0;
    v->last_seen = now;
    v->status = in->status;
    v->answer = answer;
    v->size = in->size;
    v->decoded = in->decoded;
    v->truncated = in->truncated;
    v->ctype_len = in->ctype_len > RA_CTYPE_MAX ? RA_CTYPE_MAX : in->ctype_len;
    memcpy(v->ctype, in->ctype, v->ctype_len);
    v->coding_len = in->coding_len > RA_CODING_MAX ? RA_CODING_MAX
                                                   : in->coding_len;
    memcpy(v->coding, in->coding, v->coding_len);
    v->lint_errors = in->lint_errors;
    v->lint_warnings = in->lint_warnings;
    v->lint_infos = in->lint_infos;
    v->groups = in->groups;
    v->rules = in->rules;
    v->sitemaps = in->sitemaps;
    memcpy(v->sha256, in->sha256, sizeof(v->sha256));
    s->current = (uint8_t) slot;
    ra_end(l);
    return slot;
}

static void
ra_answer_unchanged_locked(ra_ledger_t *l, uint32_t site, int64_t now)
{
    ra_site_slot_t     *s = ra_site_at(l, site);

    ra_version_slot_t  *cur;

    if (s == NULL || !s->used) {
        return;
    }
    ra_episode_end(s, now);
    s->failures = 0;
    s->failing_since = 0;
    s->served_at = now;
    /* the last answer is the version in force again */
    cur = s->nversions ? &s->versions[s->current] : NULL;
    if (cur != NULL && cur->hash != 0) {
        s->robots_date = now;
        s->robots_status = cur->status;
        s->last_size = cur->size;
        s->last_ctype_len = cur->ctype_len > RA_CTYPE_MAX ? RA_CTYPE_MAX
                                                          : cur->ctype_len;
        memcpy(s->last_ctype, cur->ctype, s->last_ctype_len);
    }
}

static int
ra_undecodable_locked(ra_ledger_t *l, uint32_t site, int status,
    ra_str_t coding, int64_t now)
{
    int              same;
    size_t           n;
    ra_site_slot_t  *s = ra_site_at(l, site);

    if (s == NULL || !s->used) {
        return 0;
    }
    n = coding.len < RA_CODING_MAX ? coding.len : RA_CODING_MAX;
    same = s->undecodable && s->bad_coding_len == n
           && (n == 0 || memcmp(s->bad_coding, coding.data, n) == 0);
    s->robots_date = now;
    s->robots_status = (uint16_t) (status > 0 && status < 1000 ? status : 0);
    ra_episode_end(s, now);
    s->failures = 0;
    s->failing_since = 0;
    if (!same) {
        s->undecodable = now > 0 ? now : 1;     /* since the first */
    }
    s->bad_coding_len = (uint8_t) n;
    if (n) {
        memcpy(s->bad_coding, coding.data, n);
    }
    return same;
}

int
ra_ledger_answer_everyone_locked(ra_ledger_t *l, uint32_t site,
    uint64_t hash, uint64_t client, uint64_t ua, int64_t now)
{
    ra_site_slot_t  *s = ra_site_at(l, site);

    if (s == NULL || !s->used) {
        return 0;
    }
    /* the same answer to another network and another User-Agent, and
     * the file served to nobody for a day: what the site gives everyone
     * (a User-Agent blocklist answers two blocked bots alike, but serves
     * the file to the others) */
    if (s->pending_hash == hash && s->pending_client != client
        && s->pending_ua != ua
        && (s->served_at == 0 || now - s->served_at >= RA_DAY_MS))
    {
        return 1;       /* cleared when ra_ledger_answer_locked() records
                           it */
    }
    s->pending_hash = hash;
    s->pending_client = client;
    s->pending_ua = ua;
    return 0;
}

int
ra_ledger_redirect_locked(ra_ledger_t *l, uint32_t site, unsigned hop,
    ra_str_t path)
{
    unsigned         k;
    ra_site_slot_t  *s = ra_site_at(l, site);

    if (s == NULL || !s->used || hop > s->redirect_n) {
        return -1;
    }
    if (hop >= RA_REDIRECT_HOPS || path.len == 0
        || path.len > RA_REDIRECT_PATH_MAX)
    {
        ra_ledger_redirect_end_locked(l, site, hop);
        return -1;
    }
    for (k = 0; k < hop; k++) {
        if (s->redirect_len[k] == path.len
            && memcmp(s->redirect[k], path.data, path.len) == 0)
        {
            ra_ledger_redirect_end_locked(l, site, hop);
            return -1;                  /* a loop */
        }
    }
    /* the length last: a process that dies in between leaves a shorter
     * chain or an old path, never bytes read past a length */
    if (s->redirect_n == 0) {
        ra_atomic_add(&l->hdr->redirects, 1);
    }
    s->redirect_n = (uint8_t) hop;
    memcpy(s->redirect[hop], path.data, path.len);
    s->redirect_len[hop] = (uint8_t) path.len;
    s->redirect_n = (uint8_t) (hop + 1);
    return (int) hop + 1;
}

void
ra_ledger_redirect_end_locked(ra_ledger_t *l, uint32_t site, unsigned hop)
{
    ra_site_slot_t  *s = ra_site_at(l, site);

    if (s != NULL && s->used && hop < s->redirect_n) {
        s->redirect_n = (uint8_t) hop;
        if (hop == 0 && l->hdr->redirects != 0) {
            ra_atomic_sub(&l->hdr->redirects, 1);
        }
    }
}

unsigned
ra_ledger_redirect_hop_locked(const ra_ledger_t *l, uint32_t site,
    ra_str_t path)
{
    unsigned         k;
    ra_site_slot_t  *s = ra_site_at(l, site);

    if (path.len > RA_REDIRECT_PATH_MAX) {
        return 0;
    }
    for (k = 0; s != NULL && s->used && k < s->redirect_n
                && k < RA_REDIRECT_HOPS; k++)
    {
        if (s->redirect_len[k] == path.len
            && memcmp(s->redirect[k], path.data, path.len) == 0)
        {
            return k + 1;
        }
    }
    return 0;
}

int
ra_ledger_redirects(const ra_ledger_t *l)
{
    return __atomic_load_n(&l->hdr->redirects, __ATOMIC_RELAXED) != 0;
}
