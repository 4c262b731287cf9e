/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * robots-audit logs: the verdicts and counters of the modules, over access
 * logs (any format ra_accesslog.h reads; plain, gzip or stdin; or a live
 * log followed across rotation).  This file is the command as a sequence
 * of steps: the options read, the robots.txt files and the tables loaded,
 * the outputs opened, the logs read (in time order, or followed), the
 * report written and everything released.  Its pieces: the options
 * (ra_logs_opts.c), a line's format (ra_logs_read.c), a line judged
 * (ra_logs_line.c) and the report (ra_logs_report.c).
 *
 * Memory is the ledger and one read buffer: it does not grow with the
 * number of lines.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "ra_evidence.h"
#include "ra_ledger_file.h"
#include "ra_logs_impl.h"

/* the signals of --follow */
static volatile sig_atomic_t  ra_logs_hup, ra_logs_term;

static void
ra_logs_signal(int sig)
{
    if (sig == SIGHUP) {
        ra_logs_hup = 1;
    } else {
        ra_logs_term = 1;
    }
}

/* Lints each robots file, with the crawler table once there is one (it
 * names the policy tokens) */
static void
ra_logs_robots_lint(ra_logs_ctx_t *x)
{
    ra_logs_robots_t  *rb;
    ra_lint_http_t     http;
    unsigned           i;

    for (i = 0; i < x->nrobots; i++) {
        rb = &x->robots[i];
        if (rb->linted) {
            ra_lint_free(&rb->lint, &ra_malloc_allocator);
            rb->linted = 0;
        }
        memset(&http, 0, sizeof(http));
        http.status = 200;
        http.crawlers = x->conf.crawlers;
        if (ra_lint(rb->text, &http, &ra_malloc_allocator, &rb->lint)
            == RA_OK)
        {
            rb->linted = 1;
        }
    }
}

/* Reads the robots files (again, on SIGHUP: all or none) and lints each */
static int
ra_logs_robots_load(ra_logs_ctx_t *x)
{
    ra_logs_robots_t  *rb;
    ra_str_t           text[RA_LOGS_ROBOTS_MAX];
    unsigned           i, j;

    for (i = 0; i < x->nrobots; i++) {
        if (ra_cli_read_file(RA_LOGS_CMD, x->robots[i].file.path, &text[i])
            != 0)
        {
            for (j = 0; j < i; j++) {
                free((void *) text[j].data);
            }
            return -1;
        }
    }
    for (i = 0; i < x->nrobots; i++) {
        rb = &x->robots[i];
        free((void *) rb->text.data);
        rb->text = text[i];
        rb->file.text = text[i];
        rb->file.size = text[i].len;
    }
    ra_logs_robots_lint(x);
    return 0;
}

static void *
ra_logs_pool_alloc(void *ctx, size_t size)
{
    return ra_pool_get(ctx, size);
}

static void
ra_logs_tables_free(ra_logs_tables_t *t)
{
    if (t != NULL) {
        ra_pool_release(&t->pool);
        free(t);
    }
}

/* The crawler and range tables read (again, on SIGHUP) and the audit
 * made over them and the ledger */
static int
ra_logs_tables(ra_logs_ctx_t *x)
{
    ra_logs_tables_t  *t;
    ra_setup_t         setup;
    ra_audit_t        *au;
    unsigned           i;

    t = malloc(sizeof(*t));
    if (t == NULL) {
        ra_cli_error(RA_LOGS_CMD, "out of memory");
        return -1;
    }
    ra_pool_init(&t->pool, &ra_malloc_allocator);
    t->alloc.alloc = ra_logs_pool_alloc;
    t->alloc.free = NULL;
    t->alloc.ctx = &t->pool;
    ra_setup_init(&setup, &ra_cli_host, &t->alloc);
    for (i = 0; i < x->o->nranges; i++) {
        if (ra_cli_setup_file(RA_LOGS_CMD, &setup, 1, x->o->ranges[i]) != 0) {
            goto fail;
        }
    }
    if ((x->o->crawlers_file != NULL
         && ra_cli_setup_file(RA_LOGS_CMD, &setup, 0, x->o->crawlers_file)
            != 0)
        || ra_cli_setup_compile(RA_LOGS_CMD, &setup) != 0)
    {
        goto fail;
    }
    x->conf.alloc = &ra_malloc_allocator;
    x->conf.crawlers = setup.crawlers;
    x->conf.ranges = setup.ranges;
    x->conf.cloud = setup.cloud;
    x->conf.alert_interval = -1;        /* no alerts here: the default */
    /* the operator asked for every line: a log replays hours in seconds,
     * and the budget guards a server's disk from a flood, not this */
    x->conf.evidence_budget = RA_EVIDENCE_BUDGET_OFF;
    x->conf.crawler_sites = 1;          /* the log's Host values are
                                           anyone's: browsers make none */
    if (x->dns != NULL) {
        /* --rdns: each address answered before its request is judged; a
         * log replays hours in seconds, so no per-second budget */
        ra_cli_rdns_host(x->dns, &x->dns_host);
        x->dns_host.log = NULL;
        x->conf.host = &x->dns_host;
        x->conf.rdns.budget = UINT32_MAX;
    }
    au = ra_audit_create(&x->conf, &x->ledger);
    if (au == NULL) {
        ra_cli_error(RA_LOGS_CMD, "out of memory");
        goto fail;
    }
    if (x->dns != NULL) {
        ra_cli_rdns_bind(x->dns, au);
    }
    /* the ledger holds no pointer into the tables: the previous audit
     * and its tables go */
    if (x->au != NULL) {
        ra_audit_destroy(x->au);
    }
    ra_logs_tables_free(x->tables);
    x->au = au;
    x->tables = t;
    return 0;

fail:
    ra_logs_tables_free(t);
    return -1;
}

