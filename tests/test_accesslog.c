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
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
