/* SPDX-License-Identifier: BSD-2-Clause */
/* A server's run with its configuration: the ledger's size, written or
 * the default; the logs its directives name
 * opened the same way in every server that opens its own (each to its
 * descriptor, the event stream's never waiting, a syslog stream on the
 * core's socket), and a log that cannot be opened stopping the start. */
#include <fcntl.h>
#include <sys/socket.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ra_test.h"
#include "ra_conf_run.h"
#include "ra_syslog.h"

typedef struct {
    ra_host_t          host;
    ra_test_log_t      log;
    ra_conf_main_t     main;
    ra_outcome_logs_t  logs;
    int                fds[RA_LOGFILES + 1];
    ra_test_arena_t   *arena;
    /* what the opener was asked, and whether it fails at which */
    unsigned           asked[RA_LOGFILES + 1];
    const char        *paths[RA_LOGFILES + 1];
    int                fail;
    int                pipe[2];
} run_t;

static run_t *
run_new(void)
{
    run_t  *r = calloc(1, sizeof(run_t));

    assert_non_null(r);
    r->arena = ra_test_arena_new();
    ra_test_host(&r->host, &r->log, NULL);
    ra_conf_main_init(&r->main, &r->host, ra_test_arena_alloc(r->arena));
    r->fail = -1;
    r->pipe[0] = r->pipe[1] = -1;
    return r;
}

static void
run_free(run_t *r)
{
    if (r->pipe[0] >= 0) {
        close(r->pipe[0]);
        close(r->pipe[1]);
    }
    ra_test_arena_free(r->arena);
    free(r);
}

/* the server's opener: a pipe's end for every log */
static int
opener(void *ctx, unsigned which, const char *path, int *fd)
{
    run_t  *r = ctx;

    r->asked[which]++;
    r->paths[which] = path;
    if ((int) which == r->fail) {
        return RA_ERROR;
    }
    if (r->pipe[0] < 0) {
        assert_int_equal(pipe(r->pipe), 0);
    }
    *fd = r->pipe[1];
    return RA_OK;
}

static void
zone_size_or_default(void **state)
{
    run_t  *r = run_new();

    (void) state;
    assert_int_equal(ra_conf_zone_size(&r->main), RA_ZONE_SIZE_DEFAULT);
    r->main.zone_size = 64u * 1024;
    assert_int_equal(ra_conf_zone_size(&r->main), 64u * 1024);
    run_free(r);
}

static void
nothing_configured(void **state)
{
    run_t  *r = run_new();

    (void) state;
    r->logs.alert.file = r->logs.evidence.file = &r->fds[0];
    assert_int_equal(ra_conf_logs_open(&r->main, &r->logs, r->fds, &r->host,
                                       opener, r), RA_OK);
    assert_int_equal(r->asked[0] + r->asked[1] + r->asked[2], 0);
    assert_false(ra_logfile_open(&r->logs.alert));
    assert_false(ra_logfile_open(&r->logs.evidence));
    assert_false(ra_logfile_open(&r->main.events.log));
    assert_int_equal(r->log.n, 0);
    run_free(r);
}

static void
each_to_its_descriptor(void **state)
{
    run_t  *r = run_new();

    (void) state;
    r->main.alert_log = "/var/log/alerts.json";
    r->main.events_to = "|/usr/bin/collect";
    assert_int_equal(ra_conf_logs_open(&r->main, &r->logs, r->fds, &r->host,
                                       opener, r), RA_OK);
    assert_int_equal(r->asked[RA_LOGFILE_ALERT], 1);
    assert_int_equal(r->asked[RA_LOGFILE_EVIDENCE], 0);
    assert_int_equal(r->asked[RA_LOGFILE_EVENTS], 1);
    assert_string_equal(r->paths[RA_LOGFILE_EVENTS], "|/usr/bin/collect");

    assert_ptr_equal(r->logs.alert.file, &r->fds[RA_LOGFILE_ALERT]);
    assert_ptr_equal(r->logs.alert.write, ra_logfile_write_fd);
    assert_string_equal(r->logs.alert.name, "/var/log/alerts.json");
    assert_false(ra_logfile_open(&r->logs.evidence));
    assert_ptr_equal(r->main.events.log.file, &r->fds[RA_LOGFILE_EVENTS]);
    assert_ptr_equal(r->main.events.log.write, ra_logfile_write_fd);
    assert_string_equal(r->main.events.log.name, "|/usr/bin/collect");
    /* the event stream never waits for its reader */
    assert_true(fcntl(r->fds[RA_LOGFILE_EVENTS], F_GETFL) & O_NONBLOCK);
    assert_int_equal(r->log.n, 0);
    run_free(r);
}

static void
unopened_stops(void **state)
{
    run_t  *r = run_new();

    (void) state;
    r->main.alert_log = "/a";
    r->main.evidence_log = "/e";
    r->main.events_to = "/x";
    r->fail = RA_LOGFILE_EVIDENCE;
    assert_int_equal(ra_conf_logs_open(&r->main, &r->logs, r->fds, &r->host,
                                       opener, r), RA_ERROR);
    assert_int_equal(r->asked[RA_LOGFILE_EVIDENCE], 1);
    assert_int_equal(r->asked[RA_LOGFILE_EVENTS], 0);   /* not asked */
    assert_false(ra_logfile_open(&r->logs.evidence));
    run_free(r);
}

static void
syslog_on_the_core_socket(void **state)
{
    run_t     *r = run_new();
    ra_buf_t   msg;

    (void) state;
    ra_buf_init(&msg, &r->host.heap, 0, 0);
    r->main.events_to = "syslog:server=127.0.0.1:9";
    assert_int_equal(ra_syslog_parse(&r->main.events_syslog,
                                     ra_str_z(r->main.events_to), "ra",
                                     &msg), RA_OK);
    assert_int_equal(ra_conf_logs_open(&r->main, &r->logs, r->fds, &r->host,
                                       opener, r), RA_OK);
    assert_int_equal(r->asked[RA_LOGFILE_EVENTS], 0);
    assert_ptr_equal(r->main.events.log.file, &r->main.events_syslog);
    assert_ptr_equal(r->main.events.log.write, ra_syslog_write);
    assert_int_equal(ra_conf_events_close(&r->main), 0);
    assert_false(ra_logfile_open(&r->main.events.log));

    /* a socket that cannot be opened (of a family the system has not):
     * said, and the start stops */
    r->main.events_syslog.addr.ss_family = AF_MAX;
    assert_int_equal(ra_conf_logs_open(&r->main, &r->logs, r->fds, &r->host,
                                       opener, r), RA_ERROR);
    assert_int_equal(r->log.n, 1);
    assert_int_equal(r->log.levels[0], RA_LOG_EMERG);
    assert_non_null(strstr(r->log.lines[0], "[" RA_TAG_EVENTS "] cannot "
                           "open the event stream syslog:server=127.0.0.1:9: "));
    ra_buf_release(&msg);
    run_free(r);
}

int
main(void)
{
    const struct CMUnitTest  tests[] = {
        cmocka_unit_test(zone_size_or_default),
        cmocka_unit_test(nothing_configured),
        cmocka_unit_test(each_to_its_descriptor),
        cmocka_unit_test(unopened_stops),
        cmocka_unit_test(syslog_on_the_core_socket),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
