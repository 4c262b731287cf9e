/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Reverse DNS: the cache in the ledger (TTL, negative and failure
 * caching, the lookup budget, eviction that spares verified results), the
 * engine's flow (a miss asks the host, pending is unverifiable, a later
 * request is judged by the answer) and the built-in table's suffixes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "ra_test.h"
#include "ra_audit.h"
#include "ra_crawlers.h"
#include "ra_ledger.h"
#include "ra_rdns.h"
#include "ra_rdns_lookup.h"
#include "ra_report.h"
#include "ra_verify.h"

#define T0  1700000000000LL

static ra_addr_t
A(const char *s)
{
    ra_addr_t  a;

    assert_int_equal(ra_addr_parse(ra_str(s, strlen(s)), &a), RA_OK);
    return a;
}

static void *
area_new(uint32_t n)
{
    void  *p = malloc(ra_rdns_area_size(n));

    ra_rdns_format(p, n);
    return p;
}

static int
find(void *t, const ra_rdns_conf_t *c, const char *addr, int64_t now,
    ra_rdns_answer_t *ans)
{
    ra_addr_t  a = A(addr);

    return ra_rdns_find_locked(t, c, &a, now, ans);
}

static int
done(void *t, const ra_rdns_conf_t *c, const char *addr, int ok,
    const char *name, const char *fwd, int trusted, int64_t now)
{
    ra_addr_t  a = A(addr), f;

    if (fwd != NULL) {
        f = A(fwd);
    }
    return ra_rdns_done_locked(t, c, &a, ok, ra_str(name, strlen(name)),
                               fwd ? &f : NULL, fwd ? 1 : 0, trusted, now);
}

static void
cache_miss_pending_answer_ttl(void **state)
{
    void              *t = area_new(64);
    ra_rdns_answer_t   ans;
    ra_rdns_counts_t   c;

    (void) state;
    assert_int_equal(find(t, NULL, "66.249.66.1", T0, &ans), RA_RDNS_START);
    /* in flight: the same address waits, and starts nothing more */
    assert_int_equal(find(t, NULL, "66.249.66.1", T0 + 5, &ans),
                     RA_RDNS_WAIT);
    ra_rdns_counts(t, T0 + 5, &c);
    assert_int_equal(c.pending, 1);
    assert_int_equal(c.lookups, 1);

    assert_int_equal(done(t, NULL, "66.249.66.1", 1,
                          "crawl-66-249-66-1.googlebot.com.", "66.249.66.1",
                          1, T0 + 10), RA_OK);
    assert_int_equal(find(t, NULL, "66.249.66.1", T0 + 20, &ans),
                     RA_RDNS_HIT);
    assert_string_equal(ans.name, "crawl-66-249-66-1.googlebot.com");
    assert_true(ans.confirmed);
    ra_rdns_counts(t, T0 + 20, &c);
    assert_int_equal(c.pending, 0);
    assert_int_equal(c.cached, 1);
    assert_int_equal(c.verified, 1);

    /* a second answer for an address no longer pending is dropped */
    assert_int_equal(done(t, NULL, "66.249.66.1", 1, "evil.example",
                          "66.249.66.1", 0, T0 + 30), RA_ERROR);
    assert_int_equal(find(t, NULL, "66.249.66.1", T0 + 40, &ans),
                     RA_RDNS_HIT);
    assert_string_equal(ans.name, "crawl-66-249-66-1.googlebot.com");

    /* the TTL: still there just before, asked again after */
    assert_int_equal(find(t, NULL, "66.249.66.1",
                          T0 + 10 + RA_RDNS_TTL_MS - 1, &ans), RA_RDNS_HIT);
    assert_int_equal(find(t, NULL, "66.249.66.1",
                          T0 + 10 + RA_RDNS_TTL_MS, &ans), RA_RDNS_START);
    free(t);
}

