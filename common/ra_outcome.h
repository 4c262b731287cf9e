/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What a server does with a request once it has read it, the same in
 * every server: the steps of its turn (judged and counted, a violation's
 * line to the evidence log, the alert lines: the text one to the error
 * log, the JSON one to the alert log, each written whole or not at all;
 * the line saying that enforce refused it)
 * and a captured robots.txt answer handed to the engine, with the other
 * readings of an answer's body.  The glue only fills the request and
 * hands over its logs or its capture.
 */
#ifndef RA_OUTCOME_H
#define RA_OUTCOME_H

#include "ra_alert.h"
#include "ra_audit.h"
#include "ra_audit_body.h"
#include "ra_host.h"
#include "ra_http.h"
#include "ra_logfile.h"
#include "ra_policy.h"

/* The longest JSON alert line written: an escaped byte takes six, so a
 * long URI is cut before the line gets there; a longer one (rare) is
 * not written rather than written cut. */
#define RA_ALERT_LINE_MAX  16384

/* The alert log as the glue opened it: a log file like any other
 * (ra_logfile.h), under the name the glue has always known it by. */
typedef ra_logfile_t  ra_alert_log_t;

/* The logs a request's turn writes to (either without a file: none). */
typedef struct {
    ra_logfile_t  alert;        /* JSON alert lines */
    ra_logfile_t  evidence;     /* JSON evidence lines (ra_evidence.h) */
} ra_outcome_logs_t;

/*
 * When v->alert or v->summary, writes the text line through h->log and,
 * when log is not NULL and has a file, the JSON line to it
 * (ra_alert_emit()), whole or not at all (ra_logfile_line()).  A write
 * that fails is logged at RA_LOG_ALERT about req->where, naming the log
 * (RA307), each time: without an engine nothing counts the failures (the
 * servers' turn, ra_outcome_request(), says them once a minute).
 */
void ra_outcome_alert(const ra_host_t *h, const ra_request_t *req,
    const ra_verdict_t *v, const ra_alert_log_t *log);

/*
 * When v is a violation (ra_evidence_wanted()) and log has a file, its
 * evidence line (ra_evidence_line()) to it, whole or not at all, when
 * au's evidence budget takes it (au NULL: no budget).  A write that fails
 * is counted (robots_audit_log_write_errors_total{log="evidence"}) and
 * said at RA_LOG_ALERT about req->where (RA313) at most once a minute per
 * log for the whole server, with the lines lost since it was last said.
 */
void ra_outcome_evidence(ra_audit_t *au, const ra_host_t *h,
    const ra_request_t *req, const ra_verdict_t *v, const ra_logfile_t *log);

/* When v refused the request (enforce), logs that at RA_LOG_INFO about
 * where (RA324) and returns 1: the glue answers 403.  Else 0. */
int ra_outcome_refused(const ra_host_t *h, void *where,
    const ra_verdict_t *v);

/*
 * The lines of an undeclared crawler's violation (u from
 * ra_audit_undeclared(), or the CLI's own table): its evidence line to
 * logs->evidence when au's evidence budget takes it (au NULL: no budget),
 * and when u->alert its RA104 alert, the text line through h (NULL: none)
 * and the JSON line to logs->alert; each whole or not at all, a failed
 * write counted and said as the crawlers' are (au NULL: said through h
 * each time).  Nothing for any other verdict.  RA_OK, or RA_ERROR when a
 * line could not be written.  The servers' turn (ra_outcome_request())
 * calls it for every browser's request a flagged client makes.
 */
int ra_outcome_undeclared(ra_audit_t *au, const ra_host_t *h, void *where,
    const ra_undecl_out_t *u, const ra_outcome_logs_t *logs);

/*
 * A request's turn, once the glue filled req (enforce and recorded
 * included): judged and counted by au (ra_audit_request(); out of memory:
 * counted, not judged, and said), a violation's evidence line written
 * (ra_outcome_evidence(), at once: before any later request can evict its
 * record), its alert lines written (as ra_outcome_alert() does, but a
 * failed write is counted and said once a minute, as the evidence log's),
 * and a refusal said (ra_outcome_refused(); a policy's with its rule,
 * "refused: policy (block crawler Bytespider)").  logs may be NULL
 * (neither log).  The verdict goes into *v.  Returns 1 when enforce or
 * the request's policy (req->policy) refused the request.
 */
int ra_outcome_request(ra_audit_t *au, const ra_host_t *h, ra_request_t *req,
    const ra_outcome_logs_t *logs, ra_verdict_t *v);

/*
 * ra_outcome_request(), and when a is not NULL (the request is judged
 * before its content), how to answer it: ra_policy_answer() into *a, by
 * the request's policy (its status, body and Retry-After).  Returns the
 * status to answer (a->status), 0 when the request goes on; with a NULL,
 * what ra_outcome_request() returns.
 */
int ra_outcome_answer(ra_audit_t *au, const ra_host_t *h, ra_request_t *req,
    const ra_outcome_logs_t *logs, ra_verdict_t *v, ra_refusal_t *a);

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

/* The header fields of an answer a robots.txt reading is recorded with
 * (ra_outcome_robots()): its Content-Type as sent, a charset the server
 * keeps apart (nginx's; len 0: none) and its Location (a redirect's). */
typedef struct {
    ra_str_t  content_type;
    ra_str_t  charset;
    ra_str_t  location;
} ra_body_fields_t;

/*
 * The readings of an answer's body that ra_body_feed() or ra_body_read()
 * said are complete (done), recorded as every server's filter records
 * them, for req, the request answered: a robots.txt answer handed to the
 * engine by ra_outcome_robots() (with f and hop), a page's head
 * (ra_audit_page_body()) and a sitemap's lint ended at now
 * (ra_audit_sitemap_end()).  Returns 1 when the robots.txt answer was
 * handed over (the glue marks the request recorded, for its log time),
 * else 0.
 */
int ra_outcome_body(ra_audit_t *au, const ra_host_t *h, ra_body_t *b,
    unsigned done, ra_request_t *req, const ra_body_fields_t *f,
    unsigned hop, int64_t now);

#endif /* RA_OUTCOME_H */
