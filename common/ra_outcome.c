/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A request's turn and a verdict's output through the host
 * (ra_outcome.h): a violation's evidence line and the alert lines, the
 * JSON ones written whole to their logs, and the refusal's line and answer
 * (enforce's or the policy's), so
 * that nginx and Apache take the same steps, write the same lines and
 * report a failed write the same way; and a captured robots.txt answer
 * handed to the engine, with the other readings of an answer's body.
 */
#include <string.h>

#include "ra_outcome.h"
#include "ra_events.h"
#include "ra_evidence.h"

/* Writes the line p[0..n) to log (which: RA_LOGFILE_*) whole; a failure
 * is said about where, each time without an engine (au NULL), else
 * counted and said once a minute for the whole server. */
static int
ra_outcome_write(ra_audit_t *au, const ra_host_t *h, void *where,
    unsigned which, const ra_logfile_t *log, const void *p, size_t n)
{
    int       err = 0, owed, rc;
    uint64_t  failed = 1;

    /* a torn line nobody could end is shared by every process that
     * appends to the file: whoever takes it ends it */
    owed = au != NULL ? ra_audit_log_owed(au, which, 0) : 0;
    rc = ra_logfile_line_owed(log, p, n, &owed, &err);
    if (owed && au != NULL) {
        (void) ra_audit_log_owed(au, which, 1);
    }
    if (rc == RA_OK) {
        return RA_OK;
    }
    if (au != NULL
        && !ra_audit_log_error(au, which, ra_host_now(h), &failed))
    {
        return rc;
    }
    ra_logf(h, where, RA_LOG_ALERT, which == RA_LOGFILE_EVIDENCE
                                    ? RA_TAG_EVIDENCE_LOG : RA_TAG_ALERT_LOG,
            "cannot write the %s log %s: %s (%llu line%s lost since the "
            "last report)", ra_logfile_name(which),
            log->name != NULL ? log->name : "", strerror(err),
            (unsigned long long) failed, failed == 1 ? "" : "s");
    return rc;
}

static __attribute__((noinline)) void
ra_outcome_alert_lines(ra_audit_t *au, const ra_host_t *h,
    const ra_request_t *req, const ra_verdict_t *v, const ra_alert_log_t *log)
{
    ra_buf_t  json;
    int       file;

    file = ra_logfile_open(log);

    /* the verdict holds its own copies: rendered outside any lock */
    ra_buf_init(&json, h != NULL ? &h->heap : &ra_malloc_allocator, 0,
                RA_ALERT_LINE_MAX);
    ra_alert_emit(h, req, v, file ? &json : NULL);

    if (file && json.len != 0 && !json.failed && !json.truncated) {
        ra_outcome_write(au, h, req->where, RA_LOGFILE_ALERT, log,
                         json.data, json.len);
    }
    ra_buf_release(&json);
}

/* The alert lines when the verdict has any: most have none, and pass
 * with one test and no call. */
static inline __attribute__((always_inline)) void
ra_outcome_alerts(ra_audit_t *au, const ra_host_t *h,
    const ra_request_t *req, const ra_verdict_t *v, const ra_alert_log_t *log)
{
    if (v->alert || v->summary) {
        ra_outcome_alert_lines(au, h, req, v, log);
    }
}

void
ra_outcome_alert(const ra_host_t *h, const ra_request_t *req,
    const ra_verdict_t *v, const ra_alert_log_t *log)
{
    ra_outcome_alerts(NULL, h, req, v, log);
}

/* The evidence line itself: out of line, so that the requests that
 * write none (all but violations) pass without its frame. */
static __attribute__((noinline)) void
ra_outcome_evidence_line(ra_audit_t *au, const ra_host_t *h,
    const ra_request_t *req, const ra_verdict_t *v, const ra_logfile_t *log)
{
    ra_buf_t  line;

    ra_buf_init(&line, h != NULL ? &h->heap : &ra_malloc_allocator, 0,
                RA_ALERT_LINE_MAX);
    ra_evidence_line(&line, req, v);
    /* a line is whole or not written: one cut short is no evidence */
    if (line.len != 0 && !line.failed && !line.truncated
        && (au == NULL
            || ra_audit_evidence_take(au, req->site, line.len, req->time)))
    {
        ra_outcome_write(au, h, req->where, RA_LOGFILE_EVIDENCE, log,
                         line.data, line.len);
    }
    ra_buf_release(&line);
}

