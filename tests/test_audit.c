/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Verdicts, case by case (docs/design.md, "Verdicts"), and the ledger they live
 * in: windows of 24 and 12 hours, version changes, Crawl-delay, exempt
 * and impostor paths, eviction, snapshots, layout checks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ra_test.h"
#include "ra_alert.h"
#include "ra_audit.h"
#include "ra_audit_want.h"
#include "ra_digest.h"
#include "ra_http.h"
#include "ra_refer.h"

#define H        (3600LL * 1000)
#define T0       (1700000000000LL)

static const char  test_crawlers[] =
    "crawler TestBot\n"
    "ua TestBot\n"
    "tokens TestBot\n"
    "operator Google\n"
    "category search\n"
    "flags crawl-delay\n"
    "ranges test.json\n"
    "\n"
    "crawler TestBot-Image\n"
    "ua TestBot-Image\n"
    "tokens TestBot-Image TestBot\n"
    "category search\n"
    "\n"
    "crawler AskBot\n"
    "ua AskBot\n"
    "category ai-user\n"
    "flags user-triggered\n"
    "\n"
    "crawler AdsLike\n"
    "ua AdsLike\n"
    "category tool\n"
    "flags ignores-star\n";

typedef struct {
    ra_test_arena_t *arena;         /* crawler table and ranges */
    unsigned char   *region;
    ra_ledger_t      ledger;
    ra_crawlers_t   *crawlers;
    ra_ranges_t     *ranges;
    ra_audit_t      *au;
} fx_t;

/* A host that keeps the lines it is given. */
typedef struct {
    ra_host_t   host;
    char        lines[16][RA_HOST_LINE_MAX + 1];
    int         levels[16];
    void       *wheres[16];
    int         n;
} cap_host_t;

static void
cap_log(const ra_host_t *h, void *where, ra_log_level_e level, ra_str_t line)
{
    cap_host_t  *c = h->ctx;

    if (c->n < 16) {
        memcpy(c->lines[c->n], line.data, line.len);
        c->lines[c->n][line.len] = '\0';
        c->levels[c->n] = (int) level;
        c->wheres[c->n] = where;
        c->n++;
    }
}

static void
cap_init(cap_host_t *c)
{
    memset(c, 0, sizeof(*c));
    c->host.ctx = c;
    c->host.log = cap_log;
    c->host.heap = ra_malloc_allocator;
}

/* the engine's configuration: fx_new() sets it, a test may change it and
 * call fx_reaudit() */
static ra_audit_conf_t  fx_conf;

static void
fx_reaudit(fx_t *f)
{
    ra_audit_destroy(f->au);
    f->au = ra_audit_create(&fx_conf, &f->ledger);
    assert_non_null(f->au);
}

