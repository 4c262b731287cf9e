/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * robots.txt lint: what crawlers will make of what the server sends.
 *
 * ra_lint() reads a body with the one parser (ra_parse.h), together with
 * the HTTP facts of the answer (status, Content-Type, size, truncation,
 * redirects), and returns findings.  Each finding has a stable code (the
 * table in ra_lint.c and README; codes are never renamed or reused), a
 * severity fixed by its code, a place and a message that says what
 * crawlers do and which ones:
 *
 *   error    crawlers will not do what the file's author intends
 *   warning  a likely mistake, or behaviour that depends on the crawler
 *   info     worth knowing, nothing to fix
 *
 * The body is linted only when crawlers read it: with a 2xx status or an
 * unknown one (0).  Other statuses give one finding about the status.
 *
 * Places: line is 1-based as the parser counts lines; column is the
 * 1-based byte offset in that line (bytes, not characters; line 1 starts
 * after a skipped BOM).  Findings about the answer as a whole (status,
 * Content-Type, redirects, an empty file) have line 0 and column 0.
 *
 * Everything is allocated from the caller's allocator; scratch memory is
 * returned through ra_free() when the allocator can free.  Output is
 * bounded whatever the input: at most max_per_code findings per code are
 * kept (the rest are counted in suppressed[]), messages quote at most a
 * few dozen bytes of the file, escaped to printable ASCII.  Time is linear
 * in the body except for the shadowed-rule analysis, which has a fixed
 * work budget (RA_LINT_SHADOW_BUDGET) and says so when it runs out.
 */
#ifndef RA_LINT_H
#define RA_LINT_H

#include "ra_buf.h"
#include "ra_core.h"
#include "ra_parse.h"

typedef enum {
    RA_SEV_INFO = 0,
    RA_SEV_WARNING,
    RA_SEV_ERROR
} ra_severity_e;

/* Stable codes; the order only groups them (answer, bytes, lines, groups).
 * New codes go at the end. */
typedef enum {
    RA_LC_STATUS_UNREACHABLE = 0,   /* 5xx, 429 */
    RA_LC_STATUS_FORBIDDEN,         /* 401, 403 */
    RA_LC_STATUS_MISSING,           /* 404, 410 */
    RA_LC_STATUS_CLIENT_ERROR,      /* other 4xx */
    RA_LC_STATUS_REDIRECT,          /* 3xx as the final answer */
    RA_LC_STATUS_UNUSUAL,           /* 1xx, >= 600 */
    RA_LC_REDIRECT_LIMIT,           /* more than 5 hops */
    RA_LC_REDIRECTS,                /* 1..5 hops */
    RA_LC_CONTENT_TYPE,
    RA_LC_CHARSET,
    RA_LC_TRUNCATED_BODY,           /* the fetcher kept only a prefix */
    RA_LC_EMPTY,
    RA_LC_SIZE_LIMIT,               /* over 500 KiB */
    RA_LC_HTML,
    RA_LC_ENCODING,                 /* UTF-16 / UTF-32 */
    RA_LC_BOM,
    RA_LC_BOM_INSIDE,
    RA_LC_INVALID_UTF8,
    RA_LC_NUL,
    RA_LC_CONTROL_CHAR,
    RA_LC_LINE_TOO_LONG,
    RA_LC_INVALID_LINE,
    RA_LC_NO_COLON,
    RA_LC_TYPO,
    RA_LC_KEY_PREFIX,
    RA_LC_UNKNOWN_KEY,
    RA_LC_NOINDEX,
    RA_LC_NONSTANDARD_KEY,
    RA_LC_CRAWL_DELAY,
    RA_LC_CRAWL_DELAY_VALUE,
    RA_LC_OUTSIDE_GROUP,
    RA_LC_UA_EMPTY,
    RA_LC_UA_TOKEN,
    RA_LC_UA_VERSION,
    RA_LC_PATH_START,
    RA_LC_PATH_SPACE,
    RA_LC_DOLLAR_MIDDLE,
    RA_LC_BAD_PERCENT,
    RA_LC_SITEMAP_URL,
    RA_LC_RFC_GOOGLE_DIFF,
    RA_LC_ROBOTS_TXT_RULE,
    RA_LC_DISALLOW_ALL,
    RA_LC_SAME_PATTERN,             /* allow and disallow, same pattern */
    RA_LC_DUPLICATE_RULE,
    RA_LC_SHADOWED_RULE,
    RA_LC_BLOCKS_ASSETS,
    RA_LC_ANALYSIS_LIMIT,
    RA_LC_CONTENT_ENCODING,         /* a coding that cannot be undone */
    RA_LC_BINARY,                   /* compressed or binary data */
    RA_LC_GROUP_REPLACES_STAR,      /* a group drops rules of "*" */
    RA_LC_CONTENT_SIGNAL,           /* a Content-Signal line readers drop */
    RA_LC_CONTENT_USAGE,            /* a Content-Usage line readers drop */
    RA_LC_AI_PREFERENCE,            /* what an AI-preference line states */
    RA_LC_POLICY_TOKEN,             /* a group for a policy token */
    RA_LINT_NCODES
} ra_lint_code_e;

