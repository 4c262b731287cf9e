/* SPDX-License-Identifier: BSD-2-Clause */
/* Configuration decided once for nginx, Apache and the CLI: values,
 * crawler and range files with their messages, the configured robots.txt
 * and its lint at start, through a host that captures log lines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "ra_test.h"
#include "ra_setup.h"
#include "ra_ledger_file.h"
#include "ra_parse.h"

#define S(lit)  ((ra_str_t) ra_string(lit))

static void
sizes(void **state)
{
    uint64_t  n;
    ra_buf_t  why;

    (void) state;
    assert_int_equal(ra_parse_size(S("512"), &n), RA_OK);
    assert_int_equal(n, 512);
    assert_int_equal(ra_parse_size(S("64k"), &n), RA_OK);
    assert_int_equal(n, 65536);
    assert_int_equal(ra_parse_size(S("8M"), &n), RA_OK);
    assert_int_equal(n, 8u << 20);
    assert_int_equal(ra_parse_size(S("1g"), &n), RA_OK);
    assert_int_equal(n, 1u << 30);
    assert_int_equal(ra_parse_size(S(""), &n), RA_ERROR);
    assert_int_equal(ra_parse_size(S("m"), &n), RA_ERROR);
    assert_int_equal(ra_parse_size(S("8mb"), &n), RA_ERROR);
    assert_int_equal(ra_parse_size(S("-1"), &n), RA_ERROR);
    assert_int_equal(ra_parse_size(S("99999999999999999999"), &n),
                     RA_ERROR);
    assert_int_equal(ra_parse_size(S("99999999999999g"), &n), RA_ERROR);

    ra_buf_init(&why, &ra_malloc_allocator, 0, 0);
    assert_int_equal(ra_zone_size_check(8u << 20, 0, &why), RA_OK);
    assert_int_equal(ra_zone_size_check(RA_LEDGER_MIN_SIZE, 0, &why), RA_OK);
    assert_int_equal(why.len, 0);
    assert_int_equal(ra_zone_size_check(RA_LEDGER_MIN_SIZE, 16384, &why),
                     RA_ERROR);
    ra_buf_ch(&why, '\0');
    assert_non_null(strstr((char *) why.data, "the minimum is 80k"));
    why.len = 0;
    assert_int_equal(ra_zone_size_check(4096ULL << 20, 0, &why), RA_ERROR);
    ra_buf_ch(&why, '\0');
    assert_non_null(strstr((char *) why.data, "the maximum 4095m"));
    ra_buf_release(&why);
}

static void
durations(void **state)
{
    int64_t  ms;

    (void) state;
    assert_int_equal(ra_parse_msec(S("250ms"), &ms), RA_OK);
    assert_int_equal(ms, 250);
    assert_int_equal(ra_parse_msec(S("30s"), &ms), RA_OK);
    assert_int_equal(ms, 30000);
    assert_int_equal(ra_parse_msec(S("30"), &ms), RA_OK);
    assert_int_equal(ms, 30000);
    assert_int_equal(ra_parse_msec(S("5m"), &ms), RA_OK);
    assert_int_equal(ms, 300000);
    assert_int_equal(ra_parse_msec(S("1h"), &ms), RA_OK);
    assert_int_equal(ms, 3600000);
    assert_int_equal(ra_parse_msec(S("1d"), &ms), RA_OK);
    assert_int_equal(ms, 86400000);
    assert_int_equal(ra_parse_msec(S("1m30s"), &ms), RA_OK);
    assert_int_equal(ms, 90000);
    /* nginx's longer units: weeks, months of 30 days, years of 365 */
    assert_int_equal(ra_parse_msec(S("2w"), &ms), RA_OK);
    assert_int_equal(ms, 2LL * 7 * 86400000);
    assert_int_equal(ra_parse_msec(S("1M"), &ms), RA_OK);
    assert_int_equal(ms, 30LL * 86400000);
    assert_int_equal(ra_parse_msec(S("1y"), &ms), RA_OK);
    assert_int_equal(ms, 365LL * 86400000);
    assert_int_equal(ra_parse_msec(S("1y1M1w1d1h1m1s1ms"), &ms), RA_OK);
    assert_int_equal(ms, (365LL + 30 + 7 + 1) * 86400000 + 3661001);
    assert_int_equal(ra_parse_msec(S("3y"), &ms), RA_ERROR);
    assert_int_equal(ra_parse_msec(S("1Y"), &ms), RA_ERROR);
    assert_int_equal(ra_parse_msec(S("0"), &ms), RA_OK);
    assert_int_equal(ms, 0);
    assert_int_equal(ra_parse_msec(S(""), &ms), RA_ERROR);
    assert_int_equal(ra_parse_msec(S("s"), &ms), RA_ERROR);
    assert_int_equal(ra_parse_msec(S("5x"), &ms), RA_ERROR);
    assert_int_equal(ra_parse_msec(S("-5s"), &ms), RA_ERROR);
    assert_int_equal(ra_parse_msec(S("1001d"), &ms), RA_ERROR);
    assert_int_equal(ra_parse_msec(S("99999999999999999999"), &ms),
                     RA_ERROR);
}

