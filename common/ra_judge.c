/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The judge (ra_audit.h, "the pure judge"): a request's verdict as a pure
 * function of the site's versions, the crawler's history, who asks and
 * the path, with no ledger and no lock.  The group each rule set reads is
 * remembered per (set, crawler) in a small memo.
 */
#include <string.h>

#include "ra_audit.h"
#include "ra_http.h"

#define RA_JUDGE_STACK        RA_MATCH_STACK  /* canonical paths up to this
                                                 size need no memory */

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
