/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The product's directives (ra_directive.h): each server's words read,
 * checked and kept once, with the message each server shows for a bad
 * one.  The phrasing differs by server because each keeps its own
 * conventions (nginx's "invalid value ... in ... directive", Apache's
 * "Directive: 'word': ..."), and the tests and operators read them so.
 */
#include <errno.h>
#include <string.h>

#include "ra_directive.h"
#include "ra_evidence.h"
#include "ra_status.h"
#include "ra_tags.h"

typedef struct {
    unsigned char  kind;
    unsigned char  arg;
    unsigned char  level[2];            /* by ra_dialect_e */
    const char    *name[2];
} ra_directive_t;

/* the scope that keeps a value: the narrowest its directive is allowed in */
#define RA_LEVEL_NGX_MAIN       RA_CONF_MAIN
#define RA_LEVEL_NGX_SRV        RA_CONF_SERVER
#define RA_LEVEL_NGX_LOC        RA_CONF_SCOPE
#define RA_LEVEL_NGX_ANY        RA_CONF_SCOPE
#define RA_LEVEL_NGX_NONE       0
#define RA_LEVEL_AP_GLOBAL      RA_CONF_MAIN
#define RA_LEVEL_AP_SERVER      RA_CONF_SERVER
#define RA_LEVEL_AP_DIR         RA_CONF_SCOPE
#define RA_LEVEL_AP_NONE        0

