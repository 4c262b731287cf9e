/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The JSON report (docs/design.md, "JSON"): one document for all sites,
 * always valid UTF-8, printed from the model of ra_report_render.c.
 */
#include "ra_report_impl.h"
#include "ra_crawlers.h"

/* The counters of the last hours (ra_hours_sum()) as a JSON object. */
static void
ra_rep_json_window(ra_buf_t *b, const char *key, const ra_stat_t *st,
    int64_t now, unsigned hours)
{
    uint64_t  c[RA_CNT_MAX];
    unsigned  k;

    ra_hours_sum(st->hours, now, hours, c);
    ra_buf_printf(b, ",\"%s\":{", key);
    for (k = 0; k < RA_CNT_MAX; k++) {
        ra_buf_printf(b, "%s\"%s\":", k ? "," : "", ra_rep_counter_names[k]);
        ra_buf_u64(b, c[k]);
    }
    ra_buf_ch(b, '}');
}

static void
ra_rep_json_hours(ra_buf_t *b, const ra_stat_t *st, int64_t now)
{
    ra_rep_json_window(b, "last_hour", st, now, 1);
    ra_rep_json_window(b, "last_24h", st, now, RA_HOURS);
}

/* [{line, type, pattern, matched, violations}] */
static void
ra_rep_json_hits(ra_buf_t *b, const ra_rep_hits_t *hp)
{
    const ra_rep_hits_t  h = *hp;
    unsigned             i;

    ra_buf_cstr(b, ",\"rule_hits\":[");
    for (i = 0; i < h.n; i++) {
        ra_buf_printf(b, "%s{\"line\":%u,\"type\":\"%s\",\"pattern\":",
                      i ? "," : "", h.hits[i].line,
                      h.hits[i].allow ? "allow" : "disallow");
        if (h.value[i].data != NULL) {
            ra_buf_json_str(b, h.value[i]);
        } else {
            ra_buf_cstr(b, "null");
        }
        ra_buf_cstr(b, ",\"matched\":");
        ra_buf_u64(b, h.hits[i].matched);
        ra_buf_cstr(b, ",\"violations\":");
        ra_buf_u64(b, h.hits[i].violations);
        ra_buf_ch(b, '}');
    }
    ra_buf_ch(b, ']');
}

/* ?crawler=: the lines that decided the record's requests */
static void
ra_rep_json_crawler_hits(ra_rep_t *r, uint32_t si, const ra_stat_t *st)
{
    ra_rep_hits_t  h;

    if (!r->opts->crawler_rules) {
        return;
    }
    ra_rep_crawler_hits(r, si, st, &h);
    ra_rep_json_hits(r->b, &h);
}

/* robots.rule_hits, and what the entries leave out */
static void
ra_rep_json_rule_hits(ra_rep_t *r, uint32_t si)
{
    const ra_site_t  *s = &r->snap->sites[si];
    ra_buf_t         *b = r->b;
    ra_rep_hits_t     h;

    ra_rep_hits(r, si, &h);
    ra_rep_json_hits(b, &h);
    ra_buf_printf(b, ",\"rule_hits_lines_kept\":%u,\"rule_hits_other\":"
                  "{\"matched\":", RA_RULE_LINES);
    ra_buf_u64(b, h.n ? s->rule_other_matched : 0);
    ra_buf_cstr(b, ",\"violations\":");
    ra_buf_u64(b, h.n ? s->rule_other_violations : 0);
    ra_buf_ch(b, '}');
}

