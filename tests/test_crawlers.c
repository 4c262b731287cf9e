/* SPDX-License-Identifier: BSD-2-Clause */
/* Crawler identification: the built-in table, generic bots, browsers, the
 * operator's file format, hostile input.  Shared data sets (../shared) are
 * read when present; those tests skip with a message otherwise. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ra_test.h"
#include "ra_crawlers.h"

static ra_crawlers_t     *tab;     /* the built-in table, once per run */

/* A pool-like arena, as the modules give: freed at once at the end. */
static ra_test_arena_t  *arena;

static int
setup_arena_table(void **state)
{
    (void) state;
    arena = ra_test_arena_new();
    tab = ra_test_builtin_table(ra_test_arena_alloc(arena));
    return tab != NULL ? 0 : -1;
}

static int
teardown_arena_table(void **state)
{
    (void) state;
    ra_test_arena_free(arena);
    arena = NULL;
    tab = NULL;
    return 0;
}

static ra_identity_t
identify(const char *ua)
{
    ra_identity_t  id;
    ra_str_t       s = ra_test_exact(ua, strlen(ua));

    ra_crawlers_identify(tab, s, &id);
    /* the token points into the UA: copy what the tests compare */
    ra_test_exact_free(s);
    return id;
}

static int
token_is(const char *ua, const char *want)
{
    ra_identity_t  id;
    ra_str_t       s = ra_test_exact(ua, strlen(ua));
    int            ok;

    ra_crawlers_identify(tab, s, &id);
    ok = id.token.len == strlen(want)
         && memcmp(id.token.data, want, id.token.len) == 0;
    if (!ok) {
        print_message("token of '%s': '%.*s', want '%s'\n", ua,
                      (int) id.token.len, (const char *) id.token.data, want);
    }
    ra_test_exact_free(s);
    return ok;
}


/* The table's entry for ua is name, of that purpose. */
static int
known_as(const char *ua, const char *name, unsigned category)
{
    ra_identity_t  id = identify(ua);

    if (id.kind != RA_UA_KNOWN || id.crawler == NULL
        || !ra_strcaseeq(id.crawler->name, ra_str(name, strlen(name)))
        || id.crawler->category != category)
    {
        print_message("'%s': not %s\n", ua, name);
        return 0;
    }
    return 1;
}

/* ------------------------------------------------------------ the table */

static void
builtin_table_loads(void **state)
{
    const ra_crawler_t  *c;
    size_t               i, n;

    (void) state;
    n = ra_crawlers_count(tab);
    print_message("crawlers: %zu, automaton: %zu bytes\n", n,
                  ra_crawlers_automaton_size(tab));
    assert_true(n >= 150);
    /* the automaton keeps its 16-bit table (a 32-bit one is twice the
     * size and scans without lanes, a third slower): a new byte in a
     * User-Agent piece ('&', '%') widens every row of it */
    assert_true(ra_crawlers_automaton_size(tab) < 768 * 1024);
    for (i = 0; i < n; i++) {
        c = ra_crawlers_get(tab, i);
        assert_non_null(c);
        assert_int_equal(c->id, i);
        assert_true(c->ntokens >= 1);
        assert_true(c->category < RA_CAT_MAX);
        assert_true(c->nua > 0 || (c->flags & RA_CRAWLER_TOKEN_ONLY));
    }
    assert_null(ra_crawlers_get(tab, n));
}

typedef struct {
    const char  *ua;
    const char  *name;
    const char  *tok0;
    const char  *tok1;              /* NULL: exactly one token */
    unsigned     category;
} top_case_t;

/* The crawlers an operator meets most, with real User-Agent strings as
 * their operators document them. */
static const top_case_t  top50[] = {
    { "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
      "Googlebot", "Googlebot", NULL, RA_CAT_SEARCH },
    { "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
      "Googlebot", "Googlebot", NULL, RA_CAT_SEARCH },
    { "Googlebot-Image/1.0", "Googlebot-Image", "Googlebot-Image", "Googlebot",
      RA_CAT_SEARCH },
    { "Googlebot-News", "Googlebot-News", "Googlebot-News", "Googlebot",
      RA_CAT_SEARCH },
    { "Googlebot-Video/1.0", "Googlebot-Video", "Googlebot-Video",
      "Googlebot", RA_CAT_SEARCH },
    { "Mozilla/5.0 (X11; Linux x86_64; Storebot-Google/1.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/79.0.3945.88 Safari/537.36",
      "Storebot-Google", "Storebot-Google", "Googlebot", RA_CAT_SEARCH },
    { "Mozilla/5.0 (compatible; Google-InspectionTool/1.0)",
      "Google-InspectionTool", "Google-InspectionTool", "Googlebot",
      RA_CAT_TOOL },
    { "GoogleOther", "GoogleOther", "GoogleOther", NULL, RA_CAT_TOOL },
    { "AdsBot-Google (+http://www.google.com/adsbot.html)", "AdsBot-Google",
      "AdsBot-Google", NULL, RA_CAT_TOOL },
    { "Mozilla/5.0 (iPhone; CPU iPhone OS 14_7_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/14.1.2 Mobile/15E148 Safari/604.1 (compatible; AdsBot-Google-Mobile; +http://www.google.com/mobile/adsbot.html)",
      "AdsBot-Google-Mobile", "AdsBot-Google-Mobile", NULL, RA_CAT_TOOL },
    { "Mediapartners-Google", "Mediapartners-Google", "Mediapartners-Google",
      NULL, RA_CAT_TOOL },
    { "APIs-Google (+https://developers.google.com/webmasters/APIs-Google.html)",
      "APIs-Google", "APIs-Google", NULL, RA_CAT_TOOL },
    { "FeedFetcher-Google; (+http://www.google.com/feedfetcher.html)",
      "FeedFetcher-Google", "FeedFetcher-Google", NULL, RA_CAT_FEED },
    { "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
      "bingbot", "bingbot", NULL, RA_CAT_SEARCH },
    { "msnbot/2.0b (+http://search.msn.com/msnbot.htm)", "msnbot", "msnbot",
      "bingbot", RA_CAT_SEARCH },
    { "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)",
      "YandexBot", "YandexBot", "Yandex", RA_CAT_SEARCH },
    { "Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)",
      "Baiduspider", "Baiduspider", NULL, RA_CAT_SEARCH },
    { "DuckDuckBot/1.1; (+http://duckduckgo.com/duckduckbot.html)",
      "DuckDuckBot", "DuckDuckBot", NULL, RA_CAT_SEARCH },
    { "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)",
      "Applebot", "Applebot", NULL, RA_CAT_SEARCH },
    { "Mozilla/5.0 (compatible; Yahoo! Slurp; http://help.yahoo.com/help/us/ysearch/slurp)",
      "Slurp", "Slurp", NULL, RA_CAT_SEARCH },
    { "Mozilla/5.0 (compatible; SeznamBot/4.0; +https://o-seznam.cz/napoveda/vyhledavani/en/seznambot-crawler/)",
      "SeznamBot", "SeznamBot", NULL, RA_CAT_SEARCH },
    { "Mozilla/5.0 (compatible; Yeti/1.1; +http://naver.me/spd)", "Yeti",
      "Yeti", NULL, RA_CAT_SEARCH },
    { "Mozilla/5.0 (compatible;PetalBot;+https://webmaster.petalsearch.com/site/petalbot)",
      "PetalBot", "PetalBot", NULL, RA_CAT_SEARCH },
    { "Sogou web spider/4.0(+http://www.sogou.com/docs/help/webmasters.htm#07)",
      "Sogou", "Sogou", NULL, RA_CAT_SEARCH },
    { "Mozilla/5.0 (compatible; Qwantbot/1.0; +https://help.qwant.com/bot/)",
      "Qwantbot", "Qwantbot", "Qwantify", RA_CAT_SEARCH },
    { "Mozilla/5.0 (compatible; MojeekBot/0.11; +https://www.mojeek.com/bot.html)",
      "MojeekBot", "MojeekBot", NULL, RA_CAT_SEARCH },
    { "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)",
      "GPTBot", "GPTBot", NULL, RA_CAT_AI_TRAINING },
    { "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot",
      "OAI-SearchBot", "OAI-SearchBot", NULL, RA_CAT_AI_SEARCH },
    { "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot",
      "ChatGPT-User", "ChatGPT-User", NULL, RA_CAT_AI_USER },
    { "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)",
      "ClaudeBot", "ClaudeBot", NULL, RA_CAT_AI_TRAINING },
    { "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)",
      "PerplexityBot", "PerplexityBot", NULL, RA_CAT_AI_SEARCH },
    { "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Perplexity-User/1.0; +https://perplexity.ai/perplexity-user)",
      "Perplexity-User", "Perplexity-User", NULL, RA_CAT_AI_USER },
    { "CCBot/2.0 (https://commoncrawl.org/faq/)", "CCBot", "CCBot", NULL,
      RA_CAT_AI_TRAINING },
    { "Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)",
      "Bytespider", "Bytespider", NULL, RA_CAT_AI_TRAINING },
    { "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15 (Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot)",
      "Amazonbot", "Amazonbot", NULL, RA_CAT_AI_TRAINING },
    { "meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)",
      "meta-externalagent", "meta-externalagent", NULL, RA_CAT_AI_TRAINING },
    { "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
      "facebookexternalhit", "facebookexternalhit", NULL, RA_CAT_SOCIAL },
    { "Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)",
      "AhrefsBot", "AhrefsBot", NULL, RA_CAT_SEO },
    { "Mozilla/5.0 (compatible; SemrushBot/7~bl; +http://www.semrush.com/bot.html)",
      "SemrushBot", "SemrushBot", NULL, RA_CAT_SEO },
    { "Mozilla/5.0 (compatible; MJ12bot/v1.4.8; http://mj12bot.com/)",
      "MJ12bot", "MJ12bot", NULL, RA_CAT_SEO },
    { "Mozilla/5.0 (compatible; DotBot/1.2; +https://opensiteexplorer.org/dotbot; help@moz.com)",
      "DotBot", "DotBot", NULL, RA_CAT_SEO },
    { "Mozilla/5.0 (compatible; DataForSeoBot/1.0; +https://dataforseo.com/dataforseo-bot)",
      "DataForSeoBot", "DataForSeoBot", NULL, RA_CAT_SEO },
    { "Twitterbot/1.0", "Twitterbot", "Twitterbot", NULL, RA_CAT_SOCIAL },
    { "LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)",
      "LinkedInBot", "LinkedInBot", NULL, RA_CAT_SOCIAL },
    { "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
      "Slackbot", "Slackbot", NULL, RA_CAT_SOCIAL },
    { "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)",
      "Discordbot", "Discordbot", NULL, RA_CAT_SOCIAL },
    { "WhatsApp/2.23.20.0", "WhatsApp", "WhatsApp", NULL, RA_CAT_SOCIAL },
    { "TelegramBot (like TwitterBot)", "TelegramBot", "TelegramBot", NULL,
      RA_CAT_SOCIAL },
    { "ia_archiver (+http://www.alexa.com/site/help/webmasters; crawler@alexa.com)",
      "ia_archiver", "ia_archiver", NULL, RA_CAT_ARCHIVE },
    { "Mozilla/5.0 (compatible; archive.org_bot +http://archive.org/details/archive.org_bot)",
      "archive.org_bot", "archive.org_bot", NULL, RA_CAT_ARCHIVE },
    { "Mozilla/5.0+(compatible; UptimeRobot/2.0; http://www.uptimerobot.com/)",
      "UptimeRobot", "UptimeRobot", NULL, RA_CAT_MONITORING },
    { "Pingdom.com_bot_version_1.4_(http://www.pingdom.com/)", "Pingdom",
      "Pingdom", NULL, RA_CAT_MONITORING },
};