static void
cache_negative_and_failure(void **state)
{
    void              *t = area_new(64);
    ra_rdns_answer_t   ans;
    ra_rdns_conf_t     conf = { 0, 0, 0, 0, 0 };
    ra_rdns_counts_t   c;

    (void) state;
    /* no PTR at all: an answer (empty name), kept the negative TTL */
    assert_int_equal(find(t, &conf, "192.0.2.7", T0, &ans), RA_RDNS_START);
    assert_int_equal(done(t, &conf, "192.0.2.7", 1, "", NULL, 0, T0), RA_OK);
    assert_int_equal(find(t, &conf, "192.0.2.7", T0 + 1, &ans), RA_RDNS_HIT);
    assert_int_equal(ans.name_len, 0);
    assert_false(ans.confirmed);
    assert_int_equal(find(t, &conf, "192.0.2.7", T0 + RA_RDNS_NEG_MS - 1,
                          &ans), RA_RDNS_HIT);
    assert_int_equal(find(t, &conf, "192.0.2.7", T0 + RA_RDNS_NEG_MS, &ans),
                     RA_RDNS_START);

    /* a name that does not resolve back: answered, not confirmed */
    assert_int_equal(find(t, &conf, "192.0.2.8", T0, &ans), RA_RDNS_START);
    assert_int_equal(done(t, &conf, "192.0.2.8", 1, "x.googlebot.com",
                          "192.0.2.99", 1, T0), RA_OK);
    assert_int_equal(find(t, &conf, "192.0.2.8", T0 + 1, &ans), RA_RDNS_HIT);
    assert_false(ans.confirmed);

    /* a name that is not a host name counts as none */
    assert_int_equal(find(t, &conf, "192.0.2.9", T0, &ans), RA_RDNS_START);
    assert_int_equal(done(t, &conf, "192.0.2.9", 1, "a b\n.googlebot.com",
                          "192.0.2.9", 1, T0), RA_OK);
    assert_int_equal(find(t, &conf, "192.0.2.9", T0 + 1, &ans), RA_RDNS_HIT);
    assert_int_equal(ans.name_len, 0);
    assert_false(ans.confirmed);

    /* the resolver failed: waits RA_RDNS_FAIL_MS, then asks again */
    conf.fail_ms = 5000;
    assert_int_equal(find(t, &conf, "192.0.2.10", T0, &ans), RA_RDNS_START);
    assert_int_equal(done(t, &conf, "192.0.2.10", 0, "", NULL, 0, T0),
                     RA_OK);
    assert_int_equal(find(t, &conf, "192.0.2.10", T0 + 4999, &ans),
                     RA_RDNS_WAIT);
    assert_int_equal(find(t, &conf, "192.0.2.10", T0 + 5000, &ans),
                     RA_RDNS_START);

    /* a host that never answers: the pending entry times out as failed */
    conf.pending_ms = 1000;
    assert_int_equal(find(t, &conf, "192.0.2.11", T0, &ans), RA_RDNS_START);
    assert_int_equal(find(t, &conf, "192.0.2.11", T0 + 999, &ans),
                     RA_RDNS_WAIT);
    assert_int_equal(find(t, &conf, "192.0.2.11", T0 + 1000, &ans),
                     RA_RDNS_WAIT);
    assert_int_equal(find(t, &conf, "192.0.2.11", T0 + 6000, &ans),
                     RA_RDNS_START);
    ra_rdns_counts(t, T0 + 6000, &c);
    assert_int_equal(c.failed, 5);  /* 7, 8, 9 not verified; 10, 11 failed */
    assert_int_equal(c.verified, 0);
    free(t);
}

static void
cache_budget_per_second(void **state)
{
    void              *t = area_new(RA_RDNS_MAX);
    ra_rdns_answer_t   ans;
    ra_rdns_conf_t     conf = { 3, 0, 0, 0, 0 };
    ra_rdns_counts_t   c;
    char               addr[32];
    int                i, started = 0;

    (void) state;
    /* a flood of addresses in one second: only the budget's worth start */
    for (i = 0; i < 100; i++) {
        snprintf(addr, sizeof(addr), "198.51.100.%d", i);
        started += find(t, &conf, addr, T0 + 200, &ans) == RA_RDNS_START;
    }
    assert_int_equal(started, 3);
    ra_rdns_counts(t, T0 + 200, &c);
    assert_int_equal(c.lookups, 3);
    assert_int_equal(c.refused, 97);
    /* the next second has its own */
    assert_int_equal(find(t, &conf, "198.51.100.50", T0 + 1000, &ans),
                     RA_RDNS_START);
    /* the default budget */
    started = 0;
    for (i = 0; i < 100; i++) {
        snprintf(addr, sizeof(addr), "203.0.113.%d", i);
        started += find(t, NULL, addr, T0 + 5000, &ans) == RA_RDNS_START;
    }
    assert_int_equal(started, RA_RDNS_BUDGET);
    free(t);
}

