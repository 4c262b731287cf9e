/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * robots-audit core: shared conventions.
 *
 * Every public symbol of the core starts with "ra_" (types "ra_*_t", macros
 * "RA_*"): nginx loads modules RTLD_GLOBAL, so one prefix keeps us out of
 * everybody else's namespace.
 *
 * Inputs and outputs are (length, pointer) spans, never NUL-terminated
 * strings.  Memory comes from a caller-supplied allocator; the core never
 * keeps mutable globals.  Return codes: RA_OK (0) or a small negative RA_E*.
 */
#ifndef RA_CORE_H
#define RA_CORE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define RA_OK        0
#define RA_ERROR    -1   /* malformed input or internal failure */
#define RA_ENOMEM   -2   /* the allocator returned NULL */
#define RA_EAGAIN   -3   /* need more input */
#define RA_ELIMIT   -4   /* a documented bound was reached */

/* Shaped like ngx_str_t so that glue conversion is a field copy. */
typedef struct {
    size_t                len;
    const unsigned char  *data;
} ra_str_t;

#define ra_string(s)     { sizeof(s) - 1, (const unsigned char *) (s) }
#define ra_null_string   { 0, NULL }

static inline ra_str_t
ra_str(const void *data, size_t len)
{
    ra_str_t s = { len, (const unsigned char *) data };
    return s;
}

/* A C string as a span; NULL, a value a server does not have, reads "". */
static inline ra_str_t
ra_str_z(const char *s)
{
    return s != NULL ? ra_str(s, strlen(s)) : ra_str("", 0);
}

/*
 * The caller's memory.  alloc() returns memory aligned for any object or
 * NULL.  free() is optional (NULL for pools and arenas): the core never
 * relies on it to bound memory, only to return large scratch buffers early.
 */
typedef struct {
    void  *(*alloc)(void *ctx, size_t size);
    void   (*free)(void *ctx, void *p);
    void    *ctx;
} ra_alloc_t;

static inline void *
ra_alloc(const ra_alloc_t *a, size_t size)
{
    return a->alloc(a->ctx, size ? size : 1);
}

static inline void
ra_free(const ra_alloc_t *a, void *p)
{
    if (a->free != NULL && p != NULL) {
        a->free(a->ctx, p);
    }
}

/* malloc()/free() based allocator for the CLI and tests. */
extern const ra_alloc_t  ra_malloc_allocator;

/* ASCII helpers: locale-independent, safe on any byte. */
#define ra_lower(c)    (((c) >= 'A' && (c) <= 'Z') ? (c) | 0x20 : (c))
#define ra_upper(c)    (((c) >= 'a' && (c) <= 'z') ? (c) & ~0x20 : (c))
#define ra_isalpha(c)  ((unsigned) (((c) | 0x20) - 'a') < 26)
#define ra_isdigit(c)  ((unsigned) ((c) - '0') < 10)
#define ra_isxdigit(c) (ra_isdigit(c) || (unsigned) (((c) | 0x20) - 'a') < 6)
/* C isspace() in the "C" locale: SP, HT, LF, VT, FF, CR. */
#define ra_isspace(c)  ((c) == ' ' || ((c) >= '\t' && (c) <= '\r'))

int ra_strcaseeq(ra_str_t a, ra_str_t b);

/* A header value or list member without the optional white space at
 * either end (RFC 9110 5.6.3 OWS: SP and HTAB only). */
static inline ra_str_t
ra_ows_trim(ra_str_t s)
{
    while (s.len && (s.data[0] == ' ' || s.data[0] == '\t')) {
        s.data++;
        s.len--;
    }
    while (s.len && (s.data[s.len - 1] == ' ' || s.data[s.len - 1] == '\t')) {
        s.len--;
    }
    return s;
}
/* s without white space (ra_isspace()) at either end: robots.txt lines,
 * directive lists and XML text are trimmed alike. */
static inline ra_str_t
ra_space_trim(ra_str_t s)
{
    while (s.len && ra_isspace(s.data[0])) {
        s.data++;
        s.len--;
    }
    while (s.len && ra_isspace(s.data[s.len - 1])) {
        s.len--;
    }
    return s;
}

/* The tail of s from p on, when p lies in s (a server's pointer into
 * its own copy, such as where a parser found something); else none
 * (data NULL). */
static inline ra_str_t
ra_str_from(ra_str_t s, const unsigned char *p)
{
    if (p == NULL || s.data == NULL || p < s.data || p >= s.data + s.len) {
        return ra_str(NULL, 0);
    }
    return ra_str(p, (size_t) (s.data + s.len - p));
}

/* Copies at most max bytes of s to dst (no NUL); returns how many. */
size_t ra_str_cut(char *dst, size_t max, ra_str_t s);
/* Where needle (m bytes) first stands in hay (n bytes), NULL when
 * nowhere: memmem() for plain C11 + POSIX, a memchr() of its first byte
 * and a compare; hay itself for an empty needle. */
const unsigned char *ra_memmem(const void *hay, size_t n, const void *needle,
    size_t m);

/* A hash of all n bytes at p, sixteen a step in two lanes: cheap enough
 * that a table's hit costs far less than the work it saves. */
uint64_t ra_hash_bytes(const unsigned char *p, size_t n);

/*
 * A key of n bytes at p for a table that compares the exact bytes on a
 * hit, or that can bear two texts taken for one: the length and a sample
 * of the bytes, not all of them, so that a long text costs no more than
 * a short one.  The sample is the last 32 bytes, where User-Agents put
 * their versions and names, and the words at a quarter, a half and three
 * quarters of the length; a text under 48 bytes is hashed whole.  Inline:
 * it is on every request's path.
 */
static inline uint64_t
ra_hash_sample(const unsigned char *p, size_t n)
{
    uint64_t  a, b, c, d, e, f, g, x, y;

    if (n < 48) {
        return ra_hash_bytes(p, n);
    }
    /* loaded into scalars, not arrays: no copy through the stack (and no
     * stack guard) on the hit path */
    memcpy(&a, p + n - 32, 8);
    memcpy(&b, p + n - 24, 8);
    memcpy(&c, p + n - 16, 8);
    memcpy(&d, p + n - 8, 8);
    memcpy(&e, p + n / 4, 8);
    memcpy(&f, p + n / 2, 8);
    memcpy(&g, p + n / 2 + n / 4, 8);
    x = (a ^ e) * 0xff51afd7ed558ccdULL ^ (c ^ g);
    y = (b ^ f) * 0xc4ceb9fe1a85ec53ULL ^ (d ^ (uint64_t) n);
    x = (x ^ (y << 23 | y >> 41)) * 0x9e3779b97f4a7c15ULL;
    return x ^ (x >> 29);
}

int ra_startswith_ci(ra_str_t s, const char *prefix);
int ra_hexval(int c);

/* Bytes of the well-formed UTF-8 sequence at p (RFC 3629: no overlongs,
 * no surrogates, nothing past U+10FFFF), or 0 when p starts none. */
size_t ra_utf8_char(const unsigned char *p, const unsigned char *end);

#endif /* RA_CORE_H */
