
/*
 * robots-audit for nginx: the glue between nginx and the core in common/.
 *
 *   robots_audit_zone        one shared ledger for all workers (ra_ledger.h)
 *   log phase                every request is judged and counted
 *                            (ra_audit_request), violations alert
 *   preaccess phase          "robots_audit_enforce on": judged early, 403
 *   header and body filters  every answer to /robots.txt is captured as
 *                            served (ra_audit_robots)
 *   robots_audit_status      HTML, JSON or Prometheus from a snapshot
 *
 * The zone holds one slab allocation: a small header of our own followed
 * by the ledger region.  Only offsets and in-zone pointers are kept there;
 * the zone is mapped at the same address in the master and every worker
 * of every cycle, as limit_req relies on too.
 */


#include <ngx_config.h>
#include <ngx_core.h>
#include <ngx_http.h>

#include "ra_core.h"
#include "ra_alert.h"
#include "ra_audit.h"
#include "ra_buf.h"
#include "ra_crawlers.h"
#include "ra_ledger.h"
#include "ra_lint.h"
#include "ra_parse.h"
#include "ra_report.h"
#include "ra_verify.h"


#define NGX_HTTP_ROBOTS_AUDIT_MAGIC     0x5a4e58474e524152ULL  /* RAN GXNZ */

/* our header before the ledger, in the same slab allocation */
#define NGX_HTTP_ROBOTS_AUDIT_SH_SIZE   128

/*
 * The slab allocator keeps its own pool header and page table in the
 * zone, a page or two for the sizes we allow; init_zone checks what is
 * really left for the ledger.
 */
#define NGX_HTTP_ROBOTS_AUDIT_MIN_ZONE  (RA_LEDGER_MIN_SIZE + 16 * 1024)

/* files read at configuration time: crawler tables, published ranges */
#define NGX_HTTP_ROBOTS_AUDIT_MAX_FILE  RA_RANGES_MAX_FILE

/* an alert line: escaped bytes take four, so a long URI is cut here */
#define NGX_HTTP_ROBOTS_AUDIT_ALERT_MAX 16384

/* the status page's size, far above a full 64 MiB zone's report */
#define NGX_HTTP_ROBOTS_AUDIT_PAGE_MAX  (256 * 1024 * 1024)

/* at most one "zone is full" line per this many seconds, all workers */
#define NGX_HTTP_ROBOTS_AUDIT_EVICT_LOG 60


typedef struct {
    uint64_t                     magic;
    u_char                      *ledger;        /* in-zone */
    size_t                       size;
    ngx_atomic_t                 evict_logged;  /* seconds */
    ngx_atomic_t                 evict_seen;    /* evictions then */
} ngx_http_robots_audit_sh_t;


typedef struct {
    ngx_shm_zone_t              *shm_zone;
    ngx_http_robots_audit_sh_t  *sh;
    ngx_slab_pool_t             *shpool;
    ra_ledger_t                  ledger;        /* valid once sh is set */

    ra_crawlers_t               *crawlers;
    ra_ranges_t                 *ranges;
    ngx_msec_t                   alert_interval;

    ra_audit_t                  *audit;         /* this worker's */
} ngx_http_robots_audit_main_conf_t;


typedef struct {
    ngx_str_t                    robots_file;
    ngx_str_t                    robots_body;   /* the first RA_ROBOTS_MAX */
    size_t                       robots_size;

    /*
     * the block's exact server names, copied at configuration time: a
     * Host equal to one of them names the site (the core's server_names
     * array is not kept intact for run time)
     */
    ngx_array_t                  names;         /* of ngx_str_t */
} ngx_http_robots_audit_srv_conf_t;


typedef struct {
    ngx_flag_t                   enable;
    ngx_flag_t                   enforce;
    ngx_open_file_t             *alert_log;     /* NULL: none */
    ngx_uint_t                   status;        /* the status page: its
                                                   polls are not audited */
} ngx_http_robots_audit_loc_conf_t;


/*
 * Per request, kept in a pool cleanup so that it survives internal
 * redirects (error_page after an enforced 403), as realip does.
 */
typedef struct {
    unsigned                     counted:1;     /* judged in preaccess */
    unsigned                     capture:1;     /* a /robots.txt answer */

    ngx_int_t                    status;
    ngx_str_t                    content_type;
    u_char                      *body;
    size_t                       len;
    size_t                       cap;
    off_t                        size;          /* bytes served */
} ngx_http_robots_audit_ctx_t;


static void *ngx_http_robots_audit_heap_alloc(void *ctx, size_t size);
static void ngx_http_robots_audit_heap_free(void *ctx, void *p);
static void *ngx_http_robots_audit_pool_alloc(void *ctx, size_t size);
static void ngx_http_robots_audit_lock(void *ctx);
static void ngx_http_robots_audit_unlock(void *ctx);

static ngx_int_t ngx_http_robots_audit_log_handler(ngx_http_request_t *r);
static ngx_int_t ngx_http_robots_audit_preaccess_handler(
    ngx_http_request_t *r);
static void ngx_http_robots_audit_judge(ngx_http_request_t *r,
    ngx_http_robots_audit_main_conf_t *amcf,
    ngx_http_robots_audit_loc_conf_t *alcf, ngx_int_t status,
    ra_verdict_t *v);
static void ngx_http_robots_audit_alert(ngx_http_request_t *r,
    ngx_http_robots_audit_loc_conf_t *alcf, ra_request_t *req,
    ra_verdict_t *v);
static void ngx_http_robots_audit_evictions(ngx_log_t *log,
    ngx_http_robots_audit_main_conf_t *amcf);
static ngx_str_t ngx_http_robots_audit_site(ngx_http_request_t *r);
static ngx_str_t ngx_http_robots_audit_server_site(
    ngx_http_core_srv_conf_t *cscf);
static ngx_uint_t ngx_http_robots_audit_is_robots(ngx_str_t *uri);
static ngx_http_robots_audit_ctx_t *ngx_http_robots_audit_get_ctx(
    ngx_http_request_t *r, ngx_uint_t create);
static void ngx_http_robots_audit_ctx_cleanup(void *data);

static ngx_int_t ngx_http_robots_audit_header_filter(ngx_http_request_t *r);
static ngx_int_t ngx_http_robots_audit_body_filter(ngx_http_request_t *r,
    ngx_chain_t *in);
static ngx_int_t ngx_http_robots_audit_capture(ngx_http_request_t *r,
    ngx_http_robots_audit_ctx_t *ctx, ngx_buf_t *b);
static void ngx_http_robots_audit_record(ngx_http_request_t *r,
    ngx_http_robots_audit_ctx_t *ctx);

static ngx_int_t ngx_http_robots_audit_status_handler(ngx_http_request_t *r);
static void ngx_http_robots_audit_page_cleanup(void *data);

static ngx_int_t ngx_http_robots_audit_init_zone(ngx_shm_zone_t *shm_zone,
    void *data);
static ngx_int_t ngx_http_robots_audit_read_file(ngx_conf_t *cf,
    ngx_str_t *name, size_t max, ngx_str_t *out, size_t *size);
static ngx_int_t ngx_http_robots_audit_crawlers_create(ngx_conf_t *cf,
    ngx_http_robots_audit_main_conf_t *amcf);
static void ngx_http_robots_audit_lint(ngx_conf_t *cf, ngx_str_t *name,
    ngx_str_t *body, size_t size);

static char *ngx_http_robots_audit_zone(ngx_conf_t *cf, ngx_command_t *cmd,
    void *conf);
static char *ngx_http_robots_audit_status(ngx_conf_t *cf, ngx_command_t *cmd,
    void *conf);
static char *ngx_http_robots_audit_robots_file(ngx_conf_t *cf,
    ngx_command_t *cmd, void *conf);
static char *ngx_http_robots_audit_crawlers(ngx_conf_t *cf,
    ngx_command_t *cmd, void *conf);
static char *ngx_http_robots_audit_ip_ranges(ngx_conf_t *cf,
    ngx_command_t *cmd, void *conf);
static char *ngx_http_robots_audit_alert_log(ngx_conf_t *cf,
    ngx_command_t *cmd, void *conf);

