/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Page-level directive lists: the X-Robots-Tag grammar, the directives
 * crawlers understand, what applies to one crawler, and the conflicts of
 * one answer with robots.txt.  The HTML meta scan that feeds the same
 * lists lives in ra_pagedir_html.c.
 */
#include "ra_datefmt.h"
#include "ra_pagedir.h"

typedef struct {
    const char  *name;
    uint32_t     bit;
    unsigned     valued:1;      /* "name: value" */
} ra_pd_word_t;

static const ra_pd_word_t  ra_pd_words[] = {
    { "noindex",           RA_PD_NOINDEX,           0 },
    { "nofollow",          RA_PD_NOFOLLOW,          0 },
    { "none",              RA_PD_NONE,              0 },
    { "noarchive",         RA_PD_NOARCHIVE,         0 },
    { "nosnippet",         RA_PD_NOSNIPPET,         0 },
    { "max-snippet",       RA_PD_MAX_SNIPPET,       1 },
    { "unavailable_after", RA_PD_UNAVAILABLE_AFTER, 1 },
    { "noai",              RA_PD_NOAI,              0 },
    { "noimageai",         RA_PD_NOIMAGEAI,         0 },
    { "nocache",           RA_PD_NOCACHE,           0 },
    { "noimageindex",      RA_PD_NOIMAGEINDEX,      0 },
    { "notranslate",       RA_PD_NOTRANSLATE,       0 },
    { "max-image-preview", RA_PD_MAX_IMAGE_PREVIEW, 1 },
    { "max-video-preview", RA_PD_MAX_VIDEO_PREVIEW, 1 },
    { "indexifembedded",   RA_PD_INDEXIFEMBEDDED,   0 },
    { "index",             RA_PD_INDEX,             0 },
    { "follow",            RA_PD_FOLLOW,            0 },
    { "all",               RA_PD_ALL,               0 },
};

#define RA_PD_NWORDS  (sizeof(ra_pd_words) / sizeof(ra_pd_words[0]))

/*
 * What each crawler's documentation says it honours.  Google retired
 * noarchive in 2024 and reads no nocache; Bing documents nocache but not
 * unavailable_after, noimageindex or notranslate; neither names noai or
 * noimageai, which only some image sites' own crawlers read.
 */
typedef struct {
    const char  *token;
    uint32_t     honours;
} ra_pd_honour_t;

#define RA_PD_COMMON  (RA_PD_NOINDEX | RA_PD_NOFOLLOW | RA_PD_NONE          \
    | RA_PD_NOSNIPPET | RA_PD_MAX_SNIPPET | RA_PD_MAX_IMAGE_PREVIEW          \
    | RA_PD_MAX_VIDEO_PREVIEW | RA_PD_INDEX | RA_PD_FOLLOW | RA_PD_ALL)

static const ra_pd_honour_t  ra_pd_honours[] = {
    { "googlebot", RA_PD_COMMON | RA_PD_UNAVAILABLE_AFTER
                   | RA_PD_NOIMAGEINDEX | RA_PD_NOTRANSLATE
                   | RA_PD_INDEXIFEMBEDDED },
    { "bingbot",   RA_PD_COMMON | RA_PD_NOARCHIVE | RA_PD_NOCACHE },
};

#define RA_PD_NHONOURS  (sizeof(ra_pd_honours) / sizeof(ra_pd_honours[0]))

static const char *const  ra_conflict_names[RA_CONFLICT_KINDS] = {
    "noindex-disallowed", "noindex-crawled", "header-meta", "ignored"
};

void
ra_pagedir_init(ra_pagedir_t *pd)
{
    memset(pd, 0, sizeof(*pd));
}

void
ra_pagedir_start(ra_pagedir_t *pd, const ra_str_t *values, size_t n)
{
    size_t  i;

    ra_pagedir_init(pd);
    for (i = 0; i < n; i++) {
        ra_pagedir_header(pd, values[i]);
    }
}

const char *
ra_conflict_kind_name(ra_conflict_kind_e kind)
{
    return (unsigned) kind < RA_CONFLICT_KINDS ? ra_conflict_names[kind]
                                               : "unknown";
}

const char *
ra_pagedir_name(uint32_t bit)
{
    size_t  i;

    for (i = 0; i < RA_PD_NWORDS; i++) {
        if (ra_pd_words[i].bit == bit) {
            return ra_pd_words[i].name;
        }
    }
    return NULL;
}

static const ra_pd_word_t *
ra_pd_word(ra_str_t name)
{
    size_t  i;

    for (i = 0; i < RA_PD_NWORDS; i++) {
        if (ra_strcaseeq(name, ra_str_z(ra_pd_words[i].name))) {
            return &ra_pd_words[i];
        }
    }
    return NULL;
}

