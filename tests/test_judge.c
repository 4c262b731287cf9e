/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The pure judge (ra_judge), verdict by verdict, on hand-made state: no
 * ledger, no lock, rule sets compiled here.  Each case names the rule of
 * docs/design.md, "Verdicts", it covers; the windows are tested on both sides.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ra_test.h"
#include "ra_audit.h"

#define H        (3600LL * 1000)
#define NOW      (1700000000000LL)

typedef struct {
    ra_judge_state_t   g;
    ra_rules_t        *rs[RA_VERSIONS];
    int                calls[RA_VERSIONS];
    int                fail;            /* version that is out of memory */
    ra_str_t           tokens[2];
    ra_judge_who_t     who;
} jx_t;

static int
jx_resolve(const ra_judge_state_t *g, unsigned k, const ra_rules_t **rs)
{
    jx_t  *x = g->ctx;

    assert_true(k < RA_VERSIONS);
    x->calls[k]++;
    if ((int) k == x->fail) {
        *rs = NULL;
        return RA_ENOMEM;
    }
    *rs = x->rs[k];
    return RA_OK;
}

static jx_t *
jx_new(unsigned flags)
{
    jx_t  *x = calloc(1, sizeof(*x));

    assert_non_null(x);
    x->g.facts.current = -1;
    x->g.resolve = jx_resolve;
    x->g.ctx = x;
    x->fail = -1;
    x->tokens[0] = (ra_str_t) ra_string("TestBot");
    x->who.tokens = x->tokens;
    x->who.ntokens = 1;
    x->who.flags = flags;
    return x;
}

/* Version k: body's rules, replaced at until (0: current). */
static void
jx_version(jx_t *x, unsigned k, const char *body, int64_t until)
{
    ra_version_fact_t  *v = &x->g.facts.versions[k];

    assert_int_equal(ra_rules_compile(ra_str(body, strlen(body)),
                                      &ra_malloc_allocator, &x->rs[k], NULL),
                     RA_OK);
    v->hash = 0x100 + k;
    v->answer = RA_ANSWER_RULES;
    v->status = 200;
    v->until = until;
    if (until == 0) {
        x->g.facts.current = (int) k;
    }
}

static void
jx_free(jx_t *x)
{
    unsigned  k;

    for (k = 0; k < RA_VERSIONS; k++) {
        ra_rules_free(x->rs[k]);
    }
    free(x);
}

static ra_verdict_t
judge(jx_t *x, const char *path, int64_t now)
{
    ra_verdict_t  v;

    memset(&v, 0xa5, sizeof(v));        /* every field it sets, set */
    v.alert = 0;
    v.suppressed = 0;
    assert_int_equal(ra_judge(&x->g, &x->who, ra_str(path, strlen(path)),
                              now, &v), RA_OK);
    return v;
}

/* compliant: the current group allows the path */
static void
judge_compliant(void **state)
{
    jx_t          *x = jx_new(0);
    ra_verdict_t   v;

    (void) state;
    jx_version(x, 0, "User-agent: *\nDisallow: /x\nAllow: /x/ok\n", 0);
    v = judge(x, "/y", NOW);
    assert_int_equal(v.verdict, RA_VERDICT_COMPLIANT);
    assert_int_equal(v.line, 0);
    assert_int_equal(v.pattern_len, 0);
    assert_int_equal(v.token_len, 1);
    assert_memory_equal(v.token, "*", 1);
    v = judge(x, "/x/ok/1", NOW);
    assert_int_equal(v.verdict, RA_VERDICT_COMPLIANT);
    assert_int_equal(v.line, 3);
    assert_int_equal(v.rule_type, RA_RULE_ALLOW);
    assert_false(ra_enforce_refuses(RA_ENFORCE_ALL, &v));
    /* no robots.txt known: nothing to judge against, so not compliant
     * either: unknown, never refused */
    x->g.facts.current = -1;
    v = judge(x, "/x", NOW);
    assert_int_equal(v.verdict, RA_VERDICT_UNKNOWN);
    assert_false(ra_enforce_refuses(RA_ENFORCE_ALL, &v));
    jx_free(x);
}

/* the group chosen once per (rule set, who->key): the memo's answers are
 * those of a choice per path, whoever shares a slot; a forgotten set
 * leaves no slot behind */
