/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The compiled matcher, rule by rule (docs/robots-txt.md, sections C, D,
 * E and G).
 * rfc9309_* tests hold in both modes unless they say otherwise; google_*
 * are the reference library's behaviour; ra_* are our own contracts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ra_test.h"
#include "ra_http.h"
#include "ra_rules.h"

#define G  RA_MODE_GOOGLE
#define R  RA_MODE_RFC

static ra_match_t
judge_agents(const char *robots, const char **agents, size_t n,
    const char *url, ra_mode_e mode)
{
    ra_str_t     body = ra_test_exact(robots, strlen(robots));
    ra_str_t     a[4], u = ra_test_exact(url, strlen(url));
    ra_rules_t  *rs;
    ra_match_t   m;
    size_t       i;

    assert_int_equal(ra_rules_compile(body, &ra_malloc_allocator, &rs, NULL),
                     RA_OK);
    for (i = 0; i < n; i++) {
        a[i] = ra_str(agents[i], strlen(agents[i]));
    }
    assert_int_equal(ra_rules_match(rs, mode, a, n, ra_url_path(u),
                                    &ra_malloc_allocator, &m), RA_OK);
    ra_rules_free(rs);
    ra_test_exact_free(body);
    ra_test_exact_free(u);
    /* the pattern span points into the freed rule set: drop it */
    m.pattern.data = NULL;
    m.group.data = NULL;
    return m;
}

static ra_match_t
judge(const char *robots, const char *agent, const char *url, ra_mode_e mode)
{
    return judge_agents(robots, &agent, 1, url, mode);
}

static int
allowed(const char *robots, const char *agent, const char *url, ra_mode_e m)
{
    return judge(robots, agent, url, m).allowed;
}

/* both modes agree */
#define ALLOWED(r, a, u)     do { assert_true(allowed(r, a, u, G));         \
                                  assert_true(allowed(r, a, u, R)); } while (0)
#define DISALLOWED(r, a, u)  do { assert_false(allowed(r, a, u, G));        \
                                  assert_false(allowed(r, a, u, R)); } while (0)

/* C.21: token matched case-insensitively, in the file and the caller's */
static void
rfc9309_agent_case_insensitive(void **state)
{
    (void) state;
    DISALLOWED("User-Agent: FOOBOT\nDisallow: /\n", "foobot", "http://h/x");
    DISALLOWED("user-agent: foobot\ndisallow: /\n", "FooBot", "http://h/x");
    ALLOWED("user-agent: foobot\ndisallow: /\n", "BarBot", "http://h/x");
}

/* C.22: groups naming the same token are merged */
static void
rfc9309_groups_for_same_agent_merge(void **state)
{
    const char  *r = "user-agent: FooBot\ndisallow: /a\n"
                     "user-agent: BarBot\ndisallow: /b\n"
                     "user-agent: foobot\ndisallow: /c\n";
    (void) state;
    DISALLOWED(r, "FooBot", "http://h/a");
    DISALLOWED(r, "FooBot", "http://h/c");
    ALLOWED(r, "FooBot", "http://h/b");
}

/* C.14: UA lines (with blanks, comments, sitemaps between) share a group */
static void
rfc9309_consecutive_agents_share_group(void **state)
{
    const char  *r = "user-agent: a\n\n# c\nsitemap: http://h/s.xml\n"
                     "user-agent: b\ndisallow: /x\nunknown: y\n"
                     "disallow: /y\n";
    (void) state;
    DISALLOWED(r, "a", "http://h/x");
    DISALLOWED(r, "b", "http://h/x");
    DISALLOWED(r, "b", "http://h/y");       /* unknown line ends nothing */
}

/* C.23: no matching group -> "*"; no "*" -> nothing applies */
static void
rfc9309_global_group_fallback(void **state)
{
    ra_match_t  m;

    (void) state;
    DISALLOWED("user-agent: *\ndisallow: /x\n", "FooBot", "http://h/x");
    m = judge("user-agent: other\ndisallow: /\n", "FooBot", "http://h/x", R);
    assert_true(m.allowed);
    assert_int_equal(m.why, RA_WHY_NO_GROUP);
    m = judge("", "FooBot", "http://h/", G);
    assert_true(m.allowed);
    assert_int_equal(m.why, RA_WHY_NO_GROUP);
}

/* C.24: a specific group replaces "*", even an empty one */
static void
google_specific_group_replaces_global_even_empty(void **state)
{
    ra_match_t  m;

    (void) state;
    ALLOWED("user-agent: *\ndisallow: /\nuser-agent: FooBot\ndisallow:\n",
            "FooBot", "http://h/x");
    ALLOWED("user-agent: *\ndisallow: /\n\nuser-agent: FooBot\n",
            "FooBot", "http://h/x");
    m = judge("user-agent: *\ndisallow: /\nuser-agent: FooBot\nallow: /z\n",
              "FooBot", "http://h/x", G);
    assert_true(m.allowed);
    assert_int_equal(m.why, RA_WHY_NO_MATCH);
}

/* C.25: exact tokens, no prefix fallback in the library */
static void
google_no_prefix_fallback_between_tokens(void **state)
{
    (void) state;
    ALLOWED("user-agent: FooBot\ndisallow: /\n", "FooBot-News", "http://h/x");
}

