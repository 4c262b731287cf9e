/* SPDX-License-Identifier: BSD-2-Clause */
/* Alert lines: stable tag, every hostile byte escaped, valid JSON. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ra_test.h"
#include "ra_alert.h"
#include "ra_verify.h"
#include "ra_json.h"

static void
fill(ra_request_t *r, ra_verdict_t *v)
{
    memset(r, 0, sizeof(*r));
    memset(v, 0, sizeof(*v));
    r->site = (ra_str_t) ra_string("example.com");
    r->time = 1700000000123LL;
    r->addr = (ra_str_t) ra_string("66.249.66.1");
    r->method = (ra_str_t) ra_string("GET");
    r->uri = (ra_str_t) ra_string("/x\r\n2026 [RA100] forged\x1b[31m"
                                  "\"<script>");
    v->verdict = RA_VERDICT_VIOLATION;
    v->verification = RA_VERIFY_VERIFIED;
    v->name = (ra_str_t) ra_string("Googlebot");
    memcpy(v->token, "Googlebot", 9);
    v->token_len = 9;
    v->line = 3;
    v->rule_type = RA_RULE_DISALLOW;
    memcpy(v->pattern, "/x", 2);
    v->pattern_len = 2;
    v->suppressed = 4;
    v->alert = 1;
}

static void
alert_text_escapes_and_tags(void **state)
{
    ra_request_t  r;
    ra_verdict_t  v;
    ra_buf_t      b;
    size_t        i;

    (void) state;
    fill(&r, &v);
    ra_buf_init(&b, &ra_malloc_allocator, 0, 0);
    ra_alert_text(&b, &r, &v);
    ra_buf_ch(&b, '\0');
    assert_non_null(strstr((char *) b.data,
        "robots-audit: [RA100] violation site=\"example.com\" "
        "crawler=\"Googlebot\" verification=verified client=66.249.66.1 "
        "method=GET uri=\"/x\\x0d\\x0a2026 [RA100] forged\\x1b[31m%22"
        "<script>\" rule=\"disallow: /x\" line=3 suppressed=4"));
    for (i = 0; i + 1 < b.len; i++) {
        assert_true(b.data[i] >= 0x20 && b.data[i] < 0x7f);
    }
    v.verdict = RA_VERDICT_UNREACHABLE;
    v.line = 0;
    b.len = 0;
    ra_alert_text(&b, &r, &v);
    ra_buf_ch(&b, '\0');
    assert_non_null(strstr((char *) b.data, "[RA101] unreachable"));
    assert_non_null(strstr((char *) b.data, "rule=- line=0"));
    v.verdict = RA_VERDICT_COMPLIANT;
    assert_null(ra_alert_tag(&v));
    ra_buf_release(&b);
}

static int
ignore(void *ctx, unsigned event, ra_str_t raw, unsigned depth)
{
    (void) ctx; (void) event; (void) raw; (void) depth;
    return 0;
}

static void
alert_json_is_one_valid_line(void **state)
{
    ra_request_t  r;
    ra_verdict_t  v;
    ra_buf_t      b;

    (void) state;
    fill(&r, &v);
    ra_buf_init(&b, &ra_malloc_allocator, 0, 0);
    ra_alert_json(&b, &r, &v);
    assert_true(b.len > 0 && b.data[b.len - 1] == '\n');
    assert_null(memchr(b.data, '\n', b.len - 1));
    assert_int_equal(ra_json_parse(ra_str(b.data, b.len - 1), ignore, NULL,
                                   NULL), RA_OK);
    ra_buf_ch(&b, '\0');
    assert_non_null(strstr((char *) b.data,
                           "\"time\":\"2023-11-14T22:13:20.123Z\""));
    assert_non_null(strstr((char *) b.data, "\"rule\":\"disallow: /x\""));
    assert_null(strstr((char *) b.data, "<script>"));
    ra_buf_release(&b);
}

/* an impostor's judged request: RA102, whatever the verdict, which the
 * line still names; a robots.txt fetch or an unjudged request: no tag */