static void
tmp_text(char *path, const char *text)
{
    ra_test_tmp_file(path, text, strlen(text));
}

static void
tables(void **state)
{
    char              good[64], bad[64], ranges[64], junk[64];
    ra_buf_t          why;
    ra_host_t         h;
    ra_test_log_t     c;
    ra_setup_t        s;
    ra_audit_conf_t   conf;
    ra_setup_values_t v;
    ra_test_arena_t  *arena = ra_test_arena_new();

    (void) state;
    ra_test_host(&h, &c, NULL);
    ra_buf_init(&why, &ra_malloc_allocator, 0, 0);
    ra_setup_init(&s, &h, ra_test_arena_alloc(arena));
    assert_null(s.crawlers);                /* loaded when first needed */

    tmp_text(good, "crawler ExampleBot\nua ExampleBot\ntokens examplebot\n"
             "category tool\n");
    tmp_text(bad, "crawler X\nfoo bar\n");
    tmp_text(ranges, "{\"prefixes\":[{\"ipv4Prefix\":\"192.0.2.0/24\"}]}");
    tmp_text(junk, "{\"prefixes\":[{\"ipv4Prefix\":\"300.0.2.0/24\"}]}");

    assert_int_equal(ra_setup_crawlers_file(&s, good, &why), RA_OK);
    assert_int_equal(why.len, 0);

    assert_int_not_equal(ra_setup_crawlers_file(&s, bad, &why), RA_OK);
    ra_buf_ch(&why, '\0');
    assert_non_null(strstr((char *) why.data, "crawler file "));
    assert_non_null(strstr((char *) why.data, ", line 2: "));
    why.len = 0;

    assert_int_not_equal(ra_setup_crawlers_file(&s, "/nonexistent/c.txt",
                                                &why), RA_OK);
    ra_buf_ch(&why, '\0');
    assert_non_null(strstr((char *) why.data,
                           "cannot open \"/nonexistent/c.txt\": No such file"));
    why.len = 0;

    assert_int_not_equal(ra_setup_crawlers_file(&s, "/", &why), RA_OK);
    ra_buf_ch(&why, '\0');
    assert_non_null(strstr((char *) why.data, "is not a regular file"));
    why.len = 0;

    assert_int_equal(ra_setup_ranges_file(&s, ranges, &why), RA_OK);
    /* the list takes the file's base name */
    assert_true(ra_ranges_find(s.ranges, ra_str(ra_basename(ranges),
                                                strlen(ra_basename(ranges))))
                >= 0);
    assert_int_not_equal(ra_setup_ranges_file(&s, junk, &why), RA_OK);
    ra_buf_ch(&why, '\0');
    assert_non_null(strstr((char *) why.data, "ranges file "));
    assert_non_null(strstr((char *) why.data, ", byte "));
    why.len = 0;

    /* a server's setup: data files are a warning, the server starts */
    s.lenient = 1;
    assert_int_equal(ra_setup_ranges_file(&s, junk, &why), RA_OK);
    assert_int_equal(why.len, 0);
    assert_int_equal(ra_setup_ranges_file(&s, "/nonexistent/r.json", &why),
                     RA_OK);
    assert_int_equal(ra_setup_signature_keys(&s, "/nonexistent/keys", &why),
                     RA_OK);
    assert_int_equal(c.n, 3);
    assert_int_equal(c.levels[0], RA_LOG_WARN);
    assert_non_null(strstr(c.lines[0], "[RA325] ranges file "));
    assert_non_null(strstr(c.lines[1], "[RA325] cannot open "
                                       "\"/nonexistent/r.json\""));
    assert_non_null(strstr(c.lines[1], "stay unverified"));
    assert_non_null(strstr(c.lines[2], "[RA325] signature keys directory"));
    /* a configuration error stays one */
    assert_int_not_equal(ra_setup_crawlers_file(&s, "/nonexistent/c.txt",
                                                &why), RA_OK);
    why.len = 0;
    c.n = 0;
    s.lenient = 0;

    /* every server's directives name a kind; the kind picks the reader */
    assert_int_not_equal(ra_setup_table_file(&s, RA_SETUP_CRAWLERS, bad,
                                             &why), RA_OK);
    ra_buf_ch(&why, '\0');
    assert_non_null(strstr((char *) why.data, "crawler file "));
    why.len = 0;
    assert_int_not_equal(ra_setup_table_file(&s, RA_SETUP_RANGES, junk,
                                             &why), RA_OK);
    ra_buf_ch(&why, '\0');
    assert_non_null(strstr((char *) why.data, "ranges file "));
    why.len = 0;
    assert_int_not_equal(ra_setup_table_file(&s, RA_SETUP_SIG_KEYS,
                                             "/nonexistent/keys", &why),
                         RA_OK);
    ra_buf_ch(&why, '\0');
    assert_non_null(strstr((char *) why.data, "signature keys"));
    why.len = 0;

    assert_int_equal(ra_setup_compile(&s, &why), RA_OK);
    assert_int_equal(ra_setup_compile(&s, &why), RA_OK);   /* idempotent */
    assert_non_null(ra_crawlers_find(s.crawlers, S("ExampleBot")));
    assert_non_null(ra_crawlers_find(s.crawlers, S("Googlebot")));

    /* the engine's configuration, the same from every server */
    memset(&v, 0, sizeof(v));
    v.alert_interval = -1;
    v.sig_max_age = 5000;
    v.alert_budget.site = 7;
    memset(&conf, 0xff, sizeof(conf));
    ra_setup_audit_conf(&conf, &s, &h, S("robots_audit"), &v);
    assert_ptr_equal(conf.alloc, &ra_malloc_allocator);
    assert_ptr_equal(conf.host, &h);
    assert_ptr_equal(conf.crawlers, s.crawlers);
    assert_ptr_equal(conf.ranges, s.ranges);
    assert_ptr_equal(conf.sig_keys, s.sig_keys);
    assert_int_equal(conf.alert_interval, -1);
    assert_int_equal(conf.sig_max_age, 5000);
    assert_int_equal(conf.alert_budget.site, 7);
    assert_int_equal(conf.zone_name.len, strlen("robots_audit"));
    assert_int_equal(conf.cache_bytes, 0);      /* the rest is zero */
    assert_null(conf.impostors_of);

    assert_string_equal(ra_basename("/a/b/c.json"), "c.json");
    assert_string_equal(ra_basename("c.json"), "c.json");
    assert_string_equal(ra_basename("/a/"), "");

    assert_int_equal(c.n, 0);                   /* errors go to why */
    unlink(good);
    unlink(bad);
    unlink(ranges);
    unlink(junk);
    ra_buf_release(&why);
    ra_test_arena_free(arena);
}

