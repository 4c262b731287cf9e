/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The ledger kept in a file (ra_ledger_file.h): a save read back gives
 * the same region, counters and all; a torn, foreign, other-layout,
 * other-size or corrupt file is refused with a warning and leaves the new
 * ledger as it was; a save that cannot be written says so.  A path that
 * names a FIFO (or a device: /dev/null) is written where it is, never
 * replaced by a regular file.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ra_test.h"
#include "ra_crawlers.h"
#include "ra_digest.h"
#include "ra_ledger.h"
#include "ra_ledger_file.h"
#include "ra_verify.h"

#define T0       (1700000000000LL)
#define SIZE     (2u * 1024 * 1024)     /* room for every site */
#define SITES    12
#define HDR      RA_LEDGER_FILE_HEADER

static int64_t
fixed_now(const ra_host_t *h)
{
    (void) h;
    return T0 + 7000;
}

/* a ledger with sites, crawler records and counts */
static unsigned char *
busy_region(size_t size, ra_ledger_t *l)
{
    unsigned char  *r = malloc(size);
    char            name[32];
    unsigned        i, k;
    uint32_t        sid, st;
    ra_stat_key_t   key;

    assert_non_null(r);
    assert_int_equal(ra_ledger_format(r, size, T0), RA_OK);
    ra_ledger_open(l, r, NULL);
    ra_ledger_lock(l);
    for (i = 0; i < SITES; i++) {
        snprintf(name, sizeof(name), "site%u.example", i);
        sid = ra_ledger_site_locked(l, ra_str(name, strlen(name)), T0 + i);
        assert_true(sid != 0);
        memset(&key, 0, sizeof(key));
        key.name = ra_str("Googlebot", 9);
        key.token = ra_str("googlebot", 9);
        key.verification = RA_VERIFY_VERIFIED;
        key.kind = RA_UA_KNOWN;
        key.category = RA_CAT_SEARCH;
        st = ra_ledger_stat_locked(l, sid, &key, T0 + i);
        assert_true(st != 0);
        for (k = 0; k <= i; k++) {
            ra_ledger_count_locked(l, sid, st, RA_CNT_REQUESTS);
            ra_ledger_count_locked(l, sid, st, RA_CNT_VIOLATION);
        }
    }
    ra_ledger_unlock(l);
    assert_null(ra_ledger_verify(l));
    return r;
}

static unsigned char *
fresh_region(size_t size, ra_ledger_t *l)
{
    unsigned char  *r = malloc(size);

    assert_non_null(r);
    assert_int_equal(ra_ledger_format(r, size, T0 + 5000), RA_OK);
    ra_ledger_open(l, r, NULL);
    return r;
}

static void
tmp_path(char *path, size_t cap)
{
    snprintf(path, cap, "/tmp/ra-test-state-%ld", (long) getpid());
}

/* a busy ledger, saved to a new temporary file at path */
static unsigned char *
busy_saved(char *path, size_t cap, ra_ledger_t *l)
{
    ra_host_t       h;
    ra_test_log_t   c;
    unsigned char  *r = busy_region(SIZE, l);

    tmp_path(path, cap);
    ra_test_host(&h, &c, fixed_now);
    assert_int_equal(ra_ledger_file_save(l, &h, NULL, ra_str("z", 1), path),
                     RA_OK);
    assert_int_equal(c.n, 0);
    return r;
}

static size_t
slurp(const char *path, unsigned char **out)
{
    ra_str_t  s;

    assert_int_equal(ra_test_read_file(path, &s), 0);
    *out = (unsigned char *) s.data;
    return s.len;
}

