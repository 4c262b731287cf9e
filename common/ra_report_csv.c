/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The CSV reports: the violations, one a row, as evidence to keep
 * (RA_REPORT_CSV_HEADER), and the crawler records, one a row with every
 * counter, for a spreadsheet (RA_REPORT_CSV_CRAWLERS).  Columns are only
 * ever added at the end.
 */
#include "ra_report_impl.h"
#include "ra_verdict.h"
#include "ra_crawlers.h"

/* The purpose the violation was recorded with (its crawler's table
 * category); nothing for a generic bot's. */
static void
ra_rep_csv_purpose(ra_buf_t *b, const ra_violation_t *x)
{
    if (x->purpose != 0 && x->purpose <= RA_CAT_MAX) {
        ra_buf_cstr(b, ra_crawler_category_name(x->purpose - 1u));
    }
}

/* A comma, then the time; nothing after the comma for none (0). */
static void
ra_rep_csv_time(ra_buf_t *b, int64_t ms)
{
    ra_buf_ch(b, ',');
    if (ms) {
        ra_rep_iso(b, ms);
    }
}

static void
ra_rep_csv_row(ra_buf_t *b, const ra_site_t *s, const ra_violation_t *x)
{
    ra_rep_vio_t  w;

    ra_rep_vio(x, &w);
    ra_rep_iso(b, x->time);
    ra_buf_ch(b, ',');
    ra_rep_csv_cell(b, ra_rep_site_name(s));
    ra_buf_ch(b, ',');
    ra_rep_csv_cell(b, w.name);
    ra_buf_printf(b, ",%s,%s,", w.verification, w.verified_by);
    ra_rep_csv_cell(b, w.addr);
    ra_buf_ch(b, ',');
    ra_rep_csv_cell(b, w.method);
    ra_buf_ch(b, ',');
    ra_rep_csv_cell(b, w.uri);
    ra_buf_ch(b, ',');
    ra_rep_csv_cell(b, w.pattern);
    ra_buf_printf(b, ",%u,%s", x->line, w.sha);
    ra_rep_csv_time(b, x->last_fetch);
    ra_buf_ch(b, ',');
    ra_rep_csv_purpose(b, x);
    ra_buf_cstr(b, "\r\n");
}

/* Per site in the order shown, its violations (not unreachable
 * verdicts) newest first. */
void
ra_rep_csv(ra_rep_t *r)
{
    const ra_violation_t  *x;
    ra_buf_t              *b = r->b;
    uint32_t               i, j, n, si;

    ra_buf_cstr(b, RA_REPORT_CSV_HEADER "\r\n");
    for (i = 0; i < r->snap->nsites && !ra_rep_over_budget(r); i++) {
        si = ra_rep_nth(r, i);
        for (j = 0, n = 0;
             n < r->max_vio && (x = ra_rep_vio_next(r, si, &j)) != NULL;)
        {
            if (x->verdict == RA_VERDICT_VIOLATION) {
                ra_rep_csv_row(b, &r->snap->sites[si], x);
                n++;
            }
        }
    }
    ra_rep_undeclared_csv(r);
}

/* Per site in the order shown, its crawler records in the order shown
 * (every one: the status page's view bounds them as ?limit= does the
 * others), with the same names and counters as JSON's crawlers[]. */
void
ra_rep_csv_crawlers(ra_rep_t *r)
{
    const ra_stat_t  *st;
    ra_buf_t         *b = r->b;
    ra_rep_row_t      w;
    uint32_t          i, j, si;
    unsigned          c;

    ra_buf_cstr(b, "site,crawler,token,kind,purpose,verification,"
                "verified_by,first_seen,last_seen");
    for (c = 0; c < RA_CNT_MAX; c++) {
        ra_buf_printf(b, ",%s", ra_rep_counter_names[c]);
    }
    ra_buf_cstr(b, "\r\n");
    for (i = 0; i < r->snap->nsites && !ra_rep_over_budget(r); i++) {
        si = ra_rep_nth(r, i);
        for (j = r->first[si]; j < r->first[si + 1]; j++) {
            st = r->ents[j].st;
            ra_rep_row(r, st, &w);
            ra_rep_csv_cell(b, ra_rep_site_name(&r->snap->sites[si]));
            ra_buf_ch(b, ',');
            ra_rep_csv_cell(b, w.name);
            ra_buf_ch(b, ',');
            ra_rep_csv_cell(b, w.token);
            ra_buf_printf(b, ",%s,%s,%s,%s",
                          st->kind == RA_UA_KNOWN ? "known"
                          : st->kind == RA_UA_GENERIC ? "generic"
                                                      : "browser",
                          w.purpose != NULL ? w.purpose : "",
                          w.verification, w.verified_by);
            ra_rep_csv_time(b, st->first_seen);
            ra_rep_csv_time(b, st->last_seen);
            for (c = 0; c < RA_CNT_MAX; c++) {
                ra_buf_ch(b, ',');
                ra_buf_u64(b, st->counters[c]);
            }
            ra_buf_cstr(b, "\r\n");
        }
    }
}
