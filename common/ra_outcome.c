/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A request's turn and a verdict's output through the host
 * (ra_outcome.h): the alert lines, the JSON one written whole to the
 * alert log, and enforce's refusal line, so that nginx and Apache take
 * the same steps, write the same lines and report a failed write the
 * same way; and a captured robots.txt answer handed to the engine.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "ra_outcome.h"

int
ra_alert_log_write_fd(void *file, const void *p, size_t *n)
{
    ssize_t  k = write(*(int *) file, p, *n);

    if (k == -1) {
        return errno;
    }
    *n = (size_t) k;
    return 0;
}

int
ra_alert_log_write(const ra_alert_log_t *log, const void *p, size_t n,
    int *err)
{
    int                   rc;
    size_t                k;
    const unsigned char  *q = p;

    while (n > 0) {
        k = n;
        rc = log->write(log->file, q, &k);
        if (rc == EINTR) {
            continue;
        }
        if (rc != 0 || k == 0 || k > n) {
            /* a write that wrote nothing would never end */
            *err = rc != 0 ? rc : EIO;
            return RA_ERROR;
        }
        q += k;
        n -= k;
    }
    return RA_OK;
}

void
ra_outcome_alert(const ra_host_t *h, const ra_request_t *req,
    const ra_verdict_t *v, const ra_alert_log_t *log)
{
    int       err = 0;
    ra_buf_t  json;
    void     *file;

    if (!v->alert && !v->summary) {
        return;
    }
    file = log != NULL && log->write != NULL ? log->file : NULL;

    /* the verdict holds its own copies: rendered outside any lock */
    ra_buf_init(&json, h != NULL ? &h->heap : &ra_malloc_allocator, 0,
                RA_ALERT_LINE_MAX);
    ra_alert_emit(h, req, v, file != NULL ? &json : NULL);

    if (file != NULL && json.len != 0 && !json.failed && !json.truncated
        && ra_alert_log_write(log, json.data, json.len, &err) != RA_OK)
    {
        ra_logf(h, req->where, RA_LOG_ALERT, RA_TAG_ALERT_LOG,
                "cannot write the alert log %s: %s",
                log->name != NULL ? log->name : "", strerror(err));
    }
    ra_buf_release(&json);
}

int
ra_outcome_refused(const ra_host_t *h, void *where, const ra_verdict_t *v)
{
    if (!v->refused) {
        return 0;
    }
    ra_logf(h, where, RA_LOG_INFO, RA_TAG_ENFORCED, "refused: %s (enforce)",
            ra_refuse_name(v->refused));
    return 1;
}

int
ra_outcome_request(ra_audit_t *au, const ra_host_t *h, ra_request_t *req,
    const ra_alert_log_t *log, ra_verdict_t *v)
{
    (void) ra_audit_request(au, req, v);
    ra_outcome_alert(h, req, v, log);
    return ra_outcome_refused(h, req->where, v);
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
    return RA_OK;
}
