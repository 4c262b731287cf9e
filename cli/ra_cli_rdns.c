/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The CLI's reverse DNS and its cache file (ra_cli_rdns.h).  A cache
 * file line: ADDRESS TAB UNIX-SECONDS TAB CONFIRMED(0|1) TAB NAME ("-":
 * no PTR).  Lines that do not read so are skipped.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ra_cli_rdns.h"
#include "ra_rdns.h"

#define RA_CRD_SLOTS  16384         /* addresses remembered (3/4 used) */
#define RA_CRD_FULL   (RA_CRD_SLOTS / 4 * 3)
#define RA_CRD_COMPACT_MS  60000    /* stale answers dropped at most once
                                       a minute, when the table is full */

typedef struct {
    ra_addr_t  a;
    int64_t    at;                  /* Unix ms answered */
    uint8_t    used;
    uint8_t    confirmed;
    uint8_t    failed;              /* no answer: kept RA_RDNS_FAIL_MS,
                                       never written to the file */
    char       name[256];
} ra_crd_slot_t;

struct ra_cli_rdns_s {
    const char     *cmd;
    const char     *cache;
    ra_ares_t      *ares;
    ra_audit_t     *au;
    ra_crd_slot_t  *slot;
    unsigned        n;
    int64_t         compacted;      /* when stale answers were dropped */
    ra_host_t       host;
};

