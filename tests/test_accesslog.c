/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Access-log lines: both formats, escapes, offsets, truncation, garbage,
 * and the two real logs of ../shared/data/logs.  Every input is copied to
 * a block of exactly its length (ra_test_exact), so ASan sees any read
 * past the span.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ra_test.h"
#include "ra_accesslog.h"

#define COMBINED                                                            \
    "83.149.9.216 - frank [17/May/2015:10:05:03 +0000] \"GET /presentations/" \
    "x.png?a=1 HTTP/1.1\" 200 203023 \"http://semicomplete.com/\" "         \
    "\"Mozilla/5.0 (compatible; Googlebot/2.1)\""

/* The last input stays alive (its spans are checked after the call)
 * until the next parse() or the test's teardown. */
static ra_str_t  held;

static int
parse(const char *s, ra_logrec_t *rec)
{
    if (held.data != NULL) {
        ra_test_exact_free(held);
    }
    held = ra_test_exact(s, strlen(s));
    return ra_accesslog_parse(held, rec);
}

#define RA_TEST_STR_STATIC(lit)  ra_str(lit, sizeof(lit) - 1)

static int
teardown(void **state)
{
    (void) state;
    if (held.data != NULL) {
        ra_test_exact_free(held);
        held.data = NULL;
    }
    return 0;
}

static int
span_is(ra_str_t s, const char *want)
{
    return s.len == strlen(want) && memcmp(s.data, want, s.len) == 0;
}

static void
test_combined(void **state)
{
    ra_logrec_t  r;
    ra_str_t     in = RA_TEST_STR(COMBINED);

    (void) state;
    assert_int_equal(ra_accesslog_parse(in, &r), RA_OK);
    assert_true(span_is(r.addr, "83.149.9.216"));
    assert_true(span_is(r.user, "frank"));
    assert_true(r.time == 1431857103000LL);
    assert_true(span_is(r.method, "GET"));
    assert_true(span_is(r.target, "/presentations/x.png?a=1"));
    assert_true(span_is(r.protocol, "HTTP/1.1"));
    assert_int_equal(r.status, 200);
    assert_true(r.bytes == 203023);
    assert_true(span_is(r.referer, "http://semicomplete.com/"));
    assert_true(span_is(r.user_agent, "Mozilla/5.0 (compatible; Googlebot/2.1)"));
    assert_int_equal(r.format, RA_LOG_COMBINED);
    assert_int_equal(r.escaped, 0);
    ra_test_exact_free(in);
}

static void
test_common_and_dashes(void **state)
{
    ra_logrec_t  r;

    (void) state;
    /* Apache's documentation example */
    assert_int_equal(parse("127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] "
                           "\"GET /apache_pb.gif HTTP/1.0\" 200 2326", &r),
                     RA_OK);
    assert_int_equal(r.format, RA_LOG_COMMON);
    assert_true(r.time == 971211336000LL);
    assert_null(r.user_agent.data);
    assert_true(span_is(r.target, "/apache_pb.gif"));

    assert_int_equal(parse("::1 - - [10/Oct/2000:13:55:36 +0000] \"-\" 408 -",
                           &r), RA_OK);
    assert_int_equal(r.method.len, 0);
    assert_true(r.bytes == -1);
    assert_int_equal(r.status, 408);

    /* trailing blanks and a CRLF line end */
    assert_int_equal(parse("::1 - - [10/Oct/2000:13:55:36 +0000] \"GET / "
                           "HTTP/1.1\" 200 5  \r\n", &r), RA_OK);
    assert_int_equal(r.format, RA_LOG_COMMON);

    /* status "-" */
    assert_int_equal(parse("::1 - - [10/Oct/2000:13:55:36 +0000] \"GET / "
                           "HTTP/1.1\" - -", &r), RA_OK);
    assert_int_equal(r.status, 0);

    /* nginx with $request_time appended */
    assert_int_equal(parse("10.0.0.1 - - [10/Oct/2000:13:55:36 +0000] \"GET "
                           "/ HTTP/2.0\" 200 5 \"-\" \"curl/8\" 0.003", &r),
                     RA_OK);
    assert_int_equal(r.format, RA_LOG_COMBINED);
    assert_true(span_is(r.user_agent, "curl/8"));
}

static void
test_request_shapes(void **state)
{
    ra_logrec_t  r;

    (void) state;
    /* HTTP/0.9 style: no protocol */
    assert_int_equal(parse("1.2.3.4 - - [10/Oct/2000:13:55:36 +0000] \"GET "
                           "/old\" 200 5", &r), RA_OK);
    assert_true(span_is(r.target, "/old"));
    assert_int_equal(r.protocol.len, 0);
    /* a TLS handshake sent to a plain-text port, as nginx logs it */
    assert_int_equal(parse("1.2.3.4 - - [10/Oct/2000:13:55:36 +0000] "
                           "\"\\x16\\x03\\x01\\x00\\xA5\\x01\" 400 157 \"-\" "
                           "\"-\"", &r), RA_OK);
    assert_int_equal(r.method.len, 0);
    /* a target holding a space, logged raw */
    assert_int_equal(parse("1.2.3.4 - - [10/Oct/2000:13:55:36 +0000] \"GET "
                           "/a b HTTP/1.1\" 400 0", &r), RA_OK);
    assert_true(span_is(r.target, "/a b"));
    /* a method that is not a token */
    assert_int_equal(parse("1.2.3.4 - - [10/Oct/2000:13:55:36 +0000] \"G<T "
                           "/ HTTP/1.1\" 400 0", &r), RA_OK);
    assert_int_equal(r.method.len, 0);
    /* no target */
    assert_int_equal(parse("1.2.3.4 - - [10/Oct/2000:13:55:36 +0000] \"GET \""
                           " 400 0", &r), RA_OK);
    assert_int_equal(r.method.len, 0);
    /* the shapes the common requests' short cuts must still tell apart:
     * an empty target before the protocol, a protocol with a space in
     * it, a target that ends like one */
    assert_int_equal(parse("1.2.3.4 - - [10/Oct/2000:13:55:36 +0000] \"GET "
                           " HTTP/1.1\" 400 0", &r), RA_OK);
    assert_int_equal(r.method.len, 0);
    assert_int_equal(parse("1.2.3.4 - - [10/Oct/2000:13:55:36 +0000] \"GET "
                           "/a HTTP/1 1\" 400 0", &r), RA_OK);
    assert_true(span_is(r.target, "/a HTTP/1 1"));
    assert_int_equal(r.protocol.len, 0);
    assert_int_equal(parse("1.2.3.4 - - [10/Oct/2000:13:55:36 +0000] \"GET "
                           "/HTTP/1.1\" 200 0", &r), RA_OK);
    assert_true(span_is(r.target, "/HTTP/1.1"));
    assert_int_equal(r.protocol.len, 0);
    assert_int_equal(parse("1.2.3.4 - - [10/Oct/2000:13:55:36 +0000] \"GETX "
                           "/ HTTP/1.1\" 200 0", &r), RA_OK);
    assert_true(span_is(r.method, "GETX"));
    /* a user and an identity that are not "-"; no body of 19 digits */
    assert_int_equal(parse("1.2.3.4 id a b [10/Oct/2000:13:55:36 +0000] \"GET "
                           "/ HTTP/1.1\" 200 999999999999999999", &r), RA_OK);
    assert_true(span_is(r.user, "a b"));
    assert_true(r.bytes == 999999999999999999LL);
    assert_int_equal(parse("1.2.3.4 - - [10/Oct/2000:13:55:36 +0000] \"GET "
                           "/ HTTP/1.1\" 200 1000000000000000000", &r),
                     RA_ERROR);
    assert_string_equal(r.bad, "bytes");
}

