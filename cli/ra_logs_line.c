/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Judging the lines of 'robots-audit logs': each line read in its format,
 * its site and client found, the filters asked, the site's robots.txt
 * seeded on its first line and its answers to /robots.txt recorded, then
 * the request judged by the audit, with its evidence and alert lines.
 *
 * The audit runs over a private ledger (malloc()ed, no lock) exactly as a
 * module's runs over shared memory: each robots.txt request of the log
 * feeds ra_audit_robots() with the status the log shows (2xx, 304, 206: the
 * site's --robots file as the body; 5xx/429: unreachable; other 4xx: no
 * rules), after the file was seeded as in force from the site's first
 * line; then every line feeds ra_audit_request().
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ra_evidence.h"
#include "ra_http.h"
#include "ra_logs_impl.h"
#include "ra_outcome.h"

/* The --robots file of a site: its own, or the plain one */
ra_logs_robots_t *
ra_logs_robots_of(ra_logs_ctx_t *x, ra_str_t site)
{
    unsigned  i;

    for (i = 0; i < x->nrobots; i++) {
        if (x->robots[i].host != NULL
            && ra_strcaseeq(site, ra_str(x->robots[i].host,
                                          strlen(x->robots[i].host))))
        {
            return &x->robots[i];
        }
    }
    return x->plain;
}

/* FNV-1a of the lower-cased name, in a set of RA_LOGS_SEEN: 1 when it
 * was there, 0 when added (or when the set is full) */
static int
ra_logs_set(uint64_t *set, unsigned *n, ra_str_t site)
{
    uint64_t  h = 0xcbf29ce484222325ULL;
    size_t    i;
    unsigned  k;

    for (i = 0; i < site.len; i++) {
        h = (h ^ (uint64_t) ra_lower(site.data[i])) * 0x100000001b3ULL;
    }
    h |= 1;                             /* 0 is an empty slot */
    for (k = (unsigned) h % RA_LOGS_SEEN, i = 0; i < RA_LOGS_SEEN;
         k = (k + 1) % RA_LOGS_SEEN, i++)
    {
        if (set[k] == h) {
            return 1;
        }
        if (set[k] == 0) {
            if (*n >= RA_LOGS_SEEN / 2) {
                return 0;       /* full: seed again (it is idempotent) */
            }
            set[k] = h;
            ++*n;
            return 0;
        }
    }
    return 0;
}

/* the sites already seeded */
static int
ra_logs_seen(ra_logs_ctx_t *x, ra_str_t site)
{
    return ra_logs_set(x->seen, &x->nseen, site);
}

/* The filters' decision for a line (ra_logfilter.h) */
static ra_logfilter_e
ra_logs_filter(ra_logs_ctx_t *x, const ra_logrec_t *rec, ra_str_t site,
    ra_str_t client, ra_str_t ua)
{
    ra_logfilter_line_t  fl;
    ra_identity_t        id;
    ra_request_t         req;
    ra_sig_verdict_t     sv;
    ra_verdict_t         vd;
    ra_judge_who_t       who;
    ra_str_t             tokens[RA_TOKENS_MAX];

    fl.time = rec->time;
    fl.site = site;
    fl.client = client;
    fl.status = rec->status;
    fl.id = NULL;
    fl.impostor = 0;
    if (ra_logfilter_wants_identity(&x->o->filter)) {
        ra_crawlers_identify(x->conf.crawlers, ua, &id);
        fl.id = &id;
    }
    if (fl.id != NULL && id.kind == RA_UA_KNOWN
        && ra_logfilter_wants_verification(&x->o->filter))
    {
        /* verified as the judge verifies it (ranges, then reverse DNS):
         * an impostor claims a crawler its address is not of */
        memset(&req, 0, sizeof(req));
        memset(&sv, 0, sizeof(sv));
        memset(&vd, 0, sizeof(vd));
        req.addr = client;
        req.time = rec->time;
        req.user_agent = ua;
        ra_audit_who(x->au, &id, &req, &sv, &vd, tokens, &who);
        fl.impostor = vd.verification == RA_VERIFY_IMPOSTOR;
    }
    return ra_logfilter_decide(&x->o->filter, &fl);
}

/* A 200 answer to /robots.txt whose size is not the --robots file's: the
 * file given may not be what the site served (said once per site; a
 * HEAD sends no body, and a compressed answer is smaller) */
