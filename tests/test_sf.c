/* SPDX-License-Identifier: BSD-2-Clause */
/* Structured Field Values (ra_sf.h): RFC 9651's examples, the bounds of
 * its numbers, what each caller's flags accept, the reasons and places of
 * failures that lint quotes, and serialising what was parsed.  Every input
 * sits alone in its allocation, so that ASan sees a read past its end. */
#include <stdio.h>
#include <string.h>

#include "ra_test.h"
#include "ra_sf.h"

#define ALL  RA_SF_9651

/* A member's value and parameters serialised again from what ra_sf_item()
 * or ra_sf_inner() reads: the canonical form, where the RFC gives it. */
static void
put_member(ra_sf_out_t *o, const ra_sf_member_t *m, unsigned flags)
{
    ra_sf_cur_t    c;
    ra_sf_item_t   items[8];
    ra_sf_param_t  params[8];
    ra_sf_bare_t   v;
    unsigned       n, np, i;

    if (m->key.len) {
        ra_sf_put(o, m->key.data, m->key.len);
    }
    ra_sf_init_member(&c, m, flags);
    if (m->bare) {
        assert_int_equal(ra_sf_params(&c, params, 8, &np), RA_OK);
        ra_sf_put_params(o, params, np);
        return;
    }
    if (m->key.len) {
        ra_sf_put(o, "=", 1);
    }
    if (m->list) {
        assert_int_equal(ra_sf_inner(&c, items, 8, &n), RA_OK);
        assert_int_equal(ra_sf_params(&c, params, 8, &np), RA_OK);
        ra_sf_put(o, "(", 1);
        for (i = 0; i < n; i++) {
            if (i) {
                ra_sf_put(o, " ", 1);
            }
            ra_sf_put_item(o, &items[i]);
        }
        ra_sf_put(o, ")", 1);
        ra_sf_put_params(o, params, np);
    } else {
        /* as ra_sf_item() reads, with room for more parameters */
        assert_int_equal(ra_sf_bare(&c, &v), RA_OK);
        assert_int_equal(ra_sf_params(&c, params, 8, &np), RA_OK);
        ra_sf_put_bare(o, &v);
        ra_sf_put_params(o, params, np);
    }
    assert_true(c.p == c.end);
}

/* A whole Dictionary (dict) or List serialised again, or "FAIL@off why" */
static const char *
field(int dict, unsigned flags, const char *text)
{
    static char      out[512];
    ra_str_t         s = ra_test_exact(text, strlen(text));
    ra_sf_cur_t      c;
    ra_sf_member_t   m;
    ra_sf_out_t      o = { (unsigned char *) out, 0, sizeof(out) - 1, 0 };
    int              rc;

    ra_sf_init(&c, s, flags);
    while ((rc = dict ? ra_sf_dict_next(&c, &m) : ra_sf_list_next(&c, &m))
           == 1)
    {
        if (c.members > 1) {
            ra_sf_put(&o, ", ", 2);
        }
        put_member(&o, &m, flags);
    }
    assert_false(o.over);
    out[o.len] = '\0';
    if (rc != 0) {
        assert_int_equal(rc, RA_ERROR);
        assert_non_null(c.why);
        snprintf(out, sizeof(out), "FAIL@%d %s", (int) (c.p - c.start),
                 c.why);
    }
    ra_test_exact_free(s);
    return out;
}

#define dict(t)         field(1, ALL, t)
#define list(t)         field(0, ALL, t)

/* One Item alone (the whole input), serialised again, or "FAIL..."; *it
 * spans the input, kept until the next call. */
static const char *
item(unsigned flags, const char *text, ra_sf_item_t *it)
{
    static char      out[256];
    static ra_str_t  s;
    ra_sf_cur_t      c;
    ra_sf_out_t      o = { (unsigned char *) out, 0, sizeof(out) - 1, 0 };
    int              rc;

    if (s.data != NULL) {
        ra_test_exact_free(s);
    }
    s = ra_test_exact(text, strlen(text));
    ra_sf_init(&c, s, flags);
    rc = ra_sf_item(&c, it);
    if (rc != RA_OK) {
        snprintf(out, sizeof(out), "FAIL@%d %s", (int) (c.p - c.start),
                 c.why);
    } else if (c.p != c.end) {
        snprintf(out, sizeof(out), "REST@%d", (int) (c.p - c.start));
    } else {
        ra_sf_put_item(&o, it);
        out[o.len] = '\0';
    }
    return out;
}

