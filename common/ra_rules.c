/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Compiled robots.txt rule sets.
 *
 * Compilation parses the body twice: once to count, once to fill exactly
 * sized arrays.  Every group gets an index per mode: its patterns sorted by
 * priority, and a byte trie over their literal prefixes (the bytes before
 * the first '*' or final '$').  Matching walks the path down the trie; the
 * patterns hanging on the nodes it passes are the only candidates, and the
 * priority order lets it stop as soon as no candidate can win.
 *
 * A token named in several groups gets a merged index, within a budget
 * (RA_MERGE_BUDGET); past it, its groups' indexes are searched one by one,
 * which gives the same answer more slowly, so that no file can make the
 * rule set grow faster than the file itself.
 */
#define _GNU_SOURCE             /* memmem(): glibc's is linear (two-way) */

#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "ra_pool.h"
#include "ra_rules.h"

#define RA_NONE           UINT32_MAX
/* merged indexes may hold this many pattern references beyond the file's */
#define RA_MERGE_BUDGET(nrules)  (4 * (size_t) (nrules) + 4096)
/* Crawl-delay values are clamped to a day */
#define RA_CRAWL_DELAY_MAX_MS    86400000

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
 * takes.
 */
typedef struct {
    uint16_t         *next;         /* nstates << shift entries */
    const uint8_t    *cls;          /* 256 byte classes */
    const uint16_t   *out;          /* per state: index in outs, 0 none */
    const ra_grams_t *outs;
    uint32_t          shift;        /* log2 of the row width */
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
     * over the budget (then the edges are searched) */
    uint16_t   *ptab;
    uint8_t    *pcls;
    uint32_t    pshift;
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

/* pass state */
typedef struct {
    ra_rules_t  *rs;
    int          fill;
    int32_t      group;
    int          group_has_rule;
    uint32_t     nrules;
    uint32_t     ngroups;
    uint32_t     nua;
    ra_ua_t     *ua;
    int          failed;
} ra_compile_t;

static int ra_index_accel(ra_index_t *ix, uint32_t nnodes, ra_pool_t *pool,
    uint32_t *freq);
static int ra_index_ac(ra_rules_t *rs, int m, ra_index_t *ix);
static int ra_index_ptab(ra_rules_t *rs, int m, ra_index_t *ix,
    size_t nnodes);

static const char  ra_hexdigits[] = "0123456789ABCDEF";


/* ---- normalisation ---------------------------------------------------- */

/* RFC 3986 unreserved: ALPHA DIGIT - . _ ~ */
static int
ra_unreserved(int c)
{
    return ra_isalpha(c) || ra_isdigit(c) || c == '-' || c == '.' || c == '_'
           || c == '~';
}

/* Bytes that never stand raw in a URI: controls, space, non-ASCII and
 * " < > \ ^ ` { | } #.  '%' is handled by the caller. */
static int
ra_uri_unsafe(int c)
{
    return c <= 0x20 || c >= 0x7f || c == '"' || c == '<' || c == '>'
           || c == '\\' || c == '^' || c == '`' || c == '{' || c == '|'
           || c == '}' || c == '#';
}

static unsigned char *
ra_put_escape(unsigned char *d, int c)
{
    *d++ = '%';
    *d++ = (unsigned char) ra_hexdigits[(c >> 4) & 0xf];
    *d++ = (unsigned char) ra_hexdigits[c & 0xf];
    return d;
}

/*
 * google/robotstxt MaybeEscapePattern(): %xx escapes upper-cased, bytes
 * >= 0x80 %-encoded, nothing else touched.  dst holds 3 * len bytes.
 */
static size_t
ra_norm_google(ra_str_t s, unsigned char *dst)
{
    size_t          i;
    unsigned char  *d = dst;

    for (i = 0; i < s.len; i++) {
        if (s.data[i] == '%' && i + 2 < s.len && ra_isxdigit(s.data[i + 1])
            && ra_isxdigit(s.data[i + 2]))
        {
            *d++ = '%';
            *d++ = (unsigned char) ra_upper(s.data[i + 1]);
            *d++ = (unsigned char) ra_upper(s.data[i + 2]);
            i += 2;
        } else if (s.data[i] & 0x80) {
            d = ra_put_escape(d, s.data[i]);
        } else {
            *d++ = s.data[i];
        }
    }
    return (size_t) (d - dst);
}

/* Bytes that ra_norm_rfc() copies as they are in a URL (url == 1): not a
 * '%', not ra_uri_unsafe(), not '*' or '$'.  A path of these alone is its
 * own normal form. */
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

/*
 * ra_rules_path_shape(): 16 bytes a step where the machine has SSE2 (every
 * x86-64 has), else one at a time.  The bytes that are not plain
 * (ra_url_plain) as a few compares: c + 1 below 0x22 as a signed byte is
 * c below 0x21 or from 0x7f, then 0x22-0x25 and 0x7b-0x7d (ranges moved
 * onto the lowest signed bytes), '<' '>' and '\' '^' (each pair one
 * compare of c | 2), '`' and '*'.
 */
#if defined(__SSE2__)
static inline __m128i
ra_shape_bad16(__m128i v)
{
    __m128i  b, o2;

    b = _mm_cmplt_epi8(_mm_add_epi8(v, _mm_set1_epi8(0x01)),
                       _mm_set1_epi8(0x22));
    b = _mm_or_si128(b, _mm_cmplt_epi8(_mm_add_epi8(v, _mm_set1_epi8(0x5e)),
                                       _mm_set1_epi8(-124)));
    b = _mm_or_si128(b, _mm_cmplt_epi8(_mm_add_epi8(v, _mm_set1_epi8(0x05)),
                                       _mm_set1_epi8(-125)));
    o2 = _mm_or_si128(v, _mm_set1_epi8(0x02));
    b = _mm_or_si128(b, _mm_cmpeq_epi8(o2, _mm_set1_epi8(0x3e)));
    b = _mm_or_si128(b, _mm_cmpeq_epi8(o2, _mm_set1_epi8(0x5e)));
    b = _mm_or_si128(b, _mm_cmpeq_epi8(v, _mm_set1_epi8(0x60)));
    return _mm_or_si128(b, _mm_cmpeq_epi8(v, _mm_set1_epi8(0x2a)));
}

/* The "/" followed by '/' or '.' among v's 16 bytes (carry: the byte
 * before them is a '/'), before the first '?' of them; *query set when
 * there is one, *q its place (v's bytes from at). */
static inline unsigned
ra_shape_dots16(__m128i v, unsigned carry, int *query, size_t at,
    size_t *qat)
{
    unsigned  s, sd, q, d;

    s = (unsigned) _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('/')));
    /* '.' 0x2e and '/' 0x2f: c | 1 is '/' */
    sd = (unsigned) _mm_movemask_epi8(
             _mm_cmpeq_epi8(_mm_or_si128(v, _mm_set1_epi8(0x01)),
                            _mm_set1_epi8('/')));
    q = (unsigned) _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('?')));
    d = (s << 1 | carry) & sd;
    if (q) {
        d &= (q & (0u - q)) - 1;
        *query = 1;
        *qat = at + (size_t) __builtin_ctz(q);
    }
    return d;
}
#endif

