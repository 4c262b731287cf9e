/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The HTML page's crawler tables and what to do about the offenders.  Per
 * site: the crawlers, in the order the report chose (most violations
 * first unless the page asks by name), then apart, under "scripts and
 * tools", the records of the table's category tool (HTTP libraries,
 * downloaders, configuration tools), which are no crawlers.  The first
 * columns answer who, how badly and since when (crawler, violations,
 * compliance, first and last seen); the others carry class "x", which the
 * page's CSS hides on a narrow screen (no script).  Below each table, per
 * record with violations, one line of what the operator can do: the
 * enforce directive of either server, the fail2ban jail of
 * contrib/fail2ban, the robots.txt group naming its token, and its
 * operator's page from the crawler table.  Everything from the network or
 * an operator's crawler file goes through ra_buf_html().
 */
#include <string.h>

#include "ra_report_impl.h"
#include "ra_verify.h"

/* The jails of contrib/fail2ban/jail.d/robots-audit.conf: unverifiable
 * claims and generic bots, and impostors. */
#define RA_REP_JAIL           "robots-audit"
#define RA_REP_JAIL_IMPOSTOR  "robots-audit-impostor"

/* A number's cell, for every table of the page (ra_report_impl.h). */
void
ra_rep_html_num(ra_buf_t *b, uint64_t v, unsigned flags)
{
    ra_buf_printf(b, "<td class=\"n%s%s\">", flags & RA_REP_NUM_X ? " x" : "",
                  flags & RA_REP_NUM_BAD && v ? " bad" : "");
    ra_buf_u64(b, v);
    ra_buf_cstr(b, "</td>");
}

/* Is the URL one the page may link to (http or https only)? */
static int
ra_rep_web_url(ra_str_t u)
{
    return (u.len > 8 && memcmp(u.data, "https://", 8) == 0)
           || (u.len > 7 && memcmp(u.data, "http://", 7) == 0);
}

/* A crawler's name, linked to its operator's documentation (the crawler
 * table's url, http or https only). */
static void
ra_rep_html_crawler(ra_buf_t *b, const ra_rep_row_t *w,
    const ra_crawler_t *c)
{
    if (c != NULL && ra_rep_web_url(c->url)) {
        ra_buf_cstr(b, "<a href=\"");
        ra_buf_html(b, c->url);
        ra_buf_cstr(b, "\" rel=\"noreferrer\">");
        ra_buf_html(b, w->label);
        ra_buf_cstr(b, "</a>");
        return;
    }
    ra_buf_html(b, w->label);
}

/* The status page's "verified by" column: the method, or a dash. */
static void
ra_rep_html_verified_by(ra_buf_t *b, const char *m)
{
    if (*m) {
        ra_buf_printf(b, "<td class=\"x\">%s</td>", m);
    } else {
        ra_buf_cstr(b, "<td class=\"x muted\">&ndash;</td>");
    }
}

/* The verification, and for an unverifiable record why: its operator
 * publishes no method, or publishes one this server is not configured
 * for (then which: its range files, a resolver, signature keys), or a
 * lookup is pending or failed. */
static void
ra_rep_html_verification(ra_rep_t *r, const ra_rep_row_t *w,
    const ra_crawler_t *c)
{
    ra_buf_t  *b = r->b;
    size_t     i;
    unsigned   n = 0;

    if (w->st->verification != RA_VERIFY_UNVERIFIABLE) {
        ra_buf_printf(b, "<td class=\"x %s\">%s</td>",
                      w->st->verification == RA_VERIFY_IMPOSTOR ? "bad"
                                                                : "good",
                      w->verification);
        return;
    }
    switch (ra_rep_unverified(r, c)) {
    case RA_VERIFY_MEANS_MISSING:
        ra_buf_cstr(b, "<td class=\"x warn\">not verified here <span "
                    "class=\"muted\">(configure ");
        for (i = 0; i < c->nranges; i++, n++) {
            ra_buf_cstr(b, n ? " or <code>" : "<code>");
            ra_buf_html(b, c->ranges[i]);
            ra_buf_cstr(b, "</code>");
        }
        if (c->nrdns) {
            ra_buf_cstr(b, n++ ? " or a resolver" : "a resolver");
        }
        if (c->nsig_agents) {
            ra_buf_cstr(b, n++ ? " or signature keys" : "signature keys");
        }
        ra_buf_cstr(b, ")</span></td>");
        return;
    case RA_VERIFY_MEANS_HERE:
        ra_buf_cstr(b, "<td class=\"x muted\">unverifiable (lookup pending "
                    "or failed)</td>");
        return;
    default:
        ra_buf_printf(b, "<td class=\"x muted\">%s</td>", w->verification);
    }
}