static int
no_mtime(const ra_host_t *h, const char *path, int64_t *ms)
{
    (void) h;
    (void) path;
    (void) ms;
    return RA_ERROR;
}

/* Sets path's modification time days ago (the system clock's). */
static void
age_file(const char *path, int days)
{
    struct timeval  tv[2];

    assert_int_equal(gettimeofday(&tv[0], NULL), 0);
    tv[0].tv_sec -= (time_t) days * 86400;
    tv[1] = tv[0];
    assert_int_equal(utimes(path, tv), 0);
}

/* A loaded range file's age: its modification time through
 * the host, kept with every list it gave; one RA203 warning, at load,
 * when it is older than 7 days; none when fresh or when the host cannot
 * tell. */
static void
range_file_ages(void **state)
{
    char              fresh[64], old[64], bundle[64], unknown[64];
    ra_buf_t          why;
    ra_host_t         h;
    ra_test_log_t     c;
    ra_setup_t        s;
    int64_t           now;
    ra_test_arena_t  *arena = ra_test_arena_new();

    (void) state;
    ra_test_host(&h, &c, NULL);
    ra_buf_init(&why, &ra_malloc_allocator, 0, 0);
    ra_setup_init(&s, &h, ra_test_arena_alloc(arena));
    tmp_text(fresh, "{\"prefixes\":[{\"ipv4Prefix\":\"192.0.2.0/24\"}]}");
    tmp_text(old, "{\"prefixes\":[{\"ipv4Prefix\":\"198.51.100.0/24\"}]}");
    tmp_text(bundle, "{\"a\":{\"prefixes\":[{\"ipv4Prefix\":\"10.0.0.0/8\"}]},"
             "\"b\":{\"prefixes\":[{\"ipv4Prefix\":\"11.0.0.0/8\"}]}}");
    tmp_text(unknown, "{\"prefixes\":[{\"ipv4Prefix\":\"203.0.113.0/24\"}]}");
    age_file(old, 8);
    age_file(bundle, 6);

    assert_int_equal(ra_setup_ranges_file(&s, fresh, &why), RA_OK);
    assert_int_equal(c.n, 0);
    assert_int_equal(ra_setup_ranges_file(&s, old, &why), RA_OK);
    assert_int_equal(c.n, 1);
    assert_int_equal(c.levels[0], RA_LOG_WARN);
    assert_non_null(strstr(c.lines[0], "robots-audit: [RA203] ranges file \""));
    assert_non_null(strstr(c.lines[0], old));
    assert_non_null(strstr(c.lines[0], "\" is 8 days old (older than 7)"));
    assert_non_null(strstr(c.lines[0], "robots-audit ranges update"));
    assert_int_equal(ra_setup_ranges_file(&s, bundle, &why), RA_OK);
    assert_int_equal(c.n, 1);                   /* 6 days: not stale */
    h.file_mtime = no_mtime;
    assert_int_equal(ra_setup_ranges_file(&s, unknown, &why), RA_OK);
    assert_int_equal(c.n, 1);                   /* unknown: no warning */
    assert_int_equal(why.len, 0);

    now = ra_host_now(&h);
    /* fresh, old, the bundle whole and its two members, unknown */
    assert_int_equal(ra_ranges_lists(s.ranges), 6);
    assert_in_range(ra_ranges_age(s.ranges, 0, now), 0, 60000);
    assert_false(ra_ranges_stale(s.ranges, 0, now));
    assert_in_range(ra_ranges_age(s.ranges, 1, now),
                    8 * 86400000LL - 60000, 8 * 86400000LL + 60000);
    assert_true(ra_ranges_stale(s.ranges, 1, now));
    /* every list of the bundle, the same file's age */
    assert_int_equal(ra_ranges_mtime(s.ranges, 2),
                     ra_ranges_mtime(s.ranges, 3));
    assert_int_equal(ra_ranges_mtime(s.ranges, 2),
                     ra_ranges_mtime(s.ranges, 4));
    assert_in_range(ra_ranges_age(s.ranges, 4, now),
                    6 * 86400000LL - 60000, 6 * 86400000LL + 60000);
    assert_false(ra_ranges_stale(s.ranges, 4, now));
    assert_int_equal(ra_ranges_mtime(s.ranges, 5), 0);
    assert_int_equal(ra_ranges_age(s.ranges, 5, now), -1);
    assert_false(ra_ranges_stale(s.ranges, 5, now));
    /* a file from the future is 0 old, not negative */
    assert_int_equal(ra_ranges_age(s.ranges, 0, 1), 0);

    unlink(fresh);
    unlink(old);
    unlink(bundle);
    unlink(unknown);
    ra_buf_release(&why);
    ra_test_arena_free(arena);
}

