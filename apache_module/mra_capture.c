/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * robots.txt as crawlers get it: an output filter on the answer to a
 * main-request GET /robots.txt, whatever produced it (a static file,
 * mod_proxy, a RewriteRule, an ErrorDocument, a Redirect, an error),
 * copied into the core's capture buffer and recorded at EOS.  Which
 * requests and answers count is the core's decision (ra_http.h).
 *
 * The filter is AP_FTYPE_CONTENT_SET, mod_deflate's DEFLATE too, and
 * DEFLATE is inserted first (by the core for SetOutputFilter, by
 * mod_filter for AddOutputFilterByType): the bytes seen may be DEFLATE's
 * gzip, the backend's coding (mod_proxy) or a file's (mod_mime's
 * AddEncoding), and the Content-Encoding set when the first brigade
 * arrives says which.  The core decodes them.
 */
#include "mra.h"
#include "ra_audit_page.h"

typedef struct {
    ra_capture_t  cap;
    int           done;
    unsigned      hop;          /* 0: /robots.txt; k: its k-th redirect's
                                   target */
    int           page;         /* RA_PAGE_*: a crawler's page */
} mra_capture_ctx;

static request_rec *
mra_original(request_rec *r)
{
    while (r->prev != NULL) {
        r = r->prev;
    }
    return r;
}

/* Is the answer r is about to give the robots.txt to record?  -1 when it
 * is not; else 0 for the answer to /robots.txt, k for the answer to its
 * k-th redirect's target (asked only with ask: a lookup in the ledger;
 * without it, RA_REDIRECT_HOPS + 1 says "maybe"). */
static int
mra_wanted(request_rec *r, int status, int ask)
{
    int           hop;
    unsigned      kind;
    request_rec  *orig = mra_original(r);
    mra_state    *st = mra_st(orig->server);

    /* the tables last: every request asks, robots.txt ones go on; only
     * a GET's answer may be one (M_GET: GET or HEAD, the core tells) */
    if (r->main != NULL || orig->method_number != M_GET || !mra_on(orig, 0)) {
        return -1;
    }
    kind = mra_request_kind(orig);
    hop = ra_audit_capture_wanted(st->audit, ra_http_method_z(orig->method),
                                  kind, status, apr_table_get(orig->headers_in,
                                                              "Range") != NULL);
    if (hop == RA_CAPTURE_HOP) {
        hop = !ask ? RA_REDIRECT_HOPS + 1 : (int) mra_robots_hop(orig);
        if (hop == 0) {
            return -1;
        }
    } else if (hop != RA_CAPTURE_ROBOTS) {
        return -1;
    }
    if (apr_table_get(orig->notes, MRA_NOTE_CAPTURED) != NULL) {
        return -1;
    }
    return hop;
}

/* The Content-Encoding of the answer as this filter sees it, as the HTTP
 * header filter will send it: r->content_encoding (mod_mime's) first,
 * then the header; one split over several lines reads as one of them,
 * which does not decode: the site turns amber, never wrong. */
static ra_str_t
mra_coding(request_rec *r)
{
    const char  *c = r->content_encoding;

    if (c == NULL) {
        c = apr_table_get(r->headers_out, "Content-Encoding");
    }
    if (c == NULL) {
        c = apr_table_get(r->err_headers_out, "Content-Encoding");
    }
    return c != NULL ? ra_str_z(c) : ra_str(NULL, 0);
}

/* Is the answer r is about to give a crawler's page, to read for page
 * directives (RA_PAGE_*, the core's ra_audit_page_wanted())?  type: its
 * Content-Type, NULL while the handler has not set it yet. */
static int
mra_page_wanted(request_rec *r, const char *type)
{
    int           want;
    ra_audit_t   *au;
    request_rec  *orig = mra_original(r);
    mra_state    *st = mra_st(orig->server);
    const char   *ua = apr_table_get(orig->headers_in, "User-Agent");

    if (r->main != NULL || orig->method_number != M_GET || !mra_on(orig, 0)) {
        return RA_PAGE_NONE;
    }
    au = ra_engines_take_or(st->engines, st->audit);
    want = ra_audit_page_wanted(au, ra_http_method_z(orig->method),
                                mra_request_kind(orig), r->status,
                                ra_str_z(ua != NULL ? ua : ""),
                                ra_str_z(type != NULL ? type : ""));
    ra_engines_give(st->engines, au);
    return want;
}