static void
ra_logs_sized(ra_logs_ctx_t *x, const ra_logrec_t *rec, ra_str_t site,
    const ra_logs_robots_t *rb, const char *file)
{
    char     shown[RA_LOGS_SHOWN];
    int64_t  bytes = rec->bytes < 0 ? 0 : rec->bytes;
    int      json;

    /* "-" is Apache's %b for no body; a JSON line without the key says
     * nothing */
    json = x->rd.fmt.format;
    json = json == RA_LOG_JSON || json == RA_LOG_CADDY
           || json == RA_LOG_TRAEFIK || json == RA_LOG_CLOUDFLARE
           || json == RA_LOG_JSONMAP;
    if (!RA_LOGFMT_HAS(&x->rd.fmt, RA_LF_BYTES) || (json && rec->bytes < 0)
        || !ra_strcaseeq(rec->method, ra_str("GET", 3))
        || (uint64_t) bytes == (uint64_t) rb->text.len
        || ra_logs_set(x->sized, &x->nsized, site))
    {
        return;
    }
    ra_logs_show(shown, site);
    fprintf(stderr, "robots-audit %s: warning: robots.txt answers in %s were "
            "%lld bytes, --robots %s has %llu bytes (site %s): is it the file "
            "the site served? (a compressed answer is smaller)\n",
            RA_LOGS_CMD, file, (long long) bytes, rb->file.path,
            (unsigned long long) rb->text.len, shown);
}

/* The violation's evidence line, as the modules write it (the same core
 * code); a line the file did not take ends the run. */
static int
ra_logs_evidence(ra_logs_ctx_t *x, const ra_request_t *req,
    const ra_verdict_t *v)
{
    ra_totals_t  t;

    ra_outcome_evidence(x->au, NULL, req, v, &x->evidence);
    ra_ledger_totals(&x->ledger, &t);
    if (t.log_write_errors[RA_LOGFILE_EVIDENCE] != 0) {
        ra_cli_error(RA_LOGS_CMD, "--evidence-log %s: cannot write it",
                     x->evidence.name);
        return -1;
    }
    return 0;
}

/* Reads a line and counts it: 0 to judge it, 1 when it is not to be
 * judged (a directive, malformed, no request line), -1 to stop (too many
 * malformed in the file's first lines) */
static int
ra_logs_count(ra_logs_ctx_t *x, ra_str_t line, const char *file,
    uint64_t lineno, ra_logrec_t *rec)
{
    int  rc;

    x->lines++;
    rc = ra_logs_read(&x->rd, line, file, rec);
    if (rc == 1) {
        x->skipped++;
        return 1;
    }
    if (rc != RA_OK) {
        if (x->malformed++ == 0) {
            x->bad_file = file;
            x->bad_line = lineno;
        }
        if (x->first_file == NULL) {
            x->first_file = file;
            ra_logs_show(x->first, line);
        }
    }
    if (ra_logs_window_line(&x->win, &x->rd, rc, line, rec, lineno,
                            RA_LOGS_CMD))
    {
        return -1;
    }
    if (rc != RA_OK) {
        return 1;
    }
    x->parsed++;
    if (rec->time > x->file_last) {
        x->file_last = rec->time;
    }
    if (rec->user_agent.data != NULL) {
        x->with_ua++;
    }
    if (rec->xff.data != NULL) {
        x->with_xff++;
    }
    if (rec->method.len == 0) {
        x->unjudged++;
        return 1;
    }
    return 0;
}

/* The site's --robots file, seeded as in force from the site's first
 * line; NULL when the site has none, or *wanted is 0 when the line makes
 * no site */
static ra_logs_robots_t *
ra_logs_site_file(ra_logs_ctx_t *x, const ra_logrec_t *rec, ra_str_t site,
    ra_str_t ua, int *wanted)
{
    ra_logs_robots_t  *rb;

    if (rec->host.data == NULL && x->site_seeded) {
        /* the common case: a log of one site, seeded on its first line */
        return x->site_rb;
    }
    rb = ra_logs_robots_of(x, site);
    if (rec->host.data != NULL
        && !ra_audit_site_wanted(x->au, site, ua, rec->time))
    {
        /* a browser's line naming a site not seen: the Host is anyone's,
         * so it makes no site (counted in the total only) */
        *wanted = 0;
        return NULL;
    }
    if (rb == NULL) {
        if (x->no_robots++ == 0) {
            ra_logs_show(x->no_robots_site, site);
        }
        return NULL;
    }
    if (rec->host.data == NULL) {
        x->site_seeded = 1;
        x->site_rb = rb;
    }
    if (!ra_logs_seen(x, site)
        && ra_robots_file_seed(x->au, site, &rb->file, rec->time) != RA_OK)
    {
        /* --robots FILE is the file in force from the site's first
         * line; the log's own robots.txt answers change it from there */
        x->nomem++;
    }
    return rb;
}

