/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The CLI's reverse DNS (identify --rdns, logs --rdns): c-ares lookups
 * (ra_ares.h), one address at a time, each answered before the request
 * that asked is judged, remembered for the run and, with --rdns-cache
 * FILE, across runs (answers younger than their TTL: RA_RDNS_TTL_MS when
 * confirmed, RA_RDNS_NEG_MS otherwise; failures are not kept).
 */
#ifndef RA_CLI_RDNS_H
#define RA_CLI_RDNS_H

#include "cli.h"
#include "ra_ares.h"
#include "ra_audit.h"

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

/* Writes the cache file (atomically), frees d; 0, or -1 said. */
int ra_cli_rdns_close(ra_cli_rdns_t *d);

#endif /* RA_CLI_RDNS_H */
