/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Narrowing a report over access logs to a time range, crawlers, statuses,
 * clients and sites, and what each line left out still tells the judge.
 * The options are parsed here (each returns a sentence when its argument
 * does not read) and each line is decided here, so that any front end
 * reading logs (the CLI's logs, a collector) narrows the same way.
 *
 * A filter narrows what is counted and reported, never what the judge
 * knows: a crawler's robots.txt fetch before --since, or by a client
 * --exclude-client leaves out, still binds it, so that the requests kept
 * are judged as they would be without the filter.  Hence three answers:
 *
 *   KEEP  the line is counted and reported;
 *   KNOW  it is left out of the counts, but its robots.txt answer (if it
 *         is one) is still recorded for the judge;
 *   DROP  it is left out altogether: a line at or after --until (no
 *         verdict depends on a later line) or of a site --site does not
 *         name (sites are judged apart).
 */
#ifndef RA_LOGFILTER_H
#define RA_LOGFILTER_H

#include <stdint.h>

#include "ra_core.h"
#include "ra_accesslog.h"
#include "ra_crawlers.h"

#define RA_LOGFILTER_MAX  64            /* of each repeatable option */

typedef enum {
    RA_LOGFILTER_KEEP = 0,
    RA_LOGFILTER_KNOW,
    RA_LOGFILTER_DROP
} ra_logfilter_e;

typedef enum {
    RA_LOGFILTER_SINCE = 0,             /* TIME: lines from it on */
    RA_LOGFILTER_UNTIL,                 /* TIME: lines before it */
    RA_LOGFILTER_CRAWLER,               /* NAME: table name, token, generic,
                                           impostor */
    RA_LOGFILTER_STATUS,                /* CODE or Nxx */
    RA_LOGFILTER_EXCLUDE_CLIENT,        /* CIDR or address */
    RA_LOGFILTER_SITE                   /* HOST */
} ra_logfilter_opt_e;

typedef struct {
    int64_t     since;                  /* ms; INT64_MIN: none */
    int64_t     until;                  /* ms, excluded; INT64_MAX: none */
    ra_str_t    crawlers[RA_LOGFILTER_MAX];
    unsigned    ncrawlers;
    uint16_t    status_lo[RA_LOGFILTER_MAX];
    uint16_t    status_hi[RA_LOGFILTER_MAX];
    unsigned    nstatus;
    ra_cidr_t   exclude[RA_LOGFILTER_MAX];
    unsigned    nexclude;
    ra_str_t    sites[RA_LOGFILTER_MAX];
    unsigned    nsites;
} ra_logfilter_t;

/* What a line shows the filter.  id is needed only when
 * ra_logfilter_wants_identity() says so (else it may be NULL), impostor
 * only when ra_logfilter_wants_verification() does. */
typedef struct {
    int64_t               time;         /* ms */
    ra_str_t              site;
    ra_str_t              client;       /* the address, as text */
    int                   status;
    const ra_identity_t  *id;
    int                   impostor;     /* 1: a table crawler's User-Agent
                                           from a client that is not its
                                           operator's (ra_audit_who()) */
} ra_logfilter_line_t;

/* No filter: every line kept. */
void ra_logfilter_init(ra_logfilter_t *f);

/*
 * Adds one option's argument (kept by reference: it must outlive f).
 * now (ms) is what a relative time counts back from.  NULL, or a static
 * sentence saying what the argument should be.
 */
const char *ra_logfilter_opt(ra_logfilter_t *f, ra_logfilter_opt_e opt,
    ra_str_t arg, int64_t now);

/*
 * A point in time, into *out (ms): ISO 8601 "YYYY-MM-DD", with
 * "[T ]HH:MM[:SS[.fff]]", and with "Z" or an offset ("+02:00", "+0200",
 * "+02"), a time without one being UTC (as logs' times are compared); or
 * relative to now: a number and s, m, h, d or w ("24h", "7d").  RA_OK or
 * RA_ERROR.
 */
int ra_logfilter_time(ra_str_t s, int64_t now, int64_t *out);

/* Whether any option was given, whether the line's identity is needed
 * (--crawler), and its verification (--crawler impostor). */
int ra_logfilter_active(const ra_logfilter_t *f);
int ra_logfilter_wants_identity(const ra_logfilter_t *f);
int ra_logfilter_wants_verification(const ra_logfilter_t *f);

/* 1 when --site names no site or names this one. */
int ra_logfilter_site(const ra_logfilter_t *f, ra_str_t site);

/* Whether a crawler name of the options (at i) is neither "generic",
 * "impostor" nor a name or token of the table t: then it can match only
 * generic bots' tokens (the caller may warn). */
int ra_logfilter_crawler_unknown(const ra_logfilter_t *f, unsigned i,
    const ra_crawlers_t *t);

/* The decision for a line (see above). */
ra_logfilter_e ra_logfilter_decide(const ra_logfilter_t *f,
    const ra_logfilter_line_t *line);

#endif /* RA_LOGFILTER_H */