/* Callers pass tokens in order of preference: the first with a group wins */
static void
ra_agent_preference_order(void **state)
{
    const char  *r = "user-agent: Googlebot\ndisallow: /g\n"
                     "user-agent: Googlebot-Image\ndisallow: /i\n"
                     "user-agent: *\ndisallow: /\n";
    const char  *image[] = { "Googlebot-Image", "Googlebot" };
    const char  *news[] = { "Googlebot-News", "Googlebot" };
    ra_match_t   m;

    (void) state;
    m = judge_agents(r, image, 2, "http://h/i", G);
    assert_false(m.allowed);
    assert_int_equal(m.line, 4);
    assert_true(judge_agents(r, image, 2, "http://h/g", G).allowed);
    m = judge_agents(r, news, 2, "http://h/g", R);
    assert_false(m.allowed);
    assert_int_equal(m.line, 2);
    assert_true(judge_agents(r, news, 2, "http://h/other", R).allowed);
}

/* C.26: the file's value is cut to [A-Za-z_-]; the caller's is not */
static void
google_agent_value_cut_to_token(void **state)
{
    (void) state;
    DISALLOWED("user-agent: FooBot/1.2\ndisallow: /\n", "FooBot", "http://h/");
    DISALLOWED("user-agent: Foo Bar\ndisallow: /\n", "Foo", "http://h/");
    ALLOWED("user-agent: Foo Bar\ndisallow: /\n", "Foo Bar", "http://h/");
    ALLOWED("user-agent: MJ12bot\ndisallow: /\n", "MJ12bot", "http://h/");
    DISALLOWED("user-agent: * ignored\ndisallow: /\n", "FooBot", "http://h/");
    ALLOWED("user-agent: *bot\ndisallow: /\n", "FooBot", "http://h/");
}

/* B.15: rules before the first user-agent are ignored */
static void
rfc9309_rules_outside_groups_ignored(void **state)
{
    (void) state;
    ALLOWED("disallow: /\nuser-agent: FooBot\nallow: /x\n", "FooBot",
            "http://h/y");
}

/* D.27: path, params and query; no fragment; empty path is "/" */
static void
google_url_path_params_query(void **state)
{
    static const struct { const char *url, *path; } cases[] = {
        { "", "/" },
        { "http://h", "/" },
        { "http://h/", "/" },
        { "http://h/a/b?c=d#e", "/a/b?c=d" },
        { "http://h/a;p?q", "/a;p?q" },
        { "http://h?q", "?q" },
        { "http://h#f/x", "/" },
        { "a/b", "/b" },
        { "//a/b/c", "/b/c" },
        { "/a/b", "/a/b" },
        { "example.com/a", "/a" },
    };
    ra_str_t  u, p;
    size_t    i;

    (void) state;
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        u = ra_test_exact(cases[i].url, strlen(cases[i].url));
        p = ra_url_path(u);
        assert_int_equal(p.len, strlen(cases[i].path));
        assert_memory_equal(p.data, cases[i].path, p.len);
        ra_test_exact_free(u);
    }
    /* "?q" is read with its leading "/" */
    DISALLOWED("user-agent: *\ndisallow: /?q\n", "a", "http://h?q");
}

/* D.28: anchored at the path's start, case-sensitive */
static void
rfc9309_anchored_case_sensitive(void **state)
{
    const char  *r = "user-agent: *\ndisallow: /fish\n";

    (void) state;
    DISALLOWED(r, "a", "http://h/fish");
    DISALLOWED(r, "a", "http://h/fish.html");
    DISALLOWED(r, "a", "http://h/fishheads/yummy.html");
    ALLOWED(r, "a", "http://h/Fish.asp");
    ALLOWED(r, "a", "http://h/catfish");
    ALLOWED(r, "a", "http://h/desert/fish");
}

/* D.29: the longest pattern wins, '*' and '$' counted, not URL bytes */
static void
google_longest_pattern_wins(void **state)
{
    ra_match_t  m;

    (void) state;
    m = judge("user-agent: *\nallow: /x/page.\ndisallow: /*.html\n", "a",
              "http://h/x/page.html", G);
    assert_true(m.allowed);
    assert_int_equal(m.priority, 8);
    assert_int_equal(m.line, 2);
    DISALLOWED("user-agent: *\nallow: /p\ndisallow: /p/q\n", "a",
               "http://h/p/q/r");
    ALLOWED("user-agent: *\ndisallow: /p\nallow: /p/q\n", "a",
            "http://h/p/q/r");
}

/* D.30: ties go to allow */
static void
rfc9309_tie_goes_to_allow(void **state)
{
    ra_match_t  m;

    (void) state;
    m = judge("user-agent: *\ndisallow: /page\nallow: /page\n", "a",
              "http://h/page", R);
    assert_true(m.allowed);
    assert_int_equal(m.type, RA_RULE_ALLOW);
    assert_int_equal(m.line, 3);
    ALLOWED("user-agent: *\nallow: /page\ndisallow: /*.ph\n", "a",
            "http://h/page.php5");
}

/* D.31: no match or a group without rules means allowed */
static void
rfc9309_no_match_allowed(void **state)
{
    ra_match_t  m;

    (void) state;
    m = judge("user-agent: *\ndisallow: /x\n", "a", "http://h/y", R);
    assert_true(m.allowed);
    assert_int_equal(m.why, RA_WHY_NO_MATCH);
    assert_int_equal(m.line, 0);
    ALLOWED("user-agent: *\n", "a", "http://h/y");
}

