/* SPDX-License-Identifier: BSD-2-Clause */
/* Origins (ra_origin.h): which strings name a Web Bot Auth signing agent
 * and what host they name, at the edges (scheme, port, user name, case,
 * trailing dot, path, IPv6 literal, empty, over-long); and that the
 * crawler table's loader and `ranges update --agent` decide as the
 * signature check does. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ra_test.h"
#include "ra_crawlers.h"
#include "ra_origin.h"

/* The host ra_origin_host() gives for text, into buf; "!" when it refuses
 * text.  The text is alone in its allocation, so that ASan sees any read
 * past its end. */
static const char *
host_of(const char *text, char *buf, size_t cap)
{
    ra_str_t  s = ra_test_exact(text, strlen(text)), h;

    if (ra_origin_host(s, &h) != RA_OK) {
        snprintf(buf, cap, "!");
    } else {
        assert_true(h.data >= s.data && h.data + h.len <= s.data + s.len);
        snprintf(buf, cap, "%.*s", (int) h.len, (const char *) h.data);
    }
    ra_test_exact_free(s);
    return buf;
}

#define assert_host(text, want)                                              \
    do {                                                                      \
        char  b_[300];                                                        \
        assert_string_equal(host_of(text, b_, sizeof(b_)), want);             \
    } while (0)

/* "https" names a signing agent; "http" is read by ra_origin_parse() only
 * (a key directory over plain http could be replaced on the way) */
static void
scheme(void **state)
{
    ra_origin_t  o;

    (void) state;
    assert_host("https://chatgpt.com", "chatgpt.com");
    assert_host("HTTPS://chatgpt.com", "chatgpt.com");
    assert_host("Https://chatgpt.com", "chatgpt.com");
    assert_host("http://chatgpt.com", "!");
    assert_host("ftp://chatgpt.com", "!");
    assert_host("//chatgpt.com", "!");
    assert_host("chatgpt.com", "!");
    assert_host("https:/chatgpt.com", "!");
    assert_host(" https://chatgpt.com", "!");

    assert_int_equal(ra_origin_parse(ra_str("http://127.0.0.1:8080", 21), &o),
                     RA_OK);
    assert_false(o.https);
    assert_int_equal(o.host.len, 9);
    assert_int_equal(ra_origin_parse(ra_str("https://a.example", 17), &o),
                     RA_OK);
    assert_true(o.https);
    assert_int_equal(ra_origin_parse(ra_str("httpx://a.example", 17), &o),
                     RA_ERROR);
}

/* a port is digits, possibly none ("https://host:" is the default port,
 * RFC 3986 3.2.3); only the host names the origin */
static void
port(void **state)
{
    ra_origin_t  o;

    (void) state;
    assert_host("https://chatgpt.com:443", "chatgpt.com");
    assert_host("https://chatgpt.com:8443/", "chatgpt.com");
    assert_host("https://chatgpt.com:", "chatgpt.com");
    assert_host("https://chatgpt.com:44a", "!");
    assert_host("https://chatgpt.com:-1", "!");
    assert_host("https://chatgpt.com:443:443", "!");
    assert_host("https://chatgpt.com: 443", "!");
    assert_host("https://:443", "!");

    assert_int_equal(ra_origin_parse(ra_str("https://a.example:8443/x", 24),
                                     &o), RA_OK);
    assert_int_equal(o.port.len, 4);
    assert_memory_equal(o.port.data, "8443", 4);
    assert_int_equal(o.rest.len, 2);
    assert_int_equal(ra_origin_parse(ra_str("https://a.example", 17), &o),
                     RA_OK);
    assert_int_equal(o.port.len, 0);
    assert_int_equal(o.rest.len, 0);
}

/* a user name or password is no part of a host name: refused, so that
 * "https://chatgpt.com@evil.example" names neither */
static void
userinfo(void **state)
{
    (void) state;
    assert_host("https://user@chatgpt.com", "!");
    assert_host("https://user:pass@chatgpt.com", "!");
    assert_host("https://chatgpt.com@evil.example", "!");
    assert_host("https://@chatgpt.com", "!");
}

