/* SPDX-License-Identifier: BSD-2-Clause */
/* The directives decided once for nginx and Apache: each server's words
 * read into the scope that keeps them, the messages each server shows for
 * a bad one, nginx's refusal of a value written twice, and a location's
 * inheritance. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ra_test.h"
#include "ra_directive.h"
#include "ra_evidence.h"
#include "ra_ledger.h"
#include "ra_logfile.h"
#include "ra_status.h"
#include "ra_tags.h"

#define S(lit)  ((ra_str_t) ra_string(lit))

/* one server's configuration as the tests keep it */
typedef struct {
    ra_host_t          host;
    ra_test_log_t      log;
    ra_conf_main_t     main;
    ra_conf_server_t   server;
    ra_conf_scope_t    scope;
    ra_directive_cx_t  cx;
    ra_buf_t           msg;
    ra_test_arena_t   *arena;
    char               paths[4][256];
    int                npaths;
} conf_t;

/* relative words under /srv; "bad" is no path */
static const char *
test_path(void *ctx, ra_str_t word)
{
    conf_t  *c = ctx;
    char    *p = c->paths[c->npaths++ % 4];

    if (word.len == 3 && memcmp(word.data, "bad", 3) == 0) {
        return NULL;
    }
    snprintf(p, 256, "%s%.*s", word.data[0] == '/' ? "" : "/srv/",
             (int) word.len, (const char *) word.data);
    return p;
}

static conf_t *
conf_new(ra_dialect_e dialect)
{
    conf_t  *c = calloc(1, sizeof(conf_t));

    assert_non_null(c);
    c->arena = ra_test_arena_new();
    ra_test_host(&c->host, &c->log, NULL);
    ra_conf_main_init(&c->main, &c->host, ra_test_arena_alloc(c->arena));
    ra_conf_scope_init(&c->scope);
    /* as the glue makes it: the scopes set, the rest zero */
    memset(&c->cx, 0xff, sizeof(c->cx));
    ra_directive_cx_init(&c->cx, dialect, &c->main, &c->server, &c->scope);
    assert_int_equal(c->cx.dialect, dialect);
    assert_ptr_equal(c->cx.scope, &c->scope);
    assert_null(c->cx.server_ctx);
    assert_null(c->cx.path);
    assert_int_equal(c->cx.zone_overhead, 0);
    c->cx.where = c;
    c->cx.zone_overhead = dialect == RA_DIALECT_NGINX ? 16384 : 0;
    c->cx.path = test_path;
    c->cx.path_ctx = c;
    ra_buf_init(&c->msg, ra_test_arena_alloc(c->arena), 0, 0);
    return c;
}

static void
conf_free(conf_t *c)
{
    ra_test_arena_free(c->arena);
    free(c);
}

/* sets id from up to three words; the message, NUL-terminated, or "" */
static const char *
set(conf_t *c, ra_directive_e id, const char *w0, const char *w1,
    const char *w2)
{
    size_t      n = 0;
    ra_str_t    words[3];
    const char *w[3] = { w0, w1, w2 };

    while (n < 3 && w[n] != NULL) {
        words[n] = ra_str(w[n], strlen(w[n]));
        n++;
    }
    c->msg.len = 0;
    if (ra_directive_set(&c->cx, id, words, n, &c->msg) == RA_OK) {
        assert_int_equal(c->msg.len, 0);
        return "";
    }
    ra_buf_ch(&c->msg, '\0');
    assert_false(c->msg.failed);
    return (const char *) c->msg.data;
}

static void
zone(void **state)
{
    conf_t  *n = conf_new(RA_DIALECT_NGINX);
    conf_t  *a = conf_new(RA_DIALECT_APACHE);

    (void) state;
    assert_string_equal(set(n, RA_DIRECTIVE_ZONE, "ra", "lots", NULL),
                        "invalid robots_audit_zone size \"lots\"");
    assert_string_equal(set(n, RA_DIRECTIVE_ZONE, "ra", "64k", NULL),
                        "\"robots_audit_zone\" directive is duplicate");
    n->main.set = 0;
    assert_string_equal(set(n, RA_DIRECTIVE_ZONE, "ra", "64k", NULL),
                        "robots_audit_zone \"ra\" size \"64k\" is out of "
                        "range: the minimum is 80k, the maximum 4095m");
    n->main.set = 0;
    assert_string_equal(set(n, RA_DIRECTIVE_ZONE, "ra", "1m", NULL), "");
    assert_int_equal(n->main.zone_size, 1u << 20);
    assert_memory_equal(n->main.zone_text.data, "robots_audit_zone \"ra\"",
                        n->main.zone_text.len);
    assert_memory_equal(n->main.zone_name.data, "ra", 2);
    assert_true(n->main.zone_wanted);

    assert_string_equal(set(a, RA_DIRECTIVE_ZONE, "lots", NULL, NULL),
                        "RobotsAuditZoneSize: 'lots' is not a size (bytes, "
                        "or a number with k, m or g)");
    assert_string_equal(set(a, RA_DIRECTIVE_ZONE, "32k", NULL, NULL),
                        "RobotsAuditZoneSize: 32k is out of range: the "
                        "minimum is 64k, the maximum 4095m");
    assert_false(a->main.zone_wanted);
    /* Apache keeps the last */
    assert_string_equal(set(a, RA_DIRECTIVE_ZONE, "1m", NULL, NULL), "");
    assert_string_equal(set(a, RA_DIRECTIVE_ZONE, "2m", NULL, NULL), "");
    assert_int_equal(a->main.zone_size, 2u << 20);
    assert_true(a->main.zone_wanted);
    conf_free(n);
    conf_free(a);
}

