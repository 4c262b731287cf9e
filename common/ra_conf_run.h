/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A server's run with its configuration, once the directives are read
 * (ra_directive.h): what nginx and Apache do alike when they start, are
 * reloaded and start their processes, decided once here so that the glue
 * only hands over what its server does its own way (opening a file or a
 * program, a timer, a pool's cleanup).
 */
#ifndef RA_CONF_RUN_H
#define RA_CONF_RUN_H

#include "ra_core.h"
#include "ra_directive.h"
#include "ra_logfile.h"
#include "ra_outcome.h"

/* The ledger's size in bytes: the zone directive's, else the default
 * (RA_ZONE_SIZE_DEFAULT: Apache's RobotsAuditZoneSize may be left out,
 * nginx's robots_audit_zone always names one). */
size_t ra_conf_zone_size(const ra_conf_main_t *m);

/*
 * How a server opens the file or program of log which (RA_LOGFILE_*) at
 * path, as its directive gave it ("|program" to start): RA_OK with the
 * descriptor the core writes in *fd, unbuffered; else RA_ERROR, said by
 * the server itself (it has its error's words).
 */
typedef int (*ra_conf_log_open_pt)(void *ctx, unsigned which,
    const char *path, int *fd);

/*
 * Opens the logs the directives name for a server that opens them at
 * its start and restart (Apache: nginx opens its files as it opens
 * access logs): the alert and evidence logs into logs, the event stream
 * into m->events.log, each writing the descriptor fds[which] (room for
 * RA_LOGFILES + 1) that opener gave; a log not configured has no file.
 * A syslog:... stream is the core's own socket (ra_conf_events_open(),
 * said at h's emerg when it fails; ra_conf_events_close() closes it),
 * and the stream's descriptor never waits (ra_events_nowait()): a full
 * pipe drops a line.  RA_OK, or RA_ERROR at the first log that could
 * not be opened.
 */
int ra_conf_logs_open(ra_conf_main_t *m, ra_outcome_logs_t *logs,
    int *fds, const ra_host_t *h, ra_conf_log_open_pt opener,
    void *ctx);

#endif /* RA_CONF_RUN_H */
