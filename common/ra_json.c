/* SPDX-License-Identifier: BSD-2-Clause */
/* Strict, bounded JSON reader: see ra_json.h. */
#include <string.h>

#include "ra_json.h"

typedef struct {
    const unsigned char  *p;
    const unsigned char  *start;
    const unsigned char  *end;
    ra_json_handler_pt    h;
    void                 *ctx;
    ra_json_err_t        *err;
} ra_json_t;

#define ra_json_fail(j, m)                                                  \
    ((j)->err->offset = (size_t) ((j)->p - (j)->start),                     \
     (j)->err->msg = (m), RA_ERROR)

static void
ra_json_ws(ra_json_t *j)
{
    while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n'
                             || *j->p == '\r'))
    {
        j->p++;
    }
}

static int
ra_json_hex4(const unsigned char *p, const unsigned char *end, unsigned *v)
{
    int  i, d;

    if (end - p < 4) {
        return -1;
    }
    *v = 0;
    for (i = 0; i < 4; i++) {
        d = ra_hexval(p[i]);
        if (d < 0) {
            return -1;
        }
        *v = (*v << 4) | (unsigned) d;
    }
    return 0;
}

/*
 * Which of the 8 bytes at p end a run of plain string bytes: a quote, a
 * backslash, a control character or a byte of 0x80 or more, each such
 * byte's high bit set in the answer (0: all plain).  Eight bytes at a
 * time, as the collector reads every event line's strings.  A borrow
 * between bytes may also mark a plain byte, but only one after (above) a
 * byte truly marked, so that the first byte marked is always one.
 */
static inline uint64_t
ra_json_special8(const unsigned char *p)
{
    const uint64_t  ones = 0x0101010101010101ULL;
    const uint64_t  highs = 0x8080808080808080ULL;
    uint64_t        w, q, b;

    memcpy(&w, p, 8);
    q = w ^ (ones * '"');
    b = w ^ (ones * '\\');
    return (((q - ones) & ~q) | ((b - ones) & ~b)
            | ((w - ones * 0x20) & ~w) | w) & highs;
}

/* Moves j past the plain bytes of a string, 8 at a time, to the first
 * that is not or to its last 7 (which the caller reads one by one). */
static inline void
ra_json_plain(ra_json_t *j)
{
    uint64_t  m;

    while (j->end - j->p >= 8) {
        m = ra_json_special8(j->p);
        if (m != 0) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
            /* the first byte in memory is the lowest */
            j->p += (unsigned) __builtin_ctzll(m) >> 3;
#endif
            return;
        }
        j->p += 8;
    }
}

/* At the opening quote; on success *raw is the content. */
static int
ra_json_string(ra_json_t *j, ra_str_t *raw)
{
    const unsigned char  *s;
    unsigned              u, lo;
    size_t                n;

    s = ++j->p;
    for ( ;; ) {
        ra_json_plain(j);
        if (j->p == j->end || *j->p == '"') {
            break;
        }
        if (*j->p < 0x20) {
            return ra_json_fail(j, "control character in string");
        }
        if (*j->p == '\\') {
            j->p++;
            if (j->p == j->end) {
                break;
            }
            switch (*j->p) {
            case '"': case '\\': case '/': case 'b': case 'f': case 'n':
            case 'r': case 't':
                j->p++;
                continue;
            case 'u':
                if (ra_json_hex4(j->p + 1, j->end, &u) != 0) {
                    return ra_json_fail(j, "bad \\u escape");
                }
                j->p += 5;
                if (u >= 0xdc00 && u <= 0xdfff) {
                    return ra_json_fail(j, "lone low surrogate");
                }
                if (u >= 0xd800 && u <= 0xdbff) {
                    if (j->end - j->p < 6 || j->p[0] != '\\' || j->p[1] != 'u'
                        || ra_json_hex4(j->p + 2, j->end, &lo) != 0
                        || lo < 0xdc00 || lo > 0xdfff)
                    {
                        return ra_json_fail(j, "lone high surrogate");
                    }
                    j->p += 6;
                }
                continue;
            default:
                return ra_json_fail(j, "bad escape");
            }
        }
        /* ASCII without a call: the collector reads every event line */
        n = *j->p < 0x80 ? 1 : ra_utf8_char(j->p, j->end);
        if (n == 0) {
            return ra_json_fail(j, "invalid UTF-8 in string");
        }
        j->p += n;
    }
    if (j->p == j->end) {
        return ra_json_fail(j, "unterminated string");
    }
    *raw = ra_str(s, (size_t) (j->p - s));
    j->p++;
    return RA_OK;
}

