/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The engine's reading of page directives (ra_audit_page.h): which
 * answers the servers hand over, and what is recorded of them.  The
 * decisions are all here so that the nginx and Apache glue only copy
 * headers and bytes: the directive lists are parsed by ra_pagedir.c, the
 * head scanned by ra_pagedir_html.c, the robots.txt in force taken from
 * this engine's cache of rule sets, and the counts kept by the ledger
 * (ra_ledger_pages.c).
 */
#include "ra_audit_impl.h"
#include "ra_audit_page.h"
#include "ra_pagedir.h"

_Static_assert(RA_PAGE_DIRECTIVES == RA_PD_NDIRECTIVES,
               "the ledger counts every directive");
_Static_assert(RA_PAGE_SCAN == RA_PD_SCAN, "the capture is the scan's window");
_Static_assert(RA_PAGE_KINDS == RA_CONFLICT_KINDS,
               "the ledger counts every kind of conflict");

/* Conflicts one answer may show: (a), (c) and (d) for "*", Googlebot,
 * Bingbot, each crawler a scope names and the one that asked; (b) */
#define RA_PAGE_EVENTS  (3 * (3 + 2 * RA_PD_SCOPES + 1) + 1)

typedef struct {
    ra_page_event_t  ev[RA_PAGE_EVENTS];
    size_t           n;
    ra_str_t         asker;         /* the crawler that got the answer */
} ra_page_events_t;

/* Does type start with the media type t (n bytes, lower case), and end
 * there or go on with its parameters? */
static int
ra_page_type_is(ra_str_t type, const char *t, size_t n)
{
    return type.len >= n && ra_strcaseeq(ra_str(type.data, n), ra_str(t, n))
           && (type.len == n || type.data[n] == ';' || type.data[n] == ' ');
}

/* Is the answer HTML (text/html, application/xhtml+xml, any parameter)? */
static int
ra_page_is_html(ra_str_t type)
{
    return ra_page_type_is(type, "text/html", 9)
           || ra_page_type_is(type, "application/xhtml+xml", 21);
}

int
ra_audit_page_wanted_by(const ra_identity_t *id, ra_str_t method,
    unsigned kind, int status, ra_str_t user_agent, ra_str_t content_type)
{
    /* the cheap tests first: most answers are a browser's pages */
    if (method.len == 0 || !ra_method_fetches(method)
        || (kind & (RA_TARGET_ROBOTS | RA_TARGET_SERVER_PAGE))
        || status < 200 || status > 299 || status == 204 || status == 206
        || ra_ua_absent(user_agent) || id->kind == RA_UA_BROWSER)
    {
        return RA_PAGE_NONE;
    }
    return ra_page_is_html(content_type) ? RA_PAGE_HTML : RA_PAGE_HEADERS;
}

int
ra_audit_page_wanted(ra_audit_t *au, ra_str_t method, unsigned kind,
    int status, ra_str_t user_agent, ra_str_t content_type)
{
    ra_identity_t  id;

    if (au == NULL) {
        return RA_PAGE_NONE;
    }
    ra_identify(au, user_agent, &id);
    return ra_audit_page_wanted_by(&id, method, kind, status, user_agent,
                                   content_type);
}

/* Is c what "*" showed already (same kind, same directives)?  "*" is
 * judged first (ra_pagedir_conflicts()). */
static int
ra_page_as_star(const ra_page_events_t *evs, const ra_conflict_t *c)
{
    size_t  i;

    for (i = 0; i < evs->n; i++) {
        if (evs->ev[i].kind == (unsigned) c->kind
            && evs->ev[i].flags == c->flags
            && evs->ev[i].crawler.len == 1
            && evs->ev[i].crawler.data[0] == '*')
        {
            return 1;
        }
    }
    return 0;
}

/* Keeps the conflicts of "*", of the crawler that asked, and of other
 * crawlers only where they differ from "*": the same noindex under a
 * disallowed path is one finding, not one per crawler named. */
static void
ra_page_collect(void *ctx, const ra_conflict_t *c)
{
    ra_page_events_t  *evs = ctx;
    int                star = c->crawler.len == 1 && c->crawler.data[0] == '*';

    if (!star && !ra_strcaseeq(c->crawler, evs->asker)
        && ra_page_as_star(evs, c))
    {
        return;
    }
    if (evs->n < RA_PAGE_EVENTS) {
        evs->ev[evs->n].kind = (unsigned) c->kind;
        evs->ev[evs->n].crawler = c->crawler;
        evs->ev[evs->n].flags = c->flags;
        evs->n++;
    }
}

/* The site's robots.txt in force, from this engine's cache (compiled
 * when it is not there yet); NULL when none is known. */