/* counting_since, and episodes: newest first */
static void
ra_rep_json_site_time(ra_rep_t *r, uint32_t si)
{
    const ra_site_t     *s = &r->snap->sites[si];
    const ra_episode_t  *e;
    ra_buf_t            *b = r->b;
    unsigned             k, i, n;

    ra_buf_cstr(b, ",\"counting_since\":");
    ra_rep_json_time(b, s->created);
    ra_buf_cstr(b, ",\"episodes\":[");
    for (k = 0, n = 0; (e = ra_rep_episode(s, k)) != NULL; k++) {
        ra_buf_cstr(b, n++ ? ",{\"start\":" : "{\"start\":");
        ra_rep_json_time(b, e->start);
        ra_buf_cstr(b, ",\"end\":");
        ra_rep_json_time(b, e->end);
        ra_buf_printf(b, ",\"duration_ms\":%lld,\"answers\":%u,"
                      "\"status\":%u,\"crawlers\":[",
                      (long long) ra_rep_episode_ms(e, r->now), e->answers,
                      e->status);
        for (i = 0; i < e->ncrawlers && i < RA_EPISODE_CRAWLERS; i++) {
            ra_buf_cstr(b, i ? ",{\"crawler\":" : "{\"crawler\":");
            ra_buf_json_str(b, ra_rep_field(e->name[i], e->name_len[i]));
            ra_buf_printf(b, ",\"requests\":%u}", e->requests[i]);
        }
        ra_buf_printf(b, "],\"other_requests\":%u}", e->others);
    }
    ra_buf_ch(b, ']');
}

/* A string, or null when it is absent. */
static void
ra_rep_json_opt(ra_buf_t *b, ra_str_t s, int present)
{
    if (present) {
        ra_buf_json_str(b, s);
    } else {
        ra_buf_cstr(b, "null");
    }
}

/* ,"verified_by": the method that decided a verification ("ranges",
 * "rdns", "signature"; a crawler's record: the last one), null when none
 * did, so that a reader can tell how far to trust it. */
static void
ra_rep_json_method(ra_buf_t *b, const char *m)
{
    if (*m) {
        ra_buf_printf(b, ",\"verified_by\":\"%s\"", m);
    } else {
        ra_buf_cstr(b, ",\"verified_by\":null");
    }
}

/* A violation's evidence: verified_by, robots_sha256, last_robots_fetch */
static void
ra_rep_json_evidence(ra_buf_t *b, const ra_rep_vio_t *w)
{
    ra_rep_json_method(b, w->verified_by);
    ra_buf_cstr(b, ",\"robots_sha256\":");
    if (w->sha_known) {
        ra_buf_printf(b, "\"%s\"", w->sha);
    } else {
        ra_buf_cstr(b, "null");
    }
    ra_buf_cstr(b, ",\"last_robots_fetch\":");
    ra_rep_json_time(b, w->x->last_fetch);
}

static void
ra_rep_json_findings(ra_rep_t *r, const ra_lint_t *l)
{
    ra_buf_t  *b = r->b;
    uint32_t   i;

    ra_buf_cstr(b, ",\"findings\":[");
    for (i = 0; i < ra_rep_findings_shown(r, l); i++) {
        const ra_lint_finding_t  *f = &l->findings[i];

        ra_buf_printf(b, "%s{\"line\":%u,\"column\":%u,\"severity\":\"%s\","
                      "\"code\":\"%s\",\"message\":", i ? "," : "",
                      f->line, f->column,
                      ra_lint_severity_name(f->severity),
                      ra_lint_code_name(f->code));
        ra_buf_json_str(b, f->message);
        ra_buf_ch(b, '}');
    }
    ra_buf_printf(b, "],\"findings_not_shown\":%u",
                  ra_rep_findings_hidden(r, l));
}

/* The version in force: since when, its size, its SHA-256. */
static void
ra_rep_json_in_force(ra_buf_t *b, const ra_rep_robots_t *m)
{
    const ra_version_t  *v = m->v;

    if (v == NULL) {
        ra_buf_cstr(b, "null");
        return;
    }
    ra_buf_cstr(b, "{\"since\":");
    ra_rep_json_time(b, v->first_seen);
    ra_buf_printf(b, ",\"status\":%u,\"answer\":\"%s\",\"bytes\":%u,"
                  "\"decoded_bytes\":%u,\"content_type\":", v->status,
                  ra_rep_answer_name(v->answer), v->size, m->decoded);
    ra_rep_json_opt(b, m->ctype, m->ctype.len != 0);
    ra_buf_printf(b, ",\"sha256\":\"%s\"}", m->sha);
}

