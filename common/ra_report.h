/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Reports: one renderer for the nginx and Apache status pages and the
 * CLI, from a ledger snapshot (ra_ledger.h; plain data, so a test can
 * fill one by hand) into an ra_buf_t.
 *
 *   RA_REPORT_HTML        a page a person reads: self-contained (inline
 *                         CSS, no JavaScript, no external resource),
 *                         refreshes itself every 30 s
 *   RA_REPORT_JSON        docs/design.md's "JSON", one for all
 *                         sites; always valid UTF-8
 *   RA_REPORT_PROMETHEUS  text exposition format 0.0.4
 *   RA_REPORT_TEXT        a compact table for terminals (the CLI)
 *   RA_REPORT_STATUS_KV   Apache mod_status's ?auto lines
 *                         ("RobotsAuditRequests: N", ...): the ledger's
 *                         totals only; ra_report_status_kv() renders them
 *                         from ra_ledger_totals() without a snapshot
 *   RA_REPORT_STATUS_HTML the fragment mod_status's page shows: totals,
 *                         then a row per site (opts->no_table: none, for
 *                         ?notable); site names through ra_buf_html(),
 *                         which also escapes what ap_escape_html() leaves
 *                         (', control bytes, invalid UTF-8)
 * The two status formats are parts of another page, not status-page
 * formats of their own: ra_report_format_by_name() never names them.
 *
 * A snapshot's stats and violations name their site by its index + 1 in
 * snap->sites; one naming no site of the snapshot is not shown.
 *
 * Everything that came from the network (site names, content types,
 * generic tokens, addresses, methods, URIs, rule patterns) goes through
 * the escaper of the target syntax: ra_buf_html(), ra_buf_json_str(),
 * ra_buf_prom_label(), ra_buf_log() for text.
 *
 * Lint: the ledger keeps each version's lint counts (errors, warnings,
 * infos, groups, rules, sitemaps), and every format shows those.  The
 * findings themselves are shown (HTML, JSON, text) only when the caller
 * has them: opts->lints gives one ra_lint_t per snapshot site (the CLI
 * lints its --robots file once), or opts->relint asks the renderer to
 * lint snap->bodies[i] (a snapshot taken with bodies) with the current
 * version's status and Content-Type; a module does this for its HTML page
 * only, since linting costs milliseconds per 500 KiB body.
 *
 * Prometheus cardinality: the crawler label is the table's name for
 * verified crawlers only; "generic" for every generic bot (their
 * self-declared tokens are open-ended: JSON and HTML show them, metrics
 * never do), "unverified" for every other record (impostors, unverifiable
 * crawlers, browsers: names anyone can send from any address), and
 * "evicted" for what the site's verified records evicted so far counted
 * (ra_site_t.evicted; evicted unverified records stay in "unverified",
 * generic ones in "generic").  A record's verification never changes, so
 * a name is always listed or always folded, and every counter series only
 * rises; the series per site are bounded by the verified crawlers it
 * saw, whatever anyone sends.  Site names are bounded by the ledger's
 * site table.  Records sharing labels are summed.  robots_audit_robots_fetches_total carries status="all":
 * the ledger counts fetches per crawler, not per status; the last status
 * a crawler got is the gauge robots_audit_robots_last_fetch_status.
 * Impostors' fetches are not counted there (they are not the crawler's);
 * they stay in robots_audit_requests_total{verification="impostor"}.
 *
 * Bounded views: a snapshot taken through a view (ra_snapshot_view_t)
 * holds the busiest records of each site, those with violations, and the
 * newest violations; every format but Prometheus says what it left out
 * (JSON "crawlers_shown"/"crawlers_total" per site, "sites_shown"/
 * "sites_total" and "truncated"; HTML and text "showing N of M").
 *
 * Memory: output goes to out (check out->failed / out->truncated once);
 * scratch (sorting, re-linting) comes from opts->scratch, or out's
 * allocator when that is NULL, and is returned before the call returns
 * when the allocator can free.
 */
#ifndef RA_REPORT_H
#define RA_REPORT_H

#include "ra_core.h"
#include "ra_buf.h"
#include "ra_ledger.h"
#include "ra_lint.h"

typedef enum {
    RA_REPORT_TEXT = 0,
    RA_REPORT_JSON,
    RA_REPORT_HTML,
    RA_REPORT_PROMETHEUS,
    RA_REPORT_STATUS_KV,
    RA_REPORT_STATUS_HTML,
    RA_REPORT_CSV,              /* the violations, one a row */
    RA_REPORT_CSV_CRAWLERS      /* the crawler records, one a row */
} ra_report_format_e;

