/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Known crawlers: User-Agent -> crawler (name, robots.txt tokens, category,
 * operator, flags, how to verify it), or a generic bot with the product
 * token it declares, or nothing (a browser).
 *
 * The table is text (data/crawlers.txt documents the format); the build
 * embeds the project's own file and operators may add files of their own
 * in the same format: a later entry with the same name replaces an earlier
 * one.  ra_crawlers_compile() turns all entries into one Aho-Corasick
 * automaton (flat arrays, lower-cased byte classes) that also holds the
 * generic-bot keywords, and a small one of the platform words browsers
 * carry, so that ra_crawlers_identify() makes one pass over a User-Agent
 * (plus, when nothing else decided, one up to the first platform word),
 * allocates nothing and is safe to call from many threads at once.
 */
#ifndef RA_CRAWLERS_H
#define RA_CRAWLERS_H

#include "ra_core.h"

typedef enum {
    RA_CAT_SEARCH = 0,
    RA_CAT_AI_TRAINING,
    RA_CAT_AI_SEARCH,
    RA_CAT_AI_USER,            /* "ai-user": agents and assistants
                                  fetching for a person */
    RA_CAT_SEO,
    RA_CAT_SOCIAL,             /* "social-preview" */
    RA_CAT_FEED,
    RA_CAT_MONITORING,
    RA_CAT_ARCHIVE,
    RA_CAT_TOOL,
    RA_CAT_ACADEMIC,           /* research and scholarly indexes */
    RA_CAT_SECURITY,           /* "security-scanner" */
    RA_CAT_MAX
} ra_crawler_category_e;

#define RA_CRAWLER_CRAWL_DELAY     0x01  /* honours Crawl-delay */
#define RA_CRAWLER_IGNORES_STAR    0x02  /* ignores the "*" group */
#define RA_CRAWLER_USER_TRIGGERED  0x04  /* robots.txt does not apply */
#define RA_CRAWLER_TOKEN_ONLY      0x08  /* no User-Agent carries it */
#define RA_CRAWLER_POLICY          0x10  /* a policy token: its group says
                                            how content may be used, no
                                            crawler fetches with it (implies
                                            RA_CRAWLER_TOKEN_ONLY) */
#define RA_CRAWLER_LIBRARY         0x20  /* an HTTP library or a tool that
                                            other clients are built on: its
                                            pieces count only as the
                                            User-Agent's first product */

typedef struct {
    ra_str_t         name;
    ra_str_t         operator_name;
    ra_str_t         url;
    ra_str_t         purpose;       /* policy tokens: "use of content for
                                       ..." as the operator states it */
    const ra_str_t  *tokens;        /* robots.txt tokens, best first */
    size_t           ntokens;       /* >= 1 */
    const ra_str_t  *ua;            /* User-Agent pieces, as written */
    size_t           nua;
    const ra_str_t  *ranges;        /* IP-range file names */
    size_t           nranges;
    const ra_str_t  *rdns;          /* reverse-DNS suffixes */
    size_t           nrdns;
    unsigned         category;      /* ra_crawler_category_e */
    unsigned         flags;         /* RA_CRAWLER_* */
    unsigned         id;            /* dense: 0 .. ra_crawlers_count()-1 */
    const ra_str_t  *sig_agents;    /* Web Bot Auth origins
                                       ("https://chatgpt.com") */
    size_t           nsig_agents;
} ra_crawler_t;

typedef enum {
    RA_UA_BROWSER = 0,              /* no crawler: counted in totals only */
    RA_UA_KNOWN,                    /* a crawler of the table */
    RA_UA_GENERIC                   /* plainly automated, not in the table */
} ra_ua_kind_e;

typedef struct {
    unsigned             kind;      /* ra_ua_kind_e */
    const ra_crawler_t  *crawler;   /* RA_UA_KNOWN only, else NULL */
    /*
     * The robots.txt token to report: the crawler's first token, or for a
     * generic bot the product it declares (a span into the User-Agent;
     * len 0 when it declares none).
     */
    ra_str_t             token;
} ra_identity_t;

/* A client that sent no User-Agent: an empty one, or "-" as access logs
 * write an absent header.  Neither a browser nor a crawler: counted apart
 * (no_user_agent), never judged. */
