/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Canonical paths (ra_http_canon) and the robots.txt request test that
 * walks them (ra_http_is_robots): RFC 3986 6.2.2 as the servers apply it
 * before they map a path to a file (merged slashes, 5.2.4's dot
 * segments, escapes of unreserved bytes and of '/' decoded).  The RFC's
 * 5.4 examples, merged with their base path; every spelling the servers
 * map to one file;
 * the servers' refusals (flags); long and hostile inputs; and a word for
 * word 5.2.4 as the reference on random paths.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ra_test.h"
#include "ra_http.h"

#define CH     RA_CANON_CHANGED
#define ROOT   RA_CANON_ABOVE_ROOT
#define SLASH  RA_CANON_ENCODED_SLASH
#define BAD    RA_CANON_BAD_ESCAPE

/* ra_http_canon(in) into a block of exactly in.len + 1 bytes (ASan sees
 * any write past it); the result as a NUL-terminated copy */
static char *
canon_of(ra_str_t in, unsigned *flags)
{
    size_t          n;
    char           *out;
    unsigned char  *dst;

    dst = malloc(in.len + 1);
    assert_non_null(dst);
    n = ra_http_canon(in, dst, flags);
    assert_true(n <= in.len + 1);
    out = malloc(n + 1);
    assert_non_null(out);
    memcpy(out, dst, n);
    out[n] = '\0';
    free(dst);
    return out;
}

/* in reads want, with these flags (RA_CANON_CHANGED follows from want) */
static void
canon_is(const char *in, const char *want, unsigned want_flags)
{
    char      *got;
    ra_str_t   s;
    unsigned   flags;

    s = ra_test_exact(in, strlen(in));
    got = canon_of(s, &flags);
    if (strcmp(in, want) != 0) {
        want_flags |= CH;
    }
    if (strcmp(got, want) != 0 || flags != want_flags) {
        print_message("canon(\"%s\") = \"%s\" flags %#x, want \"%s\" %#x\n",
                      in, got, flags, want, want_flags);
        fail();
    }
    free(got);
    ra_test_exact_free(s);
}

/* unchanged: nothing to merge, remove or decode */
static void
canon_identity(void **state)
{
    static const char  *const same[] = {
        "/", "/a", "/a/b", "/a/b/", "/private/x", "/private/x;p=1",
        "/private/x;a=1/y", "/PRIVATE/X", "/a?b", "/a?", "/?", "/a%20b",
        "/%3F", "/%3f", "/a%23b", "/%25", "/%252e", "/%252F", "/a%00b",
        "/%E3%83%84", "/\xe3\x83\x84", "/...", "/.a", "/a.", "/..a", "/a..",
        "/a/.../b", "/.well-known/x", "/~user", "/a*b$", "/a b", "/a\\b",
        "/a?b/../c", "/a?%2e%2e", "/a?//b", "/a?%zz",
    };
    size_t  i;

    (void) state;
    for (i = 0; i < sizeof(same) / sizeof(same[0]); i++) {
        canon_is(same[i], same[i], 0);
    }
}

/* runs of '/' merged, as nginx (merge_slashes) and Apache (MergeSlashes)
 * do by default */
static void
canon_slashes(void **state)
{
    (void) state;
    canon_is("//", "/", 0);
    canon_is("//private/x", "/private/x", 0);
    canon_is("///private/x", "/private/x", 0);
    canon_is("/private//x", "/private/x", 0);
    canon_is("/private///x//", "/private/x/", 0);
    canon_is("/a//", "/a/", 0);
    canon_is("//?x", "/?x", 0);
    canon_is("/a//b?c//d", "/a/b?c//d", 0);
}

/* RFC 3986 5.2.4: "." and ".." segments */
static void
canon_dot_segments(void **state)
{
    (void) state;
    canon_is("/.", "/", 0);
    canon_is("/./", "/", 0);
    canon_is("/./private/x", "/private/x", 0);
    canon_is("/private/./x", "/private/x", 0);
    canon_is("/private/.", "/private/", 0);
    canon_is("/a/..", "/", 0);
    canon_is("/a/../", "/", 0);
    canon_is("/a/../private/x", "/private/x", 0);
    canon_is("/a/b/../../private/x", "/private/x", 0);
    canon_is("/private/y/../x", "/private/x", 0);
    canon_is("/private/x/..", "/private/", 0);
    canon_is("/private/x/.", "/private/x/", 0);
    canon_is("/a/b/..", "/a/", 0);
    canon_is("//./private/../private/x", "/private/x", 0);
    canon_is("/robots.txt/../private/x", "/private/x", 0);
    canon_is("/a//../x", "/x", 0);           /* merged first, as both do */
    canon_is("/a/.//x", "/a/x", 0);
    canon_is("/a/..//x", "/x", 0);
    canon_is("/a/./../b/./c/..", "/b/", 0);
    canon_is("/a/..?x", "/?x", 0);
    canon_is("/a/.?x/../y", "/a/?x/../y", 0);
    /* above the root: dropped there (RFC), refused by both servers */
    canon_is("/..", "/", ROOT);
    canon_is("/../", "/", ROOT);
    canon_is("/../private/x", "/private/x", ROOT);
    canon_is("/a/../../private/x", "/private/x", ROOT);
    canon_is("/../../../../x", "/x", ROOT);
    canon_is("/a/b/../../../c/./d", "/c/d", ROOT);
    /* RFC 3986 5.2.4's own examples */
    canon_is("/a/b/c/./../../g", "/a/g", 0);
    canon_is("mid/content=5/../6", "/mid/6", 0);
}

