/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The linear worst case, measured: every robots.txt of the stress set
 * (../shared/data/robots-stress/) compiled, then four 64 KiB URLs (all
 * 'a'; 'a' then 'b'; '*'-rich; '/'-rich) judged in both modes for four
 * agents, each the best of three runs.  Prints the slowest judgement and
 * its file, and the slowest compile.  Part of `make bench`.
 * Usage: stress DIR
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ra_rules.h"

#define URL_LEN  65536

static double
now_ms(void)
{
    struct timespec  ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int
main(int argc, char **argv)
{
    DIR            *d;
    FILE           *f;
    struct dirent  *e;
    char            path[1024], *url, *body, worst_name[256] = "",
                    cworst_name[256] = "";
    const char     *agents[] = { "FooBot", "bot1", "agent-aaa", "Googlebot" };
    size_t          files = 0, i, k, n, cap = 2 * 1024 * 1024;
    double          t0, t, best, worst = 0, cworst = 0;
    int             mode, r;
    ra_rules_t     *rs;
    ra_match_t      m;
    ra_str_t        a;

    if (argc != 2 || (d = opendir(argv[1])) == NULL) {
        fprintf(stderr, "usage: stress DIR (the robots-stress files)\n");
        return 2;
    }
    url = malloc(URL_LEN + 1);
    body = malloc(cap);
    while ((e = readdir(d)) != NULL) {
        if (strstr(e->d_name, ".txt") == NULL) {
            continue;
        }
        snprintf(path, sizeof(path), "%s/%s", argv[1], e->d_name);
        if ((f = fopen(path, "rb")) == NULL) {
            perror(path);
            return 2;
        }
        n = fread(body, 1, cap, f);
        fclose(f);
        t0 = now_ms();
        if (ra_rules_compile(ra_str(body, n), &ra_malloc_allocator, &rs, NULL)
            != RA_OK)
        {
            fprintf(stderr, "%s: out of memory\n", path);
            return 2;
        }
        t = now_ms() - t0;
        if (t > cworst) {
            cworst = t;
            snprintf(cworst_name, sizeof(cworst_name), "%s", e->d_name);
        }
        for (k = 0; k < 4; k++) {
            for (i = 0; i < URL_LEN; i++) {
                url[i] = k == 2 ? "*a"[i & 1] : k == 3 ? "a/"[i % 7 == 0]
                                                       : 'a';
            }
            url[0] = '/';
            url[URL_LEN - 1] = k == 1 ? 'b' : url[URL_LEN - 1];
            a = ra_str(agents[k], strlen(agents[k]));
            for (mode = 0; mode < RA_MODES; mode++) {
                best = 1e9;
                for (r = 0; r < 3; r++) {
                    t0 = now_ms();
                    (void) ra_rules_match(rs, (ra_mode_e) mode, &a, 1,
                                          ra_str(url, URL_LEN),
                                          &ra_malloc_allocator, &m);
                    t = now_ms() - t0;
                    best = t < best ? t : best;
                }
                if (best > worst) {
                    worst = best;
                    snprintf(worst_name, sizeof(worst_name), "%s", e->d_name);
                }
            }
        }
        ra_rules_free(rs);
        files++;
    }
    closedir(d);
    printf("files: %zu\n", files);
    printf("slowest 64 KiB judgement: %8.2f ms (%s)\n", worst, worst_name);
    printf("slowest compile:          %8.2f ms (%s)\n", cworst, cworst_name);
    free(url);
    free(body);
    return 0;
}
