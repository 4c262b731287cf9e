/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The matcher: a path judged for the set of groups chosen for an agent,
 * in one mode.  It walks the path down each index's trie, tries the
 * candidates hanging on the nodes passed in priority order, and matches
 * wildcards in O(path + pattern), without backtracking.  This is the hot
 * path: the helpers it uses are static here, or static inline in
 * ra_rules_impl.h, so that they stay inlined and no call it makes on the
 * way leaves this file unknown to the compiler.
 */
#define _GNU_SOURCE             /* memmem(): glibc's is linear (two-way) */

#include <string.h>

#include "ra_rules_impl.h"

/* Are p's eight bytes from i plain? */
#define ra_url_plain8(p, i)                                                  \
    (ra_url_plain[(p)[(i)]] & ra_url_plain[(p)[(i) + 1]]                     \
     & ra_url_plain[(p)[(i) + 2]] & ra_url_plain[(p)[(i) + 3]]               \
     & ra_url_plain[(p)[(i) + 4]] & ra_url_plain[(p)[(i) + 5]]               \
     & ra_url_plain[(p)[(i) + 6]] & ra_url_plain[(p)[(i) + 7]])

/* How many of p's first bytes are known plain (ra_url_plain): n when
 * every one is, else at most the offset of the first that is not.
 * Eight at a time, one test for the eight; the last bytes of a path of
 * eight or more as its last eight (overlapping), not one by one. */
static size_t
ra_url_plain_prefix(const unsigned char *p, size_t n)
{
    size_t  i;

    for (i = 0; i + 8 <= n; i += 8) {
        if (!ra_url_plain8(p, i)) {
            return i;
        }
    }
    if (i < n && n >= 8) {
        return ra_url_plain8(p, n - 8) ? n : i;
    }
    for ( /* void */ ; i < n; i++) {
        if (!ra_url_plain[p[i]]) {
            return i;
        }
    }
    return n;
}

#define ra_gram(a, b)   ((unsigned) ((a) * 37u + (b) * 11u) & 255u)

/* byte pairs only: a one-byte segment adds nothing */
static void
ra_grams_add(ra_grams_t *g, const unsigned char *p, size_t n)
{
    size_t    i;
    unsigned  bit;

    for (i = 1; i < n; i++) {
        bit = ra_gram(p[i - 1], p[i]);
        g->w[bit >> 6] |= (uint64_t) 1 << (bit & 63);
    }
}

static int
ra_grams_lack(const ra_grams_t *have, const ra_grams_t *need)
{
    return ((need->w[0] & ~have->w[0]) | (need->w[1] & ~have->w[1])
            | (need->w[2] & ~have->w[2]) | (need->w[3] & ~have->w[3])) != 0;
}

/* memmem() for a short haystack (RA_FIND_SHORT bytes at most): a memchr()
 * of the needle's first byte and a compare, without memmem()'s setup,
 * which costs more than such a search.  At most RA_FIND_SHORT compares of
 * at most RA_FIND_SHORT bytes: a bounded cost; longer haystacks go to
 * memmem(), linear. */
#define RA_FIND_SHORT  64

static const unsigned char *
ra_find(const unsigned char *hay, size_t n, const unsigned char *needle,
    size_t m)
{
    const unsigned char  *p, *end;

    if (n > RA_FIND_SHORT) {
        return memmem(hay, n, needle, m);
    }
    if (m == 0) {
        return hay;
    }
    if (m > n) {
        return NULL;
    }
    end = hay + (n - m) + 1;            /* where a match may start */
    for (p = hay; p < end; p++) {
        p = memchr(p, needle[0], (size_t) (end - p));
        if (p == NULL) {
            return NULL;
        }
        if (memcmp(p + 1, needle + 1, m - 1) == 0) {
            return p;
        }
    }
    return NULL;
}

/* The first '*' of a pattern's n bytes, or NULL: a pattern's segments are
 * a few bytes, shorter than memchr()'s setup. */