/* One answer in all three front ends: a 600 KB file is a size-limit
 * error with the rules it loses, as `robots-audit lint` says. */
static void
robots_file_lint(void **state)
{
    int               i, found_size, found_typo, found_summary;
    char              path[64], *big;
    size_t            n, len = 600 * 1000;
    ra_buf_t          why;
    ra_host_t         h;
    ra_test_log_t     c;
    ra_robots_file_t  f;
    ra_test_arena_t  *arena = ra_test_arena_new();
    const ra_alloc_t *a = ra_test_arena_alloc(arena);
    int               where;

    (void) state;
    ra_test_host(&h, &c, NULL);
    ra_buf_init(&why, &ra_malloc_allocator, 0, 0);

    big = malloc(len);
    assert_non_null(big);
    n = (size_t) snprintf(big, len, "User-agent: *\nDisalow: /a\n");
    while (n + 20 < len) {
        n += (size_t) snprintf(big + n, len - n, "Disallow: /p%06zu\n", n);
    }
    ra_test_tmp_file(path, big, n);
    free(big);

    assert_int_equal(ra_robots_file_load(&h, a, path, &f, &why), RA_OK);
    assert_false(f.missing);
    assert_int_equal(f.size, n);
    assert_int_equal(f.text.len, n);            /* all of it, for lint */

    ra_robots_file_lint(&h, &where, &f);
    found_size = found_typo = found_summary = 0;
    for (i = 0; i < c.n; i++) {
        assert_non_null(strstr(c.lines[i], "robots-audit: [RA200] "));
        assert_ptr_equal(c.where[i], &where);
        if (strstr(c.lines[i], "error:") && strstr(c.lines[i],
                                                   "[size-limit]"))
        {
            found_size = 1;
            assert_int_equal(c.levels[i], RA_LOG_WARN);
        }
        if (strstr(c.lines[i], ":2:1: warning:")
            && strstr(c.lines[i], "[typo]"))
        {
            found_typo = 1;
        }
        if (strstr(c.lines[i], " rules, ") && strstr(c.lines[i], "1 error")) {
            found_summary = 1;
            assert_int_equal(c.levels[i], RA_LOG_WARN);
        }
    }
    assert_true(found_size);
    assert_true(found_typo);
    assert_true(found_summary);
    unlink(path);

    /* a missing or unreadable file is a state, not an error: a warning */
    c.n = 0;
    assert_int_equal(ra_robots_file_load(&h, a, "/nonexistent/robots.txt",
                                         &f, &why), RA_OK);
    assert_true(f.missing);
    assert_int_equal(why.len, 0);
    ra_robots_file_lint(&h, NULL, &f);
    assert_int_equal(c.n, 1);
    assert_int_equal(c.levels[0], RA_LOG_WARN);
    assert_non_null(strstr(c.lines[0], "[RA201] cannot open "
                                       "\"/nonexistent/robots.txt\": No such "
                                       "file or directory: the site starts "
                                       "with no robots.txt known"));
    c.n = 0;
    assert_int_equal(ra_robots_file_load(&h, a, "/", &f, &why), RA_OK);
    assert_true(f.missing);
    ra_robots_file_lint(&h, NULL, &f);
    assert_int_equal(c.n, 1);
    assert_non_null(strstr(c.lines[0], "[RA201] \"/\" is not a regular "
                                       "file: the site starts"));

    /* a clean file: a summary at notice */
    c.n = 0;
    ra_test_tmp_file(path, "User-agent: *\nDisallow: /x\n", 27);
    assert_int_equal(ra_robots_file_load(&h, a, path, &f, &why), RA_OK);
    ra_robots_file_lint(&h, NULL, &f);
    assert_int_equal(c.n, 1);
    assert_int_equal(c.levels[0], RA_LOG_NOTICE);
    assert_non_null(strstr(c.lines[0], "0 errors, 0 warnings"));
    unlink(path);

    ra_buf_release(&why);
    ra_test_arena_free(arena);
}

