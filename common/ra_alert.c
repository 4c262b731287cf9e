#include <time.h>

#include "ra_alert.h"

const char *
ra_alert_tag(const ra_verdict_t *v)
{
    switch (v->verdict) {
    case RA_VERDICT_VIOLATION:   return RA_TAG_VIOLATION;
    case RA_VERDICT_UNREACHABLE: return RA_TAG_UNREACHABLE;
    default:                     return NULL;
    }
}

/* "disallow: /x" or "-" */
static void
ra_alert_rule(ra_buf_t *b, const ra_verdict_t *v, int json)
{
    ra_buf_t   tmp;
    ra_str_t   s;
    unsigned char  small[RA_PATTERN_MAX + 16];

    if (v->line == 0) {
        if (json) {
            ra_buf_cstr(b, "null");
        } else {
            ra_buf_ch(b, '-');
        }
        return;
    }
    /* a fixed buffer: the rule is at most a line of robots.txt, and
     * what does not fit is cut */
    tmp.data = small;
    tmp.len = 0;
    tmp.cap = sizeof(small);
    tmp.limit = sizeof(small);
    tmp.alloc = NULL;
    tmp.failed = 0;
    tmp.truncated = 0;
    ra_buf_cstr(&tmp, v->rule_type == RA_RULE_ALLOW ? "allow: " : "disallow: ");
    s = v->pattern;
    if (s.len > RA_PATTERN_MAX) {
        s.len = RA_PATTERN_MAX;
    }
    ra_buf_str(&tmp, s);
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

void
ra_alert_text(ra_buf_t *b, const ra_request_t *r, const ra_verdict_t *v)
{
    const char  *tag = ra_alert_tag(v);

    ra_buf_printf(b, "robots-audit: [%s] %s site=\"", tag ? tag : "RA199",
                  ra_verdict_name(v->verdict));
    ra_buf_log(b, r->site);
    ra_buf_cstr(b, "\" crawler=\"");
    ra_buf_log(b, v->name);
    ra_buf_printf(b, "\" verification=%s client=", ra_verify_name(
                      (int) v->verification));
    ra_buf_log(b, r->addr);
    ra_buf_cstr(b, " method=");
    ra_buf_log(b, r->method);
    ra_buf_cstr(b, " uri=\"");
    ra_buf_log(b, ra_alert_uri(r));
    ra_buf_ch(b, '"');
    if (r->uri.len > RA_ALERT_URI_MAX) {
        ra_buf_printf(b, " uri_bytes=%zu", r->uri.len);
    }
    ra_buf_cstr(b, " rule=");
    ra_alert_rule(b, v, 0);
    ra_buf_printf(b, " line=%u suppressed=%u", v->line, v->suppressed);
}

void
ra_alert_json(ra_buf_t *b, const ra_request_t *r, const ra_verdict_t *v)
{
    const char  *tag = ra_alert_tag(v);
    time_t       sec = (time_t) (r->time / 1000);
    struct tm    tm;
    char         when[32];

    gmtime_r(&sec, &tm);
    strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S", &tm);
    ra_buf_printf(b, "{\"time\":\"%s.%03dZ\",\"tag\":\"%s\",\"verdict\":\"%s\","
                  "\"site\":", when, (int) (r->time % 1000),
                  tag ? tag : "RA199", ra_verdict_name(v->verdict));
    ra_buf_json_str(b, r->site);
    ra_buf_cstr(b, ",\"crawler\":");
    ra_buf_json_str(b, v->name);
    ra_buf_cstr(b, ",\"token\":");
    ra_buf_json_str(b, v->token);
    ra_buf_printf(b, ",\"verification\":\"%s\",\"client\":",
                  ra_verify_name((int) v->verification));
    ra_buf_json_str(b, r->addr);
    ra_buf_cstr(b, ",\"method\":");
    ra_buf_json_str(b, r->method);
    ra_buf_cstr(b, ",\"uri\":");
    ra_buf_json_str(b, ra_alert_uri(r));
    if (r->uri.len > RA_ALERT_URI_MAX) {
        ra_buf_printf(b, ",\"uri_bytes\":%zu", r->uri.len);
    }
    ra_buf_cstr(b, ",\"rule\":");
    ra_alert_rule(b, v, 1);
    ra_buf_printf(b, ",\"line\":%u,\"suppressed\":%u}\n", v->line,
                  v->suppressed);
}
