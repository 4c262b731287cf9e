/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * 'robots-audit logs' and 'whatif' as a user runs them: exit codes, the
 * real logs of ../shared/data/logs checked against an independent scan,
 * .gz and stdin, garbage, every output format.  Runs build/robots-audit
 * from the repository root; skips when it or the shared data is absent.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <signal.h>

#include "ra_test.h"
#include "ra_accesslog.h"
#include "ra_json.h"
#include "ra_report.h"

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

/* A new temporary file (path: a mkstemp() template) holding text. */
static void
tmp_text(char *path, const char *text)
{
    size_t  n = strlen(text);
    int     fd = mkstemp(path);

    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, n), (ssize_t) n);
    close(fd);
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
    long         requests, fetches, violation, compliant, stale,
                 impostors;
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
    } else if (strcmp(s->key, "stale") == 0) {
        s->stale += v;
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
    run(&r, CLI " logs --robots " ROBOTS " --interval 5 /dev/null 2>&1");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.out, "--interval is for --follow"));
    free(r.out);
    run(&r, CLI " logs --robots " ROBOTS " --follow /dev/null /dev/null "
        "2>&1");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.out, "follows one LOG"));
    free(r.out);
    run(&r, CLI " logs --robots " ROBOTS " --log-format '%%h %%{%%s}t \"%%r\" "
        "%%s' /dev/null 2>&1");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.out, "only %t"));
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

/* --state: a second run continues the first one's counts; a file that
 * does not fit the ledger stops the run and is left as it was */
static void
test_state_across_runs(void **state)
{
    static const char  lines[] =
        "1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] \"GET /files/x HTTP/1.1\""
        " 200 5 \"-\" \"Mozilla/5.0 (compatible; bingbot/2.0)\"\n"
        "1.2.3.4 - - [10/Oct/2000:13:55:40 -0700] \"GET /ok HTTP/1.1\""
        " 200 5 \"-\" \"Mozilla/5.0 (compatible; bingbot/2.0)\"\n";
    char                path[64], saved[80], cmp[200];
    run_t               r;

    (void) state;
    need_cli();
    ra_test_tmp_file(path, lines, sizeof(lines) - 1);
    snprintf(saved, sizeof(saved), "%s.state", path);
    unlink(saved);
    run(&r, CLI " logs --robots " ROBOTS " --format json --ledger 2 "
        "--state %s %s 2>/dev/null", saved, path);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\"compliant\":1,\"violation\":1,"));
    free(r.out);
    assert_int_equal(access(saved, F_OK), 0);
    run(&r, CLI " logs --robots " ROBOTS " --format json --ledger 2 "
        "--state %s %s 2>&1", saved, path);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\"compliant\":2,\"violation\":2,"));
    assert_non_null(strstr(r.out, "[RA340] --state: restored the ledger"));
    free(r.out);
    /* another size: refused, the file as it was */
    snprintf(cmp, sizeof(cmp), "cp %s %s.copy", saved, saved);
    assert_int_equal(system(cmp), 0);
    run(&r, CLI " logs --robots " ROBOTS " --format json --ledger 3 "
        "--state %s %s 2>&1", saved, path);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.out, "[RA341] --state: the state file"));
    assert_non_null(strstr(r.out, "is left as it is"));
    free(r.out);
    snprintf(cmp, sizeof(cmp), "cmp -s %s %s.copy", saved, saved);
    assert_int_equal(system(cmp), 0);
    snprintf(cmp, sizeof(cmp), "%s.copy", saved);
    unlink(cmp);
    unlink(saved);
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
    /* enough good lines that 4 bad ones are under 1% of them */
    for (i = 0; i < 500; i++) {
        fputs("1.2.3.5 - - [10/Oct/2000:13:55:36 -0700] \"GET / HTTP/1.1\""
              " 200 5 \"-\" \"Mozilla/5.0\"\n", f);
    }
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
    assert_non_null(strstr(r.out, "\"lines\":507,\"malformed_lines\":4}"));
    assert_non_null(strstr(r.out, "\"crawler\":\"bingbot\""));
    free(r.out);
    unlink(path);
}

/* crawl-to-refer and --purpose: browser visits referred by an operator's
 * search engine or assistant, beside its crawlers' requests; only the
 * crawlers of one purpose */
static void
test_referrals_and_purpose(void **state)
{
    static const char  ff[] = "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) "
                              "Gecko/20100101 Firefox/120.0";
    char    path[] = "/tmp/ra-logs-XXXXXX";
    FILE   *f;
    int     fd;
    run_t   r;

    (void) state;
    need_cli();
    fd = mkstemp(path);
    assert_true(fd >= 0);
    f = fdopen(fd, "w");
    assert_non_null(f);
#define LINE(t, uri, ref, ua)                                              \
    fprintf(f, "1.2.3.4 - - [10/Oct/2000:13:55:%02d -0700] \"GET %s "      \
            "HTTP/1.1\" 200 5 \"%s\" \"%s\"\n", t, uri, ref, ua)
    LINE(1, "/a", "https://www.google.de/search?q=x", ff);
    LINE(2, "/b", "https://www.google.com/", ff);
    LINE(3, "/c", "https://www.bing.com/", ff);
    LINE(4, "/d", "https://chatgpt.com/", ff);
    LINE(5, "/e", "https://google.evil.example/", ff);
    LINE(6, "/f", "-", ff);
    LINE(7, "/g", "https://www.google.com/", "Mozilla/5.0 (compatible; "
         "Googlebot/2.1; +http://www.google.com/bot.html)");
    LINE(8, "/robots.txt", "-", "Mozilla/5.0 (compatible; Googlebot/2.1; "
         "+http://www.google.com/bot.html)");
    LINE(9, "/h", "-", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; "
         "compatible; GPTBot/1.1; +https://openai.com/gptbot)");
    LINE(10, "/i", "-", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko);"
         " compatible; ChatGPT-User/1.0; +https://openai.com/bot");
    /* a violation of each: --purpose keeps its crawlers' only */
    LINE(11, "/files/by-googlebot", "-", "Mozilla/5.0 (compatible; "
         "Googlebot/2.1; +http://www.google.com/bot.html)");
    LINE(12, "/files/by-gptbot", "-", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, "
         "like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)");
#undef LINE
    fclose(f);

    run(&r, CLI " logs --robots " ROBOTS " --format json %s 2>/dev/null",
        path);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\"referrals\":[{\"operator\":\"Google\","
                                  "\"referrals\":2,\"crawler_requests\":3},"
                                  "{\"operator\":\"Microsoft\",\"referrals\""
                                  ":1,\"crawler_requests\":0},{\"operator\":"
                                  "\"OpenAI\",\"referrals\":1,"
                                  "\"crawler_requests\":3}]"));
    assert_non_null(strstr(r.out, "/files/by-googlebot"));
    assert_non_null(strstr(r.out, "\"crawler\":\"GPTBot\",\"token\":"
                                  "\"GPTBot\",\"kind\":\"known\","
                                  "\"category\":\"ai-training\","
                                  "\"purpose\":\"ai-training\""));
    free(r.out);

    run(&r, CLI " logs --robots " ROBOTS " --format json --purpose "
        "ai-training %s 2>/dev/null", path);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\"crawler\":\"GPTBot\""));
    assert_null(strstr(r.out, "\"crawler\":\"Googlebot\""));
    assert_null(strstr(r.out, "\"crawler\":\"ChatGPT-User\""));
    assert_non_null(strstr(r.out, "\"crawlers_shown\":1,"
                                  "\"crawlers_total\":1"));
    assert_non_null(strstr(r.out, "\"uri\":\"/files/by-gptbot\""));
    assert_null(strstr(r.out, "/files/by-googlebot"));
    free(r.out);
    /* the violations' CSV and text too */
    run(&r, CLI " logs --robots " ROBOTS " --format csv --purpose "
        "ai-training %s 2>/dev/null", path);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, ",GPTBot,"));
    assert_null(strstr(r.out, "Googlebot"));
    free(r.out);
    run(&r, CLI " logs --robots " ROBOTS " --purpose search %s 2>/dev/null",
        path);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "/files/by-googlebot"));
    assert_null(strstr(r.out, "/files/by-gptbot"));
    free(r.out);
    run(&r, CLI " logs --robots " ROBOTS " --purpose ai-user %s 2>/dev/null",
        path);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "ChatGPT-User"));
    assert_null(strstr(r.out, "GPTBot"));
    free(r.out);
    run(&r, CLI " logs --robots " ROBOTS " --format prometheus %s "
        "2>/dev/null", path);
    assert_non_null(strstr(r.out, "robots_audit_referrals_total{site="
                                  "\"default\",operator=\"Google\"} 2\n"));
    assert_non_null(strstr(r.out, "robots_audit_purpose_requests_total{site="
                                  "\"default\",purpose=\"ai-training\"} 2\n"));
    free(r.out);
    run(&r, CLI " logs --robots " ROBOTS " --purpose scraping %s 2>&1",
        path);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.out, "--purpose: 'scraping' is not a purpose"));
    free(r.out);
    unlink(path);
}

