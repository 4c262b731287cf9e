/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Configuration, decided once for nginx, Apache and the CLI: the values
 * directives take, the files they name (crawler tables, published IP
 * ranges, the robots.txt a server serves) and what each of them says when
 * something is wrong.  The glue reads its directive's arguments, calls
 * these, and reports the message they give in its own way (nginx's
 * "in FILE:LINE", Apache's directive error).
 *
 * Files are read through the host (ra_host.h); long-lived structures are
 * taken from the setup's allocator (the configuration's pool), scratch
 * from the host's heap.
 */
#ifndef RA_SETUP_H
#define RA_SETUP_H

#include "ra_core.h"
#include "ra_audit.h"
#include "ra_buf.h"
#include "ra_crawlers.h"
#include "ra_host.h"
#include "ra_verify.h"
#include "ra_cloud.h"
#include "ra_sig.h"

/* defaults, the same in every front end */
#define RA_ZONE_SIZE_DEFAULT    (8u * 1024 * 1024)
#define RA_ZONE_SIZE_MAX        (4096ULL * 1024 * 1024 - 1)

/* A configured robots.txt is read up to this much: enough to lint what
 * lies past the 500 KiB crawlers read (the rules it loses). */
#define RA_ROBOTS_FILE_MAX      (8u * 1024 * 1024)

/* "512", "64k", "8m", "1g" (k, m, g in either case): bytes.  RA_OK or
 * RA_ERROR. */
int ra_parse_size(ra_str_t s, uint64_t *bytes);

/* "250ms", "30s", "5m", "1h", "1d", "1w", "1M" (30 days), "1y" (365
 * days), and sums of them ("1m30s"), as nginx's time values; a bare
 * number is seconds.  At most 1000 days.  RA_OK or RA_ERROR. */
int ra_parse_msec(ra_str_t s, int64_t *ms);

/* Is size a zone the ledger can use?  overhead: what the server's own
 * allocator keeps of it (nginx's slab pages).  RA_OK, or RA_ERROR with
 * why holding a predicate for the caller to put the value before: "is
 * out of range: the minimum is 80k, the maximum 4095m". */
int ra_zone_size_check(uint64_t size, uint64_t overhead, ra_buf_t *why);


/*
 * Opens l on the ledger in a server's shared memory, with the same
 * decisions and words in every server (zone names the memory in them):
 *   kept   base is the previous generation's region (nginx's reload,
 *          Apache's graceful restart), of at most size bytes: opened when
 *          it holds a ledger of this layout and of the size it says
 *          ("kept", RA308 at notice); else RA_EAGAIN with *why set, and
 *          the caller starts a new region or refuses
 *   new    base is laid out afresh (RA306 at emerg and RA_ERROR when no
 *          ledger fits in size bytes); base NULL: the server's
 *          allocator had no size bytes to give, under RA_LEDGER_MIN_SIZE
 *          or not at all (RA305, "too small", at emerg, and RA_ERROR)
 */
int ra_setup_ledger(ra_ledger_t *l, void *base, size_t size, int kept,
    const ra_host_t *h, ra_str_t zone, const char **why);

/*
 * A new region, the same in every server: ra_setup_ledger() lays the
 * ledger out in base (kept 0, its lines to h), then the counters of
 * state_file (robots_audit_state, RobotsAuditState; NULL: none) come back
 * into it (ra_ledger_file_restore(), its lines to say with where, so
 * that nginx says them in the new cycle's log; say NULL: h, where NULL).
 * RA_OK, or RA_ERROR as ra_setup_ledger() refused; a state file that
 * cannot be read leaves the new ledger empty, and said.
 */
int ra_setup_ledger_new(ra_ledger_t *l, void *base, size_t size,
    const ra_host_t *h, ra_str_t zone, const ra_host_t *say, void *where,
    const char *state_file);

