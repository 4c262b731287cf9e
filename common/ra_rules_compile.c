/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Compiling a robots.txt body into a rule set, and the rule set's life.
 * The body is parsed twice: once to count, once to fill exactly sized
 * arrays with the groups, their rules (the value as written and its
 * normal form in each mode), their Crawl-delay and the user-agent lines
 * that name them.  The sets of groups each agent selects and their
 * indexes are then built from what the second pass kept
 * (ra_rules_groups.c, ra_rules_index.c).
 */
#include <string.h>

#include "ra_rules_impl.h"

/* Crawl-delay values are clamped to a day */
#define RA_CRAWL_DELAY_MAX_MS    86400000

/* pass state */
typedef struct {
    ra_rules_t  *rs;
    int          fill;
    int32_t      group;
    int          group_has_rule;
    uint32_t     nrules;
    uint32_t     ngroups;
    uint32_t     nua;
    ra_ua_t     *ua;
    int          failed;
} ra_compile_t;

static int32_t
ra_parse_crawl_delay(ra_str_t v)
{
    size_t    i = 0;
    uint64_t  ms = 0, frac = 100;

    if (v.len == 0 || !ra_isdigit(v.data[0])) {
        return -1;
    }
    for ( /* void */ ; i < v.len && ra_isdigit(v.data[i]); i++) {
        ms = ms * 10 + (uint64_t) (v.data[i] - '0') * 1000;
        if (ms > RA_CRAWL_DELAY_MAX_MS) {
            ms = RA_CRAWL_DELAY_MAX_MS;
        }
    }
    if (i < v.len && v.data[i] == '.') {
        for (i++; i < v.len && ra_isdigit(v.data[i]); i++) {
            ms += (uint64_t) (v.data[i] - '0') * frac;
            frac /= 10;
        }
    }
    if (i != v.len) {
        return -1;
    }
    return (int32_t) (ms > RA_CRAWL_DELAY_MAX_MS ? RA_CRAWL_DELAY_MAX_MS : ms);
}

static int
ra_index_html_slash(ra_str_t norm, size_t *slash)
{
    size_t  i = norm.len;

    while (i > 0 && norm.data[i - 1] != '/') {
        i--;
    }
    if (i == 0) {
        return 0;
    }
    *slash = i - 1;
    return norm.len - *slash >= 10
           && memcmp(norm.data + *slash, "/index.htm", 10) == 0;
}

static int
ra_compile_rule(ra_compile_t *c, const ra_line_t *ln)
{
    int            m;
    size_t         n, slash;
    ra_rule_t     *r;
    ra_pool_t     *pool = &c->rs->pool;
    unsigned char *buf;

    if (!c->fill) {
        c->nrules++;
        return RA_OK;
    }

    r = &c->rs->rules[c->nrules++];
    r->line = ln->line;
    r->group = (uint32_t) c->group;
    r->type = ln->key == RA_KEY_ALLOW ? RA_RULE_ALLOW : RA_RULE_DISALLOW;
    r->value.len = ln->value.len;
    r->value.data = ra_pool_dup(pool, ln->value.data, ln->value.len);
    if (r->value.data == NULL) {
        return RA_ENOMEM;
    }

    for (m = 0; m < RA_MODES; m++) {
        buf = ra_pool_get(pool, 3 * ln->value.len + 1);
        if (buf == NULL) {
            return RA_ENOMEM;
        }
        n = m == RA_MODE_GOOGLE ? ra_rules_norm_google(ln->value, buf)
                                : ra_rules_norm_rfc(ln->value, buf, 0);
        r->norm[m] = ra_str(buf, n);

        /* Google: "Allow: /d/index.htm..." also allows "/d/" itself. */
        if (r->type == RA_RULE_ALLOW
            && ra_index_html_slash(r->norm[m], &slash))
        {
            buf = ra_pool_get(pool, slash + 2);
            if (buf == NULL) {
                return RA_ENOMEM;
            }
            memcpy(buf, r->norm[m].data, slash + 1);
            buf[slash + 1] = '$';
            r->index_html[m] = ra_str(buf, slash + 2);
        }
    }

    c->rs->groups[c->group].nrules++;
    return RA_OK;
}

