#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ra_test.h"

typedef struct ra_test_block_s {
    struct ra_test_block_s  *next;
    max_align_t              align[];
} ra_test_block_t;

struct ra_test_arena_s {
    ra_test_block_t  *blocks;
    size_t            bytes;
    ra_alloc_t        alloc;
};

static void *
ra_test_arena_get(void *ctx, size_t size)
{
    ra_test_arena_t  *a = ctx;
    ra_test_block_t  *b;

    b = malloc(sizeof(*b) + size);
    if (b == NULL) {
        return NULL;
    }
    b->next = a->blocks;
    a->blocks = b;
    a->bytes += size;
    return b->align;
}

ra_test_arena_t *
ra_test_arena_new(void)
{
    ra_test_arena_t  *a = calloc(1, sizeof(*a));

    assert_non_null(a);
    a->alloc.alloc = ra_test_arena_get;
    a->alloc.ctx = a;
    return a;
}

const ra_alloc_t *
ra_test_arena_alloc(ra_test_arena_t *a)
{
    return &a->alloc;
}

size_t
ra_test_arena_bytes(ra_test_arena_t *a)
{
    return a->bytes;
}

void
ra_test_arena_free(ra_test_arena_t *a)
{
    ra_test_block_t  *b, *next;

    if (a == NULL) {
        return;
    }
    for (b = a->blocks; b; b = next) {
        next = b->next;
        free(b);
    }
    free(a);
}

ra_str_t
ra_test_exact(const void *s, size_t len)
{
    void  *p = malloc(len ? len : 1);

    assert_non_null(p);
    if (len) {
        memcpy(p, s, len);
    }
    return ra_str(p, len);
}

void
ra_test_exact_free(ra_str_t s)
{
    free((void *) s.data);
}

const char *
ra_test_shared(void)
{
    static const char  *cands[] = { "../shared/data", "../../shared/data" };
    const char         *env;
    struct stat         st;
    size_t              i;

    env = getenv("RA_SHARED_DATA");
    if (env != NULL) {
        return stat(env, &st) == 0 ? env : NULL;
    }
    for (i = 0; i < sizeof(cands) / sizeof(cands[0]); i++) {
        if (stat(cands[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            return cands[i];
        }
    }
    return NULL;
}

int
ra_test_read_file(const char *path, ra_str_t *out)
{
    FILE   *f;
    long    n;
    char   *buf;

    f = fopen(path, "rb");
    if (f == NULL) {
        return -1;
    }
    if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0
        || fseek(f, 0, SEEK_SET) != 0)
    {
        fclose(f);
        return -1;
    }
    buf = malloc((size_t) n + 1);
    if (buf == NULL || fread(buf, 1, (size_t) n, f) != (size_t) n) {
        free(buf);
        fclose(f);
        return -1;
    }
    fclose(f);
    *out = ra_str(buf, (size_t) n);
    return 0;
}
