/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Page-level directives: what an answer tells crawlers about the page
 * itself, in its X-Robots-Tag headers and in the robots meta tags of its
 * HTML head, and where these contradict robots.txt.
 *
 * Both sources are read into one shape, a list of scopes: the directives
 * for every crawler (an X-Robots-Tag value without a user-agent prefix,
 * <meta name="robots">) and those for one named crawler ("googlebot:
 * noindex", <meta name="googlebot">).  Parsing never allocates: a scope
 * points into the text it was read from, which must outlive it, and a
 * page keeps at most RA_PD_SCOPES scopes (the rest are counted).  The
 * HTML scan reads at most RA_PD_SCAN bytes, once, left to right: its
 * cost is linear in that window whatever the bytes are.
 */
#ifndef RA_PAGEDIR_H
#define RA_PAGEDIR_H

#include "ra_core.h"
#include "ra_rules.h"

#define RA_PD_SCAN      (16u * 1024)    /* bytes of HTML scanned at most */
#define RA_PD_SCOPES    8               /* scopes kept per source */

/* One bit per directive; "none" sets noindex and nofollow too, as
 * crawlers read it. */
#define RA_PD_NOINDEX           0x00001u
#define RA_PD_NOFOLLOW          0x00002u
#define RA_PD_NONE              0x00004u
#define RA_PD_NOARCHIVE         0x00008u
#define RA_PD_NOSNIPPET         0x00010u
#define RA_PD_MAX_SNIPPET       0x00020u
#define RA_PD_UNAVAILABLE_AFTER 0x00040u
#define RA_PD_NOAI              0x00080u
#define RA_PD_NOIMAGEAI         0x00100u
#define RA_PD_NOCACHE           0x00200u
#define RA_PD_NOIMAGEINDEX      0x00400u
#define RA_PD_NOTRANSLATE       0x00800u
#define RA_PD_MAX_IMAGE_PREVIEW 0x01000u
#define RA_PD_MAX_VIDEO_PREVIEW 0x02000u
#define RA_PD_INDEXIFEMBEDDED   0x04000u
#define RA_PD_INDEX             0x08000u
#define RA_PD_FOLLOW            0x10000u
#define RA_PD_ALL               0x20000u
#define RA_PD_NDIRECTIVES       18

/* The directives that keep something from a crawler (the others allow,
 * or only shape a snippet's size). */
#define RA_PD_RESTRICTIVE  (RA_PD_NOINDEX | RA_PD_NOFOLLOW | RA_PD_NONE       \
    | RA_PD_NOARCHIVE | RA_PD_NOSNIPPET | RA_PD_NOAI | RA_PD_NOIMAGEAI        \
    | RA_PD_NOCACHE | RA_PD_NOIMAGEINDEX | RA_PD_NOTRANSLATE                  \
    | RA_PD_UNAVAILABLE_AFTER)

typedef enum {
    RA_PD_HEADER = 0,       /* X-Robots-Tag */
    RA_PD_META              /* <meta name="robots|CRAWLER"> */
} ra_pd_source_e;

typedef struct {
    uint32_t  flags;                /* RA_PD_* */
    int32_t   max_snippet;          /* characters, -1 no limit; valid
                                       with RA_PD_MAX_SNIPPET */
    ra_str_t  unavailable_after;    /* the date as written */
    unsigned  date_ok:1;            /* it reads as RFC 822/850/1123 or
                                       ISO 8601 */
    uint32_t  unknown;              /* directives not understood */
    ra_str_t  first_unknown;        /* the first of them */
} ra_pd_set_t;

typedef struct {
    ra_str_t        agent;          /* empty: every crawler */
    ra_pd_source_e  source;
    ra_pd_set_t     set;
} ra_pd_scope_t;

typedef struct {
    ra_pd_scope_t  scopes[RA_PD_SCOPES];
    uint32_t       nscopes;
    uint32_t       dropped;         /* scopes past RA_PD_SCOPES */
    uint32_t       metas;           /* robots meta tags read */
    uint32_t       headers;         /* X-Robots-Tag values read */
    unsigned       scan_cut:1;      /* the head went on past RA_PD_SCAN */
} ra_pagedir_t;

void ra_pagedir_init(ra_pagedir_t *pd);

/* ra_pagedir_init(), then the n X-Robots-Tag values of an answer
 * (ra_pagedir_header()), before its head is scanned. */
void ra_pagedir_start(ra_pagedir_t *pd, const ra_str_t *values, size_t n);