/* B.17: an empty Disallow restricts nothing, yet is a group's rule */
static void
rfc9309_empty_disallow_restricts_nothing(void **state)
{
    (void) state;
    ALLOWED("user-agent: *\ndisallow:\n", "a", "http://h/x");
    /* the empty rule still ends the UA run: b is a group of its own */
    ALLOWED("user-agent: a\ndisallow:\nuser-agent: b\ndisallow: /\n", "a",
            "http://h/x");
}

/* D.32 / G: /robots.txt always allowed in rfc mode, not in google */
static void
rfc9309_robots_txt_always_allowed(void **state)
{
    const char  *r = "user-agent: *\ndisallow: /\n";
    ra_match_t   m;

    (void) state;
    m = judge(r, "a", "http://h/robots.txt", R);
    assert_true(m.allowed);
    assert_int_equal(m.why, RA_WHY_ROBOTS_TXT);
    assert_false(allowed(r, "a", "http://h/robots.txt", G));
    assert_false(allowed(r, "a", "http://h/robots.txt.bak", R));
}

/* D.33: '*' any run; '$' anchors only at the end; trailing '*' is a no-op */
static void
rfc9309_wildcards_and_end_anchor(void **state)
{
    const char  *r = "user-agent: *\ndisallow: /*.gif$\ndisallow: /a*b*c\n"
                     "disallow: /$\n";

    (void) state;
    DISALLOWED(r, "a", "http://h/x/y.gif");
    ALLOWED(r, "a", "http://h/x/y.gif?z");
    DISALLOWED(r, "a", "http://h/a-b-c-d");
    ALLOWED(r, "a", "http://h/a-c-b");
    DISALLOWED(r, "a", "http://h/");
    ALLOWED(r, "a", "http://h/index");
    DISALLOWED("user-agent: *\ndisallow: /fish*\n", "a", "http://h/fish");
    DISALLOWED("user-agent: *\ndisallow: /*\n", "a", "http://h/");
    /* the last segment of an anchored pattern must end the path */
    DISALLOWED("user-agent: *\ndisallow: /*a*ab$\n", "a", "http://h/aab");
    ALLOWED("user-agent: *\ndisallow: /*a*ab$\n", "a", "http://h/ab");
}

static void
google_dollar_inside_is_literal(void **state)
{
    (void) state;
    assert_false(allowed("user-agent: *\ndisallow: /a$b\n", "x",
                         "http://h/a$b", G));
    assert_true(allowed("user-agent: *\ndisallow: /a$b\n", "x",
                        "http://h/ab", G));
    /* rfc: the literal '$' is %24 on both sides */
    assert_false(allowed("user-agent: *\ndisallow: /a$b\n", "x",
                         "http://h/a%24b", R));
}

/* A pattern not starting with '/' or '*' never matches (B.18) */
static void
google_pattern_must_start_with_slash(void **state)
{
    (void) state;
    ALLOWED("user-agent: *\ndisallow: fish\n", "a", "http://h/fish");
    DISALLOWED("user-agent: *\ndisallow: *fish\n", "a", "http://h/a/fish");
}

/* D.34 / G: RFC normalisation of URL and rule */
static void
rfc9309_percent_encoding_normalised(void **state)
{
    (void) state;
    /* non-ASCII octets encoded before comparison */
    assert_false(allowed("user-agent: *\ndisallow: /foo/bar/%E3%83%84\n", "a",
                         "http://h/foo/bar/\xe3\x83\x84", R));
    assert_true(allowed("user-agent: *\ndisallow: /foo/bar/%E3%83%84\n", "a",
                        "http://h/foo/bar/\xe3\x83\x84", G));
    /* unreserved escapes decoded: an auditor sees /%70rivate as /private */
    assert_false(allowed("user-agent: *\ndisallow: /private\n", "a",
                         "http://h/%70rivate", R));
    assert_true(allowed("user-agent: *\ndisallow: /private\n", "a",
                        "http://h/%70rivate", G));
    /* hex case does not matter */
    assert_false(allowed("user-agent: *\ndisallow: /%aa\n", "a",
                         "http://h/%aa", R));
    assert_true(allowed("user-agent: *\ndisallow: /%aa\n", "a",
                        "http://h/%aa", G));
    /* literal '*' in the URL meets %2A in the rule */
    assert_false(allowed("user-agent: *\ndisallow: /a-%2A.html\n", "a",
                         "http://h/a-*.html", R));
    assert_true(allowed("user-agent: *\ndisallow: /a-%2A.html\n", "a",
                        "http://h/a-*.html", G));
    /* reserved escapes stay escaped: %2F is not '/' */
    assert_true(allowed("user-agent: *\ndisallow: /a/b\n", "a",
                        "http://h/a%2Fb", R));
}

/* D.35: google mode normalises only the rule */
static void
google_only_rule_normalised(void **state)
{
    (void) state;
    assert_false(allowed("user-agent: *\ndisallow: /foo/bar/\xe3\x83\x84\n",
                         "a", "http://h/foo/bar/%E3%83%84", G));
    assert_false(allowed("user-agent: *\ndisallow: /a%3c\n", "a",
                         "http://h/a%3C", G));
}

