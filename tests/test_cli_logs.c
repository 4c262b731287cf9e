/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * 'robots-audit logs' and 'whatif' as a user runs them: exit codes, the
 * real logs of ../shared/data/logs checked against an independent scan,
 * .gz and stdin, garbage, every output format.  Runs build/robots-audit
 * from the repository root; skips when it or the shared data is absent.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "ra_test.h"
#include "ra_json.h"

#define CLI     "build/robots-audit"
#define ROBOTS  "data/elastic-robots.txt"

typedef struct {
    int     status;
    char   *out;
    size_t  len;
} run_t;

static void
need_cli(void)
{
    struct stat  st;

    if (stat(CLI, &st) != 0) {
        print_message("skip: " CLI " not built (run from the repo root)\n");
        skip();
    }
}

static void
run(run_t *r, const char *fmt, ...)
{
    char     cmd[8192];
    va_list  ap;
    FILE    *p;
    size_t   cap = 65536, n;
    int      st;

    va_start(ap, fmt);
    vsnprintf(cmd, sizeof(cmd), fmt, ap);
    va_end(ap);
    p = popen(cmd, "r");
    assert_non_null(p);
    r->out = malloc(cap);
    assert_non_null(r->out);
    r->len = 0;
    while ((n = fread(r->out + r->len, 1, cap - r->len - 1, p)) > 0) {
        r->len += n;
        if (cap - r->len - 1 == 0) {
            cap *= 2;
            r->out = realloc(r->out, cap);
            assert_non_null(r->out);
        }
    }
    r->out[r->len] = '\0';
    st = pclose(p);
    r->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static const char *
elastic(void)
{
    static char  path[512];

    RA_TEST_NEED_SHARED();
    snprintf(path, sizeof(path), "%s/logs/elastic-apache/apache_logs",
             ra_test_shared());
    return path;
}

/* ---- the independent scan: sscanf and prefixes, no project code ---- */

typedef struct {
    long  lines, complete, requests, fetches, disallowed, blog, outside;
} scan_t;

static void
scan_googlebot(const char *path, scan_t *s)
{
    FILE   *f = fopen(path, "r");
    char    line[16384], addr[64], target[4096];
    size_t  n;

    assert_non_null(f);
    memset(s, 0, sizeof(*s));
    while (fgets(line, sizeof(line), f) != NULL) {
        s->lines++;
        n = strlen(line);
        while (n && (line[n - 1] == '\n' || line[n - 1] == '\r')) {
            line[--n] = '\0';
        }
        if (n == 0 || line[n - 1] != '"') {
            continue;               /* cut short: malformed */
        }
        s->complete++;
        if (strstr(line, "Googlebot") == NULL
            || sscanf(line, "%63s %*s %*s [%*[^]]] \"%*s %4095s", addr,
                      target) != 2)
        {
            continue;
        }
        s->requests++;
        if (strncmp(addr, "66.249.", 7) != 0) {
            s->outside++;
        }
        if (strcmp(target, "/robots.txt") == 0) {
            s->fetches++;
        } else if (strncmp(target, "/files/", 7) == 0
                   || strncmp(target, "/scripts/", 9) == 0
                   || strncmp(target, "/wp-admin/", 10) == 0)
        {
            s->disallowed++;
        } else if (strncmp(target, "/blog/", 6) == 0) {
            s->blog++;
        }
    }
    fclose(f);
}

/* ---- sums of the JSON report's crawler records --------------------- */

typedef struct {
    const char  *prefix;        /* crawler names counted */
    unsigned     depth;         /* of the members of a crawler record */
    int          match;
    int          impostor;
    char         key[32];
    long         requests, fetches, violation, compliant, impostors;
    long         a2d;           /* whatif */
    long         lines, malformed;
    int          crawlers_seen;
} sums_t;

static int
sums_ev(void *ctx, unsigned ev, ra_str_t raw, unsigned depth)
{
    sums_t  *s = ctx;
    long     v;
    char     num[32];

    if (ev == RA_JSON_KEY) {
        snprintf(s->key, sizeof(s->key), "%.*s", (int) raw.len, raw.data);
        return 0;
    }
    if (ev == RA_JSON_STRING && depth == s->depth
        && strcmp(s->key, "crawler") == 0)
    {
        s->match = raw.len >= strlen(s->prefix)
                   && memcmp(raw.data, s->prefix, strlen(s->prefix)) == 0;
        s->crawlers_seen++;
        return 0;
    }
    if (ev == RA_JSON_STRING && depth == s->depth
        && strcmp(s->key, "verification") == 0)
    {
        s->impostor = raw.len == 8 && memcmp(raw.data, "impostor", 8) == 0;
        return 0;
    }
    if (ev != RA_JSON_NUMBER) {
        return 0;
    }
    snprintf(num, sizeof(num), "%.*s", (int) raw.len, raw.data);
    v = atol(num);
    if (depth == 1 && strcmp(s->key, "lines") == 0) {
        s->lines = v;
    } else if (depth == 1 && strcmp(s->key, "malformed_lines") == 0) {
        s->malformed = v;
    }
    if (depth != s->depth || !s->match) {
        return 0;
    }
    if (strcmp(s->key, "requests") == 0) {
        s->requests += v;
        if (s->impostor) {
            s->impostors += v;
        }
    } else if (strcmp(s->key, "robots_fetches") == 0) {
        s->fetches += v;
    } else if (strcmp(s->key, "violation") == 0) {
        s->violation += v;
    } else if (strcmp(s->key, "compliant") == 0) {
        s->compliant += v;
    } else if (strcmp(s->key, "allowed_to_disallowed") == 0) {
        s->a2d += v;
    }
    return 0;
}

static void
sums(const run_t *r, const char *prefix, unsigned depth, sums_t *s)
{
    ra_json_err_t  err;

    memset(s, 0, sizeof(*s));
    s->prefix = prefix;
    s->depth = depth;
    assert_true(r->len > 0 && r->out[r->len - 1] == '\n');
    if (ra_json_parse(ra_str(r->out, r->len - 1), sums_ev, s, &err)
        != RA_OK)
    {
        print_message("JSON error at %zu: %s\n", err.offset, err.msg);
        fail();
    }
}

static void
test_usage(void **state)
{
    run_t  r;

    (void) state;
    need_cli();
    run(&r, CLI " logs /dev/null 2>/dev/null");
    assert_int_equal(r.status, 2);
    free(r.out);
    run(&r, CLI " logs --robots " ROBOTS " 2>/dev/null");
    assert_int_equal(r.status, 2);
    free(r.out);
    run(&r, CLI " logs --robots " ROBOTS " /nonexistent/log 2>&1");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.out, "/nonexistent/log"));
    free(r.out);
    run(&r, CLI " logs --robots " ROBOTS " --format xml /dev/null "
        "2>/dev/null");
    assert_int_equal(r.status, 2);
    free(r.out);
    run(&r, CLI " logs --help");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "usage: robots-audit logs"));
    free(r.out);
    run(&r, CLI " whatif --current " ROBOTS " /dev/null 2>/dev/null");
    assert_int_equal(r.status, 2);
    free(r.out);
}

