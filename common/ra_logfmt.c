/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Log formats (see ra_accesslog.h): the named ones, how a log's first
 * lines tell which it is in, and nginx log_format / Apache LogFormat
 * strings compiled into a plan of literals and fields.  Reading a line in
 * a format is ra_accesslog.c's (and ra_logfmt_json.c's, ra_logfmt_text.c's).
 */
#include <string.h>

#include "ra_accesslog_impl.h"

int
ra_log_read(const ra_logfmt_t *f, ra_logmemo_t *m, ra_str_t line,
    ra_logrec_t *rec)
{
    const unsigned char  *end = line.data + line.len;

    switch (f->format) {
    case RA_LOG_COMMON:
    case RA_LOG_COMBINED:
        return ra_log_combined(line, m, rec);
    default:
        break;
    }
    while (end > line.data && (end[-1] == '\n' || end[-1] == '\r')) {
        end--;
    }
    line.len = (size_t) (end - line.data);
    rec->bad = NULL;
    switch (f->format) {
    case RA_LOG_VHOST_COMBINED:
        return ra_log_vhost(line, m, rec);
    case RA_LOG_JSON:
        return ra_log_json(line, rec);
    case RA_LOG_CADDY:
    case RA_LOG_TRAEFIK:
    case RA_LOG_CLOUDFLARE:
    case RA_LOG_JSONMAP:
        return ra_log_jsonmap(f, line, rec);
    case RA_LOG_HAPROXY:
        return ra_log_haproxy(line, rec);
    case RA_LOG_ALB:
        return ra_log_alb(line, rec);
    case RA_LOG_CLOUDFRONT:
    case RA_LOG_W3C:
        return ra_log_w3c(f, line, rec);
    }
    return ra_log_plan(f, line, rec);
}

int
ra_logfmt_parse(const ra_logfmt_t *f, ra_str_t line, ra_logrec_t *rec)
{
    return ra_logfmt_read(f, NULL, line, rec);
}

int
ra_logfmt_read(const ra_logfmt_t *f, ra_logmemo_t *m, ra_str_t line,
    ra_logrec_t *rec)
{
    if (ra_log_read(f, m, line, rec) != RA_OK) {
        return RA_ERROR;
    }
    return ra_log_check(rec, m);
}

#define RA_F(k)  (1u << (k))
#define RA_F_COMMON  (RA_F(RA_LF_ADDR) | RA_F(RA_LF_USER)                    \
                      | RA_F(RA_LF_TIME_APACHE) | RA_F(RA_LF_REQUEST)        \
                      | RA_F(RA_LF_STATUS) | RA_F(RA_LF_BYTES))
#define RA_F_COMBINED  (RA_F_COMMON | RA_F(RA_LF_REFERER) | RA_F(RA_LF_UA))

void
ra_logfmt_named(ra_log_format_e which, ra_logfmt_t *f)
{
    f->format = which;
    f->nitems = 0;
    switch (which) {
    case RA_LOG_COMMON:
        f->fields = RA_F_COMMON;
        break;
    case RA_LOG_VHOST_COMBINED:
        f->fields = RA_F_COMBINED | RA_F(RA_LF_HOST);
        break;
    case RA_LOG_JSON:
        f->fields = RA_F_COMBINED | RA_F(RA_LF_HOST) | RA_F(RA_LF_XFF);
        break;
    case RA_LOG_CADDY:
    case RA_LOG_TRAEFIK:
    case RA_LOG_CLOUDFLARE:
        ra_log_json_named(which, f);
        break;
    case RA_LOG_HAPROXY:
    case RA_LOG_ALB:
        f->fields = RA_F_COMBINED | RA_F(RA_LF_HOST);
        break;
    case RA_LOG_CLOUDFRONT:
    case RA_LOG_W3C:
        ra_log_w3c_named(which, f);
        break;
    default:
        f->format = RA_LOG_COMBINED;
        f->fields = RA_F_COMBINED | RA_F(RA_LF_XFF);
        break;
    }
}

