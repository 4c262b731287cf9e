/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A site's sitemaps in the reports (ra_sitemaps_t of ra_ledger.h): those
 * its robots.txt in force lists, whether crawlers fetched them (who, when,
 * the status and size) and the lint of the last answer captured, in each
 * format: a JSON array sites[].sitemaps[], a part of its own in text and
 * HTML, and Prometheus families labelled by site and sitemap (at most
 * RA_SITEMAPS per site).  Each format's report calls its function here at
 * one place.
 */
#include "ra_report_impl.h"
#include "ra_sitemap.h"

static const char  *const ra_rep_sm_crawler[] = { "", "*", "Googlebot",
                                                   "Bingbot" };

static ra_str_t
ra_rep_sm_url(const ra_sitemap_t *sm)
{
    return ra_rep_field(sm->url, sm->url_len);
}

static const char *
ra_rep_sm_kind(const ra_sitemap_t *sm)
{
    return sm->kind == RA_SM_URLSET ? "urlset"
           : sm->kind == RA_SM_INDEX ? "sitemapindex" : "";
}

static const char *
ra_rep_sm_who(const ra_sitemap_example_t *e)
{
    return ra_rep_sm_crawler[e->crawler < 4 ? e->crawler : 0];
}

/* Text and HTML say the same with their own escapes (put) and marks. */
typedef void (*ra_rep_sm_put_pt)(ra_buf_t *b, ra_str_t s);

static void
ra_rep_sm_crawlers(ra_buf_t *b, const ra_sitemap_t *sm, ra_rep_sm_put_pt put)
{
    unsigned  i;

    for (i = 0; i < sm->ncrawlers; i++) {
        ra_buf_cstr(b, i ? ", " : "");
        put(b, ra_rep_field(sm->crawlers[i], sm->crawler_len[i]));
    }
}

/* the counts of the kinds found, each as fmt ("%s %u") says */
static void
ra_rep_sm_counts(ra_buf_t *b, const ra_sitemap_t *sm, const char *fmt)
{
    unsigned  i;

    for (i = 0; sm->linted && i < RA_SITEMAP_KINDS; i++) {
        if (sm->counts[i]) {
            ra_buf_printf(b, fmt, ra_sitemap_code_name((ra_sm_code_e) i),
                          sm->counts[i]);
        }
    }
}

/* "KIND, line N: URL (for CRAWLER by RULE, robots.txt line N)", the rule
 * between q0 and q1 */
static void
ra_rep_sm_example(ra_buf_t *b, const ra_sitemap_example_t *e,
    ra_rep_sm_put_pt put, const char *q0, const char *q1)
{
    ra_buf_printf(b, "%s, line %u: ",
                  ra_sitemap_code_name((ra_sm_code_e) e->kind), e->line);
    put(b, ra_rep_field(e->url, e->url_len));
    if (e->kind == RA_SMF_DISALLOWED) {
        ra_buf_printf(b, " (for %s by %s", ra_rep_sm_who(e), q0);
        put(b, ra_rep_field(e->detail, e->detail_len));
        ra_buf_printf(b, "%s, robots.txt line %u)", q1, e->rule_line);
    } else if (e->detail_len) {
        ra_buf_cstr(b, " (");
        put(b, ra_rep_field(e->detail, e->detail_len));
        ra_buf_ch(b, ')');
    }
}

/* ---- JSON ------------------------------------------------------------- */

static void
ra_rep_sm_json_time(ra_buf_t *b, const char *key, int64_t ms)
{
    ra_buf_printf(b, ",\"%s\":", key);
    ra_rep_json_time(b, ms);
}

