/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The collector's reorder window: lines from several servers, through
 * several relays, do not arrive in the order their requests were made (a
 * crawler's robots.txt answer from one backend may come after its next
 * request to another).  Lines that come from sockets are held for
 * --reorder ms and judged in the order of their times ("t"), so that the
 * collector sees what one server would have seen; the hold is bounded
 * (RA_COLLECT_HOLD lines, RA_COLLECT_HOLD_BYTES bytes): when it is full,
 * the earliest line is judged at once.
 */
#include <stdlib.h>
#include <string.h>

#include "ra_collect.h"

/* the line's time, found without reading the whole line; INT64_MIN when
 * it has none (the reader will refuse it) */
static int64_t
ra_collect_time_of(ra_str_t line)
{
    const unsigned char  *p, *end = line.data + line.len;
    int64_t               t = 0;

    for (p = line.data; p + 4 < end; p++) {
        if (p[0] == '"' && p[1] == 't' && p[2] == '"' && p[3] == ':') {
            p += 4;
            if (p == end || !ra_isdigit(*p)) {
                break;
            }
            while (p < end && ra_isdigit(*p) && t < INT64_MAX / 10 - 10) {
                t = t * 10 + (*p++ - '0');
            }
            return t;
        }
    }
    return INT64_MIN;
}

static int
ra_collect_before(const ra_collect_held_t *a, const ra_collect_held_t *b)
{
    return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

static void
ra_collect_swap(ra_collect_held_t *a, ra_collect_held_t *b)
{
    ra_collect_held_t  t = *a;

    *a = *b;
    *b = t;
}

/* judges the earliest held line */
static void
ra_collect_pop(ra_collect_t *x)
{
    ra_collect_held_t  *h = x->held, top = h[0];
    size_t              i = 0, c, n;

    n = --x->nheld;
    h[0] = h[n];
    for (;;) {
        c = 2 * i + 1;
        if (c >= n) {
            break;
        }
        if (c + 1 < n && ra_collect_before(&h[c + 1], &h[c])) {
            c++;
        }
        if (!ra_collect_before(&h[c], &h[i])) {
            break;
        }
        ra_collect_swap(&h[c], &h[i]);
        i = c;
    }
    x->held_bytes -= top.len;
    ra_collect_line(x, ra_str(top.line, top.len));
    free(top.line);
}

void
ra_collect_hold(ra_collect_t *x, ra_str_t line, int64_t now)
{
    ra_collect_held_t  *h;
    int64_t             t;
    size_t              i;

    t = ra_collect_time_of(line);
    if (x->reorder_ms <= 0 || t == INT64_MIN) {
        ra_collect_line(x, line);
        return;
    }
    while (x->nheld > 0 && (x->nheld == RA_COLLECT_HOLD
                            || x->held_bytes + line.len
                               > RA_COLLECT_HOLD_BYTES))
    {
        ra_collect_pop(x);
    }
    if (x->held == NULL) {
        x->held = malloc(RA_COLLECT_HOLD * sizeof(ra_collect_held_t));
    }
    h = x->held;
    if (h == NULL || (h[x->nheld].line = malloc(line.len + 1)) == NULL) {
        ra_collect_line(x, line);       /* no memory to hold it: now */
        return;
    }
    i = x->nheld++;
    memcpy(h[i].line, line.data, line.len);
    h[i].len = line.len;
    h[i].t = t;
    h[i].arrived = now;
    h[i].seq = x->seq++;
    x->held_bytes += line.len;
    if (t > x->latest) {
        x->latest = t;
    }
    while (i > 0 && ra_collect_before(&h[i], &h[(i - 1) / 2])) {
        ra_collect_swap(&h[i], &h[(i - 1) / 2]);
        i = (i - 1) / 2;
    }
}

void
ra_collect_release(ra_collect_t *x, int64_t now, int all)
{
    while (x->nheld > 0
           && (all || x->held[0].t <= x->latest - x->reorder_ms
               || x->held[0].arrived <= now - x->reorder_ms))
    {
        ra_collect_pop(x);
    }
    if (all) {
        free(x->held);
        x->held = NULL;
    }
}
