/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The reverse-DNS result cache: a set-associative table in the ledger's
 * region (ra_rdns.h says the rules).
 */
#include "ra_rdns.h"

#include <string.h>

#define ra_rd_add(p, n)   __atomic_fetch_add(p, n, __ATOMIC_RELAXED)
#define ra_rd_read(p)     __atomic_load_n(p, __ATOMIC_RELAXED)
#define ra_rd_set(p, v)   __atomic_store_n(p, v, __ATOMIC_RELAXED)

#define RA_RDNS_HEAD  ((sizeof(ra_rdns_head_t) + 63) & ~(size_t) 63)

static ra_rdns_entry_t *
ra_rd_entries(void *area)
{
    return (ra_rdns_entry_t *) ((unsigned char *) area + RA_RDNS_HEAD);
}

size_t
ra_rdns_area_size(uint32_t n)
{
    n -= n % RA_RDNS_WAYS;
    return RA_RDNS_HEAD + (size_t) n * sizeof(ra_rdns_entry_t);
}

void
ra_rdns_format(void *area, uint32_t n)
{
    ra_rdns_head_t  *h = area;

    n -= n % RA_RDNS_WAYS;
    memset(area, 0, ra_rdns_area_size(n));
    h->entries = n > RA_RDNS_MAX ? RA_RDNS_MAX : n;
}

static int64_t
ra_rd_ms(int64_t v, int64_t dflt)
{
    return v > 0 ? v : dflt;
}

/* FNV-1a over the 16 bytes: the set */
static uint32_t
ra_rd_set_of(const ra_rdns_head_t *h, const ra_addr_t *a)
{
    uint32_t  x = 2166136261u;
    size_t    i;

    for (i = 0; i < 16; i++) {
        x = (x ^ a->b[i]) * 16777619u;
    }
    return x % (h->entries / RA_RDNS_WAYS);
}

/* an entry's state, read whole: a torn or unknown one is free */
static unsigned
ra_rd_state(const ra_rdns_entry_t *e)
{
    unsigned  s = ra_rd_read(&e->state);

    return s <= RA_RDNS_FAILED ? s : RA_RDNS_FREE;
}

static ra_rdns_entry_t *
ra_rd_lookup(void *area, const ra_addr_t *a, ra_rdns_entry_t **set)
{
    ra_rdns_head_t   *h = area;
    ra_rdns_entry_t  *e;
    unsigned          i;

    if (h->entries < RA_RDNS_WAYS || h->entries > RA_RDNS_MAX) {
        return NULL;
    }
    e = ra_rd_entries(area) + (size_t) ra_rd_set_of(h, a) * RA_RDNS_WAYS;
    *set = e;
    for (i = 0; i < RA_RDNS_WAYS; i++) {
        if (ra_rd_state(&e[i]) != RA_RDNS_FREE
            && memcmp(e[i].addr, a->b, 16) == 0)
        {
            return &e[i];
        }
    }
    return NULL;
}

/* the entry a new lookup may take in set, or NULL */
static ra_rdns_entry_t *
ra_rd_victim(ra_rdns_entry_t *set, int64_t now)
{
    ra_rdns_entry_t  *best = NULL;
    unsigned          i, s;

    for (i = 0; i < RA_RDNS_WAYS; i++) {
        s = ra_rd_state(&set[i]);
        if (s == RA_RDNS_FREE || set[i].expires <= now) {
            return &set[i];
        }
    }
    for (i = 0; i < RA_RDNS_WAYS; i++) {
        s = ra_rd_state(&set[i]);
        if (s == RA_RDNS_PENDING || set[i].trusted) {
            continue;
        }
        if (best == NULL || set[i].at < best->at) {
            best = &set[i];
        }
    }
    return best;
}

/* a budget's second: the first lookup of a second resets it */
static int
ra_rd_budget(ra_rdns_head_t *h, uint32_t budget, int64_t now)
{
    int64_t  sec = now / 1000;

    if (h->budget_second != sec) {
        h->budget_second = sec;
        ra_rd_set(&h->budget_used, 0);
    }
    if (h->budget_used >= budget) {
        return 0;
    }
    ra_rd_set(&h->budget_used, h->budget_used + 1);
    return 1;
}

int
ra_rdns_find_locked(void *area, const ra_rdns_conf_t *conf,
    const ra_addr_t *a, int64_t now, ra_rdns_answer_t *ans)
{
    ra_rdns_head_t   *h = area;
    ra_rdns_entry_t  *set = NULL, *e;
    unsigned          s;
    uint32_t          budget = conf && conf->budget ? conf->budget
                                                    : RA_RDNS_BUDGET;

    e = ra_rd_lookup(area, a, &set);
    if (set == NULL) {
        ra_rd_add(&h->refused, 1);
        return RA_RDNS_REFUSED;
    }
    if (e != NULL) {
        s = ra_rd_state(e);
        if (s == RA_RDNS_PENDING && e->expires <= now) {
            /* the host never answered: a failed lookup */
            e->expires = now + ra_rd_ms(conf ? conf->fail_ms : 0,
                                        RA_RDNS_FAIL_MS);
            e->at = now;
            ra_rd_set(&e->state, (uint8_t) RA_RDNS_FAILED);
            ra_rd_add(&h->failed, 1);
            return RA_RDNS_WAIT;
        }
        if (e->expires > now) {
            if (s != RA_RDNS_ANSWERED) {
                return RA_RDNS_WAIT;
            }
            ans->name_len = e->name_len;
            memcpy(ans->name, e->name, e->name_len);
            ans->name[e->name_len] = '\0';
            ans->confirmed = e->confirmed != 0;
            return RA_RDNS_HIT;
        }
    }
    if (e == NULL) {
        e = ra_rd_victim(set, now);
    }
    if (e == NULL || !ra_rd_budget(h, budget, now)) {
        ra_rd_add(&h->refused, 1);
        return RA_RDNS_REFUSED;
    }
    ra_rd_set(&e->state, (uint8_t) RA_RDNS_FREE);
    memcpy(e->addr, a->b, 16);
    e->at = now;
    e->expires = now + ra_rd_ms(conf ? conf->pending_ms : 0,
                                RA_RDNS_PENDING_MS);
    e->confirmed = 0;
    e->trusted = 0;
    e->name_len = 0;
    ra_rd_set(&e->state, (uint8_t) RA_RDNS_PENDING);
    ra_rd_add(&h->lookups, 1);
    return RA_RDNS_START;
}