static void
test_escaped_quotes(void **state)
{
    ra_logrec_t    r;
    unsigned char  out[256];
    size_t         n;

    (void) state;
    /* Apache: \" and \\ inside fields */
    assert_int_equal(parse("1.2.3.4 - - [10/Oct/2000:13:55:36 +0000] \"GET "
                           "/a\\\"b HTTP/1.1\" 200 1 \"-\" \"Evil \\\"bot\\\""
                           " \\\\\"", &r), RA_OK);
    assert_int_equal(r.escaped, 1);
    assert_true(span_is(r.target, "/a\\\"b"));
    assert_true(span_is(r.user_agent, "Evil \\\"bot\\\" \\\\"));
    n = ra_accesslog_unescape(r.user_agent, out);
    assert_int_equal(n, strlen("Evil \"bot\" \\"));
    assert_memory_equal(out, "Evil \"bot\" \\", n);

    /* nginx: \x22 */
    assert_int_equal(parse("1.2.3.4 - - [10/Oct/2000:13:55:36 +0000] \"GET "
                           "/ HTTP/1.1\" 200 1 \"-\" \"a\\x22b\\x0A\"", &r),
                     RA_OK);
    n = ra_accesslog_unescape(r.user_agent, out);
    assert_int_equal(n, 4);
    assert_memory_equal(out, "a\"b\n", 4);

    /* a field ending in an escaped backslash, then the real quote */
    assert_int_equal(parse("1.2.3.4 - - [10/Oct/2000:13:55:36 +0000] \"GET "
                           "/ HTTP/1.1\" 200 1 \"x\\\\\" \"ua\"", &r), RA_OK);
    assert_true(span_is(r.referer, "x\\\\"));
    assert_true(span_is(r.user_agent, "ua"));

    /* an escaped quote must not close the field: then it is unterminated */
    assert_int_equal(parse("1.2.3.4 - - [10/Oct/2000:13:55:36 +0000] \"GET "
                           "/ HTTP/1.1\" 200 1 \"-\" \"ua\\\"", &r), RA_ERROR);
    /* unescape keeps what it cannot decode */
    n = ra_accesslog_unescape(ra_str("\\q\\x4\\", 7), out);
    assert_int_equal(n, 7);
    assert_memory_equal(out, "\\q\\x4\\", 7);
}

static void
test_offsets_and_dates(void **state)
{
    static const struct {
        const char  *t;
        int64_t      s;            /* -1: malformed */
    } cases[] = {
        { "01/Jan/1970:00:00:00 +0000", 0 },
        { "01/Jan/1970:05:30:00 +0530", 0 },
        { "31/Dec/1969:12:00:00 -1200", 0 },
        { "01/Jan/1970:14:00:00 +1400", 0 },
        { "29/Feb/2016:23:59:59 +0000", 1456790399 },
        { "01/Mar/2016:00:00:00 +0100", 1456786800 },
        { "17/may/2015:10:05:03 +0000", 1431857103 },
        { "32/Jan/2015:00:00:00 +0000", -1 },
        { "01/Foo/2015:00:00:00 +0000", -1 },
        { "01/Jan/2015:24:00:00 +0000", -1 },
        { "01/Jan/2015:00:60:00 +0000", -1 },
        { "01/Jan/2015:00:00:00 0000 ", -1 },
        { "01/Jan/2015:00:00:00 +2400", -1 },
        { "1/Jan/2015:00:00:00 +0000 ", -1 },
        { "01/Jan/2015 00:00:00 +0000", -1 },
    };
    char         line[256];
    ra_logrec_t  r;
    size_t       i;

    (void) state;
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        snprintf(line, sizeof(line), "1.2.3.4 - - [%s] \"GET / HTTP/1.1\" "
                 "200 1", cases[i].t);
        if (cases[i].s < 0) {
            assert_int_equal(parse(line, &r), RA_ERROR);
        } else {
            assert_int_equal(parse(line, &r), RA_OK);
            assert_true(r.time == cases[i].s * 1000);
        }
    }
}

static void
test_time_iso(void **state)
{
    char  t[24];

    (void) state;
    assert_int_equal(ra_time_iso(0, t), 20);
    assert_string_equal(t, "1970-01-01T00:00:00Z");
    ra_time_iso(1456790399999LL, t);
    assert_string_equal(t, "2016-02-29T23:59:59Z");
    ra_time_iso(-1, t);
    assert_string_equal(t, "1969-12-31T23:59:59Z");
    ra_time_iso(253402300799000LL, t);
    assert_string_equal(t, "9999-12-31T23:59:59Z");
    assert_true(ra_days_from_civil(2000, 3, 1) == 11017);
    assert_true(ra_days_from_civil(1600, 1, 1) == -135140);
}

/* Every prefix of a valid line: malformed, or a valid shorter format;
 * never a read past the span. */