static void
top50_name_and_tokens(void **state)
{
    ra_identity_t  id;
    size_t         i;

    (void) state;
    assert_true(sizeof(top50) / sizeof(top50[0]) >= 50);
    for (i = 0; i < sizeof(top50) / sizeof(top50[0]); i++) {
        id = identify(top50[i].ua);
        if (id.kind != RA_UA_KNOWN
            || !ra_strcaseeq(id.crawler->name,
                             ra_str(top50[i].name, strlen(top50[i].name))))
        {
            print_message("%s: got %.*s\n", top50[i].ua,
                id.crawler ? (int) id.crawler->name.len : 4,
                id.crawler ? (const char *) id.crawler->name.data : "none");
            fail();
        }
        assert_true(ra_strcaseeq(id.crawler->tokens[0],
                    ra_str(top50[i].tok0, strlen(top50[i].tok0))));
        assert_true(ra_strcaseeq(id.token,
                    ra_str(top50[i].tok0, strlen(top50[i].tok0))));
        if (top50[i].tok1 == NULL) {
            assert_int_equal(id.crawler->ntokens, 1);
        } else {
            assert_int_equal(id.crawler->ntokens, 2);
            assert_true(ra_strcaseeq(id.crawler->tokens[1],
                        ra_str(top50[i].tok1, strlen(top50[i].tok1))));
        }
        assert_int_equal(id.crawler->category, top50[i].category);
    }
}

static void
flags_and_verification_facts(void **state)
{
    const ra_crawler_t  *c;

    (void) state;
    c = ra_crawlers_find(tab, ra_str("AdsBot-Google", 13));
    assert_non_null(c);
    assert_true(c->flags & RA_CRAWLER_IGNORES_STAR);
    assert_false(c->flags & RA_CRAWLER_USER_TRIGGERED);

    c = ra_crawlers_find(tab, ra_str("feedfetcher-google", 18));
    assert_non_null(c);
    assert_true(c->flags & RA_CRAWLER_USER_TRIGGERED);

    c = ra_crawlers_find(tab, ra_str("ChatGPT-User", 12));
    assert_non_null(c);
    assert_true(c->flags & RA_CRAWLER_USER_TRIGGERED);
    assert_int_equal(c->category, RA_CAT_AI_USER);

    c = ra_crawlers_find(tab, ra_str("bingbot", 7));
    assert_non_null(c);
    assert_true(c->flags & RA_CRAWLER_CRAWL_DELAY);
    assert_int_equal(c->nrdns, 1);
    assert_true(ra_strcaseeq(c->rdns[0], ra_str(".search.msn.com", 15)));

    c = ra_crawlers_find(tab, ra_str("Googlebot", 9));
    assert_non_null(c);
    assert_false(c->flags & RA_CRAWLER_CRAWL_DELAY);
    /* Google's file since it moved (2026-03), then its old name, which
     * configurations written before still load */
    assert_int_equal(c->nranges, 2);
    assert_true(ra_strcaseeq(c->ranges[0],
                             ra_str("common-crawlers.json", 20)));
    assert_true(ra_strcaseeq(c->ranges[1], ra_str("googlebot.json", 14)));
    assert_true(c->nrdns >= 2);

    c = ra_crawlers_find_token(tab, ra_str("Google-Extended", 15));
    assert_non_null(c);
    assert_true(c->flags & RA_CRAWLER_TOKEN_ONLY);
    assert_int_equal(c->nua, 0);
    /* a token-only entry never matches a User-Agent */
    assert_int_not_equal(identify("Google-Extended/1.0").kind, RA_UA_KNOWN);
}


/* ------------------------------------------------------------ generic bots */

