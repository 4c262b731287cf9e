/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The status page over a full zone: every crawler
 * record of a 64 MiB ledger in use, spread over
 * more sites than a page shows.  What a view copies is bounded by its
 * limits, not by the zone (the records and violations copied are
 * counted); it keeps each site's busiest records and, besides them, those
 * with violations; the page stays under its cap and says what it left
 * out; ?limit= and ?site= narrow it; Prometheus stays complete.  Sizes
 * and counts are asserted, never times.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ra_test.h"
#include "ra_crawlers.h"
#include "ra_http.h"
#include "ra_status.h"
#include "ra_json.h"
#include "ra_report.h"

#define S(lit)  ((ra_str_t) ra_string(lit))
#define T0      1700000000000LL
#define SITES   120             /* more than RA_STATUS_SITES */

typedef struct {
    unsigned char  *region;
    ra_ledger_t     l;
    uint32_t        records;    /* in use: the table's capacity */
    uint32_t        generic_end;    /* records from here on are table
                                       crawlers (generic bots' area full) */
} full_t;

/* Record i belongs to site i % SITES as its j-th (j = i / SITES): j 0 is
 * the site's known crawler "TestBot", the others bots "botI", generic
 * while their area has room (i < generic_end), then table crawlers;
 * 1 + j requests (unique within a site), and one violation when
 * j % 7 == 3. */
static uint32_t
site_records(const full_t *f, uint32_t s)
{
    return f->records / SITES + (s < f->records % SITES);
}

static int
is_violator(uint32_t j)
{
    return j % 7 == 3;
}

static void
fill(full_t *f, size_t size)
{
    ra_ledger_plan_t  plan;
    ra_stat_key_t     key;
    ra_violation_t    vio;
    uint32_t          i, j, k, sid, tid, generic = 0;
    char              site[32], name[32];
    ra_totals_t       t;

    assert_int_equal(ra_ledger_plan(size, &plan), RA_OK);
    f->region = malloc(size);
    assert_non_null(f->region);
    assert_int_equal(ra_ledger_format(f->region, size, T0), RA_OK);
    ra_ledger_open(&f->l, f->region, NULL);
    f->records = plan.stats;
    ra_ledger_totals(&f->l, &t);    /* generic bots fill their area, table
                                       crawlers the rest: a full table */

    for (i = 0; i < f->records; i++) {
        j = i / SITES;
        snprintf(site, sizeof(site), "site%u.example", i % SITES);
        memset(&key, 0, sizeof(key));
        if (j == 0) {
            key.name = S("TestBot");
            key.kind = RA_UA_KNOWN;
            key.category = RA_CAT_SEARCH;
        } else {
            snprintf(name, sizeof(name), "bot%u", i);
            key.name = ra_str(name, strlen(name));
            key.kind = generic < t.generic_max ? RA_UA_GENERIC : RA_UA_KNOWN;
            key.token = key.name;
            generic += key.kind == RA_UA_GENERIC;
            if (key.kind == RA_UA_GENERIC) {
                f->generic_end = i + 1;
            }
        }
        /* table crawlers verified: their class is the one generic
         * bots never evict */
        key.verification = key.kind == RA_UA_KNOWN ? RA_VERIFY_VERIFIED
                                                   : RA_VERIFY_UNVERIFIABLE;
        sid = ra_ledger_site_locked(&f->l, ra_str(site, strlen(site)),
                                    T0 + i);
        tid = ra_ledger_stat_locked(&f->l, sid, &key, T0 + i);
        for (k = 0; k < 1 + j; k++) {
            ra_ledger_count_locked(&f->l, sid, tid, RA_CNT_REQUESTS);
        }
        if (is_violator(j)) {
            ra_ledger_count_locked(&f->l, sid, tid, RA_CNT_VIOLATION);
            memset(&vio, 0, sizeof(vio));
            vio.time = T0 + i;
            vio.verdict = 3;        /* RA_VERDICT_VIOLATION */
            vio.name_len = (uint8_t) ra_str_cut(vio.name, RA_NAME_MAX,
                                                key.name);
            vio.uri_len = (uint16_t) ra_str_cut(vio.uri, RA_URI_MAX,
                                                S("/private/x"));
            vio.uri_full_len = vio.uri_len;
            ra_ledger_violation_locked(&f->l, sid, &vio);
        } else {
            ra_ledger_count_locked(&f->l, sid, tid, RA_CNT_COMPLIANT);
        }
    }
    ra_ledger_totals(&f->l, &t);
    assert_int_equal(t.stats, plan.stats);          /* full */
    assert_int_equal(t.stat_evictions, 0);
    assert_int_equal(t.sites, SITES);
}