static void
test_elastic_counts(void **state)
{
    const char  *log;
    scan_t       sc;
    sums_t       s;
    run_t        r;

    (void) state;
    need_cli();
    log = elastic();
    scan_googlebot(log, &sc);
    assert_int_equal(sc.lines, 10000);
    assert_int_equal(sc.complete, 9999);

    run(&r, CLI " logs --robots " ROBOTS " --ranges %s/ip-ranges/"
        "googlebot.json --format json %s 2>/dev/null", ra_test_shared(), log);
    assert_int_equal(r.status, 0);
    /* top{} sites[] site{} crawlers[] crawler{}: members at depth 5 */
    sums(&r, "Googlebot", 5, &s);
    assert_int_equal(s.lines, 10000);
    assert_int_equal(s.malformed, 1);
    assert_int_equal(s.requests, sc.requests);
    assert_int_equal(s.fetches, sc.fetches);
    /* one robots.txt version: every disallowed request is a violation */
    assert_int_equal(s.violation, sc.disallowed);
    assert_int_equal(s.compliant, sc.requests - sc.fetches - sc.disallowed);
    assert_int_equal(s.impostors, sc.outside);
    free(r.out);
}

static void
test_gz_and_stdin(void **state)
{
    const char  *log;
    char         gzpath[] = "/tmp/ra-logs-XXXXXX", *body;
    ra_str_t     text;
    gzFile       gz;
    int          fd;
    run_t        a, b, c;

    (void) state;
    need_cli();
    log = elastic();
    assert_int_equal(ra_test_read_file(log, &text), 0);
    fd = mkstemp(gzpath);
    assert_true(fd >= 0);
    gz = gzdopen(fd, "wb");
    assert_non_null(gz);
    assert_int_equal(gzwrite(gz, text.data, (unsigned) text.len),
                     (int) text.len);
    gzclose(gz);
    body = (char *) text.data;

    run(&a, CLI " logs --robots " ROBOTS " %s 2>/dev/null", log);
    run(&b, CLI " logs --robots " ROBOTS " %s 2>/dev/null", gzpath);
    run(&c, "cat %s | " CLI " logs --robots " ROBOTS " - 2>/dev/null", log);
    assert_int_equal(a.status, 0);
    assert_int_equal(b.status, 0);
    assert_int_equal(c.status, 0);
    assert_string_equal(a.out, b.out);
    assert_string_equal(a.out, c.out);
    assert_non_null(strstr(a.out, "10000 lines, 1 malformed"));
    free(a.out);
    free(b.out);
    free(c.out);

    /* a .gz cut short is an input error, not a crash */
    assert_int_equal(truncate(gzpath, 2000), 0);
    run(&a, CLI " logs --robots " ROBOTS " %s 2>/dev/null", gzpath);
    assert_int_equal(a.status, 2);
    free(a.out);
    unlink(gzpath);
    free(body);
}

