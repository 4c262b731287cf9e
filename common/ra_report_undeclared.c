/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The undeclared crawlers in the reports: per site, the clients the
 * detector flagged (ra_undeclared.h) with their User-Agents, signals,
 * score and verdicts against the '*' group, in each format: a JSON array
 * sites[].undeclared[], a heading of their own in text and HTML,
 * Prometheus families, and CSV rows of their latest violations.  Each
 * format's report calls its function here at one place.
 */
#include "ra_report_impl.h"
#include "ra_undeclared.h"

/* The table of site si, NULL when it has none or nobody is flagged */
static ra_undecl_t *
ra_rep_undecl_of(const ra_rep_t *r, uint32_t si)
{
    ra_undecl_t  *t;

    if (r->opts->undeclared == NULL) {
        return NULL;
    }
    t = ra_undecl_sites_find(r->opts->undeclared,
                             ra_rep_site_name(&r->snap->sites[si]));
    return t != NULL && ra_undecl_records(t) ? t : NULL;
}

void
ra_rep_undeclared_json(ra_rep_t *r, uint32_t si)
{
    ra_undecl_t      *t = ra_rep_undecl_of(r, si);
    ra_undecl_rec_t  *rec;
    ra_buf_t         *b = r->b;
    uint32_t          i, k;
    char              client[48];

    if (r->opts->undeclared == NULL) {
        return;                 /* no detector (too small a zone, or off) */
    }
    ra_buf_cstr(b, ",\"undeclared\":[");
    for (i = 0; t != NULL && i < ra_undecl_records(t); i++) {
        rec = ra_undecl_record(t, i);
        ra_undecl_client(rec->addr, client);
        ra_buf_printf(b, "%s{\"client\":\"%s\",\"user_agents\":[",
                      i ? "," : "", client);
        for (k = 0; k < rec->nuas; k++) {
            if (k) {
                ra_buf_ch(b, ',');
            }
            ra_buf_json_str(b, ra_str(rec->ua[k], rec->ua_len[k]));
        }
        ra_buf_cstr(b, "],\"signals\":[");
        ra_undecl_signals_list(b, rec->signals, 1);
        ra_buf_printf(b, "],\"score\":%d,\"requests\":", (int) rec->score);
        ra_buf_u64(b, rec->requests);
        ra_buf_cstr(b, ",\"violation\":");
        ra_buf_u64(b, rec->violation);
        ra_buf_cstr(b, ",\"compliant\":");
        ra_buf_u64(b, rec->compliant);
        ra_buf_cstr(b, ",\"first_seen\":\"");
        ra_rep_iso(b, rec->first_ms);
        ra_buf_cstr(b, "\",\"last_seen\":\"");
        ra_rep_iso(b, rec->last_ms);
        ra_buf_cstr(b, "\"}");
    }
    ra_buf_ch(b, ']');
}

void
ra_rep_undeclared_text(ra_rep_t *r, uint32_t si)
{
    ra_undecl_t      *t = ra_rep_undecl_of(r, si);
    ra_undecl_rec_t  *rec;
    ra_buf_t         *b = r->b;
    uint32_t          i;
    char              client[48];

    if (t == NULL) {
        return;
    }
    ra_buf_printf(b, "  undeclared crawlers (a browser's User-Agent, a "
                  "crawler's behaviour; judged against '*'):\n"
                  "  %-40s %9s %9s %9s %5s %s\n", "client", "requests",
                  "compliant", "violation", "score", "signals");
    for (i = 0; i < ra_undecl_records(t); i++) {
        rec = ra_undecl_record(t, i);
        ra_undecl_client(rec->addr, client);
        ra_buf_printf(b, "  %-40s %9llu %9llu %9llu %5d ", client,
                      (unsigned long long) rec->requests,
                      (unsigned long long) rec->compliant,
                      (unsigned long long) rec->violation, (int) rec->score);
        ra_undecl_signals_list(b, rec->signals, 0);
        ra_buf_cstr(b, "\n    User-Agent: ");
        ra_buf_log(b, ra_str(rec->ua[0], rec->nuas ? rec->ua_len[0] : 0));
        if (rec->nuas > 1) {
            ra_buf_printf(b, " (and %u more)", rec->nuas - 1);
        }
        ra_buf_ch(b, '\n');
    }
}

