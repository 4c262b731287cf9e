/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The request target as a server module reads it (ra_http.h): its path,
 * that path's canonical form, and what kind of request it is (robots.txt,
 * llms.txt, a server's own page); which answer statuses say something
 * about the file; and the arguments of a query string.  The capture of the
 * answer is ra_capture.c's, the site names ra_sitenames.c's.
 */
#include <string.h>

#include "ra_http.h"
#include "ra_parse.h"
#include "ra_rules.h"

static const ra_str_t  ra_robots_path = ra_string("/robots.txt");


ra_str_t
ra_http_target_path(ra_str_t target)
{
    const unsigned char  *hash;

    if (target.len && target.data[0] == '/') {
        hash = memchr(target.data, '#', target.len);
        if (hash != NULL) {
            target.len = (size_t) (hash - target.data);
        }
        return target;
    }
    return ra_url_path(target);
}



/* ---- canonical paths --------------------------------------------------- */

typedef enum {
    RA_SEG_EMPTY = 0,           /* "" between two slashes: merged */
    RA_SEG_DOT,                 /* "." */
    RA_SEG_DOTDOT,              /* ".." */
    RA_SEG_NAME
} ra_seg_e;

/* RFC 3986 unreserved: ALPHA DIGIT - . _ ~ */
#define ra_canon_unreserved(c)                                              \
    (ra_isalpha(c) || ra_isdigit(c) || (c) == '-' || (c) == '.'             \
     || (c) == '_' || (c) == '~')

/*
 * Reads one segment of a path (without its query) from *pp to the next
 * separator, a raw '/' or a %2F, and past it: its bytes with the escapes
 * of unreserved bytes decoded go to dst (the first cap of them; *len
 * counts all).  *sep says whether a separator ended it (else the path
 * did).  Escapes that are kept are copied as they are.
 */
static ra_seg_e
ra_canon_segment(const unsigned char **pp, const unsigned char *end,
    unsigned char *dst, size_t cap, size_t *len, int *sep, unsigned *flags)
{
    int                   c, v;
    size_t                n;
    unsigned char         first[2];
    const unsigned char  *p = *pp;

    n = 0;
    *sep = 0;
    while (p < end) {
        c = *p;
        if (c == '/') {
            p++;
            *sep = 1;
            break;
        }
        if (c == '%') {
            if (end - p >= 3 && ra_isxdigit(p[1]) && ra_isxdigit(p[2])) {
                v = ra_hexval(p[1]) << 4 | ra_hexval(p[2]);
                if (v == '/') {
                    *flags |= RA_CANON_ENCODED_SLASH;
                    p += 3;
                    *sep = 1;
                    break;
                }
                if (ra_canon_unreserved(v)) {
                    c = v;
                    p += 2;
                }
            } else {
                *flags |= RA_CANON_BAD_ESCAPE;
            }
        }
        p++;
        if (n < 2) {
            first[n] = (unsigned char) c;
        }
        if (n < cap) {
            dst[n] = (unsigned char) c;
        }
        n++;
    }
    *pp = p;
    *len = n;

    if (n == 0) {
        return RA_SEG_EMPTY;
    }
    if (first[0] == '.' && (n == 1 || (n == 2 && first[1] == '.'))) {
        return n == 1 ? RA_SEG_DOT : RA_SEG_DOTDOT;
    }
    return RA_SEG_NAME;
}

/* The path without its query, and without its leading '/'; *query is the
 * query from its '?', or empty. */
static ra_str_t
ra_canon_split(ra_str_t path, ra_str_t *query)
{
    const unsigned char  *q;

    q = path.len ? memchr(path.data, '?', path.len) : NULL;
    *query = ra_str(q, q != NULL ? (size_t) (path.data + path.len - q) : 0);
    if (q != NULL) {
        path.len = (size_t) (q - path.data);
    }
    if (path.len && path.data[0] == '/') {
        path.data++;
        path.len--;
    }
    return path;
}

/* Is a path without its query, after its leading '/', canonical as it
 * stands: no '/' followed by '/' or '.', nor does it start with either,
 * and no '%' but escapes that stay (ra_canon_kept)?  The common case,
 * decided in one tight pass. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define RA_SWAR_ONES  0x0101010101010101ULL
#define RA_SWAR_HIGH  0x8080808080808080ULL

/* The high bit of each zero byte of x: exact for the lowest one; above
 * it a byte 0x01 may be flagged too (the borrow), which
 * ra_canon_plain() shows harmless where it says so. */
