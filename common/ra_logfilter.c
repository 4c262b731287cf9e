/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The filters of a report over access logs (see ra_logfilter.h): their
 * options read into plain tables, and the decision for each line, which
 * compares a few numbers unless --crawler or --exclude-client asks for
 * the line's identity or address.
 */
#include <string.h>

#include "ra_logfilter.h"
#include "ra_verify.h"

void
ra_logfilter_init(ra_logfilter_t *f)
{
    memset(f, 0, sizeof(*f));
    f->since = INT64_MIN;
    f->until = INT64_MAX;
}

/* n digits at p as a number, or -1 */
static int
ra_lf_digits(const unsigned char *p, const unsigned char *end, unsigned n)
{
    int  v = 0;

    if ((size_t) (end - p) < n) {
        return -1;
    }
    while (n--) {
        if (!ra_isdigit(*p)) {
            return -1;
        }
        v = v * 10 + (*p++ - '0');
    }
    return v;
}

/* "24h", "7d": now less that much */
static int
ra_lf_relative(ra_str_t s, int64_t now, int64_t *out)
{
    int64_t  n = 0, unit;
    size_t   i;

    if (s.len < 2) {
        return RA_ERROR;
    }
    for (i = 0; i + 1 < s.len; i++) {
        if (!ra_isdigit(s.data[i]) || n > 1000000000) {
            return RA_ERROR;
        }
        n = n * 10 + (s.data[i] - '0');
    }
    switch (ra_lower(s.data[s.len - 1])) {
    case 's': unit = 1000; break;
    case 'm': unit = 60 * 1000; break;
    case 'h': unit = 3600 * 1000; break;
    case 'd': unit = 86400 * 1000; break;
    case 'w': unit = 7 * 86400 * 1000; break;
    default: return RA_ERROR;
    }
    *out = now - n * unit;
    return RA_OK;
}

/* "Z", "+02:00", "+0200", "+02", or nothing (UTC): seconds east */
static int
ra_lf_zone(const unsigned char *p, const unsigned char *end, int64_t *east)
{
    int  sign, h, m = 0;

    *east = 0;
    if (p == end) {
        return RA_OK;
    }
    if ((*p == 'Z' || *p == 'z') && p + 1 == end) {
        return RA_OK;
    }
    if (*p != '+' && *p != '-') {
        return RA_ERROR;
    }
    sign = *p++ == '-' ? -1 : 1;
    h = ra_lf_digits(p, end, 2);
    p += 2;
    if (p < end && *p == ':') {
        p++;
    }
    if (p < end) {
        m = ra_lf_digits(p, end, 2);
        p += 2;
    }
    if (h < 0 || h > 23 || m < 0 || m > 59 || p != end) {
        return RA_ERROR;
    }
    *east = sign * (h * 3600 + m * 60);
    return RA_OK;
}

int
ra_logfilter_time(ra_str_t s, int64_t now, int64_t *out)
{
    const unsigned char  *p = s.data, *end = s.data + s.len;
    int                   y, mo, d, hh = 0, mm = 0, ss = 0;
    int64_t               ms = 0, scale = 100, east;

    if (s.len < 10 || s.data[4] != '-') {
        return ra_lf_relative(s, now, out);
    }
    y = ra_lf_digits(p, end, 4);
    mo = ra_lf_digits(p + 5, end, 2);
    d = ra_lf_digits(p + 8, end, 2);
    if (y < 0 || p[7] != '-' || mo < 1 || mo > 12 || d < 1 || d > 31) {
        return RA_ERROR;
    }
    p += 10;
    if (p < end && (*p == 'T' || *p == 't' || *p == ' ')) {
        hh = ra_lf_digits(p + 1, end, 2);
        mm = ra_lf_digits(p + 4, end, 2);
        if (hh < 0 || hh > 23 || p + 3 >= end || p[3] != ':' || mm < 0
            || mm > 59)
        {
            return RA_ERROR;
        }
        p += 6;
        if (p < end && *p == ':') {
            ss = ra_lf_digits(p + 1, end, 2);
            if (ss < 0 || ss > 60) {
                return RA_ERROR;
            }
            p += 3;
            if (p < end && (*p == '.' || *p == ',')) {
                for (p++; p < end && ra_isdigit(*p); p++) {
                    ms += (*p - '0') * scale;
                    scale /= 10;
                }
            }
        }
    }
    if (ra_lf_zone(p, end, &east) != RA_OK) {
        return RA_ERROR;
    }
    *out = (ra_days_from_civil(y, (unsigned) mo, (unsigned) d) * 86400
            + hh * 3600 + mm * 60 + ss - east) * 1000 + ms;
    return RA_OK;
}

