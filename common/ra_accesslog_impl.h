/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private to the access-log reader's files (ra_accesslog.c, the core
 * formats; ra_logfmt.c, naming, detecting and compiling formats;
 * ra_logfmt_json.c, JSON lines through a map of key paths;
 * ra_logfmt_text.c, the text formats of proxies and CDNs): the field
 * readers they share, so that a time, a status or a request line is read
 * by one piece of code whatever the format.
 */
#ifndef RA_ACCESSLOG_IMPL_H
#define RA_ACCESSLOG_IMPL_H

#include "ra_accesslog.h"

/* The closing quote of a field whose content starts at p, skipping
 * backslash escapes (*escaped set when there is one); NULL when the span
 * ends first. */
const unsigned char *ra_log_quoted(const unsigned char *p,
    const unsigned char *end, unsigned *escaped);

/* "Jan".."Dec" (any case) at m: 1-12, or 0 */
int ra_log_month(const unsigned char *m);

/* n decimal digits at p, or -1; inline, so that a time's seven fields
 * of two and four digits cost a few instructions each */
static inline int
ra_log_digits(const unsigned char *p, unsigned n)
{
    int  v = 0;

    while (n--) {
        if (!ra_isdigit(*p)) {
            return -1;
        }
        v = v * 10 + (*p++ - '0');
    }
    return v;
}

/* "10/Oct/2000:13:55:36 -0700": exactly 26 bytes at p; with a memo
 * (NULL: none), a date and offset the same as the last line's are not
 * read again, only the time of day */
int ra_log_time(const unsigned char *p, ra_logmemo_t *m, int64_t *out);

/* ISO 8601 / RFC 3339, with a fraction, 'Z' or an offset */
int ra_log_time_iso(ra_str_t s, int64_t *out);

/* Splits rec->request into method, target and protocol */
void ra_log_request(ra_logrec_t *rec);

/* "host", "host:port", "[v6]:port", "-": the site without its port */
ra_str_t ra_log_host(ra_str_t s);

int ra_log_status(ra_str_t s, int *out);
int ra_log_bytes(ra_str_t s, int64_t *out);

/* One field's value into the record; RA_ERROR (rec->bad set) when it
 * cannot be read */
int ra_log_field(ra_logrec_t *rec, unsigned kind, ra_str_t v);

/* Every member empty, at the line's start, as a plan's reading begins */
void ra_log_rec_init(ra_logrec_t *rec, const unsigned char *at);

/* The request of a format with a request line or with a method and a
 * URI; RA_ERROR when the line gave no time or no address */
int ra_log_finish(ra_logrec_t *rec, unsigned fields);

const unsigned char *ra_log_ws(const unsigned char *p,
    const unsigned char *end);

/* "1.2.3.4:80" or "[2001:db8::1]:443" or "2001:db8::1:443" (a port
 * always written, as HAProxy and ALB do): the address alone */
ra_str_t ra_log_strip_port(ra_str_t s);

/* Reads a line in f without judging its fields' plausibility
 * (ra_logfmt.c: it calls each format's reader) */
int ra_log_read(const ra_logfmt_t *f, ra_logmemo_t *m, ra_str_t line,
    ra_logrec_t *rec);

/* The readers of ra_accesslog.c's formats, the line end taken off */
int ra_log_combined(ra_str_t line, ra_logmemo_t *m, ra_logrec_t *rec);
int ra_log_vhost(ra_str_t line, ra_logmemo_t *m, ra_logrec_t *rec);
int ra_log_check(ra_logrec_t *rec, ra_logmemo_t *m);
int ra_log_json(ra_str_t line, ra_logrec_t *rec);
int ra_log_plan(const ra_logfmt_t *f, ra_str_t line, ra_logrec_t *rec);

/* An nginx variable's field, or RA_LF_SKIP: for log_format strings and
 * the keys of JSON lines alike */
unsigned ra_log_nginx_var(ra_str_t n);

/* The formats of ra_logfmt_json.c and ra_logfmt_text.c */
void ra_log_json_named(ra_log_format_e which, ra_logfmt_t *f);
int ra_log_jsonmap(const ra_logfmt_t *f, ra_str_t line, ra_logrec_t *rec);
void ra_log_w3c_named(ra_log_format_e which, ra_logfmt_t *f);
int ra_log_w3c(const ra_logfmt_t *f, ra_str_t line, ra_logrec_t *rec);
int ra_log_haproxy(ra_str_t line, ra_logrec_t *rec);
int ra_log_alb(ra_str_t line, ra_logrec_t *rec);

#endif /* RA_ACCESSLOG_IMPL_H */