/* the host as written (a span of the text): host names compare in any
 * case (ra_strcaseeq()), as the key table and the crawler table do */
static void
letter_case(void **state)
{
    ra_str_t  h;

    (void) state;
    assert_host("https://ChatGPT.COM", "ChatGPT.COM");
    assert_int_equal(ra_origin_host(ra_str("https://ChatGPT.COM/", 20), &h),
                     RA_OK);
    assert_true(ra_strcaseeq(h, ra_str("chatgpt.com", 11)));
}

/* a trailing dot is kept: "chatgpt.com." is another name to the key
 * table, whose files are named after hosts without one, so a signature
 * naming it finds no keys (it is unchecked, never verified) */
static void
trailing_dot(void **state)
{
    ra_str_t  h;

    (void) state;
    assert_host("https://chatgpt.com.", "chatgpt.com.");
    assert_host("https://chatgpt.com./", "chatgpt.com.");
    assert_int_equal(ra_origin_host(ra_str("https://chatgpt.com.", 20), &h),
                     RA_OK);
    assert_false(ra_strcaseeq(h, ra_str("chatgpt.com", 11)));
}

/* a path, query or fragment names nothing more: the Signature-Agent may
 * be the directory's own URL */
static void
path(void **state)
{
    (void) state;
    assert_host("https://chatgpt.com/", "chatgpt.com");
    assert_host("https://chatgpt.com/.well-known/"
                "http-message-signatures-directory", "chatgpt.com");
    assert_host("https://chatgpt.com?x=1", "chatgpt.com");
    assert_host("https://chatgpt.com#top", "chatgpt.com");
    assert_host("https://chatgpt.com:443?x", "chatgpt.com");
    assert_host("https:///path", "!");
    assert_host("https://chatgpt.com\\evil.example", "!");
}

/* an IP literal in brackets is no host name: key files are named after
 * names; an IPv4 address is letters' and digits' and dots' alone */
static void
ip_literal(void **state)
{
    (void) state;
    assert_host("https://[::1]", "!");
    assert_host("https://[::1]:443/", "!");
    assert_host("https://[2001:db8::1]", "!");
    assert_host("https://192.0.2.1", "192.0.2.1");
}

static void
empty_and_bad_bytes(void **state)
{
    ra_str_t  h;

    (void) state;
    assert_int_equal(ra_origin_host(ra_str(NULL, 0), &h), RA_ERROR);
    assert_host("", "!");
    assert_host("https://", "!");
    assert_host("https://:", "!");
    assert_host("https://a_b.example", "!");
    assert_host("https://a b.example", "!");
    assert_host("https://a%2eexample", "!");
    assert_host("https://a.example\r\n", "!");
    assert_int_equal(ra_origin_host(ra_str("https://a\0b", 11), &h), RA_ERROR);
    assert_false(ra_origin_host_ok(ra_str("", 0)));
    assert_false(ra_origin_host_ok(ra_str("a/b", 3)));
    assert_true(ra_origin_host_ok(ra_str("a-b.example", 11)));
}

/* a host of RA_ORIGIN_MAX_HOST bytes is one, a byte more is not */
static void
over_long(void **state)
{
    char    url[8 + RA_ORIGIN_MAX_HOST + 2];
    size_t  i;

    (void) state;
    memcpy(url, "https://", 8);
    for (i = 0; i < RA_ORIGIN_MAX_HOST; i++) {
        url[8 + i] = (i % 64 == 63) ? '.' : 'a';
    }
    url[8 + RA_ORIGIN_MAX_HOST] = '\0';
    {
        char  b[300];

        assert_int_equal(strlen(host_of(url, b, sizeof(b))),
                         RA_ORIGIN_MAX_HOST);
    }
    url[8 + RA_ORIGIN_MAX_HOST] = 'a';
    url[8 + RA_ORIGIN_MAX_HOST + 1] = '\0';
    assert_host(url, "!");
}

/* the crawler table's "signature-agent" lines take what the signature
 * check takes, and a crawler signs as the host they name */