/*
 * RFC 3986 5.4, base "http://a/b/c/d;p?q": each reference merged with
 * the base's path (5.2.3, "/b/c/" + reference) reads as the RFC's
 * target's path and query.  References with their own authority,
 * scheme or fragment are the URL parser's (ra_url_path), not this.
 */
static void
canon_rfc3986_examples(void **state)
{
    static const struct {
        const char  *ref;
        const char  *want;
        unsigned     flags;
    } ex[] = {
        /* 5.4.1 normal examples */
        { "g", "/b/c/g", 0 },
        { "./g", "/b/c/g", 0 },
        { "g/", "/b/c/g/", 0 },
        { "g?y", "/b/c/g?y", 0 },
        { ";x", "/b/c/;x", 0 },
        { "g;x", "/b/c/g;x", 0 },
        { "g;x?y", "/b/c/g;x?y", 0 },
        { ".", "/b/c/", 0 },
        { "./", "/b/c/", 0 },
        { "..", "/b/", 0 },
        { "../", "/b/", 0 },
        { "../g", "/b/g", 0 },
        { "../..", "/", 0 },
        { "../../", "/", 0 },
        { "../../g", "/g", 0 },
        /* 5.4.2 abnormal examples */
        { "../../../g", "/g", ROOT },
        { "../../../../g", "/g", ROOT },
        { "g.", "/b/c/g.", 0 },
        { ".g", "/b/c/.g", 0 },
        { "g..", "/b/c/g..", 0 },
        { "..g", "/b/c/..g", 0 },
        { "./../g", "/b/g", 0 },
        { "./g/.", "/b/c/g/", 0 },
        { "g/./h", "/b/c/g/h", 0 },
        { "g/../h", "/b/c/h", 0 },
        { "g;x=1/./y", "/b/c/g;x=1/y", 0 },
        { "g;x=1/../y", "/b/c/y", 0 },
        { "g?y/./x", "/b/c/g?y/./x", 0 },
        { "g?y/../x", "/b/c/g?y/../x", 0 },
    };
    char    in[64];
    size_t  i;

    (void) state;
    for (i = 0; i < sizeof(ex) / sizeof(ex[0]); i++) {
        snprintf(in, sizeof(in), "/b/c/%s", ex[i].ref);
        canon_is(in, ex[i].want, ex[i].flags);
    }
    /* absolute-path references replace the base's path (5.4.2: "/./g",
     * "/../g") */
    canon_is("/./g", "/g", 0);
    canon_is("/../g", "/g", ROOT);
}

/* escapes: unreserved bytes and '/' decoded, hex in either case; others
 * kept as sent (the matcher normalises their case) */
static void
canon_escapes(void **state)
{
    (void) state;
    canon_is("/%70rivate/x", "/private/x", 0);
    canon_is("/priv%61te/%78", "/private/x", 0);
    canon_is("/%7e%7E%5f%2D%2e%2E", "/~~_-..", 0);
    canon_is("/%41%5a%61%7a%30%39", "/AZaz09", 0);
    canon_is("/%72obots.txt", "/robots.txt", 0);
    canon_is("/robots%2etxt", "/robots.txt", 0);
    /* '/' */
    canon_is("/%2F", "/", SLASH);
    canon_is("/%2Fprivate/x", "/private/x", SLASH);
    canon_is("/%2fprivate/x", "/private/x", SLASH);
    canon_is("/private%2Fx", "/private/x", SLASH);
    canon_is("/private%2F%2F%2fx", "/private/x", SLASH);
    canon_is("/.%2fprivate/x", "/private/x", SLASH);
    canon_is("/a/..%2fprivate/x", "/private/x", SLASH);
    canon_is("%2Fprivate", "/private", SLASH);
    /* '.' in dot segments, alone or beside a raw one */
    canon_is("/%2e/private/x", "/private/x", 0);
    canon_is("/%2E/private/x", "/private/x", 0);
    canon_is("/private/%2e/x", "/private/x", 0);
    canon_is("/a/%2e%2e/private/x", "/private/x", 0);
    canon_is("/a/%2E%2E/private/x", "/private/x", 0);
    canon_is("/a/%2E%2e/private/x", "/private/x", 0);
    canon_is("/a/.%2e/private/x", "/private/x", 0);
    canon_is("/a/%2e./private/x", "/private/x", 0);
    canon_is("/a/%2e%2e", "/", 0);
    canon_is("/%2e%2e/private/x", "/private/x", ROOT);
    canon_is("/%2e%2e%2fprivate/x", "/private/x", ROOT | SLASH);
    canon_is("/%2e%2e%2e", "/...", 0);
    /* kept: reserved and other bytes, once-decoded escapes ('%' itself) */
    canon_is("/a%3Fb/../c", "/c", 0);
    canon_is("/a%3fb/%2e%2e/c", "/c", 0);
    canon_is("/%252e%252e/x", "/%252e%252e/x", 0);
    canon_is("/private%252fx", "/private%252fx", 0);
    canon_is("/%%32%65", "/%2e", BAD);       /* decoded once, not twice */
    canon_is("/%4%37o", "/%47o", BAD);       /* ... so not a fixed point:
                                               both servers refuse it */
    canon_is("/a%2F%2e%2e/b", "/b", SLASH);
    canon_is("/a%3B/../b", "/b", 0);
    /* NUL: an escape kept, a raw byte kept (both refused by the servers) */
    canon_is("/private/x%00", "/private/x%00", 0);
    canon_is("/a%00/../x", "/x", 0);
    /* a '%' that starts no escape: kept, flagged (both servers: 400) */
    canon_is("/%zz", "/%zz", BAD);
    canon_is("/%", "/%", BAD);
    canon_is("/a%2", "/a%2", BAD);
    canon_is("/a%2/..", "/", BAD);
    canon_is("/%g0/%2e", "/%g0/", BAD);
    canon_is("/x?%zz", "/x?%zz", 0);        /* not in the path */
}