static int
ra_compile_line(void *ctx, const ra_line_t *ln)
{
    ra_compile_t  *c = ctx;
    ra_group_t    *g;
    ra_str_t       tok;
    unsigned char *low;
    size_t         i;

    /* A line the 500 KiB limit cut is not a rule anyone wrote: kept, a
     * cut "Disallow: /private" would read as "Disallow: /" and close the
     * whole site.  Lint reports it; the rules ignore it. */
    if (ln->kind != RA_LINE_DIRECTIVE || (ln->flags & RA_LF_SIZE_CUT)) {
        return RA_OK;
    }

    switch (ln->key) {

    case RA_KEY_USER_AGENT:
        /* a user-agent line after a rule starts a new group */
        if (c->group < 0 || c->group_has_rule) {
            c->group = (int32_t) c->ngroups++;
            c->group_has_rule = 0;
            if (c->fill) {
                g = &c->rs->groups[c->group];
                g->first_rule = c->nrules;
                g->line = ln->line;
                g->crawl_delay_ms = -1;
            }
        }
        if (ra_ua_is_global(ln->value)) {
            if (c->fill) {
                c->rs->groups[c->group].global = 1;
            }
            return RA_OK;
        }
        if (c->fill) {
            tok = ra_ua_token(ln->value);
            low = ra_pool_get(&c->rs->pool, tok.len);
            if (low == NULL) {
                return RA_ENOMEM;
            }
            for (i = 0; i < tok.len; i++) {
                low[i] = (unsigned char) ra_lower(tok.data[i]);
            }
            c->ua[c->nua].token = ra_str(low, tok.len);
            c->ua[c->nua].group = (uint32_t) c->group;
        }
        c->nua++;
        return RA_OK;

    case RA_KEY_ALLOW:
    case RA_KEY_DISALLOW:
        if (c->group < 0) {
            return RA_OK;           /* RFC 9309 2.2.2: outside any group */
        }
        c->group_has_rule = 1;
        return ra_compile_rule(c, ln);

    case RA_KEY_SITEMAP:
        if (c->fill) {
            c->rs->sitemaps++;
        }
        return RA_OK;

    default:
        /* Crawl-delay: not Google's, but the auditor needs it per group */
        if (c->fill && c->group >= 0
            && ra_strcaseeq(ln->key_text, (ra_str_t) ra_string("crawl-delay")))
        {
            g = &c->rs->groups[c->group];
            if (g->crawl_delay_ms < 0) {
                g->crawl_delay_ms = ra_parse_crawl_delay(ln->value);
            }
        }
        return RA_OK;
    }
}

int
ra_rules_compile(ra_str_t body, const ra_alloc_t *a, ra_rules_t **out,
    ra_parse_info_t *info)
{
    int           rc;
    ra_pool_t     pool;
    ra_rules_t   *rs;
    ra_compile_t  c;

    *out = NULL;
    ra_pool_init(&pool, a);
    rs = ra_pool_calloc(&pool, 1, sizeof(ra_rules_t));
    if (rs == NULL) {
        return RA_ENOMEM;
    }
    rs->pool = pool;

    memset(&c, 0, sizeof(c));
    c.rs = rs;
    c.group = -1;
    (void) ra_parse(body, ra_compile_line, &c, info);

    rs->nrules = c.nrules;
    rs->ngroups = c.ngroups;
    rs->rules = ra_pool_calloc(&rs->pool, c.nrules + 1, sizeof(ra_rule_t));
    rs->groups = ra_pool_calloc(&rs->pool, c.ngroups + 1, sizeof(ra_group_t));
    c.ua = ra_pool_calloc(&rs->pool, c.nua + 1, sizeof(ra_ua_t));
    if (!rs->rules || !rs->groups || !c.ua) {
        rc = RA_ENOMEM;
        goto failed;
    }

    c.fill = 1;
    c.group = -1;
    c.group_has_rule = 0;
    c.nrules = c.ngroups = c.nua = 0;
    rc = ra_parse(body, ra_compile_line, &c, NULL);
    if (rc != RA_OK) {
        goto failed;
    }

    rc = ra_rules_link(rs, c.ua, c.nua);
    if (rc != RA_OK) {
        goto failed;
    }

    *out = rs;
    return RA_OK;

failed:
    pool = rs->pool;
    ra_pool_release(&pool);
    return rc;
}

int
ra_rules_empty(const ra_alloc_t *a, ra_rules_t **out)
{
    return ra_rules_compile(ra_str("", 0), a, out, NULL);
}

void
ra_rules_free(ra_rules_t *rs)
{
    ra_pool_t  pool;

    if (rs != NULL) {
        pool = rs->pool;
        ra_pool_release(&pool);
    }
}

size_t
ra_rules_bytes(const ra_rules_t *rs)
{
    return rs->pool.total;
}

void
ra_rules_stats(const ra_rules_t *rs, ra_rules_stats_t *st)
{
    st->groups = rs->ngroups;
    st->rules = rs->nrules;
    st->agents = rs->ntoks;
    st->sitemaps = rs->sitemaps;
    st->has_global = rs->global_set != RA_NONE;
}
