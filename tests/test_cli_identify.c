/* SPDX-License-Identifier: BSD-2-Clause */
/* 'robots-audit identify' end to end: both output formats, stdin, the
 * operator's crawler file, exit codes.  Runs build/robots-audit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "ra_test.h"
#include "ra_crawlers.h"

#define BIN  "./build/robots-audit"

static void
json_lines(void **state)
{
    char  out[8192];

    (void) state;
    assert_int_equal(
        ra_test_sh(
            BIN " identify --format json 'Mozilla/5.0 "
                "(compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)' "
                "'curl/8.4.0' 'FetchTool/8.4.0' "
                "'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) "
                "Gecko/20100101 Firefox/125.0'",
            out, sizeof(out)),
        0);
    assert_non_null(strstr(out, "{\"user_agent\":\"Mozilla/5.0 (compatible;"
        " bingbot/2.0; +http://www.bing.com/bingbot.htm)\",\"crawler\":"
        "\"bingbot\",\"token\":\"bingbot\",\"category\":\"search\","
        "\"operator\":\"Microsoft\",\"tokens\":[\"bingbot\"],\"flags\":"
        "[\"crawl-delay\"],\"generic\":false,\"no_user_agent\":false,"
        "\"verification\":null,\"verified_by\":null}\n"));
    /* curl is the table's library entry, of purpose tool */
    assert_non_null(strstr(out, "\"user_agent\":\"curl/8.4.0\",\"crawler\":"
        "\"curl\",\"token\":\"curl\",\"category\":\"tool\""));
    assert_non_null(strstr(out, "\"user_agent\":\"FetchTool/8.4.0\","
        "\"crawler\":null,\"token\":\"FetchTool\""));
    assert_non_null(strstr(out, "\"generic\":true"));
    assert_non_null(strstr(out, "Firefox/125.0\",\"crawler\":null,"
        "\"token\":null"));
}

/* An empty User-Agent, or "-" as access logs write an absent one, is no
 * user agent: not a browser (the ledger counts it apart as well). */
static void
no_user_agent(void **state)
{
    char  out[8192];

    (void) state;
    assert_int_equal(ra_test_sh(BIN " identify '' '-' --", out, sizeof(out)),
                     0);
    assert_string_equal(out, "no user agent ua=\"\"\n"
                             "no user agent ua=\"-\"\n"
                             "browser ua=\"--\"\n");
    assert_int_equal(
        ra_test_sh("printf '\\n-\\nMozilla/5.0 Firefox/1\\n' | " BIN
                   " identify --format json --address 192.0.2.1",
                   out, sizeof(out)),
        0);
    assert_non_null(strstr(out, "{\"user_agent\":\"\",\"crawler\":null,"
        "\"token\":null,\"category\":null,\"operator\":null,\"tokens\":[],"
        "\"flags\":[],\"generic\":false,\"no_user_agent\":true,"
        "\"verification\":\"unverifiable\",\"verified_by\":null}\n"));
    assert_non_null(strstr(out, "{\"user_agent\":\"-\",\"crawler\":null,"
        "\"token\":null,\"category\":null,\"operator\":null,\"tokens\":[],"
        "\"flags\":[],\"generic\":false,\"no_user_agent\":true,"));
    assert_non_null(strstr(out, "Firefox/1\",\"crawler\":null,\"token\":"
        "null,\"category\":null,\"operator\":null,\"tokens\":[],\"flags\":"
        "[],\"generic\":false,\"no_user_agent\":false,"));
    assert_true(ra_ua_absent(ra_str("", 0)));
    assert_true(ra_ua_absent(ra_str("-", 1)));
    assert_false(ra_ua_absent(ra_str("--", 2)));
    assert_false(ra_ua_absent(ra_str(" ", 1)));
}

static void
text_and_stdin(void **state)
{
    char  out[8192];

    (void) state;
    assert_int_equal(ra_test_sh("printf 'AdsBot-Google (+http://www.google.com/"
                                "adsbot.html)\\nfoo\\001bar\\n' | " BIN
                                " identify",
                                out, sizeof(out)),
                     0);
    assert_non_null(strstr(out, "crawler AdsBot-Google token=AdsBot-Google "
        "category=tool operator=\"Google\" ua=\"AdsBot-Google (+http://www."
        "google.com/adsbot.html)\"\n"));
    /* control bytes are escaped in text output */
    assert_non_null(strstr(out, "foo\\x01bar"));
}

