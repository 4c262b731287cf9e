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


/* r's body as the core reads it (ra_audit_body.h), kept in its context
 * and read for nothing yet (from: whose id it takes, NULL: none), with
 * the request's pool to read it into (ra_answer_head_t.keep) */
static ra_body_t *
ngx_http_robots_audit_body(void *where, const ra_body_t *from,
    const ra_alloc_t **a)
{
    ngx_http_request_t           *r = where;
    ngx_http_robots_audit_ctx_t  *ctx;

    ctx = ngx_http_robots_audit_get_ctx(r, 1);
    if (ctx == NULL) {
        return NULL;
    }
    if (ctx->body == NULL) {
        ctx->body = ngx_palloc(r->pool, sizeof(ra_body_t));
        if (ctx->body == NULL) {
            return NULL;
        }
    }
    ra_body_init(ctx->body, from != NULL ? &from->id : NULL);
    *a = &ctx->alloc;
    return ctx->body;
}


/* a page's X-Robots-Tag values, as every header filter left them so far
 * (ra_answer_head_t.tags) */
static void
ngx_http_robots_audit_tags(void *where, ra_body_t *b)
{
    b->ntags = ngx_http_robots_audit_out(where, "X-Robots-Tag", 12, b->tags,
                                         RA_PAGE_TAGS);
}


/* the answer's Content-Encoding as set so far (over several header
 * lines: the last one, which does not decode: amber, never wrong) */
static ngx_inline ra_str_t
ngx_http_robots_audit_coding(ngx_http_request_t *r)
{
    return r->headers_out.content_encoding
           ? ngx_http_robots_audit_str(r->headers_out.content_encoding->value)
           : ra_str(NULL, 0);
}


/* An answer that is not robots.txt (page: it may be a page to read):
 * one identification of its User-Agent decides, and a browser's costs
 * nothing more; a crawler's may be a sitemap's fetch, a page, or both,
 * as the core decides (ra_audit_answer()). */
static void
ngx_http_robots_audit_answer(ngx_http_request_t *r,
    ngx_http_robots_audit_main_conf_t *amcf, unsigned kind, ngx_uint_t page)
{
    ra_body_t         b;
    ra_request_t      req;
    ra_identity_t     id;
    ra_answer_head_t  h;
    ra_alloc_t        a = { ngx_http_robots_audit_pool_alloc,
                            ngx_http_robots_audit_pool_free, r->pool };

    if (!ra_audit_crawler(amcf->audit, r->headers_in.user_agent
                          ? ngx_http_robots_audit_str(
                                r->headers_in.user_agent->value)
                          : ra_str(NULL, 0), &id))
    {
        return;
    }
    ngx_http_robots_audit_request(r, r->headers_out.status, 0, &req);
    ra_body_init(&b, &id);
    h.kind = kind;
    h.pages = page != 0;
    h.has_body = ra_http_has_body((int) r->headers_out.status,
                                  r->header_only);
    h.header_only = r->header_only;
    h.content_length = r->headers_out.content_length_n;
    h.content_type = ngx_http_robots_audit_str(r->headers_out.content_type);
    h.coding = ngx_http_robots_audit_coding(r);
    h.a = &a;
    h.keep = ngx_http_robots_audit_body;
    h.tags = ngx_http_robots_audit_tags;
    h.where = r;
    (void) ra_audit_answer(amcf->audit, &req, &b, &h);
}


/* the readings of r's answer complete now (done), to the core; its
 * robots.txt answer then bound the crawler: the log phase only counts */
