/*
 * mod_robots_audit: the robots-audit core (common/) inside Apache httpd 2.4.
 *
 *   log_transaction   every request -> ra_audit_request(): verdict, counters,
 *                     alerts (error log at warn, JSON alert log)
 *   output filter     the answer to a main-request GET /robots.txt (static,
 *                     proxied, rewritten, an error document) ->
 *                     ra_audit_robots() at EOS
 *   fixups            RobotsAuditEnforce: judge early, 403 for violations
 *   handler           SetHandler robots-audit-status: HTML, JSON, Prometheus
 *   status_hook       a section in mod_status's /server-status (and ?auto)
 *
 * Shared state: one anonymous shared segment holding the ledger
 * (common/ra_ledger.h: offsets only, never pointers) and one global mutex.
 * Both are created in the parent's post_config (skipping the dry-run pass)
 * from the process pool and kept in retained data, so that a graceful
 * restart, which unloads this DSO and reads the configuration again, finds
 * them and keeps the counters when ra_ledger_check() accepts the segment;
 * children inherit the mapping and re-attach the mutex in child_init.  The
 * process pool releases both when the parent exits.  Nothing this DSO owns
 * (functions, pconf memory) is ever referenced from the process pool.
 *
 * Threads: the core's rule-set cache is per ra_audit_t and not thread-safe,
 * so a child's threads share one ra_audit_t under a thread mutex; the
 * ledger itself is guarded by the global mutex.
 */

#include "httpd.h"
#include "http_config.h"
#include "http_core.h"
#include "http_log.h"
#include "http_protocol.h"
#include "http_request.h"
#include "ap_mpm.h"
#include "util_mutex.h"
#include "mod_status.h"

#include "apr_global_mutex.h"
#include "apr_shm.h"
#include "apr_strings.h"
#include "apr_thread_mutex.h"

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

#include <string.h>

module AP_MODULE_DECLARE_DATA robots_audit_module;

APLOG_USE_MODULE(robots_audit);

#define RA_HANDLER          "robots-audit-status"
#define RA_MUTEX_TYPE       "robots-audit"
#define RA_RETAINED_KEY     "mod_robots_audit-retained"
#define RA_FILTER           "ROBOTS_AUDIT_CAPTURE"
#define RA_NOTE_JUDGED      "robots-audit-judged"
#define RA_NOTE_CAPTURED    "robots-audit-captured"
#define RA_ZONE_DEFAULT     (8u * 1024 * 1024)
#define RA_ALERT_DEFAULT    60000          /* ms */
#define RA_CAPTURE_FIRST    8192           /* first capture buffer */
#define RA_LINT_TAG         "RA200"        /* a lint finding at startup */
#define RA_PAGE_MAX         (256u * 1024 * 1024)   /* as nginx's */

#define RA_UNSET            -1


/* ---- configuration ------------------------------------------------------ */

/* Per directory / location (and a server's defaults). */
typedef struct {
    int  enabled;               /* RobotsAudit */
    int  enforce;               /* RobotsAuditEnforce */
} mra_dir_conf;

/* Per server; the global settings live in the main server's record. */
typedef struct {
    const char       *robots_file;      /* RobotsAuditRobotsFile */
    ra_str_t          robots_body;      /* its first RA_ROBOTS_MAX bytes */
    apr_off_t         robots_size;

    /* main server only */
    apr_size_t        zone_size;        /* 0: unset */
    ra_crawlers_t    *crawlers;
    ra_ranges_t      *ranges;
    const char       *alert_log;
    int64_t           alert_interval;   /* ms; 0: unset */
    ra_alloc_t       *palloc;           /* pconf as an ra_alloc_t */
    int               compiled;
} mra_srv_conf;

/* What outlives a restart (and this DSO): APR objects only. */
typedef struct {
    apr_shm_t           *shm;
    apr_global_mutex_t  *mutex;
    apr_size_t           size;
} mra_retained;

/* Per configuration pass: reset in pre_config. */
static int                   ra_zone_wanted;  /* RobotsAudit On somewhere,
                                                 or RobotsAuditZoneSize */

/* Per process: set in post_config (parent) and child_init (child). */
static mra_srv_conf          *ra_main;         /* the main server's conf */
static apr_global_mutex_t   *ra_mutex;
static ra_ledger_t           ra_ledger;
static int                   ra_have_zone;
static ra_audit_t           *ra_audit;        /* this process's judge */
static apr_thread_mutex_t   *ra_tmutex;       /* NULL: unthreaded */
static apr_file_t           *ra_alert_file;


/* ---- small helpers ------------------------------------------------------ */

/* apr_palloc() aligns to 8 bytes; the core wants memory aligned for any
 * object (max_align_t: 16), as ra_pool's chunks are (UBSan: misaligned
 * ra_pool_chunk_t, scripts/san-modules.sh apache) */
static void *
mra_pool_alloc(void *ctx, size_t size)
{
    char  *p;

    p = apr_palloc(ctx, size + 15);
    if (p == NULL) {
        return NULL;
    }
    return (void *) (((uintptr_t) p + 15) & ~(uintptr_t) 15);
}

static ra_alloc_t *
mra_make_alloc(apr_pool_t *p)
{
    ra_alloc_t  *a = apr_pcalloc(p, sizeof(ra_alloc_t));

    a->alloc = mra_pool_alloc;
    a->free = NULL;
    a->ctx = p;
    return a;
}

static ra_str_t
mra_cstr(const char *s)
{
    return s != NULL ? ra_str(s, strlen(s)) : ra_str("", 0);
}

static int64_t
mra_now_ms(void)
{
    return (int64_t) (apr_time_now() / 1000);
}

static const char *
mra_buf_text(ra_buf_t *b)
{
    ra_buf_ch(b, '\0');
    return b->failed || b->data == NULL ? NULL : (const char *) b->data;
}

static void
mra_lock(void *ctx)
{
    apr_status_t  rv;

    (void) ctx;
    rv = apr_global_mutex_lock(ra_mutex);
    if (rv != APR_SUCCESS) {
        ap_log_error(APLOG_MARK, APLOG_ERR, rv, NULL,
                     "robots-audit: [RA301] cannot take the ledger mutex");
    }
}

static void
mra_unlock(void *ctx)
{
    (void) ctx;
    (void) apr_global_mutex_unlock(ra_mutex);
}

static void
mra_judge_lock(void)
{
    if (ra_tmutex != NULL) {
        (void) apr_thread_mutex_lock(ra_tmutex);
    }
}

static void
mra_judge_unlock(void)
{
    if (ra_tmutex != NULL) {
        (void) apr_thread_mutex_unlock(ra_tmutex);
    }
}

static mra_srv_conf *
mra_sconf(const server_rec *s)
{
    return ap_get_module_config(s->module_config, &robots_audit_module);
}

