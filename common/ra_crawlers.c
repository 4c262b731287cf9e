/*
 * Crawler table: loader, automaton and identification.
 *
 * The loader reads the text format of data/crawlers.txt in two passes over
 * each entry (validate and count, then fill), so every array is allocated
 * once at its final size: the caller's allocator may be a pool that never
 * frees.  ra_crawlers_compile() then builds one Aho-Corasick automaton of
 * every User-Agent piece of the table plus three fixed vocabularies:
 *
 *   generic   words automated clients put in their User-Agent ("bot",
 *             "crawl", "curl/", "://", an e-mail address, ...);
 *   platform  words every browser User-Agent carries ("windows", "linux",
 *             "gecko", ...); their absence makes a client suspect;
 *   neutral   words that contain a generic word but are not one ("cubot"
 *             is a phone maker, ".net clr" a Windows component).
 *
 * The automaton is a full DFA over byte classes (letters folded to lower
 * case; bytes no pattern uses share class 0), 16-bit states whose top bit
 * says "some pattern ends here", so the loop for a browser is one table
 * load and one test per byte.
 */
#include <string.h>

#include "ra_crawlers.h"

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

#define RA_HIT_BIT        0x8000u
#define RA_MAX_HITS       16
#define RA_MAX_NEUTRAL    8
#define RA_TOKEN_MAX      64

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
    { "slimerjs", 0 }, { "lighthouse", 0 },
    { "monitor", 0 }, { "uptime", 0 }, { "checker", 0 },
    { "linkcheck", 0 }, { "check_", 0 }, { "validator", 0 },
    { "preview", 0 }, { "synthetic", 0 }, { "webhook", 0 },
    { "scanner", RA_KW_WSTART }, { "scanning", 0 },
    { "scan/", RA_KW_WSTART }, { "sucker", 0 }, { "copier", 0 },
    { "webcopy", 0 }, { "downloader", 0 }, { "screenshot", 0 },
    { "indexer", 0 }, { "parser", 0 }, { "feed", RA_KW_WSTART },
    { "rss", RA_KW_WSTART }, { "-agent", 0 },
    { "agent", RA_KW_WSTART | RA_KW_NOALNUM },
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

static const char  *ra_neutral_kw[] = {
    "cubot", "camscanner", "mozacfetch", ".net clr",
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
    "webkit", "chrome", "firefox", "safari",
};

#define RA_NELTS(a)  (sizeof(a) / sizeof((a)[0]))

typedef struct {
    uint16_t  len;
    uint8_t   kind;              /* RA_PAT_* */
    uint8_t   flags;             /* RA_KW_* */
    uint16_t  value;             /* crawler id or keyword index */
    uint16_t  next;              /* next pattern ending at the state, +1 */
} ra_pat_t;

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

    /* the automaton */
    uint8_t             cls[256];
    size_t              ncls;       /* a power of two: rows by shift */
    unsigned            shift;
    size_t              nstates;
    uint16_t           *trans;      /* nstates * ncls; RA_HIT_BIT = output */
    uint16_t           *out;        /* first pattern ending here, +1 */
    uint16_t           *dict;       /* nearest suffix state with output */
    ra_pat_t           *pats;
    size_t              npats;
};

static const char  *ra_category_names[RA_CAT_MAX] = {
    "search", "ai-training", "ai-search", "ai-user-triggered", "seo",
    "social-preview", "feed", "monitoring", "archive", "tool",
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
    { "disabled", RA_FLAG_DISABLED },
};

#define ra_isalnum(c)  (ra_isalpha(c) || ra_isdigit(c))
#define ra_istok(c)    (ra_isalnum(c) || (c) == '.' || (c) == '_'          \
                        || (c) == '-')

