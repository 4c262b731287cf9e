/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The product's directives, decided once for nginx and Apache: what each
 * is called in each server, where it may be written, how many words it
 * takes, how its words are read and checked, where its value is kept and
 * how a location inherits it, and what the server says when a word is
 * wrong, in that server's own phrasing.  The glue only translates: one
 * handler per server hands a directive's words over as spans, reports the
 * message it gets back, and does what only that server can do with the
 * value (nginx's shared zone and open files, Apache's fixups hook).
 *
 * A value is kept in the narrowest scope its directive may be written in:
 * ra_conf_main_t (nginx's http block, Apache's server config outside any
 * virtual host), ra_conf_server_t (a server block, a virtual host) or
 * ra_conf_scope_t (a location, a directory).  Each server's own
 * configuration structures embed these.
 */
#ifndef RA_DIRECTIVE_H
#define RA_DIRECTIVE_H

#include "ra_core.h"
#include "ra_alert.h"
#include "ra_buf.h"
#include "ra_events.h"
#include "ra_syslog.h"
#include "ra_http.h"
#include "ra_policy.h"
#include "ra_setup.h"
#include "ra_verdict.h"

/*
 * Every directive, one row each:
 *   X(ID, KIND, ARG, NGINX_NAME, NGINX_WHERE, NGINX_ARGS,
 *     APACHE_NAME, APACHE_WHERE, APACHE_ARGS, APACHE_HELP)
 * KIND says how the words are read (ra_directive_kind_e without its
 * RA_DK_ prefix), ARG what KIND needs besides (a table, a value).
 * NGINX_WHERE is MAIN (http), SRV (server), LOC (location), ANY (all
 * three) or NONE (no such directive); NGINX_ARGS is nginx's NGX_CONF_
 * word (TAKE1, TAKE2, 1MORE, FLAG, NOARGS).  APACHE_WHERE is GLOBAL
 * (server config, outside virtual hosts), SERVER (server config and
 * virtual hosts), DIR (those and <Location>, <Directory>) or NONE;
 * APACHE_ARGS is httpd's (TAKE1, TAKE2, ITERATE, FLAG, ARGV: every word
 * of the line at once).  Each server's
 * command table is made of these rows (the glue expands them), so a new
 * directive is one row here and, for a new kind, one case in
 * ra_directive.c.
 */