static void
generic_bots_and_their_tokens(void **state)
{
    (void) state;
    assert_int_equal(identify("Mozilla/5.0 (compatible; FooBot/1.2; "
                              "+http://foo.example/bot)").kind,
                     RA_UA_GENERIC);
    assert_true(token_is("Mozilla/5.0 (compatible; FooBot/1.2; "
                         "+http://foo.example/bot)", "FooBot"));
    assert_true(token_is("curl/8.5.0", "curl"));
    assert_true(token_is("Wget/1.21.4", "Wget"));
    assert_true(token_is("python-requests/2.31.0", "python-requests"));
    assert_true(token_is("Python-urllib/3.11", "Python-urllib"));
    assert_true(token_is("Go-http-client/2.0", "Go-http-client"));
    assert_true(token_is("okhttp/4.12.0", "okhttp"));
    assert_true(token_is("libwww-perl/6.72", "libwww-perl"));
    assert_true(token_is("Java/17.0.2", "Java"));
    assert_true(token_is("axios/1.6.2", "axios"));
    assert_true(token_is("node-fetch/1.0 (+https://github.com/bitinn/"
                         "node-fetch)", "node-fetch"));
    assert_true(token_is("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36"
                         " (KHTML, like Gecko) HeadlessChrome/120.0.6099.0 "
                         "Safari/537.36", "HeadlessChrome"));
    assert_true(token_is("Mozilla/5.0 (Unknown; Linux x86_64) AppleWebKit/"
                         "538.1 (KHTML, like Gecko) PhantomJS/2.1.1 Safari/"
                         "538.1", "PhantomJS"));
    assert_true(token_is("Mozilla/5.0 (compatible; Zeta/1.0; "
                         "+https://zeta.example/crawler.html)", "Zeta"));
    assert_true(token_is("Mozilla/5.0 (compatible; Optimizer)",
                         "Optimizer"));
    assert_true(token_is("Zapier", "Zapier"));
    /* Scrapy is in the table */
    assert_int_equal(identify("Scrapy/2.11.0 (+https://scrapy.org)").kind,
                     RA_UA_KNOWN);

    /* script and library names without their version (Ruby's is the
     * table's library entry, its token the name it had as a generic bot) */
    assert_true(token_is("ruby-1.9.3-p327", "Ruby"));
    assert_true(token_is("Ruby", "Ruby"));
    assert_true(token_is("Mozilla/5.0 (compatible; MJ12bot/v1.4.8; "
                         "http://mj12bot.com/)", "MJ12bot") ||
                identify("Mozilla/5.0 (compatible; MJ12bot/v1.4.8; "
                         "http://mj12bot.com/)").kind == RA_UA_KNOWN);
    assert_true(token_is("grpc-node/1.24.2 grpc-c/8.0.0 (linux; chttp2)",
                         "grpc-node"));

    /* a name of its own wins over its address; an address names a bot
     * that declares only a browser's words, or nothing (one record each,
     * not one "MSIE" or "-" for all of them: a fetch of robots.txt by
     * one would count for the other's requests) */
    assert_true(token_is("Mozilla/5.0 (compatible; Zeta/1.0; "
                         "+https://www.zeta.example/crawler.html)", "Zeta"));
    assert_true(token_is("Mozilla/4.0 (compatible; MSIE 6.0; Windows NT 5.1;"
                         " SV1;  http://www.changedetection.com/bot.html )",
                         "changedetection.com"));
    assert_true(token_is("Mozilla/5.0 (X11; U; Linux x86_64; en-US; rv:1.9."
                         "0.19; aggregator:Spinn3r (Spinn3r 3.1); http://"
                         "spinn3r.com/robot) Gecko/2010040121 Firefox/3.0.19",
                         "spinn3r.com"));
    assert_true(token_is("Mozilla/5.0 (Windows NT 6.1; WOW64) AppleWebKit/"
                         "537.36 (KHTML, like Gecko) Chrome/32.0.1700.76 "
                         "Safari/537.36,gzip(gfe) (via docs.google.com/"
                         "viewer)", "docs.google.com"));
    /* a callback host minted per probe: its last three labels */
    assert_true(token_is("<x href='http://w96nc2ztw5a0gxzd.b.inty.io/'>",
                         "b.inty.io"));
    assert_true(token_is("'Cloud mapping experiment. Contact research@"
                         "pdrlabs.net'", "pdrlabs.net"));
    assert_true(token_is("Mozilla/5.0 (compatible; MSIE 9.0; Windows NT 6.1;"
                         " http://192.0.2.1/x)", "MSIE"));
    /* the first address that names a host, not the first address: two
     * bots that give only a mailto: were one "MSIE" */
    assert_true(token_is("Mozilla/5.0 (compatible; MSIE 6.0; mailto:bot@"
                         "alpha.example.com)", "alpha.example.com"));
    assert_true(token_is("Mozilla/5.0 (compatible; MSIE 6.0; mailto:crawler@"
                         "beta.example.org)", "beta.example.org"));
    assert_true(token_is("Mozilla/5.0 (compatible; MSIE 6.0; +https://1.2.3."
                         "4/ ; http://www.epsilon.example/)",
                         "epsilon.example"));
    assert_true(token_is("Mozilla/5.0 (compatible; U; Hootsuite-WebFeed/1.0;"
                         " mailto:abuse@hootsuite.com)", "Hootsuite-WebFeed"));
    /* a bot that calls itself only what it is ("Crawler", "bot",
     * "monitoring") is named by a product it declares with a version, the
     * site it gives, or the first word it declares: one "Crawler" for
     * Algolia's and Audisto's would count one's robots.txt fetches for
     * the other's requests */
    assert_true(token_is("Algolia Crawler/1.0.0", "Algolia"));
    assert_true(token_is("Audisto Crawler (mobile; +https://audisto.com/bot)",
                         "audisto.com"));
    assert_true(token_is("Superfeedr bot/2.0 http://superfeedr.com - Make "
                         "your feeds realtime", "superfeedr.com"));
    assert_true(token_is("Mozilla/5.0 (compatible; Yahoo Ad monitoring; "
                         "https://help.yahoo.com/kb/yahoo-ad-monitoring-"
                         "SLN24857.html)", "help.yahoo.com"));
    assert_true(token_is("Mozilla/5.0 (compatible; Vagabondo/2.1; webcrawler"
                         " at wise-guys dot nl)", "Vagabondo"));
    assert_true(token_is("Chimu/1.0 robot (http://www.80.cm/bot.htm)",
                         "Chimu"));
    assert_true(token_is("https://researchcyber.net/", "researchcyber.net"));
    /* a host keeps its digits; a code host or a mail address names no
     * bot */
    assert_true(token_is("Mozilla/5.0 (compatible; 007ac9 Crawler; http://"
                         "crawler.007ac9.net/)", "crawler.007ac9.net"));
    assert_true(token_is("Curly HTTP Client (https://github.com/m3dev/curly)",
                         "Curly"));
    assert_true(token_is("Mozilla/5.0 (compatible; Finderbots finder bot; "
                         "+http://wiki.github.com/bixo/bixo/bixocrawler)",
                         "Finderbots"));
    assert_true(token_is("BrightEdge Crawler/1.0 (crawler@brightedge.com)",
                         "BrightEdge"));
    /* a name may start with a digit, a letter after it; a host too,
     * when its last label is a name's (not an address's) */
    assert_true(token_is("Mozilla/5.0 (compatible; 200PleaseBot/1.0; "
                         "+http://www.200please.com/bot)", "200PleaseBot"));
    assert_true(token_is("7Siters/1.2 ( https://7ooo.ru/siters/ )",
                         "7Siters"));
    assert_true(token_is("Mozilla/5.0 (compatible; 008/0.83; http://www.80"
                         "legs.com/webcrawler.html) Gecko/2008032620",
                         "80legs.com"));
    assert_true(token_is("Mozilla/5.0 (compatible; MSIE 9.0; Windows NT 6.1;"
                         " http://192.0.2.1/x)", "MSIE"));
    assert_true(token_is("RealPlayer%20Downloader/1569 CFNetwork/720.3.13 "
                         "Darwin/14.3.0 (x86_64)", "RealPlayer"));
    /* but a digit-first word late in a browser's User-Agent is no
     * program's name */
    assert_int_equal(identify("Mozilla/5.0 (Windows NT 10.0; Win64; x64) "
                              "AppleWebKit/537.36 (KHTML, like Gecko) Chrome/"
                              "120.0.0.0 Safari/537.36 (compatible; 360SE)")
                     .kind, RA_UA_BROWSER);
    /* nothing else to go by: the word */
    assert_true(token_is("BOT/0.1 (BOT for JCE)", "BOT"));
    /* a mail address is skipped however long its host or with "www."
     * (the host read keeps its last three labels, drops a "www."): the
     * name is not the mail provider's */
    assert_true(token_is("BrightEdge Crawler/1.0 (crawler@www.brightedge."
                         "com)", "BrightEdge"));
    assert_true(token_is("Algolia Crawler (ops@bots.mail.algolia.com)",
                         "Algolia"));
    assert_true(token_is("Crawler (ops@bots.mail.example.com; +https://"
                         "www.site.example/bot)", "site.example"));
    /* a version whose last part is letters is no host name: one record
     * for every release of a bot, as "Bot-2.1" and "Bot-2.2" are */
    assert_true(token_is("ExampleBot-1.2.beta (+http://example.org/bot)",
                         "ExampleBot"));
    assert_true(token_is("Mozilla/5.0 (compatible; ExampleBot-2.0.rc; "
                         "+http://example.org/bot)", "ExampleBot"));
    assert_true(token_is("Mozilla/5.0 (compatible; crawl-1.example.net "
                         "bot)", "crawl-1.example.net"));
    /* a word of the first product's comment describes the product */
    assert_true(token_is("SimplePie/1.5 (Feed Parser; http://simplepie.org; "
                         "Allow like Gecko) Build/20170417072931",
                         "SimplePie"));
    assert_true(token_is("jetmon/1.0 (Jetpack Site Uptime Monitor by "
                         "WordPress.com)", "jetmon"));
    assert_true(token_is("cobweb/1.2.0 (ruby/2.5.1 nokogiri/1.10.9)",
                         "cobweb"));
    /* not a platform's product, nor a word outside the comment */
    assert_true(token_is("Dalvik/2.1.0 (Linux; U; Android 9; Some-Crawler "
                         "Build/PPR1.180610.011)", "Some-Crawler"));
    assert_true(token_is("Dalvik/2.1.0 (Linux; U; Android 9; SM-G960F Build/"
                         "PPR1.180610.011) SomeCrawler/1.0", "SomeCrawler"));
    /* a browser's or a platform's product first names no bot: every bot
     * that starts so would be one "Chrome" or "Safari" */
    assert_true(token_is("Chrome/120.0 (X11; Linux x86_64; SomeBot/1.0)",
                         "SomeBot"));
    assert_true(token_is("Chrome/120.0 (OtherBot; +http://other.example)",
                         "OtherBot"));
    assert_true(token_is("Safari/537.36 (compatible; ExampleBot)",
                         "ExampleBot"));
    assert_true(token_is("Firefox/120.0 (compatible; FooCrawler)",
                         "FooCrawler"));
    assert_true(token_is("Lynx/2.8.9 (Web Spider of Example)", "Spider"));
    assert_true(token_is("Google One", "Google"));

    /* a tool's Name/version after a browser's own tokens */
    assert_true(token_is("Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) "
                         "AppleWebKit/537.36 (KHTML, like Gecko) Chrome/90.0"
                         ".4430.61 Safari/537.36 ArchiveBox/0.6.2",
                         "ArchiveBox") ||
                identify("Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) "
                         "AppleWebKit/537.36 (KHTML, like Gecko) Chrome/90.0"
                         ".4430.61 Safari/537.36 ArchiveBox/0.6.2").kind
                == RA_UA_KNOWN);
    assert_true(token_is("Mozilla/5.0 (X11; Linux x86_64; rv:52.0) Gecko/"
                         "20100101 Firefox/52.0 DejaClick/2.9.7.2",
                         "DejaClick"));
    assert_true(token_is("Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:80.0) "
                         "Gecko/20100101 Firefox/80.0 AcmeMeasure/2023 "
                         "(contact; someone; at; example.edu;)",
                         "AcmeMeasure"));
    assert_true(token_is("Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 "
                         "(KHTML, like Gecko) Chrome/120.0 Safari/537.36 "
                         "Edg/120.0 AcmeProbe/1.0", "AcmeProbe"));
    /* a name in the comment that browsers close after "like Gecko" */
    assert_true(token_is("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36"
                         " (KHTML, like Gecko; compatible; pageburst) Chrome/"
                         "111.0.5563.146 Safari/537.36", "pageburst"));
    assert_true(token_is("Mozilla/5.0 (en-US) AppleWebKit/537.36 (KHTML, "
                         "like Gecko; Acme-Assess) Chrome/34.0 Safari/537.36",
                         "Acme-Assess"));
    /* "(compatible; Name" after the browser's tokens names a tool; in the
     * first comment it is a browser's (MSIE) */
    assert_true(token_is("Mozilla/5.0 (Linux; Android 7.0; SM-G930V Build/"
                         "NRD90M) AppleWebKit/537.36 (KHTML, like Gecko) "
                         "Chrome/59.0.3071.125 Mobile Safari/537.36 "
                         "(compatible; Google-Youtube-Links)",
                         "Google-Youtube-Links"));
    assert_true(token_is("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36"
                         " (KHTML, like Gecko) Chrome/120.0 Safari/537.36 "
                         "(compatible; AcmeRender/2.1; +https://acme.example)",
                         "AcmeRender"));
    assert_int_equal(identify("Mozilla/4.0 (compatible; MSIE 8.0; Windows NT "
                              "6.1; Trident/4.0; SLCC2)").kind,
                     RA_UA_BROWSER);
    /* shapes no browser sends */
    assert_int_equal(identify("Chrome").kind, RA_UA_GENERIC);
    assert_int_equal(identify("firefox").kind, RA_UA_GENERIC);
    assert_int_equal(identify("Anonymous, Mozilla/5.0 (X11; Linux x86_64) "
                              "AppleWebKit/537.37 (KHTML, like Gecko) Chrome/"
                              "50.0 Safari/537.37").kind, RA_UA_GENERIC);
    assert_int_equal(identify("iphone|Mozilla/5.0 (iPhone; CPU iPhone OS 8_7"
                              " like Mac OS X) AppleWebKit/535.47 (KHTML, "
                              "like Gecko) Chrome/47.0 Mobile Safari/533.7")
                     .kind, RA_UA_GENERIC);
}

/* Generic names learned from public crawler lists other than the measured
 * ones (Crawler-Detect's fixtures, user-agents.net's bot list): Google's
 * own fetchers, HTTP libraries and tools, renderers and site testers. */