static void
judge_group_memo(void **state)
{
    static const char *const  names[] = { "TestBot", "OtherBot", "NoBot" };
    jx_t             *x = jx_new(0), *y = jx_new(0);
    ra_group_memo_t   memo;
    ra_verdict_t      v, w;
    ra_str_t          tokens[1];
    int               i, k, keys[64];
    const char       *paths[] = { "/a", "/b/c", "/c" };

    (void) state;
    memset(&memo, 0, sizeof(memo));
    x->g.memo = &memo;
    jx_version(x, 0, "User-agent: TestBot\nDisallow: /a\n\n"
                     "User-agent: OtherBot\nDisallow: /b\n\n"
                     "User-agent: *\nDisallow: /c\n", 0);
    jx_version(y, 0, "User-agent: TestBot\nDisallow: /a\n\n"
                     "User-agent: OtherBot\nDisallow: /b\n\n"
                     "User-agent: *\nDisallow: /c\n", 0);
    x->who.tokens = tokens;
    y->who.tokens = tokens;
    for (i = 0; i < 600; i++) {
        k = i % 3;
        tokens[0] = ra_str(names[k], strlen(names[k]));
        /* 63 keys, each always with the same name (its index mod 3) */
        x->who.key = &keys[((i * 5) % 21) * 3 + k];
        v = judge(x, paths[i % 3], NOW);
        w = judge(y, paths[i % 3], NOW);
        assert_int_equal(v.verdict, w.verdict);
        assert_int_equal(v.line, w.line);
        assert_int_equal(v.token_len, w.token_len);
        assert_memory_equal(v.token, w.token, v.token_len);
    }
    v = judge(x, "/a", NOW);
    assert_int_equal(v.verdict, RA_VERDICT_COMPLIANT);  /* "NoBot": "*" */
    for (i = 0, k = 0; i < RA_GROUP_MEMO; i++) {
        k += memo.slot[i].rules == x->rs[0];
    }
    assert_true(k > 0);
    ra_group_memo_forget(&memo, x->rs[0]);
    for (i = 0; i < RA_GROUP_MEMO; i++) {
        assert_null(memo.slot[i].rules);
    }
    jx_free(x);
    jx_free(y);
}

/* generic bots (no key): the group remembered by the token's bytes, the
 * verdicts those of a choice per path, the token shown the request's own
 * (each spelling in a buffer of its own, reused for the next one) */
static void
judge_group_memo_tokens(void **state)
{
    static const char *const  names[] = {
        "TestBot", "testbot", "OtherBot", "NoBot", "*", "T",
        "AVeryLongGenericBotNameOfMoreThan32Bytes", "OTHERBOT",
    };
    jx_t             *x = jx_new(0), *y = jx_new(0);
    ra_group_memo_t   memo;
    ra_verdict_t      v, w;
    ra_str_t          tokens[1];
    char              bufs[3][64], *buf;
    int               i, k;
    const char       *paths[] = { "/a", "/b/c", "/c", "/d" };

    (void) state;
    memset(&memo, 0, sizeof(memo));
    x->g.memo = &memo;
    jx_version(x, 0, "User-agent: TestBot\nDisallow: /a\n\n"
                     "User-agent: OtherBot\nDisallow: /b\n\n"
                     "User-agent: AVeryLongGenericBotNameOfMoreThan32Bytes\n"
                     "Disallow: /d\n\n"
                     "User-agent: *\nDisallow: /c\n", 0);
    jx_version(y, 0, "User-agent: TestBot\nDisallow: /a\n\n"
                     "User-agent: OtherBot\nDisallow: /b\n\n"
                     "User-agent: AVeryLongGenericBotNameOfMoreThan32Bytes\n"
                     "Disallow: /d\n\n"
                     "User-agent: *\nDisallow: /c\n", 0);
    x->who.tokens = tokens;
    y->who.tokens = tokens;
    x->who.key = NULL;
    y->who.key = NULL;
    for (i = 0; i < 800; i++) {
        k = (i * 7) % (int) (sizeof(names) / sizeof(names[0]));
        /* the last request's token gone: a stale span would show it */
        buf = bufs[i % 3];
        memset(bufs[(i + 2) % 3], 'q', sizeof(bufs[0]));
        memset(buf, 'z', sizeof(bufs[0]));
        memcpy(buf, names[k], strlen(names[k]));
        tokens[0] = ra_str(buf, strlen(names[k]));
        v = judge(x, paths[i % 4], NOW);
        w = judge(y, paths[i % 4], NOW);
        assert_int_equal(v.verdict, w.verdict);
        assert_int_equal(v.line, w.line);
        assert_int_equal(v.token_len, w.token_len);
        assert_memory_equal(v.token, w.token, v.token_len);
        if (v.token_len != 1 || v.token[0] != '*') {
            /* the group's token is this request's spelling */
            assert_memory_equal(v.token, names[k], v.token_len);
        }
    }
    /* a generic bot that named a group: remembered, and forgotten */
    tokens[0] = (ra_str_t) ra_string("OtherBot");
    v = judge(x, "/b/x", NOW);
    assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
    for (i = 0, k = 0; i < RA_GROUP_MEMO; i++) {
        k += memo.slot[i].rules == x->rs[0] && memo.slot[i].key == NULL
             && memo.slot[i].token_len == 8;
    }
    assert_true(k > 0);
    ra_group_memo_forget(&memo, x->rs[0]);
    for (i = 0; i < RA_GROUP_MEMO; i++) {
        assert_null(memo.slot[i].rules);
    }
    jx_free(x);
    jx_free(y);
}