static void
flag_and_enforce(void **state)
{
    conf_t  *n = conf_new(RA_DIALECT_NGINX);
    conf_t  *a = conf_new(RA_DIALECT_APACHE);

    (void) state;
    assert_string_equal(set(n, RA_DIRECTIVE_AUDIT, "maybe", NULL, NULL),
                        "invalid value \"maybe\" in \"robots_audit\" "
                        "directive, it must be \"on\" or \"off\"");
    n->scope.set = 0;
    assert_string_equal(set(n, RA_DIRECTIVE_AUDIT, "ON", NULL, NULL), "");
    assert_int_equal(n->scope.enable, 1);
    assert_true(n->main.zone_wanted);
    assert_string_equal(set(n, RA_DIRECTIVE_AUDIT, "off", NULL, NULL),
                        "\"robots_audit\" directive is duplicate");
    assert_string_equal(set(a, RA_DIRECTIVE_AUDIT, "off", NULL, NULL), "");
    assert_int_equal(a->scope.enable, 0);
    assert_false(a->main.zone_wanted);

    assert_string_equal(set(n, RA_DIRECTIVE_ENFORCE, "violation", "maybe",
                            NULL),
                        "invalid value \"maybe\" in \"robots_audit_enforce\" "
                        "directive: the words are off, on, or any of "
                        "violation, unreachable, impostor, undeclared");
    assert_string_equal(set(a, RA_DIRECTIVE_ENFORCE, "1", NULL, NULL),
                        "RobotsAuditEnforce: '1': the words are off, on, or "
                        "any of violation, unreachable, impostor, "
                        "undeclared");
    assert_string_equal(set(a, RA_DIRECTIVE_ENFORCE, "Off", NULL, NULL), "");
    assert_false(a->main.enforce_wanted);
    assert_string_equal(set(a, RA_DIRECTIVE_ENFORCE, "impostor", NULL, NULL),
                        "RobotsAuditEnforce: 'impostor': \"off\" stands "
                        "alone");

    /* words add up, over directives too */
    ra_conf_scope_init(&n->scope);
    assert_string_equal(set(n, RA_DIRECTIVE_ENFORCE, "violation", NULL,
                            NULL), "");
    assert_string_equal(set(n, RA_DIRECTIVE_ENFORCE, "impostor", NULL, NULL),
                        "");
    assert_int_equal(n->scope.enforce, (1u << RA_REFUSE_VIOLATION)
                                       | (1u << RA_REFUSE_IMPOSTOR));
    assert_true(n->main.enforce_wanted);

    /* undeclared alone is something to enforce; the detector's flag */
    ra_conf_scope_init(&a->scope);
    a->main.enforce_wanted = 0;
    assert_string_equal(set(a, RA_DIRECTIVE_ENFORCE, "Undeclared", NULL,
                            NULL), "");
    assert_int_equal(a->scope.enforce, RA_ENFORCE_UNDECLARED);
    assert_true(a->main.enforce_wanted);
    assert_false(n->main.values.undeclared_off);
    assert_string_equal(set(n, RA_DIRECTIVE_UNDECLARED, "off", NULL, NULL),
                        "");
    assert_true(n->main.values.undeclared_off);
    assert_string_equal(set(n, RA_DIRECTIVE_UNDECLARED, "on", NULL, NULL),
                        "\"robots_audit_undeclared\" directive is "
                        "duplicate");
    assert_string_equal(set(a, RA_DIRECTIVE_UNDECLARED, "maybe", NULL,
                            NULL),
                        "RobotsAuditUndeclared must be On or Off");
    assert_string_equal(set(a, RA_DIRECTIVE_UNDECLARED, "On", NULL, NULL),
                        "");
    assert_false(a->main.values.undeclared_off);
    conf_free(n);
    conf_free(a);
}

/* the evidence log: a file per scope (nginx) or the server's file or
 * program (Apache), as the alert log's; its byte budget */