/* One byte of a path that is not plain (ra_url_plain), at j: 0 unless it
 * is a '%' that starts an escape RFC mode keeps as it is (upper-case hex
 * of a byte not unreserved, "%20", "%2F"); an escape of '/' ("%2F",
 * "%2f") before the first '?' (at q) sets *slash. */
static int
ra_shape_odd(const unsigned char *p, size_t n, size_t j, size_t q,
    unsigned *slash)
{
    int  v;

    if (p[j] != '%' || n - j < 3 || !ra_isxdigit(p[j + 1])
        || !ra_isxdigit(p[j + 2]))
    {
        return 0;
    }
    v = ra_hexval(p[j + 1]) << 4 | ra_hexval(p[j + 2]);
    if (v == '/' && j < q) {
        *slash = 1;
    }
    return !ra_unreserved(v) && ra_upper(p[j + 1]) == p[j + 1]
           && ra_upper(p[j + 2]) == p[j + 2];
}

#if defined(__SSE2__)
/* The bytes of m (v's bytes that are not plain, from at): 1 when each is
 * an escape kept as it is (ra_shape_odd(); q: the first '?' or past it) */
static int __attribute__((noinline))
ra_shape_odd16(const unsigned char *p, size_t n, size_t at, unsigned m,
    size_t q, unsigned *slash)
{
    int  ok = 1;

    for ( /* void */ ; m != 0; m &= m - 1) {
        ok &= ra_shape_odd(p, n, at + (size_t) __builtin_ctz(m), q, slash);
    }
    return ok;
}
#endif