/* violation: a site's only version disallows, nothing older to go by */
static void
judge_violation_single_version(void **state)
{
    jx_t          *x = jx_new(0);
    ra_verdict_t   v;

    (void) state;
    jx_version(x, 0, "User-agent: *\nDisallow: /x\n", 0);
    v = judge(x, "/x/1", NOW);
    assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
    assert_int_equal(v.line, 2);
    assert_int_equal(v.rule_type, RA_RULE_DISALLOW);
    assert_int_equal(ra_verdict_pattern(&v).len, 2);
    assert_memory_equal(ra_verdict_pattern(&v).data, "/x", 2);
    assert_true(ra_enforce_refuses(RA_ENFORCE_ALL, &v));
    /* rfc mode: %-escapes of unreserved bytes do not escape the rule */
    v = judge(x, "/%78/2", NOW);
    assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
    jx_free(x);
}

/* stale: the version the crawler last fetched (within 24 h) allowed the
 * path; when it fetched the disallowing one, a violation */
static void
judge_stale_by_last_fetched_version(void **state)
{
    jx_t          *x = jx_new(0);
    ra_verdict_t   v;

    (void) state;
    jx_version(x, 0, "User-agent: *\nDisallow: /old\n", NOW - 2 * H);
    jx_version(x, 1, "User-agent: *\nDisallow: /new\n", 0);
    x->g.facts.last_fetch = NOW - 3 * H;
    x->g.facts.last_fetch_status = 200;
    x->g.facts.last_fetch_version = x->g.facts.versions[0].hash;
    v = judge(x, "/new/page", NOW);
    assert_int_equal(v.verdict, RA_VERDICT_STALE);
    assert_false(ra_enforce_refuses(RA_ENFORCE_ALL, &v));
    assert_int_equal(v.flags & RA_FLAG_NO_ROBOTS_FETCH, 0);
    /* the deciding rule is still the current version's */
    assert_int_equal(v.line, 2);
    assert_memory_equal(v.pattern, "/new", 4);

    x->g.facts.last_fetch_version = x->g.facts.versions[1].hash;
    v = judge(x, "/new/page", NOW);
    assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
    jx_free(x);
}

/* stale without a fetch in 24 h: a version in force at some time in the
 * last 24 h allowed the path; replaced longer ago, a violation */
static void
judge_stale_by_version_in_force_24h(void **state)
{
    jx_t          *x = jx_new(0);
    ra_verdict_t   v;

    (void) state;
    jx_version(x, 0, "User-agent: *\nDisallow: /old\n", NOW - 24 * H + 1);
    jx_version(x, 1, "User-agent: *\nDisallow: /new\n", 0);
    v = judge(x, "/new/x", NOW);
    assert_int_equal(v.verdict, RA_VERDICT_STALE);
    assert_true(v.flags & RA_FLAG_NO_ROBOTS_FETCH);

    x->g.facts.versions[0].until = NOW - 24 * H - 1;
    v = judge(x, "/new/x", NOW);
    assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);

    /* a fetch older than 24 h does not pin the crawler to its version */
    x->g.facts.versions[0].until = NOW - H;
    x->g.facts.last_fetch = NOW - 25 * H;
    x->g.facts.last_fetch_status = 200;
    x->g.facts.last_fetch_version = x->g.facts.versions[1].hash;
    v = judge(x, "/new/x", NOW);
    assert_int_equal(v.verdict, RA_VERDICT_STALE);
    assert_true(v.flags & RA_FLAG_NO_ROBOTS_FETCH);
    jx_free(x);
}

/* unreachable: the last answer it got was 5xx/429 and it crawls within
 * 12 h, whatever the rules say; not after */