/* The text and CSV reports: the llms.txt fetches (the JSON's
 * llms_fetches) and the purpose of each crawler row, "-" for a generic
 * bot; the purpose each violation was recorded with, the CSV's last
 * column, empty for a generic bot's; --purpose keeps one purpose's */
static void
test_text_csv_llms_purpose(void **state)
{
#define GPTBOT "\"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; " \
               "compatible; GPTBot/1.1; +https://openai.com/gptbot)\"\n"
    static const char  lines[] =
        "1.2.3.4 - - [23/Nov/2026:10:00:00 +0000] \"GET /llms.txt HTTP/1.1\" "
        "200 10 \"-\" " GPTBOT
        "1.2.3.4 - - [23/Nov/2026:10:00:01 +0000] \"GET /private/x "
        "HTTP/1.1\" 200 10 \"-\" " GPTBOT
        "1.2.3.5 - - [23/Nov/2026:10:00:02 +0000] \"GET /private/y "
        "HTTP/1.1\" 200 10 \"-\" \"ExampleSurveyBot/1.0 "
        "(+https://example.com/bot)\"\n";
#undef GPTBOT
    char   logp[] = "/tmp/ra-llms-log-XXXXXX";
    char   rob[] = "/tmp/ra-llms-rob-XXXXXX";
    run_t  r;

    (void) state;
    need_cli();
    tmp_text(logp, lines);
    tmp_text(rob, "User-agent: *\nDisallow: /private/\n");

    run(&r, CLI " logs --robots %s %s 2>/dev/null", rob, logp);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\n  crawler                          "
                                  "verification purpose           "
                                  "requests robots  llms compliant "
                                  "violation  stale unreach "));
    /* requests 2, robots 0, llms 1, compliant 1, violation 1 */
    assert_non_null(strstr(r.out, "\n  GPTBot                           "
                                  "unverifiable ai-training              "
                                  "2      0     1         1         1 "));
    assert_non_null(strstr(r.out, "\n  ExampleSurveyBot (generic)       "
                                  "unverifiable -                        "
                                  "1      0     0         0         1 "));
    free(r.out);

    run(&r, CLI " logs --robots %s --format csv %s 2>/dev/null", rob, logp);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, ",last_robots_fetch,purpose\r\n"));
    assert_non_null(strstr(r.out, ",GPTBot,unverifiable,,1.2.3.4,GET,"
                                  "/private/x,/private/,2,efc4db5408347a17"
                                  "597d7618522f084512d5d8d9ff46135129e293e4"
                                  "dee3355a,,ai-training\r\n"));
    assert_non_null(strstr(r.out, ",ExampleSurveyBot,unverifiable,,1.2.3.5,"
                                  "GET,/private/y,/private/,2,efc4db5408347a"
                                  "17597d7618522f084512d5d8d9ff46135129e293"
                                  "e4dee3355a,,\r\n"));
    free(r.out);

    /* one purpose: its crawler's row and violation, the site's totals
     * recounted */
    run(&r, CLI " logs --robots %s --purpose ai-training %s 2>/dev/null",
        rob, logp);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\n  GPTBot "));
    assert_null(strstr(r.out, "ExampleSurveyBot"));
    assert_null(strstr(r.out, "showing "));
    free(r.out);
    run(&r, CLI " logs --robots %s --purpose ai-training --format json %s "
        "2>/dev/null", rob, logp);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\"crawlers_shown\":1,"
                                  "\"crawlers_total\":1,"));
    assert_non_null(strstr(r.out, "\"recent_violations_shown\":1,"
                                  "\"recent_violations_total\":1"));
    free(r.out);
    run(&r, CLI " logs --robots %s --purpose search --format json %s "
        "2>/dev/null", rob, logp);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\"crawlers\":[]"));
    assert_non_null(strstr(r.out, "\"crawlers_shown\":0,"
                                  "\"crawlers_total\":0,"));
    assert_non_null(strstr(r.out, "\"recent_violations\":[]"));
    free(r.out);
    unlink(logp);
    unlink(rob);
}