unsigned
ra_rules_path_shape(ra_str_t path)
{
    int                   query, ok;
    size_t                n = path.len, qat;
    unsigned              dots;
    const unsigned char  *p = path.data;

    if (n == 0 || p[0] != '/') {
        return 0;
    }
    query = 0;
    qat = n;                    /* the first '?', once found */
    ok = 1;
    dots = 0;
#if defined(__SSE2__)
    {
        size_t          i, at;
        unsigned        m;
        __m128i         v;
        unsigned char   pad[16];

        if (n < 16) {
            /* the path, then 'a's: plain, and neither '/', '.' nor '?' */
            memset(pad, 'a', sizeof(pad));
            if (n >= 8) {
                memcpy(pad, p, 8);
                memcpy(pad + n - 8, p + n - 8, 8);
            } else if (n >= 4) {
                memcpy(pad, p, 4);
                memcpy(pad + n - 4, p + n - 4, 4);
            } else {
                pad[n / 2] = p[n / 2];
                pad[n - 1] = p[n - 1];
                pad[0] = p[0];
            }
            v = _mm_loadu_si128((const __m128i *) (const void *) pad);
            dots = ra_shape_dots16(v, 0, &query, 0, &qat);
            m = (unsigned) _mm_movemask_epi8(ra_shape_bad16(v));
            if (m) {
                ok = ra_shape_odd16(p, n, 0, m, qat, &dots);
            }
            goto shaped;
        }
        for (i = 0; /* void */ ; i += 16) {
            /* the last step reads the last 16 bytes, some again: what
             * they add was added already */
            at = i + 16 <= n ? i : n - 16;
            v = _mm_loadu_si128((const __m128i *) (const void *) (p + at));
            if (!query) {
                dots |= ra_shape_dots16(v, at && p[at - 1] == '/', &query,
                                        at, &qat);
            }
            /* bytes that are not plain (rare): escapes kept as they are
             * leave the path its own normal form */
            m = (unsigned) _mm_movemask_epi8(ra_shape_bad16(v));
            if (m) {
                ok &= ra_shape_odd16(p, n, at, m, qat, &dots);
            }
            if (at + 16 >= n) {
                break;
            }
        }
    }
#else
    {
        int                   c;
        size_t                i;
        const unsigned char  *qm;

        qm = memchr(p, '?', n);
        if (qm != NULL) {
            query = 1;
            qat = (size_t) (qm - p);
        }
        for (i = 0; i < n; i++) {
            c = p[i];
            if (!ra_url_plain[c]) {
                ok &= ra_shape_odd(p, n, i, qat, &dots);
            }
            if (i < qat && i && p[i - 1] == '/' && (c == '/' || c == '.')) {
                dots = 1;
            }
        }
    }
#endif
#if defined(__SSE2__)
shaped:
#endif
    return (ok ? RA_PATH_PLAIN : 0) | (dots ? 0 : RA_PATH_DOTLESS)
           | (query ? RA_PATH_QUERY : 0);
}

/*
 * RFC 9309 2.2.2 canonical form, for rules (url == 0) and request paths
 * (url == 1): %-escapes of unreserved bytes are decoded, other escapes
 * upper-cased, bytes that may not stand raw in a URI (and a '%' that starts
 * no escape) are encoded.  In a rule '*' and a final '$' keep their
 * meaning and any other '$' is a literal; in a URL both are literals, so
 * they are encoded to meet a rule's %2A / %24.  dst holds 3 * len bytes.
 */
