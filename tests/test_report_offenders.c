/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The status page leads with the offenders: crawlers with the most
 * violations first (by name on request) in every format that lists them,
 * the site's badge the worse of its robots.txt's health and its crawlers'
 * compliance, the columns a narrow screen keeps, what the operator can do
 * about each offender (escaped), why a record is unverifiable (no method
 * published, or one this server is not configured for), scripts and
 * tools apart from the crawlers, and 404 for a ?site= or ?crawler= that
 * names nothing known.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ra_test.h"
#include "ra_report.h"
#include "ra_status.h"
#include "ra_crawlers.h"
#include "ra_verify.h"
#include "ra_verdict.h"

#define T0  1700000000000LL

#define SET(field, lenf, s)                                                 \
    do {                                                                    \
        size_t  n_ = strlen(s) < sizeof(field) ? strlen(s) : sizeof(field); \
        memcpy(field, s, n_);                                               \
        lenf = n_;                                                          \
    } while (0)

/* a tool of the table's category tool, with an operator and a URL that
 * need escaping; a crawler whose operator publishes no method */
static const char  tool_file[] =
    "crawler TestTool\n"
    "operator Tool <Makers> & \"Co\"\n"
    "category tool\n"
    "url https://tools.example/a?b=1&c=<2>\n"
    "crawler PlainBot\n"
    "operator Plain\n"
    "category search\n"
    "url https://plain.example/bot\n";

typedef struct {
    ra_snapshot_t     snap;
    ra_site_t         site;
    ra_stat_t         stats[8];
    ra_str_t          body;
    ra_test_arena_t  *ar;
    ra_crawlers_t    *table;
    ra_ranges_t      *ranges;
} fix_t;

static void
stat(ra_stat_t *st, const char *name, unsigned kind, unsigned category,
    unsigned verif, uint64_t requests, uint64_t violations)
{
    memset(st, 0, sizeof(*st));
    st->site = 1;
    st->kind = (uint8_t) kind;
    st->category = (uint8_t) category;
    st->verification = (uint8_t) verif;
    SET(st->name, st->name_len, name);
    SET(st->token, st->token_len, name);
    st->counters[RA_CNT_REQUESTS] = requests;
    st->counters[RA_CNT_VIOLATION] = violations;
    st->counters[RA_CNT_COMPLIANT] = requests - violations;
    st->first_seen = T0 - 86400000;
    st->last_seen = T0;
}

static void
fix(fix_t *f)
{
    ra_crawlers_err_t  err;
    ra_json_err_t      jerr;
    static const char  google[] = "{\"prefixes\":[{\"ipv4Prefix\":"
                                  "\"66.249.64.0/19\"}]}";

    memset(f, 0, sizeof(*f));
    SET(f->site.name, f->site.name_len, "shop.example");
    f->site.robots_status = 200;
    f->site.nversions = 1;
    f->site.versions[0].hash = 7;
    f->site.versions[0].answer = RA_ANSWER_RULES;
    f->site.versions[0].status = 200;
    f->site.last_seen = T0;
    f->site.counters[RA_CNT_REQUESTS] = 200;
    f->site.counters[RA_CNT_VIOLATION] = 14;
    f->body = ra_str("User-agent: *\nDisallow: /private/\n", 33);

    /* the busiest is clean; the offenders are fewer requests */
    stat(&f->stats[0], "Googlebot", RA_UA_KNOWN, RA_CAT_SEARCH,
         RA_VERIFY_VERIFIED, 100, 0);
    stat(&f->stats[1], "bingbot", RA_UA_KNOWN, RA_CAT_SEARCH,
         RA_VERIFY_UNVERIFIABLE, 10, 3);
    stat(&f->stats[2], "YandexBot", RA_UA_KNOWN, RA_CAT_SEARCH,
         RA_VERIFY_UNVERIFIABLE, 20, 3);
    stat(&f->stats[3], "GPTBot", RA_UA_KNOWN, RA_CAT_AI_TRAINING,
         RA_VERIFY_IMPOSTOR, 5, 2);
    stat(&f->stats[4], "x<y>\"bot", RA_UA_GENERIC, RA_CAT_MAX,
         RA_VERIFY_UNVERIFIABLE, 4, 1);
    stat(&f->stats[5], "TestTool", RA_UA_KNOWN, RA_CAT_TOOL,
         RA_VERIFY_UNVERIFIABLE, 50, 5);
    /* the second record of a crawler: still one crawler */
    stat(&f->stats[6], "bingbot", RA_UA_KNOWN, RA_CAT_SEARCH,
         RA_VERIFY_IMPOSTOR, 2, 1);
    stat(&f->stats[7], "PlainBot", RA_UA_KNOWN, RA_CAT_AI_TRAINING,
         RA_VERIFY_UNVERIFIABLE, 3, 0);

    f->snap.sites = &f->site;
    f->snap.nsites = 1;
    f->snap.stats = f->stats;
    f->snap.nstats = 8;
    f->snap.bodies = &f->body;
    f->snap.totals.sites = 1;
    f->snap.totals.stats = 8;

    f->ar = ra_test_arena_new();
    f->table = ra_crawlers_create(ra_test_arena_alloc(f->ar));
    assert_non_null(f->table);
    assert_int_equal(ra_crawlers_add_builtin(f->table, &err), RA_OK);
    assert_int_equal(ra_crawlers_add(f->table,
                                     ra_str(tool_file, sizeof(tool_file) - 1),
                                     &err), RA_OK);
    assert_int_equal(ra_crawlers_compile(f->table, &err), RA_OK);
    f->ranges = ra_ranges_create(ra_test_arena_alloc(f->ar));
    assert_non_null(f->ranges);
    assert_int_equal(ra_ranges_add_json(f->ranges,
                                        ra_str("googlebot.json", 14),
                                        ra_str(google, sizeof(google) - 1),
                                        &jerr), RA_OK);
}

