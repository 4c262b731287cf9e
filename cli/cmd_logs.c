/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * robots-audit logs: the verdicts and counters of the modules, over access
 * logs (common or combined format; plain, gzip or stdin).
 *
 * The audit runs over a private ledger (malloc()ed, no lock) exactly as a
 * module's runs over shared memory: each robots.txt request of the log
 * feeds ra_audit_robots() with the status the log shows (2xx and 304: the
 * --robots FILE as the body; 5xx/429: unreachable; other 4xx: no rules),
 * then every line feeds ra_audit_request().  Memory is the ledger and one
 * read buffer: it does not grow with the number of lines.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ra_accesslog.h"
#include "ra_audit.h"
#include "ra_http.h"
#include "ra_logread.h"
#include "ra_report.h"

#define RA_LOGS_CMD          "logs"
#define RA_LOGS_LEDGER_MIB   32      /* default private ledger */

static const char  ra_logs_usage[] =
"usage: robots-audit logs --robots FILE [--site HOST] [--ranges FILE]...\n"
"           [--crawlers FILE] [--format text|json|html|prometheus]\n"
"           [--ledger MIB] LOG...\n"
"\n"
"Judges every crawler request of access logs in the common or combined\n"
"format (nginx and Apache) against robots.txt, as the server modules do,\n"
"and prints the counters, the robots.txt state and recent violations.\n"
"LOG is a file, a .gz file, or '-' for stdin; give several in time order\n"
"(oldest first): the 24-hour and 12-hour windows follow the log's clock.\n"
"\n"
"  --robots FILE     the robots.txt the site served (the body of every\n"
"                    2xx or 304 answer to /robots.txt in the log; a 5xx\n"
"                    or 429 answer makes it unreachable, another 4xx means\n"
"                    no rules)\n"
"  --site HOST       the site's name in the report (default: default)\n"
"  --ranges FILE     a crawler operator's published IP ranges (JSON),\n"
"                    named by its base name; repeatable\n"
"  --crawlers FILE   more crawler entries (format of data/crawlers.txt)\n"
"  --format F        text (default), json, html or prometheus\n"
"  --ledger MIB      size of the private ledger (default 32; it bounds\n"
"                    how many crawler records are kept)\n"
"\n"
"Malformed lines are counted and reported, never fatal.  A progress bar\n"
"is drawn on stderr when it is a terminal.\n"
"\n"
"exit status: 0 report written, 2 usage or input error\n";

typedef struct {
    ra_audit_t       *au;
    ra_str_t          site;
    ra_str_t          robots;
    uint64_t          lines;
    uint64_t          malformed;
    uint64_t          unjudged;         /* no request line to judge */
    uint64_t          nomem;
    const char       *bad_file;         /* the first malformed line */
    uint64_t          bad_line;
    unsigned char    *esc;              /* unescaped fields */
    ra_robots_file_t  file;             /* --robots, as the modules
                                           seed a configured file */
    unsigned          seeded:1;         /* --robots recorded */
} ra_logs_ctx_t;

static int
ra_logs_line(void *ctx, ra_str_t line, const char *file, uint64_t lineno)
{
    ra_logs_ctx_t  *x = ctx;
    ra_logrec_t     rec;
    ra_request_t    req;
    ra_verdict_t    v;
    ra_answer_t     ans;
    ra_str_t        uri, ua;
    size_t          n;

    x->lines++;
    if (ra_accesslog_parse(line, &rec) != RA_OK) {
        if (x->malformed++ == 0) {
            x->bad_file = file;
            x->bad_line = lineno;
        }
        return 0;
    }
    if (rec.method.len == 0) {
        x->unjudged++;
        return 0;
    }

    uri = rec.target;
    ua = rec.user_agent;
    if (rec.escaped) {
        /* both fit: together they are shorter than the line */
        n = ra_accesslog_unescape(uri, x->esc);
        uri = ra_str(x->esc, n);
        ua = ra_str(x->esc + n, ra_accesslog_unescape(ua, x->esc + n));
    }

    if (!x->seeded) {
        /* --robots FILE is the file in force from the first line; the
         * log's own robots.txt answers change the state from there */
        x->seeded = 1;
        if (ra_robots_file_seed(x->au, x->site, &x->file, rec.time)
            != RA_OK)
        {
            x->nomem++;
        }
    }

    /* the robots.txt request as the audit knows it (ra_http_is_robots) */
    if (ra_http_is_robots(uri)) {
        memset(&ans, 0, sizeof(ans));
        /* 304: the crawler's copy is still the file */
        ans.status = rec.status == 304 ? 200 : rec.status;
        ans.content_type = ra_str(NULL, 0);
        if (ans.status >= 200 && ans.status < 300) {
            ans.body = x->robots;
        }
        if (ra_audit_robots(x->au, x->site, &ans, rec.time) != RA_OK) {
            x->nomem++;
        }
    }

    req.site = x->site;
    req.time = rec.time;
    req.addr = rec.addr;
    req.user_agent = ua;
    req.method = rec.method;
    req.uri = uri;
    req.status = rec.status;
    if (ra_audit_request(x->au, &req, &v) != RA_OK) {
        x->nomem++;
    }
    return 0;
}

