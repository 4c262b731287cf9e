/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The text report: a compact table per site for terminals (the CLI's
 * default), printed from the model of ra_report.c; everything from the
 * network goes through ra_buf_log().
 */
#include <stdio.h>
#include <string.h>

#include "ra_report_impl.h"
#include "ra_digest.h"
#include "ra_accesslog.h"
#include "ra_verify.h"

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

    for (k = 0; k < r->refer.nops && k < RA_REFER_SLOTS; k++) {
        if (!s->referrals[k] && !s->referral_crawls[k]) {
            continue;
        }
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

static void
ra_rep_text_robots(ra_rep_t *r, uint32_t si)
{
    const ra_site_t     *s = &r->snap->sites[si];
    const ra_version_t  *v = ra_rep_current(s);
    const ra_lint_t     *l = r->lints[si];
    ra_buf_t            *b = r->b;
    unsigned             n;
    uint32_t             i;

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
            if (s->last_ctype_len) {
                ra_buf_log(b, ra_rep_field(s->last_ctype,
                                           s->last_ctype_len));
                ra_buf_cstr(b, ", ");
            }
            ra_buf_printf(b, "%u bytes; in force:", s->last_size);
        }
        if (v != NULL) {
            char  hex[2 * RA_SHA256_LEN + 1];

            ra_hex(v->sha256, RA_SHA256_LEN, hex);
            ra_buf_printf(b, " (%s), ", ra_rep_answer_name(v->answer));
            if (v->ctype_len) {
                ra_buf_log(b, ra_rep_field(v->ctype, v->ctype_len));
                ra_buf_cstr(b, ", ");
            }
            ra_rep_size(b, v, 0);
            ra_buf_printf(b, ", sha256 %.12s", hex);
            ra_buf_printf(b, "; %u group%s, %u rule%s, %u sitemap%s",
                          v->groups, v->groups == 1 ? "" : "s",
                          v->rules, v->rules == 1 ? "" : "s",
                          v->sitemaps, v->sitemaps == 1 ? "" : "s");
        }
        n = ra_rep_versions_24h(s, r->now);
        ra_buf_printf(b, "; %u version%s in 24 h", n, n == 1 ? "" : "s");
        if (s->robots_date) {
            ra_buf_cstr(b, "; answered ");
            ra_rep_iso(b, s->robots_date);
        }
        if (s->failures) {
            ra_buf_printf(b, "; %u consecutive failure%s", s->failures,
                          s->failures == 1 ? "" : "s");
        }
        ra_buf_ch(b, '\n');
        if (ra_rep_30d(s, r->now)) {
            ra_buf_cstr(b, "  unreachable_30d: robots.txt has failed since ");
            ra_rep_iso(b, s->failing_since);
            ra_buf_cstr(b, " while the site answers: crawlers act as if "
                        "there were none (all allowed)\n");
        }
        for (n = 0; n < s->redirect_n && n < RA_REDIRECT_HOPS; n++) {
            ra_buf_cstr(b, n ? " -> " : "  redirected to ");
            ra_buf_log(b, ra_rep_field(s->redirect[n], s->redirect_len[n]));
            ra_buf_cstr(b, n + 1 == s->redirect_n ? "\n" : "");
        }
        if (s->undecodable) {
            ra_buf_cstr(b, "  last answer: Content-Encoding ");
            ra_buf_log(b, ra_rep_field(s->bad_coding, s->bad_coding_len));
            ra_buf_cstr(b, " could not be decoded since ");
            ra_rep_iso(b, s->undecodable);
            ra_buf_cstr(b, "; the version above stays in force\n");
        }
        if (v != NULL || s->undecodable) {
            n = ra_rep_errors(s, v);
            ra_buf_printf(b, "  lint: %u error%s, %u warning%s, %u info%s\n",
                          n, n == 1 ? "" : "s",
                          v ? v->lint_warnings : 0,
                          v && v->lint_warnings == 1 ? "" : "s",
                          v ? v->lint_infos : 0,
                          v && v->lint_infos == 1 ? "" : "s");
        }
    }
    ra_rep_prefs(r, si, 0);
    if (l != NULL) {
        for (i = 0; i < l->nfindings && i < r->max_findings; i++) {
            const ra_lint_finding_t  *f = &l->findings[i];

            ra_buf_printf(b, "    %u:%u: %s: ", f->line, f->column,
                          ra_lint_severity_name(f->severity));
            ra_buf_log(b, f->message);
            ra_buf_printf(b, " [%s]\n", ra_lint_code_name(f->code));
        }
        if (l->nfindings > r->max_findings || l->summary.suppressed) {
            ra_buf_printf(b, "    (%u more findings not shown)\n",
                          l->summary.suppressed
                          + (l->nfindings > r->max_findings
                             ? l->nfindings - r->max_findings : 0));
        }
    }
}

