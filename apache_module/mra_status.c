/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The status page (SetHandler robots-audit-status) and the section in
 * mod_status's /server-status: the core renders both (ra_status.h);
 * these functions hand them to Apache.
 */
#include "mra.h"
#include "mod_status.h"
#include "ra_status.h"

static apr_status_t
mra_page_free(void *data)
{
    ra_status_page_free(data);
    return APR_SUCCESS;
}

static __attribute__((noinline)) int
mra_status_serve(request_rec *r)
{
    ra_reply_t         reply;
    ra_status_page_t  *pg;
    mra_state         *st = mra_st(r->server);

    pg = apr_palloc(r->pool, sizeof(ra_status_page_t));
    /* r->method, not r->method_number: M_GET covers HEAD */
    (void) ra_conf_status_page(&st->conf,
                               st->audit != NULL ? &st->ledger : NULL,
                               &st->host, r, ra_str_z(r->method),
                               ra_str_z(r->args), ra_host_now(&st->host),
                               &st->host.heap, pg, &reply);
    apr_pool_cleanup_register(r->pool, pg, mra_page_free,
                              apr_pool_cleanup_null);
    return mra_reply(r, &reply);
}

/* mod_status's /server-status: totals, and one row per site. */
int
mra_status_hook(request_rec *r, int flags)
{
    ra_buf_t    out;
    mra_state  *st = mra_st(r->server);

    ra_buf_init(&out, &st->host.heap, 4096, RA_STATUS_PAGE_MAX);
    (void) ra_status_section(st->audit != NULL ? &st->ledger : NULL,
                             flags & AP_STATUS_SHORT,
                             flags & AP_STATUS_NOTABLE,
                             ra_host_now(&st->host), &st->host.heap, &out);
    if (out.failed) {
        ra_logf(&st->host, r, RA_LOG_ERR, RA_TAG_NOMEM, "out of memory "
                "rendering the server-status section");
    } else if (out.len > 0) {
        ap_rwrite(out.data, (int) out.len, r);
    }
    ra_buf_release(&out);
    return OK;
}

/* every request's handler phase asks: no frame unless it is the page */
int
mra_status_handler(request_rec *r)
{
    return mra_is_status_handler(r) ? mra_status_serve(r) : DECLINED;
}
