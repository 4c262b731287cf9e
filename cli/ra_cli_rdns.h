/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The CLI's reverse DNS (identify --rdns, logs --rdns): c-ares lookups
 * (common/resolver/ra_ares.h), each answered before the request that
 * asked is judged: logs reads its files once beforehand and resolves
 * their crawlers' addresses RA_CLI_RDNS_INFLIGHT at a time
 * (ra_cli_rdns_prefetch()); from stdin or with --follow, an address is
 * resolved when its first request comes.  Answers are remembered for the run and, with
 * --rdns-cache FILE, across runs (answers younger than their TTL:
 * RA_RDNS_TTL_MS when confirmed, RA_RDNS_NEG_MS otherwise; a failure is
 * kept RA_RDNS_FAIL_MS in the run, never in the file).  At most 12288
 * answers are remembered, and no address is asked about without room to
 * remember its answer (stale answers are dropped, at most once a minute,
 * when the table is full): an address beyond gets no answer (the request
 * is unverifiable), so a log's flood of distinct addresses costs bounded
 * lookups, each address asked once.
 */
#ifndef RA_CLI_RDNS_H
#define RA_CLI_RDNS_H

#include "cli.h"
#include "resolver/ra_ares.h"
#include "ra_audit.h"

#define RA_CLI_RDNS_INFLIGHT  16     /* lookups at once */
#define RA_CLI_RDNS_BATCH     1024   /* addresses gathered per prefetch */

typedef struct ra_cli_rdns_s  ra_cli_rdns_t;

/* NULL after saying why on stderr (cmd names the command). */
ra_cli_rdns_t *ra_cli_rdns_open(const char *cmd, const char *server,
    const char *cache_file);

/* A host for the engine: the CLI's, with rdns_start answering through
 * ra_audit_rdns_done() of the engine bound by ra_cli_rdns_bind(). */
void ra_cli_rdns_host(ra_cli_rdns_t *d, ra_host_t *h);
void ra_cli_rdns_bind(ra_cli_rdns_t *d, ra_audit_t *au);

/* The answer for a, from memory or a lookup. */
void ra_cli_rdns_resolve(ra_cli_rdns_t *d, const ra_addr_t *a,
    ra_ares_result_t *res);

/* Resolves the addresses not remembered yet, RA_CLI_RDNS_INFLIGHT at
 * once, and remembers the answers. */
void ra_cli_rdns_prefetch(ra_cli_rdns_t *d, const ra_addr_t *a, size_t n);

/* Writes the cache file (atomically), frees d; 0, or -1 said. */
int ra_cli_rdns_close(ra_cli_rdns_t *d);

#endif /* RA_CLI_RDNS_H */
