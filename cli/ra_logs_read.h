/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Reading an access log's lines in their format, for 'logs' and 'whatif':
 * each file's format is the one given (--log-format, --json-fields) or
 * found from its first lines, W3C and CloudFront "#" directives set the
 * columns, and a file whose first lines mostly do not read stops the run
 * with the first bad line, the field and the flag that would read it.
 */
#ifndef RA_LOGS_READ_H
#define RA_LOGS_READ_H

#include <stddef.h>
#include <stdint.h>

#include "ra_accesslog.h"

#define RA_LOGS_DETECT       64      /* lines a file's format is sought in */
#define RA_LOGS_SHOW         120     /* bytes of a line shown in errors */
#define RA_LOGS_SHOWN        (RA_LOGS_SHOW * 4 + 1)  /* escaped, with NUL */
#define RA_LOGS_WINDOW       1000    /* a file's first lines, judged... */
#define RA_LOGS_BAD_PCT      1       /* ...as read when at most 1% bad */

/* a file's format as its lines show it: given by --log-format or
 * --json-fields, or found from its first lines; a W3C log's "#Fields:"
 * line sets its columns */
typedef struct {
    const ra_logfmt_t  *given;          /* NULL: each file's is found */
    const char         *file;
    ra_logfmt_t         fmt;
    unsigned            detected:1;
    unsigned            tries;
    ra_logmemo_t        memo;           /* the lines before (zeroed) */
} ra_logs_reader_t;

/* the first RA_LOGS_WINDOW lines of the file being read: how many were
 * malformed, and why the first was */
typedef struct {
    const char  *file;
    uint64_t     lines;
    uint64_t     bad;
    uint64_t     bad_line;
    char         why[RA_LOGS_SHOW * 4 + 512];
    unsigned     stopped:1;             /* too many: no report */
} ra_logs_window_t;

/* Reads one line of file in its format: RA_OK, RA_ERROR (malformed,
 * rec->bad naming the field when one), or 1 for a W3C directive, which
 * is skipped */
int ra_logs_read(ra_logs_reader_t *r, ra_str_t line, const char *file,
    ra_logrec_t *rec);

/* --log-format ARG or --json-fields ARG (opt names which) into given, as
 * 'logs' and 'whatif' take them: one format, given once (*have says it
 * was); 0, or -1 said on behalf of cmd */
int ra_logs_format_opt(const char *cmd, const char *opt, const char *arg,
    ra_logfmt_t *given, int *have);

/* A line as it can be shown on a terminal into out (RA_LOGS_SHOWN
 * bytes): its first RA_LOGS_SHOW bytes, printable ASCII, else \xHH */
void ra_logs_show(char *out, ra_str_t line);

/* Counts a line read (rc of ra_logs_read(), not 1) in the window of its
 * file, and says why the first malformed one is; 1 when the window
 * already holds too many (said, on behalf of cmd): the run stops */
int ra_logs_window_line(ra_logs_window_t *w, const ra_logs_reader_t *r,
    int rc, ra_str_t line, const ra_logrec_t *rec, uint64_t lineno,
    const char *cmd);

/* More than RA_LOGS_BAD_PCT of the file's first lines malformed: the log
 * is not read as what it is, and a report would be wrong; 1 when so
 * (said once) */
int ra_logs_too_bad(ra_logs_window_t *w, const char *cmd);

#endif /* RA_LOGS_READ_H */
