/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private to the crawler table's files (ra_crawlers.c, the loader and the
 * queries; ra_crawlers_words.c, the vocabularies; ra_crawlers_ac.c, the
 * automaton's builder; ra_crawlers_identify.c, the scan; and the
 * heuristics of ra_crawlers_token.c, ra_crawlers_shape.c and
 * ra_crawlers_name.c): the table's
 * layout, the automaton's, a scan's hits, and the small helpers they all
 * use, inline here because identification runs them on every request.
 * Nothing else includes it.
 */
#ifndef RA_CRAWLERS_IMPL_H
#define RA_CRAWLERS_IMPL_H

#include <string.h>

#include "ra_crawlers.h"

#define RA_PAT_KNOWN      0
#define RA_PAT_GENERIC    1
#define RA_PAT_PLATFORM   2
#define RA_PAT_NEUTRAL    3

#define RA_KW_WSTART      0x01   /* must start a word */
#define RA_KW_NOALPHA     0x02   /* no letter may follow */
#define RA_KW_NOALNUM     0x04   /* no letter or digit may follow */
#define RA_KW_URL         0x08   /* part of a URL: names no product */
#define RA_KW_EMAIL       0x10   /* "@": needs a whole address */
#define RA_KW_DOMAIN      0x20   /* ".com": needs a host name before it */
#define RA_KW_NEXT        0x40   /* names no product: the next token does */
#define RA_KW_DIGIT       0x80   /* a digit must follow */

#define RA_MAX_HITS       16
#define RA_MAX_NEUTRAL    8
#define RA_TOKEN_MAX      64
#define RA_HOST_MAX       253    /* a host name's bytes (ra_url_host()) */

#define RA_NELTS(a)  (sizeof(a) / sizeof((a)[0]))

typedef struct {
    uint16_t  len;
    uint8_t   kind;              /* RA_PAT_* */
    uint8_t   flags;             /* RA_KW_* */
    uint16_t  value;             /* crawler id or keyword index */
    uint16_t  next;              /* next pattern ending at the state, +1 */
} ra_pat_t;

/*
 * Most User-Agents, browsers' and crawlers' alike, start with one of these
 * (a third of crawler-user-agents' with the first): the automata start
 * after it in the state computed once at compile time.  Longest first.
 * A function, so that only the files that read the table hold it.
 */
typedef struct {
    const char  *text;
    size_t       len;
} ra_ua_prefix_t;

#define RA_NPREFIX  2

static inline const ra_ua_prefix_t *
ra_ua_prefix(size_t k)
{
    static const ra_ua_prefix_t  prefix[RA_NPREFIX] = {
        { "Mozilla/5.0 (compatible; ", 25 },
        { "Mozilla/5.0 (", 13 },
    };

    return &prefix[k];
}

/* "Mozilla/5.0 (" not followed by "compatible; ": mostly browsers */
#define RA_PRE_BROWSER  1
#define RA_PRE_HIT  ((size_t) -1)

/*
 * A full DFA over byte classes, one row per state: ncls transitions, then
 * the first pattern ending at the state (+1) and the nearest suffix state
 * where a pattern ends (0: none).  A state is named by its row's offset,
 * so that a byte costs one load and no arithmetic on the chain of loads:
 *
 *   t16  (up to RA_AC_T16_MAX bytes: the built-in table takes 400 KB)
 *        16-bit entries, rows a multiple of 8 bytes, a state is its row's
 *        offset in 8-byte units, which an x86-64 load scales by itself;
 *   t32  (larger tables, from big operators' files) 32-bit entries, a
 *        state is its row's offset in entries; one chain, no lanes.
 *
 * The states where some pattern ends are numbered last: "s >= hit" tells
 * them without a table load.
 */
typedef struct {
    uint8_t             cls[256];
    size_t              ncls;
    size_t              width;      /* entries per row */
    size_t              nstates;
    size_t              hit;
    uint16_t           *t16;
    uint32_t           *t32;
    /* t16 + cls[byte]: loaded, not computed, it keeps the compiler from
     * adding the class to the state on the chain of loads */
    const uint16_t     *col[256];
    /* the state after each of ra_ua_prefix(); RA_PRE_HIT when a pattern
     * ends within it: the scan cannot skip it */
    size_t              pre[RA_NPREFIX];
} ra_ac_t;

/* 16-bit entries name 8-byte units: 64 Ki of them */
#define RA_AC_T16_MAX     (65536u * 8)

typedef struct ra_crawlers_src_s  ra_crawlers_src_t;

/* A library entry's piece: its crawler's index and the piece's */
typedef struct {
    uint16_t  crawler;
    uint16_t  ua;
} ra_lib_piece_t;

struct ra_crawlers_src_s {
    ra_crawlers_src_t  *next;
    ra_crawler_t       *entries;
    size_t              n;
};

struct ra_crawlers_s {
    const ra_alloc_t   *alloc;
    ra_crawlers_src_t  *first;
    ra_crawlers_src_t  *last;
    size_t              nentries;   /* over all sources, before merging */
    unsigned            compiled:1;

    ra_crawler_t       *crawlers;
    size_t              n;

    ra_ac_t             ac;         /* pieces, generic, neutral words */
    ra_ac_t             plat;       /* platform words */
    ra_pat_t           *pats;
    size_t              npats;

    /* the pieces of the library entries (RA_CRAWLER_LIBRARY): not in
     * the automaton, but compared with the first product of a User-Agent
     * found generic.  Bucketed by their first byte in lower case, so that
     * a product is compared with the few pieces that start as it does:
     * those of byte c are lib_pieces[lib_at[c]] to lib_pieces[lib_at[c +
     * 1]], in the table's order. */
    ra_lib_piece_t     *lib_pieces;
    uint32_t            lib_at[257];
    size_t              nlibs;      /* pieces */
};

