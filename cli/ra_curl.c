/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libcurl loaded on demand (ra_curl.h says why): dlopen() of the library
 * and dlsym() of each function `ranges update` calls, into one table.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "ra_curl.h"

#define RA_CURL_LIB  "libcurl.so.4"

/* a data pointer from dlsym() as the function pointer it is (POSIX
 * guarantees the two convert) */
#define RA_CURL_SYM(cu, field, name)                                         \
    do {                                                                     \
        void  *sym_ = dlsym((cu)->lib, name);                                \
        if (sym_ == NULL) {                                                  \
            missing = name;                                                  \
            goto fail;                                                       \
        }                                                                    \
        memcpy(&(cu)->field, &sym_, sizeof(sym_));                           \
    } while (0)

int
ra_curl_open(ra_curl_t *cu, char *why, size_t whylen)
{
    const char  *err, *missing = NULL;

    memset(cu, 0, sizeof(*cu));
    cu->lib = dlopen(RA_CURL_LIB, RTLD_NOW | RTLD_LOCAL);
    if (cu->lib == NULL) {
        err = dlerror();
        snprintf(why, whylen, "%s", err ? err : RA_CURL_LIB " not found");
        return -1;
    }
    RA_CURL_SYM(cu, global_init, "curl_global_init");
    RA_CURL_SYM(cu, global_cleanup, "curl_global_cleanup");
    RA_CURL_SYM(cu, easy_init, "curl_easy_init");
    RA_CURL_SYM(cu, easy_cleanup, "curl_easy_cleanup");
    RA_CURL_SYM(cu, easy_reset, "curl_easy_reset");
    RA_CURL_SYM(cu, easy_setopt, "curl_easy_setopt");
    RA_CURL_SYM(cu, easy_perform, "curl_easy_perform");
    RA_CURL_SYM(cu, easy_getinfo, "curl_easy_getinfo");
    RA_CURL_SYM(cu, easy_strerror, "curl_easy_strerror");
    RA_CURL_SYM(cu, slist_append, "curl_slist_append");
    RA_CURL_SYM(cu, slist_free_all, "curl_slist_free_all");
    return 0;

fail:
    snprintf(why, whylen, "%s has no %s", RA_CURL_LIB, missing);
    dlclose(cu->lib);
    memset(cu, 0, sizeof(*cu));
    return -1;
}

void
ra_curl_close(ra_curl_t *cu)
{
    if (cu->lib != NULL) {
        dlclose(cu->lib);
    }
    memset(cu, 0, sizeof(*cu));
}
