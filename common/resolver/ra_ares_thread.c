/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The resolver thread and its queue (ra_ares_thread.h): a ring of
 * addresses under a mutex, and one thread that takes them one by one;
 * and a server process's reverse DNS on such a thread, started, said and
 * stopped the same way wherever a server runs one.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ra_ares_thread.h"
#include "ra_rdns_lookup.h"

struct ra_ares_thread_s {
    pthread_mutex_t          mu;
    pthread_cond_t           cv;
    pthread_t                thread;
    ra_ares_t               *ares;
    ra_ares_thread_done_pt   done;
    void                    *ctx;
    uint8_t                  q[RA_ARES_THREAD_QUEUE][16];
    unsigned                 head, n;
    int                      stop;
};

static void *
ra_ares_thread_run(void *data)
{
    ra_ares_thread_t  *t = data;
    ra_addr_t          a;
    ra_ares_result_t   res;

    for ( ;; ) {
        (void) pthread_mutex_lock(&t->mu);
        while (t->n == 0 && !t->stop) {
            (void) pthread_cond_wait(&t->cv, &t->mu);
        }
        if (t->stop) {
            (void) pthread_mutex_unlock(&t->mu);
            break;
        }
        memcpy(a.b, t->q[t->head], 16);
        t->head = (t->head + 1) % RA_ARES_THREAD_QUEUE;
        t->n--;
        (void) pthread_mutex_unlock(&t->mu);

        ra_ares_lookup(t->ares, &a, &res);
        t->done(t->ctx, &a, &res);
    }
    return NULL;
}

ra_ares_thread_t *
ra_ares_thread_create(const char *server, int timeout_ms,
    ra_ares_thread_done_pt done, void *ctx, char *err, size_t errlen)
{
    ra_ares_thread_t  *t;

    t = calloc(1, sizeof(*t));
    if (t == NULL) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    t->ares = ra_ares_create(server, timeout_ms, err, errlen);
    if (t->ares == NULL) {
        free(t);
        return NULL;
    }
    t->done = done;
    t->ctx = ctx;
    if (pthread_mutex_init(&t->mu, NULL) != 0) {
        goto failed;
    }
    if (pthread_cond_init(&t->cv, NULL) != 0) {
        (void) pthread_mutex_destroy(&t->mu);
        goto failed;
    }
    if (pthread_create(&t->thread, NULL, ra_ares_thread_run, t) != 0) {
        (void) pthread_cond_destroy(&t->cv);
        (void) pthread_mutex_destroy(&t->mu);
        goto failed;
    }
    return t;

failed:
    snprintf(err, errlen, "cannot start the resolver thread");
    ra_ares_destroy(t->ares);
    free(t);
    return NULL;
}

int
ra_ares_thread_start(ra_ares_thread_t *t, const uint8_t addr[16])
{
    int  rc = RA_ERROR;

    if (pthread_mutex_lock(&t->mu) != 0) {
        return RA_ERROR;
    }
    if (!t->stop && t->n < RA_ARES_THREAD_QUEUE) {
        memcpy(t->q[(t->head + t->n) % RA_ARES_THREAD_QUEUE], addr, 16);
        t->n++;
        (void) pthread_cond_signal(&t->cv);
        rc = RA_OK;
    }
    (void) pthread_mutex_unlock(&t->mu);
    return rc;
}

int
ra_ares_thread_rdns_start(const ra_host_t *h, void *where,
    const uint8_t addr[16])
{
    (void) where;
    return h->rdns_ctx != NULL ? ra_ares_thread_start(h->rdns_ctx, addr)
                               : RA_ERROR;
}

void
ra_ares_thread_destroy(ra_ares_thread_t *t)
{
    if (t == NULL) {
        return;
    }
    (void) pthread_mutex_lock(&t->mu);
    t->stop = 1;
    (void) pthread_cond_signal(&t->cv);
    (void) pthread_mutex_unlock(&t->mu);
    (void) pthread_join(t->thread, NULL);
    (void) pthread_cond_destroy(&t->cv);
    (void) pthread_mutex_destroy(&t->mu);
    ra_ares_destroy(t->ares);
    free(t);
}

/* an answer, to the engine the process has now */
static void
ra_ares_thread_host_done(void *ctx, const ra_addr_t *a,
    const ra_ares_result_t *res)
{
    (void) a;
    ra_rdns_lookup_end(res, *(ra_audit_t *const *) ctx);
}

int
ra_ares_thread_host_start(ra_host_t *h, const char *server,
    ra_audit_t *const *au)
{
    char  err[256];

    if (server == NULL) {
        return RA_ERROR;
    }
    h->rdns_ctx = ra_ares_thread_create(server, 1000,
                                        ra_ares_thread_host_done,
                                        (void *) au, err, sizeof(err));
    if (h->rdns_ctx == NULL) {
        ra_logf(h, NULL, RA_LOG_ERR, RA_TAG_RDNS_OFF, "RobotsAuditResolver "
                "%s: %s; reverse-DNS verification is off",
                server[0] ? server : "system", err);
        return RA_ERROR;
    }
    h->rdns_start = ra_ares_thread_rdns_start;
    return RA_OK;
}

int
ra_ares_thread_host_stop(void *host)
{
    ra_host_t  *h = host;

    h->rdns_start = NULL;
    ra_ares_thread_destroy(h->rdns_ctx);
    h->rdns_ctx = NULL;
    return 0;
}
