/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The ledger kept in a file (robots_audit_state, RobotsAuditState), so
 * that a full stop and start of the server, or a reboot, does not lose
 * its counters: the region as it is (it holds offsets, never pointers),
 * behind a header that names it and a SHA-256 of it.  A reload or a
 * graceful restart keeps the shared memory itself and needs no file.
 *
 * The file is
 *
 *   0   "RASTATE1"         magic
 *   8   0x01020304         this machine's byte order, as written
 *   12  layout             RA_LEDGER_LAYOUT of the build that wrote it
 *   16  region size        bytes of the body
 *   24  saved              Unix ms
 *   32  SHA-256            of the body
 *   64  body               the region, copied under the ledger's lock
 *
 * written to a temporary file beside it, synced and renamed over it, so
 * that a reader sees the previous file or the new one whole.  A file that
 * is torn, foreign, of another layout, of another size or corrupt is
 * refused (RA341) and the server starts with a new ledger: a server never
 * fails to start over its state file.
 */
#ifndef RA_LEDGER_FILE_H
#define RA_LEDGER_FILE_H

#include "ra_core.h"
#include "ra_buf.h"
#include "ra_host.h"
#include "ra_ledger.h"

#define RA_LEDGER_FILE_HEADER    64
/* robots_audit_state_interval, RobotsAuditStateInterval */
#define RA_LEDGER_FILE_INTERVAL  (5LL * 60 * 1000)

/*
 * Writes l's region to path: copied under the ledger's lock into memory
 * from h->heap, then written outside the lock (no request waits on the
 * disk), synced, and renamed over path.  RA_OK, or RA_ERROR (RA_ENOMEM)
 * with why set ("cannot rename ... : Permission denied").  Says nothing.
 */
int ra_ledger_file_write(const ra_ledger_t *l, const ra_host_t *h,
    const char *path, ra_buf_t *why);

/*
 * Reads path into base, a region of size bytes, when the file holds a
 * whole ledger of this layout and of that size whose structure holds
 * (ra_ledger_check(), ra_ledger_verify()); checked in private memory
 * first, so that base is untouched unless RA_OK.  *saved: when it was
 * written.  RA_EAGAIN: there is no such file; RA_ERROR (RA_ENOMEM): it is
 * refused, with why set.  A ledger is not rebuilt into another size: a
 * file of another size is refused.  Says nothing.
 */
int ra_ledger_file_read(void *base, size_t size, const ra_host_t *h,
    const char *path, int64_t *saved, ra_buf_t *why);

/* ra_ledger_file_write(), said at error (RA342) when it fails; zone
 * names the shared memory in the line, where is handed to h->log.  No
 * path (no robots_audit_state): RA_OK, nothing written. */
int ra_ledger_file_save(const ra_ledger_t *l, const ra_host_t *h,
    void *where, ra_str_t zone, const char *path);

/*
 * At start, on a ledger just laid out (never on one a reload or a
 * graceful restart kept): the counters of path, said at notice (RA340),
 * or a refused file said at warn (RA341) and the ledger left new; no file
 * yet, or no path (no robots_audit_state): RA_EAGAIN, nothing said.  l
 * stays open on the same region.
 */
int ra_ledger_file_restore(ra_ledger_t *l, const ra_host_t *h, void *where,
    ra_str_t zone, const char *path);

/*
 * The saves of the one process that writes the state file, so that both
 * servers save on the same rule: every interval (robots_audit_state_
 * interval, RobotsAuditStateInterval; 0: RA_LEDGER_FILE_INTERVAL) and at
 * the end.  A zeroed one (no state file, or not the writer) saves
 * nothing.  Its lines go to host->log with where NULL.
 */
typedef struct {
    const ra_ledger_t  *ledger;
    const ra_host_t    *host;
    ra_str_t            zone;           /* names the zone in the lines */
    const char         *path;           /* NULL: nothing is saved */
    int64_t             every;          /* ms between saves */
    int64_t             due;            /* the next save, Unix ms; 0: not
                                           planned yet */
} ra_ledger_saver_t;

/* Sets sv up for path (NULL: none) and interval; 1 when there is a file
 * to save to. */
int ra_ledger_saver_init(ra_ledger_saver_t *sv, const ra_ledger_t *l,
    const ra_host_t *h, ra_str_t zone, const char *path, int64_t interval);

/* Saves now (ra_ledger_file_save()); RA_OK when sv saves nothing. */
int ra_ledger_saver_save(const ra_ledger_saver_t *sv);

/* The last save (ra_ledger_saver_save()) when the server stops or
 * restarts: it takes the saver and answers 0 whatever the save did (said
 * already), as a pool cleanup does, so that a server registers it as one
 * (Apache's configuration pool). */
int ra_ledger_saver_end(void *sv);

/* For a host that looks in now and then (Apache's monitor): the first
 * call plans the first save an interval on; a later one saves when the
 * save is due and plans the next. */
void ra_ledger_saver_tick(ra_ledger_saver_t *sv, int64_t now);

#endif /* RA_LEDGER_FILE_H */