static void
cache_eviction_spares_trusted(void **state)
{
    /* one set only: RA_RDNS_WAYS entries, every address in it */
    void              *t = area_new(RA_RDNS_WAYS);
    ra_rdns_answer_t   ans;
    ra_rdns_conf_t     conf = { 1000000, 0, 0, 0, 0 };
    char               addrs[64][48];
    int                i, n;
    int64_t            now = T0;

    (void) state;
    for (n = 0; n < 64; n++) {
        snprintf(addrs[n], sizeof(addrs[n]), "2001:db8::%x", n + 1);
    }

    /* the genuine crawler: verified and trusted */
    assert_int_equal(find(t, &conf, "66.249.66.1", now, &ans), RA_RDNS_START);
    assert_int_equal(done(t, &conf, "66.249.66.1", 1,
                          "crawl-66-249-66-1.googlebot.com", "66.249.66.1",
                          1, now), RA_OK);

    /* an attacker with a /64 fills the set with its own answered
     * addresses, over and over: each new lookup takes an untrusted
     * entry, never the trusted one */
    for (i = 0; i < 64; i++) {
        now += 10;
        assert_int_equal(find(t, &conf, addrs[i], now, &ans), RA_RDNS_START);
        assert_int_equal(done(t, &conf, addrs[i], 1, "host.attacker.example",
                              addrs[i], 0, now), RA_OK);
    }
    assert_int_equal(find(t, &conf, "66.249.66.1", now, &ans), RA_RDNS_HIT);
    assert_true(ans.confirmed);

    /* pending lookups still in time are not taken either: with every
     * other way pending, the set is full and a new address is refused */
    for (i = 0; i < RA_RDNS_WAYS - 1; i++) {
        now += 10;
        (void) find(t, &conf, addrs[i], now + RA_RDNS_NEG_MS, &ans);
    }
    now += RA_RDNS_NEG_MS + 100;
    assert_int_equal(find(t, &conf, "2001:db8::ffff:1", now, &ans),
                     RA_RDNS_REFUSED);
    assert_int_equal(find(t, &conf, "66.249.66.1", now, &ans), RA_RDNS_HIT);

    /* the trusted entry goes at its TTL, not before */
    assert_int_equal(find(t, &conf, "66.249.66.1", T0 + RA_RDNS_TTL_MS,
                          &ans), RA_RDNS_START);
    free(t);
}

/* an entry torn by a process that died while writing reads as free */
static void
cache_torn_entry_reads_free(void **state)
{
    void              *t = area_new(RA_RDNS_WAYS);
    ra_rdns_answer_t   ans;
    ra_rdns_entry_t   *e;
    ra_rdns_counts_t   c;

    (void) state;
    assert_int_equal(find(t, NULL, "192.0.2.1", T0, &ans), RA_RDNS_START);
    e = (ra_rdns_entry_t *) ((unsigned char *) t + 64);
    /* the death between "state free" and the new state */
    e[0].state = RA_RDNS_FREE;
    assert_int_equal(find(t, NULL, "192.0.2.1", T0 + 1, &ans),
                     RA_RDNS_START);
    /* a state byte no writer ever stores */
    e[0].state = 200;
    ra_rdns_counts(t, T0 + 1, &c);
    assert_int_equal(c.pending, 0);
    assert_int_equal(find(t, NULL, "192.0.2.1", T0 + 2, &ans),
                     RA_RDNS_START);
    free(t);
}

/* the ledger holds the area, formatted, inside its region */
static void
ledger_holds_the_cache(void **state)
{
    size_t             size = 1024 * 1024;
    unsigned char     *r = malloc(size);
    ra_ledger_t        l;
    ra_ledger_plan_t   plan;
    ra_rdns_counts_t   c;
    ra_rdns_answer_t   ans;
    ra_addr_t          a = A("192.0.2.1");
    const char        *why;

    (void) state;
    assert_int_equal(ra_ledger_plan(size, &plan), RA_OK);
    assert_true(plan.rdns >= RA_RDNS_WAYS && plan.rdns <= RA_RDNS_MAX);
    assert_int_equal(plan.rdns % RA_RDNS_WAYS, 0);
    assert_int_equal(ra_ledger_format(r, size, T0), RA_OK);
    ra_ledger_open(&l, r, NULL);
    ra_rdns_counts(ra_ledger_rdns_area(&l), T0, &c);
    assert_int_equal(c.entries, plan.rdns);
    assert_int_equal(ra_rdns_find_locked(ra_ledger_rdns_area(&l), NULL, &a,
                                         T0, &ans), RA_RDNS_START);
    assert_int_equal(ra_ledger_check(r, size, &why), RA_OK);
    assert_null(ra_ledger_verify(&l));
    free(r);
}

/* ---- the built-in table ------------------------------------------------ */

/* Domains whose names cloud and hosting customers can obtain for their
 * own addresses (PTR records they set, or that the provider names after
 * them): a crawler verified by one would be anyone's. */