/* JSON "referrals": [{operator, referrals, crawler_requests}], the
 * operators with a count. */
static void
ra_rep_json_referrals(ra_rep_t *r, const ra_site_t *s)
{
    unsigned  k, n = 0;

    ra_buf_cstr(r->b, ",\"referrals\":[");
    for (k = 0; ra_rep_referral_next(r, s, &k); k++) {
        ra_buf_cstr(r->b, n++ ? ",{\"operator\":" : "{\"operator\":");
        ra_buf_json_str(r->b, r->refer.ops[k].name);
        ra_buf_cstr(r->b, ",\"referrals\":");
        ra_buf_u64(r->b, s->referrals[k]);
        ra_buf_cstr(r->b, ",\"crawler_requests\":");
        ra_buf_u64(r->b, s->referral_crawls[k]);
        ra_buf_ch(r->b, '}');
    }
    ra_buf_ch(r->b, ']');
}

/* JSON "ai_preferences" (Content-Signal and Content-Usage lines as
 * written, with their group) and "policy_tokens" (groups for tokens no
 * crawler fetches with, and what they control), as lint found them */
static void
ra_rep_json_prefs(ra_rep_t *r, const ra_lint_t *l)
{
    static const char     *kind[] = { "content-signal", "content-usage" };
    const ra_lint_pref_t  *p;
    ra_str_t               agent, text;
    uint32_t               i, k, n;

    for (k = 0; k < 2; k++) {
        ra_buf_cstr(r->b, k ? ",\"policy_tokens\":["
                            : ",\"ai_preferences\":[");
        for (i = 0, n = 0;
             (p = ra_rep_pref_next(l, k, &i, &agent, &text)) != NULL; n++)
        {
            ra_buf_cstr(r->b, n ? "," : "");
            if (k == 1) {
                ra_buf_cstr(r->b, "{\"token\":");
                ra_buf_json_str(r->b, agent);
                ra_buf_cstr(r->b, ",\"controls\":");
                ra_buf_json_str(r->b, text);
            } else {
                ra_buf_printf(r->b, "{\"kind\":\"%s\",\"value\":",
                              kind[p->kind == RA_LINT_PREF_USAGE]);
                ra_buf_json_str(r->b, text);
                ra_buf_cstr(r->b, ",\"group\":");
                ra_rep_json_opt(r->b, agent, agent.len != 0);
            }
            ra_buf_printf(r->b, ",\"line\":%u}", p->line);
        }
        ra_buf_ch(r->b, ']');
    }
    ra_buf_printf(r->b, ",\"ai_preferences_more\":%u", l->more_prefs);
}