static void *ngx_http_robots_audit_create_main_conf(ngx_conf_t *cf);
static char *ngx_http_robots_audit_init_main_conf(ngx_conf_t *cf, void *conf);
static void *ngx_http_robots_audit_create_srv_conf(ngx_conf_t *cf);
static char *ngx_http_robots_audit_merge_srv_conf(ngx_conf_t *cf,
    void *parent, void *child);
static void *ngx_http_robots_audit_create_loc_conf(ngx_conf_t *cf);
static char *ngx_http_robots_audit_merge_loc_conf(ngx_conf_t *cf,
    void *parent, void *child);
static ngx_int_t ngx_http_robots_audit_postconf(ngx_conf_t *cf);
static ngx_int_t ngx_http_robots_audit_init_module(ngx_cycle_t *cycle);
static ngx_int_t ngx_http_robots_audit_init_process(ngx_cycle_t *cycle);
static void ngx_http_robots_audit_exit_process(ngx_cycle_t *cycle);


static ngx_command_t  ngx_http_robots_audit_commands[] = {

    { ngx_string("robots_audit_zone"),
      NGX_HTTP_MAIN_CONF|NGX_CONF_TAKE2,
      ngx_http_robots_audit_zone,
      NGX_HTTP_MAIN_CONF_OFFSET,
      0,
      NULL },

    { ngx_string("robots_audit"),
      NGX_HTTP_MAIN_CONF|NGX_HTTP_SRV_CONF|NGX_HTTP_LOC_CONF|NGX_CONF_FLAG,
      ngx_conf_set_flag_slot,
      NGX_HTTP_LOC_CONF_OFFSET,
      offsetof(ngx_http_robots_audit_loc_conf_t, enable),
      NULL },

    { ngx_string("robots_audit_status"),
      NGX_HTTP_LOC_CONF|NGX_CONF_NOARGS,
      ngx_http_robots_audit_status,
      NGX_HTTP_LOC_CONF_OFFSET,
      0,
      NULL },

    { ngx_string("robots_audit_robots_file"),
      NGX_HTTP_SRV_CONF|NGX_CONF_TAKE1,
      ngx_http_robots_audit_robots_file,
      NGX_HTTP_SRV_CONF_OFFSET,
      0,
      NULL },

    { ngx_string("robots_audit_crawlers"),
      NGX_HTTP_MAIN_CONF|NGX_CONF_TAKE1,
      ngx_http_robots_audit_crawlers,
      NGX_HTTP_MAIN_CONF_OFFSET,
      0,
      NULL },

    { ngx_string("robots_audit_ip_ranges"),
      NGX_HTTP_MAIN_CONF|NGX_CONF_1MORE,
      ngx_http_robots_audit_ip_ranges,
      NGX_HTTP_MAIN_CONF_OFFSET,
      0,
      NULL },

    { ngx_string("robots_audit_alert_log"),
      NGX_HTTP_MAIN_CONF|NGX_HTTP_SRV_CONF|NGX_HTTP_LOC_CONF|NGX_CONF_TAKE1,
      ngx_http_robots_audit_alert_log,
      NGX_HTTP_LOC_CONF_OFFSET,
      0,
      NULL },

    { ngx_string("robots_audit_alert_interval"),
      NGX_HTTP_MAIN_CONF|NGX_CONF_TAKE1,
      ngx_conf_set_msec_slot,
      NGX_HTTP_MAIN_CONF_OFFSET,
      offsetof(ngx_http_robots_audit_main_conf_t, alert_interval),
      NULL },

    { ngx_string("robots_audit_enforce"),
      NGX_HTTP_MAIN_CONF|NGX_HTTP_SRV_CONF|NGX_HTTP_LOC_CONF|NGX_CONF_FLAG,
      ngx_conf_set_flag_slot,
      NGX_HTTP_LOC_CONF_OFFSET,
      offsetof(ngx_http_robots_audit_loc_conf_t, enforce),
      NULL },

      ngx_null_command
};


static ngx_http_module_t  ngx_http_robots_audit_module_ctx = {
    NULL,                                  /* preconfiguration */
    ngx_http_robots_audit_postconf,        /* postconfiguration */

    ngx_http_robots_audit_create_main_conf, /* create main configuration */
    ngx_http_robots_audit_init_main_conf,  /* init main configuration */

    ngx_http_robots_audit_create_srv_conf, /* create server configuration */
    ngx_http_robots_audit_merge_srv_conf,  /* merge server configuration */

    ngx_http_robots_audit_create_loc_conf, /* create location configuration */
    ngx_http_robots_audit_merge_loc_conf   /* merge location configuration */
};


ngx_module_t  ngx_http_robots_audit_module = {
    NGX_MODULE_V1,
    &ngx_http_robots_audit_module_ctx,     /* module context */
    ngx_http_robots_audit_commands,        /* module directives */
    NGX_HTTP_MODULE,                       /* module type */
    NULL,                                  /* init master */
    ngx_http_robots_audit_init_module,     /* init module */
    ngx_http_robots_audit_init_process,    /* init process */
    NULL,                                  /* init thread */
    NULL,                                  /* exit thread */
    ngx_http_robots_audit_exit_process,    /* exit process */
    NULL,                                  /* exit master */
    NGX_MODULE_V1_PADDING
};


static ngx_http_output_header_filter_pt  ngx_http_next_header_filter;
static ngx_http_output_body_filter_pt    ngx_http_next_body_filter;

/* for what the core frees (rule-set cache, lint scratch, reports) */
static const ra_alloc_t  ngx_http_robots_audit_heap = {
    ngx_http_robots_audit_heap_alloc, ngx_http_robots_audit_heap_free, NULL
};

static ngx_str_t  ngx_http_robots_audit_default_site =
    ngx_string("default");


/* ---- memory and locking for the core ---------------------------------- */

static void *
ngx_http_robots_audit_heap_alloc(void *ctx, size_t size)
{
    return ngx_alloc(size, ngx_cycle->log);
}


static void
ngx_http_robots_audit_heap_free(void *ctx, void *p)
{
    ngx_free(p);
}


/* a configuration pool; the core wants memory aligned for any object */
static void *
ngx_http_robots_audit_pool_alloc(void *ctx, size_t size)
{
    u_char  *p;

    p = ngx_palloc(ctx, size + 15);
    if (p == NULL) {
        return NULL;
    }

    return ngx_align_ptr(p, 16);
}


static void
ngx_http_robots_audit_lock(void *ctx)
{
    ngx_slab_pool_t  *shpool = ctx;

    ngx_shmtx_lock(&shpool->mutex);
}


static void
ngx_http_robots_audit_unlock(void *ctx)
{
    ngx_slab_pool_t  *shpool = ctx;

    ngx_shmtx_unlock(&shpool->mutex);
}


/* ---- accounting ------------------------------------------------------- */

static ngx_int_t
ngx_http_robots_audit_log_handler(ngx_http_request_t *r)
{
    ngx_int_t                           status;
    ra_verdict_t                        v;
    ngx_http_robots_audit_ctx_t        *ctx;
    ngx_http_robots_audit_loc_conf_t   *alcf;
    ngx_http_robots_audit_main_conf_t  *amcf;

    if (r != r->main) {
        return NGX_OK;
    }

    alcf = ngx_http_get_module_loc_conf(r, ngx_http_robots_audit_module);
    if (alcf->enable != 1 || alcf->status) {
        return NGX_OK;
    }

    amcf = ngx_http_get_module_main_conf(r, ngx_http_robots_audit_module);
    if (amcf->audit == NULL) {
        return NGX_OK;
    }

    ctx = ngx_http_robots_audit_get_ctx(r, 0);
    if (ctx != NULL && ctx->counted) {
        return NGX_OK;
    }

    status = r->err_status ? (ngx_int_t) r->err_status
                           : (ngx_int_t) r->headers_out.status;

    ngx_http_robots_audit_judge(r, amcf, alcf, status, &v);

    return NGX_OK;
}