int
ra_cmd_logs(int argc, char **argv)
{
    int                  c, i, rc = RA_EXIT_USAGE;
    long                 mib = RA_LOGS_LEDGER_MIB;
    char                *end;
    const char          *robots_file = NULL, *crawlers_file = NULL;
    const char          *site = "default";
    void                *region = NULL;
    size_t               size;
    ra_buf_t             out;
    ra_lint_t            lint;
    ra_lint_http_t       http;
    ra_ledger_t          ledger;
    ra_logread_t         rd;
    ra_logs_ctx_t        x;
    ra_snapshot_t        snap;
    ra_setup_t           setup;
    ra_audit_conf_t      conf;
    ra_report_opts_t     opts;
    ra_report_format_e   fmt = RA_REPORT_TEXT;
    const ra_lint_t    **lints = NULL;
    int                  have_lint = 0;

    static const struct option  opts_long[] = {
        { "robots", required_argument, NULL, 'r' },
        { "site", required_argument, NULL, 's' },
        { "ranges", required_argument, NULL, 'R' },
        { "crawlers", required_argument, NULL, 'c' },
        { "format", required_argument, NULL, 'f' },
        { "ledger", required_argument, NULL, 'L' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 }
    };

    memset(&x, 0, sizeof(x));
    memset(&rd, 0, sizeof(rd));
    ra_cli_setup(&setup);

    /* like 'identify', the tables live until the process exits */
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts_long, NULL)) != -1) {
        switch (c) {
        case 'r':
            robots_file = optarg;
            break;
        case 's':
            if (optarg[0] == '\0') {
                return ra_cli_error(RA_LOGS_CMD, "--site: empty host name");
            }
            site = optarg;
            break;
        case 'R':
            if (ra_cli_setup_file(RA_LOGS_CMD, &setup, 1, optarg) != 0) {
                return RA_EXIT_USAGE;
            }
            break;
        case 'c':
            crawlers_file = optarg;
            break;
        case 'f':
            if (ra_report_format_by_name(ra_str(optarg, strlen(optarg)), &fmt)
                != RA_OK)
            {
                return ra_cli_error(RA_LOGS_CMD, "--format: text, json, html "
                                    "or prometheus, not '%s'", optarg);
            }
            break;
        case 'L':
            mib = strtol(optarg, &end, 10);
            if (*optarg == '\0' || *end != '\0' || mib < 1 || mib > 4095) {
                return ra_cli_error(RA_LOGS_CMD, "--ledger: '%s' is not a "
                                    "size in MiB (1-4095)", optarg);
            }
            break;
        case 'h':
            fputs(ra_logs_usage, stdout);
            return RA_EXIT_OK;
        default:
            fputs(ra_logs_usage, stderr);
            return RA_EXIT_USAGE;
        }
    }
    if (robots_file == NULL) {
        return ra_cli_error(RA_LOGS_CMD, "--robots FILE is required: the "
                            "robots.txt the site served (try --help)");
    }
    if (optind >= argc) {
        return ra_cli_error(RA_LOGS_CMD, "expects LOG files, or '-' for "
                            "stdin (try --help)");
    }

    if ((crawlers_file != NULL
         && ra_cli_setup_file(RA_LOGS_CMD, &setup, 0, crawlers_file) != 0)
        || ra_cli_setup_compile(RA_LOGS_CMD, &setup) != 0)
    {
        return RA_EXIT_USAGE;
    }

    if (ra_cli_read_file(RA_LOGS_CMD, robots_file, &x.robots) != 0) {
        return RA_EXIT_USAGE;
    }
    x.file.path = robots_file;
    x.file.text = x.robots;
    x.file.size = x.robots.len;
    if (ra_logread_open(&rd, RA_LOGS_CMD, argv + optind, argc - optind)
        != 0)
    {
        goto fail;
    }

    size = (size_t) mib << 20;
    region = malloc(size);
    x.esc = malloc(RA_LOG_LINE_MAX);
    if (region == NULL || x.esc == NULL
        || ra_ledger_format(region, size, 0) != RA_OK)
    {
        ra_cli_error(RA_LOGS_CMD, "out of memory (ledger of %ld MiB)", mib);
        goto fail;
    }
    ra_ledger_open(&ledger, region, NULL);

    memset(&conf, 0, sizeof(conf));
    conf.alloc = &ra_malloc_allocator;
    conf.crawlers = setup.crawlers;
    conf.ranges = setup.ranges;
    conf.alert_interval = -1;           /* no alerts here: the default */
    x.au = ra_audit_create(&conf, &ledger);
    if (x.au == NULL) {
        ra_cli_error(RA_LOGS_CMD, "out of memory");
        goto fail;
    }
    x.site = ra_str(site, strlen(site));

    rd.handler = ra_logs_line;
    rd.ctx = &x;
    for (i = optind; i < argc; i++) {
        if (ra_logread_file(&rd, argv[i]) != 0) {
            ra_logread_close(&rd);
            goto fail;
        }
    }
    ra_logread_close(&rd);

    x.lines += rd.overlong;
    x.malformed += rd.overlong;
    if (x.malformed) {
        fprintf(stderr, "robots-audit %s: %llu malformed line%s (not common "
                "or combined format), the first at %s:%llu\n", RA_LOGS_CMD,
                (unsigned long long) x.malformed, x.malformed == 1 ? "" : "s",
                x.bad_file ? x.bad_file : rd.overlong_file,
                (unsigned long long) (x.bad_file ? x.bad_line
                                                 : rd.overlong_line));
    }
    if (x.unjudged) {
        fprintf(stderr, "robots-audit %s: %llu line%s with no HTTP request "
                "line (\"-\" or garbage) counted, not judged\n", RA_LOGS_CMD,
                (unsigned long long) x.unjudged, x.unjudged == 1 ? "" : "s");
    }
    if (x.nomem) {
        fprintf(stderr, "robots-audit %s: %llu request%s counted but not "
                "judged (out of memory)\n", RA_LOGS_CMD,
                (unsigned long long) x.nomem, x.nomem == 1 ? "" : "s");
    }

    if (ra_ledger_snapshot(&ledger, &ra_malloc_allocator, 0, &snap)
        != RA_OK)
    {
        ra_cli_error(RA_LOGS_CMD, "out of memory");
        goto fail;
    }

    /* the findings of the file, for every site that serves it as rules */
    memset(&http, 0, sizeof(http));
    http.status = 200;
    if (ra_lint(x.robots, &http, &ra_malloc_allocator, &lint) == RA_OK) {
        have_lint = 1;
        lints = calloc(snap.nsites + 1, sizeof(ra_lint_t *));
        for (i = 0; lints != NULL && i < (int) snap.nsites; i++) {
            const ra_site_t  *s = &snap.sites[i];

            if (s->nversions && s->current < RA_VERSIONS
                && s->versions[s->current].answer == RA_ANSWER_RULES)
            {
                lints[i] = &lint;
            }
        }
    }

    memset(&opts, 0, sizeof(opts));
    opts.lints = lints;
    opts.with_lines = 1;
    opts.lines = x.lines;
    opts.malformed_lines = x.malformed;
    opts.scratch = &ra_malloc_allocator;
    ra_buf_init(&out, &ra_malloc_allocator, 64 * 1024, 0);
    if (ra_report_render(&snap, fmt, &opts, &out) != RA_OK) {
        out.failed = 1;
    }
    rc = RA_EXIT_OK;
    if (ra_cli_write(RA_LOGS_CMD, stdout, &out) != 0 || fflush(stdout) != 0) {
        rc = RA_EXIT_USAGE;
    }
    ra_buf_release(&out);
    free(lints);
    if (have_lint) {
        ra_lint_free(&lint, &ra_malloc_allocator);
    }
    ra_snapshot_free(&snap, &ra_malloc_allocator);

fail:
    if (rd.buf != NULL) {
        ra_logread_close(&rd);
    }
    if (x.au != NULL) {
        ra_audit_destroy(x.au);
    }
    free(x.esc);
    free(region);
    free((void *) x.robots.data);
    return rc;
}