/* the same reuse decision and words in both servers */
static void
ledger_placement(void **state)
{
    size_t       size = 256 * 1024;
    void        *region, *other;
    ra_host_t    h;
    ra_test_log_t   c;
    ra_ledger_t  l;
    const char  *why = NULL;
    ra_str_t     zone = S("robots_audit_zone \"t\"");

    (void) state;
    ra_test_host(&h, &c, NULL);
    region = test_calloc(1, size);
    other = test_calloc(1, size);

    /* nothing there yet: not kept */
    assert_int_equal(ra_setup_ledger(&l, region, size, 1, &h, zone, &why),
                     RA_EAGAIN);
    assert_non_null(strstr(why, "no robots-audit ledger"));
    assert_int_equal(c.n, 0);

    /* new: laid out and opened */
    assert_int_equal(ra_setup_ledger(&l, region, size, 0, &h, zone, &why),
                     RA_OK);
    assert_ptr_equal(l.base, region);
    assert_int_equal(ra_ledger_size(region), size);

    /* kept across a reload, within a zone at least as large */
    assert_int_equal(ra_setup_ledger(&l, region, size, 1, &h, zone, &why),
                     RA_OK);
    assert_int_equal(c.n, 1);
    assert_int_equal(c.levels[0], RA_LOG_NOTICE);
    assert_non_null(strstr(c.lines[0], "[RA308] robots_audit_zone \"t\": "
                                       "kept the ledger (262144 bytes)"));
    /* a ledger claiming more than the zone holds is never trusted */
    assert_int_equal(ra_setup_ledger(&l, region, size - 1, 1, &h, zone,
                                     &why), RA_EAGAIN);

    /* too small for any ledger: RA306 at emerg */
    c.n = 0;
    assert_int_equal(ra_setup_ledger(&l, other, 1024, 0, &h, zone, &why),
                     RA_ERROR);
    assert_int_equal(c.n, 1);
    assert_int_equal(c.levels[0], RA_LOG_EMERG);
    assert_non_null(strstr(c.lines[0], "[RA306] robots_audit_zone \"t\" "
                                       "cannot hold a ledger in 1024 "
                                       "bytes"));
    /* no memory from the server's allocator: RA305, the zone too small */
    c.n = 0;
    assert_int_equal(ra_setup_ledger(&l, NULL, 4096, 0, &h, zone, &why),
                     RA_ERROR);
    assert_int_equal(c.n, 1);
    assert_int_equal(c.levels[0], RA_LOG_EMERG);
    assert_non_null(strstr(c.lines[0], "[RA305] robots_audit_zone \"t\" is "
                                       "too small: 4096 bytes are left for "
                                       "the ledger, which needs at least "));
    test_free(region);
    test_free(other);
}

