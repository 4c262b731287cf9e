/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The CSV report: the violations, one a row, as evidence to keep; its
 * columns are only ever added at the end (RA_REPORT_CSV_HEADER).
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
    ra_buf_printf(b, ",%u,%s,", x->line, w.sha);
    if (x->last_fetch) {
        ra_rep_iso(b, x->last_fetch);
    }
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