static const struct {
    const char       *name;
    ra_log_format_e   format;
} ra_log_names[] = {
    { "combined", RA_LOG_COMBINED },
    { "common", RA_LOG_COMMON },
    { "vhost_combined", RA_LOG_VHOST_COMBINED },
    { "json", RA_LOG_JSON },
    { "caddy", RA_LOG_CADDY },
    { "traefik", RA_LOG_TRAEFIK },
    { "cloudflare", RA_LOG_CLOUDFLARE },
    { "json-fields", RA_LOG_JSONMAP },
    { "haproxy", RA_LOG_HAPROXY },
    { "alb", RA_LOG_ALB },
    { "cloudfront", RA_LOG_CLOUDFRONT },
    { "w3c", RA_LOG_W3C },
    { "iis", RA_LOG_W3C },
};

const char *
ra_logfmt_name(const ra_logfmt_t *f)
{
    size_t  i;

    for (i = 0; i < sizeof(ra_log_names) / sizeof(ra_log_names[0]); i++) {
        if (ra_log_names[i].format == f->format) {
            return ra_log_names[i].name;
        }
    }
    return "custom";
}

int
ra_logfmt_detect(ra_str_t line, ra_logfmt_t *f)
{
    static const ra_log_format_e  json[] = {
        RA_LOG_JSON, RA_LOG_CADDY, RA_LOG_TRAEFIK, RA_LOG_CLOUDFLARE
    };
    static const ra_log_format_e  text[] = {
        RA_LOG_VHOST_COMBINED, RA_LOG_COMBINED, RA_LOG_HAPROXY, RA_LOG_ALB,
        RA_LOG_CLOUDFRONT, RA_LOG_W3C
    };
    const ra_log_format_e  *try;
    ra_logrec_t             rec;
    ra_logfmt_t             first;
    const unsigned char    *p = line.data, *end = line.data + line.len;
    size_t                  i, n;
    int                     found = 0;

    p = ra_log_ws(p, end);
    if (p < end && *p == '{') {
        try = json;
        n = sizeof(json) / sizeof(json[0]);
    } else {
        try = text;
        n = sizeof(text) / sizeof(text[0]);
    }
    for (i = 0; i < n; i++) {
        ra_logfmt_named(try[i], f);
        if (ra_log_read(f, NULL, line, &rec) != RA_OK) {
            continue;
        }
        if (f->format == RA_LOG_COMBINED && rec.format == RA_LOG_COMMON) {
            ra_logfmt_named(RA_LOG_COMMON, f);
        }
        if (ra_logrec_check(&rec) == RA_OK) {
            return RA_OK;
        }
        if (!found) {
            first = *f;
            found = 1;
        }
    }
    if (found) {
        *f = first;
        return RA_LOGFMT_DOUBTFUL;
    }
    return RA_ERROR;
}

/* ---- compiling a format string ---------------------------------------- */

static unsigned
ra_log_apache_header(ra_str_t h)
{
    if (ra_strcaseeq(h, ra_str("User-Agent", 10))) {
        return RA_LF_UA;
    }
    if (ra_strcaseeq(h, ra_str("Referer", 7))) {
        return RA_LF_REFERER;
    }
    if (ra_strcaseeq(h, ra_str("Host", 4))) {
        return RA_LF_HOST;
    }
    if (ra_strcaseeq(h, ra_str("X-Forwarded-For", 15))) {
        return RA_LF_XFF;
    }
    return RA_LF_SKIP;
}

typedef struct {
    ra_logfmt_t  *f;
    size_t        tlen;
    const char   *err;
} ra_logfmt_cc_t;