static size_t
zone_size(void)
{
    return 64u << 20;   /* ~9,500 records: more than RA_STATUS_LIMIT a site */
}

/* Does the buffer (not NUL-terminated) hold s?  Where, or NULL. */
static const char *
has(const ra_buf_t *b, const char *s)
{
    size_t  i, n = strlen(s);

    for (i = 0; b->data != NULL && i + n <= b->len; i++) {
        if (memcmp(b->data + i, s, n) == 0) {
            return (const char *) b->data + i;
        }
    }
    return NULL;
}

static uint32_t
site_index(const ra_site_t *s)
{
    unsigned  n = 0;

    assert_int_equal(sscanf(s->name, "site%u", &n), 1);
    assert_true(n < SITES);
    return n;
}

/* the default view: bounded copies, the right records */
static void
view_copies_what_it_shows(void **state)
{
    full_t              f;
    ra_snapshot_view_t  view;
    ra_snapshot_t       snap;
    uint32_t            r, i, n, s, busy, worst, want_worst, top_min;
    uint32_t            vios;

    (void) state;
    fill(&f, zone_size());
    ra_status_view((ra_str_t) { 0, NULL }, 0, RA_REPORT_JSON, &view);
    assert_int_equal(view.max_sites, RA_STATUS_SITES);
    assert_int_equal(view.max_crawlers, RA_STATUS_LIMIT);
    assert_int_equal(ra_ledger_snapshot_view(&f.l, &ra_malloc_allocator, 0,
                                             &view, &snap), RA_OK);

    assert_int_equal(snap.nsites, RA_STATUS_SITES);
    assert_int_equal(snap.sites_total, SITES);
    assert_true(snap.truncated);
    /* the work bound: records and violations copied */
    assert_true(snap.nstats <= RA_STATUS_SITES
                               * (RA_STATUS_LIMIT + RA_STATUS_VIOLATORS));
    assert_true(snap.nstats < f.records / 2);
    assert_true(snap.nviolations <= RA_STATUS_SITES * RA_STATUS_LIMIT);

    for (r = 0; r < snap.nsites; r++) {
        s = site_index(&snap.sites[r]);
        n = site_records(&f, s);
        assert_int_equal(snap.sites[r].stats_total, n);
        /* the busiest: j >= n - LIMIT, i.e. requests > n - LIMIT */
        top_min = n - RA_STATUS_LIMIT + 1;
        /* besides them, the violators (all: fewer than the cap) */
        for (want_worst = 0, i = 0; i + RA_STATUS_LIMIT < n; i++) {
            want_worst += is_violator(i);
        }
        assert_true(want_worst <= RA_STATUS_VIOLATORS);
        busy = worst = vios = 0;
        for (i = 0; i < snap.nstats; i++) {
            const ra_stat_t  *st = &snap.stats[i];

            if (st->site != r + 1) {
                continue;
            }
            if (st->counters[RA_CNT_REQUESTS] >= top_min) {
                busy++;
            } else {
                assert_int_equal(st->counters[RA_CNT_VIOLATION], 1);
                worst++;
            }
        }
        assert_int_equal(busy, RA_STATUS_LIMIT);
        assert_int_equal(worst, want_worst);
        for (i = 0; i < snap.nviolations; i++) {
            vios += snap.violations[i].site == r + 1;
        }
        assert_true(vios <= RA_STATUS_LIMIT);
        assert_true(vios <= snap.sites[r].violations_total);
    }
    /* grouped by site, busiest first */
    for (i = 1; i < snap.nstats; i++) {
        assert_true(snap.stats[i - 1].site < snap.stats[i].site
                    || (snap.stats[i - 1].site == snap.stats[i].site
                        && snap.stats[i - 1].counters[RA_CNT_REQUESTS]
                           >= snap.stats[i].counters[RA_CNT_REQUESTS]));
    }
    ra_snapshot_free(&snap, &ra_malloc_allocator);
    free(f.region);
}

