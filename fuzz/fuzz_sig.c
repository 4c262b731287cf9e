/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Web Bot Auth signatures (ra_sig.h): the three header fields a client
 * sends.  The input is SIGNATURE-INPUT \n SIGNATURE-AGENT \n SIGNATURE
 * (what follows a third newline is the request target), checked against
 * RFC 9421's Ed25519 test key as signature-agent.test's at the time of
 * the draft's vectors (the seeds).  Invariants: a result in range with a
 * reason; an origin, when named, a span of Signature-Agent; a valid
 * signature is signature-agent.test's; the base fits its buffer.
 */
#include "fuzz.h"
#include "ra_sig.h"

static ra_sig_keys_t  *keys;
static ra_host_t       host;
static ra_sig_cache_t  cache;

static ra_str_t
field(const uint8_t **p, const uint8_t *end)
{
    const uint8_t  *s = *p, *nl = memchr(s, '\n', (size_t) (end - s));

    if (nl == NULL) {
        *p = end;
        return ra_str(s, (size_t) (end - s));
    }
    *p = nl + 1;
    return ra_str(s, (size_t) (nl - s));
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t     *p = data, *end = data + size;
    ra_sig_request_t   r;
    ra_sig_verdict_t   v;
    ra_sig_window_t    w = { 1735689610000LL, 0, -1 };
    unsigned char      base[RA_SIG_MAX_BASE];
    const char        *why = NULL;
    long               n;
    ra_str_t           h;
    int                rc;
    static const char  jwks[] = "{\"keys\":[{\"kty\":\"OKP\",\"crv\":"
        "\"Ed25519\",\"x\":\"JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs\"}]}";

    if (keys == NULL) {
        host.heap = ra_malloc_allocator;
        ra_host_crypto_libcrypto(&host);
        keys = ra_sig_keys_create(&ra_malloc_allocator);
        FZ_CHECK(keys != NULL);
        FZ_CHECK(ra_sig_keys_add_jwks(keys, &host,
                     ra_str("signature-agent.test", 20),
                     ra_str(jwks, sizeof(jwks) - 1), NULL, &why) == RA_OK);
    }
    memset(&r, 0, sizeof(r));
    r.signature_input = field(&p, end);
    r.signature_agent = field(&p, end);
    r.signature = field(&p, end);
    r.target = p < end ? ra_str(p, (size_t) (end - p)) : ra_str("/", 1);
    r.method = (ra_str_t) ra_string("GET");
    r.authority = (ra_str_t) ra_string("example.com");
    r.scheme = (ra_str_t) ra_string("https");

    rc = ra_sig_verify(keys, &host, &r, &w, (size & 1) ? &cache : NULL, &v);
    FZ_CHECK(rc == (int) v.result && v.result <= RA_SIG_UNCHECKED);
    FZ_CHECK(v.why != NULL);
    if (v.origin.len) {
        FZ_CHECK(fz_within(v.origin, r.signature_agent.data,
                           r.signature_agent.len));
    }
    if (v.result == RA_SIG_VALID) {
        FZ_CHECK(ra_strcaseeq(v.origin,
                              (ra_str_t) ra_string("signature-agent.test")));
    }
    n = ra_sig_base(&r, base, sizeof(base), &why);
    FZ_CHECK(n == -1 ? why != NULL : (n >= 0 && n <= (long) sizeof(base)));
    if (ra_origin_host(r.signature_agent, &h) == RA_OK) {
        FZ_CHECK(h.len > 0 && fz_within(h, r.signature_agent.data,
                                        r.signature_agent.len));
    }
    return 0;
}
