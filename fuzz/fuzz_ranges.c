/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Range files of every format: the first byte picks the name the rest is
 * loaded under (a crawler publisher's JSON, or a cloud provider's file,
 * each of whose formats ra_ranges_add_file() tells by the name), the rest
 * is the file.  Whatever the input:
 *   a refused file leaves no list and says why
 *   an accepted one adds one list (or, for a crawler bundle, one per
 *   member) of the kind its name says, sorted and non-overlapping
 *   a cloud list builds the lookup, which answers its provider at both
 *   ends of every interval and no one just outside the first and last
 */
#include "fuzz.h"
#include "ra_cloud.h"
#include "ra_pool.h"

static const char  *const names[] = {
    "googlebot.json", "cloud-aws.json", "cloud-google.json",
    "cloud-oracle.json", "cloud-digitalocean.csv", "cloud-linode.csv",
    "cloud-acme.json", "cloud-acme.csv",
};

#define FZ_NNAMES  (sizeof(names) / sizeof(names[0]))

static void *
fz_pool_alloc(void *ctx, size_t size)
{
    return ra_pool_get(ctx, size);
}

static ra_addr_t
fz_addr(uint64_t hi, uint64_t lo)
{
    ra_addr_t  a;
    int        i;

    for (i = 0; i < 8; i++) {
        a.b[i] = (uint8_t) (hi >> (56 - 8 * i));
        a.b[8 + i] = (uint8_t) (lo >> (56 - 8 * i));
    }
    return a;
}

static int
fz_lt(const ra_interval_t *a, const ra_interval_t *b)
{
    /* a ends before b starts */
    return a->hi_hi < b->lo_hi || (a->hi_hi == b->lo_hi
                                   && a->hi_lo < b->lo_lo);
}

static void
check_set(const ra_ranges_t *r, size_t list)
{
    const ra_interval_t  *iv;
    ra_cloud_set_t       *set;
    ra_addr_t             a;
    size_t                n, i, size;
    void                 *mem;

    size = ra_cloud_set_size(r, NULL);
    FZ_CHECK(size > 0);
    mem = malloc(size);
    FZ_CHECK(mem != NULL);
    set = ra_cloud_set_build(mem, size, r);
    FZ_CHECK(set != NULL && ra_cloud_providers(set) == 1);
    iv = ra_ranges_list_intervals(r, list, &n);
    FZ_CHECK(ra_cloud_intervals(set) == n);
    for (i = 0; i < n; i++) {
        a = fz_addr(iv[i].lo_hi, iv[i].lo_lo);
        FZ_CHECK(ra_ranges_cloud(set, &a) == 0);
        a = fz_addr(iv[i].hi_hi, iv[i].hi_lo);
        FZ_CHECK(ra_ranges_cloud(set, &a) == 0);
    }
    if (iv[0].lo_hi != 0 || iv[0].lo_lo != 0) {
        a = fz_addr(iv[0].lo_hi - (iv[0].lo_lo == 0), iv[0].lo_lo - 1);
        FZ_CHECK(ra_ranges_cloud(set, &a) == -1);
    }
    if (iv[n - 1].hi_hi != ~0ULL || iv[n - 1].hi_lo != ~0ULL) {
        a = fz_addr(iv[n - 1].hi_hi + (iv[n - 1].hi_lo == ~0ULL),
                    iv[n - 1].hi_lo + 1);
        FZ_CHECK(ra_ranges_cloud(set, &a) == -1);
    }
    free(mem);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ra_pool_t             pool;
    ra_alloc_t            a;
    ra_ranges_t          *r;
    ra_json_err_t         err;
    const char           *name;
    const ra_interval_t  *iv;
    size_t                n, i, l;
    int                   rc, cloud;

    if (size == 0) {
        return 0;
    }
    name = names[data[0] % FZ_NNAMES];
    cloud = ra_cloud_file(ra_str(name, strlen(name)), NULL);
    ra_pool_init(&pool, &ra_malloc_allocator);
    a.alloc = fz_pool_alloc;
    a.free = NULL;
    a.ctx = &pool;
    r = ra_ranges_create(&a);
    FZ_CHECK(r != NULL);
    memset(&err, 0, sizeof(err));
    rc = ra_ranges_add_file(r, ra_str(name, strlen(name)),
                            ra_str(data + 1, size - 1), &err);
    if (rc != RA_OK) {
        FZ_CHECK(ra_ranges_lists(r) == 0);
        FZ_CHECK(rc == RA_ENOMEM || err.msg != NULL);
        FZ_CHECK(err.offset <= size - 1);
        ra_pool_release(&pool);
        return 0;
    }
    FZ_CHECK(ra_ranges_lists(r) >= 1);
    FZ_CHECK(!cloud || ra_ranges_lists(r) == 1);
    for (l = 0; l < ra_ranges_lists(r); l++) {
        FZ_CHECK(ra_ranges_kind(r, l) == (cloud ? RA_RANGES_CLOUD
                                                : RA_RANGES_CRAWLER));
        iv = ra_ranges_list_intervals(r, l, &n);
        FZ_CHECK(n >= 1);
        for (i = 1; i < n; i++) {
            FZ_CHECK(fz_lt(&iv[i - 1], &iv[i]));
        }
    }
    if (cloud) {
        check_set(r, 0);
    } else {
        FZ_CHECK(ra_cloud_set_size(r, NULL) == 0);
    }
    ra_pool_release(&pool);
    return 0;
}
