/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Undeclared crawlers in 'robots-audit logs', as a user runs it over
 * tests/data/logs-undeclared/: a crawler in Chrome's clothes that reads
 * robots.txt, a scraper over one IPv6 /64 that never does, an impossible
 * Firefox, a person who follows a link into a disallowed path (never
 * flagged) and Googlebot (a declared crawler, not the detector's).  Each
 * format shows them: JSON sites[].undeclared[], the text heading,
 * Prometheus, CSV evidence rows, the RA104 alert log and the evidence
 * log; fail2ban's mode=undeclared bans them (skipped without
 * fail2ban-regex); cloud ranges add their signal; the real log's clients
 * behind one address are people, not one crawler (skipped without
 * ../shared/data).  Runs build/robots-audit from the repository root;
 * skips when it is absent.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ra_test.h"

#define DATA    "tests/data/logs-undeclared/"
#define LOGS    RA_TEST_CLI " logs --robots " DATA "robots.txt "
#define OUT_MAX (256 * 1024)

static char  out[OUT_MAX];

static void
run(const char *args)
{
    char  cmd[1024];

    ra_test_need_cli();
    snprintf(cmd, sizeof(cmd), LOGS "%s " DATA "access.log 2>/dev/null",
             args);
    assert_int_equal(ra_test_sh(cmd, out, sizeof(out)), 0);
}

static void
json_lists_flagged_clients_with_their_verdicts(void **state)
{
    (void) state;
    run("--format json");
    assert_non_null(strstr(out,
        "\"undeclared\":[{\"client\":\"203.0.113.5\",\"user_agents\":"
        "[\"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 "
        "(KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36\"],"
        "\"signals\":[\"robots.txt\"],\"score\":100,\"requests\":9,"
        "\"violation\":2,\"compliant\":6,"
        "\"first_seen\":\"2026-11-27T12:00:10Z\","
        "\"last_seen\":\"2026-11-27T12:00:33Z\"}"));
    /* the /64's whole window, judged once it was flagged */
    assert_non_null(strstr(out,
        "{\"client\":\"2001:db8:5:6::/64\",\"user_agents\":"));
    assert_non_null(strstr(out,
        "\"signals\":[\"no-subresources\",\"no-referer-chain\","
        "\"regular-rate\"],\"score\":130,\"requests\":15,\"violation\":1,"
        "\"compliant\":14,"));
    assert_non_null(strstr(out,
        "{\"client\":\"192.0.2.44\",\"user_agents\":[\"Mozilla/5.0 "
        "(Windows NT 10.0; rv:91.0) Gecko/20100101 Firefox/133.0\"],"
        "\"signals\":[\"disallowed\",\"impossible-ua\"],\"score\":100,"
        "\"requests\":1,\"violation\":1,\"compliant\":0,"));
    /* never the person, never the declared crawler */
    assert_null(strstr(out, "\"client\":\"198.51.100.20\""));
    assert_null(strstr(out, "\"client\":\"66.249.66.1\",\"user_agents\""));
}

static void
text_prometheus_and_csv_show_them(void **state)
{
    (void) state;
    run("--format text");
    assert_non_null(strstr(out, "  undeclared crawlers (a browser's "
                                "User-Agent, a crawler's behaviour; judged "
                                "against '*'):\n"));
    assert_non_null(strstr(out, "  2001:db8:5:6::/64"));
    run("--format prometheus");
    assert_non_null(strstr(out,
        "robots_audit_undeclared_clients{site=\"default\"} 3\n"));
    assert_non_null(strstr(out,
        "robots_audit_requests_total{site=\"default\",crawler="
        "\"undeclared\",verification=\"unverifiable\",verdict="
        "\"violation\"} 4\n"));
    assert_non_null(strstr(out,
        "robots_audit_requests_total{site=\"default\",crawler="
        "\"undeclared\",verification=\"unverifiable\",verdict="
        "\"compliant\"} 20\n"));
    run("--format csv");
    assert_non_null(strstr(out,
        "2026-11-27T12:00:24Z,default,undeclared,unverifiable,,203.0.113.5,"
        "GET,/private/doc4,/private/,2,,,\r\n"));
    assert_non_null(strstr(out,
        "2026-11-27T12:03:20Z,default,undeclared,unverifiable,,192.0.2.44,"
        "GET,/private/a,/private/,2,,,\r\n"));
    assert_null(strstr(out, "198.51.100.20"));
}

/* Cloud ranges through --ranges (tests/data/cloud/, hand-written in the
 * providers' shapes): a client in them shows the "cloud" signal, and is
 * flagged sooner for it; the person in Google Cloud's fixture range is
 * still never flagged, since the signal alone (30) and a disallowed path
 * (50) do not reach the threshold. */
