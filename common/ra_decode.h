/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Content codings (RFC 9110 8.4.1): what a server's Content-Encoding says
 * was applied to an answer, undone the way crawlers undo it before they
 * parse robots.txt.
 *
 *   gzip, x-gzip   RFC 1952 (zlib); members one after another are one
 *                  body, bytes after the last member are ignored
 *   deflate        RFC 1950, zlib-wrapped; the raw RFC 1951 stream some
 *                  servers send instead is accepted too, as browsers do
 *   br             RFC 7932 (libbrotlidec)
 *   identity       nothing to undo (also an absent or empty header)
 *
 * A list ("gzip, br") names the codings in the order they were applied:
 * they are undone from the last to the first, at most RA_DECODE_LAYERS
 * of them.  Every step reads at most what it is given (the capture keeps
 * the first RA_ROBOTS_MAX bytes of the coded body) and writes at most
 * max bytes: a decompression bomb stops there, and so does the time
 * spent on it.  Decoder state comes from a scratch allocator and is
 * returned before ra_decode() does.
 */
#ifndef RA_DECODE_H
#define RA_DECODE_H

#include "ra_buf.h"
#include "ra_core.h"

#define RA_DECODE_LAYERS  4             /* stacked codings undone at most */

typedef enum {
    RA_CODING_IDENTITY = 0,
    RA_CODING_GZIP,
    RA_CODING_DEFLATE,
    RA_CODING_BR,
    RA_CODING_UNKNOWN
} ra_coding_e;

typedef struct {
    ra_coding_e  codings[RA_DECODE_LAYERS];     /* in the order applied */
    unsigned     n;                             /* 0: identity */
    ra_str_t     bad;           /* RA_ERROR: the coding that is unknown,
                                   or the one past RA_DECODE_LAYERS */
} ra_codings_t;

/*
 * Reads a Content-Encoding value: names are case-insensitive, separated
 * by commas with optional white space; "identity" and empty elements are
 * skipped.  RA_OK, or RA_ERROR (an unknown coding or too many; out->bad
 * names it).
 */
int ra_codings_parse(ra_str_t value, ra_codings_t *out);

/* Does the value name no coding to undo? */
int ra_coding_is_identity(ra_str_t value);

const char *ra_coding_name(ra_coding_e c);      /* "gzip", ... */

typedef struct {
    unsigned     truncated:1;   /* the output is a prefix of the decoded
                                   body: max reached, or the input was a
                                   prefix and ended inside the stream */
    unsigned     capped:1;      /* max reached with more to come */
    const char  *error;         /* RA_ERROR: why, as a phrase ("corrupt
                                   gzip data") */
} ra_decode_info_t;

/*
 * Undoes the codings of value on in.  complete: in is the whole body (0:
 * only its first bytes, so ending inside the stream is no error, the
 * output is a prefix).  out is initialised here over a, with max as its
 * limit; release it with ra_buf_release().  Decoder state comes from
 * scratch.  Empty input decodes to empty output whatever the coding.
 * RA_OK (out holds the body, or its first max bytes: info->truncated),
 * RA_ERROR (it cannot be decoded: unknown coding, corrupt data, data that
 * ends early; info->error says which, out is empty), RA_ENOMEM.
 */
int ra_decode(ra_str_t value, ra_str_t in, int complete, size_t max,
    const ra_alloc_t *a, const ra_alloc_t *scratch, ra_buf_t *out,
    ra_decode_info_t *info);

#endif /* RA_DECODE_H */
