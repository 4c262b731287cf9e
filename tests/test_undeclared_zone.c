/* SPDX-License-Identifier: BSD-2-Clause */
/* The undeclared-crawler tables in the ledger's region and the servers'
 * step for a browser's request: a table laid out in a caller's block
 * works at any address and is checked; the region's tables, one per
 * site, the least recently seen one taken over; a table left mid-change
 * (its changer died) or found broken after a reload is made anew; and a
 * browser's request through ra_outcome_request(): flagged, judged,
 * alerted (RA104), its evidence written, refused by enforce undeclared
 * only on a disallowed path, a person never. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ra_test.h"
#include "ra_outcome.h"
#include "ra_undeclared.h"
#include "ra_verify.h"

#define CHROME  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 " \
                "(KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
#define FIREFOX "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 "  \
                "Firefox/128.0"
#define T0      1700000000000LL
#define REGION  (8u * 1024 * 1024)

static int
log_has(const ra_test_log_t *log, const char *s)
{
    int  i;

    for (i = 0; i < log->n && i < RA_TEST_LOG_LINES; i++) {
        if (strstr(log->lines[i], s) != NULL) {
            return 1;
        }
    }
    return 0;
}

static void
see_at(ra_undecl_t *t, const char *addr, int64_t ms, const char *path,
    ra_undecl_hit_t *hit)
{
    ra_undecl_req_t  r;
    ra_addr_t        a;

    memset(&r, 0, sizeof(r));
    assert_int_equal(ra_addr_parse(ra_str_z(addr), &a), RA_OK);
    memcpy(r.addr, a.b, 16);
    r.time_ms = ms;
    r.path = ra_str_z(path);
    r.referer = ra_str("", 0);
    r.user_agent = ra_str_z(CHROME);
    ra_undecl_see(t, &r, hit);
}

/* A table in a caller's block, copied elsewhere, still holds its client;
 * a header or a link out of place is found */
static void
placement_and_check(void **state)
{
    size_t            size = ra_undecl_size(64, 8);
    unsigned char    *a = calloc(1, size + 16), *b = calloc(1, size + 16);
    ra_undecl_t      *t;
    ra_undecl_hit_t   hit;
    uint32_t         *w;

    (void) state;
    assert_null(ra_undecl_init(a, size - 1, 64, 8));
    t = ra_undecl_init(a, size, 64, 8);
    assert_ptr_equal(t, a);
    assert_true(ra_undecl_check(a, size, 64, 8));
    assert_false(ra_undecl_check(a, size, 128, 8));
    see_at(t, "192.0.2.7", T0, "/robots.txt", &hit);
    assert_int_not_equal(hit.rec, 0);
    see_at(t, "192.0.2.8", T0 + 1, "/a.html", &hit);
    assert_true(ra_undecl_check(a, size, 64, 8));

    /* offsets only: the same bytes at another address */
    memcpy(b + 16, a, size);
    t = (ra_undecl_t *) (void *) (b + 16);
    assert_true(ra_undecl_check(t, size, 64, 8));
    see_at(t, "192.0.2.7", T0 + 2, "/x.html", &hit);
    assert_int_equal(hit.rec, 1);
    assert_int_equal(ra_undecl_clients(t), 2);
    assert_int_equal(ra_undecl_record(t, 0)->requests, 2);

    /* a header torn, then a list link out of place */
    memcpy(b, a, size);
    b[0] ^= 0xff;
    assert_false(ra_undecl_check(b, size, 64, 8));
    memcpy(b, a, size);
    w = (uint32_t *) (void *) b;
    w[6] = 64;                          /* head[0]: an entry never used */
    assert_false(ra_undecl_check(b, size, 64, 8));
    free(a);
    free(b);
}

typedef struct {
    unsigned char  *region;
    ra_ledger_t     ledger;
    ra_host_t       host;
    ra_test_log_t   log;
} zone_t;

