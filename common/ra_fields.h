/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The request header fields the core reads, chosen from the lines a
 * server received: which names count (User-Agent, Referer and Web Bot
 * Auth's Signature, Signature-Input and Signature-Agent) and how a name
 * that came on several lines reads.  A server's glue only walks its own
 * list of header lines and hands each one to ra_fields_line(); both
 * servers then give the core the same fields for the same request.
 */
#ifndef RA_FIELDS_H
#define RA_FIELDS_H

#include <string.h>

#include "ra_audit.h"

/* The fields, as ra_request_field() numbers them; RA_FIELD_SIG is the
 * three Web Bot Auth ones, RA_FIELD_ALL all five. */
typedef enum {
    RA_FIELD_USER_AGENT = 0,
    RA_FIELD_REFERER = 1,
    RA_FIELD_SIGNATURE = 2,
    RA_FIELD_SIGNATURE_INPUT = 3,
    RA_FIELD_SIGNATURE_AGENT = 4,
    RA_FIELD_NONE = 5
} ra_field_e;

#define RA_FIELD_SIG  ((1u << RA_FIELD_SIGNATURE)                            \
                       | (1u << RA_FIELD_SIGNATURE_INPUT)                    \
                       | (1u << RA_FIELD_SIGNATURE_AGENT))
#define RA_FIELD_ALL  (RA_FIELD_SIG | (1u << RA_FIELD_USER_AGENT)             \
                       | (1u << RA_FIELD_REFERER))

/* Which field a header name is (any case), or RA_FIELD_NONE. */
ra_field_e ra_request_field(ra_str_t name);

typedef struct {
    ra_request_t      *req;
    const ra_alloc_t  *alloc;       /* a joined field's copy (the
                                       request's pool) */
    unsigned           want;        /* 1 << ra_field_e, for each field
                                       wanted */
    unsigned           seen;        /* likewise, each one met */
    unsigned           joined;      /* likewise, each one copied to join
                                       its lines */
} ra_fields_t;

/* Starts choosing the fields of want (RA_FIELD_ALL, RA_FIELD_SIG: a
 * server that parsed User-Agent and Referer itself) into req, which
 * ra_request_clear_rest() cleared; User-Agent and Referer, when wanted,
 * read "" until a line gives them.  Inline, as the whole choice is: it
 * runs for every request. */
static inline void
ra_fields_start(ra_fields_t *f, ra_request_t *req, unsigned want,
    const ra_alloc_t *a)
{
    f->req = req;
    f->alloc = a;
    f->want = want & RA_FIELD_ALL;
    f->seen = 0;
    f->joined = 0;
    if (f->want & (1u << RA_FIELD_USER_AGENT)) {
        req->user_agent = ra_str("", 0);
    }
    if (f->want & (1u << RA_FIELD_REFERER)) {
        req->referer = ra_str("", 0);
    }
}

void ra_fields_line_slow(ra_fields_t *f, ra_str_t name, ra_str_t value);

/*
 * One header line, in the order received.  User-Agent and Referer are
 * their first line (the line a server's own parser keeps: httpd's
 * apr_table_get(), nginx's headers_in).  The lines of one Web Bot Auth
 * field are one list (RFC 9110 5.3), joined with ", " (as httpd joins
 * them before the glue sees them) up to RA_SIG_MAX_FIELD bytes, what the
 * core reads; without the memory to join, the first line alone.
 *
 * Inline: most lines of a request are none of these, and are told apart
 * by their length and first byte without a call.
 */
/* the length and first byte of a name the core may read, of the fields
 * wanted: a server that parsed User-Agent and Referer itself calls for
 * neither (most requests carry both, and no Web Bot Auth field) */
static inline int
ra_fields_maybe(unsigned want, size_t len, unsigned char c0)
{
    c0 |= 0x20;
    switch (len) {
    case 7:
        return (want & (1u << RA_FIELD_REFERER)) && c0 == 'r';
    case 9:
    case 15:
        return (want & RA_FIELD_SIG) && c0 == 's';
    case 10:
        return (want & (1u << RA_FIELD_USER_AGENT)) && c0 == 'u';
    default:
        return 0;
    }
}

static inline void
ra_fields_line(ra_fields_t *f, ra_str_t name, ra_str_t value)
{
    if (name.len != 0 && ra_fields_maybe(f->want, name.len, name.data[0])) {
        ra_fields_line_slow(f, name, value);
    }
}

/* The same for a server whose lines are C strings (httpd's tables): a
 * name is measured only when its first two letters are a field's (us,
 * re, si: a browser's Sec-Fetch-* and Upgrade-Insecure-Requests are not),
 * and the value only for a field the core reads. */
static inline void
ra_fields_line_z(ra_fields_t *f, const char *name, const char *value)
{
    unsigned char  c0 = (unsigned char) name[0] | 0x20, c1;
    size_t         n;

    if (c0 != 'u' && c0 != 'r' && c0 != 's') {
        return;
    }
    /* name[0] is a letter: name[1] is there, its NUL at least */
    c1 = (unsigned char) name[1] | 0x20;
    if (!((c0 == 'u' && c1 == 's') || (c0 == 'r' && c1 == 'e')
          || (c0 == 's' && c1 == 'i')))
    {
        return;
    }
    n = strlen(name);
    if (ra_fields_maybe(f->want, n, c0)) {
        ra_fields_line_slow(f, ra_str(name, n), ra_str(value, strlen(value)));
    }
}

/*
 * Ends the choice: the Web Bot Auth fields are kept only when Signature
 * and Signature-Input are both there (nothing is checked otherwise, and
 * Signature-Agent is not read).  Returns 1 when they are: the glue then
 * sets req->authority and req->scheme, which the signature may cover.
 */
static inline int
ra_fields_end(ra_fields_t *f)
{
    ra_request_t  *req = f->req;

    if (req->signature.len != 0 && req->signature_input.len != 0) {
        return 1;
    }
    req->signature = ra_str(NULL, 0);
    req->signature_input = ra_str(NULL, 0);
    req->signature_agent = ra_str(NULL, 0);
    return 0;
}

/*
 * What a signature may cover besides the fields, once ra_fields_end()
 * kept them, the same in every server: req->authority is the target's
 * own when the target is in absolute form ("http://host:port/x", from
 * its scheme on; RFC 9112 3.2.2: it names the resource, whatever Host
 * says), else host; req->scheme is "https" when the connection is TLS,
 * else unknown (a TLS proxy in front may have taken it off: @scheme is
 * then left unchecked).
 */
void ra_request_origin(ra_request_t *req, ra_str_t target, ra_str_t host,
    int tls);

#endif /* RA_FIELDS_H */
