/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mod_robots_audit's private header: what the glue's files share.
 *
 *   mod_robots_audit.c  module record, directives, startup, child init
 *                       and its resolver thread
 *   mra_request.c       judging: fixups (enforce), log_transaction
 *   mra_capture.c       the output filter: robots.txt, crawlers' pages
 *                       and sitemaps as served
 *   mra_status.c        the status page and mod_status's section
 *
 * Every decision is the core's (common/); these files translate Apache's
 * types and hooks to its calls.  Names here are mra_ (ra_ is the core's).
 */
#ifndef MRA_H
#define MRA_H

#include "httpd.h"
#include "http_config.h"
#include "http_core.h"
#include "http_log.h"
#include "http_protocol.h"
#include "http_request.h"

#include "apr_global_mutex.h"
#include "apr_strings.h"

#include "ra_core.h"
#include "ra_audit.h"
#include "ra_audit_want.h"
#include "ra_directive.h"
#include "ra_engines.h"
#include "ra_host.h"
#include "ra_http.h"
#include "ra_kind.h"
#include "ra_ledger.h"
#include "ra_ledger_file.h"
#include "ra_outcome.h"
#include "ra_setup.h"
#include "ra_tags.h"

#include <pthread.h>
#include <string.h>

extern module AP_MODULE_DECLARE_DATA robots_audit_module;

APLOG_USE_MODULE(robots_audit);

#define MRA_HANDLER        "robots-audit-status"
#define MRA_ZONE_NAME      "the ledger (RobotsAuditZoneSize)"
#define MRA_FILTER         "ROBOTS_AUDIT_CAPTURE"
#define MRA_NOTE_CAPTURED  "robots-audit-captured"
/* ... and handed to the core, which bound the client to it */
#define MRA_NOTE_RECORDED  "robots-audit-recorded"

/* The glue's own lines: "robots-audit: [TAG] ...", with Apache's status
 * text when rv is an APR error.  tag is an RA_TAG_* macro. */
#define MRA_LOG(level, rv, s, tag, ...)                                   \
    ap_log_error(APLOG_MARK, level, rv, s,                               \
                 RA_LOG_PREFIX "[" tag "] " __VA_ARGS__)
#define MRA_RLOG(level, rv, r, tag, ...)                                  \
    ap_log_rerror(APLOG_MARK, level, rv, r,                              \
                  RA_LOG_PREFIX "[" tag "] " __VA_ARGS__)

/* Per directory / location: RobotsAudit, RobotsAuditEnforce. */
typedef struct {
    ra_conf_scope_t  conf;
} mra_dir_conf;

/* The module's state in this process, one per configuration (in pconf:
 * a restart reads the configuration into a new one), set in post_config
 * (parent) and child_init; every server's record points to it. */
typedef struct {
    ra_host_t            host;
    ra_ledger_t          ledger;
    ra_audit_t          *audit;         /* NULL: this process does not
                                           audit */
    apr_global_mutex_t  *mutex;         /* the ledger's */
    ap_filter_rec_t     *filter;        /* the capture's, found once: not
                                           by its name for each answer */
    ra_outcome_logs_t    logs;          /* RobotsAuditAlertLog's and
                                           RobotsAuditEvidenceLog's: the
                                           descriptors below, or file NULL */
    int                  fds[RA_LOGFILES + 1];  /* and RobotsAuditEvents'
                                           (ra_conf_logs_open()) */
    /* a threaded child: its threads queue before the global mutex, and
     * each judges with its own engine */
    ra_engines_lock_t    lock;          /* the host's ledger lock */
    ra_engines_t        *engines;       /* NULL: unthreaded */
    ra_audit_conf_t      audit_conf;
    ra_conf_main_t       conf;          /* the global directives' values;
                                           enforce_wanted: the fixups hook
                                           is in */
    ra_ledger_saver_t    saver;         /* the parent's saves of
                                           RobotsAuditState */
} mra_state;

/* Per server; the global settings live in the module's state. */
typedef struct {
    mra_state         *st;              /* the module's, shared */
    ra_conf_server_t   conf;            /* RobotsAuditRobotsFile; names
                                           built in post_config */
} mra_srv_conf;

#define mra_sconf(s)  ((mra_srv_conf *)                                   \
    ap_get_module_config((s)->module_config, &robots_audit_module))
