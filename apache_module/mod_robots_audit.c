/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mod_robots_audit: the robots-audit core (common/) inside Apache httpd 2.4.
 * This file: the module record, the directives, startup and child init
 * (with its resolver thread); mra.h lists the others.
 *
 * Shared state: one anonymous shared segment holding the ledger
 * (common/ra_ledger.h: offsets only, never pointers) and one global mutex.
 * Both are created in the parent's post_config (skipping the dry-run pass)
 * from the process pool and kept in retained data, so that a graceful
 * restart, which unloads this DSO and reads the configuration again, finds
 * them and keeps the counters when ra_setup_ledger() accepts the segment;
 * children inherit the mapping and re-attach the mutex in child_init.  The
 * process pool releases both when the parent exits.  Nothing this DSO owns
 * (functions, pconf memory) is ever referenced from the process pool.
 *
 * Threads: each judges with its own engine (common/ra_engines.h).  The ledger is
 * guarded by the global mutex.  This process's state (host, ledger,
 * engine, mutexes, alert log) is one mra_state per configuration, reached
 * from every server's record: no globals.
 */

#include "mra.h"
#include "ra_conf_run.h"

#include "ap_mpm.h"
#include "mpm_common.h"
#include "http_main.h"
#include "util_mutex.h"
#include "mod_status.h"

#include "apr_shm.h"

#include "resolver/ra_ares_thread.h"


#define MRA_MUTEX_TYPE    "robots-audit"
#define MRA_RETAINED_KEY  "mod_robots_audit-retained"
#define MRA_STATE_KEY     "mod_robots_audit-state"

_Static_assert(APLOG_ERR == RA_LOG_ERR && APLOG_WARNING == RA_LOG_WARN
               && APLOG_NOTICE == RA_LOG_NOTICE && APLOG_INFO == RA_LOG_INFO
               && APLOG_DEBUG == RA_LOG_DEBUG,
               "RA_LOG_* and APLOG_* are both syslog's levels");

/* What outlives a restart (and this DSO): APR objects only. */
typedef struct {
    apr_shm_t           *shm;
    apr_global_mutex_t  *mutex;
    apr_size_t           size;
} mra_retained;


/* ---- the host ----------------------------------------------------------- */

/* where: the request_rec a line is about, or NULL: the server in h->ctx
 * (a virtual host's lint), else the main server */
static void
mra_host_log(const ra_host_t *h, void *where, ra_log_level_e level,
    ra_str_t line)
{
    if (where != NULL) {
        ap_log_rerror(APLOG_MARK, (int) level, 0, (request_rec *) where,
                      "%.*s", (int) line.len, (const char *) line.data);
    } else {
        ap_log_error(APLOG_MARK, (int) level, 0,
                     h->ctx != NULL ? h->ctx : ap_server_conf, "%.*s",
                     (int) line.len, (const char *) line.data);
    }
}

static int64_t
mra_host_now(const ra_host_t *h)
{
    (void) h;
    return (int64_t) (apr_time_now() / 1000);
}

/* The ledger's global mutex, which a threaded child's threads reach one
 * at a time (ra_engines_ledger_lock()). */
static void
mra_lock(void *ctx)
{
    apr_status_t   rv;
    mra_state     *st = ctx;

    rv = apr_global_mutex_lock(st->mutex);
    if (rv != APR_SUCCESS) {
        MRA_LOG(APLOG_ERR, rv, ap_server_conf, RA_TAG_LOCK,
                "cannot take the ledger mutex");
    }
}

static void
mra_unlock(void *ctx)
{
    (void) apr_global_mutex_unlock(((mra_state *) ctx)->mutex);
}

/* apr_palloc() aligns to 8 bytes; the core wants memory aligned for any
 * object (max_align_t: 16), as ra_pool's chunks are (UBSan: misaligned
 * ra_pool_chunk_t, scripts/san-modules.sh apache) */
static void *
mra_pool_alloc(void *ctx, size_t size)
{
    char  *p = apr_palloc(ctx, size + 15);

    return p != NULL ? (void *) (((uintptr_t) p + 15) & ~(uintptr_t) 15)
                     : NULL;
}

