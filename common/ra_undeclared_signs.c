/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What one request says to the undeclared-crawler detector by itself
 * (ra_undeclared.h): whether its path is a page, a subresource a browser
 * loads after a page, or /robots.txt; whether its User-Agent pairs
 * browser versions that no release ever sent together; and how a client
 * address is shown.  These read only the request, never the table.
 */
#include <stdio.h>
#include <string.h>

#include "ra_undeclared.h"

/* An extension of 1 to 5 bytes, lower-cased, as one number: its bytes
 * from the lowest, its length above them */
#define RA_EXT(n, a, b, c, d, e)                                           \
    ((uint64_t) (a) | (uint64_t) (b) << 8 | (uint64_t) (c) << 16          \
     | (uint64_t) (d) << 24 | (uint64_t) (e) << 32 | (uint64_t) (n) << 40)
#define RA_EXT2(a, b)           RA_EXT(2, a, b, 0, 0, 0)
#define RA_EXT3(a, b, c)        RA_EXT(3, a, b, c, 0, 0)
#define RA_EXT4(a, b, c, d)     RA_EXT(4, a, b, c, d, 0)
#define RA_EXT5(a, b, c, d, e)  RA_EXT(5, a, b, c, d, e)

/* What an extension (1 to 5 bytes, any case) says: one switch, which the
 * compiler makes a few compares, where a search of the lists' text cost
 * more than the rest of the path's reading */
static unsigned
ra_undecl_ext_kind(ra_str_t ext)
{
    size_t    i;
    uint64_t  k = (uint64_t) ext.len << 40;

    for (i = 0; i < ext.len; i++) {
        k |= (uint64_t) ra_lower(ext.data[i]) << (8 * i);
    }
    switch (k) {
    /* what a browser fetches for a page it shows */
    case RA_EXT3('c', 's', 's'):
    case RA_EXT2('j', 's'):
    case RA_EXT3('m', 'j', 's'):
    case RA_EXT3('p', 'n', 'g'):
    case RA_EXT3('j', 'p', 'g'):
    case RA_EXT4('j', 'p', 'e', 'g'):
    case RA_EXT3('g', 'i', 'f'):
    case RA_EXT3('s', 'v', 'g'):
    case RA_EXT4('w', 'e', 'b', 'p'):
    case RA_EXT4('a', 'v', 'i', 'f'):
    case RA_EXT3('i', 'c', 'o'):
    case RA_EXT3('b', 'm', 'p'):
    case RA_EXT4('w', 'o', 'f', 'f'):
    case RA_EXT5('w', 'o', 'f', 'f', '2'):
    case RA_EXT3('t', 't', 'f'):
    case RA_EXT3('o', 't', 'f'):
    case RA_EXT3('e', 'o', 't'):
    case RA_EXT3('m', 'a', 'p'):
    case RA_EXT4('j', 's', 'o', 'n'):
    case RA_EXT3('m', 'p', '4'):
    case RA_EXT4('w', 'e', 'b', 'm'):
    case RA_EXT3('m', 'p', '3'):
    case RA_EXT3('o', 'g', 'g'):
    case RA_EXT4('w', 'a', 's', 'm'):
        return RA_UNDECL_SUBRES;
    /* documents (beside none at all) */
    case RA_EXT4('h', 't', 'm', 'l'):
    case RA_EXT3('h', 't', 'm'):
    case RA_EXT5('x', 'h', 't', 'm', 'l'):
    case RA_EXT5('s', 'h', 't', 'm', 'l'):
    case RA_EXT3('p', 'h', 'p'):
    case RA_EXT3('a', 's', 'p'):
    case RA_EXT4('a', 's', 'p', 'x'):
    case RA_EXT3('j', 's', 'p'):
    case RA_EXT3('c', 'g', 'i'):
    case RA_EXT2('p', 'l'):
        return RA_UNDECL_PAGE;
    default:
        return RA_UNDECL_OTHER;
    }
}

unsigned
ra_undecl_path_kind(ra_str_t path)
{
    size_t                i, end, dot;
    ra_str_t              ext;
    const unsigned char  *q;

    /* the path ends at its query or, in a log that kept one, fragment */
    q = path.len ? memchr(path.data, '?', path.len) : NULL;
    end = q != NULL ? (size_t) (q - path.data) : path.len;
    q = end ? memchr(path.data, '#', end) : NULL;
    end = q != NULL ? (size_t) (q - path.data) : end;
    if (end == 11 && memcmp(path.data, "/robots.txt", 11) == 0) {
        return RA_UNDECL_ROBOTS;
    }
    /* the last segment's last dot, looked for only among its last six
     * bytes: one further back leaves more than five bytes after it, and
     * such a name is a page as one without a dot is ("/", "/about",
     * "/a/b/", "/v1.2-release-notes") */
    dot = end;
    for (i = end; i > 0 && end - i < 6; i--) {
        if (path.data[i - 1] == '/') {
            break;
        }
        if (path.data[i - 1] == '.') {
            dot = i - 1;
            break;
        }
    }
    if (dot == end) {
        return RA_UNDECL_PAGE;
    }
    ext = ra_str(path.data + dot + 1, end - dot - 1);
    if (ext.len == 0) {
        return RA_UNDECL_OTHER;         /* "/a." */
    }
    return ra_undecl_ext_kind(ext);
}

