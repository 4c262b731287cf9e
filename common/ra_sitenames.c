/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The site a request counts for (ra_http.h, "sites"): a server block's or
 * virtual host's exact names, and the pick of one of them by a request's
 * Host, so that random Host values never create sites.
 */
#include <string.h>

#include "ra_http.h"

static int
ra_sitenames_copy(const ra_alloc_t *a, ra_str_t name, ra_str_t *out)
{
    size_t          i;
    unsigned char  *p;

    if (name.len > RA_SITE_NAME_MAX) {
        name.len = RA_SITE_NAME_MAX;    /* as the ledger keeps it */
    }
    p = ra_alloc(a, name.len);
    if (p == NULL) {
        return RA_ENOMEM;
    }
    for (i = 0; i < name.len; i++) {
        p[i] = (unsigned char) ra_lower(name.data[i]);
    }
    *out = ra_str(p, name.len);
    return RA_OK;
}

int
ra_sitenames_init(ra_sitenames_t *s, const ra_alloc_t *a, ra_str_t primary)
{
    static const ra_str_t  def = ra_string(RA_SITE_DEFAULT);

    memset(s, 0, sizeof(*s));
    if (primary.len == 0) {
        s->primary = def;
        return RA_OK;
    }
    return ra_sitenames_copy(a, primary, &s->primary);
}

int
ra_sitenames_build(ra_sitenames_t *s, const ra_alloc_t *a, ra_str_t primary,
    ra_str_t (*name)(const void *list, size_t i), const void *list, size_t n)
{
    size_t  i;

    if (ra_sitenames_init(s, a, primary) != RA_OK) {
        return RA_ENOMEM;
    }
    for (i = 0; i < n; i++) {
        if (ra_sitenames_add(s, a, name(list, i)) != RA_OK) {
            return RA_ENOMEM;
        }
    }
    return RA_OK;
}

int
ra_site_name_exact(ra_str_t name)
{
    size_t  i;

    if (name.len == 0 || name.data[0] == '~' || name.data[0] == '.') {
        return 0;
    }
    for (i = 0; i < name.len; i++) {
        if (name.data[i] == '*' || name.data[i] == '?') {
            return 0;
        }
    }
    return 1;
}

int
ra_sitenames_add(ra_sitenames_t *s, const ra_alloc_t *a, ra_str_t name)
{
    uint32_t   cap, k;
    ra_str_t  *names;

    if (!ra_site_name_exact(name)) {
        return RA_OK;
    }
    /* the primary, or a name given twice, would never be picked here
     * (ra_sitenames_pick() tries them before): not kept, not tried */
    if (name.len > RA_SITE_NAME_MAX) {
        name.len = RA_SITE_NAME_MAX;
    }
    if (ra_strcaseeq(name, s->primary)) {
        return RA_OK;
    }
    for (k = 0; k < s->nnames; k++) {
        if (ra_strcaseeq(name, s->names[k])) {
            return RA_OK;
        }
    }
    if (s->nnames == s->cap) {
        cap = s->cap ? s->cap * 2 : 4;
        names = ra_alloc(a, cap * sizeof(ra_str_t));
        if (names == NULL) {
            return RA_ENOMEM;
        }
        if (s->nnames) {
            memcpy(names, s->names, s->nnames * sizeof(ra_str_t));
        }
        ra_free(a, s->names);
        s->names = names;
        s->cap = cap;
    }
    if (ra_sitenames_copy(a, name, &s->names[s->nnames]) != RA_OK) {
        return RA_ENOMEM;
    }
    s->nnames++;
    return RA_OK;
}

/* Do 8 bytes of a host, lower-cased as ra_lower() does, read 8 bytes of
 * a name, with no ':' among the host's? */