static inline const unsigned char *
ra_star(const unsigned char *pat, size_t n)
{
    size_t  i;

    for (i = 0; i < n; i++) {
        if (pat[i] == '*') {
            return pat + i;
        }
    }
    return NULL;
}

/*
 * Does pattern pat match path from byte pos on, as a prefix match ('*'
 * any run, final '$' anchors the end)?  Segments between stars are found
 * greedily, each at its leftmost place after the previous one, which is
 * optimal for star-separated literals; memmem is linear, so the cost is
 * O(path + pattern) whatever the pattern (ra_find(): a search of at most
 * RA_FIND_SHORT bytes costs at most RA_FIND_SHORT^2 compares).
 */
static int
ra_wild(const unsigned char *path, size_t plen, size_t pos,
    const unsigned char *pat, size_t patlen)
{
    int                   anchored;
    size_t                seg;
    const unsigned char  *star, *found;

    anchored = patlen > 0 && pat[patlen - 1] == '$';
    if (anchored) {
        patlen--;
    }

    /* the segment before the first star is anchored at pos */
    star = ra_star(pat, patlen);
    seg = star ? (size_t) (star - pat) : patlen;
    if (seg > plen - pos || (seg && memcmp(path + pos, pat, seg) != 0)) {
        return 0;
    }
    pos += seg;
    if (star == NULL) {
        return !anchored || pos == plen;
    }

    for ( ;; ) {
        pat = star + 1;
        patlen -= seg + 1;
        star = ra_star(pat, patlen);
        seg = star ? (size_t) (star - pat) : patlen;

        if (star == NULL && anchored) {
            /* the last segment must end the path */
            return seg <= plen - pos
                   && memcmp(path + plen - seg, pat, seg) == 0;
        }
        if (seg) {
            found = ra_find(path + pos, plen - pos, pat, seg);
            if (found == NULL) {
                return 0;
            }
            pos = (size_t) (found - path) + seg;
        }
        if (star == NULL) {
            return 1;
        }
    }
}

/* ra_wild() for pattern p's wildcard part from pos, without reading the
 * pattern again when it is "*SEG$": the path ends with SEG at pos or
 * after. */
static inline int
ra_wild_pat(const unsigned char *path, size_t plen, size_t pos,
    const ra_pat_t *p)
{
    size_t  seg;

    if (p->star_end) {
        seg = p->len - p->lit - 2;
        return seg <= plen - pos
               && memcmp(path + plen - seg, p->pat + p->lit + 1, seg) == 0;
    }
    return ra_wild(path, plen, pos, p->pat + p->lit, p->len - p->lit);
}

/* The byte pairs of every segment between stars, which must all occur in
 * a path that the pattern matches. */
static void
ra_pat_pairs(const ra_pat_t *p, ra_grams_t *need)
{
    uint32_t  j, k;

    memset(need, 0, sizeof(*need));
    for (j = p->lit; j < p->len; j = k + 1) {
        for (k = j; k < p->len && p->pat[k] != '*'; k++) { /* void */ }
        ra_grams_add(need, p->pat + j,
                     k - j - (k == p->len && p->pat[k - 1] == '$' && k > j));
    }
}

/*
 * What the matcher needs to know of a pattern, worked out once when
 * ra_rules_index.c indexes it: its literal prefix, whether it is simple,
 * the byte its wildcard part needs first, and the grams that part needs
 * (byte pairs here; ra_rules_index.c may make them segment ids).  It
 * stays beside ra_try(), which reckons the same byte pairs again when
 * the index holds segments.
 */
