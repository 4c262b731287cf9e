/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What a server does with a request once it has read it, the same in
 * every server: the steps of its turn (judged and counted, the alert
 * lines: the text one to the error log, the JSON one to the alert log,
 * written whole or not at all; the line saying that enforce refused it)
 * and a captured robots.txt answer handed to the engine.  The glue only
 * fills the request and hands over its alert log or its capture.
 */
#ifndef RA_OUTCOME_H
#define RA_OUTCOME_H

#include "ra_alert.h"
#include "ra_audit.h"
#include "ra_host.h"
#include "ra_http.h"

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

/* The write of a log whose file is a POSIX descriptor (file points to
 * the int): write(2), as both servers' own files and pipes are written,
 * so that no glue writes its own. */
int ra_alert_log_write_fd(void *file, const void *p, size_t *n);

/* Writes p[0..n) to the log's file, all of it: RA_OK, or RA_ERROR with
 * *err set to the errno value of the write that failed. */
int ra_alert_log_write(const ra_alert_log_t *log, const void *p, size_t n,
    int *err);

/* When v refused the request (enforce), logs that at RA_LOG_INFO about
 * where (RA324) and returns 1: the glue answers 403.  Else 0. */
int ra_outcome_refused(const ra_host_t *h, void *where,
    const ra_verdict_t *v);

/*
 * A request's turn, once the glue filled req (enforce and recorded
 * included): judged and counted by au (ra_audit_request(); out of memory:
 * counted, not judged, and said), its alert lines written
 * (ra_outcome_alert()), and a refusal said (ra_outcome_refused()).  The
 * verdict goes into *v.  Returns 1 when enforce refused the request: the
 * glue answers 403.
 */
int ra_outcome_request(ra_audit_t *au, const ra_host_t *h, ra_request_t *req,
    const ra_alert_log_t *log, ra_verdict_t *v);

/*
 * A captured robots.txt answer, once the server sent its last byte (or
 * its header, when it has no body): made from the capture c with the
 * Content-Type as sent and a charset the server keeps apart
 * (ra_capture_answer()), and recorded for req->site at now
 * (ra_audit_robots()) with req, the request it answered, so that its
 * client is bound by it before its next request can be judged on another
 * connection.  hop: which redirect's target it answers (0: robots.txt);
 * location: the answer's Location, read for a redirect only.  RA_OK when
 * handed to the engine (the glue marks the request recorded, for its log
 * time); RA_ENOMEM, said about req->where, when the capture ran out of
 * memory.
 */
int ra_outcome_robots(ra_audit_t *au, const ra_host_t *h, ra_capture_t *c,
    ra_str_t content_type, ra_str_t charset, ra_request_t *req, unsigned hop,
    ra_str_t location, int64_t now);

#endif /* RA_OUTCOME_H */