static fx_t *
fx_new(size_t size)
{
    fx_t               *f = calloc(1, sizeof(*f));
    ra_crawlers_err_t   cerr;
    ra_json_err_t       jerr;
    ra_audit_conf_t     conf;
    ra_str_t            json = ra_string(
        "{\"prefixes\":[{\"ipv4Prefix\":\"192.0.2.0/24\"}]}");

    f->region = malloc(size);
    assert_int_equal(ra_ledger_format(f->region, size, T0), RA_OK);
    ra_ledger_open(&f->ledger, f->region, NULL);
    f->arena = ra_test_arena_new();
    f->crawlers = ra_crawlers_create(ra_test_arena_alloc(f->arena));
    assert_int_equal(ra_crawlers_add(f->crawlers,
                                     ra_str(test_crawlers,
                                            sizeof(test_crawlers) - 1),
                                     &cerr), RA_OK);
    assert_int_equal(ra_crawlers_compile(f->crawlers, &cerr), RA_OK);
    f->ranges = ra_ranges_create(ra_test_arena_alloc(f->arena));
    assert_int_equal(ra_ranges_add_json(f->ranges, ra_str("test.json", 9),
                                        json, &jerr), RA_OK);
    memset(&conf, 0, sizeof(conf));
    conf.alloc = &ra_malloc_allocator;
    conf.crawlers = f->crawlers;
    conf.ranges = f->ranges;
    conf.alert_interval = 60000;
    f->au = ra_audit_create(&conf, &f->ledger);
    assert_non_null(f->au);
    fx_conf = conf;
    return f;
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
robots(fx_t *f, const char *site, int status, const char *body, int64_t t)
{
    ra_answer_t  a;

    memset(&a, 0, sizeof(a));
    a.status = status;
    a.body = ra_str(body, strlen(body));
    a.content_type = (ra_str_t) ra_string("text/plain");
    assert_int_equal(ra_audit_robots(f->au, ra_str(site, strlen(site)), &a,
                                     t), RA_OK);
}

/* A request judged before it is served, with enforce's scope */
static ra_verdict_t
req_enforce(fx_t *f, const char *ua, const char *addr, const char *uri,
    int64_t t, ra_enforce_t scope)
{
    ra_request_t  r;
    ra_verdict_t  v;

    memset(&r, 0, sizeof(r));
    r.site = (ra_str_t) ra_string("example.com");
    r.time = t;
    r.addr = ra_str(addr, strlen(addr));
    r.user_agent = ra_str(ua, strlen(ua));
    r.method = (ra_str_t) ra_string("GET");
    r.uri = ra_str(uri, strlen(uri));
    r.enforce = scope;
    assert_int_equal(ra_audit_request(f->au, &r, &v), RA_OK);
    return v;
}

static ra_verdict_t
req(fx_t *f, const char *ua, const char *addr, const char *uri, int status,
    int64_t t)
{
    ra_request_t  r;
    ra_verdict_t  v;

    memset(&r, 0, sizeof(r));
    r.site = (ra_str_t) ra_string("example.com");
    r.time = t;
    r.addr = ra_str(addr, strlen(addr));
    r.user_agent = ra_str(ua, strlen(ua));
    r.method = (ra_str_t) ra_string("GET");
    r.uri = ra_str(uri, strlen(uri));
    r.status = status;
    assert_int_equal(ra_audit_request(f->au, &r, &v), RA_OK);
    return v;
}

#define BOT   "Mozilla/5.0 (compatible; TestBot/2.1; +http://test.example/)"
#define IN    "192.0.2.7"
#define OUT   "203.0.113.9"

/* The record of (example.com, name, verification), as a snapshot shows
 * it; the test fails when there is none. */
static ra_stat_t
stat_of(fx_t *f, const char *name, unsigned verification)
{
    ra_snapshot_t  snap;
    ra_stat_t      st;
    uint32_t       i;
    int            found = 0;

    memset(&st, 0, sizeof(st));
    assert_int_equal(ra_ledger_snapshot(&f->ledger, &ra_malloc_allocator, 0,
                                        &snap), RA_OK);
    for (i = 0; i < snap.nstats; i++) {
        const ra_stat_t  *x = &snap.stats[i];
        const ra_site_t  *s;

        assert_true(x->site >= 1 && x->site <= snap.nsites);
        s = &snap.sites[x->site - 1];
        if (s->name_len == 11 && memcmp(s->name, "example.com", 11) == 0
            && x->verification == verification
            && x->name_len == strlen(name)
            && memcmp(x->name, name, x->name_len) == 0)
        {
            assert_false(found);
            st = *x;
            found = 1;
        }
    }
    ra_snapshot_free(&snap, &ra_malloc_allocator);
    assert_true(found);
    return st;
}

/* The site named name (as the ledger keeps it: lower case). */
static ra_site_t
site_of(fx_t *f, const char *name)
{
    ra_snapshot_t  snap;
    ra_site_t      s;
    uint32_t       i;
    int            found = 0;

    memset(&s, 0, sizeof(s));
    assert_int_equal(ra_ledger_snapshot(&f->ledger, &ra_malloc_allocator, 0,
                                        &snap), RA_OK);
    for (i = 0; i < snap.nsites; i++) {
        if (snap.sites[i].name_len == strlen(name)
            && memcmp(snap.sites[i].name, name, strlen(name)) == 0)
        {
            s = snap.sites[i];
            found = 1;
        }
    }
    ra_snapshot_free(&snap, &ra_malloc_allocator);
    assert_true(found);
    return s;
}

static ra_totals_t
totals_of(fx_t *f)
{
    ra_totals_t  t;

    ra_ledger_totals(&f->ledger, &t);
    return t;
}

/* A request of ua for site, through engine au. */
static void
req_site(ra_audit_t *au, const char *site, const char *ua, const char *uri,
    int64_t t)
{
    ra_request_t  r;
    ra_verdict_t  v;

    memset(&r, 0, sizeof(r));
    r.site = ra_str(site, strlen(site));
    r.time = t;
    r.addr = (ra_str_t) ra_string("192.0.2.7");
    r.user_agent = ra_str(ua, strlen(ua));
    r.method = (ra_str_t) ra_string("GET");
    r.uri = ra_str(uri, strlen(uri));
    r.status = 200;
    assert_int_equal(ra_audit_request(au, &r, &v), RA_OK);
}

/*
 * An engine's site hints (the sites it found last) never count a request
 * for a site that another process evicted meanwhile, and whose slot went
 * to another site, under that other site: the ledger's epoch tells them
 * apart.  Engine a counts for "a.example" (hinted), engine b (another
 * process on the same ledger) fills the table until "a.example" is gone,
 * then a counts for it again: "a.example" has exactly those requests, and
 * every site b made has exactly b's.
 */
static void
verdict_site_hint_after_eviction(void **state)
{
    fx_t              *f = fx_new(RA_LEDGER_MIN_SIZE);
    ra_audit_t        *b;
    ra_ledger_plan_t   plan;
    ra_site_t          s;
    uint32_t           i;
    char               name[32];
    const char        *browser = "Mozilla/5.0 (X11; Linux x86_64) Firefox/120";

    (void) state;
    fx_conf.crawler_sites = 0;
    fx_reaudit(f);
    b = ra_audit_create(&fx_conf, &f->ledger);
    assert_non_null(b);
    assert_int_equal(ra_ledger_plan(RA_LEDGER_MIN_SIZE, &plan), RA_OK);

    req_site(f->au, "a.example", browser, "/", T0);
    req_site(f->au, "a.example", BOT, "/page", T0 + 1);
    s = site_of(f, "a.example");
    assert_int_equal(s.browser_requests, 1);
    assert_int_equal(s.counters[RA_CNT_REQUESTS], 1);

    /* b takes every slot: "a.example" is the least recently used */
    for (i = 0; i < plan.sites + 1; i++) {
        snprintf(name, sizeof(name), "b%u.example", i);
        req_site(b, name, browser, "/", T0 + 10 + i);
        req_site(b, name, BOT, "/page", T0 + 10 + i);
    }

    /* a's hint names a slot that holds another site now */
    req_site(f->au, "a.example", browser, "/", T0 + 100000);
    req_site(f->au, "a.example", BOT, "/page", T0 + 100001);
    req_site(f->au, "a.example", BOT, "/other", T0 + 100002);
    s = site_of(f, "a.example");
    assert_int_equal(s.browser_requests, 1);
    assert_int_equal(s.counters[RA_CNT_REQUESTS], 2);
    for (i = 2; i < plan.sites + 1; i++) {
        snprintf(name, sizeof(name), "b%u.example", i);
        s = site_of(f, name);
        assert_int_equal(s.browser_requests, 1);
        assert_int_equal(s.counters[RA_CNT_REQUESTS], 1);
    }
    ra_audit_destroy(b);
    fx_free(f);
}

/*
 * The same within the time a hint counts browsers without the lock
 * (RA_SITE_TOUCH_MS): engine a's hint for "a.example" is refused once
 * engine b has evicted it and given its slot to another site, so a's
 * next browser request recreates "a.example" and counts there, and no
 * site of b's gets it.
 */
static void
verdict_site_hint_refused_without_lock(void **state)
{
    fx_t              *f = fx_new(RA_LEDGER_MIN_SIZE);
    ra_audit_t        *b;
    ra_ledger_plan_t   plan;
    ra_site_t          s;
    uint32_t           i;
    char               name[32];
    const char        *browser = "Mozilla/5.0 (X11; Linux x86_64) Firefox/120";

    (void) state;
    fx_conf.crawler_sites = 0;
    fx_reaudit(f);
    b = ra_audit_create(&fx_conf, &f->ledger);
    assert_non_null(b);
    assert_int_equal(ra_ledger_plan(RA_LEDGER_MIN_SIZE, &plan), RA_OK);

    /* the second and third counted by the hint, without the lock */
    req_site(f->au, "a.example", browser, "/", T0);
    req_site(f->au, "a.example", browser, "/", T0 + 1);
    req_site(f->au, "a.example", browser, "/", T0 + 2);
    s = site_of(f, "a.example");
    assert_int_equal(s.browser_requests, 3);

    for (i = 0; i < plan.sites + 1; i++) {
        snprintf(name, sizeof(name), "b%u.example", i);
        req_site(b, name, browser, "/", T0 + 3);
    }
    req_site(f->au, "a.example", browser, "/", T0 + 4);
    req_site(f->au, "a.example", browser, "/", T0 + 5);
    s = site_of(f, "a.example");
    assert_int_equal(s.browser_requests, 2);
    for (i = 2; i < plan.sites + 1; i++) {
        snprintf(name, sizeof(name), "b%u.example", i);
        s = site_of(f, name);
        assert_int_equal(s.browser_requests, 1);
    }
    assert_int_equal(totals_of(f).requests, 5 + plan.sites + 1);
    ra_audit_destroy(b);
    fx_free(f);
}

/*
 * Names that share a site hint (same length, same last byte) and differ
 * in one byte anywhere, short, 8 to 16 bytes (compared a word at a time)
 * and long: each browser request within the hint's time counts for its
 * own site, never for the one the hint held.
 */
static void
verdict_site_hint_names_apart(void **state)
{
    fx_t              *f = fx_new(1 << 20);
    static const size_t  lens[] = { 5, 8, 9, 12, 15, 16, 17, 40 };
    size_t             li, j, n, nvar;
    char               base[48], var[48];
    int64_t            t = T0;
    ra_site_t          s;
    const char        *browser = "Mozilla/5.0 (X11; Linux x86_64) Firefox/120";

    (void) state;
    fx_conf.crawler_sites = 0;
    fx_reaudit(f);
    for (li = 0; li < sizeof(lens) / sizeof(lens[0]); li++) {
        n = lens[li];
        memset(base, 'a', n - 1);
        base[n - 1] = 'e';
        base[n] = '\0';
        nvar = 0;
        req_site(f->au, base, browser, "/", t++);
        for (j = 0; j + 1 < n; j++) {
            memcpy(var, base, n + 1);
            var[j] = 'q';
            req_site(f->au, var, browser, "/", t++);
            req_site(f->au, base, browser, "/", t++);
            nvar++;
            s = site_of(f, var);
            assert_int_equal(s.browser_requests, 1);
        }
        s = site_of(f, base);
        assert_int_equal(s.browser_requests, 1 + nvar);
    }
    fx_free(f);
}

static int  imp_locks, imp_unlocks;

static void imp_lock(void *ctx) { (void) ctx; imp_locks++; }
static void imp_unlock(void *ctx) { (void) ctx; imp_unlocks++; }

/*
 * Threads' engines (impostors_of): each its own caches, one impostor
 * gate per process.  An impostor's alert through one engine holds back
 * the same key's through the other within the interval, and the next
 * alert after it, through either, counts them; the gate is taken under
 * the lock given, and only by the engines that share it.
 */
static void
verdict_thread_engines_share_impostor_gate(void **state)
{
    fx_t             *f = fx_new(1 << 20);
    ra_audit_t       *t1, *t2;
    ra_audit_conf_t   conf = fx_conf;
    ra_request_t      r;
    ra_verdict_t      v;

    (void) state;
    robots(f, "example.com", 200, "User-agent: *\nDisallow: /checkout\n",
           T0);
    conf.impostors_of = f->au;
    conf.impostors_lock.lock = imp_lock;
    conf.impostors_lock.unlock = imp_unlock;
    t1 = ra_audit_create(&conf, &f->ledger);
    t2 = ra_audit_create(&conf, &f->ledger);
    assert_non_null(t1);
    assert_non_null(t2);
    imp_locks = imp_unlocks = 0;

    memset(&r, 0, sizeof(r));
    r.site = (ra_str_t) ra_string("example.com");
    r.addr = (ra_str_t) ra_string(OUT);
    r.user_agent = (ra_str_t) ra_string(BOT);
    r.method = (ra_str_t) ra_string("GET");
    r.uri = (ra_str_t) ra_string("/checkout");
    r.status = 200;

    r.time = T0 + 1;
    assert_int_equal(ra_audit_request(t1, &r, &v), RA_OK);
    assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
    assert_int_equal(v.verification, RA_VERIFY_IMPOSTOR);
    assert_true(v.alert);
    r.time = T0 + 1000;
    assert_int_equal(ra_audit_request(t2, &r, &v), RA_OK);
    assert_false(v.alert);                  /* t1's alert holds it back */
    r.time = T0 + 2000;
    assert_int_equal(ra_audit_request(t1, &r, &v), RA_OK);
    assert_false(v.alert);
    assert_int_equal(imp_locks, 3);
    assert_int_equal(imp_unlocks, 3);

    /* the interval over: through the other engine, both counted */
    r.time = T0 + 1 + 60000;
    assert_int_equal(ra_audit_request(t2, &r, &v), RA_OK);
    assert_true(v.alert);
    assert_int_equal(v.suppressed, 2);

    /* the engine they share takes no lock */
    r.time = T0 + 1000 + 60000;
    assert_int_equal(ra_audit_request(f->au, &r, &v), RA_OK);
    assert_false(v.alert);
    assert_int_equal(imp_locks, 4);

    /* each counted once, in the one ledger */
    assert_int_equal(stat_of(f, "TestBot", RA_VERIFY_IMPOSTOR)
                     .counters[RA_CNT_VIOLATION], 5);
    ra_audit_destroy(t1);
    ra_audit_destroy(t2);
    fx_free(f);
}

/* browsers are counted in totals only */
static void
verdict_browser_counted_in_totals_only(void **state)
{
    fx_t          *f = fx_new(1 << 20);
    ra_verdict_t   v;
    ra_site_t      s;

    (void) state;
    robots(f, "example.com", 200, "User-agent: *\nDisallow: /\n", T0);
    v = req(f, "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 "
               "Firefox/120.0", OUT, "/private", 200, T0 + 1);
    assert_int_equal(v.verdict, RA_VERDICT_NONE);
    /* site names compare case-insensitively: no second site */
    ra_ledger_lock(&f->ledger);
    assert_int_equal(ra_ledger_site_locked(&f->ledger,
                         (ra_str_t) ra_string("Example.COM"), T0), 1);
    ra_ledger_unlock(&f->ledger);
    assert_int_equal(totals_of(f).sites, 1);
    s = site_of(f, "example.com");
    assert_int_equal(s.browser_requests, 1);
    assert_int_equal(s.counters[RA_CNT_REQUESTS], 0);
    assert_int_equal(totals_of(f).stats, 0);
    assert_int_equal(totals_of(f).requests, 1);
    fx_free(f);
}

/* The identity cache's key is the length and a sample of the bytes (the
 * last 32, the words at a quarter, a half, three quarters): a User-Agent
 * alike in all of these but not in its first bytes, found after the
 * other, is identified as itself, not served the other's identity */
static void
verdict_identity_cache_sample_alike(void **state)
{
    static const char  browser[] = "Mozilla/5.0 (X11; Linux x86_64; "
                                   "rv:120.0) Gecko/20100101 Firefox/120.0";
    static const char  bot[] = "SpamBot/1.0 (X11; Linux x86_64; "
                               "rv:120.0) Gecko/20100101 Firefox/120.0";
    fx_t          *f = fx_new(1 << 20), *g = fx_new(1 << 20);
    ra_verdict_t   v, w;
    size_t         n = sizeof(browser) - 1;

    (void) state;
    /* the same length and sample, different first bytes */
    assert_int_equal(sizeof(bot), sizeof(browser));
    assert_true(n >= 48);
    assert_memory_equal(bot + n - 32, browser + n - 32, 32);
    assert_memory_equal(bot + n / 4, browser + n / 4, 8);
    assert_memory_equal(bot + n / 2, browser + n / 2, 8);
    assert_memory_equal(bot + n / 2 + n / 4, browser + n / 2 + n / 4, 8);
    assert_memory_not_equal(bot, browser, 8);
    robots(f, "example.com", 200, "User-agent: *\nDisallow: /\n", T0);
    robots(g, "example.com", 200, "User-agent: *\nDisallow: /\n", T0);
    w = req(g, bot, OUT, "/private", 200, T0 + 1);          /* uncached */
    assert_int_not_equal(w.kind, RA_UA_BROWSER);
    v = req(f, browser, OUT, "/private", 200, T0 + 1);
    assert_int_equal(v.kind, RA_UA_BROWSER);
    v = req(f, bot, OUT, "/private", 200, T0 + 2);
    assert_int_equal(v.kind, w.kind);
    assert_int_equal(v.verdict, w.verdict);
    v = req(f, browser, OUT, "/private", 200, T0 + 3);
    assert_int_equal(v.kind, RA_UA_BROWSER);
    fx_free(f);
    fx_free(g);
}

/* /llms.txt and /llms-full.txt: judged as any URL, and counted */
static void
verdict_llms_fetch_counted(void **state)
{
    fx_t          *f = fx_new(1 << 20);
    ra_verdict_t   v;
    ra_stat_t      st;

    (void) state;
    robots(f, "example.com", 200, "User-agent: *\nDisallow: /llms\n", T0);
    v = req(f, BOT, IN, "/llms.txt", 200, T0 + 5);
    assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
    v = req(f, BOT, IN, "/llms-full.txt?x=1", 200, T0 + 6);
    assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
    v = req(f, BOT, IN, "/docs/llms.txt", 200, T0 + 7);
    v = req(f, BOT, IN, "/index.html", 200, T0 + 8);
    assert_int_equal(v.verdict, RA_VERDICT_COMPLIANT);
    st = stat_of(f, "TestBot", RA_VERIFY_VERIFIED);
    assert_int_equal(st.counters[RA_CNT_LLMS_FETCHES], 2);
    assert_int_equal(st.counters[RA_CNT_REQUESTS], 4);
    assert_int_equal(st.counters[RA_CNT_ROBOTS_FETCHES], 0);
    fx_free(f);
}

/* A request with a Referer (crawl-to-refer), answered status */
static void
req_referred_status(fx_t *f, const char *ua, const char *addr,
    const char *uri, const char *referer, int status, int64_t t)
{
    ra_request_t  r;
    ra_verdict_t  v;

    memset(&r, 0, sizeof(r));
    r.site = (ra_str_t) ra_string("example.com");
    r.time = t;
    r.addr = ra_str(addr, strlen(addr));
    r.user_agent = ra_str(ua, strlen(ua));
    r.method = (ra_str_t) ra_string("GET");
    r.uri = ra_str(uri, strlen(uri));
    r.status = status;
    r.referer = ra_str(referer, strlen(referer));
    assert_int_equal(ra_audit_request(f->au, &r, &v), RA_OK);
}

static void
req_referred(fx_t *f, const char *ua, const char *addr, const char *uri,
    const char *referer, int64_t t)
{
    req_referred_status(f, ua, addr, uri, referer, 200, t);
}

/* crawl-to-refer: browser visits referred by an operator's hosts, beside
 * its crawlers' requests (TestBot's operator is Google here); impostors'
 * requests and crawlers' Referers are not counted */
static void
verdict_referrals_counted(void **state)
{
    static const char  ff[] = "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) "
                              "Gecko/20100101 Firefox/120.0";
    fx_t      *f = fx_new(1 << 20);
    ra_site_t  s;
    ra_refer_t t;
    int        g, m, o;

    (void) state;
    assert_int_equal(ra_refer_builtin(&t), RA_OK);
    g = ra_refer_operator(&t, (ra_str_t) ra_string("Google"));
    m = ra_refer_operator(&t, (ra_str_t) ra_string("Microsoft"));
    o = ra_refer_operator(&t, (ra_str_t) ra_string("OpenAI"));
    assert_true(g >= 0 && m >= 0 && o >= 0);

    robots(f, "example.com", 200, "User-agent: *\nDisallow: /private\n", T0);
    req_referred(f, ff, OUT, "/a", "https://www.google.co.uk/search?q=x",
                 T0 + 1);
    req_referred(f, ff, OUT, "/b", "https://www.google.com/", T0 + 2);
    req_referred(f, ff, OUT, "/c", "https://gemini.google.com/app", T0 + 3);
    req_referred(f, ff, OUT, "/d", "https://www.bing.com/search?q=y", T0 + 4);
    req_referred(f, ff, OUT, "/e", "https://chatgpt.com/", T0 + 5);
    /* not an operator's: look-alikes, no host, the site itself */
    req_referred(f, ff, OUT, "/f", "https://google.evil.example/", T0 + 6);
    req_referred(f, ff, OUT, "/g", "https://notbing.com/", T0 + 7);
    req_referred(f, ff, OUT, "/h", "-", T0 + 8);
    req_referred(f, ff, OUT, "/i", "https://example.com/", T0 + 9);
    /* no User-Agent: not a browser visit */
    req_referred(f, "", OUT, "/j", "https://www.google.com/", T0 + 10);
    /* the crawler's requests: verified, a robots.txt fetch, an impostor
     * (not counted), and a crawler's own Referer (not a referral) */
    req_referred(f, BOT, IN, "/private/x", "https://www.google.com/",
                 T0 + 11);
    req_referred(f, BOT, IN, "/robots.txt", "", T0 + 12);
    req_referred(f, BOT, OUT, "/y", "", T0 + 13);

    s = site_of(f, "example.com");
    assert_int_equal(s.referrals[g], 3);
    assert_int_equal(s.referrals[m], 1);
    assert_int_equal(s.referrals[o], 1);
    assert_int_equal(s.referral_crawls[g], 2);
    assert_int_equal(s.referral_crawls[m], 0);
    assert_int_equal(s.browser_requests, 9);

    /* the same Referers again (this process's hints), in another order,
     * and one too long to be hinted: each counted for its operator */
    req_referred(f, ff, OUT, "/k", "https://notbing.com/", T0 + 14);
    req_referred(f, ff, OUT, "/l", "https://www.bing.com/search?q=y", T0 + 15);
    req_referred(f, ff, OUT, "/m", "https://www.google.com/", T0 + 16);
    req_referred(f, ff, OUT, "/n", "https://www.google.com/", T0 + 17);
    req_referred(f, ff, OUT, "/o", "https://google.evil.example/", T0 + 18);
    req_referred(f, ff, OUT, "/p", "https://www.bing.com/search?q=a-question-"
                 "long-enough-to-be-matched-every-time", T0 + 19);
    s = site_of(f, "example.com");
    assert_int_equal(s.referrals[g], 5);
    assert_int_equal(s.referrals[m], 3);
    assert_int_equal(s.referrals[o], 1);
    assert_int_equal(s.browser_requests, 15);

    /* one visit, one referral: a redirect's target is requested with the
     * same Referer, and a document read in ranges (a PDF viewer's 206s
     * after its 200) is the same visit; a revalidated page (304) or a
     * missing one (404) is a visit */
    req_referred_status(f, ff, OUT, "/q", "https://www.google.com/", 301,
                        T0 + 20);
    req_referred_status(f, ff, OUT, "/q/", "https://www.google.com/", 302,
                        T0 + 21);
    req_referred_status(f, ff, OUT, "/r", "https://www.google.com/", 307,
                        T0 + 22);
    req_referred_status(f, ff, OUT, "/s.pdf", "https://www.google.com/", 206,
                        T0 + 23);
    req_referred_status(f, ff, OUT, "/s.pdf", "https://www.google.com/", 206,
                        T0 + 24);
    s = site_of(f, "example.com");
    assert_int_equal(s.referrals[g], 5);
    req_referred_status(f, ff, OUT, "/t", "https://www.google.com/", 304,
                        T0 + 25);
    req_referred_status(f, ff, OUT, "/u", "https://www.google.com/", 404,
                        T0 + 26);
    s = site_of(f, "example.com");
    assert_int_equal(s.referrals[g], 7);
    assert_int_equal(s.browser_requests, 22);
    fx_free(f);
}

/* ChatGPT's links carry utm_source=chatgpt.com, and its pages often send
 * no Referer: such a browser visit is OpenAI's referral; a Referer that
 * names an operator comes first; a redirect, a range, a crawler or no
 * User-Agent is no visit, nor is a navigation from the site's own page
 * (a site that keeps the parameter on its links, a form sent back to
 * it: the visit it belongs to was counted on arrival) */
static void
verdict_utm_source_referrals(void **state)
{
    static const char  ff[] = "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) "
                              "Gecko/20100101 Firefox/120.0";
    fx_t      *f = fx_new(1 << 20);
    ra_site_t  s;
    ra_refer_t t;
    int        g, o;

    (void) state;
    assert_int_equal(ra_refer_builtin(&t), RA_OK);
    g = ra_refer_operator(&t, (ra_str_t) ra_string("Google"));
    o = ra_refer_operator(&t, (ra_str_t) ra_string("OpenAI"));
    assert_true(g >= 0 && o >= 0);

    robots(f, "example.com", 200, "User-agent: *\nDisallow: /private\n", T0);
    req_referred(f, ff, OUT, "/a?utm_source=chatgpt.com", "", T0 + 1);
    req_referred(f, ff, OUT, "/b?utm_source=chatgpt.com", "-", T0 + 2);
    req_referred(f, ff, OUT, "/c?utm_source=chatgpt.com",
                 "https://example.com/a?utm_source=chatgpt.com", T0 + 3);
    req_referred(f, ff, OUT, "/c2?utm_source=chatgpt.com",
                 "https://WWW.Example.com./a", T0 + 3);
    req_referred(f, ff, OUT, "/c3?utm_source=chatgpt.com",
                 "http://example.com:8080/a", T0 + 3);
    /* another site's page, or one that only ends like this one's name */
    req_referred(f, ff, OUT, "/c4?utm_source=chatgpt.com",
                 "https://blog.example.org/", T0 + 3);
    req_referred(f, ff, OUT, "/c5?utm_source=chatgpt.com",
                 "https://notexample.com/", T0 + 3);
    req_referred(f, ff, OUT, "/d?utm_source=chatgpt.com",
                 "https://www.google.com/", T0 + 4);
    req_referred(f, ff, OUT, "/e?utm_source=chatgpt.com.evil.example", "",
                 T0 + 5);
    req_referred_status(f, ff, OUT, "/f?utm_source=chatgpt.com", "", 302,
                        T0 + 6);
    req_referred(f, "", OUT, "/g?utm_source=chatgpt.com", "", T0 + 7);
    req_referred(f, BOT, IN, "/h?utm_source=chatgpt.com", "", T0 + 8);
    s = site_of(f, "example.com");
    assert_int_equal(s.referrals[o], 4);        /* /a, /b, /c4, /c5 */
    assert_int_equal(s.referrals[g], 1);
    fx_free(f);
}

/* a /robots.txt request is a fetch: time, status, version served */
static void
verdict_robots_fetch_recorded(void **state)
{
    fx_t          *f = fx_new(1 << 20);
    ra_verdict_t   v;
    ra_stat_t      st;

    (void) state;
    robots(f, "example.com", 200, "User-agent: *\nDisallow: /x\n", T0);
    v = req(f, BOT, IN, "/robots.txt", 200, T0 + 5);
    assert_int_equal(v.verdict, RA_VERDICT_FETCH);
    assert_int_equal(v.verification, RA_VERIFY_VERIFIED);
    st = stat_of(f, "TestBot", RA_VERIFY_VERIFIED);
    assert_int_equal(st.counters[RA_CNT_ROBOTS_FETCHES], 1);
    assert_int_equal(st.counters[RA_CNT_REQUESTS], 1);
    assert_true(st.last_fetch == T0 + 5);
    assert_int_equal(st.last_fetch_status, 200);
    assert_true(st.last_fetch_version != 0);
    fx_free(f);
}

/* compliant: the current group allows the path; with the deciding rule */
static void
verdict_compliant_and_violation_single_version(void **state)
{
    fx_t          *f = fx_new(1 << 20);
    ra_verdict_t   v;
    ra_stat_t      st;

    (void) state;
    robots(f, "example.com", 200,
           "User-agent: *\nDisallow: /private\nAllow: /private/ok\n", T0);
    v = req(f, BOT, IN, "/robots.txt", 200, T0);
    v = req(f, BOT, IN, "/private/ok/1", 200, T0 + 1000);
    assert_int_equal(v.verdict, RA_VERDICT_COMPLIANT);
    assert_int_equal(v.line, 3);
    v = req(f, BOT, IN, "/private/x", 200, T0 + 2000);
    /* a site's first version has no predecessor: a violation */
    assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
    assert_int_equal(v.line, 2);
    assert_int_equal(v.rule_type, RA_RULE_DISALLOW);
    assert_true(v.alert);
    /* rfc mode: an escaped unreserved byte does not escape the rule */
    v = req(f, BOT, IN, "/%70rivate/y", 200, T0 + 3000);
    assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
    assert_false(v.alert);                  /* within the alert interval */
    st = stat_of(f, "TestBot", RA_VERIFY_VERIFIED);
    assert_int_equal(st.counters[RA_CNT_COMPLIANT], 1);
    assert_int_equal(st.counters[RA_CNT_VIOLATION], 2);
    assert_int_equal(st.counters[RA_CNT_REQUESTS], 4);
    fx_free(f);
}

/* The engine judges the path as received and its canonical
 * form; robots.txt spellings the servers serve are fetches; the ring and
 * the alert keep the target as received */
static void
verdict_spellings_through_the_engine(void **state)
{
    static const char  *const private[] = {
        "//private/x", "/./private/x", "/a/../private/x", "/%2Fprivate/x",
        "/%2e/private/x", "/a/%2e%2e/private/x", "/robots.txt/../private/x",
        "http://example.com//private/x", "http://example.com/./private/x",
    };
    static const char  *const fetches[] = {
        "//robots.txt", "/./robots.txt", "/robots.txt/../robots.txt",
        "/%72obots.txt", "http://example.com//robots.txt",
    };
    fx_t           *f = fx_new(1 << 20);
    ra_verdict_t    v;
    ra_stat_t       st;
    ra_snapshot_t   snap;
    size_t          i, k, n;
    int64_t         t = T0;

    (void) state;
    robots(f, "example.com", 200, "User-agent: *\nDisallow: /private/\n", T0);
    v = req(f, BOT, IN, "/robots.txt", 200, t++);
    assert_int_equal(v.verdict, RA_VERDICT_FETCH);
    for (i = 0; i < sizeof(fetches) / sizeof(fetches[0]); i++) {
        v = req(f, BOT, IN, fetches[i], 200, t++);
        assert_int_equal(v.verdict, RA_VERDICT_FETCH);
    }
    /* served 404 by Apache, decoded by nginx: judged as any request */
    v = req(f, BOT, IN, "/%2Frobots.txt", 404, t++);
    assert_int_equal(v.verdict, RA_VERDICT_COMPLIANT);
    for (i = 0; i < sizeof(private) / sizeof(private[0]); i++) {
        v = req(f, BOT, IN, private[i], 200, t++);
        if (v.verdict != RA_VERDICT_VIOLATION) {
            print_message("\"%s\": %s\n", private[i],
                          ra_verdict_name(v.verdict));
            fail();
        }
        assert_int_equal(v.line, 2);
    }
    st = stat_of(f, "TestBot", RA_VERIFY_VERIFIED);
    assert_int_equal(st.counters[RA_CNT_ROBOTS_FETCHES], 6);
    assert_int_equal(st.counters[RA_CNT_VIOLATION], 9);
    assert_int_equal(st.counters[RA_CNT_COMPLIANT], 1);

    /* the evidence: each target as it was received, newest first */
    assert_int_equal(ra_ledger_snapshot(&f->ledger, &ra_malloc_allocator, 0,
                                        &snap), RA_OK);
    n = sizeof(private) / sizeof(private[0]);
    assert_int_equal(snap.nviolations, n);
    for (i = 0; i < n; i++) {
        k = n - 1 - i;
        assert_int_equal(snap.violations[i].uri_len, strlen(private[k]));
        assert_memory_equal(snap.violations[i].uri, private[k],
                            strlen(private[k]));
    }
    ra_snapshot_free(&snap, &ra_malloc_allocator);
    fx_free(f);
}

/* alerts: one per interval per (site, crawler), with the held-back count */
static void
verdict_alerts_rate_limited_with_count(void **state)
{
    fx_t          *f = fx_new(1 << 20);
    ra_verdict_t   v;
    int            i;

    (void) state;
    robots(f, "example.com", 200, "User-agent: *\nDisallow: /\n", T0);
    v = req(f, BOT, IN, "/a", 200, T0);
    assert_true(v.alert);
    assert_int_equal(v.suppressed, 0);
    for (i = 1; i <= 5; i++) {
        v = req(f, BOT, IN, "/a", 200, T0 + i * 1000);
        assert_false(v.alert);
    }
    v = req(f, BOT, IN, "/a", 200, T0 + 61000);
    assert_true(v.alert);
    assert_int_equal(v.suppressed, 5);
    fx_free(f);
}

/* stale: the version it last fetched (within 24 h) allowed the path */
static void
verdict_stale_by_fetched_version(void **state)
{
    fx_t          *f = fx_new(1 << 20);
    ra_verdict_t   v;

    (void) state;
    robots(f, "example.com", 200, "User-agent: *\nDisallow: /old\n", T0);
    req(f, BOT, IN, "/robots.txt", 200, T0);
    robots(f, "example.com", 200, "User-agent: *\nDisallow: /new\n", T0 + H);
    v = req(f, BOT, IN, "/new/page", 200, T0 + 2 * H);
    assert_int_equal(v.verdict, RA_VERDICT_STALE);
    assert_int_equal(v.flags & RA_FLAG_NO_ROBOTS_FETCH, 0);
    /* once it fetched the new version, the same request violates */
    req(f, BOT, IN, "/robots.txt", 200, T0 + 3 * H);
    v = req(f, BOT, IN, "/new/page", 200, T0 + 3 * H + 1);
    assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
    fx_free(f);
}

/* a crawler that fetched the disallowing version gets no grace, even when
 * an older version in force today allowed the path */
static void
verdict_violation_when_fetched_version_disallows(void **state)
{
    fx_t          *f = fx_new(1 << 20);
    ra_verdict_t   v;

    (void) state;
    robots(f, "example.com", 200, "User-agent: *\nDisallow: /old\n", T0);
    robots(f, "example.com", 200, "User-agent: *\nDisallow: /new\n", T0 + H);
    req(f, BOT, IN, "/robots.txt", 200, T0 + 2 * H);
    v = req(f, BOT, IN, "/new/x", 200, T0 + 3 * H);
    assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
    fx_free(f);
}

/* stale without a fetch: a version in force in the last 24 h allowed it;
 * once that version is more than 24 h gone, a violation */
static void
verdict_stale_window_24h_without_fetch(void **state)
{
    fx_t          *f = fx_new(1 << 20);
    ra_verdict_t   v;

    (void) state;
    robots(f, "example.com", 200, "User-agent: *\nDisallow: /old\n", T0);
    robots(f, "example.com", 200, "User-agent: *\nDisallow: /new\n", T0 + H);
    v = req(f, BOT, IN, "/new/x", 200, T0 + 10 * H);
    assert_int_equal(v.verdict, RA_VERDICT_STALE);
    assert_true(v.flags & RA_FLAG_NO_ROBOTS_FETCH);
    v = req(f, BOT, IN, "/new/x", 200, T0 + H + 24 * H - 1);
    assert_int_equal(v.verdict, RA_VERDICT_STALE);
    v = req(f, BOT, IN, "/new/x", 200, T0 + H + 24 * H + 1);
    assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
    fx_free(f);
}

/* a fetch older than 24 h no longer pins the crawler to its version */
static void
verdict_fetch_older_than_24h_falls_back(void **state)
{
    fx_t          *f = fx_new(1 << 20);
    ra_verdict_t   v;

    (void) state;
    robots(f, "example.com", 200, "User-agent: *\nDisallow: /new\n", T0);
    req(f, BOT, IN, "/robots.txt", 200, T0);           /* fetched /new */
    robots(f, "example.com", 200, "User-agent: *\nDisallow: /old\n",
           T0 + 20 * H);
    robots(f, "example.com", 200, "User-agent: *\nDisallow: /new\n",
           T0 + 21 * H);
    /* fetched 26 h ago: any version in force in the last 24 h counts,
     * and the "/old" one (20 h .. 21 h) allowed /new */
    v = req(f, BOT, IN, "/new/x", 200, T0 + 26 * H);
    assert_int_equal(v.verdict, RA_VERDICT_STALE);
    assert_true(v.flags & RA_FLAG_NO_ROBOTS_FETCH);
    fx_free(f);
}

/* a generic bot's name in any case is one bot: what "Ruby" fetched is
 * what "ruby" and "RUBY" read (no "never fetched robots.txt"), and the
 * three are one record, shown as first seen */
static void
verdict_generic_name_any_case(void **state)
{
    fx_t          *f = fx_new(1 << 20);
    ra_verdict_t   v;
    ra_stat_t      st;

    (void) state;
    robots(f, "example.com", 200, "User-agent: *\nDisallow: /x\n", T0);
    v = req(f, "Ruby", IN, "/robots.txt", 200, T0 + 1);
    assert_int_equal(v.kind, RA_UA_GENERIC);
    assert_int_equal(v.verdict, RA_VERDICT_FETCH);
    v = req(f, "ruby", IN, "/x/1", 200, T0 + 2);
    assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
    assert_int_equal(v.flags & RA_FLAG_NO_ROBOTS_FETCH, 0);
    v = req(f, "RUBY", OUT, "/y", 200, T0 + 3);
    assert_int_equal(v.verdict, RA_VERDICT_COMPLIANT);
    assert_int_equal(v.flags & RA_FLAG_NO_ROBOTS_FETCH, 0);
    st = stat_of(f, "Ruby", RA_VERIFY_UNVERIFIABLE);
    assert_int_equal(st.counters[RA_CNT_REQUESTS], 3);
    assert_int_equal(st.counters[RA_CNT_ROBOTS_FETCHES], 1);
    assert_int_equal(st.counters[RA_CNT_VIOLATION], 1);
    assert_int_equal(st.counters[RA_CNT_NO_ROBOTS_FETCH], 0);
    assert_int_equal(totals_of(f).stats, 1);
    fx_free(f);
}

/* two bots that each call themselves "Crawler" are two bots: Algolia's
 * robots.txt fetch is not Audisto's, whose request stays "never fetched
 * robots.txt" (they were one "Crawler" record) */
static void
verdict_bare_word_bots_apart(void **state)
{
    fx_t          *f = fx_new(1 << 20);
    ra_verdict_t   v;

    (void) state;
    robots(f, "example.com", 200, "User-agent: *\nDisallow: /x\n", T0);
    v = req(f, "Algolia Crawler/1.0.0", IN, "/robots.txt", 200, T0 + 1);
    assert_int_equal(v.kind, RA_UA_GENERIC);
    assert_int_equal(v.verdict, RA_VERDICT_FETCH);
    v = req(f, "Audisto Crawler (desktop; +https://audisto.com/bot)", IN,
            "/a", 200, T0 + 2);
    assert_int_equal(v.kind, RA_UA_GENERIC);
    assert_int_equal(v.verdict, RA_VERDICT_COMPLIANT);
    assert_true(v.flags & RA_FLAG_NO_ROBOTS_FETCH);
    assert_int_equal(stat_of(f, "Algolia", RA_VERIFY_UNVERIFIABLE)
                     .counters[RA_CNT_ROBOTS_FETCHES], 1);
    assert_int_equal(stat_of(f, "audisto.com", RA_VERIFY_UNVERIFIABLE)
                     .counters[RA_CNT_NO_ROBOTS_FETCH], 1);
    assert_int_equal(totals_of(f).stats, 2);
    fx_free(f);
}

/* A snapshot of a view of purpose (every: the CLI's, unbounded; else
 * bounded as the status page's) of the one site: its records, of which
 * impostors, and its violations, of which impostors'; the site's
 * recounted totals agree. */
static void
purpose_view(fx_t *f, int every, unsigned purpose, uint32_t *nstats,
    uint32_t *impostors, uint32_t *nvio, uint32_t *vio_impostors)
{
    ra_snapshot_view_t  view;
    ra_snapshot_t       snap;
    uint32_t            i;

    memset(&view, 0, sizeof(view));
    if (every) {
        view.every = 1;                 /* the bounds (0 here) do not apply */
    } else {
        view.max_sites = 10;
        view.max_crawlers = 10;
        view.max_violators = 10;
        view.max_violations = 10;
    }
    view.purpose = purpose;
    assert_int_equal(ra_ledger_snapshot_view(&f->ledger, &ra_malloc_allocator,
                                             0, &view, &snap), RA_OK);
    assert_int_equal(snap.nsites, 1);
    *nstats = snap.nstats;
    *nvio = snap.nviolations;
    *impostors = *vio_impostors = 0;
    for (i = 0; i < snap.nstats; i++) {
        *impostors += snap.stats[i].verification == RA_VERIFY_IMPOSTOR;
    }
    for (i = 0; i < snap.nviolations; i++) {
        *vio_impostors += snap.violations[i].verification
                          == RA_VERIFY_IMPOSTOR;
    }
    assert_int_equal(snap.sites[0].stats_total, snap.nstats);
    assert_int_equal(snap.sites[0].violations_total, snap.nviolations);
    assert_false(snap.truncated);
    ra_snapshot_free(&snap, &ra_malloc_allocator);
}

/*
 * the site's requests by purpose: the table's crawlers' (verified or
 * unverifiable), not an impostor's, not a generic bot's; hinted and
 * locked counts alike (robots_audit_purpose_requests_total,
 * ra_purpose_of()).  The filter (?purpose=, logs --purpose,
 * ra_purpose_match()) on the other hand keeps an impostor's record and
 * violation under the purpose of the crawler it claims to be, as evidence;
 * the CLI's view (every) and the status page's bounded one alike; purpose
 * 0 is everything, as view NULL.  Both decisions are meant.
 */
static void
ledger_purpose_requests_per_site(void **state)
{
    fx_t           *f = fx_new(1 << 20);
    ra_site_t       s;
    ra_snapshot_t   all;
    uint32_t        n, imp, nv, vimp;
    int             i, every;

    (void) state;
    robots(f, "example.com", 200, "User-agent: *\nDisallow: /x\n", T0);
    for (i = 0; i < 3; i++) {
        req(f, BOT, IN, "/a", 200, T0 + 1 + i);          /* verified */
    }
    req(f, BOT, OUT, "/a", 200, T0 + 10);               /* impostor */
    req(f, BOT, OUT, "/x", 200, T0 + 11);
    req(f, "AskBot/1.0", OUT, "/a", 200, T0 + 12);     /* unverifiable */
    req(f, "curl/8.5.0", OUT, "/x", 200, T0 + 13);     /* generic */
    req(f, "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 "
        "Firefox/120.0", OUT, "/a", 200, T0 + 14);     /* browser */
    s = site_of(f, "example.com");
    assert_int_equal(s.purpose_requests[RA_CAT_SEARCH], 3);
    assert_int_equal(s.purpose_requests[RA_CAT_AI_USER], 1);
    assert_int_equal(s.purpose_requests[RA_CAT_TOOL], 0);
    assert_int_equal(s.generic[RA_CNT_REQUESTS], 1);

    for (every = 0; every < 2; every++) {
        /* TestBot's records, the impostor's among them, and the
         * impostor's violation; not the generic bot's */
        purpose_view(f, every, RA_CAT_SEARCH + 1, &n, &imp, &nv, &vimp);
        assert_int_equal(n, 2);
        assert_int_equal(imp, 1);
        assert_int_equal(nv, 1);
        assert_int_equal(vimp, 1);
        purpose_view(f, every, RA_CAT_AI_USER + 1, &n, &imp, &nv, &vimp);
        assert_int_equal(n, 1);
        assert_int_equal(nv, 0);
        purpose_view(f, every, RA_CAT_TOOL + 1, &n, &imp, &nv, &vimp);
        assert_int_equal(n, 0);
        assert_int_equal(nv, 0);
    }
    assert_int_equal(ra_ledger_snapshot(&f->ledger, &ra_malloc_allocator, 0,
                                        &all), RA_OK);
    purpose_view(f, 1, 0, &n, &imp, &nv, &vimp);
    assert_int_equal(n, all.nstats);
    assert_int_equal(nv, all.nviolations);
    assert_int_equal(nv, 2);            /* the impostor's and curl's */
    ra_snapshot_free(&all, &ra_malloc_allocator);
    fx_free(f);
}

/*
 * A generic bot whose name is a table crawler's (in any case) is not that
 * crawler: "Kangaroo-Bot" of the table sends "Kangaroo Bot/1.0", another
 * program "kangaroo-bot/1.0" (a generic bot of that name, unverifiable as
 * the table crawler with no ranges).  The generic one's robots.txt fetch
 * does not count for the crawler (whose request stays "never fetched
 * robots.txt"), nor does its record take the crawler's requests: each has
 * its own, the crawler's of the table kind and purpose (?purpose=, the
 * purpose metric), the other generic.
 */
static void
verdict_generic_name_not_a_table_crawler(void **state)
{
    static const char   table[] =
        "crawler Kangaroo-Bot\nua Kangaroo Bot\ncategory ai-training\n";
    fx_t               *f = fx_new(1 << 20);
    ra_crawlers_t      *c;
    ra_crawlers_err_t   cerr;
    ra_verdict_t        v;
    ra_stat_t           st;
    const char         *real = "Mozilla/5.0 (compatible; Kangaroo Bot/1.0)";

    (void) state;
    c = ra_crawlers_create(ra_test_arena_alloc(f->arena));
    assert_int_equal(ra_crawlers_add(c, ra_str(table, sizeof(table) - 1),
                                     &cerr), RA_OK);
    assert_int_equal(ra_crawlers_compile(c, &cerr), RA_OK);
    fx_conf.crawlers = c;
    fx_reaudit(f);
    robots(f, "example.com", 200, "User-agent: *\nDisallow: /x\n", T0);

    v = req(f, "kangaroo-bot/1.0", OUT, "/robots.txt", 200, T0 + 1);
    assert_int_equal(v.kind, RA_UA_GENERIC);
    assert_int_equal(v.verdict, RA_VERDICT_FETCH);
    v = req(f, real, OUT, "/x/1", 200, T0 + 2);
    assert_int_equal(v.kind, RA_UA_KNOWN);
    assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
    assert_int_not_equal(v.flags & RA_FLAG_NO_ROBOTS_FETCH, 0);
    v = req(f, "Kangaroo-Bot/1.0", OUT, "/y", 200, T0 + 3);
    assert_int_equal(v.kind, RA_UA_GENERIC);
    assert_int_equal(v.flags & RA_FLAG_NO_ROBOTS_FETCH, 0);

    st = stat_of(f, "Kangaroo-Bot", RA_VERIFY_UNVERIFIABLE);
    assert_int_equal(st.kind, RA_UA_KNOWN);
    assert_int_equal(st.category, RA_CAT_AI_TRAINING);
    assert_int_equal(st.counters[RA_CNT_REQUESTS], 1);
    assert_int_equal(st.counters[RA_CNT_ROBOTS_FETCHES], 0);
    st = stat_of(f, "kangaroo-bot", RA_VERIFY_UNVERIFIABLE);
    assert_int_equal(st.kind, RA_UA_GENERIC);
    assert_int_equal(st.counters[RA_CNT_REQUESTS], 2);
    assert_int_equal(st.counters[RA_CNT_ROBOTS_FETCHES], 1);
    assert_int_equal(totals_of(f).stats, 2);
    fx_free(f);
}

/* unreachable: 5xx or 429 to this crawler, then crawling within 12 h */
static void
verdict_unreachable_window_12h(void **state)
{
    fx_t          *f = fx_new(1 << 20);
    ra_verdict_t   v;
    ra_site_t      s;

    (void) state;
    robots(f, "example.com", 200, "User-agent: *\nDisallow: /x\n", T0);
    robots(f, "example.com", 503, "", T0 + H);
    req(f, BOT, IN, "/robots.txt", 503, T0 + H);
    v = req(f, BOT, IN, "/allowed", 200, T0 + 2 * H);
    assert_int_equal(v.verdict, RA_VERDICT_UNREACHABLE);
    assert_true(v.alert);
    v = req(f, BOT, IN, "/allowed", 200, T0 + H + 12 * H - 1);
    assert_int_equal(v.verdict, RA_VERDICT_UNREACHABLE);
    v = req(f, BOT, IN, "/allowed", 200, T0 + H + 12 * H + 1);
    assert_int_equal(v.verdict, RA_VERDICT_COMPLIANT);
    /* 429 counts the same; the site keeps its rules and counts failures */
    robots(f, "example.com", 429, "", T0 + 14 * H);
    req(f, BOT, IN, "/robots.txt", 429, T0 + 14 * H);
    v = req(f, BOT, IN, "/allowed", 200, T0 + 15 * H);
    assert_int_equal(v.verdict, RA_VERDICT_UNREACHABLE);
    s = site_of(f, "example.com");
    assert_int_equal(s.failures, 2);
    assert_int_equal(s.robots_status, 429);
    fx_free(f);
}

/* The versions a site's captures make are their bodies' hashes, however
 * they alternate (the engine compares a body with the last it hashed
 * instead of hashing it again): A, B (A's length, one byte apart), A, A
 * with another 2xx, B */
static void
robots_versions_alternate(void **state)
{
    static const struct {
        int  status;
        int  b;                 /* 0: body a, 1: body b */
    } steps[] = { { 200, 0 }, { 200, 1 }, { 200, 0 }, { 203, 0 }, { 200, 1 } };
    fx_t        *f = fx_new(1 << 20);
    ra_site_t    s;
    const char  *a = "User-agent: *\nDisallow: /a\n";
    const char  *b = "User-agent: *\nDisallow: /b\n";
    uint64_t     ha = ra_ledger_version_hash(200, ra_str(a, strlen(a)));
    uint64_t     hb = ra_ledger_version_hash(200, ra_str(b, strlen(b)));
    unsigned     k, seen_a, seen_b;

    (void) state;
    assert_true(ha != hb);
    for (k = 0; k < sizeof(steps) / sizeof(steps[0]); k++) {
        robots(f, "example.com", steps[k].status, steps[k].b ? b : a,
               T0 + 1000 * (int64_t) k);
        s = site_of(f, "example.com");
        assert_true(s.versions[s.current].hash == (steps[k].b ? hb : ha));
    }
    for (k = 0, seen_a = seen_b = 0; k < s.nversions; k++) {
        seen_a += s.versions[k].hash == ha;
        seen_b += s.versions[k].hash == hb;
    }
    assert_int_equal(seen_a, 1);
    assert_int_equal(seen_b, 1);
    /* another site's same body: its own version, the same hash */
    robots(f, "other.test", 200, b, T0 + 5000);
    s = site_of(f, "other.test");
    assert_true(s.versions[s.current].hash == hb);
    fx_free(f);
}

/* a 5xx answer is shown as it was (status, its own Content-Type and
 * size) while the last good version stays in force, with its SHA-256 */
static void
verdict_last_answer_apart_from_version(void **state)
{
    fx_t           *f = fx_new(1 << 20);
    ra_site_t       s;
    ra_answer_t     a;
    unsigned char   want[RA_SHA256_LEN];
    const char     *good = "User-agent: *\nDisallow: /x\n";
    const char     *page = "<html>down</html>";

    (void) state;
    robots(f, "example.com", 200, good, T0);
    memset(&a, 0, sizeof(a));
    a.status = 503;
    a.body = ra_str(page, strlen(page));
    a.content_type = (ra_str_t) ra_string("text/html");
    assert_int_equal(ra_audit_robots(f->au, (ra_str_t) ra_string(
                         "example.com"), &a, T0 + H), RA_OK);
    s = site_of(f, "example.com");
    assert_int_equal(s.robots_status, 503);
    assert_int_equal(s.last_size, strlen(page));
    assert_int_equal(s.last_ctype_len, 9);
    assert_memory_equal(s.last_ctype, "text/html", 9);
    assert_int_equal(s.versions[s.current].status, 200);
    assert_int_equal(s.versions[s.current].size, strlen(good));
    assert_int_equal(s.versions[s.current].first_seen, T0);
    assert_int_equal(ra_sha256(ra_str(good, strlen(good)), want), RA_OK);
    assert_memory_equal(s.versions[s.current].sha256, want, RA_SHA256_LEN);
    /* FIPS 180-2's "abc" */
    {
        char  hex[2 * RA_SHA256_LEN + 1];

        assert_int_equal(ra_sha256((ra_str_t) ra_string("abc"), want),
                         RA_OK);
        ra_hex(want, RA_SHA256_LEN, hex);
        assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223"
                                 "b00361a396177a9cb410ff61f20015ad");
    }
    fx_free(f);
}