static void
evidence_log_and_budget(void **state)
{
    conf_t           *c;
    ra_conf_scope_t   loc;

    (void) state;
    c = conf_new(RA_DIALECT_NGINX);
    assert_string_equal(set(c, RA_DIRECTIVE_EVIDENCE_LOG, "ev.json", NULL,
                            NULL), "");
    assert_string_equal(c->scope.evidence_log, "ev.json");
    assert_null(c->scope.alert_log);
    assert_string_equal(set(c, RA_DIRECTIVE_EVIDENCE_LOG, "off", NULL, NULL),
                        "\"robots_audit_evidence_log\" directive is "
                        "duplicate");
    ra_conf_scope_init(&loc);
    ra_conf_scope_merge(&loc, &c->scope, &loc);
    assert_string_equal(loc.evidence_log, "ev.json");
    assert_string_equal(set(c, RA_DIRECTIVE_EVIDENCE_BUDGET, "512k", NULL,
                            NULL), "");
    assert_int_equal(c->main.values.evidence_budget, 512 * 1024);
    assert_string_equal(set(c, RA_DIRECTIVE_EVIDENCE_BUDGET, "off", NULL,
                            NULL), "");
    assert_true(c->main.values.evidence_budget == RA_EVIDENCE_BUDGET_OFF);
    assert_string_equal(set(c, RA_DIRECTIVE_EVIDENCE_BUDGET, "100", NULL,
                            NULL),
                        "invalid value \"100\" in "
                        "\"robots_audit_evidence_budget\" directive: takes "
                        "the bytes a minute the evidence log may take, with "
                        "k, m or g (at least 1k), or off: e.g. 8m");
    conf_free(c);

    c = conf_new(RA_DIALECT_APACHE);
    assert_string_equal(set(c, RA_DIRECTIVE_EVIDENCE_LOG, "|/bin/logger",
                            NULL, NULL), "");
    assert_string_equal(c->main.evidence_log, "|/bin/logger");
    assert_string_equal(set(c, RA_DIRECTIVE_EVIDENCE_LOG, "|", NULL, NULL),
                        "RobotsAuditEvidenceLog: '|' needs a program");
    assert_string_equal(set(c, RA_DIRECTIVE_EVIDENCE_LOG, "ev.json", NULL,
                            NULL), "");
    assert_string_equal(c->main.evidence_log, "/srv/ev.json");
    assert_null(c->main.alert_log);
    assert_string_equal(set(c, RA_DIRECTIVE_EVIDENCE_BUDGET, "lots", NULL,
                            NULL),
                        "RobotsAuditEvidenceBudget: 'lots': takes the bytes a "
                        "minute the evidence log may take, with k, m or g (at "
                        "least 1k), or off: e.g. 8m");
    conf_free(c);
}

static void
times_and_budget(void **state)
{
    conf_t  *n = conf_new(RA_DIALECT_NGINX);
    conf_t  *a = conf_new(RA_DIALECT_APACHE);

    (void) state;
    assert_int_equal(n->main.values.alert_interval, -1);    /* unset */
    assert_string_equal(set(n, RA_DIRECTIVE_ALERT_INTERVAL, "soon", NULL,
                            NULL),
                        "\"robots_audit_alert_interval\" directive invalid "
                        "value");
    n->main.set = 0;
    assert_string_equal(set(n, RA_DIRECTIVE_ALERT_INTERVAL, "1m30s", NULL,
                            NULL), "");
    assert_int_equal(n->main.values.alert_interval, 90000);
    assert_string_equal(set(n, RA_DIRECTIVE_ALERT_INTERVAL, "0", NULL, NULL),
                        "\"robots_audit_alert_interval\" directive is "
                        "duplicate");
    assert_string_equal(set(n, RA_DIRECTIVE_SIG_MAX_AGE, "2h", NULL, NULL),
                        "");
    assert_int_equal(n->main.values.sig_max_age, 7200000);
    assert_int_equal(n->main.values.alert_interval, 90000);

    assert_string_equal(set(a, RA_DIRECTIVE_ALERT_INTERVAL, "soon", NULL,
                            NULL),
                        "RobotsAuditAlertInterval: 'soon' is not a time "
                        "(250ms, 30s, 5m, 1h, 1d, 1m30s; a bare number is "
                        "seconds)");
    assert_string_equal(set(a, RA_DIRECTIVE_ALERT_INTERVAL, "0", NULL, NULL),
                        "");
    assert_int_equal(a->main.values.alert_interval, 0);

    assert_string_equal(set(n, RA_DIRECTIVE_ALERT_BUDGET, "0", "300", NULL),
                        "\"robots_audit_alert_budget\" directive takes two "
                        "limits of alert lines a minute, per site and in "
                        "all (1 to 1000000, or off): e.g. 60 300");
    assert_string_equal(set(a, RA_DIRECTIVE_ALERT_BUDGET, "0", "300", NULL),
                        "RobotsAuditAlertBudget takes two limits of alert "
                        "lines a minute, per site and in all (1 to 1000000, "
                        "or off): e.g. 60 300");
    assert_string_equal(set(a, RA_DIRECTIVE_ALERT_BUDGET, "off", "300",
                            NULL), "");
    conf_free(n);
    conf_free(a);
}

/* the purposes that alert: repeats add up, a word may be a list, and an
 * unknown purpose is named in each server's phrasing */
static void
alert_purposes(void **state)
{
    conf_t    *n = conf_new(RA_DIALECT_NGINX);
    conf_t    *a = conf_new(RA_DIALECT_APACHE);
    unsigned   want = 0;
    ra_str_t   bad;

    (void) state;
    assert_null(ra_alert_purposes_parse(S("search ai-training,tool"), &want,
                                        &bad));
    assert_int_equal(n->main.values.alert_purposes, 0);     /* all */
    assert_string_equal(set(n, RA_DIRECTIVE_ALERT_PURPOSES, "search",
                            "ai-training,tool", NULL), "");
    assert_int_equal(n->main.values.alert_purposes, want);
    assert_string_equal(set(a, RA_DIRECTIVE_ALERT_PURPOSES, "search", NULL,
                            NULL), "");
    assert_string_equal(set(a, RA_DIRECTIVE_ALERT_PURPOSES, "tool",
                            "ai-training", NULL), "");
    assert_int_equal(a->main.values.alert_purposes, want);

    assert_string_equal(set(n, RA_DIRECTIVE_ALERT_PURPOSES, "search",
                            "scraper", NULL),
                        "\"robots_audit_alert_purposes\": \"scraper\" is not "
                        "a purpose: search, ai-training, ai-search, ai-user, "
                        "seo, social-preview, feed, monitoring, archive, "
                        "tool, academic, security-scanner or generic");
    assert_non_null(strstr(set(a, RA_DIRECTIVE_ALERT_PURPOSES, "scraper",
                               NULL, NULL),
                           "RobotsAuditAlertPurposes: 'scraper' is not a "
                           "purpose: search, "));
    conf_free(n);
    conf_free(a);
}

