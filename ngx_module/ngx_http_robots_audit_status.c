/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * robots-audit for nginx: the status page (robots_audit_status), as
 * stub_status is to nginx; what it says, in which format, with which
 * headers and at what size is the core's (ra_status_page()).
 */


#include "ngx_http_robots_audit.h"
#include "ra_status.h"


ngx_int_t
ngx_http_robots_audit_header(ngx_http_request_t *r, const char *name,
    const char *value)
{
    ngx_table_elt_t  *h;

    h = ngx_list_push(&r->headers_out.headers);
    if (h == NULL) {
        return NGX_ERROR;
    }

    h->hash = 1;
#if (nginx_version >= 1023000)
    h->next = NULL;
#endif
    h->key.len = ngx_strlen(name);
    h->key.data = (u_char *) name;
    h->value.len = ngx_strlen(value);
    h->value.data = (u_char *) value;

    return NGX_OK;
}


ngx_int_t
ngx_http_robots_audit_status_handler(ngx_http_request_t *r)
{
    ngx_int_t                           rc;
    ngx_pool_cleanup_t                 *cln;
    ra_status_src_t                     src;
    ra_status_page_t                    page;
    ngx_http_robots_audit_main_conf_t  *amcf;

    rc = ngx_http_discard_request_body(r);
    if (rc != NGX_OK) {
        return rc;
    }

    cln = ngx_pool_cleanup_add(r->pool, 0);
    if (cln == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    amcf = ngx_http_get_module_main_conf(r, ngx_http_robots_audit_module);

    src.ledger = amcf->ledger.base != NULL ? &amcf->ledger : NULL;
    src.crawlers = amcf->conf.setup.crawlers;
    src.ranges = amcf->conf.setup.ranges;
    src.resolver = amcf->host.rdns_start != NULL;
    src.policies = amcf->conf.policies;
    (void) ra_status_page_src(&src,
                          ngx_http_robots_audit_str(r->method_name),
                          ngx_http_robots_audit_str(r->args),
                          ngx_http_robots_audit_now(NULL),
                          &ra_malloc_allocator, &page);   /* malloc() */
    cln->handler = ngx_free;
    cln->data = page.body.data;

    if (ngx_http_robots_audit_header(r, "Cache-Control", page.cache_control)
        != NGX_OK
        || (page.allow
            && ngx_http_robots_audit_header(r, "Allow", page.allow)
               != NGX_OK))
    {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    /* the page as it is: nginx sends its headers alone for a HEAD, as
     * the core asked (page.header_only) */
    return ngx_http_robots_audit_send(r, page.status, page.content_type,
                                      ra_str(page.body.data, page.body.len));
}


/* a whole answer (the status page's, a refusal's with a body) */
ngx_int_t
ngx_http_robots_audit_send(ngx_http_request_t *r, ngx_uint_t status,
    const char *type, ra_str_t body)
{
    ngx_str_t                 t;
    ngx_http_complex_value_t  cv;

    t.len = ngx_strlen(type);
    t.data = (u_char *) type;
    ngx_memzero(&cv, sizeof(ngx_http_complex_value_t));
    cv.value.len = body.len;
    cv.value.data = (u_char *) body.data;

    return ngx_http_send_response(r, status, &t, &cv);
}