static inline uint64_t
ra_swar_zero(uint64_t x)
{
    return (x - RA_SWAR_ONES) & ~x & RA_SWAR_HIGH;
}
#endif

/* Is the '%' at p[j] (of n bytes) an escape that ra_canon_segment() keeps
 * as it is, with no flag: two hex digits, of a byte neither unreserved
 * nor '/' ("%20", "%3F")? */
static int
ra_canon_kept(const unsigned char *p, size_t n, size_t j)
{
    int  v;

    if (n - j < 3 || !ra_isxdigit(p[j + 1]) || !ra_isxdigit(p[j + 2])) {
        return 0;               /* a bad escape: flagged */
    }
    v = ra_hexval(p[j + 1]) << 4 | ra_hexval(p[j + 2]);
    return v != '/' && !ra_canon_unreserved(v);
}

/*
 * Eight bytes a step (w): x = w ^ "////////" is zero at a '/' and 0x01 at
 * a '.', so x without its low bits is zero at either, exactly (no byte
 * of it is 0x01: no borrow goes past a byte).  The flag of each '/' is
 * moved onto the byte after it: a '/' followed by '/' or '.' is found.
 * A '/' flagged too much is a '.' after a run of "/" and "."s that holds
 * a '/' followed by a '.' in that word: found then anyway.  A '%' (a '$'
 * flagged too much sits above a true '%') sends every byte to the byte
 * loop, which reads the escapes.
 */
static inline int
ra_canon_word(uint64_t w, uint64_t *carry)
{
    uint64_t  x, slash;

    x = w ^ 0x2f2f2f2f2f2f2f2fULL;
    slash = ra_swar_zero(x);
    if (((slash << 8) | *carry) & ra_swar_zero(x & 0xfefefefefefefefeULL)) {
        return 0;
    }
    if (ra_swar_zero(w ^ 0x2525252525252525ULL)) {
        return -1;
    }
    *carry = slash >> 56;
    return 1;
}

static int
ra_canon_plain(ra_str_t rest)
{
    size_t                i, n = rest.len;
    const unsigned char  *p = rest.data;

    if (n && (p[0] == '/' || p[0] == '.')) {
        return 0;
    }
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (n >= 8) {
        int       r;
        uint64_t  w, carry = 0;

        for (i = 0; i + 8 <= n; i += 8) {
            memcpy(&w, p + i, 8);
            r = ra_canon_word(w, &carry);
            if (r <= 0) {
                if (r == 0) {
                    return 0;
                }
                goto escapes;
            }
        }
        if (i == n) {
            return 1;
        }
        /* the bytes left: the last eight again, the pair before them
         * with them (what was read again was canonical) */
        memcpy(&w, p + n - 8, 8);
        carry = p[n - 9] == '/';
        r = ra_canon_word(w, &carry);
        if (r >= 0) {
            return r;
        }
    }

escapes:
#endif
    for (i = 0; i < n; i++) {
        if ((p[i] == '%' && !ra_canon_kept(p, n, i))
            || (i && p[i - 1] == '/' && (p[i] == '/' || p[i] == '.')))
        {
            return 0;
        }
    }
    return 1;
}

/*
 * Can the canonical form of a path (rest: without its query, after its
 * leading '/') end with one of the bytes in ends?  Its last segment is
 * the path's last one, decoded, or a dot segment or nothing, which leave
 * a '/': so the path ends with one of those bytes, with '/', '.', or an
 * escape.  A test of its last bytes, before any walk.
 */
static inline int
ra_canon_may_end(ra_str_t rest, const char *ends)
{
    unsigned char  c;

    if (rest.len == 0) {
        return 0;
    }
    c = rest.data[rest.len - 1];
    if (c == '/' || c == '.'
        || (rest.len >= 3 && rest.data[rest.len - 3] == '%'))
    {
        return 1;
    }
    for ( /* void */ ; *ends; ends++) {
        if ((unsigned char) *ends == c) {
            return 1;
        }
    }
    return 0;
}

