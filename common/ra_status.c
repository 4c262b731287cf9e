/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The status page (ra_status.h): a request's method and arguments read,
 * the page's view of the ledger bounded, its body rendered by the reports
 * (ra_report.h), and its headers and status chosen.
 */
#include <string.h>

#include "ra_http.h"
#include "ra_report.h"
#include "ra_status.h"
#include "ra_undeclared.h"

void
ra_status_view(ra_str_t site, uint32_t limit, int fmt,
    ra_snapshot_view_t *view)
{
    memset(view, 0, sizeof(*view));
    view->site = site;
    if (fmt == RA_REPORT_PROMETHEUS) {
        view->max_sites = UINT32_MAX;
        view->fold_generic = 1;
        return;
    }
    if (limit == 0) {
        limit = RA_STATUS_LIMIT;
    }
    view->max_sites = RA_STATUS_ROWS / limit < RA_STATUS_SITES
                      ? RA_STATUS_ROWS / limit : RA_STATUS_SITES;
    if (view->max_sites == 0) {
        view->max_sites = 1;
    }
    view->max_crawlers = limit;
    view->max_violators = RA_STATUS_VIOLATORS;
    view->max_violations = limit;
}

/* ?limit=N: 1..RA_STATUS_LIMIT_MAX, digits only */
static int
ra_status_limit(ra_str_t v, uint32_t *limit)
{
    size_t    i;
    uint32_t  n = 0;

    if (v.len == 0 || v.len > 4) {
        return RA_ERROR;
    }
    for (i = 0; i < v.len; i++) {
        if (v.data[i] < '0' || v.data[i] > '9') {
            return RA_ERROR;
        }
        n = n * 10 + (uint32_t) (v.data[i] - '0');
    }
    if (n == 0 || n > RA_STATUS_LIMIT_MAX) {
        return RA_ERROR;
    }
    *limit = n;
    return RA_OK;
}

static void
ra_status_error(ra_status_page_t *page, int status, const char *text)
{
    page->status = status;
    page->content_type = "text/plain; charset=utf-8";
    page->body.len = 0;
    page->body.failed = 0;
    page->body.truncated = 0;
    ra_buf_cstr(&page->body, text);
}

int
ra_status_page(ra_ledger_t *l, const struct ra_crawlers_s *crawlers,
    ra_str_t method, ra_str_t query, int64_t now, const ra_alloc_t *a,
    ra_status_page_t *page)
{
    return ra_status_page_ranges(l, crawlers, NULL, method, query, now, a,
                                 page);
}

int
ra_status_page_ranges(ra_ledger_t *l, const struct ra_crawlers_s *crawlers,
    const struct ra_ranges_s *ranges, ra_str_t method, ra_str_t query,
    int64_t now, const ra_alloc_t *a, ra_status_page_t *page)
{
    ra_status_src_t  src = { l, crawlers, ranges, 0, NULL };

    return ra_status_page_src(&src, method, query, now, a, page);
}

/* Does the snapshot name the crawler ?crawler= asks for: a record or a
 * violation of that name (a generic bot's token, a crawler of an
 * operator's file)?  The view kept only those. */
static int
ra_status_crawler_seen(const ra_snapshot_t *snap)
{
    return snap->nstats != 0 || snap->nviolations != 0;
}