/* "robots": the last answer, the version in force and its lint */
static void
ra_rep_json_robots(ra_rep_t *r, uint32_t si)
{
    const ra_site_t     *s = &r->snap->sites[si];
    ra_buf_t            *b = r->b;
    ra_rep_robots_t      m;
    const ra_version_t  *v;
    unsigned             c;

    ra_rep_robots(r, si, &m);
    v = m.v;
    ra_buf_cstr(b, ",\"robots\":{\"status\":");
    if (s->robots_status) {
        ra_buf_printf(b, "%u", s->robots_status);
    } else {
        ra_buf_cstr(b, "null");
    }
    /* status, answer, content_type, bytes, date: the last answer as it
     * was; in_force (and the decoding and lint members): the version
     * crawlers go by */
    ra_buf_printf(b, ",\"answer\":\"%s\",\"content_type\":", m.last_answer);
    ra_rep_json_opt(b, m.last_ctype, m.last_ctype.len != 0);
    ra_buf_printf(b, ",\"bytes\":%u,\"in_force\":", s->last_size);
    ra_rep_json_in_force(b, &m);
    ra_buf_printf(b, ",\"decoded_bytes\":%u,\"content_encoding\":",
                  m.decoded);
    ra_rep_json_opt(b, m.coding, m.coding.len != 0);
    ra_buf_printf(b, ",\"truncated\":%s,\"body_lost\":%s,"
                  "\"versions_24h\":%u,\"date\":",
                  v && v->truncated ? "true" : "false",
                  v && v->body_lost ? "true" : "false", m.versions_24h);
    ra_rep_json_time(b, s->robots_date);
    ra_buf_printf(b, ",\"consecutive_failures\":%u,\"unreachable_since\":",
                  s->failures);
    ra_rep_json_time(b, s->unreachable_since);
    ra_buf_cstr(b, ",\"failing_since\":");
    ra_rep_json_time(b, s->failing_since);
    ra_buf_printf(b, ",\"unreachable_30d\":%s",
                  m.unreachable_30d ? "true" : "false");
    /* where /robots.txt redirects within the site, hop by hop */
    ra_buf_cstr(b, ",\"redirected_to\":[");
    for (c = 0; c < m.redirects; c++) {
        if (c) {
            ra_buf_ch(b, ',');
        }
        ra_buf_json_str(b, ra_rep_redirect(s, c));
    }
    ra_buf_ch(b, ']');
    ra_buf_cstr(b, ",\"undecodable\":");
    if (s->undecodable) {
        ra_buf_cstr(b, "{\"content_encoding\":");
        ra_buf_json_str(b, m.bad_coding);
        ra_buf_cstr(b, ",\"since\":");
        ra_rep_json_time(b, s->undecodable);
        ra_buf_ch(b, '}');
    } else {
        ra_buf_cstr(b, "null");
    }
    ra_buf_printf(b, ",\"groups\":%u,\"rules\":%u,\"sitemaps\":%u,"
                  "\"errors\":%u,\"warnings\":%u,\"infos\":%u",
                  v ? v->groups : 0, v ? v->rules : 0, v ? v->sitemaps : 0,
                  m.errors, v ? v->lint_warnings : 0, v ? v->lint_infos : 0);
    if (r->lints[si] != NULL) {
        ra_rep_json_findings(r, r->lints[si]);
        ra_rep_json_prefs(r, r->lints[si]);
    }
    ra_rep_json_rule_hits(r, si);
    ra_buf_ch(b, '}');
}

/* One crawler row of "crawlers" */
static void
ra_rep_json_crawler(ra_rep_t *r, uint32_t si, const ra_stat_t *st)
{
    ra_buf_t      *b = r->b;
    ra_rep_row_t   w;
    unsigned       c;

    ra_rep_row(r, st, &w);
    ra_buf_json_str(b, w.name);
    ra_buf_cstr(b, ",\"token\":");
    ra_rep_json_opt(b, w.token, w.token.len != 0);
    ra_buf_printf(b, ",\"kind\":\"%s\",\"category\":",
                  st->kind == RA_UA_KNOWN ? "known"
                  : st->kind == RA_UA_GENERIC ? "generic" : "browser");
    if (st->kind == RA_UA_KNOWN) {
        ra_buf_printf(b, "\"%s\"", ra_crawler_category_name(st->category));
    } else {
        ra_buf_cstr(b, "null");
    }
    ra_buf_cstr(b, ",\"purpose\":");
    if (w.purpose != NULL) {
        ra_buf_printf(b, "\"%s\"", w.purpose);
    } else {
        ra_buf_cstr(b, "null");
    }
    ra_buf_printf(b, ",\"verification\":\"%s\"", w.verification);
    ra_rep_json_method(b, w.verified_by);
    for (c = 0; c < RA_CNT_MAX; c++) {
        ra_buf_printf(b, ",\"%s\":", ra_rep_counter_names[c]);
        ra_buf_u64(b, st->counters[c]);
    }
    ra_buf_cstr(b, ",\"first_seen\":");
    ra_rep_json_time(b, st->first_seen);
    ra_buf_cstr(b, ",\"last_seen\":");
    ra_rep_json_time(b, st->last_seen);
    ra_rep_json_hours(b, st, r->now);
    ra_rep_json_crawler_hits(r, si, st);
    ra_buf_printf(b, ",\"peak_per_minute\":%u,\"median_gap_ms\":", w.peak);
    if (w.gap >= 0) {
        ra_buf_printf(b, "%lld", (long long) w.gap);
    } else {
        ra_buf_cstr(b, "null");
    }
    ra_buf_cstr(b, ",\"crawl_delay_ms\":");
    if (w.delay >= 0) {
        ra_buf_printf(b, "%lld", (long long) w.delay);
    } else {
        ra_buf_cstr(b, "null");
    }
    ra_buf_cstr(b, ",\"last_robots_fetch\":");
    if (st->last_fetch) {
        ra_buf_cstr(b, "{\"time\":");
        ra_rep_json_time(b, st->last_fetch);
        ra_buf_printf(b, ",\"status\":%u}", st->last_fetch_status);
    } else {
        ra_buf_cstr(b, "null");
    }
    ra_buf_ch(b, '}');
}

