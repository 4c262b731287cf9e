/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Judging requests: every request in log_transaction, or, with
 * RobotsAuditEnforce, in fixups (after access control and SetHandler),
 * where a refused one gets 403 and is not judged again at log time.
 */
#include "mra.h"

/* Judges and counts r (status: what the client got, 0 before the handler)
 * and writes its alerts; the verdict into *v. */
static void
mra_judge(request_rec *r, int status, ra_enforce_t enforce, ra_verdict_t *v)
{
    ra_buf_t      json;
    apr_size_t    n;
    ra_audit_t   *au;
    ra_request_t  req;
    const char   *scheme;

    memset(&req, 0, sizeof(req));
    req.site = mra_site(r);
    req.time = ra_host_now(&mra_host);
    req.addr = mra_cstr(r->useragent_ip);
    req.user_agent = mra_cstr(apr_table_get(r->headers_in, "User-Agent"));
    req.method = mra_cstr(r->method);
    req.uri = mra_target(r);
    req.referer = mra_cstr(apr_table_get(r->headers_in, "Referer"));
    req.status = status;
    req.enforce = enforce;
    req.where = r;
    /* Web Bot Auth (checked only when Signature and Signature-Input are
     * both there) */
    req.signature = mra_cstr(apr_table_get(r->headers_in, "Signature"));
    req.signature_input = mra_cstr(apr_table_get(r->headers_in,
                                                 "Signature-Input"));
    req.signature_agent = mra_cstr(apr_table_get(r->headers_in,
                                                 "Signature-Agent"));
    req.authority = mra_cstr(apr_table_get(r->headers_in, "Host"));
    /* https when this connection is TLS; else unknown (a TLS proxy in
     * front may have taken it off): @scheme is then left unchecked */
    scheme = ap_http_scheme(r);
    if (scheme != NULL && strcmp(scheme, "https") == 0) {
        req.scheme = mra_cstr("https");
    }

    /* out of memory: counted, not judged, and the core logs it */
    au = mra_engine_take();
    (void) ra_audit_request(au, &req, v);
    mra_engine_give(au);

    if (v->alert || v->summary) {
        /* the verdict holds its own copies: rendered outside the lock */
        ra_buf_init(&json, mra_pool_allocator(r->pool), 512, 0);
        ra_alert_emit(&mra_host, &req, v,
                      mra_alert_file != NULL ? &json : NULL);
        if (mra_alert_file != NULL && !json.failed && json.len > 0) {
            /* one write per line: O_APPEND keeps lines whole */
            n = json.len;
            (void) apr_file_write(mra_alert_file, json.data, &n);
        }
    }
}

/* RobotsAuditEnforce: judged here, before the handler, and not again at
 * log time.  robots.txt itself is never refused: it is counted with the
 * status it was served with, when it was served. */
int
mra_fixups(request_rec *r)
{
    ra_verdict_t  v;

    if (r->main != NULL || r->prev != NULL || !mra_on(r)
        || !ra_enforce_any(mra_dconf(r)->enforce) || mra_server_page(r)
        || ra_http_is_robots(mra_target(r)))
    {
        return DECLINED;
    }
    apr_table_setn(r->notes, MRA_NOTE_JUDGED, "1");
    mra_judge(r, 0, mra_dconf(r)->enforce, &v);
    if (!v.refused) {
        return DECLINED;
    }
    ra_logf(&mra_host, r, RA_LOG_INFO, RA_TAG_ENFORCED, "refused: %s "
            "(enforce)", ra_refuse_name(v.refused));
    return HTTP_FORBIDDEN;
}

int
mra_log_transaction(request_rec *r)
{
    request_rec   *last;
    ra_verdict_t   v;

    if (!mra_on(r) || apr_table_get(r->notes, MRA_NOTE_JUDGED) != NULL
        || mra_server_page(r))
    {
        return DECLINED;
    }
    for (last = r; last->next != NULL; last = last->next) {
        /* the status the client got is the last internal redirect's */
    }
    mra_judge(r, last->status, 0, &v);
    return DECLINED;
}
