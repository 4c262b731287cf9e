/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The collector's sockets and loop: syslog over UDP, TCP (a line per
 * message, as rsyslog and syslog-ng forward it, an RFC 6587 octet count
 * skipped) and a Unix datagram socket (nginx's syslog:server=unix:), and
 * the status page over loopback HTTP, all in one poll() loop with
 * bounded buffers: a line too long, a connection too many, is dropped and
 * counted, never waited for.
 */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include "cli.h"
#include "ra_collect.h"

/* connections at once (syslog streams and page requests) */
#define RA_COLLECT_CONNS    64
/* a page request's head, at most */
#define RA_COLLECT_HTTP_MAX 8192
/* datagrams read per socket per turn, so that no socket starves another */
#define RA_COLLECT_BURST    256

/* the listeners and the connections */
#define RA_NET_SLOTS  (RA_COLLECT_INPUTS * 3 + 1 + RA_COLLECT_CONNS)

typedef enum {
    RA_SOCK_DGRAM = 0,                  /* UDP or Unix: a message each */
    RA_SOCK_TCP_LISTEN,
    RA_SOCK_HTTP_LISTEN,
    RA_SOCK_TCP,                        /* a syslog stream */
    RA_SOCK_HTTP                        /* a page request */
} ra_sock_kind_e;

typedef struct {
    int              fd;
    ra_sock_kind_e   kind;
    unsigned char   *buf;
    size_t           len, cap;
    int              skipping;          /* a line too long: to its end */
} ra_sock_t;

typedef struct {
    ra_collect_t    *x;
    ra_sock_t        s[RA_NET_SLOTS];
    unsigned         n;
    unsigned char   *dgram;             /* RA_EVENTS_LINE_MAX + 1 */
} ra_net_t;

static volatile sig_atomic_t  ra_collect_term;

static void
ra_collect_signal(int sig)
{
    (void) sig;
    ra_collect_term = 1;
}

static int
ra_net_add(ra_net_t *t, int fd, ra_sock_kind_e kind)
{
    ra_sock_t  *s;

    if (t->n == sizeof(t->s) / sizeof(t->s[0])) {
        close(fd);
        return -1;
    }
    (void) fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    s = &t->s[t->n++];
    memset(s, 0, sizeof(*s));
    s->fd = fd;
    s->kind = kind;
    return 0;
}

static void
ra_net_close(ra_net_t *t, unsigned i)
{
    close(t->s[i].fd);
    free(t->s[i].buf);
    t->s[i] = t->s[--t->n];
}

/* HOST:PORT, [V6]:PORT, unix:PATH, or PORT (loopback) bound as type */
static int
ra_net_bind(const char *spec, int type, int deflt_loopback)
{
    struct addrinfo     hints, *ai = NULL;
    struct sockaddr_un  sun;
    char                host[256];
    const char         *port, *h;
    int                 fd, on = 1, rcvbuf = 8 << 20;

    if (strncmp(spec, "unix:", 5) == 0 || spec[0] == '/') {
        spec += spec[0] == '/' ? 0 : 5;
        memset(&sun, 0, sizeof(sun));
        sun.sun_family = AF_UNIX;
        if (strlen(spec) >= sizeof(sun.sun_path)) {
            return -1;
        }
        strcpy(sun.sun_path, spec);
        (void) unlink(spec);
        fd = socket(AF_UNIX, type, 0);
        if (fd >= 0 && (bind(fd, (struct sockaddr *) &sun, sizeof(sun)) != 0
                        || (type == SOCK_STREAM && listen(fd, 64) != 0)))
        {
            close(fd);
            return -1;
        }
        (void) setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(int));
        return fd;
    }
    port = strrchr(spec, ':');
    if (port == NULL) {
        h = deflt_loopback ? "127.0.0.1" : NULL;
        port = spec;
    } else {
        snprintf(host, sizeof(host), "%.*s", (int) (port - spec), spec);
        h = host;
        if (host[0] == '[') {
            memmove(host, host + 1, strlen(host));
            host[strcspn(host, "]")] = '\0';
        }
        port++;
    }
    memset(&hints, 0, sizeof(hints));
    hints.ai_socktype = type;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    if (getaddrinfo(h, port, &hints, &ai) != 0 || ai == NULL) {
        return -1;
    }
    fd = socket(ai->ai_family, type, 0);
    if (fd >= 0) {
        (void) setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on));
        (void) setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(int));
        if (bind(fd, ai->ai_addr, ai->ai_addrlen) != 0
            || (type == SOCK_STREAM && listen(fd, 64) != 0))
        {
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(ai);
    return fd;
}

static int
ra_net_open(ra_net_t *t, const char *spec, int type, ra_sock_kind_e kind,
    int loopback)
{
    int  fd = ra_net_bind(spec, type, loopback);

    if (fd < 0) {
        return ra_cli_error(RA_COLLECT_CMD, "cannot listen on %s: %s", spec,
                            strerror(errno));
    }
    return ra_net_add(t, fd, kind);
}

