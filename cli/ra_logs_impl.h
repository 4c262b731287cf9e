/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private to the files of 'robots-audit logs' (cmd_logs.c, ra_logs_line.c,
 * ra_logs_report.c): the state of one run, and the steps each file gives
 * the others.
 */
#ifndef RA_LOGS_IMPL_H
#define RA_LOGS_IMPL_H

#include <stdio.h>

#include "ra_audit.h"
#include "ra_cli_rdns.h"
#include "ra_follow.h"
#include "ra_logread.h"
#include "ra_logs_opts.h"
#include "ra_logs_read.h"
#include "ra_pool.h"

#define RA_LOGS_SEEN         4096    /* sites remembered as seeded */

/* the undeclared crawlers' tables (ra_logs_undeclared.c) */
typedef struct ra_logs_undecl_s  ra_logs_undecl_t;

typedef struct {
    const char        *host;            /* NULL: the plain --robots FILE */
    ra_robots_file_t   file;            /* as the modules seed a file */
    ra_str_t           text;
    ra_lint_t          lint;
    unsigned           linted:1;
} ra_logs_robots_t;

/* the crawler and range tables of one reading of their files, in a pool
 * released when SIGHUP replaces them */
typedef struct {
    ra_pool_t   pool;
    ra_alloc_t  alloc;
} ra_logs_tables_t;

typedef struct {
    const ra_logs_opts_t  *o;
    ra_audit_t        *au;
    ra_logs_tables_t  *tables;
    ra_ledger_t        ledger;
    ra_audit_conf_t    conf;
    ra_logs_robots_t   robots[RA_LOGS_ROBOTS_MAX];
    unsigned           nrobots;
    ra_logs_robots_t  *plain;           /* the plain --robots FILE */
    unsigned           filtering:1;     /* ra_logfilter_active(), asked
                                           once a run */
    /* the file being read */
    ra_logs_reader_t   rd;
    ra_str_t           site;            /* --site of that file */
    unsigned           site_seeded:1;   /* x->site seeded already */
    ra_logs_robots_t  *site_rb;         /* and its file */
    ra_logs_window_t   win;             /* its first lines */
    /* the sites seeded with their --robots file */
    uint64_t           seen[RA_LOGS_SEEN];
    unsigned           nseen;
    /* the sites whose robots.txt answers were said to differ in size from
     * their --robots file */
    uint64_t           sized[RA_LOGS_SEEN];
    unsigned           nsized;
    uint64_t           filtered;        /* lines the filters left out */
    int64_t            file_last;       /* the latest time of the file read */
    ra_logs_reader_t   peek;            /* ra_logs_time_of()'s */
    /* counts */
    uint64_t           lines;
    uint64_t           malformed;
    uint64_t           skipped;          /* W3C '#' directives */
    uint64_t           parsed;
    uint64_t           with_ua;
    uint64_t           with_xff;
    uint64_t           unjudged;         /* no request line to judge */
    uint64_t           nomem;
    uint64_t           no_robots;        /* lines of sites without a file */
    char               no_robots_site[RA_LOGS_SHOWN];
    const char        *bad_file;         /* the first malformed line */
    uint64_t           bad_line;
    char               first[RA_LOGS_SHOWN];  /* shown escaped */
    const char        *first_file;
    unsigned char     *esc;              /* unescaped fields */
    FILE              *alerts;           /* --alert-log */
    ra_buf_t           alert_line;
    ra_logfile_t       evidence;         /* --evidence-log */
    int                evidence_fd;
    ra_cli_rdns_t     *dns;              /* --rdns */
    ra_host_t          dns_host;
    ra_logs_undecl_t  *undecl;           /* NULL until a browser's line */
} ra_logs_ctx_t;

/* Judges one line (a ra_logread_line_pt over a ra_logs_ctx_t) */
int ra_logs_line(void *ctx, ra_str_t line, const char *file,
    uint64_t lineno);

/* --rdns over files: every address to verify resolved beforehand */
void ra_logs_prefetch(ra_logs_ctx_t *x, char **paths, unsigned n);

/* The time of a line, for ra_logs_order() (a ra_logs_time_pt) */
int ra_logs_time_of(void *ctx, ra_str_t line, const char *file,
    int64_t *time);

/* The --robots file of a site, or the plain one (NULL: none) */
ra_logs_robots_t *ra_logs_robots_of(ra_logs_ctx_t *x, ra_str_t site);

/* What the reading left to say on stderr: malformed lines, fields the
 * log lacks, lines not judged; -1 when no line could be read (said) */
int ra_logs_summary(ra_logs_ctx_t *x, const ra_logread_t *rd);

/* A browser's request (as the judge identified it) through the
 * undeclared-crawler detector of its site (rb: the site's --robots file,
 * NULL: none; a: req->addr parsed, NULL when it is no address); -1 when
 * its evidence or alert line could not be written (said) */
int ra_logs_undeclared(ra_logs_ctx_t *x, const ra_request_t *req,
    ra_logs_robots_t *rb, const ra_addr_t *a);

/* The detector's tables for the report (never NULL), and their end */
const struct ra_undecl_sites_s *ra_logs_undeclared_sites(
    const ra_logs_ctx_t *x);
void ra_logs_undeclared_free(ra_logs_ctx_t *x);

/* Renders the ledger and writes it to --output or stdout; with a mark
 * (--follow), what the interval since it added, then the mark moves on */
int ra_logs_report(ra_logs_ctx_t *x, ra_follow_mark_t *mark);

#endif /* RA_LOGS_IMPL_H */
