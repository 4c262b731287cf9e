/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Structured Field Values (ra_sf.h): the parsing algorithms of RFC 9651
 * Section 4.2 over spans, and the serialisation of Section 4.1 into a
 * fixed buffer.
 *
 * The reasons given on failure name what a field's author got wrong
 * ("a label is lower case"), since lint quotes them; a few failures are
 * caught early only to say so better, and fail exactly the input the RFC's
 * algorithm fails.
 */
#include <string.h>

#include "ra_sf.h"

#define ra_sf_lc(c)   ((c) >= 'a' && (c) <= 'z')

static int
ra_sf_fail(ra_sf_cur_t *c, const char *why)
{
    c->why = why;
    return RA_ERROR;
}

void
ra_sf_init(ra_sf_cur_t *c, ra_str_t s, unsigned flags)
{
    c->p = s.data;
    c->start = s.data;
    c->end = s.data + s.len;
    c->flags = flags;
    c->members = 0;
    c->why = NULL;
}

void
ra_sf_init_member(ra_sf_cur_t *c, const ra_sf_member_t *m, unsigned flags)
{
    ra_sf_init(c, ra_str(m->value.data, (size_t) (m->params.data
                                        + m->params.len - m->value.data)),
               flags);
}

static void
ra_sf_sp(ra_sf_cur_t *c)
{
    while (c->p < c->end && *c->p == ' ') {
        c->p++;
    }
}

/* OWS: spaces and tabs, around the ',' between members */
static void
ra_sf_ows(ra_sf_cur_t *c)
{
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t')) {
        c->p++;
    }
}

/* key = ( lcalpha / "*" ) *( lcalpha / DIGIT / "_" / "-" / "." / "*" ) */
static int
ra_sf_key(ra_sf_cur_t *c, ra_str_t *key)
{
    const unsigned char  *s = c->p;
    int                   ch;

    if (c->p == c->end) {
        return ra_sf_fail(c, "a label is missing");
    }
    ch = *c->p;
    if (!(ra_sf_lc(ch) || ch == '*')) {
        return ra_sf_fail(c, ch >= 'A' && ch <= 'Z'
                             ? "a label is lower case (labels are "
                               "case-sensitive)"
                             : "a label starts with a-z or '*'");
    }
    for (c->p++; c->p < c->end; c->p++) {
        ch = *c->p;
        if (!(ra_sf_lc(ch) || ra_isdigit(ch) || ch == '_' || ch == '-'
              || ch == '.' || ch == '*'))
        {
            break;
        }
    }
    /* nothing may follow a key that starts with an upper-case letter:
     * said here, where the author meant it to be part of the key */
    if (c->p < c->end && *c->p >= 'A' && *c->p <= 'Z') {
        return ra_sf_fail(c, "a label is lower case (labels are "
                             "case-sensitive)");
    }
    *key = ra_str(s, (size_t) (c->p - s));
    return RA_OK;
}

/* An Integer, Decimal or (after '@') Date.  Every digit is read before
 * the count is judged, so that a failure points past the number. */
static int
ra_sf_number(ra_sf_cur_t *c, ra_sf_bare_t *v, int date)
{
    const unsigned char  *s = c->p;
    size_t                d = 0, f = 0;
    int64_t               n = 0, frac = 0;
    int                   neg = 0;

    c->p += date;
    if (c->p < c->end && *c->p == '-') {
        neg = 1;
        c->p++;
    }
    for (; c->p < c->end && ra_isdigit(*c->p); c->p++) {
        if (++d <= 15) {
            n = n * 10 + (*c->p - '0');
        }
    }
    if (!date && c->p < c->end && *c->p == '.' && d >= 1 && d <= 12) {
        for (c->p++; c->p < c->end && ra_isdigit(*c->p); c->p++) {
            if (++f <= 3) {
                frac = frac * 10 + (*c->p - '0');
            }
        }
        if (f < 1 || f > 3) {
            return ra_sf_fail(c, "a bad number");
        }
        for (; f < 3; f++) {
            frac *= 10;
        }
        v->type = RA_SF_DECIMAL;
        v->i = neg ? -(n * 1000 + frac) : n * 1000 + frac;
    } else {
        if (d < 1 || d > 15) {
            return ra_sf_fail(c, "a bad number");
        }
        v->type = date ? RA_SF_DATE : RA_SF_INTEGER;
        v->i = neg ? -n : n;
    }
    v->raw = ra_str(s, (size_t) (c->p - s));
    return RA_OK;
}

/* A String, or (after '%') a Display String: its %xx are lower-case hex,
 * and it holds no '\\'.  The bytes a Display String's escapes make are
 * not checked for UTF-8. */