static int64_t
ra_crd_now(void)
{
    struct timespec  ts;

    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static ra_crd_slot_t *
ra_crd_find(ra_cli_rdns_t *d, const ra_addr_t *a, int add)
{
    uint32_t  h = 2166136261u;
    unsigned  i, k;

    for (i = 0; i < 16; i++) {
        h = (h ^ a->b[i]) * 16777619u;
    }
    for (k = 0; k < RA_CRD_SLOTS; k++) {
        i = (h + k) % RA_CRD_SLOTS;
        if (!d->slot[i].used) {
            if (!add || d->n >= RA_CRD_SLOTS / 4 * 3) {
                return NULL;
            }
            d->n++;
            d->slot[i].used = 1;
            d->slot[i].a = *a;
            return &d->slot[i];
        }
        if (memcmp(d->slot[i].a.b, a->b, 16) == 0) {
            return &d->slot[i];
        }
    }
    return NULL;
}

static int
ra_crd_fresh(const ra_crd_slot_t *s, int64_t now)
{
    return now - s->at < (s->failed ? RA_RDNS_FAIL_MS
                          : s->confirmed ? RA_RDNS_TTL_MS : RA_RDNS_NEG_MS);
}

/* Room for another address: the table is not full, or is no longer once
 * its stale answers are dropped (at most once in RA_CRD_COMPACT_MS).  A
 * log of more distinct addresses than the table holds asks no more than
 * it remembers: without room a lookup's answer would be lost, and the
 * address asked again, one lookup at a time, at each of its requests. */
static unsigned
ra_crd_room(ra_cli_rdns_t *d, int64_t now)
{
    ra_crd_slot_t  *keep;
    unsigned        i, n = 0;

    if (d->n < RA_CRD_FULL) {
        return RA_CRD_FULL - d->n;
    }
    if (d->compacted != 0 && now - d->compacted < RA_CRD_COMPACT_MS) {
        return 0;
    }
    d->compacted = now;
    keep = malloc(RA_CRD_FULL * sizeof(*keep));
    if (keep == NULL) {
        return 0;
    }
    for (i = 0; i < RA_CRD_SLOTS; i++) {
        if (d->slot[i].used && ra_crd_fresh(&d->slot[i], now)
            && n < RA_CRD_FULL)
        {
            keep[n++] = d->slot[i];
        }
    }
    memset(d->slot, 0, RA_CRD_SLOTS * sizeof(*d->slot));
    d->n = 0;
    for (i = 0; i < n; i++) {
        ra_crd_slot_t  *s = ra_crd_find(d, &keep[i].a, 1);

        if (s != NULL) {
            *s = keep[i];
        }
    }
    free(keep);
    return RA_CRD_FULL - d->n;
}

static void
ra_crd_load(ra_cli_rdns_t *d)
{
    FILE           *f = fopen(d->cache, "r");
    char            line[512], addr[64], name[256];
    long long       sec;
    int             conf;
    ra_addr_t       a;
    ra_crd_slot_t  *s, tmp;
    int64_t         now = ra_crd_now();

    if (f == NULL) {
        return;                     /* none yet */
    }
    while (fgets(line, sizeof(line), f) != NULL) {
        if (sscanf(line, "%63[^\t]\t%lld\t%d\t%255[^\t\n]", addr, &sec,
                   &conf, name) != 4
            || ra_addr_parse(ra_str(addr, strlen(addr)), &a) != RA_OK)
        {
            continue;
        }
        tmp.at = (int64_t) sec * 1000;
        tmp.confirmed = conf == 1;
        tmp.failed = 0;
        if (!ra_crd_fresh(&tmp, now) || (s = ra_crd_find(d, &a, 1)) == NULL) {
            continue;
        }
        s->at = tmp.at;
        s->confirmed = tmp.confirmed;
        s->failed = 0;
        snprintf(s->name, sizeof(s->name), "%s",
                 strcmp(name, "-") == 0 ? "" : name);
    }
    fclose(f);
}

ra_cli_rdns_t *
ra_cli_rdns_open(const char *cmd, const char *server, const char *cache_file)
{
    ra_cli_rdns_t  *d = calloc(1, sizeof(*d));
    char            err[256];

    if (d == NULL || (d->slot = calloc(RA_CRD_SLOTS, sizeof(*d->slot)))
                     == NULL)
    {
        ra_cli_error(cmd, "out of memory");
        free(d);
        return NULL;
    }
    d->cmd = cmd;
    d->cache = cache_file;
    d->ares = ra_ares_create(server, 2000, err, sizeof(err));
    if (d->ares == NULL) {
        ra_cli_error(cmd, "--resolver: %s", err);
        free(d->slot);
        free(d);
        return NULL;
    }
    if (cache_file != NULL) {
        ra_crd_load(d);
    }
    return d;
}

/* remembers an answer, or a failure for RA_RDNS_FAIL_MS */
static void
ra_crd_store(ra_cli_rdns_t *d, const ra_addr_t *a, ra_ares_result_t *res,
    int64_t now)
{
    ra_crd_slot_t  *s;
    size_t          i;

    if ((s = ra_crd_find(d, a, 1)) == NULL) {
        return;
    }
    s->failed = !res->ok;
    if (!res->ok) {
        s->at = now;
        s->confirmed = 0;
        s->name[0] = '\0';
        return;
    }
    for (i = 0; res->name[i]; i++) {
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                    "0123456789-_.", res->name[i]))
        {
            res->name[0] = '\0';       /* not a host name: none */
            res->nfwd = 0;
            break;
        }
    }
    s->at = now;
    s->confirmed = 0;
    for (i = 0; i < res->nfwd && res->name[0]; i++) {
        if (memcmp(res->fwd[i].b, a->b, 16) == 0) {
            s->confirmed = 1;
        }
    }
    snprintf(s->name, sizeof(s->name), "%s", res->name);
}

void
ra_cli_rdns_resolve(ra_cli_rdns_t *d, const ra_addr_t *a,
    ra_ares_result_t *res)
{
    ra_crd_slot_t  *s = ra_crd_find(d, a, 0);
    int64_t         now = ra_crd_now();

    if (s != NULL && ra_crd_fresh(s, now)) {
        memset(res, 0, sizeof(*res));
        res->ok = !s->failed;
        snprintf(res->name, sizeof(res->name), "%s", s->name);
        if (s->confirmed) {
            res->fwd[0] = *a;
            res->nfwd = 1;
        }
        return;
    }
    if (s == NULL && ra_crd_room(d, now) == 0) {
        memset(res, 0, sizeof(*res));  /* not asked: no answer */
        return;
    }
    ra_ares_lookup(d->ares, a, res);
    ra_crd_store(d, a, res, now);
}

