/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Cloud providers' published address ranges, for the undeclared-crawler
 * detector's signal that a client with a browser's User-Agent runs in a
 * cloud (ra_undeclared.h, RA_UNDECL_SIG_CLOUD): people browse from homes
 * and offices, scrapers from rented machines.
 *
 * A cloud range file is a range file named cloud-PROVIDER.json or
 * cloud-PROVIDER.csv (`robots-audit ranges update` writes them so), and
 * every loader of range files (robots_audit_ip_ranges,
 * RobotsAuditIPRanges, --ranges) reads it through ra_ranges_add_file(),
 * which tells the kind by that name: its list is of kind RA_RANGES_CLOUD,
 * in the same table as the crawler operators' lists, and never verifies
 * a crawler (ra_verify() skips it), so a client that claims Googlebot
 * from a cloud machine stays an impostor.
 *
 * Each provider publishes its own format, and each format has one reader
 * here (ra_cloud_format.c), all handing their prefixes to
 * ra_ranges_add_walk():
 *   aws           {"prefixes":[{"ip_prefix":...}],
 *                  "ipv6_prefixes":[{"ipv6_prefix":...}]}
 *   google        {"prefixes":[{"ipv4Prefix":...},{"ipv6Prefix":...}]},
 *                 the crawler publishers' shape; any other PROVIDER.json
 *   oracle        {"regions":[{"cidrs":[{"cidr":...}]}]}
 *   geofeed       RFC 8805 CSV, the prefix in the first column, '#'
 *                 comments: digitalocean, linode, any other PROVIDER.csv
 *
 * The lookup (ra_cloud.c) is all the loaded cloud lists as one sorted
 * array of intervals, each with its provider, built once when the
 * configuration is read, in memory its caller gives, and searched in
 * O(log n) per request.
 */
#ifndef RA_CLOUD_H
#define RA_CLOUD_H

#include "ra_verify.h"

#define RA_CLOUD_FILE_PREFIX    "cloud-"
#define RA_CLOUD_NAME_MAX       32          /* bytes of a provider name */
#define RA_CLOUD_MAX_INTERVALS  1000000     /* in all: 33 MB at most */

/* 1 when name (a file's base name) is a cloud range file's, with
 * *provider (may be NULL) its PROVIDER; else 0. */
int ra_cloud_file(ra_str_t name, ra_str_t *provider);

/*
 * Adds a range file of either kind as the list "name", told by the name:
 * a cloud file (ra_cloud_file()) through its provider's reader, as a
 * RA_RANGES_CLOUD list; any other through ra_ranges_add_json().  What
 * those return; a cloud file whose name gives no format (neither a known
 * provider nor .json or .csv) is RA_ERROR with err set.
 */
int ra_ranges_add_file(ra_ranges_t *r, ra_str_t name, ra_str_t text,
    ra_json_err_t *err);

/* ---- the lookup ------------------------------------------------------- */

typedef struct ra_cloud_set_s  ra_cloud_set_t;

/* Bytes of the set of r's cloud lists (the latest list of each name);
 * 0 when there is none, or more than RA_CLOUD_MAX_INTERVALS intervals in
 * all (*nintervals, may be NULL, says which: their count). */
size_t ra_cloud_set_size(const ra_ranges_t *r, size_t *nintervals);

/* Builds the set in mem (size bytes, ra_cloud_set_size()'s, aligned as
 * malloc()'s) and returns it, or NULL when size is too small or r has no
 * cloud list.  It holds copies: r may go after. */
ra_cloud_set_t *ra_cloud_set_build(void *mem, size_t size,
    const ra_ranges_t *r);

/* The provider whose ranges hold a (its index, ra_cloud_provider()), or
 * -1: none, or set NULL.  Where two providers' ranges overlap, the
 * range that starts first answers. */
int ra_ranges_cloud(const ra_cloud_set_t *set, const ra_addr_t *a);

/* A provider's name ("aws"); the number of providers and of intervals. */
ra_str_t ra_cloud_provider(const ra_cloud_set_t *set, int provider);
size_t ra_cloud_providers(const ra_cloud_set_t *set);
size_t ra_cloud_intervals(const ra_cloud_set_t *set);

#endif /* RA_CLOUD_H */
