/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * robots.txt lint: one handler of ra_parse() plus checks on the answer.
 *
 * Three passes over the body, all linear: a counting parse that sizes the
 * rule table, the linting parse, and (only when the body is over 500 KiB)
 * a parse of what lies past the cut to count the rules crawlers lose.
 * Group checks (duplicates, same pattern, shadowing) then run per written
 * group, and the asset check asks the compiled matcher what Googlebot
 * decides for typical CSS/JS URLs.
 */
#include <stdarg.h>
#include <stdio.h>      /* vsnprintf() only: no I/O in the core */
#include <stdlib.h>
#include <string.h>

#include "ra_crawlers.h"
#include "ra_lint.h"
#include "ra_rules.h"
#include "ra_sf.h"

typedef struct {
    const char     *name;
    ra_severity_e   severity;
} ra_lint_code_def_t;

/* Indexed by ra_lint_code_e; names are the stable public contract. */
static const ra_lint_code_def_t  ra_lint_codes[RA_LINT_NCODES] = {
    { "status-unreachable", RA_SEV_ERROR },
    { "status-forbidden",   RA_SEV_ERROR },
    { "status-missing",     RA_SEV_INFO },
    { "status-client-error", RA_SEV_WARNING },
    { "status-redirect",    RA_SEV_WARNING },
    { "status-unusual",     RA_SEV_WARNING },
    { "redirect-limit",     RA_SEV_ERROR },
    { "redirects",          RA_SEV_INFO },
    { "content-type",       RA_SEV_WARNING },
    { "charset",            RA_SEV_WARNING },
    { "truncated-body",     RA_SEV_WARNING },
    { "empty",              RA_SEV_INFO },
    { "size-limit",         RA_SEV_ERROR },
    { "html",               RA_SEV_ERROR },
    { "encoding",           RA_SEV_ERROR },
    { "bom",                RA_SEV_WARNING },
    { "bom-inside",         RA_SEV_WARNING },
    { "invalid-utf8",       RA_SEV_WARNING },
    { "nul",                RA_SEV_WARNING },
    { "control-char",       RA_SEV_WARNING },
    { "line-too-long",      RA_SEV_ERROR },
    { "invalid-line",       RA_SEV_WARNING },
    { "no-colon",           RA_SEV_WARNING },
    { "typo",               RA_SEV_WARNING },
    { "key-prefix",         RA_SEV_WARNING },
    { "unknown-key",        RA_SEV_WARNING },
    { "noindex",            RA_SEV_ERROR },
    { "nonstandard-key",    RA_SEV_INFO },
    { "crawl-delay",        RA_SEV_INFO },
    { "crawl-delay-value",  RA_SEV_WARNING },
    { "outside-group",      RA_SEV_ERROR },
    { "ua-empty",           RA_SEV_WARNING },
    { "ua-token",           RA_SEV_WARNING },
    { "ua-version",         RA_SEV_INFO },
    { "path-start",         RA_SEV_ERROR },
    { "path-space",         RA_SEV_WARNING },
    { "dollar-middle",      RA_SEV_WARNING },
    { "bad-percent",        RA_SEV_WARNING },
    { "sitemap-url",        RA_SEV_ERROR },
    { "rfc-google-diff",    RA_SEV_INFO },
    { "robots-txt-rule",    RA_SEV_INFO },
    { "disallow-all",       RA_SEV_WARNING },
    { "same-pattern",       RA_SEV_WARNING },
    { "duplicate-rule",     RA_SEV_INFO },
    { "shadowed-rule",      RA_SEV_WARNING },
    { "blocks-assets",      RA_SEV_WARNING },
    { "analysis-limit",     RA_SEV_INFO },
    { "content-encoding",   RA_SEV_ERROR },
    { "binary",             RA_SEV_ERROR },
    { "group-replaces-star", RA_SEV_WARNING },
    { "content-signal",     RA_SEV_WARNING },
    { "content-usage",      RA_SEV_WARNING },
    { "ai-preference",      RA_SEV_INFO },
    { "policy-token",       RA_SEV_INFO },
};

#define RA_LINT_MSG_MAX     1024    /* one message, bytes: 4 quotes fit */
#define RA_LINT_QUOTE_MAX   40      /* file bytes quoted in a message */
#define RA_LINT_QBUF        (RA_LINT_QUOTE_MAX * 4 + 8)
/* Content-Usage paths of a group compared for repeats */
#define RA_LINT_USAGE_PATHS 16

typedef struct {
    uint32_t        line;
    uint32_t        column;     /* of the value */
    ra_rule_type_e  type;
    ra_str_t        value;      /* as written, in the body */
    ra_str_t        norm;       /* Google's normalisation of value */
    unsigned        plain:1;    /* only bytes every mode reads alike */
} ra_lint_rule_t;

typedef struct {
    uint32_t   line;            /* first user-agent line */
    uint32_t   first;           /* index into rules */
    uint32_t   nrules;
    unsigned   global:1;        /* has a "*" user-agent */
    unsigned   prefs:1;         /* has Content-Signal or Content-Usage
                                   lines */
    unsigned   ruled:1;         /* has an Allow or Disallow line, empty
                                   ones too */
} ra_lint_group_t;

typedef struct {
    const ra_alloc_t   *a;
    ra_lint_t          *out;
    ra_str_t            body;
    unsigned            max_per_code;
    uint32_t            kept[RA_LINT_NCODES];
    uint32_t            cap;            /* of out->findings */
    int                 rc;
    unsigned            quiet:1;        /* body is not robots.txt text */

    ra_lint_rule_t     *rules;
    uint32_t            nrules, rules_cap;
    ra_lint_group_t    *groups;
    uint32_t            ngroups, groups_cap;
    unsigned            in_rules:1;     /* current group has had a rule */
    ra_str_t            group_agent;    /* its first User-agent value */
    unsigned            signals_seen;   /* Content-Signal categories in it */
    /* its Content-Usage rules' paths (the first RA_LINT_USAGE_PATHS),
     * the categories stated for each and whether all allow them: rules
     * of the same path combine */
    ra_str_t            usage_paths[RA_LINT_USAGE_PATHS];
    uint32_t            usage_lines[RA_LINT_USAGE_PATHS];
    uint8_t             usage_seen[RA_LINT_USAGE_PATHS];
    uint8_t             usage_allow[RA_LINT_USAGE_PATHS];
    unsigned            nusage;
    const ra_crawlers_t *crawlers;      /* policy tokens; NULL: none */

    /* the line the 500 KiB cut falls in, when it is cut mid-line */
    uint32_t            cut_line;
    size_t              cut_offset;
    ra_line_t           cut;
    unsigned            cut_mid:1;
    /* where the last line read starts: the cut falls in it when the limit
     * meets a line's end (an empty last line, or the CR of a split CRLF) */
    size_t              last_offset;
} ra_lint_ctx_t;


const char *
ra_lint_code_name(ra_lint_code_e code)
{
    return (unsigned) code < RA_LINT_NCODES ? ra_lint_codes[code].name : "?";
}

ra_severity_e
ra_lint_code_severity(ra_lint_code_e code)
{
    return (unsigned) code < RA_LINT_NCODES ? ra_lint_codes[code].severity
                                            : RA_SEV_ERROR;
}

const char *
ra_lint_severity_name(ra_severity_e sev)
{
    switch (sev) {
    case RA_SEV_ERROR:   return "error";
    case RA_SEV_WARNING: return "warning";
    default:             return "info";
    }
}

ra_lint_code_e
ra_lint_code_by_name(ra_str_t name)
{
    size_t  i;

    for (i = 0; i < RA_LINT_NCODES; i++) {
        if (name.len == strlen(ra_lint_codes[i].name)
            && memcmp(name.data, ra_lint_codes[i].name, name.len) == 0)
        {
            return (ra_lint_code_e) i;
        }
    }
    return RA_LINT_NCODES;
}


/*
 * Quotes at most RA_LINT_QUOTE_MAX bytes of s into dst as printable ASCII:
 * anything else (controls, '\\', bytes >= 0x80) becomes \xHH, so messages
 * are safe on a terminal whatever the file holds.
 */
static const char *
ra_lint_quote(char *dst, ra_str_t s)
{
    static const char  hex[] = "0123456789abcdef";
    size_t             i, n;
    char              *p = dst;

    n = s.len < RA_LINT_QUOTE_MAX ? s.len : RA_LINT_QUOTE_MAX;
    for (i = 0; i < n; i++) {
        unsigned char  c = s.data[i];

        if (c >= 0x20 && c < 0x7f && c != '\\') {
            *p++ = (char) c;
        } else {
            *p++ = '\\';
            *p++ = 'x';
            *p++ = hex[c >> 4];
            *p++ = hex[c & 0xf];
        }
    }
    if (n < s.len) {
        memcpy(p, "...", 3);
        p += 3;
    }
    *p = '\0';
    return dst;
}