static int
json_any(void *ctx, unsigned event, ra_str_t raw, unsigned depth)
{
    (void) ctx;
    (void) event;
    (void) raw;
    (void) depth;
    return 0;
}

static void
page(full_t *f, const char *query, ra_status_page_t *p)
{
    ra_status_page(&f->l, NULL, S("GET"), ra_str(query, strlen(query)),
                   T0 + 1000000, &ra_malloc_allocator, p);
}

/* a server's own status page (mod_status): the totals, or the fragment
 * with the most recently seen sites, bounded as the page is */
static void
server_status_section(void **state)
{
    full_t       f;
    ra_buf_t     b, kv;
    ra_totals_t  t;
    uint32_t     rows = 0;
    const char  *at;

    (void) state;
    fill(&f, 16u << 20);

    /* the short form is the totals' lines */
    ra_buf_init(&b, &ra_malloc_allocator, 0, RA_STATUS_PAGE_MAX);
    assert_int_equal(ra_status_section(&f.l, 1, 0, T0, &ra_malloc_allocator,
                                       &b), RA_OK);
    ra_ledger_totals(&f.l, &t);
    ra_buf_init(&kv, &ra_malloc_allocator, 0, 0);
    ra_report_status_kv(&t, &kv);
    assert_false(kv.failed);
    assert_int_equal(b.len, kv.len);
    assert_memory_equal(b.data, kv.data, kv.len);
    ra_buf_release(&kv);
    ra_buf_release(&b);

    /* the HTML fragment shows as many sites as the page does */
    ra_buf_init(&b, &ra_malloc_allocator, 0, RA_STATUS_PAGE_MAX);
    assert_int_equal(ra_status_section(&f.l, 0, 0, T0, &ra_malloc_allocator,
                                       &b), RA_OK);
    ra_buf_ch(&b, '\0');
    assert_false(b.failed);
    assert_non_null(strstr((char *) b.data, "<h2>robots-audit</h2>"));
    for (at = strstr((char *) b.data, "<tr><td>"); at != NULL;
         at = strstr(at + 1, "<tr><td>"))
    {
        rows++;
    }
    assert_int_equal(rows, RA_STATUS_SITES);    /* of SITES */
    ra_buf_release(&b);

    ra_buf_init(&b, &ra_malloc_allocator, 0, RA_STATUS_PAGE_MAX);
    assert_int_equal(ra_status_section(&f.l, 0, 1, T0, &ra_malloc_allocator,
                                       &b), RA_OK);
    assert_null(has(&b, "<table"));
    ra_buf_release(&b);

    /* a process that audits nothing says so, except in the short form */
    ra_buf_init(&b, &ra_malloc_allocator, 0, RA_STATUS_PAGE_MAX);
    assert_int_equal(ra_status_section(NULL, 1, 0, T0, &ra_malloc_allocator,
                                       &b), RA_OK);
    assert_int_equal(b.len, 0);
    assert_int_equal(ra_status_section(NULL, 0, 0, T0, &ra_malloc_allocator,
                                       &b), RA_OK);
    assert_non_null(has(&b, "off (RobotsAudit is not On anywhere)"));
    ra_buf_release(&b);
    free(f.region);
}

