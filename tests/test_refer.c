/* SPDX-License-Identifier: BSD-2-Clause */
/* Crawl-to-refer's table and matching (ra_refer.h): the built-in table,
 * Referer hosts, patterns, and what a table file may not hold. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ra_test.h"
#include "ra_crawlers.h"
#include "ra_refer.h"

static ra_refer_t  tab;

/* The operator match() finds for text ("-": none), text alone in its
 * allocation so that ASan sees any read past it */
static const char *
operator_of(int (*match)(const ra_refer_t *, ra_str_t), const char *text)
{
    ra_str_t     s = ra_test_exact(text, strlen(text));
    int          i = match(&tab, s);
    static char  name[80];

    ra_test_exact_free(s);
    if (i < 0) {
        return "-";
    }
    snprintf(name, sizeof(name), "%.*s", (int) tab.ops[i].name.len,
             (const char *) tab.ops[i].name.data);
    return name;
}

static const char *
who(const char *referer)
{
    return operator_of(ra_refer_match, referer);
}

static void
builtin_loads_and_names_table_operators(void **state)
{
    ra_test_arena_t    *ar = ra_test_arena_new();
    ra_crawlers_t      *c;
    ra_crawlers_err_t   err;
    size_t              i, k;

    (void) state;
    assert_int_equal(ra_refer_builtin(&tab), RA_OK);
    assert_true(tab.nops >= 8);
    assert_true(tab.nops <= RA_REFER_OPS);
    /* every operator is one the crawler table names, so that its
     * crawlers' requests are counted beside its referrals */
    c = ra_crawlers_create(ra_test_arena_alloc(ar));
    assert_int_equal(ra_crawlers_add_builtin(c, &err), RA_OK);
    assert_int_equal(ra_crawlers_compile(c, &err), RA_OK);
    for (k = 0; k < tab.nops; k++) {
        for (i = 0; i < ra_crawlers_count(c); i++) {
            if (ra_strcaseeq(ra_crawlers_get(c, i)->operator_name,
                             tab.ops[k].name))
            {
                break;
            }
        }
        if (i == ra_crawlers_count(c)) {
            print_message("operator %.*s: no crawler of the table\n",
                          (int) tab.ops[k].name.len,
                          (const char *) tab.ops[k].name.data);
        }
        assert_true(i < ra_crawlers_count(c));
        assert_true(tab.ops[k].nhosts > 0);
    }
    assert_int_equal(ra_refer_operator(&tab, (ra_str_t) ra_string("google")),
                     0);
    assert_int_equal(ra_refer_operator(&tab, (ra_str_t) ra_string("Nobody")),
                     -1);
    ra_test_arena_free(ar);
}

static void
hosts_of_referers(void **state)
{
    ra_str_t  h;

    (void) state;
#define HOST(r, want)                                                      \
    h = ra_refer_host((ra_str_t) ra_string(r));                            \
    assert_int_equal(h.len, strlen(want));                                 \
    assert_memory_equal(h.data, want, h.len)
    HOST("https://www.google.fr/search?q=x", "www.google.fr");
    HOST("http://www.bing.com", "www.bing.com");
    HOST("https://user:pw@chatgpt.com:443/c/1", "chatgpt.com");
    HOST("https://www.google.com./", "www.google.com");
    HOST("HTTPS://Claude.AI#x", "Claude.AI");
    HOST("android-app://com.google.android.googlequicksearchbox/https/"
         "www.google.com", "com.google.android.googlequicksearchbox");
    HOST("-", "");
    HOST("", "");
    HOST("www.google.com/search", "");
    HOST("https://", "");
    HOST("https://ex ample.com/", "");
    HOST("https://exa<mple.com/", "");
    HOST("javascript:alert(1)//google.com", "");
#undef HOST
}

