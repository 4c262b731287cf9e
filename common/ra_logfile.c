/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The whole-line writer of every log file (ra_logfile.h): a line goes out
 * whole, or what went out of it is ended with a newline.
 */
#include <errno.h>
#include <time.h>
#include <unistd.h>

#include "ra_logfile.h"
#include "ra_tags.h"

int
ra_logfile_write_fd(void *file, const void *p, size_t *n)
{
    ssize_t  k = write(*(int *) file, p, *n);

    if (k == -1) {
        return errno;
    }
    *n = (size_t) k;
    return 0;
}

int
ra_logfile_open(const ra_logfile_t *log)
{
    return log != NULL && log->write != NULL && log->file != NULL;
}

/* Writes p[0..n) as far as the file takes it: RA_OK, or RA_ERROR with
 * *err set and *done the bytes written before the failure. */
static int
ra_logfile_all(const ra_logfile_t *log, const unsigned char *p, size_t n,
    size_t *done, int *err)
{
    int              rc;
    size_t           k;
    unsigned         again = 0;
    struct timespec  ms = { 0, 1000000 };

    *done = 0;
    while (n > 0) {
        k = n;
        rc = log->write(log->file, p, &k);
        if (rc == EINTR) {
            continue;
        }
        if ((rc == EAGAIN || rc == EWOULDBLOCK)
            && again++ < RA_LOGFILE_AGAIN)
        {
            /* a pipe whose reader is behind: a little later */
            (void) nanosleep(&ms, NULL);
            continue;
        }
        if (rc != 0 || k == 0 || k > n) {
            /* a write that wrote nothing would never end */
            *err = rc != 0 ? rc : EIO;
            return RA_ERROR;
        }
        p += k;
        n -= k;
        *done += k;
    }
    return RA_OK;
}

int
ra_logfile_line(const ra_logfile_t *log, const void *p, size_t n, int *err)
{
    int  owed = 0;

    return ra_logfile_line_owed(log, p, n, &owed, err);
}

int
ra_logfile_line_owed(const ra_logfile_t *log, const void *p, size_t n,
    int *owed, int *err)
{
    int     e;
    size_t  done;

    if (*owed) {
        if (ra_logfile_all(log, (const unsigned char *) "\n", 1, &done, err)
            != RA_OK)
        {
            return RA_ERROR;            /* still owed; the line is lost */
        }
        *owed = 0;
    }
    if (ra_logfile_all(log, p, n, &done, err) == RA_OK) {
        return RA_OK;
    }
    if (done > 0 && ((const unsigned char *) p)[done - 1] != '\n') {
        /* torn: ended, so that the next line starts on a line of its
         * own (the first error is the one reported); when not even the
         * newline goes out, the next writer owes it */
        *owed = ra_logfile_all(log, (const unsigned char *) "\n", 1, &done,
                               &e) != RA_OK;
    }
    return RA_ERROR;
}

const char *
ra_logfile_name(unsigned which)
{
    return which == RA_LOGFILE_EVIDENCE ? "evidence" : "alert";
}

const char *
ra_logfile_unopened(unsigned which, const char *path)
{
    static const char *const  lines[3][2] = {
        { RA_LOG_PREFIX "[" RA_TAG_ALERT_LOG "] cannot open the alert log ",
          RA_LOG_PREFIX "[" RA_TAG_ALERT_LOG "] cannot start the alert log "
          "program " },
        { RA_LOG_PREFIX "[" RA_TAG_EVIDENCE_LOG "] cannot open the evidence "
          "log ",
          RA_LOG_PREFIX "[" RA_TAG_EVIDENCE_LOG "] cannot start the evidence "
          "log program " },
        { RA_LOG_PREFIX "[" RA_TAG_EVENTS "] cannot open the event stream ",
          RA_LOG_PREFIX "[" RA_TAG_EVENTS "] cannot start the event stream "
          "program " }
    };

    return lines[which == RA_LOGFILE_EVENTS ? 2 : which == RA_LOGFILE_EVIDENCE]
                [path[0] == '|'];
}

const char *
ra_logfile_target(const char *path)
{
    return path[0] == '|' ? path + 1 : path;
}