/* a server's check of RobotsAuditResolver's server: port 99 is none */
static int
resolver_check(const char *server, char *err, size_t errlen)
{
    if (strstr(server, ":99") == NULL) {
        return RA_OK;
    }
    snprintf(err, errlen, "unreachable");
    return RA_ERROR;
}

static void
alert_log_and_resolver(void **state)
{
    conf_t  *n = conf_new(RA_DIALECT_NGINX);
    conf_t  *a = conf_new(RA_DIALECT_APACHE);

    (void) state;
    /* nginx: per location, opened by nginx itself, or off */
    assert_string_equal(set(n, RA_DIRECTIVE_ALERT_LOG, "logs/a.log", NULL,
                            NULL), "");
    assert_string_equal(n->scope.alert_log, "logs/a.log");
    assert_string_equal(set(n, RA_DIRECTIVE_ALERT_LOG, "off", NULL, NULL),
                        "\"robots_audit_alert_log\" directive is duplicate");
    ra_conf_scope_init(&n->scope);
    assert_string_equal(set(n, RA_DIRECTIVE_ALERT_LOG, "off", NULL, NULL),
                        "");
    assert_null(n->scope.alert_log);
    assert_null(n->main.alert_log);

    /* Apache: global, a path under ServerRoot or a program */
    assert_string_equal(set(a, RA_DIRECTIVE_ALERT_LOG, "logs/a.log", NULL,
                            NULL), "");
    assert_string_equal(a->main.alert_log, "/srv/logs/a.log");
    assert_string_equal(set(a, RA_DIRECTIVE_ALERT_LOG, "|", NULL, NULL),
                        "RobotsAuditAlertLog: '|' needs a program");
    assert_string_equal(set(a, RA_DIRECTIVE_ALERT_LOG, "|cat", NULL, NULL),
                        "");
    assert_string_equal(a->main.alert_log, "|cat");
    assert_string_equal(set(a, RA_DIRECTIVE_ALERT_LOG, "bad", NULL, NULL),
                        "RobotsAuditAlertLog: bad path bad");

    assert_string_equal(set(a, RA_DIRECTIVE_RESOLVER, "system", NULL, NULL),
                        "");
    assert_string_equal(a->main.resolver, "");
    assert_string_equal(set(a, RA_DIRECTIVE_RESOLVER, "127.0.0.1:53", NULL,
                            NULL), "");
    assert_string_equal(a->main.resolver, "127.0.0.1:53");

    /* the server's check of the DNS server, worded by the core */
    a->cx.resolver_check = resolver_check;
    assert_string_equal(set(a, RA_DIRECTIVE_RESOLVER, "192.0.2.1:99", NULL,
                            NULL), "RobotsAuditResolver 192.0.2.1:99: "
                        "unreachable");
    assert_string_equal(set(a, RA_DIRECTIVE_RESOLVER, "system", NULL, NULL),
                        "");

    /* which path each of Apache's logs is opened from */
    assert_ptr_equal(ra_conf_log_path(&a->main, RA_LOGFILE_ALERT),
                     a->main.alert_log);
    assert_null(ra_conf_log_path(&a->main, RA_LOGFILE_EVIDENCE));
    assert_null(ra_conf_log_path(&a->main, RA_LOGFILE_EVENTS));
    conf_free(n);
    conf_free(a);
}

/* the ledger's file and how often it is saved: global, a path as the
 * server reads it, a time above 0 */
static void
state_file(void **state)
{
    conf_t  *n = conf_new(RA_DIALECT_NGINX);
    conf_t  *a = conf_new(RA_DIALECT_APACHE);

    (void) state;
    assert_null(n->main.state_file);
    assert_int_equal(n->main.state_interval, 0);        /* the default */
    assert_string_equal(set(n, RA_DIRECTIVE_STATE, "ra.state", NULL, NULL),
                        "");
    assert_string_equal(n->main.state_file, "/srv/ra.state");
    assert_string_equal(set(n, RA_DIRECTIVE_STATE, "b.state", NULL, NULL),
                        "\"robots_audit_state\" directive is duplicate");
    assert_string_equal(set(n, RA_DIRECTIVE_STATE_INTERVAL, "0", NULL,
                            NULL),
                        "\"robots_audit_state_interval\" directive invalid "
                        "value");
    n->main.set = 0;
    assert_string_equal(set(n, RA_DIRECTIVE_STATE_INTERVAL, "90s", NULL,
                            NULL), "");
    assert_int_equal(n->main.state_interval, 90000);
    assert_int_equal(n->main.values.alert_interval, -1);
    assert_int_equal(ra_directive_level(RA_DIALECT_NGINX, RA_DIRECTIVE_STATE),
                     RA_CONF_MAIN);

    assert_string_equal(set(a, RA_DIRECTIVE_STATE, "/var/lib/ra.state",
                            NULL, NULL), "");
    assert_string_equal(a->main.state_file, "/var/lib/ra.state");
    assert_string_equal(set(a, RA_DIRECTIVE_STATE, "bad", NULL, NULL),
                        "RobotsAuditState: bad path bad");
    assert_string_equal(set(a, RA_DIRECTIVE_STATE_INTERVAL, "soon", NULL,
                            NULL),
                        "RobotsAuditStateInterval: 'soon' is not a time "
                        "(250ms, 30s, 5m, 1h, 1d, 1m30s; a bare number is "
                        "seconds)");
    assert_string_equal(set(a, RA_DIRECTIVE_STATE_INTERVAL, "1h", NULL,
                            NULL), "");
    assert_int_equal(a->main.state_interval, 3600000);
    assert_int_equal(ra_directive_level(RA_DIALECT_APACHE,
                                        RA_DIRECTIVE_STATE_INTERVAL),
                     RA_CONF_MAIN);
    conf_free(n);
    conf_free(a);
}

