/* SPDX-License-Identifier: BSD-2-Clause */
/* The core's small tools every room stands on (ra_core.h): the byte
 * search, and the two hashes the tables key on, whole and sampled. */
#include <stdio.h>
#include <string.h>

#include "ra_test.h"

static void
memmem_finds_the_first(void **state)
{
    static const char  hay[] = "abcabd";

    (void) state;
    assert_ptr_equal(ra_memmem(hay, 6, "abd", 3), hay + 3);
    assert_ptr_equal(ra_memmem(hay, 6, "ab", 2), hay);
    assert_null(ra_memmem(hay, 6, "abe", 3));
    assert_null(ra_memmem(hay, 2, "abc", 3));
    assert_ptr_equal(ra_memmem(hay, 6, "", 0), hay);
}

/* Every byte counts in the whole hash, and the length too */
static void
hash_bytes_takes_every_byte(void **state)
{
    unsigned char  a[100], b[100];
    size_t         n, i;

    (void) state;
    for (i = 0; i < sizeof(a); i++) {
        a[i] = (unsigned char) ('a' + i % 26);
    }
    for (n = 1; n <= sizeof(a); n++) {
        for (i = 0; i < n; i++) {
            memcpy(b, a, n);
            b[i] ^= 0x20;
            assert_true(ra_hash_bytes(a, n) != ra_hash_bytes(b, n));
        }
        assert_true(ra_hash_bytes(a, n) != ra_hash_bytes(a, n - 1));
    }
    assert_true(ra_hash_bytes(NULL, 0) == ra_hash_bytes(a, 0));
}

/* The sampled key: a short text whole; a long one by its length, its
 * last 32 bytes and three words inside, so that two User-Agents of one
 * browser's versions differ, and bytes outside the sample do not count */
static void
hash_sample_reads_its_sample(void **state)
{
    static const char  chrome130[] =
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 "
        "(KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36";
    static const char  chrome131[] =
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 "
        "(KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
    char               ua[sizeof(chrome131)];
    size_t             n = sizeof(chrome131) - 1;

    (void) state;
    assert_true(ra_hash_sample((const unsigned char *) "Wget/1.21", 9)
                == ra_hash_bytes((const unsigned char *) "Wget/1.21", 9));
    assert_true(ra_hash_sample((const unsigned char *) chrome130, n)
                != ra_hash_sample((const unsigned char *) chrome131, n));
    assert_true(ra_hash_sample((const unsigned char *) chrome131, n)
                != ra_hash_sample((const unsigned char *) chrome131, n - 1));
    /* byte 1 lies outside the sample of a 113-byte text */
    memcpy(ua, chrome131, sizeof(ua));
    ua[1] = 'X';
    assert_true(ra_hash_sample((const unsigned char *) ua, n)
                == ra_hash_sample((const unsigned char *) chrome131, n));
    /* the last byte lies in it */
    memcpy(ua, chrome131, sizeof(ua));
    ua[n - 1] = '7';
    assert_true(ra_hash_sample((const unsigned char *) ua, n)
                != ra_hash_sample((const unsigned char *) chrome131, n));
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(memmem_finds_the_first),
        cmocka_unit_test(hash_bytes_takes_every_byte),
        cmocka_unit_test(hash_sample_reads_its_sample),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
