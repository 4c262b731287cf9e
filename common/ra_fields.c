/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The request header fields the core reads (ra_fields.h): which header
 * names count, and how the lines of a repeated one join, so that every
 * server's glue hands the core the same fields for the same request.
 */
#include <string.h>

#include "ra_fields.h"
#include "ra_sig.h"

/*
 * ASCII case-insensitive equality of a name with a lower-case word of
 * letters and '-', 8 bytes a step: OR-ing 0x20 lowers a capital and
 * leaves the word's bytes as they are.  Of the other bytes only CR would
 * then pass for '-', and no server hands the core a name with a CR in it
 * (field names are tokens, RFC 9110 5.1, and both servers' parsers
 * refuse a request whose names are not).
 */
static int
ra_fields_is(ra_str_t name, const char *word, size_t n)
{
    uint64_t  a, b;
    size_t    i = 0;

    if (name.len != n) {
        return 0;
    }
    for (; i + 8 <= n; i += 8) {
        memcpy(&a, name.data + i, 8);
        memcpy(&b, word + i, 8);
        if ((a | 0x2020202020202020ull) != b) {
            return 0;
        }
    }
    for (; i < n; i++) {
        if ((name.data[i] | 0x20) != (unsigned char) word[i]) {
            return 0;
        }
    }
    return 1;
}

ra_field_e
ra_request_field(ra_str_t name)
{
    switch (name.len) {
    case 7:
        return ra_fields_is(name, "referer", 7) ? RA_FIELD_REFERER
                                                : RA_FIELD_NONE;
    case 9:
        return ra_fields_is(name, "signature", 9) ? RA_FIELD_SIGNATURE
                                                  : RA_FIELD_NONE;
    case 10:
        return ra_fields_is(name, "user-agent", 10) ? RA_FIELD_USER_AGENT
                                                    : RA_FIELD_NONE;
    case 15:
        return ra_fields_is(name, "signature-input", 15)
               ? RA_FIELD_SIGNATURE_INPUT
               : ra_fields_is(name, "signature-agent", 15)
               ? RA_FIELD_SIGNATURE_AGENT : RA_FIELD_NONE;
    default:
        return RA_FIELD_NONE;
    }
}

static ra_str_t *
ra_fields_slot(ra_request_t *req, ra_field_e k)
{
    switch (k) {
    case RA_FIELD_USER_AGENT:
        return &req->user_agent;
    case RA_FIELD_REFERER:
        return &req->referer;
    case RA_FIELD_SIGNATURE:
        return &req->signature;
    case RA_FIELD_SIGNATURE_INPUT:
        return &req->signature_input;
    case RA_FIELD_SIGNATURE_AGENT:
        return &req->signature_agent;
    default:
        return NULL;
    }
}

/* Appends n bytes of p to a joined field, up to what the core reads. */
static void
ra_fields_append(ra_str_t *s, const void *p, size_t n)
{
    if (n > RA_SIG_MAX_FIELD - s->len) {
        n = RA_SIG_MAX_FIELD - s->len;
    }
    memcpy((unsigned char *) s->data + s->len, p, n);
    s->len += n;
}

void
ra_fields_line_slow(ra_fields_t *f, ra_str_t name, ra_str_t value)
{
    unsigned char  *p;
    ra_str_t       *s;
    ra_field_e      k = ra_request_field(name);
    unsigned        bit = 1u << k;

    if (k == RA_FIELD_NONE || !(f->want & bit)) {
        return;
    }
    s = ra_fields_slot(f->req, k);
    if (!(f->seen & bit)) {
        f->seen |= bit;
        *s = value;
        return;
    }
    /* User-Agent and Referer are their first line */
    if (k == RA_FIELD_USER_AGENT || k == RA_FIELD_REFERER) {
        return;
    }
    if (!(f->joined & bit)) {
        /* a second line: the first one copied where the rest join it
         * (rare: memory from the request's pool only then) */
        p = f->alloc != NULL ? ra_alloc(f->alloc, RA_SIG_MAX_FIELD) : NULL;
        if (p == NULL) {
            f->want &= ~bit;            /* the first line only */
            return;
        }
        f->joined |= bit;
        memcpy(p, s->data, s->len < RA_SIG_MAX_FIELD ? s->len
                                                     : RA_SIG_MAX_FIELD);
        s->len = s->len < RA_SIG_MAX_FIELD ? s->len : RA_SIG_MAX_FIELD;
        s->data = p;
    }
    /* an empty line before adds no separator */
    if (s->len != 0) {
        ra_fields_append(s, ", ", 2);
    }
    ra_fields_append(s, value.data, value.len);
}

void
ra_request_origin(ra_request_t *req, ra_str_t target, ra_str_t host,
    int tls)
{
    size_t                i = 0, a;
    const unsigned char  *t = target.data;

    /* a scheme: a letter, then letters, digits, '+', '-' and '.' */
    while (i < target.len
           && (ra_isalpha(t[i])
               || (i > 0 && (ra_isdigit(t[i]) || t[i] == '+' || t[i] == '-'
                             || t[i] == '.'))))
    {
        i++;
    }
    req->authority = host;
    if (i > 0 && target.len - i >= 3 && memcmp(t + i, "://", 3) == 0) {
        for (a = i += 3; i < target.len && t[i] != '/' && t[i] != '?'
                         && t[i] != '#' && t[i] != ' '; i++)
        {
            /* the authority, port included, as written */
        }
        req->authority = ra_str(t + a, i - a);
    }
    if (tls) {
        req->scheme = (ra_str_t) ra_string("https");
    }
}
