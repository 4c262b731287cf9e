/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Crawler table: loader, automaton and identification.
 *
 * The loader reads the text format of data/crawlers.txt in two passes over
 * each entry (validate and count, then fill), so every array is allocated
 * once at its final size: the caller's allocator may be a pool that never
 * frees.  ra_crawlers_compile() then builds an Aho-Corasick automaton of
 * every User-Agent piece of the table plus two fixed vocabularies, and a
 * second, small one of a third vocabulary:
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
 *
 * Each automaton is a full DFA over byte classes (letters folded to lower
 * case; bytes no pattern uses share class 0) whose entries are the offsets
 * of the next row, so that a byte costs one load (see ra_ac_t).  The time
 * goes to waiting for that load, byte after byte, so ra_crawlers_identify()
 * reads the two halves of a User-Agent as two independent chains of loads
 * and starts after the common "Mozilla/5.0 (" in the state it leads to.
 * A browser's User-Agent has few hits, a branch keeps them
 * (ra_scan_lanes()); a bot's has many, and a mispredicted branch at each
 * would drain both chains, so those agents' lanes keep every byte's state
 * in a slot (ra_scan_slots()).
 */
#include <string.h>

#include "ra_crawlers.h"
#include "ra_origin.h"

extern const unsigned char  ra_crawlers_builtin_data[];
extern const size_t         ra_crawlers_builtin_len;

#define RA_PAT_KNOWN      0
#define RA_PAT_GENERIC    1
#define RA_PAT_PLATFORM   2
#define RA_PAT_NEUTRAL    3

#define RA_KW_WSTART      0x01   /* must start a word */
#define RA_KW_NOALPHA     0x02   /* no letter may follow */
#define RA_KW_NOALNUM     0x04   /* no letter or digit may follow */
#define RA_KW_URL         0x08   /* part of a URL: names no product */
#define RA_KW_EMAIL       0x10   /* "@": needs a whole address */
#define RA_KW_DOMAIN      0x20   /* ".com": needs a host name before it */
#define RA_KW_NEXT        0x40   /* names no product: the next token does */
#define RA_KW_DIGIT       0x80   /* a digit must follow */

#define RA_MAX_HITS       16
#define RA_MAX_NEUTRAL    8
#define RA_TOKEN_MAX      64
#define RA_HOST_MAX       253    /* a host name's bytes (ra_url_host()) */
#define RA_LANES_MIN      32     /* shorter User-Agents: one chain */
#define RA_SYNC           32     /* how far lane 0 reads on to meet lane 1 */
#define RA_LANE_HITS      16     /* hits a lane keeps */
#define RA_SLOT_HITS      16     /* hits ra_scan_slots() keeps a lane */

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

#define RA_NELTS(a)  (sizeof(a) / sizeof((a)[0]))

typedef struct {
    uint16_t  len;
    uint8_t   kind;              /* RA_PAT_* */
    uint8_t   flags;             /* RA_KW_* */
    uint16_t  value;             /* crawler id or keyword index */
    uint16_t  next;              /* next pattern ending at the state, +1 */
} ra_pat_t;

/*
 * Most User-Agents, browsers' and crawlers' alike, start with one of these
 * (a third of crawler-user-agents' with the first): the automata start
 * after it in the state computed once at compile time.  Longest first.
 */
static const struct {
    const char  *text;
    size_t       len;
} ra_ua_prefix[] = {
    { "Mozilla/5.0 (compatible; ", 25 },
    { "Mozilla/5.0 (", 13 },
};

#define RA_NPREFIX  RA_NELTS(ra_ua_prefix)
/* "Mozilla/5.0 (" not followed by "compatible; ": mostly browsers */
#define RA_PRE_BROWSER  1
#define RA_PRE_HIT  ((size_t) -1)

/*
 * A full DFA over byte classes, one row per state: ncls transitions, then
 * the first pattern ending at the state (+1) and the nearest suffix state
 * where a pattern ends (0: none).  A state is named by its row's offset,
 * so that a byte costs one load and no arithmetic on the chain of loads:
 *
 *   t16  (up to RA_AC_T16_MAX bytes: the built-in table takes 400 KB)
 *        16-bit entries, rows a multiple of 8 bytes, a state is its row's
 *        offset in 8-byte units, which an x86-64 load scales by itself;
 *   t32  (larger tables, from big operators' files) 32-bit entries, a
 *        state is its row's offset in entries; one chain, no lanes.
 *
 * The states where some pattern ends are numbered last: "s >= hit" tells
 * them without a table load.
 */
typedef struct {
    uint8_t             cls[256];
    size_t              ncls;
    size_t              width;      /* entries per row */
    size_t              nstates;
    size_t              hit;
    uint16_t           *t16;
    uint32_t           *t32;
    /* t16 + cls[byte]: loaded, not computed, it keeps the compiler from
     * adding the class to the state on the chain of loads */
    const uint16_t     *col[256];
    /* the state after each of ra_ua_prefix[]; RA_PRE_HIT when a pattern
     * ends within it: the scan cannot skip it */
    size_t              pre[RA_NPREFIX];
} ra_ac_t;

/* 16-bit entries name 8-byte units: 64 Ki of them */
#define RA_AC_T16_MAX     (65536u * 8)

typedef struct ra_crawlers_src_s  ra_crawlers_src_t;

struct ra_crawlers_src_s {
    ra_crawlers_src_t  *next;
    ra_crawler_t       *entries;
    size_t              n;
};

struct ra_crawlers_s {
    const ra_alloc_t   *alloc;
    ra_crawlers_src_t  *first;
    ra_crawlers_src_t  *last;
    size_t              nentries;   /* over all sources, before merging */
    unsigned            compiled:1;

    ra_crawler_t       *crawlers;
    size_t              n;

    ra_ac_t             ac;         /* pieces, generic, neutral words */
    ra_ac_t             plat;       /* platform words */
    ra_pat_t           *pats;
    size_t              npats;
};

static const char  *ra_category_names[RA_CAT_MAX] = {
    "search", "ai-training", "ai-search", "ai-user", "seo",
    "social-preview", "feed", "monitoring", "archive", "tool", "academic",
    "security-scanner",
};

#define RA_FLAG_DISABLED  0x100      /* loader only: drops the name */

static const struct {
    const char  *name;
    unsigned     flag;
} ra_flag_names[] = {
    { "crawl-delay", RA_CRAWLER_CRAWL_DELAY },
    { "ignores-star", RA_CRAWLER_IGNORES_STAR },
    { "user-triggered", RA_CRAWLER_USER_TRIGGERED },
    { "token-only", RA_CRAWLER_TOKEN_ONLY },
    { "policy", RA_CRAWLER_POLICY | RA_CRAWLER_TOKEN_ONLY },
    { "disabled", RA_FLAG_DISABLED },
};

#define ra_isalnum(c)  (ra_isalpha(c) || ra_isdigit(c))
#define ra_ishost(c)   (ra_isalnum(c) || (c) == '.' || (c) == '-')
#define ra_istok_c(c)  (ra_isalnum(c) || (c) == '.' || (c) == '_'          \
                        || (c) == '-')

/* ra_istok_c() of every byte: identify's scans over product tokens test
 * it for every byte they read, a load is cheaper than five compares */
#define RA_TOK4(c)   ra_istok_c(c), ra_istok_c((c) + 1), ra_istok_c((c) + 2), \
                     ra_istok_c((c) + 3)
#define RA_TOK16(c)  RA_TOK4(c), RA_TOK4((c) + 4), RA_TOK4((c) + 8),          \
                     RA_TOK4((c) + 12)
#define RA_TOK64(c)  RA_TOK16(c), RA_TOK16((c) + 16), RA_TOK16((c) + 32),     \
                     RA_TOK16((c) + 48)

static const uint8_t  ra_tok_tab[256] = {
    RA_TOK64(0), RA_TOK64(64), RA_TOK64(128), RA_TOK64(192)
};

#define ra_istok(c)    (ra_tok_tab[(unsigned char) (c)])

const char *
ra_crawler_category_name(unsigned category)
{
    return category < RA_CAT_MAX ? ra_category_names[category] : "unknown";
}

unsigned
ra_crawler_category_of(ra_str_t name)
{
    size_t  i;

    for (i = 0; i < RA_CAT_MAX; i++) {
        if (ra_strcaseeq(name, ra_str(ra_category_names[i],
                                      strlen(ra_category_names[i]))))
        {
            return (unsigned) i;
        }
    }
    if (ra_strcaseeq(name, ra_str("ai-user-triggered", 17))) {
        return RA_CAT_AI_USER;
    }
    return RA_CAT_MAX;
}

ra_crawlers_t *
ra_crawlers_create(const ra_alloc_t *a)
{
    ra_crawlers_t  *t;

    t = ra_alloc(a, sizeof(ra_crawlers_t));
    if (t == NULL) {
        return NULL;
    }
    memset(t, 0, sizeof(ra_crawlers_t));
    t->alloc = a;
    return t;
}


/* ------------------------------------------------------------ the loader */

typedef struct {
    const unsigned char  *p;
    const unsigned char  *end;
    size_t                line;
} ra_lines_t;

static int
ra_eq(ra_str_t s, const char *lit)
{
    size_t  n = strlen(lit);

    return s.len == n && memcmp(s.data, lit, n) == 0;
}

/* The next line that is neither blank nor a comment, split into its first
 * word and the trimmed rest.  1: a line; 0: end; -1: line too long. */
static int
ra_next_line(ra_lines_t *it, ra_str_t *key, ra_str_t *val)
{
    const unsigned char  *s, *e, *nl, *k;

    while (it->p < it->end) {
        s = it->p;
        nl = memchr(s, '\n', (size_t) (it->end - s));
        e = nl != NULL ? nl : it->end;
        it->p = nl != NULL ? nl + 1 : it->end;
        it->line++;

        if ((size_t) (e - s) > RA_CRAWLERS_MAX_LINE) {
            return -1;
        }
        while (s < e && (*s == ' ' || *s == '\t')) {
            s++;
        }
        while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r')) {
            e--;
        }
        if (s == e || *s == '#') {
            continue;
        }
        for (k = s; k < e && *k != ' ' && *k != '\t'; k++) { /* void */ }
        *key = ra_str(s, (size_t) (k - s));
        while (k < e && (*k == ' ' || *k == '\t')) {
            k++;
        }
        *val = ra_str(k, (size_t) (e - k));
        return 1;
    }
    return 0;
}

/* Splits off the next blank-separated word of *v; 0 when none is left. */
static int
ra_next_word(ra_str_t *v, ra_str_t *w)
{
    size_t  i = 0, j;

    while (i < v->len && (v->data[i] == ' ' || v->data[i] == '\t')) {
        i++;
    }
    if (i == v->len) {
        return 0;
    }
    for (j = i; j < v->len && v->data[j] != ' ' && v->data[j] != '\t'; j++) {
        /* void */
    }
    *w = ra_str(v->data + i, j - i);
    v->data += j;
    v->len -= j;
    return 1;
}

static int
ra_valid_word(ra_str_t w, size_t max)
{
    size_t  i;

    if (w.len == 0 || w.len > max || !ra_isalnum(w.data[0])) {
        return 0;
    }
    for (i = 0; i < w.len; i++) {
        if (!ra_istok(w.data[i])) {
            return 0;
        }
    }
    return 1;
}

static int
ra_valid_text(ra_str_t v, size_t max)
{
    size_t  i;

    if (v.len == 0 || v.len > max) {
        return 0;
    }
    for (i = 0; i < v.len; i++) {
        if (v.data[i] < 0x20 || v.data[i] == 0x7f) {
            return 0;
        }
    }
    return 1;
}

#define ra_fail(m)  do { err->line = it->line; err->msg = (m);             \
                         return RA_ERROR; } while (0)

/*
 * Reads one entry's lines after its "crawler" line, up to the next one.
 * It validates and counts list items into *nitems; with c != NULL it
 * also fills c's scalar fields (ra_fill_list() does the lists).
 */