#define RA_DIRECTIVES(X)                                                    \
    X(ZONE, ZONE, 0, "robots_audit_zone", MAIN, TAKE2,                      \
      "RobotsAuditZoneSize", GLOBAL, TAKE1,                                 \
      "Size of the shared ledger, bytes or with k, m, g (global; "          \
      "default 8m, at least 64k)")                                          \
    X(AUDIT, FLAG, 0, "robots_audit", ANY, FLAG,                            \
      "RobotsAudit", DIR, FLAG,                                             \
      "On to judge and count requests of this server or location "          \
      "(default Off)")                                                      \
    X(STATUS, STATUS, 0, "robots_audit_status", LOC, NOARGS,                \
      NULL, NONE, NONE, NULL)                                               \
    X(ROBOTS_FILE, ROBOTS, 0, "robots_audit_robots_file", SRV, TAKE1,      \
      "RobotsAuditRobotsFile", SERVER, TAKE1,                               \
      "The robots.txt this server serves: linted at startup and "           \
      "apache2ctl -t, and the initial version until one is captured "       \
      "(server, virtual host)")                                             \
    X(CRAWLERS, TABLE, RA_SETUP_CRAWLERS, "robots_audit_crawlers", MAIN,    \
      TAKE1, "RobotsAuditCrawlers", GLOBAL, TAKE1,                          \
      "A crawler file in the format of data/crawlers.txt, added to the "    \
      "built-in table (global; repeatable)")                                \
    X(IP_RANGES, TABLE, RA_SETUP_RANGES, "robots_audit_ip_ranges", MAIN,    \
      1MORE, "RobotsAuditIPRanges", GLOBAL, ITERATE,                        \
      "Published IP-range files, named by base name as the crawler "        \
      "table names them; cloud-PROVIDER.json or .csv is a cloud "           \
      "provider's (global)")                                                \
    X(SIG_KEYS, TABLE, RA_SETUP_SIG_KEYS, "robots_audit_signature_keys",    \
      MAIN, TAKE1, "RobotsAuditSignatureKeys", GLOBAL, TAKE1,               \
      "A directory of Web Bot Auth key sets, HOST.json for each agent "     \
      "origin (global)")                                                    \
    X(SIG_MAX_AGE, MSEC, RA_DIRECTIVE_SIG_AGE,                              \
      "robots_audit_signature_max_age", MAIN, TAKE1,                        \
      "RobotsAuditSignatureMaxAge", GLOBAL, TAKE1,                          \
      "Oldest Web Bot Auth signature accepted, by its created time "        \
      "(global; default 1d)")                                               \
    X(ALERT_LOG, ALERT_LOG, 0, "robots_audit_alert_log", ANY, TAKE1,        \
      "RobotsAuditAlertLog", GLOBAL, TAKE1,                                 \
      "A file, or |program, that gets one JSON line per alert (global)")    \
    X(EVIDENCE_LOG, ALERT_LOG, RA_DIRECTIVE_EVIDENCE,                       \
      "robots_audit_evidence_log", ANY, TAKE1,                              \
      "RobotsAuditEvidenceLog", GLOBAL, TAKE1,                              \
      "A file, or |program, that gets one JSON line per violating request " \
      "(global)")                                                           \
    X(EVIDENCE_BUDGET, BYTES, 0, "robots_audit_evidence_budget", MAIN,      \
      TAKE1, "RobotsAuditEvidenceBudget", GLOBAL, TAKE1,                    \
      "Bytes a minute the evidence log may take, with k, m, g, or off "     \
      "(global; default 8m)")                                               \
    X(RESOLVER, RESOLVER, 0, NULL, NONE, NONE,                              \
      "RobotsAuditResolver", GLOBAL, TAKE1,                                 \
      "ADDR[:PORT] of the DNS server reverse DNS asks, or system "          \
      "(/etc/resolv.conf's); none: no reverse DNS (global)")                \
    X(ALERT_INTERVAL, MSEC, RA_DIRECTIVE_INTERVAL,                          \
      "robots_audit_alert_interval", MAIN, TAKE1,                           \
      "RobotsAuditAlertInterval", GLOBAL, TAKE1,                            \
      "Least time between two alerts for one (site, crawler): 250ms, 30s, " \
      "5m, 1h; 0: every one (global; default 60s)")                         \
    X(ALERT_BUDGET, BUDGET, 0, "robots_audit_alert_budget", MAIN, TAKE2,    \
      "RobotsAuditAlertBudget", GLOBAL, TAKE2,                              \
      "Alert lines a minute per site and in all, or off "                   \
      "(global; default 60 300)")                                           \
    X(ALERT_PURPOSES, PURPOSES, 0, "robots_audit_alert_purposes", MAIN,     \
      1MORE, "RobotsAuditAlertPurposes", GLOBAL, ITERATE,                   \
      "The purposes whose violations and impostors alert: search, "         \
      "ai-training, ..., tool, generic (global; default all)")              \
    X(ENFORCE, ENFORCE, 0, "robots_audit_enforce", ANY, 1MORE,              \
      "RobotsAuditEnforce", DIR, ITERATE,                                   \
      "Off, On (= violation), or what to answer 403: violation, "           \
      "unreachable, impostor (default Off)")                                \
    X(STATE, STATE, 0, "robots_audit_state", MAIN, TAKE1,                   \
      "RobotsAuditState", GLOBAL, TAKE1,                                    \
      "A file the ledger is saved to at stop and every "                    \
      "RobotsAuditStateInterval, and restored from at a start (global)")    \
    X(STATE_INTERVAL, MSEC, RA_DIRECTIVE_STATE_EVERY,                    \
      "robots_audit_state_interval", MAIN, TAKE1,                           \
      "RobotsAuditStateInterval", GLOBAL, TAKE1,                            \
      "Time between two saves of the ledger to RobotsAuditState: 30s, 5m, " \
      "1h (global; default 5m)")                                            \
    X(EVENTS, EVENTS, 0, "robots_audit_events", MAIN, TAKE1,                \
      "RobotsAuditEvents", GLOBAL, TAKE1,                                   \
      "|program or a file that gets one JSON event line per crawler "       \
      "request and robots.txt answer, for robots-audit collect (global)")   \
    X(BLOCK, POLICY, 0, "robots_audit_block", ANY, 1MORE,                   \
      "RobotsAuditBlock", DIR, ARGV,                                        \
      "Refuse crawlers whatever robots.txt says: purpose P..., crawler "    \
      "NAME... or off (adds up)")                                           \
    X(ALLOW, POLICY, 1, "robots_audit_allow", ANY, 1MORE,                   \
      "RobotsAuditAllow", DIR, ARGV,                                        \
      "Exceptions to RobotsAuditBlock: crawler NAME... (verified or "       \
      "unverifiable only)")                                                 \
    X(REFUSE_STATUS, REFUSE, 0, "robots_audit_refuse_status", ANY, TAKE1,   \
      "RobotsAuditRefuseStatus", DIR, TAKE1,                                \
      "The status of a refusal, policy or enforce: 403, 402 or 429 "        \
      "(default 403)")                                                      \
    X(UNDECLARED, UNDECL, 0, "robots_audit_undeclared", MAIN, FLAG,         \
      "RobotsAuditUndeclared", GLOBAL, FLAG,                                \
      "On to catch crawlers that send a browser's User-Agent, by their "    \
      "behaviour (global; default On)")                                     \
    X(REFUSE_BODY, REFUSE, 1, "robots_audit_refuse_body", ANY, TAKE1,       \
      "RobotsAuditRefuseBody", DIR, TAKE1,                                  \
      "A file sent as a refusal's body, typed by its name (.json, .txt, "   \
      ".html)")