ra_alloc_t *
mra_pool_allocator(apr_pool_t *p)
{
    ra_alloc_t  *a = apr_pcalloc(p, sizeof(ra_alloc_t));

    a->alloc = mra_pool_alloc;
    a->ctx = p;
    return a;
}

/* ---- directives --------------------------------------------------------- */

static void *
mra_create_dir_conf(apr_pool_t *p, char *dir)
{
    mra_dir_conf  *c = apr_palloc(p, sizeof(mra_dir_conf));

    (void) dir;
    ra_conf_scope_init(&c->conf);
    return c;
}

static void *
mra_merge_dir_conf(apr_pool_t *p, void *basev, void *addv)
{
    mra_dir_conf  *c = apr_palloc(p, sizeof(mra_dir_conf));

    ra_conf_scope_merge(&c->conf, &((mra_dir_conf *) basev)->conf,
                        &((mra_dir_conf *) addv)->conf);
    return c;
}

/* The module's state for this configuration: one in pconf, made with the
 * main server's record, which every virtual host's points to as well. */
static mra_state *
mra_state_get(apr_pool_t *pconf)
{
    void       *v = NULL;
    mra_state  *st;

    (void) apr_pool_userdata_get(&v, MRA_STATE_KEY, pconf);
    if (v != NULL) {
        return v;
    }
    st = apr_pcalloc(pconf, sizeof(mra_state));
    /* httpd escapes error-log lines itself */
    ra_host_server_init(&st->host, mra_host_log, mra_host_now, 1);
    st->filter = ap_get_output_filter_handle(MRA_FILTER);
    ra_engines_lock_init(&st->lock, &st->host, mra_lock, mra_unlock, st);
    ra_conf_main_init(&st->conf, &st->host, mra_pool_allocator(pconf));
    (void) apr_pool_userdata_setn(st, MRA_STATE_KEY, NULL, pconf);
    return st;
}

static void *
mra_create_srv_conf(apr_pool_t *p, server_rec *s)
{
    mra_srv_conf  *c = apr_pcalloc(p, sizeof(mra_srv_conf));

    (void) s;
    c->st = mra_state_get(p);
    return c;
}

/* RobotsAuditRobotsFile belongs to the server it is written in: a virtual
 * host does not inherit the main server's file (as nginx's server-level
 * robots_audit_robots_file); the global settings are the module's
 * state's.  Its own record, which the core's list of servers with a
 * robots file points to. */
static void *
mra_merge_srv_conf(apr_pool_t *p, void *basev, void *addv)
{
    (void) p;
    (void) basev;
    return addv;
}

/* a file's word as httpd reads it: relative to ServerRoot */
static const char *
mra_path(void *ctx, ra_str_t word)
{
    return ap_server_root_relative(ctx, apr_pstrmemdup(ctx,
                                   (const char *) word.data, word.len));
}

/* Every directive: its words to the core (common/ra_directive.h), which
 * reads, checks and keeps them and words what is wrong (httpd has counted
 * them); then what only httpd does with the value. */
static const char *
mra_directive(cmd_parms *cmd, void *dv, int n, char *const *w)
{
    int                 i, enforced;
    ra_buf_t            msg;
    ra_str_t           *words;
    const char         *err;
    ra_directive_cx_t   cx;
    ra_directive_e      id = (ra_directive_e) (intptr_t) cmd->info;
    mra_state          *st = mra_st(cmd->server);

    if (ra_directive_level(RA_DIALECT_APACHE, id) == RA_CONF_MAIN
        && (err = ap_check_cmd_context(cmd, GLOBAL_ONLY)) != NULL)
    {
        return err;
    }
    words = apr_palloc(cmd->temp_pool, (apr_size_t) n * sizeof(*words));
    for (i = 0; i < n; i++) {
        words[i] = ra_str_z(w[i]);
    }
    ra_directive_cx_init(&cx, RA_DIALECT_APACHE, &st->conf,
                         &mra_sconf(cmd->server)->conf,
                         &((mra_dir_conf *) dv)->conf);
    cx.path = mra_path;
    cx.path_ctx = cmd->pool;
    cx.server_ctx = cmd->server;        /* its virtual host's error log */
    cx.resolver_check = ra_ares_check;
    enforced = st->conf.enforce_wanted;
    ra_buf_init(&msg, mra_pool_allocator(cmd->temp_pool), 0, 0);
    if (ra_directive_set(&cx, id, words, (size_t) n, &msg) != RA_OK) {
        return msg.len ? apr_pstrmemdup(cmd->pool, (const char *) msg.data,
                                        msg.len) : "out of memory";
    }
    if (!enforced && st->conf.enforce_wanted) {
        /* fixups only where something is enforced: every request asks
         * every fixups hook.  Registered once a configuration pass (hooks
         * are cleared before each, and each has a new state) and sorted
         * with the others after the directives are read. */
        ap_hook_fixups(mra_fixups, NULL, NULL, APR_HOOK_LAST);
    }
    return NULL;
}