static void
test_truncated(void **state)
{
    static const char  line[] = COMBINED;
    ra_logrec_t        r;
    ra_str_t           in;
    size_t             n, ok = 0;

    (void) state;
    for (n = 0; n < sizeof(line) - 1; n++) {
        in = ra_test_exact(line, n);
        if (ra_accesslog_parse(in, &r) == RA_OK) {
            ok++;
            assert_int_equal(r.format, RA_LOG_COMMON);
            assert_true(r.time == 1431857103000LL);
        }
        ra_test_exact_free(in);
    }
    /* "... 200 2" to "... 200 203023" (six), and "... 200 203023 " with
     * its trailing blank: seven common lines */
    assert_int_equal(ok, 7);
}

/* Garbage: random bytes, and valid lines with bytes flipped. */
static void
test_garbage(void **state)
{
    static const char  line[] = COMBINED;
    unsigned char      buf[512];
    uint32_t           seed = 12345;
    ra_logrec_t        r;
    ra_str_t           in;
    size_t             i, k, n;

    (void) state;
    for (i = 0; i < 20000; i++) {
        if (i & 1) {
            n = (seed >> 7) % sizeof(buf);
            for (k = 0; k < n; k++) {
                seed = seed * 1103515245 + 12345;
                buf[k] = (unsigned char) (seed >> 16);
                if ((seed & 0x300) == 0) {
                    buf[k] = (unsigned char) " \"[]\\-/:"[(seed >> 11) & 7];
                }
            }
        } else {
            n = sizeof(line) - 1;
            memcpy(buf, line, n);
            for (k = 0; k < 3; k++) {
                seed = seed * 1103515245 + 12345;
                buf[(seed >> 8) % n] = (unsigned char) (seed >> 20);
            }
        }
        in = ra_test_exact(buf, n);
        if (ra_accesslog_parse(in, &r) == RA_OK) {
            /* every span lies inside the line */
            assert_true(r.addr.data >= in.data
                        && r.addr.data + r.addr.len <= in.data + n);
            assert_true(r.target.data >= in.data
                        && r.target.data + r.target.len <= in.data + n);
            if (r.user_agent.data != NULL) {
                assert_true(r.user_agent.data + r.user_agent.len
                            <= in.data + n);
            }
        }
        ra_test_exact_free(in);
    }
    assert_int_equal(ra_accesslog_parse(ra_str("", 0), &r), RA_ERROR);
}

static void
count_file(const char *path, size_t *lines, size_t *ok, size_t *first_bad)
{
    FILE         *f = fopen(path, "rb");
    char         *line = NULL;
    size_t        cap = 0;
    ssize_t       n;
    ra_logrec_t   r;
    ra_str_t      in;

    assert_non_null(f);
    *lines = *ok = *first_bad = 0;
    while ((n = getline(&line, &cap, f)) > 0) {
        (*lines)++;
        in = ra_test_exact(line, (size_t) n);
        if (ra_accesslog_parse(in, &r) == RA_OK) {
            (*ok)++;
        } else if (*first_bad == 0) {
            *first_bad = *lines;
        }
        ra_test_exact_free(in);
    }
    free(line);
    fclose(f);
}

static void
test_real_logs(void **state)
{
    char    path[512];
    size_t  lines, ok, bad;

    (void) state;
    RA_TEST_NEED_SHARED();
    snprintf(path, sizeof(path), "%s/logs/elastic-apache/apache_logs",
             ra_test_shared());
    count_file(path, &lines, &ok, &bad);
    assert_int_equal(lines, 10000);
    assert_int_equal(ok, 9999);
    assert_int_equal(bad, 8899);        /* cut inside the User-Agent */

    snprintf(path, sizeof(path), "%s/logs/hackers/hackers-access.log",
             ra_test_shared());
    count_file(path, &lines, &ok, &bad);
    assert_int_equal(lines, 3456);
    assert_int_equal(ok, 3456);
}


/* ---- formats ----------------------------------------------------------- */

static int
fparse(const ra_logfmt_t *f, const char *s, ra_logrec_t *rec)
{
    if (held.data != NULL) {
        ra_test_exact_free(held);
    }
    held = ra_test_exact(s, strlen(s));
    return ra_logfmt_parse(f, held, rec);
}

static void
compile_ok(const char *spec, ra_logfmt_t *f)
{
    const char  *err = NULL;

    if (ra_logfmt_compile(ra_str(spec, strlen(spec)), f, &err) != RA_OK) {
        print_message("compile '%s': %s\n", spec, err);
        fail();
    }
}

static void
test_vhost_combined(void **state)
{
    ra_logfmt_t  f;
    ra_logrec_t  r;
    const char  *line = "www.example.com:443 66.249.66.1 - - "
                        "[17/May/2015:10:05:03 +0000] \"GET /files/x "
                        "HTTP/1.1\" 200 5 \"-\" \"Googlebot/2.1\"";

    (void) state;
    /* read as combined it takes the vhost for the client (the bug) */
    assert_int_equal(ra_accesslog_parse(ra_str(line, strlen(line)), &r),
                     RA_OK);
    assert_true(span_is(r.addr, "www.example.com:443"));

    assert_int_equal(ra_logfmt_detect(ra_str(line, strlen(line)), &f), RA_OK);
    assert_string_equal(ra_logfmt_name(&f), "vhost_combined");
    assert_int_equal(fparse(&f, line, &r), RA_OK);
    assert_true(span_is(r.addr, "66.249.66.1"));
    assert_true(span_is(r.host, "www.example.com"));
    assert_true(span_is(r.target, "/files/x"));
    assert_true(span_is(r.user_agent, "Googlebot/2.1"));
    assert_true(r.time == 1431857103000LL);
    /* named, and its port always there */
    compile_ok("vhost_combined", &f);
    assert_int_equal(fparse(&f, line, &r), RA_OK);
    assert_int_equal(fparse(&f, line + 20, &r), RA_ERROR);
    assert_int_equal(fparse(&f, "[::1]:80 ::1 - - [17/May/2015:10:05:03 "
                            "+0000] \"GET / HTTP/1.1\" 200 5 \"-\" \"x\"",
                            &r), RA_OK);
    assert_true(span_is(r.host, "[::1]"));
    assert_true(span_is(r.addr, "::1"));

    /* plain combined and common lines are still detected as such */
    assert_int_equal(ra_logfmt_detect(ra_str(line + 20, strlen(line + 20)),
                                      &f), RA_OK);
    assert_string_equal(ra_logfmt_name(&f), "combined");
    assert_int_equal(ra_logfmt_detect(RA_TEST_STR_STATIC(
        "::1 - - [17/May/2015:10:05:03 +0000] \"GET / HTTP/1.0\" 200 5"), &f),
        RA_OK);
    assert_string_equal(ra_logfmt_name(&f), "common");
    assert_int_equal(ra_logfmt_detect(RA_TEST_STR_STATIC("\x7f" "ELF\x02"),
                                      &f), RA_ERROR);
}

