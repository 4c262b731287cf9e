/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Following one live access log for 'logs --follow', as 'tail -F' does,
 * through the reader of ra_logread.h (its handler, tick and buffer)
 * (ra_follow.c), and what each interval added to the cumulative report
 * (ra_follow_interval.c).
 */
#ifndef RA_FOLLOW_H
#define RA_FOLLOW_H

#include <time.h>

#include "ra_buf.h"
#include "ra_ledger.h"
#include "ra_logread.h"
#include "ra_report.h"

/* Follows path from its first line; "-" reads stdin to its end.  A file
 * that does not exist yet is waited for (said once on stderr).  At any
 * moment a size below the bytes read, or first bytes that changed, is a
 * truncation: the bytes of the old file not read yet are read from its
 * copy beside it when one is found (copytruncate), else said on stderr
 * as lost; the file is then read from its start.  A new file at path
 * (rotation by rename) is read once the old one was read to its end.
 * Both are said on stderr.  Plain files only (no gzip).  Returns 0 when
 * r->tick stopped it (after the lines the file holds then), -1 with a
 * message on a read error. */
int ra_follow(ra_logread_t *r, const char *path);

/* The totals when an interval started (wall clock), so that each report
 * says what its interval added; start at the start of following, the
 * rest 0. */
typedef struct {
    time_t    start;
    uint64_t  lines;
    uint64_t  requests;
    uint64_t  crawler_requests;
    uint64_t  violations;
} ra_follow_mark_t;

/* What the interval since mark added to the ledger and to nlines (the
 * lines read), into the report out: JSON gets an "interval" member last
 * in its object, {"start","end" (ISO 8601 UTC), "lines", "requests",
 * "crawler_requests", "violations"}, text a last line saying the same;
 * the other formats stay cumulative only.  The mark then moves to now. */
void ra_follow_interval(const ra_ledger_t *ledger, uint64_t nlines,
    ra_report_format_e fmt, ra_follow_mark_t *mark, ra_buf_t *out);

#endif /* RA_FOLLOW_H */