/* a new region: laid out, then the state file's counters restored into
 * it, their lines to the host the server names for them */
static void
ledger_new_restored(void **state)
{
    size_t          size = 256 * 1024;
    void           *saved, *fresh;
    char            path[64];
    ra_host_t       h, say;
    ra_test_log_t   c, cs;
    ra_ledger_t     a, b;
    ra_str_t        zone = S("robots_audit_zone \"t\"");

    (void) state;
    ra_test_host(&h, &c, NULL);
    ra_test_host(&say, &cs, NULL);
    saved = test_calloc(1, size);
    fresh = test_calloc(1, size);
    snprintf(path, sizeof(path), "/tmp/ra-test-new-%ld", (long) getpid());

    /* no state file: laid out, nothing said */
    assert_int_equal(ra_setup_ledger_new(&a, saved, size, &h, zone, NULL,
                                         NULL, NULL), RA_OK);
    assert_ptr_equal(a.base, saved);
    assert_int_equal(c.n, 0);
    assert_int_equal(ra_ledger_file_save(&a, &h, NULL, zone, path), RA_OK);

    /* a state file: restored, said to say, not to h */
    c.n = 0;
    assert_int_equal(ra_setup_ledger_new(&b, fresh, size, &h, zone, &say,
                                         NULL, path), RA_OK);
    assert_ptr_equal(b.base, fresh);
    assert_int_equal(c.n, 0);
    assert_true(cs.n >= 1);
    unlink(path);

    /* no memory: RA305 to h, and nothing restored */
    cs.n = 0;
    assert_int_equal(ra_setup_ledger_new(&b, NULL, 4096, &h, zone, &say,
                                         NULL, path), RA_ERROR);
    assert_int_equal(c.n, 1);
    assert_non_null(strstr(c.lines[0], "[RA305]"));
    assert_int_equal(cs.n, 0);
    test_free(saved);
    test_free(fresh);
}