void
ra_rep_undeclared_html(ra_rep_t *r, uint32_t si)
{
    ra_undecl_t      *t = ra_rep_undecl_of(r, si);
    ra_undecl_rec_t  *rec;
    ra_buf_t         *b = r->b;
    uint32_t          i, k;
    char              client[48];

    if (t == NULL) {
        return;
    }
    ra_buf_cstr(b, "<h3>Undeclared crawlers</h3><p class=\"muted\">Clients "
                "whose User-Agent is a browser's and whose behaviour is a "
                "crawler's, judged against the <code>*</code> group.</p>"
                "<div class=\"scroll\"><table><tr><th>client</th>"
                "<th>requests</th><th>compliant</th><th>violation</th>"
                "<th>score</th><th>signals</th><th>User-Agents</th></tr>");
    for (i = 0; i < ra_undecl_records(t); i++) {
        rec = ra_undecl_record(t, i);
        ra_undecl_client(rec->addr, client);
        ra_buf_printf(b, "<tr><td>%s</td><td>%llu</td><td>%llu</td>"
                      "<td>%llu</td><td>%d</td><td>", client,
                      (unsigned long long) rec->requests,
                      (unsigned long long) rec->compliant,
                      (unsigned long long) rec->violation, (int) rec->score);
        ra_undecl_signals_list(b, rec->signals, 0);
        ra_buf_cstr(b, "</td><td>");
        for (k = 0; k < rec->nuas; k++) {
            ra_buf_cstr(b, k ? "<br>" : "");
            ra_buf_html(b, ra_str(rec->ua[k], rec->ua_len[k]));
        }
        ra_buf_cstr(b, "</td></tr>");
    }
    ra_buf_cstr(b, "</table></div>");
}

void
ra_rep_undeclared_prom(ra_rep_t *r)
{
    ra_buf_t         *b = r->b;
    ra_undecl_rec_t  *rec;
    ra_undecl_t      *t;
    uint64_t          v[2];
    uint32_t          i, k, pass;

    /* first their verdicts, in the crawlers' robots_audit_requests_total
     * family, whose samples the caller has just written; then a family
     * of their own */
    for (pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            ra_buf_cstr(b, "# HELP robots_audit_undeclared_clients Clients "
                        "flagged as undeclared crawlers.\n"
                        "# TYPE robots_audit_undeclared_clients gauge\n");
        }
        for (i = 0; i < r->snap->nsites; i++) {
            if ((t = ra_rep_undecl_of(r, i)) == NULL) {
                continue;
            }
            v[0] = v[1] = 0;
            for (k = 0; k < ra_undecl_records(t); k++) {
                rec = ra_undecl_record(t, k);
                v[0] += rec->compliant;
                v[1] += rec->violation;
            }
            if (pass == 1) {
                ra_buf_cstr(b, "robots_audit_undeclared_clients{site=\"");
                ra_buf_prom_label(b, ra_rep_site_name(&r->snap->sites[i]));
                ra_buf_printf(b, "\"} %u\n", ra_undecl_records(t));
                continue;
            }
            for (k = 0; k < 2; k++) {
                ra_buf_cstr(b, "robots_audit_requests_total{site=\"");
                ra_buf_prom_label(b, ra_rep_site_name(&r->snap->sites[i]));
                ra_buf_printf(b, "\",crawler=\"undeclared\",verification="
                              "\"unverifiable\",verdict=\"%s\"} ",
                              k ? "violation" : "compliant");
                ra_buf_u64(b, v[k]);
                ra_buf_ch(b, '\n');
            }
        }
    }
}

void
ra_rep_undeclared_csv(ra_rep_t *r)
{
    const ra_undecl_viol_t  *x;
    ra_undecl_t             *t;
    ra_buf_t                *b = r->b;
    ra_str_t                 site;
    uint32_t                 i, k;
    char                     client[48];

    for (i = 0; i < r->snap->nsites; i++) {
        if ((t = ra_rep_undecl_of(r, i)) == NULL) {
            continue;
        }
        site = ra_rep_site_name(&r->snap->sites[i]);
        for (k = 0; (x = ra_undecl_recent(t, k)) != NULL; k++) {
            ra_undecl_client(x->addr, client);
            ra_rep_iso(b, x->time_ms);
            ra_buf_ch(b, ',');
            ra_rep_csv_cell(b, site);
            ra_buf_printf(b, ",undeclared,unverifiable,,%s,", client);
            ra_rep_csv_cell(b, ra_str(x->method, x->method_len));
            ra_buf_ch(b, ',');
            ra_rep_csv_cell(b, ra_str(x->uri, x->uri_len));
            ra_buf_ch(b, ',');
            ra_rep_csv_cell(b, ra_str(x->rule, x->rule_len));
            ra_buf_printf(b, ",%u,,,\r\n", x->line);
        }
    }
}