static void
test_trailing_xff(void **state)
{
    ra_logrec_t  r;

    (void) state;
    /* nginx's "main": "$http_user_agent" "$http_x_forwarded_for" */
    assert_int_equal(parse("10.0.0.2 - - [17/May/2015:10:05:03 +0000] "
                           "\"GET / HTTP/1.1\" 200 5 \"-\" \"UA\" "
                           "\"66.249.66.1, 10.0.0.3\" 0.001", &r), RA_OK);
    assert_true(span_is(r.user_agent, "UA"));
    assert_true(span_is(r.xff, "66.249.66.1, 10.0.0.3"));
    assert_int_equal(parse("10.0.0.2 - - [17/May/2015:10:05:03 +0000] "
                           "\"GET / HTTP/1.1\" 200 5 \"-\" \"UA\" 0.001",
                           &r), RA_OK);
    assert_null(r.xff.data);
    assert_null(r.host.data);
}

static void
test_json(void **state)
{
    ra_logfmt_t  f;
    ra_logrec_t  r;
    unsigned char out[256];
    size_t        n;
    const char   *line = "{\"time_iso8601\":\"2015-05-17T12:05:03+02:00\","
        "\"remote_addr\":\"10.0.0.2\",\"host\":\"a.example\","
        "\"request\":\"GET /files/x?q=\\\"1\\\" HTTP/1.1\",\"status\":\"200\","
        "\"body_bytes_sent\":5,\"http_referer\":\"\",\"http_user_agent\":"
        "\"Googlebot/2.1 \\u00e9\\u0001\",\"http_x_forwarded_for\":"
        "\"66.249.66.1\",\"request_time\":0.001,\"upstream\":null}";

    (void) state;
    assert_int_equal(ra_logfmt_detect(ra_str(line, strlen(line)), &f), RA_OK);
    assert_string_equal(ra_logfmt_name(&f), "json");
    assert_int_equal(fparse(&f, line, &r), RA_OK);
    assert_true(r.time == 1431857103000LL);
    assert_true(span_is(r.addr, "10.0.0.2"));
    assert_true(span_is(r.host, "a.example"));
    assert_true(span_is(r.method, "GET"));
    assert_true(span_is(r.xff, "66.249.66.1"));
    assert_int_equal(r.status, 200);
    assert_true(r.bytes == 5);
    assert_int_equal(r.escaped, 1);
    n = ra_accesslog_unescape(r.user_agent, out);
    assert_int_equal(n, 17);
    assert_memory_equal(out, "Googlebot/2.1 \xc3\xa9\x01", 17);
    n = ra_accesslog_unescape(r.target, out);
    assert_memory_equal(out, "/files/x?q=\"1\"", n);

    /* method and URI apart, time_local, a numeric status, spaces */
    assert_int_equal(fparse(&f, "{ \"remote_addr\": \"::1\", \"time_local\": "
                            "\"17/May/2015:10:05:03 +0000\", "
                            "\"request_method\": \"HEAD\", \"request_uri\": "
                            "\"/robots.txt\", \"status\": 304 }", &r), RA_OK);
    assert_true(span_is(r.method, "HEAD"));
    assert_true(span_is(r.target, "/robots.txt"));
    assert_int_equal(r.status, 304);
    assert_null(r.user_agent.data);
    assert_true(r.time == 1431857103000LL);

    /* null is an absent field: no address is no line (fuzz_accesslog
     * found "-" put in its place, a span outside the line); a null
     * User-Agent, referer or size is just not there */
    assert_int_equal(fparse(&f, "{\"time_iso8601\":\"2015-05-17T12:05:03"
                            "+0200\",\"remote_addr\":null,\"mst\":\"51\"}",
                            &r), RA_ERROR);
    assert_int_equal(fparse(&f, "{\"remote_addr\":\"::1\",\"time_local\": "
                            "\"17/May/2015:10:05:03 +0000\",\"request\":"
                            "\"GET / HTTP/1.1\",\"status\":200,"
                            "\"http_user_agent\":null,\"http_referer\":null,"
                            "\"body_bytes_sent\":null}", &r), RA_OK);
    assert_null(r.user_agent.data);
    assert_null(r.referer.data);
    assert_true(r.bytes == -1);

    /* not a log line: no time, nesting, cut short, garbage after */
    assert_int_equal(fparse(&f, "{\"remote_addr\":\"::1\",\"request\":\"GET / "
                            "HTTP/1.1\",\"status\":200}", &r), RA_ERROR);
    assert_int_equal(fparse(&f, "{\"remote_addr\":{\"a\":1}}", &r), RA_ERROR);
    assert_int_equal(fparse(&f, "{\"remote_addr\":\"::1\",\"time_local\":"
                            "\"17/May/2015:10:05:03 +0000\",\"request\":\"GET",
                            &r), RA_ERROR);
    assert_int_equal(fparse(&f, "{}", &r), RA_ERROR);
    assert_int_equal(fparse(&f, "{\"remote_addr\":\"::1\",\"time_local\":"
                            "\"17/May/2015:10:05:03 +0000\",\"status\":200} x",
                            &r), RA_ERROR);
}