static void
test_formats(void **state)
{
    const char  *log;
    run_t        r;
    char        *line, *save = NULL;
    int          samples = 0, files = 0, scripts = 0, undeclared = 0;

    (void) state;
    need_cli();
    log = elastic();
    run(&r, CLI " logs --robots " ROBOTS " --format html %s 2>/dev/null",
        log);
    assert_int_equal(r.status, 0);
    assert_true(strncmp(r.out, "<!DOCTYPE html>", 15) == 0);
    /* a file, not a page: no refresh, no links to query arguments */
    assert_null(strstr(r.out, "http-equiv=\"refresh\""));
    assert_null(strstr(r.out, "?sort="));
    assert_null(strstr(r.out, "<script"));
    /* the robots.txt in force, its line 6 with its counts */
    assert_non_null(strstr(r.out, "<span class=\"ln\">6</span>Disallow: "
                              "/files/<span class=\"hit bad\">"));
    assert_non_null(strstr(r.out, "</html>\n"));
    free(r.out);

    /* the violations as CSV: the header, then rows of 13 cells, each
     * with the rule and line that decided and the robots.txt's SHA-256 */
    run(&r, CLI " logs --robots " ROBOTS " --format csv %s 2>/dev/null",
        log);
    assert_int_equal(r.status, 0);
    assert_true(strncmp(r.out, RA_REPORT_CSV_HEADER "\r\n",
                        strlen(RA_REPORT_CSV_HEADER) + 2) == 0);
    samples = 0;
    for (line = strtok_r(r.out, "\n", &save); line != NULL;
         line = strtok_r(NULL, "\n", &save))
    {
        const char  *p;
        int          commas = 0, quoted = 0;

        assert_true(line[strlen(line) - 1] == '\r');
        for (p = line; *p; p++) {
            quoted ^= *p == '"';
            commas += *p == ',' && !quoted;
        }
        assert_int_equal(commas, 12);
        samples++;
        files += strstr(line, ",/files/,6,802f725d627a7ce1a68e98c64d6ebc956f"
                              "760689f314e818e668461daaa8d12f,") != NULL;
        scripts += strstr(line, ",/scripts/,7,") != NULL;
        undeclared += strstr(line, ",undeclared,unverifiable,,") != NULL;
    }
    /* the header, and every violation of the log (the ring holds them
     * all): as many as the rule hits count for lines 6 and 7 (4 of the
     * 264 on /files/ are "Mozilla/4.0 (compatible;)", a program's), and
     * the one violation of an undeclared crawler (a browser's
     * User-Agent that had read robots.txt) */
    assert_int_equal(samples, 1 + 264 + 65 + 1);
    assert_int_equal(undeclared, 1);
    assert_int_equal(files, 264);
    assert_int_equal(scripts, 65);
    free(r.out);
    samples = 0;
    save = NULL;

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
    assert_true(samples > 60);
    free(r.out);
    /* without ranges no crawler of the log is verified: their series
     * are the site's sums of names anyone can send */
    run(&r, CLI " logs --robots " ROBOTS " --format prometheus %s "
        "2>/dev/null", log);
    assert_non_null(strstr(r.out, ",crawler=\"unverified\",verification=\""
                                  "unverifiable\",method=\"none\","
                                  "verdict=\"violation\"} 240\n"));
    assert_null(strstr(r.out, "crawler=\"Googlebot\""));
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

    (void) state;
    need_cli();
    log = elastic();
    scan_googlebot(log, &sc);
    tmp_text(path, prop);

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

/* Logs and whatif name a generic bot the same way;
 * /server-status is nobody's traffic; recent violations are newest first
 * by time, whatever the log's order; item 6: politeness in logs */
static void
test_generic_names_order_politeness(void **state)
{
    static const char  lines[] =
        "1.2.3.4 - - [23/Nov/2026:10:00:00 +0000] \"GET /private/a HTTP/1.1\" "
        "200 10 \"-\" \"FetchTool/2.31\"\n"
        "1.2.3.4 - - [23/Nov/2026:10:00:05 +0000] \"GET /private/b HTTP/1.1\" "
        "200 10 \"-\" \"FetchTool/2.31\"\n"
        "1.2.3.5 - - [23/Nov/2026:09:00:05 +0000] \"GET /private/old HTTP/1.1\" "
        "200 10 \"-\" \"Mozilla/5.0 (compatible; FooBot/1.0; +http://foo)\"\n"
        "1.2.3.4 - - [23/Nov/2026:10:00:06 +0000] \"GET /server-status?auto "
        "HTTP/1.1\" 200 10 \"-\" \"FetchTool/2.31\"\n";
    char         logp[] = "/tmp/ra-gen-log-XXXXXX";
    char         cur[] = "/tmp/ra-gen-cur-XXXXXX";
    char         prop[] = "/tmp/ra-gen-prop-XXXXXX";
    const char  *a, *b;
    run_t        r;

    (void) state;
    need_cli();
    tmp_text(logp, lines);
    tmp_text(cur, "User-agent: *\nDisallow: /private/\n"
                 "Crawl-delay: 10\n");
    tmp_text(prop, "User-agent: *\nDisallow: /\n");

    run(&r, CLI " logs --robots %s %s 2>/dev/null", cur, logp);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "site default: 3 crawler requests"));
    assert_non_null(strstr(r.out, "\n  FetchTool (generic) "));
    assert_non_null(strstr(r.out, "\n  FooBot (generic) "));
    assert_non_null(strstr(r.out, "peak/min gap        crawl-delay\n"));
    assert_non_null(strstr(r.out, "        2 6.0s      10.0s\n"));
    a = strstr(r.out, "GET /private/b");
    b = strstr(r.out, "GET /private/old");
    assert_non_null(a);
    assert_non_null(b);
    assert_true(a < b);                 /* 10:00:05 before 09:00:05 */
    assert_true(strstr(r.out, "GET /private/a") < b);
    assert_null(strstr(r.out, "server-status"));
    free(r.out);

    run(&r, CLI " logs --robots %s --format json %s 2>/dev/null", cur, logp);
    assert_non_null(strstr(r.out, "\"peak_per_minute\":2,"
                                  "\"median_gap_ms\":6000,"
                                  "\"crawl_delay_ms\":10000"));
    free(r.out);

    run(&r, CLI " whatif --current %s --proposed %s %s 2>/dev/null", cur,
        prop, logp);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "3 crawler requests judged"));
    assert_non_null(strstr(r.out, "\nFetchTool (generic) "));
    assert_non_null(strstr(r.out, "\nFooBot (generic) "));
    assert_null(strstr(r.out, "server-status"));
    free(r.out);
    run(&r, CLI " whatif --current %s --proposed %s --format json %s "
        "2>/dev/null", cur, prop, logp);
    assert_non_null(strstr(r.out, "{\"crawler\":\"FetchTool\","
                                  "\"kind\":\"generic\",\"requests\":2"));
    free(r.out);
    unlink(logp);
    unlink(cur);
    unlink(prop);
}

/* A generic bot's name in any case is one bot for whatif as for logs (the
 * ledger's key): "Gemtool/2.7" and "gemtool/2.7" are one row of 2
 * requests, shown with the spelling that came first */
static void
test_generic_name_any_case_whatif(void **state)
{
    static const char  lines[] =
        "1.2.3.4 - - [23/Nov/2026:10:00:00 +0000] \"GET /private/a HTTP/1.1\" "
        "200 10 \"-\" \"Gemtool/2.7\"\n"
        "1.2.3.4 - - [23/Nov/2026:10:00:05 +0000] \"GET /private/b HTTP/1.1\" "
        "200 10 \"-\" \"gemtool/2.7\"\n";
    char         logp[] = "/tmp/ra-case-log-XXXXXX";
    char         cur[] = "/tmp/ra-case-cur-XXXXXX";
    char         prop[] = "/tmp/ra-case-prop-XXXXXX";
    run_t        r;

    (void) state;
    need_cli();
    tmp_text(logp, lines);
    tmp_text(cur, "User-agent: *\nDisallow: /private/\n");
    tmp_text(prop, "User-agent: *\nDisallow: /\n");

    run(&r, CLI " logs --robots %s %s 2>/dev/null", cur, logp);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\n  Gemtool (generic) "));
    assert_null(strstr(r.out, "\n  gemtool (generic) "));
    free(r.out);
    run(&r, CLI " whatif --current %s --proposed %s --format json %s "
        "2>/dev/null", cur, prop, logp);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "{\"crawler\":\"Gemtool\","
                                  "\"kind\":\"generic\",\"requests\":2"));
    assert_null(strstr(r.out, "\"crawler\":\"gemtool\""));
    free(r.out);
    unlink(logp);
    unlink(cur);
    unlink(prop);
}

/* A log in which robots.txt answers 503 for 31 days
 * while the site's pages answer 200: from day 30 on, Googlebot's requests
 * are judged as if there were no robots.txt (compliant, unreachable_30d),
 * and the report says the site is in that phase */
static void
test_unreachable_30d(void **state)
{
    char         logp[] = "/tmp/ra-30d-log-XXXXXX";
    char         rob[] = "/tmp/ra-30d-robots-XXXXXX";
    char         dir[] = "/tmp/ra-30d-ranges-XXXXXX", ranges[64];
    const char  *gb = "\"Mozilla/5.0 (compatible; Googlebot/2.1; "
                      "+http://www.google.com/bot.html)\"";
    int          fd, day;
    FILE        *f;
    run_t        r;
    sums_t       s;

    (void) state;
    need_cli();
    fd = mkstemp(logp);
    assert_true(fd >= 0);
    f = fdopen(fd, "w");
    assert_non_null(f);
    /* day 0: the file; days 1 to 32: 503 at 00:00, a page at 12:00 */
    fprintf(f, "66.249.66.1 - - [01/Oct/2026:00:00:00 +0000] \"GET "
            "/robots.txt HTTP/1.1\" 200 30 \"-\" %s\n", gb);
    for (day = 1; day <= 32; day++) {
        int          dom = day <= 30 ? day + 1 : day - 30;
        const char  *mon = day <= 30 ? "Oct" : "Nov";

        fprintf(f, "66.249.66.1 - - [%02d/%s/2026:00:00:00 +0000] \"GET "
                "/robots.txt HTTP/1.1\" 503 30 \"-\" %s\n", dom, mon, gb);
        fprintf(f, "66.249.66.1 - - [%02d/%s/2026:12:00:00 +0000] \"GET "
                "/private/%d HTTP/1.1\" 200 30 \"-\" %s\n", dom, mon, day,
                gb);
    }
    fclose(f);
    tmp_text(rob, "User-agent: *\nDisallow: /private/\n");
    /* Googlebot verified: its 503s are the site's (one unverified
     * client's would be its own) */
    assert_non_null(mkdtemp(dir));
    snprintf(ranges, sizeof(ranges), "%s/googlebot.json", dir);
    f = fopen(ranges, "w");
    assert_non_null(f);
    fputs("{\"prefixes\":[{\"ipv4Prefix\":\"66.249.64.0/19\"}]}\n", f);
    fclose(f);

    run(&r, CLI " logs --robots %s --ranges %s --format json %s 2>/dev/null",
        rob, ranges, logp);
    assert_int_equal(r.status, 0);
    sums(&r, "Googlebot", 5, &s);
    /* days 1-30 (Oct 2 to 31), 12 hours after its own 503 (no longer
     * "unreachable"): the last good file decides, a violation; days 31
     * and 32 (Nov 1 and 2, 12:00: 30 days after the first 503, on Oct 2
     * 00:00, and more): the phase */
    assert_int_equal(s.violation, 30);
    assert_int_equal(s.compliant, 2);
    assert_non_null(strstr(r.out, "\"unreachable_30d\":2,"));
    assert_non_null(strstr(r.out, "\"unreachable_30d\":true"));
    free(r.out);
    run(&r, CLI " logs --robots %s --ranges %s %s 2>/dev/null", rob,
        ranges, logp);
    assert_non_null(strstr(r.out, "  unreachable_30d: robots.txt has failed "
                                  "since 2026-10-02T00:00:00Z while the site "
                                  "answers"));
    free(r.out);
    /* unverified, the same 503s were Googlebot's alone: no phase */
    run(&r, CLI " logs --robots %s --format json %s 2>/dev/null", rob, logp);
    assert_int_equal(r.status, 0);
    sums(&r, "Googlebot", 5, &s);
    assert_int_equal(s.violation, 32);
    assert_null(strstr(r.out, "\"unreachable_30d\":true"));
    free(r.out);
    unlink(ranges);
    rmdir(dir);
    unlink(logp);
    unlink(rob);
}

