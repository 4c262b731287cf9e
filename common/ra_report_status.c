/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What Apache's mod_status shows of the audit: the ?auto lines of the
 * ledger's totals, and the HTML fragment below mod_status's own tables.
 * These are parts of another page, not status-page formats of their own.
 */
#include "ra_report_impl.h"

void
ra_report_status_kv(const ra_totals_t *t, ra_buf_t *out)
{
    ra_buf_cstr(out, "RobotsAuditRequests: ");
    ra_buf_u64(out, t->requests);
    ra_buf_cstr(out, "\nRobotsAuditCrawlerRequests: ");
    ra_buf_u64(out, t->crawler_requests);
    ra_buf_cstr(out, "\nRobotsAuditViolations: ");
    ra_buf_u64(out, t->violations_total);
    ra_buf_printf(out, "\nRobotsAuditSites: %u\n"
                  "RobotsAuditCrawlerRecords: %u\n"
                  "RobotsAuditSiteEvictions: ", t->sites, t->stats);
    ra_buf_u64(out, t->site_evictions);
    ra_buf_cstr(out, "\nRobotsAuditCrawlerEvictions: ");
    ra_buf_u64(out, t->stat_evictions);
    ra_buf_ch(out, '\n');
}

/* The fragment below mod_status's own tables: the same markup as its
 * (bare <table>, <hr /> before the heading). */
void
ra_rep_status_html(ra_rep_t *r)
{
    static const ra_counter_e  cols[] = {
        RA_CNT_REQUESTS, RA_CNT_COMPLIANT, RA_CNT_VIOLATION, RA_CNT_STALE,
        RA_CNT_UNREACHABLE
    };

    const ra_snapshot_t  *snap = r->snap;
    const ra_totals_t    *t = &snap->totals;
    const ra_site_t      *s;
    ra_buf_t             *b = r->b;
    uint32_t              i;
    unsigned              k;

    ra_buf_cstr(b, "<hr /><h2>robots-audit</h2>\n<dl><dt>");
    ra_buf_u64(b, t->crawler_requests);
    ra_buf_cstr(b, " crawler requests judged (");
    ra_buf_u64(b, t->requests);
    ra_buf_cstr(b, " in all), ");
    ra_buf_u64(b, t->violations_total);
    ra_buf_printf(b, " violations, %u sites, %u crawler records; "
                  "evictions: ", t->sites > snap->nsites ? t->sites
                                                         : snap->nsites,
                  t->stats > snap->nstats ? t->stats : snap->nstats);
    ra_buf_u64(b, t->site_evictions);
    ra_buf_cstr(b, " sites, ");
    ra_buf_u64(b, t->stat_evictions);
    ra_buf_cstr(b, " crawler records</dt></dl>\n");
    if (r->opts->no_table || snap->nsites == 0) {
        return;
    }
    ra_buf_cstr(b, "<table border=\"0\"><tr><th>site</th><th>robots.txt</th>"
                "<th>crawler requests</th><th>compliant</th>"
                "<th>violation</th><th>stale</th><th>unreachable</th>"
                "<th>browser requests</th></tr>\n");
    for (i = 0; i < snap->nsites; i++) {
        s = &snap->sites[i];
        ra_buf_cstr(b, "<tr><td>");
        ra_buf_html(b, ra_rep_site_name(s));
        ra_buf_printf(b, "</td><td>%u</td>", s->robots_status);
        for (k = 0; k < sizeof(cols) / sizeof(cols[0]); k++) {
            ra_buf_cstr(b, "<td>");
            ra_buf_u64(b, s->counters[cols[k]]);
            ra_buf_cstr(b, "</td>");
        }
        ra_buf_cstr(b, "<td>");
        ra_buf_u64(b, s->browser_requests);
        ra_buf_cstr(b, "</td></tr>\n");
    }
    ra_buf_cstr(b, "</table>\n");
    if (ra_rep_sites_total(snap) > snap->nsites) {
        ra_buf_printf(b, "<p>showing %u of %u sites, the most recently "
                      "seen</p>\n", snap->nsites, ra_rep_sites_total(snap));
    }
}
