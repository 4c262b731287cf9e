/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Date formats checked for form: the W3C datetime profile of ISO 8601
 * and the RFC 822/850 dates.  Each check reads its input once, left to
 * right, and allocates nothing.
 */
#include "ra_datefmt.h"

typedef struct {
    const unsigned char  *p, *end;
} ra_dcur_t;

/* exactly n digits, their value in [lo, hi] */
static int
ra_d_num(ra_dcur_t *c, unsigned n, unsigned lo, unsigned hi)
{
    unsigned  v = 0, i;

    if ((size_t) (c->end - c->p) < n) {
        return 0;
    }
    for (i = 0; i < n; i++) {
        if (!ra_isdigit(c->p[i])) {
            return 0;
        }
        v = v * 10 + (unsigned) (c->p[i] - '0');
    }
    c->p += n;
    return v >= lo && v <= hi;
}

static int
ra_d_ch(ra_dcur_t *c, int ch)
{
    if (c->p < c->end && *c->p == ch) {
        c->p++;
        return 1;
    }
    return 0;
}

/* Z, or +hh:mm / -hh:mm */
static int
ra_d_tzd(ra_dcur_t *c)
{
    if (ra_d_ch(c, 'Z')) {
        return 1;
    }
    if (!ra_d_ch(c, '+') && !ra_d_ch(c, '-')) {
        return 0;
    }
    return ra_d_num(c, 2, 0, 23) && ra_d_ch(c, ':') && ra_d_num(c, 2, 0, 59);
}

int
ra_date_w3c(ra_str_t s)
{
    ra_dcur_t  c = { s.data, s.data + s.len };

    if (s.len == 0 || !ra_d_num(&c, 4, 0, 9999)) {
        return 0;
    }
    if (c.p == c.end) {
        return 1;
    }
    if (!ra_d_ch(&c, '-') || !ra_d_num(&c, 2, 1, 12)) {
        return 0;
    }
    if (c.p == c.end) {
        return 1;
    }
    if (!ra_d_ch(&c, '-') || !ra_d_num(&c, 2, 1, 31)) {
        return 0;
    }
    if (c.p == c.end) {
        return 1;
    }
    if (!ra_d_ch(&c, 'T') || !ra_d_num(&c, 2, 0, 23) || !ra_d_ch(&c, ':')
        || !ra_d_num(&c, 2, 0, 59))
    {
        return 0;
    }
    if (ra_d_ch(&c, ':')) {
        if (!ra_d_num(&c, 2, 0, 60)) {
            return 0;
        }
        if (ra_d_ch(&c, '.')) {
            if (c.p == c.end || !ra_isdigit(*c.p)) {
                return 0;
            }
            while (c.p < c.end && ra_isdigit(*c.p)) {
                c.p++;
            }
        }
    }
    return ra_d_tzd(&c) && c.p == c.end;
}

static void
ra_d_space(ra_dcur_t *c)
{
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t')) {
        c->p++;
    }
}

/* A run of letters among names (3-letter prefixes when short is set,
 * else the whole name); the index, or -1. */
static int
ra_d_name(ra_dcur_t *c, const char *const *names, unsigned n, int full)
{
    const unsigned char  *q = c->p;
    size_t                len, i;
    unsigned              k;

    while (q < c->end && ra_isalpha(*q)) {
        q++;
    }
    len = (size_t) (q - c->p);
    for (k = 0; k < n; k++) {
        size_t  nl = strlen(names[k]);

        if (full ? len < 3 || len > nl : len != 3) {
            continue;
        }
        for (i = 0; i < len; i++) {
            if (ra_lower(c->p[i]) != names[k][i]) {
                break;
            }
        }
        if (i == len && (len == 3 || len == nl)) {
            c->p = q;
            return (int) k;
        }
    }
    return -1;
}

int
ra_date_mail(ra_str_t s)
{
    static const char *const  days[] = {
        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
        "sunday"
    };
    static const char *const  months[] = {
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct",
        "nov", "dec"
    };
    ra_dcur_t  c = { s.data, s.data + s.len };
    int        dash;
    size_t     zl;

    ra_d_space(&c);
    if (c.p < c.end && ra_isalpha(*c.p)) {
        if (ra_d_name(&c, days, 7, 1) < 0 || !ra_d_ch(&c, ',')) {
            return 0;
        }
        ra_d_space(&c);
    }
    /* "05 Jun" or "5 Jun" */
    if (!ra_d_num(&c, 2, 1, 31) && !ra_d_num(&c, 1, 1, 9)) {
        return 0;
    }
    dash = ra_d_ch(&c, '-');
    if (!dash) {
        ra_d_space(&c);
    }
    if (ra_d_name(&c, months, 12, 0) < 0) {
        return 0;
    }
    if (dash ? !ra_d_ch(&c, '-') : (ra_d_space(&c), 0)) {
        return 0;
    }
    {
        const unsigned char  *y = c.p;

        while (c.p < c.end && ra_isdigit(*c.p)) {
            c.p++;
        }
        if (c.p - y != 2 && c.p - y != 4) {
            return 0;
        }
    }
    ra_d_space(&c);
    if (!ra_d_num(&c, 2, 0, 23) || !ra_d_ch(&c, ':')
        || !ra_d_num(&c, 2, 0, 59))
    {
        return 0;
    }
    if (ra_d_ch(&c, ':') && !ra_d_num(&c, 2, 0, 60)) {
        return 0;
    }
    ra_d_space(&c);
    if (ra_d_ch(&c, '+') || ra_d_ch(&c, '-')) {
        if (!ra_d_num(&c, 4, 0, 2359)) {
            return 0;
        }
    } else {
        for (zl = 0; c.p < c.end && ra_isalpha(*c.p); zl++) {
            c.p++;
        }
        if (zl == 0 || zl > 5) {
            return 0;
        }
    }
    ra_d_space(&c);
    return c.p == c.end;
}
