/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The Prometheus report (text exposition format 0.0.4).  Records sharing
 * labels are summed, so that the metrics' cardinality stays bounded by the
 * ledger's site table and the crawler table (see ra_report.h).
 */
#include <string.h>

#include "ra_report_impl.h"
#include "ra_verdict.h"
#include "ra_crawlers.h"
#include "ra_verify.h"

static void
ra_rep_prom_family(ra_buf_t *b, const char *name, const char *type,
    const char *help)
{
    ra_buf_printf(b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* reverse-DNS lookups by outcome, and those in flight */
static void
ra_rep_prom_rdns(ra_buf_t *b, const ra_totals_t *h)
{
    ra_rep_prom_family(b, "robots_audit_rdns_lookups_total", "counter",
        "Reverse-DNS lookups by outcome (refused: over the budget).");
    ra_buf_cstr(b, "robots_audit_rdns_lookups_total{result=\"verified\"} ");
    ra_buf_u64(b, h->rdns_verified);
    ra_buf_cstr(b, "\nrobots_audit_rdns_lookups_total{result=\"failed\"} ");
    ra_buf_u64(b, h->rdns_failed);
    ra_buf_cstr(b, "\nrobots_audit_rdns_lookups_total{result=\"refused\"} ");
    ra_buf_u64(b, h->rdns_refused);
    ra_buf_ch(b, '\n');
    ra_rep_prom_family(b, "robots_audit_rdns_pending", "gauge",
        "Reverse-DNS lookups in flight.");
    ra_buf_printf(b, "robots_audit_rdns_pending %u\n", h->rdns_pending);
}

static void
ra_rep_prom_site(ra_buf_t *b, const char *name, const ra_site_t *s)
{
    ra_buf_printf(b, "%s{site=\"", name);
    ra_buf_prom_label(b, ra_rep_site_name(s));
    ra_buf_ch(b, '"');
}

/* Evidence lost: the lines the evidence log's byte budget dropped, by
 * site (sites that dropped none left out), and the lines each log could
 * not write. */
static void
ra_rep_prom_evidence(ra_buf_t *b, const ra_snapshot_t *snap)
{
    uint32_t  si;
    unsigned  k;

    ra_rep_prom_family(b, "robots_audit_evidence_dropped_total", "counter",
        "Evidence lines the evidence log's byte budget dropped, by site.");
    for (si = 0; si < snap->nsites; si++) {
        if (snap->sites[si].evidence_dropped == 0) {
            continue;
        }
        ra_rep_prom_site(b, "robots_audit_evidence_dropped_total",
                         &snap->sites[si]);
        ra_buf_cstr(b, "} ");
        ra_buf_u64(b, snap->sites[si].evidence_dropped);
        ra_buf_ch(b, '\n');
    }
    ra_rep_prom_family(b, "robots_audit_log_write_errors_total", "counter",
        "Lines the alert and evidence logs could not write.");
    for (k = 0; k < RA_LOGFILES; k++) {
        ra_buf_printf(b, "robots_audit_log_write_errors_total{log=\"%s\"} ",
                      ra_logfile_name(k));
        ra_buf_u64(b, snap->totals.log_write_errors[k]);
        ra_buf_ch(b, '\n');
    }
}

/* The event stream's lines by what became of them, when there is a
 * stream: robots_audit_events_total{outcome="sent|dropped|oversize"}. */
static void
ra_rep_prom_events(ra_buf_t *b, const ra_totals_t *h)
{
    unsigned  k;

    if (!ra_rep_events_any(h)) {
        return;
    }
    ra_rep_prom_family(b, "robots_audit_events_total", "counter",
        "Event-stream lines by outcome (dropped: the transport refused it; "
        "oversize: longer than a datagram, not sent).");
    for (k = 0; k < RA_EVENT_OUTCOMES; k++) {
        ra_buf_printf(b, "robots_audit_events_total{outcome=\"%s\"} ",
                      ra_events_outcome_name(k));
        ra_buf_u64(b, h->events.lines[k]);
        ra_buf_ch(b, '\n');
    }
}

/* How a record's verification was decided, so that a weak method shows:
 * the method label of robots_audit_requests_total ("ranges", "rdns",
 * "signature", "none"), the record's last deciding method: a crawler
 * decided by two methods in turn (signed requests and unsigned ones)
 * carries the latest one. */
static void
ra_rep_prom_method(ra_buf_t *b, const ra_stat_t *st)
{
    const char  *m = ra_verified_by_name(st->verified_by);

    /* a sum of records ("generic", "unverified", "evicted") has no one
     * method: "none", whichever record comes first, so that its series
     * keep their labels */
    if (st->kind != RA_UA_KNOWN || st->verification != RA_VERIFY_VERIFIED) {
        m = "";
    }
    ra_buf_printf(b, ",method=\"%s\"", *m ? m : "none");
}

/* Sums the run of entries sharing (site, label[, verification]) that
 * starts at i; returns the index after it. */
static uint32_t
ra_rep_prom_run(ra_rep_t *r, uint32_t i, int by_verification,
    int skip_impostors, uint64_t *sum, const ra_stat_t **last)
{
    const ra_rep_ent_t  *e = &r->ents[i];
    ra_str_t             label = ra_rep_label(e->st);
    uint32_t             j;
    unsigned             c;

    memset(sum, 0, RA_CNT_MAX * sizeof(uint64_t));
    *last = NULL;
    for (j = i; j < r->nents; j++) {
        const ra_rep_ent_t  *f = &r->ents[j];

        if (f->site != e->site
            || ra_rep_strcmp(ra_rep_label(f->st), label) != 0
            || (by_verification && f->st->verification
                                   != e->st->verification))
        {
            break;
        }
        if (skip_impostors && f->st->verification == RA_VERIFY_IMPOSTOR) {
            continue;
        }
        for (c = 0; c < RA_CNT_MAX; c++) {
            sum[c] += f->st->counters[c];
        }
        if (f->st->last_fetch
            && (*last == NULL || f->st->last_fetch > (*last)->last_fetch))
        {
            *last = f->st;
        }
    }
    /* generic bots: the site's aggregate, which keeps what evicted
     * records counted, so that these counters only rise */
    if (e->st->kind == RA_UA_GENERIC) {
        const ra_site_t  *s = &r->snap->sites[e->site];

        for (c = 0; c < RA_CNT_MAX; c++) {
            if (s->generic[c] > sum[c]) {
                sum[c] = s->generic[c];
            }
        }
    }
    return j;
}

/* robots_audit_ranges_age_seconds{file}: each loaded range list's age,
 * for an alert on a refresh that stopped working; a list whose file's
 * time is unknown has no sample. */
static void
ra_rep_prom_ranges(ra_rep_t *r)
{
    ra_buf_t        *b = r->b;
    ra_rep_range_t   g;
    size_t           i;

    if (ra_rep_ranges(r) == 0) {
        return;
    }
    ra_rep_prom_family(b, "robots_audit_ranges_age_seconds", "gauge",
        "Age of each loaded IP-range file: now minus its modification time "
        "when it was loaded (older than 7 days: RA203).");
    for (i = 0; i < ra_rep_ranges(r); i++) {
        ra_rep_range(r, i, &g);
        if (g.age < 0) {
            continue;
        }
        ra_buf_cstr(b, "robots_audit_ranges_age_seconds{file=\"");
        ra_buf_prom_label(b, g.name);
        ra_buf_printf(b, "\"} %lld\n", (long long) (g.age / 1000));
    }
}

static void
ra_rep_prom_ai(ra_rep_t *r)
{
    const ra_snapshot_t  *snap = r->snap;
    uint64_t              per[RA_CAT_MAX + 1];
    uint32_t              si;
    unsigned              k, pass;

    for (pass = 0; pass < 2; pass++) {
        ra_rep_prom_family(r->b, pass ? "robots_audit_referral_crawler_"
                                        "requests_total"
                                      : "robots_audit_referrals_total",
            "counter", pass ? "Requests of the operator's crawlers "
            "(impostors excluded), beside its referrals (crawl-to-refer)."
            : "Browser visits whose Referer is the operator's search "
            "engine or assistant (data/referrers.txt).");
        for (si = 0; si < snap->nsites; si++) {
            const ra_site_t  *s = &snap->sites[si];

            for (k = 0; ra_rep_referral_next(r, s, &k); k++) {
                ra_rep_prom_site(r->b, pass ? "robots_audit_referral_"
                                              "crawler_requests_total"
                                            : "robots_audit_referrals_total",
                                 s);
                ra_buf_cstr(r->b, ",operator=\"");
                ra_buf_prom_label(r->b, r->refer.ops[k].name);
                ra_buf_cstr(r->b, "\"} ");
                ra_buf_u64(r->b, pass ? s->referral_crawls[k]
                                      : s->referrals[k]);
                ra_buf_ch(r->b, '\n');
            }
        }
    }

    ra_rep_prom_family(r->b, "robots_audit_purpose_requests_total",
        "counter", "Crawler requests by the purpose of the crawler "
        "(its table category; purpose=\"generic\": generic bots; "
        "impostors excluded: they are not the crawler they name).");
    for (si = 0; si < snap->nsites; si++) {
        /* the site's own sums: never evicted, so each only rises */
        for (k = 0; k < RA_CAT_MAX; k++) {
            per[k] = snap->sites[si].purpose_requests[k];
        }
        per[RA_CAT_MAX] = snap->sites[si].generic[RA_CNT_REQUESTS];
        for (k = 0; k <= RA_CAT_MAX; k++) {
            if (per[k] == 0) {
                continue;
            }
            ra_rep_prom_site(r->b, "robots_audit_purpose_requests_total",
                             &snap->sites[si]);
            ra_buf_printf(r->b, ",purpose=\"%s\"} ", k < RA_CAT_MAX
                          ? ra_crawler_category_name(k) : "generic");
            ra_buf_u64(r->b, per[k]);
            ra_buf_ch(r->b, '\n');
        }
    }
}

static void
ra_rep_prom_llms(ra_rep_t *r)
{
    const ra_snapshot_t  *snap = r->snap;
    const ra_stat_t      *last;
    uint64_t              sum[RA_CNT_MAX];
    uint32_t              i, next;

    ra_rep_prom_family(r->b, "robots_audit_llms_fetches_total", "counter",
        "Requests for /llms.txt or /llms-full.txt by crawler (also judged "
        "and counted in robots_audit_requests_total).");
    for (i = 0; i < r->nents; i = next) {
        next = ra_rep_prom_run(r, i, 0, 0, sum, &last);
        if (sum[RA_CNT_LLMS_FETCHES] == 0) {
            continue;
        }
        ra_rep_prom_site(r->b, "robots_audit_llms_fetches_total",
                         &snap->sites[r->ents[i].site]);
        ra_buf_cstr(r->b, ",crawler=\"");
        ra_buf_prom_label(r->b, ra_rep_label(r->ents[i].st));
        ra_buf_cstr(r->b, "\"} ");
        ra_buf_u64(r->b, sum[RA_CNT_LLMS_FETCHES]);
        ra_buf_ch(r->b, '\n');
    }
}

/* The per-crawler families: one series per (site, crawler label[,
 * verification]) and value label. */
static void
ra_rep_prom_crawlers(ra_rep_t *r)
{
    static const struct {
        ra_counter_e  c;
        const char   *name;
    } verdicts[] = {
        { RA_CNT_COMPLIANT, "compliant" }, { RA_CNT_VIOLATION, "violation" },
        { RA_CNT_STALE, "stale" }, { RA_CNT_UNREACHABLE, "unreachable" },
        { RA_CNT_EXEMPT, "exempt" }, { RA_CNT_UNKNOWN, "unknown" }
    };

    const ra_snapshot_t     *snap = r->snap;
    const ra_stat_t         *last;
    ra_buf_t                *b = r->b;
    uint64_t                 sum[RA_CNT_MAX], judged;
    uint32_t                 i, next;
    unsigned                 k;
    int                      pass;

    ra_rep_prom_family(b, "robots_audit_requests_total", "counter",
        "Crawler requests by verdict (other: robots.txt fetches and "
        "requests not judged).");
    for (i = 0; i < r->nents; i = next) {
        next = ra_rep_prom_run(r, i, 1, 0, sum, &last);
        judged = 0;
        for (k = 0; k <= sizeof(verdicts) / sizeof(verdicts[0]); k++) {
            uint64_t  val;

            if (k < sizeof(verdicts) / sizeof(verdicts[0])) {
                val = sum[verdicts[k].c];
                judged += val;
            } else {
                val = sum[RA_CNT_REQUESTS] > judged
                      ? sum[RA_CNT_REQUESTS] - judged : 0;
            }
            ra_rep_prom_site(b, "robots_audit_requests_total",
                             &snap->sites[r->ents[i].site]);
            ra_buf_cstr(b, ",crawler=\"");
            ra_buf_prom_label(b, ra_rep_label(r->ents[i].st));
            ra_buf_printf(b, "\",verification=\"%s\"",
                          ra_verify_name(r->ents[i].st->verification));
            ra_rep_prom_method(b, r->ents[i].st);
            ra_buf_printf(b, ",verdict=\"%s\"} ",
                          k < sizeof(verdicts) / sizeof(verdicts[0])
                          ? verdicts[k].name : "other");
            ra_buf_u64(b, val);
            ra_buf_ch(b, '\n');
        }
    }
    ra_rep_undeclared_prom(r);
    ra_rep_sitemaps_prom(r);

    ra_rep_prom_family(b, "robots_audit_flags_total", "counter",
        "Crawler requests flagged crawl_delay (faster than the group's "
        "Crawl-delay) or no_robots_fetch (no robots.txt fetch in 24 h).");
    for (i = 0; i < r->nents; i = next) {
        next = ra_rep_prom_run(r, i, 1, 0, sum, &last);
        for (k = 0; k < 2; k++) {
            ra_rep_prom_site(b, "robots_audit_flags_total",
                             &snap->sites[r->ents[i].site]);
            ra_buf_cstr(b, ",crawler=\"");
            ra_buf_prom_label(b, ra_rep_label(r->ents[i].st));
            ra_buf_printf(b, "\",verification=\"%s\",flag=\"%s\"} ",
                          ra_verify_name(r->ents[i].st->verification),
                          k ? "no_robots_fetch" : "crawl_delay");
            ra_buf_u64(b, sum[k ? RA_CNT_NO_ROBOTS_FETCH
                                : RA_CNT_CRAWL_DELAY]);
            ra_buf_ch(b, '\n');
        }
    }

    ra_rep_prom_family(b, "robots_audit_refused_total", "counter",
        "Crawler requests refused by enforce or the crawler policy, by what "
        "they were refused for (robots_audit_enforce, robots_audit_block: "
        "policy); each is counted in robots_audit_requests_total too.");
    for (i = 0; i < r->nents; i = next) {
        next = ra_rep_prom_run(r, i, 0, 0, sum, &last);
        for (k = RA_REFUSE_VIOLATION; k < RA_REFUSE_COUNTED; k++) {
            ra_rep_prom_site(b, "robots_audit_refused_total",
                             &snap->sites[r->ents[i].site]);
            ra_buf_cstr(b, ",crawler=\"");
            ra_buf_prom_label(b, ra_rep_label(r->ents[i].st));
            ra_buf_printf(b, "\",verdict=\"%s\"} ",
                          ra_refuse_name((ra_refuse_e) k));
            ra_buf_u64(b, sum[RA_CNT_REFUSED_VIOLATION + k
                              - RA_REFUSE_VIOLATION]);
            ra_buf_ch(b, '\n');
        }
    }

    /* per (site, crawler) over its verified and unverifiable records */
    for (pass = 0; pass < 2; pass++) {
        if (pass == 0) {
            ra_rep_prom_family(b, "robots_audit_robots_fetches_total",
                "counter", "robots.txt fetches by crawler (impostors "
                "excluded; status=\"all\": the ledger counts fetches, not "
                "fetches per status).");
        } else {
            ra_rep_prom_family(b, "robots_audit_robots_last_fetch_status",
                "gauge", "HTTP status of the crawler's last robots.txt "
                "fetch.");
        }
        for (i = 0; i < r->nents; i = next) {
            next = ra_rep_prom_run(r, i, 0, 1, sum, &last);
            if (pass == 1 && last == NULL) {
                continue;
            }
            if (pass == 0 && sum[RA_CNT_ROBOTS_FETCHES] == 0) {
                /* only crawlers that could fetch: skip impostor-only */
                if (last == NULL && sum[RA_CNT_REQUESTS] == 0) {
                    continue;
                }
            }
            ra_rep_prom_site(b, pass ? "robots_audit_robots_last_fetch_status"
                                     : "robots_audit_robots_fetches_total",
                             &snap->sites[r->ents[i].site]);
            ra_buf_cstr(b, ",crawler=\"");
            ra_buf_prom_label(b, ra_rep_label(r->ents[i].st));
            if (pass == 0) {
                ra_buf_cstr(b, "\",status=\"all\"} ");
                ra_buf_u64(b, sum[RA_CNT_ROBOTS_FETCHES]);
            } else {
                ra_buf_printf(b, "\"} %u", last->last_fetch_status);
            }
            ra_buf_ch(b, '\n');
        }
    }

    ra_rep_prom_llms(r);
}

/* The per-site families: one series per site and value label. */
static void
ra_rep_prom_sites(ra_rep_t *r)
{
    static const char  *sev[] = { "error", "warning", "info" };

    const ra_snapshot_t     *snap = r->snap;
    const ra_version_t      *v;
    ra_buf_t                *b = r->b;
    uint32_t                 si;
    unsigned                 k, n;

    ra_rep_prom_ai(r);

    ra_rep_prom_family(b, "robots_audit_robots_findings", "gauge",
        "Lint findings of the site's current robots.txt by severity.");
    for (si = 0; si < snap->nsites; si++) {
        v = ra_rep_current(&snap->sites[si]);
        for (k = 0; k < 3; k++) {
            n = k == 0 ? ra_rep_errors(&snap->sites[si], v)
                : v == NULL ? 0 : k == 1 ? v->lint_warnings : v->lint_infos;
            ra_rep_prom_site(b, "robots_audit_robots_findings",
                             &snap->sites[si]);
            ra_buf_printf(b, ",severity=\"%s\"} %u\n", sev[k], n);
        }
    }

    /* labels that change only with the answer's class, never with an
     * edit of the file: sizes and ages are gauges of their own */
    ra_rep_prom_family(b, "robots_audit_robots_info", "gauge",
        "The site's last robots.txt answer: status, and the Content-Type "
        "of the current version (value always 1).");
    for (si = 0; si < snap->nsites; si++) {
        const ra_site_t  *s = &snap->sites[si];

        v = ra_rep_current(s);
        ra_rep_prom_site(b, "robots_audit_robots_info", s);
        ra_buf_printf(b, ",status=\"%u\",content_type=\"", s->robots_status);
        if (v != NULL) {
            ra_buf_prom_label(b, ra_rep_field(v->ctype, v->ctype_len));
        }
        ra_buf_cstr(b, "\"} 1\n");
    }

    ra_rep_prom_family(b, "robots_audit_robots_bytes", "gauge",
        "Size in bytes of the site's current robots.txt version as served "
        "(0: none).");
    for (si = 0; si < snap->nsites; si++) {
        v = ra_rep_current(&snap->sites[si]);
        ra_rep_prom_site(b, "robots_audit_robots_bytes", &snap->sites[si]);
        ra_buf_printf(b, "} %u\n", v ? v->size : 0);
    }

    ra_rep_prom_family(b, "robots_audit_robots_version_age_seconds", "gauge",
        "Seconds since the site's current robots.txt version was first "
        "served (absent: none).");
    for (si = 0; si < snap->nsites; si++) {
        v = ra_rep_current(&snap->sites[si]);
        if (v == NULL || v->first_seen == 0) {
            continue;
        }
        ra_rep_prom_site(b, "robots_audit_robots_version_age_seconds",
                         &snap->sites[si]);
        ra_buf_printf(b, "} %lld\n", (long long) (r->now > v->first_seen
                                      ? (r->now - v->first_seen) / 1000 : 0));
    }

    ra_rep_prom_family(b, "robots_audit_robots_unreachable_30d", "gauge",
        "1 while the site's robots.txt has answered only 5xx/429 for 30 "
        "days and its other pages answer: crawlers act as if there were "
        "none.");
    for (si = 0; si < snap->nsites; si++) {
        ra_rep_prom_site(b, "robots_audit_robots_unreachable_30d",
                         &snap->sites[si]);
        ra_buf_printf(b, "} %d\n", ra_rep_30d(&snap->sites[si], r->now));
    }

    ra_rep_prom_family(b, "robots_audit_robots_versions", "gauge",
        "robots.txt versions in force during the last 24 hours.");
    for (si = 0; si < snap->nsites; si++) {
        ra_rep_prom_site(b, "robots_audit_robots_versions", &snap->sites[si]);
        ra_buf_printf(b, "} %u\n",
                      ra_rep_versions_24h(&snap->sites[si], r->now));
    }

    ra_rep_prom_family(b, "robots_audit_robots_consecutive_failures",
        "gauge", "Consecutive 5xx/429 answers to robots.txt requests.");
    for (si = 0; si < snap->nsites; si++) {
        ra_rep_prom_site(b, "robots_audit_robots_consecutive_failures",
                         &snap->sites[si]);
        ra_buf_printf(b, "} %u\n", snap->sites[si].failures);
    }

    ra_rep_prom_family(b, "robots_audit_site_requests_total", "counter",
        "Requests the site's audit saw, by client kind.");
    for (si = 0; si < snap->nsites; si++) {
        ra_rep_prom_site(b, "robots_audit_site_requests_total",
                         &snap->sites[si]);
        ra_buf_cstr(b, ",kind=\"crawler\"} ");
        ra_buf_u64(b, snap->sites[si].counters[RA_CNT_REQUESTS]);
        ra_buf_ch(b, '\n');
        ra_rep_prom_site(b, "robots_audit_site_requests_total",
                         &snap->sites[si]);
        ra_buf_cstr(b, ",kind=\"browser\"} ");
        ra_buf_u64(b, snap->sites[si].browser_requests);
        ra_buf_ch(b, '\n');
        ra_rep_prom_site(b, "robots_audit_site_requests_total",
                         &snap->sites[si]);
        ra_buf_cstr(b, ",kind=\"no_user_agent\"} ");
        ra_buf_u64(b, snap->sites[si].no_user_agent);
        ra_buf_ch(b, '\n');
    }
}

/* The ledger's and the server's own numbers, and how much of the page
 * was left out (level: ra_rep_prom()). */
static void
ra_rep_prom_totals(ra_rep_t *r, unsigned level)
{
    const ra_totals_t       *h = &r->snap->totals;
    ra_buf_t                *b = r->b;

    ra_rep_prom_family(b, "robots_audit_metrics_degraded", "gauge",
        "0: every family; 1: the page would not fit in its cap, the "
        "per-crawler families are left out; 2: the per-site ones too.");
    ra_buf_printf(b, "robots_audit_metrics_degraded %u\n", level);

    ra_rep_prom_rdns(b, h);
    ra_rep_prom_ranges(r);
    ra_rep_prom_evidence(b, r->snap);
    ra_rep_prom_events(b, h);

    /* ledger health */
    ra_rep_prom_family(b, "robots_audit_evictions_total", "counter",
        "Ledger records evicted to make room (least recently used).");
    ra_buf_cstr(b, "robots_audit_evictions_total{table=\"sites\"} ");
    ra_buf_u64(b, h->site_evictions);
    ra_buf_cstr(b, "\nrobots_audit_evictions_total{table=\"stats\"} ");
    ra_buf_u64(b, h->stat_evictions);
    ra_buf_cstr(b, "\nrobots_audit_evictions_total{table=\"blobs\"} ");
    ra_buf_u64(b, h->blob_evictions);
    ra_buf_ch(b, '\n');

    ra_rep_prom_family(b, "robots_audit_ledger_entries", "gauge",
        "Ledger records in use.");
    ra_buf_printf(b, "robots_audit_ledger_entries{table=\"sites\"} %u\n"
                  "robots_audit_ledger_entries{table=\"stats\"} %u\n",
                  h->sites, h->stats);
    ra_rep_prom_family(b, "robots_audit_ledger_capacity", "gauge",
        "Ledger records the region holds.");
    ra_buf_printf(b, "robots_audit_ledger_capacity{table=\"sites\"} %u\n"
                  "robots_audit_ledger_capacity{table=\"stats\"} %u\n"
                  "robots_audit_ledger_capacity{table=\"violations\"} %u\n",
                  h->plan.sites, h->plan.stats, h->plan.violations);
    ra_rep_prom_family(b, "robots_audit_ledger_blob_free_bytes", "gauge",
        "Free bytes of the robots.txt body heap.");
    ra_buf_printf(b, "robots_audit_ledger_blob_free_bytes %u\n",
                  h->blob_free_bytes);
    ra_rep_prom_family(b, "robots_audit_judged_requests_total", "counter",
        "Crawler requests the audit engine judged or counted as robots.txt "
        "fetches, all sites (not browsers').");
    ra_buf_cstr(b, "robots_audit_judged_requests_total ");
    ra_buf_u64(b, h->crawler_requests);
    ra_buf_ch(b, '\n');
    ra_rep_prom_family(b, "robots_audit_violations_total", "counter",
        "Violations recorded, all sites.");
    ra_buf_cstr(b, "robots_audit_violations_total ");
    ra_buf_u64(b, h->violations_total);
    ra_buf_ch(b, '\n');

    if (r->opts->with_lines) {
        uint64_t  left;

        ra_rep_prom_family(b, "robots_audit_log_lines_total", "counter",
            "Access-log lines read (malformed: not in the log's format).");
        ra_buf_cstr(b, "robots_audit_log_lines_total{result=\"parsed\"} ");
        left = r->opts->malformed_lines + r->opts->filtered_lines;
        ra_buf_u64(b, r->opts->lines - (left <= r->opts->lines
                                        ? left : r->opts->lines));
        ra_buf_cstr(b, "\nrobots_audit_log_lines_total"
                    "{result=\"malformed\"} ");
        ra_buf_u64(b, r->opts->malformed_lines);
        ra_buf_ch(b, '\n');
        if (r->opts->filtered_lines) {
            /* left out of the counts by the CLI's filters */
            ra_buf_cstr(b, "robots_audit_log_lines_total"
                        "{result=\"filtered\"} ");
            ra_buf_u64(b, r->opts->filtered_lines);
            ra_buf_ch(b, '\n');
        }
    }
}

/*
 * The page, whole when it fits the buffer's cap; else without the
 * per-crawler families (level 1), else with the ledger's totals alone
 * (level 2), never a failure because of what clients sent: the series
 * per site are bounded (ra_report.h, docs/limits.md), so a page that
 * still does not fit holds many sites or verified crawlers.  The
 * caller's opts->prom_sites_only starts at level 1.
 */
void
ra_rep_prom(ra_rep_t *r)
{
    size_t    mark = r->b->len;
    unsigned  level;

    for (level = r->opts->prom_sites_only ? 1 : 0; level < 3; level++) {
        r->b->len = mark;
        r->b->truncated = 0;
        if (level == 0) {
            ra_rep_prom_crawlers(r);
        }
        if (level < 2) {
            ra_rep_prom_sites(r);
            ra_rep_pages_prom(r);
        }
        ra_rep_prom_totals(r, level);
        if (!r->b->truncated || r->b->failed) {
            break;
        }
    }
}