/* A 403 that one client provoked is that client's (a User-Agent
 * blocklist in front of robots.txt): in logs as in the servers, the
 * site's file stays in force for everyone else */
static void
test_robots_answer_binds_its_client(void **state)
{
    static const char  lines[] =
        "9.9.9.9 - - [10/Oct/2026:13:55:36 +0000] \"GET /robots.txt "
        "HTTP/1.1\" 403 5 \"-\" \"Mozilla/5.0 (compatible; Nikto/2.5.0)\"\n"
        "9.9.9.9 - - [10/Oct/2026:13:55:37 +0000] \"GET /private/a "
        "HTTP/1.1\" 200 5 \"-\" \"Mozilla/5.0 (compatible; Nikto/2.5.0)\"\n"
        "1.2.3.4 - - [10/Oct/2026:13:55:40 +0000] \"GET /private/b "
        "HTTP/1.1\" 200 5 \"-\" \"Mozilla/5.0 (compatible; bingbot/2.0)\"\n"
        "5.6.7.8 - - [10/Oct/2026:13:55:41 +0000] \"GET /robots.txt?x=1 "
        "HTTP/1.1\" 404 5 \"-\" \"OtherScan/3.1\"\n"
        "5.6.7.8 - - [10/Oct/2026:13:55:42 +0000] \"HEAD /robots.txt "
        "HTTP/1.1\" 404 5 \"-\" \"OtherScan/3.1\"\n"
        "5.6.7.8 - - [10/Oct/2026:13:55:43 +0000] \"GET /private/c "
        "HTTP/1.1\" 200 5 \"-\" \"OtherScan/3.1\"\n";
    char                path[64], rob[] = "/tmp/ra-bind-robots-XXXXXX";
    run_t               r;
    sums_t              s;

    (void) state;
    need_cli();
    ra_test_tmp_file(path, lines, sizeof(lines) - 1);
    tmp_text(rob, "User-agent: *\nDisallow: /private/\n");
    run(&r, CLI " logs --robots %s --format json %s 2>/dev/null", rob, path);
    assert_int_equal(r.status, 0);
    sums(&r, "Nikto", 5, &s);
    assert_int_equal(s.stale, 1);
    assert_int_equal(s.violation, 0);
    sums(&r, "bingbot", 5, &s);
    assert_int_equal(s.violation, 1);
    /* a query and a HEAD are no fetch of the file */
    sums(&r, "OtherScan", 5, &s);
    assert_int_equal(s.violation, 1);
    assert_int_equal(s.fetches, 0);
    free(r.out);
    unlink(path);
    unlink(rob);
}

/* A disallowed path spelled another way is the same path, in
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
    tmp_text(cur, "User-agent: *\nDisallow:\n");
    tmp_text(prop, "User-agent: *\nDisallow: /files/\n");

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


/* ---- the logs operators really have ------------------------------ */

enum { V_VHOST, V_BALANCER, V_CUSTOM, V_JSON, V_COMMON, V_AS_IS };

/* the target of a line, by sscanf as the scan reads it */
static int
is_robots_line(const char *line)
{
    char  target[4096];

    return sscanf(line, "%*s %*s %*s [%*[^]]] \"%*s %4095s", target) == 1
           && strcmp(target, "/robots.txt") == 0;
}

static void
json_str(FILE *f, ra_str_t raw)
{
    unsigned char  buf[16384];
    size_t         i, n = ra_accesslog_unescape(raw, buf);

    fputc('"', f);
    for (i = 0; i < n; i++) {
        if (buf[i] == '"' || buf[i] == '\\') {
            fprintf(f, "\\%c", buf[i]);
        } else if (buf[i] < 0x20) {
            fprintf(f, "\\u%04x", buf[i]);
        } else {
            fputc(buf[i], f);
        }
    }
    fputc('"', f);
}

/* The elastic log rewritten in another shape; the kept lines' i-th goes
 * to site a.example when i is even, b.example when odd (vhost only) */
static void
variant(const char *in, const char *out, int kind, int drop_robots)
{
    FILE         *f = fopen(in, "r"), *o = fopen(out, "w");
    char          line[16384], iso[21];
    size_t        n;
    long          i = 0;
    ra_logrec_t   r;

    assert_non_null(f);
    assert_non_null(o);
    while (fgets(line, sizeof(line), f) != NULL) {
        n = strlen(line);
        while (n && (line[n - 1] == '\n' || line[n - 1] == '\r')) {
            line[--n] = '\0';
        }
        if (drop_robots && is_robots_line(line)) {
            continue;
        }
        if (ra_accesslog_parse(ra_str(line, n), &r) != RA_OK) {
            fprintf(o, "%s\n", line);       /* malformed in any shape */
            i++;
            continue;
        }
        switch (kind) {
        case V_AS_IS:
            fprintf(o, "%s\n", line);
            break;
        case V_VHOST:
            fprintf(o, "%s.example:80 %s\n", i % 2 ? "b" : "a", line);
            break;
        case V_BALANCER:
            fprintf(o, "10.0.0.1 %s \"%.*s\"\n", line + r.addr.len + 1,
                    (int) r.addr.len, r.addr.data);
            break;
        case V_CUSTOM:
            fprintf(o, "%.*s 0.012 %s\n",
                    (int) (r.referer.data - 2 - (const unsigned char *) line),
                    line, (const char *) r.referer.data - 1);
            break;
        case V_COMMON:
            fprintf(o, "%.*s\n",
                    (int) (r.referer.data - 2 - (const unsigned char *) line),
                    line);
            break;
        case V_JSON:
            ra_time_iso(r.time, iso);
            fprintf(o, "{\"time_iso8601\":\"%s\",\"remote_addr\":\"%.*s\","
                    "\"request\":", iso, (int) r.addr.len, r.addr.data);
            json_str(o, r.request);
            fprintf(o, ",\"status\":%d,\"body_bytes_sent\":%lld,"
                    "\"http_referer\":", r.status,
                    (long long) (r.bytes < 0 ? 0 : r.bytes));
            json_str(o, r.referer);
            fputs(",\"http_user_agent\":", o);
            json_str(o, r.user_agent);
            fputs(",\"request_time\":0.012}\n", o);
            break;
        }
        i++;
    }
    fclose(f);
    fclose(o);
}

/* scan_googlebot over the kept lines of one part (-1: all) */
static void
scan_part(const char *path, int part, int drop_robots, scan_t *s)
{
    FILE    *f = fopen(path, "r"), *o;
    char     tmp[] = "/tmp/ra-part-XXXXXX", line[16384];
    long     i = 0;
    int      fd;

    assert_non_null(f);
    fd = mkstemp(tmp);
    assert_true(fd >= 0);
    o = fdopen(fd, "w");
    assert_non_null(o);
    while (fgets(line, sizeof(line), f) != NULL) {
        if (drop_robots && is_robots_line(line)) {
            continue;
        }
        if (part < 0 || i % 2 == part) {
            fputs(line, o);
        }
        i++;
    }
    fclose(f);
    fclose(o);
    scan_googlebot(tmp, s);
    unlink(tmp);
}

