/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Precision and recall of the undeclared-crawler detector on real logs
 * (../shared/data/logs; skipped when absent).  Each log is one site,
 * replayed in its order through one table.  The labels come from the logs
 * themselves:
 *
 *   person    a client all of whose requests carry a browser's User-Agent
 *             and which loaded a subresource and sent a Referer;
 *   crawler   a client all of whose requests carry a crawler's User-Agent
 *             (the built-in table's, or plainly automated), replayed with
 *             a current Chrome, Firefox or Safari User-Agent in its place:
 *             a crawler in disguise, behaving as it did.
 *
 * Anything else is left out of the figures.  Clients are split by a hash
 * of their address into a part the score was tuned on and a held-out
 * part; the assertions hold on the held-out part.  The log lacks the
 * site's robots.txt and no cloud ranges are loaded: the figures come
 * from behaviour alone, the least the detector has anywhere.
 *
 * scripts/undeclared-eval.sh runs this and prints the figures.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ra_test.h"
#include "ra_accesslog.h"
#include "ra_crawlers.h"
#include "ra_undeclared.h"
#include "ra_verify.h"

#define EVAL_CLIENTS    8192
#define EVAL_WITHIN     50      /* requests a crawler may take to be caught */
#define EVAL_BEHAVE     10      /* page requests that make a crawler's
                                   behaviour visible at all */

static const char *const  disguise[] = {
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 "
    "(KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 "
    "Firefox/133.0",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) Version/18.1 Safari/605.1.15",
};

typedef struct {
    ra_addr_t  addr;
    uint32_t   hash;
    uint32_t   requests;
    uint32_t   pages;
    uint32_t   distinct;        /* distinct page paths */
    uint32_t   browser;         /* requests with a browser's UA */
    uint32_t   subres;
    uint32_t   referer;
    uint32_t   replayed;        /* requests replayed so far */
    uint32_t   flagged_at;      /* 0: never */
    uint32_t   signals;
    int32_t    score;           /* its last score */
} eval_client_t;

#define EVAL_SEEN       65536   /* (client, page path) pairs */

typedef struct {
    eval_client_t  *c;
    size_t          n;
    ra_crawlers_t  *crawlers;
    ra_str_t        text;
    uint64_t       *seen;       /* the distinct pages' set */
    int             minute;     /* the one minute of the hour every line
                                   has, -1: several */
    int             join;       /* replay with the hours joined */
} eval_log_t;

/* counts of one part */
typedef struct {
    unsigned  people, people_flagged;
    unsigned  crawlers, caught, caught_late;
    unsigned  behaving, behaving_caught;    /* >= EVAL_BEHAVE distinct
                                               pages */
    unsigned  other, other_flagged;         /* unlabelled browsers */
    unsigned  by_signal[RA_UNDECL_SIGNALS];
} eval_part_t;

static uint32_t
fnv(const uint8_t *p, size_t n)
{
    uint32_t  h = 2166136261u;

    while (n--) {
        h = (h ^ *p++) * 16777619u;
    }
    return h;
}

static eval_client_t *
client_of(eval_log_t *lg, const ra_addr_t *a)
{
    size_t  i;

    for (i = 0; i < lg->n; i++) {
        if (memcmp(lg->c[i].addr.b, a->b, 16) == 0) {
            return &lg->c[i];
        }
    }
    assert_true(lg->n < EVAL_CLIENTS);
    memset(&lg->c[lg->n], 0, sizeof(lg->c[0]));
    lg->c[lg->n].addr = *a;
    lg->c[lg->n].hash = fnv(a->b, 16);
    return &lg->c[lg->n++];
}

/* Calls fn for every combined line of the log with its client */
static void
each_line(eval_log_t *lg, void (*fn)(eval_log_t *, eval_client_t *,
                                     const ra_logrec_t *, int browser,
                                     void *), void *arg)
{
    const unsigned char  *p = lg->text.data, *end = p + lg->text.len, *nl;
    ra_logrec_t           rec;
    ra_addr_t             a;
    ra_identity_t         id;

    for (; p < end; p = nl + 1) {
        nl = memchr(p, '\n', (size_t) (end - p));
        if (nl == NULL) {
            nl = end;
        }
        if (ra_accesslog_parse(ra_str(p, (size_t) (nl - p)), &rec) != RA_OK
            || rec.method.len == 0
            || ra_addr_parse(rec.addr, &a) != RA_OK)
        {
            continue;
        }
        ra_crawlers_identify(lg->crawlers, rec.user_agent, &id);
        fn(lg, client_of(lg, &a), &rec,
           id.kind == RA_UA_BROWSER && !ra_ua_absent(rec.user_agent), arg);
    }
}

