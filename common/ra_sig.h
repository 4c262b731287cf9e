/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Web Bot Auth: HTTP Message Signatures (RFC 9421) on a crawler's request,
 * as the IETF webbotauth protocol draft profiles them (docs/web-bot-auth.md
 * cites the revision): Ed25519 only, tag="web-bot-auth", created and
 * expires required and within a window, "@authority" and the
 * Signature-Agent member (a Dictionary, RFC 9651, or the legacy bare
 * String) among the covered components, keyid the key's JWK thumbprint
 * (RFC 7638, RFC 8037 A.3).
 *
 * Keys: one JWK Set per agent origin (the file named after the origin's
 * host, "chatgpt.com.json"), loaded at configuration time into an
 * immutable table keyed by (host, thumbprint), so a key published by one
 * origin never verifies a request that names another.  Every thumbprint
 * is computed at load time: the table is the per-process cache of
 * verified keys (bounded: RA_SIG_MAX_KEYS).
 *
 * The core does no cryptography: SHA-256 and Ed25519 verification come
 * through the host interface (ra_host_t.sha256, .ed25519_verify).
 * Everything in a request is hostile: the header fields are read up to
 * RA_SIG_MAX_FIELD bytes, at most RA_SIG_MAX_MEMBERS dictionary members
 * and RA_SIG_MAX_COMPONENTS covered components; nothing is allocated (the
 * signature base is built in a caller's stack buffer of RA_SIG_MAX_BASE).
 */
#ifndef RA_SIG_H
#define RA_SIG_H

#include "ra_core.h"
#include "ra_host.h"
#include "ra_json.h"
#include "ra_crawlers.h"
#include "ra_origin.h"

#define RA_SIG_MAX_FIELD        8192    /* bytes of each header field */
#define RA_SIG_MAX_MEMBERS      8       /* dictionary members read */
#define RA_SIG_MAX_COMPONENTS   16      /* covered components */
#define RA_SIG_MAX_PARAMS       16      /* parameters of a signature */
#define RA_SIG_MAX_BASE         16384   /* the signature base */
#define RA_SIG_MAX_HOST         RA_ORIGIN_MAX_HOST
#define RA_SIG_MAX_KEYS         1024    /* keys over all origins */
#define RA_SIG_MAX_FILE         (1024u * 1024)   /* a JWK Set file */
#define RA_SIG_KEYID_LEN        43      /* base64url of a SHA-256 */
#define RA_ED25519_KEY_LEN      32
#define RA_ED25519_SIG_LEN      64

/* the window, unless configured: a signature is at most a day old (the
 * draft RECOMMENDS expires at most 24 hours after created) and clocks may
 * differ by a minute */
#define RA_SIG_MAX_AGE_DEFAULT  (24 * 3600 * 1000LL)
#define RA_SIG_SKEW_DEFAULT     (60 * 1000LL)

typedef struct ra_sig_keys_s  ra_sig_keys_t;

/* An empty key table; NULL when out of memory.  Memory from a (freed with
 * it only when a->free is set). */
ra_sig_keys_t *ra_sig_keys_create(const ra_alloc_t *a);

/*
 * Adds the Ed25519 keys of a JWK Set ({"keys":[{"kty":"OKP","crv":
 * "Ed25519","x":"..."}]}) as the keys of origin host (its name, e.g.
 * "chatgpt.com").  Keys of other types are skipped; so is one whose "kid"
 * is present and is not its thumbprint (the draft requires kid to be the
 * thumbprint).  *added gets how many were kept (may be NULL).  RA_OK;
 * RA_ERROR with why (bad JSON, a bad "x", no Ed25519 key at all, a bad
 * host name); RA_ELIMIT; RA_ENOMEM.  h gives sha256.  Nothing is kept on
 * error.
 */
int ra_sig_keys_add_jwks(ra_sig_keys_t *k, const ra_host_t *h,
    ra_str_t host, ra_str_t json, size_t *added, const char **why);

size_t ra_sig_keys_count(const ra_sig_keys_t *k);
/* 1 when some key of this origin host is loaded */
int ra_sig_keys_has_host(const ra_sig_keys_t *k, ra_str_t host);

/* What a request carries and what its signature base may need. */
typedef struct {
    ra_str_t    signature;          /* the header fields, as received */
    ra_str_t    signature_input;
    ra_str_t    signature_agent;
    ra_str_t    method;
    ra_str_t    authority;          /* Host (or :authority) */
    ra_str_t    target;             /* request target: path and query */
    ra_str_t    scheme;             /* "http", "https"; len 0: unknown */
} ra_sig_request_t;

typedef enum {
    RA_SIG_NONE = 0,        /* no web-bot-auth signature: nothing said */
    RA_SIG_VALID,           /* verified with a key of origin */
    RA_SIG_INVALID,         /* a web-bot-auth signature that fails: bad
                               crypto, expired, not yet valid, a required
                               component not covered, malformed */
    RA_SIG_UNCHECKED        /* cannot be checked here: no keys for the
                               origin, an unknown keyid, an algorithm
                               other than ed25519, a component this
                               request does not give */
} ra_sig_result_e;

typedef struct {
    int64_t     now;                /* ms */
    int64_t     max_age;            /* ms; <= 0: RA_SIG_MAX_AGE_DEFAULT */
    int64_t     skew;               /* ms; < 0: RA_SIG_SKEW_DEFAULT */
} ra_sig_window_t;

typedef struct {
    unsigned    result;             /* ra_sig_result_e */
    const char *why;                /* static text: why not VALID */
    /* the origin's host the covered Signature-Agent member names (a span
     * into the request; len 0 when none was found) */
    ra_str_t    origin;
    ra_str_t    label;              /* the signature's label */
} ra_sig_verdict_t;

/*
 * One process's memory of Ed25519 verifications (one per audit engine,
 * under its lock; never shared between processes): the outcome of each
 * (key, signature, base) already verified, direct-mapped by the SHA-256
 * of the three (a signature replayed, or a forged one sent again, costs a
 * digest, not a verification), and a budget of verifications a second,
 * over which a signature is left unchecked (its crawler's ranges decide),
 * so that a flood of forged signatures costs bounded CPU.
 */
#define RA_SIG_CACHE_SLOTS      1024
#define RA_SIG_VERIFY_PER_SEC   1000

typedef struct {
    uint8_t     digest[RA_SIG_CACHE_SLOTS][16];
    uint8_t     result[RA_SIG_CACHE_SLOTS];   /* 0 empty, else 1 + valid */
    int64_t     second;                       /* of the budget */
    uint32_t    spent;                        /* verifications in it */
    uint32_t    per_second;                   /* 0: RA_SIG_VERIFY_PER_SEC */
    uint64_t    hits;                         /* outcomes found here */
    uint64_t    verified;                     /* verifications made */
    uint64_t    over_budget;                  /* left unchecked */
} ra_sig_cache_t;

/* Does the request carry a signature at all (both Signature and
 * Signature-Input)?  The audit checks nothing else when it does not. */
static inline int
ra_sig_present(const ra_sig_request_t *r)
{
    return r->signature.len != 0 && r->signature_input.len != 0;
}

/*
 * Verifies the first web-bot-auth signature of the request.  k may be
 * NULL (every origin is then UNCHECKED); h gives ed25519_verify (NULL:
 * UNCHECKED) and sha256; cache (zeroed before its first use) may be NULL:
 * no memory, no budget.  Returns out->result.
 */
int ra_sig_verify(const ra_sig_keys_t *k, const ra_host_t *h,
    const ra_sig_request_t *r, const ra_sig_window_t *w,
    ra_sig_cache_t *cache, ra_sig_verdict_t *out);

/*
 * The RFC 9421 signature base of the request's first web-bot-auth
 * signature into buf (for tests and `identify`): its length, or -1 (why
 * set) when it cannot be built.
 */
long ra_sig_base(const ra_sig_request_t *r, unsigned char *buf, size_t cap,
    const char **why);

/*
 * The decision, made here for the audit and `identify` alike
 * (docs/web-bot-auth.md):
 *   ra_sig_decide()   what sv says of crawler c: RA_VERIFY_VERIFIED (valid,
 *                     of one of c's signature-agent origins),
 *                     RA_VERIFY_IMPOSTOR (c signs, and sv is invalid or
 *                     another origin's), or -1: nothing (c signs as no
 *                     origin, or sv is absent or unchecked); then c's
 *                     ranges and reverse DNS decide
 *   ra_sig_crawler()  the crawler a valid signature is, whatever the
 *                     User-Agent: the table's first entry signing as its
 *                     origin; NULL when none or not valid
 * (RA_VERIFY_* are ra_verify.h's.)
 */
int ra_sig_decide(const ra_crawler_t *c, const ra_sig_verdict_t *sv);
const ra_crawler_t *ra_sig_crawler(const ra_crawlers_t *t,
    const ra_sig_verdict_t *sv);

/* "none", "valid", "invalid", "unchecked" */
const char *ra_sig_result_name(unsigned r);

/* base64url without padding (RFC 4648 5) of n bytes into out (at least
 * (4 * n + 2) / 3 + 1 bytes, NUL-terminated); returns the length. */
size_t ra_base64url_encode(const unsigned char *in, size_t n, char *out);

/* base64 (url 0) or base64url (url 1), padding optional, canonical
 * trailing bits only, into out[0..cap); the length, or -1 when s is not
 * one or does not fit. */
long ra_b64_decode(ra_str_t s, int url, unsigned char *out, size_t cap);

#endif /* RA_SIG_H */
