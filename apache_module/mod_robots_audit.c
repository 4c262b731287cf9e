/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mod_robots_audit: the robots-audit core (common/) inside Apache httpd 2.4.
 * This file: the module record, the directives, startup and child init;
 * mra.h lists the others.
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
 * Threads: each judges with its own engine (mra_engine.c).  The ledger is
 * guarded by the global mutex.  This process's state (host, ledger,
 * engine, mutexes, alert log) is one mra_state per configuration, reached
 * from every server's record: no globals.
 */

#include "mra.h"

#include "ap_mpm.h"
#include "http_main.h"
#include "util_mutex.h"
#include "mod_status.h"

#include "apr_shm.h"

#include <pthread.h>

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

/* the alert log: ra_outcome_alert() writes each line whole */
static int
mra_alert_write(void *file, const void *p, size_t *n)
{
    apr_size_t    k = *n;
    apr_status_t  rv;

    rv = apr_file_write(file, p, &k);
    *n = k;
    return rv == APR_SUCCESS ? 0 : (int) APR_TO_OS_ERROR(rv);
}

static int64_t
mra_host_now(const ra_host_t *h)
{
    (void) h;
    return (int64_t) (apr_time_now() / 1000);
}

/* In a threaded child, its threads queue for the ledger on a mutex of the
 * process first (adaptive: it spins a little before it sleeps), so that
 * one thread per child at most waits on the global mutex, a robust
 * priority-inheriting one whose every contended lock and unlock is a
 * system call (with 64 threads, three per request: a fifth of the CPU
 * time under wrk).  A thread dies only with its process: nothing to
 * recover there. */
static void
mra_lock(void *ctx)
{
    apr_status_t   rv;
    mra_state     *st = ctx;

    if (st->child_locks) {
        (void) pthread_mutex_lock(&st->child_lock);
    }
    rv = apr_global_mutex_lock(st->mutex);
    if (rv != APR_SUCCESS) {
        MRA_LOG(APLOG_ERR, rv, ap_server_conf, RA_TAG_LOCK,
                "cannot take the ledger mutex");
    }
}

