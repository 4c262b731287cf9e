/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Matcher benchmark: the compiled matcher against a naive per-rule matcher
 * (every rule of the group tried with the reference library's
 * position-set algorithm, as google/robotstxt does per URL), same rules,
 * same URLs, one run.  The compiled matcher is timed with the group chosen
 * once (ra_rules_group, as `check` uses it) and chosen again for every URL
 * (ra_rules_match), the best of 15 rounds each.  Prints ns/URL for each and the ratio; exits 1 if the two ever
 * disagree.  With --once, one pass of the compiled matcher and nothing
 * else (bench/run.sh counts its instructions under callgrind).
 * Usage: match ROBOTS_FILE URLS_FILE [--once]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ra_rules.h"

typedef struct {
    char   *pat;
    size_t  len;
    int     allow;
} naive_rule_t;

static naive_rule_t  naive[100000];
static size_t        nnaive;

/* google/robotstxt Matches(): O(path x pattern) position sets */
static int
naive_matches(const char *path, size_t plen, const char *pat, size_t patlen)
{
    static size_t  pos[1 << 16];
    size_t         numpos = 1, i, j, k;

    if (plen + 1 > sizeof(pos) / sizeof(pos[0])) {
        return 0;
    }
    pos[0] = 0;
    for (i = 0; i < patlen; i++) {
        if (pat[i] == '$' && i + 1 == patlen) {
            return pos[numpos - 1] == plen;
        }
        if (pat[i] == '*') {
            numpos = plen - pos[0] + 1;
            for (j = 1; j < numpos; j++) {
                pos[j] = pos[j - 1] + 1;
            }
        } else {
            for (j = 0, k = 0; j < numpos; j++) {
                if (pos[j] < plen && path[pos[j]] == pat[i]) {
                    pos[k++] = pos[j] + 1;
                }
            }
            numpos = k;
            if (numpos == 0) {
                return 0;
            }
        }
    }
    return 1;
}

static int
naive_allowed(const char *path, size_t plen)
{
    long    a = -1, d = -1;
    size_t  i;

    for (i = 0; i < nnaive; i++) {
        if (naive_matches(path, plen, naive[i].pat, naive[i].len)) {
            if (naive[i].allow && (long) naive[i].len > a) a = (long) naive[i].len;
            if (!naive[i].allow && (long) naive[i].len > d) d = (long) naive[i].len;
        }
    }
    return !(d > a);
}

static int
naive_line(void *ctx, const ra_line_t *ln)
{
    (void) ctx;
    if (ln->kind == RA_LINE_DIRECTIVE && ln->value.len
        && (ln->key == RA_KEY_ALLOW || ln->key == RA_KEY_DISALLOW))
    {
        naive[nnaive].pat = strndup((const char *) ln->value.data,
                                    ln->value.len);
        naive[nnaive].len = ln->value.len;
        naive[nnaive].allow = ln->key == RA_KEY_ALLOW;
        nnaive++;
    }
    return RA_OK;
}

static double
now(void)
{
    struct timespec  ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static char *
slurp(const char *path, size_t *len)
{
    FILE  *f = fopen(path, "rb");
    char  *b;
    long   n;

    if (f == NULL) { perror(path); exit(2); }
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    b = malloc((size_t) n + 1);
    if (fread(b, 1, (size_t) n, f) != (size_t) n) { perror(path); exit(2); }
    b[n] = '\0';
    fclose(f);
    *len = (size_t) n;
    return b;
}

int
main(int argc, char **argv)
{
    size_t       blen, ulen, n = 0, i, disallowed = 0, rounds = 15, r;
    char        *body, *urls, *p, *nl;
    ra_str_t    *paths, agent = ra_string("FooBot");
    ra_rules_t  *rs;
    ra_match_t   m;
    ra_rules_group_t  g;
    double       t0, t1, t_fast, t_agents, t_naive, t_compile;

    if (argc != 3 && !(argc == 4 && strcmp(argv[3], "--once") == 0)) {
        fprintf(stderr, "usage: match ROBOTS_FILE URLS_FILE [--once]\n");
        return 2;
    }
    body = slurp(argv[1], &blen);
    urls = slurp(argv[2], &ulen);
    paths = malloc(sizeof(ra_str_t) * (ulen / 8 + 1));
    for (p = urls; p < urls + ulen; p = nl + 1) {
        nl = memchr(p, '\n', (size_t) (urls + ulen - p));
        if (nl == NULL) nl = urls + ulen;
        if (nl > p) paths[n++] = ra_url_path(ra_str(p, (size_t) (nl - p)));
    }

    if (argc == 4) {
        /* one pass of the matcher alone, for an instruction count */
        ra_rules_compile(ra_str(body, blen), &ra_malloc_allocator, &rs, NULL);
        ra_rules_group(rs, &agent, 1, &g);
        for (i = 0; i < n; i++) {
            ra_rules_match_group(rs, RA_MODE_GOOGLE, &g, paths[i], NULL, &m);
            disallowed += !m.allowed;
        }
        printf("URLs: %zu, disallowed: %zu\n", n, disallowed);
        ra_rules_free(rs);
        return 0;
    }

    t0 = now();
    for (r = 0; r < 100; r++) {
        ra_rules_compile(ra_str(body, blen), &ra_malloc_allocator, &rs, NULL);
        ra_rules_free(rs);
    }
    t_compile = (now() - t0) / 100;
    ra_rules_compile(ra_str(body, blen), &ra_malloc_allocator, &rs, NULL);
    ra_parse(ra_str(body, blen), naive_line, NULL, NULL);

    ra_rules_group(rs, &agent, 1, &g);
    t_fast = t_agents = 1e9;
    for (r = 0; r < rounds; r++) {
        disallowed = 0;
        t0 = now();
        for (i = 0; i < n; i++) {
            ra_rules_match_group(rs, RA_MODE_GOOGLE, &g, paths[i], NULL, &m);
            disallowed += !m.allowed;
        }
        t1 = now() - t0;
        t_fast = t1 < t_fast ? t1 : t_fast;
        t0 = now();
        for (i = 0; i < n; i++) {
            ra_rules_match(rs, RA_MODE_GOOGLE, &agent, 1, paths[i], NULL, &m);
        }
        t1 = now() - t0;
        t_agents = t1 < t_agents ? t1 : t_agents;
    }

    t0 = now();
    for (i = 0; i < n; i++) {
        (void) naive_allowed((const char *) paths[i].data, paths[i].len);
    }
    t_naive = now() - t0;

    for (i = 0; i < n; i++) {
        ra_rules_match(rs, RA_MODE_GOOGLE, &agent, 1, paths[i], NULL, &m);
        if (m.allowed != naive_allowed((const char *) paths[i].data,
                                       paths[i].len))
        {
            fprintf(stderr, "disagree on %.*s\n", (int) paths[i].len,
                    paths[i].data);
            return 1;
        }
    }

    printf("rules: %zu, URLs: %zu, disallowed: %zu\n", nnaive, n,
           disallowed);
    printf("compile once:            %10.1f us\n", t_compile * 1e6);
    printf("compiled matcher:        %10.1f ns/URL (group chosen once)\n",
           t_fast * 1e9 / n);
    printf("  group chosen per URL:  %10.1f ns/URL\n", t_agents * 1e9 / n);
    printf("naive per-rule matcher:  %10.1f ns/URL\n", t_naive * 1e9 / n);
    printf("ratio naive/compiled:    %10.1fx\n", t_naive / t_fast);
    ra_rules_free(rs);
    return 0;
}