/* what --follow does between lines */
typedef struct {
    ra_logs_ctx_t       *x;
    int64_t              interval;      /* ms */
    int64_t              next;
    int                  failed;
    ra_follow_mark_t     mark;
} ra_logs_follow_t;

/* Between lines and while --follow waits: SIGHUP, SIGTERM, and the
 * report every --interval */
static int
ra_logs_tick(void *ctx)
{
    ra_logs_follow_t  *fw = ctx;
    int64_t            now;

    if (ra_logs_hup) {
        ra_logs_hup = 0;
        if (ra_logs_robots_load(fw->x) != 0) {
            ra_cli_error(RA_LOGS_CMD, "SIGHUP: kept the robots.txt files "
                         "in force");
        } else if (ra_logs_tables(fw->x) != 0)
        {
            ra_cli_error(RA_LOGS_CMD, "SIGHUP: robots.txt files read again; "
                         "kept the crawler and range tables in force");
        } else {
            fprintf(stderr, "robots-audit %s: SIGHUP: robots.txt, crawler "
                    "and range files read again\n", RA_LOGS_CMD);
        }
        /* a site not seen yet takes its (new) file from its first line */
    }
    if (ra_logs_term) {
        return 1;
    }
    now = ra_logread_ms();
    if (now >= fw->next) {
        fw->next = now + fw->interval;
        /* no report before the first line: it would show nothing, at
         * the log clock's zero */
        if (fw->x->lines != 0
            && ra_logs_report(fw->x, &fw->mark) != 0)
        {
            fw->failed = 1;
        }
    }
    return 0;
}

/* The ctx of a run: the --robots files as the options name them, and
 * every reader with the format given */
static ra_logs_ctx_t *
ra_logs_ctx_new(const ra_logs_opts_t *o)
{
    ra_logs_ctx_t  *x = calloc(1, sizeof(*x));
    unsigned        i;

    if (x == NULL) {
        ra_cli_error(RA_LOGS_CMD, "out of memory");
        return NULL;
    }
    x->o = o;
    x->nrobots = o->nrobots;
    for (i = 0; i < o->nrobots; i++) {
        x->robots[i].host = o->robots[i].host;
        x->robots[i].file.path = o->robots[i].path;
    }
    x->plain = o->plain >= 0 ? &x->robots[o->plain] : NULL;
    x->filtering = ra_logfilter_active(&o->filter) != 0;
    if (o->have_given) {
        x->rd.given = &o->given;
        x->peek.given = &o->given;
    }
    x->conf.alert_purposes = o->alert_purposes;
    return x;
}

/* --alert-log and --evidence-log opened for appending, and --rdns's
 * resolver; 0, or -1 said */
static int
ra_logs_open_outputs(ra_logs_ctx_t *x)
{
    const ra_logs_opts_t  *o = x->o;

    if (o->alerts_path != NULL) {
        x->alerts = fopen(o->alerts_path, "a");
        if (x->alerts == NULL) {
            return ra_cli_error(RA_LOGS_CMD, "--alert-log %s: %s",
                                o->alerts_path, strerror(errno));
        }
        ra_buf_init(&x->alert_line, &ra_malloc_allocator, 0, 0);
    }
    if (o->evidence_path != NULL) {
        x->evidence.name = o->evidence_path;
        x->evidence_fd = open(o->evidence_path,
                              O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC,
                              0644);
        if (x->evidence_fd < 0) {
            return ra_cli_error(RA_LOGS_CMD, "--evidence-log %s: %s",
                                o->evidence_path, strerror(errno));
        }
        x->evidence.write = ra_logfile_write_fd;
        x->evidence.file = &x->evidence_fd;
    }
    if (o->rdns && (x->dns = ra_cli_rdns_open(RA_LOGS_CMD, o->resolver,
                                              o->rdns_cache)) == NULL)
    {
        return -1;
    }
    return 0;
}