/* no robots.txt known (no configured file, nothing captured yet): the
 * requests are counted unknown, never compliant, and never refused */
static void
verdict_unknown_without_robots(void **state)
{
    fx_t          *f = fx_new(1 << 20);
    ra_verdict_t   v;
    ra_stat_t      st;

    (void) state;
    v = req(f, BOT, IN, "/anything", 200, T0);
    assert_int_equal(v.verdict, RA_VERDICT_UNKNOWN);
    assert_false(ra_enforce_refuses(RA_ENFORCE_ALL, &v));
    assert_false(v.alert);
    assert_string_equal(ra_verdict_name(v.verdict), "unknown");
    st = stat_of(f, "TestBot", RA_VERIFY_VERIFIED);
    assert_int_equal(st.counters[RA_CNT_UNKNOWN], 1);
    assert_int_equal(st.counters[RA_CNT_COMPLIANT], 0);
    assert_int_equal(st.counters[RA_CNT_REQUESTS], 1);
    /* once a robots.txt is seen, requests are judged */
    robots(f, "example.com", 200, "User-agent: *\nDisallow: /x\n", T0 + 1);
    v = req(f, BOT, IN, "/anything", 200, T0 + 2);
    assert_int_equal(v.verdict, RA_VERDICT_COMPLIANT);
    fx_free(f);
}

/* no User-Agent (or "-", as logs write it) is counted apart: neither a
 * browser nor a crawler to judge */
static void
verdict_no_user_agent_counted_apart(void **state)
{
    fx_t          *f = fx_new(1 << 20);
    ra_verdict_t   v;
    ra_site_t      s;

    (void) state;
    robots(f, "example.com", 200, "User-agent: *\nDisallow: /x\n", T0);
    v = req(f, "", IN, "/x", 200, T0 + 1);
    assert_int_equal(v.verdict, RA_VERDICT_NONE);
    v = req(f, "-", IN, "/x", 200, T0 + 2);
    assert_int_equal(v.verdict, RA_VERDICT_NONE);
    req(f, "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 "
        "Firefox/120.0", IN, "/x", 200, T0 + 3);
    s = site_of(f, "example.com");
    assert_int_equal(s.no_user_agent, 2);
    assert_int_equal(s.browser_requests, 1);
    assert_int_equal(s.counters[RA_CNT_REQUESTS], 0);
    fx_free(f);
}

/* a robots.txt answer about the request (501 to a bad Transfer-Encoding,
 * 412 to an If-Match, 0 before any answer) is counted, never taken for
 * what the crawler read: a forged request cannot make it unreachable */
static void
verdict_request_errors_are_not_fetches(void **state)
{
    fx_t          *f = fx_new(1 << 20);
    ra_verdict_t   v;
    ra_stat_t      st;

    (void) state;
    robots(f, "example.com", 200, "User-agent: *\nDisallow: /x\n", T0);
    v = req(f, BOT, IN, "/robots.txt", 200, T0);
    assert_int_equal(v.verdict, RA_VERDICT_FETCH);
    v = req(f, BOT, IN, "/robots.txt", 501, T0 + H);
    assert_int_equal(v.verdict, RA_VERDICT_FETCH);
    v = req(f, BOT, IN, "/robots.txt#x", 0, T0 + H);
    assert_int_equal(v.verdict, RA_VERDICT_FETCH);
    v = req(f, BOT, IN, "/robots.txt", 412, T0 + H);
    v = req(f, BOT, IN, "/allowed", 200, T0 + 2 * H);
    assert_int_equal(v.verdict, RA_VERDICT_COMPLIANT);
    assert_false(v.flags & RA_FLAG_NO_ROBOTS_FETCH);
    st = stat_of(f, "TestBot", RA_VERIFY_VERIFIED);
    assert_int_equal(st.counters[RA_CNT_ROBOTS_FETCHES], 4);
    assert_int_equal(st.last_fetch_status, 200);
    assert_int_equal(st.last_fetch, T0);
    /* a real 503 still is */
    req(f, BOT, IN, "/robots.txt", 503, T0 + 3 * H);
    v = req(f, BOT, IN, "/allowed", 200, T0 + 4 * H);
    assert_int_equal(v.verdict, RA_VERDICT_UNREACHABLE);
    fx_free(f);
}

/* a configured file seeds the rules only until a capture is seen */
static void
verdict_initial_file_never_replaces_capture(void **state)
{
    fx_t          *f = fx_new(1 << 20);
    ra_answer_t    a;
    ra_verdict_t   v;

    (void) state;
    memset(&a, 0, sizeof(a));
    a.status = 200;
    a.initial = 1;
    a.body = (ra_str_t) ra_string("User-agent: *\nDisallow: /file\n");
    assert_int_equal(ra_audit_robots(f->au, (ra_str_t) ra_string(
                         "example.com"), &a, T0), RA_OK);
    v = req(f, BOT, IN, "/file", 200, T0 + 1);
    assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
    robots(f, "example.com", 200, "User-agent: *\nDisallow: /served\n",
           T0 + 2);
    a.body = (ra_str_t) ra_string("User-agent: *\nDisallow: /other\n");
    assert_int_equal(ra_audit_robots(f->au, (ra_str_t) ra_string(
                         "example.com"), &a, T0 + 3), RA_OK);
    req(f, BOT, IN, "/robots.txt", 200, T0 + 4);
    v = req(f, BOT, IN, "/served", 200, T0 + 5);
    assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
    v = req(f, BOT, IN, "/other", 200, T0 + 6);
    assert_int_equal(v.verdict, RA_VERDICT_COMPLIANT);
    fx_free(f);
}

