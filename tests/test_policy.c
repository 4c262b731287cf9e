/* SPDX-License-Identifier: BSD-2-Clause */
/* A scope's crawler policy (ra_policy.h): its words, its inheritance, the
 * decision whether it refuses an identified request and by which rule
 * (impostors included), and the answer a refusal gets. */
#include <stdlib.h>
#include <string.h>

#include "ra_test.h"
#include "ra_policy.h"
#include "ra_verify.h"

static ra_str_t
w(const char *s)
{
    return ra_str(s, strlen(s));
}

/* the words of one directive, "a b c" */
static int
words(ra_policy_t *p, int allow, const char *line, ra_test_arena_t *ar,
    const char **why)
{
    ra_str_t    v[8], bad;
    size_t      n = 0;
    const char *s = line, *e;

    while (*s != '\0' && n < 8) {
        e = strchr(s, ' ');
        if (e == NULL) {
            e = s + strlen(s);
        }
        v[n++] = ra_str(s, (size_t) (e - s));
        s = *e == ' ' ? e + 1 : e;
    }
    *why = NULL;
    return ra_policy_words(p, allow, v, n, ra_test_arena_alloc(ar), &bad,
                           why);
}

/* a verdict of a crawler of purpose category named name */
static ra_verdict_t
judged(const ra_crawler_t *c, const char *name, unsigned verification)
{
    ra_verdict_t  v;

    memset(&v, 0, sizeof(v));
    v.verdict = RA_VERDICT_COMPLIANT;
    v.kind = c != NULL ? RA_UA_KNOWN : RA_UA_GENERIC;
    v.crawler = c;
    v.name = w(name);
    v.verification = verification;
    return v;
}

static void
policy_words(void **state)
{
    ra_test_arena_t  *ar = ra_test_arena_new();
    ra_policy_t       p;
    const char       *why;

    (void) state;
    memset(&p, 0, sizeof(p));
    assert_false(ra_policy_any(&p));
    assert_int_equal(words(&p, 0, "purpose ai-training,ai-search", ar, &why),
                     RA_OK);
    assert_int_equal(p.purposes, (1u << RA_CAT_AI_TRAINING)
                                 | (1u << RA_CAT_AI_SEARCH));
    assert_true(ra_policy_any(&p));
    assert_int_equal(words(&p, 0, "crawler Bytespider CCBot", ar, &why),
                     RA_OK);
    assert_int_equal(words(&p, 1, "crawler GPTBot", ar, &why), RA_OK);
    assert_non_null(p.block);
    assert_non_null(p.block->next);
    assert_true(ra_strcaseeq(p.block->next->name, w("ccbot")));
    assert_int_equal(p.set, RA_POLICY_SET_BLOCK | RA_POLICY_SET_ALLOW);

    /* what is not a policy */
    assert_int_equal(words(&p, 0, "purpose scraping", ar, &why), RA_ERROR);
    assert_non_null(strstr(why, "is not a purpose"));
    assert_int_equal(words(&p, 0, "bots GPTBot", ar, &why), RA_ERROR);
    assert_int_equal(words(&p, 0, "crawler", ar, &why), RA_ERROR);
    assert_int_equal(words(&p, 1, "purpose search", ar, &why), RA_ERROR);
    assert_non_null(strstr(why, "crawler"));
    assert_int_equal(words(&p, 1, "off", ar, &why), RA_ERROR);

    /* off: nothing blocked here, nothing inherited */
    assert_int_equal(words(&p, 0, "off", ar, &why), RA_OK);
    assert_false(ra_policy_any(&p));
    assert_true(p.set & RA_POLICY_SET_BLOCK);

    /* the status */
    assert_int_equal(ra_policy_status_word(&p, w("402"), &why), RA_OK);
    assert_int_equal(p.status, 402);
    assert_int_equal(ra_policy_status_word(&p, w("429"), &why), RA_OK);
    assert_int_equal(p.status, 429);
    assert_int_equal(ra_policy_status_word(&p, w("403"), &why), RA_OK);
    assert_int_equal(p.status, 403);
    assert_int_equal(ra_policy_status_word(&p, w("404"), &why), RA_ERROR);
    assert_int_equal(ra_policy_status_word(&p, w("4020"), &why), RA_ERROR);
    assert_int_equal(p.status, 403);

    assert_string_equal(ra_policy_content_type(w("/etc/pay.json")),
                        "application/json");
    assert_string_equal(ra_policy_content_type(w("x.HTML")),
                        "text/html; charset=utf-8");
    assert_string_equal(ra_policy_content_type(w("licence.txt")),
                        "text/plain; charset=utf-8");
    assert_string_equal(ra_policy_content_type(w("json")),
                        "text/plain; charset=utf-8");
    ra_test_arena_free(ar);
}