/* The private ledger, with the runs before when --state names them (a
 * file refused stops the run, so that the save at its end never writes
 * over it); 0, or -1 said */
static int
ra_logs_open_ledger(ra_logs_ctx_t *x, void **region)
{
    size_t  size = (size_t) x->o->mib << 20;
    int     rc;

    *region = malloc(size);
    x->esc = malloc(RA_LOG_LINE_MAX);
    if (*region == NULL || x->esc == NULL
        || ra_ledger_format(*region, size, 0) != RA_OK)
    {
        return ra_cli_error(RA_LOGS_CMD, "out of memory (ledger of %ld MiB)",
                            x->o->mib);
    }
    ra_ledger_open(&x->ledger, *region, NULL);
    if (x->o->state != NULL) {
        rc = ra_ledger_file_restore(&x->ledger, &ra_cli_host, NULL,
                                    ra_str("--state", 7), x->o->state);
        if (rc != RA_OK && rc != RA_EAGAIN) {
            return ra_cli_error(RA_LOGS_CMD, "--state %s is left as it is: "
                                "run with the --ledger it was saved with, or "
                                "without it", x->o->state);
        }
    }
    return 0;
}

/* The tables and the audit over the ledger, and the --crawler names the
 * table does not know said */
static int
ra_logs_load(ra_logs_ctx_t *x)
{
    const ra_logfilter_t  *f = &x->o->filter;
    unsigned               i;

    if (ra_logs_tables(x) != 0) {
        return -1;
    }
    ra_logs_robots_lint(x);
    for (i = 0; i < f->ncrawlers; i++) {
        if (ra_logfilter_crawler_unknown(f, i, x->conf.crawlers)) {
            fprintf(stderr, "robots-audit %s: warning: --crawler %.*s: no "
                    "crawler of the table has this name or robots.txt "
                    "token; it matches generic bots that declare it\n",
                    RA_LOGS_CMD, (int) f->crawlers[i].len,
                    (const char *) f->crawlers[i].data);
        }
    }
    return 0;
}

/* The LOGs in time order, each with its --site: 0, -1 to stop without a
 * report, 1 when a .gz was damaged (said; the others were read) */
static int
ra_logs_read_files(ra_logs_ctx_t *x, ra_logread_t *rd)
{
    const ra_logs_opts_t  *o = x->o;
    int64_t                last = INT64_MIN;
    unsigned               i, last_of = 0;
    int                    c, damaged = 0;

    if (x->dns != NULL) {
        for (i = 0; i < o->ninputs && strcmp(o->paths[i], "-") != 0; i++) {
            /* void */
        }
        if (i == o->ninputs) {
            ra_logs_prefetch(x, o->paths, o->ninputs);  /* stdin: once */
        }
    }
    for (i = 0; i < o->ninputs; i++) {
        x->site = ra_str(o->inputs[i].site, strlen(o->inputs[i].site));
        x->site_seeded = 0;
        if (i > 0) {
            ra_logs_overlap(RA_LOGS_CMD, &o->inputs[last_of], &o->inputs[i],
                            last);
        }
        x->file_last = INT64_MIN;
        c = ra_logread_file(rd, o->inputs[i].path);
        if (x->file_last > last) {
            last = x->file_last;
            last_of = i;
        }
        /* a file shorter than the window: judged at its end */
        if (x->win.stopped || ra_logs_too_bad(&x->win, RA_LOGS_CMD)
            || c < 0)
        {
            return -1;
        }
        if (c > 0) {
            damaged = 1;                /* said so; on with the next */
        }
    }
    return damaged;
}

/* The one LOG followed until SIGTERM or SIGINT, the report written every
 * --interval: 0, -1 to stop without a report, 1 when something failed
 * (said), 2 when no line was read (said) */
static int
ra_logs_follow(ra_logs_ctx_t *x, ra_logread_t *rd, ra_logs_follow_t *fw)
{
    struct sigaction  sa;
    int               damaged = 0;

    memset(fw, 0, sizeof(*fw));
    fw->x = x;
    fw->interval = x->o->interval * 1000;
    fw->next = ra_logread_ms() + fw->interval;
    fw->mark.start = time(NULL);
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = ra_logs_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGHUP, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    rd->tick = ra_logs_tick;
    rd->tick_ctx = fw;
    rd->progress = 0;
    x->site = ra_str(x->o->inputs[0].site, strlen(x->o->inputs[0].site));
    if (ra_follow(rd, x->o->inputs[0].path) < 0 || fw->failed) {
        damaged = 1;
    }
    if (x->win.stopped || ra_logs_too_bad(&x->win, RA_LOGS_CMD)) {
        return -1;
    }
    if (x->lines == 0 && rd->overlong == 0) {
        fprintf(stderr, "robots-audit %s: no line was read: no report\n",
                RA_LOGS_CMD);
        return damaged ? 3 : 2;
    }
    return damaged;
}

