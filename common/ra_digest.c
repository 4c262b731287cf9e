/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Digests through libcrypto (ra_digest.h).
 */
#include <string.h>

#include <openssl/evp.h>

#include "ra_digest.h"

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
