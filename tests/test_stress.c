/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ../shared/data/robots-stress/: every file compiles, answers 64 KiB URLs,
 * and decides what its README says it stresses.  Times are printed for the
 * closing note, never asserted (bench/ measures).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ra_test.h"
#include "ra_rules.h"

#define URL_LEN  65536

static double
now_ms(void)
{
    struct timespec  ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static ra_rules_t *
load(const char *name, ra_str_t *body)
{
    char         path[512];
    ra_rules_t  *rs;

    snprintf(path, sizeof(path), "%s/robots-stress/%s", ra_test_shared(),
             name);
    assert_int_equal(ra_test_read_file(path, body), 0);
    assert_int_equal(ra_rules_compile(*body, &ra_malloc_allocator, &rs, NULL),
                     RA_OK);
    return rs;
}

static int
verdict(const ra_rules_t *rs, const char *agent, const char *path,
    ra_mode_e mode, uint32_t *line)
{
    ra_str_t    a = ra_str(agent, strlen(agent));
    ra_match_t  m;

    assert_int_equal(ra_rules_match(rs, mode, &a, 1,
                                    ra_str(path, strlen(path)),
                                    &ra_malloc_allocator, &m), RA_OK);
    if (line) *line = m.line;
    return m.allowed;
}

/* Every file: compile, then four 64 KiB URLs in both modes. */
static void
stress_every_file_answers_64k_urls(void **state)
{
    DIR            *d;
    struct dirent  *e;
    char            dir[512], *url;
    const char     *agents[] = { "FooBot", "bot1", "agent-aaa", "Googlebot" };
    ra_str_t        body;
    ra_rules_t     *rs;
    double          t0, worst = 0;
    size_t          files = 0, i, k;
    int             mode;
    char            worst_name[256] = "";

    (void) state;
    RA_TEST_NEED_SHARED();
    url = malloc(URL_LEN + 1);
    assert_non_null(url);
    snprintf(dir, sizeof(dir), "%s/robots-stress", ra_test_shared());
    d = opendir(dir);
    assert_non_null(d);
    while ((e = readdir(d)) != NULL) {
        if (strstr(e->d_name, ".txt") == NULL) {
            continue;
        }
        rs = load(e->d_name, &body);
        for (k = 0; k < 4; k++) {
            /* all 'a'; 'a' then 'b'; '*'-rich; '/'-rich */
            for (i = 0; i < URL_LEN; i++) {
                url[i] = k == 2 ? "*a"[i & 1] : k == 3 ? "a/"[i % 7 == 0]
                                                       : 'a';
            }
            url[0] = '/';
            url[URL_LEN - 1] = k == 1 ? 'b' : url[URL_LEN - 1];
            url[URL_LEN] = '\0';
            for (mode = 0; mode < RA_MODES; mode++) {
                t0 = now_ms();
                (void) verdict(rs, agents[k], url, (ra_mode_e) mode, NULL);
                t0 = now_ms() - t0;
                if (t0 > worst) {
                    worst = t0;
                    snprintf(worst_name, sizeof(worst_name), "%s", e->d_name);
                }
            }
        }
        ra_rules_free(rs);
        free((void *) body.data);
        files++;
    }
    closedir(d);
    free(url);
    print_message("%zu files, slowest 64 KiB match %.2f ms (%s)%s\n", files,
                  worst, worst_name,
                  getenv("RA_UNDER_VALGRIND") ? " under valgrind" : "");
    assert_true(files >= 33);
}

/* 08: Google keeps the first 16,663 bytes of a line */
static void
stress_08_line_length_boundaries(void **state)
{
    ra_str_t     body;
    ra_rules_t  *rs;
    const unsigned char *p, *end, *nl;
    char        *probe;
    size_t       line = 0, len;

    (void) state;
    RA_TEST_NEED_SHARED();
    rs = load("08_line_len_boundaries.txt", &body);
    p = body.data;
    end = body.data + body.len;
    while (p < end) {
        nl = memchr(p, '\n', (size_t) (end - p));
        len = (size_t) ((nl ? nl : end) - p);
        line++;
        if (len > 16000) {
            /* the rule's path with its final 'Z' turned into 'Y' */
            probe = malloc(len);
            memcpy(probe, p + 10, len - 10);
            probe[len - 11] = 'Y';
            probe[len - 10] = '\0';
            /* 'Z' survives only if the line fits in 16,663 bytes */
            assert_int_equal(verdict(rs, "x", probe, RA_MODE_GOOGLE, NULL),
                             len <= RA_MAX_LINE_LEN);
            free(probe);
        }
        p = nl ? nl + 1 : end;
    }
    ra_rules_free(rs);
    free((void *) body.data);
}

static void
stress_09_huge_line_then_rule(void **state)
{
    ra_str_t     body;
    ra_rules_t  *rs;

    (void) state;
    RA_TEST_NEED_SHARED();
    /* the 1 MiB line runs past the 500 KiB limit, so the rule after it
     * is never read, and the cut line itself is no rule */
    rs = load("09_huge_line_1mib.txt", &body);
    assert_true(verdict(rs, "x", "/after", RA_MODE_RFC, NULL));
    assert_true(verdict(rs, "x", "/aaaa", RA_MODE_GOOGLE, NULL));
    ra_rules_free(rs);
    free((void *) body.data);
}

/* 10 and 11: nothing past 500 KiB counts; the cut line keeps its start */
static void
stress_10_11_parse_limit(void **state)
{
    ra_str_t     body;
    ra_rules_t  *rs;

    (void) state;
    RA_TEST_NEED_SHARED();
    /* the limit falls just after a line's "Disallow: /": that cut line
     * must not close the site */
    rs = load("10_600kib.txt", &body);
    assert_true(verdict(rs, "x", "/beyond-500kib", RA_MODE_RFC, NULL));
    assert_true(verdict(rs, "x", "/other", RA_MODE_RFC, NULL));
    assert_false(verdict(rs, "x", "/filler/020477", RA_MODE_RFC, NULL));
    assert_true(verdict(rs, "x", "/filler/020479", RA_MODE_RFC, NULL));
    assert_false(verdict(rs, "x", "/filler/000001", RA_MODE_RFC, NULL));
    ra_rules_free(rs);
    free((void *) body.data);

    /* "Disallow: /straddle-boundary" is cut to "Disallow: /straddle":
     * ignored, so /straddle-anything stays allowed */
    rs = load("11_500kib_boundary.txt", &body);
    assert_int_equal(body.len, 512010);
    assert_true(verdict(rs, "x", "/straddle", RA_MODE_GOOGLE, NULL));
    assert_true(verdict(rs, "x", "/straddle-other", RA_MODE_GOOGLE, NULL));
    assert_false(verdict(rs, "x", "/f00024377", RA_MODE_GOOGLE, NULL));
    ra_rules_free(rs);
    free((void *) body.data);
}

static void
stress_12_14_29_31_many_rules_groups_agents(void **state)
{
    ra_str_t     body;
    ra_rules_t  *rs;
    uint32_t     line;

    (void) state;
    RA_TEST_NEED_SHARED();
    rs = load("12_10k_rules.txt", &body);
    assert_false(verdict(rs, "x", "/dir9999/x", RA_MODE_RFC, &line));
    assert_int_equal(line, 10001);
    assert_true(verdict(rs, "x", "/dir10000/x", RA_MODE_RFC, NULL));
    ra_rules_free(rs);
    free((void *) body.data);

    /* 13: tokens with digits are cut: "bot0x" is stored as "bot" */
    rs = load("13_10k_groups.txt", &body);
    assert_true(verdict(rs, "bot0x", "/b0/", RA_MODE_GOOGLE, NULL));
    assert_false(verdict(rs, "bot", "/b0/", RA_MODE_GOOGLE, NULL));
    assert_false(verdict(rs, "bot", "/b9999/", RA_MODE_GOOGLE, NULL));
    assert_false(verdict(rs, "other", "/star/", RA_MODE_GOOGLE, NULL));
    ra_rules_free(rs);
    free((void *) body.data);

    rs = load("14_10k_ua_lines.txt", &body);
    assert_false(verdict(rs, "agent-aaa", "/shared/", RA_MODE_RFC, NULL));
    assert_false(verdict(rs, "AGENT-PUO", "/shared/x", RA_MODE_RFC, NULL));
    assert_true(verdict(rs, "agent-zzz", "/shared/", RA_MODE_RFC, NULL));
    ra_rules_free(rs);
    free((void *) body.data);

    /* 29: 5,000 groups for one agent merge into one */
    rs = load("29_same_ua_5000_groups.txt", &body);
    assert_false(verdict(rs, "FooBot", "/p0/", RA_MODE_RFC, NULL));
    assert_false(verdict(rs, "FooBot", "/p4999/", RA_MODE_RFC, NULL));
    assert_true(verdict(rs, "Other", "/p0/", RA_MODE_RFC, NULL));
    ra_rules_free(rs);
    free((void *) body.data);

    /* 31: 300,000 CRLF lines (600,000 bytes): "/late" lies past 500 KiB */
    rs = load("31_300k_crlf_lines.txt", &body);
    assert_true(verdict(rs, "x", "/late", RA_MODE_RFC, &line));
    ra_rules_free(rs);
    free((void *) body.data);
}

static void
stress_15_17_33_wildcard_bombs(void **state)
{
    static const char  *files[] = { "15_wildcard_aaab.txt",
                                    "16_many_stars.txt",
                                    "17_wildcard_500kib_bomb.txt",
                                    "33_star_500kib_bomb.txt" };
    ra_str_t     body;
    ra_rules_t  *rs;
    char        *url;
    size_t       i;

    (void) state;
    RA_TEST_NEED_SHARED();
    url = malloc(URL_LEN + 1);
    memset(url, 'a', URL_LEN);
    url[0] = '/';
    url[URL_LEN] = '\0';
    for (i = 0; i < 4; i++) {
        rs = load(files[i], &body);
        /* no 'b' anywhere: nothing ending in 'b' can match */
        if (i != 1) {
            assert_true(verdict(rs, "x", url, RA_MODE_GOOGLE, NULL));
        }
        url[URL_LEN - 1] = 'b';
        if (i >= 2) {
            assert_false(verdict(rs, "x", url, RA_MODE_RFC, NULL));
        }
        url[URL_LEN - 1] = 'a';
        ra_rules_free(rs);
        free((void *) body.data);
    }
    free(url);
}

static void
stress_small_files_semantics(void **state)
{
    ra_str_t     body;
    ra_rules_t  *rs;

    (void) state;
    RA_TEST_NEED_SHARED();
    rs = load("01_empty.txt", &body);
    assert_true(verdict(rs, "x", "/", RA_MODE_GOOGLE, NULL));
    ra_rules_free(rs);
    free((void *) body.data);

    /* 30: UTF-16 reads as garbage: no rule applies */
    rs = load("30_utf16le.txt", &body);
    assert_true(verdict(rs, "x", "/", RA_MODE_GOOGLE, NULL));
    assert_true(verdict(rs, "x", "/private", RA_MODE_GOOGLE, NULL));
    ra_rules_free(rs);
    free((void *) body.data);

    /* 25: an HTML page has no rules either */
    rs = load("25_html_page.txt", &body);
    assert_true(verdict(rs, "x", "/", RA_MODE_RFC, NULL));
    ra_rules_free(rs);
    free((void *) body.data);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stress_every_file_answers_64k_urls),
        cmocka_unit_test(stress_08_line_length_boundaries),
        cmocka_unit_test(stress_09_huge_line_then_rule),
        cmocka_unit_test(stress_10_11_parse_limit),
        cmocka_unit_test(stress_12_14_29_31_many_rules_groups_agents),
        cmocka_unit_test(stress_15_17_33_wildcard_bombs),
        cmocka_unit_test(stress_small_files_semantics),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
