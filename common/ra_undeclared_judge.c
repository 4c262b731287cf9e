/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Judging undeclared crawlers (ra_undeclared.h): a browser's request is
 * judged against the '*' group of the site's robots.txt, which feeds the
 * detector's "disallowed" signal; once its client is flagged, the verdict
 * counts in the client's record, a violation is kept among the recent
 * ones as evidence, and its alert line (RA104) says what it did and which
 * signals decided that it is a crawler.  The same code serves the servers
 * and 'robots-audit logs'.
 */
#include "ra_accesslog.h"
#include "ra_tags.h"
#include "ra_undeclared.h"

void
ra_undecl_judge(ra_undecl_t *t, const ra_rules_t *rules, ra_undecl_req_t *r,
    ra_str_t method, int whole_window, const ra_alloc_t *scratch,
    ra_undecl_verdict_t *v)
{
    int                shared;
    uint32_t           link;
    ra_undecl_rec_t   *rec;
    ra_undecl_viol_t  *slot;
    ra_rules_group_t   star;
    unsigned           kind;

    memset(v, 0, sizeof(*v));
    v->match.allowed = 1;
    /* the address first: people's is neither matched nor judged */
    link = ra_undecl_count_client(t, r, &shared);
    if (shared) {
        v->shared = 1;
        return;
    }
    kind = ra_undecl_path_kind(r->path);
    if (rules != NULL && kind != RA_UNDECL_ROBOTS) {
        /* no agents: the '*' group; a cut path is judged as cut.  The
         * path's shape first: a plain one (most are) takes the matcher's
         * short way, with ra_rules_match()'s answer */
        ra_rules_group(rules, NULL, 0, &star);
        (void) ra_rules_match_shaped(rules, RA_MODE_RFC, &star, r->path,
                                     ra_rules_path_shape(r->path), scratch,
                                     &v->match);
    }
    r->disallowed = !v->match.allowed;
    ra_undecl_see_entry(t, link, r, kind, &v->hit);
    if (v->hit.rec == 0) {
        return;
    }
    rec = ra_undecl_record(t, v->hit.rec - 1);
    if (v->hit.flagged_now && whole_window) {
        rec->violation += rec->before_violation;
        rec->compliant += rec->before_compliant;
    }
    if (kind == RA_UNDECL_ROBOTS) {
        v->verdict = RA_UNDECL_V_ROBOTS;
        return;
    }
    if (v->match.allowed) {
        rec->compliant++;
        v->verdict = RA_UNDECL_V_COMPLIANT;
        return;
    }
    rec->violation++;
    v->verdict = RA_UNDECL_V_VIOLATION;
    slot = ra_undecl_recent_slot(t);
    memset(slot, 0, sizeof(*slot));
    slot->time_ms = r->time_ms;
    memcpy(slot->addr, rec->addr, sizeof(slot->addr));
    slot->line = v->match.line;
    slot->method_len = (uint16_t) ra_str_cut(slot->method,
                                             sizeof(slot->method), method);
    slot->uri_len = (uint16_t) ra_str_cut(slot->uri, RA_UNDECL_URI_MAX,
                                          r->path);
    slot->rule_len = (uint16_t) ra_str_cut(slot->rule, RA_UNDECL_RULE_MAX,
                                           v->match.pattern);
}

ra_undecl_t *
ra_undecl_sites_find(const ra_undecl_sites_t *s, ra_str_t name)
{
    size_t  i;

    for (i = 0; s != NULL && i < s->n; i++) {
        if (ra_strcaseeq(s->sites[i].name, name)) {
            return s->sites[i].table;
        }
    }
    return NULL;
}

void
ra_undecl_signals_list(ra_buf_t *b, uint32_t signals, int json)
{
    uint32_t    bit;
    const char *sep = "";

    for (bit = 1; bit < 1u << RA_UNDECL_SIGNALS; bit <<= 1) {
        if (signals & bit) {
            ra_buf_cstr(b, sep);
            if (json) {
                ra_buf_json_str(b, ra_str_z(ra_undecl_signal_name(bit)));
            } else {
                ra_buf_cstr(b, ra_undecl_signal_name(bit));
            }
            sep = ",";
        }
    }
}

void
ra_undecl_alert(ra_buf_t *b, int json, ra_str_t site,
    const ra_undecl_rec_t *rec, const ra_undecl_req_t *r, ra_str_t method,
    const ra_match_t *m)
{
    char      client[48], when[24];
    ra_str_t  uri = r->path;

    ra_undecl_client(rec->addr, client);
    if (uri.len > RA_UNDECL_URI_MAX) {
        uri.len = RA_UNDECL_URI_MAX;
    }
    if (json) {
        ra_time_iso(r->time_ms, when);
        ra_buf_printf(b, "{\"time\":\"%s\",\"tag\":\"" RA_TAG_UNDECLARED
                      "\",\"verdict\":\"violation\",\"site\":", when);
        ra_buf_json_str(b, site);
        ra_buf_printf(b, ",\"crawler\":\"undeclared\",\"client\":\"%s\","
                      "\"method\":", client);
        ra_buf_json_str(b, method);
        ra_buf_cstr(b, ",\"uri\":");
        ra_buf_json_str(b, uri);
        ra_buf_cstr(b, ",\"rule\":");
        ra_buf_json_str(b, m->pattern);
        ra_buf_printf(b, ",\"line\":%u,\"score\":%d,\"signals\":[",
                      (unsigned) m->line, (int) rec->score);
        ra_undecl_signals_list(b, rec->signals, 1);
        ra_buf_cstr(b, "],\"user_agent\":");
        ra_buf_json_str(b, r->user_agent);
        ra_buf_cstr(b, "}\n");
        return;
    }
    ra_buf_cstr(b, RA_LOG_PREFIX "[" RA_TAG_UNDECLARED "] violation site=\"");
    ra_buf_log(b, site);
    ra_buf_printf(b, "\" crawler=\"undeclared\" client=%s method=", client);
    ra_buf_log(b, method);
    ra_buf_cstr(b, " uri=\"");
    ra_buf_log(b, uri);
    ra_buf_cstr(b, "\" rule=\"disallow: ");
    ra_buf_log(b, m->pattern);
    ra_buf_printf(b, "\" line=%u score=%d signals=", (unsigned) m->line,
                  (int) rec->score);
    ra_undecl_signals_list(b, rec->signals, 0);
}

void
ra_undecl_evidence(ra_buf_t *b, const ra_undecl_out_t *u)
{
    char      client[48], when[24];
    ra_str_t  uri = u->r.path;

    if (uri.len > RA_UNDECL_URI_MAX) {
        uri.len = RA_UNDECL_URI_MAX;
    }
    ra_time_iso(u->r.time_ms, when);
    ra_undecl_client(u->rec.addr, client);
    ra_buf_printf(b, "{\"time\":\"%s\",\"site\":", when);
    ra_buf_json_str(b, u->site);
    ra_buf_printf(b, ",\"crawler\":\"undeclared\",\"verification\":"
                  "\"unverifiable\",\"verified_by\":null,\"client\":\"%s\","
                  "\"method\":", client);
    ra_buf_json_str(b, u->method);
    ra_buf_cstr(b, ",\"uri\":");
    ra_buf_json_str(b, uri);
    ra_buf_cstr(b, ",\"rule\":");
    ra_buf_json_str(b, u->v.match.pattern);
    ra_buf_printf(b, ",\"line\":%u,\"robots_sha256\":null,"
                  "\"last_robots_fetch\":null,\"purpose\":null}\n",
                  (unsigned) u->v.match.line);
}