static const char  *const cloud_suffixes[] = {
    "googleusercontent.com", "amazonaws.com", "cloudapp.net",
    "cloudapp.azure.com", "azurewebsites.net", "linodeusercontent.com",
    "linode.com", "vultrusercontent.com", "your-server.de",
    "contaboserver.net", "ovh.net", "ip-ptr.tech", "compute.internal",
    "oraclecloud.com", "aliyuncs.com", "digitalocean.com",
    "scaleway.com", "hetzner.com", "herokuapp.com", "fly.dev",
    "appspot.com", "run.app", "cloudfunctions.net", "amazonaws.com.cn"
};

static void
table_has_no_cloud_suffix(void **state)
{
    ra_test_arena_t      *ar = ra_test_arena_new();
    ra_crawlers_t        *t = ra_crawlers_create(ra_test_arena_alloc(ar));
    ra_crawlers_err_t     err;
    const ra_crawler_t   *c;
    ra_str_t              s, cs;
    size_t                i, j, k, with = 0;

    (void) state;
    assert_int_equal(ra_crawlers_add_builtin(t, &err), RA_OK);
    assert_int_equal(ra_crawlers_compile(t, &err), RA_OK);
    for (i = 0; i < ra_crawlers_count(t); i++) {
        c = ra_crawlers_get(t, i);
        with += c->nrdns > 0;
        for (j = 0; j < c->nrdns; j++) {
            s = c->rdns[j];
            if (s.len && s.data[0] == '.') {
                s.data++;
                s.len--;
            }
            for (k = 0; k < sizeof(cloud_suffixes) / sizeof(*cloud_suffixes);
                 k++)
            {
                cs = ra_str(cloud_suffixes[k], strlen(cloud_suffixes[k]));
                /* the suffix is the cloud domain or lies under it */
                if (s.len >= cs.len
                    && ra_strcaseeq(ra_str(s.data + s.len - cs.len, cs.len),
                                    cs)
                    && (s.len == cs.len
                        || s.data[s.len - cs.len - 1] == '.'))
                {
                    fail_msg("%.*s: rdns %.*s is a cloud domain",
                             (int) c->name.len, c->name.data,
                             (int) c->rdns[j].len, c->rdns[j].data);
                }
            }
        }
    }
    assert_true(with >= 40);
    /* Googlebot is verified by its documented domains, and a GCE VM's
     * name is not among them */
    c = ra_crawlers_find(t, ra_str("Googlebot", 9));
    assert_non_null(c);
    {
        ra_addr_t  a = A("34.1.2.3");

        assert_int_equal(ra_verify_rdns_check(c, &a,
                             ra_str("3.2.1.34.bc.googleusercontent.com", 33),
                             &a, 1), RA_VERIFY_IMPOSTOR);
        assert_int_equal(ra_verify_rdns_check(c, &a,
                             ra_str("crawl-34-1-2-3.googlebot.com", 28),
                             &a, 1), RA_VERIFY_VERIFIED);
    }
    assert_true(ra_rdns_trusted(t, ra_str("crawl-1.googlebot.com", 21)));
    assert_false(ra_rdns_trusted(t, ra_str("x.googleusercontent.com", 23)));
    assert_false(ra_rdns_trusted(t, ra_str("googlebot.com.evil.example",
                                           26)));
    ra_test_arena_free(ar);
}

/* ---- the engine --------------------------------------------------------- */

typedef struct {
    ra_host_t  host;
    int        starts;
    ra_addr_t  last;
    int        refuse;
    int64_t    now;
} dns_host_t;

static int
dns_start(const ra_host_t *h, void *where, const uint8_t addr[16])
{
    dns_host_t  *d = h->ctx;

    assert_ptr_equal(where, &d->starts);    /* the request's, handed on */
    d->starts++;
    memcpy(d->last.b, addr, 16);
    return d->refuse ? RA_ERROR : RA_OK;
}

static int64_t
dns_now(const ra_host_t *h)
{
    return ((dns_host_t *) h->ctx)->now;
}

static const char  rdns_crawlers[] =
    "crawler SearchBot\n"
    "ua SearchBot\n"
    "category search\n"
    "rdns .crawl.search.example\n"
    "\n"
    "crawler RangeBot\n"
    "ua RangeBot\n"
    "category search\n"
    "ranges range.json\n"
    "rdns .crawl.range.example\n";