static size_t
ra_norm_rfc(ra_str_t s, unsigned char *dst, int url)
{
    int             c, v;
    size_t          i;
    unsigned char  *d = dst;

    for (i = 0; i < s.len; i++) {
        c = s.data[i];
        if (url && ra_url_plain[c]) {
            *d++ = (unsigned char) c;   /* the else below, at once */
            continue;
        }
        if (c == '%' && i + 2 < s.len && ra_isxdigit(s.data[i + 1])
            && ra_isxdigit(s.data[i + 2]))
        {
            v = ra_hexval(s.data[i + 1]) << 4 | ra_hexval(s.data[i + 2]);
            if (ra_unreserved(v)) {
                *d++ = (unsigned char) v;
            } else {
                d = ra_put_escape(d, v);
            }
            i += 2;
        } else if (c == '%' || ra_uri_unsafe(c)
                   || (url && (c == '*' || c == '$'))
                   || (!url && c == '$' && i + 1 < s.len))
        {
            d = ra_put_escape(d, c);
        } else {
            *d++ = (unsigned char) c;
        }
    }
    return (size_t) (d - dst);
}


/* ---- wildcard matching ------------------------------------------------ */

#define ra_gram(a, b)   ((unsigned) ((a) * 37u + (b) * 11u) & 255u)
#define ra_grams_has(g, bit)  (((g)->w[(bit) >> 6] >> ((bit) & 63)) & 1)

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

/*
 * Does pattern pat match path from byte pos on, as a prefix match ('*'
 * any run, final '$' anchors the end)?  Segments between stars are found
 * greedily, each at its leftmost place after the previous one, which is
 * optimal for star-separated literals; memmem is linear, so the cost is
 * O(path + pattern) whatever the pattern (ra_find(): a search of at most
 * RA_FIND_SHORT bytes costs at most RA_FIND_SHORT^2 compares).
 */
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


/* ---- compilation: pass handler ---------------------------------------- */

static int32_t
ra_parse_crawl_delay(ra_str_t v)
{
    size_t    i = 0;
    uint64_t  ms = 0, frac = 100;

    if (v.len == 0 || !ra_isdigit(v.data[0])) {
        return -1;
    }
    for ( /* void */ ; i < v.len && ra_isdigit(v.data[i]); i++) {
        ms = ms * 10 + (uint64_t) (v.data[i] - '0') * 1000;
        if (ms > RA_CRAWL_DELAY_MAX_MS) {
            ms = RA_CRAWL_DELAY_MAX_MS;
        }
    }
    if (i < v.len && v.data[i] == '.') {
        for (i++; i < v.len && ra_isdigit(v.data[i]); i++) {
            ms += (uint64_t) (v.data[i] - '0') * frac;
            frac /= 10;
        }
    }
    if (i != v.len) {
        return -1;
    }
    return (int32_t) (ms > RA_CRAWL_DELAY_MAX_MS ? RA_CRAWL_DELAY_MAX_MS : ms);
}

static int
ra_index_html_slash(ra_str_t norm, size_t *slash)
{
    size_t  i = norm.len;

    while (i > 0 && norm.data[i - 1] != '/') {
        i--;
    }
    if (i == 0) {
        return 0;
    }
    *slash = i - 1;
    return norm.len - *slash >= 10
           && memcmp(norm.data + *slash, "/index.htm", 10) == 0;
}

static int
ra_compile_rule(ra_compile_t *c, const ra_line_t *ln)
{
    int            m;
    size_t         n, slash;
    ra_rule_t     *r;
    ra_pool_t     *pool = &c->rs->pool;
    unsigned char *buf;

    if (!c->fill) {
        c->nrules++;
        return RA_OK;
    }

    r = &c->rs->rules[c->nrules++];
    r->line = ln->line;
    r->group = (uint32_t) c->group;
    r->type = ln->key == RA_KEY_ALLOW ? RA_RULE_ALLOW : RA_RULE_DISALLOW;
    r->value.len = ln->value.len;
    r->value.data = ra_pool_dup(pool, ln->value.data, ln->value.len);
    if (r->value.data == NULL) {
        return RA_ENOMEM;
    }

    for (m = 0; m < RA_MODES; m++) {
        buf = ra_pool_get(pool, 3 * ln->value.len + 1);
        if (buf == NULL) {
            return RA_ENOMEM;
        }
        n = m == RA_MODE_GOOGLE ? ra_norm_google(ln->value, buf)
                                : ra_norm_rfc(ln->value, buf, 0);
        r->norm[m] = ra_str(buf, n);

        /* Google: "Allow: /d/index.htm..." also allows "/d/" itself. */
        if (r->type == RA_RULE_ALLOW
            && ra_index_html_slash(r->norm[m], &slash))
        {
            buf = ra_pool_get(pool, slash + 2);
            if (buf == NULL) {
                return RA_ENOMEM;
            }
            memcpy(buf, r->norm[m].data, slash + 1);
            buf[slash + 1] = '$';
            r->index_html[m] = ra_str(buf, slash + 2);
        }
    }

    c->rs->groups[c->group].nrules++;
    return RA_OK;
}