static void
test_nginx_log_format(void **state)
{
    ra_logfmt_t  f;
    ra_logrec_t  r;
    const char  *err = NULL;

    (void) state;
    /* $request_time before the referer, $host first */
    compile_ok("$host $remote_addr - $remote_user [$time_local] \"$request\" "
               "$status $body_bytes_sent $request_time \"$http_referer\" "
               "\"$http_user_agent\" \"${http_x_forwarded_for}\"", &f);
    assert_int_equal(f.format, RA_LOG_PLAN);
    assert_true(RA_LOGFMT_HAS(&f, RA_LF_UA));
    assert_true(RA_LOGFMT_HAS(&f, RA_LF_HOST));
    assert_int_equal(fparse(&f, "b.example 10.0.0.2 - - [17/May/2015:10:05:03 "
                            "+0000] \"GET /a\\x22b HTTP/1.1\" 404 0 0.012 "
                            "\"-\" \"Mozilla/5.0 (compatible; bingbot/2.0)\" "
                            "\"40.77.167.1\"", &r), RA_OK);
    assert_true(span_is(r.host, "b.example"));
    assert_true(span_is(r.addr, "10.0.0.2"));
    assert_true(span_is(r.target, "/a\\x22b"));
    assert_int_equal(r.status, 404);
    assert_true(span_is(r.user_agent,
                        "Mozilla/5.0 (compatible; bingbot/2.0)"));
    assert_true(span_is(r.xff, "40.77.167.1"));
    /* a combined line is not that format */
    assert_int_equal(fparse(&f, COMBINED, &r), RA_ERROR);
    /* cut short anywhere: never a read past the line (ASan) */
    {
        const char  *full = "b.example 10.0.0.2 - - [17/May/2015:10:05:03 "
                            "+0000] \"GET / HTTP/1.1\" 200 5 0.1 \"-\" \"UA\" "
                            "\"-\"";
        char         cut[256];
        size_t       k;

        for (k = 0; k < strlen(full); k++) {
            memcpy(cut, full, k);
            cut[k] = '\0';
            assert_int_equal(fparse(&f, cut, &r), RA_ERROR);
        }
        assert_int_equal(fparse(&f, full, &r), RA_OK);
        assert_null(r.xff.data);                /* "-" */
    }

    /* $msec, and method and URI apart */
    compile_ok("$msec|$remote_addr|$request_method|$request_uri|$status|"
               "$http_user_agent", &f);
    assert_int_equal(fparse(&f, "1431857103.250|::1|GET|/x?y|200|Googlebot "
                            "2.1", &r), RA_OK);
    assert_true(r.time == 1431857103250LL);
    assert_true(span_is(r.method, "GET"));
    assert_true(span_is(r.target, "/x?y"));
    assert_true(span_is(r.user_agent, "Googlebot"));  /* last field: a word */
    assert_int_equal(fparse(&f, "1431857103|::1|GET|/x?y|200|G", &r), RA_OK);
    assert_true(r.time == 1431857103000LL);
    assert_int_equal(fparse(&f, "99999999999999999999|::1|GET|/|200|G", &r),
                     RA_ERROR);
    assert_int_equal(fparse(&f, "9999999999999.5|::1|GET|/|200|G", &r),
                     RA_ERROR);
    assert_int_equal(fparse(&f, "1.2.3|::1|GET|/|200|G", &r), RA_ERROR);

    /* what cannot be a plan */
    assert_int_equal(ra_logfmt_compile(RA_TEST_STR_STATIC("$remote_addr "
                     "\"$request\" $status"), &f, &err), RA_ERROR);
    assert_non_null(strstr(err, "no time"));
    assert_int_equal(ra_logfmt_compile(RA_TEST_STR_STATIC("$remote_addr"
                     "$time_local \"$request\" $status"), &f, &err), RA_ERROR);
    assert_non_null(strstr(err, "nothing between"));
    assert_int_equal(ra_logfmt_compile(RA_TEST_STR_STATIC("[$time_local] "
                     "\"$request\" $status"), &f, &err), RA_ERROR);
    assert_non_null(strstr(err, "address"));
    assert_int_equal(ra_logfmt_compile(RA_TEST_STR_STATIC("$remote_addr "
                     "[$time_local] $status"), &f, &err), RA_ERROR);
    assert_non_null(strstr(err, "no request"));
}

static void
test_apache_log_format(void **state)
{
    ra_logfmt_t  f, g;
    ra_logrec_t  r, s;

    (void) state;
    /* Apache's combined, as written in httpd.conf */
    compile_ok("%h %l %u %t \\\"%r\\\" %>s %b \\\"%{Referer}i\\\" "
               "\\\"%{User-Agent}i\\\"", &f);
    assert_int_equal(fparse(&f, COMBINED, &r), RA_OK);
    assert_int_equal(ra_accesslog_parse(held, &s), RA_OK);
    assert_true(r.time == s.time);
    assert_true(span_is(r.addr, "83.149.9.216"));
    assert_true(span_is(r.target, "/presentations/x.png?a=1"));
    assert_true(r.user_agent.len == s.user_agent.len
                && r.user_agent.data == s.user_agent.data);

    /* Debian's vhost_combined as a string, and %U%q, %{X-Forwarded-For}i */
    compile_ok("%v:%p %h %l %u %t \"%r\" %>s %O \"%{Referer}i\" "
               "\"%{User-Agent}i\"", &g);
    assert_int_equal(fparse(&g, "a.example:80 ::1 - - [17/May/2015:10:05:03 "
                            "+0000] \"GET / HTTP/1.1\" 200 5 \"-\" \"UA\"",
                            &r), RA_OK);
    assert_true(span_is(r.host, "a.example"));
    compile_ok("%a %t %m %U%q %s \"%{x-forwarded-for}i\" %D \"%{User-agent}i\""
               " 100%%", &g);
    assert_int_equal(fparse(&g, "::1 [17/May/2015:10:05:03 +0000] GET /a?b "
                            "200 \"1.2.3.4\" 77 \"UA x\" 100%", &r), RA_OK);
    assert_true(span_is(r.target, "/a?b"));
    assert_true(span_is(r.xff, "1.2.3.4"));
    assert_true(span_is(r.user_agent, "UA x"));
    assert_int_equal(fparse(&g, "::1 [17/May/2015:10:05:03 +0000] GET /a?b "
                            "200 \"1.2.3.4\" 77 \"UA x\" 100", &r), RA_ERROR);
    /* a time in another shape is refused, not misread */
    assert_int_equal(ra_logfmt_compile(RA_TEST_STR_STATIC("%h %{%s}t \"%r\" "
                     "%s"), &f, &(const char *) { NULL }), RA_ERROR);
}

