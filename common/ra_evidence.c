/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The evidence log's lines and byte budget (ra_evidence.h).
 */
#include <string.h>

#include "ra_evidence.h"
#include "ra_accesslog.h"
#include "ra_digest.h"
#include "ra_verify.h"

int
ra_evidence_wanted(const ra_verdict_t *v)
{
    return v->verdict == RA_VERDICT_VIOLATION;
}

/* ,"key":"text" or ,"key":null when text is empty */
static void
ra_evidence_str(ra_buf_t *b, const char *key, ra_str_t text)
{
    ra_buf_printf(b, ",\"%s\":", key);
    if (text.len == 0) {
        ra_buf_cstr(b, "null");
    } else {
        ra_buf_json_str(b, text);
    }
}

/* ,"key":"2026-11-21T07:20:59Z" (the CSV's form), null for 0 */
static void
ra_evidence_time(ra_buf_t *b, const char *key, int64_t ms)
{
    char  t[24];

    ra_evidence_str(b, key, ms != 0 ? ra_str(t, ra_time_iso(ms, t))
                                    : ra_str(NULL, 0));
}

void
ra_evidence_line(ra_buf_t *b, const ra_request_t *r, const ra_verdict_t *v)
{
    char         sha[2 * 32 + 1], t[24];
    const char  *p;
    ra_str_t     uri = r->uri;

    if (uri.len > RA_EVIDENCE_URI_MAX) {
        uri.len = RA_EVIDENCE_URI_MAX;
    }
    ra_buf_cstr(b, "{\"time\":");
    ra_buf_json_str(b, ra_str(t, ra_time_iso(r->time, t)));
    ra_evidence_str(b, "site", r->site);
    ra_evidence_str(b, "crawler", v->name);
    p = ra_verify_name((int) v->verification);
    ra_evidence_str(b, "verification", ra_str(p, strlen(p)));
    p = ra_verified_by_name((int) v->verified_by);
    ra_evidence_str(b, "verified_by", ra_str(p, strlen(p)));
    ra_evidence_str(b, "client", r->addr);
    ra_evidence_str(b, "method", r->method);
    ra_evidence_str(b, "uri", uri);
    if (v->line != 0) {
        ra_evidence_str(b, "rule", ra_verdict_pattern(v));
    } else {
        ra_buf_cstr(b, ",\"rule\":null");
    }
    ra_buf_printf(b, ",\"line\":%u", v->line);
    sha[0] = '\0';
    if (v->sha_known) {
        ra_hex(v->robots_sha256, 32, sha);
    }
    ra_evidence_str(b, "robots_sha256", ra_str(sha, strlen(sha)));
    ra_evidence_time(b, "last_robots_fetch", v->last_fetch);
    p = v->crawler != NULL && v->crawler->category < RA_CAT_MAX
        ? ra_crawler_category_name(v->crawler->category) : "";
    ra_evidence_str(b, "purpose", ra_str(p, strlen(p)));
    ra_buf_cstr(b, "}\n");
}

int
ra_evidence_budget_take(const ra_evidence_state_t *st, uint64_t bytes,
    uint64_t budget, int64_t now)
{
    int64_t            minute = now / 60000;
    ra_byte_window_t  *w = st->window;

    if (budget == 0) {
        budget = RA_EVIDENCE_BUDGET_DEFAULT;
    }
    if (minute > w->minute) {
        w->minute = minute;
        w->bytes = 0;
    }
    if (budget == RA_EVIDENCE_BUDGET_OFF
        || (w->bytes <= budget && bytes <= budget - w->bytes))
    {
        w->bytes += bytes;
        return 1;
    }
    if (st->site_dropped != NULL) {
        __atomic_fetch_add(st->site_dropped, 1, __ATOMIC_RELAXED);
    }
    __atomic_fetch_add(st->all_dropped, 1, __ATOMIC_RELAXED);
    return 0;
}

const char *
ra_evidence_budget_check(uint64_t bytes)
{
    if (bytes < RA_EVIDENCE_BUDGET_MIN || bytes == RA_EVIDENCE_BUDGET_OFF) {
        return "takes the bytes a minute the evidence log may take, with "
               "k, m or g (at least 1k), or off: e.g. 8m";
    }
    return NULL;
}
