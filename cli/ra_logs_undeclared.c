/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Undeclared crawlers in 'robots-audit logs' (and --follow): every
 * request with a browser's User-Agent goes through its site's detector
 * table (ra_undeclared.h), judged against the '*' group of the site's
 * --robots file; a flagged client's whole window counts, and each of its
 * violations gets an evidence line (--evidence-log, crawler "undeclared")
 * and an RA104 alert line (--alert-log).  The report reads the tables
 * through ra_logs_undeclared_sites().
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ra_logs_impl.h"
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
    ra_buf_t           line;
};

/* The table of a site, made on its first browser request */
static size_t
ra_logs_undecl_site(ra_logs_undecl_t *u, ra_str_t site, ra_logs_robots_t *rb)
{
    size_t          i;
    unsigned char  *name;

    for (i = 0; i < u->set.n; i++) {
        if (ra_strcaseeq(u->sites[i].name, site)) {
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
    return i;
}

/* The evidence line of a violation, as ra_evidence.h's keys */
static int
ra_logs_undecl_evidence(ra_logs_ctx_t *x, const ra_request_t *req,
    const ra_undecl_req_t *r, const ra_undecl_rec_t *rec,
    const ra_undecl_verdict_t *v)
{
    ra_buf_t  *b = &x->undecl->line;
    char       client[48], when[24];
    int        err = 0;

    b->len = 0;
    ra_time_iso(req->time, when);
    ra_undecl_client(rec->addr, client);
    ra_buf_printf(b, "{\"time\":\"%s\",\"site\":", when);
    ra_buf_json_str(b, req->site);
    ra_buf_printf(b, ",\"crawler\":\"undeclared\",\"verification\":"
                  "\"unverifiable\",\"verified_by\":null,\"client\":\"%s\","
                  "\"method\":", client);
    ra_buf_json_str(b, req->method);
    ra_buf_cstr(b, ",\"uri\":");
    ra_buf_json_str(b, r->path.len > RA_UNDECL_URI_MAX
                       ? ra_str(r->path.data, RA_UNDECL_URI_MAX) : r->path);
    ra_buf_cstr(b, ",\"rule\":");
    ra_buf_json_str(b, v->match.pattern);
    ra_buf_printf(b, ",\"line\":%u,\"robots_sha256\":null,"
                  "\"last_robots_fetch\":null,\"purpose\":null}\n",
                  (unsigned) v->match.line);
    if (b->failed
        || ra_logfile_line(&x->evidence, b->data, b->len, &err) != RA_OK)
    {
        ra_cli_error(RA_LOGS_CMD, "--evidence-log %s: cannot write it",
                     x->evidence.name);
        return -1;
    }
    return 0;
}

int
ra_logs_undeclared(ra_logs_ctx_t *x, const ra_request_t *req,
    ra_logs_robots_t *rb)
{
    ra_logs_undecl_t     *u;
    ra_addr_t             a;
    ra_undecl_req_t       r;
    ra_undecl_verdict_t   v;
    ra_undecl_rec_t      *rec;
    size_t                i;

    if (ra_ua_absent(req->user_agent) || req->method.len == 0
        || ra_addr_parse(req->addr, &a) != RA_OK)
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
        ra_buf_init(&x->undecl->line, &ra_malloc_allocator, 512, 0);
    }
    u = x->undecl;
    i = ra_logs_undecl_site(u, req->site, rb);
    if (i == SIZE_MAX) {
        return 0;
    }
    memset(&r, 0, sizeof(r));
    memcpy(r.addr, a.b, sizeof(r.addr));
    r.time_ms = req->time;
    r.path = req->uri;
    r.referer = req->referer;
    r.user_agent = req->user_agent;
    r.cloud = ra_ranges_cloud(x->conf.cloud, &a) >= 0;
    ra_undecl_judge(u->sites[i].table, u->rules[i], &r, req->method, 1,
                    &ra_malloc_allocator, &v);
    if (v.verdict != RA_UNDECL_V_VIOLATION) {
        return 0;
    }
    rec = ra_undecl_record(u->sites[i].table, v.hit.rec - 1);
    if (x->evidence.file != NULL
        && ra_logs_undecl_evidence(x, req, &r, rec, &v) != 0)
    {
        return -1;
    }
    if (x->alerts != NULL) {
        u->line.len = 0;
        ra_undecl_alert(&u->line, 1, req->site, rec, &r, req->method,
                        &v.match);
        if (fwrite(u->line.data, 1, u->line.len, x->alerts) != u->line.len
            || fflush(x->alerts) != 0)
        {
            ra_cli_error(RA_LOGS_CMD, "--alert-log %s: %s",
                         x->o->alerts_path, strerror(errno));
            return -1;
        }
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
    ra_buf_release(&x->undecl->line);
    free(x->undecl);
    x->undecl = NULL;
}