static void
test_realip(void **state)
{
    ra_cidr_t  t[3];
    ra_str_t   c;

    (void) state;
    assert_int_equal(ra_cidr_parse(RA_TEST_STR_STATIC("10.0.0.0/8"), &t[0]),
                     RA_OK);
    assert_int_equal(ra_cidr_parse(RA_TEST_STR_STATIC("2001:db8::/32"),
                                   &t[1]), RA_OK);
    assert_int_equal(ra_cidr_parse(RA_TEST_STR_STATIC("192.0.2.7"), &t[2]),
                     RA_OK);
    assert_int_equal(t[2].bits, 128);
    assert_int_equal(ra_cidr_parse(RA_TEST_STR_STATIC("10.0.0.0/33"), &t[0]),
                     RA_ERROR);
    assert_int_equal(ra_cidr_parse(RA_TEST_STR_STATIC("10.0.0.0/"), &t[0]),
                     RA_ERROR);
    assert_int_equal(ra_cidr_parse(RA_TEST_STR_STATIC("example.com"), &t[0]),
                     RA_ERROR);
    assert_int_equal(ra_cidr_parse(RA_TEST_STR_STATIC("10.0.0.0/8"), &t[0]),
                     RA_OK);

#define RIP(addr, xff)  ra_realip(t, 3, ra_str(addr, strlen(addr)),          \
                                  ra_str(xff, strlen(xff)))
    /* from a trusted balancer: the last untrusted address */
    c = RIP("10.1.2.3", "66.249.66.1");
    assert_true(span_is(c, "66.249.66.1"));
    c = RIP("10.1.2.3", "203.0.113.9, 66.249.66.1, 10.9.9.9 ,192.0.2.7");
    assert_true(span_is(c, "66.249.66.1"));
    /* every one trusted: the first */
    c = RIP("10.1.2.3", "10.0.0.5, 2001:db8::1");
    assert_true(span_is(c, "10.0.0.5"));
    /* garbage stops the walk at the address before it */
    c = RIP("10.1.2.3", "66.249.66.1, junk, 10.0.0.9");
    assert_true(span_is(c, "10.0.0.9"));
    c = RIP("10.1.2.3", "-");
    assert_true(span_is(c, "10.1.2.3"));
    /* not from a trusted address: the address as logged */
    c = RIP("66.249.66.2", "1.2.3.4");
    assert_true(span_is(c, "66.249.66.2"));
    c = ra_realip(t, 3, ra_str("10.1.2.3", 8), ra_str(NULL, 0));
    assert_true(span_is(c, "10.1.2.3"));
    c = ra_realip(t, 0, ra_str("10.1.2.3", 8), ra_str("1.2.3.4", 7));
    assert_true(span_is(c, "10.1.2.3"));
#undef RIP
}

/* ---- the formats of proxies and CDNs, and plausibility ---------------- */

static void
test_json_maps(void **state)
{
    ra_logfmt_t   f;
    ra_logrec_t   r;
    const char   *err = NULL;
    unsigned char buf[512];
    ra_str_t      uri, ua;

    (void) state;
    /* Caddy: client_ip before remote_ip, the first of a header array */
    compile_ok("caddy", &f);
    assert_int_equal(fparse(&f, "{\"ts\":1646861401.5241024,\"request\":{"
        "\"remote_ip\":\"10.0.0.2\",\"client_ip\":\"2001:db8::1\","
        "\"method\":\"GET\",\"host\":\"a.example:443\",\"uri\":\"/x?y=1\","
        "\"headers\":{\"User-Agent\":[\"curl/8\",\"other\"]}},"
        "\"size\":10,\"status\":200}", &r), RA_OK);
    assert_true(span_is(r.addr, "2001:db8::1"));
    assert_true(span_is(r.user_agent, "curl/8"));
    assert_true(span_is(r.host, "a.example"));
    assert_true(span_is(r.target, "/x?y=1"));
    assert_int_equal(r.time, 1646861401524LL);
    assert_int_equal(r.status, 200);
    /* nested deeper than the path, and a null: absent */
    assert_int_equal(fparse(&f, "{\"ts\":1,\"request\":{\"client_ip\":null,"
        "\"remote_ip\":\"192.0.2.1\",\"method\":\"GET\",\"uri\":\"/\"},"
        "\"status\":404}", &r), RA_OK);
    assert_true(span_is(r.addr, "192.0.2.1"));
    /* no status: malformed, said so */
    assert_int_equal(fparse(&f, "{\"ts\":1,\"request\":{\"client_ip\":"
        "\"192.0.2.1\",\"method\":\"GET\",\"uri\":\"/\"}}", &r), RA_ERROR);
    assert_string_equal(r.bad, "status");

    /* Cloudflare: EdgeStartTimestamp in ns, ms, s or RFC 3339 */
    compile_ok("cloudflare", &f);
#define CF(ts)  "{\"ClientIP\":\"192.0.2.1\",\"ClientRequestMethod\":\"GET\"," \
                "\"ClientRequestURI\":\"/\",\"EdgeResponseStatus\":200,"      \
                "\"EdgeStartTimestamp\":" ts "}"
    assert_int_equal(fparse(&f, CF("1526810289280000000"), &r), RA_OK);
    assert_int_equal(r.time, 1526810289280LL);
    assert_int_equal(fparse(&f, CF("1526810289280"), &r), RA_OK);
    assert_int_equal(r.time, 1526810289280LL);
    assert_int_equal(fparse(&f, CF("1526810289"), &r), RA_OK);
    assert_int_equal(r.time, 1526810289000LL);
    /* 19 digits: the largest int64_t is a time, one past it none (the
     * fuzzer's signed overflow) */
    assert_int_equal(fparse(&f, CF("9223372036854775807"), &r), RA_OK);
    assert_int_equal(r.time, 9223372036854LL);
    assert_int_not_equal(fparse(&f, CF("9223372036854775808"), &r), RA_OK);
    assert_int_not_equal(fparse(&f, CF("9999999999999999999"), &r), RA_OK);
    assert_int_equal(fparse(&f, CF("\"2018-05-20T09:58:09Z\""), &r), RA_OK);
    assert_int_equal(r.time, 1526810289000LL);
    assert_int_equal(fparse(&f, CF("\"yesterday\""), &r), RA_ERROR);
    assert_string_equal(r.bad, "time");
#undef CF

    /* --json-fields */
    assert_int_equal(ra_logfmt_json_fields(RA_TEST_STR_STATIC(
        "client=ip,time=t,method=m,uri=u,status=s,ua=h.ua"), &f, &err), RA_OK);
    assert_int_equal(fparse(&f, "{\"ip\":\"[2001:db8::2]:443\",\"t\":"
        "\"2024-01-01T00:00:00.5+01:00\",\"m\":\"GET\",\"u\":\"/a\","
        "\"s\":\"301\",\"h\":{\"ua\":\"x\\\"y\"}}", &r), RA_OK);
    assert_true(span_is(r.addr, "2001:db8::2"));
    assert_int_equal(r.time, 1704063600500LL);
    assert_int_equal(r.status, 301);
    ra_logrec_decode(&r, buf, &uri, &ua);
    assert_true(span_is(ua, "x\"y"));
    assert_int_equal(ra_logfmt_json_fields(RA_TEST_STR_STATIC(
        "client=ip,time=t"), &f, &err), RA_ERROR);
    assert_non_null(strstr(err, "needed"));
    assert_int_equal(ra_logfmt_json_fields(RA_TEST_STR_STATIC(
        "addr=ip"), &f, &err), RA_ERROR);
}