static void
cloud_ranges_add_the_cloud_signal(void **state)
{
    (void) state;
    run("--ranges tests/data/cloud/cloud-aws.json --ranges "
        "tests/data/cloud/cloud-google.json --format json");
    assert_non_null(strstr(out,
        "{\"client\":\"203.0.113.5\",\"user_agents\":[\"Mozilla/5.0 "
        "(Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like "
        "Gecko) Chrome/131.0.0.0 Safari/537.36\"],\"signals\":"
        "[\"robots.txt\",\"cloud\"],\"score\":130,\"requests\":9,"));
    assert_non_null(strstr(out,
        "\"signals\":[\"no-subresources\",\"no-referer-chain\","
        "\"regular-rate\",\"cloud\"],\"score\":120,\"requests\":15,"));
    /* not in a cloud range: as before */
    assert_non_null(strstr(out,
        "\"signals\":[\"disallowed\",\"impossible-ua\"],\"score\":100,"));
    assert_null(strstr(out, "\"client\":\"198.51.100.20\""));

    run("--ranges tests/data/cloud/cloud-aws.json --format text");
    assert_non_null(strstr(out, "  203.0.113.5                         "
                                "             9         6         2   130 "
                                "robots.txt,cloud\n"));
}

static void
alert_and_evidence_logs(void **state)
{
    char  alerts[64], evidence[64], cmd[512];

    (void) state;
    ra_test_tmp_file(alerts, "", 0);
    ra_test_tmp_file(evidence, "", 0);
    snprintf(cmd, sizeof(cmd), "--alert-log %s --evidence-log %s "
             "--format json --output /dev/null", alerts, evidence);
    run(cmd);
    snprintf(cmd, sizeof(cmd), "grep -c '\"tag\":\"RA104\"' %s", alerts);
    assert_int_equal(ra_test_sh(cmd, out, sizeof(out)), 0);
    assert_string_equal(out, "4\n");
    snprintf(cmd, sizeof(cmd), "grep '\"client\":\"192.0.2.44\"' %s",
             alerts);
    assert_int_equal(ra_test_sh(cmd, out, sizeof(out)), 0);
    assert_non_null(strstr(out,
        "\"crawler\":\"undeclared\",\"client\":\"192.0.2.44\",\"method\":"
        "\"GET\",\"uri\":\"/private/a\",\"rule\":\"/private/\",\"line\":2,"
        "\"score\":100,\"signals\":[\"disallowed\",\"impossible-ua\"]"));
    snprintf(cmd, sizeof(cmd), "grep '\"crawler\":\"undeclared\"' %s",
             evidence);
    assert_int_equal(ra_test_sh(cmd, out, sizeof(out)), 0);
    assert_non_null(strstr(out,
        "{\"time\":\"2026-11-27T12:02:10Z\",\"site\":\"default\","
        "\"crawler\":\"undeclared\",\"verification\":\"unverifiable\","
        "\"verified_by\":null,\"client\":\"2001:db8:5:6::/64\",\"method\":"
        "\"GET\",\"uri\":\"/private/x\",\"rule\":\"/private/\",\"line\":2,"));
    unlink(alerts);
    unlink(evidence);
}

/* The real log's people and bots, all behind one address (a balancer
 * that does not pass the client's address on): some of them read
 * robots.txt or a disallowed path, and the address loads subresources
 * from many browsers, so it is people's, never one undeclared crawler.
 * The same lines with their own addresses flag the clients they did. */
static void
one_address_of_many_people_is_not_flagged(void **state)
{
    char  cmd[1024];

    (void) state;
    RA_TEST_NEED_SHARED();
    ra_test_need_cli();
    snprintf(cmd, sizeof(cmd), "sed 's/^[^ ]* /10.1.2.3 /' "
             "%s/logs/elastic-apache/apache_logs | " LOGS
             "--format json - 2>/dev/null", ra_test_shared());
    assert_int_equal(ra_test_sh(cmd, out, sizeof(out)), 0);
    assert_non_null(strstr(out, "\"undeclared\":[]"));
    snprintf(cmd, sizeof(cmd), LOGS "--format json "
             "%s/logs/elastic-apache/apache_logs 2>/dev/null",
             ra_test_shared());
    assert_int_equal(ra_test_sh(cmd, out, sizeof(out)), 0);
    assert_null(strstr(out, "\"undeclared\":[]"));
    assert_non_null(strstr(out, "\"undeclared\":[{\"client\":"));
}

static void
fail2ban_mode_undeclared(void **state)
{
    char  alerts[64], cmd[512];

    (void) state;
    if (ra_test_sh("command -v fail2ban-regex", out, sizeof(out)) != 0) {
        print_message("skip: fail2ban-regex is not installed\n");
        skip();
    }
    ra_test_tmp_file(alerts, "", 0);
    snprintf(cmd, sizeof(cmd), "--alert-log %s --output /dev/null", alerts);
    run(cmd);
    /* the three clients' four violations, the /64 as one; never the
     * RA100 line of Googlebot in the same file */
    snprintf(cmd, sizeof(cmd), "fail2ban-regex --print-all-matched %s "
             "'contrib/fail2ban/filter.d/robots-audit.conf"
             "[mode=undeclared]' 2>&1", alerts);
    assert_int_equal(ra_test_sh(cmd, out, sizeof(out)), 0);
    assert_non_null(strstr(out, "4 matched, 1 missed"));
    assert_non_null(strstr(out, "\"client\":\"2001:db8:5:6::/64\""));
    unlink(alerts);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(json_lists_flagged_clients_with_their_verdicts),
        cmocka_unit_test(text_prometheus_and_csv_show_them),
        cmocka_unit_test(cloud_ranges_add_the_cloud_signal),
        cmocka_unit_test(alert_and_evidence_logs),
        cmocka_unit_test(fail2ban_mode_undeclared),
        cmocka_unit_test(one_address_of_many_people_is_not_flagged),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