static char *
render(fix_t *f, ra_report_format_e fmt, const ra_report_opts_t *o)
{
    ra_buf_t  b;
    char     *s;

    ra_buf_init(&b, &ra_malloc_allocator, 0, 0);
    assert_int_equal(ra_report_render(&f->snap, fmt, o, &b), RA_OK);
    assert_false(b.failed);
    s = malloc(b.len + 1);
    assert_non_null(s);
    memcpy(s, b.data, b.len);
    s[b.len] = '\0';
    ra_buf_release(&b);
    return s;
}

static void
opts(fix_t *f, ra_report_opts_t *o, int by_violations)
{
    memset(o, 0, sizeof(*o));
    o->now = T0;
    o->crawlers = f->table;
    o->ranges = f->ranges;
    o->sort_violations = (unsigned) by_violations;
}

/* a appears in s, and before b */
static void
before(const char *s, const char *a, const char *b)
{
    const char  *p = strstr(s, a), *q = strstr(s, b);

    if (p == NULL || q == NULL || p >= q) {
        fail_msg("\"%s\" %s before \"%s\"", a, p ? "not" : "missing", b);
    }
}

/* the section of s from a up to b (a copy) */
static char *
part(const char *s, const char *a, const char *b)
{
    const char  *p = strstr(s, a), *q;
    char        *out;

    assert_non_null(p);
    q = strstr(p + strlen(a), b);
    assert_non_null(q);
    out = malloc((size_t) (q - p) + 1);
    assert_non_null(out);
    memcpy(out, p, (size_t) (q - p));
    out[q - p] = '\0';
    return out;
}

static void
test_order(void **state)
{
    fix_t             f;
    ra_report_opts_t  o;
    char             *s, *t;

    (void) state;
    fix(&f);
    opts(&f, &o, 1);
    s = render(&f, RA_REPORT_HTML, &o);
    t = part(s, "<h3>crawlers</h3>", "</table>");
    /* most violations first; ties (3 each) by name, byte order */
    before(t, ">YandexBot<", ">bingbot<");
    before(t, ">bingbot<", ">GPTBot<");
    before(t, ">GPTBot<", ">x&lt;y&gt;&quot;bot (generic)<");
    before(t, "(generic)<", ">Googlebot<");
    assert_non_null(strstr(s, "<a href=\"?sort=name\">by name</a> &middot; "
                              "most violations first"));
    free(t);
    free(s);
    /* JSON and text list the same order */
    s = render(&f, RA_REPORT_JSON, &o);
    before(s, "\"crawler\":\"YandexBot\"", "\"crawler\":\"bingbot\"");
    before(s, "\"crawler\":\"bingbot\"", "\"crawler\":\"Googlebot\"");
    free(s);
    s = render(&f, RA_REPORT_TEXT, &o);
    before(s, "YandexBot", "Googlebot");
    free(s);

    /* by name */
    opts(&f, &o, 0);
    s = render(&f, RA_REPORT_HTML, &o);
    t = part(s, "<h3>crawlers</h3>", "</table>");
    before(t, ">Googlebot<", ">YandexBot<");
    before(t, ">YandexBot<", ">bingbot<");
    assert_non_null(strstr(s, "by name &middot; <a href=\"?sort="
                              "violations\">most violations first</a>"));
    free(t);
    free(s);
    s = render(&f, RA_REPORT_JSON, &o);
    before(s, "\"crawler\":\"Googlebot\"", "\"crawler\":\"YandexBot\"");
    free(s);
    ra_test_arena_free(f.ar);
}

