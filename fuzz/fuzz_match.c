/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Matcher: one input is "AGENT\nURL\nBODY".  The URL goes through
 * ra_url_path(), then both modes judge it, with and without a scratch
 * allocator.  Invariants: a verdict exists in both modes; the deciding
 * line is a line of the file; allowed iff no disallow rule decided; a
 * decision has a rule type and a pattern; rfc mode allows /robots.txt; the
 * group chosen once (ra_rules_group) gives the same answer, and so does
 * the path's shape read once (ra_rules_match_shaped).
 * The URL as a request target: its canonical path (ra_http_canon) is no
 * longer than the path + 1, starts with '/', is its own canonical form
 * (when it has no bad escape);
 * the robots.txt request's is "/robots.txt"; the judge allows the target
 * exactly when rfc mode allows both spellings.
 */
#include <stdlib.h>

#include "fuzz.h"
#include "ra_audit.h"
#include "ra_http.h"
#include "ra_rules.h"

static ra_str_t
take_line(ra_str_t *rest)
{
    const unsigned char  *nl;
    ra_str_t              l = *rest;

    nl = rest->len ? memchr(rest->data, '\n', rest->len) : NULL;
    if (nl == NULL) {
        rest->data += rest->len;
        rest->len = 0;
        return l;
    }
    l.len = (size_t) (nl - l.data);
    rest->data = nl + 1;
    rest->len -= l.len + 1;
    return l;
}

static void
check(const ra_rules_t *rs, ra_mode_e mode, const ra_str_t *agents,
    size_t nagents, ra_str_t path, uint32_t lines)
{
    ra_match_t        m, m2;
    ra_rules_group_t  g;
    int               rc;

    rc = ra_rules_match(rs, mode, agents, nagents, path, &ra_malloc_allocator,
                        &m);
    FZ_CHECK(rc == RA_OK);
    FZ_CHECK(m.allowed == 0 || m.allowed == 1);
    FZ_CHECK(m.line <= lines);
    FZ_CHECK(m.why <= RA_WHY_ROBOTS_TXT);
    if (m.why == RA_WHY_RULE) {
        FZ_CHECK(m.line >= 1);
        FZ_CHECK(m.type == RA_RULE_ALLOW || m.type == RA_RULE_DISALLOW);
        FZ_CHECK(m.allowed == (m.type == RA_RULE_ALLOW));
        /* the group is "*" or one of the agents, verbatim (an empty
         * agent may choose a "User-agent: *bot" group, as in Google's
         * library: its product token is empty too) */
        FZ_CHECK((m.group.len == 1 && m.group.data[0] == '*')
                 || (nagents > 0 && m.group.data == agents[0].data
                     && m.group.len == agents[0].len)
                 || (nagents > 1 && m.group.data == agents[1].data
                     && m.group.len == agents[1].len));
    } else {
        FZ_CHECK(m.allowed == 1);
        FZ_CHECK(m.line == 0);
        FZ_CHECK(m.type == RA_RULE_NONE);
    }
    if (mode == RA_MODE_GOOGLE) {
        FZ_CHECK(m.why != RA_WHY_ROBOTS_TXT);
    }

    /* without scratch: the same verdict, or ENOMEM for a long path */
    rc = ra_rules_match(rs, mode, agents, nagents, path, NULL, &m2);
    FZ_CHECK(rc == RA_OK || rc == RA_ENOMEM);
    if (rc == RA_OK) {
        FZ_CHECK(m2.allowed == m.allowed && m2.line == m.line
                 && m2.why == m.why && m2.type == m.type);
    }

    /* the group chosen once: the same answer */
    ra_rules_group(rs, agents, nagents, &g);
    rc = ra_rules_match_group(rs, mode, &g, path, &ra_malloc_allocator, &m2);
    FZ_CHECK(rc == RA_OK);
    FZ_CHECK(m2.allowed == m.allowed && m2.line == m.line && m2.why == m.why
             && m2.group_line == m.group_line
             && m2.group.len == m.group.len);

    /* the path's shape read once (ra_rules_path_shape()): the same */
    rc = ra_rules_match_shaped(rs, mode, &g, path, ra_rules_path_shape(path),
                               &ra_malloc_allocator, &m2);
    FZ_CHECK(rc == RA_OK);
    FZ_CHECK(m2.allowed == m.allowed && m2.line == m.line && m2.why == m.why
             && m2.type == m.type && m2.priority == m.priority
             && m2.group_line == m.group_line
             && m2.group.len == m.group.len
             && m2.crawl_delay_ms == m.crawl_delay_ms);
}