/* "robots_audit_enforce on": violations get 403 before any content */
static ngx_int_t
ngx_http_robots_audit_preaccess_handler(ngx_http_request_t *r)
{
    ra_verdict_t                        v;
    ngx_http_robots_audit_ctx_t        *ctx;
    ngx_http_robots_audit_loc_conf_t   *alcf;
    ngx_http_robots_audit_main_conf_t  *amcf;

    if (r != r->main) {
        return NGX_DECLINED;
    }

    alcf = ngx_http_get_module_loc_conf(r, ngx_http_robots_audit_module);
    if (alcf->enable != 1 || alcf->enforce != 1 || alcf->status) {
        return NGX_DECLINED;
    }

    amcf = ngx_http_get_module_main_conf(r, ngx_http_robots_audit_module);
    if (amcf->audit == NULL) {
        return NGX_DECLINED;
    }

    /* robots.txt fetches are counted with the status they got */
    if (ngx_http_robots_audit_is_robots(&r->unparsed_uri)) {
        return NGX_DECLINED;
    }

    ctx = ngx_http_robots_audit_get_ctx(r, 1);
    if (ctx == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    if (ctx->counted) {
        return NGX_DECLINED;
    }

    ctx->counted = 1;

    ngx_http_robots_audit_judge(r, amcf, alcf, 0, &v);

    if (v.verdict == RA_VERDICT_VIOLATION
        || v.verdict == RA_VERDICT_UNREACHABLE)
    {
        ngx_log_debug1(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                       "robots audit: enforced %s",
                       ra_verdict_name(v.verdict));
        return NGX_HTTP_FORBIDDEN;
    }

    return NGX_DECLINED;
}


static void
ngx_http_robots_audit_judge(ngx_http_request_t *r,
    ngx_http_robots_audit_main_conf_t *amcf,
    ngx_http_robots_audit_loc_conf_t *alcf, ngx_int_t status,
    ra_verdict_t *v)
{
    ngx_str_t      site;
    ngx_time_t    *tp;
    ra_request_t   req;

    site = ngx_http_robots_audit_site(r);
    tp = ngx_timeofday();

    req.site = ra_str(site.data, site.len);
    req.time = (int64_t) tp->sec * 1000 + (int64_t) tp->msec;
    req.addr = ra_str(r->connection->addr_text.data,
                      r->connection->addr_text.len);
    req.user_agent = r->headers_in.user_agent
                     ? ra_str(r->headers_in.user_agent->value.data,
                              r->headers_in.user_agent->value.len)
                     : ra_str("", 0);
    req.method = ra_str(r->method_name.data, r->method_name.len);
    req.uri = ra_str(r->unparsed_uri.data, r->unparsed_uri.len);
    req.status = (int) status;

    if (ra_audit_request(amcf->audit, &req, v) != RA_OK) {
        ngx_log_error(NGX_LOG_ERR, r->connection->log, 0,
                      "robots-audit: [RA322] out of memory, request counted "
                      "but not judged");
    }

    if (v->alert) {
        ngx_http_robots_audit_alert(r, alcf, &req, v);
    }

    ngx_http_robots_audit_evictions(r->connection->log, amcf);
}


static void
ngx_http_robots_audit_alert(ngx_http_request_t *r,
    ngx_http_robots_audit_loc_conf_t *alcf, ra_request_t *req,
    ra_verdict_t *v)
{
    ssize_t    n;
    ra_buf_t   b;
    ngx_log_t  log;

    ra_buf_init(&b, &ngx_http_robots_audit_heap, 1024,
                NGX_HTTP_ROBOTS_AUDIT_ALERT_MAX);

    ra_alert_text(&b, req, v);

    /*
     * without nginx's request context: it would repeat the client, the
     * server and the request line unescaped, while the alert says all of
     * it escaped
     */
    log = *r->connection->log;
    log.handler = NULL;
    log.action = NULL;

    if (!b.failed) {
        ngx_log_error(NGX_LOG_WARN, &log, 0, "%*s", b.len, b.data);
    }

    if (alcf->alert_log != NULL && alcf->alert_log->fd != NGX_INVALID_FILE) {
        b.len = 0;
        ra_alert_json(&b, req, v);

        if (!b.failed && !b.truncated) {
            n = ngx_write_fd(alcf->alert_log->fd, b.data, b.len);

            if (n == -1) {
                ngx_log_error(NGX_LOG_ALERT, &log, ngx_errno,
                              ngx_write_fd_n " to \"%s\" failed",
                              alcf->alert_log->name.data);
            }
        }
    }

    ra_buf_release(&b);
}


/* one line a minute at most, whichever worker sees the count move */
static void
ngx_http_robots_audit_evictions(ngx_log_t *log,
    ngx_http_robots_audit_main_conf_t *amcf)
{
    uint64_t                     sites, stats;
    ngx_atomic_uint_t            last, now, total;
    ngx_http_robots_audit_sh_t  *sh;

    sh = amcf->sh;
    sites = ra_ledger_read(&amcf->ledger.hdr->site_evictions);
    stats = ra_ledger_read(&amcf->ledger.hdr->stat_evictions);
    total = (ngx_atomic_uint_t) (sites + stats);

    if (total == sh->evict_seen) {
        return;
    }

    now = (ngx_atomic_uint_t) ngx_time();
    last = sh->evict_logged;

    if (last != 0 && now - last < NGX_HTTP_ROBOTS_AUDIT_EVICT_LOG) {
        return;
    }

    if (!ngx_atomic_cmp_set(&sh->evict_logged, last, now)) {
        return;
    }

    sh->evict_seen = total;

    ngx_log_error(NGX_LOG_WARN, log, 0,
                  "robots-audit: [RA321] robots_audit_zone \"%V\" is full: "
                  "%uL sites and %uL crawler records evicted so far; a "
                  "larger zone keeps more",
                  &amcf->shm_zone->shm.name, sites, stats);
}


/*
 * The site is the server block's: the Host header names it only when it
 * is one of the block's own names, so random Host values cannot create
 * sites (and evict real ones).
 */
static ngx_str_t
ngx_http_robots_audit_site(ngx_http_request_t *r)
{
    ngx_str_t                         *host, *name;
    ngx_uint_t                         i;
    ngx_http_core_srv_conf_t          *cscf;
    ngx_http_robots_audit_srv_conf_t  *ascf;

    host = &r->headers_in.server;

    if (host->len) {
        ascf = ngx_http_get_module_srv_conf(r, ngx_http_robots_audit_module);
        name = ascf->names.elts;

        for (i = 0; i < ascf->names.nelts; i++) {
            if (name[i].len == host->len
                && ngx_strncasecmp(name[i].data, host->data, host->len) == 0)
            {
                return name[i];
            }
        }
    }

    cscf = ngx_http_get_module_srv_conf(r, ngx_http_core_module);

    return ngx_http_robots_audit_server_site(cscf);
}


static ngx_str_t
ngx_http_robots_audit_server_site(ngx_http_core_srv_conf_t *cscf)
{
    if (cscf->server_name.len == 0) {
        return ngx_http_robots_audit_default_site;
    }

    return cscf->server_name;
}


/* the request target's path is "/robots.txt", whatever the query */
static ngx_uint_t
ngx_http_robots_audit_is_robots(ngx_str_t *uri)
{
    size_t  n;

    for (n = 0; n < uri->len && uri->data[n] != '?'; n++) {
        /* void */
    }

    return n == sizeof("/robots.txt") - 1
           && ngx_strncmp(uri->data, "/robots.txt", n) == 0;
}


static ngx_http_robots_audit_ctx_t *
ngx_http_robots_audit_get_ctx(ngx_http_request_t *r, ngx_uint_t create)
{
    ngx_pool_cleanup_t           *cln;
    ngx_http_robots_audit_ctx_t  *ctx;

    ctx = ngx_http_get_module_ctx(r, ngx_http_robots_audit_module);
    if (ctx != NULL) {
        return ctx;
    }

    if (r->internal || r->filter_finalize) {
        for (cln = r->pool->cleanup; cln; cln = cln->next) {
            if (cln->handler == ngx_http_robots_audit_ctx_cleanup) {
                ctx = cln->data;
                ngx_http_set_ctx(r, ctx, ngx_http_robots_audit_module);
                return ctx;
            }
        }
    }

    if (!create) {
        return NULL;
    }

    cln = ngx_pool_cleanup_add(r->pool, sizeof(ngx_http_robots_audit_ctx_t));
    if (cln == NULL) {
        return NULL;
    }

    ctx = cln->data;
    ngx_memzero(ctx, sizeof(ngx_http_robots_audit_ctx_t));

    cln->handler = ngx_http_robots_audit_ctx_cleanup;

    ngx_http_set_ctx(r, ctx, ngx_http_robots_audit_module);

    return ctx;
}


static void
ngx_http_robots_audit_ctx_cleanup(void *data)
{
    /* a marker only: the context lives in the request pool */
}


/* ---- robots.txt as served --------------------------------------------- */

static ngx_int_t
ngx_http_robots_audit_header_filter(ngx_http_request_t *r)
{
    ngx_uint_t                          status;
    ngx_http_robots_audit_ctx_t        *ctx;
    ngx_http_robots_audit_loc_conf_t   *alcf;
    ngx_http_robots_audit_main_conf_t  *amcf;

    if (r != r->main || r->method != NGX_HTTP_GET
        || !ngx_http_robots_audit_is_robots(&r->unparsed_uri))
    {
        return ngx_http_next_header_filter(r);
    }

    amcf = ngx_http_get_module_main_conf(r, ngx_http_robots_audit_module);
    alcf = ngx_http_get_module_loc_conf(r, ngx_http_robots_audit_module);

    if (amcf->audit == NULL || alcf->enable != 1) {
        return ngx_http_next_header_filter(r);
    }

    /* not the file: a conditional or partial answer */
    status = r->headers_out.status;
    if (status == NGX_HTTP_NOT_MODIFIED || status == NGX_HTTP_PARTIAL_CONTENT
        || r->headers_in.range != NULL)
    {
        return ngx_http_next_header_filter(r);
    }

    ctx = ngx_http_robots_audit_get_ctx(r, 1);
    if (ctx == NULL) {
        return ngx_http_next_header_filter(r);
    }

    ctx->capture = 1;
    ctx->status = status;
    ctx->content_type = r->headers_out.content_type;
    ctx->len = 0;
    ctx->size = 0;

    if (r->header_only || status == NGX_HTTP_NO_CONTENT || status < 200) {
        ngx_http_robots_audit_record(r, ctx);
    }

    return ngx_http_next_header_filter(r);
}


static ngx_int_t
ngx_http_robots_audit_body_filter(ngx_http_request_t *r, ngx_chain_t *in)
{
    ngx_chain_t                  *cl;
    ngx_http_robots_audit_ctx_t  *ctx;

    if (r != r->main) {
        return ngx_http_next_body_filter(r, in);
    }

    ctx = ngx_http_get_module_ctx(r, ngx_http_robots_audit_module);
    if (ctx == NULL || !ctx->capture) {
        return ngx_http_next_body_filter(r, in);
    }

    for (cl = in; cl; cl = cl->next) {

        if (ngx_http_robots_audit_capture(r, ctx, cl->buf) != NGX_OK) {
            ctx->capture = 0;
            break;
        }

        if (cl->buf->last_buf) {
            ngx_http_robots_audit_record(r, ctx);
            break;
        }
    }

    return ngx_http_next_body_filter(r, in);
}


/* keeps the first RA_ROBOTS_MAX bytes of b, counts all of them */
static ngx_int_t
ngx_http_robots_audit_capture(ngx_http_request_t *r,
    ngx_http_robots_audit_ctx_t *ctx, ngx_buf_t *b)
{
    off_t    n;
    size_t   want, cap;
    u_char  *p;
    ssize_t  got;

    if (ngx_buf_special(b)) {
        return NGX_OK;
    }

    n = ngx_buf_size(b);
    if (n <= 0) {
        return NGX_OK;
    }

    ctx->size += n;

    if (ctx->len >= RA_ROBOTS_MAX) {
        return NGX_OK;
    }

    want = (size_t) ngx_min(n, (off_t) (RA_ROBOTS_MAX - ctx->len));

    if (ctx->len + want > ctx->cap) {
        cap = ctx->cap ? ctx->cap * 2 : 8192;

        if (r->headers_out.content_length_n > 0
            && r->headers_out.content_length_n <= RA_ROBOTS_MAX)
        {
            cap = ngx_max(cap, (size_t) r->headers_out.content_length_n);
        }

        cap = ngx_max(cap, ctx->len + want);
        cap = ngx_min(cap, RA_ROBOTS_MAX);

        p = ngx_pnalloc(r->pool, cap);
        if (p == NULL) {
            return NGX_ERROR;
        }

        if (ctx->len) {
            ngx_memcpy(p, ctx->body, ctx->len);
        }

        if (ctx->body) {
            ngx_pfree(r->pool, ctx->body);
        }

        ctx->body = p;
        ctx->cap = cap;
    }

    if (ngx_buf_in_memory(b)) {
        ngx_memcpy(ctx->body + ctx->len, b->pos, want);
        ctx->len += want;
        return NGX_OK;
    }

    /* sendfile: the bytes are still in the file */
    got = ngx_read_file(b->file, ctx->body + ctx->len, want, b->file_pos);
    if (got != (ssize_t) want) {
        ngx_log_error(NGX_LOG_ERR, r->connection->log, 0,
                      "robots-audit: [RA323] cannot read \"%V\" to capture "
                      "it",
                      &b->file->name);
        return NGX_ERROR;
    }

    ctx->len += want;

    return NGX_OK;
}


static void
ngx_http_robots_audit_record(ngx_http_request_t *r,
    ngx_http_robots_audit_ctx_t *ctx)
{
    u_char                             *p;
    ngx_str_t                           site, *cs;
    ngx_time_t                         *tp;
    ra_answer_t                         ans;
    ngx_http_robots_audit_main_conf_t  *amcf;

    ctx->capture = 0;

    amcf = ngx_http_get_module_main_conf(r, ngx_http_robots_audit_module);

    /*
     * the Content-Type as sent: the charset filter runs after our header
     * filter; by the last buffer the HTTP/1 header filter has appended the
     * charset to content_type "for logging", others may not have
     */
    ctx->content_type = r->headers_out.content_type;
    cs = &r->headers_out.charset;

    if (cs->len && r->headers_out.content_type.len
        && r->headers_out.content_type_len
           == r->headers_out.content_type.len)
    {
        p = ngx_pnalloc(r->pool, r->headers_out.content_type.len
                                 + sizeof("; charset=") - 1 + cs->len);
        if (p != NULL) {
            ctx->content_type.data = p;
            p = ngx_cpymem(p, r->headers_out.content_type.data,
                           r->headers_out.content_type.len);
            p = ngx_cpymem(p, "; charset=", sizeof("; charset=") - 1);
            p = ngx_cpymem(p, cs->data, cs->len);
            ctx->content_type.len = p - ctx->content_type.data;
        }
    }

    ngx_memzero(&ans, sizeof(ra_answer_t));

    ans.status = (int) ctx->status;
    ans.content_type = ra_str(ctx->content_type.data,
                              ctx->content_type.len);
    ans.body = ra_str(ctx->body, ctx->len);
    ans.size = (size_t) ctx->size;
    ans.truncated = (off_t) ctx->len < ctx->size;

    if (ctx->content_type.len == 0) {
        /* header absent, which is not "unknown" */
        ans.content_type.data = (const unsigned char *) "";
    }

    site = ngx_http_robots_audit_site(r);
    tp = ngx_timeofday();

    if (ra_audit_robots(amcf->audit, ra_str(site.data, site.len), &ans,
                        (int64_t) tp->sec * 1000 + (int64_t) tp->msec)
        != RA_OK)
    {
        ngx_log_error(NGX_LOG_ERR, r->connection->log, 0,
                      "robots-audit: [RA322] out of memory recording "
                      "robots.txt");
    }
}


/* ---- status page ------------------------------------------------------ */

static ngx_int_t
ngx_http_robots_audit_status_handler(ngx_http_request_t *r)
{
    ngx_int_t                           rc;
    ngx_buf_t                          *b;
    ngx_str_t                           arg;
    ngx_time_t                         *tp;
    ngx_chain_t                         out;
    const char                         *type;
    ra_buf_t                            page;
    ngx_pool_cleanup_t                 *cln;
    ra_snapshot_t                       snap;
    ra_report_opts_t                    opts;
    ra_report_format_e                  fmt;
    ngx_http_robots_audit_main_conf_t  *amcf;

    if (!(r->method & (NGX_HTTP_GET|NGX_HTTP_HEAD))) {
        return NGX_HTTP_NOT_ALLOWED;
    }

    rc = ngx_http_discard_request_body(r);
    if (rc != NGX_OK) {
        return rc;
    }

    amcf = ngx_http_get_module_main_conf(r, ngx_http_robots_audit_module);
    if (amcf->sh == NULL) {
        return NGX_HTTP_SERVICE_UNAVAILABLE;
    }

    fmt = RA_REPORT_HTML;

    if (ngx_http_arg(r, (u_char *) "format", 6, &arg) == NGX_OK
        && ra_report_format_by_name(ra_str(arg.data, arg.len), &fmt)
           != RA_OK)
    {
        return NGX_HTTP_BAD_REQUEST;
    }

    cln = ngx_pool_cleanup_add(r->pool, 0);
    if (cln == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    if (ra_ledger_snapshot(&amcf->ledger, &ngx_http_robots_audit_heap,
                           fmt == RA_REPORT_HTML, &snap)
        != RA_OK)
    {
        ra_snapshot_free(&snap, &ngx_http_robots_audit_heap);
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    tp = ngx_timeofday();

    ngx_memzero(&opts, sizeof(ra_report_opts_t));
    opts.now = (int64_t) tp->sec * 1000 + (int64_t) tp->msec;
    opts.relint = (fmt == RA_REPORT_HTML);
    opts.scratch = &ngx_http_robots_audit_heap;

    ra_buf_init(&page, &ngx_http_robots_audit_heap, 64 * 1024,
                NGX_HTTP_ROBOTS_AUDIT_PAGE_MAX);

    rc = ra_report_render(&snap, fmt, &opts, &page);

    ra_snapshot_free(&snap, &ngx_http_robots_audit_heap);

    cln->handler = ngx_http_robots_audit_page_cleanup;
    cln->data = page.data;

    if (rc != RA_OK || page.failed) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    type = ra_report_content_type(fmt);

    r->headers_out.status = NGX_HTTP_OK;
    r->headers_out.content_type.len = ngx_strlen(type);
    r->headers_out.content_type.data = (u_char *) type;
    r->headers_out.content_type_len = r->headers_out.content_type.len;
    r->headers_out.content_length_n = page.len;

    rc = ngx_http_send_header(r);

    if (rc == NGX_ERROR || rc > NGX_OK || r->header_only) {
        return rc;
    }

    b = ngx_calloc_buf(r->pool);
    if (b == NULL) {
        return NGX_HTTP_INTERNAL_SERVER_ERROR;
    }

    b->pos = page.data;
    b->last = page.data + page.len;
    b->memory = page.len ? 1 : 0;
    b->last_buf = (r == r->main) ? 1 : 0;
    b->last_in_chain = 1;

    out.buf = b;
    out.next = NULL;

    return ngx_http_output_filter(r, &out);
}


static void
ngx_http_robots_audit_page_cleanup(void *data)
{
    if (data != NULL) {
        ngx_free(data);
    }
}


/* ---- shared zone ------------------------------------------------------ */

static ngx_int_t
ngx_http_robots_audit_init_zone(ngx_shm_zone_t *shm_zone, void *data)
{
    ngx_http_robots_audit_main_conf_t  *oamcf = data;

    size_t                              size;
    u_char                             *p;
    ngx_uint_t                          i;
    ngx_time_t                         *tp;
    ra_lock_t                           lock;
    const char                         *why;
    ngx_shm_zone_t                     *oz;
    ngx_list_part_t                    *part;
    ngx_slab_pool_t                    *shpool;
    ngx_http_robots_audit_sh_t         *sh;
    ngx_http_robots_audit_main_conf_t  *amcf;

    amcf = shm_zone->data;
    shpool = (ngx_slab_pool_t *) shm_zone->shm.addr;

    lock.lock = ngx_http_robots_audit_lock;
    lock.unlock = ngx_http_robots_audit_unlock;
    lock.ctx = shpool;

    if (oamcf != NULL) {
        /* a reload: the same zone, still holding the old cycle's ledger */

        sh = oamcf->sh;

        if (sh == NULL || sh->magic != NGX_HTTP_ROBOTS_AUDIT_MAGIC) {
            why = "the zone holds no robots-audit ledger";
            goto refuse;
        }

        if (ra_ledger_check(sh->ledger, sh->size, &why) != RA_OK) {
            goto refuse;
        }

        amcf->sh = sh;
        amcf->shpool = shpool;
        ra_ledger_open(&amcf->ledger, sh->ledger, &lock);

        return NGX_OK;
    }

    /* a resized zone is a new zone: say that its counters start over */

    part = (ngx_list_part_t *) &ngx_cycle->shared_memory.part;
    oz = part->elts;

    for (i = 0; /* void */ ; i++) {

        if (i >= part->nelts) {
            if (part->next == NULL) {
                break;
            }
            part = part->next;
            oz = part->elts;
            i = 0;
        }

        if (oz[i].tag == shm_zone->tag
            && oz[i].shm.name.len == shm_zone->shm.name.len
            && ngx_strncmp(oz[i].shm.name.data, shm_zone->shm.name.data,
                           shm_zone->shm.name.len) == 0
            && oz[i].shm.size != shm_zone->shm.size)
        {
            ngx_log_error(NGX_LOG_WARN, shm_zone->shm.log, 0,
                          "robots-audit: [RA304] robots_audit_zone \"%V\" "
                          "changed size from %uz to %uz: its counters "
                          "start over",
                          &shm_zone->shm.name, oz[i].shm.size,
                          shm_zone->shm.size);
        }
    }

    size = shpool->pfree << ngx_pagesize_shift;

    if (size < NGX_HTTP_ROBOTS_AUDIT_SH_SIZE + RA_LEDGER_MIN_SIZE) {
        ngx_log_error(NGX_LOG_EMERG, shm_zone->shm.log, 0,
                      "robots_audit_zone \"%V\" is too small: %uz bytes "
                      "are left for the ledger, which needs at least %uz",
                      &shm_zone->shm.name, size,
                      (size_t) (NGX_HTTP_ROBOTS_AUDIT_SH_SIZE
                                + RA_LEDGER_MIN_SIZE));
        return NGX_ERROR;
    }

    p = ngx_slab_alloc(shpool, size);
    if (p == NULL) {
        ngx_log_error(NGX_LOG_EMERG, shm_zone->shm.log, 0,
                      "robots_audit_zone \"%V\": cannot allocate %uz bytes",
                      &shm_zone->shm.name, size);
        return NGX_ERROR;
    }

    sh = (ngx_http_robots_audit_sh_t *) p;
    ngx_memzero(sh, NGX_HTTP_ROBOTS_AUDIT_SH_SIZE);

    sh->ledger = p + NGX_HTTP_ROBOTS_AUDIT_SH_SIZE;
    sh->size = size - NGX_HTTP_ROBOTS_AUDIT_SH_SIZE;

    tp = ngx_timeofday();

    if (ra_ledger_format(sh->ledger, sh->size,
                         (int64_t) tp->sec * 1000 + (int64_t) tp->msec)
        != RA_OK)
    {
        ngx_log_error(NGX_LOG_EMERG, shm_zone->shm.log, 0,
                      "robots_audit_zone \"%V\" is too small for a ledger "
                      "of %uz bytes", &shm_zone->shm.name, sh->size);
        return NGX_ERROR;
    }

    sh->magic = NGX_HTTP_ROBOTS_AUDIT_MAGIC;

    shpool->data = sh;
    shpool->log_nomem = 0;

    amcf->sh = sh;
    amcf->shpool = shpool;
    ra_ledger_open(&amcf->ledger, sh->ledger, &lock);

    return NGX_OK;

refuse:

    ngx_log_error(NGX_LOG_EMERG, shm_zone->shm.log, 0,
                  "robots-audit: [RA320] robots_audit_zone \"%V\" cannot "
                  "be reused: %s; stop and "
                  "start nginx (or rename the zone) to begin a new ledger",
                  &shm_zone->shm.name, why);

    return NGX_ERROR;
}


/* ---- configuration ---------------------------------------------------- */

/*
 * Reads up to max bytes of a file into memory from ngx_alloc(); *size
 * gets the file's whole size.  The caller frees out->data.
 */
static ngx_int_t
ngx_http_robots_audit_read_file(ngx_conf_t *cf, ngx_str_t *name, size_t max,
    ngx_str_t *out, size_t *size)
{
    size_t           len;
    ssize_t          n;
    ngx_fd_t         fd;
    ngx_int_t        rc;
    ngx_file_info_t  fi;

    rc = NGX_ERROR;
    out->data = NULL;
    out->len = 0;

    fd = ngx_open_file(name->data, NGX_FILE_RDONLY, NGX_FILE_OPEN, 0);
    if (fd == NGX_INVALID_FILE) {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, ngx_errno,
                           ngx_open_file_n " \"%s\" failed", name->data);
        return NGX_ERROR;
    }

    if (ngx_fd_info(fd, &fi) == NGX_FILE_ERROR) {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, ngx_errno,
                           ngx_fd_info_n " \"%s\" failed", name->data);
        goto done;
    }

    if (!ngx_is_file(&fi)) {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                           "\"%s\" is not a regular file", name->data);
        goto done;
    }

    *size = (size_t) ngx_file_size(&fi);
    len = ngx_min(*size, max);

    out->data = ngx_alloc(len + 1, cf->log);
    if (out->data == NULL) {
        goto done;
    }

    while (out->len < len) {
        n = ngx_read_fd(fd, out->data + out->len, len - out->len);

        if (n == -1) {
            ngx_conf_log_error(NGX_LOG_EMERG, cf, ngx_errno,
                               ngx_read_fd_n " \"%s\" failed", name->data);
            goto done;
        }

        if (n == 0) {
            break;              /* it shrank meanwhile */
        }

        out->len += n;
    }

    rc = NGX_OK;

done:

    if (rc != NGX_OK && out->data != NULL) {
        ngx_free(out->data);
        out->data = NULL;
    }

    if (ngx_close_file(fd) == NGX_FILE_ERROR) {
        ngx_conf_log_error(NGX_LOG_ALERT, cf, ngx_errno,
                           ngx_close_file_n " \"%s\" failed", name->data);
    }

    return rc;
}