/* A request for robots.txt (as the audit knows it, ra_http_is_robots()):
 * its answer recorded as the log shows it */
static void
ra_logs_robots_answer(ra_logs_ctx_t *x, const ra_logrec_t *rec,
    ra_request_t *req, const ra_logs_robots_t *rb, const char *file)
{
    ra_answer_t  ans;

    memset(&ans, 0, sizeof(ans));
    /* 304, 206: the crawler's copy is still the file */
    ans.status = ra_http_answer_unchanged(rec->status) ? 200 : rec->status;
    ans.req = req;
    ans.content_type = ra_str(NULL, 0);
    if (ans.status >= 200 && ans.status < 300 && rb != NULL) {
        ans.body = rb->text;
    }
    if (rec->status == 200 && rb != NULL) {
        ra_logs_sized(x, rec, req->site, rb, file);
    }
    /* a site without a file: what a 2xx served is not known */
    if (rb != NULL || ans.status < 200 || ans.status >= 300) {
        if (ra_audit_robots(x->au, req->site, &ans, rec->time) != RA_OK) {
            x->nomem++;
        }
        req->recorded = 1;
    }
}

/* The request judged into *v (its kind is set whatever failed: the
 * identification comes first), with its evidence and alert lines; -1
 * when one could not be written (said) */
static int
ra_logs_judge(ra_logs_ctx_t *x, const ra_request_t *req, ra_verdict_t *v)
{
    if (ra_audit_request(x->au, req, v) != RA_OK) {
        x->nomem++;
    }
    if (x->evidence.file != NULL && ra_evidence_wanted(v)
        && ra_logs_evidence(x, req, v) != 0)
    {
        return -1;
    }
    if (x->alerts != NULL && (v->alert || v->summary)) {
        /* the JSON lines of the modules' alert log, as they write them */
        x->alert_line.len = 0;
        ra_alert_emit(NULL, req, v, &x->alert_line);
        if (fwrite(x->alert_line.data, 1, x->alert_line.len, x->alerts)
                != x->alert_line.len
            || fflush(x->alerts) != 0)
        {
            ra_cli_error(RA_LOGS_CMD, "--alert-log %s: %s", x->o->alerts_path,
                         strerror(errno));
            return -1;
        }
    }
    return 0;
}

/* The client of a line as an address: the one its reading parsed,
 * unless --real-ip-from took another from X-Forwarded-For */
static int
ra_logs_client_ip(const ra_logrec_t *rec, ra_str_t client, ra_addr_t *a)
{
    if (client.data == rec->addr.data && client.len == rec->addr.len) {
        memcpy(a->b, rec->ip, sizeof(a->b));
        return RA_OK;
    }
    return ra_addr_parse(client, a);
}

int
ra_logs_line(void *ctx, ra_str_t line, const char *file, uint64_t lineno)
{
    ra_logs_ctx_t     *x = ctx;
    ra_logs_robots_t  *rb;
    ra_logrec_t        rec;
    ra_request_t       req;
    ra_verdict_t       v;
    ra_addr_t          a;
    ra_str_t           uri, ua, site, client;
    int                rc, wanted = 1;
    ra_logfilter_e     keep = RA_LOGFILTER_KEEP;

    rc = ra_logs_count(x, line, file, lineno, &rec);
    if (rc != 0) {
        return rc < 0 ? 1 : 0;
    }
    ra_logrec_decode(&rec, x->esc, &uri, &ua);
    site = rec.host.data != NULL ? rec.host : x->site;
    client = x->o->ntrusted ? ra_realip(x->o->trusted, x->o->ntrusted,
                                        rec.addr, rec.xff)
                            : rec.addr;
    if (x->filtering) {
        keep = ra_logs_filter(x, &rec, site, client, ua);
        if (keep == RA_LOGFILTER_DROP) {
            x->filtered++;              /* not even the judge's */
            return 0;
        }
    }
    rb = ra_logs_site_file(x, &rec, site, ua, &wanted);

    memset(&req, 0, sizeof(req));       /* enforce, where, signature: none */
    req.site = site;
    req.time = rec.time;
    req.addr = client;
    req.user_agent = ua;
    req.method = rec.method;
    req.uri = uri;
    req.status = rec.status;
    req.referer = rec.referer.data ? rec.referer : ra_str("", 0);
    /* asked once, as the modules' glue asks it: the judge and the
     * undeclared detector read it from the request */
    req.target_kind = ra_http_target_kind(uri) | RA_TARGET_KNOWN;
    if (wanted && (req.target_kind & RA_TARGET_ROBOTS)) {
        ra_logs_robots_answer(x, &rec, &req, rb, file);
    }
    if (keep == RA_LOGFILTER_KNOW) {
        /* its robots.txt answer, if it was one, is recorded above: the
         * requests kept are judged as if nothing were left out */
        x->filtered++;
        return 0;
    }
    /* the judge's identification tells a browser's request, the only
     * kind the undeclared-crawler detector looks at */
    if (ra_logs_judge(x, &req, &v) != 0) {
        return -1;
    }
    if (v.kind != RA_UA_BROWSER) {
        return 0;
    }
    return ra_logs_undeclared(x, &req, rb,
                              ra_logs_client_ip(&rec, client, &a) == RA_OK
                              ? &a : NULL);
}