/* One entry of "recent_violations" */
static void
ra_rep_json_violation(ra_rep_t *r, const ra_rep_vio_t *w, uint32_t n)
{
    const ra_violation_t  *x = w->x;
    ra_buf_t              *b = r->b;

    ra_buf_cstr(b, n ? ",{\"time\":" : "{\"time\":");
    ra_rep_json_time(b, x->time);
    ra_buf_cstr(b, ",\"time_ms\":");
    ra_buf_printf(b, "%lld", (long long) x->time);
    ra_buf_printf(b, ",\"verdict\":\"%s\",\"crawler\":", w->verdict);
    ra_buf_json_str(b, w->name);
    ra_buf_printf(b, ",\"verification\":\"%s\",\"client\":",
                  w->verification);
    ra_buf_json_str(b, w->addr);
    ra_buf_cstr(b, ",\"method\":");
    ra_buf_json_str(b, w->method);
    ra_buf_cstr(b, ",\"uri\":");
    ra_buf_json_str(b, w->uri);
    ra_buf_printf(b, ",\"uri_truncated\":%s,\"rule\":",
                  w->uri_cut ? "true" : "false");
    ra_rep_json_opt(b, w->pattern, x->pattern_len || x->line);
    ra_buf_printf(b, ",\"line\":%u", x->line);
    ra_rep_json_evidence(b, w);
    ra_buf_ch(b, '}');
}

/* "evicted": what the site's records evicted so far had counted, with
 * a crawler record's counter names, and how many records they were */
static void
ra_rep_json_evicted(ra_buf_t *b, const ra_site_t *s)
{
    uint64_t  c[RA_CNT_MAX];
    unsigned  k;

    ra_buf_cstr(b, ",\"evicted\":{\"records\":");
    ra_buf_u64(b, ra_rep_evicted(s, c));
    for (k = 0; k < RA_CNT_MAX; k++) {
        ra_buf_printf(b, ",\"%s\":", ra_rep_counter_names[k]);
        ra_buf_u64(b, c[k]);
    }
    ra_buf_ch(b, '}');
}

