/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Access-log lines (see ra_accesslog.h).  One forward pass, every read
 * checked against the end of the span; the only searches are memchr()
 * for the unquoted fields and a byte loop inside quotes (which must skip
 * backslash escapes).
 */
#include <string.h>

#include "ra_accesslog.h"

/* Apache escapes '"' inside a field as \" (and '\' as \\), nginx as
 * \x22: either way the closing quote is the first '"' not preceded by an
 * escaping backslash.  p is just after the opening quote; returns the
 * closing quote or NULL when the span ends first. */
static const unsigned char *
ra_log_quoted(const unsigned char *p, const unsigned char *end,
    unsigned *escaped)
{
    const unsigned char  *q;

    for ( ;; ) {
        q = memchr(p, '"', (size_t) (end - p));
        if (q == NULL) {
            return NULL;
        }
        /* fast path: no backslash between p and q */
        if (memchr(p, '\\', (size_t) (q - p)) == NULL) {
            return q;
        }
        *escaped = 1;
        /* walk the escapes: \x is two bytes whatever x is */
        while (p < q) {
            if (*p == '\\') {
                p += 2;
            } else {
                p++;
            }
        }
        if (p == q) {
            return q;       /* the quote is not escaped */
        }
        /* p == q + 1: that quote was escaped; look further */
        if (p >= end) {
            return NULL;
        }
    }
}

static int
ra_log_month(const unsigned char *m)
{
    /* lower-case the three letters into one key */
    unsigned  k = (unsigned) ra_lower(m[0]) << 16
                  | (unsigned) ra_lower(m[1]) << 8 | (unsigned) ra_lower(m[2]);

#define RA_MON(a, b, c)  ((unsigned) (a) << 16 | (unsigned) (b) << 8 | (c))
    switch (k) {
    case RA_MON('j', 'a', 'n'): return 1;
    case RA_MON('f', 'e', 'b'): return 2;
    case RA_MON('m', 'a', 'r'): return 3;
    case RA_MON('a', 'p', 'r'): return 4;
    case RA_MON('m', 'a', 'y'): return 5;
    case RA_MON('j', 'u', 'n'): return 6;
    case RA_MON('j', 'u', 'l'): return 7;
    case RA_MON('a', 'u', 'g'): return 8;
    case RA_MON('s', 'e', 'p'): return 9;
    case RA_MON('o', 'c', 't'): return 10;
    case RA_MON('n', 'o', 'v'): return 11;
    case RA_MON('d', 'e', 'c'): return 12;
    }
#undef RA_MON
    return 0;
}

/* n decimal digits at p, or -1 */
static int
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

int64_t
ra_days_from_civil(int64_t y, unsigned m, unsigned d)
{
    int64_t   era;
    unsigned  yoe, doy, doe;

    /* H. Hinnant's algorithm: exact for any year, no tables, no libc */
    y -= m <= 2;
    era = (y >= 0 ? y : y - 399) / 400;
    yoe = (unsigned) (y - era * 400);
    doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (int64_t) doe - 719468;
}

size_t
ra_time_iso(int64_t ms, char *out)
{
    int64_t   s, z, era, days, y;
    unsigned  doe, yoe, doy, mp, d, m, sod;
    char     *o = out;

    s = ms >= 0 ? ms / 1000 : (ms - 999) / 1000;
    days = s >= 0 ? s / 86400 : (s - 86399) / 86400;
    sod = (unsigned) (s - days * 86400);

    z = days + 719468;
    era = (z >= 0 ? z : z - 146096) / 146097;
    doe = (unsigned) (z - era * 146097);
    yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    y = (int64_t) yoe + era * 400;
    doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    mp = (5 * doy + 2) / 153;
    d = doy - (153 * mp + 2) / 5 + 1;
    m = mp < 10 ? mp + 3 : mp - 9;
    y += m <= 2;

    if (y < 0 || y > 9999) {
        y = y < 0 ? 0 : 9999;     /* keep the fixed width */
    }
#define RA_PUT2(v)  (*o++ = (char) ('0' + (v) / 10),                        \
                     *o++ = (char) ('0' + (v) % 10))
    RA_PUT2((unsigned) (y / 100));
    RA_PUT2((unsigned) (y % 100));
    *o++ = '-';
    RA_PUT2(m);
    *o++ = '-';
    RA_PUT2(d);
    *o++ = 'T';
    RA_PUT2(sod / 3600);
    *o++ = ':';
    RA_PUT2(sod / 60 % 60);
    *o++ = ':';
    RA_PUT2(sod % 60);
    *o++ = 'Z';
    *o = '\0';
