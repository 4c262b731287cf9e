/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What a server does with a verdict, the same in every server: the alert
 * lines (the text one to the error log, the JSON one to the alert log,
 * written whole or not at all) and the line saying that enforce refused
 * a request.  The glue only hands over the verdict and its alert log.
 */
#ifndef RA_OUTCOME_H
#define RA_OUTCOME_H

#include "ra_alert.h"
#include "ra_audit.h"
#include "ra_host.h"

/* The longest JSON alert line written: an escaped byte takes six, so a
 * long URI is cut before the line gets there; a longer one (rare) is
 * not written rather than written cut. */
#define RA_ALERT_LINE_MAX  16384

/*
 * The alert log as the glue opened it (nginx's open file, an APR file or
 * pipe): the host's way of writing to it.
 *   write  writes at most *n bytes of p to file: 0 with *n set to what
 *          was written, which may be less, else an errno value (EINTR:
 *          asked again)
 *   file   NULL: no alert log
 *   name   how messages name it (its path, or "|program")
 */
typedef struct {
    int          (*write)(void *file, const void *p, size_t *n);
    void          *file;
    const char    *name;
} ra_alert_log_t;

/*
 * When v->alert or v->summary, writes the text line through h->log and,
 * when log is not NULL and has a file, the JSON line to it
 * (ra_alert_emit()).  The JSON line goes out in one piece as far as the
 * file allows (O_APPEND keeps lines whole): a short write goes on with the
 * rest, EINTR tries again.  A write that fails is logged at RA_LOG_ALERT
 * about req->where, naming the log.
 */
void ra_outcome_alert(const ra_host_t *h, const ra_request_t *req,
    const ra_verdict_t *v, const ra_alert_log_t *log);

/* Writes p[0..n) to the log's file, all of it: RA_OK, or RA_ERROR with
 * *err set to the errno value of the write that failed. */
int ra_alert_log_write(const ra_alert_log_t *log, const void *p, size_t n,
    int *err);

/* When v refused the request (enforce), logs that at RA_LOG_INFO about
 * where (RA324) and returns 1: the glue answers 403.  Else 0. */
int ra_outcome_refused(const ra_host_t *h, void *where,
    const ra_verdict_t *v);

#endif /* RA_OUTCOME_H */