/* 1 when the client's page path is new, counting it */
static int
new_page(eval_log_t *lg, const eval_client_t *c, ra_str_t target)
{
    size_t    i;
    uint64_t  key;

    for (i = 0; i < target.len && target.data[i] != '?'; i++) {
        /* the path */
    }
    key = (uint64_t) (c - lg->c + 1) << 32 | fnv(target.data, i);
    for (i = key % EVAL_SEEN; lg->seen[i] != 0; i = (i + 1) % EVAL_SEEN) {
        if (lg->seen[i] == key) {
            return 0;
        }
    }
    lg->seen[i] = key;
    return 1;
}

static void
tally(eval_log_t *lg, eval_client_t *c, const ra_logrec_t *rec, int browser,
    void *arg)
{
    unsigned  kind = ra_undecl_path_kind(rec->target);
    int       minute = (int) (rec->time / 60000 % 60);

    (void) arg;
    if (lg->minute == -2) {
        lg->minute = minute;
    } else if (lg->minute != minute) {
        lg->minute = -1;
    }
    c->requests++;
    c->browser += browser;
    c->pages += kind == RA_UNDECL_PAGE;
    c->distinct += kind == RA_UNDECL_PAGE && new_page(lg, c, rec->target);
    c->subres += kind == RA_UNDECL_SUBRES;
    c->referer += rec->referer.len > 1;
}

static int
is_person(const eval_client_t *c)
{
    return c->browser == c->requests && c->subres && c->referer;
}

static int
is_crawler(const eval_client_t *c)
{
    return c->browser == 0;
}

/* Replays a line: a crawler's with a browser's User-Agent; a browser's
 * as it is; the detector sees only those, as the servers call it only
 * for requests with a browser's User-Agent */
static void
replay(eval_log_t *lg, eval_client_t *c, const ra_logrec_t *rec,
    int browser, void *arg)
{
    ra_undecl_t      *t = arg;
    ra_undecl_req_t   r;
    ra_undecl_hit_t   hit;

    if (!browser && !is_crawler(c)) {
        return;                 /* a mixed client's crawler requests */
    }
    memset(&r, 0, sizeof(r));
    memcpy(r.addr, c->addr.b, 16);
    r.time_ms = rec->time;
    if (lg->join) {
        /* a log sampled one minute an hour: the minutes side by side */
        r.time_ms = rec->time / 3600000 * 60000 + rec->time % 60000;
    }
    r.path = rec->target;
    r.referer = rec->referer.len == 1 ? ra_str("", 0) : rec->referer;
    r.user_agent = browser ? rec->user_agent
                           : ra_str_z(disguise[c->hash % 3]);
    ra_undecl_see(t, &r, &hit);
    c->replayed++;
    c->score = hit.score;
    if (hit.rec && c->flagged_at == 0) {
        c->flagged_at = c->replayed;
        c->signals = ra_undecl_record(t, hit.rec - 1)->signals;
    }
}

/* A person flagged or a crawler missed, for RA_UNDECL_EVAL_VERBOSE */
static void
show(const eval_client_t *c)
{
    char  client[48];

    ra_undecl_client(c->addr.b, client);
    print_message("undeclared-eval: %s %s: requests %u, pages %u, "
                  "distinct %u, subresources %u, with Referer %u, flagged at "
                  "%u, score %d\n", is_person(c) ? "person" : "missed",
                  client, c->requests, c->pages, c->distinct, c->subres,
                  c->referer,
                  c->flagged_at, (int) c->score);
}

static void
count_part(const eval_log_t *lg, int held_out, eval_part_t *p)
{
    size_t                i;
    unsigned              b;
    const eval_client_t  *c;

    for (i = 0; i < lg->n; i++) {
        c = &lg->c[i];
        if ((int) (c->hash >> 7 & 1) != held_out) {
            continue;
        }
        if (!held_out && getenv("RA_UNDECL_EVAL_VERBOSE") != NULL
            && (is_person(c) ? c->flagged_at != 0
                             : is_crawler(c) && c->pages >= EVAL_BEHAVE
                               && c->flagged_at == 0))
        {
            show(c);
        }
        if (is_person(c)) {
            p->people++;
            p->people_flagged += c->flagged_at != 0;
        } else if (is_crawler(c)) {
            p->crawlers++;
            p->caught += c->flagged_at && c->flagged_at <= EVAL_WITHIN;
            p->caught_late += c->flagged_at > EVAL_WITHIN;
            if (c->distinct >= EVAL_BEHAVE) {
                p->behaving++;
                p->behaving_caught += c->flagged_at
                                      && c->flagged_at <= EVAL_WITHIN;
            }
        } else if (c->browser == c->requests) {
            p->other++;
            p->other_flagged += c->flagged_at != 0;
        }
        for (b = 0; c->flagged_at && !is_person(c) && b < RA_UNDECL_SIGNALS;
             b++)
        {
            p->by_signal[b] += (c->signals >> b & 1) != 0;
        }
    }
}

