/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Reverse DNS off the request path for a threaded server without a
 * resolver of its own (the Apache module): one thread runs the lookups
 * with c-ares (ra_ares.h, each bounded to about four times its timeout)
 * and hands each answer to a callback, while a worker only queues an
 * address, under a mutex held for the copy, so that no worker ever waits
 * for DNS.  A full queue refuses the lookup: it counts as failed and the
 * core asks again later.  It is the host's rdns_start (ra_host.h) through
 * ra_ares_thread_rdns_start(), with the thread in the host's rdns_ctx.
 */
#ifndef RA_ARES_THREAD_H
#define RA_ARES_THREAD_H

#include "ra_host.h"
#include "ra_ares.h"
#include "ra_audit.h"

/* how many addresses may wait for the thread */
#define RA_ARES_THREAD_QUEUE  64

typedef struct ra_ares_thread_s  ra_ares_thread_t;

/* What the thread does with an answer: ra_audit_rdns_done() on the
 * engine of the process, in the server's glue. */
typedef void (*ra_ares_thread_done_pt)(void *ctx, const ra_addr_t *a,
    const ra_ares_result_t *res);

/* Starts the thread, resolving with server ("ADDR[:PORT]", "" for
 * /etc/resolv.conf's) at timeout_ms a try; NULL with err set ("bad
 * resolver address ...", "cannot start the resolver thread") when it
 * cannot. */
ra_ares_thread_t *ra_ares_thread_create(const char *server, int timeout_ms,
    ra_ares_thread_done_pt done, void *ctx, char *err, size_t errlen);

/* Queues a lookup of addr (16 bytes): RA_OK, or RA_ERROR when the queue
 * is full or the thread stopping. */
int ra_ares_thread_start(ra_ares_thread_t *t, const uint8_t addr[16]);

/* host->rdns_start with the thread in h->rdns_ctx. */
int ra_ares_thread_rdns_start(const ra_host_t *h, void *where,
    const uint8_t addr[16]);

/* Stops the thread (the lookup under way ends first, within its bound;
 * those still queued are dropped), joins it and frees everything.  NULL
 * is nothing. */
void ra_ares_thread_destroy(ra_ares_thread_t *t);

/*
 * A server process's reverse DNS on a thread of its own (an Apache
 * child): a thread asking server (RobotsAuditResolver's ADDR[:PORT], ""
 * for /etc/resolv.conf's; NULL: the directive is absent and reverse DNS
 * off, nothing said) made h's rdns_start, each answer handed to the
 * engine *au holds when it comes (ra_rdns_lookup_end(); NULL then:
 * dropped).  A thread that cannot start is said through h at err
 * (RA_TAG_RDNS_OFF): that process verifies by ranges only, and goes on.
 * RA_OK when started.
 */
int ra_ares_thread_host_start(ra_host_t *h, const char *server,
    ra_audit_t *const *au);

/* Stops h's thread (ra_ares_thread_destroy()) and takes it off h.  It
 * takes the host and answers 0, as a server's pool cleanup does, so
 * that the glue registers it as one (before the engine goes). */
int ra_ares_thread_host_stop(void *h);

#endif /* RA_ARES_THREAD_H */