static void
test_badge(void **state)
{
    fix_t             f;
    ra_report_opts_t  o;
    char             *s;
    unsigned          i;

    (void) state;
    fix(&f);
    opts(&f, &o, 1);
    /* YandexBot, bingbot (two records), GPTBot, the generic bot: four;
     * the tool is no crawler */
    s = render(&f, RA_REPORT_HTML, &o);
    assert_non_null(strstr(s, "shop.example<span class=\"health h-bad\">4 "
                              "crawlers ignore robots.txt</span></h2>"));
    assert_null(strstr(s, "robots.txt OK"));
    free(s);

    /* one offender: singular */
    for (i = 0; i < 8; i++) {
        if (i != 1) {
            f.stats[i].counters[RA_CNT_VIOLATION] = 0;
        }
    }
    s = render(&f, RA_REPORT_HTML, &o);
    assert_non_null(strstr(s, "<span class=\"health h-bad\">1 crawler "
                              "ignores robots.txt</span>"));
    free(s);

    /* none: robots.txt's own health */
    f.stats[1].counters[RA_CNT_VIOLATION] = 0;
    s = render(&f, RA_REPORT_HTML, &o);
    assert_non_null(strstr(s, "<span class=\"health h-ok\">robots.txt OK"
                              "</span>"));
    free(s);

    /* robots.txt failing outranks the offenders */
    f.stats[1].counters[RA_CNT_VIOLATION] = 2;
    f.site.failures = 1;
    f.site.robots_status = 503;
    s = render(&f, RA_REPORT_HTML, &o);
    assert_non_null(strstr(s, "<span class=\"health h-bad\">robots.txt "
                              "failing: 503"));
    free(s);
    ra_test_arena_free(f.ar);
}

static void
test_columns(void **state)
{
    fix_t             f;
    ra_report_opts_t  o;
    char             *s;

    (void) state;
    fix(&f);
    opts(&f, &o, 1);
    s = render(&f, RA_REPORT_HTML, &o);
    /* who, how badly, how compliant, since when: first; the rest hidden
     * on a narrow screen (class x), by CSS alone */
    assert_non_null(strstr(s, "<table class=\"crawlers\"><tr>"
                              "<th>crawler</th><th class=\"n\">violations"
                              "</th><th>compliance</th><th class=\"x\">"
                              "first seen</th><th class=\"x\">last seen"
                              "</th><th class=\"x\">verification</th>"));
    assert_non_null(strstr(s, "@media (max-width:600px){"));
    assert_non_null(strstr(s, ".x{display:none}"));
    assert_non_null(strstr(s, "<td class=\"x nw\">2023-11-13T22:13:20Z</td>"
                              "<td class=\"x nw\">2023-11-14T22:13:20Z"
                              "</td>"));
    assert_null(strstr(s, "<script"));
    free(s);
    ra_test_arena_free(f.ar);
}