/* Replays one log as logged (part[0], part[1]: tuning, held out) and,
 * when it was sampled one minute an hour, with the minutes joined
 * (part[2], part[3]), the time a crawler's requests really took */
static void
eval_log(const char *path, ra_crawlers_t *crawlers, eval_part_t part[4])
{
    eval_log_t    lg;
    ra_undecl_t  *t;
    size_t        i;

    memset(&lg, 0, sizeof(lg));
    assert_int_equal(ra_test_read_file(path, &lg.text), 0);
    lg.c = calloc(EVAL_CLIENTS, sizeof(eval_client_t));
    lg.seen = calloc(EVAL_SEEN, sizeof(uint64_t));
    assert_non_null(lg.c);
    assert_non_null(lg.seen);
    lg.crawlers = crawlers;
    lg.minute = -2;
    each_line(&lg, tally, NULL);
    for (lg.join = 0; lg.join <= (lg.minute >= 0); lg.join++) {
        for (i = 0; i < lg.n; i++) {
            lg.c[i].replayed = lg.c[i].flagged_at = 0;
        }
        t = ra_undecl_create(&ra_malloc_allocator, 4096, 1024);
        assert_non_null(t);
        each_line(&lg, replay, t);
        if (!lg.join) {
            count_part(&lg, 0, &part[0]);
            count_part(&lg, 1, &part[1]);
        }
        if (lg.minute < 0 || lg.join) {
            count_part(&lg, 0, &part[2]);
            count_part(&lg, 1, &part[3]);
        }
        free(t);
    }
    free(lg.seen);
    free(lg.c);
    free((void *) lg.text.data);
}

static void
say(const char *name, const eval_part_t *p)
{
    unsigned  flagged = p->caught + p->caught_late + p->people_flagged;
    unsigned  b;

    print_message("undeclared-eval: %s: people %u, flagged %u; disguised "
                  "crawlers %u, flagged within %d requests %u (%.1f%%), "
                  "later %u; with >= %d distinct pages %u, flagged %u "
                  "(%.1f%%)\n",
                  name, p->people, p->people_flagged, p->crawlers,
                  EVAL_WITHIN, p->caught,
                  p->crawlers ? 100.0 * p->caught / p->crawlers : 0.0,
                  p->caught_late, EVAL_BEHAVE, p->behaving,
                  p->behaving_caught,
                  p->behaving ? 100.0 * p->behaving_caught / p->behaving
                              : 0.0);
    print_message("undeclared-eval: %s: precision %.3f, recall %.3f "
                  "(>= %d distinct pages: %.3f); unlabelled browser "
                  "clients %u, "
                  "flagged %u\n", name,
                  flagged ? (double) (p->caught + p->caught_late) / flagged
                          : 1.0,
                  p->crawlers ? (double) p->caught / p->crawlers : 0.0,
                  EVAL_BEHAVE,
                  p->behaving ? (double) p->behaving_caught / p->behaving
                              : 0.0,
                  p->other, p->other_flagged);
    print_message("undeclared-eval: %s: flagged non-people by signal:", name);
    for (b = 0; b < RA_UNDECL_SIGNALS; b++) {
        print_message(" %s %u", ra_undecl_signal_name(1u << b),
                      p->by_signal[b]);
    }
    print_message("\n");
}

static void
held_out_precision_and_recall(void **state)
{
    static const char *const  logs[] = {
        "logs/elastic-apache/apache_logs",
        "logs/hackers/hackers-access.log",
    };
    eval_part_t               part[4];
    ra_test_arena_t          *ar;
    ra_crawlers_t            *crawlers;
    char                      path[4096];
    size_t                    i;

    (void) state;
    RA_TEST_NEED_SHARED();
    ar = ra_test_arena_new();
    crawlers = ra_test_builtin_table(ra_test_arena_alloc(ar));
    assert_non_null(crawlers);
    memset(part, 0, sizeof(part));
    for (i = 0; i < sizeof(logs) / sizeof(logs[0]); i++) {
        snprintf(path, sizeof(path), "%s/%s", ra_test_shared(), logs[i]);
        eval_log(path, crawlers, part);
    }
    say("tuning, as logged", &part[0]);
    say("held-out, as logged", &part[1]);
    say("tuning, sampled minutes joined", &part[2]);
    say("held-out, sampled minutes joined", &part[3]);
    /* enough of each kind to mean something */
    assert_true(part[1].people >= 100);
    assert_true(part[3].behaving >= 10);
    /* precision first: no person flagged, in any part */
    for (i = 0; i < 4; i++) {
        assert_int_equal(part[i].people_flagged, 0);
    }
    /* recall on crawlers whose crawling shows */
    assert_true(part[3].behaving_caught * 10 >= part[3].behaving * 9);
    ra_test_arena_free(ar);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(held_out_precision_and_recall),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
