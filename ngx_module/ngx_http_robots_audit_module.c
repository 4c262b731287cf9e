/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * robots-audit for nginx: directives, the shared zone, the host interface
 * and the request phases: the log phase judges and counts every request
 * (ra_audit_request), the preaccess phase answers 403 to what the core
 * refuses in robots_audit_enforce's scope (ngx_http_robots_audit.h lists
 * the other files).
 *
 * The zone holds one slab allocation, the ledger region, which keeps
 * offsets only; the slab pool's data points at it, and its mutex is the
 * ledger's lock (nginx's master frees it when a worker dies holding it).
 */


#include "ngx_http_robots_audit.h"


/* the slab allocator's own pages in the zone (init_zone checks the rest) */
#define NGX_HTTP_ROBOTS_AUDIT_SLAB      (16 * 1024)


static char *ngx_http_robots_audit_zone(ngx_conf_t *cf, ngx_command_t *cmd,
    void *conf);
static char *ngx_http_robots_audit_status(ngx_conf_t *cf, ngx_command_t *cmd,
    void *conf);
static char *ngx_http_robots_audit_robots_file(ngx_conf_t *cf,
    ngx_command_t *cmd, void *conf);
static char *ngx_http_robots_audit_enforce(ngx_conf_t *cf, ngx_command_t *cmd,
    void *conf);
static char *ngx_http_robots_audit_table_file(ngx_conf_t *cf,
    ngx_command_t *cmd, void *conf);
static char *ngx_http_robots_audit_alert_log(ngx_conf_t *cf,
    ngx_command_t *cmd, void *conf);
static char *ngx_http_robots_audit_alert_budget(ngx_conf_t *cf,
    ngx_command_t *cmd, void *conf);