/* RFC 9651's examples of Lists, Dictionaries and Items (Sections 3.1 to
 * 3.3), serialised again as the RFC shows them. */
static void
rfc_examples(void **state)
{
    ra_sf_item_t  it;

    (void) state;
    assert_string_equal(list("sugar, tea, rum"), "sugar, tea, rum");
    assert_string_equal(list("(\"foo\" \"bar\"), (\"baz\"), (\"bat\" \"one\"), ()"),
                        "(\"foo\" \"bar\"), (\"baz\"), (\"bat\" \"one\"), ()");
    assert_string_equal(list("(\"foo\"; a=1;b=2);lvl=5, (\"bar\" \"baz\");lvl=1"),
                        "(\"foo\";a=1;b=2);lvl=5, (\"bar\" \"baz\");lvl=1");
    assert_string_equal(list("abc;a=1;b=2; cde_456, (ghi;jk=4 l);q=\"9\";r=w"),
                        "abc;a=1;b=2;cde_456, (ghi;jk=4 l);q=\"9\";r=w");
    assert_string_equal(list(""), "");
    assert_string_equal(dict("en=\"Applepie\", da=:w4ZibGV0w6ZydGU=:"),
                        "en=\"Applepie\", da=:w4ZibGV0w6ZydGU=:");
    assert_string_equal(dict("a=?0, b, c; foo=bar"), "a=?0, b, c;foo=bar");
    assert_string_equal(dict("rating=1.5, feelings=(joy sadness)"),
                        "rating=1.5, feelings=(joy sadness)");
    assert_string_equal(dict("a=(1 2), b=3, c=4;aa=bb, d=(5 6);valid"),
                        "a=(1 2), b=3, c=4;aa=bb, d=(5 6);valid");

    assert_string_equal(item(ALL, "5; foo=bar", &it), "5;foo=bar");
    assert_int_equal(it.v.type, RA_SF_INTEGER);
    assert_int_equal(it.v.i, 5);
    assert_int_equal(it.nparams, 1);
    assert_true(ra_sf_is(ra_sf_param(it.params, it.nparams, "foo"),
                         RA_SF_TOKEN, "bar"));
    assert_string_equal(item(ALL, "42", &it), "42");
    assert_string_equal(item(ALL, "-42", &it), "-42");
    assert_int_equal(it.v.i, -42);
    assert_string_equal(item(ALL, "4.5", &it), "4.5");
    assert_int_equal(it.v.type, RA_SF_DECIMAL);
    assert_int_equal(it.v.i, 4500);
    assert_string_equal(item(ALL, "\"hello world\"", &it),
                        "\"hello world\"");
    assert_int_equal(it.v.type, RA_SF_STRING);
    assert_int_equal(it.v.raw.len, 11);
    assert_string_equal(item(ALL, "foo123/456", &it), "foo123/456");
    assert_int_equal(it.v.type, RA_SF_TOKEN);
    assert_string_equal(
        item(ALL, ":cHJldGVuZCB0aGlzIGlzIGJpbmFyeSBjb250ZW50Lg==:", &it),
        ":cHJldGVuZCB0aGlzIGlzIGJpbmFyeSBjb250ZW50Lg==:");
    assert_int_equal(it.v.type, RA_SF_BYTES);
    assert_string_equal(item(ALL, "?1", &it), "?1");
    assert_int_equal(it.v.type, RA_SF_BOOLEAN);
    assert_int_equal(it.v.i, 1);
    assert_string_equal(item(ALL, "@1659578233", &it), "@1659578233");
    assert_int_equal(it.v.type, RA_SF_DATE);
    assert_int_equal(it.v.i, 1659578233);
    assert_string_equal(
        item(ALL, "%\"This is intended for display to %c3%bcsers.\"", &it),
        "%\"This is intended for display to %c3%bcsers.\"");
    assert_int_equal(it.v.type, RA_SF_DISPLAY);
}

/* Integers hold 15 digits, Decimals 12 before the point and 1 to 3 after
 * it; a failure points past the digits read. */
