/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The HTML status page: self-contained (inline CSS, no JavaScript, no
 * external resource), printed from the model of ra_report_render.c; everything
 * from the network goes through ra_buf_html().  The page, its sites'
 * sections (the badge, robots.txt, episodes, violations) and the legend
 * are here; each site's crawler tables and what to do about the offenders
 * are ra_report_html_crawlers.c's.
 */
#include <string.h>

#include "ra_report_impl.h"
#include "ra_crawlers.h"
#include "ra_verify.h"
#include "ra_parse.h"

static const char  ra_rep_css[] =
    "body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222;"
    "background:#fafafa}"
    "h1{font-size:1.4em;margin:0 0 .2em}h2{font-size:1.2em;margin:0 0 .5em}"
    "section{background:#fff;border:1px solid #ddd;border-radius:6px;"
    "padding:1em;margin:1em 0}"
    "table{border-collapse:collapse;width:100%;margin:.5em 0}"
    "th,td{padding:.25em .5em;border-bottom:1px solid #eee;text-align:left;"
    "vertical-align:top}"
    "td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}"
    "dl{display:grid;grid-template-columns:max-content 1fr;gap:.1em 1em;"
    "margin:0}dt{color:#666}dd{margin:0}"
    ".muted{color:#777}.err{color:#b00020}.warn{color:#a15c00}"
    ".bad{color:#b00020;font-weight:bold}.good{color:#1b7a2f}"
    ".bar{display:inline-flex;width:7em;height:.8em;background:#eee;"
    "border-radius:3px;overflow:hidden;vertical-align:middle;"
    "margin-right:.4em}td.nw{white-space:nowrap}"
    ".bar span{display:block;height:100%}"
    ".c{background:#2e9e4f}.s{background:#8bc34a}.e{background:#90a4ae}"
    ".v{background:#d32f2f}.u{background:#ff9800}"
    "code{font:12px ui-monospace,monospace;word-break:break-all}"
    "summary{cursor:pointer}"
    ".health{font-size:.75em;font-weight:normal;padding:.15em .6em;"
    "border-radius:1em;margin-left:.6em;vertical-align:middle;color:#fff}"
    ".h-ok{background:#2e7d32}.h-warn{background:#b26a00}"
    ".h-bad{background:#b00020}.h-none{background:#78909c}"
    ".wide{overflow-x:auto}.wide table{font-size:13px}"
    ".wide th,.wide td{padding:.2em .35em}"
    ".wide td code{word-break:normal}"
    /* nothing wider than the screen (a phone's too): tables scroll in
     * their box; the robots.txt in force with its counts */
    "h2,p,dd{overflow-wrap:anywhere}"
    ".wide{max-width:100%}"
    "pre.robots{font:12px/1.5 ui-monospace,monospace;margin:.3em 0;"
    "overflow-x:auto;max-height:32em;background:#f6f6f6;padding:.4em}"
    ".ln{display:inline-block;min-width:3.5em;color:#999;text-align:right;"
    "margin-right:.8em}"
    ".hit{color:#555;margin-left:1em}"
    ".hit.bad{color:#b00020;font-weight:bold}"
    ".spark{vertical-align:middle;margin-left:.4em}"
    "a{color:#0b57d0}"
    "h4{font-size:1em;margin:.6em 0 .2em}"
    "ul.todo{margin:.2em 0;padding-left:1.2em}ul.todo li{margin:.2em 0}"
    "ul.todo code{word-break:break-word}"
    /* a phone shows who, how badly and how compliant: the crawler
     * tables' other columns (class x) are hidden */
    "@media (max-width:600px){body{margin:.5em}"
    "section{padding:.6em}.x{display:none}.bar{width:3.5em}}";