int
ra_http_canonical(ra_str_t path)
{
    const unsigned char  *q;

    if (path.len == 0 || path.data[0] != '/') {
        return 0;
    }
    /* ra_canon_split() in place */
    q = memchr(path.data, '?', path.len);
    return ra_canon_plain(ra_str(path.data + 1,
                                 (q != NULL ? (size_t) (q - path.data)
                                            : path.len) - 1));
}

size_t
ra_http_canon(ra_str_t path, unsigned char *dst, unsigned *flags)
{
    int                   sep;
    size_t                d, n, seglen;
    unsigned              f;
    ra_str_t              rest, query;
    const unsigned char  *p, *end;

    f = 0;
    rest = ra_canon_split(path, &query);
    if (path.len && path.data[0] == '/' && ra_canon_plain(rest)) {
        memcpy(dst, path.data, path.len);
        if (flags != NULL) {
            *flags = 0;
        }
        return path.len;
    }
    p = rest.data;
    end = rest.data + rest.len;

    /* every segment is written where it stands, then kept or dropped:
     * the output never outgrows what was read, plus a leading '/' */
    d = 0;
    dst[d++] = '/';
    do {
        switch (ra_canon_segment(&p, end, dst + d, rest.len + 1 - d, &seglen,
                                 &sep, &f))
        {
        case RA_SEG_NAME:
            d += seglen;
            if (sep) {
                dst[d++] = '/';
            }
            break;

        case RA_SEG_DOTDOT:
            /* dst ends with '/': drop the segment before it */
            if (d == 1) {
                f |= RA_CANON_ABOVE_ROOT;
                break;
            }
            for (d--; dst[d - 1] != '/'; d--) { /* void */ }
            break;

        default:                /* "", ".": nothing to keep */
            break;
        }
    } while (sep);

    if (query.len) {
        memcpy(dst + d, query.data, query.len);
        d += query.len;
    }

    n = path.len;
    if (d != n || memcmp(dst, path.data, n) != 0) {
        f |= RA_CANON_CHANGED;
    }
    if (flags != NULL) {
        *flags = f;
    }
    return d;
}

/* Is a canonical path, without its leading '/' and before any '?', one
 * of the servers' default pages?  A trailing slash names the same page on
 * both servers. */
static int
ra_http_page_name(ra_str_t rest)
{
    static const ra_str_t  names[] = {
        ra_string("server-status"), ra_string("server-info"),
        ra_string("nginx_status"), ra_string("stub_status")
    };
    size_t  i;

    if (rest.len && rest.data[rest.len - 1] == '/') {
        rest.len--;
    }
    for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        if (rest.len == names[i].len
            && memcmp(rest.data, names[i].data, rest.len) == 0)
        {
            return 1;
        }
    }
    return 0;
}

/* the target's part of ra_http_server_page(): out of line, so that the
 * handler alone (what Apache's glue asks every request) sets up no frame
 * for the canonical path */
static __attribute__((noinline)) int
ra_http_server_path(ra_str_t target)
{
    static const ra_str_t  paths[] = {
        ra_string("/server-status"), ra_string("/server-info"),
        ra_string("/nginx_status"), ra_string("/stub_status")
    };
    size_t         i, n;
    ra_str_t       path, query;
    unsigned char  buf[257];

    target = ra_http_target_path(target);
    path = ra_canon_split(target, &query);
    if (!ra_canon_may_end(path, "so")) {
        return 0;               /* "...-status", "...-info", a '/' */
    }
    if (target.len && target.data[0] == '/' && ra_canon_plain(path)) {
        return ra_http_page_name(path);         /* canonical as it is */
    }
    if (path.len == 0 || path.len >= sizeof(buf)) {
        return 0;
    }
    n = ra_http_canon(path, buf, NULL);
    /* a trailing slash names the same page on both servers */
    if (n > 1 && buf[n - 1] == '/') {
        n--;
    }
    for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
        if (n == paths[i].len && memcmp(buf, paths[i].data, n) == 0) {
            return 1;
        }
    }
    return 0;
}

/* the handlers of the servers' own pages, 11 to 19 bytes long */
#define RA_PAGE_HANDLER_MIN  11
#define RA_PAGE_HANDLER_MAX  19