/* kept, replaced or refused at a reload or restart, and said so */
static void
zone_kept_or_replaced(void **state)
{
    size_t       size = 256 * 1024;
    void        *region, *junk;
    ra_host_t    h;
    ra_test_log_t   c;
    ra_ledger_t  l;
    const char  *why = NULL;
    ra_str_t     zone = S("robots_audit_zone \"t\"");

    (void) state;
    ra_test_host(&h, &c, NULL);
    region = test_calloc(1, size);
    junk = test_calloc(1, size);
    assert_int_equal(ra_setup_ledger(&l, region, size, 0, &h, zone, &why),
                     RA_OK);

    /* a first start: a new ledger, nothing said */
    assert_int_equal(ra_setup_zone(&l, &h, zone, NULL, size, 0, 1),
                     RA_EAGAIN);
    assert_int_equal(c.n, 0);

    /* the same size, a ledger there: kept (RA308) */
    assert_int_equal(ra_setup_zone(&l, &h, zone, region, size, size, 0),
                     RA_OK);
    assert_int_equal(c.n, 1);
    assert_non_null(strstr(c.lines[0], "[RA308]"));

    /* resized: replaced, or refused where the server cannot replace */
    c.n = 0;
    assert_int_equal(ra_setup_zone(&l, &h, zone, NULL, 2 * size, size, 1),
                     RA_EAGAIN);
    assert_int_equal(c.n, 1);
    assert_int_equal(c.levels[0], RA_LOG_WARN);
    assert_string_equal(c.lines[0], "robots-audit: [RA304] robots_audit_zone "
                        "\"t\": a new ledger replaces the old one (the size "
                        "changed from 262144 to 524288): its counters start "
                        "over");
    c.n = 0;
    assert_int_equal(ra_setup_zone(&l, &h, zone, region, 2 * size, size, 0),
                     RA_ERROR);
    assert_int_equal(c.levels[0], RA_LOG_EMERG);
    assert_non_null(strstr(c.lines[0], "[RA320] robots_audit_zone \"t\" "
                                       "cannot be reused: the size changed"));

    /* the same size, no ledger in it (or none at all): the check's reason */
    c.n = 0;
    assert_int_equal(ra_setup_zone(&l, &h, zone, junk, size, size, 1),
                     RA_EAGAIN);
    assert_int_equal(c.n, 1);
    assert_non_null(strstr(c.lines[0], "[RA304] robots_audit_zone \"t\": a "
                                       "new ledger replaces the old one (the "
                                       "zone holds no robots-audit ledger"));
    c.n = 0;
    assert_int_equal(ra_setup_zone(&l, &h, zone, NULL, size, size, 0),
                     RA_ERROR);
    assert_non_null(strstr(c.lines[0], "[RA320] robots_audit_zone \"t\" "
                                       "cannot be reused: the zone holds no "
                                       "robots-audit ledger; stop and start "
                                       "the server"));
    test_free(region);
    test_free(junk);
}

/* a process's engine, configured from the tables and values, its
 * configuration kept for a threaded server's other engines */