static void
mra_unlock(void *ctx)
{
    mra_state  *st = ctx;

    (void) apr_global_mutex_unlock(st->mutex);
    if (st->child_locks) {
        (void) pthread_mutex_unlock(&st->child_lock);
    }
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

/* "what: " and a core message about a configured file, tagged as nginx
 * tags it, as a string in p. */
static const char *
mra_why(apr_pool_t *p, const char *what, ra_buf_t *why)
{
    return apr_psprintf(p, "%s: " RA_LOG_PREFIX "[" RA_TAG_CONFIG_FILE "] "
                        "%.*s", what, (int) why->len,
                        why->data != NULL ? (const char *) why->data
                                          : "out of memory");
}


/* ---- directives --------------------------------------------------------- */

static void *
mra_create_dir_conf(apr_pool_t *p, char *dir)
{
    mra_dir_conf  *c = apr_palloc(p, sizeof(mra_dir_conf));

    (void) dir;
    c->enabled = -1;
    c->enforce = RA_ENFORCE_OFF;
    return c;
}

static void *
mra_merge_dir_conf(apr_pool_t *p, void *basev, void *addv)
{
    mra_dir_conf  *base = basev, *add = addv;
    mra_dir_conf  *c = apr_palloc(p, sizeof(mra_dir_conf));

    c->enabled = add->enabled != -1 ? add->enabled : base->enabled;
    c->enforce = add->enforce != RA_ENFORCE_OFF ? add->enforce : base->enforce;
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
    st->host.log = mra_host_log;
    st->host.log_escapes = 1;           /* httpd escapes error-log lines */
    st->host.now = mra_host_now;
    st->alert_log.write = mra_alert_write;
    st->host.read_file = NULL;          /* the core's POSIX reader */
    st->host.heap = ra_malloc_allocator;
    ra_host_crypto_libcrypto(&st->host);    /* Web Bot Auth */
    st->host.lock.lock = mra_lock;
    st->host.lock.unlock = mra_unlock;
    st->host.lock.ctx = st;
    (void) apr_pool_userdata_setn(st, MRA_STATE_KEY, NULL, pconf);
    return st;
}

static void *
mra_create_srv_conf(apr_pool_t *p, server_rec *s)
{
    mra_srv_conf  *c = apr_pcalloc(p, sizeof(mra_srv_conf));

    (void) s;
    c->st = mra_state_get(p);
    c->values.alert_interval = -1;
    return c;
}

/* RobotsAuditRobotsFile belongs to the server it is written in: a virtual
 * host does not inherit the main server's file (as nginx's server-level
 * robots_audit_robots_file); the global settings are read from the main
 * server's record only. */
static void *
mra_merge_srv_conf(apr_pool_t *p, void *basev, void *addv)
{
    mra_srv_conf  *c = apr_palloc(p, sizeof(mra_srv_conf));

    (void) basev;
    *c = *(mra_srv_conf *) addv;
    return c;
}


static const char *
mra_set_enabled(cmd_parms *cmd, void *dv, int on)
{
    ((mra_dir_conf *) dv)->enabled = on;
    mra_st(cmd->server)->zone_wanted |= on;
    return NULL;
}

/* one word of RobotsAuditEnforce Off | On | WORD...: the core reads it */
static const char *
mra_set_enforce(cmd_parms *cmd, void *dv, const char *word)
{
    const char  *why;
    mra_state   *st = mra_st(cmd->server);

    if (ra_enforce_word(&((mra_dir_conf *) dv)->enforce, mra_cstr(word), &why)
        != RA_OK)
    {
        return apr_psprintf(cmd->pool, "%s: '%s': %s", cmd->cmd->name, word,
                            why);
    }
    if (!st->enforce_wanted && ra_enforce_any(((mra_dir_conf *) dv)->enforce))
    {
        /* fixups only where something is enforced: every request asks
         * every fixups hook.  Registered once a configuration pass (hooks
         * are cleared before each, and each has a new state) and sorted
         * with the others after the directives are read. */
        ap_hook_fixups(mra_fixups, NULL, NULL, APR_HOOK_LAST);
        st->enforce_wanted = 1;
    }
    return NULL;
}

static const char *
mra_set_zone_size(cmd_parms *cmd, void *dv, const char *arg)
{
    uint64_t     n;
    ra_buf_t     why;
    const char  *err = ap_check_cmd_context(cmd, GLOBAL_ONLY);

    (void) dv;
    if (err != NULL) {
        return err;
    }
    if (ra_parse_size(mra_cstr(arg), &n) != RA_OK) {
        return apr_psprintf(cmd->pool, "RobotsAuditZoneSize: '%s' is not "
                            "a size (bytes, or a number with k, m or g)",
                            arg);
    }
    ra_buf_init(&why, mra_pool_allocator(cmd->temp_pool), 0, 0);
    if (ra_zone_size_check(n, 0, &why) != RA_OK) {
        /* the core's predicate, after the value */
        return apr_psprintf(cmd->pool, "RobotsAuditZoneSize: %s %.*s", arg,
                            (int) why.len, (const char *) why.data);
    }
    mra_sconf(cmd->server)->zone_size = n;
    mra_st(cmd->server)->zone_wanted = 1;
    return NULL;
}

/* RobotsAuditCrawlers and RobotsAuditIPRanges: one file into the tables */
static const char *
mra_set_table_file(cmd_parms *cmd, void *dv, const char *arg)
{
    int            rc;
    ra_buf_t       why;
    const char    *path, *err = ap_check_cmd_context(cmd, GLOBAL_ONLY);
    mra_srv_conf  *sc = mra_sconf(cmd->server);

    (void) dv;
    if (err != NULL) {
        return err;
    }
    path = ap_server_root_relative(cmd->temp_pool, arg);
    if (path == NULL) {
        return apr_psprintf(cmd->pool, "%s: bad path %s", cmd->cmd->name,
                            arg);
    }
    ra_buf_init(&why, mra_pool_allocator(cmd->temp_pool), 0, 0);
    if (sc->setup == NULL) {
        sc->setup = apr_pcalloc(cmd->pool, sizeof(ra_setup_t));
        ra_setup_init(sc->setup, &sc->st->host,
                      mra_pool_allocator(cmd->pool));
        sc->setup->lenient = 1;         /* data files never stop Apache */
    }
    rc = ra_setup_table_file(sc->setup, (ra_setup_table_e) (intptr_t)
                             cmd->info, path, &why);
    return rc == RA_OK ? NULL : mra_why(cmd->pool, cmd->cmd->name, &why);
}

static const char *
mra_set_robots_file(cmd_parms *cmd, void *dv, const char *arg)
{
    ra_buf_t       why;
    const char    *path;
    mra_srv_conf  *sc = mra_sconf(cmd->server);

    (void) dv;
    path = ap_server_root_relative(cmd->pool, arg);
    if (path == NULL) {
        return apr_psprintf(cmd->pool, "RobotsAuditRobotsFile: bad path %s",
                            arg);
    }
    sc->robots = apr_pcalloc(cmd->pool, sizeof(ra_robots_file_t));
    ra_buf_init(&why, mra_pool_allocator(cmd->temp_pool), 0, 0);
    if (ra_robots_file_load(&sc->st->host, mra_pool_allocator(cmd->pool), path,
                            sc->robots, &why) != RA_OK)
    {
        return mra_why(cmd->pool, "RobotsAuditRobotsFile", &why);
    }
    return NULL;
}

static const char *
mra_set_alert_log(cmd_parms *cmd, void *dv, const char *arg)
{
    mra_srv_conf  *sc = mra_sconf(cmd->server);
    const char    *err = ap_check_cmd_context(cmd, GLOBAL_ONLY);

    (void) dv;
    if (err != NULL) {
        return err;
    }
    if (arg[0] == '|') {
        if (arg[1] == '\0') {
            return "RobotsAuditAlertLog: '|' needs a program";
        }
        sc->alert_log = arg;
        return NULL;
    }
    sc->alert_log = ap_server_root_relative(cmd->pool, arg);
    if (sc->alert_log == NULL) {
        return apr_psprintf(cmd->pool, "RobotsAuditAlertLog: bad path %s",
                            arg);
    }
    return NULL;
}

static const char *
mra_set_resolver(cmd_parms *cmd, void *dv, const char *arg)
{
    mra_srv_conf  *sc = mra_sconf(cmd->server);
    const char    *err = ap_check_cmd_context(cmd, GLOBAL_ONLY);

    (void) dv;
    if (strcmp(arg, "system") == 0) {
        arg = "";                       /* /etc/resolv.conf's servers */
    }
    if (err == NULL && (err = mra_rdns_check(cmd->pool, arg)) != NULL) {
        err = apr_psprintf(cmd->pool, "RobotsAuditResolver %s: %s", arg,
                           err);
    }
    sc->resolver = arg;
    return err;
}

static const char *
mra_set_alert_interval(cmd_parms *cmd, void *dv, const char *arg)
{
    mra_srv_conf  *sc = mra_sconf(cmd->server);
    const char    *err = ap_check_cmd_context(cmd, GLOBAL_ONLY);

    (void) dv;
    if (err != NULL) {
        return err;
    }
    if (ra_parse_msec(mra_cstr(arg), cmd->info != NULL
                      ? &sc->values.sig_max_age : &sc->values.alert_interval)
        != RA_OK)
    {
        return apr_psprintf(cmd->pool, "%s: '%s' is not a time (250ms, 30s, "
                            "5m, 1h, 1d, 1m30s; a bare number is seconds)",
                            cmd->cmd->name, arg);
    }
    return NULL;
}

static const char *
mra_set_alert_budget(cmd_parms *cmd, void *dv, const char *site,
    const char *total)
{
    const char  *err = ap_check_cmd_context(cmd, GLOBAL_ONLY);

    (void) dv;
    if (err == NULL && (err = ra_alert_budget_parse(mra_cstr(site),
            mra_cstr(total), &mra_sconf(cmd->server)->values.alert_budget)) != NULL) {
        err = apr_pstrcat(cmd->pool, "RobotsAuditAlertBudget ", err, NULL);
    }
    return err;
}

/* one word of RobotsAuditAlertPurposes WORD...: the core reads it (a word
 * may hold several, comma-separated) */
static const char *
mra_set_alert_purposes(cmd_parms *cmd, void *dv, const char *word)
{
    ra_str_t     bad;
    const char  *why, *err = ap_check_cmd_context(cmd, GLOBAL_ONLY);

    (void) dv;
    if (err != NULL) {
        return err;
    }
    why = ra_alert_purposes_parse(mra_cstr(word),
              &mra_sconf(cmd->server)->values.alert_purposes, &bad);
    if (why != NULL) {
        return apr_psprintf(cmd->pool, "%s: '%.*s' %s", cmd->cmd->name,
                            (int) bad.len, (const char *) bad.data, why);
    }
    return NULL;
}

static const command_rec mra_cmds[] = {
    AP_INIT_FLAG("RobotsAudit", mra_set_enabled, NULL, RSRC_CONF | ACCESS_CONF,
        "On to judge and count requests of this server or location "
        "(default Off)"),
    AP_INIT_TAKE1("RobotsAuditZoneSize", mra_set_zone_size, NULL, RSRC_CONF,
        "Size of the shared ledger, bytes or with k, m, g (global; "
        "default 8m, at least 64k)"),
    AP_INIT_TAKE1("RobotsAuditRobotsFile", mra_set_robots_file, NULL,
        RSRC_CONF,
        "The robots.txt this server serves: linted at startup and "
        "apache2ctl -t, and the initial version until one is captured "
        "(server, virtual host)"),
    AP_INIT_TAKE1("RobotsAuditCrawlers", mra_set_table_file, NULL, RSRC_CONF,
        "A crawler file in the format of data/crawlers.txt, added to the "
        "built-in table (global; repeatable)"),
    AP_INIT_ITERATE("RobotsAuditIPRanges", mra_set_table_file,
        (void *) (intptr_t) RA_SETUP_RANGES,
        RSRC_CONF,
        "Published IP-range JSON files, named by base name as the crawler "
        "table names them (global)"),
    AP_INIT_TAKE1("RobotsAuditSignatureKeys", mra_set_table_file,
        (void *) (intptr_t) RA_SETUP_SIG_KEYS,
        RSRC_CONF,
        "A directory of Web Bot Auth key sets, HOST.json for each agent "
        "origin (global)"),
    AP_INIT_TAKE1("RobotsAuditSignatureMaxAge", mra_set_alert_interval,
        "sig", RSRC_CONF,
        "Oldest Web Bot Auth signature accepted, by its created time "
        "(global; default 1d)"),
    AP_INIT_TAKE1("RobotsAuditAlertLog", mra_set_alert_log, NULL, RSRC_CONF,
        "A file, or |program, that gets one JSON line per alert (global)"),
    AP_INIT_TAKE1("RobotsAuditResolver", mra_set_resolver, NULL, RSRC_CONF,
        "ADDR[:PORT] of the DNS server reverse DNS asks, or system "
        "(/etc/resolv.conf's); none: no reverse DNS (global)"),
    AP_INIT_TAKE1("RobotsAuditAlertInterval", mra_set_alert_interval, NULL,
        RSRC_CONF,
        "Least time between two alerts for one (site, crawler): 250ms, 30s, "
        "5m, 1h; 0: every one (global; default 60s)"),
    AP_INIT_TAKE2("RobotsAuditAlertBudget", mra_set_alert_budget, NULL,
        RSRC_CONF, "Alert lines a minute per site and in all, or off "
        "(global; default 60 300)"),
    AP_INIT_ITERATE("RobotsAuditAlertPurposes", mra_set_alert_purposes,
        NULL, RSRC_CONF,
        "The purposes whose violations and impostors alert: search, "
        "ai-training, ..., tool, generic (global; default all)"),
    AP_INIT_ITERATE("RobotsAuditEnforce", mra_set_enforce, NULL,
        RSRC_CONF | ACCESS_CONF,
        "Off, On (= violation), or what to answer 403: violation, "
        "unreachable, impostor (default Off)"),
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

/* The crawler table is complete once every directive is read. */
static int
mra_compile_tables(server_rec *s)
{
    ra_buf_t       why;
    mra_srv_conf  *sc = mra_sconf(s);
    apr_pool_t    *p = s->process->pconf;

    ra_buf_init(&why, mra_pool_allocator(p), 0, 0);
    if (sc->setup == NULL) {
        sc->setup = apr_pcalloc(p, sizeof(ra_setup_t));
        ra_setup_init(sc->setup, &sc->st->host, mra_pool_allocator(p));
        sc->setup->lenient = 1;
    }
    if (ra_setup_compile(sc->setup, &why) == RA_OK) {
        return OK;
    }
    MRA_LOG(APLOG_EMERG, 0, s, RA_TAG_CRAWLERS, "%.*s", (int) why.len,
            why.data != NULL ? (const char *) why.data : "out of memory");
    return !OK;
}

/* Every server's RobotsAuditRobotsFile, linted into its own error log. */
static void
mra_lint_all(server_rec *s)
{
    ra_host_t  h = mra_st(s)->host;

    for (; s != NULL; s = s->next) {
        if (mra_sconf(s)->robots != NULL) {
            h.ctx = s;
            ra_robots_file_lint(&h, NULL, mra_sconf(s)->robots);
        }
    }
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
    if (mra_compile_tables(s) != OK) {
        return !OK;
    }
    if (ap_state_query(AP_SQ_RUN_MODE) == AP_SQ_RM_CONFIG_TEST) {
        mra_lint_all(s);
    }
    return OK;
}

/* Finds the retained segment and mutex, or makes new ones. */
static int
mra_zone_init(server_rec *s, apr_size_t size)
{
    apr_status_t   rv;
    mra_retained  *rd;
    const char    *why = "the zone's size changed";
    apr_pool_t    *pproc = s->process->pool;
    mra_state     *st = mra_st(s);

    rd = ap_retained_data_get(MRA_RETAINED_KEY);
    if (rd == NULL) {
        rd = ap_retained_data_create(MRA_RETAINED_KEY, sizeof(mra_retained));
        memset(rd, 0, sizeof(*rd));
    }

    if (rd->shm != NULL) {
        if (rd->size == size
            && ra_setup_ledger(&st->ledger, apr_shm_baseaddr_get(rd->shm),
                               size, 1, &st->host, mra_cstr(MRA_ZONE_NAME),
                               &why) == RA_OK)
        {
            st->mutex = rd->mutex;
            return OK;
        }
        MRA_LOG(APLOG_WARNING, 0, s, RA_TAG_NEW_LEDGER, "a new ledger "
                "replaces the old one: %s", why);
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
    if (ra_setup_ledger(&st->ledger, apr_shm_baseaddr_get(rd->shm), size, 0,
                        &st->host, mra_cstr(MRA_ZONE_NAME), &why) != RA_OK)
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

static apr_status_t
mra_audit_cleanup(void *data)
{
    mra_state  *st = data;

    ra_audit_destroy(st->audit);
    st->audit = NULL;
    return APR_SUCCESS;
}

/* This process's judge, destroyed with p; NULL when out of memory. */
static ra_audit_t *
mra_audit_make(apr_pool_t *p, server_rec *s)
{
    mra_srv_conf     *sc = mra_sconf(s);
    mra_state        *st = sc->st;
    ra_audit_conf_t   conf;

    ra_setup_audit_conf(&conf, sc->setup, &st->host, mra_cstr(MRA_ZONE_NAME),
                        &sc->values);
    st->audit_conf = conf;
    st->audit = ra_audit_create(&conf, &st->ledger);
    if (st->audit == NULL) {
        MRA_LOG(APLOG_CRIT, 0, s, RA_TAG_NOMEM, "out of memory; this "
                "process does not audit");
        return NULL;
    }
    apr_pool_cleanup_register(p, st, mra_audit_cleanup,
                              apr_pool_cleanup_null);
    return st->audit;
}

static int
mra_open_alert_log(apr_pool_t *pconf, server_rec *s)
{
    piped_log     *pl;
    apr_file_t    *f;
    apr_status_t   rv;
    const char    *path = mra_sconf(s)->alert_log;
    mra_state     *st = mra_st(s);

    if (path == NULL) {
        return OK;
    }
    st->alert_log.name = path;
    if (path[0] == '|') {
        pl = ap_open_piped_log(pconf, path + 1);
        if (pl == NULL) {
            MRA_LOG(APLOG_EMERG, 0, s, RA_TAG_ALERT_LOG, "cannot start the "
                    "alert log program %s", path + 1);
            return !OK;
        }
        st->alert_log.file = ap_piped_log_write_fd(pl);
        return OK;
    }
    rv = apr_file_open(&f, path, APR_FOPEN_WRITE | APR_FOPEN_APPEND
                       | APR_FOPEN_CREATE | APR_FOPEN_LARGEFILE,
                       APR_OS_DEFAULT, pconf);
    if (rv != APR_SUCCESS) {
        MRA_LOG(APLOG_EMERG, rv, s, RA_TAG_ALERT_LOG, "cannot open the alert "
                "log %s", path);
        return !OK;
    }
    st->alert_log.file = f;
    return OK;
}

/* A virtual host's names: ServerName, then its exact ServerAlias names. */
static int
mra_sitenames(server_rec *s, const ra_alloc_t *a)
{
    int                  i, k;
    char               **names;
    ra_sitenames_t      *sn = &mra_sconf(s)->names;
    apr_array_header_t  *lists[2] = { s->names, s->wild_names };

    if (ra_sitenames_init(sn, a, mra_cstr(s->server_hostname)) != RA_OK) {
        return RA_ENOMEM;
    }
    for (k = 0; k < 2; k++) {
        names = lists[k] != NULL ? (char **) lists[k]->elts : NULL;
        for (i = 0; names != NULL && i < lists[k]->nelts; i++) {
            if (ra_sitenames_add(sn, a, mra_cstr(names[i])) != RA_OK) {
                return RA_ENOMEM;
            }
        }
    }
    return RA_OK;
}

static int
mra_post_config(apr_pool_t *pconf, apr_pool_t *plog, apr_pool_t *ptemp,
    server_rec *s)
{
    int                rc;
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
    if (mra_compile_tables(s) != OK) {
        return !OK;
    }
    mra_lint_all(s);
    if (!st->zone_wanted) {
        return OK;
    }
    for (vs = s; vs != NULL; vs = vs->next) {
        if (mra_sitenames(vs, a) != RA_OK) {
            MRA_LOG(APLOG_EMERG, 0, vs, RA_TAG_NOMEM, "out of memory");
            return !OK;
        }
    }
    rc = mra_zone_init(s, sc->zone_size ? (apr_size_t) sc->zone_size
                                        : RA_ZONE_SIZE_DEFAULT);
    if (rc != OK || mra_open_alert_log(pconf, s) != OK
        || mra_audit_make(pconf, s) == NULL)
    {
        return !OK;
    }

    /* the configured files: each site's version until one is captured */
    for (vs = s; vs != NULL; vs = vs->next) {
        sc = mra_sconf(vs);
        if (sc->robots != NULL) {   /* out of memory: the core logs it */
            (void) ra_robots_file_seed(st->audit, sc->names.primary,
                                       sc->robots, ra_host_now(&st->host));
        }
    }
    return OK;
}

static void
mra_child_init(apr_pool_t *pchild, server_rec *s)
{
    int                   threaded = 0;
    apr_status_t          rv;
    mra_state            *st = mra_st(s);
    pthread_mutexattr_t   attr;

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
    if (ap_mpm_query(AP_MPMQ_IS_THREADED, &threaded) == APR_SUCCESS
        && threaded != AP_MPMQ_NOT_SUPPORTED)
    {
        rv = apr_thread_mutex_create(&st->tmutex, APR_THREAD_MUTEX_DEFAULT,
                                     pchild);
        if (rv != APR_SUCCESS) {
            MRA_LOG(APLOG_CRIT, rv, s, RA_TAG_MUTEX, "cannot create a "
                    "thread mutex; this child does not audit");
            return;
        }
        /* adaptive: it spins a little before it sleeps */
        (void) pthread_mutexattr_init(&attr);
#ifdef PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP
        (void) pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ADAPTIVE_NP);
#endif
        (void) pthread_mutex_init(&st->child_lock, &attr);
        (void) pthread_mutexattr_destroy(&attr);
        st->child_locks = 1;
    }
    if (mra_audit_make(pchild, s) != NULL) {
        mra_rdns_child_init(pchild, s);
        if (st->tmutex != NULL) {
            /* destroyed before the child's engine, whose gate they share */
            mra_engines_start(pchild, st);
        }
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
    /* fixups: by RobotsAuditEnforce (mra_set_enforce()) */
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