static void
judge_unreachable_within_12h(void **state)
{
    static const int  statuses[] = { 503, 500, 429 };
    jx_t             *x = jx_new(0);
    ra_verdict_t      v;
    unsigned          i;

    (void) state;
    jx_version(x, 0, "User-agent: *\nDisallow: /x\n", 0);
    for (i = 0; i < 3; i++) {
        x->g.facts.last_fetch_status = statuses[i];
        x->g.facts.last_fetch = NOW - 12 * H + 1;
        v = judge(x, "/allowed", NOW);
        assert_int_equal(v.verdict, RA_VERDICT_UNREACHABLE);
        assert_true(ra_enforce_refuses(RA_ENFORCE_ALL, &v));
        assert_int_equal(v.line, 0);
        assert_int_equal(v.pattern_len, 0);
        x->g.facts.last_fetch = NOW - 12 * H;
        v = judge(x, "/allowed", NOW);
        assert_int_equal(v.verdict, RA_VERDICT_COMPLIANT);
        v = judge(x, "/x", NOW);
        assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
    }
    /* a 404 is no failure */
    x->g.facts.last_fetch_status = 404;
    x->g.facts.last_fetch = NOW - 1;
    v = judge(x, "/allowed", NOW);
    assert_int_equal(v.verdict, RA_VERDICT_COMPLIANT);
    jx_free(x);
}

/* exempt: user-triggered fetchers; no rule set is even looked at */
static void
judge_exempt(void **state)
{
    jx_t          *x = jx_new(RA_CRAWLER_USER_TRIGGERED);
    ra_verdict_t   v;

    (void) state;
    jx_version(x, 0, "User-agent: *\nDisallow: /\nCrawl-delay: 60\n", 0);
    x->g.facts.prev_request = NOW - 1;
    v = judge(x, "/private", NOW);
    assert_int_equal(v.verdict, RA_VERDICT_EXEMPT);
    assert_int_equal(v.flags, 0);
    assert_int_equal(v.line, 0);
    assert_int_equal(x->calls[0], 0);
    assert_false(ra_enforce_refuses(RA_ENFORCE_ALL, &v));
    jx_free(x);
}

/* crawlers that ignore "*" (AdsBot-Google): no group applies, unless one
 * names them */
static void
judge_ignores_star(void **state)
{
    jx_t          *x = jx_new(RA_CRAWLER_IGNORES_STAR
                              | RA_CRAWLER_CRAWL_DELAY);
    ra_verdict_t   v;

    (void) state;
    jx_version(x, 0, "User-agent: *\nDisallow: /\nCrawl-delay: 30\n", 0);
    x->g.facts.prev_request = NOW - 1000;
    v = judge(x, "/private", NOW);
    assert_int_equal(v.verdict, RA_VERDICT_COMPLIANT);
    assert_int_equal(v.line, 0);
    assert_int_equal(v.token_len, 0);
    assert_int_equal(v.pattern_len, 0);
    /* the "*" group's Crawl-delay is not its either */
    assert_int_equal(v.flags & RA_FLAG_CRAWL_DELAY, 0);
    ra_rules_free(x->rs[0]);
    x->rs[0] = NULL;

    jx_version(x, 0, "User-agent: *\nDisallow: /\n\n"
                     "User-agent: TestBot\nDisallow: /t\n", 0);
    v = judge(x, "/t/1", NOW);
    assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
    assert_int_equal(v.line, 5);
    assert_int_equal(v.token_len, 7);
    assert_memory_equal(v.token, "TestBot", 7);
    jx_free(x);
}

/* crawl_delay: the gap since the previous request is below the group's
 * Crawl-delay, for crawlers that honour it */
static void
judge_crawl_delay_flag(void **state)
{
    jx_t          *x = jx_new(RA_CRAWLER_CRAWL_DELAY);
    ra_verdict_t   v;

    (void) state;
    jx_version(x, 0, "User-agent: *\nCrawl-delay: 10\nDisallow: /x\n", 0);
    x->g.facts.prev_request = NOW - 9999;
    v = judge(x, "/a", NOW);
    assert_int_equal(v.verdict, RA_VERDICT_COMPLIANT);
    assert_true(v.flags & RA_FLAG_CRAWL_DELAY);
    v = judge(x, "/x", NOW);                /* on violations too */
    assert_true(v.flags & RA_FLAG_CRAWL_DELAY);
    x->g.facts.prev_request = NOW - 10000;
    v = judge(x, "/a", NOW);
    assert_int_equal(v.flags & RA_FLAG_CRAWL_DELAY, 0);
    x->g.facts.prev_request = 0;            /* its first request */
    v = judge(x, "/a", NOW);
    assert_int_equal(v.flags & RA_FLAG_CRAWL_DELAY, 0);
    /* one that does not honour Crawl-delay is never flagged */
    x->who.flags = 0;
    x->g.facts.prev_request = NOW - 1;
    v = judge(x, "/a", NOW);
    assert_int_equal(v.flags & RA_FLAG_CRAWL_DELAY, 0);
    jx_free(x);
}