static int
ra_sf_string(ra_sf_cur_t *c, ra_sf_bare_t *v, int display)
{
    const unsigned char  *s;
    int                   b;

    c->p += display ? 2 : 1;
    for (s = c->p; c->p < c->end; c->p++) {
        b = *c->p;
        if (b == '"') {
            v->type = display ? RA_SF_DISPLAY : RA_SF_STRING;
            v->raw = ra_str(s, (size_t) (c->p - s));
            c->p++;
            return RA_OK;
        }
        if (b < 0x20 || b > 0x7e || (display && b == '\\')) {
            return ra_sf_fail(c, "a byte a string may not hold");
        }
        if (!display && b == '\\') {
            if (c->p + 1 == c->end || (c->p[1] != '"' && c->p[1] != '\\')) {
                return ra_sf_fail(c, "a bad escape in a string");
            }
            c->p++;
        } else if (display && b == '%') {
            if (c->end - c->p <= 2 || !ra_isxdigit(c->p[1])
                || !ra_isxdigit(c->p[2])
                || (c->p[1] >= 'A' && c->p[1] <= 'F')
                || (c->p[2] >= 'A' && c->p[2] <= 'F'))
            {
                return ra_sf_fail(c, "a bad escape in a string");
            }
            c->p += 2;
        }
    }
    return ra_sf_fail(c, "a string is not closed");
}

/* tchar of RFC 9110, and ':' and '/' as sf-token allows */
static int
ra_sf_tchar(int ch)
{
    return ra_isalpha(ch) || ra_isdigit(ch)
           || (ch != 0 && strchr("!#$%&'*+-.^_`|~:/", ch) != NULL);
}

int
ra_sf_bare(ra_sf_cur_t *c, ra_sf_bare_t *v)
{
    const unsigned char  *s = c->p;
    int                   ch;

    if (c->p == c->end) {
        return ra_sf_fail(c, "a value is missing");
    }
    ch = *c->p;
    if (ch == ' ') {
        return ra_sf_fail(c, "a space after '='");
    }
    if (ch == '-' || ra_isdigit(ch)) {
        return ra_sf_number(c, v, 0);
    }
    if (ch == '"') {
        return ra_sf_string(c, v, 0);
    }
    if (ch == '*' || ra_isalpha(ch)) {
        for (c->p++; c->p < c->end && ra_sf_tchar(*c->p); c->p++) {
            /* void */
        }
        v->type = RA_SF_TOKEN;
        v->raw = ra_str(s, (size_t) (c->p - s));
        return RA_OK;
    }
    if (ch == ':') {
        for (c->p++; c->p < c->end; c->p++) {
            ch = *c->p;
            if (ch == ':') {
                v->type = RA_SF_BYTES;
                v->raw = ra_str(s + 1, (size_t) (c->p - s - 1));
                c->p++;
                return RA_OK;
            }
            if (!(ra_isalpha(ch) || ra_isdigit(ch) || ch == '+' || ch == '/'
                  || ch == '='))
            {
                break;
            }
        }
        return ra_sf_fail(c, "a bad byte sequence");
    }
    if (ch == '?') {
        if (c->p + 1 < c->end && (c->p[1] == '0' || c->p[1] == '1')) {
            v->type = RA_SF_BOOLEAN;
            v->i = c->p[1] == '1';
            v->raw = ra_str(c->p, 2);
            c->p += 2;
            return RA_OK;
        }
        return ra_sf_fail(c, "a bad boolean");
    }
    if (ch == '@') {
        return c->flags & RA_SF_9651
               ? ra_sf_number(c, v, 1)
               : ra_sf_fail(c, "a date, which RFC 8941 has not");
    }
    if (ch == '%' && c->p + 1 < c->end && c->p[1] == '"') {
        return c->flags & RA_SF_9651
               ? ra_sf_string(c, v, 1)
               : ra_sf_fail(c, "a display string, which RFC 8941 has not");
    }
    return ra_sf_fail(c, "a value that is no token, string, number or "
                         "boolean");
}

/* *( ";" *SP key [ "=" bare-item ] ) */
int
ra_sf_params(ra_sf_cur_t *c, ra_sf_param_t *out, unsigned max, unsigned *n)
{
    ra_sf_param_t  p;
    unsigned       i, count = 0;

    while (c->p < c->end && *c->p == ';') {
        c->p++;
        ra_sf_sp(c);
        if (ra_sf_key(c, &p.key) != RA_OK) {
            if (c->p == c->end || *c->p == ',') {
                c->why = "a ';' without a parameter";
            }
            return RA_ERROR;
        }
        if (c->p < c->end && *c->p == '=') {
            c->p++;
            if (ra_sf_bare(c, &p.v) != RA_OK) {
                return RA_ERROR;
            }
        } else {
            p.v.type = RA_SF_BOOLEAN;
            p.v.i = 1;
            p.v.raw = ra_str("?1", 2);
        }
        if (out == NULL) {
            continue;
        }
        for (i = 0; i < count; i++) {
            if (out[i].key.len == p.key.len
                && memcmp(out[i].key.data, p.key.data, p.key.len) == 0)
            {
                out[i].v = p.v;
                break;
            }
        }
        if (i == count) {
            if (count == max) {
                c->why = "more parameters than are kept";
                return RA_ELIMIT;
            }
            out[count++] = p;
        }
    }
    if (n != NULL) {
        *n = count;
    }
    return RA_OK;
}

