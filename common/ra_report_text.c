/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The text report: a compact table per site for terminals (the CLI's
 * default), printed from the model of ra_report_render.c; everything from the
 * network goes through ra_buf_log().
 */
#include <stdio.h>
#include <string.h>

#include "ra_report_impl.h"

/* Escaped, padded to width (columns: escapes count as what they print). */
static void
ra_rep_text_cell(ra_buf_t *b, ra_str_t s, size_t width)
{
    size_t  start = b->len;

    ra_buf_log(b, s);
    while (b->len - start < width && !b->failed && !b->truncated) {
        ra_buf_ch(b, ' ');
    }
}

static void
ra_rep_text_referrals(ra_rep_t *r, const ra_site_t *s)
{
    unsigned  k, n = 0;

    for (k = 0; ra_rep_referral_next(r, s, &k); k++) {
        ra_buf_cstr(r->b, n++ ? ", " : "  crawl-to-refer: ");
        ra_buf_log(r->b, r->refer.ops[k].name);
        ra_buf_cstr(r->b, " ");
        ra_buf_u64(r->b, s->referrals[k]);
        ra_buf_cstr(r->b, " referrals / ");
        ra_buf_u64(r->b, s->referral_crawls[k]);
        ra_buf_cstr(r->b, " crawler requests");
    }
    if (n) {
        ra_buf_ch(r->b, '\n');
    }
}

/* AI preferences and policy tokens, a line each */
static const ra_rep_prefs_fmt_t  ra_rep_text_prefs = {
    ra_buf_log,
    { "  AI preferences: ",
      "  policy tokens (no crawler fetches with them): " },
    "; ", "", "", " ", "", "", "\n"
};

static void
ra_rep_text_robots(ra_rep_t *r, uint32_t si)
{
    const ra_site_t     *s = &r->snap->sites[si];
    const ra_lint_t     *l = r->lints[si];
    const ra_version_t  *v;
    ra_buf_t            *b = r->b;
    ra_rep_robots_t      m;
    unsigned             n;
    uint32_t             i;

    ra_rep_robots(r, si, &m);
    v = m.v;
    ra_buf_cstr(b, "  robots.txt: ");
    if (s->robots_status == 0 && v == NULL) {
        ra_buf_cstr(b, "never fetched\n");
    } else {
        ra_buf_printf(b, "status %u", s->robots_status);
        if (s->robots_status
            && ra_answer_of_status(s->robots_status) == RA_ANSWER_UNREACHABLE)
        {
            /* the answer as it was, then the file still in force */
            ra_buf_printf(b, " (unreachable), ");
            if (m.last_ctype.len) {
                ra_buf_log(b, m.last_ctype);
                ra_buf_cstr(b, ", ");
            }
            ra_buf_printf(b, "%u bytes; in force:", s->last_size);
        }
        if (v != NULL) {
            ra_buf_printf(b, " (%s), ", ra_rep_answer_name(v->answer));
            if (m.ctype.len) {
                ra_buf_log(b, m.ctype);
                ra_buf_cstr(b, ", ");
            }
            ra_rep_size(b, v, ra_buf_log);
            ra_buf_printf(b, ", sha256 %.12s; ", m.sha);
            ra_rep_content_counts(b, v);
        }
        ra_buf_printf(b, "; %u version%s in 24 h", m.versions_24h,
                      ra_rep_s(m.versions_24h));
        if (s->robots_date) {
            ra_buf_cstr(b, "; answered ");
            ra_rep_iso(b, s->robots_date);
        }
        if (s->failures) {
            ra_buf_printf(b, "; %u consecutive failure%s", s->failures,
                          ra_rep_s(s->failures));
        }
        ra_buf_ch(b, '\n');
        if (m.unreachable_30d) {
            ra_buf_cstr(b, "  unreachable_30d: robots.txt has failed since ");
            ra_rep_iso(b, s->failing_since);
            ra_buf_cstr(b, " while the site answers: crawlers act as if "
                        "there were none (all allowed)\n");
        }
        for (n = 0; n < m.redirects; n++) {
            ra_buf_cstr(b, n ? " -> " : "  redirected to ");
            ra_buf_log(b, ra_rep_redirect(s, n));
            ra_buf_cstr(b, n + 1 == s->redirect_n ? "\n" : "");
        }
        if (s->undecodable) {
            ra_buf_cstr(b, "  last answer: Content-Encoding ");
            ra_buf_log(b, m.bad_coding);
            ra_buf_cstr(b, " could not be decoded since ");
            ra_rep_iso(b, s->undecodable);
            ra_buf_cstr(b, "; the version above stays in force\n");
        }
        if (v != NULL || s->undecodable) {
            n = v ? v->lint_warnings : 0;
            i = v ? v->lint_infos : 0;
            ra_buf_printf(b, "  lint: %u error%s, %u warning%s, %u info%s\n",
                          m.errors, ra_rep_s(m.errors), n, ra_rep_s(n), i,
                          ra_rep_s(i));
        }
    }
    ra_rep_prefs(r, si, &ra_rep_text_prefs);
    if (l != NULL) {
        for (i = 0; i < ra_rep_findings_shown(r, l); i++) {
            const ra_lint_finding_t  *f = &l->findings[i];

            ra_buf_printf(b, "    %u:%u: %s: ", f->line, f->column,
                          ra_lint_severity_name(f->severity));
            ra_buf_log(b, f->message);
            ra_buf_printf(b, " [%s]\n", ra_lint_code_name(f->code));
        }
        if (ra_rep_findings_hidden(r, l)) {
            ra_buf_printf(b, "    (%u more findings not shown)\n",
                          ra_rep_findings_hidden(r, l));
        }
    }
}