/* 404 means no rules: everything compliant */
static void
verdict_404_allows_everything(void **state)
{
    fx_t          *f = fx_new(1 << 20);
    ra_verdict_t   v;

    (void) state;
    robots(f, "example.com", 404, "<html>not found</html>", T0);
    req(f, BOT, IN, "/robots.txt", 404, T0);
    v = req(f, BOT, IN, "/anything", 200, T0 + 1);
    assert_int_equal(v.verdict, RA_VERDICT_COMPLIANT);
    fx_free(f);
}

/* user-triggered fetchers are exempt, never violators */
static void
verdict_user_triggered_exempt(void **state)
{
    fx_t          *f = fx_new(1 << 20);
    ra_verdict_t   v;

    (void) state;
    robots(f, "example.com", 200, "User-agent: *\nDisallow: /\n", T0);
    v = req(f, "Mozilla/5.0 AskBot/1.0", OUT, "/private", 200, T0 + 1);
    assert_int_equal(v.verdict, RA_VERDICT_EXEMPT);
    assert_false(v.alert);
    assert_int_equal(v.flags, 0);
    fx_free(f);
}

/* impostors: judged, counted apart, alerted as impostors (RA102) */
static void
verdict_impostor_counted_apart(void **state)
{
    fx_t          *f = fx_new(1 << 20);
    ra_verdict_t   v;
    ra_snapshot_t  snap;

    (void) state;
    robots(f, "example.com", 200, "User-agent: *\nDisallow: /\n", T0);
    v = req(f, BOT, OUT, "/x", 200, T0 + 1);
    assert_int_equal(v.verification, RA_VERIFY_IMPOSTOR);
    assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
    assert_true(v.alert);
    assert_string_equal(ra_alert_tag(&v), RA_TAG_IMPOSTOR);
    v = req(f, BOT, IN, "/x", 200, T0 + 2);
    assert_int_equal(v.verification, RA_VERIFY_VERIFIED);
    assert_true(v.alert);
    assert_string_equal(ra_alert_tag(&v), RA_TAG_VIOLATION);
    assert_int_equal(stat_of(f, "TestBot", RA_VERIFY_IMPOSTOR)
                     .counters[RA_CNT_VIOLATION], 1);
    assert_int_equal(stat_of(f, "TestBot", RA_VERIFY_VERIFIED)
                     .counters[RA_CNT_VIOLATION], 1);
    /* an address we cannot parse is unverifiable, not an impostor */
    v = req(f, BOT, "not-an-ip", "/x", 200, T0 + 3);
    assert_int_equal(v.verification, RA_VERIFY_UNVERIFIABLE);

    assert_int_equal(ra_ledger_snapshot(&f->ledger, &ra_malloc_allocator, 0,
                                        &snap), RA_OK);
    assert_int_equal(snap.nviolations, 3);
    assert_int_equal(snap.violations[0].verification, RA_VERIFY_UNVERIFIABLE);
    assert_int_equal(snap.violations[2].verification, RA_VERIFY_IMPOSTOR);
    assert_int_equal(snap.nstats, 3);
    ra_snapshot_free(&snap, &ra_malloc_allocator);
    fx_free(f);
}

/* the ranges' verdicts this process remembers (by the address's text
 * and the crawler) answer as the ranges do: per crawler, through a full
 * and colliding set of hints */
static void
verdict_verify_hints(void **state)
{
    fx_t          *f = fx_new(1 << 20);
    ra_verdict_t   v;
    char           addr[32];
    int            i, round;

    (void) state;
    robots(f, "example.com", 200, "User-agent: *\nDisallow: /\n", T0);
    for (round = 0; round < 2; round++) {
        v = req(f, BOT, IN, "/x", 200, T0 + 1);
        assert_int_equal(v.verification, RA_VERIFY_VERIFIED);
        v = req(f, BOT, OUT, "/x", 200, T0 + 1);
        assert_int_equal(v.verification, RA_VERIFY_IMPOSTOR);
        /* the same address, another crawler: that crawler's verdict */
        v = req(f, "TestBot-Image/1.0", IN, "/x", 200, T0 + 1);
        assert_int_equal(v.verification, RA_VERIFY_UNVERIFIABLE);
        v = req(f, "TestBot-Image/1.0", OUT, "/x", 200, T0 + 1);
        assert_int_equal(v.verification, RA_VERIFY_UNVERIFIABLE);
        /* a prefix of an address is another address */
        v = req(f, BOT, "192.0.2.", "/x", 200, T0 + 1);
        assert_int_equal(v.verification, RA_VERIFY_UNVERIFIABLE);
        for (i = 0; i < 300; i++) {
            snprintf(addr, sizeof(addr), "192.0.%d.%d", 1 + i % 3, i % 250);
            v = req(f, BOT, addr, "/x", 200, T0 + 1);
            assert_int_equal(v.verification, 1 + i % 3 == 2
                                             ? RA_VERIFY_VERIFIED
                                             : RA_VERIFY_IMPOSTOR);
            /* where both share a hint, the other crawler's verdict */
            v = req(f, "TestBot-Image/1.0", addr, "/x", 200, T0 + 1);
            assert_int_equal(v.verification, RA_VERIFY_UNVERIFIABLE);
        }
    }
    fx_free(f);
}

#define OUT2  "198.51.100.10"     /* another block than OUT's */

/* impostor alerts: every judged request, whatever its verdict, at most one
 * per interval per (site, crawler, address), with the held-back count */
static void
verdict_impostor_alerts_per_address(void **state)
{
    fx_t          *f = fx_new(1 << 20);
    ra_verdict_t   v;
    ra_request_t   r;

    (void) state;
    robots(f, "example.com", 200, "User-agent: *\nDisallow: /checkout\n",
           T0);
    robots(f, "other.example", 200, "User-agent: *\nDisallow: /\n", T0);

    /* a robots.txt fetch is not judged: no alert, nothing held back */
    v = req(f, BOT, OUT, "/robots.txt", 200, T0);
    assert_int_equal(v.verdict, RA_VERDICT_FETCH);
    assert_int_equal(v.verification, RA_VERIFY_IMPOSTOR);
    assert_false(v.alert);
    assert_null(ra_alert_tag(&v));

    v = req(f, BOT, OUT, "/checkout", 200, T0 + 1);
    assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
    assert_true(v.alert);
    assert_int_equal(v.suppressed, 0);
    assert_string_equal(ra_alert_tag(&v), RA_TAG_IMPOSTOR);

    /* another address: its own alert */
    v = req(f, BOT, OUT2, "/checkout/pay", 200, T0 + 2);
    assert_true(v.alert);
    assert_int_equal(v.suppressed, 0);

    /* the same address within the interval: held back, any verdict */
    v = req(f, BOT, OUT, "/checkout/pay", 200, T0 + 1000);
    assert_false(v.alert);
    v = req(f, BOT, OUT, "/", 200, T0 + 2000);
    assert_int_equal(v.verdict, RA_VERDICT_COMPLIANT);
    assert_false(v.alert);
    assert_string_equal(ra_alert_tag(&v), RA_TAG_IMPOSTOR);
    v = req(f, BOT, OUT, "/robots.txt", 200, T0 + 3000);
    assert_false(v.alert);

    /* the same address on another site: its own key */
    memset(&r, 0, sizeof(r));
    r.site = (ra_str_t) ra_string("Other.Example");
    r.time = T0 + 4000;
    r.addr = (ra_str_t) ra_string(OUT);
    r.user_agent = (ra_str_t) ra_string(BOT);
    r.method = (ra_str_t) ra_string("GET");
    r.uri = (ra_str_t) ra_string("/x");
    r.status = 200;
    assert_int_equal(ra_audit_request(f->au, &r, &v), RA_OK);
    assert_true(v.alert);
    /* the site's name in any case is the same key */
    r.site = (ra_str_t) ra_string("other.example");
    r.time = T0 + 5000;
    assert_int_equal(ra_audit_request(f->au, &r, &v), RA_OK);
    assert_false(v.alert);

    /* the interval passed: the next alert says how many were held back */
    v = req(f, BOT, OUT, "/checkout", 200, T0 + 1 + 60000);
    assert_true(v.alert);
    assert_int_equal(v.suppressed, 2);
    v = req(f, BOT, OUT, "/checkout", 200, T0 + 2 + 60000);
    assert_false(v.alert);
    v = req(f, BOT, OUT2, "/checkout", 200, T0 + 2 + 60000);
    assert_true(v.alert);
    assert_int_equal(v.suppressed, 0);

    /* counted under "impostor": every violation, held back or not */
    assert_int_equal(stat_of(f, "TestBot", RA_VERIFY_IMPOSTOR)
                     .counters[RA_CNT_VIOLATION], 6);

    /* interval 0: every judged request alerts */
    fx_conf.alert_interval = 0;
    fx_reaudit(f);
    v = req(f, BOT, OUT, "/checkout", 200, T0 + 70000);
    assert_true(v.alert);
    v = req(f, BOT, OUT, "/checkout", 200, T0 + 70000);
    assert_true(v.alert);
    assert_int_equal(v.suppressed, 0);
    fx_free(f);
}

/* the real crawler: its records, counters and alert timer are its own */
static void
verdict_impostor_leaves_real_crawler_alone(void **state)
{
    fx_t          *f = fx_new(1 << 20);
    ra_verdict_t   v;
    ra_stat_t      st;
    int            i;

    (void) state;
    robots(f, "example.com", 200, "User-agent: *\nDisallow: /checkout\n",
           T0);
    for (i = 0; i < 5; i++) {
        v = req(f, BOT, OUT, "/checkout", 200, T0 + i);
        assert_int_equal(v.verification, RA_VERIFY_IMPOSTOR);
    }
    v = req(f, BOT, IN, "/checkout", 200, T0 + 10);
    assert_int_equal(v.verification, RA_VERIFY_VERIFIED);
    assert_true(v.alert);
    assert_int_equal(v.suppressed, 0);
    assert_string_equal(ra_alert_tag(&v), RA_TAG_VIOLATION);
    v = req(f, BOT, IN, "/checkout", 200, T0 + 20);
    assert_false(v.alert);
    /* and the impostor's gate is not the crawler's */
    v = req(f, BOT, OUT2, "/checkout", 200, T0 + 30);
    assert_true(v.alert);
    v = req(f, BOT, IN, "/checkout", 200, T0 + 60010);
    assert_true(v.alert);
    assert_int_equal(v.suppressed, 1);
    assert_string_equal(ra_alert_tag(&v), RA_TAG_VIOLATION);

    st = stat_of(f, "TestBot", RA_VERIFY_VERIFIED);
    assert_int_equal(st.counters[RA_CNT_REQUESTS], 3);
    assert_int_equal(st.counters[RA_CNT_VIOLATION], 3);
    st = stat_of(f, "TestBot", RA_VERIFY_IMPOSTOR);
    assert_int_equal(st.counters[RA_CNT_REQUESTS], 6);
    assert_int_equal(st.counters[RA_CNT_VIOLATION], 6);

    /* unverifiable clients keep RA100 and the ledger's timer */
    v = req(f, BOT, "not-an-ip", "/checkout", 200, T0 + 60020);
    assert_int_equal(v.verification, RA_VERIFY_UNVERIFIABLE);
    assert_true(v.alert);
    assert_string_equal(ra_alert_tag(&v), RA_TAG_VIOLATION);
    fx_free(f);
}

/* an allocator that counts */
static size_t  counted_allocs;

static void *
counting_alloc(void *ctx, size_t size)
{
    (void) ctx;
    counted_allocs++;
    return malloc(size);
}

static void
counting_free(void *ctx, void *p)
{
    (void) ctx;
    free(p);
}

static const ra_alloc_t  counting_allocator = {
    counting_alloc, counting_free, NULL
};

/* the impostor table is fixed: no memory per request, however many
 * addresses; at most RA_IMPOSTOR_SLOTS keys are remembered, and a key
 * that lost its slot alerts again rather than being held back */
static void
verdict_impostor_table_bounded(void **state)
{
    fx_t          *f = fx_new(1 << 20);
    ra_verdict_t   v;
    char           addr[32];
    size_t         allocs;
    unsigned       i, n = 4 * RA_IMPOSTOR_SLOTS, held = 0;

    (void) state;
    fx_conf.alloc = &counting_allocator;
    /* the impostor gate, not the budgets (verdict_alert_budget) */
    fx_conf.alert_budget.site = RA_ALERT_BUDGET_OFF;
    fx_conf.alert_budget.total = RA_ALERT_BUDGET_OFF;
    fx_reaudit(f);
    robots(f, "example.com", 200, "User-agent: *\nDisallow: /checkout\n",
           T0);
    v = req(f, BOT, OUT, "/checkout", 200, T0);     /* compiles the rules */
    assert_true(v.alert);

    allocs = counted_allocs;
    for (i = 0; i < n; i++) {
        snprintf(addr, sizeof(addr), "10.%u.%u.1", i >> 8, i & 255);
        v = req(f, BOT, addr, "/checkout", 200, T0 + 1 + i);
        assert_int_equal(v.verification, RA_VERIFY_IMPOSTOR);
        assert_true(v.alert);                       /* each new key */
    }
    assert_int_equal(counted_allocs, allocs);

    /* the last key holds its slot */
    v = req(f, BOT, addr, "/checkout", 200, T0 + 1 + n);
    assert_false(v.alert);

    /* again within the interval: only keys still in the table are held
     * back, and it holds no more than its slots */
    for (i = 0; i < n; i++) {
        snprintf(addr, sizeof(addr), "10.%u.%u.1", i >> 8, i & 255);
        v = req(f, BOT, addr, "/checkout", 200, T0 + 2 + n + i);
        held += !v.alert;
    }
    assert_true(held >= 1 && held <= RA_IMPOSTOR_SLOTS);
    assert_int_equal(counted_allocs, allocs);
    fx_free(f);
}

/* a robots.txt of about n bytes, version k: Disallow lines under "*" */
static char *
big_robots(size_t n, unsigned k)
{
    char    *p = malloc(n + 128);
    size_t   off;
    unsigned i;

    assert_non_null(p);
    off = (size_t) sprintf(p, "User-agent: *\nDisallow: /all/\n");
    for (i = 0; off < n; i++) {
        off += (size_t) sprintf(p + off, "Disallow: /private/v%u/s%u/\n",
                                k, i);
    }
    return p;
}

/* A site with eight large versions costs a request no
 * body copy once the versions it needs are compiled; a version is copied
 * out of the ledger and compiled once per process, when a verdict first
 * needs it, never for a request that does not */
static void
verdict_steady_state_copies_no_body(void **state)
{
    fx_t          *f = fx_new(16u << 20);
    ra_verdict_t   v;
    size_t         allocs;
    unsigned       k, i;
    char          *body;

    (void) state;
    fx_conf.alloc = &counting_allocator;
    fx_reaudit(f);
    for (k = 0; k < RA_VERSIONS; k++) {
        body = big_robots(64 * 1024, k);
        robots(f, "example.com", 200, body, T0 + k * 60000);
        free(body);
    }
    assert_int_equal(ra_audit_body_copies(f->au), 0);

    /* the first request compiles the current version: one copy */
    v = req(f, BOT, IN, "/public/a", 200, T0 + H);
    assert_int_equal(v.verdict, RA_VERDICT_COMPLIANT);
    assert_int_equal(ra_audit_body_copies(f->au), 1);

    /* then neither a copy nor any memory, however many requests */
    allocs = counted_allocs;
    for (i = 0; i < 100; i++) {
        v = req(f, BOT, IN, "/public/b", 200, T0 + H + 1 + i);
        assert_int_equal(v.verdict, RA_VERDICT_COMPLIANT);
    }
    assert_int_equal(ra_audit_body_copies(f->au), 1);
    assert_int_equal(counted_allocs, allocs);

    /* a request the current version disallows needs older ones (any in
     * force within 24 h excuses it: no fetch), the oldest first: the
     * first that allows it ends the search */
    v = req(f, BOT, IN, "/private/v7/s3/x", 200, T0 + 2 * H);
    assert_int_equal(v.verdict, RA_VERDICT_STALE);
    assert_int_equal(ra_audit_body_copies(f->au), 2);
    /* one that every version disallows needs them all: each compiled
     * once */
    v = req(f, BOT, IN, "/all/x", 200, T0 + 2 * H + 1);
    assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
    assert_int_equal(ra_audit_body_copies(f->au), RA_VERSIONS);
    allocs = counted_allocs;
    for (i = 0; i < 20; i++) {
        v = req(f, BOT, IN, "/private/v7/s3/x", 200, T0 + 2 * H + 2 + i);
        assert_int_equal(v.verdict, RA_VERDICT_STALE);
        v = req(f, BOT, IN, "/all/y", 200, T0 + 2 * H + 100 + i);
        assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
        v = req(f, BOT, IN, "/public/c", 200, T0 + 2 * H + 200 + i);
        assert_int_equal(v.verdict, RA_VERDICT_COMPLIANT);
    }
    assert_int_equal(ra_audit_body_copies(f->au), RA_VERSIONS);
    assert_int_equal(counted_allocs, allocs);

    /* another process (engine) over the same ledger compiles its own */
    fx_reaudit(f);
    v = req(f, BOT, IN, "/public/d", 200, T0 + 3 * H);
    assert_int_equal(v.verdict, RA_VERDICT_COMPLIANT);
    assert_int_equal(ra_audit_body_copies(f->au), 1);
    fx_free(f);
}

/* crawl_delay: the gap to the previous request is below the group's
 * Crawl-delay, for crawlers that honour it */
static void
verdict_crawl_delay_flag(void **state)
{
    fx_t          *f = fx_new(1 << 20);
    ra_verdict_t   v;

    (void) state;
    robots(f, "example.com", 200,
           "User-agent: *\nCrawl-delay: 10\nDisallow: /x\n", T0);
    req(f, BOT, IN, "/robots.txt", 200, T0);
    v = req(f, BOT, IN, "/a", 200, T0 + 1000);
    assert_int_equal(v.flags & RA_FLAG_CRAWL_DELAY, 0);   /* first */
    v = req(f, BOT, IN, "/b", 200, T0 + 6000);
    assert_true(v.flags & RA_FLAG_CRAWL_DELAY);
    v = req(f, BOT, IN, "/c", 200, T0 + 16001);
    assert_int_equal(v.flags & RA_FLAG_CRAWL_DELAY, 0);
    /* TestBot-Image does not honour Crawl-delay */
    req(f, "TestBot-Image/1.0", IN, "/a", 200, T0 + 1000);
    v = req(f, "TestBot-Image/1.0", IN, "/b", 200, T0 + 1001);
    assert_int_equal(v.flags & RA_FLAG_CRAWL_DELAY, 0);
    assert_int_equal(stat_of(f, "TestBot", RA_VERIFY_VERIFIED)
                     .counters[RA_CNT_CRAWL_DELAY], 1);
    fx_free(f);
}

/* A robots.txt failing (5xx/429) for 30 days while the
 * site's other pages answer: requests are judged as if there were no
 * robots.txt (compliant, counted unreachable_30d) and the site shows the
 * phase; a 2xx answer ends it */
static void
verdict_unreachable_30d(void **state)
{
    fx_t          *f = fx_new(1 << 20);
    ra_verdict_t   v;
    ra_site_t      s;
    int64_t        t, end = T0 + RA_UNREACHABLE_30D_MS;

    (void) state;
    robots(f, "example.com", 200, "User-agent: *\nDisallow: /\n", T0 - H);
    for (t = T0; t <= end; t += 24 * H) {
        robots(f, "example.com", 503, "", t);
    }
    robots(f, "example.com", 503, "", end);
    s = site_of(f, "example.com");
    assert_int_equal(s.failing_since, T0);
    /* the site's pages have not answered yet: the last good rules */
    v = req(f, BOT, IN, "/page", 0, end + 1);
    assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
    assert_false(ra_unreachable_30d(s.failing_since, s.pages_answered,
                                    end + 1));
    /* a page answered 200 (this one): the phase */
    v = req(f, BOT, IN, "/page", 200, end + 2);
    assert_int_equal(v.verdict, RA_VERDICT_COMPLIANT);
    assert_true(v.flags & RA_FLAG_UNREACHABLE_30D);
    /* even for a crawler whose own fetch just failed */
    req(f, BOT, IN, "/robots.txt", 503, end + 3);
    v = req(f, BOT, IN, "/page", 200, end + 4);
    assert_int_equal(v.verdict, RA_VERDICT_COMPLIANT);
    assert_int_equal(stat_of(f, "TestBot", RA_VERIFY_VERIFIED)
                     .counters[RA_CNT_UNREACHABLE_30D], 2);
    s = site_of(f, "example.com");
    assert_true(ra_unreachable_30d(s.failing_since, s.pages_answered,
                                   end + 5));
    /* a page answering 5xx is not "the site answers" */
    v = req(f, BOT, IN, "/page", 502, end + 25 * H);
    assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
    /* a 2xx answer ends the run of failures */
    robots(f, "example.com", 200, "User-agent: *\nDisallow: /\n", end + 26 * H);
    v = req(f, BOT, IN, "/page", 200, end + 26 * H + 1);
    assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
    assert_int_equal(site_of(f, "example.com").failing_since, 0);
    fx_free(f);
}

