/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * robots-audit for nginx: the status page (robots_audit_status), as
 * stub_status is to nginx; what it says, in which format, with which
 * headers and at what size is the core's (ra_status_page()).
 */


#include "ngx_http_robots_audit.h"
#include "ra_status.h"


static ngx_int_t
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


/* a reply the core made (the status page's, a refusal's): its header
 * fields, then the whole answer, or its status alone for nginx's own
 * page; nginx sends the headers alone for a HEAD, as the core asked
 * (header_only) */
ngx_int_t
ngx_http_robots_audit_reply(ngx_http_request_t *r, const ra_reply_t *a)
{
    ngx_str_t                  t;
    const ra_http_field_t     *f;
    ngx_http_complex_value_t   cv;

    for (f = a->fields; f->name != NULL; f++) {
        if (ngx_http_robots_audit_header(r, f->name, f->value) != NGX_OK) {
            return NGX_HTTP_INTERNAL_SERVER_ERROR;
        }
    }

    if (a->content_type == NULL) {
        return a->status;
    }

    t.len = ngx_strlen(a->content_type);
    t.data = (u_char *) a->content_type;
    ngx_memzero(&cv, sizeof(ngx_http_complex_value_t));
    cv.value.len = a->body.len;
    cv.value.data = (u_char *) a->body.data;

    return ngx_http_send_response(r, a->status, &t, &cv);
}


ngx_int_t
ngx_http_robots_audit_status_handler(ngx_http_request_t *r)
{
    ngx_int_t                           rc;
    ra_reply_t                          reply;
    ngx_pool_cleanup_t                 *cln;
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

    (void) ra_conf_status_page(&amcf->conf,
                               amcf->ledger.base != NULL ? &amcf->ledger
                                                         : NULL,
                               &amcf->host, r,
                               ngx_http_robots_audit_str(r->method_name),
                               ngx_http_robots_audit_str(r->args),
                               ngx_http_robots_audit_now(NULL),
                               &ra_malloc_allocator, &page,   /* malloc() */
                               &reply);
    cln->handler = ngx_free;
    cln->data = page.body.data;

    return ngx_http_robots_audit_reply(r, &reply);
}