typedef struct {
    unsigned char    *region;
    ra_ledger_t       ledger;
    ra_test_arena_t  *arena;
    ra_crawlers_t    *crawlers;
    ra_ranges_t      *ranges;
    ra_audit_t       *au;
    dns_host_t        dns;
} efx_t;

static efx_t *
efx_new(void)
{
    efx_t             *f = calloc(1, sizeof(*f));
    size_t             size = 1024 * 1024;
    ra_crawlers_err_t  cerr;
    ra_json_err_t      jerr;
    ra_audit_conf_t    conf;

    f->region = malloc(size);
    assert_int_equal(ra_ledger_format(f->region, size, T0), RA_OK);
    ra_ledger_open(&f->ledger, f->region, NULL);
    f->arena = ra_test_arena_new();
    f->crawlers = ra_crawlers_create(ra_test_arena_alloc(f->arena));
    assert_int_equal(ra_crawlers_add(f->crawlers,
                         ra_str(rdns_crawlers, sizeof(rdns_crawlers) - 1),
                         &cerr), RA_OK);
    assert_int_equal(ra_crawlers_compile(f->crawlers, &cerr), RA_OK);
    f->ranges = ra_ranges_create(ra_test_arena_alloc(f->arena));
    assert_int_equal(ra_ranges_add_json(f->ranges,
                         ra_str("range.json", 10),
                         (ra_str_t) ra_string(
                         "{\"prefixes\":[{\"ipv4Prefix\":\"192.0.2.0/24\"}]}"),
                         &jerr), RA_OK);
    f->dns.host.ctx = &f->dns;
    f->dns.host.heap = ra_malloc_allocator;
    f->dns.host.rdns_start = dns_start;
    f->dns.host.now = dns_now;
    f->dns.now = T0;
    f->ledger.host = &f->dns.host;      /* its clock: pending counts */
    memset(&conf, 0, sizeof(conf));
    conf.alloc = &ra_malloc_allocator;
    conf.crawlers = f->crawlers;
    conf.ranges = f->ranges;
    conf.host = &f->dns.host;
    conf.alert_interval = 60000;
    f->au = ra_audit_create(&conf, &f->ledger);
    assert_non_null(f->au);
    return f;
}

static void
efx_free(efx_t *f)
{
    ra_audit_destroy(f->au);
    ra_test_arena_free(f->arena);
    free(f->region);
    free(f);
}

static ra_verdict_t
ereq(efx_t *f, const char *ua, const char *addr, int64_t t)
{
    ra_request_t  r;
    ra_verdict_t  v;

    memset(&r, 0, sizeof(r));
    r.site = (ra_str_t) ra_string("example.com");
    r.user_agent = ra_str(ua, strlen(ua));
    r.addr = ra_str(addr, strlen(addr));
    r.method = (ra_str_t) ra_string("GET");
    r.uri = (ra_str_t) ra_string("/page");
    r.status = 200;
    r.time = t;
    r.where = &f->dns.starts;
    f->dns.now = t;
    assert_int_equal(ra_audit_request(f->au, &r, &v), RA_OK);
    return v;
}

static void
answer(efx_t *f, const char *addr, int ok, const char *name,
    const char *fwd)
{
    ra_addr_t  a = A(addr), fa;

    if (fwd) {
        fa = A(fwd);
    }
    ra_audit_rdns_done(f->au, a.b, ok, ra_str(name, strlen(name)),
                       fwd ? &fa : NULL, fwd ? 1 : 0);
}

static void
engine_genuine_rdns_verified_after_pending(void **state)
{
    efx_t             *f = efx_new();
    ra_verdict_t       v;
    ra_rdns_counts_t   c;

    (void) state;
    v = ereq(f, "SearchBot/1.0", "203.0.113.5", T0);
    assert_int_equal(v.verification, RA_VERIFY_UNVERIFIABLE);
    assert_int_equal(v.verified_by, RA_VERIFIED_BY_NONE);
    assert_int_equal(f->dns.starts, 1);
    assert_memory_equal(f->dns.last.b, A("203.0.113.5").b, 16);

    /* judged while pending: unverifiable, and no second lookup */
    v = ereq(f, "SearchBot/1.0", "203.0.113.5", T0 + 10);
    assert_int_equal(v.verification, RA_VERIFY_UNVERIFIABLE);
    assert_int_equal(f->dns.starts, 1);
    ra_rdns_counts(ra_ledger_rdns_area(&f->ledger), T0 + 10, &c);
    assert_int_equal(c.pending, 1);

    f->dns.now = T0 + 50;
    answer(f, "203.0.113.5", 1, "bot-5.crawl.search.example.",
           "203.0.113.5");
    v = ereq(f, "SearchBot/1.0", "203.0.113.5", T0 + 100);
    assert_int_equal(v.verification, RA_VERIFY_VERIFIED);
    assert_int_equal(v.verified_by, RA_VERIFIED_BY_RDNS);
    assert_int_equal(f->dns.starts, 1);
    ra_rdns_counts(ra_ledger_rdns_area(&f->ledger), T0 + 100, &c);
    assert_int_equal(c.pending, 0);
    assert_int_equal(c.verified, 1);

    /* the same address claiming another crawler: that one's domains
     * decide, from the same cached answer */
    v = ereq(f, "RangeBot/1.0", "203.0.113.5", T0 + 200);
    assert_int_equal(v.verification, RA_VERIFY_IMPOSTOR);
    assert_int_equal(v.verified_by, RA_VERIFIED_BY_RDNS);
    assert_int_equal(f->dns.starts, 1);
    efx_free(f);
}