static void
policy_merge(void **state)
{
    ra_test_arena_t  *ar = ra_test_arena_new();
    ra_policy_t       server, loc;
    const char       *why;

    (void) state;
    memset(&server, 0, sizeof(server));
    memset(&loc, 0, sizeof(loc));
    assert_int_equal(words(&server, 0, "purpose ai-training", ar, &why),
                     RA_OK);
    assert_int_equal(ra_policy_status_word(&server, w("402"), &why), RA_OK);
    server.body = w("{}");
    server.content_type = "application/json";
    server.set |= RA_POLICY_SET_BODY;

    /* a location that only adds an exception keeps the server's blocks
     * and answer */
    assert_int_equal(words(&loc, 1, "crawler GPTBot", ar, &why), RA_OK);
    ra_policy_merge(&loc, &server);
    assert_int_equal(loc.purposes, 1u << RA_CAT_AI_TRAINING);
    assert_non_null(loc.allow);
    assert_int_equal(loc.status, 402);
    assert_int_equal(loc.body.len, 2);

    /* one that blocks by name blocks only that */
    memset(&loc, 0, sizeof(loc));
    assert_int_equal(words(&loc, 0, "crawler CCBot", ar, &why), RA_OK);
    ra_policy_merge(&loc, &server);
    assert_int_equal(loc.purposes, 0);
    assert_non_null(loc.block);
    assert_int_equal(loc.status, 402);
    ra_test_arena_free(ar);
}

static void
policy_refuses(void **state)
{
    ra_test_arena_t  *ar = ra_test_arena_new();
    ra_policy_t       p;
    ra_crawler_t      gptbot, bytespider, googlebot;
    ra_verdict_t      v;
    ra_buf_t          b;
    const char       *why;

    (void) state;
    memset(&gptbot, 0, sizeof(gptbot));
    gptbot.name = w("GPTBot");
    gptbot.category = RA_CAT_AI_TRAINING;
    bytespider = gptbot;
    bytespider.name = w("Bytespider");
    googlebot = gptbot;
    googlebot.name = w("Googlebot");
    googlebot.category = RA_CAT_SEARCH;

    memset(&p, 0, sizeof(p));
    assert_int_equal(ra_policy_refuses(NULL, &v), RA_POLICY_PASS);
    v = judged(&gptbot, "GPTBot", RA_VERIFY_VERIFIED);
    assert_int_equal(ra_policy_refuses(&p, &v), RA_POLICY_PASS);

    assert_int_equal(words(&p, 0, "purpose ai-training", ar, &why), RA_OK);
    assert_int_equal(words(&p, 0, "crawler Bytespider", ar, &why), RA_OK);
    assert_int_equal(words(&p, 1, "crawler gptbot", ar, &why), RA_OK);

    /* the exception: verified, or unverifiable */
    assert_int_equal(ra_policy_refuses(&p, &v), RA_POLICY_PASS);
    v.verification = RA_VERIFY_UNVERIFIABLE;
    assert_int_equal(ra_policy_refuses(&p, &v), RA_POLICY_PASS);
    /* an impostor of it gets no exception: its claimed purpose is
     * blocked */
    v.verification = RA_VERIFY_IMPOSTOR;
    assert_int_equal(ra_policy_refuses(&p, &v), RA_POLICY_PURPOSE);

    /* by name, verified or not; an impostor of a blocked name too */
    v = judged(&bytespider, "Bytespider", RA_VERIFY_VERIFIED);
    assert_int_equal(ra_policy_refuses(&p, &v), RA_POLICY_CRAWLER);
    v.verification = RA_VERIFY_IMPOSTOR;
    assert_int_equal(ra_policy_refuses(&p, &v), RA_POLICY_CRAWLER);
    ra_buf_init(&b, &ra_malloc_allocator, 0, 0);
    ra_policy_rule_text(&b, RA_POLICY_CRAWLER, &v);
    assert_int_equal(b.len, strlen("block crawler Bytespider"));
    assert_memory_equal(b.data, "block crawler Bytespider", b.len);

    /* a purpose not blocked passes, impostor or not (enforce's concern) */
    v = judged(&googlebot, "Googlebot", RA_VERIFY_IMPOSTOR);
    assert_int_equal(ra_policy_refuses(&p, &v), RA_POLICY_PASS);

    /* unknown robots.txt: refused all the same; robots.txt, browsers and
     * the unjudged never */
    v = judged(&gptbot, "GPTBot", RA_VERIFY_IMPOSTOR);
    v.verdict = RA_VERDICT_UNKNOWN;
    assert_int_equal(ra_policy_refuses(&p, &v), RA_POLICY_PURPOSE);
    v.verdict = RA_VERDICT_FETCH;
    assert_int_equal(ra_policy_refuses(&p, &v), RA_POLICY_PASS);
    v.verdict = RA_VERDICT_NONE;
    assert_int_equal(ra_policy_refuses(&p, &v), RA_POLICY_PASS);
    v = judged(NULL, "", RA_VERIFY_UNVERIFIABLE);
    v.kind = RA_UA_BROWSER;
    assert_int_equal(ra_policy_refuses(&p, &v), RA_POLICY_PASS);

    /* generic bots: their purpose is "generic", their name the token */
    v = judged(NULL, "scrapy", RA_VERIFY_UNVERIFIABLE);
    assert_int_equal(ra_policy_refuses(&p, &v), RA_POLICY_PASS);
    assert_int_equal(words(&p, 0, "purpose generic", ar, &why), RA_OK);
    assert_int_equal(ra_policy_refuses(&p, &v), RA_POLICY_PURPOSE);
    b.len = 0;
    ra_policy_rule_text(&b, RA_POLICY_PURPOSE, &v);
    assert_memory_equal(b.data, "block purpose generic", b.len);

    b.len = 0;
    ra_policy_describe(&b, &p);
    ra_buf_ch(&b, '\0');
    assert_string_equal((const char *) b.data,
                        "refuse 403; block purpose ai-training generic; "
                        "block crawler Bytespider; allow crawler gptbot");
    ra_buf_release(&b);
    ra_test_arena_free(ar);
}