static void
test_hackers(void **state)
{
    char   path[512];
    run_t  r;

    (void) state;
    need_cli();
    RA_TEST_NEED_SHARED();
    snprintf(path, sizeof(path), "%s/logs/hackers/hackers-access.log",
             ra_test_shared());
    run(&r, CLI " logs --robots " ROBOTS " --format json %s 2>/dev/null",
        path);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\"crawlers\":[]"));
    assert_non_null(strstr(r.out, "\"lines\":3456,\"malformed_lines\":0}"));
    free(r.out);
}

/* --robots FILE is in force from the first line: a log in which the
 * crawler never fetched robots.txt (a rotated or filtered log) still has
 * its violations */
static void
test_robots_from_first_line(void **state)
{
    static const char  lines[] =
        "1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] \"GET /files/x HTTP/1.1\""
        " 200 5 \"-\" \"Mozilla/5.0 (compatible; bingbot/2.0)\"\n"
        "1.2.3.4 - - [10/Oct/2000:13:55:40 -0700] \"GET /ok HTTP/1.1\""
        " 200 5 \"-\" \"Mozilla/5.0 (compatible; bingbot/2.0)\"\n";
    char                path[64];
    run_t               r;

    (void) state;
    need_cli();
    ra_test_tmp_file(path, lines, sizeof(lines) - 1);
    run(&r, CLI " logs --robots " ROBOTS " --format json %s 2>/dev/null",
        path);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\"crawler\":\"bingbot\""));
    assert_non_null(strstr(r.out, "\"compliant\":1,\"violation\":1,"));
    assert_non_null(strstr(r.out, "\"unknown\":0"));
    free(r.out);
    unlink(path);
}

static void
test_garbage(void **state)
{
    char    path[] = "/tmp/ra-logs-XXXXXX";
    FILE   *f;
    int     fd, i;
    run_t   r;

    (void) state;
    need_cli();
    fd = mkstemp(path);
    assert_true(fd >= 0);
    f = fdopen(fd, "w");
    assert_non_null(f);
    fputs("1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] \"GET /files/x HTTP/1.1\""
          " 200 5 \"-\" \"Mozilla/5.0 (compatible; bingbot/2.0)\"\n", f);
    fputs("garbage\n\x01\x02\xff\xfe\n\n", f);                  /* 2 bad */
    fputs("1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] \"GET /\n", f);  /* 1 */
    for (i = 0; i < 100000; i++) {                              /* 1 */
        fputc('A' + i % 26, f);
    }
    fputs("\n1.2.3.4 - - [10/Oct/2000:13:55:37 -0700] \"\\x16\\x03\" 400 0 "
          "\"-\" \"-\"\n", f);                         /* counted, unjudged */
    fputs("1.2.3.4 - - [10/Oct/2000:13:55:38 -0700] \"GET /a\\\"b HTTP/1.1\""
          " 200 5 \"-\" \"x \\\"bingbot\\\"\"", f);    /* no final newline */
    fclose(f);

    run(&r, CLI " logs --robots " ROBOTS " --format json %s 2>&1 >/dev/null",
        path);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "4 malformed lines"));
    free(r.out);
    run(&r, CLI " logs --robots " ROBOTS " --format json %s 2>/dev/null",
        path);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\"lines\":7,\"malformed_lines\":4}"));
    assert_non_null(strstr(r.out, "\"crawler\":\"bingbot\""));
    free(r.out);
    unlink(path);
}

static void
test_formats(void **state)
{
    const char  *log;
    run_t        r;
    char        *line, *save = NULL;
    int          samples = 0;

    (void) state;
    need_cli();
    log = elastic();
    run(&r, CLI " logs --robots " ROBOTS " --format html %s 2>/dev/null",
        log);
    assert_int_equal(r.status, 0);
    assert_true(strncmp(r.out, "<!DOCTYPE html>", 15) == 0);
    assert_non_null(strstr(r.out, "http-equiv=\"refresh\""));
    assert_null(strstr(r.out, "<script"));
    assert_non_null(strstr(r.out, "</html>\n"));
    free(r.out);

    run(&r, CLI " logs --robots " ROBOTS " --format prometheus %s "
        "2>/dev/null", log);
    assert_int_equal(r.status, 0);
    for (line = strtok_r(r.out, "\n", &save); line != NULL;
         line = strtok_r(NULL, "\n", &save))
    {
        if (line[0] == '#') {
            assert_true(strncmp(line, "# HELP robots_audit_", 20) == 0
                        || strncmp(line, "# TYPE robots_audit_", 20) == 0);
            continue;
        }
        assert_true(strncmp(line, "robots_audit_", 13) == 0);
        assert_non_null(strrchr(line, ' '));
        assert_true(ra_isdigit(strrchr(line, ' ')[1]));
        samples++;
    }
    assert_true(samples > 100);
    free(r.out);
}

