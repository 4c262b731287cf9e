/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Access-log lines: nginx and Apache "combined" and "common" formats.
 *
 *   common    %h %l %u %t "%r" %>s %b
 *   combined  %h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-Agent}i"
 *
 * (nginx's default "combined" is the same shape: $remote_addr - $remote_user
 * [$time_local] "$request" $status $body_bytes_sent "$http_referer"
 * "$http_user_agent".)  Fields a server appends after the User-Agent
 * ($request_time, %D, ...) are tolerated; anything else is malformed.
 *
 * ra_accesslog_parse() reads one line (a span, without or with its line
 * end) and fills a record of spans into it: it allocates nothing, never
 * reads outside the span and takes time linear in it.  Quoted fields are
 * returned as logged, still escaped (Apache writes \" and \\ and \xHH,
 * nginx \xHH); rec->escaped says when a field of the line holds a
 * backslash, and ra_accesslog_unescape() decodes one when it matters.
 */
#ifndef RA_ACCESSLOG_H
#define RA_ACCESSLOG_H

#include "ra_core.h"

typedef enum {
    RA_LOG_COMMON = 0,
    RA_LOG_COMBINED
} ra_log_format_e;

typedef struct {
    ra_str_t   addr;            /* %h: client address (or host name) */
    ra_str_t   user;            /* %u */
    int64_t    time;            /* %t in Unix milliseconds (UTC) */
    ra_str_t   request;         /* "%r" between the quotes, as logged */
    /* the request line split, when it has the shape METHOD SP TARGET
     * [SP PROTOCOL]; method.len == 0 when it does not ("-", a TLS
     * handshake sent to a plain-text port, garbage) */
    ra_str_t   method;
    ra_str_t   target;
    ra_str_t   protocol;        /* empty for HTTP/0.9-style lines */
    int        status;          /* %>s: 100-999, 0 when logged as "-" */
    int64_t    bytes;           /* %b: -1 when logged as "-" */
    ra_str_t   referer;         /* combined only; data NULL in common */
    ra_str_t   user_agent;      /* combined only; data NULL in common */
    unsigned   format;          /* ra_log_format_e */
    unsigned   escaped:1;       /* a quoted field holds a backslash */
} ra_logrec_t;

/* Longest line the CLI hands to the parser; longer ones are malformed.
 * Real lines are under 8 KiB (servers cap the request line and headers). */
#define RA_LOG_LINE_MAX  (64u * 1024)

/* Parses one line.  RA_OK, or RA_ERROR when it is not a common or
 * combined line (truncated, garbage, a bad date); rec is then undefined. */
int ra_accesslog_parse(ra_str_t line, ra_logrec_t *rec);

/* Decodes the escapes servers write in quoted fields (\" \\ \xHH \n \t
 * \r; any other backslash is kept) into out, which needs in.len bytes.
 * Returns the decoded length. */
size_t ra_accesslog_unescape(ra_str_t in, unsigned char *out);

/* Days since 1970-01-01 of a proleptic Gregorian date (any year). */
int64_t ra_days_from_civil(int64_t y, unsigned m, unsigned d);

/* Formats Unix milliseconds as "YYYY-MM-DDTHH:MM:SSZ" into out[21]
 * (NUL-terminated); returns 20. */
size_t ra_time_iso(int64_t ms, char *out);

#endif /* RA_ACCESSLOG_H */