static void
numbers(void **state)
{
    ra_sf_item_t  it;

    (void) state;
    assert_string_equal(item(ALL, "999999999999999", &it),
                        "999999999999999");
    assert_int_equal(it.v.i, 999999999999999LL);
    assert_string_equal(item(ALL, "-999999999999999", &it),
                        "-999999999999999");
    assert_int_equal(it.v.i, -999999999999999LL);
    assert_string_equal(item(ALL, "1000000000000000", &it),
                        "FAIL@16 a bad number");
    assert_string_equal(item(ALL, "123456789012345678901234567890", &it),
                        "FAIL@30 a bad number");
    assert_string_equal(item(ALL, "123456789012.123", &it),
                        "123456789012.123");
    assert_int_equal(it.v.i, 123456789012123LL);
    assert_string_equal(item(ALL, "-0.5", &it), "-0.5");
    assert_int_equal(it.v.i, -500);
    assert_string_equal(item(ALL, "01.50", &it), "01.50");
    assert_int_equal(it.v.i, 1500);
    assert_string_equal(item(ALL, "1.2345", &it), "FAIL@6 a bad number");
    assert_string_equal(item(ALL, "1.", &it), "FAIL@2 a bad number");
    assert_string_equal(item(ALL, "-", &it), "FAIL@1 a bad number");
    assert_string_equal(item(ALL, "-.5", &it), "FAIL@1 a bad number");
    /* 13 digits before a point: the Integer ends there */
    assert_string_equal(item(ALL, "1234567890123.5", &it), "REST@13");
    assert_string_equal(item(ALL, "1.5.3", &it), "REST@3");
    assert_string_equal(item(ALL, "@-5", &it), "@-5");
    assert_int_equal(it.v.i, -5);
    assert_string_equal(item(ALL, "@1.5", &it), "REST@2");
    assert_string_equal(item(ALL, "@", &it), "FAIL@1 a bad number");
    assert_string_equal(item(ALL, "+1", &it),
        "FAIL@0 a value that is no token, string, number or boolean");
}

/* Strings, Tokens, Byte Sequences, Booleans and Display Strings: what
 * they may hold. */
static void
bare_items(void **state)
{
    ra_sf_item_t  it;

    (void) state;
    assert_string_equal(item(ALL, "\"a\\\"b\\\\c\"", &it),
                        "\"a\\\"b\\\\c\"");
    assert_string_equal(item(ALL, "\"\"", &it), "\"\"");
    assert_string_equal(item(ALL, "\"\\q\"", &it),
                        "FAIL@1 a bad escape in a string");
    assert_string_equal(item(ALL, "\"a\\", &it),
                        "FAIL@2 a bad escape in a string");
    assert_string_equal(item(ALL, "\"a\tb\"", &it),
                        "FAIL@2 a byte a string may not hold");
    assert_string_equal(item(ALL, "\"caf\xc3\xa9\"", &it),
                        "FAIL@4 a byte a string may not hold");
    assert_string_equal(item(ALL, "\"open", &it),
                        "FAIL@5 a string is not closed");
    assert_string_equal(item(ALL, "*", &it), "*");
    assert_string_equal(item(ALL, "a:b/c!#$%&'*+-.^_`|~9", &it),
                        "a:b/c!#$%&'*+-.^_`|~9");
    assert_string_equal(item(ALL, "tok(", &it), "REST@3");
    assert_string_equal(item(ALL, "::", &it), "::");
    assert_int_equal(it.v.raw.len, 0);
    assert_string_equal(item(ALL, ":a!b:", &it),
                        "FAIL@2 a bad byte sequence");
    assert_string_equal(item(ALL, ":abc", &it),
                        "FAIL@4 a bad byte sequence");
    assert_string_equal(item(ALL, "?0", &it), "?0");
    assert_int_equal(it.v.i, 0);
    assert_string_equal(item(ALL, "?2", &it), "FAIL@0 a bad boolean");
    assert_string_equal(item(ALL, "?", &it), "FAIL@0 a bad boolean");
    assert_string_equal(item(ALL, "%\"%c3%a9\"", &it), "%\"%c3%a9\"");
    assert_string_equal(item(ALL, "%\"%C3%A9\"", &it),
                        "FAIL@2 a bad escape in a string");
    assert_string_equal(item(ALL, "%\"%c\"", &it),
                        "FAIL@2 a bad escape in a string");
    assert_string_equal(item(ALL, "%\"a\\\"\"", &it),
                        "FAIL@3 a byte a string may not hold");
    assert_string_equal(item(ALL, "%x", &it),
        "FAIL@0 a value that is no token, string, number or boolean");
    assert_string_equal(item(ALL, "", &it), "FAIL@0 a value is missing");
}

