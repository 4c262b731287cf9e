/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The robots.txt that says which purposes may crawl: which tokens a
 * disallowed purpose lists (ra_robotsgen.h says why each is left out),
 * the marked block that holds them, its merging into an existing file,
 * and what a file lets each crawler of the table do.
 */
#include <string.h>

#include "ra_audit.h"
#include "ra_parse.h"
#include "ra_robotsgen.h"

/* Comment lines are wrapped here so that the block reads in a terminal. */
#define RA_RG_WRAP  76

static int
ra_rg_in(unsigned set, const ra_crawler_t *c)
{
    return c->category < RA_CAT_MAX && (set & (1u << c->category)) != 0;
}

static int
ra_rg_names(const ra_crawler_t *c, ra_str_t tok)
{
    size_t  k;

    for (k = 0; k < c->ntokens; k++) {
        if (ra_strcaseeq(c->tokens[k], tok)) {
            return 1;
        }
    }
    return 0;
}

/* Is (d, its token j) before (c, its token k) in the block's order:
 * purposes in ra_crawler_category_e order, then table order? */
static int
ra_rg_before(const ra_crawler_t *d, size_t j, const ra_crawler_t *c,
    size_t k)
{
    if (d->category != c->category) {
        return d->category < c->category;
    }
    return d->id != c->id ? d->id < c->id : j < k;
}

unsigned
ra_robotsgen_fate(const ra_crawlers_t *t, const ra_robotsgen_opts_t *o,
    const ra_crawler_t *c, size_t k, const ra_crawler_t **who)
{
    ra_str_t             tok = c->tokens[k];
    size_t               i, j, n = ra_crawlers_count(t);
    const ra_crawler_t  *d;
    int                  obeyed = 0;

    if (who != NULL) {
        *who = NULL;
    }
    if (ra_ua_token(tok).len != tok.len) {
        return RA_RG_UNREADABLE;
    }
    for (i = 0; i < n; i++) {
        d = ra_crawlers_get(t, i);
        if (ra_rg_in(o->allow, d) && ra_rg_names(d, tok)) {
            if (who != NULL) {
                *who = d;
            }
            return RA_RG_ALLOWED;
        }
    }
    for (i = 0; i < n; i++) {
        d = ra_crawlers_get(t, i);
        if (!ra_rg_in(o->disallow, d) && ra_strcaseeq(d->tokens[0], tok)) {
            if (who != NULL) {
                *who = d;
            }
            return RA_RG_SHARED;
        }
        if (ra_rg_in(o->disallow, d) && ra_rg_names(d, tok)
            && !(d->flags & RA_CRAWLER_USER_TRIGGERED))
        {
            obeyed = 1;
        }
    }
    if (!obeyed) {
        return RA_RG_USER_TRIGGERED;
    }
    /* listed once, where it first comes among crawlers that obey */
    for (i = 0; i < n; i++) {
        d = ra_crawlers_get(t, i);
        if (!ra_rg_in(o->disallow, d)
            || (d->flags & RA_CRAWLER_USER_TRIGGERED))
        {
            continue;
        }
        for (j = 0; j < d->ntokens; j++) {
            if (ra_strcaseeq(d->tokens[j], tok)
                && ra_rg_before(d, j, c, k))
            {
                return RA_RG_DUPLICATE;
            }
        }
    }
    return (c->flags & RA_CRAWLER_USER_TRIGGERED) ? RA_RG_DUPLICATE
                                                  : RA_RG_LISTED;
}

/* Does a crawler of c's purpose before c (or c, before token k) name
 * c's token k?  Then a comment has named it already. */
static int
ra_rg_named_before(const ra_crawlers_t *t, const ra_crawler_t *c, size_t k)
{
    size_t               i, j;
    const ra_crawler_t  *d;

    for (i = 0; i <= c->id && i < ra_crawlers_count(t); i++) {
        d = ra_crawlers_get(t, i);
        if (d->category != c->category) {
            continue;
        }
        for (j = 0; j < (d == c ? k : d->ntokens); j++) {
            if (ra_strcaseeq(d->tokens[j], c->tokens[k])) {
                return 1;
            }
        }
    }
    return 0;
}

/* A comment that names tokens, wrapped: "# LEAD tok, tok, ..." */
typedef struct {
    ra_buf_t    *b;
    const char  *lead;
    size_t       col;           /* 0: nothing written yet */
} ra_rg_list_t;