static void
alert_impostor_is_ra102(void **state)
{
    static const ra_verdict_e  judged[] = {
        RA_VERDICT_COMPLIANT, RA_VERDICT_VIOLATION, RA_VERDICT_STALE,
        RA_VERDICT_UNREACHABLE, RA_VERDICT_EXEMPT, RA_VERDICT_UNKNOWN
    };
    ra_request_t  r;
    ra_verdict_t  v;
    ra_buf_t      b;
    size_t        i;
    char          want[64];

    (void) state;
    fill(&r, &v);
    v.verification = RA_VERIFY_IMPOSTOR;
    ra_buf_init(&b, &ra_malloc_allocator, 0, 0);
    for (i = 0; i < sizeof(judged) / sizeof(judged[0]); i++) {
        v.verdict = judged[i];
        assert_string_equal(ra_alert_tag(&v), RA_TAG_IMPOSTOR);
        b.len = 0;
        ra_alert_text(&b, &r, &v);
        ra_buf_ch(&b, '\0');
        snprintf(want, sizeof(want), "robots-audit: [RA102] %s site=",
                 ra_verdict_name(judged[i]));
        assert_int_equal(strncmp((char *) b.data, want, strlen(want)), 0);
        assert_non_null(strstr((char *) b.data, " crawler=\"Googlebot\" "
                               "verification=impostor client=66.249.66.1 "));
        b.len = 0;
        ra_alert_json(&b, &r, &v);
        ra_buf_ch(&b, '\0');
        snprintf(want, sizeof(want), "\"tag\":\"RA102\",\"verdict\":\"%s\"",
                 ra_verdict_name(judged[i]));
        assert_non_null(strstr((char *) b.data, want));
        assert_non_null(strstr((char *) b.data,
                               "\"verification\":\"impostor\","
                               "\"client\":\"66.249.66.1\""));
    }
    v.verdict = RA_VERDICT_FETCH;
    assert_null(ra_alert_tag(&v));
    v.verdict = RA_VERDICT_NONE;
    assert_null(ra_alert_tag(&v));
    ra_buf_release(&b);
}

/* a long URI is cut in both forms, and the lines stay small */
static void
alert_long_uri_is_cut(void **state)
{
    ra_request_t  r;
    ra_verdict_t  v;
    ra_buf_t      b;
    char          uri[65536];

    (void) state;
    fill(&r, &v);
    memset(uri, '\x01', sizeof(uri));         /* escapes to 4 bytes each */
    uri[0] = '/';
    r.uri = ra_str(uri, sizeof(uri));
    ra_buf_init(&b, &ra_malloc_allocator, 0, 0);
    v.name = ra_str(uri, RA_NAME_MAX);          /* worst case everywhere */
    memcpy(v.pattern, uri, RA_PATTERN_MAX);
    v.pattern_len = RA_PATTERN_MAX;
    memcpy(v.token, uri, RA_NAME_MAX);
    v.token_len = RA_NAME_MAX;
    ra_alert_text(&b, &r, &v);
    assert_true(b.len < 4096);
    ra_buf_ch(&b, '\0');
    assert_non_null(strstr((char *) b.data, "uri_bytes=65536 rule="));
    b.len = 0;
    ra_alert_json(&b, &r, &v);
    assert_true(b.len <= 4096);
    assert_int_equal(ra_json_parse(ra_str(b.data, b.len - 1), ignore, NULL,
                                   NULL), RA_OK);
    ra_buf_ch(&b, '\0');
    assert_non_null(strstr((char *) b.data, ",\"uri_bytes\":65536,"));
    ra_buf_release(&b);
}


/* A host that keeps the last line it is given. */
typedef struct {
    ra_host_t   host;
    char        line[RA_HOST_LINE_MAX + 1];
    size_t      len;
    int         level;
    void       *where;
    int         n;
} cap_host_t;

static void
cap_log(const ra_host_t *h, void *where, ra_log_level_e level, ra_str_t line)
{
    cap_host_t  *c = h->ctx;

    memcpy(c->line, line.data, line.len);
    c->line[line.len] = '\0';
    c->len = line.len;
    c->level = (int) level;
    c->where = where;
    c->n++;
}

/* the line through the host is the line ra_alert_text() writes */
static void
alert_emit_through_host(void **state)
{
    ra_request_t  r;
    ra_verdict_t  v;
    ra_buf_t      text, json, want;
    cap_host_t    cap;
    int           where;

    (void) state;
    fill(&r, &v);
    r.where = &where;
    memset(&cap, 0, sizeof(cap));
    cap.host.ctx = &cap;
    cap.host.log = cap_log;
    cap.host.heap = ra_malloc_allocator;

    ra_buf_init(&text, &ra_malloc_allocator, 0, 0);
    ra_buf_init(&json, &ra_malloc_allocator, 0, 0);
    ra_buf_init(&want, &ra_malloc_allocator, 0, 0);
    ra_alert_text(&text, &r, &v);
    ra_alert_json(&want, &r, &v);
    ra_buf_cstr(&json, "[before]");

    ra_alert_emit(&cap.host, &r, &v, &json);
    assert_int_equal(cap.n, 1);
    assert_int_equal(cap.level, RA_LOG_WARN);
    assert_ptr_equal(cap.where, &where);
    assert_int_equal(cap.len, text.len);
    assert_memory_equal(cap.line, text.data, text.len);
    assert_int_equal(strncmp(cap.line, "robots-audit: [RA100] violation ",
                             32), 0);
    /* the JSON object is appended, as ra_alert_json() writes it */
    assert_int_equal(json.len, 8 + want.len);
    assert_memory_equal(json.data + 8, want.data, want.len);

    /* unreachable: its own tag; no JSON asked for; no host at all */
    v.verdict = RA_VERDICT_UNREACHABLE;
    ra_alert_emit(&cap.host, &r, &v, NULL);
    assert_int_equal(cap.n, 2);
    assert_int_equal(strncmp(cap.line, "robots-audit: [RA101] unreachable ",
                             34), 0);
    json.len = 0;
    ra_alert_emit(NULL, &r, &v, &json);
    assert_int_equal(cap.n, 2);
    assert_true(json.len > 0);
    ra_buf_release(&text);
    ra_buf_release(&json);
    ra_buf_release(&want);
}