static char *ngx_http_robots_audit_alert_purposes(ngx_conf_t *cf,
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
static void ngx_http_robots_audit_rdns_init(ngx_cycle_t *cycle,
    ngx_http_robots_audit_main_conf_t *amcf);
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
      ngx_http_robots_audit_table_file,
      NGX_HTTP_MAIN_CONF_OFFSET,
      RA_SETUP_CRAWLERS,
      NULL },

    { ngx_string("robots_audit_ip_ranges"),
      NGX_HTTP_MAIN_CONF|NGX_CONF_1MORE,
      ngx_http_robots_audit_table_file,
      NGX_HTTP_MAIN_CONF_OFFSET,
      RA_SETUP_RANGES,
      NULL },

    { ngx_string("robots_audit_signature_keys"),
      NGX_HTTP_MAIN_CONF|NGX_CONF_TAKE1,
      ngx_http_robots_audit_table_file,
      NGX_HTTP_MAIN_CONF_OFFSET,
      RA_SETUP_SIG_KEYS,
      NULL },

    { ngx_string("robots_audit_signature_max_age"),
      NGX_HTTP_MAIN_CONF|NGX_CONF_TAKE1,
      ngx_conf_set_msec_slot,
      NGX_HTTP_MAIN_CONF_OFFSET,
      offsetof(ngx_http_robots_audit_main_conf_t, sig_max_age),
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

    { ngx_string("robots_audit_alert_budget"),
      NGX_HTTP_MAIN_CONF|NGX_CONF_TAKE2,
      ngx_http_robots_audit_alert_budget,
      NGX_HTTP_MAIN_CONF_OFFSET,
      0,
      NULL },

    { ngx_string("robots_audit_alert_purposes"),
      NGX_HTTP_MAIN_CONF|NGX_CONF_1MORE,
      ngx_http_robots_audit_alert_purposes,
      NGX_HTTP_MAIN_CONF_OFFSET,
      0,
      NULL },

    { ngx_string("robots_audit_enforce"),
      NGX_HTTP_MAIN_CONF|NGX_HTTP_SRV_CONF|NGX_HTTP_LOC_CONF|NGX_CONF_1MORE,
      ngx_http_robots_audit_enforce,
      NGX_HTTP_LOC_CONF_OFFSET,
      0,
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


/* ---- the host interface ----------------------------------------------- */

static void
ngx_http_robots_audit_lock(void *ctx)
{
    ngx_shmtx_lock(&((ngx_slab_pool_t *) ctx)->mutex);
}


static void
ngx_http_robots_audit_unlock(void *ctx)
{
    ngx_shmtx_unlock(&((ngx_slab_pool_t *) ctx)->mutex);
}


/* nginx's levels are syslog's plus one; without nginx's request context,
 * which repeats client and request line unescaped (the core escapes) */
static void
ngx_http_robots_audit_log(const ra_host_t *h, void *where,
    ra_log_level_e level, ra_str_t line)
{
    ngx_log_t            log;
    ngx_http_request_t  *r = where;

    log = r ? *r->connection->log : *ngx_cycle->log;
    log.handler = NULL;
    log.action = NULL;

    ngx_log_error((ngx_uint_t) level + 1, &log, 0, "%*s", line.len,
                  line.data);
}


/* the alert log (ra_outcome_alert() writes a line whole) */
static int
ngx_http_robots_audit_write(void *file, const void *p, size_t *n)
{
    ssize_t  k;

    k = ngx_write_fd(((ngx_open_file_t *) file)->fd, (void *) p, *n);
    if (k == -1) {
        return ngx_errno;
    }
    *n = (size_t) k;
    return 0;
}


/* at configuration time, where is the ngx_conf_t: "in nginx.conf:12" */
static void
ngx_http_robots_audit_conf_log(const ra_host_t *h, void *where,
    ra_log_level_e level, ra_str_t line)
{
    ngx_conf_log_error((ngx_uint_t) level + 1, where, 0, "%*s", line.len,
                       line.data);
}


/* ---- request phases --------------------------------------------------- */

static void
ngx_http_robots_audit_judge(ngx_http_request_t *r, ngx_int_t status,
    ngx_uint_t enforce, unsigned kind, ra_verdict_t *v)
{
    ra_request_t                        req;
    ra_alert_log_t                      log;
    ngx_open_file_t                    *file;
    ngx_http_robots_audit_ctx_t        *ctx;
    ngx_http_robots_audit_loc_conf_t   *alcf;
    ngx_http_robots_audit_main_conf_t  *amcf;

    amcf = ngx_http_get_module_main_conf(r, ngx_http_robots_audit_module);
    alcf = ngx_http_get_module_loc_conf(r, ngx_http_robots_audit_module);

    ngx_http_robots_audit_request(r, status, kind, &req);
    req.enforce = enforce ? alcf->enforce : 0;
    /* a robots.txt answer (or a redirect target's) the capture handed to
     * the core: it bound the crawler when the answer went out, and this
     * only counts it */
    if (ra_audit_may_be_recorded(amcf->audit, kind)
        && (ctx = ngx_http_robots_audit_get_ctx(r, 0)) != NULL)
    {
        req.recorded = ctx->recorded;
    }

    (void) ra_audit_request(amcf->audit, &req, v);

    /* the text line to the error log, the JSON line to the alert log */
    file = alcf->alert_log;

    log.write = ngx_http_robots_audit_write;
    log.file = file && file->fd != NGX_INVALID_FILE ? file : NULL;
    log.name = file ? (const char *) file->name.data : NULL;

    ra_outcome_alert(&amcf->host, &req, v, &log);
}


static ngx_int_t
ngx_http_robots_audit_log_handler(ngx_http_request_t *r)
{
    unsigned                            kind;
    ra_verdict_t                        v;
    ngx_http_robots_audit_ctx_t        *ctx;
    ngx_http_robots_audit_main_conf_t  *amcf;

    /* the header filter's kind is this request's while it runs: taken
     * here in any case, so that no later request at r's address finds it */
    amcf = ngx_http_get_module_main_conf(r, ngx_http_robots_audit_module);
    kind = ra_kind_memo_take(&amcf->kind, r,
                             ngx_http_robots_audit_str(r->unparsed_uri));

    /* the header filter stores a kind only when this is on for r: not
     * asked again then */
    if (kind == 0 && ngx_http_robots_audit_on(r, 0) == NULL) {
        return NGX_OK;
    }

    /* judged already in preaccess (robots_audit_enforce only) */
    if (amcf->enforce_any) {
        ctx = ngx_http_robots_audit_get_ctx(r, 0);
        if (ctx != NULL && ctx->counted) {
            return NGX_OK;
        }
    }

    ngx_http_robots_audit_judge(r, r->err_status ? (ngx_int_t) r->err_status
                                : (ngx_int_t) r->headers_out.status, 0,
                                kind, &v);

    return NGX_OK;
}


/* robots_audit_enforce: judged before any content, and not again */
static ngx_int_t
ngx_http_robots_audit_preaccess_handler(ngx_http_request_t *r)
{
    ra_verdict_t                        v;
    ngx_http_robots_audit_ctx_t        *ctx;
    ngx_http_robots_audit_main_conf_t  *amcf;

    amcf = ngx_http_robots_audit_on(r, 1);

    /* robots.txt fetches are counted with the status they got (the
     * targets of its redirects within the site too) */
    if (amcf == NULL
        || ra_http_is_robots(ngx_http_robots_audit_str(r->unparsed_uri))
        || ngx_http_robots_audit_hop(r, amcf))
    {
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

    ngx_http_robots_audit_judge(r, 0, 1, 0, &v);

    return ra_outcome_refused(&amcf->host, r, &v) ? NGX_HTTP_FORBIDDEN
                                                  : NGX_DECLINED;
}


/* ---- shared zone ------------------------------------------------------ */

static ngx_int_t
ngx_http_robots_audit_init_zone(ngx_shm_zone_t *shm_zone, void *data)
{
    size_t                              size;
    u_char                             *p;
    ngx_uint_t                          i;
    const char                         *why;
    ngx_shm_zone_t                     *oz;
    ngx_list_part_t                    *part;
    ngx_slab_pool_t                    *shpool;
    ngx_http_robots_audit_main_conf_t  *amcf;

    amcf = shm_zone->data;
    shpool = (ngx_slab_pool_t *) shm_zone->shm.addr;

    amcf->host.lock.lock = ngx_http_robots_audit_lock;
    amcf->host.lock.unlock = ngx_http_robots_audit_unlock;
    amcf->host.lock.ctx = shpool;

    if (data != NULL) {
        /* a reload: the same zone, still holding the old cycle's ledger */

        why = "the zone holds no robots-audit ledger";

        if (shpool->data != NULL
            && ra_setup_ledger(&amcf->ledger, shpool->data,
                               shm_zone->shm.size, 1, &amcf->host,
                               ngx_http_robots_audit_str(amcf->zone_text),
                               &why)
               == RA_OK)
        {
            return NGX_OK;
        }

        ra_logf(&amcf->host, NULL, RA_LOG_EMERG, RA_TAG_ZONE_REFUSED,
                "%.*s cannot be reused: %s; stop and start nginx (or "
                "rename the zone) to begin a new ledger",
                (int) amcf->zone_text.len, (char *) amcf->zone_text.data,
                why);
        return NGX_ERROR;
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
            ra_logf(&amcf->host, NULL, RA_LOG_WARN, RA_TAG_NEW_LEDGER,
                    "%.*s changed size from %zu to %zu: its counters start "
                    "over", (int) amcf->zone_text.len,
                    (char *) amcf->zone_text.data, oz[i].shm.size,
                    shm_zone->shm.size);
        }
    }

    /* all the slab allocator leaves, in one allocation */
    size = shpool->pfree << ngx_pagesize_shift;

    p = (size >= RA_LEDGER_MIN_SIZE) ? ngx_slab_alloc(shpool, size) : NULL;

    if (p == NULL) {
        ra_logf(&amcf->host, NULL, RA_LOG_EMERG, RA_TAG_ZONE_CREATE,
                "%.*s is too small: %zu bytes are left for the ledger, "
                "which needs at least %zu", (int) amcf->zone_text.len,
                (char *) amcf->zone_text.data, size,
                (size_t) RA_LEDGER_MIN_SIZE);
        return NGX_ERROR;
    }

    shpool->data = p;
    shpool->log_nomem = 0;

    return ra_setup_ledger(&amcf->ledger, p, size, 0, &amcf->host,
                           ngx_http_robots_audit_str(amcf->zone_text), &why)
           == RA_OK ? NGX_OK : NGX_ERROR;
}


/* ---- configuration ---------------------------------------------------- */

static char *
ngx_http_robots_audit_zone(ngx_conf_t *cf, ngx_command_t *cmd, void *conf)
{
    ngx_http_robots_audit_main_conf_t  *amcf = conf;

    u_char           *p;
    uint64_t          size;
    ra_buf_t          why;
    ngx_str_t        *value;
    ngx_shm_zone_t   *shm_zone;

    if (amcf->shm_zone != NULL) {
        return "is duplicate";
    }

    value = cf->args->elts;

    if (ra_parse_size(ngx_http_robots_audit_str(value[2]), &size) != RA_OK) {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                           "invalid robots_audit_zone size \"%V\"",
                           &value[2]);
        return NGX_CONF_ERROR;
    }

    ra_buf_init(&why, &amcf->pool, 0, 256);

    if (ra_zone_size_check(size, NGX_HTTP_ROBOTS_AUDIT_SLAB, &why) != RA_OK)
    {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                           "robots_audit_zone \"%V\" size \"%V\" %*s",
                           &value[1], &value[2], why.len, why.data);
        return NGX_CONF_ERROR;
    }

    shm_zone = ngx_shared_memory_add(cf, &value[1], (size_t) size,
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

    /* how messages name the zone */
    p = ngx_pnalloc(cf->pool, value[1].len + sizeof("robots_audit_zone \"\""));
    if (p == NULL) {
        return NGX_CONF_ERROR;
    }

    amcf->zone_text.data = p;
    amcf->zone_text.len = ngx_sprintf(p, "robots_audit_zone \"%V\"",
                                      &value[1]) - p;

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


/* robots_audit_enforce WORD...: the core reads them (as Apache's, words add) */
static char *
ngx_http_robots_audit_enforce(ngx_conf_t *cf, ngx_command_t *cmd, void *conf)
{
    ngx_http_robots_audit_loc_conf_t  *alcf = conf;

    ngx_uint_t   i;
    ngx_str_t   *value = cf->args->elts;
    const char  *why;

    for (i = 1; i < cf->args->nelts; i++) {
        if (ra_enforce_word(&alcf->enforce,
                            ngx_http_robots_audit_str(value[i]), &why)
            != RA_OK)
        {
            ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                               "invalid value \"%V\" in \"%V\" directive: %s",
                               &value[i], &cmd->name, why);
            return NGX_CONF_ERROR;
        }
    }
    return NGX_CONF_OK;
}


static char *
ngx_http_robots_audit_robots_file(ngx_conf_t *cf, ngx_command_t *cmd,
    void *conf)
{
    ngx_http_robots_audit_srv_conf_t  *ascf = conf;

    ra_buf_t                            why;
    ngx_str_t                          *value, name;
    ngx_http_robots_audit_main_conf_t  *amcf;

    if (ascf->has_robots) {
        return "is duplicate";
    }

    amcf = ngx_http_conf_get_module_main_conf(cf,
                                              ngx_http_robots_audit_module);

    value = cf->args->elts;
    name = value[1];

    if (ngx_conf_full_name(cf->cycle, &name, 1) != NGX_OK) {
        return NGX_CONF_ERROR;
    }

    ra_buf_init(&why, &amcf->pool, 0, 1024);

    if (ra_robots_file_load(&amcf->conf_host, &amcf->pool,
                            (const char *) name.data, &ascf->robots, &why)
        != RA_OK)
    {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0, RA_LOG_PREFIX
                           "[" RA_TAG_CONFIG_FILE "] %*s", why.len, why.data);
        return NGX_CONF_ERROR;
    }

    ascf->has_robots = 1;

    ra_robots_file_lint(&amcf->conf_host, cf, &ascf->robots);

    return NGX_CONF_OK;
}