/* httpd's kinds of handler, by how many words it counts */
static const char *
mra_directive1(cmd_parms *cmd, void *dv, const char *word)
{
    return mra_directive(cmd, dv, 1, (char *const *) &word);
}

static const char *
mra_directive2(cmd_parms *cmd, void *dv, const char *a, const char *b)
{
    const char  *w[2] = { a, b };

    return mra_directive(cmd, dv, 2, (char *const *) w);
}

static const char *
mra_directive_flag(cmd_parms *cmd, void *dv, int on)
{
    const char  *w = on ? "on" : "off";

    return mra_directive(cmd, dv, 1, (char *const *) &w);
}

/* the core's rows (common/ra_directive.h) in httpd's terms */
#define MRA_COMMAND(id, kind, arg, nname, nwhere, nargs, name, where, args, \
    help)                                                                   \
    MRA_IN_##where(MRA_INIT_##args, name, RA_DIRECTIVE_##id, help)
#define MRA_IN_GLOBAL(init, name, id, help) init(name, id, RSRC_CONF, help)
#define MRA_IN_SERVER(init, name, id, help) init(name, id, RSRC_CONF, help)
#define MRA_IN_DIR(init, name, id, help)                                    \
    init(name, id, RSRC_CONF | ACCESS_CONF, help)
#define MRA_IN_NONE(init, name, id, help)
#define MRA_INIT_TAKE1(name, id, where, help)                               \
    AP_INIT_TAKE1(name, mra_directive1, (void *) (intptr_t) id, where, help),
#define MRA_INIT_ITERATE(name, id, where, help)                             \
    AP_INIT_ITERATE(name, mra_directive1, (void *) (intptr_t) id, where,   \
                    help),
#define MRA_INIT_TAKE2(name, id, where, help)                               \
    AP_INIT_TAKE2(name, mra_directive2, (void *) (intptr_t) id, where, help),
#define MRA_INIT_ARGV(name, id, where, help)                                \
    AP_INIT_TAKE_ARGV(name, mra_directive, (void *) (intptr_t) id, where, help),
#define MRA_INIT_FLAG(name, id, where, help)                                \
    AP_INIT_FLAG(name, mra_directive_flag, (void *) (intptr_t) id, where,  \
                 help),

static const command_rec mra_cmds[] = {
    RA_DIRECTIVES(MRA_COMMAND)
    { NULL }
};



/* ---- startup ------------------------------------------------------------ */

static int
mra_pre_config(apr_pool_t *pconf, apr_pool_t *plog, apr_pool_t *ptemp)
{
    apr_status_t  rv;

    (void) plog;
    (void) ptemp;
    rv = ap_mutex_register(pconf, MRA_MUTEX_TYPE, NULL, APR_LOCK_DEFAULT, 0);
    if (rv != APR_SUCCESS) {
        MRA_LOG(APLOG_CRIT, rv, NULL, RA_TAG_MUTEX,
                "cannot register the mutex type " MRA_MUTEX_TYPE);
        return !OK;
    }
    return OK;
}

/* Runs at apache2ctl -t and before every start and restart: the tables
 * compile, and under -t the robots.txt files are linted to the console. */