/* a 5,000-byte method is cut: the rest of the line survives */
static void
alert_method_is_cut(void **state)
{
    ra_request_t  r;
    ra_verdict_t  v;
    ra_buf_t      b;
    cap_host_t    cap;
    char          method[5000];
    char          want[RA_ALERT_METHOD_MAX + 16];

    (void) state;
    fill(&r, &v);
    memset(method, 'M', sizeof(method));
    r.method = ra_str(method, sizeof(method));
    memset(&cap, 0, sizeof(cap));
    cap.host.ctx = &cap;
    cap.host.log = cap_log;
    cap.host.heap = ra_malloc_allocator;

    ra_alert_emit(&cap.host, &r, &v, NULL);
    assert_int_equal(cap.n, 1);
    snprintf(want, sizeof(want), " method=%.*s uri=", RA_ALERT_METHOD_MAX,
             method);
    assert_non_null(strstr(cap.line, want));
    assert_non_null(strstr(cap.line, " line=3 suppressed=4"));
    assert_true(cap.len < 1024);

    ra_buf_init(&b, &ra_malloc_allocator, 0, 0);
    ra_alert_json(&b, &r, &v);
    ra_buf_ch(&b, '\0');
    snprintf(want, sizeof(want), "\"method\":\"%.*s\",",
             RA_ALERT_METHOD_MAX, method);
    assert_non_null(strstr((char *) b.data, want));
    ra_buf_release(&b);
}

/* A host whose log escapes (Apache's error log) gets the bytes it escapes
 * raw: after its own escaping, the line reads as the core wrote it for
 * nginx; quotes and backslashes carry no backslash in either */
static void
alert_host_that_escapes(void **state)
{
    ra_request_t   r;
    ra_verdict_t   v;
    cap_host_t     cap;
    unsigned char  t[] = "a\\x22\\x1b\\x0d\\x00\\xe2\\x80\\xae\\x41\\x7\\xZZ\\x7f";

    (void) state;
    assert_int_equal(ra_log_unescape(t, sizeof(t) - 1), 26);
    assert_memory_equal(t, "a\\x22\x1b\r\\x00\xe2\x80\xae\\x41\\x7\\xZZ"
                        "\x7f", 26);
    /* no backslash: as it is; bytes before the first one stay put */
    memcpy(t, "plain text, no escape", 21);
    assert_int_equal(ra_log_unescape(t, 21), 21);
    assert_memory_equal(t, "plain text, no escape", 21);
    memcpy(t, "uri=/x\\x01y\\", 12);
    assert_int_equal(ra_log_unescape(t, 12), 9);
    assert_memory_equal(t, "uri=/x\x01y\\", 9);

    fill(&r, &v);
    r.uri = (ra_str_t) ra_string("/\"q\"\\b\x1b\xff");
    memset(&cap, 0, sizeof(cap));
    cap.host.ctx = &cap;
    cap.host.log = cap_log;
    cap.host.heap = ra_malloc_allocator;
    ra_alert_emit(&cap.host, &r, &v, NULL);
    assert_non_null(strstr(cap.line, " uri=\"/%22q%22%5cb\\x1b\\xff\" "));
    cap.host.log_escapes = 1;
    ra_alert_emit(&cap.host, &r, &v, NULL);
    assert_non_null(strstr(cap.line, " uri=\"/%22q%22%5cb\x1b\xff\" "));
}

/* a line longer than a host takes: cut where ra_logf() cuts it (the
 * first RA_HOST_LINE_MAX - 1 bytes of ra_alert_text()'s), then a host's
 * own escapes undone; numbers and refused as ra_alert_text() writes them */