const char *
ra_crawler_category_name(unsigned category)
{
    return category < RA_CAT_MAX ? ra_category_names[category] : "unknown";
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

        } else if (ra_eq(key, "operator") || ra_eq(key, "url")) {
            bit = key.data[0] == 'o' ? 8 : 16;
            if ((seen & bit) || !ra_valid_text(val, 255)) {
                ra_fail("operator/url: once, 1-255 bytes of text");
            }
            seen |= bit;
            if (c != NULL) {
                if (bit == 8) {
                    c->operator_name = val;
                } else {
                    c->url = val;
                }
            }
            continue;

        } else if (ra_eq(key, "category")) {
            if (seen & 32) {
                ra_fail("repeated key");
            }
            seen |= 32;
            for (i = 0; i < RA_CAT_MAX; i++) {
                if (ra_eq(val, ra_category_names[i])) {
                    category = (unsigned) i;
                }
            }
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

/* Calls fn for every pattern: the table's pieces, then the vocabularies. */
static int
ra_each_pattern(ra_crawlers_t *t,
    int (*fn)(ra_crawlers_t *t, const ra_pat_src_t *p, void *ctx), void *ctx)
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
    for (i = 0; i < RA_NELTS(ra_generic_kw); i++) {
        p.s = ra_str(ra_generic_kw[i].text, strlen(ra_generic_kw[i].text));
        p.kind = RA_PAT_GENERIC;
        p.flags = (uint8_t) ra_generic_kw[i].flags;
        p.value = (uint16_t) i;
        if ((rc = fn(t, &p, ctx)) != RA_OK) {
            return rc;
        }
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
    for (i = 0; i < RA_NELTS(ra_neutral_kw); i++) {
        p.s = ra_str(ra_neutral_kw[i], strlen(ra_neutral_kw[i]));
        p.kind = RA_PAT_NEUTRAL;
        p.flags = 0;
        p.value = (uint16_t) i;
        if ((rc = fn(t, &p, ctx)) != RA_OK) {
            return rc;
        }
    }
    return RA_OK;
}

typedef struct {
    size_t    bytes;
    size_t    npats;
    uint8_t   used[256];
} ra_count_ctx_t;

static int
ra_count_pattern(ra_crawlers_t *t, const ra_pat_src_t *p, void *ctx)
{
    ra_count_ctx_t  *cc = ctx;
    size_t           i;

    (void) t;
    for (i = 0; i < p->s.len; i++) {
        cc->used[ra_lower(p->s.data[i])] = 1;
    }
    cc->bytes += p->s.len;
    cc->npats++;
    return RA_OK;
}

static int
ra_insert_pattern(ra_crawlers_t *t, const ra_pat_src_t *p, void *ctx)
{
    size_t     i, s = 0, c;
    uint16_t   next;
    ra_pat_t  *pat;

    (void) ctx;
    for (i = 0; i < p->s.len; i++) {
        c = t->cls[ra_lower(p->s.data[i])];
        next = t->trans[s * t->ncls + c];
        if (next == 0) {
            if (t->nstates >= RA_CRAWLERS_MAX_STATES) {
                return RA_ELIMIT;
            }
            next = (uint16_t) t->nstates++;
            t->trans[s * t->ncls + c] = next;
        }
        s = next;
    }
    pat = &t->pats[t->npats];
    pat->len = (uint16_t) p->s.len;
    pat->kind = p->kind;
    pat->flags = p->flags;
    pat->value = p->value;
    pat->next = t->out[s];
    t->out[s] = (uint16_t) ++t->npats;
    return RA_OK;
}

static int
ra_crawlers_build(ra_crawlers_t *t)
{
    ra_count_ctx_t   cc;
    size_t           i, c, maxstates, head, tail;
    uint16_t        *fail, *queue, s, u, v;
    int              rc;

    memset(&cc, 0, sizeof(cc));
    (void) ra_each_pattern(t, ra_count_pattern, &cc);

    /* class 0: bytes no pattern uses; letters share their lower case */
    t->ncls = 1;
    for (i = 0; i < 256; i++) {
        if (cc.used[i]) {
            t->cls[i] = (uint8_t) t->ncls++;
        }
    }
    for (i = 'A'; i <= 'Z'; i++) {
        t->cls[i] = t->cls[i | 0x20];
    }
    /* rows of a power-of-two width: the hot loop shifts instead of
     * multiplying, which is on the critical path of every byte */
    for (t->shift = 0; ((size_t) 1 << t->shift) < t->ncls; t->shift++) {
        /* void */
    }
    t->ncls = (size_t) 1 << t->shift;

    /* a trie has at most one state per pattern byte, plus the root */
    maxstates = cc.bytes + 1;
    if (maxstates > RA_CRAWLERS_MAX_STATES) {
        maxstates = RA_CRAWLERS_MAX_STATES;
    }
    if (cc.npats > 65535) {
        return RA_ELIMIT;
    }

    t->trans = ra_alloc(t->alloc, maxstates * t->ncls * sizeof(uint16_t));
    t->out = ra_alloc(t->alloc, maxstates * sizeof(uint16_t));
    t->dict = ra_alloc(t->alloc, maxstates * sizeof(uint16_t));
    t->pats = ra_alloc(t->alloc, cc.npats * sizeof(ra_pat_t));
    fail = ra_alloc(t->alloc, maxstates * sizeof(uint16_t));
    queue = ra_alloc(t->alloc, maxstates * sizeof(uint16_t));
    if (t->trans == NULL || t->out == NULL || t->dict == NULL
        || t->pats == NULL || fail == NULL || queue == NULL)
    {
        ra_free(t->alloc, fail);
        ra_free(t->alloc, queue);
        return RA_ENOMEM;
    }
    memset(t->trans, 0, maxstates * t->ncls * sizeof(uint16_t));
    memset(t->out, 0, maxstates * sizeof(uint16_t));
    memset(t->dict, 0, maxstates * sizeof(uint16_t));
    memset(fail, 0, maxstates * sizeof(uint16_t));

    t->nstates = 1;
    t->npats = 0;
    rc = ra_each_pattern(t, ra_insert_pattern, NULL);
    if (rc != RA_OK) {
        ra_free(t->alloc, fail);
        ra_free(t->alloc, queue);
        return rc;
    }

    /*
     * Breadth first: a state's row is completed (missing edges take the
     * failure state's edge) only when the state is dequeued, so a non-zero
     * entry of an unvisited row is still a trie edge (no edge leads back
     * to the root).
     */
    head = tail = 0;
    for (c = 0; c < t->ncls; c++) {
        u = t->trans[c];
        if (u != 0) {
            fail[u] = 0;
            queue[tail++] = u;
        }
    }
    while (head < tail) {
        s = queue[head++];
        t->dict[s] = t->out[fail[s]] ? fail[s] : t->dict[fail[s]];
        for (c = 0; c < t->ncls; c++) {
            u = t->trans[s * t->ncls + c];
            v = t->trans[fail[s] * t->ncls + c];
            if (u != 0) {
                fail[u] = v;
                queue[tail++] = u;
            } else {
                t->trans[s * t->ncls + c] = v;
            }
        }
    }

    /*
     * Renumber the states breadth first, so the shallow states where a
     * browser's bytes spend nearly all their time share a few cache lines
     * of rows at the start of the table.  "fail" becomes old -> new.
     */
    fail[0] = 0;
    for (i = 0; i < tail; i++) {
        fail[queue[i]] = (uint16_t) (i + 1);
    }
    {
        uint16_t  *nt, *no, *nd;

        nt = ra_alloc(t->alloc, t->nstates * t->ncls * sizeof(uint16_t));
        no = ra_alloc(t->alloc, t->nstates * sizeof(uint16_t));
        nd = ra_alloc(t->alloc, t->nstates * sizeof(uint16_t));
        if (nt == NULL || no == NULL || nd == NULL) {
            ra_free(t->alloc, fail);
            ra_free(t->alloc, queue);
            return RA_ENOMEM;
        }
        for (i = 0; i < t->nstates; i++) {
            v = fail[i];
            no[v] = t->out[i];
            nd[v] = fail[t->dict[i]];
            for (c = 0; c < t->ncls; c++) {
                nt[v * t->ncls + c] = fail[t->trans[i * t->ncls + c]];
            }
        }
        ra_free(t->alloc, t->trans);
        ra_free(t->alloc, t->out);
        ra_free(t->alloc, t->dict);
        t->trans = nt;
        t->out = no;
        t->dict = nd;
    }

    /* mark edges into states where some pattern ends */
    for (i = 0; i < t->nstates * t->ncls; i++) {
        u = t->trans[i];
        if (t->out[u] || t->dict[u]) {
            t->trans[i] = (uint16_t) (u | RA_HIT_BIT);
        }
    }

    ra_free(t->alloc, fail);
    ra_free(t->alloc, queue);
    return RA_OK;
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
    unsigned   platform;
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
        if (st->nhits < RA_MAX_HITS) {
            st->hit_start[st->nhits] = (uint32_t) start;
            st->hit_flags[st->nhits] = pat->flags;
            st->nhits++;
        }
        return;

    case RA_PAT_PLATFORM:
        st->platform = 1;
        return;

    default:
        if (st->nneutral < RA_MAX_NEUTRAL) {
            st->n_start[st->nneutral] = (uint32_t) start;
            st->n_end[st->nneutral] = (uint32_t) end;
            st->nneutral++;
        }
        return;
    }
}