static void
test_text_formats(void **state)
{
    ra_logfmt_t    f;
    ra_logrec_t    r;
    unsigned char  buf[512];
    ra_str_t       uri, ua;

    (void) state;
    /* HAProxy's documentation example, with a syslog prefix */
    compile_ok("haproxy", &f);
    assert_int_equal(fparse(&f, "Feb  6 12:14:14 localhost haproxy[14389]: "
        "10.0.1.2:33317 [06/Feb/2009:12:14:14.655] http-in "
        "static/srv1 10/0/30/69/109 200 2750 - - ---- 1/1/1/1/0 0/0 "
        "{1wt.eu|Mozilla/5.0 (X11)} {} \"GET /index.html HTTP/1.1\"", &r),
        RA_OK);
    assert_true(span_is(r.addr, "10.0.1.2"));
    assert_true(span_is(r.host, "1wt.eu"));
    assert_true(span_is(r.user_agent, "Mozilla/5.0 (X11)"));
    assert_true(span_is(r.target, "/index.html"));
    assert_int_equal(r.time, 1233922454655LL);
    assert_int_equal(r.bytes, 2750);
    /* an IPv6 client with its port */
    assert_int_equal(fparse(&f, "x: 2001:db8::1:33317 [06/Feb/2009:12:14:14"
        ".655] a b/c 1/2/3/4/5 200 1 - - ---- 1/1/1/1/0 0/0 \"GET / "
        "HTTP/1.1\"", &r), RA_OK);
    assert_true(span_is(r.addr, "2001:db8::1"));

    /* ALB: the absolute URL's host is the site, its path the target */
    compile_ok("alb", &f);
    assert_int_equal(fparse(&f, "h2 2018-07-02T22:23:00.186641Z "
        "app/my-lb/50dc6c495c0c9188 2001:db8::5:2817 10.0.0.1:80 0.000 "
        "0.001 0.000 200 200 34 366 \"GET https://www.example.com:443/a?b "
        "HTTP/2.0\" \"curl/7.46.0\" ECDHE TLSv1.2 arn \"Root=1\" \"-\"", &r),
        RA_OK);
    assert_true(span_is(r.addr, "2001:db8::5"));
    assert_true(span_is(r.host, "www.example.com"));
    assert_true(span_is(r.target, "/a?b"));
    assert_int_equal(r.bytes, 366);

    /* W3C: "#Fields:" names the columns; IIS writes '+' for ' ' */
    ra_logfmt_named(RA_LOG_W3C, &f);
    assert_int_equal(ra_logfmt_directive(RA_TEST_STR_STATIC("#Version: 1.0"),
                                         &f), 1);
    assert_int_equal(ra_logfmt_directive(RA_TEST_STR_STATIC(
        "#Fields: date time c-ip cs-method cs-uri-stem cs-uri-query "
        "sc-status cs(User-Agent)"), &f), 1);
    assert_int_equal(f.format, RA_LOG_W3C);
    assert_int_equal(fparse(&f, "2007-4-11 15:53:49 201.235.121.101 GET "
        "/items.htm a=1 200 Mozilla/4.0+(compatible;++http://x/)", &r),
        RA_OK);
    ra_logrec_decode(&r, buf, &uri, &ua);
    assert_true(span_is(uri, "/items.htm?a=1"));
    assert_true(span_is(ua, "Mozilla/4.0 (compatible; +http://x/)"));
    assert_int_equal(r.time, 1176306829000LL);
    assert_int_equal(ra_logfmt_directive(RA_TEST_STR_STATIC("1 2"), &f), 0);
    /* CloudFront: its x-edge columns name it, tabs, %XX */
    assert_int_equal(ra_logfmt_directive(RA_TEST_STR_STATIC(
        "#Fields: date time x-edge-location c-ip cs-method cs(Host) "
        "cs-uri-stem sc-status cs(User-Agent) cs-uri-query x-host-header"),
        &f), 1);
    assert_int_equal(f.format, RA_LOG_CLOUDFRONT);
    assert_int_equal(fparse(&f, "2019-12-04\t21:02:31\tLAX1\t192.0.2.1\tGET"
        "\td111.cloudfront.net\t/index.html\t200\tcurl%2F8%20(x)\t-\t"
        "www.example.com", &r), RA_OK);
    ra_logrec_decode(&r, buf, &uri, &ua);
    assert_true(span_is(ua, "curl/8 (x)"));
    assert_true(span_is(uri, "/index.html"));
    assert_true(span_is(r.host, "www.example.com"));
}