static void
alert_emit_cut_as_logf(void **state)
{
    ra_request_t   r;
    ra_verdict_t   v;
    ra_buf_t       text;
    cap_host_t     cap;
    unsigned char  site[700], want[RA_HOST_LINE_MAX];
    size_t         n;
    int            esc;

    (void) state;
    fill(&r, &v);
    memset(site, 0xe9, sizeof(site));
    r.site = ra_str(site, sizeof(site));
    v.refused = RA_REFUSE_VIOLATION;
    v.line = 4294967295u;
    v.suppressed = 0;
    memset(&cap, 0, sizeof(cap));
    cap.host.ctx = &cap;
    cap.host.log = cap_log;
    cap.host.heap = ra_malloc_allocator;
    ra_buf_init(&text, &ra_malloc_allocator, 0, 0);
    ra_alert_text(&text, &r, &v);
    assert_true(text.len > RA_HOST_LINE_MAX);
    for (esc = 0; esc < 2; esc++) {
        cap.host.log_escapes = (unsigned) esc;
        ra_alert_emit(&cap.host, &r, &v, NULL);
        n = RA_HOST_LINE_MAX - 1;
        memcpy(want, text.data, n);
        if (esc) {
            n = ra_log_unescape(want, n);
        }
        assert_int_equal(cap.len, n);
        assert_memory_equal(cap.line, want, n);
    }

    /* short: the whole line, its numbers in decimal */
    r.site = (ra_str_t) ra_string("example.com");
    r.uri.len = 70000;
    r.uri.data = (const unsigned char *) calloc(1, r.uri.len);
    assert_non_null(r.uri.data);
    text.len = 0;
    ra_alert_text(&text, &r, &v);
    cap.host.log_escapes = 0;
    ra_alert_emit(&cap.host, &r, &v, NULL);
    assert_int_equal(cap.len, text.len);
    assert_memory_equal(cap.line, text.data, text.len);
    assert_non_null(strstr(cap.line, " uri_bytes=70000 rule=\"disallow: /x\""
                           " line=4294967295 suppressed=0 refused=true "
                           "verified_by=none"));
    free((void *) r.uri.data);
    ra_buf_release(&text);
}

/* ---- budgets, on a fake clock ------------------------------------------ */

#define T0  1700000000000LL

/* a bucket of N a minute: N at once, then one every 60000/N ms; a minute
 * refills it all; a clock that goes back refills nothing */
static void
bucket_arithmetic(void **state)
{
    ra_bucket_t  b;
    int          i;

    (void) state;
    memset(&b, 0, sizeof(b));
    for (i = 0; i < 60; i++) {
        assert_true(ra_bucket_take(&b, 60, T0));
    }
    assert_false(ra_bucket_take(&b, 60, T0));
    assert_false(ra_bucket_take(&b, 60, T0 + 999));
    assert_true(ra_bucket_take(&b, 60, T0 + 1000));
    assert_false(ra_bucket_take(&b, 60, T0 + 1000));
    /* back in time: nothing refilled, and the clock is taken as it is */
    assert_false(ra_bucket_take(&b, 60, T0 - 5000));
    assert_false(ra_bucket_take(&b, 60, T0 - 4001));
    assert_true(ra_bucket_take(&b, 60, T0 - 4000));
    /* a long gap fills it, never more (no overflow) */
    for (i = 0; i < 60; i++) {
        assert_true(ra_bucket_take(&b, 60, INT64_MAX / 2));
    }
    assert_false(ra_bucket_take(&b, 60, INT64_MAX / 2));
    assert_true(ra_bucket_has(&b, 60, INT64_MAX / 2 + 1000));
    assert_true(ra_bucket_has(&b, 60, INT64_MAX / 2 + 1000));  /* takes 0 */
    /* off: no limit, bucket untouched */
    for (i = 0; i < 1000; i++) {
        assert_true(ra_bucket_take(&b, RA_ALERT_BUDGET_OFF, T0));
    }
    /* a lowered limit (a reload): the bucket starts full of the new one */
    assert_true(ra_bucket_take(&b, 1, INT64_MAX / 2 + 2000));
    assert_false(ra_bucket_take(&b, 1, INT64_MAX / 2 + 2000));
    /* 300 a minute: one every 200 ms */
    memset(&b, 0, sizeof(b));
    for (i = 0; i < 300; i++) {
        assert_true(ra_bucket_take(&b, 300, T0));
    }
    assert_false(ra_bucket_take(&b, 300, T0 + 199));
    assert_true(ra_bucket_take(&b, 300, T0 + 200));
}

/* anyone's alerts (not verified) use at most half of each bucket; the
 * rest is the verified crawlers', whose names the summary keeps (the
 * first RA_ALERT_HELD_NAMES, each once, the others counted) */
