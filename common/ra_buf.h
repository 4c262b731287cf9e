/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Append-only output buffer for renderers (HTML, JSON, Prometheus, text).
 *
 * Grows from the caller's allocator; on allocation failure it sets
 * "failed" and ignores further appends, so a renderer checks once at the
 * end.  "limit" (0 = none) caps the size: output past it is dropped and
 * "truncated" is set.
 */
#ifndef RA_BUF_H
#define RA_BUF_H

#include "ra_core.h"

typedef struct {
    unsigned char     *data;
    size_t             len;
    size_t             cap;
    size_t             limit;
    const ra_alloc_t  *alloc;
    unsigned           failed:1;
    unsigned           truncated:1;
} ra_buf_t;

void ra_buf_init(ra_buf_t *b, const ra_alloc_t *a, size_t initial,
    size_t limit);
void ra_buf_release(ra_buf_t *b);

/* Room for n more bytes (growing by doubling, never past the limit): 1,
 * or 0 with failed or truncated set. */
int ra_buf_reserve(ra_buf_t *b, size_t n);

void ra_buf_add(ra_buf_t *b, const void *p, size_t n);
void ra_buf_str(ra_buf_t *b, ra_str_t s);
void ra_buf_cstr(ra_buf_t *b, const char *s);
void ra_buf_ch(ra_buf_t *b, int c);
void ra_buf_printf(ra_buf_t *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void ra_buf_u64(ra_buf_t *b, uint64_t v);

/* The code point of the valid UTF-8 character p[0..n) when it is a bidi
 * control or an invisible formatting character (U+202E RIGHT-TO-LEFT
 * OVERRIDE, U+2066..U+2069 isolates, zero widths, U+FEFF, tags, ...),
 * which could make text read as other text; else 0. */
uint32_t ra_utf8_invisible(const unsigned char *p, size_t n);

/* Escapers: every byte of s is safe in the target syntax afterwards, and
 * the characters of ra_utf8_invisible() are shown, never obeyed: JSON
 * \uXXXX (the same string), HTML the text \u{XXXX}, Prometheus U+FFFD,
 * log lines \xHH as every byte >= 0x80. */
void ra_buf_json_str(ra_buf_t *b, ra_str_t s);   /* with the quotes */
void ra_buf_html(ra_buf_t *b, ra_str_t s);       /* text and attributes */
void ra_buf_prom_label(ra_buf_t *b, ra_str_t s); /* \\ \" \n */
/* For log lines: C0, DEL and bytes >= 0x80 become \xHH, '"' and '\\'
 * %22 and %5c (as in a URI; '%' itself stays, so "%22" reads the same
 * whether a quote or those three bytes came). */
void ra_buf_log(ra_buf_t *b, ra_str_t s);

#endif /* RA_BUF_H */
