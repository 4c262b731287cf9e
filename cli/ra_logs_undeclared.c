/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Undeclared crawlers in 'robots-audit logs' (and --follow): every
 * request with a browser's User-Agent goes through its site's detector
 * table (ra_undeclared.h), judged against the '*' group of the site's
 * --robots file; a flagged client's whole window counts, and each of its
 * violations gets an evidence line (--evidence-log, crawler "undeclared")
 * and an RA104 alert line (--alert-log), written by the servers' own
 * ra_outcome_undeclared().  The report reads the tables
 * through ra_logs_undeclared_sites().
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ra_logs_impl.h"
#include "ra_outcome.h"
#include "ra_undeclared.h"
#include "ra_cloud.h"

#define RA_LOGS_UNDECL_SITES    256     /* sites with a table; later
                                           ones are not watched */
#define RA_LOGS_UNDECL_CLIENTS  4096    /* clients a site's table holds */
#define RA_LOGS_UNDECL_FLAGGED  256     /* flagged clients it keeps */

struct ra_logs_undecl_s {
    ra_undecl_site_t   sites[RA_LOGS_UNDECL_SITES];
    ra_rules_t        *rules[RA_LOGS_UNDECL_SITES];     /* NULL: none */
    ra_undecl_sites_t  set;
    size_t             last;            /* the site of the last request */
};

/* The table of a site, made on its first browser request */
static size_t
ra_logs_undecl_site(ra_logs_undecl_t *u, ra_str_t site, ra_logs_robots_t *rb)
{
    size_t          i;
    unsigned char  *name;

    /* most often the last request's site, spelt the same: no site is
     * in the set twice in any case, so it is the one the loop finds */
    if (u->last < u->set.n && site.len == u->sites[u->last].name.len
        && memcmp(site.data, u->sites[u->last].name.data, site.len) == 0)
    {
        return u->last;
    }
    for (i = 0; i < u->set.n; i++) {
        if (ra_strcaseeq(u->sites[i].name, site)) {
            u->last = i;
            return i;
        }
    }
    if (u->set.n == RA_LOGS_UNDECL_SITES) {
        return SIZE_MAX;
    }
    name = malloc(site.len + 1);
    u->sites[i].table = ra_undecl_create(&ra_malloc_allocator,
                                         RA_LOGS_UNDECL_CLIENTS,
                                         RA_LOGS_UNDECL_FLAGGED);
    if (name == NULL || u->sites[i].table == NULL) {
        free(name);
        free(u->sites[i].table);
        u->sites[i].table = NULL;
        return SIZE_MAX;
    }
    memcpy(name, site.data, site.len);
    u->sites[i].name = ra_str(name, site.len);
    u->rules[i] = NULL;
    if (rb != NULL && rb->text.data != NULL
        && ra_rules_compile(rb->text, &ra_malloc_allocator, &u->rules[i],
                            NULL) != RA_OK)
    {
        u->rules[i] = NULL;             /* judged as allowed */
    }
    u->set.n++;
    u->last = i;
    return i;
}

int
ra_logs_undeclared(ra_logs_ctx_t *x, const ra_request_t *req,
    ra_logs_robots_t *rb, const ra_addr_t *a)
{
    int                  fd = -1;
    ra_logs_undecl_t    *u;
    ra_undecl_out_t      o;
    ra_outcome_logs_t    logs;
    size_t               i;

    if (ra_ua_absent(req->user_agent) || req->method.len == 0
        || a == NULL)
    {
        return 0;
    }
    if (x->undecl == NULL) {
        x->undecl = calloc(1, sizeof(*x->undecl));
        if (x->undecl == NULL) {
            x->nomem++;
            return 0;
        }
        x->undecl->set.sites = x->undecl->sites;
    }
    u = x->undecl;
    i = ra_logs_undecl_site(u, req->site, rb);
    if (i == SIZE_MAX) {
        return 0;
    }
    memset(&o.r, 0, sizeof(o.r));
    memcpy(o.r.addr, a->b, sizeof(o.r.addr));
    o.r.time_ms = req->time;
    o.r.path = req->uri;
    o.r.referer = req->referer;
    o.r.user_agent = req->user_agent;
    o.r.cloud = ra_ranges_cloud(x->conf.cloud, a) >= 0;
    o.site = req->site;
    o.method = req->method;
    ra_undecl_judge(u->sites[i].table, u->rules[i], &o.r, req->method, 1,
                    &ra_malloc_allocator, &o.v);
    if (o.v.verdict != RA_UNDECL_V_VIOLATION) {
        return 0;
    }
    o.rec = *ra_undecl_record(u->sites[i].table, o.v.hit.rec - 1);
    /* every violation alerts: the CLI has no alert budget */
    o.alert = x->alerts != NULL;
    /* the modules' lines, by the same core code; the alert log is
     * flushed after each of its lines, so a write to its descriptor
     * comes after them */
    logs.evidence = x->evidence;
    memset(&logs.alert, 0, sizeof(logs.alert));
    if (x->alerts != NULL) {
        fd = fileno(x->alerts);
        logs.alert.write = ra_logfile_write_fd;
        logs.alert.file = &fd;
        logs.alert.name = x->o->alerts_path;
    }
    if (ra_outcome_undeclared(x->au, NULL, NULL, &o, &logs) != RA_OK) {
        ra_cli_error(RA_LOGS_CMD, "--evidence-log %s or --alert-log %s: "
                     "cannot write it",
                     x->evidence.name != NULL ? x->evidence.name : "-",
                     x->o->alerts_path != NULL ? x->o->alerts_path : "-");
        return -1;
    }
    return 0;
}

const ra_undecl_sites_t *
ra_logs_undeclared_sites(const ra_logs_ctx_t *x)
{
    static const ra_undecl_sites_t  none = { NULL, 0 };

    /* none yet still says so: "undeclared":[] */
    return x->undecl != NULL ? &x->undecl->set : &none;
}

void
ra_logs_undeclared_free(ra_logs_ctx_t *x)
{
    size_t  i;

    if (x->undecl == NULL) {
        return;
    }
    for (i = 0; i < x->undecl->set.n; i++) {
        free((void *) x->undecl->sites[i].name.data);
        free(x->undecl->sites[i].table);
        if (x->undecl->rules[i] != NULL) {
            ra_rules_free(x->undecl->rules[i]);
        }
    }
    free(x->undecl);
    x->undecl = NULL;
}
