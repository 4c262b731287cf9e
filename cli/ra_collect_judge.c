/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The collector's judging of one event line (ra_events_read(), then the
 * engine's ra_audit_request() or ra_audit_robots(), an answer's body
 * matched by its SHA-256 when the line came without one), the reading of
 * a file of lines, and its page: the modules' status page with the
 * collector's own counters after the Prometheus one.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ra_collect.h"
#include "ra_digest.h"
#include "ra_status.h"

/* the answer's body: the line's own, or one an earlier line gave */
static int
ra_collect_body(ra_collect_t *x, const ra_event_t *ev, ra_str_t *body)
{
    unsigned  k = (ev->sha256[0] | (unsigned) ev->sha256[1] << 8)
                  % RA_COLLECT_BODIES;
    unsigned char  sha[RA_SHA256_LEN];

    if (ev->has_body) {
        /* a body is taken for the digest it came with only */
        if (ra_sha256(ev->body, sha) != RA_OK
            || memcmp(sha, ev->sha256, RA_SHA256_LEN) != 0)
        {
            return RA_ERROR;
        }
        free(x->bodies[k].body);
        x->bodies[k].body = malloc(ev->body.len + 1);
        if (x->bodies[k].body != NULL) {
            memcpy(x->bodies[k].body, ev->body.data, ev->body.len);
            memcpy(x->bodies[k].sha, sha, RA_SHA256_LEN);
            x->bodies[k].len = ev->body.len;
        }
        *body = ev->body;
        return RA_OK;
    }
    if (x->bodies[k].body != NULL
        && memcmp(x->bodies[k].sha, ev->sha256, RA_SHA256_LEN) == 0)
    {
        *body = ra_str(x->bodies[k].body, x->bodies[k].len);
        return RA_OK;
    }
    return RA_EAGAIN;
}

static void
ra_collect_request_of(const ra_event_t *ev, ra_request_t *r)
{
    memset(r, 0, sizeof(*r));
    r->site = ev->site;
    r->time = ev->time;
    r->addr = ev->client;
    r->user_agent = ev->user_agent;
    r->method = ev->method;
    r->uri = ev->uri;
    r->status = ev->status;
    r->referer = ev->referer;
    r->recorded = ev->recorded;
}

void
ra_collect_line(ra_collect_t *x, ra_str_t line)
{
    ra_event_t    ev;
    ra_request_t  r;
    ra_verdict_t  v;
    ra_answer_t   ans;
    int           rc;

    rc = ra_events_read(line, x->scratch, RA_EVENTS_LINE_MAX, &ev);
    if (rc != RA_OK) {
        if (rc == RA_ELIMIT) {
            x->n.oversize++;
        } else {
            x->n.malformed++;
        }
        return;
    }
    ra_collect_request_of(&ev, &r);
    if (ev.kind == RA_EVENT_REQUEST) {
        /* the engine sets every field of v */
        (void) ra_audit_request(x->au, &r, &v);
        x->n.judged++;
        return;
    }
    memset(&ans, 0, sizeof(ans));
    ans.status = ev.status;
    ans.content_type = ev.content_type.len ? ev.content_type
                                           : ra_str(NULL, 0);
    ans.size = ev.size;
    ans.truncated = ev.truncated;
    ans.undecodable = ev.undecodable;
    ans.location = ev.location;
    ans.hop = ev.hop;
    ans.req = ev.client.len || ev.user_agent.len ? &r : NULL;
    ans.initial = ans.req == NULL;
    if (ev.status >= 200 && ev.status < 300 && !ev.undecodable) {
        if (!ev.sha_known || ra_collect_body(x, &ev, &ans.body) != RA_OK) {
            x->n.no_body++;
            return;
        }
    }
    (void) ra_audit_robots(x->au, ev.site, &ans, ev.time);
    x->n.answers++;
}

int
ra_collect_file(ra_collect_t *x, const char *path)
{
    FILE   *f;
    char   *line = NULL;
    size_t  cap = 0;
    long    n;

    f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
    if (f == NULL) {
        ra_cli_error(RA_COLLECT_CMD, "cannot open %s: %s", path,
                     strerror(errno));
        return -1;
    }
    while ((n = ra_cli_getline(f, &line, &cap)) >= 0) {
        ra_collect_line(x, ra_str(line, (size_t) n));
    }
    free(line);
    if (f != stdin) {
        fclose(f);
    }
    return 0;
}

/* the collector's own counters, after the Prometheus page */
static void
ra_collect_prom(const ra_collect_t *x, ra_buf_t *out)
{
    ra_buf_cstr(out, "# HELP robots_audit_collector_events_total Event "
                "lines the collector read, by what became of them.\n"
                "# TYPE robots_audit_collector_events_total counter\n");
    ra_buf_printf(out, "robots_audit_collector_events_total{outcome="
                  "\"judged\"} %llu\n", (unsigned long long) x->n.judged);
    ra_buf_printf(out, "robots_audit_collector_events_total{outcome="
                  "\"answer\"} %llu\n", (unsigned long long) x->n.answers);
    ra_buf_printf(out, "robots_audit_collector_events_total{outcome="
                  "\"malformed\"} %llu\n",
                  (unsigned long long) x->n.malformed);
    ra_buf_printf(out, "robots_audit_collector_events_total{outcome="
                  "\"oversize\"} %llu\n", (unsigned long long) x->n.oversize);
    ra_buf_printf(out, "robots_audit_collector_events_total{outcome="
                  "\"no_body\"} %llu\n", (unsigned long long) x->n.no_body);
    ra_buf_printf(out, "robots_audit_collector_events_total{outcome="
                  "\"dropped\"} %llu\n", (unsigned long long) x->n.dropped);
}

void
ra_collect_page(ra_collect_t *x, ra_str_t method, ra_str_t query,
    int *status, const char **type, ra_buf_t *out)
{
    ra_status_src_t   src;
    ra_status_page_t  page;

    memset(&src, 0, sizeof(src));
    src.ledger = &x->ledger;
    src.crawlers = x->setup.crawlers;
    src.ranges = x->setup.ranges;
    (void) ra_status_page_src(&src, method, query, ra_host_now(NULL),
                              &ra_malloc_allocator, &page);
    *status = page.status;
    *type = page.content_type;
    if (!page.header_only) {
        ra_buf_add(out, page.body.data, page.body.len);
        if (page.status == 200 && strstr(page.content_type, "text/plain")
            && strstr(page.content_type, "version=0.0.4"))
        {
            ra_collect_prom(x, out);
        }
    }
    ra_status_page_free(&page);
}
