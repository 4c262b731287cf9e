/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Which groups apply to which user agent.  At compile time every product
 * token (and "*") gets the set of groups that name it, found again by a
 * hash of the token; at match time ra_rules_group() picks the set for the
 * caller's tokens (and ra_rules_match() picks it for a single path, then
 * judges the path with ra_rules_match_group()).  A token named in several groups gets a merged index,
 * within a budget (RA_MERGE_BUDGET); past it, its groups' indexes are
 * searched one by one, which gives the same answer more slowly, so that
 * no file can make the rule set grow faster than the file itself.
 */
#include <stdlib.h>
#include <string.h>

#include "ra_rules_impl.h"

/* merged indexes may hold this many pattern references beyond the file's */
#define RA_MERGE_BUDGET(nrules)  (4 * (size_t) (nrules) + 4096)

static uint32_t
ra_hash(ra_str_t s)
{
    uint32_t  h = 2166136261u;
    size_t    i;

    for (i = 0; i < s.len; i++) {
        h = (h ^ (uint32_t) ra_lower(s.data[i])) * 16777619u;
    }
    return h;
}

static int
ra_ua_cmp(const void *a, const void *b)
{
    const ra_ua_t  *x = a, *y = b;
    size_t          n = x->token.len < y->token.len ? x->token.len
                                                    : y->token.len;
    int             r = n ? memcmp(x->token.data, y->token.data, n) : 0;

    if (r != 0) {
        return r;
    }
    if (x->token.len != y->token.len) {
        return x->token.len < y->token.len ? -1 : 1;
    }
    return x->group < y->group ? -1 : (x->group > y->group);
}

/* A set for the sorted, distinct groups[0..n): the group's own index, a
 * merged one, or (past the budget) the groups' indexes one by one. */
static int
ra_set_make(ra_rules_t *rs, const uint32_t *groups, uint32_t n,
    size_t *budget, uint32_t *group_set, uint32_t *set_out)
{
    int        m, rc;
    size_t     refs;
    uint32_t   i, id;
    ra_set_t  *set;

    /* all tokens of one group share its set */
    if (n == 1 && group_set[groups[0]] != RA_NONE) {
        *set_out = group_set[groups[0]];
        return RA_OK;
    }

    set = &rs->sets[rs->nsets];
    set->refs = rs->nrefs;
    set->line = rs->groups[groups[0]].line;    /* groups are in file order */
    set->crawl_delay_ms = -1;
    for (i = 0; i < n; i++) {
        if (set->crawl_delay_ms < 0) {
            set->crawl_delay_ms = rs->groups[groups[i]].crawl_delay_ms;
        }
    }

    refs = 0;
    for (i = 0; i < n; i++) {
        refs += rs->groups[groups[i]].nrules;
    }

    if (n == 1 || refs > *budget) {
        for (i = 0; i < n; i++) {
            rs->refs[rs->nrefs++] = groups[i];
        }
        set->nrefs = n;
    } else {
        *budget -= refs;
        id = rs->nindex++;
        for (m = 0; m < RA_MODES; m++) {
            rc = ra_rules_index_build(rs, m, groups, n, &rs->index[m][id]);
            if (rc != RA_OK) {
                return rc;
            }
        }
        rs->refs[rs->nrefs++] = id;
        set->nrefs = 1;
    }

    if (n == 1) {
        group_set[groups[0]] = rs->nsets;
    }
    *set_out = rs->nsets++;
    return RA_OK;
}