/* the query from the first raw '?' as it is; an escaped one is no query */
static void
canon_query_fragment(void **state)
{
    unsigned  f;
    char     *got;
    ra_str_t  path;

    (void) state;
    canon_is("/a/../b?c/../d", "/b?c/../d", 0);
    canon_is("/./x?y=./..&z=%2F", "/x?y=./..&z=%2F", 0);
    canon_is("?x", "/?x", 0);
    canon_is("", "/", 0);
    canon_is("a/b", "/a/b", 0);
    canon_is("/a%3F/../b?c", "/b?c", 0);
    canon_is("/private/./x?a=1", "/private/x?a=1", 0);
    /* a fragment never reaches it: the target's path is cut before '#' */
    path = ra_http_target_path((ra_str_t) ra_string("/private/./x?a#b/.."));
    got = canon_of(path, &f);
    assert_string_equal(got, "/private/x?a");
    free(got);
    path = ra_http_target_path((ra_str_t) ra_string("/private/x#/../y"));
    got = canon_of(path, &f);
    assert_string_equal(got, "/private/x");
    free(got);
    /* the absolute form: the path after the authority */
    path = ra_http_target_path(
        (ra_str_t) ra_string("http://host//private/./x?q"));
    got = canon_of(path, &f);
    assert_string_equal(got, "/private/x?q");
    free(got);
    path = ra_http_target_path((ra_str_t) ra_string("http://host"));
    got = canon_of(path, &f);
    assert_string_equal(got, "/");
    assert_int_equal(f, 0);
    free(got);
    /* an empty span, no data at all */
    got = canon_of(ra_str(NULL, 0), &f);
    assert_string_equal(got, "/");
    assert_int_equal(f, CH);
    free(got);
}

/* raw bytes are bytes: NUL, controls and bytes >= 0x80 in a segment */
static void
canon_raw_bytes(void **state)
{
    static const char  in[] = "/a\0b/../c\0/./\xff/..";
    static const char  want[] = "/c\0/";
    char              *got;
    unsigned           f;
    ra_str_t           s;
    unsigned char      dst[sizeof(in)];
    size_t             n;

    (void) state;
    s = ra_test_exact(in, sizeof(in) - 1);
    n = ra_http_canon(s, dst, &f);
    assert_int_equal(n, sizeof(want) - 1);
    assert_memory_equal(dst, want, n);
    assert_int_equal(f, CH);
    ra_test_exact_free(s);
    /* flags may be NULL */
    got = canon_of((ra_str_t) ra_string("/x"), NULL);
    free(got);
}

/* long paths: linear time, the output never longer than the input + 1 */
static void
canon_long(void **state)
{
    size_t    i, n, k;
    char     *in, *got;
    unsigned  f;
    ra_str_t  s;

    (void) state;
    n = 1 << 20;
    in = malloc(6 * n + 64);
    assert_non_null(in);

    /* "/a/../" x n "private/x" */
    k = 0;
    in[k++] = '/';
    for (i = 0; i < n; i++) {
        memcpy(in + k, "a/../", 5);
        k += 5;
    }
    memcpy(in + k, "private/x", 9);
    k += 9;
    got = canon_of(ra_str(in, k), &f);
    assert_string_equal(got, "/private/x");
    assert_int_equal(f, CH);
    free(got);

    /* n names, then as many ".." less one: each pop scans back one name,
     * every byte is written and removed once */
    k = 0;
    for (i = 0; i < n / 4; i++) {
        memcpy(in + k, "/abc", 4);
        k += 4;
    }
    for (i = 0; i + 1 < n / 4; i++) {
        memcpy(in + k, "/..", 3);
        k += 3;
    }
    got = canon_of(ra_str(in, k), &f);
    assert_string_equal(got, "/abc/");
    free(got);

    /* one name of 4 MiB, then ".." */
    memset(in, 'x', 4 * n);
    in[0] = '/';
    memcpy(in + 4 * n, "/%2e%2E", 7);
    got = canon_of(ra_str(in, 4 * n + 7), &f);
    assert_string_equal(got, "/");
    free(got);

    /* "/" x 6n: one '/'; "%2F" x 2n: one '/' */
    memset(in, '/', 6 * n);
    got = canon_of(ra_str(in, 6 * n), &f);
    assert_string_equal(got, "/");
    free(got);
    for (i = 0; i < 2 * n; i++) {
        memcpy(in + 3 * i, "%2F", 3);
    }
    got = canon_of(ra_str(in, 6 * n), &f);
    assert_string_equal(got, "/");
    assert_int_equal(f, CH | SLASH);
    free(got);

    /* ".." above the root n times */
    for (i = 0; i < n; i++) {
        memcpy(in + 3 * i, "/..", 3);
    }
    s = ra_str(in, 3 * n);
    got = canon_of(s, &f);
    assert_string_equal(got, "/");
    assert_int_equal(f, CH | ROOT);
    free(got);
    free(in);
}


/* ---- the reference: RFC 3986 5.2.4 word for word --------------------- */

static int
ref_unreserved(int c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')
           || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_'
           || c == '~';
}

