/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A writer killed at every step of every structural change of the ledger:
 * built with RA_LEDGER_FAULT (the Makefile compiles every file of the
 * ledger, common/ra_ledger*.c, into this test alone with it), so that
 * RA_STEP() between two stores calls ra_ledger_fault_point() below.
 *
 * For each change and each step N, a child process (the writer) takes
 * the lock on a region of shared memory and runs the change, and the
 * hook ends it with _exit() at step N, mid-change.  The parent, standing
 * in for another worker, then takes the lock (which rebuilds the
 * structure), checks that it holds (ra_ledger_verify), that the records
 * the change did not touch kept their counters, and drives traffic over
 * the whole table: no crash, no sanitizer report, the structure holds.
 * When a child runs the change to its end without reaching step N, every
 * step of that change has been covered.
 *
 * The lock here has no functions (one process at a time: the parent
 * waits for the child); the rebuild is driven by the ledger's own mark,
 * which ra_ledger_lock() reads whatever the lock is.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ra_test.h"
#include "ra_crawlers.h"
#include "ra_ledger.h"
#include "ra_verify.h"

#define T0          (1700000000000LL)
#define SIZE        (128u * 1024)
#define DIED        42
#define FINISHED    43

static int  fault_armed;
static int  fault_countdown;

void ra_ledger_fault_point(int line);

void
ra_ledger_fault_point(int line)
{
    (void) line;
    if (fault_armed && --fault_countdown == 0) {
        _exit(DIED);
    }
}

static uint32_t
site(ra_ledger_t *l, const char *name, int64_t now)
{
    return ra_ledger_site_locked(l, ra_str(name, strlen(name)), now);
}

static uint32_t
rec(ra_ledger_t *l, uint32_t sid, const char *name, unsigned kind,
    unsigned verif, int64_t now)
{
    ra_stat_key_t  key;

    memset(&key, 0, sizeof(key));
    key.name = ra_str(name, strlen(name));
    key.verification = verif;
    key.kind = kind;
    key.category = RA_CAT_SEARCH;
    key.token = key.name;
    return ra_ledger_stat_locked(l, sid, &key, now);
}

static void
answer(ra_ledger_t *l, uint32_t sid, const char *body, int64_t now)
{
    ra_version_t  v;

    memset(&v, 0, sizeof(v));
    v.status = 200;
    v.size = (uint32_t) strlen(body);
    (void) ra_ledger_answer_locked(l, sid, &v, ra_str(body, strlen(body)),
                                   now);
}

static void
violation_of(ra_ledger_t *l, uint32_t sid, const char *uri,
    unsigned verification)
{
    ra_violation_t  v;

    memset(&v, 0, sizeof(v));
    v.verification = (uint8_t) verification;
    v.verdict = 3;
    v.name_len = 9;
    memcpy(v.name, "FloodBot1", 9);
    v.uri_len = (uint16_t) strlen(uri);
    memcpy(v.uri, uri, v.uri_len);
    ra_ledger_violation_locked(l, sid, &v);
}

static void
violation(ra_ledger_t *l, uint32_t sid, const char *uri)
{
    violation_of(l, sid, uri, RA_VERIFY_UNVERIFIABLE);
}

/* The state every run starts from: the site table full (keep.example the
 * most recent), the generic area full, versions with bodies, a verified
 * Googlebot with 5 violations on keep.example. */
