/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * robots.txt lint: the checks of one line, as the linting parse hands
 * lines over.  Lines that are no "key: value", misspelt and unknown keys,
 * Crawl-delay, User-agent values, Sitemap URLs and the paths of Allow and
 * Disallow, which it also records for the group checks.
 */
#include <stdio.h>      /* snprintf() only: no I/O in the core */
#include <string.h>

#include "ra_lint_impl.h"

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
        && ra_memmem(p, v.len, "robots.txt", 10) != NULL)
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

int
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
            ra_lint_quote(q, ra_ows_trim(ln->raw)),
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