/* What Web Bot Auth parses with (no flag, or RA_SF_BOUNDED) and what lint
 * parses with (RA_SF_9651) differ only where the flags say. */
static void
strictness(void **state)
{
    ra_sf_item_t  it;

    (void) state;
    /* RFC 8941 had no Dates or Display Strings */
    assert_string_equal(item(0, "@1659578233", &it),
                        "FAIL@0 a date, which RFC 8941 has not");
    assert_string_equal(item(0, "%\"x\"", &it),
                        "FAIL@0 a display string, which RFC 8941 has not");
    assert_string_equal(field(1, RA_SF_BOUNDED, "a=@1"),
                        "FAIL@2 a date, which RFC 8941 has not");
    assert_string_equal(field(1, ALL, "a=@1"), "a=@1");

    /* an item read into ra_sf_item_t keeps 4 parameters; a repeated key
     * takes one place, its last value */
    assert_string_equal(item(0, "x;a;b=2;a=3;c;d", &it), "x;a=3;b=2;c;d");
    assert_string_equal(item(0, "x;a;b;c;d;e", &it),
                        "FAIL@11 more parameters than are kept");
    /* checked only: bounded only when asked */
    assert_string_equal(field(1, ALL, "k=x;a;b;c;d;e"), "k=x;a;b;c;d;e");
    assert_string_equal(field(1, RA_SF_BOUNDED, "k=x;a;b;c;d;e"),
                        "FAIL@13 more parameters than are kept");
    assert_string_equal(field(1, RA_SF_BOUNDED, "k=(x;a;b;c;d;e)"),
                        "FAIL@14 more parameters than are kept");
    /* an inner list's own parameters and a bare key's are not an item's */
    assert_string_equal(field(1, RA_SF_BOUNDED, "k=(x);a;b;c;d;e;f;g"),
                        "k=(x);a;b;c;d;e;f;g");
    assert_string_equal(field(1, RA_SF_BOUNDED, "k;a;b;c;d;e;f;g"),
                        "k;a;b;c;d;e;f;g");
}

/* Where a Dictionary fails, and the words lint quotes. */
static void
dictionary_failures(void **state)
{
    (void) state;
    assert_string_equal(dict("train-ai = n"),
                        "FAIL@9 a space before '='");
    assert_string_equal(dict("train-ai= n"),
                        "FAIL@9 a space after '='");
    assert_string_equal(dict("a=n,"), "FAIL@4 a trailing ','");
    assert_string_equal(dict("a=n, \t"), "FAIL@6 a trailing ','");
    assert_string_equal(dict("a=n,,b=y"),
                        "FAIL@4 a label starts with a-z or '*'");
    assert_string_equal(dict(",a=n"),
                        "FAIL@0 a label starts with a-z or '*'");
    assert_string_equal(dict("\ta=n"),
                        "FAIL@0 a label starts with a-z or '*'");
    assert_string_equal(dict("9x=n"),
                        "FAIL@0 a label starts with a-z or '*'");
    assert_string_equal(dict("Train-ai=n"),
        "FAIL@0 a label is lower case (labels are case-sensitive)");
    assert_string_equal(dict("trAin-ai=n"),
        "FAIL@2 a label is lower case (labels are case-sensitive)");
    assert_string_equal(dict("a=n;P=1"),
        "FAIL@4 a label is lower case (labels are case-sensitive)");
    assert_string_equal(dict("a=y;"), "FAIL@4 a ';' without a parameter");
    assert_string_equal(dict("a=y; ,b=n"),
                        "FAIL@5 a ';' without a parameter");
    assert_string_equal(dict("a=y;=1"),
                        "FAIL@4 a label starts with a-z or '*'");
    assert_string_equal(dict("a=y;b="), "FAIL@6 a value is missing");
    assert_string_equal(dict("a=n b=y"),
                        "FAIL@4 no ',' between two members");
    assert_string_equal(dict("a=y z"),
                        "FAIL@4 no ',' between two members");
    assert_string_equal(dict("a=n=y"), "FAIL@3 a space before '='");
    assert_string_equal(dict("a=(x y"),
                        "FAIL@6 an inner list is not closed");
    assert_string_equal(dict("a=(x,y)"),
                        "FAIL@4 an inner list's items are not apart");
    assert_string_equal(dict("a=(x)(y)"),
                        "FAIL@5 no ',' between two members");
    assert_string_equal(list("a, (b"), "FAIL@5 an inner list is not closed");
    assert_string_equal(list("a b"), "FAIL@2 no ',' between two members");
}