void
ra_rules_pat_set(ra_pat_t *p, ra_str_t pat, uint32_t rule, ra_rule_type_e type)
{
    uint32_t  i;

    p->pat = pat.data;
    p->len = (uint32_t) pat.len;
    p->rule = rule;
    p->type = (uint8_t) type;
    for (i = 0; i < pat.len; i++) {
        if (pat.data[i] == '*' || (pat.data[i] == '$' && i + 1 == pat.len)) {
            break;
        }
    }
    p->lit = i;
    p->simple = i == pat.len;
    p->has_key = 0;
    p->star_seg = i + 1 < pat.len && pat.data[i] == '*'
                  && ra_star(pat.data + i + 1, pat.len - i - 1) == NULL
                  && pat.data[pat.len - 1] != '$';
    p->star_end = i + 2 < pat.len && pat.data[i] == '*'
                  && pat.data[pat.len - 1] == '$'
                  && ra_star(pat.data + i + 1, pat.len - i - 2) == NULL;
    for ( /* void */ ; i < pat.len; i++) {
        if (pat.data[i] != '*' && !(pat.data[i] == '$' && i + 1 == pat.len)) {
            p->has_key = 1;
            p->key = pat.data[i];
            break;
        }
    }

    ra_pat_pairs(p, &p->need);
}

/*
 * The verdict needs only the best matching pattern: the longest, allow
 * before disallow at equal length (RFC 9309: ties go to allow), then the
 * earliest line, which is the one the reference library reports.
 */
typedef struct {
    int32_t   prio;
    uint32_t  rule;
    uint8_t   type;
} ra_best_t;

static int
ra_beats(const ra_pat_t *p, const ra_best_t *b)
{
    if ((int32_t) p->len != b->prio) {
        return (int32_t) p->len > b->prio;
    }
    if (p->type != b->type) {
        return p->type == RA_RULE_ALLOW;
    }
    return p->rule < b->rule;
}

/* Candidates on one node, in priority order. */
typedef struct {
    const unsigned char  *path;
    size_t                plen;
    ra_grams_t            grams;
    const ra_ac_t        *grams_ac;     /* the automaton they came from */
    int                   have_grams;
    int                   pairs;        /* byte pairs for every index */
    int                   wild_tried;   /* a wildcard candidate was tried
                                           without grams */
} ra_subject_t;

/* The path's grams as the index counts them: its segments (one pass of
 * the automaton) or its byte pairs. */
static void
ra_grams_of(const ra_index_t *ix, ra_subject_t *sj)
{
    size_t                i, n;
    uint32_t              e, x;
    ra_grams_t            g;
    const uint16_t       *next;
    const uint8_t        *cls;
    const uint16_t       *out;
    const ra_grams_t     *outs, *o;
    const ra_ac_t        *ac;
    const unsigned char  *p;

    ac = sj->pairs ? NULL : ix->ac;
    memset(&sj->grams, 0, sizeof(sj->grams));
    sj->have_grams = 1;
    sj->grams_ac = ac;
    if (ac == NULL) {
        ra_grams_add(&sj->grams, sj->path, sj->plen);
        return;
    }
    next = ix->ac->next;
    cls = ix->ac->cls;
    out = ix->ac->out;
    outs = ix->ac->outs;
    p = sj->path;
    n = sj->plen;

    /* branch-free: out[] of a state without segments is 0, an empty set */
    e = 0;
    g = sj->grams;
    for (i = 0; i < n; i++) {
        x = e + cls[p[i]];
        o = &outs[out[x]];
        e = next[x];
        g.w[0] |= o->w[0];
        g.w[1] |= o->w[1];
        g.w[2] |= o->w[2];
        g.w[3] |= o->w[3];
    }
    sj->grams = g;
}

/* The path's grams, unless the subject has them already (a test in the
 * caller's loop rather than a call). */
static inline void
ra_grams_need(const ra_index_t *ix, ra_subject_t *sj)
{
    if (!sj->have_grams || sj->grams_ac != (sj->pairs ? NULL : ix->ac)) {
        ra_grams_of(ix, sj);
    }
}

/* Candidate i of a node: returns 0 when nothing after it can win.
 * Inlined into its two loops, which then keep the subject in registers. */
