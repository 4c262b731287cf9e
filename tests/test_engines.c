/* SPDX-License-Identifier: BSD-2-Clause */
/* A threaded process's engines: each thread gets its own, the same one on
 * every request, never the process's while memory lasts; the process's
 * engine is the fallback; destroying them leaves the process's. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "ra_test.h"
#include "ra_engines.h"
#include "ra_setup.h"

#define THREADS  4

typedef struct {
    ra_test_arena_t  *arena;
    ra_host_t         host;
    ra_setup_t        setup;
    ra_audit_conf_t   conf;
    void             *region;
    ra_ledger_t       ledger;
    ra_audit_t       *proc;
    ra_engines_t     *e;
} fx_t;

static void
fx_init(fx_t *f)
{
    ra_buf_t           why;
    ra_setup_values_t  v;
    size_t             size = 2u * 1024 * 1024;

    memset(f, 0, sizeof(*f));
    f->arena = ra_test_arena_new();
    f->host.heap = ra_malloc_allocator;
    ra_setup_init(&f->setup, &f->host, ra_test_arena_alloc(f->arena));
    ra_buf_init(&why, &ra_malloc_allocator, 0, 0);
    assert_int_equal(ra_setup_compile(&f->setup, &why), RA_OK);
    ra_buf_release(&why);
    memset(&v, 0, sizeof(v));
    v.alert_interval = -1;
    ra_setup_audit_conf(&f->conf, &f->setup, &f->host, (ra_str_t) ra_string("zone"), &v);
    f->region = malloc(size);
    assert_int_equal(ra_ledger_format(f->region, size, 0), RA_OK);
    ra_ledger_open(&f->ledger, f->region, NULL);
    f->proc = ra_audit_create(&f->conf, &f->ledger);
    assert_non_null(f->proc);
    f->e = ra_engines_create(f->proc, &f->conf, &f->ledger);
    assert_non_null(f->e);
}

static void
fx_free(fx_t *f)
{
    ra_engines_destroy(f->e);
    ra_audit_destroy(f->proc);
    free(f->region);
    ra_test_arena_free(f->arena);
}

typedef struct {
    fx_t        *f;
    ra_audit_t  *first, *second;
} job_t;

static void *
job_run(void *data)
{
    job_t  *j = data;

    j->first = ra_engines_take(j->f->e);
    ra_engines_give(j->f->e, j->first);
    j->second = ra_engines_take(j->f->e);
    ra_engines_give(j->f->e, j->second);
    return NULL;
}

/* the queue of a process's threads: a mutex that locks and unlocks */
static void
queue_mutex(void **state)
{
    pthread_mutex_t  mu;

    (void) state;
    assert_int_equal(ra_engines_mutex_init(&mu), RA_OK);
    assert_int_equal(pthread_mutex_lock(&mu), 0);
    assert_int_equal(pthread_mutex_trylock(&mu), EBUSY);
    assert_int_equal(pthread_mutex_unlock(&mu), 0);
    assert_int_equal(pthread_mutex_destroy(&mu), 0);
}

static void
each_thread_its_own(void **state)
{
    fx_t       f;
    job_t      jobs[THREADS];
    pthread_t  t[THREADS];
    int        i, k;

    (void) state;
    fx_init(&f);
    for (i = 0; i < THREADS; i++) {
        jobs[i].f = &f;
        assert_int_equal(pthread_create(&t[i], NULL, job_run, &jobs[i]), 0);
    }
    for (i = 0; i < THREADS; i++) {
        assert_int_equal(pthread_join(t[i], NULL), 0);
    }
    for (i = 0; i < THREADS; i++) {
        assert_non_null(jobs[i].first);
        assert_ptr_not_equal(jobs[i].first, f.proc);
        assert_ptr_equal(jobs[i].first, jobs[i].second);
        for (k = 0; k < i; k++) {
            assert_ptr_not_equal(jobs[i].first, jobs[k].first);
        }
    }
    fx_free(&f);
}

static void
this_thread_too(void **state)
{
    fx_t         f;
    ra_audit_t  *a, *b;

    (void) state;
    fx_init(&f);
    a = ra_engines_take(f.e);
    ra_engines_give(f.e, a);
    b = ra_engines_take(f.e);
    ra_engines_give(f.e, b);
    assert_ptr_not_equal(a, f.proc);
    assert_ptr_equal(a, b);
    ra_engines_destroy(NULL);
    fx_free(&f);
}

static void *
no_memory(void *ctx, size_t size)
{
    (void) ctx;
    (void) size;
    return NULL;
}

