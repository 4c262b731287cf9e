/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Access-log lines: nginx and Apache "combined" and "common" formats, and
 * (below) any other format through a compiled plan.
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
    RA_LOG_COMBINED,
    RA_LOG_VHOST_COMBINED,      /* %v:%p then combined (Debian's Apache) */
    RA_LOG_JSON,                /* one JSON object a line (nginx escape=json) */
    RA_LOG_PLAN,                /* a compiled log_format / LogFormat string */
    /* JSON lines read through a map of key paths (ra_logfmt_json.c) */
    RA_LOG_CADDY,               /* Caddy's default access log */
    RA_LOG_TRAEFIK,             /* Traefik's JSON access log */
    RA_LOG_CLOUDFLARE,          /* Cloudflare Logpush http_requests */
    RA_LOG_JSONMAP,             /* --json-fields: keys named by the user */
    /* text formats of proxies and CDNs (ra_logfmt_text.c) */
    RA_LOG_HAPROXY,             /* HAProxy's httplog, as syslog lines */
    RA_LOG_ALB,                 /* AWS Application Load Balancer */
    RA_LOG_CLOUDFRONT,          /* CloudFront standard logs (W3C, tabs) */
    RA_LOG_W3C                  /* W3C extended (IIS): any #Fields: */
} ra_log_format_e;

/* How a field of the record is encoded beyond the log's escapes */
#define RA_LOG_ENC_NONE   0
#define RA_LOG_ENC_PCT    1     /* %XX (CloudFront's User-Agent) */
#define RA_LOG_ENC_PLUS   2     /* '+' for ' ' (IIS's User-Agent) */

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
    ra_str_t   referer;         /* data NULL when the format has none */
    ra_str_t   user_agent;      /* data NULL when the format has none */
    ra_str_t   host;            /* $host, %v: the site; data NULL when the
                                   format has none (port left out) */
    ra_str_t   xff;             /* X-Forwarded-For as logged; data NULL
                                   when none (combined: the first quoted
                                   field after the User-Agent) */
    ra_str_t   query;           /* W3C's cs-uri-query, to be joined to the
                                   target with '?'; data NULL when none */
    unsigned   format;          /* ra_log_format_e */
    uint8_t    ip[16];          /* after ra_logrec_check(): the client
                                   (addr) as ra_addr_t's bytes, IPv4
                                   mapped, so that no one parses it again */
    unsigned   escaped:1;       /* a quoted field holds a backslash */
    unsigned   ua_enc:2;        /* RA_LOG_ENC_* of the User-Agent */
    /* after RA_ERROR: the field that could not be read or is not
     * plausible ("client", "time", "status", "request", ...), or NULL
     * when the line's layout itself does not match */
    const char *bad;
} ra_logrec_t;

/* Longest line the CLI hands to the parser; longer ones are malformed.
 * Real lines are under 8 KiB (servers cap the request line and headers). */
#define RA_LOG_LINE_MAX  (64u * 1024)

/* Parses one line.  RA_OK, or RA_ERROR when it is not a common or
 * combined line (truncated, garbage, a bad date); rec is then undefined. */
int ra_accesslog_parse(ra_str_t line, ra_logrec_t *rec);

/* Decodes the escapes servers write in quoted fields (\" \\ \xHH \n \t
 * \r, and JSON's \uXXXX as UTF-8, \/ \b \f; any other backslash is
 * kept) into out, which needs in.len bytes.
 * Returns the decoded length. */
size_t ra_accesslog_unescape(ra_str_t in, unsigned char *out);

/* Days since 1970-01-01 of a proleptic Gregorian date (any year). */
int64_t ra_days_from_civil(int64_t y, unsigned m, unsigned d);

/* Formats Unix milliseconds as "YYYY-MM-DDTHH:MM:SSZ" into out[21]
 * (NUL-terminated); returns 20. */
size_t ra_time_iso(int64_t ms, char *out);

/*
 * Log formats.  A format is named (combined, common, vhost_combined, json,
 * and the formats of proxies and CDNs below)
 * or given as an nginx log_format string ($remote_addr - $remote_user
 * [$time_local] "$request" ...) or an Apache LogFormat string (%h %l %u %t
 * \"%r\" %>s %b ...), compiled once into a plan: literals and fields in
 * order.  A plan lives in the caller's struct (no allocation); a line is
 * read against it in one forward pass (each field ends at the next
 * literal, or at its closing quote when quoted), so time stays linear in
 * the line.  Fields the audit does not use are skipped.
 */
#define RA_LOGFMT_ITEMS  48             /* fields and literals of a plan */
#define RA_LOGFMT_TEXT   1024           /* bytes of a plan's literals */

typedef enum {
    RA_LF_SKIP = 0,                     /* a field the audit does not use */
    RA_LF_ADDR, RA_LF_USER, RA_LF_TIME_LOCAL, RA_LF_TIME_APACHE,
    RA_LF_TIME_ISO, RA_LF_MSEC, RA_LF_REQUEST, RA_LF_METHOD, RA_LF_URI,
    RA_LF_STATUS, RA_LF_BYTES, RA_LF_REFERER, RA_LF_UA, RA_LF_HOST,
    RA_LF_XFF,
    RA_LF_TIME_ANY,                     /* epoch s/ms/us/ns, or ISO 8601 */
    RA_LF_DATE,                         /* W3C: YYYY-MM-DD (UTC) */
    RA_LF_TOD,                          /* W3C: HH:MM:SS (UTC) */
    RA_LF_QUERY,                        /* W3C: cs-uri-query */
    RA_LF_LITERAL
} ra_logfield_e;

typedef struct {
    uint8_t   kind;                     /* ra_logfield_e */
    uint8_t   quoted;                   /* between '"'s: escapes skipped */
    uint16_t  off, len;                 /* a literal's bytes in text[] */
} ra_logitem_t;