static void
ra_rep_text_row(ra_buf_t *b, ra_str_t name, const char *verif,
    const uint64_t *c, const ra_stat_t *st, int64_t now)
{
    uint64_t     judged = ra_rep_judged(c);
    unsigned     pm;
    uint32_t     peak;
    int64_t      gap;
    size_t       start;
    const char  *purpose = st != NULL ? ra_rep_purpose(st) : NULL;

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
    if (st != NULL) {
        ra_polite_read(&st->polite, now, &peak, &gap);
        ra_buf_printf(b, " %8u ", peak);
        start = b->len;
        ra_rep_gap(b, gap);
        while (b->len - start < 10 && !b->failed && !b->truncated) {
            ra_buf_ch(b, ' ');
        }
        ra_rep_ms(b, st->crawl_delay_ms > 0 ? st->crawl_delay_ms : -1);
    }
    ra_buf_ch(b, '\n');
}

static void
ra_rep_text_site(ra_rep_t *r, uint32_t si)
{
    const ra_site_t  *s = &r->snap->sites[si];
    ra_buf_t         *b = r->b;
    uint64_t          rest[RA_CNT_MAX];
    uint32_t          i, j, n, id, others = 0;
    unsigned          c;
    char              label[RA_REPORT_LABEL_MAX];

    ra_buf_cstr(b, "site ");
    ra_buf_log(b, ra_rep_site_name(s));
    ra_buf_cstr(b, ": ");
    ra_buf_u64(b, s->counters[RA_CNT_REQUESTS]);
    ra_buf_cstr(b, " crawler requests, ");
    ra_buf_u64(b, s->browser_requests);
    ra_buf_cstr(b, " from browsers, ");
    ra_buf_u64(b, s->no_user_agent);
    ra_buf_cstr(b, " without User-Agent\n");
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
        ra_rep_text_row(b, ra_str(label, ra_report_label(st->kind,
                            ra_rep_field(st->name, st->name_len), label,
                            sizeof(label))),
                        ra_verify_name(st->verification), st->counters, st,
                        r->now);
    }
    if (others) {
        int   len;

        len = snprintf(label, sizeof(label), "(%u others)", others);
        ra_rep_text_row(b, ra_str(label, (size_t) len), "-", rest, NULL,
                        r->now);
    }
    if (ra_rep_stats_total(r, si) > r->first[si + 1] - r->first[si]) {
        ra_buf_printf(b, "  showing %u of %u crawler records\n",
                      r->first[si + 1] - r->first[si],
                      ra_rep_stats_total(r, si));
    }
    ra_rep_text_referrals(r, s);

    id = si + 1;
    for (j = 0, n = 0; j < r->snap->nviolations && n < r->max_vio; j++) {
        const ra_violation_t  *x = &r->snap->violations[j];

        if (x->site != id) {
            continue;
        }
        if (n++ == 0) {
            ra_buf_cstr(b, "  recent violations, newest first:\n");
        }
        ra_buf_cstr(b, "    ");
        ra_rep_iso(b, x->time);
        ra_buf_printf(b, " %s ", ra_rep_vio_verdict(x));
        ra_buf_log(b, ra_rep_field(x->name, x->name_len));
        ra_buf_printf(b, " (%s) ", ra_verify_name(x->verification));
        ra_buf_log(b, ra_rep_field(x->addr, x->addr_len));
        ra_buf_ch(b, ' ');
        ra_buf_log(b, ra_rep_field(x->method, x->method_len));
        ra_buf_ch(b, ' ');
        ra_buf_log(b, ra_rep_field(x->uri, x->uri_len));
        if (x->uri_full_len > x->uri_len) {
            ra_buf_cstr(b, "...");
        }
        if (x->line) {
            ra_buf_cstr(b, "  rule '");
            ra_buf_log(b, ra_rep_field(x->pattern, x->pattern_len));
            ra_buf_printf(b, "' line %u", x->line);
        }
        ra_buf_ch(b, '\n');
    }
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
        ra_buf_cstr(b, " malformed");
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
    if (r->snap->totals.site_evictions || r->snap->totals.stat_evictions) {
        ra_buf_cstr(b, "\nledger evictions: sites ");
        ra_buf_u64(b, r->snap->totals.site_evictions);
        ra_buf_cstr(b, ", crawler records ");
        ra_buf_u64(b, r->snap->totals.stat_evictions);
        ra_buf_ch(b, '\n');
    }
}
