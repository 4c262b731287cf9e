/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The syslog peer of ra_syslog.h: reading the "syslog:..." word as nginx
 * reads it, the socket, and nginx's RFC 3164 framing of each line.  Plain
 * POSIX, so that any server's glue only hands the peer to the event
 * writer.
 */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include "ra_syslog.h"

/* nginx's names, in the order of their numbers */
static const char  *const ra_syslog_facilities[] = {
    "kern", "user", "mail", "daemon", "auth", "intern", "lpr", "news", "uucp",
    "clock", "authpriv", "ftp", "ntp", "audit", "alert", "cron", "local0",
    "local1", "local2", "local3", "local4", "local5", "local6", "local7", NULL
};

static const char  *const ra_syslog_severities[] = {
    "emerg", "alert", "crit", "error", "warn", "notice", "info", "debug", NULL
};

static const char  ra_syslog_months[12][4] = {
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct",
    "Nov", "Dec"
};

int
ra_syslog_is(ra_str_t word)
{
    return ra_startswith_ci(word, "syslog:");
}

static int
ra_syslog_name(ra_str_t v, const char *const *names, unsigned *out)
{
    unsigned  i;

    for (i = 0; names[i] != NULL; i++) {
        if (v.len == strlen(names[i])
            && memcmp(v.data, names[i], v.len) == 0)
        {
            *out = i;
            return RA_OK;
        }
    }
    return RA_ERROR;
}

/* server=unix:PATH */
static int
ra_syslog_unix(ra_syslog_t *s, ra_str_t path, ra_buf_t *msg)
{
    struct sockaddr_un  *un = (struct sockaddr_un *) &s->addr;

    if (path.len == 0 || path.len >= sizeof(un->sun_path)) {
        ra_buf_cstr(msg, "syslog server=unix: path empty or too long");
        return RA_ERROR;
    }
    memset(un, 0, sizeof(*un));
    un->sun_family = AF_UNIX;
    memcpy(un->sun_path, path.data, path.len);
    s->addr_len = (socklen_t) sizeof(*un);
    return RA_OK;
}

/* server=HOST[:PORT], HOST an address, [IPv6] or a name */
static int
ra_syslog_server(ra_syslog_t *s, ra_str_t v, ra_buf_t *msg)
{
    char                  host[RA_SYSLOG_HOST_MAX + 1], port[8];
    const unsigned char  *colon, *end = v.data + v.len;
    size_t                hl, i;
    unsigned              pn = RA_SYSLOG_PORT;
    struct addrinfo       hints, *res = NULL;
    int                   rc;

    if (ra_startswith_ci(v, "unix:")) {
        return ra_syslog_unix(s, ra_str(v.data + 5, v.len - 5), msg);
    }
    if (v.len && v.data[0] == '[') {
        colon = memchr(v.data, ']', v.len);
        if (colon == NULL) {
            goto bad;
        }
        hl = (size_t) (colon - v.data) - 1;
        memcpy(host, v.data + 1, hl < sizeof(host) ? hl : 0);
        colon++;
        if (colon < end && *colon != ':') {
            goto bad;
        }
    } else {
        colon = memchr(v.data, ':', v.len);
        hl = (size_t) ((colon ? colon : end) - v.data);
        if (hl < sizeof(host)) {
            memcpy(host, v.data, hl);
        }
    }
    if (hl == 0 || hl >= sizeof(host)) {
        goto bad;
    }
    host[hl] = '\0';
    if (colon != NULL && colon < end) {
        pn = 0;
        for (i = 1; colon + i < end; i++) {
            if (!ra_isdigit(colon[i]) || pn > 65535) {
                goto bad;
            }
            pn = pn * 10 + (unsigned) (colon[i] - '0');
        }
        if (i == 1 || pn == 0 || pn > 65535) {
            goto bad;
        }
    }
    (void) snprintf(port, sizeof(port), "%u", pn);
    memset(&hints, 0, sizeof(hints));
    hints.ai_socktype = SOCK_DGRAM;
    hints.ai_flags = AI_NUMERICSERV;
    rc = getaddrinfo(host, port, &hints, &res);
    if (rc != 0 || res == NULL || res->ai_addrlen > sizeof(s->addr)) {
        ra_buf_printf(msg, "syslog server \"%s\" not found: %s", host,
                      rc != 0 ? gai_strerror(rc) : "no address");
        if (res != NULL) {
            freeaddrinfo(res);
        }
        return RA_ERROR;
    }
    memcpy(&s->addr, res->ai_addr, res->ai_addrlen);
    s->addr_len = res->ai_addrlen;
    freeaddrinfo(res);
    return RA_OK;

bad:
    ra_buf_printf(msg, "syslog server=\"%.*s\" is not ADDR[:PORT], "
                  "[IPv6][:PORT] or unix:PATH", (int) v.len,
                  (const char *) v.data);
    return RA_ERROR;
}