static void
budget_reserve_for_verified(void **state)
{
    ra_budget_t        all;
    ra_bucket_t        site, open;
    uint32_t           sm = 0, c[6] = { 0 };
    ra_alert_state_t   s;
    ra_alert_summary_t out;
    ra_alert_budget_t  lim = { 4, 100 };
    static const char *names[] = { "Googlebot", "bingbot", "Applebot",
                                   "DuckDuckBot", "YandexBot" };
    unsigned           i;

    (void) state;
    memset(&all, 0, sizeof(all));
    memset(&site, 0, sizeof(site));
    memset(&open, 0, sizeof(open));
    memset(&s, 0, sizeof(s));
    s.all = &all;
    s.site = &site;
    s.site_open = &open;
    s.site_mark = &sm;
    s.crawler_mark = &c[5];

    /* anyone's: two of four, then held */
    assert_true(ra_alert_budget_take(&s, &lim, T0));
    assert_true(ra_alert_budget_take(&s, &lim, T0));
    assert_false(ra_alert_budget_take(&s, &lim, T0));
    assert_int_equal(all.verified, 0);
    /* verified: the two left */
    s.verified = 1;
    s.name = ra_str(names[0], strlen(names[0]));
    s.crawler_mark = &c[0];
    assert_true(ra_alert_budget_take(&s, &lim, T0));
    assert_true(ra_alert_budget_take(&s, &lim, T0));
    assert_false(ra_alert_budget_take(&s, &lim, T0));
    assert_false(ra_alert_budget_take(&s, &lim, T0));   /* counted once */
    for (i = 1; i < 5; i++) {
        s.name = ra_str(names[i], strlen(names[i]));
        s.crawler_mark = &c[i];
        assert_false(ra_alert_budget_take(&s, &lim, T0 + i));
    }
    assert_int_equal(all.verified, 5);
    /* a minute: anyone's share refilled to half, not more */
    s.verified = 0;
    s.crawler_mark = &c[5];
    assert_true(ra_alert_budget_take(&s, &lim, T0 + 60000));
    assert_true(ra_alert_budget_take(&s, &lim, T0 + 60000));
    assert_false(ra_alert_budget_take(&s, &lim, T0 + 60000));
    s.verified = 1;
    s.crawler_mark = &c[0];
    assert_true(ra_alert_budget_take(&s, &lim, T0 + 60000));

    assert_true(ra_alert_budget_due(&all, T0 + 60000, 1000, &out));
    assert_int_equal(out.verified, 5);
    assert_int_equal(out.nheld, RA_ALERT_HELD_NAMES);
    for (i = 0; i < RA_ALERT_HELD_NAMES; i++) {
        assert_int_equal(out.held_len[i], strlen(names[i]));
        assert_memory_equal(out.held[i], names[i], strlen(names[i]));
    }
    assert_int_equal(all.verified, 0);

    /* a limit of 1: anyone's share is that line (at least one) */
    lim.site = 1;
    memset(&site, 0, sizeof(site));
    memset(&open, 0, sizeof(open));
    s.verified = 0;
    assert_true(ra_alert_budget_take(&s, &lim, T0 + 120000));
    /* no limit: no share either */
    lim.site = RA_ALERT_BUDGET_OFF;
    lim.total = RA_ALERT_BUDGET_OFF;
    for (i = 0; i < 100; i++) {
        assert_true(ra_alert_budget_take(&s, &lim, T0 + 120000));
    }
}

/* the summary's verified names: text and JSON, escaped, "and N more" */
static void
budget_summary_names(void **state)
{
    ra_verdict_t   v;
    ra_request_t   r;
    ra_buf_t       b;

    (void) state;
    memset(&v, 0, sizeof(v));
    memset(&r, 0, sizeof(r));
    r.time = 1700000000123LL;
    v.summary = 1;
    v.budget.since = 1700000000000LL;
    v.budget.suppressed = 9;
    v.budget.crawlers = 6;
    v.budget.sites = 1;
    v.budget.budget.site = 60;
    v.budget.budget.total = 300;
    v.budget.verified = 5;
    v.budget.nheld = 3;
    memcpy(v.budget.held[0], "Googlebot", 9);
    v.budget.held_len[0] = 9;
    memcpy(v.budget.held[1], "bing\"bot", 8);
    v.budget.held_len[1] = 8;
    memcpy(v.budget.held[2], "Apple\nbot", 9);
    v.budget.held_len[2] = 9;
    ra_buf_init(&b, &ra_malloc_allocator, 0, 0);
    ra_alert_summary_text(&b, &v);
    ra_buf_ch(&b, '\0');
    assert_string_equal((char *) b.data, "alert budget spent: suppressed=9 "
                        "crawlers=6 sites=1 since=2023-11-14T22:13:20.000Z "
                        "per_site=60 total=300 verified=5 verified_names="
                        "\"Googlebot,bing%22bot,Apple\\x0abot\" "
                        "verified_more=2");
    b.len = 0;
    ra_alert_summary_json(&b, &r, &v);
    ra_buf_ch(&b, '\0');
    assert_non_null(strstr((char *) b.data, ",\"verified\":5,"
                           "\"verified_names\":[\"Googlebot\",\"bing\\\"bot\","
                           "\"Apple\\nbot\"],\"verified_more\":2,"
                           "\"top_clients\":[]}\n"));
    ra_buf_release(&b);
}