/* "404", or "5xx" for 500-599 */
static int
ra_lf_status(ra_str_t s, uint16_t *lo, uint16_t *hi)
{
    int  v;

    if (s.len != 3 || s.data[0] < '1' || s.data[0] > '5') {
        return RA_ERROR;
    }
    if (ra_lower(s.data[1]) == 'x' && ra_lower(s.data[2]) == 'x') {
        *lo = (uint16_t) ((s.data[0] - '0') * 100);
        *hi = (uint16_t) (*lo + 99);
        return RA_OK;
    }
    v = ra_lf_digits(s.data, s.data + 3, 3);
    if (v < 100 || v > 599) {
        return RA_ERROR;
    }
    *lo = *hi = (uint16_t) v;
    return RA_OK;
}

const char *
ra_logfilter_opt(ra_logfilter_t *f, ra_logfilter_opt_e opt, ra_str_t arg,
    int64_t now)
{
    unsigned  n;

    switch (opt) {
    case RA_LOGFILTER_SINCE:
    case RA_LOGFILTER_UNTIL:
        if (ra_logfilter_time(arg, now, opt == RA_LOGFILTER_SINCE
                                        ? &f->since : &f->until) != RA_OK)
        {
            return "is not a time: ISO 8601 (2026-11-28, 2026-11-28T10:00, "
                   "2026-11-28T10:00:00+01:00; UTC without an offset) or "
                   "relative to now (30m, 24h, 7d)";
        }
        return NULL;
    case RA_LOGFILTER_CRAWLER:
        n = f->ncrawlers;
        if (arg.len == 0) {
            return "is not a crawler name";
        }
        break;
    case RA_LOGFILTER_STATUS:
        n = f->nstatus;
        if (n < RA_LOGFILTER_MAX
            && ra_lf_status(arg, &f->status_lo[n], &f->status_hi[n])
               != RA_OK)
        {
            return "is not a status: a code 100-599 (404) or a class (5xx)";
        }
        break;
    case RA_LOGFILTER_EXCLUDE_CLIENT:
        n = f->nexclude;
        if (n < RA_LOGFILTER_MAX
            && ra_cidr_parse(arg, &f->exclude[n]) != RA_OK)
        {
            return "is not an address or CIDR range (192.0.2.0/24, "
                   "2001:db8::/32, 192.0.2.1)";
        }
        break;
    default:
        n = f->nsites;
        if (arg.len == 0) {
            return "is not a host name";
        }
        break;
    }
    if (n >= RA_LOGFILTER_MAX) {
        return "is one too many (64 of each at most)";
    }
    switch (opt) {
    case RA_LOGFILTER_CRAWLER:
        f->crawlers[f->ncrawlers++] = arg;
        break;
    case RA_LOGFILTER_STATUS:
        f->nstatus++;
        break;
    case RA_LOGFILTER_EXCLUDE_CLIENT:
        f->nexclude++;
        break;
    default:
        f->sites[f->nsites++] = arg;
        break;
    }
    return NULL;
}

