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


static char *ngx_http_robots_audit_directive(ngx_conf_t *cf,
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


/* the core's rows (common/ra_directive.h) in nginx's terms, every one
 * read by ngx_http_robots_audit_directive() */
#define NGX_HTTP_RA_COMMAND(id, kind, arg, name, where, args, ...)           \
    NGX_HTTP_RA_IN_##where(name, NGX_CONF_##args, RA_DIRECTIVE_##id)

#define NGX_HTTP_RA_IN_MAIN(name, args, id)                                  \
    NGX_HTTP_RA_CMD(name, NGX_HTTP_MAIN_CONF|args, NGX_HTTP_MAIN_CONF_OFFSET, \
                    id)
#define NGX_HTTP_RA_IN_SRV(name, args, id)                                   \
    NGX_HTTP_RA_CMD(name, NGX_HTTP_SRV_CONF|args, NGX_HTTP_SRV_CONF_OFFSET,  \
                    id)
#define NGX_HTTP_RA_IN_LOC(name, args, id)                                   \
    NGX_HTTP_RA_CMD(name, NGX_HTTP_LOC_CONF|args, NGX_HTTP_LOC_CONF_OFFSET,  \
                    id)
#define NGX_HTTP_RA_IN_ANY(name, args, id)                                   \
    NGX_HTTP_RA_CMD(name, NGX_HTTP_MAIN_CONF|NGX_HTTP_SRV_CONF               \
                    |NGX_HTTP_LOC_CONF|args, NGX_HTTP_LOC_CONF_OFFSET, id)
#define NGX_HTTP_RA_IN_NONE(name, args, id)

#define NGX_HTTP_RA_CMD(name, type, conf, id)                                \
    { ngx_string(name), type, ngx_http_robots_audit_directive, conf, id,     \
      NULL },


static ngx_command_t  ngx_http_robots_audit_commands[] = {

    RA_DIRECTIVES(NGX_HTTP_RA_COMMAND)

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


/* an open file (nginx reopens it) as the core writes to it: its
 * descriptor as it is now, since a reopen changes it */
static void
ngx_http_robots_audit_logfile(ra_logfile_t *log, ngx_open_file_t *file)
{
    log->write = ra_logfile_write_fd;
    log->file = file && file->fd != NGX_INVALID_FILE ? &file->fd : NULL;
    log->name = file ? (const char *) file->name.data : NULL;
}


/* an event line through robots_audit_events' syslog peer: its header in
 * the room the core leaves before the line (RA_EVENTS_HEADROOM) */
static int
ngx_http_robots_audit_syslog(void *peer, const void *p, size_t *n)
{
    u_char  head[RA_EVENTS_HEADROOM], *end;
    size_t  h;

    end = ngx_syslog_add_header(peer, head);
    h = end - head;
    ngx_memcpy((u_char *) p - h, head, h);

    if (ngx_syslog_send(peer, (u_char *) p - h, *n + h) != (ssize_t) (*n + h)) {
        *n = 0;
        return EAGAIN;
    }

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

/* r's turn (ra_outcome_answer()): the status to refuse it with (a: its
 * answer, before the content), else 0 */
static int
ngx_http_robots_audit_judge(ngx_http_request_t *r, ngx_int_t status,
    ra_refusal_t *a, unsigned kind)
{
    ra_request_t                        req;
    ra_verdict_t                        v;
    ra_outcome_logs_t                   logs;
    ngx_http_robots_audit_ctx_t        *ctx;
    ngx_http_robots_audit_loc_conf_t   *alcf;
    ngx_http_robots_audit_main_conf_t  *amcf;

    amcf = ngx_http_get_module_main_conf(r, ngx_http_robots_audit_module);
    alcf = ngx_http_get_module_loc_conf(r, ngx_http_robots_audit_module);

    ngx_http_robots_audit_request(r, status, kind, &req);
    ra_conf_scope_request(a != NULL ? &alcf->conf : NULL, &req);
    /* a robots.txt answer (or a redirect target's) the capture handed to
     * the core: it bound the crawler when the answer went out, and this
     * only counts it */
    if (ra_audit_may_be_recorded(amcf->audit, kind)
        && (ctx = ngx_http_robots_audit_get_ctx(r, 0)) != NULL)
    {
        req.recorded = ctx->recorded;
    }

    /* the JSON lines to the alert and evidence logs */
    ngx_http_robots_audit_logfile(&logs.alert, alcf->conf.alert_file);
    ngx_http_robots_audit_logfile(&logs.evidence, alcf->conf.evidence_file);

    return ra_outcome_answer(amcf->audit, &amcf->host, &req, &logs, &v, a);
}


static ngx_int_t
ngx_http_robots_audit_log_handler(ngx_http_request_t *r)
{
    unsigned                            kind;
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
    if (amcf->conf.enforce_wanted) {
        ctx = ngx_http_robots_audit_get_ctx(r, 0);
        if (ctx != NULL && ctx->counted) {
            return NGX_OK;
        }
    }

    (void) ngx_http_robots_audit_judge(r, r->err_status
                                       ? (ngx_int_t) r->err_status
                                       : (ngx_int_t) r->headers_out.status,
                                       NULL, kind);

    return NGX_OK;
}


/* robots_audit_enforce, robots_audit_block: judged before any content,
 * and not again */
static ngx_int_t
ngx_http_robots_audit_preaccess_handler(ngx_http_request_t *r)
{
    ngx_int_t                           rc;
    ra_reply_t                          reply;
    ra_refusal_t                       *a;
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

    a = &ctx->refusal;

    if (!ngx_http_robots_audit_judge(r, 0, a, 0)) {
        return NGX_DECLINED;
    }

    /* the refusal the core chose: its status, Retry-After and body */
    ra_refusal_reply(a, &reply);
    rc = ngx_http_robots_audit_reply(r, &reply);
    if (reply.content_type == NULL) {
        return rc;
    }

    ngx_http_finalize_request(r, rc);
    return NGX_DONE;
}


/* ---- shared zone ------------------------------------------------------ */

static ngx_int_t
ngx_http_robots_audit_init_zone(ngx_shm_zone_t *shm_zone, void *data)
{
    int                                 rc;
    size_t                              size, old_size;
    u_char                             *p;
    ngx_uint_t                          i;
    ngx_conf_t                          cf;
    ngx_shm_zone_t                     *oz;
    ngx_list_part_t                    *part;
    ngx_slab_pool_t                    *shpool;
    ngx_http_robots_audit_main_conf_t  *amcf;

    amcf = shm_zone->data;
    shpool = (ngx_slab_pool_t *) shm_zone->shm.addr;

    amcf->host.lock.lock = ngx_http_robots_audit_lock;
    amcf->host.lock.unlock = ngx_http_robots_audit_unlock;
    amcf->host.lock.ctx = shpool;

    /* a reload keeps the zone (data) when its size stays; a resized zone
     * is a new one, and the old cycle's of that name says its size */

    old_size = data != NULL ? shm_zone->shm.size : 0;

    for (part = (ngx_list_part_t *) &ngx_cycle->shared_memory.part;
         data == NULL && part != NULL; part = part->next)
    {
        oz = part->elts;

        for (i = 0; i < part->nelts; i++) {
            if (oz[i].tag == shm_zone->tag
                && oz[i].shm.name.len == shm_zone->shm.name.len
                && ngx_strncmp(oz[i].shm.name.data, shm_zone->shm.name.data,
                               shm_zone->shm.name.len) == 0
                && oz[i].shm.size != shm_zone->shm.size)
            {
                old_size = oz[i].shm.size;
            }
        }
    }

    rc = ra_setup_zone(&amcf->ledger, &amcf->host,
                       amcf->conf.zone_text,
                       data != NULL ? shpool->data : NULL,
                       shm_zone->shm.size, old_size, data == NULL);
    if (rc != RA_EAGAIN) {
        return rc == RA_OK ? NGX_OK : NGX_ERROR;
    }

    /* all the slab allocator leaves, in one allocation (none: the core
     * says the zone is too small) */
    size = shpool->pfree << ngx_pagesize_shift;

    p = (size >= RA_LEDGER_MIN_SIZE) ? ngx_slab_alloc(shpool, size) : NULL;

    shpool->data = p;
    shpool->log_nomem = 0;

    /* a new zone: the counters of the state file, said in the new log */
    ngx_memzero(&cf, sizeof(ngx_conf_t));
    cf.log = shm_zone->shm.log;

    return ra_setup_ledger_new(&amcf->ledger, p, size, &amcf->host,
                               amcf->conf.zone_text, &amcf->conf_host, &cf,
                               amcf->conf.state_file) == RA_OK
           ? NGX_OK : NGX_ERROR;
}


/* ---- configuration ---------------------------------------------------- */

/* a file's word as nginx reads it: relative to the configuration prefix */
static const char *
ngx_http_robots_audit_path(void *ctx, ra_str_t word)
{
    ngx_str_t  name;

    name.len = word.len;
    name.data = (u_char *) word.data;

    if (ngx_conf_full_name(((ngx_conf_t *) ctx)->cycle, &name, 1) != NGX_OK) {
        return NULL;
    }

    return (const char *) name.data;
}


/* Every directive: its words to the core (common/ra_directive.h), which
 * reads, checks and keeps them and words what is wrong; then what only
 * nginx does with the value: the shared zone, the status page's handler,
 * the alert log opened (and reopened on SIGUSR1) as access logs are */
static char *
ngx_http_robots_audit_directive(ngx_conf_t *cf, ngx_command_t *cmd,
    void *conf)
{
    ngx_uint_t                          i;
    ra_buf_t                            msg;
    ra_str_t                           *words;
    void                              **file;
    ngx_str_t                          *value;
    ngx_shm_zone_t                     *shm_zone;
    ra_directive_cx_t                   cx;
    ngx_http_core_loc_conf_t           *clcf;
    ngx_http_robots_audit_srv_conf_t   *ascf;
    ngx_http_robots_audit_loc_conf_t   *alcf;
    ngx_http_robots_audit_main_conf_t  *amcf;

    amcf = ngx_http_conf_get_module_main_conf(cf,
                                              ngx_http_robots_audit_module);
    ascf = ngx_http_conf_get_module_srv_conf(cf, ngx_http_robots_audit_module);
    alcf = ngx_http_conf_get_module_loc_conf(cf, ngx_http_robots_audit_module);

    value = cf->args->elts;

    words = ngx_palloc(cf->temp_pool, cf->args->nelts * sizeof(ra_str_t));
    if (words == NULL) {
        return NGX_CONF_ERROR;
    }

    for (i = 1; i < cf->args->nelts; i++) {
        words[i - 1] = ngx_http_robots_audit_str(value[i]);
    }

    ra_directive_cx_init(&cx, RA_DIALECT_NGINX, &amcf->conf, &ascf->conf,
                         &alcf->conf);
    cx.where = cf;                      /* RA203 "in nginx.conf:N" */
    cx.zone_overhead = NGX_HTTP_ROBOTS_AUDIT_SLAB;
    cx.path = ngx_http_robots_audit_path;
    cx.path_ctx = cf;

    ra_buf_init(&msg, &amcf->pool, 0, 1024);

    if (ra_directive_set(&cx, cmd->offset, words, cf->args->nelts - 1, &msg)
        != RA_OK)
    {
        if (msg.len) {
            ngx_conf_log_error(NGX_LOG_EMERG, cf, 0, "%*s", msg.len,
                               msg.data);
        }
        return NGX_CONF_ERROR;
    }

    switch (cmd->offset) {

    case RA_DIRECTIVE_ZONE:
        /* once: the core refused a second one as duplicate */
        shm_zone = ngx_shared_memory_add(cf, &value[1],
                                         (size_t) amcf->conf.zone_size,
                                         &ngx_http_robots_audit_module);
        if (shm_zone == NULL) {
            return NGX_CONF_ERROR;
        }

        shm_zone->init = ngx_http_robots_audit_init_zone;
        shm_zone->data = amcf;
        amcf->shm_zone = shm_zone;
        break;

    case RA_DIRECTIVE_STATUS:
        clcf = ngx_http_conf_get_module_loc_conf(cf, ngx_http_core_module);
        clcf->handler = ngx_http_robots_audit_status_handler;
        break;

    case RA_DIRECTIVE_ALERT_LOG:
    case RA_DIRECTIVE_EVIDENCE_LOG:
        /* a path the core kept (not off): nginx opens and reopens it */
        file = ra_conf_scope_log_file(&alcf->conf, cmd->offset);
        if (file != NULL
            && (*file = ngx_conf_open_file(cf->cycle, &value[1])) == NULL)
        {
            return NGX_CONF_ERROR;
        }
        break;

    case RA_DIRECTIVE_EVENTS:
        /* nginx's own syslog writer: datagrams, never waited for */
        amcf->conf.events.log.file = ngx_pcalloc(cf->pool,
                                                 sizeof(ngx_syslog_peer_t));
        if (amcf->conf.events.log.file == NULL
            || ngx_syslog_process_conf(cf, amcf->conf.events.log.file)
               != NGX_CONF_OK)
        {
            return NGX_CONF_ERROR;
        }
        amcf->conf.events.log.write = ngx_http_robots_audit_syslog;
        break;
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

    amcf->pool.alloc = ngx_http_robots_audit_pool_alloc;
    amcf->pool.free = NULL;
    amcf->pool.ctx = cf->pool;

    ra_host_server_init(&amcf->host, ngx_http_robots_audit_log,
                        ngx_http_robots_audit_now, 0);

    amcf->conf_host = amcf->host;
    amcf->conf_host.log = ngx_http_robots_audit_conf_log;

    ra_conf_main_init(&amcf->conf, &amcf->conf_host, &amcf->pool);

    return amcf;
}


static char *
ngx_http_robots_audit_init_main_conf(ngx_conf_t *cf, void *conf)
{
    ngx_http_robots_audit_main_conf_t  *amcf = conf;

    if (amcf->shm_zone == NULL
        || ra_conf_compile(&amcf->conf, &amcf->conf_host, cf) == RA_OK)
    {
        return NGX_CONF_OK;
    }

    return NGX_CONF_ERROR;
}


static void *
ngx_http_robots_audit_create_srv_conf(ngx_conf_t *cf)
{
    return ngx_pcalloc(cf->pool, sizeof(ngx_http_robots_audit_srv_conf_t));
}


static ra_str_t
ngx_http_robots_audit_server_name(const void *list, size_t i)
{
    return ngx_http_robots_audit_str(
               ((const ngx_http_server_name_t *) list)[i].name);
}


/* The block's names, copied: the core's server_names does not last.
 * Reverse DNS needs a resolver: with one in some server, lookups go to
 * the one in effect for each request (ngx_http_robots_audit_rdns.c).
 * The core module's blocks are merged before this one's. */
static char *
ngx_http_robots_audit_merge_srv_conf(ngx_conf_t *cf, void *parent,
    void *child)
{
    ngx_http_robots_audit_srv_conf_t  *conf = child;

    ngx_http_core_loc_conf_t           *clcf;
    ngx_http_core_srv_conf_t           *cscf;
    ngx_http_robots_audit_main_conf_t  *amcf;

    amcf = ngx_http_conf_get_module_main_conf(cf,
                                              ngx_http_robots_audit_module);
    cscf = ngx_http_conf_get_module_srv_conf(cf, ngx_http_core_module);
    clcf = cscf->ctx->loc_conf[ngx_http_core_module.ctx_index];

    if (clcf->resolver && clcf->resolver->connections.nelts) {
        amcf->host.rdns_start = ngx_http_robots_audit_rdns_start;
    }

    if (ra_sitenames_build(&conf->conf.names, &amcf->pool,
                           ngx_http_robots_audit_str(cscf->server_name),
                           ngx_http_robots_audit_server_name,
                           cscf->server_names.elts,
                           cscf->server_names.nelts)
        != RA_OK)
    {
        return NGX_CONF_ERROR;
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

    ra_conf_scope_init(&alcf->conf);

    return alcf;
}


static char *
ngx_http_robots_audit_merge_loc_conf(ngx_conf_t *cf, void *parent,
    void *child)
{
    ngx_http_robots_audit_loc_conf_t  *prev = parent;
    ngx_http_robots_audit_loc_conf_t  *conf = child;

    const char                         *why;
    ngx_http_robots_audit_main_conf_t  *amcf;

    ra_conf_scope_merge(&conf->conf, &prev->conf, &conf->conf);

    amcf = ngx_http_conf_get_module_main_conf(cf,
                                              ngx_http_robots_audit_module);

    why = ra_conf_scope_unzoned(&conf->conf, amcf->shm_zone != NULL);
    if (why != NULL) {
        ngx_log_error(NGX_LOG_EMERG, cf->log, 0, "%s", why);
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
    if (!amcf->conf.enforce_wanted) {
        return ngx_http_robots_audit_filter_init(cf);
    }

    h = ngx_array_push(&cmcf->phases[NGX_HTTP_PREACCESS_PHASE].handlers);
    if (h == NULL) {
        return NGX_ERROR;
    }

    *h = ngx_http_robots_audit_preaccess_handler;

    return ngx_http_robots_audit_filter_init(cf);
}


/* the cycle's configuration, when it has an http block */
static ngx_http_robots_audit_main_conf_t *
ngx_http_robots_audit_cycle_conf(ngx_cycle_t *cycle)
{
    if (ngx_get_conf(cycle->conf_ctx, ngx_http_module) == NULL) {
        return NULL;
    }

    return ngx_http_cycle_get_module_main_conf(cycle,
                                               ngx_http_robots_audit_module);
}


/* In the master, once the zone exists: each robots_audit_robots_file is
 * its site's first version unless one was captured (ra_robots_file_seed) */
static ngx_int_t
ngx_http_robots_audit_init_module(ngx_cycle_t *cycle)
{
    ngx_conf_t                          cf;
    ngx_http_robots_audit_main_conf_t  *amcf;

    amcf = ngx_http_robots_audit_cycle_conf(cycle);
    if (amcf == NULL || amcf->ledger.base == NULL) {
        return NGX_OK;
    }

    /* no resolver in any server (merge_srv_conf): said once, in the new
     * cycle's log (ngx_cycle is still the old one here); a notice, not a
     * warning: no resolver is the README's minimal setup, and crawlers
     * with published ranges are verified without one */
    if (amcf->host.rdns_start == NULL) {
        ngx_log_error(NGX_LOG_NOTICE, cycle->log, 0, RA_LOG_PREFIX
                      "[" RA_TAG_RDNS_OFF "] no resolver configured: "
                      "reverse-DNS verification is off");
    }

    if (amcf->conf.robots_servers == NULL) {
        return NGX_OK;
    }

    /* at start, lint went to stderr only (no error log yet) */
    if (ngx_is_init_cycle(cycle->old_cycle) && !ngx_test_config) {
        ngx_memzero(&cf, sizeof(ngx_conf_t));
        cf.cycle = cycle;
        cf.log = cycle->log;
        ra_conf_robots_lint(&amcf->conf, &amcf->conf_host, &cf);
    }

    return ra_conf_robots_seed_ledger(&amcf->conf, &amcf->host,
                                      amcf->conf.zone_text, &amcf->ledger,
                                      ngx_http_robots_audit_now(NULL))
           == RA_OK ? NGX_OK : NGX_ERROR;
}


/* robots_audit_state: one process saves, worker 0 (a worker that dies
 * is started again with its number), by a timer and at its exit */
static void
ngx_http_robots_audit_state_save(ngx_event_t *ev)
{
    ra_ledger_saver_t  *sv = ev->data;

    (void) ra_ledger_saver_save(sv);

    if (!ngx_exiting && !ngx_terminate && !ngx_quit) {
        ngx_add_timer(ev, (ngx_msec_t) sv->every);
    }
}


static ngx_int_t
ngx_http_robots_audit_init_process(ngx_cycle_t *cycle)
{
    ra_audit_conf_t                     conf;
    ngx_http_robots_audit_main_conf_t  *amcf;

    amcf = ngx_http_robots_audit_cycle_conf(cycle);
    if (amcf == NULL || amcf->ledger.base == NULL) {
        return NGX_OK;
    }

    /* the engine (out of memory is said) */
    amcf->audit = ra_conf_engine(&amcf->conf, &conf, &amcf->host,
                                 amcf->conf.zone_text, &amcf->ledger);

    if ((ngx_process == NGX_PROCESS_SINGLE
         || (ngx_process == NGX_PROCESS_WORKER && ngx_worker == 0))
        && ra_ledger_saver_init(&amcf->saver, &amcf->ledger, &amcf->host,
                                amcf->conf.zone_text, amcf->conf.state_file,
                                amcf->conf.state_interval))
    {
        amcf->state_timer.handler = ngx_http_robots_audit_state_save;
        amcf->state_timer.data = &amcf->saver;
        amcf->state_timer.log = cycle->log;
        amcf->state_timer.cancelable = 1;       /* no wait at exit */
        ngx_add_timer(&amcf->state_timer, (ngx_msec_t) amcf->saver.every);
    }

    return NGX_OK;
}


static void
ngx_http_robots_audit_exit_process(ngx_cycle_t *cycle)
{
    ngx_http_robots_audit_main_conf_t  *amcf;

    amcf = ngx_http_robots_audit_cycle_conf(cycle);
    if (amcf == NULL) {
        return;
    }

    /* the last save (none unless this process is the saver) */
    (void) ra_ledger_saver_save(&amcf->saver);

    ra_audit_destroy(amcf->audit);
    amcf->audit = NULL;
}