static void
verification_and_operator_file(void **state)
{
    char   out[8192], cmd[1024];
    FILE  *f;

    (void) state;
    f = fopen("build/tests/googlebot.json", "w");
    assert_non_null(f);
    fputs("{\"creationTime\":\"x\",\"prefixes\":[{\"ipv4Prefix\":"
          "\"66.249.64.0/19\"}]}", f);
    fclose(f);
    f = fopen("build/tests/crawlers.txt", "w");
    assert_non_null(f);
    fputs("# ours\ncrawler AcmeBot\nua acmebot\ntokens AcmeBot\n"
          "operator Acme\ncategory monitoring\nflags user-triggered\n\n"
          "crawler Googlebot\ntokens Googlebot\noperator Us\ncategory seo\n"
          "ranges other.json\n", f);
    fclose(f);

    /* the built-in Googlebot names googlebot.json: the file's base name */
    snprintf(cmd, sizeof(cmd), BIN " identify --format json --ranges "
             "build/tests/googlebot.json --address 66.249.70.1 "
             "'Googlebot/2.1'");
    assert_int_equal(ra_test_sh(cmd, out, sizeof(out)), 0);
    assert_non_null(strstr(out, "\"verification\":\"verified\","
                                "\"verified_by\":\"ranges\"}\n"));
    snprintf(cmd, sizeof(cmd), BIN " identify --format json --ranges "
             "build/tests/googlebot.json --address ::ffff:10.0.0.1 "
             "'Googlebot/2.1'");
    assert_int_equal(ra_test_sh(cmd, out, sizeof(out)), 0);
    assert_non_null(strstr(out, "\"verification\":\"impostor\","
                                "\"verified_by\":\"ranges\"}\n"));
    /* text: how it was decided, after the verification */
    snprintf(cmd, sizeof(cmd), BIN " identify --ranges "
             "build/tests/googlebot.json --address 66.249.70.1 "
             "'Googlebot/2.1'");
    assert_int_equal(ra_test_sh(cmd, out, sizeof(out)), 0);
    assert_non_null(strstr(out, " verification=verified verified_by=ranges "
                                "ua=\"Googlebot/2.1\"\n"));

    /* the operator's entry replaces the built-in one */
    snprintf(cmd, sizeof(cmd), BIN " identify --format json --ranges "
             "build/tests/googlebot.json --address 66.249.70.1 --crawlers "
             "build/tests/crawlers.txt 'Googlebot/2.1' 'AcmeBot/1.0'");
    assert_int_equal(ra_test_sh(cmd, out, sizeof(out)), 0);
    assert_non_null(strstr(out, "\"operator\":\"Us\""));
    assert_non_null(strstr(out, "\"verification\":\"unverifiable\""));
    assert_non_null(strstr(out, "\"crawler\":\"AcmeBot\",\"token\":\"AcmeBot"
        "\",\"category\":\"monitoring\""));
    assert_non_null(strstr(out, "\"flags\":[\"user-triggered\"]"));

    /* every flag of the table's format, not only the first four */
    assert_int_equal(ra_test_sh(BIN " identify --format json "
                                "'curl/8.5.0'",
                                out, sizeof(out)), 0);
    assert_non_null(strstr(out, "\"flags\":[\"library\"]"));
}

static void
usage_errors(void **state)
{
    char  out[8192];

    (void) state;
    assert_int_equal(ra_test_sh(BIN " identify --help", out, sizeof(out)), 0);
    assert_non_null(strstr(out, "usage: robots-audit identify"));
    assert_int_equal(ra_test_sh(BIN " identify --address 1.2.3 x 2>/dev/null",
                                out, sizeof(out)),
                     2);
    assert_int_equal(ra_test_sh(BIN
                                " identify --ranges /nonexistent x 2>/dev/null",
                                out, sizeof(out)),
                     2);
    assert_int_equal(
        ra_test_sh("printf '{\"prefixes\":[' > build/tests/bad.json; " BIN
                   " identify --ranges build/tests/bad.json x "
                   "2>/dev/null",
                   out, sizeof(out)),
        2);
    assert_int_equal(
        ra_test_sh("printf 'crawler X\\ncolour red\\n' > build/tests/"
                   "bad.txt; " BIN " identify --crawlers build/tests/"
                   "bad.txt x 2>&1",
                   out, sizeof(out)),
        2);
    /* the message every front end gives (ra_setup_crawlers_file) */
    assert_non_null(strstr(out, "robots-audit identify: crawler file "
                                "\"build/tests/bad.txt\", line 2: unknown "
                                "key"));
    assert_int_equal(ra_test_sh(BIN " identify --format yaml x 2>/dev/null",
                                out, sizeof(out)),
                     2);
}

