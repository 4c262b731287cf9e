/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Building a group's index for one mode, at compile time: its patterns
 * sorted by priority and deduplicated, the trie over their literal
 * prefixes (and the trie as a table, within the budget), the automaton
 * over their wildcard segments, and per-node filters for crowded nodes.
 * ra_rules_match.c reads what is built here; the tables stay within the
 * rule set's budget, past which the indexes keep byte pairs and edge
 * lists, which give the same answers more slowly.
 */
#include <stdlib.h>
#include <string.h>

#include "ra_rules_impl.h"

static int ra_index_accel(ra_index_t *ix, uint32_t nnodes, ra_pool_t *pool,
    uint32_t *freq);
static int ra_index_ac(ra_rules_t *rs, int m, ra_index_t *ix);
static int ra_index_ptab(ra_rules_t *rs, int m, ra_index_t *ix,
    size_t nnodes);

static int
ra_pat_cmp_priority(const void *a, const void *b)
{
    const ra_pat_t  *x = a, *y = b;

    if (x->len != y->len) {
        return x->len > y->len ? -1 : 1;
    }
    if (x->type != y->type) {
        return x->type == RA_RULE_ALLOW ? -1 : 1;   /* allow wins ties */
    }
    if (x->rule != y->rule) {
        return x->rule < y->rule ? -1 : 1;          /* earlier line first */
    }
    return (int) x->simple - (int) y->simple;
}

typedef struct {
    const ra_pat_t  *pat;
    uint32_t         id;
} ra_pat_ref_t;

static int
ra_pat_cmp_literal(const void *a, const void *b)
{
    const ra_pat_ref_t  *x = a, *y = b;
    uint32_t             n;
    int                  r;

    n = x->pat->lit < y->pat->lit ? x->pat->lit : y->pat->lit;
    r = n ? memcmp(x->pat->pat, y->pat->pat, n) : 0;
    if (r != 0) {
        return r;
    }
    if (x->pat->lit != y->pat->lit) {
        return x->pat->lit < y->pat->lit ? -1 : 1;
    }
    return x->id < y->id ? -1 : (x->id > y->id);
}

/* h[0]: the first 8 bytes of p's literal prefix, h[1]: their mask */
static void
ra_head_set(const ra_pat_t *p, uint64_t h[2])
{
    static const unsigned char  ones[8] = {
        0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff
    };

    h[0] = ra_head8(p->pat, p->lit);
    h[1] = ra_head8(ones, p->lit < 8 ? p->lit : 8);
}

/*
 * Builds the index of mode m over the rules of groups[0..ngroups).  Node
 * children come out sorted because patterns are inserted in literal order,
 * so insertion only ever looks at a node's newest child.
 */