static void
generic_tool_names(void **state)
{
    (void) state;
    assert_true(token_is("Mozilla/5.0 (Windows; U; Windows NT 5.1; de; "
                         "rv:1.9.0.7; Google-SearchByImage) Gecko/2009021910"
                         " Firefox/3.0.7", "Google-SearchByImage"));
    assert_true(token_is("Mozilla/5.0 (Macintosh; Intel Mac OS X 10_7_3) "
                         "AppleWebKit/537.36 (KHTML, like Gecko, Google-"
                         "Publisher-Plugin) Chrome/27.0.1453 Safari/537.36",
                         "Google-Publisher-Plugin"));
    assert_true(token_is("fasthttp", "fasthttp"));
    assert_true(token_is("SVN/1.14.1 (x64-microsoft-windows) serf/1.3.9 "
                         "TortoiseSVN-1.14.1.29085", "serf"));
    assert_true(token_is("Needle/1.4.2 (Node.js v6.9.2; linux x64)",
                         "Needle"));
    assert_true(token_is("node-urllib/2.25.3 Node.js/6.12.2 (Linux 4.4; "
                         "x64)", "node-urllib"));
    assert_true(token_is("npm/6.14.12 node/v10.24.1 linux x64 ci/drone",
                         "npm"));
    assert_true(token_is("Mozilla/5.0 (pc-x86_64-linux-gnu) Siege/4.0.4",
                         "Siege"));
    assert_true(token_is("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/534.34"
                         " (KHTML, like Gecko) wkhtmltopdf Safari/534.34",
                         "wkhtmltopdf"));
    assert_true(token_is("URLTester/1 CFNetwork/974.1 Darwin/18.0.0 "
                         "(x86_64)", "URLTester"));
    assert_true(token_is("Mozilla/5.0 (Windows; U; Windows NT 5.1; en-US) "
                         "AppleWebKit/537.36 (KHTML, like Gecko) Chrome/27.0"
                         " Safari/537.36 HubSpot Marketing Grader",
                         "Grader"));
    assert_int_equal(identify("Unshorten.It! /1.0 (unshorten.it)").kind,
                     RA_UA_GENERIC);
    assert_true(token_is("Mozilla/5.0 (iPhone; CPU iPhone OS 6_0 like Mac "
                         "OS X) AppleWebKit/536.26 (KHTML, like Gecko) "
                         "Version/6.0 Mobile/10A5376e Safari/8536.25 mixed-"
                         "content-scan", "mixed-content-scan"));
    /* link resolvers and tracers, status checkers, monitors, health
     * probes, an address spelt out */
    assert_true(token_is("IDG Twitter Links Resolver", "Resolver"));
    assert_true(token_is("WhereGoes? Redirect Tracer/1.0", "Tracer"));
    assert_true(token_is("Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 6.0"
                         " ; BacklinkHttpStatus)", "BacklinkHttpStatus"));
    assert_true(token_is("httpscheck (unknown version) CFNetwork/760.5.1 "
                         "Darwin/15.5.0 (x86_64)", "httpscheck"));
    assert_true(token_is("Mozilla/3.0 (compatible; WebMon 1.0.11; Windows "
                         "XP)", "WebMon"));
    assert_true(token_is("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36"
                         " (KHTML, like Gecko) Chrome/120.0 Safari/537.36 "
                         "kube-probe/1.29", "kube-probe"));
    assert_int_equal(identify("Mozilla/5.0 (Windows NT 6.1; Win64; x64; rv:"
                              "47.0) Gecko/20100101 Firefox/47.0 (caam dot "
                              "crwlr at gmail dot com)").kind, RA_UA_GENERIC);
    assert_true(token_is("YahooSeeker-Testing/v3.9 (compatible; Mozilla 4.0;"
                         " MSIE 5.5; Yahoo! Search - Web Search)",
                         "YahooSeeker-Testing"));
    assert_int_equal(identify("Mozilla/5.0 (Windows NT 10.0; Win64; x64) "
                              "javascript:/*</script><svg/onload=alert(1)>")
                     .kind, RA_UA_GENERIC);
    /* "(compatible; Name" in the first comment: a browser's name or
     * platform there, or a program's */
    assert_true(token_is("Mozilla/5.0 (compatible; Owler/0.4; +; )",
                         "Owler"));
    assert_true(token_is("Mozilla/4.0 (compatible; Blog Search;)", "Blog"));
    assert_int_equal(identify("Mozilla/4.0 (compatible;)").kind,
                     RA_UA_GENERIC);
    assert_int_equal(identify("Mozilla/4.0 (compatible; MSIE 8.0; Windows NT"
                              " 6.1; Trident/4.0)").kind, RA_UA_BROWSER);
    assert_int_equal(identify("Mozilla/5.0 (compatible; Konqueror/4.5; Linux)"
                              " KHTML/4.5.4 (like Gecko)").kind,
                     RA_UA_BROWSER);
    assert_int_equal(identify("Mozilla/4.0 (compatible; Linux 2.6.22) NetFro"
                              "nt/3.4 Kindle/2.0 (screen 600x800)").kind,
                     RA_UA_BROWSER);
    /* an old browser of a name not listed names its platform */
    assert_int_equal(identify("Mozilla/4.0 (compatible; Teleca Q7; Brew 3.1."
                              "5; U; en) 240X400 LGE VX9700").kind,
                     RA_UA_BROWSER);
    assert_int_equal(identify("Mozilla/4.0 (compatible; Lotus-Notes/6.0; Win"
                              "dows-NT)").kind, RA_UA_BROWSER);
    assert_int_equal(identify("Mozilla/4.0 (compatible; Voyager; AmigaOS)")
                     .kind, RA_UA_BROWSER);
    /* the comment alone, whatever platform it names, is a program's */
    assert_true(token_is("Mozilla/5.0 (compatible; Zollard; Linux)",
                         "Zollard"));
    assert_true(token_is("Mozilla/4.0 (compatible; SuperCleaner 2.96; "
                         "Windows NT 5.1)", "SuperCleaner"));
    assert_int_equal(identify("Mozilla/4.0 (compatible; Lotus-Notes/6.0; Win"
                              "dows-NT) ").kind, RA_UA_BROWSER);
    /* words that hold those and are not them */
    assert_int_equal(identify("Mozilla/5.0 (X11; U; Linux i686; ru; rv:1.9.0."
                              "5) Gecko/2008121621 Ubuntu/8.04 (hardy) Firefox"
                              "/3.0.5 WebMoney Advisor").kind, RA_UA_BROWSER);
    assert_int_equal(identify("Mozilla/5.0 (Linux; Android 14; I2208 Build/"
                              "UP1A.231005.007; wv) AppleWebKit/537.36 (KHTML"
                              ", like Gecko) Version/4.0 Chrome/114.0.5735.196"
                              " Mobile Safari/537.36 csh-cashify-flutter csh-"
                              "store-checkout").kind, RA_UA_BROWSER);
    assert_int_equal(identify("Mozilla/5.0 (Linux; Android 14; Tecno Camon i4"
                              ") AppleWebKit/537.36 (KHTML, like Gecko) Chrome"
                              "/123.0.0.0 Mobile Safari/537.36").kind,
                     RA_UA_BROWSER);
    /* "(KHTML, like Gecko; Name": a program names itself where a WebKit
     * browser closes the comment (as logs spell the comma too); a phone's
     * own "like Gecko;" names none */
    assert_true(token_is("Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko;"
                         " ExamplePreview) Chrome/41.0 Safari/537.36",
                         "ExamplePreview"));
    assert_true(token_is("Mozilla/5.0 AppleWebKit/537.36 (KHTML like Gecko; "
                         "ExamplePreview) Chrome/41.0 Safari/537.36",
                         "ExamplePreview"));
    assert_true(token_is("Mozilla/5.0 AppleWebKit/537.36 (KHTML%2C like "
                         "Gecko; ExamplePreview) Chrome/41.0 Safari/537.36",
                         "ExamplePreview"));
    assert_int_equal(identify("emobile/1.0.0 (H11T; like Gecko; Wireless) "
                              "NetFront/3.4").kind, RA_UA_BROWSER);
    assert_int_equal(identify("IAC/1.0 (H31IA;like Gecko;OpenBrowser) WWW "
                              "Browser/ver1.0").kind, RA_UA_BROWSER);
    /* Japanese carriers' phones name their carrier; Edge on iOS after
     * Safari's product */
    assert_int_equal(identify("SoftBank/1.0/821SC/SCJ001/SN000000000000000 "
                              "Flash/Flash-Lite/2.0").kind, RA_UA_BROWSER);
    assert_int_equal(identify("DoCoMo/2.0 P903i(c100;TB;W24H12)").kind,
                     RA_UA_BROWSER);
    assert_int_equal(identify("Mozilla/5.0 (iPhone; CPU iPhone OS 10_3_2 like"
                              " Mac OS X) AppleWebKit/603.2.4 (KHTML, like "
                              "Gecko) Mobile/14F89 Safari/603.2.4 EdgiOS/41.1"
                              ".35.1").kind, RA_UA_BROWSER);
    assert_int_equal(identify("Mozilla/5.0 (Linux; Android 8.1.0; Capture+) "
                              "AppleWebKit/537.36 (KHTML, like Gecko) Chrome"
                              "/80.0.3987.87 Mobile Safari/537.36").kind,
                     RA_UA_BROWSER);
    /* browser forks that append their name (browscap's fixtures), phones
     * with "bot" in their model names, a feature phone's WAP browser, a
     * privacy add-on, and Sogou's browser, which is not Sogou's spider */
    {
        static const char  *browser[] = {
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:60.9) Gecko/201001"
            "01 Goanna/4.1 Firefox/60.9 Basilisk/20190211",
            "Mozilla/5.0 (Windows NT 5.1) AppleWebKit/537.36 (KHTML, like Ge"
            "cko)  Chrome/41.0.2272.76 Safari/537.36 Seznam.cz/1.3.0",
            "Mozilla/5.0 (Linux; Android 6.0; B BOT 50 Build/MRA58K) AppleWeb"
            "Kit/537.36 (KHTML, like Gecko) Chrome/62.0.3202.84 Mobile Safari"
            "/537.36",
            "ZEN M72_MAUI WAP Browser",
            "Mozilla/5.0 (masking-agent; rv:36.0) Gecko/20100101 Firefox/36.0",
            "Mozilla/5.0 (iPhone; CPU iPhone OS 11_4 like Mac OS X) AppleWebK"
            "it/605.1.15 (KHTML, like Gecko) Mobile/15F79 SogouMobileBrowser/"
            "5.12.9",
        };
        size_t  i;

        for (i = 0; i < sizeof(browser) / sizeof(browser[0]); i++) {
            if (identify(browser[i]).kind != RA_UA_BROWSER) {
                print_message("taken for a bot: %s\n", browser[i]);
                fail();
            }
        }
        assert_true(known_as("Sogou Pic Spider/3.0(+http://www.sogou.com/doc"
                             "s/help/webmasters.htm#07)", "Sogou",
                             RA_CAT_SEARCH));
        assert_true(known_as("New-Sogou-Spider/1.0 (compatible; MSIE 5.5; Wi"
                             "ndows 98)", "Sogou", RA_CAT_SEARCH));
    }
    /* a device named "Google" and browsers stay browsers */
    assert_int_equal(identify("Mozilla/5.0 (Linux; Android 14; Pixel 8) "
                              "AppleWebKit/537.36 (KHTML, like Gecko) Chrome"
                              "/120.0 Mobile Safari/537.36").kind,
                     RA_UA_BROWSER);
    assert_int_equal(identify("Mozilla/5.0 (Linux; Android 7.0; reeder P11SE)"
                              " AppleWebKit/537.36 (KHTML, like Gecko) Chrome"
                              "/76.0.3809.132 Mobile Safari/537.36").kind,
                     RA_UA_BROWSER);
}

/* The phones named "bot" ("B BOT 50", "M bot Tab 103", "IDbot553") are
 * neutral as words of their own: a bot whose name ends in "m", "b" or
 * "id" before "bot" ("Custom bot", "Web bot", "AndroidBot") is still one
 * (review3: "m bot" and "idbot" matched inside words, and these went
 * uncounted as browsers). */