static void
files(void **state)
{
    static const char  crawlers[] = "crawler ExampleBot\nua ExampleBot\n"
                                    "category tool\n";
    static const char  bad[] = "User-agent: *\nDisalow: /x\n";
    char               good[64], robots[64];
    conf_t            *n = conf_new(RA_DIALECT_NGINX);
    conf_t            *a = conf_new(RA_DIALECT_APACHE);

    (void) state;

    ra_test_tmp_file(good, crawlers, sizeof(crawlers) - 1);
    ra_test_tmp_file(robots, bad, sizeof(bad) - 1);

    assert_string_equal(set(n, RA_DIRECTIVE_CRAWLERS, good, NULL, NULL), "");
    assert_non_null(n->main.setup.crawlers);
    assert_string_equal(set(n, RA_DIRECTIVE_CRAWLERS, "/nonexistent/c.txt",
                            NULL, NULL),
                        "robots-audit: [RA303] cannot open "
                        "\"/nonexistent/c.txt\": No such file or directory");
    assert_string_equal(set(a, RA_DIRECTIVE_CRAWLERS, "/nonexistent/c.txt",
                            NULL, NULL),
                        "RobotsAuditCrawlers: robots-audit: [RA303] cannot "
                        "open \"/nonexistent/c.txt\": No such file or "
                        "directory");
    assert_string_equal(set(a, RA_DIRECTIVE_CRAWLERS, "bad", NULL, NULL),
                        "RobotsAuditCrawlers: bad path bad");

    /* data files warn, at the directive's place */
    assert_string_equal(set(n, RA_DIRECTIVE_IP_RANGES, "/nonexistent/a.json",
                            "/nonexistent/b.json", NULL), "");
    assert_int_equal(n->log.n, 2);
    assert_ptr_equal(n->log.where[1], n);
    assert_non_null(strstr(n->log.lines[1], "[RA325] cannot open "
                                            "\"/nonexistent/b.json\""));
    assert_null(n->main.setup.where);

    /* a robots.txt file: missing is a state; nginx lints it at once */
    n->log.n = 0;
    assert_string_equal(set(n, RA_DIRECTIVE_ROBOTS_FILE, robots, NULL, NULL),
                        "");
    assert_non_null(n->server.robots);
    assert_true(n->log.n > 0);
    assert_non_null(strstr(n->log.lines[0], "[RA200] "));
    assert_ptr_equal(n->log.where[0], n);
    assert_string_equal(set(n, RA_DIRECTIVE_ROBOTS_FILE, robots, NULL, NULL),
                        "\"robots_audit_robots_file\" directive is "
                        "duplicate");
    assert_string_equal(set(a, RA_DIRECTIVE_ROBOTS_FILE, "nope.txt", NULL,
                            NULL), "");
    assert_true(a->server.robots->missing);
    assert_string_equal(a->server.robots->path, "/srv/nope.txt");
    assert_int_equal(a->log.n, 0);              /* Apache lints later */
    unlink(good);
    unlink(robots);
    conf_free(n);
    conf_free(a);
}