static inline __attribute__((always_inline)) int
ra_try(const ra_index_t *ix, const ra_node_t *nd, uint32_t i, size_t depth,
    ra_subject_t *sj, ra_best_t *best)
{
    ra_grams_t        pairs;
    const ra_grams_t *need;
    const ra_pat_t   *p = &ix->pats[ix->node_pats[nd->pats + i]];

    if ((int32_t) p->len < best->prio) {
        return 0;                       /* sorted: nothing below can win */
    }
    if (!ra_beats(p, best)) {
        return 1;
    }
    if (!p->simple && !sj->have_grams && !sj->wild_tried) {
        /* the path's first wildcard candidate: one ra_wild() costs no
         * more than the grams would (both one pass), and most paths meet
         * one or none; the grams filter the candidates after it */
        sj->wild_tried = 1;
        if (!ra_wild_pat(sj->path, sj->plen, depth, p)) {
            return 1;
        }
    } else if (!p->simple) {
        ra_grams_need(ix, sj);
        need = &p->need;
        if (sj->pairs && ix->ac != NULL) {
            ra_pat_pairs(p, &pairs);        /* need holds segments */
            need = &pairs;
        }
        if (ra_grams_lack(&sj->grams, need)
            || !ra_wild_pat(sj->path, sj->plen, depth, p))
        {
            return 1;
        }
    }
    best->prio = (int32_t) p->len;
    best->rule = p->rule;
    best->type = p->type;
    return 1;
}

/* Candidates on one node, in priority order. */
static void
ra_node_match(const ra_index_t *ix, const ra_node_t *nd, size_t depth,
    ra_subject_t *sj, ra_best_t *best)
{
    uint32_t           i, c, w, bit;
    uint64_t           m, g;
    const ra_accel_t  *ch;

    /* the rows of an index with an automaton are keyed on segments */
    if (nd->accel == RA_NONE || (sj->pairs && ix->ac != NULL)) {
        for (i = 0; i < nd->npats; i++) {
            if (!ra_try(ix, nd, i, depth, sj, best)) {
                return;
            }
        }
        return;
    }

    ra_grams_need(ix, sj);
    for (c = 0; c * 64 < nd->npats; c++) {
        ch = &ix->accel[nd->accel + c];
        m = ch->always;
        for (w = 0; w < 4; w++) {
            for (g = sj->grams.w[w]; g; g &= g - 1) {
                bit = w * 64 + (uint32_t) __builtin_ctzll(g);
                m |= ch->keyed[bit];
            }
        }
        for ( /* void */ ; m; m &= m - 1) {
            i = c * 64 + (uint32_t) __builtin_ctzll(m);
            if (!ra_try(ix, nd, i, depth, sj, best)) {
                return;
            }
        }
    }
}

#define RA_WALK_MAX  64

/*
 * Walks path down the trie.  The nodes passed are then searched deepest
 * first: longer literal prefixes tend to belong to longer patterns, so the
 * best is found early and the shallow nodes' lists are cut short.
 */
/* A full walk's shallowest node, searched now to make room. */
static __attribute__((noinline)) void
ra_walk_full(const ra_index_t *ix, ra_subject_t *sj, ra_best_t *best,
    uint32_t *walk, size_t *n)
{
    const ra_node_t  *nd;

    nd = &ix->nodes[walk[0]];
    ra_node_match(ix, nd, ix->pats[ix->node_pats[nd->pats]].lit, sj, best);
    memmove(walk, walk + 1, (RA_WALK_MAX - 1) * sizeof(walk[0]));
    (*n)--;
}

/* Keeps a node with candidates of the walk; a very deep walk searches its
 * shallowest node now (out of line: the common push is a store). */
static inline __attribute__((always_inline)) void
ra_walk_push(const ra_index_t *ix, ra_subject_t *sj, ra_best_t *best,
    uint32_t *walk, size_t *n, uint32_t node)
{
    if (*n == RA_WALK_MAX) {
        ra_walk_full(ix, sj, best, walk, n);
    }
    walk[(*n)++] = node;
}

/* One byte of the automaton's pass: the next state, and the segments it
 * ends added to g (both read with the same index); the upper half only
 * when the automaton has segments there (words is a constant). */