/* One row: a crawler's (w), or the sum of those not shown (w NULL). */
static void
ra_rep_text_row(ra_buf_t *b, ra_str_t name, const char *verif,
    const uint64_t *c, const ra_rep_row_t *w)
{
    uint64_t     judged = ra_rep_judged(c);
    unsigned     pm;
    size_t       start;
    const char  *purpose = w != NULL ? w->purpose : NULL;

    ra_buf_cstr(b, "  ");
    ra_rep_text_cell(b, name, 32);
    ra_buf_printf(b, " %-12s %-16s %9llu %6llu %5llu %9llu %9llu %6llu "
                  "%7llu %6llu %7llu %6llu %8llu", verif,
                  purpose != NULL ? purpose : "-",
                  (unsigned long long) c[RA_CNT_REQUESTS],
                  (unsigned long long) c[RA_CNT_ROBOTS_FETCHES],
                  (unsigned long long) c[RA_CNT_LLMS_FETCHES],
                  (unsigned long long) c[RA_CNT_COMPLIANT],
                  (unsigned long long) c[RA_CNT_VIOLATION],
                  (unsigned long long) c[RA_CNT_STALE],
                  (unsigned long long) c[RA_CNT_UNREACHABLE],
                  (unsigned long long) c[RA_CNT_EXEMPT],
                  (unsigned long long) c[RA_CNT_UNKNOWN],
                  (unsigned long long) c[RA_CNT_CRAWL_DELAY],
                  (unsigned long long) c[RA_CNT_NO_ROBOTS_FETCH]);
    if (judged) {
        pm = ra_rep_permille(c[RA_CNT_COMPLIANT] + c[RA_CNT_STALE]
                             + c[RA_CNT_EXEMPT], judged);
        ra_buf_printf(b, " %5u.%u%%", pm / 10, pm % 10);
    } else {
        ra_buf_cstr(b, "       -");
    }
    /* politeness: peak per minute, median gap, its Crawl-delay */
    if (w != NULL) {
        ra_buf_printf(b, " %8u ", w->peak);
        start = b->len;
        ra_rep_gap(b, w->gap);
        while (b->len - start < 10 && !b->failed && !b->truncated) {
            ra_buf_ch(b, ' ');
        }
        ra_rep_ms(b, w->delay);
    }
    ra_buf_ch(b, '\n');
}

/* One line of the site's recent violations, after their heading. */
static void
ra_rep_text_violation(ra_rep_t *r, const ra_rep_vio_t *w, uint32_t n)
{
    ra_buf_t  *b = r->b;

    if (n == 0) {
        ra_buf_cstr(b, "  recent violations, newest first:\n");
    }
    ra_buf_cstr(b, "    ");
    ra_rep_iso(b, w->x->time);
    ra_buf_printf(b, " %s ", w->verdict);
    ra_buf_log(b, w->name);
    ra_buf_printf(b, " (%s) ", w->verification);
    ra_buf_log(b, w->addr);
    ra_buf_ch(b, ' ');
    ra_buf_log(b, w->method);
    ra_buf_ch(b, ' ');
    ra_buf_log(b, w->uri);
    if (w->uri_cut) {
        ra_buf_cstr(b, "...");
    }
    if (w->x->line) {
        ra_buf_cstr(b, "  rule '");
        ra_buf_log(b, w->pattern);
        ra_buf_printf(b, "' line %u", w->x->line);
    }
    ra_buf_ch(b, '\n');
}

/* The site's crawler policies, as written, and the crawlers they
 * refused, with how often */
static void
ra_rep_text_policy(ra_rep_t *r, uint32_t si)
{
    uint32_t                 i = r->first[si], n = 0;
    ra_rep_row_t             w;
    const ra_stat_t         *st;
    const ra_policy_site_t  *p = NULL;

    while ((p = ra_rep_policy_next(r, si, p)) != NULL) {
        ra_buf_cstr(r->b, "  policy: ");
        ra_policy_describe(r->b, p->policy);
        ra_buf_ch(r->b, '\n');
    }
    while ((st = ra_rep_refused_next(r, si, &i)) != NULL) {
        ra_rep_row(r, st, &w);
        ra_buf_cstr(r->b, n++ ? ", " : "  refused by policy: ");
        ra_buf_log(r->b, w.label);
        ra_buf_printf(r->b, " (%s) %llu", w.verification, (unsigned long long)
                      st->counters[RA_CNT_REFUSED_POLICY]);
    }
    if (n) {
        ra_buf_ch(r->b, '\n');
    }
}