/* The product token around position at: [A-Za-z0-9._-]+, starting with a
 * letter, not part of a path or address; len 0 when there is none. */
static ra_str_t
ra_token_at(const unsigned char *p, size_t len, size_t at)
{
    size_t  s = at, e = at;

    while (s > 0 && ra_istok(p[s - 1])) {
        s--;
    }
    while (e < len && ra_istok(p[e])) {
        e++;
    }
    while (e > s && (p[e - 1] == '.' || p[e - 1] == '-' || p[e - 1] == '_')) {
        e--;
    }
    if (e == s || e - s > RA_TOKEN_MAX || !ra_isalpha(p[s])
        || (s > 0 && (p[s - 1] == '/' || p[s - 1] == ':' || p[s - 1] == '@'
                      || p[s - 1] == '=' || p[s - 1] == '.')))
    {
        return ra_str(p, 0);
    }
    return ra_str(p + s, e - s);
}

/* Where "(compatible; NAME" starts NAME, or len when absent. */
static size_t
ra_compatible_at(const unsigned char *p, size_t len)
{
    static const char  k[] = "compatible;";
    size_t             i, j;

    for (i = 0; i + sizeof(k) - 1 <= len; i++) {
        for (j = 0; j < sizeof(k) - 1; j++) {
            if (ra_lower(p[i + j]) != (unsigned char) k[j]) {
                break;
            }
        }
        if (j == sizeof(k) - 1) {
            i += j;
            while (i < len && p[i] == ' ') {
                i++;
            }
            return i;
        }
    }
    return len;
}