static void
seed(ra_ledger_t *l)
{
    ra_totals_t  t;
    uint32_t     i, sid, id;
    char         name[64], body[256];

    ra_ledger_totals(l, &t);
    for (i = 0; i + 1 < t.plan.sites; i++) {
        snprintf(name, sizeof(name), "filler%u.example", i);
        sid = site(l, name, T0 + i);
        id = rec(l, sid, "Bingbot", RA_UA_KNOWN, RA_VERIFY_VERIFIED, T0 + i);
        ra_ledger_count_locked(l, sid, id, RA_CNT_REQUESTS);
        snprintf(body, sizeof(body), "User-agent: *\nDisallow: /%u\n", i);
        answer(l, sid, body, T0 + i);
    }
    sid = site(l, "keep.example", T0 + 1000);
    /* old versions whose bodies fill most of the heap: a large new one
     * must evict some */
    for (i = 0; i < 5; i++) {
        size_t  n = t.plan.blob_bytes / 7;
        char   *b = malloc(n + 1);

        assert_non_null(b);
        memset(b, 'a' + (int) i, n);
        memcpy(b, "User-agent: *\nDisallow: /", 25);
        b[n] = '\0';
        answer(l, sid, b, T0 + 990 + i);
        free(b);
    }
    answer(l, sid, "User-agent: *\nDisallow: /private\n", T0 + 1001);
    id = rec(l, sid, "Googlebot", RA_UA_KNOWN, RA_VERIFY_VERIFIED, T0 + 1000);
    for (i = 0; i < 5; i++) {
        ra_ledger_count_locked(l, sid, id, RA_CNT_REQUESTS);
        ra_ledger_count_locked(l, sid, id, RA_CNT_VIOLATION);
    }
    for (i = 0; i < t.generic_max; i++) {
        snprintf(name, sizeof(name), "FloodBot%u", i);
        id = rec(l, sid, name, RA_UA_GENERIC, RA_VERIFY_UNVERIFIABLE,
                 T0 + 2000 + i);
        ra_ledger_count_locked(l, sid, id, RA_CNT_VIOLATION);
        violation(l, sid, "/private/x");
    }
    /* suspect records (table names, not verified) in what is left: the
     * stat table full */
    violation_of(l, sid, "/private/g", RA_VERIFY_VERIFIED);
    ra_ledger_totals(l, &t);
    for (i = 0; t.stats < t.plan.stats; i++) {
        snprintf(name, sizeof(name), "Suspect%u", i);
        (void) rec(l, sid, name, RA_UA_KNOWN, RA_VERIFY_IMPOSTOR,
                   T0 + 2500 + i);
        ra_ledger_totals(l, &t);
    }
    assert_true(i > 0);
    /* Googlebot the most recent of its class, keep.example of sites */
    (void) rec(l, sid, "Googlebot", RA_UA_KNOWN, RA_VERIFY_VERIFIED, T0 + 3000);
    (void) site(l, "keep.example", T0 + 3000);
    assert_null(ra_ledger_verify(l));
}

/* The structural changes, each run by the writer. */
typedef enum {
    OP_NEW_SITE = 0,        /* evicts the least recent site, its records,
                               its bodies */
    OP_NEW_KNOWN,           /* a verified one: takes a generic bot's
                               slot */
    OP_NEW_SUSPECT,         /* evicts the least recent suspect record */
    OP_NEW_GENERIC,         /* evicts the least recent generic bot */
    OP_TOUCH,               /* an LRU move */
    OP_NEW_VERSION,         /* a body into the heap */
    OP_BODY_EVICTION,       /* bodies evicted to make room for a large one */
    OP_VIOLATION,           /* the ring */
    OP_VIOLATION_TRUSTED,   /* the ring's verified part */
    OP_MAX
} op_e;

static const char  *op_names[OP_MAX] = {
    "new site", "new known crawler", "new suspect record",
    "new generic bot", "LRU touch", "new version", "body eviction",
    "violation", "verified violation"
};

static char  *big;

static void
run_op(ra_ledger_t *l, op_e op)
{
    uint32_t  sid;

    ra_ledger_lock(l);
    sid = site(l, "keep.example", T0 + 4000);
    switch (op) {
    case OP_NEW_SITE:
        sid = site(l, "new.example", T0 + 4000);
        (void) rec(l, sid, "Bingbot", RA_UA_KNOWN, RA_VERIFY_VERIFIED,
                   T0 + 4000);
        break;
    case OP_NEW_KNOWN:
        (void) rec(l, sid, "Applebot", RA_UA_KNOWN, RA_VERIFY_VERIFIED,
                   T0 + 4000);
        break;
    case OP_NEW_SUSPECT:
        (void) rec(l, sid, "Applebot", RA_UA_KNOWN, RA_VERIFY_UNVERIFIABLE,
                   T0 + 4000);
        break;
    case OP_NEW_GENERIC:
        (void) rec(l, sid, "NewBot", RA_UA_GENERIC, RA_VERIFY_UNVERIFIABLE,
                   T0 + 4000);
        break;
    case OP_TOUCH:
        (void) rec(l, sid, "FloodBot3", RA_UA_GENERIC, RA_VERIFY_UNVERIFIABLE,
                   T0 + 4000);
        (void) site(l, "filler2.example", T0 + 4000);
        break;
    case OP_NEW_VERSION:
        answer(l, sid, "User-agent: *\nDisallow: /new\n", T0 + 4000);
        break;
    case OP_BODY_EVICTION:
        answer(l, sid, big, T0 + 4000);
        break;
    case OP_VIOLATION:
        violation(l, sid, "/private/y");
        break;
    case OP_VIOLATION_TRUSTED:
        violation_of(l, sid, "/private/z", RA_VERIFY_VERIFIED);
        break;
    default:
        break;
    }
    ra_ledger_unlock(l);
}

