/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What a server module decides about an HTTP exchange, decided once for
 * nginx and Apache (the glue only translates its types to these spans):
 *
 *   which request is the robots.txt request      ra_http_is_robots()
 *   which answers are the robots.txt as served   ra_http_capture_wanted()
 *   the capped copy of that answer               ra_capture_t
 *   the site a request counts for                ra_sitenames_t
 *   an argument of a query string                ra_query_arg()
 *
 * The status page (method, format, headers, size cap, body) is
 * ra_status.h's.
 *
 * What enforce refuses is ra_enforce_refuses() (ra_verdict.h).
 */
#ifndef RA_HTTP_H
#define RA_HTTP_H

#include <string.h>

#include "ra_core.h"
#include "ra_buf.h"
#include "ra_ledger.h"
#include "ra_verdict.h"

/* The path of a request target as rules read it: origin-form as it is
 * (without a fragment; "//x" is a path here, not an authority),
 * absolute-form through the URL rules. */
ra_str_t ra_http_target_path(ra_str_t target);

/* A server's NUL-terminated method as a span: GET, most requests,
 * without a strlen() (the bytes are read one by one up to GET's NUL:
 * never past a shorter method's end); none (NULL: a request line the
 * server could not read) reads "". */
static inline ra_str_t
ra_http_method_z(const char *m)
{
    if (m != NULL && m[0] == 'G' && m[1] == 'E' && m[2] == 'T'
        && m[3] == '\0')
    {
        return ra_str(m, 3);
    }
    return ra_str_z(m);
}

/* Where a server's parser says target's path ends: query is the byte
 * after its '?' (NULL: there is none, the path is the whole target).
 * The path then, as ra_kind_word_path() takes it; none (data NULL) when
 * query does not follow a '?' inside target. */
static inline ra_str_t
ra_http_path_before(ra_str_t target, const unsigned char *query)
{
    if (query == NULL) {
        return target;
    }
    if (query <= target.data || query > target.data + target.len
        || query[-1] != '?')
    {
        return ra_str(NULL, 0);
    }
    return ra_str(target.data, (size_t) (query - 1 - target.data));
}

/*
 * The canonical form of such a path: what the servers map to a resource
 * (RFC 3986 section 6.2.2), so that "//private/x", "/a/../private/x",
 * "/%2e/private/x" and "/%2Fprivate/x" all read "/private/x":
 *
 *   - %-escapes of unreserved bytes (ALPHA DIGIT - . _ ~) and of '/' are
 *     decoded (hex in either case); every other escape, and a '%' that
 *     starts none, is kept as it is;
 *   - runs of '/' are merged (nginx's merge_slashes, Apache's
 *     MergeSlashes: both on by default);
 *   - "." and ".." segments are removed (RFC 3986 5.2.4); a ".." at the
 *     root is dropped there ("/../x" reads "/x");
 *   - the query (from the first raw '?') is kept as it is; case is kept
 *     (robots.txt rules are case-sensitive), and so are ';' parameters.
 *
 * A path that does not start with '/' is read as if it did.  dst holds
 * path.len + 1 bytes (the result is never longer); returns its length.
 * flags (may be NULL) gets RA_CANON_*.  One pass, no allocation.
 */
size_t ra_http_canon(ra_str_t path, unsigned char *dst, unsigned *flags);

/* Is path canonical as it stands, as ra_http_canon() would see at once
 * (a '/' first; before any '?' no "//", no "/.", and no '%' but escapes
 * that stay: "%20", not "%41", "%2F" or a bad one)?  1 then; 0 when it
 * may differ (ra_http_canon() says).  No copy. */
int ra_http_canonical(ra_str_t path);

#define RA_CANON_CHANGED        0x01    /* dst differs from path */
#define RA_CANON_ABOVE_ROOT     0x02    /* a ".." climbed above the root:
                                           both servers answer 400 */
#define RA_CANON_ENCODED_SLASH  0x04    /* a %2F was decoded: Apache
                                           answers 404 (AllowEncodedSlashes
                                           Off), nginx decodes it */