static void
ra_rg_list_add(ra_rg_list_t *l, ra_str_t tok, size_t extra)
{
    if (l->col == 0) {
        ra_buf_printf(l->b, "# %s", l->lead);
        l->col = 2 + strlen(l->lead);
        if (l->col + tok.len + extra + 1 > RA_RG_WRAP) {
            ra_buf_cstr(l->b, "\n#  ");
            l->col = 3;
        }
        ra_buf_ch(l->b, ' ');
        l->col++;
    } else if (l->col + tok.len + extra + 2 > RA_RG_WRAP) {
        ra_buf_cstr(l->b, ",\n#   ");
        l->col = 4;
    } else {
        ra_buf_cstr(l->b, ", ");
        l->col += 2;
    }
    ra_buf_str(l->b, tok);
    l->col += tok.len;
}

static void
ra_rg_list_end(ra_rg_list_t *l)
{
    if (l->col != 0) {
        ra_buf_ch(l->b, '\n');
    }
}

/* The options as the BEGIN line shows them: the purposes by name, in
 * category order, so that any spelling of the same request gives the
 * same block. */
static void
ra_rg_command(ra_buf_t *b, const ra_robotsgen_opts_t *o)
{
    unsigned     c, which, set;
    const char  *sep;

    ra_buf_cstr(b, "robots-audit robots-txt");
    for (which = 0; which < 2; which++) {
        set = which == 0 ? o->disallow : o->allow;
        if ((set & ((1u << RA_CAT_MAX) - 1)) == 0) {
            continue;
        }
        ra_buf_cstr(b, which == 0 ? " --disallow-purpose "
                                  : " --allow-purpose ");
        for (c = 0, sep = ""; c < RA_CAT_MAX; c++) {
            if (set & (1u << c)) {
                ra_buf_printf(b, "%s%s", sep, ra_crawler_category_name(c));
                sep = ",";
            }
        }
    }
    if (o->content_signal.len) {
        ra_buf_cstr(b, " --content-signal '");
        ra_buf_str(b, o->content_signal);
        ra_buf_ch(b, '\'');
    }
}

/* One disallowed purpose: its group, then the tokens left out. */
static void
ra_rg_purpose(const ra_crawlers_t *t, const ra_robotsgen_opts_t *o,
    unsigned cat, ra_buf_t *b)
{
    size_t               i, k, n = ra_crawlers_count(t), listed = 0, extra;
    unsigned             fate, pass;
    const ra_crawler_t  *c, *who;
    ra_rg_list_t         l;

    ra_buf_printf(b, "\n# %s: disallowed\n", ra_crawler_category_name(cat));
    for (i = 0; i < n; i++) {
        c = ra_crawlers_get(t, i);
        if (c->category != cat) {
            continue;
        }
        for (k = 0; k < c->ntokens; k++) {
            if (ra_robotsgen_fate(t, o, c, k, NULL) == RA_RG_LISTED) {
                ra_buf_cstr(b, "User-agent: ");
                ra_buf_str(b, c->tokens[k]);
                ra_buf_ch(b, '\n');
                listed++;
            }
        }
    }
    if (listed) {
        ra_buf_cstr(b, "Disallow: /\n");
    } else {
        ra_buf_cstr(b, "# (no token of its own to list)\n");
    }

    /* the tokens left out, one comment each kind */
    for (pass = RA_RG_ALLOWED; pass <= RA_RG_UNREADABLE; pass++) {
        l.b = b;
        l.col = 0;
        l.lead = pass == RA_RG_ALLOWED
                 ? "left out, an allowed purpose names them:"
                 : pass == RA_RG_SHARED
                 ? "left out, shared with a crawler not disallowed:"
                 : pass == RA_RG_USER_TRIGGERED
                 ? "user-triggered, robots.txt does not apply (refuse"
                   " at the server):"
                 : "left out, not product tokens (letters, '-', '_'):";
        for (i = 0; i < n; i++) {
            c = ra_crawlers_get(t, i);
            if (c->category != cat) {
                continue;
            }
            for (k = 0; k < c->ntokens; k++) {
                fate = ra_robotsgen_fate(t, o, c, k, &who);
                if (fate != pass || ra_rg_named_before(t, c, k)) {
                    continue;
                }
                /* " (NAME, purpose)" after the token */
                extra = who == NULL ? 0
                        : who->name.len + 5 + strlen(
                              ra_crawler_category_name(who->category));
                ra_rg_list_add(&l, c->tokens[k], extra);
                if (who != NULL) {
                    ra_buf_printf(b, " (%.*s, %s)", (int) who->name.len,
                                  (const char *) who->name.data,
                                  ra_crawler_category_name(who->category));
                    l.col += extra;
                }
            }
        }
        ra_rg_list_end(&l);
    }
}

