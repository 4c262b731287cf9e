/* SPDX-License-Identifier: BSD-2-Clause */
/* A verdict's output: the JSON alert line written whole through the host
 * (short writes, EINTR, errors logged), capped, and enforce's refusal. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ra_test.h"
#include "ra_outcome.h"

typedef struct {
    ra_host_t  host;
    ra_alert_log_t  log;
    char       line[RA_HOST_LINE_MAX + 64];
    int        level;
    int        logged;
    void      *where;
    /* the file: what reached it, and how writes behave */
    char       out[2 * RA_ALERT_LINE_MAX];
    size_t     len;
    int        calls;
    size_t     chunk;           /* at most this much a write; 0: all */
    int        eintr;           /* EINTR before each of this many writes */
    int        fail;            /* this errno from the first write */
} sink_t;

static void
sink_log(const ra_host_t *h, void *where, ra_log_level_e level,
    ra_str_t line)
{
    sink_t  *c = h->ctx;

    memcpy(c->line, line.data, line.len);
    c->line[line.len] = '\0';
    c->level = (int) level;
    c->where = where;
    c->logged++;
}

static int
sink_write(void *file, const void *p, size_t *n)
{
    sink_t  *c = file;

    c->calls++;
    if (c->fail) {
        *n = 0;
        return c->fail;
    }
    if (c->eintr > 0) {
        c->eintr--;
        *n = 0;
        return EINTR;
    }
    if (c->chunk && *n > c->chunk) {
        *n = c->chunk;
    }
    assert_true(c->len + *n <= sizeof(c->out));
    memcpy(c->out + c->len, p, *n);
    c->len += *n;
    return 0;
}

static void
sink_init(sink_t *c)
{
    memset(c, 0, sizeof(*c));
    c->host.ctx = c;
    c->host.log = sink_log;
    c->host.heap = ra_malloc_allocator;
    c->log.write = sink_write;
    c->log.file = c;
    c->log.name = "alerts.json";
}

static void
fill(ra_request_t *r, ra_verdict_t *v, void *where)
{
    memset(r, 0, sizeof(*r));
    memset(v, 0, sizeof(*v));
    r->site = (ra_str_t) ra_string("example.com");
    r->time = 1700000000123LL;
    r->addr = (ra_str_t) ra_string("66.249.66.1");
    r->method = (ra_str_t) ra_string("GET");
    r->uri = (ra_str_t) ra_string("/private/x");
    r->where = where;
    v->verdict = RA_VERDICT_VIOLATION;
    v->verification = RA_VERIFY_VERIFIED;
    v->name = (ra_str_t) ra_string("Googlebot");
    v->line = 3;
    v->rule_type = RA_RULE_DISALLOW;
    v->alert = 1;
}

/* the line written is ra_alert_json()'s, whatever the writes do */
static void
alert_line_written_whole(void **state)
{
    ra_request_t  r;
    ra_verdict_t  v;
    ra_buf_t      want;
    sink_t        c;
    size_t        chunks[] = { 0, 1, 7 };
    size_t        i;
    int           where = 0;

    (void) state;
    fill(&r, &v, &where);
    ra_buf_init(&want, &ra_malloc_allocator, 0, 0);
    ra_alert_json(&want, &r, &v);

    for (i = 0; i < sizeof(chunks) / sizeof(chunks[0]); i++) {
        sink_init(&c);
        c.chunk = chunks[i];
        c.eintr = 2;
        ra_outcome_alert(&c.host, &r, &v, &c.log);
        assert_int_equal(c.len, want.len);
        assert_memory_equal(c.out, want.data, want.len);
        assert_int_equal(c.out[c.len - 1], '\n');
        /* the text line only: no write failed */
        assert_int_equal(c.logged, 1);
        assert_int_equal(c.level, RA_LOG_WARN);
    }
    assert_int_equal(c.calls, 2 + (int) ((want.len + 6) / 7));
    ra_buf_release(&want);
}

static void
alert_write_error_logged(void **state)
{
    ra_request_t  r;
    ra_verdict_t  v;
    sink_t        c;
    int           where = 0;

    (void) state;
    fill(&r, &v, &where);
    sink_init(&c);
    c.fail = ENOSPC;
    c.log.name = "/var/log/alerts.json";
    ra_outcome_alert(&c.host, &r, &v, &c.log);
    assert_int_equal(c.calls, 1);
    assert_int_equal(c.logged, 2);
    assert_int_equal(c.level, RA_LOG_ALERT);
    assert_ptr_equal(c.where, &where);
    assert_non_null(strstr(c.line, "robots-audit: [" RA_TAG_ALERT_LOG "] "
                           "cannot write the alert log "
                           "/var/log/alerts.json: "));
    assert_non_null(strstr(c.line, strerror(ENOSPC)));
}

/* the core's writer for a descriptor: a pipe gets the line, a closed
 * descriptor's errno is logged */