static ngx_int_t
ngx_http_robots_audit_crawlers_create(ngx_conf_t *cf,
    ngx_http_robots_audit_main_conf_t *amcf)
{
    ra_alloc_t         *a;
    ra_crawlers_err_t   err;

    if (amcf->crawlers != NULL) {
        return NGX_OK;
    }

    a = ngx_palloc(cf->pool, sizeof(ra_alloc_t));
    if (a == NULL) {
        return NGX_ERROR;
    }

    a->alloc = ngx_http_robots_audit_pool_alloc;
    a->free = NULL;
    a->ctx = cf->pool;

    amcf->crawlers = ra_crawlers_create(a);
    if (amcf->crawlers == NULL) {
        return NGX_ERROR;
    }

    ngx_memzero(&err, sizeof(ra_crawlers_err_t));

    if (ra_crawlers_add_builtin(amcf->crawlers, &err) != RA_OK) {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                           "robots audit: the built-in crawler table does "
                           "not load: line %uz: %s",
                           err.line, err.msg ? err.msg : "out of memory");
        return NGX_ERROR;
    }

    return NGX_OK;
}


/* prints what crawlers make of a configured robots.txt */
static void
ngx_http_robots_audit_lint(ngx_conf_t *cf, ngx_str_t *name, ngx_str_t *body,
    size_t size)
{
    ra_buf_t            b;
    ngx_uint_t          i, level;
    ra_lint_t           lint;
    ra_lint_http_t      http;
    ra_lint_finding_t  *f;

    ngx_memzero(&http, sizeof(ra_lint_http_t));
    http.size = size;

    /* a finding quotes little of the file: lines stay well under 1 KiB */
    ra_buf_init(&b, &ngx_http_robots_audit_heap, 512, 1024);

    if (ra_lint(ra_str(body->data, body->len), &http,
                &ngx_http_robots_audit_heap, &lint)
        != RA_OK)
    {
        ngx_conf_log_error(NGX_LOG_WARN, cf, 0,
                           "robots_audit_robots_file \"%V\": lint ran out "
                           "of memory", name);
    }

    for (i = 0; i < lint.nfindings; i++) {
        f = &lint.findings[i];

        level = (f->severity == RA_SEV_INFO) ? NGX_LOG_NOTICE : NGX_LOG_WARN;

        b.len = 0;
        ra_lint_format_finding(&b, ra_str(name->data, name->len), f);
        if (!b.failed) {
            ngx_conf_log_error(level, cf, 0, "robots-audit: [RA200] %*s",
                               b.len, b.data);
        }
    }

    ra_buf_release(&b);

    if (lint.summary.suppressed) {
        ngx_conf_log_error(NGX_LOG_NOTICE, cf, 0,
                           "robots-audit: [RA200] %V: %uD more findings "
                           "not shown", name, lint.summary.suppressed);
    }

    ra_lint_free(&lint, &ngx_http_robots_audit_heap);
}