/* each line of a message or a stream's buffer; returns the bytes taken */
static size_t
ra_net_lines(ra_collect_t *x, unsigned char *p, size_t n, int whole)
{
    unsigned char  *nl, *start = p, *end = p + n;

    int64_t         now = ra_host_now(NULL);

    while (p < end && (nl = memchr(p, '\n', (size_t) (end - p))) != NULL) {
        ra_collect_hold(x, ra_str(p, (size_t) (nl - p)), now);
        p = nl + 1;
    }
    if (whole && p < end) {
        ra_collect_hold(x, ra_str(p, (size_t) (end - p)), now);
        p = end;
    }
    return (size_t) (p - start);
}

static void
ra_net_dgram(ra_net_t *t, ra_sock_t *s)
{
    ssize_t   n;
    unsigned  k;

    for (k = 0; k < RA_COLLECT_BURST; k++) {
        n = recv(s->fd, t->dgram, RA_EVENTS_LINE_MAX + 1, MSG_TRUNC);
        if (n < 0) {
            return;
        }
        if ((size_t) n > RA_EVENTS_LINE_MAX) {
            t->x->n.oversize++;
            continue;
        }
        (void) ra_net_lines(t->x, t->dgram, (size_t) n, 1);
    }
}

/* a stream's bytes; 0 at its end or on an error */
static int
ra_net_stream(ra_net_t *t, ra_sock_t *s)
{
    ssize_t         n;
    size_t          took, max = RA_EVENTS_LINE_MAX + 64;
    unsigned char  *nl;

    if (s->buf == NULL) {
        s->cap = 64 * 1024;
        s->buf = malloc(s->cap);
        if (s->buf == NULL) {
            return 0;
        }
    }
    if (s->len == s->cap) {
        if (s->cap >= max) {
            /* a line past the bound: dropped to its end */
            s->skipping = 1;
            s->len = 0;
            t->x->n.oversize++;
        } else {
            unsigned char  *b = realloc(s->buf, s->cap * 2);

            if (b == NULL) {
                return 0;
            }
            s->buf = b;
            s->cap *= 2;
        }
    }
    n = recv(s->fd, s->buf + s->len, s->cap - s->len, 0);
    if (n <= 0) {
        return n < 0 && (errno == EAGAIN || errno == EINTR);
    }
    s->len += (size_t) n;
    if (s->skipping) {
        nl = memchr(s->buf, '\n', s->len);
        if (nl == NULL) {
            s->len = 0;
            return 1;
        }
        s->skipping = 0;
        took = (size_t) (nl + 1 - s->buf);
        memmove(s->buf, s->buf + took, s->len - took);
        s->len -= took;
    }
    took = ra_net_lines(t->x, s->buf, s->len, 0);
    memmove(s->buf, s->buf + took, s->len - took);
    s->len -= took;
    return 1;
}

static void
ra_net_send_all(int fd, const unsigned char *p, size_t n)
{
    ssize_t  w;

    while (n > 0 && ((w = send(fd, p, n, MSG_NOSIGNAL)) > 0
                     || (w < 0 && errno == EINTR)))
    {
        if (w > 0) {
            p += w;
            n -= (size_t) w;
        }
    }
}