static void
ra_rep_sm_json_one(ra_buf_t *b, const ra_sitemap_t *sm)
{
    const ra_sitemap_example_t  *e;
    unsigned                     k;

    ra_buf_cstr(b, "{\"url\":");
    ra_buf_json_str(b, ra_rep_sm_url(sm));
    ra_buf_printf(b, ",\"listed\":%s,\"fetched\":%s,\"fetches\":",
                  sm->listed ? "true" : "false",
                  sm->fetches ? "true" : "false");
    ra_buf_u64(b, sm->fetches);
    ra_buf_cstr(b, ",\"crawlers\":[");
    for (k = 0; k < sm->ncrawlers; k++) {
        ra_buf_cstr(b, k ? "," : "");
        ra_buf_json_str(b, ra_rep_field(sm->crawlers[k],
                                        sm->crawler_len[k]));
    }
    ra_buf_ch(b, ']');
    ra_rep_sm_json_time(b, "first_fetch", sm->first);
    ra_rep_sm_json_time(b, "last_fetch", sm->last);
    if (sm->fetches) {
        ra_buf_printf(b, ",\"status\":%u,\"size\":", sm->status);
        ra_buf_u64(b, sm->size);
    } else {
        ra_buf_cstr(b, ",\"status\":null,\"size\":null");
    }
    if (!sm->linted) {
        ra_buf_cstr(b, ",\"linted\":null}");
        return;
    }
    ra_rep_sm_json_time(b, "linted", sm->lint_time);
    ra_buf_printf(b, ",\"kind\":\"%s\",\"gzip\":%s,\"complete\":%s,"
                  "\"urls\":%u,\"findings\":{", ra_rep_sm_kind(sm),
                  sm->gzip ? "true" : "false",
                  sm->complete ? "true" : "false", sm->urls);
    for (k = 0; k < RA_SITEMAP_KINDS; k++) {
        ra_buf_printf(b, "%s\"%s\":%u", k ? "," : "",
                      ra_sitemap_code_name((ra_sm_code_e) k), sm->counts[k]);
    }
    ra_buf_cstr(b, "},\"examples\":[");
    for (k = 0; k < sm->nexamples; k++) {
        e = &sm->examples[k];
        ra_buf_printf(b, "%s{\"kind\":\"%s\",\"url\":", k ? "," : "",
                      ra_sitemap_code_name((ra_sm_code_e) e->kind));
        ra_buf_json_str(b, ra_rep_field(e->url, e->url_len));
        ra_buf_printf(b, ",\"line\":%u", e->line);
        if (e->kind == RA_SMF_DISALLOWED) {
            ra_buf_printf(b, ",\"crawler\":\"%s\",\"rule\":",
                          ra_rep_sm_who(e));
            ra_buf_json_str(b, ra_rep_field(e->detail, e->detail_len));
            ra_buf_printf(b, ",\"rule_line\":%u}", e->rule_line);
        } else {
            ra_buf_cstr(b, ",\"detail\":");
            ra_buf_json_str(b, ra_rep_field(e->detail, e->detail_len));
            ra_buf_ch(b, '}');
        }
    }
    ra_buf_cstr(b, "]}");
}

void
ra_rep_sitemaps_json(ra_rep_t *r, uint32_t si)
{
    const ra_sitemaps_t  *m = &r->snap->sites[si].sitemaps;
    ra_buf_t             *b = r->b;
    uint32_t              k;

    ra_buf_cstr(b, ",\"sitemaps\":[");
    for (k = 0; k < m->n && k < RA_SITEMAPS; k++) {
        ra_buf_cstr(b, k ? "," : "");
        ra_rep_sm_json_one(b, &m->maps[k]);
    }
    ra_buf_printf(b, "],\"sitemap_lines\":%u", m->lines);
}

/* ---- text ------------------------------------------------------------- */

void
ra_rep_sitemaps_text(ra_rep_t *r, uint32_t si)
{
    const ra_sitemaps_t         *m = &r->snap->sites[si].sitemaps;
    const ra_sitemap_t          *sm;
    ra_buf_t                    *b = r->b;
    uint32_t                     k, i;

    if (m->n == 0) {
        return;
    }
    ra_buf_printf(b, "  sitemaps (%u Sitemap: line%s in robots.txt):\n",
                  m->lines, m->lines == 1 ? "" : "s");
    for (k = 0; k < m->n && k < RA_SITEMAPS; k++) {
        sm = &m->maps[k];
        ra_buf_cstr(b, "    ");
        ra_buf_log(b, ra_rep_sm_url(sm));
        ra_buf_cstr(b, sm->listed ? "" : " (not listed)");
        if (sm->fetches == 0) {
            ra_buf_cstr(b, ": never fetched by a crawler\n");
            continue;
        }
        ra_buf_cstr(b, ": fetched ");
        ra_buf_u64(b, sm->fetches);
        ra_buf_cstr(b, " time(s), last by ");
        ra_rep_sm_crawlers(b, sm, ra_buf_log);
        ra_buf_cstr(b, ", last ");
        ra_rep_iso(b, sm->last);
        ra_buf_printf(b, ", status %u, ", sm->status);
        ra_buf_u64(b, sm->size);
        ra_buf_cstr(b, " bytes\n");
        if (!sm->linted) {
            continue;
        }
        ra_buf_printf(b, "      %s%s, %u URL%s%s; findings:",
                      ra_rep_sm_kind(sm)[0] ? ra_rep_sm_kind(sm) : "unknown",
                      sm->gzip ? " (gzip)" : "", sm->urls,
                      sm->urls == 1 ? "" : "s",
                      sm->complete ? "" : ", not read to its end");
        ra_rep_sm_counts(b, sm, " %s %u");
        ra_buf_cstr(b, sm->nexamples ? "\n" : " none\n");
        for (i = 0; i < sm->nexamples; i++) {
            ra_buf_cstr(b, "      e.g. ");
            ra_rep_sm_example(b, &sm->examples[i], ra_buf_log, "'", "'");
            ra_buf_ch(b, '\n');
        }
    }
}