static mra_dir_conf *
mra_dconf(ap_conf_vector_t *v)
{
    return ap_get_module_config(v, &robots_audit_module);
}

/* Reads at most max bytes of path into p; *size gets the file's size. */
static const char *
mra_read_file(apr_pool_t *p, const char *path, apr_size_t max,
    ra_str_t *out, apr_off_t *size)
{
    apr_file_t    *f;
    apr_finfo_t    fi;
    apr_size_t     n, got;
    apr_status_t   rv;
    char          *buf, err[128];

    rv = apr_file_open(&f, path, APR_FOPEN_READ | APR_FOPEN_BINARY,
                       APR_OS_DEFAULT, p);
    if (rv != APR_SUCCESS) {
        return apr_psprintf(p, "cannot open %s: %s", path,
                            apr_strerror(rv, err, sizeof(err)));
    }
    rv = apr_file_info_get(&fi, APR_FINFO_SIZE | APR_FINFO_TYPE, f);
    if (rv != APR_SUCCESS || fi.filetype != APR_REG) {
        apr_file_close(f);
        return apr_psprintf(p, "%s is not a regular file", path);
    }
    n = fi.size < (apr_off_t) max ? (apr_size_t) fi.size : max;
    buf = apr_palloc(p, n + 1);
    got = 0;
    if (n > 0) {
        rv = apr_file_read_full(f, buf, n, &got);
        if (rv != APR_SUCCESS && rv != APR_EOF) {
            apr_file_close(f);
            return apr_psprintf(p, "cannot read %s: %s", path,
                                apr_strerror(rv, err, sizeof(err)));
        }
    }
    apr_file_close(f);
    buf[got] = '\0';
    *out = ra_str(buf, got);
    *size = fi.size;
    return NULL;
}

static const char *
mra_basename(const char *path)
{
    const char  *s = strrchr(path, '/');

    return s != NULL ? s + 1 : path;
}


/* ---- directives --------------------------------------------------------- */

static void *
mra_create_dir_conf(apr_pool_t *p, char *dir)
{
    mra_dir_conf  *c = apr_palloc(p, sizeof(mra_dir_conf));

    (void) dir;
    c->enabled = RA_UNSET;
    c->enforce = RA_UNSET;
    return c;
}

static void *
mra_merge_dir_conf(apr_pool_t *p, void *basev, void *addv)
{
    mra_dir_conf  *base = basev, *add = addv;
    mra_dir_conf  *c = apr_palloc(p, sizeof(mra_dir_conf));

    c->enabled = add->enabled != RA_UNSET ? add->enabled : base->enabled;
    c->enforce = add->enforce != RA_UNSET ? add->enforce : base->enforce;
    return c;
}

static void *
mra_create_srv_conf(apr_pool_t *p, server_rec *s)
{
    mra_srv_conf  *c = apr_pcalloc(p, sizeof(mra_srv_conf));

    (void) s;
    c->palloc = mra_make_alloc(p);
    return c;
}

/* RobotsAuditRobotsFile belongs to the server it is written in: a virtual
 * host does not inherit the main server's file (as nginx's server-level
 * robots_audit_robots_file); the global settings are read from the main
 * server's record only. */
static void *
mra_merge_srv_conf(apr_pool_t *p, void *basev, void *addv)
{
    mra_srv_conf  *add = addv;
    mra_srv_conf  *c = apr_palloc(p, sizeof(mra_srv_conf));

    (void) basev;
    *c = *add;
    return c;
}

static const char *
mra_set_enabled(cmd_parms *cmd, void *dv, int on)
{
    mra_dir_conf  *d = dv;

    d->enabled = on;
    (void) cmd;
    if (on) {
        ra_zone_wanted = 1;
    }
    return NULL;
}

static const char *
mra_set_enforce(cmd_parms *cmd, void *dv, int on)
{
    mra_dir_conf  *d = dv;

    (void) cmd;
    d->enforce = on;
    return NULL;
}

static const char *
mra_set_zone_size(cmd_parms *cmd, void *dv, const char *arg)
{
    char              *end;
    apr_int64_t        n, unit = 1;
    ra_ledger_plan_t   plan;
    mra_srv_conf       *sc = mra_sconf(cmd->server);
    const char        *err = ap_check_cmd_context(cmd, GLOBAL_ONLY);

    (void) dv;
    if (err != NULL) {
        return err;
    }
    n = apr_strtoi64(arg, &end, 10);
    if (end == arg || n <= 0) {
        return apr_psprintf(cmd->pool, "RobotsAuditZoneSize: '%s' is not "
                            "a size (bytes, or a number with k, m or g)",
                            arg);
    }
    switch (*end) {
    case '\0':           break;
    case 'k': case 'K':  unit = 1024; end++; break;
    case 'm': case 'M':  unit = 1024 * 1024; end++; break;
    case 'g': case 'G':  unit = 1024 * 1024 * 1024; end++; break;
    default:             end = NULL; break;
    }
    if (end == NULL || *end != '\0') {
        return apr_psprintf(cmd->pool, "RobotsAuditZoneSize: '%s' is not "
                            "a size (bytes, or a number with k, m or g)",
                            arg);
    }
    if (n > APR_INT64_C(4) * 1024 * 1024 * 1024 / unit) {
        return apr_psprintf(cmd->pool, "RobotsAuditZoneSize: %s is larger "
                            "than the ledger's limit of 4 GiB - 1", arg);
    }
    n *= unit;
    if (n < (apr_int64_t) RA_LEDGER_MIN_SIZE) {
        return apr_psprintf(cmd->pool, "RobotsAuditZoneSize: %s (%"
                            APR_INT64_T_FMT " bytes) is smaller than "
                            "RA_LEDGER_MIN_SIZE (%u bytes)", arg, n,
                            (unsigned) RA_LEDGER_MIN_SIZE);
    }
    if (ra_ledger_plan((size_t) n, &plan) != RA_OK) {
        return apr_psprintf(cmd->pool, "RobotsAuditZoneSize: %s is outside "
                            "what the ledger can lay out (RA_LEDGER_MIN_SIZE "
                            "%u bytes to 4 GiB - 1)", arg,
                            (unsigned) RA_LEDGER_MIN_SIZE);
    }
    sc->zone_size = (apr_size_t) n;
    ra_zone_wanted = 1;
    return NULL;
}

static const char *
mra_crawlers_start(apr_pool_t *p, mra_srv_conf *sc)
{
    ra_crawlers_err_t  cerr;

    if (sc->crawlers != NULL) {
        return NULL;
    }
    sc->crawlers = ra_crawlers_create(sc->palloc);
    memset(&cerr, 0, sizeof(cerr));
    if (sc->crawlers == NULL
        || ra_crawlers_add_builtin(sc->crawlers, &cerr) != RA_OK)
    {
        return apr_psprintf(p, "robots-audit: the built-in crawler "
                            "table does not load: %s",
                            cerr.msg ? cerr.msg : "out of memory");
    }
    return NULL;
}