/* Another worker after the writer died: traffic over every table. */
static void
traffic(ra_ledger_t *l, unsigned round)
{
    ra_totals_t  t;
    uint32_t     i, sid, id;
    char         name[64], body[64];

    ra_ledger_totals(l, &t);
    for (i = 0; i < t.plan.sites + 3; i++) {
        ra_ledger_lock(l);
        snprintf(name, sizeof(name), "t%u-%u.example", round, i % 7);
        sid = site(l, name, T0 + 5000 + i);
        snprintf(name, sizeof(name), "After%u", i);
        id = rec(l, sid, name, i % 3 ? RA_UA_GENERIC : RA_UA_KNOWN,
                 RA_VERIFY_UNVERIFIABLE, T0 + 5000 + i);
        ra_ledger_count_locked(l, sid, id, RA_CNT_REQUESTS);
        if (i % 5 == 0) {
            snprintf(body, sizeof(body), "User-agent: *\nDisallow: /%u\n", i);
            answer(l, sid, body, T0 + 5000 + i);
            violation(l, sid, "/after");
        }
        ra_ledger_unlock(l);
    }
}

/* Googlebot's counters on keep.example, through a snapshot. */
static uint64_t
google_violations(ra_ledger_t *l)
{
    ra_snapshot_t  snap;
    uint64_t       n = UINT64_MAX;
    uint32_t       i;

    assert_int_equal(ra_ledger_snapshot(l, &ra_malloc_allocator, 0, &snap),
                     RA_OK);
    for (i = 0; i < snap.nstats; i++) {
        const ra_stat_t  *st = &snap.stats[i];
        const ra_site_t  *s = &snap.sites[st->site - 1];

        if (st->name_len == 9 && memcmp(st->name, "Googlebot", 9) == 0
            && s->name_len == 12 && memcmp(s->name, "keep.example", 12) == 0)
        {
            n = st->counters[RA_CNT_VIOLATION];
        }
    }
    ra_snapshot_free(&snap, &ra_malloc_allocator);
    return n;
}

static void
ledger_writer_killed_at_every_step(void **state)
{
    unsigned char  *r, *saved;
    ra_ledger_t     l;
    ra_totals_t     t;
    int             op, step, status, died;
    unsigned        runs = 0;
    ra_totals_t     base;
    pid_t           pid;
    ra_ledger_hint_t   hint;
    ra_ledger_state_t  facts;

    (void) state;

    r = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
             -1, 0);
    assert_true(r != MAP_FAILED);
    saved = malloc(SIZE);
    assert_non_null(saved);
    assert_int_equal(ra_ledger_format(r, SIZE, T0), RA_OK);
    ra_ledger_open(&l, r, NULL);
    seed(&l);
    /* a process's hint for Googlebot on keep.example (ra_audit.c's) */
    memset(&hint, 0, sizeof(hint));
    hint.site = site(&l, "keep.example", T0 + 3000);
    hint.epoch = ra_ledger_site_epoch_locked(&l, hint.site);
    hint.stat = rec(&l, hint.site, "Googlebot", RA_UA_KNOWN,
                    RA_VERIFY_VERIFIED, T0 + 3000);
    hint.tag = ra_ledger_stat_tag_locked(&l, hint.stat);
    assert_int_equal(ra_ledger_state_hinted(&l, &hint, T0 + 3000, 0, 0,
                                            &facts), 1);
    assert_true(facts.current >= 0);
    memcpy(saved, r, SIZE);
    assert_true(google_violations(&l) == 5);
    ra_ledger_totals(&l, &t);
    base = t;
    big = malloc(t.plan.blob_bytes / 3 + 1);
    assert_non_null(big);
    memset(big, 'x', t.plan.blob_bytes / 3);
    memcpy(big, "User-agent: *\nDisallow: /", 25);
    big[t.plan.blob_bytes / 3] = '\0';

    for (op = 0; op < OP_MAX; op++) {
        died = 0;
        for (step = 1; step < 100000; step++) {
            memcpy(r, saved, SIZE);
            pid = fork();
            assert_true(pid >= 0);
            if (pid == 0) {
                fault_armed = 1;
                fault_countdown = step;
                run_op(&l, (op_e) op);
                _exit(FINISHED);
            }
            assert_int_equal(waitpid(pid, &status, 0), pid);
            assert_true(WIFEXITED(status));
            if (WEXITSTATUS(status) == FINISHED) {
                break;                  /* every step of op covered */
            }
            assert_int_equal(WEXITSTATUS(status), DIED);
            died++;
            runs++;
            /* a writer that died changing what a verdict reads of the
             * site: a reader without the lock reads under it instead */
            if (op == OP_NEW_VERSION || op == OP_BODY_EVICTION) {
                assert_int_equal(ra_ledger_state_hinted(&l, &hint, T0 + 4500,
                                                        0, 0, &facts), 0);
            }

            /* the next worker: the lock rebuilds, the structure holds */
            ra_ledger_lock(&l);
            if (ra_ledger_verify(&l) != NULL) {
                fail_msg("%s, step %d: %s", op_names[op], step,
                         ra_ledger_verify(&l));
            }
            /* ... until a reader under the lock finds none under way */
            ra_ledger_state_locked(&l, hint.site, hint.stat, T0 + 4500,
                                   &facts);
            ra_ledger_unlock(&l);
            assert_int_equal(ra_ledger_state_hinted(&l, &hint, T0 + 4501, 0,
                                                    0, &facts), 1);
            assert_true(facts.current >= 0);
            ra_ledger_totals(&l, &t);
            assert_true(t.repairs >= 1);
            assert_true(t.stats_generic <= t.generic_max);
            /* at most the record being changed is lost: every change
             * here evicts at most one record (or one site with one) */
            if (t.stats + 1 < base.stats || t.sites + 1 < base.sites) {
                fail_msg("%s, step %d: %u records, %u sites left of %u, %u",
                         op_names[op], step, t.stats, t.sites, base.stats,
                         base.sites);
            }
            /* untouched records keep their counters */
            if (google_violations(&l) != 5) {
                fail_msg("%s, step %d: Googlebot lost its violations",
                         op_names[op], step);
            }
            traffic(&l, (unsigned) step);
            if (ra_ledger_verify(&l) != NULL) {
                fail_msg("%s, step %d, after traffic: %s", op_names[op],
                         step, ra_ledger_verify(&l));
            }
        }
        /* each change has steps, and the loop saw its end */
        assert_true(died > 0);
        assert_true(step < 100000);
        printf("# %s: killed at each of %d steps\n", op_names[op], died);
    }
    assert_true(runs > 50);

    /* a run that finishes leaves no mark: nothing to rebuild */
    memcpy(r, saved, SIZE);
    ra_ledger_totals(&l, &t);
    run_op(&l, OP_NEW_SITE);
    ra_ledger_lock(&l);
    ra_ledger_unlock(&l);
    {
        ra_totals_t  u;

        ra_ledger_totals(&l, &u);
        assert_true(u.repairs == t.repairs);
    }
    free(saved);
    free(big);
    munmap(r, SIZE);
}

