/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Configuration values and files, decided once (ra_setup.h).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ra_setup.h"
#include "ra_ledger.h"
#include "ra_ledger_file.h"
#include "ra_lint.h"
#include "ra_parse.h"

#define RA_MSEC_MAX  (1000LL * 24 * 3600 * 1000)    /* 1000 days */


/* ---- values ------------------------------------------------------------ */

int
ra_parse_size(ra_str_t s, uint64_t *bytes)
{
    size_t    i;
    uint64_t  n, unit;

    n = 0;
    for (i = 0; i < s.len && ra_isdigit(s.data[i]); i++) {
        if (n > (UINT64_MAX - 9) / 10) {
            return RA_ERROR;
        }
        n = n * 10 + (uint64_t) (s.data[i] - '0');
    }
    if (i == 0) {
        return RA_ERROR;
    }
    unit = 1;
    if (i + 1 == s.len) {
        switch (ra_lower(s.data[i])) {
        case 'k': unit = 1024; break;
        case 'm': unit = 1024 * 1024; break;
        case 'g': unit = 1024 * 1024 * 1024; break;
        default: return RA_ERROR;
        }
    } else if (i != s.len) {
        return RA_ERROR;
    }
    if (n > UINT64_MAX / unit) {
        return RA_ERROR;
    }
    *bytes = n * unit;
    return RA_OK;
}

int
ra_parse_msec(ra_str_t s, int64_t *ms)
{
    size_t   i, start;
    int64_t  n, unit, total;

    total = 0;
    i = 0;
    if (s.len == 0) {
        return RA_ERROR;
    }
    while (i < s.len) {
        n = 0;
        for (start = i; i < s.len && ra_isdigit(s.data[i]); i++) {
            n = n * 10 + (s.data[i] - '0');
            if (n > RA_MSEC_MAX) {
                return RA_ERROR;
            }
        }
        if (i == start) {
            return RA_ERROR;
        }
        if (i == s.len) {
            unit = 1000;                        /* bare: seconds */
        } else if (s.len - i >= 2 && s.data[i] == 'm'
                   && s.data[i + 1] == 's')
        {
            unit = 1;
            i += 2;
        } else {
            /* nginx's units (ngx_parse_time): M is 30 days, y 365 */
            switch (s.data[i]) {
            case 's': unit = 1000; break;
            case 'm': unit = 60 * 1000; break;
            case 'h': unit = 3600 * 1000; break;
            case 'd': unit = 24 * 3600 * 1000; break;
            case 'w': unit = 7LL * 24 * 3600 * 1000; break;
            case 'M': unit = 30LL * 24 * 3600 * 1000; break;
            case 'y': unit = 365LL * 24 * 3600 * 1000; break;
            default: return RA_ERROR;
            }
            i++;
        }
        total += n * unit;
        if (total > RA_MSEC_MAX) {
            return RA_ERROR;
        }
    }
    *ms = total;
    return RA_OK;
}

int
ra_zone_size_check(uint64_t size, uint64_t overhead, ra_buf_t *why)
{
    ra_ledger_plan_t  plan;
    uint64_t          min = RA_LEDGER_MIN_SIZE + overhead;

    if (size < min || size > RA_ZONE_SIZE_MAX
        || ra_ledger_plan((size_t) (size - overhead), &plan) != RA_OK)
    {
        ra_buf_printf(why, "is out of range: the minimum is %lluk, the "
                      "maximum 4095m",
                      (unsigned long long) (min + 1023) / 1024);
        return RA_ERROR;
    }
    return RA_OK;
}