static void
tmp_name(char *path, const char *tag)
{
    int  fd;

    sprintf(path, "/tmp/ra-%s-XXXXXX", tag);
    fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
}

/* Debian's other_vhosts_access.log: the elastic log split into two sites
 * with their own robots.txt, without its robots.txt lines (the files are
 * in force from the first line); the balancer and verified Googlebots
 * stay what they are */
static void
test_vhosts(void **state)
{
    const char  *log;
    char         v[64], all[64], out[] = "/tmp/ra-vh-out-XXXXXX";
    scan_t       a, b;
    sums_t       s;
    run_t        r;
    int          fd;
    struct stat  sb;

    (void) state;
    need_cli();
    log = elastic();
    tmp_name(v, "vhost");
    tmp_name(all, "allow");
    variant(log, v, V_VHOST, 1);
    scan_part(log, 0, 1, &a);
    scan_part(log, 1, 1, &b);
    assert_int_equal(a.fetches + b.fetches, 0);
    fd = open(all, O_WRONLY | O_TRUNC);
    assert_int_equal(write(fd, "User-agent: *\nDisallow: /\n", 26), 26);
    close(fd);

    /* a's file from the elastic site, b's disallows everything */
    run(&r, CLI " logs --robots a.example=" ROBOTS " --robots b.example=%s "
        "--ranges %s/ip-ranges/googlebot.json --format json %s 2>/dev/null",
        all, ra_test_shared(), v);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\"site\":\"a.example\""));
    assert_non_null(strstr(r.out, "\"site\":\"b.example\""));
    assert_null(strstr(r.out, "\"site\":\"default\""));
    sums(&r, "Googlebot", 5, &s);
    assert_int_equal(s.requests, a.requests + b.requests);
    assert_int_equal(s.violation, a.disallowed + b.requests);
    assert_int_equal(s.impostors, a.outside + b.outside);
    assert_true(a.disallowed > 10 && b.disallowed > 10);
    free(r.out);

    /* one plain file serves both sites */
    run(&r, CLI " logs --robots " ROBOTS " --format json %s 2>/dev/null", v);
    assert_int_equal(r.status, 0);
    sums(&r, "Googlebot", 5, &s);
    assert_int_equal(s.violation, a.disallowed + b.disallowed);
    free(r.out);

    /* a site with no file: judged with no robots.txt known */
    run(&r, CLI " logs --robots a.example=" ROBOTS " --format json %s 2>&1 "
        ">/dev/null", v);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "sites with no --robots file (the first: "
                               "b.example)"));
    free(r.out);

    /* --output writes the same report, keeps the file's mode, and leaves
     * no temporary file beside it */
    fd = mkstemp(out);
    assert_true(fd >= 0);
    assert_int_equal(fchmod(fd, 0640), 0);
    close(fd);
    run(&r, CLI " logs --robots " ROBOTS " --output %s %s 2>/dev/null", out,
        v);
    assert_int_equal(r.status, 0);
    assert_int_equal(r.len, 0);
    free(r.out);
    run(&r, "cat %s", out);
    assert_non_null(strstr(r.out, "a.example"));
    free(r.out);
    assert_int_equal(stat(out, &sb), 0);
    assert_int_equal(sb.st_mode & 07777, 0640);
    run(&r, "ls %s.* 2>/dev/null | wc -l", out);
    assert_int_equal(atoi(r.out), 0);
    free(r.out);
    unlink(out);
    unlink(v);
    unlink(all);
}

/* Review finding 4: a verified-looking Googlebot violation on
 * victim.example, then 5,000 browser lines each with a Host of its own
 * (the default ledger): browsers create no site, so the victim, its
 * record and its violation stay; the browsers are still counted */
static void
test_browser_hosts(void **state)
{
    char   log[64], robots[64];
    FILE  *o;
    run_t  r;
    int    i;

    (void) state;
    need_cli();
    tmp_name(log, "hosts");
    tmp_name(robots, "hrobots");
    o = fopen(robots, "w");
    assert_non_null(o);
    fputs("User-agent: *\nDisallow: /private\n", o);
    fclose(o);
    o = fopen(log, "w");
    assert_non_null(o);
    fputs("victim.example:80 66.249.66.1 - - [10/Oct/2023:13:55:36 +0000] "
          "\"GET /private/x HTTP/1.1\" 200 12 \"-\" \"Mozilla/5.0 "
          "(compatible; Googlebot/2.1; +http://www.google.com/bot.html)\"\n",
          o);
    for (i = 0; i < 5000; i++) {
        /* a tenth of them ask for robots.txt: that makes no site either */
        fprintf(o, "h%d.example:80 198.51.100.7 - - [10/Oct/2023:13:56:%02d "
                "+0000] \"GET /%s HTTP/1.1\" 200 10 \"-\" \"Mozilla/5.0 (X11; "
                "Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0\"\n",
                i, i % 60, i % 10 ? "" : "robots.txt");
    }
    fclose(o);
    /* the file for the victim only, then for every site */
    for (i = 0; i < 2; i++) {
        run(&r, CLI " logs --robots %s%s --format json %s 2>/dev/null",
            i ? "" : "victim.example=", robots, log);
        assert_int_equal(r.status, 0);
        assert_non_null(strstr(r.out, "\"site\":\"victim.example\""));
        assert_null(strstr(r.out, "\"site\":\"h1.example\""));
        assert_non_null(strstr(r.out, "\"recent_violations\":[{"));
        assert_non_null(strstr(r.out, "\"uri\":\"/private/x\""));
        assert_non_null(strstr(r.out, "\"crawler\":\"Googlebot\""));
        /* every line counted; nothing evicted */
        assert_non_null(strstr(r.out, "\"ledger\":{\"requests\":5001,"));
        assert_non_null(strstr(r.out, "\"evictions\":{\"sites\":0,"));
        assert_non_null(strstr(r.out, "\"sites_total\":1,"));
        free(r.out);
    }
    unlink(log);
    unlink(robots);
}

/* --robots A --site a a.log --robots B --site b b.log: no silent last
 * pair; --robots a=A --site a a.log --robots b=B --site b b.log works */
static void
test_robots_per_site(void **state)
{
    static const char  line[] =
        "1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] \"GET /files/x HTTP/1.1\""
        " 200 5 \"-\" \"Mozilla/5.0 (compatible; bingbot/2.0)\"\n";
    char    la[64], lb[64], all[64];
    run_t   r;
    char   *sa, *sb;

    (void) state;
    need_cli();
    ra_test_tmp_file(la, line, sizeof(line) - 1);
    ra_test_tmp_file(lb, line, sizeof(line) - 1);
    ra_test_tmp_file(all, "User-agent: *\nDisallow:\n", 24);

    run(&r, CLI " logs --robots " ROBOTS " --site a %s --robots %s --site b "
        "%s 2>&1", la, all, lb);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.out, "HOST=FILE"));
    free(r.out);
    run(&r, CLI " logs --robots a.example=" ROBOTS " --robots "
        "A.EXAMPLE=%s %s 2>&1", all, la);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.out, "a second file"));
    free(r.out);

    /* a --site names the LOGs after it; one after them all, all */
    run(&r, CLI " logs --robots " ROBOTS " --site a %s --site b 2>&1", la);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.out, "--site b names no LOG"));
    free(r.out);
    run(&r, CLI " logs --robots " ROBOTS " --format json %s %s --site c.org "
        "2>/dev/null", la, lb);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\"site\":\"c.org\""));
    assert_null(strstr(r.out, "\"site\":\"default\""));
    free(r.out);

    run(&r, CLI " logs --robots a=" ROBOTS " --site a %s --robots b=%s "
        "--site b %s --format json 2>/dev/null", la, all, lb);
    assert_int_equal(r.status, 0);
    sa = strstr(r.out, "\"site\":\"a\"");
    sb = strstr(r.out, "\"site\":\"b\"");
    assert_non_null(sa);
    assert_non_null(sb);
    /* a disallows /files/ (violation), b allows all (compliant) */
    if (sa < sb) {
        assert_non_null(strstr(sa, "\"violation\":1"));
        assert_true(strstr(sa, "\"violation\":1") < sb);
        assert_non_null(strstr(sb, "\"compliant\":1,\"violation\":0"));
    } else {
        assert_non_null(strstr(sb, "\"compliant\":1,\"violation\":0"));
        assert_non_null(strstr(sa, "\"violation\":1"));
    }
    free(r.out);
    unlink(la);
    unlink(lb);
    unlink(all);
}

