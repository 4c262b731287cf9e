/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The page directives of the answers crawlers get, as the servers hand
 * them over: which answers are read at all, and the reading itself (the
 * X-Robots-Tag values, the robots meta tags of an HTML head, their
 * conflicts with the robots.txt in force), recorded per site in the
 * ledger (ra_pages_t).  docs/page-directives.md says what is recorded
 * and why.
 */
#ifndef RA_AUDIT_PAGE_H
#define RA_AUDIT_PAGE_H

#include "ra_audit.h"
#include "ra_crawlers.h"
#include "ra_http.h"
#include "ra_pagedir.h"

/* What a server hands over of an answer (ra_audit_page_wanted()) */
#define RA_PAGE_NONE     0      /* nothing: not a crawler's, not a page */
#define RA_PAGE_HEADERS  1      /* its X-Robots-Tag values */
#define RA_PAGE_HTML     2      /* those and the first RA_PD_SCAN bytes of
                                   its body (ra_capture_limit()) */

/*
 * Whether an answer (status, Content-Type) to a request (method, target
 * kind as ra_kind.h asks it, User-Agent) is read for page directives:
 * only a GET's 2xx answer with a body, not robots.txt nor the server's
 * own pages, and only when the User-Agent is a crawler's (of the table,
 * or plainly automated): a browser's answer costs one look-up of its
 * User-Agent in this process's memory of them and nothing more.  An HTML
 * answer's body is read too (RA_PAGE_HTML).  au NULL: RA_PAGE_NONE.
 */
int ra_audit_page_wanted(ra_audit_t *au, ra_str_t method, unsigned kind,
    int status, ra_str_t user_agent, ra_str_t content_type);

/* The same for a User-Agent identified already (ra_audit_crawler(), id):
 * a browser's answer is not asked again. */
int ra_audit_page_wanted_by(const ra_identity_t *id, ra_str_t method,
    unsigned kind, int status, ra_str_t user_agent, ra_str_t content_type);

/*
 * Reads one answer wanted above: tags, the values of its X-Robots-Tag
 * header lines (ntags of them, each as sent); html, NULL or the capture
 * of its body (limited to RA_PD_SCAN bytes, decoded here when coded).
 * The directives found are counted for the request's site under the
 * path's prefix, and the conflicts of docs/page-directives.md recorded
 * (noindex on a path robots.txt disallows, header and meta disagreeing,
 * directives a crawler ignores).  RA_OK, or RA_ENOMEM (the body could not
 * be kept or decoded: the headers are read all the same).
 */
int ra_audit_page(ra_audit_t *au, const ra_request_t *req,
    const ra_str_t *tags, size_t ntags, ra_capture_t *html);

/* The same for an answer whose crawler is known (id) and whose
 * X-Robots-Tag values pd holds already: html, NULL or the capture of its
 * head to scan into pd; scanned, when html is NULL, whether pd holds the
 * head's directives already (the body stream scanned it in place). */
int ra_audit_page_read(ra_audit_t *au, const ra_request_t *req,
    const ra_identity_t *id, ra_pagedir_t *pd, int scanned,
    ra_capture_t *html);

/* The X-Robots-Tag values a server hands over at most (the rest are not
 * read), and the bytes of an HTML body it captures (RA_PD_SCAN). */
#define RA_PAGE_TAGS  8
#define RA_PAGE_SCAN  (16u * 1024)

#endif /* RA_AUDIT_PAGE_H */