/* An answer to a client's request for a robots.txt target as the
 * modules handle it: captured when it goes out (ra_audit_robots()), then
 * counted when it is logged (ra_audit_request()); the logged verdict */
static ra_verdict_t
answer_at(fx_t *f, const char *ua, const char *addr, const char *method,
    const char *uri, int status, const char *body, const char *location,
    unsigned hop, int64_t t)
{
    ra_answer_t   a;
    ra_request_t  r;
    ra_verdict_t  v;

    memset(&r, 0, sizeof(r));
    r.site = (ra_str_t) ra_string("example.com");
    r.time = t;
    r.addr = ra_str(addr, strlen(addr));
    r.user_agent = ra_str(ua, strlen(ua));
    r.method = ra_str(method, strlen(method));
    r.uri = ra_str(uri, strlen(uri));
    r.status = status;
    memset(&a, 0, sizeof(a));
    a.status = status;
    a.body = ra_str(body, strlen(body));
    a.content_type = (ra_str_t) ra_string("text/plain");
    a.req = &r;
    a.location = ra_str(location, strlen(location));
    a.hop = hop;
    assert_int_equal(ra_audit_robots(f->au, r.site, &a, t), RA_OK);
    r.recorded = 1;
    assert_int_equal(ra_audit_request(f->au, &r, &v), RA_OK);
    return v;
}

static ra_verdict_t
answer_to(fx_t *f, const char *ua, const char *addr, const char *method,
    const char *uri, int status, const char *body, int64_t t)
{
    return answer_at(f, ua, addr, method, uri, status, body, "", 0, t);
}

/* ... a GET /robots.txt answered with status and no body */
static void
robots_to(fx_t *f, const char *ua, const char *addr, int status, int64_t t)
{
    (void) answer_to(f, ua, addr, "GET", "/robots.txt", status, "", t);
}

/* review finding 7: one 5xx, then crawlers fetch robots.txt only with
 * conditional GETs (304, never captured by the modules) or ranges (206):
 * those answers end the run of failures, so 30 days later the site is
 * not in the "no robots.txt" phase; the fetch is of the version in force */
static void
verdict_unchanged_answer_ends_failures(void **state)
{
    static const int  codes[] = { 304, 206 };
    unsigned          i;
    fx_t             *f;
    ra_verdict_t      v;
    ra_site_t         s;
    ra_stat_t         st;
    int64_t           end = T0 + RA_UNREACHABLE_30D_MS;

    (void) state;
    assert_true(ra_http_answer_unchanged(304));
    assert_true(ra_http_answer_unchanged(206));
    assert_false(ra_http_answer_unchanged(200));
    assert_false(ra_http_answer_unchanged(503));
    for (i = 0; i < 2; i++) {
        f = fx_new(1 << 20);
        robots(f, "example.com", 200, "User-agent: *\nDisallow: /\n", T0 - H);
        robots_to(f, BOT, IN, 503, T0);
        assert_int_equal(site_of(f, "example.com").failing_since, T0);
        v = req(f, BOT, IN, "/robots.txt", codes[i], T0 + 1);
        assert_int_equal(v.verdict, RA_VERDICT_FETCH);
        s = site_of(f, "example.com");
        assert_int_equal(s.failing_since, 0);
        assert_int_equal(s.robots_status, 200);     /* the version stays */
        st = stat_of(f, "TestBot", RA_VERIFY_VERIFIED);
        assert_int_equal(st.last_fetch, T0 + 1);
        assert_int_equal(st.last_fetch_status, codes[i]);
        /* 30 days on, pages answering: still judged by the rules */
        v = req(f, BOT, IN, "/page", 200, end + 1);
        assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
        assert_false(v.flags & RA_FLAG_UNREACHABLE_30D);
        fx_free(f);
    }
}

/* review finding 7: a 5xx/429 to a browser or to no User-Agent (a rate
 * limit's 503 is anyone's to provoke) does not start the 30-day clock;
 * one to a crawler does */
static void
verdict_failure_needs_a_crawler(void **state)
{
    fx_t          *f = fx_new(1 << 20);
    ra_verdict_t   v;
    int64_t        end = T0 + RA_UNREACHABLE_30D_MS;

    (void) state;
    robots(f, "example.com", 200, "User-agent: *\nDisallow: /\n", T0 - H);
    robots_to(f, "Mozilla/5.0 (Windows NT 10.0; Win64; x64) "
              "AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 "
              "Safari/537.36", OUT, 503, T0);
    robots_to(f, "", OUT2, 503, T0 + 1);
    robots_to(f, "-", IN, 429, T0 + 2);
    assert_int_equal(site_of(f, "example.com").failing_since, 0);
    assert_int_equal(site_of(f, "example.com").robots_status, 200);
    v = req(f, BOT, IN, "/page", 200, end + 1);
    assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
    /* one generic bot's is its own: two crawlers' (other addresses,
     * other User-Agents) are the site's */
    robots_to(f, "SomeBot/1.0", OUT, 503, end + 1);
    assert_int_equal(site_of(f, "example.com").failing_since, 0);
    robots_to(f, "OtherBot/1.0", OUT2, 503, end + 2);
    assert_int_equal(site_of(f, "example.com").failing_since, end + 2);
    /* and the answers the audit is handed without a client (a configured
     * file, the CLI's --robots) are recorded as before */
    robots(f, "example.com", 503, "", end + 3);
    assert_int_equal(site_of(f, "example.com").failing_since, end + 2);
    fx_free(f);
}

#define NIKTO  "Mozilla/5.0 (compatible; Nikto/2.5.0)"
#define OTHER  "OtherBot/1.0 (+https://other.example/)"
#define PRIV   "User-agent: *\nDisallow: /private\n"

/* One client's 403 (a User-Agent blocklist in front of robots.txt) is
 * that client's: it may crawl all (stale, never a violation), and the
 * site's file and everyone else's verdicts stay */
static void
robots_answer_binds_its_client(void **state)
{
    fx_t          *f = fx_new(1 << 20);
    ra_verdict_t   v;
    ra_site_t      s;

    (void) state;
    robots(f, "example.com", 200, PRIV, T0);
    v = answer_to(f, NIKTO, OUT, "GET", "/robots.txt", 403, "denied", T0 + 1);
    assert_int_equal(v.verdict, RA_VERDICT_FETCH);
    s = site_of(f, "example.com");
    assert_int_equal(s.robots_status, 200);
    assert_int_equal(stat_of(f, "Nikto", RA_VERIFY_UNVERIFIABLE)
                     .last_fetch_status, 403);
    /* the verified crawler that never fetched: the site's file */
    v = req(f, BOT, IN, "/private/x", 200, T0 + 2);
    assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
    /* another bot that never fetched: no allow-all copy was in force */
    v = req(f, OTHER, OUT2, "/private/x", 200, T0 + 3);
    assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
    /* the blocked client read "no robots.txt" */
    v = req(f, NIKTO, OUT, "/private/x", 200, T0 + 4);
    assert_int_equal(v.verdict, RA_VERDICT_STALE);
    assert_false(v.flags & RA_FLAG_NO_ROBOTS_FETCH);
    fx_free(f);
}

/* An answer other than 2xx is the site's when a verified crawler gets
 * it, or a second client with another network and another User-Agent
 * after a first, with no answer recorded between them and the file
 * served to nobody for a day */
static void
robots_answer_everyone(void **state)
{
    fx_t  *f;

    (void) state;
    /* the same network (/24) twice, or the same User-Agent twice: one
     * client (the file last served two days ago) */
    f = fx_new(1 << 20);
    robots(f, "example.com", 200, PRIV, T0 - 2 * RA_DAY_MS);
    robots_to(f, NIKTO, OUT, 403, T0 + 1);
    robots_to(f, OTHER, "203.0.113.200", 403, T0 + 2);
    assert_int_equal(site_of(f, "example.com").robots_status, 200);
    robots_to(f, OTHER, OUT2, 403, T0 + 3);
    assert_int_equal(site_of(f, "example.com").robots_status, 200);
    /* then another network with another User-Agent: everyone's */
    robots_to(f, NIKTO, IN, 404, T0 + 4);
    assert_int_equal(site_of(f, "example.com").robots_status, 404);
    assert_int_equal(req(f, OTHER, OUT2, "/private/x", 200, T0 + 5).verdict,
                     RA_VERDICT_COMPLIANT);
    fx_free(f);

    /* a User-Agent blocklist answers two blocked bots alike, and serves
     * the file to everyone else: while the file was served in the last
     * 24 hours, their 403s stay theirs */
    f = fx_new(1 << 20);
    robots(f, "example.com", 200, PRIV, T0);
    robots_to(f, NIKTO, OUT, 403, T0 + 1);
    robots_to(f, OTHER, OUT2, 403, T0 + 2);
    assert_int_equal(site_of(f, "example.com").robots_status, 200);
    assert_int_equal(req(f, "ThirdBot/2.0", IN, "/private/x", 200, T0 + 3)
                     .verdict, RA_VERDICT_VIOLATION);
    /* a day with no file served to anyone: the site's answer now */
    robots_to(f, "ThirdBot/2.0", IN, 403, T0 + 25 * H);
    assert_int_equal(site_of(f, "example.com").robots_status, 403);
    fx_free(f);

    /* a 2xx between the two: the site serves its file after all */
    f = fx_new(1 << 20);
    robots(f, "example.com", 200, PRIV, T0);
    robots_to(f, NIKTO, OUT, 403, T0 + 1);
    (void) answer_to(f, OTHER, IN, "GET", "/robots.txt", 200, PRIV, T0 + 2);
    robots_to(f, "ThirdBot/2.0", OUT2, 403, T0 + 3);
    assert_int_equal(site_of(f, "example.com").robots_status, 200);
    fx_free(f);

    /* a verified crawler's answer is the site's at once */
    f = fx_new(1 << 20);
    robots(f, "example.com", 200, PRIV, T0);
    robots_to(f, BOT, IN, 404, T0 + 1);
    assert_int_equal(site_of(f, "example.com").robots_status, 404);
    fx_free(f);
}

/* /robots.txt?query never changes the site's file, and a HEAD is no
 * fetch: neither binds the client */
static void
robots_query_and_head_are_no_fetch(void **state)
{
    fx_t     *f = fx_new(1 << 20);
    ra_stat_t st;

    (void) state;
    robots(f, "example.com", 200, PRIV, T0);
    (void) answer_to(f, BOT, IN, "GET", "/robots.txt?lang=de", 200,
                     "User-agent: *\nDisallow:\n", T0 + 1);
    (void) answer_to(f, BOT, IN, "HEAD", "/robots.txt", 200, "", T0 + 2);
    assert_int_equal(site_of(f, "example.com").robots_status, 200);
    assert_int_equal(req(f, OTHER, OUT, "/private/x", 200, T0 + 3).verdict,
                     RA_VERDICT_VIOLATION);
    st = stat_of(f, "TestBot", RA_VERIFY_VERIFIED);
    assert_int_equal(st.last_fetch, 0);
    assert_int_equal(st.counters[RA_CNT_ROBOTS_FETCHES], 0);
    assert_int_equal(st.counters[RA_CNT_REQUESTS], 2);
    assert_true(req(f, BOT, IN, "/private/x", 200, T0 + 4).flags
                & RA_FLAG_NO_ROBOTS_FETCH);
    fx_free(f);
}

/* A 503 (a rate limit) to one crawler opens its own 12-hour window, not
 * the site's episode */
static void
robots_failure_of_one_client(void **state)
{
    fx_t          *f = fx_new(1 << 20);
    ra_site_t      s;

    (void) state;
    robots(f, "example.com", 200, PRIV, T0);
    robots_to(f, OTHER, OUT, 503, T0 + 1);
    s = site_of(f, "example.com");
    assert_int_equal(s.failing_since, 0);
    assert_int_equal(s.robots_status, 200);
    assert_int_equal(s.episodes[0].start, 0);
    assert_int_equal(req(f, OTHER, OUT, "/page", 200, T0 + 2).verdict,
                     RA_VERDICT_UNREACHABLE);
    assert_int_equal(req(f, "ThirdBot/2.0", OUT2, "/page", 200, T0 + 3)
                     .verdict, RA_VERDICT_COMPLIANT);
    fx_free(f);
}

/* A site whose every answer differs (a time stamp in a comment): the
 * version a verified crawler was served stays however many follow, and
 * a copy evicted meanwhile excuses (stale), never accuses */
static void
robots_versions_cannot_be_flooded(void **state)
{
    fx_t          *f = fx_new(1 << 20);
    char           body[96];
    int            i;

    (void) state;
    /* the verified crawler and a generic bot read a file allowing all */
    (void) answer_to(f, BOT, IN, "GET", "/robots.txt", 200,
                     "# 0\nUser-agent: *\nDisallow:\n", T0);
    (void) answer_to(f, OTHER, OUT, "GET", "/robots.txt", 200,
                     "# 0\nUser-agent: *\nDisallow:\n", T0 + 1);
    /* then 3 * RA_VERSIONS answers to others, each new, disallowing */
    for (i = 1; i <= 3 * RA_VERSIONS; i++) {
        snprintf(body, sizeof(body), "# %d\n%s", i, PRIV);
        (void) answer_to(f, "ThirdBot/2.0", OUT2, "GET", "/robots.txt", 200,
                         body, T0 + 10 + i);
    }
    assert_int_equal(req(f, BOT, IN, "/private/x", 200, T0 + H).verdict,
                     RA_VERDICT_STALE);
    assert_int_equal(req(f, OTHER, OUT, "/private/x", 200, T0 + H).verdict,
                     RA_VERDICT_STALE);
    /* what the third fetched disallows: its violation stands */
    assert_int_equal(req(f, "ThirdBot/2.0", OUT2, "/private/x", 200,
                         T0 + H).verdict, RA_VERDICT_VIOLATION);
    fx_free(f);
}

/* The hop of a target on example.com (ra_audit_robots_hop()) */
static unsigned
hop_of(fx_t *f, const char *target, int64_t t)
{
    return ra_audit_robots_hop(f->au, (ra_str_t) ra_string("example.com"),
                               ra_str(target, strlen(target)), t);
}

/* Redirects of robots.txt within the site are followed (RFC 9309
 * 2.3.1.2): the target's answer is the site's file */
static void
robots_redirect_followed(void **state)
{
    fx_t          *f = fx_new(1 << 20);
    ra_site_t      s;
    ra_stat_t      st;
    ra_str_t       get = ra_string("GET"), post = ra_string("POST");

    (void) state;
    robots(f, "example.com", 200, "User-agent: *\nDisallow:\n", T0);
    assert_false(ra_audit_redirects(f->au));
    /* where a glue looks for the capture's mark */
    assert_true(ra_audit_may_be_recorded(f->au, 0));
    assert_true(ra_audit_may_be_recorded(f->au, RA_TARGET_KNOWN
                                                | RA_TARGET_ROBOTS));
    assert_false(ra_audit_may_be_recorded(f->au, RA_TARGET_KNOWN));
    assert_false(ra_audit_may_be_recorded(NULL, RA_TARGET_KNOWN));
    /* what a server captures: robots.txt's answer; other targets only
     * once a site redirects */
    assert_int_equal(ra_audit_capture_wanted(f->au, get,
                         RA_TARGET_KNOWN | RA_TARGET_ROBOTS, 200, 0),
                     RA_CAPTURE_ROBOTS);
    assert_int_equal(ra_audit_capture_wanted(f->au, get,
                         RA_TARGET_KNOWN | RA_TARGET_ROBOTS, 200, 1),
                     RA_CAPTURE_NONE);
    assert_int_equal(ra_audit_capture_wanted(f->au, get,
                         RA_TARGET_KNOWN, 200, 0), RA_CAPTURE_NONE);
    assert_int_equal(ra_audit_capture_wanted(NULL, get,
                         RA_TARGET_KNOWN, 200, 0), RA_CAPTURE_NONE);
    assert_int_equal(hop_of(f, "/static/robots.txt", T0), 0);
    /* one unverified client's redirect is its own */
    (void) answer_at(f, OTHER, OUT, "GET", "/robots.txt", 301, "moved",
                     "/static/robots.txt", 0, T0 + 1);
    assert_int_equal(hop_of(f, "/static/robots.txt", T0 + 1), 0);
    /* the verified crawler's is the site's */
    (void) answer_at(f, BOT, IN, "GET", "/robots.txt", 301, "moved",
                     "http://EXAMPLE.com:8080/static/robots.txt#x", 0,
                     T0 + 2);
    assert_true(ra_audit_redirects(f->au));
    assert_true(ra_audit_may_be_recorded(f->au, RA_TARGET_KNOWN));
    assert_int_equal(ra_audit_capture_wanted(f->au, get,
                         RA_TARGET_KNOWN, 200, 0), RA_CAPTURE_HOP);
    assert_int_equal(ra_audit_capture_wanted(f->au, get,
                         RA_TARGET_KNOWN, 304, 0), RA_CAPTURE_NONE);
    assert_int_equal(ra_audit_capture_wanted(f->au, post,
                         RA_TARGET_KNOWN, 200, 0), RA_CAPTURE_NONE);
    s = site_of(f, "example.com");
    assert_int_equal(s.redirect_n, 1);
    assert_memory_equal(s.redirect[0], "/static/robots.txt", 18);
    assert_int_equal(s.robots_status, 200);     /* no version of its own */
    assert_int_equal(hop_of(f, "/static/robots.txt", T0 + 2), 1);
    assert_int_equal(hop_of(f, "//static/./robots.txt?", T0 + 2), 0);
    assert_int_equal(hop_of(f, "//static/./robots.txt", T0 + 2), 1);
    assert_int_equal(hop_of(f, "/static/robots.txt2", T0 + 2), 0);
    /* the target redirects once more, relative to itself (however the
     * request spelled it) */
    (void) answer_at(f, BOT, IN, "GET",
                     "/static/./././././././././././././././././././././././"
                     "./././././././././././././././././././././././././"
                     "././././robots.txt", 302, "", "en/robots.txt", 1,
                     T0 + 3);
    assert_int_equal(hop_of(f, "/static/en/robots.txt", T0 + 3), 2);
    /* and its answer is the file */
    (void) answer_at(f, BOT, IN, "GET", "/static/en/robots.txt", 200, PRIV,
                     "", 2, T0 + 4);
    s = site_of(f, "example.com");
    assert_int_equal(s.redirect_n, 2);
    assert_int_equal(s.robots_status, 200);
    assert_true(s.versions[s.current].lint_infos >= 1);    /* redirects */
    st = stat_of(f, "TestBot", RA_VERIFY_VERIFIED);
    assert_int_equal(st.counters[RA_CNT_ROBOTS_FETCHES], 3);
    assert_int_equal(st.last_fetch, T0 + 4);
    /* the client sent on before the redirect was the site's read the file
     * then in force, which allowed all */
    assert_int_equal(req(f, OTHER, OUT, "/private/x", 200, T0 + 5).verdict,
                     RA_VERDICT_STALE);
    /* a day on, the target's file alone is in force */
    assert_int_equal(req(f, "ThirdBot/2.0", OUT2, "/private/x", 200,
                         T0 + 25 * H).verdict, RA_VERDICT_VIOLATION);
    /* /robots.txt answered directly again: the chain ends */
    (void) answer_to(f, BOT, IN, "GET", "/robots.txt", 200, PRIV,
                     T0 + 26 * H);
    assert_int_equal(site_of(f, "example.com").redirect_n, 0);
    assert_int_equal(hop_of(f, "/static/robots.txt", T0 + 26 * H), 0);
    /* and a late answer to a former target is no robots.txt of the site */
    (void) answer_at(f, BOT, IN, "GET", "/static/en/robots.txt", 404, "",
                     "", 2, T0 + 26 * H + 1);
    s = site_of(f, "example.com");
    assert_int_equal(s.robots_status, 200);
    assert_int_equal(s.versions[s.current].status, 200);
    fx_free(f);
}

/* A redirect that cannot be followed: another host's target is a final
 * 3xx ("allow all"), a loop passes the limit */
