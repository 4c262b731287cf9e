/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Access-log lines (see ra_accesslog.h).  One forward pass, every read
 * checked against the end of the span; the only searches are memchr()
 * for the unquoted fields and, inside quotes (which must skip backslash
 * escapes), one pass for the first quote or backslash.
 */
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "ra_accesslog.h"
#include "ra_accesslog_impl.h"
#include "ra_verify.h"

/* The first '"' or '\\' of p[0..end), or NULL: one pass, 16 bytes a
 * step where the machine has SSE2 (every x86-64 has); the last bytes of
 * a span of 16 or more as its last 16 (overlapping), not one by one. */
#if defined(__SSE2__)
static inline unsigned
ra_log_qe16(const unsigned char *p)
{
    __m128i  v = _mm_loadu_si128((const __m128i *) (const void *) p);

    return (unsigned) _mm_movemask_epi8(
               _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
                            _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))));
}
#endif

static const unsigned char *
ra_log_quote_or_escape(const unsigned char *p, const unsigned char *end)
{
#if defined(__SSE2__)
    unsigned  m;

    if (end - p >= 16) {
        for ( /* void */ ; end - p >= 16; p += 16) {
            m = ra_log_qe16(p);
            if (m != 0) {
                return p + __builtin_ctz(m);
            }
        }
        /* the bytes left, as the span's last 16 without those read */
        m = ra_log_qe16(end - 16) >> (16 - (end - p));
        return m != 0 ? p + __builtin_ctz(m) : NULL;
    }
#endif
    for ( /* void */ ; p < end; p++) {
        if (*p == '"' || *p == '\\') {
            return p;
        }
    }
    return NULL;
}

/* Apache escapes '"' inside a field as \" (and '\' as \\), nginx as
 * \x22: either way the closing quote is the first '"' not preceded by an
 * escaping backslash (a backslash escapes the byte after it, whatever it
 * is).  p is just after the opening quote; returns the closing quote or
 * NULL when the span ends first. */
const unsigned char *
ra_log_quoted(const unsigned char *p, const unsigned char *end,
    unsigned *escaped)
{
    const unsigned char  *q;

    for ( ;; ) {
        q = ra_log_quote_or_escape(p, end);
        if (q == NULL || *q == '"') {
            return q;
        }
        *escaped = 1;
        if (end - q < 2) {
            return NULL;                /* nothing left for it to escape */
        }
        p = q + 2;
    }
}

int
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

/* hh:mm:ss at p as seconds of the day, or -1 */
static inline int
ra_log_tod(const unsigned char *p)
{
    int  hh = ra_log_digits(p, 2), mm = ra_log_digits(p + 3, 2),
         ss = ra_log_digits(p + 6, 2);

    if (p[2] != ':' || p[5] != ':' || hh < 0 || hh > 23 || mm < 0
        || mm > 59 || ss < 0 || ss > 60)
    {
        return -1;
    }
    return (hh * 60 + mm) * 60 + ss;
}

/* "10/Oct/2000:13:55:36 -0700": exactly 26 bytes at p */
int
ra_log_time(const unsigned char *p, ra_logmemo_t *m, int64_t *out)
{
    int      day, mon, year, hh, mm, ss, oh, om, off;
    int64_t  t;

    /* the date ("10/Oct/2000:") and the offset (" -0700") of the line
     * before, read valid then: only the time of day is new */
    if (m != NULL && m->has_time && memcmp(p, m->time, 12) == 0
        && memcmp(p + 20, m->time + 20, 6) == 0
        && (ss = ra_log_tod(p + 12)) >= 0)
    {
        *out = m->day_ms + (int64_t) ss * 1000;
        return RA_OK;
    }
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
        - off;
    if (m != NULL) {
        memcpy(m->time, p, 26);
        m->day_ms = t * 1000;
        m->has_time = 1;
    }
    *out = (t + hh * 3600 + mm * 60 + ss) * 1000;
    return RA_OK;
}

/* Splits "METHOD SP TARGET [SP PROTOCOL]"; leaves method empty when the
 * request line has another shape. */