/* A token and its length, for the two below: no strlen() on a
 * request's way */
#define RA_TOKEN(s)  s, sizeof(s) - 1

/* Where token (n > 0 bytes) starts in ua, or -1 */
static long
ra_undecl_find_token(ra_str_t ua, const char *token, size_t n)
{
    const unsigned char  *p = ra_memmem(ua.data, ua.len, token, n);

    return p != NULL ? (long) (p - ua.data) : -1;
}

/* The major version after token ("Firefox/" -> 128), -1 when absent;
 * *end, when asked, where the version ends */
static long
ra_undecl_major(ra_str_t ua, const char *token, size_t n, size_t *end)
{
    long    at = ra_undecl_find_token(ua, token, n), v = 0;
    size_t  i;

    if (at < 0) {
        return -1;
    }
    i = (size_t) at + n;
    if (i >= ua.len || !ra_isdigit(ua.data[i])) {
        return -1;
    }
    for (; i < ua.len && ra_isdigit(ua.data[i]) && v < 100000; i++) {
        v = v * 10 + (ua.data[i] - '0');
    }
    if (end != NULL) {
        for (; i < ua.len && (ra_isdigit(ua.data[i]) || ua.data[i] == '.');
             i++)
        {
            /* the minor parts */
        }
        *end = i;
    }
    return v;
}

int
ra_undecl_ua_impossible(ra_str_t ua)
{
    long    firefox, rv, chrome, edge, safari_v;
    size_t  end = 0;                /* set only when "Firefox/" is there */
    long    webkit;

    /* Firefox: rv: is the version, except that 110 and later froze it
     * at 109 for a while; judged only when "Firefox/" ends the string,
     * as forks (SeaMonkey, Pale Moon) append their own token and pair
     * versions their own way */
    firefox = ra_undecl_major(ua, RA_TOKEN("Firefox/"), &end);
    rv = ra_undecl_major(ua, RA_TOKEN("rv:"), NULL);
    while (end < ua.len && ra_isspace(ua.data[end])) {
        end++;
    }
    if (firefox >= 4 && rv >= 0 && end == ua.len && rv != firefox
        && !(rv == 109 && firefox >= 110))
    {
        return 1;
    }
    /* Edge since 79 shares Chrome's major version */
    chrome = ra_undecl_major(ua, RA_TOKEN("Chrome/"), NULL);
    edge = ra_undecl_major(ua, RA_TOKEN("Edg/"), NULL);
    if (edge >= 79 && chrome >= 0 && edge != chrome) {
        return 1;
    }
    /* Chrome froze its WebKit token at 537.36 long ago */
    if (chrome >= 30
        && ra_undecl_find_token(ua, RA_TOKEN("AppleWebKit/")) >= 0
        && ra_undecl_find_token(ua, RA_TOKEN("AppleWebKit/537.36")) < 0)
    {
        return 1;
    }
    /* Apple's last Safari for Windows was 5.1 */
    safari_v = ra_undecl_major(ua, RA_TOKEN("Version/"), NULL);
    webkit = ra_undecl_find_token(ua, RA_TOKEN("Safari/"));
    if (safari_v >= 6 && webkit >= 0 && chrome < 0
        && ra_undecl_find_token(ua, RA_TOKEN("Windows NT")) >= 0)
    {
        return 1;
    }
    return 0;
}

size_t
ra_undecl_client(const uint8_t addr[16], char *out)
{
    static const uint8_t  mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                         0xff, 0xff };
    int                   n;

    if (memcmp(addr, mapped, sizeof(mapped)) == 0) {
        n = snprintf(out, 48, "%u.%u.%u.%u", addr[12], addr[13], addr[14],
                     addr[15]);
    } else {
        n = snprintf(out, 48, "%x:%x:%x:%x::/64",
                     (unsigned) (addr[0] << 8 | addr[1]),
                     (unsigned) (addr[2] << 8 | addr[3]),
                     (unsigned) (addr[4] << 8 | addr[5]),
                     (unsigned) (addr[6] << 8 | addr[7]));
    }
    return n > 0 ? (size_t) n : 0;
}