static void
robots_redirect_not_followed(void **state)
{
    fx_t          *f;
    ra_site_t      s;

    (void) state;
    f = fx_new(1 << 20);
    robots(f, "example.com", 200, PRIV, T0);
    (void) answer_at(f, BOT, IN, "GET", "/robots.txt", 301, "",
                     "https://cdn.example.net/robots.txt", 0, T0 + 1);
    s = site_of(f, "example.com");
    assert_int_equal(s.redirect_n, 0);
    assert_int_equal(s.robots_status, 301);
    assert_int_equal(req(f, OTHER, OUT, "/private/x", 200, T0 + 2).verdict,
                     RA_VERDICT_COMPLIANT);
    fx_free(f);

    /* a Location that is a query, or a path with one: not followed */
    f = fx_new(1 << 20);
    robots(f, "example.com", 200, PRIV, T0);
    (void) answer_at(f, BOT, IN, "GET", "/robots.txt", 302, "",
                     "?lang=en", 0, T0 + 1);
    assert_int_equal(site_of(f, "example.com").redirect_n, 0);
    (void) answer_at(f, BOT, IN, "GET", "/robots.txt", 302, "",
                     "/?lang=en", 0, T0 + 2);
    assert_int_equal(site_of(f, "example.com").redirect_n, 0);
    fx_free(f);

    /* the Host a request names is no name of the site's */
    f = fx_new(1 << 20);
    robots(f, "example.com", 200, PRIV, T0);
    {
        ra_answer_t   a;
        ra_request_t  r;

        memset(&r, 0, sizeof(r));
        r.site = (ra_str_t) ra_string("example.com");
        r.time = T0 + 1;
        r.addr = (ra_str_t) ra_string(IN);
        r.user_agent = (ra_str_t) ra_string(BOT);
        r.method = (ra_str_t) ra_string("GET");
        r.uri = (ra_str_t) ra_string("/robots.txt");
        r.authority = (ra_str_t) ra_string("cdn.example.net");
        r.status = 301;
        memset(&a, 0, sizeof(a));
        a.status = 301;
        a.req = &r;
        a.location = (ra_str_t)
                     ra_string("https://cdn.example.net/up/robots.txt");
        assert_int_equal(ra_audit_robots(f->au, r.site, &a, T0 + 1), RA_OK);
    }
    assert_int_equal(site_of(f, "example.com").redirect_n, 0);
    fx_free(f);

    /* http to https: the same file served elsewhere, nothing changes */
    f = fx_new(1 << 20);
    robots(f, "example.com", 200, PRIV, T0);
    (void) answer_at(f, BOT, IN, "GET", "/robots.txt", 301, "",
                     "https://example.com/robots.txt", 0, T0 + 1);
    s = site_of(f, "example.com");
    assert_int_equal(s.redirect_n, 0);
    assert_int_equal(s.robots_status, 200);
    assert_int_equal(s.versions[s.current].lint_errors, 0);
    assert_int_equal(req(f, BOT, IN, "/private/x", 200, T0 + 2).verdict,
                     RA_VERDICT_VIOLATION);
    fx_free(f);

    f = fx_new(1 << 20);
    robots(f, "example.com", 200, PRIV, T0);
    (void) answer_at(f, BOT, IN, "GET", "/robots.txt", 301, "",
                     "/a/robots.txt", 0, T0 + 1);
    (void) answer_at(f, BOT, IN, "GET", "/a/robots.txt", 301, "",
                     "../robots.txt", 1, T0 + 2);
    s = site_of(f, "example.com");
    assert_int_equal(s.redirect_n, 1);
    assert_int_equal(s.robots_status, 301);
    assert_true(s.versions[s.current].lint_errors >= 1);   /* the limit */
    assert_int_equal(req(f, OTHER, OUT, "/private/x", 200, T0 + 3).verdict,
                     RA_VERDICT_COMPLIANT);
    fx_free(f);
}

/* Per crawler per site, the busiest minute and the
 * median gap over 24 hours, beside the group's Crawl-delay; robots.txt
 * fetches count as requests */
static void
verdict_politeness_recorded(void **state)
{
    fx_t        *f = fx_new(1 << 20);
    ra_stat_t    st;
    uint32_t     peak;
    int64_t      gap, t = T0 - T0 % 60000;
    int          i;

    (void) state;
    robots(f, "example.com", 200,
           "User-agent: *\nCrawl-delay: 10\nDisallow: /x\n", T0 - H);
    req(f, BOT, IN, "/robots.txt", 200, t);
    for (i = 1; i < 12; i++) {
        req(f, BOT, IN, "/a", 200, t + i * 1000);        /* a 1 s gap */
    }
    for (i = 1; i <= 5; i++) {
        req(f, BOT, IN, "/b", 200, t + 11000 + i * 60000);   /* 60 s */
    }
    st = stat_of(f, "TestBot", RA_VERIFY_VERIFIED);
    assert_int_equal(st.crawl_delay_ms, 10000);
    ra_polite_read(&st.polite, t + 5 * 60000 + 11000, &peak, &gap);
    assert_int_equal(peak, 12);
    /* 16 gaps: 11 of 1 s, 5 of 60 s; the median is in [1 s, 2 s) */
    assert_true(gap >= 1000 && gap < 2000);
    /* 24 hours later, nothing is left */
    ra_polite_read(&st.polite, t + 25 * H, &peak, &gap);
    assert_int_equal(peak, 0);
    assert_int_equal(gap, -1);
    fx_free(f);
}

/* The servers' own pages are nobody's traffic; the
 * totals tell crawler requests from all */
static void
verdict_server_pages_not_counted(void **state)
{
    fx_t          *f = fx_new(1 << 20);
    ra_verdict_t   v;
    ra_totals_t    t;

    (void) state;
    robots(f, "example.com", 200, "User-agent: *\nDisallow: /\n", T0);
    v = req(f, BOT, IN, "/server-status", 200, T0 + 1);
    assert_int_equal(v.verdict, RA_VERDICT_NONE);
    v = req(f, BOT, IN, "//server-status/?auto", 200, T0 + 2);
    assert_int_equal(v.verdict, RA_VERDICT_NONE);
    v = req(f, "curl/8.0", IN, "/nginx_status", 200, T0 + 3);
    assert_int_equal(v.verdict, RA_VERDICT_NONE);
    v = req(f, "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 "
               "Firefox/120.0", OUT, "/server-info", 200, T0 + 4);
    t = totals_of(f);
    assert_int_equal(t.requests, 0);
    assert_int_equal(t.stats, 0);
    /* /server-status-like paths are pages as any other */
    v = req(f, BOT, IN, "/server-statusx", 200, T0 + 5);
    assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
    req(f, "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 "
           "Firefox/120.0", OUT, "/", 200, T0 + 6);
    t = totals_of(f);
    assert_int_equal(t.requests, 2);
    assert_int_equal(t.crawler_requests, 1);
    fx_free(f);
}

/* tokens in order of preference; "*"-ignoring crawlers; generic bots */
static void
verdict_group_selection_per_crawler(void **state)
{
    fx_t          *f = fx_new(1 << 20);
    ra_verdict_t   v;

    (void) state;
    robots(f, "example.com", 200,
           "User-agent: TestBot\nDisallow: /t\n\n"
           "User-agent: *\nDisallow: /\n\n"
           "User-agent: FooCrawler\nDisallow: /foo\n", T0);
    /* TestBot-Image has no group: it reads TestBot's */
    v = req(f, "TestBot-Image/1.0", IN, "/t/1", 200, T0 + 1);
    assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
    assert_int_equal(v.token_len, 7);
    assert_memory_equal(v.token, "TestBot", 7);
    v = req(f, "TestBot-Image/1.0", IN, "/other", 200, T0 + 2);
    assert_int_equal(v.verdict, RA_VERDICT_COMPLIANT);
    /* AdsLike ignores "*": nothing applies to it */
    v = req(f, "AdsLike/1.0", OUT, "/private", 200, T0 + 3);
    assert_int_equal(v.verdict, RA_VERDICT_COMPLIANT);
    /* a generic bot reads the group of the token it declares */
    v = req(f, "FooCrawler/3.0 (+http://foo.example/bot)", OUT, "/bar", 200,
            T0 + 4);
    assert_int_equal(v.kind, RA_UA_GENERIC);
    assert_int_equal(v.verdict, RA_VERDICT_COMPLIANT);
    v = req(f, "FooCrawler/3.0 (+http://foo.example/bot)", OUT, "/foo/1",
            200, T0 + 5);
    assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
    fx_free(f);
}

/* a violation is recorded in the ring with its rule and URI (cut) */
static void
ledger_violation_ring_keeps_details(void **state)
{
    fx_t           *f = fx_new(1 << 20);
    ra_snapshot_t   snap;
    char            uri[600];

    (void) state;
    memset(uri, 'a', sizeof(uri) - 1);
    uri[0] = '/';
    uri[sizeof(uri) - 1] = '\0';
    robots(f, "example.com", 200, "User-agent: *\n\nDisallow: /a\n", T0);
    req(f, BOT, IN, uri, 200, T0 + 7);
    assert_int_equal(ra_ledger_snapshot(&f->ledger, &ra_malloc_allocator, 1,
                                        &snap), RA_OK);
    assert_int_equal(snap.nviolations, 1);
    assert_int_equal(snap.violations[0].line, 3);
    assert_int_equal(snap.violations[0].uri_len, RA_URI_MAX);
    assert_int_equal(snap.violations[0].uri_full_len, sizeof(uri) - 1);
    assert_memory_equal(snap.violations[0].pattern, "/a", 2);
    assert_memory_equal(snap.violations[0].addr, IN, strlen(IN));
    assert_int_equal(snap.nsites, 1);
    assert_int_equal(snap.bodies[0].len, 28);
    assert_int_equal(snap.sites[0].versions[snap.sites[0].current].rules, 1);
    ra_snapshot_free(&snap, &ra_malloc_allocator);
    fx_free(f);
}

/* bounded tables: LRU eviction, counted; violations of evicted sites are
 * not shown under a reused slot */
static void
ledger_eviction_bounded_and_counted(void **state)
{
    fx_t           *f = fx_new(RA_LEDGER_MIN_SIZE);
    ra_snapshot_t   snap;
    ra_request_t    r;
    ra_verdict_t    v;
    char            host[64], ua[96];

    int             i;
    uint32_t        sites = totals_of(f).plan.sites;

    (void) state;
    for (i = 0; i < 2000; i++) {
        snprintf(host, sizeof(host), "h%d.example", i);
        snprintf(ua, sizeof(ua), "Bot%cx%d/1.0 (+http://b.example/)",
                 'a' + i % 26, i);
        robots(f, host, 200, "User-agent: *\nDisallow: /\n", T0 + i);
        memset(&r, 0, sizeof(r));
        r.site = ra_str(host, strlen(host));
        r.time = T0 + i;
        r.addr = (ra_str_t) ra_string(OUT);
        r.user_agent = ra_str(ua, strlen(ua));
        r.uri = (ra_str_t) ra_string("/x");
        assert_int_equal(ra_audit_request(f->au, &r, &v), RA_OK);
    }
    assert_true(totals_of(f).sites <= sites);
    assert_true(totals_of(f).site_evictions >= 2000 - sites);
    /* an evicted site takes its stats along; many crawlers on one site
     * push each other out */
    for (i = 0; i < 1000; i++) {
        snprintf(ua, sizeof(ua), "Bot%cy%d/1.0 (+http://b.example/)",
                 'a' + i % 26, i);
        req(f, ua, OUT, "/x", 200, T0 + 3000 + i);
    }
    assert_true(totals_of(f).stat_evictions > 0);
    assert_true(totals_of(f).stats <= totals_of(f).plan.stats);
    assert_int_equal(ra_ledger_snapshot(&f->ledger, &ra_malloc_allocator, 1,
                                        &snap), RA_OK);
    assert_true(snap.nviolations <= sites);
    for (i = 0; i < (int) snap.nviolations; i++) {
        assert_true(snap.violations[i].time >= T0 + 2000 - (int) sites);
        /* every entry names a site of this snapshot */
        assert_true(snap.violations[i].site >= 1
                    && snap.violations[i].site <= snap.nsites);
    }
    ra_snapshot_free(&snap, &ra_malloc_allocator);
    fx_free(f);
}

/* bodies that no longer fit push out older versions' bodies, never the
 * current one's; a body larger than the heap is recorded as lost */
static void
ledger_blob_heap_evicts_old_bodies(void **state)
{
    fx_t          *f = fx_new(RA_LEDGER_MIN_SIZE);
    size_t         heap = totals_of(f).plan.blob_bytes;
    size_t         big = heap / 3, i;
    char          *body = malloc(big + 32);
    ra_site_t      s;
    ra_verdict_t   v;

    (void) state;
    for (i = 0; i < 6; i++) {
        memset(body, '#', big);
        snprintf(body, big, "User-agent: *\nDisallow: /v%zu\n#", i);
        body[strlen(body)] = '#';
        body[big] = '\0';
        robots(f, "example.com", 200, body, T0 + (int64_t) i * H);
    }
    s = site_of(f, "example.com");
    assert_int_equal(s.versions[s.current].body_len, big);    /* kept */
    assert_false(s.versions[s.current].body_lost);
    assert_true(totals_of(f).blob_evictions > 0);
    req(f, BOT, IN, "/robots.txt", 200, T0 + 6 * H);
    v = req(f, BOT, IN, "/v5", 200, T0 + 6 * H);
    assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);

    /* larger than the whole heap: lost, judged as no rules */
    body = realloc(body, heap + 100);
    memset(body, '#', heap + 99);
    body[heap + 99] = '\0';
    robots(f, "example.com", 200, body, T0 + 7 * H);
    s = site_of(f, "example.com");
    assert_true(s.versions[s.current].body_lost);
    assert_int_equal(s.versions[s.current].body_len, 0);
    free(body);
    fx_free(f);
}

/* a reload keeps a compatible ledger and refuses an incompatible one */
static void
ledger_layout_check(void **state)
{
    size_t         size = 256 * 1024;
    unsigned char *r = malloc(size);
    const char    *why = NULL;
    ra_ledger_plan_t plan;

    (void) state;
    assert_int_equal(ra_ledger_format(r, size, T0), RA_OK);
    assert_int_equal(ra_ledger_check(r, size, &why), RA_OK);
    assert_int_equal(ra_ledger_check(r, size - 4096, &why), RA_ERROR);
    assert_non_null(strstr(why, "size"));
    /* the layout number, right after the 64-bit magic */
    ((uint32_t *) (r + 8))[0]++;
    assert_int_equal(ra_ledger_check(r, size, &why), RA_ERROR);
    assert_non_null(strstr(why, "another version"));
    memset(r, 0, 64);
    assert_int_equal(ra_ledger_check(r, size, &why), RA_ERROR);
    assert_int_equal(ra_ledger_plan(1024, &plan), RA_ELIMIT);
    assert_int_equal(ra_ledger_plan(size, &plan), RA_OK);
    assert_true(plan.sites >= 2 && plan.stats >= 8 && plan.violations >= 8);
    free(r);
}


/* a verdict is plain data: its rule and token outlive the next calls,
 * even when the rule set they came from is gone from the cache */
static void
verdict_copies_survive_next_calls(void **state)
{
    fx_t          *f = fx_new(1 << 20);
    ra_verdict_t   v, w;
    int            i;

    (void) state;
    fx_conf.cache_bytes = 1;            /* every compile evicts */
    fx_reaudit(f);
    robots(f, "example.com", 200,
           "User-agent: TestBot\nDisallow: /first-rule\n", T0);
    v = req(f, BOT, IN, "/first-rule/x", 200, T0 + 1);
    assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
    for (i = 0; i < 5; i++) {
        robots(f, "example.com", 200, i % 2
               ? "User-agent: *\nDisallow: /other\n"
               : "User-agent: *\n\nDisallow: /else\n", T0 + 2 + i);
        w = req(f, BOT, IN, "/other/y", 200, T0 + 10 + i);
        assert_true(w.verdict == RA_VERDICT_VIOLATION
                    || w.verdict == RA_VERDICT_STALE
                    || w.verdict == RA_VERDICT_COMPLIANT);
    }
    assert_int_equal(ra_verdict_pattern(&v).len, 11);
    assert_memory_equal(ra_verdict_pattern(&v).data, "/first-rule", 11);
    assert_int_equal(ra_verdict_token(&v).len, 7);
    assert_memory_equal(ra_verdict_token(&v).data, "TestBot", 7);
    /* the spans point into the verdict itself */
    assert_ptr_equal(ra_verdict_pattern(&v).data, v.pattern);
    assert_int_equal(v.line, 2);
    assert_true(ra_enforce_refuses(RA_ENFORCE_ALL, &v));
    fx_free(f);
}

/* the alert interval: unset (< 0) is a minute, 0 alerts every time */
static void
verdict_alert_interval_unset_and_zero(void **state)
{
    fx_t          *f = fx_new(1 << 20);
    ra_verdict_t   v;

    (void) state;
    fx_conf.alert_interval = -1;
    fx_reaudit(f);
    robots(f, "example.com", 200, "User-agent: *\nDisallow: /\n", T0);
    assert_true(req(f, BOT, IN, "/a", 200, T0).alert);
    assert_false(req(f, BOT, IN, "/a", 200, T0 + 59999).alert);
    v = req(f, BOT, IN, "/a", 200, T0 + RA_ALERT_INTERVAL_DEFAULT);
    assert_true(v.alert);
    assert_int_equal(v.suppressed, 1);

    fx_conf.alert_interval = 0;
    fx_reaudit(f);
    v = req(f, BOT, IN, "/a", 200, T0 + 60001);
    assert_true(v.alert);
    assert_int_equal(v.suppressed, 0);
    v = req(f, BOT, IN, "/a", 200, T0 + 60001);
    assert_true(v.alert);
    fx_free(f);
}

/* The violations the snapshot's ring holds (every site). */
static uint32_t
ring_count(fx_t *f)
{
    ra_snapshot_t  snap;
    uint32_t       n;

    assert_int_equal(ra_ledger_snapshot(&f->ledger, &ra_malloc_allocator, 0,
                                        &snap), RA_OK);
    n = snap.nviolations;
    ra_snapshot_free(&snap, &ra_malloc_allocator);
    return n;
}

/* alert_purposes: only the purposes named alert; the others' violations
 * are counted and kept in the ring all the same, and take nothing from
 * the budgets (no summary); an impostor alerts by the purpose of the
 * crawler it claims to be; generic bots by "generic"; none given is
 * every purpose */
static void
verdict_alert_purposes(void **state)
{
    fx_t          *f = fx_new(1 << 20);
    ra_verdict_t   v;
    ra_str_t       bad;

    (void) state;
    fx_conf.alert_interval = 0;
    fx_conf.alert_budget.site = 1;          /* a line a minute */
    fx_conf.alert_budget.total = RA_ALERT_BUDGET_OFF;
    assert_null(ra_alert_purposes_parse(ra_str("search", 6),
                                        &fx_conf.alert_purposes, &bad));
    fx_reaudit(f);
    /* AdsLike (a tool) ignores the "*" group: one of its own */
    robots(f, "example.com", 200, "User-agent: *\nDisallow: /p\n\n"
           "User-agent: AdsLike\nDisallow: /p\n", T0);

    /* a tool's and a generic bot's violations: kept, no alert */
    v = req(f, "AdsLike/1.0", OUT, "/p/1", 200, T0 + 1);
    assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
    assert_false(v.alert);
    assert_false(v.summary);
    v = req(f, "SomeTool/2.0", OUT, "/p/2", 200, T0 + 2);
    assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
    assert_null(v.crawler);
    assert_false(v.alert);
    assert_int_equal(stat_of(f, "AdsLike", RA_VERIFY_UNVERIFIABLE)
                     .counters[RA_CNT_VIOLATION], 1);
    assert_int_equal(ring_count(f), 2);
    /* the search engine's: the budget's one line is still there */
    v = req(f, BOT, IN, "/p/3", 200, T0 + 3);
    assert_int_equal(v.verification, RA_VERIFY_VERIFIED);
    assert_true(v.alert);
    assert_false(v.summary);
    /* a fake TestBot claims search: it alerts (the budget now empty:
     * held back, so the set let it through) */
    v = req(f, BOT, OUT, "/", 200, T0 + 4);
    assert_int_equal(v.verification, RA_VERIFY_IMPOSTOR);
    assert_false(v.alert);
    v = req(f, BOT, OUT, "/", 200, T0 + 60005);
    assert_true(v.alert);
    assert_true(v.summary);                 /* the one held back */
    assert_int_equal(v.budget.suppressed, 1);
    assert_int_equal(ring_count(f), 3);

    /* tool only: the impostor of a search engine says nothing, the tool
     * and (with generic) the generic bot do */
    fx_conf.alert_purposes = 0;
    assert_null(ra_alert_purposes_parse(ra_str("tool,generic", 12),
                                        &fx_conf.alert_purposes, &bad));
    fx_conf.alert_budget.site = RA_ALERT_BUDGET_OFF;
    fx_reaudit(f);
    assert_false(req(f, BOT, OUT, "/", 200, T0 + 120000).alert);
    assert_false(req(f, BOT, IN, "/p/4", 200, T0 + 120001).alert);
    assert_true(req(f, "AdsLike/1.0", OUT, "/p/5", 200, T0 + 120002).alert);
    assert_true(req(f, "SomeTool/2.0", OUT, "/p/6", 200, T0 + 120003).alert);

    /* none given: every purpose */
    fx_conf.alert_purposes = 0;
    fx_reaudit(f);
    assert_true(req(f, BOT, IN, "/p/7", 200, T0 + 180000).alert);
    assert_true(req(f, "AdsLike/1.0", OUT, "/p/8", 200, T0 + 180001).alert);
    assert_true(req(f, "SomeTool/2.0", "198.51.100.1", "/p/9", 200,
                    T0 + 180002).alert);
    fx_free(f);
}

