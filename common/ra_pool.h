/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A bump allocator over chunks taken from the caller's allocator, so that a
 * structure built from many small pieces (a compiled rule set, lint
 * findings) is released with one call whatever the allocator.
 */
#ifndef RA_POOL_H
#define RA_POOL_H

#include "ra_core.h"

#define RA_POOL_CHUNK  (16 * 1024)

typedef struct ra_pool_chunk_s  ra_pool_chunk_t;

typedef struct {
    const ra_alloc_t  *alloc;
    ra_pool_chunk_t   *chunks;
    unsigned char     *pos;
    unsigned char     *end;
    size_t             total;      /* bytes taken from alloc */
} ra_pool_t;

void ra_pool_init(ra_pool_t *p, const ra_alloc_t *a);
/* Aligned for any object; NULL when the allocator fails. */
void *ra_pool_get(ra_pool_t *p, size_t size);
void *ra_pool_calloc(ra_pool_t *p, size_t n, size_t size);
void *ra_pool_dup(ra_pool_t *p, const void *src, size_t size);
void ra_pool_release(ra_pool_t *p);

#endif