/* E.39: "Allow: /d/index.htm*" also allows "/d/" */
static void
google_index_html_allows_directory(void **state)
{
    const char  *r = "user-agent: *\ndisallow: /\nallow: /d/index.html\n";
    ra_match_t   m;

    (void) state;
    m = judge(r, "a", "http://h/d/", G);
    assert_true(m.allowed);
    assert_int_equal(m.line, 3);
    ALLOWED(r, "a", "http://h/d/");
    DISALLOWED(r, "a", "http://h/d/x");
    DISALLOWED(r, "a", "http://h/d/?q");
}

/* E.42: an empty URL is "/" */
static void
google_empty_url_is_root(void **state)
{
    (void) state;
    DISALLOWED("user-agent: *\ndisallow: /$\n", "a", "");
}

/* The deciding rule: line, pattern as written, group token */
static void
ra_match_reports_deciding_rule(void **state)
{
    const char  *r = "# c\nuser-agent: FooBot\nuser-agent: *\n"
                     "disallow: /p\ncrawl-delay: 2.5\n";
    ra_str_t     body = RA_TEST_STR("user-agent: FooBot\ndisallow: /%7ex\n");
    ra_str_t     agent = ra_string("foobot"), path = ra_string("/~x");
    ra_rules_t  *rs;
    ra_match_t   m;

    (void) state;
    m = judge(r, "FooBot", "http://h/p/q", R);
    assert_false(m.allowed);
    assert_int_equal(m.line, 4);
    assert_int_equal(m.type, RA_RULE_DISALLOW);
    assert_int_equal(m.crawl_delay_ms, 2500);
    m = judge(r, "Other", "http://h/x", R);
    assert_int_equal(m.crawl_delay_ms, 2500);
    assert_int_equal(judge("user-agent: *\ndisallow: /\n", "a", "/", R)
                     .crawl_delay_ms, -1);

    assert_int_equal(ra_rules_compile(body, &ra_malloc_allocator, &rs, NULL),
                     RA_OK);
    assert_int_equal(ra_rules_match(rs, R, &agent, 1, path, NULL, &m), RA_OK);
    assert_false(m.allowed);
    assert_int_equal(m.pattern.len, 5);
    assert_memory_equal(m.pattern.data, "/%7ex", 5);   /* as written */
    assert_int_equal(m.group.len, 6);
    ra_rules_free(rs);
    ra_test_exact_free(body);
}

/* The group that decided: its first user-agent line (of the first group
 * when several are merged), for the token and for "*"; 0 when none. */
static void
ra_match_reports_deciding_group_line(void **state)
{
    const char  *r = "User-agent: *\nDisallow: /private/\n\n"
                     "# the classic mistake: Googlebot drops /private/\n"
                     "User-agent: Bingbot\nUser-agent: Googlebot\n"
                     "Disallow: /tmp/\n\n"
                     "User-agent: googlebot\nDisallow: /g/\n"
                     "User-agent: *\nDisallow: /s/\n";
    ra_match_t   m;

    (void) state;
    m = judge(r, "Googlebot", "/private/x", G);
    assert_true(m.allowed);
    assert_int_equal(m.why, RA_WHY_NO_MATCH);
    assert_int_equal(m.group_line, 5);
    m = judge(r, "Googlebot", "/g/x", R);       /* merged: the first group */
    assert_false(m.allowed);
    assert_int_equal(m.line, 10);
    assert_int_equal(m.group_line, 5);
    m = judge(r, "Bingbot", "/tmp/x", R);       /* the group's first line */
    assert_int_equal(m.group_line, 5);
    m = judge(r, "Other", "/s/x", G);           /* "*" merged, from line 1 */
    assert_false(m.allowed);
    assert_int_equal(m.group_line, 1);
    assert_int_equal(judge("User-agent: a\nDisallow: /\n", "b", "/", R)
                     .group_line, 0);
}

/* The same token in more groups than the merge budget allows still
 * merges them (searched one by one): same answers either way. */
static void
ra_merge_budget_fallback_same_answer(void **state)
{
    size_t       i, len = 0, cap = 64 * 5000 + 64;
    char        *b = malloc(cap);
    ra_match_t   m;

    (void) state;
    for (i = 0; i < 5000; i++) {
        len += (size_t) snprintf(b + len, cap - len,
                                 "user-agent: a\nuser-agent: b%c\n"
                                 "disallow: /d%zu\n", (char) ('a' + i % 26),
                                 i);
    }
    m = judge(b, "a", "http://h/d4999", R);
    assert_false(m.allowed);
    assert_int_equal(m.line, 4999 * 3 + 3);
    assert_true(judge(b, "a", "http://h/e", G).allowed);
    assert_false(judge(b, "bq", "http://h/d16", G).allowed);
    assert_true(judge(b, "bq", "http://h/d17", G).allowed);
    free(b);
}

/* Hostile inputs: 64 KiB path, NUL in the URL, allocation refused */
static void *
refuse(void *ctx, size_t n)
{
    (void) ctx; (void) n;
    return NULL;
}

