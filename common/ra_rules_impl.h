/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private to the files of the compiled robots.txt rule set
 * (ra_rules_compile.c, ra_rules_groups.c, ra_rules_index.c,
 * ra_rules_match.c, ra_rules_norm.c); nothing else includes it, and the
 * public interface stays ra_rules.h.  It holds the rule set's internal
 * types, the constants and small inline helpers that more than one of
 * those files needs, and the functions they call across files.
 *
 * Every group gets an index per mode: its patterns sorted by priority,
 * and a byte trie over their literal prefixes (the bytes before the first
 * '*' or final '$').  Matching walks the path down the trie; the patterns
 * hanging on the nodes it passes are the only candidates, and the priority
 * order lets it stop as soon as no candidate can win.  What the matcher
 * shares with the other files is a table or static inline here, so that
 * the matcher's translation unit keeps it inlined.
 */
#ifndef RA_RULES_IMPL_H
#define RA_RULES_IMPL_H

#include <string.h>

#include "ra_pool.h"
#include "ra_rules.h"

#define RA_NONE           UINT32_MAX
/* bytes of tables (automata, trie tables) a rule set may hold for each
 * mode: in proportion to its rules' bytes, with a floor, never more than
 * 1 MiB; past it, indexes keep byte pairs and edge lists (same answers) */
#define RA_AC_BUDGET_MIN        (128 * 1024)
#define RA_AC_BUDGET_PER_BYTE   64
#define RA_AC_BUDGET_MAX        (1024 * 1024)

typedef struct {
    uint32_t        line;
    uint32_t        group;
    ra_rule_type_e  type;
    ra_str_t        value;              /* as written */
    ra_str_t        norm[RA_MODES];     /* normalised pattern */
    ra_str_t        index_html[RA_MODES]; /* "dir/$" for ".../index.htm*" */
} ra_rule_t;

typedef struct {
    uint32_t  first_rule;
    uint32_t  nrules;
    uint32_t  line;             /* its first user-agent line */
    int32_t   crawl_delay_ms;
    unsigned  global:1;
} ra_group_t;

/*
 * A 256-bit set of the bytes and byte pairs a text contains.  A wildcard
 * pattern can only match a path whose set holds all of its segments'
 * bits: one AND rules out most candidates before any search.
 */
typedef struct {
    uint64_t  w[4];
} ra_grams_t;

typedef struct {
    const unsigned char  *pat;
    uint32_t              len;          /* priority */
    uint32_t              lit;          /* literal prefix */
    uint32_t              rule;
    uint8_t               type;
    uint8_t               simple;       /* no '*' and no final '$' */
    uint8_t               has_key;      /* key is set */
    uint8_t               star_seg;     /* the wildcard part is '*' and
                                           one segment (key its first
                                           byte), nothing after */
    uint8_t               star_end;     /* the wildcard part is '*', one
                                           segment and the final '$': the
                                           path must end with the segment */
    unsigned char         key;          /* a byte the wildcard part needs
                                           (its first literal one) */
    ra_grams_t            need;         /* of the wildcard part */
} ra_pat_t;

/*
 * For a node with many candidates: per chunk of 64 (in priority order),
 * which candidates are keyed on each gram, and which are always possible.
 * OR-ing the rows of the grams a path has gives the chunk's plausible
 * candidates, still in priority order.
 */
#define RA_ACCEL_MIN  12

typedef struct {
    uint64_t  always;
    uint64_t  keyed[256];
} ra_accel_t;

typedef struct {
    uint32_t  edges;
    uint32_t  nedges;
    uint32_t  pats;
    uint32_t  npats;
    uint32_t  accel;        /* first chunk in ix->accel, or RA_NONE */
} ra_node_t;

typedef struct {
    uint32_t       node;
    unsigned char  byte;
} ra_edge_t;

/*
 * An Aho-Corasick automaton over the segments of the index's wildcard
 * parts (the literals between stars), as a table over byte classes.  With
 * it, a "gram" is no longer a byte pair but a segment (its id mod 256):
 * one pass over the path gives the set of segments it contains, exactly up
 * to that hashing, so a candidate is tried only when every one of its
 * segments occurs.  Entries are the next state's row offset, 16 bits (a
 * table that does not fit keeps byte pairs): half the cache a 32-bit one
 * takes.  Beside each entry, the outputs of the state it leads to: the
 * step reads both with the same index, so that the segments a byte ends
 * cost no lookup that waits on the next state.
 */
typedef struct {
    uint16_t         *next;         /* nstates << shift entries */
    const uint16_t   *out;          /* per entry of next: the index in
                                       outs of its state's segments, 0 none */
    const uint8_t    *cls;          /* 256 byte classes */
    const ra_grams_t *outs;
    uint32_t          shift;        /* log2 of the row width */
    int               narrow;       /* at most 128 segments: ids are
                                       exact, the upper half of every
                                       set is 0 */
} ra_ac_t;