typedef struct {
    unsigned       format;              /* ra_log_format_e */
    unsigned       nitems;
    unsigned       fields;              /* bit (1 << ra_logfield_e) each */
    ra_logitem_t   items[RA_LOGFMT_ITEMS];
    unsigned char  text[RA_LOGFMT_TEXT];
} ra_logfmt_t;

#define RA_LOGFMT_HAS(f, k)  (((f)->fields >> (k)) & 1)

/* Compiles a name or a format string.  RA_OK, or RA_ERROR with *err a
 * static sentence (no time field, no address, two fields with nothing
 * between them, an unsupported %{...}t, too long).  The names: combined,
 * common, vhost_combined, json, caddy, traefik, cloudflare, haproxy, alb,
 * cloudfront, iis and w3c. */
int ra_logfmt_compile(ra_str_t spec, ra_logfmt_t *f, const char **err);

/* Compiles --json-fields "client=KEY,time=KEY,..." (keys: client, time,
 * method, uri, status, ua, host, referer, bytes; a KEY is a dotted path
 * into nested objects, an array standing for its first element; a field
 * named twice takes the first KEY the line has).  client, time, method,
 * uri and status are needed.  RA_OK, or RA_ERROR with *err a static sentence. */
int ra_logfmt_json_fields(ra_str_t spec, ra_logfmt_t *f, const char **err);

/* A '#' line of a W3C extended log (IIS, CloudFront): "#Fields:" sets f's
 * columns (f becomes w3c, or cloudfront when the columns are
 * CloudFront's); the other directives (#Version, #Date, #Software, ...)
 * say nothing the audit needs.  1: line is a directive, to be skipped
 * (counted, not read); 0: it is not one. */
int ra_logfmt_directive(ra_str_t line, ra_logfmt_t *f);

/* Plausibility before trust: the client is an IP address (brackets and a
 * port taken off rec->addr), the time was read and the status is
 * 100-599.  RA_OK, or RA_ERROR with rec->bad naming the field.
 * ra_logfmt_parse() applies it to every line. */
int ra_logrec_check(ra_logrec_t *rec);

/* The target (joined with the query of W3C logs) and the User-Agent of a
 * record with every escape and encoding of its format decoded, into buf
 * (RA_LOG_LINE_MAX bytes, or the line's length, is enough). */
void ra_logrec_decode(const ra_logrec_t *rec, unsigned char *buf,
    ra_str_t *uri, ra_str_t *ua);

/* The named formats, in the order detection tries them. */
void ra_logfmt_named(ra_log_format_e which, ra_logfmt_t *f);
const char *ra_logfmt_name(const ra_logfmt_t *f);

/* Reads one line in format f, as ra_accesslog_parse() does, then checks
 * it with ra_logrec_check(); the line's site is rec->host when the format
 * has one.  RA_OK or RA_ERROR (rec->bad says which field, when one). */
int ra_logfmt_parse(const ra_logfmt_t *f, ra_str_t line, ra_logrec_t *rec);

/* What a reader of one log's lines keeps from line to line: lines come
 * in time order and a client's requests together, so a line's date and
 * client are most often the line before's, compared then rather than
 * parsed again.  Zeroed before the first line; it only ever holds text
 * that was read whole and found valid, so every record is the same as
 * without it. */
typedef struct {
    unsigned char  time[26];            /* the last %t text read */
    int64_t        day_ms;              /* its date less its offset */
    unsigned       has_time:1;
    uint8_t        addr_len;            /* 0: no client kept */
    unsigned char  addr[46];            /* the last client, as logged */
    uint8_t        ip[16];              /* and as ra_logrec_t.ip */
} ra_logmemo_t;

/* ra_logfmt_parse() with the memo of the lines read before (m: NULL,
 * none) */
int ra_logfmt_read(const ra_logfmt_t *f, ra_logmemo_t *m, ra_str_t line,
    ra_logrec_t *rec);

/* The named format a line is in: json, caddy, traefik, cloudflare for a
 * JSON object; else vhost_combined, combined/common, haproxy, alb,
 * cloudfront, w3c; tried in that order.  RA_OK with f set to the first
 * that reads the line plausibly; RA_LOGFMT_DOUBTFUL with f set to the
 * first that reads it at all when none does so plausibly (a host name
 * where the client should be: the caller says why); RA_ERROR when none
 * reads it.  A log's first lines decide its format. */
#define RA_LOGFMT_DOUBTFUL  1
int ra_logfmt_detect(ra_str_t line, ra_logfmt_t *f);

/* nginx realip (real_ip_header X-Forwarded-For; real_ip_recursive on):
 * trusted ranges, and the client of a line. */
typedef struct {
    uint8_t   b[16];                    /* as ra_addr_t: IPv4 mapped */
    unsigned  bits;                     /* of the 128 */
} ra_cidr_t;

/* "10.0.0.0/8", "2001:db8::/32", or an address alone; RA_OK or RA_ERROR
 * (host bits set are ignored, as nginx does). */
int ra_cidr_parse(ra_str_t s, ra_cidr_t *out);

/* 1 when the address addr (ra_addr_t's bytes: IPv4 mapped) lies in c. */
int ra_cidr_contains(const ra_cidr_t *c, const uint8_t addr[16]);

/* When addr lies in a trusted range, the client is the last address of
 * xff (comma-separated, read from the right) not in a trusted range; all
 * trusted: the first one.  A field that is not an address stops the walk
 * at the address before it.  Otherwise addr itself.  The result is a
 * span of addr or xff. */
ra_str_t ra_realip(const ra_cidr_t *trusted, size_t n, ra_str_t addr,
    ra_str_t xff);

#endif /* RA_ACCESSLOG_H */
