/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Identifier vs a naive loop of PCRE2 regexes, side by side on one mix of
 * User-Agents: every "instances" string of crawler-user-agents.json plus
 * the browsers of isbot's browsers.yml.  The regex side compiles every
 * "pattern" of crawler-user-agents.json and tries them in order until one
 * matches, as the npm package's users do.  Each loop is timed per round
 * and the best round kept (noise on a shared machine only adds).
 *
 * usage: identify CRAWLER_USER_AGENTS_JSON BROWSERS_YML [ROUNDS]
 */
#define PCRE2_CODE_UNIT_WIDTH 8

#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ra_crawlers.h"
#include "ra_json.h"

typedef struct {
    ra_str_t  *v;
    size_t     n, cap;
} list_t;

static void
push(list_t *l, const unsigned char *p, size_t n)
{
    unsigned char  *c = malloc(n ? n : 1);

    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 1024;
        l->v = realloc(l->v, l->cap * sizeof(ra_str_t));
    }
    if (c == NULL || l->v == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    memcpy(c, p, n);
    l->v[l->n++] = ra_str(c, n);
}

typedef struct {
    list_t    *pats;
    list_t    *uas;
    unsigned   in_instances;
    unsigned   key_pattern;
} load_t;

/* Collects "pattern" strings and "instances" array items. */
static int
on_json(void *ctx, unsigned ev, ra_str_t raw, unsigned depth)
{
    load_t         *l = ctx;
    unsigned char   buf[8192];
    long            n;

    if (ev == RA_JSON_KEY && depth == 2) {
        l->key_pattern = raw.len == 7 && memcmp(raw.data, "pattern", 7) == 0;
        l->in_instances = raw.len == 9
                          && memcmp(raw.data, "instances", 9) == 0;
    } else if (ev == RA_JSON_STRING) {
        n = ra_json_unescape(raw, buf, sizeof(buf));
        if (n < 0) {
            return 0;
        }
        if (depth == 2 && l->key_pattern) {
            push(l->pats, buf, (size_t) n);
        } else if (depth == 3 && l->in_instances) {
            push(l->uas, buf, (size_t) n);
        }
    }
    return 0;
}

static ra_str_t
slurp(const char *path)
{
    FILE   *f = fopen(path, "rb");
    char   *p;
    long    n;

    if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(1);
    }
    rewind(f);
    p = malloc((size_t) n + 1);
    if (p == NULL || fread(p, 1, (size_t) n, f) != (size_t) n) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(1);
    }
    fclose(f);
    return ra_str(p, (size_t) n);
}

static double
now(void)
{
    struct timespec  t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double) t.tv_sec * 1e9 + (double) t.tv_nsec;
}

