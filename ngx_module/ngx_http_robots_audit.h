/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * robots-audit for nginx: what the glue's files share.
 *
 *   ngx_http_robots_audit_module.c   directives, the shared zone, the host
 *                                    interface, the log and preaccess
 *                                    phases (judge, count, alert, enforce)
 *   ngx_http_robots_audit_request.c  a request as the core reads it, its
 *                                    site and context; the allocators
 *   ngx_http_robots_audit_filter.c   robots.txt answers captured as served
 *   ngx_http_robots_audit_status.c   robots_audit_status
 *   ngx_http_robots_audit_rdns.c     reverse DNS by nginx's resolver
 *
 * Every decision is the core's (common/, docs/design.md): these files
 * translate nginx's types into spans and the core's answers into nginx's.
 */

#ifndef _NGX_HTTP_ROBOTS_AUDIT_H_INCLUDED_
#define _NGX_HTTP_ROBOTS_AUDIT_H_INCLUDED_


#include <ngx_config.h>
#include <ngx_core.h>
#include <ngx_http.h>

#include "ra_alert.h"
#include "ra_audit.h"
#include "ra_audit_body.h"
#include "ra_audit_want.h"
#include "ra_directive.h"
#include "ra_http.h"
#include "ra_kind.h"
#include "ra_ledger_file.h"
#include "ra_outcome.h"
#include "ra_setup.h"


typedef struct {
    ra_conf_main_t               conf;          /* the directives' */
    ngx_shm_zone_t              *shm_zone;
    ra_ledger_t                  ledger;        /* base NULL: none */

    ra_alloc_t                   pool;          /* the cycle's pool */

    ra_host_t                    host;          /* run time: where is a
                                                   request or NULL */
    ra_host_t                    conf_host;     /* where is an ngx_conf_t */

    ra_audit_t                  *audit;         /* this worker's */
    ra_ledger_saver_t            saver;         /* zeroed unless this
                                                   process saves the state
                                                   file */
    ngx_event_t                  state_timer;   /* its saves' */
    ra_kind_memo_t               kind;          /* the target's kind as
                                                   the header filter asked
                                                   it, for that request's
                                                   log phase */
} ngx_http_robots_audit_main_conf_t;


typedef struct {
    ra_conf_server_t             conf;          /* the robots file, the
                                                   names */
} ngx_http_robots_audit_srv_conf_t;


typedef struct {
    ra_conf_scope_t              conf;          /* alert_file: its
                                                   ngx_open_file_t */
} ngx_http_robots_audit_loc_conf_t;


/* per request, in a pool cleanup so that it survives internal redirects
 * (error_page after an enforced 403), as realip's does */
typedef struct {
    unsigned                     counted:1;     /* judged in preaccess */
    unsigned                     recorded:1;    /* its robots.txt answer
                                                   handed to the core */
    unsigned                     hop:3;         /* 0: /robots.txt; k: its
                                                   k-th redirect's target */
    ra_body_t                   *body;          /* the answer's, as read */
    ra_refusal_t                 refusal;       /* a refused one's answer */
    ra_alloc_t                   alloc;         /* the request's pool */
} ngx_http_robots_audit_ctx_t;


/* shared by the glue's files, exported to nobody (only the module and
 * the core's ra_* are: nginx loads modules RTLD_GLOBAL) */
#define NGX_HTTP_RA_LOCAL  __attribute__((visibility("hidden")))

extern ngx_module_t  ngx_http_robots_audit_module;


NGX_HTTP_RA_LOCAL ngx_int_t ngx_http_robots_audit_filter_init(ngx_conf_t *cf);
NGX_HTTP_RA_LOCAL ngx_int_t ngx_http_robots_audit_status_handler(
    ngx_http_request_t *r);

NGX_HTTP_RA_LOCAL void *ngx_http_robots_audit_pool_alloc(void *ctx,
    size_t size);
NGX_HTTP_RA_LOCAL void ngx_http_robots_audit_pool_free(void *ctx, void *p);
NGX_HTTP_RA_LOCAL ngx_http_robots_audit_ctx_t *ngx_http_robots_audit_get_ctx(
    ngx_http_request_t *r, ngx_uint_t create);
NGX_HTTP_RA_LOCAL void ngx_http_robots_audit_request(ngx_http_request_t *r,
    ngx_int_t status, unsigned kind, ra_request_t *req);
NGX_HTTP_RA_LOCAL unsigned ngx_http_robots_audit_hop(ngx_http_request_t *r,
    ngx_http_robots_audit_main_conf_t *amcf);
NGX_HTTP_RA_LOCAL int64_t ngx_http_robots_audit_now(const ra_host_t *h);
NGX_HTTP_RA_LOCAL ngx_int_t ngx_http_robots_audit_reply(ngx_http_request_t *r,
    const ra_reply_t *a);
NGX_HTTP_RA_LOCAL int ngx_http_robots_audit_rdns_start(const ra_host_t *h,
    void *where, const uint8_t addr[16]);


#define ngx_http_robots_audit_str(s)  ra_str((s).data, (s).len)


/* the main request of an audited location, not the status page (the
 * core leaves the servers' other pages alone: ra_http_target_kind());
 * inline: the header filter asks it of every GET */
static ngx_inline ngx_http_robots_audit_main_conf_t *
ngx_http_robots_audit_on(ngx_http_request_t *r, ngx_uint_t enforce)
{
    ngx_http_robots_audit_loc_conf_t   *alcf;
    ngx_http_robots_audit_main_conf_t  *amcf;

    alcf = ngx_http_get_module_loc_conf(r, ngx_http_robots_audit_module);
    amcf = ngx_http_get_module_main_conf(r, ngx_http_robots_audit_module);

    return r == r->main && amcf->audit != NULL
           && ra_conf_scope_audits(&alcf->conf, (int) enforce) ? amcf : NULL;
}


#endif /* _NGX_HTTP_ROBOTS_AUDIT_H_INCLUDED_ */
