/* SPDX-License-Identifier: BSD-2-Clause */
/* Address verification: range files, prefix edges, the verdicts, the
 * reverse-DNS decision, hostile JSON. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "ra_test.h"
#include "ra_verify.h"

static ra_addr_t
addr(const char *s)
{
    ra_addr_t  a;

    assert_int_equal(ra_addr_parse(ra_str(s, strlen(s)), &a), RA_OK);
    return a;
}

static int
in(ra_ranges_t *r, const char *list, const char *ip)
{
    ra_addr_t  a = addr(ip);
    int        l = ra_ranges_find(r, ra_str(list, strlen(list)));

    assert_true(l >= 0);
    return ra_ranges_contains(r, (size_t) l, &a);
}

static int
add(ra_ranges_t *r, const char *name, const char *json)
{
    ra_json_err_t  err;
    ra_str_t       s = ra_test_exact(json, strlen(json));
    int            rc;

    rc = ra_ranges_add_json(r, ra_str(name, strlen(name)), s, &err);
    ra_test_exact_free(s);
    return rc;
}

/* a resolver's socket addresses, both ways, as nginx and c-ares hand
 * them over */
static void
addresses_as_sockaddr(void **state)
{
    ra_addr_t             a, b;
    struct sockaddr_in    in;
    struct sockaddr_in6   in6;
    struct sockaddr       other;

    (void) state;
    a = addr("66.249.64.1");
    assert_int_equal(ra_addr_to_sockaddr(&a, &in, sizeof(in) - 1), 0);
    assert_int_equal(ra_addr_to_sockaddr(&a, &in, sizeof(in)), sizeof(in));
    assert_int_equal(in.sin_family, AF_INET);
    assert_int_equal(in.sin_port, 0);
    assert_int_equal(ntohl(in.sin_addr.s_addr), 0x42f94001u);
    assert_int_equal(ra_addr_from_sockaddr((struct sockaddr *) &in, &b),
                     RA_OK);
    assert_memory_equal(a.b, b.b, 16);

    a = addr("2001:4860:4801:10::1");
    assert_int_equal(ra_addr_to_sockaddr(&a, &in6, sizeof(in)), 0);
    assert_int_equal(ra_addr_to_sockaddr(&a, &in6, sizeof(in6)),
                     sizeof(in6));
    assert_int_equal(in6.sin6_family, AF_INET6);
    assert_memory_equal(&in6.sin6_addr, a.b, 16);
    memset(&b, 0xee, sizeof(b));
    assert_int_equal(ra_addr_from_sockaddr((struct sockaddr *) &in6, &b),
                     RA_OK);
    assert_memory_equal(a.b, b.b, 16);

    memset(&other, 0, sizeof(other));
    other.sa_family = AF_UNIX;
    assert_int_equal(ra_addr_from_sockaddr(&other, &b), RA_ERROR);
}

static void
addresses_parse(void **state)
{
    ra_addr_t  a, b;

    (void) state;
    a = addr("66.249.64.1");
    b = addr("::ffff:66.249.64.1");
    assert_memory_equal(a.b, b.b, 16);
    assert_true(ra_addr_is_v4(&a));
    a = addr("2001:4860:4801:10::1");
    assert_false(ra_addr_is_v4(&a));
    assert_int_equal(ra_addr_parse(ra_str("1.2.3", 5), &a), RA_ERROR);
    assert_int_equal(ra_addr_parse(ra_str("1.2.3.4\0", 8), &a), RA_ERROR);
    assert_int_equal(ra_addr_parse(ra_str("", 0), &a), RA_ERROR);
    assert_int_equal(ra_addr_parse(ra_str("::g", 3), &a), RA_ERROR);
}

/* Dotted quads (parsed without inet_pton()) and what looks like them:
 * ra_addr_parse() answers as inet_pton() does, byte for byte. */