/* no_robots_fetch: no robots.txt fetch in the last 24 h */
static void
judge_no_robots_fetch_flag(void **state)
{
    jx_t          *x = jx_new(0);
    ra_verdict_t   v;

    (void) state;
    jx_version(x, 0, "User-agent: *\nDisallow: /x\n", 0);
    v = judge(x, "/a", NOW);
    assert_true(v.flags & RA_FLAG_NO_ROBOTS_FETCH);
    x->g.facts.last_fetch = NOW - 24 * H + 1;
    x->g.facts.last_fetch_status = 200;
    v = judge(x, "/a", NOW);
    assert_int_equal(v.flags & RA_FLAG_NO_ROBOTS_FETCH, 0);
    x->g.facts.last_fetch = NOW - 24 * H;
    v = judge(x, "/a", NOW);
    assert_true(v.flags & RA_FLAG_NO_ROBOTS_FETCH);
    jx_free(x);
}

/* older versions are resolved only when the current one disallows, and
 * the search stops at the first that allows */
static void
judge_resolves_lazily(void **state)
{
    jx_t          *x = jx_new(0);
    ra_verdict_t   v;

    (void) state;
    jx_version(x, 0, "User-agent: *\nDisallow: /a\n", NOW - 3 * H);
    jx_version(x, 1, "User-agent: *\nDisallow: /b\n", NOW - 2 * H);
    jx_version(x, 2, "User-agent: *\nDisallow: /a\nDisallow: /b\n", 0);
    v = judge(x, "/c", NOW);
    assert_int_equal(v.verdict, RA_VERDICT_COMPLIANT);
    assert_int_equal(x->calls[2], 1);
    assert_int_equal(x->calls[0] + x->calls[1], 0);

    v = judge(x, "/a", NOW);                /* version 1 allowed it */
    assert_int_equal(v.verdict, RA_VERDICT_STALE);
    assert_int_equal(x->calls[2], 2);
    assert_int_equal(x->calls[0], 1);
    assert_int_equal(x->calls[1], 1);
    v = judge(x, "/b", NOW);                /* version 0 allowed it */
    assert_int_equal(v.verdict, RA_VERDICT_STALE);
    assert_int_equal(x->calls[0], 2);
    assert_int_equal(x->calls[1], 1);

    /* without resolve(), rules[] */
    x->g.resolve = NULL;
    x->g.rules[0] = x->rs[0];
    x->g.rules[2] = x->rs[2];               /* version 1: unknown */
    v = judge(x, "/a", NOW);
    assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
    v = judge(x, "/b", NOW);
    assert_int_equal(v.verdict, RA_VERDICT_STALE);
    jx_free(x);
}

/* a rule set that cannot be had: not judged, whichever version */
static void
judge_enomem_not_judged(void **state)
{
    jx_t          *x = jx_new(0);
    ra_verdict_t   v;

    (void) state;
    jx_version(x, 0, "User-agent: *\nDisallow: /a\n", NOW - H);
    jx_version(x, 1, "User-agent: *\nDisallow: /a\nDisallow: /b\n", 0);
    x->fail = 1;
    assert_int_equal(ra_judge(&x->g, &x->who, ra_str("/b", 2), NOW, &v),
                     RA_ENOMEM);
    assert_int_equal(v.verdict, RA_VERDICT_NONE);
    x->fail = 0;
    assert_int_equal(ra_judge(&x->g, &x->who, ra_str("/c", 2), NOW, &v),
                     RA_OK);                /* version 0 not needed */
    assert_int_equal(v.verdict, RA_VERDICT_COMPLIANT);
    assert_int_equal(ra_judge(&x->g, &x->who, ra_str("/b", 2), NOW, &v),
                     RA_ENOMEM);
    assert_int_equal(v.verdict, RA_VERDICT_NONE);
    assert_int_equal(v.line, 0);
    assert_int_equal(v.pattern_len, 0);
    assert_int_equal(v.flags, 0);
    assert_false(ra_enforce_refuses(RA_ENFORCE_ALL, &v));
    jx_free(x);
}

