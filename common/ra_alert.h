/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Alert lines for violations, the same from nginx, Apache and the CLI.
 *
 * Text (for the server's error log), after the server's own prefix:
 *   robots-audit: [RA100] violation site="example.com" crawler="Googlebot"
 *   verification=verified client=66.249.66.1 method=GET uri="/private/x"
 *   rule="disallow: /private" line=3 suppressed=0
 * A URI longer than RA_ALERT_URI_MAX bytes is cut and followed by
 * uri_bytes=N (JSON: "uri_bytes":N); a method is cut at
 * RA_ALERT_METHOD_MAX bytes.
 * The tag says which verdict (ra_tags.h): RA100 violation, RA101
 * unreachable (crawled while robots.txt answered 5xx/429); RA102 any
 * judged request of an impostor (verification=impostor), whatever its
 * verdict, which the line still names.  Every quoted
 * value has control bytes, '"', '\' and non-ASCII escaped as \xHH, so a
 * hostile URI or User-Agent can neither forge a line nor reach a
 * terminal.
 *
 * JSON (one object a line, for an alert log):
 *   {"time":"2026-11-21T07:20:59.123Z","tag":"RA100","verdict":"violation",
 *    "site":...,"crawler":...,"token":...,"verification":...,"client":...,
 *    "method":...,"uri":...,"rule":...,"line":N,"suppressed":N}
 */
#ifndef RA_ALERT_H
#define RA_ALERT_H

#include "ra_audit.h"
#include "ra_buf.h"
#include "ra_host.h"
#include "ra_tags.h"

/* URIs in alerts are cut here, and the line says how long they were.  A
 * JSON line written to a pipe is atomic only up to PIPE_BUF (4 KiB): with
 * every byte escaped to six (\u0001), 400 URI bytes, the 96-byte rule and
 * the 64-byte name still fit.  nginx cuts error lines at 2 KiB, which only
 * such a pathological URI reaches. */
#define RA_ALERT_URI_MAX    400

/* Methods are cut here: a real one is a word, a hostile one must not push
 * the rest of the line past the log's limit. */
#define RA_ALERT_METHOD_MAX 32

/* The tag of a verdict that alerts: RA102 for an impostor's judged
 * request, else RA100 or RA101; NULL for one that does not. */
const char *ra_alert_tag(const ra_verdict_t *v);

/* Appends the text line (no trailing newline). */
void ra_alert_text(ra_buf_t *b, const ra_request_t *r, const ra_verdict_t *v);

/* Appends the JSON object and a newline. */
void ra_alert_json(ra_buf_t *b, const ra_request_t *r, const ra_verdict_t *v);

/*
 * Writes the text line through the host at RA_LOG_WARN, about r->where
 * (ra_logf() puts the "robots-audit: [tag] " prefix: the line logged is
 * ra_alert_text()'s, cut at RA_HOST_LINE_MAX bytes), and when json is not
 * NULL appends the JSON object to it, as ra_alert_json() does.  h may be
 * NULL (nothing logged).
 */
void ra_alert_emit(const ra_host_t *h, const ra_request_t *r,
    const ra_verdict_t *v, ra_buf_t *json);

#endif /* RA_ALERT_H */