/* What parses however it is spaced, and a member's spans. */
static void
dictionary_members(void **state)
{
    ra_str_t        s = RA_TEST_STR("  a=1;x, b ,\tc=(p \"q\";r)  ;s=?0 ");
    ra_sf_cur_t     c;
    ra_sf_member_t  m;

    (void) state;
    assert_string_equal(dict("a=(  x   y  )"), "a=(x y)");
    assert_string_equal(dict("a=n\t,\tb=y \t"), "a=n, b=y");
    assert_string_equal(dict("*x=y, a*b.c_d-e=1"), "*x=y, a*b.c_d-e=1");

    ra_sf_init(&c, s, ALL);
    assert_int_equal(ra_sf_dict_next(&c, &m), 1);
    assert_memory_equal(m.key.data, "a", 1);
    assert_int_equal(m.value.len, 1);
    assert_memory_equal(m.value.data, "1", 1);
    assert_int_equal(m.params.len, 2);
    assert_false(m.list || m.bare);
    assert_int_equal(ra_sf_dict_next(&c, &m), 1);
    assert_memory_equal(m.key.data, "b", 1);
    assert_true(m.bare);
    assert_int_equal(m.value.len, 0);
    assert_true(m.value.data == m.key.data + 1);
    assert_int_equal(ra_sf_dict_next(&c, &m), 1);
    assert_true(m.list);
    assert_int_equal(m.value.len, 9);
    assert_memory_equal(m.value.data, "(p \"q\";r)", 9);
    assert_int_equal(m.params.len, 0);
    assert_int_equal(ra_sf_dict_next(&c, &m), RA_ERROR);
    assert_string_equal(c.why, "no ',' between two members");
    /* an error sticks */
    assert_int_equal(ra_sf_dict_next(&c, &m), RA_ERROR);
    ra_test_exact_free(s);
}

/* The whole-field form Web Bot Auth reads: bounded, and empty is no
 * dictionary; the last member of a key wins. */
static void
whole_dictionary(void **state)
{
    ra_sf_member_t  m[3];
    unsigned        n = 99;
    ra_str_t        s;
    const ra_sf_member_t  *g;

    (void) state;
    assert_int_equal(ra_sf_dict(ra_str("", 0), 0, m, 3, &n), RA_ERROR);
    assert_int_equal(n, 0);
    assert_int_equal(ra_sf_dict(ra_str("   ", 3), 0, m, 3, &n), RA_ERROR);
    assert_int_equal(ra_sf_dict(ra_str("a, b", 4), 0, m, 3, &n), RA_OK);
    assert_int_equal(n, 2);
    /* the bound is met before the member past it is read */
    s = RA_TEST_STR("a, b, c, !!");
    assert_int_equal(ra_sf_dict(s, 0, m, 3, &n), RA_ELIMIT);
    ra_test_exact_free(s);
    s = RA_TEST_STR("a, b, !!");
    assert_int_equal(ra_sf_dict(s, 0, m, 3, &n), RA_ERROR);
    ra_test_exact_free(s);
    s = RA_TEST_STR("a, b, c");
    assert_int_equal(ra_sf_dict(s, 0, m, 3, &n), RA_OK);
    ra_test_exact_free(s);

    s = RA_TEST_STR("k=1, j=2, k=3");
    assert_int_equal(ra_sf_dict(s, 0, m, 3, &n), RA_OK);
    g = ra_sf_dict_get(m, n, ra_str("k", 1));
    assert_non_null(g);
    assert_memory_equal(g->value.data, "3", 1);
    assert_null(ra_sf_dict_get(m, n, ra_str("K", 1)));
    assert_null(ra_sf_dict_get(m, n, ra_str("x", 1)));
    ra_test_exact_free(s);
}

