/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * robots.txt lint: the answer and its bytes.  What the status, the
 * redirects and the Content-Type make crawlers do; what the body is (HTML,
 * UTF-16, compressed or binary data); the bytes of each line (BOM, NUL,
 * controls, invalid UTF-8, length); and what crawlers lose past 500 KiB.
 */
#include <stdio.h>      /* snprintf() only: no I/O in the core */
#include <string.h>

#include "ra_lint_impl.h"

/* Length of the first invalid UTF-8 sequence's prefix: returns the offset
 * of the first byte that does not start a well-formed sequence, or len. */
size_t
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

int
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


void
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
    type = ra_ows_trim(ra_str(ct.data, semi ? (size_t) (semi - ct.data)
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
        param = ra_ows_trim(param);
        if (!ra_startswith_ci(param, "charset=")) {
            continue;
        }
        cs = ra_ows_trim(ra_str(param.data + 8, param.len - 8));
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

int
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
const char *
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
/* the bytes of each line                                               */

void
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

void
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
/* a file that is not text                                              */

void
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