static int
ra_compile_line(void *ctx, const ra_line_t *ln)
{
    ra_compile_t  *c = ctx;
    ra_group_t    *g;
    ra_str_t       tok;
    unsigned char *low;
    size_t         i;

    /* A line the 500 KiB limit cut is not a rule anyone wrote: kept, a
     * cut "Disallow: /private" would read as "Disallow: /" and close the
     * whole site.  Lint reports it; the rules ignore it. */
    if (ln->kind != RA_LINE_DIRECTIVE || (ln->flags & RA_LF_SIZE_CUT)) {
        return RA_OK;
    }

    switch (ln->key) {

    case RA_KEY_USER_AGENT:
        /* a user-agent line after a rule starts a new group */
        if (c->group < 0 || c->group_has_rule) {
            c->group = (int32_t) c->ngroups++;
            c->group_has_rule = 0;
            if (c->fill) {
                g = &c->rs->groups[c->group];
                g->first_rule = c->nrules;
                g->line = ln->line;
                g->crawl_delay_ms = -1;
            }
        }
        if (ra_ua_is_global(ln->value)) {
            if (c->fill) {
                c->rs->groups[c->group].global = 1;
            }
            return RA_OK;
        }
        if (c->fill) {
            tok = ra_ua_token(ln->value);
            low = ra_pool_get(&c->rs->pool, tok.len);
            if (low == NULL) {
                return RA_ENOMEM;
            }
            for (i = 0; i < tok.len; i++) {
                low[i] = (unsigned char) ra_lower(tok.data[i]);
            }
            c->ua[c->nua].token = ra_str(low, tok.len);
            c->ua[c->nua].group = (uint32_t) c->group;
        }
        c->nua++;
        return RA_OK;

    case RA_KEY_ALLOW:
    case RA_KEY_DISALLOW:
        if (c->group < 0) {
            return RA_OK;           /* RFC 9309 2.2.2: outside any group */
        }
        c->group_has_rule = 1;
        return ra_compile_rule(c, ln);

    case RA_KEY_SITEMAP:
        if (c->fill) {
            c->rs->sitemaps++;
        }
        return RA_OK;

    default:
        /* Crawl-delay: not Google's, but the auditor needs it per group */
        if (c->fill && c->group >= 0
            && ra_strcaseeq(ln->key_text, (ra_str_t) ra_string("crawl-delay")))
        {
            g = &c->rs->groups[c->group];
            if (g->crawl_delay_ms < 0) {
                g->crawl_delay_ms = ra_parse_crawl_delay(ln->value);
            }
        }
        return RA_OK;
    }
}


/* ---- compilation: indexes --------------------------------------------- */

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

static void
ra_pat_set(ra_pat_t *p, ra_str_t pat, uint32_t rule, ra_rule_type_e type)
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
 * Builds the index of mode m over the rules of groups[0..ngroups).  Node
 * children come out sorted because patterns are inserted in literal order,
 * so insertion only ever looks at a node's newest child.
 */
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

