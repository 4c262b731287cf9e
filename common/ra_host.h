/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The host interface: what a server (nginx, Apache) or the CLI offers the
 * core, as a small table of functions, the way httpd's providers and
 * nginx's shm_zone hooks hand a module its environment.  The glue fills
 * one in at configuration time; the core decides everything else.
 *
 *   log        write one line at a level; "where" is the request it is
 *              about (the server's request object, handed back as it was
 *              given in ra_request_t.where), or NULL for the server's own
 *              log.  The core formats the whole line, tag included
 *              ("robots-audit: [RA311] ..."; ra_tags.h), and escapes
 *              everything in it that came from the network.
 *   now        the time in Unix milliseconds (the server's cached clock)
 *   read_file  read at most max bytes of a file; NULL: the core's POSIX
 *              reader (ra_host_read_file_posix)
 *   heap       memory that can be freed (scratch, caches, pages)
 *   lock       the ledger's lock (nginx's zone mutex, an APR global
 *              mutex); NULL functions where one process owns the ledger
 *   rdns_start start a reverse-DNS lookup (nginx's resolver, c-ares)
 *
 * Every member may be NULL but heap: a NULL log drops lines, a NULL now
 * reads the system clock.
 */
#ifndef RA_HOST_H
#define RA_HOST_H

#include "ra_core.h"
#include "ra_buf.h"
#include "ra_tags.h"

/* syslog's order, as both servers' levels are */
typedef enum {
    RA_LOG_EMERG = 0,           /* the server cannot start */
    RA_LOG_ALERT = 1,
    RA_LOG_CRIT = 2,
    RA_LOG_ERR = 3,
    RA_LOG_WARN = 4,
    RA_LOG_NOTICE = 5,
    RA_LOG_INFO = 6,
    RA_LOG_DEBUG = 7
} ra_log_level_e;

typedef struct {
    void  (*lock)(void *ctx);
    void  (*unlock)(void *ctx);
    void   *ctx;
} ra_lock_t;

typedef struct ra_host_s  ra_host_t;

struct ra_host_s {
    void      *ctx;

    void     (*log)(const ra_host_t *h, void *where, ra_log_level_e level,
                    ra_str_t line);
    int64_t  (*now)(const ra_host_t *h);

    /*
     * Reads at most max bytes of path into memory from a (freed with
     * ra_free(a, out->data)); *size gets the file's whole size.  RA_OK;
     * RA_ERROR with why set ("cannot open /x: No such file or
     * directory"); RA_ENOMEM.  A file that does not exist answers
     * RA_EAGAIN, so a caller can tell "absent" from "unreadable".
     */
    int      (*read_file)(const ra_host_t *h, const char *path, size_t max,
                          const ra_alloc_t *a, ra_str_t *out, size_t *size,
                          ra_buf_t *why);

    ra_alloc_t  heap;
    ra_lock_t   lock;

    /*
     * The modification time of path in Unix ms (a range file's age, issue
     * 16).  RA_OK, or RA_ERROR when it cannot be known.  NULL: the core's
     * stat() (ra_host_file_mtime_posix).
     */
    int      (*file_mtime)(const ra_host_t *h, const char *path,
                           int64_t *ms);

    /* The host's log escapes bytes < 0x20 and >= 0x7f itself (Apache's
     * error log writes them as \xHH, or \n \r \t \b \v, and doubles
     * every backslash): ra_logf() hands it those bytes raw instead of the
     * core's \xHH, so that they read \xHH once, not \\xHH. */
    unsigned    log_escapes:1;

    /*
     * Cryptography, from the host's library (OpenSSL's libcrypto in both
     * servers and the CLI: ra_host_crypto_libcrypto() fills these in); the
     * core does none itself.  NULL: Web Bot Auth signatures are left
     * unchecked (ra_sig.h).
     *   sha256          SHA-256 of s into out; RA_OK or RA_ERROR
     *   ed25519_verify  1 when sig is pub's Ed25519 signature of msg, 0
     *                   when it is not, < 0 on an error of the library
     */
    int      (*sha256)(const ra_host_t *h, ra_str_t s, unsigned char *out);
    int      (*ed25519_verify)(const ra_host_t *h, const unsigned char *pub,
                               ra_str_t msg, const unsigned char *sig);
    /* Reverse DNS (docs/design.md, "Reverse DNS"): starts resolving
     * addr (16 bytes, network order, IPv4 as ::ffff:a.b.c.d) without
     * waiting: its PTR name, then that name's A and AAAA addresses;
     * where is the request that asked (ra_request_t.where: nginx takes
     * the resolver in effect for it).  The
     * host later hands them to ra_audit_rdns_done() (ok 0 when the
     * resolver gave no answer).  RA_OK when started; anything else means
     * not started (the lookup counts as failed).  NULL: no reverse DNS
     * (judged by ranges only). */
    int       (*rdns_start)(const ra_host_t *h, void *where,
                            const uint8_t addr[16]);
    /* what rdns_start works with when it is the core's own (the resolver
     * thread of resolver/ra_ares_thread.h); NULL otherwise */
    void       *rdns_ctx;
};

/* A server's host, made of the same parts in every server: its own log
 * (escaping bytes itself or not, log_escapes) and clock; memory from the
 * C heap, which the core frees; files read and dated by the core's POSIX
 * functions; libcrypto's digests and signatures for Web Bot Auth.  The
 * other members are zero: the glue sets ctx and the ledger's lock. */
void ra_host_server_init(ra_host_t *h,
    void (*log)(const ra_host_t *, void *, ra_log_level_e, ra_str_t),
    int64_t (*now)(const ra_host_t *), int log_escapes);

/* Sets h->sha256 and h->ed25519_verify to libcrypto's (ra_digest.c, the
 * core's one adapter to the library it links for digests). */
void ra_host_crypto_libcrypto(ra_host_t *h);
int ra_host_sha256_libcrypto(const ra_host_t *h, ra_str_t s,
    unsigned char *out);
int ra_host_ed25519_libcrypto(const ra_host_t *h, const unsigned char *pub,
    ra_str_t msg, const unsigned char *sig);

/* Formats "robots-audit: [tag] ..." (at most RA_HOST_LINE_MAX bytes, the
 * rest cut) and hands it to h->log.  The format's own text is trusted;
 * values from the network go in through ra_buf_log() first, or with
 * ra_logf_str() below. */
#define RA_HOST_LINE_MAX  2048

void ra_logf(const ra_host_t *h, void *where, ra_log_level_e level,
    const char *tag, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Hands line[0..n) ("robots-audit: [tag] ...", as ra_logf() formats it)
 * to h->log: cut at RA_HOST_LINE_MAX - 1 bytes and, for a host whose log
 * escapes bytes itself (log_escapes), unescaped in place.  What ra_logf()
 * does with its line; for a writer that formats its own (ra_alert.c). */
void ra_log_line(const ra_host_t *h, void *where, ra_log_level_e level,
    unsigned char *line, size_t n);

/* Turns the \xHH escapes of bytes 0x01..0x1f and 0x7f..0xff in p[0..n)
 * back into those bytes, in place, for a host whose log escapes them
 * itself (log_escapes); returns the new length. */
size_t ra_log_unescape(unsigned char *p, size_t n);

/* The current time through the host, or the system clock. */
int64_t ra_host_now(const ra_host_t *h);

/* Reads a file through the host (or the POSIX reader). */
int ra_host_read_file(const ra_host_t *h, const char *path, size_t max,
    const ra_alloc_t *a, ra_str_t *out, size_t *size, ra_buf_t *why);

/* The POSIX reader: a regular file only (a directory, a FIFO or a device
 * is refused, so configuration never blocks on one). */
int ra_host_read_file_posix(const ra_host_t *h, const char *path,
    size_t max, const ra_alloc_t *a, ra_str_t *out, size_t *size,
    ra_buf_t *why);

/* A file's modification time through the host (or stat()). */
int ra_host_file_mtime(const ra_host_t *h, const char *path, int64_t *ms);
int ra_host_file_mtime_posix(const ra_host_t *h, const char *path,
    int64_t *ms);

/* Replaces path with data[0..len) whole: written to a temporary file
 * made by mkstemp() beside it (mode 0600), synced, renamed over path, and
 * the directory synced, so that a reader, or the next start after a
 * crash, finds the previous file or the new one, never a part.  A path
 * that names a device, a pipe or a socket (/dev/null, /dev/stdout, a
 * FIFO) is written where it is instead.  RA_OK, or RA_ERROR with why set
 * ("cannot rename ...: Permission denied"). */
int ra_file_replace(const char *path, const void *data, size_t len,
    ra_buf_t *why);

/* The same with the mode the new file gets (0644 for a file others read,
 * the old file's to keep it) instead of 0600. */
int ra_file_replace_mode(const char *path, const void *data, size_t len,
    unsigned mode, ra_buf_t *why);

/* The base name of a path (after the last '/'), as range lists are
 * named. */
const char *ra_basename(const char *path);

#endif /* RA_HOST_H */