static void
operators_of_referers(void **state)
{
    (void) state;
    assert_string_equal(who("https://www.google.com/"), "Google");
    assert_string_equal(who("https://www.google.co.uk/url?q=x"), "Google");
    assert_string_equal(who("https://www.google.com.br/"), "Google");
    assert_string_equal(who("https://google.de"), "Google");
    assert_string_equal(who("https://gemini.google.com/app/1"), "Google");
    assert_string_equal(who("https://news.google.com/"), "Google");
    assert_string_equal(who("android-app://com.google.android."
                            "googlequicksearchbox/"), "Google");
    assert_string_equal(who("https://www.bing.com/search?q=1"), "Microsoft");
    assert_string_equal(who("https://cn.bing.com/"), "Microsoft");
    assert_string_equal(who("https://copilot.microsoft.com/"), "Microsoft");
    assert_string_equal(who("https://duckduckgo.com/"), "DuckDuckGo");
    assert_string_equal(who("https://r.duckduckgo.com/"), "DuckDuckGo");
    assert_string_equal(who("https://chatgpt.com/"), "OpenAI");
    assert_string_equal(who("https://chat.openai.com/"), "OpenAI");
    assert_string_equal(who("https://www.perplexity.ai/search"),
                        "Perplexity");
    assert_string_equal(who("https://claude.ai/chat/1"), "Anthropic");
    assert_string_equal(who("https://yandex.ru/search"), "Yandex");
    assert_string_equal(who("https://search.yahoo.co.jp/"), "Yahoo");
    /* look-alikes and others */
    assert_string_equal(who("https://google.evil.example/"), "-");
    assert_string_equal(who("https://google.com.evil.example/"), "-");
    assert_string_equal(who("https://notgoogle.com/"), "-");
    assert_string_equal(who("https://mygoogle.com/"), "-");
    assert_string_equal(who("https://notbing.com/"), "-");
    assert_string_equal(who("https://bing.com.evil.example/"), "-");
    assert_string_equal(who("https://www.yahoo.com/"), "-");
    assert_string_equal(who("https://microsoft.com/"), "-");
    assert_string_equal(who("https://example.com/?r=https://google.com/"),
                        "-");
    assert_string_equal(who("google.com"), "-");
}

/* Referers a look-alike, a crafted URL or an odd spelling makes of
 * another site: no operator's (the brief's attacker list) */
static void
hostile_referers(void **state)
{
    char    *huge;
    size_t   n = 1u << 20;

    (void) state;
    /* a label "google" before a registrable name is that name's host:
     * anyone may own foo.com and name a host google.foo.com; the
     * two-label top-level domains of "NAME.*" are co.CC and com.CC */
    assert_string_equal(who("https://google.foo.com/"), "-");
    assert_string_equal(who("https://google.abc.net/x"), "-");
    assert_string_equal(who("https://www.google.net.evil/"), "-");
    assert_string_equal(who("https://google.co.evil/"), "-");
    assert_string_equal(who("https://google.com.a/"), "-");
    assert_string_equal(who("https://yandex.xyz.org/"), "-");
    assert_string_equal(who("https://search.yahoo.abc.net/"), "-");
    /* the real two-label ones still are */
    assert_string_equal(who("https://www.google.co.jp/"), "Google");
    assert_string_equal(who("https://www.google.com.au/"), "Google");
    assert_string_equal(who("https://yandex.com.tr/"), "Yandex");
    /* userinfo and query tricks */
    assert_string_equal(who("https://google.com@evil.example/"), "-");
    assert_string_equal(who("https://www.google.com:443@evil.example/"),
                        "-");
    assert_string_equal(who("https://evil.example/?q=google.com"), "-");
    assert_string_equal(who("https://evil.example/#@google.com"), "-");
    assert_string_equal(who("https://evil.example/@google.com"), "-");
    /* a '\\' ends the authority of an http(s) URL as '/' does (WHATWG
     * URL: browsers go to evil.example), so the '@' after it is the
     * path's */
    assert_string_equal(who("https://evil.example\\@google.com/"), "-");
    assert_string_equal(who("https://evil.example\\.google.com/"), "-");
    /* look-alikes, escapes, IDN */
    assert_string_equal(who("https://google.com.evil.example./"), "-");
    assert_string_equal(who("https://GOOGLE.COM.EVIL.EXAMPLE/"), "-");
    assert_string_equal(who("https://www.%67oogle.com/"), "-");
    assert_string_equal(who("https://www.google%2Ecom/"), "-");
    assert_string_equal(who("https://www.g\xd0\xbe\xd0\xbegle.com/"), "-");
    assert_string_equal(who("https://xn--ggle-55da.com/"), "-");
    assert_string_equal(who("https://www.google.com../"), "-");
    assert_string_equal(who("https://.google.com/"), "-");
    assert_string_equal(who("https://www..google.com/"), "-");
    assert_string_equal(who("https://x@.google.com/"), "-");
    /* the same host however it is cased, with its root's dot */
    assert_string_equal(who("https://WWW.Google.DE./"), "Google");
    assert_string_equal(who("HTTPS://WWW.BING.COM./search"), "Microsoft");
    /* huge: no host past 253 bytes, and linear */
    huge = malloc(n + 1);
    assert_non_null(huge);
    memcpy(huge, "https://", 8);
    memset(huge + 8, 'a', n - 8 - 11);
    memcpy(huge + n - 11, ".google.com", 11);
    huge[n] = '\0';
    assert_string_equal(who(huge), "-");
    memset(huge + 8, '@', n - 8 - 10);
    memcpy(huge + n - 10, "google.com", 10);
    assert_string_equal(who(huge), "Google");   /* after the last '@' */
    free(huge);
}