/* ra_ledger_check (a reload, an attach) verifies the structure and marks
 * one that does not hold, so the first lock rebuilds it. */
/* room for a few sites beside keep.example: fillers must survive
 * x.example's eviction to have their names changed */
#define CHECK_SIZE  (4 * SIZE)

static void
ledger_check_marks_a_broken_structure(void **state)
{
    unsigned char  *r = malloc(CHECK_SIZE);
    ra_ledger_t     l;
    ra_totals_t     t;
    const char     *why = NULL;

    (void) state;
    assert_non_null(r);
    assert_int_equal(ra_ledger_format(r, CHECK_SIZE, T0), RA_OK);
    ra_ledger_open(&l, r, NULL);
    seed(&l);
    assert_int_equal(ra_ledger_check(r, CHECK_SIZE, &why), RA_OK);
    ra_ledger_lock(&l);
    ra_ledger_unlock(&l);
    ra_ledger_totals(&l, &t);
    assert_true(t.repairs == 0);

    ra_ledger_lock(&l);
    (void) site(&l, "x.example", T0 + 9000);    /* evicts, links */
    ra_ledger_unlock(&l);
    assert_null(ra_ledger_verify(&l));
    /* a site's name changed under its hash chain, with no mark, as
     * memory a bug wrote (the old check looked at the header only): the
     * first filler whose new name falls in another bucket */
    {
        size_t    i;
        unsigned  k;
        char      name[32];

        for (k = 1; k < 8; k++) {
            snprintf(name, sizeof(name), "filler%u.example", k);
            for (i = 0; i + strlen(name) <= CHECK_SIZE
                        && memcmp(r + i, name, strlen(name)) != 0; i++)
            {
                /* the only copy: in the site table */
            }
            assert_true(i + strlen(name) <= CHECK_SIZE);
            /* 'g': another low bit, so another bucket (a case flip
             * keeps FNV's low five bits) */
            r[i] = 'g';
            if (ra_ledger_verify(&l) != NULL) {
                break;
            }
            r[i] = 'f';
        }
    }
    assert_non_null(ra_ledger_verify(&l));
    assert_int_equal(ra_ledger_check(r, CHECK_SIZE, &why), RA_OK);
    ra_ledger_lock(&l);                 /* rebuilt here */
    assert_null(ra_ledger_verify(&l));
    ra_ledger_unlock(&l);
    ra_ledger_totals(&l, &t);
    assert_true(t.repairs == 1);
    traffic(&l, 1);
    assert_null(ra_ledger_verify(&l));
    free(r);
}

int
main(void)
{
    const struct CMUnitTest  tests[] = {
        cmocka_unit_test(ledger_writer_killed_at_every_step),
        cmocka_unit_test(ledger_check_marks_a_broken_structure),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