static char *
ngx_http_robots_audit_zone(ngx_conf_t *cf, ngx_command_t *cmd, void *conf)
{
    ngx_http_robots_audit_main_conf_t  *amcf = conf;

    ssize_t           size;
    ngx_str_t        *value;
    ngx_shm_zone_t   *shm_zone;

    if (amcf->shm_zone != NULL) {
        return "is duplicate";
    }

    value = cf->args->elts;

    if (value[1].len == 0) {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                           "robots_audit_zone needs a name");
        return NGX_CONF_ERROR;
    }

    size = ngx_parse_size(&value[2]);

    if (size == NGX_ERROR) {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                           "invalid robots_audit_zone size \"%V\"",
                           &value[2]);
        return NGX_CONF_ERROR;
    }

    if (size < (ssize_t) NGX_HTTP_ROBOTS_AUDIT_MIN_ZONE
        || (uint64_t) size > (uint64_t) UINT32_MAX)
    {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                           "robots_audit_zone \"%V\" size \"%V\" is out of "
                           "range: the minimum is %uzk, the maximum 4095m",
                           &value[1], &value[2],
                           (size_t) NGX_HTTP_ROBOTS_AUDIT_MIN_ZONE / 1024);
        return NGX_CONF_ERROR;
    }

    shm_zone = ngx_shared_memory_add(cf, &value[1], size,
                                     &ngx_http_robots_audit_module);
    if (shm_zone == NULL) {
        return NGX_CONF_ERROR;
    }

    if (shm_zone->data) {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                           "robots_audit_zone \"%V\" is already declared",
                           &value[1]);
        return NGX_CONF_ERROR;
    }

    shm_zone->init = ngx_http_robots_audit_init_zone;
    shm_zone->data = amcf;

    amcf->shm_zone = shm_zone;

    return NGX_CONF_OK;
}