#define RA_DIRECTIVE_ID(id, ...)  RA_DIRECTIVE_##id,

typedef enum {
    RA_DIRECTIVES(RA_DIRECTIVE_ID)
    RA_DIRECTIVE_N
} ra_directive_e;

/* How a directive's words are read. */
typedef enum {
    RA_DK_ZONE = 0,     /* nginx: NAME SIZE; Apache: SIZE */
    RA_DK_FLAG,         /* on | off */
    RA_DK_STATUS,       /* no words: this location is the status page */
    RA_DK_ROBOTS,       /* the robots.txt file a server serves */
    RA_DK_TABLE,        /* files into a table (ARG: ra_setup_table_e) */
    RA_DK_MSEC,         /* a time (ARG: which) */
    RA_DK_ALERT_LOG,    /* a file; nginx: or off; Apache: or |program
                           (ARG: the alert log's or the evidence log's) */
    RA_DK_RESOLVER,     /* ADDR[:PORT] or system */
    RA_DK_BUDGET,       /* two limits, or off */
    RA_DK_PURPOSES,     /* purposes that alert; repeats add up */
    RA_DK_BYTES,        /* bytes a minute, or off */
    RA_DK_ENFORCE,      /* words that add up to a scope */
    RA_DK_STATE,        /* the file the ledger is kept in */
    RA_DK_EVENTS,       /* the event stream: nginx syslog:..., Apache
                           |program or a file */
    RA_DK_POLICY,       /* a block (ARG 0) or allow (ARG 1): ra_policy.h */
    RA_DK_REFUSE,       /* a refusal's status (ARG 0) or body file (1) */
    RA_DK_UNDECL        /* on | off: the undeclared-crawler detector */
} ra_directive_kind_e;