static __attribute__((noinline)) int
ra_http_page_handler(ra_str_t handler)
{
    static const ra_str_t  handlers[] = {
        ra_string("server-status"), ra_string("server-info"),
        ra_string("robots-audit-status")
    };
    size_t  i;

    for (i = 0; i < sizeof(handlers) / sizeof(handlers[0]); i++) {
        if (handler.len == handlers[i].len
            && memcmp(handler.data, handlers[i].data, handler.len) == 0)
        {
            return 1;
        }
    }
    return 0;
}

int
ra_http_server_page(ra_str_t target, ra_str_t handler, int own)
{
    /* most handlers (a content type, default-handler) are no such length:
     * no call */
    if (own
        || (handler.len >= RA_PAGE_HANDLER_MIN
            && handler.len <= RA_PAGE_HANDLER_MAX
            && ra_http_page_handler(handler)))
    {
        return 1;
    }
    if (target.len == 0) {
        return 0;               /* the handler alone (Apache's glue): "/" */
    }
    return ra_http_server_path(target);
}

/* Whether target's canonical path is "/" name (name: at most 16 bytes). */
static int
ra_http_is_root_file(ra_str_t target, ra_str_t name)
{
    int                   sep, named;
    size_t                depth, seglen;
    unsigned              f;
    ra_seg_e              seg;
    ra_str_t              rest, query;
    unsigned char         buf[16];
    const unsigned char  *p, *end;

    /*
     * ra_http_canon()'s walk without its output: the canonical path is
     * "/name" when the last segment is that name and the ".."
     * before it removed every other name (one left on the stack)
     */
    target = ra_http_target_path(target);
    rest = ra_canon_split(target, &query);
    /* the last segment must read name: its last byte is name's or ends
     * an escape (a path ending in '/' or '.' ends in no name) */
    if (name.len == 0 || rest.len == 0
        || (rest.data[rest.len - 1] != name.data[name.len - 1]
            && !(rest.len >= 3 && rest.data[rest.len - 3] == '%')))
    {
        return 0;
    }
    if (target.len && target.data[0] == '/' && ra_canon_plain(rest)) {
        return rest.len == name.len
               && memcmp(rest.data, name.data, rest.len) == 0;
    }
    p = rest.data;
    end = rest.data + rest.len;
    f = 0;
    depth = 0;
    named = 0;
    do {
        seg = ra_canon_segment(&p, end, buf, sizeof(buf), &seglen, &sep, &f);
        switch (seg) {
        case RA_SEG_NAME:
            depth++;
            named = seglen == name.len
                    && memcmp(buf, name.data, name.len) == 0;
            break;
        case RA_SEG_DOTDOT:
            if (depth == 0) {
                f |= RA_CANON_ABOVE_ROOT;
            } else {
                depth--;
            }
            break;
        default:
            break;
        }
    } while (sep);

    return seg == RA_SEG_NAME && named && depth == 1
           && !(f & (RA_CANON_ABOVE_ROOT | RA_CANON_ENCODED_SLASH
                     | RA_CANON_BAD_ESCAPE));
}

/*
 * The kind of a target decided from its last segment, where that is
 * enough (what nearly every request is): 1 with *kind set, 0 when the
 * walks must say (ra_http_kind_walk()).
 *
 * The three answers need the canonical path to be "/" name (robots.txt,
 * llms.txt, llms-full.txt, a server page) or, for a server page, that
 * and one '/'.  The canonical path's last name segment is the raw path's
 * last one when that holds no '%' and is no dot segment: ".." and "."
 * only drop what stands before them, and slashes after it only merge.
 * So a path whose last segment (past its trailing slashes) has no '%',
 * is neither "." nor "..", and is none of the names, has kind 0; one
 * that is exactly a name, with nothing before it, has that name's kind;
 * everything else (a name after other segments, an escape, a dot
 * segment, several trailing slashes) is walked.  A name is 8 to 13
 * bytes: a shorter path holds none however it is spelt, and a last
 * segment ending in 16 bytes without '%' or '/' reads none either (a %2F
 * before them may end with two of them).
 */
#define RA_KIND_NAME_MIN  8
#define RA_KIND_NAME_MAX  13

/* the last byte of a name: 't' (robots.txt, llms.txt, llms-full.txt),
 * 's' (server-status, nginx_status, stub_status), 'o' (server-info);
 * '.' and '%' may end a dot segment or an escape (walked) */