static int
ra_json_number(ra_json_t *j, ra_str_t *raw)
{
    const unsigned char  *s = j->p;

    if (j->p < j->end && *j->p == '-') {
        j->p++;
    }
    if (j->p < j->end && *j->p == '0') {
        j->p++;
    } else if (j->p < j->end && *j->p >= '1' && *j->p <= '9') {
        while (j->p < j->end && ra_isdigit(*j->p)) {
            j->p++;
        }
    } else {
        return ra_json_fail(j, "bad number");
    }
    if (j->p < j->end && *j->p == '.') {
        j->p++;
        if (j->p == j->end || !ra_isdigit(*j->p)) {
            return ra_json_fail(j, "bad number");
        }
        while (j->p < j->end && ra_isdigit(*j->p)) {
            j->p++;
        }
    }
    if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
        j->p++;
        if (j->p < j->end && (*j->p == '+' || *j->p == '-')) {
            j->p++;
        }
        if (j->p == j->end || !ra_isdigit(*j->p)) {
            return ra_json_fail(j, "bad number");
        }
        while (j->p < j->end && ra_isdigit(*j->p)) {
            j->p++;
        }
    }
    *raw = ra_str(s, (size_t) (j->p - s));
    return RA_OK;
}

static int
ra_json_value(ra_json_t *j, unsigned depth)
{
    static const char  *lits[] = { "true", "false", "null" };
    ra_str_t            raw;
    size_t              i, n;
    int                 rc, first;
    unsigned char       close;

    ra_json_ws(j);
    if (j->p == j->end) {
        return ra_json_fail(j, "value expected");
    }

    switch (*j->p) {

    case '{':
    case '[':
        if (depth >= RA_JSON_MAX_DEPTH) {
            return ra_json_fail(j, "nested too deep");
        }
        close = *j->p == '{' ? '}' : ']';
        rc = j->h(j->ctx, close == '}' ? RA_JSON_OBJECT : RA_JSON_ARRAY,
                  ra_str(j->p, 1), depth);
        if (rc != 0) {
            return rc;
        }
        j->p++;
        for (first = 1; ; first = 0) {
            ra_json_ws(j);
            if (j->p < j->end && *j->p == close && first) {
                break;
            }
            if (close == '}') {
                if (j->p == j->end || *j->p != '"') {
                    return ra_json_fail(j, "key expected");
                }
                if ((rc = ra_json_string(j, &raw)) != RA_OK
                    || (rc = j->h(j->ctx, RA_JSON_KEY, raw, depth + 1)) != 0)
                {
                    return rc;
                }
                ra_json_ws(j);
                if (j->p == j->end || *j->p != ':') {
                    return ra_json_fail(j, "':' expected");
                }
                j->p++;
            }
            if ((rc = ra_json_value(j, depth + 1)) != RA_OK) {
                return rc;
            }
            ra_json_ws(j);
            if (j->p < j->end && *j->p == ',') {
                j->p++;
                continue;
            }
            if (j->p < j->end && *j->p == close) {
                break;
            }
            return ra_json_fail(j, "',' or end of object/array expected");
        }
        j->p++;
        return j->h(j->ctx, RA_JSON_END, ra_str(j->p - 1, 1), depth);

    case '"':
        if ((rc = ra_json_string(j, &raw)) != RA_OK) {
            return rc;
        }
        return j->h(j->ctx, RA_JSON_STRING, raw, depth);

    case 't':
    case 'f':
    case 'n':
        for (i = 0; i < 3; i++) {
            n = strlen(lits[i]);
            if ((size_t) (j->end - j->p) >= n
                && memcmp(j->p, lits[i], n) == 0)
            {
                raw = ra_str(j->p, n);
                j->p += n;
                return j->h(j->ctx, RA_JSON_LITERAL, raw, depth);
            }
        }
        return ra_json_fail(j, "bad literal");

    default:
        if ((rc = ra_json_number(j, &raw)) != RA_OK) {
            return rc;
        }
        return j->h(j->ctx, RA_JSON_NUMBER, raw, depth);
    }
}