static void
test_todo(void **state)
{
    fix_t             f;
    ra_report_opts_t  o;
    char             *s, *t;

    (void) state;
    fix(&f);
    opts(&f, &o, 1);
    s = render(&f, RA_REPORT_HTML, &o);
    t = part(s, "<h4>what you can do</h4>", "</ul>");
    /* an unverifiable crawler: all four */
    assert_non_null(strstr(t, "<li><strong>bingbot</strong> <span class=\"muted\">"
                              "(unverifiable)</span>: refuse it: nginx "
                              "<code>robots_audit_enforce violation;</code>, "
                              "Apache <code>RobotsAuditEnforce violation"
                              "</code> &middot; ban its addresses: fail2ban "
                              "jail <code>robots-audit</code> &middot; tell "
                              "it in robots.txt: <code>User-agent: bingbot"
                              "<br>Disallow: /</code> &middot; its operator: "
                              "<a href=\"https://www.bing.com/"));
    assert_non_null(strstr(t, "rel=\"noreferrer\">Microsoft</a></li>"));
    /* an impostor: refused as one, its own jail, no group (it would bind
     * the real crawler), no operator (not theirs) */
    assert_non_null(strstr(t, "<li><strong>GPTBot</strong> <span class=\"muted\">"
                              "(impostor)</span>: refuse it: nginx <code>"
                              "robots_audit_enforce violation impostor;"
                              "</code>, Apache <code>RobotsAuditEnforce "
                              "violation impostor</code> &middot; ban its "
                              "addresses: fail2ban jail <code>robots-audit-"
                              "impostor</code></li>"));
    assert_non_null(strstr(t, "<li><strong>bingbot</strong> <span class=\"muted\">"
                              "(impostor)</span>"));
    /* a generic bot: its token, escaped; no operator */
    assert_non_null(strstr(t, "<li><strong>x&lt;y&gt;&quot;bot (generic)</strong>"));
    assert_non_null(strstr(t, "<code>User-agent: x&lt;y&gt;&quot;bot<br>"
                              "Disallow: /</code></li>"));
    /* no line for a crawler without violations */
    assert_null(strstr(t, "Googlebot"));
    assert_null(strstr(t, "PlainBot"));
    assert_null(strstr(t, "TestTool"));
    free(t);
    free(s);

    /* a verified crawler: no fail2ban (its jails never ban one) */
    f.stats[0].counters[RA_CNT_VIOLATION] = 1;
    s = render(&f, RA_REPORT_HTML, &o);
    t = part(s, "<h4>what you can do</h4>", "</ul>");
    assert_non_null(strstr(t, "<li><strong>Googlebot</strong> <span class=\"muted\">"
                              "(verified)</span>: refuse it: nginx <code>"
                              "robots_audit_enforce violation;</code>, "
                              "Apache <code>RobotsAuditEnforce violation"
                              "</code> &middot; tell it in robots.txt: "
                              "<code>User-agent: Googlebot<br>Disallow: /"
                              "</code> &middot; its operator: <a href=\""
                              "https://developers.google.com/"));
    free(t);
    free(s);
    ra_test_arena_free(f.ar);
}

static void
test_tools(void **state)
{
    fix_t             f;
    ra_report_opts_t  o;
    char             *s, *t;

    (void) state;
    fix(&f);
    opts(&f, &o, 1);
    s = render(&f, RA_REPORT_HTML, &o);
    before(s, "<h3>crawlers</h3>", "<h3>scripts and tools</h3>");
    t = part(s, "<h3>crawlers</h3>", "<h3>scripts and tools</h3>");
    assert_null(strstr(t, "TestTool"));
    free(t);
    t = part(s, "<h3>scripts and tools</h3>", "</ul>");
    assert_non_null(strstr(t, ">TestTool</a></td><td class=\"n bad\">5"
                              "</td>"));
    assert_null(strstr(t, "Googlebot"));
    /* its own line of what to do, the operator's page escaped */
    assert_non_null(strstr(t, "<li><strong>TestTool</strong>"));
    assert_non_null(strstr(t, "<a href=\"https://tools.example/a?b=1&amp;"
                              "c=&lt;2&gt;\" rel=\"noreferrer\">Tool "
                              "&lt;Makers&gt; &amp; &quot;Co&quot;</a></li>"));
    free(t);
    free(s);

    /* no tool: no section */
    f.snap.nstats = 5;
    s = render(&f, RA_REPORT_HTML, &o);
    assert_null(strstr(s, "scripts and tools</h3>"));
    free(s);
    ra_test_arena_free(f.ar);
}