static void
ra_rep_json_site(ra_rep_t *r, uint32_t si)
{
    const ra_site_t  *s = &r->snap->sites[si];
    ra_buf_t         *b = r->b;
    uint32_t          n;

    ra_buf_cstr(b, "{\"site\":");
    ra_buf_json_str(b, ra_rep_site_name(s));
    ra_rep_json_robots(r, si);

    ra_buf_cstr(b, ",\"requests\":");
    ra_buf_u64(b, s->counters[RA_CNT_REQUESTS]);
    ra_buf_cstr(b, ",\"browser_requests\":");
    ra_buf_u64(b, s->browser_requests);
    ra_buf_cstr(b, ",\"no_user_agent\":");
    ra_buf_u64(b, s->no_user_agent);
    ra_buf_cstr(b, ",\"evidence_dropped\":");
    ra_buf_u64(b, s->evidence_dropped);
    ra_buf_cstr(b, ",\"first_seen\":");
    ra_rep_json_time(b, s->created);
    ra_buf_cstr(b, ",\"last_seen\":");
    ra_rep_json_time(b, s->last_seen);
    ra_rep_json_site_time(r, si);

    /* crawlers: those of the snapshot (a view's, or every record) */
    ra_buf_cstr(b, ",\"crawlers\":[");
    for (n = 0; n < ra_rep_rows_shown(r, si); n++) {
        ra_buf_cstr(b, n ? ",{\"crawler\":" : "{\"crawler\":");
        ra_rep_json_crawler(r, si, r->ents[r->first[si] + n].st);
    }
    if (ra_rep_stats_total(r, si) > n) {
        r->cut = 1;
    }
    ra_buf_printf(b, "],\"crawlers_shown\":%u,\"crawlers_total\":%u", n,
                  ra_rep_stats_total(r, si));
    ra_rep_json_evicted(b, s);
    ra_rep_json_referrals(r, s);
    ra_rep_undeclared_json(r, si);
    ra_rep_sitemaps_json(r, si);
    ra_rep_pages_json(r, si);

    /* recent violations of this site, newest first */
    ra_buf_cstr(b, ",\"recent_violations\":[");
    n = ra_rep_violations(r, si, ra_rep_json_violation);
    if (s->violations_total > n) {
        r->cut = 1;
    }
    ra_buf_printf(b, "],\"recent_violations_shown\":%u,"
                  "\"recent_violations_total\":%u}", n,
                  s->violations_total > n ? s->violations_total : n);
}

/* "rdns": reverse-DNS lookups (ra_rdns.h) */
static void
ra_rep_json_rdns(ra_buf_t *b, const ra_totals_t *h)
{
    ra_buf_printf(b, ",\"rdns\":{\"pending\":%u,\"verified\":",
                  h->rdns_pending);
    ra_buf_u64(b, h->rdns_verified);
    ra_buf_cstr(b, ",\"failed\":");
    ra_buf_u64(b, h->rdns_failed);
    ra_buf_cstr(b, ",\"lookups\":");
    ra_buf_u64(b, h->rdns_lookups);
    ra_buf_cstr(b, ",\"refused\":");
    ra_buf_u64(b, h->rdns_refused);
    ra_buf_ch(b, '}');
}

/* ,"evidence_dropped":N,"log_write_errors":{"alert":N,"evidence":N} */
static void
ra_rep_json_lost(ra_buf_t *b, const ra_totals_t *h)
{
    unsigned  k;

    ra_buf_cstr(b, ",\"evidence_dropped\":");
    ra_buf_u64(b, h->evidence_dropped);
    ra_buf_cstr(b, ",\"log_write_errors\":{");
    for (k = 0; k < RA_LOGFILES; k++) {
        ra_buf_printf(b, k ? ",\"%s\":" : "\"%s\":", ra_logfile_name(k));
        ra_buf_u64(b, h->log_write_errors[k]);
    }
    ra_buf_ch(b, '}');
}

/* ,"events":{"sent":N,"dropped":N,"oversize":N}: the event stream's
 * lines by what became of them, when there is a stream */
static void
ra_rep_json_events(ra_buf_t *b, const ra_totals_t *h)
{
    unsigned  k;

    if (!ra_rep_events_any(h)) {
        return;
    }
    ra_buf_cstr(b, ",\"events\":{");
    for (k = 0; k < RA_EVENT_OUTCOMES; k++) {
        ra_buf_printf(b, k ? ",\"%s\":" : "\"%s\":",
                      ra_events_outcome_name(k));
        ra_buf_u64(b, h->events.lines[k]);
    }
    ra_buf_ch(b, '}');
}

/* ,"ranges":[{"file":..,"intervals":N,"modified":..,"age_seconds":N,
 * "stale":false},...]: each loaded range list's age, so that an old list
 * shows; modified and age_seconds null when its file's time is unknown. */