int
ra_logfilter_active(const ra_logfilter_t *f)
{
    return f->since != INT64_MIN || f->until != INT64_MAX || f->ncrawlers
           || f->nstatus || f->nexclude || f->nsites;
}

int
ra_logfilter_wants_identity(const ra_logfilter_t *f)
{
    return f->ncrawlers != 0;
}

int
ra_logfilter_site(const ra_logfilter_t *f, ra_str_t site)
{
    unsigned  i;

    for (i = 0; i < f->nsites; i++) {
        if (ra_strcaseeq(site, f->sites[i])) {
            return 1;
        }
    }
    return f->nsites == 0;
}

static int
ra_lf_is_generic(ra_str_t name)
{
    return ra_strcaseeq(name, ra_str("generic", 7));
}

static int
ra_lf_is_impostor(ra_str_t name)
{
    return ra_strcaseeq(name, ra_str("impostor", 8));
}

int
ra_logfilter_wants_verification(const ra_logfilter_t *f)
{
    unsigned  i;

    for (i = 0; i < f->ncrawlers; i++) {
        if (ra_lf_is_impostor(f->crawlers[i])) {
            return 1;
        }
    }
    return 0;
}

int
ra_logfilter_crawler_unknown(const ra_logfilter_t *f, unsigned i,
    const ra_crawlers_t *t)
{
    return !ra_lf_is_generic(f->crawlers[i])
           && !ra_lf_is_impostor(f->crawlers[i])
           && ra_crawlers_find(t, f->crawlers[i]) == NULL
           && ra_crawlers_find_token(t, f->crawlers[i]) == NULL;
}

/* Does --crawler name the crawler (or generic bot) of the line? */
static int
ra_lf_crawler(const ra_logfilter_t *f, const ra_logfilter_line_t *line)
{
    const ra_identity_t  *id = line->id;
    const ra_crawler_t  *c;
    unsigned             i;
    size_t               k;

    if (id == NULL || id->kind == RA_UA_BROWSER) {
        return 0;
    }
    c = id->kind == RA_UA_KNOWN ? id->crawler : NULL;
    for (i = 0; i < f->ncrawlers; i++) {
        if (c != NULL && line->impostor
            && ra_lf_is_impostor(f->crawlers[i]))
        {
            return 1;
        }
        if (c == NULL) {
            if (ra_lf_is_generic(f->crawlers[i])
                || (id->token.len && ra_strcaseeq(id->token,
                                                   f->crawlers[i])))
            {
                return 1;
            }
            continue;
        }
        if (ra_strcaseeq(c->name, f->crawlers[i])) {
            return 1;
        }
        for (k = 0; k < c->ntokens; k++) {
            if (ra_strcaseeq(c->tokens[k], f->crawlers[i])) {
                return 1;
            }
        }
    }
    return 0;
}

ra_logfilter_e
ra_logfilter_decide(const ra_logfilter_t *f, const ra_logfilter_line_t *line)
{
    ra_addr_t  a;
    unsigned   i;

    if (line->time >= f->until || !ra_logfilter_site(f, line->site)) {
        return RA_LOGFILTER_DROP;
    }
    if (line->time < f->since) {
        return RA_LOGFILTER_KNOW;
    }
    if (f->nstatus) {
        for (i = 0; i < f->nstatus; i++) {
            if (line->status >= f->status_lo[i]
                && line->status <= f->status_hi[i])
            {
                break;
            }
        }
        if (i == f->nstatus) {
            return RA_LOGFILTER_KNOW;
        }
    }
    if (f->nexclude && ra_addr_parse(line->client, &a) == RA_OK) {
        for (i = 0; i < f->nexclude; i++) {
            if (ra_cidr_contains(&f->exclude[i], a.b)) {
                return RA_LOGFILTER_KNOW;
            }
        }
    }
    if (f->ncrawlers && !ra_lf_crawler(f, line)) {
        return RA_LOGFILTER_KNOW;
    }
    return RA_LOGFILTER_KEEP;
}