static void
ra_hostile_paths(void **state)
{
    size_t       n = 65536;
    char        *u = malloc(n + 1);
    ra_str_t     body = RA_TEST_STR("user-agent: *\ndisallow: /*a*a*b\n"
                                    "disallow: /x\0y\n");
    ra_str_t     agent = ra_string("x");
    ra_rules_t  *rs;
    ra_match_t   m;
    ra_alloc_t   none = { refuse, NULL, NULL };

    (void) state;
    memset(u, 'a', n);
    u[0] = '/';
    u[n] = '\0';
    assert_true(allowed("user-agent: *\ndisallow: /*a*a*b\n", "x", u, R));
    u[n - 1] = 'b';
    assert_false(allowed("user-agent: *\ndisallow: /*a*a*b\n", "x", u, G));

    assert_int_equal(ra_rules_compile(body, &ra_malloc_allocator, &rs, NULL),
                     RA_OK);
    /* google mode reads the URL as a C string: NUL ends it */
    assert_int_equal(ra_rules_match(rs, G, &agent, 1,
                                    ra_str("/x\0z", 4), NULL, &m), RA_OK);
    assert_false(m.allowed);
    /* no scratch memory for a long rfc path: judged on its start */
    assert_int_equal(ra_rules_match(rs, R, &agent, 1, ra_str(u, n), &none,
                                    &m), RA_ENOMEM);
    assert_true(m.allowed);
    ra_rules_free(rs);
    ra_test_exact_free(body);

    /* compile under a failing allocator fails cleanly */
    body = RA_TEST_STR("user-agent: *\ndisallow: /\n");
    assert_int_equal(ra_rules_compile(body, &none, &rs, NULL), RA_ENOMEM);
    assert_null(rs);
    ra_test_exact_free(body);
    free(u);
}

/* Tokens past the merge budget search their groups' indexes one by one,
 * each with its automaton: the path's byte pairs serve them all (one pass
 * instead of one per group), with the same answers as a merged index. */
static void
ra_unmerged_groups_with_wildcards(void **state)
{
    size_t             i, len = 0, cap = 3000 * 160 + 64;
    char              *b = malloc(cap), path[64];
    const char        *tok[] = { "a", "h" };
    ra_rules_t        *rs;
    ra_rules_group_t   g;
    ra_match_t         m;
    ra_str_t           agent;
    int                t, mode;

    (void) state;
    for (i = 0; i < 3000; i++) {
        len += (size_t) snprintf(b + len, cap - len,
                                 "user-agent: a\nuser-agent: b\n"
                                 "user-agent: c\nuser-agent: d\n"
                                 "user-agent: e\nuser-agent: f\n"
                                 "user-agent: g\nuser-agent: h\n"
                                 "disallow: /*x%zuy$\nallow: /*x%zuy*z\n",
                                 i, i);
    }
    assert_int_equal(ra_rules_compile(ra_str(b, len), &ra_malloc_allocator,
                                      &rs, NULL), RA_OK);
    for (t = 0; t < 2; t++) {
        agent = ra_str(tok[t], 1);
        ra_rules_group(rs, &agent, 1, &g);
        for (mode = 0; mode < RA_MODES; mode++) {
            assert_int_equal(ra_rules_match_group(rs, (ra_mode_e) mode, &g,
                                                  ra_str("/q/x2999y", 9),
                                                  NULL, &m), RA_OK);
            assert_false(m.allowed);
            assert_int_equal(m.line, 2999 * 10 + 9);
            assert_int_equal(ra_rules_match_group(rs, (ra_mode_e) mode, &g,
                                                  ra_str("/x17y/z", 7),
                                                  NULL, &m), RA_OK);
            assert_true(m.allowed);
            assert_int_equal(m.line, 17 * 10 + 10);
            snprintf(path, sizeof(path), "/x%dy", 3000 + t);
            assert_int_equal(ra_rules_match_group(rs, (ra_mode_e) mode, &g,
                                                  ra_str(path, strlen(path)),
                                                  NULL, &m), RA_OK);
            assert_true(m.allowed);
            assert_int_equal(m.why, RA_WHY_NO_MATCH);
        }
    }
    ra_rules_free(rs);
    free(b);
}

/* google/robotstxt Matches(): position sets, O(path x pattern) */
static int
naive_matches(const char *path, size_t plen, const char *pat, size_t patlen)
{
    size_t  *pos = malloc((plen + 1) * sizeof(size_t));
    size_t   numpos = 1, i, j, k;
    int      r = 1;

    pos[0] = 0;
    for (i = 0; i < patlen && r; i++) {
        if (pat[i] == '$' && i + 1 == patlen) {
            r = pos[numpos - 1] == plen;
            break;
        }
        if (pat[i] == '*') {
            numpos = plen - pos[0] + 1;
            for (j = 1; j < numpos; j++) {
                pos[j] = pos[j - 1] + 1;
            }
        } else {
            for (j = 0, k = 0; j < numpos; j++) {
                if (pos[j] < plen && path[pos[j]] == pat[i]) {
                    pos[k++] = pos[j] + 1;
                }
            }
            numpos = k;
            r = numpos > 0;
        }
    }
    free(pos);
    return r;
}

static uint32_t  rnd_state = 12345;

static uint32_t
rnd(uint32_t n)
{
    rnd_state = rnd_state * 1103515245u + 12345u;
    return (rnd_state >> 8) % n;
}

/*
 * The compiled matcher (trie, segment automaton, crowded nodes, byte-pair
 * fallback, a small index's patterns one by one) against the reference library's per-rule algorithm: random
 * wildcard-heavy files, random paths, google mode, the group chosen once
 * and per call.  The wide alphabet makes automata too large for the
 * budget, so that the byte-pair filter is compared too.
 */
