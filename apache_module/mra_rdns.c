/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Reverse DNS off the request path: one resolver thread per child runs
 * the lookups (c-ares, common/resolver/ra_ares.h: each bounded to about
 * four times its 1 s timeout) and hands the answers to
 * ra_audit_rdns_done().  A
 * worker only queues an address (RobotsAuditResolver's server, or with
 * "system" /etc/resolv.conf's; without the directive, no reverse DNS),
 * under a mutex held for the copy: no worker waits
 * for DNS.  A full queue refuses the lookup (counted failed; the core
 * asks again later).
 */
#include "mra.h"

#include "apr_thread_cond.h"
#include "apr_thread_proc.h"

#include "resolver/ra_ares.h"

#define MRA_RDNS_QUEUE  64

static struct {
    apr_thread_mutex_t  *mu;
    apr_thread_cond_t   *cv;
    apr_thread_t        *thread;
    ra_ares_t           *ares;
    uint8_t              q[MRA_RDNS_QUEUE][16];
    unsigned             head, n;
    int                  stop;
    mra_state           *st;            /* the module's, for the thread */
} mra_rdns;

/* homra_rdns.st->rdns_start: queue the address */
static int
mra_rdns_start(const ra_host_t *h, void *where, const uint8_t addr[16])
{
    int  rc = RA_ERROR;

    (void) h;
    (void) where;
    if (apr_thread_mutex_lock(mra_rdns.mu) != APR_SUCCESS) {
        return RA_ERROR;
    }
    if (!mra_rdns.stop && mra_rdns.n < MRA_RDNS_QUEUE) {
        memcpy(mra_rdns.q[(mra_rdns.head + mra_rdns.n) % MRA_RDNS_QUEUE],
               addr, 16);
        mra_rdns.n++;
        (void) apr_thread_cond_signal(mra_rdns.cv);
        rc = RA_OK;
    }
    (void) apr_thread_mutex_unlock(mra_rdns.mu);
    return rc;
}

static void *APR_THREAD_FUNC
mra_rdns_thread(apr_thread_t *t, void *data)
{
    ra_addr_t         a;
    ra_ares_result_t  res;

    (void) data;
    for ( ;; ) {
        (void) apr_thread_mutex_lock(mra_rdns.mu);
        while (mra_rdns.n == 0 && !mra_rdns.stop) {
            (void) apr_thread_cond_wait(mra_rdns.cv, mra_rdns.mu);
        }
        if (mra_rdns.stop) {
            (void) apr_thread_mutex_unlock(mra_rdns.mu);
            break;
        }
        memcpy(a.b, mra_rdns.q[mra_rdns.head], 16);
        mra_rdns.head = (mra_rdns.head + 1) % MRA_RDNS_QUEUE;
        mra_rdns.n--;
        (void) apr_thread_mutex_unlock(mra_rdns.mu);

        ra_ares_lookup(mra_rdns.ares, &a, &res);
        if (mra_rdns.st->audit != NULL) {
            ra_audit_rdns_done(mra_rdns.st->audit, a.b, res.ok,
                               ra_str(res.name, strlen(res.name)), res.fwd,
                               res.nfwd);
        }
    }
    /* a plain return: APR's thread start returns it to pthread, and the
     * thread's pool goes with pchild (apr_thread_exit() would unwind
     * through pthread_exit) */
    (void) t;
    return NULL;
}

/* a pre-cleanup: the thread stops before pchild's subpools (the
 * thread's own among them) and the audit go */
static apr_status_t
mra_rdns_cleanup(void *data)
{
    apr_status_t  rv;

    (void) data;
    mra_rdns.st->host.rdns_start = NULL;
    (void) apr_thread_mutex_lock(mra_rdns.mu);
    mra_rdns.stop = 1;
    (void) apr_thread_cond_signal(mra_rdns.cv);
    (void) apr_thread_mutex_unlock(mra_rdns.mu);
    (void) apr_thread_join(&rv, mra_rdns.thread);
    ra_ares_destroy(mra_rdns.ares);
    mra_rdns.ares = NULL;
    return APR_SUCCESS;
}

const char *
mra_rdns_check(apr_pool_t *p, const char *server)
{
    char        err[256];
    ra_ares_t  *r = ra_ares_create(server, 1000, err, sizeof(err));

    if (r == NULL) {
        return apr_pstrdup(p, err);
    }
    ra_ares_destroy(r);
    return NULL;
}

void
mra_rdns_child_init(apr_pool_t *pchild, server_rec *s)
{
    mra_srv_conf  *sc = mra_sconf(s);
    apr_status_t   rv;
    char           err[256];
    const char    *server = sc->st->conf.resolver;

    memset(&mra_rdns, 0, sizeof(mra_rdns));
    mra_rdns.st = sc->st;
    if (server == NULL) {
        return;                         /* no RobotsAuditResolver: off */
    }
    mra_rdns.ares = ra_ares_create(server, 1000, err, sizeof(err));
    if (mra_rdns.ares == NULL) {
        MRA_LOG(APLOG_ERR, 0, s, RA_TAG_RDNS_OFF, "RobotsAuditResolver %s: "
                "%s; reverse-DNS verification is off",
                server[0] ? server : "system", err);
        return;
    }
    rv = apr_thread_mutex_create(&mra_rdns.mu, APR_THREAD_MUTEX_DEFAULT,
                                 pchild);
    if (rv == APR_SUCCESS) {
        rv = apr_thread_cond_create(&mra_rdns.cv, pchild);
    }
    if (rv == APR_SUCCESS) {
        rv = apr_thread_create(&mra_rdns.thread, NULL, mra_rdns_thread,
                               NULL, pchild);
    }
    if (rv != APR_SUCCESS) {
        MRA_LOG(APLOG_ERR, rv, s, RA_TAG_RDNS_OFF, "cannot start the "
                "resolver thread; reverse-DNS verification is off");
        ra_ares_destroy(mra_rdns.ares);
        mra_rdns.ares = NULL;
        return;
    }
    apr_pool_pre_cleanup_register(pchild, NULL, mra_rdns_cleanup);
    mra_rdns.st->host.rdns_start = mra_rdns_start;
}