static inline int
ra_ua_absent(ra_str_t ua)
{
    return ua.len == 0 || (ua.len == 1 && ua.data[0] == '-');
}

typedef struct {
    size_t       line;              /* 1-based; 0 when not about a line */
    const char  *msg;               /* static text */
} ra_crawlers_err_t;

typedef struct ra_crawlers_s  ra_crawlers_t;

/* Limits: an operator's file is text a person writes, so these are far
 * above any real table and still bound load time and memory. */
#define RA_CRAWLERS_MAX_FILE      (4u * 1024 * 1024)
#define RA_CRAWLERS_MAX_LINE      1024
#define RA_CRAWLERS_MAX_ENTRIES   4096
#define RA_CRAWLERS_MAX_NAME      64
/* The automaton is built with 16-bit state numbers: about 32,000 pattern
 * bytes, some six times the built-in table. */
#define RA_CRAWLERS_MAX_STATES    32767
/* identify() reads at most this much of a User-Agent: real ones are under
 * 1 KiB, and nginx refuses header lines over 8 KiB by default. */
#define RA_CRAWLERS_MAX_UA        16384

/* An empty table to add files to; NULL when out of memory. */
ra_crawlers_t *ra_crawlers_create(const ra_alloc_t *a);

/* Adds the table built into the binary (data/crawlers.txt). */
int ra_crawlers_add_builtin(ra_crawlers_t *t, ra_crawlers_err_t *err);

/*
 * Adds entries from the text of a crawler file; the text is copied.
 * RA_OK, RA_ERROR (err says where and why; nothing of the file is kept),
 * RA_ELIMIT, RA_ENOMEM.  Refused once compiled.
 */
int ra_crawlers_add(ra_crawlers_t *t, ra_str_t text, ra_crawlers_err_t *err);

/* Merges the entries and builds the automaton; then the table is
 * read-only.  RA_OK, RA_ELIMIT, RA_ENOMEM, RA_ERROR (already compiled). */
int ra_crawlers_compile(ra_crawlers_t *t, ra_crawlers_err_t *err);

/* Identifies a User-Agent (any bytes).  Returns out->kind. */
int ra_crawlers_identify(const ra_crawlers_t *t, ra_str_t ua,
    ra_identity_t *out);

size_t ra_crawlers_count(const ra_crawlers_t *t);
const ra_crawler_t *ra_crawlers_get(const ra_crawlers_t *t, size_t id);
/* By name (case-insensitive); NULL when absent. */
const ra_crawler_t *ra_crawlers_find(const ra_crawlers_t *t, ra_str_t name);
/* The first crawler having this robots.txt token; NULL when none. */
const ra_crawler_t *ra_crawlers_find_token(const ra_crawlers_t *t,
    ra_str_t token);

/* 1 when c's "signature-agent" origins include one of this host (as
 * ra_origin_host() gives it), else 0. */
int ra_crawler_signs_as(const ra_crawler_t *c, ra_str_t host);
/* The first crawler of the table signing as that origin host; NULL when
 * none. */
const ra_crawler_t *ra_crawlers_find_signature_agent(const ra_crawlers_t *t,
    ra_str_t host);

/* Bytes the automaton's arrays take (for status pages and tests). */
size_t ra_crawlers_automaton_size(const ra_crawlers_t *t);

/*
 * The purpose an operator decides on (its "category" in the table, shown
 * as "purpose"): "search", "ai-training", "ai-search", "ai-user", "seo",
 * "social-preview", "feed", "monitoring", "archive", "tool", "academic",
 * "security-scanner"; "unknown" out of range (a generic bot).
 */
const char *ra_crawler_category_name(unsigned category);

/* The category of that name (the names above; "ai-user-triggered", the
 * table's former spelling, is "ai-user"); RA_CAT_MAX when none. */
unsigned ra_crawler_category_of(ra_str_t name);

/* The i-th flag word of the table's format ("crawl-delay", "library",
 * ...) and, in *bits, the flags it sets: a crawler carries the word when
 * it has all of them.  NULL past the last word. */
const char *ra_crawler_flag_name(size_t i, unsigned *bits);

#endif /* RA_CRAWLERS_H */