/* the pages: capped, and saying what they leave out */
static void
pages_are_capped_and_say_so(void **state)
{
    full_t             f;
    ra_status_page_t   p;
    ra_json_err_t      jerr;
    char               want[256];
    uint32_t           n, w, j;

    (void) state;
    fill(&f, zone_size());

    page(&f, "format=json", &p);
    assert_int_equal(p.status, 200);
    assert_true(p.body.len <= RA_STATUS_BUDGET);
    assert_int_equal(ra_json_parse(ra_str(p.body.data, p.body.len),
                                   json_any, NULL, &jerr), RA_OK);
    assert_non_null(has(&p.body, "\"truncated\":true"));
    snprintf(want, sizeof(want), "\"sites_shown\":%u,\"sites_total\":%u",
             RA_STATUS_SITES, SITES);
    assert_non_null(has(&p.body, want));
    ra_status_page_free(&p);

    page(&f, "", &p);
    assert_int_equal(p.status, 200);
    assert_true(p.body.len <= RA_STATUS_BUDGET);
    snprintf(want, sizeof(want), "showing %u of %u sites", RA_STATUS_SITES,
             SITES);
    assert_non_null(has(&p.body, want));
    assert_non_null(has(&p.body, "crawler records: the "
                           "busiest, and those with violations"));
    ra_status_page_free(&p);

    /* one site, five records and its violators */
    page(&f, "format=json&limit=5&site=SITE7.example", &p);
    assert_int_equal(p.status, 200);
    assert_int_equal(ra_json_parse(ra_str(p.body.data, p.body.len),
                                   json_any, NULL, &jerr), RA_OK);
    n = site_records(&f, 7);
    for (w = 0, j = 0; j + 5 < n; j++) {
        w += is_violator(j);
    }
    if (w > RA_STATUS_VIOLATORS) {
        w = RA_STATUS_VIOLATORS;
    }
    snprintf(want, sizeof(want), "\"crawlers_shown\":%u,"
             "\"crawlers_total\":%u", 5 + w, n);
    assert_non_null(has(&p.body, want));
    assert_non_null(has(&p.body, "\"recent_violations_shown\":"
                           "5,"));
    assert_non_null(has(&p.body,
                           "\"sites_shown\":1,\"sites_total\":1,"
                           "\"truncated\":true"));
    assert_null(has(&p.body, "site8.example"));
    ra_status_page_free(&p);

    /* a site the ledger does not have: a wrong address, 404 */
    page(&f, "format=json&site=nowhere.example", &p);
    assert_int_equal(p.status, 404);
    assert_non_null(has(&p.body, "no site of that name"));
    ra_status_page_free(&p);

    /* Prometheus is complete, and a generic bot's counters are summed
     * under crawler="generic".  (The whole zone's page is not asked for
     * here: half of this table is table crawlers with names of their own,
     * each a series, more than RA_STATUS_PAGE_MAX of them.) */
    page(&f, "format=prometheus&site=site0.example", &p);
    assert_int_equal(p.status, 200);
    assert_true(p.body.len <= RA_STATUS_PAGE_MAX);
    for (w = 0, j = 1; j * SITES < f.generic_end; j++) {
        w += is_violator(j);
    }
    snprintf(want, sizeof(want), "robots_audit_requests_total{site=\""
             "site0.example\",crawler=\"generic\",verification=\""
             "unverifiable\",method=\"none\",verdict=\"violation\"} %u\n", w);
    assert_non_null(has(&p.body, want));
    ra_status_page_free(&p);
    page(&f, "format=prometheus&site=site119.example", &p);
    assert_int_equal(p.status, 200);
    assert_non_null(has(&p.body, "site=\"site119.example\","
                           "crawler=\"TestBot\""));
    ra_status_page_free(&p);

    page(&f, "format=prometheus&site=site3.example", &p);
    assert_int_equal(p.status, 200);
    assert_non_null(has(&p.body, "site=\"site3.example\""));
    assert_null(has(&p.body, "site=\"site4.example\""));
    ra_status_page_free(&p);

    /* bad values */
    page(&f, "limit=0", &p);
    assert_int_equal(p.status, 400);
    ra_status_page_free(&p);
    page(&f, "limit=201", &p);
    assert_int_equal(p.status, 400);
    ra_status_page_free(&p);
    page(&f, "limit=5x", &p);
    assert_int_equal(p.status, 400);
    ra_status_page_free(&p);
    page(&f, "site=", &p);
    assert_int_equal(p.status, 400);
    ra_status_page_free(&p);
    page(&f, "limit=200", &p);
    assert_int_equal(p.status, 200);
    ra_status_page_free(&p);

    free(f.region);
}

