/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Cloud providers' range files (ra_cloud.h): each provider's format read
 * from tests/data/cloud/ (hand-written in the shape each provider
 * documents, as its README says), malformed files refused with a reason,
 * the one lookup over all of them (prefix edges, IPv4-mapped addresses,
 * overlapping providers), a cloud list never verifying a crawler, and the
 * setup building the lookup once.  Runs from the repository root.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ra_test.h"
#include "ra_cloud.h"
#include "ra_setup.h"

#define DATA  "tests/data/cloud/"

static ra_addr_t
addr(const char *s)
{
    ra_addr_t  a;

    assert_int_equal(ra_addr_parse(ra_str(s, strlen(s)), &a), RA_OK);
    return a;
}

/* Adds text as the list name: what ra_ranges_add_file() returns, *err
 * its reason. */
static int
add_text(ra_ranges_t *r, const char *name, const char *text, size_t len,
    ra_json_err_t *err)
{
    ra_str_t  s = ra_test_exact(text, len);
    int       rc;

    memset(err, 0, sizeof(*err));
    rc = ra_ranges_add_file(r, ra_str(name, strlen(name)), s, err);
    ra_test_exact_free(s);
    return rc;
}

static int
add_str(ra_ranges_t *r, const char *name, const char *text,
    ra_json_err_t *err)
{
    return add_text(r, name, text, strlen(text), err);
}

/* Adds tests/data/cloud/name, which must load. */
static void
add_fixture(ra_ranges_t *r, const char *name)
{
    char           path[256];
    ra_str_t       text;
    ra_json_err_t  err;

    snprintf(path, sizeof(path), DATA "%s", name);
    assert_int_equal(ra_test_read_file(path, &text), 0);
    if (add_text(r, name, (const char *) text.data, text.len, &err)
        != RA_OK)
    {
        print_message("%s: byte %zu: %s\n", name, err.offset,
                      err.msg ? err.msg : "?");
        fail();
    }
    free((void *) text.data);
}

static int
in(const ra_ranges_t *r, const char *list, const char *ip)
{
    ra_addr_t  a = addr(ip);
    int        l = ra_ranges_find(r, ra_str(list, strlen(list)));

    assert_true(l >= 0);
    return ra_ranges_contains(r, (size_t) l, &a);
}

static void
names_tell_the_kind(void **state)
{
    ra_str_t  p;

    (void) state;
    assert_true(ra_cloud_file(ra_str("cloud-aws.json", 14), &p));
    assert_int_equal(p.len, 3);
    assert_memory_equal(p.data, "aws", 3);
    assert_true(ra_cloud_file(ra_str("Cloud-Linode.CSV", 16), &p));
    assert_int_equal(p.len, 6);
    assert_true(ra_cloud_file(ra_str("cloud-x", 7), &p));
    assert_false(ra_cloud_file(ra_str("cloud-.json", 11), NULL));
    assert_false(ra_cloud_file(ra_str("cloud-", 6), NULL));
    assert_false(ra_cloud_file(ra_str("googlebot.json", 14), NULL));
    assert_false(ra_cloud_file(ra_str("mycloud-aws.json", 16), NULL));
    assert_false(ra_cloud_file(ra_str(
        "cloud-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.json", 44), NULL));
}