/* without the memory for its own, a thread judges with the process's,
 * which it gives back (else the second take would wait for ever) */
static void
fallback_to_the_process(void **state)
{
    fx_t             f;
    ra_audit_conf_t  conf;
    ra_alloc_t       none = { no_memory, NULL, NULL };
    int              i;

    (void) state;
    fx_init(&f);
    ra_engines_destroy(f.e);
    conf = f.conf;
    conf.alloc = &none;
    f.e = ra_engines_create(f.proc, &conf, &f.ledger);
    assert_non_null(f.e);
    for (i = 0; i < 2; i++) {
        assert_ptr_equal(ra_engines_take(f.e), f.proc);
        ra_engines_give(f.e, f.proc);
    }
    fx_free(&f);
}

/* an unthreaded process has no engines: the process's own, no mutex,
 * nothing given back; a threaded one's take_or is its take */
static void
take_or_the_process(void **state)
{
    fx_t         f;
    ra_audit_t  *a;

    (void) state;
    fx_init(&f);
    assert_ptr_equal(ra_engines_take_or(NULL, f.proc), f.proc);
    ra_engines_give(NULL, f.proc);
    assert_ptr_equal(ra_engines_take_or(NULL, f.proc), f.proc);
    ra_engines_give(NULL, f.proc);
    a = ra_engines_take_or(f.e, f.proc);
    assert_ptr_not_equal(a, f.proc);
    ra_engines_give(f.e, a);
    assert_ptr_equal(ra_engines_take_or(f.e, f.proc), a);
    ra_engines_give(f.e, a);
    fx_free(&f);
}

/* the outer lock of a threaded process: taken and given once a turn,
 * behind the process's queue when there is one */
static void
outer_count(void *ctx)
{
    (*(int *) ctx)++;
}

static void
ledger_lock_queued(void **state)
{
    int                n = 0;
    ra_engines_lock_t  lk;

    (void) state;
    memset(&lk, 0, sizeof(lk));
    lk.outer.lock = outer_count;
    lk.outer.unlock = outer_count;
    lk.outer.ctx = &n;
    ra_engines_ledger_lock(&lk);            /* unthreaded: outer alone */
    ra_engines_ledger_unlock(&lk);
    assert_int_equal(n, 2);
    assert_int_equal(ra_engines_mutex_init(&lk.queue), RA_OK);
    lk.queued = 1;
    ra_engines_ledger_lock(&lk);
    assert_int_equal(pthread_mutex_trylock(&lk.queue), EBUSY);
    ra_engines_ledger_unlock(&lk);
    assert_int_equal(n, 4);
    assert_int_equal(pthread_mutex_trylock(&lk.queue), 0);
    (void) pthread_mutex_unlock(&lk.queue);
    (void) pthread_mutex_destroy(&lk.queue);
}

/* a threaded process's start: h's lock goes through the queue, and each
 * thread gets its own engine */
static void
started_threaded(void **state)
{
    int                n = 0;
    fx_t               f;
    ra_audit_t        *a;
    ra_engines_t      *e;
    ra_engines_lock_t  lk;

    (void) state;
    fx_init(&f);
    ra_engines_lock_init(&lk, &f.host, outer_count, outer_count, &n);
    f.host.lock.lock(f.host.lock.ctx);      /* not started: outer alone */
    f.host.lock.unlock(f.host.lock.ctx);
    assert_int_equal(n, 2);
    assert_false(lk.queued);

    assert_int_equal(ra_engines_start(&e, f.proc, &f.conf, &f.ledger, &lk,
                                      &f.host), RA_OK);
    assert_non_null(e);
    assert_true(lk.queued);
    f.host.lock.lock(f.host.lock.ctx);
    assert_int_equal(pthread_mutex_trylock(&lk.queue), EBUSY);
    f.host.lock.unlock(f.host.lock.ctx);
    assert_int_equal(n, 4);
    a = ra_engines_take_or(e, f.proc);
    assert_ptr_not_equal(a, f.proc);
    ra_engines_give(e, a);
    ra_engines_destroy(e);
    (void) pthread_mutex_destroy(&lk.queue);
    fx_free(&f);
}

int
main(void)
{
    const struct CMUnitTest  tests[] = {
        cmocka_unit_test(queue_mutex),
        cmocka_unit_test(ledger_lock_queued),
        cmocka_unit_test(started_threaded),
        cmocka_unit_test(each_thread_its_own),
        cmocka_unit_test(this_thread_too),
        cmocka_unit_test(fallback_to_the_process),
        cmocka_unit_test(take_or_the_process),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
