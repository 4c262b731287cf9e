/* SPDX-License-Identifier: BSD-2-Clause */
/* Crawl-to-refer: the referrer table and matching (ra_refer.h). */
#include <string.h>

#include "ra_refer.h"

extern const unsigned char  ra_referrers_builtin_data[];
extern const size_t         ra_referrers_builtin_len;

/* a host-name byte of a pattern or a Referer */
#define ra_ishost(c)  (ra_isalpha(c) || ra_isdigit(c) || (c) == '-'        \
                       || (c) == '.' || (c) == '_')

/* The last min(n, 8) bytes of p, lower-cased, the last in the low byte */
static uint64_t
ra_refer_tail(const unsigned char *p, size_t n)
{
    size_t    i, k = n < 8 ? n : 8;
    uint64_t  t = 0;

    for (i = n - k; i < n; i++) {
        t = t << 8 | (unsigned char) ra_lower(p[i]);
    }
    return t;
}

static int
ra_refer_valid(ra_str_t p)
{
    size_t  i;

    if (p.len == 0 || p.len > RA_REFER_HOST_MAX || p.data[0] == '.') {
        return 0;
    }
    for (i = 0; i < p.len; i++) {
        if (p.data[i] == '*') {
            /* only as the last label: "google.*" */
            if (i + 1 != p.len || i < 2 || p.data[i - 1] != '.') {
                return 0;
            }
        } else if (!ra_ishost(p.data[i])
                   || (p.data[i] == '.' && i + 1 < p.len
                       && p.data[i + 1] == '.'))
        {
            return 0;
        }
    }
    return p.data[p.len - 1] != '.';
}

/* a utm_source value of the table: 1 to 64 bytes of [A-Za-z0-9._-] */
static int
ra_refer_utm_valid(ra_str_t v)
{
    size_t  i;

    if (v.len == 0 || v.len > 64) {
        return 0;
    }
    for (i = 0; i < v.len; i++) {
        if (!ra_ishost(v.data[i])) {
            return 0;
        }
    }
    return 1;
}

int
ra_refer_load(ra_refer_t *t, ra_str_t text, size_t *line, const char **msg)
{
    const unsigned char  *p = text.data, *end = text.data + text.len, *e;
    ra_str_t              key, val;
    ra_refer_op_t        *op = NULL;
    size_t                n = 0;

    memset(t, 0, sizeof(*t));
    *line = 0;
    *msg = NULL;
    while (p < end) {
        e = memchr(p, '\n', (size_t) (end - p));
        if (e == NULL) {
            e = end;
        }
        n++;
        key = ra_str(p, (size_t) (e - p));
        p = e < end ? e + 1 : end;
        while (key.len && ra_isspace(key.data[0])) {
            key.data++;
            key.len--;
        }
        while (key.len && ra_isspace(key.data[key.len - 1])) {
            key.len--;
        }
        if (key.len == 0 || key.data[0] == '#') {
            continue;
        }
        for (val.len = 0; val.len < key.len && !ra_isspace(key.data[val.len]);
             val.len++)
        {
            /* void */
        }
        val.data = key.data + val.len;
        val.len = key.len - val.len;
        key.len -= val.len;
        while (val.len && ra_isspace(val.data[0])) {
            val.data++;
            val.len--;
        }
        *line = n;
        if (key.len == 8 && memcmp(key.data, "operator", 8) == 0) {
            if (t->nops == RA_REFER_OPS) {
                *msg = "more than 24 operators";
                return RA_ERROR;
            }
            if (val.len == 0 || val.len > 64) {
                *msg = "operator: a name of 1 to 64 bytes";
                return RA_ERROR;
            }
            op = &t->ops[t->nops++];
            op->name = val;
        } else if (key.len == 4 && memcmp(key.data, "host", 4) == 0) {
            if (op == NULL) {
                *msg = "host before any operator";
                return RA_ERROR;
            }
            if (op->nhosts == RA_REFER_HOSTS) {
                *msg = "more than 16 hosts for one operator";
                return RA_ERROR;
            }
            if (!ra_refer_valid(val)) {
                *msg = "host: a host name, \"*\" only as its last label";
                return RA_ERROR;
            }
            op->tails[op->nhosts] = ra_refer_tail(val.data, val.len);
            op->hosts[op->nhosts++] = val;
            if (val.data[val.len - 1] == '*') {
                op->wild = 1;
            } else {
                op->lasts |= (uint64_t) 1
                             << (ra_lower(val.data[val.len - 1]) & 63);
            }
        } else if (key.len == 3 && memcmp(key.data, "utm", 3) == 0) {
            if (op == NULL) {
                *msg = "utm before any operator";
                return RA_ERROR;
            }
            if (op->nutms == RA_REFER_UTMS) {
                *msg = "more than 4 utm values for one operator";
                return RA_ERROR;
            }
            if (!ra_refer_utm_valid(val)) {
                *msg = "utm: 1 to 64 letters, digits, '.', '-' or '_'";
                return RA_ERROR;
            }
            op->utms[op->nutms++] = val;
        } else {
            *msg = "unknown key (operator, host, utm)";
            return RA_ERROR;
        }
    }
    *line = 0;
    return RA_OK;
}