static const char *
mra_set_crawlers(cmd_parms *cmd, void *dv, const char *arg)
{
    int                 rc;
    ra_str_t            text;
    apr_off_t           size;
    const char         *path, *err;
    mra_srv_conf        *sc = mra_sconf(cmd->server);
    ra_crawlers_err_t   cerr;

    (void) dv;
    err = ap_check_cmd_context(cmd, GLOBAL_ONLY);
    if (err != NULL) {
        return err;
    }
    path = ap_server_root_relative(cmd->temp_pool, arg);
    if (path == NULL) {
        return apr_psprintf(cmd->pool, "RobotsAuditCrawlers: bad path %s",
                            arg);
    }
    err = mra_read_file(cmd->temp_pool, path, RA_CRAWLERS_MAX_FILE + 1,
                       &text, &size);
    if (err != NULL) {
        return apr_pstrcat(cmd->pool, "RobotsAuditCrawlers: ", err, NULL);
    }
    if (size > (apr_off_t) RA_CRAWLERS_MAX_FILE) {
        return apr_psprintf(cmd->pool, "RobotsAuditCrawlers: %s is larger "
                            "than %u bytes", path,
                            (unsigned) RA_CRAWLERS_MAX_FILE);
    }
    err = mra_crawlers_start(cmd->pool, sc);
    if (err != NULL) {
        return err;
    }
    memset(&cerr, 0, sizeof(cerr));
    rc = ra_crawlers_add(sc->crawlers, text, &cerr);
    if (rc != RA_OK) {
        if (cerr.line) {
            return apr_psprintf(cmd->pool, "RobotsAuditCrawlers: %s:%lu: %s",
                                path, (unsigned long) cerr.line,
                                cerr.msg ? cerr.msg : "invalid entry");
        }
        return apr_psprintf(cmd->pool, "RobotsAuditCrawlers: %s: %s", path,
                            cerr.msg ? cerr.msg
                            : rc == RA_ENOMEM ? "out of memory"
                            : "refused");
    }
    return NULL;
}

static const char *
mra_set_ip_ranges(cmd_parms *cmd, void *dv, const char *arg)
{
    int             rc;
    ra_str_t        text;
    apr_off_t       size;
    const char     *path, *err, *name;
    mra_srv_conf    *sc = mra_sconf(cmd->server);
    ra_json_err_t   jerr;

    (void) dv;
    err = ap_check_cmd_context(cmd, GLOBAL_ONLY);
    if (err != NULL) {
        return err;
    }
    path = ap_server_root_relative(cmd->temp_pool, arg);
    if (path == NULL) {
        return apr_psprintf(cmd->pool, "RobotsAuditIPRanges: bad path %s",
                            arg);
    }
    err = mra_read_file(cmd->temp_pool, path, RA_RANGES_MAX_FILE + 1, &text,
                       &size);
    if (err != NULL) {
        return apr_pstrcat(cmd->pool, "RobotsAuditIPRanges: ", err, NULL);
    }
    if (size > (apr_off_t) RA_RANGES_MAX_FILE) {
        return apr_psprintf(cmd->pool, "RobotsAuditIPRanges: %s is larger "
                            "than %u bytes", path,
                            (unsigned) RA_RANGES_MAX_FILE);
    }
    if (sc->ranges == NULL) {
        sc->ranges = ra_ranges_create(sc->palloc);
        if (sc->ranges == NULL) {
            return "RobotsAuditIPRanges: out of memory";
        }
    }
    name = mra_basename(path);
    memset(&jerr, 0, sizeof(jerr));
    rc = ra_ranges_add_json(sc->ranges, mra_cstr(name), text, &jerr);
    if (rc != RA_OK) {
        return apr_psprintf(cmd->pool, "RobotsAuditIPRanges: %s: %s "
                            "(at byte %lu)", path,
                            jerr.msg ? jerr.msg
                            : rc == RA_ELIMIT ? "a limit was reached"
                            : rc == RA_ENOMEM ? "out of memory" : "refused",
                            (unsigned long) jerr.offset);
    }
    return NULL;
}

static const char *
mra_set_robots_file(cmd_parms *cmd, void *dv, const char *arg)
{
    const char   *path, *err;
    mra_srv_conf  *sc = mra_sconf(cmd->server);

    (void) dv;
    path = ap_server_root_relative(cmd->pool, arg);
    if (path == NULL) {
        return apr_psprintf(cmd->pool, "RobotsAuditRobotsFile: bad path %s",
                            arg);
    }
    err = mra_read_file(cmd->pool, path, RA_ROBOTS_MAX, &sc->robots_body,
                       &sc->robots_size);
    if (err != NULL) {
        return apr_pstrcat(cmd->pool, "RobotsAuditRobotsFile: ", err, NULL);
    }
    sc->robots_file = path;
    return NULL;
}