/* Each provider's documented shape, IPv4 and IPv6, as a cloud list */
static void
each_provider_reads(void **state)
{
    ra_test_arena_t  *ar = ra_test_arena_new();
    ra_ranges_t      *r = ra_ranges_create(ra_test_arena_alloc(ar));
    size_t            i;

    (void) state;
    add_fixture(r, "cloud-aws.json");
    add_fixture(r, "cloud-google.json");
    add_fixture(r, "cloud-oracle.json");
    add_fixture(r, "cloud-digitalocean.csv");
    add_fixture(r, "cloud-linode.csv");
    assert_int_equal(ra_ranges_lists(r), 5);
    for (i = 0; i < 5; i++) {
        assert_int_equal(ra_ranges_kind(r, i), RA_RANGES_CLOUD);
    }
    /* AWS: the /25 inside the /24 merges into it */
    assert_int_equal(ra_ranges_intervals(r, 0), 3);
    assert_true(in(r, "cloud-aws.json", "203.0.113.255"));
    assert_true(in(r, "cloud-aws.json", "192.0.2.64"));
    assert_true(in(r, "cloud-aws.json", "2001:db8:5:ffff::1"));
    assert_false(in(r, "cloud-aws.json", "2001:db8:6::1"));
    assert_true(in(r, "cloud-google.json", "198.51.100.20"));
    assert_true(in(r, "cloud-google.json", "2001:db8:6ff::1"));
    assert_false(in(r, "cloud-google.json", "2001:db8:700::1"));
    /* Oracle: three adjacent CIDRs, one interval */
    assert_int_equal(ra_ranges_intervals(r, 2), 1);
    assert_true(in(r, "cloud-oracle.json", "192.0.2.128"));
    assert_true(in(r, "cloud-oracle.json", "192.0.2.255"));
    assert_false(in(r, "cloud-oracle.json", "192.0.2.127"));
    /* geofeeds: comments, a blank line, a host, CRLF */
    assert_int_equal(ra_ranges_intervals(r, 3), 2);
    assert_true(in(r, "cloud-digitalocean.csv", "192.0.2.63"));
    assert_true(in(r, "cloud-digitalocean.csv", "2001:db8:d0:1::1"));
    assert_true(in(r, "cloud-linode.csv", "192.0.2.47"));
    assert_false(in(r, "cloud-linode.csv", "192.0.2.48"));
    assert_true(in(r, "cloud-linode.csv", "2001:db8:11::"));
    ra_test_arena_free(ar);
}

/* Malformed files: refused with a reason, nothing kept */
static void
malformed_refused(void **state)
{
    static const struct {
        const char  *name;
        const char  *text;
        const char  *why;           /* a part of err.msg */
    } bad[] = {
        /* AWS: an IPv6 prefix as ip_prefix, the reverse, a number */
        { "cloud-aws.json", "{\"prefixes\":[{\"ip_prefix\":\"2001:db8::/32\"}]}",
          "bad IPv4 prefix" },
        { "cloud-aws.json",
          "{\"ipv6_prefixes\":[{\"ipv6_prefix\":\"192.0.2.0/24\"}]}",
          "bad IPv6 prefix" },
        { "cloud-aws.json", "{\"prefixes\":[{\"ip_prefix\":7}]}",
          "not a string" },
        { "cloud-aws.json", "{\"prefixes\":[{\"ip_prefix\":\"10.0.0.0/33\"}]}",
          "bad IPv4 prefix" },
        /* Google's shape in AWS's name: no prefix AWS names */
        { "cloud-aws.json", "{\"prefixes\":[{\"ipv4Prefix\":\"10.0.0.0/8\"}]}",
          "no IP prefix" },
        { "cloud-aws.json", "[]", "not a JSON object" },
        { "cloud-aws.json", "<html>rate limited</html>", NULL },
        { "cloud-aws.json", "{\"prefixes\":[", NULL },
        { "cloud-google.json",
          "{\"prefixes\":[{\"ipv6Prefix\":\"2001:db8::/129\"}]}",
          "bad IPv6 prefix" },
        { "cloud-google.json", "{}", "no IP prefix" },
        { "cloud-oracle.json",
          "{\"regions\":[{\"cidrs\":[{\"cidr\":\"192.0.2.0/24x\"}]}]}",
          "bad IP prefix" },
        { "cloud-oracle.json", "{\"regions\":[{\"cidrs\":[{\"cidr\":{}}]}]}",
          "not a string" },
        /* geofeeds: an HTML page served instead, a bad column, empty */
        { "cloud-digitalocean.csv", "<!DOCTYPE html>\n<html>\n",
          "not a geofeed" },
        { "cloud-digitalocean.csv", "192.0.2.0/24,NL\nnot-an-ip,NL\n",
          "not a geofeed" },
        { "cloud-linode.csv", "# nothing but a comment\n\n", "no IP prefix" },
        { "cloud-linode.csv", ",US,,,\n", "not a geofeed" },
        { "cloud-linode.csv", "", "no IP prefix" },
        /* a name that gives no format */
        { "cloud-acme.txt", "192.0.2.0/24\n", "cloud-PROVIDER.json" },
    };
    ra_test_arena_t  *ar = ra_test_arena_new();
    ra_ranges_t      *r = ra_ranges_create(ra_test_arena_alloc(ar));
    ra_json_err_t     err;
    size_t            i;

    (void) state;
    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        if (add_str(r, bad[i].name, bad[i].text, &err) == RA_OK) {
            print_message("accepted as %s: %s\n", bad[i].name, bad[i].text);
            fail();
        }
        assert_non_null(err.msg);
        if (bad[i].why != NULL && strstr(err.msg, bad[i].why) == NULL) {
            print_message("%s: '%s', not '%s'\n", bad[i].text, err.msg,
                          bad[i].why);
            fail();
        }
    }
    /* the offset names the line that failed */
    assert_int_not_equal(add_str(r, "cloud-x.csv",
                                 "192.0.2.0/24\n192.0.2.300/32,US\n", &err),
                         RA_OK);
    assert_int_equal(err.offset, 13);
    /* a NUL byte: not text */
    assert_int_not_equal(add_text(r, "cloud-x.csv", "192.0.2.0/24\n\0\n", 15,
                                  &err), RA_OK);
    assert_non_null(strstr(err.msg, "NUL"));
    assert_int_equal(ra_ranges_lists(r), 0);

    /* an unknown provider's .csv is a geofeed, its .json the crawler
     * publishers' shape; a crawler file stays one */
    assert_int_equal(add_str(r, "cloud-acme.csv", "192.0.2.0/24,US\n", &err),
                     RA_OK);
    assert_int_equal(add_str(r, "cloud-acme.json",
                             "{\"prefixes\":[{\"ipv4Prefix\":\"10.0.0.0/8\"}]}",
                             &err), RA_OK);
    assert_int_equal(add_str(r, "googlebot.json",
                             "{\"prefixes\":[{\"ipv4Prefix\":\"10.0.0.0/8\"}]}",
                             &err), RA_OK);
    assert_int_equal(ra_ranges_kind(r, 0), RA_RANGES_CLOUD);
    assert_int_equal(ra_ranges_kind(r, 1), RA_RANGES_CLOUD);
    assert_int_equal(ra_ranges_kind(r, 2), RA_RANGES_CRAWLER);
    ra_test_arena_free(ar);
}

