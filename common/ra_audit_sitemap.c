/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Sitemaps in the servers (ra_audit_sitemap.h): the site's list taken
 * from its robots.txt in force, which answer is a crawler's fetch of a
 * listed sitemap, and the capture of that answer as it streams through
 * the lint (ra_sitemap_lint_start()), recorded in the ledger at its end.
 */
#include <string.h>

#include "ra_audit_impl.h"
#include "ra_audit_sitemap.h"
#include "ra_parse.h"
#include "ra_sitemap.h"

#define RA_SM_READ  8192u               /* a file's bytes read at a time */

_Static_assert(RA_SITEMAP_KINDS == RA_SMF_NCODES,
               "the ledger counts every finding kind");

struct ra_sm_capture_s {
    ra_alloc_t          alloc;          /* the caller's, kept */
    const ra_alloc_t   *a;              /* &alloc */
    ra_sm_lint_t       *lint;
    ra_rules_t         *rules;
    ra_sm_summary_t     sum;
    ra_sitemap_t        got;            /* status, size, the lint */
    size_t              site_len, url_len, crawler_len;
    unsigned char       site[RA_SITE_NAME_MAX];
    unsigned char       url[RA_SITEMAP_URL_MAX];
    unsigned char       crawler[RA_SITEMAP_NAME_MAX];
    unsigned            failed:1;
    unsigned char       buf[RA_SM_READ];
};

/* ---- the list ------------------------------------------------------------ */

typedef struct {
    ra_str_t  urls[RA_SITEMAPS];
    uint32_t  n;
    uint32_t  lines;
} ra_sm_list_t;

static int
ra_sm_line(void *ctx, const ra_line_t *ln)
{
    ra_sm_list_t  *x = ctx;

    if (ln->kind == RA_LINE_DIRECTIVE && ln->key == RA_KEY_SITEMAP
        && ln->value.len)
    {
        x->lines++;
        if (x->n < RA_SITEMAPS && ln->value.len < RA_SITEMAP_URL_MAX) {
            x->urls[x->n++] = ln->value;
        }
    }
    return RA_OK;
}

void
ra_audit_sitemaps_listed(ra_audit_t *au, ra_str_t site,
    const ra_answer_t *ans, uint64_t hash, int64_t now)
{
    uint32_t      sid;
    ra_sm_list_t  x;
    ra_ledger_t  *l = &au->ledger;

    memset(&x, 0, sizeof(x));
    switch (ra_answer_of_status(ans->status)) {
    case RA_ANSWER_RULES:
        if (ans->undecodable) {
            return;                     /* the version in force stays */
        }
        (void) ra_parse(ans->body, ra_sm_line, &x, NULL);
        break;
    case RA_ANSWER_ALLOW_ALL:
        break;                          /* no file: no list */
    default:
        return;                         /* the last file stays in force */
    }
    ra_ledger_lock(l);
    sid = ra_audit_site_locked(au, site, now, 0);
    ra_ledger_sitemaps_list_locked(l, sid, hash, x.urls, x.n, x.lines, now);
    ra_ledger_unlock(l);
}


/* ---- the capture --------------------------------------------------------- */

static void
ra_sm_put(char *dst, uint8_t *len, size_t max, ra_str_t s)
{
    size_t  n = s.len < max ? s.len : max;

    memcpy(dst, s.data, n);
    *len = (uint8_t) n;
}

/* The first finding of each kind met, while there is room. */
static void
ra_sm_example(void *ctx, const ra_sm_finding_t *f)
{
    static const char      rule[] = "Disallow: ";
    ra_sm_capture_t       *c = ctx;
    ra_sitemap_example_t  *e;
    unsigned               i;
    size_t                 n;

    for (i = 0; i < c->got.nexamples; i++) {
        if (c->got.examples[i].kind == (uint8_t) f->code) {
            return;
        }
    }
    if (c->got.nexamples == RA_SITEMAP_EXAMPLES) {
        return;
    }
    e = &c->got.examples[c->got.nexamples++];
    memset(e, 0, sizeof(*e));
    e->kind = (uint8_t) f->code;
    e->line = f->line;
    ra_sm_put(e->url, &e->url_len, RA_SITEMAP_EX_URL_MAX, f->url);
    if (f->code != RA_SMF_DISALLOWED) {
        ra_sm_put(e->detail, &e->detail_len, RA_SITEMAP_EX_MAX, f->detail);
        return;
    }
    e->crawler = f->crawler.len == 1 && f->crawler.data[0] == '*' ? 1
                 : ra_strcaseeq(f->crawler, ra_str_z("Googlebot")) ? 2 : 3;
    e->rule_line = f->match.line;
    if (f->match.line) {
        memcpy(e->detail, rule, sizeof(rule) - 1);
        n = sizeof(rule) - 1;
        ra_sm_put(e->detail + n, &e->detail_len, RA_SITEMAP_EX_MAX - n,
                  f->match.pattern);
        e->detail_len = (uint8_t) (e->detail_len + n);
    }
}

/* The name a crawler is listed by: the table's, a generic bot's token. */
static ra_str_t
ra_sm_crawler_name(const ra_identity_t *id)
{
    if (id->kind == RA_UA_KNOWN && id->crawler != NULL) {
        return id->crawler->name;
    }
    return id->token.len ? id->token : ra_str_z("generic");
}