typedef struct {
    ra_pat_t   *pats;
    uint32_t    npats;
    ra_node_t  *nodes;
    ra_edge_t  *edges;
    uint32_t   *node_pats;
    ra_accel_t *accel;
    ra_ac_t    *ac;             /* NULL: grams are byte pairs */
    /* the trie as a table over byte classes (ra_index_ptab), NULL when
     * over the budget (then the edges are searched): a column per class,
     * a node's entry for byte b at ptab[pcol[b] + node] */
    uint16_t   *ptab;
    uint32_t   *pcol;
    /* a small index's (RA_SMALL_PATS): per pattern, its literal prefix's
     * first 8 bytes (0 past it) and the mask of those it has, to compare
     * with a path's first 8 bytes in one step; NULL otherwise */
    uint64_t   *head;
} ra_index_t;

/* An index of this many patterns or fewer is searched pattern by pattern
 * (ra_small_match()) */
#define RA_SMALL_PATS  8

/* The groups that apply to one agent, as indexes to search. */
typedef struct {
    uint32_t  refs;         /* first entry in rules->refs */
    uint32_t  nrefs;
    uint32_t  line;         /* first user-agent line of its first group */
    int32_t   crawl_delay_ms;
} ra_set_t;

typedef struct {
    ra_str_t  token;        /* lower case, in the pool */
    uint32_t  hash;
    uint32_t  set;          /* RA_NONE: empty slot */
} ra_tok_t;

typedef struct {
    ra_str_t  token;
    uint32_t  group;
} ra_ua_t;

struct ra_rules_s {
    ra_pool_t          pool;
    ra_rule_t         *rules;
    uint32_t           nrules;
    ra_group_t        *groups;
    uint32_t           ngroups;
    ra_index_t        *index[RA_MODES];
    uint32_t           nindex;
    ra_set_t          *sets;
    uint32_t           nsets;
    uint32_t          *refs;
    uint32_t           nrefs;
    ra_tok_t          *toks;
    uint32_t           tok_mask;
    uint32_t           ntoks;
    uint32_t           global_set;      /* RA_NONE: no "*" group */
    uint32_t           sitemaps;
    size_t             ac_budget[RA_MODES]; /* table bytes still allowed */
};

/*
 * The trie as one table over the classes of its bytes, within the budget:
 * the walk then costs one lookup a byte, and no multiplication, as the
 * table is stored by columns (the class 0, of bytes on no edge, is a
 * column of zeros).  An entry is the child's number
 * (0: none; the root is no child), its top bit set when the child has
 * candidates.
 */
#define RA_PTAB_NODE  0x7fffu
#define RA_PTAB_PATS  0x8000u

/* Bytes that ra_rules_norm_rfc() copies as they are in a URL (url == 1):
 * not a '%', not ra_uri_unsafe(), not '*' or '$'.  A path of these alone
 * is its own normal form. */
static const unsigned char  ra_url_plain[256] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 1, 0, 0, 0, 0, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 0, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 0, 1,
    0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 0
};

#define ra_grams_has(g, bit)  (((g)->w[(bit) >> 6] >> ((bit) & 63)) & 1)

/* A path's (or pattern's) first 8 bytes, 0 past its n: the same word on
 * any machine for the same bytes. */
static inline uint64_t
ra_head8(const unsigned char *p, size_t n)
{
    size_t         i;
    uint64_t       w;
    unsigned char  b[8] = { 0 };

    if (n >= 8) {
        memcpy(&w, p, 8);
        return w;
    }
    for (i = 0; i < n; i++) {
        b[i] = p[i];
    }
    memcpy(&w, b, 8);
    return w;
}

/* ra_rules_norm.c: a rule or path in Google's or RFC 9309's normal form
 * (url: a request path rather than a rule); dst holds 3 * s.len bytes. */
size_t ra_rules_norm_google(ra_str_t s, unsigned char *dst);
size_t ra_rules_norm_rfc(ra_str_t s, unsigned char *dst, int url);

/* ra_rules_index.c: the index of mode m over the rules of
 * groups[0..ngroups) */
int ra_rules_index_build(ra_rules_t *rs, int m, const uint32_t *groups,
    size_t ngroups, ra_index_t *ix);

/* ra_rules_match.c: what the matcher needs to know of a pattern, worked
 * out once when it is indexed */
void ra_rules_pat_set(ra_pat_t *p, ra_str_t pat, uint32_t rule,
    ra_rule_type_e type);

/* ra_rules_groups.c: the sets of groups each token selects, and the
 * indexes they search, from the groups and user-agent lines compiled */
int ra_rules_link(ra_rules_t *rs, ra_ua_t *ua, uint32_t nua);

#endif /* RA_RULES_IMPL_H */