/* RA_DK_ALERT_LOG's ARG */
#define RA_DIRECTIVE_ALERT      0
#define RA_DIRECTIVE_EVIDENCE   1

/* RA_DK_MSEC's ARG */
#define RA_DIRECTIVE_INTERVAL   0
#define RA_DIRECTIVE_SIG_AGE    1
#define RA_DIRECTIVE_STATE_EVERY  2

/* Whose phrasing and rules: nginx refuses a value written twice in one
 * block ("is duplicate"), Apache keeps the last. */
typedef enum {
    RA_DIALECT_NGINX = 0,
    RA_DIALECT_APACHE = 1
} ra_dialect_e;

/* The scopes that keep values. */
#define RA_CONF_MAIN    1
#define RA_CONF_SERVER  2
#define RA_CONF_SCOPE   3

/* A server's (virtual host's) values.  One with a robots file is on its
 * main scope's list (ra_conf_main_t.robots_servers), in the order written,
 * for ra_conf_robots_lint() and ra_conf_robots_seed(). */
typedef struct ra_conf_server_s  ra_conf_server_t;

/* The global values. */
typedef struct {
    ra_setup_t         setup;           /* crawler, range and key tables */
    ra_setup_values_t  values;          /* the engine's: alert interval and
                                           budget, signature age */
    uint64_t           zone_size;       /* 0: unset (the default) */
    ra_str_t           zone_name;       /* nginx's robots_audit_zone NAME */
    ra_str_t           zone_text;       /* how lines name that zone:
                                           robots_audit_zone "NAME" */
    const char        *alert_log;       /* Apache's: a path or |program;
                                           NULL: none */
    const char        *evidence_log;    /* likewise */
    const char        *resolver;        /* Apache's: ADDR[:PORT], "" for
                                           the system's; NULL: none */
    const char        *state_file;      /* the ledger's file
                                           (ra_ledger_file.h); NULL:
                                           none */
    int64_t            state_interval;  /* ms between saves; 0: unset
                                           (RA_LEDGER_FILE_INTERVAL) */
    uint32_t           set;             /* 1u << ra_directive_e written */
    const char        *events_to;       /* the event stream's word; NULL:
                                           none */
    ra_events_t        events;          /* its writer: the glue sets
                                           events.log, each process sends
                                           through it (values.events, set
                                           by ra_conf_compile()) */
    ra_syslog_t        events_syslog;   /* Apache's syslog:... peer
                                           (ra_conf_events_open()) */
    ra_conf_server_t  *robots_servers;  /* those with a robots file */
    ra_policy_site_t  *policies;        /* every scope's policy, as
                                           written, for the status page */
    unsigned           zone_wanted:1;   /* auditing on somewhere, or a
                                           zone size (Apache makes the
                                           ledger then) */
    unsigned           enforce_wanted:1; /* a scope refuses something */
} ra_conf_main_t;

/* A server's (virtual host's) values (ra_conf_server_t's comment). */
struct ra_conf_server_s {
    ra_robots_file_t  *robots;          /* NULL: none configured */
    uint32_t           set;
    ra_sitenames_t     names;           /* the glue's, built from the
                                           server's names */
    void              *host_ctx;        /* ra_directive_cx_t.server_ctx */
    ra_conf_server_t  *next;            /* the next with a robots file */
};

/* A location's (directory's) values, inherited where not written. */
typedef struct {
    int                enable;          /* 1 on, 0 off, -1 unset */
    ra_enforce_t       enforce;         /* 0: unset */
    ra_policy_t        policy;          /* blocks, exceptions, refusal */
    unsigned           status:1;        /* nginx's status page: its polls
                                           are not audited; not inherited */
    const char        *alert_log;       /* nginx's path; NULL: off */
    void              *alert_file;      /* the server's open file for it */
    const char        *evidence_log;    /* likewise the evidence log's */
    void              *evidence_file;
    uint32_t           set;
} ra_conf_scope_t;

