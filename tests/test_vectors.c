/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Every case of ../shared/data/vectors/matcher.jsonl (RFC 9309 examples,
 * Google's spec page, google/robotstxt's assertions) in both modes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ra_test.h"
#include "ra_rules.h"

static void
vectors_all_cases_agree_in_both_modes(void **state)
{
    FILE           *f;
    char           *line = NULL, *id, *agent, *url, *b64, *exp[RA_MODES];
    size_t          cap = 0, agent_len, url_len, body_len, cases = 0;
    size_t          checked[RA_MODES] = { 0, 0 }, failed = 0;
    unsigned char  *body;
    char            path[512];
    ra_rules_t     *rules;
    ra_match_t      m;
    ra_str_t        a, body_s;
    int             mode;
    static const char *names[RA_MODES] = { "rfc", "google" };

    (void) state;
    RA_TEST_NEED_SHARED();
    snprintf(path, sizeof(path), "%s/vectors/matcher.jsonl", ra_test_shared());
    f = fopen(path, "r");
    assert_non_null(f);

    while (getline(&line, &cap, f) > 0) {
        assert_int_equal(ra_test_json_get(line, "id", &id, NULL), 0);
        assert_int_equal(ra_test_json_get(line, "agent", &agent, &agent_len), 0);
        assert_int_equal(ra_test_json_get(line, "url", &url, &url_len), 0);
        assert_int_equal(ra_test_json_get(line, "robots_b64", &b64, NULL), 0);
        assert_int_equal(ra_test_json_get(line, "rfc", &exp[RA_MODE_RFC],
                                          NULL), 0);
        assert_int_equal(ra_test_json_get(line, "google",
                                          &exp[RA_MODE_GOOGLE], NULL), 0);
        assert_int_equal(ra_test_base64(b64, &body, &body_len), 0);

        body_s = ra_test_exact(body, body_len);
        assert_int_equal(ra_rules_compile(body_s, &ra_malloc_allocator,
                                          &rules, NULL), RA_OK);
        a = ra_str(agent, agent_len);
        for (mode = 0; mode < RA_MODES; mode++) {
            if (strcmp(exp[mode], "null") == 0) {
                continue;                   /* the RFC is ambiguous */
            }
            assert_int_equal(ra_rules_match(rules, (ra_mode_e) mode, &a, 1,
                                 ra_url_path(ra_str(url, url_len)),
                                 &ra_malloc_allocator, &m),
                             RA_OK);
            checked[mode]++;
            if (m.allowed != (strcmp(exp[mode], "true") == 0)) {
                print_error("%s (%s): expected %s, got %s (line %u)\n", id,
                            names[mode], exp[mode],
                            m.allowed ? "allowed" : "disallowed", m.line);
                failed++;
            }
        }
        ra_rules_free(rules);
        ra_test_exact_free(body_s);
        free(id); free(agent); free(url); free(b64); free(body);
        free(exp[0]); free(exp[1]);
        cases++;
    }
    free(line);
    fclose(f);

    print_message("%zu cases: %zu checked in rfc mode, %zu in google mode,"
                  " %zu disagree\n", cases, checked[RA_MODE_RFC],
                  checked[RA_MODE_GOOGLE], failed);
    assert_true(cases >= 188);
    assert_int_equal(failed, 0);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(vectors_all_cases_agree_in_both_modes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
