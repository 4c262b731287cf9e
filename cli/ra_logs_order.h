/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Several access logs read in time order: each file's first time is
 * found from its first lines, the files are sorted by it (whatever order
 * the command line gives them in: access.log* as the shell sorts it is
 * newest first), and a file whose lines go back before the latest time
 * of the files read before it is said on stderr.
 */
#ifndef RA_LOGS_ORDER_H
#define RA_LOGS_ORDER_H

#include <stdint.h>

#include "ra_core.h"

/* A LOG of the command line */
typedef struct {
    const char  *path;
    const char  *site;                  /* the --site before it */
    int64_t      first;                 /* its first line's time (ms);
                                           INT64_MAX: none found, or not
                                           sought */
} ra_logs_input_t;

/* The time of a line (ms) into *time: RA_OK, or anything else when the
 * line gives none (malformed, a directive). */
typedef int (*ra_logs_time_pt)(void *ctx, ra_str_t line, const char *file,
    int64_t *time);

/* Lines of a file read for its first time, at most */
#define RA_LOGS_ORDER_PEEK  1000

/*
 * Finds each file's first time (time_of() over its first lines) and sorts
 * in[] and paths[] by it, stably: files with the same time or none keep
 * their order.  With "-" among them nothing is read nor moved (stdin is
 * read once).  A note on stderr says the order when it changed.
 */
void ra_logs_order(const char *cmd, ra_logs_input_t *in, char **paths,
    unsigned n, ra_logs_time_pt time_of, void *ctx);

/* Before next is read: when its first time is before last, the latest
 * time of the files read so far (that of prev), a warning on stderr that
 * their spans overlap (they are read one after the other, not merged). */
void ra_logs_overlap(const char *cmd, const ra_logs_input_t *prev,
    const ra_logs_input_t *next, int64_t last);

#endif /* RA_LOGS_ORDER_H */
