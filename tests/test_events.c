/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The event stream: a request's and a robots.txt answer's lines read back
 * to the same values, through a syslog header too; a body goes out once
 * per writer until it is due again; a full transport drops and counts,
 * and a torn line is ended before the next; hostile lines (forged keys,
 * nesting, repeated keys, bad digests and bodies, oversize) are refused
 * whole.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ra_test.h"
#include "ra_digest.h"
#include "ra_events.h"
#include "ra_verify.h"

#define T0  (1700000000000LL)

static ra_str_t
S(const char *s)
{
    return ra_str(s, strlen(s));
}

static void
assert_span(ra_str_t got, const char *want)
{
    assert_int_equal(got.len, strlen(want));
    assert_memory_equal(got.data, want, got.len);
}

/* reads back the line in b (its newline cut) */
static int
read_back(const ra_buf_t *b, size_t from, unsigned char **scratch,
    ra_event_t *ev)
{
    ra_str_t  line = ra_str(b->data + from, b->len - from);

    assert_true(line.len > 0 && line.data[line.len - 1] == '\n');
    line.len--;
    *scratch = malloc(line.len + 1);
    return ra_events_read(line, *scratch, line.len + 1, ev);
}

static void
request_round_trip(void **state)
{
    ra_request_t    r;
    ra_verdict_t    v;
    ra_buf_t        b;
    ra_event_t      ev;
    unsigned char  *scratch;
    unsigned        i;

    (void) state;
    memset(&r, 0, sizeof(r));
    memset(&v, 0, sizeof(v));
    r.site = S("example.com");
    r.time = T0 + 123;
    r.addr = S("66.249.66.1");
    r.user_agent = S("Googlebot/2.1 \"},\"ev\":\"robots\" \xc3\xa9");
    r.method = S("GET");
    r.uri = S("/private/x?a=\"1\"\n");
    r.referer = S("https://r.example/");
    r.status = 200;
    r.recorded = 1;
    v.verdict = RA_VERDICT_VIOLATION;
    v.verification = RA_VERIFY_VERIFIED;
    v.sha_known = 1;
    for (i = 0; i < 32; i++) {
        v.robots_sha256[i] = (unsigned char) (i * 7);
    }
    ra_buf_init(&b, &ra_malloc_allocator, 0, 0);
    ra_events_request_line(&b, &r, &v);
    assert_null(memchr(b.data, '\n', b.len - 1));
    assert_int_equal(read_back(&b, 0, &scratch, &ev), RA_OK);
    assert_int_equal(ev.kind, RA_EVENT_REQUEST);
    assert_int_equal(ev.time, T0 + 123);
    assert_span(ev.site, "example.com");
    assert_span(ev.client, "66.249.66.1");
    assert_span(ev.user_agent, "Googlebot/2.1 \"},\"ev\":\"robots\" \xc3\xa9");
    assert_span(ev.method, "GET");
    assert_span(ev.uri, "/private/x?a=\"1\"\n");
    assert_span(ev.referer, "https://r.example/");
    assert_int_equal(ev.status, 200);
    assert_int_equal(ev.recorded, 1);
    assert_span(ev.verdict, "violation");
    assert_span(ev.verification, "verified");
    assert_true(ev.sha_known);
    assert_memory_equal(ev.sha256, v.robots_sha256, 32);
    free(scratch);

    /* no SHA-256 known: null, and read back as not known */
    v.sha_known = 0;
    b.len = 0;
    ra_events_request_line(&b, &r, &v);
    assert_non_null(strstr((char *) b.data, "\"robots_sha256\":null"));
    assert_int_equal(read_back(&b, 0, &scratch, &ev), RA_OK);
    assert_false(ev.sha_known);
    free(scratch);
    ra_buf_release(&b);
}

