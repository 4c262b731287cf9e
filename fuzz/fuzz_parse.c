/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Parser and compiler: any bytes as a robots.txt body.  Every event's
 * spans lie inside the body, line numbers rise by one, keys and values
 * come from a line's first RA_MAX_LINE_LEN bytes, the parse info agrees
 * with the events, and the
 * compiler neither crashes nor leaks.
 */
#include "fuzz.h"
#include "ra_parse.h"
#include "ra_rules.h"

typedef struct {
    ra_str_t  body;
    uint32_t  lines;
    uint32_t  directives;
} fz_parse_t;

static int
on_line(void *ctx, const ra_line_t *l)
{
    fz_parse_t  *f = ctx;
    ra_str_t     tok;
    size_t       n;

    FZ_CHECK(l->line == f->lines + 1);
    f->lines++;
    FZ_CHECK(fz_within(l->raw, f->body.data, f->body.len));
    /* raw is the whole line; key and value come from its first
     * RA_MAX_LINE_LEN bytes */
    FZ_CHECK(!!(l->flags & RA_LF_TOO_LONG) == (l->raw.len > RA_MAX_LINE_LEN));
    FZ_CHECK(l->raw.len == 0 || l->offset == (size_t) (l->raw.data
                                                       - f->body.data));
    FZ_CHECK(l->offset <= RA_ROBOTS_MAX);
    n = l->raw.len < RA_MAX_LINE_LEN ? l->raw.len : RA_MAX_LINE_LEN;
    FZ_CHECK(fz_within(l->key_text, l->raw.data, n));
    FZ_CHECK(fz_within(l->value, l->raw.data, n));
    FZ_CHECK(l->kind <= RA_LINE_INVALID);
    FZ_CHECK(l->key <= RA_KEY_UNKNOWN);
    FZ_CHECK(ra_key_name(l->key) != NULL);
    if (l->kind == RA_LINE_DIRECTIVE) {
        f->directives++;
        FZ_CHECK(l->key != RA_KEY_NONE);
        if (l->key == RA_KEY_USER_AGENT) {
            tok = ra_ua_token(l->value);
            FZ_CHECK(fz_within(tok, l->value.data, l->value.len));
            (void) ra_ua_is_global(l->value);
        }
    } else {
        FZ_CHECK(l->key_text.len == 0);
    }
    return RA_OK;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_parse_t        f;
    ra_parse_info_t   info, cinfo;
    ra_rules_t       *rs;
    ra_rules_stats_t  st;

    memset(&f, 0, sizeof(f));
    f.body = ra_str(data, size);
    FZ_CHECK(ra_parse(f.body, on_line, &f, &info) == RA_OK);
    FZ_CHECK(info.lines == f.lines);
    FZ_CHECK(info.directives == f.directives);
    FZ_CHECK(info.bytes == size);
    FZ_CHECK(info.parsed == (size < RA_ROBOTS_MAX ? size : RA_ROBOTS_MAX));
    FZ_CHECK(info.truncated == (size > RA_ROBOTS_MAX));

    FZ_CHECK(ra_rules_compile(f.body, &ra_malloc_allocator, &rs, &cinfo)
             == RA_OK);
    FZ_CHECK(cinfo.lines == info.lines);
    ra_rules_stats(rs, &st);
    FZ_CHECK(st.rules <= info.directives);
    FZ_CHECK(st.sitemaps <= info.directives);
    FZ_CHECK(ra_rules_bytes(rs) > 0);
    ra_rules_free(rs);
    return 0;
}