static void
ngx_http_robots_audit_done(ngx_http_request_t *r,
    ngx_http_robots_audit_ctx_t *ctx, unsigned done)
{
    ra_request_t                        req;
    ra_body_fields_t                    f;
    ngx_http_robots_audit_main_conf_t  *amcf;

    amcf = ngx_http_get_module_main_conf(r, ngx_http_robots_audit_module);

    /* the charset filter runs after ours: the core joins the charset */
    ngx_http_robots_audit_request(r, r->headers_out.status, 0, &req);
    f.content_type = ngx_http_robots_audit_str(r->headers_out.content_type);
    f.charset = ngx_http_robots_audit_str(r->headers_out.charset);
    f.location = ngx_http_robots_audit_location(r);
    if (ra_outcome_body(amcf->audit, &amcf->host, ctx->body, done, &req, &f,
                        ctx->hop, req.time))
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


static ngx_int_t
ngx_http_robots_audit_header_filter(ngx_http_request_t *r)
{
    int                                 want;
    unsigned                            kind, hop;
    ra_body_t                          *b;
    const ra_alloc_t                   *a;
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
    if (want == RA_CAPTURE_NONE
        || (want == RA_CAPTURE_HOP
            && (hop = ngx_http_robots_audit_hop(r, amcf)) == 0))
    {
        ngx_http_robots_audit_answer(r, amcf, kind,
                                     want == RA_CAPTURE_NONE);
        return ngx_http_next_header_filter(r);
    }

    if ((b = ngx_http_robots_audit_body(r, NULL, &a)) == NULL) {
        return ngx_http_next_header_filter(r);
    }
    ctx = ngx_http_get_module_ctx(r, ngx_http_robots_audit_module);
    ctx->hop = hop;
    b->want = RA_BODY_ROBOTS;
    ra_capture_start(&b->cap, a, &ra_malloc_allocator,
                     (int) r->headers_out.status,
                     r->headers_out.content_length_n,
                     ngx_http_robots_audit_coding(r));

    if (!ra_http_has_body((int) r->headers_out.status, r->header_only)) {
        b->want = 0;
        ngx_http_robots_audit_done(r, ctx, RA_BODY_ROBOTS);
    }

    return ngx_http_next_header_filter(r);
}


/* sendfile: k bytes at off of a buffer's, still in its file */
static int
ngx_http_robots_audit_read(void *buf, void *dst, size_t k, size_t off)
{
    ngx_buf_t  *b = buf;

    return ngx_read_file(b->file, dst, k, b->file_pos + (off_t) off)
           == (ssize_t) k ? RA_OK : RA_ERROR;
}


/* the bytes of an answer the core reads, to it; each reading complete
 * is recorded before its bytes go on.  Out of line, so that every other
 * answer's buffers pass without a frame. */
static __attribute__((noinline)) void
ngx_http_robots_audit_stream(ngx_http_request_t *r,
    ngx_http_robots_audit_ctx_t *ctx, ngx_chain_t *in)
{
    off_t                               n;
    unsigned                            done;
    ngx_buf_t                          *b;
    ngx_chain_t                        *cl;
    ngx_http_robots_audit_main_conf_t  *amcf;

    amcf = ngx_http_get_module_main_conf(r, ngx_http_robots_audit_module);
    if (ctx->body->want & RA_BODY_PAGE) {
        /* as every header filter left them (add_header runs after us) */
        ngx_http_robots_audit_tags(r, ctx->body);
    }
    for (cl = in; cl && ctx->body->want; cl = cl->next) {
        b = cl->buf;
        n = ngx_buf_special(b) ? 0 : ngx_buf_size(b);
        if (n == 0 && !b->last_buf) {
            continue;
        }
        done = ngx_buf_in_memory(b) || n == 0
               ? ra_body_feed(ctx->body, b->pos, (size_t) n, b->last_buf)
               : ra_body_read(ctx->body, (size_t) n,
                              ngx_http_robots_audit_read, b, b->last_buf);
        if (done & RA_BODY_ERROR) {
            /* ngx_read_file() said which file and why */
            ra_logf(&amcf->host, r, RA_LOG_ERR, RA_TAG_CAPTURE,
                    "cannot read the answer to capture robots.txt");
        }
        if (ctx->body->cap.failed) {
            done &= ~RA_BODY_ROBOTS;            /* not the whole answer */
        }
        if (done & ~RA_BODY_ERROR) {
            ngx_http_robots_audit_done(r, ctx, done & ~RA_BODY_ERROR);
        }
    }
}


static ngx_int_t
ngx_http_robots_audit_body_filter(ngx_http_request_t *r, ngx_chain_t *in)
{
    ngx_http_robots_audit_ctx_t  *ctx;

    if (r == r->main) {
        ctx = ngx_http_get_module_ctx(r, ngx_http_robots_audit_module);
        if (ctx != NULL && ctx->body != NULL && ctx->body->want) {
            ngx_http_robots_audit_stream(r, ctx, in);
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
