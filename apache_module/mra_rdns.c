/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Reverse DNS off the request path: one resolver thread per child
 * (common/resolver/ra_ares_thread.h) runs the lookups with
 * RobotsAuditResolver's server, or with "system" /etc/resolv.conf's
 * (without the directive, no reverse DNS), and this hands its answers to
 * the child's engine.
 */
#include "mra.h"

#include "resolver/ra_ares_thread.h"

/* the thread's answer, to the child's engine while it lives */
static void
mra_rdns_done(void *ctx, const ra_addr_t *a, const ra_ares_result_t *res)
{
    (void) a;
    ra_rdns_lookup_end(res, ((mra_state *) ctx)->audit);
}

/* a pre-cleanup: the thread stops before pchild's subpools and the
 * audit go */
static apr_status_t
mra_rdns_cleanup(void *data)
{
    mra_state  *st = data;

    st->host.rdns_start = NULL;
    ra_ares_thread_destroy(st->host.rdns_ctx);
    st->host.rdns_ctx = NULL;
    return APR_SUCCESS;
}

const char *
mra_rdns_check(void *p, const char *server)
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
    char           err[256];
    const char    *server = sc->st->conf.resolver;

    if (server == NULL) {
        return;                         /* no RobotsAuditResolver: off */
    }
    sc->st->host.rdns_ctx = ra_ares_thread_create(server, 1000,
                                                  mra_rdns_done, sc->st, err,
                                                  sizeof(err));
    if (sc->st->host.rdns_ctx == NULL) {
        MRA_LOG(APLOG_ERR, 0, s, RA_TAG_RDNS_OFF, "RobotsAuditResolver %s: "
                "%s; reverse-DNS verification is off",
                server[0] ? server : "system", err);
        return;
    }
    apr_pool_pre_cleanup_register(pchild, sc->st, mra_rdns_cleanup);
    sc->st->host.rdns_start = ra_ares_thread_rdns_start;
}