int
ra_refer_builtin(ra_refer_t *t)
{
    size_t       line;
    const char  *msg;

    return ra_refer_load(t, ra_str(ra_referrers_builtin_data,
                                   ra_referrers_builtin_len), &line, &msg);
}

ra_str_t
ra_refer_host(ra_str_t r)
{
    size_t  i, s = 0, e, colon;
    int     bad;

    for (i = 0; i + 2 < r.len && i < 32; i++) {
        if (r.data[i] == ':' && r.data[i + 1] == '/' && r.data[i + 2] == '/') {
            s = i + 3;
            break;
        }
        if (!(ra_isalpha(r.data[i]) || ra_isdigit(r.data[i])
              || r.data[i] == '+' || r.data[i] == '-' || r.data[i] == '.'))
        {
            break;
        }
    }
    if (s == 0) {
        return ra_str(r.data, 0);
    }
    /* one pass: the authority ends at '/', '?', '#' or a backslash
     * (which a browser reads as '/': "https://evil.example" backslash
     * "@google.com/" goes to evil.example); the host follows the last
     * '@' ("user:pass@host") and ends at its first ':' (the port); every
     * byte of it a host name's, no label empty */
    colon = 0;
    bad = 0;
    for (e = s; e < r.len; e++) {
        unsigned char  c = r.data[e];

        if (ra_isalpha(c) || ra_isdigit(c)) {
            continue;
        }
        if (c == '/' || c == '?' || c == '#' || c == '\\') {
            break;
        }
        if (c == '@') {
            s = e + 1;
            colon = 0;
            bad = 0;
        } else if (colon == 0) {
            if (c == ':') {
                colon = e;
            } else {
                bad |= !ra_ishost(c)
                       || (c == '.' && (e == s || r.data[e - 1] == '.'));
            }
        }
    }
    if (colon) {
        e = colon;
    }
    if (e > s && r.data[e - 1] == '.') {
        e--;                            /* "www.google.com." */
    }
    if (bad || e == s || e - s > RA_REFER_HOST_MAX) {
        return ra_str(r.data, 0);
    }
    return ra_str(r.data + s, e - s);
}

/* Is t a top-level domain as "NAME.*" means it: one label ("de",
 * "com"), or "co." or "com." and a country's two letters ("co.uk",
 * "com.au": how Google, Yandex and Yahoo name their country sites)?
 * Not any short label before a name: google.foo.com is a host of
 * foo.com, which anyone may own. */
static int
ra_refer_tld(ra_str_t t)
{
    const unsigned char  *dot;
    size_t                i;

    if (t.len == 0) {
        return 0;
    }
    for (i = 0; i < t.len; i++) {
        if (!(ra_isalpha(t.data[i]) || ra_isdigit(t.data[i])
              || t.data[i] == '.' || t.data[i] == '-'))
        {
            return 0;
        }
    }
    dot = memchr(t.data, '.', t.len);
    if (dot == NULL) {
        return 1;
    }
    i = (size_t) (dot - t.data);
    return (ra_strcaseeq(ra_str(t.data, i), ra_str("co", 2))
            || ra_strcaseeq(ra_str(t.data, i), ra_str("com", 3)))
           && t.len - i - 1 == 2
           && ra_isalpha(dot[1]) && ra_isalpha(dot[2]);
}

/* "NAME.*": NAME as a whole label of host, followed by a top-level
 * domain (ra_refer_tld()) */
static int
ra_refer_wild(ra_str_t pat, ra_str_t host)
{
    size_t                i, n = pat.len - 2;      /* "google" of "google.*" */
    const unsigned char  *dot;

    /* at the start of each label */
    for (i = 0; i + n + 1 < host.len; i = (size_t) (dot - host.data) + 1) {
        if (host.data[i + n] == '.'
            && ra_strcaseeq(ra_str(host.data + i, n), ra_str(pat.data, n))
            && ra_refer_tld(ra_str(host.data + i + n + 1,
                                   host.len - i - n - 1)))
        {
            return 1;
        }
        dot = memchr(host.data + i, '.', host.len - i);
        if (dot == NULL) {
            break;
        }
    }
    return 0;
}

