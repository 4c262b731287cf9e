/* SPDX-License-Identifier: BSD-2-Clause */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ra_buf.h"

static const char  ra_hex[] = "0123456789abcdef";

void
ra_buf_init(ra_buf_t *b, const ra_alloc_t *a, size_t initial, size_t limit)
{
    memset(b, 0, sizeof(*b));
    b->alloc = a;
    b->limit = limit;
    if (initial) {
        b->data = ra_alloc(a, initial);
        if (b->data == NULL) {
            b->failed = 1;
            return;
        }
        b->cap = initial;
    }
}

void
ra_buf_release(ra_buf_t *b)
{
    ra_free(b->alloc, b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

int
ra_buf_reserve(ra_buf_t *b, size_t n)
{
    size_t          cap;
    unsigned char  *p;

    if (b->failed) {
        return 0;
    }
    if (b->limit && b->len + n > b->limit) {
        b->truncated = 1;
        return 0;
    }
    if (b->len + n <= b->cap) {
        return 1;
    }
    cap = b->cap ? b->cap : 256;
    while (cap < b->len + n) {
        cap *= 2;
    }
    if (b->limit && cap > b->limit) {
        cap = b->limit;                 /* len + n fits: checked above */
    }
    p = ra_alloc(b->alloc, cap);
    if (p == NULL) {
        b->failed = 1;
        return 0;
    }
    if (b->len) {
        memcpy(p, b->data, b->len);
    }
    ra_free(b->alloc, b->data);
    b->data = p;
    b->cap = cap;
    return 1;
}

void
ra_buf_add(ra_buf_t *b, const void *p, size_t n)
{
    if (n && ra_buf_reserve(b, n)) {
        memcpy(b->data + b->len, p, n);
        b->len += n;
    }
}

void
ra_buf_str(ra_buf_t *b, ra_str_t s)
{
    ra_buf_add(b, s.data, s.len);
}

void
ra_buf_cstr(ra_buf_t *b, const char *s)
{
    ra_buf_add(b, s, strlen(s));
}

void
ra_buf_ch(ra_buf_t *b, int c)
{
    unsigned char  ch = (unsigned char) c;

    ra_buf_add(b, &ch, 1);
}

void
ra_buf_printf(ra_buf_t *b, const char *fmt, ...)
{
    int      n;
    char     small[256];
    va_list  ap;

    va_start(ap, fmt);
    n = vsnprintf(small, sizeof(small), fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->failed = 1;
        return;
    }
    if ((size_t) n < sizeof(small)) {
        ra_buf_add(b, small, (size_t) n);
        return;
    }
    if (!ra_buf_reserve(b, (size_t) n + 1)) {
        return;
    }
    va_start(ap, fmt);
    vsnprintf((char *) b->data + b->len, (size_t) n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t) n;
}

void
ra_buf_u64(ra_buf_t *b, uint64_t v)
{
    char  tmp[20];
    int   i = sizeof(tmp);

    do {
        tmp[--i] = (char) ('0' + v % 10);
        v /= 10;
    } while (v);
    ra_buf_add(b, tmp + i, sizeof(tmp) - (size_t) i);
}

/* JSON: valid UTF-8 passes through; invalid bytes become U+FFFD. */
/* The code point of a valid UTF-8 character of n bytes. */
static uint32_t
ra_utf8_cp(const unsigned char *p, size_t n)
{
    static const unsigned char  lead[5] = { 0, 0x7f, 0x1f, 0x0f, 0x07 };
    uint32_t                    cp = p[0] & lead[n];
    size_t                      i;

    for (i = 1; i < n; i++) {
        cp = (cp << 6) | (p[i] & 0x3f);
    }
    return cp;
}

uint32_t
ra_utf8_invisible(const unsigned char *p, size_t n)
{
    uint32_t  c;

    if (n < 2 || n > 4) {
        return 0;
    }
    c = ra_utf8_cp(p, n);
    return (c == 0xad                       /* soft hyphen */
            || c == 0x61c                   /* Arabic letter mark */
            || c == 0x115f || c == 0x1160   /* Hangul fillers */
            || c == 0x180e                  /* Mongolian vowel separator */
            || (c >= 0x200b && c <= 0x200f) /* zero widths, LRM, RLM */
            || (c >= 0x2028 && c <= 0x202e) /* separators, embeddings,
                                               overrides (U+202E) */
            || (c >= 0x2060 && c <= 0x206f) /* joiners, invisible
                                               operators, isolates */
            || c == 0x3164 || c == 0xffa0   /* Hangul fillers */
            || c == 0xfeff                  /* zero-width no-break */
            || (c >= 0xfff9 && c <= 0xfffb) /* interlinear annotation */
            || (c >= 0xe0000 && c <= 0xe007f))  /* tags */
           ? c : 0;
}

void
ra_buf_json_str(ra_buf_t *b, ra_str_t s)
{
    const unsigned char  *p = s.data, *end = s.data, *run;
    size_t                n;
    uint32_t              cp;

    if (s.len) {
        end += s.len;   /* no offset on a NULL span */
    }
    ra_buf_ch(b, '"');
    while (p < end) {
        run = p;
        while (p < end && *p >= 0x20 && *p < 0x7f && *p != '"' && *p != '\\'
               && *p != '<' && *p != '>' && *p != '&')
        {
            p++;
        }
        ra_buf_add(b, run, (size_t) (p - run));
        if (p == end) {
            break;
        }
        if (*p >= 0x80) {
            n = ra_utf8_char(p, end);
            if (n && (cp = ra_utf8_invisible(p, n)) != 0) {
                /* the same string, but no reader shows it raw */
                if (cp >= 0x10000) {
                    cp -= 0x10000;
                    ra_buf_printf(b, "\\u%04x\\u%04x",
                                  (unsigned) (0xd800 + (cp >> 10)),
                                  (unsigned) (0xdc00 + (cp & 0x3ff)));
                } else {
                    ra_buf_printf(b, "\\u%04x", (unsigned) cp);
                }
                p += n;
            } else if (n) {
                ra_buf_add(b, p, n);
                p += n;
            } else {
                ra_buf_cstr(b, "\\ufffd");
                p++;
            }
            continue;
        }
        switch (*p) {
        case '"':  ra_buf_cstr(b, "\\\""); break;
        case '\\': ra_buf_cstr(b, "\\\\"); break;
        case '\n': ra_buf_cstr(b, "\\n"); break;
        case '\r': ra_buf_cstr(b, "\\r"); break;
        case '\t': ra_buf_cstr(b, "\\t"); break;
        default:
            /* controls, DEL and <>& (safe to embed in HTML <script>) */
            ra_buf_printf(b, "\\u%04x", *p);
        }
        p++;
    }
    ra_buf_ch(b, '"');
}

void
ra_buf_html(ra_buf_t *b, ra_str_t s)
{
    const unsigned char  *p = s.data, *end = s.data, *run;
    size_t                n;
    uint32_t              cp;

    if (s.len) {
        end += s.len;   /* no offset on a NULL span */
    }
    while (p < end) {
        run = p;
        while (p < end && *p >= 0x20 && *p < 0x7f && *p != '<' && *p != '>'
               && *p != '&' && *p != '"' && *p != '\'')
        {
            p++;
        }
        ra_buf_add(b, run, (size_t) (p - run));
        if (p == end) {
            break;
        }
        if (*p >= 0x80 && (n = ra_utf8_char(p, end)) != 0) {
            if ((cp = ra_utf8_invisible(p, n)) != 0) {
                /* bidi controls and invisible characters: shown, never
                 * obeyed (a character reference would be) */
                ra_buf_printf(b, "\\u{%x}", (unsigned) cp);
            } else {
                ra_buf_add(b, p, n);
            }
            p += n;
            continue;
        }
        switch (*p) {
        case '<':  ra_buf_cstr(b, "&lt;"); break;
        case '>':  ra_buf_cstr(b, "&gt;"); break;
        case '&':  ra_buf_cstr(b, "&amp;"); break;
        case '"':  ra_buf_cstr(b, "&quot;"); break;
        case '\'': ra_buf_cstr(b, "&#39;"); break;
        default:
            /* controls and invalid UTF-8: visible, never raw */
            ra_buf_printf(b, "\\x%02x", *p);
        }
        p++;
    }
}

void
ra_buf_prom_label(ra_buf_t *b, ra_str_t s)
{
    const unsigned char  *p = s.data, *end = s.data;
    size_t                n;

    if (s.len) {
        end += s.len;   /* no offset on a NULL span */
    }
    while (p < end) {
        switch (*p) {
        case '\\': ra_buf_cstr(b, "\\\\"); p++; continue;
        case '"':  ra_buf_cstr(b, "\\\""); p++; continue;
        case '\n': ra_buf_cstr(b, "\\n"); p++; continue;
        }
        if (*p < 0x80) {
            ra_buf_ch(b, *p < 0x20 || *p == 0x7f ? '?' : *p);
            p++;
        } else if ((n = ra_utf8_char(p, end)) != 0) {
            if (ra_utf8_invisible(p, n)) {
                ra_buf_cstr(b, "\xef\xbf\xbd");    /* U+FFFD, shown */
            } else {
                ra_buf_add(b, p, n);
            }
            p += n;
        } else {
            ra_buf_cstr(b, "\xef\xbf\xbd");
            p++;
        }
    }
}

/* Does any of the 8 bytes of x need escaping in a log line: below 0x20,
 * above 0x7e, '"' or '\\'?  Exact (no false answer either way). */
#define RA_ONES  0x0101010101010101ull
#define RA_HIGH  0x8080808080808080ull
#define ra_word_zero(x)  (((x) - RA_ONES) & ~(x) & RA_HIGH)

static int
ra_log_word_bad(uint64_t x)
{
    return (((((x) - RA_ONES * 0x20) & ~(x))        /* a byte < 0x20 */
            | ((x) + RA_ONES) | (x)                 /* a byte > 0x7e */
            | ra_word_zero(x ^ (RA_ONES * '"'))
            | ra_word_zero(x ^ (RA_ONES * '\\'))) & RA_HIGH) != 0;
}

/* The bytes of p[0..n) that a log line shows as they are. */
static size_t
ra_log_run(const unsigned char *p, size_t n)
{
    size_t    i = 0;
    uint64_t  x;

    for ( /* void */ ; i + 8 <= n; i += 8) {
        memcpy(&x, p + i, 8);
        if (ra_log_word_bad(x)) {
            break;
        }
    }
    while (i < n && p[i] >= 0x20 && p[i] < 0x7f && p[i] != '\\'
           && p[i] != '"')
    {
        i++;
    }
    return i;
}

void
ra_buf_log(ra_buf_t *b, ra_str_t s)
{
    size_t                run;
    const unsigned char  *p = s.data, *end = s.data;
    unsigned char         esc[4] = { '\\', 'x', 0, 0 };

    if (s.len) {
        end += s.len;   /* no offset on a NULL span */
    }
    while (p < end) {
        run = ra_log_run(p, (size_t) (end - p));
        ra_buf_add(b, p, run);
        p += run;
        if (p == end) {
            break;
        }
        if (*p == '"' || *p == '\\') {
            /* no backslash: a log that escapes backslashes (Apache's)
             * shows these as they are, and a quote can end no field */
            ra_buf_cstr(b, *p == '"' ? "%22" : "%5c");
        } else {
            esc[2] = (unsigned char) ra_hex[*p >> 4];
            esc[3] = (unsigned char) ra_hex[*p & 0xf];
            ra_buf_add(b, esc, 4);
        }
        p++;
    }
}
