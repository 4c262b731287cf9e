/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nginx's realip for access logs (see ra_accesslog.h): trusted proxy
 * ranges, and the client of a line read from its X-Forwarded-For field
 * from the right, as real_ip_recursive does.
 */
#include <string.h>

#include "ra_accesslog.h"
#include "ra_verify.h"

int
ra_cidr_parse(ra_str_t s, ra_cidr_t *out)
{
    const unsigned char  *slash;
    ra_addr_t             a;
    unsigned              bits = 0, max;
    size_t                i, n;

    slash = memchr(s.data, '/', s.len);
    n = slash ? (size_t) (slash - s.data) : s.len;
    if (ra_addr_parse(ra_str(s.data, n), &a) != RA_OK) {
        return RA_ERROR;
    }
    max = ra_addr_is_v4(&a) ? 32 : 128;
    if (slash == NULL) {
        bits = max;
    } else {
        if (s.len - n < 2 || s.len - n > 4) {
            return RA_ERROR;
        }
        for (i = n + 1; i < s.len; i++) {
            if (!ra_isdigit(s.data[i])) {
                return RA_ERROR;
            }
            bits = bits * 10 + (unsigned) (s.data[i] - '0');
        }
        if (bits > max) {
            return RA_ERROR;
        }
    }
    memcpy(out->b, a.b, 16);
    out->bits = bits + (128 - max);
    return RA_OK;
}

int
ra_cidr_contains(const ra_cidr_t *c, const uint8_t addr[16])
{
    unsigned  whole = c->bits / 8, rest = c->bits % 8;

    if (memcmp(c->b, addr, whole) != 0) {
        return 0;
    }
    return rest == 0
           || ((c->b[whole] ^ addr[whole]) & (0xff00u >> rest) & 0xff) == 0;
}

static int
ra_realip_trusted(const ra_cidr_t *t, size_t n, ra_str_t s, int *trusted)
{
    ra_addr_t  a;
    size_t     i;

    if (ra_addr_parse(s, &a) != RA_OK) {
        return RA_ERROR;
    }
    *trusted = 0;
    for (i = 0; i < n; i++) {
        if (ra_cidr_contains(&t[i], a.b)) {
            *trusted = 1;
            break;
        }
    }
    return RA_OK;
}

ra_str_t
ra_realip(const ra_cidr_t *trusted, size_t n, ra_str_t addr, ra_str_t xff)
{
    const unsigned char  *b, *e, *s;
    ra_str_t              client = addr, item;
    int                   t;

    if (n == 0 || xff.data == NULL
        || ra_realip_trusted(trusted, n, addr, &t) != RA_OK || !t)
    {
        return addr;
    }
    /* from the right: each proxy appended the address it saw */
    e = xff.data + xff.len;
    while (e > xff.data) {
        for (s = e; s > xff.data && s[-1] != ','; s--) { }
        b = s;
        while (b < e && (*b == ' ' || *b == '\t')) {
            b++;
        }
        while (e > b && (e[-1] == ' ' || e[-1] == '\t')) {
            e--;
        }
        item = ra_str(b, (size_t) (e - b));
        if (ra_realip_trusted(trusted, n, item, &t) != RA_OK) {
            return client;
        }
        client = item;
        if (!t) {
            return client;
        }
        e = s > xff.data ? s - 1 : s;
    }
    return client;
}