const char *
ra_robotsgen_block(const ra_crawlers_t *t, const ra_robotsgen_opts_t *o,
    ra_buf_t *b)
{
    size_t    i;
    unsigned  cat, dis;
    int       c;

    dis = o->disallow & ~o->allow & ((1u << RA_CAT_MAX) - 1);
    for (i = 0; i < o->content_signal.len; i++) {
        c = o->content_signal.data[i];
        if (c < 0x20 || c == 0x7f || c == '#' || c == '\'') {
            return "the content signal holds a control character, '#' or"
                   " a quote: it must stand on one line of its own";
        }
    }
    if (dis == 0 && o->content_signal.len == 0) {
        return "nothing to write: give --disallow-purpose or"
               " --content-signal";
    }

    ra_buf_cstr(b, RA_ROBOTSGEN_BEGIN " (generated: ");
    ra_rg_command(b, o);
    ra_buf_cstr(b, ")\n"
        "# Replaced whole by the next run: change the command, not these\n"
        "# lines.  One group per purpose, every robots.txt token of the\n"
        "# crawler table for it.\n");
    for (cat = 0; cat < RA_CAT_MAX; cat++) {
        if (o->disallow & o->allow & (1u << cat)) {
            ra_buf_printf(b, "\n# %s: both disallowed and allowed; allowed"
                          " wins, no group\n", ra_crawler_category_name(cat));
        }
    }
    for (cat = 0; cat < RA_CAT_MAX; cat++) {
        if (dis & (1u << cat)) {
            ra_rg_purpose(t, o, cat, b);
        }
    }
    for (cat = 0; cat < RA_CAT_MAX; cat++) {
        if (o->allow & (1u << cat)) {
            ra_buf_printf(b, "\n# %s: allowed; no group needed, since no"
                          " token of its crawlers\n# is listed above\n",
                          ra_crawler_category_name(cat));
        }
    }
    if (o->content_signal.len) {
        ra_buf_cstr(b, "\n# Content Signals Policy for every reader: a"
                    " statement of use,\n# crawling is unchanged\n"
                    "User-agent: *\nContent-Signal: ");
        ra_buf_str(b, o->content_signal);
        ra_buf_ch(b, '\n');
    }
    ra_buf_cstr(b, RA_ROBOTSGEN_END "\n");
    return NULL;
}

/* The offset of the next line holding exactly the marker (a line that
 * starts with it), at or after from; len when none.  *next: the offset
 * after that line's end. */
static size_t
ra_rg_find(ra_str_t s, size_t from, const char *marker, size_t *next)
{
    size_t                m = strlen(marker), at = from;
    const unsigned char  *nl;

    while (at < s.len) {
        nl = memchr(s.data + at, '\n', s.len - at);
        *next = nl ? (size_t) (nl - s.data) + 1 : s.len;
        if (s.len - at >= m && memcmp(s.data + at, marker, m) == 0) {
            return at;
        }
        at = *next;
    }
    *next = s.len;
    return s.len;
}

const char *
ra_robotsgen_merge(ra_str_t file, ra_str_t block, ra_buf_t *out,
    size_t *start, size_t *end)
{
    size_t  begin, after, stop, rest;

    begin = ra_rg_find(file, 0, RA_ROBOTSGEN_BEGIN, &after);
    if (begin == file.len) {
        if (file.len) {
            ra_buf_str(out, file);
            if (file.data[file.len - 1] != '\n') {
                ra_buf_ch(out, '\n');
            }
            ra_buf_ch(out, '\n');
        }
        *start = out->len;
        ra_buf_str(out, block);
        *end = out->len;
        return NULL;
    }
    stop = ra_rg_find(file, after, RA_ROBOTSGEN_END, &rest);
    if (stop == file.len) {
        return "the file has a '" RA_ROBOTSGEN_BEGIN "' line and no '"
               RA_ROBOTSGEN_END "' after it: mend it by hand";
    }
    if (ra_rg_find(file, rest, RA_ROBOTSGEN_BEGIN, &after) != file.len) {
        return "the file has two '" RA_ROBOTSGEN_BEGIN "' blocks: keep one";
    }
    ra_buf_add(out, file.data, begin);
    *start = out->len;
    ra_buf_str(out, block);
    *end = out->len;
    ra_buf_add(out, file.data + rest, file.len - rest);
    return NULL;
}