/* every shape of the elastic log gives the combined log's counts */
static void
shape(int kind, const char *opts, int want_status)
{
    const char  *log;
    char         v[64];
    scan_t       sc;
    sums_t       s;
    run_t        r;

    log = elastic();
    tmp_name(v, "shape");
    variant(log, v, kind, 0);
    scan_googlebot(log, &sc);
    run(&r, CLI " logs --robots " ROBOTS " --ranges %s/ip-ranges/"
        "googlebot.json --format json %s %s 2>/dev/null", ra_test_shared(),
        opts, v);
    assert_int_equal(r.status, want_status);
    if (want_status == 0) {
        sums(&r, "Googlebot", 5, &s);
        assert_int_equal(s.lines, 10000);
        assert_int_equal(s.malformed, 1);
        assert_int_equal(s.requests, sc.requests);
        assert_int_equal(s.fetches, sc.fetches);
        assert_int_equal(s.violation, sc.disallowed);
        assert_int_equal(s.impostors, sc.outside);
    }
    free(r.out);
    unlink(v);
}

/* the elastic log without its robots.txt lines (a filtered or rotated
 * log): --robots is in force from the first line, every disallowed
 * Googlebot request is a violation */
static void
test_no_robots_lines(void **state)
{
    const char  *log;
    char         v[64];
    scan_t       sc;
    sums_t       s;
    run_t        r;

    (void) state;
    need_cli();
    log = elastic();
    tmp_name(v, "norobots");
    variant(log, v, V_AS_IS, 1);
    scan_part(log, -1, 1, &sc);
    assert_int_equal(sc.fetches, 0);
    assert_true(sc.disallowed > 0);
    run(&r, CLI " logs --robots " ROBOTS " --format json %s 2>/dev/null", v);
    assert_int_equal(r.status, 0);
    sums(&r, "Googlebot", 5, &s);
    assert_int_equal(s.requests, sc.requests);
    assert_int_equal(s.fetches, 0);
    assert_int_equal(s.violation, sc.disallowed);
    assert_int_equal(s.compliant, sc.requests - sc.disallowed);
    free(r.out);
    unlink(v);
}

static void
test_balancer(void **state)
{
    const char  *log;
    char         v[64];
    sums_t       s;
    scan_t       sc;
    run_t        r;

    (void) state;
    need_cli();
    shape(V_BALANCER, "--real-ip-from 10.0.0.0/8 --real-ip-from ::1", 0);
    /* without it every Googlebot comes from the balancer: an impostor */
    log = elastic();
    scan_googlebot(log, &sc);
    tmp_name(v, "lb");
    variant(log, v, V_BALANCER, 0);
    run(&r, CLI " logs --robots " ROBOTS " --ranges %s/ip-ranges/"
        "googlebot.json --format json %s 2>/dev/null", ra_test_shared(), v);
    assert_int_equal(r.status, 0);
    sums(&r, "Googlebot", 5, &s);
    assert_int_equal(s.impostors, sc.requests);
    free(r.out);
    run(&r, CLI " logs --robots " ROBOTS " --real-ip-from 10.0.0.0/33 %s "
        "2>&1", v);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.out, "--real-ip-from"));
    free(r.out);
    unlink(v);
}

static void
test_custom_format(void **state)
{
    const char  *log;
    char         v[64];
    run_t        r;

    (void) state;
    need_cli();
    shape(V_CUSTOM, "--log-format '$remote_addr - $remote_user "
          "[$time_local] \"$request\" $status $body_bytes_sent "
          "$request_time \"$http_referer\" \"$http_user_agent\"'", 0);
    shape(V_CUSTOM, "--log-format '%h %l %u %t \\\"%r\\\" %>s %b %T "
          "\\\"%{Referer}i\\\" \\\"%{User-Agent}i\\\"'", 0);
    /* not named: nothing reads it, and the error says what was tried */
    log = elastic();
    tmp_name(v, "custom");
    variant(log, v, V_CUSTOM, 0);
    run(&r, CLI " logs --robots " ROBOTS " %s 2>&1 >/dev/null", v);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.out, "malformed (more than 1%)"));
    assert_non_null(strstr(r.out, "no format reads it: tried json, caddy, "
                               "traefik, cloudflare, vhost_combined, "
                               "combined, common"));
    assert_non_null(strstr(r.out, "\"83.149.9.216 - - [17/May/2015:10:05:03"
                               " +0000]"));
    free(r.out);
    run(&r, CLI " logs --robots " ROBOTS " --log-format '$remote_addr "
        "$status' %s 2>&1", v);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.out, "no time"));
    free(r.out);
    unlink(v);
}

static void
test_json_lines(void **state)
{
    (void) state;
    need_cli();
    shape(V_JSON, "", 0);
    shape(V_JSON, "--log-format json", 0);
}

static void
test_common_and_garbage(void **state)
{
    const char  *log;
    char         v[64], elf[64], half[64];
    FILE        *f;
    run_t        r;
    int          i;

    (void) state;
    need_cli();
    log = elastic();
    tmp_name(v, "common");
    variant(log, v, V_COMMON, 0);
    run(&r, CLI " logs --robots " ROBOTS " --format json %s 2>&1", v);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "no User-Agent field"));
    assert_non_null(strstr(r.out, "crawlers cannot be identified"));
    free(r.out);

    /* a binary: exit 2, and the first line shown escaped */
    tmp_name(elf, "elf");
    f = fopen(elf, "w");
    assert_non_null(f);
    fputs("\x7f" "ELF\x02\x01\x01\n\x01\x02\x03\n", f);
    fclose(f);
    run(&r, CLI " logs --robots " ROBOTS " %s 2>&1", elf);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.out, "\"\\x7fELF\\x02\\x01\\x01\""));
    assert_null(strstr(r.out, "\x7f"));
    free(r.out);
    run(&r, CLI " logs --robots " ROBOTS " --log-format combined %s 2>&1",
        elf);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.out, "as given by --log-format"));
    free(r.out);

    /* more than 1% of the first lines malformed: no report */
    tmp_name(half, "half");
    f = fopen(half, "w");
    assert_non_null(f);
    fputs("1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] \"GET / HTTP/1.1\" 200 5"
          " \"-\" \"bingbot\"\n", f);
    for (i = 0; i < 3; i++) {
        fputs("1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] \"GET / HTTP/1.1\" "
              "200 5 0.1 \"-\" \"bingbot\"\n", f);
    }
    fclose(f);
    run(&r, CLI " logs --robots " ROBOTS " %s 2>&1 >/dev/null", half);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.out, "3 of the first 4 lines are malformed"));
    free(r.out);
    unlink(v);
    unlink(elf);
    unlink(half);
}

/* a damaged .gz: its file and line said, the next file read */
static void
test_gz_damaged(void **state)
{
    const char  *log;
    char         gzpath[64], err[64];
    ra_str_t     text;
    gzFile       gz;
    run_t        r;
    sums_t       s;

    (void) state;
    need_cli();
    log = elastic();
    assert_int_equal(ra_test_read_file(log, &text), 0);
    tmp_name(gzpath, "gz");
    gz = gzopen(gzpath, "wb");
    assert_non_null(gz);
    assert_int_equal(gzwrite(gz, text.data, (unsigned) text.len),
                     (int) text.len);
    gzclose(gz);
    free((void *) text.data);
    assert_int_equal(truncate(gzpath, 100000), 0);

    tmp_name(err, "gzerr");
    run(&r, CLI " logs --robots " ROBOTS " --format json %s %s 2>%s",
        gzpath, log, err);
    assert_int_equal(r.status, 2);
    sums(&r, "Googlebot", 5, &s);
    /* the lines before the cut, then the whole plain log */
    assert_true(s.lines > 10000 && s.lines < 20000);
    free(r.out);
    run(&r, "cat %s", err);
    assert_non_null(strstr(r.out, gzpath));
    assert_non_null(strstr(r.out, "cut short after line "));
    assert_non_null(strstr(r.out, "going on with the next file"));
    free(r.out);

    /* whatif likewise: the report of both files, exit 2 */
    run(&r, CLI " whatif --current " ROBOTS " --proposed " ROBOTS " %s %s "
        "2>%s", gzpath, log, err);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.out, "allowed->disallowed"));
    free(r.out);
    run(&r, "cat %s", err);
    assert_non_null(strstr(r.out, "cut short after line "));
    free(r.out);
    unlink(gzpath);
    unlink(err);
}