int
ra_refer_match(const ra_refer_t *t, ra_str_t referer)
{
    ra_str_t              host = ra_refer_host(referer), pat;
    unsigned              i, k;
    uint64_t              tail, mask, last;
    const ra_refer_op_t  *op;

    if (host.len == 0) {
        return -1;
    }
    tail = ra_refer_tail(host.data, host.len);
    last = (uint64_t) 1 << (tail & 63);
    for (i = 0; i < t->nops; i++) {
        op = &t->ops[i];
        if (!op->wild && !(op->lasts & last)) {
            continue;                   /* no pattern ends as host does */
        }
        for (k = 0; k < op->nhosts; k++) {
            pat = op->hosts[k];
            if (pat.len >= 2 && pat.data[pat.len - 1] == '*') {
                if (ra_refer_wild(pat, host)) {
                    return (int) i;
                }
                continue;
            }
            /* a suffix of host at a label's start: its last bytes first */
            mask = pat.len >= 8 ? ~(uint64_t) 0
                                : ((uint64_t) 1 << (8 * pat.len)) - 1;
            if (host.len < pat.len || (tail & mask) != op->tails[k]
                || (host.len > pat.len
                    && host.data[host.len - pat.len - 1] != '.'))
            {
                continue;
            }
            if (pat.len <= 8
                || ra_strcaseeq(ra_str(host.data + host.len - pat.len,
                                       pat.len), pat))
            {
                return (int) i;
            }
        }
    }
    return -1;
}

int
ra_refer_match_target(const ra_refer_t *t, ra_str_t target)
{
    static const char     name[] = "utm_source";
    const size_t          n = sizeof(name) - 1;
    const unsigned char  *q, *end, *v, *e;
    ra_str_t              value;
    unsigned              i, k;

    if (target.len == 0) {
        return -1;
    }
    /* the query: from the first '?' (most targets have none: one memchr)
     * to a '#'; none after a '#' */
    q = memchr(target.data, '?', target.len);
    if (q == NULL || memchr(target.data, '#', (size_t) (q - target.data))) {
        return -1;
    }
    end = memchr(q, '#', (size_t) (target.data + target.len - q));
    if (end == NULL) {
        end = target.data + target.len;
    }
    /* each parameter of the query, from after its '?' or '&' */
    for (q++; ; q = e + 1) {
        e = memchr(q, '&', (size_t) (end - q));
        if (e == NULL) {
            e = end;
        }
        /* "utm_source", "utm_source=" or "utm_source=VALUE": the first
         * is the visit's, whatever its value (most parameters differ in
         * their first byte: no call for them) */
        if ((size_t) (e - q) >= n && (q[0] | 0x20) == 'u'
            && ra_strcaseeq(ra_str(q, n), ra_str(name, n))
            && (q + n == e || q[n] == '='))
        {
            v = q + n < e ? q + n + 1 : e;
            value = ra_str(v, (size_t) (e - v));  /* none in the table is
                                                     empty */
            for (i = 0; i < t->nops; i++) {
                for (k = 0; k < t->ops[i].nutms; k++) {
                    if (ra_strcaseeq(t->ops[i].utms[k], value)) {
                        return (int) i;
                    }
                }
            }
            return -1;
        }
        if (e == end) {
            return -1;
        }
    }
}

/* h less a leading "www." (any case) */
static ra_str_t
ra_refer_no_www(ra_str_t h)
{
    if (h.len > 4 && ra_strcaseeq(ra_str(h.data, 4), ra_str("www.", 4))) {
        return ra_str(h.data + 4, h.len - 4);
    }
    return h;
}

int
ra_refer_same_site(ra_str_t referer, ra_str_t site)
{
    ra_str_t              h = ra_refer_host(referer);
    const unsigned char  *colon;

    if (h.len == 0 || site.len == 0) {
        return 0;
    }
    colon = memchr(site.data, ':', site.len);
    if (colon != NULL) {
        site.len = (size_t) (colon - site.data);
    }
    if (site.len && site.data[site.len - 1] == '.') {
        site.len--;
    }
    return ra_strcaseeq(ra_refer_no_www(h), ra_refer_no_www(site));
}

int
ra_refer_visit(int status)
{
    switch (status) {
    case 206:
    case 301: case 302: case 303: case 307: case 308:
        return 0;
    default:
        return 1;
    }
}

int
ra_refer_operator(const ra_refer_t *t, ra_str_t name)
{
    unsigned  i;

    for (i = 0; i < t->nops; i++) {
        if (ra_strcaseeq(t->ops[i].name, name)) {
            return (int) i;
        }
    }
    return -1;
}
