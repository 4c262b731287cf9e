/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Following a live access log (see ra_follow.h).  Log rotation must never
 * lose lines silently, so a file is known by its device and inode (a new
 * one at the path is a rotation by rename) and by its first bytes, kept
 * and compared before each read: a copytruncate is seen even when the
 * file has grown past the bytes read again since (a reader stopped for a
 * while).  A truncation looks beside the file for the copy logrotate made
 * and reads from it what was not read yet; without one it says how much
 * was lost.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "ra_accesslog.h"
#include "ra_follow.h"

#define RA_FOLLOW_HEAD  256         /* the first bytes a file is known by */

typedef struct {
    ra_logread_t   *r;
    const char     *path;
    const char     *name;
    int             fd;
    dev_t           dev;
    ino_t           ino;
    off_t           pos;            /* bytes of the file read */
    off_t           seen;           /* the largest size it was seen with */
    int64_t         looked;         /* ms, monotonic: when it was seen */
    unsigned char   head[RA_FOLLOW_HEAD];
    size_t          nhead;
    size_t          have;           /* a partial line at r->buf */
    int             skipping;       /* inside an overlong line */
    uint64_t        lineno;
} ra_follow_t;

static void
ra_follow_sleep(void)
{
    struct timespec  ts;

    ts.tv_sec = 0;
    ts.tv_nsec = RA_LOGREAD_WAIT_MS * 1000000L;
    nanosleep(&ts, NULL);           /* a signal ends it early: fine */
}

/* The whole lines of r->buf[0, have): handled, the rest moved to the
 * front; 1 when the handler stopped */
static int
ra_follow_lines(ra_follow_t *f)
{
    ra_logread_t   *r = f->r;
    unsigned char  *p = r->buf, *end = r->buf + f->have, *nl;
    size_t          len;

    while ((nl = memchr(p, '\n', (size_t) (end - p))) != NULL) {
        f->lineno++;
        len = (size_t) (nl - p);
        if (f->skipping) {
            f->skipping = 0;
        } else {
            if (len && p[len - 1] == '\r') {
                len--;
            }
            if (len > RA_LOG_LINE_MAX) {
                if (r->overlong++ == 0) {
                    r->overlong_file = f->name;
                    r->overlong_line = f->lineno;
                }
            } else if (len) {
                r->lines++;
                if (r->handler(r->ctx, ra_str(p, len), f->name, f->lineno)) {
                    return 1;
                }
            }
        }
        p = nl + 1;
    }
    f->have = (size_t) (end - p);
    if (f->skipping) {
        f->have = 0;
    } else if (f->have > RA_LOG_LINE_MAX) {
        /* a line too long to keep: count it, drop it to its end */
        if (r->overlong++ == 0) {
            r->overlong_file = f->name;
            r->overlong_line = f->lineno + 1;
        }
        f->skipping = 1;
        f->have = 0;
    } else if (f->have) {
        memmove(r->buf, p, f->have);
    }
    return 0;
}

/* A last line without its line end, as at the end of a file; the next
 * bytes start a new file */
static int
ra_follow_rest(ra_follow_t *f)
{
    int  rc = 0;

    if (f->have != 0 && !f->skipping) {
        f->r->buf[f->have++] = '\n';    /* room: a kept line is short */
        rc = ra_follow_lines(f);
    }
    f->have = 0;
    f->skipping = 0;
    f->lineno = 0;
    return rc;
}

/* Reads fd once at f->pos onwards into the buffer and handles its lines:
 * the bytes read (0 at the end), -1 with errno, or -2 when the handler
 * stopped.  The file's first bytes are kept as they go by. */
static ssize_t
ra_follow_read(ra_follow_t *f, int fd)
{
    unsigned char  *at = f->r->buf + f->have;
    ssize_t         n;
    size_t          k;

    n = read(fd, at, RA_LOGREAD_BUF - 1 - f->have);
    if (n <= 0) {
        return n;
    }
    if ((size_t) f->pos == f->nhead && f->nhead < RA_FOLLOW_HEAD) {
        k = RA_FOLLOW_HEAD - f->nhead;
        k = k < (size_t) n ? k : (size_t) n;
        memcpy(f->head + f->nhead, at, k);
        f->nhead += k;
    }
    f->pos += n;
    f->have += (size_t) n;
    return ra_follow_lines(f) ? -2 : n;
}

/* Reads fd to its end: 0, 1 when the handler stopped, -1 on an error */
static int
ra_follow_drain(ra_follow_t *f, int fd)
{
    ssize_t  n;

    while ((n = ra_follow_read(f, fd)) != 0) {
        if (n == -2) {
            return 1;
        }
        if (n < 0 && errno != EINTR) {
            return -1;
        }
    }
    return 0;
}

