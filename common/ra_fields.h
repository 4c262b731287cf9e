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
 * ra_request_clear_rest() cleared; the fields of want are emptied. */
void ra_fields_start(ra_fields_t *f, ra_request_t *req, unsigned want,
    const ra_alloc_t *a);

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
/* the length and first byte of a name the core may read */
static inline int
ra_fields_maybe(size_t len, unsigned char c0)
{
    /* 7 Referer, 9 Signature, 10 User-Agent, 15 Signature-Input and
     * -Agent; then their first letters */
    if (len != 7 && len != 9 && len != 10 && len != 15) {
        return 0;
    }
    c0 |= 0x20;
    return c0 == 'r' || c0 == 's' || c0 == 'u';
}

static inline void
ra_fields_line(ra_fields_t *f, ra_str_t name, ra_str_t value)
{
    if (name.len != 0 && ra_fields_maybe(name.len, name.data[0])) {
        ra_fields_line_slow(f, name, value);
    }
}

/* The same for a server whose lines are C strings (httpd's tables): the
 * value is measured only for a field the core reads. */
static inline void
ra_fields_line_z(ra_fields_t *f, const char *name, const char *value)
{
    size_t  n = strlen(name);

    if (ra_fields_maybe(n, (unsigned char) name[0])) {
        ra_fields_line_slow(f, ra_str(name, n), ra_str(value, strlen(value)));
    }
}

/*
 * Ends the choice: the Web Bot Auth fields are kept only when Signature
 * and Signature-Input are both there (nothing is checked otherwise, and
 * Signature-Agent is not read).  Returns 1 when they are: the glue then
 * sets req->authority and req->scheme, which the signature may cover.
 */
int ra_fields_end(ra_fields_t *f);

#endif /* RA_FIELDS_H */
