/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The reverse-DNS result cache (docs/design.md, "Reverse DNS"): what
 * forward-confirmed reverse DNS said about client addresses, kept in the
 * ledger's region so that every process of a server shares it, and the
 * per-second budget of lookups that keeps a flood of addresses from
 * turning the server into a DNS amplifier.
 *
 * An entry is per address, not per crawler: its PTR name and whether one
 * of that name's forward addresses is the address itself ("confirmed").
 * ra_verify_rdns_check() then decides for whichever crawler the client
 * claims to be.  States:
 *
 *   pending      a lookup is in flight (the host was asked); a request
 *                judged meanwhile is unverifiable
 *   answered     the PTR name (empty: none, NXDOMAIN) and "confirmed";
 *                kept RA_RDNS_TTL_MS when the name is confirmed and lies
 *                in a crawler's domains ("trusted"), RA_RDNS_NEG_MS
 *                otherwise
 *   failed       the resolver gave no answer (timeout, SERVFAIL, refused):
 *                unverifiable, retried after RA_RDNS_FAIL_MS
 *
 * The table is set-associative (RA_RDNS_WAYS entries per set, chosen by
 * the address), with no links: each entry stands alone, and a change
 * writes the state free first and the new state last, so a process that
 * dies at any instruction leaves a free entry or a whole one.  A new
 * lookup takes, in its set, a free or expired entry, else the oldest
 * answered entry that is not trusted; never a pending one still in time
 * nor a trusted one before its TTL: flooding a set with addresses one
 * controls cannot erase a verified crawler's result.  When no entry can
 * be taken, or the second's budget is spent, the lookup is refused (the
 * request is unverifiable; a later one asks again).
 *
 * Functions ending in _locked are called under the ledger's lock.
 */
#ifndef RA_RDNS_H
#define RA_RDNS_H

#include "ra_core.h"
#include "ra_crawlers.h"
#include "ra_verify.h"

#define RA_RDNS_NAME_MAX    255         /* a DNS name's text, no final dot */
#define RA_RDNS_WAYS        8
#define RA_RDNS_MAX         4096        /* entries at most */

#define RA_RDNS_BUDGET      20          /* lookups a second, all processes */
#define RA_RDNS_TTL_MS      (6LL * 3600 * 1000)
#define RA_RDNS_NEG_MS      (3600LL * 1000)
#define RA_RDNS_FAIL_MS     (60LL * 1000)
#define RA_RDNS_PENDING_MS  (10LL * 1000)   /* a lookup not answered by
                                               then has failed */

typedef enum {
    RA_RDNS_FREE = 0,
    RA_RDNS_PENDING,
    RA_RDNS_ANSWERED,
    RA_RDNS_FAILED
} ra_rdns_state_e;

/* One entry, in the region (plain data, 296 bytes). */
typedef struct {
    uint8_t   addr[16];
    int64_t   at;               /* asked (pending), else answered */
    int64_t   expires;
    uint8_t   state;            /* ra_rdns_state_e */
    uint8_t   confirmed;
    uint8_t   trusted;          /* confirmed, in a crawler's domains */
    uint8_t   name_len;
    char      name[RA_RDNS_NAME_MAX];
} ra_rdns_entry_t;

/* The area's head, in the region (64 bytes); totals are atomics. */
typedef struct {
    uint32_t  entries;          /* a multiple of RA_RDNS_WAYS */
    uint32_t  budget_used;      /* lookups started in budget_second */
    int64_t   budget_second;
    uint64_t  lookups;          /* started */
    uint64_t  verified;         /* answered, confirmed and trusted */
    uint64_t  failed;           /* answered otherwise, or no answer */
    uint64_t  refused;          /* not started: budget or no entry */
    uint64_t  reserved[2];
} ra_rdns_head_t;

/* The bytes an area of n entries needs. */
size_t ra_rdns_area_size(uint32_t n);

/* Formats an area (zeroed memory also reads as an empty table of 0
 * entries: format it once). */
void ra_rdns_format(void *area, uint32_t n);

/* Tunables; zeros: the defaults above. */
typedef struct {
    uint32_t  budget;           /* lookups a second */
    int64_t   ttl_ms, neg_ms, fail_ms, pending_ms;
} ra_rdns_conf_t;

/* What a lookup in the cache found. */
typedef enum {
    RA_RDNS_HIT = 0,            /* an answer: name, confirmed */
    RA_RDNS_WAIT,               /* pending, or failed: unverifiable */
    RA_RDNS_START,              /* an entry is now pending: the caller
                                   asks its host to resolve */
    RA_RDNS_REFUSED             /* budget spent or no entry free */
} ra_rdns_find_e;

typedef struct {
    char      name[RA_RDNS_NAME_MAX + 1];
    size_t    name_len;
    unsigned  confirmed:1;
} ra_rdns_answer_t;

/* Looks a up at now; on RA_RDNS_HIT fills ans. */
int ra_rdns_find_locked(void *area, const ra_rdns_conf_t *conf,
    const ra_addr_t *a, int64_t now, ra_rdns_answer_t *ans);

/*
 * The host's answer for a pending a: ok 0 when the resolver failed (no
 * answer, SERVFAIL, timeout); else ptr_name (len 0: no PTR record) and
 * the forward addresses of that name.  A name that is not a plain host
 * name (letters, digits, '-', '_', '.', at most RA_RDNS_NAME_MAX) counts
 * as none.  An answer for an address that is not pending is dropped
 * (returns RA_ERROR).  trusted: the caller's judgement that the name lies
 * in some crawler's domains (ra_rdns_trusted()).
 */
int ra_rdns_done_locked(void *area, const ra_rdns_conf_t *conf,
    const ra_addr_t *a, int ok, ra_str_t ptr_name, const ra_addr_t *forward,
    size_t nforward, int trusted, int64_t now);

/* Is a PTR name to be resolved forward, the same for every resolver the
 * servers use?  Not when there is none (empty), when it is no plain host
 * name (ra_rdns_done_locked() counts it as none), nor when it is an
 * address literal ("192.0.2.1"): that names no crawler, and a resolver
 * would answer it from the name itself, "confirming" it.  The host then
 * hands the PTR name over with no forward addresses. */
int ra_rdns_ptr_forward(ra_str_t name);

/* 1 when name lies in the rdns domains of some crawler of t. */
int ra_rdns_trusted(const ra_crawlers_t *t, ra_str_t name);

typedef struct {
    uint32_t  entries;          /* capacity */
    uint32_t  pending;          /* in flight now */
    uint32_t  cached;           /* answered entries not expired */
    uint64_t  lookups, verified, failed, refused;
} ra_rdns_counts_t;

/* Without the lock: the totals are atomics, pending and cached a scan
 * (each entry read whole or not at all does not matter for a count). */
void ra_rdns_counts(const void *area, int64_t now, ra_rdns_counts_t *c);

#endif /* RA_RDNS_H */
