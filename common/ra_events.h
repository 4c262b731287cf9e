/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The event stream that lets one collector judge a whole fleet: what a
 * server writes, one JSON line per crawler request and per robots.txt
 * answer, and how such a line is read back.  A line carries what the
 * engine needs to judge the request again (ra_audit_request(),
 * ra_audit_robots()), so the collector's verdicts are those of one server
 * that saw every request of every backend.
 *
 *   {"ev":"req","t":1764382800123,"site":"example.com",
 *    "client":"66.249.66.1","ua":"Googlebot/2.1","method":"GET",
 *    "uri":"/private/x","status":200,"rec":0,"verdict":"violation",
 *    "verification":"verified","robots_sha256":"9f86..."}
 *   {"ev":"robots","t":1764382800001,"site":"example.com",
 *    "client":"66.249.66.1","ua":"Googlebot/2.1","method":"GET",
 *    "uri":"/robots.txt","status":200,"hop":0,"type":"text/plain",
 *    "location":"","size":120,"truncated":0,"undecodable":0,
 *    "sha256":"9f86...","body":"VXNlci1hZ2VudDog..."}
 *
 * A request's verdict and verification are the writer's own, for the
 * reader to compare; the collector judges again.  An answer's body
 * (base64url, the decoded body up to the 500 KiB the capture keeps) goes
 * out only when its SHA-256 is new for this writer, or was last sent
 * RA_EVENTS_BODY_RESEND ago (a collector that restarted, or a line lost,
 * has it again within that time); a reader that has no body for a 2xx's
 * SHA-256 cannot record the version and counts the answer as lost.
 *
 * Strings are JSON-escaped (ra_buf_json_str()): a hostile User-Agent or
 * path can neither forge a key nor end the line.  Bytes that are not
 * UTF-8 read back as U+FFFD.  A reader takes lines of at most
 * RA_EVENTS_LINE_MAX bytes with the keys above and nothing deeper than
 * one object; anything else is refused, whole.
 */
#ifndef RA_EVENTS_H
#define RA_EVENTS_H

#include "ra_core.h"
#include "ra_buf.h"
#include "ra_logfile.h"
#include "ra_verdict.h"

/* The longest line: a 500 KiB body in base64 and the rest escaped. */
#define RA_EVENTS_LINE_MAX     (768u * 1024)
/* A string field is kept up to this many bytes (the body apart). */
#define RA_EVENTS_FIELD_MAX    4096
/* Room a writer leaves before each line for a transport's header (a
 * syslog header: "<PRI>Mmm dd hh:mm:ss HOST TAG: "). */
#define RA_EVENTS_HEADROOM     320
/* The longest line a datagram transport (syslog over UDP or a unix
 * datagram socket) is given: a UDP datagram's 65,507 bytes less the
 * header's room.  A longer line (a robots.txt answer with a large body)
 * is dropped and counted as oversize, never sent cut. */
#define RA_EVENTS_DATAGRAM_MAX (65507u - RA_EVENTS_HEADROOM)
/* What became of a line, as the ledger counts it (ra_events_tally_t). */
#define RA_EVENTS_SENT         0        /* went out whole */
#define RA_EVENTS_DROPPED      1        /* the transport refused it (a full
                                           socket or pipe, an error) */
#define RA_EVENTS_OVERSIZE     2        /* longer than the transport takes */
/* The syslog tag of a server that writes its own syslog lines (Apache)
 * unless the word says tag=: nginx's writer defaults to "nginx". */
#define RA_EVENTS_SYSLOG_TAG   "httpd"
/* Bodies a writer remembers having sent, and for how long. */
#define RA_EVENTS_BODY_SLOTS   64
#define RA_EVENTS_BODY_RESEND  (10LL * 60 * 1000)

typedef enum {
    RA_EVENT_NONE = 0,
    RA_EVENT_REQUEST,           /* "req": a request was judged */
    RA_EVENT_ROBOTS             /* "robots": a robots.txt answer */
} ra_event_kind_e;

/* One event as read back: spans into the reader's buffer. */
typedef struct {
    ra_event_kind_e  kind;
    int64_t          time;              /* Unix ms */
    ra_str_t         site;
    ra_str_t         client;            /* the address as text */
    ra_str_t         user_agent;
    ra_str_t         method;
    ra_str_t         uri;
    ra_str_t         referer;
    int              status;
    unsigned         recorded;          /* req: its answer was recorded */
    ra_str_t         verdict;           /* req: the writer's, by name */
    ra_str_t         verification;      /* req: the writer's, by name */
    unsigned         sha_known;         /* robots_sha256 (req) or sha256
                                           (robots) was given */
    unsigned char    sha256[32];
    /* robots only */
    unsigned         hop;
    unsigned         truncated;
    unsigned         undecodable;
    unsigned         has_body;          /* body was given (maybe empty) */
    size_t           size;
    ra_str_t         content_type;
    ra_str_t         location;
    ra_str_t         body;              /* decoded */
} ra_event_t;

