/* SPDX-License-Identifier: BSD-2-Clause */
/* Helpers shared by the unit tests (cmocka). */
#ifndef RA_TEST_H
#define RA_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "ra_core.h"
#include "ra_crawlers.h"
#include "ra_host.h"

/* An allocator that counts what it hands out and frees it all at once:
 * the arena a module's pool would be. */
typedef struct ra_test_arena_s ra_test_arena_t;

ra_test_arena_t *ra_test_arena_new(void);
const ra_alloc_t *ra_test_arena_alloc(ra_test_arena_t *a);
size_t ra_test_arena_bytes(ra_test_arena_t *a);
void ra_test_arena_free(ra_test_arena_t *a);

/* Copies s to a heap block of exactly its length, so ASan catches any read
 * past the end of a span (the guard-page idea of picohttpparser's tests). */
ra_str_t ra_test_exact(const void *s, size_t len);
#define RA_TEST_STR(lit)  ra_test_exact(lit, sizeof(lit) - 1)
void ra_test_exact_free(ra_str_t s);

/* ../shared/data (or $RA_SHARED_DATA) as a path, or NULL when absent. */
const char *ra_test_shared(void);
/* Reads a whole file; returns 0 on success (free data with free()). */
int ra_test_read_file(const char *path, ra_str_t *out);

/* Skips the current test with a message when shared data is absent. */
#define RA_TEST_NEED_SHARED()                                               \
    do {                                                                    \
        if (ra_test_shared() == NULL) {                                     \
            print_message("skip: ../shared/data not present\n");           \
            skip();                                                         \
        }                                                                   \
    } while (0)



/* Minimal readers for test data: the value of "key" in a flat JSON object
 * (strings unescaped to UTF-8, true/false/null as text); 0 when found.
 * *out is malloc()ed. */
int ra_test_json_get(const char *obj, const char *key, char **out,
    size_t *len);
/* Base64 (RFC 4648) into a malloc()ed buffer; 0 on success. */
int ra_test_base64(const char *in, unsigned char **out, size_t *len);
/* Running build/robots-audit from the repository root, as make does. */
#define RA_TEST_CLI  "build/robots-audit"

typedef struct {
    int     status;         /* exit code, -1 if it did not exit */
    char   *out;            /* stdout, NUL-terminated (malloc()ed) */
    size_t  len;
} ra_test_run_t;

/* Skips the test with a message when the CLI is not built. */
void ra_test_need_cli(void);
/* Runs "build/robots-audit ARGS" through the shell (stderr dropped unless
 * ARGS redirects it), feeding it stdin_text (NULL: no input). */
void ra_test_cli(ra_test_run_t *r, const char *args, const char *stdin_text);
void ra_test_run_free(ra_test_run_t *r);
/* Runs cmd through the shell: its exit status (-1 if it did not exit),
 * its stdout in out, cut to cap - 1 bytes and NUL-terminated. */
int ra_test_sh(const char *cmd, char *out, size_t cap);
/* The built-in crawler table, compiled, in a's memory; NULL when it
 * could not be made. */
ra_crawlers_t *ra_test_builtin_table(const ra_alloc_t *a);
/* A temporary file holding len bytes; its path in path[64]. */
void ra_test_tmp_file(char *path, const void *data, size_t len);
/* in[0..len) gzip-compressed into out (cap bytes, which must be enough);
 * returns the compressed length. */
size_t ra_test_gzip(const void *in, size_t len, unsigned char *out,
    size_t cap);

/* The lines a host's log was handed, for the test to read: the first
 * RA_TEST_LOG_LINES of them whole, with their level and where; n counts
 * those kept. */
#define RA_TEST_LOG_LINES  64
typedef struct {
    char   lines[RA_TEST_LOG_LINES][RA_HOST_LINE_MAX + 1];
    int    levels[RA_TEST_LOG_LINES];
    void  *where[RA_TEST_LOG_LINES];
    int    n;
} ra_test_log_t;

/* A host whose log lines go to log (cleared here; a line longer than
 * RA_HOST_LINE_MAX fails the test), whose heap is malloc's and whose
 * clock is now (NULL: none). */
void ra_test_host(ra_host_t *h, ra_test_log_t *log,
    int64_t (*now)(const ra_host_t *h));

#endif