void
ra_cli_rdns_prefetch(ra_cli_rdns_t *d, const ra_addr_t *a, size_t n)
{
    ra_addr_t         *want;
    ra_ares_result_t  *res;
    ra_crd_slot_t     *s;
    size_t             i, k, m = 0, room;
    int64_t            now = ra_crd_now();

    want = malloc(n * sizeof(*want) + 1);
    res = malloc(n * sizeof(*res) + 1);
    if (want == NULL || res == NULL) {
        free(want);
        free(res);
        return;                     /* each is asked when its turn comes */
    }
    room = ra_crd_room(d, now);
    for (i = 0; i < n; i++) {
        s = ra_crd_find(d, &a[i], 0);
        if (s != NULL && ra_crd_fresh(s, now)) {
            continue;
        }
        for (k = 0; k < m && memcmp(want[k].b, a[i].b, 16) != 0; k++) {
            /* void */
        }
        if (k == m && (s != NULL || room > 0)) {
            room -= s == NULL;
            want[m++] = a[i];
        }
    }
    if (ra_ares_lookup_many(d->ares, want, m, res, RA_CLI_RDNS_INFLIGHT)
        == RA_OK)
    {
        for (i = 0; i < m; i++) {
            ra_crd_store(d, &want[i], &res[i], now);
        }
    }
    free(want);
    free(res);
}

static int
ra_crd_start(const ra_host_t *h, void *where, const uint8_t addr[16])
{
    ra_cli_rdns_t     *d = h->ctx;
    ra_ares_result_t   res;
    ra_addr_t          a;

    (void) where;
    if (d->au == NULL) {
        return RA_ERROR;
    }
    memcpy(a.b, addr, 16);
    ra_cli_rdns_resolve(d, &a, &res);
    ra_audit_rdns_done(d->au, addr, res.ok,
                       ra_str(res.name, strlen(res.name)), res.fwd,
                       res.nfwd);
    return RA_OK;
}

void
ra_cli_rdns_host(ra_cli_rdns_t *d, ra_host_t *h)
{
    *h = ra_cli_host;
    h->ctx = d;
    h->rdns_start = ra_crd_start;
}

void
ra_cli_rdns_bind(ra_cli_rdns_t *d, ra_audit_t *au)
{
    d->au = au;
}

/* The answers still fresh, one a line: address, time, confirmed, name */
static void
ra_crd_cache_text(const ra_cli_rdns_t *d, ra_buf_t *b)
{
    char       text[INET6_ADDRSTRLEN];
    unsigned   i;
    int64_t    now = ra_crd_now();

    for (i = 0; i < RA_CRD_SLOTS; i++) {
        const ra_crd_slot_t  *s = &d->slot[i];

        if (!s->used || s->failed || !ra_crd_fresh(s, now)) {
            continue;
        }
        if (ra_addr_is_v4(&s->a)) {
            inet_ntop(AF_INET, s->a.b + 12, text, sizeof(text));
        } else {
            inet_ntop(AF_INET6, s->a.b, text, sizeof(text));
        }
        ra_buf_printf(b, "%s\t%lld\t%d\t%s\n", text,
                      (long long) (s->at / 1000), s->confirmed,
                      s->name[0] ? s->name : "-");
    }
}

int
ra_cli_rdns_close(ra_cli_rdns_t *d)
{
    char       why[512];
    ra_buf_t   b;
    int        rc = 0;

    if (d == NULL) {
        return 0;
    }
    if (d->cache != NULL) {
        /* rewritten whole, mode 0600: a reader never sees a part */
        ra_buf_init(&b, &ra_malloc_allocator, 4096, 0);
        ra_crd_cache_text(d, &b);
        if (b.failed) {
            ra_cli_error(d->cmd, "--rdns-cache %s: out of memory", d->cache);
            rc = -1;
        } else if (ra_cli_replace(d->cache, b.data, b.len, 0600, why,
                                  sizeof(why)) != 0)
        {
            ra_cli_error(d->cmd, "--rdns-cache %s: %s", d->cache, why);
            rc = -1;
        }
        ra_buf_release(&b);
    }
    ra_ares_destroy(d->ares);
    free(d->slot);
    free(d);
    return rc;
}