void
ra_log_request(ra_logrec_t *rec)
{
    const unsigned char  *p = rec->request.data;
    const unsigned char  *end = p + rec->request.len, *sp, *last;
    size_t                i;

    rec->method.len = 0;
    rec->method.data = p;
    rec->target = rec->method;
    rec->protocol = rec->method;

    if (rec->request.len > 4 && memcmp(p, "GET ", 4) == 0) {
        sp = p + 3;                     /* most requests: a token */
    } else {
        sp = memchr(p, ' ', rec->request.len);
        if (sp == NULL || sp == p || sp - p > 32) {
            return;
        }
        /* a method is an HTTP token */
        for (i = 0; p + i < sp; i++) {
            unsigned char  c = p[i];

            if (!(ra_isalpha(c) || ra_isdigit(c) || c == '-' || c == '_'
                  || c == '.' || c == '!' || c == '~' || c == '*'
                  || c == '+'))
            {
                return;
            }
        }
    }
    /* the protocol is what follows the last space, when it looks like
     * one; a target with spaces in it (logged raw) keeps them.  Most end
     * in " HTTP/1.1": its last space found without a walk back */
    if (end - sp > 9 && end[-9] == ' ' && end[-3] != ' ' && end[-2] != ' '
        && end[-1] != ' ' && memcmp(end - 8, "HTTP/", 5) == 0)
    {
        last = end - 8;
    } else {
        last = end;
        while (last > sp + 1 && last[-1] != ' ') {
            last--;
        }
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
    return ra_log_combined(line, NULL, rec);
}

int
ra_log_combined(ra_str_t line, ra_logmemo_t *m, ra_logrec_t *rec)
{
    const unsigned char  *p = line.data, *end = line.data + line.len, *q;
    unsigned              escaped = 0;
    int64_t               v;
    int                   n;
    const char           *what = "client";

    rec->addr = ra_str(p, 0);       /* what an error may show of it */
    /* the line end, if the caller left it */
    while (end > p && (end[-1] == '\n' || end[-1] == '\r')) {
        end--;
    }

    /* %h */
    q = memchr(p, ' ', (size_t) (end - p));
    if (q == NULL || q == p) {
        goto bad;
    }
    rec->addr = ra_str(p, (size_t) (q - p));
    p = q + 1;

    /* %l: one token */
    what = "user";
    if (end - p >= 2 && p[0] == '-' && p[1] == ' ') {
        q = p + 1;                      /* what it nearly always is */
    } else {
        q = memchr(p, ' ', (size_t) (end - p));
        if (q == NULL || q == p) {
            goto bad;
        }
    }
    p = q + 1;

    /* %u: up to " [" (a user name may hold spaces) */
    if (end - p >= 3 && p[0] == '-' && p[1] == ' ' && p[2] == '[') {
        q = p + 1;
    } else {
        for (q = p; ; q++) {
            q = memchr(q, ' ', (size_t) (end - q));
            if (q == NULL || end - q < 2) {
                goto bad;
            }
            if (q[1] == '[') {
                break;
            }
        }
    }
    if (q == p) {
        goto bad;
    }
    rec->user = ra_str(p, (size_t) (q - p));
    p = q + 2;

    /* %t: [dd/Mon/yyyy:hh:mm:ss +zzzz] */
    what = "time";
    if (end - p < 27 || p[26] != ']'
        || ra_log_time(p, m, &rec->time) != RA_OK)
    {
        goto bad;
    }
    p += 27;

    /* "%r" */
    what = "request";
    if (end - p < 3 || p[0] != ' ' || p[1] != '"') {
        goto bad;
    }
    p += 2;
    q = ra_log_quoted(p, end, &escaped);
    if (q == NULL) {
        goto bad;
    }
    rec->request = ra_str(p, (size_t) (q - p));
    p = q + 1;

    /* %>s */
    what = "status";
    if (end - p < 2 || p[0] != ' ') {
        goto bad;
    }
    p++;
    if (*p == '-') {
        rec->status = 0;
        p++;
    } else {
        if (end - p < 3 || (n = ra_log_digits(p, 3)) < 100) {
            goto bad;
        }
        rec->status = n;
        p += 3;
    }

    /* %b */
    what = "bytes";
    if (end - p < 2 || p[0] != ' ') {
        goto bad;
    }
    p++;
    if (*p == '-') {
        rec->bytes = -1;
        p++;
    } else {
        if (!ra_isdigit(*p)) {
            goto bad;
        }
        v = 0;
        /* no body is 10^18 bytes: 18 digits at most */
        for (q = end - p > 18 ? p + 18 : end; p < q && ra_isdigit(*p); p++) {
            v = v * 10 + (*p - '0');
        }
        if (p < end && ra_isdigit(*p)) {
            goto bad;
        }
        rec->bytes = v;
    }

    rec->referer = ra_str(NULL, 0);
    rec->user_agent = ra_str(NULL, 0);
    rec->host = ra_str(NULL, 0);
    rec->xff = ra_str(NULL, 0);

    if (p == end) {
        rec->format = RA_LOG_COMMON;
        goto done;
    }
    if (*p != ' ') {
        goto bad;
    }
    if (end - p < 2 || p[1] != '"') {
        /* trailing whitespace after a common line */
        for ( /* void */ ; p < end && (*p == ' ' || *p == '\t'); p++) { }
        if (p != end) {
            goto bad;
        }
        rec->format = RA_LOG_COMMON;
        goto done;
    }

    /* "%{Referer}i" "%{User-Agent}i" */
    what = "referer";
    p += 2;
    q = ra_log_quoted(p, end, &escaped);
    if (q == NULL) {
        goto bad;
    }
    rec->referer = ra_str(p, (size_t) (q - p));
    p = q + 1;
    if (end - p < 3 || p[0] != ' ' || p[1] != '"') {
        goto bad;
    }
    p += 2;
    what = "user-agent";
    q = ra_log_quoted(p, end, &escaped);
    if (q == NULL) {
        goto bad;     /* a line cut inside the User-Agent */
    }
    rec->user_agent = ra_str(p, (size_t) (q - p));
    p = q + 1;
    what = NULL;                /* what follows: the layout */
    if (p != end) {
        if (*p != ' ' && *p != '\t') {
            goto bad;
        }
        /* trailing fields: the first quoted one is X-Forwarded-For in
         * nginx's "main" format ("$http_x_forwarded_for" last) */
        for (p++; p < end && (*p == ' ' || *p == '\t'); p++) { }
        if (p < end && *p == '"') {
            q = ra_log_quoted(p + 1, end, &escaped);
            if (q != NULL) {
                rec->xff = ra_str(p + 1, (size_t) (q - p - 1));
            }
        }
    }
    rec->format = RA_LOG_COMBINED;

done:
    rec->escaped = escaped;
    rec->query = ra_str(NULL, 0);
    rec->ua_enc = RA_LOG_ENC_NONE;
    rec->bad = NULL;
    ra_log_request(rec);
    return RA_OK;

bad:
    rec->bad = what;
    return RA_ERROR;
}

static long
ra_log_hex4(const unsigned char *p)
{
    long  v = 0;
    int   i, h;

    for (i = 0; i < 4; i++) {
        if ((h = ra_hexval(p[i])) < 0) {
            return -1;
        }
        v = v << 4 | h;
    }
    return v;
}

size_t
ra_accesslog_unescape(ra_str_t in, unsigned char *out)
{
    const unsigned char  *p = in.data, *end = in.data + in.len;
    unsigned char        *o = out;
    int                   hi, lo;
    long                  u;

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
        case '/':  *o++ = '/';  p += 2; continue;
        case 'b':  *o++ = '\b'; p += 2; continue;
        case 'f':  *o++ = '\f'; p += 2; continue;
        case 'u':
            /* JSON: 6 bytes in, at most 3 out */
            if (end - p >= 6 && (u = ra_log_hex4(p + 2)) >= 0) {
                if (u < 0x80) {
                    *o++ = (unsigned char) u;
                } else if (u < 0x800) {
                    *o++ = (unsigned char) (0xc0 | u >> 6);
                    *o++ = (unsigned char) (0x80 | (u & 0x3f));
                } else {
                    *o++ = (unsigned char) (0xe0 | u >> 12);
                    *o++ = (unsigned char) (0x80 | (u >> 6 & 0x3f));
                    *o++ = (unsigned char) (0x80 | (u & 0x3f));
                }
                p += 6;
                continue;
            }
            break;
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

/* ---- log formats ------------------------------------------------------ */

/* The first occurrence of a literal (a plan's are a few bytes) */
static const unsigned char *
ra_log_find(const unsigned char *p, const unsigned char *end,
    const unsigned char *lit, size_t len)
{
    const unsigned char  *q;

    while ((size_t) (end - p) >= len) {
        q = memchr(p, lit[0], (size_t) (end - p) - len + 1);
        if (q == NULL) {
            return NULL;
        }
        if (memcmp(q + 1, lit + 1, len - 1) == 0) {
            return q;
        }
        p = q + 1;
    }
    return NULL;
}

/* "host", "host:port", "[v6]:port", "-": the site without its port */
ra_str_t
ra_log_host(ra_str_t s)
{
    const unsigned char  *q;
    size_t                i;

    if (s.len == 0 || (s.len == 1 && s.data[0] == '-')) {
        return ra_str(NULL, 0);
    }
    if (s.data[0] == '[') {
        q = memchr(s.data, ']', s.len);
        return q != NULL ? ra_str(s.data, (size_t) (q - s.data) + 1) : s;
    }
    q = memchr(s.data, ':', s.len);
    if (q == NULL || memchr(q + 1, ':', s.len - (size_t) (q + 1 - s.data))) {
        return s;                   /* no port, or a bare IPv6 address */
    }
    for (i = (size_t) (q + 1 - s.data); i < s.len; i++) {
        if (!ra_isdigit(s.data[i])) {
            return s;
        }
    }
    return ra_str(s.data, (size_t) (q - s.data));
}

/* "2000-10-10T13:55:36+00:00", fractions and "Z" or "+0000" allowed */
int
ra_log_time_iso(ra_str_t s, int64_t *out)
{
    const unsigned char  *p = s.data, *end = s.data + s.len;
    int                   y, mo, d, hh, mm, ss, oh = 0, om = 0, sign = 0;
    int64_t               ms = 0, scale = 100;

    if (s.len < 20) {
        return RA_ERROR;
    }
    y = ra_log_digits(p, 4);
    mo = ra_log_digits(p + 5, 2);
    d = ra_log_digits(p + 8, 2);
    hh = ra_log_digits(p + 11, 2);
    mm = ra_log_digits(p + 14, 2);
    ss = ra_log_digits(p + 17, 2);
    if (y < 0 || p[4] != '-' || p[7] != '-' || (p[10] != 'T' && p[10] != ' ')
        || p[13] != ':' || p[16] != ':' || mo < 1 || mo > 12 || d < 1
        || d > 31 || hh < 0 || hh > 23 || mm < 0 || mm > 59 || ss < 0
        || ss > 60)
    {
        return RA_ERROR;
    }
    p += 19;
    if (p < end && *p == '.') {
        for (p++; p < end && ra_isdigit(*p); p++) {
            ms += (*p - '0') * scale;
            scale /= 10;
        }
    }
    if (p < end && (*p == 'Z' || *p == 'z')) {
        p++;
    } else if (p < end && (*p == '+' || *p == '-')) {
        sign = *p++ == '-' ? -1 : 1;
        if (end - p == 5 && p[2] == ':') {
            oh = ra_log_digits(p, 2);
            om = ra_log_digits(p + 3, 2);
            p += 5;
        } else if (end - p == 4) {
            oh = ra_log_digits(p, 2);
            om = ra_log_digits(p + 2, 2);
            p += 4;
        } else {
            return RA_ERROR;
        }
        if (oh < 0 || oh > 23 || om < 0 || om > 59) {
            return RA_ERROR;
        }
    }
    if (p != end) {
        return RA_ERROR;
    }
    *out = (ra_days_from_civil(y, (unsigned) mo, (unsigned) d) * 86400
            + hh * 3600 + mm * 60 + ss - sign * (oh * 60 + om) * 60) * 1000
           + ms;
    return RA_OK;
}

/* $msec: "1443888000.123" */
static int
ra_log_msec(ra_str_t s, int64_t *out)
{
    size_t   i;
    int64_t  v = 0;
    int      frac = -1, whole = 0;

    if (s.len == 0 || s.len > 20) {
        return RA_ERROR;
    }
    for (i = 0; i < s.len; i++) {
        if (s.data[i] == '.' && frac < 0) {
            frac = 0;
        } else if (ra_isdigit(s.data[i]) && frac < 0 && whole++ == 12) {
            return RA_ERROR;            /* past year 33000: no overflow */
        } else if (ra_isdigit(s.data[i]) && frac < 3) {
            v = v * 10 + (s.data[i] - '0');
            if (frac >= 0) {
                frac++;
            }
        } else if (!ra_isdigit(s.data[i])) {
            return RA_ERROR;
        }
    }
    for (frac = frac < 0 ? 0 : frac; frac < 3; frac++) {
        v *= 10;
    }
    *out = v;
    return RA_OK;
}

int
ra_log_status(ra_str_t s, int *out)
{
    int  n;

    if (s.len == 1 && s.data[0] == '-') {
        *out = 0;
        return RA_OK;
    }
    if (s.len != 3 || (n = ra_log_digits(s.data, 3)) < 100) {
        return RA_ERROR;
    }
    *out = n;
    return RA_OK;
}

int
ra_log_bytes(ra_str_t s, int64_t *out)
{
    size_t   i;
    int64_t  v = 0;

    if (s.len == 1 && s.data[0] == '-') {
        *out = -1;
        return RA_OK;
    }
    if (s.len == 0 || s.len > 18) {
        return RA_ERROR;
    }
    for (i = 0; i < s.len; i++) {
        if (!ra_isdigit(s.data[i])) {
            return RA_ERROR;
        }
        v = v * 10 + (s.data[i] - '0');
    }
    *out = v;
    return RA_OK;
}

/* Epoch time: seconds (with a fraction), or milliseconds, microseconds
 * or nanoseconds told by the number of digits, as JSON logs write it */
static int
ra_log_epoch(ra_str_t s, int64_t *out)
{
    size_t   i;
    int64_t  v = 0, frac = 0, scale = 100;
    int      digits = 0, dot = 0;

    for (i = 0; i < s.len; i++) {
        if (s.data[i] == '.' && !dot) {
            dot = 1;
        } else if (!ra_isdigit(s.data[i])) {
            return RA_ERROR;
        } else if (!dot) {
            /* 19 digits may pass int64_t's largest: no time at all */
            if (++digits > 19
                || v > (INT64_MAX - (s.data[i] - '0')) / 10)
            {
                return RA_ERROR;
            }
            v = v * 10 + (s.data[i] - '0');
        } else if (scale > 0) {
            frac += (s.data[i] - '0') * scale;
            scale /= 10;
        }
    }
    if (digits == 0) {
        return RA_ERROR;
    }
    if (digits <= 11) {
        *out = v * 1000 + frac;                 /* seconds */
    } else if (digits <= 14) {
        *out = v;                               /* milliseconds */
    } else if (digits <= 17) {
        *out = v / 1000;                        /* microseconds */
    } else {
        *out = v / 1000000;                     /* nanoseconds */
    }
    return RA_OK;
}

/* A JSON log's time: an epoch number (or digits in a string), or ISO 8601 */
static int
ra_log_time_any(ra_str_t s, int64_t *out)
{
    if (s.len >= 10 && s.data[4] == '-') {
        return ra_log_time_iso(s, out);
    }
    return ra_log_epoch(s, out);
}

static const char *
ra_log_kind_name(unsigned kind)
{
    switch (kind) {
    case RA_LF_ADDR:
        return "client";
    case RA_LF_TIME_LOCAL: case RA_LF_TIME_APACHE: case RA_LF_TIME_ISO:
    case RA_LF_MSEC: case RA_LF_TIME_ANY: case RA_LF_DATE: case RA_LF_TOD:
        return "time";
    case RA_LF_STATUS:
        return "status";
    case RA_LF_BYTES:
        return "bytes";
    }
    return NULL;
}

/* One field's value into the record; RA_ERROR when it cannot be read */
static int
ra_log_field_set(ra_logrec_t *rec, unsigned kind, ra_str_t v)
{
    switch (kind) {
    case RA_LF_ADDR:
        rec->addr = v;
        return v.len ? RA_OK : RA_ERROR;
    case RA_LF_USER:
        rec->user = v;
        return RA_OK;
    case RA_LF_TIME_LOCAL:
        return v.len == 26 ? ra_log_time(v.data, NULL, &rec->time) : RA_ERROR;
    case RA_LF_TIME_APACHE:
        return v.len == 28 && v.data[0] == '[' && v.data[27] == ']'
               ? ra_log_time(v.data + 1, NULL, &rec->time) : RA_ERROR;
    case RA_LF_TIME_ISO:
        return ra_log_time_iso(v, &rec->time);
    case RA_LF_MSEC:
        return ra_log_msec(v, &rec->time);
    case RA_LF_TIME_ANY:
        return ra_log_time_any(v, &rec->time);
    case RA_LF_REQUEST:
        rec->request = v;
        return RA_OK;
    case RA_LF_METHOD:
        rec->method = v;
        return RA_OK;
    case RA_LF_URI:
        rec->target = v;
        return RA_OK;
    case RA_LF_QUERY:
        rec->query = v.len == 0 || (v.len == 1 && v.data[0] == '-')
                     ? ra_str(NULL, 0) : v;
        return RA_OK;
    case RA_LF_STATUS:
        return ra_log_status(v, &rec->status);
    case RA_LF_BYTES:
        return ra_log_bytes(v, &rec->bytes);
    case RA_LF_REFERER:
        rec->referer = v;
        return RA_OK;
    case RA_LF_UA:
        rec->user_agent = v;
        return RA_OK;
    case RA_LF_HOST:
        rec->host = ra_log_host(v);
        return RA_OK;
    case RA_LF_XFF:
        rec->xff = v;
        return RA_OK;
    }
    return RA_OK;
}

int
ra_log_field(ra_logrec_t *rec, unsigned kind, ra_str_t v)
{
    if (ra_log_field_set(rec, kind, v) != RA_OK) {
        rec->bad = ra_log_kind_name(kind);
        return RA_ERROR;
    }
    return RA_OK;
}

void
ra_log_rec_init(ra_logrec_t *rec, const unsigned char *at)
{
    memset(rec, 0, sizeof(*rec));
    rec->addr = ra_str(at, 0);
    rec->user = rec->addr;
    rec->request = rec->addr;
    rec->method = rec->addr;
    rec->target = rec->addr;
    rec->protocol = rec->addr;
    rec->bytes = -1;
    rec->time = INT64_MIN;
    rec->referer = ra_str(NULL, 0);
    rec->user_agent = ra_str(NULL, 0);
    rec->host = ra_str(NULL, 0);
    rec->xff = ra_str(NULL, 0);
    rec->query = ra_str(NULL, 0);
}

/* The request of a format with $request, or with a method and a URI */
int
ra_log_finish(ra_logrec_t *rec, unsigned fields)
{
    if (rec->time == INT64_MIN || rec->addr.len == 0) {
        rec->bad = rec->addr.len == 0 ? "client" : "time";
        return RA_ERROR;
    }
    if (fields & (1u << RA_LF_REQUEST)) {
        ra_log_request(rec);
    } else if (rec->method.len == 0 || rec->target.len == 0
               || (rec->method.len == 1 && rec->method.data[0] == '-'))
    {
        rec->method.len = 0;
        rec->target.len = 0;
    } else {
        rec->request = ra_str(rec->method.data, rec->method.len);
    }
    if (rec->xff.data != NULL && rec->xff.len == 1 && rec->xff.data[0] == '-')
    {
        rec->xff = ra_str(NULL, 0);
    }
    return RA_OK;
}

/* Debian's vhost_combined: "%v:%p %h %l %u %t \"%r\" %>s %O
 * \"%{Referer}i\" \"%{User-Agent}i\"" */
int
ra_log_vhost(ra_str_t line, ra_logmemo_t *m, ra_logrec_t *rec)
{
    const unsigned char  *p = line.data, *end = line.data + line.len, *sp, *c;

    sp = memchr(p, ' ', line.len);
    if (sp == NULL || sp == p) {
        return RA_ERROR;
    }
    /* the port is always there: %v:%p */
    for (c = sp; c > p && ra_isdigit(c[-1]); c--) { }
    if (c == sp || c - 1 <= p || c[-1] != ':') {
        return RA_ERROR;
    }
    if (ra_log_combined(ra_str(sp + 1, (size_t) (end - sp - 1)), m, rec)
        != RA_OK)
    {
        return RA_ERROR;
    }
    rec->host = ra_log_host(ra_str(p, (size_t) (c - 1 - p)));
    rec->format = RA_LOG_VHOST_COMBINED;
    return RA_OK;
}

const unsigned char *
ra_log_ws(const unsigned char *p, const unsigned char *end)
{
    while (p < end && (*p == ' ' || *p == '\t')) {
        p++;
    }
    return p;
}

unsigned
ra_log_nginx_var(ra_str_t n)
{
    static const struct {
        const char  *name;
        unsigned     kind;
    } vars[] = {
        { "remote_addr", RA_LF_ADDR },
        { "remote_user", RA_LF_USER },
        { "time_local", RA_LF_TIME_LOCAL },
        { "time_iso8601", RA_LF_TIME_ISO },
        { "msec", RA_LF_MSEC },
        { "request", RA_LF_REQUEST },
        { "request_method", RA_LF_METHOD },
        { "request_uri", RA_LF_URI },
        { "status", RA_LF_STATUS },
        { "body_bytes_sent", RA_LF_BYTES },
        { "http_referer", RA_LF_REFERER },
        { "http_user_agent", RA_LF_UA },
        { "host", RA_LF_HOST },
        { "http_host", RA_LF_HOST },
        { "server_name", RA_LF_HOST },
        { "http_x_forwarded_for", RA_LF_XFF },
    };
    size_t  i;

    for (i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
        if (n.len == strlen(vars[i].name)
            && memcmp(n.data, vars[i].name, n.len) == 0)
        {
            return vars[i].kind;
        }
    }
    return RA_LF_SKIP;
}

/* One flat JSON object: string, number or literal values (nginx's
 * escape=json writes no nesting).  Keys and values are kept escaped. */
int
ra_log_json(ra_str_t line, ra_logrec_t *rec)
{
    const unsigned char  *p = line.data, *end = line.data + line.len, *q;
    unsigned              escaped = 0, kind, fields = 0, kesc = 0, absent;
    ra_str_t              key, v;

    ra_log_rec_init(rec, p);
    p = ra_log_ws(p, end);
    if (p == end || *p++ != '{') {
        return RA_ERROR;
    }
    p = ra_log_ws(p, end);
    if (p < end && *p == '}') {
        return RA_ERROR;                /* {}: no address, no time */
    }
    for ( ;; ) {
        if (p == end || *p != '"') {
            return RA_ERROR;
        }
        q = ra_log_quoted(p + 1, end, &kesc);
        if (q == NULL) {
            return RA_ERROR;
        }
        key = ra_str(p + 1, (size_t) (q - p - 1));
        p = ra_log_ws(q + 1, end);
        if (p == end || *p++ != ':') {
            return RA_ERROR;
        }
        p = ra_log_ws(p, end);
        if (p == end) {
            return RA_ERROR;
        }
        if (*p == '"') {
            q = ra_log_quoted(p + 1, end, &escaped);
            if (q == NULL) {
                return RA_ERROR;
            }
            v = ra_str(p + 1, (size_t) (q - p - 1));
            absent = 0;
            p = q + 1;
        } else {
            for (q = p; q < end && *q != ',' && *q != '}' && *q != ' '
                 && *q != '\t'; q++)
            {
                if (*q == '{' || *q == '[' || *q == '"') {
                    return RA_ERROR;
                }
            }
            if (q == p) {
                return RA_ERROR;
            }
            v = ra_str(p, (size_t) (q - p));
            absent = v.len == 4 && memcmp(v.data, "null", 4) == 0;
            p = q;
        }
        kind = ra_log_nginx_var(key);   /* keys named as nginx's variables */
        if (kind != RA_LF_SKIP) {
            fields |= 1u << kind;
            /* null: the field is absent (the record keeps its default,
             * and every span stays inside the line) */
            if (!absent && ra_log_field(rec, kind, v) != RA_OK)
            {
                return RA_ERROR;
            }
        }
        p = ra_log_ws(p, end);
        if (p == end) {
            return RA_ERROR;
        }
        if (*p == '}') {
            break;
        }
        if (*p++ != ',') {
            return RA_ERROR;
        }
        p = ra_log_ws(p, end);
    }
    if (ra_log_ws(p + 1, end) != end) {
        return RA_ERROR;
    }
    rec->escaped = escaped;
    rec->format = RA_LOG_JSON;
    return ra_log_finish(rec, fields);
}

int
ra_log_plan(const ra_logfmt_t *f, ra_str_t line, ra_logrec_t *rec)
{
    const unsigned char  *p = line.data, *end = line.data + line.len, *q;
    const ra_logitem_t   *it, *next;
    unsigned              i, escaped = 0;
    size_t                w;

    ra_log_rec_init(rec, p);
    for (i = 0; i < f->nitems; i++) {
        it = &f->items[i];
        if (it->kind == RA_LF_LITERAL) {
            if ((size_t) (end - p) < it->len
                || memcmp(p, f->text + it->off, it->len) != 0)
            {
                return RA_ERROR;
            }
            p += it->len;
            continue;
        }
        next = i + 1 < f->nitems ? &f->items[i + 1] : NULL;
        if (it->quoted) {
            q = ra_log_quoted(p, end, &escaped);
        } else if (it->kind == RA_LF_TIME_LOCAL
                   || it->kind == RA_LF_TIME_APACHE)
        {
            /* fixed width, with a space inside */
            w = it->kind == RA_LF_TIME_LOCAL ? 26 : 28;
            q = (size_t) (end - p) >= w ? p + w : NULL;
        } else if (next != NULL) {
            q = ra_log_find(p, end, f->text + next->off, next->len);
        } else {
            /* the last field: up to a blank (trailing fields follow) */
            for (q = p; q < end && *q != ' ' && *q != '\t'; q++) { }
        }
        if (q == NULL) {
            return RA_ERROR;
        }
        if (ra_log_field(rec, it->kind, ra_str(p, (size_t) (q - p)))
            != RA_OK)
        {
            return RA_ERROR;
        }
        p = q;
    }
    if (p != end && *p != ' ' && *p != '\t') {
        return RA_ERROR;
    }
    rec->escaped = escaped;
    rec->format = RA_LOG_PLAN;
    return ra_log_finish(rec, f->fields);
}

ra_str_t
ra_log_strip_port(ra_str_t s)
{
    const unsigned char  *q, *c;
    ra_addr_t             a;

    if (s.len > 2 && s.data[0] == '[') {
        q = memchr(s.data, ']', s.len);
        return q != NULL ? ra_str(s.data + 1, (size_t) (q - s.data) - 1) : s;
    }
    for (c = s.data + s.len; c > s.data && ra_isdigit(c[-1]); c--) { }
    if (c == s.data + s.len || c - 1 <= s.data || c[-1] != ':') {
        return s;
    }
    q = c - 1;
    if (ra_addr_parse(ra_str(s.data, (size_t) (q - s.data)), &a) == RA_OK) {
        return ra_str(s.data, (size_t) (q - s.data));
    }
    return s;
}

int
ra_logrec_check(ra_logrec_t *rec)
{
    return ra_log_check(rec, NULL);
}

int
ra_log_check(ra_logrec_t *rec, ra_logmemo_t *m)
{
    ra_addr_t  a;
    ra_str_t   c = rec->addr;

    if (m != NULL && c.len == m->addr_len && c.len != 0
        && memcmp(c.data, m->addr, c.len) == 0)
    {
        /* the client of the line before, an address as logged */
        memcpy(rec->ip, m->ip, sizeof(rec->ip));
    } else if ((c.len > 2 && c.data[0] == '[')
               || ra_addr_parse(c, &a) != RA_OK)
    {
        /* "[2001:db8::1]", "[2001:db8::1]:443", "192.0.2.1:8080": a port
         * only when the address without it is one (a bare IPv6 address
         * ends in hex digits too) */
        c = ra_log_strip_port(c);
        if (ra_addr_parse(c, &a) != RA_OK) {
            rec->bad = "client";
            return RA_ERROR;
        }
        memcpy(rec->ip, a.b, sizeof(rec->ip));
    } else {
        memcpy(rec->ip, a.b, sizeof(rec->ip));
        if (m != NULL && c.len <= sizeof(m->addr)) {
            memcpy(m->addr, c.data, c.len);
            m->addr_len = (uint8_t) c.len;
            memcpy(m->ip, a.b, sizeof(m->ip));
        }
    }
    rec->addr = c;
    if (rec->time == INT64_MIN) {
        rec->bad = "time";
        return RA_ERROR;
    }
    if (rec->status < 100 || rec->status > 599) {
        rec->bad = "status";
        return RA_ERROR;
    }
    return RA_OK;
}

/* %XX decoded; or '+' as ' ' when plus (IIS writes a space as '+' and
 * keeps a '+': "; +http" becomes ";++http", read back as "; +http");
 * returns the length */
static size_t
ra_log_urldecode(ra_str_t in, unsigned char *out, int plus)
{
    size_t  i, n = 0;
    int     hi, lo, space = 0;

    for (i = 0; i < in.len; i++) {
        if (plus && in.data[i] == '+') {
            out[n++] = space ? '+' : ' ';
            space = !space;
            continue;
        }
        space = 0;
        if (!plus && in.data[i] == '%' && i + 2 < in.len
            && (hi = ra_hexval(in.data[i + 1])) >= 0
            && (lo = ra_hexval(in.data[i + 2])) >= 0)
        {
            out[n++] = (unsigned char) (hi << 4 | lo);
            i += 2;
        } else {
            out[n++] = in.data[i];
        }
    }
    return n;
}

void
ra_logrec_decode(const ra_logrec_t *rec, unsigned char *buf, ra_str_t *uri,
    ra_str_t *ua)
{
    unsigned char  *o = buf;
    size_t          n;

    *ua = rec->user_agent.data != NULL ? rec->user_agent : ra_str("", 0);
    *uri = rec->target;
    if (!rec->escaped && rec->query.data == NULL
        && rec->ua_enc == RA_LOG_ENC_NONE)
    {
        return;                         /* the common case: as logged */
    }
    /* every piece is no longer decoded than logged, and the target, the
     * query and the User-Agent are apart in the line: the line's length
     * is enough */
    n = rec->escaped ? ra_accesslog_unescape(rec->target, o)
                     : (memcpy(o, rec->target.data, rec->target.len),
                        rec->target.len);
    if (rec->query.data != NULL) {
        o[n++] = '?';
        memcpy(o + n, rec->query.data, rec->query.len);
        n += rec->query.len;
    }
    *uri = ra_str(o, n);
    o += n;
    if (rec->ua_enc != RA_LOG_ENC_NONE) {
        n = ra_log_urldecode(*ua, o, rec->ua_enc == RA_LOG_ENC_PLUS);
    } else if (rec->escaped) {
        n = ra_accesslog_unescape(*ua, o);
    } else {
        return;
    }
    *ua = ra_str(o, n);
}