/*
 * Adds one X-Robots-Tag value (call once per header line): a comma
 * separated list of directives, each list or part of it after a
 * "user-agent:" prefix applying to that crawler only, as Google documents
 * it ("googlebot: noindex, nofollow", "unavailable_after: 25 Jun 2010
 * 15:00:00 PST", "googlebot: nofollow, otherbot: noindex").  A comma
 * inside unavailable_after's date after a weekday ("Fri, 25 Jun ...")
 * belongs to the date.
 */
void ra_pagedir_header(ra_pagedir_t *pd, ra_str_t value);

/*
 * Scans the first RA_PD_SCAN bytes of an HTML document for robots meta
 * tags: <meta name="robots" content="..."> and <meta name="CRAWLER"
 * content="..."> (names and attributes case-insensitive, in any order,
 * values quoted with ' or " or not at all).  A meta tag names a crawler
 * when its content is a non-empty list of directives only (so that
 * "viewport" and "description" never read as crawlers).  Comments,
 * scripts and styles are skipped; the scan stops at </head> or <body.
 * Returns 1 when it stopped there (the head ended within html), else 0:
 * a server that holds the first bytes of an answer in memory reads them
 * in place when they hold the whole head.
 */
int ra_pagedir_html(ra_pagedir_t *pd, ra_str_t html);

/* Parses one directive list into set (added to what set holds). */
void ra_pagedir_list(ra_pd_set_t *set, ra_str_t list);

/* Adds a directive list to the scope of (source, agent), made only when
 * the list holds something; 1 if it was kept. */
int ra_pagedir_add(ra_pagedir_t *pd, ra_pd_source_e source, ra_str_t agent,
    ra_str_t list);

/*
 * What applies to crawler (a product token, "Googlebot"; empty: a
 * crawler that none of the scopes names) from the scopes of the sources
 * in mask (1 << RA_PD_HEADER, 1 << RA_PD_META): the union, most
 * restrictive max-snippet.  Returns how many scopes contributed.
 */
unsigned ra_pagedir_for(const ra_pagedir_t *pd, unsigned mask,
    ra_str_t crawler, ra_pd_set_t *out);

/* The directive's name for bit (one RA_PD_* bit), NULL if none. */
const char *ra_pagedir_name(uint32_t bit);

/* Does date read as one of the formats Google lists for
 * unavailable_after (RFC 822/1123, RFC 850, ISO 8601)? */
int ra_pagedir_date_ok(ra_str_t date);

/*
 * Conflicts between page directives and robots.txt, and between the
 * sources of one answer:
 *   (a) noindex-disallowed  noindex for a crawler that robots.txt keeps
 *                           from the path: it can never see the noindex,
 *                           and may list the bare URL from links;
 *   (b) noindex-crawled     a noindex page a verified search crawler
 *                           fetches again and again (needs history: the
 *                           modules' ledger);
 *   (c) header-meta         X-Robots-Tag and the meta tags give one
 *                           crawler different restrictive directives;
 *   (d) ignored             directives a named crawler does not honour.
 */
typedef enum {
    RA_CONFLICT_NOINDEX_DISALLOWED = 0,
    RA_CONFLICT_NOINDEX_CRAWLED,
    RA_CONFLICT_HEADER_META,
    RA_CONFLICT_IGNORED,
    RA_CONFLICT_KINDS
} ra_conflict_kind_e;

const char *ra_conflict_kind_name(ra_conflict_kind_e kind);

typedef struct {
    ra_conflict_kind_e  kind;
    ra_str_t            crawler;    /* "*" for every crawler */
    uint32_t            flags;      /* the directives concerned: (a)
                                       noindex, (c) those that differ,
                                       (d) those ignored */
    ra_match_t          match;      /* (a): robots.txt's deciding rule */
} ra_conflict_t;

typedef void (*ra_conflict_cb)(void *ctx, const ra_conflict_t *c);

/*
 * The conflicts of one answer for path (kinds a, c, d), for every crawler
 * ("*"), Googlebot, Bingbot and each crawler a scope names.  rules may be
 * NULL (then no kind a).  Judged in RA_MODE_GOOGLE, without allocating
 * (a path longer than RA_MATCH_STACK is judged on its start).
 */
void ra_pagedir_conflicts(const ra_pagedir_t *pd, const ra_rules_t *rules,
    ra_str_t path, ra_conflict_cb cb, void *ctx);

/* The same, also for crawler also (a product token; empty: none) when
 * it is none of those: the crawler that got the answer. */
void ra_pagedir_conflicts_with(const ra_pagedir_t *pd,
    const ra_rules_t *rules, ra_str_t path, ra_str_t also, ra_conflict_cb cb,
    void *ctx);

/* The directives of flags that crawler (a product token) is documented
 * not to honour; 0 for a crawler the table does not know. */
uint32_t ra_pagedir_ignored(ra_str_t crawler, uint32_t flags);

#endif /* RA_PAGEDIR_H */