static void
test_plausible(void **state)
{
    ra_logfmt_t  f;
    ra_logrec_t  r;

    (void) state;
    compile_ok("combined", &f);
    /* a bracketed IPv6 client, with or without a port */
    assert_int_equal(fparse(&f, "[2001:db8::1] - - [10/Oct/2000:13:55:36 "
        "+0000] \"GET / HTTP/1.1\" 200 5 \"-\" \"x\"", &r), RA_OK);
    assert_true(span_is(r.addr, "2001:db8::1"));
    assert_int_equal(fparse(&f, "[2001:db8::1]:443 - - [10/Oct/2000:13:55:36 "
        "+0000] \"GET / HTTP/1.1\" 200 5 \"-\" \"x\"", &r), RA_OK);
    assert_true(span_is(r.addr, "2001:db8::1"));
    assert_int_equal(fparse(&f, "192.0.2.1:8080 - - [10/Oct/2000:13:55:36 "
        "+0000] \"GET / HTTP/1.1\" 200 5 \"-\" \"x\"", &r), RA_OK);
    assert_true(span_is(r.addr, "192.0.2.1"));
    /* nginx's $host first: read, but not plausible */
    assert_int_equal(fparse(&f, "www.example.com 192.0.2.1 - [10/Oct/2000:"
        "13:55:36 +0000] \"GET / HTTP/1.1\" 200 5 \"-\" \"x\"", &r),
        RA_ERROR);
    assert_string_equal(r.bad, "client");
    assert_int_equal(ra_logfmt_detect(RA_TEST_STR_STATIC("www.example.com "
        "192.0.2.1 - [10/Oct/2000:13:55:36 +0000] \"GET / HTTP/1.1\" 200 5 "
        "\"-\" \"x\""), &f), RA_LOGFMT_DOUBTFUL);
    assert_int_equal(f.format, RA_LOG_COMBINED);
    /* a status past 599, or none */
    assert_int_equal(fparse(&f, "192.0.2.1 - - [10/Oct/2000:13:55:36 +0000] "
        "\"GET / HTTP/1.1\" 700 5 \"-\" \"x\"", &r), RA_ERROR);
    assert_string_equal(r.bad, "status");
    assert_int_equal(fparse(&f, "192.0.2.1 - - [10/Oct/2000:13:55:36 +0000] "
        "\"GET / HTTP/1.1\" - 5 \"-\" \"x\"", &r), RA_ERROR);
    assert_string_equal(r.bad, "status");
    assert_int_equal(fparse(&f, "192.0.2.1 - - [10/Oct/2000:99:55:36 +0000] "
        "\"GET / HTTP/1.1\" 200 5 \"-\" \"x\"", &r), RA_ERROR);
    assert_string_equal(r.bad, "time");
}

/* A reader's memo of the lines before (ra_logfmt_read()) changes no
 * record: the same lines read with and without it, one after the other,
 * through dates, offsets, times and clients kept and changed, and lines
 * that must still fail where they differ from a kept one. */
static void
test_memo(void **state)
{
#define REQ  " \"GET / HTTP/1.1\" 200 5"
    static const char  *lines[] = {
        "192.0.2.1 - - [10/Oct/2000:13:55:36 -0700]" REQ,
        "192.0.2.1 - - [10/Oct/2000:23:59:60 -0700]" REQ,
        "192.0.2.1 - - [10/Oct/2000:24:00:00 -0700]" REQ,
        "192.0.2.1 - - [10/Oct/2000:13:5x:36 -0700]" REQ,
        "192.0.2.1 - - [10/Oct/2000 13:55:36 -0700]" REQ,
        "2001:db8::1 - - [10/Oct/2000:00:00:00 -0700]"
        " \"GET / HTTP/1.1\" 404 5",
        "2001:db8::1 - - [10/Oct/2000:00:00:01 +0100]" REQ,
        "2001:db8::12 - - [11/Oct/2000:00:00:01 +0100]" REQ,
        "2001:db8::12 - - [11/oct/2000:00:00:02 +0100]" REQ,
        "[2001:db8::1]:443 - - [11/oct/2000:00:00:02 +0100]" REQ,
        "[2001:db8::1]:443 - - [11/oct/2000:00:00:03 +0100]" REQ,
        "192.0.2.7:8080 - - [11/oct/2000:00:00:03 +0100]" REQ,
        "192.0.2.7:8080 - - [11/oct/2000:00:00:03 +0100]" REQ,
        "192.0.2.7 - - [11/oct/2000:00:00:03 +0100]" REQ,
        "192.0.2.7x - - [11/oct/2000:00:00:03 +0100]" REQ,
        "192.0.2.7 - - [11/oct/2000:00:00:03 +0100]"
        " \"GET / HTTP/1.1\" 99 5",
        "192.0.2.7 - - [31/Dec/1999:23:59:59 +1400]" REQ,
    };
#undef REQ
    ra_logfmt_t   f;
    ra_logmemo_t  m;
    ra_logrec_t   a, b;
    ra_str_t      in;
    size_t        i;
    int           rc;

    (void) state;
    memset(&m, 0, sizeof(m));
    ra_logfmt_named(RA_LOG_COMBINED, &f);
    for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
        in = ra_test_exact(lines[i], strlen(lines[i]));
        rc = ra_logfmt_read(&f, &m, in, &a);
        assert_int_equal(ra_logfmt_parse(&f, in, &b), rc);
        if (rc == RA_OK) {
            assert_true(a.time == b.time);
            assert_true(a.addr.data == b.addr.data);
            assert_true(a.addr.len == b.addr.len);
            assert_memory_equal(a.ip, b.ip, sizeof(a.ip));
            assert_int_equal(a.status, b.status);
        } else {
            assert_string_equal(a.bad, b.bad);
        }
        ra_test_exact_free(in);
    }
    /* the lines above read as they must, not only alike */
    in = RA_TEST_STR("192.0.2.7 - - [11/Oct/2000:00:00:04 +0100] "
                     "\"GET / HTTP/1.1\" 200 5");
    assert_int_equal(ra_logfmt_read(&f, &m, in, &a), RA_OK);
    assert_true(a.time == 971218804000LL);
    assert_int_equal(a.ip[10], 0xff);
    assert_int_equal(a.ip[15], 7);
    ra_test_exact_free(in);
}

int
main(void)
{
    const struct CMUnitTest  tests[] = {
        cmocka_unit_test_teardown(test_combined, teardown),
        cmocka_unit_test_teardown(test_common_and_dashes, teardown),
        cmocka_unit_test_teardown(test_request_shapes, teardown),
        cmocka_unit_test_teardown(test_escaped_quotes, teardown),
        cmocka_unit_test_teardown(test_offsets_and_dates, teardown),
        cmocka_unit_test_teardown(test_time_iso, teardown),
        cmocka_unit_test_teardown(test_truncated, teardown),
        cmocka_unit_test_teardown(test_garbage, teardown),
        cmocka_unit_test_teardown(test_real_logs, teardown),
        cmocka_unit_test_teardown(test_vhost_combined, teardown),
        cmocka_unit_test_teardown(test_trailing_xff, teardown),
        cmocka_unit_test_teardown(test_json, teardown),
        cmocka_unit_test_teardown(test_nginx_log_format, teardown),
        cmocka_unit_test_teardown(test_apache_log_format, teardown),
        cmocka_unit_test_teardown(test_realip, teardown),
        cmocka_unit_test_teardown(test_json_maps, teardown),
        cmocka_unit_test_teardown(test_text_formats, teardown),
        cmocka_unit_test_teardown(test_plausible, teardown),
        cmocka_unit_test_teardown(test_memo, teardown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