static char *
ngx_http_robots_audit_status(ngx_conf_t *cf, ngx_command_t *cmd, void *conf)
{
    ngx_http_robots_audit_loc_conf_t  *alcf = conf;

    ngx_http_core_loc_conf_t  *clcf;

    clcf = ngx_http_conf_get_module_loc_conf(cf, ngx_http_core_module);
    clcf->handler = ngx_http_robots_audit_status_handler;

    alcf->status = 1;

    return NGX_CONF_OK;
}


static char *
ngx_http_robots_audit_robots_file(ngx_conf_t *cf, ngx_command_t *cmd,
    void *conf)
{
    ngx_http_robots_audit_srv_conf_t  *ascf = conf;

    size_t      size;
    ngx_str_t  *value, text;

    if (ascf->robots_file.data != NULL) {
        return "is duplicate";
    }

    value = cf->args->elts;
    ascf->robots_file = value[1];

    if (ngx_conf_full_name(cf->cycle, &ascf->robots_file, 1) != NGX_OK) {
        return NGX_CONF_ERROR;
    }

    if (ngx_http_robots_audit_read_file(cf, &ascf->robots_file,
                                        RA_ROBOTS_MAX, &text, &size)
        != NGX_OK)
    {
        return NGX_CONF_ERROR;
    }

    ascf->robots_size = size;
    ascf->robots_body.len = text.len;
    ascf->robots_body.data = ngx_pnalloc(cf->pool, text.len + 1);

    if (ascf->robots_body.data == NULL) {
        ngx_free(text.data);
        return NGX_CONF_ERROR;
    }

    ngx_memcpy(ascf->robots_body.data, text.data, text.len);
    ngx_free(text.data);

    ngx_http_robots_audit_lint(cf, &ascf->robots_file, &ascf->robots_body,
                               size);

    return NGX_CONF_OK;
}