static void
levels_and_merge(void **state)
{
    ra_conf_scope_t  http, srv, loc, out;
    conf_t          *n = conf_new(RA_DIALECT_NGINX);

    (void) state;
    assert_int_equal(ra_directive_level(RA_DIALECT_NGINX,
                                        RA_DIRECTIVE_ALERT_LOG),
                     RA_CONF_SCOPE);
    assert_int_equal(ra_directive_level(RA_DIALECT_APACHE,
                                        RA_DIRECTIVE_ALERT_LOG),
                     RA_CONF_MAIN);
    assert_int_equal(ra_directive_level(RA_DIALECT_NGINX,
                                        RA_DIRECTIVE_ROBOTS_FILE),
                     RA_CONF_SERVER);
    assert_int_equal(ra_directive_level(RA_DIALECT_NGINX,
                                        RA_DIRECTIVE_RESOLVER), 0);
    assert_int_equal(ra_directive_level(RA_DIALECT_APACHE,
                                        RA_DIRECTIVE_STATUS), 0);

    /* http{}: on, an alert log; server{}: enforce; location: off */
    n->cx.scope = &http;
    ra_conf_scope_init(&http);
    assert_string_equal(set(n, RA_DIRECTIVE_AUDIT, "on", NULL, NULL), "");
    assert_string_equal(set(n, RA_DIRECTIVE_ALERT_LOG, "a.log", NULL, NULL),
                        "");
    http.alert_file = &out;
    n->cx.scope = &srv;
    ra_conf_scope_init(&srv);
    assert_string_equal(set(n, RA_DIRECTIVE_ENFORCE, "on", NULL, NULL), "");
    assert_string_equal(set(n, RA_DIRECTIVE_STATUS, NULL, NULL, NULL), "");
    n->cx.scope = &loc;
    ra_conf_scope_init(&loc);
    assert_string_equal(set(n, RA_DIRECTIVE_AUDIT, "off", NULL, NULL), "");

    ra_conf_scope_merge(&srv, &http, &srv);
    assert_int_equal(srv.enable, 1);
    assert_int_equal(srv.enforce, RA_ENFORCE_ON);
    assert_string_equal(srv.alert_log, "a.log");
    assert_ptr_equal(srv.alert_file, &out);
    ra_conf_scope_merge(&out, &srv, &loc);
    assert_int_equal(out.enable, 0);
    assert_int_equal(out.enforce, RA_ENFORCE_ON);
    assert_string_equal(out.alert_log, "a.log");
    assert_false(out.status);               /* a page of its own */
    assert_int_equal(loc.enforce, RA_ENFORCE_OFF);  /* add is left alone */

    /* "off" in a location is its own value, not inherited over */
    n->cx.scope = &loc;
    assert_string_equal(set(n, RA_DIRECTIVE_ALERT_LOG, "off", NULL, NULL),
                        "");
    ra_conf_scope_merge(&loc, &srv, &loc);
    assert_null(loc.alert_log);
    assert_null(loc.alert_file);
    conf_free(n);
}

/* Every server's robots file, in the order written: linted at start into
 * each server's own log (Apache's virtual hosts), and seeded as its site's
 * first version (a missing file records nothing) */
static void
robots_servers(void **state)
{
    static const char  text[] = "User-agent: *\nDisalow: /x\n";
    char               robots[64];
    ra_test_log_t      logs[2];
    ra_conf_server_t   two;
    conf_t            *a = conf_new(RA_DIALECT_APACHE);
    ra_setup_values_t  v;
    ra_audit_conf_t    ac;
    ra_audit_t        *au;
    ra_buf_t           why;
    void              *region;
    size_t             size = 2u * 1024 * 1024;
    ra_ledger_t        ledger;
    const ra_alloc_t  *pool = ra_test_arena_alloc(a->arena);

    (void) state;
    ra_test_tmp_file(robots, text, sizeof(text) - 1);
    memset(logs, 0, sizeof(logs));
    memset(&two, 0, sizeof(two));
    assert_null(a->main.robots_servers);
    a->cx.server_ctx = &logs[0];
    assert_string_equal(set(a, RA_DIRECTIVE_ROBOTS_FILE, robots, NULL, NULL),
                        "");
    a->cx.server = &two;
    a->cx.server_ctx = &logs[1];
    assert_string_equal(set(a, RA_DIRECTIVE_ROBOTS_FILE, "nope.txt", NULL,
                            NULL), "");
    assert_ptr_equal(a->main.robots_servers, &a->server);
    assert_ptr_equal(a->server.next, &two);
    assert_null(two.next);
    assert_int_equal(a->log.n, 0);

    ra_conf_robots_lint(&a->main, &a->host, NULL);
    assert_int_equal(a->log.n, 0);
    assert_true(logs[0].n > 0);
    assert_non_null(strstr(logs[0].lines[0], "[RA200] "));
    assert_int_equal(logs[1].n, 1);
    assert_non_null(strstr(logs[1].lines[0], "[RA201] "));

    assert_int_equal(ra_sitenames_init(&a->server.names, pool,
                                       S("one.example")), RA_OK);
    assert_int_equal(ra_sitenames_init(&two.names, pool, S("two.example")),
                     RA_OK);
    ra_buf_init(&why, &ra_malloc_allocator, 0, 0);
    assert_int_equal(ra_setup_compile(&a->main.setup, &why), RA_OK);
    ra_buf_release(&why);
    memset(&v, 0, sizeof(v));
    v.alert_interval = -1;
    ra_setup_audit_conf(&ac, &a->main.setup, &a->host, S("zone"), &v);
    region = malloc(size);
    assert_int_equal(ra_ledger_format(region, size, 0), RA_OK);
    ra_ledger_open(&ledger, region, NULL);
    au = ra_audit_create(&ac, &ledger);
    assert_non_null(au);
    ra_conf_robots_seed(&a->main, NULL, 1000);      /* no engine: nothing */
    /* an engine of its own, as nginx's master seeds */
    assert_int_equal(ra_conf_robots_seed_ledger(&a->main, &a->host, S("zone"),
                                                &ledger, 1000), RA_OK);
    assert_int_not_equal(ra_ledger_site_find_locked(&ledger,
                                                    S("one.example"), 1000),
                         0);
    ra_conf_robots_seed(&a->main, au, 1000);
    assert_int_not_equal(ra_ledger_site_find_locked(&ledger,
                                                    S("one.example"), 1000),
                         0);
    assert_int_equal(ra_ledger_site_find_locked(&ledger, S("two.example"),
                                                1000), 0);
    ra_audit_destroy(au);
    free(region);
    unlink(robots);
    conf_free(a);
}

