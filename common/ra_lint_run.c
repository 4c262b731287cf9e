/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * robots.txt lint: the run (ra_lint.h).
 *
 * Three passes over the body, all linear: a counting parse that sizes the
 * rule table, the linting parse (the checks of each line, ra_lint_line.c),
 * and (only when the body is over 500 KiB) a parse of what lies past the
 * cut to count the rules crawlers lose (ra_lint_http.c).  Group checks
 * (duplicates, same pattern, shadowing) then run per written group, and
 * the asset check asks the compiled matcher what Googlebot decides for
 * typical CSS/JS URLs (ra_lint_group.c).  Findings come back sorted by
 * place.
 */
#include <stdlib.h>
#include <string.h>

#include "ra_lint_impl.h"

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