#define RA_AC_STEP(e, g, b)                                                  \
    do {                                                                     \
        const ra_grams_t  *o_;                                               \
        uint32_t           x_ = (e) + cls[(b)];                              \
        o_ = &outs[out[x_]];                                                 \
        (e) = next[x_];                                                      \
        (g).w[0] |= o_->w[0];                                                \
        (g).w[1] |= o_->w[1];                                                \
        if (words > 2) {                                                     \
            (g).w[2] |= o_->w[2];                                            \
            (g).w[3] |= o_->w[3];                                            \
        }                                                                    \
    } while (0)

/*
 * The walk down the trie's table and the automaton's pass over the whole
 * path in one loop while the walk goes on: two chains of dependent
 * lookups that overlap, where one after the other each would wait on its
 * own.  Once the walk stops (after a few bytes, mostly), the pass goes on
 * alone, without asking at every byte whether the walk still goes.
 */
static inline __attribute__((always_inline)) void
ra_walk_scan_words(const ra_index_t *ix, ra_subject_t *sj, ra_best_t *best,
    uint32_t *walk, size_t *n, const int words)
{
    size_t                i;
    uint32_t              e, t, node = 0;
    ra_grams_t            g;
    const uint16_t       *pt = ix->ptab, *out = ix->ac->out;
    const uint32_t       *pc = ix->pcol;
    const uint8_t        *cls = ix->ac->cls;
    const uint16_t       *next = ix->ac->next;
    const ra_grams_t     *outs = ix->ac->outs;
    const unsigned char  *path = sj->path;
    size_t                plen = sj->plen;

    memset(&g, 0, sizeof(g));
    e = 0;
    for (i = 0; i < plen; i++) {
        RA_AC_STEP(e, g, path[i]);
        t = pt[node + pc[path[i]]];
        if (t == 0) {
            i++;
            break;
        }
        node = t & RA_PTAB_NODE;
        if (t & RA_PTAB_PATS) {
            /* (a very deep walk may search a node before the pass ends:
             * it then makes its own, the same) */
            ra_walk_push(ix, sj, best, walk, n, node);
        }
    }
    for ( /* void */ ; i + 2 <= plen; i += 2) {
        RA_AC_STEP(e, g, path[i]);
        RA_AC_STEP(e, g, path[i + 1]);
    }
    if (i < plen) {
        RA_AC_STEP(e, g, path[i]);
    }
    sj->grams = g;
    sj->have_grams = 1;
    sj->grams_ac = ix->ac;
}

/* The pass of an automaton with at most 128 segments (ids 0..127, see
 * ra_ac_t.narrow) ORs half the words a byte. */
static void
ra_walk_scan(const ra_index_t *ix, ra_subject_t *sj, ra_best_t *best,
    uint32_t *walk, size_t *n)
{
    if (ix->ac->narrow) {
        ra_walk_scan_words(ix, sj, best, walk, n, 2);
    } else {
        ra_walk_scan_words(ix, sj, best, walk, n, 4);
    }
}

/*
 * A small index (a group of a few rules, as most files have): its
 * patterns, in priority order, each compared where it starts; the first
 * that matches is the best.  At most RA_SMALL_PATS patterns, each
 * O(path + pattern) (ra_wild()): linear, without the trie walk and the
 * automaton's pass over the whole path.
 */

static void
ra_small_match(const ra_index_t *ix, const ra_subject_t *sj, ra_best_t *best)
{
    uint32_t              i;
    const ra_pat_t       *p;
    const unsigned char  *q;

    for (i = 0; i < ix->npats; i++) {
        p = &ix->pats[i];
        if (!ra_beats(p, best)) {
            return;                     /* sorted: nothing after can win */
        }
        /* the literal prefix: its first and last bytes, then the rest */
        if (p->lit > sj->plen
            || (p->lit && (sj->path[0] != p->pat[0]
                           || sj->path[p->lit - 1] != p->pat[p->lit - 1]))
            || (p->lit > 2
                && memcmp(sj->path + 1, p->pat + 1, p->lit - 2) != 0))
        {
            continue;
        }
        /* a wildcard part: its first literal byte must occur after the
         * prefix before the whole is searched ("*SEG": SEG from there) */
        if (!p->simple) {
            q = p->has_key ? memchr(sj->path + p->lit, p->key,
                                    sj->plen - p->lit)
                           : NULL;
            if (p->has_key && q == NULL) {
                continue;
            }
            if (p->star_seg
                ? ra_find(q, (size_t) (sj->path + sj->plen - q),
                          p->pat + p->lit + 1, p->len - p->lit - 1) == NULL
                : !ra_wild(sj->path, sj->plen, p->lit, p->pat + p->lit,
                           p->len - p->lit))
            {
                continue;
            }
        }
        best->prio = (int32_t) p->len;
        best->rule = p->rule;
        best->type = p->type;
        return;
    }
}

