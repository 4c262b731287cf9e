/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * 'robots-audit collect': one judge for a fleet.  It reads the event
 * lines the modules send (ra_events.h) from files, stdin and sockets, and
 * hands each to the same engine the servers run (ra_audit_request(),
 * ra_audit_robots()) over a private ledger, so that its verdicts are
 * those of one server that saw every backend's traffic.  This file holds
 * its options, its setup and its run; ra_collect_judge.c the judging of
 * a line and the page, ra_collect_order.c the reorder window,
 * ra_collect_net.c the sockets and the loop.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ra_collect.h"
#include "ra_digest.h"
#include "ra_evidence.h"
#include "ra_report.h"
#include "ra_status.h"

static const char  ra_collect_usage[] =
    "usage: robots-audit collect [--listen ADDR] [--state FILE]\n"
    "                            [--state-interval SECONDS]\n"
    "                            [--syslog-udp ADDR] [--syslog-tcp ADDR]\n"
    "                            [--unix PATH] [--reorder MS]\n"
    "                            [--ledger MIB]\n"
    "                            [--ranges FILE] [--crawlers FILE]\n"
    "                            [--format FMT] [FILE|-]...\n"
    "\n"
    "Judges the event lines of robots_audit_events / RobotsAuditEvents\n"
    "from every server of a fleet with one ledger.  FILEs (- for stdin)\n"
    "are read first; with --listen, --syslog-udp, --syslog-tcp or --unix\n"
    "it then serves the status page (HTML, JSON, CSV, Prometheus) on ADDR\n"
    "and reads the sockets until SIGTERM; else it prints the report in\n"
    "--format (text, json, csv, csv-crawlers, prometheus, html) and\n"
    "exits.  Lines from sockets are held --reorder ms (default 500) and\n"
    "judged in the order of their times.\n";

static int
ra_collect_opts(ra_collect_t *x, int argc, char **argv)
{
    int          i;
    const char  *a, *v;

    x->mib = 64;
    x->format = "text";
    x->reorder_ms = RA_COLLECT_REORDER_MS;
    for (i = 1; i < argc; i++) {
        a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(ra_collect_usage, stdout);
            exit(RA_EXIT_OK);
        }
        if (a[0] != '-' || strcmp(a, "-") == 0) {
            if (x->nfiles == RA_COLLECT_INPUTS) {
                return ra_cli_error(RA_COLLECT_CMD, "too many files");
            }
            x->files[x->nfiles++] = a;
            continue;
        }
        if (i + 1 >= argc) {
            return ra_cli_error(RA_COLLECT_CMD, "%s needs a value", a);
        }
        v = argv[++i];
#define RA_COLLECT_MANY(opt, arr, n)                                        \
        if (strcmp(a, opt) == 0) {                                          \
            if (x->n == RA_COLLECT_INPUTS) {                                \
                return ra_cli_error(RA_COLLECT_CMD, "too many %s", opt);    \
            }                                                               \
            x->arr[x->n++] = v;                                             \
            continue;                                                       \
        }
        RA_COLLECT_MANY("--syslog-udp", udp, nudp)
        RA_COLLECT_MANY("--syslog-tcp", tcp, ntcp)
        RA_COLLECT_MANY("--unix", unix_path, nunix)
        RA_COLLECT_MANY("--ranges", ranges, nranges)
#undef RA_COLLECT_MANY
        if (strcmp(a, "--listen") == 0) {
            x->listen = v;
        } else if (strcmp(a, "--state") == 0) {
            x->state = v;
        } else if (strcmp(a, "--state-interval") == 0) {
            x->state_every = atol(v) * 1000;
            if (x->state_every <= 0) {
                return ra_cli_error(RA_COLLECT_CMD, "bad --state-interval");
            }
        } else if (strcmp(a, "--reorder") == 0) {
            x->reorder_ms = atol(v);
            if (x->reorder_ms < 0 || x->reorder_ms > 60000) {
                return ra_cli_error(RA_COLLECT_CMD, "bad --reorder %s", v);
            }
        } else if (strcmp(a, "--crawlers") == 0) {
            x->crawlers_file = v;
        } else if (strcmp(a, "--ledger") == 0) {
            x->mib = atol(v);
            if (x->mib < 1 || x->mib > 65536) {
                return ra_cli_error(RA_COLLECT_CMD, "bad --ledger %s", v);
            }
        } else if (strcmp(a, "--format") == 0) {
            x->format = v;
        } else {
            return ra_cli_error(RA_COLLECT_CMD, "unknown option %s\n%s", a,
                                ra_collect_usage);
        }
    }
    return 0;
}

