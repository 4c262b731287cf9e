/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private to the pieces of robots.txt lint (ra_lint.c, ra_lint_run.c,
 * ra_lint_http.c, ra_lint_line.c, ra_lint_aipref.c, ra_lint_group.c);
 * nothing else includes it.  The state of one ra_lint() run, which every check reads
 * and adds findings to, and the functions one piece lends another.
 */
#ifndef RA_LINT_IMPL_H
#define RA_LINT_IMPL_H

#include <string.h>

#include "ra_crawlers.h"
#include "ra_lint.h"
#include "ra_rules.h"

#define RA_LINT_MSG_MAX     1024    /* one message, bytes: 4 quotes fit */
#define RA_LINT_QUOTE_MAX   40      /* file bytes quoted in a message */
#define RA_LINT_QBUF        (RA_LINT_QUOTE_MAX * 4 + 8)
/* Content-Usage paths of a group compared for repeats */
#define RA_LINT_USAGE_PATHS 16

typedef struct {
    uint32_t        line;
    uint32_t        column;     /* of the value */
    ra_rule_type_e  type;
    ra_str_t        value;      /* as written, in the body */
    ra_str_t        norm;       /* Google's normalisation of value */
    unsigned        plain:1;    /* only bytes every mode reads alike */
} ra_lint_rule_t;

typedef struct {
    uint32_t   line;            /* first user-agent line */
    uint32_t   first;           /* index into rules */
    uint32_t   nrules;
    unsigned   global:1;        /* has a "*" user-agent */
    unsigned   prefs:1;         /* has Content-Signal or Content-Usage
                                   lines */
    unsigned   ruled:1;         /* has an Allow or Disallow line, empty
                                   ones too */
} ra_lint_group_t;

typedef struct {
    const ra_alloc_t   *a;
    ra_lint_t          *out;
    ra_str_t            body;
    unsigned            max_per_code;
    uint32_t            kept[RA_LINT_NCODES];
    uint32_t            cap;            /* of out->findings */
    int                 rc;
    unsigned            quiet:1;        /* body is not robots.txt text */

    ra_lint_rule_t     *rules;
    uint32_t            nrules, rules_cap;
    ra_lint_group_t    *groups;
    uint32_t            ngroups, groups_cap;
    unsigned            in_rules:1;     /* current group has had a rule */
    ra_str_t            group_agent;    /* its first User-agent value */
    unsigned            signals_seen;   /* Content-Signal categories in it */
    /* its Content-Usage rules' paths (the first RA_LINT_USAGE_PATHS),
     * the categories stated for each and whether all allow them: rules
     * of the same path combine */
    ra_str_t            usage_paths[RA_LINT_USAGE_PATHS];
    uint32_t            usage_lines[RA_LINT_USAGE_PATHS];
    uint8_t             usage_seen[RA_LINT_USAGE_PATHS];
    uint8_t             usage_allow[RA_LINT_USAGE_PATHS];
    unsigned            nusage;
    const ra_crawlers_t *crawlers;      /* policy tokens; NULL: none */

    /* the line the 500 KiB cut falls in, when it is cut mid-line */
    uint32_t            cut_line;
    size_t              cut_offset;
    ra_line_t           cut;
    unsigned            cut_mid:1;
    /* where the last line read starts: the cut falls in it when the limit
     * meets a line's end (an empty last line, or the CR of a split CRLF) */
    size_t              last_offset;
} ra_lint_ctx_t;

#define ra_lint_col(ln, p)                                                  \
    ((uint32_t) ((const unsigned char *) (p) - (ln)->raw.data) + 1)

/* A key, case-insensitively */
static inline int
ra_lint_is(ra_str_t key, const char *name)
{
    return ra_strcaseeq(key, ra_str(name, strlen(name)));
}

/* the vocabulary of findings (ra_lint.c) */
const char *ra_lint_quote(char *dst, ra_str_t s);
void ra_lint_add(ra_lint_ctx_t *ctx, ra_lint_code_e code, uint32_t line,
    uint32_t column, uint32_t lost, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

/* the answer and its bytes (ra_lint_http.c) */
size_t ra_lint_utf8_bad(const unsigned char *s, size_t len);
int ra_lint_status(ra_lint_ctx_t *ctx, const ra_lint_http_t *h);
void ra_lint_content_type(ra_lint_ctx_t *ctx, ra_str_t ct);
int ra_lint_is_html(ra_str_t b, uint32_t *line);
const char *ra_lint_utf16(ra_str_t b);
void ra_lint_bytes(ra_lint_ctx_t *ctx, const ra_line_t *ln);
void ra_lint_size(ra_lint_ctx_t *ctx, const ra_lint_http_t *h,
    const ra_parse_info_t *info);
void ra_lint_binary_finding(ra_lint_ctx_t *ctx, ra_str_t body,
    const char *what);

/* the checks of each line (ra_lint_line.c) */
int ra_lint_line(void *data, const ra_line_t *ln);

/* AI preferences and policy tokens (ra_lint_aipref.c) */
int ra_lint_ai_pref(ra_lint_ctx_t *ctx, const ra_line_t *ln);
const ra_crawler_t *ra_lint_policy(const ra_lint_ctx_t *ctx, ra_str_t tok);
void ra_lint_policy_token(ra_lint_ctx_t *ctx, const ra_line_t *ln,
    ra_str_t tok);

/* the group checks (ra_lint_group.c) */
void ra_lint_group(ra_lint_ctx_t *ctx, const ra_lint_group_t *g,
    size_t *budget, int *budget_told);
void ra_lint_assets_check(ra_lint_ctx_t *ctx);
void ra_lint_star_dropped(ra_lint_ctx_t *ctx);

#endif /* RA_LINT_IMPL_H */
