/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * robots-audit for nginx: every answer to /robots.txt, captured as served
 * (static files with or without sendfile, return, proxied, error pages)
 * and handed to the core (ra_audit_robots).  Which answers count and how
 * much is kept is the core's decision (ra_http.h).  They run before gzip
 * and gunzip: the bytes are coded as Content-Encoding says (gzip_static,
 * an upstream), never as nginx's gzip codes them later; the core decodes.
 */


#include "ngx_http_robots_audit.h"


static ngx_http_output_header_filter_pt  ngx_http_next_header_filter;
static ngx_http_output_body_filter_pt    ngx_http_next_body_filter;


/* the values of r's header lines called name (len bytes), at most max */
static size_t
ngx_http_robots_audit_out(ngx_http_request_t *r, const char *name,
    size_t len, ra_str_t *out, size_t max)
{
    size_t            n = 0;
    ngx_uint_t        i;
    ngx_list_part_t  *part;
    ngx_table_elt_t  *h;

    for (part = &r->headers_out.headers.part; part; part = part->next) {
        h = part->elts;
        for (i = 0; i < part->nelts && n < max; i++) {
            if (h[i].hash != 0 && h[i].key.len == len
                && ngx_strncasecmp(h[i].key.data, (u_char *) name, len) == 0)
            {
                out[n++] = ngx_http_robots_audit_str(h[i].value);
            }
        }
    }
    return n;
}


/* A redirect's Location: headers_out.location, or the header line that
 * an upstream's relative redirect leaves in the list (nginx sets the
 * field for those only when proxy_redirect rewrote them) */
static ra_str_t
ngx_http_robots_audit_location(ngx_http_request_t *r)
{
    ra_str_t  v = ra_str(NULL, 0);

    if (r->headers_out.location != NULL) {
        return ngx_http_robots_audit_str(r->headers_out.location->value);
    }
    (void) ngx_http_robots_audit_out(r, "Location", 8, &v, 1);
    return v;
}


/* the capture of r's answer, as its headers say it goes out */
static void
ngx_http_robots_audit_capture_start(ngx_http_request_t *r,
    ngx_http_robots_audit_ctx_t *ctx)
{
    /* the coding set so far (over several header lines: the last one,
     * which does not decode: the site turns amber, never wrong) */
    ra_capture_start(&ctx->capture, &ctx->alloc, &ra_malloc_allocator,
                     (int) r->headers_out.status,
                     r->headers_out.content_length_n,
                     r->headers_out.content_encoding
                     ? ngx_http_robots_audit_str(
                           r->headers_out.content_encoding->value)
                     : ra_str(NULL, 0));
}


/* a crawler's answer to a page: its X-Robots-Tag values and, when ctx
 * captured it, its HTML head, to the core (ra_audit_page()) */
static void
ngx_http_robots_audit_page(ngx_http_request_t *r,
    ngx_http_robots_audit_ctx_t *ctx)
{
    size_t                              n;
    ra_str_t                            tags[RA_PAGE_TAGS];
    ra_request_t                        req;
    ngx_http_robots_audit_main_conf_t  *amcf;

    amcf = ngx_http_get_module_main_conf(r, ngx_http_robots_audit_module);
    n = ngx_http_robots_audit_out(r, "X-Robots-Tag", 12, tags, RA_PAGE_TAGS);
    ngx_http_robots_audit_request(r, r->headers_out.status, 0, &req);
    (void) ra_audit_page(amcf->audit, &req, tags, n,
                         ctx != NULL ? &ctx->capture : NULL);
}


/* an answer that is not robots.txt: a crawler's page is read when the
 * core wants it (ra_audit_page_wanted()), an HTML one after its head */
static ngx_int_t
ngx_http_robots_audit_page_start(ngx_http_request_t *r,
    ngx_http_robots_audit_main_conf_t *amcf, unsigned kind)
{
    int                           want;
    ngx_http_robots_audit_ctx_t  *ctx;

    want = ra_audit_page_wanted(amcf->audit,
                                ngx_http_robots_audit_str(r->method_name),
                                kind, (int) r->headers_out.status,
                                r->headers_in.user_agent
                                ? ngx_http_robots_audit_str(
                                      r->headers_in.user_agent->value)
                                : ra_str(NULL, 0),
                                ngx_http_robots_audit_str(
                                    r->headers_out.content_type));
    if (want == RA_PAGE_HTML && !r->header_only
        && (ctx = ngx_http_robots_audit_get_ctx(r, 1)) != NULL)
    {
        ctx->page = 1;
        ngx_http_robots_audit_capture_start(r, ctx);
        ra_capture_limit(&ctx->capture, RA_PAGE_SCAN);
    } else if (want != RA_PAGE_NONE) {
        ngx_http_robots_audit_page(r, NULL);
    }
    return ngx_http_next_header_filter(r);
}


