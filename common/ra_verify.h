/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Verification of a crawler's client address (docs/design.md,
 * "Verification"): verified, impostor (it claims a crawler whose operator
 * publishes ranges or reverse-DNS names and the address is not theirs) or
 * unverifiable.
 *
 * Range files are the publishers' JSON ({"prefixes":[{"ipv4Prefix":
 * "66.249.64.0/27"},{"ipv6Prefix":"2001:4860:4801:10::/64"}]}); each file
 * becomes one list named after it, holding sorted, merged, non-overlapping
 * 128-bit intervals (IPv4 as IPv4-mapped IPv6), so a lookup is a binary
 * search.  Lists are immutable once added.
 *
 * Reverse DNS is left to the caller, who owns the resolver (nginx's or
 * Apache's, asynchronous, or getnameinfo() in the CLI):
 * ra_verify_rdns_check() is the decision once the PTR name and its
 * forward addresses are known.
 */
#ifndef RA_VERIFY_H
#define RA_VERIFY_H

#include "ra_core.h"
#include "ra_crawlers.h"
#include "ra_json.h"

typedef struct {
    uint8_t  b[16];                 /* network order; IPv4 as ::ffff:a.b.c.d */
} ra_addr_t;

typedef enum {
    RA_VERIFY_UNVERIFIABLE = 0,
    RA_VERIFY_VERIFIED,
    RA_VERIFY_IMPOSTOR
} ra_verify_e;

#define RA_RANGES_MAX_LISTS     64
#define RA_RANGES_MAX_PREFIXES  1000000  /* per file: 16 MiB of intervals */
#define RA_RANGES_MAX_FILE      (16u * 1024 * 1024)

typedef struct ra_ranges_s  ra_ranges_t;

/* RA_OK, or RA_ERROR when s is not an IPv4 or IPv6 address. */
int ra_addr_parse(ra_str_t s, ra_addr_t *out);
int ra_addr_is_v4(const ra_addr_t *a);

/* Between a resolver's socket addresses and ra_addr_t, for every server
 * and resolver that hands the core addresses (nginx's, c-ares):
 * ra_addr_from_sockaddr() reads AF_INET (as IPv4-mapped) and AF_INET6,
 * RA_OK, else RA_ERROR; ra_addr_to_sockaddr() writes a struct
 * sockaddr_in for an IPv4-mapped address, else a sockaddr_in6 (port 0)
 * into sa, of cap bytes, and gives its length, or 0 when cap is too
 * small. */
struct sockaddr;
int ra_addr_from_sockaddr(const struct sockaddr *sa, ra_addr_t *out);
size_t ra_addr_to_sockaddr(const ra_addr_t *a, void *sa, size_t cap);

ra_ranges_t *ra_ranges_create(const ra_alloc_t *a);

/*
 * Adds the prefixes of a published JSON file as the list "name" (usually
 * the file's base name, as the crawler table's "ranges" names it).  Any
 * "ipv4Prefix"/"ipv6Prefix" member and any string of an "ipv4Prefixes"/
 * "ipv6Prefixes" array counts.  A file whose top-level members are
 * objects holding prefixes (a mirror bundling several publishers' files,
 * {"gptbot":{...},"searchbot":{...}}) also gives one list per member,
 * named MEMBER.json.  RA_OK; RA_ERROR with err set (bad JSON, bad prefix,
 * no prefix at all); RA_ELIMIT; RA_ENOMEM.  Nothing is kept on error.
 */
int ra_ranges_add_json(ra_ranges_t *r, ra_str_t name, ra_str_t json,
    ra_json_err_t *err);

/*
 * Lists of other formats, through one reader per format (ra_cloud.c has
 * the cloud providers'): walk calls each(ctx, prefix, v4) for every
 * prefix of text, in order (v4: 1 an IPv4 prefix, 0 an IPv6 one, -1
 * either), stops at the first non-zero return and returns it, else
 * RA_OK; or RA_ERROR with err set when text is not of its format (err's
 * offset also where a prefix it handed each failed).  how: the format's
 * own details, handed back to walk.  The text is walked twice, to count
 * and to store, so that a list takes exactly its memory.  Adds the list
 * "name" of that kind (RA_RANGES_CRAWLER, RA_RANGES_CLOUD): RA_OK;
 * RA_ERROR with err set (not the format, a bad prefix, no prefix at
 * all); RA_ELIMIT; RA_ENOMEM.  Nothing is kept on error.
 */
#define RA_RANGES_CRAWLER   0       /* a crawler operator's: verifies it */
#define RA_RANGES_CLOUD     1       /* a cloud provider's: verifies none */

typedef int (*ra_ranges_each_pt)(void *ctx, ra_str_t prefix, int v4);
typedef int (*ra_ranges_walk_pt)(const void *how, ra_str_t text,
    ra_ranges_each_pt each, void *ctx, ra_json_err_t *err);

int ra_ranges_add_walk(ra_ranges_t *r, ra_str_t name, unsigned kind,
    ra_str_t text, ra_ranges_walk_pt walk, const void *how,
    ra_json_err_t *err);

/* RA_RANGES_CRAWLER or RA_RANGES_CLOUD: what a list is for.  A cloud
 * list never verifies a crawler, whatever the crawler table names. */
unsigned ra_ranges_kind(const ra_ranges_t *r, size_t list);

/*
 * A list's merged intervals, for a lookup built over several lists
 * (ra_cloud_set_build()): first and last address of each, sorted,
 * non-overlapping.  ra_intervals_find() is the binary search every
 * lookup shares: the index + 1 of the interval holding a among n sorted,
 * non-overlapping ones, or 0.
 */
typedef struct {
    uint64_t  lo_hi, lo_lo;         /* first address */
    uint64_t  hi_hi, hi_lo;         /* last address */
} ra_interval_t;

const ra_interval_t *ra_ranges_list_intervals(const ra_ranges_t *r,
    size_t list, size_t *n);
size_t ra_intervals_find(const ra_interval_t *iv, size_t n,
    const ra_addr_t *a);

/* The list's index, or -1 when no list has that name. */
int ra_ranges_find(const ra_ranges_t *r, ra_str_t name);
size_t ra_ranges_lists(const ra_ranges_t *r);
ra_str_t ra_ranges_name(const ra_ranges_t *r, size_t list);
/* Merged intervals of a list (for tests and status pages). */
size_t ra_ranges_intervals(const ra_ranges_t *r, size_t list);
/*
 * Ages: the modification time of the file a list came from,
 * as it was when the file was loaded (ra_setup_ranges_file() asks the
 * host, ra_host_file_mtime()), in Unix ms; 0: unknown.  set_mtime sets
 * it for every list from index "from" on (the lists one file just added).
 * ra_ranges_age(): now - mtime (0 for a file from the future), -1 when
 * unknown; stale: older than RA_RANGES_STALE_MS, which publishers that
 * ask for a daily refresh (Bing) have long outlived, and which the daily
 * `robots-audit ranges update` timer never reaches while it works.
 */
#define RA_RANGES_STALE_MS  (7LL * 24 * 3600 * 1000)

void ra_ranges_set_mtime(ra_ranges_t *r, size_t from, int64_t mtime);
int64_t ra_ranges_mtime(const ra_ranges_t *r, size_t list);
int64_t ra_ranges_age(const ra_ranges_t *r, size_t list, int64_t now);
int ra_ranges_stale(const ra_ranges_t *r, size_t list, int64_t now);

/* 1 when the address lies in the list, else 0. */
int ra_ranges_contains(const ra_ranges_t *r, size_t list,
    const ra_addr_t *a);

/*
 * By published ranges only: VERIFIED when a is in one of the crawler's
 * loaded lists, IMPOSTOR when some of its lists are loaded and a is in
 * none, else UNVERIFIABLE (nothing loaded for it; r and c may be NULL).
 * A caller with a resolver may run the reverse-DNS check when this says
 * IMPOSTOR or UNVERIFIABLE and ra_verify_has_rdns(c).
 */
int ra_verify(const ra_ranges_t *r, const ra_crawler_t *c,
    const ra_addr_t *a);

int ra_verify_has_rdns(const ra_crawler_t *c);

/*
 * Forward-confirmed reverse DNS: VERIFIED when ptr_name (the client's PTR
 * record, a trailing dot allowed) ends with one of the crawler's suffixes
 * and one of the forward addresses of that name is the client's own;
 * IMPOSTOR otherwise (no PTR name: ptr_name.len == 0); UNVERIFIABLE when
 * the crawler publishes no suffix.
 */
int ra_verify_rdns_check(const ra_crawler_t *c, const ra_addr_t *client,
    ra_str_t ptr_name, const ra_addr_t *forward, size_t nforward);

/*
 * Why a claim of crawler c stays unverifiable on this server, for a page
 * that must tell "configure something" from "nothing to configure":
 * RA_VERIFY_MEANS_NONE when its operator publishes no method (no address
 * ranges, no reverse-DNS names, no signature origin; c NULL, a generic
 * bot, too); RA_VERIFY_MEANS_MISSING when it publishes one this server
 * cannot use (none of its range files loaded in r, and reverse-DNS names
 * without a resolver, or signature origins only, whose keys the page
 * cannot see); RA_VERIFY_MEANS_HERE when a method is configured (a range
 * file loaded, or reverse-DNS names and a resolver): an unverifiable
 * record then waited for a lookup, or the lookup failed.
 */
typedef enum {
    RA_VERIFY_MEANS_HERE = 0,
    RA_VERIFY_MEANS_NONE,
    RA_VERIFY_MEANS_MISSING
} ra_verify_means_e;

int ra_verify_means(const ra_ranges_t *r, const ra_crawler_t *c,
    int resolver);

/* "verified", "impostor", "unverifiable". */
const char *ra_verify_name(int v);

/*
 * How a verification was decided ("verified_by" in JSON and alerts, the
 * "method" label in metrics, a column of the status page): by published
 * ranges, by forward-confirmed reverse DNS, or by a Web Bot Auth
 * signature.  RA_VERIFIED_BY_NONE: nothing decided it (unverifiable).
 */
typedef enum {
    RA_VERIFIED_BY_NONE = 0,
    RA_VERIFIED_BY_RANGES,
    RA_VERIFIED_BY_RDNS,
    RA_VERIFIED_BY_SIGNATURE,
    RA_VERIFIED_BY_MAX
} ra_verified_by_e;

/* "ranges", "rdns", "signature"; "" for RA_VERIFIED_BY_NONE. */
const char *ra_verified_by_name(int m);

#endif /* RA_VERIFY_H */