int
ra_rules_index_build(ra_rules_t *rs, int m, const uint32_t *groups,
    size_t ngroups, ra_index_t *ix)
{
    int            rc;
    size_t         g, r, k, npats, nbytes, nnodes, nedges;
    uint32_t       i, j, node, child, *term, *last, *count;
    ra_rule_t     *rule;
    ra_pat_t      *p;
    ra_pat_ref_t  *order;
    ra_pool_t     *pool = &rs->pool;
    const ra_alloc_t  *a = rs->pool.alloc;
    struct { uint32_t parent; unsigned char byte; } *tmp;

    memset(ix, 0, sizeof(*ix));

    npats = 0;
    for (g = 0; g < ngroups; g++) {
        npats += (size_t) rs->groups[groups[g]].nrules * 2;
    }
    ix->pats = ra_pool_get(pool, (npats ? npats : 1) * sizeof(ra_pat_t));
    if (ix->pats == NULL) {
        return RA_ENOMEM;
    }

    nbytes = 0;
    for (g = 0; g < ngroups; g++) {
        for (r = 0; r < rs->groups[groups[g]].nrules; r++) {
            k = rs->groups[groups[g]].first_rule + r;
            rule = &rs->rules[k];
            /* an empty pattern matches with priority 0, which never wins */
            if (rule->norm[m].len) {
                p = &ix->pats[ix->npats++];
                ra_rules_pat_set(p, rule->norm[m], (uint32_t) k, rule->type);
                nbytes += p->lit;
            }
            if (rule->index_html[m].len) {
                p = &ix->pats[ix->npats++];
                ra_rules_pat_set(p, rule->index_html[m], (uint32_t) k,
                                 rule->type);
                nbytes += p->lit;
            }
        }
    }
    qsort(ix->pats, ix->npats, sizeof(ra_pat_t), ra_pat_cmp_priority);

    /* the same pattern of the same kind again can never decide: keep the
     * first (RFC 9309 2.2.2 allows deduplication) */
    for (i = 0, j = 0; i < ix->npats; i++) {
        if (j > 0 && ix->pats[j - 1].len == ix->pats[i].len
            && ix->pats[j - 1].type == ix->pats[i].type
            && memcmp(ix->pats[j - 1].pat, ix->pats[i].pat,
                      ix->pats[i].len) == 0)
        {
            continue;
        }
        ix->pats[j++] = ix->pats[i];
    }
    ix->npats = j;

    if (ix->npats <= RA_SMALL_PATS) {
        ix->head = ra_pool_get(pool, (ix->npats ? ix->npats : 1) * 2
                                     * sizeof(uint64_t));
        if (ix->head == NULL) {
            return RA_ENOMEM;
        }
        for (i = 0; i < ix->npats; i++) {
            ra_head_set(&ix->pats[i], &ix->head[2 * i]);
        }
    }

    /* trie over literal prefixes; at most one node per literal byte.  The
     * build's scratch arrays come straight from the caller's allocator and
     * go back to it at the end. */
    nnodes = nbytes + 1;
    k = ix->npats ? ix->npats : 1;
    order = ra_alloc(a, k * sizeof(*order));
    term = ra_alloc(a, k * sizeof(uint32_t));
    tmp = ra_alloc(a, nnodes * sizeof(*tmp));
    last = ra_alloc(a, nnodes * sizeof(uint32_t));
    count = ra_alloc(a, (nnodes > 256 ? nnodes : 256) * sizeof(uint32_t));
    rc = RA_ENOMEM;
    if (!order || !term || !tmp || !last || !count) {
        goto done;
    }
    memset(count, 0, nnodes * sizeof(uint32_t));
    for (i = 0; i < ix->npats; i++) {
        order[i].pat = &ix->pats[i];
        order[i].id = i;
    }
    qsort(order, ix->npats, sizeof(*order), ra_pat_cmp_literal);

    nnodes = 1;
    last[0] = RA_NONE;
    for (i = 0; i < ix->npats; i++) {
        p = (ra_pat_t *) order[i].pat;
        node = 0;
        for (j = 0; j < p->lit; j++) {
            child = last[node];
            if (child == RA_NONE || tmp[child].byte != p->pat[j]) {
                child = (uint32_t) nnodes++;
                tmp[child].parent = node;
                tmp[child].byte = p->pat[j];
                last[child] = RA_NONE;
                last[node] = child;
            }
            node = child;
        }
        term[order[i].id] = node;
    }

    ix->nodes = ra_pool_calloc(pool, nnodes, sizeof(ra_node_t));
    ix->edges = ra_pool_get(pool, nnodes * sizeof(ra_edge_t));
    ix->node_pats = ra_pool_get(pool,
                                (ix->npats ? ix->npats : 1) * sizeof(uint32_t));
    if (!ix->nodes || !ix->edges || !ix->node_pats) {
        goto done;
    }

    /* edges: children are numbered in byte order under each parent */
    for (k = 1; k < nnodes; k++) {
        ix->nodes[tmp[k].parent].nedges++;
    }
    nedges = 0;
    for (k = 0; k < nnodes; k++) {
        ix->nodes[k].edges = (uint32_t) nedges;
        nedges += ix->nodes[k].nedges;
        ix->nodes[k].nedges = 0;
    }
    for (k = 1; k < nnodes; k++) {
        node = tmp[k].parent;
        j = ix->nodes[node].edges + ix->nodes[node].nedges++;
        ix->edges[j].node = (uint32_t) k;
        ix->edges[j].byte = tmp[k].byte;
    }

    /* per-node candidate lists, in priority order */
    for (i = 0; i < ix->npats; i++) {
        count[term[i]]++;
    }
    k = 0;
    for (j = 0; j < nnodes; j++) {
        ix->nodes[j].pats = (uint32_t) k;
        k += count[j];
    }
    for (i = 0; i < ix->npats; i++) {
        node = term[i];
        ix->node_pats[ix->nodes[node].pats + ix->nodes[node].npats++] = i;
    }

    rc = ra_index_ac(rs, m, ix);
    if (rc == RA_OK) {
        rc = ra_index_ptab(rs, m, ix, nnodes);
    }
    if (rc == RA_OK) {
        rc = ra_index_accel(ix, (uint32_t) nnodes, pool, count);
    }

done:
    ra_free(a, order);
    ra_free(a, term);
    ra_free(a, tmp);
    ra_free(a, last);
    ra_free(a, count);
    return rc;
}