#define RA_CANON_BAD_ESCAPE     0x08    /* a '%' in the path starts no
                                           escape: both answer 400 */

/*
 * Is this the robots.txt request?  The target's canonical path (before
 * any '?') is "/robots.txt", as the servers would serve the file for it:
 * "/robots.txt", "//robots.txt", "/./robots.txt", "/%72obots.txt",
 * "/x/../robots.txt", "http://host/robots.txt?x", but not
 * "/robots.txt/../private/x", nor a path the servers refuse or disagree
 * on (a ".." above the root, a bad escape, an encoded slash): those are
 * judged as any other request.  The one test for "the robots.txt request"
 * in the glue (capture, enforce) and in ra_audit.  Linear, no memory.
 */
int ra_http_is_robots(ra_str_t target);

/* Whether target is /llms.txt or /llms-full.txt (llmstxt.org), as
 * ra_http_is_robots() reads it: counted per crawler, judged as any URL. */
int ra_http_is_llms(ra_str_t target);

/*
 * Is the request one for a server's own pages, never crawler traffic
 * (neither judged nor counted, not even as a browser's)?  The module's
 * status page (the glue knows its location or handler: own), Apache's
 * handlers "server-status", "server-info" and the module's
 * "robots-audit-status" (handler; empty for nginx), and the paths those
 * pages have by default, canonical, before any '?': /server-status and
 * /server-info (mod_status, mod_info), /nginx_status and /stub_status
 * (nginx's stub_status, as packagers and its documentation place it).
 * ra_audit_request() asks it of the path alone (the CLI's logs); each
 * glue asks it once with what it knows.  Linear, no memory for targets up
 * to 256 bytes (longer ones are no such page).
 */
int ra_http_server_page(ra_str_t target, ra_str_t handler, int own);

/*
 * All three of the above about one target, in one pass over it for the
 * common spelling (what every request asks): RA_TARGET_ROBOTS when
 * ra_http_is_robots(target), RA_TARGET_LLMS when ra_http_is_llms(target),
 * RA_TARGET_SERVER_PAGE when ra_http_server_page(target, "", 0).
 */
#define RA_TARGET_ROBOTS        0x01
#define RA_TARGET_LLMS          0x02
#define RA_TARGET_SERVER_PAGE   0x04

#define RA_TARGET_KNOWN         0x80    /* ra_request_t.target_kind is
                                           set (any of the above, or
                                           none) */

unsigned ra_http_target_kind(ra_str_t target);

/* The same for a target without '?' and '#' (what a server's parser found
 * before the query, when no '#' came before it): no search for them.
 * ra_http_path_kind(path) == ra_http_target_kind(path + "?" + anything). */
unsigned ra_http_path_kind(ra_str_t path);

/* The kind of a request's target, asked once a request: req->target_kind
 * when the glue set it (RA_TARGET_KNOWN; the capture filter had to ask),
 * else ra_http_target_kind(req->uri).  Without RA_TARGET_KNOWN. */
static inline unsigned
ra_http_request_kind(const ra_request_t *req)
{
    return req->target_kind & RA_TARGET_KNOWN
           ? req->target_kind & ~(unsigned) RA_TARGET_KNOWN
           : ra_http_target_kind(req->uri);
}

/*
 * A server's glue sets every field of ra_request_t before signature on
 * every request (site to referer) and clears the rest with this: the Web
 * Bot Auth fields, authority, scheme, target_kind, and any field added
 * after them.  A field added before signature would be left unset: the
 * assertion below stops the build then (add fields at the end).
 */
_Static_assert(offsetof(ra_request_t, signature)
               == offsetof(ra_request_t, referer) + sizeof(ra_str_t)
               && offsetof(ra_request_t, referer)
                  == 5 * sizeof(ra_str_t) + sizeof(int64_t)
                     + sizeof(int) + sizeof(ra_enforce_t) + sizeof(void *),
               "ra_request_t: the glue sets the fields before signature");