/*
 * Whether a server keeps the previous generation's ledger at a reload or
 * restart, decided and said the same in every server (zone names the
 * memory in the lines):
 *   base      the previous generation's region, when the server has it at
 *             this size (nginx's zone kept by a reload, Apache's retained
 *             segment); NULL: none
 *   size      the size of the region the ledger is to have
 *   old_size  the previous generation's size; 0: there was none
 *   replace   when the old ledger cannot be kept the server lays out a
 *             new one in new memory (Apache: old children keep theirs);
 *             else it must refuse (nginx: old workers still use the zone)
 * RA_OK: kept and l open on it (RA308).  RA_EAGAIN: a new ledger is to be
 * laid out (ra_setup_ledger() with kept 0), said when one is replaced
 * (RA304 at warn, with why: its size changed, or the check's reason).
 * RA_ERROR: refused (RA320 at emerg).
 */
int ra_setup_zone(ra_ledger_t *l, const ra_host_t *h, ra_str_t zone,
    void *base, size_t size, size_t old_size, int replace);


/* ---- crawler and range tables ---------------------------------------- */

typedef struct {
    const ra_host_t   *host;
    const ra_alloc_t  *alloc;       /* lives as long as the tables */
    ra_crawlers_t     *crawlers;    /* the built-in table and files; NULL
                                       until a file or the compile */
    ra_ranges_t       *ranges;      /* NULL until a file is added */
    ra_cloud_set_t    *cloud;       /* the cloud lists of ranges as one
                                       lookup, made by the compile; NULL:
                                       none loaded */
    unsigned           compiled:1;
    ra_sig_keys_t     *sig_keys;    /* Web Bot Auth keys; NULL until a
                                       directory is added */
    /* handed to host->log with the lines a file's loading writes (RA203
     * for a stale range file): nginx's ngx_conf_t of the directive, set
     * around the call; NULL: the server's own log */
    void              *where;
    /* data files (ranges, signature keys) that are missing, empty or
     * invalid are a warning (RA325), not an error: a server must start
     * whatever its data says (a first `ranges update` that failed), and
     * the crawlers they would verify stay unverified.  The servers set
     * it; the CLI, whose files are its arguments, does not. */
    unsigned           lenient:1;
} ra_setup_t;

/* Empty tables; the built-in crawler table is loaded when first needed
 * (a crawler file, or the compile), so a server that loads the module
 * and does not use it pays nothing. */
void ra_setup_init(ra_setup_t *s, const ra_host_t *host,
    const ra_alloc_t *alloc);

/* Adds a crawler file (data/crawlers.txt's format).  RA_OK, or an error
 * with why set: "crawler file /x, line 3: unknown key 'foo'". */
int ra_setup_crawlers_file(ra_setup_t *s, const char *path, ra_buf_t *why);

/* Adds a published ranges file as the list named after its base name,
 * a cloud provider's when the name says so (ra_ranges_add_file()).
 * RA_OK, or an error with why set: "ranges file /x, byte 12: ..."; with
 * s->lenient, RA_OK and an RA325 line instead (out of memory stays an
 * error). */
int ra_setup_ranges_file(ra_setup_t *s, const char *path, ra_buf_t *why);

/* Adds every HOST.json JWK Set of a directory (robots_audit_signature_keys,
 * RobotsAuditSignatureKeys, --signature-keys) as the Web Bot Auth keys of
 * origin HOST (ra_sig.h).  RA_OK, or an error with why set: "signature
 * keys file \"/x/a.json\": no Ed25519 key ..."; with s->lenient, RA_OK
 * and an RA325 line instead, the keys read so far kept.  Needs the host's
 * sha256 (ra_host_crypto_libcrypto()). */
int ra_setup_signature_keys(ra_setup_t *s, const char *dir, ra_buf_t *why);

/* Builds the crawler automaton and the cloud lookup (s->cloud) once
 * every file is in; idempotent. */
int ra_setup_compile(ra_setup_t *s, ra_buf_t *why);