/* --rdns over files: a first reading gathers the addresses of crawlers
 * with reverse-DNS domains that their ranges do not verify, and resolves
 * them RA_CLI_RDNS_INFLIGHT at a time, RA_CLI_RDNS_BATCH per round, so
 * that the judging pass finds every answer remembered */
typedef struct {
    ra_logs_ctx_t     *x;
    ra_logs_reader_t   rd;
    size_t             n;
    ra_addr_t          addrs[RA_CLI_RDNS_BATCH];
} ra_logs_pre_t;

static int
ra_logs_pre_line(void *ctx, ra_str_t line, const char *file, uint64_t lineno)
{
    ra_logs_pre_t       *p = ctx;
    ra_logs_ctx_t       *x = p->x;
    ra_logrec_t          rec;
    ra_identity_t        id;
    ra_str_t             ua, addr, uri;
    ra_addr_t            a;
    int                  rc;

    (void) lineno;
    rc = ra_logs_read(&p->rd, line, file, &rec);
    if (rc != RA_OK || rec.user_agent.data == NULL || rec.method.len == 0) {
        return 0;
    }
    ra_logrec_decode(&rec, x->esc, &uri, &ua);
    ra_crawlers_identify(x->conf.crawlers, ua, &id);
    if (!ra_verify_has_rdns(id.crawler)) {
        return 0;
    }
    addr = x->o->ntrusted ? ra_realip(x->o->trusted, x->o->ntrusted, rec.addr,
                                   rec.xff)
                       : rec.addr;
    if (ra_logs_client_ip(&rec, addr, &a) != RA_OK
        || ra_verify(x->conf.ranges, id.crawler, &a) == RA_VERIFY_VERIFIED)
    {
        return 0;
    }
    p->addrs[p->n++] = a;
    if (p->n == RA_CLI_RDNS_BATCH) {
        ra_cli_rdns_prefetch(x->dns, p->addrs, p->n);
        p->n = 0;
    }
    return 0;
}

void
ra_logs_prefetch(ra_logs_ctx_t *x, char **paths, unsigned n)
{
    ra_logread_t    rd;
    ra_logs_pre_t  *p = calloc(1, sizeof(*p));
    unsigned        i;

    memset(&rd, 0, sizeof(rd));
    if (p == NULL || ra_logread_open(&rd, RA_LOGS_CMD, paths, (int) n) != 0) {
        free(p);
        return;                 /* the judging pass asks one at a time */
    }
    p->x = x;
    p->rd.given = x->rd.given;
    rd.handler = ra_logs_pre_line;
    rd.ctx = p;
    rd.progress = 0;
    for (i = 0; i < n; i++) {
        (void) ra_logread_file(&rd, paths[i]);  /* errors: said again */
    }
    ra_cli_rdns_prefetch(x->dns, p->addrs, p->n);
    ra_logread_close(&rd);
    free(p);
}

/* The time of a line, for ra_logs_order(): each file's format found
 * (or given) as when it is read */
int
ra_logs_time_of(void *ctx, ra_str_t line, const char *file, int64_t *time)
{
    ra_logs_ctx_t  *x = ctx;
    ra_logrec_t     rec;

    if (ra_logs_read(&x->peek, line, file, &rec) != RA_OK) {
        return RA_ERROR;
    }
    *time = rec.time;
    return RA_OK;
}
