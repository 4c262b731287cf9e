/* SPDX-License-Identifier: BSD-2-Clause */
/* The header fields the core reads: which names count, how repeated lines
 * join, and the target kind remembered for a request's later phases. */
#include <string.h>

#include "ra_test.h"
#include "ra_fields.h"
#include "ra_kind.h"
#include "ra_sig.h"

static ra_str_t
S(const char *s)
{
    return ra_str(s, strlen(s));
}

static int
eq(ra_str_t s, const char *want)
{
    return s.len == strlen(want) && memcmp(s.data, want, s.len) == 0;
}

static void
field_names(void **state)
{
    (void) state;
    assert_int_equal(ra_request_field(S("User-Agent")), RA_FIELD_USER_AGENT);
    assert_int_equal(ra_request_field(S("user-agent")), RA_FIELD_USER_AGENT);
    assert_int_equal(ra_request_field(S("REFERER")), RA_FIELD_REFERER);
    assert_int_equal(ra_request_field(S("Signature")), RA_FIELD_SIGNATURE);
    assert_int_equal(ra_request_field(S("signature-input")),
                     RA_FIELD_SIGNATURE_INPUT);
    assert_int_equal(ra_request_field(S("Signature-Agent")),
                     RA_FIELD_SIGNATURE_AGENT);
    assert_int_equal(ra_request_field(S("Signature-Other")), RA_FIELD_NONE);
    assert_int_equal(ra_request_field(S("Signatures")), RA_FIELD_NONE);
    assert_int_equal(ra_request_field(S("Referrer")), RA_FIELD_NONE);
    assert_int_equal(ra_request_field(S("Host")), RA_FIELD_NONE);
    /* the 8-byte compare and its tail: capitals anywhere, and bytes that
     * only look alike once lowered ('_' is not '-', '@' is no letter) */
    assert_int_equal(ra_request_field(S("USER-AGENT")), RA_FIELD_USER_AGENT);
    assert_int_equal(ra_request_field(S("user-agenT")), RA_FIELD_USER_AGENT);
    assert_int_equal(ra_request_field(S("User_Agent")), RA_FIELD_NONE);
    assert_int_equal(ra_request_field(S("User-Agen@")), RA_FIELD_NONE);
    assert_int_equal(ra_request_field(S("SIGNATURE-INPUT")),
                     RA_FIELD_SIGNATURE_INPUT);
    assert_int_equal(ra_request_field(S("Signature-InpuT")),
                     RA_FIELD_SIGNATURE_INPUT);
    assert_int_equal(ra_request_field(S("Signature_Input")), RA_FIELD_NONE);
    assert_int_equal(ra_request_field(ra_str(NULL, 0)), RA_FIELD_NONE);
}

/* the lines of a request, as a server's list holds them */
static const char  *lines[][2] = {
    { "Host", "example.com" },
    { "User-Agent", "first" },
    { "Signature", "sig1=:AAAA:" },
    { "Referer", "https://a/" },
    { "user-agent", "second" },
    { "Signature-Input", "sig1=(\"@method\")" },
    { "SIGNATURE", "sig2=:BBBB:" },
    { "Referer", "https://b/" },
    { "Accept", "*/*" },
};

static void
feed(ra_fields_t *f, size_t n)
{
    size_t  i;

    for (i = 0; i < n; i++) {
        ra_fields_line(f, S(lines[i][0]), S(lines[i][1]));
    }
}

static void
fields_first_and_joined(void **state)
{
    ra_request_t      req;
    ra_fields_t       f;
    ra_test_arena_t  *a = ra_test_arena_new();

    (void) state;
    memset(&req, 0, sizeof(req));
    ra_fields_start(&f, &req, RA_FIELD_ALL, ra_test_arena_alloc(a));
    feed(&f, sizeof(lines) / sizeof(lines[0]));
    assert_int_equal(ra_fields_end(&f), 1);
    assert_true(eq(req.user_agent, "first"));
    assert_true(eq(req.referer, "https://a/"));
    assert_true(eq(req.signature, "sig1=:AAAA:, sig2=:BBBB:"));
    assert_true(eq(req.signature_input, "sig1=(\"@method\")"));
    assert_int_equal(req.signature_agent.len, 0);
    ra_test_arena_free(a);
}

