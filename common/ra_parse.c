/* SPDX-License-Identifier: BSD-2-Clause */
#include <string.h>

#include "ra_parse.h"

static const unsigned char  ra_bom[3] = { 0xef, 0xbb, 0xbf };

/* Google's spellings, in the order robots.cc tries them. */
typedef struct {
    const char  *text;
    ra_key_e     key;
    unsigned     typo:1;
} ra_key_spelling_t;

static const ra_key_spelling_t  ra_keys[] = {
    { "user-agent", RA_KEY_USER_AGENT, 0 },
    { "useragent",  RA_KEY_USER_AGENT, 1 },
    { "user agent", RA_KEY_USER_AGENT, 1 },
    { "allow",      RA_KEY_ALLOW,      0 },
    { "disallow",   RA_KEY_DISALLOW,   0 },
    { "dissallow",  RA_KEY_DISALLOW,   1 },
    { "dissalow",   RA_KEY_DISALLOW,   1 },
    { "disalow",    RA_KEY_DISALLOW,   1 },
    { "diasllow",   RA_KEY_DISALLOW,   1 },
    { "disallaw",   RA_KEY_DISALLOW,   1 },
    { "sitemap",    RA_KEY_SITEMAP,    0 },
    { "site-map",   RA_KEY_SITEMAP,    1 },
};

const char *
ra_key_name(ra_key_e key)
{
    switch (key) {
    case RA_KEY_USER_AGENT: return "user-agent";
    case RA_KEY_ALLOW:      return "allow";
    case RA_KEY_DISALLOW:   return "disallow";
    case RA_KEY_SITEMAP:    return "sitemap";
    case RA_KEY_UNKNOWN:    return "unknown";
    default:                return "none";
    }
}

static const unsigned char *
ra_find_blank(const unsigned char *p, const unsigned char *end)
{
    for ( /* void */ ; p < end; p++) {
        if (*p == ' ' || *p == '\t') {
            return p;
        }
    }
    return NULL;
}

static void
ra_classify_key(ra_line_t *ln)
{
    size_t  i, n;

    /* An earlier spelling wins, as in robots.cc; "typo" is only reported
     * for the key that was taken. */
    for (i = 0; i < sizeof(ra_keys) / sizeof(ra_keys[0]); i++) {
        if (ra_startswith_ci(ln->key_text, ra_keys[i].text)) {
            ln->key = ra_keys[i].key;
            n = strlen(ra_keys[i].text);
            if (ra_keys[i].typo) {
                ln->flags |= RA_LF_TYPO;
            }
            if (ln->key_text.len > n) {
                ln->flags |= RA_LF_KEY_PREFIX;
            }
            return;
        }
    }
    ln->key = RA_KEY_UNKNOWN;
}

/* robots.cc GetKeyAndValueFrom() on a span. */
static void
ra_split_line(ra_line_t *ln)
{
    ra_str_t              text;
    const unsigned char  *p, *sep, *val, *end;

    text = ln->raw;
    if (text.len > RA_MAX_LINE_LEN) {
        text.len = RA_MAX_LINE_LEN;
        ln->flags |= RA_LF_TOO_LONG;
    }
    p = memchr(text.data, '\0', text.len);
    if (p != NULL) {
        text.len = (size_t) (p - text.data);
        ln->flags |= RA_LF_NUL;
    }
    p = memchr(text.data, '#', text.len);
    if (p != NULL) {
        text.len = (size_t) (p - text.data);
        ln->flags |= RA_LF_COMMENT;
    }

    text = ra_space_trim(text);
    if (text.len == 0) {
        ln->kind = (ln->flags & RA_LF_COMMENT) ? RA_LINE_COMMENT
                                               : RA_LINE_EMPTY;
        return;
    }

    ln->kind = RA_LINE_INVALID;
    end = text.data + text.len;

    sep = memchr(text.data, ':', text.len);
    if (sep == NULL) {
        /* Google: exactly two blank-separated tokens stand for "key: value" */
        sep = ra_find_blank(text.data, end);
        if (sep == NULL) {
            return;
        }
        for (val = sep; *val == ' ' || *val == '\t'; val++) { /* void */ }
        if (ra_find_blank(val, end) != NULL) {
            ln->flags |= RA_LF_MANY_TOKENS;
            return;
        }
        ln->flags |= RA_LF_NO_COLON;
    }

    ln->key_text = ra_space_trim(ra_str(text.data, (size_t) (sep - text.data)));
    if (ln->key_text.len == 0) {
        ln->flags |= RA_LF_NO_KEY;
        ln->flags &= ~(uint32_t) RA_LF_NO_COLON;
        return;
    }
    ln->value = ra_space_trim(ra_str(sep + 1, (size_t) (end - sep - 1)));
    ln->kind = RA_LINE_DIRECTIVE;
    ra_classify_key(ln);
}

int
ra_parse(ra_str_t body, ra_line_handler_pt handler, void *ctx,
    ra_parse_info_t *info)
{
    int                   rc, last_cr;
    size_t                skip;
    uint32_t              line_no, first_flags;
    ra_line_t             ln;
    ra_parse_info_t       dummy;
    const unsigned char  *p, *end, *start;

    if (info == NULL) {
        info = &dummy;
    }
    memset(info, 0, sizeof(*info));
    info->bytes = body.len;
    info->parsed = body.len;
    if (body.len > RA_ROBOTS_MAX) {
        info->parsed = RA_ROBOTS_MAX;
        info->truncated = 1;
    }

    /* A full or partial BOM is skipped: EF, EF BB or EF BB BF. */
    for (skip = 0; skip < 3 && skip < info->parsed; skip++) {
        if (body.data[skip] != ra_bom[skip]) {
            break;
        }
    }
    first_flags = 0;
    if (skip) {
        info->bom = skip == 3 ? 1 : 2;
        first_flags = skip == 3 ? RA_LF_BOM : RA_LF_PARTIAL_BOM;
    }

    p = body.data + skip;
    end = body.data + info->parsed;
    line_no = 0;
    last_cr = 0;

    for ( ;; ) {
        start = p;
        while (p < end && *p != '\n' && *p != '\r') {
            p++;
        }

        /* The LF of a CRLF ends nothing: the CR already ended the line. */
        if (p < end && *p == '\n' && p == start && last_cr) {
            last_cr = 0;
            p++;
            continue;
        }

        memset(&ln, 0, sizeof(ln));
        ln.line = ++line_no;
        ln.flags = first_flags;
        first_flags = 0;
        ln.offset = (size_t) (start - body.data);
        ln.raw = ra_str(start, (size_t) (p - start));
        if (p == end && info->truncated && *end != '\n' && *end != '\r') {
            ln.flags |= RA_LF_SIZE_CUT;
        }

        ra_split_line(&ln);
        info->lines++;
        if (ln.kind == RA_LINE_DIRECTIVE) {
            info->directives++;
        }

        rc = handler(ctx, &ln);
        if (rc != RA_OK) {
            return rc;
        }

        if (p == end) {
            break;
        }
        last_cr = (*p == '\r');
        p++;
    }

    return RA_OK;
}

int
ra_ua_is_global(ra_str_t v)
{
    return v.len >= 1 && v.data[0] == '*'
           && (v.len == 1 || ra_isspace(v.data[1]));
}

ra_str_t
ra_ua_token(ra_str_t v)
{
    size_t  n = 0;

    while (n < v.len
           && (ra_isalpha(v.data[n]) || v.data[n] == '-' || v.data[n] == '_'))
    {
        n++;
    }
    return ra_str(v.data, n);
}