/* the byte budget: no site starts past it, and the report is whole */
static void
budget_stops_between_sites(void **state)
{
    full_t              f;
    ra_snapshot_view_t  view;
    ra_snapshot_t       snap;
    ra_report_opts_t    opts;
    ra_buf_t            out;
    ra_json_err_t       jerr;
    unsigned            shown = 0;
    const char         *p;

    (void) state;
    fill(&f, 16u << 20);
    ra_status_view((ra_str_t) { 0, NULL }, 0, RA_REPORT_JSON, &view);
    view.max_sites = SITES;
    assert_int_equal(ra_ledger_snapshot_view(&f.l, &ra_malloc_allocator, 0,
                                             &view, &snap), RA_OK);
    memset(&opts, 0, sizeof(opts));
    opts.now = T0 + 1000000;
    opts.max_bytes = 20000;
    ra_buf_init(&out, &ra_malloc_allocator, 0, 1u << 20);
    assert_int_equal(ra_report_render(&snap, RA_REPORT_JSON, &opts, &out),
                     RA_OK);
    assert_false(out.truncated);
    assert_int_equal(ra_json_parse(ra_str(out.data, out.len), json_any, NULL,
                                   &jerr), RA_OK);
    p = has(&out, "\"sites_shown\":");
    assert_non_null(p);
    for (p += 14; *p >= '0' && *p <= '9'; p++) {
        shown = shown * 10 + (unsigned) (*p - '0');
    }
    assert_true(shown >= 1 && shown < snap.nsites);
    assert_non_null(has(&out, "\"truncated\":true"));
    ra_buf_release(&out);
    ra_snapshot_free(&snap, &ra_malloc_allocator);
    free(f.region);
}

/* a whole zone too large for one Prometheus page says so before it copies
 * anything (the allocator counts what the page took); ?site= still works */
static size_t  prom_peak, prom_held;

typedef union {
    size_t       size;
    max_align_t  align;
} prom_hdr_t;

static void *
prom_alloc(void *ctx, size_t size)
{
    prom_hdr_t  *h = malloc(sizeof(prom_hdr_t) + size);

    (void) ctx;
    if (h == NULL) {
        return NULL;
    }
    h->size = size;
    prom_held += size;
    if (prom_held > prom_peak) {
        prom_peak = prom_held;
    }
    return h + 1;
}

static void
prom_free(void *ctx, void *ptr)
{
    prom_hdr_t  *h = (prom_hdr_t *) ptr - 1;

    (void) ctx;
    if (ptr != NULL) {
        prom_held -= h->size;
        free(h);
    }
}


/* ?format=csv (one site with ?site=), ?sort= checked */
static void
csv_and_sort(void **state)
{
    full_t             f;
    ra_status_page_t   p;
    char              *text, *line, *save = NULL;
    uint32_t           rows = 0;

    (void) state;
    fill(&f, 16u << 20);
    page(&f, "format=csv&site=site7.example", &p);
    assert_int_equal(p.status, 200);
    assert_string_equal(p.content_type, "text/csv; charset=utf-8");
    assert_true(p.body.len > sizeof(RA_REPORT_CSV_HEADER)
                && memcmp(p.body.data, RA_REPORT_CSV_HEADER "\r\n",
                          sizeof(RA_REPORT_CSV_HEADER) + 1) == 0);
    text = malloc(p.body.len + 1);
    assert_non_null(text);
    memcpy(text, p.body.data, p.body.len);
    text[p.body.len] = '\0';
    for (line = strtok_r(text, "\n", &save); line != NULL;
         line = strtok_r(NULL, "\n", &save))
    {
        if (rows++ == 0) {
            continue;                   /* the header */
        }
        /* every row is one of site7.example's violations */
        assert_non_null(strstr(line, ",site7.example,bot"));
        assert_non_null(strstr(line, ",/private/x,"));
    }
    free(text);
    assert_true(rows > 1 && rows <= RA_STATUS_LIMIT + 1);
    ra_status_page_free(&p);

    /* ?crawler=: that crawler's records and violations only */
    page(&f, "format=csv&site=site3.example&crawler=BOT843", &p);
    assert_int_equal(p.status, 200);
    text = malloc(p.body.len + 1);
    assert_non_null(text);
    memcpy(text, p.body.data, p.body.len);
    text[p.body.len] = '\0';
    /* record 843 = 3 + 120 * 7: site 3, j = 7 (not a violator) */
    assert_string_equal(text, RA_REPORT_CSV_HEADER "\r\n");
    free(text);
    ra_status_page_free(&p);
    page(&f, "format=json&site=site3.example&crawler=bot363", &p);
    assert_int_equal(p.status, 200);
    /* 363 = 3 + 120 * 3: j = 3, a violator, 4 requests */
    assert_non_null(has(&p.body, "\"crawlers\":[{\"crawler\":\"bot363\""));
    assert_non_null(has(&p.body, "],\"crawlers_shown\":1,"));
    assert_non_null(has(&p.body, "\"recent_violations\":[{"));
    assert_non_null(has(&p.body, "\"recent_violations_shown\":1,"));
    ra_status_page_free(&p);
    page(&f, "crawler=", &p);
    assert_int_equal(p.status, 400);
    ra_status_page_free(&p);

    page(&f, "sort=bogus", &p);
    assert_int_equal(p.status, 400);
    ra_status_page_free(&p);
    page(&f, "format=json&sort=violations&limit=1", &p);
    assert_int_equal(p.status, 200);
    ra_status_page_free(&p);
    free(f.region);
}