/* ---- HTML ------------------------------------------------------------- */

void
ra_rep_sitemaps_html(ra_rep_t *r, uint32_t si)
{
    const ra_sitemaps_t         *m = &r->snap->sites[si].sitemaps;
    const ra_sitemap_t          *sm;
    ra_buf_t                    *b = r->b;
    uint32_t                     k, i;

    if (m->n == 0) {
        return;
    }
    ra_buf_cstr(b, "<h3>Sitemaps</h3><p class=\"muted\">The Sitemap: lines "
                "of the robots.txt in force, the crawlers' fetches and the "
                "lint of the last answer.</p><div class=\"scroll\"><table>"
                "<tr><th>sitemap</th><th>listed</th><th>fetches</th>"
                "<th>crawlers</th><th>last fetch</th><th>status</th>"
                "<th>size</th><th>URLs</th><th>findings</th></tr>");
    for (k = 0; k < m->n && k < RA_SITEMAPS; k++) {
        sm = &m->maps[k];
        ra_buf_cstr(b, "<tr><td>");
        ra_buf_html(b, ra_rep_sm_url(sm));
        ra_buf_printf(b, "</td><td>%s</td><td>", sm->listed ? "yes" : "no");
        ra_buf_u64(b, sm->fetches);
        ra_buf_cstr(b, "</td><td>");
        ra_rep_sm_crawlers(b, sm, ra_buf_html);
        ra_buf_cstr(b, "</td><td>");
        if (sm->fetches) {
            ra_rep_iso(b, sm->last);
            ra_buf_printf(b, "</td><td>%u</td><td>", sm->status);
            ra_buf_u64(b, sm->size);
        } else {
            ra_buf_cstr(b, "never</td><td></td><td>");
        }
        ra_buf_cstr(b, "</td><td>");
        if (sm->linted) {
            ra_buf_printf(b, "%u", sm->urls);
        }
        ra_buf_cstr(b, "</td><td>");
        ra_rep_sm_counts(b, sm, "%s %u<br>");
        for (i = 0; i < sm->nexamples; i++) {
            ra_buf_cstr(b, "<small>");
            ra_rep_sm_example(b, &sm->examples[i], ra_buf_html, "<code>",
                              "</code>");
            ra_buf_cstr(b, "</small><br>");
        }
        ra_buf_cstr(b, "</td></tr>");
    }
    ra_buf_cstr(b, "</table></div>");
}

/* ---- Prometheus --------------------------------------------------------- */

static void
ra_rep_sm_prom_labels(ra_buf_t *b, const char *family, ra_str_t site,
    const ra_sitemap_t *sm)
{
    ra_buf_printf(b, "%s{site=\"", family);
    ra_buf_prom_label(b, site);
    ra_buf_cstr(b, "\",sitemap=\"");
    ra_buf_prom_label(b, ra_rep_sm_url(sm));
    ra_buf_ch(b, '"');
}

void
ra_rep_sitemaps_prom(ra_rep_t *r)
{
    const ra_sitemaps_t  *m;
    const ra_sitemap_t   *sm;
    ra_buf_t             *b = r->b;
    ra_str_t              site;
    uint32_t              i, k, c, pass;

    for (pass = 0; pass < 2; pass++) {
        ra_buf_cstr(b, pass == 0
            ? "# HELP robots_audit_sitemap_fetches_total Crawlers' fetches "
              "of the sitemaps robots.txt lists.\n"
              "# TYPE robots_audit_sitemap_fetches_total counter\n"
            : "# HELP robots_audit_sitemap_findings Findings of the lint "
              "of the last sitemap answer captured, by kind.\n"
              "# TYPE robots_audit_sitemap_findings gauge\n");
        for (i = 0; i < r->snap->nsites; i++) {
            m = &r->snap->sites[i].sitemaps;
            site = ra_rep_site_name(&r->snap->sites[i]);
            for (k = 0; k < m->n && k < RA_SITEMAPS; k++) {
                sm = &m->maps[k];
                if (pass == 0) {
                    ra_rep_sm_prom_labels(b,
                        "robots_audit_sitemap_fetches_total", site, sm);
                    ra_buf_cstr(b, "} ");
                    ra_buf_u64(b, sm->fetches);
                    ra_buf_ch(b, '\n');
                    continue;
                }
                for (c = 0; sm->linted && c < RA_SITEMAP_KINDS; c++) {
                    ra_rep_sm_prom_labels(b, "robots_audit_sitemap_findings",
                                          site, sm);
                    ra_buf_printf(b, ",kind=\"%s\"} %u\n",
                                  ra_sitemap_code_name((ra_sm_code_e) c),
                                  sm->counts[c]);
                }
            }
        }
    }
}
