/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Which answers a server captures and when the capture may have recorded
 * one: asked by the glue for every GET's answer and every logged request,
 * so inline, the way the checks stood in the glue before the core took
 * them.  A header of its own, above both the engine (ra_audit.h) and the
 * HTTP facts (ra_http.h) it reads.
 */
#ifndef RA_AUDIT_WANT_H
#define RA_AUDIT_WANT_H

#include "ra_audit.h"
#include "ra_http.h"

/*
 * Whether the capture may already have recorded the answer to a request
 * whose target is of that kind (ra_kind.h's word; 0: not asked), by
 * ra_audit_robots() with ans->req, so that the glue looks for its mark
 * to set req->recorded: a robots.txt; any target once some site
 * redirects (a redirect target's answer); a kind not asked (another
 * request's header filter ran between).  au NULL: no site redirects.
 */
static inline int
ra_audit_may_be_recorded(const ra_audit_t *au, unsigned kind)
{
    return kind == 0 || (kind & RA_TARGET_ROBOTS)
           || (au != NULL && ra_audit_redirects(au));
}

/*
 * Whether a server captures the answer it is about to give (method,
 * status, a Range header) to a request whose target is of that kind
 * (ra_kind.h's word): RA_CAPTURE_ROBOTS for the answer to robots.txt
 * (ra_http_capture_wanted_kind()); RA_CAPTURE_HOP when the target may be
 * a redirect's of some site's robots.txt, so that the glue asks
 * ra_audit_robots_hop() which (0: none, no capture); RA_CAPTURE_NONE
 * otherwise.  Redirect targets are asked about only once some site
 * redirects, and only for an answer that is a file.  au NULL: no site
 * redirects.
 */
#define RA_CAPTURE_NONE    (-1)
#define RA_CAPTURE_ROBOTS  0
#define RA_CAPTURE_HOP     1

static inline int
ra_audit_capture_wanted(const ra_audit_t *au, ra_str_t method,
    unsigned kind, int status, int has_range)
{
    if (ra_http_capture_wanted_kind(method, kind, status, has_range)) {
        return RA_CAPTURE_ROBOTS;
    }
    /* the target of a redirect of robots.txt is robots.txt too: asked
     * only once some site's robots.txt redirected within the site */
    if ((kind & RA_TARGET_ROBOTS) || au == NULL || !ra_audit_redirects(au)
        || !ra_http_capture_wanted_answer(method, status, has_range))
    {
        return RA_CAPTURE_NONE;
    }
    return RA_CAPTURE_HOP;
}

#endif /* RA_AUDIT_WANT_H */