typedef struct {
    /* "now" in Unix ms: the 24-hour window of versions, ages.  0: the
     * newest time the snapshot holds (what the CLI wants over old logs) */
    int64_t             now;
    /* HTML <title> and heading; data NULL: "robots-audit" */
    ra_str_t            title;
    /* per snapshot site (snap->nsites entries, NULL ones allowed): its
     * current robots.txt's findings; NULL: none */
    const ra_lint_t   **lints;
    /* lint snap->bodies[i] for sites lints gives nothing for */
    unsigned            relint:1;
    /* the crawler table relint gives ra_lint() (policy tokens); NULL:
     * none */
    const struct ra_crawlers_s *crawlers;
    /* the CLI's line counts: "lines"/"malformed_lines" in JSON, a line in
     * text and HTML, robots_audit_log_lines_total in Prometheus; modules
     * leave this 0 and the members are omitted */
    unsigned            with_lines:1;
    uint64_t            lines;
    uint64_t            malformed_lines;
    /* lines read but not requests (W3C '#' directives): a count in text
     * and HTML, "skipped_lines" in JSON when any */
    uint64_t            skipped_lines;
    /* lines a filter of the CLI left out of the counts (logs --since,
     * --crawler, ...): a count in text and HTML, "filtered_lines" in
     * JSON, robots_audit_log_lines_total{result="filtered"} in
     * Prometheus, each when any */
    uint64_t            filtered_lines;
    /* bounds per site; 0: defaults (25 violations and 100 crawler rows
     * in HTML and text, every one in JSON; 50 findings) */
    uint32_t            max_violations;
    uint32_t            max_crawlers;
    uint32_t            max_findings;
    /* HTML, JSON, text: once the output holds this many bytes, no
     * further site starts (each one is bounded by the snapshot and the
     * limits above) and the report says it was cut; 0: no budget */
    size_t              max_bytes;
    /* RA_REPORT_STATUS_HTML: the totals without the table of sites */
    unsigned            no_table:1;
    const ra_alloc_t   *scratch;
    /* order of sites and crawler rows: 0 by name (the CLI's), 1 most
     * violations first, then by name (the status page's unless
     * ?sort=name) */
    unsigned            sort_violations:1;
    /* HTML written to a file (the CLI's): no meta refresh, no links to
     * the status page's query arguments */
    unsigned            standalone:1;
    /* HTML: a meta refresh every this many seconds; 0: every 30 s, or
     * none when standalone */
    uint32_t            refresh;
    /* per crawler row, the lines of the robots.txt in force that decided
     * its requests (JSON crawlers[].rule_hits, an HTML table): the
     * status page's ?crawler=NAME asks for them */
    unsigned            crawler_rules:1;
    /* the loaded IP-range lists: each one's age at "now" (its file's
     * modification time when loaded, ra_ranges_mtime()), as
     * robots_audit_ranges_age_seconds{file}, JSON "ranges" and a line of
     * the HTML page, stale ones (ra_ranges_stale()) marked; NULL: none */
    const struct ra_ranges_s *ranges;
    /* a resolver is configured here, so reverse DNS can verify the
     * crawlers whose operators publish names: with ranges and crawlers,
     * the HTML page says why a record is unverifiable (its operator
     * publishes no method, or this server lacks its range file or a
     * resolver: ra_verify_means()) */
    unsigned            resolver:1;
    /* Prometheus: without the per-crawler families, the per-site ones
     * and the totals only (robots_audit_metrics_degraded 1): what the
     * status page asks when the verified crawlers' records alone would
     * not fit in its cap.  The renderer also falls back to this, then to
     * the totals alone, when the whole page does not fit out's limit */
    unsigned            prom_sites_only:1;
    /* the crawler policies written in the server's scopes (ra_policy.h):
     * HTML and text show each site's, with the crawlers they refused;
     * NULL: none */
    const struct ra_policy_site_s *policies;
    /* the undeclared crawlers' tables, by site (ra_undeclared.h): JSON
     * sites[].undeclared[], a heading of their own in text and HTML,
     * Prometheus robots_audit_undeclared_clients and their verdicts under
     * crawler="undeclared", CSV rows of their latest violations; NULL:
     * no detector (no "undeclared" member in JSON) */
    const struct ra_undecl_sites_s *undeclared;
} ra_report_opts_t;

/* The CSV's header line, without its CRLF; columns are only ever added
 * at the end (scripts index them by position). */
#define RA_REPORT_CSV_HEADER  "time,site,crawler,verification,verified_by," \
    "client,method,uri,rule,line,robots_sha256,last_robots_fetch,purpose"

/* Renders snap in format fmt, appending to out.  RA_OK, RA_ENOMEM (the
 * scratch allocator failed; out holds a partial report), RA_ERROR (bad
 * format).  out->failed / out->truncated are the buffer's own. */
int ra_report_render(const ra_snapshot_t *snap, ra_report_format_e fmt,
    const ra_report_opts_t *opts, ra_buf_t *out);

/* Appends mod_status's ?auto lines for the totals t (RA_REPORT_STATUS_KV
 * of a snapshot holding them). */
void ra_report_status_kv(const ra_totals_t *t, ra_buf_t *out);

/* "text", "json", "html", "prometheus" -> format; RA_OK or RA_ERROR (for
 * any other name, the status formats' included). */
/*
 * How a crawler is named in text and HTML, the same in logs, the status
 * page and whatif: its name; a generic bot's token followed by
 * " (generic)", or "generic" alone when it declared none.  Writes at most
 * cap - 1 bytes and a NUL into out; returns the length.
 */
#define RA_REPORT_LABEL_MAX  (RA_NAME_MAX + 12)
size_t ra_report_label(unsigned kind, ra_str_t name, char *out, size_t cap);

int ra_report_format_by_name(ra_str_t name, ra_report_format_e *fmt);

/* The Content-Type a status page sends for fmt. */
const char *ra_report_content_type(ra_report_format_e fmt);

#endif /* RA_REPORT_H */