/* An entry that drops its name: the loader reads it, compiling applies
 * it. */
#define RA_FLAG_DISABLED  0x100

#define ra_isalnum(c)  (ra_isalpha(c) || ra_isdigit(c))
#define ra_ishost(c)   (ra_isalnum(c) || (c) == '.' || (c) == '-')
#define ra_istok_c(c)  (ra_isalnum(c) || (c) == '.' || (c) == '_'          \
                        || (c) == '-')

/* ra_istok_c() of every byte: identify's scans over product tokens test
 * it for every byte they read, a load is cheaper than five compares */
#define RA_TOK4(c)   ra_istok_c(c), ra_istok_c((c) + 1), ra_istok_c((c) + 2), \
                     ra_istok_c((c) + 3)
#define RA_TOK16(c)  RA_TOK4(c), RA_TOK4((c) + 4), RA_TOK4((c) + 8),          \
                     RA_TOK4((c) + 12)
#define RA_TOK64(c)  RA_TOK16(c), RA_TOK16((c) + 16), RA_TOK16((c) + 32),     \
                     RA_TOK16((c) + 48)

static inline int
ra_istok(unsigned char c)
{
    static const uint8_t  tok[256] = {
        RA_TOK64(0), RA_TOK64(64), RA_TOK64(128), RA_TOK64(192)
    };

    return tok[c];
}

/* A pattern as ra_each_pattern() hands it to the automaton's builder. */
typedef struct {
    ra_str_t  s;
    uint8_t   kind;
    uint8_t   flags;
    uint16_t  value;
} ra_pat_src_t;

typedef int (*ra_pat_fn_t)(ra_crawlers_t *t, const ra_pat_src_t *p,
    void *ctx);

/* What a scan of the main automaton found: the best known crawler, the
 * generic words' starts and the neutral words' spans. */
typedef struct {
    int        best;             /* crawler id, -1 none */
    size_t     best_len;
    unsigned   nhits;
    unsigned   nneutral;
    uint32_t   hit_start[RA_MAX_HITS];
    uint8_t    hit_flags[RA_MAX_HITS];
    uint32_t   n_start[RA_MAX_NEUTRAL];
    uint32_t   n_end[RA_MAX_NEUTRAL];
} ra_scan_t;

/* Entry k (past the transitions) of the row of state s. */
static inline size_t
ra_ac_slot(const ra_ac_t *ac, size_t s, size_t k)
{
    k += ac->ncls;
    return ac->t16 != NULL ? ac->t16[s * 4 + k] : ac->t32[s + k];
}

/* Whether p starts with lit (lower case, n bytes), any case: the
 * core's ra_startswith_ci() walks a NUL-terminated prefix a byte at a
 * time, and identify asks this of nearly every User-Agent. */
static inline int
ra_prefix_ci(const unsigned char *p, size_t len, const char *lit, size_t n)
{
    size_t  i;

    if (len < n) {
        return 0;
    }
    for (i = 0; i < n; i++) {
        if ((unsigned char) (p[i] | 0x20) != (unsigned char) lit[i]
            || !(ra_isalpha(p[i]) || p[i] == (unsigned char) lit[i]))
        {
            return 0;
        }
    }
    return 1;
}

/* Whether the n bytes at p are the word w (wn lower-case bytes), any
 * case. */
static inline int
ra_word_is(const unsigned char *p, size_t n, const char *w, size_t wn)
{
    size_t  i;

    if (n != wn) {
        return 0;
    }
    for (i = 0; i < n; i++) {
        if (ra_lower(p[i]) != (unsigned char) w[i]) {
            return 0;
        }
    }
    return 1;
}

/* ra_crawlers_words.c: the patterns of the automata (the table's pieces,
 * then the vocabularies); whether t is a platform word */
int ra_each_pattern(ra_crawlers_t *t, ra_pat_fn_t fn, void *ctx);
int ra_platform_word(ra_str_t t);

/* ra_crawlers_token.c: a User-Agent's product tokens and comments */
ra_str_t ra_token_at(const unsigned char *p, size_t len, size_t at);
ra_str_t ra_name_at(const unsigned char *p, size_t len, size_t at);
ra_str_t ra_next_token(const unsigned char *p, size_t len, size_t at);
size_t ra_compatible_at(const unsigned char *p, size_t len);
int ra_word_of(ra_str_t t, const char *const *words, const uint8_t *len_at,
    size_t n_at);
int ra_compatible_browser(ra_str_t t);

/* ra_crawlers_shape.c: what tells a program from a browser */
int ra_program_shape(const unsigned char *p, size_t len);
int ra_first_compatible(const unsigned char *p, size_t len, int alone,
    ra_str_t *token);
int ra_odd_browser(const unsigned char *p, size_t len, ra_str_t *token);
int ra_browser_suffix_word(const unsigned char *p, size_t n);

/* ra_crawlers_name.c: the name a generic bot goes by */
ra_str_t ra_token_name(ra_str_t t);
ra_str_t ra_own_product(const unsigned char *p, size_t len, ra_str_t tok);
ra_str_t ra_declared_name(const unsigned char *p, size_t len,
    const ra_scan_t *st);
int ra_bare_word(ra_str_t t);
ra_str_t ra_bare_name(const unsigned char *p, size_t len,
    const ra_scan_t *st, ra_str_t tok);

#endif /* RA_CRAWLERS_IMPL_H */
