/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Origins: which host a URL names, as Web Bot Auth needs it.  A signing
 * agent is known by its origin (the Signature-Agent member, a crawler
 * entry's "signature-agent" line, `ranges update --agent`), and its keys
 * are the JWK Set that origin serves at
 * /.well-known/http-message-signatures-directory, kept as HOST.json.  This
 * room decides, for the modules, the crawler table and the CLI alike,
 * whether a string is such an origin and what its host is.
 *
 * Only https names a signing agent: a key directory fetched over plain
 * http could be replaced on the way, and every signature it then
 * "verified" would be forged.  ra_origin_parse() still reads an http URL,
 * and says so, for a caller that fetches from a loopback address.
 *
 * The host is the span between "//" and the first ':', '/', '?' or '#':
 * 1 to RA_ORIGIN_MAX_HOST letters, digits, '.' and '-', as written (not
 * lower-cased: compare with ra_strcaseeq()).  So a user name ("user@host")
 * and an IPv6 literal ("[::1]") are not origins here.  A port is digits;
 * a path, query or fragment may follow and names nothing.
 */
#ifndef RA_ORIGIN_H
#define RA_ORIGIN_H

#include "ra_core.h"

#define RA_ORIGIN_MAX_HOST  253     /* a host name's bytes */

typedef struct {
    ra_str_t    host;       /* a span of the URL, as written */
    ra_str_t    port;       /* the digits after ':' (len 0: none given) */
    ra_str_t    rest;       /* the path, query and fragment (len 0: none) */
    unsigned    https:1;    /* 0: an http URL */
} ra_origin_t;

/* Reads an http or https URL's origin: RA_OK, or RA_ERROR when s is not
 * one (another scheme, no host or not a host name, a port not digits). */
int ra_origin_parse(ra_str_t s, ra_origin_t *o);

/* An origin's host: "https://Chatgpt.com:443/x" -> "Chatgpt.com" (a span
 * of s).  RA_OK, or RA_ERROR when s is not an https URL with a host. */
int ra_origin_host(ra_str_t s, ra_str_t *host);

/* 1 when host is a host name as origins have them (see above), else 0:
 * key files are named after one. */
int ra_origin_host_ok(ra_str_t host);

#endif /* RA_ORIGIN_H */
