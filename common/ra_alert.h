/*
 * Alert lines for violations, the same from nginx, Apache and the CLI.
 *
 * Text (for the server's error log), after the server's own prefix:
 *   robots-audit: [RA100] violation site="example.com" crawler="Googlebot"
 *   verification=verified client=66.249.66.1 method=GET uri="/private/x"
 *   rule="disallow: /private" line=3 suppressed=0
 * A URI longer than RA_ALERT_URI_MAX bytes is cut and followed by
 * uri_bytes=N (JSON: "uri_bytes":N).
 * The tag says which verdict: RA100 violation, RA101 unreachable (crawled
 * while robots.txt answered 5xx/429).  Every quoted value has control
 * bytes, '"', '\' and non-ASCII escaped as \xHH, so a hostile URI or
 * User-Agent can neither forge a line nor reach a terminal.
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

/* URIs in alerts are cut here, and the line says how long they were.  A
 * JSON line written to a pipe is atomic only up to PIPE_BUF (4 KiB): with
 * every byte escaped to six (\u0001), 400 URI bytes, the 96-byte rule and
 * the 64-byte name still fit.  nginx cuts error lines at 2 KiB, which only
 * such a pathological URI reaches. */
#define RA_ALERT_URI_MAX    400

#define RA_TAG_VIOLATION    "RA100"
#define RA_TAG_UNREACHABLE  "RA101"

/* The tag of a verdict that alerts; NULL for one that does not. */
const char *ra_alert_tag(const ra_verdict_t *v);

/* Appends the text line (no trailing newline). */
void ra_alert_text(ra_buf_t *b, const ra_request_t *r, const ra_verdict_t *v);

/* Appends the JSON object and a newline. */
void ra_alert_json(ra_buf_t *b, const ra_request_t *r, const ra_verdict_t *v);

#endif /* RA_ALERT_H */