/* a server that parsed User-Agent and Referer itself asks the rest */
static void
fields_sig_only(void **state)
{
    ra_request_t  req;
    ra_fields_t   f;

    (void) state;
    memset(&req, 0, sizeof(req));
    req.user_agent = S("kept");
    ra_fields_start(&f, &req, RA_FIELD_SIG, &ra_malloc_allocator);
    feed(&f, 4);
    assert_int_equal(ra_fields_end(&f), 0);
    assert_true(eq(req.user_agent, "kept"));
    assert_int_equal(req.referer.len, 0);
    /* Signature without Signature-Input: nothing to check, nothing kept */
    assert_int_equal(req.signature.len, 0);
    assert_int_equal(req.signature_input.len, 0);
}

/* absent: "", as the glue gave them */
static void
fields_absent(void **state)
{
    ra_request_t  req;
    ra_fields_t   f;

    (void) state;
    memset(&req, 0, sizeof(req));
    ra_fields_start(&f, &req, RA_FIELD_ALL, NULL);
    ra_fields_line(&f, S("Accept"), S("*/*"));
    assert_int_equal(ra_fields_end(&f), 0);
    assert_non_null(req.user_agent.data);
    assert_int_equal(req.user_agent.len, 0);
    assert_non_null(req.referer.data);
}

/* joined up to what the core reads; an empty first line adds no ", " */
static void
fields_join_capped(void **state)
{
    static char       big[RA_SIG_MAX_FIELD];
    ra_request_t      req;
    ra_fields_t       f;
    ra_test_arena_t  *a = ra_test_arena_new();

    (void) state;
    memset(big, 'x', sizeof(big));
    memset(&req, 0, sizeof(req));
    ra_fields_start(&f, &req, RA_FIELD_ALL, ra_test_arena_alloc(a));
    ra_fields_line(&f, S("Signature-Agent"), S(""));
    ra_fields_line(&f, S("Signature-Agent"), S("\"https://a\""));
    ra_fields_line(&f, S("Signature-Input"), S("a"));
    ra_fields_line(&f, S("Signature-Input"), ra_str(big, 100));
    ra_fields_line(&f, S("Signature-Input"), ra_str(big, sizeof(big)));
    ra_fields_line(&f, S("Signature-Input"), S("more"));
    ra_fields_line(&f, S("Signature"), S("s"));
    assert_int_equal(ra_fields_end(&f), 1);
    assert_true(eq(req.signature_agent, "\"https://a\""));
    assert_int_equal(req.signature_input.len, RA_SIG_MAX_FIELD);
    assert_memory_equal(req.signature_input.data, "a, xxx", 6);
    assert_memory_equal(req.signature_input.data + 103, ", xx", 4);
    ra_test_arena_free(a);
}

/* without the memory to join: the first line alone */
static void *
no_alloc(void *ctx, size_t n)
{
    (void) ctx;
    (void) n;
    return NULL;
}

static void
fields_join_without_memory(void **state)
{
    ra_request_t  req;
    ra_fields_t   f;
    ra_alloc_t    none = { no_alloc, NULL, NULL };

    (void) state;
    memset(&req, 0, sizeof(req));
    ra_fields_start(&f, &req, RA_FIELD_SIG, &none);
    ra_fields_line(&f, S("Signature"), S("one"));
    ra_fields_line(&f, S("Signature"), S("two"));
    ra_fields_line(&f, S("Signature"), S("three"));
    ra_fields_line(&f, S("Signature-Input"), S("in"));
    assert_int_equal(ra_fields_end(&f), 1);
    assert_true(eq(req.signature, "one"));
}

static void
kind_word_once(void **state)
{
    unsigned  w = 0;

    (void) state;
    assert_int_equal(ra_kind_word(&w, S("/robots.txt")),
                     RA_TARGET_KNOWN | RA_TARGET_ROBOTS);
    /* asked once: a word that knows is not asked again */
    assert_int_equal(ra_kind_word(&w, S("/other")),
                     RA_TARGET_KNOWN | RA_TARGET_ROBOTS);
    w |= RA_KIND_JUDGED;
    assert_int_equal(ra_kind_known(w), RA_TARGET_KNOWN | RA_TARGET_ROBOTS);
    w = RA_KIND_JUDGED;
    assert_int_equal(ra_kind_word(&w, S("/a")), RA_TARGET_KNOWN);
    assert_int_equal(w, RA_TARGET_KNOWN | RA_KIND_JUDGED);
    /* a path whose end the server found: the query is not read */
    w = 0;
    assert_int_equal(ra_kind_word_path(&w, S("/robots.txt?x"),
                                       S("/robots.txt")),
                     RA_TARGET_KNOWN | RA_TARGET_ROBOTS);
    assert_int_equal(ra_kind_known(0), 0);
}