static void
budget_take_and_summary(void **state)
{
    ra_budget_t        all;
    ra_bucket_t        site1, site2;
    uint32_t           m1 = 0, m2 = 0, c1 = 0, c2 = 0, c3 = 0;
    ra_alert_state_t   s1, s2;
    ra_alert_summary_t out;
    ra_alert_budget_t  lim = { 2, 3 };

    (void) state;
    memset(&all, 0, sizeof(all));
    memset(&site1, 0, sizeof(site1));
    memset(&site2, 0, sizeof(site2));
    memset(&s1, 0, sizeof(s1));
    s1.all = &all;
    s1.site = &site1;
    s1.site_mark = &m1;
    s1.verified = 1;                /* the whole buckets */
    s2 = s1;
    s2.site = &site2;
    s2.site_mark = &m2;

    s1.crawler_mark = &c1;
    assert_true(ra_alert_budget_take(&s1, &lim, T0));
    assert_true(ra_alert_budget_take(&s1, &lim, T0));
    assert_false(ra_alert_budget_take(&s1, &lim, T0 + 1));   /* site 1 */
    assert_false(ra_alert_budget_take(&s1, &lim, T0 + 2));   /* same one */
    s2.crawler_mark = &c2;
    assert_true(ra_alert_budget_take(&s2, &lim, T0 + 3));
    assert_false(ra_alert_budget_take(&s2, &lim, T0 + 4));   /* all */
    s2.crawler_mark = &c3;
    assert_false(ra_alert_budget_take(&s2, &lim, T0 + 5));
    assert_int_equal(all.suppressed, 4);
    assert_int_equal(all.crawlers, 3);
    assert_int_equal(all.sites, 2);

    /* due once an interval (at least a second) after the first held */
    assert_false(ra_alert_budget_due(&all, T0 + 1000, 500, &out));
    assert_true(ra_alert_budget_due(&all, T0 + 1001, 500, &out));
    assert_int_equal(out.suppressed, 4);
    assert_int_equal(out.crawlers, 3);
    assert_int_equal(out.sites, 2);
    assert_int_equal(out.since, T0 + 1);
    assert_false(ra_alert_budget_due(&all, T0 + 99999, 500, &out));

    /* a new window: the same crawler and site count again */
    s1.crawler_mark = &c1;
    assert_false(ra_alert_budget_take(&s1, &lim, T0 + 1002));
    assert_int_equal(all.crawlers, 1);
    assert_int_equal(all.sites, 1);
    assert_false(ra_alert_budget_due(&all, T0 + 60000, 60000, &out));
    /* a request that came before the window's first line held back (a
     * server judges a slow one late) is not the one due: no summary
     * whose time is before its since */
    assert_false(ra_alert_budget_due(&all, T0, 60000, &out));
    assert_int_equal(all.since, T0 + 1002);
    /* a clock set far back begins the window anew, due an interval on */
    assert_false(ra_alert_budget_due(&all, T0 + 1002 - RA_ALERT_CLOCK_BACK_MS
                                     - 1, 60000, &out));
    assert_int_equal(all.since, T0 + 1002 - RA_ALERT_CLOCK_BACK_MS - 1);
    assert_true(ra_alert_budget_due(&all, T0 + 1002 - RA_ALERT_CLOCK_BACK_MS
                                    + 59999, 60000, &out));
    assert_int_equal(out.suppressed, 1);

    /* off: nothing held */
    lim.site = RA_ALERT_BUDGET_OFF;
    lim.total = RA_ALERT_BUDGET_OFF;
    assert_true(ra_alert_budget_take(&s1, &lim, T0 + 2000));
    assert_int_equal(all.suppressed, 0);
}

static void
gate_per_block(void **state)
{
    ra_gate_t   gates[RA_GENERIC_GATES], *g, *g2;
    uint32_t    sup;
    uint64_t    a = ra_alert_block(ra_str("192.0.2.1", 9)), other;
    unsigned    i;

    (void) state;
    memset(gates, 0, sizeof(gates));
    assert_true(ra_alert_gate(gates, a, T0, 60000, &sup, &g));
    assert_int_equal(sup, 0);
    assert_false(ra_alert_gate(gates, a, T0 + 1, 60000, &sup, &g2));
    assert_ptr_equal(g, g2);
    assert_false(ra_alert_gate(gates, a, T0 + 59999, 60000, &sup, &g));
    assert_true(ra_alert_gate(gates, a, T0 + 60000, 60000, &sup, &g));
    assert_int_equal(sup, 2);
    assert_true(ra_alert_gate(gates, a, T0 + 60001, 0, &sup, &g));
    /* a key that takes the slot starts afresh, and so does the first one
     * when it comes back */
    for (i = 0, other = a + 1; ; other++, i++) {
        assert_true(i < 100000);
        if ((other ^ (other >> 29)) % RA_GENERIC_GATES
            == (a ^ (a >> 29)) % RA_GENERIC_GATES)
        {
            break;
        }
    }
    assert_true(ra_alert_gate(gates, other, T0 + 60002, 60000, &sup, &g2));
    assert_ptr_equal(g, g2);
    assert_true(ra_alert_gate(gates, a, T0 + 60003, 60000, &sup, &g));
    assert_int_equal(sup, 0);
}