int
ra_setup_ledger(ra_ledger_t *l, void *base, size_t size, int kept,
    const ra_host_t *h, ra_str_t zone, const char **why)
{
    size_t  have;

    if (kept) {
        have = ra_ledger_size(base);
        if (have == 0 || have > size) {
            *why = "the zone holds no robots-audit ledger of this version";
            return RA_EAGAIN;
        }
        if (ra_ledger_check(base, have, why) != RA_OK) {
            return RA_EAGAIN;
        }
        ra_logf(h, NULL, RA_LOG_NOTICE, RA_TAG_KEPT_LEDGER, "%.*s: kept the "
                "ledger (%zu bytes) and its counters", (int) zone.len,
                (const char *) zone.data, have);

    } else if (base == NULL) {
        /* what the server's allocator left of the zone is too little */
        ra_logf(h, NULL, RA_LOG_EMERG, RA_TAG_ZONE_CREATE, "%.*s is too "
                "small: %zu bytes are left for the ledger, which needs at "
                "least %zu", (int) zone.len, (const char *) zone.data, size,
                (size_t) RA_LEDGER_MIN_SIZE);
        return RA_ERROR;

    } else if (ra_ledger_format(base, size, ra_host_now(h)) != RA_OK) {
        ra_logf(h, NULL, RA_LOG_EMERG, RA_TAG_ZONE_LAYOUT, "%.*s cannot hold "
                "a ledger in %zu bytes", (int) zone.len,
                (const char *) zone.data, size);
        return RA_ERROR;
    }
    ra_ledger_open(l, base, &h->lock);
    l->host = h;                /* a rebuild says so (RA312) */
    return RA_OK;
}

int
ra_setup_ledger_new(ra_ledger_t *l, void *base, size_t size,
    const ra_host_t *h, ra_str_t zone, const ra_host_t *say, void *where,
    const char *state_file)
{
    const char  *why;

    if (ra_setup_ledger(l, base, size, 0, h, zone, &why) != RA_OK) {
        return RA_ERROR;
    }
    (void) ra_ledger_file_restore(l, say != NULL ? say : h, where, zone,
                                  state_file);
    return RA_OK;
}

int
ra_setup_zone(ra_ledger_t *l, const ra_host_t *h, ra_str_t zone, void *base,
    size_t size, size_t old_size, int replace)
{
    char         sized[80];
    const char  *why = "the zone holds no robots-audit ledger";

    if (old_size == 0) {
        return RA_EAGAIN;                       /* a first start */
    }
    if (old_size != size) {
        (void) snprintf(sized, sizeof(sized), "the size changed from %zu to "
                        "%zu", old_size, size);
        why = sized;
    } else if (base != NULL
               && ra_setup_ledger(l, base, size, 1, h, zone, &why) == RA_OK)
    {
        return RA_OK;
    }
    if (!replace) {
        ra_logf(h, NULL, RA_LOG_EMERG, RA_TAG_ZONE_REFUSED, "%.*s cannot be "
                "reused: %s; stop and start the server (or rename the zone) "
                "to begin a new ledger", (int) zone.len,
                (const char *) zone.data, why);
        return RA_ERROR;
    }
    ra_logf(h, NULL, RA_LOG_WARN, RA_TAG_NEW_LEDGER, "%.*s: a new ledger "
            "replaces the old one (%s): its counters start over",
            (int) zone.len, (const char *) zone.data, why);
    return RA_EAGAIN;
}


/* ---- crawler and range tables ------------------------------------------ */

static const char *
ra_setup_error(int rc, const char *msg)
{
    if (msg != NULL) {
        return msg;
    }
    switch (rc) {
    case RA_ENOMEM: return "out of memory";
    case RA_ELIMIT: return "a limit was reached (too many entries, lists "
                           "or prefixes)";
    default:        return "invalid";
    }
}

void
ra_setup_init(ra_setup_t *s, const ra_host_t *host, const ra_alloc_t *alloc)
{
    memset(s, 0, sizeof(*s));
    s->host = host;
    s->alloc = alloc;
}

