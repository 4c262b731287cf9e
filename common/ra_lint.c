/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * robots.txt lint: the vocabulary of findings.  The table of codes and
 * their severities, how every check adds a finding (its message quoted
 * and bounded, at most max_per_code kept per code, the rest counted), and
 * the compiler form every front end prints.
 */
#include <stdarg.h>
#include <stdio.h>      /* vsnprintf() only: no I/O in the core */
#include <string.h>

#include "ra_lint_impl.h"

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
const char *
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

void
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