static void
ra_rep_html_bar(ra_buf_t *b, const uint64_t *c)
{
    static const struct {
        ra_counter_e  c;
        const char   *cls;
    } parts[] = {
        { RA_CNT_COMPLIANT, "c" }, { RA_CNT_STALE, "s" },
        { RA_CNT_EXEMPT, "e" }, { RA_CNT_UNREACHABLE, "u" },
        { RA_CNT_VIOLATION, "v" }
    };
    uint64_t  judged = ra_rep_judged(c);
    unsigned  i, pm, pct;

    if (judged == 0) {
        ra_buf_cstr(b, "<td class=\"muted\">no judged request</td>");
        return;
    }
    pct = ra_rep_pct(c[RA_CNT_COMPLIANT] + c[RA_CNT_STALE]
                     + c[RA_CNT_EXEMPT], judged);
    ra_buf_printf(b, "<td class=\"nw\"><div class=\"bar\" title=\"%u%% "
                  "compliant, stale or exempt\">", pct);
    for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
        pm = ra_rep_permille(c[parts[i].c], judged);
        if (pm) {
            ra_buf_printf(b, "<span class=\"%s\" style=\"width:%u.%u%%\">"
                          "</span>", parts[i].cls, pm / 10, pm % 10);
        }
    }
    ra_buf_printf(b, "</div>%u%%</td>", pct);
}

static void
ra_rep_html_seen(ra_buf_t *b, int64_t ms)
{
    ra_buf_cstr(b, "<td class=\"x nw\">");
    if (ms) {
        ra_rep_iso(b, ms);
    }
    ra_buf_cstr(b, "</td>");
}

static const char  ra_rep_html_head[] =
    "<div class=\"wide\"><table class=\"crawlers\"><tr><th>crawler</th>"
    "<th class=\"n\">violations</th><th>compliance</th>"
    "<th class=\"x\">first seen</th><th class=\"x\">last seen</th>"
    "<th class=\"x\">verification</th>"
    "<th class=\"x\" title=\"how the verification was decided\">"
    "verified by</th><th class=\"n x\">requests</th>"
    "<th class=\"x\">token</th><th class=\"x\">purpose</th>"
    "<th class=\"n x\">robots.txt</th>"
    "<th class=\"n x\" title=\"requests for /llms.txt or /llms-full.txt\">"
    "llms.txt</th>"
    "<th class=\"n x\">compliant</th><th class=\"n x\">stale</th>"
    "<th class=\"n x\">unreachable</th><th class=\"n x\">exempt</th>"
    "<th class=\"n x\">unknown</th><th class=\"n x\">crawl-delay</th>"
    "<th class=\"n x\">no fetch</th>"
    "<th class=\"n x\" title=\"refused by robots_audit_enforce\">"
    "refused</th>"
    "<th class=\"n x\" title=\"refused by the crawler policy "
    "(robots_audit_block)\">by policy</th>"
    "<th class=\"n x\" title=\"most requests in one minute, last 20 to 24 "
    "hours\">peak/min</th>"
    "<th class=\"n x\" title=\"median time between its requests, last 20 "
    "to 24 hours (within a factor of 2)\">median gap</th>"
    "<th class=\"n x\" title=\"of the group that applied to it\">"
    "Crawl-delay</th></tr>";

static void
ra_rep_html_row(ra_rep_t *r, const ra_stat_t *st)
{
    static const ra_counter_e  counts[] = {
        RA_CNT_ROBOTS_FETCHES, RA_CNT_LLMS_FETCHES, RA_CNT_COMPLIANT,
        RA_CNT_STALE, RA_CNT_UNREACHABLE, RA_CNT_EXEMPT, RA_CNT_UNKNOWN,
        RA_CNT_CRAWL_DELAY, RA_CNT_NO_ROBOTS_FETCH
    };
    const ra_crawler_t  *c = ra_rep_crawler(r, st);
    ra_buf_t            *b = r->b;
    ra_rep_row_t         w;
    unsigned             k;

    ra_rep_row(r, st, &w);
    ra_buf_cstr(b, "<tr><td>");
    ra_rep_html_crawler(b, &w, c);
    ra_buf_cstr(b, "</td>");
    ra_rep_html_num(b, st->counters[RA_CNT_VIOLATION], RA_REP_NUM_BAD);
    ra_rep_html_bar(b, st->counters);
    ra_rep_html_seen(b, st->first_seen);
    ra_rep_html_seen(b, st->last_seen);
    ra_rep_html_verification(r, &w, c);
    ra_rep_html_verified_by(b, w.verified_by);
    ra_rep_html_num(b, st->counters[RA_CNT_REQUESTS], RA_REP_NUM_X);
    ra_buf_cstr(b, "<td class=\"x\"><code>");
    ra_buf_html(b, w.token);
    ra_buf_printf(b, "</code></td><td class=\"x\">%s</td>",
                  w.purpose ? w.purpose : "");
    for (k = 0; k < sizeof(counts) / sizeof(counts[0]); k++) {
        ra_rep_html_num(b, st->counters[counts[k]],
                        counts[k] == RA_CNT_UNREACHABLE
                        ? RA_REP_NUM_X | RA_REP_NUM_BAD : RA_REP_NUM_X);
    }
    ra_rep_html_num(b, w.refused, RA_REP_NUM_X);
    ra_rep_html_num(b, st->counters[RA_CNT_REFUSED_POLICY], RA_REP_NUM_X);
    ra_buf_printf(b, "<td class=\"n x\">%u</td><td class=\"n x%s\">", w.peak,
                  w.delay > 0 && w.gap >= 0 && w.gap < w.delay ? " bad"
                                                               : "");
    ra_rep_gap(b, w.gap);
    ra_buf_cstr(b, "</td><td class=\"n x\">");
    ra_rep_ms(b, w.delay);
    ra_buf_cstr(b, "</td></tr>");
}