/* The writer of one process: where its lines go and which bodies it has
 * sent.  Zero it, then set log (log.file NULL: no stream) and most.  The
 * threads of a process share it: its numbers are atomics, and its table
 * of bodies is taken by one thread at a time (another that finds it
 * taken sends the body again rather than wait). */
typedef struct ra_events_s {
    ra_logfile_t     log;
    size_t           most;              /* the longest line the transport
                                           takes whole; 0: no bound */
    uint64_t         written;           /* lines sent whole */
    uint64_t         dropped;           /* lines the transport refused */
    uint64_t         oversize;          /* lines longer than most */
    int              owed;              /* a line went out torn: the next
                                           starts with a newline */
    int              busy;              /* a thread is at the table */
    int64_t          sent_at[RA_EVENTS_BODY_SLOTS];
    unsigned char    sent[RA_EVENTS_BODY_SLOTS][32];
} ra_events_t;

/* Does w have a stream?  A crawler's request (known or generic) goes
 * into it; a browser's does not. */
int ra_events_on(const ra_events_t *w);

/* Appends the line of a judged request (newline included). */
void ra_events_request_line(ra_buf_t *b, const ra_request_t *r,
    const ra_verdict_t *v);

/* Appends the line of a robots.txt answer for site at now, with its body
 * when with_body (newline included); sha: the body's SHA-256 (NULL: not
 * known, none written). */
void ra_events_robots_line(ra_buf_t *b, ra_str_t site,
    const ra_answer_t *ans, const unsigned char *sha, int with_body,
    int64_t now);

/*
 * Whether the body with SHA-256 sha is to go out at now: 1 (remembered as
 * sent) when it is new to w or was sent RA_EVENTS_BODY_RESEND ago.
 */
int ra_events_body_due(ra_events_t *w, const unsigned char *sha,
    int64_t now);

/*
 * Sends b's line (written after RA_EVENTS_HEADROOM bytes b holds before
 * it: ra_events_begin()) once, never waiting: a transport that takes
 * only part of it, or none, drops the line, and dropped counts it; a
 * line longer than w->most is not sent, and oversize counts it.  RA_OK
 * when it went out whole.  ra_events_put() answers the outcome
 * (RA_EVENTS_SENT, _DROPPED, _OVERSIZE).
 */
void ra_events_begin(ra_buf_t *b);
int ra_events_send(ra_events_t *w, ra_buf_t *b, unsigned *lost);
unsigned ra_events_put(ra_events_t *w, ra_buf_t *b);

/* The outcome's name for metrics: "sent", "dropped", "oversize". */
const char *ra_events_outcome_name(unsigned outcome);

/* Makes the descriptor fd (a pipe to a program, a file) one whose write
 * never waits: a full pipe answers EAGAIN, and the line is dropped. */
void ra_events_nowait(int fd);

/* What a server does with a judged request and with a recorded answer:
 * the line made and sent when w has a stream.  The outcome
 * (RA_EVENTS_SENT, ...), for the ledger to count; -1 when w has no
 * stream.  An answer's body that did not go out is due again at once. */
int ra_events_request(ra_events_t *w, const ra_alloc_t *a,
    const ra_request_t *r, const ra_verdict_t *v);
int ra_events_robots(ra_events_t *w, const ra_alloc_t *a, ra_str_t site,
    const ra_answer_t *ans, int64_t now);

/*
 * Reads one line (no newline; a syslog header before the object is
 * skipped: ra_events_unframe()) into ev, its strings decoded into
 * scratch[0..cap) (cap at least the line's length).  RA_OK; RA_ERROR for
 * a line that is not an event (malformed JSON, an unknown kind, a field
 * of the wrong type or too long, a bad SHA-256 or body); RA_ELIMIT for a
 * line over RA_EVENTS_LINE_MAX.
 */
int ra_events_read(ra_str_t line, unsigned char *scratch, size_t cap,
    ra_event_t *ev);

/*
 * The JSON object of a line as syslog delivered it: after an RFC 3164
 * header ("<PRI>Mmm dd hh:mm:ss HOST TAG: ") or an RFC 5424 one
 * ("<PRI>1 TIME HOST APP PROC MSGID SD "), an octet count before it
 * (RFC 6587), a trailing CR, or nothing (a file's line).  The span from
 * the first '{' on; len 0 when there is none.
 */
ra_str_t ra_events_unframe(ra_str_t line);

#endif /* RA_EVENTS_H */