static void
robots_round_trip(void **state)
{
    ra_request_t    r;
    ra_answer_t     ans;
    ra_buf_t        b;
    ra_event_t      ev;
    unsigned char   sha[32], *scratch, *body;
    size_t          i, n = 200000;

    (void) state;
    body = malloc(n);
    for (i = 0; i < n; i++) {
        body[i] = (unsigned char) (i * 31 + (i >> 8));    /* any bytes */
    }
    memset(&r, 0, sizeof(r));
    r.addr = S("2001:db8::1");
    r.user_agent = S("bingbot");
    r.method = S("GET");
    r.uri = S("/robots.txt");
    memset(&ans, 0, sizeof(ans));
    ans.status = 200;
    ans.content_type = S("text/plain; charset=utf-8");
    ans.body = ra_str(body, n);
    ans.size = 4000;
    ans.truncated = 1;
    ans.req = &r;
    assert_int_equal(ra_sha256(ans.body, sha), RA_OK);

    ra_buf_init(&b, &ra_malloc_allocator, 0, 0);
    ra_events_robots_line(&b, S("example.org"), &ans, sha, 1, T0 + 5);
    assert_int_equal(read_back(&b, 0, &scratch, &ev), RA_OK);
    assert_int_equal(ev.kind, RA_EVENT_ROBOTS);
    assert_int_equal(ev.time, T0 + 5);
    assert_span(ev.site, "example.org");
    assert_span(ev.client, "2001:db8::1");
    assert_span(ev.user_agent, "bingbot");
    assert_span(ev.uri, "/robots.txt");
    assert_span(ev.content_type, "text/plain; charset=utf-8");
    assert_int_equal(ev.status, 200);
    assert_int_equal(ev.size, 4000);
    assert_true(ev.truncated);
    assert_false(ev.undecodable);
    assert_true(ev.sha_known);
    assert_memory_equal(ev.sha256, sha, 32);
    assert_true(ev.has_body);
    assert_int_equal(ev.body.len, n);
    assert_memory_equal(ev.body.data, body, n);
    free(scratch);

    /* without the body (sent before), and the configured file's answer
     * (no request) */
    b.len = 0;
    ans.req = NULL;
    ans.initial = 1;
    ra_events_robots_line(&b, S("example.org"), &ans, sha, 0, T0 + 6);
    assert_int_equal(read_back(&b, 0, &scratch, &ev), RA_OK);
    assert_false(ev.has_body);
    assert_int_equal(ev.client.len, 0);
    free(scratch);
    ra_buf_release(&b);
    free(body);
}

static void
syslog_frames(void **state)
{
    static const char *const  frames[] = {
        "<190>Nov 29 02:20:00 web1 robots_audit: {\"ev\":\"req\",\"t\":5,"
        "\"site\":\"a.example\",\"uri\":\"/\",\"status\":200}",
        "<190>1 2026-11-29T02:20:00Z web1 nginx - - - {\"ev\":\"req\","
        "\"t\":5,\"site\":\"a.example\",\"uri\":\"/\",\"status\":200}\r",
        "123 <14>Nov 29 02:20:00 web1 tag: {\"ev\":\"req\",\"t\":5,"
        "\"site\":\"a.example\",\"uri\":\"/\",\"status\":200}",
        "{\"ev\":\"req\",\"t\":5,\"site\":\"a.example\",\"uri\":\"/\","
        "\"status\":200,\"future\":\"x\"}",
    };
    unsigned char  scratch[512];
    ra_event_t     ev;
    size_t         i;

    (void) state;
    for (i = 0; i < sizeof(frames) / sizeof(frames[0]); i++) {
        assert_int_equal(ra_events_read(S(frames[i]), scratch,
                                         sizeof(scratch), &ev), RA_OK);
        assert_span(ev.site, "a.example");
        assert_int_equal(ev.time, 5);
    }
}

static void
hostile_lines(void **state)
{
    static const char *const  bad[] = {
        "",
        "<190>Nov 29 02:20:00 web1 tag: no object",
        "{\"ev\":\"req\",\"t\":5,\"site\":\"a\",\"uri\":\"/\"",
        "{\"ev\":\"req\",\"t\":5,\"site\":\"a\",\"uri\":\"/\",\"status\":200"
        ",\"site\":\"b\"}",
        "{\"ev\":\"req\",\"t\":5,\"site\":{\"x\":1},\"uri\":\"/\","
        "\"status\":200}",
        "{\"ev\":\"hack\",\"t\":5,\"site\":\"a\",\"uri\":\"/\","
        "\"status\":200}",
        "{\"ev\":\"req\",\"t\":-5,\"site\":\"a\",\"uri\":\"/\","
        "\"status\":200}",
        "{\"ev\":\"req\",\"t\":5.5,\"site\":\"a\",\"uri\":\"/\","
        "\"status\":200}",
        "{\"ev\":\"req\",\"t\":5,\"site\":\"a\",\"uri\":\"/\","
        "\"status\":2000}",
        "{\"ev\":\"req\",\"t\":5,\"site\":\"\",\"uri\":\"/\","
        "\"status\":200}",
        "{\"ev\":\"req\",\"t\":5,\"site\":\"a\",\"status\":200}",
        "{\"ev\":\"req\",\"t\":5,\"site\":\"a\",\"uri\":\"/\","
        "\"status\":200,\"robots_sha256\":\"abc\"}",
        "{\"ev\":\"robots\",\"t\":5,\"site\":\"a\",\"status\":200,"
        "\"body\":\"not base64!\"}",
        "{\"ev\":\"req\",\"t\":5,\"site\":\"a\",\"uri\":\"/\","
        "\"status\":\"200\"}",
        "{\"ev\":\"req\",\"t\":5,\"site\":\"a\",\"uri\":\"/\","
        "\"status\":200}{}",
    };
    unsigned char  scratch[512], *big;
    ra_event_t     ev;
    size_t         i, n;

    (void) state;
    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        assert_int_equal(ra_events_read(S(bad[i]), scratch, sizeof(scratch),
                                         &ev), RA_ERROR);
        assert_int_equal(ev.kind, RA_EVENT_NONE);
    }
    /* too long a line, and too long a field */
    n = RA_EVENTS_LINE_MAX + 1;
    big = malloc(n);
    memset(big, 'a', n);
    assert_int_equal(ra_events_read(ra_str(big, n), big, n, &ev), RA_ELIMIT);
    n = (size_t) snprintf((char *) big, RA_EVENTS_LINE_MAX,
                          "{\"ev\":\"req\",\"t\":5,\"site\":\"a\",\"uri\":\"/"
                          "%0*d\",\"status\":200}", RA_EVENTS_FIELD_MAX, 0);
    assert_int_equal(ra_events_read(ra_str(big, n), scratch, sizeof(scratch),
                                    &ev), RA_ERROR);
    free(big);
}