void
ra_outcome_evidence(ra_audit_t *au, const ra_host_t *h,
    const ra_request_t *req, const ra_verdict_t *v, const ra_logfile_t *log)
{
    if (ra_evidence_wanted(v) && ra_logfile_open(log)) {
        ra_outcome_evidence_line(au, h, req, v, log);
    }
}

/* The refusal's line (out of line, as the evidence line) */
static __attribute__((noinline)) void
ra_outcome_refusal_line(const ra_host_t *h, void *where,
    const ra_verdict_t *v)
{
    ra_logf(h, where, RA_LOG_INFO, RA_TAG_ENFORCED, "refused: %s (enforce)",
            ra_refuse_name(v->refused));
}

int
ra_outcome_refused(const ra_host_t *h, void *where, const ra_verdict_t *v)
{
    if (!v->refused) {
        return 0;
    }
    ra_outcome_refusal_line(h, where, v);
    return 1;
}

/* A policy's refusal line, which names the rule that made it (out of
 * line, as enforce's) */
static __attribute__((noinline)) void
ra_outcome_policy_line(const ra_host_t *h, const ra_request_t *req,
    const ra_verdict_t *v)
{
    ra_buf_t  rule;

    ra_buf_init(&rule, h != NULL ? &h->heap : &ra_malloc_allocator, 0, 256);
    ra_policy_rule_text(&rule, ra_policy_refuses(req->policy, v), v);
    ra_logf(h, req->where, RA_LOG_INFO, RA_TAG_ENFORCED,
            "refused: policy (%.*s)", (int) rule.len,
            rule.data != NULL ? (const char *) rule.data : "");
    ra_buf_release(&rule);
}

/* Was req refused (by enforce or the policy)?  Said, if so. */
static inline int
ra_outcome_refused_by(const ra_host_t *h, const ra_request_t *req,
    const ra_verdict_t *v)
{
    if (v->refused == RA_REFUSE_POLICY) {
        ra_outcome_policy_line(h, req, v);
        return 1;
    }
    return ra_outcome_refused(h, req->where, v);
}

/* An undeclared crawler's lines, out of line: the evidence line when
 * the evidence budget takes it (au NULL: none), the RA104 alert line when
 * u->alert, in text through h (NULL: none) and in JSON to the alert log */
static __attribute__((noinline)) int
ra_outcome_undeclared_lines(ra_audit_t *au, const ra_host_t *h, void *where,
    const ra_undecl_out_t *u, const ra_outcome_logs_t *logs)
{
    int       rc = RA_OK;
    ra_buf_t  line;

    ra_buf_init(&line, h != NULL ? &h->heap : &ra_malloc_allocator, 0,
                RA_ALERT_LINE_MAX);
    if (ra_logfile_open(&logs->evidence)) {
        ra_undecl_evidence(&line, u);
        if (!line.failed && !line.truncated
            && (au == NULL
                || ra_audit_evidence_take(au, u->site, line.len,
                                          u->r.time_ms)))
        {
            rc = ra_outcome_write(au, h, where, RA_LOGFILE_EVIDENCE,
                                  &logs->evidence, line.data, line.len);
        }
    }
    if (u->alert && h != NULL) {
        line.len = 0;
        ra_undecl_alert(&line, 0, u->site, &u->rec, &u->r, u->method,
                        &u->v.match);
        if (!line.failed && !line.truncated) {
            ra_log_line(h, where, RA_LOG_WARN, line.data, line.len);
        }
    }
    if (u->alert && ra_logfile_open(&logs->alert)) {
        line.len = 0;
        ra_undecl_alert(&line, 1, u->site, &u->rec, &u->r, u->method,
                        &u->v.match);
        if (!line.failed && !line.truncated
            && ra_outcome_write(au, h, where, RA_LOGFILE_ALERT, &logs->alert,
                                line.data, line.len) != RA_OK)
        {
            rc = RA_ERROR;
        }
    }
    ra_buf_release(&line);
    return rc;
}