static void
neutral_words_are_words(void **state)
{
    static const char  *bots[] = {
        "Mozilla/5.0 (X11; Linux x86_64; rv:109.0) Gecko/20100101 Firefox/1"
        "15.0 Custom bot",
        "Mozilla/5.0 (Windows NT 10.0) Telegram bot",
        "Mozilla/5.0 (X11; Linux x86_64) Web bot",
        "Mozilla/5.0 (X11; Linux x86_64) rapidbot",
        "AndroidBot/1.0",
        "Mozilla/5.0 (Linux; Android 12) AppleWebKit/537.36 (KHTML, like Gec"
        "ko) Chrome/120 Mobile Safari/537.36 AndroidBot",
    };
    static const char  *phones[] = {
        "Mozilla/5.0 (Linux; Android 6.0; B BOT 50 Build/MRA58K) AppleWebKit"
        "/537.36 (KHTML, like Gecko) Chrome/62.0.3202.84 Mobile Safari/537.36",
        "Mozilla/5.0 (Linux; Android 9; M bot Tab 103 Build/PPR1.180610.011)"
        " AppleWebKit/537.36 (KHTML, like Gecko) Chrome/90.0.4430.91 Safari/"
        "537.36",
        "Mozilla/5.0 (Linux; Android 10; IDbot553 Build/QP1A.190711.020) App"
        "leWebKit/537.36 (KHTML, like Gecko) Chrome/90.0.4430.91 Mobile Safa"
        "ri/537.36",
    };
    size_t  i;
    int     bad = 0;

    (void) state;
    for (i = 0; i < sizeof(bots) / sizeof(bots[0]); i++) {
        if (identify(bots[i]).kind == RA_UA_BROWSER) {
            print_message("taken for a browser: %s\n", bots[i]);
            bad++;
        }
    }
    for (i = 0; i < sizeof(phones) / sizeof(phones[0]); i++) {
        if (identify(phones[i]).kind != RA_UA_BROWSER) {
            print_message("taken for a bot: %s\n", phones[i]);
            bad++;
        }
    }
    assert_int_equal(bad, 0);
}

/* Apps that fetch for an agent or a feed, and clients of systems that
 * probe a URL themselves: table entries, with their purpose. */
static void
apps_that_fetch(void **state)
{
    (void) state;
    assert_true(known_as("Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) "
                         "AppleWebKit/537.36 (KHTML, like Gecko) Cursor/"
                         "3.0.12 Chrome/142.0.7444.265 Electron/39.8.1 "
                         "Safari/537.36", "Cursor", RA_CAT_AI_USER));
    assert_true(known_as("ReadKit/7017 CFNetwork/673.2.1 Darwin/13.1.0 "
                         "(x86_64) (MacBookPro10%2C1)", "ReadKit",
                         RA_CAT_FEED));
    assert_true(known_as("Reeder/1020.09.00 CFNetwork/596.3.3 Darwin/12.3.0"
                         " (x86_64)", "Reeder", RA_CAT_FEED));
    assert_true(known_as("Mozilla/5.0 (Macintosh; Intel Mac OS X 10_9_5) "
                         "AppleWebKit/537.78.2 (KHTML, like Gecko) Version/"
                         "7.0.1(2.5.3) Safari(ReederForMac)", "Reeder",
                         RA_CAT_FEED));
    assert_true(known_as("Fiery%20Feeds/272 CFNetwork/1125.2 Darwin/19.4.0 "
                         "(x86_64)", "Fiery-Feeds", RA_CAT_FEED));
    assert_true(known_as("Mozilla/5.0 (Macintosh; U; Intel Mac OS X 10_5_5; "
                         "en-us) AppleWebKit/525.18 (KHTML, like Gecko) "
                         "NetNewsWire/3.1.7", "NetNewsWire", RA_CAT_FEED));
    assert_true(known_as("DuckDuckGo/5 (com.duckduckgo.mobile.android; "
                         "Android API 33)", "DuckDuckGo-App", RA_CAT_TOOL));
    assert_true(known_as("Microsoft Office Existence Discovery",
                         "Microsoft-Office-Discovery", RA_CAT_TOOL));
    assert_true(known_as("Microsoft-WebDAV-MiniRedir/10.0.19044",
                         "Microsoft-Office-Discovery", RA_CAT_TOOL));
    assert_true(known_as("Mozilla/5.0 (Windows NT 6.1; WOW64; rv:45.0; "
                         "Neustar WPM) Gecko/20100101 Firefox/45.0",
                         "Neustar-WPM", RA_CAT_MONITORING));
    assert_true(known_as("Mozilla/5.0 (compatible; MSIE 9.0; Windows NT 6.1;"
                         " Trident/5.0; PTST 2.385)", "WebPageTest",
                         RA_CAT_MONITORING));
    assert_true(known_as("Yandex/1.01.001 (compatible; Win16; I)",
                         "YandexBot", RA_CAT_SEARCH));
    /* the DuckDuckGo browser itself, and Reeder tablets, are browsers */
    assert_int_equal(identify("Mozilla/5.0 (Linux; Android 13) AppleWebKit/"
                              "537.36 (KHTML, like Gecko) Version/4.0 Chrome/"
                              "118.0.0.0 Mobile DuckDuckGo/5 Safari/537.36")
                     .kind, RA_UA_BROWSER);
}

/* A scanner's payload in the User-Agent is a tool's, whatever else the
 * User-Agent claims; so is an encoded blob, and a phrase that names no
 * product, version or platform. */
static void
payloads_are_tools(void **state)
{
    static const char  *ua[] = {
        /* the looked-at halves' misses of isbot's and Matomo's fixtures */
        "Mozilla/5.0 (Windows NT 6.1; Win64; x64) AppleWebKit/537.36 (KHTML,"
        " like Gecko) Chrome/75.0.3770.142 Safari/537.36'+(select load_file("
        "'x97b.burpcollaborator.net'))+'",
        "Mozilliqa\"<?=print(9347655345-4954366);?>\"",
        "U2FsdGVkX1+uKxeH2946/bMTDvtm/Fr0nWjvFR/oPtc64LSh1Gg0qkbJUIhLpSw5h/"
        "mjF86TFOXrl4U2SG1KBi4BC0EfphyIzeOxVXkpBWHDMfJnkrFGrubrRGjmJN",
        "Hello, world",
        /* the usual forms */
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML,"
        " like Gecko) Chrome/124.0.0.0 Safari/537.36${jndi:ldap://x/a}",
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML,"
        " like Gecko) Chrome/124.0.0.0 Safari/537.36<script>alert(1)"
        "</script>",
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML,"
        " like Gecko) Chrome/124.0.0.0 Safari/537.36' or 1=1--",
        "LWPrCa2l') OR 941=(SELECT 941 FROM PG_SLEEP(15))--",
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like "
        "Gecko) Chrome/90.0 Safari/537.36 #{7*7}",
        "Mozilla/5.0 (Linux; Android 10) AppleWebKit/537.36 (KHTML, like "
        "Gecko) Chrome/90.0 Mobile Safari/537.36\" or \"1\"=\"1",
        "() { :; }; /bin/bash -c \"id\"",
        "Mozilla/5.0 (Windows NT 10.0) {{7*7}} Gecko/20100101 Firefox/125.0",
    };
    size_t  i;

    (void) state;
    for (i = 0; i < sizeof(ua) / sizeof(ua[0]); i++) {
        if (identify(ua[i]).kind != RA_UA_GENERIC) {
            print_message("not taken for a tool: %s\n", ua[i]);
            fail();
        }
    }
    assert_true(token_is("Hello, world", "Hello"));
}

/* Operators' special-purpose and user-triggered fetchers, link expanders
 * and mail image proxies (each from its operator's documentation). */
static void
special_fetchers_are_known(void **state)
{
    static const struct {
        const char  *ua;
        const char  *name;
    } k[] = {
        { "Mozilla/5.0 (Linux; Android 8.0; Pixel 2 Build/OPD3.170816.012; "
          "DuplexWeb-Google/1.0) AppleWebKit/537.36 (KHTML, like Gecko) "
          "Chrome/74.0.3729.131 Mobile Safari/537.36", "DuplexWeb-Google" },
        { "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like "
          "Gecko; Google Search Console) Chrome/41.0.2272.118 Safari/537.36",
          "Google-InspectionTool" },
        { "Mozilla/5.0 (iPhone; U; CPU iPhone OS 4_0_1 like Mac OS X; en-us) "
          "AppleWebKit/537.4 (KHTML, like Gecko; Google Page Speed Insights) "
          "Version/4.0.5 Mobile/8A306 Safari/6531.22.7", "Google-Other-Tools" },
        { "Mozilla/5.0 (Linux; Android 11; Moto G Power (2022)) AppleWebKit/"
          "537.36 (KHTML, like Gecko) Chrome/109.0.0.0 Mobile Safari/537.36 "
          "CloudflareObservatory/1.0", "CloudflareObservatory" },
        { "Yahoo:LinkExpander:Slingstone", "Yahoo-LinkExpander" },
        { "Mozilla/5.0 SeznamEmailProxy/1.0", "SeznamEmailProxy" },
        { "Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via "
          "ggpht.com GoogleImageProxy)", "Google-Other-Tools" },
        { "Google-Read-Aloud", "Google-Read-Aloud" },
    };
    ra_identity_t  id;
    size_t         i;

    (void) state;
    for (i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
        id = identify(k[i].ua);
        if (id.kind != RA_UA_KNOWN
            || !ra_strcaseeq(id.crawler->name,
                             ra_str(k[i].name, strlen(k[i].name))))
        {
            print_message("%s: want %s\n", k[i].ua, k[i].name);
            fail();
        }
    }
}