static void
ngx_http_robots_audit_record(ngx_http_request_t *r,
    ngx_http_robots_audit_ctx_t *ctx)
{
    ra_request_t                        req;
    ngx_http_robots_audit_main_conf_t  *amcf;

    if (ctx->page) {
        ngx_http_robots_audit_page(r, ctx);
        return;
    }
    amcf = ngx_http_get_module_main_conf(r, ngx_http_robots_audit_module);

    /* the charset filter runs after ours: the core joins the charset */
    ngx_http_robots_audit_request(r, ctx->capture.status, 0, &req);
    if (ra_outcome_robots(amcf->audit, &amcf->host, &ctx->capture,
                          ngx_http_robots_audit_str(
                              r->headers_out.content_type),
                          ngx_http_robots_audit_str(r->headers_out.charset),
                          &req, ctx->hop,
                          ngx_http_robots_audit_location(r), req.time)
        == RA_OK)
    {
        ctx->recorded = 1;
    }
}


/* r's target kind, asked of the core and kept for r's log phase: from
 * the path alone when nginx's parser met no '#', '%' or dot segment
 * (complex_uri, quoted_uri) before its '?' (args_start) or the end */
static ngx_inline unsigned
ngx_http_robots_audit_kind(ngx_http_request_t *r,
    ngx_http_robots_audit_main_conf_t *amcf)
{
    ra_str_t  u = ngx_http_robots_audit_str(r->unparsed_uri);

    return ra_kind_memo_ask(&amcf->kind, r, u,
                            r->complex_uri || r->quoted_uri
                            ? ra_str(NULL, 0)
                            : ra_http_path_before(u, r->args_start));
}


/* a crawler's fetch of a sitemap: the core decides, and may capture */
static void
ngx_http_robots_audit_sitemap_start(ngx_http_request_t *r,
    ngx_http_robots_audit_main_conf_t *amcf)
{
    ra_request_t                  req;
    ra_alloc_t                    a = { ngx_http_robots_audit_pool_alloc,
                                        ngx_http_robots_audit_pool_free,
                                        r->pool };
    ra_sm_capture_t              *sm;
    ngx_http_robots_audit_ctx_t  *ctx;

    ngx_http_robots_audit_request(r, r->headers_out.status, 0, &req);
    sm = ra_audit_sitemap_start(amcf->audit, &req,
                                ra_http_has_body((int) r->headers_out.status,
                                                 r->header_only),
                                &a, req.time);
    if (sm != NULL && (ctx = ngx_http_robots_audit_get_ctx(r, 1)) != NULL) {
        ctx->sitemap = sm;
    }
}


static ngx_int_t
ngx_http_robots_audit_header_filter(ngx_http_request_t *r)
{
    int                                 want;
    unsigned                            kind, hop;
    ngx_http_robots_audit_ctx_t        *ctx;
    ngx_http_robots_audit_main_conf_t  *amcf;

    /* only a GET's answer may be captured: other methods, and locations
     * not audited, do not ask the core */
    if (r->method != NGX_HTTP_GET
        || (amcf = ngx_http_robots_audit_on(r, 0)) == NULL)
    {
        return ngx_http_next_header_filter(r);
    }

    /* asked once: the log phase takes it (ra_request_t.target_kind) */
    kind = ngx_http_robots_audit_kind(r, amcf);

    want = ra_audit_capture_wanted(amcf->audit,
                                   ngx_http_robots_audit_str(r->method_name),
                                   kind, (int) r->headers_out.status,
                                   r->headers_in.range != NULL);
    hop = 0;

    /* not robots.txt: a crawler's sitemap or page, as the core decides */
    if (want == RA_CAPTURE_NONE) {
        ngx_http_robots_audit_sitemap_start(r, amcf);
        return ngx_http_robots_audit_page_start(r, amcf, kind);
    }
    if (want == RA_CAPTURE_HOP
        && (hop = ngx_http_robots_audit_hop(r, amcf)) == 0)
    {
        ngx_http_robots_audit_sitemap_start(r, amcf);
        return ngx_http_next_header_filter(r);
    }

    ctx = ngx_http_robots_audit_get_ctx(r, 1);
    if (ctx == NULL) {
        return ngx_http_next_header_filter(r);
    }
    ctx->hop = hop;

    ngx_http_robots_audit_capture_start(r, ctx);

    if (!ra_http_has_body((int) r->headers_out.status, r->header_only)) {
        ngx_http_robots_audit_record(r, ctx);
    }

    return ngx_http_next_header_filter(r);
}