static void
test_whatif(void **state)
{
    const char  *log;
    char         path[] = "/tmp/ra-whatif-XXXXXX";
    static const char  prop[] = "User-agent: *\nDisallow: /files/\n"
                                "Disallow: /scripts/\nDisallow: /wp-admin/\n"
                                "Disallow: /blog/\n";
    scan_t       sc;
    sums_t       s;
    run_t        r;
    int          fd;

    (void) state;
    need_cli();
    log = elastic();
    scan_googlebot(log, &sc);
    fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, prop, sizeof(prop) - 1),
                     (ssize_t) sizeof(prop) - 1);
    close(fd);

    run(&r, CLI " whatif --current " ROBOTS " --proposed %s --format json "
        "%s 2>/dev/null", path, log);
    assert_int_equal(r.status, 1);
    /* top{} crawlers[] crawler{}: members at depth 3 */
    sums(&r, "Googlebot", 3, &s);
    assert_int_equal(s.a2d, sc.blog);
    assert_int_equal(s.requests, sc.requests);
    free(r.out);

    run(&r, CLI " whatif --current " ROBOTS " --proposed " ROBOTS
        " %s 2>/dev/null", log);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "allowed->disallowed"));
    free(r.out);
    unlink(path);
}

/* Issue 13: a disallowed path spelled another way is the same path, in
 * logs and in whatif as in the servers; "//x/robots.txt" is a path */
static void
test_spellings(void **state)
{
    static const char  *const targets[] = {
        "/robots.txt", "//files/x", "/a/../files/x", "/%2e/files/x",
        "/./robots.txt", "//x/robots.txt", "/%2Ffiles/x", "/blog/",
    };
    char         logp[] = "/tmp/ra-spell-log-XXXXXX";
    char         cur[] = "/tmp/ra-spell-cur-XXXXXX";
    char         prop[] = "/tmp/ra-spell-prop-XXXXXX";
    char         line[512];
    sums_t       s;
    run_t        r;
    size_t       i;
    int          fd;
    FILE        *f;

    (void) state;
    need_cli();
    fd = mkstemp(logp);
    assert_true(fd >= 0);
    f = fdopen(fd, "w");
    assert_non_null(f);
    for (i = 0; i < sizeof(targets) / sizeof(targets[0]); i++) {
        snprintf(line, sizeof(line), "66.249.66.1 - - "
                 "[17/May/2015:10:05:%02zu +0000] "
                 "\"GET %s HTTP/1.1\" 200 100 \"-\" \"Mozilla/5.0 "
                 "(compatible; Googlebot/2.1; "
                 "+http://www.google.com/bot.html)\"\n", i, targets[i]);
        fputs(line, f);
    }
    fclose(f);
    fd = mkstemp(cur);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "User-agent: *\nDisallow:\n", 24), 24);
    close(fd);
    fd = mkstemp(prop);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "User-agent: *\nDisallow: /files/\n", 33),
                     33);
    close(fd);

    run(&r, CLI " logs --robots %s --format json %s 2>/dev/null", prop, logp);
    assert_int_equal(r.status, 0);
    sums(&r, "Googlebot", 5, &s);
    assert_int_equal(s.requests, 8);
    assert_int_equal(s.fetches, 2);
    assert_int_equal(s.violation, 4);
    assert_int_equal(s.compliant, 2);
    free(r.out);

    run(&r, CLI " whatif --current %s --proposed %s --format json %s "
        "2>/dev/null", cur, prop, logp);
    assert_int_equal(r.status, 1);
    sums(&r, "Googlebot", 3, &s);
    assert_int_equal(s.a2d, 4);
    free(r.out);
    unlink(logp);
    unlink(cur);
    unlink(prop);
}

int
main(void)
{
    const struct CMUnitTest  tests[] = {
        cmocka_unit_test(test_usage),
        cmocka_unit_test(test_elastic_counts),
        cmocka_unit_test(test_gz_and_stdin),
        cmocka_unit_test(test_hackers),
        cmocka_unit_test(test_robots_from_first_line),
        cmocka_unit_test(test_garbage),
        cmocka_unit_test(test_formats),
        cmocka_unit_test(test_whatif),
        cmocka_unit_test(test_spellings),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