static int
mra_check_config(apr_pool_t *pconf, apr_pool_t *plog, apr_pool_t *ptemp,
    server_rec *s)
{
    (void) pconf;
    (void) plog;
    (void) ptemp;
    /* the crawler table is complete once every directive is read */
    if (ra_conf_compile(&mra_st(s)->conf, &mra_st(s)->host, NULL) != RA_OK) {
        return !OK;
    }
    if (ap_state_query(AP_SQ_RUN_MODE) == AP_SQ_RM_CONFIG_TEST) {
        ra_conf_robots_lint(&mra_st(s)->conf, &mra_st(s)->host, NULL);
    }
    return OK;
}

/* Finds the retained segment and mutex, or makes new ones. */
static int
mra_zone_init(server_rec *s, apr_size_t size)
{
    apr_status_t   rv;
    mra_retained  *rd;
    apr_pool_t    *pproc = s->process->pool;
    mra_state     *st = mra_st(s);

    rd = ap_retained_data_get(MRA_RETAINED_KEY);
    if (rd == NULL) {
        rd = ap_retained_data_create(MRA_RETAINED_KEY, sizeof(mra_retained));
        memset(rd, 0, sizeof(*rd));
    }

    if (ra_setup_zone(&st->ledger, &st->host, ra_str_z(MRA_ZONE_NAME),
                      rd->shm != NULL ? apr_shm_baseaddr_get(rd->shm) : NULL,
                      size, rd->shm != NULL ? rd->size : 0, 1) == RA_OK)
    {
        st->mutex = rd->mutex;
        return OK;
    }
    if (rd->shm != NULL) {
        /* Old children keep their own mapping of the old segment (and the
         * old mutex, which is left alone for them); the parent lets go of
         * the segment only. */
        (void) apr_shm_destroy(rd->shm);
        rd->shm = NULL;
        rd->mutex = NULL;
    }

    rv = apr_shm_create(&rd->shm, size, NULL, pproc);
    if (rv != APR_SUCCESS) {
        MRA_LOG(APLOG_EMERG, rv, s, RA_TAG_ZONE_CREATE, "cannot create a "
                "shared segment of %lu bytes (RobotsAuditZoneSize)",
                (unsigned long) size);
        rd->shm = NULL;
        return !OK;
    }
    /* a new segment only: the counters of the state file come back */
    if (ra_setup_ledger_new(&st->ledger, apr_shm_baseaddr_get(rd->shm), size,
                            &st->host, ra_str_z(MRA_ZONE_NAME), NULL, NULL,
                            st->conf.state_file) != RA_OK)
    {
        return !OK;
    }
    rd->size = size;
    rv = ap_global_mutex_create(&rd->mutex, NULL, MRA_MUTEX_TYPE, NULL, s,
                                pproc, 0);
    if (rv != APR_SUCCESS) {
        MRA_LOG(APLOG_EMERG, rv, s, RA_TAG_MUTEX, "cannot create the ledger "
                "mutex");
        return !OK;
    }
    st->mutex = rd->mutex;
    return OK;
}

/*
 * RobotsAuditState is written by the parent, which alone outlives every
 * child and never serves a request: from the monitor hook (run about
 * every ten seconds) when the interval is due, and when the
 * configuration's pool goes (ra_ledger_saver_end()), at a stop (after
 * the children are gone: nothing is lost) and at a restart.  Children
 * never run pconf's cleanups.
 */
static int
mra_monitor(apr_pool_t *p, server_rec *s)
{
    mra_state  *st = mra_st(s);

    (void) p;
    ra_ledger_saver_tick(&st->saver, ra_host_now(&st->host));
    return DECLINED;
}

/* a threaded child's engines go first: they share the child's gate */
static apr_status_t
mra_audit_cleanup(void *data)
{
    mra_state  *st = data;

    ra_engines_destroy(st->engines);
    st->engines = NULL;
    ra_audit_destroy(st->audit);
    st->audit = NULL;
    return APR_SUCCESS;
}

