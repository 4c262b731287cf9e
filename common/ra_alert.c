/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Alert lines (ra_alert.h).  The text line is built in two parts, the
 * "robots-audit: [tag] " prefix and the body after it, so that
 * ra_alert_emit() can hand the body to ra_logf(), which adds the same
 * prefix: whoever writes it, the line is the same.
 */
#include <time.h>

#include "ra_alert.h"

const char *
ra_alert_tag(const ra_verdict_t *v)
{
    /* an impostor's judged request: the lie, whatever the verdict */
    if (v->verification == RA_VERIFY_IMPOSTOR) {
        switch (v->verdict) {
        case RA_VERDICT_NONE:
        case RA_VERDICT_FETCH:
            return NULL;
        default:
            return RA_TAG_IMPOSTOR;
        }
    }

    switch (v->verdict) {
    case RA_VERDICT_VIOLATION:   return RA_TAG_VIOLATION;
    case RA_VERDICT_UNREACHABLE: return RA_TAG_UNREACHABLE;
    default:                     return NULL;
    }
}

static const char *
ra_alert_tag_any(const ra_verdict_t *v)
{
    const char  *tag = ra_alert_tag(v);

    return tag != NULL ? tag : RA_TAG_ALERT_OTHER;
}

/* A buffer over fixed memory: what does not fit is cut. */
static void
ra_alert_fixed(ra_buf_t *b, unsigned char *mem, size_t size)
{
    b->data = mem;
    b->len = 0;
    b->cap = size;
    b->limit = size;
    b->alloc = NULL;
    b->failed = 0;
    b->truncated = 0;
}

/* "disallow: /x" or "-" */
static void
ra_alert_rule(ra_buf_t *b, const ra_verdict_t *v, int json)
{
    ra_buf_t       tmp;
    unsigned char  small[RA_PATTERN_MAX + 16];

    if (v->line == 0) {
        if (json) {
            ra_buf_cstr(b, "null");
        } else {
            ra_buf_ch(b, '-');
        }
        return;
    }
    /* the rule is at most a line of robots.txt, and the pattern is cut
     * at RA_PATTERN_MAX already */
    ra_alert_fixed(&tmp, small, sizeof(small));
    ra_buf_cstr(&tmp, v->rule_type == RA_RULE_ALLOW ? "allow: "
                                                    : "disallow: ");
    ra_buf_str(&tmp, ra_verdict_pattern(v));
    if (json) {
        ra_buf_json_str(b, ra_str(tmp.data, tmp.len));
    } else {
        ra_buf_ch(b, '"');
        ra_buf_log(b, ra_str(tmp.data, tmp.len));
        ra_buf_ch(b, '"');
    }
}

static ra_str_t
ra_alert_uri(const ra_request_t *r)
{
    ra_str_t  u = r->uri;

    if (u.len > RA_ALERT_URI_MAX) {
        u.len = RA_ALERT_URI_MAX;
    }
    return u;
}

static ra_str_t
ra_alert_method(const ra_request_t *r)
{
    ra_str_t  m = r->method;

    if (m.len > RA_ALERT_METHOD_MAX) {
        m.len = RA_ALERT_METHOD_MAX;
    }
    return m;
}

/* The text line after "robots-audit: [tag] ". */
static void
ra_alert_body(ra_buf_t *b, const ra_request_t *r, const ra_verdict_t *v)
{
    ra_buf_printf(b, "%s site=\"", ra_verdict_name(v->verdict));
    ra_buf_log(b, r->site);
    ra_buf_cstr(b, "\" crawler=\"");
    ra_buf_log(b, v->name);
    ra_buf_printf(b, "\" verification=%s client=", ra_verify_name(
                      (int) v->verification));
    ra_buf_log(b, r->addr);
    ra_buf_cstr(b, " method=");
    ra_buf_log(b, ra_alert_method(r));
    ra_buf_cstr(b, " uri=\"");
    ra_buf_log(b, ra_alert_uri(r));
    ra_buf_ch(b, '"');
    if (r->uri.len > RA_ALERT_URI_MAX) {
        ra_buf_printf(b, " uri_bytes=%zu", r->uri.len);
    }
    ra_buf_cstr(b, " rule=");
    ra_alert_rule(b, v, 0);
    ra_buf_printf(b, " line=%u suppressed=%u%s", v->line, v->suppressed,
                  v->refused ? " refused=true" : "");
}

void
ra_alert_text(ra_buf_t *b, const ra_request_t *r, const ra_verdict_t *v)
{
    ra_buf_printf(b, RA_LOG_PREFIX "[%s] ", ra_alert_tag_any(v));
    ra_alert_body(b, r, v);
}

void
ra_alert_json(ra_buf_t *b, const ra_request_t *r, const ra_verdict_t *v)
{
    time_t       sec = (time_t) (r->time / 1000);
    struct tm    tm;
    char         when[32];

    gmtime_r(&sec, &tm);
    strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S", &tm);
    ra_buf_printf(b, "{\"time\":\"%s.%03dZ\",\"tag\":\"%s\","
                  "\"verdict\":\"%s\",\"site\":", when, (int) (r->time % 1000),
                  ra_alert_tag_any(v), ra_verdict_name(v->verdict));
    ra_buf_json_str(b, r->site);
    ra_buf_cstr(b, ",\"crawler\":");
    ra_buf_json_str(b, v->name);
    ra_buf_cstr(b, ",\"token\":");
    ra_buf_json_str(b, ra_verdict_token(v));
    ra_buf_printf(b, ",\"verification\":\"%s\",\"client\":",
                  ra_verify_name((int) v->verification));
    ra_buf_json_str(b, r->addr);
    ra_buf_cstr(b, ",\"method\":");
    ra_buf_json_str(b, ra_alert_method(r));
    ra_buf_cstr(b, ",\"uri\":");
    ra_buf_json_str(b, ra_alert_uri(r));
    if (r->uri.len > RA_ALERT_URI_MAX) {
        ra_buf_printf(b, ",\"uri_bytes\":%zu", r->uri.len);
    }
    ra_buf_cstr(b, ",\"rule\":");
    ra_alert_rule(b, v, 1);
    ra_buf_printf(b, ",\"line\":%u,\"suppressed\":%u,\"refused\":%s}\n",
                  v->line, v->suppressed, v->refused ? "true" : "false");
}

void
ra_alert_emit(const ra_host_t *h, const ra_request_t *r,
    const ra_verdict_t *v, ra_buf_t *json)
{
    ra_buf_t       b;
    unsigned char  line[RA_HOST_LINE_MAX];

    if (h != NULL && h->log != NULL) {
        ra_alert_fixed(&b, line, sizeof(line));
        ra_alert_body(&b, r, v);
        ra_logf(h, r->where, RA_LOG_WARN, ra_alert_tag_any(v), "%.*s",
                (int) b.len, (const char *) b.data);
    }
    if (json != NULL) {
        ra_alert_json(json, r, v);
    }
}