/* The piece of p from j up to the next star, without a final '$'. */
static uint32_t
ra_segment(const ra_pat_t *p, uint32_t j, uint32_t *end)
{
    uint32_t  k;

    for (k = j; k < p->len && p->pat[k] != '*'; k++) { /* void */ }
    *end = k;
    if (k == p->len && k > j && p->pat[k - 1] == '$') {
        k--;
    }
    return k - j;
}

#define RA_AC_MAX_STATES  32767
#define RA_AC_MIN_PATS    4         /* wildcard patterns worth an automaton */

/*
 * Builds ix->ac over the segments of the index's wildcard patterns and
 * recomputes their need sets as segment ids, within what is left of the
 * rule set's budget; past it (or with no wildcard pattern) the index keeps
 * byte pairs, which give the same answers more slowly.
 */
static int
ra_index_ac(ra_rules_t *rs, int m, ra_index_t *ix)
{
    int                rc = RA_ENOMEM;
    size_t             segbytes, entries;
    uint32_t           i, j, k, end, len, c, ncls, shift, nstates, s, t, f;
    uint32_t           head, tail, nout, bit, nseg, nwild, *next = NULL;
    uint32_t          *fail = NULL;
    uint32_t          *queue = NULL, *segid = NULL;
    uint16_t          *out;
    uint8_t           *cls;
    ra_grams_t        *outs, *acc = NULL;
    ra_ac_t           *ac;
    ra_pat_t          *p;
    const ra_alloc_t  *a = rs->pool.alloc;
    unsigned char      used[256];

    /* byte classes and an upper bound on the states */
    memset(used, 0, sizeof(used));
    segbytes = 0;
    nwild = 0;
    for (i = 0; i < ix->npats; i++) {
        p = &ix->pats[i];
        nwild += !p->simple;
        for (j = p->lit; j < p->len; j = end + 1) {
            len = ra_segment(p, j, &end);
            for (k = 0; k < len; k++) {
                used[p->pat[j + k]] = 1;
            }
            segbytes += len;
        }
    }
    if (nwild < RA_AC_MIN_PATS || segbytes >= RA_AC_MAX_STATES) {
        return RA_OK;           /* byte pairs do for a few patterns */
    }
    ncls = 1;                       /* class 0: bytes in no segment */
    for (c = 0; c < 256; c++) {
        ncls += used[c];
    }
    if (ncls > UINT8_MAX) {
        return RA_OK;       /* (normalised patterns hold ASCII only) */
    }
    for (shift = 0; ((uint32_t) 1 << shift) < ncls; shift++) { /* void */ }
    /* what it holds at most: the table, the classes, outputs */
    entries = (segbytes + 1) << shift;
    if (entries > UINT16_MAX + 1u) {
        return RA_OK;           /* row offsets must fit 16 bits */
    }
    if (2 * entries * sizeof(uint16_t) + 256 + sizeof(ra_ac_t)
        + (segbytes + 1) * sizeof(ra_grams_t)
        > rs->ac_budget[m])
    {
        return RA_OK;
    }

    cls = ra_pool_calloc(&rs->pool, 256, 1);
    if (cls == NULL) {
        return RA_ENOMEM;
    }
    ncls = 1;
    for (c = 0; c < 256; c++) {
        if (used[c]) {
            cls[c] = (uint8_t) ncls++;
        }
    }
    next = ra_alloc(a, entries * sizeof(uint32_t));
    fail = ra_alloc(a, (segbytes + 1) * sizeof(uint32_t));
    queue = ra_alloc(a, (segbytes + 1) * sizeof(uint32_t));
    segid = ra_alloc(a, (segbytes + 1) * sizeof(uint32_t));
    acc = ra_alloc(a, (segbytes + 1) * sizeof(ra_grams_t));
    if (!next || !fail || !queue || !segid || !acc) {
        goto done;
    }
    for (i = 0; i < entries; i++) {
        next[i] = RA_NONE;
    }

    /* the trie of segments; next[] holds child states for now */
    nstates = 1;
    nseg = 0;
    segid[0] = RA_NONE;
    for (i = 0; i < ix->npats; i++) {
        p = &ix->pats[i];
        for (j = p->lit; j < p->len; j = end + 1) {
            len = ra_segment(p, j, &end);
            if (len == 0) {
                continue;
            }
            s = 0;
            for (k = 0; k < len; k++) {
                c = cls[p->pat[j + k]];
                if (next[(s << shift) + c] == RA_NONE) {
                    segid[nstates] = RA_NONE;
                    next[(s << shift) + c] = nstates++;
                }
                s = next[(s << shift) + c];
            }
            if (segid[s] == RA_NONE) {
                segid[s] = nseg++;
            }
        }
    }

    /* breadth first: failure links, the full table, inherited outputs */
    memset(acc, 0, nstates * sizeof(ra_grams_t));
    head = tail = 0;
    fail[0] = 0;
    for (c = 0; c < (1u << shift); c++) {
        t = next[c];
        if (t == RA_NONE || c >= ncls) {
            next[c] = 0;
        } else {
            fail[t] = 0;
            queue[tail++] = t;
        }
    }
    while (head < tail) {
        s = queue[head++];
        f = fail[s];
        if (segid[s] != RA_NONE) {
            bit = segid[s] & 255;
            acc[s].w[bit >> 6] |= (uint64_t) 1 << (bit & 63);
        }
        for (k = 0; k < 4; k++) {
            acc[s].w[k] |= acc[f].w[k];
        }
        for (c = 0; c < (1u << shift); c++) {
            t = next[(s << shift) + c];
            if (t == RA_NONE || c >= ncls) {
                next[(s << shift) + c] = next[(f << shift) + c];
            } else {
                fail[t] = next[(f << shift) + c];
                queue[tail++] = t;
            }
        }
    }

    /* need sets as segment ids: each segment's state, walked from the root */
    for (i = 0; i < ix->npats; i++) {
        p = &ix->pats[i];
        if (p->simple) {
            continue;
        }
        memset(&p->need, 0, sizeof(p->need));
        for (j = p->lit; j < p->len; j = end + 1) {
            len = ra_segment(p, j, &end);
            if (len == 0) {
                continue;
            }
            for (s = 0, k = 0; k < len; k++) {
                s = next[(s << shift) + cls[p->pat[j + k]]];
            }
            bit = segid[s] & 255;
            p->need.w[bit >> 6] |= (uint64_t) 1 << (bit & 63);
        }
    }

    /* outputs, and the table as row offsets with, beside each entry, the
     * outputs of the state it leads to (fail[] is done with: it holds
     * each state's index in outs now) */
    nout = 1;
    for (s = 0; s < nstates; s++) {
        nout += (acc[s].w[0] | acc[s].w[1] | acc[s].w[2] | acc[s].w[3]) != 0;
    }
    ac = ra_pool_get(&rs->pool, sizeof(ra_ac_t));
    out = ra_pool_get(&rs->pool,
                      ((size_t) nstates << shift) * sizeof(uint16_t));
    outs = ra_pool_get(&rs->pool, nout * sizeof(ra_grams_t));
    if (ac == NULL || out == NULL || outs == NULL) {
        goto done;
    }
    memset(&outs[0], 0, sizeof(outs[0]));      /* no segment */
    ac->next = ra_pool_get(&rs->pool,
                           ((size_t) nstates << shift) * sizeof(uint16_t));
    if (ac->next == NULL) {
        goto done;
    }
    nout = 1;
    for (s = 0; s < nstates; s++) {
        fail[s] = 0;
        if (acc[s].w[0] | acc[s].w[1] | acc[s].w[2] | acc[s].w[3]) {
            outs[nout] = acc[s];
            fail[s] = nout++;
        }
    }
    for (i = 0; i < ((size_t) nstates << shift); i++) {
        ac->next[i] = (uint16_t) (next[i] << shift);
        out[i] = (uint16_t) fail[next[i]];
    }
    ac->cls = cls;
    ac->out = out;
    ac->outs = outs;
    ac->shift = shift;
    ac->narrow = nseg <= 128;
    ix->ac = ac;
    rs->ac_budget[m] -= 2 * ((size_t) nstates << shift) * sizeof(uint16_t)
                     + 256 + sizeof(ra_ac_t) + nout * sizeof(ra_grams_t);
    rc = RA_OK;

done:
    ra_free(a, next);
    ra_free(a, fail);
    ra_free(a, queue);
    ra_free(a, segid);
    ra_free(a, acc);
    return rc;
}