static void
addresses_as_inet_pton(void **state)
{
    static const char  *const texts[] = {
        "0.0.0.0", "255.255.255.255", "66.249.64.1", "1.2.3.4", "9.99.199.0",
        "256.1.1.1", "1.2.3.256", "01.2.3.4", "1.2.3.04", "1.2.3.00",
        "0.0.0.00", "1000.1.1.1", "1.2.3.4.", ".1.2.3.4", "1..2.3", "1.2.3",
        "1.2.3.4.5", "1.2.3.4 ", " 1.2.3.4", "1.2.3.a", "a.b.c.d", "1.2.3.-4",
        "+1.2.3.4", "1.2.3.4/8", "::1", "::ffff:1.2.3.4", "1.2.3.4:80",
        "0x1.2.3.4", "1.2.3.255", "199.200.201.202", "", ".", "...", "9"
    };
    size_t             i;
    int                want;
    ra_addr_t          a;
    unsigned char      v4[4], v6[16], mapped[16];

    (void) state;
    for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
        memset(&a, 0xaa, sizeof(a));
        if (inet_pton(AF_INET, texts[i], v4) == 1) {
            memset(mapped, 0, 10);
            mapped[10] = mapped[11] = 0xff;
            memcpy(mapped + 12, v4, 4);
            want = RA_OK;
        } else if (inet_pton(AF_INET6, texts[i], v6) == 1) {
            memcpy(mapped, v6, 16);
            want = RA_OK;
        } else {
            want = RA_ERROR;
        }
        assert_int_equal(ra_addr_parse(ra_str(texts[i], strlen(texts[i])),
                                       &a), want);
        if (want == RA_OK) {
            assert_memory_equal(a.b, mapped, 16);
        }
    }
    /* a span's end is the text's end, whatever follows it */
    assert_int_equal(ra_addr_parse(ra_str("10.0.0.12", 8), &a), RA_OK);
    assert_memory_equal(a.b + 12, "\x0a\x00\x00\x01", 4);
}

