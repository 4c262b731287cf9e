/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The robots.txt bookkeeping (ra_audit.h, ra_audit_robots()): which
 * answer is the site's and which binds only the client that got it,
 * versions recorded and linted, undecodable answers, and redirects of
 * robots.txt followed as crawlers follow them (docs/design.md, "Whose
 * answer binds whom").
 */
#include <string.h>

#include "ra_audit_impl.h"
#include "ra_audit_sitemap.h"
#include "ra_digest.h"
#include "ra_http.h"
#include "ra_lint.h"

static void
ra_version_from_answer(ra_version_t *v, const ra_answer_t *ans)
{
    size_t  n;

    v->status = (uint16_t) (ans->status > 0 && ans->status < 1000
                            ? ans->status : 0);
    /* what was served, saturated: a 4 GiB answer is not a small one */
    v->size = (uint32_t) ((ans->size ? ans->size : ans->body.len)
                          > UINT32_MAX ? UINT32_MAX
                          : (ans->size ? ans->size : ans->body.len));
    v->truncated = ans->truncated
                   || (ans->content_encoding.len == 0
                       && v->size > ans->body.len);
    n = ans->content_encoding.len < RA_CODING_MAX
        ? ans->content_encoding.len : RA_CODING_MAX;
    if (n) {
        memcpy(v->coding, ans->content_encoding.data, n);
        v->coding_len = (uint8_t) n;
        v->decoded = (uint32_t) ((ans->decoded ? ans->decoded
                                               : ans->body.len)
                                 > UINT32_MAX ? UINT32_MAX
                                 : (ans->decoded ? ans->decoded
                                                 : ans->body.len));
    }
    n = ans->content_type.len < RA_CTYPE_MAX ? ans->content_type.len
                                             : RA_CTYPE_MAX;
    if (n) {
        memcpy(v->ctype, ans->content_type.data, n);
        v->ctype_len = (uint8_t) n;
    }
}

static void
ra_version_lint_from(ra_version_t *v, const ra_version_t *from)
{
    v->lint_errors = from->lint_errors;
    v->lint_warnings = from->lint_warnings;
    v->lint_infos = from->lint_infos;
    v->groups = from->groups;
    v->rules = from->rules;
    v->sitemaps = from->sitemaps;
}

/* A 2xx the glue could not decode: the site keeps its version, and says
 * so once (RA202) until an answer decodes again. */
static int
ra_audit_undecodable(ra_audit_t *au, ra_str_t site, const ra_answer_t *ans,
    int64_t now)
{
    int           same;
    uint32_t      sid;
    ra_buf_t      name, coding;
    ra_ledger_t  *l = &au->ledger;

    ra_ledger_lock(l);
    sid = ra_ledger_site_locked(l, site, now);
    same = ra_ledger_undecodable_locked(l, sid, ans->status,
                                        ans->content_encoding, now);
    ra_ledger_unlock(l);
    if (same) {
        return RA_OK;
    }

    /* both came from the network: escaped for the log */
    ra_buf_init(&name, au->conf.alloc, 0, 4 * RA_SITE_NAME_MAX);
    ra_buf_init(&coding, au->conf.alloc, 0, 4 * RA_CODING_MAX);
    ra_buf_log(&name, site);
    ra_buf_log(&coding, ans->content_encoding);
    ra_logf(au->conf.host, NULL, RA_LOG_WARN, RA_TAG_UNDECODABLE,
            "site=\"%.*s\" robots.txt sent with Content-Encoding \"%.*s\" "
            "could not be decoded (%s): the previous version stays in "
            "force", (int) name.len,
            name.data != NULL ? (const char *) name.data : "",
            (int) coding.len,
            coding.data != NULL ? (const char *) coding.data : "",
            ans->decode_error != NULL ? ans->decode_error : "unknown");
    ra_buf_release(&name);
    ra_buf_release(&coding);
    return RA_OK;
}

/* ra_ledger_version_hash(status, body), by the last body's when these are
 * its bytes (a 2xx answer's hash is its body's, whatever the status) */
static uint64_t
ra_audit_version_hash(ra_audit_t *au, int status, ra_str_t body)
{
    uint64_t        h;
    unsigned char  *p;

    if (body.len == 0 || body.len > RA_BODY_MEMO_MAX
        || ra_answer_of_status(status) != RA_ANSWER_RULES)
    {
        return ra_ledger_version_hash(status, body);
    }
    if (au->body_memo_len == body.len
        && memcmp(au->body_memo, body.data, body.len) == 0)
    {
        return au->body_memo_hash;
    }
    h = ra_ledger_version_hash(status, body);
    if (au->body_memo_cap < body.len) {
        p = ra_alloc(au->conf.alloc, body.len);
        if (p == NULL) {
            return h;                   /* the memo as it was */
        }
        ra_free(au->conf.alloc, au->body_memo);
        au->body_memo = p;
        au->body_memo_cap = body.len;
    }
    memcpy(au->body_memo, body.data, body.len);
    au->body_memo_len = body.len;
    au->body_memo_hash = h;
    return h;
}

/* Records an answer that is the site's: lints it, stores it as the
 * current version when it is new (hash: its version's). */
static int
ra_audit_record(ra_audit_t *au, ra_str_t site, const ra_answer_t *ans,
    uint64_t hash, int64_t now)
{
    int             rc, known;
    uint32_t        sid;
    ra_lint_t       lint;
    ra_version_t    v, old;
    ra_lint_http_t  http;
    ra_ledger_t    *l = &au->ledger;

    if (ans->undecodable && !ans->initial) {
        return ra_audit_undecodable(au, site, ans, now);
    }

    memset(&v, 0, sizeof(v));
    ra_version_from_answer(&v, ans);
    v.hash = hash;                      /* not hashed again under the lock */

    /* the same version again (the usual case): no need to lint it */
    ra_ledger_lock(l);
    sid = ra_ledger_site_locked(l, site, now);
    if (ans->initial && ra_ledger_has_version_locked(l, sid)) {
        ra_ledger_unlock(l);
        return RA_OK;
    }
    if (ra_answer_of_status(ans->status) != RA_ANSWER_UNREACHABLE
        && ra_ledger_find_version_locked(l, sid, hash, &old) >= 0)
    {
        ra_version_lint_from(&v, &old);
        memcpy(v.sha256, old.sha256, sizeof(v.sha256));
        (void) ra_ledger_answer_locked(l, sid, &v, ans->body, now);
        /* the same file's Sitemap: lines are listed already (the usual
         * case): not parsed again */
        known = ra_ledger_sitemaps_known_locked(l, sid, hash);
        ra_ledger_unlock(l);
        if (!known) {
            ra_audit_sitemaps_listed(au, site, ans, hash, now);
        }
        return RA_OK;
    }
    ra_ledger_unlock(l);

    memset(&http, 0, sizeof(http));
    http.status = ans->status;
    http.content_type = ans->content_type;
    /* crawlers' limits are on the decoded body */
    http.size = v.coding_len ? v.decoded : v.size;
    http.truncated = v.truncated;
    http.crawlers = au->conf.crawlers;  /* names the policy tokens */
    http.redirects = ans->hop;
    rc = ra_lint(ans->body, &http, au->conf.alloc, &lint);
    if (rc == RA_OK) {
        v.lint_errors = (uint16_t) lint.summary.errors;
        v.lint_warnings = (uint16_t) lint.summary.warnings;
        v.lint_infos = (uint16_t) lint.summary.infos;
        v.groups = (uint16_t) lint.summary.groups;
        v.rules = lint.summary.rules;
        v.sitemaps = lint.summary.sitemaps;
    }
    ra_lint_free(&lint, au->conf.alloc);
    /* what identifies the file for the operator: a new version is
     * digested once, outside the lock */
    (void) ra_sha256(ans->body, v.sha256);

    ra_ledger_lock(l);
    sid = ra_ledger_site_locked(l, site, now);
    /* unless one was captured meanwhile */
    if (!ans->initial || !ra_ledger_has_version_locked(l, sid)) {
        (void) ra_ledger_answer_locked(l, sid, &v, ans->body, now);
    }
    ra_ledger_unlock(l);
    ra_audit_sitemaps_listed(au, site, ans, hash, now);

    if (rc == RA_ENOMEM) {
        ra_logf(au->conf.host, NULL, RA_LOG_ERR, RA_TAG_NOMEM,
                "out of memory recording robots.txt");
    }
    return rc;
}

int
ra_audit_redirects(const ra_audit_t *au)
{
    return ra_ledger_redirects(&au->ledger);
}

/* The canonical path of a path into dst (RA_REDIRECT_PATH_MAX + 1
 * bytes): its length, or 0 when that is longer, or the path is not one
 * the servers agree on, or it has a query (a redirect target is a file,
 * and a target with a query is no robots.txt: ra_http_is_robots()). */
#define RA_REDIRECT_SPELLING_MAX  (4 * RA_REDIRECT_PATH_MAX)

static size_t
ra_redirect_canon(ra_str_t path, unsigned char *dst)
{
    size_t         n;
    unsigned       flags;
    unsigned char  buf[RA_REDIRECT_SPELLING_MAX + 1];

    if (path.len == 0 || path.len > RA_REDIRECT_SPELLING_MAX
        || memchr(path.data, '?', path.len) != NULL)
    {
        return 0;
    }
    n = ra_http_canon(path, buf, &flags);
    if (n == 0 || n > RA_REDIRECT_PATH_MAX
        || (flags & (RA_CANON_ABOVE_ROOT | RA_CANON_BAD_ESCAPE
                     | RA_CANON_ENCODED_SLASH)))
    {
        return 0;
    }
    memcpy(dst, buf, n);
    return n;
}

unsigned
ra_audit_robots_hop(ra_audit_t *au, ra_str_t site, ra_str_t target,
    int64_t now)
{
    size_t         n;
    uint32_t       sid;
    unsigned       hop;
    unsigned char  canon[RA_REDIRECT_PATH_MAX + 1];
    ra_ledger_t   *l = &au->ledger;

    if (!ra_ledger_redirects(l)) {
        return 0;
    }
    n = ra_redirect_canon(ra_http_target_path(target), canon);
    if (n == 0) {
        return 0;
    }
    ra_ledger_lock(l);
    sid = ra_audit_site_locked(au, site, now, 0);
    hop = sid != 0 ? ra_ledger_redirect_hop_locked(l, sid, ra_str(canon, n))
                   : 0;
    ra_ledger_unlock(l);
    return hop;
}

/* Is host (a URL's authority: no user information, any port) the
 * site's name?  Only the server's name counts: the Host a request names
 * is the client's to choose. */
static int
ra_redirect_same_host(ra_str_t host, ra_str_t site)
{
    const unsigned char  *c;

    if (memchr(host.data, '@', host.len) != NULL) {
        return 0;
    }
    if (host.len && host.data[0] != '['
        && (c = memchr(host.data, ':', host.len)) != NULL)
    {
        host.len = (size_t) (c - host.data);
    }
    return site.len != 0 && ra_strcaseeq(host, site);
}

/*
 * Where a 3xx's Location leads from base (the path it answered): the
 * canonical path of the site into dst (RA_REDIRECT_PATH_MAX + 1 bytes)
 * and its length; 0 when it leads to another host or to nothing the
 * site serves.  A Location is an absolute URL, a scheme-relative one, an
 * absolute path, or a path relative to base (RFC 9110 10.2.2, RFC 3986
 * 5.2); its fragment is dropped.
 */
static size_t
ra_redirect_target(ra_str_t location, ra_str_t base, ra_str_t site,
    unsigned char *dst)
{
    size_t                i, n;
    ra_str_t              loc = location, host;
    const unsigned char  *p, *e;
    unsigned char         joined[2 * RA_REDIRECT_SPELLING_MAX + 1];

    while (loc.len && (loc.data[0] == ' ' || loc.data[0] == '\t')) {
        loc.data++;
        loc.len--;
    }
    while (loc.len && (loc.data[loc.len - 1] == ' '
                       || loc.data[loc.len - 1] == '\t'))
    {
        loc.len--;
    }
    if ((p = memchr(loc.data, '#', loc.len)) != NULL) {
        loc.len = (size_t) (p - loc.data);
    }
    if (loc.len == 0) {
        return 0;
    }
    p = loc.data;
    e = loc.data + loc.len;
    if (ra_startswith_ci(loc, "http://")) {
        p += 7;
    } else if (ra_startswith_ci(loc, "https://")) {
        p += 8;
    } else if (loc.len >= 2 && p[0] == '/' && p[1] == '/') {
        p += 2;
    } else if (p[0] == '/') {
        return ra_redirect_canon(loc, dst);
    } else {
        /* relative to base's directory; a scheme ("ftp:") is no path */
        for (i = 0; i < loc.len && loc.data[i] != '/'; i++) {
            if (loc.data[i] == ':') {
                return 0;
            }
        }
        for (n = base.len; n > 0 && base.data[n - 1] != '/'; n--) {
            /* void: base's directory, its '/' kept */
        }
        if (n == 0 || n > RA_REDIRECT_SPELLING_MAX
            || loc.len > RA_REDIRECT_SPELLING_MAX)
        {
            return 0;
        }
        memcpy(joined, base.data, n);
        memcpy(joined + n, loc.data, loc.len);
        return ra_redirect_canon(ra_str(joined, n + loc.len), dst);
    }
    /* an authority, then the path */
    host.data = p;
    while (p < e && *p != '/' && *p != '?') {
        p++;
    }
    host.len = (size_t) (p - host.data);
    if (!ra_redirect_same_host(host, site)) {
        return 0;
    }
    if (p == e) {
        dst[0] = '/';
        return 1;
    }
    return ra_redirect_canon(ra_str(p, (size_t) (e - p)), dst);
}

/* Where a 3xx answer to a robots.txt request leads within the site (its
 * canonical path into dst, RA_REDIRECT_PATH_MAX + 1 bytes, and its
 * length), 0 for any other answer or a target elsewhere; *same: the
 * target is the path it answered (http to https: the same file, served
 * elsewhere) */
static size_t
ra_answer_redirect(const ra_answer_t *ans, ra_str_t site, unsigned char *dst,
    int *same)
{
    size_t               n;
    ra_str_t             base = ra_str("/robots.txt", 11);
    unsigned char        canon[RA_REDIRECT_PATH_MAX + 1];

    *same = 0;
    if (ans->status < 300 || ans->status >= 400 || ans->location.len == 0) {
        return 0;
    }
    /* relative to the path it answered, as the chain holds it */
    if (ans->hop > 0) {
        n = ra_redirect_canon(ra_http_target_path(ans->req->uri), canon);
        if (n == 0) {
            return 0;
        }
        base = ra_str(canon, n);
    }
    n = ra_redirect_target(ans->location, base, site, dst);
    *same = n != 0 && (ans->hop == 0 ? ra_http_is_robots(ra_str(dst, n))
                                     : n == base.len
                                       && memcmp(dst, base.data, n) == 0);
    return n;
}

/* The site's answer at hop ends the chain there, or (to: a path of the
 * site, n > 0) redirects to to: recorded, 1.  0 when the chain ends, with
 * *looped set when it ends at a redirect that cannot be followed (a
 * loop, a sixth hop): lint reads it as past the limit. */
static int
ra_audit_redirect(ra_audit_t *au, ra_str_t site, unsigned hop,
    const unsigned char *to, size_t n, int64_t now, int *looped)
{
    int            k = -1;
    uint32_t       sid;
    ra_ledger_t   *l = &au->ledger;

    *looped = 0;
    ra_ledger_lock(l);
    sid = ra_ledger_site_locked(l, site, now);
    if (n != 0 && !ra_http_is_robots(ra_str(to, n))) {
        k = ra_ledger_redirect_locked(l, sid, hop, ra_str(to, n));
    }
    if (k < 0) {
        ra_ledger_redirect_end_locked(l, sid, hop);
        *looped = n != 0;
    }
    ra_ledger_unlock(l);
    return k > 0;
}

int
ra_audit_robots(ra_audit_t *au, ra_str_t site, const ra_answer_t *ans,
    int64_t now)
{
    int                  rc, everyone, crawler, looped, same;
    size_t               to_len;
    unsigned             answer;
    uint32_t             sid, tid;
    uint64_t             hash, bound, claim;
    ra_str_t             tokens[RA_TOKENS_MAX];
    ra_answer_t          past;
    ra_verdict_t         cv;
    ra_identity_t        id;
    ra_judge_who_t       who;
    ra_stat_key_t        key;
    unsigned char        to[RA_REDIRECT_PATH_MAX + 1];
    ra_ledger_t         *l = &au->ledger;
    const ra_request_t  *req = ans->req;

    answer = ra_answer_of_status(ans->status);
    if (req != NULL
        && ((ans->hop == 0 && ra_target_has_query(req->uri))
            || !ra_method_fetches(req->method)
            /* a redirect's target that the chain no longer reaches (its
             * first answer changed meanwhile) is robots.txt no more */
            || (ans->hop > 0
                && ra_audit_robots_hop(au, site, req->uri, now) != ans->hop)))
    {
        return RA_OK;                   /* not the file: nobody's */
    }
    hash = ra_audit_version_hash(au, ans->status, ans->body);
    if (req == NULL) {
        return ra_audit_record(au, site, ans, hash, now);
    }
    /* a redirect within the site is followed, not read as "allow all" */
    to_len = ra_answer_redirect(ans, site, to, &same);

    memset(&cv, 0, sizeof(cv));
    crawler = ra_audit_claim(au, req, &cv, &id, tokens, &who, &key);
    if (!crawler && answer == RA_ANSWER_UNREACHABLE) {
        /* a failure is evidence only when a crawler met it: a browser
         * or a client without a User-Agent gets a rate limit's 503 as
         * easily */
        return RA_OK;
    }

    /* a 2xx is the site's file; any other answer is the site's only when
     * a verified crawler got it, or a second client after a first (a
     * redirect: to the same place) */
    everyone = !same;
    if (everyone && answer != RA_ANSWER_RULES
        && !(crawler && id.kind == RA_UA_KNOWN
             && cv.verification == RA_VERIFY_VERIFIED))
    {
        claim = to_len ? hash ^ ra_text_hash(ra_str(to, to_len)) : hash;
        ra_ledger_lock(l);
        sid = ra_ledger_site_locked(l, site, now);
        everyone = ra_ledger_answer_everyone_locked(l, sid, claim,
                       ra_alert_block(req->addr),
                       ra_text_hash(req->user_agent), now);
        ra_ledger_unlock(l);
    }
    rc = RA_OK;
    looped = 0;
    if (everyone
        && !ra_audit_redirect(au, site, ans->hop, to, to_len, now, &looped))
    {
        if (looped) {
            /* a loop or a sixth hop: Google reads the answer as a 404
             * ("allow all"), and lint says the limit was passed */
            past = *ans;
            past.hop = RA_REDIRECT_HOPS + 1;
            rc = ra_audit_record(au, site, &past, hash, now);
        } else {
            rc = ra_audit_record(au, site, ans, hash, now);
        }
    }

    /* the crawler is bound by what it got: this version (a 2xx that could
     * not be decoded: the one in force), "allow all", or a failure its
     * status says; one sent on within the site (or to the same path by
     * another scheme) reads the site's file */
    if (crawler) {
        bound = answer == RA_ANSWER_UNREACHABLE
                || (answer == RA_ANSWER_RULES && ans->undecodable)
                || (to_len && !looped)
                ? 0 : hash;
        ra_ledger_lock(l);
        sid = ra_audit_site_locked(au, site, now, 1);
        tid = ra_audit_stat_locked(au, sid, id.crawler, &key, now);
        ra_ledger_bind_locked(l, sid, tid, ans->status, bound, now);
        ra_ledger_unlock(l);
    }
    return rc;
}