static void
ra_random_rules_agree_with_naive(void **state)
{
    static const char  narrow[] = "/ab.?=";
    char               wide[128], *body, pats[400][24], path[64];
    size_t             lens[400], plen, bl, nrules, i, j, f, u, wl = 0;
    int                allow[400], a, d, round;
    const char        *alpha;
    ra_rules_t        *rs;
    ra_rules_group_t   g;
    ra_match_t         m, m2;
    ra_str_t           agent = ra_string("FooBot");

    (void) state;
    for (i = 0x21; i < 0x7f; i++) {
        if (i != '#' && i != '%' && i != '*' && i != '$') {
            wide[wl++] = (char) i;
        }
    }
    wide[wl] = '\0';
    body = malloc(400 * 40 + 64);
    for (round = 0; round < 2; round++) {
        alpha = round ? wide : narrow;
        for (f = 0; f < 150; f++) {
            /* 8 or fewer: the small index's direct path (ra_rules_match.c) */
            nrules = 1 + rnd(f % 3 == 0 ? 400 : f % 3 == 1 ? 8 : 40);
            bl = (size_t) sprintf(body, "user-agent: *\n");
            for (i = 0; i < nrules; i++) {
                lens[i] = 1;
                pats[i][0] = '/';
                for (j = 1 + rnd(12); j > 0; j--) {
                    a = (int) rnd(10);
                    pats[i][lens[i]++] = a < 2 ? '*'
                                               : alpha[rnd((uint32_t)
                                                           strlen(alpha))];
                }
                if (rnd(4) == 0) {
                    pats[i][lens[i]++] = '$';
                }
                pats[i][lens[i]] = '\0';
                allow[i] = rnd(3) == 0;
                bl += (size_t) sprintf(body + bl, "%s: %s\n",
                                       allow[i] ? "allow" : "disallow",
                                       pats[i]);
            }
            assert_int_equal(ra_rules_compile(ra_str(body, bl),
                                              &ra_malloc_allocator, &rs,
                                              NULL), RA_OK);
            ra_rules_group(rs, &agent, 1, &g);
            for (u = 0; u < 200; u++) {
                plen = 1;
                path[0] = '/';
                for (j = rnd(30); j > 0; j--) {
                    path[plen++] = alpha[rnd((uint32_t) strlen(alpha))];
                }
                a = d = -1;
                for (i = 0; i < nrules; i++) {
                    if (naive_matches(path, plen, pats[i], lens[i])) {
                        if (allow[i] && (int) lens[i] > a) {
                            a = (int) lens[i];
                        }
                        if (!allow[i] && (int) lens[i] > d) {
                            d = (int) lens[i];
                        }
                    }
                }
                assert_int_equal(ra_rules_match_group(rs, G, &g,
                                                      ra_str(path, plen),
                                                      NULL, &m), RA_OK);
                if (m.allowed != !(d > a)) {
                    fail_msg("%.*s: %s, expected %s\n%.*s", (int) plen, path,
                             m.allowed ? "allowed" : "disallowed",
                             d > a ? "disallowed" : "allowed", (int) bl,
                             body);
                }
                assert_int_equal(m.priority, (uint32_t) (a > d ? a : d < 0 ? 0 : d));
                assert_int_equal(ra_rules_match(rs, G, &agent, 1,
                                                ra_str(path, plen), NULL,
                                                &m2), RA_OK);
                assert_int_equal(m2.allowed, m.allowed);
                assert_int_equal(m2.line, m.line);
                /* rfc mode: the path's shape read once gives the same
                 * answer as the matcher reading it itself */
                assert_int_equal(ra_rules_match_group(rs, R, &g,
                                                      ra_str(path, plen),
                                                      NULL, &m), RA_OK);
                assert_int_equal(ra_rules_match_shaped(rs, R, &g,
                                     ra_str(path, plen),
                                     ra_rules_path_shape(ra_str(path, plen)),
                                     NULL, &m2), RA_OK);
                assert_int_equal(m2.allowed, m.allowed);
                assert_int_equal(m2.why, m.why);
                assert_int_equal(m2.type, m.type);
                assert_int_equal(m2.line, m.line);
                assert_int_equal(m2.priority, m.priority);
                assert_ptr_equal(m2.pattern.data, m.pattern.data);
                assert_int_equal(m2.pattern.len, m.pattern.len);
                assert_ptr_equal(m2.group.data, m.group.data);
                assert_int_equal(m2.group.len, m.group.len);
                assert_int_equal(m2.group_line, m.group_line);
                assert_int_equal(m2.crawl_delay_ms, m.crawl_delay_ms);
            }
            ra_rules_free(rs);
        }
    }
    free(body);
}

/* ra_rules_path_shape()'s answer, byte by byte from its definition */
static unsigned
shape_of(const unsigned char *p, size_t n)
{
    int           c, esc;
    size_t        i;
    unsigned      plain = 1, dotless = 1, query = 0;
    const char   *hex = "0123456789ABCDEFabcdef";

    if (n == 0 || p[0] != '/') {
        return 0;
    }
    for (i = 0; i < n; i++) {
        esc = p[i] == '%' && i + 2 < n && p[i + 1] && p[i + 2]
              && strchr(hex, p[i + 1]) && strchr(hex, p[i + 2]);
        c = esc ? ra_hexval(p[i + 1]) * 16 + ra_hexval(p[i + 2]) : -1;
        if (p[i] == '?') {
            query = 1;
        }
        if (!query && (c == '/' || (i && p[i - 1] == '/'
                                    && (p[i] == '/' || p[i] == '.'))))
        {
            dotless = 0;
        }
        if (esc && strchr("0123456789ABCDEF", p[i + 1])
            && strchr("0123456789ABCDEF", p[i + 2])
            && ((c | 0x20) < 'a' || (c | 0x20) > 'z')
            && (c < '0' || c > '9') && (c == 0 || !strchr("-._~", c)))
        {
            continue;           /* kept as it is in rfc mode */
        }
        if (p[i] <= 0x20 || p[i] >= 0x7f
            || strchr("\"<>\\^`{|}#%*$", p[i]) != NULL)
        {
            plain = 0;
        }
    }
    return (plain ? RA_PATH_PLAIN : 0) | (dotless ? RA_PATH_DOTLESS : 0)
           | (query ? RA_PATH_QUERY : 0);
}