static void
table_files(void **state)
{
    ra_refer_t   t;
    size_t       line;
    const char  *msg;
    char         big[2048];
    size_t       i, n;

    (void) state;
#define LOAD(text)                                                         \
    ra_refer_load(&t, (ra_str_t) ra_string(text), &line, &msg)
    assert_int_equal(LOAD("# c\n\noperator Acme Search\n  host acme.*\n"
                          "host a.example\n"), RA_OK);
    assert_int_equal(t.nops, 1);
    assert_int_equal(t.ops[0].nhosts, 2);
    assert_int_equal(ra_refer_match(&t, (ra_str_t) ra_string(
                         "https://www.acme.co.uk/")), 0);
    assert_int_equal(ra_refer_match(&t, (ra_str_t) ra_string(
                         "https://x.a.example/")), 0);
    assert_int_equal(ra_refer_match(&t, (ra_str_t) ra_string(
                         "https://b.example/")), -1);

    assert_int_equal(LOAD("host a.example\n"), RA_ERROR);
    assert_int_equal(line, 1);
    assert_int_equal(LOAD("operator A\nhosts a.example\n"), RA_ERROR);
    assert_int_equal(line, 2);
    assert_int_equal(LOAD("operator A\nhost *.example\n"), RA_ERROR);
    assert_int_equal(LOAD("operator A\nhost a..example\n"), RA_ERROR);
    assert_int_equal(LOAD("operator A\nhost a.example.\n"), RA_ERROR);
    assert_int_equal(LOAD("operator A\nhost a/b\n"), RA_ERROR);
    assert_int_equal(LOAD("operator A\nhost\n"), RA_ERROR);
    assert_int_equal(LOAD("operator\n"), RA_ERROR);
    assert_non_null(msg);
    /* bounds */
    for (i = 0, n = 0; i < 25; i++) {
        n += (size_t) snprintf(big + n, sizeof(big) - n,
                               "operator O%zu\nhost o%zu.example\n", i, i);
    }
    assert_int_equal(ra_refer_load(&t, ra_str(big, n), &line, &msg),
                     RA_ERROR);
    assert_int_equal(line, 49);
    n = (size_t) snprintf(big, sizeof(big), "operator A\n");
    for (i = 0; i < 17; i++) {
        n += (size_t) snprintf(big + n, sizeof(big) - n,
                               "host h%zu.example\n", i);
    }
    assert_int_equal(ra_refer_load(&t, ra_str(big, n), &line, &msg),
                     RA_ERROR);
    assert_int_equal(line, 18);
#undef LOAD
}

/* the operator a target's utm_source names */
static const char *
utm_who(const char *target)
{
    return operator_of(ra_refer_match_target, target);
}

/* ChatGPT's links carry utm_source=chatgpt.com (its pages often send no
 * Referer): the whole value of the first utm_source parameter, in any
 * case; nothing else in the target */