#undef RA_PUT2
    return (size_t) (o - out);
}

/* "10/Oct/2000:13:55:36 -0700": exactly 26 bytes at p */
static int
ra_log_time(const unsigned char *p, int64_t *out)
{
    int      day, mon, year, hh, mm, ss, oh, om, off;
    int64_t  t;

    day = ra_log_digits(p, 2);
    mon = ra_log_month(p + 3);
    year = ra_log_digits(p + 7, 4);
    hh = ra_log_digits(p + 12, 2);
    mm = ra_log_digits(p + 15, 2);
    ss = ra_log_digits(p + 18, 2);
    oh = ra_log_digits(p + 22, 2);
    om = ra_log_digits(p + 24, 2);

    if (p[2] != '/' || p[6] != '/' || p[11] != ':' || p[14] != ':'
        || p[17] != ':' || p[20] != ' ' || (p[21] != '+' && p[21] != '-')
        || day < 1 || day > 31 || mon == 0 || year < 0 || hh < 0 || hh > 23
        || mm < 0 || mm > 59 || ss < 0 || ss > 60 || oh < 0 || oh > 23
        || om < 0 || om > 59)
    {
        return RA_ERROR;
    }
    off = (oh * 60 + om) * 60;
    if (p[21] == '-') {
        off = -off;
    }
    /* local = UTC + offset */
    t = ra_days_from_civil(year, (unsigned) mon, (unsigned) day) * 86400
        + hh * 3600 + mm * 60 + ss - off;
    *out = t * 1000;
    return RA_OK;
}

/* Splits "METHOD SP TARGET [SP PROTOCOL]"; leaves method empty when the
 * request line has another shape. */
static void
ra_log_request(ra_logrec_t *rec)
{
    const unsigned char  *p = rec->request.data;
    const unsigned char  *end = p + rec->request.len, *sp, *last;
    size_t                i;

    rec->method.len = 0;
    rec->method.data = p;
    rec->target = rec->method;
    rec->protocol = rec->method;

    sp = memchr(p, ' ', rec->request.len);
    if (sp == NULL || sp == p || sp - p > 32) {
        return;
    }
    /* a method is an HTTP token */
    for (i = 0; p + i < sp; i++) {
        unsigned char  c = p[i];

        if (!(ra_isalpha(c) || ra_isdigit(c) || c == '-' || c == '_'
              || c == '.' || c == '!' || c == '~' || c == '*' || c == '+'))
        {
            return;
        }
    }
    /* the protocol is what follows the last space, when it looks like
     * one; a target with spaces in it (logged raw) keeps them */
    last = end;
    while (last > sp + 1 && last[-1] != ' ') {
        last--;
    }
    if (last > sp + 1 && end - last >= 5 && memcmp(last, "HTTP/", 5) == 0) {
        rec->protocol = ra_str(last, (size_t) (end - last));
        rec->target = ra_str(sp + 1, (size_t) (last - 1 - (sp + 1)));
    } else {
        rec->protocol = ra_str(end, 0);
        rec->target = ra_str(sp + 1, (size_t) (end - (sp + 1)));
    }
    if (rec->target.len == 0) {
        return;
    }
    rec->method = ra_str(p, (size_t) (sp - p));
}