/* Opens the file at the path: 0, 1 when there is none (yet), -1 with a
 * message */
static int
ra_follow_open(ra_follow_t *f)
{
    struct stat  st;

    f->fd = open(f->path, O_RDONLY);
    if (f->fd < 0) {
        if (errno == ENOENT) {
            return 1;
        }
        ra_cli_error(f->r->cmd, "%s: %s", f->name, strerror(errno));
        return -1;
    }
    if (fstat(f->fd, &st) != 0 || S_ISDIR(st.st_mode)) {
        ra_cli_error(f->r->cmd, "%s: %s", f->name,
                     S_ISDIR(st.st_mode) ? "is a directory" : strerror(errno));
        close(f->fd);
        f->fd = -1;
        return -1;
    }
    f->dev = st.st_dev;
    f->ino = st.st_ino;
    f->pos = 0;
    f->seen = st.st_size;
    f->looked = ra_logread_ms();
    f->nhead = 0;
    return 0;
}

/* Not the file that was read up to f->pos any more: shorter, or other
 * first bytes (truncated, then written past that again) */
static int
ra_follow_changed(ra_follow_t *f, const struct stat *st)
{
    unsigned char  now[RA_FOLLOW_HEAD];

    if (st->st_size < f->pos) {
        return 1;
    }
    return f->nhead != 0
           && (pread(f->fd, now, f->nhead, 0) != (ssize_t) f->nhead
               || memcmp(now, f->head, f->nhead) != 0);
}

/* The copy a copytruncate left beside the file: a regular file whose
 * name starts with the file's, with the same first bytes and at least
 * the bytes read; the newest of them.  An open descriptor at f->pos, or
 * -1 when there is none.  A compressed copy never matches its bytes. */
static int
ra_follow_copy(ra_follow_t *f, char *found, size_t cap, off_t *size)
{
    char            dir[4096], path[4096];
    const char     *slash = strrchr(f->path, '/'), *base;
    size_t          nbase;
    DIR            *d;
    struct dirent  *e;
    struct stat     st;
    unsigned char   head[RA_FOLLOW_HEAD];
    time_t          best = 0;
    int             fd, best_fd = -1;

    if (slash == NULL) {
        snprintf(dir, sizeof(dir), ".");
        base = f->path;
    } else {
        snprintf(dir, sizeof(dir), "%.*s", slash == f->path ? 1
                 : (int) (slash - f->path), f->path);
        base = slash + 1;
    }
    nbase = strlen(base);
    if (f->nhead == 0 || (d = opendir(dir)) == NULL) {
        return -1;
    }
    while ((e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, base, nbase) != 0 || e->d_name[nbase] == '\0'
            || (size_t) snprintf(path, sizeof(path), "%s%s%s",
                                 slash ? dir : "", slash ? "/" : "",
                                 e->d_name) >= sizeof(path)
            || (fd = open(path, O_RDONLY)) < 0)
        {
            continue;
        }
        if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)
            || st.st_size < f->pos || (best_fd >= 0 && st.st_mtime < best)
            || pread(fd, head, f->nhead, 0) != (ssize_t) f->nhead
            || memcmp(head, f->head, f->nhead) != 0
            || lseek(fd, f->pos, SEEK_SET) != f->pos)
        {
            close(fd);
            continue;
        }
        if (best_fd >= 0) {
            close(best_fd);
        }
        best_fd = fd;
        best = st.st_mtime;
        *size = st.st_size;
        snprintf(found, cap, "%s", path);
    }
    closedir(d);
    return best_fd;
}

/* The file was truncated: what of it was not read yet comes from its
 * copy, or is said lost; then it is read from its start.  0, 1 when the
 * handler stopped, -1 on an error. */
static int
ra_follow_truncated(ra_follow_t *f, const struct stat *st)
{
    char       copy[4096];
    off_t      size = 0, read_at = f->pos;
    int        cfd, rc = 0;
    double     ago = (double) (ra_logread_ms() - f->looked) / 1000.0;
    const char *cmd = f->r->cmd;

    cfd = ra_follow_copy(f, copy, sizeof(copy), &size);
    if (cfd >= 0) {
        rc = ra_follow_drain(f, cfd);
        close(cfd);
        if (rc == 0) {
            rc = ra_follow_rest(f);
        }
        fprintf(stderr, "robots-audit %s: %s: truncated after %lld bytes "
                "were read; %lld bytes of the old file not read yet were "
                "read from its copy %s; reading it from its start\n", cmd,
                f->name, (long long) read_at, (long long) (size - read_at),
                copy);
    } else {
        /* a partial line of the old file is lost with the rest */
        fprintf(stderr, "robots-audit %s: %s: truncated after %lld bytes "
                "were read: %lld bytes of the old file could not be read, "
                "and whatever was written to it after it was last looked at "
                "(%.1f s before): those lines are lost (no copy of it with "
                "its first bytes beside it); reading it from its start\n",
                cmd, f->name, (long long) read_at,
                (long long) (f->seen - read_at), ago);
        f->have = 0;
        f->skipping = 0;
        f->lineno = 0;
    }
    if (rc != 0) {
        return rc;
    }
    if (lseek(f->fd, 0, SEEK_SET) != 0) {
        ra_cli_error(cmd, "%s: %s", f->name, strerror(errno));
        return -1;
    }
    f->pos = 0;
    f->nhead = 0;
    f->seen = st->st_size;
    f->looked = ra_logread_ms();
    return 0;
}

