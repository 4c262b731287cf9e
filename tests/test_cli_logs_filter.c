/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * 'robots-audit logs' narrowed and ordered, as a user runs it: --since,
 * --until (ISO 8601 and relative to a fixed RA_LOGS_NOW), --crawler,
 * --status, --exclude-client (IPv4, IPv6, bare addresses), --site over a
 * multi-site log; a --since that cuts off a robots.txt fetch leaving the
 * verdicts of the lines kept as they were; files read in time order
 * whatever order they are given in, with a warning only where they
 * overlap; the warning when the log's robots.txt answers differ in size
 * from the --robots file.  The fixtures are tests/data/logs-filter/.
 * Runs build/robots-audit from the repository root; skips when it is
 * absent.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "ra_test.h"
#include "ra_logfilter.h"

#define DATA    "tests/data/logs-filter/"
#define LOGS    RA_TEST_CLI " logs --robots " DATA "robots.txt "
#define OUT_MAX (256 * 1024)

/* The run's stdout (stderr dropped) or, with "2>&1 >/dev/null" in cmd,
 * its stderr; the exit status */
static int
sh(char *out, const char *cmd)
{
    return ra_test_sh(cmd, out, OUT_MAX);
}

/* logs --format json ARGS, "now" 2026-11-27T13:00:00Z: exit 0, and
 * filtered lines left out (0: none said) */
static void
json(char *out, const char *args, int filtered)
{
    char  cmd[1024], want[64];

    snprintf(cmd, sizeof(cmd), "RA_LOGS_NOW=2026-11-27T13:00:00Z " LOGS
             "--format json %s 2>/dev/null", args);
    assert_int_equal(sh(out, cmd), 0);
    snprintf(want, sizeof(want), "\"filtered_lines\":%d", filtered);
    if (filtered) {
        assert_non_null(strstr(out, want));
    } else {
        assert_null(strstr(out, "\"filtered_lines\""));
    }
}

/* The JSON record of crawler name in out (to the next record), or NULL */
static const char *
record(const char *out, const char *name, char *rec, size_t cap)
{
    char         key[128];
    const char  *p, *e;
    size_t       n;

    snprintf(key, sizeof(key), "{\"crawler\":\"%s\"", name);
    p = strstr(out, key);
    if (p == NULL) {
        return NULL;
    }
    e = strstr(p + 1, "{\"crawler\":\"");
    n = e != NULL ? (size_t) (e - p) : strlen(p);
    n = n < cap - 1 ? n : cap - 1;
    memcpy(rec, p, n);
    rec[n] = '\0';
    return rec;
}

