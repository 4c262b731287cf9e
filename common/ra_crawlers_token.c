/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Reading a User-Agent's parts: the product token around a position,
 * the one after it, where "(compatible; NAME" puts NAME, and whether a
 * word is one of those browsers put there.  The heuristics of
 * ra_crawlers_shape.c and the names of ra_crawlers_name.c stand on these.
 */
#include "ra_crawlers_impl.h"

/* The product token around position at: [A-Za-z0-9._-]+, starting with a
 * letter (with digit: or a digit, when a letter follows: "200PleaseBot",
 * "7Siters"; never a version), not part of a path or address; len 0 when
 * there is none. */
static ra_str_t
ra_token_span(const unsigned char *p, size_t len, size_t at, int digit)
{
    size_t  s = at, e = at, i;

    while (s > 0 && ra_istok(p[s - 1])) {
        s--;
    }
    while (e < len && ra_istok(p[e])) {
        e++;
    }
    while (e > s && (p[e - 1] == '.' || p[e - 1] == '-' || p[e - 1] == '_')) {
        e--;
    }
    if (e == s || e - s > RA_TOKEN_MAX
        || (s > 0 && (p[s - 1] == '/' || p[s - 1] == ':' || p[s - 1] == '@'
                      || p[s - 1] == '=' || p[s - 1] == '.')))
    {
        return ra_str(p, 0);
    }
    if (!ra_isalpha(p[s])) {
        if (!digit || !ra_isdigit(p[s]) || (s > 0 && p[s - 1] == '%')) {
            return ra_str(p, 0);        /* "%20Downloader": an escape's */
        }
        for (i = s + 1; i < e && !ra_isalpha(p[i]); i++) {
            /* void */
        }
        if (i == e) {
            return ra_str(p, 0);        /* "1.2.3", "2008032620" */
        }
    }
    return ra_str(p + s, e - s);
}

/* A token that may start a shape: a letter first ("(compatible; 360SE)"
 * late in a browser's User-Agent names no program) */
ra_str_t
ra_token_at(const unsigned char *p, size_t len, size_t at)
{
    return ra_token_span(p, len, at, 0);
}

/* A token that names a bot already found */
ra_str_t
ra_name_at(const unsigned char *p, size_t len, size_t at)
{
    return ra_token_span(p, len, at, 1);
}

/* Where "(compatible; NAME" starts NAME, or len when absent.  It looks
 * for the ';' (rare) and then behind it for "compatible" (any case). */
size_t
ra_compatible_at(const unsigned char *p, size_t len)
{
    static const char     k[] = "compatible";
    const unsigned char  *q;
    size_t                i, j, c, n = sizeof(k) - 1;

    for (i = n; i < len; i = j + 1) {
        q = memchr(p + i, ';', len - i);
        if (q == NULL) {
            break;
        }
        j = (size_t) (q - p);
        for (c = 0; c < n; c++) {
            if (ra_lower(p[j - n + c]) != (unsigned char) k[c]) {
                break;
            }
        }
        if (c == n) {
            for (j++; j < len && p[j] == ' '; j++) { /* void */ }
            return j;
        }
    }
    return len;
}

/* The token that starts at or after position at, past spaces, ';' and a
 * "compatible;": "like Gecko; compatible; pageburst" names "pageburst". */
ra_str_t
ra_next_token(const unsigned char *p, size_t len, size_t at)
{
    static const char  k[] = "compatible";
    size_t             i, c, n = sizeof(k) - 1;

    for (i = at; i < len && (p[i] == ' ' || p[i] == ';'); i++) { /* void */ }
    if (len - i > n) {
        for (c = 0; c < n && ra_lower(p[i + c]) == (unsigned char) k[c]; c++) {
            /* void */
        }
        if (c == n && !ra_istok(p[i + n])) {
            for (i += n; i < len && (p[i] == ' ' || p[i] == ';'); i++) {
                /* void */
            }
        }
    }
    return i < len ? ra_name_at(p, len, i) : ra_str(p, 0);
}

/* Whether t is one of words (lower case, by length: len_at[n] is the
 * first of length n, and n_at entries make len_at), in any case. */
int
ra_word_of(ra_str_t t, const char *const *words, const uint8_t *len_at,
    size_t n_at)
{
    size_t  k;

    if (t.len == 0 || t.len + 1 >= n_at) {
        return 0;
    }
    for (k = len_at[t.len]; k < len_at[t.len + 1]; k++) {
        if (ra_word_is(t.data, t.len, words[k], t.len)) {
            return 1;
        }
    }
    return 0;
}

/* What browsers (or their platforms) put after "(compatible; ", by
 * length: the words of length n are from len_at[n] to len_at[n + 1]. */
int
ra_compatible_browser(ra_str_t t)
{
    static const char  *browser[] = {
        "u", "fw", "x11", "icab", "msie", "dillo", "gecko", "linux",
        "opera", "google", "yahoo!", "abrowse", "ibrowse", "mozilla",
        "omniweb", "polaris", "voyager", "windows", "offbyone", "konqueror",
        "macintosh", "ms-office", "ncbrowser", "amiga-aweb", "lotus-notes",
        "netpositive",
    };
    static const uint8_t  len_at[] = {
        0, 0, 1, 2, 3, 5, 9, 11, 18, 19, 23, 24, 26,
    };

    return ra_word_of(t, browser, len_at, sizeof(len_at));
}