static void
block_of_address(void **state)
{
#define BLK(s)  ra_alert_block(ra_str(s, sizeof(s) - 1))
    (void) state;
    assert_true(BLK("192.0.2.1") == BLK("192.0.2.254"));
    assert_true(BLK("192.0.2.1") == BLK("::ffff:192.0.2.9"));
    assert_true(BLK("192.0.2.1") != BLK("192.0.3.1"));
    assert_true(BLK("10.0.2.1") != BLK("192.0.2.1"));
    assert_true(BLK("2001:db8:1::1") == BLK("2001:db8:1:ffff::2"));
    assert_true(BLK("2001:db8:1::1") != BLK("2001:db8:2::1"));
    /* an IPv6 block whose first bytes spell an IPv4 one is another */
    assert_true(BLK("c000:200::") != BLK("192.0.2.1"));
    assert_true(BLK("not an address") != BLK("not an addresz"));
    assert_true(BLK("") != 0);
#undef BLK
}

static void
budget_parse(void **state)
{
    ra_alert_budget_t  b = { 7, 7 };

#define P(x, y)  ra_alert_budget_parse(ra_str(x, sizeof(x) - 1), \
                                       ra_str(y, sizeof(y) - 1), &b)
    (void) state;
    assert_null(P("60", "300"));
    assert_int_equal(b.site, 60);
    assert_int_equal(b.total, 300);
    assert_null(P("off", "OFF"));
    assert_int_equal(b.site, RA_ALERT_BUDGET_OFF);
    assert_int_equal(b.total, RA_ALERT_BUDGET_OFF);
    assert_null(P("1", "1000000"));
    b.site = b.total = 7;
    assert_non_null(P("0", "300"));
    assert_non_null(P("60", "-1"));
    assert_non_null(P("60", "1000001"));
    assert_non_null(P("99999999999", "1"));
    assert_non_null(P("6O", "300"));
    assert_non_null(P("", "300"));
    assert_non_null(P("60", "30 0"));
    assert_int_equal(b.site, 7);               /* untouched on error */
    assert_int_equal(b.total, 7);
#undef P
}

/* the summary: a text line and a JSON object, through the host */
static void
budget_summary_lines(void **state)
{
    ra_request_t  r;
    ra_verdict_t  v;
    ra_buf_t      b;
    cap_host_t    cap;
    char         *j;

    (void) state;
    fill(&r, &v);
    v.alert = 0;
    v.summary = 1;
    v.budget.since = 1700000000000LL;
    v.budget.suppressed = 641000;
    v.budget.crawlers = 12;
    v.budget.sites = 2;
    v.budget.budget.site = 60;
    v.budget.budget.total = RA_ALERT_BUDGET_OFF;
    memset(&cap, 0, sizeof(cap));
    cap.host.ctx = &cap;
    cap.host.log = cap_log;
    cap.host.heap = ra_malloc_allocator;
    ra_buf_init(&b, &ra_malloc_allocator, 0, 0);
    ra_alert_emit(&cap.host, &r, &v, &b);
    assert_int_equal(cap.n, 1);
    assert_string_equal(cap.line, "robots-audit: [RA103] alert budget spent: "
                        "suppressed=641000 crawlers=12 sites=2 "
                        "since=2023-11-14T22:13:20.000Z per_site=60 "
                        "total=off verified=0");
    assert_true(b.len > 0 && b.data[b.len - 1] == '\n');
    assert_int_equal(ra_json_parse(ra_str(b.data, b.len - 1), ignore, NULL,
                                   NULL), RA_OK);
    ra_buf_ch(&b, '\0');
    j = (char *) b.data;
    assert_non_null(strstr(j, "{\"time\":\"2023-11-14T22:13:20.123Z\","
                              "\"tag\":\"RA103\",\"suppressed\":641000,"
                              "\"crawlers\":12,\"sites\":2,"
                              "\"since\":\"2023-11-14T22:13:20.000Z\","
                              "\"per_site\":60,\"total\":null,"
                              "\"verified\":0,\"verified_names\":[],"
                              "\"verified_more\":0,\"top_clients\":[]}"));
    /* both: the alert, then the summary */
    v.alert = 1;
    cap.n = 0;
    b.len = 0;
    ra_alert_emit(&cap.host, &r, &v, &b);
    assert_int_equal(cap.n, 2);
    ra_buf_ch(&b, '\0');
    j = strchr((char *) b.data, '\n');
    assert_non_null(j);
    assert_non_null(strstr((char *) b.data, "\"tag\":\"RA100\""));
    assert_non_null(strstr(j, "\"tag\":\"RA103\""));
    /* neither: nothing */
    v.alert = 0;
    v.summary = 0;
    cap.n = 0;
    b.len = 0;
    ra_alert_emit(&cap.host, &r, &v, &b);
    assert_int_equal(cap.n, 0);
    assert_int_equal(b.len, 0);
    ra_buf_release(&b);
}

