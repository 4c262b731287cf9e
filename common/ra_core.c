/* SPDX-License-Identifier: BSD-2-Clause */
#include <stdlib.h>
#include <string.h>

#include "ra_core.h"

static void *
ra_malloc_alloc(void *ctx, size_t size)
{
    (void) ctx;
    return malloc(size);
}

static void
ra_malloc_free(void *ctx, void *p)
{
    (void) ctx;
    free(p);
}

const ra_alloc_t  ra_malloc_allocator = {
    ra_malloc_alloc, ra_malloc_free, NULL
};

int
ra_strcaseeq(ra_str_t a, ra_str_t b)
{
    size_t    i;
    uint64_t  x, y;

    if (a.len != b.len) {
        return 0;
    }
    /* the same bytes are the same in any case: eight at a time while
     * they are (names compared are mostly written alike), then one by
     * one from the first eight that differ */
    for (i = 0; i + 8 <= a.len; i += 8) {
        memcpy(&x, a.data + i, 8);
        memcpy(&y, b.data + i, 8);
        if (x != y) {
            break;
        }
    }
    for ( /* void */ ; i < a.len; i++) {
        if (ra_lower(a.data[i]) != ra_lower(b.data[i])) {
            return 0;
        }
    }
    return 1;
}

size_t
ra_str_cut(char *dst, size_t max, ra_str_t s)
{
    size_t  n = s.len < max ? s.len : max;

    if (n) {
        memcpy(dst, s.data, n);
    }
    return n;
}

uint64_t
ra_hash_bytes(const unsigned char *p, size_t n)
{
    size_t    all = n;
    uint64_t  h = 0x9e3779b97f4a7c15ULL ^ n, g = 0x2545f4914f6cdd1dULL, w, v;

    /* sixteen bytes a step, in two lanes */
    for ( /* void */ ; n >= 16; p += 16, n -= 16) {
        memcpy(&w, p, 8);
        memcpy(&v, p + 8, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdULL;
        g = (g ^ v) * 0xc4ceb9fe1a85ec53ULL;
        h ^= g >> 29;
        g ^= h >> 32;
    }
    h ^= g * 0x9e3779b97f4a7c15ULL;
    for ( /* void */ ; n >= 8; p += 8, n -= 8) {
        memcpy(&w, p, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdULL;
        h ^= h >> 32;
    }
    /* the last bytes: the last eight (some hashed already) when there
     * were that many, else one by one (p may be NULL when n is 0) */
    w = 0;
    if (n && all >= 8) {
        memcpy(&w, p + n - 8, 8);
    } else {
        for ( /* void */ ; n; n--) {
            w = w << 8 | *p++;
        }
    }
    h = (h ^ w) * 0xc4ceb9fe1a85ec53ULL;
    return h ^ (h >> 29);
}

/* memmem() is a GNU extension; the core builds as plain C11 + POSIX. */
const unsigned char *
ra_memmem(const void *hay, size_t n, const void *needle, size_t m)
{
    const unsigned char  *h = hay, *end, *p;

    if (m == 0) {
        return h;
    }
    if (n < m) {
        return NULL;
    }
    end = h + n - m + 1;
    for (p = h; p < end; p++) {
        p = memchr(p, *(const unsigned char *) needle, (size_t) (end - p));
        if (p == NULL) {
            return NULL;
        }
        if (memcmp(p, needle, m) == 0) {
            return p;
        }
    }
    return NULL;
}

int
ra_startswith_ci(ra_str_t s, const char *prefix)
{
    size_t  i;

    for (i = 0; prefix[i] != '\0'; i++) {
        if (i == s.len
            || ra_lower(s.data[i]) != ra_lower((unsigned char) prefix[i]))
        {
            return 0;
        }
    }
    return 1;
}

int
ra_hexval(int c)
{
    if (ra_isdigit(c)) {
        return c - '0';
    }
    c |= 0x20;
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    return -1;
}

size_t
ra_utf8_char(const unsigned char *p, const unsigned char *end)
{
    size_t         n, i;
    uint32_t       cp;
    unsigned char  c = *p;

    if (c < 0x80) {
        return 1;
    } else if (c >= 0xc2 && c <= 0xdf) {
        n = 2; cp = c & 0x1f;
    } else if (c >= 0xe0 && c <= 0xef) {
        n = 3; cp = c & 0x0f;
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4; cp = c & 0x07;
    } else {
        return 0;
    }
    if ((size_t) (end - p) < n) {
        return 0;
    }
    for (i = 1; i < n; i++) {
        if ((p[i] & 0xc0) != 0x80) {
            return 0;
        }
        cp = (cp << 6) | (p[i] & 0x3f);
    }
    if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff)))
        || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
    {
        return 0;
    }
    return n;
}