static const char *
mra_set_alert_log(cmd_parms *cmd, void *dv, const char *arg)
{
    mra_srv_conf  *sc = mra_sconf(cmd->server);
    const char   *err = ap_check_cmd_context(cmd, GLOBAL_ONLY);

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

/* 250ms, 30s, 5m, 1h; a bare number is seconds. */
static const char *
mra_set_alert_interval(cmd_parms *cmd, void *dv, const char *arg)
{
    char         *end;
    apr_int64_t   n, unit;
    mra_srv_conf  *sc = mra_sconf(cmd->server);
    const char   *err = ap_check_cmd_context(cmd, GLOBAL_ONLY);

    (void) dv;
    if (err != NULL) {
        return err;
    }
    n = apr_strtoi64(arg, &end, 10);
    if (end == arg || n < 1 || n > 100000000) {
        end = NULL;
    } else if (strcmp(end, "ms") == 0) {
        unit = 1;
    } else if (*end == '\0' || strcmp(end, "s") == 0) {
        unit = 1000;
    } else if (strcmp(end, "m") == 0) {
        unit = 60000;
    } else if (strcmp(end, "h") == 0) {
        unit = 3600000;
    } else {
        end = NULL;
    }
    if (end == NULL) {
        return apr_psprintf(cmd->pool, "RobotsAuditAlertInterval: '%s' is "
                            "not a time above zero (250ms, 30s, 5m, 1h; "
                            "a bare number is seconds)", arg);
    }
    sc->alert_interval = n * unit;
    return NULL;
}

static const command_rec ra_cmds[] = {
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
    AP_INIT_TAKE1("RobotsAuditCrawlers", mra_set_crawlers, NULL, RSRC_CONF,
        "A crawler file in the format of data/crawlers.txt, added to the "
        "built-in table (global; repeatable)"),
    AP_INIT_ITERATE("RobotsAuditIPRanges", mra_set_ip_ranges, NULL, RSRC_CONF,
        "Published IP-range JSON files, named by base name as the crawler "
        "table names them (global)"),
    AP_INIT_TAKE1("RobotsAuditAlertLog", mra_set_alert_log, NULL, RSRC_CONF,
        "A file, or |program, that gets one JSON line per alert (global)"),
    AP_INIT_TAKE1("RobotsAuditAlertInterval", mra_set_alert_interval, NULL,
        RSRC_CONF,
        "Least time between two alerts for one (site, crawler): 250ms, 30s, "
        "5m, 1h (global; default 60s)"),
    AP_INIT_FLAG("RobotsAuditEnforce", mra_set_enforce, NULL,
        RSRC_CONF | ACCESS_CONF,
        "On to answer 403 to requests judged violation or unreachable "
        "(default Off)"),
    { NULL }
};


/* ---- startup ------------------------------------------------------------ */

static int
mra_pre_config(apr_pool_t *pconf, apr_pool_t *plog, apr_pool_t *ptemp)
{
    apr_status_t  rv;

    (void) plog;
    (void) ptemp;
    ra_main = NULL;
    ra_zone_wanted = 0;
    ra_have_zone = 0;
    ra_audit = NULL;
    ra_alert_file = NULL;
    rv = ap_mutex_register(pconf, RA_MUTEX_TYPE, NULL, APR_LOCK_DEFAULT, 0);
    if (rv != APR_SUCCESS) {
        ap_log_error(APLOG_MARK, APLOG_CRIT, rv, NULL,
                     "robots-audit: [RA300] cannot register the mutex type "
                     RA_MUTEX_TYPE);
        return !OK;
    }
    return OK;
}

/* The crawler table is complete once every directive is read. */
static int
mra_compile_tables(server_rec *s)
{
    int                 rc;
    const char         *err;
    mra_srv_conf        *sc = mra_sconf(s);
    ra_crawlers_err_t   cerr;

    if (sc->compiled) {
        return OK;
    }
    err = mra_crawlers_start(s->process->pconf, sc);
    if (err != NULL) {
        ap_log_error(APLOG_MARK, APLOG_EMERG, 0, s, "%s", err);
        return !OK;
    }
    memset(&cerr, 0, sizeof(cerr));
    rc = ra_crawlers_compile(sc->crawlers, &cerr);
    if (rc != RA_OK) {
        ap_log_error(APLOG_MARK, APLOG_EMERG, 0, s,
                     "robots-audit: [RA302] the crawler table does not "
                     "compile: %s", cerr.msg ? cerr.msg
                     : rc == RA_ELIMIT ? "too many crawler patterns"
                     : "out of memory");
        return !OK;
    }
    sc->compiled = 1;
    return OK;
}

/* Logs what ra_lint() finds in a server's RobotsAuditRobotsFile. */
static void
mra_lint_log(server_rec *s, apr_pool_t *p, mra_srv_conf *sc)
{
    uint32_t            i;
    ra_buf_t            b;
    ra_lint_t           lint;
    ra_lint_http_t      http;
    const ra_alloc_t   *a = mra_make_alloc(p);
    const char         *text;
    ra_str_t            fn = mra_cstr(sc->robots_file);

    memset(&http, 0, sizeof(http));
    http.size = (size_t) sc->robots_size;
    http.truncated = sc->robots_size > (apr_off_t) sc->robots_body.len;
    if (ra_lint(sc->robots_body, &http, a, &lint) != RA_OK) {
        ap_log_error(APLOG_MARK, APLOG_ERR, 0, s, "robots-audit: [RA303] "
                     "out of memory linting %s", sc->robots_file);
        return;
    }
    for (i = 0; i < lint.nfindings; i++) {
        const ra_lint_finding_t  *f = &lint.findings[i];

        ra_buf_init(&b, a, 256, 4096);
        ra_buf_cstr(&b, "robots-audit: [" RA_LINT_TAG "] ");
        ra_lint_format_finding(&b, fn, f);
        ra_buf_printf(&b, " (site %s)",
                      s->server_hostname ? s->server_hostname : "-");
        text = mra_buf_text(&b);
        if (text != NULL) {
            ap_log_error(APLOG_MARK, f->severity == RA_SEV_INFO
                         ? APLOG_INFO : APLOG_WARNING, 0, s, "%s", text);
        }
    }
    ra_buf_init(&b, a, 256, 4096);
    ra_buf_cstr(&b, "robots-audit: [" RA_LINT_TAG "] ");
    ra_lint_format_summary(&b, fn, &lint.summary);
    text = mra_buf_text(&b);
    if (text != NULL) {
        ap_log_error(APLOG_MARK, lint.summary.errors || lint.summary.warnings
                     ? APLOG_WARNING : APLOG_INFO, 0, s, "%s", text);
    }
}

/* Runs at apache2ctl -t and before every start and restart: the tables
 * compile, and under -t the robots.txt files are linted to the console. */
static int
mra_check_config(apr_pool_t *pconf, apr_pool_t *plog, apr_pool_t *ptemp,
    server_rec *s)
{
    server_rec  *vs;

    (void) pconf;
    (void) plog;
    if (mra_compile_tables(s) != OK) {
        return !OK;
    }
    if (ap_state_query(AP_SQ_RUN_MODE) == AP_SQ_RM_CONFIG_TEST) {
        for (vs = s; vs != NULL; vs = vs->next) {
            if (mra_sconf(vs)->robots_file != NULL) {
                mra_lint_log(vs, ptemp, mra_sconf(vs));
            }
        }
    }
    return OK;
}

/* Finds the retained segment and mutex, or makes new ones. */
static int
mra_zone_init(apr_pool_t *pconf, server_rec *s, apr_size_t size)
{
    apr_status_t   rv;
    mra_retained   *rd;
    ra_lock_t      lock;
    const char    *why = NULL;
    void          *base;
    apr_pool_t    *pproc = s->process->pool;

    (void) pconf;
    rd = ap_retained_data_get(RA_RETAINED_KEY);
    if (rd == NULL) {
        rd = ap_retained_data_create(RA_RETAINED_KEY, sizeof(mra_retained));
        memset(rd, 0, sizeof(*rd));
    }

    if (rd->shm != NULL) {
        base = apr_shm_baseaddr_get(rd->shm);
        if (rd->size == size
            && ra_ledger_check(base, size, &why) == RA_OK)
        {
            ap_log_error(APLOG_MARK, APLOG_NOTICE, 0, s,
                         "robots-audit: kept the ledger (%lu bytes) across "
                         "the restart", (unsigned long) size);
            goto open;
        }
        ap_log_error(APLOG_MARK, APLOG_WARNING, 0, s,
                     "robots-audit: [RA304] a new ledger replaces the old "
                     "one: %s", why != NULL ? why : "the zone's size changed");
        /* Old children keep their own mapping of the old segment (and the
         * old mutex, which is left alone for them); the parent lets go of
         * the segment only. */
        (void) apr_shm_destroy(rd->shm);
        rd->shm = NULL;
        rd->mutex = NULL;
    }

    rv = apr_shm_create(&rd->shm, size, NULL, pproc);
    if (rv != APR_SUCCESS) {
        ap_log_error(APLOG_MARK, APLOG_EMERG, rv, s,
                     "robots-audit: [RA305] cannot create a shared segment "
                     "of %lu bytes (RobotsAuditZoneSize)",
                     (unsigned long) size);
        rd->shm = NULL;
        return !OK;
    }
    base = apr_shm_baseaddr_get(rd->shm);
    if (ra_ledger_format(base, size, mra_now_ms()) != RA_OK) {
        ap_log_error(APLOG_MARK, APLOG_EMERG, 0, s,
                     "robots-audit: [RA306] cannot lay out a ledger in %lu "
                     "bytes", (unsigned long) size);
        return !OK;
    }
    rd->size = size;
    rv = ap_global_mutex_create(&rd->mutex, NULL, RA_MUTEX_TYPE, NULL, s,
                                pproc, 0);
    if (rv != APR_SUCCESS) {
        return !OK;                 /* ap_global_mutex_create() logged it */
    }

open:
    ra_mutex = rd->mutex;
    lock.lock = mra_lock;
    lock.unlock = mra_unlock;
    lock.ctx = NULL;
    ra_ledger_open(&ra_ledger, base, &lock);
    ra_have_zone = 1;
    return OK;
}

static apr_status_t
mra_audit_cleanup(void *data)
{
    (void) data;
    ra_audit_destroy(ra_audit);
    ra_audit = NULL;
    return APR_SUCCESS;
}

static ra_audit_t *
mra_audit_make(apr_pool_t *p)
{
    ra_audit_conf_t  conf;
    ra_audit_t      *au;

    memset(&conf, 0, sizeof(conf));
    conf.alloc = &ra_malloc_allocator;
    conf.crawlers = ra_main->crawlers;
    conf.ranges = ra_main->ranges;
    conf.alert_interval = ra_main->alert_interval ? ra_main->alert_interval
                                                  : RA_ALERT_DEFAULT;
    au = ra_audit_create(&conf, &ra_ledger);
    if (au != NULL) {
        apr_pool_cleanup_register(p, NULL, mra_audit_cleanup,
                                  apr_pool_cleanup_null);
    }
    return au;
}

static int
mra_open_alert_log(apr_pool_t *pconf, server_rec *s)
{
    piped_log     *pl;
    apr_status_t   rv;
    const char    *path = ra_main->alert_log;

    if (path == NULL) {
        return OK;
    }
    if (path[0] == '|') {
        pl = ap_open_piped_log(pconf, path + 1);
        if (pl == NULL) {
            ap_log_error(APLOG_MARK, APLOG_EMERG, 0, s,
                         "robots-audit: [RA307] cannot start the alert log "
                         "program %s", path + 1);
            return !OK;
        }
        ra_alert_file = ap_piped_log_write_fd(pl);
        return OK;
    }
    rv = apr_file_open(&ra_alert_file, path, APR_FOPEN_WRITE
                       | APR_FOPEN_APPEND | APR_FOPEN_CREATE
                       | APR_FOPEN_LARGEFILE, APR_OS_DEFAULT, pconf);
    if (rv != APR_SUCCESS) {
        ap_log_error(APLOG_MARK, APLOG_EMERG, rv, s,
                     "robots-audit: [RA307] cannot open the alert log %s",
                     path);
        ra_alert_file = NULL;
        return !OK;
    }
    return OK;
}

static int
mra_post_config(apr_pool_t *pconf, apr_pool_t *plog, apr_pool_t *ptemp,
    server_rec *s)
{
    int            rc;
    server_rec    *vs;
    mra_srv_conf   *sc;
    ra_answer_t    ans;

    (void) plog;
    /* the first pass only checks the configuration */
    if (ap_state_query(AP_SQ_MAIN_STATE) == AP_SQ_MS_CREATE_PRE_CONFIG) {
        return OK;
    }
    ra_main = mra_sconf(s);
    if (mra_compile_tables(s) != OK) {
        return !OK;
    }
    for (vs = s; vs != NULL; vs = vs->next) {
        if (mra_sconf(vs)->robots_file != NULL) {
            mra_lint_log(vs, ptemp, mra_sconf(vs));
        }
    }
    if (!ra_zone_wanted) {
        return OK;
    }
    rc = mra_zone_init(pconf, s, ra_main->zone_size ? ra_main->zone_size
                                                   : RA_ZONE_DEFAULT);
    if (rc != OK) {
        return rc;
    }
    if (mra_open_alert_log(pconf, s) != OK) {
        return !OK;
    }

    /* the configured files: each site's version until one is captured */
    ra_audit = mra_audit_make(pconf);
    if (ra_audit == NULL) {
        ap_log_error(APLOG_MARK, APLOG_EMERG, 0, s,
                     "robots-audit: [RA308] out of memory");
        return !OK;
    }
    for (vs = s; vs != NULL; vs = vs->next) {
        sc = mra_sconf(vs);
        if (sc->robots_file == NULL || vs->server_hostname == NULL) {
            continue;
        }
        memset(&ans, 0, sizeof(ans));
        ans.status = 200;
        ans.content_type = ra_str(NULL, 0);
        ans.body = sc->robots_body;
        ans.size = (size_t) sc->robots_size;
        ans.truncated = sc->robots_size > (apr_off_t) sc->robots_body.len;
        ans.initial = 1;
        if (ra_audit_robots(ra_audit, mra_cstr(vs->server_hostname), &ans,
                            mra_now_ms()) != RA_OK)
        {
            ap_log_error(APLOG_MARK, APLOG_WARNING, 0, vs,
                         "robots-audit: [RA309] out of memory recording %s",
                         sc->robots_file);
        }
    }
    return OK;
}

static void
mra_child_init(apr_pool_t *pchild, server_rec *s)
{
    int           threaded = 0;
    apr_status_t  rv;

    if (!ra_have_zone) {
        return;
    }
    rv = apr_global_mutex_child_init(&ra_mutex,
                                     apr_global_mutex_lockfile(ra_mutex),
                                     pchild);
    if (rv != APR_SUCCESS) {
        ap_log_error(APLOG_MARK, APLOG_CRIT, rv, s,
                     "robots-audit: [RA310] cannot attach the ledger mutex; "
                     "this child does not audit");
        ra_have_zone = 0;
        return;
    }
    /* the parent's judge came over with fork(); this one is the child's */
    ra_audit = mra_audit_make(pchild);
    if (ra_audit == NULL) {
        ap_log_error(APLOG_MARK, APLOG_CRIT, 0, s,
                     "robots-audit: [RA308] out of memory; this child does "
                     "not audit");
        ra_have_zone = 0;
        return;
    }
    if (ap_mpm_query(AP_MPMQ_IS_THREADED, &threaded) == APR_SUCCESS
        && threaded != AP_MPMQ_NOT_SUPPORTED)
    {
        rv = apr_thread_mutex_create(&ra_tmutex, APR_THREAD_MUTEX_DEFAULT,
                                     pchild);
        if (rv != APR_SUCCESS) {
            ap_log_error(APLOG_MARK, APLOG_CRIT, rv, s,
                         "robots-audit: [RA310] cannot create a thread "
                         "mutex; this child does not audit");
            ra_have_zone = 0;
        }
    }
}


/* ---- requests ----------------------------------------------------------- */

/* The site a request counts for: the virtual host's ServerName, or the
 * Host it names when that is the ServerName or one of its literal
 * ServerAlias names (a wildcard alias is open-ended: it counts under the
 * ServerName, so that random Host values never make sites). */
static ra_str_t
mra_site_of(request_rec *r)
{
    int          i;
    char       **names;
    server_rec  *s = r->server;
    const char  *h = r->hostname;

    if (h != NULL && s->server_hostname != NULL
        && strcasecmp(h, s->server_hostname) != 0 && s->names != NULL)
    {
        names = (char **) s->names->elts;
        for (i = 0; i < s->names->nelts; i++) {
            if (names[i] != NULL && strcasecmp(h, names[i]) == 0) {
                return mra_cstr(h);
            }
        }
    }
    return mra_cstr(s->server_hostname);
}

static int
mra_on(request_rec *r)
{
    mra_dir_conf  *d;

    if (!ra_have_zone || ra_audit == NULL) {
        return 0;
    }
    d = mra_dconf(r->per_dir_config);
    return d != NULL && d->enabled == 1;
}

static void
mra_request_of(request_rec *r, int status, ra_request_t *req)
{
    memset(req, 0, sizeof(*req));
    req->site = mra_site_of(r);
    req->time = mra_now_ms();
    req->addr = mra_cstr(r->useragent_ip);
    req->user_agent = mra_cstr(apr_table_get(r->headers_in, "User-Agent"));
    req->method = mra_cstr(r->method);
    req->uri = mra_cstr(r->unparsed_uri);
    req->status = status;
}

/* Judges and counts r, and writes its alerts.  Returns the verdict. */
static ra_verdict_e
mra_judge(request_rec *r, int status)
{
    int             rc;
    ra_buf_t        text, json;
    ra_request_t    req;
    ra_verdict_t    v;
    apr_size_t      n;
    const char     *line;
    ra_alloc_t     *a = mra_make_alloc(r->pool);

    mra_request_of(r, status, &req);
    ra_buf_init(&text, a, 512, 0);
    ra_buf_init(&json, a, 512, 0);

    mra_judge_lock();
    rc = ra_audit_request(ra_audit, &req, &v);
    /* the verdict's pattern is valid until the next call: render now */
    if (v.alert) {
        ra_alert_text(&text, &req, &v);
        if (ra_alert_file != NULL) {
            ra_alert_json(&json, &req, &v);
        }
    }
    mra_judge_unlock();

    if (rc == RA_ENOMEM) {
        ap_log_rerror(APLOG_MARK, APLOG_ERR, 0, r, "robots-audit: [RA311] "
                      "out of memory judging a request (counted only)");
    }
    if (v.alert) {
        line = mra_buf_text(&text);
        if (line != NULL) {
            ap_log_rerror(APLOG_MARK, APLOG_WARNING, 0, r, "%s", line);
        }
        if (ra_alert_file != NULL && !json.failed && json.len > 0) {
            /* one write per line: O_APPEND keeps lines whole */
            n = json.len;
            (void) apr_file_write(ra_alert_file, json.data, &n);
        }
    }
    return v.verdict;
}

static int
mra_is_status_handler(request_rec *r)
{
    return r->handler != NULL && strcmp(r->handler, RA_HANDLER) == 0;
}

/* RobotsAuditEnforce: judged here, before the handler, and not again at
 * log time.  robots.txt itself is never refused: it is counted with the
 * status it was served with, when it was served. */
static int
mra_fixups(request_rec *r)
{
    mra_dir_conf   *d;
    ra_verdict_e   verdict;

    if (r->main != NULL || r->prev != NULL || !mra_on(r)
        || mra_is_status_handler(r))
    {
        return DECLINED;
    }
    d = mra_dconf(r->per_dir_config);
    if (d->enforce != 1) {
        return DECLINED;
    }
    if (r->parsed_uri.path != NULL
        && strcmp(r->parsed_uri.path, "/robots.txt") == 0)
    {
        return DECLINED;
    }
    apr_table_setn(r->notes, RA_NOTE_JUDGED, "1");
    verdict = mra_judge(r, 0);
    if (verdict == RA_VERDICT_VIOLATION || verdict == RA_VERDICT_UNREACHABLE)
    {
        ap_log_rerror(APLOG_MARK, APLOG_INFO, 0, r, "robots-audit: refused "
                      "(%s, RobotsAuditEnforce On)", ra_verdict_name(verdict));
        return HTTP_FORBIDDEN;
    }
    return DECLINED;
}

static int
mra_log_transaction(request_rec *r)
{
    request_rec  *last;

    if (!mra_on(r) || apr_table_get(r->notes, RA_NOTE_JUDGED) != NULL
        || mra_is_status_handler(r))
    {
        return DECLINED;
    }
    for (last = r; last->next != NULL; last = last->next) {
        /* the status the client got is the last internal redirect's */
    }
    (void) mra_judge(r, last->status);
    return DECLINED;
}


/* ---- robots.txt capture ------------------------------------------------- */

typedef struct {
    unsigned char  *buf;
    apr_size_t      len;
    apr_size_t      cap;
    apr_off_t       size;
    int             truncated;
    int             done;
} mra_capture_t;

static request_rec *
mra_original(request_rec *r)
{
    while (r->prev != NULL) {
        r = r->prev;
    }
    return r;
}

static void
mra_capture_add(request_rec *r, mra_capture_t *c, const char *data,
    apr_size_t n)
{
    apr_size_t      room, cap;
    unsigned char  *nb;

    c->size += n;
    if (c->truncated || n == 0) {
        return;
    }
    if (c->len + n > c->cap && c->cap < RA_ROBOTS_MAX) {
        cap = c->cap ? c->cap : RA_CAPTURE_FIRST;
        while (cap < c->len + n && cap < RA_ROBOTS_MAX) {
            cap *= 2;
        }
        if (cap > RA_ROBOTS_MAX) {
            cap = RA_ROBOTS_MAX;
        }
        nb = apr_palloc(r->pool, cap);
        if (c->len) {
            memcpy(nb, c->buf, c->len);
        }
        c->buf = nb;
        c->cap = cap;
    }
    room = c->cap - c->len;
    if (n > room) {
        n = room;
        c->truncated = 1;
    }
    memcpy(c->buf + c->len, data, n);
    c->len += n;
}

static void
mra_capture_done(request_rec *r, mra_capture_t *c)
{
    int            rc;
    request_rec   *orig = mra_original(r);
    ra_answer_t    ans;

    c->done = 1;
    if (apr_table_get(orig->notes, RA_NOTE_CAPTURED) != NULL) {
        return;
    }
    apr_table_setn(orig->notes, RA_NOTE_CAPTURED, "1");
    memset(&ans, 0, sizeof(ans));
    ans.status = r->status;
    ans.content_type = r->content_type != NULL ? mra_cstr(r->content_type)
                                               : ra_str(NULL, 0);
    ans.body = ra_str(c->buf, c->len);
    ans.size = (size_t) c->size;
    ans.truncated = c->truncated;

    mra_judge_lock();
    rc = ra_audit_robots(ra_audit, mra_site_of(orig), &ans, mra_now_ms());
    mra_judge_unlock();
    if (rc != RA_OK) {
        ap_log_rerror(APLOG_MARK, APLOG_ERR, 0, r, "robots-audit: [RA311] "
                      "out of memory recording robots.txt");
    }
}

static apr_status_t
mra_capture_filter(ap_filter_t *f, apr_bucket_brigade *bb)
{
    apr_bucket    *e;
    apr_size_t     n;
    apr_status_t   rv;
    const char    *data;
    mra_capture_t  *c = f->ctx;
    request_rec   *r = f->r;

    if (c == NULL) {
        c = f->ctx = apr_pcalloc(r->pool, sizeof(mra_capture_t));
        /* no body to judge: HEAD, 304, a part of the file */
        if (r->header_only || r->status == HTTP_NOT_MODIFIED
            || r->status == HTTP_PARTIAL_CONTENT)
        {
            c->done = 1;
        }
    }
    if (c->done) {
        ap_remove_output_filter(f);
        return ap_pass_brigade(f->next, bb);
    }

    for (e = APR_BRIGADE_FIRST(bb); e != APR_BRIGADE_SENTINEL(bb);
         e = APR_BUCKET_NEXT(e))
    {
        if (APR_BUCKET_IS_EOS(e)) {
            mra_capture_done(r, c);
            break;
        }
        if (APR_BUCKET_IS_METADATA(e)) {
            continue;
        }
        if (c->truncated && e->length != (apr_size_t) -1) {
            c->size += e->length;       /* counted, not read */
            continue;
        }
        rv = apr_bucket_read(e, &data, &n, APR_BLOCK_READ);
        if (rv != APR_SUCCESS) {
            c->done = 1;                /* not the whole answer: drop it */
            break;
        }
        mra_capture_add(r, c, data, n);
    }
    return ap_pass_brigade(f->next, bb);
}

static void
mra_insert_filter(request_rec *r)
{
    request_rec  *orig;

    if (r->main != NULL || !ra_have_zone || ra_audit == NULL) {
        return;
    }
    orig = mra_original(r);
    if (orig->method_number != M_GET || orig->parsed_uri.path == NULL
        || strcmp(orig->parsed_uri.path, "/robots.txt") != 0
        || !mra_on(orig)
        || apr_table_get(orig->notes, RA_NOTE_CAPTURED) != NULL)
    {
        return;
    }
    ap_add_output_filter(RA_FILTER, NULL, r, r->connection);
}


/* ---- status page --------------------------------------------------------- */

typedef struct {
    ra_snapshot_t  snap;
    ra_buf_t       out;
    int            have_snap;
} mra_page_t;

static apr_status_t
mra_page_cleanup(void *data)
{
    mra_page_t  *pg = data;

    if (pg->have_snap) {
        ra_snapshot_free(&pg->snap, &ra_malloc_allocator);
    }
    ra_buf_release(&pg->out);
    return APR_SUCCESS;
}

/* The value of "format" in the query string; NULL when absent. */
static const char *
mra_arg_format(request_rec *r)
{
    char  *args, *tok, *last, *eq;

    if (r->args == NULL) {
        return NULL;
    }
    args = apr_pstrdup(r->pool, r->args);
    for (tok = apr_strtok(args, "&;", &last); tok != NULL;
         tok = apr_strtok(NULL, "&;", &last))
    {
        eq = strchr(tok, '=');
        if (eq != NULL && eq - tok == 6 && strncmp(tok, "format", 6) == 0) {
            return eq + 1;
        }
    }
    return NULL;
}

static int
mra_status_handler(request_rec *r)
{
    const char          *fmt_name;
    mra_page_t           *pg;
    ra_report_opts_t     opts;
    ra_report_format_e   fmt = RA_REPORT_HTML;

    if (!mra_is_status_handler(r)) {
        return DECLINED;
    }
    r->allowed |= (AP_METHOD_BIT << M_GET);
    if (r->method_number != M_GET) {
        return HTTP_METHOD_NOT_ALLOWED;
    }
    fmt_name = mra_arg_format(r);
    if (fmt_name != NULL
        && ra_report_format_by_name(mra_cstr(fmt_name), &fmt) != RA_OK)
    {
        return HTTP_BAD_REQUEST;
    }
    if (!ra_have_zone) {
        ap_set_content_type(r, "text/plain; charset=utf-8");
        r->status = HTTP_SERVICE_UNAVAILABLE;
        ap_rputs("robots-audit: no ledger: RobotsAudit is not On anywhere "
                 "in the configuration\n", r);
        return OK;
    }

    pg = apr_pcalloc(r->pool, sizeof(mra_page_t));
    apr_pool_cleanup_register(r->pool, pg, mra_page_cleanup,
                              apr_pool_cleanup_null);
    if (ra_ledger_snapshot(&ra_ledger, &ra_malloc_allocator,
                           fmt == RA_REPORT_HTML, &pg->snap) != RA_OK)
    {
        ap_log_rerror(APLOG_MARK, APLOG_ERR, 0, r, "robots-audit: [RA311] "
                      "out of memory taking a snapshot");
        return HTTP_INTERNAL_SERVER_ERROR;
    }
    pg->have_snap = 1;
    memset(&opts, 0, sizeof(opts));
    opts.now = mra_now_ms();
    opts.relint = fmt == RA_REPORT_HTML;
    opts.scratch = &ra_malloc_allocator;
    ra_buf_init(&pg->out, &ra_malloc_allocator, 64 * 1024, RA_PAGE_MAX);
    if (ra_report_render(&pg->snap, fmt, &opts, &pg->out) != RA_OK
        || pg->out.failed)
    {
        ap_log_rerror(APLOG_MARK, APLOG_ERR, 0, r, "robots-audit: [RA311] "
                      "out of memory rendering the status page");
        return HTTP_INTERNAL_SERVER_ERROR;
    }
    ap_set_content_type(r, ra_report_content_type(fmt));
    apr_table_setn(r->headers_out, "Cache-Control", "no-store");
    ap_set_content_length(r, (apr_off_t) pg->out.len);
    if (!r->header_only) {
        ap_rwrite(pg->out.data, (int) pg->out.len, r);
    }
    return OK;
}

/* mod_status's /server-status: totals, and one row per site. */
static int
mra_status_hook(request_rec *r, int flags)
{
    uint32_t          i;
    ra_snapshot_t     snap;
    const ra_site_t  *s;
    ra_ledger_hdr_t  *h;

    if (!ra_have_zone) {
        if (!(flags & AP_STATUS_SHORT)) {
            ap_rputs("<hr /><h2>robots-audit</h2>\n<p>off (RobotsAudit is "
                     "not On anywhere)</p>\n", r);
        }
        return OK;
    }
    h = ra_ledger.hdr;
    if (flags & AP_STATUS_SHORT) {
        ap_rprintf(r, "RobotsAuditRequests: %" APR_UINT64_T_FMT "\n"
                   "RobotsAuditViolations: %" APR_UINT64_T_FMT "\n"
                   "RobotsAuditSites: %u\n"
                   "RobotsAuditCrawlerRecords: %u\n"
                   "RobotsAuditSiteEvictions: %" APR_UINT64_T_FMT "\n"
                   "RobotsAuditCrawlerEvictions: %" APR_UINT64_T_FMT "\n",
                   (apr_uint64_t) ra_ledger_read(&h->requests),
                   (apr_uint64_t) ra_ledger_read(&h->violations_total),
                   (unsigned) __atomic_load_n(&h->site_count,
                                              __ATOMIC_RELAXED),
                   (unsigned) __atomic_load_n(&h->stat_count,
                                              __ATOMIC_RELAXED),
                   (apr_uint64_t) ra_ledger_read(&h->site_evictions),
                   (apr_uint64_t) ra_ledger_read(&h->stat_evictions));
        return OK;
    }

    if (ra_ledger_snapshot(&ra_ledger, &ra_malloc_allocator, 0, &snap)
        != RA_OK)
    {
        return OK;
    }
    ap_rprintf(r, "<hr /><h2>robots-audit</h2>\n<dl><dt>%" APR_UINT64_T_FMT
               " requests judged, %" APR_UINT64_T_FMT " violations, %u "
               "sites, %u crawler records; evictions: %" APR_UINT64_T_FMT
               " sites, %" APR_UINT64_T_FMT " crawler records</dt></dl>\n",
               (apr_uint64_t) snap.hdr.requests,
               (apr_uint64_t) snap.hdr.violations_total,
               (unsigned) snap.nsites, (unsigned) snap.nstats,
               (apr_uint64_t) snap.hdr.site_evictions,
               (apr_uint64_t) snap.hdr.stat_evictions);
    if (!(flags & AP_STATUS_NOTABLE) && snap.nsites > 0) {
        ap_rputs("<table border=\"0\"><tr><th>site</th><th>robots.txt</th>"
                 "<th>crawler requests</th><th>compliant</th>"
                 "<th>violation</th><th>stale</th><th>unreachable</th>"
                 "<th>browser requests</th></tr>\n", r);
        for (i = 0; i < snap.nsites; i++) {
            s = &snap.sites[i];
            ap_rprintf(r, "<tr><td>%s</td><td>%u</td><td>%"
                       APR_UINT64_T_FMT "</td><td>%" APR_UINT64_T_FMT
                       "</td><td>%" APR_UINT64_T_FMT "</td><td>%"
                       APR_UINT64_T_FMT "</td><td>%" APR_UINT64_T_FMT
                       "</td><td>%" APR_UINT64_T_FMT "</td></tr>\n",
                       ap_escape_html(r->pool,
                                      apr_pstrmemdup(r->pool, s->name,
                                                     s->name_len)),
                       (unsigned) s->robots_status,
                       (apr_uint64_t) s->counters[RA_CNT_REQUESTS],
                       (apr_uint64_t) s->counters[RA_CNT_COMPLIANT],
                       (apr_uint64_t) s->counters[RA_CNT_VIOLATION],
                       (apr_uint64_t) s->counters[RA_CNT_STALE],
                       (apr_uint64_t) s->counters[RA_CNT_UNREACHABLE],
                       (apr_uint64_t) s->browser_requests);
        }
        ap_rputs("</table>\n", r);
    }
    ra_snapshot_free(&snap, &ra_malloc_allocator);
    return OK;
}


/* ---- module -------------------------------------------------------------- */

static void
mra_register_hooks(apr_pool_t *p)
{
    (void) p;
    ap_hook_pre_config(mra_pre_config, NULL, NULL, APR_HOOK_MIDDLE);
    ap_hook_check_config(mra_check_config, NULL, NULL, APR_HOOK_MIDDLE);
    ap_hook_post_config(mra_post_config, NULL, NULL, APR_HOOK_MIDDLE);
    ap_hook_child_init(mra_child_init, NULL, NULL, APR_HOOK_MIDDLE);
    ap_hook_fixups(mra_fixups, NULL, NULL, APR_HOOK_LAST);
    ap_hook_handler(mra_status_handler, NULL, NULL, APR_HOOK_MIDDLE);
    ap_hook_insert_filter(mra_insert_filter, NULL, NULL, APR_HOOK_MIDDLE);
    ap_hook_insert_error_filter(mra_insert_filter, NULL, NULL,
                                APR_HOOK_MIDDLE);
    ap_hook_log_transaction(mra_log_transaction, NULL, NULL, APR_HOOK_MIDDLE);
    ap_register_output_filter(RA_FILTER, mra_capture_filter, NULL,
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
    ra_cmds,
    mra_register_hooks,
#if defined(AP_MODULE_FLAG_NONE)
    AP_MODULE_FLAG_NONE
#endif
};
