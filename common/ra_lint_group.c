/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * robots.txt lint: the checks of whole groups.  Rules written twice,
 * allowed and disallowed alike or shadowed by another, a group that
 * disallows everything, CSS and JavaScript Googlebot cannot fetch, and a
 * group that drops the rules of "*" for its crawler.
 */
#include <stdio.h>      /* snprintf() only: no I/O in the core */
#include <stdlib.h>
#include <string.h>

#include "ra_lint_impl.h"

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
        hit = ra_memmem(tp, (size_t) (te - tp), sp, seg);
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

void
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
                && ra_memmem(b->value.data, b->value.len, "index.htm", 9)))
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

void
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

void
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
