/* SPDX-License-Identifier: BSD-2-Clause */
/* Alert lines: stable tag, every hostile byte escaped, valid JSON. */
#include <stdio.h>
#include <string.h>

#include "ra_test.h"
#include "ra_alert.h"
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
        "method=GET uri=\"/x\\x0d\\x0a2026 [RA100] forged\\x1b[31m\\x22"
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
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