/* the built-in crawler table, loaded when a file or the compile needs it */
static int
ra_setup_builtin(ra_setup_t *s, ra_buf_t *why)
{
    int                rc;
    ra_crawlers_err_t  err;

    if (s->crawlers != NULL) {
        return RA_OK;
    }
    s->crawlers = ra_crawlers_create(s->alloc);
    if (s->crawlers == NULL) {
        ra_buf_cstr(why, "out of memory");
        return RA_ENOMEM;
    }
    memset(&err, 0, sizeof(err));
    rc = ra_crawlers_add_builtin(s->crawlers, &err);
    if (rc != RA_OK) {
        ra_buf_printf(why, "the built-in crawler table does not load: "
                      "line %zu: %s", err.line, ra_setup_error(rc, err.msg));
        s->crawlers = NULL;
    }
    return rc;
}

/* reads a configuration file of at most max bytes into host memory */
static int
ra_setup_read(ra_setup_t *s, const char *what, const char *path,
    size_t max, ra_str_t *text, ra_buf_t *why)
{
    int     rc;
    size_t  size;

    rc = ra_host_read_file(s->host, path, max + 1, &s->host->heap, text,
                           &size, why);
    if (rc != RA_OK) {
        return rc == RA_EAGAIN ? RA_ERROR : rc;
    }
    if (size > max) {
        ra_free(&s->host->heap, (void *) text->data);
        ra_buf_printf(why, "%s \"%s\" is larger than %zu bytes", what, path,
                      max);
        return RA_ELIMIT;
    }
    return RA_OK;
}

int
ra_setup_crawlers_file(ra_setup_t *s, const char *path, ra_buf_t *why)
{
    int                rc;
    ra_str_t           text;
    ra_crawlers_err_t  err;

    rc = ra_setup_builtin(s, why);
    if (rc != RA_OK) {
        return rc;
    }
    rc = ra_setup_read(s, "crawler file", path, RA_CRAWLERS_MAX_FILE, &text,
                       why);
    if (rc != RA_OK) {
        return rc;
    }
    memset(&err, 0, sizeof(err));
    rc = ra_crawlers_add(s->crawlers, text, &err);
    ra_free(&s->host->heap, (void *) text.data);
    if (rc != RA_OK) {
        if (err.line) {
            ra_buf_printf(why, "crawler file \"%s\", line %zu: %s", path,
                          err.line, ra_setup_error(rc, err.msg));
        } else {
            ra_buf_printf(why, "crawler file \"%s\": %s", path,
                          ra_setup_error(rc, err.msg));
        }
    }
    return rc;
}

/*
 * A loaded range file's age: its modification time now, through the host,
 * kept with its lists (the status page and robots_audit_ranges_age_seconds
 * show it), and one RA203 warning when it is older than
 * RA_RANGES_STALE_MS: once per load of the configuration, never per
 * request.
 */
static void
ra_setup_ranges_age(ra_setup_t *s, const char *path, size_t first)
{
    int64_t  mtime, now, age;

    if (ra_host_file_mtime(s->host, path, &mtime) != RA_OK || mtime <= 0) {
        return;
    }
    ra_ranges_set_mtime(s->ranges, first, mtime);
    now = ra_host_now(s->host);
    if (ra_ranges_stale(s->ranges, first, now)) {
        age = ra_ranges_age(s->ranges, first, now);
        ra_logf(s->host, s->where, RA_LOG_WARN, RA_TAG_RANGES_STALE,
                "ranges file \"%s\" is %lld days old (older than %lld): "
                "its crawlers may be judged impostors from addresses added "
                "since; `robots-audit ranges update` refreshes it", path,
                (long long) (age / 86400000),
                (long long) (RA_RANGES_STALE_MS / 86400000));
    }
}

static int ra_setup_ranges_read(ra_setup_t *s, const char *path,
    ra_buf_t *why);
static int ra_setup_keys_read(ra_setup_t *s, const char *dir,
    ra_buf_t *why);

/* A data file's failure (rc, why) when the setup is lenient: said once
 * (RA325), and RA_OK; else rc.  Out of memory is never the data's. */
