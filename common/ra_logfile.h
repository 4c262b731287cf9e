/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Writing whole lines to a log file the host opened (the alert log, the
 * evidence log): one writer for every log, so that each line goes out
 * whole or, when the file fails in the middle of it, is ended with a
 * newline so that the next line starts clean.  The host only hands over
 * its way of writing (nginx's open file, an APR file or pipe, the CLI's
 * descriptor); what a failure costs is decided here.
 */
#ifndef RA_LOGFILE_H
#define RA_LOGFILE_H

#include "ra_core.h"

/*
 * A log file as the glue opened it: the host's way of writing to it.
 *   write  writes at most *n bytes of p to file: 0 with *n set to what
 *          was written, which may be less, else an errno value (EINTR:
 *          asked again; EAGAIN: asked again a little later, a few times)
 *   file   NULL: no such log
 *   name   how messages name it (its path, or "|program")
 */
typedef struct {
    int          (*write)(void *file, const void *p, size_t *n);
    void          *file;
    const char    *name;
} ra_logfile_t;

/* Which log a line is for: the write errors are counted apart. */
#define RA_LOGFILE_ALERT     0
#define RA_LOGFILE_EVIDENCE  1
#define RA_LOGFILES          2
/* The event stream (ra_events.h): named in messages, its losses counted
 * by its writer, not in the ledger. */
#define RA_LOGFILE_EVENTS    2

/* How many times a write that answers EAGAIN (a full pipe) is asked
 * again, a millisecond apart, before the line counts as lost. */
#define RA_LOGFILE_AGAIN     50

/* The write of a log whose file is a POSIX descriptor (file points to
 * the int): write(2), as both servers' own files and pipes and the CLI's
 * are written, so that no glue writes its own. */
int ra_logfile_write_fd(void *file, const void *p, size_t *n);

/* Does log have a file to write to? */
int ra_logfile_open(const ra_logfile_t *log);

/*
 * Writes the line p[0..n) (its newline included) to the log's file, all
 * of it: short writes go on with the rest, EINTR asks again, EAGAIN a
 * little later.  RA_OK; or RA_ERROR with *err the errno value of the
 * write that failed.  A line that failed after part of it went out is
 * ended with a newline (as far as the file still takes one), so that the
 * next line starts clean: the part is a torn line, which no reader takes
 * for a whole one (a JSON line cut is not an object).
 */
int ra_logfile_line(const ra_logfile_t *log, const void *p, size_t n,
    int *err);

/*
 * ra_logfile_line() for a file that may end in a torn line nobody could
 * end (the disk was full even for its newline): *owed says so on entry,
 * and the newline goes out before the line (nothing of the line when it
 * does not); on return *owed says whether the file ends so now.
 */
int ra_logfile_line_owed(const ra_logfile_t *log, const void *p, size_t n,
    int *owed, int *err);

/* Names of the logs for metrics and messages: "alert", "evidence". */
const char *ra_logfile_name(unsigned which);

/* What a server says when it cannot open log which at path (a file, or
 * "|program" to start), tag and all, up to the name it could not open,
 * which follows it: ra_logfile_target(path). */
const char *ra_logfile_unopened(unsigned which, const char *path);

/* That name: the program of a "|program" path, else the path. */
const char *ra_logfile_target(const char *path);

#endif /* RA_LOGFILE_H */