static unsigned
shape_lit(const char *path)
{
    unsigned  r;
    ra_str_t  x = ra_test_exact(path, strlen(path));

    r = ra_rules_path_shape(x);
    ra_test_exact_free(x);
    return r;
}

/*
 * A path's shape (16 bytes a step, the last ones read again, a short
 * path padded) against its definition: every byte value at every place of
 * paths up to 40 bytes, and random paths of '/', '.', '?', a letter and
 * any byte, each in memory of its own length.  A plain, dotless path is
 * canonical to ra_http_canonical(), which the judge then does not ask.
 */
static void
ra_path_shape_by_definition(void **state)
{
    static const unsigned char  some[] = "/./.?a/%";
    unsigned char               b[80];
    size_t                      n, i, j, round;
    unsigned                    want, got;
    int                         c;
    ra_str_t                    x, agent = ra_string("FooBot");
    ra_rules_t                 *rs;
    ra_rules_group_t            g;
    ra_match_t                  m, m2;
    /* rules with escapes, as written and as normalised, for both the
     * small direct path (FooBot, 6 rules) and the trie (*, 9 rules) */
    ra_str_t                    body = ra_string(
        "user-agent: FooBot\ndisallow: /a%20\ndisallow: /%3e\n"
        "allow: /*%20a\ndisallow: /*%2F\nallow: /a/%41\ndisallow: /*?a\n"
        "user-agent: *\ndisallow: /%2f\ndisallow: /a%3E$\nallow: /a\n"
        "disallow: /*%25\nallow: /%7E\ndisallow: /*.a\nallow: /./\n"
        "disallow: /a/a\ndisallow: /*%20%20\n");

    (void) state;
    assert_int_equal(ra_rules_compile(body, &ra_malloc_allocator, &rs, NULL),
                     RA_OK);
    assert_int_equal(ra_rules_path_shape(ra_str("", 0)), 0);
    assert_int_equal(ra_rules_path_shape(ra_str(NULL, 0)), 0);
    assert_int_equal(shape_lit("a/b"), 0);
    assert_int_equal(shape_lit("/"),
                     RA_PATH_PLAIN | RA_PATH_DOTLESS);
    assert_int_equal(shape_lit("/a/./b"),
                     RA_PATH_PLAIN);
    assert_int_equal(shape_lit("/a?u=http://h/./"),
                     RA_PATH_PLAIN | RA_PATH_DOTLESS | RA_PATH_QUERY);
    assert_int_equal(shape_lit("/a%20b"),
                     RA_PATH_PLAIN | RA_PATH_DOTLESS);
    assert_int_equal(shape_lit("/a%3Eb%7B"),
                     RA_PATH_PLAIN | RA_PATH_DOTLESS);
    assert_int_equal(shape_lit("/a%3eb"), RA_PATH_DOTLESS);
    assert_int_equal(shape_lit("/a%41b"), RA_PATH_DOTLESS);
    assert_int_equal(shape_lit("/a%2Fb"), RA_PATH_PLAIN);
    assert_int_equal(shape_lit("/a%2fb"), 0);
    assert_int_equal(shape_lit("/a?b%2Fc%2F"),
                     RA_PATH_PLAIN | RA_PATH_DOTLESS | RA_PATH_QUERY);
    assert_int_equal(shape_lit("/a/0123456789abcdef?b%2Fc%2F%3A"),
                     RA_PATH_PLAIN | RA_PATH_DOTLESS | RA_PATH_QUERY);
    assert_int_equal(shape_lit("/a/0123456789abcdef%2F?b%2Fc%2F%3A"),
                     RA_PATH_PLAIN | RA_PATH_QUERY);
    assert_int_equal(shape_lit("/a%2"), RA_PATH_DOTLESS);
    assert_int_equal(shape_lit("/tags/why%20did%20this%20take%20all%20night"),
                     RA_PATH_PLAIN | RA_PATH_DOTLESS);
    assert_int_equal(shape_lit("/0123456789abcdef0123456789//"),
                     RA_PATH_PLAIN);
    assert_int_equal(shape_lit("/0123456789abcdef0123456789?//"),
                     RA_PATH_PLAIN | RA_PATH_DOTLESS | RA_PATH_QUERY);
    for (n = 1; n <= 40; n++) {
        for (i = 0; i < n; i++) {
            for (c = 0; c < 256; c++) {
                memset(b, 'a', n);
                b[0] = '/';
                b[i] = (unsigned char) c;
                if (i > 0 && c == '.') {
                    b[i - 1] = '/';     /* "/." at every place too */
                }
                x = ra_test_exact((const char *) b, n);
                want = shape_of(b, n);
                got = ra_rules_path_shape(x);
                if (got != want) {
                    fail_msg("byte 0x%02x at %zu of %zu: %u, expected %u", c,
                             i, n, got, want);
                }
                ra_test_exact_free(x);
            }
        }
    }
    for (round = 0; round < 200000; round++) {
        n = 1 + rnd(sizeof(b));
        b[0] = '/';
        for (j = 1; j < n; j++) {
            b[j] = rnd(8) ? some[rnd(sizeof(some) - 1)]
                          : (unsigned char) rnd(256);
            if (b[j] == '%' && j + 2 < n && rnd(2)) {
                /* an escape: kept ("%20") or not ("%2f", "%41", "%2F") */
                b[j + 1] = (unsigned char) "0123456789ABCDEFabcdef"[rnd(22)];
                b[j + 2] = (unsigned char) "0123456789ABCDEFabcdef"[rnd(22)];
                j += 2;
            }
        }
        x = ra_test_exact((const char *) b, n);
        want = shape_of(b, n);
        got = ra_rules_path_shape(x);
        if (got != want) {
            fail_msg("%.*s: %u, expected %u", (int) n, b, got, want);
        }
        if ((got & (RA_PATH_PLAIN | RA_PATH_DOTLESS))
            == (RA_PATH_PLAIN | RA_PATH_DOTLESS))
        {
            assert_true(ra_http_canonical(x));
        }
        /* a plain path, read where it is, is judged as its normal form */
        for (j = 0; j < 2; j++) {
            ra_rules_group(rs, &agent, 1, &g);
            assert_int_equal(ra_rules_match_group(rs, R, &g, x, NULL, &m),
                             RA_OK);
            assert_int_equal(ra_rules_match_shaped(rs, R, &g, x, got, NULL,
                                                   &m2), RA_OK);
            assert_int_equal(m2.allowed, m.allowed);
            assert_int_equal(m2.why, m.why);
            assert_int_equal(m2.line, m.line);
            agent = ra_str("Other", 5);
        }
        agent = ra_str("FooBot", 6);
        ra_test_exact_free(x);
    }
    ra_rules_free(rs);
}