static void
browsers_are_not_bots(void **state)
{
    static const char  *ua[] = {
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 "
        "(KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4_1) AppleWebKit/605.1.15"
        " (KHTML, like Gecko) Version/17.4.1 Safari/605.1.15",
        "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 "
        "Firefox/125.0",
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) "
        "AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148"
        " Safari/604.1",
        "Mozilla/5.0 (Linux; Android 8.0.0; CUBOT_P20) AppleWebKit/537.36 "
        "(KHTML, like Gecko) Chrome/70.0.3538.110 Mobile Safari/537.36",
        "Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 5.1; .NET CLR "
        "2.0.50727)",
        /* browsers' and in-app browsers' own names after Safari/ */
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 "
        "(KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.0.0",
        "Mozilla/5.0 (iPhone; CPU iPhone OS 14_6 like Mac OS X) AppleWebKit/"
        "605.1.15 (KHTML, like Gecko) Version/14.1.1 Mobile/15E148 Snapchat/"
        "11.36.0.36 (like Safari/604.1)",
        "Mozilla/5.0 (Windows; U; Windows NT 6.0; ja; rv:1.9.1.15) Gecko/"
        "20101029 Firefox/3.5.15 Lunascape/6.3.4.23051 ( .NET CLR 3.5.30729)",
        "Mozilla/5.0 (compatible; Konqueror/3.2; Linux) (KHTML, like Gecko)",
        "",
        /* quotes, '<' and '{' that are no payload: a screen size in inches,
         * a placeholder left in a build, the Facebook app's settings */
        "Mozilla/5.0 (Linux; Android 5.1; Bush Spira B1 10.1\") AppleWebKit/"
        "537.36 (KHTML, like Gecko) Chrome/74.0.3729.157 Safari/537.36",
        "Mozilla/5.0 (Linux;Android 6.0.1;605HW Build/<buildID>)AppleWebKit/"
        "53 7.36(KHTML,like Gecko)Chrome/55.0.2883.91 Safari/537.36",
        "[FBAN/FB4A;FBAV/567.1.0.52.74;FBBV/1003893689;FBDM/{density=3.0,"
        "width=1080,height=2340};FBLC/nl_NL;FBCR/NL KPN;FBMF/samsung;]",
        /* apps: an Electron app and an iOS app's networking library are
         * a person's (isbot's browser fixtures); counting them would make
         * a site's own app users generic bots (README, "Crawlers") */
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML"
        ", like Gecko) Slack/4.4.2 Chrome/78.0.3904.130 Electron/7.2.1 "
        "Safari/537.36",
        "Viber/12.8.0.1 CFNetwork/1121.2.2 Darwin/19.3.0",
        /* words naming a platform are no phrase */
        "Procast (iOS)",
        /* text and niche browsers: people, whom enforce must never refuse
         * as generic bots */
        "w3m/0.5.3+git20230121",
        "Lynx/2.9.0dev.12 libwww-FM/2.14 SSL-MM/1.4.1 GNUTLS/3.7.9",
        "Links (2.29; Linux 6.1.0-13-amd64 x86_64; GNU C 12.2; text)",
        "ELinks/0.16.1.1 (textmode; Linux 6.1.0 x86_64; 80x24-2)",
        "Mozilla/5.0 (compatible; Dillo 3.0.5)",
        "Dillo/3.2.0",
        "NetSurf/3.10 (Linux)",
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like "
        "Gecko) NetSurf/3.11",
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/605.1.15 (KHTML, like "
        "Gecko) Ladybird/1.0",
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML"
        ", like Gecko) Chrome/109.0.0.0 Safari/537.36 SLBrowser/9.0.3.5211 "
        "SLBChan/105",
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:102.0) Gecko/20100101 "
        "Goanna/6.5 Firefox/102.0 PaleMoon/32.5.0",
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like "
        "Gecko) QtWebEngine/5.15.2 Chrome/87.0.4280.144 Safari/537.36 "
        "Falkon/3.1.0",
        "Mozilla/5.0 (X11; Linux x86_64) KHTML/5.110.0 (like Gecko) "
        "Konqueror/22.12",
        "Mozilla/5.0 (X11; Ubuntu; Linux x86_64) AppleWebKit/605.1.15 (KHTML"
        ", like Gecko) Version/17.0 Safari/605.1.15 Epiphany/45.0",
    };
    size_t  i;

    (void) state;
    for (i = 0; i < sizeof(ua) / sizeof(ua[0]); i++) {
        if (identify(ua[i]).kind != RA_UA_BROWSER) {
            print_message("not a browser: %s\n", ua[i]);
            fail();
        }
    }
}


/* ------------------------------------------------------------ shared data */

/* Appends the JSON string at *p (after its opening quote) to out,
 * decoding the escapes the data set uses; returns the end. */
static const char *
json_string(const char *p, const char *end, char *out, size_t cap,
    size_t *n)
{
    unsigned  u;

    *n = 0;
    while (p < end && *p != '"') {
        char c = *p++;
        if (c == '\\' && p < end) {
            c = *p++;
            switch (c) {
            case 'n': c = '\n'; break;
            case 't': c = '\t'; break;
            case 'u':
                if (end - p < 4 || sscanf(p, "%4x", &u) != 1) {
                    return end;
                }
                p += 4;
                if (u >= 0x80) {
                    /* not in these data sets' User-Agents: keep a byte */
                    c = '?';
                } else {
                    c = (char) u;
                }
                break;
            default: break;          /* \" \\ \/ */
            }
        }
        if (*n + 1 < cap) {
            out[(*n)++] = c;
        }
    }
    return p < end ? p + 1 : end;
}

typedef void (*ua_fn)(const char *ua, size_t len, void *ctx);

/* Calls fn for each string of every "instances" array. */
static int
each_instance(ua_fn fn, void *ctx)
{
    char        path[512], buf[8192];
    ra_str_t    f;
    const char *p, *end, *k;
    size_t      n, count = 0;

    snprintf(path, sizeof(path), "%s/useragents/crawler-user-agents/"
             "crawler-user-agents.json", ra_test_shared());
    assert_int_equal(ra_test_read_file(path, &f), 0);
    ((char *) f.data)[f.len] = '\0';     /* the helper leaves room */
    p = (const char *) f.data;
    end = p + f.len;
    while ((k = strstr(p, "\"instances\"")) != NULL && k < end) {
        p = k + 11;
        while (p < end && *p != '[') {
            p++;
        }
        p++;
        for ( ;; ) {
            while (p < end && (*p == ' ' || *p == '\n' || *p == ','
                               || *p == '\r' || *p == '\t'))
            {
                p++;
            }
            if (p >= end || *p != '"') {
                break;
            }
            p = json_string(p + 1, end, buf, sizeof(buf), &n);
            fn(buf, n, ctx);
            count++;
        }
    }
    free((void *) f.data);
    return (int) count;
}

/*
 * The evaluation is split in two by a hash of the User-Agent (FNV-1a, odd:
 * held out): whoever tunes the table or the rules reads the misses of the
 * other half only (RA_TEST_VERBOSE prints those), and the held-out half
 * measures.  bench/recall.pl does the same for any User-Agent list.
 */
typedef struct {
    size_t  total[2];
    size_t  found[2];
    size_t  known;
} recall_t;

static unsigned
held_out(const char *ua, size_t len)
{
    uint32_t  h = 2166136261u;
    size_t    i;

    for (i = 0; i < len; i++) {
        h = (h ^ (unsigned char) ua[i]) * 16777619u;
    }
    return h & 1;
}

static void
count_recall(const char *ua, size_t len, void *ctx)
{
    recall_t       *r = ctx;
    ra_identity_t   id;
    ra_str_t        s = ra_test_exact(ua, len);
    unsigned        half = held_out(ua, len);

    r->total[half]++;
    if (ra_crawlers_identify(tab, s, &id) != RA_UA_BROWSER) {
        r->found[half]++;
        r->known += id.kind == RA_UA_KNOWN;
    } else if (half == 0 && getenv("RA_TEST_VERBOSE")) {
        print_message("missed: %.*s\n", (int) len, ua);
    }
    ra_test_exact_free(s);
}

static void
recall_on_crawler_user_agents(void **state)
{
    recall_t  r = { { 0, 0 }, { 0, 0 }, 0 };
    unsigned  h;

    (void) state;
    RA_TEST_NEED_SHARED();
    each_instance(count_recall, &r);
    for (h = 0; h < 2; h++) {
        print_message("recall (%s): %zu of %zu (%.2f%%)\n",
                      h ? "held-out half" : "looked-at half", r.found[h],
                      r.total[h], 100.0 * (double) r.found[h]
                      / (double) r.total[h]);
    }
    print_message("%zu by the table\n", r.known);
    assert_true(r.total[0] + r.total[1] > 2000);
    assert_true(r.total[1] > 900);
    assert_true(r.found[1] * 100 >= r.total[1] * 99);
    assert_true(r.found[0] * 100 >= r.total[0] * 99);
}

/*
 * browsers.yml is isbot's set of real browsers.  Its section "These bots
 * have very low appearance rate" lists bots (Yahoo! Slurp, amazon-kendra)
 * and is skipped.  One entry is a documented crawler that isbot chose to
 * call a browser: Amazon's user-triggered AI agent Amzn-User, which
 * ai.robots.txt lists too; we identify it.  Its "Glitches" section holds
 * a crawler, Lucidworks Fusion's web crawler ("(compatible; Lucidworks-
 * Anda/2.0/0.10; +; )": a program's name where browsers put theirs), and
 * two scanners: Assetnote, which appends "Assetnote/1.0.0" to Chrome's
 * User-Agent (isbot's crawler fixtures list it too), and "Mozilla/5.0
 * (Laravel Reaver .env Presence)", a probe for leaked .env files, and
 * two injection probes ("LWPrCa2l') OR 941=(SELECT 941 FROM PG_SLEEP(15))--",
 * "Mozilliqa\"<?=print(...);?>\""), which isbot lists there because bot
 * lists name them: no person's browser sends them: tools, found.
 */
static void
no_false_positive_on_browsers(void **state)
{
    char      path[512], line[8192], *ua;
    FILE     *f;
    size_t    n = 0, fp = 0, len;
    int       skip = 0;
    ra_identity_t  id;
    ra_str_t  s;

    (void) state;
    RA_TEST_NEED_SHARED();
    snprintf(path, sizeof(path), "%s/useragents/isbot/browsers.yml",
             ra_test_shared());
    f = fopen(path, "r");
    assert_non_null(f);
    while (fgets(line, sizeof(line), f) != NULL) {
        len = strlen(line);
        while (len && (line[len - 1] == '\n' || line[len - 1] == '\r')) {
            line[--len] = '\0';
        }
        if (line[0] != ' ' && line[0] != '\0') {
            skip = strstr(line, "very low appearance rate") != NULL;
            continue;
        }
        ua = line;
        while (*ua == ' ') {
            ua++;
        }
        if (skip || ua[0] != '-' || ua[1] != ' ') {
            continue;
        }
        ua += 2;
        if (strstr(ua, "Amzn-User/") != NULL
            || strstr(ua, "Lucidworks-Anda/") != NULL
            || strstr(ua, "Assetnote/") != NULL
            || strstr(ua, "Laravel Reaver") != NULL
            || strstr(ua, "PG_SLEEP(") != NULL
            || strstr(ua, "\"<?=print(") != NULL)
        {
            continue;
        }
        n++;
        s = ra_test_exact(ua, strlen(ua));
        if (ra_crawlers_identify(tab, s, &id) != RA_UA_BROWSER) {
            fp++;
            print_message("false positive: %s\n", ua);
        }
        ra_test_exact_free(s);
    }
    fclose(f);
    print_message("browsers: %zu, false positives: %zu\n", n, fp);
    assert_true(n > 500);
    assert_int_equal(fp, 0);
}

/* Every agent of ai.robots.txt is in the table: as a robots.txt token or,
 * for names that are not tokens ("iaskspider/2.0"), as a User-Agent. */
static void
every_ai_robots_agent_is_known(void **state)
{
    char        path[512], key[256];
    ra_str_t    f;
    const char *p, *end;
    size_t      n, depth = 0, keys = 0, missing = 0;

    (void) state;
    RA_TEST_NEED_SHARED();
    snprintf(path, sizeof(path), "%s/ai-robots-txt/robots.json",
             ra_test_shared());
    assert_int_equal(ra_test_read_file(path, &f), 0);
    ((char *) f.data)[f.len] = '\0';     /* the helper leaves room */
    p = (const char *) f.data;
    end = p + f.len;
    while (p < end) {
        if (*p == '{') {
            depth++;
        } else if (*p == '}') {
            depth--;
        } else if (*p == '"') {
            p = json_string(p + 1, end, key, sizeof(key), &n);
            while (p < end && *p == ' ') {
                p++;
            }
            if (depth == 1 && p < end && *p == ':') {
                keys++;
                key[n] = '\0';
                if (ra_crawlers_find_token(tab, ra_str(key, n)) == NULL
                    && identify(key).kind != RA_UA_KNOWN)
                {
                    print_message("missing AI agent: %.*s\n", (int) n, key);
                    missing++;
                }
            }
            continue;
        }
        p++;
    }
    free((void *) f.data);
    print_message("ai.robots.txt agents: %zu, missing: %zu\n", keys, missing);
    assert_true(keys > 100);
    assert_int_equal(missing, 0);
}

