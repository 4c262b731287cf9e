/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Compiled robots.txt rule sets and the matcher.
 *
 * ra_rules_compile() parses a body once into an immutable rule set;
 * ra_rules_match() is then a pure function of (rule set, mode, agents, path)
 * that allocates nothing for paths up to RA_MATCH_STACK bytes.  A rule set
 * may be shared by any number of threads.
 *
 * Group selection follows google/robotstxt: user-agent values are cut to
 * their product token and compared case-insensitively with the caller's
 * tokens, which are taken verbatim; groups naming the same token are merged;
 * a group for the token replaces "*" even when it has no rules.  The caller
 * passes its tokens in order of preference (e.g. "Googlebot-Image" then
 * "Googlebot"): the first one that names a group decides.
 *
 * Matching: longest pattern wins (pattern bytes after %-normalisation, '*'
 * and '$' included), allow wins ties, '*' is any run of bytes, a final '$'
 * anchors, "Allow: .../index.htm*" also allows the directory itself.  Cost
 * is O(path + pattern) per candidate rule: no backtracking.
 *
 *   RA_MODE_GOOGLE  byte for byte what the reference library decides: only
 *                   the rule is normalised (bytes >= 0x80 and %xx escapes to
 *                   upper-case %XX); the URL is compared as given.
 *   RA_MODE_RFC     RFC 9309 2.2.2: URL and rule are both normalised
 *                   (%-escapes of unreserved bytes decoded, non-ASCII and
 *                   other bytes not allowed in a URI %-encoded, hex upper
 *                   case, a literal '*' or '$' in the URL is %2A / %24), and
 *                   /robots.txt is always allowed.
 */
#ifndef RA_RULES_H
#define RA_RULES_H

#include "ra_core.h"
#include "ra_parse.h"

typedef enum {
    RA_MODE_RFC = 0,
    RA_MODE_GOOGLE = 1
} ra_mode_e;

#define RA_MODES            2
#define RA_MATCH_STACK      4096    /* longer normalised paths allocate */

typedef enum {
    RA_RULE_NONE = 0,
    RA_RULE_ALLOW,
    RA_RULE_DISALLOW
} ra_rule_type_e;

typedef enum {
    RA_WHY_RULE = 0,        /* a rule decided */
    RA_WHY_NO_MATCH,        /* a group applies, none of its rules matched */
    RA_WHY_NO_GROUP,        /* no group for the agent and no "*" group */
    RA_WHY_ROBOTS_TXT       /* rfc mode: /robots.txt is always allowed */
} ra_why_e;

typedef struct {
    int              allowed;
    ra_why_e         why;
    ra_rule_type_e   type;          /* of the deciding rule */
    uint32_t         line;          /* of the deciding rule, 0 if none */
    uint32_t         priority;      /* its length, as the matcher counts */
    ra_str_t         pattern;       /* the rule's value as written */
    ra_str_t         group;         /* the agent token that chose the group,
                                       "*" for the global group, empty if
                                       none applies */
    uint32_t         group_line;    /* first user-agent line of the group
                                       that applies (of the first one when
                                       several are merged), 0 if none */
    int32_t          crawl_delay_ms; /* of the applying group, -1 if unset */
} ra_match_t;

typedef struct ra_rules_s  ra_rules_t;

typedef struct {
    uint32_t  groups;           /* groups in the file */
    uint32_t  rules;            /* allow + disallow rules kept */
    uint32_t  agents;           /* distinct product tokens */
    uint32_t  sitemaps;
    int       has_global;       /* a "*" group exists */
} ra_rules_stats_t;

/* Compiles body (only its first RA_ROBOTS_MAX bytes; a line that limit
 * cuts is ignored) for both modes.
 * Everything is allocated from a, nothing points into body afterwards.
 * Returns RA_OK or RA_ENOMEM.  info may be NULL. */