/* The robots.txt token to name in a group for the record: the one it
 * identified by, else its table entry's first; empty for a generic bot
 * that declared none. */
static ra_str_t
ra_rep_todo_token(const ra_stat_t *st, const ra_crawler_t *c)
{
    if (st->token_len) {
        return ra_rep_field(st->token, st->token_len);
    }
    if (c != NULL && c->ntokens) {
        return c->tokens[0];
    }
    return ra_str(NULL, 0);
}

/* One line of what to do about a record with violations. */
static void
ra_rep_html_todo(ra_rep_t *r, const ra_stat_t *st)
{
    const ra_crawler_t  *c = ra_rep_crawler(r, st);
    int                  impostor = st->verification == RA_VERIFY_IMPOSTOR;
    const char          *words = impostor ? "violation impostor"
                                          : "violation";
    ra_buf_t            *b = r->b;
    ra_rep_row_t         w;
    ra_str_t             token = ra_rep_todo_token(st, c);

    ra_rep_row(r, st, &w);
    ra_buf_cstr(b, "<li><strong>");
    ra_buf_html(b, w.label);
    ra_buf_printf(b, "</strong> <span class=\"muted\">(%s)</span>: refuse it: "
                  "nginx <code>robots_audit_enforce %s;</code>, Apache "
                  "<code>RobotsAuditEnforce %s</code>", w.verification,
                  words, words);
    if (st->verification != RA_VERIFY_VERIFIED) {
        ra_buf_printf(b, " &middot; ban its addresses: fail2ban jail "
                      "<code>%s</code>",
                      impostor ? RA_REP_JAIL_IMPOSTOR : RA_REP_JAIL);
    }
    /* an impostor is not the crawler it names: a group would bind the
     * real one, whose operator has nothing to do with it */
    if (!impostor && token.len) {
        ra_buf_cstr(b, " &middot; tell it in robots.txt: <code>User-agent: ");
        ra_buf_html(b, token);
        ra_buf_cstr(b, "<br>Disallow: /</code>");
    }
    if (!impostor && c != NULL && ra_rep_web_url(c->url)) {
        ra_buf_cstr(b, " &middot; its operator: <a href=\"");
        ra_buf_html(b, c->url);
        ra_buf_cstr(b, "\" rel=\"noreferrer\">");
        ra_buf_html(b, c->operator_name.len ? c->operator_name : c->name);
        ra_buf_cstr(b, "</a>");
    }
    ra_buf_cstr(b, "</li>");
}

/* The rows of one kind (tools or not) among the site's rows shown: a
 * table, then what to do about those with violations; 0 when it has
 * none. */
static uint32_t
ra_rep_html_table(ra_rep_t *r, uint32_t si, int tools)
{
    const ra_rep_ent_t  *e = r->ents + r->first[si];
    uint32_t             i, n = 0, bad = 0, shown = ra_rep_rows_shown(r, si);

    for (i = 0; i < shown; i++) {
        if (ra_rep_is_tool(e[i].st) != tools) {
            continue;
        }
        if (n++ == 0) {
            ra_buf_cstr(r->b, tools ? "<h3>scripts and tools</h3>"
                                    : "<h3>crawlers</h3>");
            ra_buf_cstr(r->b, ra_rep_html_head);
        }
        ra_rep_html_row(r, e[i].st);
    }
    if (n == 0) {
        return 0;
    }
    ra_buf_cstr(r->b, "</table></div>");
    for (i = 0; i < shown; i++) {
        if (ra_rep_is_tool(e[i].st) != tools
            || e[i].st->counters[RA_CNT_VIOLATION] == 0)
        {
            continue;
        }
        if (bad++ == 0) {
            ra_buf_cstr(r->b, "<h4>what you can do</h4><ul class=\"todo\">");
        }
        ra_rep_html_todo(r, e[i].st);
    }
    if (bad) {
        ra_buf_cstr(r->b, "</ul>");
    }
    return n;
}

/* The site's crawlers, then its scripts and tools, and what the page
 * left out. */
void
ra_rep_html_crawlers(ra_rep_t *r, uint32_t si)
{
    uint32_t  shown = ra_rep_rows_shown(r, si);

    if (ra_rep_html_table(r, si, 0) == 0) {
        ra_buf_cstr(r->b, "<h3>crawlers</h3><p class=\"muted\">no crawler "
                    "seen</p>");
    }
    (void) ra_rep_html_table(r, si, 1);
    if (ra_rep_stats_total(r, si) > shown) {
        ra_buf_printf(r->b, "<p class=\"muted\">showing %u of %u crawler "
                      "records: the busiest, and those with violations "
                      "(<code>?limit=</code> and <code>?site=</code> "
                      "choose)</p>", shown, ra_rep_stats_total(r, si));
    }
}