/* This process's judge, destroyed with p; NULL when out of memory. */
static ra_audit_t *
mra_audit_make(apr_pool_t *p, server_rec *s)
{
    mra_srv_conf  *sc = mra_sconf(s);
    mra_state     *st = sc->st;

    st->audit = ra_conf_engine(&st->conf, &st->audit_conf, &st->host,
                               ra_str_z(MRA_ZONE_NAME), &st->ledger);
    if (st->audit != NULL) {
        apr_pool_cleanup_register(p, st, mra_audit_cleanup,
                                  apr_pool_cleanup_null);
    }
    return st->audit;
}

/* The file or program (ra_conf_log_open_pt) of a log, opened from pconf
 * on every start and graceful restart: unbuffered, file or pipe, the
 * core writes its descriptor */
static int
mra_log_open(void *ctx, unsigned which, const char *path, int *fd)
{
    piped_log     *pl;
    apr_file_t    *f = NULL;
    apr_status_t   rv = APR_SUCCESS;
    server_rec    *s = ctx;
    apr_pool_t    *pconf = s->process->pconf;

    if (path[0] == '|') {
        pl = ap_open_piped_log(pconf, ra_logfile_target(path));
        f = pl != NULL ? ap_piped_log_write_fd(pl) : NULL;
    } else {
        rv = apr_file_open(&f, path, APR_FOPEN_WRITE | APR_FOPEN_APPEND
                           | APR_FOPEN_CREATE | APR_FOPEN_LARGEFILE,
                           APR_OS_DEFAULT, pconf);
    }
    if (rv != APR_SUCCESS || f == NULL) {
        ap_log_error(APLOG_MARK, APLOG_EMERG, rv, s, "%s%s",
                     ra_logfile_unopened(which, path),
                     ra_logfile_target(path));
        return RA_ERROR;
    }
    (void) apr_os_file_get(fd, f);
    return RA_OK;
}

/* A virtual host's names: ServerName, then its ServerAlias names; not
 * those with a wildcard, which httpd keeps apart (wild_names) and the
 * core would skip (ra_sitenames_add()). */
static ra_str_t
mra_server_name(const void *list, size_t i)
{
    return ra_str_z(((char *const *) list)[i]);
}

static int
mra_post_config(apr_pool_t *pconf, apr_pool_t *plog, apr_pool_t *ptemp,
    server_rec *s)
{
    server_rec        *vs;
    mra_srv_conf      *sc = mra_sconf(s);
    mra_state         *st = sc->st;
    const ra_alloc_t  *a = mra_pool_allocator(pconf);

    (void) plog;
    (void) ptemp;
    /* the first pass only checks the configuration */
    if (ap_state_query(AP_SQ_MAIN_STATE) == AP_SQ_MS_CREATE_PRE_CONFIG) {
        return OK;
    }
    if (ra_conf_compile(&st->conf, &st->host, NULL) != RA_OK) {
        return !OK;
    }
    /* every server's robots file, into its own error log */
    ra_conf_robots_lint(&st->conf, &st->host, NULL);
    if (!st->conf.zone_wanted) {
        return OK;
    }
    for (vs = s; vs != NULL; vs = vs->next) {
        if (ra_sitenames_build(&mra_sconf(vs)->conf.names, a,
                               ra_str_z(vs->server_hostname), mra_server_name,
                               vs->names ? vs->names->elts : NULL,
                               vs->names ? (size_t) vs->names->nelts : 0)
            != RA_OK)
        {
            MRA_LOG(APLOG_EMERG, 0, vs, RA_TAG_NOMEM, "out of memory");
            return !OK;
        }
    }
    if (mra_zone_init(s, ra_conf_zone_size(&st->conf)) != OK) {
        return !OK;
    }
    /* the alert, evidence and event logs (a syslog stream's socket is
     * closed with pconf) */
    apr_pool_cleanup_register(pconf, &st->conf, ra_conf_events_close,
                              apr_pool_cleanup_null);
    if (ra_conf_logs_open(&st->conf, &st->logs, st->fds, &st->host,
                          mra_log_open, s) != RA_OK
        || mra_audit_make(pconf, s) == NULL)
    {
        return !OK;
    }

    /* the configured files: each site's version until one is captured */
    ra_conf_robots_seed(&st->conf, st->audit, ra_host_now(&st->host));
    if (ra_ledger_saver_init(&st->saver, &st->ledger, &st->host,
                             ra_str_z(MRA_ZONE_NAME), st->conf.state_file,
                             st->conf.state_interval))
    {
        apr_pool_cleanup_register(pconf, &st->saver, ra_ledger_saver_end,
                                  apr_pool_cleanup_null);
    }
    return OK;
}