static int
ra_index_build(ra_rules_t *rs, int m, const uint32_t *groups, size_t ngroups,
    ra_index_t *ix)
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
                ra_pat_set(p, rule->norm[m], (uint32_t) k, rule->type);
                nbytes += p->lit;
            }
            if (rule->index_html[m].len) {
                p = &ix->pats[ix->npats++];
                ra_pat_set(p, rule->index_html[m], (uint32_t) k, rule->type);
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
/* bytes of tables (automata, trie tables) a rule set may hold for each
 * mode: in proportion to its rules' bytes, with a floor, never more than
 * 1 MiB; past it, indexes keep byte pairs and edge lists (same answers) */
#define RA_AC_BUDGET_MIN        (128 * 1024)
#define RA_AC_BUDGET_PER_BYTE   64
#define RA_AC_BUDGET_MAX        (1024 * 1024)

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
    if (entries * sizeof(uint16_t) + 256 + sizeof(ra_ac_t)
        + (segbytes + 1) * (sizeof(uint16_t) + sizeof(ra_grams_t))
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

    /* outputs, and the table as row offsets */
    nout = 1;
    for (s = 0; s < nstates; s++) {
        nout += (acc[s].w[0] | acc[s].w[1] | acc[s].w[2] | acc[s].w[3]) != 0;
    }
    ac = ra_pool_get(&rs->pool, sizeof(ra_ac_t));
    out = ra_pool_calloc(&rs->pool, nstates, sizeof(uint16_t));
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
        if (acc[s].w[0] | acc[s].w[1] | acc[s].w[2] | acc[s].w[3]) {
            outs[nout] = acc[s];
            out[s] = (uint16_t) nout++;
        }
    }
    for (i = 0; i < ((size_t) nstates << shift); i++) {
        ac->next[i] = (uint16_t) (next[i] << shift);
    }
    ac->cls = cls;
    ac->out = out;
    ac->outs = outs;
    ac->shift = shift;
    ix->ac = ac;
    rs->ac_budget[m] -= ((size_t) nstates << shift) * sizeof(uint16_t) + 256
                     + sizeof(ra_ac_t) + nstates * sizeof(uint16_t)
                     + nout * sizeof(ra_grams_t);
    rc = RA_OK;

done:
    ra_free(a, next);
    ra_free(a, fail);
    ra_free(a, queue);
    ra_free(a, segid);
    ra_free(a, acc);
    return rc;
}

/*
 * The trie as one table over the classes of its bytes, within the budget:
 * the walk then costs one lookup a byte.  An entry is the child's number
 * (0: none; the root is no child), its top bit set when the child has
 * candidates.
 */
#define RA_PTAB_NODE  0x7fffu
#define RA_PTAB_PATS  0x8000u
#define RA_PTAB_MIN   16        /* nodes worth a table */