static void
check_canon(const ra_rules_t *rs, const ra_str_t *agents, ra_str_t url)
{
    int              allowed, raw, can;
    size_t           n, n2, q;
    unsigned         f, f2;
    ra_str_t         path, canon;
    ra_match_t       m;
    unsigned char   *dst, *dst2;
    ra_judge_who_t   who;

    path = ra_http_target_path(url);
    /* a plain path without dot segments or an escaped '/' before its
     * query is canonical as it stands (the judge then asks no more) */
    if ((ra_rules_path_shape(path) & (RA_PATH_PLAIN | RA_PATH_DOTLESS))
        == (RA_PATH_PLAIN | RA_PATH_DOTLESS))
    {
        FZ_CHECK(ra_http_canonical(path));
    }
    dst = malloc(path.len + 1);
    FZ_CHECK(dst != NULL);
    n = ra_http_canon(path, dst, &f);
    FZ_CHECK(n >= 1 && n <= path.len + 1 && dst[0] == '/');
    FZ_CHECK(((f & RA_CANON_CHANGED) != 0)
             == (n != path.len || memcmp(dst, path.data, n) != 0));
    canon = ra_str(dst, n);

    /* a fixed point, unless a bad escape (400 from both servers) met a
     * decoded one: "%4%37" reads "%47" */
    dst2 = malloc(n + 1);
    FZ_CHECK(dst2 != NULL);
    n2 = ra_http_canon(canon, dst2, &f2);
    if (!(f & RA_CANON_BAD_ESCAPE)) {
        FZ_CHECK(n2 == n && memcmp(dst2, dst, n) == 0);
        FZ_CHECK((f2 & (RA_CANON_CHANGED | RA_CANON_ABOVE_ROOT
                        | RA_CANON_ENCODED_SLASH)) == 0);
    }
    free(dst2);

    if (ra_http_is_robots(url)) {
        for (q = 0; q < n && dst[q] != '?'; q++) { /* void */ }
        FZ_CHECK(q == 11 && memcmp(dst, "/robots.txt", 11) == 0);
        FZ_CHECK((f & (RA_CANON_ABOVE_ROOT | RA_CANON_ENCODED_SLASH
                       | RA_CANON_BAD_ESCAPE)) == 0);
    }

    who.tokens = agents;
    who.ntokens = 1;
    who.flags = 0;
    allowed = ra_judge_allows(rs, &who, path, &ra_malloc_allocator, &m);
    (void) ra_rules_match(rs, RA_MODE_RFC, agents, 1, path,
                          &ra_malloc_allocator, &m);
    raw = m.allowed;
    (void) ra_rules_match(rs, RA_MODE_RFC, agents, 1, canon,
                          &ra_malloc_allocator, &m);
    can = m.allowed;
    FZ_CHECK(allowed == (raw && can));
    free(dst);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ra_str_t          rest = ra_str(data, size), agent, url, path, agents[2];
    ra_rules_t       *rs;
    ra_parse_info_t   info;
    ra_match_t        m;
    static const ra_str_t  robots = ra_string("/robots.txt");

    agent = take_line(&rest);
    url = take_line(&rest);
    if (rest.len > 64 * 1024) {
        return 0;               /* the parse fuzzer covers big bodies */
    }
    path = ra_url_path(url);
    FZ_CHECK(fz_within(path, url.data, url.len) || path.len == 1);

    FZ_CHECK(ra_rules_compile(rest, &ra_malloc_allocator, &rs, &info)
             == RA_OK);
    agents[0] = agent;
    agents[1] = ra_ua_token(agent);
    check(rs, RA_MODE_GOOGLE, agents, 2, path, info.lines);
    check(rs, RA_MODE_RFC, agents, 2, path, info.lines);
    check(rs, RA_MODE_GOOGLE, agents, 0, url, info.lines);
    check(rs, RA_MODE_RFC, agents, 1, url, info.lines);

    FZ_CHECK(ra_rules_match(rs, RA_MODE_RFC, agents, 1, robots, NULL, &m)
             == RA_OK);
    FZ_CHECK(m.allowed && m.why == RA_WHY_ROBOTS_TXT);
    check_canon(rs, agents, url);
    ra_rules_free(rs);
    return 0;
}