static void *
no_memory(void *ctx, size_t size)
{
    (void) ctx;
    (void) size;
    return NULL;
}

/* the crawler table built once the directives are read, its failure said
 * the same in every server, at the place given */
static void
compile_tables(void **state)
{
    conf_t      *n = conf_new(RA_DIALECT_NGINX);
    conf_t      *a = conf_new(RA_DIALECT_APACHE);
    ra_alloc_t   none = { no_memory, NULL, NULL };

    (void) state;
    assert_int_equal(ra_conf_compile(&n->main, &n->host, n), RA_OK);
    assert_true(n->main.setup.compiled);
    assert_int_equal(n->log.n, 0);

    a->main.setup.alloc = &none;
    assert_int_not_equal(ra_conf_compile(&a->main, &a->host, NULL), RA_OK);
    assert_false(a->main.setup.compiled);
    assert_int_equal(a->log.n, 1);
    assert_non_null(strstr(a->log.lines[0], "[" RA_TAG_CRAWLERS "] "));
    assert_null(a->log.where[0]);
    conf_free(n);
    conf_free(a);
}

/* what the glue asks of a scope once its words are read: which log file
 * to open, whether it needs a zone, whether its requests are audited;
 * and the line a server says when it cannot open a log */
static void
scope_questions(void **state)
{
    ra_conf_scope_t  c;

    (void) state;
    ra_conf_scope_init(&c);
    assert_null(ra_conf_scope_log_file(&c, RA_DIRECTIVE_ALERT_LOG));
    c.evidence_log = "/var/log/ev.log";
    assert_ptr_equal(ra_conf_scope_log_file(&c, RA_DIRECTIVE_EVIDENCE_LOG),
                     &c.evidence_file);
    assert_null(ra_conf_scope_log_file(&c, RA_DIRECTIVE_ALERT_LOG));
    assert_null(ra_conf_scope_log_file(&c, RA_DIRECTIVE_STATUS));
    c.alert_log = "/var/log/al.log";
    assert_ptr_equal(ra_conf_scope_log_file(&c, RA_DIRECTIVE_ALERT_LOG),
                     &c.alert_file);

    assert_null(ra_conf_scope_unzoned(&c, 0));
    assert_false(ra_conf_scope_audits(&c, 0));
    c.enable = 1;
    assert_non_null(strstr(ra_conf_scope_unzoned(&c, 0), "need a zone"));
    assert_null(ra_conf_scope_unzoned(&c, 1));
    assert_true(ra_conf_scope_audits(&c, 0));
    assert_false(ra_conf_scope_audits(&c, 1));
    c.enforce = RA_ENFORCE_ALL;
    assert_true(ra_conf_scope_audits(&c, 1));
    c.status = 1;
    assert_false(ra_conf_scope_audits(&c, 0));
    c.enable = 0;
    assert_non_null(ra_conf_scope_unzoned(&c, 0));

    assert_string_equal(ra_logfile_unopened(RA_LOGFILE_ALERT, "/x.log"),
                        RA_LOG_PREFIX "[" RA_TAG_ALERT_LOG "] cannot open "
                        "the alert log ");
    assert_string_equal(ra_logfile_unopened(RA_LOGFILE_EVIDENCE, "|prog"),
                        RA_LOG_PREFIX "[" RA_TAG_EVIDENCE_LOG "] cannot "
                        "start the evidence log program ");
    assert_string_equal(ra_logfile_target("|prog -x"), "prog -x");
    assert_string_equal(ra_logfile_target("/x.log"), "/x.log");
}

/* out of memory, the page says 500 and the core's log line says so,
 * about the request the server named */
static void
status_page_out_of_memory(void **state)
{
    conf_t            *c = conf_new(RA_DIALECT_APACHE);
    ra_reply_t         reply;
    ra_status_page_t   page;
    ra_ledger_t        ledger;
    ra_alloc_t         none = { no_memory, NULL, NULL };
    size_t             size = 1u << 20;
    void              *region = malloc(size);
    int                request;

    (void) state;
    assert_int_equal(ra_ledger_format(region, size, 0), RA_OK);
    ra_ledger_open(&ledger, region, NULL);
    assert_int_equal(ra_conf_status_page(&c->main, &ledger, &c->host,
                                         &request, S("GET"), S(""), 0, &none,
                                         &page, &reply), RA_ENOMEM);
    assert_int_equal(reply.status, 500);
    assert_int_equal(c->log.n, 1);
    assert_ptr_equal(c->log.where[0], &request);
    assert_non_null(strstr(c->log.lines[0], "[RA311] out of memory "
                                            "rendering the status page"));
    ra_status_page_free(&page);
    free(region);
    conf_free(c);
}

/* the status page a server answers from its configuration: the reply
 * as it sends it, a 405 with its Allow, a HEAD's headers alone, and a
 * server with no ledger */