int
ra_outcome_undeclared(ra_audit_t *au, const ra_host_t *h, void *where,
    const ra_undecl_out_t *u, const ra_outcome_logs_t *logs)
{
    if (u->v.verdict != RA_UNDECL_V_VIOLATION) {
        return RA_OK;
    }
    return ra_outcome_undeclared_lines(au, h, where, u, logs);
}

/* A browser's request through the undeclared-crawler detector, and a
 * flagged client's violation's lines (its record is large: a frame of
 * its own, out of the crawlers' way) */
static __attribute__((noinline)) void
ra_outcome_browser(ra_audit_t *au, const ra_host_t *h, ra_request_t *req,
    const ra_outcome_logs_t *logs, ra_verdict_t *v)
{
    ra_undecl_out_t            u;
    static const ra_outcome_logs_t  none;

    if (ra_audit_undeclared(au, req, v, &u)) {
        (void) ra_outcome_undeclared(au, h, req->where, &u,
                                     logs != NULL ? logs : &none);
    }
}

int
ra_outcome_request(ra_audit_t *au, const ra_host_t *h, ra_request_t *req,
    const ra_outcome_logs_t *logs, ra_verdict_t *v)
{
    (void) ra_audit_request(au, req, v);
    if (v->kind == RA_UA_BROWSER && v->verdict == RA_VERDICT_NONE
        && ra_audit_undeclared_on(au))
    {
        ra_outcome_browser(au, h, req, logs, v);
    }
    /* the collector judges it again (a browser's request it does not
     * need) */
    if (v->kind != RA_UA_BROWSER) {
        ra_audit_events_count(au, ra_events_request(ra_audit_events(au),
                                                    &h->heap, req, v));
    }
    /* the violation's line first: the verdict holds its own copies, so
     * no eviction after the count can take it from the line.  A browser's
     * request and a compliant crawler's write nothing: a test of the
     * verdict each, no call (the lines are out of line) */
    ra_outcome_evidence(au, h, req, v, logs != NULL ? &logs->evidence
                                                    : NULL);
    ra_outcome_alerts(au, h, req, v, logs != NULL ? &logs->alert : NULL);
    return ra_outcome_refused_by(h, req, v);
}

int
ra_outcome_answer(ra_audit_t *au, const ra_host_t *h, ra_request_t *req,
    const ra_outcome_logs_t *logs, ra_verdict_t *v, ra_refusal_t *a)
{
    int  refused = ra_outcome_request(au, h, req, logs, v);

    if (a == NULL) {
        return refused;
    }
    ra_policy_answer(req->policy, v, a);
    return a->status;
}

int
ra_outcome_robots(ra_audit_t *au, const ra_host_t *h, ra_capture_t *c,
    ra_str_t content_type, ra_str_t charset, ra_request_t *req, unsigned hop,
    ra_str_t location, int64_t now)
{
    ra_answer_t  ans;

    if (ra_capture_answer(c, content_type, charset, &ans) != RA_OK) {
        ra_logf(h, req->where, RA_LOG_ERR, RA_TAG_NOMEM,
                "out of memory capturing robots.txt");
        return RA_ENOMEM;
    }
    ans.req = req;
    ans.hop = hop;
    ans.location = location;
    /* out of memory recording it: the engine says so */
    (void) ra_audit_robots(au, req->site, &ans, now);
    ra_audit_events_count(au, ra_events_robots(ra_audit_events(au), &h->heap,
                                               req->site, &ans, now));
    return RA_OK;
}

int
ra_outcome_body(ra_audit_t *au, const ra_host_t *h, ra_body_t *b,
    unsigned done, ra_request_t *req, const ra_body_fields_t *f,
    unsigned hop, int64_t now)
{
    int  recorded = 0;

    if (done & RA_BODY_ROBOTS) {
        recorded = ra_outcome_robots(au, h, &b->cap, f->content_type,
                                     f->charset, req, hop, f->location,
                                     now) == RA_OK;
    }
    if (done & RA_BODY_PAGE) {
        (void) ra_audit_page_body(au, req, b);
    }
    if (done & RA_BODY_SITEMAP) {
        ra_audit_sitemap_end(au, b->sitemap, now);
    }
    return recorded;
}