static ra_verdict_t
req_on(ra_audit_t *au, const char *site, const char *ua, const char *addr,
    int64_t t)
{
    ra_request_t  r;
    ra_verdict_t  v;

    memset(&r, 0, sizeof(r));
    r.site = ra_str(site, strlen(site));
    r.time = t;
    r.addr = ra_str(addr, strlen(addr));
    r.user_agent = ra_str(ua, strlen(ua));
    r.method = (ra_str_t) ra_string("GET");
    r.uri = (ra_str_t) ra_string("/checkout");
    assert_int_equal(ra_audit_request(au, &r, &v), RA_OK);
    return v;
}

/* The flood of new bot names: a new generic bot name per request.  Generic bots
 * alert once per (site, address block); the budgets (per site, in all,
 * kept in the ledger: two engines on one ledger share them, as workers
 * do) bound the lines; what they hold back is said once per interval;
 * every request is counted */
static void
verdict_alert_budget(void **state)
{
    fx_t          *f = fx_new(1 << 20);
    ra_audit_t    *au2;
    ra_verdict_t   v;
    ra_totals_t    t;
    char           ua[64], addr[32];
    unsigned       i, alerts = 0, held = 0, summaries = 0;

    (void) state;
    /* generic bots may use half of each: 3 and 5 */
    fx_conf.alert_budget.site = 6;
    fx_conf.alert_budget.total = 10;
    fx_reaudit(f);
    au2 = ra_audit_create(&fx_conf, &f->ledger);
    assert_non_null(au2);
    robots(f, "example.com", 200, "User-agent: *\nDisallow: /checkout\n", T0);
    robots(f, "other.test", 200, "User-agent: *\nDisallow: /checkout\n", T0);

    /* 200 names from one /24: one alert */
    for (i = 0; i < 200; i++) {
        snprintf(ua, sizeof(ua), "Flood%uBot/1.0", i);
        snprintf(addr, sizeof(addr), "203.0.113.%u", i % 250);
        v = req_on(i % 2 ? au2 : f->au, "example.com", ua, addr, T0 + 1);
        assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
        assert_null(v.crawler);
        alerts += v.alert;
        assert_false(v.summary);
    }
    assert_int_equal(alerts, 1);

    /* new blocks: the site's budget (their 3 a minute) lets two more out */
    for (i = 0; i < 10; i++) {
        snprintf(ua, sizeof(ua), "Other%uBot/1.0", i);
        snprintf(addr, sizeof(addr), "198.51.%u.7", i);
        v = req_on(i % 2 ? au2 : f->au, "example.com", ua, addr, T0 + 2);
        alerts += v.alert;
        held += !v.alert;
    }
    assert_int_equal(alerts, 3);
    assert_int_equal(held, 8);
    /* an IPv6 /48: one block, held back too (the site's budget) */
    v = req_on(f->au, "example.com", "V6aBot/1.0", "2001:db8:1:2::1", T0 + 3);
    assert_false(v.alert);
    v = req_on(f->au, "example.com", "V6bBot/1.0", "2001:db8:1:ffff::9",
               T0 + 4);
    assert_false(v.alert);          /* the block's gate: not counted */

    /* another site: the total (their 5 a minute) lets two out, then holds */
    for (i = 0; i < 4; i++) {
        snprintf(ua, sizeof(ua), "Site2%uBot/1.0", i);
        snprintf(addr, sizeof(addr), "192.0.%u.1", 100 + i);
        v = req_on(au2, "other.test", ua, addr, T0 + 5);
        alerts += v.alert;
    }
    assert_int_equal(alerts, 5);

    /* within the interval: no summary; after it, one, with the counts:
     * 8 + 1 + 2 held back, for 11 blocks on 2 sites */
    v = req_on(f->au, "example.com", "LateBot/1.0", "203.0.113.1",
               T0 + 59000);
    assert_false(v.summary);
    v = req_on(au2, "other.test", "LateBot/1.0", "203.0.113.1", T0 + 60002);
    assert_true(v.summary);
    assert_int_equal(v.budget.suppressed, 11);
    assert_int_equal(v.budget.crawlers, 11);
    assert_int_equal(v.budget.sites, 2);
    assert_int_equal(v.budget.since, T0 + 2);
    assert_int_equal(v.budget.budget.site, 6);
    assert_int_equal(v.budget.budget.total, 10);
    assert_int_equal(v.budget.verified, 0);
    summaries++;
    /* once: the next request has none */
    v = req_on(f->au, "example.com", "LaterBot/1.0", "203.0.113.1",
               T0 + 60003);
    assert_false(v.summary);

    /* a minute refilled the buckets: a new block alerts again */
    v = req_on(f->au, "example.com", "NewBot/1.0", "198.18.0.1", T0 + 62000);
    assert_true(v.alert);

    /* every request counted */
    ra_ledger_totals(&f->ledger, &t);
    assert_int_equal(t.violations_total, 200 + 10 + 2 + 4 + 4);
    assert_int_equal(summaries, 1);
    ra_audit_destroy(au2);
    fx_free(f);
}

/* review finding 2: impostors from rotating addresses, an unverifiable
 * table name and generic bots from many blocks flood one site; they may
 * use half of its budget at most, so a verified crawler's violation
 * still alerts */
static void
verdict_alert_budget_keeps_verified(void **state)
{
    fx_t          *f = fx_new(1 << 20);
    ra_verdict_t   v;
    char           ua[64], addr[64];
    unsigned       i, open = 0;

    (void) state;
    fx_reaudit(f);                              /* the defaults: 60, 300 */
    robots(f, "example.com", 200, "User-agent: *\nDisallow: /checkout\n", T0);

    /* one /48, a new /64 and address each time: one key, one alert */
    for (i = 0; i < 1000; i++) {
        snprintf(addr, sizeof(addr), "2001:db8:1:%x::%x", i, i + 1);
        v = req_on(f->au, "example.com", BOT, addr, T0 + 1);
        assert_int_equal(v.verification, RA_VERIFY_IMPOSTOR);
        open += v.alert;
    }
    assert_int_equal(open, 1);
    /* 1000 IPv4 /24s: new keys, held to the anyone's share */
    for (i = 0; i < 1000; i++) {
        snprintf(addr, sizeof(addr), "10.%u.%u.1", i >> 8, i & 255);
        v = req_on(f->au, "example.com", BOT, addr, T0 + 2);
        open += v.alert;
    }
    /* an unverifiable name and generic bots from many blocks */
    for (i = 0; i < 500; i++) {
        snprintf(addr, sizeof(addr), "172.16.%u.%u", i >> 8, i & 255);
        v = req_on(f->au, "example.com", "TestBot-Image/1.0", addr, T0 + 3);
        assert_int_equal(v.verification, RA_VERIFY_UNVERIFIABLE);
        open += v.alert;
        snprintf(ua, sizeof(ua), "Flood%uBot/1.0", i);
        snprintf(addr, sizeof(addr), "100.64.%u.%u", i & 255, i >> 8);
        v = req_on(f->au, "example.com", ua, addr, T0 + 3);
        open += v.alert;
    }
    assert_int_equal(open, RA_ALERT_SITE_PER_MIN / 2);

    /* the verified crawler's violation: written */
    v = req_on(f->au, "example.com", BOT, IN, T0 + 4);
    assert_int_equal(v.verification, RA_VERIFY_VERIFIED);
    assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
    assert_true(v.alert);
    fx_free(f);
}

/* when a verified crawler's alert is held back all the same (here the
 * total budget, spent on two sites), the summary names it */
static void
verdict_alert_budget_names_verified(void **state)
{
    fx_t          *f = fx_new(1 << 20);
    ra_verdict_t   v;
    ra_request_t   r;
    ra_buf_t       b;
    char           addr[32];
    unsigned       i;

    (void) state;
    fx_conf.alert_budget.site = RA_ALERT_BUDGET_OFF;
    fx_conf.alert_budget.total = 2;             /* anyone's share: 1 */
    fx_reaudit(f);
    robots(f, "a.example", 200, "User-agent: *\nDisallow: /checkout\n", T0);
    robots(f, "b.example", 200, "User-agent: *\nDisallow: /checkout\n", T0);
    for (i = 0; i < 20; i++) {
        snprintf(addr, sizeof(addr), "10.0.%u.1", i);
        v = req_on(f->au, "a.example", BOT, addr, T0 + 1);
        assert_int_equal(v.alert, i == 0);      /* the share: one */
    }
    assert_true(req_on(f->au, "a.example", BOT, IN, T0 + 2).alert);
    /* its record on the other site: its own gate, but the total is
     * spent */
    v = req_on(f->au, "b.example", BOT, IN, T0 + 3);
    assert_int_equal(v.verification, RA_VERIFY_VERIFIED);
    assert_false(v.alert);
    v = req_on(f->au, "b.example", "Late/1.0", "10.9.9.9", T0 + 61000);
    assert_true(v.summary);
    assert_int_equal(v.budget.suppressed, 19 + 1);
    assert_int_equal(v.budget.verified, 1);
    assert_int_equal(v.budget.nheld, 1);
    assert_memory_equal(v.budget.held[0], "TestBot", 7);
    assert_int_equal(v.budget.held_len[0], 7);

    memset(&r, 0, sizeof(r));
    r.time = T0 + 61000;
    ra_buf_init(&b, &ra_malloc_allocator, 0, 0);
    ra_alert_summary_text(&b, &v);
    ra_buf_ch(&b, '\0');
    assert_non_null(strstr((char *) b.data,
                           " verified=1 verified_names=\"TestBot\""));
    assert_null(strstr((char *) b.data, "verified_more"));
    b.len = 0;
    ra_alert_summary_json(&b, &r, &v);
    ra_buf_ch(&b, '\0');
    assert_non_null(strstr((char *) b.data, "\"verified\":1,"
                           "\"verified_names\":[\"TestBot\"],"
                           "\"verified_more\":0,\"top_clients\":[{\"client\":"));
    ra_buf_release(&b);
    fx_free(f);
}

/* known crawlers meet the budgets too; impostors' alerts as well */
static void
verdict_alert_budget_known(void **state)
{
    fx_t          *f = fx_new(1 << 20);
    ra_verdict_t   v;

    (void) state;
    fx_conf.alert_budget.site = 1;
    fx_conf.alert_budget.total = RA_ALERT_BUDGET_OFF;
    fx_reaudit(f);
    robots(f, "example.com", 200, "User-agent: *\nDisallow: /checkout\n", T0);
    assert_true(req_on(f->au, "example.com", BOT, IN, T0).alert);
    /* an impostor (TestBot from outside its ranges): its own gate lets
     * it through, the site's budget does not */
    v = req_on(f->au, "example.com", BOT, OUT, T0 + 1);
    assert_int_equal(v.verification, RA_VERIFY_IMPOSTOR);
    assert_false(v.alert);
    /* another known crawler: held back too */
    assert_false(req_on(f->au, "example.com",
                        "TestBot-Image/1.0", IN, T0 + 2).alert);
    v = req_on(f->au, "example.com", "TestBot-Image/1.0", IN, T0 + 61000);
    assert_true(v.summary);
    assert_int_equal(v.budget.suppressed, 2);
    assert_int_equal(v.budget.crawlers, 2);
    assert_int_equal(v.budget.sites, 1);
    assert_int_equal(v.budget.budget.total, RA_ALERT_BUDGET_OFF);
    fx_free(f);
}

/* An allocator that fails once armed. */
typedef struct {
    int  armed;
} fail_t;

static void *
fail_alloc(void *ctx, size_t size)
{
    fail_t  *x = ctx;

    return x->armed ? NULL : malloc(size);
}

static void
fail_free(void *ctx, void *p)
{
    (void) ctx;
    free(p);
}

/* out of memory: counted, not judged, and a line says so */
static void
verdict_enomem_counted_not_judged(void **state)
{
    fx_t          *f = fx_new(1 << 20);
    fail_t         x = { 0 };
    ra_alloc_t     a = { fail_alloc, fail_free, &x };
    cap_host_t     cap;
    ra_request_t   r;
    ra_verdict_t   v;
    ra_answer_t    ans;
    ra_stat_t      st;
    int            where;

    (void) state;
    cap_init(&cap);
    fx_conf.alloc = &a;
    fx_conf.host = &cap.host;
    fx_reaudit(f);
    robots(f, "example.com", 200, "User-agent: *\nDisallow: /x\n", T0);

    x.armed = 1;                        /* the rules cannot be compiled */
    memset(&r, 0, sizeof(r));
    r.site = (ra_str_t) ra_string("example.com");
    r.time = T0 + 1;
    r.addr = (ra_str_t) ra_string(IN);
    r.user_agent = (ra_str_t) ra_string(BOT);
    r.method = (ra_str_t) ra_string("GET");
    r.uri = (ra_str_t) ra_string("/x");
    r.where = &where;
    assert_int_equal(ra_audit_request(f->au, &r, &v), RA_ENOMEM);
    assert_int_equal(v.verdict, RA_VERDICT_NONE);
    assert_false(ra_enforce_refuses(RA_ENFORCE_ALL, &v));
    assert_false(v.alert);
    assert_int_equal(cap.n, 1);
    assert_string_equal(cap.lines[0], "robots-audit: [RA311] out of memory, "
                        "request counted but not judged");
    assert_int_equal(cap.levels[0], RA_LOG_ERR);
    assert_ptr_equal(cap.wheres[0], &where);

    /* a new version cannot be linted: recorded, and said */
    memset(&ans, 0, sizeof(ans));
    ans.status = 200;
    ans.body = (ra_str_t) ra_string("User-agent: *\nDisallow: /x\n"
                                    "Disallow: /y\n");
    assert_int_equal(ra_audit_robots(f->au, (ra_str_t) ra_string(
                         "example.com"), &ans, T0 + 2), RA_ENOMEM);
    assert_int_equal(cap.n, 2);
    assert_string_equal(cap.lines[1], "robots-audit: [RA311] out of memory "
                        "recording robots.txt");
    x.armed = 0;

    st = stat_of(f, "TestBot", RA_VERIFY_VERIFIED);
    assert_int_equal(st.counters[RA_CNT_REQUESTS], 1);
    assert_int_equal(st.counters[RA_CNT_VIOLATION], 0);
    assert_int_equal(st.counters[RA_CNT_COMPLIANT], 0);
    /* judged again once memory is back, by the recorded version */
    v = req(f, BOT, IN, "/y", 200, T0 + 3);
    assert_int_equal(v.verdict, RA_VERDICT_STALE);      /* /x only before */
    v = req(f, BOT, IN, "/x", 200, T0 + 4);
    assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
    fx_free(f);
}

/* "the zone is full": one line a minute, whichever engine sees it, with
 * the zone's name and the evictions so far */
static void
ledger_full_logged_once_a_minute(void **state)
{
    fx_t           *f = fx_new(RA_LEDGER_MIN_SIZE);
    cap_host_t      cap;
    ra_audit_t     *other;
    ra_ledger_t     second;
    ra_request_t    r;
    ra_verdict_t    v;
    char            host[64];
    unsigned long long  ns, nc;
    int             i;

    (void) state;
    cap_init(&cap);
    fx_conf.host = &cap.host;
    fx_conf.zone_name = (ra_str_t) ra_string("robots_audit_zone \"tiny\"");
    fx_reaudit(f);
    /* a second process: its own handle and engine on the same region */
    ra_ledger_open(&second, f->region, NULL);
    other = ra_audit_create(&fx_conf, &second);
    assert_non_null(other);

    memset(&r, 0, sizeof(r));
    r.addr = (ra_str_t) ra_string(OUT);
    r.user_agent = (ra_str_t) ra_string("Mozilla/5.0 Firefox/120.0");
    r.uri = (ra_str_t) ra_string("/");
    for (i = 0; i < 1000; i++) {
        snprintf(host, sizeof(host), "h%d.example", i);
        r.site = ra_str(host, strlen(host));
        r.time = T0 + i;
        assert_int_equal(ra_audit_request(i % 2 ? other : f->au, &r, &v),
                         RA_OK);
    }
    assert_true(totals_of(f).site_evictions > 0);
    assert_int_equal(cap.n, 1);
    assert_int_equal(cap.levels[0], RA_LOG_WARN);
    assert_int_equal(sscanf(cap.lines[0], "robots-audit: [RA321] "
                            "robots_audit_zone \"tiny\" is full: %llu sites "
                            "and %llu crawler records evicted so far; a "
                            "larger zone keeps more", &ns, &nc), 2);
    assert_non_null(strstr(cap.lines[0], "keeps more"));
    assert_true(ns > 0);

    /* a minute later, with more evictions: once more */
    r.site = (ra_str_t) ra_string("late.example");
    r.time = T0 + 1000 + RA_FULL_NOTE_MS;
    assert_int_equal(ra_audit_request(other, &r, &v), RA_OK);
    assert_int_equal(cap.n, 2);
    r.site = (ra_str_t) ra_string("later.example");
    r.time += 1;
    assert_int_equal(ra_audit_request(f->au, &r, &v), RA_OK);
    assert_int_equal(cap.n, 2);
    ra_audit_destroy(other);
    fx_free(f);
}

/* ---- enforce ------------------------------------------------------------ */

static int
enforce_parse(const char *words, ra_enforce_t *scope, const char **why)
{
    char        buf[128];
    char       *w, *save = NULL;
    int         rc = RA_OK;

    *scope = RA_ENFORCE_OFF;
    *why = NULL;
    snprintf(buf, sizeof(buf), "%s", words);
    for (w = strtok_r(buf, " ", &save); w != NULL && rc == RA_OK;
         w = strtok_r(NULL, " ", &save))
    {
        rc = ra_enforce_word(scope, ra_str(w, strlen(w)), why);
    }
    return rc;
}

#define BIT(r)  (1u << (r))

/* the directive's words: a union, any case; "off" alone; nothing else */
static void
enforce_words(void **state)
{
    static const struct {
        const char  *words;
        int          rc;
        unsigned     refuses;       /* the reasons, without the off bit */
    } cases[] = {
        { "off", RA_OK, 0 },
        { "Off", RA_OK, 0 },
        { "on", RA_OK, BIT(RA_REFUSE_VIOLATION) },
        { "ON", RA_OK, BIT(RA_REFUSE_VIOLATION) },
        { "violation", RA_OK, BIT(RA_REFUSE_VIOLATION) },
        { "unreachable", RA_OK, BIT(RA_REFUSE_UNREACHABLE) },
        { "impostor", RA_OK, BIT(RA_REFUSE_IMPOSTOR) },
        { "violation unreachable", RA_OK,
          BIT(RA_REFUSE_VIOLATION) | BIT(RA_REFUSE_UNREACHABLE) },
        { "Impostor VIOLATION unreachable", RA_OK, RA_ENFORCE_ALL },
        { "on impostor", RA_OK,
          BIT(RA_REFUSE_VIOLATION) | BIT(RA_REFUSE_IMPOSTOR) },
        { "violation violation", RA_OK, BIT(RA_REFUSE_VIOLATION) },
        { "maybe", RA_ERROR, 0 },
        { "1", RA_ERROR, 0 },
        { "none", RA_ERROR, 0 },
        { "violations", RA_ERROR, 0 },
        { "violatio", RA_ERROR, 0 },
        { "stale", RA_ERROR, 0 },
        { "compliant", RA_ERROR, 0 },
        { "on maybe", RA_ERROR, 0 },
        { "off on", RA_ERROR, 0 },
        { "impostor off", RA_ERROR, 0 },
        { "off off", RA_ERROR, 0 },
    };
    size_t        i;
    ra_enforce_t  scope;
    const char   *why;
    int           rc;

    (void) state;
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        rc = enforce_parse(cases[i].words, &scope, &why);
        if (rc != cases[i].rc) {
            fail_msg("\"%s\": rc %d", cases[i].words, rc);
        }
        if (rc == RA_OK) {
            assert_int_equal(scope & ~RA_ENFORCE_OFF_WORD, cases[i].refuses);
        } else {
            assert_non_null(why);
        }
    }
    /* the phrases name the words, or say what is wrong with "off" */
    assert_int_equal(enforce_parse("maybe", &scope, &why), RA_ERROR);
    assert_non_null(strstr(why, "off, on, or any of violation, "
                                "unreachable, impostor"));
    assert_int_equal(enforce_parse("on off", &scope, &why), RA_ERROR);
    assert_string_equal(why, "\"off\" stands alone");
    /* an empty word, a word with a NUL in it */
    scope = RA_ENFORCE_OFF;
    assert_int_equal(ra_enforce_word(&scope, ra_str("", 0), &why), RA_ERROR);
    assert_int_equal(ra_enforce_word(&scope, ra_str("on\0", 3), &why),
                     RA_ERROR);
    assert_int_equal(scope, RA_ENFORCE_OFF);
    assert_string_equal(ra_refuse_name(RA_REFUSE_NONE), "none");
    assert_string_equal(ra_refuse_name(RA_REFUSE_VIOLATION), "violation");
    assert_string_equal(ra_refuse_name(RA_REFUSE_UNREACHABLE), "unreachable");
    assert_string_equal(ra_refuse_name(RA_REFUSE_IMPOSTOR), "impostor");
    assert_string_equal(ra_refuse_name(RA_REFUSE_MAX), "invalid");
}