/* The part of s before its first ':' (all of s when none), trimmed;
 * *value gets the rest after the ':' (empty when none). */
static ra_str_t
ra_pd_split(ra_str_t s, ra_str_t *value, int *colon)
{
    const unsigned char  *c = s.len ? memchr(s.data, ':', s.len) : NULL;

    if (c == NULL) {
        *value = ra_str("", 0);
        *colon = 0;
        return ra_space_trim(s);
    }
    *colon = 1;
    *value = ra_space_trim(ra_str(c + 1, (size_t) (s.data + s.len - c - 1)));
    return ra_space_trim(ra_str(s.data, (size_t) (c - s.data)));
}

/* max-snippet's value: -1 or a count (capped, never overflowing) */
static int
ra_pd_snippet(ra_str_t v, int32_t *out)
{
    size_t   i;
    int32_t  n = 0;

    if (v.len == 2 && v.data[0] == '-' && v.data[1] == '1') {
        *out = -1;
        return 1;
    }
    if (v.len == 0 || v.len > 9) {
        return 0;
    }
    for (i = 0; i < v.len; i++) {
        if (!ra_isdigit(v.data[i])) {
            return 0;
        }
        n = n * 10 + (v.data[i] - '0');
    }
    *out = n;
    return 1;
}

/* One directive "name" or "name: value"; 0 when it is not one. */
static int
ra_pd_directive(ra_pd_set_t *set, ra_str_t item)
{
    int                  colon;
    int32_t              n;
    ra_str_t             value, name = ra_pd_split(item, &value, &colon);
    const ra_pd_word_t  *w = ra_pd_word(name);

    if (w == NULL || (colon && !w->valued)) {
        return 0;
    }
    if (w->bit == RA_PD_MAX_SNIPPET) {
        if (!ra_pd_snippet(value, &n)) {
            return 0;
        }
        if (!(set->flags & RA_PD_MAX_SNIPPET) || set->max_snippet < 0
            || (n >= 0 && n < set->max_snippet))
        {
            set->max_snippet = n;
        }
    }
    set->flags |= w->bit;
    if (w->bit == RA_PD_NONE) {
        set->flags |= RA_PD_NOINDEX | RA_PD_NOFOLLOW;
    } else if (w->bit == RA_PD_UNAVAILABLE_AFTER
               && set->unavailable_after.len == 0)
    {
        set->unavailable_after = value;
        set->date_ok = ra_pagedir_date_ok(value);
    }
    return 1;
}

static void
ra_pd_unknown(ra_pd_set_t *set, ra_str_t item)
{
    if (set->unknown++ == 0) {
        set->first_unknown = item;
    }
}

/* Does item end "unavailable_after: WORD", WORD letters only (a weekday
 * whose comma belongs to the date)? */
static int
ra_pd_weekday(ra_str_t item)
{
    size_t    i = item.len, k, e;
    ra_str_t  value, name;

    while (i && item.data[i - 1] != ':') {
        i--;
    }
    if (i == 0) {
        return 0;
    }
    value = ra_space_trim(ra_str(item.data + i, item.len - i));
    if (value.len < 3 || value.len > 9) {
        return 0;
    }
    for (k = 0; k < value.len; k++) {
        if (!ra_isalpha(value.data[k])) {
            return 0;
        }
    }
    e = i - 1;                  /* the ':' */
    for (k = e; k && item.data[k - 1] != ':'; k--) {
        /* void */
    }
    name = ra_space_trim(ra_str(item.data + k, e - k));
    return ra_strcaseeq(name, ra_str("unavailable_after", 17));
}

/*
 * The next element of a comma separated list; the comma after a weekday
 * in unavailable_after's date ("Fri, 25 Jun ...") does not end it.  An
 * element goes on past at most one such comma, so each byte is read a
 * bounded number of times.
 */
static ra_str_t
ra_pd_next(ra_str_t *rest)
{
    const unsigned char  *end = rest->data + rest->len, *c;
    ra_str_t              item;
    int                   more = 1;

    c = memchr(rest->data, ',', rest->len);
    if (c != NULL && ra_pd_weekday(ra_str(rest->data,
                                          (size_t) (c - rest->data))))
    {
        c = memchr(c + 1, ',', (size_t) (end - c - 1));
    }
    if (c == NULL) {
        c = end;
        more = 0;
    }
    item = ra_str(rest->data, (size_t) (c - rest->data));
    if (more) {
        rest->len -= item.len + 1;
        rest->data = c + 1;
    } else {
        rest->data = end;
        rest->len = 0;
    }
    return item;
}

