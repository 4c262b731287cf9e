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

/* extensions of what a browser fetches for a page it shows, and of
 * documents (beside none at all); each between bars, so that one search
 * for "|ext|" finds a whole one */
static const char  ra_undecl_subres_ext[] =
    "|css|js|mjs|png|jpg|jpeg|gif|svg|webp|avif|ico|bmp|woff|woff2|ttf|otf"
    "|eot|map|json|mp4|webm|mp3|ogg|wasm|";
static const char  ra_undecl_page_ext[] =
    "|html|htm|xhtml|shtml|php|asp|aspx|jsp|cgi|pl|";

/* Is ext (1 to 5 bytes, any case) one of list's?  Each place where its
 * first byte stands after a bar is compared. */
static int
ra_undecl_ext_in(ra_str_t ext, const char *list, size_t len)
{
    char        want[8];
    size_t      i;
    const char *p = list + 1, *end = list + len;

    for (i = 0; i < ext.len; i++) {
        want[i] = (char) ra_lower(ext.data[i]);
    }
    want[ext.len] = '|';
    while (p < end && (p = memchr(p, want[0], (size_t) (end - p))) != NULL) {
        if (p[-1] == '|' && (size_t) (end - p) > ext.len
            && memcmp(p, want, ext.len + 1) == 0)
        {
            return 1;
        }
        p++;
    }
    return 0;
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
    dot = end;
    for (i = end; i > 0 && path.data[i - 1] != '/'; i--) {
        if (path.data[i - 1] == '.' && dot == end) {
            dot = i - 1;
        }
    }
    if (dot == end) {
        return RA_UNDECL_PAGE;          /* "/", "/about", "/a/b/" */
    }
    ext = ra_str(path.data + dot + 1, end - dot - 1);
    if (ext.len > 5) {
        return RA_UNDECL_PAGE;          /* "/v1.2-release-notes" */
    }
    if (ext.len == 0) {
        return RA_UNDECL_OTHER;         /* "/a." */
    }
    if (ra_undecl_ext_in(ext, ra_undecl_subres_ext,
                         sizeof(ra_undecl_subres_ext) - 1))
    {
        return RA_UNDECL_SUBRES;
    }
    if (ra_undecl_ext_in(ext, ra_undecl_page_ext,
                         sizeof(ra_undecl_page_ext) - 1))
    {
        return RA_UNDECL_PAGE;
    }
    return RA_UNDECL_OTHER;
}

/* Where token starts in ua, or -1 */
static long
ra_undecl_find_token(ra_str_t ua, const char *token)
{
    size_t  n = strlen(token), i;

    for (i = 0; i + n <= ua.len; i++) {
        if (memcmp(ua.data + i, token, n) == 0) {
            return (long) i;
        }
    }
    return -1;
}

/* The major version after token ("Firefox/" -> 128), -1 when absent;
 * *end, when asked, where the version ends */
static long
ra_undecl_major(ra_str_t ua, const char *token, size_t *end)
{
    long    at = ra_undecl_find_token(ua, token), v = 0;
    size_t  i;

    if (at < 0) {
        return -1;
    }
    i = (size_t) at + strlen(token);
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
    firefox = ra_undecl_major(ua, "Firefox/", &end);
    rv = ra_undecl_major(ua, "rv:", NULL);
    while (end < ua.len && ra_isspace(ua.data[end])) {
        end++;
    }
    if (firefox >= 4 && rv >= 0 && end == ua.len && rv != firefox
        && !(rv == 109 && firefox >= 110))
    {
        return 1;
    }
    /* Edge since 79 shares Chrome's major version */
    chrome = ra_undecl_major(ua, "Chrome/", NULL);
    edge = ra_undecl_major(ua, "Edg/", NULL);
    if (edge >= 79 && chrome >= 0 && edge != chrome) {
        return 1;
    }
    /* Chrome froze its WebKit token at 537.36 long ago */
    if (chrome >= 30 && ra_undecl_find_token(ua, "AppleWebKit/") >= 0
        && ra_undecl_find_token(ua, "AppleWebKit/537.36") < 0)
    {
        return 1;
    }
    /* Apple's last Safari for Windows was 5.1 */
    safari_v = ra_undecl_major(ua, "Version/", NULL);
    webkit = ra_undecl_find_token(ua, "Safari/");
    if (safari_v >= 6 && webkit >= 0 && chrome < 0
        && ra_undecl_find_token(ua, "Windows NT") >= 0)
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