/* The trie as one table over the classes of its bytes, within the budget
 * (its entries are described at RA_PTAB_NODE in ra_rules_impl.h). */
#define RA_PTAB_MIN   16        /* nodes worth a table */

static int
ra_index_ptab(ra_rules_t *rs, int m, ra_index_t *ix, size_t nnodes)
{
    size_t         k, i, bytes;
    uint32_t       c, ncls, *col;
    uint16_t      *tab;
    ra_edge_t     *e;
    unsigned char  used[256];

    if (nnodes < RA_PTAB_MIN || nnodes > RA_PTAB_NODE) {
        return RA_OK;           /* a short search does for a small trie */
    }
    memset(used, 0, sizeof(used));
    for (k = 1; k < nnodes; k++) {
        used[ix->edges[k - 1].byte] = 1;    /* nnodes - 1 edges */
    }
    ncls = 1;
    for (c = 0; c < 256; c++) {
        ncls += used[c];
    }
    if (ncls > UINT8_MAX) {
        return RA_OK;
    }
    bytes = nnodes * ncls * sizeof(uint16_t) + 256 * sizeof(uint32_t);
    if (bytes > rs->ac_budget[m]) {
        return RA_OK;
    }
    col = ra_pool_calloc(&rs->pool, 256, sizeof(uint32_t));
    tab = ra_pool_calloc(&rs->pool, nnodes * ncls, sizeof(uint16_t));
    if (col == NULL || tab == NULL) {
        return RA_ENOMEM;
    }
    ncls = 1;                           /* class 0: no child */
    for (c = 0; c < 256; c++) {
        if (used[c]) {
            col[c] = (uint32_t) (ncls++ * nnodes);
        }
    }
    for (k = 0; k < nnodes; k++) {
        e = &ix->edges[ix->nodes[k].edges];
        for (i = 0; i < ix->nodes[k].nedges; i++) {
            tab[col[e[i].byte] + k]
                = (uint16_t) (e[i].node
                              | (ix->nodes[e[i].node].npats ? RA_PTAB_PATS
                                                            : 0));
        }
    }
    ix->ptab = tab;
    ix->pcol = col;
    rs->ac_budget[m] -= bytes;
    return RA_OK;
}

