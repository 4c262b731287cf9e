/* SPDX-License-Identifier: BSD-2-Clause */
/* robots-audit command line: shared helpers and the command table. */
#ifndef RA_CLI_H
#define RA_CLI_H

#include <stdio.h>

#include "ra_core.h"
#include "ra_buf.h"
#include "ra_host.h"
#include "ra_setup.h"

#define RA_EXIT_OK       0   /* all allowed / no error finding */
#define RA_EXIT_FOUND    1   /* something disallowed / error findings */
#define RA_EXIT_USAGE    2   /* usage or input error */

/* Inputs larger than this are refused: 64 MiB is far past anything a
 * crawler reads (500 KiB) and still bounded. */
#define RA_CLI_MAX_INPUT  (64u * 1024 * 1024)

typedef struct {
    const char  *name;
    int        (*run)(int argc, char **argv);
    const char  *summary;
} ra_cli_command_t;

int ra_cmd_check(int argc, char **argv);
int ra_cmd_lint(int argc, char **argv);
int ra_cmd_identify(int argc, char **argv);
int ra_cmd_logs(int argc, char **argv);
int ra_cmd_whatif(int argc, char **argv);
int ra_cmd_ranges(int argc, char **argv);
int ra_cmd_robotstxt(int argc, char **argv);
/* lint --page, lint --sitemap (called by ra_cmd_lint) and sitemap */
int ra_cmd_lint_page(int argc, char **argv);
int ra_cmd_lint_sitemap(int argc, char **argv);
int ra_cmd_sitemap(int argc, char **argv);
int ra_cmd_collect(int argc, char **argv);

/* "robots-audit CMD: message" on stderr; returns RA_EXIT_USAGE. */
int ra_cli_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Reads a regular file or "-" (stdin) whole, up to RA_CLI_MAX_INPUT.
 * Prints a clear message and returns -1 on a missing, unreadable or
 * oversized file or a directory.  Free out->data with free(). */
int ra_cli_read_file(const char *cmd, const char *path, ra_str_t *out);

/* The CLI's host (ra_host.h): the core's log lines go to stderr. */
extern const ra_host_t  ra_cli_host;

/* The configuration's tables, as the modules load them (ra_setup.h):
 * the built-in crawler table, then crawler (ranges 0) or published-range
 * (ranges 1) files.  0, or -1 with the core's message printed; the
 * compile likewise. */
void ra_cli_setup(ra_setup_t *s);
int ra_cli_setup_file(const char *cmd, ra_setup_t *s, int ranges,
    const char *path);
int ra_cli_setup_compile(const char *cmd, ra_setup_t *s);

/* The built-in crawler table plus an operator's file (path may be NULL),
 * compiled; NULL with a message printed on failure.  It lives until the
 * process exits. */
struct ra_crawlers_s *ra_cli_crawlers(const char *cmd, const char *path);

/* Writes b to f; returns 0, or -1 (message printed) on failure. */
int ra_cli_write(const char *cmd, FILE *f, ra_buf_t *b);

/* Replaces path with data[0..len) whole (ra_file_replace_mode(): a reader
 * sees the old file or the new one, never a part), the new file of the
 * given mode; 0, or -1 with why (cap bytes) saying what failed. */
int ra_cli_replace(const char *path, const void *data, size_t len,
    unsigned mode, char *why, size_t cap);

/* Reads one line (without its end) from f into a growing buffer; returns
 * the line length or -1 at end of input. */
long ra_cli_getline(FILE *f, char **line, size_t *cap);

#endif