static int
ra_parse_entry(ra_lines_t *it, ra_str_t name, ra_crawler_t *c,
    size_t *nitems, ra_crawlers_err_t *err)
{
    ra_lines_t   save;
    ra_str_t     key, val, w;
    size_t       nua = 0, ntok = 0, seen = 0, i, first = it->line;
    unsigned     flags = 0, category = RA_CAT_MAX, bit;
    int          rc;

    if (!ra_valid_word(name, RA_CRAWLERS_MAX_NAME)) {
        ra_fail("crawler name: 1-64 letters, digits, '.', '_', '-'");
    }
    if (c != NULL) {
        memset(c, 0, sizeof(ra_crawler_t));
        c->name = name;
    }

    for ( ;; ) {
        save = *it;
        rc = ra_next_line(it, &key, &val);
        if (rc < 0) {
            ra_fail("line longer than 1024 bytes");
        }
        if (rc == 0 || ra_eq(key, "crawler")) {
            *it = save;
            break;
        }

        bit = 0;

        if (ra_eq(key, "ua")) {
            if (!ra_valid_text(val, 255)) {
                ra_fail("ua: 1-255 bytes of text, no control characters");
            }
            nua++;
            (*nitems)++;
            continue;

        } else if (ra_eq(key, "tokens") || ra_eq(key, "ranges")
                   || ra_eq(key, "rdns"))
        {
            bit = key.data[1] == 'o' ? 1 : key.data[1] == 'a' ? 2 : 4;
            if (seen & bit) {
                ra_fail("repeated key");
            }
            seen |= bit;
            while (ra_next_word(&val, &w)) {
                if (bit == 1 ? !ra_valid_word(w, RA_CRAWLERS_MAX_NAME)
                             : !ra_valid_text(w, 255))
                {
                    ra_fail("bad list item");
                }
                if (bit == 1) {
                    ntok++;
                }
                (*nitems)++;
            }
            if (bit == 1 && ntok == 0) {
                ra_fail("tokens: at least one token");
            }
            continue;

        } else if (ra_eq(key, "signature-agent")) {
            /* Web Bot Auth: the origins whose signatures are this
             * crawler's (ra_sig.h) */
            if (seen & 128) {
                ra_fail("repeated key");
            }
            seen |= 128;
            while (ra_next_word(&val, &w)) {
                ra_str_t  h;

                if (w.len > 255 || ra_origin_host(w, &h) != RA_OK) {
                    ra_fail("signature-agent: https://HOST origins");
                }
                (*nitems)++;
            }
            continue;

        } else if (ra_eq(key, "operator") || ra_eq(key, "url")
                   || ra_eq(key, "purpose"))
        {
            bit = key.data[0] == 'o' ? 8 : key.data[0] == 'u' ? 16 : 64;
            if ((seen & bit) || !ra_valid_text(val, 255)) {
                ra_fail("operator/url/purpose: once, 1-255 bytes of text");
            }
            seen |= bit;
            if (c != NULL) {
                if (bit == 8) {
                    c->operator_name = val;
                } else if (bit == 16) {
                    c->url = val;
                } else {
                    c->purpose = val;
                }
            }
            continue;

        } else if (ra_eq(key, "category")) {
            if (seen & 32) {
                ra_fail("repeated key");
            }
            seen |= 32;
            category = ra_crawler_category_of(val);
            if (category == RA_CAT_MAX) {
                ra_fail("unknown category");
            }
            continue;

        } else if (ra_eq(key, "flags")) {
            while (ra_next_word(&val, &w)) {
                for (i = 0; i < RA_NELTS(ra_flag_names); i++) {
                    if (ra_eq(w, ra_flag_names[i].name)) {
                        break;
                    }
                }
                if (i == RA_NELTS(ra_flag_names)) {
                    ra_fail("unknown flag");
                }
                flags |= ra_flag_names[i].flag;
            }
            continue;
        }

        ra_fail("unknown key");
    }

    if (!(flags & RA_FLAG_DISABLED) && category == RA_CAT_MAX) {
        err->line = first;               /* the "crawler" line */
        err->msg = "entry without a category";
        return RA_ERROR;
    }
    if (ntok == 0) {
        (*nitems)++;                       /* the name as token */
    }
    if (nua == 0 && !(flags & RA_CRAWLER_TOKEN_ONLY)) {
        (*nitems)++;                       /* the name as ua piece */
    }
    if (c == NULL) {
        return RA_OK;
    }
    c->category = category;
    c->flags = flags;
    return RA_OK;
}

/* Second reading of an entry: fills the lists of key "k" from the pool. */
static void
ra_fill_list(ra_lines_t it, const char *k, ra_str_t **pool,
    const ra_str_t **list, size_t *n)
{
    ra_str_t  key, val, w;

    *list = *pool;
    *n = 0;
    while (ra_next_line(&it, &key, &val) == 1 && !ra_eq(key, "crawler")) {
        if (!ra_eq(key, k)) {
            continue;
        }
        if (k[0] == 'u') {
            (*pool)[(*n)++] = val;
            continue;
        }
        while (ra_next_word(&val, &w)) {
            (*pool)[(*n)++] = w;
        }
    }
    *pool += *n;
}

static int
ra_crawlers_parse(ra_crawlers_t *t, const unsigned char *p, size_t len,
    ra_crawlers_err_t *err)
{
    ra_lines_t          it, body;
    ra_str_t            key, val, *pool;
    ra_crawler_t       *c;
    ra_crawlers_src_t  *src;
    size_t              nentries = 0, nitems = 0, i;
    int                 rc;

    /* pass 1: validate and count */
    it.p = p;
    it.end = p + len;
    it.line = 0;
    for ( ;; ) {
        rc = ra_next_line(&it, &key, &val);
        if (rc < 0) {
            err->line = it.line;
            err->msg = "line longer than 1024 bytes";
            return RA_ERROR;
        }
        if (rc == 0) {
            break;
        }
        if (!ra_eq(key, "crawler")) {
            err->line = it.line;
            err->msg = "expected \"crawler NAME\" to start an entry";
            return RA_ERROR;
        }
        if (++nentries + t->nentries > RA_CRAWLERS_MAX_ENTRIES) {
            err->line = it.line;
            err->msg = "too many entries";
            return RA_ELIMIT;
        }
        rc = ra_parse_entry(&it, val, NULL, &nitems, err);
        if (rc != RA_OK) {
            return rc;
        }
    }

    src = ra_alloc(t->alloc, sizeof(ra_crawlers_src_t)
                             + nentries * sizeof(ra_crawler_t)
                             + nitems * sizeof(ra_str_t));
    if (src == NULL) {
        return RA_ENOMEM;
    }
    src->next = NULL;
    src->n = nentries;
    src->entries = (ra_crawler_t *) (src + 1);
    pool = (ra_str_t *) (src->entries + nentries);

    /* pass 2: fill; the text is known to be valid */
    it.p = p;
    it.line = 0;
    for (i = 0; i < nentries; i++) {
        c = &src->entries[i];
        (void) ra_next_line(&it, &key, &val);
        body = it;
        (void) ra_parse_entry(&it, val, c, &nitems, err);

        ra_fill_list(body, "tokens", &pool, &c->tokens, &c->ntokens);
        if (c->ntokens == 0) {
            *pool = c->name;
            c->tokens = pool++;
            c->ntokens = 1;
        }
        ra_fill_list(body, "ua", &pool, &c->ua, &c->nua);
        if (c->nua == 0 && !(c->flags & RA_CRAWLER_TOKEN_ONLY)) {
            *pool = c->name;
            c->ua = pool++;
            c->nua = 1;
        }
        if (c->flags & RA_CRAWLER_TOKEN_ONLY) {
            c->nua = 0;
        }
        ra_fill_list(body, "ranges", &pool, &c->ranges, &c->nranges);
        ra_fill_list(body, "rdns", &pool, &c->rdns, &c->nrdns);
        ra_fill_list(body, "signature-agent", &pool, &c->sig_agents,
                     &c->nsig_agents);
    }

    if (t->last != NULL) {
        t->last->next = src;
    } else {
        t->first = src;
    }
    t->last = src;
    t->nentries += nentries;
    return RA_OK;
}

int
ra_crawlers_add(ra_crawlers_t *t, ra_str_t text, ra_crawlers_err_t *err)
{
    unsigned char  *copy;

    err->line = 0;
    err->msg = NULL;
    if (t->compiled) {
        err->msg = "table already compiled";
        return RA_ERROR;
    }
    if (text.len > RA_CRAWLERS_MAX_FILE) {
        err->msg = "crawler file larger than 4 MiB";
        return RA_ELIMIT;
    }
    /* the entries point into the text: keep our own copy */
    copy = ra_alloc(t->alloc, text.len);
    if (copy == NULL) {
        return RA_ENOMEM;
    }
    if (text.len) {
        memcpy(copy, text.data, text.len);
    }
    return ra_crawlers_parse(t, copy, text.len, err);
}

int
ra_crawlers_add_builtin(ra_crawlers_t *t, ra_crawlers_err_t *err)
{
    err->line = 0;
    err->msg = NULL;
    if (t->compiled) {
        err->msg = "table already compiled";
        return RA_ERROR;
    }
    /* static bytes: no copy needed */
    return ra_crawlers_parse(t, ra_crawlers_builtin_data,
                             ra_crawlers_builtin_len, err);
}


/* ------------------------------------------------------------ automaton */

typedef struct {
    ra_str_t  s;
    uint8_t   kind;
    uint8_t   flags;
    uint16_t  value;
} ra_pat_src_t;