/* ---- --follow across a rename and a truncation ------------------------ */

static long
report_lines(const char *path)
{
    ra_str_t    text;
    const char *p;
    long        n;

    if (ra_test_read_file(path, &text) != 0) {
        return -1;
    }
    p = strstr((const char *) text.data, "\"lines\":");
    n = p != NULL ? atol(p + 8) : -1;
    free((void *) text.data);
    return n;
}

static void
append(const char *path, int n, int sec)
{
    FILE  *f = fopen(path, "a");
    int    i;

    assert_non_null(f);
    for (i = 0; i < n; i++) {
        fprintf(f, "66.249.66.1 - - [17/May/2015:10:%02d:%02d +0000] "
                "\"GET /files/%d HTTP/1.1\" 200 5 \"-\" \"Mozilla/5.0 "
                "(compatible; Googlebot/2.1; +http://www.google.com/"
                "bot.html)\"\n", sec / 60 % 60, sec % 60, i);
    }
    fclose(f);
}

/* waits up to 10 s for the report to count want lines */
static int
wait_lines(const char *out, long want)
{
    int  i;

    for (i = 0; i < 100; i++) {
        if (report_lines(out) == want) {
            return 1;
        }
        usleep(100000);
    }
    print_message("report has %ld lines, not %ld\n", report_lines(out), want);
    return 0;
}

static void
test_follow(void **state)
{
    char   dir[] = "/tmp/ra-follow-XXXXXX", log[128], old[128], out[128];
    pid_t  pid;
    int    st;
    FILE  *f;

    (void) state;
    need_cli();
    assert_non_null(mkdtemp(dir));
    snprintf(log, sizeof(log), "%s/access.log", dir);
    snprintf(old, sizeof(old), "%s/access.log.1", dir);
    snprintf(out, sizeof(out), "%s/report.json", dir);
    append(log, 3, 0);

    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (freopen("/dev/null", "w", stderr) == NULL) {
            _exit(127);
        }
        execl(CLI, CLI, "logs", "--robots", ROBOTS, "--follow",
              "--interval", "1", "--format", "json", "--output", out, log,
              (char *) NULL);
        _exit(127);
    }
    assert_true(wait_lines(out, 3));
    append(log, 2, 10);
    assert_true(wait_lines(out, 5));

    /* rotation by rename: the old file's last lines, then the new file */
    assert_int_equal(rename(log, old), 0);
    append(old, 1, 20);
    append(log, 4, 30);
    assert_true(wait_lines(out, 10));

    /* rotation by truncation (copytruncate) */
    f = fopen(log, "w");
    assert_non_null(f);
    fclose(f);
    usleep(500000);
    append(log, 2, 40);
    assert_true(wait_lines(out, 12));

    /* SIGHUP re-reads the files and goes on; SIGTERM: a last report */
    kill(pid, SIGHUP);
    usleep(300000);
    append(log, 1, 50);
    /* the line is in the file: the last report counts it */
    kill(pid, SIGTERM);
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 0);
    assert_int_equal(report_lines(out), 13);
    /* no temporary file left behind */
    {
        run_t  r;

        run(&r, "ls %s", dir);
        assert_null(strstr(r.out, ".tmp"));
        free(r.out);
    }
    unlink(log);
    unlink(old);
    unlink(out);
    rmdir(dir);
}

/* --alert-log writes the JSON alert lines the modules would write;
 * --alert-purposes keeps only those purposes' (space- or comma-
 * separated): curl's violation (purpose tool) alerts by default and not
 * under "search ai-training", GPTBot's in both; the report counts every
 * violation either way.  An unknown purpose, or the list without an alert
 * log, is a usage error naming it. */
static void
test_alert_purposes(void **state)
{
    static const char  lines[] =
        "1.2.3.4 - - [23/Nov/2026:10:00:00 +0000] \"GET /private/a HTTP/1.1\" "
        "200 10 \"-\" \"curl/8.5.0\"\n"
        "1.2.3.5 - - [23/Nov/2026:10:00:05 +0000] \"GET /private/b HTTP/1.1\" "
        "200 10 \"-\" \"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; "
        "compatible; GPTBot/1.2; +https://openai.com/gptbot)\"\n";
    const char  *lists[] = { NULL, "'search ai-training'",
                             "search,ai-training" };
    char         logp[] = "/tmp/ra-ap-log-XXXXXX";
    char         cur[] = "/tmp/ra-ap-cur-XXXXXX";
    char         alerts[] = "/tmp/ra-ap-alerts-XXXXXX";
    char         got[4096];
    FILE        *f;
    size_t       i, n;
    run_t        r;

    (void) state;
    need_cli();
    tmp_text(logp, lines);
    tmp_text(cur, "User-agent: *\nDisallow: /private/\n");
    tmp_text(alerts, "");
    for (i = 0; i < 3; i++) {
        f = fopen(alerts, "w");
        assert_non_null(f);
        fclose(f);
        if (lists[i] == NULL) {
            run(&r, CLI " logs --robots %s --alert-log %s --format json %s "
                "2>/dev/null", cur, alerts, logp);
        } else {
            run(&r, CLI " logs --robots %s --alert-log %s --alert-purposes "
                "%s --format json %s 2>/dev/null", cur, alerts, lists[i],
                logp);
        }
        assert_int_equal(r.status, 0);
        /* both violations counted and shown */
        assert_non_null(strstr(r.out, "\"crawler\":\"curl\""));
        assert_non_null(strstr(r.out, "\"violations\":2"));
        free(r.out);
        f = fopen(alerts, "r");
        assert_non_null(f);
        n = fread(got, 1, sizeof(got) - 1, f);
        fclose(f);
        got[n] = '\0';
        assert_non_null(strstr(got, "\"tag\":\"RA100\",\"verdict\":"
                                    "\"violation\",\"site\":\"default\","
                                    "\"crawler\":\"GPTBot\""));
        if (lists[i] == NULL) {
            assert_non_null(strstr(got, "\"crawler\":\"curl\""));
        } else {
            assert_null(strstr(got, "\"crawler\":\"curl\""));
        }
    }

    run(&r, CLI " logs --robots %s --alert-log %s --alert-purposes "
        "'search scraper' %s 2>&1", cur, alerts, logp);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.out, "--alert-purposes: 'scraper' is not a "
                                  "purpose: search, ai-training"));
    free(r.out);
    run(&r, CLI " logs --robots %s --alert-purposes tool %s 2>&1", cur, logp);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.out, "--alert-purposes is for --alert-log"));
    free(r.out);
    unlink(logp);
    unlink(cur);
    unlink(alerts);
}

/* ---- every log shape: the same verdicts as the combined-log twin ---- */

#define LOGFMT  "tests/data/logfmt/"

static void
logfmt_sums(const char *opts, const char *log, sums_t *g, sums_t *p)
{
    run_t  r;

    run(&r, CLI " logs --robots " ROBOTS " --ranges " LOGFMT "googlebot.json"
        " --format json %s " LOGFMT "%s 2>/dev/null", opts, log);
    assert_int_equal(r.status, 0);
    sums(&r, "Googlebot", 5, g);
    sums(&r, "GPTBot", 5, p);
    assert_int_equal(g->malformed, 0);
    free(r.out);
}

