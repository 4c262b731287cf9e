/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What tells a program from a browser when no keyword did: the shape of
 * a User-Agent that names no platform (a program's "Name/1.0 (details)"),
 * and in one that does, a tool's product after the browser's own, a
 * late "(compatible; Name", a browser's User-Agent behind something else,
 * or a scanner's payload.  ra_crawlers_identify() asks; the names these
 * find are ra_crawlers_name.c's to clean, which asks here in turn whether
 * a product is one browsers put after their own.
 */
#include "ra_crawlers_impl.h"

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
int
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

/* ra_is_browser_suffix() for the other files of the room, which ask it
 * off the hot path */
int
ra_browser_suffix_word(const unsigned char *p, size_t n)
{
    return ra_is_browser_suffix(p, n);
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

/*
 * A tool's "Name/version" after a browser's own tokens: "... Chrome/90.0
 * Safari/537.36 ArchiveBox/0.6.2".  It reads the User-Agent's last
 * products backwards up to the browser's own (Safari, Firefox, Chrome) or
 * the end of "(KHTML, like Gecko)", and returns the nearest such name
 * that no browser puts there (len 0 when none).
 */
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

/* Whether p's n bytes start with the word w (lower case), any case. */
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
int
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

/* What a User-Agent that names a platform still tells of a program: a
 * tool after the browser's tokens, a shape no browser sends, or a
 * scanner's payload.  Out of line (it is asked of every browser): inlined,
 * it slowed the automaton's loop in the caller. */
int
ra_odd_browser(const unsigned char *p, size_t len, ra_str_t *token)
{
    *token = ra_tool_suffix(p, len);
    if (token->len == 0) {
        *token = ra_late_compatible(p, len);
    }
    return token->len > 0 || ra_not_a_browser(p, len) || ra_payload(p, len);
}