#define RA_DIRECTIVE_ROW(id, kind, arg, nname, nwhere, nargs, aname,       \
    awhere, aargs, help)                                                    \
    [RA_DIRECTIVE_##id] = { RA_DK_##kind, arg,                              \
                            { RA_LEVEL_NGX_##nwhere, RA_LEVEL_AP_##awhere },\
                            { nname, aname } },

static const ra_directive_t  ra_directives[RA_DIRECTIVE_N] = {
    RA_DIRECTIVES(RA_DIRECTIVE_ROW)
};

#define RA_BIT(id)  (1u << (id))

/* a word as a C string from the configuration's pool */
static const char *
ra_directive_copy(const ra_conf_main_t *m, ra_str_t w)
{
    char  *p = ra_alloc(m->setup.alloc, w.len + 1);

    if (p != NULL) {
        memcpy(p, w.data, w.len);
        p[w.len] = '\0';
    }
    return p;
}

/* a value written twice in one nginx block is refused, as nginx's own
 * directives refuse it; Apache keeps the last */
static int
ra_directive_once(const ra_directive_cx_t *cx, uint32_t *set,
    ra_directive_e id, ra_buf_t *msg)
{
    if (cx->dialect == RA_DIALECT_NGINX && (*set & RA_BIT(id))) {
        ra_buf_printf(msg, "\"%s\" directive is duplicate",
                      ra_directives[id].name[0]);
        return RA_ERROR;
    }
    *set |= RA_BIT(id);
    return RA_OK;
}

/* "invalid value "W" in "NAME" directive: WHY" or "Name: 'W': WHY" */
static int
ra_directive_bad(const ra_directive_cx_t *cx, ra_directive_e id,
    ra_str_t w, const char *why, ra_buf_t *msg)
{
    const char  *name = ra_directives[id].name[cx->dialect];

    if (cx->dialect == RA_DIALECT_NGINX) {
        ra_buf_printf(msg, "invalid value \"%.*s\" in \"%s\" directive%s%s",
                      (int) w.len, (const char *) w.data, name,
                      why[0] == ',' ? "" : ": ", why);
    } else {
        ra_buf_printf(msg, "%s: '%.*s': %s", name, (int) w.len,
                      (const char *) w.data, why);
    }
    return RA_ERROR;
}

/* a configured file's trouble, tagged as the core's lines are; Apache
 * names the directive first (its message has no place of its own) */
static int
ra_directive_file_failed(const ra_directive_cx_t *cx, ra_directive_e id,
    ra_buf_t *why, ra_buf_t *msg)
{
    if (cx->dialect == RA_DIALECT_APACHE) {
        ra_buf_printf(msg, "%s: ", ra_directives[id].name[1]);
    }
    ra_buf_printf(msg, RA_LOG_PREFIX "[" RA_TAG_CONFIG_FILE "] %.*s",
                  (int) why->len, why->data != NULL ? (const char *) why->data
                                                    : "out of memory");
    return RA_ERROR;
}

static const char *
ra_directive_path(const ra_directive_cx_t *cx, ra_directive_e id,
    ra_str_t w, ra_buf_t *msg)
{
    const char  *path = cx->path(cx->path_ctx, w);

    if (path == NULL) {
        ra_buf_printf(msg, "%s: bad path %.*s",
                      ra_directives[id].name[cx->dialect], (int) w.len,
                      (const char *) w.data);
    }
    return path;
}

static int
ra_directive_zone(const ra_directive_cx_t *cx, ra_conf_main_t *m,
    const ra_str_t *words, size_t n, ra_buf_t *msg)
{
    int       nginx = cx->dialect == RA_DIALECT_NGINX;
    ra_str_t  w = words[n - 1];
    ra_buf_t  why;

    if (ra_directive_once(cx, &m->set, RA_DIRECTIVE_ZONE, msg) != RA_OK) {
        return RA_ERROR;
    }
    if (ra_parse_size(w, &m->zone_size) != RA_OK) {
        ra_buf_printf(msg, nginx ? "invalid robots_audit_zone size \"%.*s\""
                      : "RobotsAuditZoneSize: '%.*s' is not a size (bytes, "
                        "or a number with k, m or g)",
                      (int) w.len, (const char *) w.data);
        return RA_ERROR;
    }
    ra_buf_init(&why, msg->alloc, 0, 256);
    if (ra_zone_size_check(m->zone_size, cx->zone_overhead, &why) != RA_OK) {
        /* the core's predicate, after the value */
        if (nginx) {
            ra_buf_printf(msg, "robots_audit_zone \"%.*s\" size \"%.*s\" ",
                          (int) words[0].len, (const char *) words[0].data,
                          (int) w.len, (const char *) w.data);
        } else {
            ra_buf_printf(msg, "RobotsAuditZoneSize: %.*s ", (int) w.len,
                          (const char *) w.data);
        }
        ra_buf_add(msg, why.data, why.len);
        return RA_ERROR;
    }
    m->zone_wanted = 1;
    if (!nginx) {
        return RA_OK;
    }

    /* how lines name the zone */
    m->zone_name = words[0];
    ra_buf_init(&why, m->setup.alloc, 0, 0);
    ra_buf_printf(&why, "robots_audit_zone \"%.*s\"", (int) words[0].len,
                  (const char *) words[0].data);
    m->zone_text = ra_str(why.data, why.len);
    return why.failed ? RA_ENOMEM : RA_OK;
}

static int
ra_directive_flag(const ra_directive_cx_t *cx, ra_directive_e id,
    ra_str_t w, ra_buf_t *msg)
{
    ra_conf_scope_t  *c = cx->scope;

    if (ra_directive_once(cx, &c->set, id, msg) != RA_OK) {
        return RA_ERROR;
    }
    if (ra_strcaseeq(w, ra_str("on", 2))) {
        c->enable = 1;
        cx->main->zone_wanted = 1;
        return RA_OK;
    }
    if (ra_strcaseeq(w, ra_str("off", 3))) {
        c->enable = 0;
        return RA_OK;
    }
    if (cx->dialect == RA_DIALECT_APACHE) {
        ra_buf_printf(msg, "%s must be On or Off",
                      ra_directives[id].name[1]);
        return RA_ERROR;
    }
    return ra_directive_bad(cx, id, w, ", it must be \"on\" or \"off\"", msg);
}

/* nginx lints the file at once, into the configuration test's output
 * with its place; Apache lints every server's after reading them all */
static int
ra_directive_robots(const ra_directive_cx_t *cx, ra_str_t w, ra_buf_t *msg)
{
    ra_buf_t           why;
    const char        *path;
    ra_conf_server_t  *c = cx->server, **last;
    const ra_setup_t  *s = &cx->main->setup;

    if (ra_directive_once(cx, &c->set, RA_DIRECTIVE_ROBOTS_FILE, msg)
        != RA_OK)
    {
        return RA_ERROR;
    }
    path = ra_directive_path(cx, RA_DIRECTIVE_ROBOTS_FILE, w, msg);
    if (path == NULL) {
        return RA_ERROR;
    }
    c->robots = ra_alloc(s->alloc, sizeof(ra_robots_file_t));
    if (c->robots == NULL) {
        return RA_ENOMEM;
    }
    memset(c->robots, 0, sizeof(ra_robots_file_t));
    ra_buf_init(&why, msg->alloc, 0, 1024);
    if (ra_robots_file_load(s->host, s->alloc, path, c->robots, &why)
        != RA_OK)
    {
        c->robots = NULL;
        return ra_directive_file_failed(cx, RA_DIRECTIVE_ROBOTS_FILE, &why,
                                        msg);
    }
    if (cx->dialect == RA_DIALECT_NGINX) {
        ra_robots_file_lint(s->host, cx->where, c->robots);
    }
    /* last on the list: linted and seeded in the order written */
    c->host_ctx = cx->server_ctx;
    for (last = &cx->main->robots_servers; *last != NULL;
         last = &(*last)->next)
    {
        /* a few servers: no tail kept */
    }
    *last = c;
    return RA_OK;
}

int
ra_conf_compile(ra_conf_main_t *m, const ra_host_t *h, void *where)
{
    int       rc;
    ra_buf_t  why;

    /* the writer where the glue opens the stream: m as it is now (a
     * server may have copied it since its directives were read) */
    m->values.events = m->events_to != NULL ? &m->events : NULL;
    ra_buf_init(&why, &h->heap, 0, 1024);
    rc = ra_setup_compile(&m->setup, &why);
    if (rc != RA_OK) {
        ra_logf(h, where, RA_LOG_EMERG, RA_TAG_CRAWLERS, "%.*s",
                (int) why.len, why.data != NULL ? (const char *) why.data
                                                : "out of memory");
    }
    ra_buf_release(&why);
    return rc;
}

void
ra_conf_robots_lint(const ra_conf_main_t *m, const ra_host_t *h,
    void *where)
{
    ra_host_t                hc = *h;
    const ra_conf_server_t  *c;

    for (c = m->robots_servers; c != NULL; c = c->next) {
        hc.ctx = c->host_ctx != NULL ? c->host_ctx : h->ctx;
        ra_robots_file_lint(&hc, where, c->robots);
    }
}

void
ra_conf_robots_seed(const ra_conf_main_t *m, ra_audit_t *au, int64_t now)
{
    const ra_conf_server_t  *c;

    for (c = m->robots_servers; c != NULL && au != NULL; c = c->next) {
        (void) ra_robots_file_seed(au, c->names.primary, c->robots, now);
    }
}

int
ra_conf_robots_seed_ledger(const ra_conf_main_t *m, const ra_host_t *h,
    ra_str_t zone, ra_ledger_t *l, int64_t now)
{
    ra_audit_t       *au;
    ra_audit_conf_t   conf;

    au = ra_conf_engine(m, &conf, h, zone, l);
    if (au == NULL) {
        return RA_ENOMEM;
    }
    ra_conf_robots_seed(m, au, now);
    ra_audit_destroy(au);
    return RA_OK;
}

ra_audit_t *
ra_conf_engine(const ra_conf_main_t *m, ra_audit_conf_t *conf,
    const ra_host_t *h, ra_str_t zone, ra_ledger_t *l)
{
    return ra_setup_engine(conf, &m->setup, h, zone, &m->values, l);
}

const char *
ra_conf_log_path(const ra_conf_main_t *m, unsigned which)
{
    switch (which) {
    case RA_LOGFILE_ALERT:
        return m->alert_log;
    case RA_LOGFILE_EVIDENCE:
        return m->evidence_log;
    default:
        return m->events_to;
    }
}

void
ra_conf_status_src(const ra_conf_main_t *m, ra_ledger_t *l,
    const ra_host_t *h, struct ra_status_src_s *src)
{
    src->ledger = l;
    src->crawlers = m->setup.crawlers;
    src->ranges = m->setup.ranges;
    src->resolver = h->rdns_start != NULL;
    src->policies = m->policies;
}

int
ra_conf_status_page(const ra_conf_main_t *m, ra_ledger_t *l,
    const ra_host_t *h, void *where, ra_str_t method, ra_str_t query,
    int64_t now, const ra_alloc_t *a, ra_status_page_t *page,
    ra_reply_t *reply)
{
    int              rc;
    ra_status_src_t  src;

    ra_conf_status_src(m, l, h, &src);
    rc = ra_status_page_src(&src, method, query, now, a, page);
    if (rc == RA_ENOMEM) {
        ra_logf(h, where, RA_LOG_ERR, RA_TAG_NOMEM,
                "out of memory rendering the status page");
    }
    ra_status_page_reply(page, reply);
    return rc;
}

static int
ra_directive_table(const ra_directive_cx_t *cx, ra_directive_e id,
    const ra_str_t *words, size_t n, ra_buf_t *msg)
{
    int          rc;
    size_t       i;
    ra_buf_t     why;
    const char  *path;
    ra_setup_t  *s = &cx->main->setup;

    for (i = 0; i < n; i++) {
        path = ra_directive_path(cx, id, words[i], msg);
        if (path == NULL) {
            return RA_ERROR;
        }
        ra_buf_init(&why, msg->alloc, 0, 1024);
        s->where = cx->where;           /* RA203 "in nginx.conf:N" */
        rc = ra_setup_table_file(s, (ra_setup_table_e)
                                 ra_directives[id].arg, path, &why);
        s->where = NULL;
        if (rc != RA_OK) {
            return ra_directive_file_failed(cx, id, &why, msg);
        }
    }
    return RA_OK;
}

static int
ra_directive_msec(const ra_directive_cx_t *cx, ra_directive_e id,
    ra_str_t w, ra_buf_t *msg)
{
    int64_t          ms;
    ra_conf_main_t  *m = cx->main;

    if (ra_directive_once(cx, &m->set, id, msg) != RA_OK) {
        return RA_ERROR;
    }
    switch (ra_directives[id].arg) {
    case RA_DIRECTIVE_SIG_AGE:
        if (ra_parse_msec(w, &m->values.sig_max_age) == RA_OK) {
            return RA_OK;
        }
        break;
    case RA_DIRECTIVE_STATE_EVERY:
        /* 0 would save without end: a time is needed */
        if (ra_parse_msec(w, &ms) == RA_OK && ms > 0) {
            m->state_interval = ms;
            return RA_OK;
        }
        break;
    default:
        if (ra_parse_msec(w, &m->values.alert_interval) == RA_OK) {
            return RA_OK;
        }
    }
    if (cx->dialect == RA_DIALECT_NGINX) {
        ra_buf_printf(msg, "\"%s\" directive invalid value",
                      ra_directives[id].name[0]);
    } else {
        ra_buf_printf(msg, "%s: '%.*s' is not a time (250ms, 30s, 5m, 1h, "
                      "1d, 1m30s; a bare number is seconds)",
                      ra_directives[id].name[1], (int) w.len,
                      (const char *) w.data);
    }
    return RA_ERROR;
}

/* nginx: a file it opens itself (and reopens), or off, per location;
 * Apache: a file or |program, for the whole server.  The alert log's and
 * the evidence log's alike (id). */
static int
ra_directive_alert_log(const ra_directive_cx_t *cx, ra_directive_e id,
    ra_str_t w, ra_buf_t *msg)
{
    int               ev = ra_directives[id].arg == RA_DIRECTIVE_EVIDENCE;
    ra_conf_scope_t  *c = cx->scope;
    const char      **path;
    void            **file;

    if (cx->dialect == RA_DIALECT_NGINX) {
        if (ra_directive_once(cx, &c->set, id, msg) != RA_OK) {
            return RA_ERROR;
        }
        path = ev ? &c->evidence_log : &c->alert_log;
        file = ev ? &c->evidence_file : &c->alert_file;
        *file = NULL;
        if (w.len == 3 && memcmp(w.data, "off", 3) == 0) {
            *path = NULL;
            return RA_OK;
        }
        *path = ra_directive_copy(cx->main, w);
        return *path != NULL ? RA_OK : RA_ENOMEM;
    }
    path = ev ? &cx->main->evidence_log : &cx->main->alert_log;
    if (w.len > 0 && w.data[0] == '|') {
        if (w.len == 1) {
            ra_buf_printf(msg, "%s: '|' needs a program",
                          ra_directives[id].name[1]);
            return RA_ERROR;
        }
        *path = ra_directive_copy(cx->main, w);
        return *path != NULL ? RA_OK : RA_ENOMEM;
    }
    *path = ra_directive_path(cx, id, w, msg);
    return *path != NULL ? RA_OK : RA_ERROR;
}

static int
ra_directive_enforce(const ra_directive_cx_t *cx, const ra_str_t *words,
    size_t n, ra_buf_t *msg)
{
    size_t       i;
    const char  *why;

    /* words add up, in one directive or several */
    for (i = 0; i < n; i++) {
        if (ra_enforce_word(&cx->scope->enforce, words[i], &why) != RA_OK) {
            return ra_directive_bad(cx, RA_DIRECTIVE_ENFORCE, words[i], why,
                                    msg);
        }
    }
    if (ra_enforce_any(cx->scope->enforce)) {
        cx->main->enforce_wanted = 1;
    }
    return RA_OK;
}

static int
ra_directive_purposes(const ra_directive_cx_t *cx, ra_directive_e id,
    const ra_str_t *words, size_t n, ra_buf_t *msg)
{
    size_t       i;
    ra_str_t     bad;
    const char  *why;

    /* a word may itself be a comma-separated list; repeats add up */
    for (i = 0; i < n; i++) {
        why = ra_alert_purposes_parse(words[i],
                                      &cx->main->values.alert_purposes, &bad);
        if (why != NULL) {
            ra_buf_printf(msg, cx->dialect == RA_DIALECT_NGINX
                          ? "\"%s\": \"%.*s\" %s" : "%s: '%.*s' %s",
                          ra_directives[id].name[cx->dialect], (int) bad.len,
                          (const char *) bad.data, why);
            return RA_ERROR;
        }
    }
    return RA_OK;
}

/* the evidence log's budget: a size, or off */
static int
ra_directive_bytes(const ra_directive_cx_t *cx, ra_directive_e id,
    ra_str_t w, ra_buf_t *msg)
{
    uint64_t     n = 0;
    const char  *why;

    if (ra_strcaseeq(w, ra_str("off", 3))) {
        n = RA_EVIDENCE_BUDGET_OFF;
        why = NULL;
    } else {
        why = ra_parse_size(w, &n) == RA_OK ? ra_evidence_budget_check(n)
                                            : ra_evidence_budget_check(0);
    }
    if (why != NULL) {
        return ra_directive_bad(cx, id, w, why, msg);
    }
    cx->main->values.evidence_budget = n;
    return RA_OK;
}

/* a policy written in a scope goes on the status page's list, once */
static int
ra_directive_policy_listed(const ra_directive_cx_t *cx)
{
    ra_policy_site_t  *e, **last;

    for (last = &cx->main->policies; *last != NULL; last = &(*last)->next) {
        if ((*last)->policy == &cx->scope->policy) {
            return RA_OK;
        }
    }
    e = ra_alloc(cx->main->setup.alloc, sizeof(*e));
    if (e == NULL) {
        return RA_ENOMEM;
    }
    e->site = &cx->server->names.primary;
    e->policy = &cx->scope->policy;
    e->next = NULL;
    *last = e;
    return RA_OK;
}

/* robots_audit_block, robots_audit_allow: words that add up; a scope
 * that blocks is judged before its content, as enforce's */
static int
ra_directive_policy(const ra_directive_cx_t *cx, ra_directive_e id,
    const ra_str_t *words, size_t n, ra_buf_t *msg)
{
    int          rc;
    ra_str_t     bad;
    const char  *why = "";

    rc = ra_policy_words(&cx->scope->policy, ra_directives[id].arg, words, n,
                         cx->main->setup.alloc, &bad, &why);
    if (rc == RA_ERROR) {
        return ra_directive_bad(cx, id, bad, why, msg);
    }
    if (rc != RA_OK) {
        return rc;
    }
    if (ra_policy_any(&cx->scope->policy)) {
        cx->main->enforce_wanted = 1;
    }
    return ra_directive_policy_listed(cx);
}

/* robots_audit_refuse_status and _body: once a block each in nginx */
static int
ra_directive_refuse(const ra_directive_cx_t *cx, ra_directive_e id,
    ra_str_t w, ra_buf_t *msg)
{
    int           rc;
    size_t        size;
    ra_buf_t      why;
    const char   *path, *phrase;
    ra_policy_t  *p = &cx->scope->policy;

    if (ra_directive_once(cx, &cx->scope->set, id, msg) != RA_OK) {
        return RA_ERROR;
    }
    if (ra_directives[id].arg == 0) {
        return ra_policy_status_word(p, w, &phrase) == RA_OK
               ? RA_OK : ra_directive_bad(cx, id, w, phrase, msg);
    }
    path = ra_directive_path(cx, id, w, msg);
    if (path == NULL) {
        return RA_ERROR;
    }
    ra_buf_init(&why, msg->alloc, 0, 1024);
    rc = ra_host_read_file(cx->main->setup.host, path, RA_POLICY_BODY_MAX + 1,
                           cx->main->setup.alloc, &p->body, &size, &why);
    if (rc == RA_OK && size > RA_POLICY_BODY_MAX) {
        ra_buf_printf(&why, "\"%s\" is larger than %u bytes", path,
                      (unsigned) RA_POLICY_BODY_MAX);
        rc = RA_ERROR;
    }
    if (rc != RA_OK) {
        p->body = ra_str("", 0);
        return ra_directive_file_failed(cx, id, &why, msg);
    }
    p->content_type = ra_policy_content_type(w);
    p->set |= RA_POLICY_SET_BODY;
    return RA_OK;
}

int
ra_directive_set(const ra_directive_cx_t *cx, ra_directive_e id,
    const ra_str_t *words, size_t n, ra_buf_t *msg)
{
    char         err[256];
    const char  *why;

    switch (ra_directives[id].kind) {

    case RA_DK_ZONE:
        return ra_directive_zone(cx, cx->main, words, n, msg);

    case RA_DK_FLAG:
        return ra_directive_flag(cx, id, words[0], msg);

    case RA_DK_STATUS:
        cx->scope->status = 1;
        return RA_OK;

    case RA_DK_ROBOTS:
        return ra_directive_robots(cx, words[0], msg);

    case RA_DK_TABLE:
        return ra_directive_table(cx, id, words, n, msg);

    case RA_DK_MSEC:
        return ra_directive_msec(cx, id, words[0], msg);

    case RA_DK_ALERT_LOG:
        return ra_directive_alert_log(cx, id, words[0], msg);

    case RA_DK_RESOLVER:
        /* "system": /etc/resolv.conf's servers */
        cx->main->resolver = words[0].len == 6
                             && memcmp(words[0].data, "system", 6) == 0
                             ? "" : ra_directive_copy(cx->main, words[0]);
        if (cx->main->resolver == NULL) {
            return RA_ENOMEM;
        }
        if (cx->resolver_check != NULL
            && cx->resolver_check(cx->main->resolver, err, sizeof(err))
               != RA_OK)
        {
            ra_buf_printf(msg, "%s %s: %s",
                          ra_directives[id].name[cx->dialect],
                          cx->main->resolver, err);
            return RA_ERROR;
        }
        return RA_OK;

    case RA_DK_BUDGET:
        why = ra_alert_budget_parse(words[0], words[1],
                                    &cx->main->values.alert_budget);
        if (why != NULL) {
            ra_buf_printf(msg, cx->dialect == RA_DIALECT_NGINX
                          ? "\"%s\" directive %s" : "%s %s",
                          ra_directives[id].name[cx->dialect], why);
            return RA_ERROR;
        }
        return RA_OK;

    case RA_DK_PURPOSES:
        return ra_directive_purposes(cx, id, words, n, msg);

    case RA_DK_BYTES:
        return ra_directive_bytes(cx, id, words[0], msg);

    case RA_DK_UNDECL:
        if (ra_directive_once(cx, &cx->main->set, id, msg) != RA_OK) {
            return RA_ERROR;
        }
        if (!ra_strcaseeq(words[0], ra_str("on", 2))
            && !ra_strcaseeq(words[0], ra_str("off", 3)))
        {
            if (cx->dialect == RA_DIALECT_APACHE) {
                ra_buf_printf(msg, "%s must be On or Off",
                              ra_directives[id].name[1]);
                return RA_ERROR;
            }
            return ra_directive_bad(cx, id, words[0],
                                    ", it must be \"on\" or \"off\"", msg);
        }
        cx->main->values.undeclared_off = words[0].len == 3;
        return RA_OK;

    case RA_DK_STATE:
        if (ra_directive_once(cx, &cx->main->set, id, msg) != RA_OK) {
            return RA_ERROR;
        }
        cx->main->state_file = ra_directive_path(cx, id, words[0], msg);
        return cx->main->state_file != NULL ? RA_OK : RA_ERROR;

    case RA_DK_EVENTS:
        /* nginx sends through its own syslog writer only; Apache through
         * the core's (ra_syslog.h), a piped log or a file */
        if (ra_directive_once(cx, &cx->main->set, id, msg) != RA_OK) {
            return RA_ERROR;
        }
        if (cx->dialect == RA_DIALECT_NGINX
            && !ra_startswith_ci(words[0], "syslog:"))
        {
            ra_buf_printf(msg, "\"%s\" directive takes syslog:server=ADDR"
                          "[,tag=TAG]", ra_directives[id].name[cx->dialect]);
            return RA_ERROR;
        }
        if (ra_syslog_is(words[0])) {
            /* a datagram each: a longer line is dropped, and counted */
            cx->main->events.most = RA_EVENTS_DATAGRAM_MAX;
            if (cx->dialect == RA_DIALECT_APACHE
                && ra_syslog_parse(&cx->main->events_syslog, words[0],
                                   RA_EVENTS_SYSLOG_TAG, msg) != RA_OK)
            {
                return RA_ERROR;
            }
        }
        cx->main->events_to = words[0].data[0] == '|'
                              || ra_syslog_is(words[0])
                              ? ra_directive_copy(cx->main, words[0])
                              : ra_directive_path(cx, id, words[0], msg);
        return cx->main->events_to != NULL ? RA_OK : RA_ERROR;

    case RA_DK_POLICY:
        return ra_directive_policy(cx, id, words, n, msg);

    case RA_DK_REFUSE:
        return ra_directive_refuse(cx, id, words[0], msg);

    default:
        return ra_directive_enforce(cx, words, n, msg);
    }
}

int
ra_directive_level(ra_dialect_e dialect, ra_directive_e id)
{
    return ra_directives[id].level[dialect];
}

void
ra_directive_cx_init(ra_directive_cx_t *cx, ra_dialect_e dialect,
    ra_conf_main_t *m, ra_conf_server_t *server, ra_conf_scope_t *scope)
{
    memset(cx, 0, sizeof(*cx));
    cx->dialect = dialect;
    cx->main = m;
    cx->server = server;
    cx->scope = scope;
}

void
ra_conf_main_init(ra_conf_main_t *m, const ra_host_t *host,
    const ra_alloc_t *alloc)
{
    memset(m, 0, sizeof(*m));
    ra_setup_init(&m->setup, host, alloc);
    m->setup.lenient = 1;               /* data files never stop a server */
    m->values.alert_interval = -1;
}

void
ra_conf_scope_init(ra_conf_scope_t *c)
{
    memset(c, 0, sizeof(*c));
    c->enable = -1;
}

void
ra_conf_scope_merge(ra_conf_scope_t *to, const ra_conf_scope_t *base,
    const ra_conf_scope_t *add)
{
    if (to != add) {
        *to = *add;
    }
    if (to->enable == -1) {
        to->enable = base->enable;
    }
    if (to->enforce == RA_ENFORCE_OFF) {
        to->enforce = base->enforce;
    }
    ra_policy_merge(&to->policy, &base->policy);
    if (!(to->set & RA_BIT(RA_DIRECTIVE_ALERT_LOG))) {
        to->alert_log = base->alert_log;
        to->alert_file = base->alert_file;
    }
    if (!(to->set & RA_BIT(RA_DIRECTIVE_EVIDENCE_LOG))) {
        to->evidence_log = base->evidence_log;
        to->evidence_file = base->evidence_file;
    }
}

void **
ra_conf_scope_log_file(ra_conf_scope_t *c, ra_directive_e id)
{
    if (id == RA_DIRECTIVE_ALERT_LOG && c->alert_log != NULL) {
        return &c->alert_file;
    }
    if (id == RA_DIRECTIVE_EVIDENCE_LOG && c->evidence_log != NULL) {
        return &c->evidence_file;
    }
    return NULL;
}

const char *
ra_conf_scope_unzoned(const ra_conf_scope_t *c, int zone)
{
    if (zone || (c->enable != 1 && !c->status)) {
        return NULL;
    }
    return "\"robots_audit on\" and \"robots_audit_status\" need a zone: "
           "add \"robots_audit_zone NAME SIZE;\" to the http block";
}

_Static_assert(RA_SYSLOG_HEADER_MAX + 1 <= RA_EVENTS_HEADROOM,
               "a syslog header and an owed newline fit the headroom");

int
ra_conf_events_open(ra_conf_main_t *m, const ra_host_t *h, void *where)
{
    if (m->events_to == NULL || !ra_syslog_is(ra_str_z(m->events_to))) {
        return RA_OK;
    }
    if (ra_syslog_open(&m->events_syslog) != RA_OK) {
        ra_logf(h, where, RA_LOG_EMERG, RA_TAG_EVENTS, "cannot open the "
                "event stream %s: %s", m->events_to, strerror(errno));
        return RA_ERROR;
    }
    m->events.log.file = &m->events_syslog;
    m->events.log.write = ra_syslog_write;
    m->events.log.name = m->events_to;
    return RA_OK;
}

int
ra_conf_events_close(void *conf)
{
    ra_conf_main_t  *m = conf;

    ra_syslog_close(&m->events_syslog);
    m->events.log.file = NULL;
    return 0;
}
