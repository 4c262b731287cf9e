/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * robots.txt lint: what a file states beyond crawl rules.  AI-preference
 * lines (Content-Signal, Content-Usage) and groups for policy tokens
 * (Google-Extended): whether readers can take a preference from them, and
 * what they state, kept for the reports.
 */
#include <stdio.h>      /* snprintf() only: no I/O in the core */
#include <string.h>

#include "ra_lint_impl.h"
#include "ra_sf.h"

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
    *item = ra_ows_trim(ra_str(p, (size_t) (c - p)));
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
        key = ra_ows_trim(ra_str(item.data, (size_t) (eq - item.data)));
        val = ra_ows_trim(ra_str(eq + 1, item.len
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
        list = ra_ows_trim(ra_str(v.data + i, v.len - i));
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
int
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
const ra_crawler_t *
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
void
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