static inline __attribute__((always_inline)) void
ra_index_match(const ra_index_t *ix, ra_subject_t *sj, ra_best_t *best)
{
    const unsigned char  *path = sj->path;
    size_t                plen = sj->plen;
    size_t            depth, n;
    uint32_t          node, i, lo, hi, mid, ne, t;
    uint32_t          walk[RA_WALK_MAX];
    const uint16_t   *pt;
    const uint32_t   *pc;
    const ra_node_t  *nd;
    const ra_edge_t  *e;

    if (ix->npats <= RA_SMALL_PATS) {
        ra_small_match(ix, sj, best);
        return;
    }

    n = 0;
    if (ix->ptab != NULL) {
        /* one lookup a byte; an entry's top bit: the child has candidates */
        pt = ix->ptab;
        pc = ix->pcol;
        if (ix->nodes[0].npats) {
            ra_walk_push(ix, sj, best, walk, &n, 0);
        }
        node = 0;
        if (ix->ac != NULL && !sj->pairs
            && !(sj->have_grams && sj->grams_ac == ix->ac))
        {
            ra_walk_scan(ix, sj, best, walk, &n);
            goto walked;
        }
        for (depth = 0; depth < plen; depth++) {
            t = pt[node + pc[path[depth]]];
            if (t == 0) {
                break;
            }
            node = t & RA_PTAB_NODE;
            if (t & RA_PTAB_PATS) {
                ra_walk_push(ix, sj, best, walk, &n, node);
            }
        }
        goto walked;
    }

    node = 0;
    depth = 0;
    for ( ;; ) {
        nd = &ix->nodes[node];
        if (nd->npats) {
            ra_walk_push(ix, sj, best, walk, &n, node);
        }

        if (depth == plen || nd->nedges == 0) {
            break;
        }

        /* the child for path[depth] */
        e = &ix->edges[nd->edges];
        ne = nd->nedges;
        if (ne <= 8) {
            for (i = 0; i < ne && e[i].byte != path[depth]; i++) { /* void */ }
            if (i == ne) {
                break;
            }
            node = e[i].node;
        } else {
            lo = 0;
            hi = ne;
            while (lo < hi) {
                mid = (lo + hi) / 2;
                if (e[mid].byte < path[depth]) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            if (lo == ne || e[lo].byte != path[depth]) {
                break;
            }
            node = e[lo].node;
        }
        depth++;
    }

walked:
    while (n--) {
        nd = &ix->nodes[walk[n]];
        ra_node_match(ix, nd, ix->pats[ix->node_pats[nd->pats]].lit, sj,
                      best);
    }
}

/* The deciding rule, when one matched, into out (set up for the group). */
static inline void
ra_match_best(const ra_rules_t *rs, const ra_best_t *best, ra_match_t *out)
{
    const ra_rule_t  *rule;

    if (best->prio < 0) {
        out->why = RA_WHY_NO_MATCH;
        return;
    }
    out->why = RA_WHY_RULE;
    out->type = best->type;
    out->allowed = best->type == RA_RULE_ALLOW;
    rule = &rs->rules[best->rule];
    out->priority = (uint32_t) best->prio;
    out->line = rule->line;
    out->pattern = rule->value;
}

/*
 * ra_small_match() for a plain path of that shape and no match yet: the
 * first pattern that matches, in priority order, is the best (its index,
 * or -1).  A literal prefix is compared 8 bytes at a time; a wildcard
 * part that needs a '?' does not match a path without one.
 */
static int
ra_small_first(const ra_index_t *ix, const unsigned char *path, size_t plen,
    unsigned shape)
{
    uint32_t              i;
    uint64_t              w;
    const uint64_t       *h = ix->head;
    const ra_pat_t       *p;
    const unsigned char  *q;

    w = ra_head8(path, plen);
    for (i = 0; i < ix->npats; i++, h += 2) {
        p = &ix->pats[i];
        if (p->lit > plen || ((w ^ h[0]) & h[1]) != 0
            || (p->lit > 8 && memcmp(path + 8, p->pat + 8, p->lit - 8) != 0))
        {
            continue;
        }
        if (p->simple) {
            return (int) i;
        }
        /* the wildcard part: its first literal byte must occur after the
         * prefix before the whole is searched ("*SEG": SEG from there) */
        q = NULL;
        if (p->has_key) {
            if (p->key == '?' && !(shape & RA_PATH_QUERY)) {
                continue;
            }
            q = memchr(path + p->lit, p->key, plen - p->lit);
            if (q == NULL) {
                continue;
            }
        }
        if (p->star_seg
            ? ra_find(q, (size_t) (path + plen - q), p->pat + p->lit + 1,
                      p->len - p->lit - 1) != NULL
            : ra_wild(path, plen, p->lit, p->pat + p->lit, p->len - p->lit))
        {
            return (int) i;
        }
    }
    return -1;
}

/*
 * The common case first, in a small frame: RA_MODE_RFC, a plain path
 * (its own normal form, read where it is, within the size the full
 * matcher reads in place), not /robots.txt, a group of one small index
 * (ra_small_match()).  The rest goes to ra_rules_match_group(), the same
 * answer for these.
 */
static inline __attribute__((always_inline)) int
ra_match_plain(const ra_rules_t *rs, const ra_rules_group_t *g,
    ra_str_t path, unsigned shape, const ra_alloc_t *scratch,
    ra_match_t *out)
{
    int                i;
    ra_best_t          best;
    const ra_pat_t    *p;
    const ra_set_t    *set;
    const ra_index_t  *ix;

    if (3 * path.len + 1 > RA_MATCH_STACK || g->set == RA_NONE
        || (path.len >= 11 && path.data[1] == 'r'))
    {
        return ra_rules_match_group(rs, RA_MODE_RFC, g, path, scratch, out);
    }
    set = &rs->sets[g->set];
    if (set->nrefs != 1) {
        return ra_rules_match_group(rs, RA_MODE_RFC, g, path, scratch, out);
    }
    ix = &rs->index[RA_MODE_RFC][rs->refs[set->refs]];
    if (ix->npats > RA_SMALL_PATS) {
        return ra_rules_match_group(rs, RA_MODE_RFC, g, path, scratch, out);
    }

    memset(out, 0, sizeof(*out));
    out->allowed = 1;
    out->group = g->group;
    out->group_line = set->line;
    out->crawl_delay_ms = set->crawl_delay_ms;
    i = ra_small_first(ix, path.data, path.len, shape);
    if (i < 0) {
        out->why = RA_WHY_NO_MATCH;
        return RA_OK;
    }
    p = &ix->pats[i];
    best.prio = (int32_t) p->len;
    best.rule = p->rule;
    best.type = p->type;
    ra_match_best(rs, &best, out);
    return RA_OK;
}

int
ra_rules_match_shaped(const ra_rules_t *rs, ra_mode_e mode,
    const ra_rules_group_t *g, ra_str_t path, unsigned shape,
    const ra_alloc_t *scratch, ra_match_t *out)
{
    if (mode == RA_MODE_RFC && (shape & RA_PATH_PLAIN)) {
        return ra_match_plain(rs, g, path, shape, scratch, out);
    }
    return ra_rules_match_group(rs, mode, g, path, scratch, out);
}

int
ra_rules_match_group(const ra_rules_t *rs, ra_mode_e mode,
    const ra_rules_group_t *g, ra_str_t path, const ra_alloc_t *scratch,
    ra_match_t *out)
{
    int                   rc;
    size_t                need, plen, plain;
    uint32_t              set_id, k;
    ra_best_t             best;
    ra_subject_t          sj;
    const ra_set_t       *set;
    unsigned char         stack[RA_MATCH_STACK], *buf;
    const unsigned char  *p, *nul;

    memset(out, 0, sizeof(*out));
    out->allowed = 1;
    out->crawl_delay_ms = -1;
    rc = RA_OK;
    set_id = g->set;
    plain = 0;

    /* the path as this mode compares it, with its leading '/' */
    if (mode == RA_MODE_GOOGLE) {
        /* the library holds the path as a C string */
        nul = memchr(path.data, '\0', path.len);
        if (nul != NULL) {
            path.len = (size_t) (nul - path.data);
        }
        if (path.len && path.data[0] == '/') {
            p = path.data;
            plen = path.len;
            buf = NULL;
            goto normalised;
        }
        need = path.len + 1;
    } else {
        need = 3 * path.len + 1;
        if (need <= sizeof(stack) && path.len && path.data[0] == '/') {
            /* the common case: a path that is its own normal form is
             * read where it is (one that is not is normalised below,
             * after its plain first bytes) */
            plain = ra_url_plain_prefix(path.data, path.len);
            if (plain == path.len) {
                p = path.data;
                plen = path.len;
                buf = NULL;
                goto normalised;
            }
        }
    }

    buf = stack;
    if (need > sizeof(stack)) {
        buf = scratch ? ra_alloc(scratch, need) : NULL;
        if (buf == NULL) {
            rc = RA_ENOMEM;
            buf = stack;
            path.len = mode == RA_MODE_GOOGLE ? sizeof(stack) - 1
                                              : (sizeof(stack) - 1) / 3;
        }
    }
    plen = 0;
    if (path.len == 0 || path.data[0] != '/') {
        buf[plen++] = '/';
    }
    if (mode == RA_MODE_GOOGLE) {
        memcpy(buf + plen, path.data, path.len);
        plen += path.len;
    } else {
        /* plain bytes are their own normal form, and no escape starts
         * among them */
        memcpy(buf + plen, path.data, plain);
        plen += plain;
        plen += ra_rules_norm_rfc(ra_str(path.data + plain, path.len - plain),
                            buf + plen, 1);
    }
    p = buf;

normalised:

    if (mode == RA_MODE_RFC) {
        /* RFC 9309 2.2.2: /robots.txt is implicitly allowed (its own
         * query too: the path before the first '?') */
        if (plen >= 11 && p[1] == 'r' && memcmp(p, "/robots.txt", 11) == 0
            && (plen == 11 || p[11] == '?'))
        {
            out->why = RA_WHY_ROBOTS_TXT;
            goto done;
        }
    }

    if (set_id == RA_NONE) {
        out->why = RA_WHY_NO_GROUP;
        goto done;
    }

    set = &rs->sets[set_id];
    out->group = g->group;
    out->group_line = set->line;
    out->crawl_delay_ms = set->crawl_delay_ms;

    best.prio = -1;
    best.rule = RA_NONE;
    best.type = RA_RULE_NONE;
    sj.path = p;
    sj.plen = plen;
    sj.have_grams = 0;
    sj.wild_tried = 0;
    sj.grams_ac = NULL;
    /* several indexes (groups past the merge budget): byte pairs once for
     * all of them, not one automaton pass each, so that the cost stays
     * linear in the path whatever the file */
    sj.pairs = set->nrefs > 1;
    for (k = 0; k < set->nrefs; k++) {
        ra_index_match(&rs->index[mode][rs->refs[set->refs + k]], &sj, &best);
    }

    ra_match_best(rs, &best, out);

done:
    if (buf != NULL && buf != stack) {
        ra_free(scratch, buf);
    }
    return rc;
}