int
ra_status_page_src(const ra_status_src_t *src, ra_str_t method,
    ra_str_t query, int64_t now, const ra_alloc_t *a, ra_status_page_t *page)
{
    ra_ledger_t         *l = src->ledger;
    int                  rc;
    uint32_t             limit = 0;
    unsigned             purpose = 0;
    int                  relint;
    int                  sort_violations = 1;
    ra_str_t             name, site = { 0, NULL }, crawler = { 0, NULL };
    ra_snapshot_t        snap;
    ra_report_opts_t     opts;
    ra_report_format_e   fmt;
    ra_snapshot_view_t   view;
    ra_undecl_sites_t    undecl = { NULL, 0 };

    memset(page, 0, sizeof(*page));
    page->cache_control = "no-store";
    ra_buf_init(&page->body, a, 0, RA_STATUS_PAGE_MAX);

    if (method.len == 4 && memcmp(method.data, "HEAD", 4) == 0) {
        page->header_only = 1;
    } else if (!(method.len == 3 && memcmp(method.data, "GET", 3) == 0)) {
        page->allow = "GET, HEAD";
        ra_status_error(page, 405, "robots-audit: the status page answers "
                        "GET and HEAD only\n");
        return RA_OK;
    }

    fmt = RA_REPORT_HTML;
    if (ra_query_arg(query, "format", &name) == RA_OK
        && ra_report_format_by_name(name, &fmt) != RA_OK)
    {
        ra_status_error(page, 400, "robots-audit: format is one of html, "
                        "json, prometheus, text, csv, "
                        "csv-crawlers\n");
        return RA_OK;
    }

    if (ra_query_arg(query, "limit", &name) == RA_OK
        && ra_status_limit(name, &limit) != RA_OK)
    {
        ra_status_error(page, 400, "robots-audit: limit is a number from 1 "
                        "to 200\n");
        return RA_OK;
    }
    if (ra_query_arg(query, "sort", &name) == RA_OK) {
        if (name.len == 4 && memcmp(name.data, "name", 4) == 0) {
            sort_violations = 0;
        } else if (!(name.len == 10
                     && memcmp(name.data, "violations", 10) == 0))
        {
            ra_status_error(page, 400, "robots-audit: sort is name or "
                            "violations\n");
            return RA_OK;
        }
    }
    if (ra_query_arg(query, "crawler", &crawler) == RA_OK
        && (crawler.len == 0 || crawler.len > RA_NAME_MAX))
    {
        ra_status_error(page, 400, "robots-audit: crawler is a crawler's "
                        "name (1 to 64 bytes)\n");
        return RA_OK;
    }
    if (ra_query_arg(query, "site", &site) == RA_OK
        && (site.len == 0 || site.len > RA_SITE_NAME_MAX))
    {
        ra_status_error(page, 400, "robots-audit: site is a site's name "
                        "(1 to 128 bytes)\n");
        return RA_OK;
    }
    if (ra_query_arg(query, "purpose", &name) == RA_OK
        && (purpose = ra_crawler_category_of(name) + 1) > RA_CAT_MAX)
    {
        ra_status_error(page, 400, "robots-audit: purpose is one of search, "
                        "ai-training, ai-search, ai-user, seo, "
                        "social-preview, monitoring, archive, feed, academic, "
                        "security-scanner, tool\n");
        return RA_OK;
    }

    if (l == NULL) {
        ra_status_error(page, 503, "robots-audit: no ledger: auditing is "
                        "not on anywhere in the configuration\n");
        return RA_OK;
    }

    ra_status_view(site, limit, (int) fmt, &view);
    if (fmt == RA_REPORT_PROMETHEUS && site.len == 0) {
        ra_totals_t  t;

        ra_ledger_totals(l, &t);
        if ((uint64_t) t.stats_verified * RA_STATUS_PROM_RECORD_MIN
            > RA_STATUS_PAGE_MAX)
        {
            view.sites_only = 1;        /* the per-site families only */
        }
    }
    view.purpose = purpose;
    view.crawler = crawler;
    /* findings: HTML, and JSON of one site (?site=): relinting costs
     * milliseconds per 500 KiB body */
    relint = fmt == RA_REPORT_HTML || (fmt == RA_REPORT_JSON && site.len);
    /* bodies: the robots.txt shown in HTML, rule_hits' patterns in JSON */
    if (ra_ledger_snapshot_view(l, a, fmt == RA_REPORT_HTML
                                      || fmt == RA_REPORT_JSON, &view, &snap)
        != RA_OK)
    {
        ra_snapshot_free(&snap, a);
        ra_status_error(page, 500, "robots-audit: out of memory\n");
        return RA_ENOMEM;
    }
    /* a name that matches nothing is a wrong address, not an empty
     * page: a site is known when the ledger holds it, a crawler when the
     * table names it or a record shown does */
    if ((site.len && snap.nsites == 0)
        || (crawler.data != NULL && !ra_status_crawler_seen(&snap)
            && (src->crawlers == NULL
                || ra_crawlers_find(src->crawlers, crawler) == NULL)))
    {
        ra_snapshot_free(&snap, a);
        ra_status_error(page, 404, site.len && snap.nsites == 0
                        ? "robots-audit: no site of that name (?site=)\n"
                        : "robots-audit: no crawler of that name "
                          "(?crawler=)\n");
        return RA_OK;
    }

    memset(&opts, 0, sizeof(opts));
    opts.now = now;
    opts.relint = relint;
    opts.crawlers = src->crawlers;
    opts.ranges = src->ranges;
    opts.resolver = src->resolver;
    opts.policies = src->policies;
    opts.scratch = a;
    opts.max_crawlers = view.max_crawlers + view.max_violators;
    opts.max_violations = view.max_violations;
    opts.max_bytes = RA_STATUS_BUDGET;
    opts.sort_violations = (unsigned) sort_violations;
    opts.crawler_rules = crawler.data != NULL;
    opts.prom_sites_only = view.sites_only;
    /* the undeclared crawlers' tables, copied under the lock (none
     * copied for want of memory: shown as none) */
    if (ra_ledger_undecl_slots(l) != 0) {
        ra_ledger_lock(l);
        (void) ra_ledger_undecl_copy_locked(l, a, &undecl);
        ra_ledger_unlock(l);
        opts.undeclared = &undecl;
    }

    rc = ra_report_render(&snap, fmt, &opts, &page->body);
    ra_snapshot_free(&snap, a);
    ra_ledger_undecl_free(a, &undecl);

    if (rc != RA_OK || page->body.failed) {
        ra_status_error(page, 500, "robots-audit: out of memory\n");
        return RA_ENOMEM;
    }
    if (page->body.truncated) {
        ra_status_error(page, 500, "robots-audit: the page would exceed "
                        "8 MiB; ?site= narrows it to one site\n");
        return RA_OK;
    }

    page->status = 200;
    page->content_type = ra_report_content_type(fmt);
    return RA_OK;
}