static void
ra_sm_record(ra_audit_t *au, ra_str_t site, ra_str_t url, ra_str_t crawler,
    const ra_sitemap_t *got, int64_t now)
{
    uint32_t      sid;
    ra_ledger_t  *l = &au->ledger;

    ra_ledger_lock(l);
    sid = ra_audit_site_locked(au, site, now, 0);
    ra_ledger_sitemap_fetch_locked(l, sid, url, crawler, got, now);
    ra_ledger_unlock(l);
}

ra_sm_capture_t *
ra_audit_sitemap_start(ra_audit_t *au, const ra_request_t *req,
    int has_body, const ra_alloc_t *a, int64_t now)
{
    ra_identity_t  id;

    ra_identify(au, req->user_agent, &id);
    return ra_audit_sitemap_start_by(au, req, &id, has_body, a, now);
}

ra_sm_capture_t *
ra_audit_sitemap_start_by(ra_audit_t *au, const ra_request_t *req,
    const ra_identity_t *who, int has_body, const ra_alloc_t *a, int64_t now)
{
    int               k, lint;
    uint32_t          sid;
    ra_str_t          url, body, crawler;
    ra_sitemap_t      got;
    ra_identity_t     id = *who;
    ra_sm_capture_t  *c;
    ra_ledger_t      *l = &au->ledger;
    unsigned char    *copy = NULL;

    if (!ra_method_fetches(req->method) || req->method.len == 0
        || !ra_http_answer_is_file(req->status) || id.kind == RA_UA_BROWSER)
    {
        return NULL;
    }
    lint = has_body && req->status >= 200 && req->status < 300;

    ra_ledger_lock(l);
    sid = ra_audit_site_locked(au, req->site, now, 0);
    k = sid ? ra_ledger_sitemap_find_locked(l, sid, req->authority,
                                            req->uri, &url, now)
            : -1;
    if (k < 0) {
        ra_ledger_unlock(l);
        return NULL;
    }
    c = lint ? ra_alloc(a, sizeof(*c)) : NULL;
    if (c == NULL) {
        /* no answer to read (or no memory to read it): the fetch alone */
        memset(&got, 0, sizeof(got));
        got.status = (uint16_t) req->status;
        ra_ledger_sitemap_fetch_locked(l, sid, url, ra_sm_crawler_name(&id),
                                       &got, now);
        ra_ledger_unlock(l);
        return NULL;
    }
    memset(c, 0, offsetof(ra_sm_capture_t, buf));
    c->alloc = *a;
    a = c->a = &c->alloc;
    c->got.status = (uint16_t) req->status;
    c->url_len = url.len;
    memcpy(c->url, url.data, url.len);
    c->site_len = req->site.len < RA_SITE_NAME_MAX ? req->site.len
                                                   : RA_SITE_NAME_MAX;
    memcpy(c->site, req->site.data, c->site_len);
    crawler = ra_sm_crawler_name(&id);
    c->crawler_len = crawler.len < RA_SITEMAP_NAME_MAX ? crawler.len
                                                       : RA_SITEMAP_NAME_MAX;
    memcpy(c->crawler, crawler.data, c->crawler_len);
    /* the rules in force, compiled outside the lock */
    body = ra_ledger_rules_body_locked(l, sid);
    if (body.len && (copy = ra_alloc(a, body.len)) != NULL) {
        memcpy(copy, body.data, body.len);
    }
    ra_ledger_unlock(l);

    if (copy != NULL) {
        if (ra_rules_compile(ra_str(copy, body.len), a, &c->rules, NULL)
            != RA_OK)
        {
            c->rules = NULL;
        }
        ra_free(a, copy);
    }
    if (ra_sitemap_lint_start(&c->lint, ra_str(c->url, c->url_len),
                              c->rules, a, ra_sm_example, c, &c->sum)
        != RA_OK)
    {
        c->failed = 1;
    }
    return c;
}

void
ra_audit_sitemap_feed(ra_sm_capture_t *c, const void *p, size_t n)
{
    c->got.size += n;
    if (!c->failed && ra_sitemap_lint_feed(c->lint, p, n) != RA_OK) {
        c->failed = 1;
    }
}

int
ra_audit_sitemap_read(ra_sm_capture_t *c, size_t n,
    int (*read)(void *ctx, void *dst, size_t k, size_t off), void *ctx)
{
    size_t  off, k;

    if (c->failed) {
        c->got.size += n;
        return RA_OK;
    }
    for (off = 0; off < n; off += k) {
        k = n - off < RA_SM_READ ? n - off : RA_SM_READ;
        if (read(ctx, c->buf, k, off) != RA_OK) {
            c->failed = 1;
            return RA_ERROR;
        }
        ra_audit_sitemap_feed(c, c->buf, k);
    }
    return RA_OK;
}

void
ra_audit_sitemap_end(ra_audit_t *au, ra_sm_capture_t *c, int64_t now)
{
    if (c->lint != NULL) {
        ra_sitemap_lint_end(c->lint);
        c->lint = NULL;
    }
    if (c->rules != NULL) {
        ra_rules_free(c->rules);
        c->rules = NULL;
    }
    /* an answer not read whole says nothing of the file: its fetch only */
    if (!c->failed) {
        c->got.linted = 1;
        c->got.gzip = c->sum.gzip;
        c->got.complete = c->sum.complete;
        c->got.kind = (uint8_t) c->sum.kind;
        c->got.urls = c->sum.entries;
        memcpy(c->got.counts, c->sum.counts, sizeof(c->got.counts));
    }
    ra_sm_record(au, ra_str(c->site, c->site_len),
                 ra_str(c->url, c->url_len),
                 ra_str(c->crawler, c->crawler_len), &c->got, now);
    ra_free(&c->alloc, c);
}