static void
kind_memo_is_the_requests(void **state)
{
    ra_kind_memo_t  m;
    int             r1 = 1, r2 = 2;
    char            other[] = "/robots.txt";
    ra_str_t        t = S("/robots.txt"), u = S(other);

    (void) state;
    memset(&m, 0, sizeof(m));
    (void) ra_kind_memo_ask(&m, &r1, t, ra_str(NULL, 0));
    /* another request, or the same address with another target: none */
    assert_int_equal(ra_kind_memo_take(&m, &r2, t), 0);
    assert_int_equal(ra_kind_memo_take(&m, &r1, u), 0);
    /* taken by the other target: forgotten */
    assert_int_equal(ra_kind_memo_take(&m, &r1, t), 0);
    (void) ra_kind_memo_ask(&m, &r1, t, ra_str(NULL, 0));
    assert_int_equal(ra_kind_memo_take(&m, &r1, t),
                     RA_TARGET_KNOWN | RA_TARGET_ROBOTS);
    assert_int_equal(ra_kind_memo_take(&m, &r1, t), 0);
    /* replaced by another request's before taken */
    (void) ra_kind_memo_ask(&m, &r1, t, ra_str(NULL, 0));
    (void) ra_kind_memo_ask(&m, &r2, S("/x"), ra_str(NULL, 0));
    assert_int_equal(ra_kind_memo_take(&m, &r1, t), 0);
    assert_int_equal(ra_kind_memo_take(&m, &r2, t), 0);
}

static int
same(ra_str_t s, const char *z)
{
    return s.len == strlen(z) && memcmp(s.data, z, s.len) == 0;
}

/* what a signature may cover: an absolute-form target's authority, else
 * Host; https only on TLS */
static void
origin_authority_and_scheme(void **state)
{
    ra_request_t  req;

    (void) state;
    memset(&req, 0, sizeof(req));
    ra_request_origin(&req, (ra_str_t) ra_string("/x?y"),
                      (ra_str_t) ra_string("Example.com"), 0);
    assert_true(same(req.authority, "Example.com"));
    assert_null(req.scheme.data);

    ra_request_origin(&req, (ra_str_t) ra_string(
                          "http://a.example:8080/x HTTP/1.1"),
                      (ra_str_t) ra_string("b.example"), 1);
    assert_true(same(req.authority, "a.example:8080"));
    assert_true(same(req.scheme, "https"));

    memset(&req, 0, sizeof(req));
    ra_request_origin(&req, (ra_str_t) ra_string("https://a.example?q"),
                      ra_str(NULL, 0), 0);
    assert_true(same(req.authority, "a.example"));
    ra_request_origin(&req, (ra_str_t) ra_string("HTTP://a.example"),
                      ra_str(NULL, 0), 0);
    assert_true(same(req.authority, "a.example"));

    /* not absolute-form: "//x" is a path, and so is "/a://b" */
    ra_request_origin(&req, (ra_str_t) ra_string("//x/y"),
                      (ra_str_t) ra_string("h"), 0);
    assert_true(same(req.authority, "h"));
    ra_request_origin(&req, (ra_str_t) ra_string("/a://b"),
                      ra_str(NULL, 0), 0);
    assert_int_equal(req.authority.len, 0);
    assert_null(req.scheme.data);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(field_names),
        cmocka_unit_test(origin_authority_and_scheme),
        cmocka_unit_test(fields_first_and_joined),
        cmocka_unit_test(fields_sig_only),
        cmocka_unit_test(fields_absent),
        cmocka_unit_test(fields_join_capped),
        cmocka_unit_test(fields_join_without_memory),
        cmocka_unit_test(kind_word_once),
        cmocka_unit_test(kind_memo_is_the_requests),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