static int
ra_setup_data_failed(ra_setup_t *s, int rc, ra_buf_t *why)
{
    if (rc == RA_OK || rc == RA_ENOMEM || !s->lenient) {
        return rc;
    }
    ra_logf(s->host, s->where, RA_LOG_WARN, RA_TAG_DATA_FILE,
            "%.*s: the crawlers it would verify stay unverified until it "
            "can be read (reload then)", (int) why->len,
            why->data != NULL ? (const char *) why->data : "");
    why->len = 0;
    return RA_OK;
}

int
ra_setup_ranges_file(ra_setup_t *s, const char *path, ra_buf_t *why)
{
    return ra_setup_data_failed(s, ra_setup_ranges_read(s, path, why), why);
}

int
ra_setup_signature_keys(ra_setup_t *s, const char *dir, ra_buf_t *why)
{
    return ra_setup_data_failed(s, ra_setup_keys_read(s, dir, why), why);
}

static int
ra_setup_ranges_read(ra_setup_t *s, const char *path, ra_buf_t *why)
{
    int            rc;
    ra_str_t       text;
    const char    *name;
    size_t         first;
    ra_json_err_t  err;

    if (s->ranges == NULL) {
        s->ranges = ra_ranges_create(s->alloc);
        if (s->ranges == NULL) {
            ra_buf_cstr(why, "out of memory");
            return RA_ENOMEM;
        }
    }
    rc = ra_setup_read(s, "ranges file", path, RA_RANGES_MAX_FILE, &text,
                       why);
    if (rc != RA_OK) {
        return rc;
    }
    /* the list is named after the file, as the crawler table names it */
    name = ra_basename(path);
    memset(&err, 0, sizeof(err));
    first = ra_ranges_lists(s->ranges);
    rc = ra_ranges_add_file(s->ranges, ra_str(name, strlen(name)), text,
                            &err);
    ra_free(&s->host->heap, (void *) text.data);
    if (rc != RA_OK) {
        ra_buf_printf(why, "ranges file \"%s\", byte %zu: %s", path, err.offset,
                      ra_setup_error(rc, err.msg));
        return rc;
    }
    ra_setup_ranges_age(s, path, first);
    return rc;
}

static int
ra_setup_keys_read(ra_setup_t *s, const char *dir, ra_buf_t *why)
{
    DIR            *d;
    struct dirent  *e;
    char            path[4096];
    size_t          n, added;
    int             rc = RA_OK;
    ra_str_t        text;
    const char     *err;

    if (s->sig_keys == NULL) {
        s->sig_keys = ra_sig_keys_create(s->alloc);
        if (s->sig_keys == NULL) {
            ra_buf_cstr(why, "out of memory");
            return RA_ENOMEM;
        }
    }
    d = opendir(dir);
    if (d == NULL) {
        ra_buf_printf(why, "signature keys directory \"%s\": %s", dir,
                      strerror(errno));
        return RA_ERROR;
    }
    while (rc == RA_OK && (e = readdir(d)) != NULL) {
        /* HOST.json, the origin's host name: chatgpt.com.json */
        n = strlen(e->d_name);
        if (n <= 5 || e->d_name[0] == '.'
            || strcmp(e->d_name + n - 5, ".json") != 0)
        {
            continue;
        }
        if ((size_t) snprintf(path, sizeof(path), "%s/%s", dir, e->d_name)
            >= sizeof(path))
        {
            continue;
        }
        rc = ra_setup_read(s, "signature keys file", path, RA_SIG_MAX_FILE,
                           &text, why);
        if (rc != RA_OK) {
            break;
        }
        err = NULL;
        rc = ra_sig_keys_add_jwks(s->sig_keys, s->host,
                                  ra_str(e->d_name, n - 5), text, &added,
                                  &err);
        ra_free(&s->host->heap, (void *) text.data);
        if (rc != RA_OK) {
            ra_buf_printf(why, "signature keys file \"%s\": %s", path,
                          ra_setup_error(rc, err));
        }
    }
    closedir(d);
    return rc;
}