static void
ra_rep_text_site(ra_rep_t *r, uint32_t si)
{
    const ra_site_t  *s = &r->snap->sites[si];
    ra_buf_t         *b = r->b;
    ra_rep_row_t      w;
    uint64_t          rest[RA_CNT_MAX];
    uint32_t          i, n, others = 0;
    unsigned          c;
    char              label[RA_REPORT_LABEL_MAX];

    ra_buf_cstr(b, "site ");
    ra_buf_log(b, ra_rep_site_name(s));
    ra_buf_cstr(b, ": ");
    ra_rep_site_counts(b, s);
    ra_buf_ch(b, '\n');
    ra_rep_text_robots(r, si);

    if (r->first[si] == r->first[si + 1]) {
        ra_buf_cstr(b, "  no crawler seen\n");
    } else {
        ra_buf_printf(b, "  %-32s %-12s %-16s %9s %6s %5s %9s %9s %6s %7s "
                      "%6s %7s %6s %8s %7s %8s %-10s %s\n", "crawler",
                      "verification", "purpose", "requests", "robots", "llms",
                      "compliant", "violation", "stale",
                      "unreach", "exempt", "unknown", "delay", "no-fetch",
                      "ok", "peak/min", "gap", "crawl-delay");
    }
    memset(rest, 0, sizeof(rest));
    for (i = r->first[si], n = 0; i < r->first[si + 1]; i++, n++) {
        const ra_stat_t  *st = r->ents[i].st;

        if (n >= r->max_crawlers) {
            for (c = 0; c < RA_CNT_MAX; c++) {
                rest[c] += st->counters[c];
            }
            others++;
            continue;
        }
        ra_rep_row(r, st, &w);
        ra_rep_text_row(b, w.label, w.verification, st->counters, &w);
    }
    if (others) {
        int   len;

        len = snprintf(label, sizeof(label), "(%u others)", others);
        ra_rep_text_row(b, ra_str(label, (size_t) len), "-", rest, NULL);
    }
    if (ra_rep_stats_total(r, si) > r->first[si + 1] - r->first[si]) {
        ra_buf_printf(b, "  showing %u of %u crawler records\n",
                      r->first[si + 1] - r->first[si],
                      ra_rep_stats_total(r, si));
    }
    ra_rep_text_referrals(r, s);
    ra_rep_text_policy(r, si);
    ra_rep_undeclared_text(r, si);
    ra_rep_sitemaps_text(r, si);
    ra_rep_pages_text(r, si);
    (void) ra_rep_violations(r, si, ra_rep_text_violation);
}

/* The event stream's lines, when there is one. */
static void
ra_rep_text_events(ra_buf_t *b, const ra_totals_t *h)
{
    if (!ra_rep_events_any(h)) {
        return;
    }
    ra_buf_cstr(b, "\nevent stream: sent ");
    ra_buf_u64(b, h->events.lines[RA_EVENTS_SENT]);
    ra_buf_cstr(b, ", dropped ");
    ra_buf_u64(b, h->events.lines[RA_EVENTS_DROPPED]);
    ra_buf_cstr(b, ", oversize ");
    ra_buf_u64(b, h->events.lines[RA_EVENTS_OVERSIZE]);
    ra_buf_ch(b, '\n');
}

void
ra_rep_text(ra_rep_t *r)
{
    ra_buf_t  *b = r->b;
    uint32_t   i;

    ra_buf_cstr(b, "robots-audit report, ");
    ra_rep_iso(b, r->now);
    if (r->opts->with_lines) {
        ra_buf_cstr(b, ": ");
        ra_buf_u64(b, r->opts->lines);
        ra_buf_cstr(b, " lines, ");
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
    ra_buf_ch(b, '\n');
    for (i = 0; i < r->snap->nsites && !ra_rep_over_budget(r); i++) {
        ra_buf_ch(b, '\n');
        ra_rep_text_site(r, ra_rep_nth(r, i));
    }
    if (ra_rep_sites_total(r->snap) > i) {
        ra_buf_printf(b, "\nshowing %u of %u sites\n", i,
                      ra_rep_sites_total(r->snap));
    }
    ra_rep_text_events(b, &r->snap->totals);
    if (r->snap->totals.site_evictions || r->snap->totals.stat_evictions) {
        ra_buf_cstr(b, "\nledger evictions: sites ");
        ra_buf_u64(b, r->snap->totals.site_evictions);
        ra_buf_cstr(b, ", crawler records ");
        ra_buf_u64(b, r->snap->totals.stat_evictions);
        ra_buf_ch(b, '\n');
    }
}