static char *
ngx_http_robots_audit_crawlers(ngx_conf_t *cf, ngx_command_t *cmd,
    void *conf)
{
    ngx_http_robots_audit_main_conf_t  *amcf = conf;

    int                 rc;
    size_t              size;
    ngx_str_t          *value, name, text;
    ra_crawlers_err_t   err;

    value = cf->args->elts;
    name = value[1];

    if (ngx_conf_full_name(cf->cycle, &name, 1) != NGX_OK) {
        return NGX_CONF_ERROR;
    }

    if (ngx_http_robots_audit_crawlers_create(cf, amcf) != NGX_OK) {
        return NGX_CONF_ERROR;
    }

    if (ngx_http_robots_audit_read_file(cf, &name, RA_CRAWLERS_MAX_FILE,
                                        &text, &size)
        != NGX_OK)
    {
        return NGX_CONF_ERROR;
    }

    if (size > RA_CRAWLERS_MAX_FILE) {
        ngx_free(text.data);
        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                           "crawler file \"%V\" is larger than %uz bytes",
                           &name, (size_t) RA_CRAWLERS_MAX_FILE);
        return NGX_CONF_ERROR;
    }

    ngx_memzero(&err, sizeof(ra_crawlers_err_t));

    rc = ra_crawlers_add(amcf->crawlers, ra_str(text.data, text.len), &err);

    ngx_free(text.data);

    if (rc != RA_OK) {
        if (err.line) {
            ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                               "crawler file \"%V\", line %uz: %s", &name,
                               err.line, err.msg ? err.msg : "invalid");
        } else {
            ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                               "crawler file \"%V\": %s", &name,
                               err.msg ? err.msg
                               : rc == RA_ENOMEM ? "out of memory"
                                                 : "invalid");
        }

        return NGX_CONF_ERROR;
    }

    return NGX_CONF_OK;
}


static char *
ngx_http_robots_audit_ip_ranges(ngx_conf_t *cf, ngx_command_t *cmd,
    void *conf)
{
    ngx_http_robots_audit_main_conf_t  *amcf = conf;

    int             rc;
    size_t          size;
    u_char         *p;
    ra_alloc_t     *a;
    ngx_str_t      *value, name, base, text;
    ngx_uint_t      i;
    ra_json_err_t   err;

    value = cf->args->elts;

    if (amcf->ranges == NULL) {
        a = ngx_palloc(cf->pool, sizeof(ra_alloc_t));
        if (a == NULL) {
            return NGX_CONF_ERROR;
        }

        a->alloc = ngx_http_robots_audit_pool_alloc;
        a->free = NULL;
        a->ctx = cf->pool;

        amcf->ranges = ra_ranges_create(a);
        if (amcf->ranges == NULL) {
            return NGX_CONF_ERROR;
        }
    }

    for (i = 1; i < cf->args->nelts; i++) {
        name = value[i];

        if (ngx_conf_full_name(cf->cycle, &name, 1) != NGX_OK) {
            return NGX_CONF_ERROR;
        }

        if (ngx_http_robots_audit_read_file(cf, &name, RA_RANGES_MAX_FILE,
                                            &text, &size)
            != NGX_OK)
        {
            return NGX_CONF_ERROR;
        }

        if (size > RA_RANGES_MAX_FILE) {
            ngx_free(text.data);
            ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                               "ranges file \"%V\" is larger than %uz bytes",
                               &name, (size_t) RA_RANGES_MAX_FILE);
            return NGX_CONF_ERROR;
        }

        /* the list is named after the file, as the crawler table says */
        p = name.data + name.len;
        while (p > name.data && p[-1] != '/') {
            p--;
        }

        base.data = p;
        base.len = name.data + name.len - p;

        ngx_memzero(&err, sizeof(ra_json_err_t));

        rc = ra_ranges_add_json(amcf->ranges, ra_str(base.data, base.len),
                                ra_str(text.data, text.len), &err);

        ngx_free(text.data);

        if (rc != RA_OK) {
            ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                               "ranges file \"%V\", byte %uz: %s", &name,
                               err.offset,
                               err.msg ? err.msg
                               : rc == RA_ENOMEM ? "out of memory"
                               : rc == RA_ELIMIT ? "too many lists or "
                                                   "prefixes"
                                                 : "invalid");
            return NGX_CONF_ERROR;
        }
    }

    return NGX_CONF_OK;
}


static char *
ngx_http_robots_audit_alert_log(ngx_conf_t *cf, ngx_command_t *cmd,
    void *conf)
{
    ngx_http_robots_audit_loc_conf_t  *alcf = conf;

    ngx_str_t  *value;

    if (alcf->alert_log != NGX_CONF_UNSET_PTR) {
        return "is duplicate";
    }

    value = cf->args->elts;

    if (ngx_strcmp(value[1].data, "off") == 0) {
        alcf->alert_log = NULL;
        return NGX_CONF_OK;
    }

    /* opened and reopened (SIGUSR1) as nginx does access logs */
    alcf->alert_log = ngx_conf_open_file(cf->cycle, &value[1]);
    if (alcf->alert_log == NULL) {
        return NGX_CONF_ERROR;
    }

    return NGX_CONF_OK;
}


static void *
ngx_http_robots_audit_create_main_conf(ngx_conf_t *cf)
{
    ngx_http_robots_audit_main_conf_t  *amcf;

    amcf = ngx_pcalloc(cf->pool, sizeof(ngx_http_robots_audit_main_conf_t));
    if (amcf == NULL) {
        return NULL;
    }

    /*
     * set by ngx_pcalloc():
     *
     *     amcf->shm_zone = NULL;
     *     amcf->sh = NULL;
     *     amcf->crawlers = NULL;
     *     amcf->ranges = NULL;
     *     amcf->audit = NULL;
     */

    amcf->alert_interval = NGX_CONF_UNSET_MSEC;

    return amcf;
}


static char *
ngx_http_robots_audit_init_main_conf(ngx_conf_t *cf, void *conf)
{
    ngx_http_robots_audit_main_conf_t  *amcf = conf;

    ra_crawlers_err_t  err;

    ngx_conf_init_msec_value(amcf->alert_interval, 60000);

    if (amcf->alert_interval == 0) {
        amcf->alert_interval = 1;       /* every violation alerts */
    }

    if (amcf->shm_zone == NULL) {
        return NGX_CONF_OK;
    }

    if (ngx_http_robots_audit_crawlers_create(cf, amcf) != NGX_OK) {
        return NGX_CONF_ERROR;
    }

    ngx_memzero(&err, sizeof(ra_crawlers_err_t));

    if (ra_crawlers_compile(amcf->crawlers, &err) != RA_OK) {
        ngx_log_error(NGX_LOG_EMERG, cf->log, 0,
                      "robots audit: the crawler tables do not compile: %s",
                      err.msg ? err.msg : "out of memory");
        return NGX_CONF_ERROR;
    }

    return NGX_CONF_OK;
}


static void *
ngx_http_robots_audit_create_srv_conf(ngx_conf_t *cf)
{
    ngx_http_robots_audit_srv_conf_t  *ascf;

    ascf = ngx_pcalloc(cf->pool, sizeof(ngx_http_robots_audit_srv_conf_t));
    if (ascf == NULL) {
        return NULL;
    }

    /*
     * set by ngx_pcalloc():
     *
     *     ascf->robots_file = { 0, NULL };
     *     ascf->robots_body = { 0, NULL };
     *     ascf->robots_size = 0;
     */

    return ascf;
}


static char *
ngx_http_robots_audit_merge_srv_conf(ngx_conf_t *cf, void *parent,
    void *child)
{
    ngx_http_robots_audit_srv_conf_t  *conf = child;

    u_char                    *c;
    ngx_str_t                 *name;
    ngx_uint_t                 i, n;
    ngx_http_server_name_t    *sn;
    ngx_http_core_srv_conf_t  *cscf;

    cscf = ngx_http_conf_get_module_srv_conf(cf, ngx_http_core_module);

    n = cscf->server_names.nelts;

    if (ngx_array_init(&conf->names, cf->pool, n ? n : 1, sizeof(ngx_str_t))
        != NGX_OK)
    {
        return NGX_CONF_ERROR;
    }

    sn = cscf->server_names.elts;

    for (i = 0; i < n; i++) {

#if (NGX_PCRE)
        if (sn[i].regex) {
            continue;
        }
#endif

        /* wildcards name no single host: such hosts count on the first */
        if (sn[i].name.len == 0
            || sn[i].name.data[0] == '*' || sn[i].name.data[0] == '.'
            || sn[i].name.data[sn[i].name.len - 1] == '*')
        {
            continue;
        }

        c = ngx_pnalloc(cf->pool, sn[i].name.len);
        if (c == NULL) {
            return NGX_CONF_ERROR;
        }

        name = ngx_array_push(&conf->names);
        if (name == NULL) {
            return NGX_CONF_ERROR;
        }

        ngx_strlow(c, sn[i].name.data, sn[i].name.len);

        name->len = sn[i].name.len;
        name->data = c;
    }

    return NGX_CONF_OK;
}