static void
test_log_formats(void **state)
{
    static const struct {
        const char  *log;
        const char  *opts;
    } fmts[] = {
        { "caddy.log", "" }, { "caddy.log", "--log-format caddy" },
        { "traefik.log", "" }, { "traefik.log", "--log-format traefik" },
        { "cloudflare.log", "" },
        { "cloudflare.log", "--log-format cloudflare" },
        { "haproxy.log", "" }, { "haproxy.log", "--log-format haproxy" },
        { "alb.log", "" }, { "alb.log", "--log-format alb" },
        { "cloudfront.log", "" },
        { "cloudfront.log", "--log-format cloudfront" },
        { "iis.log", "" }, { "iis.log", "--log-format iis" },
        { "iis.log", "--log-format w3c" },
        { "bracketed.log", "" },
        { "caddy.log", "--json-fields client=request.client_ip,time=ts,"
                       "method=request.method,uri=request.uri,"
                       "status=status,ua=request.headers.User-Agent" },
    };
    sums_t  g0, p0, g, p;
    size_t  i;

    (void) state;
    need_cli();
    logfmt_sums("", "combined.log", &g0, &p0);
    /* the twin itself: Googlebot verified over IPv4 and IPv6, a fake
     * one, GPTBot, browsers */
    assert_int_equal(g0.lines, 18);
    assert_int_equal(g0.requests, 7);
    assert_int_equal(g0.impostors, 2);
    assert_int_equal(g0.violation, 3);
    assert_int_equal(g0.fetches, 1);
    assert_int_equal(p0.requests, 3);
    assert_int_equal(p0.violation, 1);
    for (i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
        print_message("%s %s\n", fmts[i].log, fmts[i].opts);
        logfmt_sums(fmts[i].opts, fmts[i].log, &g, &p);
        assert_int_equal(g.requests, g0.requests);
        assert_int_equal(g.impostors, g0.impostors);
        assert_int_equal(g.violation, g0.violation);
        assert_int_equal(g.compliant, g0.compliant);
        assert_int_equal(g.fetches, g0.fetches);
        assert_int_equal(p.requests, p0.requests);
        assert_int_equal(p.violation, p0.violation);
        assert_int_equal(p.compliant, p0.compliant);
        assert_int_equal(p.fetches, p0.fetches);
    }
}

/* whatif reads every shape logs reads, each file's found from its first
 * lines: the same changes as over the combined-log twin */
static void
whatif_sums(const char *prop, const char *log, sums_t *g, sums_t *p)
{
    run_t  r;

    run(&r, CLI " whatif --current " ROBOTS " --proposed %s --format json "
        "%s%s 2>/dev/null", prop, log[0] == '-' ? "" : LOGFMT, log);
    assert_int_equal(r.status, 1);
    sums(&r, "Googlebot", 3, g);
    sums(&r, "GPTBot", 3, p);
    assert_int_equal(g->malformed, 0);
    free(r.out);
}

static void
test_whatif_log_formats(void **state)
{
    static const char  *logs[] = {
        "caddy.log", "traefik.log", "cloudflare.log", "haproxy.log",
        "alb.log", "cloudfront.log", "iis.log", "bracketed.log",
        /* named rather than found */
        "--log-format caddy " LOGFMT "caddy.log",
        "--log-format iis " LOGFMT "iis.log",
        "--json-fields client=request.client_ip,time=ts,method=request."
        "method,uri=request.uri,status=status,ua=request.headers."
        "User-Agent " LOGFMT "caddy.log"
    };
    char     prop[] = "/tmp/ra-whatif-fmt-XXXXXX";
    run_t    r;
    sums_t   g0, p0, g, p;
    size_t   i;

    (void) state;
    need_cli();
    tmp_text(prop, "User-agent: *\nDisallow: /files/\nDisallow: /blog/\n");
    whatif_sums(prop, "combined.log", &g0, &p0);
    assert_true(g0.requests > 0);
    assert_true(g0.a2d > 0);
    for (i = 0; i < sizeof(logs) / sizeof(logs[0]); i++) {
        print_message("whatif %s\n", logs[i]);
        whatif_sums(prop, logs[i], &g, &p);
        assert_int_equal(g.requests, g0.requests);
        assert_int_equal(g.a2d, g0.a2d);
        assert_int_equal(p.requests, p0.requests);
        assert_int_equal(p.a2d, p0.a2d);
    }
    /* a format that does not read the log: none of its lines judged */
    run(&r, CLI " whatif --current " ROBOTS " --proposed %s --format json "
        "--log-format combined " LOGFMT "caddy.log 2>/dev/null", prop);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\"malformed_lines\":18"));
    free(r.out);
    run(&r, CLI " whatif --current " ROBOTS " --proposed %s --log-format "
        "combined --json-fields client=a " LOGFMT "caddy.log 2>&1", prop);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.out, "given once"));
    free(r.out);
    unlink(prop);
}

/* misreadings: a line read in a shape it is not in stops the run, with
 * the format tried, the line and field, and what would read it */
static void
test_log_misreadings(void **state)
{
    static const struct {
        const char  *log;
        const char  *opts;
        const char  *says;
    } bad[] = {
        { "bad-host-first.log", "",
          "the client field \"www.example.com\" is not an IP address" },
        { "bad-host-first.log", "", "--log-format '$host $remote_addr" },
        { "bad-syslog.log", "", "the client field \"Oct\"" },
        { "bad-syslog.log", "", "a syslog prefix" },
        { "bad-xff-first.log", "", "the client field \"66.249.66.1,\"" },
        { "bad-xff-first.log", "", "X-Forwarded-For list" },
        { "alb.log", "--log-format '$scheme $time_iso8601 $elb "
          "$remote_addr:$port $t $a $b $c $status $d $e $body_bytes_sent "
          "\"$request\" \"$http_user_agent\"'",
          "line 4 (read as custom as given by --log-format): the client "
          "field \"2001\"" },
        { "alb.log", "--log-format '$scheme $time_iso8601 $elb "
          "$remote_addr:$port $t $a $b $c $status $d $e $body_bytes_sent "
          "\"$request\" \"$http_user_agent\"'", "--log-format alb reads it" },
        { "caddy.log", "--log-format traefik", "--log-format caddy reads it" },
        { "iis.log", "--log-format combined",
          "(read as combined as given by --log-format)" },
    };
    run_t   r;
    size_t  i;

    (void) state;
    need_cli();
    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        run(&r, CLI " logs --robots " ROBOTS " %s " LOGFMT "%s 2>&1",
            bad[i].opts, bad[i].log);
        print_message("%s\n", r.out);
        assert_int_equal(r.status, 2);
        assert_non_null(strstr(r.out, "malformed (more than 1%)"));
        assert_non_null(strstr(r.out, bad[i].says));
        assert_null(strstr(r.out, "robots-audit report"));
        free(r.out);
    }
    /* --json-fields: a KEY of no field is said before any reading */
    run(&r, CLI " logs --robots " ROBOTS " --json-fields client=ip "
        LOGFMT "caddy.log 2>&1");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.out, "are needed"));
    free(r.out);
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
        cmocka_unit_test(test_robots_answer_binds_its_client),
        cmocka_unit_test(test_garbage),
        cmocka_unit_test(test_referrals_and_purpose),
        cmocka_unit_test(test_text_csv_llms_purpose),
        cmocka_unit_test(test_formats),
        cmocka_unit_test(test_whatif),
        cmocka_unit_test(test_generic_names_order_politeness),
        cmocka_unit_test(test_generic_name_any_case_whatif),
        cmocka_unit_test(test_alert_purposes),
        cmocka_unit_test(test_unreachable_30d),
        cmocka_unit_test(test_spellings),
        cmocka_unit_test(test_vhosts),
        cmocka_unit_test(test_robots_per_site),
        cmocka_unit_test(test_no_robots_lines),
        cmocka_unit_test(test_balancer),
        cmocka_unit_test(test_custom_format),
        cmocka_unit_test(test_json_lines),
        cmocka_unit_test(test_common_and_garbage),
        cmocka_unit_test(test_gz_damaged),
        cmocka_unit_test(test_follow),
        cmocka_unit_test(test_browser_hosts),
        cmocka_unit_test(test_log_formats),
        cmocka_unit_test(test_whatif_log_formats),
        cmocka_unit_test(test_log_misreadings),
        cmocka_unit_test(test_state_across_runs),
    };

    /* the ranges a machine's package keeps are not the tests' */
    setenv("ROBOTS_AUDIT_RANGES_DIR", "", 1);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