typedef struct {
    unsigned char  got[4097];
    size_t         len;
    size_t         take;                /* bytes the next write takes */
    int            err;
} sink_t;

static int
sink_write(void *file, const void *p, size_t *n)
{
    sink_t  *s = file;

    if (s->err) {
        *n = 0;
        return s->err;
    }
    if (*n > s->take) {
        *n = s->take;
    }
    memcpy(s->got + s->len, p, *n);
    s->len += *n;
    return 0;
}

static void
writer_drops_and_bodies(void **state)
{
    ra_events_t    w;
    sink_t         s;
    ra_request_t   r;
    ra_verdict_t   v;
    ra_answer_t    ans;
    unsigned char  sha[32];

    (void) state;
    memset(&w, 0, sizeof(w));
    memset(&s, 0, sizeof(s));
    memset(&r, 0, sizeof(r));
    memset(&v, 0, sizeof(v));
    w.log.write = sink_write;
    w.log.file = &s;
    r.site = S("a.example");
    r.uri = S("/x");
    s.take = sizeof(s.got) - 1;
    ra_events_request(&w, &ra_malloc_allocator, &r, &v);
    assert_int_equal(w.written, 1);
    assert_int_equal(s.got[0], '{');
    assert_int_equal(s.got[s.len - 1], '\n');

    /* a full socket: dropped and counted, never waited for */
    s.err = EAGAIN;
    ra_events_request(&w, &ra_malloc_allocator, &r, &v);
    assert_int_equal(w.dropped, 1);
    assert_int_equal(w.written, 1);

    /* a part taken: torn, and the next line starts on a line of its own */
    s.err = 0;
    s.len = 0;
    s.take = 10;
    ra_events_request(&w, &ra_malloc_allocator, &r, &v);
    assert_int_equal(w.dropped, 2);
    s.take = sizeof(s.got) - 1;
    ra_events_request(&w, &ra_malloc_allocator, &r, &v);
    assert_int_equal(w.written, 2);
    assert_int_equal(s.got[10], '\n');
    assert_int_equal(s.got[11], '{');

    /* a body once, then not until it is due again */
    memset(sha, 9, sizeof(sha));
    assert_true(ra_events_body_due(&w, sha, T0));
    assert_false(ra_events_body_due(&w, sha, T0 + 1000));
    assert_true(ra_events_body_due(&w, sha, T0 + RA_EVENTS_BODY_RESEND));
    memset(&ans, 0, sizeof(ans));
    ans.status = 200;
    ans.body = S("User-agent: *\nDisallow: /p\n");
    s.len = 0;
    ra_events_robots(&w, &ra_malloc_allocator, S("a.example"), &ans, T0);
    s.got[s.len] = '\0';
    assert_non_null(strstr((char *) s.got, "\"body\":"));
    s.len = 0;
    ra_events_robots(&w, &ra_malloc_allocator, S("a.example"), &ans, T0 + 1);
    s.got[s.len] = '\0';
    assert_null(strstr((char *) s.got, "\"body\":"));

    /* no stream: nothing */
    w.log.file = NULL;
    assert_false(ra_events_on(&w));
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(request_round_trip),
        cmocka_unit_test(robots_round_trip),
        cmocka_unit_test(syslog_frames),
        cmocka_unit_test(hostile_lines),
        cmocka_unit_test(writer_drops_and_bodies),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
