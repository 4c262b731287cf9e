/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The status page over a large zone: a ledger of
 * ZONE MiB holding RECORDS crawler records with unique names over 100
 * sites (generic bots up to their half of the table, table crawlers after
 * them; one in ten with a violation), then each format
 * of ra_status_page() as the modules call it: bytes, milliseconds, and
 * the most memory the page held at once (what a client that does not read
 * keeps in a worker).
 * Usage: status [ZONE_MB [RECORDS]]   (defaults: 1024 and 100000; records
 * are capped at the zone's capacity)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ra_crawlers.h"
#include "ra_http.h"
#include "ra_status.h"

#define T0      1700000000000LL
#define SITES   100

/* an allocator that knows the most it ever held */
static size_t  held, peak;

static void *
peak_alloc(void *ctx, size_t n)
{
    size_t  *p = malloc(n + 16);

    (void) ctx;
    if (p == NULL) {
        return NULL;
    }
    *p = n;
    held += n;
    if (held > peak) {
        peak = held;
    }
    return (unsigned char *) p + 16;
}

static void
peak_free(void *ctx, void *q)
{
    size_t  *p = (size_t *) ((unsigned char *) q - 16);

    (void) ctx;
    held -= *p;
    free(p);
}

static const ra_alloc_t  peak_allocator = { peak_alloc, peak_free, NULL };

static double
now_ms(void)
{
    struct timespec  ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int
main(int argc, char **argv)
{
    static const char  *formats[] = { "format=json", "", "format=prometheus",
                                      "format=text" };
    size_t              zone = (size_t) (argc > 1 ? atol(argv[1]) : 1024)
                               << 20;
    long                records = argc > 2 ? atol(argv[2]) : 100000, i;
    unsigned char      *region;
    ra_ledger_t         l;
    ra_ledger_plan_t    plan;
    ra_stat_key_t       key;
    ra_violation_t      vio;
    ra_status_page_t    page;
    uint32_t            sid, tid, generic = 0;
    ra_totals_t         tot;
    char                site[32], name[32];
    double              t;
    unsigned            f;

    if (ra_ledger_plan(zone, &plan) != RA_OK || records <= 0) {
        fprintf(stderr, "usage: status [ZONE_MB [RECORDS]]\n");
        return 2;
    }
    if (records > (long) plan.stats) {
        records = plan.stats;
    }
    region = malloc(zone);
    if (region == NULL || ra_ledger_format(region, zone, T0) != RA_OK) {
        return 1;
    }
    ra_ledger_open(&l, region, NULL);
    ra_ledger_totals(&l, &tot);

    t = now_ms();
    for (i = 0; i < records; i++) {
        snprintf(site, sizeof(site), "site%ld.example", i % SITES);
        snprintf(name, sizeof(name), "bot%ld", i);
        memset(&key, 0, sizeof(key));
        key.name = ra_str(name, strlen(name));
        key.token = key.name;
        /* generic bots fill their area (half the table), table crawlers
         * the rest: a full zone, as the ledger allows one */
        key.kind = generic < tot.generic_max ? RA_UA_GENERIC : RA_UA_KNOWN;
        generic += key.kind == RA_UA_GENERIC;
        sid = ra_ledger_site_locked(&l, ra_str(site, strlen(site)), T0 + i);
        tid = ra_ledger_stat_locked(&l, sid, &key, T0 + i);
        ra_ledger_count_locked(&l, sid, tid, RA_CNT_REQUESTS);
        if (i % 10 == 0) {
            ra_ledger_count_locked(&l, sid, tid, RA_CNT_VIOLATION);
            memset(&vio, 0, sizeof(vio));
            vio.time = T0 + i;
            vio.verdict = 3;
            vio.name_len = (uint8_t) ra_str_cut(vio.name, RA_NAME_MAX,
                                                key.name);
            vio.uri_len = (uint16_t) ra_str_cut(vio.uri, RA_URI_MAX,
                                                ra_str("/private/x", 10));
            vio.uri_full_len = vio.uri_len;
            ra_ledger_violation_locked(&l, sid, &vio);
        } else {
            ra_ledger_count_locked(&l, sid, tid, RA_CNT_COMPLIANT);
        }
    }
    printf("zone %zu MiB: %ld crawler records of %u, %d sites (filled in "
           "%.1f s)\n", zone >> 20, records, plan.stats, SITES,
           (now_ms() - t) / 1e3);

    for (f = 0; f < sizeof(formats) / sizeof(formats[0]); f++) {
        held = peak = 0;
        t = now_ms();
        ra_status_page(&l, NULL, ra_str("GET", 3),
                       ra_str(formats[f], strlen(formats[f])),
                       T0 + records + 1, &peak_allocator, &page);
        t = now_ms() - t;
        printf("%-20s status %d: %10zu bytes  %8.1f ms  peak memory "
               "%6.1f MiB\n", *formats[f] ? formats[f] : "html", page.status,
               page.body.len, t, peak / 1048576.0);
        ra_status_page_free(&page);
    }
    free(region);
    return 0;
}