/* The purposes that alert: a list in either separator, any case, the
 * former spelling of ai-user; an unknown word refused by name, the set
 * left as it was; no set is every purpose, generic bots included. */
static void
purposes_parse_and_wanted(void **state)
{
    unsigned        set = 0;
    ra_str_t        bad;
    const char     *why;
    ra_crawler_t    curl, gpt, imp;

    (void) state;
    why = ra_alert_purposes_parse(ra_str("search ai-training", 18), &set,
                                  &bad);
    assert_null(why);
    assert_int_equal(set, 1u << RA_CAT_SEARCH | 1u << RA_CAT_AI_TRAINING);
    set = 0;
    assert_null(ra_alert_purposes_parse(
        ra_str(" Search,AI-Training ,, generic\t", 31), &set, &bad));
    assert_int_equal(set, 1u << RA_CAT_SEARCH | 1u << RA_CAT_AI_TRAINING
                          | RA_ALERT_GENERIC);
    /* added to what a first word (nginx's arguments) gave */
    set = 1u << RA_CAT_TOOL;
    assert_null(ra_alert_purposes_parse(ra_str("ai-user-triggered", 17),
                                        &set, &bad));
    assert_int_equal(set, 1u << RA_CAT_TOOL | 1u << RA_CAT_AI_USER);

    set = 1u << RA_CAT_SEO;
    why = ra_alert_purposes_parse(ra_str("search,scraper seo", 18), &set,
                                  &bad);
    assert_non_null(why);
    assert_non_null(strstr(why, "not a purpose"));
    assert_non_null(strstr(why, "security-scanner"));
    assert_int_equal(bad.len, 7);
    assert_memory_equal(bad.data, "scraper", 7);
    assert_int_equal(set, 1u << RA_CAT_SEO);          /* untouched */
    why = ra_alert_purposes_parse(ra_str(" , ", 3), &set, &bad);
    assert_non_null(why);
    assert_non_null(strstr(why, "names no purpose"));
    assert_int_equal(bad.len, 0);
    assert_non_null(ra_alert_purposes_parse(ra_str("unknown", 7), &set,
                                            &bad));
    /* the sentence names every purpose of the table, in its order: a
     * category added to the table must be added to the sentence too */
    {
        char      words[512];
        size_t    n = 0;
        unsigned  c;

        for (c = 0; c < RA_CAT_MAX; c++) {
            n += (size_t) snprintf(words + n, sizeof(words) - n, "%s%s",
                                   c ? ", " : "",
                                   ra_crawler_category_name(c));
        }
        snprintf(words + n, sizeof(words) - n, " or generic");
        why = ra_alert_purposes_parse(ra_str("unknown", 7), &set, &bad);
        assert_string_equal(why + strlen("is not a purpose: "), words);
    }

    memset(&curl, 0, sizeof(curl));
    memset(&gpt, 0, sizeof(gpt));
    curl.category = RA_CAT_TOOL;
    gpt.category = RA_CAT_AI_TRAINING;
    imp = gpt;
    imp.category = RA_CAT_MAX;                        /* out of range */
    set = 1u << RA_CAT_SEARCH | 1u << RA_CAT_AI_TRAINING;
    assert_false(ra_alert_purpose_wanted(set, &curl));
    assert_true(ra_alert_purpose_wanted(set, &gpt));
    assert_false(ra_alert_purpose_wanted(set, NULL)); /* generic bot */
    assert_false(ra_alert_purpose_wanted(set, &imp));
    assert_true(ra_alert_purpose_wanted(set | RA_ALERT_GENERIC, NULL));
    /* not given: everything alerts */
    assert_true(ra_alert_purpose_wanted(0, &curl));
    assert_true(ra_alert_purpose_wanted(0, &gpt));
    assert_true(ra_alert_purpose_wanted(0, NULL));
    assert_true(ra_alert_purpose_wanted(RA_ALERT_PURPOSES_ALL, &curl));
    assert_true(ra_alert_purpose_wanted(RA_ALERT_PURPOSES_ALL, NULL));
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(alert_text_escapes_and_tags),
        cmocka_unit_test(alert_json_is_one_valid_line),
        cmocka_unit_test(alert_impostor_is_ra102),
        cmocka_unit_test(alert_long_uri_is_cut),
        cmocka_unit_test(alert_emit_through_host),
        cmocka_unit_test(alert_method_is_cut),
        cmocka_unit_test(alert_host_that_escapes),
        cmocka_unit_test(alert_emit_cut_as_logf),
        cmocka_unit_test(bucket_arithmetic),
        cmocka_unit_test(budget_take_and_summary),
        cmocka_unit_test(budget_reserve_for_verified),
        cmocka_unit_test(budget_summary_names),
        cmocka_unit_test(gate_per_block),
        cmocka_unit_test(block_of_address),
        cmocka_unit_test(budget_parse),
        cmocka_unit_test(budget_summary_lines),
        cmocka_unit_test(purposes_parse_and_wanted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