static void
status_page_reply(void **state)
{
    conf_t            *c = conf_new(RA_DIALECT_NGINX);
    ra_reply_t         reply;
    ra_status_page_t   page;

    (void) state;
    assert_int_equal(ra_conf_status_page(&c->main, NULL, &c->host, NULL,
                                         S("POST"), S(""), 0,
                                         &ra_malloc_allocator, &page,
                                         &reply), RA_OK);
    assert_int_equal(reply.status, 405);
    assert_int_equal(page.status, 405);
    assert_string_equal(reply.fields[0].name, "Cache-Control");
    assert_string_equal(reply.fields[1].name, "Allow");
    assert_string_equal(reply.fields[1].value, "GET, HEAD");
    assert_null(reply.fields[2].name);
    assert_ptr_equal(reply.body.data, page.body.data);
    ra_status_page_free(&page);

    assert_int_equal(ra_conf_status_page(&c->main, NULL, &c->host, NULL,
                                         S("HEAD"), S("format=json"), 0,
                                         &ra_malloc_allocator, &page,
                                         &reply), RA_OK);
    assert_int_equal(reply.status, 503);
    assert_true(reply.header_only);
    assert_non_null(reply.content_type);
    assert_null(reply.fields[1].name);
    assert_int_equal(reply.body.len, page.body.len);
    ra_status_page_free(&page);
    conf_free(c);
}

/* the crawler policy's directives: words that add up, a body file typed
 * by its name, the refusal's status once a block (nginx), inheritance by
 * part, and a scope that blocks is judged before its content */
static void
policy_directives(void **state)
{
    conf_t           *c = conf_new(RA_DIALECT_NGINX);
    ra_conf_scope_t   loc, merged;
    char              path[] = "/tmp/ra-test-policy-XXXXXX.json";
    int               fd;

    (void) state;
    assert_string_equal(set(c, RA_DIRECTIVE_BLOCK, "purpose", "ai-training",
                            NULL), "");
    assert_true(c->main.enforce_wanted);
    assert_string_equal(set(c, RA_DIRECTIVE_BLOCK, "crawler", "Bytespider",
                            NULL), "");
    assert_string_equal(set(c, RA_DIRECTIVE_ALLOW, "crawler", "GPTBot",
                            NULL), "");
    assert_string_equal(set(c, RA_DIRECTIVE_BLOCK, "purpose", "scraping",
                            NULL),
                        "invalid value \"scraping\" in \"robots_audit_block\" "
                        "directive: is not a purpose: search, ai-training, "
                        "ai-search, ai-user, seo, social-preview, feed, "
                        "monitoring, archive, tool, academic, "
                        "security-scanner or generic");
    assert_string_equal(set(c, RA_DIRECTIVE_ALLOW, "purpose", "search",
                            NULL),
                        "invalid value \"purpose\" in \"robots_audit_allow\" "
                        "directive: is not \"crawler\" (exceptions are "
                        "crawlers by name)");
    assert_string_equal(set(c, RA_DIRECTIVE_REFUSE_STATUS, "402", NULL,
                            NULL), "");
    assert_string_equal(set(c, RA_DIRECTIVE_REFUSE_STATUS, "429", NULL,
                            NULL),
                        "\"robots_audit_refuse_status\" directive is "
                        "duplicate");
    assert_int_equal(c->scope.policy.status, 402);

    fd = mkstemps(path, 5);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "{}\n", 3), 3);
    close(fd);
    assert_string_equal(set(c, RA_DIRECTIVE_REFUSE_BODY, path, NULL, NULL),
                        "");
    assert_int_equal(c->scope.policy.body.len, 3);
    assert_string_equal(c->scope.policy.content_type, "application/json");
    unlink(path);
    assert_string_equal(set(c, RA_DIRECTIVE_REFUSE_BODY, path, NULL, NULL),
                        "\"robots_audit_refuse_body\" directive is "
                        "duplicate");

    /* listed once for the status page */
    assert_non_null(c->main.policies);
    assert_ptr_equal(c->main.policies->policy, &c->scope.policy);
    assert_null(c->main.policies->next);

    /* a location that writes only its status keeps the rest */
    ra_conf_scope_init(&loc);
    loc.enable = 1;
    c->cx.scope = &loc;
    assert_non_null(strstr(set(c, RA_DIRECTIVE_REFUSE_BODY,
                               "/nonexistent/x.txt", NULL, NULL),
                           "cannot open"));
    assert_string_equal(set(c, RA_DIRECTIVE_REFUSE_STATUS, "429", NULL,
                            NULL), "");
    ra_conf_scope_merge(&merged, &c->scope, &loc);
    assert_int_equal(merged.policy.status, 429);
    assert_int_equal(merged.policy.purposes, 1u << RA_CAT_AI_TRAINING);
    assert_non_null(merged.policy.block);
    assert_non_null(merged.policy.allow);
    assert_int_equal(merged.policy.body.len, 3);
    assert_true(ra_conf_scope_audits(&merged, 1));
    merged.policy.purposes = 0;
    merged.policy.block = NULL;
    assert_false(ra_conf_scope_audits(&merged, 1));
    assert_true(ra_conf_scope_audits(&merged, 0));
    conf_free(c);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(zone),
        cmocka_unit_test(flag_and_enforce),
        cmocka_unit_test(times_and_budget),
        cmocka_unit_test(evidence_log_and_budget),
        cmocka_unit_test(alert_purposes),
        cmocka_unit_test(alert_log_and_resolver),
        cmocka_unit_test(state_file),
        cmocka_unit_test(files),
        cmocka_unit_test(levels_and_merge),
        cmocka_unit_test(robots_servers),
        cmocka_unit_test(compile_tables),
        cmocka_unit_test(scope_questions),
        cmocka_unit_test(policy_directives),
        cmocka_unit_test(status_page_reply),
        cmocka_unit_test(status_page_out_of_memory),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
