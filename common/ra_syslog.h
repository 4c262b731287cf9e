/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A syslog peer for the event stream of a server that has no syslog
 * writer of its own (Apache): the "syslog:server=ADDR[:PORT][,tag=TAG]
 * [,facility=F][,severity=S][,nohostname]" word read with nginx's syntax
 * and defaults, a datagram socket that never waits, and each line framed
 * as nginx frames it (RFC 3164: "<PRI>Mmm dd hh:mm:ss HOST TAG: "), so
 * that the collector reads both servers' lines alike.  nginx keeps its
 * own writer; this is the one other servers share.
 */
#ifndef RA_SYSLOG_H
#define RA_SYSLOG_H

#include <sys/socket.h>

#include "ra_core.h"
#include "ra_buf.h"

#define RA_SYSLOG_PORT        514
#define RA_SYSLOG_TAG_MAX     32        /* nginx's bound */
#define RA_SYSLOG_HOST_MAX    255
/* The largest datagram a UDP socket sends (65,535 less the IPv4 and UDP
 * headers): a line longer than this with its header cannot go whole. */
#define RA_SYSLOG_DATAGRAM    65507u

typedef struct {
    struct sockaddr_storage  addr;      /* inet, inet6 or unix */
    socklen_t                addr_len;
    unsigned                 facility;  /* 0..23: local7 by default */
    unsigned                 severity;  /* 0..7: info by default */
    int                      nohostname;
    int                      fd;        /* its socket, while open */
    int                      open;
    char                     tag[RA_SYSLOG_TAG_MAX + 1];
    char                     host[RA_SYSLOG_HOST_MAX + 1];
} ra_syslog_t;

/* Is word a syslog destination ("syslog:...", any case)? */
int ra_syslog_is(ra_str_t word);

/*
 * Reads word ("syslog:server=...") into s, with the port 514, the
 * facility local7, the severity info and the tag deftag unless it says
 * otherwise (nginx's defaults, its tag apart).  The server is an IPv4
 * address, an IPv6 one in brackets, a name (resolved now, the first
 * address taken) or unix:PATH.  RA_OK; else RA_ERROR with the reason in
 * msg.
 */
int ra_syslog_parse(ra_syslog_t *s, ra_str_t word, const char *deftag,
    ra_buf_t *msg);

/* Opens s's socket (non-blocking, close-on-exec, connected to the
 * server) and notes the host's name.  RA_OK; else RA_ERROR, errno set. */
int ra_syslog_open(ra_syslog_t *s);
void ra_syslog_close(ra_syslog_t *s);

/*
 * Writes s's header for the local time now into out (room for at least
 * RA_SYSLOG_HEADER_MAX bytes) and answers its length.
 */
#define RA_SYSLOG_HEADER_MAX  (6 + 16 + RA_SYSLOG_HOST_MAX + 1 \
                               + RA_SYSLOG_TAG_MAX + 2)
size_t ra_syslog_header(const ra_syslog_t *s, int64_t now_sec, char *out);

/*
 * The write of a ra_logfile_t whose file is a ra_syslog_t: sends p[0..*n)
 * as one datagram, its header written into the bytes before p (the
 * caller leaves RA_SYSLOG_HEADER_MAX of them: the event writer's
 * headroom).  Never waits: 0 with *n unchanged when it went whole; else
 * *n = 0 and the errno value (EAGAIN: the socket's buffer is full).
 */
int ra_syslog_write(void *file, const void *p, size_t *n);

#endif /* RA_SYSLOG_H */