int
main(int argc, char **argv)
{
    list_t               pats = { 0 }, uas = { 0 };
    load_t               ld = { &pats, &uas, 0, 0 };
    ra_str_t             js, yml;
    ra_json_err_t        jerr;
    ra_crawlers_t       *tab;
    ra_crawlers_err_t    cerr;
    ra_identity_t        id;
    pcre2_code         **re;
    pcre2_match_data    *md;
    int                  errcode;
    PCRE2_SIZE           erroff;
    size_t               i, j, r, rounds, ncrawl, nre = 0, hits_ra = 0;
    size_t               hits_re = 0, hits_jit = 0, browsers_seen = 0;
    const char          *p, *e, *q;
    double               t0, t1, t_ra, t_re, t_jit, t_brow;
    volatile size_t      sink = 0;

    if (argc < 3) {
        fprintf(stderr, "usage: identify CRAWLER_USER_AGENTS_JSON "
                        "BROWSERS_YML [ROUNDS]\n");
        return 2;
    }
    rounds = argc > 3 ? (size_t) atol(argv[3]) : 20;

    js = slurp(argv[1]);
    if (ra_json_parse(js, on_json, &ld, &jerr) != RA_OK) {
        fprintf(stderr, "%s: %s at %zu\n", argv[1], jerr.msg, jerr.offset);
        return 1;
    }
    ncrawl = uas.n;
    yml = slurp(argv[2]);
    for (p = (const char *) yml.data, e = p + yml.len; p < e; p = q + 1) {
        q = memchr(p, '\n', (size_t) (e - p));
        if (q == NULL) {
            q = e;
        }
        if (q - p > 4 && p[0] == ' ' && p[1] == ' ' && p[2] == '-'
            && p[3] == ' ')
        {
            push(&uas, (const unsigned char *) p + 4, (size_t) (q - p - 4));
        }
    }

    tab = ra_crawlers_create(&ra_malloc_allocator);
    if (ra_crawlers_add_builtin(tab, &cerr) != RA_OK
        || ra_crawlers_compile(tab, &cerr) != RA_OK)
    {
        fprintf(stderr, "table: %s\n", cerr.msg);
        return 1;
    }

    re = calloc(pats.n, sizeof(pcre2_code *));
    for (i = 0; i < pats.n; i++) {
        re[nre] = pcre2_compile(pats.v[i].data, pats.v[i].len, 0, &errcode,
                                &erroff, NULL);
        if (re[nre] != NULL) {
            nre++;
        }
    }
    md = pcre2_match_data_create(4, NULL);

    printf("UA mix: %zu crawler instances + %zu browsers; %zu regexes "
           "(of %zu patterns); %zu rounds\n", ncrawl, uas.n - ncrawl, nre,
           pats.n, rounds);

    /* each loop: the best round (noise on a shared machine only adds) */
    t_ra = t_brow = t_re = t_jit = 1e9;
    for (r = 0; r < rounds; r++) {
        t0 = now();
        for (i = 0; i < uas.n; i++) {
            hits_ra += ra_crawlers_identify(tab, uas.v[i], &id)
                       != RA_UA_BROWSER;
            sink += id.token.len;
        }
        t1 = (now() - t0) / (double) uas.n;
        t_ra = t1 < t_ra ? t1 : t_ra;
    }

    /* browsers only: the hot path */
    for (r = 0; r < rounds * 4; r++) {
        t0 = now();
        for (i = ncrawl; i < uas.n; i++) {
            browsers_seen += ra_crawlers_identify(tab, uas.v[i], &id)
                             == RA_UA_BROWSER;
        }
        t1 = (now() - t0) / (double) (uas.n - ncrawl);
        t_brow = t1 < t_brow ? t1 : t_brow;
    }

    for (r = 0; r < rounds; r++) {
        t0 = now();
        for (i = 0; i < uas.n; i++) {
            for (j = 0; j < nre; j++) {
                if (pcre2_match(re[j], uas.v[i].data, uas.v[i].len, 0, 0, md,
                                NULL) >= 0)
                {
                    hits_re++;
                    break;
                }
            }
        }
        t1 = (now() - t0) / (double) uas.n;
        t_re = t1 < t_re ? t1 : t_re;
    }

    for (j = 0; j < nre; j++) {
        (void) pcre2_jit_compile(re[j], PCRE2_JIT_COMPLETE);
    }
    for (r = 0; r < rounds; r++) {
        t0 = now();
        for (i = 0; i < uas.n; i++) {
            for (j = 0; j < nre; j++) {
                if (pcre2_match(re[j], uas.v[i].data, uas.v[i].len, 0, 0, md,
                                NULL) >= 0)
                {
                    hits_jit++;
                    break;
                }
            }
        }
        t1 = (now() - t0) / (double) uas.n;
        t_jit = t1 < t_jit ? t1 : t_jit;
    }

    printf("%-34s %10.1f ns/UA  (%zu of %zu flagged per round)\n",
           "robots-audit identifier", t_ra, hits_ra / rounds, uas.n);
    printf("%-34s %10.1f ns/UA\n", "  browsers only", t_brow);
    printf("%-34s %10.1f ns/UA  (%zu matched per round)  ratio %.1fx\n",
           "PCRE2 loop, interpreted", t_re, hits_re / rounds, t_re / t_ra);
    printf("%-34s %10.1f ns/UA  (%zu matched per round)  ratio %.1fx\n",
           "PCRE2 loop, JIT", t_jit, hits_jit / rounds, t_jit / t_ra);
    (void) sink;
    (void) browsers_seen;
    return 0;
}
