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
 *
 * The same filter hands a crawler's other answers to the core: a page's
 * head and a sitemap's bytes (ra_audit_body.h); a browser's answer gets
 * no filter, for the price of one identification of its User-Agent.
 */
#include "mra.h"
#include "ra_audit_body.h"

typedef struct {
    ra_body_t      b;
    ra_identity_t  id;          /* a crawler's answer: its User-Agent's */
    int            started;     /* the first brigade has been seen */
    unsigned       hop;         /* 0: /robots.txt; k: its k-th redirect's
                                   target */
} mra_capture_ctx;

static request_rec *
mra_original(request_rec *r)
{
    while (r->prev != NULL) {
        r = r->prev;
    }
    return r;
}

/* The answer's Content-Length, -1 when it has none (yet). */
static int64_t
mra_length(request_rec *r)
{
    const char  *len = apr_table_get(r->headers_out, "Content-Length");

    return len != NULL ? apr_atoi64(len) : -1;
}

/* Is the answer r is about to give the robots.txt to record?  -1 when it
 * is not; else 0 for the answer to /robots.txt, k for the answer to its
 * k-th redirect's target (asked only with ask: a lookup in the ledger;
 * without it, RA_REDIRECT_HOPS + 1 says "maybe"). */
static int
mra_wanted(request_rec *r, int status, int ask)
{
    int           hop, range;
    unsigned      kind;
    request_rec  *orig = mra_original(r);
    mra_state    *st = mra_st(orig->server);

    /* the tables last: every request asks, robots.txt ones go on; only
     * a GET's answer may be one (M_GET: GET or HEAD, the core tells);
     * Range only where it can matter (robots.txt, a redirect's target) */
    if (r->main != NULL || orig->method_number != M_GET || !mra_on(orig, 0)) {
        return -1;
    }
    kind = mra_request_kind(orig);
    range = ((kind & RA_TARGET_ROBOTS) || ra_audit_redirects(st->audit))
            && apr_table_get(orig->headers_in, "Range") != NULL;
    hop = ra_audit_capture_wanted(st->audit, ra_http_method_z(orig->method),
                                  kind, status, range);
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

static int
mra_page_tag(void *rec, const char *key, const char *value)
{
    ra_body_t  *b = rec;

    (void) key;
    if (b->ntags < RA_PAGE_TAGS) {
        b->tags[b->ntags++] = ra_str_z(value);
    }
    return 1;
}

/* A page's X-Robots-Tag values, as the answer's headers hold them now
 * (ra_answer_head_t.tags) */
static void
mra_page_tags(void *where, ra_body_t *b)
{
    request_rec  *r = where;

    b->ntags = 0;
    apr_table_do(mra_page_tag, b, r->headers_out, "X-Robots-Tag", NULL);
    apr_table_do(mra_page_tag, b, r->err_headers_out, "X-Robots-Tag", NULL);
}

void
mra_insert_filter(request_rec *r)
{
    ra_audit_t      *au;
    ra_identity_t    id;
    mra_capture_ctx *c;
    request_rec     *orig = mra_original(r);
    mra_state       *st = mra_st(orig->server);
    const char      *ua = apr_table_get(orig->headers_in, "User-Agent");

    if (r->main != NULL || orig->method_number != M_GET || !mra_on(orig, 0)) {
        return;
    }
    /* robots.txt's answer (maybe: a redirect's target is asked later),
     * or a crawler's: a browser's other answers are not filtered */
    au = ra_engines_take_or(st->engines, st->audit);
    (void) ra_audit_crawler(au, ra_str_z(ua != NULL ? ua : ""), &id);
    ra_engines_give(st->engines, au);
    if (id.kind != RA_UA_BROWSER || mra_wanted(r, r->status, 0) >= 0) {
        c = apr_palloc(r->pool, sizeof(*c));
        c->id = id;
        c->started = 0;
        ap_add_output_filter_handle(st->filter, c, r, r->connection);
    }
}

/* Readings complete (done): the robots.txt answer (the first only), a
 * page's head, a sitemap's lint, to the core. */
static void
mra_capture_done(request_rec *r, mra_capture_ctx *c, unsigned done)
{
    request_rec       *orig = mra_original(r);
    mra_state         *st = mra_st(r->server);
    ra_audit_t        *au;
    ra_request_t       req;
    ra_body_fields_t   f;

    if (apr_table_get(orig->notes, MRA_NOTE_CAPTURED) != NULL) {
        done &= ~RA_BODY_ROBOTS;
    } else if (done & RA_BODY_ROBOTS) {
        apr_table_setn(orig->notes, MRA_NOTE_CAPTURED, "1");
    }
    mra_request(orig, r->status, 0, &req);
    f.content_type = r->content_type != NULL ? ra_str_z(r->content_type)
                                             : ra_str(NULL, 0);
    f.charset = ra_str(NULL, 0);
    f.location = ra_str_z(apr_table_get(r->headers_out, "Location"));
    if (f.location.len == 0) {
        f.location = ra_str_z(apr_table_get(r->err_headers_out, "Location"));
    }
    au = ra_engines_take_or(st->engines, st->audit);
    if (ra_outcome_body(au, &st->host, &c->b, done, &req, &f, c->hop,
                        ra_host_now(&st->host)))
    {
        apr_table_setn(orig->notes, MRA_NOTE_RECORDED, "1");
    }
    ra_engines_give(st->engines, au);
}

/* The answer's first brigade: its status is known, and what to read of
 * it (304, 206 and bodiless robots.txt answers are not captured); a
 * crawler's other answer may be a sitemap's fetch, a page to read, or
 * both, as the core decides (ra_audit_answer()). */
static void
mra_capture_first(request_rec *r, mra_capture_ctx *c)
{
    int               hop = mra_wanted(r, r->status, 1);
    ra_audit_t       *au;
    ra_request_t      req;
    ra_answer_head_t  h;
    request_rec      *orig = mra_original(r);
    mra_state        *st = mra_st(r->server);

    c->started = 1;
    ra_body_init(&c->b, &c->id);
    if (hop >= 0) {
        c->hop = (unsigned) hop;
        c->b.want = RA_BODY_ROBOTS;
        ra_capture_start(&c->b.cap, mra_pool_allocator(r->pool),
                         &st->host.heap, r->status, mra_length(r),
                         mra_coding(r));
        return;
    }
    if (c->id.kind == RA_UA_BROWSER) {
        return;
    }
    mra_request(orig, r->status, 0, &req);
    h.kind = mra_request_kind(orig);
    h.pages = 1;
    h.has_body = !r->header_only;
    h.header_only = 0;          /* a HEAD's bytes still pass this filter */
    h.content_length = mra_length(r);
    h.content_type = ra_str_z(r->content_type);
    h.coding = mra_coding(r);
    h.a = mra_pool_allocator(r->pool);
    h.keep = NULL;              /* c->b, in the filter's context */
    h.tags = mra_page_tags;
    h.where = r;
    au = ra_engines_take_or(st->engines, st->audit);
    (void) ra_audit_answer(au, &req, &c->b, &h);
    ra_engines_give(st->engines, au);
}

apr_status_t
mra_capture_filter(ap_filter_t *f, apr_bucket_brigade *bb)
{
    apr_bucket       *e;
    apr_size_t        n;
    apr_status_t      rv;
    unsigned          done;
    const char       *data;
    request_rec      *r = f->r;
    mra_capture_ctx  *c = f->ctx;

    if (!c->started) {
        mra_capture_first(r, c);
    }
    if (c->b.want & RA_BODY_PAGE) {
        mra_page_tags(r, &c->b);        /* read with its head */
    }
    for (e = APR_BRIGADE_FIRST(bb); c->b.want
         && e != APR_BRIGADE_SENTINEL(bb); e = APR_BUCKET_NEXT(e))
    {
        done = 0;
        if (APR_BUCKET_IS_EOS(e)) {
            done = ra_body_feed(&c->b, NULL, 0, 1);
        } else if (AP_BUCKET_IS_ERROR(e)) {
            /* a backend broke: not the file */
            ra_body_drop(&c->b, RA_BODY_ROBOTS | RA_BODY_PAGE);
        } else if (APR_BUCKET_IS_METADATA(e)
                   || (e->length != (apr_size_t) -1
                       && ra_body_skip(&c->b, e->length)))
        {
            continue;                   /* counted, not read */
        } else if ((rv = apr_bucket_read(e, &data, &n, APR_BLOCK_READ))
                   != APR_SUCCESS)
        {
            if (c->b.want & (RA_BODY_ROBOTS | RA_BODY_PAGE)) {
                MRA_RLOG(APLOG_ERR, rv, r, RA_TAG_CAPTURE, "cannot read the "
                         "answer to capture robots.txt");
            }
            ra_body_drop(&c->b, c->b.want);     /* not the whole answer */
        } else {
            done = ra_body_feed(&c->b, data, n, 0);
        }
        if (done) {
            mra_capture_done(r, c, done);
        }
    }
    if (!c->b.want) {
        ap_remove_output_filter(f);
    }
    return ap_pass_brigade(f->next, bb);
}