static inline void
ra_request_clear_rest(ra_request_t *req)
{
    /* in 16-byte stores (a memset() of this size is a "rep stos", one
     * instruction a word); the fields are 8-byte words */
    typedef uint64_t  ra_zero16_t __attribute__((vector_size(16),
                                                 aligned(8)));
    enum { n = sizeof(*req) - offsetof(ra_request_t, signature) };
    const ra_zero16_t  z = { 0, 0 };
    /* from the struct's base, not &req->signature: gcc's object-size
     * check (-Wstringop-overflow, with the sanitizers) would bound the
     * stores by that one field and refuse to build */
    unsigned char     *p = (unsigned char *) req
                           + offsetof(ra_request_t, signature);
    size_t             i;

    _Static_assert(n % 8 == 0, "ra_request_t: a tail of 8-byte words");
    for (i = 0; i + 16 <= n; i += 16) {
        memcpy(p + i, &z, 16);
    }
    if (n % 16) {
        memcpy(p + n - 8, &z, 8);
    }
}

/*
 * A server's request as every glue starts it: the fields both servers
 * read alike (status: what the client got, 0 before the content; kind:
 * ra_request_t.target_kind; where: the server's request), enforce 0
 * (the caller's), the rest cleared by ra_request_clear_rest().
 * User-Agent and Referer are the glue's to set, or ra_fields_start()'s.
 * Inline, as the stores are all it is: it runs for every request.
 */
static inline void
ra_request_start(ra_request_t *req, ra_str_t site, int64_t time,
    ra_str_t addr, ra_str_t method, ra_str_t uri, int status, unsigned kind,
    void *where)
{
    ra_request_clear_rest(req);
    req->site = site;
    req->time = time;
    req->addr = addr;
    req->method = method;
    req->uri = uri;
    req->status = status;
    req->enforce = 0;
    req->where = where;
    req->target_kind = kind;
}

/* The same answer, always by the walks of the three tests (the reference
 * ra_http_target_kind() is tested against: it decides most targets from
 * their last segment alone and walks only the others). */
unsigned ra_http_target_kind_walk(ra_str_t target);

/*
 * Does an answer with this status say something about the file?  Not
 * when it describes the request instead (400, 408, 411, 412, 413, 414,
 * 416, 417, 421, 431, nginx's 494-499, 501, 505) or there is none yet
 * (0): any client can provoke those (If-Match, a bad Transfer-Encoding),
 * so they are neither captured as the site's robots.txt nor recorded as
 * a crawler's fetch.
 */
int ra_http_answer_is_file(int status);

/*
 * Is the answer to this request the robots.txt as served, to be captured?
 * A main request's GET of /robots.txt, not HEAD (no body), not a
 * conditional answer (304) or a part of the file (206, or any request
 * with a Range header), not an answer about the request
 * (ra_http_answer_is_file): those are not the file a crawler reads.
 */
int ra_http_capture_wanted(ra_str_t method, ra_str_t target, int status,
    int has_range);

/* Its part that is not the target's: a GET without Range, answered with
 * the file (ra_http_answer_is_file(), not 304 or 206). */
int ra_http_capture_wanted_answer(ra_str_t method, int status,
    int has_range);

/* The same with the target's kind asked already (ra_http_target_kind(),
 * RA_TARGET_KNOWN or not): the glue keeps it for ra_request_t. */
static inline int
ra_http_capture_wanted_kind(ra_str_t method, unsigned kind, int status,
    int has_range)
{
    /* the kind first, without a call: most answers are not robots.txt */
    return (kind & RA_TARGET_ROBOTS)
           && ra_http_capture_wanted_answer(method, status, has_range);
}

/*
 * Does a robots.txt answer with this status say that the file in force is
 * what is served, without serving a new one: 304 (the client's copy is
 * still good) or 206 (a part of it)?  Then it is no failure (it clears
 * the site's 5xx/429 run, ra_audit_request()) and no new version (not
 * captured); the CLI reads it as "this file" (200).
 */