static int
ra_index_ptab(ra_rules_t *rs, int m, ra_index_t *ix, size_t nnodes)
{
    size_t         k, i, bytes;
    uint32_t       c, ncls, shift;
    uint8_t       *cls;
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
    for (shift = 0; ((uint32_t) 1 << shift) < ncls; shift++) { /* void */ }
    bytes = (nnodes << shift) * sizeof(uint16_t) + 256;
    if (bytes > rs->ac_budget[m]) {
        return RA_OK;
    }
    cls = ra_pool_calloc(&rs->pool, 256, 1);
    tab = ra_pool_calloc(&rs->pool, nnodes << shift, sizeof(uint16_t));
    if (cls == NULL || tab == NULL) {
        return RA_ENOMEM;
    }
    ncls = 1;                           /* class 0: no child */
    for (c = 0; c < 256; c++) {
        if (used[c]) {
            cls[c] = (uint8_t) ncls++;
        }
    }
    for (k = 0; k < nnodes; k++) {
        e = &ix->edges[ix->nodes[k].edges];
        for (i = 0; i < ix->nodes[k].nedges; i++) {
            tab[(k << shift) + cls[e[i].byte]]
                = (uint16_t) (e[i].node
                              | (ix->nodes[e[i].node].npats ? RA_PTAB_PATS
                                                            : 0));
        }
    }
    ix->ptab = tab;
    ix->pcls = cls;
    ix->pshift = shift;
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
            rc = ra_index_build(rs, m, groups, n, &rs->index[m][id]);
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

static int
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
            rc = ra_index_build(rs, (int) k, &i, 1, &rs->index[k][i]);
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

int
ra_rules_compile(ra_str_t body, const ra_alloc_t *a, ra_rules_t **out,
    ra_parse_info_t *info)
{
    int           rc;
    ra_pool_t     pool;
    ra_rules_t   *rs;
    ra_compile_t  c;

    *out = NULL;
    ra_pool_init(&pool, a);
    rs = ra_pool_calloc(&pool, 1, sizeof(ra_rules_t));
    if (rs == NULL) {
        return RA_ENOMEM;
    }
    rs->pool = pool;

    memset(&c, 0, sizeof(c));
    c.rs = rs;
    c.group = -1;
    (void) ra_parse(body, ra_compile_line, &c, info);

    rs->nrules = c.nrules;
    rs->ngroups = c.ngroups;
    rs->rules = ra_pool_calloc(&rs->pool, c.nrules + 1, sizeof(ra_rule_t));
    rs->groups = ra_pool_calloc(&rs->pool, c.ngroups + 1, sizeof(ra_group_t));
    c.ua = ra_pool_calloc(&rs->pool, c.nua + 1, sizeof(ra_ua_t));
    if (!rs->rules || !rs->groups || !c.ua) {
        rc = RA_ENOMEM;
        goto failed;
    }

    c.fill = 1;
    c.group = -1;
    c.group_has_rule = 0;
    c.nrules = c.ngroups = c.nua = 0;
    rc = ra_parse(body, ra_compile_line, &c, NULL);
    if (rc != RA_OK) {
        goto failed;
    }

    rc = ra_rules_link(rs, c.ua, c.nua);
    if (rc != RA_OK) {
        goto failed;
    }

    *out = rs;
    return RA_OK;

failed:
    pool = rs->pool;
    ra_pool_release(&pool);
    return rc;
}

int
ra_rules_empty(const ra_alloc_t *a, ra_rules_t **out)
{
    return ra_rules_compile(ra_str("", 0), a, out, NULL);
}

void
ra_rules_free(ra_rules_t *rs)
{
    ra_pool_t  pool;

    if (rs != NULL) {
        pool = rs->pool;
        ra_pool_release(&pool);
    }
}

size_t
ra_rules_bytes(const ra_rules_t *rs)
{
    return rs->pool.total;
}

void
ra_rules_stats(const ra_rules_t *rs, ra_rules_stats_t *st)
{
    st->groups = rs->ngroups;
    st->rules = rs->nrules;
    st->agents = rs->ntoks;
    st->sitemaps = rs->sitemaps;
    st->has_global = rs->global_set != RA_NONE;
}


/* ---- matching --------------------------------------------------------- */

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
    uint32_t              e, shift;
    ra_grams_t            g;
    const uint16_t       *next;
    const uint8_t        *cls;
    const uint16_t       *out;
    const ra_grams_t     *outs, *o;
    const ra_ac_t        *ac;
    const unsigned char  *p;

    ac = sj->pairs ? NULL : ix->ac;
    if (sj->have_grams && sj->grams_ac == ac) {
        return;
    }
    memset(&sj->grams, 0, sizeof(sj->grams));
    sj->have_grams = 1;
    sj->grams_ac = ac;
    if (ac == NULL) {
        ra_grams_add(&sj->grams, sj->path, sj->plen);
        return;
    }
    next = ix->ac->next;
    cls = ix->ac->cls;
    shift = ix->ac->shift;
    out = ix->ac->out;
    outs = ix->ac->outs;
    p = sj->path;
    n = sj->plen;

    /* branch-free: out[] of a state without segments is 0, an empty set */
    e = 0;
    g = sj->grams;
    for (i = 0; i < n; i++) {
        e = next[e + cls[p[i]]];
        o = &outs[out[e >> shift]];
        g.w[0] |= o->w[0];
        g.w[1] |= o->w[1];
        g.w[2] |= o->w[2];
        g.w[3] |= o->w[3];
    }
    sj->grams = g;
}

