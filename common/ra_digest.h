/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Digests of robots.txt versions, from OpenSSL's libcrypto (EVP): the
 * core never implements cryptography itself.
 */
#ifndef RA_DIGEST_H
#define RA_DIGEST_H

#include "ra_core.h"

#define RA_SHA256_LEN  32

/* SHA-256 of s into out; RA_OK, or RA_ERROR (out zeroed) when libcrypto
 * fails. */
int ra_sha256(ra_str_t s, unsigned char out[RA_SHA256_LEN]);

/* Lower-case hex of a digest: 2 * n characters and a NUL. */
void ra_hex(const unsigned char *d, size_t n, char *out);

#endif /* RA_DIGEST_H */