/* The product a client declares when no keyword names one: the NAME of
 * "compatible; NAME", else the first product of a non-Mozilla agent. */
static ra_str_t
ra_declared_token(const unsigned char *p, size_t len)
{
    size_t  at;

    at = ra_compatible_at(p, len);
    if (at < len) {
        return ra_token_at(p, len, at);
    }
    if (len > 0 && !ra_startswith_ci(ra_str(p, len), "mozilla")) {
        return ra_token_at(p, len, 0);
    }
    return ra_str(p, 0);
}

/*
 * A User-Agent naming no platform is a program, not a browser, when it has
 * a program's shape:
 *   "Name/1.0 (details)": starts with a product, and no comment holds a
 *                         "a; b" list (the system details browsers give);
 *   "Mozilla/5.0 (compatible; Name/1.0[; contact])": the comment holds only
 *                         a product and at most one more element.
 */
static int
ra_program_shape(const unsigned char *p, size_t len)
{
    size_t  i, semis;
    int     paren;

    if (len == 0) {
        return 0;
    }
    if (!ra_startswith_ci(ra_str(p, len), "mozilla/")) {
        if (!ra_isalnum(p[0])) {
            return 0;
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
        return 0;
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

int
ra_crawlers_identify(const ra_crawlers_t *t, ra_str_t ua, ra_identity_t *out)
{
    const unsigned char  *p = ua.data;
    const uint16_t       *trans = t->trans;
    const uint8_t        *cls = t->cls;
    const ra_pat_t       *pat;
    ra_scan_t             st;
    ra_str_t              tok;
    size_t                len, i, k;
    unsigned              shift = t->shift;
    unsigned              s = 0, j, h, covered;
    uint16_t              q, pi;

    len = ua.len < RA_CRAWLERS_MAX_UA ? ua.len : RA_CRAWLERS_MAX_UA;
    st.best = -1;
    st.best_len = 0;
    st.platform = 0;
    st.nhits = 0;
    st.nneutral = 0;

    for (i = 0; i < len; i++) {
        s = trans[(s << shift) + cls[p[i]]];
        if (s & RA_HIT_BIT) {
            s &= ~RA_HIT_BIT;
            for (q = (uint16_t) s; q != 0; q = t->dict[q]) {
                for (pi = t->out[q]; pi != 0; pi = pat->next) {
                    pat = &t->pats[pi - 1];
                    ra_scan_match(pat, p, len, i, &st);
                }
            }
        }
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
            tok = ra_token_at(p, len, k);
            if (tok.len) {
                out->token = tok;
            }
        }
    }

    if (st.nhits > covered
        || (!st.platform && ra_program_shape(p, len)))
    {
        out->kind = RA_UA_GENERIC;
        if (out->token.len == 0) {
            out->token = ra_declared_token(p, len);
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

size_t
ra_crawlers_automaton_size(const ra_crawlers_t *t)
{
    return t->nstates * (t->ncls + 2) * sizeof(uint16_t)
           + t->npats * sizeof(ra_pat_t) + sizeof(t->cls);
}
