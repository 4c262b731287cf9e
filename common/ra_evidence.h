/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The evidence log: one JSON line per violating request, written when the
 * violation is counted, so that no violation vanishes without a trace when
 * the ledger later evicts its record and its entry in the ring of recent
 * violations.  This room decides what a line says (the CSV report's
 * columns as keys) and how many bytes a minute the log may take (a budget
 * shared by every process of the server, in the ledger); the servers and
 * the CLI write the line through the whole-line writer (ra_logfile.h).
 *
 *   {"time":"2026-11-21T07:20:59Z","site":"example.com",
 *    "crawler":"Googlebot","verification":"verified",
 *    "verified_by":"ranges","client":"66.249.66.1","method":"GET",
 *    "uri":"/private/x","rule":"/private","line":3,
 *    "robots_sha256":"9f86...","last_robots_fetch":"2026-11-21T07:00:01Z",
 *    "purpose":"search"}
 *
 * The keys are RA_REPORT_CSV_HEADER's, in its order, and each value is
 * the CSV's (rule: the deciding pattern); what the CSV leaves empty is
 * null here (verified_by, robots_sha256, last_robots_fetch, purpose; rule
 * when no line decided).  A URI longer than RA_EVIDENCE_URI_MAX bytes is
 * cut there.  Strings are JSON-escaped (ra_buf_json_str()): a hostile
 * path or name can neither forge a key nor end the line.
 */
#ifndef RA_EVIDENCE_H
#define RA_EVIDENCE_H

#include "ra_buf.h"
#include "ra_ledger.h"
#include "ra_verdict.h"

/* Bytes a minute the evidence log may take, for the whole server. */
#define RA_EVIDENCE_BUDGET_DEFAULT  (8ull * 1024 * 1024)
#define RA_EVIDENCE_BUDGET_OFF      UINT64_MAX      /* no limit */
#define RA_EVIDENCE_BUDGET_MIN      1024ull

/* A URI is kept up to this many bytes (every one escaped to six, the
 * line still fits RA_ALERT_LINE_MAX). */
#define RA_EVIDENCE_URI_MAX         2048

/* Does v leave a line in the evidence log?  Violations do (what the CSV
 * report lists), nothing else. */
int ra_evidence_wanted(const ra_verdict_t *v);

/* Appends the line about r and its verdict v, newline included. */
void ra_evidence_line(ra_buf_t *b, const ra_request_t *r,
    const ra_verdict_t *v);

/*
 * May a line of bytes go out at now, under a budget of bytes a minute
 * (0: RA_EVIDENCE_BUDGET_DEFAULT; RA_EVIDENCE_BUDGET_OFF: no limit)?  The
 * minute is the clock's (now / 60000): a new one begins empty, a request
 * that came in an earlier one counts in the current one.  1, the bytes
 * counted; or 0, the line dropped and counted for its site (when it is
 * known) and for all sites.  Under the ledger's lock.
 */
int ra_evidence_budget_take(const ra_evidence_state_t *st, uint64_t bytes,
    uint64_t budget, int64_t now);

/* Is bytes a budget (at least RA_EVIDENCE_BUDGET_MIN; a directive's
 * "off" is RA_EVIDENCE_BUDGET_OFF)?  NULL, or a static sentence saying
 * what is wrong (for a configuration error). */
const char *ra_evidence_budget_check(uint64_t bytes);

#endif /* RA_EVIDENCE_H */