static void
ra_stats_and_empty_rule_set(void **state)
{
    ra_str_t          body = RA_TEST_STR("sitemap: http://h/s.xml\n"
                                         "user-agent: a\nuser-agent: B\n"
                                         "disallow: /x\nallow: /y\n"
                                         "user-agent: *\ndisallow:\n");
    ra_rules_t       *rs;
    ra_rules_stats_t  st;
    ra_match_t        m;
    ra_str_t          agent = ra_string("a"), path = ra_string("/x");

    (void) state;
    assert_int_equal(ra_rules_compile(body, &ra_malloc_allocator, &rs, NULL),
                     RA_OK);
    ra_rules_stats(rs, &st);
    assert_int_equal(st.groups, 2);
    assert_int_equal(st.rules, 3);
    assert_int_equal(st.agents, 2);
    assert_int_equal(st.sitemaps, 1);
    assert_true(st.has_global);
    ra_rules_free(rs);
    ra_test_exact_free(body);

    assert_int_equal(ra_rules_empty(&ra_malloc_allocator, &rs), RA_OK);
    assert_int_equal(ra_rules_match(rs, R, &agent, 1, path, NULL, &m), RA_OK);
    assert_true(m.allowed);
    ra_rules_free(rs);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rfc9309_agent_case_insensitive),
        cmocka_unit_test(rfc9309_groups_for_same_agent_merge),
        cmocka_unit_test(rfc9309_consecutive_agents_share_group),
        cmocka_unit_test(rfc9309_global_group_fallback),
        cmocka_unit_test(google_specific_group_replaces_global_even_empty),
        cmocka_unit_test(google_no_prefix_fallback_between_tokens),
        cmocka_unit_test(ra_agent_preference_order),
        cmocka_unit_test(google_agent_value_cut_to_token),
        cmocka_unit_test(rfc9309_rules_outside_groups_ignored),
        cmocka_unit_test(google_url_path_params_query),
        cmocka_unit_test(rfc9309_anchored_case_sensitive),
        cmocka_unit_test(google_longest_pattern_wins),
        cmocka_unit_test(rfc9309_tie_goes_to_allow),
        cmocka_unit_test(rfc9309_no_match_allowed),
        cmocka_unit_test(rfc9309_empty_disallow_restricts_nothing),
        cmocka_unit_test(rfc9309_robots_txt_always_allowed),
        cmocka_unit_test(rfc9309_wildcards_and_end_anchor),
        cmocka_unit_test(google_dollar_inside_is_literal),
        cmocka_unit_test(google_pattern_must_start_with_slash),
        cmocka_unit_test(rfc9309_percent_encoding_normalised),
        cmocka_unit_test(google_only_rule_normalised),
        cmocka_unit_test(google_index_html_allows_directory),
        cmocka_unit_test(google_empty_url_is_root),
        cmocka_unit_test(ra_match_reports_deciding_rule),
        cmocka_unit_test(ra_match_reports_deciding_group_line),
        cmocka_unit_test(ra_merge_budget_fallback_same_answer),
        cmocka_unit_test(ra_hostile_paths),
        cmocka_unit_test(ra_unmerged_groups_with_wildcards),
        cmocka_unit_test(ra_random_rules_agree_with_naive),
        cmocka_unit_test(ra_path_shape_by_definition),
        cmocka_unit_test(ra_stats_and_empty_rule_set),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