static void
engine_ptr_outside_and_not_resolving_back(void **state)
{
    efx_t         *f = efx_new();
    ra_verdict_t   v;

    (void) state;
    /* a PTR outside the operator's domains */
    (void) ereq(f, "SearchBot/1.0", "198.51.100.1", T0);
    answer(f, "198.51.100.1", 1, "vm-1.cloud.example", "198.51.100.1");
    v = ereq(f, "SearchBot/1.0", "198.51.100.1", T0 + 10);
    assert_int_equal(v.verification, RA_VERIFY_IMPOSTOR);
    assert_int_equal(v.verified_by, RA_VERIFIED_BY_RDNS);

    /* a PTR inside them that does not resolve back to the client */
    (void) ereq(f, "SearchBot/1.0", "198.51.100.2", T0 + 20);
    answer(f, "198.51.100.2", 1, "fake.crawl.search.example",
           "203.0.113.77");
    v = ereq(f, "SearchBot/1.0", "198.51.100.2", T0 + 30);
    assert_int_equal(v.verification, RA_VERIFY_IMPOSTOR);
    assert_int_equal(v.verified_by, RA_VERIFIED_BY_RDNS);

    /* no PTR at all */
    (void) ereq(f, "SearchBot/1.0", "198.51.100.3", T0 + 40);
    answer(f, "198.51.100.3", 1, "", NULL);
    v = ereq(f, "SearchBot/1.0", "198.51.100.3", T0 + 50);
    assert_int_equal(v.verification, RA_VERIFY_IMPOSTOR);

    /* the resolver failed: unverifiable, not an impostor */
    (void) ereq(f, "SearchBot/1.0", "198.51.100.4", T0 + 60);
    answer(f, "198.51.100.4", 0, "", NULL);
    v = ereq(f, "SearchBot/1.0", "198.51.100.4", T0 + 70);
    assert_int_equal(v.verification, RA_VERIFY_UNVERIFIABLE);
    assert_int_equal(v.verified_by, RA_VERIFIED_BY_NONE);
    efx_free(f);
}

static void
engine_ranges_first_and_no_resolver(void **state)
{
    efx_t         *f = efx_new();
    ra_verdict_t   v;

    (void) state;
    /* ranges verify: no lookup at all */
    v = ereq(f, "RangeBot/1.0", "192.0.2.10", T0);
    assert_int_equal(v.verification, RA_VERIFY_VERIFIED);
    assert_int_equal(v.verified_by, RA_VERIFIED_BY_RANGES);
    assert_int_equal(f->dns.starts, 0);

    /* outside the ranges: rDNS may still verify; while it is pending
     * the ranges' verdict stands */
    v = ereq(f, "RangeBot/1.0", "203.0.113.9", T0 + 10);
    assert_int_equal(v.verification, RA_VERIFY_IMPOSTOR);
    assert_int_equal(v.verified_by, RA_VERIFIED_BY_RANGES);
    assert_int_equal(f->dns.starts, 1);
    answer(f, "203.0.113.9", 1, "b.crawl.range.example", "203.0.113.9");
    v = ereq(f, "RangeBot/1.0", "203.0.113.9", T0 + 20);
    assert_int_equal(v.verification, RA_VERIFY_VERIFIED);
    assert_int_equal(v.verified_by, RA_VERIFIED_BY_RDNS);
    /* and an answer that does not confirm: impostor, by rdns now */
    v = ereq(f, "RangeBot/1.0", "203.0.113.12", T0 + 21);
    assert_int_equal(v.verified_by, RA_VERIFIED_BY_RANGES);
    answer(f, "203.0.113.12", 1, "vm.cloud.example", "203.0.113.12");
    v = ereq(f, "RangeBot/1.0", "203.0.113.12", T0 + 22);
    assert_int_equal(v.verification, RA_VERIFY_IMPOSTOR);
    assert_int_equal(v.verified_by, RA_VERIFIED_BY_RDNS);

    /* a host that cannot start a lookup: failed, unverifiable, and not
     * asked again within RA_RDNS_FAIL_MS */
    f->dns.refuse = 1;
    v = ereq(f, "SearchBot/1.0", "203.0.113.10", T0 + 30);
    assert_int_equal(v.verification, RA_VERIFY_UNVERIFIABLE);
    assert_int_equal(f->dns.starts, 3);
    v = ereq(f, "SearchBot/1.0", "203.0.113.10", T0 + 40);
    assert_int_equal(f->dns.starts, 3);

    /* without rdns_start: ranges only, as before */
    f->dns.host.rdns_start = NULL;
    v = ereq(f, "RangeBot/1.0", "203.0.113.11", T0 + 50);
    assert_int_equal(v.verification, RA_VERIFY_IMPOSTOR);
    assert_int_equal(v.verified_by, RA_VERIFIED_BY_RANGES);
    v = ereq(f, "SearchBot/1.0", "203.0.113.11", T0 + 60);
    assert_int_equal(v.verification, RA_VERIFY_UNVERIFIABLE);
    efx_free(f);
}