static void
crawler_table_agrees(void **state)
{
    static const char    ok[] =
        "crawler Signer\ncategory ai-user\n"
        "signature-agent https://Signer.example:8443/ https://b.example\n";
    static const char   *bad[] = {
        "crawler S\ncategory ai-user\nsignature-agent http://s.example\n",
        "crawler S\ncategory ai-user\nsignature-agent https://u@s.example\n",
        "crawler S\ncategory ai-user\nsignature-agent https://[::1]\n",
        "crawler S\ncategory ai-user\nsignature-agent https://s.example:x\n",
    };
    ra_test_arena_t     *arena = ra_test_arena_new();
    ra_crawlers_t       *t;
    ra_crawlers_err_t    err;
    const ra_crawler_t  *c;
    size_t               i;

    (void) state;
    t = ra_crawlers_create(ra_test_arena_alloc(arena));
    assert_non_null(t);
    assert_int_equal(ra_crawlers_add(t, ra_str(ok, sizeof(ok) - 1), &err),
                     RA_OK);
    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        assert_int_equal(ra_crawlers_add(t, ra_str(bad[i], strlen(bad[i])),
                                         &err), RA_ERROR);
        assert_int_equal(err.line, 3);
    }
    assert_int_equal(ra_crawlers_compile(t, &err), RA_OK);
    c = ra_crawlers_find(t, ra_str("Signer", 6));
    assert_non_null(c);
    assert_true(ra_crawler_signs_as(c, ra_str("signer.example", 14)));
    assert_true(ra_crawler_signs_as(c, ra_str("B.EXAMPLE", 9)));
    assert_false(ra_crawler_signs_as(c, ra_str("signer.example.", 15)));
    assert_ptr_equal(ra_crawlers_find_signature_agent(
                         t, ra_str("b.example", 9)), c);
    assert_null(ra_crawlers_find_signature_agent(t, ra_str("u", 1)));
    ra_test_arena_free(arena);
}

/* `ranges update --agent` refuses, before any fetch, what is not an
 * https origin without a path (http only from this machine) */
static void
cli_agrees(void **state)
{
    static const char  *refused[][2] = {
        { "http://chatgpt.com", "not an https origin" },
        { "HTTP://chatgpt.com:80/", "not an https origin" },
        { "https://user@chatgpt.com", "not an origin" },
        { "https://[::1]:443", "not an origin" },
        { "https://chatgpt.com:44a", "not an origin" },
        { "https://", "not an origin" },
        { "chatgpt.com", "not an origin" },
        { "https://chatgpt.com/path", "an origin has no path" },
        { "https://chatgpt.com?x", "an origin has no path" },
        { "https://.chatgpt.com", "not a file name" },
    };
    char    cmd[512], out[4096];
    size_t  i;

    (void) state;
    ra_test_need_cli();
    assert_int_equal(ra_test_sh("mkdir -p build/tests/origin-keys && "
                                ": > build/tests/origin-sources.txt",
                                out, sizeof(out)), 0);
    for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
        snprintf(cmd, sizeof(cmd), RA_TEST_CLI " ranges update --dir "
                 "build/tests/origin-keys --sources "
                 "build/tests/origin-sources.txt --keys-dir "
                 "build/tests/origin-keys --agent '%s' 2>&1", refused[i][0]);
        assert_int_equal(ra_test_sh(cmd, out, sizeof(out)), 1);
        if (strstr(out, refused[i][1]) == NULL) {
            fail_msg("%s: %s", refused[i][0], out);
        }
    }
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(scheme),
        cmocka_unit_test(port),
        cmocka_unit_test(userinfo),
        cmocka_unit_test(letter_case),
        cmocka_unit_test(trailing_dot),
        cmocka_unit_test(path),
        cmocka_unit_test(ip_literal),
        cmocka_unit_test(empty_and_bad_bytes),
        cmocka_unit_test(over_long),
        cmocka_unit_test(crawler_table_agrees),
        cmocka_unit_test(cli_agrees),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
