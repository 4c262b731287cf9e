/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The request path as robots.txt rules see it, and the normal forms in
 * which rules and paths are compared.  ra_url_path() cuts the part of a
 * URL that the rules see; ra_rules_path_shape() reads once what a path
 * holds; Google's normalisation of a rule and RFC 9309's of a rule or a
 * path turn %-escapes, bytes >= 0x80 and bytes that may not stand raw in
 * a URI into the one form that the matcher compares byte for byte.
 */
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "ra_rules_impl.h"

static const char  ra_hexdigits[] = "0123456789ABCDEF";

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
size_t
ra_rules_norm_google(ra_str_t s, unsigned char *dst)
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
size_t
ra_rules_norm_rfc(ra_str_t s, unsigned char *dst, int url)
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
