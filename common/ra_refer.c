/* SPDX-License-Identifier: BSD-2-Clause */
/* Crawl-to-refer: the referrer table and matching (ra_refer.h). */
#include <string.h>

#include "ra_refer.h"

extern const unsigned char  ra_referrers_builtin_data[];
extern const size_t         ra_referrers_builtin_len;

/* a host-name byte of a pattern or a Referer */
#define ra_ishost(c)  (ra_isalpha(c) || ra_isdigit(c) || (c) == '-'        \
                       || (c) == '.' || (c) == '_')

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
            op->hosts[op->nhosts++] = val;
        } else {
            *msg = "unknown key (operator, host)";
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
    size_t  i, s = 0, e;

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
    for (e = s; e < r.len && r.data[e] != '/' && r.data[e] != '?'
                && r.data[e] != '#'; e++)
    {
        if (r.data[e] == '@') {
            s = e + 1;                  /* "user:pass@host" */
        }
    }
    for (i = s; i < e && r.data[i] != ':'; i++) { /* void */ }
    e = i;
    if (e > s && r.data[e - 1] == '.') {
        e--;                            /* "www.google.com." */
    }
    if (e == s || e - s > RA_REFER_HOST_MAX) {
        return ra_str(r.data, 0);
    }
    for (i = s; i < e; i++) {
        if (!ra_ishost(r.data[i])) {
            return ra_str(r.data, 0);
        }
    }
    return ra_str(r.data + s, e - s);
}

/* Is t a top-level domain as "NAME.*" means it: one label, or two when
 * the first has at most three bytes ("co.uk", "com.au")? */
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
    return i > 0 && i <= 3 && i + 1 < t.len
           && memchr(dot + 1, '.', t.len - i - 1) == NULL;
}

static int
ra_refer_pattern(ra_str_t pat, ra_str_t host)
{
    size_t  i, n;

    if (pat.len >= 2 && pat.data[pat.len - 1] == '*') {
        n = pat.len - 2;                /* "google" of "google.*" */
        for (i = 0; i + n + 1 < host.len; i++) {
            if ((i == 0 || host.data[i - 1] == '.')
                && host.data[i + n] == '.'
                && ra_strcaseeq(ra_str(host.data + i, n),
                                ra_str(pat.data, n))
                && ra_refer_tld(ra_str(host.data + i + n + 1,
                                       host.len - i - n - 1)))
            {
                return 1;
            }
        }
        return 0;
    }
    if (host.len < pat.len) {
        return 0;
    }
    i = host.len - pat.len;
    return (i == 0 || host.data[i - 1] == '.')
           && ra_strcaseeq(ra_str(host.data + i, pat.len), pat);
}

int
ra_refer_match(const ra_refer_t *t, ra_str_t referer)
{
    ra_str_t  host = ra_refer_host(referer);
    unsigned  i, k;

    if (host.len == 0) {
        return -1;
    }
    for (i = 0; i < t->nops; i++) {
        for (k = 0; k < t->ops[i].nhosts; k++) {
            if (ra_refer_pattern(t->ops[i].hosts[k], host)) {
                return (int) i;
            }
        }
    }
    return -1;
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