static void
zone_new(zone_t *z)
{
    memset(z, 0, sizeof(*z));
    z->region = malloc(REGION);
    assert_int_equal(ra_ledger_format(z->region, REGION, T0), RA_OK);
    ra_ledger_open(&z->ledger, z->region, NULL);
    ra_test_host(&z->host, &z->log, NULL);
    z->ledger.host = &z->host;
}

/* The region's tables: one per site, found again, and when every one is
 * taken the one seen longest ago goes to a new site, made anew */
static void
zone_tables_per_site(void **state)
{
    zone_t            z;
    uint32_t          n, i, slot, s0;
    ra_undecl_t      *t, *first;
    ra_undecl_hit_t   hit;
    char              name[32];

    (void) state;
    zone_new(&z);
    n = ra_ledger_undecl_slots(&z.ledger);
    assert_true(n >= 2);
    first = ra_ledger_undecl_locked(&z.ledger, ra_str_z("a.test"), T0, &s0);
    assert_non_null(first);
    see_at(first, "192.0.2.7", T0, "/robots.txt", &hit);
    ra_ledger_undecl_done_locked(&z.ledger, s0);
    t = ra_ledger_undecl_locked(&z.ledger, ra_str_z("A.Test"), T0 + 1, &slot);
    assert_ptr_equal(t, first);
    assert_int_equal(slot, s0);
    assert_int_equal(ra_undecl_clients(t), 1);
    ra_ledger_undecl_done_locked(&z.ledger, slot);

    /* every other slot to another site, later */
    for (i = 1; i < n; i++) {
        snprintf(name, sizeof(name), "s%u.test", i);
        t = ra_ledger_undecl_locked(&z.ledger, ra_str_z(name), T0 + 10 + i,
                                    &slot);
        assert_ptr_not_equal(t, first);
        ra_ledger_undecl_done_locked(&z.ledger, slot);
    }
    /* one more: a.test's, seen longest ago, goes, empty */
    t = ra_ledger_undecl_locked(&z.ledger, ra_str_z("new.test"), T0 + 100,
                                &slot);
    assert_ptr_equal(t, first);
    assert_int_equal(ra_undecl_clients(t), 0);
    ra_ledger_undecl_done_locked(&z.ledger, slot);
    assert_int_equal(ra_ledger_undecl_resets(&z.ledger), 0);
    free(z.region);
}

/* A process that died inside a change left its table marked: the next
 * one to take it makes it anew and says so (RA326); a reload's check
 * marks a table whose links do not hold */
static void
zone_crash_recovery(void **state)
{
    zone_t             z;
    uint32_t           slot;
    ra_undecl_t       *t;
    ra_undecl_hit_t    hit;
    ra_undecl_sites_t  copy;
    const char        *why;

    (void) state;
    zone_new(&z);
    t = ra_ledger_undecl_locked(&z.ledger, ra_str_z("a.test"), T0, &slot);
    see_at(t, "192.0.2.7", T0, "/robots.txt", &hit);
    ra_ledger_undecl_done_locked(&z.ledger, slot);
    assert_int_equal(ra_ledger_undecl_copy_locked(&z.ledger, &ra_malloc_allocator,
                                           &copy), RA_OK);
    assert_int_equal(copy.n, 1);
    assert_int_equal(ra_undecl_records(copy.sites[0].table), 1);
    ra_ledger_undecl_free(&ra_malloc_allocator, &copy);

    /* dies between its mark and its end: a half-written table */
    t = ra_ledger_undecl_locked(&z.ledger, ra_str_z("a.test"), T0 + 1, &slot);
    see_at(t, "192.0.2.8", T0 + 1, "/a.html", &hit);
    /* ... no ra_ledger_undecl_done_locked(): the report skips it */
    assert_int_equal(ra_ledger_undecl_copy_locked(&z.ledger, &ra_malloc_allocator,
                                           &copy), RA_OK);
    assert_int_equal(copy.n, 0);
    ra_ledger_undecl_free(&ra_malloc_allocator, &copy);
    t = ra_ledger_undecl_locked(&z.ledger, ra_str_z("a.test"), T0 + 2, &slot);
    assert_int_equal(ra_undecl_clients(t), 0);
    assert_int_equal(ra_undecl_records(t), 0);
    assert_true(log_has(&z.log, "[RA326]"));
    assert_int_equal(ra_ledger_undecl_resets(&z.ledger), 1);
    see_at(t, "192.0.2.7", T0 + 2, "/robots.txt", &hit);
    ra_ledger_undecl_done_locked(&z.ledger, slot);

    /* a reload finds a link out of place: marked, then made anew */
    ((uint32_t *) (void *) t)[6] = 999;
    assert_int_equal(ra_ledger_check(z.region, REGION, &why), RA_OK);
    t = ra_ledger_undecl_locked(&z.ledger, ra_str_z("a.test"), T0 + 3, &slot);
    assert_true(ra_undecl_check(t, ra_undecl_size(1024, 64), 1024, 64)
                || ra_undecl_clients(t) == 0);
    assert_int_equal(ra_undecl_clients(t), 0);
    ra_ledger_undecl_done_locked(&z.ledger, slot);
    assert_int_equal(ra_ledger_undecl_resets(&z.ledger), 2);
    free(z.region);
}

