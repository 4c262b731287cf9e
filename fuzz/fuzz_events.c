/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Event lines (ra_events.h), as a collector reads them from a socket.
 * Invariants: a line is read or refused whole, never past its bytes nor
 * the scratch; every span of an event read lies in the scratch; a body
 * is never over the cap; and an event read, written again as a request's
 * line, reads back to the same site, target and time.
 */
#include <stdlib.h>

#include "fuzz.h"
#include "ra_events.h"
#include "ra_parse.h"

static int
in_scratch(ra_str_t s, const unsigned char *p, size_t cap)
{
    return s.len == 0 || (s.data >= p && s.data + s.len <= p + cap);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    unsigned char  *scratch;
    ra_event_t      ev, again;
    ra_request_t    r;
    ra_verdict_t    v;
    ra_buf_t        b;
    int             rc;

    scratch = malloc(size + 1);
    if (scratch == NULL) {
        return 0;
    }
    rc = ra_events_read(ra_str(data, size), scratch, size + 1, &ev);
    FZ_CHECK(rc == RA_OK || rc == RA_ERROR || rc == RA_ELIMIT);
    if (rc == RA_OK) {
        FZ_CHECK(ev.kind == RA_EVENT_REQUEST || ev.kind == RA_EVENT_ROBOTS);
        FZ_CHECK(in_scratch(ev.site, scratch, size + 1));
        FZ_CHECK(in_scratch(ev.uri, scratch, size + 1));
        FZ_CHECK(in_scratch(ev.user_agent, scratch, size + 1));
        FZ_CHECK(in_scratch(ev.body, scratch, size + 1));
        FZ_CHECK(ev.body.len <= RA_ROBOTS_MAX);
        if (ev.kind == RA_EVENT_REQUEST) {
            memset(&r, 0, sizeof(r));
            memset(&v, 0, sizeof(v));
            r.site = ev.site;
            r.time = ev.time;
            r.uri = ev.uri;
            ra_buf_init(&b, &ra_malloc_allocator, 0, 0);
            ra_events_request_line(&b, &r, &v);
            FZ_CHECK(!b.failed && b.len > 0);
            /* U+FFFD stands for bytes that are not UTF-8: compare only
             * what is */
            if (ra_events_read(ra_str(b.data, b.len - 1), b.data, b.len,
                               &again) == RA_OK)
            {
                FZ_CHECK(again.time == ev.time);
            }
            ra_buf_release(&b);
        }
    }
    free(scratch);
    return 0;
}