/* Inner lists read into a caller's array, and the bound of it. */
static void
inner_lists(void **state)
{
    ra_str_t       s = RA_TEST_STR("(\"a\" \"b\";key=\"s\" c)");
    ra_sf_item_t   it[3];
    ra_sf_cur_t    c;
    unsigned       n = 0;

    (void) state;
    ra_sf_init(&c, s, 0);
    assert_int_equal(ra_sf_inner(&c, it, 3, &n), RA_OK);
    assert_int_equal(n, 3);
    assert_true(c.p == c.end);
    assert_int_equal(it[1].nparams, 1);
    assert_true(ra_sf_is(ra_sf_param(it[1].params, 1, "key"), RA_SF_STRING,
                         "s"));
    assert_null(ra_sf_param(it[1].params, 1, "ke"));
    assert_false(ra_sf_is(NULL, RA_SF_STRING, "s"));
    ra_sf_init(&c, s, 0);
    assert_int_equal(ra_sf_inner(&c, it, 2, &n), RA_ELIMIT);
    assert_string_equal(c.why, "more items than are kept");
    ra_sf_init(&c, s, 0);
    assert_int_equal(ra_sf_inner(&c, NULL, 0, NULL), RA_OK);
    ra_test_exact_free(s);
    s = RA_TEST_STR("x");
    ra_sf_init(&c, s, 0);
    assert_int_equal(ra_sf_inner(&c, it, 3, &n), RA_ERROR);
    ra_test_exact_free(s);
}

/* Serialising into a fixed buffer: Integers from their values, what does
 * not fit dropped and said once. */
static void
serialising(void **state)
{
    unsigned char  buf[8];
    ra_sf_out_t    o = { buf, 0, sizeof(buf), 0 };
    ra_sf_bare_t   v;

    (void) state;
    v.type = RA_SF_INTEGER;
    v.raw = ra_str("0042", 4);
    v.i = 42;
    ra_sf_put_bare(&o, &v);
    assert_int_equal(o.len, 2);
    assert_memory_equal(buf, "42", 2);
    ra_sf_put_int(&o, INT64_MIN);
    assert_true(o.over);
    assert_int_equal(o.len, 2);
    ra_sf_put(&o, "x", 1);
    assert_int_equal(o.len, 2);

    o.len = 0;
    o.over = 0;
    ra_sf_put_int(&o, -7);
    v.type = RA_SF_BOOLEAN;
    v.i = 0;
    ra_sf_put_bare(&o, &v);
    assert_false(o.over);
    assert_memory_equal(buf, "-7?0", 4);
}

/* Hostile input: every byte value at every place of a small field parses
 * or fails without reading past the end, in time linear in the input. */
static void
hostile(void **state)
{
    static const char  base[] = "a=(\"x\" 1.5;p=:YQ==:);q, b=?1;r=@2";
    char               buf[sizeof(base) + 1];
    ra_sf_cur_t        c;
    ra_sf_member_t     m;
    ra_str_t           s;
    size_t             i;
    unsigned           b, steps;
    int                rc;

    (void) state;
    for (i = 0; i < sizeof(base); i++) {
        for (b = 0; b < 256; b++) {
            memcpy(buf, base, i);
            buf[i] = (char) b;
            memcpy(buf + i + 1, base + i, sizeof(base) - 1 - i);
            s = ra_test_exact(buf, sizeof(base));
            ra_sf_init(&c, s, b & 1 ? ALL : RA_SF_BOUNDED);
            steps = 0;
            while ((rc = ra_sf_dict_next(&c, &m)) == 1) {
                assert_true(m.params.data + m.params.len <= c.end);
                assert_true(++steps <= sizeof(base));
            }
            assert_true(rc == 0 || (rc == RA_ERROR && c.why != NULL));
            assert_true(c.p >= c.start && c.p <= c.end);
            ra_test_exact_free(s);
        }
    }
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rfc_examples),
        cmocka_unit_test(numbers),
        cmocka_unit_test(bare_items),
        cmocka_unit_test(strictness),
        cmocka_unit_test(dictionary_failures),
        cmocka_unit_test(dictionary_members),
        cmocka_unit_test(whole_dictionary),
        cmocka_unit_test(inner_lists),
        cmocka_unit_test(serialising),
        cmocka_unit_test(hostile),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