void
ra_pagedir_list(ra_pd_set_t *set, ra_str_t list)
{
    ra_str_t  item;

    while (list.len) {
        item = ra_space_trim(ra_pd_next(&list));
        if (item.len && !ra_pd_directive(set, item)) {
            ra_pd_unknown(set, item);
        }
    }
}

/* The scope for (source, agent), made when there is room; NULL past
 * RA_PD_SCOPES (counted in dropped). */
static ra_pd_set_t *
ra_pd_scope(ra_pagedir_t *pd, ra_pd_source_e source, ra_str_t agent)
{
    uint32_t        i;
    ra_pd_scope_t  *s;

    for (i = 0; i < pd->nscopes; i++) {
        s = &pd->scopes[i];
        if (s->source == source && ra_strcaseeq(s->agent, agent)) {
            return &s->set;
        }
    }
    if (pd->nscopes == RA_PD_SCOPES) {
        pd->dropped++;
        return NULL;
    }
    s = &pd->scopes[pd->nscopes++];
    memset(s, 0, sizeof(*s));
    s->agent = agent;
    s->source = source;
    return &s->set;
}

int
ra_pagedir_add(ra_pagedir_t *pd, ra_pd_source_e source, ra_str_t agent,
    ra_str_t list)
{
    ra_pd_set_t  tmp, *set;

    memset(&tmp, 0, sizeof(tmp));
    ra_pagedir_list(&tmp, list);
    if (tmp.flags == 0 && tmp.unknown == 0) {
        return 0;
    }
    set = ra_pd_scope(pd, source, agent);
    if (set == NULL) {
        return 0;
    }
    if (tmp.flags & RA_PD_MAX_SNIPPET) {
        if (!(set->flags & RA_PD_MAX_SNIPPET) || set->max_snippet < 0
            || (tmp.max_snippet >= 0 && tmp.max_snippet < set->max_snippet))
        {
            set->max_snippet = tmp.max_snippet;
        }
    }
    if (tmp.unavailable_after.len && set->unavailable_after.len == 0) {
        set->unavailable_after = tmp.unavailable_after;
        set->date_ok = tmp.date_ok;
    }
    if (tmp.unknown && set->unknown == 0) {
        set->first_unknown = tmp.first_unknown;
    }
    set->unknown += tmp.unknown;
    set->flags |= tmp.flags;
    return 1;
}

/* Is s a user-agent product token (letters, digits, '-', '_')? */
static int
ra_pd_token(ra_str_t s)
{
    size_t  i;

    if (s.len == 0) {
        return 0;
    }
    for (i = 0; i < s.len; i++) {
        if (!ra_isalpha(s.data[i]) && !ra_isdigit(s.data[i])
            && s.data[i] != '-' && s.data[i] != '_')
        {
            return 0;
        }
    }
    return 1;
}

void
ra_pagedir_header(ra_pagedir_t *pd, ra_str_t value)
{
    ra_str_t  rest = value, item, name, v, agent = ra_str("", 0);
    int       colon;

    pd->headers++;
    /* An element "token: ..." where token is no directive starts the
     * list of that crawler; the elements after it belong to it too. */
    while (rest.len) {
        item = ra_pd_next(&rest);
        name = ra_pd_split(item, &v, &colon);
        if (colon && ra_pd_word(name) == NULL && ra_pd_token(name)) {
            agent = name;
            item = v;
        }
        (void) ra_pagedir_add(pd, RA_PD_HEADER, agent, item);
    }
}

unsigned
ra_pagedir_for(const ra_pagedir_t *pd, unsigned mask, ra_str_t crawler,
    ra_pd_set_t *out)
{
    uint32_t              i;
    unsigned              n = 0;
    const ra_pd_scope_t  *s;

    memset(out, 0, sizeof(*out));
    for (i = 0; i < pd->nscopes; i++) {
        s = &pd->scopes[i];
        if (!(mask & (1u << s->source))
            || (s->agent.len && !ra_strcaseeq(s->agent, crawler)))
        {
            continue;
        }
        n++;
        if (s->set.flags & RA_PD_MAX_SNIPPET) {
            if (!(out->flags & RA_PD_MAX_SNIPPET) || out->max_snippet < 0
                || (s->set.max_snippet >= 0
                    && s->set.max_snippet < out->max_snippet))
            {
                out->max_snippet = s->set.max_snippet;
            }
        }
        if (s->set.unavailable_after.len && out->unavailable_after.len == 0) {
            out->unavailable_after = s->set.unavailable_after;
            out->date_ok = s->set.date_ok;
        }
        if (s->set.unknown && out->unknown == 0) {
            out->first_unknown = s->set.first_unknown;
        }
        out->unknown += s->set.unknown;
        out->flags |= s->set.flags;
    }
    return n;
}