int
ra_accesslog_parse(ra_str_t line, ra_logrec_t *rec)
{
    const unsigned char  *p = line.data, *end = line.data + line.len, *q;
    unsigned              escaped = 0;
    int64_t               v;
    int                   n;

    /* the line end, if the caller left it */
    while (end > p && (end[-1] == '\n' || end[-1] == '\r')) {
        end--;
    }

    /* %h */
    q = memchr(p, ' ', (size_t) (end - p));
    if (q == NULL || q == p) {
        return RA_ERROR;
    }
    rec->addr = ra_str(p, (size_t) (q - p));
    p = q + 1;

    /* %l: one token */
    q = memchr(p, ' ', (size_t) (end - p));
    if (q == NULL || q == p) {
        return RA_ERROR;
    }
    p = q + 1;

    /* %u: up to " [" (a user name may hold spaces) */
    for (q = p; ; q++) {
        q = memchr(q, ' ', (size_t) (end - q));
        if (q == NULL || end - q < 2) {
            return RA_ERROR;
        }
        if (q[1] == '[') {
            break;
        }
    }
    if (q == p) {
        return RA_ERROR;
    }
    rec->user = ra_str(p, (size_t) (q - p));
    p = q + 2;

    /* %t: [dd/Mon/yyyy:hh:mm:ss +zzzz] */
    if (end - p < 27 || p[26] != ']' || ra_log_time(p, &rec->time) != RA_OK) {
        return RA_ERROR;
    }
    p += 27;

    /* "%r" */
    if (end - p < 3 || p[0] != ' ' || p[1] != '"') {
        return RA_ERROR;
    }
    p += 2;
    q = ra_log_quoted(p, end, &escaped);
    if (q == NULL) {
        return RA_ERROR;
    }
    rec->request = ra_str(p, (size_t) (q - p));
    p = q + 1;

    /* %>s */
    if (end - p < 2 || p[0] != ' ') {
        return RA_ERROR;
    }
    p++;
    if (*p == '-') {
        rec->status = 0;
        p++;
    } else {
        if (end - p < 3 || (n = ra_log_digits(p, 3)) < 100) {
            return RA_ERROR;
        }
        rec->status = n;
        p += 3;
    }

    /* %b */
    if (end - p < 2 || p[0] != ' ') {
        return RA_ERROR;
    }
    p++;
    if (*p == '-') {
        rec->bytes = -1;
        p++;
    } else {
        if (!ra_isdigit(*p)) {
            return RA_ERROR;
        }
        v = 0;
        for (n = 0; p < end && ra_isdigit(*p); p++, n++) {
            if (n == 18) {
                return RA_ERROR;    /* no body is 10^18 bytes */
            }
            v = v * 10 + (*p - '0');
        }
        rec->bytes = v;
    }

    rec->referer = ra_str(NULL, 0);
    rec->user_agent = ra_str(NULL, 0);

    if (p == end) {
        rec->format = RA_LOG_COMMON;
        goto done;
    }
    if (*p != ' ') {
        return RA_ERROR;
    }
    if (end - p < 2 || p[1] != '"') {
        /* trailing whitespace after a common line */
        for ( /* void */ ; p < end && (*p == ' ' || *p == '\t'); p++) { }
        if (p != end) {
            return RA_ERROR;
        }
        rec->format = RA_LOG_COMMON;
        goto done;
    }

    /* "%{Referer}i" "%{User-Agent}i" */
    p += 2;
    q = ra_log_quoted(p, end, &escaped);
    if (q == NULL) {
        return RA_ERROR;
    }
    rec->referer = ra_str(p, (size_t) (q - p));
    p = q + 1;
    if (end - p < 3 || p[0] != ' ' || p[1] != '"') {
        return RA_ERROR;
    }
    p += 2;
    q = ra_log_quoted(p, end, &escaped);
    if (q == NULL) {
        return RA_ERROR;     /* a line cut inside the User-Agent */
    }
    rec->user_agent = ra_str(p, (size_t) (q - p));
    p = q + 1;
    if (p != end && *p != ' ' && *p != '\t') {
        return RA_ERROR;
    }
    rec->format = RA_LOG_COMBINED;

done:
    rec->escaped = escaped;
    ra_log_request(rec);
    return RA_OK;
}

size_t
ra_accesslog_unescape(ra_str_t in, unsigned char *out)
{
    const unsigned char  *p = in.data, *end = in.data + in.len;
    unsigned char        *o = out;
    int                   hi, lo;

    while (p < end) {
        if (*p != '\\' || end - p < 2) {
            *o++ = *p++;
            continue;
        }
        switch (p[1]) {
        case '"':  *o++ = '"';  p += 2; continue;
        case '\\': *o++ = '\\'; p += 2; continue;
        case 'n':  *o++ = '\n'; p += 2; continue;
        case 'r':  *o++ = '\r'; p += 2; continue;
        case 't':  *o++ = '\t'; p += 2; continue;
        case 'x':
            if (end - p >= 4 && (hi = ra_hexval(p[2])) >= 0
                && (lo = ra_hexval(p[3])) >= 0)
            {
                *o++ = (unsigned char) (hi << 4 | lo);
                p += 4;
                continue;
            }
            break;
        }
        *o++ = *p++;
    }
    return (size_t) (o - out);
}
