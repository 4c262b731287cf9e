/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * One reverse-DNS lookup as a resolver's callbacks see it, decided once
 * for every resolver the servers use (nginx's own, c-ares's): what a
 * reply means (a record, none, or no answer at all), whether the PTR
 * name is resolved forward, which forward addresses are kept, and the
 * result handed to the engine.  The glue only runs its resolver's two
 * queries and hands each reply over.
 */
#ifndef RA_RDNS_LOOKUP_H
#define RA_RDNS_LOOKUP_H

#include "ra_core.h"
#include "ra_audit.h"
#include "ra_verify.h"

#define RA_RDNS_FWD_MAX  16             /* forward addresses kept */

/* What a query got: "no record" is an answer, a timeout is not. */
typedef enum {
    RA_RDNS_NO_ANSWER = -1,             /* timeout, SERVFAIL, refused */
    RA_RDNS_NO_RECORD = 0,              /* NXDOMAIN, NODATA */
    RA_RDNS_RECORD = 1
} ra_rdns_reply_e;

typedef struct {
    uint8_t    addr[16];                /* the address looked up */
    int        ok;                      /* 0: no answer (timeout, ...) */
    char       name[256];               /* PTR name; "" none (NXDOMAIN) */
    ra_addr_t  fwd[RA_RDNS_FWD_MAX];
    size_t     nfwd;
} ra_rdns_lookup_t;

/* Starts q for addr (16 bytes, IPv4 as ::ffff:a.b.c.d): nothing known. */
void ra_rdns_lookup_start(ra_rdns_lookup_t *q, const uint8_t addr[16]);

/* The PTR query's reply, with its name for RA_RDNS_RECORD (one too long
 * to keep reads as none).  Returns 1 when that name is to be resolved
 * forward (ra_rdns_ptr_forward()), 0 when the lookup is over. */
int ra_rdns_lookup_ptr(ra_rdns_lookup_t *q, ra_rdns_reply_e reply,
    ra_str_t name);

/* The forward query's reply: no answer makes the whole lookup one
 * without an answer; a record's addresses follow, each through
 * ra_rdns_lookup_fwd(). */
void ra_rdns_lookup_reply(ra_rdns_lookup_t *q, ra_rdns_reply_e reply);

/* One forward address, kept while there is room and
 * when it is IPv4 or IPv6. */
void ra_rdns_lookup_fwd(ra_rdns_lookup_t *q, const struct sockaddr *sa);

/* The result, to au (ra_audit_rdns_done()); au NULL (the process no
 * longer audits): dropped. */
void ra_rdns_lookup_end(const ra_rdns_lookup_t *q, ra_audit_t *au);

#endif /* RA_RDNS_LOOKUP_H */
