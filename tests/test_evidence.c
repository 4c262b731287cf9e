/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Evidence an attacker must not be able to push out of the ledger
 * (docs/design.md, "The ledger"): a verified crawler's record against
 * records made with every other name of the table, and its violations
 * against a flood of generic bots' in the ring of recent violations, and
 * sites against browsers' Host values when sites come from a log.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ra_test.h"
#include "ra_audit.h"

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
req(fx_t *f, const char *site, const char *ua, const char *addr, int64_t t)
{
    ra_request_t  r;
    ra_verdict_t  v;

    memset(&r, 0, sizeof(r));
    r.site = ra_str(site, strlen(site));
    r.time = t;
    r.addr = ra_str(addr, strlen(addr));
    r.user_agent = ra_str(ua, strlen(ua));
    r.method = (ra_str_t) ra_string("GET");
    r.uri = (ra_str_t) ra_string("/private/x");
    r.status = 200;
    assert_int_equal(ra_audit_request(f->au, &r, &v), RA_OK);
    return v;
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

int
main(void)
{
    const struct CMUnitTest  tests[] = {
        cmocka_unit_test(evidence_table_names_never_evict_verified),
        cmocka_unit_test(evidence_ring_keeps_verified_violations),
        cmocka_unit_test(evidence_browsers_make_no_site),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
