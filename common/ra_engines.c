/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Each thread's engine (ra_engines.h): a thread-specific pointer to it,
 * and every engine made, under the process's mutex, for the end.
 */
/* glibc names its adaptive mutex only for GNU sources */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "ra_engines.h"

struct ra_engines_s {
    pthread_mutex_t   mu;           /* the gate's, and proc's fallback */
    pthread_key_t     mine;         /* this thread's engine */
    ra_audit_t       *proc;
    ra_audit_conf_t   conf;         /* for each thread's, gate shared */
    ra_ledger_t      *ledger;
    ra_audit_t      **made;         /* every thread's, for the end */
    size_t            n, cap;
};

static void
ra_engines_lock(void *ctx)
{
    (void) pthread_mutex_lock(&((ra_engines_t *) ctx)->mu);
}

static void
ra_engines_unlock(void *ctx)
{
    (void) pthread_mutex_unlock(&((ra_engines_t *) ctx)->mu);
}

int
ra_engines_mutex_init(pthread_mutex_t *mu)
{
    int                  rc;
    pthread_mutexattr_t  attr;

    if (pthread_mutexattr_init(&attr) != 0) {
        return RA_ERROR;
    }
#ifdef PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP
    (void) pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ADAPTIVE_NP);
#endif
    rc = pthread_mutex_init(mu, &attr);
    (void) pthread_mutexattr_destroy(&attr);
    return rc == 0 ? RA_OK : RA_ERROR;
}

void
ra_engines_ledger_lock(void *ctx)
{
    ra_engines_lock_t  *lk = ctx;

    if (lk->queued) {
        (void) pthread_mutex_lock(&lk->queue);
    }
    lk->outer.lock(lk->outer.ctx);
}

void
ra_engines_ledger_unlock(void *ctx)
{
    ra_engines_lock_t  *lk = ctx;

    lk->outer.unlock(lk->outer.ctx);
    if (lk->queued) {
        (void) pthread_mutex_unlock(&lk->queue);
    }
}

void
ra_engines_lock_init(ra_engines_lock_t *lk, ra_host_t *h,
    void (*lock)(void *ctx), void (*unlock)(void *ctx), void *ctx)
{
    lk->outer.lock = lock;
    lk->outer.unlock = unlock;
    lk->outer.ctx = ctx;
    lk->queued = 0;
    h->lock.lock = ra_engines_ledger_lock;
    h->lock.unlock = ra_engines_ledger_unlock;
    h->lock.ctx = lk;
}

int
ra_engines_start(ra_engines_t **e, ra_audit_t *proc,
    const ra_audit_conf_t *conf, ra_ledger_t *l, ra_engines_lock_t *lk,
    const ra_host_t *h)
{
    *e = NULL;
    lk->queued = ra_engines_mutex_init(&lk->queue) == RA_OK;
    if (!lk->queued) {
        return RA_OK;
    }
    *e = ra_engines_create(proc, conf, l);
    if (*e == NULL) {
        ra_logf(h, NULL, RA_LOG_CRIT, RA_TAG_MUTEX, "cannot create a thread "
                "mutex; this child does not audit");
        return RA_ERROR;
    }
    return RA_OK;
}

ra_engines_t *
ra_engines_create(ra_audit_t *proc, const ra_audit_conf_t *conf,
    ra_ledger_t *l)
{
    ra_engines_t  *e = calloc(1, sizeof(*e));

    if (e == NULL) {
        return NULL;
    }
    if (pthread_mutex_init(&e->mu, NULL) != 0) {
        free(e);
        return NULL;
    }
    if (pthread_key_create(&e->mine, NULL) != 0) {
        (void) pthread_mutex_destroy(&e->mu);
        free(e);
        return NULL;
    }
    e->proc = proc;
    e->ledger = l;
    e->conf = *conf;
    e->conf.impostors_of = proc;
    e->conf.impostors_lock.lock = ra_engines_lock;
    e->conf.impostors_lock.unlock = ra_engines_unlock;
    e->conf.impostors_lock.ctx = e;
    return e;
}

/* a thread's first request: its own engine, else the process's (left
 * locked for ra_engines_give()) */
static __attribute__((noinline)) ra_audit_t *
ra_engines_first(ra_engines_t *e)
{
    ra_audit_t   *au, **made;
    size_t        cap;

    (void) pthread_mutex_lock(&e->mu);
    if (e->n == e->cap) {
        cap = e->cap ? 2 * e->cap : 64;
        made = realloc(e->made, cap * sizeof(*made));
        if (made == NULL) {
            return e->proc;
        }
        e->made = made;
        e->cap = cap;
    }
    au = ra_audit_create(&e->conf, e->ledger);
    if (au == NULL || pthread_setspecific(e->mine, au) != 0) {
        ra_audit_destroy(au);
        return e->proc;
    }
    e->made[e->n++] = au;
    (void) pthread_mutex_unlock(&e->mu);
    return au;
}

ra_audit_t *
ra_engines_take(ra_engines_t *e)
{
    ra_audit_t  *au = pthread_getspecific(e->mine);

    return au != NULL ? au : ra_engines_first(e);
}

ra_audit_t *
ra_engines_take_or(ra_engines_t *e, ra_audit_t *proc)
{
    return e == NULL ? proc : ra_engines_take(e);
}

void
ra_engines_give(ra_engines_t *e, ra_audit_t *au)
{
    if (e != NULL && au == e->proc) {
        (void) pthread_mutex_unlock(&e->mu);
    }
}

void
ra_engines_destroy(ra_engines_t *e)
{
    size_t  i;

    if (e == NULL) {
        return;
    }
    for (i = 0; i < e->n; i++) {
        ra_audit_destroy(e->made[i]);
    }
    free(e->made);
    (void) pthread_key_delete(e->mine);
    (void) pthread_mutex_destroy(&e->mu);
    free(e);
}
