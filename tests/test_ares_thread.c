/* SPDX-License-Identifier: BSD-2-Clause */
/* The resolver thread: a queued address comes back to the callback once
 * its lookup ends (here against a server that answers nothing), a bad
 * server is refused with a reason, and the host's rdns_start reaches the
 * thread through rdns_ctx; a server's start and stop of its thread set
 * and clear the host's reverse DNS, and say why one could not start. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ra_test.h"
#include "resolver/ra_ares_thread.h"

typedef struct {
    pthread_mutex_t  mu;
    pthread_cond_t   cv;
    int              answers;
    uint8_t          last[16];
    int              ok;
} answers_t;

static void
answered(void *ctx, const ra_addr_t *a, const ra_ares_result_t *res)
{
    answers_t  *x = ctx;

    pthread_mutex_lock(&x->mu);
    memcpy(x->last, a->b, 16);
    x->ok = res->ok;
    x->answers++;
    pthread_cond_signal(&x->cv);
    pthread_mutex_unlock(&x->mu);
}

/* waits up to 10 s for n answers */
static int
wait_answers(answers_t *x, int n)
{
    struct timespec  until;
    int              got;

    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 10;
    pthread_mutex_lock(&x->mu);
    while (x->answers < n
           && pthread_cond_timedwait(&x->cv, &x->mu, &until) == 0)
    {
        /* woken: count again */
    }
    got = x->answers;
    pthread_mutex_unlock(&x->mu);
    return got;
}

static const uint8_t  doc_addr[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                       0xff, 0xff, 192, 0, 2, 1 };

static void
lookup_answered(void **state)
{
    answers_t          x = { PTHREAD_MUTEX_INITIALIZER,
                             PTHREAD_COND_INITIALIZER, 0, { 0 }, -1 };
    char               err[256];
    ra_ares_thread_t  *t;
    ra_host_t          h;

    (void) state;
    /* the discard port: nobody answers, the lookup fails within its
     * bound */
    t = ra_ares_thread_create("127.0.0.1:9", 50, answered, &x, err,
                              sizeof(err));
    assert_non_null(t);

    memset(&h, 0, sizeof(h));
    assert_int_equal(ra_ares_thread_rdns_start(&h, NULL, doc_addr),
                     RA_ERROR);             /* no thread in the host */
    h.rdns_ctx = t;
    assert_int_equal(ra_ares_thread_rdns_start(&h, NULL, doc_addr), RA_OK);

    assert_int_equal(wait_answers(&x, 1), 1);
    assert_memory_equal(x.last, doc_addr, 16);
    assert_int_equal(x.ok, 0);
    ra_ares_thread_destroy(t);
}

static void
queue_bounded(void **state)
{
    answers_t          x = { PTHREAD_MUTEX_INITIALIZER,
                             PTHREAD_COND_INITIALIZER, 0, { 0 }, -1 };
    char               err[256];
    ra_ares_thread_t  *t;
    int                i, queued = 0;

    (void) state;
    t = ra_ares_thread_create("127.0.0.1:9", 50, answered, &x, err,
                              sizeof(err));
    assert_non_null(t);
    /* the thread takes one at a time: at most the queue and the one under
     * way are accepted, the rest refused */
    for (i = 0; i < 4 * RA_ARES_THREAD_QUEUE; i++) {
        queued += ra_ares_thread_start(t, doc_addr) == RA_OK;
    }
    assert_true(queued >= RA_ARES_THREAD_QUEUE);
    assert_true(queued < 4 * RA_ARES_THREAD_QUEUE);
    /* stopping drops what waits and joins the thread */
    ra_ares_thread_destroy(t);
    assert_true(x.answers < queued);
    ra_ares_thread_destroy(NULL);
}

static void
bad_server_refused(void **state)
{
    char  err[256] = "";

    (void) state;
    assert_null(ra_ares_thread_create("not an address", 50, answered, NULL,
                                      err, sizeof(err)));
    assert_true(err[0] != '\0');
}

static void
check_says_why(void **state)
{
    char  err[256] = "";

    (void) state;
    assert_int_equal(ra_ares_check("127.0.0.1:9", err, sizeof(err)), RA_OK);
    assert_int_equal(ra_ares_check("not an address", err, sizeof(err)),
                     RA_ERROR);
    assert_true(err[0] != '\0');
}

static void
host_start_stop(void **state)
{
    ra_host_t       h;
    ra_audit_t     *au = NULL;
    ra_test_log_t  *log = calloc(1, sizeof(*log));

    (void) state;
    assert_non_null(log);
    ra_test_host(&h, log, NULL);

    /* no resolver directive: off, and nothing said */
    assert_int_equal(ra_ares_thread_host_start(&h, NULL, &au), RA_ERROR);
    assert_null(h.rdns_start);
    assert_int_equal(log->n, 0);

    /* one that cannot start: said, and off */
    assert_int_equal(ra_ares_thread_host_start(&h, "not an address", &au),
                     RA_ERROR);
    assert_null(h.rdns_start);
    assert_null(h.rdns_ctx);
    assert_int_equal(log->n, 1);
    assert_int_equal(log->levels[0], RA_LOG_ERR);
    assert_non_null(strstr(log->lines[0], "[" RA_TAG_RDNS_OFF "] "
                           "RobotsAuditResolver not an address: "));
    assert_non_null(strstr(log->lines[0],
                           "; reverse-DNS verification is off"));

    /* started: the host's rdns_start reaches the thread until stopped */
    assert_int_equal(ra_ares_thread_host_start(&h, "127.0.0.1:9", &au),
                     RA_OK);
    assert_ptr_equal(h.rdns_start, ra_ares_thread_rdns_start);
    assert_non_null(h.rdns_ctx);
    assert_int_equal(ra_ares_thread_host_stop(&h), 0);
    assert_null(h.rdns_start);
    assert_null(h.rdns_ctx);
    assert_int_equal(log->n, 1);
    free(log);
}

int
main(void)
{
    const struct CMUnitTest  tests[] = {
        cmocka_unit_test(lookup_answered),
        cmocka_unit_test(queue_bounded),
        cmocka_unit_test(bad_server_refused),
        cmocka_unit_test(check_says_why),
        cmocka_unit_test(host_start_stop),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