/* the status page counts the lookups: JSON, Prometheus, HTML */
static char *
render(efx_t *f, ra_report_format_e fmt)
{
    ra_snapshot_t     snap;
    ra_report_opts_t  o;
    ra_buf_t          b;
    char             *s;

    assert_int_equal(ra_ledger_snapshot(&f->ledger, &ra_malloc_allocator, 0,
                                        &snap), RA_OK);
    memset(&o, 0, sizeof(o));
    o.now = f->dns.now;
    ra_buf_init(&b, &ra_malloc_allocator, 4096, 0);
    assert_int_equal(ra_report_render(&snap, fmt, &o, &b), RA_OK);
    s = calloc(1, b.len + 1);
    memcpy(s, b.data, b.len);
    ra_buf_release(&b);
    ra_snapshot_free(&snap, &ra_malloc_allocator);
    return s;
}

static void
report_counts_lookups(void **state)
{
    efx_t  *f = efx_new();
    char   *s;

    (void) state;
    (void) ereq(f, "SearchBot/1.0", "203.0.113.1", T0);      /* verified */
    (void) ereq(f, "SearchBot/1.0", "203.0.113.2", T0 + 1);  /* not */
    (void) ereq(f, "SearchBot/1.0", "203.0.113.3", T0 + 2);  /* pending */
    answer(f, "203.0.113.1", 1, "a.crawl.search.example", "203.0.113.1");
    answer(f, "203.0.113.2", 1, "b.elsewhere.example", "203.0.113.2");
    f->dns.now = T0 + 3;

    s = render(f, RA_REPORT_JSON);
    assert_non_null(strstr(s, "\"rdns\":{\"pending\":1,\"verified\":1,"
                              "\"failed\":1,\"lookups\":3,\"refused\":0}"));
    free(s);
    s = render(f, RA_REPORT_PROMETHEUS);
    assert_non_null(strstr(s, "robots_audit_rdns_lookups_total"
                              "{result=\"verified\"} 1\n"));
    assert_non_null(strstr(s, "robots_audit_rdns_lookups_total"
                              "{result=\"failed\"} 1\n"));
    assert_non_null(strstr(s, "robots_audit_rdns_pending 1\n"));
    free(s);
    s = render(f, RA_REPORT_HTML);
    assert_non_null(strstr(s, "reverse DNS: 1 pending, 1 verified, 1 failed, "
                              "0 refused"));
    free(s);
    efx_free(f);
}

/* the PTR names every resolver resolves forward: plain host names, not
 * none, not an address literal (IPv4 or IPv6), not a name the cache would
 * count as none */
static void
ptr_names_resolved_forward(void **state)
{
    (void) state;
    assert_true(ra_rdns_ptr_forward((ra_str_t) ra_string(
                    "crawl-66-249-66-1.googlebot.com")));
    assert_true(ra_rdns_ptr_forward((ra_str_t) ra_string("host1")));
    assert_false(ra_rdns_ptr_forward(ra_str("", 0)));
    assert_false(ra_rdns_ptr_forward((ra_str_t) ra_string("192.0.2.1")));
    assert_false(ra_rdns_ptr_forward((ra_str_t) ra_string("2001:db8::1")));
    assert_false(ra_rdns_ptr_forward((ra_str_t) ra_string("a b.example")));
}

