/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Access-log reader (see ra_logread.h).  Memory is one buffer of
 * RA_LOGREAD_BUF bytes whatever the input: a line longer than
 * RA_LOG_LINE_MAX is counted and skipped up to its end, never kept.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "cli.h"
#include "ra_accesslog.h"
#include "ra_logread.h"

#define RA_LOGREAD_BAR   40
#define RA_LOGREAD_EVERY 0x3fff      /* lines between clock reads */

int64_t
ra_logread_ms(void)
{
    struct timespec  ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int
ra_logread_open(ra_logread_t *r, const char *cmd, char **files, int nfiles)
{
    struct stat  st;
    int          i;

    r->cmd = cmd;
    r->total = 0;
    for (i = 0; i < nfiles; i++) {
        if (strcmp(files[i], "-") == 0) {
            continue;
        }
        if (stat(files[i], &st) != 0) {
            ra_cli_error(cmd, "%s: %s", files[i], strerror(errno));
            return -1;
        }
        if (S_ISDIR(st.st_mode)) {
            ra_cli_error(cmd, "%s: is a directory", files[i]);
            return -1;
        }
        if (S_ISREG(st.st_mode)) {
            r->total += (uint64_t) st.st_size;
        }
    }
    r->progress = isatty(STDERR_FILENO);
    r->buf = malloc(RA_LOGREAD_BUF);
    if (r->buf == NULL) {
        ra_cli_error(cmd, "out of memory");
        return -1;
    }
    return 0;
}

static void
ra_logread_draw(ra_logread_t *r, uint64_t pos)
{
    unsigned  i, fill, pm;
    char      bar[RA_LOGREAD_BAR + 1];

    if (r->total) {
        pm = pos >= r->total ? 1000 : (unsigned) (pos * 1000 / r->total);
        fill = pm * RA_LOGREAD_BAR / 1000;
        for (i = 0; i < RA_LOGREAD_BAR; i++) {
            bar[i] = i < fill ? '#' : '.';
        }
        bar[RA_LOGREAD_BAR] = '\0';
        fprintf(stderr, "\r[%s] %3u%% %llu lines", bar, pm / 10,
                (unsigned long long) r->lines);
    } else {
        fprintf(stderr, "\r%llu MiB, %llu lines",
                (unsigned long long) (pos >> 20),
                (unsigned long long) r->lines);
    }
    fflush(stderr);
}

static void
ra_logread_tick(ra_logread_t *r, gzFile gz)
{
    int64_t  now;
    long     off;

    if (!r->progress || (r->lines & RA_LOGREAD_EVERY) != 0) {
        return;
    }
    now = ra_logread_ms();
    if (now - r->last_draw < 200) {
        return;
    }
    r->last_draw = now;
    off = gzoffset(gz);
    ra_logread_draw(r, r->done + (off > 0 ? (uint64_t) off : 0));
}

int
ra_logread_file(ra_logread_t *r, const char *path)
{
    gzFile                gz;
    int                   n, fd, err, skipping = 0, rc = 0;
    size_t                have = 0, len;
    uint64_t              lineno = 0;
    unsigned char        *p, *end, *nl;
    const char           *msg, *name;
    struct stat           st;

    if (strcmp(path, "-") == 0) {
        fd = dup(STDIN_FILENO);
        gz = fd >= 0 ? gzdopen(fd, "rb") : NULL;
        if (gz == NULL && fd >= 0) {
            close(fd);
        }
        name = "<stdin>";
    } else {
        gz = gzopen(path, "rb");
        name = path;
    }
    if (gz == NULL) {
        ra_cli_error(r->cmd, "%s: %s", name,
                     errno ? strerror(errno) : "out of memory");
        return -1;
    }
    gzbuffer(gz, 256 * 1024);

    for ( ;; ) {
        n = gzread(gz, r->buf + have, (unsigned) (RA_LOGREAD_BUF - have));
        if (n < 0) {
            msg = gzerror(gz, &err);
            ra_cli_error(r->cmd, "%s: %s after line %llu; going on with the "
                         "next file", name,
                         err == Z_ERRNO ? strerror(errno) : msg,
                         (unsigned long long) lineno);
            rc = 1;
            break;
        }
        if (n == 0) {
            /* zlib reports a gzip stream cut short only here */
            msg = gzerror(gz, &err);
            if (err != Z_OK) {
                ra_cli_error(r->cmd, "%s: %s after line %llu; going on with "
                             "the next file", name,
                             err == Z_BUF_ERROR ? "gzip data cut short"
                                                : msg,
                             (unsigned long long) lineno);
                rc = 1;
                break;
            }
            /* a last line without its line end */
            if (have && !skipping) {
                lineno++;
                len = have;
                if (r->buf[len - 1] == '\r') {
                    len--;
                }
                if (len) {
                    r->lines++;
                    if (r->handler(r->ctx, ra_str(r->buf, len), name,
                                   lineno))
                    {
                        rc = -1;
                    }
                }
            }
            break;
        }
        have += (size_t) n;
        p = r->buf;
        end = r->buf + have;
        while ((nl = memchr(p, '\n', (size_t) (end - p))) != NULL) {
            lineno++;
            if (skipping) {
                skipping = 0;
                p = nl + 1;
                continue;
            }
            len = (size_t) (nl - p);
            if (len && p[len - 1] == '\r') {
                len--;
            }
            if (len > RA_LOG_LINE_MAX) {
                if (r->overlong++ == 0) {
                    r->overlong_file = name;
                    r->overlong_line = lineno;
                }
            } else if (len) {
                r->lines++;
                if (r->handler(r->ctx, ra_str(p, len), name, lineno)) {
                    rc = -1;
                    goto done;
                }
                ra_logread_tick(r, gz);
            }
            p = nl + 1;
        }
        have = (size_t) (end - p);
        if (skipping) {
            have = 0;
        } else if (have > RA_LOG_LINE_MAX) {
            /* a line too long to keep: count it, drop it to its end */
            if (r->overlong++ == 0) {
                r->overlong_file = name;
                r->overlong_line = lineno + 1;
            }
            skipping = 1;
            have = 0;
        } else if (have) {
            memmove(r->buf, p, have);
        }
    }

done:
    if (strcmp(path, "-") != 0 && stat(path, &st) == 0) {
        r->done += (uint64_t) st.st_size;
    }
    gzclose(gz);
    return rc;
}

void
ra_logread_close(ra_logread_t *r)
{
    if (r->progress && r->last_draw) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
    free(r->buf);
    r->buf = NULL;
}