/* robots_audit_crawlers FILE; robots_audit_ip_ranges FILE ...;
 * robots_audit_signature_keys DIR */
static char *
ngx_http_robots_audit_table_file(ngx_conf_t *cf, ngx_command_t *cmd,
    void *conf)
{
    ngx_http_robots_audit_main_conf_t  *amcf = conf;

    int          rc;
    ra_buf_t     why;
    ngx_str_t   *value, name;
    ngx_uint_t   i;

    value = cf->args->elts;

    for (i = 1; i < cf->args->nelts; i++) {
        name = value[i];

        if (ngx_conf_full_name(cf->cycle, &name, 1) != NGX_OK) {
            return NGX_CONF_ERROR;
        }

        ra_buf_init(&why, &amcf->pool, 0, 1024);

        amcf->setup.where = cf;             /* RA203 "in nginx.conf:N" */
        rc = ra_setup_table_file(&amcf->setup, cmd->offset,
                                 (const char *) name.data, &why);
        amcf->setup.where = NULL;

        if (rc != RA_OK) {
            ngx_conf_log_error(NGX_LOG_EMERG, cf, 0, RA_LOG_PREFIX
                               "[" RA_TAG_CONFIG_FILE "] %*s", why.len,
                               why.data);
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


static char *
ngx_http_robots_audit_alert_budget(ngx_conf_t *cf, ngx_command_t *cmd,
    void *conf)
{
    ngx_str_t                          *v = cf->args->elts;
    ngx_http_robots_audit_main_conf_t  *amcf = conf;

    return (char *) ra_alert_budget_parse(ngx_http_robots_audit_str(v[1]),
               ngx_http_robots_audit_str(v[2]), &amcf->alert_budget);
}


/* robots_audit_alert_purposes WORD...: the core reads each word (a word
 * may hold several, comma-separated) */
static char *
ngx_http_robots_audit_alert_purposes(ngx_conf_t *cf, ngx_command_t *cmd,
    void *conf)
{
    ngx_str_t                          *v = cf->args->elts;
    ngx_uint_t                          i;
    ra_str_t                            bad;
    const char                         *why;
    ngx_http_robots_audit_main_conf_t  *amcf = conf;

    for (i = 1; i < cf->args->nelts; i++) {
        why = ra_alert_purposes_parse(ngx_http_robots_audit_str(v[i]),
                                      &amcf->alert_purposes, &bad);
        if (why != NULL) {
            ngx_conf_log_error(NGX_LOG_EMERG, cf, 0, "\"%V\": \"%*s\" %s",
                               &cmd->name, bad.len, bad.data, why);
            return NGX_CONF_ERROR;
        }
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
     *     amcf->ledger = { NULL, ... };
     *     amcf->audit = NULL;
     */

    amcf->alert_interval = NGX_CONF_UNSET_MSEC;
    amcf->sig_max_age = NGX_CONF_UNSET_MSEC;

    amcf->pool.alloc = ngx_http_robots_audit_pool_alloc;
    amcf->pool.free = NULL;
    amcf->pool.ctx = cf->pool;

    amcf->host.log = ngx_http_robots_audit_log;
    amcf->host.now = ngx_http_robots_audit_now;
    amcf->host.heap = ra_malloc_allocator;  /* what the core frees */
    ra_host_crypto_libcrypto(&amcf->host);  /* Web Bot Auth */

    amcf->conf_host = amcf->host;
    amcf->conf_host.log = ngx_http_robots_audit_conf_log;

    ra_setup_init(&amcf->setup, &amcf->conf_host, &amcf->pool);
    amcf->setup.lenient = 1;            /* data files never stop nginx */

    return amcf;
}


static char *
ngx_http_robots_audit_init_main_conf(ngx_conf_t *cf, void *conf)
{
    ngx_http_robots_audit_main_conf_t  *amcf = conf;

    ra_buf_t  why;

    if (amcf->shm_zone == NULL) {
        return NGX_CONF_OK;
    }

    ra_buf_init(&why, &amcf->pool, 0, 1024);

    if (ra_setup_compile(&amcf->setup, &why) != RA_OK) {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0, RA_LOG_PREFIX
                           "[" RA_TAG_CRAWLERS "] %*s", why.len, why.data);
        return NGX_CONF_ERROR;
    }

    return NGX_CONF_OK;
}


static void *
ngx_http_robots_audit_create_srv_conf(ngx_conf_t *cf)
{
    return ngx_pcalloc(cf->pool, sizeof(ngx_http_robots_audit_srv_conf_t));
}


/* the block's names, copied: the core's server_names does not last */
static char *
ngx_http_robots_audit_merge_srv_conf(ngx_conf_t *cf, void *parent,
    void *child)
{
    ngx_http_robots_audit_srv_conf_t  *conf = child;

    ngx_uint_t                          i;
    ngx_http_server_name_t             *sn;
    ngx_http_core_srv_conf_t           *cscf;
    ngx_http_robots_audit_main_conf_t  *amcf;

    amcf = ngx_http_conf_get_module_main_conf(cf,
                                              ngx_http_robots_audit_module);
    cscf = ngx_http_conf_get_module_srv_conf(cf, ngx_http_core_module);

    if (ra_sitenames_init(&conf->names, &amcf->pool,
                          ngx_http_robots_audit_str(cscf->server_name))
        != RA_OK)
    {
        return NGX_CONF_ERROR;
    }

    sn = cscf->server_names.elts;

    for (i = 0; i < cscf->server_names.nelts; i++) {
        if (ra_sitenames_add(&conf->names, &amcf->pool,
                             ngx_http_robots_audit_str(sn[i].name))
            != RA_OK)
        {
            return NGX_CONF_ERROR;
        }
    }

    return NGX_CONF_OK;
}


static void *
ngx_http_robots_audit_create_loc_conf(ngx_conf_t *cf)
{
    ngx_http_robots_audit_loc_conf_t  *alcf;

    alcf = ngx_pcalloc(cf->pool, sizeof(ngx_http_robots_audit_loc_conf_t));
    if (alcf == NULL) {
        return NULL;
    }

    alcf->enable = NGX_CONF_UNSET;
    alcf->alert_log = NGX_CONF_UNSET_PTR;

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
    conf->enforce = conf->enforce ? conf->enforce : prev->enforce;
    ngx_conf_merge_ptr_value(conf->alert_log, prev->alert_log, NULL);

    amcf = ngx_http_conf_get_module_main_conf(cf,
                                              ngx_http_robots_audit_module);

    if (conf->enable == 1 && ra_enforce_any(conf->enforce)) {
        amcf->enforce_any = 1;
    }

    if (amcf->shm_zone == NULL && (conf->enable == 1 || conf->status)) {
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

    /* without robots_audit_enforce, nothing to do before the content */
    if (!amcf->enforce_any) {
        return ngx_http_robots_audit_filter_init(cf);
    }

    h = ngx_array_push(&cmcf->phases[NGX_HTTP_PREACCESS_PHASE].handlers);
    if (h == NULL) {
        return NGX_ERROR;
    }

    *h = ngx_http_robots_audit_preaccess_handler;

    return ngx_http_robots_audit_filter_init(cf);
}


static ra_audit_t *
ngx_http_robots_audit_create(ngx_http_robots_audit_main_conf_t *amcf)
{
    ra_audit_conf_t    conf;
    ra_setup_values_t  v;

    v.alert_interval = amcf->alert_interval == NGX_CONF_UNSET_MSEC
                       ? -1 : (int64_t) amcf->alert_interval;
    v.alert_budget = amcf->alert_budget;
    v.alert_purposes = amcf->alert_purposes;
    v.sig_max_age = amcf->sig_max_age == NGX_CONF_UNSET_MSEC
                    ? 0 : (int64_t) amcf->sig_max_age;

    ra_setup_audit_conf(&conf, &amcf->setup, &amcf->host,
                        ngx_http_robots_audit_str(amcf->zone_text), &v);

    return ra_audit_create(&conf, &amcf->ledger);
}


/* Reverse DNS needs a resolver: with one in some server, lookups go to
 * the one in effect for each request (ngx_http_robots_audit_rdns.c);
 * with none, it is off, and said once */
static void
ngx_http_robots_audit_rdns_init(ngx_cycle_t *cycle,
    ngx_http_robots_audit_main_conf_t *amcf)
{
    ngx_uint_t                  s;
    ngx_http_conf_ctx_t        *ctx;
    ngx_http_core_loc_conf_t   *clcf;
    ngx_http_core_srv_conf_t  **cscfp;
    ngx_http_core_main_conf_t  *cmcf;

    cmcf = ngx_http_cycle_get_module_main_conf(cycle, ngx_http_core_module);
    cscfp = cmcf->servers.elts;
    amcf->host.rdns_start = NULL;

    for (s = 0; s < cmcf->servers.nelts; s++) {
        ctx = cscfp[s]->ctx;
        clcf = ctx->loc_conf[ngx_http_core_module.ctx_index];

        if (clcf->resolver && clcf->resolver->connections.nelts) {
            amcf->host.rdns_start = ngx_http_robots_audit_rdns_start;
            return;
        }
    }

    /* the new cycle's log: ngx_cycle is still the old one here; a
     * notice, not a warning: no resolver is the README's minimal setup,
     * and crawlers with published ranges are verified without one */
    ngx_log_error(NGX_LOG_NOTICE, cycle->log, 0, RA_LOG_PREFIX
                  "[" RA_TAG_RDNS_OFF "] no resolver configured: "
                  "reverse-DNS verification is off");
}


/* In the master, once the zone exists: each robots_audit_robots_file is
 * its site's first version unless one was captured (ra_robots_file_seed) */
static ngx_int_t
ngx_http_robots_audit_init_module(ngx_cycle_t *cycle)
{
    ngx_uint_t                          s;
    ngx_conf_t                          cf;
    ra_audit_t                         *au;
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
    if (amcf == NULL || amcf->ledger.base == NULL) {
        return NGX_OK;
    }

    cmcf = ngx_http_cycle_get_module_main_conf(cycle, ngx_http_core_module);
    cscfp = cmcf->servers.elts;

    ngx_http_robots_audit_rdns_init(cycle, amcf);

    au = NULL;

    for (s = 0; s < cmcf->servers.nelts; s++) {
        ctx = cscfp[s]->ctx;
        ascf = ctx->srv_conf[ngx_http_robots_audit_module.ctx_index];

        if (!ascf->has_robots) {
            continue;
        }

        /* at start, lint went to stderr only (no error log yet) */
        if (ngx_is_init_cycle(cycle->old_cycle) && !ngx_test_config) {
            ngx_memzero(&cf, sizeof(ngx_conf_t));
            cf.cycle = cycle;
            cf.log = cycle->log;
            ra_robots_file_lint(&amcf->conf_host, &cf, &ascf->robots);
        }

        if (au == NULL) {
            au = ngx_http_robots_audit_create(amcf);
            if (au == NULL) {
                return NGX_ERROR;
            }
        }

        (void) ra_robots_file_seed(au, ascf->names.primary, &ascf->robots,
                                   ngx_http_robots_audit_now(NULL));
    }

    ra_audit_destroy(au);

    return NGX_OK;
}


static ngx_int_t
ngx_http_robots_audit_init_process(ngx_cycle_t *cycle)
{
    ngx_http_robots_audit_main_conf_t  *amcf;

    if (ngx_get_conf(cycle->conf_ctx, ngx_http_module) == NULL) {
        return NGX_OK;
    }

    amcf = ngx_http_cycle_get_module_main_conf(cycle,
                                               ngx_http_robots_audit_module);
    if (amcf == NULL || amcf->ledger.base == NULL) {
        return NGX_OK;
    }

    amcf->audit = ngx_http_robots_audit_create(amcf);

    if (amcf->audit == NULL) {
        ra_logf(&amcf->host, NULL, RA_LOG_ALERT, RA_TAG_NOMEM,
                "out of memory, this worker will not audit");
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