/* ------------------------------------------------------------ hostile */

/* A crawler's name is found wherever it lies in a long User-Agent: in
 * either of the two lanes the scan splits the text into, across the byte
 * where they meet, among many other words' hits, and past the length
 * where one chain reads it all. */
static void
lanes_find_a_name_anywhere(void **state)
{
    static const char  filler[] = "Mozilla/5.0 (X11; Linux x86_64) "
        "AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36 ";
    static const size_t  lens[] = { 40, 64, 65, 200, 777, 1024, 1100, 3000 };
    char            *ua;
    size_t           li, len, at, i, fl = sizeof(filler) - 1;
    ra_identity_t    id;
    int              many;

    (void) state;
    ua = malloc(3000 + 64);
    assert_non_null(ua);
    for (many = 0; many < 2; many++) {
        for (li = 0; li < sizeof(lens) / sizeof(lens[0]); li++) {
            len = lens[li];
            for (at = 0; at + 14 <= len; at += len > 300 ? 37 : 3) {
                for (i = 0; i < len; i++) {
                    /* many: a generic word on every line, hits galore */
                    ua[i] = many && i % 40 < 6 ? "spider"[i % 40]
                                               : filler[i % fl];
                }
                memcpy(ua + at, " Googlebot/2.1", 14);
                if (ra_crawlers_identify(tab, ra_str(ua, len), &id)
                    != RA_UA_KNOWN || id.crawler == NULL
                    || !ra_strcaseeq(id.crawler->name, ra_str("Googlebot", 9)))
                {
                    fail_msg("length %zu, name at %zu%s: not Googlebot", len,
                             at, many ? ", many hits" : "");
                }
            }
        }
    }
    free(ua);
}

/* Hits come out in the order of the text whichever way the scan reads
 * it (two lanes keeping every byte's state in a slot after "Mozilla/5.0
 * (compatible; ", two lanes keeping hits with a branch after another
 * "Mozilla/5.0 (", or one chain): the product a generic bot names first
 * is its token, wherever the two names lie. */
static void
lanes_keep_the_order_of_hits(void **state)
{
    static const char   *pre[] = {
        "Mozilla/5.0 (compatible; ", "Mozilla/5.0 (X11; Linux x86_64) ",
        "Zq/1 ",
    };
    static const char    filler[] = "lorem ipsum dolor sit amet ";
    static const size_t  lens[] = { 34, 48, 64, 65, 101, 300, 1000, 1100 };
    static const char    a[] = " AlphaCrawler/1.0", b[] = " BetaSpider/2.0";
    char                 ua[1100];
    size_t               k, li, len, pl, at1, at2, i, fl = sizeof(filler) - 1;
    ra_identity_t        id;

    (void) state;
    for (k = 0; k < sizeof(pre) / sizeof(pre[0]); k++) {
        pl = strlen(pre[k]);
        for (li = 0; li < sizeof(lens) / sizeof(lens[0]); li++) {
            len = lens[li];
            for (at1 = pl; at1 + sizeof(a) - 1 + sizeof(b) - 1 <= len;
                 at1 += len > 300 ? 41 : 3)
            {
                for (at2 = at1 + sizeof(a) - 1; at2 + sizeof(b) - 1 <= len;
                     at2 += len > 300 ? 53 : 5)
                {
                    memcpy(ua, pre[k], pl);
                    for (i = pl; i < len; i++) {
                        ua[i] = filler[(i - pl) % fl];
                    }
                    memcpy(ua + at1, a, sizeof(a) - 1);
                    memcpy(ua + at2, b, sizeof(b) - 1);
                    if (ra_crawlers_identify(tab, ra_str(ua, len), &id)
                        != RA_UA_GENERIC
                        || !ra_strcaseeq(id.token, ra_str("AlphaCrawler", 12)))
                    {
                        fail_msg("'%s' length %zu, names at %zu and %zu: "
                                 "token '%.*s'", pre[k], len, at1, at2,
                                 (int) id.token.len,
                                 (const char *) id.token.data);
                    }
                }
            }
        }
    }
}

static void
hostile_user_agents(void **state)
{
    ra_identity_t   id;
    ra_str_t        s;
    unsigned char  *big;
    size_t          i;

    (void) state;
    /* no User-Agent at all, as a span without bytes (NULL: no byte is
     * read, UBSan checks the library calls) */
    assert_int_equal(ra_crawlers_identify(tab, ra_str(NULL, 0), &id),
                     RA_UA_BROWSER);
    /* 64 KiB: bounded scan, no crash; the crawler name early still counts */
    big = malloc(65536);
    assert_non_null(big);
    memset(big, 'a', 65536);
    memcpy(big, "Googlebot/2.1 ", 14);
    s = ra_test_exact(big, 65536);
    assert_int_equal(ra_crawlers_identify(tab, s, &id), RA_UA_KNOWN);
    ra_test_exact_free(s);
    /* every byte value, NUL included */
    for (i = 0; i < 65536; i++) {
        big[i] = (unsigned char) (i * 131 + (i >> 8));
    }
    s = ra_test_exact(big, 65536);
    (void) ra_crawlers_identify(tab, s, &id);
    ra_test_exact_free(s);
    free(big);

    s = ra_test_exact("Twitter\0bot/1.0", 15);
    assert_int_not_equal(ra_crawlers_identify(tab, s, &id), RA_UA_KNOWN);
    ra_test_exact_free(s);
    s = ra_test_exact("\0Googlebot/2.1", 14);
    assert_int_equal(ra_crawlers_identify(tab, s, &id), RA_UA_KNOWN);
    ra_test_exact_free(s);
    /* invalid UTF-8 around a name */
    s = RA_TEST_STR("\xff\xfe(compatible; bingbot/2.0)\xc0");
    assert_int_equal(ra_crawlers_identify(tab, s, &id), RA_UA_KNOWN);
    ra_test_exact_free(s);
    s = ra_test_exact("\xc3\x28\xa0\xa1", 4);
    (void) ra_crawlers_identify(tab, s, &id);
    ra_test_exact_free(s);
    s = ra_test_exact("", 0);
    assert_int_equal(ra_crawlers_identify(tab, s, &id), RA_UA_BROWSER);
    ra_test_exact_free(s);
    /* the tail checks at the very start of the User-Agent (exact
     * allocations: ASan sees a byte read before them) */
    {
        static const char  *edge[] = {
            " (x)", "1 (x)", "(x)", ")", " ", "/1", "a/1 (", "Gecko)",
            "x like gecko;", "like gecko; ", ", Mozilla/", "|mozilla/5.0",
        };
        for (i = 0; i < sizeof(edge) / sizeof(edge[0]); i++) {
            s = ra_test_exact(edge[i], strlen(edge[i]));
            (void) ra_crawlers_identify(tab, s, &id);
            ra_test_exact_free(s);
        }
    }
}

static int
load_file(const char *text, ra_crawlers_err_t *err, ra_crawlers_t **out,
    ra_test_arena_t *ar)
{
    ra_crawlers_t  *t = ra_crawlers_create(ra_test_arena_alloc(ar));
    ra_str_t        s = ra_test_exact(text, strlen(text));
    int             rc;

    assert_int_equal(ra_crawlers_add_builtin(t, err), RA_OK);
    rc = ra_crawlers_add(t, s, err);
    ra_test_exact_free(s);
    if (rc == RA_OK) {
        rc = ra_crawlers_compile(t, err);
    }
    *out = t;
    return rc;
}

static void
operator_files(void **state)
{
    static const struct {
        const char  *text;
        size_t       line;
    } bad[] = {
        { "ua foo\n", 1 },
        { "crawler A\ncategory search\ncolour red\n", 3 },
        { "crawler A\ncategory nowhere\n", 2 },
        { "crawler A\nua x\n", 1 },
        { "crawler A B\ncategory search\n", 1 },
        { "crawler A\ncategory search\nflags fast\n", 3 },
        { "crawler A\ncategory search\ntokens\n", 3 },
        { "crawler A\ncategory search\ntokens a/b\n", 3 },
        { "crawler A\ncategory search\noperator x\noperator y\n", 4 },
        { "# c\n\ncrawler A\ncategory search\nua \x01x\n", 5 },
    };
    ra_test_arena_t     *ar = ra_test_arena_new();
    ra_crawlers_t       *t;
    ra_crawlers_err_t    err;
    ra_identity_t        id;
    size_t               i, n;
    char                *longline;

    (void) state;
    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        assert_int_equal(load_file(bad[i].text, &err, &t, ar), RA_ERROR);
        assert_non_null(err.msg);
        if (err.line != bad[i].line) {
            print_message("%s: line %zu (%s), want %zu\n", bad[i].text,
                          err.line, err.msg, bad[i].line);
            fail();
        }
    }
    longline = malloc(3000);
    assert_non_null(longline);
    memset(longline, 'x', 2999);
    memcpy(longline, "crawler ", 8);
    longline[2999] = '\0';
    assert_int_equal(load_file(longline, &err, &t, ar), RA_ERROR);
    free(longline);

    /* replace, add, disable; CRLF and indentation are fine */
    assert_int_equal(load_file(
        "crawler Googlebot\r\n  ua Googlebot\r\n  operator Us\r\n"
        "  category seo\r\n\r\ncrawler AcmeBot\nua Acme Fetcher\n"
        "category tool\n\ncrawler bingbot\nflags disabled\n", &err, &t, ar),
        RA_OK);
    n = ra_crawlers_count(t);
    assert_int_equal(n, ra_crawlers_count(tab));     /* +1 -1 */
    ra_crawlers_identify(t, ra_str("Googlebot/2.1", 13), &id);
    assert_int_equal(id.kind, RA_UA_KNOWN);
    assert_int_equal(id.crawler->category, RA_CAT_SEO);
    assert_true(ra_strcaseeq(id.crawler->operator_name, ra_str("Us", 2)));
    /* the replaced entry keeps its id: counters stay put */
    assert_int_equal(id.crawler->id,
                     ra_crawlers_find(tab, ra_str("Googlebot", 9))->id);
    ra_crawlers_identify(t, ra_str("x ACME FETCHER/2", 16), &id);
    assert_int_equal(id.kind, RA_UA_KNOWN);
    assert_true(ra_strcaseeq(id.token, ra_str("AcmeBot", 7)));
    assert_null(ra_crawlers_find(t, ra_str("bingbot", 7)));
    /* compiled tables refuse more files */
    assert_int_equal(ra_crawlers_add(t, ra_str("", 0), &err), RA_ERROR);
    ra_test_arena_free(ar);
}