typedef int (*ra_pat_fn_t)(ra_crawlers_t *t, const ra_pat_src_t *p,
    void *ctx);

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
static int
ra_each_pattern(ra_crawlers_t *t, ra_pat_fn_t fn, void *ctx)
{
    ra_pat_src_t  p;
    size_t        i, j;
    int           rc;

    for (i = 0; i < t->n; i++) {
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

/*
 * The automata are built in a scratch trie of 16-bit states (the limit is
 * RA_CRAWLERS_MAX_STATES) and then written out as ra_ac_t rows.  A pass of
 * ra_each_pattern() takes the patterns whose kind is in mask.
 */
typedef struct {
    unsigned        mask;            /* 1 << RA_PAT_* */
    size_t          bytes;
    size_t          npats;
    uint8_t         used[256];

    const uint8_t  *cls;
    size_t          ncls;
    size_t          nstates;
    uint16_t       *trie;            /* nstates * ncls */
    uint16_t       *out;             /* first pattern ending here, +1 */
    ra_pat_t       *pats;            /* NULL: the words' identity is moot */
} ra_build_t;

static int
ra_count_pattern(ra_crawlers_t *t, const ra_pat_src_t *p, void *ctx)
{
    ra_build_t  *b = ctx;
    size_t       i;

    (void) t;
    if (!(b->mask & (1u << p->kind))) {
        return RA_OK;
    }
    for (i = 0; i < p->s.len; i++) {
        b->used[ra_lower(p->s.data[i])] = 1;
    }
    b->bytes += p->s.len;
    b->npats++;
    return RA_OK;
}

static int
ra_insert_pattern(ra_crawlers_t *t, const ra_pat_src_t *p, void *ctx)
{
    ra_build_t  *b = ctx;
    size_t       i, s = 0, c;
    uint16_t     next;
    ra_pat_t    *pat;

    (void) t;
    if (!(b->mask & (1u << p->kind))) {
        return RA_OK;
    }
    for (i = 0; i < p->s.len; i++) {
        c = b->cls[ra_lower(p->s.data[i])];
        next = b->trie[s * b->ncls + c];
        if (next == 0) {
            if (b->nstates >= RA_CRAWLERS_MAX_STATES) {
                return RA_ELIMIT;
            }
            next = (uint16_t) b->nstates++;
            b->trie[s * b->ncls + c] = next;
        }
        s = next;
    }
    if (b->pats == NULL) {
        b->out[s] = 1;
        return RA_OK;
    }
    pat = &b->pats[b->npats];
    pat->len = (uint16_t) p->s.len;
    pat->kind = p->kind;
    pat->flags = p->flags;
    pat->value = p->value;
    pat->next = b->out[s];
    b->out[s] = (uint16_t) ++b->npats;
    return RA_OK;
}

/* One step of the automaton, off the hot loops. */
static size_t
ra_ac_next(const ra_ac_t *ac, size_t s, unsigned char ch)
{
    size_t  c = ac->cls[ch];

    return ac->t16 != NULL ? ac->t16[s * 4 + c] : ac->t32[s + c];
}

/* Entry k (past the transitions) of the row of state s. */
static size_t
ra_ac_slot(const ra_ac_t *ac, size_t s, size_t k)
{
    k += ac->ncls;
    return ac->t16 != NULL ? ac->t16[s * 4 + k] : ac->t32[s + k];
}

/*
 * Builds the Aho-Corasick automaton of the patterns of the kinds in mask
 * into ac; with pats != NULL the patterns are stored there (t->npats).
 */
static int
ra_ac_build(ra_crawlers_t *t, ra_ac_t *ac, unsigned mask, ra_pat_t *pats)
{
    ra_build_t   b;
    size_t       i, k, c, n, w, e, unit, maxstates, head, tail;
    size_t       nhit, nout, nfree;
    uint16_t    *fail, *dict, *queue, *num, s, u, v;
    int          rc;

    memset(&b, 0, sizeof(ra_build_t));
    b.mask = mask;
    (void) ra_each_pattern(t, ra_count_pattern, &b);

    /* class 0: bytes no pattern uses; letters share their lower case */
    memset(ac->cls, 0, sizeof(ac->cls));
    n = 1;
    for (i = 0; i < 256; i++) {
        if (b.used[i]) {
            ac->cls[i] = (uint8_t) n++;
        }
    }
    for (i = 'A'; i <= 'Z'; i++) {
        ac->cls[i] = ac->cls[i | 0x20];
    }

    /* a trie has at most one state per pattern byte, plus the root */
    maxstates = b.bytes + 1;
    if (maxstates > RA_CRAWLERS_MAX_STATES) {
        maxstates = RA_CRAWLERS_MAX_STATES;
    }
    if (b.npats > 65535) {
        return RA_ELIMIT;
    }

    b.cls = ac->cls;
    b.ncls = n;
    b.nstates = 1;
    b.pats = pats;
    b.npats = 0;
    b.trie = ra_alloc(t->alloc, maxstates * n * sizeof(uint16_t));
    b.out = ra_alloc(t->alloc, maxstates * sizeof(uint16_t));
    fail = ra_alloc(t->alloc, maxstates * sizeof(uint16_t));
    dict = ra_alloc(t->alloc, maxstates * sizeof(uint16_t));
    queue = ra_alloc(t->alloc, maxstates * sizeof(uint16_t));
    num = ra_alloc(t->alloc, maxstates * sizeof(uint16_t));
    if (b.trie == NULL || b.out == NULL || fail == NULL || dict == NULL
        || queue == NULL || num == NULL)
    {
        rc = RA_ENOMEM;
        goto done;
    }
    memset(b.trie, 0, maxstates * n * sizeof(uint16_t));
    memset(b.out, 0, maxstates * sizeof(uint16_t));
    memset(fail, 0, maxstates * sizeof(uint16_t));
    memset(dict, 0, maxstates * sizeof(uint16_t));

    rc = ra_each_pattern(t, ra_insert_pattern, &b);
    if (rc != RA_OK) {
        goto done;
    }
    if (pats != NULL) {
        t->npats = b.npats;
    }

    /*
     * Breadth first: a state's row is completed (missing edges take the
     * failure state's edge) only when the state is dequeued, so a non-zero
     * entry of an unvisited row is still a trie edge (no edge leads back
     * to the root).
     */
    head = tail = 0;
    for (c = 0; c < n; c++) {
        u = b.trie[c];
        if (u != 0) {
            fail[u] = 0;
            queue[tail++] = u;
        }
    }
    while (head < tail) {
        s = queue[head++];
        dict[s] = b.out[fail[s]] ? fail[s] : dict[fail[s]];
        for (c = 0; c < n; c++) {
            u = b.trie[s * n + c];
            v = b.trie[fail[s] * n + c];
            if (u != 0) {
                fail[u] = v;
                queue[tail++] = u;
            } else {
                b.trie[s * n + c] = v;
            }
        }
    }

    /*
     * Number the states breadth first, so the shallow states where a
     * browser's bytes spend nearly all their time share a few cache lines
     * of rows at the start of the table; but the states where a pattern
     * ends go last, so that "a pattern ends here" is "row >= ac->hit", a
     * test off the chain of dependent loads.
     */
    nhit = b.nstates;
    for (i = 0; i < tail; i++) {
        nhit -= b.out[queue[i]] || dict[queue[i]];
    }
    num[0] = 0;
    nfree = 1;
    nout = nhit;
    for (i = 0; i < tail; i++) {
        s = queue[i];
        num[s] = (uint16_t) (b.out[s] || dict[s] ? nout++ : nfree++);
    }

    ac->ncls = n;
    ac->nstates = b.nstates;
    ac->t16 = NULL;
    ac->t32 = NULL;
    w = (n + 2 + 3) & ~(size_t) 3;
    if (b.nstates * w * sizeof(uint16_t) <= RA_AC_T16_MAX) {
        ac->width = w;
        unit = w / 4;
        ac->t16 = ra_alloc(t->alloc, b.nstates * w * sizeof(uint16_t));
    } else {
        ac->width = w = n + 2;
        unit = w;
        ac->t32 = ra_alloc(t->alloc, b.nstates * w * sizeof(uint32_t));
    }
    if (ac->t16 == NULL && ac->t32 == NULL) {
        rc = RA_ENOMEM;
        goto done;
    }
    ac->hit = nhit * unit;
    for (i = 0; i < 256; i++) {
        ac->col[i] = ac->t16 != NULL ? ac->t16 + ac->cls[i] : NULL;
    }

    for (i = 0; i < b.nstates; i++) {
        for (c = 0; c < w; c++) {
            if (c < n) {
                e = num[b.trie[i * n + c]] * unit;
            } else if (c == n) {
                e = b.out[i];
            } else if (c == n + 1 && dict[i] != 0) {
                e = num[dict[i]] * unit;
            } else {
                e = 0;                      /* padding */
            }
            if (ac->t16 != NULL) {
                ac->t16[num[i] * w + c] = (uint16_t) e;
            } else {
                ac->t32[num[i] * w + c] = (uint32_t) e;
            }
        }
    }

    /* where the common prefixes lead (see ra_ua_prefix[]) */
    for (k = 0; k < RA_NPREFIX; k++) {
        e = 0;
        for (i = 0; i < ra_ua_prefix[k].len && e < ac->hit; i++) {
            e = ra_ac_next(ac, e, (unsigned char) ra_ua_prefix[k].text[i]);
        }
        ac->pre[k] = e < ac->hit ? e : RA_PRE_HIT;
    }
    rc = RA_OK;

done:
    ra_free(t->alloc, b.trie);
    ra_free(t->alloc, b.out);
    ra_free(t->alloc, fail);
    ra_free(t->alloc, dict);
    ra_free(t->alloc, queue);
    ra_free(t->alloc, num);
    return rc;
}

static int
ra_crawlers_build(ra_crawlers_t *t)
{
    ra_build_t  b;
    int         rc;

    memset(&b, 0, sizeof(ra_build_t));
    b.mask = 1u << RA_PAT_KNOWN | 1u << RA_PAT_GENERIC | 1u << RA_PAT_NEUTRAL;
    (void) ra_each_pattern(t, ra_count_pattern, &b);
    if (b.npats > 65535) {
        return RA_ELIMIT;
    }
    t->pats = ra_alloc(t->alloc, (b.npats ? b.npats : 1) * sizeof(ra_pat_t));
    if (t->pats == NULL) {
        return RA_ENOMEM;
    }
    rc = ra_ac_build(t, &t->ac, b.mask, t->pats);
    if (rc != RA_OK) {
        return rc;
    }
    return ra_ac_build(t, &t->plat, 1u << RA_PAT_PLATFORM, NULL);
}

int
ra_crawlers_compile(ra_crawlers_t *t, ra_crawlers_err_t *err)
{
    ra_crawlers_src_t  *src;
    ra_crawler_t       *e;
    size_t              i, j, n = 0;
    int                 rc;

    err->line = 0;
    err->msg = NULL;
    if (t->compiled) {
        err->msg = "table already compiled";
        return RA_ERROR;
    }

    t->crawlers = ra_alloc(t->alloc, (t->nentries ? t->nentries : 1)
                                     * sizeof(ra_crawler_t));
    if (t->crawlers == NULL) {
        return RA_ENOMEM;
    }

    /* later files replace earlier entries of the same name in place, so
     * the built-in ids stay put; "disabled" removes the name */
    for (src = t->first; src != NULL; src = src->next) {
        for (i = 0; i < src->n; i++) {
            e = &src->entries[i];
            for (j = 0; j < n; j++) {
                if (ra_strcaseeq(t->crawlers[j].name, e->name)) {
                    break;
                }
            }
            if (e->flags & RA_FLAG_DISABLED) {
                if (j < n) {
                    memmove(&t->crawlers[j], &t->crawlers[j + 1],
                            (n - j - 1) * sizeof(ra_crawler_t));
                    n--;
                }
                continue;
            }
            t->crawlers[j] = *e;
            if (j == n) {
                n++;
            }
        }
    }
    t->n = n;
    for (i = 0; i < n; i++) {
        t->crawlers[i].id = (unsigned) i;
    }

    rc = ra_crawlers_build(t);
    if (rc != RA_OK) {
        err->msg = rc == RA_ELIMIT ? "crawler patterns too large" : NULL;
        return rc;
    }
    t->compiled = 1;
    return RA_OK;
}


/* ------------------------------------------------------------ identify */

typedef struct {
    int        best;             /* crawler id, -1 none */
    size_t     best_len;
    unsigned   nhits;
    unsigned   nneutral;
    uint32_t   hit_start[RA_MAX_HITS];
    uint8_t    hit_flags[RA_MAX_HITS];
    uint32_t   n_start[RA_MAX_NEUTRAL];
    uint32_t   n_end[RA_MAX_NEUTRAL];
} ra_scan_t;

/* "name@host.tld" around the '@' at position at. */
static int
ra_is_email(const unsigned char *p, size_t len, size_t at)
{
    size_t  i = at + 1, dots = 0, tld = 0;

    if (at == 0 || !(ra_istok(p[at - 1])) || i >= len || !ra_isalpha(p[i])) {
        return 0;
    }
    for ( ; i < len && (ra_istok(p[i])); i++) {
        if (p[i] == '.') {
            dots++;
            tld = 0;
        } else if (ra_isalpha(p[i])) {
            tld++;
        } else {
            tld = 0;
        }
    }
    return dots > 0 && tld >= 2;
}

/* Whether p starts with lit (lower case, n bytes), any case: the
 * core's ra_startswith_ci() walks a NUL-terminated prefix a byte at a
 * time, and identify asks this of nearly every User-Agent. */
static inline int
ra_prefix_ci(const unsigned char *p, size_t len, const char *lit, size_t n)
{
    size_t  i;

    if (len < n) {
        return 0;
    }
    for (i = 0; i < n; i++) {
        if ((unsigned char) (p[i] | 0x20) != (unsigned char) lit[i]
            || !(ra_isalpha(p[i]) || p[i] == (unsigned char) lit[i]))
        {
            return 0;
        }
    }
    return 1;
}

/* Whether "KHTML" and a separator (", ", " ", "%2C ": how logs spell the
 * comma) end just before position at: only a WebKit engine's comment
 * says "(KHTML, like Gecko; ...". */
static int
ra_after_khtml(const unsigned char *p, size_t at)
{
    size_t  k = at;

    while (k > 0 && p[k - 1] == ' ') {
        k--;
    }
    if (k > 0 && p[k - 1] == ',') {
        k--;
    } else if (k >= 3 && p[k - 3] == '%' && p[k - 2] == '2'
               && (p[k - 1] == 'C' || p[k - 1] == 'c'))
    {
        k -= 3;
    }
    return k >= 5 && ra_prefix_ci(p + k - 5, 5, "khtml", 5);
}

static void
ra_scan_match(const ra_pat_t *pat, const unsigned char *p, size_t len,
    size_t end, ra_scan_t *st)
{
    size_t  start = end + 1 - pat->len;

    if ((pat->flags & RA_KW_WSTART) && start > 0 && ra_isalnum(p[start - 1]))
    {
        return;
    }
    if ((pat->flags & RA_KW_NOALPHA) && end + 1 < len
        && ra_isalpha(p[end + 1]))
    {
        return;
    }
    if ((pat->flags & (RA_KW_NOALNUM | RA_KW_DOMAIN)) && end + 1 < len
        && (ra_isalnum(p[end + 1]) || p[end + 1] == '_'))
    {
        return;
    }
    if ((pat->flags & RA_KW_DIGIT) && (end + 1 >= len
                                       || !ra_isdigit(p[end + 1])))
    {
        return;
    }

    switch (pat->kind) {

    case RA_PAT_KNOWN:
        /* the longest piece wins; between equals, the first in the UA */
        if (st->best < 0 || pat->len > st->best_len) {
            st->best = pat->value;
            st->best_len = pat->len;
        }
        return;

    case RA_PAT_GENERIC:
        if ((pat->flags & RA_KW_DOMAIN)
            && (start == 0 || !(ra_isalnum(p[start - 1])
                                || p[start - 1] == '-')))
        {
            return;
        }
        if ((pat->flags & RA_KW_EMAIL) && !ra_is_email(p, len, start)) {
            return;
        }
        if (pat->flags & RA_KW_NEXT) {
            /* "(KHTML, like Gecko; Name": a phone's own "(H11T; like
             * Gecko; Wireless)" names no program */
            if (!ra_after_khtml(p, start)) {
                return;
            }
            start = end + 1;              /* the token after it */
        }
        if (st->nhits < RA_MAX_HITS) {
            st->hit_start[st->nhits] = (uint32_t) start;
            st->hit_flags[st->nhits] = pat->flags;
            st->nhits++;
        }
        return;

    default:
        /* RA_PAT_NEUTRAL: platform words have their own automaton */
        if (st->nneutral < RA_MAX_NEUTRAL) {
            st->n_start[st->nneutral] = (uint32_t) start;
            st->n_end[st->nneutral] = (uint32_t) end;
            st->nneutral++;
        }
        return;
    }
}

/* The product token around position at: [A-Za-z0-9._-]+, starting with a
 * letter (with digit: or a digit, when a letter follows: "200PleaseBot",
 * "7Siters"; never a version), not part of a path or address; len 0 when
 * there is none. */
static ra_str_t
ra_token_span(const unsigned char *p, size_t len, size_t at, int digit)
{
    size_t  s = at, e = at, i;

    while (s > 0 && ra_istok(p[s - 1])) {
        s--;
    }
    while (e < len && ra_istok(p[e])) {
        e++;
    }
    while (e > s && (p[e - 1] == '.' || p[e - 1] == '-' || p[e - 1] == '_')) {
        e--;
    }
    if (e == s || e - s > RA_TOKEN_MAX
        || (s > 0 && (p[s - 1] == '/' || p[s - 1] == ':' || p[s - 1] == '@'
                      || p[s - 1] == '=' || p[s - 1] == '.')))
    {
        return ra_str(p, 0);
    }
    if (!ra_isalpha(p[s])) {
        if (!digit || !ra_isdigit(p[s]) || (s > 0 && p[s - 1] == '%')) {
            return ra_str(p, 0);        /* "%20Downloader": an escape's */
        }
        for (i = s + 1; i < e && !ra_isalpha(p[i]); i++) {
            /* void */
        }
        if (i == e) {
            return ra_str(p, 0);        /* "1.2.3", "2008032620" */
        }
    }
    return ra_str(p + s, e - s);
}

/* A token that may start a shape: a letter first ("(compatible; 360SE)"
 * late in a browser's User-Agent names no program) */
static ra_str_t
ra_token_at(const unsigned char *p, size_t len, size_t at)
{
    return ra_token_span(p, len, at, 0);
}

/* A token that names a bot already found */
static ra_str_t
ra_name_at(const unsigned char *p, size_t len, size_t at)
{
    return ra_token_span(p, len, at, 1);
}

/* ra_prefix_ci(p, len, "mozilla/", 8) in one 8-byte compare: the seven
 * letters any case, then the '/'. */
static inline int
ra_mozilla_slash(const unsigned char *p, size_t len)
{
    static const unsigned char  lit[8] = "mozilla/";
    static const unsigned char  fold[8] = {
        0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0
    };
    uint64_t                    v, l, m;

    if (len < 8) {
        return 0;
    }
    memcpy(&v, p, 8);
    memcpy(&l, lit, 8);
    memcpy(&m, fold, 8);
    return (v | m) == l;
}

/* Where "(compatible; NAME" starts NAME, or len when absent.  It looks
 * for the ';' (rare) and then behind it for "compatible" (any case). */
static size_t
ra_compatible_at(const unsigned char *p, size_t len)
{
    static const char     k[] = "compatible";
    const unsigned char  *q;
    size_t                i, j, c, n = sizeof(k) - 1;

    for (i = n; i < len; i = j + 1) {
        q = memchr(p + i, ';', len - i);
        if (q == NULL) {
            break;
        }
        j = (size_t) (q - p);
        for (c = 0; c < n; c++) {
            if (ra_lower(p[j - n + c]) != (unsigned char) k[c]) {
                break;
            }
        }
        if (c == n) {
            for (j++; j < len && p[j] == ' '; j++) { /* void */ }
            return j;
        }
    }
    return len;
}

/* Words and nothing else ("Hello, world"): no product, no version, no
 * digit; with no platform either, no browser sends that. */
static int
ra_phrase(const unsigned char *p, size_t len)
{
    size_t  i;

    for (i = 0; i < len; i++) {
        if (p[i] == '/' || ra_isdigit(p[i])) {
            return 0;
        }
    }
    return 1;
}

/*
 * A User-Agent naming no platform is a program, not a browser, when it has
 * a program's shape:
 *   "Name/1.0 (details)": starts with a product, and no comment holds a
 *                         "a; b" list (the system details browsers give);
 *   "Mozilla/5.0 (compatible; Name/1.0[; contact])": the comment holds only
 *                         a product and at most one more element;
 *   "Hello, world":       a phrase, words and nothing else (ra_phrase()).
 */
static int
ra_program_shape(const unsigned char *p, size_t len)
{
    size_t  i, j, semis;
    int     paren;

    if (len == 0) {
        return 0;
    }
    if (!ra_mozilla_slash(p, len)) {
        if (!ra_isalnum(p[0])) {
            return 0;
        }
        if (ra_phrase(p, len)) {
            return 1;
        }
        for (i = 0; i < len && ra_istok(p[i]); i++) { /* void */ }
        if (i < len && p[i] != '/' && p[i] != ' ' && p[i] != ';'
            && p[i] != '(')
        {
            return 0;
        }
        paren = 0;
        for (i = 0; i < len; i++) {
            if (p[i] == '(') {
                paren++;
            } else if (p[i] == ')') {
                paren -= paren > 0;
            } else if (p[i] == ';' && paren) {
                return 0;
            }
        }
        return 1;
    }

    for (i = 8; i < len && (ra_isdigit(p[i]) || p[i] == '.'); i++) {
        /* void */
    }
    if (i + 2 > len || p[i] != ' ' || p[i + 1] != '(') {
        /* "Mozilla/5.0", "Mozilla/5.0 Name/1.0": no system details */
        return 1;
    }
    for (j = i + 2; j < len && p[j] != ')' && p[j] != ';'; j++) {
        /* void */
    }
    if (j < len && p[j] == ')') {
        /* "Mozilla/4.0 (Name)": one element, and no platform named */
        return 1;
    }
    i = ra_compatible_at(p, len);
    if (i >= len || !ra_isalpha(p[i])) {
        return 0;
    }
    semis = 0;
    for ( ; i < len && p[i] != ')'; i++) {
        if (p[i] == ';') {
            /* the element after the product must hold something */
            if (++semis > 1 || i + 1 >= len) {
                return 0;
            }
        }
    }
    if (semis == 1) {
        for (i--; p[i] != ';'; i--) {
            if (ra_isalnum(p[i])) {
                return 1;
            }
        }
        return 0;
    }
    return 1;
}

/* The token that starts at or after position at, past spaces, ';' and a
 * "compatible;": "like Gecko; compatible; pageburst" names "pageburst". */
static ra_str_t
ra_next_token(const unsigned char *p, size_t len, size_t at)
{
    static const char  k[] = "compatible";
    size_t             i, c, n = sizeof(k) - 1;

    for (i = at; i < len && (p[i] == ' ' || p[i] == ';'); i++) { /* void */ }
    if (len - i > n) {
        for (c = 0; c < n && ra_lower(p[i + c]) == (unsigned char) k[c]; c++) {
            /* void */
        }
        if (c == n && !ra_istok(p[i + n])) {
            for (i += n; i < len && (p[i] == ' ' || p[i] == ';'); i++) {
                /* void */
            }
        }
    }
    return i < len ? ra_name_at(p, len, i) : ra_str(p, 0);
}

/* A declared name without its version: "ruby-1.9.3-p327" is "ruby",
 * "Bot_2" is "Bot", "Bot-1.2.beta" is "Bot"; "Go-http-client" and
 * "MJ12bot" stay as they are, and so does a host name
 * ("crawl-1.example.net": its last label letters, a letter in the label
 * before). */
static ra_str_t
ra_token_name(ra_str_t t)
{
    size_t  i, e, k;

    for (i = 1; i + 1 < t.len; i++) {
        if ((t.data[i] == '-' || t.data[i] == '_' || t.data[i] == '.')
            && ra_isdigit(t.data[i + 1]))
        {
            for (e = t.len; e > i && ra_isalpha(t.data[e - 1]); e--) {
                /* void */
            }
            if (e > i + 1 && e < t.len && t.data[e - 1] == '.') {
                for (k = e - 1; k > i + 1 && t.data[k - 1] != '.'
                                && !ra_isalpha(t.data[k - 1]); k--)
                {
                    /* void */
                }
                if (ra_isalpha(t.data[k - 1])) {
                    return t;           /* a host name */
                }
            }
            t.len = i;
            break;
        }
    }
    return t;
}

/*
 * What browsers and in-app browsers put after their own last product
 * ("Safari/537.36 Edg/120.0", "Safari/537.36 Viber/11.9"): these names,
 * lower case, sorted for a binary search.  Gathered from the half of real
 * browser User-Agent sets that bench/recall.pl lets one look at, the forks
 * of isbot's browser fixtures (ChromePlus, Comodo_Dragon, Wyzo, ...) and of
 * browscap's (Waterfox, Basilisk, Cyberfox, Slimjet, Otter, ...).
 */
static const char  *ra_browser_suffix[] = {
    "a3", "abb", "acheetahi", "actionextension", "adori-dev", "adori-listen",
    "airgclient", "airr", "airsonic", "alamofire", "allyoucanbooks",
    "alohabrowser", "amarok", "amazon.com", "amiga-aweb", "amigavoyager",
    "amznexoplayerlib", "android", "androiddownloadmanager", "anghami",
    "antgalio", "anybox", "aolshield", "aplix_sanyo_browser", "apollo", "app",
    "apple-iphone5c2", "apple-iphone6c2", "applenews", "applewebkit",
    "appverc", "aquosbrowser", "arora", "asw", "audacious", "audio", "avast",
    "avirascout", "baiduboxapp", "baidubrowser", "basilisk",
    "bbcnewsukwatchapp", "bdbrowser", "bdbrowser_i18n", "bdbrowser_mini",
    "bdbrowserhd_i18n", "bdspark", "bear", "bingsapphire", "bingweb",
    "bluebrowser", "bnc", "bolt", "bookmobile", "boomplay", "bose", "brave",
    "breaker", "broadcast", "browser", "browserng", "build", "buildcode",
    "bullhorn", "camino", "camscanner", "capsule.fm", "castamatic", "ccleaner",
    "ce-html", "cent", "centaur", "cfnetwork", "cheshire", "chromeplus",
    "client", "com.apple.webkit.networking", "com.devcoder.iptvxtreamplayer",
    "com.google.android.apps.magazines", "com.google.android.apps.searchlite",
    "com.google.android.apps.youtube.music", "com.google.ios.youtube",
    "com.tcl.browser", "com.yandex.zen", "comdirect", "cometbird",
    "comodo_dragon", "conkeror", "coolnovo", "core", "cosmicast", "covc",
    "crkey", "cronet", "crosarc", "cunaguaro", "cx_vlc", "cyberfox", "dalvik",
    "darwin", "ddg", "de.mobile.android.app", "digaplus", "dillo", "dlnadoc",
    "dmanager", "dooble", "doughnut", "down", "downie", "duckduckgo", "dynamo",
    "edg", "edga", "edge", "edgios", "edgw", "efte", "emacs", "epic",
    "epiphany", "espial", "exampleapp", "excel", "exkb", "exoplayerlib",
    "expo", "extension", "falkon", "fancyplayer", "fdm", "feeddlerpro",
    "feeddlerrss", "feedstation", "fennec", "files", "firephp", "firetorrent",
    "flamesky", "flipboard", "flipboard-briefing", "flock", "fly", "flycast",
    "fm", "focus", "foobar2000", "fvc", "fxios", "galeon", "gecko", "goloud",
    "goodreader4", "goodreaderipad", "goog", "googleapp", "gpodder",
    "granparadiso", "gsa", "guacamole", "hammel", "hark", "hbbtv", "heart",
    "heytapbrowser", "hicast", "hisearch", "hlb", "hmscore", "html5plus",
    "hulu", "hybridcast", "ibrowse", "iceape", "icecat", "icedragon",
    "iceweasel", "iheartradio", "ilunascape", "instabridge", "instacast",
    "ios", "ipados", "ipadqq", "iphone", "iptv", "itunes-ipad",
    "itunes-iphone", "ivooxapp", "ivooxnew", "jam",
    "jp.co.yahoo.android.ybrowser", "jp.co.yahoo.android.yjtop", "k-meleon",
    "k84", "kaios", "kakaotalk", "kapiko", "kazehakase", "khtml",
    "kidspodmobileclient", "kindle", "kinza", "konqueror", "kreatv", "kylo",
    "ladybird", "levect", "libhttp", "libvlc", "liebaofast", "light",
    "lightning", "line", "listen", "listen5", "livejournal", "lovense",
    "luminary", "lunascape", "lynx", "mail", "matomotrackersdk", "maxthon",
    "mb2345browser", "mbbms", "mem", "micromessenger", "midori", "minefield",
    "mixerbox", "mkbrowser", "mmp", "mms", "mobicip", "mobile",
    "mobilelenovobrowser", "mobilesafari", "mobilesms", "monazilla", "moonfm",
    "mozacfetch", "mozilla", "mr-device", "mttcustomua", "music", "mxbrowser",
    "myi", "mylib", "nabar", "navermatome-android", "navigator", "netflix",
    "netfront", "netnewswire", "netscape", "netscape6", "netsurf", "nettv",
    "nettype", "networkingextension", "news", "newsboat", "newssapphire", "nf",
    "nightingale", "nintendobrowser", "nokiabrowser", "novarra-vision",
    "nsplayer", "ntvmobil", "nw", "nx", "oc_appsearch", "oculusbrowser",
    "offerup", "office", "omi", "onebrowser", "onenote", "oneplusbrowser",
    "opera", "oppobrowser", "opr", "opt", "opx", "otter", "overwolfclient",
    "p160u", "palemoon", "panasonicsdk", "papers", "pc", "phoenix", "phx",
    "pibrowser", "pixel", "pixi", "player", "pocketbook", "podbay",
    "podcaster", "podcastguru", "podcastok", "podcastrepublic", "podcat",
    "podeo", "podlp", "podme", "podnl", "podopolo", "podurama", "podverse",
    "podvine", "polarity", "powerpoint", "presto", "pro", "procast", "puffin",
    "pulp", "pulse", "qbcore", "qbwebviewtype", "qbwebviewua", "qc-2235",
    "qhbrowser", "qiyu", "qq", "qqbrowser", "qtwebengine", "qtwebkit",
    "quicklook", "quicktime", "qwantbrowser", "rabbit", "radiosnet", "reader",
    "rhythmbox", "robloxapp", "rssbandit", "rssowl", "rvid", "s40ovibrowser",
    "sachnoiapp", "safariviewservice", "sailfishbrowser", "seamonkey",
    "search", "seznam.cz", "shadow", "shadowrocket", "sharp-aquos-dmp",
    "shiretoko", "sie-c45", "sie-me45", "sie-s40", "sie-slik", "silk",
    "sky_tv_t962x3_2020", "sl121", "slack", "slbchan", "slbrowser", "sleipnir",
    "slimjet", "smarttv", "smarttva", "snapchat", "snipd", "sodes",
    "sogoumobilebrowser", "sogoumse", "sohunews", "songbird", "sonos",
    "sonycebrowser", "soundon", "sp-engine", "sparrow", "spicebird", "spotify",
    "sraf", "ssl-mm", "stagefright", "statusbarheight", "statusbarheightdp",
    "stitcher", "surfbrowser", "suse", "svn", "swing", "swv", "sznprohlizec",
    "t5", "t7", "tablet", "tanggula", "tesla", "thunderbird", "tiktok",
    "tivimate", "touchpad", "tungstenbrowser", "turbodl", "tv", "u2",
    "ucbrowser", "ucturbo", "unityplayer", "untrusted", "up", "up.browser",
    "up.link", "upnp", "ur", "usb_vlc", "vendorid", "version", "viber", "vid",
    "viera", "virginmedia_stb_05.4525.9616.13", "vivaldi", "vivobrowser",
    "vizios", "vodacast", "wap-browser", "watchfree", "waterfox", "weblight",
    "webp", "wh", "wktype", "wmfsdk", "wnyc", "wolvic", "word", "wxwork",
    "wyzo", "xiaoyuzhou", "xing", "ya.music", "yaapp_android", "yabrowser",
    "yandexsearch", "yandexsearchbrowser", "yandexsearchwebview",
    "yasearchbrowser", "year", "yelpapp", "yelpwebview", "youtubemusic",
    "zenkit", "zune",
};

/* inlined: its caller on every browser's path is ra_odd_browser() */
static inline __attribute__((always_inline)) int
ra_is_browser_suffix(const unsigned char *p, size_t n)
{
    size_t               lo = 0, hi = RA_NELTS(ra_browser_suffix), mid, i;
    const unsigned char *w;
    int                  d;

    while (lo < hi) {
        mid = (lo + hi) / 2;
        w = (const unsigned char *) ra_browser_suffix[mid];
        d = 0;
        for (i = 0; i < n && d == 0; i++) {
            d = (int) ra_lower(p[i]) - (int) w[i];    /* w[i] may be NUL */
        }
        if (d == 0 && w[n] != '\0') {
            d = -1;
        }
        if (d == 0) {
            return 1;
        }
        if (d < 0) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    return 0;
}

/*
 * A tool's "Name/version" after a browser's own tokens: "... Chrome/90.0
 * Safari/537.36 ArchiveBox/0.6.2".  It reads the User-Agent's last
 * products backwards up to the browser's own (Safari, Firefox, Chrome) or
 * the end of "(KHTML, like Gecko)", and returns the nearest such name
 * that no browser puts there (len 0 when none).
 */
static int
ra_word_is(const unsigned char *p, size_t n, const char *w, size_t wn)
{
    size_t  i;

    if (n != wn) {
        return 0;
    }
    for (i = 0; i < n; i++) {
        if (ra_lower(p[i]) != (unsigned char) w[i]) {
            return 0;
        }
    }
    return 1;
}

/* Whether the n bytes at p (4 <= n <= 8) are the word w (n lower-case
 * letters), any case: two overlapping 4-byte compares, a letter's case
 * bit forced on (for a letter, c | 0x20 is its lower case; no other byte
 * turns into one). */
static inline int
ra_letters_ci(const unsigned char *p, const char *w, size_t n)
{
    uint32_t  a, b, wa, wb;

    memcpy(&a, p, 4);
    memcpy(&b, p + n - 4, 4);
    memcpy(&wa, w, 4);
    memcpy(&wb, w + n - 4, 4);
    return ((a | 0x20202020u) == wa) & ((b | 0x20202020u) == wb);
}

/*
 * Where the last '(' or ')' of p's n bytes is, plus one; 0 when there is
 * none.  Eight bytes a step from the end: c | 1 is ')' for both, and a
 * word's bytes equal to it are found exactly (no borrow between bytes),
 * the highest first.
 */
static size_t
ra_after_last_paren(const unsigned char *p, size_t n)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t  w, x;

    for ( /* void */ ; n >= 8; n -= 8) {
        memcpy(&w, p + n - 8, 8);
        w = (w | 0x0101010101010101ULL) ^ 0x2929292929292929ULL;
        x = ~(((w & 0x7f7f7f7f7f7f7f7fULL) + 0x7f7f7f7f7f7f7f7fULL) | w
              | 0x7f7f7f7f7f7f7f7fULL);
        if (x != 0) {
            return n - 8 + (size_t) (63 - __builtin_clzll(x)) / 8 + 1;
        }
    }
#endif
    for ( /* void */ ; n > 0 && p[n - 1] != '(' && p[n - 1] != ')'; n--) {
        /* void */
    }
    return n;
}

static ra_str_t
ra_tool_suffix(const unsigned char *p, size_t len)
{
    ra_str_t  found = ra_str(p, 0), name;
    size_t    e = len, s, sl, k, odd;

    for (k = 0; k < 8; k++) {
        while (e > 0 && p[e - 1] == ' ') {
            e--;
        }
        if (k == 0 && e > 0 && p[e - 1] == ')') {
            /* the tool's own comment: "Name/1.0 (contact; ...)" */
            s = ra_after_last_paren(p, e - 1);
            if (s > 2 && p[s - 1] == '(' && p[s - 2] == ' '
                && ra_isdigit(p[s - 3]))
            {
                e = s - 2;
                continue;
            }
        }
        /* the product from its end back to a ' ', in one pass: sl is its
         * first byte that is not a token byte (e when none), odd counts
         * them */
        sl = e;
        odd = 0;
        for (s = e; s > 0 && p[s - 1] != ' '; s--) {
            if (!ra_istok(p[s - 1])) {
                sl = s - 1;
                odd++;
            }
        }
        if (e - s >= 6 && p[e - 1] == ')'
            && ra_word_is(p + e - 6, 6, "gecko)", 6))
        {
            return found;
        }
        /* "Name/version": the '/' the only byte of it not a token byte */
        if (odd != 1 || sl == s || sl + 1 >= e || p[sl] != '/'
            || !ra_isalpha(p[s]) || !ra_isdigit(p[sl + 1]))
        {
            return ra_str(p, 0);
        }
        name = ra_str(p + s, sl - s);
        if ((name.len == 6 && (ra_letters_ci(p + s, "safari", 6)
                               || ra_letters_ci(p + s, "chrome", 6)))
            || (name.len == 7 && ra_letters_ci(p + s, "firefox", 7)))
        {
            return found;
        }
        if (!ra_is_browser_suffix(name.data, name.len)) {
            found = name;
        }
        e = s;
    }
    return ra_str(p, 0);
}

/*
 * Shapes no browser sends, though they name a platform: a browser's name
 * alone, without its version ("Chrome"), or a browser's User-Agent behind
 * something else ("Anonymous, Mozilla/5.0 (...", "iphone|Mozilla/5.0 (...").
 */
static int
ra_not_a_browser(const unsigned char *p, size_t len)
{
    static const char  *bare[] = {
        "chrome", "firefox", "safari", "mozilla", "opera", "edge", "msie",
    };
    size_t  i;

    if (len == 0 || p[0] == 'M') {
        return 0;                       /* "Mozilla/...": most of them */
    }
    if (len <= 7) {
        for (i = 0; i < RA_NELTS(bare); i++) {
            if (ra_strcaseeq(ra_str(p, len),
                             ra_str(bare[i], strlen(bare[i]))))
            {
                return 1;
            }
        }
        return 0;
    }
    for (i = 1; i + 8 <= len && i < 64; i++) {
        if ((p[i] == 'M' || p[i] == 'm')
            && ra_strcaseeq(ra_str(p + i, 8), ra_str("mozilla/", 8)))
        {
            return p[i - 1] == '|' || p[i - 1] == ','
                   || (p[i - 1] == ' ' && i > 1 && p[i - 2] == ',');
        }
    }
    return 0;
}

/*
 * A "(compatible; Name" comment after a browser's own tokens: "... Chrome/59.0
 * Mobile Safari/537.36 (compatible; Google-Youtube-Links)".  Browsers that
 * say "compatible" say it in their first comment ("Mozilla/4.0
 * (compatible; MSIE 8.0; ..."); a later one is a tool naming itself.  The
 * name (len 0 when none).
 */
static ra_str_t
ra_late_compatible(const unsigned char *p, size_t len)
{
    const unsigned char  *q;
    size_t                at;

    if (!ra_mozilla_slash(p, len)) {
        return ra_str(p, 0);
    }
    q = memchr(p, ')', len);
    /* a "compatible;" before the ')' names nothing (from there on, NAME
     * would be the ')' at the most), so without a ';' after it there is
     * nothing to look for */
    if (q == NULL || memchr(q, ';', len - (size_t) (q - p)) == NULL) {
        return ra_str(p, 0);
    }
    at = ra_compatible_at(p, len);
    if (q == NULL || at >= len || at < (size_t) (q - p)) {
        return ra_str(p, 0);
    }
    return ra_token_at(p, len, at);
}

/*
 * A scanner's payload in the User-Agent: markup or code ("<script", "<?",
 * "</"), a template or lookup expression ("${jndi:", "#{", "{{"),
 * Shellshock's "() {", a quote that closes a string to append SQL ("' or
 * 1=1", "')", "'+(select", "'--", "\" or"), or nothing but an encoded blob
 * (40 base64 characters or more, no space).  No browser sends any of
 * these: whatever else the User-Agent claims, the client is a tool.
 * Browsers' User-Agents hold none of the bytes that start one ('<', '{',
 * quotes) nor lack a space, so a few memchr() calls answer for them.
 */
static int
ra_word_ci(const unsigned char *p, size_t n, const char *w)
{
    size_t  i;

    for (i = 0; w[i] != '\0'; i++) {
        if (i >= n || ra_lower(p[i]) != (unsigned char) w[i]) {
            return 0;
        }
    }
    return 1;
}

/* Whether the byte at i, one of ra_payload()'s, starts a payload. */
static int
ra_payload_at(const unsigned char *p, size_t len, size_t i)
{
    static const char  *tag[] = { "script", "img", "svg", "iframe", "body" };
    static const char  *sql[] = { "or ", "and ", "union " };
    size_t               j, k;
    unsigned char        c = p[i];

    if (c == '<') {
        if (i + 1 < len
            && (p[i + 1] == '?' || p[i + 1] == '/' || p[i + 1] == '!'))
        {
            return 1;
        }
        for (k = 0; k < RA_NELTS(tag); k++) {
            if (ra_word_ci(p + i + 1, len - i - 1, tag[k])) {
                return 1;
            }
        }
        return 0;
    }
    if (c == '{') {
        if (i > 0 && (p[i - 1] == '$' || p[i - 1] == '#' || p[i - 1] == '{')) {
            return 1;
        }
        for (j = i; j > 0 && p[j - 1] == ' '; j--) { /* void */ }
        return j >= 2 && p[j - 1] == ')' && p[j - 2] == '(';
    }

    /* a quote, and what follows it */
    for (j = i + 1; j < len && p[j] == ' '; j++) { /* void */ }
    if (j < len
        && (p[j] == '+'
            || (c == '\'' && (p[j] == ')' || p[j] == ';'))
            || (c == '"' && p[j] == '<')
            || (j + 1 < len && p[j] == '|' && p[j + 1] == '|')
            || (j + 1 < len && p[j] == '-' && p[j + 1] == '-')))
    {
        return 1;
    }
    for (k = 0; j > i + 1 && k < RA_NELTS(sql); k++) {
        if (ra_word_ci(p + j, len - j, sql[k])) {
            return 1;
        }
    }
    return 0;
}

static int
ra_payload(const unsigned char *p, size_t len)
{
    static const unsigned char  start[] = { '<', '{', '\'', '"' };
    const unsigned char        *q;
    size_t                      k, i;

    if (len == 0) {
        return 0;               /* p may be NULL: no memchr() on it */
    }
    for (k = 0; k < sizeof(start); k++) {
        for (q = memchr(p, start[k], len); q != NULL;
             q = memchr(q + 1, start[k], len - (size_t) (q + 1 - p)))
        {
            if (ra_payload_at(p, len, (size_t) (q - p))) {
                return 1;
            }
        }
    }
    if (len < 40 || memchr(p, ' ', len) != NULL) {
        return 0;
    }
    for (i = 0; i < len; i++) {
        if (!ra_isalnum(p[i]) && p[i] != '+' && p[i] != '/' && p[i] != '=') {
            return 0;
        }
    }
    return 1;
}

/* Whether t is one of words (lower case, by length: len_at[n] is the
 * first of length n, and n_at entries make len_at), in any case. */
static int
ra_word_of(ra_str_t t, const char *const *words, const uint8_t *len_at,
    size_t n_at)
{
    size_t  k;

    if (t.len == 0 || t.len + 1 >= n_at) {
        return 0;
    }
    for (k = len_at[t.len]; k < len_at[t.len + 1]; k++) {
        if (ra_word_is(t.data, t.len, words[k], t.len)) {
            return 1;
        }
    }
    return 0;
}

/* What browsers (or their platforms) put after "(compatible; ", by
 * length: the words of length n are from len_at[n] to len_at[n + 1]. */
static int
ra_compatible_browser(ra_str_t t)
{
    static const char  *browser[] = {
        "u", "fw", "x11", "icab", "msie", "dillo", "gecko", "linux",
        "opera", "google", "yahoo!", "abrowse", "ibrowse", "mozilla",
        "omniweb", "polaris", "voyager", "windows", "offbyone", "konqueror",
        "macintosh", "ms-office", "ncbrowser", "amiga-aweb", "lotus-notes",
        "netpositive",
    };
    static const uint8_t  len_at[] = {
        0, 0, 1, 2, 3, 5, 9, 11, 18, 19, 23, 24, 26,
    };

    return ra_word_of(t, browser, len_at, sizeof(len_at));
}

/*
 * The host of the address a URL hit at "at" is part of ("://", "www.",
 * ".com", "@"): "http://www.changedetection.com/bot.html" names
 * changedetection.com, "http://www.80legs.com/" 80legs.com (len 0 when
 * it holds no dot or its last label starts with no letter: an address,
 * "file:///"; or when the run of host bytes around the hit is longer
 * than a host name, read no further than that).
 */
static ra_str_t
ra_url_host(const unsigned char *p, size_t len, size_t at)
{
    size_t  s, e, i, dots;

    if (at + 3 <= len && memcmp(p + at, "://", 3) == 0) {
        s = at + 3;
    } else {
        for (s = at + (p[at] == '@'); s > 0 && ra_ishost(p[s - 1]); s--) {
            if (s + RA_HOST_MAX <= at) {
                return ra_str(p, 0);
            }
        }
    }
    for (e = s; e < len && ra_ishost(p[e]); e++) {
        if (e - s >= RA_HOST_MAX) {
            return ra_str(p, 0);
        }
    }
    if (s > 0 && p[s - 1] == '%' && e - s > 2) {
        s += 2;                         /* "%2Fexample.com": an escape's */
    }
    if (e - s > 4 && ra_prefix_ci(p + s, e - s, "www.", 4)) {
        s += 4;
    }
    while (e > s && p[e - 1] == '.') {
        e--;
    }
    /* its last three labels: a scanner's callback host is minted per
     * probe ("w96nc2...k.b.inty.io"), one name serves them all */
    for (i = e, dots = 0; i > s; i--) {
        if (p[i - 1] == '.' && ++dots == 3) {
            s = i;
            break;
        }
    }
    if (e == s || e - s > RA_TOKEN_MAX || !ra_isalnum(p[s])
        || memchr(p + s, '.', e - s) == NULL)
    {
        return ra_str(p, 0);
    }
    /* a name ("80legs.com"), not an address: its last label a letter's */
    for (i = e; p[i - 1] != '.'; i--) {
        /* void */
    }
    if (i == e || !ra_isalpha(p[i])) {
        return ra_str(p, 0);
    }
    return ra_str(p + s, e - s);
}

/*
 * "Mozilla/4.0 (compatible; Name ...": the first comment's "compatible;"
 * is followed by the client's name.  Browsers put theirs (MSIE,
 * Konqueror, iCab, OmniWeb, Lotus Notes, Voyager, ...) or their platform's
 * there; any other name, or none ("(compatible;)"), in a User-Agent that
 * names no platform (the caller asks) is a program's: "(compatible;
 * Owler/0.4; +; )", "(compatible; Blog Search;)".  An old browser of a
 * name not listed names its platform and more ("(compatible; Teleca Q7;
 * Brew 3.1.5; U; en) 480X800 LGE VX11000"); a User-Agent that is that
 * comment alone (alone: the caller asks) is a program's whatever platform
 * it names: "(compatible; Zollard; Linux)", "(compatible; SuperCleaner
 * 2.95; Windows NT 5.1)", "(compatible; GoogleToolbar 7.5...; Windows 6.1;
 * MSIE 9.11...)".  Known crawlers were found before this.  1 with the
 * name (len 0 when there is none).
 */
static int __attribute__((noinline))
ra_first_compatible(const unsigned char *p, size_t len, int alone,
    ra_str_t *token)
{
    size_t  i, s, e;

    if (len < 21 || p[0] != 'M' || memcmp(p, "Mozilla/", 8) != 0) {
        return 0;
    }
    for (i = 8; i < len && (ra_isdigit(p[i]) || p[i] == '.'); i++) {
        /* void */
    }
    if (i == 8 || len - i < 13 || memcmp(p + i, " (compatible;", 13) != 0) {
        return 0;
    }
    for (s = i + 13; s < len && p[s] == ' '; s++) { /* void */ }
    for (e = s; e < len && p[e] != ';' && p[e] != ')' && p[e] != ' '
                && p[e] != '/'; e++)
    {
        /* void */
    }
    if (ra_compatible_browser(ra_str(p + s, e - s))) {
        return 0;
    }
    /* alone: the comment ends the User-Agent (its last byte is its ')') */
    if (alone && (e >= len || p[len - 1] != ')'
                  || memchr(p + e, ')', len - 1 - e) != NULL
                  || memchr(p + e, '(', len - 1 - e) != NULL))
    {
        return 0;
    }
    *token = ra_str(p + s, e - s);
    return 1;
}

/* Whether t is a whole word of ra_platform_kw[] ("Chrome", "Safari",
 * "Dalvik", "Lynx"): a browser's, an engine's or a platform's product,
 * which every bot that starts with it would share.  Asked of a generic
 * bot's first product only. */
static int
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

/*
 * "SimplePie/1.3.1 (Feed Parser; http://simplepie.org)": a word of the
 * first product's comment describes the product, which names it; tok, the
 * word, otherwise (a browser's or a platform's product first: "Dalvik/2.1.0
 * (Linux; ...; SomeBot ...)", "Chrome/120.0 (...; SomeBot/1.0)").
 */
static ra_str_t
ra_own_product(const unsigned char *p, size_t len, ra_str_t tok)
{
    ra_str_t  first;
    size_t    i, at = (size_t) (tok.data - p);

    if (at == 0 || at > len || !ra_isalpha(p[0])
        || ((p[0] | 0x20) == 'm' && ra_prefix_ci(p, len, "mozilla", 7)))
    {
        return tok;
    }
    first = ra_token_at(p, len, 0);
    if (first.len == 0 || first.len + 2 > len || p[first.len] != '/'
        || !ra_isdigit(p[first.len + 1]))
    {
        return tok;
    }
    for (i = first.len; i < at && p[i] != '('; i++) {
        /* void */
    }
    if (i == at || memchr(p + i, ')', at - i) != NULL
        || ra_compatible_browser(first)
        || ra_is_browser_suffix(first.data, first.len)
        || ra_platform_word(first))
    {
        return tok;
    }
    return first;
}

/* Hosts (and their subdomains) every kind of tool links to, its code or
 * its author's profile: one of them names no bot.  ra_first_host() in
 * RA_HOST_SITE mode. */
static int
ra_shared_host(ra_str_t h)
{
    static const char  *shared[] = {
        "x.com", "t.me", "gitlab.com", "github.com", "google.com",
        "twitter.com", "codeberg.org", "facebook.com", "linkedin.com",
        "bitbucket.org", "sourceforge.net",
    };
    size_t  k, n;

    for (k = 0; k < RA_NELTS(shared); k++) {
        n = strlen(shared[k]);
        if (h.len >= n && ra_word_is(h.data + h.len - n, n, shared[k], n)
            && (h.len == n || h.data[h.len - n - 1] == '.'))
        {
            return 1;
        }
    }
    return 0;
}

/* Whether h, a host ra_url_host() read in p, is a mail address's: an '@'
 * before the run of host bytes it ends (the host read drops a "www." and
 * keeps the last three labels: "bot@www.a.example", "bot@x.y.a.example").
 * At most RA_HOST_MAX reads: the run is no longer. */
static int
ra_mail_host(const unsigned char *p, ra_str_t h)
{
    size_t  s = (size_t) (h.data - p), n;

    for (n = 0; s > 0 && ra_ishost(p[s - 1]) && n < RA_HOST_MAX; n++) {
        s--;
    }
    return s > 0 && p[s - 1] == '@';
}

#define RA_HOST_FIRST  0        /* the first address's host (len 0: none) */
#define RA_HOST_ANY    1        /* the first host any address names */
#define RA_HOST_SITE   2        /* ... any site's address: not a mail
                                   address's, not a ra_shared_host() */

/* The host of an address among the scan's hits, as mode says; len 0
 * when there is none.  Masked hits are 0xff; at most RA_MAX_HITS reads
 * of RA_HOST_MAX bytes each way. */
static ra_str_t
ra_first_host(const unsigned char *p, size_t len, const ra_scan_t *st,
    int mode)
{
    size_t    first = len;
    ra_str_t  t = ra_str(p, 0), u;
    unsigned  h;

    for (h = 0; h < st->nhits; h++) {
        if (st->hit_flags[h] == 0xff || !(st->hit_flags[h] & RA_KW_URL)
            || st->hit_start[h] >= first)
        {
            continue;
        }
        u = ra_url_host(p, len, st->hit_start[h]);
        if (mode == RA_HOST_SITE && u.len
            && (ra_mail_host(p, u) || ra_shared_host(u)))
        {
            u.len = 0;
        }
        if (u.len || mode == RA_HOST_FIRST) {
            t = u;
            first = st->hit_start[h];
        }
    }
    return t;
}

/* The product a client declares: the NAME of "compatible; NAME" (*at:
 * where it starts; len when there is none), else the first product of a
 * non-Mozilla agent. */
static ra_str_t
ra_declared_token(const unsigned char *p, size_t len, size_t *at)
{
    *at = ra_compatible_at(p, len);
    if (*at < len) {
        return ra_name_at(p, len, *at);
    }
    if (len > 0 && !ra_prefix_ci(p, len, "mozilla", 7)) {
        return ra_name_at(p, len, 0);
    }
    return ra_str(p, 0);
}

/*
 * The name of a generic bot no keyword named: the product it declares,
 * the NAME of "compatible; NAME", else the first product of a non-Mozilla
 * agent.  When that is a browser's word ("compatible; MSIE 6.0") or
 * nothing, the host of the first address it gives (st: the scan's hits,
 * the addresses' among them): "(compatible; MSIE 6.0; ...
 * http://www.changedetection.com/bot.html)" is changedetection.com, so
 * that such bots are not one "MSIE" or "-" whose robots.txt fetches count
 * for each other; else (it names none: "mailto:", "1.2.3.4") the name
 * after the browser's word ("(compatible; U; Hootsuite-WebFeed/1.0;
 * mailto:...)"); else the first host any address names ("(compatible;
 * MSIE 6.0; mailto:bot@a.example.com)" is a.example.com).
 */
static ra_str_t
ra_declared_name(const unsigned char *p, size_t len, const ra_scan_t *st)
{
    size_t    at;
    ra_str_t  d = ra_declared_token(p, len, &at), t;

    if (d.len && (at == len || !ra_compatible_browser(d))) {
        return d;
    }
    t = ra_first_host(p, len, st, RA_HOST_FIRST);
    if (t.len == 0 && d.len) {
        t = ra_next_token(p, len, at + d.len);
        if (ra_compatible_browser(t)) {
            t.len = 0;
        }
    }
    if (t.len == 0) {
        t = ra_first_host(p, len, st, RA_HOST_ANY);
    }
    return t.len ? t : d;
}

/* Whether t, a generic bot's name, is only a word for what it is
 * ("Crawler", "bot", "monitoring", "https"): every bot that says so
 * would be one record, whose robots.txt fetches count for the others'. */
static int
ra_bare_word(ra_str_t t)
{
    /* by length: len_at[n] is the first of length n */
    static const char  *bare[] = {
        "bot", "bots", "http", "robot", "crawl", "fetch", "agent", "check",
        "https", "probe", "robots", "spider", "spyder", "parser", "tester",
        "crawler", "scraper", "fetcher", "preview", "checker", "monitor",
        "scanner", "indexer", "crawlers", "archiver", "webspider",
        "validator", "webcrawler", "monitoring", "downloader",
    };
    static const uint8_t  len_at[] = {
        0, 0, 0, 0, 1, 3, 10, 15, 23, 25, 27, 30,
    };

    return ra_word_of(t, bare, len_at, sizeof(len_at));
}

/*
 * A name for a generic bot that calls itself only what it is (tok:
 * ra_bare_word()): the product it declares with a version ("(compatible;
 * Vagabondo/2.1; webcrawler at ...)", "Chimu/1.0 robot (...)"); else the
 * host of the site it gives ("Audisto Crawler (...; +https://audisto.com/
 * bot)", "(compatible; Yahoo Ad monitoring; https://help.yahoo.com/...)",
 * "https://researchcyber.net/"), not a mail address's nor a code host's
 * ("Curly HTTP Client (https://github.com/...)" is Curly); else the
 * first word it declares ("Algolia Crawler/1.0.0" is Algolia); else tok.
 */
static ra_str_t
ra_bare_name(const unsigned char *p, size_t len, const ra_scan_t *st,
    ra_str_t tok)
{
    size_t    at, e;
    ra_str_t  d = ra_declared_token(p, len, &at), h;

    if (d.len && (ra_bare_word(d) || ra_compatible_browser(d)
                  || ra_platform_word(d)))
    {
        d.len = 0;
    }
    e = d.len ? (size_t) (d.data - p) + d.len : 0;
    if (d.len && e + 1 < len && p[e] == '/' && ra_isdigit(p[e + 1])) {
        return d;
    }
    h = ra_first_host(p, len, st, RA_HOST_SITE);
    return h.len ? h : d.len ? d : tok;
}

/* What a User-Agent that names a platform still tells of a program: a
 * tool after the browser's tokens, a shape no browser sends, or a
 * scanner's payload.  Kept out of line: inlined, it slows the automaton's
 * loop in the caller. */
static int __attribute__((noinline))
ra_odd_browser(const unsigned char *p, size_t len, ra_str_t *token)
{
    *token = ra_tool_suffix(p, len);
    if (token->len == 0) {
        *token = ra_late_compatible(p, len);
    }
    return token->len > 0 || ra_not_a_browser(p, len) || ra_payload(p, len);
}

/* Every pattern ending at position end, where the automaton is in s. */
static void
ra_scan_hit(const ra_crawlers_t *t, const unsigned char *p, size_t len,
    size_t end, size_t s, ra_scan_t *st)
{
    const ra_pat_t  *pat;
    size_t           q, pi;

    for (q = s; q != 0; q = ra_ac_slot(&t->ac, q, 1)) {
        for (pi = ra_ac_slot(&t->ac, q, 0); pi != 0; pi = pat->next) {
            pat = &t->pats[pi - 1];
            ra_scan_match(pat, p, len, end, st);
        }
    }
}

/* One step of a 16-bit table: the load scales the state by 8 itself. */
#define ra_step16(col, ch, s)  (col)[ch][(s) * 4]

/* One chain of dependent loads over the User-Agent from byte i, where
 * the automaton is in state s. */
static void
ra_scan_serial(const ra_crawlers_t *t, const unsigned char *p, size_t len,
    size_t i, size_t s, ra_scan_t *st)
{
    const uint16_t *const  *col = t->ac.col;
    const uint32_t         *t32 = t->ac.t32;
    const uint8_t          *cls = t->ac.cls;
    size_t                  hit = t->ac.hit;

    if (t->ac.t16 != NULL) {
        for ( ; i < len; i++) {
            s = ra_step16(col, p[i], s);
            if (s >= hit) {
                ra_scan_hit(t, p, len, i, s, st);
            }
        }
        return;
    }

    for ( ; i < len; i++) {
        s = t32[s + cls[p[i]]];
        if (s >= hit) {
            ra_scan_hit(t, p, len, i, s, st);
        }
    }
}

/*
 * A lane's hits.  A hit is rare (a browser's User-Agent has none or one
 * or two), so a branch keeps it: a byte costs its step and one compare,
 * and the few mispredictions cost less than writing a slot for every
 * byte.  A lane keeps its first RA_LANE_HITS hits and counts the others:
 * more make the lanes' result moot.  User-Agents up to RA_LANES_MAX bytes
 * take the lanes, so an end fits in 16 bits.
 */
#define RA_LANES_MAX  1024

typedef struct {
    size_t     n;
    uint32_t   hit[RA_LANE_HITS];       /* end << 16 | state */
} ra_lane_t;

#define ra_lane_keep(l, end, s)                                              \
    do {                                                                      \
        if (__builtin_expect((s) >= hit, 0)) {                                \
            if ((l).n < RA_LANE_HITS) {                                       \
                (l).hit[(l).n] = (uint32_t) ((end) << 16 | (s));              \
            }                                                                 \
            (l).n++;                                                          \
        }                                                                     \
    } while (0)

/*
 * The hits two lanes kept, in the order of one chain: lane 0's before the
 * byte where the lanes met, lane 1's from it on (ends counted from a).
 */
static void
ra_lanes_report(const ra_crawlers_t *t, const unsigned char *p, size_t len,
    size_t a, const uint32_t *h0, size_t n0, const uint32_t *h1, size_t n1,
    size_t meet, ra_scan_t *st)
{
    size_t  j;

    for (j = 0; j < n0; j++) {
        ra_scan_hit(t, p, len, a + (h0[j] >> 16), h0[j] & 0xffff, st);
    }
    for (j = 0; j < n1; j++) {
        if (h1[j] >> 16 >= meet) {
            ra_scan_hit(t, p, len, a + (h1[j] >> 16), h1[j] & 0xffff, st);
        }
    }
}

/*
 * Two chains of dependent loads, one per half of the User-Agent, so that
 * each load's latency hides the other's (one chain waits on memory for
 * nearly all of its time).  Lane 1 starts at the root at the half and
 * keeps its first states.  Then lane 0 reads on into the second half
 * until its state is lane 1's at the same byte: from there on both are the
 * same automaton on the same bytes, so lane 1's hits stand from that byte
 * on, and the hits come out in the order of one chain.  0 when lane 0 did
 * not meet lane 1 within RA_SYNC bytes or a lane kept too many hits:
 * nothing was reported, the caller reads the User-Agent again with one
 * chain.  The scan starts at byte a in state s; a hit's end (16 bits) is
 * counted from a until it is reported.
 */
static int __attribute__((noinline))
ra_scan_lanes(const ra_crawlers_t *t, const unsigned char *p, size_t len,
    size_t a, size_t s, ra_scan_t *st)
{
    const uint16_t *const  *col = t->ac.col;
    const unsigned char    *p1;
    ra_lane_t               lane[2];
    uint16_t                seen[RA_SYNC];
    size_t                  s0, s1, i, m, w;
    size_t                  hit = t->ac.hit;

    m = (len - a) / 2;
    w = (m < RA_SYNC ? m : RA_SYNC) & ~(size_t) 1;
    p += a;
    p1 = p + m;
    s0 = s;
    s1 = 0;
    lane[0].n = 0;
    lane[1].n = 0;

    /*
     * Two bytes a lane at a time, and the four states tested at once: an
     * OR of states below hit reaches hit only now and then (the shallow
     * states, where a browser's bytes spend their time, are numbered
     * first), and then each is tested alone.
     */
    for (i = 0; i < w; i += 2) {
        s0 = ra_step16(col, p[i], s0);
        ra_lane_keep(lane[0], i, s0);
        s1 = ra_step16(col, p1[i], s1);
        ra_lane_keep(lane[1], m + i, s1);
        seen[i] = (uint16_t) s1;
        s0 = ra_step16(col, p[i + 1], s0);
        ra_lane_keep(lane[0], i + 1, s0);
        s1 = ra_step16(col, p1[i + 1], s1);
        ra_lane_keep(lane[1], m + i + 1, s1);
        seen[i + 1] = (uint16_t) s1;
    }
    for ( ; i + 2 <= m; i += 2) {
        s0 = ra_step16(col, p[i], s0);
        ra_lane_keep(lane[0], i, s0);
        s1 = ra_step16(col, p1[i], s1);
        ra_lane_keep(lane[1], m + i, s1);
        s0 = ra_step16(col, p[i + 1], s0);
        ra_lane_keep(lane[0], i + 1, s0);
        s1 = ra_step16(col, p1[i + 1], s1);
        ra_lane_keep(lane[1], m + i + 1, s1);
    }
    if (i < m) {
        s0 = ra_step16(col, p[i], s0);
        s1 = ra_step16(col, p1[i], s1);
        ra_lane_keep(lane[0], i, s0);
        ra_lane_keep(lane[1], m + i, s1);
    }
    for (i = 2 * m; i < len - a; i++) {
        s1 = ra_step16(col, p[i], s1);
        ra_lane_keep(lane[1], i, s1);
    }

    for (i = 0; i < w; i++) {
        s0 = ra_step16(col, p1[i], s0);
        if (s0 == seen[i]) {
            break;
        }
        ra_lane_keep(lane[0], m + i, s0);
    }
    p -= a;

    if (i == w || lane[0].n > RA_LANE_HITS || lane[1].n > RA_LANE_HITS) {
        return 0;
    }
    ra_lanes_report(t, p, len, a, lane[0].hit, lane[0].n, lane[1].hit,
                    lane[1].n, m + i, st);
    return 1;
}

/*
 * ra_scan_lanes() for User-Agents that likely hold several hits (see
 * ra_crawlers_identify()).  A lane's hits, kept without a branch (a mispredicted one, at every hit,
 * would drain both lanes): every byte writes its end and state to the
 * next slot, and "n" counts the slot in only when the state is a hit.
 * There is a slot for every byte a lane reads (User-Agents up to
 * RA_LANES_MAX bytes take the lanes), so no bound is checked per byte;
 * more than RA_SLOT_HITS hits make the lanes' result moot.
 */
#define RA_LANE_SLOTS (RA_LANES_MAX / 2 + RA_SYNC + 2)

typedef struct {
    size_t     n;
    uint32_t   hit[RA_LANE_SLOTS];      /* end << 16 | state */
} ra_slots_t;

#define ra_slot_keep(l, end, s)                                              \
    do {                                                                      \
        (l).hit[(l).n] = (uint32_t) ((end) << 16 | (s));                      \
        (l).n += (s) >= hit;                                                  \
    } while (0)

/*
 * ra_scan_lanes() with the hits kept in slots (the two chains, their
 * meeting and the answer are the same): for User-Agents that likely hold
 * several hits.
 */
static int __attribute__((noinline))
ra_scan_slots(const ra_crawlers_t *t, const unsigned char *p, size_t len,
    size_t a, size_t s, ra_scan_t *st)
{
    const uint16_t *const  *col = t->ac.col;
    const unsigned char    *p1;
    ra_slots_t               lane[2];
    uint16_t                seen[RA_SYNC];
    size_t                  s0, s1, i, m, w;
    size_t                  hit = t->ac.hit;

    m = (len - a) / 2;
    w = m < RA_SYNC ? m : RA_SYNC;
    p += a;
    p1 = p + m;
    s0 = s;
    s1 = 0;
    lane[0].n = 0;
    lane[1].n = 0;

    for (i = 0; i < w; i++) {
        s0 = ra_step16(col, p[i], s0);
        s1 = ra_step16(col, p1[i], s1);
        seen[i] = (uint16_t) s1;
        ra_slot_keep(lane[0], i, s0);
        ra_slot_keep(lane[1], m + i, s1);
    }
    for ( ; i < m; i++) {
        s0 = ra_step16(col, p[i], s0);
        s1 = ra_step16(col, p1[i], s1);
        ra_slot_keep(lane[0], i, s0);
        ra_slot_keep(lane[1], m + i, s1);
    }
    for (i = 2 * m; i < len - a; i++) {
        s1 = ra_step16(col, p[i], s1);
        ra_slot_keep(lane[1], i, s1);
    }

    for (i = 0; i < w; i++) {
        s0 = ra_step16(col, p1[i], s0);
        if (s0 == seen[i]) {
            break;
        }
        ra_slot_keep(lane[0], m + i, s0);
    }
    p -= a;

    if (i == w || lane[0].n > RA_SLOT_HITS || lane[1].n > RA_SLOT_HITS) {
        return 0;
    }
    ra_lanes_report(t, p, len, a, lane[0].hit, lane[0].n, lane[1].hit,
                    lane[1].n, m + i, st);
    return 1;
}

/* Whether some platform word occurs; it stops at the first.  The
 * User-Agent starts with ra_ua_prefix[k] (none: k == RA_NPREFIX). */
static int
ra_has_platform(const ra_ac_t *ac, const unsigned char *p, size_t len,
    size_t k)
{
    size_t  i = 0, s = 0;

    if (k < RA_NPREFIX) {
        if (ac->pre[k] == RA_PRE_HIT) {
            return 1;
        }
        s = ac->pre[k];
        i = ra_ua_prefix[k].len;
    }

    if (ac->t16 != NULL) {
        for ( ; i < len; i++) {
            s = ra_step16(ac->col, p[i], s);
            if (s >= ac->hit) {
                return 1;
            }
        }
        return 0;
    }

    for ( ; i < len; i++) {
        s = ac->t32[s + ac->cls[p[i]]];
        if (s >= ac->hit) {
            return 1;
        }
    }
    return 0;
}

/* Which of ra_ua_prefix[] the User-Agent starts with; RA_NPREFIX: none. */
static size_t
ra_which_prefix(const unsigned char *p, size_t len)
{
    size_t  k;

    for (k = 0; k < RA_NPREFIX; k++) {
        if (len >= ra_ua_prefix[k].len
            && memcmp(p, ra_ua_prefix[k].text, ra_ua_prefix[k].len) == 0)
        {
            return k;
        }
    }
    return RA_NPREFIX;
}

int
ra_crawlers_identify(const ra_crawlers_t *t, ra_str_t ua, ra_identity_t *out)
{
    const unsigned char  *p = ua.data;
    ra_scan_t             st;
    ra_str_t              tok;
    size_t                len, k, pk, a, s;
    unsigned              j, h, covered;

    len = ua.len < RA_CRAWLERS_MAX_UA ? ua.len : RA_CRAWLERS_MAX_UA;
    st.best = -1;
    st.best_len = 0;
    st.nhits = 0;
    st.nneutral = 0;

    pk = ra_which_prefix(p, len);
    a = 0;
    s = 0;
    if (pk < RA_NPREFIX && t->ac.pre[pk] != RA_PRE_HIT) {
        a = ra_ua_prefix[pk].len;
        s = t->ac.pre[pk];
    }
    if (t->ac.t16 == NULL || len - a < RA_LANES_MIN || len - a > RA_LANES_MAX
        || !(pk == RA_PRE_BROWSER ? ra_scan_lanes(t, p, len, a, s, &st)
                                  : ra_scan_slots(t, p, len, a, s, &st)))
    {
        ra_scan_serial(t, p, len, a, s, &st);
    }

    out->crawler = NULL;
    out->token = ra_str(p, 0);

    if (st.best >= 0) {
        out->kind = RA_UA_KNOWN;
        out->crawler = &t->crawlers[st.best];
        out->token = out->crawler->tokens[0];
        return RA_UA_KNOWN;
    }

    for (h = 0, covered = 0; h < st.nhits; h++) {
        for (j = 0; j < st.nneutral; j++) {
            if (st.hit_start[h] >= st.n_start[j]
                && st.hit_start[h] <= st.n_end[j])
            {
                break;
            }
        }
        if (j < st.nneutral) {
            covered++;
            st.hit_flags[h] = 0xff;        /* masked */
            continue;
        }
        if (out->token.len == 0 && !(st.hit_flags[h] & RA_KW_URL)) {
            k = st.hit_start[h];
            tok = (st.hit_flags[h] & RA_KW_NEXT) ? ra_next_token(p, len, k)
                                                  : ra_name_at(p, len, k);
            if (tok.len) {
                out->token = tok;
            }
        }
    }

    if (st.nhits > covered
        || (!ra_has_platform(&t->plat, p, len, pk)
            && (ra_program_shape(p, len)
                || ra_first_compatible(p, len, 0, &out->token)))
        || (pk != RA_PRE_BROWSER && len > 0 && p[len - 1] == ')'
            && ra_first_compatible(p, len, 1, &out->token))
        || ra_odd_browser(p, len, &out->token))
    {
        out->kind = RA_UA_GENERIC;
        out->token = out->token.len ? ra_own_product(p, len, out->token)
                                    : ra_declared_name(p, len, &st);
        out->token = ra_token_name(out->token);
        if (ra_bare_word(out->token)) {
            out->token = ra_token_name(ra_bare_name(p, len, &st, out->token));
        }
        return RA_UA_GENERIC;
    }

    out->kind = RA_UA_BROWSER;
    return RA_UA_BROWSER;
}


/* ------------------------------------------------------------ queries */

size_t
ra_crawlers_count(const ra_crawlers_t *t)
{
    return t->n;
}

const ra_crawler_t *
ra_crawlers_get(const ra_crawlers_t *t, size_t id)
{
    return id < t->n ? &t->crawlers[id] : NULL;
}

const ra_crawler_t *
ra_crawlers_find(const ra_crawlers_t *t, ra_str_t name)
{
    size_t  i;

    for (i = 0; i < t->n; i++) {
        if (ra_strcaseeq(t->crawlers[i].name, name)) {
            return &t->crawlers[i];
        }
    }
    return NULL;
}

const ra_crawler_t *
ra_crawlers_find_token(const ra_crawlers_t *t, ra_str_t token)
{
    size_t  i, j;

    for (i = 0; i < t->n; i++) {
        for (j = 0; j < t->crawlers[i].ntokens; j++) {
            if (ra_strcaseeq(t->crawlers[i].tokens[j], token)) {
                return &t->crawlers[i];
            }
        }
    }
    return NULL;
}

int
ra_crawler_signs_as(const ra_crawler_t *c, ra_str_t host)
{
    ra_str_t  h;
    size_t    i;

    for (i = 0; c != NULL && i < c->nsig_agents; i++) {
        if (ra_origin_host(c->sig_agents[i], &h) == RA_OK
            && ra_strcaseeq(h, host))
        {
            return 1;
        }
    }
    return 0;
}

const ra_crawler_t *
ra_crawlers_find_signature_agent(const ra_crawlers_t *t, ra_str_t host)
{
    size_t  i;

    for (i = 0; i < t->n; i++) {
        if (ra_crawler_signs_as(&t->crawlers[i], host)) {
            return &t->crawlers[i];
        }
    }
    return NULL;
}

size_t
ra_crawlers_automaton_size(const ra_crawlers_t *t)
{
    return (t->ac.nstates * t->ac.width
            * (t->ac.t16 != NULL ? sizeof(uint16_t) : sizeof(uint32_t)))
           + (t->plat.nstates * t->plat.width
              * (t->plat.t16 != NULL ? sizeof(uint16_t) : sizeof(uint32_t)))
           + t->npats * sizeof(ra_pat_t) + sizeof(t->ac.cls)
           + sizeof(t->plat.cls);
}
