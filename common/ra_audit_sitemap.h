/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Sitemaps in the servers: which answer is a crawler's fetch of one of a
 * site's sitemaps (those its robots.txt in force lists, ra_ledger.h's
 * ra_sitemaps_t), its capture as it is served (piece by piece, gzip or
 * not, in bounded memory) and its lint against that robots.txt, recorded
 * in the ledger.  The glue asks ra_audit_sitemap_start() for every GET's
 * answer it may capture and feeds what it is given a capture for; every
 * decision is here.
 */
#ifndef RA_AUDIT_SITEMAP_H
#define RA_AUDIT_SITEMAP_H

#include "ra_audit.h"
#include "ra_http.h"

typedef struct ra_sm_capture_s  ra_sm_capture_t;

/*
 * Is the answer to req (its site, method, uri, authority, User-Agent and
 * status) a crawler's fetch of one of its site's sitemaps?  NULL when it
 * is not; when it is and has no body to read (has_body 0, or a status
 * other than 2xx), the fetch is recorded here and NULL returned too.
 * Else a capture from a (the request's memory, copied: a may be the
 * caller's local; it holds the lint's state, about 100 KiB, and the
 * site's rules), to feed with the answer's
 * bytes as served and end at its last byte.  A browser's request costs
 * the User-Agent's identity (cached) and no lock.
 */
ra_sm_capture_t *ra_audit_sitemap_start(ra_audit_t *au,
    const ra_request_t *req, int has_body, const ra_alloc_t *a,
    int64_t now);

/* The same for a User-Agent identified already (ra_audit_crawler(), id):
 * a browser's answer is not asked again. */
ra_sm_capture_t *ra_audit_sitemap_start_by(ra_audit_t *au,
    const ra_request_t *req, const ra_identity_t *id, int has_body,
    const ra_alloc_t *a, int64_t now);

/* Bytes of the answer, in memory. */
void ra_audit_sitemap_feed(ra_sm_capture_t *c, const void *p, size_t n);

/* n bytes of the answer held elsewhere (a file), copied a piece at a time
 * by read(ctx, dst, k, off): RA_OK when it copied all k bytes at offset
 * off of those n.  RA_ERROR when a read failed (the capture is not
 * recorded; the caller says why). */
int ra_audit_sitemap_read(ra_sm_capture_t *c, size_t n,
    int (*read)(void *ctx, void *dst, size_t k, size_t off), void *ctx);

/* The answer's last byte: the lint ends and the fetch is recorded (au:
 * the engine of the server's process or thread then, as for start). */
void ra_audit_sitemap_end(ra_audit_t *au, ra_sm_capture_t *c, int64_t now);

/*
 * A robots.txt answer recorded as the site's (ra_audit_robots()): when it
 * is the version in force now, its Sitemap: lines become the site's list
 * (ra_ledger_sitemaps_list_locked()).
 */
void ra_audit_sitemaps_listed(ra_audit_t *au, ra_str_t site,
    const ra_answer_t *ans, uint64_t hash, int64_t now);

#endif /* RA_AUDIT_SITEMAP_H */
