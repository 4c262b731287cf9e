/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Web Bot Auth cost (docs/web-bot-auth.md): ra_audit_request() for the
 * same unsigned crawler request with and without signature keys loaded
 * (the check runs only when Signature and Signature-Input are there), and
 * for the draft's signed request (RFC 9421's Ed25519 test key, Appendix
 * E.2.1 of the protocol draft) valid, forged, and of an origin whose keys
 * are not loaded (no cryptography then): the same request again and again
 * is answered by the process's memory of verifications, so the cost of a
 * verification itself is measured with ra_sig_verify() without memory.
 * Prints ns/request for each.
 * Usage: sig [REQUESTS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ra_audit.h"

#define NOW    1735689610000LL
#define ZONE   (16u * 1024 * 1024)
#define KID    "poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U"
#define INPUT  "sig2=(\"@authority\" \"signature-agent\";key=\"sig2\")" \
    ";created=1735689600;keyid=\"" KID "\";alg=\"ed25519\"" \
    ";expires=4889289600;nonce=\"n9p433xm+NJ3ph3upfBIGmsuwHw387YV7Q/F+6BSpG" \
    "CVjYCqQw6rznNA8PVVLySrAWsv0hQtFioQb6E1YsauiA==\";tag=\"web-bot-auth\""
#define SIG    "sig2=:CGokAoY/FrPpyuzTe1Fb2kLTAH9Idw6qSFd1+D77r1firsMRCxeu" \
    "Lu5e6O+ek3zQgDMAzjiXtLVfqE00xnABCQ==:"
#define FORGED "sig2=:DGokAoY/FrPpyuzTe1Fb2kLTAH9Idw6qSFd1+D77r1firsMRCxeu" \
    "Lu5e6O+ek3zQgDMAzjiXtLVfqE00xnABCQ==:"

static double
now_ns(void)
{
    struct timespec  t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double) t.tv_sec * 1e9 + (double) t.tv_nsec;
}

static ra_audit_t *
engine(ra_ledger_t *l, const ra_crawlers_t *t, const ra_sig_keys_t *k,
    const ra_host_t *h)
{
    ra_audit_conf_t  conf;
    void            *region = malloc(ZONE);

    if (region == NULL || ra_ledger_format(region, ZONE, NOW) != RA_OK) {
        exit(1);
    }
    ra_ledger_open(l, region, NULL);
    memset(&conf, 0, sizeof(conf));
    conf.alloc = &ra_malloc_allocator;
    conf.crawlers = t;
    conf.host = h;
    conf.sig_keys = k;
    return ra_audit_create(&conf, l);
}

static double
run(ra_audit_t *au, const ra_request_t *r, long n, unsigned expect)
{
    ra_verdict_t  v;
    double        t0;
    long          i;

    (void) ra_audit_request(au, r, &v);
    if (v.sig_result != expect) {
        fprintf(stderr, "sig: result %u, expected %u (%s)\n", v.sig_result,
                expect, v.sig_why);
        exit(1);
    }
    t0 = now_ns();
    for (i = 0; i < n; i++) {
        (void) ra_audit_request(au, r, &v);
    }
    return (now_ns() - t0) / (double) n;
}

int
main(int argc, char **argv)
{
    long               n = argc > 1 ? atol(argv[1]) : 20000;
    ra_host_t          h;
    ra_crawlers_t     *t;
    ra_crawlers_err_t  err;
    ra_sig_keys_t     *k;
    ra_ledger_t        l1, l2;
    ra_audit_t        *plain, *keyed;
    ra_request_t       r;
    const char        *why;
    static const char  table[] = "crawler SignBot\nua SignBot\n"
        "operator T\ncategory ai-user-triggered\n"
        "signature-agent https://signature-agent.test\n";
    static const char  jwks[] = "{\"keys\":[{\"kty\":\"OKP\",\"crv\":"
        "\"Ed25519\",\"x\":\"JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs\"}]}";

    memset(&h, 0, sizeof(h));
    h.heap = ra_malloc_allocator;
    ra_host_crypto_libcrypto(&h);
    t = ra_crawlers_create(&ra_malloc_allocator);
    k = ra_sig_keys_create(&ra_malloc_allocator);
    if (t == NULL || k == NULL
        || ra_crawlers_add(t, ra_str(table, sizeof(table) - 1), &err) != RA_OK
        || ra_crawlers_add_builtin(t, &err) != RA_OK
        || ra_crawlers_compile(t, &err) != RA_OK
        || ra_sig_keys_add_jwks(k, &h, ra_str("signature-agent.test", 20),
                                ra_str(jwks, sizeof(jwks) - 1), NULL, &why)
           != RA_OK)
    {
        fprintf(stderr, "sig: setup failed\n");
        return 1;
    }
    plain = engine(&l1, t, NULL, &h);
    keyed = engine(&l2, t, k, &h);

    memset(&r, 0, sizeof(r));
    r.site = (ra_str_t) ra_string("example.com");
    r.time = NOW;
    r.addr = (ra_str_t) ra_string("192.0.2.1");
    r.user_agent = (ra_str_t) ra_string("SignBot/1.0");
    r.method = (ra_str_t) ra_string("GET");
    r.uri = (ra_str_t) ra_string("/page");

    printf("unsigned, no keys configured:   %8.0f ns/request\n",
           run(plain, &r, n, RA_SIG_NONE));
    printf("unsigned, keys configured:      %8.0f ns/request\n",
           run(keyed, &r, n, RA_SIG_NONE));
    r.signature_input = (ra_str_t) ra_string(INPUT);
    r.signature_agent = (ra_str_t) ra_string("sig2=\"https://signature-agent.test\"");
    r.signature = (ra_str_t) ra_string(SIG);
    printf("signed, valid, repeated:        %8.0f ns/request\n",
           run(keyed, &r, n, RA_SIG_VALID));
    r.signature = (ra_str_t) ra_string(FORGED);
    printf("signed, forged, repeated:       %8.0f ns/request\n",
           run(keyed, &r, n, RA_SIG_INVALID));
    r.signature_agent = (ra_str_t) ra_string("sig2=\"https://other.test\"");
    printf("signed, origin without keys:    %8.0f ns/request\n",
           run(keyed, &r, n, RA_SIG_UNCHECKED));
    {
        ra_sig_request_t  sr;
        ra_sig_window_t   w = { NOW, 0, -1 };
        ra_sig_verdict_t  v;
        double            t0;
        long              i, m = n / 10 ? n / 10 : 1;

        memset(&sr, 0, sizeof(sr));
        sr.signature_input = (ra_str_t) ra_string(INPUT);
        sr.signature_agent =
            (ra_str_t) ra_string("sig2=\"https://signature-agent.test\"");
        sr.signature = (ra_str_t) ra_string(SIG);
        sr.authority = (ra_str_t) ra_string("example.com");
        sr.method = (ra_str_t) ra_string("GET");
        sr.target = (ra_str_t) ra_string("/");
        t0 = now_ns();
        for (i = 0; i < m; i++) {
            if (ra_sig_verify(k, &h, &sr, &w, NULL, &v) != RA_SIG_VALID) {
                return 1;
            }
        }
        printf("one Ed25519 verification:       %8.0f ns (ra_sig_verify, "
               "no memory)\n", (now_ns() - t0) / (double) m);
    }
    printf("memory of keyed engine: %llu verified, %llu hits\n",
           (unsigned long long) ra_audit_sig_cache(keyed)->verified,
           (unsigned long long) ra_audit_sig_cache(keyed)->hits);
    return 0;
}