/* A zone whose verified crawlers' records alone cannot fit a whole-zone
 * Prometheus page: the page copies no record and answers 200 with the
 * per-site families (robots_audit_metrics_degraded 1), never a 500 a
 * scrape would fail on; ?site= still has every family. */
static void
prometheus_too_large_degrades_early(void **state)
{
    full_t             f;
    ra_status_page_t   p;
    ra_totals_t        t;
    const ra_alloc_t   counting = { prom_alloc, prom_free, NULL };

    (void) state;
    fill(&f, (size_t) 320 << 20);     /* ~24,000 table crawlers */
    ra_ledger_totals(&f.l, &t);
    assert_true((uint64_t) t.stats_verified
                * RA_STATUS_PROM_RECORD_MIN > RA_STATUS_PAGE_MAX);

    prom_peak = prom_held = 0;
    ra_status_page(&f.l, NULL, S("GET"), S("format=prometheus"),
                   T0 + 1000000, &counting, &p);
    assert_int_equal(p.status, 200);
    assert_non_null(has(&p.body, "\nrobots_audit_metrics_degraded 1\n"));
    assert_null(has(&p.body, "\nrobots_audit_requests_total{"));
    assert_non_null(has(&p.body, "robots_audit_site_requests_total{site=\""
                                 "site5.example\",kind=\"crawler\"} "));
    print_message("degraded page: %zu bytes, %zu held at most\n",
                  p.body.len, prom_peak);
    assert_true(prom_peak < 4u << 20);          /* no record copied */
    ra_status_page_free(&p);
    assert_int_equal(prom_held, 0);

    ra_status_page(&f.l, NULL, S("GET"),
                   S("format=prometheus&site=site5.example"),
                   T0 + 1000000, &counting, &p);
    assert_int_equal(p.status, 200);
    assert_non_null(has(&p.body, "site=\"site5.example\",crawler=\"TestBot\""));
    ra_status_page_free(&p);
    free(f.region);
}

/* The case: a full 1024m zone (every record slot in use, generic
 * bots in their half, verified table crawlers in the rest; one request
 * each, one in ten a violation).  Every page a browser asks for stays
 * within its cap and says what it left out; the whole-zone Prometheus page
 * leaves the per-crawler families out at once, copying no record.  Under valgrind the 64 MiB zones above stand for
 * it (a gigabyte under valgrind takes minutes). */