static void
test_unverified_why(void **state)
{
    fix_t               f;
    ra_report_opts_t    o;
    const ra_crawler_t  *c;
    char               *s;

    (void) state;
    fix(&f);
    /* where verifiability is decided */
    c = ra_crawlers_find(f.table, ra_str("bingbot", 7));
    assert_non_null(c);
    assert_int_equal(ra_verify_means(f.ranges, c, 0),
                     RA_VERIFY_MEANS_MISSING);
    assert_int_equal(ra_verify_means(f.ranges, c, 1), RA_VERIFY_MEANS_HERE);
    assert_int_equal(ra_verify_means(NULL, c, 0), RA_VERIFY_MEANS_MISSING);
    c = ra_crawlers_find(f.table, ra_str("Googlebot", 9));
    assert_int_equal(ra_verify_means(f.ranges, c, 0), RA_VERIFY_MEANS_HERE);
    assert_int_equal(ra_verify_means(NULL, c, 0), RA_VERIFY_MEANS_MISSING);
    c = ra_crawlers_find(f.table, ra_str("PlainBot", 8));
    assert_non_null(c);
    assert_int_equal(ra_verify_means(f.ranges, c, 1), RA_VERIFY_MEANS_NONE);
    assert_int_equal(ra_verify_means(f.ranges, NULL, 1),
                     RA_VERIFY_MEANS_NONE);

    opts(&f, &o, 1);
    s = render(&f, RA_REPORT_HTML, &o);
    /* bingbot publishes ranges and names: not verified here */
    assert_non_null(strstr(s, "<td class=\"x warn\">not verified here <span "
                              "class=\"muted\">(configure <code>bingbot."
                              "json</code> or a resolver)</span></td>"));
    /* YandexBot publishes names only */
    assert_non_null(strstr(s, "not verified here <span class=\"muted\">"
                              "(configure a resolver)</span>"));
    /* PlainBot publishes nothing: unverifiable */
    assert_non_null(strstr(s, ">PlainBot</a></td>"));
    assert_non_null(strstr(s, "<td class=\"x muted\">unverifiable</td>"));
    /* the legend tells the two apart */
    assert_non_null(strstr(s, "<dt class=\"warn\">not verified here</dt>"));
    assert_non_null(strstr(s, "configure ranges/resolver"));
    assert_non_null(strstr(s, "<dt>unverifiable</dt><dd>its operator "
                              "publishes no method"));
    free(s);

    /* with a resolver, an unverifiable bingbot waited for its lookup */
    o.resolver = 1;
    s = render(&f, RA_REPORT_HTML, &o);
    assert_null(strstr(s, "(configure <code>bingbot.json</code>"));
    assert_non_null(strstr(s, "unverifiable (lookup pending or failed)"));
    free(s);
    ra_test_arena_free(f.ar);
}

/* ---- the status page: its default order, and 404 ------------------------ */

typedef struct {
    void         *region;
    ra_ledger_t   l;
} led_t;

static void
led(led_t *d)
{
    static const char  *who[] = { "Googlebot", "bingbot", "somebot" };
    static const unsigned  kinds[] = { RA_UA_KNOWN, RA_UA_KNOWN,
                                       RA_UA_GENERIC };
    static const unsigned  vios[] = { 0, 3, 1 };
    size_t              size = 256 * 1024;
    ra_lock_t           nolock = { NULL, NULL, NULL };
    ra_stat_key_t       key;
    ra_violation_t      v;
    uint32_t            site, st;
    unsigned            k, j;

    d->region = test_malloc(size);
    assert_int_equal(ra_ledger_format(d->region, size, T0), RA_OK);
    ra_ledger_open(&d->l, d->region, &nolock);
    ra_ledger_lock(&d->l);
    site = ra_ledger_site_locked(&d->l, ra_str("a.example", 9), T0);
    for (k = 0; k < 3; k++) {
        memset(&key, 0, sizeof(key));
        key.kind = kinds[k];
        key.name = ra_str(who[k], strlen(who[k]));
        key.category = k == 2 ? RA_CAT_MAX : RA_CAT_SEARCH;
        st = ra_ledger_stat_locked(&d->l, site, &key, T0);
        for (j = 0; j < 10 - k * 3; j++) {
            ra_ledger_count_locked(&d->l, site, st, RA_CNT_REQUESTS);
        }
        for (j = 0; j < vios[k]; j++) {
            ra_ledger_count_locked(&d->l, site, st, RA_CNT_VIOLATION);
            memset(&v, 0, sizeof(v));
            v.time = T0 + j;
            v.verdict = RA_VERDICT_VIOLATION;
            v.name_len = (uint8_t) strlen(who[k]);
            memcpy(v.name, who[k], v.name_len);
            v.uri_len = 2;
            memcpy(v.uri, "/p", 2);
            v.uri_full_len = 2;
            ra_ledger_violation_locked(&d->l, site, &v);
        }
    }
    ra_ledger_unlock(&d->l);
}

static int
page(led_t *d, const ra_crawlers_t *table, const char *query,
    ra_status_page_t *p)
{
    ra_status_src_t  src;

    memset(&src, 0, sizeof(src));
    src.ledger = &d->l;
    src.crawlers = table;
    (void) ra_status_page_src(&src, ra_str("GET", 3),
                              ra_str(query, strlen(query)), T0,
                              &ra_malloc_allocator, p);
    return p->status;
}