static void
policy_answer(void **state)
{
    ra_policy_t   p;
    ra_verdict_t  v;
    ra_refusal_t  a;
    ra_reply_t    r;

    (void) state;
    memset(&p, 0, sizeof(p));
    v = judged(NULL, "scrapy", RA_VERIFY_UNVERIFIABLE);

    /* not refused: nothing to answer */
    ra_policy_answer(&p, &v, &a);
    assert_int_equal(a.status, 0);

    /* enforce's as ever: 403, the server's page */
    v.refused = RA_REFUSE_VIOLATION;
    ra_policy_answer(NULL, &v, &a);
    assert_int_equal(a.status, 403);
    assert_null(a.content_type);
    assert_string_equal(a.retry_after, "");

    /* 402 with the licensing body */
    v.refused = RA_REFUSE_POLICY;
    p.status = 402;
    p.body = w("{\"licence\":\"mailto:x@example.com\"}\n");
    p.content_type = "application/json";
    ra_policy_answer(&p, &v, &a);
    assert_int_equal(a.status, 402);
    assert_string_equal(a.content_type, "application/json");
    assert_int_equal(a.body.len, p.body.len);
    assert_string_equal(a.retry_after, "");

    /* 429: the Crawl-delay, whole seconds rounded up; else the default */
    p.status = 429;
    v.crawl_delay_ms = 2500;
    ra_policy_answer(&p, &v, &a);
    assert_int_equal(a.status, 429);
    assert_string_equal(a.retry_after, "3");
    v.crawl_delay_ms = 0;
    ra_policy_answer(&p, &v, &a);
    assert_string_equal(a.retry_after, "60");
    assert_int_equal(RA_POLICY_RETRY_AFTER, 60);

    /* as the server sends it: the body and Retry-After with it */
    ra_refusal_reply(&a, &r);
    assert_int_equal(r.status, 429);
    assert_string_equal(r.content_type, "application/json");
    assert_int_equal(r.body.len, p.body.len);
    assert_false(r.header_only);
    assert_string_equal(r.fields[0].name, "Retry-After");
    assert_string_equal(r.fields[0].value, "60");
    assert_null(r.fields[1].name);
    ra_policy_answer(NULL, &v, &a);
    ra_refusal_reply(&a, &r);
    assert_int_equal(r.status, 403);
    assert_null(r.content_type);
    assert_null(r.fields[0].name);
    assert_string_equal(ra_refuse_name(RA_REFUSE_POLICY), "policy");
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(policy_words),
        cmocka_unit_test(policy_merge),
        cmocka_unit_test(policy_refuses),
        cmocka_unit_test(policy_answer),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