/* which scope refuses which verdict, for whom */
static void
enforce_refuses_by_scope(void **state)
{
    static const ra_verdict_e  all[] = {
        RA_VERDICT_NONE, RA_VERDICT_FETCH, RA_VERDICT_COMPLIANT,
        RA_VERDICT_VIOLATION, RA_VERDICT_STALE, RA_VERDICT_UNREACHABLE,
        RA_VERDICT_EXEMPT, RA_VERDICT_UNKNOWN
    };
    static const unsigned  verifs[] = {
        RA_VERIFY_UNVERIFIABLE, RA_VERIFY_VERIFIED, RA_VERIFY_IMPOSTOR
    };
    ra_verdict_t  v;
    ra_enforce_t  scope;
    size_t        i, j;
    unsigned      sc;
    ra_refuse_e   want, got;

    (void) state;
    memset(&v, 0, sizeof(v));
    for (sc = 0; sc <= (RA_ENFORCE_ALL | RA_ENFORCE_OFF_WORD); sc++) {
        scope = sc;
        for (i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
            for (j = 0; j < sizeof(verifs) / sizeof(verifs[0]); j++) {
                v.verdict = all[i];
                v.verification = verifs[j];
                want = RA_REFUSE_NONE;
                if (all[i] == RA_VERDICT_NONE || all[i] == RA_VERDICT_FETCH) {
                    want = RA_REFUSE_NONE;
                } else if ((sc & BIT(RA_REFUSE_IMPOSTOR))
                           && verifs[j] == RA_VERIFY_IMPOSTOR)
                {
                    want = RA_REFUSE_IMPOSTOR;
                } else if ((sc & BIT(RA_REFUSE_VIOLATION))
                           && all[i] == RA_VERDICT_VIOLATION)
                {
                    want = RA_REFUSE_VIOLATION;
                } else if ((sc & BIT(RA_REFUSE_UNREACHABLE))
                           && all[i] == RA_VERDICT_UNREACHABLE)
                {
                    want = RA_REFUSE_UNREACHABLE;
                }
                got = ra_enforce_refuses(scope, &v);
                if (got != want) {
                    fail_msg("scope %#x verdict %s verification %s: %d, "
                             "not %d", sc, ra_verdict_name(all[i]),
                             ra_verify_name((int) verifs[j]), got, want);
                }
            }
        }
    }
    /* spelled out: "on" is violation only */
    v.verification = RA_VERIFY_VERIFIED;
    v.verdict = RA_VERDICT_UNREACHABLE;
    assert_int_equal(ra_enforce_refuses(RA_ENFORCE_ON, &v), RA_REFUSE_NONE);
    v.verdict = RA_VERDICT_VIOLATION;
    assert_int_equal(ra_enforce_refuses(RA_ENFORCE_ON, &v),
                     RA_REFUSE_VIOLATION);
    v.verification = RA_VERIFY_IMPOSTOR;
    v.verdict = RA_VERDICT_COMPLIANT;
    assert_int_equal(ra_enforce_refuses(RA_ENFORCE_ON, &v), RA_REFUSE_NONE);
    v.verdict = RA_VERDICT_UNKNOWN;
    assert_int_equal(ra_enforce_refuses(RA_ENFORCE_ALL, &v),
                     RA_REFUSE_IMPOSTOR);
    v.verification = RA_VERIFY_VERIFIED;
    assert_int_equal(ra_enforce_refuses(RA_ENFORCE_ALL, &v), RA_REFUSE_NONE);
}

/* through the engine: a refusal is set on the verdict, counted per (site,
 * crawler, verification) and for the site, marked in the alert; nothing is
 * refused at log time (scope 0); the crawler's own later 2xx or 4xx fetch
 * of robots.txt ends its unreachable window */
static void
enforce_refusals_counted_and_marked(void **state)
{
    fx_t          *f = fx_new(1 << 20);
    ra_verdict_t   v;
    ra_stat_t      st;
    ra_site_t      s;
    ra_buf_t       b;
    ra_request_t   r;
    ra_enforce_t   vu = BIT(RA_REFUSE_VIOLATION) | BIT(RA_REFUSE_UNREACHABLE);

    (void) state;
    robots(f, "example.com", 200, "User-agent: *\nDisallow: /x\n", T0);
    req(f, BOT, IN, "/robots.txt", 200, T0);
    v = req_enforce(f, BOT, IN, "/x/1", T0 + 1, RA_ENFORCE_ON);
    assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
    assert_int_equal(v.refused, RA_REFUSE_VIOLATION);
    assert_true(v.alert);
    /* the alert says so, in both lines */
    memset(&r, 0, sizeof(r));
    r.site = (ra_str_t) ra_string("example.com");
    r.time = T0 + 1;
    r.addr = (ra_str_t) ra_string(IN);
    r.method = (ra_str_t) ra_string("GET");
    r.uri = (ra_str_t) ra_string("/x/1");
    ra_buf_init(&b, &ra_malloc_allocator, 0, 0);
    ra_alert_json(&b, &r, &v);
    ra_buf_ch(&b, '\0');
    assert_non_null(strstr((char *) b.data,
                           ",\"suppressed\":0,\"refused\":true,"
                           "\"verified_by\":\"ranges\"}\n"));
    b.len = 0;
    ra_alert_text(&b, &r, &v);
    ra_buf_ch(&b, '\0');
    assert_non_null(strstr((char *) b.data, " suppressed=0 refused=true "
                                            "verified_by=ranges"));
    b.len = 0;
    /* the same request at log time: judged, not refused */
    v = req(f, BOT, IN, "/x/2", 200, T0 + 2);
    assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
    assert_int_equal(v.refused, RA_REFUSE_NONE);
    v.alert = 1;
    ra_alert_json(&b, &r, &v);
    ra_buf_ch(&b, '\0');
    assert_non_null(strstr((char *) b.data, ",\"refused\":false,"
                           "\"verified_by\":\"ranges\"}\n"));
    b.len = 0;
    ra_alert_text(&b, &r, &v);
    ra_buf_ch(&b, '\0');
    assert_null(strstr((char *) b.data, "refused"));
    ra_buf_release(&b);
    /* allowed: never refused, whatever the scope */
    v = req_enforce(f, BOT, IN, "/y", T0 + 3, RA_ENFORCE_ALL);
    assert_int_equal(v.verdict, RA_VERDICT_COMPLIANT);
    assert_int_equal(v.refused, RA_REFUSE_NONE);

    /* robots.txt answers 503 to the crawler: "on" lets it crawl, a scope
     * with unreachable refuses */
    robots(f, "example.com", 503, "", T0 + H);
    req(f, BOT, IN, "/robots.txt", 503, T0 + H);
    v = req_enforce(f, BOT, IN, "/y", T0 + H + 1, RA_ENFORCE_ON);
    assert_int_equal(v.verdict, RA_VERDICT_UNREACHABLE);
    assert_int_equal(v.refused, RA_REFUSE_NONE);
    v = req_enforce(f, BOT, IN, "/y", T0 + H + 2, vu);
    assert_int_equal(v.verdict, RA_VERDICT_UNREACHABLE);
    assert_int_equal(v.refused, RA_REFUSE_UNREACHABLE);
    /* another crawler's good fetch ends nobody else's window */
    robots(f, "example.com", 200, "User-agent: *\nDisallow: /x\n", T0 + 2 * H);
    req(f, "TestBot-Image/1.0", IN, "/robots.txt", 200, T0 + 2 * H);
    v = req_enforce(f, BOT, IN, "/y", T0 + 2 * H + 1, vu);
    assert_int_equal(v.refused, RA_REFUSE_UNREACHABLE);
    /* its own 200 ends it: judged against the rules again */
    req(f, BOT, IN, "/robots.txt", 200, T0 + 2 * H + 2);
    v = req_enforce(f, BOT, IN, "/y", T0 + 2 * H + 3, vu);
    assert_int_equal(v.verdict, RA_VERDICT_COMPLIANT);
    assert_int_equal(v.refused, RA_REFUSE_NONE);
    v = req_enforce(f, BOT, IN, "/x/3", T0 + 2 * H + 4, vu);
    assert_int_equal(v.refused, RA_REFUSE_VIOLATION);
    /* and so does a 404 (no rules: everything allowed) */
    robots(f, "example.com", 503, "", T0 + 3 * H);
    req(f, BOT, IN, "/robots.txt", 503, T0 + 3 * H);
    v = req_enforce(f, BOT, IN, "/x/4", T0 + 3 * H + 1, vu);
    assert_int_equal(v.refused, RA_REFUSE_UNREACHABLE);
    robots(f, "example.com", 404, "", T0 + 3 * H + 2);
    req(f, BOT, IN, "/robots.txt", 404, T0 + 3 * H + 2);
    v = req_enforce(f, BOT, IN, "/x/4", T0 + 3 * H + 3, vu);
    assert_int_equal(v.verdict, RA_VERDICT_COMPLIANT);
    assert_int_equal(v.refused, RA_REFUSE_NONE);

    st = stat_of(f, "TestBot", RA_VERIFY_VERIFIED);
    assert_int_equal(st.counters[RA_CNT_REFUSED_VIOLATION], 2);
    assert_int_equal(st.counters[RA_CNT_REFUSED_UNREACHABLE], 3);
    assert_int_equal(st.counters[RA_CNT_REFUSED_IMPOSTOR], 0);
    /* refused requests are counted under their verdict too */
    assert_int_equal(st.counters[RA_CNT_VIOLATION], 3);
    assert_int_equal(st.counters[RA_CNT_UNREACHABLE], 4);
    assert_string_equal(ra_counter_name(RA_CNT_REFUSED_VIOLATION),
                        "refused_violation");
    assert_string_equal(ra_counter_name(RA_CNT_REFUSED_IMPOSTOR),
                        "refused_impostor");

    /* an impostor: "on" refuses its violations only, "impostor" every
     * request but robots.txt, counted as impostor */
    v = req_enforce(f, BOT, OUT, "/y", T0 + 4 * H, RA_ENFORCE_ON);
    assert_int_equal(v.verification, RA_VERIFY_IMPOSTOR);
    assert_int_equal(v.refused, RA_REFUSE_NONE);
    v = req_enforce(f, BOT, OUT, "/y", T0 + 4 * H + 1,
                    BIT(RA_REFUSE_IMPOSTOR));
    assert_int_equal(v.verdict, RA_VERDICT_COMPLIANT);
    assert_int_equal(v.refused, RA_REFUSE_IMPOSTOR);
    v = req_enforce(f, BOT, OUT, "/robots.txt", T0 + 4 * H + 2,
                    RA_ENFORCE_ALL);
    assert_int_equal(v.verdict, RA_VERDICT_FETCH);
    assert_int_equal(v.refused, RA_REFUSE_NONE);
    st = stat_of(f, "TestBot", RA_VERIFY_IMPOSTOR);
    assert_int_equal(st.counters[RA_CNT_REFUSED_IMPOSTOR], 1);
    assert_int_equal(st.counters[RA_CNT_REFUSED_VIOLATION], 0);

    s = site_of(f, "example.com");
    assert_int_equal(s.counters[RA_CNT_REFUSED_VIOLATION], 2);
    assert_int_equal(s.counters[RA_CNT_REFUSED_UNREACHABLE], 3);
    assert_int_equal(s.counters[RA_CNT_REFUSED_IMPOSTOR], 1);
    fx_free(f);
}

/* no robots.txt known: unknown, counted, never refused */
static void
enforce_never_refuses_unknown(void **state)
{
    fx_t          *f = fx_new(1 << 20);
    ra_verdict_t   v;
    ra_stat_t      st;

    (void) state;
    v = req_enforce(f, BOT, IN, "/x", T0, RA_ENFORCE_ALL);
    assert_int_equal(v.verdict, RA_VERDICT_UNKNOWN);
    assert_int_equal(v.refused, RA_REFUSE_NONE);
    st = stat_of(f, "TestBot", RA_VERIFY_VERIFIED);
    assert_int_equal(st.counters[RA_CNT_UNKNOWN], 1);
    assert_int_equal(st.counters[RA_CNT_COMPLIANT], 0);
    assert_int_equal(st.counters[RA_CNT_REFUSED_VIOLATION]
                     + st.counters[RA_CNT_REFUSED_UNREACHABLE]
                     + st.counters[RA_CNT_REFUSED_IMPOSTOR], 0);
    fx_free(f);
}



/* The count step records the deciding line (site and record),
 * the hourly bucket, the violation's evidence, and the crawlers of a
 * 5xx/429 episode */
static void
count_step_records_evidence(void **state)
{
    fx_t           *f = fx_new(1 << 20);
    const char     *body = "User-agent: *\nDisallow: /private\n"
                           "Allow: /private/ok\n";
    unsigned char   sha[RA_SHA256_LEN];
    ra_snapshot_t   snap;
    ra_site_t       s;
    ra_stat_t       st;
    uint64_t        c[RA_CNT_MAX];

    (void) state;
    robots(f, "example.com", 200, body, T0);
    req(f, BOT, IN, "/robots.txt", 200, T0 + 1);
    assert_int_equal(req(f, BOT, IN, "/private/a", 200, T0 + 2).verdict,
                     RA_VERDICT_VIOLATION);
    assert_int_equal(req(f, BOT, IN, "/private/ok", 200, T0 + 3).verdict,
                     RA_VERDICT_COMPLIANT);
    req(f, BOT, IN, "/", 200, T0 + 4);                  /* no line */
    req(f, BOT, OUT, "/private/b", 200, T0 + 5);        /* an impostor */

    s = site_of(f, "example.com");
    assert_int_equal(s.rule_hits[0].line, 2);
    assert_int_equal(s.rule_hits[0].allow, 0);
    assert_int_equal(s.rule_hits[0].matched, 2);
    assert_int_equal(s.rule_hits[0].violations, 2);
    assert_int_equal(s.rule_hits[1].line, 3);
    assert_int_equal(s.rule_hits[1].allow, 1);
    assert_int_equal(s.rule_hits[1].matched, 1);
    assert_int_equal(s.rule_hits[1].violations, 0);
    assert_int_equal(s.rule_hits[2].line, 0);

    st = stat_of(f, "TestBot", RA_VERIFY_VERIFIED);
    assert_int_equal(st.rule_hits[0].line, 2);
    assert_int_equal(st.rule_hits[0].matched, 1);
    assert_int_equal(st.rule_hits[1].line, 3);
    ra_hours_sum(st.hours, T0 + 10, 1, c);
    assert_int_equal(c[RA_CNT_REQUESTS], 4);
    assert_int_equal(c[RA_CNT_ROBOTS_FETCHES], 1);
    assert_int_equal(c[RA_CNT_VIOLATION], 1);
    assert_int_equal(c[RA_CNT_COMPLIANT], 2);

    /* the violations' evidence, newest first */
    assert_int_equal(ra_ledger_snapshot(&f->ledger, &ra_malloc_allocator, 0,
                                        &snap), RA_OK);
    assert_int_equal(snap.nviolations, 2);
    assert_int_equal(ra_sha256(ra_str(body, strlen(body)), sha), RA_OK);
    assert_int_equal(snap.violations[1].verification, RA_VERIFY_VERIFIED);
    assert_int_equal(snap.violations[1].verified_by, RA_VERIFIED_BY_RANGES);
    assert_true(snap.violations[1].last_fetch == T0 + 1);
    assert_memory_equal(snap.violations[1].robots_sha256, sha, 32);
    assert_int_equal(snap.violations[0].verification, RA_VERIFY_IMPOSTOR);
    assert_true(snap.violations[0].last_fetch == 0);
    ra_snapshot_free(&snap, &ra_malloc_allocator);

    /* an episode: a 503 to the crawler, its requests, a 200 again */
    req(f, BOT, IN, "/robots.txt", 503, T0 + 100);
    robots(f, "example.com", 503, "busy", T0 + 100);
    req(f, BOT, IN, "/x", 200, T0 + 150);
    robots(f, "example.com", 200, body, T0 + 200);
    req(f, BOT, IN, "/y", 200, T0 + 250);               /* after it */
    s = site_of(f, "example.com");
    assert_true(s.episodes[0].start == T0 + 100);
    assert_true(s.episodes[0].end == T0 + 200);
    assert_int_equal(s.episodes[0].status, 503);
    assert_int_equal(s.episodes[0].ncrawlers, 1);
    assert_memory_equal(s.episodes[0].name[0], "TestBot", 7);
    assert_int_equal(s.episodes[0].requests[0], 1);
    /* the same body again: the counts go on */
    assert_int_equal(s.rule_hits[0].matched, 2);
    fx_free(f);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(verdict_browser_counted_in_totals_only),
        cmocka_unit_test(verdict_identity_cache_sample_alike),
        cmocka_unit_test(verdict_site_hint_after_eviction),
        cmocka_unit_test(verdict_site_hint_refused_without_lock),
        cmocka_unit_test(verdict_site_hint_names_apart),
        cmocka_unit_test(verdict_thread_engines_share_impostor_gate),
        cmocka_unit_test(verdict_robots_fetch_recorded),
        cmocka_unit_test(verdict_llms_fetch_counted),
        cmocka_unit_test(verdict_referrals_counted),
        cmocka_unit_test(verdict_utm_source_referrals),
        cmocka_unit_test(verdict_compliant_and_violation_single_version),
        cmocka_unit_test(verdict_alerts_rate_limited_with_count),
        cmocka_unit_test(verdict_spellings_through_the_engine),
        cmocka_unit_test(verdict_stale_by_fetched_version),
        cmocka_unit_test(verdict_violation_when_fetched_version_disallows),
        cmocka_unit_test(verdict_stale_window_24h_without_fetch),
        cmocka_unit_test(verdict_fetch_older_than_24h_falls_back),
        cmocka_unit_test(verdict_generic_name_any_case),
        cmocka_unit_test(verdict_bare_word_bots_apart),
        cmocka_unit_test(ledger_purpose_requests_per_site),
        cmocka_unit_test(verdict_generic_name_not_a_table_crawler),
        cmocka_unit_test(verdict_unreachable_window_12h),
        cmocka_unit_test(verdict_request_errors_are_not_fetches),
        cmocka_unit_test(verdict_unknown_without_robots),
        cmocka_unit_test(verdict_last_answer_apart_from_version),
        cmocka_unit_test(robots_versions_alternate),
        cmocka_unit_test(verdict_no_user_agent_counted_apart),
        cmocka_unit_test(verdict_initial_file_never_replaces_capture),
        cmocka_unit_test(verdict_404_allows_everything),
        cmocka_unit_test(verdict_user_triggered_exempt),
        cmocka_unit_test(verdict_impostor_counted_apart),
        cmocka_unit_test(verdict_verify_hints),
        cmocka_unit_test(verdict_impostor_alerts_per_address),
        cmocka_unit_test(verdict_impostor_leaves_real_crawler_alone),
        cmocka_unit_test(verdict_impostor_table_bounded),
        cmocka_unit_test(verdict_steady_state_copies_no_body),
        cmocka_unit_test(verdict_crawl_delay_flag),
        cmocka_unit_test(verdict_unreachable_30d),
        cmocka_unit_test(verdict_unchanged_answer_ends_failures),
        cmocka_unit_test(verdict_failure_needs_a_crawler),
        cmocka_unit_test(robots_answer_binds_its_client),
        cmocka_unit_test(robots_answer_everyone),
        cmocka_unit_test(robots_query_and_head_are_no_fetch),
        cmocka_unit_test(robots_failure_of_one_client),
        cmocka_unit_test(robots_versions_cannot_be_flooded),
        cmocka_unit_test(robots_redirect_followed),
        cmocka_unit_test(robots_redirect_not_followed),
        cmocka_unit_test(verdict_politeness_recorded),
        cmocka_unit_test(verdict_server_pages_not_counted),
        cmocka_unit_test(verdict_group_selection_per_crawler),
        cmocka_unit_test(ledger_violation_ring_keeps_details),
        cmocka_unit_test(ledger_eviction_bounded_and_counted),
        cmocka_unit_test(ledger_blob_heap_evicts_old_bodies),
        cmocka_unit_test(ledger_layout_check),
        cmocka_unit_test(count_step_records_evidence),
        cmocka_unit_test(verdict_copies_survive_next_calls),
        cmocka_unit_test(verdict_alert_interval_unset_and_zero),
        cmocka_unit_test(verdict_alert_purposes),
        cmocka_unit_test(verdict_alert_budget),
        cmocka_unit_test(verdict_alert_budget_known),
        cmocka_unit_test(verdict_alert_budget_keeps_verified),
        cmocka_unit_test(verdict_alert_budget_names_verified),
        cmocka_unit_test(verdict_enomem_counted_not_judged),
        cmocka_unit_test(ledger_full_logged_once_a_minute),
        cmocka_unit_test(enforce_words),
        cmocka_unit_test(enforce_refuses_by_scope),
        cmocka_unit_test(enforce_refusals_counted_and_marked),
        cmocka_unit_test(enforce_never_refuses_unknown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
