/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The vocabularies identification looks for, besides the table's own
 * User-Agent pieces (but libraries', which are compared with a generic
 * bot's first product), and the list of every pattern the automata hold:
 *
 *   generic   words automated clients put in their User-Agent ("bot",
 *             "crawl", "curl/", "://", an e-mail address, ...);
 *   neutral   words that contain a generic word but are not one ("cubot"
 *             is a phone maker, ".net clr" a Windows component);
 *   platform  words every browser User-Agent carries ("windows", "linux",
 *             "gecko", ...); their absence makes a client suspect.  Only
 *             "is there one" matters, and only when nothing else was
 *             found, so they have their own automaton, read lazily up to
 *             the first one: in the main one every browser would hit
 *             several of them.
 */
#include "ra_crawlers_impl.h"

typedef struct {
    const char  *text;
    unsigned     flags;
} ra_kw_t;

/* Words an automated client declares.  Each was checked against real
 * browser User-Agents (the isbot browser fixtures): "scanner" must start a
 * word because of CamScanner, "feed" and "rss" because of device names. */
static const ra_kw_t  ra_generic_kw[] = {
    { "bot", RA_KW_NOALPHA }, { "crawl", 0 }, { "spider", 0 },
    { "scrap", 0 }, { "slurp", 0 }, { "robot", 0 }, { "spyder", 0 },
    { "archiver", 0 }, { "fetch", 0 },
    { "curl/", 0 }, { "wget", 0 }, { "python", 0 }, { "aiohttp", 0 },
    { "httpx", 0 }, { "go-http-client", 0 }, { "okhttp", 0 },
    { "libwww-perl", 0 }, { "lwp-", 0 }, { "lwp::", 0 }, { "java/", 0 },
    { "httpclient", 0 }, { "http client", 0 }, { "http_", 0 },
    { "-http", 0 }, { "axios", 0 }, { "node-fetch", 0 }, { "undici", 0 },
    { "ruby", 0 }, { "guzzle", 0 }, { "php/", 0 }, { "winhttp", 0 },
    { "colly", 0 }, { "httpie", 0 },
    { "headless", 0 }, { "phantomjs", 0 }, { "selenium", 0 },
    { "playwright", 0 }, { "puppeteer", 0 }, { "htmlunit", 0 },
    { "slimerjs", 0 }, { "lighthouse", 0 }, { "cypress/", RA_KW_WSTART },
    { "devtools", 0 }, { "grpc-", RA_KW_WSTART }, { "cryptoapi", 0 },
    { "transcoder", 0 },
    { "monitor", 0 }, { "uptime", 0 }, { "checker", 0 },
    { "linkcheck", 0 }, { "check_", 0 }, { "validator", 0 },
    { "preview", 0 }, { "synthetic", 0 }, { "webhook", 0 },
    { "scanner", RA_KW_WSTART }, { "scanning", 0 },
    { "-scan", RA_KW_NOALPHA },
    { "scan/", RA_KW_WSTART }, { "sucker", 0 }, { "copier", 0 },
    { "webcopy", 0 }, { "downloader", 0 }, { "screenshot", 0 },
    { "indexer", 0 }, { "parser", 0 }, { "feed", RA_KW_WSTART },
    { "rss", RA_KW_WSTART }, { "-agent", 0 },
    { "agent", RA_KW_WSTART | RA_KW_NOALNUM },
    /* "(KHTML, like Gecko; Google Page Speed Insights)": browsers close
     * the comment there; what a program adds names it */
    { "like gecko;", RA_KW_NEXT },
    /* Google's special fetchers name themselves "Google-Name" */
    { "google-", RA_KW_WSTART },
    /* HTTP libraries and command-line tools, their names without the
     * version (fasthttp, serf, Needle, Perl's WWW:: modules ...) */
    { "fasthttp", 0 }, { "serf/", RA_KW_WSTART }, { "needle/", RA_KW_WSTART },
    { "node.js", 0 }, { "urllib", 0 }, { "www::", 0 },
    { "npm/", RA_KW_WSTART }, { "gradle/", RA_KW_WSTART },
    { "docker/", RA_KW_WSTART }, { "kubectl/", RA_KW_WSTART },
    { "siege/", RA_KW_WSTART },
    /* page-to-image and PDF renderers, link expanders, site testers */
    { "wkhtmlto", 0 }, { "webkit2png", 0 }, { "websnapr", 0 },
    { "webthumb", 0 }, { "unshorten", 0 }, { "expander", 0 },
    { "tester", 0 }, { "extractor", 0 }, { "analyzer", 0 },
    { "analyser", 0 }, { "grader", 0 }, { "examiner", 0 },
    /* link resolvers and tracers, status checkers, health probes and
     * monitors ("WebMon", not "WebMoney"; "check", not "checkout"), tools
     * that name a platform ("WindowsPowerShell", "Apache-Maven/3.6 (Java
     * 14; Linux ...)"); a tool that names none (PostmanRuntime, Dart's
     * dart:io, RestSharp, GoogleHC, ...) is found by that alone */
    { "resolver", 0 }, { "tracer", 0 }, { "httpstatus", 0 },
    { "check", RA_KW_NOALPHA }, { "webmon", RA_KW_NOALPHA }, { "probe", 0 },
    { "seeker", 0 }, { "webdav", 0 }, { "powershell", 0 },
    { "netweaver", 0 }, { "maven/", RA_KW_WSTART }, { "signalr", 0 },
    /* image proxies and link unfurlers after a browser's tokens, page
     * renderers (the fediverse's servers and embedders that fetch link
     * previews give a URL: "Mastodon/4.2 (http.rb/5.1; +https://host/)") */
    { "imgproxy", 0 }, { "imageproxy", 0 }, { "emailproxy", 0 },
    { "mailproxy", 0 }, { "unfurl", 0 }, { "render", 0 },
    { "thumbnail", 0 }, { "snapshot", 0 },
    /* a script where a name belongs: an XSS probe */
    { "javascript:", RA_KW_URL },
    /* an address spelt out: "name at gmail dot com" */
    { " dot com", RA_KW_URL }, { " dot net", RA_KW_URL },
    { " dot org", RA_KW_URL },
    { "://", RA_KW_URL }, { "www.", RA_KW_URL }, { "(at)", RA_KW_URL },
    { "[at]", RA_KW_URL }, { "mailto:", RA_KW_URL },
    { "@", RA_KW_EMAIL | RA_KW_URL },
    { ".com", RA_KW_DOMAIN | RA_KW_URL }, { ".net", RA_KW_DOMAIN | RA_KW_URL },
    { ".org", RA_KW_DOMAIN | RA_KW_URL }, { ".de", RA_KW_DOMAIN | RA_KW_URL },
    { ".fr", RA_KW_DOMAIN | RA_KW_URL }, { ".nu", RA_KW_DOMAIN | RA_KW_URL },
    { ".uk", RA_KW_DOMAIN | RA_KW_URL }, { ".ru", RA_KW_DOMAIN | RA_KW_URL },
    { ".jp", RA_KW_DOMAIN | RA_KW_URL }, { ".info", RA_KW_DOMAIN | RA_KW_URL },
    { ".co", RA_KW_DOMAIN | RA_KW_URL },
};

static const ra_kw_t  ra_neutral_kw[] = {
    { "cubot", 0 }, { "camscanner", 0 }, { "mozacfetch", 0 },
    { ".net clr", 0 },
    /* phones with "bot" in their model names ("B BOT 50", "M bot Tab 103",
     * "IDbot553": words of their own, not "Custom bot", "Web bot",
     * "AndroidBot"), a browser's privacy add-on, products named after
     * their domain, an embedded IE's vendor */
    { "m bot", RA_KW_WSTART | RA_KW_NOALNUM },
    { "b bot", RA_KW_WSTART | RA_KW_NOALNUM },
    { "vr bot", RA_KW_WSTART | RA_KW_NOALNUM },
    { "idbot", RA_KW_WSTART | RA_KW_DIGIT }, { "xbot_", 0 },
    { "masking-agent", 0 }, { "web.de/", 0 }, { "battle.net/", 0 },
    { "bsalsa.com", 0 },
};

/* Operating systems, devices and engines: a browser names at least one. */
static const char  *ra_platform_kw[] = {
    "mozac", "windows", "win32", "win64", "win10", "winnt", "win9x",
    "win98", "win95", "wow64", "mac", "darwin", "linux", "android",
    "iphone", "ipad", "ipod", "x11", "cros", "crkey", "symbian",
    "series60", "series 60", "series40", "series 40", "s60", "blackberry",
    "bb10", "midp", "j2me", "playstation", "nintendo", "tizen", "kaios",
    "amiga", "morphos", "beos", "haiku", "sunos", "solaris", "freebsd",
    "openbsd", "netbsd", "dragonfly", "webos", "web0s", "xbox", "smart-tv",
    "smarttv", "roku", "os/2", "risc os", "riscos", "palm", "hp-ux", "irix",
    "aix", "qnx", "bada", "meego", "maemo", "ubuntu", "fedora", "debian",
    "mobile", "tablet", "ios", "sailfish", "hbbtv", "nokia", "samsung",
    "sonyericsson", "mot-", "lg-", "opera", "up.browser", "netfront",
    "obigo", "teleca", "brew", "cldc", "cygwin", "syllable", "inferno",
    "lynx", "links", "mosaic", "cfnetwork", "dalvik", "player", "msoffice",
    "googleapp", "gecko", "konqueror", "msie", "trident", "presto", "khtml",
    "webkit", "chrome", "firefox", "safari", "maui", "wap browser",
    /* Japanese carriers' phones ("DoCoMo/1.0/P501i", "SoftBank/1.0/821SC/
     * ...", "KDDI-CA39 UP.Browser/6.2") */
    "docomo", "softbank", "vodafone", "j-phone", "kddi", "willcom",
    /* text browsers and small engines that may name no platform at all
     * ("w3m/0.5.3", "Dillo/3.2.0", "NetSurf/3.10") */
    "w3m", "dillo", "netsurf", "ladybird",
};
/* Calls fn for each of a vocabulary's n words, as patterns of that kind */
static int
ra_each_kw(ra_crawlers_t *t, const ra_kw_t *kw, size_t n, unsigned kind,
    ra_pat_fn_t fn, void *ctx)
{
    ra_pat_src_t  p;
    size_t        i;
    int           rc;

    for (i = 0; i < n; i++) {
        p.s = ra_str(kw[i].text, strlen(kw[i].text));
        p.kind = (uint8_t) kind;
        p.flags = (uint8_t) kw[i].flags;
        p.value = (uint16_t) i;
        if ((rc = fn(t, &p, ctx)) != RA_OK) {
            return rc;
        }
    }
    return RA_OK;
}

/* Calls fn for every pattern: the table's pieces, then the vocabularies. */
int
ra_each_pattern(ra_crawlers_t *t, ra_pat_fn_t fn, void *ctx)
{
    ra_pat_src_t  p;
    size_t        i, j;
    int           rc;

    for (i = 0; i < t->n; i++) {
        if (t->crawlers[i].flags & RA_CRAWLER_LIBRARY) {
            continue;                   /* ra_crawlers_identify() compares
                                           them with the first product */
        }
        for (j = 0; j < t->crawlers[i].nua; j++) {
            p.s = t->crawlers[i].ua[j];
            p.kind = RA_PAT_KNOWN;
            p.flags = RA_KW_WSTART;
            p.value = (uint16_t) i;
            if ((rc = fn(t, &p, ctx)) != RA_OK) {
                return rc;
            }
        }
    }
    if ((rc = ra_each_kw(t, ra_generic_kw, RA_NELTS(ra_generic_kw),
                         RA_PAT_GENERIC, fn, ctx)) != RA_OK)
    {
        return rc;
    }
    for (i = 0; i < RA_NELTS(ra_platform_kw); i++) {
        p.s = ra_str(ra_platform_kw[i], strlen(ra_platform_kw[i]));
        p.kind = RA_PAT_PLATFORM;
        p.flags = 0;
        p.value = (uint16_t) i;
        if ((rc = fn(t, &p, ctx)) != RA_OK) {
            return rc;
        }
    }
    return ra_each_kw(t, ra_neutral_kw, RA_NELTS(ra_neutral_kw),
                      RA_PAT_NEUTRAL, fn, ctx);
}

/* Whether t is a whole word of ra_platform_kw[] ("Chrome", "Safari",
 * "Dalvik", "Lynx"): a browser's, an engine's or a platform's product,
 * which every bot that starts with it would share.  Asked of a generic
 * bot's first product only. */
int
ra_platform_word(ra_str_t t)
{
    size_t  k;

    for (k = 0; k < RA_NELTS(ra_platform_kw); k++) {
        if (t.len && ra_lower(t.data[0]) == (unsigned char) ra_platform_kw[k][0]
            && ra_word_is(t.data, t.len, ra_platform_kw[k],
                          strlen(ra_platform_kw[k])))
        {
            return 1;
        }
    }
    return 0;
}