static const ra_rules_t *
ra_page_rules(ra_audit_t *au, const ra_request_t *req)
{
    uint32_t          sid;
    ra_gather_t       x;
    ra_judge_state_t  g;
    const ra_rules_t *rs = NULL;

    memset(&g, 0, sizeof(g));
    ra_ledger_lock(&au->ledger);
    sid = ra_audit_site_locked(au, req->site, req->time, 1);
    ra_ledger_current_locked(&au->ledger, sid, &g.facts.versions[0]);
    ra_ledger_unlock(&au->ledger);
    if (g.facts.versions[0].hash == 0) {
        return NULL;
    }
    x.au = au;
    x.site = req->site;
    x.now = req->time;
    g.ctx = &x;
    g.resolve = ra_gather_resolve;
    if (ra_gather_resolve(&g, 0, &rs) != RA_OK) {
        return NULL;
    }
    return rs;
}

/*
 * (b): a noindex page fetched by a verified search crawler, which spends
 * its crawl on a page kept out of its index; every fetch counts, so the
 * row's count says how often.  Verified as the verdict verifies (ranges,
 * signature, reverse DNS as far as its cache knows it).
 */
static void
ra_page_crawled(ra_audit_t *au, const ra_request_t *req,
    const ra_identity_t *id, const ra_pagedir_t *pd, ra_page_events_t *evs)
{
    ra_str_t          tokens[RA_TOKENS_MAX];
    ra_pd_set_t       set;
    ra_verdict_t      v;
    ra_judge_who_t    who;
    ra_sig_verdict_t  sv;

    if (id->crawler == NULL || id->crawler->category != RA_CAT_SEARCH
        || evs->n >= RA_PAGE_EVENTS)
    {
        return;
    }
    (void) ra_pagedir_for(pd, 3u, evs->asker, &set);
    if (!(set.flags & RA_PD_NOINDEX)) {
        return;
    }
    memset(&sv, 0, sizeof(sv));
    sv.result = RA_SIG_NONE;
    memset(&v, 0, sizeof(v));
    ra_audit_who(au, id, req, &sv, &v, tokens, &who);
    if (v.verification == RA_VERIFY_VERIFIED) {
        evs->ev[evs->n].kind = RA_CONFLICT_NOINDEX_CRAWLED;
        evs->ev[evs->n].crawler = evs->asker;
        evs->ev[evs->n].flags = RA_PD_NOINDEX;
        evs->n++;
    }
}

/* The directives read (pd; scanned: with the head's) recorded for req's
 * site, with their conflicts. */
static void
ra_page_record(ra_audit_t *au, const ra_request_t *req,
    const ra_identity_t *id, const ra_pagedir_t *pd, int scanned)
{
    size_t             i;
    uint32_t           sid, flags = 0;
    ra_str_t           path;
    ra_page_events_t   evs;
    const ra_rules_t  *rs;

    if (pd->nscopes == 0 && !scanned) {
        return;
    }
    for (i = 0; i < pd->nscopes; i++) {
        flags |= pd->scopes[i].set.flags;
    }

    path = ra_http_target_path(req->uri);
    evs.n = 0;
    /* a known crawler's token is the table's (a cached identity's
     * token is no span of the User-Agent then) */
    evs.asker = id->kind == RA_UA_KNOWN && id->crawler != NULL
                ? id->crawler->tokens[0] : ra_str("", 0);
    if (flags != 0) {
        rs = ra_page_rules(au, req);
        ra_pagedir_conflicts_with(pd, rs, path, evs.asker, ra_page_collect,
                                  &evs);
        ra_page_crawled(au, req, id, pd, &evs);
    }

    ra_ledger_lock(&au->ledger);
    sid = ra_audit_site_locked(au, req->site, req->time, 1);
    ra_ledger_pages_locked(&au->ledger, sid, path, flags, scanned, evs.ev,
                           evs.n, req->time);
    ra_ledger_unlock(&au->ledger);
}

/* The page's head from its capture (decoded when coded) into pd, which
 * holds its X-Robots-Tag values: 1 when it was read. */
static int
ra_page_captured(ra_pagedir_t *pd, ra_capture_t *html, int *rc)
{
    ra_answer_t  ans;

    *rc = ra_capture_answer(html, ra_str(NULL, 0), ra_str(NULL, 0), &ans);
    if (*rc != RA_OK) {
        return 0;
    }
    (void) ra_pagedir_html(pd, ans.body);
    return 1;
}

int
ra_audit_page_read(ra_audit_t *au, const ra_request_t *req,
    const ra_identity_t *id, ra_pagedir_t *pd, int scanned,
    ra_capture_t *html)
{
    int  rc = RA_OK;

    if (html != NULL) {
        scanned = ra_page_captured(pd, html, &rc);
    }
    ra_page_record(au, req, id, pd, scanned);
    return rc;
}

int
ra_audit_page(ra_audit_t *au, const ra_request_t *req,
    const ra_str_t *tags, size_t ntags, ra_capture_t *html)
{
    ra_pagedir_t   pd;
    ra_identity_t  id;

    if (au == NULL || req == NULL || ra_ua_absent(req->user_agent)) {
        return RA_OK;
    }
    ra_identify(au, req->user_agent, &id);
    if (id.kind == RA_UA_BROWSER) {
        return RA_OK;
    }

    ra_pagedir_start(&pd, tags, ntags < RA_PAGE_TAGS ? ntags : RA_PAGE_TAGS);
    return ra_audit_page_read(au, req, &id, &pd, 0, html);
}