/* The core's decisions, without the CLI */
static void
test_filter_core(void **state)
{
    static const struct {
        ra_logfilter_opt_e   opt;
        const char          *arg;
        int                  ok;
    } opts[] = {
        { RA_LOGFILTER_STATUS, "4xx", 1 },
        { RA_LOGFILTER_STATUS, "503", 1 },
        { RA_LOGFILTER_STATUS, "6xx", 0 },
        { RA_LOGFILTER_STATUS, "99", 0 },
        { RA_LOGFILTER_EXCLUDE_CLIENT, "2001:db8::/32", 1 },
        { RA_LOGFILTER_EXCLUDE_CLIENT, "192.0.2.7", 1 },
        { RA_LOGFILTER_EXCLUDE_CLIENT, "192.0.2/8", 0 },
        { RA_LOGFILTER_SINCE, "2h", 1 },
        { RA_LOGFILTER_SINCE, "2h ago", 0 },
        { RA_LOGFILTER_CRAWLER, "", 0 }
    };
    ra_logfilter_t       f;
    ra_logfilter_line_t  l;
    int64_t              t, now = 1764331200000LL;  /* 2025-11-28T12:00Z */
    const char          *err;
    size_t               i;

    (void) state;
    assert_int_equal(ra_logfilter_time(ra_str("2025-11-28", 10), 0, &t),
                     RA_OK);
    assert_true(t == 1764288000000LL);
    assert_int_equal(ra_logfilter_time(ra_str("2025-11-28T12:00", 16), 0,
                                       &t), RA_OK);
    assert_true(t == now);
    assert_int_equal(ra_logfilter_time(ra_str("2025-11-28 13:00:00+01:00",
                                              25), 0, &t), RA_OK);
    assert_true(t == now);
    assert_int_equal(ra_logfilter_time(ra_str("2025-11-28T07:00:00-0500",
                                              24), 0, &t), RA_OK);
    assert_true(t == now);
    assert_int_equal(ra_logfilter_time(ra_str("2025-11-28T12:00:00.5Z",
                                              22), 0, &t), RA_OK);
    assert_true(t == now + 500);
    assert_int_equal(ra_logfilter_time(ra_str("24h", 3), now, &t), RA_OK);
    assert_true(t == now - 86400000LL);
    assert_int_equal(ra_logfilter_time(ra_str("7d", 2), now, &t), RA_OK);
    assert_true(t == now - 7 * 86400000LL);
    assert_int_equal(ra_logfilter_time(ra_str("30m", 3), now, &t), RA_OK);
    assert_true(t == now - 1800000LL);
    assert_int_equal(ra_logfilter_time(ra_str("24", 2), now, &t), RA_ERROR);
    assert_int_equal(ra_logfilter_time(ra_str("h", 1), now, &t), RA_ERROR);
    assert_int_equal(ra_logfilter_time(ra_str("2025-13-01", 10), 0, &t),
                     RA_ERROR);
    assert_int_equal(ra_logfilter_time(ra_str("2025-11-28T25:00", 16), 0,
                                       &t), RA_ERROR);
    assert_int_equal(ra_logfilter_time(ra_str("2025-11-28T12:00+1", 18), 0,
                                       &t), RA_ERROR);

    ra_logfilter_init(&f);
    assert_false(ra_logfilter_active(&f));
    for (i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
        err = ra_logfilter_opt(&f, opts[i].opt,
                               ra_str(opts[i].arg, strlen(opts[i].arg)), now);
        assert_true((err == NULL) == opts[i].ok);
    }
    assert_true(ra_logfilter_active(&f));

    memset(&l, 0, sizeof(l));
    l.time = now;
    l.site = ra_str("default", 7);
    l.client = ra_str("192.0.2.8", 9);
    l.status = 404;
    assert_int_equal(ra_logfilter_decide(&f, &l), RA_LOGFILTER_KEEP);
    l.status = 503;
    assert_int_equal(ra_logfilter_decide(&f, &l), RA_LOGFILTER_KEEP);
    l.status = 200;
    assert_int_equal(ra_logfilter_decide(&f, &l), RA_LOGFILTER_KNOW);
    l.status = 410;
    l.client = ra_str("192.0.2.7", 9);              /* a /32 */
    assert_int_equal(ra_logfilter_decide(&f, &l), RA_LOGFILTER_KNOW);
    l.client = ra_str("2001:db8:ff::1", 14);
    assert_int_equal(ra_logfilter_decide(&f, &l), RA_LOGFILTER_KNOW);
    l.client = ra_str("2001:db9::1", 11);
    assert_int_equal(ra_logfilter_decide(&f, &l), RA_LOGFILTER_KEEP);
    l.time = now - 2 * 3600000LL - 1;               /* before --since */
    assert_int_equal(ra_logfilter_decide(&f, &l), RA_LOGFILTER_KNOW);

    assert_null(ra_logfilter_opt(&f, RA_LOGFILTER_UNTIL, ra_str("1h", 2),
                                 now));
    l.time = now - 3600000LL;                       /* --until excluded */
    assert_int_equal(ra_logfilter_decide(&f, &l), RA_LOGFILTER_DROP);
    l.time = now - 3600000LL - 1;
    assert_int_equal(ra_logfilter_decide(&f, &l), RA_LOGFILTER_KEEP);
    assert_null(ra_logfilter_opt(&f, RA_LOGFILTER_SITE,
                                 ra_str("A.example", 9), now));
    assert_int_equal(ra_logfilter_decide(&f, &l), RA_LOGFILTER_DROP);
    l.site = ra_str("a.EXAMPLE", 9);
    assert_int_equal(ra_logfilter_decide(&f, &l), RA_LOGFILTER_KEEP);
}

/* --since: the fetch cut off still binds Googlebot; --until; relative
 * times against RA_LOGS_NOW; an offset */
