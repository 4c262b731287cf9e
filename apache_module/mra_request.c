/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Judging requests: every request in log_transaction, or, with
 * RobotsAuditEnforce or RobotsAuditBlock, in fixups (after access control
 * and SetHandler), where a refused one gets its refusal and is not judged
 * again at log time.
 */
#include "mra.h"

#include "ra_fields.h"

/* The header fields the core reads (ra_fields.h), from one pass over the
 * table (not one apr_table_get() each): httpd joined repeated lines
 * already; then what a signature base covers. */
static inline __attribute__((always_inline)) void
mra_headers(request_rec *r, ra_request_t *req)
{
    int                        i;
    const char                *k;
    ra_fields_t                f;
    const apr_array_header_t  *a = apr_table_elts(r->headers_in);
    const apr_table_entry_t   *e = (const apr_table_entry_t *) a->elts;

    ra_fields_start(&f, req, RA_FIELD_ALL, mra_pool_allocator(r->pool));
    for (i = 0; i < a->nelts; i++) {
        ra_fields_line_z(&f, e[i].key, e[i].val);
    }
    if (!ra_fields_end(&f)) {
        return;
    }
    k = ap_http_scheme(r);
    ra_request_origin(req, mra_target(r),
                      ra_str_z(apr_table_get(r->headers_in, "Host")),
                      k != NULL && strcmp(k, "https") == 0);
}

/* r as the core reads it (status: what the client got, 0 before the
 * handler; enforce and recorded are the caller's); inlined on every
 * request's path, mra_request() for the capture filter */
static inline __attribute__((always_inline)) void
mra_fill(request_rec *r, int status, unsigned kind, ra_request_t *req)
{
    /* the time when the request came (as the access log says), not a
     * clock read; User-Agent and Referer among the header fields */
    ra_request_start(req, mra_site(r), (int64_t) (r->request_time / 1000),
                     ra_str_z(r->useragent_ip), ra_http_method_z(r->method),
                     mra_target(r), status, kind, r);
    mra_headers(r, req);
}

void
mra_request(request_rec *r, int status, unsigned kind, ra_request_t *req)
{
    mra_fill(r, status, kind, req);
}

/* r's turn (ra_outcome_answer(); status: what the client got, 0 before
 * the handler): the status to refuse it with (a: its answer, before the
 * handler), else 0 */
static int
mra_judge(request_rec *r, int status, ra_refusal_t *a, unsigned kind)
{
    int            refused;
    ra_audit_t    *au;
    ra_request_t   req;
    ra_verdict_t   v;
    mra_state     *st = mra_st(r->server);

    mra_fill(r, status, kind, &req);
    ra_conf_scope_request(a != NULL ? &mra_dconf(r)->conf : NULL, &req);
    /* a robots.txt answer the capture handed to the core: it bound the
     * crawler when the answer went out, and this only counts it */
    if (ra_audit_may_be_recorded(st->audit, kind)) {
        req.recorded = apr_table_get(r->notes, MRA_NOTE_RECORDED) != NULL;
    }

    au = ra_engines_take_or(st->engines, st->audit);
    refused = ra_outcome_answer(au, &st->host, &req, &st->logs, &v, a);
    ra_engines_give(st->engines, au);
    return refused;
}

unsigned
mra_robots_hop(request_rec *r)
{
    unsigned     hop;
    ra_audit_t  *au;
    mra_state   *st = mra_st(r->server);

    if (st->audit == NULL || !ra_audit_redirects(st->audit)) {
        return 0;
    }
    au = ra_engines_take_or(st->engines, st->audit);
    hop = ra_audit_robots_hop(au, mra_site(r), mra_target(r),
                              ra_host_now(&st->host));
    ra_engines_give(st->engines, au);
    return hop;
}

/* A reply the core made (a refusal's, the status page's): its header
 * fields (kept on an error page too), then its whole answer (OK), or its
 * status alone for httpd's own page. */
int
mra_reply(request_rec *r, const ra_reply_t *a)
{
    const ra_http_field_t  *f;

    for (f = a->fields; f->name != NULL; f++) {
        apr_table_set(r->err_headers_out, f->name, f->value);
    }
    if (a->content_type == NULL) {
        return a->status;
    }
    r->status = a->status;
    ap_set_content_type(r, a->content_type);
    ap_set_content_length(r, (apr_off_t) a->body.len);
    if (!a->header_only && a->body.len > 0) {
        ap_rwrite(a->body.data, (int) a->body.len, r);
    }
    return OK;
}

/* the refusal the core chose (then the response is this one: DONE) */
static int
mra_refuse(request_rec *r, const ra_refusal_t *a)
{
    ra_reply_t  reply;

    ra_refusal_reply(a, &reply);
    if (reply.content_type != NULL && ap_discard_request_body(r) != OK) {
        reply.content_type = NULL;
    }
    return mra_reply(r, &reply) == OK ? DONE : reply.status;
}

/* RobotsAuditEnforce, RobotsAuditBlock: judged here, before the handler,
 * and not again at log time.  robots.txt itself is never refused: it is
 * counted with the status it was served with, when it was served. */
static __attribute__((noinline)) int
mra_fixups_judge(request_rec *r)
{
    unsigned      kind;
    ra_refusal_t  a;

    if (!mra_on(r, 1) || mra_server_page(r)
        || ((kind = mra_request_kind(r)) & RA_TARGET_ROBOTS)
        || mra_robots_hop(r) != 0)
    {
        return DECLINED;
    }
    /* the original request's: the one log_transaction gets */
    mra_request_word_set(r, mra_request_word(r) | RA_KIND_JUDGED);
    return mra_judge(r, 0, &a, kind) ? mra_refuse(r, &a) : DECLINED;
}

/* registered only when RobotsAuditEnforce is on somewhere */
int
mra_fixups(request_rec *r)
{
    if (r->main != NULL || r->prev != NULL) {
        return DECLINED;
    }
    return mra_fixups_judge(r);
}

int
mra_log_transaction(request_rec *r)
{
    request_rec  *last;

    if (!mra_on(r, 0) || (mra_request_word(r) & RA_KIND_JUDGED)
        || mra_server_page(r))
    {
        return DECLINED;
    }
    for (last = r; last->next != NULL; last = last->next) {
        /* the status the client got is the last internal redirect's */
    }
    /* the kind the capture filter asked for (a GET), else the core's */
    (void) mra_judge(r, last->status, 0, ra_kind_known(mra_request_word(r)));
    return DECLINED;
}