/* ---- the servers' step ------------------------------------------------ */

typedef struct {
    char    out[8192];
    size_t  len;
} sink_t;

static int
sink_write(void *file, const void *p, size_t *n)
{
    sink_t  *s = file;

    assert_true(s->len + *n < sizeof(s->out));
    memcpy(s->out + s->len, p, *n);
    s->len += *n;
    s->out[s->len] = '\0';
    return 0;
}

typedef struct {
    zone_t              z;
    ra_test_arena_t    *arena;
    ra_audit_t         *au;
    sink_t              alerts, evidence;
    ra_outcome_logs_t   logs;
} step_t;

static int
turn(step_t *s, const char *addr, const char *ua, const char *uri,
    const char *referer, int64_t t, ra_verdict_t *v)
{
    ra_request_t  r;

    memset(&r, 0, sizeof(r));
    r.site = ra_str_z("example.com");
    r.time = t;
    r.addr = ra_str_z(addr);
    r.user_agent = ra_str_z(ua);
    r.method = ra_str_z("GET");
    r.uri = ra_str_z(uri);
    r.referer = ra_str_z(referer);
    r.enforce = RA_ENFORCE_UNDECLARED;
    return ra_outcome_request(s->au, &s->z.host, &r, &s->logs, v);
}

static void
robots_of(ra_audit_t *au, const char *body, int64_t t)
{
    ra_answer_t  ans;

    memset(&ans, 0, sizeof(ans));
    ans.status = 200;
    ans.body = ra_str_z(body);
    ans.content_type = ra_str_z("text/plain");
    assert_int_equal(ra_audit_robots(au, ra_str_z("example.com"), &ans, t),
                     RA_OK);
}

/* A zone, an engine on it (conf as it was made) and the logs' sinks */
static void
step_open(step_t *s, ra_audit_conf_t *conf)
{
    memset(s, 0, sizeof(*s));
    zone_new(&s->z);
    s->arena = ra_test_arena_new();
    memset(conf, 0, sizeof(*conf));
    conf->alloc = &ra_malloc_allocator;
    conf->crawlers = ra_test_builtin_table(ra_test_arena_alloc(s->arena));
    conf->host = &s->z.host;
    conf->alert_interval = 0;
    s->au = ra_audit_create(conf, &s->z.ledger);
    assert_non_null(s->au);
    s->logs.alert.write = s->logs.evidence.write = sink_write;
    s->logs.alert.file = &s->alerts;
    s->logs.evidence.file = &s->evidence;
}

