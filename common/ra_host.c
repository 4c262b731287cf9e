/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The host interface's shared parts: formatted log lines, the clock and
 * the POSIX file reader (ra_host.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ra_host.h"

void
ra_logf(const ra_host_t *h, void *where, ra_log_level_e level,
    const char *tag, const char *fmt, ...)
{
    int      n, k;
    char     line[RA_HOST_LINE_MAX];
    va_list  ap;

    if (h == NULL || h->log == NULL) {
        return;
    }
    n = snprintf(line, sizeof(line), RA_LOG_PREFIX "[%s] ", tag);
    if (n < 0 || (size_t) n >= sizeof(line)) {
        return;
    }
    va_start(ap, fmt);
    k = vsnprintf(line + n, sizeof(line) - (size_t) n, fmt, ap);
    va_end(ap);
    if (k < 0) {
        k = 0;
    }
    ra_log_line(h, where, level, (unsigned char *) line, (size_t) n + k);
}

void
ra_log_line(const ra_host_t *h, void *where, ra_log_level_e level,
    unsigned char *line, size_t n)
{
    if (n >= RA_HOST_LINE_MAX) {
        n = RA_HOST_LINE_MAX - 1;       /* cut */
    }
    if (h->log_escapes) {
        n = ra_log_unescape(line, n);
    }
    h->log(h, where, level, ra_str(line, n));
}

size_t
ra_log_unescape(unsigned char *p, size_t n)
{
    size_t                i, o;
    int                   hi, lo, c;
    const unsigned char  *bs = memchr(p, '\\', n);

    /* the bytes before the first backslash stay as they are */
    for (i = o = bs != NULL ? (size_t) (bs - p) : n; i < n; ) {
        if (p[i] == '\\' && i + 3 < n
            && p[i + 1] == 'x'
            && (hi = ra_hexval(p[i + 2])) >= 0
            && (lo = ra_hexval(p[i + 3])) >= 0)
        {
            c = hi << 4 | lo;
            /* NUL would end the host's string; printable bytes are
             * written as they are */
            if ((c >= 0x01 && c < 0x20) || c >= 0x7f) {
                p[o++] = (unsigned char) c;
                i += 4;
                continue;
            }
        }
        p[o++] = p[i++];
    }
    return o;
}

int64_t
ra_host_now(const ra_host_t *h)
{
    struct timespec  ts;

    if (h != NULL && h->now != NULL) {
        return h->now(h);
    }
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int
ra_host_read_file(const ra_host_t *h, const char *path, size_t max,
    const ra_alloc_t *a, ra_str_t *out, size_t *size, ra_buf_t *why)
{
    if (h != NULL && h->read_file != NULL) {
        return h->read_file(h, path, max, a, out, size, why);
    }
    return ra_host_read_file_posix(h, path, max, a, out, size, why);
}

int
ra_host_file_mtime(const ra_host_t *h, const char *path, int64_t *ms)
{
    if (h != NULL && h->file_mtime != NULL) {
        return h->file_mtime(h, path, ms);
    }
    return ra_host_file_mtime_posix(h, path, ms);
}

int
ra_host_file_mtime_posix(const ra_host_t *h, const char *path, int64_t *ms)
{
    struct stat  st;

    (void) h;
    if (stat(path, &st) != 0) {
        return RA_ERROR;
    }
    *ms = (int64_t) st.st_mtim.tv_sec * 1000 + st.st_mtim.tv_nsec / 1000000;
    return RA_OK;
}

int
ra_host_read_file_posix(const ra_host_t *h, const char *path, size_t max,
    const ra_alloc_t *a, ra_str_t *out, size_t *size, ra_buf_t *why)
{
    int             fd, rc;
    size_t          len, got;
    ssize_t         n;
    struct stat     st;
    unsigned char  *buf;

    (void) h;
    out->data = NULL;
    out->len = 0;
    *size = 0;

    /* O_NONBLOCK: a FIFO named by mistake must not hang the server */
    fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd == -1) {
        rc = errno == ENOENT ? RA_EAGAIN : RA_ERROR;
        ra_buf_printf(why, "cannot open \"%s\": %s", path, strerror(errno));
        return rc;
    }
    if (fstat(fd, &st) == -1) {
        ra_buf_printf(why, "cannot stat \"%s\": %s", path, strerror(errno));
        close(fd);
        return RA_ERROR;
    }
    if (!S_ISREG(st.st_mode)) {
        ra_buf_printf(why, "\"%s\" is not a regular file", path);
        close(fd);
        return RA_ERROR;
    }

    *size = (size_t) st.st_size;
    len = *size < max ? *size : max;
    buf = ra_alloc(a, len + 1);
    if (buf == NULL) {
        ra_buf_printf(why, "out of memory reading \"%s\"", path);
        close(fd);
        return RA_ENOMEM;
    }

    for (got = 0; got < len; got += (size_t) n) {
        n = read(fd, buf + got, len - got);
        if (n == -1 && errno == EINTR) {
            n = 0;
            continue;
        }
        if (n == -1) {
            ra_buf_printf(why, "cannot read \"%s\": %s", path, strerror(errno));
            ra_free(a, buf);
            close(fd);
            return RA_ERROR;
        }
        if (n == 0) {
            break;                      /* it shrank meanwhile */
        }
    }
    close(fd);

    buf[got] = '\0';
    out->data = buf;
    out->len = got;
    return RA_OK;
}

int
ra_file_replace(const char *path, const void *data, size_t len,
    ra_buf_t *why)
{
    return ra_file_replace_mode(path, data, len, 0600, why);
}

/* Writes p[0..len) to fd (the file name) whole, through short writes
 * and signals. */
static int
ra_file_write_all(int fd, const char *name, const unsigned char *p,
    size_t len, ra_buf_t *why)
{
    size_t   off;
    ssize_t  n;

    for (off = 0; off < len; off += (size_t) n) {
        n = write(fd, p + off, len - off);
        if (n == -1 && errno == EINTR) {
            n = 0;
            continue;
        }
        if (n <= 0) {
            ra_buf_printf(why, "cannot write \"%s\": %s", name,
                          n == 0 ? "no space written" : strerror(errno));
            return RA_ERROR;
        }
    }
    return RA_OK;
}

/* A path that names a device, a pipe or a socket (/dev/null,
 * /dev/stdout, a FIFO a reader waits on) is written where it is: a
 * temporary file renamed over it would put a regular file in its place,
 * and, run as root, take /dev/null from the whole machine. */
static int
ra_file_write_special(const char *path, const unsigned char *p, size_t len,
    ra_buf_t *why)
{
    int  fd, rc;

    fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
    if (fd == -1) {
        ra_buf_printf(why, "cannot open \"%s\": %s", path, strerror(errno));
        return RA_ERROR;
    }
    rc = ra_file_write_all(fd, path, p, len, why);
    if (close(fd) != 0 && rc == RA_OK) {
        ra_buf_printf(why, "cannot write \"%s\": %s", path, strerror(errno));
        rc = RA_ERROR;
    }
    return rc;
}

int
ra_file_replace_mode(const char *path, const void *data, size_t len,
    unsigned mode, ra_buf_t *why)
{
    int                   fd;
    char                  tmp[4096], dir[4096];
    size_t                off;
    const char           *slash;
    struct stat           st;
    const unsigned char  *p = data;

    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)
        && !S_ISDIR(st.st_mode))
    {
        return ra_file_write_special(path, p, len, why);
    }
    if ((size_t) snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path)
        >= sizeof(tmp))
    {
        ra_buf_printf(why, "the path \"%s\" is too long", path);
        return RA_ERROR;
    }
    fd = mkstemp(tmp);
    if (fd == -1) {
        ra_buf_printf(why, "cannot create \"%s\": %s", tmp, strerror(errno));
        return RA_ERROR;
    }
    if (mode != 0600 && fchmod(fd, (mode_t) mode) != 0) {
        ra_buf_printf(why, "cannot set the mode of \"%s\": %s", tmp,
                      strerror(errno));
        goto failed;
    }
    if (ra_file_write_all(fd, tmp, p, len, why) != RA_OK) {
        goto failed;
    }
    if (fsync(fd) != 0) {
        ra_buf_printf(why, "cannot sync \"%s\": %s", tmp, strerror(errno));
        goto failed;
    }
    if (close(fd) != 0) {
        fd = -1;
        ra_buf_printf(why, "cannot write \"%s\": %s", tmp, strerror(errno));
        goto failed;
    }
    fd = -1;
    if (rename(tmp, path) != 0) {
        ra_buf_printf(why, "cannot rename \"%s\" to \"%s\": %s", tmp, path,
                      strerror(errno));
        goto failed;
    }
    /* the rename itself lasts through a crash once its directory is
     * synced */
    slash = strrchr(path, '/');
    off = slash == NULL ? 0 : slash == path ? 1 : (size_t) (slash - path);
    if (off < sizeof(dir)) {
        memcpy(dir, off ? path : ".", off ? off : 1);
        dir[off ? off : 1] = '\0';
        fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    }
    if (fd != -1) {
        (void) fsync(fd);
        close(fd);
    }
    return RA_OK;

failed:
    if (fd != -1) {
        close(fd);
    }
    (void) unlink(tmp);
    return RA_ERROR;
}

const char *
ra_basename(const char *path)
{
    const char  *s = strrchr(path, '/');

    return s != NULL ? s + 1 : path;
}

void
ra_host_server_init(ra_host_t *h,
    void (*log)(const ra_host_t *, void *, ra_log_level_e, ra_str_t),
    int64_t (*now)(const ra_host_t *), int log_escapes)
{
    memset(h, 0, sizeof(*h));
    h->log = log;
    h->now = now;
    h->log_escapes = log_escapes != 0;
    h->heap = ra_malloc_allocator;
    ra_host_crypto_libcrypto(h);
}
