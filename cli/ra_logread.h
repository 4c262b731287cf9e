/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Reading access logs for 'logs' and 'whatif': plain or gzip files (zlib
 * reads both) or "-" for stdin, line by line through one fixed buffer,
 * with a bytes-based progress bar on stderr when it is a terminal.
 */
#ifndef RA_LOGREAD_H
#define RA_LOGREAD_H

#include <stdint.h>

#include "ra_core.h"

/* Called per non-empty line (without its line end); a non-zero return
 * stops reading.  lineno counts the file's lines from 1. */
typedef int (*ra_logread_line_pt)(void *ctx, ra_str_t line,
    const char *file, uint64_t lineno);

/* Called by ra_follow() (ra_follow.h) between lines and while it waits, at
 * least every RA_LOGREAD_WAIT_MS; a non-zero return stops it. */
typedef int (*ra_logread_tick_pt)(void *ctx);

#define RA_LOGREAD_WAIT_MS  200

/* The one read buffer: big enough that a read costs little per line, and
 * at least twice the longest line kept so a carried partial line always
 * leaves room */
#define RA_LOGREAD_BUF      (1024u * 1024)

typedef struct {
    const char          *cmd;
    ra_logread_line_pt   handler;
    void                *ctx;
    ra_logread_tick_pt   tick;          /* --follow */
    void                *tick_ctx;
    uint64_t             overlong;      /* lines over RA_LOG_LINE_MAX */
    const char          *overlong_file; /* where the first one was */
    uint64_t             overlong_line;
    int                  progress;      /* stderr is a terminal */
    uint64_t             total;         /* bytes of all files; 0 unknown */
    uint64_t             done;          /* bytes of the files finished */
    uint64_t             lines;         /* lines read, all files */
    int64_t              last_draw;     /* ms, monotonic */
    unsigned char       *buf;
} ra_logread_t;

/* Checks that every file exists and is not a directory (before any
 * output, so that a typo does not cost a half-read log) and sums their
 * sizes.  0, or -1 with a message printed. */
int ra_logread_open(ra_logread_t *r, const char *cmd, char **files,
    int nfiles);

/* Reads one file; 0, -1 with a message printed (unreadable, or the
 * handler stopped), or 1 when gzip data is corrupt or cut short: said with
 * the file and the last line read, the lines before it were handled and
 * the caller may go on with the next file. */
int ra_logread_file(ra_logread_t *r, const char *path);

/* The monotonic clock in ms, the one the ticks and the bar go by */
int64_t ra_logread_ms(void);

/* Clears the progress bar and frees the buffer. */
void ra_logread_close(ra_logread_t *r);

#endif /* RA_LOGREAD_H */