static int
ra_logfmt_lit(ra_logfmt_cc_t *cc, unsigned char c)
{
    ra_logfmt_t   *f = cc->f;
    ra_logitem_t  *it;

    if (cc->tlen == RA_LOGFMT_TEXT) {
        cc->err = "the format is too long";
        return RA_ERROR;
    }
    it = f->nitems ? &f->items[f->nitems - 1] : NULL;
    if (it == NULL || it->kind != RA_LF_LITERAL) {
        if (f->nitems == RA_LOGFMT_ITEMS) {
            cc->err = "the format has too many fields";
            return RA_ERROR;
        }
        it = &f->items[f->nitems++];
        it->kind = RA_LF_LITERAL;
        it->quoted = 0;
        it->off = (uint16_t) cc->tlen;
        it->len = 0;
    }
    f->text[cc->tlen++] = c;
    it->len++;
    return RA_OK;
}

static int
ra_logfmt_field(ra_logfmt_cc_t *cc, unsigned kind)
{
    ra_logfmt_t  *f = cc->f;

    if (f->nitems && f->items[f->nitems - 1].kind != RA_LF_LITERAL) {
        cc->err = "two fields with nothing between them cannot be told "
                  "apart";
        return RA_ERROR;
    }
    if (f->nitems == RA_LOGFMT_ITEMS) {
        cc->err = "the format has too many fields";
        return RA_ERROR;
    }
    f->items[f->nitems].kind = (uint8_t) kind;
    f->items[f->nitems].quoted = 0;
    f->items[f->nitems].off = 0;
    f->items[f->nitems].len = 0;
    f->nitems++;
    f->fields |= 1u << kind;
    return RA_OK;
}