static void
mra_child_init(apr_pool_t *pchild, server_rec *s)
{
    int                   threaded = 0;
    apr_status_t          rv;
    mra_state            *st = mra_st(s);

    if (st->audit == NULL) {
        return;
    }
    st->audit = NULL;       /* the parent's came over with fork() */
    rv = apr_global_mutex_child_init(&st->mutex,
                                     apr_global_mutex_lockfile(st->mutex),
                                     pchild);
    if (rv != APR_SUCCESS) {
        MRA_LOG(APLOG_CRIT, rv, s, RA_TAG_CHILD_ATTACH, "cannot attach the "
                "ledger mutex; this child does not audit");
        return;
    }
    if (mra_audit_make(pchild, s) == NULL) {
        return;
    }
    if (ap_mpm_query(AP_MPMQ_IS_THREADED, &threaded) == APR_SUCCESS
        && threaded != AP_MPMQ_NOT_SUPPORTED
        && ra_engines_start(&st->engines, st->audit, &st->audit_conf,
                            &st->ledger, &st->lock, &st->host) != RA_OK)
    {
        (void) apr_pool_cleanup_run(pchild, st, mra_audit_cleanup);
        return;
    }
    /* reverse DNS off the request path: a resolver thread for this child
     * (none without RobotsAuditResolver), stopped before pchild's
     * subpools and the engine go */
    if (ra_ares_thread_host_start(&st->host, st->conf.resolver, &st->audit)
        == RA_OK)
    {
        apr_pool_pre_cleanup_register(pchild, &st->host,
                                      ra_ares_thread_host_stop);
    }
}


/* ---- module ------------------------------------------------------------- */

static void
mra_register_hooks(apr_pool_t *p)
{
    (void) p;
    ap_hook_pre_config(mra_pre_config, NULL, NULL, APR_HOOK_MIDDLE);
    ap_hook_check_config(mra_check_config, NULL, NULL, APR_HOOK_MIDDLE);
    ap_hook_post_config(mra_post_config, NULL, NULL, APR_HOOK_MIDDLE);
    ap_hook_child_init(mra_child_init, NULL, NULL, APR_HOOK_MIDDLE);
    ap_hook_monitor(mra_monitor, NULL, NULL, APR_HOOK_MIDDLE);
    /* fixups: by RobotsAuditEnforce (mra_directive()) */
    ap_hook_handler(mra_status_handler, NULL, NULL, APR_HOOK_MIDDLE);
    ap_hook_insert_filter(mra_insert_filter, NULL, NULL, APR_HOOK_MIDDLE);
    ap_hook_insert_error_filter(mra_insert_filter, NULL, NULL,
                                APR_HOOK_MIDDLE);
    ap_hook_log_transaction(mra_log_transaction, NULL, NULL, APR_HOOK_MIDDLE);
    ap_register_output_filter(MRA_FILTER, mra_capture_filter, NULL,
                              AP_FTYPE_CONTENT_SET);
    APR_OPTIONAL_HOOK(ap, status_hook, mra_status_hook, NULL, NULL,
                      APR_HOOK_MIDDLE);
}

module AP_MODULE_DECLARE_DATA robots_audit_module = {
    STANDARD20_MODULE_STUFF,
    mra_create_dir_conf,
    mra_merge_dir_conf,
    mra_create_srv_conf,
    mra_merge_srv_conf,
    mra_cmds,
    mra_register_hooks,
    /* every virtual host its own record (mra_merge_srv_conf): its names,
     * and no RobotsAuditRobotsFile of the main server's */
    AP_MODULE_FLAG_ALWAYS_MERGE
};