static void
spill(const char *path, const unsigned char *p, size_t n)
{
    FILE  *f = fopen(path, "wb");

    assert_non_null(f);
    assert_int_equal(fwrite(p, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

/* restores path into a new ledger: refused, said at warn (RA341, with
 * what), and the new ledger untouched */
static void
expect_refused(const char *path, size_t size, const char *what)
{
    ra_host_t       h;
    ra_test_log_t   c;
    ra_ledger_t     l;
    unsigned char  *r = fresh_region(size, &l);
    unsigned char  *copy = malloc(size);

    assert_non_null(copy);
    memcpy(copy, r, size);
    ra_test_host(&h, &c, fixed_now);
    assert_int_equal(ra_ledger_file_restore(&l, &h, NULL,
                                            ra_str("zone", 4), path),
                     RA_ERROR);
    assert_int_equal(c.n, 1);
    assert_int_equal(c.levels[0], RA_LOG_WARN);
    assert_non_null(strstr(c.lines[0], "[" RA_TAG_STATE_REFUSED "] zone: "
                                       "the state file"));
    assert_non_null(strstr(c.lines[0], "a new ledger starts"));
    if (what != NULL && strstr(c.lines[0], what) == NULL) {
        fail_msg("\"%s\" not in: %s", what, c.lines[0]);
    }
    assert_memory_equal(r, copy, size);
    assert_null(ra_ledger_verify(&l));
    free(copy);
    free(r);
}

static void
ledger_file_round_trip(void **state)
{
    char            path[64];
    ra_host_t       h;
    ra_test_log_t   c;
    ra_ledger_t     a, b;
    ra_totals_t     ta, tb;
    int64_t         saved = 0;
    ra_buf_t        why;
    unsigned char  *ra = busy_region(SIZE, &a), *rb = fresh_region(SIZE, &b);

    (void) state;
    tmp_path(path, sizeof(path));
    ra_test_host(&h, &c, fixed_now);
    assert_int_equal(ra_ledger_file_save(&a, &h, NULL, ra_str("z", 1), path),
                     RA_OK);
    assert_int_equal(c.n, 0);
    assert_int_equal(access(path, F_OK), 0);

    ra_buf_init(&why, &h.heap, 0, 0);
    assert_int_equal(ra_ledger_file_read(rb, SIZE, &h, path, &saved, &why),
                     RA_OK);
    ra_buf_release(&why);
    assert_true(saved == T0 + 7000);
    assert_memory_equal(ra, rb, SIZE);
    ra_ledger_totals(&a, &ta);
    ra_ledger_totals(&b, &tb);
    assert_true(tb.requests == ta.requests);
    assert_true(tb.requests == SITES * (SITES + 1) / 2);
    assert_true(tb.violations_total == ta.violations_total);
    assert_int_equal(tb.sites, SITES);
    assert_true(tb.created == T0);
    assert_null(ra_ledger_verify(&b));

    /* and said so, through the same restore the servers call */
    memset(rb, 0, SIZE);
    assert_int_equal(ra_ledger_format(rb, SIZE, T0 + 5000), RA_OK);
    assert_int_equal(ra_ledger_file_restore(&b, &h, NULL, ra_str("z", 1),
                                            path), RA_OK);
    assert_int_equal(c.n, 1);
    assert_int_equal(c.levels[0], RA_LOG_NOTICE);
    assert_non_null(strstr(c.lines[0], "[" RA_TAG_STATE_RESTORED "] z: "
                                       "restored the ledger from"));
    assert_non_null(strstr(c.lines[0], "saved 0 s ago: 12 sites, 78 "
                                       "requests"));
    assert_memory_equal(ra, rb, SIZE);

    /* the ledger goes on counting, and saves again over the file */
    ra_ledger_lock(&b);
    ra_ledger_count_locked(&b, 1, 1, RA_CNT_REQUESTS);
    ra_ledger_unlock(&b);
    assert_int_equal(ra_ledger_file_save(&b, &h, NULL, ra_str("z", 1), path),
                     RA_OK);
    memset(ra, 0, SIZE);
    assert_int_equal(ra_ledger_format(ra, SIZE, T0), RA_OK);
    assert_int_equal(ra_ledger_file_restore(&a, &h, NULL, ra_str("z", 1),
                                            path), RA_OK);
    ra_ledger_totals(&a, &ta);
    assert_true(ta.requests == tb.requests + 1);

    unlink(path);
    free(ra);
    free(rb);
}

static void
ledger_file_missing_is_quiet(void **state)
{
    char            path[64];
    ra_host_t       h;
    ra_test_log_t   c;
    ra_ledger_t     l;
    unsigned char  *r = fresh_region(SIZE, &l);

    (void) state;
    tmp_path(path, sizeof(path));
    unlink(path);
    ra_test_host(&h, &c, fixed_now);
    assert_int_equal(ra_ledger_file_restore(&l, &h, NULL, ra_str("z", 1),
                                            path), RA_EAGAIN);
    assert_int_equal(c.n, 0);
    free(r);
}

/* every truncation at sample points: the header's bytes one by one, then
 * through the body */
static void
ledger_file_torn(void **state)
{
    char            path[64];
    size_t          n, len;
    ra_ledger_t     a;
    unsigned char  *file, *ra = busy_saved(path, sizeof(path), &a);

    (void) state;
    len = slurp(path, &file);
    assert_int_equal(len, HDR + SIZE);
    for (n = 0; n < len; n = n < HDR + 1 ? n + 1 : n + len / 37) {
        spill(path, file, n);
        expect_refused(path, SIZE, "torn");
    }
    spill(path, file, len - 1);
    expect_refused(path, SIZE, "torn");
    /* a byte too many is not the file written either */
    {
        unsigned char  *more = malloc(len + 1);

        assert_non_null(more);
        memcpy(more, file, len);
        more[len] = 0;
        spill(path, more, len + 1);
        expect_refused(path, SIZE, "torn");
        free(more);
    }
    unlink(path);
    free(file);
    free(ra);
}

/* a flipped byte anywhere: the header's fields, or the body's checksum */
static void
ledger_file_flipped_byte(void **state)
{
    char            path[64];
    size_t          len, i;
    ra_host_t       h;
    ra_test_log_t   c;
    ra_ledger_t     a;
    unsigned char  *file, *ra = busy_saved(path, sizeof(path), &a);
    static const struct {
        size_t       at;
        const char  *what;
    } flips[] = {
        { 0, "not a robots-audit state file" },
        { 7, "not a robots-audit state file" },
        { 8, "another byte order" },
        { 12, "another version of robots-audit (ledger layout" },
        { 16, "a ledger is not rebuilt into another size" },
        { 33, "corrupt: its SHA-256 does not match" },
        { HDR, "corrupt: its SHA-256 does not match" },
        { HDR + 1000, "corrupt: its SHA-256 does not match" },
        { HDR + SIZE / 2, "corrupt: its SHA-256 does not match" },
        { HDR + SIZE - 1, "corrupt: its SHA-256 does not match" },
    };

    (void) state;
    ra_test_host(&h, &c, fixed_now);
    len = slurp(path, &file);
    for (i = 0; i < sizeof(flips) / sizeof(flips[0]); i++) {
        file[flips[i].at] ^= 0x10;
        spill(path, file, len);
        expect_refused(path, SIZE, flips[i].what);
        file[flips[i].at] ^= 0x10;
    }
    /* the saved time is not checked: any byte of it still restores */
    file[24] ^= 0x10;
    spill(path, file, len);
    {
        ra_ledger_t     b;
        unsigned char  *rb = fresh_region(SIZE, &b);

        assert_int_equal(ra_ledger_file_restore(&b, &h, NULL,
                                                ra_str("z", 1), path),
                         RA_OK);
        assert_memory_equal(ra, rb, SIZE);
        free(rb);
    }
    unlink(path);
    free(file);
    free(ra);
}

/* a body whose checksum holds but whose structure does not (memory a bug
 * wrote before the save): the ledger's own check refuses it */
static void
ledger_file_structure_checked(void **state)
{
    char            path[64];
    size_t          len, i;
    int             refused = 0;
    unsigned        k;
    ra_host_t       h;
    ra_test_log_t   c;
    ra_ledger_t     a, b;
    unsigned char  *file, *ra = busy_saved(path, sizeof(path), &a), *rb;
    const char     *name = "site5.example";
    int64_t         saved;
    ra_buf_t        why;

    (void) state;
    ra_test_host(&h, &c, fixed_now);
    len = slurp(path, &file);
    for (i = HDR; i + strlen(name) <= len
                  && memcmp(file + i, name, strlen(name)) != 0; i++)
    {
        /* the only copy: in the site table */
    }
    assert_true(i + strlen(name) <= len);
    /* another first letter, until its hash falls in another bucket */
    for (k = 0; k < 26 && !refused; k++) {
        file[i] = (unsigned char) ('a' + k);
        assert_int_equal(ra_sha256(ra_str(file + HDR, SIZE), file + 32),
                         RA_OK);
        spill(path, file, len);
        rb = fresh_region(SIZE, &b);
        ra_buf_init(&why, &h.heap, 0, 0);
        if (ra_ledger_file_read(rb, SIZE, &h, path, &saved, &why)
            != RA_OK)
        {
            refused = 1;
            expect_refused(path, SIZE, "corrupt: a site hash chain");
        }
        ra_buf_release(&why);
        free(rb);
    }
    assert_true(refused);
    unlink(path);
    free(file);
    free(ra);
}

/* a zone of another size: refused, whichever way it changed */
static void
ledger_file_other_size(void **state)
{
    char            path[64];
    ra_ledger_t     a;
    unsigned char  *ra = busy_saved(path, sizeof(path), &a);

    (void) state;
    expect_refused(path, SIZE * 2, "its ledger has 2097152 bytes and the "
                                   "zone 4194304");
    expect_refused(path, SIZE / 2, "a ledger is not rebuilt into another "
                                   "size");
    unlink(path);
    free(ra);
}

/* other files: not a state file at all, a directory */
static void
ledger_file_foreign(void **state)
{
    char  path[64];

    (void) state;
    tmp_path(path, sizeof(path));
    spill(path, (const unsigned char *) "User-agent: *\nDisallow: /\n", 26);
    expect_refused(path, SIZE, "torn: 26 bytes");
    {
        unsigned char  *junk = calloc(1, HDR + SIZE);

        assert_non_null(junk);
        memcpy(junk, "RAUDIT01", 8);
        spill(path, junk, HDR + SIZE);
        expect_refused(path, SIZE, "not a robots-audit state file");
        free(junk);
    }
    unlink(path);
    expect_refused("/tmp", SIZE, "not a regular file");
}

static void
ledger_file_save_fails(void **state)
{
    ra_host_t       h;
    ra_test_log_t   c;
    ra_ledger_t     a;
    unsigned char  *ra = busy_region(SIZE, &a);

    (void) state;
    ra_test_host(&h, &c, fixed_now);
    assert_int_equal(ra_ledger_file_save(&a, &h, NULL, ra_str("z", 1),
                                         "/nonexistent-dir/ra.state"),
                     RA_ERROR);
    assert_int_equal(c.n, 1);
    assert_int_equal(c.levels[0], RA_LOG_ERR);
    assert_non_null(strstr(c.lines[0], "[" RA_TAG_STATE_UNSAVED "] z: cannot "
                                       "save the ledger to "
                                       "\"/nonexistent-dir/ra.state\": "
                                       "cannot create"));
    free(ra);
}

/* the saver's rule: nothing without a file; the first look plans, a
 * save when due (each attempt here says it failed: that counts them) */
static void
ledger_file_saver_schedule(void **state)
{
    ra_host_t          h;
    ra_test_log_t      c;
    ra_ledger_t        a;
    ra_ledger_saver_t  sv;
    unsigned char     *ra = busy_region(SIZE, &a);

    (void) state;
    ra_test_host(&h, &c, fixed_now);
    assert_int_equal(ra_ledger_saver_init(&sv, &a, &h, ra_str("z", 1), NULL,
                                          0), 0);
    assert_int_equal(sv.every, RA_LEDGER_FILE_INTERVAL);
    ra_ledger_saver_tick(&sv, T0);
    assert_int_equal(ra_ledger_saver_save(&sv), RA_OK);
    assert_int_equal(sv.due, 0);
    assert_int_equal(ra_ledger_file_restore(&a, &h, NULL, ra_str("z", 1),
                                            NULL), RA_EAGAIN);
    assert_int_equal(c.n, 0);

    assert_int_equal(ra_ledger_saver_init(&sv, &a, &h, ra_str("z", 1),
                                          "/nonexistent-dir/ra.state",
                                          1000), 1);
    ra_ledger_saver_tick(&sv, T0);              /* plans only */
    assert_int_equal(sv.due, T0 + 1000);
    ra_ledger_saver_tick(&sv, T0 + 999);        /* not due */
    assert_int_equal(c.n, 0);
    ra_ledger_saver_tick(&sv, T0 + 1500);       /* due: saved, replanned */
    assert_int_equal(c.n, 1);
    assert_int_equal(sv.due, T0 + 2500);
    assert_int_equal(ra_ledger_saver_save(&sv), RA_ERROR);
    assert_int_equal(c.n, 2);
    /* the last one, as a pool cleanup: tried and said, answering 0 */
    assert_int_equal(ra_ledger_saver_end(&sv), 0);
    assert_int_equal(c.n, 3);
    free(ra);
}

/* a FIFO (as /dev/null or /dev/stdout: not a regular file) is written
 * where it is: a file renamed over it would take its place */
static void
file_replace_writes_a_fifo_in_place(void **state)
{
    int          rd;
    char         dir[] = "/tmp/ra-fifo-XXXXXX", path[64], got[16];
    ra_buf_t     why;
    struct stat  st;

    (void) state;
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof(path), "%s/out", dir);
    assert_int_equal(mkfifo(path, 0600), 0);
    /* a reader first, so that the writer's open does not wait */
    rd = open(path, O_RDONLY | O_NONBLOCK);
    assert_true(rd >= 0);
    ra_buf_init(&why, &ra_malloc_allocator, 0, 256);
    assert_int_equal(ra_file_replace(path, "report\n", 7, &why), RA_OK);
    assert_int_equal(read(rd, got, sizeof(got)), 7);
    assert_memory_equal(got, "report\n", 7);
    assert_int_equal(stat(path, &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
    ra_buf_release(&why);
    close(rd);
    unlink(path);
    rmdir(dir);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ledger_file_round_trip),
        cmocka_unit_test(ledger_file_missing_is_quiet),
        cmocka_unit_test(ledger_file_torn),
        cmocka_unit_test(ledger_file_flipped_byte),
        cmocka_unit_test(ledger_file_structure_checked),
        cmocka_unit_test(ledger_file_other_size),
        cmocka_unit_test(ledger_file_foreign),
        cmocka_unit_test(ledger_file_save_fails),
        cmocka_unit_test(ledger_file_saver_schedule),
        cmocka_unit_test(file_replace_writes_a_fifo_in_place),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