uint32_t
ra_pagedir_ignored(ra_str_t crawler, uint32_t flags)
{
    size_t  i;

    for (i = 0; i < RA_PD_NHONOURS; i++) {
        if (ra_strcaseeq(crawler, ra_str_z(ra_pd_honours[i].token))) {
            return flags & RA_PD_RESTRICTIVE & ~ra_pd_honours[i].honours;
        }
    }
    return 0;
}

/* The conflicts for one crawler (crawler "*": every crawler). */
static void
ra_pd_conflicts_for(const ra_pagedir_t *pd, const ra_rules_t *rules,
    ra_str_t crawler, ra_str_t path, ra_conflict_cb cb, void *ctx)
{
    int            star = crawler.len == 1 && crawler.data[0] == '*';
    ra_str_t       who = star ? ra_str("", 0) : crawler;
    ra_pd_set_t    all, hdr, meta;
    ra_conflict_t  c;
    uint32_t       diff;
    unsigned       nh, nm;

    memset(&c, 0, sizeof(c));
    c.crawler = crawler;
    (void) ra_pagedir_for(pd, 3u, who, &all);

    if (rules != NULL && (all.flags & RA_PD_NOINDEX)) {
        (void) ra_rules_match(rules, RA_MODE_GOOGLE, &who, star ? 0 : 1,
                              path, NULL, &c.match);
        if (!c.match.allowed) {
            c.kind = RA_CONFLICT_NOINDEX_DISALLOWED;
            c.flags = RA_PD_NOINDEX;
            cb(ctx, &c);
        }
        memset(&c.match, 0, sizeof(c.match));
    }

    nh = ra_pagedir_for(pd, 1u << RA_PD_HEADER, who, &hdr);
    nm = ra_pagedir_for(pd, 1u << RA_PD_META, who, &meta);
    diff = (hdr.flags ^ meta.flags) & RA_PD_RESTRICTIVE;
    if (nh && nm && diff) {
        c.kind = RA_CONFLICT_HEADER_META;
        c.flags = diff;
        cb(ctx, &c);
    }

    if (!star) {
        c.flags = ra_pagedir_ignored(crawler, all.flags);
        if (c.flags) {
            c.kind = RA_CONFLICT_IGNORED;
            cb(ctx, &c);
        }
    }
}

void
ra_pagedir_conflicts(const ra_pagedir_t *pd, const ra_rules_t *rules,
    ra_str_t path, ra_conflict_cb cb, void *ctx)
{
    ra_pagedir_conflicts_with(pd, rules, path, ra_str("", 0), cb, ctx);
}

void
ra_pagedir_conflicts_with(const ra_pagedir_t *pd, const ra_rules_t *rules,
    ra_str_t path, ra_str_t also, ra_conflict_cb cb, void *ctx)
{
    static const ra_str_t  fixed[] = {
        ra_string("*"), ra_string("Googlebot"), ra_string("Bingbot")
    };
    size_t                 i;
    uint32_t               j, k;
    int                    seen;

    for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
        ra_pd_conflicts_for(pd, rules, fixed[i], path, cb, ctx);
    }
    /* each crawler a scope names, once */
    for (j = 0; j < pd->nscopes; j++) {
        ra_str_t  a = pd->scopes[j].agent;

        if (a.len == 0) {
            continue;
        }
        seen = 0;
        for (i = 1; i < sizeof(fixed) / sizeof(fixed[0]) && !seen; i++) {
            seen = ra_strcaseeq(a, fixed[i]);
        }
        for (k = 0; k < j && !seen; k++) {
            seen = ra_strcaseeq(a, pd->scopes[k].agent);
        }
        if (!seen) {
            ra_pd_conflicts_for(pd, rules, a, path, cb, ctx);
        }
    }
    /* the crawler that asked, unless it was judged above */
    if (also.len == 0) {
        return;
    }
    for (i = 1; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
        if (ra_strcaseeq(also, fixed[i])) {
            return;
        }
    }
    for (j = 0; j < pd->nscopes; j++) {
        if (ra_strcaseeq(also, pd->scopes[j].agent)) {
            return;
        }
    }
    ra_pd_conflicts_for(pd, rules, also, path, cb, ctx);
}

int
ra_pagedir_date_ok(ra_str_t date)
{
    return ra_date_mail(date) || ra_date_w3c(date);
}
