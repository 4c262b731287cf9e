/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What each interval of 'logs --follow' added, in the report it writes
 * (see ra_follow.h): the report is cumulative, as the modules' status
 * page is, so a reader that wants a rate needs the interval's own counts
 * beside it.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "ra_follow.h"

static void
ra_follow_iso(char *out, size_t cap, time_t t)
{
    struct tm  tm;

    gmtime_r(&t, &tm);
    strftime(out, cap, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

void
ra_follow_interval(const ra_ledger_t *ledger, uint64_t nlines,
    ra_report_format_e fmt, ra_follow_mark_t *mark, ra_buf_t *out)
{
    ra_totals_t  t;
    char         start[32], end[32], tail[8];
    size_t       k, tlen;
    time_t       now = time(NULL);
    uint64_t     lines, req, crawl, viol;

    ra_ledger_totals(ledger, &t);
    lines = nlines - mark->lines;
    req = t.requests - mark->requests;
    crawl = t.crawler_requests - mark->crawler_requests;
    viol = t.violations_total - mark->violations;
    ra_follow_iso(start, sizeof(start), mark->start);
    ra_follow_iso(end, sizeof(end), now);
    if (fmt == RA_REPORT_JSON) {
        /* the last member of the report's object: a reader that takes
         * the first "lines" still gets the cumulative count */
        k = out->len;
        while (k > 0 && out->data[k - 1] != '}') {
            k--;
        }
        if (k < 2 || out->failed || out->len - k >= sizeof(tail)) {
            goto moved;
        }
        tlen = out->len - k + 1;
        memcpy(tail, out->data + k - 1, tlen);
        out->len = k - 1;
        ra_buf_printf(out, ",\"interval\":{\"start\":\"%s\",\"end\":\"%s\","
                      "\"lines\":%llu,\"requests\":%llu,"
                      "\"crawler_requests\":%llu,\"violations\":%llu}",
                      start, end, (unsigned long long) lines,
                      (unsigned long long) req, (unsigned long long) crawl,
                      (unsigned long long) viol);
        ra_buf_add(out, tail, tlen);
    } else if (fmt == RA_REPORT_TEXT) {
        ra_buf_printf(out, "\ninterval %s to %s: %llu lines, %llu requests, "
                      "%llu crawler requests, %llu violations\n", start, end,
                      (unsigned long long) lines, (unsigned long long) req,
                      (unsigned long long) crawl, (unsigned long long) viol);
    }

moved:
    mark->start = now;
    mark->lines = nlines;
    mark->requests = t.requests;
    mark->crawler_requests = t.crawler_requests;
    mark->violations = t.violations_total;
}