/* the verdict holds copies: it outlives the rule sets */
static void
judge_verdict_outlives_rules(void **state)
{
    jx_t          *x = jx_new(0);
    ra_verdict_t   v;
    unsigned       k;
    char           body[200], want[RA_PATTERN_MAX];

    (void) state;
    /* a pattern longer than a verdict keeps: cut at RA_PATTERN_MAX */
    memset(want, 'p', sizeof(want));
    want[0] = '/';
    snprintf(body, sizeof(body), "User-agent: *\nDisallow: /%.*s\n", 150,
             "pppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppp"
             "pppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppp"
             "pppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppp");
    jx_version(x, 0, body, 0);
    v = judge(x, "/pppppppppppppppppppppppppppppppppppppppppppppppppppppppp"
                 "pppppppppppppppppppppppppppppppppppppppppppppppppppppppp"
                 "pppppppppppppppppppppppppppppppppppppppppppppppppppppppp",
              NOW);
    assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
    for (k = 0; k < RA_VERSIONS; k++) {
        ra_rules_free(x->rs[k]);
        x->rs[k] = NULL;
    }
    assert_int_equal(ra_verdict_pattern(&v).len, RA_PATTERN_MAX);
    assert_memory_equal(ra_verdict_pattern(&v).data, want, RA_PATTERN_MAX);
    assert_memory_equal(ra_verdict_token(&v).data, "*", 1);
    jx_free(x);
}

/* A disallowed resource spelled another way is the same
 * resource.  The path as received and its canonical form are both
 * judged; the stricter verdict wins, and the deciding rule is the
 * disallowing spelling's (docs/design.md, "Verdicts"). */
static void
judge_spellings_of_one_resource(void **state)
{
    static const char  *const spellings[] = {
        "/private/x", "//private/x", "///private/x", "/./private/x",
        "/private/./x", "/private//x", "/a/../private/x",
        "/a/b/../../private/x", "/private/y/../x", "/%2Fprivate/x",
        "/%2fprivate/x", "/private%2Fx", "/%2e/private/x", "/%2E/private/x",
        "/a/%2e%2e/private/x", "/a/%2E%2E/private/x", "/a/.%2e/private/x",
        "/.%2fprivate/x", "/a/..%2fprivate/x", "/robots.txt/../private/x",
        "/%70rivate/x", "/priv%61te/%78", "/private/x?q=1",
        "/private/./x?a=1", "/../private/x", "/%2e%2e/private/x",
        "/private/x/.", "/private/x/", "/private/x;p=1",
        "/private/x%00", "/private/", "/private%2F",
    };
    static const char  *const allowed[] = {
        "/PRIVATE/x", "/Private/x", "/public", "/private", "/privatex",
        "/private%252fx", "/%252e/private/x", "/priv%2561te/x",
        "/x?/private/", "/x?a=/../private/", "/private%3F/x",
        "/robots.txt", "/./robots.txt",
    };
    jx_t          *x = jx_new(0);
    ra_verdict_t   v;
    size_t         i;

    (void) state;
    jx_version(x, 0, "User-agent: *\nDisallow: /private/\nAllow: /p\n", 0);
    for (i = 0; i < sizeof(spellings) / sizeof(spellings[0]); i++) {
        v = judge(x, spellings[i], NOW);
        if (v.verdict != RA_VERDICT_VIOLATION) {
            print_message("\"%s\": %s\n", spellings[i],
                          ra_verdict_name(v.verdict));
            fail();
        }
        assert_int_equal(v.line, 2);
        assert_int_equal(v.pattern_len, 9);
        assert_memory_equal(v.pattern, "/private/", 9);
        assert_true(ra_enforce_refuses(RA_ENFORCE_ALL, &v));
    }
    for (i = 0; i < sizeof(allowed) / sizeof(allowed[0]); i++) {
        v = judge(x, allowed[i], NOW);
        if (v.verdict != RA_VERDICT_COMPLIANT) {
            print_message("\"%s\": %s\n", allowed[i],
                          ra_verdict_name(v.verdict));
            fail();
        }
    }
    jx_free(x);
}

/* the path as received still counts: a rule on a spelling the server
 * would canonicalise away disallows it */
static void
judge_raw_spelling_still_judged(void **state)
{
    jx_t          *x = jx_new(0);
    ra_verdict_t   v;

    (void) state;
    jx_version(x, 0, "User-agent: *\nDisallow: /a//b\nDisallow: /c/./\n"
               "Disallow: /%2e%2e/\n", 0);
    v = judge(x, "/a//b", NOW);                 /* canonical "/a/b" */
    assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
    assert_int_equal(v.line, 2);
    v = judge(x, "/c/./d", NOW);                /* canonical "/c/d" */
    assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
    assert_int_equal(v.line, 3);
    v = judge(x, "/../x", NOW);                 /* "%2e" is "." (rfc) */
    assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
    assert_int_equal(v.line, 4);
    v = judge(x, "/a/b", NOW);
    assert_int_equal(v.verdict, RA_VERDICT_COMPLIANT);
    /* the raw spelling allowed, the canonical one disallowed: the
     * canonical one's rule decides */
    jx_free(x);
    x = jx_new(0);
    jx_version(x, 0, "User-agent: *\nAllow: /a/\nDisallow: /b\n", 0);
    v = judge(x, "/a/../b", NOW);
    assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
    assert_int_equal(v.line, 3);
    assert_int_equal(v.rule_type, RA_RULE_DISALLOW);
    assert_memory_equal(v.pattern, "/b", 2);
    /* both allowed: the path as received decides the rule shown */
    v = judge(x, "/a/./c", NOW);
    assert_int_equal(v.verdict, RA_VERDICT_COMPLIANT);
    assert_int_equal(v.line, 2);
    assert_int_equal(v.rule_type, RA_RULE_ALLOW);
    jx_free(x);
}