int ra_http_answer_unchanged(int status);

/* Does an answer with this status carry a body?  1xx, 204 and 304 do not,
 * nor any answer to HEAD (header_only). */
int ra_http_has_body(int status, int header_only);


/* ---- the capture buffer ------------------------------------------------ */

/* Keeps the first RA_ROBOTS_MAX bytes of an answer, counts all of them.
 * Memory comes from the allocator given (the request's pool).  The bytes
 * are those the server's filter sees, with the Content-Encoding it sees
 * them with: ra_capture_answer() decodes them (ra_decode.h), so that the
 * body recorded is always the one crawlers parse. */
typedef struct {
    ra_buf_t           body;        /* as seen: coded or not */
    ra_buf_t           decoded;     /* the body decoded, when coded */
    uint64_t           size;        /* every byte served */
    int                status;
    size_t             first;       /* size of the first allocation */
    ra_str_t           coding;      /* Content-Encoding of those bytes */
    const ra_alloc_t  *scratch;     /* the decoders' state */
    size_t             max;         /* bytes kept and decoded at most:
                                       RA_ROBOTS_MAX, or less
                                       (ra_capture_limit()) */
    unsigned           active:1;    /* started, not yet done */
    unsigned           failed:1;    /* out of memory, or a read failed:
                                       the answer is not recorded */
} ra_capture_t;

/*
 * content_length: the answer's Content-Length, or -1 when unknown (it
 * sizes the first allocation only).  content_encoding: the answer's
 * Content-Encoding as the capture's filter sees it, when it starts
 * (data NULL or length 0: none); the span must stay valid until
 * ra_capture_answer().  scratch: memory for the decoders' state, given
 * back before ra_capture_answer() returns (a heap: a br window may take
 * 16 MiB for a moment).
 */
void ra_capture_start(ra_capture_t *c, const ra_alloc_t *a,
    const ra_alloc_t *scratch, int status, int64_t content_length,
    ra_str_t content_encoding);

void ra_capture_add(ra_capture_t *c, const void *p, size_t n);

/* Keeps (and decodes) at most max bytes, max <= RA_ROBOTS_MAX: an HTML
 * head's window (ra_pagedir.h), not a robots.txt.  Right after
 * ra_capture_start(). */
void ra_capture_limit(ra_capture_t *c, size_t max);

/* Does the capture keep no more bytes (full, or failed)? */
static inline int
ra_capture_full(const ra_capture_t *c)
{
    return c->failed || c->body.len >= c->max;
}

/*
 * For n bytes the server holds elsewhere (a file, for sendfile): counts
 * them and returns where to copy the first *keep of them (0 when the body
 * is full; NULL then, or when out of memory: check c->failed).  The
 * caller copies them and calls ra_capture_commit(c, copied), or
 * ra_capture_fail(c) when it could not.
 */
unsigned char *ra_capture_space(ra_capture_t *c, size_t n, size_t *keep);
void ra_capture_commit(ra_capture_t *c, size_t copied);
void ra_capture_fail(ra_capture_t *c);

/* The same in one step: the first of n bytes held elsewhere that the
 * capture keeps are copied by read(ctx, dst, k), which returns RA_OK
 * when it copied all k.  RA_OK, also when none was kept; RA_ERROR when
 * read failed (the capture failed: the caller says why). */
int ra_capture_read(ra_capture_t *c, size_t n,
    int (*read)(void *ctx, void *dst, size_t k), void *ctx);

/* For n bytes the server has not read yet: when the capture keeps no more
 * of an answer (its body is full, or it failed), counts them and returns
 * 1, so that the server passes them on unread; else 0. */
int ra_capture_skip(ra_capture_t *c, size_t n);

