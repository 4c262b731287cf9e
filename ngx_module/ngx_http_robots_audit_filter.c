/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * robots-audit for nginx: every answer to /robots.txt, captured as served
 * (static files with or without sendfile, return, proxied, error pages)
 * and handed to the core (ra_audit_robots).  Which answers count and how
 * much is kept is the core's decision (ra_http.h).
 *
 * The filters run before gzip's and gunzip's (those modules come first in
 * the module list, and a filter installed later runs earlier): the bytes
 * seen are the handler's or the upstream's, coded as the Content-Encoding
 * they set says (gzip_static, proxy_pass), never as nginx's own gzip
 * filter codes them after us.  The core decodes them.
 */


#include "ngx_http_robots_audit.h"
#include "ra_decode.h"


static ngx_http_output_header_filter_pt  ngx_http_next_header_filter;
static ngx_http_output_body_filter_pt    ngx_http_next_body_filter;


static void
ngx_http_robots_audit_record(ngx_http_request_t *r,
    ngx_http_robots_audit_ctx_t *ctx)
{
    ra_answer_t                         ans;
    ngx_http_robots_audit_main_conf_t  *amcf;

    amcf = ngx_http_get_module_main_conf(r, ngx_http_robots_audit_module);

    /*
     * the Content-Type as sent: the charset filter runs after our header
     * filter; by the last buffer the HTTP/1 header filter has appended the
     * charset to content_type "for logging", others may not have
     */
    ra_capture_answer(&ctx->capture,
                      ngx_http_robots_audit_str(r->headers_out.content_type),
                      ngx_http_robots_audit_str(r->headers_out.charset),
                      &ans);

    if (ctx->capture.failed) {
        ra_logf(&amcf->host, r, RA_LOG_ERR, RA_TAG_NOMEM,
                "out of memory decoding robots.txt");
        return;
    }

    (void) ra_audit_robots(amcf->audit, ngx_http_robots_audit_site(r), &ans,
                           ngx_http_robots_audit_now(NULL));
}


/*
 * The Content-Encoding of the answer as our filters see it: every
 * Content-Encoding line the handler or the upstream set (the first
 * RA_DECODE_LAYERS + 1: more are refused anyway), joined as one list.
 */
static ra_str_t
ngx_http_robots_audit_coding(ngx_http_request_t *r)
{
    size_t            len;
    u_char           *p, *d;
    ngx_uint_t        i, k, n;
    ngx_str_t        *v[RA_DECODE_LAYERS + 1];
    ngx_list_part_t  *part;
    ngx_table_elt_t  *h;

    static ngx_str_t  name = ngx_string("Content-Encoding");

    n = 0;
    len = 0;
    part = &r->headers_out.headers.part;
    h = part->elts;

    for (i = 0; n < RA_DECODE_LAYERS + 1; i++) {

        if (i >= part->nelts) {
            if (part->next == NULL) {
                break;
            }
            part = part->next;
            h = part->elts;
            i = 0;
        }

        if (h[i].hash == 0 || h[i].key.len != name.len
            || ngx_strncasecmp(h[i].key.data, name.data, name.len) != 0)
        {
            continue;
        }

        v[n++] = &h[i].value;
        len += h[i].value.len + 2;
    }

    if (n == 0) {
        return ra_str(NULL, 0);
    }

    if (n == 1) {
        return ngx_http_robots_audit_str(*v[0]);
    }

    p = ngx_pnalloc(r->pool, len);
    if (p == NULL) {
        return ngx_http_robots_audit_str(*v[0]);
    }

    d = p;
    for (k = 0; k < n; k++) {
        if (k) {
            *d++ = ',';
            *d++ = ' ';
        }
        d = ngx_cpymem(d, v[k]->data, v[k]->len);
    }

    return ra_str(p, (size_t) (d - p));
}


static ngx_int_t
ngx_http_robots_audit_header_filter(ngx_http_request_t *r)
{
    ngx_http_robots_audit_ctx_t        *ctx;
    ngx_http_robots_audit_main_conf_t  *amcf;

    if (!ra_http_capture_wanted(ngx_http_robots_audit_str(r->method_name),
                                ngx_http_robots_audit_str(r->unparsed_uri),
                                (int) r->headers_out.status,
                                r->headers_in.range != NULL))
    {
        return ngx_http_next_header_filter(r);
    }

    amcf = ngx_http_robots_audit_on(r, 0);
    if (amcf == NULL) {
        return ngx_http_next_header_filter(r);
    }

    ctx = ngx_http_robots_audit_get_ctx(r, 1);
    if (ctx == NULL) {
        return ngx_http_next_header_filter(r);
    }

    /* the coding of what the body filter will see, known now: gzip's
     * header filter, after ours, adds its own for bytes we never see */
    ra_capture_start(&ctx->capture, &ctx->alloc, &amcf->host.heap,
                     (int) r->headers_out.status,
                     r->headers_out.content_length_n,
                     ngx_http_robots_audit_coding(r));

    if (!ra_http_has_body((int) r->headers_out.status, r->header_only)) {
        ngx_http_robots_audit_record(r, ctx);
    }

    return ngx_http_next_header_filter(r);
}


static ngx_int_t
ngx_http_robots_audit_body_filter(ngx_http_request_t *r, ngx_chain_t *in)
{
    off_t                               n;
    size_t                              keep;
    u_char                             *p;
    ngx_buf_t                          *b;
    ngx_chain_t                        *cl;
    ngx_http_robots_audit_ctx_t        *ctx;
    ngx_http_robots_audit_main_conf_t  *amcf;

    if (r != r->main) {
        return ngx_http_next_body_filter(r, in);
    }

    ctx = ngx_http_get_module_ctx(r, ngx_http_robots_audit_module);
    if (ctx == NULL || !ctx->capture.active) {
        return ngx_http_next_body_filter(r, in);
    }

    for (cl = in; cl; cl = cl->next) {
        b = cl->buf;
        n = ngx_buf_special(b) ? 0 : ngx_buf_size(b);

        if (n > 0 && ngx_buf_in_memory(b)) {
            ra_capture_add(&ctx->capture, b->pos, (size_t) n);

        } else if (n > 0) {
            /* sendfile: the bytes are still in the file */
            p = ra_capture_space(&ctx->capture, (size_t) n, &keep);

            if (p != NULL) {
                if (ngx_read_file(b->file, p, keep, b->file_pos)
                    == (ssize_t) keep)
                {
                    ra_capture_commit(&ctx->capture, keep);

                } else {
                    ra_capture_fail(&ctx->capture);
                    amcf = ngx_http_get_module_main_conf(r,
                                               ngx_http_robots_audit_module);
                    /* ngx_read_file() said which file and why */
                    ra_logf(&amcf->host, r, RA_LOG_ERR, RA_TAG_CAPTURE,
                            "cannot read the answer to capture robots.txt");
                }
            }
        }

        if (ctx->capture.failed) {
            ctx->capture.active = 0;        /* not the whole answer */
            break;
        }

        if (b->last_buf) {
            ngx_http_robots_audit_record(r, ctx);
            break;
        }
    }

    return ngx_http_next_body_filter(r, in);
}


ngx_int_t
ngx_http_robots_audit_filter_init(ngx_conf_t *cf)
{
    ngx_http_next_header_filter = ngx_http_top_header_filter;
    ngx_http_top_header_filter = ngx_http_robots_audit_header_filter;

    ngx_http_next_body_filter = ngx_http_top_body_filter;
    ngx_http_top_body_filter = ngx_http_robots_audit_body_filter;

    return NGX_OK;
}