/* An item's parameters, its bare item read into it (NULL: checked only,
 * bounded when the cursor says so). */
static int
ra_sf_item_params(ra_sf_cur_t *c, ra_sf_item_t *it)
{
    ra_sf_item_t  scratch;

    if (it == NULL && !(c->flags & RA_SF_BOUNDED)) {
        return ra_sf_params(c, NULL, 0, NULL);
    }
    return ra_sf_params(c, it != NULL ? it->params : scratch.params,
                        RA_SF_ITEM_PARAMS, it != NULL ? &it->nparams : NULL);
}

int
ra_sf_item(ra_sf_cur_t *c, ra_sf_item_t *it)
{
    ra_sf_bare_t  v;

    if (ra_sf_bare(c, it != NULL ? &it->v : &v) != RA_OK) {
        return RA_ERROR;
    }
    return ra_sf_item_params(c, it);
}

int
ra_sf_inner(ra_sf_cur_t *c, ra_sf_item_t *out, unsigned max, unsigned *n)
{
    unsigned  count = 0;
    int       rc;

    if (c->p == c->end || *c->p != '(') {
        return ra_sf_fail(c, "an inner list does not start with '('");
    }
    c->p++;
    for (;;) {
        ra_sf_sp(c);
        if (c->p == c->end) {
            return ra_sf_fail(c, "an inner list is not closed");
        }
        if (*c->p == ')') {
            c->p++;
            break;
        }
        if (out != NULL && count == max) {
            c->why = "more items than are kept";
            return RA_ELIMIT;
        }
        rc = ra_sf_item(c, out != NULL ? &out[count] : NULL);
        if (rc != RA_OK) {
            return rc;
        }
        count++;
        if (c->p < c->end && *c->p != ' ' && *c->p != ')') {
            return ra_sf_fail(c, "an inner list's items are not apart");
        }
    }
    if (n != NULL) {
        *n = count;
    }
    return RA_OK;
}

/* Before a member: 1 when one follows, 0 at the end, RA_ERROR. */
static int
ra_sf_more(ra_sf_cur_t *c)
{
    if (c->why != NULL) {
        return RA_ERROR;
    }
    if (c->members == 0) {
        ra_sf_sp(c);
        return c->p < c->end;
    }
    /* after a member: OWS, ',' and OWS, then another member */
    ra_sf_ows(c);
    if (c->p == c->end) {
        return 0;
    }
    if (*c->p != ',') {
        return ra_sf_fail(c, *c->p == '=' ? "a space before '='"
                                          : "no ',' between two members");
    }
    c->p++;
    ra_sf_ows(c);
    if (c->p == c->end) {
        return ra_sf_fail(c, "a trailing ','");
    }
    return 1;
}

/* A member, checked whole; keyed in a Dictionary. */
static int
ra_sf_member(ra_sf_cur_t *c, ra_sf_member_t *m, int keyed)
{
    const unsigned char  *s;
    int                   rc;

    m->key = ra_str(c->p, 0);
    m->list = 0;
    m->bare = 0;
    if (keyed && ra_sf_key(c, &m->key) != RA_OK) {
        return RA_ERROR;
    }
    if (keyed && (c->p == c->end || *c->p != '=')) {
        m->bare = 1;
        m->value = ra_str(c->p, 0);
        rc = ra_sf_params(c, NULL, 0, NULL);
    } else {
        c->p += keyed;
        s = c->p;
        if (c->p < c->end && *c->p == '(') {
            m->list = 1;
            rc = ra_sf_inner(c, NULL, 0, NULL);
            m->value = ra_str(s, (size_t) (c->p - s));
            rc = rc == RA_OK ? ra_sf_params(c, NULL, 0, NULL) : rc;
        } else {
            ra_sf_bare_t  v;

            rc = ra_sf_bare(c, &v);
            m->value = ra_str(s, (size_t) (c->p - s));
            rc = rc == RA_OK ? ra_sf_item_params(c, NULL) : rc;
        }
    }
    if (rc != RA_OK) {
        return RA_ERROR;
    }
    s = m->value.data + m->value.len;
    m->params = ra_str(s, (size_t) (c->p - s));
    c->members++;
    return 1;
}