static void
server_step(void **state)
{
    step_t             s;
    ra_audit_conf_t    conf;
    ra_verdict_t       v;
    ra_undecl_sites_t  copy;
    ra_undecl_rec_t   *rec;
    int64_t            t = T0;
    const char        *pages[] = { "/a.html", "/b.html", "/c.html",
                                   "/d.html", "/e.html", "/f.html" };
    char               ref[64];
    unsigned           i;

    (void) state;
    step_open(&s, &conf);
    assert_true(ra_audit_undeclared_on(s.au));

    robots_of(s.au, "User-agent: *\nDisallow: /private\n", t);

    /* a person: pages with their CSS and scripts, linked, and once a
     * disallowed page: never refused, never flagged */
    for (i = 0; i < 6; i++) {
        snprintf(ref, sizeof(ref), "https://example.com%s",
                 i ? pages[i - 1] : "/");
        assert_int_equal(turn(&s, "192.0.2.8", FIREFOX, pages[i],
                              i ? ref : "", t += 3000, &v), 0);
        assert_int_equal(v.kind, RA_UA_BROWSER);
        snprintf(ref, sizeof(ref), "https://example.com%s", pages[i]);
        assert_int_equal(turn(&s, "192.0.2.8", FIREFOX, "/style.css", ref,
                              t += 100, &v), 0);
        assert_int_equal(turn(&s, "192.0.2.8", FIREFOX, "/app.js", ref,
                              t += 100, &v), 0);
    }
    assert_int_equal(turn(&s, "192.0.2.8", FIREFOX, "/private/x", ref,
                          t += 3000, &v), 0);
    assert_int_equal(s.alerts.len + s.evidence.len, 0);

    /* a crawler in Chrome's clothes: robots.txt flags it */
    assert_int_equal(turn(&s, "192.0.2.7", CHROME, "/robots.txt", "",
                          t += 1000, &v), 0);
    assert_int_equal(turn(&s, "192.0.2.7", CHROME, "/private/y", "",
                          t += 1000, &v), 1);
    assert_int_equal(v.refused, RA_REFUSE_UNDECLARED);
    assert_non_null(strstr(s.alerts.out, "\"tag\":\"RA104\""));
    assert_non_null(strstr(s.alerts.out, "\"client\":\"192.0.2.7\""));
    assert_non_null(strstr(s.alerts.out, "\"signals\":[\"robots.txt\""));
    assert_non_null(strstr(s.evidence.out, "\"crawler\":\"undeclared\""));
    assert_non_null(strstr(s.evidence.out, "\"uri\":\"/private/y\""));
    assert_true(log_has(&s.z.log, "[RA104] violation"));
    assert_true(log_has(&s.z.log, "refused: undeclared"));
    assert_int_equal(turn(&s, "192.0.2.7", CHROME, "/open", "", t += 1000,
                          &v), 0);

    assert_int_equal(ra_ledger_undecl_copy_locked(&s.z.ledger, &ra_malloc_allocator,
                                           &copy), RA_OK);
    assert_int_equal(copy.n, 1);
    assert_int_equal(ra_undecl_records(copy.sites[0].table), 1);
    rec = ra_undecl_record(copy.sites[0].table, 0);
    assert_int_equal(rec->requests, 3);
    assert_int_equal(rec->violation, 1);
    assert_int_equal(rec->compliant, 1);
    ra_ledger_undecl_free(&ra_malloc_allocator, &copy);

    /* off: no table is asked */
    conf.undeclared_off = 1;
    ra_audit_destroy(s.au);
    s.au = ra_audit_create(&conf, &s.z.ledger);
    assert_false(ra_audit_undeclared_on(s.au));
    assert_int_equal(turn(&s, "192.0.2.7", CHROME, "/private/z", "",
                          t += 1000, &v), 0);
    ra_audit_destroy(s.au);
    ra_test_arena_free(s.arena);
    free(s.z.region);
}

/* People behind one address: browsers of four kinds loading their
 * pages' subresources.  One of them reading robots.txt and a disallowed
 * path is neither flagged nor refused, and its path, never matched for
 * people's address, is not remembered as allowed: the crawler at the
 * next address asking for it is refused */