static const unsigned char  ra_kind_last[256] = {
    ['t'] = 1, ['s'] = 1, ['o'] = 1, ['.'] = 2, ['%'] = 2
};

/* The kind fast paths' answer: the target's kind (RA_TARGET_*), or
 * RA_KIND_WALK: escapes, dot segments or doubled slashes to walk (a
 * return value, not an out parameter: no frame for the usual target) */
#define RA_KIND_WALK  (-1)

/* the last segment of p[0, e) (n: the path's length, e: less its
 * trailing slashes) when it ends like a name: out of line, so that what
 * nearly every target takes (ra_http_kind_fast()) keeps no registers */
static __attribute__((noinline)) int
ra_http_kind_name(const unsigned char *p, size_t e, size_t n)
{
    static const struct {
        ra_str_t  name;
        unsigned  kind;
    } names[] = {
        { ra_string("robots.txt"), RA_TARGET_ROBOTS },
        { ra_string("llms.txt"), RA_TARGET_LLMS },
        { ra_string("llms-full.txt"), RA_TARGET_LLMS },
        { ra_string("server-status"), RA_TARGET_SERVER_PAGE },
        { ra_string("server-info"), RA_TARGET_SERVER_PAGE },
        { ra_string("nginx_status"), RA_TARGET_SERVER_PAGE },
        { ra_string("stub_status"), RA_TARGET_SERVER_PAGE },
    };
    size_t  i, k, seg;

    /* the last segment, back to its '/': a '%' in it is walked */
    for (i = e; i > 0 && p[i - 1] != '/'; i--) {
        if (p[i - 1] == '%') {
            return RA_KIND_WALK;
        }
        if (e - i >= RA_KIND_NAME_MAX + 2) {
            /* 16 bytes without '%' or '/': at most two of them end a
             * %2F, the others are longer than any name */
            return 0;
        }
    }
    seg = e - i;
    for (k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
        if (seg == names[k].name.len
            && memcmp(p + i, names[k].name.data, seg) == 0)
        {
            break;
        }
    }
    if (k == sizeof(names) / sizeof(names[0])) {
        return 0;               /* no name, no dot segment */
    }
    if (i != 0 || n - e > 1) {
        return RA_KIND_WALK;    /* segments before it, or "//" after */
    }
    /* "name" or "name/": a trailing slash names the same server page,
     * and no file */
    if (n == e || names[k].kind == RA_TARGET_SERVER_PAGE) {
        return (int) names[k].kind;
    }
    return 0;
}

/* Another form than origin-form: the path before any '?' and '#' (out of
 * line: its query's address is taken) */
static __attribute__((noinline)) ra_str_t
ra_http_kind_path(ra_str_t target)
{
    ra_str_t  query;

    return ra_canon_split(ra_http_target_path(target), &query);
}

/* plain: the target has no '?' and no '#' (ra_http_path_kind()) */
static inline int __attribute__((always_inline))
ra_http_kind_fast(ra_str_t target, int plain)
{
    size_t                e, n;
    ra_str_t              rest;
    const unsigned char  *p, *h;

    p = target.data;
    n = target.len;
    if (n && p[0] == '/') {
        /* origin-form, what servers are sent: the path before any '?'
         * and '#' (ra_http_target_path() and ra_canon_split() in one) */
        if (!plain) {
            h = memchr(p, '?', n);
            if (h != NULL) {
                n = (size_t) (h - p);
            }
            h = memchr(p, '#', n);
            if (h != NULL) {
                n = (size_t) (h - p);
            }
        }
        p++;
        n--;
    } else {
        rest = ra_http_kind_path(target);
        p = rest.data;
        n = rest.len;
    }
    for (e = n; e && p[e - 1] == '/'; e--) { /* void */ }
    if (e < RA_KIND_NAME_MIN) {
        return 0;               /* no name fits, however it is spelt */
    }
    /* its last two bytes as they read: an escape may end at either */
    switch (ra_kind_last[p[e - 1]]) {
    case 0:
        if (p[e - 3] != '%') {
            return 0;
        }
        return RA_KIND_WALK;
    case 2:
        return RA_KIND_WALK;
    default:
        break;
    }
    if (p[e - 3] == '%' || p[e - 4] == '%') {
        return RA_KIND_WALK;
    }
    /* "xt", "us", "fo": ".js", ".css", ".ico" stop here */
    if (!((p[e - 2] == 'x' && p[e - 1] == 't')
          || (p[e - 2] == 'u' && p[e - 1] == 's')
          || (p[e - 2] == 'f' && p[e - 1] == 'o')))
    {
        return 0;
    }
    return ra_http_kind_name(p, e, n);
}

