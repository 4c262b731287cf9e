/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Origins (ra_origin.h): reading the scheme, host and port of the URL a
 * signing agent is known by.  This is the one place that decides it, so
 * that the signature check, the crawler table's loader and the CLI that
 * fetches key directories agree on every origin.
 */
#include "ra_origin.h"

int
ra_origin_host_ok(ra_str_t host)
{
    size_t  i;

    if (host.len == 0 || host.len > RA_ORIGIN_MAX_HOST) {
        return 0;
    }
    for (i = 0; i < host.len; i++) {
        if (!(ra_isalpha(host.data[i]) || ra_isdigit(host.data[i])
              || host.data[i] == '-' || host.data[i] == '.'))
        {
            return 0;
        }
    }
    return 1;
}

int
ra_origin_parse(ra_str_t s, ra_origin_t *o)
{
    const unsigned char  *p, *end = s.data + s.len;

    if (ra_startswith_ci(s, "https://")) {
        o->https = 1;
        p = s.data + 8;
    } else if (ra_startswith_ci(s, "http://")) {
        o->https = 0;
        p = s.data + 7;
    } else {
        return RA_ERROR;
    }
    o->host.data = p;
    while (p < end && *p != ':' && *p != '/' && *p != '?' && *p != '#') {
        p++;
    }
    o->host.len = (size_t) (p - o->host.data);
    o->port = ra_str(p, 0);
    if (p < end && *p == ':') {        /* a port: digits only */
        o->port.data = ++p;
        while (p < end && ra_isdigit(*p)) {
            p++;
        }
        o->port.len = (size_t) (p - o->port.data);
    }
    o->rest = ra_str(p, (size_t) (end - p));
    if ((p < end && *p != '/' && *p != '?' && *p != '#')
        || !ra_origin_host_ok(o->host))
    {
        return RA_ERROR;
    }
    return RA_OK;
}

int
ra_origin_host(ra_str_t s, ra_str_t *host)
{
    ra_origin_t  o;

    if (ra_origin_parse(s, &o) != RA_OK || !o.https) {
        return RA_ERROR;
    }
    *host = o.host;
    return RA_OK;
}
