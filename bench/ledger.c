/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The ledger filling up: a region of MIB MiB of heap memory formatted as a
 * ledger (as a server's zone is), one site with a robots.txt, and requests
 * from bots with a new User-Agent each ("BenchBot12345/1.0"), every one a
 * violation, fed through ra_audit_request() as the modules feed theirs
 * (one process, no lock).  Prints the throughput per window of requests
 * with how full the stat table is, then the first window's rate (empty)
 * against the rate once the table holds 90 % of what it will hold for
 * such records (the generic bots' area: half the stat table), and after
 * it is full and evicts.
 *
 * Stops after SECONDS when filling is too slow to finish (a ledger whose
 * allocation scans the table).
 *
 * usage: ledger [MIB [SECONDS]]     (defaults: 1024 MiB, 120 s)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ra_audit.h"
#include "ra_crawlers.h"
#include "ra_ledger.h"

#define WINDOW  20000

static double
now_s(void)
{
    struct timespec  ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + ts.tv_nsec / 1e9;
}

int
main(int argc, char **argv)
{
    long                mib = argc > 1 ? atol(argv[1]) : 1024;
    double              limit = argc > 2 ? atof(argv[2]) : 120;
    size_t              size = (size_t) mib << 20;
    void               *region = malloc(size);
    ra_ledger_t         l;
    ra_crawlers_t      *cr;
    ra_crawlers_err_t   cerr;
    ra_audit_conf_t     conf;
    ra_audit_t         *au;
    ra_answer_t         ans;
    ra_request_t        req;
    ra_verdict_t        v;
    ra_totals_t         t;
    char                ua[96];
    const char          robots[] = "User-agent: *\nDisallow: /private\n";
    double              start, t0, t1, empty = 0, at90 = 0, evicting = 0;
    double              fill90 = 0, last = 0;
    uint64_t            i, n;
    uint32_t            most = 0;
    int                 stalled = 0;

    if (region == NULL || ra_ledger_format(region, size, 1) != RA_OK) {
        fprintf(stderr, "ledger: cannot format %ld MiB\n", mib);
        return 1;
    }
    ra_ledger_open(&l, region, NULL);
    cr = ra_crawlers_create(&ra_malloc_allocator);
    if (cr == NULL || ra_crawlers_add_builtin(cr, &cerr) != RA_OK
        || ra_crawlers_compile(cr, &cerr) != RA_OK)
    {
        fprintf(stderr, "ledger: crawler table\n");
        return 1;
    }
    memset(&conf, 0, sizeof(conf));
    conf.alloc = &ra_malloc_allocator;
    conf.crawlers = cr;
    conf.alert_interval = -1;
    au = ra_audit_create(&conf, &l);
    if (au == NULL) {
        return 1;
    }
    memset(&ans, 0, sizeof(ans));
    ans.status = 200;
    ans.body = ra_str(robots, sizeof(robots) - 1);
    ra_audit_robots(au, ra_str("bench.example", sizeof("bench.example") - 1), &ans, 1000);

    ra_ledger_totals(&l, &t);
    printf("ledger of %ld MiB: %u stat records, %u sites\n", mib,
           t.plan.stats, t.plan.sites);
    printf("%12s %12s %12s %10s\n", "requests", "records", "evictions",
           "req/s");

    /* enough new names to fill the table and evict as many again */
    n = (uint64_t) t.plan.stats * 12 / 10 + WINDOW;
    memset(&req, 0, sizeof(req));
    req.site = ra_str("bench.example", sizeof("bench.example") - 1);
    req.addr = ra_str("192.0.2.7", sizeof("192.0.2.7") - 1);
    req.method = ra_str("GET", sizeof("GET") - 1);
    req.uri = ra_str("/private/page", sizeof("/private/page") - 1);
    req.status = 200;
    start = t0 = now_s();
    for (i = 0; i < n; i++) {
        int  len = snprintf(ua, sizeof(ua), "BenchBot%llu/1.0",
                            (unsigned long long) i);

        req.user_agent = ra_str(ua, (size_t) len);
        req.time = 2000 + (int64_t) i;
        ra_audit_request(au, &req, &v);
        if ((i + 1) % WINDOW == 0) {
            double  rate;

            t1 = now_s();
            rate = WINDOW / (t1 - t0);
            last = rate;
            t0 = t1;
            ra_ledger_totals(&l, &t);
            printf("%12llu %12u %12llu %10.0f\n",
                   (unsigned long long) (i + 1), t.stats,
                   (unsigned long long) t.stat_evictions, rate);
            fflush(stdout);
            if (empty == 0) {
                empty = rate;
            }
            if (t.stats > most) {
                most = t.stats;
            } else if (t.stat_evictions && evicting == 0) {
                evicting = rate;        /* a whole window of evictions */
            }
            /* 90 % of what such records may hold: the generic bots'
             * area (half the table) */
            if (at90 == 0 && t.stats >= (uint64_t) t.generic_max * 9 / 10) {
                at90 = rate;
                fill90 = 100.0 * t.stats / t.generic_max;
            }
            if (evicting != 0 && (at90 != 0 || i > n / 2)) {
                break;
            }
            if (t1 - start > limit) {
                stalled = 1;
                break;
            }
        }
    }
    ra_ledger_totals(&l, &t);
    printf("\nempty: %.0f req/s\n", empty);
    if (at90 != 0) {
        printf("at %.0f%% of the generic bots' area: %.0f req/s (%.0f%% of "
               "empty)\n",
               fill90, at90, 100 * at90 / empty);
    }
    if (evicting != 0) {
        printf("area full (%u records, %.0f%% of the table), evicting: "
               "%.0f req/s (%.0f%% of empty)\n", most,
               100.0 * most / t.plan.stats, evicting, 100 * evicting / empty);
    }
    if (stalled) {
        printf("stopped after %.0f s at %u records (%.1f%% of the table): "
               "last window %.0f req/s\n", limit, t.stats,
               100.0 * t.stats / t.plan.stats, last);
    }
    ra_audit_destroy(au);
    free(region);
    return 0;
}