int
ra_rules_link(ra_rules_t *rs, ra_ua_t *ua, uint32_t nua)
{
    int        rc;
    size_t     budget;
    uint32_t   i, j, k, n, slot, h, *list, *group_set, maxindex;
    ra_tok_t  *t;

    /* indexes: one per group, plus at most one merged per distinct token
     * and one for "*"; refs: at most one per UA line and group */
    maxindex = rs->ngroups + nua + 1;
    for (k = 0; k < RA_MODES; k++) {
        rs->index[k] = ra_pool_calloc(&rs->pool, maxindex, sizeof(ra_index_t));
        if (rs->index[k] == NULL) {
            return RA_ENOMEM;
        }
    }
    rs->sets = ra_pool_calloc(&rs->pool, nua + 1, sizeof(ra_set_t));
    rs->refs = ra_pool_get(&rs->pool,
                           ((size_t) nua + rs->ngroups + 1) * sizeof(uint32_t));
    list = ra_pool_get(&rs->pool,
                       ((size_t) rs->ngroups + 1) * sizeof(uint32_t));
    group_set = ra_pool_get(&rs->pool,
                            ((size_t) rs->ngroups + 1) * sizeof(uint32_t));
    if (!rs->sets || !rs->refs || !list || !group_set) {
        return RA_ENOMEM;
    }
    for (i = 0; i < rs->ngroups; i++) {
        group_set[i] = RA_NONE;
    }

    /* automata: entries in proportion to the rules' bytes, capped */
    rs->ac_budget[0] = RA_AC_BUDGET_MIN;
    for (i = 0; i < rs->nrules; i++) {
        rs->ac_budget[0] += RA_AC_BUDGET_PER_BYTE * rs->rules[i].value.len;
    }
    if (rs->ac_budget[0] > RA_AC_BUDGET_MAX) {
        rs->ac_budget[0] = RA_AC_BUDGET_MAX;
    }
    for (k = 1; k < RA_MODES; k++) {
        rs->ac_budget[k] = rs->ac_budget[0];    /* the same for each mode */
    }

    for (i = 0; i < rs->ngroups; i++) {
        for (k = 0; k < RA_MODES; k++) {
            rc = ra_rules_index_build(rs, (int) k, &i, 1, &rs->index[k][i]);
            if (rc != RA_OK) {
                return rc;
            }
        }
    }
    rs->nindex = rs->ngroups;
    budget = RA_MERGE_BUDGET(rs->nrules);

    /* "*" */
    n = 0;
    for (i = 0; i < rs->ngroups; i++) {
        if (rs->groups[i].global) {
            list[n++] = i;
        }
    }
    rs->global_set = RA_NONE;
    if (n) {
        rc = ra_set_make(rs, list, n, &budget, group_set, &rs->global_set);
        if (rc != RA_OK) {
            return rc;
        }
    }

    /* tokens: sorted by (token, group), so each token is one run */
    qsort(ua, nua, sizeof(ra_ua_t), ra_ua_cmp);
    for (i = 0; i < nua; i++) {
        if (i == 0 || ra_ua_cmp(&(ra_ua_t) { ua[i].token, 0 },
                                &(ra_ua_t) { ua[i - 1].token, 0 }) != 0)
        {
            rs->ntoks++;
        }
    }
    rs->tok_mask = 1;
    while (rs->tok_mask < rs->ntoks * 2) {
        rs->tok_mask <<= 1;
    }
    rs->toks = ra_pool_get(&rs->pool, rs->tok_mask * sizeof(ra_tok_t));
    if (rs->toks == NULL) {
        return RA_ENOMEM;
    }
    for (i = 0; i < rs->tok_mask; i++) {
        rs->toks[i].set = RA_NONE;
    }
    rs->tok_mask--;

    for (i = 0; i < nua; i = j) {
        n = 0;
        for (j = i; j < nua && ua[j].token.len == ua[i].token.len
                    && memcmp(ua[j].token.data, ua[i].token.data,
                              ua[i].token.len) == 0; j++)
        {
            if (n == 0 || list[n - 1] != ua[j].group) {
                list[n++] = ua[j].group;
            }
        }

        rc = ra_set_make(rs, list, n, &budget, group_set, &k);
        if (rc != RA_OK) {
            return rc;
        }

        h = ra_hash(ua[i].token);
        for (slot = h & rs->tok_mask; rs->toks[slot].set != RA_NONE;
             slot = (slot + 1) & rs->tok_mask) { /* void */ }
        t = &rs->toks[slot];
        t->token = ua[i].token;
        t->hash = h;
        t->set = k;
    }

    return RA_OK;
}

static uint32_t
ra_find_set(const ra_rules_t *rs, ra_str_t agent)
{
    uint32_t         slot, h;
    const ra_tok_t  *t;

    if (rs->ntoks == 0) {
        return RA_NONE;
    }
    h = ra_hash(agent);
    for (slot = h & rs->tok_mask; rs->toks[slot].set != RA_NONE;
         slot = (slot + 1) & rs->tok_mask)
    {
        t = &rs->toks[slot];
        if (t->hash == h && ra_strcaseeq(t->token, agent)) {
            return t->set;
        }
    }
    return RA_NONE;
}

void
ra_rules_group(const ra_rules_t *rs, const ra_str_t *agents, size_t nagents,
    ra_rules_group_t *g)
{
    size_t                i;
    static const ra_str_t star = ra_string("*");

    /* the first agent that names a group, else "*" */
    g->set = RA_NONE;
    g->group = star;
    for (i = 0; i < nagents && g->set == RA_NONE; i++) {
        g->set = ra_find_set(rs, agents[i]);
        g->group = agents[i];
    }
    if (g->set == RA_NONE) {
        g->set = rs->global_set;
        g->group = star;
    }
}

int
ra_rules_match(const ra_rules_t *rs, ra_mode_e mode, const ra_str_t *agents,
    size_t nagents, ra_str_t path, const ra_alloc_t *scratch, ra_match_t *out)
{
    ra_rules_group_t  g;

    ra_rules_group(rs, agents, nagents, &g);
    return ra_rules_match_group(rs, mode, &g, path, scratch, out);
}