static void
ra_rep_json_ranges(ra_rep_t *r)
{
    ra_buf_t        *b = r->b;
    ra_rep_range_t   g;
    size_t           i;

    if (r->opts->ranges == NULL) {
        return;
    }
    ra_buf_cstr(b, ",\"ranges\":[");
    for (i = 0; i < ra_rep_ranges(r); i++) {
        ra_rep_range(r, i, &g);
        ra_buf_cstr(b, i ? ",{\"file\":" : "{\"file\":");
        ra_buf_json_str(b, g.name);
        ra_buf_printf(b, ",\"intervals\":%zu,\"modified\":", g.intervals);
        if (g.age < 0) {
            ra_buf_cstr(b, "null,\"age_seconds\":null");
        } else {
            ra_rep_json_time(b, g.mtime);
            ra_buf_printf(b, ",\"age_seconds\":%lld",
                          (long long) (g.age / 1000));
        }
        ra_buf_printf(b, ",\"stale\":%s}", g.stale ? "true" : "false");
    }
    ra_buf_ch(b, ']');
}

void
ra_rep_json(ra_rep_t *r)
{
    const ra_totals_t      *h = &r->snap->totals;
    ra_buf_t               *b = r->b;
    uint32_t                i;

    ra_buf_cstr(b, "{\"generated\":");
    ra_rep_json_time(b, r->now);
    ra_rep_json_ranges(r);
    ra_buf_cstr(b, ",\"sites\":[");
    for (i = 0; i < r->snap->nsites && !ra_rep_over_budget(r); i++) {
        if (i) {
            ra_buf_ch(b, ',');
        }
        ra_rep_json_site(r, ra_rep_nth(r, i));
    }
    r->sites_shown = i;
    ra_buf_printf(b, "],\"sites_shown\":%u,\"sites_total\":%u,"
                  "\"truncated\":%s", i, ra_rep_sites_total(r->snap),
                  r->cut || r->snap->truncated
                  || ra_rep_sites_total(r->snap) > i ? "true" : "false");
    ra_buf_cstr(b, ",\"ledger\":{\"requests\":");
    ra_buf_u64(b, h->requests);
    ra_buf_cstr(b, ",\"crawler_requests\":");
    ra_buf_u64(b, h->crawler_requests);
    ra_buf_cstr(b, ",\"violations\":");
    ra_buf_u64(b, h->violations_total);
    ra_buf_printf(b, ",\"sites\":%u,\"stats\":%u,\"capacity\":{\"sites\":%u,"
                  "\"stats\":%u,\"violations\":%u,\"blob_bytes\":%u},"
                  "\"evictions\":{\"sites\":",
                  h->sites, h->stats, h->plan.sites,
                  h->plan.stats, h->plan.violations, h->plan.blob_bytes);
    ra_buf_u64(b, h->site_evictions);
    ra_buf_cstr(b, ",\"stats\":");
    ra_buf_u64(b, h->stat_evictions);
    ra_buf_cstr(b, ",\"blobs\":");
    ra_buf_u64(b, h->blob_evictions);
    ra_buf_cstr(b, "}}");
    ra_rep_json_rdns(b, h);
    ra_rep_json_lost(b, h);
    ra_rep_json_events(b, h);
    if (r->opts->with_lines) {
        ra_buf_cstr(b, ",\"lines\":");
        ra_buf_u64(b, r->opts->lines);
        ra_buf_cstr(b, ",\"malformed_lines\":");
        ra_buf_u64(b, r->opts->malformed_lines);
        if (r->opts->skipped_lines) {
            ra_buf_cstr(b, ",\"skipped_lines\":");
            ra_buf_u64(b, r->opts->skipped_lines);
        }
        if (r->opts->filtered_lines) {
            ra_buf_cstr(b, ",\"filtered_lines\":");
            ra_buf_u64(b, r->opts->filtered_lines);
        }
    }
    ra_buf_cstr(b, "}\n");
}