#define mra_dconf(r)  ((mra_dir_conf *)                                   \
    ap_get_module_config((r)->per_dir_config, &robots_audit_module))
#define mra_st(s)     (mra_sconf(s)->st)

/* RobotsAudit On for r (enforce: and something enforced there), and a
 * ledger to count in */
static inline int
mra_on(request_rec *r, int enforce)
{
    mra_dir_conf  *d = mra_dconf(r);

    return mra_st(r->server)->audit != NULL && d != NULL
           && ra_conf_scope_audits(&d->conf, enforce);
}

static inline int
mra_is_status_handler(request_rec *r)
{
    /* every request asks: most handlers differ in the first byte */
    return r->handler != NULL && r->handler[0] == MRA_HANDLER[0]
           && strcmp(r->handler, MRA_HANDLER) == 0;
}

/* The site r counts for: its virtual host's names pick it (ra_http.h). */
static inline ra_str_t
mra_site(request_rec *r)
{
    const ra_sitenames_t  *n = &mra_sconf(r->server)->conf.names;

    /* a host of one name: its Host is not even measured */
    return ra_sitenames_one(n) ? n->primary
                               : ra_sitenames_pick(n, ra_str_z(r->hostname));
}

/* The request target as received: the core reads its path, canonical
 * form included (ra_http.h).  Not r->parsed_uri.path: httpd normalises
 * and %-decodes that in place ("/robots.txt%3F" becomes "/robots.txt?"),
 * and the core must see what nginx's glue sees. */
static inline ra_str_t
mra_target(request_rec *r)
{
    return ra_str_z(r->unparsed_uri);
}

/* A server's own page by its handler (the status page, mod_status's,
 * mod_info's): never crawler traffic (ra_http_server_page()).  Their
 * default paths the core leaves alone itself (ra_audit_request()). */
static inline int
mra_server_page(request_rec *r)
{
    /* no handler (a static file at log time): none of theirs */
    return r->handler != NULL
           && ra_http_server_page(ra_str("", 0), ra_str_z(r->handler), 0);
}

/* An ra_alloc_t over an APR pool, aligned as the core wants. */
ra_alloc_t *mra_pool_allocator(apr_pool_t *p);

/* hooks, registered by mod_robots_audit.c */
int mra_fixups(request_rec *r);
int mra_log_transaction(request_rec *r);
void mra_insert_filter(request_rec *r);
/* The word of the original request r's target kind (ra_kind.h), kept in
 * r's request_config: no allocation per request. */
static inline unsigned
mra_request_word(request_rec *r)
{
    return (unsigned) (uintptr_t) ap_get_module_config(r->request_config,
                                                       &robots_audit_module);
}

static inline void
mra_request_word_set(request_rec *r, unsigned w)
{
    ap_set_module_config(r->request_config, &robots_audit_module,
                         (void *) (uintptr_t) w);
}

/* r's target kind with RA_TARGET_KNOWN, asked once a request. */
static inline unsigned
mra_request_kind(request_rec *r)
{
    unsigned  w = mra_request_word(r), kind;

    if (w & RA_TARGET_KNOWN) {
        return ra_kind_known(w);
    }
    kind = ra_kind_word(&w, mra_target(r));
    mra_request_word_set(r, w);
    return kind;
}
apr_status_t mra_capture_filter(ap_filter_t *f, apr_bucket_brigade *bb);
void mra_request(request_rec *r, int status, unsigned kind,
    ra_request_t *req);
/* Which redirect of its site's robots.txt r's target is the target of
 * (ra_audit_robots_hop()), 0 for none; no lookup unless some site
 * redirects now.  Takes the engine: not with it held. */
unsigned mra_robots_hop(request_rec *r);
int mra_status_handler(request_rec *r);
/* sends a reply the core made (ra_http.h); OK, or its status for
 * httpd's own page */
int mra_reply(request_rec *r, const ra_reply_t *a);
int mra_status_hook(request_rec *r, int flags);

#endif /* MRA_H */