typedef struct {
    size_t     start, end;
    uint32_t   first, last;     /* the block's lines; first 0: none */
} ra_rg_lines_t;

static int
ra_rg_line(void *ctx, const ra_line_t *ln)
{
    ra_rg_lines_t  *r = ctx;

    if (ln->offset >= r->start && ln->offset < r->end) {
        if (r->first == 0) {
            r->first = ln->line;
        }
        r->last = ln->line;
    }
    return RA_OK;
}

long
ra_robotsgen_lint(ra_str_t text, size_t start, size_t end,
    const ra_crawlers_t *t, const ra_alloc_t *a, ra_lint_t *l)
{
    ra_lint_http_t  http;
    ra_rg_lines_t   r;
    uint32_t        i;
    long            n = 0;

    memset(&http, 0, sizeof(http));
    http.crawlers = t;
    if (ra_lint(text, &http, a, l) != RA_OK) {
        return -1;
    }
    memset(&r, 0, sizeof(r));
    r.start = start;
    r.end = end;
    (void) ra_parse(text, ra_rg_line, &r, NULL);
    for (i = 0; i < l->nfindings; i++) {
        if (l->findings[i].severity != RA_SEV_INFO && r.first != 0
            && l->findings[i].line >= r.first
            && l->findings[i].line <= r.last)
        {
            n++;
        }
    }
    return n;
}

/* Does a group for the token (or "*") disallow any path? */
typedef struct {
    ra_str_t   token;
    int        star;
    int        in_agents;       /* the last directive was a user-agent */
    int        matches;         /* the current group is the token's */
    int        disallows;
} ra_rg_group_t;

static int
ra_rg_group_line(void *ctx, const ra_line_t *ln)
{
    ra_rg_group_t  *g = ctx;

    if (ln->kind != RA_LINE_DIRECTIVE) {
        return RA_OK;
    }
    if (ln->key == RA_KEY_USER_AGENT) {
        if (!g->in_agents) {
            g->matches = 0;
        }
        g->in_agents = 1;
        if (g->star ? ra_ua_is_global(ln->value)
                    : (!ra_ua_is_global(ln->value)
                       && ra_strcaseeq(ra_ua_token(ln->value), g->token)))
        {
            g->matches = 1;
        }
        return RA_OK;
    }
    if (ln->key == RA_KEY_SITEMAP || ln->key == RA_KEY_UNKNOWN) {
        return RA_OK;       /* neither ends the agents nor is a rule */
    }
    g->in_agents = 0;
    if (g->matches && ln->key == RA_KEY_DISALLOW && ln->value.len) {
        g->disallows = 1;
    }
    return RA_OK;
}

int
ra_robotsgen_judge(const ra_rules_t *rs, ra_str_t body,
    const ra_crawler_t *c, const ra_alloc_t *scratch,
    ra_robotsgen_judged_t *out)
{
    ra_judge_who_t  who;
    ra_match_t      m;
    ra_rg_group_t   g;
    int             allowed;

    memset(&who, 0, sizeof(who));
    who.tokens = c->tokens;
    who.ntokens = c->ntokens;
    who.flags = c->flags;
    allowed = ra_judge_allows(rs, &who, ra_str("/", 1), scratch, &m);
    out->group = m.group;
    out->line = m.line ? m.line : m.group_line;
    if (!allowed) {
        out->verdict = RA_RG_DISALLOW;
        return RA_OK;
    }
    out->verdict = RA_RG_ALLOW;
    if (m.group.len == 0) {
        return RA_OK;
    }
    memset(&g, 0, sizeof(g));
    g.token = m.group;
    g.star = m.group.len == 1 && m.group.data[0] == '*';
    (void) ra_parse(body, ra_rg_group_line, &g, NULL);
    if (g.disallows) {
        out->verdict = RA_RG_PARTLY;
    }
    return RA_OK;
}

const char *
ra_robotsgen_verdict_name(unsigned verdict)
{
    return verdict == RA_RG_DISALLOW ? "disallowed"
           : verdict == RA_RG_PARTLY ? "partly" : "allowed";
}
