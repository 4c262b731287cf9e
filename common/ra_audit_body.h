/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * An answer's body on its way to the core: one stream for every reading
 * of it (a robots.txt answer captured whole, a crawler's HTML page read
 * up to the end of its head, a crawler's sitemap linted as it passes),
 * so that each server's filter has a single loop that hands over its
 * bytes, in memory or in a file, and learns which readings are complete.
 * What is done with the bytes is decided here and by the readings'
 * owners (ra_http.h's capture, ra_audit_page.h, ra_audit_sitemap.h).
 */
#ifndef RA_AUDIT_BODY_H
#define RA_AUDIT_BODY_H

#include "ra_audit.h"
#include "ra_audit_page.h"
#include "ra_audit_sitemap.h"
#include "ra_crawlers.h"
#include "ra_http.h"
#include "ra_pagedir.h"

/* The readings of a body (ra_body_t.want), and what ra_body_feed() and
 * ra_body_read() say is complete now (the caller then records it). */
#define RA_BODY_ROBOTS   1u     /* a robots.txt answer, in body.cap */
#define RA_BODY_PAGE     2u     /* a crawler's HTML page: its head */
#define RA_BODY_SITEMAP  4u     /* a crawler's fetch of a sitemap */
#define RA_BODY_ERROR    8u     /* (returned only) a file could not be
                                   read for the capture: say why */

typedef struct {
    ra_capture_t      cap;          /* a robots.txt answer, or the copy of
                                       a page's head (ra_capture_limit()) */
    ra_sm_capture_t  *sitemap;      /* RA_BODY_SITEMAP's */
    ra_identity_t     id;           /* the User-Agent's, asked once */
    ra_pagedir_t      pd;           /* the page's directives, when its
                                       head was read in place */
    ra_str_t          tags[RA_PAGE_TAGS];   /* its X-Robots-Tag values */
    size_t            ntags;
    unsigned          want;         /* RA_BODY_* still reading */
    unsigned          head:1;       /* the page's head is to be read */
    unsigned          scanned:1;    /* pd holds the head, read in place */
} ra_body_t;

/*
 * Is the answer's User-Agent a crawler's (of the table, or plainly
 * automated)?  Asked once per answer, of this process's memory of
 * User-Agents: 0 for a browser's, whose answer is read no further; else
 * 1, and id says which crawler for the readings below
 * (ra_audit_page_wanted_by(), ra_audit_sitemap_start_by()).
 */
int ra_audit_crawler(ra_audit_t *au, ra_str_t user_agent, ra_identity_t *id);

/* A body read for nothing yet; id: the crawler's, or NULL (a robots.txt
 * answer is everyone's). */
void ra_body_init(ra_body_t *b, const ra_identity_t *id);

/*
 * Reads a crawler's HTML page (RA_PAGE_HTML): its head is read where the
 * server holds its first bytes when they hold all of it and are not
 * coded, else copied from a (the request's memory) up to RA_PAGE_SCAN
 * bytes.  a NULL: its headers alone are read (RA_PAGE_HEADERS, or an
 * answer without a body), by ra_audit_page_body() at once.  tags: its
 * X-Robots-Tag values (spans that stay valid as long as the answer's
 * headers), at most RA_PAGE_TAGS kept; a server whose later filters
 * may still add some sets b->tags and b->ntags before the body comes.
 */
void ra_body_page(ra_body_t *b, const ra_alloc_t *a, int64_t content_length,
    ra_str_t content_encoding, const ra_str_t *tags, size_t ntags);

/*
 * n bytes of the answer in memory; last: the answer's last bytes.  The
 * readings complete now (RA_BODY_*): the caller records each before the
 * bytes go on (a page read in place points into them).  A page whose
 * copy failed is dropped without a word; a robots.txt answer whose
 * capture failed completes at its last byte all the same (cap.failed:
 * the caller records it, ra_outcome_robots() saying why, or drops it).
 */
unsigned ra_body_feed(ra_body_t *b, const void *p, size_t n, int last);

/* The same for n bytes held elsewhere (a file), copied a piece at a time
 * by read(ctx, dst, k, off) (RA_OK when it copied all k bytes at offset
 * off of those n); RA_BODY_ERROR too when it failed for the capture. */
unsigned ra_body_read(ra_body_t *b, size_t n,
    int (*read)(void *ctx, void *dst, size_t k, size_t off), void *ctx,
    int last);

/* For n bytes not read yet: 1 when no reading wants them (counted), so
 * that the server passes them on unread; else 0. */
int ra_body_skip(ra_body_t *b, size_t n);

/* Drops the readings of mask (a backend broke: not the whole answer). */
void ra_body_drop(ra_body_t *b, unsigned mask);

/*
 * A crawler's answer as a server's filter sees it once its status and
 * header fields are known (besides the request, ra_request_t): what
 * ra_audit_answer() reads its body for, and the server's ways to keep
 * that body and to read the answer's X-Robots-Tag values.
 */
typedef struct {
    unsigned           kind;        /* the target's (ra_kind.h's word) */
    unsigned           pages:1;     /* it may be a page to read */
    unsigned           has_body:1;  /* bytes come (ra_http_has_body()):
                                       a sitemap's are linted */
    unsigned           header_only:1;   /* none pass the server's filter:
                                           a page is read by its headers */
    int64_t            content_length;  /* -1: none (yet) */
    ra_str_t           content_type;
    ra_str_t           coding;      /* its Content-Encoding */
    const ra_alloc_t  *a;           /* the request's memory */
    /* where the body lives while it is read: one the server keeps with
     * the request, read for nothing yet with from's id (and *a set to
     * the memory to read it into), or NULL (out of memory: nothing is
     * read); keep NULL: from itself, with a */
    ra_body_t       *(*keep)(void *where, const ra_body_t *from,
                             const ra_alloc_t **a);
    /* sets b->tags and b->ntags from the answer's X-Robots-Tag values
     * as its header fields hold them now */
    void             (*tags)(void *where, ra_body_t *b);
    void              *where;       /* the server's request */
} ra_answer_head_t;

/*
 * A crawler's answer to req (b: read for nothing yet, with the
 * crawler's id: ra_body_init()), not a robots.txt capture, once its
 * head h is known:
 * a sitemap's fetch (ra_audit_sitemap_start_by()) and a page to read
 * (ra_audit_page_wanted_by()), an HTML page by its head unless
 * h->header_only.  A page read by its headers alone is recorded at once
 * (ra_audit_page_body()).  Returns the body the server then feeds (its
 * want set: RA_BODY_*), or NULL when no bytes are to be read.
 */
ra_body_t *ra_audit_answer(ra_audit_t *au, const ra_request_t *req,
    ra_body_t *b, const ra_answer_head_t *h);

/*
 * Records a page read (RA_BODY_PAGE complete, or an answer whose headers
 * alone are read: b then read for nothing, its id set) for req as
 * ra_audit_page() does, without identifying its User-Agent again.
 */
int ra_audit_page_body(ra_audit_t *au, const ra_request_t *req,
    ra_body_t *b);

#endif /* RA_AUDIT_BODY_H */