static int
ra_syslog_tag(ra_syslog_t *s, ra_str_t v, ra_buf_t *msg)
{
    size_t  i;

    if (v.len == 0 || v.len > RA_SYSLOG_TAG_MAX) {
        ra_buf_printf(msg, "syslog tag is empty or longer than %d bytes",
                      RA_SYSLOG_TAG_MAX);
        return RA_ERROR;
    }
    for (i = 0; i < v.len; i++) {
        if (!ra_isalpha(v.data[i]) && !ra_isdigit(v.data[i])
            && v.data[i] != '_')
        {
            ra_buf_cstr(msg, "syslog tag takes letters, digits and _ only");
            return RA_ERROR;
        }
    }
    memcpy(s->tag, v.data, v.len);
    s->tag[v.len] = '\0';
    return RA_OK;
}

static int
ra_syslog_param(ra_syslog_t *s, ra_str_t p, int *server, ra_buf_t *msg)
{
    const unsigned char  *eq = memchr(p.data, '=', p.len);
    ra_str_t              k, v;

    if (p.len == 10 && memcmp(p.data, "nohostname", 10) == 0) {
        s->nohostname = 1;
        return RA_OK;
    }
    if (eq == NULL) {
        goto unknown;
    }
    k = ra_str(p.data, (size_t) (eq - p.data));
    v = ra_str(eq + 1, p.len - k.len - 1);
    if (k.len == 6 && memcmp(k.data, "server", 6) == 0) {
        *server = 1;
        return ra_syslog_server(s, v, msg);
    }
    if (k.len == 3 && memcmp(k.data, "tag", 3) == 0) {
        return ra_syslog_tag(s, v, msg);
    }
    if (k.len == 8 && memcmp(k.data, "facility", 8) == 0) {
        if (ra_syslog_name(v, ra_syslog_facilities, &s->facility) != RA_OK) {
            ra_buf_printf(msg, "unknown syslog facility \"%.*s\"",
                          (int) v.len, (const char *) v.data);
            return RA_ERROR;
        }
        return RA_OK;
    }
    if (k.len == 8 && memcmp(k.data, "severity", 8) == 0) {
        if (ra_syslog_name(v, ra_syslog_severities, &s->severity) != RA_OK) {
            ra_buf_printf(msg, "unknown syslog severity \"%.*s\"",
                          (int) v.len, (const char *) v.data);
            return RA_ERROR;
        }
        return RA_OK;
    }
unknown:
    ra_buf_printf(msg, "unknown syslog parameter \"%.*s\"", (int) p.len,
                  (const char *) p.data);
    return RA_ERROR;
}