int
ra_logfmt_compile(ra_str_t spec, ra_logfmt_t *f, const char **err)
{
    const unsigned char  *p = spec.data, *end = spec.data + spec.len, *q;
    ra_logfmt_cc_t        cc;
    ra_logitem_t         *it;
    unsigned              i, kind, nginx = 0;
    ra_str_t              arg;

    memset(f, 0, sizeof(*f));
    for (i = 0; i < sizeof(ra_log_names) / sizeof(ra_log_names[0]); i++) {
        if (ra_log_names[i].format != RA_LOG_JSONMAP
            && ra_strcaseeq(spec, ra_str(ra_log_names[i].name,
                                         strlen(ra_log_names[i].name))))
        {
            ra_logfmt_named(ra_log_names[i].format, f);
            return RA_OK;
        }
    }
    f->format = RA_LOG_PLAN;
    cc.f = f;
    cc.tlen = 0;
    cc.err = NULL;

    /* nginx when a variable is named, else Apache */
    for (q = p; q + 1 < end; q++) {
        if (q[0] == '$' && (ra_isalpha(q[1]) || q[1] == '_' || q[1] == '{')) {
            nginx = 1;
            break;
        }
    }

    while (p < end) {
        if (*p == '\\' && end - p >= 2) {
            /* the escapes of a quoted configuration string */
            p++;
            if (ra_logfmt_lit(&cc, *p == 't' ? '\t' : *p) != RA_OK) {
                goto fail;
            }
            p++;
            continue;
        }
        if (nginx && *p == '$' && end - p >= 2
            && (ra_isalpha(p[1]) || p[1] == '_' || p[1] == '{'))
        {
            p++;
            if (*p == '{') {
                q = memchr(p, '}', (size_t) (end - p));
                if (q == NULL) {
                    cc.err = "'${' without its '}'";
                    goto fail;
                }
                arg = ra_str(p + 1, (size_t) (q - p - 1));
                p = q + 1;
            } else {
                for (q = p; q < end && (ra_isalpha(*q) || ra_isdigit(*q)
                                        || *q == '_'); q++) { }
                arg = ra_str(p, (size_t) (q - p));
                p = q;
            }
            if (ra_logfmt_field(&cc, ra_log_nginx_var(arg)) != RA_OK) {
                goto fail;
            }
            continue;
        }
        if (nginx || *p != '%') {
            if (ra_logfmt_lit(&cc, *p++) != RA_OK) {
                goto fail;
            }
            continue;
        }
        /* Apache: %[!][status,...][<>]{arg}X */
        p++;
        if (p < end && *p == '%') {
            if (ra_logfmt_lit(&cc, *p++) != RA_OK) {
                goto fail;
            }
            continue;
        }
        while (p < end && (*p == '!' || *p == ',' || *p == '<' || *p == '>'
                           || ra_isdigit(*p)))
        {
            p++;
        }
        arg = ra_str(NULL, 0);
        if (p < end && *p == '{') {
            q = memchr(p, '}', (size_t) (end - p));
            if (q == NULL) {
                cc.err = "'%{' without its '}'";
                goto fail;
            }
            arg = ra_str(p + 1, (size_t) (q - p - 1));
            p = q + 1;
        }
        if (p == end) {
            cc.err = "'%' at the end of the format";
            goto fail;
        }
        switch (*p++) {
        case 'h': case 'a':
            kind = RA_LF_ADDR;
            break;
        case 'u':
            kind = RA_LF_USER;
            break;
        case 't':
            if (arg.data != NULL) {
                cc.err = "%{...}t: only %t (the default time) is read";
                goto fail;
            }
            kind = RA_LF_TIME_APACHE;
            break;
        case 'r':
            kind = RA_LF_REQUEST;
            break;
        case 's':
            kind = RA_LF_STATUS;
            break;
        case 'b': case 'B':
            kind = RA_LF_BYTES;
            break;
        case 'm':
            kind = RA_LF_METHOD;
            break;
        case 'U':
            kind = RA_LF_URI;
            break;
        case 'q':
            /* %U%q: the query belongs to the URI field */
            if (f->nitems && f->items[f->nitems - 1].kind == RA_LF_URI) {
                continue;
            }
            kind = RA_LF_SKIP;
            break;
        case 'v': case 'V':
            kind = RA_LF_HOST;
            break;
        case 'i':
            kind = ra_log_apache_header(arg);
            break;
        default:
            kind = RA_LF_SKIP;
            break;
        }
        if (ra_logfmt_field(&cc, kind) != RA_OK) {
            goto fail;
        }
    }

    /* a field between '"'s is read up to its closing quote */
    for (i = 0; i < f->nitems; i++) {
        it = &f->items[i];
        if (it->kind != RA_LF_LITERAL && i > 0 && i + 1 < f->nitems
            && f->text[f->items[i - 1].off + f->items[i - 1].len - 1] == '"'
            && f->text[f->items[i + 1].off] == '"')
        {
            it->quoted = 1;
        }
    }

    if (!(f->fields & (RA_F(RA_LF_TIME_LOCAL) | RA_F(RA_LF_TIME_APACHE)
                       | RA_F(RA_LF_TIME_ISO) | RA_F(RA_LF_MSEC))))
    {
        cc.err = "the format has no time ($time_local, $time_iso8601, "
                 "$msec, %t)";
        goto fail;
    }
    if (!(f->fields & RA_F(RA_LF_ADDR))) {
        cc.err = "the format has no client address ($remote_addr, %h, %a)";
        goto fail;
    }
    if (!(f->fields & RA_F(RA_LF_REQUEST))
        && (f->fields & (RA_F(RA_LF_METHOD) | RA_F(RA_LF_URI)))
           != (RA_F(RA_LF_METHOD) | RA_F(RA_LF_URI)))
    {
        cc.err = "the format has no request ($request, or $request_method "
                 "and $request_uri; %r, or %m and %U)";
        goto fail;
    }
    if (!(f->fields & RA_F(RA_LF_STATUS))) {
        cc.err = "the format has no status ($status, %s, %>s)";
        goto fail;
    }
    return RA_OK;

fail:
    *err = cc.err;
    return RA_ERROR;
}
