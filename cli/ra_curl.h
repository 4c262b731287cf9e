/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libcurl, loaded when `ranges update` fetches and not before: the other
 * commands (`check` over a pipe of URLs above all) then start without
 * mapping and relocating libcurl and the thirty libraries it pulls in.
 * The functions the fetcher calls, found by name in libcurl.so.4, the
 * library the Debian package depends on.
 */
#ifndef RA_CURL_H
#define RA_CURL_H

#include <stddef.h>

#include <curl/curl.h>

typedef struct {
    void                *lib;           /* dlopen() handle, NULL: closed */
    CURLcode           (*global_init)(long flags);
    void               (*global_cleanup)(void);
    CURL              *(*easy_init)(void);
    void               (*easy_cleanup)(CURL *c);
    void               (*easy_reset)(CURL *c);
    CURLcode           (*easy_setopt)(CURL *c, CURLoption opt, ...);
    CURLcode           (*easy_perform)(CURL *c);
    CURLcode           (*easy_getinfo)(CURL *c, CURLINFO info, ...);
    const char        *(*easy_strerror)(CURLcode rc);
    struct curl_slist *(*slist_append)(struct curl_slist *l, const char *s);
    void               (*slist_free_all)(struct curl_slist *l);
} ra_curl_t;

/* Loads libcurl into cu; 0, or -1 with why (the loader's message) set
 * and nothing left loaded. */
int ra_curl_open(ra_curl_t *cu, char *why, size_t whylen);

/* Unloads what ra_curl_open() loaded (nothing when it failed). */
void ra_curl_close(ra_curl_t *cu);

#endif /* RA_CURL_H */