/* stdin: read to its end, the tick called while it waits */
static int
ra_follow_stdin(ra_follow_t *f)
{
    struct pollfd  pfd;
    ssize_t        n;

    for ( ;; ) {
        if (f->r->tick(f->r->tick_ctx)) {
            return 0;
        }
        pfd.fd = f->fd;
        pfd.events = POLLIN;
        if (poll(&pfd, 1, RA_LOGREAD_WAIT_MS) <= 0) {
            continue;               /* nothing yet, or a signal */
        }
        n = ra_follow_read(f, f->fd);
        if (n == -2) {
            return 0;
        }
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN) {
                continue;
            }
            ra_cli_error(f->r->cmd, "%s: %s", f->name, strerror(errno));
            return -1;
        }
        if (n == 0) {
            ra_follow_rest(f);
            return 0;               /* the end of the input */
        }
    }
}

int
ra_follow(ra_logread_t *r, const char *path)
{
    ra_follow_t  f;
    struct stat  st, cur;
    ssize_t      n;
    int          rc = 0, waiting = 0;

    memset(&f, 0, sizeof(f));
    f.r = r;
    f.path = path;
    f.fd = -1;
    if (strcmp(path, "-") == 0) {
        f.name = "<stdin>";
        f.fd = STDIN_FILENO;
        return ra_follow_stdin(&f);
    }
    f.name = path;

    for ( ;; ) {
        if (f.fd < 0) {
            rc = ra_follow_open(&f);
            if (rc < 0) {
                return -1;
            }
            if (rc > 0) {
                if (!waiting) {
                    fprintf(stderr, "robots-audit %s: %s does not exist: "
                            "waiting for it\n", r->cmd, f.name);
                    waiting = 1;
                }
                rc = 0;
                if (r->tick(r->tick_ctx)) {
                    return 0;
                }
                ra_follow_sleep();
                continue;
            }
            if (waiting) {
                fprintf(stderr, "robots-audit %s: %s: there now, reading "
                        "it\n", r->cmd, f.name);
                waiting = 0;
            }
        }
        if (r->tick(r->tick_ctx)) {
            /* stopped: what the file holds now is read first */
            if (ra_follow_drain(&f, f.fd) < 0) {
                goto failed;
            }
            break;
        }
        if (fstat(f.fd, &st) != 0) {
            goto failed;
        }
        if (ra_follow_changed(&f, &st)) {
            rc = ra_follow_truncated(&f, &st);
            if (rc != 0) {
                rc = rc < 0 ? -1 : 0;
                break;
            }
            continue;
        }
        if (st.st_size > f.seen) {
            f.seen = st.st_size;
        }
        f.looked = ra_logread_ms();
        n = ra_follow_read(&f, f.fd);
        if (n == -2) {
            break;
        }
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN) {
                continue;
            }
            goto failed;
        }
        if (n > 0) {
            continue;
        }
        /* the end of the file for now: another file at the path? */
        if (stat(path, &cur) == 0
            && (cur.st_ino != f.ino || cur.st_dev != f.dev))
        {
            /* rotated: a writer may still add to the old file until it
             * reopens, so it is read once more to its end */
            n = ra_follow_drain(&f, f.fd);
            if (n < 0) {
                goto failed;
            }
            if (n > 0 || ra_follow_rest(&f)) {
                break;
            }
            fprintf(stderr, "robots-audit %s: %s: rotated (a new file at "
                    "its path): the old one was read to its end (%lld "
                    "bytes); reading the new one from its start\n", r->cmd,
                    f.name, (long long) f.pos);
            close(f.fd);
            f.fd = -1;
            continue;
        }
        ra_follow_sleep();
    }
    close(f.fd);
    return rc;

failed:
    ra_cli_error(r->cmd, "%s: %s", f.name, strerror(errno));
    close(f.fd);
    return -1;
}