static void
prefix_edges(void **state)
{
    ra_test_arena_t  *ar = ra_test_arena_new();
    ra_ranges_t      *r = ra_ranges_create(ra_test_arena_alloc(ar));

    (void) state;
    assert_int_equal(add(r, "g.json", "{\"creationTime\":\"x\",\"prefixes\":["
        "{\"ipv4Prefix\":\"66.249.64.0/27\"},"
        "{\"ipv4Prefix\":\"10.0.0.7/32\"},"
        "{\"ipv6Prefix\":\"2001:4860:4801:10::/64\"},"
        "{\"ipv6Prefix\":\"2001:db8::1/128\"}]}"), RA_OK);
    /* first and last address of a /27, and one outside each side */
    assert_true(in(r, "g.json", "66.249.64.0"));
    assert_true(in(r, "g.json", "66.249.64.31"));
    assert_false(in(r, "g.json", "66.249.64.32"));
    assert_false(in(r, "g.json", "66.249.63.255"));
    /* IPv4-mapped IPv6 is the same address */
    assert_true(in(r, "g.json", "::ffff:66.249.64.17"));
    /* /32 and /128 */
    assert_true(in(r, "g.json", "10.0.0.7"));
    assert_false(in(r, "g.json", "10.0.0.6"));
    assert_false(in(r, "g.json", "10.0.0.8"));
    assert_true(in(r, "g.json", "2001:db8::1"));
    assert_false(in(r, "g.json", "2001:db8::2"));
    assert_false(in(r, "g.json", "2001:db8::"));
    /* /64 edges */
    assert_true(in(r, "g.json", "2001:4860:4801:10::"));
    assert_true(in(r, "g.json", "2001:4860:4801:10:ffff:ffff:ffff:ffff"));
    assert_false(in(r, "g.json", "2001:4860:4801:11::"));
    assert_false(in(r, "g.json", "2001:4860:4801:f:ffff:ffff:ffff:ffff"));

    /* /0 of IPv6 holds everything; IPv4 /0 every IPv4 address only */
    assert_int_equal(add(r, "all6", "{\"prefixes\":[{\"ipv6Prefix\":"
                                    "\"::/0\"}]}"), RA_OK);
    assert_true(in(r, "all6", "::"));
    assert_true(in(r, "all6", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"));
    assert_true(in(r, "all6", "1.2.3.4"));
    assert_int_equal(add(r, "all4", "{\"prefixes\":[{\"ipv4Prefix\":"
                                    "\"0.0.0.0/0\"}]}"), RA_OK);
    assert_true(in(r, "all4", "0.0.0.0"));
    assert_true(in(r, "all4", "255.255.255.255"));
    assert_false(in(r, "all4", "2001:db8::1"));

    /* overlapping and adjacent prefixes merge */
    assert_int_equal(add(r, "m", "{\"prefixes\":["
        "{\"ipv4Prefix\":\"10.0.0.0/25\"},{\"ipv4Prefix\":\"10.0.0.128/25\"},"
        "{\"ipv4Prefix\":\"10.0.0.0/24\"},{\"ipv4Prefix\":\"10.0.0.5/32\"}]}"),
        RA_OK);
    assert_int_equal(ra_ranges_intervals(r, (size_t) ra_ranges_find(r,
                     ra_str("m", 1))), 1);
    assert_true(in(r, "m", "10.0.0.255"));
    assert_false(in(r, "m", "10.0.1.0"));
    ra_test_arena_free(ar);
}

static int
nop(void *ctx, unsigned event, ra_str_t raw, unsigned depth)
{
    (void) ctx; (void) event; (void) raw; (void) depth;
    return 0;
}

static const char  *syntax[] = {
    "", "{", "{\"a\":[}", "{\"a\":[],}", "[1,]", "{\"a\" 1}", "{a:1}",
    "{\"a\":\"\\ud800\"}", "{\"a\":\"\\udc00\"}", "{\"a\":\"\x80\"}",
    "{\"a\":\"\xc0\xaf\"}", "{\"a\":\"\xed\xa0\x80\"}", "{\"a\":01}",
    "{\"a\":1.}", "{\"a\":-}", "{\"a\":1e}", "{\"a\":tru}",
    "{\"a\":\"\t\"}", "\xef\xbb\xbf{}", "{} {}", "{\"a\":\"\\x\"}",
    "{\"a\":\"\\u12\"}", "/* c */ {}", "{\"a\":\"unterminated}",
};

static void
hostile_json(void **state)
{
    static const char  *bad[] = {
        "", "{", "{\"prefixes\":[}", "{\"prefixes\":[],}",
        "{\"prefixes\":[{\"ipv4Prefix\":\"1.2.3.4/33\"}]}",
        "{\"prefixes\":[{\"ipv4Prefix\":\"1.2.3.4/\"}]}",
        "{\"prefixes\":[{\"ipv4Prefix\":\"::1/64\"}]}x",
        "{\"prefixes\":[{\"ipv4Prefix\":\"300.2.3.4/8\"}]}",
        "{\"prefixes\":[{\"ipv6Prefix\":\"2001:db8::/129\"}]}",
        "{\"a\":\"\\ud800\"}", "{\"a\":\"\x80\"}", "{\"a\":\"\xc0\xaf\"}",
        "{\"a\":01}", "{\"a\":1.}", "{\"a\":tru}", "{\"a\":\"\t\"}",
        "\xef\xbb\xbf{}", "{} {}", "{\"creationTime\":\"x\"}",
        "[1,2,3]", "{\"a\":\"\\x\"}", "{\"prefixes\":[{\"ipv4Prefix\":7}]}",
    };
    ra_test_arena_t  *ar = ra_test_arena_new();
    ra_ranges_t      *r = ra_ranges_create(ra_test_arena_alloc(ar));
    char             *deep;
    size_t            i;

    (void) state;
    /* syntax errors the reader itself must refuse */
    for (i = 0; i < sizeof(syntax) / sizeof(syntax[0]); i++) {
        ra_json_err_t  err;
        ra_str_t       s = ra_test_exact(syntax[i], strlen(syntax[i]));

        if (ra_json_parse(s, nop, NULL, &err) != RA_ERROR) {
            print_message("json accepted: %s\n", syntax[i]);
            fail();
        }
        assert_non_null(err.msg);
        ra_test_exact_free(s);
    }
    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        if (add(r, "x", bad[i]) == RA_OK) {
            print_message("accepted: %s\n", bad[i]);
            fail();
        }
    }
    /* NUL inside: a length, not a terminator */
    {
        ra_json_err_t  err;
        ra_str_t       s = ra_test_exact("{\"a\":\"\0\"}", 9);

        assert_int_not_equal(ra_ranges_add_json(r, ra_str("x", 1), s, &err),
                             RA_OK);
        ra_test_exact_free(s);
    }
    /* nesting far past the limit is refused, not a stack overflow */
    deep = malloc(200001);
    assert_non_null(deep);
    memset(deep, '[', 100000);
    memset(deep + 100000, ']', 100000);
    deep[200000] = '\0';
    assert_int_equal(add(r, "x", deep), RA_ERROR);
    free(deep);
    assert_int_equal(ra_ranges_lists(r), 0);
    /* a prefix with an escape is decoded */
    assert_int_equal(add(r, "esc", "{\"prefixes\":[{\"ipv4Prefix\":"
                                   "\"10.0.0.0\\/8\"}]}"), RA_OK);
    assert_true(in(r, "esc", "10.1.2.3"));
    ra_test_arena_free(ar);
}

static ra_crawler_t
crawler(const ra_str_t *ranges, size_t nr, const ra_str_t *rdns, size_t nd)
{
    ra_crawler_t  c;

    memset(&c, 0, sizeof(c));
    c.ranges = ranges;
    c.nranges = nr;
    c.rdns = rdns;
    c.nrdns = nd;
    return c;
}

static void
verdicts(void **state)
{
    static const ra_str_t  gr[] = { ra_string("googlebot.json") };
    static const ra_str_t  other[] = { ra_string("bingbot.json") };
    static const ra_str_t  sfx[] = { ra_string(".googlebot.com"),
                                     ra_string("google.com") };
    ra_test_arena_t  *ar = ra_test_arena_new();
    ra_ranges_t      *r = ra_ranges_create(ra_test_arena_alloc(ar));
    ra_crawler_t      g = crawler(gr, 1, sfx, 2), b = crawler(other, 1, 0, 0);
    ra_crawler_t      none = crawler(NULL, 0, NULL, 0);
    ra_addr_t         in1 = addr("66.249.66.1"), out1 = addr("1.2.3.4");
    ra_addr_t         fw[2];

    (void) state;
    assert_int_equal(add(r, "googlebot.json", "{\"prefixes\":[{\"ipv4Prefix"
                     "\":\"66.249.64.0/19\"}]}"), RA_OK);
    assert_int_equal(ra_verify(r, &g, &in1), RA_VERIFY_VERIFIED);
    assert_int_equal(ra_verify(r, &g, &out1), RA_VERIFY_IMPOSTOR);
    /* its operator's file is not loaded: nothing to judge by */
    assert_int_equal(ra_verify(r, &b, &out1), RA_VERIFY_UNVERIFIABLE);
    assert_int_equal(ra_verify(r, &none, &out1), RA_VERIFY_UNVERIFIABLE);
    assert_int_equal(ra_verify(NULL, &g, &out1), RA_VERIFY_UNVERIFIABLE);
    assert_int_equal(ra_verify(r, NULL, &out1), RA_VERIFY_UNVERIFIABLE);

    /* forward-confirmed reverse DNS */
    fw[0] = addr("5.6.7.8");
    fw[1] = out1;
    assert_int_equal(ra_verify_rdns_check(&g, &out1,
        ra_str("crawl-1-2-3-4.googlebot.com.", 28), fw, 2),
        RA_VERIFY_VERIFIED);
    assert_int_equal(ra_verify_rdns_check(&g, &out1,
        ra_str("rate-limited-proxy.google.com", 29), fw, 2),
        RA_VERIFY_VERIFIED);
    /* name right, forward lookup elsewhere */
    assert_int_equal(ra_verify_rdns_check(&g, &out1,
        ra_str("crawl.googlebot.com", 19), fw, 1), RA_VERIFY_IMPOSTOR);
    /* suffix only as a label boundary */
    assert_int_equal(ra_verify_rdns_check(&g, &out1,
        ra_str("evilgooglebot.com", 17), fw, 2), RA_VERIFY_IMPOSTOR);
    assert_int_equal(ra_verify_rdns_check(&g, &out1,
        ra_str("googlebot.com.evil.example", 26), fw, 2), RA_VERIFY_IMPOSTOR);
    assert_int_equal(ra_verify_rdns_check(&g, &out1, ra_str("", 0), fw, 2),
                     RA_VERIFY_IMPOSTOR);
    assert_int_equal(ra_verify_rdns_check(&b, &out1,
        ra_str("x.googlebot.com", 15), fw, 2), RA_VERIFY_UNVERIFIABLE);
    assert_string_equal(ra_verify_name(RA_VERIFY_IMPOSTOR), "impostor");
    ra_test_arena_free(ar);
}

static int
load(ra_ranges_t *r, const char *file)
{
    char           path[512];
    ra_str_t       s;
    ra_json_err_t  err;
    int            rc;

    snprintf(path, sizeof(path), "%s/ip-ranges/%s", ra_test_shared(), file);
    assert_int_equal(ra_test_read_file(path, &s), 0);
    rc = ra_ranges_add_json(r, ra_str(file, strlen(file)), s, &err);
    if (rc != RA_OK) {
        print_message("%s: %s at %zu\n", file, err.msg, err.offset);
    }
    free((void *) s.data);
    return rc;
}

static void
published_files_and_lookup_speed(void **state)
{
    ra_test_arena_t  *ar;
    ra_ranges_t      *r;
    ra_addr_t         a[1024];
    struct timespec   t0, t1;
    size_t            i, n = 2000000, hits = 0, l;
    double            ns;

    (void) state;
    RA_TEST_NEED_SHARED();              /* before anything is allocated */
    ar = ra_test_arena_new();
    r = ra_ranges_create(ra_test_arena_alloc(ar));
    assert_int_equal(load(r, "googlebot.json"), RA_OK);
    assert_int_equal(load(r, "googlesc.json"), RA_OK);
    assert_int_equal(load(r, "googleutf.json"), RA_OK);
    assert_int_equal(load(r, "openai_gptbot_searchbot.json"), RA_OK);
    assert_true(in(r, "googlebot.json", "66.249.64.0"));
    assert_true(in(r, "googlebot.json", "2001:4860:4801:10::1"));
    assert_false(in(r, "googlebot.json", "8.8.8.8"));
    /* the mirror's sections are lists of their own */
    assert_true(in(r, "gptbot.json", "20.171.206.1"));
    assert_false(in(r, "gptbot.json", "104.210.140.130"));
    assert_true(in(r, "searchbot.json", "104.210.140.130"));
    assert_true(in(r, "openai_gptbot_searchbot.json", "104.210.140.130"));

    for (i = 0; i < 1024; i++) {
        a[i].b[0] = 0;
        memset(a[i].b, 0, 10);
        a[i].b[10] = a[i].b[11] = 0xff;
        a[i].b[12] = 66;
        a[i].b[13] = (uint8_t) (240 + (i & 15));
        a[i].b[14] = (uint8_t) (i * 7);
        a[i].b[15] = (uint8_t) i;
    }
    l = (size_t) ra_ranges_find(r, ra_str("googleutf.json", 14));
    if (getenv("RA_UNDER_VALGRIND")) {
        n = 20000;
    }
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (i = 0; i < n; i++) {
        hits += (size_t) ra_ranges_contains(r, l, &a[i & 1023]);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    ns = ((double) (t1.tv_sec - t0.tv_sec) * 1e9
          + (double) (t1.tv_nsec - t0.tv_nsec)) / (double) n;
    /* the time is a figure to read, never a verdict (bench/) */
    print_message("googleutf.json: %zu intervals; lookup %.1f ns "
                  "(sanitizer build), %zu hits\n",
                  ra_ranges_intervals(r, l), ns, hits);
    ra_test_arena_free(ar);
}

int
main(void)
{
    const struct CMUnitTest  tests[] = {
        cmocka_unit_test(addresses_parse),
        cmocka_unit_test(addresses_as_sockaddr),
        cmocka_unit_test(addresses_as_inet_pton),
        cmocka_unit_test(prefix_edges),
        cmocka_unit_test(hostile_json),
        cmocka_unit_test(verdicts),
        cmocka_unit_test(published_files_and_lookup_speed),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