int ra_rules_compile(ra_str_t body, const ra_alloc_t *a, ra_rules_t **out,
    ra_parse_info_t *info);

/* A rule set that allows everything (no robots.txt, 4xx). */
int ra_rules_empty(const ra_alloc_t *a, ra_rules_t **out);

/* Releases what compile allocated when the allocator can free. */
void ra_rules_free(ra_rules_t *rules);

void ra_rules_stats(const ra_rules_t *rules, ra_rules_stats_t *st);

/* Bytes the rule set holds from its allocator. */
size_t ra_rules_bytes(const ra_rules_t *rules);

/*
 * Judges path (the URL's path, parameters and query, starting at '/'; one
 * that does not start with '/' is read as if it did) for the first of
 * agents[0..nagents) that names a group, else "*".  scratch allocates only
 * when a normalised path is longer than RA_MATCH_STACK bytes; it may be
 * NULL, and then such a path is judged on its first RA_MATCH_STACK bytes.
 * Returns RA_OK, or RA_ENOMEM with out->allowed set as if the path were cut.
 */
int ra_rules_match(const ra_rules_t *rules, ra_mode_e mode,
    const ra_str_t *agents, size_t nagents, ra_str_t path,
    const ra_alloc_t *scratch, ra_match_t *out);

/*
 * The group chosen once for many paths: ra_rules_group() picks it as
 * ra_rules_match() does (the first of agents that names a group, else
 * "*"), ra_rules_match_group() then judges a path for it with the same
 * answer as ra_rules_match() for those agents.  A ra_rules_group_t is
 * valid with the rule set it came from; group.data points into agents[]
 * (or is "*"), which must live as long.
 */
typedef struct {
    uint32_t  set;              /* internal */
    ra_str_t  group;            /* as ra_match_t.group */
} ra_rules_group_t;

void ra_rules_group(const ra_rules_t *rules, const ra_str_t *agents,
    size_t nagents, ra_rules_group_t *g);

int ra_rules_match_group(const ra_rules_t *rules, ra_mode_e mode,
    const ra_rules_group_t *g, ra_str_t path, const ra_alloc_t *scratch,
    ra_match_t *out);

/*
 * What a request path holds, read once for the matches of one request
 * and for the caller's own questions (0 for a path that does not start
 * with '/'):
 *   RA_PATH_PLAIN    every byte stands in RA_MODE_RFC's normal form as it
 *                    is (no '*' or '$', nor a byte that may not stand raw
 *                    in a URI, and a '%' only as an escape kept as it is:
 *                    upper-case hex of a byte not unreserved, "%20"): the
 *                    path is its own normal form;
 *   RA_PATH_DOTLESS  before its first '?', no '/' is followed by '/' or
 *                    '.', and no escape is of a '/' ("%2F", "%2f");
 *   RA_PATH_QUERY    it holds a '?'.
 * One pass, no copy.  ra_rules_match_shaped() is ra_rules_match_group()
 * for a path whose shape is known: the same answer, without reading the
 * path again to learn it.
 */
#define RA_PATH_PLAIN     0x01
#define RA_PATH_DOTLESS   0x02
#define RA_PATH_QUERY     0x04

unsigned ra_rules_path_shape(ra_str_t path);

int ra_rules_match_shaped(const ra_rules_t *rules, ra_mode_e mode,
    const ra_rules_group_t *g, ra_str_t path, unsigned shape,
    const ra_alloc_t *scratch, ra_match_t *out);

/* The part of a URL that robots.txt rules see (google/robotstxt
 * GetPathParamsQuery): path, params and query, without the fragment.
 * "http://h/a?b#c" -> "/a?b"; "" or "http://h" -> "/".  The result is a
 * span of url, except that it may lack its leading '/' ("http://h?x" ->
 * "?x"), which ra_rules_match() supplies. */
ra_str_t ra_url_path(ra_str_t url);

#endif /* RA_RULES_H */
