/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Digests through libcrypto (ra_digest.h).
 */
#include <string.h>

#include <openssl/err.h>
#include <openssl/evp.h>

#include "ra_digest.h"
#include "ra_host.h"

int
ra_sha256(ra_str_t s, unsigned char out[RA_SHA256_LEN])
{
    unsigned int  n = 0;
    static const unsigned char  empty[1];

    if (EVP_Digest(s.len ? s.data : empty, s.len, out, &n, EVP_sha256(),
                   NULL) != 1
        || n != RA_SHA256_LEN)
    {
        memset(out, 0, RA_SHA256_LEN);
        return RA_ERROR;
    }
    return RA_OK;
}

void
ra_hex(const unsigned char *d, size_t n, char *out)
{
    static const char  hex[] = "0123456789abcdef";
    size_t             i;

    for (i = 0; i < n; i++) {
        out[2 * i] = hex[d[i] >> 4];
        out[2 * i + 1] = hex[d[i] & 0x0f];
    }
    out[2 * n] = '\0';
}

/* ---- the host's cryptography (ra_host.h) ------------------------------- */

int
ra_host_sha256_libcrypto(const ra_host_t *h, ra_str_t s, unsigned char *out)
{
    (void) h;
    return ra_sha256(s, out);
}

int
ra_host_ed25519_libcrypto(const ra_host_t *h, const unsigned char *pub,
    ra_str_t msg, const unsigned char *sig)
{
    int                  rc;
    EVP_PKEY            *pk;
    EVP_MD_CTX          *md;
    static const unsigned char  empty[1];

    (void) h;
    pk = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, NULL, pub, 32);
    if (pk == NULL) {
        ERR_clear_error();
        return -1;
    }
    md = EVP_MD_CTX_new();
    if (md == NULL) {
        EVP_PKEY_free(pk);
        return -1;
    }
    rc = -1;
    if (EVP_DigestVerifyInit(md, NULL, NULL, NULL, pk) == 1) {
        rc = EVP_DigestVerify(md, sig, 64, msg.len ? msg.data : empty,
                              msg.len) == 1;
    }
    EVP_MD_CTX_free(md);
    EVP_PKEY_free(pk);
    if (rc != 1) {
        /* a forged signature leaves a reason in this thread's queue: the
         * server's TLS code must not find it there */
        ERR_clear_error();
    }
    return rc;
}

void
ra_host_crypto_libcrypto(ra_host_t *h)
{
    h->sha256 = ra_host_sha256_libcrypto;
    h->ed25519_verify = ra_host_ed25519_libcrypto;
}
