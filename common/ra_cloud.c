/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The cloud lookup (ra_cloud.h): every loaded cloud list merged into one
 * sorted array of non-overlapping intervals, each with the provider it
 * came from, so that a request costs one binary search
 * (ra_intervals_find(), the crawler lists' own) whatever the number of
 * providers.  Built once when the configuration is read, in one block of
 * memory its caller gives and sizes with ra_cloud_set_size().
 */
#include <string.h>

#include "ra_cloud.h"

struct ra_cloud_set_s {
    size_t          n;                      /* intervals */
    size_t          nproviders;
    ra_interval_t  *iv;                     /* n, after this header */
    uint8_t        *prov;                   /* n provider indices */
    uint8_t         plen[RA_RANGES_MAX_LISTS];
    char            pname[RA_RANGES_MAX_LISTS][RA_CLOUD_NAME_MAX];
};

/* the header rounded up so that the intervals after it are aligned */
#define RA_CLOUD_HEAD \
    ((sizeof(ra_cloud_set_t) + sizeof(uint64_t) - 1) \
     & ~(sizeof(uint64_t) - 1))

/* 1 when list is a cloud list and the latest of its name (a reload
 * appends lists, and the latest of a name is the one in force) */
static int
ra_cloud_list_used(const ra_ranges_t *r, size_t list)
{
    return ra_ranges_kind(r, list) == RA_RANGES_CLOUD
           && ra_ranges_find(r, ra_ranges_name(r, list)) == (int) list;
}

size_t
ra_cloud_set_size(const ra_ranges_t *r, size_t *nintervals)
{
    size_t  i, n = 0, lists = 0;

    for (i = 0; i < ra_ranges_lists(r); i++) {
        if (ra_cloud_list_used(r, i)) {
            n += ra_ranges_intervals(r, i);
            lists++;
        }
    }
    if (nintervals != NULL) {
        *nintervals = n;
    }
    if (lists == 0 || n > RA_CLOUD_MAX_INTERVALS) {
        return 0;
    }
    return RA_CLOUD_HEAD + n * (sizeof(ra_interval_t) + 1);
}

/* a < b, for 128-bit addresses as two halves */
static int
ra_cloud_lt(uint64_t ah, uint64_t al, uint64_t bh, uint64_t bl)
{
    return ah < bh || (ah == bh && al < bl);
}

/* The provider index of a list, its name added when new. */
static uint8_t
ra_cloud_provider_of(ra_cloud_set_t *s, const ra_ranges_t *r, size_t list)
{
    ra_str_t  p;
    size_t    i;

    (void) ra_cloud_file(ra_ranges_name(r, list), &p);
    for (i = 0; i < s->nproviders; i++) {
        if (ra_strcaseeq(ra_str(s->pname[i], s->plen[i]), p)) {
            return (uint8_t) i;
        }
    }
    memcpy(s->pname[i], p.data, p.len);     /* p.len <= RA_CLOUD_NAME_MAX */
    s->plen[i] = (uint8_t) p.len;
    s->nproviders++;
    return (uint8_t) i;
}

/* Appends cand (of provider p) after the set's last interval: merged
 * into it when the same provider's and touching, cut to start after it
 * when another's overlaps it, dropped when it holds nothing new. */
static void
ra_cloud_append(ra_cloud_set_t *s, ra_interval_t cand, uint8_t p)
{
    ra_interval_t  *last;
    uint64_t        nh, nl;

    if (s->n > 0) {
        last = &s->iv[s->n - 1];
        if (last->hi_hi == ~0ULL && last->hi_lo == ~0ULL) {
            return;                     /* nothing comes after it */
        }
        nl = last->hi_lo + 1;           /* the address after it */
        nh = last->hi_hi + (nl == 0);
        if (ra_cloud_lt(cand.lo_hi, cand.lo_lo, nh, nl)
            || (s->prov[s->n - 1] == p && cand.lo_hi == nh
                && cand.lo_lo == nl))
        {
            if (!ra_cloud_lt(last->hi_hi, last->hi_lo, cand.hi_hi,
                             cand.hi_lo))
            {
                return;                 /* within it */
            }
            if (s->prov[s->n - 1] == p) {
                last->hi_hi = cand.hi_hi;
                last->hi_lo = cand.hi_lo;
                return;
            }
            cand.lo_hi = nh;
            cand.lo_lo = nl;
        }
    }
    s->iv[s->n] = cand;
    s->prov[s->n] = p;
    s->n++;
}

ra_cloud_set_t *
ra_cloud_set_build(void *mem, size_t size, const ra_ranges_t *r)
{
    ra_cloud_set_t       *s = mem;
    const ra_interval_t  *iv[RA_RANGES_MAX_LISTS];
    size_t                n[RA_RANGES_MAX_LISTS], pos[RA_RANGES_MAX_LISTS];
    uint8_t               prov[RA_RANGES_MAX_LISTS];
    size_t                total, need, k = 0, i, best;

    need = ra_cloud_set_size(r, &total);
    if (need == 0 || size < need || mem == NULL) {
        return NULL;
    }
    memset(s, 0, sizeof(*s));
    s->iv = (ra_interval_t *) (void *) ((unsigned char *) mem
                                        + RA_CLOUD_HEAD);
    s->prov = (uint8_t *) (s->iv + total);
    for (i = 0; i < ra_ranges_lists(r); i++) {
        if (ra_cloud_list_used(r, i)) {
            iv[k] = ra_ranges_list_intervals(r, i, &n[k]);
            prov[k] = ra_cloud_provider_of(s, r, i);
            pos[k] = 0;
            k++;
        }
    }
    /* a k-way merge of the sorted lists: at most 64 of them, so the
     * smallest next start is found by looking at each */
    for (;;) {
        best = k;
        for (i = 0; i < k; i++) {
            if (pos[i] < n[i]
                && (best == k
                    || ra_cloud_lt(iv[i][pos[i]].lo_hi, iv[i][pos[i]].lo_lo,
                                   iv[best][pos[best]].lo_hi,
                                   iv[best][pos[best]].lo_lo)))
            {
                best = i;
            }
        }
        if (best == k) {
            break;
        }
        ra_cloud_append(s, iv[best][pos[best]], prov[best]);
        pos[best]++;
    }
    return s;
}

int
ra_ranges_cloud(const ra_cloud_set_t *set, const ra_addr_t *a)
{
    size_t  i;

    if (set == NULL) {
        return -1;
    }
    i = ra_intervals_find(set->iv, set->n, a);
    return i == 0 ? -1 : set->prov[i - 1];
}

ra_str_t
ra_cloud_provider(const ra_cloud_set_t *set, int provider)
{
    if (set == NULL || provider < 0 || (size_t) provider >= set->nproviders) {
        return ra_str(NULL, 0);
    }
    return ra_str(set->pname[provider], set->plen[provider]);
}

size_t
ra_cloud_providers(const ra_cloud_set_t *set)
{
    return set != NULL ? set->nproviders : 0;
}

size_t
ra_cloud_intervals(const ra_cloud_set_t *set)
{
    return set != NULL ? set->n : 0;
}
