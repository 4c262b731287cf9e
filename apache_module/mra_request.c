/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Judging requests: every request in log_transaction, or, with
 * RobotsAuditEnforce, in fixups (after access control and SetHandler),
 * where a refused one gets 403 and is not judged again at log time.
 */
#include "mra.h"

/* The header fields the core reads, found in one pass over the table
 * (not one apr_table_get() each): the first field of each name, as
 * apr_table_get() finds it (httpd joins repeated lines into one). */
static inline __attribute__((always_inline)) void
mra_headers(request_rec *r, ra_request_t *req)
{
    int                        i;
    const char                *k, *f[5] = { NULL, NULL, NULL, NULL, NULL };
    const apr_array_header_t  *a = apr_table_elts(r->headers_in);
    const apr_table_entry_t   *e = (const apr_table_entry_t *) a->elts;

    /* 0 User-Agent, 1 Referer, 2 Signature, 3 Signature-Input,
     * 4 Signature-Agent; the second letter first (k[0] is one, so k[1]
     * is there): a browser's Upgrade-Insecure-Requests, Range and its
     * half a dozen Sec-Fetch-* and Sec-CH-UA* fields are not compared */
    for (i = 0; i < a->nelts; i++) {
        k = e[i].key;
        switch (k[0] | 0x20) {
        case 'u':
            if (f[0] == NULL && (k[1] | 0x20) == 's'
                && strcasecmp(k, "User-Agent") == 0)
            {
                f[0] = e[i].val;
            }
            break;
        case 'r':
            if (f[1] == NULL && (k[1] | 0x20) == 'e'
                && strcasecmp(k, "Referer") == 0)
            {
                f[1] = e[i].val;
            }
            break;
        case 's':
            if ((k[1] | 0x20) != 'i' || strncasecmp(k, "Signature", 9) != 0) {
                break;
            }
            k += 9;
            if (*k == '\0') {
                if (f[2] == NULL) {
                    f[2] = e[i].val;
                }
            } else if (f[3] == NULL && strcasecmp(k, "-Input") == 0) {
                f[3] = e[i].val;
            } else if (f[4] == NULL && strcasecmp(k, "-Agent") == 0) {
                f[4] = e[i].val;
            }
            break;
        }
    }
    req->user_agent = mra_cstr(f[0]);
    req->referer = mra_cstr(f[1]);
    /* Web Bot Auth: checked only when Signature and Signature-Input are
     * both there, and only then does the core read the rest */
    if (f[2] == NULL || f[3] == NULL) {
        return;
    }
    req->signature = mra_cstr(f[2]);
    req->signature_input = mra_cstr(f[3]);
    req->signature_agent = mra_cstr(f[4]);
    req->authority = mra_cstr(apr_table_get(r->headers_in, "Host"));
    /* https when this connection is TLS; else unknown (a TLS proxy in
     * front may have taken it off): @scheme is then left unchecked */
    k = ap_http_scheme(r);
    if (k != NULL && strcmp(k, "https") == 0) {
        req->scheme = mra_cstr("https");
    }
}

/* r as the core reads it (status: what the client got, 0 before the
 * handler; enforce and recorded are the caller's); inlined on every
 * request's path, mra_request() for the capture filter */
static inline __attribute__((always_inline)) void
mra_fill(request_rec *r, int status, unsigned kind, ra_request_t *req)
{
    /* the fields up to referer set here and in mra_headers(), the rest
     * cleared */
    ra_request_clear_rest(req);
    req->site = mra_site(r);
    /* when the request came (as the access log says), not a clock read */
    req->time = (int64_t) (r->request_time / 1000);
    req->addr = mra_cstr(r->useragent_ip);
    req->method = mra_method(r);
    req->uri = mra_target(r);
    req->status = status;
    req->enforce = 0;
    req->where = r;
    req->target_kind = kind;
    mra_headers(r, req);
}

void
mra_request(request_rec *r, int status, unsigned kind, ra_request_t *req)
{
    mra_fill(r, status, kind, req);
}

/* Judges and counts r (status: what the client got, 0 before the handler)
 * and writes its alerts; the verdict into *v. */
static void
mra_judge(request_rec *r, int status, ra_enforce_t enforce, unsigned kind,
    ra_verdict_t *v)
{
    ra_buf_t      json;
    apr_size_t    n;
    ra_audit_t   *au;
    ra_request_t  req;

    mra_fill(r, status, kind, &req);
    req.enforce = enforce;
    /* a robots.txt answer the capture handed to the core: it bound the
     * crawler when the answer went out, and this only counts it */
    if (kind == 0 || (kind & RA_TARGET_ROBOTS)
        || (mra_audit != NULL && ra_audit_redirects(mra_audit)))
    {
        req.recorded = apr_table_get(r->notes, MRA_NOTE_RECORDED) != NULL;
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

unsigned
mra_robots_hop(request_rec *r)
{
    unsigned     hop;
    ra_audit_t  *au;

    if (mra_audit == NULL || !ra_audit_redirects(mra_audit)) {
        return 0;
    }
    au = mra_engine_take();
    hop = ra_audit_robots_hop(au, mra_site(r), mra_target(r),
                              ra_host_now(&mra_host));
    mra_engine_give(au);
    return hop;
}

/* RobotsAuditEnforce: judged here, before the handler, and not again at
 * log time.  robots.txt itself is never refused: it is counted with the
 * status it was served with, when it was served. */
static __attribute__((noinline)) int
mra_fixups_judge(request_rec *r)
{
    unsigned      kind;
    ra_verdict_t  v;

    if (!mra_on(r) || !ra_enforce_any(mra_dconf(r)->enforce)
        || mra_server_page(r)
        || ((kind = mra_request_kind(r)) & RA_TARGET_ROBOTS)
        || mra_robots_hop(r) != 0)
    {
        return DECLINED;
    }
    /* the original request's: the one log_transaction gets */
    ap_set_module_config(r->request_config, &robots_audit_module, r);
    mra_judge(r, 0, mra_dconf(r)->enforce, kind, &v);
    if (!v.refused) {
        return DECLINED;
    }
    ra_logf(&mra_host, r, RA_LOG_INFO, RA_TAG_ENFORCED, "refused: %s "
            "(enforce)", ra_refuse_name(v.refused));
    return HTTP_FORBIDDEN;
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
    request_rec   *last;
    ra_verdict_t   v;

    if (!mra_on(r)
        || ap_get_module_config(r->request_config, &robots_audit_module)
           == (void *) r
        || mra_server_page(r))
    {
        return DECLINED;
    }
    for (last = r; last->next != NULL; last = last->next) {
        /* the status the client got is the last internal redirect's */
    }
    /* the kind the capture filter asked for (a GET), else the core's */
    mra_judge(r, last->status, 0, mra_request_kind_known(r), &v);
    return DECLINED;
}
