/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A server's run with its configuration (ra_conf_run.h): the size of
 * its ledger and the logs it opens at a start.
 */
#include "ra_conf_run.h"
#include "ra_events.h"

size_t
ra_conf_zone_size(const ra_conf_main_t *m)
{
    return m->zone_size != 0 ? (size_t) m->zone_size : RA_ZONE_SIZE_DEFAULT;
}

int
ra_conf_logs_open(ra_conf_main_t *m, ra_outcome_logs_t *logs, int *fds,
    const ra_host_t *h, ra_conf_log_open_pt opener, void *ctx)
{
    unsigned       which;
    const char    *path;
    ra_logfile_t  *log;

    for (which = 0; which <= RA_LOGFILE_EVENTS; which++) {
        log = which == RA_LOGFILE_EVENTS ? &m->events.log
              : which == RA_LOGFILE_ALERT ? &logs->alert : &logs->evidence;
        path = ra_conf_log_path(m, which);
        log->file = NULL;
        if (path == NULL) {
            continue;
        }
        log->name = path;
        if (which == RA_LOGFILE_EVENTS && ra_syslog_is(ra_str_z(path))) {
            if (ra_conf_events_open(m, h, NULL) != RA_OK) {
                return RA_ERROR;
            }
            continue;
        }
        if (opener(ctx, which, path, &fds[which]) != RA_OK) {
            return RA_ERROR;
        }
        log->file = &fds[which];
        log->write = ra_logfile_write_fd;
        if (which == RA_LOGFILE_EVENTS) {
            ra_events_nowait(fds[which]);
        }
    }
    return RA_OK;
}