static void
alert_written_to_fd(void **state)
{
    ra_request_t  r;
    ra_verdict_t  v;
    ra_buf_t      want;
    sink_t        c;
    int           fds[2], where = 0;
    char          got[RA_ALERT_LINE_MAX];
    ssize_t       k;

    (void) state;
    fill(&r, &v, &where);
    ra_buf_init(&want, &ra_malloc_allocator, 0, 0);
    ra_alert_json(&want, &r, &v);
    assert_int_equal(pipe(fds), 0);
    sink_init(&c);
    c.log.write = ra_logfile_write_fd;
    c.log.file = &fds[1];
    ra_outcome_alert(&c.host, &r, &v, &c.log);
    assert_int_equal(c.logged, 1);
    k = read(fds[0], got, sizeof(got));
    assert_int_equal(k, (ssize_t) want.len);
    assert_memory_equal(got, want.data, want.len);
    (void) close(fds[0]);
    (void) close(fds[1]);

    /* closed: EBADF, said at alert */
    ra_outcome_alert(&c.host, &r, &v, &c.log);
    assert_int_equal(c.logged, 3);
    assert_int_equal(c.level, RA_LOG_ALERT);
    assert_non_null(strstr(c.line, strerror(EBADF)));
    ra_buf_release(&want);
}

/* no alert log, no alert, no writer: nothing written */
static void
alert_nothing_to_write(void **state)
{
    ra_request_t  r;
    ra_verdict_t  v;
    sink_t        c;

    (void) state;
    fill(&r, &v, NULL);
    sink_init(&c);
    ra_outcome_alert(&c.host, &r, &v, NULL);
    assert_int_equal(c.calls, 0);
    assert_int_equal(c.logged, 1);

    sink_init(&c);
    c.log.file = NULL;
    ra_outcome_alert(&c.host, &r, &v, &c.log);
    assert_int_equal(c.calls, 0);
    assert_int_equal(c.logged, 1);

    v.alert = 0;
    sink_init(&c);
    ra_outcome_alert(&c.host, &r, &v, &c.log);
    assert_int_equal(c.calls + c.logged, 0);

    v.alert = 1;
    sink_init(&c);
    c.log.write = NULL;
    ra_outcome_alert(&c.host, &r, &v, &c.log);
    assert_int_equal(c.calls, 0);
    assert_int_equal(c.logged, 1);
}

/* a line over the cap is not written at all (never torn) */
static void
alert_line_capped(void **state)
{
    static char   uri[RA_ALERT_LINE_MAX];
    ra_request_t  r;
    ra_verdict_t  v;
    ra_buf_t      want;
    sink_t        c;

    (void) state;
    fill(&r, &v, NULL);
    memset(uri, 0x01, sizeof(uri));
    r.uri = ra_str(uri, sizeof(uri));
    ra_buf_init(&want, &ra_malloc_allocator, 0, 0);
    ra_alert_json(&want, &r, &v);
    sink_init(&c);
    ra_outcome_alert(&c.host, &r, &v, &c.log);
    if (want.len > RA_ALERT_LINE_MAX) {
        assert_int_equal(c.calls, 0);
    } else {
        assert_int_equal(c.len, want.len);
    }
    ra_buf_release(&want);
}

static void
refusal_logged(void **state)
{
    ra_verdict_t  v;
    sink_t        c;
    int           where = 0;

    (void) state;
    memset(&v, 0, sizeof(v));
    sink_init(&c);
    assert_int_equal(ra_outcome_refused(&c.host, &where, &v), 0);
    assert_int_equal(c.logged, 0);
    v.refused = RA_REFUSE_VIOLATION;
    assert_int_equal(ra_outcome_refused(&c.host, &where, &v), 1);
    assert_int_equal(c.logged, 1);
    assert_int_equal(c.level, RA_LOG_INFO);
    assert_ptr_equal(c.where, &where);
    assert_string_equal(c.line, "robots-audit: [" RA_TAG_ENFORCED "] "
                        "refused: violation (enforce)");
}

/* a capture that ran out of memory is not handed to the engine (none is
 * given here: reaching it would crash), and that is said about the
 * request */
static void
robots_capture_failed(void **state)
{
    ra_request_t  r;
    ra_verdict_t  v;
    ra_capture_t  cap;
    sink_t        c;
    int           where = 0;

    (void) state;
    fill(&r, &v, &where);
    sink_init(&c);
    ra_capture_start(&cap, &ra_malloc_allocator, &ra_malloc_allocator, 200,
                     -1, ra_str(NULL, 0));
    ra_capture_fail(&cap);
    assert_int_equal(ra_outcome_robots(NULL, &c.host, &cap,
                                       ra_str(NULL, 0), ra_str(NULL, 0), &r,
                                       0, ra_str(NULL, 0), r.time),
                     RA_ENOMEM);
    assert_int_equal(c.logged, 1);
    assert_int_equal(c.level, RA_LOG_ERR);
    assert_ptr_equal(c.where, &where);
    assert_string_equal(c.line, "robots-audit: [" RA_TAG_NOMEM "] "
                        "out of memory capturing robots.txt");
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(alert_line_written_whole),
        cmocka_unit_test(alert_write_error_logged),
        cmocka_unit_test(alert_written_to_fd),
        cmocka_unit_test(alert_nothing_to_write),
        cmocka_unit_test(alert_line_capped),
        cmocka_unit_test(refusal_logged),
        cmocka_unit_test(robots_capture_failed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