static void *
ngx_http_robots_audit_create_loc_conf(ngx_conf_t *cf)
{
    ngx_http_robots_audit_loc_conf_t  *alcf;

    alcf = ngx_palloc(cf->pool, sizeof(ngx_http_robots_audit_loc_conf_t));
    if (alcf == NULL) {
        return NULL;
    }

    alcf->enable = NGX_CONF_UNSET;
    alcf->enforce = NGX_CONF_UNSET;
    alcf->alert_log = NGX_CONF_UNSET_PTR;
    alcf->status = 0;

    return alcf;
}


static char *
ngx_http_robots_audit_merge_loc_conf(ngx_conf_t *cf, void *parent,
    void *child)
{
    ngx_http_robots_audit_loc_conf_t  *prev = parent;
    ngx_http_robots_audit_loc_conf_t  *conf = child;

    ngx_http_robots_audit_main_conf_t  *amcf;

    ngx_conf_merge_value(conf->enable, prev->enable, 0);
    ngx_conf_merge_value(conf->enforce, prev->enforce, 0);
    ngx_conf_merge_ptr_value(conf->alert_log, prev->alert_log, NULL);

    amcf = ngx_http_conf_get_module_main_conf(cf,
                                              ngx_http_robots_audit_module);

    if (amcf->shm_zone == NULL && (conf->enable == 1 || conf->status))
    {
        ngx_log_error(NGX_LOG_EMERG, cf->log, 0,
                      "\"robots_audit on\" and \"robots_audit_status\" "
                      "need a zone: add \"robots_audit_zone NAME SIZE;\" "
                      "to the http block");
        return NGX_CONF_ERROR;
    }

    return NGX_CONF_OK;
}


static ngx_int_t
ngx_http_robots_audit_postconf(ngx_conf_t *cf)
{
    ngx_http_handler_pt                *h;
    ngx_http_core_main_conf_t          *cmcf;
    ngx_http_robots_audit_main_conf_t  *amcf;

    amcf = ngx_http_conf_get_module_main_conf(cf,
                                              ngx_http_robots_audit_module);

    /* loaded but not configured: cost nothing */
    if (amcf->shm_zone == NULL) {
        return NGX_OK;
    }

    cmcf = ngx_http_conf_get_module_main_conf(cf, ngx_http_core_module);

    h = ngx_array_push(&cmcf->phases[NGX_HTTP_LOG_PHASE].handlers);
    if (h == NULL) {
        return NGX_ERROR;
    }

    *h = ngx_http_robots_audit_log_handler;

    h = ngx_array_push(&cmcf->phases[NGX_HTTP_PREACCESS_PHASE].handlers);
    if (h == NULL) {
        return NGX_ERROR;
    }

    *h = ngx_http_robots_audit_preaccess_handler;

    ngx_http_next_header_filter = ngx_http_top_header_filter;
    ngx_http_top_header_filter = ngx_http_robots_audit_header_filter;

    ngx_http_next_body_filter = ngx_http_top_body_filter;
    ngx_http_top_body_filter = ngx_http_robots_audit_body_filter;

    return NGX_OK;
}


/*
 * In the master, once the zone exists: each server's robots_audit_robots_file
 * becomes its site's first version, unless one was captured already (a
 * reload never replaces what the server was seen to serve).
 */
static ngx_int_t
ngx_http_robots_audit_init_module(ngx_cycle_t *cycle)
{
    ngx_str_t                           site;
    ngx_uint_t                          s;
    ngx_time_t                         *tp;
    ra_audit_t                         *au;
    ra_answer_t                         ans;
    ra_audit_conf_t                     conf;
    ngx_http_conf_ctx_t                *ctx;
    ngx_http_core_srv_conf_t          **cscfp;
    ngx_http_core_main_conf_t          *cmcf;
    ngx_http_robots_audit_srv_conf_t   *ascf;
    ngx_http_robots_audit_main_conf_t  *amcf;

    if (ngx_get_conf(cycle->conf_ctx, ngx_http_module) == NULL) {
        return NGX_OK;
    }

    amcf = ngx_http_cycle_get_module_main_conf(cycle,
                                               ngx_http_robots_audit_module);
    if (amcf == NULL || amcf->sh == NULL) {
        return NGX_OK;
    }

    cmcf = ngx_http_cycle_get_module_main_conf(cycle, ngx_http_core_module);
    cscfp = cmcf->servers.elts;

    ngx_memzero(&conf, sizeof(ra_audit_conf_t));
    conf.alloc = &ngx_http_robots_audit_heap;
    conf.crawlers = amcf->crawlers;
    conf.ranges = amcf->ranges;
    conf.alert_interval = (int64_t) amcf->alert_interval;

    au = NULL;

    for (s = 0; s < cmcf->servers.nelts; s++) {
        ctx = cscfp[s]->ctx;
        ascf = ctx->srv_conf[ngx_http_robots_audit_module.ctx_index];

        if (ascf->robots_file.data == NULL) {
            continue;
        }

        if (au == NULL) {
            au = ra_audit_create(&conf, &amcf->ledger);
            if (au == NULL) {
                return NGX_ERROR;
            }
        }

        ngx_memzero(&ans, sizeof(ra_answer_t));
        ans.status = NGX_HTTP_OK;
        ans.body = ra_str(ascf->robots_body.data, ascf->robots_body.len);
        ans.size = ascf->robots_size;
        ans.truncated = ascf->robots_size > ascf->robots_body.len;
        ans.initial = 1;

        site = ngx_http_robots_audit_server_site(cscfp[s]);
        tp = ngx_timeofday();

        if (ra_audit_robots(au, ra_str(site.data, site.len), &ans,
                            (int64_t) tp->sec * 1000 + (int64_t) tp->msec)
            != RA_OK)
        {
            ngx_log_error(NGX_LOG_WARN, cycle->log, 0,
                          "robots-audit: [RA322] out of memory recording "
                          "\"%V\"",
                          &ascf->robots_file);
        }
    }

    ra_audit_destroy(au);

    return NGX_OK;
}


static ngx_int_t
ngx_http_robots_audit_init_process(ngx_cycle_t *cycle)
{
    ra_audit_conf_t                     conf;
    ngx_http_robots_audit_main_conf_t  *amcf;

    if (ngx_get_conf(cycle->conf_ctx, ngx_http_module) == NULL) {
        return NGX_OK;
    }

    amcf = ngx_http_cycle_get_module_main_conf(cycle,
                                               ngx_http_robots_audit_module);
    if (amcf == NULL || amcf->sh == NULL) {
        return NGX_OK;
    }

    ngx_memzero(&conf, sizeof(ra_audit_conf_t));
    conf.alloc = &ngx_http_robots_audit_heap;
    conf.crawlers = amcf->crawlers;
    conf.ranges = amcf->ranges;
    conf.alert_interval = (int64_t) amcf->alert_interval;

    amcf->audit = ra_audit_create(&conf, &amcf->ledger);

    if (amcf->audit == NULL) {
        ngx_log_error(NGX_LOG_ALERT, cycle->log, 0,
                      "robots-audit: [RA322] out of memory, this worker will "
                      "not audit");
    }

    return NGX_OK;
}


static void
ngx_http_robots_audit_exit_process(ngx_cycle_t *cycle)
{
    ngx_http_robots_audit_main_conf_t  *amcf;

    if (ngx_get_conf(cycle->conf_ctx, ngx_http_module) == NULL) {
        return;
    }

    amcf = ngx_http_cycle_get_module_main_conf(cycle,
                                               ngx_http_robots_audit_module);
    if (amcf == NULL) {
        return;
    }

    ra_audit_destroy(amcf->audit);
    amcf->audit = NULL;
}
