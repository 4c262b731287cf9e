/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The status page both modules serve: which method, format and view a
 * request asks for, its headers, its size cap, and its body, rendered by
 * the reports (ra_report.h) from a snapshot of the ledger.  The HTTP
 * decisions it builds on (the query's arguments) are ra_http.h's.
 */
#ifndef RA_STATUS_H
#define RA_STATUS_H

#include "ra_core.h"
#include "ra_buf.h"
#include "ra_crawlers.h"
#include "ra_http.h"
#include "ra_ledger.h"
#include "ra_verify.h"

/*
 * The page is bounded whatever the zone's size: HTML, JSON and text show
 * the RA_STATUS_SITES most recently seen sites (?site= names one), per
 * site its ?limit= busiest crawler records (RA_STATUS_LIMIT by default,
 * at most RA_STATUS_LIMIT_MAX; fewer sites when the limit is raised, so
 * that sites x limit stays within RA_STATUS_ROWS), besides them up to
 * RA_STATUS_VIOLATORS records with violations, and its ?limit= newest
 * violations; no site starts once the page holds RA_STATUS_BUDGET bytes,
 * and the page says what it left out.  Prometheus is complete (every
 * counter of every site, ?site= narrows): generic bots' and unverified
 * records are summed per site as its metrics label them (ra_report.h),
 * so its size follows the sites and the verified crawlers, not the
 * traffic.  No page exceeds RA_STATUS_PAGE_MAX bytes: HTML, JSON or text
 * that would answers 500; a Prometheus page that would leaves out its
 * per-crawler families, then its per-site ones
 * (robots_audit_metrics_degraded says so), so that a scrape never fails
 * because of what clients sent.  A whole-zone Prometheus page whose
 * verified crawlers' records alone cannot fit (each is a series of at
 * least RA_STATUS_PROM_RECORD_MIN bytes) copies no record at all and
 * starts without the per-crawler families, so its cost stays bounded
 * whatever the zone holds.
 */
#define RA_STATUS_PAGE_MAX      (8u * 1024 * 1024)
#define RA_STATUS_BUDGET        (4u * 1024 * 1024)
#define RA_STATUS_SITES         50
#define RA_STATUS_LIMIT         50
#define RA_STATUS_LIMIT_MAX     200
#define RA_STATUS_ROWS          2500
#define RA_STATUS_VIOLATORS     50
/* the least bytes one crawler record writes to Prometheus: the seven
 * robots_audit_requests_total lines of its run, 92 bytes or more each */
#define RA_STATUS_PROM_RECORD_MIN  512

typedef struct ra_status_page_s {
    int            status;          /* 200, 400, 404, 405, 500, 503 */
    const char    *content_type;
    const char    *cache_control;   /* "no-store": counters are live */
    const char    *allow;           /* for 405: "GET, HEAD" */
    ra_buf_t       body;            /* release with ra_status_page_free */
    unsigned       header_only:1;   /* HEAD: send the headers only */
} ra_status_page_t;

/*
 * Answers a status-page request: method (GET or HEAD), query string (the
 * part after '?', without it; "format=json|prometheus|text|html|csv",
 * "limit=N", "site=NAME", "sort=violations|name" (most violations first,
 * the default, or by name), "crawler=NAME" (that crawler's records and
 * violations, with their rule hits), "purpose=P" (only the table's
 * crawlers of that purpose, ra_crawler_category_of()); other arguments
 * are ignored; a bad value answers 400; a site the ledger does not hold,
 * or a crawler neither the table nor the shown records name, 404), the
 * ledger (NULL: none is configured), now in
 * Unix ms.  Memory from a (a heap: the page may be large).  Always
 * fills page (an error page is a page too); RA_OK, or RA_ENOMEM when the
 * page says 500.  crawlers (NULL: none) names the policy tokens in the
 * robots.txt findings, as the audit's lint does.
 */
int ra_status_page(ra_ledger_t *l, const struct ra_crawlers_s *crawlers,
    ra_str_t method, ra_str_t query, int64_t now, const ra_alloc_t *a,
    ra_status_page_t *page);
/* The same, with the loaded IP-range lists (NULL: none), whose ages the
 * page shows (ra_report_opts_t.ranges), and no resolver. */
int ra_status_page_ranges(ra_ledger_t *l,
    const struct ra_crawlers_s *crawlers, const struct ra_ranges_s *ranges,
    ra_str_t method, ra_str_t query, int64_t now, const ra_alloc_t *a,
    ra_status_page_t *page);
/* What a server's page shows: its ledger (NULL: none), its crawler
 * table and IP-range lists (NULL: none), and whether it has a resolver
 * for reverse DNS (ra_report_opts_t.resolver): what the modules call. */
typedef struct ra_status_src_s {
    ra_ledger_t                 *ledger;
    const struct ra_crawlers_s  *crawlers;
    const struct ra_ranges_s    *ranges;
    unsigned                     resolver:1;
    /* the policies written in its scopes (ra_conf_main_t.policies);
     * NULL: none */
    const struct ra_policy_site_s  *policies;
} ra_status_src_t;

int ra_status_page_src(const ra_status_src_t *src, ra_str_t method,
    ra_str_t query, int64_t now, const ra_alloc_t *a,
    ra_status_page_t *page);
void ra_status_page_free(ra_status_page_t *page);

/* The page as the server sends it (ra_http.h): its status, type, body,
 * Cache-Control and, for a 405, Allow.  Valid while page is. */
void ra_status_page_reply(const ra_status_page_t *page, ra_reply_t *out);

/*
 * The robots-audit section of a server's own status page (Apache's
 * mod_status /server-status): with short_form (its "?auto"), the totals
 * as "Key: value" lines (ra_report_status_kv()); else the HTML fragment
 * of the totals and the RA_STATUS_SITES most recently seen sites, the
 * table of sites left out with no_table (its "?notable"); l NULL (this
 * process audits nothing), a line saying robots-audit is off, and
 * nothing in the short form.  Appended to
 * out (a buffer capped at RA_STATUS_PAGE_MAX); a the scratch heap.
 * RA_OK, or RA_ENOMEM with out->failed set.
 */
int ra_status_section(ra_ledger_t *l, int short_form, int no_table,
    int64_t now, const ra_alloc_t *a, ra_buf_t *out);

/* The view of the ledger a status page with these arguments shows:
 * limit 0 for the default; fmt as in ra_report.h. */
void ra_status_view(ra_str_t site, uint32_t limit, int fmt,
    ra_snapshot_view_t *view);

#endif /* RA_STATUS_H */
