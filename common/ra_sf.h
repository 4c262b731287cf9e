/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Structured Field Values for HTTP (RFC 9651): parsing Dictionaries,
 * Lists, Inner Lists, Items and their Parameters, and serialising the
 * Items parsed.  Lint reads a Content-Usage value with it, and Web Bot
 * Auth its Signature-Input, Signature and Signature-Agent fields.
 *
 * Everything is a span of the input: a String's or Display String's raw
 * text lies between its quotes with the escapes kept, a Byte Sequence's
 * between its colons, undecoded.  Nothing is allocated; Items, Parameters
 * and members go into the caller's fixed arrays, and a parse that would
 * need more room than it was given fails with RA_ELIMIT.  Time is linear
 * in the input.
 *
 * The callers differ in what they accept, by flags on the cursor:
 *   RA_SF_9651     Dates and Display Strings, which RFC 9651 added to
 *                  RFC 8941.  Without it they fail the parse: RFC 9421
 *                  signatures are built on RFC 8941, and lint reads
 *                  aipref values by RFC 9651.
 *   RA_SF_BOUNDED  an Item with more than RA_SF_ITEM_PARAMS distinct
 *                  Parameters fails the parse even where it is only
 *                  checked, so that a field that parses is one whose
 *                  members read again into ra_sf_item_t always fit.
 * A failed parse leaves the cursor where it stopped and says why in
 * words a lint message can quote.
 */
#ifndef RA_SF_H
#define RA_SF_H

#include "ra_core.h"

#define RA_SF_9651      0x1u
#define RA_SF_BOUNDED   0x2u

/* Parameters an ra_sf_item_t holds */
#define RA_SF_ITEM_PARAMS  4

typedef enum {
    RA_SF_INTEGER = 0,
    RA_SF_DECIMAL,
    RA_SF_STRING,           /* raw: between the quotes, escapes kept */
    RA_SF_TOKEN,
    RA_SF_BYTES,            /* raw: the base64 between the colons */
    RA_SF_BOOLEAN,
    RA_SF_DATE,             /* raw: from the '@' */
    RA_SF_DISPLAY           /* raw: between the quotes, %xx kept */
} ra_sf_type_e;

typedef struct {
    unsigned    type;       /* ra_sf_type_e */
    ra_str_t    raw;        /* the text; a number's as written */
    int64_t     i;          /* integer, date; decimal in thousandths;
                               boolean 0 or 1 */
} ra_sf_bare_t;

typedef struct {
    ra_str_t      key;
    ra_sf_bare_t  v;        /* a key alone: the Boolean true */
} ra_sf_param_t;

typedef struct {
    ra_sf_bare_t   v;
    ra_sf_param_t  params[RA_SF_ITEM_PARAMS];
    unsigned       nparams;
} ra_sf_item_t;

/* A member of a Dictionary or List, as spans: read it again with
 * ra_sf_init_member() for its Item or Inner List and Parameters. */
typedef struct {
    ra_str_t    key;        /* empty in a List */
    ra_str_t    value;      /* the bare item or the inner list, without
                               parameters; a key alone: empty, where the
                               value would start */
    ra_str_t    params;     /* from the first ';'; empty when none */
    unsigned    list:1;     /* an inner list */
    unsigned    bare:1;     /* a key alone: the Boolean true */
} ra_sf_member_t;

typedef struct {
    const unsigned char  *p;        /* where parsing goes on */
    const unsigned char  *start;
    const unsigned char  *end;
    unsigned              flags;
    unsigned              members;  /* members read so far */
    const char           *why;      /* why the parse failed; NULL: it
                                       has not */
} ra_sf_cur_t;

void ra_sf_init(ra_sf_cur_t *c, ra_str_t s, unsigned flags);
/* A cursor over a member's value and parameters. */
void ra_sf_init_member(ra_sf_cur_t *c, const ra_sf_member_t *m,
    unsigned flags);

/*
 * The parsers of RFC 9651 Section 4.2, each reading from c->p on: RA_OK,
 * or RA_ERROR (c->why set, c->p where it stopped), or RA_ELIMIT when the
 * caller's array is full.  None of them requires the input to end where
 * it stops.
 *   ra_sf_bare()    a bare item
 *   ra_sf_params()  Parameters into out (the first max distinct keys; a
 *                   repeated key's last value wins); out NULL: checked
 *                   only, however many; n may be NULL
 *   ra_sf_item()    a bare item and its Parameters; it NULL: checked only
 *   ra_sf_inner()   an Inner List, without the Parameters after its ')',
 *                   its Items into out (at most max); out NULL: checked
 *                   only; n may be NULL
 */
int ra_sf_bare(ra_sf_cur_t *c, ra_sf_bare_t *v);
int ra_sf_params(ra_sf_cur_t *c, ra_sf_param_t *out, unsigned max,
    unsigned *n);
int ra_sf_item(ra_sf_cur_t *c, ra_sf_item_t *it);
int ra_sf_inner(ra_sf_cur_t *c, ra_sf_item_t *out, unsigned max,
    unsigned *n);

/*
 * The next member of a Dictionary or a List, the whole field being
 * c's span: 1 with *m, 0 at the end (an empty field has no members), or
 * RA_ERROR (c->why, c->p).  Leading spaces are skipped as RFC 9651 4.2
 * says; each member is checked whole, Parameters and all.
 */
int ra_sf_dict_next(ra_sf_cur_t *c, ra_sf_member_t *m);
int ra_sf_list_next(ra_sf_cur_t *c, ra_sf_member_t *m);

/* A whole Dictionary field into m: RA_OK with *n members, RA_ERROR
 * (empty or malformed), or RA_ELIMIT when it has more than max. */
int ra_sf_dict(ra_str_t field, unsigned flags, ra_sf_member_t *m,
    unsigned max, unsigned *n);

/* The last member of that key (RFC 9651: a later one overrides), or
 * NULL. */
const ra_sf_member_t *ra_sf_dict_get(const ra_sf_member_t *m, unsigned n,
    ra_str_t key);
/* The value of that parameter, or NULL. */
const ra_sf_bare_t *ra_sf_param(const ra_sf_param_t *p, unsigned n,
    const char *key);
/* 1 when v is of that type with that raw text. */
int ra_sf_is(const ra_sf_bare_t *v, unsigned type, const char *s);

/*
 * Serialising (RFC 9651 Section 4.1) into a caller's fixed buffer: what
 * does not fit is dropped and over set, for one check at the end.
 * Strings and Byte Sequences are written as they were read, Integers
 * and Dates from their values, Decimals and Tokens as written.
 */
typedef struct {
    unsigned char  *p;
    size_t          len;
    size_t          cap;
    int             over;
} ra_sf_out_t;

void ra_sf_put(ra_sf_out_t *o, const void *s, size_t n);
void ra_sf_put_int(ra_sf_out_t *o, int64_t v);
void ra_sf_put_bare(ra_sf_out_t *o, const ra_sf_bare_t *v);
void ra_sf_put_params(ra_sf_out_t *o, const ra_sf_param_t *p, unsigned n);
void ra_sf_put_item(ra_sf_out_t *o, const ra_sf_item_t *it);

#endif /* RA_SF_H */
