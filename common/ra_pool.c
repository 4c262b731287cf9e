/* SPDX-License-Identifier: BSD-2-Clause */
#include <string.h>

#include "ra_pool.h"

struct ra_pool_chunk_s {
    ra_pool_chunk_t  *next;
    max_align_t       data[];
};

#define RA_ALIGN  (sizeof(max_align_t))

void
ra_pool_init(ra_pool_t *p, const ra_alloc_t *a)
{
    memset(p, 0, sizeof(*p));
    p->alloc = a;
}

void *
ra_pool_get(ra_pool_t *p, size_t size)
{
    size_t            csize;
    unsigned char    *r;
    ra_pool_chunk_t  *c;

    size = (size + RA_ALIGN - 1) & ~(RA_ALIGN - 1);
    if (size == 0) {
        size = RA_ALIGN;
    }
    if ((size_t) (p->end - p->pos) >= size) {
        r = p->pos;
        p->pos += size;
        return r;
    }

    /* Large requests get a chunk of their own; the current chunk keeps
     * serving small ones. */
    csize = size > RA_POOL_CHUNK / 4 ? size : RA_POOL_CHUNK;
    if (csize > SIZE_MAX - sizeof(ra_pool_chunk_t)) {
        return NULL;
    }
    c = ra_alloc(p->alloc, sizeof(ra_pool_chunk_t) + csize);
    if (c == NULL) {
        return NULL;
    }
    c->next = p->chunks;
    p->chunks = c;
    p->total += sizeof(ra_pool_chunk_t) + csize;
    r = (unsigned char *) c->data;
    if (csize == RA_POOL_CHUNK) {
        p->pos = r + size;
        p->end = r + csize;
    }
    return r;
}

void *
ra_pool_calloc(ra_pool_t *p, size_t n, size_t size)
{
    void  *r;

    if (size && n > SIZE_MAX / size) {
        return NULL;
    }
    r = ra_pool_get(p, n * size);
    if (r != NULL) {
        memset(r, 0, n * size);
    }
    return r;
}

void *
ra_pool_dup(ra_pool_t *p, const void *src, size_t size)
{
    void  *r = ra_pool_get(p, size);

    if (r != NULL && size) {
        memcpy(r, src, size);
    }
    return r;
}

void
ra_pool_release(ra_pool_t *p)
{
    ra_pool_chunk_t  *c, *next;

    for (c = p->chunks; c; c = next) {
        next = c->next;
        ra_free(p->alloc, c);
    }
    p->chunks = NULL;
    p->pos = p->end = NULL;
}
