/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The options of 'robots-audit logs': its --help, and its command line
 * read into a plain struct and checked against itself (one option that
 * needs another, two that exclude each other), before anything is opened.
 */
#ifndef RA_LOGS_OPTS_H
#define RA_LOGS_OPTS_H

#include <stdint.h>

#include "ra_accesslog.h"
#include "ra_logfilter.h"
#include "ra_logs_order.h"
#include "ra_report.h"

#define RA_LOGS_CMD          "logs"
#define RA_LOGS_LEDGER_MIB   32      /* default private ledger */
#define RA_LOGS_ROBOTS_MAX   64      /* --robots HOST=FILE */
#define RA_LOGS_TRUST_MAX    64      /* --real-ip-from */

/* --robots [HOST=]FILE */
typedef struct {
    char        *host;                  /* NULL: the plain --robots FILE */
    const char  *path;
} ra_logs_robots_opt_t;

typedef struct {
    ra_logs_robots_opt_t   robots[RA_LOGS_ROBOTS_MAX];
    unsigned               nrobots;
    int                    plain;       /* its index; -1: none */
    ra_cidr_t              trusted[RA_LOGS_TRUST_MAX];  /* --real-ip-from */
    unsigned               ntrusted;
    ra_logfmt_t            given;       /* --log-format, --json-fields */
    int                    have_given;
    /* --since, --until, --crawler, --status, --exclude-client, --site */
    ra_logfilter_t         filter;
    unsigned               purpose;     /* --purpose: category + 1 */
    unsigned               alert_purposes;
    const char            *alerts_path;    /* --alert-log */
    const char            *evidence_path;  /* --evidence-log */
    uint32_t               html_refresh;   /* --html-refresh seconds */
    long                   mib;            /* --ledger */
    long                   interval;       /* --interval seconds */
    int                    follow;
    int                    rdns;
    int                    no_ranges;
    ra_report_format_e     fmt;
    const char            *output;
    const char            *crawlers_file;
    const char            *resolver;
    const char            *rdns_cache;
    const char            *state;
    ra_logs_input_t       *inputs;      /* the LOGs, each with its --site */
    char                 **paths;
    unsigned               ninputs;
    char                 **ranges;      /* --ranges, or the directory's */
    unsigned               nranges;
} ra_logs_opts_t;

/* Reads and checks the command line into o (which ra_logs_opts_free()
 * releases, whatever the result): 0 to run, or the exit status (--help:
 * RA_EXIT_OK; else RA_EXIT_USAGE, said) with -1 returned. */
int ra_logs_opts_parse(ra_logs_opts_t *o, int argc, char **argv,
    int *exit_status);

void ra_logs_opts_free(ra_logs_opts_t *o);

#endif /* RA_LOGS_OPTS_H */
