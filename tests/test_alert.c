/* Alert lines: stable tag, every hostile byte escaped, valid JSON. */
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
    r->uri = (ra_str_t) ra_string("/x\r\n2026 [RA100] forged\x1b[31m\"<script>");
    v->verdict = RA_VERDICT_VIOLATION;
    v->verification = RA_VERIFY_VERIFIED;
    v->name = (ra_str_t) ra_string("Googlebot");
    v->token = (ra_str_t) ra_string("Googlebot");
    v->line = 3;
    v->rule_type = RA_RULE_DISALLOW;
    v->pattern = (ra_str_t) ra_string("/x");
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
    v.pattern = ra_str(uri, RA_PATTERN_MAX);
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

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(alert_text_escapes_and_tags),
        cmocka_unit_test(alert_json_is_one_valid_line),
        cmocka_unit_test(alert_long_uri_is_cut),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
