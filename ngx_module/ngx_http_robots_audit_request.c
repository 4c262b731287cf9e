/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * robots-audit for nginx: a request as the core reads it (ra_request_t),
 * its site, its context (the capture and what preaccess did), and the
 * glue's allocators and clock.  The log and preaccess phases
 * (ngx_http_robots_audit_module.c) and the capture filter
 * (ngx_http_robots_audit_filter.c) both stand on this file, which calls
 * neither of them.
 */


#include "ngx_http_robots_audit.h"

#include "ra_fields.h"


/* ---- allocators and clock --------------------------------------------- */

/* a pool; the core wants memory aligned for any object */
void *
ngx_http_robots_audit_pool_alloc(void *ctx, size_t size)
{
    u_char  *p;

    p = ngx_palloc(ctx, size);
    if (p == NULL || ((uintptr_t) p & 15) == 0) {
        return p;
    }

    p = ngx_palloc(ctx, size + 15);
    if (p == NULL) {
        return NULL;
    }

    return ngx_align_ptr(p, 16);
}


/* large blocks go back early (a capture that grows); others with the pool */
void
ngx_http_robots_audit_pool_free(void *ctx, void *p)
{
    (void) ngx_pfree(ctx, p);
}


int64_t
ngx_http_robots_audit_now(const ra_host_t *h)
{
    ngx_time_t  *tp = ngx_timeofday();

    return (int64_t) tp->sec * 1000 + (int64_t) tp->msec;
}



/* ---- requests --------------------------------------------------------- */

/* The header lines the core chooses from (ra_fields.h): the Web Bot Auth
 * fields (nginx keeps User-Agent and Referer itself, their first line, as
 * the core would choose), then what a signature base covers */
static ngx_inline __attribute__((always_inline)) void
ngx_http_robots_audit_fields(ngx_http_request_t *r, ra_request_t *req)
{
    int               tls = 0;
    ra_str_t          target;
    ngx_uint_t        i;
    ra_alloc_t        alloc;
    ra_fields_t       f;
    ngx_list_part_t  *part;
    ngx_table_elt_t  *h;

    alloc.alloc = ngx_http_robots_audit_pool_alloc;
    alloc.free = NULL;
    alloc.ctx = r->pool;

    ra_fields_start(&f, req, RA_FIELD_SIG, &alloc);

    for (part = &r->headers_in.headers.part; part; part = part->next) {
        h = part->elts;
        for (i = 0; i < part->nelts; i++) {
            ra_fields_line(&f, ngx_http_robots_audit_str(h[i].key),
                           ngx_http_robots_audit_str(h[i].value));
        }
    }

    if (!ra_fields_end(&f)) {
        return;
    }
    /* an absolute-form target: the request line from its scheme on */
    target = ra_str_from(ngx_http_robots_audit_str(r->request_line),
                         r->schema_start);
#if (NGX_HTTP_SSL)
    tls = r->connection->ssl != NULL;
#endif
    ra_request_origin(req, target, r->headers_in.host
                      ? ngx_http_robots_audit_str(r->headers_in.host->value)
                      : ra_str(NULL, 0), tls);
}


/* The site is the server block's (the core's ra_sitenames_pick()). */
static ra_str_t
ngx_http_robots_audit_site(ngx_http_request_t *r)
{
    ngx_http_robots_audit_srv_conf_t  *ascf;

    ascf = ngx_http_get_module_srv_conf(r, ngx_http_robots_audit_module);

    return ra_sitenames_pick(&ascf->conf.names,
                             ngx_http_robots_audit_str(r->headers_in.server));
}


/* r as the core reads it (status: what the client got, 0 before the
 * content; enforce and recorded are the caller's) */
void
ngx_http_robots_audit_request(ngx_http_request_t *r, ngx_int_t status,
    unsigned kind, ra_request_t *req)
{
    ra_request_start(req, ngx_http_robots_audit_site(r),
                     ngx_http_robots_audit_now(NULL),
                     ngx_http_robots_audit_str(r->connection->addr_text),
                     ngx_http_robots_audit_str(r->method_name),
                     ngx_http_robots_audit_str(r->unparsed_uri),
                     (int) status, kind, r);
    req->user_agent = r->headers_in.user_agent
                      ? ngx_http_robots_audit_str(
                            r->headers_in.user_agent->value)
                      : ra_str("", 0);
    req->referer = r->headers_in.referer
                   ? ngx_http_robots_audit_str(r->headers_in.referer->value)
                   : ra_str("", 0);
    ngx_http_robots_audit_fields(r, req);
}


/* Which redirect of its site's robots.txt r's target is the target of
 * (ra_audit_robots_hop()), 0 for none; the site is not even looked up
 * unless some site redirects now. */
unsigned
ngx_http_robots_audit_hop(ngx_http_request_t *r,
    ngx_http_robots_audit_main_conf_t *amcf)
{
    if (!ra_audit_redirects(amcf->audit)) {
        return 0;
    }
    return ra_audit_robots_hop(amcf->audit, ngx_http_robots_audit_site(r),
                               ngx_http_robots_audit_str(r->unparsed_uri),
                               ngx_http_robots_audit_now(NULL));
}


static void
ngx_http_robots_audit_ctx_cleanup(void *data)
{
    /* a marker only: the context lives in the request pool */
}


ngx_http_robots_audit_ctx_t *
ngx_http_robots_audit_get_ctx(ngx_http_request_t *r, ngx_uint_t create)
{
    ngx_pool_cleanup_t           *cln;
    ngx_http_robots_audit_ctx_t  *ctx;

    ctx = ngx_http_get_module_ctx(r, ngx_http_robots_audit_module);
    if (ctx != NULL) {
        return ctx;
    }

    if (r->internal || r->filter_finalize) {
        for (cln = r->pool->cleanup; cln; cln = cln->next) {
            if (cln->handler == ngx_http_robots_audit_ctx_cleanup) {
                ctx = cln->data;
                ngx_http_set_ctx(r, ctx, ngx_http_robots_audit_module);
                return ctx;
            }
        }
    }

    if (!create) {
        return NULL;
    }

    cln = ngx_pool_cleanup_add(r->pool, sizeof(ngx_http_robots_audit_ctx_t));
    if (cln == NULL) {
        return NULL;
    }

    ctx = cln->data;
    ngx_memzero(ctx, sizeof(ngx_http_robots_audit_ctx_t));

    ctx->alloc.alloc = ngx_http_robots_audit_pool_alloc;
    ctx->alloc.free = ngx_http_robots_audit_pool_free;
    ctx->alloc.ctx = r->pool;

    cln->handler = ngx_http_robots_audit_ctx_cleanup;

    ngx_http_set_ctx(r, ctx, ngx_http_robots_audit_module);

    return ctx;
}
