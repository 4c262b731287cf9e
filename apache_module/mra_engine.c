/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The engine a request is judged with.  An ra_audit_t (its caches) is not
 * thread-safe, so in a threaded MPM each thread makes its own on its
 * first request, sharing the child's impostor alert gate under the
 * thread mutex (ra_audit_conf_t.impostors_of); without the memory, a
 * thread uses the child's engine under that mutex.  mra_engine_take() and
 * mra_engine_give() (mra.h) choose; this file makes them.
 */
#include "mra.h"

static void
mra_tlock(void *ctx)
{
    (void) apr_thread_mutex_lock(((mra_state *) ctx)->tmutex);
}

static void
mra_tunlock(void *ctx)
{
    (void) apr_thread_mutex_unlock(((mra_state *) ctx)->tmutex);
}

/* this thread's engine (threaded MPMs): a thread's own, as its stack is
 * (every one made is in the state's engines, for the end) */
static _Thread_local ra_audit_t  *mra_mine;

static apr_status_t
mra_engines_cleanup(void *data)
{
    int         i;
    mra_state  *st = data;

    for (i = 0; st->engines != NULL && i < st->engines->nelts; i++) {
        ra_audit_destroy(APR_ARRAY_IDX(st->engines, i, ra_audit_t *));
    }
    st->engines = NULL;
    return APR_SUCCESS;
}

/* a thread's first request: its own engine, else the child's (locked) */
static __attribute__((noinline)) ra_audit_t *
mra_engine_first(mra_state *st)
{
    ra_audit_conf_t  conf;

    (void) apr_thread_mutex_lock(st->tmutex);
    if (st->engines != NULL) {
        conf = st->audit_conf;
        conf.impostors_of = st->audit;
        conf.impostors_lock.lock = mra_tlock;
        conf.impostors_lock.unlock = mra_tunlock;
        conf.impostors_lock.ctx = st;
        mra_mine = ra_audit_create(&conf, &st->ledger);
        if (mra_mine != NULL) {
            APR_ARRAY_PUSH(st->engines, ra_audit_t *) = mra_mine;
            (void) apr_thread_mutex_unlock(st->tmutex);
            return mra_mine;
        }
    }
    return st->audit;           /* the child's, under the mutex */
}

/* a threaded child's request: no frame for the first request's struct */
ra_audit_t *
mra_engine_thread(mra_state *st)
{
    if (mra_mine != NULL) {
        return mra_mine;
    }
    return mra_engine_first(st);
}

void
mra_engines_start(apr_pool_t *pchild, mra_state *st)
{
    st->engines = apr_array_make(pchild, 64, sizeof(ra_audit_t *));
    apr_pool_cleanup_register(pchild, st, mra_engines_cleanup,
                              apr_pool_cleanup_null);
}