typedef struct {
    ra_str_t  v[RA_PAGE_TAGS];
    size_t    n;
} mra_tags_t;

static int
mra_page_tag(void *rec, const char *key, const char *value)
{
    mra_tags_t  *tags = rec;

    (void) key;
    if (tags->n < RA_PAGE_TAGS) {
        tags->v[tags->n++] = ra_str_z(value);
    }
    return 1;
}

/* a crawler's answer to a page: its X-Robots-Tag values and, when c
 * captured it, its HTML head, to the core (ra_audit_page()) */
static void
mra_page(request_rec *r, mra_capture_ctx *c)
{
    mra_tags_t    tags;
    ra_audit_t   *au;
    ra_request_t  req;
    mra_state    *st = mra_st(r->server);

    tags.n = 0;
    apr_table_do(mra_page_tag, &tags, r->headers_out, "X-Robots-Tag", NULL);
    apr_table_do(mra_page_tag, &tags, r->err_headers_out, "X-Robots-Tag",
                 NULL);
    mra_request(mra_original(r), r->status, 0, &req);
    au = ra_engines_take_or(st->engines, st->audit);
    (void) ra_audit_page(au, &req, tags.v, tags.n,
                         c != NULL ? &c->cap : NULL);
    ra_engines_give(st->engines, au);
}

/* An answer that is not robots.txt: a crawler's HTML page is captured
 * up to its head's window, another's headers read at once. */
static void
mra_page_start(request_rec *r, mra_capture_ctx *c)
{
    c->page = mra_page_wanted(r, r->content_type);
    if (c->page == RA_PAGE_HTML) {
        c->done = 0;
        ra_capture_limit(&c->cap, RA_PAGE_SCAN);
    } else if (c->page == RA_PAGE_HEADERS) {
        mra_page(r, NULL);
    }
}

void
mra_insert_filter(request_rec *r)
{
    if (mra_wanted(r, r->status, 0) >= 0
        || mra_page_wanted(r, NULL) != RA_PAGE_NONE)
    {
        ap_add_output_filter(MRA_FILTER, NULL, r, r->connection);
    }
    if (r->main == NULL && mra_original(r)->method_number == M_GET
        && mra_on(mra_original(r), 0))
    {
        /* maybe a sitemap: the core says at the first bytes */
        ap_add_output_filter(MRA_SM_FILTER, NULL, r, r->connection);
    }
}

static void
mra_capture_done(request_rec *r, mra_capture_ctx *c)
{
    int           rc;
    request_rec  *orig = mra_original(r);
    mra_state    *st = mra_st(r->server);
    ra_audit_t   *au;
    ra_request_t  req;
    const char   *loc;

    c->done = 1;
    if (c->page) {
        mra_page(r, c);
        return;
    }
    if (apr_table_get(orig->notes, MRA_NOTE_CAPTURED) != NULL) {
        return;
    }
    apr_table_setn(orig->notes, MRA_NOTE_CAPTURED, "1");
    mra_request(orig, r->status, 0, &req);
    loc = apr_table_get(r->headers_out, "Location");
    if (loc == NULL || loc[0] == '\0') {
        loc = apr_table_get(r->err_headers_out, "Location");
    }
    au = ra_engines_take_or(st->engines, st->audit);
    rc = ra_outcome_robots(au, &st->host, &c->cap, r->content_type != NULL
                           ? ra_str_z(r->content_type) : ra_str(NULL, 0),
                           ra_str(NULL, 0), &req, c->hop, ra_str_z(loc),
                           ra_host_now(&st->host));
    ra_engines_give(st->engines, au);
    if (rc == RA_OK) {
        apr_table_setn(orig->notes, MRA_NOTE_RECORDED, "1");
    }
}