/* Key each candidate of a crowded node on the need gram that fewest of the
 * node's candidates share.  freq is scratch for 256 counters. */
static int
ra_index_accel(ra_index_t *ix, uint32_t nnodes, ra_pool_t *pool,
    uint32_t *freq)
{
    uint32_t     n, i, b, nchunks, best, c;
    ra_pat_t    *p;
    ra_node_t   *nd;
    ra_accel_t  *ch;

    nchunks = 0;
    for (n = 0; n < nnodes; n++) {
        nd = &ix->nodes[n];
        nd->accel = RA_NONE;
        if (nd->npats >= RA_ACCEL_MIN) {
            nd->accel = nchunks;
            nchunks += (nd->npats + 63) / 64;
        }
    }
    if (nchunks == 0) {
        return RA_OK;
    }
    ix->accel = ra_pool_calloc(pool, nchunks, sizeof(ra_accel_t));
    if (ix->accel == NULL) {
        return RA_ENOMEM;
    }

    for (n = 0; n < nnodes; n++) {
        nd = &ix->nodes[n];
        if (nd->accel == RA_NONE) {
            continue;
        }
        memset(freq, 0, 256 * sizeof(uint32_t));
        for (i = 0; i < nd->npats; i++) {
            p = &ix->pats[ix->node_pats[nd->pats + i]];
            for (b = 0; b < 256; b++) {
                freq[b] += (uint32_t) ra_grams_has(&p->need, b);
            }
        }
        for (i = 0; i < nd->npats; i++) {
            p = &ix->pats[ix->node_pats[nd->pats + i]];
            ch = &ix->accel[nd->accel + i / 64];
            best = 256;
            for (b = 0; b < 256; b++) {
                if (ra_grams_has(&p->need, b)
                    && (best == 256 || freq[b] < freq[best]))
                {
                    best = b;
                }
            }
            if (best == 256) {
                ch->always |= (uint64_t) 1 << (i % 64);
            } else {
                c = best;
                ch->keyed[c] |= (uint64_t) 1 << (i % 64);
            }
        }
    }
    return RA_OK;
}