/* Everything the run opened, closed; the exit status, made RA_EXIT_USAGE
 * when a log written could not be closed (said) */
static int
ra_logs_free(ra_logs_ctx_t *x, int rc)
{
    unsigned  i;

    if (x->au != NULL) {
        ra_audit_destroy(x->au);
    }
    ra_logs_undeclared_free(x);
    ra_logs_tables_free(x->tables);
    for (i = 0; i < x->nrobots; i++) {
        if (x->robots[i].linted) {
            ra_lint_free(&x->robots[i].lint, &ra_malloc_allocator);
        }
        free((void *) x->robots[i].text.data);
    }
    free(x->esc);
    (void) ra_cli_rdns_close(x->dns);
    if (x->evidence.file != NULL && close(x->evidence_fd) != 0
        && rc == RA_EXIT_OK)
    {
        ra_cli_error(RA_LOGS_CMD, "--evidence-log %s: %s", x->evidence.name,
                     strerror(errno));
        rc = RA_EXIT_USAGE;
    }
    if (x->alerts != NULL) {
        ra_buf_release(&x->alert_line);
        if (fclose(x->alerts) != 0 && rc == RA_EXIT_OK) {
            ra_cli_error(RA_LOGS_CMD, "--alert-log %s: %s",
                         x->o->alerts_path, strerror(errno));
            rc = RA_EXIT_USAGE;
        }
    }
    free(x);
    return rc;
}

/* The reading and the report, once everything is open: the exit status */
static int
ra_logs_run(ra_logs_ctx_t *x, ra_logread_t *rd)
{
    ra_logs_follow_t  fw;
    int               rc, read;

    rd->handler = ra_logs_line;
    rd->ctx = x;
    read = x->o->follow ? ra_logs_follow(x, rd, &fw)
                        : ra_logs_read_files(x, rd);
    if (read >= 2) {
        return read == 2 ? RA_EXIT_OK : RA_EXIT_USAGE;
    }
    if (read < 0 && !x->win.stopped) {
        return RA_EXIT_USAGE;
    }
    rc = RA_EXIT_USAGE;
    if (read >= 0) {
        ra_logread_close(rd);
        if (ra_logs_summary(x, rd) != 0) {
            return RA_EXIT_USAGE;
        }
        rc = ra_logs_report(x, x->o->follow ? &fw.mark : NULL) == 0
             && read == 0 ? RA_EXIT_OK : RA_EXIT_USAGE;
        if (ra_cli_rdns_close(x->dns) != 0) {
            rc = RA_EXIT_USAGE;
        }
        x->dns = NULL;
    }
    /* too many malformed lines: no report, but the state is kept */
    if (x->o->state != NULL
        && ra_ledger_file_save(&x->ledger, &ra_cli_host, NULL,
                               ra_str("--state", 7), x->o->state) != RA_OK)
    {
        rc = RA_EXIT_USAGE;
    }
    if (x->win.stopped) {
        fprintf(stderr, "robots-audit %s: %llu lines read, %llu malformed, "
                "%llu skipped\n", RA_LOGS_CMD, (unsigned long long) x->lines,
                (unsigned long long) x->malformed,
                (unsigned long long) x->skipped);
    }
    return rc;
}

int
ra_cmd_logs(int argc, char **argv)
{
    ra_logs_opts_t   o;
    ra_logs_ctx_t   *x = NULL;
    ra_logread_t     rd;
    void            *region = NULL;
    int              rc = RA_EXIT_USAGE;

    memset(&rd, 0, sizeof(rd));
    if (ra_logs_opts_parse(&o, argc, argv, &rc) != 0
        || (x = ra_logs_ctx_new(&o)) == NULL
        || ra_logs_open_outputs(x) != 0
        /* a followed file may appear later: it is waited for */
        || ra_logs_robots_load(x) != 0
        || ra_logread_open(&rd, RA_LOGS_CMD, o.paths,
                           o.follow ? 0 : (int) o.ninputs) != 0)
    {
        goto done;
    }
    if (!o.follow) {
        ra_logs_order(RA_LOGS_CMD, o.inputs, o.paths, o.ninputs,
                      ra_logs_time_of, x);
    }
    if (ra_logs_open_ledger(x, &region) == 0 && ra_logs_load(x) == 0) {
        rc = ra_logs_run(x, &rd);
    }

done:
    if (rd.buf != NULL) {
        ra_logread_close(&rd);
    }
    if (x != NULL) {
        rc = ra_logs_free(x, rc);
    }
    ra_logs_opts_free(&o);
    free(region);
    return rc;
}