static void
server_shared_address(void **state)
{
    step_t           s;
    ra_audit_conf_t  conf;
    ra_verdict_t     v;
    int64_t          t = T0;
    unsigned         i;
    const char      *uas[] = {
        CHROME, FIREFOX,
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/"
        "605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
        "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 "
        "(KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
        "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 "
        "(KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 "
        "(KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
    };

    (void) state;
    step_open(&s, &conf);
    robots_of(s.au, "User-agent: *\nDisallow: /private\n", t);
    for (i = 0; i < sizeof(uas) / sizeof(uas[0]); i++) {
        assert_int_equal(turn(&s, "198.51.100.9", uas[i], "/index.html", "",
                              t += 1000, &v), 0);
        assert_int_equal(turn(&s, "198.51.100.9", uas[i], "/style.css", "",
                              t += 100, &v), 0);
    }
    assert_int_equal(turn(&s, "198.51.100.9", CHROME, "/robots.txt", "",
                          t += 1000, &v), 0);
    assert_int_equal(turn(&s, "198.51.100.9", CHROME, "/private/p", "",
                          t += 1000, &v), 0);
    assert_int_equal(v.refused, RA_REFUSE_NONE);
    assert_int_equal(s.alerts.len + s.evidence.len, 0);

    assert_int_equal(turn(&s, "192.0.2.7", CHROME, "/robots.txt", "",
                          t += 1000, &v), 0);
    assert_int_equal(turn(&s, "192.0.2.7", CHROME, "/private/p", "",
                          t += 1000, &v), 1);
    assert_int_equal(v.refused, RA_REFUSE_UNDECLARED);
    assert_non_null(strstr(s.alerts.out, "\"client\":\"192.0.2.7\""));
    assert_null(strstr(s.alerts.out, "198.51.100.9"));
    ra_audit_destroy(s.au);
    ra_test_arena_free(s.arena);
    free(s.z.region);
}

/* What a process keeps between requests (the site, its robots.txt in
 * force, its table's slot, the client's address) gives way at once to a
 * change: a new robots.txt, from this process or another one, judges the
 * next request; a table taken by other sites meanwhile is the site's no
 * more; and a slot's hint of another generation is not believed */