static const char *
provider_at(const ra_cloud_set_t *set, const char *ip)
{
    static char  buf[RA_CLOUD_NAME_MAX + 1];
    ra_addr_t    a = addr(ip);
    int          p = ra_ranges_cloud(set, &a);
    ra_str_t     n;

    if (p < 0) {
        return "none";
    }
    n = ra_cloud_provider(set, p);
    memcpy(buf, n.data, n.len);
    buf[n.len] = '\0';
    return buf;
}

typedef struct {
    const char  *ip;
    const char  *provider;          /* "none": no provider's */
} ra_cloud_expect_t;

static void
expect(const ra_cloud_set_t *set, const ra_cloud_expect_t *e, size_t n)
{
    size_t  i;

    for (i = 0; i < n; i++) {
        if (strcmp(provider_at(set, e[i].ip), e[i].provider) != 0) {
            print_message("%s: %s, not %s\n", e[i].ip,
                          provider_at(set, e[i].ip), e[i].provider);
            fail();
        }
    }
}

/* The lookup: every provider in one sorted array, edges exact */
static void
lookup_answers_the_provider(void **state)
{
    static const ra_cloud_expect_t  edges[] = {
        /* the edges of 192.0.2.0/24, cut among four providers */
        { "192.0.1.255", "none" }, { "192.0.2.0", "digitalocean" },
        /* linode's 192.0.2.32/28 lies inside digitalocean's /26, which
         * starts first: it answers */
        { "192.0.2.40", "digitalocean" }, { "192.0.2.63", "digitalocean" },
        { "192.0.2.64", "aws" }, { "192.0.2.127", "aws" },
        { "192.0.2.128", "oracle" }, { "192.0.2.255", "oracle" },
        { "192.0.3.0", "none" }, { "203.0.113.0", "aws" },
        { "203.0.113.255", "aws" }, { "203.0.114.0", "none" },
        /* an IPv4-mapped IPv6 address is the IPv4 one */
        { "::ffff:203.0.113.5", "aws" }, { "::ffff:198.51.100.1", "google" },
        /* IPv6 edges */
        { "2001:db8:4:ffff:ffff:ffff:ffff:ffff", "none" },
        { "2001:db8:5::", "aws" },
        { "2001:db8:5:ffff:ffff:ffff:ffff:ffff", "aws" },
        { "2001:db8:6::", "none" }, { "2001:db8:11::1", "linode" },
        { "2001:db8:d0::1", "digitalocean" },
        { "2001:db8:6ff:ffff::1", "google" },
        /* crawler ranges are no cloud's, nor the ends of the space */
        { "66.249.64.1", "none" }, { "::", "none" },
        { "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "none" },
    };
    ra_test_arena_t  *ar = ra_test_arena_new();
    ra_ranges_t      *r = ra_ranges_create(ra_test_arena_alloc(ar));
    ra_json_err_t     err;
    ra_cloud_set_t   *set;
    size_t            size, n;
    void             *mem;

    (void) state;
    /* none loaded: no set, and no set answers none */
    assert_int_equal(ra_cloud_set_size(r, &n), 0);
    assert_int_equal(n, 0);
    assert_string_equal(provider_at(NULL, "192.0.2.1"), "none");
    /* crawler lists are not the cloud's */
    assert_int_equal(add_str(r, "googlebot.json",
                             "{\"prefixes\":[{\"ipv4Prefix\":"
                             "\"66.249.64.0/19\"}]}", &err), RA_OK);
    assert_int_equal(ra_cloud_set_size(r, NULL), 0);

    add_fixture(r, "cloud-digitalocean.csv");
    add_fixture(r, "cloud-aws.json");
    add_fixture(r, "cloud-oracle.json");
    add_fixture(r, "cloud-linode.csv");
    add_fixture(r, "cloud-google.json");
    size = ra_cloud_set_size(r, &n);
    assert_true(size > 0);
    assert_int_equal(n, 2 + 3 + 1 + 2 + 2);
    mem = malloc(size);
    assert_null(ra_cloud_set_build(mem, size - 1, r));
    set = ra_cloud_set_build(mem, size, r);
    assert_non_null(set);
    assert_int_equal(ra_cloud_providers(set), 5);

    expect(set, edges, sizeof(edges) / sizeof(edges[0]));
    /* DO 2 + AWS 3 + Oracle 1 + Linode's v6 1 + Google 2: linode's v4
     * is inside DO's */
    assert_int_equal(ra_cloud_intervals(set), 9);
    free(mem);
    ra_test_arena_free(ar);
}

/* Lists a, b and c where b's overlaps a's, a's second file touches b's,
 * and c is loaded twice (a reload); with everything, b also holds ::/0.
 * The set of them, in mem. */
static ra_cloud_set_t *
merge_set(ra_test_arena_t *ar, int everything, void *mem, size_t cap)
{
    ra_ranges_t    *r = ra_ranges_create(ra_test_arena_alloc(ar));
    ra_json_err_t   err;

    assert_int_equal(add_str(r, "cloud-a.csv", "10.0.0.0/22\n", &err), RA_OK);
    assert_int_equal(add_str(r, "cloud-b.csv", everything
                             ? "10.0.2.0/23\n10.0.4.0/24\n::/0\n"
                             : "10.0.2.0/23\n10.0.4.0/24\n", &err), RA_OK);
    assert_int_equal(add_str(r, "cloud-a.json",
                             "{\"prefixes\":[{\"ipv4Prefix\":\"10.0.5.0/24\"},"
                             "{\"ipv4Prefix\":\"10.0.7.0/24\"}]}", &err),
                     RA_OK);
    assert_int_equal(add_str(r, "cloud-c.csv", "172.16.0.0/12\n", &err),
                     RA_OK);
    assert_int_equal(add_str(r, "cloud-c.csv", "172.16.0.0/16\n", &err),
                     RA_OK);
    assert_true(ra_cloud_set_size(r, NULL) <= cap);
    return ra_cloud_set_build(mem, cap, r);
}

/* Overlaps and neighbours between providers, and a reloaded name */
static void
lookup_merges_and_cuts(void **state)
{
    /* b's ::/0 holds every address and starts first: every address is
     * b's, and what the others publish adds nothing */
    static const ra_cloud_expect_t  all_b[] = {
        { "::1", "b" }, { "10.0.0.0", "b" }, { "172.16.255.255", "b" },
        { "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "b" },
    };
    /* without it: b's 10.0.2.0/23 is cut to what a does not hold,
     * nothing; its 10.0.4.0/24 then touches a's 10.0.5.0/24, another
     * provider's; the gaps are no one's; the later c is in force */
    static const ra_cloud_expect_t  cut[] = {
        { "10.0.3.255", "a" }, { "10.0.4.0", "b" }, { "10.0.4.255", "b" },
        { "10.0.5.0", "a" }, { "10.0.6.0", "none" }, { "10.0.7.255", "a" },
        { "172.16.255.255", "c" }, { "172.17.0.0", "none" },
    };
    ra_test_arena_t  *ar = ra_test_arena_new();
    ra_cloud_set_t   *set;
    unsigned char     mem[8192];

    (void) state;
    set = merge_set(ar, 1, mem, sizeof(mem));
    assert_non_null(set);
    expect(set, all_b, sizeof(all_b) / sizeof(all_b[0]));
    assert_int_equal(ra_cloud_intervals(set), 1);
    assert_int_equal(ra_cloud_providers(set), 3);
    set = merge_set(ar, 0, mem, sizeof(mem));
    assert_non_null(set);
    expect(set, cut, sizeof(cut) / sizeof(cut[0]));
    /* a 0-3, b 4, a 5, a 7, c */
    assert_int_equal(ra_cloud_intervals(set), 5);
    ra_test_arena_free(ar);
}

/* A cloud list never verifies a crawler, whatever its table names: a
 * client claiming the crawler from a cloud machine stays an impostor
 * when the crawler's own list is loaded, unverifiable when not. */
static void
cloud_never_verifies(void **state)
{
    static const ra_str_t  own_and_cloud[] = { ra_string("crawler.json"),
                                               ra_string("cloud-aws.json") };
    static const ra_str_t  cloud_only[] = { ra_string("cloud-aws.json") };
    ra_test_arena_t  *ar = ra_test_arena_new();
    ra_ranges_t      *r = ra_ranges_create(ra_test_arena_alloc(ar));
    ra_json_err_t     err;
    ra_crawler_t      c;
    ra_addr_t         a = addr("203.0.113.5"), own = addr("66.249.64.1");

    (void) state;
    add_fixture(r, "cloud-aws.json");
    assert_int_equal(add_str(r, "crawler.json",
                             "{\"prefixes\":[{\"ipv4Prefix\":"
                             "\"66.249.64.0/19\"}]}", &err), RA_OK);
    memset(&c, 0, sizeof(c));
    c.ranges = own_and_cloud;
    c.nranges = 2;
    assert_int_equal(ra_verify(r, &c, &a), RA_VERIFY_IMPOSTOR);
    assert_int_equal(ra_verify(r, &c, &own), RA_VERIFY_VERIFIED);
    c.ranges = cloud_only;
    c.nranges = 1;
    assert_int_equal(ra_verify(r, &c, &a), RA_VERIFY_UNVERIFIABLE);
    assert_int_equal(ra_verify_means(r, &c, 0), RA_VERIFY_MEANS_MISSING);
    ra_test_arena_free(ar);
}

/* The setup reads cloud files by their name and builds the lookup once,
 * at the compile; the engine's configuration carries it. */
static void
setup_builds_the_lookup(void **state)
{
    ra_test_arena_t  *ar = ra_test_arena_new();
    ra_setup_t        s;
    ra_buf_t          why;
    ra_host_t         h;
    ra_test_log_t     log;
    ra_audit_conf_t   conf;
    ra_setup_values_t v;
    ra_addr_t         a = addr("2001:db8:5:6::1");

    (void) state;
    ra_test_host(&h, &log, NULL);
    ra_buf_init(&why, &ra_malloc_allocator, 0, 1024);
    ra_setup_init(&s, &h, ra_test_arena_alloc(ar));
    assert_int_equal(ra_setup_ranges_file(&s, DATA "cloud-aws.json", &why),
                     RA_OK);
    assert_int_equal(ra_setup_ranges_file(&s, DATA "cloud-linode.csv", &why),
                     RA_OK);
    assert_null(s.cloud);
    assert_int_equal(ra_setup_compile(&s, &why), RA_OK);
    assert_non_null(s.cloud);
    assert_int_equal(ra_ranges_cloud(s.cloud, &a), 0);
    memset(&v, 0, sizeof(v));
    ra_setup_audit_conf(&conf, &s, &h, ra_str("z", 1), &v);
    assert_ptr_equal(conf.cloud, s.cloud);
    ra_buf_release(&why);
    ra_test_arena_free(ar);
}

int
main(void)
{
    const struct CMUnitTest  tests[] = {
        cmocka_unit_test(names_tell_the_kind),
        cmocka_unit_test(each_provider_reads),
        cmocka_unit_test(malformed_refused),
        cmocka_unit_test(lookup_answers_the_provider),
        cmocka_unit_test(lookup_merges_and_cuts),
        cmocka_unit_test(cloud_never_verifies),
        cmocka_unit_test(setup_builds_the_lookup),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