/* Anchors: the site's name with anything but [a-z0-9.-] as '_'. */
static void
ra_rep_anchor(ra_buf_t *b, const ra_site_t *s)
{
    ra_str_t  n = ra_rep_site_name(s);
    size_t    i;
    char      c;

    ra_buf_cstr(b, "site-");
    for (i = 0; i < n.len; i++) {
        c = n.data[i];
        ra_buf_ch(b, (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
                     || c == '.' || c == '-' ? c : '_');
    }
}

/* crawler requests per referral, "-" without referrals */
static void
ra_rep_ratio(ra_buf_t *b, uint64_t crawls, uint64_t referrals)
{
    if (referrals == 0) {
        ra_buf_cstr(b, "-");
    } else {
        ra_buf_printf(b, "%.1f", (double) crawls / (double) referrals);
    }
}

/* The site's health at a glance, a badge beside its name: the worse of
 * its robots.txt's and its crawlers' compliance.  robots.txt failing
 * (5xx/429 answers: crawlers must stop) comes first, then crawlers that
 * ignore robots.txt (offenders: those with violations), then the
 * robots.txt's lesser troubles (failing for 30 days, could not be
 * decoded, never fetched, lint errors, answered 4xx), or OK. */
static void
ra_rep_html_health(ra_buf_t *b, const ra_rep_robots_t *m,
    uint32_t offenders)
{
    const ra_site_t     *s = m->s;
    const ra_version_t  *v = m->v;

    if (!m->unreachable_30d && (s->failures
        || (v != NULL && v->answer == RA_ANSWER_UNREACHABLE)))
    {
        ra_buf_printf(b, "<span class=\"health h-bad\">robots.txt failing: "
                      "%u, crawlers must stop</span>", s->robots_status);
    } else if (offenders) {
        ra_buf_printf(b, "<span class=\"health h-bad\">%u crawler%s "
                      "ignore%s robots.txt</span>", offenders,
                      ra_rep_s(offenders), offenders == 1 ? "s" : "");
    } else if (m->unreachable_30d) {
        ra_buf_printf(b, "<span class=\"health h-warn\">unreachable_30d: "
                      "robots.txt failing (%u) for 30 days while the site "
                      "answers, crawlers act as if there were none (all "
                      "allowed)</span>", s->robots_status);
    } else if (s->undecodable) {
        ra_buf_cstr(b, "<span class=\"health h-warn\">robots.txt could not "
                    "be decoded (Content-Encoding: ");
        ra_buf_html(b, m->bad_coding);
        ra_buf_cstr(b, ")</span>");
    } else if (s->robots_status == 0 || v == NULL) {
        ra_buf_cstr(b, "<span class=\"health h-none\">robots.txt never "
                    "fetched</span>");
    } else if (v->lint_errors) {
        ra_buf_printf(b, "<span class=\"health h-warn\">robots.txt: %u "
                      "lint error%s</span>", v->lint_errors,
                      ra_rep_s(v->lint_errors));
    } else if (v->answer == RA_ANSWER_ALLOW_ALL) {
        ra_buf_printf(b, "<span class=\"health h-warn\">robots.txt %u: "
                      "everything allowed</span>", s->robots_status);
    } else {
        ra_buf_cstr(b, "<span class=\"health h-ok\">robots.txt OK</span>");
    }
}

static void
ra_rep_html_referrals(ra_rep_t *r, const ra_site_t *s)
{
    unsigned  k = 0;

    if (!ra_rep_referral_next(r, s, &k)) {
        return;
    }
    ra_buf_cstr(r->b, "<h3>crawl-to-refer</h3><table><tr><th>operator</th>"
                "<th class=\"n\" title=\"browser visits its search engine "
                "or assistant referred\">referrals</th>"
                "<th class=\"n\" title=\"requests of its crawlers, "
                "impostors excluded\">crawler requests</th>"
                "<th class=\"n\" title=\"crawler requests per referral\">"
                "crawls per referral</th></tr>");
    for (; ra_rep_referral_next(r, s, &k); k++) {
        ra_buf_cstr(r->b, "<tr><td>");
        ra_buf_html(r->b, r->refer.ops[k].name);
        ra_buf_cstr(r->b, "</td>");
        ra_rep_html_num(r->b, s->referrals[k], 0);
        ra_rep_html_num(r->b, s->referral_crawls[k], 0);
        ra_buf_cstr(r->b, "<td class=\"n\">");
        ra_rep_ratio(r->b, s->referral_crawls[k], s->referrals[k]);
        ra_buf_cstr(r->b, "</td></tr>");
    }
    ra_buf_cstr(r->b, "</table>");
}

/* An inline SVG of the site's requests (grey) and violations (red) per
 * hour over the last 24 hours, oldest left; no script. */
static void
ra_rep_html_spark(ra_buf_t *b, const ra_site_t *s, int64_t now)
{
    uint32_t  req[RA_HOURS], vio[RA_HOURS], hour, max = 0, k;
    unsigned  i, j;

    hour = now > 0 ? (uint32_t) (now / RA_HOUR_MS) : 0;
    for (i = 0; i < RA_HOURS; i++) {
        req[i] = vio[i] = 0;
    }
    for (i = 0; i < RA_HOURS; i++) {
        k = s->spark[i].hour;
        if (k == 0 || k > hour || hour - k >= RA_HOURS) {
            continue;
        }
        j = RA_HOURS - 1 - (hour - k);
        req[j] = s->spark[i].requests + s->spark[i].violations;
        vio[j] = s->spark[i].violations;
        if (req[j] > max) {
            max = req[j];
        }
    }
    ra_buf_printf(b, "<svg class=\"spark\" width=\"120\" height=\"24\" "
                  "viewBox=\"0 0 %u 24\" role=\"img\"><title>requests "
                  "(grey) and violations (red) per hour, last 24 hours; "
                  "busiest hour %u</title>", RA_HOURS * 5, max);
    for (i = 0; i < RA_HOURS && max; i++) {
        if (req[i]) {
            k = (uint32_t) ((uint64_t) req[i] * 23 / max);
            ra_buf_printf(b, "<rect x=\"%u\" y=\"%u\" width=\"4\" "
                          "height=\"%u\" fill=\"#9e9e9e\"/>", i * 5,
                          23 - k, k + 1);
        }
        if (vio[i]) {
            k = (uint32_t) ((uint64_t) vio[i] * 23 / max);
            ra_buf_printf(b, "<rect x=\"%u\" y=\"%u\" width=\"4\" "
                          "height=\"%u\" fill=\"#d32f2f\"/>", i * 5,
                          23 - k, k + 1);
        }
    }
    ra_buf_cstr(b, "<line x1=\"0\" y1=\"23.5\" x2=\"120\" y2=\"23.5\" "
                "stroke=\"#ccc\"/></svg>");
}

/* Counting since, and the last 24 hours at a glance. */
static void
ra_rep_html_time(ra_rep_t *r, uint32_t si)
{
    const ra_site_t  *s = &r->snap->sites[si];
    ra_buf_t         *b = r->b;

    ra_buf_cstr(b, "<p class=\"muted\">counting since ");
    ra_rep_iso(b, s->created);
    ra_buf_cstr(b, " &middot; last 24 h:");
    ra_rep_html_spark(b, s, r->now);
    ra_buf_cstr(b, "</p>");
}

/* AI preferences and policy tokens, a definition list each */
static const ra_rep_prefs_fmt_t  ra_rep_html_prefs = {
    ra_buf_html,
    { "<dl><dt>AI preferences</dt><dd>", "<dl><dt>policy tokens</dt><dd>" },
    "<br>", "<code>", "</code>", " <span class=\"muted\">", "</span>",
    "policy, ", "</dd></dl>"
};

/* Context for printing the robots.txt in force line by line. */
typedef struct {
    ra_buf_t             *b;
    const ra_rep_hits_t  *h;
    uint32_t              shown;
    uint32_t              hidden;
} ra_rep_lines_t;

#define RA_REP_ROBOTS_LINES  300        /* lines shown (and any counted) */
#define RA_REP_ROBOTS_WIDTH  200        /* bytes of a line shown */

static int
ra_rep_html_line(void *ctx, const ra_line_t *ln)
{
    ra_rep_lines_t  *x = ctx;
    ra_buf_t        *b = x->b;
    unsigned         i;
    const ra_rule_hit_t  *hit = NULL;

    for (i = 0; i < x->h->n; i++) {
        if (x->h->hits[i].line == ln->line) {
            hit = &x->h->hits[i];
            break;
        }
    }
    if (ln->line > RA_REP_ROBOTS_LINES && hit == NULL) {
        x->hidden++;
        return RA_OK;
    }
    if (x->hidden && ln->line > RA_REP_ROBOTS_LINES) {
        ra_buf_printf(b, "<span class=\"ln\">&hellip;</span>"
                      "<span class=\"muted\">%u line%s"
                      "</span>\n", x->hidden, x->hidden == 1 ? "" : "s");
        x->hidden = 0;
    }
    ra_buf_printf(b, "<span class=\"ln\">%u</span>", ln->line);
    ra_buf_html(b, ra_str(ln->raw.data, ln->raw.len < RA_REP_ROBOTS_WIDTH
                                        ? ln->raw.len
                                        : RA_REP_ROBOTS_WIDTH));
    if (ln->raw.len > RA_REP_ROBOTS_WIDTH) {
        ra_buf_cstr(b, "&hellip;");
    }
    if (hit != NULL) {
        ra_buf_printf(b, "<span class=\"hit%s\">",
                      hit->violations ? " bad" : "");
        ra_buf_u64(b, hit->matched);
        ra_buf_cstr(b, hit->allow ? " allowed" : " disallowed");
        if (hit->violations) {
            ra_buf_cstr(b, ", ");
            ra_buf_u64(b, hit->violations);
            ra_buf_cstr(b, hit->violations == 1 ? " violation"
                                                : " violations");
        }
        ra_buf_cstr(b, "</span>");
    }
    ra_buf_ch(b, '\n');
    x->shown++;
    return RA_OK;
}

/* The robots.txt in force as text, each line with the requests it
 * decided (allowed or disallowed) and the violations among them. */
static void
ra_rep_html_robots_text(ra_rep_t *r, uint32_t si,
    const ra_rep_robots_t *m)
{
    const ra_site_t     *s = m->s;
    const ra_version_t  *v = m->v;
    ra_buf_t            *b = r->b;
    ra_rep_hits_t        h;
    ra_rep_lines_t       x;

    if (v == NULL || v->answer != RA_ANSWER_RULES) {
        return;
    }
    ra_rep_hits(r, si, &h);
    ra_buf_cstr(b, "<details open><summary>robots.txt in force: ");
    ra_rep_size(b, v, ra_buf_html);
    ra_buf_cstr(b, ", since ");
    ra_rep_iso(b, v->first_seen);
    ra_buf_printf(b, ", sha256 <code>%s</code></summary>", m->sha);
    if (r->snap->bodies == NULL || r->snap->bodies[si].data == NULL
        || v->body_lost)
    {
        ra_buf_cstr(b, "<p class=\"muted\">its text is not in the ledger "
                    "(the zone had no room for it)</p></details>");
        return;
    }
    ra_buf_cstr(b, "<pre class=\"robots\">");
    memset(&x, 0, sizeof(x));
    x.b = b;
    x.h = &h;
    (void) ra_parse(r->snap->bodies[si], ra_rep_html_line, &x, NULL);
    if (x.hidden) {
        ra_buf_printf(b, "<span class=\"ln\">&hellip;</span>"
                      "<span class=\"muted\">%u more "
                      "line%s</span>\n", x.hidden, x.hidden == 1 ? "" : "s");
    }
    ra_buf_cstr(b, "</pre>");
    if (h.n && (s->rule_other_matched || s->rule_other_violations)) {
        ra_buf_cstr(b, "<p class=\"muted\">lines beyond the first ");
        ra_buf_printf(b, "%u that decided a request: ", RA_RULE_LINES);
        ra_buf_u64(b, s->rule_other_matched);
        ra_buf_cstr(b, " requests, ");
        ra_buf_u64(b, s->rule_other_violations);
        ra_buf_cstr(b, " violations</p>");
    }
    ra_buf_cstr(b, "<p class=\"muted\">beside each line: the requests it "
                "decided since this version came into force, and the "
                "violations among them; requests no line decided were "
                "allowed</p></details>");
}

static void
ra_rep_html_robots(ra_rep_t *r, uint32_t si, const ra_rep_robots_t *m)
{
    const ra_site_t     *s = m->s;
    const ra_version_t  *v = m->v;
    const ra_lint_t     *l = r->lints[si];
    ra_buf_t            *b = r->b;
    uint32_t             i;

    ra_buf_cstr(b, "<h3>robots.txt</h3><dl><dt>last answer</dt><dd>");
    if (s->robots_status) {
        ra_buf_printf(b, "%u <span class=\"muted\">(%s)</span>, ",
                      s->robots_status, m->last_answer);
        if (m->last_ctype.len) {
            ra_buf_cstr(b, "<code>");
            ra_buf_html(b, m->last_ctype);
            ra_buf_cstr(b, "</code>, ");
        }
        ra_buf_printf(b, "%u bytes", s->last_size);
    } else {
        ra_buf_cstr(b, "<span class=\"muted\">never fetched</span>");
    }
    ra_buf_cstr(b, "</dd><dt>in force</dt><dd>");
    if (v != NULL) {
        ra_buf_printf(b, "%u <span class=\"muted\">(%s)</span> since ",
                      v->status, ra_rep_answer_name(v->answer));
        ra_rep_iso(b, v->first_seen);
        ra_buf_cstr(b, ", ");
        if (m->ctype.len) {
            ra_buf_cstr(b, "<code>");
            ra_buf_html(b, m->ctype);
            ra_buf_cstr(b, "</code>, ");
        }
        ra_rep_size(b, v, ra_buf_html);
        ra_buf_printf(b, ", sha256 <code title=\"%s\">%.12s</code>", m->sha,
                      m->sha);
    } else {
        ra_buf_cstr(b, "<span class=\"muted\">no robots.txt known</span>");
    }
    ra_buf_printf(b, "</dd><dt>versions in 24 h</dt><dd>%u</dd>",
                  m->versions_24h);
    if (s->redirect_n) {
        ra_buf_cstr(b, "<dt>redirected to</dt><dd>");
        for (i = 0; i < m->redirects; i++) {
            ra_buf_cstr(b, i ? " &rarr; <code>" : "<code>");
            ra_buf_html(b, ra_rep_redirect(s, i));
            ra_buf_cstr(b, "</code>");
        }
        ra_buf_cstr(b, " <span class=\"muted\">(followed: the file in "
                    "force is the last one's answer)</span></dd>");
    }
    if (s->undecodable) {
        ra_buf_cstr(b, "<dt>last answer</dt><dd class=\"warn\">"
                    "Content-Encoding <code>");
        ra_buf_html(b, m->bad_coding);
        ra_buf_cstr(b, "</code> could not be decoded since ");
        ra_rep_iso(b, s->undecodable);
        ra_buf_cstr(b, ": the version shown stays in force</dd>");
    }
    if (v != NULL) {
        ra_buf_cstr(b, "<dt>content</dt><dd>");
        ra_rep_content_counts(b, v);
        ra_buf_printf(b, "</dd><dt>lint</dt><dd>"
                      "<span class=\"%s\">%u error%s</span>, "
                      "<span class=\"%s\">%u warning%s</span>, "
                      "%u info%s</dd>",
                      m->errors ? "err" : "good", m->errors,
                      ra_rep_s(m->errors),
                      v->lint_warnings ? "warn" : "good",
                      v->lint_warnings, ra_rep_s(v->lint_warnings),
                      v->lint_infos, ra_rep_s(v->lint_infos));
    }
    ra_buf_cstr(b, "<dt>robots date</dt><dd>");
    if (s->robots_date) {
        ra_rep_iso(b, s->robots_date);
    } else {
        ra_buf_cstr(b, "-");
    }
    ra_buf_printf(b, "</dd><dt>consecutive failures</dt><dd%s>%u</dd></dl>",
                  s->failures ? " class=\"bad\"" : "", s->failures);
    ra_rep_prefs(r, si, &ra_rep_html_prefs);
    ra_rep_html_robots_text(r, si, m);

    if (l == NULL || l->nfindings == 0) {
        return;
    }
    ra_buf_printf(b, "<details%s><summary>%u finding%s</summary><table>"
                  "<tr><th class=\"n\">line</th><th>severity</th>"
                  "<th>finding</th><th>code</th></tr>",
                  l->summary.errors ? " open" : "", l->nfindings,
                  ra_rep_s(l->nfindings));
    for (i = 0; i < ra_rep_findings_shown(r, l); i++) {
        const ra_lint_finding_t  *f = &l->findings[i];

        ra_buf_printf(b, "<tr><td class=\"n\">%u:%u</td><td class=\"%s\">%s"
                      "</td><td>", f->line, f->column,
                      f->severity == RA_SEV_ERROR ? "err"
                      : f->severity == RA_SEV_WARNING ? "warn" : "muted",
                      ra_lint_severity_name(f->severity));
        ra_buf_html(b, f->message);
        ra_buf_printf(b, "</td><td><code>%s</code></td></tr>",
                      ra_lint_code_name(f->code));
    }
    ra_buf_cstr(b, "</table>");
    if (ra_rep_findings_hidden(r, l)) {
        ra_buf_printf(b, "<p class=\"muted\">%u more not shown</p>",
                      ra_rep_findings_hidden(r, l));
    }
    ra_buf_cstr(b, "</details>");
}

/* ?crawler=: per row shown, the lines that decided its requests. */
static void
ra_rep_html_crawler_hits(ra_rep_t *r, uint32_t si)
{
    ra_buf_t       *b = r->b;
    ra_rep_hits_t   h;
    uint32_t        i, n;
    unsigned        k;

    if (!r->opts->crawler_rules) {
        return;
    }
    for (i = r->first[si], n = 0;
         i < r->first[si + 1] && n < r->max_crawlers; i++)
    {
        const ra_stat_t  *st = r->ents[i].st;

        ra_rep_crawler_hits(r, si, st, &h);
        for (k = 0; k < h.n; k++) {
            if (n++ == 0) {
                ra_buf_cstr(b, "<h3>lines that decided its requests</h3>"
                            "<div class=\"wide\"><table><tr>"
                            "<th>crawler</th><th>verification</th>"
                            "<th class=\"n\">line</th><th>rule</th>"
                            "<th class=\"n\">requests</th>"
                            "<th class=\"n\">violations</th></tr>");
            }
            ra_buf_cstr(b, "<tr><td>");
            ra_buf_html(b, ra_rep_field(st->name, st->name_len));
            ra_buf_printf(b, "</td><td>%s</td><td class=\"n\">%u</td>"
                          "<td><code>%s: ", ra_verify_name(st->verification),
                          h.hits[k].line,
                          h.hits[k].allow ? "Allow" : "Disallow");
            ra_buf_html(b, h.value[k]);
            ra_buf_printf(b, "</code></td>");
            ra_rep_html_num(b, h.hits[k].matched, 0);
            ra_rep_html_num(b, h.hits[k].violations, 1);
            ra_buf_cstr(b, "</tr>");
        }
    }
    if (n) {
        ra_buf_cstr(b, "</table></div>");
    }
}

/* 5xx/429 episodes of robots.txt, newest first. */
static void
ra_rep_html_episodes(ra_rep_t *r, uint32_t si)
{
    const ra_site_t     *s = &r->snap->sites[si];
    const ra_episode_t  *e;
    ra_buf_t            *b = r->b;
    unsigned             k, i;

    for (k = 0; (e = ra_rep_episode(s, k)) != NULL; k++) {
        if (k == 0) {
            ra_buf_cstr(b, "<h3>robots.txt 5xx/429 episodes</h3>"
                        "<div class=\"wide\"><table><tr><th>start</th>"
                        "<th>end</th><th>duration</th>"
                        "<th class=\"n\">answers</th><th>last status</th>"
                        "<th>crawlers meanwhile (requests)</th></tr>");
        }
        ra_buf_cstr(b, "<tr><td class=\"nw\">");
        ra_rep_iso(b, e->start);
        ra_buf_cstr(b, "</td><td class=\"nw\">");
        if (e->end) {
            ra_rep_iso(b, e->end);
        } else {
            ra_buf_cstr(b, "<span class=\"bad\">going on</span>");
        }
        ra_buf_cstr(b, "</td><td>");
        ra_rep_ms(b, ra_rep_episode_ms(e, r->now));
        ra_buf_printf(b, "</td><td class=\"n\">%u</td><td>%u</td><td>",
                      e->answers, e->status);
        for (i = 0; i < e->ncrawlers && i < RA_EPISODE_CRAWLERS; i++) {
            if (i) {
                ra_buf_cstr(b, ", ");
            }
            ra_buf_html(b, ra_rep_field(e->name[i], e->name_len[i]));
            ra_buf_printf(b, " (%u)", e->requests[i]);
        }
        if (e->others) {
            ra_buf_printf(b, "%sothers (%u)", i ? ", " : "", e->others);
        } else if (i == 0) {
            ra_buf_cstr(b, "<span class=\"muted\">none</span>");
        }
        ra_buf_cstr(b, "</td></tr>");
    }
    if (k) {
        ra_buf_cstr(b, "</table></div>");
    }
}

/* The sites at the top: links to their sections, the order. */
static void
ra_rep_html_summary(ra_rep_t *r)
{
    ra_buf_t  *b = r->b;
    uint32_t   i, si;
    uint64_t   judged;

    if (r->snap->nsites == 0) {
        return;
    }
    ra_buf_cstr(b, "<section><h2>sites</h2>");
    if (!r->opts->standalone) {
        ra_buf_printf(b, "<p class=\"muted\">order: %s &middot; %s</p>",
                      r->opts->sort_violations
                      ? "<a href=\"?sort=name\">by name</a>" : "by name",
                      r->opts->sort_violations
                      ? "most violations first"
                      : "<a href=\"?sort=violations\">most violations "
                        "first</a>");
    }
    ra_buf_cstr(b, "<div class=\"wide\"><table><tr><th>site</th>"
                "<th class=\"n\">crawler requests</th>"
                "<th class=\"n\">violations</th><th>compliance</th>"
                "<th>last 24 h</th></tr>");
    for (i = 0; i < r->snap->nsites; i++) {
        const ra_site_t  *s;

        si = ra_rep_nth(r, i);
        s = &r->snap->sites[si];
        ra_buf_cstr(b, "<tr><td><a href=\"#");
        ra_rep_anchor(b, s);
        ra_buf_cstr(b, "\">");
        ra_buf_html(b, ra_rep_site_name(s));
        ra_buf_cstr(b, "</a></td>");
        ra_rep_html_num(b, s->counters[RA_CNT_REQUESTS], 0);
        ra_rep_html_num(b, s->counters[RA_CNT_VIOLATION], 1);
        judged = ra_rep_judged(s->counters);
        if (judged) {
            ra_buf_printf(b, "<td>%u%%</td>",
                          ra_rep_pct(s->counters[RA_CNT_COMPLIANT]
                                     + s->counters[RA_CNT_STALE]
                                     + s->counters[RA_CNT_EXEMPT], judged));
        } else {
            ra_buf_cstr(b, "<td class=\"muted\">-</td>");
        }
        ra_buf_cstr(b, "<td>");
        ra_rep_html_spark(b, s, r->now);
        ra_buf_cstr(b, "</td></tr>");
    }
    ra_buf_cstr(b, "</table></div></section>\n");
}

/* Every verdict and flag in a sentence. */
static const char  ra_rep_legend[] =
    "<section id=\"legend\"><h2>legend</h2><dl>"
    "<dt><span class=\"good\">compliant</span></dt><dd>the robots.txt in "
    "force allows the request for this crawler.</dd>"
    "<dt><span class=\"bad\">violation</span></dt><dd>the robots.txt in "
    "force disallows it, and no version the crawler may still go by (what "
    "it fetched in the last 24 hours, or one in force then) allows it.</dd>"
    "<dt>stale</dt><dd>the robots.txt in force disallows it, but an older "
    "version the crawler may still go by allowed it: not counted as a "
    "violation.</dd>"
    "<dt>unreachable</dt><dd>the crawler's own last robots.txt fetch, less "
    "than 12 hours ago, was answered 5xx or 429, which tells crawlers to "
    "crawl nothing; it crawled anyway.</dd>"
    "<dt>exempt</dt><dd>a fetch a person asked for (a user-triggered "
    "agent): robots.txt does not apply.</dd>"
    "<dt>unknown</dt><dd>judged while no robots.txt of the site was known, "
    "so neither compliant nor a violation.</dd>"
    "<dt>crawl-delay</dt><dd>the request came sooner after the crawler's "
    "previous one than the Crawl-delay of its group asks (only for "
    "crawlers that honour Crawl-delay).</dd>"
    "<dt>no fetch</dt><dd>the crawler had not fetched robots.txt in the 24 "
    "hours before the request.</dd>"
    "<dt>refused</dt><dd>answered 403 by enforce (violation, unreachable "
    "or impostor).</dd>"
    "<dt>unreachable_30d</dt><dd>robots.txt has answered only 5xx/429 for "
    "30 days while the site's other pages answer: crawlers may act as if "
    "there were none, so requests are judged compliant.</dd>"
    "<dt><span class=\"good\">verified</span></dt><dd>the client is who "
    "its User-Agent says (published address ranges, reverse DNS or a "
    "signature: verified_by).</dd>"
    "<dt>unverifiable</dt><dd>its operator publishes no method to check "
    "the claim (no address ranges, reverse-DNS names or signatures), or a "
    "generic bot; &ldquo;lookup pending or failed&rdquo;: this server "
    "can check it, but no answer decided yet.</dd>"
    "<dt class=\"warn\">not verified here</dt><dd>its operator publishes "
    "address ranges, reverse-DNS names or signatures, but this server has "
    "not loaded its range file and has no resolver for it: configure "
    "ranges/resolver (<code>robots_audit_ip_ranges</code>, "
    "<code>resolver</code>; <code>RobotsAuditIPRanges</code>, "
    "<code>RobotsAuditResolver</code>).</dd>"
    "<dt><span class=\"bad\">impostor</span></dt><dd>the client claims a "
    "crawler whose published ranges it is outside.</dd>"
    "<dt>generic</dt><dd>a bot not in the crawler table, named by the "
    "token of its User-Agent.</dd>"
    "<dt>scripts and tools</dt><dd>clients of the crawler table's purpose "
    "<code>tool</code> (HTTP libraries, downloaders, configuration "
    "tools), listed apart from the crawlers.</dd>"
    "<dt>what you can do</dt><dd>per crawler with violations: the enforce "
    "directive that answers them 403, the fail2ban jail of "
    "<code>contrib/fail2ban</code> that bans its addresses (never a "
    "verified crawler's), the robots.txt group that names it, its "
    "operator's page.</dd>"
    "<dt>bars</dt><dd><span class=\"good\">compliant</span>, stale, "
    "exempt, unreachable, <span class=\"bad\">violation</span>, as shares "
    "of judged requests; percentages are rounded, never to 0 or 100 % "
    "unless exact.</dd>"
    "</dl></section>\n";

/* One row of the site's recent violations, after the table's head. */
static void
ra_rep_html_violation(ra_rep_t *r, const ra_rep_vio_t *w, uint32_t n)
{
    ra_buf_t  *b = r->b;

    if (n == 0) {
        ra_buf_cstr(b, "<h3>recent violations</h3><div class=\"wide\">"
                    "<table><tr>"
                    "<th>time</th><th>verdict</th><th>crawler</th>"
                    "<th>client</th>"
                    "<th>method</th><th>URI</th><th>rule</th>"
                    "<th class=\"n\">line</th></tr>");
    }
    ra_buf_cstr(b, "<tr><td>");
    ra_rep_iso(b, w->x->time);
    ra_buf_printf(b, "</td><td class=\"bad\">%s</td><td>", w->verdict);
    ra_buf_html(b, w->name);
    ra_buf_printf(b, " <span class=\"muted\">%s%s%s%s</span></td>"
                  "<td><code>", w->verification,
                  *w->verified_by ? " (" : "", w->verified_by,
                  *w->verified_by ? ")" : "");
    ra_buf_html(b, w->addr);
    ra_buf_cstr(b, "</code></td><td>");
    ra_buf_html(b, w->method);
    ra_buf_cstr(b, "</td><td><code>");
    ra_buf_html(b, w->uri);
    if (w->uri_cut) {
        ra_buf_cstr(b, "&hellip;");
    }
    ra_buf_cstr(b, "</code></td><td><code>");
    ra_buf_html(b, w->pattern);
    ra_buf_printf(b, "</code></td><td class=\"n\">%u</td></tr>",
                  w->x->line);
}

/* The site's crawler policies, as written (what is blocked, by which
 * rule), and the crawlers they refused, with how often */
static void
ra_rep_html_policy(ra_rep_t *r, uint32_t si)
{
    ra_buf_t                *b = r->b;
    uint32_t                 i = r->first[si], n = 0;
    ra_rep_row_t             w;
    const ra_stat_t         *st;
    const ra_policy_site_t  *p = NULL;

    while ((p = ra_rep_policy_next(r, si, p)) != NULL) {
        ra_buf_cstr(b, n++ ? "<br>" : "<h3>policy</h3><p class=\"policy\">"
                                      "<code>");
        ra_policy_describe(b, p->policy);
    }
    if (n) {
        ra_buf_cstr(b, "</code></p>");
    }
    for (n = 0; (st = ra_rep_refused_next(r, si, &i)) != NULL; n++) {
        ra_rep_row(r, st, &w);
        ra_buf_cstr(b, n ? "</td></tr><tr><td>" : "<table class=\"refused\">"
                    "<tr><th>refused by policy</th><th>verification</th>"
                    "<th class=\"n\">refused_policy</th></tr><tr><td>");
        ra_buf_html(b, w.label);
        ra_buf_printf(b, "</td><td>%s</td><td class=\"n\">%llu",
                      w.verification, (unsigned long long)
                      st->counters[RA_CNT_REFUSED_POLICY]);
    }
    if (n) {
        ra_buf_cstr(b, "</td></tr></table>");
    }
}

static void
ra_rep_html_site(ra_rep_t *r, uint32_t si)
{
    const ra_site_t  *s = &r->snap->sites[si];
    ra_buf_t         *b = r->b;
    ra_rep_robots_t   m;
    uint32_t          n;

    ra_rep_robots(r, si, &m);
    ra_buf_cstr(b, "<section id=\"");
    ra_rep_anchor(b, s);
    ra_buf_cstr(b, "\"><h2>");
    ra_buf_html(b, m.name);
    ra_rep_html_health(b, &m, ra_rep_offenders(r, si));
    ra_buf_cstr(b, "</h2><p class=\"muted\">");
    ra_rep_site_counts(b, s);
    ra_buf_cstr(b, "</p>");
    ra_rep_html_time(r, si);
    ra_rep_html_robots(r, si, &m);
    ra_rep_html_episodes(r, si);

    ra_rep_html_crawlers(r, si);
    ra_rep_html_crawler_hits(r, si);
    ra_rep_html_referrals(r, s);
    ra_rep_html_policy(r, si);
    ra_rep_undeclared_html(r, si);
    ra_rep_sitemaps_html(r, si);
    ra_rep_pages_html(r, si);

    n = ra_rep_violations(r, si, ra_rep_html_violation);
    if (n) {
        ra_buf_cstr(b, "</table></div>");
        if (s->violations_total > n) {
            ra_buf_printf(b, "<p class=\"muted\">showing the newest %u of "
                          "%u recent violations</p>", n,
                          s->violations_total);
        }
    } else {
        ra_buf_cstr(b, "<p class=\"muted\">no violation recorded</p>");
    }
    ra_buf_cstr(b, "</section>");
}

/* reverse-DNS lookups, once there were any */
static void
ra_rep_html_rdns(ra_buf_t *b, const ra_totals_t *h)
{
    if (h->rdns_lookups == 0 && h->rdns_refused == 0) {
        return;
    }
    ra_buf_printf(b, " &middot; reverse DNS: %u pending, ", h->rdns_pending);
    ra_buf_u64(b, h->rdns_verified);
    ra_buf_cstr(b, " verified, ");
    ra_buf_u64(b, h->rdns_failed);
    ra_buf_cstr(b, " failed, ");
    ra_buf_u64(b, h->rdns_refused);
    ra_buf_cstr(b, " refused");
}

/* One line, when evidence was lost: the lines the evidence log's budget
 * dropped, and those the alert and evidence logs could not write. */
static void
ra_rep_html_evidence(ra_buf_t *b, const ra_totals_t *h)
{
    unsigned  k;

    if (h->evidence_dropped == 0 && h->log_write_errors[0] == 0
        && h->log_write_errors[1] == 0)
    {
        return;
    }
    ra_buf_cstr(b, "<p class=\"warn\">evidence lost: ");
    ra_buf_u64(b, h->evidence_dropped);
    ra_buf_cstr(b, " evidence lines over the byte budget");
    for (k = 0; k < RA_LOGFILES; k++) {
        ra_buf_cstr(b, ", ");
        ra_buf_u64(b, h->log_write_errors[k]);
        ra_buf_printf(b, " %s lines not written", ra_logfile_name(k));
    }
    ra_buf_cstr(b, "</p>\n");
}

/* One line, when there is an event stream: its lines sent, and those
 * lost (in red when any were). */
static void
ra_rep_html_events(ra_buf_t *b, const ra_totals_t *h)
{
    uint64_t  lost = h->events.lines[RA_EVENTS_DROPPED]
                     + h->events.lines[RA_EVENTS_OVERSIZE];

    if (!ra_rep_events_any(h)) {
        return;
    }
    ra_buf_printf(b, "<p class=\"%s\">event stream: ",
                  lost ? "warn" : "muted");
    ra_buf_u64(b, h->events.lines[RA_EVENTS_SENT]);
    ra_buf_cstr(b, " lines sent, ");
    ra_buf_u64(b, h->events.lines[RA_EVENTS_DROPPED]);
    ra_buf_cstr(b, " dropped, ");
    ra_buf_u64(b, h->events.lines[RA_EVENTS_OVERSIZE]);
    ra_buf_cstr(b, " oversize</p>\n");
}

/* One line: each loaded range file and its age, stale ones in red. */
static void
ra_rep_html_ranges(ra_rep_t *r)
{
    ra_buf_t        *b = r->b;
    ra_rep_range_t   g;
    size_t           i;

    if (ra_rep_ranges(r) == 0) {
        return;
    }
    ra_buf_cstr(b, "<p class=\"muted\">IP-range files: ");
    for (i = 0; i < ra_rep_ranges(r); i++) {
        ra_rep_range(r, i, &g);
        ra_buf_cstr(b, i ? ", <code>" : "<code>");
        ra_buf_html(b, g.name);
        ra_buf_cstr(b, "</code> ");
        if (g.age < 0) {
            ra_buf_cstr(b, "(age unknown)");
        } else if (g.stale) {
            ra_buf_printf(b, "<span class=\"bad\" title=\"older than 7 "
                          "days: robots-audit ranges update\">%lld days "
                          "old</span>", (long long) (g.age / 86400000));
        } else if (g.age < 86400000) {
            ra_buf_printf(b, "%lld h old", (long long) (g.age / 3600000));
        } else {
            ra_buf_printf(b, "%lld days old", (long long) (g.age / 86400000));
        }
    }
    ra_buf_cstr(b, "</p>\n");
}

void
ra_rep_html(ra_rep_t *r)
{
    const ra_totals_t      *h = &r->snap->totals;
    ra_buf_t               *b = r->b;
    ra_str_t                title = r->opts->title;
    uint32_t                i;

    if (title.data == NULL) {
        title = ra_str("robots-audit", 12);
    }
    ra_buf_cstr(b, "<!DOCTYPE html>\n<html lang=\"en\"><head>"
                "<meta charset=\"utf-8\">");
    if (r->opts->refresh) {
        ra_buf_printf(b, "<meta http-equiv=\"refresh\" content=\"%u\">",
                      (unsigned) r->opts->refresh);
    } else if (!r->opts->standalone) {
        ra_buf_cstr(b, "<meta http-equiv=\"refresh\" content=\"30\">");
    }
    ra_buf_cstr(b, "<meta name=\"viewport\" content=\"width=device-width\">"
                "<title>");
    ra_buf_html(b, title);
    ra_buf_cstr(b, "</title><style>");
    ra_buf_cstr(b, ra_rep_css);
    ra_buf_cstr(b, "</style></head>\n<body><h1>");
    ra_buf_html(b, title);
    ra_buf_cstr(b, "</h1><p class=\"muted\">");
    ra_rep_iso(b, r->now);
    ra_buf_printf(b, " &middot; %u site%s &middot; ",
                  ra_rep_sites_total(r->snap),
                  ra_rep_sites_total(r->snap) == 1 ? "" : "s");
    ra_buf_u64(b, h->crawler_requests);
    ra_buf_cstr(b, " crawler requests judged (");
    ra_buf_u64(b, h->requests);
    ra_buf_cstr(b, " requests in all) &middot; ");
    ra_buf_u64(b, h->violations_total);
    ra_buf_cstr(b, " violations");
    if (r->opts->with_lines) {
        ra_buf_cstr(b, " &middot; ");
        ra_buf_u64(b, r->opts->lines);
        ra_buf_cstr(b, " log lines, ");
        ra_buf_u64(b, r->opts->malformed_lines);
        ra_buf_cstr(b, " malformed, ");
        ra_buf_u64(b, r->opts->skipped_lines);
        ra_buf_cstr(b, " skipped");
        if (r->opts->filtered_lines) {
            ra_buf_cstr(b, ", ");
            ra_buf_u64(b, r->opts->filtered_lines);
            ra_buf_cstr(b, " left out by the filters");
        }
    }
    if (h->site_evictions || h->stat_evictions) {
        ra_buf_cstr(b, " &middot; <span class=\"warn\">evictions: ");
        ra_buf_u64(b, h->site_evictions);
        ra_buf_cstr(b, " sites, ");
        ra_buf_u64(b, h->stat_evictions);
        ra_buf_cstr(b, " crawler records</span>");
    }
    ra_rep_html_rdns(b, h);
    ra_buf_cstr(b, "</p>\n");
    ra_rep_html_summary(r);
    ra_rep_html_evidence(b, h);
    ra_rep_html_events(b, h);
    ra_rep_html_ranges(r);
    for (i = 0; i < r->snap->nsites && !ra_rep_over_budget(r); i++) {
        ra_rep_html_site(r, ra_rep_nth(r, i));
        ra_buf_ch(b, '\n');
    }
    if (ra_rep_sites_total(r->snap) > i) {
        ra_buf_printf(b, "<p class=\"warn\">showing %u of %u sites, the most "
                      "recently seen (<code>?site=</code> chooses one)</p>\n",
                      i, ra_rep_sites_total(r->snap));
    }
    if (r->snap->nsites == 0) {
        ra_buf_cstr(b, "<p class=\"muted\">no site seen yet</p>\n");
    }
    ra_buf_cstr(b, ra_rep_legend);
    ra_buf_cstr(b, "</body></html>\n");
}