static void
utm_source_of_targets(void **state)
{
    ra_refer_t   t;
    size_t       line;
    const char  *msg;

    (void) state;
    assert_int_equal(ra_refer_builtin(&tab), RA_OK);
    assert_string_equal(utm_who("/a?utm_source=chatgpt.com"), "OpenAI");
    assert_string_equal(utm_who("/a?x=1&utm_source=chatgpt.com&y=2"),
                        "OpenAI");
    assert_string_equal(utm_who("/a?UTM_SOURCE=ChatGPT.com#top"), "OpenAI");
    assert_string_equal(utm_who("/a?utm_source=chatgpt.com#x&y"), "OpenAI");
    /* not the value: a longer one, a prefix, another parameter, the
     * path, the fragment */
    assert_string_equal(utm_who("/a?utm_source=chatgpt.com.evil.example"),
                        "-");
    assert_string_equal(utm_who("/a?utm_source=chatgpt"), "-");
    assert_string_equal(utm_who("/a?xutm_source=chatgpt.com"), "-");
    assert_string_equal(utm_who("/utm_source=chatgpt.com"), "-");
    assert_string_equal(utm_who("/a#?utm_source=chatgpt.com"), "-");
    assert_string_equal(utm_who("/a?#utm_source=chatgpt.com"), "-");
    assert_string_equal(utm_who("/a?utm_source="), "-");
    assert_string_equal(utm_who("/a?utm_source"), "-");
    assert_string_equal(utm_who("/a?"), "-");
    assert_string_equal(utm_who("?"), "-");
    assert_string_equal(utm_who(""), "-");
    /* the first utm_source is the visit's */
    assert_string_equal(utm_who("/a?utm_source=news&utm_source=chatgpt.com"),
                        "-");
    /* an empty one too: a later one is not the visit's either */
    assert_string_equal(utm_who("/a?utm_source=&utm_source=chatgpt.com"),
                        "-");
    assert_string_equal(utm_who("/a?utm_source&utm_source=chatgpt.com"),
                        "-");
    assert_string_equal(utm_who("/a?utm_source=#&utm_source=chatgpt.com"),
                        "-");
    /* the parameter last, up to the end of the target or a '#' */
    assert_string_equal(utm_who("/a?utm_source=chatgpt.com&"), "OpenAI");
    assert_string_equal(utm_who("/a?&&utm_source=chatgpt.com"), "OpenAI");
    /* a table's utm lines */
#define LOAD(text)                                                         \
    ra_refer_load(&t, (ra_str_t) ra_string(text), &line, &msg)
    assert_int_equal(LOAD("operator A\nhost a.example\nutm a-app\n"),
                     RA_OK);
    assert_int_equal(t.ops[0].nutms, 1);
    assert_int_equal(ra_refer_match_target(&t, (ra_str_t) ra_string(
                         "/?utm_source=A-APP")), 0);
    assert_int_equal(LOAD("utm a\n"), RA_ERROR);
    assert_int_equal(LOAD("operator A\nutm a b\n"), RA_ERROR);
    assert_int_equal(LOAD("operator A\nutm a&b\n"), RA_ERROR);
    assert_int_equal(LOAD("operator A\nutm\n"), RA_ERROR);
    assert_int_equal(LOAD("operator A\nutm a\nutm b\nutm c\nutm d\n"
                          "utm e\n"), RA_ERROR);
    assert_int_equal(line, 6);
#undef LOAD
}

/* a Referer of the site's own page: its host is the site's name */
static int
same(const char *referer, const char *site)
{
    ra_str_t  r = ra_test_exact(referer, strlen(referer));
    ra_str_t  s = ra_test_exact(site, strlen(site));
    int       yes = ra_refer_same_site(r, s);

    ra_test_exact_free(r);
    ra_test_exact_free(s);
    return yes;
}

static void
referer_of_the_site(void **state)
{
    (void) state;
    assert_true(same("https://example.com/a?utm_source=chatgpt.com",
                     "example.com"));
    assert_true(same("https://WWW.EXAMPLE.COM./", "example.com"));
    assert_true(same("http://example.com:8080/", "www.example.com:8080"));
    assert_true(same("https://user@example.com", "Example.com."));
    assert_false(same("https://notexample.com/", "example.com"));
    assert_false(same("https://example.com.evil.example/", "example.com"));
    assert_false(same("https://evil.example/?r=https://example.com/",
                      "example.com"));
    assert_false(same("https://example.com/", ""));
    assert_false(same("-", "example.com"));
    assert_false(same("", "example.com"));
    assert_false(same("https://www.example.com/", "www."));
    assert_false(same("https://www.x/", "x.y"));
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(builtin_loads_and_names_table_operators),
        cmocka_unit_test(hosts_of_referers),
        cmocka_unit_test(operators_of_referers),
        cmocka_unit_test(hostile_referers),
        cmocka_unit_test(table_files),
        cmocka_unit_test(utm_source_of_targets),
        cmocka_unit_test(referer_of_the_site),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
