/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * An answer's body on its way to the core (ra_audit_body.h): the one
 * stream each server's filter feeds, which hands the bytes to the
 * readings that want them (the robots.txt capture, a page's head, a
 * sitemap's lint) and says which of them are complete.  A page's head is
 * read where the server holds it when it can be: most pages come in one
 * buffer that holds their whole head, which then costs no copy.
 */
#include <string.h>

#include "ra_audit_impl.h"
#include "ra_audit_body.h"
#include "ra_decode.h"

int
ra_audit_crawler(ra_audit_t *au, ra_str_t user_agent, ra_identity_t *id)
{
    ra_identify(au, user_agent, id);
    return id->kind != RA_UA_BROWSER;
}

void
ra_body_init(ra_body_t *b, const ra_identity_t *id)
{
    /* only what every answer reads: the page's directives are set when
     * a head is read */
    b->want = 0;
    b->head = b->scanned = 0;
    b->ntags = 0;
    b->sitemap = NULL;
    b->cap.active = 0;
    b->cap.failed = 0;
    if (id != NULL) {
        b->id = *id;
    } else {
        memset(&b->id, 0, sizeof(b->id));
    }
}

void
ra_body_page(ra_body_t *b, const ra_alloc_t *a, int64_t content_length,
    ra_str_t content_encoding, const ra_str_t *tags, size_t ntags)
{
    b->ntags = ntags < RA_PAGE_TAGS ? ntags : RA_PAGE_TAGS;
    if (b->ntags) {
        memcpy(b->tags, tags, b->ntags * sizeof(tags[0]));
    }
    if (a == NULL) {
        return;
    }
    /* a decoder's state from the heap, as a robots.txt's: a br window
     * may take megabytes for a moment, not to be left in a pool */
    ra_capture_start(&b->cap, a, &ra_malloc_allocator, 200, content_length,
                     content_encoding);
    ra_capture_limit(&b->cap, RA_PAGE_SCAN);
    /* a small page's copy takes its length, not a robots.txt's first
     * 8 KiB: a small block of the request's pool, never the heap */
    if (content_length > 0 && (uint64_t) content_length < b->cap.first) {
        b->cap.first = (size_t) content_length;
    }
    b->head = 1;
    b->want |= RA_BODY_PAGE;
}

/* A page's first bytes, when nothing is copied yet and they are not
 * coded: 1 when they hold the whole head (or all the body, or all the
 * scan's window), which is then read in place. */
static int
ra_body_in_place(ra_body_t *b, const void *p, size_t n, int last)
{
    ra_str_t  html = ra_str(p, n < RA_PAGE_SCAN ? n : RA_PAGE_SCAN);

    if (b->cap.size != 0 || !ra_coding_is_identity(b->cap.coding)) {
        return 0;
    }
    ra_pagedir_start(&b->pd, b->tags, b->ntags);
    if (ra_pagedir_html(&b->pd, html) || last || n >= RA_PAGE_SCAN) {
        b->scanned = 1;
        return 1;
    }
    return 0;                           /* the head goes on: copied */
}

/* What the capture's readings (robots.txt, a page) make of its state
 * after some bytes: complete, dropped, or still reading. */
static unsigned
ra_body_captured(ra_body_t *b, int last)
{
    unsigned  r = b->want & (RA_BODY_ROBOTS | RA_BODY_PAGE);

    if (r == 0) {
        return 0;
    }
    if (b->cap.failed && (r & RA_BODY_PAGE)) {
        b->cap.active = 0;              /* not the whole head */
        b->want &= ~r;
        return 0;
    }
    if (last || ((r & RA_BODY_PAGE) && ra_capture_full(&b->cap))) {
        b->want &= ~r;
        return r;
    }
    return 0;
}

/* A sitemap's lint after some bytes: complete with the answer's last. */
static unsigned
ra_body_sitemap_end(ra_body_t *b, int last)
{
    if (!last) {
        return 0;
    }
    b->want &= ~RA_BODY_SITEMAP;
    return RA_BODY_SITEMAP;
}

unsigned
ra_body_feed(ra_body_t *b, const void *p, size_t n, int last)
{
    unsigned  done = 0;

    if ((b->want & RA_BODY_PAGE) && ra_body_in_place(b, p, n, last)) {
        b->want &= ~RA_BODY_PAGE;
        done = RA_BODY_PAGE;
    } else if (b->want & (RA_BODY_ROBOTS | RA_BODY_PAGE)) {
        ra_capture_add(&b->cap, p, n);
        done = ra_body_captured(b, last);
    }
    if (b->want & RA_BODY_SITEMAP) {
        if (n > 0) {
            ra_audit_sitemap_feed(b->sitemap, p, n);
        }
        done |= ra_body_sitemap_end(b, last);
    }
    return done;
}

unsigned
ra_body_read(ra_body_t *b, size_t n,
    int (*read)(void *ctx, void *dst, size_t k, size_t off), void *ctx,
    int last)
{
    size_t          keep;
    unsigned        done = 0;
    unsigned char  *dst;

    if (b->want & (RA_BODY_ROBOTS | RA_BODY_PAGE)) {
        dst = ra_capture_space(&b->cap, n, &keep);
        if (dst != NULL && read(ctx, dst, keep, 0) != RA_OK) {
            ra_capture_fail(&b->cap);
            done = RA_BODY_ERROR;
        } else if (dst != NULL) {
            ra_capture_commit(&b->cap, keep);
        }
        done |= ra_body_captured(b, last);
    }
    if (b->want & RA_BODY_SITEMAP) {
        (void) ra_audit_sitemap_read(b->sitemap, n, read, ctx);
        done |= ra_body_sitemap_end(b, last);
    }
    return done;
}

int
ra_body_skip(ra_body_t *b, size_t n)
{
    return b->want == RA_BODY_ROBOTS && ra_capture_skip(&b->cap, n);
}

void
ra_body_drop(ra_body_t *b, unsigned mask)
{
    b->want &= ~mask;
    if (mask & RA_BODY_SITEMAP) {
        b->sitemap = NULL;
    }
}

ra_body_t *
ra_audit_answer(ra_audit_t *au, const ra_request_t *req, ra_body_t *b,
    const ra_answer_head_t *h)
{
    int                want;
    ra_sm_capture_t   *sm;
    const ra_alloc_t  *a = h->a;

    sm = ra_audit_sitemap_start_by(au, req, &b->id, h->has_body, a,
                                   req->time);
    want = !h->pages ? RA_PAGE_NONE
           : ra_audit_page_wanted_by(&b->id, req->method, h->kind,
                                     req->status, req->user_agent,
                                     h->content_type);
    if (want == RA_PAGE_HTML && h->header_only) {
        want = RA_PAGE_HEADERS;
    }
    /* a body to read: where the server keeps it */
    if ((sm != NULL || want == RA_PAGE_HTML) && h->keep != NULL
        && (b = h->keep(h->where, b, &a)) == NULL)
    {
        return NULL;
    }
    b->sitemap = sm;
    b->want = sm != NULL ? RA_BODY_SITEMAP : 0;
    if (want != RA_PAGE_NONE) {
        ra_body_page(b, want == RA_PAGE_HTML ? a : NULL, h->content_length,
                     h->coding, NULL, 0);
    }
    if (want == RA_PAGE_HEADERS) {
        h->tags(h->where, b);
        (void) ra_audit_page_body(au, req, b);
    }
    return b->want ? b : NULL;
}

int
ra_audit_page_body(ra_audit_t *au, const ra_request_t *req, ra_body_t *b)
{
    int  rc, scanned = b->scanned;

    if (!scanned) {
        ra_pagedir_start(&b->pd, b->tags, b->ntags);
    }
    rc = ra_audit_page_read(au, req, &b->id, &b->pd, scanned,
                            !scanned && b->head ? &b->cap : NULL);
    b->head = b->scanned = 0;
    return rc;
}