static inline int
ra_site_word_is(const unsigned char *h, const unsigned char *c)
{
    const uint64_t  ones = 0x0101010101010101ULL,
                    high = 0x8080808080808080ULL;
    uint64_t        x, y, b7, up, colon;

    memcpy(&x, h, 8);
    memcpy(&y, c, 8);
    /* 'A'..'Z' (no byte >= 0x80) get 0x20; no carry between bytes */
    b7 = x & ~high;
    up = (b7 + ones * (0x80 - 'A')) & ~(b7 + ones * (0x80 - 'Z' - 1))
         & ~x & high;
    colon = x ^ (ones * ':');
    colon = (colon - ones) & ~colon & high;     /* a ':' byte (or one
                                                   borrowed into: only
                                                   after a ':') */
    return ((x | up >> 2) ^ y) == 0 && colon == 0;
}

/* Do a host's n bytes, lower-cased, read a name's, without a ':' among
 * them?  8 at a time when there are 8 and the first is the same (out
 * of line: a host of another length never comes here). */
static __attribute__((noinline)) int
ra_site_bytes_are(const unsigned char *h, const unsigned char *c, size_t n)
{
    size_t  i;

    if (n < 8 || ra_lower(h[0]) != c[0]) {
        for (i = 0; i < n; i++) {
            if (ra_lower(h[i]) != c[i] || h[i] == ':') {
                return 0;       /* a ':' there would have cut the host */
            }
        }
        return 1;
    }
    for (i = 0; i + 8 <= n; i += 8) {
        if (!ra_site_word_is(h + i, c + i)) {
            return 0;
        }
    }
    return i == n || ra_site_word_is(h + n - 8, c + n - 8);
}

/* Does host, cut at its first ':' and less one trailing '.' (when more
 * than that is left), read name (lower-cased)?  One pass over the bytes
 * they share. */
static inline int
ra_site_is(ra_str_t host, ra_str_t name)
{
    size_t                n = name.len;
    const unsigned char  *h = host.data, *c = name.data;

    if (n > host.len || !ra_site_bytes_are(h, c, n)) {
        return 0;
    }
    if (n == host.len || h[n] == ':') {
        /* the host is name; its own trailing '.' would have gone */
        return !(n > 1 && c[n - 1] == '.');
    }
    /* "name.", "name.:80" */
    return h[n] == '.' && (n + 1 == host.len || h[n + 1] == ':');
}

/* "[::1]:80" keeps "[::1]" (out of line, as the names' loop below: the
 * usual host reads the primary name, or none, without a frame) */
static __attribute__((noinline)) ra_str_t
ra_sitenames_pick6(const ra_sitenames_t *s, ra_str_t host)
{
    size_t    i;
    uint32_t  k;

    for (i = 0; i < host.len && host.data[i] != ']'; i++) {
        /* void */
    }
    host.len = i < host.len ? i + 1 : host.len;
    if (host.len > 1 && host.data[host.len - 1] == '.') {
        host.len--;
    }
    if (ra_strcaseeq(host, s->primary)) {
        return s->primary;
    }
    for (k = 0; k < s->nnames; k++) {
        if (ra_strcaseeq(host, s->names[k])) {
            return s->names[k];
        }
    }
    return s->primary;
}

static __attribute__((noinline)) ra_str_t
ra_sitenames_pick_name(const ra_sitenames_t *s, ra_str_t host)
{
    uint32_t  k;

    for (k = 0; k < s->nnames; k++) {
        if (ra_site_is(host, s->names[k])) {
            return s->names[k];
        }
    }
    return s->primary;
}

static __attribute__((noinline)) ra_str_t
ra_sitenames_pick_host(const ra_sitenames_t *s, ra_str_t host)
{
    /* "Example.COM.:8080" names example.com; "[::1]:80" keeps "[::1]" */
    if (host.len && host.data[0] == '[') {
        return ra_sitenames_pick6(s, host);
    }
    /* the name or the primary; an empty host (":80") reads neither */
    if (host.len == 0 || ra_site_is(host, s->primary)) {
        return s->primary;
    }
    return ra_sitenames_pick_name(s, host);
}

ra_str_t
ra_sitenames_pick(const ra_sitenames_t *s, ra_str_t host)
{
    /* a server of one name (the primary: ra_sitenames_add() keeps no
     * other copy of it) is that name whatever the host reads (no frame) */
    if (ra_sitenames_one(s)) {
        return s->primary;
    }
    return ra_sitenames_pick_host(s, host);
}
