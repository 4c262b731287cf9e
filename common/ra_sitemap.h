/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Sitemaps (sitemaps.org protocol 0.9): the XML of a <urlset> or a
 * <sitemapindex>, read by a small streaming reader, and their lint
 * against the protocol's limits and the robots.txt in force.
 *
 * The reader is no general XML parser: it walks the document once, keeps
 * a bounded stack of open element names (RA_SM_DEPTH) and copies only
 * <loc> and <lastmod> text (entities undone) into fixed buffers, so that
 * its memory is constant and its time linear whatever the input is.  It
 * stops at the first error that makes the document no longer XML (tags
 * that do not nest, an unterminated comment, text outside the root),
 * as crawlers reject such a file.  The lint decodes gzip (by its magic
 * bytes, with zlib as it streams) up to RA_SM_MAX_BYTES bytes.
 */
#ifndef RA_SITEMAP_H
#define RA_SITEMAP_H

#include "ra_core.h"
#include "ra_rules.h"

#define RA_SM_MAX_URLS   50000u                  /* protocol limit */
#define RA_SM_MAX_BYTES  (50u * 1024 * 1024)     /* uncompressed */
#define RA_SM_LOC_MAX    2048u                   /* a URL's length */
#define RA_SM_DEPTH      32u                     /* open elements */
#define RA_SM_WINDOW     (32u * 1024)            /* a construct read in
                                                    pieces (ra_sm_parser_t) */

typedef enum {
    RA_SM_UNKNOWN = 0,
    RA_SM_URLSET,
    RA_SM_INDEX
} ra_sm_kind_e;

typedef enum {
    RA_SMF_DISALLOWED = 0,  /* robots.txt keeps a crawler from the URL */
    RA_SMF_OTHER_HOST,      /* the URL is on another host or scheme */
    RA_SMF_TOO_MANY,        /* more than RA_SM_MAX_URLS URLs */
    RA_SMF_TOO_BIG,         /* more than RA_SM_MAX_BYTES uncompressed */
    RA_SMF_MALFORMED,       /* not well-formed, or not a sitemap */
    RA_SMF_LASTMOD,         /* lastmod is no W3C datetime */
    RA_SMF_BAD_LOC,         /* loc is no absolute http(s) URL, or long */
    RA_SMF_UNDECODABLE,     /* gzip data that cannot be undone */
    RA_SMF_NCODES
} ra_sm_code_e;

const char *ra_sitemap_code_name(ra_sm_code_e code);  /* "disallowed" */

typedef struct {
    ra_sm_code_e  code;
    uint32_t      line;         /* in the (decoded) XML, 0: the file */
    ra_str_t      url;          /* the loc concerned (entities undone) */
    ra_str_t      detail;       /* a phrase, or the value at fault */
    ra_str_t      crawler;      /* disallowed: "*", "Googlebot", ... */
    ra_match_t    match;        /* disallowed: the deciding rule */
} ra_sm_finding_t;

/* Spans in a finding or an entry are valid during the call only. */
typedef void (*ra_sm_finding_cb)(void *ctx, const ra_sm_finding_t *f);

typedef struct {
    ra_str_t  loc;
    ra_str_t  lastmod;          /* empty when absent */
    uint32_t  line;             /* of the <loc> */
    unsigned  loc_cut:1;        /* longer than RA_SM_LOC_MAX: cut */
} ra_sm_entry_t;

typedef void (*ra_sm_entry_cb)(void *ctx, const ra_sm_entry_t *e);

typedef struct {
    ra_sm_kind_e  kind;
    uint32_t      entries;      /* <url> or <sitemap> elements with loc */
    uint32_t      lines;
    size_t        bytes;        /* XML bytes (decoded) */
    size_t        raw;          /* bytes given */
    unsigned      gzip:1;
    unsigned      complete:1;   /* read to the end without a fatal error */
    uint32_t      counts[RA_SMF_NCODES];
} ra_sm_summary_t;

/*
 * Reads a sitemap's XML: entry() for each <url>/<sitemap> that has a
 * <loc>, finding() for RA_SMF_MALFORMED (NULL callbacks are skipped).
 * sum is filled (kind, entries, lines, bytes, complete, the malformed
 * count).
 */
void ra_sitemap_parse(ra_str_t xml, ra_sm_entry_cb entry,
    ra_sm_finding_cb finding, void *ctx, ra_sm_summary_t *sum);

/*
 * The same reader fed piece by piece, as a server sends an answer: its
 * memory is ra_sm_parser_size() bytes whatever the document's size (a
 * tag, comment or CDATA section longer than RA_SM_WINDOW is an error).
 * The callbacks and sum are ra_sitemap_parse()'s; sum is final after
 * ra_sm_parser_end().
 */
typedef struct ra_sm_parser_s  ra_sm_parser_t;

size_t ra_sm_parser_size(void);
void ra_sm_parser_init(ra_sm_parser_t *p, ra_sm_entry_cb entry,
    ra_sm_finding_cb finding, void *ctx, ra_sm_summary_t *sum);
void ra_sm_parser_feed(ra_sm_parser_t *p, const void *data, size_t n);
void ra_sm_parser_end(ra_sm_parser_t *p);

/* Reading stops (the answer could not be decoded): sum's line count is
 * that of what was read, and nothing more is reported. */
void ra_sm_parser_stop(ra_sm_parser_t *p);

/*
 * Lints a sitemap as fetched (gzip or not): every finding of
 * ra_sm_code_e through cb.  url is the sitemap's own URL (empty: the
 * host of its first <loc> stands for it); rules may be NULL (then no
 * RA_SMF_DISALLOWED), else each URL is judged in RA_MODE_GOOGLE for "*",
 * Googlebot and Bingbot and every crawler it is disallowed for gives a
 * finding.  a holds the decoded text while it is read.  RA_OK or
 * RA_ENOMEM.
 */
int ra_sitemap_lint(ra_str_t body, ra_str_t url, const ra_rules_t *rules,
    const ra_alloc_t *a, ra_sm_finding_cb cb, void *ctx,
    ra_sm_summary_t *sum);

/*
 * The same lint as the answer comes, piece by piece: start (the state
 * from a, a fixed size, rules kept until the end), feed each piece as
 * served (gzip or not: its first two bytes say), end (the last findings,
 * sum final, the state given back).  RA_OK or RA_ENOMEM (end then still
 * gives the state back).
 */
typedef struct ra_sm_lint_s  ra_sm_lint_t;

int ra_sitemap_lint_start(ra_sm_lint_t **out, ra_str_t url,
    const ra_rules_t *rules, const ra_alloc_t *a, ra_sm_finding_cb cb,
    void *ctx, ra_sm_summary_t *sum);
int ra_sitemap_lint_feed(ra_sm_lint_t *x, const void *data, size_t n);
void ra_sitemap_lint_end(ra_sm_lint_t *x);

#endif /* RA_SITEMAP_H */