int
ra_syslog_parse(ra_syslog_t *s, ra_str_t word, const char *deftag,
    ra_buf_t *msg)
{
    const unsigned char  *p, *comma, *end;
    int                   server = 0;

    memset(s, 0, sizeof(*s));
    s->fd = -1;
    s->facility = 23;                   /* local7 */
    s->severity = 6;                    /* info */
    (void) ra_syslog_tag(s, ra_str_z(deftag), msg);
    if (!ra_syslog_is(word)) {
        ra_buf_cstr(msg, "a syslog destination starts with \"syslog:\"");
        return RA_ERROR;
    }
    p = word.data + 7;
    end = word.data + word.len;
    while (p < end) {
        comma = memchr(p, ',', (size_t) (end - p));
        if (comma == NULL) {
            comma = end;
        }
        if (ra_syslog_param(s, ra_str(p, (size_t) (comma - p)), &server,
                            msg) != RA_OK)
        {
            return RA_ERROR;
        }
        p = comma + 1;
    }
    if (!server) {
        ra_buf_cstr(msg, "no syslog server=");
        return RA_ERROR;
    }
    return RA_OK;
}

int
ra_syslog_open(ra_syslog_t *s)
{
    int  fd;

    if (gethostname(s->host, sizeof(s->host)) != 0) {
        memcpy(s->host, "localhost", sizeof("localhost"));
    }
    s->host[sizeof(s->host) - 1] = '\0';
    fd = socket(s->addr.ss_family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
                0);
    if (fd == -1) {
        return RA_ERROR;
    }
    /* a network peer connected, so that a send names no address; a
     * unix one named at each send, so that a socket not there yet (its
     * reader starts later) is found once it is */
    if (s->addr.ss_family != AF_UNIX
        && connect(fd, (struct sockaddr *) &s->addr, s->addr_len) != 0)
    {
        (void) close(fd);
        return RA_ERROR;
    }
    s->fd = fd;
    s->open = 1;
    return RA_OK;
}

void
ra_syslog_close(ra_syslog_t *s)
{
    if (s->open) {
        (void) close(s->fd);
        s->open = 0;
        s->fd = -1;
    }
}

size_t
ra_syslog_header(const ra_syslog_t *s, int64_t now_sec, char *out)
{
    time_t     t = (time_t) now_sec;
    struct tm  tm;
    int        n;

    if (localtime_r(&t, &tm) == NULL) {
        memset(&tm, 0, sizeof(tm));
    }
    /* nginx's "%s %2d %02d:%02d:%02d" (ngx_cached_syslog_time) */
    n = snprintf(out, RA_SYSLOG_HEADER_MAX,
                 "<%u>%s %2d %02d:%02d:%02d %s%s%s: ",
                 s->facility * 8 + s->severity,
                 ra_syslog_months[tm.tm_mon >= 0 && tm.tm_mon < 12
                                  ? tm.tm_mon : 0],
                 tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                 s->nohostname ? "" : s->host, s->nohostname ? "" : " ",
                 s->tag);
    return n > 0 && n < RA_SYSLOG_HEADER_MAX ? (size_t) n : 0;
}

int
ra_syslog_write(void *file, const void *p, size_t *n)
{
    ra_syslog_t  *s = file;
    char          head[RA_SYSLOG_HEADER_MAX];
    char         *at;
    size_t        h;
    ssize_t       sent;

    if (!s->open) {
        *n = 0;
        return EBADF;
    }
    h = ra_syslog_header(s, (int64_t) time(NULL), head);
    at = (char *) p - h;
    memcpy(at, head, h);
    if (s->addr.ss_family == AF_UNIX) {
        sent = sendto(s->fd, at, h + *n, MSG_DONTWAIT | MSG_NOSIGNAL,
                      (struct sockaddr *) &s->addr, s->addr_len);
    } else {
        sent = send(s->fd, at, h + *n, MSG_DONTWAIT | MSG_NOSIGNAL);
    }
    if (sent != (ssize_t) (h + *n)) {
        *n = 0;
        return sent < 0 ? errno : EAGAIN;
    }
    return 0;
}
