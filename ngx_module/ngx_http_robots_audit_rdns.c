/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Reverse DNS through nginx's own resolver (the `resolver` in effect for
 * the request that asked): ngx_resolve_addr() for the PTR name, then
 * ngx_resolve_name() for its A and AAAA addresses, both asynchronous;
 * the answer goes to ra_audit_rdns_done().  No request waits: the one
 * that asked was judged already (docs/design.md, "Reverse DNS").  A
 * lookup's memory is its own (ngx_alloc), freed when it ends, since the
 * request may be gone by then.
 */


#include "ngx_http_robots_audit.h"

#include "ra_rdns_lookup.h"


/* the addresses this nginx can ask about: IPv6 needs NGX_HAVE_INET6 */
#if (NGX_HAVE_INET6)
#define NGX_HTTP_RA_RDNS_SOCKLEN  sizeof(struct sockaddr_in6)
#else
#define NGX_HTTP_RA_RDNS_SOCKLEN  sizeof(struct sockaddr_in)
#endif


typedef struct {
    ngx_http_robots_audit_main_conf_t  *amcf;
    ngx_resolver_t                     *resolver;
    ngx_msec_t                          timeout;
    ngx_sockaddr_t                      sa;     /* the resolver reads it
                                                   until addr_done */
    ra_rdns_lookup_t                    look;   /* the core's steps */
} ngx_http_robots_audit_rdns_t;


/* nginx's resolver states as the core reads a reply */
#define ngx_http_robots_audit_reply(state)                                  \
    ((state) == NGX_OK ? RA_RDNS_RECORD                                      \
     : (state) == NGX_RESOLVE_NXDOMAIN ? RA_RDNS_NO_RECORD                   \
     : RA_RDNS_NO_ANSWER)


static void
ngx_http_robots_audit_rdns_end(ngx_http_robots_audit_rdns_t *q)
{
    ra_rdns_lookup_end(&q->look, q->amcf->audit);
    ngx_free(q);
}


static void
ngx_http_robots_audit_rdns_fwd(ngx_resolver_ctx_t *ctx)
{
    ngx_uint_t                     i;
    ngx_http_robots_audit_rdns_t  *q = ctx->data;

    ra_rdns_lookup_reply(&q->look, ngx_http_robots_audit_reply(ctx->state));

    for (i = 0; ctx->state == NGX_OK && i < ctx->naddrs; i++) {
        ra_rdns_lookup_fwd(&q->look, ctx->addrs[i].sockaddr);
    }

    ngx_resolve_name_done(ctx);
    ngx_http_robots_audit_rdns_end(q);
}


static void
ngx_http_robots_audit_rdns_ptr(ngx_resolver_ctx_t *ctx)
{
    int                            fwd;
    ngx_resolver_ctx_t            *fc, temp;
    ngx_http_robots_audit_rdns_t  *q = ctx->data;

    fwd = ra_rdns_lookup_ptr(&q->look,
                             ngx_http_robots_audit_reply(ctx->state),
                             ngx_http_robots_audit_str(ctx->name));

    ngx_resolve_addr_done(ctx);

    /* no PTR, no answer, or a name not to resolve forward (an address
     * literal: the resolver would answer it from temp itself) */
    if (!fwd) {
        ngx_http_robots_audit_rdns_end(q);
        return;
    }

    ngx_memzero(&temp, sizeof(ngx_resolver_ctx_t));
    temp.name.data = (u_char *) q->look.name;
    temp.name.len = ngx_strlen(q->look.name);
    fc = ngx_resolve_start(q->resolver, &temp);

    if (fc == NULL || fc == NGX_NO_RESOLVER) {
        ra_rdns_lookup_reply(&q->look, RA_RDNS_NO_ANSWER);
        ngx_http_robots_audit_rdns_end(q);
        return;
    }

    fc->name = temp.name;
    fc->handler = ngx_http_robots_audit_rdns_fwd;
    fc->data = q;
    fc->timeout = q->timeout;

    if (ngx_resolve_name(fc) != NGX_OK) {
        /* the resolver freed fc and said why */
        ra_rdns_lookup_reply(&q->look, RA_RDNS_NO_ANSWER);
        ngx_http_robots_audit_rdns_end(q);
    }
}


/* host->rdns_start (ra_host.h) */
int
ngx_http_robots_audit_rdns_start(const ra_host_t *h, void *where,
    const uint8_t addr[16])
{
    ra_addr_t                       a;
    ngx_resolver_ctx_t             *ctx;
    ngx_http_request_t             *r = where;
    ngx_http_core_loc_conf_t       *clcf;
    ngx_http_robots_audit_rdns_t   *q;

    if (r == NULL) {
        return RA_ERROR;
    }

    clcf = ngx_http_get_module_loc_conf(r, ngx_http_core_module);

    if (clcf->resolver == NULL || clcf->resolver->connections.nelts == 0) {
        return RA_ERROR;            /* no resolver for this location */
    }

    q = ngx_calloc(sizeof(ngx_http_robots_audit_rdns_t), ngx_cycle->log);
    if (q == NULL) {
        return RA_ERROR;
    }

    q->amcf = ngx_http_get_module_main_conf(r, ngx_http_robots_audit_module);
    q->resolver = clcf->resolver;
    q->timeout = clcf->resolver_timeout;
    ra_rdns_lookup_start(&q->look, addr);

    ctx = ngx_resolve_start(clcf->resolver, NULL);

    if (ctx == NULL || ctx == NGX_NO_RESOLVER) {
        ngx_free(q);
        return RA_ERROR;
    }

    /* an address this nginx cannot ask about is no lookup */
    ngx_memcpy(a.b, addr, 16);
    ctx->addr.sockaddr = &q->sa.sockaddr;
    ctx->addr.socklen = ra_addr_to_sockaddr(&a, &q->sa,
                                            NGX_HTTP_RA_RDNS_SOCKLEN);

    if (ctx->addr.socklen == 0) {
        ngx_resolve_addr_done(ctx);
        ngx_free(q);
        return RA_ERROR;
    }

    ctx->handler = ngx_http_robots_audit_rdns_ptr;
    ctx->data = q;
    ctx->timeout = q->timeout;

    /* ngx_resolve_addr() copies the address; on error it frees ctx */
    if (ngx_resolve_addr(ctx) != NGX_OK) {
        ngx_free(q);
        return RA_ERROR;
    }

    return RA_OK;
}