int
ra_json_parse(ra_str_t text, ra_json_handler_pt h, void *ctx,
    ra_json_err_t *err)
{
    ra_json_t      j;
    ra_json_err_t  ignored;
    int            rc;

    if (err == NULL) {
        err = &ignored;         /* the caller wants only the verdict */
    }
    j.start = j.p = text.data;
    j.end = text.data + text.len;
    j.h = h;
    j.ctx = ctx;
    j.err = err;
    err->offset = 0;
    err->msg = NULL;

    rc = ra_json_value(&j, 0);
    if (rc != RA_OK) {
        return rc;
    }
    ra_json_ws(&j);
    if (j.p != j.end) {
        return ra_json_fail(&j, "text after the value");
    }
    return RA_OK;
}

long
ra_json_unescape(ra_str_t raw, unsigned char *buf, size_t cap)
{
    const unsigned char  *p = raw.data, *end = raw.data + raw.len;
    size_t                n = 0, need;
    unsigned              u = 0, lo = 0xdc00;
    unsigned char         c;

    /* most strings have no escape: copied whole */
    if (raw.len == 0) {
        return 0;
    }
    if (memchr(p, '\\', raw.len) == NULL) {
        if (raw.len > cap) {
            return -1;
        }
        /* the caller may decode in place: the two may overlap */
        memmove(buf, p, raw.len);
        return (long) raw.len;
    }
    while (p < end) {
        c = *p++;
        if (c != '\\') {
            if (n == cap) {
                return -1;
            }
            buf[n++] = c;
            continue;
        }
        c = *p++;
        switch (c) {
        case 'b': c = '\b'; break;
        case 'f': c = '\f'; break;
        case 'n': c = '\n'; break;
        case 'r': c = '\r'; break;
        case 't': c = '\t'; break;
        case 'u':
            (void) ra_json_hex4(p, end, &u);
            p += 4;
            if (u >= 0xd800 && u <= 0xdbff) {
                (void) ra_json_hex4(p + 2, end, &lo);
                p += 6;
                u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
            }
            need = u < 0x80 ? 1 : u < 0x800 ? 2 : u < 0x10000 ? 3 : 4;
            if (cap - n < need) {
                return -1;
            }
            if (need == 1) {
                buf[n++] = (unsigned char) u;
            } else if (need == 2) {
                buf[n++] = (unsigned char) (0xc0 | (u >> 6));
                buf[n++] = (unsigned char) (0x80 | (u & 0x3f));
            } else if (need == 3) {
                buf[n++] = (unsigned char) (0xe0 | (u >> 12));
                buf[n++] = (unsigned char) (0x80 | ((u >> 6) & 0x3f));
                buf[n++] = (unsigned char) (0x80 | (u & 0x3f));
            } else {
                buf[n++] = (unsigned char) (0xf0 | (u >> 18));
                buf[n++] = (unsigned char) (0x80 | ((u >> 12) & 0x3f));
                buf[n++] = (unsigned char) (0x80 | ((u >> 6) & 0x3f));
                buf[n++] = (unsigned char) (0x80 | (u & 0x3f));
            }
            continue;
        default: break;              /* " \ / */
        }
        if (n == cap) {
            return -1;
        }
        buf[n++] = c;
    }
    return (long) n;
}