static void
test_filter_time(void **state)
{
    char        *out = malloc(OUT_MAX), *all = malloc(OUT_MAX);
    char         rec[8192], rec_all[8192];

    (void) state;
    ra_test_need_cli();
    assert_non_null(out);
    assert_non_null(all);

    json(all, DATA "mixed.log", 0);
    assert_non_null(record(all, "Googlebot", rec_all, sizeof(rec_all)));
    assert_non_null(strstr(rec_all, "\"requests\":4,\"robots_fetches\":1,"
                                     "\"compliant\":2,\"violation\":1,"));
    assert_non_null(strstr(rec_all, "\"no_robots_fetch\":0,"));

    /* the robots.txt fetch at 10:00 is left out: the three requests kept
     * are judged as before, none of them without a fetch */
    json(out, "--since 2026-11-27T10:15:00Z " DATA "mixed.log", 1);
    assert_non_null(record(out, "Googlebot", rec, sizeof(rec)));
    assert_non_null(strstr(rec, "\"requests\":3,\"robots_fetches\":0,"
                                "\"compliant\":2,\"violation\":1,"));
    assert_non_null(strstr(rec, "\"no_robots_fetch\":0,"));
    /* bingbot fetched none, filter or not */
    assert_non_null(record(out, "bingbot", rec, sizeof(rec)));
    assert_non_null(strstr(rec, "\"no_robots_fetch\":2,"));

    /* the text report says it too */
    assert_int_equal(sh(out, LOGS "--since 2026-11-27T10:15:00Z "
                        DATA "mixed.log"), 0);
    assert_non_null(strstr(out, "8 lines, 0 malformed, 0 skipped, 1 left "
                                "out by the filters"));

    /* --until is excluded: 12:00 and after are out */
    json(out, "--until 2026-11-27T12:00:00Z " DATA "mixed.log", 4);
    assert_null(strstr(out, "/private/x"));
    assert_null(strstr(out, "/private/y"));
    assert_null(strstr(out, "MailRuBot"));

    /* relative to a fixed now (an ISO time, and Unix seconds) */
    json(out, "--since 90m " DATA "mixed.log", 3);
    json(out, "--since 1d --until 10m " DATA "mixed.log", 1);
    assert_int_equal(sh(out, "RA_LOGS_NOW=1795784400 " LOGS
                        "--format json --since 2h " DATA "mixed.log"), 0);
    assert_non_null(strstr(out, "\"filtered_lines\":2"));

    /* 12:00+01:00 is 11:00Z; a date alone is its midnight, UTC */
    json(out, "--since 2026-11-27T12:00+01:00 " DATA "mixed.log", 2);
    json(out, "--until 2026-11-27 " DATA "mixed.log", 8);

    /* what does not read */
    assert_int_equal(sh(out, LOGS "--since yesterday " DATA "mixed.log "
                        "2>&1"), 2);
    assert_non_null(strstr(out, "--since 'yesterday' is not a time"));
    assert_int_equal(sh(out, LOGS "--since 2026-11-27T12:00Z --until "
                        "2026-11-27T11:00Z " DATA "mixed.log 2>&1"), 2);
    assert_non_null(strstr(out, "--until is not after --since"));
    free(out);
    free(all);
}

/* --crawler by name, token, case, "generic" and "impostor"; --status;
 * --exclude-client IPv4 and IPv6 */