#define RA_LINT_PER_CODE        10      /* default max_per_code */
#define RA_LINT_MAX_REDIRECTS   5       /* RFC 9309 2.3.1.2, Google */
#define RA_LINT_MAX_CRAWL_DELAY 60      /* seconds; beyond is "absurd" */
/* Glob steps the shadowed-rule analysis may spend on one file: enough for
 * thousands of rules, small enough for well under 100 ms. */
#define RA_LINT_SHADOW_BUDGET   (8u * 1024 * 1024)
/* Matcher calls the group-replaces-star check may make on one file. */
#define RA_LINT_STAR_BUDGET     65536u

/* The answer the body came with.  Zero-initialise: every field has
 * "unknown" as its zero, which is how a local file is linted. */
typedef struct {
    int        status;          /* final HTTP status; 0 unknown */
    ra_str_t   content_type;    /* header value; data NULL: unknown,
                                   len 0 with data: header absent */
    size_t     size;            /* bytes the server sent; 0: body.len */
    unsigned   truncated:1;     /* body is only a prefix of what was sent */
    unsigned   undecodable:1;   /* the last answer's content_encoding
                                   could not be undone (the body given,
                                   if any, is the version still in force;
                                   data NULL: none) */
    ra_str_t   content_encoding;    /* the header as sent; len 0: none */
    unsigned   redirects;       /* hops followed before this answer */
    unsigned   max_per_code;    /* findings kept per code; 0: default */
    /* a compiled crawler table: names what a group for a policy token
     * (Google-Extended) controls; NULL: no such finding */
    const struct ra_crawlers_s  *crawlers;
} ra_lint_http_t;

typedef struct {
    ra_lint_code_e  code;
    ra_severity_e   severity;
    uint32_t        line;       /* 0: the answer as a whole */
    uint32_t        column;     /* 1-based byte column; 0 with line 0 */
    uint32_t        lost_rules; /* size-limit: rules past the cut */
    uint32_t        seq;        /* order of discovery (ties in sorting) */
    ra_str_t        message;    /* printable ASCII, from the allocator */
} ra_lint_finding_t;

typedef struct {
    size_t     bytes;           /* size of the answer (http.size or body) */
    size_t     parsed;          /* bytes crawlers read: <= RA_ROBOTS_MAX */
    uint32_t   lines;
    uint32_t   groups;
    uint32_t   agents;          /* user-agent lines in groups */
    uint32_t   rules;           /* allow/disallow with a value, in groups */
    uint32_t   allows;
    uint32_t   disallows;
    uint32_t   sitemaps;        /* sitemap lines with a value */
    uint32_t   lost_rules;      /* allow/disallow past RA_ROBOTS_MAX */
    uint32_t   errors;          /* every finding, suppressed ones too */
    uint32_t   warnings;
    uint32_t   infos;
    uint32_t   suppressed;      /* findings counted but not kept */
    int        status;
    unsigned   body_linted:1;   /* 0 when the status means crawlers do
                                   not read the body */
} ra_lint_summary_t;