/* Candidate i of a node: returns 0 when nothing after it can win. */
static int
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
        if (!ra_wild(sj->path, sj->plen, depth, p->pat + p->lit,
                     p->len - p->lit))
        {
            return 1;
        }
    } else if (!p->simple) {
        ra_grams_of(ix, sj);
        need = &p->need;
        if (sj->pairs && ix->ac != NULL) {
            ra_pat_pairs(p, &pairs);        /* need holds segments */
            need = &pairs;
        }
        if (ra_grams_lack(&sj->grams, need)
            || !ra_wild(sj->path, sj->plen, depth, p->pat + p->lit,
                        p->len - p->lit))
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

    ra_grams_of(ix, sj);
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
/* Keeps a node with candidates of the walk; a very deep walk searches its
 * shallowest node now. */
static void
ra_walk_push(const ra_index_t *ix, ra_subject_t *sj, ra_best_t *best,
    uint32_t *walk, size_t *n, uint32_t node)
{
    const ra_node_t  *nd;

    if (*n == RA_WALK_MAX) {
        nd = &ix->nodes[walk[0]];
        ra_node_match(ix, nd, ix->pats[ix->node_pats[nd->pats]].lit, sj,
                      best);
        memmove(walk, walk + 1, (RA_WALK_MAX - 1) * sizeof(walk[0]));
        (*n)--;
    }
    walk[(*n)++] = node;
}

/*
 * The walk down the trie's table and the automaton's pass over the whole
 * path in one loop: two chains of dependent lookups that overlap, where
 * one after the other each would wait on its own.
 */
static void
ra_walk_scan(const ra_index_t *ix, ra_subject_t *sj, ra_best_t *best,
    uint32_t *walk, size_t *n)
{
    int                   walking = 1;
    size_t                i;
    uint32_t              e, t, node = 0, shift = ix->pshift;
    uint32_t              ashift = ix->ac->shift;
    ra_grams_t            g;
    const uint16_t       *pt = ix->ptab, *out = ix->ac->out;
    const uint8_t        *pc = ix->pcls, *cls = ix->ac->cls;
    const uint16_t       *next = ix->ac->next;
    const ra_grams_t     *outs = ix->ac->outs, *o;
    const unsigned char  *path = sj->path;

    memset(&g, 0, sizeof(g));
    e = 0;
    for (i = 0; i < sj->plen; i++) {
        e = next[e + cls[path[i]]];
        o = &outs[out[e >> ashift]];
        g.w[0] |= o->w[0];
        g.w[1] |= o->w[1];
        g.w[2] |= o->w[2];
        g.w[3] |= o->w[3];
        if (walking) {
            t = pt[(node << shift) + pc[path[i]]];
            if (t == 0) {
                walking = 0;
            } else {
                node = t & RA_PTAB_NODE;
                if (t & RA_PTAB_PATS) {
                    /* (a very deep walk may search a node before the
                     * pass ends: it then makes its own, the same) */
                    ra_walk_push(ix, sj, best, walk, n, node);
                }
            }
        }
    }
    sj->grams = g;
    sj->have_grams = 1;
    sj->grams_ac = ix->ac;
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

static void
ra_index_match(const ra_index_t *ix, ra_subject_t *sj, ra_best_t *best)
{
    const unsigned char  *path = sj->path;
    size_t                plen = sj->plen;
    size_t            depth, n;
    uint32_t          node, i, lo, hi, mid, ne, shift, t;
    uint32_t          walk[RA_WALK_MAX];
    const uint16_t   *pt;
    const uint8_t    *pc;
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
        pc = ix->pcls;
        shift = ix->pshift;
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
            t = pt[(node << shift) + pc[path[depth]]];
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

/* bytes that end a URL's scheme or authority: 1 '/', '?', ';'; 2 ':' */
static const unsigned char  ra_url_stop[256] = {
    ['/'] = 1, ['?'] = 1, [';'] = 1, [':'] = 2
};

ra_str_t
ra_url_path(ra_str_t url)
{
    size_t                start, i, path, n = url.len;
    const unsigned char  *u = url.data, *hash;
    static const unsigned char  slash[] = "/";

    start = (n >= 2 && u[0] == '/' && u[1] == '/') ? 2 : 0;

    /* "://" counts only before the first '/', '?' or ';' */
    path = start;
    for (i = start; i < n; i++) {
        if (ra_url_stop[u[i]] == 1) {
            break;
        }
        if (ra_url_stop[u[i]] == 2 && i + 2 < n && u[i + 1] == '/'
            && u[i + 2] == '/')
        {
            path = i + 3;
            break;
        }
    }

    for (i = path; i < n && ra_url_stop[u[i]] != 1; i++) { /* void */ }
    if (i == n) {
        return ra_str(slash, 1);
    }
    path = i;

    /* the fragment: from the first '#' on, wherever it is */
    hash = n > start ? memchr(u + start, '#', n - start) : NULL;
    if (hash == NULL) {
        return ra_str(u + path, n - path);
    }
    if ((size_t) (hash - u) < path) {
        return ra_str(slash, 1);
    }
    return ra_str(u + path, (size_t) (hash - u) - path);
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
        plen += ra_norm_rfc(ra_str(path.data + plain, path.len - plain),
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
