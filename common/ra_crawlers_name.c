/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The name a generic bot goes by, so that its robots.txt fetches count for
 * it and no other: the product it declares, cleaned of its version; the
 * host of the site it gives when it declares only a browser's word or a
 * word for what it is ("Crawler"); the product its comment describes.
 */
#include "ra_crawlers_impl.h"

/* A declared name without its version: "ruby-1.9.3-p327" is "ruby",
 * "Bot_2" is "Bot", "Bot-1.2.beta" is "Bot"; "Go-http-client" and
 * "MJ12bot" stay as they are, and so does a host name
 * ("crawl-1.example.net": its last label letters, a letter in the label
 * before). */
ra_str_t
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
 * "SimplePie/1.3.1 (Feed Parser; http://simplepie.org)": a word of the
 * first product's comment describes the product, which names it; tok, the
 * word, otherwise (a browser's or a platform's product first: "Dalvik/2.1.0
 * (Linux; ...; SomeBot ...)", "Chrome/120.0 (...; SomeBot/1.0)").
 */
ra_str_t
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
        || ra_browser_suffix_word(first.data, first.len)
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
ra_str_t
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
int
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
ra_str_t
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