static int
ra_rd_hostname(ra_str_t n)
{
    size_t  i;
    int     c;

    if (n.len == 0 || n.len > RA_RDNS_NAME_MAX) {
        return 0;
    }
    for (i = 0; i < n.len; i++) {
        c = n.data[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.'))
        {
            return 0;
        }
    }
    return 1;
}

int
ra_rdns_ptr_forward(ra_str_t name)
{
    ra_addr_t  a;

    return ra_rd_hostname(name) && ra_addr_parse(name, &a) != RA_OK;
}

int
ra_rdns_done_locked(void *area, const ra_rdns_conf_t *conf,
    const ra_addr_t *a, int ok, ra_str_t ptr_name, const ra_addr_t *forward,
    size_t nforward, int trusted, int64_t now)
{
    ra_rdns_head_t   *h = area;
    ra_rdns_entry_t  *set = NULL, *e;
    size_t            i;
    int               confirmed = 0;

    e = ra_rd_lookup(area, a, &set);
    if (e == NULL || ra_rd_state(e) != RA_RDNS_PENDING) {
        return RA_ERROR;
    }
    if (ptr_name.len && ptr_name.data[ptr_name.len - 1] == '.') {
        ptr_name.len--;
    }
    if (!ra_rd_hostname(ptr_name)) {
        ptr_name.len = 0;
    }
    for (i = 0; ok && ptr_name.len && i < nforward; i++) {
        if (memcmp(forward[i].b, a->b, 16) == 0) {
            confirmed = 1;
        }
    }
    trusted = trusted && confirmed;

    ra_rd_set(&e->state, (uint8_t) RA_RDNS_FREE);
    e->at = now;
    e->confirmed = (uint8_t) confirmed;
    e->trusted = (uint8_t) trusted;
    e->name_len = (uint8_t) (ok ? ptr_name.len : 0);
    if (e->name_len) {
        memcpy(e->name, ptr_name.data, e->name_len);
    }
    if (!ok) {
        e->expires = now + ra_rd_ms(conf ? conf->fail_ms : 0,
                                    RA_RDNS_FAIL_MS);
        ra_rd_set(&e->state, (uint8_t) RA_RDNS_FAILED);
        ra_rd_add(&h->failed, 1);
        return RA_OK;
    }
    e->expires = now + (trusted ? ra_rd_ms(conf ? conf->ttl_ms : 0,
                                           RA_RDNS_TTL_MS)
                                : ra_rd_ms(conf ? conf->neg_ms : 0,
                                           RA_RDNS_NEG_MS));
    ra_rd_set(&e->state, (uint8_t) RA_RDNS_ANSWERED);
    ra_rd_add(trusted ? &h->verified : &h->failed, 1);
    return RA_OK;
}

int
ra_rdns_trusted(const ra_crawlers_t *t, ra_str_t name)
{
    const ra_crawler_t  *c;
    ra_addr_t            self;
    size_t               i, n;

    /* the check itself with a forward address that matches: the name
     * decides */
    memset(&self, 0, sizeof(self));
    n = t ? ra_crawlers_count(t) : 0;
    for (i = 0; i < n && name.len; i++) {
        c = ra_crawlers_get(t, i);
        if (ra_verify_has_rdns(c)
            && ra_verify_rdns_check(c, &self, name, &self, 1)
               == RA_VERIFY_VERIFIED)
        {
            return 1;
        }
    }
    return 0;
}

void
ra_rdns_counts(const void *area, int64_t now, ra_rdns_counts_t *c)
{
    const ra_rdns_head_t   *h = area;
    const ra_rdns_entry_t  *e;
    uint32_t                i, n;
    unsigned                s;

    memset(c, 0, sizeof(*c));
    n = h->entries;
    if (n < RA_RDNS_WAYS || n > RA_RDNS_MAX) {
        return;
    }
    c->entries = n;
    c->lookups = ra_rd_read(&h->lookups);
    c->verified = ra_rd_read(&h->verified);
    c->failed = ra_rd_read(&h->failed);
    c->refused = ra_rd_read(&h->refused);
    e = ra_rd_entries((void *) (uintptr_t) area);
    for (i = 0; i < n; i++) {
        s = ra_rd_state(&e[i]);
        if (s == RA_RDNS_PENDING && e[i].expires > now) {
            c->pending++;
        } else if (s == RA_RDNS_ANSWERED && e[i].expires > now) {
            c->cached++;
        }
    }
}