/* the tables, the ledger (restored from --state) and the engine */
static int
ra_collect_open(ra_collect_t *x)
{
    size_t    size = (size_t) x->mib << 20;
    unsigned  i;
    int       rc;

    ra_cli_setup(&x->setup);
    for (i = 0; i < x->nranges; i++) {
        if (ra_cli_setup_file(RA_COLLECT_CMD, &x->setup, 1, x->ranges[i])
            != 0)
        {
            return -1;
        }
    }
    if ((x->crawlers_file != NULL
         && ra_cli_setup_file(RA_COLLECT_CMD, &x->setup, 0, x->crawlers_file)
            != 0)
        || ra_cli_setup_compile(RA_COLLECT_CMD, &x->setup) != 0)
    {
        return -1;
    }
    x->region = malloc(size);
    x->scratch = malloc(RA_EVENTS_LINE_MAX);
    if (x->region == NULL || x->scratch == NULL
        || ra_ledger_format(x->region, size, 0) != RA_OK)
    {
        return ra_cli_error(RA_COLLECT_CMD, "out of memory (ledger of %ld "
                            "MiB)", x->mib);
    }
    ra_ledger_open(&x->ledger, x->region, NULL);
    if (x->state != NULL) {
        rc = ra_ledger_file_restore(&x->ledger, &ra_cli_host, NULL,
                                    ra_str("--state", 7), x->state);
        if (rc != RA_OK && rc != RA_EAGAIN) {
            return ra_cli_error(RA_COLLECT_CMD, "--state %s is left as it "
                                "is: run with the --ledger it was saved "
                                "with, or without it", x->state);
        }
    }
    (void) ra_ledger_saver_init(&x->saver, &x->ledger, &ra_cli_host,
                                ra_str("--state", 7), x->state,
                                x->state_every);
    x->conf.alloc = &ra_malloc_allocator;
    x->conf.crawlers = x->setup.crawlers;
    x->conf.ranges = x->setup.ranges;
    x->conf.alert_interval = -1;
    x->conf.evidence_budget = RA_EVIDENCE_BUDGET_OFF;
    /* sites come from the servers' own judgement: a request a server
     * sent is one it audited */
    x->au = ra_audit_create(&x->conf, &x->ledger);
    if (x->au == NULL) {
        return ra_cli_error(RA_COLLECT_CMD, "out of memory");
    }
    return 0;
}

static int
ra_collect_report(ra_collect_t *x)
{
    ra_buf_t     out, q;
    int          status, rc = 0;
    const char  *type;

    ra_buf_init(&q, &ra_malloc_allocator, 0, 256);
    ra_buf_printf(&q, "format=%s", x->format);
    ra_buf_init(&out, &ra_malloc_allocator, 64 * 1024, 0);
    ra_collect_page(x, ra_str("GET", 3), ra_str(q.data, q.len), &status,
                    &type, &out);
    if (status != 200) {
        rc = ra_cli_error(RA_COLLECT_CMD, "bad --format %s", x->format);
    } else if (ra_cli_write(RA_COLLECT_CMD, stdout, &out) != 0) {
        rc = -1;
    }
    ra_buf_release(&q);
    ra_buf_release(&out);
    return rc;
}

int
ra_cmd_collect(int argc, char **argv)
{
    ra_collect_t  *x;
    unsigned       i;
    int            rc = RA_EXIT_USAGE;

    x = calloc(1, sizeof(*x));
    if (x == NULL || ra_collect_opts(x, argc, argv) != 0
        || ra_collect_open(x) != 0)
    {
        goto done;
    }
    for (i = 0; i < x->nfiles; i++) {
        if (ra_collect_file(x, x->files[i]) != 0) {
            goto done;
        }
    }
    if (x->listen || x->nudp || x->ntcp || x->nunix) {
        rc = ra_collect_serve(x) == 0 ? RA_EXIT_OK : RA_EXIT_USAGE;
    } else {
        rc = ra_collect_report(x) == 0 ? RA_EXIT_OK : RA_EXIT_USAGE;
    }
    if (ra_ledger_saver_save(&x->saver) != RA_OK) {
        rc = RA_EXIT_USAGE;
    }
done:
    if (x != NULL) {
        if (x->au != NULL) {
            ra_audit_destroy(x->au);
        }
        for (i = 0; i < RA_COLLECT_BODIES; i++) {
            free(x->bodies[i].body);
        }
        free(x->region);
        free(x->scratch);
        free(x);
    }
    return rc;
}