/*
 * What the file states beyond crawl rules, for reports to show per site:
 * AI-preference lines (Content-Signal, Content-Usage) that read well, and
 * groups for policy tokens.  Printable ASCII, cut to fit.
 */
#define RA_LINT_MAX_PREFS       8
#define RA_LINT_PREF_AGENT      48
#define RA_LINT_PREF_TEXT       160

typedef enum {
    RA_LINT_PREF_SIGNAL = 0,        /* Content-Signal: search=yes, ... */
    RA_LINT_PREF_USAGE,             /* Content-Usage: [/path] train-ai=n */
    RA_LINT_PREF_POLICY             /* User-agent: Google-Extended */
} ra_lint_pref_kind_e;

typedef struct {
    uint32_t   line;
    unsigned   kind;                        /* ra_lint_pref_kind_e */
    char       agent[RA_LINT_PREF_AGENT];   /* the group's first agent;
                                               the token, for a policy */
    char       text[RA_LINT_PREF_TEXT];     /* the value as written; what
                                               a policy token controls */
} ra_lint_pref_t;

typedef struct {
    ra_lint_finding_t  *findings;   /* sorted by line, column */
    uint32_t            nfindings;
    uint32_t            suppressed[RA_LINT_NCODES];
    ra_lint_summary_t   summary;
    ra_lint_pref_t      prefs[RA_LINT_MAX_PREFS];
    uint32_t            nprefs;
    uint32_t            more_prefs;     /* past RA_LINT_MAX_PREFS */
} ra_lint_t;

/* Lints body as served with http (NULL: a local file).  out is
 * overwritten.  Returns RA_OK or RA_ENOMEM (out then holds what was found
 * so far). */
int ra_lint(ra_str_t body, const ra_lint_http_t *http, const ra_alloc_t *a,
    ra_lint_t *out);

/* Returns what ra_lint() kept in out to an allocator that can free (a
 * pool or arena needs no call). */
void ra_lint_free(ra_lint_t *out, const ra_alloc_t *a);

/* What a body that is not text is ("gzip-compressed data", ...), or NULL
 * for text (UTF-16 is text in another encoding: RA_LC_ENCODING).  Looks at
 * the first bytes only: magic numbers, then the share of NUL and control
 * bytes.  The `binary` finding, and `check` refusing such a file. */
const char *ra_lint_binary(ra_str_t body);

const char *ra_lint_code_name(ra_lint_code_e code);    /* "size-limit" */
ra_severity_e ra_lint_code_severity(ra_lint_code_e code);
const char *ra_lint_severity_name(ra_severity_e sev);  /* "error" */
/* Code by name, or RA_LINT_NCODES when unknown. */
ra_lint_code_e ra_lint_code_by_name(ra_str_t name);

/*
 * The compiler form every front end prints or logs, without a newline:
 *   FILE:LINE:COL: severity: message [code]
 *   FILE: N groups, N rules, N sitemaps, N bytes; N errors, N warnings, N infos
 * Bytes of FILE (and of the message, though lint keeps it printable) that
 * are not printable ASCII become \xHH.
 */
void ra_lint_format_finding(ra_buf_t *b, ra_str_t file,
    const ra_lint_finding_t *f);
void ra_lint_format_summary(ra_buf_t *b, ra_str_t file,
    const ra_lint_summary_t *s);

/*
 * The whole text report, as `robots-audit lint` prints it and the modules
 * log it at start: every finding, a note per code whose findings were cut
 * ("FILE: note: 3 more [typo] findings not shown"), then the summary.
 * emit() gets each line without a newline, with its severity (the
 * summary's is its worst finding's); scratch holds the line and is reset
 * between lines.
 */
typedef void (*ra_lint_line_pt)(void *ctx, ra_severity_e sev, ra_str_t line);

void ra_lint_lines(const ra_lint_t *l, ra_str_t file, ra_buf_t *scratch,
    ra_lint_line_pt emit, void *ctx);

#endif /* RA_LINT_H */
