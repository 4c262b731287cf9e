/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The robots.txt that says which purposes may crawl: the block of groups
 * `robots-audit robots-txt` writes from the crawler table (which tokens
 * for which purposes), its merging into an existing file as a marked
 * block, and the reverse question, what a file lets each crawler of the
 * table do, decided by the modules' judge.
 *
 * Which tokens a disallowed purpose lists: every robots.txt token of its
 * crawlers (policy tokens such as Google-Extended included), in table
 * order, each once, except
 *   - a token a crawler of an allowed purpose also names: allow wins, so
 *     an allowed crawler never falls back on a disallowed group, and no
 *     "Allow: /" group is ever needed to undo one;
 *   - a token that is the first token of a crawler whose purpose is not
 *     disallowed (a fallback shared with it): listing it would shut out
 *     that crawler too;
 *   - a token of user-triggered crawlers only: their operators say
 *     robots.txt does not apply to them, so the block names them in a
 *     comment instead of pretending they obey;
 *   - a token the matchers cannot read whole ("bigsur.ai" is read as
 *     "bigsur").
 * Each exception is written as a comment line of the block.
 */
#ifndef RA_ROBOTSGEN_H
#define RA_ROBOTSGEN_H

#include "ra_buf.h"
#include "ra_core.h"
#include "ra_crawlers.h"
#include "ra_lint.h"
#include "ra_rules.h"

#define RA_ROBOTSGEN_BEGIN  "# BEGIN robots-audit"
#define RA_ROBOTSGEN_END    "# END robots-audit"

typedef struct {
    unsigned   disallow;        /* purposes, a bit per ra_crawler_category_e
                                   (ra_alert_purposes_parse()'s set) */
    unsigned   allow;           /* likewise; wins over disallow */
    ra_str_t   content_signal;  /* "search=yes, ai-train=no"; len 0: none */
} ra_robotsgen_opts_t;

/* Why a token of a disallowed purpose is or is not listed. */
typedef enum {
    RA_RG_LISTED = 0,
    RA_RG_DUPLICATE,            /* listed by an earlier purpose or crawler */
    RA_RG_ALLOWED,              /* an allowed purpose names it */
    RA_RG_SHARED,               /* first token of a crawler not disallowed */
    RA_RG_USER_TRIGGERED,       /* robots.txt does not apply to its crawlers */
    RA_RG_UNREADABLE            /* not a whole product token */
} ra_robotsgen_fate_e;

/* The fate of crawler c's token k under o; *who (may be NULL) is the
 * crawler that decided it (the allowed or sharing one). */
unsigned ra_robotsgen_fate(const ra_crawlers_t *t,
    const ra_robotsgen_opts_t *o, const ra_crawler_t *c, size_t k,
    const ra_crawler_t **who);

/* Appends the marked block, "# BEGIN ..." to "# END robots-audit\n".
 * NULL, or a static sentence (a content signal that cannot stand on a
 * line of its own; nothing disallowed). */
const char *ra_robotsgen_block(const ra_crawlers_t *t,
    const ra_robotsgen_opts_t *o, ra_buf_t *b);

/* Replaces the marked block of file with block (appended after a blank
 * line when file has none); everything else is kept byte for byte (a
 * final line without its newline gets one).  *start and *end: the
 * block's bytes in out.  NULL, or a static sentence (a BEGIN line
 * without its END). */
const char *ra_robotsgen_merge(ra_str_t file, ra_str_t block, ra_buf_t *out,
    size_t *start, size_t *end);

/* Lints text as `robots-audit lint` does (with the table t) into l and
 * returns how many of its warnings and errors are about lines of
 * text[start..end); -1 when out of memory. */
long ra_robotsgen_lint(ra_str_t text, size_t start, size_t end,
    const ra_crawlers_t *t, const ra_alloc_t *a, ra_lint_t *l);

typedef enum {
    RA_RG_ALLOW = 0,            /* "/" allowed, nothing disallowed */
    RA_RG_PARTLY,               /* "/" allowed, its group disallows paths */
    RA_RG_DISALLOW              /* "/" disallowed */
} ra_robotsgen_verdict_e;

typedef struct {
    unsigned   verdict;         /* ra_robotsgen_verdict_e */
    ra_str_t   group;           /* the token whose group applied, "*",
                                   or empty when none did */
    uint32_t   line;            /* the deciding line: the rule's, else the
                                   group's first User-agent line; 0 none */
} ra_robotsgen_judged_t;

/* What rs (compiled from body) lets crawler c do, as the judge decides
 * for the path "/", and whether its group disallows any path. */
int ra_robotsgen_judge(const ra_rules_t *rs, ra_str_t body,
    const ra_crawler_t *c, const ra_alloc_t *scratch,
    ra_robotsgen_judged_t *out);

const char *ra_robotsgen_verdict_name(unsigned verdict);

#endif /* RA_ROBOTSGEN_H */
