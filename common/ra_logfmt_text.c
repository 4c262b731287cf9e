/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The text access logs of proxies and CDNs: W3C extended logs (IIS, and
 * CloudFront's standard logs) whose "#Fields:" directive names the
 * columns, HAProxy's httplog (as syslog writes it), and the AWS
 * Application Load Balancer's log.  Each reads a line in one forward
 * pass into a record of spans, as ra_accesslog.c's formats do.
 */
#include <string.h>

#include "ra_accesslog_impl.h"

/* The columns a log has when no "#Fields:" line came first: CloudFront's
 * 33 (its documentation's order) and IIS's defaults */
static const char  ra_log_cf_fields[] =
    "date time x-edge-location sc-bytes c-ip cs-method cs(Host) "
    "cs-uri-stem sc-status cs(Referer) cs(User-Agent) cs-uri-query "
    "cs(Cookie) x-edge-result-type x-edge-request-id x-host-header "
    "cs-protocol cs-bytes time-taken x-forwarded-for ssl-protocol "
    "ssl-cipher x-edge-response-result-type cs-protocol-version fle-status "
    "fle-encrypted-fields c-port time-to-first-byte "
    "x-edge-detailed-result-type sc-content-type sc-content-len "
    "sc-range-start sc-range-end";

static const char  ra_log_iis_fields[] =
    "date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username "
    "c-ip cs(User-Agent) cs(Referer) sc-status sc-substatus "
    "sc-win32-status time-taken";

static unsigned
ra_log_w3c_kind(ra_str_t n)
{
    static const struct {
        const char  *name;
        unsigned     kind;
    } cols[] = {
        { "date", RA_LF_DATE }, { "time", RA_LF_TOD },
        { "c-ip", RA_LF_ADDR }, { "cs-username", RA_LF_USER },
        { "cs-method", RA_LF_METHOD }, { "cs-uri-stem", RA_LF_URI },
        { "cs-uri-query", RA_LF_QUERY }, { "sc-status", RA_LF_STATUS },
        { "sc-bytes", RA_LF_BYTES }, { "cs(User-Agent)", RA_LF_UA },
        { "cs(Referer)", RA_LF_REFERER }, { "cs-host", RA_LF_HOST },
        { "cs(Host)", RA_LF_HOST }, { "x-host-header", RA_LF_HOST },
        { "x-forwarded-for", RA_LF_XFF },
        { "cs(X-Forwarded-For)", RA_LF_XFF },
    };
    size_t  i;

    for (i = 0; i < sizeof(cols) / sizeof(cols[0]); i++) {
        if (ra_strcaseeq(n, ra_str(cols[i].name, strlen(cols[i].name)))) {
            return cols[i].kind;
        }
    }
    return RA_LF_SKIP;
}

/* The field names of a "#Fields:" line (after the colon) as columns */
static void
ra_log_w3c_columns(ra_str_t names, ra_logfmt_t *f)
{
    const unsigned char  *p = names.data, *end = names.data + names.len, *q;
    ra_str_t              n;
    unsigned              i, kind, cf = 0, xhost = 0;

    f->nitems = 0;
    f->fields = 0;
    while (p < end) {
        p = ra_log_ws(p, end);
        for (q = p; q < end && *q != ' ' && *q != '\t'; q++) { }
        if (q == p) {
            break;
        }
        n = ra_str(p, (size_t) (q - p));
        kind = ra_log_w3c_kind(n);
        if (n.len > 7 && memcmp(n.data, "x-edge-", 7) == 0) {
            cf = 1;
        }
        if (ra_strcaseeq(n, ra_str("x-host-header", 13))) {
            xhost = 1;
        }
        if (f->nitems < RA_LOGFMT_ITEMS) {
            /* the columns past the last kept are skipped */
            f->items[f->nitems].kind = (uint8_t) kind;
            f->items[f->nitems].quoted = 0;
            /* off: whether the column is CloudFront's distribution
             * domain, cs(Host), given up for x-host-header below */
            f->items[f->nitems].off = ra_strcaseeq(n, ra_str("cs(Host)", 8));
            f->items[f->nitems].len = 0;
            f->nitems++;
            f->fields |= 1u << kind;
        }
        p = q;
    }
    /* CloudFront's cs(Host) is its own domain name (d111.cloudfront.net),
     * x-host-header the site the client asked for */
    for (i = 0; i < f->nitems; i++) {
        if (xhost && f->items[i].off) {
            f->items[i].kind = RA_LF_SKIP;
        }
        f->items[i].off = 0;
    }
    f->format = cf ? RA_LOG_CLOUDFRONT : RA_LOG_W3C;
}

void
ra_log_w3c_named(ra_log_format_e which, ra_logfmt_t *f)
{
    const char  *cols = which == RA_LOG_CLOUDFRONT ? ra_log_cf_fields
                                                   : ra_log_iis_fields;

    ra_log_w3c_columns(ra_str(cols, strlen(cols)), f);
    f->format = which;
}

int
ra_logfmt_directive(ra_str_t line, ra_logfmt_t *f)
{
    if (line.len == 0 || line.data[0] != '#') {
        return 0;
    }
    if (line.len > 8 && memcmp(line.data, "#Fields:", 8) == 0) {
        ra_log_w3c_columns(ra_str(line.data + 8, line.len - 8), f);
    }
    return 1;
}

/* "2019-12-04" (IIS may leave out the zeros: "2007-4-11"): days */
static int
ra_log_w3c_date(ra_str_t s, int64_t *days)
{
    unsigned  v[3] = { 0, 0, 0 }, k = 0, n = 0;
    size_t    i;

    for (i = 0; i < s.len; i++) {
        if (s.data[i] == '-' && n > 0 && k < 2) {
            k++;
            n = 0;
        } else if (ra_isdigit(s.data[i]) && n++ < 4) {
            v[k] = v[k] * 10 + (unsigned) (s.data[i] - '0');
        } else {
            return RA_ERROR;
        }
    }
    if (k != 2 || n == 0 || v[1] < 1 || v[1] > 12 || v[2] < 1 || v[2] > 31) {
        return RA_ERROR;
    }
    *days = ra_days_from_civil(v[0], v[1], v[2]);
    return RA_OK;
}

/* "21:02:31", a fraction allowed: milliseconds of the day */
static int
ra_log_w3c_tod(ra_str_t s, int64_t *ms)
{
    int  hh, mm, ss, frac = 0, scale = 100;
    size_t  i;

    if (s.len < 8 || s.data[2] != ':' || s.data[5] != ':') {
        return RA_ERROR;
    }
    hh = ra_log_digits(s.data, 2);
    mm = ra_log_digits(s.data + 3, 2);
    ss = ra_log_digits(s.data + 6, 2);
    if (hh < 0 || hh > 23 || mm < 0 || mm > 59 || ss < 0 || ss > 60) {
        return RA_ERROR;
    }
    if (s.len > 8) {
        if (s.data[8] != '.') {
            return RA_ERROR;
        }
        for (i = 9; i < s.len; i++) {
            if (!ra_isdigit(s.data[i])) {
                return RA_ERROR;
            }
            frac += (s.data[i] - '0') * scale;
            scale /= 10;
        }
    }
    *ms = ((int64_t) hh * 3600 + mm * 60 + ss) * 1000 + frac;
    return RA_OK;
}

int
ra_log_w3c(const ra_logfmt_t *f, ra_str_t line, ra_logrec_t *rec)
{
    const unsigned char  *p = line.data, *end = line.data + line.len, *q;
    unsigned char         sep;
    unsigned              col, kind, have = 0;
    int64_t               days = 0, tod = 0;
    ra_str_t              v;

    ra_log_rec_init(rec, p);
    if (line.len == 0 || *p == '#') {
        return RA_ERROR;
    }
    /* CloudFront separates with tabs, IIS with spaces */
    sep = f->format == RA_LOG_CLOUDFRONT || memchr(p, '\t', line.len)
          ? '\t' : ' ';
    for (col = 0; ; col++) {
        q = memchr(p, sep, (size_t) (end - p));
        if (q == NULL) {
            q = end;
        }
        v = ra_str(p, (size_t) (q - p));
        kind = col < f->nitems ? f->items[col].kind : RA_LF_SKIP;
        if (kind == RA_LF_DATE) {
            if (ra_log_w3c_date(v, &days) != RA_OK) {
                rec->bad = "time";
                return RA_ERROR;
            }
            have |= 1;
        } else if (kind == RA_LF_TOD) {
            if (ra_log_w3c_tod(v, &tod) != RA_OK) {
                rec->bad = "time";
                return RA_ERROR;
            }
            have |= 2;
        } else if (kind == RA_LF_HOST && v.len == 1 && v.data[0] == '-') {
            /* no Host logged */
        } else if (kind != RA_LF_SKIP && ra_log_field(rec, kind, v) != RA_OK)
        {
            return RA_ERROR;
        }
        if (q == end) {
            break;
        }
        p = q + 1;
    }
    if (col + 1 < f->nitems) {
        return RA_ERROR;                /* fewer columns than #Fields: */
    }
    if (have != 3) {
        rec->bad = "time";
        return RA_ERROR;
    }
    rec->time = days * 86400000 + tod;
    rec->ua_enc = f->format == RA_LOG_CLOUDFRONT ? RA_LOG_ENC_PCT
                                                 : RA_LOG_ENC_PLUS;
    rec->format = f->format;
    return ra_log_finish(rec, f->fields & ~(1u << RA_LF_REQUEST));
}

/* ---- HAProxy ------------------------------------------------------------ */

/* A captured header that looks like a host name (the Host capture) rather
 * than a User-Agent: no space, no '/', a dot or a colon */
static int
ra_log_hostlike(ra_str_t s)
{
    size_t  i;
    int     dot = 0;

    for (i = 0; i < s.len; i++) {
        unsigned char  c = s.data[i];

        if (c == '.' || c == ':') {
            dot = 1;
        } else if (!(ra_isalpha(c) || ra_isdigit(c) || c == '-' || c == '['
                     || c == ']' || c == '_'))
        {
            return 0;
        }
    }
    return s.len > 0 && dot;
}

/* "{Host|User-Agent}" as "capture request header" lines name them, in
 * any order: each told by its shape */
static void
ra_log_captures(ra_str_t blk, ra_logrec_t *rec)
{
    const unsigned char  *p = blk.data, *end = blk.data + blk.len, *q;
    ra_str_t              v;

    for ( ;; ) {
        q = memchr(p, '|', (size_t) (end - p));
        if (q == NULL) {
            q = end;
        }
        v = ra_str(p, (size_t) (q - p));
        if (ra_log_hostlike(v)) {
            if (rec->host.data == NULL) {
                rec->host = ra_log_host(v);
            }
        } else if (v.len > 0 && rec->user_agent.data == NULL) {
            rec->user_agent = v;
        }
        if (q == end) {
            break;
        }
        p = q + 1;
    }
}

/* The next blank-separated token at *p */
static ra_str_t
ra_log_token(const unsigned char **p, const unsigned char *end)
{
    const unsigned char  *s = ra_log_ws(*p, end), *q;

    for (q = s; q < end && *q != ' '; q++) { }
    *p = q;
    return ra_str(s, (size_t) (q - s));
}

/* "[06/Feb/2009:12:14:14.655]" at p (26 bytes), no zone: UTC */
static int
ra_log_haproxy_time(const unsigned char *p, int64_t *out)
{
    int  day = ra_log_digits(p + 1, 2), mon = ra_log_month(p + 4);
    int  year = ra_log_digits(p + 8, 4), hh = ra_log_digits(p + 13, 2);
    int  mm = ra_log_digits(p + 16, 2), ss = ra_log_digits(p + 19, 2);
    int  ms = ra_log_digits(p + 22, 3);

    if (p[0] != '[' || p[3] != '/' || p[7] != '/' || p[12] != ':'
        || p[15] != ':' || p[18] != ':' || p[21] != '.' || p[25] != ']'
        || day < 1 || day > 31 || mon == 0 || year < 0 || hh < 0 || hh > 23
        || mm < 0 || mm > 59 || ss < 0 || ss > 60 || ms < 0)
    {
        return RA_ERROR;
    }
    *out = (ra_days_from_civil(year, (unsigned) mon, (unsigned) day) * 86400
            + hh * 3600 + mm * 60 + ss) * 1000 + ms;
    return RA_OK;
}

int
ra_log_haproxy(ra_str_t line, ra_logrec_t *rec)
{
    const unsigned char  *p = line.data, *end = line.data + line.len, *b, *q;
    ra_str_t              t;
    unsigned              escaped = 0, i;

    ra_log_rec_init(rec, p);
    /* the accept date: the first "[dd/Mon/yyyy:hh:mm:ss.mmm]" after a
     * blank (the syslog prefix's "haproxy[pid]:" is not one) */
    for (b = p; ; b++) {
        b = memchr(b, '[', (size_t) (end - b));
        if (b == NULL) {
            return RA_ERROR;
        }
        if (b - p >= 2 && b[-1] == ' ' && end - b >= 27
            && ra_log_haproxy_time(b, &rec->time) == RA_OK)
        {
            break;
        }
    }
    /* %ci:%cp before it */
    for (q = b - 1; q > p && q[-1] != ' '; q--) { }
    rec->addr = ra_log_strip_port(ra_str(q, (size_t) (b - 1 - q)));
    /* %ft %b/%s timers %ST %B */
    p = b + 26;
    for (i = 0; i < 5; i++) {
        t = ra_log_token(&p, end);
        if (t.len == 0) {
            return RA_ERROR;
        }
        if (i == 3 && ra_log_field(rec, RA_LF_STATUS, t) != RA_OK) {
            return RA_ERROR;
        }
        if (i == 4) {
            if (t.data[0] == '+') {     /* option logasap */
                t = ra_str(t.data + 1, t.len - 1);
            }
            if (ra_log_field(rec, RA_LF_BYTES, t) != RA_OK) {
                return RA_ERROR;
            }
        }
    }
    /* cookies, termination state, counters; then the captures, request
     * headers first; then the request */
    for (i = 0; ; ) {
        p = ra_log_ws(p, end);
        if (p == end) {
            return RA_ERROR;
        }
        if (*p == '{') {
            q = memchr(p, '}', (size_t) (end - p));
            if (q == NULL) {
                return RA_ERROR;
            }
            if (i++ == 0) {
                ra_log_captures(ra_str(p + 1, (size_t) (q - p - 1)), rec);
            }
            p = q + 1;
            continue;
        }
        if (*p == '"') {
            break;
        }
        (void) ra_log_token(&p, end);
    }
    q = ra_log_quoted(p + 1, end, &escaped);
    if (q == NULL) {
        rec->bad = "request";
        return RA_ERROR;
    }
    rec->request = ra_str(p + 1, (size_t) (q - p - 1));
    rec->escaped = escaped;
    rec->format = RA_LOG_HAPROXY;
    return ra_log_finish(rec, 1u << RA_LF_REQUEST);
}

/* ---- AWS Application Load Balancer ---------------------------------------- */

int
ra_log_alb(ra_str_t line, ra_logrec_t *rec)
{
    static const char *const  types[] = {
        "http", "https", "h2", "grpcs", "ws", "wss"
    };
    const unsigned char  *p = line.data, *end = line.data + line.len, *q, *a;
    ra_str_t              t, tg;
    unsigned              escaped = 0, i;
    int                   rc;

    ra_log_rec_init(rec, p);
    /* type time elb client:port target:port 3 times elb_status
     * target_status received_bytes sent_bytes */
    for (i = 0; i < 12; i++) {
        t = ra_log_token(&p, end);
        if (t.len == 0) {
            return RA_ERROR;
        }
        switch (i) {
        case 0:
            for (rc = 0; rc < 6; rc++) {
                if (ra_strcaseeq(t, ra_str(types[rc], strlen(types[rc])))) {
                    break;
                }
            }
            if (rc == 6) {
                return RA_ERROR;
            }
            break;
        case 1:
            if (ra_log_field(rec, RA_LF_TIME_ISO, t) != RA_OK) {
                return RA_ERROR;
            }
            break;
        case 3:
            rec->addr = ra_log_strip_port(t);
            break;
        case 8:
            if (ra_log_field(rec, RA_LF_STATUS, t) != RA_OK) {
                return RA_ERROR;
            }
            break;
        case 11:
            if (ra_log_field(rec, RA_LF_BYTES, t) != RA_OK) {
                return RA_ERROR;
            }
            break;
        }
    }
    /* "request" "user_agent" */
    if (end - p < 2 || p[0] != ' ' || p[1] != '"'
        || (q = ra_log_quoted(p + 2, end, &escaped)) == NULL)
    {
        rec->bad = "request";
        return RA_ERROR;
    }
    rec->request = ra_str(p + 2, (size_t) (q - p - 2));
    p = q + 1;
    if (end - p < 2 || p[0] != ' ' || p[1] != '"'
        || (q = ra_log_quoted(p + 2, end, &escaped)) == NULL)
    {
        rec->bad = "user-agent";
        return RA_ERROR;
    }
    rec->user_agent = ra_str(p + 2, (size_t) (q - p - 2));
    if (q + 1 != end && q[1] != ' ') {
        return RA_ERROR;
    }
    rec->escaped = escaped;
    rec->format = RA_LOG_ALB;
    if ((rc = ra_log_finish(rec, 1u << RA_LF_REQUEST)) != RA_OK) {
        return rc;
    }
    if (rec->method.len == 1 && rec->method.data[0] == '-') {
        rec->method.len = 0;            /* "- - - ": no request read */
        rec->target.len = 0;
    }
    /* the request line holds the absolute URL: its host is the site,
     * its path the target */
    tg = rec->target;
    if (tg.len > 8 && (ra_strcaseeq(ra_str(tg.data, 7),
                                    ra_str("http://", 7))
                       || ra_strcaseeq(ra_str(tg.data, 8),
                                       ra_str("https://", 8))))
    {
        a = (const unsigned char *) memchr(tg.data, ':', tg.len) + 3;
        for (q = a; q < tg.data + tg.len && *q != '/' && *q != '?'; q++) { }
        if (q < tg.data + tg.len) {
            rec->host = ra_log_host(ra_str(a, (size_t) (q - a)));
            rec->target = ra_str(q, (size_t) (tg.data + tg.len - q));
        }
    }
    return RA_OK;
}