/* What a directive's words are read with, for one server. */
typedef struct {
    ra_dialect_e       dialect;
    ra_conf_main_t    *main;
    ra_conf_server_t  *server;
    ra_conf_scope_t   *scope;
    /* handed to host->log with the lines reading a file writes (nginx's
     * ngx_conf_t, for "in nginx.conf:12"); NULL: the server's own log */
    void              *where;
    /* the host's ctx for the lines about this server's robots file at
     * start (Apache's server_rec: its virtual host's error log); NULL:
     * the host's own */
    void              *server_ctx;
    /* what the server's shared-memory allocator keeps of a zone (nginx's
     * slab pages) */
    uint64_t           zone_overhead;
    /* A file's word as a path the server would open, NUL-terminated and
     * lasting as long as the configuration (nginx: relative to its
     * configuration prefix; Apache: to ServerRoot); NULL: not a path. */
    const char      *(*path)(void *ctx, ra_str_t word);
    void              *path_ctx;
    /* Whether the server can ask the DNS server a resolver directive
     * names (ADDR[:PORT], "" for the system's): RA_OK when it can, else
     * RA_ERROR with why not in err, which the core words as the
     * directive's error (ra_ares_check() is one); NULL: not checked. */
    int              (*resolver_check)(const char *server, char *err,
                                       size_t errlen);
} ra_directive_cx_t;

/* A server's context for reading one directive: its dialect and the
 * three scopes of the block the directive is written in; the rest zero
 * (no where, server_ctx, zone_overhead or path: the glue sets those it
 * has). */
void ra_directive_cx_init(ra_directive_cx_t *cx, ra_dialect_e dialect,
    ra_conf_main_t *m, ra_conf_server_t *server, ra_conf_scope_t *scope);

/* Empty values, as nothing written: the main scope's tables empty and
 * lenient (data files never stop a server), on host and alloc (the
 * configuration's pool). */
void ra_conf_main_init(ra_conf_main_t *m, const ra_host_t *host,
    const ra_alloc_t *alloc);
void ra_conf_scope_init(ra_conf_scope_t *c);

/*
 * Reads directive id's n words into the scope that keeps its value.
 * RA_OK; or RA_ERROR (RA_ENOMEM) with msg holding the whole message, as
 * the server shows it for a bad word (nginx: the line before " in
 * FILE:LINE"; Apache: the directive's error); the server's own checks of
 * context and count of words come before.
 */
int ra_directive_set(const ra_directive_cx_t *cx, ra_directive_e id,
    const ra_str_t *words, size_t n, ra_buf_t *msg);

/* Builds the crawler table once every directive is read
 * (ra_setup_compile()), said the same in every server when it fails: at
 * emerg with RA_TAG_CRAWLERS through h, where handed to h->log.  RA_OK,
 * or an error: the configuration is refused. */
int ra_conf_compile(ra_conf_main_t *m, const ra_host_t *h, void *where);

/* Lints every server's robots file (ra_robots_file_lint()), in the order
 * written, through h with each server's host_ctx as its ctx when it has
 * one; where is handed to h->log. */
void ra_conf_robots_lint(const ra_conf_main_t *m, const ra_host_t *h,
    void *where);

/* Records every server's robots file as its site's first version, unless
 * the ledger has one (ra_robots_file_seed(); out of memory is said). */
void ra_conf_robots_seed(const ra_conf_main_t *m, ra_audit_t *au,
    int64_t now);

/* The same for a process that judges nothing (nginx's master): with an
 * engine of its own on the ledger l, made (ra_conf_engine()) and
 * destroyed here.  RA_OK, or RA_ENOMEM when no engine could be made
 * (said). */
int ra_conf_robots_seed_ledger(const ra_conf_main_t *m, const ra_host_t *h,
    ra_str_t zone, ra_ledger_t *l, int64_t now);

/* The engine a process of a server configured as m judges with, on the
 * ledger l: ra_setup_engine() with m's tables and values (conf: as it
 * keeps it; zone names the shared memory in the lines).  NULL when out
 * of memory, said. */
