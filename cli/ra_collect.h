/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private to 'robots-audit collect' (cmd_collect.c, ra_collect_net.c):
 * the collector's state, shared by the part that judges event lines and
 * the part that reads them from sockets and serves the status page.
 */
#ifndef RA_COLLECT_H
#define RA_COLLECT_H

#include <stdint.h>

#include "ra_audit.h"
#include "ra_events.h"
#include "ra_ledger.h"
#include "ra_ledger_file.h"
#include "ra_setup.h"

#define RA_COLLECT_CMD      "collect"
#define RA_COLLECT_INPUTS   16          /* files, and each kind of socket */
/* bodies kept by SHA-256, for answers whose line came without one */
#define RA_COLLECT_BODIES   256
/* the reorder window's bounds (ra_collect_order.c) and default */
#define RA_COLLECT_HOLD         65536
#define RA_COLLECT_HOLD_BYTES   (64u * 1024 * 1024)
#define RA_COLLECT_REORDER_MS   500

/* A line held for the reorder window. */
typedef struct {
    int64_t         t;                  /* its time */
    int64_t         arrived;            /* when it came (Unix ms) */
    uint64_t        seq;                /* arrival order, for equal t */
    unsigned char  *line;
    size_t          len;
} ra_collect_held_t;

/* What became of the lines read: shown on the Prometheus page. */
typedef struct {
    uint64_t      judged;               /* requests judged */
    uint64_t      answers;              /* robots.txt answers recorded */
    uint64_t      malformed;            /* not an event */
    uint64_t      oversize;             /* over RA_EVENTS_LINE_MAX */
    uint64_t      no_body;              /* a 2xx whose body was never sent */
    uint64_t      dropped;              /* refused: a full input buffer,
                                           too many connections */
} ra_collect_counts_t;

typedef struct {
    /* options */
    const char         *listen;         /* --listen ADDR: the status page */
    const char         *state;          /* --state FILE */
    int64_t             state_every;    /* --state-interval, ms */
    const char         *udp[RA_COLLECT_INPUTS];     /* --syslog-udp */
    const char         *tcp[RA_COLLECT_INPUTS];     /* --syslog-tcp */
    const char         *unix_path[RA_COLLECT_INPUTS];   /* --unix */
    unsigned            nudp, ntcp, nunix;
    const char         *files[RA_COLLECT_INPUTS];   /* "-": stdin */
    unsigned            nfiles;
    const char         *ranges[RA_COLLECT_INPUTS];  /* --ranges */
    unsigned            nranges;
    const char         *crawlers_file;  /* --crawlers */
    long                mib;            /* --ledger */
    const char         *format;         /* --format, without --listen */
    int64_t             reorder_ms;     /* --reorder: sockets' lines held */

    /* the judge */
    ra_setup_t          setup;
    ra_audit_conf_t     conf;
    ra_audit_t         *au;
    ra_ledger_t         ledger;
    void               *region;
    ra_ledger_saver_t   saver;
    unsigned char      *scratch;        /* RA_EVENTS_LINE_MAX */
    ra_collect_counts_t n;
    ra_collect_held_t  *held;           /* a heap by (t, seq) */
    size_t              nheld, held_bytes;
    uint64_t            seq;
    int64_t             latest;         /* the latest time held */
    struct {
        unsigned char   sha[32];
        unsigned char  *body;
        size_t          len;
    }                   bodies[RA_COLLECT_BODIES];
} ra_collect_t;

/* One line as read (no newline; a syslog header is skipped): judged,
 * recorded, or counted as lost. */
void ra_collect_line(ra_collect_t *x, ra_str_t line);

/* A socket's line at now: held for the reorder window, or judged at once
 * without one; ra_collect_release() judges those held long enough (all:
 * every one, at the end). */
void ra_collect_hold(ra_collect_t *x, ra_str_t line, int64_t now);
void ra_collect_release(ra_collect_t *x, int64_t now, int all);

/* Reads a file, or stdin for "-", line by line; 0 or -1 (said). */
int ra_collect_file(ra_collect_t *x, const char *path);

/* The status page for a request of method and query at now (the
 * collector's counters added to Prometheus), into out. */
void ra_collect_page(ra_collect_t *x, ra_str_t method, ra_str_t query,
    int *status, const char **type, ra_buf_t *out);

/* Opens the listeners and serves until SIGTERM or SIGINT; 0 or -1. */
int ra_collect_serve(ra_collect_t *x);

#endif /* RA_COLLECT_H */
