/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Alert lines for violations, the same from nginx, Apache and the CLI.
 *
 * Text (for the server's error log), after the server's own prefix:
 *   robots-audit: [RA100] violation site="example.com" crawler="Googlebot"
 *   verification=verified client=66.249.66.1 method=GET uri="/private/x"
 *   rule="disallow: /private" line=3 suppressed=0 verified_by=ranges
 * (verified_by: how the verification was decided, last; "none").
 * A URI longer than RA_ALERT_URI_MAX bytes is cut and followed by
 * uri_bytes=N (JSON: "uri_bytes":N); a method is cut at
 * RA_ALERT_METHOD_MAX bytes.
 * The tag says which verdict (ra_tags.h): RA100 violation, RA101
 * unreachable (crawled while robots.txt answered 5xx/429); RA102 any
 * judged request of an impostor (verification=impostor), whatever its
 * verdict, which the line still names.  Every quoted
 * value has control bytes and non-ASCII escaped as \xHH, '"' and '\' as
 * %22 and %5c (ra_buf_log()), so a hostile URI or User-Agent can neither
 * forge a line or a field nor reach a terminal.
 *
 * JSON (one object a line, for an alert log):
 *   {"time":"2026-11-21T07:20:59.123Z","tag":"RA100","verdict":"violation",
 *    "site":...,"crawler":...,"token":...,"verification":...,"client":...,
 *    "method":...,"uri":...,"rule":...,"line":N,"suppressed":N,
 *    "refused":B,"verified_by":"ranges"|"rdns"|"signature"|null}
 *
 * When the alert budgets (below) held lines back, one summary a
 * window:
 *   robots-audit: [RA103] alert budget spent: suppressed=N crawlers=N
 *   sites=N since=2026-11-21T07:20:59.123Z per_site=60 total=300
 *   verified=N verified_names="Googlebot,bingbot" verified_more=N
 *   {"time":...,"tag":"RA103","suppressed":N,"crawlers":N,"sites":N,
 *    "since":...,"per_site":60,"total":300,"verified":N,
 *    "verified_names":[...],"verified_more":N,
 *    "top_clients":[{"client":"192.0.2.7","violations":N},...]}
 *                                                  (a limit off: null)
 * verified: the verified crawlers held back, the first
 * RA_ALERT_HELD_NAMES named (text: names and more left out when none).
 * top_clients: the clients with the most violations since, at most
 * RA_ALERT_TOP, most first (text: top_clients="192.0.2.7=N,..." after
 * the verified ones, left out when none).
 */
#ifndef RA_ALERT_H
#define RA_ALERT_H

#include "ra_buf.h"
#include "ra_crawlers.h"
#include "ra_host.h"
#include "ra_ledger.h"
#include "ra_tags.h"
#include "ra_verdict.h"

/* URIs in alerts are cut here, and the line says how long they were.  A
 * JSON line written to a pipe is atomic only up to PIPE_BUF (4 KiB): with
 * every byte escaped to six (\u0001), 400 URI bytes, the 96-byte rule and
 * the 64-byte name still fit.  nginx cuts error lines at 2 KiB, which only
 * such a pathological URI reaches. */
#define RA_ALERT_URI_MAX    400

/* Methods are cut here: a real one is a word, a hostile one must not push
 * the rest of the line past the log's limit. */
#define RA_ALERT_METHOD_MAX 32

/*
 * Alert budgets: on top of the engine's gates (ra_audit.h), alert lines go
 * out through a token bucket per site and one for all sites (lines a
 * minute; a bucket holds a minute's worth).  What they hold back is
 * counted and said once per alert interval (at least a second) in one
 * summary line (RA103), by the first judged request after it, which
 * names the verified crawlers among them.  Alerts about anyone but a
 * verified crawler (impostors, unverifiable names, generic bots: names
 * any client can give) may use at most half of each bucket (at least a
 * line a minute): the other half is kept for verified crawlers.  Generic
 * bots (no entry in the crawler table) pass one gate per site and client
 * address block (/24 IPv4, /48 IPv6), so that a new name per request
 * does not make a new crawler to alert about.
 */
#define RA_ALERT_SITE_PER_MIN      60
#define RA_ALERT_TOTAL_PER_MIN     300
#define RA_ALERT_BUDGET_OFF        (-1)     /* no limit */
#define RA_ALERT_BUDGET_MAX        1000000

/* ---- alert budgets: the decisions -------------------- */

/*
 * Takes one line from the bucket when it holds one, after refilling it
 * for the time since its last refill at per_min lines a minute (at most
 * a minute's worth: a full bucket is per_min lines).  A new bucket is
 * full; a clock that went back refills nothing.  per_min <= 0: no limit
 * (1, the bucket untouched).  1 taken, 0 empty.
 */
int ra_bucket_take(ra_bucket_t *b, int64_t per_min, int64_t now);

/* Would ra_bucket_take() take?  Refills as it does, takes nothing. */
int ra_bucket_has(ra_bucket_t *b, int64_t per_min, int64_t now);

/*
 * A line about to go out passes the budgets: the site's bucket and the
 * one of all sites (budget's limits) must each have a line, and then both
 * give one: 1.  A line about anyone but a verified crawler (!s->verified)
 * must also have one in the anyone's shares (s->site_open, all's
 * open_total: half the limits, at least 1) and takes from them too, so
 * that it leaves half of each bucket to verified crawlers.  Else 0, and
 * the line is counted as held back in s->all, with s->crawler_mark and
 * s->site_mark telling whether its crawler and site are new in this
 * summary window (a verified crawler new in it is named, s->name).
 */
int ra_alert_budget_take(ra_alert_state_t *s, const ra_alert_budget_t *budget,
    int64_t now);

/* Is a summary due: lines were held back and interval ms (at least 1000)
 * passed since the first one?  Then 1, *out filled (but out->budget and
 * the clients) and a new window begun; else 0.  A request that came
 * before the first line held back (now < since) is never the one due:
 * the summary's time is never before its since, and the window is
 * claimed once (the caller holds the ledger's lock), whichever process
 * asks; a clock set back more than RA_ALERT_CLOCK_BACK_MS begins the
 * window anew. */
int ra_alert_budget_due(ra_budget_t *all, int64_t now, int64_t interval,
    ra_alert_summary_t *out);

#define RA_ALERT_CLOCK_BACK_MS  (10LL * 60 * 1000)

/* Counts s->client's violation among the window's clients (s->top) when
 * s->violation and a window is open (lines held back). */
void ra_alert_budget_count(ra_alert_state_t *s);

/* The summary's clients: the first RA_ALERT_TOP of top by violations,
 * most first, into out; top is emptied for the next window.  top may be
 * NULL (none). */
void ra_alert_budget_top(ra_alert_client_t *top, ra_alert_summary_t *out);

/* The generic bots' gate for key: its slot among the site's
 * RA_GENERIC_GATES, taken over when another key held it.  1 when an
 * alert may go out (the first of the key, or interval ms after its last;
 * 0: always), with *suppressed the lines held back since; else 0 (and
 * counted).  A key that took another's slot starts afresh: a collision
 * costs a line more, never one fewer. */
int ra_alert_gate(ra_gate_t *gates, uint64_t key, int64_t now,
    int64_t interval, uint32_t *suppressed, ra_gate_t **slot);

/* The address block of a client address as text: its /24 for IPv4 (and
 * IPv4-mapped IPv6), its /48 for IPv6, as a key (never 0); text that is
 * no address is a block of its own. */
uint64_t ra_alert_block(ra_str_t addr);

/* Reads "N" (1..RA_ALERT_BUDGET_MAX lines a minute) or "off" for each of
 * site and total into *out: NULL, or a static sentence saying what is
 * wrong (for a configuration error). */
const char *ra_alert_budget_parse(ra_str_t site, ra_str_t total,
    ra_alert_budget_t *out);


/* ---- which purposes alert ---------------------------------------------- */

/*
 * An operator may want alerts about some purposes only (the table's
 * categories, ra_crawler_category_name()): a configuration tool fetching
 * a disallowed file is no scraper.  A set of purposes is a bit per
 * ra_crawler_category_e and RA_ALERT_GENERIC for generic bots (no entry in
 * the table: purpose "generic", as Prometheus labels them); 0 is a set
 * not given: every purpose alerts.  An impostor's alert is about the
 * crawler it claims to be, so it has that crawler's purpose.  Only the
 * alert is left out: the violation is counted, shown and kept as
 * evidence all the same.
 */
#define RA_ALERT_GENERIC        (1u << RA_CAT_MAX)
#define RA_ALERT_PURPOSES_ALL   ((1u << (RA_CAT_MAX + 1)) - 1)

/* Adds the purposes list names to *set: words separated by white space or
 * commas, each a purpose (case-insensitive; "ai-user-triggered" is
 * "ai-user") or "generic".  NULL, or a static sentence saying what is
 * wrong (for a configuration error), with *bad the word at fault (len 0:
 * the list names none), and *set left as it was. */
const char *ra_alert_purposes_parse(ra_str_t list, unsigned *set,
    ra_str_t *bad);

/* Does an alert about crawler (NULL: a generic bot) go out under set? */
int ra_alert_purpose_wanted(unsigned set, const ra_crawler_t *crawler);

/* The tag of a verdict that alerts: RA102 for an impostor's judged
 * request, else RA100 or RA101; NULL for one that does not. */
const char *ra_alert_tag(const ra_verdict_t *v);

/* Appends the text line (no trailing newline). */
void ra_alert_text(ra_buf_t *b, const ra_request_t *r, const ra_verdict_t *v);

/* Appends the JSON object and a newline. */
void ra_alert_json(ra_buf_t *b, const ra_request_t *r, const ra_verdict_t *v);

/* The budget summary (v->budget): text after "robots-audit: [RA103] ",
 * and the JSON object with its newline. */
void ra_alert_summary_text(ra_buf_t *b, const ra_verdict_t *v);
void ra_alert_summary_json(ra_buf_t *b, const ra_request_t *r,
    const ra_verdict_t *v);

/*
 * When v->alert, writes the text line through the host at RA_LOG_WARN,
 * about r->where (ra_logf() puts the "robots-audit: [tag] " prefix: the
 * line logged is ra_alert_text()'s, cut at RA_HOST_LINE_MAX bytes), and
 * when json is not NULL appends the JSON object to it, as ra_alert_json()
 * does; when v->summary, the budget summary likewise (RA103).  h may be
 * NULL (nothing logged).
 */
void ra_alert_emit(const ra_host_t *h, const ra_request_t *r,
    const ra_verdict_t *v, ra_buf_t *json);

#endif /* RA_ALERT_H */
