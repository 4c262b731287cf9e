/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * robots.txt tokenizer: bytes -> one event per line.
 *
 * Reads a body exactly as Google's reference parser (google/robotstxt
 * robots.cc) does, on spans: CR, LF and CRLF end lines; a full or partial
 * UTF-8 BOM at the start is skipped; only the first RA_MAX_LINE_LEN bytes of
 * a line are kept; a NUL ends the line's text; '#' starts a comment; keys
 * are case-insensitive, matched by prefix, with Google's accepted
 * misspellings; a line with exactly two whitespace-separated tokens is
 * accepted without a colon.  Nothing past RA_ROBOTS_MAX bytes is read.
 *
 * The parser keeps no state between calls and allocates nothing: every span
 * in an event points into the caller's body.
 */
#ifndef RA_PARSE_H
#define RA_PARSE_H

#include "ra_core.h"

/* RFC 9309 2.5: parsing limit of at least 500 KiB; Google stops there. */
#define RA_ROBOTS_MAX     512000

/* google/robotstxt kMaxLineLen (2083 * 8) includes the NUL terminator. */
#define RA_MAX_LINE_LEN   16663

typedef enum {
    RA_LINE_EMPTY = 0,     /* nothing but white space */
    RA_LINE_COMMENT,       /* nothing but a comment */
    RA_LINE_DIRECTIVE,     /* a key and a (possibly empty) value */
    RA_LINE_INVALID        /* text with no usable key/value separator */
} ra_line_kind_e;

typedef enum {
    RA_KEY_NONE = 0,
    RA_KEY_USER_AGENT,
    RA_KEY_ALLOW,
    RA_KEY_DISALLOW,
    RA_KEY_SITEMAP,
    RA_KEY_UNKNOWN
} ra_key_e;

#define RA_LF_TYPO          0x0001  /* misspelt key Google accepts */
#define RA_LF_KEY_PREFIX    0x0002  /* key only starts with a known key */
#define RA_LF_NO_COLON      0x0004  /* white space stood in for ':' */
#define RA_LF_TOO_LONG      0x0008  /* cut to RA_MAX_LINE_LEN bytes */
#define RA_LF_NUL           0x0010  /* a NUL byte ended the line early */
#define RA_LF_COMMENT       0x0020  /* the line has a '#' comment */
#define RA_LF_SIZE_CUT      0x0040  /* RA_ROBOTS_MAX fell inside this line */
#define RA_LF_BOM           0x0080  /* line 1: a UTF-8 BOM was skipped */
#define RA_LF_PARTIAL_BOM   0x0100  /* line 1: a partial BOM was skipped */
#define RA_LF_MANY_TOKENS   0x0200  /* invalid: 3+ tokens and no colon */
#define RA_LF_NO_KEY        0x0400  /* invalid: nothing before ':' */

typedef struct {
    uint32_t        line;       /* 1-based, as the reference parser counts */
    ra_line_kind_e  kind;
    ra_key_e        key;
    uint32_t        flags;      /* RA_LF_* */
    size_t          offset;     /* of raw.data in the body */
    ra_str_t        raw;        /* the whole line without its end */
    ra_str_t        key_text;   /* inside raw; empty unless a directive */
    ra_str_t        value;      /* inside raw; comment and blanks removed */
} ra_line_t;

typedef struct {
    size_t    bytes;            /* body length as given */
    size_t    parsed;           /* bytes read: min(bytes, RA_ROBOTS_MAX) */
    uint32_t  lines;            /* events emitted */
    uint32_t  directives;
    unsigned  bom:2;            /* 0 none, 1 full, 2 partial */
    unsigned  truncated:1;      /* bytes > RA_ROBOTS_MAX */
} ra_parse_info_t;

/* Return RA_OK to go on; anything else stops ra_parse(), which returns it. */
typedef int (*ra_line_handler_pt)(void *ctx, const ra_line_t *line);

/* Emits every line in order; info may be NULL.  Returns RA_OK or the
 * handler's code. */
int ra_parse(ra_str_t body, ra_line_handler_pt handler, void *ctx,
    ra_parse_info_t *info);

const char *ra_key_name(ra_key_e key);

/*
 * A user-agent line's value as Google's matcher reads it: "*", or "*"
 * followed by white space and anything, is the global group; otherwise the
 * product token is the leading run of [A-Za-z_-] ("FooBot/1.2" -> "FooBot",
 * "MJ12bot" -> "MJ", "*bot" -> "").
 */
int ra_ua_is_global(ra_str_t value);
ra_str_t ra_ua_token(ra_str_t value);

#endif /* RA_PARSE_H */
