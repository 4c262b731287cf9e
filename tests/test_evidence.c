/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Evidence an attacker must not be able to push out of the ledger
 * (docs/design.md, "The ledger"): a verified crawler's record against
 * records made with every other name of the table, and its violations
 * against a flood of generic bots' in the ring of recent violations,
 * sites against browsers' Host values when sites come from a log, the
 * counts of records a flood evicts (kept in their site's evicted sums),
 * and a whole-zone Prometheus page that no traffic can make fail.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ra_test.h"
#include "ra_audit.h"
#include "ra_report.h"
#include "ra_status.h"

#define T0       (1700000000000LL)
#define NAMES    330                /* about the size of the real table */
#define BOT      "Mozilla/5.0 (compatible; TestBot/2.1; +http://test.example/)"
#define IN       "192.0.2.7"        /* TestBot's published range */
#define OUT      "203.0.113.9"      /* the attacker's one address */

typedef struct {
    ra_test_arena_t *arena;
    unsigned char   *region;
    ra_ledger_t      ledger;
    ra_audit_t      *au;
} fx_t;

/* TestBot (verifiable) and NAMES crawlers without published ranges: all
 * of them unverifiable, whoever sends their names */
static fx_t *
fx_new_conf(size_t size, int crawler_sites)
{
    fx_t               *f = calloc(1, sizeof(*f));
    ra_crawlers_t      *cr;
    ra_ranges_t        *rg;
    ra_crawlers_err_t   cerr;
    ra_json_err_t       jerr;
    ra_audit_conf_t     conf;
    char               *table, *p;
    unsigned            i;
    ra_str_t            json = ra_string(
        "{\"prefixes\":[{\"ipv4Prefix\":\"192.0.2.0/24\"}]}");

    assert_non_null(f);
    f->region = malloc(size);
    assert_non_null(f->region);
    assert_int_equal(ra_ledger_format(f->region, size, T0), RA_OK);
    ra_ledger_open(&f->ledger, f->region, NULL);
    f->arena = ra_test_arena_new();

    table = malloc(64 * (NAMES + 2));
    assert_non_null(table);
    p = table + sprintf(table, "crawler TestBot\nua TestBot\ntokens TestBot\n"
                        "category search\nranges test.json\n\n");
    for (i = 0; i < NAMES; i++) {
        p += sprintf(p, "crawler Tbl%03u\nua Tbl%03u\ncategory search\n\n",
                     i, i);
    }
    cr = ra_crawlers_create(ra_test_arena_alloc(f->arena));
    assert_int_equal(ra_crawlers_add(cr, ra_str(table, strlen(table)),
                                     &cerr), RA_OK);
    assert_int_equal(ra_crawlers_compile(cr, &cerr), RA_OK);
    free(table);
    rg = ra_ranges_create(ra_test_arena_alloc(f->arena));
    assert_int_equal(ra_ranges_add_json(rg, ra_str("test.json", 9), json,
                                        &jerr), RA_OK);

    memset(&conf, 0, sizeof(conf));
    conf.alloc = &ra_malloc_allocator;
    conf.crawlers = cr;
    conf.ranges = rg;
    conf.alert_interval = 60000;
    conf.crawler_sites = crawler_sites ? 1 : 0;
    f->au = ra_audit_create(&conf, &f->ledger);
    assert_non_null(f->au);
    return f;
}

static fx_t *
fx_new(size_t size)
{
    return fx_new_conf(size, 0);
}

static void
fx_free(fx_t *f)
{
    ra_audit_destroy(f->au);
    ra_test_arena_free(f->arena);
    free(f->region);
    free(f);
}

static void
robots(fx_t *f, const char *site, int64_t t)
{
    ra_answer_t  a;
    const char  *body = "User-agent: *\nDisallow: /private\n";

    memset(&a, 0, sizeof(a));
    a.status = 200;
    a.body = ra_str(body, strlen(body));
    a.content_type = (ra_str_t) ra_string("text/plain");
    assert_int_equal(ra_audit_robots(f->au, ra_str(site, strlen(site)), &a,
                                     t), RA_OK);
}

static ra_verdict_t
req_uri(fx_t *f, const char *site, const char *ua, const char *addr,
    int64_t t, const char *uri)
{
    ra_request_t  r;
    ra_verdict_t  v;

    memset(&r, 0, sizeof(r));
    r.site = ra_str(site, strlen(site));
    r.time = t;
    r.addr = ra_str(addr, strlen(addr));
    r.user_agent = ra_str(ua, strlen(ua));
    r.method = (ra_str_t) ra_string("GET");
    r.uri = ra_str(uri, strlen(uri));
    r.status = 200;
    assert_int_equal(ra_audit_request(f->au, &r, &v), RA_OK);
    return v;
}

static ra_verdict_t
req(fx_t *f, const char *site, const char *ua, const char *addr, int64_t t)
{
    return req_uri(f, site, ua, addr, t, "/private/x");
}

/* victim.example as a snapshot shows it: its counters, and TestBot's
 * verified record there (found: 1) */
static int
victim(fx_t *f, uint64_t site_counters[RA_CNT_MAX], ra_stat_t *google)
{
    ra_snapshot_t  snap;
    uint32_t       i;
    int            found = 0, seen = 0;

    assert_int_equal(ra_ledger_snapshot(&f->ledger, &ra_malloc_allocator, 0,
                                        &snap), RA_OK);
    for (i = 0; i < snap.nsites; i++) {
        if (snap.sites[i].name_len == 14
            && memcmp(snap.sites[i].name, "victim.example", 14) == 0)
        {
            memcpy(site_counters, snap.sites[i].counters,
                   sizeof(snap.sites[i].counters));
            seen = 1;
        }
    }
    assert_true(seen);
    for (i = 0; i < snap.nstats; i++) {
        const ra_stat_t  *st = &snap.stats[i];
        const ra_site_t  *s = &snap.sites[st->site - 1];

        if (st->name_len == 7 && memcmp(st->name, "TestBot", 7) == 0
            && st->verification == RA_VERIFY_VERIFIED
            && s->name_len == 14 && memcmp(s->name, "victim.example", 14) == 0)
        {
            *google = *st;
            found = 1;
        }
    }
    ra_snapshot_free(&snap, &ra_malloc_allocator);
    return found;
}

/*
 * Review finding 1: one verified violation on victim.example, then every
 * name of the table (TestBot's too: an impostor from there) from one
 * address over other sites, until the class of records that are not
 * verified is full and evicting.  The verified record stays, with its
 * counters; the victim's counters only rise.
 */
static void
evidence_table_names_never_evict_verified(void **state)
{
    fx_t          *f = fx_new(1 << 20);
    ra_totals_t    t;
    ra_stat_t      g;
    ra_verdict_t   v;
    uint64_t       before[RA_CNT_MAX], now[RA_CNT_MAX];
    unsigned       i, k, s, rounds = 0;
    char           site[32], ua[64];
    int64_t        at = T0 + 10;

    (void) state;
    robots(f, "victim.example", T0);
    v = req(f, "victim.example", BOT, IN, at++);
    assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
    assert_int_equal(v.verification, RA_VERIFY_VERIFIED);
    assert_true(victim(f, before, &g));
    assert_int_equal(g.counters[RA_CNT_VIOLATION], 1);

    ra_ledger_totals(&f->ledger, &t);
    /* enough sites that the names alone fill the table twice over */
    s = 2 * t.plan.stats / (NAMES + 1) + 2;
    assert_true(s + 1 < t.plan.sites);
    for (k = 0; k < s; k++) {
        snprintf(site, sizeof(site), "s%u.example", k);
        robots(f, site, at++);
        for (i = 0; i <= NAMES; i++) {
            if (i == NAMES) {
                snprintf(ua, sizeof(ua), "%s", BOT);
            } else {
                snprintf(ua, sizeof(ua), "Mozilla/5.0 (compatible; Tbl%03u)",
                         i);
            }
            v = req(f, site, ua, OUT, at++);
            assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
            assert_int_not_equal(v.verification, RA_VERIFY_VERIFIED);
        }
        /* and on the victim's site too, every few rounds */
        if (k % 3 == 0) {
            for (i = 0; i < NAMES; i += 7) {
                snprintf(ua, sizeof(ua), "Mozilla/5.0 (compatible; Tbl%03u)",
                         i);
                (void) req(f, "victim.example", ua, OUT, at++);
            }
            (void) req(f, "victim.example", BOT, OUT, at++);
        }
        assert_true(victim(f, now, &g));
        for (i = 0; i < RA_CNT_MAX; i++) {
            assert_true(now[i] >= before[i]);       /* only rising */
        }
        memcpy(before, now, sizeof(now));
        assert_int_equal(g.counters[RA_CNT_VIOLATION], 1);
        assert_int_equal(g.counters[RA_CNT_REQUESTS], 1);
        rounds++;
    }
    ra_ledger_totals(&f->ledger, &t);
    /* the flood did fill its class, and evicted within it */
    assert_true(t.stat_evictions > t.plan.stats / 2);
    assert_true(t.stats == t.plan.stats || t.stats >= t.plan.stats / 2);
    assert_true(rounds == s);
    assert_null(ra_ledger_verify(&f->ledger));

    /* verified crawlers still find room, and TestBot keeps counting */
    v = req(f, "victim.example", BOT, IN, at++);
    assert_int_equal(v.verification, RA_VERIFY_VERIFIED);
    assert_true(victim(f, now, &g));
    assert_int_equal(g.counters[RA_CNT_VIOLATION], 2);
    fx_free(f);
}

/* Review finding 3: one verified violation, then 4,200 of a generic bot
 * (more than the whole ring holds): the verified one is still among the
 * recent violations, the flood's newest are there too. */
static void
evidence_ring_keeps_verified_violations(void **state)
{
    fx_t           *f = fx_new(8u << 20);
    ra_snapshot_t   snap;
    ra_totals_t     t;
    ra_verdict_t    v;
    uint32_t        i, verified = 0, flood = 0;

    (void) state;
    robots(f, "a.example", T0);
    v = req(f, "a.example", BOT, IN, T0 + 1);
    assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
    assert_int_equal(v.verification, RA_VERIFY_VERIFIED);
    for (i = 0; i < 4200; i++) {
        v = req(f, "a.example", "python-requests/2.31.0", OUT, T0 + 2 + i);
        assert_int_equal(v.kind, RA_UA_GENERIC);
        assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
    }
    ra_ledger_totals(&f->ledger, &t);
    assert_true(t.plan.violations < 4200);
    assert_true(t.violations_total == 4201);

    assert_int_equal(ra_ledger_snapshot(&f->ledger, &ra_malloc_allocator, 0,
                                        &snap), RA_OK);
    for (i = 0; i < snap.nviolations; i++) {
        const ra_violation_t  *x = &snap.violations[i];

        if (x->name_len == 7 && memcmp(x->name, "TestBot", 7) == 0) {
            assert_int_equal(x->verification, RA_VERIFY_VERIFIED);
            assert_true(x->time == T0 + 1);
            verified++;
        } else {
            flood++;
        }
        /* newest first */
        if (i > 0) {
            assert_true(x->time <= snap.violations[i - 1].time);
        }
    }
    assert_int_equal(verified, 1);
    assert_true(flood >= t.plan.violations / 2);
    assert_true(snap.violations[0].time == T0 + 2 + 4199);
    /* the verified one last: the oldest */
    assert_true(snap.violations[snap.nviolations - 1].time == T0 + 1);
    ra_snapshot_free(&snap, &ra_malloc_allocator);
    fx_free(f);

    /* of equal times, the later recorded first, whichever part of the
     * ring each is in */
    f = fx_new(1 << 20);
    robots(f, "a.example", T0);
    (void) req(f, "a.example", BOT, IN, T0 + 5);
    (void) req(f, "a.example", "python-requests/2.31.0", OUT, T0 + 5);
    (void) req(f, "a.example", "python-requests/2.31.0", OUT, T0 + 9);
    (void) req(f, "a.example", BOT, IN, T0 + 9);
    assert_int_equal(ra_ledger_snapshot(&f->ledger, &ra_malloc_allocator, 0,
                                        &snap), RA_OK);
    assert_int_equal(snap.nviolations, 4);
    assert_int_equal(snap.violations[0].verification, RA_VERIFY_VERIFIED);
    assert_int_not_equal(snap.violations[1].verification,
                         RA_VERIFY_VERIFIED);
    assert_int_not_equal(snap.violations[2].verification,
                         RA_VERIFY_VERIFIED);
    assert_int_equal(snap.violations[3].verification, RA_VERIFY_VERIFIED);
    assert_true(snap.violations[1].time == T0 + 9);
    assert_true(snap.violations[2].time == T0 + 5);
    ra_snapshot_free(&snap, &ra_malloc_allocator);
    fx_free(f);
}

/* Review finding 4, in the core: with crawler_sites (the CLI), browsers
 * and requests without a User-Agent make no site; on a site that exists
 * they are counted as ever; without it (the modules) they make one. */
static void
evidence_browsers_make_no_site(void **state)
{
    fx_t           *f = fx_new_conf(1 << 20, 1);
    ra_snapshot_t   snap;
    ra_totals_t     t;
    const char     *ff = "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) "
                         "Gecko/20100101 Firefox/120.0";
    char            site[32];
    unsigned        i;

    (void) state;
    assert_int_equal(ra_audit_site_wanted(f->au, ra_str("h.example", 9),
                                          ra_str(ff, strlen(ff)), T0), 0);
    assert_int_equal(ra_audit_site_wanted(f->au, ra_str("h.example", 9),
                                          ra_str("-", 1), T0), 0);
    assert_int_equal(ra_audit_site_wanted(f->au, ra_str("h.example", 9),
                                          ra_str(BOT, strlen(BOT)), T0), 1);
    (void) req(f, "victim.example", BOT, IN, T0);
    for (i = 0; i < 500; i++) {
        snprintf(site, sizeof(site), "h%u.example", i);
        (void) req(f, site, ff, OUT, T0 + 1 + i);
        (void) req(f, site, "-", OUT, T0 + 1 + i);
    }
    (void) req(f, "victim.example", ff, OUT, T0 + 600);
    (void) req(f, "victim.example", "", OUT, T0 + 601);
    assert_int_equal(ra_audit_site_wanted(f->au, ra_str("VICTIM.example", 14),
                                          ra_str(ff, strlen(ff)), T0), 1);
    ra_ledger_totals(&f->ledger, &t);
    assert_int_equal(t.sites, 1);
    assert_true(t.requests == 1003);
    assert_int_equal(ra_ledger_snapshot(&f->ledger, &ra_malloc_allocator, 0,
                                        &snap), RA_OK);
    assert_int_equal(snap.nsites, 1);
    assert_true(snap.sites[0].browser_requests == 1);
    assert_true(snap.sites[0].no_user_agent == 1);
    ra_snapshot_free(&snap, &ra_malloc_allocator);
    fx_free(f);

    /* the modules: every request's site exists */
    f = fx_new(1 << 20);
    assert_int_equal(ra_audit_site_wanted(f->au, ra_str("h.example", 9),
                                          ra_str(ff, strlen(ff)), T0), 1);
    (void) req(f, "h.example", ff, OUT, T0);
    ra_ledger_totals(&f->ledger, &t);
    assert_int_equal(t.sites, 1);
    fx_free(f);
}

/* ---- evidence that outlasts eviction ------------------------------- */

#define SCRAPER  "ExampleScraper/1.0 (+https://example.com/scraper)"

/* A site's counters as a snapshot shows them: the site's totals, the sum
 * of its live records, the sum of what its evicted records counted (every
 * kind) and how many those were; whether a record named name is live. */
typedef struct {
    uint64_t  site[RA_CNT_MAX];
    uint64_t  live[RA_CNT_MAX];
    uint64_t  evicted[RA_CNT_MAX];
    uint64_t  records;
    uint64_t  generic_records;
    int       named;
} sums_t;

static void
sums(fx_t *f, const char *site, const char *name, sums_t *out)
{
    ra_snapshot_t  snap;
    uint32_t       i, si = 0;
    unsigned       c, k;

    memset(out, 0, sizeof(*out));
    assert_int_equal(ra_ledger_snapshot(&f->ledger, &ra_malloc_allocator, 0,
                                        &snap), RA_OK);
    for (i = 0; i < snap.nsites; i++) {
        if (snap.sites[i].name_len == strlen(site)
            && memcmp(snap.sites[i].name, site, strlen(site)) == 0)
        {
            si = i + 1;
        }
    }
    assert_true(si != 0);
    for (c = 0; c < RA_CNT_MAX; c++) {
        out->site[c] = snap.sites[si - 1].counters[c];
        for (k = 0; k < RA_EVICTED_KINDS; k++) {
            out->evicted[c] += snap.sites[si - 1].evicted[k][c];
        }
    }
    for (k = 0; k < RA_EVICTED_KINDS; k++) {
        out->records += snap.sites[si - 1].evicted_records[k];
    }
    out->generic_records = snap.sites[si - 1].evicted_records[
        RA_EVICTED_GENERIC];
    for (i = 0; i < snap.nstats; i++) {
        const ra_stat_t  *st = &snap.stats[i];

        if (st->site != si) {
            continue;
        }
        for (c = 0; c < RA_CNT_MAX; c++) {
            out->live[c] += st->counters[c];
        }
        if (st->name_len == strlen(name)
            && memcmp(st->name, name, st->name_len) == 0)
        {
            out->named = 1;
        }
    }
    ra_snapshot_free(&snap, &ra_malloc_allocator);
}

/* The live records plus the evicted sums are the site's totals, and
 * they never went down since before. */
static void
rising(const sums_t *before, const sums_t *now)
{
    unsigned  c;

    for (c = 0; c < RA_CNT_MAX; c++) {
        assert_true(now->live[c] + now->evicted[c]
                    >= before->live[c] + before->evicted[c]);
        assert_true(now->live[c] + now->evicted[c] == now->site[c]);
    }
}

/*
 * The scraper that erased its evidence: one violation of a generic bot
 * (ExampleScraper), then requests under a new invented bot name each
 * (compliant: they violate nothing) until the scraper's record is
 * evicted.  Its violation stays in the site's evicted sums, which JSON
 * shows as sites[].evicted, and at every step the live records plus the
 * evicted sums are the site's totals: they never go down.  The same for
 * an impostor's record, pushed out by every name of the table.
 */
static void
evidence_evicted_records_stay_counted(void **state)
{
    fx_t           *f = fx_new(1 << 20);
    ra_totals_t     t;
    ra_verdict_t    v;
    ra_snapshot_t   snap;
    ra_buf_t        out;
    sums_t          before, now;
    unsigned        i, round;
    char            ua[96];
    int64_t         at = T0 + 10;

    (void) state;
    robots(f, "victim.example", T0);
    v = req(f, "victim.example", SCRAPER, OUT, at++);
    assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
    assert_int_equal(v.kind, RA_UA_GENERIC);
    sums(f, "victim.example", "ExampleScraper", &before);
    assert_true(before.named);
    assert_true(before.records == 0);

    ra_ledger_totals(&f->ledger, &t);
    for (round = 0, i = 0; i < 4 * t.plan.stats; i++) {
        snprintf(ua, sizeof(ua), "Inv%uBot/1.0 (+http://x.test/%u)", i, i);
        v = req_uri(f, "victim.example", ua, OUT, at++, "/public");
        assert_int_equal(v.verdict, RA_VERDICT_COMPLIANT);
        if (i % 64 != 0) {
            continue;
        }
        sums(f, "victim.example", "ExampleScraper", &now);
        rising(&before, &now);
        before = now;
        round++;
        if (!now.named) {
            break;
        }
    }
    assert_false(before.named);                 /* evicted */
    assert_true(before.records > 0);
    assert_true(before.generic_records == before.records);
    assert_true(before.evicted[RA_CNT_VIOLATION] == 1);     /* its own */
    assert_true(before.site[RA_CNT_VIOLATION] == 1);
    assert_null(ra_ledger_verify(&f->ledger));

    /* JSON: sites[].evicted holds it */
    assert_int_equal(ra_ledger_snapshot(&f->ledger, &ra_malloc_allocator, 0,
                                        &snap), RA_OK);
    ra_buf_init(&out, &ra_malloc_allocator, 0, 0);
    assert_int_equal(ra_report_render(&snap, RA_REPORT_JSON, NULL, &out),
                     RA_OK);
    ra_buf_add(&out, "", 1);
    assert_false(out.failed);
    assert_non_null(strstr((char *) out.data, "\"evicted\":{\"records\":"));
    assert_non_null(strstr((char *) out.data, ",\"violation\":1,"));
    ra_buf_release(&out);
    ra_snapshot_free(&snap, &ra_malloc_allocator);

    /* an impostor of TestBot, then every name of the table from the same
     * address on other sites and on this one, until it is evicted too */
    v = req(f, "victim.example", BOT, OUT, at++);
    assert_int_equal(v.verification, RA_VERIFY_IMPOSTOR);
    sums(f, "victim.example", "TestBot", &before);
    assert_true(before.named);
    for (round = 0; round < 20 && before.named; round++) {
        for (i = 0; i < NAMES; i++) {
            snprintf(ua, sizeof(ua), "Mozilla/5.0 (compatible; Tbl%03u)", i);
            (void) req_uri(f, round % 2 ? "victim.example" : "other.example",
                           ua, OUT, at++, "/public");
        }
        sums(f, "victim.example", "TestBot", &now);
        rising(&before, &now);
        before = now;
    }
    assert_false(before.named);
    assert_true(before.evicted[RA_CNT_VIOLATION] == 2);     /* both */
    assert_true(before.records > before.generic_records);
    assert_null(ra_ledger_verify(&f->ledger));
    fx_free(f);
}

/* ---- a Prometheus page that outlasts traffic ----------------------- */

/* Where needle is in the n bytes at hay, or NULL. */
static const char *
find(const void *hay, size_t n, const char *needle)
{
    const char  *p = hay;
    size_t       k = strlen(needle), i;

    for (i = 0; i + k <= n; i++) {
        if (memcmp(p + i, needle, k) == 0) {
            return p + i;
        }
    }
    return NULL;
}

#define PROM_SITES  16

/* The whole-zone page, as the status page answers it. */
static char *
scrape(fx_t *f, size_t *len, int64_t now)
{
    ra_status_page_t  p;
    char             *s;

    ra_status_page(&f->ledger, NULL, ra_str("GET", 3),
                   ra_str("format=prometheus", 17), now,
                   &ra_malloc_allocator, &p);
    assert_int_equal(p.status, 200);
    assert_true(p.body.len <= RA_STATUS_PAGE_MAX);
    s = malloc(p.body.len + 1);
    assert_non_null(s);
    memcpy(s, p.body.data, p.body.len);
    s[p.body.len] = '\0';
    *len = p.body.len;
    ra_status_page_free(&p);
    return s;
}

/* Every counter series of the first page is on the second one, with a
 * value no lower: the page's counters are monotonic. */
static unsigned
monotonic(const char *a, const char *b)
{
    const char  *p, *q, *sp, *hit;
    char         key[1024];
    unsigned     n = 0;
    size_t       k;

    for (p = a; *p; p = q + 1) {
        q = strchr(p, '\n');
        assert_non_null(q);
        if (*p == '#') {
            continue;
        }
        sp = memchr(p, ' ', (size_t) (q - p));
        assert_non_null(sp);
        if (!(sp - p > 6 && memcmp(sp - 6, "_total", 6) == 0)
            && memchr(p, '{', (size_t) (sp - p)) != NULL
            && find(p, (size_t) (sp - p), "_total{") == NULL)
        {
            continue;                   /* a gauge */
        }
        k = (size_t) (sp - p) + 1;
        assert_true(k + 1 < sizeof(key));
        key[0] = '\n';
        memcpy(key + 1, p, k);
        key[k + 1] = '\0';
        hit = strstr(b, key);
        assert_non_null(hit);
        assert_true(strtoull(hit + k + 1, NULL, 10)
                    >= strtoull(sp + 1, NULL, 10));
        n++;
    }
    return n;
}

/*
 * The fleet's scrape: 16 server names, every name of the table (and
 * TestBot's, an impostor here) from one address to each.  The page
 * answers 200 far under the cap, with no per-name series of a claim
 * nobody verified; after another round and a flood that evicts records,
 * every counter series is still there and none went down.
 */
static void
evidence_prometheus_outlasts_table_names(void **state)
{
    fx_t        *f = fx_new((size_t) 64 << 20);
    char        *p1 = NULL, *p2;
    size_t       n1 = 0, n2;
    unsigned     round, k, i, series;
    char         site[32], ua[96];
    int64_t      at = T0 + 10;
    ra_totals_t  t;

    (void) state;
    for (k = 0; k < PROM_SITES; k++) {
        snprintf(site, sizeof(site), "name%02u.example", k);
        robots(f, site, at++);
    }
    (void) req(f, "name00.example", BOT, IN, at++);     /* verified */
    for (round = 0; round < 2; round++) {
        for (k = 0; k < PROM_SITES; k++) {
            snprintf(site, sizeof(site), "name%02u.example", k);
            for (i = 0; i <= NAMES; i++) {
                if (i == NAMES) {
                    snprintf(ua, sizeof(ua), "%s", BOT);
                } else {
                    snprintf(ua, sizeof(ua),
                             "Mozilla/5.0 (compatible; Tbl%03u)", i);
                }
                (void) req(f, site, ua, OUT, at++);
            }
        }
        if (round == 0) {
            p1 = scrape(f, &n1, at);
        }
    }
    /* a flood of generic names on a few sites: records are evicted */
    for (i = 0; i < 12000; i++) {
        snprintf(site, sizeof(site), "name%02u.example", i % 4);
        snprintf(ua, sizeof(ua), "Inv%uBot/1.0", i);
        (void) req(f, site, ua, OUT, at++);
    }
    ra_ledger_totals(&f->ledger, &t);
    assert_true(t.stat_evictions > 0);
    p2 = scrape(f, &n2, at);
    print_message("16 sites x %u names: %zu bytes, then %zu (%u records, "
                  "%llu evicted)\n", NAMES + 1, n1, n2, t.stats,
                  (unsigned long long) t.stat_evictions);

    /* the claims are summed per site; the verified one keeps its name */
    assert_null(strstr(p1, "crawler=\"Tbl"));
    assert_non_null(strstr(p1, "{site=\"name00.example\",crawler=\"TestBot\","
                               "verification=\"verified\",method=\"ranges\","
                               "verdict=\"violation\"} 1\n"));
    assert_non_null(strstr(p1, "{site=\"name07.example\",crawler="
                               "\"unverified\",verification=\"impostor\","
                               "method=\"none\",verdict=\"violation\"} 1\n"));
    assert_non_null(strstr(p1, "\nrobots_audit_metrics_degraded 0\n"));
    /* far under the cap: per site a bounded set of series */
    assert_true(n1 < (size_t) PROM_SITES * 40000);
    assert_true(n2 < (size_t) PROM_SITES * 40000);

    series = monotonic(p1, p2);
    assert_true(series > PROM_SITES * 20);
    free(p1);
    free(p2);
    fx_free(f);
}

/* The page rendered into a buffer capped at cap: whole, at the degraded
 * level it says. */
static void
render_capped(const ra_snapshot_t *snap, const ra_report_opts_t *o,
    size_t cap, unsigned level, ra_buf_t *out)
{
    char  want[48];

    ra_buf_init(out, &ra_malloc_allocator, 0, cap);
    assert_int_equal(ra_report_render(snap, RA_REPORT_PROMETHEUS, o, out),
                     RA_OK);
    assert_false(out->truncated);
    assert_false(out->failed);
    snprintf(want, sizeof(want), "\nrobots_audit_metrics_degraded %u\n",
             level);
    assert_non_null(find(out->data, out->len, want));
}

/*
 * The worst page anyone's traffic can make of the default zone (Apache's
 * 8m: 156 sites), with no verified crawler: every site with a name of
 * 128 bytes (RA_SITE_NAME_MAX), generic bots of every verification,
 * unverified claims of both kinds, evicted records of every kind, every
 * crawl-to-refer operator and every purpose counted.  The per-site series
 * are bounded (docs/limits.md), and so the page fits the cap whole.
 */
static void
evidence_prometheus_worst_default_zone(void **state)
{
    ra_ledger_plan_t   plan;
    ra_snapshot_t      snap;
    ra_report_opts_t   o;
    ra_buf_t           out;
    ra_stat_t         *st;
    uint32_t           i, k, c, n = 0;
    char               digits[16];
    static const struct {
        unsigned  kind, verification;
    } recs[] = {
        { RA_UA_GENERIC, RA_VERIFY_UNVERIFIABLE },
        { RA_UA_GENERIC, RA_VERIFY_VERIFIED },
        { RA_UA_GENERIC, RA_VERIFY_IMPOSTOR },
        { RA_UA_KNOWN, RA_VERIFY_UNVERIFIABLE },
        { RA_UA_KNOWN, RA_VERIFY_IMPOSTOR },
    };
    const size_t       nrecs = sizeof(recs) / sizeof(recs[0]);

    (void) state;
    assert_int_equal(ra_ledger_plan((size_t) 8 << 20, &plan), RA_OK);
    memset(&snap, 0, sizeof(snap));
    snap.nsites = plan.sites;
    snap.sites = calloc(plan.sites, sizeof(ra_site_t));
    snap.stats = calloc((size_t) plan.sites * nrecs, sizeof(ra_stat_t));
    assert_non_null(snap.sites);
    assert_non_null(snap.stats);
    for (i = 0; i < plan.sites; i++) {
        ra_site_t  *s = &snap.sites[i];

        s->name_len = RA_SITE_NAME_MAX;
        memset(s->name, 'a', RA_SITE_NAME_MAX);
        snprintf(digits, sizeof(digits), "%05u", i);
        memcpy(s->name, digits, 5);
        s->robots_status = 200;
        s->nversions = 1;
        s->versions[0].hash = 1;
        s->versions[0].first_seen = T0;
        s->versions[0].ctype_len = RA_CTYPE_MAX;
        memset(s->versions[0].ctype, 't', RA_CTYPE_MAX);
        for (c = 0; c < RA_CNT_MAX; c++) {
            s->counters[c] = 1000000000000ULL + c;
            s->generic[c] = 1000000000000ULL + c;
            for (k = 0; k < RA_EVICTED_KINDS; k++) {
                s->evicted[k][c] = 1000000000000ULL + c;
            }
        }
        for (k = 0; k < RA_EVICTED_KINDS; k++) {
            s->evicted_records[k] = 1000000000000ULL;
        }
        for (k = 0; k < RA_PURPOSES; k++) {
            s->purpose_requests[k] = 1000000000000ULL;
        }
        for (k = 0; k < RA_REFER_SLOTS; k++) {
            s->referrals[k] = s->referral_crawls[k] = 1000000000000ULL;
        }
        s->browser_requests = s->no_user_agent = 1000000000000ULL;
        s->failures = 4000000000u;
        for (k = 0; k < nrecs; k++) {
            st = &snap.stats[n++];
            st->site = i + 1;
            st->kind = (uint8_t) recs[k].kind;
            st->verification = (uint8_t) recs[k].verification;
            st->verified_by = 3;
            st->name_len = RA_NAME_MAX;
            memset(st->name, 'n', RA_NAME_MAX);
            st->last_fetch = T0;
            st->last_fetch_status = 503;
            for (c = 0; c < RA_CNT_MAX; c++) {
                st->counters[c] = 1000000000000ULL + c;
            }
        }
    }
    snap.nstats = n;
    memset(&o, 0, sizeof(o));
    o.now = T0 + 1;
    render_capped(&snap, &o, RA_STATUS_PAGE_MAX, 0, &out);
    print_message("default zone (%u sites), worst traffic: %zu bytes "
                  "(%zu a site)\n", plan.sites, out.len,
                  out.len / plan.sites);
    assert_true(out.len < RA_STATUS_PAGE_MAX);
    ra_buf_release(&out);

    /* with a cap it cannot fit, the page degrades instead of failing:
     * the per-site families, then the totals alone */
    render_capped(&snap, &o, 3u << 20, 1, &out);
    assert_null(find(out.data, out.len, "robots_audit_requests_total{"));
    assert_non_null(find(out.data, out.len, "robots_audit_site_requests_"
                                            "total{"));
    ra_buf_release(&out);
    render_capped(&snap, &o, 64u << 10, 2, &out);
    assert_null(find(out.data, out.len, "{site="));
    assert_non_null(find(out.data, out.len, "\nrobots_audit_violations_"
                                            "total "));
    ra_buf_release(&out);
    free(snap.sites);
    free(snap.stats);
}

int
main(void)
{
    const struct CMUnitTest  tests[] = {
        cmocka_unit_test(evidence_table_names_never_evict_verified),
        cmocka_unit_test(evidence_ring_keeps_verified_violations),
        cmocka_unit_test(evidence_browsers_make_no_site),
        cmocka_unit_test(evidence_evicted_records_stay_counted),
        cmocka_unit_test(evidence_prometheus_outlasts_table_names),
        cmocka_unit_test(evidence_prometheus_worst_default_zone),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
