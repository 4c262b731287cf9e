/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Shared helpers of the libFuzzer targets (make fuzz): an input reader
 * that hands out bytes and length-prefixed spans, and an assertion that
 * survives NDEBUG and says which invariant broke.
 */
#ifndef RA_FUZZ_H
#define RA_FUZZ_H

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ra_core.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FZ_CHECK(cond)                                                      \
    do {                                                                    \
        if (!(cond)) {                                                      \
            fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__,      \
                    __LINE__, #cond);                                       \
            abort();                                                        \
        }                                                                   \
    } while (0)

typedef struct {
    const uint8_t  *p;
    size_t          left;
} fz_in_t;

static inline unsigned
fz_byte(fz_in_t *in)
{
    if (in->left == 0) {
        return 0;
    }
    in->left--;
    return *in->p++;
}

static inline unsigned
fz_u16(fz_in_t *in)
{
    unsigned  hi = fz_byte(in);

    return (hi << 8) | fz_byte(in);
}

/* Up to max bytes, the count taken from the next byte. */
static inline ra_str_t
fz_span(fz_in_t *in, size_t max)
{
    size_t    n = fz_byte(in);
    ra_str_t  s;

    if (n > max) {
        n = max;
    }
    if (n > in->left) {
        n = in->left;
    }
    s.data = in->p;
    s.len = n;
    in->p += n;
    in->left -= n;
    return s;
}

/* Is s within [base, base + len)? (an empty span anywhere in it, too) */
static inline int
fz_within(ra_str_t s, const void *base, size_t len)
{
    const unsigned char  *b = base;

    if (s.len == 0) {
        return 1;
    }
    return s.data >= b && s.len <= len
           && s.data - b <= (ptrdiff_t) (len - s.len);
}

static inline int
fz_printable(const unsigned char *p, size_t n)
{
    size_t  i;

    for (i = 0; i < n; i++) {
        if (p[i] < 0x20 || p[i] > 0x7e) {
            return 0;
        }
    }
    return 1;
}

/*
 * An arena over malloc() for structures the core never frees one by one
 * (a crawler table): free() works on single blocks, fz_arena_release()
 * returns the rest.
 */
typedef union fz_blk_u {
    struct {
        union fz_blk_u  *prev, *next;
    } l;
    max_align_t  align;
} fz_blk_t;

typedef struct {
    fz_blk_t    head;
    ra_alloc_t  alloc;
} fz_arena_t;

static void *
fz_arena_alloc(void *ctx, size_t size)
{
    fz_arena_t  *a = ctx;
    fz_blk_t    *b = malloc(sizeof(fz_blk_t) + size);

    if (b == NULL) {
        return NULL;
    }
    b->l.prev = &a->head;
    b->l.next = a->head.l.next;
    b->l.next->l.prev = b;
    a->head.l.next = b;
    return b + 1;
}

static void
fz_arena_free(void *ctx, void *p)
{
    fz_blk_t  *b = (fz_blk_t *) p - 1;

    (void) ctx;
    b->l.prev->l.next = b->l.next;
    b->l.next->l.prev = b->l.prev;
    free(b);
}

static inline const ra_alloc_t *
fz_arena_init(fz_arena_t *a)
{
    a->head.l.prev = a->head.l.next = &a->head;
    a->alloc.alloc = fz_arena_alloc;
    a->alloc.free = fz_arena_free;
    a->alloc.ctx = a;
    return &a->alloc;
}

static inline void
fz_arena_release(fz_arena_t *a)
{
    while (a->head.l.next != &a->head) {
        fz_arena_free(a, a->head.l.next + 1);
    }
}

#endif /* RA_FUZZ_H */