static void
test_filter_who(void **state)
{
    char  *out = malloc(OUT_MAX);
    char   rec[8192];

    (void) state;
    ra_test_need_cli();
    assert_non_null(out);

    json(out, "--crawler BINGBOT " DATA "mixed.log", 6);
    assert_null(strstr(out, "{\"crawler\":\"Googlebot\""));
    assert_non_null(record(out, "bingbot", rec, sizeof(rec)));
    assert_non_null(strstr(rec, "\"requests\":2,"));

    /* a robots.txt token (MailRuBot's is Mail.RU_Bot), and generic */
    json(out, "--crawler mail.ru_bot --crawler generic " DATA "mixed.log",
         6);
    assert_non_null(strstr(out, "{\"crawler\":\"MailRuBot\""));
    assert_non_null(strstr(out, "{\"crawler\":\"ZorkleBot\""));
    assert_null(strstr(out, "{\"crawler\":\"bingbot\""));
    /* a generic bot's own token */
    assert_int_equal(sh(out, LOGS "--crawler zorklebot " DATA "mixed.log "
                        "2>&1 >/dev/null"), 0);
    assert_non_null(strstr(out, "--crawler zorklebot: no crawler of the "
                                "table"));
    json(out, "--crawler zorklebot " DATA "mixed.log", 7);

    /* impostor: a table crawler's User-Agent its ranges do not hold */
    json(out, "--ranges " DATA "googlebot.json --crawler IMPOSTOR "
         DATA "impostor.log", 3);
    assert_non_null(strstr(out, "\"verification\":\"impostor\""));
    assert_null(strstr(out, "\"verification\":\"verified\""));
    assert_null(strstr(out, "{\"crawler\":\"bingbot\""));
    json(out, "--ranges " DATA "googlebot.json --crawler googlebot "
         DATA "impostor.log", 1);
    assert_non_null(strstr(out, "\"verification\":\"impostor\""));
    assert_non_null(strstr(out, "\"verification\":\"verified\""));

    /* the fetch of Googlebot (status 200) is left out by --status 4xx:
     * its 404 is still no request without a fetch */
    json(out, "--status 4xx " DATA "mixed.log", 7);
    assert_non_null(record(out, "Googlebot", rec, sizeof(rec)));
    assert_non_null(strstr(rec, "\"requests\":1,"));
    assert_non_null(strstr(rec, "\"no_robots_fetch\":0,"));
    json(out, "--status 503 --status 404 " DATA "mixed.log", 6);
    assert_int_equal(sh(out, LOGS "--status 2XX --status 6xx "
                        DATA "mixed.log 2>&1"), 2);
    assert_non_null(strstr(out, "--status '6xx' is not a status"));

    /* an IPv6 range, a bare IPv6 address (/128), an IPv4 one (/32) */
    json(out, "--exclude-client 2001:db8::/32 " DATA "mixed.log", 2);
    assert_null(strstr(out, "{\"crawler\":\"bingbot\""));
    json(out, "--exclude-client 2001:db8:1::7 " DATA "mixed.log", 1);
    assert_non_null(record(out, "bingbot", rec, sizeof(rec)));
    assert_non_null(strstr(rec, "\"requests\":1,"));
    json(out, "--exclude-client 66.249.66.2 " DATA "mixed.log", 1);
    assert_non_null(record(out, "Googlebot", rec, sizeof(rec)));
    assert_non_null(strstr(rec, "\"requests\":3,"));
    /* every Googlebot line out: it is not listed, though its fetch was
     * recorded */
    json(out, "--exclude-client 66.249.66.0/24 " DATA "mixed.log", 4);
    assert_null(strstr(out, "{\"crawler\":\"Googlebot\""));
    assert_int_equal(sh(out, LOGS "--exclude-client 2001:db8::/129 "
                        DATA "mixed.log 2>&1"), 2);
    assert_non_null(strstr(out, "is not an address or CIDR range"));

    /* every format says it */
    assert_int_equal(sh(out, LOGS "--format prometheus --status 5xx "
                        DATA "mixed.log"), 0);
    assert_non_null(strstr(out, "robots_audit_log_lines_total"
                                "{result=\"filtered\"} 7\n"));
    assert_non_null(strstr(out, "robots_audit_log_lines_total"
                                "{result=\"parsed\"} 1\n"));
    assert_int_equal(sh(out, LOGS "--format html --status 5xx "
                        DATA "mixed.log"), 0);
    assert_non_null(strstr(out, "7 left out by the filters"));
    assert_int_equal(sh(out, LOGS "--format csv --crawler bingbot "
                        DATA "mixed.log"), 0);
    assert_non_null(strstr(out, "/private/x"));
    assert_null(strstr(out, "/private/y"));
    free(out);
}

/* --site over a multi-site log; the filters under --follow */
static void
test_filter_site_follow(void **state)
{
    char  *out = malloc(OUT_MAX);

    (void) state;
    ra_test_need_cli();
    assert_non_null(out);

    json(out, "--site b.example " DATA "vhosts.log", 3);
    assert_non_null(strstr(out, "\"site\":\"b.example\""));
    assert_null(strstr(out, "\"site\":\"a.example\""));
    assert_null(strstr(out, "\"site\":\"c.example\""));
    json(out, "--site a.example --site C.example " DATA "vhosts.log", 2);
    assert_non_null(strstr(out, "\"site\":\"a.example\""));
    assert_non_null(strstr(out, "\"site\":\"c.example\""));
    assert_null(strstr(out, "\"site\":\"b.example\""));
    /* a log without a host field: its lines are the --site's, kept */
    json(out, DATA "mixed.log --site x.example", 0);
    assert_non_null(strstr(out, "\"site\":\"x.example\""));

    /* --follow reads stdin to its end, filtered the same way */
    json(out, "--follow --crawler bingbot --since 2026-11-27T10:15Z - < "
         DATA "mixed.log", 6);
    assert_null(strstr(out, "{\"crawler\":\"Googlebot\""));
    free(out);
}