/* sendfile: a buffer's first k bytes, still in its file */
static int
ngx_http_robots_audit_read(void *buf, void *dst, size_t k)
{
    ngx_buf_t  *b = buf;

    return ngx_read_file(b->file, dst, k, b->file_pos) == (ssize_t) k
           ? RA_OK : RA_ERROR;
}


/* the bytes of a robots.txt answer being captured: out of line, so that
 * every other answer's buffers pass without a frame */
static __attribute__((noinline)) void
ngx_http_robots_audit_capture(ngx_http_request_t *r,
    ngx_http_robots_audit_ctx_t *ctx, ngx_chain_t *in)
{
    off_t                               n;
    ngx_buf_t                          *b;
    ngx_chain_t                        *cl;
    ngx_http_robots_audit_main_conf_t  *amcf;

    for (cl = in; cl; cl = cl->next) {
        b = cl->buf;
        n = ngx_buf_special(b) ? 0 : ngx_buf_size(b);

        if (n > 0 && ngx_buf_in_memory(b)) {
            ra_capture_add(&ctx->capture, b->pos, (size_t) n);

        } else if (n > 0
                   && ra_capture_read(&ctx->capture, (size_t) n,
                                      ngx_http_robots_audit_read, b)
                      != RA_OK)
        {
            amcf = ngx_http_get_module_main_conf(r,
                                               ngx_http_robots_audit_module);
            /* ngx_read_file() said which file and why */
            ra_logf(&amcf->host, r, RA_LOG_ERR, RA_TAG_CAPTURE,
                    "cannot read the answer to capture robots.txt");
        }

        if (ctx->capture.failed) {
            ctx->capture.active = 0;        /* not the whole answer */
            break;
        }

        /* a page's head is read as soon as it is captured */
        if (b->last_buf || (ctx->page && ra_capture_full(&ctx->capture))) {
            ngx_http_robots_audit_record(r, ctx);
            break;
        }
    }
}


/* sendfile: k bytes at off of a buffer's, still in its file */
static int
ngx_http_robots_audit_read_at(void *buf, void *dst, size_t k, size_t off)
{
    ngx_buf_t  *b = buf;

    return ngx_read_file(b->file, dst, k, b->file_pos + (off_t) off)
           == (ssize_t) k ? RA_OK : RA_ERROR;
}


/* the bytes of a sitemap answer, as served, to the core's lint */
static void
ngx_http_robots_audit_sitemap_body(ngx_http_request_t *r,
    ngx_http_robots_audit_ctx_t *ctx, ngx_chain_t *in)
{
    off_t                               n;
    ngx_buf_t                          *b;
    ngx_chain_t                        *cl;
    ngx_http_robots_audit_main_conf_t  *amcf;

    for (cl = in; cl && ctx->sitemap != NULL; cl = cl->next) {
        b = cl->buf;
        n = ngx_buf_special(b) ? 0 : ngx_buf_size(b);
        if (n > 0 && ngx_buf_in_memory(b)) {
            ra_audit_sitemap_feed(ctx->sitemap, b->pos, (size_t) n);
        } else if (n > 0) {
            (void) ra_audit_sitemap_read(ctx->sitemap, (size_t) n,
                                         ngx_http_robots_audit_read_at, b);
        }
        if (b->last_buf) {
            amcf = ngx_http_get_module_main_conf(r,
                                                ngx_http_robots_audit_module);
            ra_audit_sitemap_end(amcf->audit, ctx->sitemap,
                                 ngx_http_robots_audit_now(NULL));
            ctx->sitemap = NULL;
        }
    }
}


static ngx_int_t
ngx_http_robots_audit_body_filter(ngx_http_request_t *r, ngx_chain_t *in)
{
    ngx_http_robots_audit_ctx_t  *ctx;

    if (r == r->main) {
        ctx = ngx_http_get_module_ctx(r, ngx_http_robots_audit_module);
        if (ctx != NULL && ctx->capture.active) {
            ngx_http_robots_audit_capture(r, ctx, in);
        }
        if (ctx != NULL && ctx->sitemap != NULL) {
            ngx_http_robots_audit_sitemap_body(r, ctx, in);
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