/* Which table a directive's file goes into: robots_audit_crawlers,
 * robots_audit_ip_ranges and robots_audit_signature_keys in nginx,
 * RobotsAuditCrawlers, RobotsAuditIPRanges and RobotsAuditSignatureKeys
 * in Apache.  The glue names the kind and one function picks the reader,
 * so a new table is added here once, not in every server. */
typedef enum {
    RA_SETUP_CRAWLERS = 0,
    RA_SETUP_RANGES,
    RA_SETUP_SIG_KEYS
} ra_setup_table_e;

/* Adds path to that table with the reader above for it; what they return
 * and say. */
int ra_setup_table_file(ra_setup_t *s, ra_setup_table_e table,
    const char *path, ra_buf_t *why);

/* The directives' values the engine takes, as every server keeps them. */
typedef struct {
    int64_t            alert_interval;  /* ms; -1: unset (the default) */
    ra_alert_budget_t  alert_budget;    /* zeros: the defaults */
    int64_t            sig_max_age;     /* ms; 0: the default */
    unsigned           alert_purposes;  /* ra_alert_purposes_parse()'s;
                                           0: every purpose alerts */
    uint64_t           evidence_budget; /* bytes a minute; 0: the
                                           default */
    struct ra_events_s *events;         /* the event stream; NULL: none */
    unsigned           undeclared_off;  /* robots_audit_undeclared off */
} ra_setup_values_t;

/*
 * Fills conf, the engine's configuration, from the tables s built, the
 * directives' values and the host, the same in every server: judges
 * allocate from the heap, and zone names the shared memory in the lines
 * the engine writes.  Fields not named here are zero.
 */
void ra_setup_audit_conf(ra_audit_conf_t *conf, const ra_setup_t *s,
    const ra_host_t *h, ra_str_t zone, const ra_setup_values_t *v);

/*
 * The engine a process judges with, on the ledger l, configured as
 * ra_setup_audit_conf() says (into *conf, which a threaded server keeps
 * to make each thread's engine from).  NULL when out of memory, said the
 * same in every server (RA_TAG_NOMEM at crit): that process does not
 * audit, and the server goes on.
 */
ra_audit_t *ra_setup_engine(ra_audit_conf_t *conf, const ra_setup_t *s,
    const ra_host_t *h, ra_str_t zone, const ra_setup_values_t *v,
    ra_ledger_t *l);


/* ---- a configured robots.txt ----------------------------------------- */

typedef struct {
    const char  *path;
    ra_str_t     text;          /* up to RA_ROBOTS_FILE_MAX bytes */
    size_t       size;          /* the file's size */
    const char  *unread;        /* why it could not be read */
    unsigned     missing:1;     /* absent or unreadable: no robots.txt
                                   known (a state, not an error) */
} ra_robots_file_t;

/*
 * Reads path (a copy is kept) into f.  RA_OK, also for a file that does
 * not exist or cannot be read (f->missing, f->unread: say so with
 * ra_robots_file_lint(), RA201); RA_ENOMEM.  A server never fails its
 * configuration, start or reload over it.
 */
int ra_robots_file_load(const ra_host_t *h, const ra_alloc_t *a,
    const char *path, ra_robots_file_t *f, ra_buf_t *why);

/*
 * Lints it as the CLI's `lint` does and logs every line of that report
 * through the host with tag RA200 (errors and warnings at warn, infos
 * and a clean summary at notice), or, for a file that could not be read,
 * one RA201 line at warn; where is handed to host->log.
 */
void ra_robots_file_lint(const ra_host_t *h, void *where,
    const ra_robots_file_t *f);

/* Records it as the site's first version, unless the ledger already has
 * one (a reload never replaces what the server was seen to serve).  A
 * missing file records nothing.  RA_OK or RA_ENOMEM. */
int ra_robots_file_seed(ra_audit_t *au, ra_str_t site,
    const ra_robots_file_t *f, int64_t now);

#endif /* RA_SETUP_H */