/* The cloud lookup over every cloud list loaded: built here, once, so
 * that a request only searches it. */
static int
ra_setup_cloud(ra_setup_t *s, ra_buf_t *why)
{
    size_t  size, n;
    void   *mem;

    s->cloud = NULL;
    size = ra_cloud_set_size(s->ranges, &n);
    if (size == 0) {
        if (n > RA_CLOUD_MAX_INTERVALS) {
            ra_buf_printf(why, "the cloud range files hold %zu intervals, "
                          "more than %u", n, (unsigned) RA_CLOUD_MAX_INTERVALS);
            return RA_ELIMIT;
        }
        return RA_OK;
    }
    mem = ra_alloc(s->alloc, size);
    if (mem == NULL) {
        ra_buf_cstr(why, "out of memory");
        return RA_ENOMEM;
    }
    s->cloud = ra_cloud_set_build(mem, size, s->ranges);
    return RA_OK;
}

int
ra_setup_compile(ra_setup_t *s, ra_buf_t *why)
{
    int                rc;
    ra_crawlers_err_t  err;

    if (s->compiled) {
        return RA_OK;
    }
    rc = ra_setup_builtin(s, why);
    if (rc != RA_OK) {
        return rc;
    }
    memset(&err, 0, sizeof(err));
    rc = ra_crawlers_compile(s->crawlers, &err);
    if (rc != RA_OK) {
        ra_buf_printf(why, "the crawler table does not compile: %s",
                      ra_setup_error(rc, err.msg));
        return rc;
    }
    rc = ra_setup_cloud(s, why);
    if (rc != RA_OK) {
        return rc;
    }
    s->compiled = 1;
    return RA_OK;
}

int
ra_setup_table_file(ra_setup_t *s, ra_setup_table_e table, const char *path,
    ra_buf_t *why)
{
    switch (table) {
    case RA_SETUP_CRAWLERS:  return ra_setup_crawlers_file(s, path, why);
    case RA_SETUP_SIG_KEYS:  return ra_setup_signature_keys(s, path, why);
    default:                 return ra_setup_ranges_file(s, path, why);
    }
}

void
ra_setup_audit_conf(ra_audit_conf_t *conf, const ra_setup_t *s,
    const ra_host_t *h, ra_str_t zone, const ra_setup_values_t *v)
{
    memset(conf, 0, sizeof(*conf));
    conf->alloc = &ra_malloc_allocator;
    conf->host = h;
    conf->zone_name = zone;
    conf->crawlers = s->crawlers;
    conf->ranges = s->ranges;
    conf->cloud = s->cloud;
    conf->sig_keys = s->sig_keys;
    conf->alert_interval = v->alert_interval;
    conf->alert_budget = v->alert_budget;
    conf->sig_max_age = v->sig_max_age;
    conf->alert_purposes = v->alert_purposes;
    conf->evidence_budget = v->evidence_budget;
    conf->events = v->events;
    conf->undeclared_off = v->undeclared_off != 0;
}

ra_audit_t *
ra_setup_engine(ra_audit_conf_t *conf, const ra_setup_t *s,
    const ra_host_t *h, ra_str_t zone, const ra_setup_values_t *v,
    ra_ledger_t *l)
{
    ra_audit_t  *au;

    ra_setup_audit_conf(conf, s, h, zone, v);
    au = ra_audit_create(conf, l);
    if (au == NULL) {
        ra_logf(h, NULL, RA_LOG_CRIT, RA_TAG_NOMEM, "out of memory: this "
                "process does not audit");
    }
    return au;
}


/* ---- a configured robots.txt ------------------------------------------ */

