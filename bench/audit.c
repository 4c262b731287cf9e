/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Verdict cost against the robots.txt versions a site keeps: one site
 * with eight large versions (about 460 KiB each, the newest in force), one with a single small version, the same compliant
 * request on each, through ra_audit_request() as the modules call it.
 * Prints ns/request for each, their ratio, and the bytes this process
 * allocated per request in the steady state (0: no robots.txt body is
 * copied).  For instruction counts that repeat from run to run:
 *   valgrind --tool=callgrind --toggle-collect=bench_small \
 *       build/bench/audit 20000
 * (and --toggle-collect=bench_big), Ir / requests.
 * Usage: audit [REQUESTS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ra_audit.h"

#define T0          1700000000000LL
#define ZONE        (64u * 1024 * 1024)
#define BIG         (460u * 1024)

static size_t  bench_allocs, bench_bytes;

static void *
bench_alloc(void *ctx, size_t n)
{
    (void) ctx;
    bench_allocs++;
    bench_bytes += n;
    return malloc(n ? n : 1);
}

static void
bench_free(void *ctx, void *p)
{
    (void) ctx;
    free(p);
}

static const ra_alloc_t  bench_allocator = { bench_alloc, bench_free, NULL };

static ra_audit_t  *au;

static double
now_ns(void)
{
    struct timespec  ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* a robots.txt of about n bytes: Disallow lines under "*", version v */
static char *
make_robots(size_t n, unsigned v, size_t *len)
{
    char    *p = malloc(n + 128);
    size_t   off;
    unsigned i;

    off = (size_t) sprintf(p, "User-agent: *\n");
    for (i = 0; off < n; i++) {
        off += (size_t) sprintf(p + off, "Disallow: /private/v%u/section-%u/\n",
                                v, i);
    }
    *len = off;
    return p;
}

static void
answer(const char *site, const char *body, size_t len, int64_t t)
{
    ra_answer_t  a;

    memset(&a, 0, sizeof(a));
    a.status = 200;
    a.content_type = (ra_str_t) ra_string("text/plain");
    a.body = ra_str(body, len);
    if (ra_audit_robots(au, ra_str(site, strlen(site)), &a, t) != RA_OK) {
        fprintf(stderr, "bench: ra_audit_robots failed\n");
        exit(1);
    }
}

static int64_t  clock_ms = T0 + 3600 * 1000;

static void
request(const char *site)
{
    ra_request_t  r;
    ra_verdict_t  v;

    memset(&r, 0, sizeof(r));
    r.site = ra_str(site, strlen(site));
    r.time = clock_ms++;
    r.addr = (ra_str_t) ra_string("192.0.2.7");
    r.user_agent = (ra_str_t) ra_string("ExampleBot/1.0 (+https://example.com/bot)");
    r.method = (ra_str_t) ra_string("GET");
    r.uri = (ra_str_t) ra_string("/public/page.html?x=1");
    r.status = 200;
    if (ra_audit_request(au, &r, &v) != RA_OK
        || v.verdict != RA_VERDICT_COMPLIANT)
    {
        fprintf(stderr, "bench: %s: verdict %s\n", site,
                ra_verdict_name(v.verdict));
        exit(1);
    }
}

/* named apart, for callgrind's --toggle-collect */
__attribute__((noinline)) static void
bench_small(long n)
{
    long  i;

    for (i = 0; i < n; i++) {
        request("small.example");
    }
}

__attribute__((noinline)) static void
bench_big(long n)
{
    long  i;

    for (i = 0; i < n; i++) {
        request("big.example");
    }
}

int
main(int argc, char **argv)
{
    long               n = argc > 1 ? atol(argv[1]) : 200000;
    unsigned           v;
    size_t             len;
    char              *body;
    unsigned char     *region = malloc(ZONE);
    ra_ledger_t        ledger;
    ra_crawlers_t     *crawlers;
    ra_crawlers_err_t  cerr;
    ra_audit_conf_t    conf;
    double             t, small_ns, big_ns;
    size_t             a0, b0;

    if (region == NULL || n <= 0
        || ra_ledger_format(region, ZONE, T0) != RA_OK)
    {
        fprintf(stderr, "usage: audit [REQUESTS]\n");
        return 2;
    }
    ra_ledger_open(&ledger, region, NULL);
    crawlers = ra_crawlers_create(&ra_malloc_allocator);
    if (crawlers == NULL || ra_crawlers_add_builtin(crawlers, &cerr) != RA_OK
        || ra_crawlers_compile(crawlers, &cerr) != RA_OK)
    {
        fprintf(stderr, "bench: crawler table\n");
        return 1;
    }
    memset(&conf, 0, sizeof(conf));
    conf.alloc = &bench_allocator;
    conf.crawlers = crawlers;
    conf.alert_interval = -1;
    au = ra_audit_create(&conf, &ledger);
    if (au == NULL) {
        return 1;
    }

    /* eight large versions, one a minute, the last in force */
    for (v = 0; v < RA_VERSIONS; v++) {
        body = make_robots(BIG, v, &len);
        answer("big.example", body, len, T0 + v * 60000);
        free(body);
    }
    body = make_robots(200, 0, &len);
    answer("small.example", body, len, T0);
    free(body);

    /* warm: what a process compiles once */
    for (v = 0; v < 100; v++) {
        request("small.example");
        request("big.example");
    }

    a0 = bench_allocs;
    b0 = bench_bytes;
    t = now_ns();
    bench_small(n);
    small_ns = (now_ns() - t) / n;
    t = now_ns();
    bench_big(n);
    big_ns = (now_ns() - t) / n;

    printf("requests per site:        %ld\n", n);
    printf("1 small version:          %8.0f ns/request\n", small_ns);
    printf("8 x 460 KiB versions:     %8.0f ns/request  (%+.1f%%)\n", big_ns,
           (big_ns / small_ns - 1) * 100);
    printf("steady state allocations: %.2f per request, %.0f bytes per "
           "request\n", (double) (bench_allocs - a0) / (2.0 * n),
           (double) (bench_bytes - b0) / (2.0 * n));

    printf("robots.txt bodies copied: %llu in all (warm-up included)\n",
           (unsigned long long) ra_audit_body_copies(au));

    ra_audit_destroy(au);
    free(region);
    return 0;
}