int
ra_sf_dict_next(ra_sf_cur_t *c, ra_sf_member_t *m)
{
    int  rc = ra_sf_more(c);

    return rc == 1 ? ra_sf_member(c, m, 1) : rc;
}

int
ra_sf_list_next(ra_sf_cur_t *c, ra_sf_member_t *m)
{
    int  rc = ra_sf_more(c);

    return rc == 1 ? ra_sf_member(c, m, 0) : rc;
}

int
ra_sf_dict(ra_str_t field, unsigned flags, ra_sf_member_t *m, unsigned max,
    unsigned *n)
{
    ra_sf_cur_t  c;
    int          rc;

    ra_sf_init(&c, field, flags);
    *n = 0;
    while ((rc = ra_sf_more(&c)) == 1) {
        /* the bound is met before the member past it is read */
        if (c.members == max) {
            return RA_ELIMIT;
        }
        if (ra_sf_member(&c, &m[c.members], 1) != 1) {
            return RA_ERROR;
        }
    }
    if (rc != 0 || c.members == 0) {
        return RA_ERROR;                /* malformed, or empty */
    }
    *n = c.members;
    return RA_OK;
}

const ra_sf_member_t *
ra_sf_dict_get(const ra_sf_member_t *m, unsigned n, ra_str_t key)
{
    unsigned  i = n;

    while (i-- > 0) {
        if (m[i].key.len == key.len
            && memcmp(m[i].key.data, key.data, key.len) == 0)
        {
            return &m[i];
        }
    }
    return NULL;
}

const ra_sf_bare_t *
ra_sf_param(const ra_sf_param_t *p, unsigned n, const char *key)
{
    size_t    len = strlen(key);
    unsigned  i;

    for (i = 0; i < n; i++) {
        if (p[i].key.len == len && memcmp(p[i].key.data, key, len) == 0) {
            return &p[i].v;
        }
    }
    return NULL;
}

int
ra_sf_is(const ra_sf_bare_t *v, unsigned type, const char *s)
{
    size_t  len = strlen(s);

    return v != NULL && v->type == type && v->raw.len == len
           && memcmp(v->raw.data, s, len) == 0;
}


/* ---- serialising ------------------------------------------------------- */

void
ra_sf_put(ra_sf_out_t *o, const void *s, size_t n)
{
    if (o->over || n > o->cap - o->len) {
        o->over = 1;
        return;
    }
    memcpy(o->p + o->len, s, n);
    o->len += n;
}

void
ra_sf_put_int(ra_sf_out_t *o, int64_t v)
{
    char      d[24];
    size_t    n = 0;
    uint64_t  u = v < 0 ? (uint64_t) 0 - (uint64_t) v : (uint64_t) v;

    do {
        d[sizeof(d) - 1 - n++] = (char) ('0' + u % 10);
        u /= 10;
    } while (u && n < 20);
    if (v < 0) {
        d[sizeof(d) - 1 - n++] = '-';
    }
    ra_sf_put(o, d + sizeof(d) - n, n);
}

void
ra_sf_put_bare(ra_sf_out_t *o, const ra_sf_bare_t *v)
{
    switch (v->type) {
    case RA_SF_INTEGER:
        ra_sf_put_int(o, v->i);
        break;
    case RA_SF_DATE:
        ra_sf_put(o, "@", 1);
        ra_sf_put_int(o, v->i);
        break;
    case RA_SF_STRING:
    case RA_SF_DISPLAY:
        if (v->type == RA_SF_DISPLAY) {
            ra_sf_put(o, "%", 1);
        }
        ra_sf_put(o, "\"", 1);
        ra_sf_put(o, v->raw.data, v->raw.len);
        ra_sf_put(o, "\"", 1);
        break;
    case RA_SF_BYTES:
        ra_sf_put(o, ":", 1);
        ra_sf_put(o, v->raw.data, v->raw.len);
        ra_sf_put(o, ":", 1);
        break;
    case RA_SF_BOOLEAN:
        ra_sf_put(o, v->i ? "?1" : "?0", 2);
        break;
    default:                            /* decimal, token: as written */
        ra_sf_put(o, v->raw.data, v->raw.len);
        break;
    }
}

void
ra_sf_put_params(ra_sf_out_t *o, const ra_sf_param_t *p, unsigned n)
{
    unsigned  i;

    for (i = 0; i < n; i++) {
        ra_sf_put(o, ";", 1);
        ra_sf_put(o, p[i].key.data, p[i].key.len);
        if (p[i].v.type != RA_SF_BOOLEAN || !p[i].v.i) {
            ra_sf_put(o, "=", 1);
            ra_sf_put_bare(o, &p[i].v);
        }
    }
}

void
ra_sf_put_item(ra_sf_out_t *o, const ra_sf_item_t *it)
{
    ra_sf_put_bare(o, &it->v);
    ra_sf_put_params(o, it->params, it->nparams);
}
