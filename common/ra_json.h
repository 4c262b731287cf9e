/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A small, strict JSON reader (RFC 8259) for files we load at start-up,
 * such as published IP-range lists.  It calls a handler for each event and
 * keeps nothing: memory is the C stack, bounded by RA_JSON_MAX_DEPTH.
 * Strict: no comments, no trailing commas, no BOM, strings must be valid
 * UTF-8 without raw control characters, escapes and numbers per the RFC.
 */
#ifndef RA_JSON_H
#define RA_JSON_H

#include "ra_core.h"

#define RA_JSON_MAX_DEPTH  32

typedef enum {
    RA_JSON_OBJECT = 0,     /* an object starts */
    RA_JSON_ARRAY,          /* an array starts */
    RA_JSON_END,            /* the innermost object or array ends */
    RA_JSON_KEY,            /* raw: the key's bytes between the quotes */
    RA_JSON_STRING,         /* raw: the bytes between the quotes */
    RA_JSON_NUMBER,
    RA_JSON_LITERAL         /* true, false, null */
} ra_json_event_e;

/* depth: how many objects/arrays enclose the event (0 at the top).  A
 * non-zero return stops the parse and is returned by ra_json_parse(). */
typedef int (*ra_json_handler_pt)(void *ctx, unsigned event, ra_str_t raw,
    unsigned depth);

typedef struct {
    size_t       offset;    /* byte offset of the error */
    const char  *msg;
} ra_json_err_t;

/* RA_OK, RA_ERROR (err set, unless NULL), or the handler's non-zero
 * return. */
int ra_json_parse(ra_str_t text, ra_json_handler_pt h, void *ctx,
    ra_json_err_t *err);

/* Decodes a string's raw bytes (already validated by the parser) into buf;
 * returns the length, or -1 when it does not fit in cap. */
long ra_json_unescape(ra_str_t raw, unsigned char *buf, size_t cap);

#endif /* RA_JSON_H */