/* stale: an older copy excuses the request only when it allows both
 * spellings; one that allows the canonical path and disallows the path
 * as received does not */
static void
judge_spellings_stale(void **state)
{
    jx_t          *x = jx_new(0);
    ra_verdict_t   v;

    (void) state;
    jx_version(x, 0, "User-agent: *\nDisallow: /a/\n", NOW - 2 * H);
    jx_version(x, 1, "User-agent: *\nDisallow: /p/\n", 0);
    x->g.facts.last_fetch = NOW - 3 * H;
    x->g.facts.last_fetch_status = 200;
    x->g.facts.last_fetch_version = x->g.facts.versions[0].hash;
    /* the current copy disallows "/p/x", the fetched one allowed it */
    v = judge(x, "/b/../p/x", NOW);
    assert_int_equal(v.verdict, RA_VERDICT_STALE);
    assert_memory_equal(v.pattern, "/p/", 3);
    /* the fetched copy allows "/p/x" but disallows "/a/../p/x" */
    v = judge(x, "/a/../p/x", NOW);
    assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
    assert_memory_equal(v.pattern, "/p/", 3);
    /* the current copy allows both spellings of "/a/../q" */
    v = judge(x, "/a/../q", NOW);
    assert_int_equal(v.verdict, RA_VERDICT_COMPLIANT);
    jx_free(x);
}

/* a canonical form longer than the stack takes scratch memory, returned;
 * without it, the canonical form of the path's first bytes */
static void
judge_spellings_long(void **state)
{
    jx_t          *x = jx_new(0);
    ra_verdict_t   v;
    ra_match_t     m;
    char          *path;
    size_t         i, n;

    (void) state;
    jx_version(x, 0, "User-agent: *\nDisallow: /private/\n", 0);
    n = 1 + 5 * 2000 + 9;
    path = malloc(n + 1);
    assert_non_null(path);
    path[0] = '/';
    for (i = 0; i < 2000; i++) {
        memcpy(path + 1 + 5 * i, "a/../", 5);
    }
    memcpy(path + 1 + 5 * i, "private/x", 10);
    x->g.scratch = &ra_malloc_allocator;
    v = judge(x, path, NOW);
    assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
    assert_false(ra_judge_allows(x->rs[0], &x->who, ra_str(path, n),
                                 &ra_malloc_allocator, &m));
    assert_int_equal(m.line, 2);
    /* no scratch: the first RA_MATCH_STACK - 1 bytes, "/a/../a/..",
     * allowed */
    x->g.scratch = NULL;
    v = judge(x, path, NOW);
    assert_int_equal(v.verdict, RA_VERDICT_COMPLIANT);
    /* ... as long as they hold the whole path */
    v = judge(x, "/a/../private/x", NOW);
    assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
    assert_true(ra_judge_allows(x->rs[0], &x->who,
                                (ra_str_t) ra_string("/a/../public"), NULL,
                                &m));
    free(path);
    jx_free(x);
}

/* unreachable_30d: 30 days of 5xx/429 on robots.txt while
 * the site's other pages answer: as if there were no robots.txt, so
 * compliant with the flag, whatever the rules in force or the crawler's
 * own failed fetch say; each condition tested on both sides */