void
ra_status_page_free(ra_status_page_t *page)
{
    ra_buf_release(&page->body);
}

int
ra_status_section(ra_ledger_t *l, int short_form, int no_table, int64_t now,
    const ra_alloc_t *a, ra_buf_t *out)
{
    ra_totals_t         t;
    ra_snapshot_t       snap;
    ra_report_opts_t    opts;
    ra_snapshot_view_t  view = { .max_sites = RA_STATUS_SITES };

    if (l == NULL) {
        if (!short_form) {
            ra_buf_cstr(out, "<hr /><h2>robots-audit</h2>\n<p>off (RobotsAudit "
                        "is not On anywhere)</p>\n");
        }
    } else if (short_form) {
        ra_ledger_totals(l, &t);
        ra_report_status_kv(&t, out);
    } else if (ra_ledger_snapshot_view(l, a, 0, &view, &snap) != RA_OK) {
        out->failed = 1;
        ra_snapshot_free(&snap, a);
    } else {
        memset(&opts, 0, sizeof(opts));
        opts.now = now;
        opts.no_table = no_table != 0;
        opts.scratch = a;
        (void) ra_report_render(&snap, RA_REPORT_STATUS_HTML, &opts, out);
        ra_snapshot_free(&snap, a);
    }
    return out->failed ? RA_ENOMEM : RA_OK;
}


void
ra_status_page_reply(const ra_status_page_t *page, ra_reply_t *out)
{
    memset(out, 0, sizeof(*out));
    out->status = page->status;
    out->content_type = page->content_type;
    out->body = ra_str(page->body.data, page->body.len);
    out->header_only = page->header_only;
    out->fields[0].name = "Cache-Control";
    out->fields[0].value = page->cache_control;
    if (page->allow != NULL) {
        out->fields[1].name = "Allow";
        out->fields[1].value = page->allow;
    }
}