static void
engine_made(void **state)
{
    size_t              size = 256 * 1024;
    void               *region;
    ra_host_t           h;
    ra_test_log_t       c;
    ra_ledger_t         l;
    ra_buf_t            why;
    ra_setup_t          s;
    ra_audit_t         *au;
    ra_audit_conf_t     conf;
    ra_setup_values_t   v;
    ra_test_arena_t    *arena = ra_test_arena_new();
    const char         *w = NULL;

    (void) state;
    ra_test_host(&h, &c, NULL);
    region = test_calloc(1, size);
    assert_int_equal(ra_setup_ledger(&l, region, size, 0, &h, S("z"), &w),
                     RA_OK);
    ra_setup_init(&s, &h, ra_test_arena_alloc(arena));
    ra_buf_init(&why, &ra_malloc_allocator, 0, 0);
    assert_int_equal(ra_setup_compile(&s, &why), RA_OK);
    memset(&v, 0, sizeof(v));
    v.alert_interval = 5000;
    au = ra_setup_engine(&conf, &s, &h, S("z"), &v, &l);
    assert_non_null(au);
    assert_ptr_equal(conf.crawlers, s.crawlers);
    assert_int_equal(conf.alert_interval, 5000);
    assert_int_equal(c.n, 0);
    ra_audit_destroy(au);
    ra_buf_release(&why);
    ra_test_arena_free(arena);
    test_free(region);
}

static void
log_lines_are_bounded(void **state)
{
    ra_host_t   h;
    ra_test_log_t  c;
    char        big[5000];

    (void) state;
    ra_test_host(&h, &c, NULL);
    memset(big, 'x', sizeof(big) - 1);
    big[sizeof(big) - 1] = '\0';
    ra_logf(&h, NULL, RA_LOG_ERR, RA_TAG_NOMEM, "%s", big);
    assert_int_equal(c.n, 1);
    assert_int_equal(strlen(c.lines[0]), RA_HOST_LINE_MAX - 1);
    assert_memory_equal(c.lines[0], "robots-audit: [RA311] xxx", 25);
    ra_logf(NULL, NULL, RA_LOG_ERR, RA_TAG_NOMEM, "dropped");
    h.log = NULL;
    ra_logf(&h, NULL, RA_LOG_ERR, RA_TAG_NOMEM, "dropped");
    assert_int_equal(c.n, 1);
    assert_true(ra_host_now(NULL) > 1700000000000LL);
}

static void
server_log(const ra_host_t *h, void *where, ra_log_level_e level,
    ra_str_t line)
{
    (void) h;
    (void) where;
    (void) level;
    (void) line;
}

static int64_t
server_now(const ra_host_t *h)
{
    (void) h;
    return 42;
}

/* every server's host: its log and clock, the C heap, the POSIX reader,
 * libcrypto; nothing else left over from before */
static void
server_host(void **state)
{
    ra_host_t      h;
    unsigned char  d[32];
    void          *p;

    (void) state;
    memset(&h, 0xa5, sizeof(h));
    ra_host_server_init(&h, server_log, server_now, 1);
    assert_ptr_equal(h.log, server_log);
    assert_ptr_equal(h.now, server_now);
    assert_int_equal(ra_host_now(&h), 42);
    assert_true(h.log_escapes);
    assert_null(h.ctx);
    assert_null(h.read_file);
    assert_null(h.file_mtime);
    assert_null(h.rdns_start);
    assert_null(h.lock.lock);
    p = ra_alloc(&h.heap, 64);
    assert_non_null(p);
    ra_free(&h.heap, p);
    assert_non_null(h.sha256);
    assert_int_equal(h.sha256(&h, ra_str("", 0), d), RA_OK);
    assert_int_equal(d[0], 0xe3);           /* SHA-256("") */
    ra_host_server_init(&h, server_log, server_now, 0);
    assert_false(h.log_escapes);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sizes),
        cmocka_unit_test(server_host),
        cmocka_unit_test(durations),
        cmocka_unit_test(tables),
        cmocka_unit_test(range_file_ages),
        cmocka_unit_test(robots_file_lint),
        cmocka_unit_test(ledger_placement),
        cmocka_unit_test(ledger_new_restored),
        cmocka_unit_test(zone_kept_or_replaced),
        cmocka_unit_test(engine_made),
        cmocka_unit_test(log_lines_are_bounded),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