static void
ra_lint_add(ra_lint_ctx_t *ctx, ra_lint_code_e code, uint32_t line,
    uint32_t column, uint32_t lost, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

/* Findings that are syntax errors in the 1997 draft's grammar (a line
 * that is not "field: value", a rule before any User-agent line) carry
 * the note that strict parsers drop the whole file for them.  Appends it
 * to msg[0, n) within size; returns the new length. */
static int
ra_lint_syntax_note(ra_lint_code_e code, char *msg, size_t n, size_t size)
{
    int                 k;
    static const char   note[] =
        " (a syntax error: some crawlers that follow the 1997 robots.txt "
        "draft strictly, such as enterprise search crawlers, ignore a file "
        "with syntax errors entirely)";

    if (code != RA_LC_INVALID_LINE && code != RA_LC_NO_COLON
        && code != RA_LC_OUTSIDE_GROUP)
    {
        return (int) n;
    }
    k = snprintf(msg + n, size - n, "%s", note);
    if (k < 0) {
        return (int) n;
    }
    return (int) ((size_t) k >= size - n ? size - 1 : n + (size_t) k);
}

static void
ra_lint_add(ra_lint_ctx_t *ctx, ra_lint_code_e code, uint32_t line,
    uint32_t column, uint32_t lost, const char *fmt, ...)
{
    int                 n;
    char                msg[RA_LINT_MSG_MAX];
    va_list             ap;
    unsigned char      *text;
    ra_lint_t          *out = ctx->out;
    ra_lint_finding_t  *f, *nf;

    if (ctx->quiet && line != 0) {
        return;
    }

    switch (ra_lint_codes[code].severity) {
    case RA_SEV_ERROR:   out->summary.errors++; break;
    case RA_SEV_WARNING: out->summary.warnings++; break;
    default:             out->summary.infos++; break;
    }

    if (ctx->rc != RA_OK || ctx->kept[code] >= ctx->max_per_code) {
        out->suppressed[code]++;
        out->summary.suppressed++;
        return;
    }

    if (out->nfindings == ctx->cap) {
        /* doubling: an arena wastes at most what it keeps */
        ctx->cap = ctx->cap ? ctx->cap * 2 : 16;
        nf = ra_alloc(ctx->a, ctx->cap * sizeof(ra_lint_finding_t));
        if (nf == NULL) {
            ctx->rc = RA_ENOMEM;
            return;
        }
        if (out->nfindings) {
            memcpy(nf, out->findings,
                   out->nfindings * sizeof(ra_lint_finding_t));
        }
        ra_free(ctx->a, out->findings);
        out->findings = nf;
    }

    va_start(ap, fmt);
    n = vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    if (n < 0) {
        n = 0;
    } else if ((size_t) n >= sizeof(msg)) {
        n = sizeof(msg) - 1;
    }
    n = ra_lint_syntax_note(code, msg, (size_t) n, sizeof(msg));
    text = ra_alloc(ctx->a, (size_t) n);
    if (text == NULL) {
        ctx->rc = RA_ENOMEM;
        return;
    }
    memcpy(text, msg, (size_t) n);

    f = &out->findings[out->nfindings++];
    f->code = code;
    f->severity = ra_lint_codes[code].severity;
    f->line = line;
    f->column = column;
    f->lost_rules = lost;
    f->seq = out->nfindings - 1;
    f->message = ra_str(text, (size_t) n);
    ctx->kept[code]++;
}

#define ra_lint_col(ln, p)                                                  \
    ((uint32_t) ((const unsigned char *) (p) - (ln)->raw.data) + 1)


/* Length of the first invalid UTF-8 sequence's prefix: returns the offset
 * of the first byte that does not start a well-formed sequence, or len. */
static size_t
ra_lint_utf8_bad(const unsigned char *s, size_t len)
{
    size_t  i, n;

    for (i = 0; i < len; i += n) {
        n = ra_utf8_char(s + i, s + len);
        if (n == 0) {
            return i;
        }
    }
    return len;
}


/* ------------------------------------------------------------------ */
/* the answer: status, redirects, Content-Type                          */

static int
ra_lint_status(ra_lint_ctx_t *ctx, const ra_lint_http_t *h)
{
    int  s = h->status;

    if (h->redirects > RA_LINT_MAX_REDIRECTS) {
        ra_lint_add(ctx, RA_LC_REDIRECT_LIMIT, 0, 0, 0,
            "robots.txt is reached after %u redirects: crawlers follow at "
            "most %d, then Google and RFC 9309 crawlers treat it as "
            "missing (404): no rules apply to any crawler",
            h->redirects, RA_LINT_MAX_REDIRECTS);
        return 0;
    }
    if (h->redirects > 0) {
        ra_lint_add(ctx, RA_LC_REDIRECTS, 0, 0, 0,
            "robots.txt is reached after %u redirect%s: crawlers follow "
            "them and apply the rules to the host they first asked",
            h->redirects, h->redirects == 1 ? "" : "s");
    }

    if (s == 0 || (s >= 200 && s < 300)) {
        return 1;
    }
    if (s == 429 || (s >= 500 && s < 600)) {
        ra_lint_add(ctx, RA_LC_STATUS_UNREACHABLE, 0, 0, 0,
            "HTTP %d: crawlers treat the whole site as disallowed; Google "
            "stops crawling it for 12 hours, then uses its last good copy "
            "of robots.txt for up to 30 days", s);
    } else if (s == 401 || s == 403) {
        ra_lint_add(ctx, RA_LC_STATUS_FORBIDDEN, 0, 0, 0,
            "HTTP %d: Google and RFC 9309 crawlers treat robots.txt as "
            "missing and crawl everything; to restrict crawling serve a "
            "robots.txt with Disallow rules", s);
    } else if (s == 404 || s == 410) {
        ra_lint_add(ctx, RA_LC_STATUS_MISSING, 0, 0, 0,
            "HTTP %d: no robots.txt, so every crawler may fetch every URL",
            s);
    } else if (s >= 400 && s < 500) {
        ra_lint_add(ctx, RA_LC_STATUS_CLIENT_ERROR, 0, 0, 0,
            "HTTP %d: crawlers treat robots.txt as missing (like 404) and "
            "crawl everything", s);
    } else if (s >= 300 && s < 400) {
        ra_lint_add(ctx, RA_LC_STATUS_REDIRECT, 0, 0, 0,
            "HTTP %d is the final answer: crawlers follow up to %d "
            "redirects; lint the answer at the end of the chain", s,
            RA_LINT_MAX_REDIRECTS);
    } else {
        ra_lint_add(ctx, RA_LC_STATUS_UNUSUAL, 0, 0, 0,
            "HTTP %d is not an answer crawlers expect for robots.txt: "
            "expect them to treat the site as unreachable or the file as "
            "missing", s);
    }
    return 0;
}

static ra_str_t
ra_lint_trim(ra_str_t s)
{
    while (s.len && (s.data[0] == ' ' || s.data[0] == '\t')) {
        s.data++;
        s.len--;
    }
    while (s.len && (s.data[s.len - 1] == ' ' || s.data[s.len - 1] == '\t')) {
        s.len--;
    }
    return s;
}

static void
ra_lint_content_type(ra_lint_ctx_t *ctx, ra_str_t ct)
{
    ra_str_t              type, param, cs;
    const unsigned char  *semi;
    char                  q[RA_LINT_QBUF];
    static const ra_str_t  plain = ra_string("text/plain");
    static const ra_str_t  html = ra_string("text/html");

    if (ct.data == NULL) {
        return;
    }
    if (ct.len == 0) {
        ra_lint_add(ctx, RA_LC_CONTENT_TYPE, 0, 0, 0,
            "no Content-Type: RFC 9309 asks for text/plain; crawlers "
            "still parse the body");
        return;
    }

    semi = memchr(ct.data, ';', ct.len);
    type = ra_lint_trim(ra_str(ct.data, semi ? (size_t) (semi - ct.data)
                                             : ct.len));
    if (ra_strcaseeq(type, html)) {
        ra_lint_add(ctx, RA_LC_CONTENT_TYPE, 0, 0, 0,
            "Content-Type is text/html: robots.txt must be text/plain; "
            "Google still reads rules from the body and drops what it "
            "cannot parse");
    } else if (!ra_strcaseeq(type, plain)) {
        ra_lint_add(ctx, RA_LC_CONTENT_TYPE, 0, 0, 0,
            "Content-Type is '%s', not text/plain as RFC 9309 asks; "
            "Google parses the body anyway, other crawlers may not",
            ra_lint_quote(q, type));
    }

    /* parameters: ";charset=..." anywhere after the type */
    while (semi != NULL) {
        param = ra_str(semi + 1, (size_t) (ct.data + ct.len - semi - 1));
        semi = memchr(param.data, ';', param.len);
        if (semi != NULL) {
            param.len = (size_t) (semi - param.data);
        }
        param = ra_lint_trim(param);
        if (!ra_startswith_ci(param, "charset=")) {
            continue;
        }
        cs = ra_lint_trim(ra_str(param.data + 8, param.len - 8));
        if (cs.len >= 2 && cs.data[0] == '"' && cs.data[cs.len - 1] == '"') {
            cs.data++;
            cs.len -= 2;
        }
        if (!ra_strcaseeq(cs, (ra_str_t) ra_string("utf-8"))
            && !ra_strcaseeq(cs, (ra_str_t) ra_string("utf8"))
            && !ra_strcaseeq(cs, (ra_str_t) ra_string("us-ascii")))
        {
            ra_lint_add(ctx, RA_LC_CHARSET, 0, 0, 0,
                "charset is '%s': crawlers read robots.txt as UTF-8 "
                "whatever the header says, so non-ASCII paths will not "
                "match as intended", ra_lint_quote(q, cs));
        }
    }
}


/* ------------------------------------------------------------------ */
/* what the body is: HTML, UTF-16                                       */

static int
ra_lint_is_html(ra_str_t b, uint32_t *line)
{
    size_t                i, n;
    uint32_t              l = 1;
    static const char    *tags[] = { "<!doctype", "<html", "<head", "<body",
                                     "<?xml", "<!--", "<title", "<meta" };

    n = b.len < 4096 ? b.len : 4096;
    i = (n >= 3 && memcmp(b.data, "\xef\xbb\xbf", 3) == 0) ? 3 : 0;
    for ( /* void */ ; i < n && ra_isspace(b.data[i]); i++) {
        if (b.data[i] == '\n'
            || (b.data[i] == '\r' && (i + 1 == n || b.data[i + 1] != '\n')))
        {
            l++;
        }
    }
    if (i == n || b.data[i] != '<') {
        return 0;
    }
    for (size_t t = 0; t < sizeof(tags) / sizeof(tags[0]); t++) {
        if (ra_startswith_ci(ra_str(b.data + i, n - i), tags[t])) {
            *line = l;
            return 1;
        }
    }
    return 0;
}

/* "UTF-16LE", ... or NULL: a UTF-16/32 BOM, or text whose every other
 * byte is NUL (UTF-16 without a BOM). */
static const char *
ra_lint_utf16(ra_str_t b)
{
    size_t  i, n, even = 0, odd = 0;

    if (b.len >= 4 && memcmp(b.data, "\xff\xfe\0\0", 4) == 0) {
        return "UTF-32LE";
    }
    if (b.len >= 4 && memcmp(b.data, "\0\0\xfe\xff", 4) == 0) {
        return "UTF-32BE";
    }
    if (b.len >= 2 && b.data[0] == 0xff && b.data[1] == 0xfe) {
        return "UTF-16LE";
    }
    if (b.len >= 2 && b.data[0] == 0xfe && b.data[1] == 0xff) {
        return "UTF-16BE";
    }
    n = b.len < 512 ? b.len : 512;
    if (n < 8) {
        return NULL;
    }
    for (i = 0; i + 1 < n; i += 2) {
        even += b.data[i] == 0;
        odd += b.data[i + 1] == 0;
    }
    /* ASCII text in UTF-16 has a NUL in nearly every code unit */
    if (odd * 10 >= (n / 2) * 8 && even * 10 < (n / 2)) {
        return "UTF-16LE";
    }
    if (even * 10 >= (n / 2) * 8 && odd * 10 < (n / 2)) {
        return "UTF-16BE";
    }
    return NULL;
}

/* Magic numbers of what gets saved or served as robots.txt by mistake:
 * a compressed copy (robots.txt.gz), an archive, an image, a program. */
static const struct {
    const char  *magic;
    size_t       len;
    const char  *what;
} ra_lint_magic[] = {
    { "\x1f\x8b", 2, "gzip-compressed data (it starts with 1F 8B)" },
    { "\x28\xb5\x2f\xfd", 4, "zstd-compressed data" },
    { "\xfd" "7zXZ\0", 6, "xz-compressed data" },
    { "BZh", 3, "bzip2-compressed data" },     /* then '1'..'9', "1AY&SY" */
    { "PK\x03\x04", 4, "a ZIP archive" },
    { "\x89PNG\r\n\x1a\n", 8, "a PNG image" },
    { "\xff\xd8\xff", 3, "a JPEG image" },
    { "GIF8", 4, "a GIF image" },
    { "%PDF-", 5, "a PDF document" },
    { "\x7f" "ELF", 4, "an ELF program" },
};

const char *
ra_lint_binary(ra_str_t b)
{
    size_t  i, n, k, ctl = 0, bad = 0;

    for (i = 0; i < sizeof(ra_lint_magic) / sizeof(ra_lint_magic[0]); i++) {
        if (b.len < ra_lint_magic[i].len
            || memcmp(b.data, ra_lint_magic[i].magic, ra_lint_magic[i].len)
               != 0)
        {
            continue;
        }
        if (ra_lint_magic[i].magic[0] == 'B'
            && (b.len < 10 || b.data[3] < '1' || b.data[3] > '9'
                || memcmp(b.data + 4, "1AY&SY", 6) != 0))
        {
            continue;       /* "BZh" alone may start a word */
        }
        if (ra_lint_magic[i].magic[0] == 'G'
            && (b.len < 6 || (b.data[4] != '7' && b.data[4] != '9')
                || b.data[5] != 'a'))
        {
            continue;
        }
        return ra_lint_magic[i].what;
    }

    /* NUL and control bytes (not TAB, LF, VT, FF, CR) in the first 4 KiB:
     * text has next to none, compressed or random data ~11%; invalid
     * UTF-8 adds weight only when control bytes are there too, so that
     * Latin-1 text stays text */
    n = b.len < 4096 ? b.len : 4096;
    for (i = 0; i < n; i += k) {
        k = 1;
        if ((b.data[i] < 0x20 && !ra_isspace(b.data[i])) || b.data[i] == 0x7f)
        {
            ctl++;
        } else if (b.data[i] >= 0x80) {
            k = ra_utf8_char(b.data + i, b.data + n);
            if (k == 0) {
                bad++;
                k = 1;
            }
        }
    }
    if (n >= 16 && ctl >= 8 && (ctl * 10 >= n || (ctl + bad) * 4 >= n)) {
        return "binary data (NUL and control bytes), not text";
    }
    return NULL;
}


/* ------------------------------------------------------------------ */
/* lines                                                                */

static void
ra_lint_bytes(ra_lint_ctx_t *ctx, const ra_line_t *ln)
{
    size_t                bad;
    const unsigned char  *p, *end, *nul;

    p = ln->raw.data;
    end = p + ln->raw.len;

    bad = ra_lint_utf8_bad(p, ln->raw.len);
    if (bad < ln->raw.len) {
        ra_lint_add(ctx, RA_LC_INVALID_UTF8, ln->line, (uint32_t) bad + 1, 0,
            "invalid UTF-8 (byte 0x%02x): robots.txt must be UTF-8; "
            "Google %%-encodes such bytes, so the rule matches no URL a "
            "browser sends", p[bad]);
    }

    nul = memchr(p, '\0', ln->raw.len);
    if (nul != NULL) {
        ra_lint_add(ctx, RA_LC_NUL, ln->line, ra_lint_col(ln, nul), 0,
            "NUL byte: Google ends the line here and ignores the rest; "
            "other parsers may reject the line or the file");
    }

    for ( /* void */ ; p < end; p++) {
        if ((*p < 0x20 && *p != '\t' && *p != '\0') || *p == 0x7f) {
            ra_lint_add(ctx, RA_LC_CONTROL_CHAR, ln->line,
                ra_lint_col(ln, p), 0,
                "control character 0x%02x: invisible in editors; Google "
                "keeps it as part of the key or path (or as white space "
                "when it is VT or FF at an end), other crawlers may not",
                *p);
            break;
        }
    }

    /* the parser skipped the one at offset 0: any other is text */
    p = ln->raw.data;
    for (bad = 0; bad + 3 <= ln->raw.len; bad++) {
        if (p[bad] == 0xef && p[bad + 1] == 0xbb && p[bad + 2] == 0xbf) {
            ra_lint_add(ctx, RA_LC_BOM_INSIDE, ln->line, (uint32_t) bad + 1,
                0,
                "byte order mark inside the file (two files joined?): it "
                "is part of this line's text, so crawlers cannot read the "
                "line as written");
            break;
        }
    }

    if (ln->flags & RA_LF_TOO_LONG) {
        ra_str_t              kept, lost;
        const unsigned char  *q;

        kept = ra_str(ln->raw.data, RA_MAX_LINE_LEN);
        lost = ra_str(ln->raw.data + RA_MAX_LINE_LEN,
                      ln->raw.len - RA_MAX_LINE_LEN);
        /* a NUL or '#' before the cut already ended the text */
        if (memchr(kept.data, '#', kept.len) != NULL
            || memchr(kept.data, '\0', kept.len) != NULL)
        {
            return;
        }
        for (q = lost.data; q < lost.data + lost.len && ra_isspace(*q); q++) {
            /* void */
        }
        if (q == lost.data + lost.len) {
            return;
        }
        ra_lint_add(ctx, RA_LC_LINE_TOO_LONG, ln->line, RA_MAX_LINE_LEN + 1,
            0,
            "line is %zu bytes: Google keeps only the first %d and applies "
            "what is left of the rule, so it matches more URLs than "
            "written", ln->raw.len, RA_MAX_LINE_LEN);
    }
}

/* Keys some robots.txt carry that no major crawler reads, and what they
 * are. */
static const struct {
    const char  *key;
    const char  *what;
} ra_lint_nonstandard[] = {
    { "host", "Yandex's old mirror directive (dropped in 2018)" },
    { "clean-param", "a Yandex-only directive" },
    { "request-rate", "a never-standardised extension" },
    { "visit-time", "a never-standardised extension" },
    { "cache-delay", "a never-standardised extension" },
};

static const char *ra_lint_meta_keys[] = {
    "noindex", "nofollow", "noarchive", "nosnippet", "noimageindex",
};

static int
ra_lint_is(ra_str_t key, const char *name)
{
    return ra_strcaseeq(key, ra_str(name, strlen(name)));
}

static void
ra_lint_crawl_delay(ra_lint_ctx_t *ctx, const ra_line_t *ln)
{
    size_t    i, dot = 0;
    double    d = 0, scale = 1;
    char      q[RA_LINT_QBUF];
    ra_str_t  v = ln->value;

    for (i = 0; i < v.len; i++) {
        if (v.data[i] == '.' && !dot && i > 0) {
            dot = 1;
        } else if (ra_isdigit(v.data[i])) {
            if (dot) {
                scale /= 10;
                d += (v.data[i] - '0') * scale;
            } else if (d < 1e9) {
                d = d * 10 + (v.data[i] - '0');
            }
        } else {
            break;
        }
    }
    if (v.len == 0 || i < v.len || v.data[v.len - 1] == '.') {
        ra_lint_add(ctx, RA_LC_CRAWL_DELAY_VALUE, ln->line,
            ra_lint_col(ln, v.len ? v.data : ln->raw.data + ln->raw.len), 0,
            "Crawl-delay '%s' is not a number of seconds: Bing and Yandex "
            "ignore it (Google ignores Crawl-delay anyway)",
            ra_lint_quote(q, v));
        return;
    }
    if (d > RA_LINT_MAX_CRAWL_DELAY) {
        ra_lint_add(ctx, RA_LC_CRAWL_DELAY_VALUE, ln->line,
            ra_lint_col(ln, v.data), 0,
            "Crawl-delay %s s is very large: Bing and Yandex would fetch "
            "at most %.0f pages a day (some cap the delay, Google ignores "
            "it)", ra_lint_quote(q, v), d >= 86400 ? 1 : 86400 / d);
        return;
    }
    ra_lint_add(ctx, RA_LC_CRAWL_DELAY, ln->line, ra_lint_col(ln, v.data), 0,
        "Crawl-delay %s: Bing and Yandex wait that many seconds between "
        "requests; Google ignores Crawl-delay", ra_lint_quote(q, v));
}

/* ---- AI preferences and policy tokens ---------------------------------
 *
 * Content-Signal, as Cloudflare's Content Signals Policy defines it
 * (contentsignals.org; draft-romm-aipref-contentsignals-00): in a group,
 * "search=yes, ai-train=no", categories search, ai-input, ai-train, values
 * yes and no.  Content-Usage, as draft-ietf-aipref-attach-05 adds it to
 * robots.txt: in a group, an optional path, then a preference in the
 * vocabulary of draft-ietf-aipref-vocab-08 ("train-ai=n, search=y": a
 * Structured Fields dictionary, case-sensitive, labels train-ai and search,
 * tokens y and n; unknown labels and parameters are ignored, the last of
 * a repeated label wins).  Neither is a crawl rule: crawlers that do not
 * read them lose nothing.
 */

/* Keeps what a line states for the reports (printable ASCII, cut). */
static void
ra_lint_keep_pref(ra_lint_ctx_t *ctx, uint32_t line, unsigned kind,
    ra_str_t agent, ra_str_t text)
{
    ra_lint_t       *out = ctx->out;
    ra_lint_pref_t  *p;
    size_t           i, n;

    if (out->nprefs >= RA_LINT_MAX_PREFS) {
        out->more_prefs++;
        return;
    }
    p = &out->prefs[out->nprefs++];
    p->line = line;
    p->kind = kind;
    n = agent.len < sizeof(p->agent) - 1 ? agent.len : sizeof(p->agent) - 1;
    for (i = 0; i < n; i++) {
        p->agent[i] = agent.data[i] >= 0x20 && agent.data[i] < 0x7f
                      ? (char) agent.data[i] : '?';
    }
    p->agent[n] = '\0';
    n = text.len < sizeof(p->text) - 1 ? text.len : sizeof(p->text) - 1;
    for (i = 0; i < n; i++) {
        p->text[i] = text.data[i] >= 0x20 && text.data[i] < 0x7f
                     ? (char) text.data[i] : '?';
    }
    p->text[n] = '\0';
}

/* The next item of a comma-separated list, trimmed; 0 at the end. */
static int
ra_lint_next_item(ra_str_t *list, ra_str_t *item)
{
    const unsigned char  *p = list->data, *end = p + list->len, *c;

    if (list->len == 0) {
        return 0;
    }
    c = memchr(p, ',', list->len);
    if (c == NULL) {
        c = end;
    }
    *item = ra_lint_trim(ra_str(p, (size_t) (c - p)));
    *list = c < end ? ra_str(c + 1, (size_t) (end - c - 1)) : ra_str(end, 0);
    return 1;
}

static const char  *ra_lint_signal_names[] = { "search", "ai-input",
                                                "ai-train" };

static void
ra_lint_content_signal(ra_lint_ctx_t *ctx, const ra_line_t *ln)
{
    char        q[RA_LINT_QBUF], k[RA_LINT_QBUF + 8], said[160];
    ra_str_t    list = ln->value, item, key, val;
    const unsigned char *eq;
    uint32_t    col = ra_lint_col(ln, ln->key_text.data);
    unsigned    c, seen = 0, bad = 0;
    size_t      n = 0, j;
    int         yes;

    if (ctx->ngroups == 0) {
        ra_lint_add(ctx, RA_LC_CONTENT_SIGNAL, ln->line, col, 0,
            "Content-Signal before any User-agent line: Cloudflare's Content "
            "Signals Policy puts it in a group (User-agent: * for every "
            "reader); readers may ignore it here");
    }
    if (list.len == 0) {
        ra_lint_add(ctx, RA_LC_CONTENT_SIGNAL, ln->line, col, 0,
            "Content-Signal with no signal: write search=, ai-input= or "
            "ai-train= with yes or no");
        return;
    }
    said[0] = '\0';
    while (ra_lint_next_item(&list, &item)) {
        col = ra_lint_col(ln, item.data);
        eq = item.len ? memchr(item.data, '=', item.len) : NULL;
        if (eq == NULL) {
            ra_lint_add(ctx, RA_LC_CONTENT_SIGNAL, ln->line, col, 0,
                "Content-Signal item '%s' is not name=yes|no: readers "
                "ignore it", ra_lint_quote(q, item));
            bad = 1;
            continue;
        }
        key = ra_lint_trim(ra_str(item.data, (size_t) (eq - item.data)));
        val = ra_lint_trim(ra_str(eq + 1, item.len
                                  - (size_t) (eq - item.data) - 1));
        for (c = 0; c < 3; c++) {
            if (ra_lint_is(key, ra_lint_signal_names[c])) {
                break;
            }
        }
        if (c == 3) {
            ra_lint_add(ctx, RA_LC_CONTENT_SIGNAL, ln->line, col, 0,
                "unknown content signal '%s': Cloudflare's Content Signals "
                "Policy defines search, ai-input and ai-train; readers "
                "ignore it%s", ra_lint_quote(q, key),
                ra_lint_is(key, "train-ai")
                ? " (train-ai is Content-Usage's name; Content-Signal's is "
                  "ai-train)" : "");
            bad = 1;
            continue;
        }
        yes = ra_lint_is(val, "yes") ? 1 : ra_lint_is(val, "no") ? 0 : -1;
        if (yes < 0) {
            ra_lint_add(ctx, RA_LC_CONTENT_SIGNAL, ln->line, col, 0,
                "content signal %s='%s': the value is yes or no; readers "
                "take no preference from it%s", ra_lint_signal_names[c],
                ra_lint_quote(q, val),
                ra_lint_is(val, "y") || ra_lint_is(val, "n")
                ? " (y and n are Content-Usage's values)" : "");
            bad = 1;
            continue;
        }
        if ((seen | ctx->signals_seen) & (1u << c)) {
            ra_lint_add(ctx, RA_LC_CONTENT_SIGNAL, ln->line, col, 0,
                "content signal '%s' given twice in this group: readers "
                "may take either", ra_lint_signal_names[c]);
        }
        seen |= 1u << c;
        if (n < sizeof(said) - 40) {
            n += (size_t) snprintf(said + n, sizeof(said) - n, "%s%s %s",
                                   n ? ", " : "", ra_lint_signal_names[c],
                                   yes ? "allowed" : "not allowed");
        }
    }
    ctx->signals_seen |= seen;
    if (seen == 0) {
        return;
    }
    for (c = 0, j = 0; c < 3; c++) {
        if (!(ctx->signals_seen & (1u << c)) && n < sizeof(said) - 40) {
            n += (size_t) snprintf(said + n, sizeof(said) - n, "%s%s",
                                   j++ ? ", " : "; not stated: ",
                                   ra_lint_signal_names[c]);
        }
    }
    if (ctx->ngroups) {
        snprintf(k, sizeof(k), "'%s'", ra_lint_quote(q, ctx->group_agent));
    } else {
        snprintf(k, sizeof(k), "no group");
    }
    ra_lint_add(ctx, RA_LC_AI_PREFERENCE, ln->line,
        ra_lint_col(ln, ln->key_text.data), 0,
        "Content-Signal for %s: %s (Cloudflare's Content Signals Policy; "
        "a statement of use, crawling is unchanged)%s", k, said,
        bad ? "; the items warned about say nothing" : "");
    ra_lint_keep_pref(ctx, ln->line, RA_LINT_PREF_SIGNAL,
                      ctx->ngroups ? ctx->group_agent : ra_str("", 0),
                      ln->value);
}

/* Case-sensitive: aipref labels and tokens are bytes. */
static int
ra_lint_eq_cs(ra_str_t s, const char *lit)
{
    size_t  n = strlen(lit);

    return s.len == n && memcmp(s.data, lit, n) == 0;
}

static const char  *ra_lint_usage_names[] = { "train-ai", "search" };
static const char  *ra_lint_usage_what[] = { "AI model training",
                                             "search" };

/* Content-Signal's words in a Content-Usage line, and the other way */
static const char *
ra_lint_usage_mixup(ra_str_t key)
{
    if (ra_lint_eq_cs(key, "ai-train")) {
        return " (ai-train is Content-Signal's name; Content-Usage's is "
               "train-ai)";
    }
    if (ra_lint_eq_cs(key, "ai-input")) {
        return " (ai-input is Content-Signal's; the aipref vocabulary has "
               "no such category)";
    }
    return "";
}

/*
 * A category this group's rule for the same path stated already: the
 * rules combine, the most restrictive preference applies
 * (draft-ietf-aipref-attach 3.1), which a reader of either line alone
 * would not guess.  The first RA_LINT_USAGE_PATHS paths of a group are
 * compared.
 */
static void
ra_lint_usage_again(ra_lint_ctx_t *ctx, const ra_line_t *ln, ra_str_t pspan,
    const char *path, unsigned seen, const int *pref)
{
    unsigned  i, c, allow = 0;

    for (c = 0; c < 2; c++) {
        allow |= (seen & (1u << c)) && pref[c] ? 1u << c : 0;
    }
    for (i = 0; i < ctx->nusage; i++) {
        if (ctx->usage_paths[i].len == pspan.len
            && memcmp(ctx->usage_paths[i].data, pspan.data, pspan.len) == 0)
        {
            break;
        }
    }
    if (i == ctx->nusage) {
        if (ctx->nusage < RA_LINT_USAGE_PATHS) {
            ctx->usage_paths[i] = pspan;
            ctx->usage_lines[i] = ln->line;
            ctx->usage_seen[i] = (uint8_t) seen;
            ctx->usage_allow[i] = (uint8_t) allow;
            ctx->nusage++;
        }
        return;
    }
    for (c = 0; c < 2; c++) {
        if (seen & ctx->usage_seen[i] & (1u << c)) {
            ra_lint_add(ctx, RA_LC_CONTENT_USAGE, ln->line,
                ra_lint_col(ln, ln->key_text.data), 0,
                "'%s' is stated for %s%s%s on line %u too, in this group: "
                "readers combine the two rules and the most restrictive "
                "applies (%s %s; draft-ietf-aipref-attach)",
                ra_lint_usage_names[c], path[0] ? "'" : "",
                path[0] ? path : "every path", path[0] ? "'" : "",
                ctx->usage_lines[i], ra_lint_usage_what[c],
                allow & ctx->usage_allow[i] & (1u << c) ? "allowed"
                                                        : "not allowed");
        }
    }
    ctx->usage_allow[i] = (uint8_t) ((ctx->usage_allow[i] & allow)
                                     | (ctx->usage_allow[i] & ~seen)
                                     | (allow & ~ctx->usage_seen[i]));
    ctx->usage_seen[i] |= (uint8_t) seen;
}

static void
ra_lint_content_usage(ra_lint_ctx_t *ctx, const ra_line_t *ln)
{
    char            q[RA_LINT_QBUF], k[RA_LINT_QBUF], path[RA_LINT_QBUF];
    char            said[200];
    ra_str_t        v = ln->value, list, key, val, pspan;
    ra_sf_cur_t     sf;
    ra_sf_member_t  m;
    uint32_t        col = ra_lint_col(ln, ln->key_text.data);
    unsigned        c, seen = 0;
    size_t          i, n = 0;
    int             y, rc, pref[2] = { 0, 0 };

    if (ctx->ngroups == 0) {
        ra_lint_add(ctx, RA_LC_CONTENT_USAGE, ln->line, col, 0,
            "Content-Usage before any User-agent line: "
            "draft-ietf-aipref-attach makes it a rule of a group; readers "
            "ignore it here");
        return;
    }
    path[0] = '\0';
    list = v;
    pspan = ra_str(v.data, 0);
    if (v.len && v.data[0] == '/') {
        for (i = 0; i < v.len && v.data[i] != ' ' && v.data[i] != '\t'; i++) {
            /* void */
        }
        pspan = ra_str(v.data, i);
        ra_lint_quote(path, pspan);
        list = ra_lint_trim(ra_str(v.data + i, v.len - i));
    }
    if (list.len == 0) {
        ra_lint_add(ctx, RA_LC_CONTENT_USAGE, ln->line, col, 0,
            "Content-Usage with no preference: write train-ai=y|n or "
            "search=y|n (draft-ietf-aipref-vocab)");
        return;
    }
    /* the whole value parses as a Structured Fields dictionary (RFC
     * 9651, Dates and Display Strings too), or it states nothing; a
     * member's value is its bare item or inner list, parameters left out
     * (y is the token y, "y" a string) */
    ra_sf_init(&sf, list, RA_SF_9651);
    while ((rc = ra_sf_dict_next(&sf, &m)) > 0) {
        /* void */
    }
    if (rc < 0) {
        ra_lint_add(ctx, RA_LC_CONTENT_USAGE, ln->line,
            ra_lint_col(ln, sf.p < sf.end ? sf.p : sf.end - 1), 0,
            "Content-Usage '%s' does not parse as a Structured Fields "
            "dictionary (RFC 9651: %s): readers take no preference from "
            "the line, every category stays unknown",
            ra_lint_quote(q, list), sf.why);
        return;
    }
    said[0] = '\0';
    ra_sf_init(&sf, list, RA_SF_9651);
    while (ra_sf_dict_next(&sf, &m) > 0) {
        key = m.key;
        val = m.value;
        col = ra_lint_col(ln, key.data);
        for (c = 0; c < 2; c++) {
            if (ra_lint_eq_cs(key, ra_lint_usage_names[c])) {
                break;
            }
        }
        if (c == 2) {
            ra_lint_add(ctx, RA_LC_CONTENT_USAGE, ln->line, col, 0,
                "unknown usage category '%s': draft-ietf-aipref-vocab "
                "defines train-ai and search; readers ignore it%s",
                ra_lint_quote(q, key), ra_lint_usage_mixup(key));
            continue;
        }
        y = ra_lint_eq_cs(val, "y") ? 1 : ra_lint_eq_cs(val, "n") ? 0 : -1;
        if (y < 0) {
            ra_lint_add(ctx, RA_LC_CONTENT_USAGE, ln->line, col, 0,
                "%s='%s': the value is the token y or n; the preference "
                "for %s stays unknown%s", ra_lint_usage_names[c],
                ra_lint_quote(q, val), ra_lint_usage_what[c],
                ra_lint_eq_cs(val, "yes") || ra_lint_eq_cs(val, "no")
                ? " (yes and no are Content-Signal's values)" : "");
            seen &= ~(1u << c);
            continue;
        }
        if (seen & (1u << c)) {
            ra_lint_add(ctx, RA_LC_CONTENT_USAGE, ln->line, col, 0,
                "'%s' given twice: only the last one applies",
                ra_lint_usage_names[c]);
        }
        seen |= 1u << c;
        pref[c] = y;
    }
    if (seen == 0) {
        return;
    }
    ra_lint_usage_again(ctx, ln, pspan, path, seen, pref);
    for (c = 0; c < 2; c++) {
        if (seen & (1u << c)) {
            n += (size_t) snprintf(said + n, sizeof(said) - n, "%s%s %s",
                                   n ? ", " : "", ra_lint_usage_what[c],
                                   pref[c] ? "allowed" : "not allowed");
        }
    }
    ra_lint_add(ctx, RA_LC_AI_PREFERENCE, ln->line,
        ra_lint_col(ln, ln->key_text.data), 0,
        "Content-Usage for '%s'%s%s: %s (draft-ietf-aipref-attach; for "
        "what this group may crawl, crawling is unchanged)",
        ra_lint_quote(k, ctx->group_agent), path[0] ? " on " : "", path,
        said);
    ra_lint_keep_pref(ctx, ln->line, RA_LINT_PREF_USAGE, ctx->group_agent,
                      ln->value);
}

/* 1 when the line is an AI-preference line (and was linted). */
static int
ra_lint_ai_pref(ra_lint_ctx_t *ctx, const ra_line_t *ln)
{
    int  signal = ra_lint_is(ln->key_text, "content-signal");

    if (!signal && !ra_lint_is(ln->key_text, "content-usage")) {
        return 0;
    }
    if (ctx->ngroups && ctx->ngroups <= ctx->groups_cap) {
        ctx->groups[ctx->ngroups - 1].prefs = 1;
    }
    if (signal) {
        ra_lint_content_signal(ctx, ln);
    } else {
        ra_lint_content_usage(ctx, ln);
    }
    return 1;
}

/* The table's policy entry for tok, or NULL. */
static const ra_crawler_t *
ra_lint_policy(const ra_lint_ctx_t *ctx, ra_str_t tok)
{
    const ra_crawler_t  *c;

    if (ctx->crawlers == NULL || tok.len == 0) {
        return NULL;
    }
    c = ra_crawlers_find_token(ctx->crawlers, tok);
    return c != NULL && (c->flags & RA_CRAWLER_POLICY) ? c : NULL;
}

/*
 * A User-agent naming a policy token (Google-Extended): no crawler
 * fetches with that name, its operator's crawlers read the group to learn
 * whether content may be used for a purpose.
 */
static void
ra_lint_policy_token(ra_lint_ctx_t *ctx, const ra_line_t *ln, ra_str_t tok)
{
    const ra_crawler_t  *c;
    char                 q[RA_LINT_QBUF], what[RA_LINT_PREF_TEXT + 64];

    c = ra_lint_policy(ctx, tok);
    if (c == NULL) {
        return;
    }
    if (c->purpose.len) {
        snprintf(what, sizeof(what), "%.*s", (int) c->purpose.len,
                 (const char *) c->purpose.data);
    } else {
        snprintf(what, sizeof(what), "a use its operator defines");
    }
    ra_lint_add(ctx, RA_LC_POLICY_TOKEN, ln->line,
        ra_lint_col(ln, ln->value.data), 0,
        "'%s' is a policy token of %.*s: a group for it controls use of "
        "content for %s; no crawler fetches with this name, so it never "
        "shows up in logs", ra_lint_quote(q, tok),
        (int) c->operator_name.len, (const char *) c->operator_name.data,
        what);
    ra_lint_keep_pref(ctx, ln->line, RA_LINT_PREF_POLICY, c->tokens[0],
                      ra_str(what, strlen(what)));
}

static void
ra_lint_unknown(ra_lint_ctx_t *ctx, const ra_line_t *ln)
{
    size_t    i;
    char      q[RA_LINT_QBUF];
    uint32_t  col = ra_lint_col(ln, ln->key_text.data);

    if (ra_lint_ai_pref(ctx, ln)) {
        return;
    }
    if (ra_lint_is(ln->key_text, "crawl-delay")) {
        if (ctx->ngroups == 0) {
            ra_lint_add(ctx, RA_LC_OUTSIDE_GROUP, ln->line, col, 0,
                "Crawl-delay before any User-agent line: crawlers that "
                "honour it (Bing, Yandex) read it only inside a group");
            return;
        }
        ra_lint_crawl_delay(ctx, ln);
        return;
    }
    for (i = 0; i < sizeof(ra_lint_meta_keys) / sizeof(char *); i++) {
        if (ra_lint_is(ln->key_text, ra_lint_meta_keys[i])) {
            ra_lint_add(ctx, RA_LC_NOINDEX, ln->line, col, 0,
                "'%s' is not a robots.txt rule: Google dropped it in 2019 "
                "and no major crawler reads it; use a robots meta tag or "
                "an X-Robots-Tag header on pages crawlers may fetch",
                ra_lint_quote(q, ln->key_text));
            return;
        }
    }
    for (i = 0; i < sizeof(ra_lint_nonstandard)
                    / sizeof(ra_lint_nonstandard[0]); i++)
    {
        if (ra_lint_is(ln->key_text, ra_lint_nonstandard[i].key)) {
            ra_lint_add(ctx, RA_LC_NONSTANDARD_KEY, ln->line, col, 0,
                "'%s' is %s: Google and Bing ignore it",
                ra_lint_quote(q, ln->key_text), ra_lint_nonstandard[i].what);
            return;
        }
    }
    ra_lint_add(ctx, RA_LC_UNKNOWN_KEY, ln->line, col, 0,
        "unknown directive '%s': crawlers ignore the line",
        ra_lint_quote(q, ln->key_text));
}

static void
ra_lint_user_agent(ra_lint_ctx_t *ctx, const ra_line_t *ln)
{
    char      q[RA_LINT_QBUF], t[RA_LINT_QBUF];
    ra_str_t  v = ln->value, tok, rest;
    uint32_t  col;

    if (ctx->ngroups == 0 || ctx->in_rules) {
        if (ctx->ngroups < ctx->groups_cap) {
            ra_lint_group_t  *g = &ctx->groups[ctx->ngroups];

            g->line = ln->line;
            g->first = ctx->nrules;
            g->nrules = 0;
            g->global = 0;
            g->prefs = 0;
            g->ruled = 0;
        }
        ctx->ngroups++;
        ctx->in_rules = 0;
        ctx->group_agent = v;
        ctx->signals_seen = 0;
        ctx->nusage = 0;
    }
    ctx->out->summary.agents++;

    if (v.len == 0) {
        ra_lint_add(ctx, RA_LC_UA_EMPTY, ln->line,
            ra_lint_col(ln, ln->key_text.data), 0,
            "empty User-agent: the group applies to no crawler (use '*' "
            "for every crawler)");
        return;
    }
    col = ra_lint_col(ln, v.data);
    if (ra_ua_is_global(v)) {
        if (ctx->ngroups <= ctx->groups_cap) {
            ctx->groups[ctx->ngroups - 1].global = 1;
        }
        if (v.len > 1) {
            ra_lint_add(ctx, RA_LC_UA_TOKEN, ln->line, col, 0,
                "Google reads '%s' as '*' (every crawler); other crawlers "
                "may read it as a name that matches nothing",
                ra_lint_quote(q, v));
        }
        return;
    }
    tok = ra_ua_token(v);
    ra_lint_policy_token(ctx, ln, tok);
    rest = ra_str(v.data + tok.len, v.len - tok.len);
    if (rest.len == 0) {
        return;
    }
    if (tok.len == 0) {
        ra_lint_add(ctx, RA_LC_UA_TOKEN, ln->line, col, 0,
            "Google reads no product token in '%s' (tokens are letters, "
            "'-' and '_'): the group applies to no crawler in Google's "
            "reading", ra_lint_quote(q, v));
    } else if (rest.data[0] == '/' || ra_isspace(rest.data[0])) {
        ra_lint_add(ctx, RA_LC_UA_VERSION, ln->line, col, 0,
            "Google reads '%s' as '%s': fine for Google, but other "
            "crawlers may compare the whole value; write only the product "
            "token", ra_lint_quote(q, v), ra_lint_quote(t, tok));
    } else {
        ra_lint_add(ctx, RA_LC_UA_TOKEN, ln->line, col, 0,
            "Google cuts '%s' to '%s' (tokens are letters, '-' and '_'): a "
            "crawler whose token is '%s' never matches this group in "
            "Google's parser; other crawlers may match it",
            ra_lint_quote(q, v), ra_lint_quote(t, tok), q);
    }
}

static void
ra_lint_sitemap(ra_lint_ctx_t *ctx, const ra_line_t *ln)
{
    char                  q[RA_LINT_QBUF];
    ra_str_t              v = ln->value;
    size_t                skip = 0;
    const unsigned char  *p;

    if (v.len == 0) {
        ra_lint_add(ctx, RA_LC_SITEMAP_URL, ln->line,
            ra_lint_col(ln, ln->key_text.data), 0,
            "Sitemap with no URL: crawlers ignore the line");
        return;
    }
    ctx->out->summary.sitemaps++;
    if (ra_startswith_ci(v, "http://")) {
        skip = 7;
    } else if (ra_startswith_ci(v, "https://")) {
        skip = 8;
    }
    if (skip == 0 || v.len == skip || v.data[skip] == '/') {
        ra_lint_add(ctx, RA_LC_SITEMAP_URL, ln->line, ra_lint_col(ln, v.data),
            0,
            "Sitemap '%s' is not an absolute http(s) URL: crawlers ignore "
            "it (write https://host/path)", ra_lint_quote(q, v));
        return;
    }
    for (p = v.data; p < v.data + v.len; p++) {
        if (*p == ' ' || *p == '\t') {
            ra_lint_add(ctx, RA_LC_SITEMAP_URL, ln->line,
                ra_lint_col(ln, p), 0,
                "Sitemap URL contains white space: crawlers read a "
                "different URL or none (encode it as %%20)");
            return;
        }
    }
}

/* memmem() is a GNU extension; the core builds as plain C11 + POSIX. */
static const unsigned char *
ra_lint_memmem(const void *hay, size_t n, const void *needle, size_t m)
{
    const unsigned char  *h = hay, *end, *p;

    if (m == 0) {
        return h;
    }
    if (n < m) {
        return NULL;
    }
    end = h + n - m + 1;
    for (p = h; p < end; p++) {
        p = memchr(p, *(const unsigned char *) needle, (size_t) (end - p));
        if (p == NULL) {
            return NULL;
        }
        if (memcmp(p, needle, m) == 0) {
            return p;
        }
    }
    return NULL;
}

/* Unreserved (RFC 3986) bytes: a %-escape of one is decoded by RFC 9309
 * matching but compared as written by Google. */
static int
ra_lint_unreserved(int c)
{
    return ra_isalpha(c) || ra_isdigit(c) || c == '-' || c == '.' || c == '_'
           || c == '~';
}

/* Bytes that neither mode rewrites: unreserved and the reserved
 * delimiters.  Shadowing is decided only on patterns made of these, so
 * that both modes agree on what each pattern matches and on its length. */
static int
ra_lint_plain_byte(int c)
{
    return ra_lint_unreserved(c) || (c && strchr("!$&'()*+,;=:@/?", c));
}

static void
ra_lint_path(ra_lint_ctx_t *ctx, const ra_line_t *ln, ra_rule_type_e type)
{
    size_t                i;
    int                   hi, lo, diff_done = 0;
    char                  q[RA_LINT_QBUF], e[RA_LINT_QBUF];
    ra_str_t              v = ln->value;
    const unsigned char  *p = v.data;
    const char           *kind = type == RA_RULE_ALLOW ? "Allow" : "Disallow";

    if (p[0] != '/' && p[0] != '*') {
        ra_lint_add(ctx, RA_LC_PATH_START, ln->line, ra_lint_col(ln, p), 0,
            "%s '%s' does not start with '/' or '*': Google never matches "
            "it (paths are matched from their first '/')", kind,
            ra_lint_quote(q, v));
        return;
    }

    for (i = 0; i < v.len; i++) {
        if (p[i] == ' ' || p[i] == '\t') {
            ra_lint_add(ctx, RA_LC_PATH_SPACE, ln->line,
                ra_lint_col(ln, p + i), 0,
                "%s '%s' contains white space: URLs carry it as %%20, so "
                "Google never matches this rule (RFC 9309 crawlers encode "
                "it first and may)", kind, ra_lint_quote(q, v));
            break;
        }
    }

    for (i = 0; i + 1 < v.len; i++) {
        if (p[i] == '$') {
            ra_lint_add(ctx, RA_LC_DOLLAR_MIDDLE, ln->line,
                ra_lint_col(ln, p + i), 0,
                "'$' ends a pattern only as its last character: here "
                "Google reads it as a literal '$' in the URL");
            break;
        }
    }

    for (i = 0; i < v.len; i++) {
        if (p[i] == '%') {
            hi = i + 1 < v.len ? ra_hexval(p[i + 1]) : -1;
            lo = i + 2 < v.len ? ra_hexval(p[i + 2]) : -1;
            if (hi < 0 || lo < 0) {
                ra_lint_add(ctx, RA_LC_BAD_PERCENT, ln->line,
                    ra_lint_col(ln, p + i), 0,
                    "'%%' not followed by two hex digits: no %%-encoded "
                    "URL contains a bare '%%' (it is sent as %%25), so "
                    "the rule does not match as written");
                break;
            }
            if (diff_done) {
                continue;
            }
            if ((hi << 4 | lo) == '*' || (hi << 4 | lo) == '$') {
                ra_lint_add(ctx, RA_LC_RFC_GOOGLE_DIFF, ln->line,
                    ra_lint_col(ln, p + i), 0,
                    "'%%%c%c' stands for a literal '%c' in RFC 9309 "
                    "matching; Google compares it only with a URL that "
                    "has the same escape, never with a raw '%c'",
                    p[i + 1], p[i + 2], hi << 4 | lo, hi << 4 | lo);
                diff_done = 1;
            } else if (ra_lint_unreserved(hi << 4 | lo)) {
                ra_lint_add(ctx, RA_LC_RFC_GOOGLE_DIFF, ln->line,
                    ra_lint_col(ln, p + i), 0,
                    "'%%%c%c' encodes '%c', which RFC 9309 crawlers decode "
                    "before matching; Google compares it as written, so "
                    "it does not match a URL with a plain '%c'",
                    p[i + 1], p[i + 2], hi << 4 | lo, hi << 4 | lo);
                diff_done = 1;
            }
        } else if (p[i] >= 0x80 && !diff_done) {
            size_t  n = i + 4 < v.len ? 4 : v.len - i;

            if (ra_lint_utf8_bad(p + i, n) == 0) {
                continue;   /* invalid UTF-8: reported per line already */
            }
            ra_lint_add(ctx, RA_LC_RFC_GOOGLE_DIFF, ln->line,
                ra_lint_col(ln, p + i), 0,
                "non-ASCII '%s' in a pattern: Google %%-encodes it and "
                "matches only URLs sent %%-encoded; RFC 9309 crawlers "
                "also match the raw UTF-8 form",
                ra_lint_quote(e, ra_str(p + i, n > 4 ? 4 : n)));
            diff_done = 1;
        }
    }

    if (type == RA_RULE_DISALLOW
        && ra_lint_memmem(p, v.len, "robots.txt", 10) != NULL)
    {
        ra_lint_add(ctx, RA_LC_ROBOTS_TXT_RULE, ln->line, ra_lint_col(ln, p),
            0,
            "disallowing robots.txt has no effect: RFC 9309 says it is "
            "always allowed and crawlers fetch it anyway (only Google's "
            "library reports it disallowed)");
    }
}

/* Google's pattern normalisation (robots.cc MaybeEscapePattern): bytes
 * >= 0x80 become %XX, existing escapes get upper-case hex. */
static int
ra_lint_normalise(ra_lint_ctx_t *ctx, ra_lint_rule_t *r)
{
    static const char     hex[] = "0123456789ABCDEF";
    size_t                i, n = 0;
    int                   need = 0;
    unsigned char        *d;
    const unsigned char  *p = r->value.data;

    r->norm = r->value;
    r->plain = 1;
    for (i = 0; i < r->value.len; i++) {
        if (!ra_lint_plain_byte(p[i])) {
            r->plain = 0;
        }
        if (p[i] >= 0x80 || p[i] == '%') {
            need = 1;
        }
    }
    if (!need) {
        return RA_OK;
    }
    d = ra_alloc(ctx->a, r->value.len * 3);
    if (d == NULL) {
        return RA_ENOMEM;
    }
    for (i = 0; i < r->value.len; i++) {
        if (p[i] >= 0x80) {
            d[n++] = '%';
            d[n++] = (unsigned char) hex[p[i] >> 4];
            d[n++] = (unsigned char) hex[p[i] & 0xf];
        } else if (p[i] == '%' && i + 2 < r->value.len
                   && ra_isxdigit(p[i + 1]) && ra_isxdigit(p[i + 2]))
        {
            d[n++] = '%';
            d[n++] = (unsigned char) (ra_isdigit(p[i + 1]) ? p[i + 1]
                                      : p[i + 1] & ~0x20);
            d[n++] = (unsigned char) (ra_isdigit(p[i + 2]) ? p[i + 2]
                                      : p[i + 2] & ~0x20);
            i += 2;
        } else {
            d[n++] = p[i];
        }
    }
    r->norm = ra_str(d, n);
    return RA_OK;
}

static int
ra_lint_rule(ra_lint_ctx_t *ctx, const ra_line_t *ln)
{
    ra_rule_type_e   type;
    ra_lint_rule_t  *r;
    char             q[RA_LINT_QBUF];

    type = ln->key == RA_KEY_ALLOW ? RA_RULE_ALLOW : RA_RULE_DISALLOW;

    if (ctx->ngroups == 0) {
        ra_lint_add(ctx, RA_LC_OUTSIDE_GROUP, ln->line,
            ra_lint_col(ln, ln->key_text.data), 0,
            "%s '%s' before any User-agent line: crawlers ignore it "
            "(RFC 9309 2.2.2); put it under 'User-agent: *'",
            type == RA_RULE_ALLOW ? "Allow" : "Disallow",
            ra_lint_quote(q, ln->value));
        return RA_OK;
    }
    ctx->in_rules = 1;
    if (ctx->ngroups <= ctx->groups_cap) {
        ctx->groups[ctx->ngroups - 1].ruled = 1;
    }
    if (ln->value.len == 0) {
        return RA_OK;       /* "Disallow:" allows everything, as intended */
    }

    ctx->out->summary.rules++;
    if (type == RA_RULE_ALLOW) {
        ctx->out->summary.allows++;
    } else {
        ctx->out->summary.disallows++;
    }

    ra_lint_path(ctx, ln, type);

    if (ctx->nrules >= ctx->rules_cap || ctx->ngroups > ctx->groups_cap) {
        return RA_OK;       /* cannot happen: the first pass counted */
    }
    r = &ctx->rules[ctx->nrules++];
    r->line = ln->line;
    r->column = ra_lint_col(ln, ln->value.data);
    r->type = type;
    r->value = ln->value;
    ctx->groups[ctx->ngroups - 1].nrules++;
    return ra_lint_normalise(ctx, r);
}

static int
ra_lint_line(void *data, const ra_line_t *ln)
{
    ra_lint_ctx_t  *ctx = data;
    char            q[RA_LINT_QBUF];
    uint32_t        col;
    const char     *name;

    ctx->out->summary.lines = ln->line;
    ctx->last_offset = ln->offset;

    if (ln->flags & RA_LF_SIZE_CUT) {
        /* the 500 KiB limit falls inside this line: ra_rules ignores it,
         * and ra_lint_size() reports it with what comes after */
        ctx->cut_mid = 1;
        ctx->cut_line = ln->line;
        ctx->cut_offset = ln->offset;
        ctx->cut = *ln;
        return ctx->rc;
    }

    ra_lint_bytes(ctx, ln);

    if (ln->kind == RA_LINE_INVALID) {
        ra_lint_add(ctx, RA_LC_INVALID_LINE, ln->line, 1, 0,
            "'%s' is not a 'key: value' line: crawlers ignore it%s",
            ra_lint_quote(q, ra_lint_trim(ln->raw)),
            (ln->flags & RA_LF_MANY_TOKENS)
            ? " (Google accepts a missing ':' only with exactly two words)"
            : "");
        return ctx->rc;
    }
    if (ln->kind != RA_LINE_DIRECTIVE) {
        return ctx->rc;
    }

    col = ra_lint_col(ln, ln->key_text.data);
    name = ra_key_name(ln->key);

    if (ln->key != RA_KEY_UNKNOWN) {
        if (ln->flags & RA_LF_TYPO) {
            ra_lint_add(ctx, RA_LC_TYPO, ln->line, col, 0,
                "'%s' is a misspelling of '%s' that Google accepts; other "
                "crawlers ignore the line", ra_lint_quote(q, ln->key_text),
                name);
        } else if (ln->flags & RA_LF_KEY_PREFIX) {
            ra_lint_add(ctx, RA_LC_KEY_PREFIX, ln->line, col, 0,
                "Google reads '%s' as '%s' (it matches keys by prefix); "
                "other crawlers ignore the line",
                ra_lint_quote(q, ln->key_text), name);
        }
        if (ln->flags & RA_LF_NO_COLON) {
            ra_lint_add(ctx, RA_LC_NO_COLON, ln->line, col, 0,
                "no ':' after '%s': Google accepts it, other crawlers "
                "ignore the line", ra_lint_quote(q, ln->key_text));
        }
    }

    switch (ln->key) {
    case RA_KEY_USER_AGENT:
        ra_lint_user_agent(ctx, ln);
        break;
    case RA_KEY_ALLOW:
    case RA_KEY_DISALLOW:
        if (ra_lint_rule(ctx, ln) != RA_OK) {
            ctx->rc = RA_ENOMEM;
        }
        break;
    case RA_KEY_SITEMAP:
        ra_lint_sitemap(ctx, ln);
        break;
    default:
        ra_lint_unknown(ctx, ln);
        break;
    }
    return ctx->rc;
}

typedef struct {
    uint32_t  rules;
    uint32_t  agents;
} ra_lint_count_t;

static int
ra_lint_count(void *data, const ra_line_t *ln)
{
    ra_lint_count_t  *c = data;

    if (ln->kind == RA_LINE_DIRECTIVE) {
        if (ln->key == RA_KEY_ALLOW || ln->key == RA_KEY_DISALLOW) {
            c->rules++;
        } else if (ln->key == RA_KEY_USER_AGENT) {
            c->agents++;
        }
    }
    return RA_OK;
}


/* ------------------------------------------------------------------ */
/* past 500 KiB                                                         */

typedef struct {
    uint32_t  rules;
    uint32_t  sitemaps;
    size_t    last_offset;
    unsigned  last_cut:1;
    ra_key_e  first_key, last_key;
    ra_str_t  first, last;          /* values of the first and last lost
                                       rules, spans of the body */
} ra_lint_rest_t;

static int
ra_lint_rest_line(void *data, const ra_line_t *ln)
{
    ra_lint_rest_t  *r = data;

    r->last_offset = ln->offset;
    r->last_cut = (ln->flags & RA_LF_SIZE_CUT) != 0;
    /* a line cut by this window is counted whole in the next one, unless
     * it fills the window: its key is in its first bytes anyway */
    if (r->last_cut && ln->offset != 0) {
        return RA_OK;
    }
    if (ln->kind == RA_LINE_DIRECTIVE && ln->value.len) {
        if (ln->key == RA_KEY_ALLOW || ln->key == RA_KEY_DISALLOW) {
            if (r->rules++ == 0) {
                r->first_key = ln->key;
                r->first = ln->value;
            }
            r->last_key = ln->key;
            r->last = ln->value;
        } else if (ln->key == RA_KEY_SITEMAP) {
            r->sitemaps++;
        }
    }
    return RA_OK;
}

static void
ra_lint_size(ra_lint_ctx_t *ctx, const ra_lint_http_t *h,
    const ra_parse_info_t *info)
{
    size_t                pos, n;
    uint32_t              line, col;
    ra_lint_rest_t        rest;
    const unsigned char  *nl;
    char                  q[RA_LINT_QBUF], cutq[RA_LINT_QBUF * 2];
    char                  f[RA_LINT_QBUF], l[RA_LINT_QBUF];
    char                  which[RA_LINT_QBUF * 2 + 64];
    ra_str_t              b = ctx->body;

    memset(&rest, 0, sizeof(rest));
    if (ctx->cut_mid) {
        /* the cut line is lost too: count it whole */
        pos = ctx->cut_offset;
        line = ctx->cut_line;
        col = (uint32_t) (RA_ROBOTS_MAX - ctx->cut_offset) + 1;
    } else {
        /* the limit meets a line terminator: the finding goes where it
         * falls, at the end of the last line read (not on a line after
         * it, which the summary's count of lines does not hold) */
        pos = RA_ROBOTS_MAX;
        line = info->lines;
        col = (uint32_t) (RA_ROBOTS_MAX - ctx->last_offset) + 1;
    }

    /* parse what is left in windows of RA_ROBOTS_MAX bytes */
    while (pos < b.len) {
        n = b.len - pos;
        ra_parse(ra_str(b.data + pos, n), ra_lint_rest_line, &rest, NULL);
        if (n <= RA_ROBOTS_MAX) {
            break;
        }
        if (rest.last_cut && rest.last_offset > 0) {
            pos += rest.last_offset;
            continue;
        }
        /* one line fills the window: resume after its end */
        nl = NULL;
        if (pos + RA_ROBOTS_MAX < b.len) {
            const unsigned char  *s = b.data + pos + RA_ROBOTS_MAX;
            const unsigned char  *e = b.data + b.len;

            for (nl = s; nl < e && *nl != '\n' && *nl != '\r'; nl++) {
                /* void */
            }
        }
        if (nl == NULL || nl >= b.data + b.len) {
            break;
        }
        pos = (size_t) (nl - b.data);
    }

    ctx->out->summary.lost_rules = rest.rules;

    cutq[0] = '\0';
    if (ctx->cut_mid && ctx->cut.kind == RA_LINE_DIRECTIVE
        && (ctx->cut.key == RA_KEY_ALLOW || ctx->cut.key == RA_KEY_DISALLOW)
        && ctx->cut.value.len)
    {
        snprintf(cutq, sizeof(cutq),
            "; the limit cuts this line to '%s: %s': a crawler that keeps "
            "the cut text applies that shorter rule",
            ra_key_name(ctx->cut.key), ra_lint_quote(q, ctx->cut.value));
    }

    which[0] = '\0';
    if (rest.rules == 1) {
        snprintf(which, sizeof(which), " ('%s: %s')",
            ra_key_name(rest.first_key), ra_lint_quote(f, rest.first));
    } else if (rest.rules > 1) {
        snprintf(which, sizeof(which), " ('%s: %s' to '%s: %s')",
            ra_key_name(rest.first_key), ra_lint_quote(f, rest.first),
            ra_key_name(rest.last_key), ra_lint_quote(l, rest.last));
    }

    ra_lint_add(ctx, RA_LC_SIZE_LIMIT, line, col, rest.rules,
        "the file is %zu bytes: crawlers read only the first %d (500 KiB), "
        "so %s%u rule%s%s and %u sitemap%s from here on are ignored%s",
        h && h->size ? h->size : b.len, RA_ROBOTS_MAX,
        h && h->truncated ? "at least " : "",
        rest.rules, rest.rules == 1 ? "" : "s", which,
        rest.sitemaps, rest.sitemaps == 1 ? "" : "s", cutq);
}


/* ------------------------------------------------------------------ */
/* groups                                                               */

static int
ra_lint_rule_cmp(const void *pa, const void *pb)
{
    const ra_lint_rule_t  *a = pa, *b = pb;
    size_t                 n = a->norm.len < b->norm.len ? a->norm.len
                                                         : b->norm.len;
    int                    c = n ? memcmp(a->norm.data, b->norm.data, n) : 0;

    if (c != 0) {
        return c;
    }
    if (a->norm.len != b->norm.len) {
        return a->norm.len < b->norm.len ? -1 : 1;
    }
    if (a->type != b->type) {
        return a->type == RA_RULE_ALLOW ? -1 : 1;
    }
    return a->line < b->line ? -1 : a->line > b->line;
}

/*
 * Does pattern s (Google semantics: '*' any run, no final '$' here) match
 * some prefix of t?  Leftmost-first search of each '*'-separated segment
 * is exact for prefix matching.  *budget pays for the bytes searched.
 */
/* allows first, then by line */
static int
ra_lint_type_cmp(const void *pa, const void *pb)
{
    const ra_lint_rule_t  *a = pa, *b = pb;

    if (a->type != b->type) {
        return a->type == RA_RULE_ALLOW ? -1 : 1;
    }
    return a->line < b->line ? -1 : a->line > b->line;
}

static int
ra_lint_glob_prefix(ra_str_t s, ra_str_t t, size_t *budget, size_t *end)
{
    size_t                 seg;
    const unsigned char   *sp = s.data, *se = s.data + s.len, *star;
    const unsigned char   *tp = t.data, *te = t.data + t.len, *hit;

    star = memchr(sp, '*', s.len);
    seg = (size_t) ((star ? star : se) - sp);
    if (seg > t.len || memcmp(sp, tp, seg) != 0) {
        return 0;
    }
    tp += seg;
    sp += seg;
    while (sp < se) {
        sp++;                               /* the '*' */
        star = memchr(sp, '*', (size_t) (se - sp));
        seg = (size_t) ((star ? star : se) - sp);
        if (seg == 0) {
            continue;
        }
        *budget -= *budget < t.len ? *budget : t.len;
        hit = ra_lint_memmem(tp, (size_t) (te - tp), sp, seg);
        if (hit == NULL) {
            return 0;
        }
        tp = hit + seg;
        sp += seg;
    }
    if (end != NULL) {
        *end = (size_t) (tp - t.data);
    }
    return 1;
}

static int
ra_lint_is_root(ra_str_t p)
{
    while (p.len > 1 && p.data[p.len - 1] == '*') {
        p.len--;
    }
    return p.len == 1 && p.data[0] == '/';
}

static void
ra_lint_group(ra_lint_ctx_t *ctx, const ra_lint_group_t *g, size_t *budget,
    int *budget_told)
{
    uint32_t         i, j, k, allows = 0, root = 0;
    char             q[RA_LINT_QBUF], s[RA_LINT_QBUF];
    ra_lint_rule_t  *r, *a, *b;
    ra_str_t         lit, pat;

    if (g->nrules == 0) {
        r = NULL;       /* ctx->rules is NULL when no group has a rule */
    } else {
        r = ctx->rules + g->first;
    }

    for (i = 0; i < g->nrules; i++) {
        if (r[i].type == RA_RULE_ALLOW) {
            allows++;
        } else if (ra_lint_is_root(r[i].value)) {
            root = r[i].line;
        }
    }
    if (g->global && root && allows == 0) {
        ra_lint_add(ctx, RA_LC_DISALLOW_ALL, root, 1, 0,
            "'Disallow: /' for '*' closes the whole site to every crawler "
            "that has no group of its own%s",
            ctx->ngroups > 1 ? "" : " (and there is no other group)");
    }

    if (g->nrules < 2) {
        return;
    }

    /* equal patterns end up next to each other, allow first */
    qsort(r, g->nrules, sizeof(*r), ra_lint_rule_cmp);
    for (i = 0; i < g->nrules; i = j) {
        for (j = i + 1; j < g->nrules && r[j].norm.len == r[i].norm.len
             && memcmp(r[j].norm.data, r[i].norm.data, r[i].norm.len) == 0;
             j++)
        {
            /* void */
        }
        for (k = i + 1; k < j; k++) {
            if (r[k].type != r[i].type) {
                ra_lint_add(ctx, RA_LC_SAME_PATTERN, r[k].line, r[k].column,
                    0,
                    "Disallow '%s' has the same pattern as the Allow on line "
                    "%u: Allow wins (RFC 9309, Google), so this Disallow "
                    "has no effect", ra_lint_quote(q, r[k].value), r[i].line);
            } else if (r[k].type == r[k - 1].type) {
                ra_lint_add(ctx, RA_LC_DUPLICATE_RULE, r[k].line,
                    r[k].column, 0,
                    "duplicate of line %u in the same group",
                    r[k - 1].line);
            }
        }
    }

    /*
     * Shadowing.  Every URL rule b matches starts with lit(b): its
     * pattern up to the first '*' (a final '$' dropped).  If pattern a of
     * the other kind, with no final '$', matches a prefix of lit(b), then
     * a matches every URL b does; when a is also longer (or as long and an
     * Allow), a decides every one of them and b is never used.
     */
    if (allows == 0 || allows == g->nrules) {
        return;         /* shadowing needs both kinds */
    }
    qsort(r, g->nrules, sizeof(*r), ra_lint_type_cmp);

    for (i = 0; i < g->nrules; i++) {
        b = &r[i];
        if (!b->plain || (b->value.data[0] != '/' && b->value.data[0] != '*')
            || (b->type == RA_RULE_ALLOW
                && ra_lint_memmem(b->value.data, b->value.len, "index.htm", 9)))
        {
            continue;
        }
        lit = b->value;
        if (lit.len && lit.data[lit.len - 1] == '$') {
            lit.len--;
        }
        {
            const unsigned char  *st = memchr(lit.data, '*', lit.len);

            if (st != NULL) {
                lit.len = (size_t) (st - lit.data);
            }
        }
        /* allows are r[0, allows), disallows r[allows, nrules) */
        for (k = b->type == RA_RULE_ALLOW ? allows : 0;
             k < (b->type == RA_RULE_ALLOW ? g->nrules : allows);
             k++)
        {
            a = &r[k];
            if (!a->plain
                || a->value.len < b->value.len
                || (a->value.len == b->value.len
                    && a->type != RA_RULE_ALLOW))
            {
                continue;
            }
            pat = a->value;
            if (pat.data[pat.len - 1] == '$'
                || (pat.data[0] != '/' && pat.data[0] != '*')
                || (pat.len == b->value.len
                    && memcmp(pat.data, b->value.data, pat.len) == 0))
            {
                continue;
            }
            if (*budget == 0) {
                if (!*budget_told) {
                    *budget_told = 1;
                    ra_lint_add(ctx, RA_LC_ANALYSIS_LIMIT, g->line, 1, 0,
                        "too many rules to look for shadowed rules in "
                        "full: this group and the ones after it were "
                        "checked only in part");
                }
                return;
            }
            (*budget)--;
            if (ra_lint_glob_prefix(pat, lit, budget, NULL)) {
                ra_lint_add(ctx, RA_LC_SHADOWED_RULE, b->line, b->column, 0,
                    "%s '%s' never decides: %s '%s' on line %u matches "
                    "every URL it matches and wins (%s)",
                    b->type == RA_RULE_ALLOW ? "Allow" : "Disallow",
                    ra_lint_quote(q, b->value),
                    a->type == RA_RULE_ALLOW ? "Allow" : "Disallow",
                    ra_lint_quote(s, a->value), a->line,
                    a->value.len > b->value.len ? "longer pattern"
                                                : "Allow wins ties");
                break;
            }
        }
    }
}


/* ------------------------------------------------------------------ */
/* CSS and JavaScript for Googlebot                                     */

/* Front-end assets of common site layouts and CMSes: what Google needs to
 * render pages.  Paths only, no query: a rule against every URL with a
 * query is a choice, not an asset problem. */
static const char  *ra_lint_assets[] = {
    "/style.css",
    "/main.js",
    "/css/style.css",
    "/js/main.js",
    "/assets/css/style.css",
    "/assets/js/app.js",
    "/assets/app.css",
    "/static/css/main.css",
    "/static/js/main.js",
    "/dist/main.js",
    "/build/app.js",
    "/_next/static/chunks/main.js",
    "/wp-content/themes/theme/style.css",
    "/wp-content/plugins/plugin/script.js",
    "/wp-includes/js/jquery/jquery.min.js",
    "/wp-includes/css/dist/block-library/style.min.css",
    "/sites/default/files/css/css_main.css",
    "/core/misc/drupal.js",
    "/media/system/js/core.js",
    "/templates/site/css/template.css",
    "/skin/frontend/default/theme/css/styles.css",
    "/static/version1/pub/static/frontend/theme/js/require.js",
};

/*
 * Was the rule aimed at this kind of URL, or is it a short prefix that
 * happens to match ("Disallow: /a" against "/assets/...")?  A site may
 * not have the URL at all, so only a rule that reaches a segment boundary
 * or the extension in it counts.
 */
static int
ra_lint_aimed(ra_str_t pattern, ra_str_t url)
{
    size_t                end, start, budget = (size_t) -1;
    const unsigned char  *star;
    ra_str_t              seg;

    while (pattern.len
           && (pattern.data[pattern.len - 1] == '*'
               || pattern.data[pattern.len - 1] == '$'))
    {
        pattern.len--;
    }
    if (pattern.len == 0
        || !ra_lint_glob_prefix(pattern, url, &budget, &end))
    {
        return 0;
    }
    if (end < url.len && url.data[end] != '/' && url.data[end] != '.'
        && pattern.data[pattern.len - 1] != '/')
    {
        return 0;
    }
    /* the text after the last '*' must start at a boundary too */
    seg = pattern;
    for (star = pattern.data + pattern.len; star > pattern.data; star--) {
        if (star[-1] == '*') {
            seg = ra_str(star, (size_t) (pattern.data + pattern.len - star));
            break;
        }
    }
    if (seg.data == pattern.data) {
        return 1;       /* no '*': anchored at the path's start */
    }
    start = end - seg.len;
    return seg.data[0] == '/' || seg.data[0] == '.'
           || (start > 0 && strchr("/.-_", url.data[start - 1]) != NULL);
}

static void
ra_lint_assets_check(ra_lint_ctx_t *ctx)
{
    size_t        i, k;
    uint32_t      seen[8];
    size_t        nseen = 0;
    ra_rules_t   *rules;
    ra_match_t    m;
    char          q[RA_LINT_QBUF];
    ra_str_t      agent = ra_string("Googlebot"), path;

    if (ctx->out->summary.disallows == 0) {
        return;
    }
    if (ra_rules_compile(ctx->body, ctx->a, &rules, NULL) != RA_OK) {
        ctx->rc = RA_ENOMEM;
        return;
    }
    for (i = 0; i < sizeof(ra_lint_assets) / sizeof(ra_lint_assets[0]); i++) {
        path = ra_str(ra_lint_assets[i], strlen(ra_lint_assets[i]));
        if (ra_rules_match(rules, RA_MODE_GOOGLE, &agent, 1, path, NULL, &m)
            != RA_OK)
        {
            continue;
        }
        if (m.allowed || m.why != RA_WHY_RULE || ra_lint_is_root(m.pattern)
            || !ra_lint_aimed(m.pattern, path))
        {
            continue;   /* a closed site is reported as such */
        }
        for (k = 0; k < nseen && seen[k] != m.line; k++) { /* void */ }
        if (k < nseen) {
            continue;
        }
        if (nseen < sizeof(seen) / sizeof(seen[0])) {
            seen[nseen++] = m.line;
        }
        ra_lint_add(ctx, RA_LC_BLOCKS_ASSETS, m.line, 1, 0,
            "Googlebot may not fetch CSS/JavaScript such as %s because of "
            "'Disallow: %s': Google renders pages with them, so pages may "
            "be misjudged", ra_lint_assets[i], ra_lint_quote(q, m.pattern));
    }
    ra_rules_free(rules);
}


/* ------------------------------------------------------------------ */
/* a file that is not text                                              */

static void
ra_lint_binary_finding(ra_lint_ctx_t *ctx, ra_str_t body, const char *what)
{
    int  gz = body.len >= 2 && body.data[0] == 0x1f && body.data[1] == 0x8b;

    ra_lint_add(ctx, RA_LC_BINARY, 1, 1, 0,
        "the file is %s: crawlers find no rules in it%s", what,
        gz ? " unless the server sends it with 'Content-Encoding: gzip' "
             "(a file saved as served, e.g. robots.txt.gz, is linted with "
             "--content-encoding gzip); serve robots.txt as plain text"
           : "; serve robots.txt as plain UTF-8 text");
}


/* ------------------------------------------------------------------ */
/* group-replaces-star: a specific group drops the rules of "*"         */

/*
 * A crawler follows the most specific group that names its token, and
 * only that one (RFC 9309 2.2.1; groups naming the same token merged), so
 * the rules under "*" do not apply to it.  For each group's first
 * product token, every non-root Disallow of "*" is tried on a URL it
 * matches (the pattern without '*' and a final '$'): when "*" disallows
 * that URL and the token's group allows it with no rule (or with an
 * "Allow: /"), the group drops that rule.  "Disallow: /" of "*" is left
 * out: closing the site to all but named crawlers is a common intent
 * (disallow-all reports it); so is a group that allows everything in so
 * many words (only "Disallow:" or "Allow: /", or no rule at all) -- but
 * not one with no rule and AI-preference lines: written to state how its
 * crawler may use content, it lets that crawler fetch what "*" disallows.
 * The matcher decides, so merging and longest-match are Google's; calls
 * are bounded by RA_LINT_STAR_BUDGET.
 */

typedef struct {
    const ra_lint_rule_t  *rule;
    ra_str_t               url;        /* a URL the rule matches */
} ra_lint_star_t;

typedef struct {
    ra_lint_ctx_t     *ctx;
    ra_rules_t        *rules;
    ra_lint_star_t    *star;
    uint32_t           nstar;
    uint32_t           group;          /* current written group, 1-based */
    unsigned           in_rules:1;
    unsigned           done:1;         /* current group checked */
    unsigned           told:1;
    size_t             budget;
} ra_lint_star_ctx_t;

static void
ra_lint_star_token(ra_lint_star_ctx_t *st, const ra_line_t *ln, ra_str_t tok)
{
    uint32_t              i, nd = 0, gline;
    int                   n;
    ra_match_t            m;
    char                  list[640], q[RA_LINT_QBUF], t[RA_LINT_QBUF];
    size_t                used = 0;
    const ra_lint_rule_t *r;
    const ra_lint_group_t *g;

    if (st->group > st->ctx->groups_cap
        || ra_lint_policy(st->ctx, tok) != NULL)
    {
        return;     /* a policy token fetches nothing (policy-token) */
    }
    g = &st->ctx->groups[st->group - 1];
    for (i = 0; i < g->nrules; i++) {
        r = &st->ctx->rules[g->first + i];
        if (r->type == RA_RULE_DISALLOW || !ra_lint_is_root(r->value)) {
            break;
        }
    }
    if (i == g->nrules && !(g->prefs && !g->ruled)) {
        return;     /* no rule or "Allow: /": everything, on purpose */
    }
    gline = g->line;
    list[0] = '\0';
    for (i = 0; i < st->nstar; i++) {
        if (st->budget == 0) {
            if (!st->told) {
                st->told = 1;
                ra_lint_add(st->ctx, RA_LC_ANALYSIS_LIMIT, ln->line, 1, 0,
                    "too many groups and rules to check in full which "
                    "rules of '*' each group drops: this group and the "
                    "ones after it were not checked");
            }
            return;
        }
        st->budget--;
        if (ra_rules_match(st->rules, RA_MODE_RFC, &tok, 1, st->star[i].url,
                           NULL, &m) != RA_OK)
        {
            continue;
        }
        if (m.group_line != gline) {
            return;     /* merged with an earlier group: checked there */
        }
        if (!m.allowed
            || (m.why == RA_WHY_RULE && !ra_lint_is_root(m.pattern)))
        {
            continue;   /* still disallowed, or allowed on purpose */
        }
        r = st->star[i].rule;
        if (nd < 3) {
            n = snprintf(list + used, sizeof(list) - used,
                         "%s'Disallow: %s' (line %u)", nd ? ", " : "",
                         ra_lint_quote(q, r->value), r->line);
            if (n > 0 && (size_t) n < sizeof(list) - used) {
                used += (size_t) n;
            }
        }
        nd++;
    }
    if (nd == 0) {
        return;
    }
    if (nd > 3) {
        snprintf(list + used, sizeof(list) - used, " and %u more", nd - 3);
    }
    ra_lint_add(st->ctx, RA_LC_GROUP_REPLACES_STAR, ln->line,
        ra_lint_col(ln, ln->value.data), 0,
        "'%s' follows this group and not '*' (a crawler obeys only the "
        "most specific group that names it): it may fetch what '*' "
        "disallows with %s; repeat %s in this group if %s meant for it "
        "too%s", ra_lint_quote(t, tok), list,
        nd == 1 ? "that rule" : "them", nd == 1 ? "it is" : "they are",
        g->prefs && !g->ruled ? " (its Content-Signal or Content-Usage "
                                "lines are no Allow or Disallow: they keep "
                                "none of '*')" : "");
}

static int
ra_lint_star_line(void *data, const ra_line_t *ln)
{
    ra_lint_star_ctx_t  *st = data;
    ra_str_t             tok;

    if (ln->kind != RA_LINE_DIRECTIVE || (ln->flags & RA_LF_SIZE_CUT)) {
        return RA_OK;
    }
    if (ln->key == RA_KEY_ALLOW || ln->key == RA_KEY_DISALLOW) {
        st->in_rules = st->group > 0;
        return RA_OK;
    }
    if (ln->key != RA_KEY_USER_AGENT) {
        return RA_OK;
    }
    /* as ra_lint_user_agent() counts groups */
    if (st->group == 0 || st->in_rules) {
        st->group++;
        st->in_rules = 0;
        st->done = 0;
    }
    if (st->done || ln->value.len == 0 || ra_ua_is_global(ln->value)) {
        return RA_OK;
    }
    tok = ra_ua_token(ln->value);
    if (tok.len == 0) {
        return RA_OK;   /* ua-token says it matches nothing */
    }
    st->done = 1;
    ra_lint_star_token(st, ln, tok);
    return st->ctx->rc;
}

static void
ra_lint_star_dropped(ra_lint_ctx_t *ctx)
{
    uint32_t               i, k, n = 0, specific = 0;
    size_t                 j, len;
    unsigned char         *u;
    ra_match_t             m;
    ra_lint_star_ctx_t     st;
    const ra_lint_group_t *g;
    const ra_lint_rule_t  *r;

    /* only a file with a "*" Disallow and another group pays for this */
    for (i = 0; i < ctx->ngroups && i < ctx->groups_cap; i++) {
        g = &ctx->groups[i];
        if (!g->global) {
            specific = 1;
            continue;
        }
        for (k = 0; k < g->nrules; k++) {
            r = &ctx->rules[g->first + k];
            n += r->type == RA_RULE_DISALLOW && !ra_lint_is_root(r->value);
        }
    }
    if (n == 0 || (!specific && ctx->ngroups < 2)) {
        return;
    }

    memset(&st, 0, sizeof(st));
    st.ctx = ctx;
    st.budget = RA_LINT_STAR_BUDGET;
    st.star = ra_alloc(ctx->a, n * sizeof(ra_lint_star_t));
    if (st.star == NULL
        || ra_rules_compile(ctx->body, ctx->a, &st.rules, NULL) != RA_OK)
    {
        ra_free(ctx->a, st.star);
        ctx->rc = RA_ENOMEM;
        return;
    }

    /* the "*" Disallows, each with a URL that "*" does disallow */
    for (i = 0; i < ctx->ngroups && i < ctx->groups_cap; i++) {
        g = &ctx->groups[i];
        for (k = 0; g->global && k < g->nrules; k++) {
            r = &ctx->rules[g->first + k];
            if (r->type != RA_RULE_DISALLOW || ra_lint_is_root(r->value)
                || r->value.len > 1024 || st.budget == 0)
            {
                continue;
            }
            u = ra_alloc(ctx->a, r->value.len + 1);
            if (u == NULL) {
                ctx->rc = RA_ENOMEM;
                goto done;
            }
            len = 0;
            for (j = 0; j < r->value.len; j++) {
                if (r->value.data[j] != '*'
                    && !(r->value.data[j] == '$' && j + 1 == r->value.len))
                {
                    u[len++] = r->value.data[j];
                }
            }
            st.budget--;
            if (ra_rules_match(st.rules, RA_MODE_RFC, NULL, 0,
                               ra_str(u, len), NULL, &m) != RA_OK
                || m.allowed)
            {
                ra_free(ctx->a, u);
                continue;
            }
            st.star[st.nstar].rule = r;
            st.star[st.nstar].url = ra_str(u, len);
            st.nstar++;
        }
    }

    if (st.nstar) {
        (void) ra_parse(ctx->body, ra_lint_star_line, &st, NULL);
    }

done:
    for (i = 0; i < st.nstar; i++) {
        ra_free(ctx->a, (void *) st.star[i].url.data);
    }
    ra_free(ctx->a, st.star);
    ra_rules_free(st.rules);
}


/* ------------------------------------------------------------------ */

static int
ra_lint_finding_cmp(const void *pa, const void *pb)
{
    const ra_lint_finding_t  *a = pa, *b = pb;

    if (a->line != b->line) {
        return a->line < b->line ? -1 : 1;
    }
    if (a->column != b->column) {
        return a->column < b->column ? -1 : 1;
    }
    if (a->code != b->code) {
        return a->code < b->code ? -1 : 1;
    }
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

int
ra_lint(ra_str_t body, const ra_lint_http_t *http, const ra_alloc_t *a,
    ra_lint_t *out)
{
    uint32_t          i;
    size_t            budget = RA_LINT_SHADOW_BUDGET;
    int               told = 0, quiet;
    const char       *enc;
    uint32_t          html_line;
    ra_lint_ctx_t     ctx;
    ra_lint_count_t   count;
    ra_parse_info_t   info;
    ra_lint_http_t    none;
    char              q[RA_LINT_QBUF];

    memset(out, 0, sizeof(*out));
    memset(&ctx, 0, sizeof(ctx));
    if (http == NULL) {
        memset(&none, 0, sizeof(none));
        http = &none;
    }
    ctx.a = a;
    ctx.out = out;
    ctx.crawlers = http->crawlers;
    ctx.max_per_code = http->max_per_code ? http->max_per_code
                                          : RA_LINT_PER_CODE;
    out->summary.status = http->status;
    out->summary.bytes = http->size ? http->size : body.len;
    if (http->undecodable) {
        ra_lint_add(&ctx, RA_LC_CONTENT_ENCODING, 0, 0, 0,
            "robots.txt sent with Content-Encoding '%s' that could not be "
            "decoded: crawlers that cannot decode it read no rules from "
            "it",
            ra_lint_quote(q, http->content_encoding));
        if (body.data == NULL) {
            goto done;
        }
    }
    if (body.data == NULL) {
        body = ra_str("", 0);
    }
    ctx.body = body;
    out->summary.bytes = http->size ? http->size : body.len;
    out->summary.parsed = body.len < RA_ROBOTS_MAX ? body.len : RA_ROBOTS_MAX;

    if (!ra_lint_status(&ctx, http)) {
        goto done;      /* crawlers do not read this body */
    }
    out->summary.body_linted = 1;
    ra_lint_content_type(&ctx, http->content_type);
    if (http->truncated && out->summary.bytes > body.len) {
        ra_lint_add(&ctx, RA_LC_TRUNCATED_BODY, 0, 0, 0,
            "only the first %zu of %zu bytes were received: findings cover "
            "what was received; some crawlers give up on a truncated "
            "robots.txt", body.len, out->summary.bytes);
    } else if (http->truncated) {
        /* a compressed body decoded up to the limit: its size is not
         * known */
        ra_lint_add(&ctx, RA_LC_TRUNCATED_BODY, 0, 0, 0,
            "only the first %zu bytes were received of a longer file: "
            "findings cover what was received; some crawlers give up on "
            "a truncated robots.txt", body.len);
    }

    enc = ra_lint_utf16(body);
    if (enc != NULL) {
        ra_lint_add(&ctx, RA_LC_ENCODING, 1, 1, 0,
            "the file is %s: crawlers read robots.txt as UTF-8, see NUL "
            "bytes and garbage, and find no rules; save it as UTF-8", enc);
        ctx.quiet = 1;
    } else if ((enc = ra_lint_binary(body)) != NULL) {
        ra_lint_binary_finding(&ctx, body, enc);
        ctx.quiet = 1;
    } else if (ra_lint_is_html(body, &html_line)) {
        ra_lint_add(&ctx, RA_LC_HTML, html_line, 1, 0,
            "this is an HTML page, not robots.txt (an error page or a "
            "rewrite served for /robots.txt?): crawlers find no rules in "
            "it, or stray ones in its text");
        ctx.quiet = 1;
    }

    memset(&count, 0, sizeof(count));
    ra_parse(body, ra_lint_count, &count, NULL);
    ctx.rules_cap = count.rules;
    ctx.groups_cap = count.agents;
    if (count.rules) {
        ctx.rules = ra_alloc(a, count.rules * sizeof(ra_lint_rule_t));
        if (ctx.rules == NULL) {
            ctx.rc = RA_ENOMEM;
            goto done;
        }
    }
    if (count.agents) {
        ctx.groups = ra_alloc(a, count.agents * sizeof(ra_lint_group_t));
        if (ctx.groups == NULL) {
            ctx.rc = RA_ENOMEM;
            goto done;
        }
    }

    if (ra_parse(body, ra_lint_line, &ctx, &info) != RA_OK) {
        goto done;
    }
    out->summary.groups = ctx.ngroups;

    if (info.bom && !ctx.quiet) {
        ra_lint_add(&ctx, RA_LC_BOM, 1, 1, 0, info.bom == 1
            ? "UTF-8 byte order mark: Google skips it, but some parsers "
              "read it as part of the first key and lose that line"
            : "broken byte order mark (only part of EF BB BF): Google "
              "skips it, other parsers see garbage before the first key");
    }
    if (info.directives == 0 && !ctx.quiet && !info.truncated) {
        ra_lint_add(&ctx, RA_LC_EMPTY, 0, 0, 0,
            "no rules: every crawler may fetch every URL");
    }

    quiet = ctx.quiet;
    if (info.truncated) {
        ctx.quiet = 0;
        ra_lint_size(&ctx, http, &info);
    }

    if (!quiet) {
        for (i = 0; i < ctx.ngroups && i < ctx.groups_cap; i++) {
            ra_lint_group(&ctx, &ctx.groups[i], &budget, &told);
        }
        ra_lint_assets_check(&ctx);
        ra_lint_star_dropped(&ctx);
    }

done:
    for (i = 0; i < ctx.nrules; i++) {
        if (ctx.rules[i].norm.data != ctx.rules[i].value.data) {
            ra_free(a, (void *) ctx.rules[i].norm.data);
        }
    }
    ra_free(a, ctx.rules);
    ra_free(a, ctx.groups);
    if (out->nfindings > 1) {
        qsort(out->findings, out->nfindings, sizeof(ra_lint_finding_t),
              ra_lint_finding_cmp);
    }
    return ctx.rc;
}

void
ra_lint_free(ra_lint_t *out, const ra_alloc_t *a)
{
    uint32_t  i;

    for (i = 0; i < out->nfindings; i++) {
        ra_free(a, (void *) out->findings[i].message.data);
    }
    ra_free(a, out->findings);
    out->findings = NULL;
    out->nfindings = 0;
}


/* ---- the compiler form ------------------------------------------------ */

static void
ra_lint_esc(ra_buf_t *b, ra_str_t s)
{
    size_t  i;

    for (i = 0; i < s.len; i++) {
        if (s.data[i] >= 0x20 && s.data[i] < 0x7f) {
            ra_buf_ch(b, s.data[i]);
        } else {
            ra_buf_printf(b, "\\x%02x", s.data[i]);
        }
    }
}

void
ra_lint_format_finding(ra_buf_t *b, ra_str_t file, const ra_lint_finding_t *f)
{
    ra_lint_esc(b, file);
    ra_buf_printf(b, ":%u:%u: %s: ", f->line, f->column,
                  ra_lint_severity_name(f->severity));
    ra_lint_esc(b, f->message);
    ra_buf_printf(b, " [%s]", ra_lint_code_name(f->code));
}

#define ra_plural(n)  ((n) == 1 ? "" : "s")

void
ra_lint_format_summary(ra_buf_t *b, ra_str_t file, const ra_lint_summary_t *s)
{
    ra_lint_esc(b, file);
    ra_buf_printf(b, ": %u group%s, %u rule%s, %u sitemap%s, %zu bytes; "
                  "%u error%s, %u warning%s, %u info%s",
                  s->groups, ra_plural(s->groups),
                  s->rules, ra_plural(s->rules),
                  s->sitemaps, ra_plural(s->sitemaps),
                  s->bytes,
                  s->errors, ra_plural(s->errors),
                  s->warnings, ra_plural(s->warnings),
                  s->infos, ra_plural(s->infos));
}

void
ra_lint_lines(const ra_lint_t *l, ra_str_t file, ra_buf_t *b,
    ra_lint_line_pt emit, void *ctx)
{
    uint32_t                  i;
    ra_severity_e             worst;
    const ra_lint_summary_t  *s = &l->summary;

    for (i = 0; i < l->nfindings; i++) {
        b->len = 0;
        ra_lint_format_finding(b, file, &l->findings[i]);
        if (!b->failed) {
            emit(ctx, l->findings[i].severity, ra_str(b->data, b->len));
        }
    }
    for (i = 0; i < RA_LINT_NCODES; i++) {
        if (l->suppressed[i]) {
            b->len = 0;
            ra_lint_esc(b, file);
            ra_buf_printf(b, ": note: %u more [%s] finding%s not shown",
                          l->suppressed[i],
                          ra_lint_code_name((ra_lint_code_e) i),
                          ra_plural(l->suppressed[i]));
            if (!b->failed) {
                emit(ctx, ra_lint_code_severity((ra_lint_code_e) i),
                     ra_str(b->data, b->len));
            }
        }
    }
    worst = s->errors ? RA_SEV_ERROR
            : s->warnings ? RA_SEV_WARNING : RA_SEV_INFO;
    b->len = 0;
    ra_lint_format_summary(b, file, s);
    if (!b->failed) {
        emit(ctx, worst, ra_str(b->data, b->len));
    }
}