static void
judge_unreachable_30d(void **state)
{
    jx_t          *x = jx_new(0);
    ra_verdict_t   v;

    (void) state;
    jx_version(x, 0, "User-agent: *\nDisallow: /\nCrawl-delay: 5\n", 0);
    x->g.facts.last_fetch = NOW - H;
    x->g.facts.last_fetch_status = 503;
    x->g.facts.failing_since = NOW - RA_UNREACHABLE_30D_MS;
    x->g.facts.pages_answered = NOW - 24 * H + 1;
    v = judge(x, "/private/x", NOW);
    assert_int_equal(v.verdict, RA_VERDICT_COMPLIANT);
    assert_true(v.flags & RA_FLAG_UNREACHABLE_30D);
    assert_int_equal(v.line, 0);
    assert_int_equal(v.crawl_delay_ms, 0);     /* no robots.txt: no delay */
    assert_false(ra_enforce_refuses(RA_ENFORCE_ALL, &v));

    /* a millisecond short of 30 days: still the 12-hour rule */
    x->g.facts.failing_since = NOW - RA_UNREACHABLE_30D_MS + 1;
    v = judge(x, "/private/x", NOW);
    assert_int_equal(v.verdict, RA_VERDICT_UNREACHABLE);
    assert_false(v.flags & RA_FLAG_UNREACHABLE_30D);

    /* the site's pages not answering within 24 h: not the phase (the
     * last good rules, or here the crawler's own failure, decide) */
    x->g.facts.failing_since = NOW - 40 * 24 * H;
    x->g.facts.pages_answered = NOW - 24 * H;
    v = judge(x, "/private/x", NOW);
    assert_int_equal(v.verdict, RA_VERDICT_UNREACHABLE);
    x->g.facts.pages_answered = 0;
    x->g.facts.last_fetch = 0;
    v = judge(x, "/private/x", NOW);
    assert_int_equal(v.verdict, RA_VERDICT_VIOLATION);
    assert_false(v.flags & RA_FLAG_UNREACHABLE_30D);
    assert_int_equal(v.crawl_delay_ms, 5000);

    /* a site that never had a file: the phase still applies */
    x->g.facts.pages_answered = NOW - 1;
    x->g.facts.current = -1;
    v = judge(x, "/private/x", NOW);
    assert_int_equal(v.verdict, RA_VERDICT_COMPLIANT);
    assert_true(v.flags & RA_FLAG_UNREACHABLE_30D);

    /* the decision the status page shows is the same function */
    assert_true(ra_unreachable_30d(NOW - RA_UNREACHABLE_30D_MS, NOW - 1, NOW));
    assert_false(ra_unreachable_30d(0, NOW - 1, NOW));
    assert_false(ra_unreachable_30d(NOW - RA_UNREACHABLE_30D_MS, 0, NOW));
    jx_free(x);
}

/* two generic tokens the memo cannot tell apart by its slot (the same
 * length, first, middle and last bytes: the same pair of slots): each
 * keeps its own group, in either order, again and again */
static void
judge_group_memo_token_slot_shared(void **state)
{
    jx_t             *x = jx_new(0);
    ra_group_memo_t   memo;
    ra_verdict_t      v;
    ra_str_t          tokens[1];
    int               i;

    (void) state;
    memset(&memo, 0, sizeof(memo));
    x->g.memo = &memo;
    jx_version(x, 0, "User-agent: TestBot\nDisallow: /a\n\n"
                     "User-agent: *\nDisallow: /c\n", 0);
    x->who.tokens = tokens;
    x->who.key = NULL;
    for (i = 0; i < 6; i++) {
        /* "TxstBot": length 7, 'T', 't' at 3, 't' last, as "TestBot" */
        tokens[0] = i % 2 ? (ra_str_t) ra_string("TxstBot")
                          : (ra_str_t) ra_string("TestBot");
        v = judge(x, "/a", NOW);
        assert_int_equal(v.verdict, i % 2 ? RA_VERDICT_COMPLIANT
                                          : RA_VERDICT_VIOLATION);
        v = judge(x, "/c", NOW);
        assert_int_equal(v.verdict, i % 2 ? RA_VERDICT_VIOLATION
                                          : RA_VERDICT_COMPLIANT);
    }
    jx_free(x);
}

int
main(void)
{
    const struct CMUnitTest  tests[] = {
        cmocka_unit_test(judge_compliant),
        cmocka_unit_test(judge_violation_single_version),
        cmocka_unit_test(judge_stale_by_last_fetched_version),
        cmocka_unit_test(judge_stale_by_version_in_force_24h),
        cmocka_unit_test(judge_unreachable_within_12h),
        cmocka_unit_test(judge_unreachable_30d),
        cmocka_unit_test(judge_exempt),
        cmocka_unit_test(judge_ignores_star),
        cmocka_unit_test(judge_crawl_delay_flag),
        cmocka_unit_test(judge_no_robots_fetch_flag),
        cmocka_unit_test(judge_resolves_lazily),
        cmocka_unit_test(judge_enomem_not_judged),
        cmocka_unit_test(judge_verdict_outlives_rules),
        cmocka_unit_test(judge_spellings_of_one_resource),
        cmocka_unit_test(judge_raw_spelling_still_judged),
        cmocka_unit_test(judge_spellings_stale),
        cmocka_unit_test(judge_spellings_long),
        cmocka_unit_test(judge_group_memo),
        cmocka_unit_test(judge_group_memo_tokens),
        cmocka_unit_test(judge_group_memo_token_slot_shared),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