apr_status_t
mra_capture_filter(ap_filter_t *f, apr_bucket_brigade *bb)
{
    int               hop;
    apr_bucket       *e;
    apr_size_t        n;
    apr_status_t      rv;
    const char       *data, *len;
    request_rec      *r = f->r;
    mra_capture_ctx  *c = f->ctx;
    mra_state        *st = mra_st(r->server);

    if (c == NULL) {
        c = f->ctx = apr_pcalloc(r->pool, sizeof(mra_capture_ctx));
        /* the status is known now: 304, 206 and bodiless ones are not */
        hop = mra_wanted(r, r->status, 1);
        c->done = hop < 0;
        c->hop = hop > 0 ? (unsigned) hop : 0;
        len = apr_table_get(r->headers_out, "Content-Length");
        ra_capture_start(&c->cap, mra_pool_allocator(r->pool),
                         &st->host.heap, r->status,
                         len != NULL ? apr_atoi64(len) : -1, mra_coding(r));
        if (hop < 0) {
            mra_page_start(r, c);
        }
    }
    if (c->done) {
        ap_remove_output_filter(f);
        return ap_pass_brigade(f->next, bb);
    }

    for (e = APR_BRIGADE_FIRST(bb); e != APR_BRIGADE_SENTINEL(bb);
         e = APR_BUCKET_NEXT(e))
    {
        if (APR_BUCKET_IS_EOS(e)) {
            mra_capture_done(r, c);
            break;
        }
        if (AP_BUCKET_IS_ERROR(e)) {
            c->done = 1;                /* a backend broke: not the file */
            break;
        }
        if (APR_BUCKET_IS_METADATA(e)) {
            continue;
        }
        if (e->length != (apr_size_t) -1
            && ra_capture_skip(&c->cap, e->length))
        {
            continue;                   /* counted, not read */
        }
        rv = apr_bucket_read(e, &data, &n, APR_BLOCK_READ);
        if (rv != APR_SUCCESS) {
            MRA_RLOG(APLOG_ERR, rv, r, RA_TAG_CAPTURE, "cannot read the "
                     "answer to capture robots.txt");
            c->done = 1;                /* not the whole answer: drop it */
            break;
        }
        ra_capture_add(&c->cap, data, n);
        if (c->page && ra_capture_full(&c->cap)) {
            mra_capture_done(r, c);     /* a page's head: read now */
            break;
        }
    }
    return ap_pass_brigade(f->next, bb);
}

/* A crawler's fetch of one of the site's sitemaps (the core decides when
 * the status is known), its bytes to the core's lint as they pass. */
apr_status_t
mra_sitemap_filter(ap_filter_t *f, apr_bucket_brigade *bb)
{
    apr_bucket    *e;
    apr_size_t     n;
    const char    *data;
    ra_audit_t    *au;
    ra_request_t   req;
    request_rec   *r = f->r;
    mra_state     *st = mra_st(r->server);

    if (f->ctx == NULL) {
        mra_request(mra_original(r), r->status, 0, &req);
        au = ra_engines_take_or(st->engines, st->audit);
        f->ctx = ra_audit_sitemap_start(au, &req, !r->header_only,
                                        mra_pool_allocator(r->pool),
                                        req.time);
        ra_engines_give(st->engines, au);
    }
    for (e = APR_BRIGADE_FIRST(bb); f->ctx != NULL
         && e != APR_BRIGADE_SENTINEL(bb); e = APR_BUCKET_NEXT(e))
    {
        if (APR_BUCKET_IS_EOS(e)) {
            au = ra_engines_take_or(st->engines, st->audit);
            ra_audit_sitemap_end(au, f->ctx, ra_host_now(&st->host));
            ra_engines_give(st->engines, au);
            f->ctx = NULL;
        } else if (!APR_BUCKET_IS_METADATA(e)) {
            if (apr_bucket_read(e, &data, &n, APR_BLOCK_READ)
                != APR_SUCCESS)
            {
                f->ctx = NULL;          /* not the whole answer: dropped */
                break;
            }
            ra_audit_sitemap_feed(f->ctx, data, n);
        }
    }
    if (f->ctx == NULL) {
        ap_remove_output_filter(f);
    }
    return ap_pass_brigade(f->next, bb);
}