/* a lookup's steps, as nginx's resolver and c-ares hand them over */
static void
lookup_steps(void **state)
{
    int                  i;
    uint8_t              addr[16] = { [10] = 0xff, [11] = 0xff, 192, 0, 2,
                                      7 };
    char                 longname[300];
    ra_rdns_lookup_t     q;
    struct sockaddr_in   sin;
    struct sockaddr_un   sun;

    (void) state;
    ra_rdns_lookup_start(&q, addr);
    assert_memory_equal(q.addr, addr, 16);
    assert_int_equal(q.ok, 0);
    assert_string_equal(q.name, "");

    /* a name: resolved forward; then its addresses, at most 16 kept */
    assert_int_equal(ra_rdns_lookup_ptr(&q, RA_RDNS_RECORD,
                     (ra_str_t) ra_string("crawl.googlebot.com")), 1);
    assert_int_equal(q.ok, 1);
    assert_string_equal(q.name, "crawl.googlebot.com");
    ra_rdns_lookup_reply(&q, RA_RDNS_RECORD);
    memset(&sin, 0, sizeof(sin));
    sin.sin_family = AF_INET;
    memcpy(&sin.sin_addr, addr + 12, 4);
    for (i = 0; i < 20; i++) {
        ra_rdns_lookup_fwd(&q, (struct sockaddr *) &sin);
    }
    memset(&sun, 0, sizeof(sun));
    sun.sun_family = AF_UNIX;
    ra_rdns_lookup_fwd(&q, (struct sockaddr *) &sun);
    assert_int_equal(q.nfwd, RA_RDNS_FWD_MAX);
    assert_memory_equal(q.fwd[0].b, addr, 16);
    assert_int_equal(q.ok, 1);

    /* NXDOMAIN for the forward name is an answer; no answer is not */
    ra_rdns_lookup_reply(&q, RA_RDNS_NO_RECORD);
    assert_int_equal(q.ok, 1);
    ra_rdns_lookup_reply(&q, RA_RDNS_NO_ANSWER);
    assert_int_equal(q.ok, 0);

    /* no PTR: an answer, nothing to resolve */
    ra_rdns_lookup_start(&q, addr);
    assert_int_equal(ra_rdns_lookup_ptr(&q, RA_RDNS_NO_RECORD,
                     ra_str(NULL, 0)), 0);
    assert_int_equal(q.ok, 1);
    assert_string_equal(q.name, "");

    /* no answer: the lookup failed */
    ra_rdns_lookup_start(&q, addr);
    assert_int_equal(ra_rdns_lookup_ptr(&q, RA_RDNS_NO_ANSWER,
                     (ra_str_t) ra_string("x.example")), 0);
    assert_int_equal(q.ok, 0);

    /* an address literal, or a name too long to keep: no forward query */
    ra_rdns_lookup_start(&q, addr);
    assert_int_equal(ra_rdns_lookup_ptr(&q, RA_RDNS_RECORD,
                     (ra_str_t) ra_string("192.0.2.7")), 0);
    assert_int_equal(q.ok, 1);
    memset(longname, 'a', sizeof(longname));
    ra_rdns_lookup_start(&q, addr);
    assert_int_equal(ra_rdns_lookup_ptr(&q, RA_RDNS_RECORD,
                     ra_str(longname, sizeof(longname))), 0);
    assert_int_equal(q.ok, 1);
    assert_string_equal(q.name, "");

    /* no engine: dropped */
    ra_rdns_lookup_end(&q, NULL);
}

int
main(void)
{
    const struct CMUnitTest  tests[] = {
        cmocka_unit_test(cache_miss_pending_answer_ttl),
        cmocka_unit_test(cache_negative_and_failure),
        cmocka_unit_test(cache_budget_per_second),
        cmocka_unit_test(cache_eviction_spares_trusted),
        cmocka_unit_test(cache_torn_entry_reads_free),
        cmocka_unit_test(ledger_holds_the_cache),
        cmocka_unit_test(table_has_no_cloud_suffix),
        cmocka_unit_test(engine_genuine_rdns_verified_after_pending),
        cmocka_unit_test(engine_ptr_outside_and_not_resolving_back),
        cmocka_unit_test(engine_ranges_first_and_no_resolver),
        cmocka_unit_test(report_counts_lookups),
        cmocka_unit_test(ptr_names_resolved_forward),
        cmocka_unit_test(lookup_steps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