/* Policy tokens: a group for them says how content may be used, no
 * request carries them. */
static void
policy_tokens(void **state)
{
    const ra_crawler_t  *c;
    ra_test_arena_t     *ar = ra_test_arena_new();
    ra_crawlers_t       *t;
    ra_crawlers_err_t    err;

    (void) state;
    c = ra_crawlers_find(tab, ra_str("Google-Extended", 15));
    assert_non_null(c);
    assert_true(c->flags & RA_CRAWLER_POLICY);
    assert_true(c->flags & RA_CRAWLER_TOKEN_ONLY);
    assert_int_equal(c->nua, 0);
    assert_true(c->purpose.len > 10);
    c = ra_crawlers_find(tab, ra_str("Applebot-Extended", 17));
    assert_non_null(c);
    assert_true(c->flags & RA_CRAWLER_POLICY);
    /* token-only is not policy: a token several tools share */
    c = ra_crawlers_find(tab, ra_str("Cursor", 6));
    assert_non_null(c);
    assert_false(c->flags & RA_CRAWLER_POLICY);
    /* a crawler is no policy */
    c = ra_crawlers_find(tab, ra_str("Googlebot", 9));
    assert_false(c->flags & RA_CRAWLER_POLICY);
    assert_int_equal(c->purpose.len, 0);

    /* an operator's own */
    assert_int_equal(load_file("crawler Acme-Extended\ncategory ai-training\n"
                               "flags policy\npurpose training Acme's "
                               "models\n", &err, &t, ar), RA_OK);
    c = ra_crawlers_find_token(t, ra_str("acme-extended", 13));
    assert_non_null(c);
    assert_true(c->flags & RA_CRAWLER_POLICY);
    assert_int_equal(c->nua, 0);
    assert_true(ra_strcaseeq(c->purpose, ra_str("training Acme's models",
                                                22)));
    assert_int_equal(load_file("crawler A\ncategory tool\npurpose x\n"
                               "purpose y\n", &err, &t, ar), RA_ERROR);
    assert_int_equal(err.line, 4);
    ra_test_arena_free(ar);
}

/* Every entry of the built-in table has one of the twelve purposes, each
 * name reads back to its category, the former spelling is still read, and
 * an unknown one is refused. */
static void
purposes(void **state)
{
    static const char  *names[] = {
        "search", "ai-training", "ai-search", "ai-user", "seo",
        "social-preview", "monitoring", "archive", "feed", "academic",
        "security-scanner", "tool",
    };
    const ra_crawler_t  *c;
    ra_test_arena_t     *ar = ra_test_arena_new();
    ra_crawlers_t       *t;
    ra_crawlers_err_t    err;
    unsigned             seen[RA_CAT_MAX] = { 0 };
    size_t               i, k;

    (void) state;
    assert_int_equal(RA_CAT_MAX, sizeof(names) / sizeof(names[0]));
    for (k = 0; k < RA_CAT_MAX; k++) {
        unsigned  cat = ra_crawler_category_of(ra_str(names[k],
                                                      strlen(names[k])));
        assert_true(cat < RA_CAT_MAX);
        assert_string_equal(ra_crawler_category_name(cat), names[k]);
    }
    for (i = 0; i < ra_crawlers_count(tab); i++) {
        c = ra_crawlers_get(tab, i);
        assert_true(c->category < RA_CAT_MAX);
        for (k = 0; k < RA_CAT_MAX; k++) {
            if (strcmp(ra_crawler_category_name(c->category), names[k])
                == 0)
            {
                break;
            }
        }
        if (k == RA_CAT_MAX) {
            print_message("%.*s: purpose %s\n", (int) c->name.len,
                          (const char *) c->name.data,
                          ra_crawler_category_name(c->category));
        }
        assert_true(k < RA_CAT_MAX);
        seen[c->category]++;
    }
    /* the table uses every one */
    for (k = 0; k < RA_CAT_MAX; k++) {
        if (seen[k] == 0) {
            print_message("no entry of purpose %s\n",
                          ra_crawler_category_name((unsigned) k));
        }
        assert_true(seen[k] > 0);
    }
    c = ra_crawlers_find(tab, ra_str("ChatGPT-User", 12));
    assert_int_equal(c->category, RA_CAT_AI_USER);
    c = ra_crawlers_find(tab, ra_str("GPTBot", 6));
    assert_int_equal(c->category, RA_CAT_AI_TRAINING);
    c = ra_crawlers_find(tab, ra_str("Nikto", 5));
    assert_int_equal(c->category, RA_CAT_SECURITY);
    c = ra_crawlers_find(tab, ra_str("SemanticScholarBot", 18));
    assert_int_equal(c->category, RA_CAT_ACADEMIC);
    /* internet scanners, as their operators document their agents */
    {
        static const char  *scanners[] = {
            "Mozilla/5.0 (compatible; CensysInspect/1.1; "
            "+https://about.censys.io/)",
            "Expanse, a Palo Alto Networks company, searches across the "
            "global IPv4 space multiple times per day",
            "Nuclei - Open-source project (github.com/projectdiscovery/"
            "nuclei)",
            "Mozilla/5.0 (l9explore/1.2.2)",
            "Mozilla/5.0 (compatible; Nmap Scripting Engine; "
            "https://nmap.org/book/nse.html)",
            "SSL Labs (https://www.ssllabs.com/about/assessment.html)",
        };
        ra_identity_t  id;

        for (k = 0; k < sizeof(scanners) / sizeof(scanners[0]); k++) {
            id = identify(scanners[k]);
            assert_int_equal(id.kind, RA_UA_KNOWN);
            assert_int_equal(id.crawler->category, RA_CAT_SECURITY);
        }
    }
    assert_string_equal(ra_crawler_category_name(RA_CAT_MAX), "unknown");

    assert_int_equal(load_file("crawler A\ncategory ai-user-triggered\n",
                               &err, &t, ar), RA_OK);
    assert_int_equal(ra_crawlers_find(t, ra_str("A", 1))->category,
                     RA_CAT_AI_USER);
    assert_int_equal(load_file("crawler A\ncategory scraping\n", &err, &t,
                               ar), RA_ERROR);
    assert_int_equal(err.line, 2);
    assert_int_equal(load_file("crawler A\noperator x\n", &err, &t, ar),
                     RA_ERROR);
    ra_test_arena_free(ar);
}

/* HTTP libraries and tools ("flags library", purpose tool) are the
 * table's when they are the User-Agent's first product, a whole word, with
 * the token they had as generic bots; a crawler that names the library it
 * is built on stays itself. */
static void
library_entries_first_product(void **state)
{
    ra_identity_t        id;
    const ra_crawler_t  *c;
    static const struct {
        const char  *ua, *name, *token;
    } lib[] = {
        { "curl/8.5.0", "curl", "curl" },
        { "python-requests/2.31.0", "python-requests", "python-requests" },
        { "Go-http-client/2.0", "Go-http-client", "Go-http-client" },
        { "Mozilla/5.0 (compatible; Go-http-client/1.1; +centurybot9@gmail"
          ".com)", "Go-http-client", "Go-http-client" },
        { "Wget/1.21.4", "Wget", "Wget" },
        { "Ruby", "Ruby", "Ruby" },
        { "Chef Client/10.18.2 (ruby-1.9.3-p327; ohai-6.16.0; x86_64-linux;"
          " +http://opscode.com)", "Chef", "ruby" },
        { "ansible-httpget", "Ansible", "ansible-httpget" },
        { "Puppet/7.20.0 Ruby/2.7.6-p219 (x86_64-linux)", "Puppet", "Ruby" },
        { "Python/3.9 aiohttp/3.7.3", "aiohttp", "Python" },
        { "Apache-HttpClient/4.5.2 (Java/1.8.0_151)", "Apache-HttpClient",
          "Apache-HttpClient" },
    };
    size_t  i;

    (void) state;
    for (i = 0; i < sizeof(lib) / sizeof(lib[0]); i++) {
        id = identify(lib[i].ua);
        assert_int_equal(id.kind, RA_UA_KNOWN);
        assert_true(ra_strcaseeq(id.crawler->name,
                                 ra_str(lib[i].name, strlen(lib[i].name))));
        assert_int_equal(id.crawler->category, RA_CAT_TOOL);
        assert_true(id.crawler->flags & RA_CRAWLER_LIBRARY);
        assert_true(token_is(lib[i].ua, lib[i].token));
    }
    /* not the first product, or not a whole word */
    assert_true(token_is("cobweb/1.2.0 (ruby/2.5.1 nokogiri/1.10.9)",
                         "cobweb"));
    assert_int_equal(identify("cobweb/1.2.0 (ruby/2.5.1 nokogiri/1.10.9)")
                     .kind, RA_UA_GENERIC);
    assert_int_equal(identify("RubyBot/1.0").kind, RA_UA_GENERIC);
    assert_int_equal(identify("curl").kind, RA_UA_GENERIC);
    c = identify("LinkedInBot/1.0 (compatible; Mozilla/5.0; "
                 "Apache-HttpClient +http://www.linkedin.com)").crawler;
    assert_non_null(c);
    assert_true(ra_strcaseeq(c->name, ra_str("LinkedInBot", 11)));
    assert_int_equal(identify("2Bone_LinkChkr/1.0 libwww-perl/6.03").kind,
                     RA_UA_GENERIC);
    /* a library named after a browser's words is no library entry */
    assert_int_equal(identify("Mozilla/5.0 (X11; Linux x86_64; rv:125.0) "
                              "Gecko/20100101 Firefox/125.0 curl/8.5.0").kind,
                     RA_UA_GENERIC);
}

int
main(void)
{
    const struct CMUnitTest  tests[] = {
        cmocka_unit_test(builtin_table_loads),
        cmocka_unit_test(top50_name_and_tokens),
        cmocka_unit_test(flags_and_verification_facts),
        cmocka_unit_test(generic_bots_and_their_tokens),
        cmocka_unit_test(library_entries_first_product),
        cmocka_unit_test(generic_tool_names),
        cmocka_unit_test(apps_that_fetch),
        cmocka_unit_test(payloads_are_tools),
        cmocka_unit_test(special_fetchers_are_known),
        cmocka_unit_test(browsers_are_not_bots),
        cmocka_unit_test(recall_on_crawler_user_agents),
        cmocka_unit_test(no_false_positive_on_browsers),
        cmocka_unit_test(every_ai_robots_agent_is_known),
        cmocka_unit_test(lanes_find_a_name_anywhere),
        cmocka_unit_test(lanes_keep_the_order_of_hits),
        cmocka_unit_test(hostile_user_agents),
        cmocka_unit_test(operator_files),
        cmocka_unit_test(policy_tokens),
        cmocka_unit_test(purposes),
        cmocka_unit_test(neutral_words_are_words),
    };

    return cmocka_run_group_tests(tests, setup_arena_table,
                                  teardown_arena_table);
}