int
ra_http_is_robots(ra_str_t target)
{
    int  kind = ra_http_kind_fast(target, 0);

    if (kind != RA_KIND_WALK) {
        return (kind & RA_TARGET_ROBOTS) != 0;
    }
    return ra_http_is_root_file(target, ra_str(ra_robots_path.data + 1,
                                               ra_robots_path.len - 1));
}

int
ra_http_is_llms(ra_str_t target)
{
    int  kind = ra_http_kind_fast(target, 0);

    if (kind != RA_KIND_WALK) {
        return (kind & RA_TARGET_LLMS) != 0;
    }
    return ra_http_is_root_file(target, ra_str("llms.txt", 8))
           || ra_http_is_root_file(target, ra_str("llms-full.txt", 13));
}

unsigned
ra_http_target_kind_walk(ra_str_t target)
{
    unsigned  kind = 0;

    if (ra_http_is_root_file(target, ra_str(ra_robots_path.data + 1,
                                            ra_robots_path.len - 1)))
    {
        kind |= RA_TARGET_ROBOTS;
    }
    if (ra_http_is_root_file(target, ra_str("llms.txt", 8))
        || ra_http_is_root_file(target, ra_str("llms-full.txt", 13)))
    {
        kind |= RA_TARGET_LLMS;
    }
    if (ra_http_server_page(target, ra_str("", 0), 0)) {
        kind |= RA_TARGET_SERVER_PAGE;
    }
    return kind;
}

unsigned
ra_http_target_kind(ra_str_t target)
{
    int  kind = ra_http_kind_fast(target, 0);

    if (kind != RA_KIND_WALK) {
        return (unsigned) kind;
    }
    /* escapes, dot segments, doubled slashes: each walk on its own */
    return ra_http_target_kind_walk(target);
}

unsigned
ra_http_path_kind(ra_str_t path)
{
    int  kind = ra_http_kind_fast(path, 1);

    if (kind != RA_KIND_WALK) {
        return (unsigned) kind;
    }
    return ra_http_target_kind_walk(path);
}

int
ra_http_answer_is_file(int status)
{
    switch (status) {
    case 0:                     /* not answered yet (enforce) */
    case 400: case 408: case 411: case 412: case 413: case 414: case 416:
    case 417: case 421: case 431:
    case 494: case 495: case 496: case 497: case 499:   /* nginx's own */
    case 501: case 505:
        return 0;
    default:
        return status > 0 && status < 1000;
    }
}

int
ra_http_capture_wanted(ra_str_t method, ra_str_t target, int status,
    int has_range)
{
    return ra_http_capture_wanted_answer(method, status, has_range)
           && ra_http_is_robots(target);
}

int
ra_http_capture_wanted_answer(ra_str_t method, int status, int has_range)
{
    static const ra_str_t  get = ra_string("GET");

    return !has_range && method.len == get.len
           && memcmp(method.data, get.data, 3) == 0
           && ra_http_answer_is_file(status)
           && !ra_http_answer_unchanged(status);
}

int
ra_http_answer_unchanged(int status)
{
    return status == 304 || status == 206;
}

int
ra_http_has_body(int status, int header_only)
{
    return !header_only && status >= 200 && status != 204 && status != 304;
}


/* ---- query strings ---------------------------------------------------- */

int
ra_query_arg(ra_str_t query, const char *name, ra_str_t *value)
{
    size_t                n = strlen(name);
    const unsigned char  *p, *end, *amp;

    p = query.data;
    end = query.data + query.len;
    while (p != NULL && p < end) {
        for (amp = p; amp < end && *amp != '&' && *amp != ';'; amp++) {
            /* void */
        }
        if ((size_t) (amp - p) > n && p[n] == '='
            && memcmp(p, name, n) == 0)
        {
            *value = ra_str(p + n + 1, (size_t) (amp - p - n - 1));
            return RA_OK;
        }
        p = amp + 1;
    }
    return RA_ERROR;
}