int
ra_robots_file_load(const ra_host_t *h, const ra_alloc_t *a,
    const char *path, ra_robots_file_t *f, ra_buf_t *why)
{
    int             rc;
    size_t          n;
    ra_str_t        text;
    unsigned char  *p;

    memset(f, 0, sizeof(*f));
    n = strlen(path);
    p = ra_alloc(a, n + 1);
    if (p == NULL) {
        ra_buf_cstr(why, "out of memory");
        return RA_ENOMEM;
    }
    memcpy(p, path, n + 1);
    f->path = (const char *) p;

    rc = ra_host_read_file(h, path, RA_ROBOTS_FILE_MAX, &h->heap, &text,
                           &f->size, why);
    if (rc == RA_ENOMEM) {
        return rc;
    }
    if (rc != RA_OK) {
        /* absent or unreadable: a state the site can be in, not an error
         * that stops the server; ra_robots_file_lint() says which */
        f->missing = 1;
        p = ra_alloc(a, why->len + 1);
        if (p != NULL) {
            memcpy(p, why->data, why->len);
            p[why->len] = '\0';
            f->unread = (const char *) p;
        }
        why->len = 0;
        return RA_OK;
    }
    p = ra_alloc(a, text.len + 1);
    if (p == NULL) {
        ra_free(&h->heap, (void *) text.data);
        ra_buf_cstr(why, "out of memory");
        return RA_ENOMEM;
    }
    memcpy(p, text.data, text.len);
    p[text.len] = '\0';
    f->text = ra_str(p, text.len);
    ra_free(&h->heap, (void *) text.data);
    return RA_OK;
}

typedef struct {
    const ra_host_t  *host;
    void             *where;
} ra_lint_log_t;

static void
ra_robots_file_line(void *ctx, ra_severity_e sev, ra_str_t line)
{
    ra_lint_log_t  *x = ctx;

    ra_logf(x->host, x->where, sev == RA_SEV_INFO ? RA_LOG_NOTICE
                                                  : RA_LOG_WARN,
            RA_TAG_LINT, "%.*s", (int) line.len, (const char *) line.data);
}

void
ra_robots_file_lint(const ra_host_t *h, void *where,
    const ra_robots_file_t *f)
{
    ra_buf_t        line;
    ra_lint_t       lint;
    ra_lint_http_t  http;
    ra_lint_log_t   x;

    if (f->missing) {
        ra_logf(h, where, RA_LOG_WARN, RA_TAG_ROBOTS_UNREAD,
                "%s: the site starts with no robots.txt known (crawlers may "
                "crawl everything until it serves one)",
                f->unread != NULL ? f->unread : f->path);
        return;
    }

    /* a local file, as `robots-audit lint FILE` reads it */
    memset(&http, 0, sizeof(http));
    http.size = f->size;
    http.truncated = f->size > f->text.len;

    if (ra_lint(f->text, &http, &h->heap, &lint) != RA_OK) {
        ra_logf(h, where, RA_LOG_ERR, RA_TAG_NOMEM,
                "out of memory linting %s", f->path);
        ra_lint_free(&lint, &h->heap);
        return;
    }

    x.host = h;
    x.where = where;
    ra_buf_init(&line, &h->heap, 512, RA_HOST_LINE_MAX);
    ra_lint_lines(&lint, ra_str(f->path, strlen(f->path)), &line,
                  ra_robots_file_line, &x);
    ra_buf_release(&line);
    ra_lint_free(&lint, &h->heap);
}

int
ra_robots_file_seed(ra_audit_t *au, ra_str_t site, const ra_robots_file_t *f,
    int64_t now)
{
    ra_answer_t  ans;

    if (f->missing) {
        return RA_OK;
    }
    memset(&ans, 0, sizeof(ans));
    ans.status = 200;
    ans.body = f->text;
    if (ans.body.len > RA_ROBOTS_MAX) {
        ans.body.len = RA_ROBOTS_MAX;
    }
    ans.size = f->size;
    ans.truncated = f->size > ans.body.len;
    ans.initial = 1;
    return ra_audit_robots(au, site, &ans, now);
}