/* newest first reads as oldest first (.gz included); a warning only where
 * the files overlap */
static void
test_order(void **state)
{
    char    *a = malloc(OUT_MAX), *b = malloc(OUT_MAX), *err = malloc(4096);
    char     gz[] = "/tmp/ra-day2-XXXXXX.gz", cmd[1024], rec[8192];
    FILE    *f;
    gzFile   z;
    char     line[1024];
    int      fd;

    (void) state;
    ra_test_need_cli();
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(err);
    fd = mkstemps(gz, 3);
    assert_true(fd >= 0);
    z = gzdopen(fd, "wb");
    f = fopen(DATA "day2.log", "r");
    assert_non_null(z);
    assert_non_null(f);
    while (fgets(line, sizeof(line), f) != NULL) {
        gzputs(z, line);
    }
    fclose(f);
    gzclose(z);

    assert_int_equal(sh(a, LOGS "--format json " DATA "day1.log "
                        DATA "day2.log"), 0);
    snprintf(cmd, sizeof(cmd), LOGS "--format json %s " DATA "day1.log "
             "2>/dev/null", gz);
    assert_int_equal(sh(b, cmd), 0);
    assert_string_equal(a, b);
    assert_non_null(record(a, "Googlebot", rec, sizeof(rec)));
    assert_non_null(strstr(rec, "\"no_robots_fetch\":0,"));

    /* oldest first: nothing said; newest first: the order, no overlap */
    assert_int_equal(sh(err, LOGS DATA "day1.log " DATA "day2.log "
                        "2>&1 >/dev/null"), 0);
    assert_string_equal(err, "");
    snprintf(cmd, sizeof(cmd), LOGS "%s " DATA "day1.log 2>&1 >/dev/null",
             gz);
    assert_int_equal(sh(err, cmd), 0);
    assert_non_null(strstr(err, "read in time order"));
    assert_null(strstr(err, "overlaps"));

    /* overlap.log starts inside day1.log's span */
    assert_int_equal(sh(err, LOGS DATA "day2.log " DATA "overlap.log "
                        DATA "day1.log 2>&1 >/dev/null"), 0);
    assert_non_null(strstr(err, "read in time order (of their first "
                                "lines): " DATA "day1.log " DATA
                                "overlap.log " DATA "day2.log"));
    assert_non_null(strstr(err, DATA "overlap.log (from "
                                "2026-11-27T10:15:00Z) overlaps " DATA
                                "day1.log (to 2026-11-27T10:30:00Z)"));
    assert_null(strstr(err, "day2.log (from"));
    unlink(gz);
    free(a);
    free(b);
    free(err);
}

/* the log's 200 answers to GET /robots.txt were 0 bytes, the file 34 */
static void
test_size_warning(void **state)
{
    char  *err = malloc(OUT_MAX);
    char  *p;

    (void) state;
    ra_test_need_cli();
    assert_non_null(err);

    assert_int_equal(sh(err, LOGS DATA "sizes.log 2>&1 >/dev/null"), 0);
    p = strstr(err, "warning: robots.txt answers in " DATA "sizes.log were "
                    "0 bytes, --robots " DATA "robots.txt has 34 bytes "
                    "(site default)");
    assert_non_null(p);
    /* once per site */
    assert_null(strstr(p + 10, "robots.txt answers in"));
    assert_int_equal(sh(err, LOGS DATA "vhosts.log 2>&1 >/dev/null"), 0);
    assert_null(strstr(err, "robots.txt answers in"));
    assert_int_equal(sh(err, LOGS DATA "mixed.log 2>&1 >/dev/null"), 0);
    assert_null(strstr(err, "robots.txt answers in"));
    /* a JSON line without the size says nothing of it */
    assert_int_equal(sh(err, LOGS "--json-fields client=client,time=t,"
                        "method=m,uri=u,status=s,ua=ua,bytes=b "
                        DATA "nobytes.json 2>&1 >/dev/null"), 0);
    assert_null(strstr(err, "robots.txt answers in"));
    free(err);
}

int
main(void)
{
    const struct CMUnitTest  tests[] = {
        cmocka_unit_test(test_filter_core),
        cmocka_unit_test(test_filter_time),
        cmocka_unit_test(test_filter_who),
        cmocka_unit_test(test_filter_site_follow),
        cmocka_unit_test(test_order),
        cmocka_unit_test(test_size_warning),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
