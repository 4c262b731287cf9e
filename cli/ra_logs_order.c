/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Reading several access logs in time order (see ra_logs_order.h): the
 * judge's 24-hour and 12-hour windows follow the log's clock, so a
 * robots.txt fetch read after the requests it preceded would leave them
 * judged without it.  Each file's first lines are read once more for
 * its first time (.gz files too, through ra_logread).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ra_accesslog.h"
#include "ra_logread.h"
#include "ra_logs_order.h"

typedef struct {
    ra_logs_time_pt   time_of;
    void             *ctx;
    int64_t           first;
    unsigned          tries;
} ra_logs_peek_t;

static int
ra_logs_peek_line(void *ctx, ra_str_t line, const char *file,
    uint64_t lineno)
{
    ra_logs_peek_t  *p = ctx;

    (void) lineno;
    if (p->time_of(p->ctx, line, file, &p->first) == RA_OK) {
        return 1;                       /* found: stop reading */
    }
    p->first = INT64_MAX;
    return ++p->tries >= RA_LOGS_ORDER_PEEK;
}

void
ra_logs_order(const char *cmd, ra_logs_input_t *in, char **paths,
    unsigned n, ra_logs_time_pt time_of, void *ctx)
{
    ra_logread_t     rd;
    ra_logs_peek_t   p;
    ra_logs_input_t  t;
    unsigned         i, j, moved = 0;

    for (i = 0; i < n; i++) {
        in[i].first = INT64_MAX;
        if (strcmp(in[i].path, "-") == 0) {
            return;
        }
    }
    memset(&rd, 0, sizeof(rd));
    if (n < 2 || ra_logread_open(&rd, cmd, paths, (int) n) != 0) {
        return;                         /* read as given */
    }
    p.time_of = time_of;
    p.ctx = ctx;
    rd.handler = ra_logs_peek_line;
    rd.ctx = &p;
    rd.progress = 0;
    for (i = 0; i < n; i++) {
        p.first = INT64_MAX;
        p.tries = 0;
        (void) ra_logread_file(&rd, in[i].path);    /* errors: said again */
        in[i].first = p.first;
    }
    ra_logread_close(&rd);

    for (i = 1; i < n; i++) {
        t = in[i];
        for (j = i; j > 0 && in[j - 1].first > t.first; j--) {
            in[j] = in[j - 1];
            moved = 1;
        }
        in[j] = t;
    }
    for (i = 0; i < n; i++) {
        paths[i] = (char *) in[i].path;
    }
    if (moved) {
        fprintf(stderr, "robots-audit %s: the LOGs are read in time order "
                "(of their first lines):", cmd);
        for (i = 0; i < n; i++) {
            fprintf(stderr, " %s", in[i].path);
        }
        fputc('\n', stderr);
    }
}

void
ra_logs_overlap(const char *cmd, const ra_logs_input_t *prev,
    const ra_logs_input_t *next, int64_t last)
{
    char  a[24], b[24];

    if (next->first == INT64_MAX || last == INT64_MIN || next->first >= last)
    {
        return;
    }
    ra_time_iso(next->first, a);
    ra_time_iso(last, b);
    fprintf(stderr, "robots-audit %s: warning: %s (from %s) overlaps %s (to "
            "%s): its lines are read after those of %s, their times going "
            "back; verdicts near the overlap may differ from a merged "
            "log's\n", cmd, next->path, a, prev->path, b, prev->path);
}