static void
server_memo_follows_changes(void **state)
{
    step_t            s;
    ra_audit_conf_t   conf;
    ra_audit_t       *other;
    ra_verdict_t      v;
    uint32_t          n, i, slot, gen, slot2, gen2;
    ra_undecl_t      *t;
    char              name[32];
    int64_t           t0 = T0;

    (void) state;
    step_open(&s, &conf);
    other = ra_audit_create(&conf, &s.z.ledger);
    assert_non_null(other);

    robots_of(s.au, "User-agent: *\nDisallow: /private\n", t0);
    assert_int_equal(turn(&s, "192.0.2.7", CHROME, "/robots.txt", "",
                          t0 += 1000, &v), 0);
    assert_int_equal(turn(&s, "192.0.2.7", CHROME, "/private/y", "",
                          t0 += 1000, &v), 1);
    assert_int_equal(v.refused, RA_REFUSE_UNDECLARED);
    assert_int_equal(turn(&s, "192.0.2.7", CHROME, "/open", "", t0 += 1000,
                          &v), 0);

    /* the allowed paths this process remembers are kept whole, and a
     * path too long to keep is matched each time: a long allowed path
     * asked twice, then a long disallowed one, is judged as such */
    {
        char  longp[300];

        memset(longp, 'a', sizeof(longp) - 1);
        longp[sizeof(longp) - 1] = '\0';
        longp[0] = '/';
        assert_int_equal(turn(&s, "192.0.2.7", CHROME, longp, "",
                              t0 += 1000, &v), 0);
        assert_int_equal(turn(&s, "192.0.2.7", CHROME, longp, "",
                              t0 += 1000, &v), 0);
        memcpy(longp, "/private", 8);
        assert_int_equal(turn(&s, "192.0.2.7", CHROME, longp, "",
                              t0 += 1000, &v), 1);
        assert_int_equal(v.refused, RA_REFUSE_UNDECLARED);
        /* and a short one remembered allowed, then asked again */
        assert_int_equal(turn(&s, "192.0.2.7", CHROME, "/open", "",
                              t0 += 1000, &v), 0);
    }

    /* this process's new robots.txt */
    robots_of(s.au, "User-agent: *\nDisallow: /open\n", t0 += 1000);
    assert_int_equal(turn(&s, "192.0.2.7", CHROME, "/private/y", "",
                          t0 += 1000, &v), 0);
    assert_int_equal(turn(&s, "192.0.2.7", CHROME, "/open", "", t0 += 1000,
                          &v), 1);
    assert_int_equal(v.refused, RA_REFUSE_UNDECLARED);

    /* another process's */
    robots_of(other, "User-agent: *\nDisallow: /private\n", t0 += 1000);
    assert_int_equal(turn(&s, "192.0.2.7", CHROME, "/open", "", t0 += 1000,
                          &v), 0);
    assert_int_equal(turn(&s, "192.0.2.7", CHROME, "/private/z", "",
                          t0 += 1000, &v), 1);

    /* a slot's hint: believed while its generation holds, else the
     * site's table is looked up by name */
    ra_ledger_lock(&s.z.ledger);
    gen = 0;
    t = ra_ledger_undecl_hinted_locked(&s.z.ledger, ra_str_z("example.com"),
                                       t0, &slot, &gen);
    assert_non_null(t);
    assert_int_not_equal(gen, 0);
    ra_ledger_undecl_done_locked(&s.z.ledger, slot);
    slot2 = slot;
    gen2 = gen + 1;
    assert_ptr_equal(ra_ledger_undecl_hinted_locked(&s.z.ledger,
                                                    ra_str_z("example.com"),
                                                    t0, &slot2, &gen2), t);
    assert_int_equal(slot2, slot);
    assert_int_equal(gen2, gen);
    ra_ledger_undecl_done_locked(&s.z.ledger, slot2);

    /* every table to other sites, seen later: example.com's goes */
    n = ra_ledger_undecl_slots(&s.z.ledger);
    for (i = 0; i < n; i++) {
        snprintf(name, sizeof(name), "s%u.test", i);
        t = ra_ledger_undecl_locked(&s.z.ledger, ra_str_z(name),
                                    t0 + 10 + i, &slot2);
        ra_ledger_undecl_done_locked(&s.z.ledger, slot2);
    }
    ra_ledger_unlock(&s.z.ledger);
    t0 += 10 + n;
    /* the same slot, another generation: the site's client is forgotten
     * (a new table), its disallowed path counts only as a signal */
    assert_int_equal(turn(&s, "192.0.2.7", CHROME, "/private/z", "",
                          t0 += 1000, &v), 0);
    assert_int_equal(v.refused, RA_REFUSE_NONE);
    ra_audit_destroy(other);
    ra_audit_destroy(s.au);
    ra_test_arena_free(s.arena);
    free(s.z.region);
}

/* enforce's word */
static void
enforce_word(void **state)
{
    ra_enforce_t  e = RA_ENFORCE_OFF;
    const char   *why = NULL;

    (void) state;
    assert_int_equal(ra_enforce_word(&e, ra_str_z("Undeclared"), &why),
                     RA_OK);
    assert_int_equal(e, RA_ENFORCE_UNDECLARED);
    assert_true(ra_enforce_any(e));
    assert_string_equal(ra_refuse_name(RA_REFUSE_UNDECLARED), "undeclared");
    assert_int_equal(ra_enforce_word(&e, ra_str_z("undeclare"), &why),
                     RA_ERROR);
    assert_non_null(strstr(why, "undeclared"));
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(placement_and_check),
        cmocka_unit_test(zone_tables_per_site),
        cmocka_unit_test(zone_crash_recovery),
        cmocka_unit_test(server_step),
        cmocka_unit_test(server_shared_address),
        cmocka_unit_test(server_memo_follows_changes),
        cmocka_unit_test(enforce_word),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