static int
ref_hex(int c)
{
    return c >= '0' && c <= '9' ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

static int
starts(const char *s, size_t n, const char *p)
{
    size_t  k = strlen(p);

    return n >= k && memcmp(s, p, k) == 0;
}

static int
is(const char *s, size_t n, const char *p)
{
    return n == strlen(p) && memcmp(s, p, n) == 0;
}

/*
 * Decode (unreserved and '/'), put a '/' in front when there is none,
 * merge slashes, then 5.2.4's loop (A to E) over a copy of the path as
 * its input buffer; the query appended.  out holds 2 * len + 2 bytes.
 */
static size_t
ref_canon(const char *p, size_t len, char *out, unsigned *flags)
{
    size_t       i, n, o, plen, qlen;
    char        *dec, *in;
    const char  *q;
    int          hi, lo;

    *flags = 0;
    q = memchr(p, '?', len);
    plen = q ? (size_t) (q - p) : len;
    qlen = len - plen;

    dec = malloc(plen + 2);
    assert_non_null(dec);
    n = 0;
    dec[n++] = '/';
    for (i = 0; i < plen; i++) {
        if (p[i] == '%') {
            if (i + 2 < plen
                && (hi = ref_hex((unsigned char) p[i + 1])) >= 0
                && (lo = ref_hex((unsigned char) p[i + 2])) >= 0)
            {
                int  v = hi * 16 + lo;

                if (v == '/' || ref_unreserved(v)) {
                    if (v == '/') {
                        *flags |= SLASH;
                    }
                    dec[n++] = (char) v;
                    i += 2;
                    continue;
                }
            } else {
                *flags |= BAD;
            }
        }
        dec[n++] = p[i];
    }
    /* merge; the '/' put in front merges with the path's own */
    in = malloc(n + 1);
    assert_non_null(in);
    o = 0;
    for (i = 0; i < n; i++) {
        if (dec[i] == '/' && o && in[o - 1] == '/') {
            continue;
        }
        in[o++] = dec[i];
    }
    n = o;
    free(dec);

    /* 5.2.4 */
    o = 0;
    i = 0;
    while (i < n) {
        const char  *s = in + i;
        size_t       left = n - i;

        if (starts(s, left, "../")) {                           /* A */
            i += 3;
        } else if (starts(s, left, "./")) {
            i += 2;
        } else if (starts(s, left, "/./")) {                    /* B */
            i += 2;
        } else if (is(s, left, "/.")) {
            i += 1;
            in[i] = '/';
        } else if (starts(s, left, "/../") || is(s, left, "/..")) {  /* C */
            if (is(s, left, "/..")) {
                i += 2;
                in[i] = '/';
            } else {
                i += 3;
            }
            if (o == 0) {
                *flags |= ROOT;
            }
            while (o > 0 && out[o - 1] != '/') {
                o--;
            }
            if (o > 0) {
                o--;
            }
        } else if (is(s, left, ".") || is(s, left, "..")) {     /* D */
            i = n;
        } else {                                                /* E */
            size_t  k = 1;

            while (k < left && s[k] != '/') {
                k++;
            }
            memcpy(out + o, s, k);
            o += k;
            i += k;
        }
    }
    free(in);
    if (o == 0) {
        out[o++] = '/';
    }
    memcpy(out + o, p + plen, qlen);
    o += qlen;
    if (o != len || memcmp(out, p, len) != 0) {
        *flags |= CH;
    }
    return o;
}

/* a xorshift: the same paths on every run */
static uint64_t
rnd(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* random paths from pieces that matter: the implementation and the
 * reference agree, the result is a fixed point, and ra_http_is_robots()
 * says yes exactly when the canonical path is "/robots.txt" and the
 * servers would serve it */
static void
canon_random_against_rfc(void **state)
{
    static const char  *const pieces[] = {
        "/", "/", "/", ".", "..", "%2e", "%2E", "%2F", "%2f", "a", "b",
        "robots.txt", "r", "obots.txt", "%72", "?", "%", "%3F", "%25",
        "%zz", "%4", "x", ";", "%7E", "~", "%37", "%46",
    };
    char       in[256], want[600], *got, *again;
    size_t     i, k, n, len, wlen;
    unsigned   f, wf, f2;
    uint64_t   seed = 0x9e3779b97f4a7c15ULL;
    int        robots, expect;
    ra_str_t   s;
    const char *q;

    (void) state;
    for (i = 0; i < 200000; i++) {
        len = 0;
        in[len++] = '/';
        n = rnd(&seed) % 12;
        for (k = 0; k < n; k++) {
            const char  *pc = pieces[rnd(&seed)
                                     % (sizeof(pieces) / sizeof(pieces[0]))];

            memcpy(in + len, pc, strlen(pc));
            len += strlen(pc);
        }
        s = ra_test_exact(in, len);
        got = canon_of(s, &f);
        wlen = ref_canon(in, len, want, &wf);
        if (strlen(got) != wlen || memcmp(got, want, wlen) != 0
            || f != wf)
        {
            print_message("canon(\"%.*s\") = \"%s\" %#x, the RFC: \"%.*s\" "
                          "%#x\n", (int) len, in, got, f, (int) wlen, want,
                          wf);
            fail();
        }

        /* canonical as it stands only when it is */
        if (ra_http_canonical(s) && (f != 0 || wlen != len)) {
            print_message("ra_http_canonical(\"%.*s\"), but it reads "
                          "\"%s\" %#x\n", (int) len, in, got, f);
            fail();
        }

        /* a fixed point (escapes that stay, stay), unless a bad escape
         * met a decoded one (canon_escapes: "%4%37") */
        again = canon_of(ra_str(got, strlen(got)), &f2);
        if (!(f & BAD)) {
            assert_string_equal(again, got);
            assert_int_equal(f2 & (CH | ROOT | SLASH), 0);
        }
        free(again);

        q = strchr(got, '?');
        expect = (q ? (size_t) (q - got) : strlen(got)) == 11
                 && memcmp(got, "/robots.txt", 11) == 0
                 && !(f & (ROOT | SLASH | BAD));
        robots = ra_http_is_robots(s);
        if (robots != expect) {
            print_message("is_robots(\"%.*s\") = %d, canonical \"%s\" %#x\n",
                          (int) len, in, robots, got, f);
            fail();
        }
        free(got);
        ra_test_exact_free(s);
    }
}


/* ---- the robots.txt request ------------------------------------------ */

static int
robots(const char *target)
{
    int       r;
    ra_str_t  s;

    s = ra_test_exact(target, strlen(target));
    r = ra_http_is_robots(s);
    ra_test_exact_free(s);
    return r;
}

static void
robots_spellings(void **state)
{
    static const char  *const yes[] = {
        "/robots.txt", "/robots.txt?x=1", "/robots.txt?", "/robots.txt#a",
        "//robots.txt", "///robots.txt", "/./robots.txt",
        "/robots.txt/../robots.txt", "/a/../robots.txt",
        "/a/b/../../robots.txt", "/%72obots.txt", "/robots%2etxt",
        "/robots%2Etxt", "/%72%6F%62%6f%74%73%2e%74%78%74",
        "/robots.tx%74?a=%zz", "/%2e/robots.txt", "/a/%2e%2e/robots.txt",
        "/a%00/../robots.txt", "/a%3F/../robots.txt",
        "http://example.com/robots.txt", "http://example.com//robots.txt",
        "http://example.com/./robots.txt?x", "http://h:80/a/../robots.txt",
    };
    static const char  *const no[] = {
        "/robots.txt/", "/robots.txt/.", "/robots.txt/..",
        "/robots.txt/x/..", "/robots.txt/../private/x", "/Robots.txt",
        "/ROBOTS.TXT", "/robots.txtx", "/a/robots.txt", "/robots.txt%3F",
        "/robots.txt%3f", "/robots.txt%23", "/robots.txt%00",
        "/robots.txt;x", "/robots.txt%20", "", "/", "/robots",
        "/robots.txt%2F", "/robots.tx",
        /* what the servers refuse or disagree on */
        "/%2Frobots.txt", "/%2frobots.txt", "/a%2F../robots.txt",
        "/../robots.txt", "/a/../../robots.txt", "/%2e%2e/robots.txt",
        "/%zz/../robots.txt", "/robots.txt%", "/robots.txt%2",
        "http://example.com/x/robots.txt",
        "http://example.com/%2Frobots.txt",
    };
    size_t    i;
    char     *in;

    (void) state;
    for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
        if (!robots(yes[i])) {
            print_message("not robots.txt: \"%s\"\n", yes[i]);
            fail();
        }
    }
    for (i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
        if (robots(no[i])) {
            print_message("robots.txt: \"%s\"\n", no[i]);
            fail();
        }
    }
    assert_false(ra_http_is_robots(ra_str(NULL, 0)));

    /* the same reading for /llms.txt and /llms-full.txt */
    assert_true(ra_http_is_llms(ra_str("/llms.txt", 9)));
    assert_true(ra_http_is_llms(ra_str("/llms-full.txt?v=2", 18)));
    assert_true(ra_http_is_llms(ra_str("/a/../%6Clms.txt", 16)));
    assert_true(ra_http_is_llms(ra_str("http://example.com/llms.txt", 27)));
    assert_false(ra_http_is_llms(ra_str("/docs/llms.txt", 14)));
    assert_false(ra_http_is_llms(ra_str("/llms.txt.bak", 13)));
    assert_false(ra_http_is_llms(ra_str("/LLMS.TXT", 9)));
    assert_false(ra_http_is_llms(ra_str("/robots.txt", 11)));
    assert_false(ra_http_is_robots(ra_str("/llms.txt", 9)));
    assert_false(ra_http_is_llms(ra_str(NULL, 0)));

    /* any length, no memory: "/a/../" x 100000 "robots.txt" */
    in = malloc(6 * 100000 + 16);
    assert_non_null(in);
    in[0] = '/';
    for (i = 0; i < 100000; i++) {
        memcpy(in + 1 + 5 * i, "a/../", 5);
    }
    memcpy(in + 1 + 5 * i, "robots.txt", 10);
    assert_true(ra_http_is_robots(ra_str(in, 1 + 5 * i + 10)));
    memcpy(in + 1 + 5 * i, "robots.txt/", 11);
    assert_false(ra_http_is_robots(ra_str(in, 1 + 5 * i + 11)));
    free(in);
}

/* The servers' default pages as ra_http_server_page() defines them: the
 * canonical path before '?' (the fragment gone), less one trailing
 * slash, is one of the four. */
static int
ref_server_page(const char *in, size_t len)
{
    static const char  *const pages[] = {
        "/server-status", "/server-info", "/nginx_status", "/stub_status"
    };
    char        *got;
    const char  *hash, *q;
    size_t       i, n;
    unsigned     f;
    int          yes = 0;

    hash = memchr(in, '#', len);
    if (hash != NULL) {
        len = (size_t) (hash - in);
    }
    q = memchr(in, '?', len);
    n = q ? (size_t) (q - in) : len;
    if (n <= 1) {
        return 0;                       /* no path to speak of */
    }
    got = canon_of(ra_str(in, n), &f);
    n = strlen(got);
    if (n > 1 && got[n - 1] == '/') {
        n--;
    }
    for (i = 0; i < sizeof(pages) / sizeof(pages[0]); i++) {
        yes |= n == strlen(pages[i]) && memcmp(got, pages[i], n) == 0;
    }
    free(got);
    return yes;
}

/* ra_http_target_kind() says what the three tests say, one by one, on
 * random targets of every length (the eight-byte steps of the plain
 * test and their ends), and the server page test what its definition
 * says */
static void
target_kind_agrees(void **state)
{
    static const char  *const pieces[] = {
        "/", "/", "/", ".", "..", "%2e", "%2F", "%73", "%zz", "?", "#",
        "a", "bcdefgh", "robots.txt", "llms.txt", "llms-full.txt",
        "server-status", "server-info", "nginx_status", "stub_status",
        "%", "x/", "/.", "//",
    };
    char       in[256];
    size_t     i, k, n, len;
    unsigned   kind, want;
    uint64_t   seed = 0x2545f4914f6cdd1dULL;
    ra_str_t   s;

    (void) state;
    for (i = 0; i < 200000; i++) {
        len = 0;
        in[len++] = '/';
        n = rnd(&seed) % 10;
        for (k = 0; k < n; k++) {
            const char  *pc = pieces[rnd(&seed)
                                     % (sizeof(pieces) / sizeof(pieces[0]))];

            memcpy(in + len, pc, strlen(pc));
            len += strlen(pc);
        }
        s = ra_test_exact(in, len);
        kind = ra_http_target_kind(s);
        want = (ra_http_is_robots(s) ? RA_TARGET_ROBOTS : 0)
               | (ra_http_is_llms(s) ? RA_TARGET_LLMS : 0)
               | (ra_http_server_page(s, ra_str("", 0), 0)
                  ? RA_TARGET_SERVER_PAGE : 0);
        if (kind != want
            || ra_http_server_page(s, ra_str("", 0), 0)
               != ref_server_page(in, len))
        {
            print_message("\"%.*s\": kind %#x, the tests %#x, "
                          "server page by definition %d\n", (int) len, in,
                          kind, want, ref_server_page(in, len));
            fail();
        }
        ra_test_exact_free(s);
    }
    assert_int_equal(ra_http_target_kind(ra_str("/robots.txt", 11)),
                     RA_TARGET_ROBOTS);
    assert_int_equal(ra_http_target_kind(ra_str("/%72obots.txt?x", 15)),
                     RA_TARGET_ROBOTS);
    assert_int_equal(ra_http_target_kind(ra_str("/stub_status/", 13)),
                     RA_TARGET_SERVER_PAGE);
    assert_int_equal(ra_http_target_kind(ra_str("/a/../llms-full.txt", 19)),
                     RA_TARGET_LLMS);
    assert_int_equal(ra_http_target_kind(ra_str("/index.html", 11)), 0);
    assert_int_equal(ra_http_target_kind(ra_str(NULL, 0)), 0);
}

/* ra_http_request_kind(): the glue's kind when it set one, else the
 * target's; ra_http_capture_wanted_kind() with that kind says what
 * ra_http_capture_wanted() says */
static void
request_kind_given(void **state)
{
    static const char  *const targets[] = {
        "/robots.txt", "/%72obots.txt?x", "/a/../robots.txt", "/robots.txt/",
        "/llms.txt", "/server-status", "/stub_status/", "/index.html", "",
        "/robots.txt#x.css", "http://h/robots.txt",
    };
    static const char  *const methods[] = { "GET", "HEAD", "POST", "get" };
    static const int    statuses[] = { 0, 200, 206, 304, 404, 412, 503 };
    size_t        i, m, k, h;
    unsigned      kind;
    ra_str_t      t;
    ra_request_t  req;

    (void) state;
    for (i = 0; i < sizeof(targets) / sizeof(targets[0]); i++) {
        t = ra_str(targets[i], strlen(targets[i]));
        memset(&req, 0, sizeof(req));
        req.uri = t;
        kind = ra_http_target_kind(t);
        assert_int_equal(ra_http_request_kind(&req), kind);
        req.target_kind = kind | RA_TARGET_KNOWN;
        assert_int_equal(ra_http_request_kind(&req), kind);
        /* the glue's answer is the one read, whatever the target */
        req.target_kind = RA_TARGET_SERVER_PAGE | RA_TARGET_KNOWN;
        assert_int_equal(ra_http_request_kind(&req), RA_TARGET_SERVER_PAGE);
        req.target_kind = RA_TARGET_KNOWN;
        assert_int_equal(ra_http_request_kind(&req), 0);
        for (m = 0; m < sizeof(methods) / sizeof(methods[0]); m++) {
            for (k = 0; k < sizeof(statuses) / sizeof(statuses[0]); k++) {
                for (h = 0; h < 2; h++) {
                    ra_str_t  me = ra_str(methods[m], strlen(methods[m]));

                    assert_int_equal(
                        ra_http_capture_wanted_kind(me, kind, statuses[k],
                                                    (int) h),
                        ra_http_capture_wanted(me, t, statuses[k], (int) h));
                }
            }
        }
    }
    assert_true(ra_http_capture_wanted(ra_str("GET", 3),
                                       ra_str("/robots.txt", 11), 200, 0));
}

/* ra_request_clear_rest(): everything from signature on reads zero (as
 * a cleared request), nothing before it is touched */
static void
request_clear_rest(void **state)
{
    size_t         i;
    ra_request_t   req, zero;
    unsigned char  *p = (unsigned char *) &req;

    (void) state;
    memset(&req, 0xa5, sizeof(req));
    memset(&zero, 0, sizeof(zero));
    ra_request_clear_rest(&req);
    assert_int_equal(req.signature.len, 0);
    assert_null(req.signature.data);
    assert_int_equal(req.signature_input.len, 0);
    assert_int_equal(req.signature_agent.len, 0);
    assert_int_equal(req.authority.len, 0);
    assert_int_equal(req.scheme.len, 0);
    assert_int_equal(req.target_kind, 0);
    assert_memory_equal(&req.signature, &zero.signature,
                        sizeof(req) - offsetof(ra_request_t, signature));
    for (i = 0; i < offsetof(ra_request_t, signature); i++) {
        assert_int_equal(p[i], 0xa5);
    }
}

/* ra_request_start(): the fields every server reads alike set, enforce
 * 0, User-Agent and Referer left alone, the rest cleared */
static void
request_start(void **state)
{
    int            where;
    ra_request_t   req, zero;

    (void) state;
    memset(&req, 0xa5, sizeof(req));
    memset(&zero, 0, sizeof(zero));
    ra_request_start(&req, ra_str("a.test", 6), 1700000000123LL,
                     ra_str("192.0.2.1", 9), ra_str("GET", 3),
                     ra_str("/x?y", 4), 200, RA_TARGET_KNOWN, &where);
    assert_int_equal(req.site.len, 6);
    assert_int_equal(req.time, 1700000000123LL);
    assert_int_equal(req.addr.len, 9);
    assert_int_equal(req.method.len, 3);
    assert_memory_equal(req.uri.data, "/x?y", 4);
    assert_int_equal(req.status, 200);
    assert_int_equal(req.enforce, 0);
    assert_ptr_equal(req.where, &where);
    assert_int_equal(req.target_kind, RA_TARGET_KNOWN);
    assert_null(req.policy);
    assert_int_equal(req.recorded, 0);
    assert_memory_equal(&req.signature, &zero.signature,
                        offsetof(ra_request_t, target_kind)
                        - offsetof(ra_request_t, signature));
    /* the glue's */
    assert_int_equal(req.user_agent.len, (size_t) 0xa5a5a5a5a5a5a5a5ULL);
    assert_int_equal(req.referer.len, (size_t) 0xa5a5a5a5a5a5a5a5ULL);
}

/* ra_http_canonical() as its comment defines it, a byte at a time: a
 * '/' first, and before any '?' no '/' followed by '/' or '.', no '%'
 * but escapes that stay (two hex digits, of a byte neither unreserved
 * nor '/') */
static int
ref_canonical(const char *in, size_t len)
{
    size_t  i, n;
    int     hi, lo, v;

    if (len == 0 || in[0] != '/') {
        return 0;
    }
    for (n = 0; n < len && in[n] != '?'; n++) { /* void */ }
    for (i = 0; i < n; i++) {
        if (in[i] == '%') {
            if (i + 2 >= n || (hi = ref_hex((unsigned char) in[i + 1])) < 0
                || (lo = ref_hex((unsigned char) in[i + 2])) < 0)
            {
                return 0;
            }
            v = hi * 16 + lo;
            if (v == '/' || ref_unreserved(v)) {
                return 0;
            }
        }
        if (i + 1 < n && in[i] == '/'
            && (in[i + 1] == '/' || in[i + 1] == '.'))
        {
            return 0;
        }
    }
    return 1;
}

/* the eight-byte steps of ra_http_canonical() and their last, partly
 * read again, step: every length up to 40, the bytes that matter at
 * every place (a '/' before a step's first byte included, escapes that
 * stay and escapes that do not, cut by the end or a '?'); and what it
 * says canonical, ra_http_canon() leaves as it is, without a flag */
static void
canonical_steps(void **state)
{
    static const char  bytes[] = "/.%%%a?b2020FfeE41z$";
    char        in[48];
    size_t      i, k, len;
    uint64_t    seed = 0x5851f42d4c957f2dULL;
    ra_str_t    s;

    (void) state;
    for (i = 0; i < 400000; i++) {
        len = rnd(&seed) % 41;
        for (k = 0; k < len; k++) {
            /* mostly plain, so that the one byte that matters may stand
             * anywhere */
            in[k] = rnd(&seed) % 4 ? 'a'
                    : bytes[rnd(&seed) % (sizeof(bytes) - 1)];
        }
        if (len && rnd(&seed) % 2) {
            in[0] = '/';
        }
        s = ra_test_exact(in, len);
        if (ra_http_canonical(s) != ref_canonical(in, len)) {
            print_message("ra_http_canonical(\"%.*s\") = %d\n", (int) len,
                          in, ra_http_canonical(s));
            fail();
        }
        if (ra_http_canonical(s)) {
            char      want[800];
            unsigned  f;

            assert_int_equal(ref_canon(in, len, want, &f), len);
            assert_memory_equal(want, in, len);
            assert_int_equal(f, 0);
        }
        ra_test_exact_free(s);
    }
}

/* The three answers by their definitions, for an origin-form target:
 * the canonical path before '?' (the fragment gone, the word for word
 * 5.2.4 above) is "/robots.txt", "/llms.txt" or "/llms-full.txt" and the
 * servers would serve it, or a server page (ref_server_page). */
static unsigned
ref_kind(const char *in, size_t len)
{
    char         want[800];
    const char  *hash, *q;
    size_t       n, wlen;
    unsigned     f, kind = 0;

    hash = memchr(in, '#', len);
    if (hash != NULL) {
        len = (size_t) (hash - in);
    }
    q = memchr(in, '?', len);
    n = q ? (size_t) (q - in) : len;
    assert_true(n < 256);
    wlen = ref_canon(in, n, want, &f);
    if (!(f & (ROOT | SLASH | BAD))) {
        if (wlen == 11 && memcmp(want, "/robots.txt", 11) == 0) {
            kind |= RA_TARGET_ROBOTS;
        }
        if ((wlen == 9 && memcmp(want, "/llms.txt", 9) == 0)
            || (wlen == 14 && memcmp(want, "/llms-full.txt", 14) == 0))
        {
            kind |= RA_TARGET_LLMS;
        }
    }
    if (ref_server_page(in, len)) {
        kind |= RA_TARGET_SERVER_PAGE;
    }
    return kind;
}

/* one target: the fast answers, the walks and the definitions agree */
static void
kind_check(const char *in, size_t len)
{
    unsigned  kind, walk, ref;
    ra_str_t  s;

    s = ra_test_exact(in, len);
    kind = ra_http_target_kind(s);
    walk = ra_http_target_kind_walk(s);
    ref = ref_kind(in, len);
    if (kind != walk || kind != ref
        || ra_http_is_robots(s) != !!(kind & RA_TARGET_ROBOTS)
        || ra_http_is_llms(s) != !!(kind & RA_TARGET_LLMS))
    {
        print_message("\"%.*s\": kind %#x, walked %#x, by definition %#x, "
                      "is_robots %d, is_llms %d\n", (int) len, in, kind, walk,
                      ref, ra_http_is_robots(s), ra_http_is_llms(s));
        fail();
    }
    ra_test_exact_free(s);
}

/*
 * ra_http_target_kind() decides most targets from their last segment
 * (ra_http_kind_fast); it must say what the walks say, and what the
 * definitions say, for every spelling: the last segment a name, almost
 * one, an escape of one, after other segments, dot segments and
 * slashes around it, lengths around the 8 and 13 bytes of the names.
 */
static void
target_kind_fast_agrees(void **state)
{
    static const char  *const pieces[] = {
        "/", "/", "/", "//", ".", "..", "/.", "/..", "%2e", "%2E", "%2F",
        "%2f", "%", "%7", "%zz", "%74", "%73", "%6f", "%6F", "%78", "?",
        "#", ";", "a", "x", "t", "s", "o", "us", "xt", "fo", ".js", ".css",
        "favicon.ico", "index.html", "bcdefghijklmnop",
        "robots.txt", "obots.txt", "robots.tx", "robots", ".txt",
        "llms.txt", "lms.txt", "llms-full.txt", "llms-full.tx",
        "server-status", "erver-status", "server-info", "server-inf",
        "nginx_status", "stub_status", "stub_statu", "r", "l", "n",
    };
    static const char  *const fixed[] = {
        "", "/", "/robots.txt", "/robots.txt/", "/robots.txt//",
        "/server-status/", "/server-status//", "/server-status/./",
        "/server-status/.", "/x/../server-info/", "/stub_status?x",
        "/nginx_status#y", "/llms-full.txt", "/llms.txt/", "/a/llms.txt",
        "/robots.tx%74", "/robots.t%78t", "/robot%73.txt",
        "/%72obots.txt", "/../robots.txt", "/a/../robots.txt",
        "/%2Frobots.txt", "/robots.txt%", "/robots.txt%2", "/robots.txtt",
        "/readme.txt", "/docs/notes.txt", "/css/print/paper.css",
        "/images/web/2009/banner.png", "/favicon.ico", "/articles/x/",
        "/presentations/logstash-monitorama-2013/plugin/zoom-js/zoom.js",
        "/a/bcdefghijklmnopqrstuvwxyz.txt",
        "/blog/geekery/disabling-battery-in-ubuntu-vms.html?utm_source=f",
        "http://example.com/robots.txt", "http://example.com/a/robots.txt",
        "http://h", "http://h?x", "http://h/server-status/",
    };
    char      in[256];
    size_t    i, k, n, len;
    uint64_t  seed = 0x853c49e6748fea9bULL;

    (void) state;
    for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
        if (fixed[i][0] == '/' || fixed[i][0] == '\0') {
            kind_check(fixed[i], strlen(fixed[i]));
        } else {
            ra_str_t  s = ra_str(fixed[i], strlen(fixed[i]));

            assert_int_equal(ra_http_target_kind(s),
                             ra_http_target_kind_walk(s));
        }
    }
    for (i = 0; i < 300000; i++) {
        len = 0;
        in[len++] = '/';
        n = rnd(&seed) % 8;
        for (k = 0; k < n; k++) {
            const char  *pc = pieces[rnd(&seed)
                                     % (sizeof(pieces) / sizeof(pieces[0]))];

            memcpy(in + len, pc, strlen(pc));
            len += strlen(pc);
        }
        kind_check(in, len);
    }
    assert_int_equal(ra_http_target_kind(ra_str("/robots.txt/", 12)), 0);
    assert_int_equal(ra_http_target_kind(ra_str("/server-info/", 13)),
                     RA_TARGET_SERVER_PAGE);
    assert_int_equal(ra_http_target_kind(ra_str("/robot%73.txt", 13)),
                     RA_TARGET_ROBOTS);
    assert_int_equal(ra_http_target_kind(ra_str("/a/llms.txt", 11)), 0);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(canon_identity),
        cmocka_unit_test(canon_slashes),
        cmocka_unit_test(canon_dot_segments),
        cmocka_unit_test(canon_rfc3986_examples),
        cmocka_unit_test(canon_escapes),
        cmocka_unit_test(canon_query_fragment),
        cmocka_unit_test(canon_raw_bytes),
        cmocka_unit_test(canon_long),
        cmocka_unit_test(canon_random_against_rfc),
        cmocka_unit_test(robots_spellings),
        cmocka_unit_test(target_kind_agrees),
        cmocka_unit_test(request_kind_given),
        cmocka_unit_test(request_clear_rest),
        cmocka_unit_test(request_start),
        cmocka_unit_test(target_kind_fast_agrees),
        cmocka_unit_test(canonical_steps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
