/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Forward-confirmed reverse-DNS lookups with c-ares: the PTR name of an
 * address, then the A and AAAA addresses of that name, from the server
 * given ("ADDR", "ADDR:PORT", "[V6]:PORT") or /etc/resolv.conf's, DNS only
 * (no hosts file, no search list).  Each query waits at most timeout_ms
 * per try, 2 tries: a lookup ends within about 4 * timeout_ms whatever
 * the server does.  Answers are hostile input: names are bounded and
 * checked by the core (ra_rdns_done_locked()).
 *
 * This is the resolver behind a host's rdns_start (ra_host.h) for the
 * hosts that have none of their own, the CLI (cli/ra_cli_rdns.c) and the
 * Apache module's resolver thread (ra_ares_thread.h): a result
 * is what they hand to ra_audit_rdns_done().  It lives below common/,
 * not in it, because the nginx module compiles every .c file of common/
 * itself and must not link c-ares: nginx resolves with its own resolver.
 */
#ifndef RA_ARES_H
#define RA_ARES_H

#include "ra_core.h"
#include "ra_rdns_lookup.h"
#include "ra_verify.h"

#define RA_ARES_FWD_MAX  RA_RDNS_FWD_MAX

typedef struct ra_ares_s  ra_ares_t;

/* a lookup's result, as every resolver's (ra_rdns_lookup.h) */
typedef ra_rdns_lookup_t  ra_ares_result_t;

/* NULL with err set ("bad resolver address ...") on failure. */
ra_ares_t *ra_ares_create(const char *server, int timeout_ms, char *err,
    size_t errlen);
void ra_ares_destroy(ra_ares_t *r);

/* Could a resolver ask server ("ADDR[:PORT]", "" for the system's)?
 * RA_OK, or RA_ERROR with err set as ra_ares_create() sets it: a
 * directive that names it is refused with that reason. */
int ra_ares_check(const char *server, char *err, size_t errlen);

/* One lookup, start to end (blocks the caller up to the bound above). */
void ra_ares_lookup(ra_ares_t *r, const ra_addr_t *a, ra_ares_result_t *res);

/* n lookups, at most max in flight at once (each as above); res[i] is
 * a[i]'s.  RA_OK, or RA_ENOMEM (nothing looked up). */
int ra_ares_lookup_many(ra_ares_t *r, const ra_addr_t *a, size_t n,
    ra_ares_result_t *res, unsigned max);

#endif /* RA_ARES_H */