static void
full_1024m_zone(void **state)
{
    static const char  *const queries[] = { "format=json", "",
                                            "format=text",
                                            "format=json&limit=200" };
    size_t              size = (size_t) 1024 << 20;
    unsigned char      *region;
    ra_ledger_t         l;
    ra_ledger_plan_t    plan;
    ra_totals_t         t;
    ra_stat_key_t       key;
    ra_violation_t      vio;
    ra_status_page_t    p;
    uint32_t            i, sid, tid, generic = 0;
    unsigned            q;
    char                site[32], name[32];

    (void) state;
    if (getenv("RA_UNDER_VALGRIND") != NULL) {
        print_message("skipped under valgrind: a 1 GiB zone (the 64 MiB "
                      "zones above stand for it)\n");
        skip();
    }
    assert_int_equal(ra_ledger_plan(size, &plan), RA_OK);
    region = malloc(size);
    assert_non_null(region);
    assert_int_equal(ra_ledger_format(region, size, T0), RA_OK);
    ra_ledger_open(&l, region, NULL);
    ra_ledger_totals(&l, &t);
    for (i = 0; i < plan.stats; i++) {
        snprintf(site, sizeof(site), "site%u.example", i % SITES);
        snprintf(name, sizeof(name), "bot%u", i);
        memset(&key, 0, sizeof(key));
        key.name = ra_str(name, strlen(name));
        key.token = key.name;
        key.kind = generic < t.generic_max ? RA_UA_GENERIC : RA_UA_KNOWN;
        key.verification = key.kind == RA_UA_KNOWN ? RA_VERIFY_VERIFIED
                                                   : RA_VERIFY_UNVERIFIABLE;
        generic += key.kind == RA_UA_GENERIC;
        sid = ra_ledger_site_locked(&l, ra_str(site, strlen(site)), T0 + i);
        tid = ra_ledger_stat_locked(&l, sid, &key, T0 + i);
        ra_ledger_count_locked(&l, sid, tid, RA_CNT_REQUESTS);
        if (i % 10 == 0) {
            ra_ledger_count_locked(&l, sid, tid, RA_CNT_VIOLATION);
            memset(&vio, 0, sizeof(vio));
            vio.time = T0 + i;
            vio.verdict = 3;        /* RA_VERDICT_VIOLATION */
            vio.name_len = (uint8_t) ra_str_cut(vio.name, RA_NAME_MAX,
                                                key.name);
            vio.uri_len = (uint16_t) ra_str_cut(vio.uri, RA_URI_MAX,
                                                S("/private/x"));
            vio.uri_full_len = vio.uri_len;
            ra_ledger_violation_locked(&l, sid, &vio);
        }
    }
    ra_ledger_totals(&l, &t);
    assert_int_equal(t.stats, plan.stats);          /* full */
    assert_int_equal(t.stat_evictions, 0);
    print_message("1024m zone: %u crawler records, %u sites\n", t.stats,
                  t.sites);

    for (q = 0; q < sizeof(queries) / sizeof(queries[0]); q++) {
        ra_status_page(&l, NULL, S("GET"), ra_str(queries[q], strlen(queries[q])),
                       T0 + plan.stats + 1, &ra_malloc_allocator, &p);
        assert_int_equal(p.status, 200);
        assert_true(p.body.len <= RA_STATUS_BUDGET + (1u << 20));
        assert_true(has(&p.body, "\"truncated\":true") != NULL
                    || has(&p.body, "showing ") != NULL);
        print_message("%-24s %zu bytes\n", *queries[q] ? queries[q] : "html",
                      p.body.len);
        ra_status_page_free(&p);
    }
    prom_peak = prom_held = 0;
    ra_status_page(&l, NULL, S("GET"), S("format=prometheus"), T0 + plan.stats + 1,
                   &(const ra_alloc_t) { prom_alloc, prom_free, NULL }, &p);
    assert_int_equal(p.status, 200);
    assert_non_null(has(&p.body, "\nrobots_audit_metrics_degraded 1\n"));
    assert_true(p.body.len <= RA_STATUS_PAGE_MAX);
    assert_true(prom_peak < 4u << 20);
    ra_status_page_free(&p);
    ra_status_page(&l, NULL, S("GET"), S("format=prometheus&site=site7.example"),
                   T0 + plan.stats + 1, &ra_malloc_allocator, &p);
    assert_int_equal(p.status, 200);
    assert_true(p.body.len <= RA_STATUS_PAGE_MAX);
    ra_status_page_free(&p);
    free(region);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(view_copies_what_it_shows),
        cmocka_unit_test(pages_are_capped_and_say_so),
        cmocka_unit_test(budget_stops_between_sites),
        cmocka_unit_test(prometheus_too_large_degrades_early),
        cmocka_unit_test(full_1024m_zone),
        cmocka_unit_test(csv_and_sort),
        cmocka_unit_test(server_status_section),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