static int
body_has(const ra_status_page_t *p, const char *needle)
{
    size_t  k = strlen(needle), i;

    for (i = 0; i + k <= p->body.len; i++) {
        if (memcmp(p->body.data + i, needle, k) == 0) {
            return (int) i + 1;
        }
    }
    return 0;
}

static void
test_status_page(void **state)
{
    led_t              d;
    ra_status_page_t   p;
    ra_crawlers_err_t  err;
    ra_test_arena_t   *ar = ra_test_arena_new();
    ra_crawlers_t     *t = ra_crawlers_create(ra_test_arena_alloc(ar));
    unsigned           i;
    static const char *fmts[] = { "", "format=json&", "format=csv&",
                                  "format=text&", "format=prometheus&" };
    char               q[128];

    (void) state;
    assert_int_equal(ra_crawlers_add_builtin(t, &err), RA_OK);
    assert_int_equal(ra_crawlers_compile(t, &err), RA_OK);
    led(&d);

    /* most violations first by default, in JSON as in HTML */
    assert_int_equal(page(&d, t, "format=json", &p), 200);
    assert_true(body_has(&p, "\"crawler\":\"bingbot\"")
                < body_has(&p, "\"crawler\":\"somebot\""));
    assert_true(body_has(&p, "\"crawler\":\"somebot\"")
                < body_has(&p, "\"crawler\":\"Googlebot\""));
    ra_status_page_free(&p);
    assert_int_equal(page(&d, t, "format=json&sort=violations", &p), 200);
    assert_true(body_has(&p, "\"crawler\":\"bingbot\"")
                < body_has(&p, "\"crawler\":\"Googlebot\""));
    ra_status_page_free(&p);
    assert_int_equal(page(&d, t, "format=json&sort=name", &p), 200);
    assert_true(body_has(&p, "\"crawler\":\"Googlebot\"")
                < body_has(&p, "\"crawler\":\"bingbot\""));
    ra_status_page_free(&p);
    assert_int_equal(page(&d, t, "", &p), 200);
    assert_true(body_has(&p, "2 crawlers ignore robots.txt"));
    ra_status_page_free(&p);

    /* every format: a site or crawler of no name known is 404 */
    for (i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
        snprintf(q, sizeof(q), "%ssite=nowhere.example", fmts[i]);
        assert_int_equal(page(&d, t, q, &p), 404);
        assert_true(body_has(&p, "no site of that name"));
        assert_string_equal(p.cache_control, "no-store");
        ra_status_page_free(&p);
        snprintf(q, sizeof(q), "%ssite=A.Example", fmts[i]);
        assert_int_equal(page(&d, t, q, &p), 200);
        ra_status_page_free(&p);
        snprintf(q, sizeof(q), "%scrawler=NoSuchBot", fmts[i]);
        assert_int_equal(page(&d, t, q, &p), 404);
        assert_true(body_has(&p, "no crawler of that name"));
        ra_status_page_free(&p);
        snprintf(q, sizeof(q), "%scrawler=somebot", fmts[i]);
        assert_int_equal(page(&d, t, q, &p), 200);
        ra_status_page_free(&p);
    }
    /* a crawler of the table that never came: known, an empty page */
    assert_int_equal(page(&d, t, "crawler=YandexBot", &p), 200);
    ra_status_page_free(&p);
    /* ... without a table, nothing names it */
    assert_int_equal(page(&d, NULL, "crawler=YandexBot", &p), 404);
    ra_status_page_free(&p);
    /* both known, but not together: an empty page */
    assert_int_equal(page(&d, t, "site=a.example&crawler=YandexBot", &p),
                     200);
    ra_status_page_free(&p);
    assert_int_equal(page(&d, t, "site=b.example&crawler=bingbot", &p), 404);
    ra_status_page_free(&p);

    test_free(d.region);
    ra_test_arena_free(ar);
}

int
main(void)
{
    const struct CMUnitTest  tests[] = {
        cmocka_unit_test(test_order),
        cmocka_unit_test(test_badge),
        cmocka_unit_test(test_columns),
        cmocka_unit_test(test_todo),
        cmocka_unit_test(test_tools),
        cmocka_unit_test(test_unverified_why),
        cmocka_unit_test(test_status_page),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