/* a page request's bytes; 0 once answered, or at its end */
static int
ra_net_http(ra_net_t *t, ra_sock_t *s)
{
    ssize_t          n;
    int              status, fl;
    const char      *type;
    unsigned char   *sp, *sp2, *q, *end;
    ra_buf_t         out, head;
    ra_str_t         method, query = ra_str("", 0);
    struct timeval   tv = { 5, 0 };

    if (s->buf == NULL) {
        s->cap = RA_COLLECT_HTTP_MAX;
        if ((s->buf = malloc(s->cap + 1)) == NULL) {
            return 0;
        }
    }
    n = recv(s->fd, s->buf + s->len, s->cap - s->len, 0);
    if (n <= 0) {
        return n < 0 && (errno == EAGAIN || errno == EINTR);
    }
    s->len += (size_t) n;
    s->buf[s->len] = '\0';
    if (strstr((char *) s->buf, "\r\n\r\n") == NULL
        && strstr((char *) s->buf, "\n\n") == NULL)
    {
        return s->len < s->cap;
    }
    end = s->buf + strcspn((char *) s->buf, "\r\n");
    sp = memchr(s->buf, ' ', (size_t) (end - s->buf));
    sp2 = sp ? memchr(sp + 1, ' ', (size_t) (end - sp - 1)) : NULL;
    if (sp2 == NULL) {
        sp2 = end;
    }
    method = ra_str(s->buf, sp ? (size_t) (sp - s->buf) : 0);
    if (sp != NULL && (q = memchr(sp, '?', (size_t) (sp2 - sp))) != NULL) {
        query = ra_str(q + 1, (size_t) (sp2 - q - 1));
    }
    ra_buf_init(&out, &ra_malloc_allocator, 64 * 1024, 0);
    ra_buf_init(&head, &ra_malloc_allocator, 512, 0);
    ra_collect_page(t->x, method, query, &status, &type, &out);
    ra_buf_printf(&head, "HTTP/1.0 %d %s\r\nContent-Type: %s\r\n"
                  "Content-Length: %zu\r\nCache-Control: no-store\r\n"
                  "Connection: close\r\n\r\n", status,
                  status == 200 ? "OK" : "Error", type, out.len);
    /* the answer is written whole, waiting a few seconds at most */
    fl = fcntl(s->fd, F_GETFL);
    (void) fcntl(s->fd, F_SETFL, fl & ~O_NONBLOCK);
    (void) setsockopt(s->fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
    ra_net_send_all(s->fd, head.data, head.len);
    if (!(method.len == 4 && memcmp(method.data, "HEAD", 4) == 0)) {
        ra_net_send_all(s->fd, out.data, out.len);
    }
    ra_buf_release(&head);
    ra_buf_release(&out);
    return 0;
}

static void
ra_net_accept(ra_net_t *t, ra_sock_t *s)
{
    int  fd = accept(s->fd, NULL, NULL);

    if (fd < 0) {
        return;
    }
    if (ra_net_add(t, fd, s->kind == RA_SOCK_TCP_LISTEN ? RA_SOCK_TCP
                                                        : RA_SOCK_HTTP) != 0)
    {
        t->x->n.dropped++;
    }
}

int
ra_collect_serve(ra_collect_t *x)
{
    ra_net_t           *t;
    struct pollfd       pfd[RA_NET_SLOTS];
    struct sigaction    sa;
    unsigned            i, n;
    int                 rc = -1, keep;

    t = calloc(1, sizeof(*t));
    if (t == NULL || (t->dgram = malloc(RA_EVENTS_LINE_MAX + 1)) == NULL) {
        free(t);
        return ra_cli_error(RA_COLLECT_CMD, "out of memory");
    }
    t->x = x;
    for (i = 0; i < x->nudp; i++) {
        if (ra_net_open(t, x->udp[i], SOCK_DGRAM, RA_SOCK_DGRAM, 0) != 0) {
            goto done;
        }
    }
    for (i = 0; i < x->nunix; i++) {
        if (ra_net_open(t, x->unix_path[i], SOCK_DGRAM, RA_SOCK_DGRAM, 0)
            != 0)
        {
            goto done;
        }
    }
    for (i = 0; i < x->ntcp; i++) {
        if (ra_net_open(t, x->tcp[i], SOCK_STREAM, RA_SOCK_TCP_LISTEN, 0)
            != 0)
        {
            goto done;
        }
    }
    if (x->listen != NULL
        && ra_net_open(t, x->listen, SOCK_STREAM, RA_SOCK_HTTP_LISTEN, 1)
           != 0)
    {
        goto done;
    }

    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = ra_collect_signal;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    sa.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &sa, NULL);

    while (!ra_collect_term) {
        n = t->n;
        for (i = 0; i < n; i++) {
            pfd[i].fd = t->s[i].fd;
            pfd[i].events = POLLIN;
            pfd[i].revents = 0;
        }
        if (poll(pfd, n, x->nheld ? 50 : 1000) < 0 && errno != EINTR) {
            break;
        }
        ra_collect_release(x, ra_host_now(NULL), 0);
        ra_ledger_saver_tick(&x->saver, ra_host_now(NULL));
        /* backwards: a closed connection's slot takes the last one's */
        for (i = n; i-- > 0;) {
            if (!(pfd[i].revents & (POLLIN | POLLHUP | POLLERR))) {
                continue;
            }
            switch (t->s[i].kind) {
            case RA_SOCK_DGRAM:
                ra_net_dgram(t, &t->s[i]);
                break;
            case RA_SOCK_TCP_LISTEN:
            case RA_SOCK_HTTP_LISTEN:
                ra_net_accept(t, &t->s[i]);
                break;
            default:
                keep = t->s[i].kind == RA_SOCK_TCP
                       ? ra_net_stream(t, &t->s[i])
                       : ra_net_http(t, &t->s[i]);
                if (!keep) {
                    ra_net_close(t, i);
                }
            }
        }
    }
    rc = 0;
done:
    ra_collect_release(x, 0, 1);
    while (t->n > 0) {
        ra_net_close(t, t->n - 1);
    }
    for (i = 0; i < x->nunix; i++) {
        (void) unlink(x->unix_path[i]);
    }
    free(t->dgram);
    free(t);
    return rc;
}