ra_audit_t *ra_conf_engine(const ra_conf_main_t *m, ra_audit_conf_t *conf,
    const ra_host_t *h, ra_str_t zone, ra_ledger_t *l);

/* The path (or |program) Apache's directive gave the log which
 * (RA_LOGFILE_ALERT, RA_LOGFILE_EVIDENCE, RA_LOGFILE_EVENTS: ra_logfile.h)
 * for the server to open; NULL: none. */
const char *ra_conf_log_path(const ra_conf_main_t *m, unsigned which);

/* What the status page of a server configured as m shows (ra_status.h):
 * the ledger l (NULL: none), m's crawler and range tables and the
 * policies of its scopes, and whether h resolves reverse DNS. */
struct ra_status_src_s;
void ra_conf_status_src(const ra_conf_main_t *m, ra_ledger_t *l,
    const ra_host_t *h, struct ra_status_src_s *src);

/*
 * The status page a server configured as m answers a request with
 * (method, query: the part after '?'), from that source, now in Unix ms:
 * ra_status_page_src()'s page, made with a (release it with
 * ra_status_page_free()), and the reply the server sends (ra_http.h),
 * valid while the page is.  RA_OK, or RA_ENOMEM when the page says 500,
 * which h's log says about where (the request).
 */
struct ra_status_page_s;
int ra_conf_status_page(const ra_conf_main_t *m, ra_ledger_t *l,
    const ra_host_t *h, void *where, ra_str_t method, ra_str_t query,
    int64_t now, const ra_alloc_t *a, struct ra_status_page_s *page,
    ra_reply_t *reply);

/* The scope that keeps id's value in that server (RA_CONF_*), 0 when the
 * server has no such directive. */
int ra_directive_level(ra_dialect_e dialect, ra_directive_e id);

/*
 * The event stream of a server without a syslog writer of its own
 * (Apache): when its word was syslog:..., opens the peer's socket and
 * makes it m->events' transport.  RA_OK (also when the word is another:
 * the glue opens that); RA_ERROR, said at h's EMERG with the reason.
 * ra_conf_events_close() closes it again (a restart opens a new one): it
 * takes the ra_conf_main_t and answers 0, as a host's pool cleanup does,
 * so that the glue registers it as one.
 */
int ra_conf_events_open(ra_conf_main_t *m, const ra_host_t *h, void *where);
int ra_conf_events_close(void *m);

/* to: add, and base's values where add has none written (to may be
 * add).  A status page is not inherited. */
void ra_conf_scope_merge(ra_conf_scope_t *to, const ra_conf_scope_t *base,
    const ra_conf_scope_t *add);

/* Where the server keeps the open file of log directive id just read
 * into c (nginx's robots_audit_alert_log, _evidence_log): NULL when it
 * is off or id is no such directive (nothing to open). */
void **ra_conf_scope_log_file(ra_conf_scope_t *c, ra_directive_e id);

/* nginx: what to say when a scope audits or shows the status page with
 * no zone configured (zone 0), NULL when it may; Apache makes its zone
 * whenever one is wanted (ra_conf_main_t.zone_wanted). */
const char *ra_conf_scope_unzoned(const ra_conf_scope_t *c, int zone);

/* Are c's requests audited (for enforce: is something enforced or
 * blocked there)?  Not the status page's polls.  Inline: nginx asks it of
 * every GET. */
static inline int
ra_conf_scope_audits(const ra_conf_scope_t *c, int enforce)
{
    return c->enable == 1 && !c->status
           && (!enforce || ra_enforce_any(c->enforce)
               || ra_policy_any(&c->policy));
}

/* What req is refused by in c (NULL: nothing, as at log time): its
 * enforce and its policy. */
static inline void
ra_conf_scope_request(const ra_conf_scope_t *c, ra_request_t *req)
{
    req->enforce = c != NULL ? c->enforce : 0;
    req->policy = c != NULL ? &c->policy : NULL;
}

#endif /* RA_DIRECTIVE_H */
