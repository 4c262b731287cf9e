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
void
ra_buf_json_str(ra_buf_t *b, ra_str_t s)
{
    const unsigned char  *p = s.data, *end = s.data, *run;
    size_t                n;

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
            if (n) {
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
            ra_buf_add(b, p, n);
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
            ra_buf_add(b, p, n);
            p += n;
        } else {
            ra_buf_cstr(b, "\xef\xbf\xbd");
            p++;
        }
    }
}

void
ra_buf_log(ra_buf_t *b, ra_str_t s)
{
    const unsigned char  *p = s.data, *end = s.data, *run;
    unsigned char         esc[4] = { '\\', 'x', 0, 0 };

    if (s.len) {
        end += s.len;   /* no offset on a NULL span */
    }
    while (p < end) {
        run = p;
        while (p < end && *p >= 0x20 && *p < 0x7f && *p != '\\' && *p != '"') {
            p++;
        }
        ra_buf_add(b, run, (size_t) (p - run));
        if (p < end) {
            esc[2] = (unsigned char) ra_hex[*p >> 4];
            esc[3] = (unsigned char) ra_hex[*p & 0xf];
            ra_buf_add(b, esc, 4);
            p++;
        }
    }
}