/* Web Bot Auth: the draft's Ed25519 vector (RFC 9421's test key) with a
 * browser's User-Agent is the crawler the operator's table maps its
 * origin to; the same signature altered makes an impostor of it */
static void
signatures(void **state)
{
    char   dir[] = "/tmp/ra-id-sig-XXXXXX", path[256], cmd[4096], out[8192];
    FILE  *f;
    static const char  hdrs[] =
        " --header 'Host: example.com'"
        " --header 'Signature-Agent: sig2=\"https://signature-agent.test\"'"
        " --header 'Signature-Input: sig2=(\"@authority\" "
        "\"signature-agent\";key=\"sig2\");created=1735689600;"
        "keyid=\"poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U\";"
        "alg=\"ed25519\";expires=4889289600;nonce=\"n9p433xm+NJ3ph3upfBIGm"
        "suwHw387YV7Q/F+6BSpGCVjYCqQw6rznNA8PVVLySrAWsv0hQtFioQb6E1YsauiA"
        "==\";tag=\"web-bot-auth\"'";

    (void) state;
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof(path), "%s/signature-agent.test.json", dir);
    f = fopen(path, "w");
    assert_non_null(f);
    fputs("{\"keys\":[{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"x\":"
          "\"JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs\"}]}", f);
    fclose(f);
    snprintf(path, sizeof(path), "%s/crawlers.txt", dir);
    f = fopen(path, "w");
    assert_non_null(f);
    fputs("crawler TestSigner\ncategory ai-user-triggered\n"
          "operator Test\nsignature-agent https://signature-agent.test\n",
          f);
    fclose(f);

    snprintf(cmd, sizeof(cmd), BIN " identify --format json --crawlers %s "
             "--signature-keys %s --time 1735689610%s --header 'Signature: "
             "sig2=:CGokAoY/FrPpyuzTe1Fb2kLTAH9Idw6qSFd1+D77r1firsMRCxeuLu5e6O"
             "+ek3zQgDMAzjiXtLVfqE00xnABCQ==:' 'Mozilla/5.0 (X11; Linux "
             "x86_64) Chrome/138.0.0.0'", path, dir, hdrs);
    assert_int_equal(ra_test_sh(cmd, out, sizeof(out)), 0);
    assert_non_null(strstr(out, "\"crawler\":\"TestSigner\""));
    assert_non_null(strstr(out, "\"verification\":\"verified\","
        "\"signature\":{\"result\":\"valid\",\"origin\":"
        "\"signature-agent.test\""));

    /* one byte of the signature changed; the User-Agent claims it */
    snprintf(cmd, sizeof(cmd), BIN " identify --crawlers %s "
             "--signature-keys %s --time 1735689610%s --header 'Signature: "
             "sig2=:DGokAoY/FrPpyuzTe1Fb2kLTAH9Idw6qSFd1+D77r1firsMRCxeuLu5e6O"
             "+ek3zQgDMAzjiXtLVfqE00xnABCQ==:' TestSigner/1.0", path, dir,
             hdrs);
    assert_int_equal(ra_test_sh(cmd, out, sizeof(out)), 0);
    assert_non_null(strstr(out, "crawler TestSigner "));
    assert_non_null(strstr(out, "verification=impostor verified_by=signature "
        "signature=invalid origin=signature-agent.test why=\"the signature "
        "does not verify\""));

    /* a bad key directory is a usage error naming the file */
    snprintf(cmd, sizeof(cmd), BIN " identify --signature-keys %s x 2>&1",
             dir);
    assert_int_equal(ra_test_sh(cmd, out, sizeof(out)), 0);
    snprintf(cmd, sizeof(cmd), "printf '{' > %s/bad.test.json; " BIN
             " identify --signature-keys %s x 2>&1", dir, dir);
    assert_int_equal(ra_test_sh(cmd, out, sizeof(out)), 2);
    assert_non_null(strstr(out, "bad.test.json"));

    snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

int
main(void)
{
    const struct CMUnitTest  tests[] = {
        cmocka_unit_test(json_lines),
        cmocka_unit_test(text_and_stdin),
        cmocka_unit_test(no_user_agent),
        cmocka_unit_test(verification_and_operator_file),
        cmocka_unit_test(usage_errors),
        cmocka_unit_test(signatures),
    };

    /* the ranges a machine's package keeps are not the tests' */
    setenv("ROBOTS_AUDIT_RANGES_DIR", "", 1);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