/*
 * The answer to record (ra_audit_robots).  content_type is the header
 * as sent (data NULL or length 0: the answer had none, and lint says so);
 * charset, when the server keeps it apart and has not added it to the
 * header yet (nginx), is added as "; charset=".  A coded body is decoded
 * here (at most RA_ROBOTS_MAX bytes out of at most RA_ROBOTS_MAX in): the
 * answer's body is the decoded one, its size what was served.  A 2xx body
 * that cannot be decoded is recorded as undecodable (the site keeps its
 * version).  RA_OK, or RA_ENOMEM when capturing or decoding ran out of
 * memory (c->failed: the answer is not to be recorded).  Valid while the
 * capture's memory is.
 */
int ra_capture_answer(ra_capture_t *c, ra_str_t content_type,
    ra_str_t charset, ra_answer_t *ans);


/* ---- sites ------------------------------------------------------------- */

/*
 * A server block's or virtual host's names.  A request counts for the
 * name its Host header gives when that is one of the exact names, else
 * for the primary name: wildcard ("*.example.com", ".example.com",
 * "www.example.*", "w?w.example.com") and regular-expression ("~...")
 * names name no single host, so such hosts count under the first name and
 * random Host values can never create sites (and evict real ones).
 */
typedef struct {
    ra_str_t   primary;         /* "default" when the server has no name */
    ra_str_t  *names;           /* exact names, lower-cased */
    uint32_t   nnames;
    uint32_t   cap;
} ra_sitenames_t;

#define RA_SITE_DEFAULT  "default"

/* primary: the server's first name (may be empty).  Names are copied.
 * RA_OK or RA_ENOMEM. */
int ra_sitenames_init(ra_sitenames_t *s, const ra_alloc_t *a,
    ra_str_t primary);
/* Adds one more name the server answers to; inexact ones are skipped, and
 * so are the primary and a name added before (never picked by them). */
int ra_sitenames_add(ra_sitenames_t *s, const ra_alloc_t *a, ra_str_t name);
/* A server's names as the glue finds them: primary, then the n others
 * of the server's own list, name(list, i) each (its span need not last:
 * names are copied).  ra_sitenames_init() and ra_sitenames_add() for
 * every one; RA_OK or RA_ENOMEM. */
int ra_sitenames_build(ra_sitenames_t *s, const ra_alloc_t *a,
    ra_str_t primary, ra_str_t (*name)(const void *list, size_t i),
    const void *list, size_t n);
/* Is the name exact (not a wildcard, not a regular expression)? */
int ra_site_name_exact(ra_str_t name);

/* The site of a request with this Host (a port and a trailing dot are
 * ignored, case too); the span is the table's, never the request's. */
ra_str_t ra_sitenames_pick(const ra_sitenames_t *s, ra_str_t host);

/* Is every Host the primary to ra_sitenames_pick(), s having no exact
 * name besides it?  The glue then need not measure the Host at all. */
static inline int
ra_sitenames_one(const ra_sitenames_t *s)
{
    return s->nnames == 0;
}


/* ---- replies the core makes whole ------------------------------------ */

/*
 * A reply the core decided in full (a refusal, the status page), as every
 * server sends it: its status; its header fields besides Content-Type and
 * Content-Length, in order, the list ending at a NULL name; its body,
 * typed content_type, sent unless header_only (a HEAD).  content_type
 * NULL: no body of the core's, the server answers status with its own
 * page (and still sends the fields).  Valid while what it was made from
 * is.
 */
#define RA_REPLY_FIELDS  2

typedef struct {
    const char  *name;
    const char  *value;
} ra_http_field_t;

typedef struct {
    int              status;
    const char      *content_type;
    ra_str_t         body;
    unsigned         header_only:1;
    ra_http_field_t  fields[RA_REPLY_FIELDS + 1];
} ra_reply_t;


/* ---- query strings ---------------------------------------------------- */

/* The value of argument name in a query string ("a=1&format=json");
 * RA_OK, or RA_ERROR when absent.  Both '&' and ';' separate. */
int ra_query_arg(ra_str_t query, const char *name, ra_str_t *value);

#endif /* RA_HTTP_H */
