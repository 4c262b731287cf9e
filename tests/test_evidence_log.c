/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The evidence log and the whole-line writer every log shares: an
 * evidence line's keys are the CSV report's columns and a hostile path or
 * name stays inside its value; the byte budget drops what is over it,
 * counts the drops per site and starts again the next minute; a line is
 * written whole through short writes, EINTR and EAGAIN, and a line torn
 * by a failure is ended with a newline, counted, and said once a minute;
 * the alert summary names the busiest clients, and one window is claimed
 * once, whichever "process" asks.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ra_test.h"
#include "ra_evidence.h"
#include "ra_json.h"
#include "ra_logfile.h"
#include "ra_outcome.h"
#include "ra_report.h"

#define T0  (1700000000000LL)          /* 2023-11-14T22:13:20Z */

/* ---- the line ------------------------------------------------------ */

typedef struct {
    char           keys[512];
    char           uri[4096];
    char           crawler[256];
    const char    *want;            /* the key whose value is next */
} keys_t;

static int
keys_collect(void *ctx, unsigned event, ra_str_t raw, unsigned depth)
{
    keys_t  *k = ctx;
    long     n;
    char    *to = NULL;

    if (event == RA_JSON_KEY && depth == 1) {
        if (k->keys[0]) {
            strcat(k->keys, ",");
        }
        strncat(k->keys, (const char *) raw.data, raw.len);
        k->want = raw.len == 3 && memcmp(raw.data, "uri", 3) == 0 ? "uri"
                  : raw.len == 7 && memcmp(raw.data, "crawler", 7) == 0
                  ? "crawler" : NULL;
        return 0;
    }
    if (event == RA_JSON_STRING && k->want != NULL) {
        to = k->want[0] == 'u' ? k->uri : k->crawler;
        n = ra_json_unescape(raw, (unsigned char *) to,
                             (to == k->uri ? sizeof(k->uri)
                                           : sizeof(k->crawler)) - 1);
        assert_true(n >= 0);
        to[n] = '\0';
    }
    k->want = NULL;
    return 0;
}

static void
fill(ra_request_t *r, ra_verdict_t *v)
{
    memset(r, 0, sizeof(*r));
    memset(v, 0, sizeof(*v));
    r->site = (ra_str_t) ra_string("example.com");
    r->time = T0 + 123;
    r->addr = (ra_str_t) ra_string("192.0.2.7");
    r->method = (ra_str_t) ra_string("GET");
    r->uri = (ra_str_t) ra_string("/private/x");
    v->verdict = RA_VERDICT_VIOLATION;
    v->verification = RA_VERIFY_UNVERIFIABLE;
    v->name = (ra_str_t) ra_string("TestBot");
    v->line = 3;
    v->rule_type = RA_RULE_DISALLOW;
    memcpy(v->pattern, "/private", 8);
    v->pattern_len = 8;
}

/* one JSON object a line, the CSV's columns as keys, in order; a hostile
 * path and name are values, whole, and cannot end the line */
static void
line_keys_are_csv_columns(void **state)
{
    static const char  uri[] = "/a\"b\\c\n{\"site\":\"x\"}\r\t\x01</script>";
    static const char  name[] = "Bad\"Bot\n\",\"site\":\"evil";
    ra_request_t       r;
    ra_verdict_t       v;
    ra_buf_t           b;
    keys_t             k;
    char              *nl;

    (void) state;
    fill(&r, &v);
    r.uri = ra_str(uri, sizeof(uri) - 1);
    v.name = ra_str(name, sizeof(name) - 1);
    v.last_fetch = T0 - 60000;
    v.sha_known = 1;
    memset(v.robots_sha256, 0xab, 32);
    ra_buf_init(&b, &ra_malloc_allocator, 0, 0);
    ra_evidence_line(&b, &r, &v);
    assert_true(b.len > 0 && b.data[b.len - 1] == '\n');
    nl = memchr(b.data, '\n', b.len);
    assert_ptr_equal(nl, b.data + b.len - 1);

    memset(&k, 0, sizeof(k));
    assert_int_equal(ra_json_parse(ra_str(b.data, b.len - 1), keys_collect,
                                   &k, NULL), RA_OK);
    assert_string_equal(k.keys, RA_REPORT_CSV_HEADER);
    assert_string_equal(k.uri, uri);
    assert_string_equal(k.crawler, name);

    ra_buf_ch(&b, '\0');
    assert_non_null(strstr((char *) b.data,
        "{\"time\":\"2023-11-14T22:13:20Z\",\"site\":\"example.com\","));
    assert_non_null(strstr((char *) b.data,
        ",\"verification\":\"unverifiable\",\"verified_by\":null,"
        "\"client\":\"192.0.2.7\",\"method\":\"GET\","));
    assert_non_null(strstr((char *) b.data,
        ",\"rule\":\"/private\",\"line\":3,\"robots_sha256\":\"abababab"));
    assert_non_null(strstr((char *) b.data,
        ",\"last_robots_fetch\":\"2023-11-14T22:12:20Z\",\"purpose\":null}"));
    ra_buf_release(&b);
}

/* what is not known is null; a URI is cut at RA_EVIDENCE_URI_MAX; only
 * violations leave a line */
static void
line_nulls_and_cut(void **state)
{
    static char   uri[RA_EVIDENCE_URI_MAX + 100];
    ra_request_t  r;
    ra_verdict_t  v;
    ra_buf_t      b;
    keys_t        k;

    (void) state;
    fill(&r, &v);
    memset(uri, 'a', sizeof(uri));
    uri[0] = '/';
    r.uri = ra_str(uri, sizeof(uri));
    v.line = 0;
    ra_buf_init(&b, &ra_malloc_allocator, 0, 0);
    ra_evidence_line(&b, &r, &v);
    ra_buf_ch(&b, '\0');
    assert_non_null(strstr((char *) b.data,
        ",\"rule\":null,\"line\":0,\"robots_sha256\":null,"
        "\"last_robots_fetch\":null,\"purpose\":null}\n"));
    memset(&k, 0, sizeof(k));
    assert_int_equal(ra_json_parse(ra_str(b.data, b.len - 2), keys_collect,
                                   &k, NULL), RA_OK);
    assert_int_equal(strlen(k.uri), RA_EVIDENCE_URI_MAX);
    assert_non_null(strstr((char *) b.data, "aaaa\",\"rule\""));
    assert_true(b.len < RA_EVIDENCE_URI_MAX + 512);
    ra_buf_release(&b);

    assert_true(ra_evidence_wanted(&v));
    v.verdict = RA_VERDICT_UNREACHABLE;
    assert_false(ra_evidence_wanted(&v));
    v.verdict = RA_VERDICT_COMPLIANT;
    assert_false(ra_evidence_wanted(&v));
}


/* ---- the budget ---------------------------------------------------- */

static void
budget_drops_and_resets(void **state)
{
    ra_byte_window_t     w;
    uint64_t             site = 0, all = 0, n;
    ra_evidence_state_t  st = { &w, &site, &all };

    (void) state;
    memset(&w, 0, sizeof(w));
    assert_true(ra_evidence_budget_take(&st, 600, 1000, T0));
    assert_false(ra_evidence_budget_take(&st, 600, 1000, T0 + 1));
    assert_int_equal(site, 1);
    assert_int_equal(all, 1);
    assert_true(ra_evidence_budget_take(&st, 400, 1000, T0 + 2));
    assert_false(ra_evidence_budget_take(&st, 1, 1000, T0 + 3));
    assert_int_equal(site, 2);
    /* a request that came in the minute before counts in this one */
    assert_false(ra_evidence_budget_take(&st, 1, 1000, T0 - 60000));
    assert_int_equal(w.bytes, 1000);
    /* the next minute begins empty */
    assert_true(ra_evidence_budget_take(&st, 1000, 1000, T0 + 60000));
    assert_false(ra_evidence_budget_take(&st, 1, 1000, T0 + 60001));
    assert_int_equal(all, 4);
    /* a site no longer there: counted in all only */
    st.site_dropped = NULL;
    assert_false(ra_evidence_budget_take(&st, 1, 1000, T0 + 60002));
    assert_int_equal(site, 4);
    assert_int_equal(all, 5);
    /* the default, and none */
    assert_true(ra_evidence_budget_take(&st, RA_EVIDENCE_BUDGET_DEFAULT, 0,
                                        T0 + 120000));
    assert_false(ra_evidence_budget_take(&st, 1, 0, T0 + 120001));
    assert_true(ra_evidence_budget_take(&st, UINT64_MAX / 2,
                                        RA_EVIDENCE_BUDGET_OFF, T0 + 120002));

    n = 0;
    assert_null(ra_evidence_budget_check(8 * 1024 * 1024));
    assert_null(ra_evidence_budget_check(RA_EVIDENCE_BUDGET_MIN));
    assert_non_null(ra_evidence_budget_check(RA_EVIDENCE_BUDGET_MIN - 1));
    assert_non_null(ra_evidence_budget_check(n));
}


/* ---- whole lines --------------------------------------------------- */

typedef struct {
    char    out[8192];
    size_t  len;
    int     calls;
    size_t  chunk;          /* at most this much a write; 0: all */
    int     eintr;          /* EINTR for the next this many writes */
    int     eagain;         /* EAGAIN likewise */
    long    fail_after;     /* after this many bytes, fail_errno; -1 no */
    int     fail_errno;
    int     fail_once;      /* the failure passes after one write */
} file_t;

static int
file_write(void *file, const void *p, size_t *n)
{
    file_t  *f = file;

    f->calls++;
    if (f->eintr > 0) {
        f->eintr--;
        *n = 0;
        return EINTR;
    }
    if (f->eagain > 0) {
        f->eagain--;
        *n = 0;
        return EAGAIN;
    }
    if (f->fail_after >= 0 && f->len >= (size_t) f->fail_after) {
        *n = 0;
        if (f->fail_once) {
            f->fail_after = -1;
        }
        return f->fail_errno;
    }
    if (f->chunk && *n > f->chunk) {
        *n = f->chunk;
    }
    if (f->fail_after >= 0 && f->len + *n > (size_t) f->fail_after) {
        *n = (size_t) f->fail_after - f->len;   /* short, then fails */
    }
    assert_true(f->len + *n <= sizeof(f->out));
    memcpy(f->out + f->len, p, *n);
    f->len += *n;
    return 0;
}

static void
file_init(file_t *f, ra_logfile_t *log)
{
    memset(f, 0, sizeof(*f));
    f->fail_after = -1;
    log->write = file_write;
    log->file = f;
    log->name = "evidence.log";
}

static void
whole_lines(void **state)
{
    static const char  line[] = "{\"a\":\"0123456789abcdefghij\"}\n";
    file_t             f;
    ra_logfile_t       log;
    int                err = 0;

    (void) state;
    /* short writes, EINTR and EAGAIN: the line goes out whole */
    file_init(&f, &log);
    f.chunk = 3;
    f.eintr = 2;
    f.eagain = 3;
    assert_int_equal(ra_logfile_line(&log, line, sizeof(line) - 1, &err),
                     RA_OK);
    assert_int_equal(f.len, sizeof(line) - 1);
    assert_memory_equal(f.out, line, sizeof(line) - 1);

    /* the disk fills in the middle of a line, and frees space: the part
     * written is ended with a newline, the next line starts clean */
    file_init(&f, &log);
    f.chunk = 4;
    f.fail_after = 10;
    f.fail_errno = ENOSPC;
    f.fail_once = 1;
    assert_int_equal(ra_logfile_line(&log, line, sizeof(line) - 1, &err),
                     RA_ERROR);
    assert_int_equal(err, ENOSPC);
    assert_int_equal(f.len, 11);
    assert_memory_equal(f.out, line, 10);
    assert_int_equal(f.out[10], '\n');
    assert_int_equal(ra_logfile_line(&log, line, sizeof(line) - 1, &err),
                     RA_OK);
    assert_memory_equal(f.out + 11, line, sizeof(line) - 1);

    /* the disk stays full even for the newline: the file owes it, and
     * the next line, once space is freed, starts with it */
    {
        int  owed = 0;

        file_init(&f, &log);
        f.chunk = 4;
        f.fail_after = 10;
        f.fail_errno = ENOSPC;
        assert_int_equal(ra_logfile_line_owed(&log, line, sizeof(line) - 1,
                                              &owed, &err), RA_ERROR);
        assert_int_equal(f.len, 10);
        assert_int_equal(owed, 1);
        /* still full: nothing of the next line, the newline still owed */
        assert_int_equal(ra_logfile_line_owed(&log, line, sizeof(line) - 1,
                                              &owed, &err), RA_ERROR);
        assert_int_equal(f.len, 10);
        assert_int_equal(owed, 1);
        f.fail_after = -1;
        assert_int_equal(ra_logfile_line_owed(&log, line, sizeof(line) - 1,
                                              &owed, &err), RA_OK);
        assert_int_equal(owed, 0);
        assert_int_equal(f.len, 11 + sizeof(line) - 1);
        assert_int_equal(f.out[10], '\n');
        assert_memory_equal(f.out + 11, line, sizeof(line) - 1);
    }

    /* nothing written: nothing to end */
    file_init(&f, &log);
    f.fail_after = 0;
    f.fail_errno = ENOSPC;
    assert_int_equal(ra_logfile_line(&log, line, sizeof(line) - 1, &err),
                     RA_ERROR);
    assert_int_equal(f.len, 0);

    /* a full pipe that stays full: given up after RA_LOGFILE_AGAIN */
    file_init(&f, &log);
    f.eagain = 1000;
    assert_int_equal(ra_logfile_line(&log, line, sizeof(line) - 1, &err),
                     RA_ERROR);
    assert_int_equal(err, EAGAIN);
    assert_int_equal(f.calls, RA_LOGFILE_AGAIN + 1);

    /* a write that writes nothing and says no error would never end */
    file_init(&f, &log);
    f.chunk = 0;
    f.fail_after = 0;
    f.fail_errno = 0;
    assert_int_equal(ra_logfile_line(&log, line, sizeof(line) - 1, &err),
                     RA_ERROR);
    assert_int_equal(err, EIO);
    assert_false(ra_logfile_open(NULL));
    log.file = NULL;
    assert_false(ra_logfile_open(&log));
}


/* ---- through an engine: budget and failures counted --------------- */

typedef struct {
    ra_host_t   host;
    int64_t     now;
    int         logged;
    char        line[RA_HOST_LINE_MAX + 64];
} sink_t;

static void
sink_log(const ra_host_t *h, void *where, ra_log_level_e level,
    ra_str_t line)
{
    sink_t  *c = h->ctx;

    (void) where;
    (void) level;
    memcpy(c->line, line.data, line.len);
    c->line[line.len] = '\0';
    c->logged++;
}

static int64_t
sink_now(const ra_host_t *h)
{
    return ((sink_t *) h->ctx)->now;
}

typedef struct {
    unsigned char  *region;
    ra_ledger_t     ledger;
    ra_audit_t     *au;
    sink_t          sink;
} fx_t;

static void
fx_init(fx_t *x, uint64_t budget)
{
    ra_audit_conf_t  conf;
    size_t           size = 1024 * 1024;

    memset(x, 0, sizeof(*x));
    x->region = malloc(size);
    assert_non_null(x->region);
    assert_int_equal(ra_ledger_format(x->region, size, T0), RA_OK);
    ra_ledger_open(&x->ledger, x->region, NULL);
    x->sink.host.ctx = &x->sink;
    x->sink.host.log = sink_log;
    x->sink.host.now = sink_now;
    x->sink.host.heap = ra_malloc_allocator;
    x->sink.now = T0;
    memset(&conf, 0, sizeof(conf));
    conf.alloc = &ra_malloc_allocator;
    conf.host = &x->sink.host;
    conf.alert_interval = 60000;
    conf.evidence_budget = budget;
    x->au = ra_audit_create(&conf, &x->ledger);
    assert_non_null(x->au);
}

static void
fx_free(fx_t *x)
{
    ra_audit_destroy(x->au);
    free(x->region);
}

/* failures counted every time, said once a minute with the count since */
static void
failures_counted_and_said(void **state)
{
    fx_t          x;
    file_t        f;
    ra_logfile_t  log;
    ra_request_t  r;
    ra_verdict_t  v;
    ra_totals_t   t;
    int           i;

    (void) state;
    fx_init(&x, 0);
    fill(&r, &v);
    file_init(&f, &log);
    f.chunk = 7;
    f.fail_after = 20;
    f.fail_errno = ENOSPC;
    f.fail_once = 1;
    ra_outcome_evidence(x.au, &x.sink.host, &r, &v, &log);
    /* the next ones: nothing goes out */
    f.fail_after = 21;
    f.fail_once = 0;
    for (i = 0; i < 2; i++) {
        ra_outcome_evidence(x.au, &x.sink.host, &r, &v, &log);
    }
    /* the first line torn and ended; the others lost whole */
    assert_int_equal(f.len, 21);
    assert_int_equal(f.out[20], '\n');
    assert_int_equal(x.sink.logged, 1);
    assert_non_null(strstr(x.sink.line, "robots-audit: [" RA_TAG_EVIDENCE_LOG
                           "] cannot write the evidence log evidence.log: "));
    assert_non_null(strstr(x.sink.line, "(1 line lost since the last "
                           "report)"));
    ra_ledger_totals(&x.ledger, &t);
    assert_int_equal(t.log_write_errors[RA_LOGFILE_EVIDENCE], 3);
    assert_int_equal(t.log_write_errors[RA_LOGFILE_ALERT], 0);

    /* a minute later: said again, with what was lost since */
    x.sink.now = T0 + RA_LOG_ERROR_NOTE_MS;
    ra_outcome_evidence(x.au, &x.sink.host, &r, &v, &log);
    assert_int_equal(x.sink.logged, 2);
    assert_non_null(strstr(x.sink.line, "(3 lines lost since the last "
                           "report)"));

    /* the alert log's are its own */
    v.alert = 1;
    x.sink.logged = 0;
    ra_outcome_alert(&x.sink.host, &r, &v, &log);
    assert_int_equal(x.sink.logged, 2);   /* the text line, the failure */
    assert_non_null(strstr(x.sink.line, "[" RA_TAG_ALERT_LOG "] cannot "
                           "write the alert log"));
    fx_free(&x);
}

/* the budget through the engine: drops counted for the site */
static void
budget_counted_per_site(void **state)
{
    fx_t            x;
    file_t          f;
    ra_logfile_t    log;
    ra_request_t    r;
    ra_verdict_t    v;
    ra_snapshot_t   snap;
    int             i;
    size_t          len, written;

    (void) state;
    fx_init(&x, 1024);
    fill(&r, &v);
    ra_ledger_lock(&x.ledger);
    (void) ra_ledger_site_locked(&x.ledger, r.site, T0);
    ra_ledger_unlock(&x.ledger);
    file_init(&f, &log);
    for (i = 0; i < 10; i++) {
        ra_outcome_evidence(x.au, &x.sink.host, &r, &v, &log);
    }
    len = (size_t) ((char *) memchr(f.out, '\n', f.len) - f.out) + 1;
    written = f.len / len;
    assert_int_equal(f.len, written * len);     /* whole lines only */
    assert_true(written >= 1 && written < 10);
    assert_true(f.len <= 1024);
    assert_int_equal(ra_ledger_snapshot(&x.ledger, &ra_malloc_allocator, 0,
                                        &snap), RA_OK);
    assert_int_equal(snap.nsites, 1);
    assert_int_equal(snap.sites[0].evidence_dropped, 10 - written);
    assert_int_equal(snap.totals.evidence_dropped, 10 - written);
    ra_snapshot_free(&snap, &ra_malloc_allocator);
    /* the next minute: written again */
    r.time = T0 + 60000;
    ra_outcome_evidence(x.au, &x.sink.host, &r, &v, &log);
    assert_int_equal(f.len, (written + 1) * len);
    assert_int_equal(x.sink.logged, 0);
    fx_free(&x);
}


/* ---- the alert summary --------------------------------------------- */

/* the busiest clients, most first, at most RA_ALERT_TOP, escaped */
static void
summary_top_clients(void **state)
{
    static const char   *evil = "1.2.3.4\"\n";
    ra_budget_t          all;
    ra_bucket_t          site;
    ra_alert_client_t    top[RA_ALERT_TOP_SLOTS];
    ra_alert_state_t     s;
    ra_alert_budget_t    lim = { 1, 1 };
    ra_verdict_t         v;
    ra_request_t         r;
    ra_buf_t             b;
    uint32_t             m = 0, c = 0;
    char                 addr[32];
    int                  i;

    (void) state;
    memset(&all, 0, sizeof(all));
    memset(&site, 0, sizeof(site));
    memset(top, 0xee, sizeof(top));     /* a window begins with it clean */
    memset(&s, 0, sizeof(s));
    s.all = &all;
    s.site = &site;
    s.site_mark = &m;
    s.crawler_mark = &c;
    s.verified = 1;
    s.top = top;
    s.violation = 1;
    s.client = ra_str("198.51.100.1", 12);
    /* not counted before a window is open */
    assert_true(ra_alert_budget_take(&s, &lim, T0));
    ra_alert_budget_count(&s);
    assert_false(ra_alert_budget_take(&s, &lim, T0 + 1));
    for (i = 0; i < 5; i++) {
        ra_alert_budget_count(&s);
    }
    s.client = ra_str(evil, strlen(evil));
    for (i = 0; i < 7; i++) {
        ra_alert_budget_count(&s);
    }
    /* more clients than entries: the busiest stay */
    for (i = 0; i < 20; i++) {
        snprintf(addr, sizeof(addr), "203.0.113.%d", i);
        s.client = ra_str(addr, strlen(addr));
        ra_alert_budget_count(&s);
    }
    /* not a violation: not counted */
    s.violation = 0;
    ra_alert_budget_count(&s);

    memset(&v, 0, sizeof(v));
    assert_true(ra_alert_budget_due(&all, T0 + 60001, 60000, &v.budget));
    ra_alert_budget_top(top, &v.budget);
    assert_int_equal(v.budget.ntop, RA_ALERT_TOP);
    assert_int_equal(v.budget.top[0].n, 7);
    assert_memory_equal(v.budget.top[0].addr, evil, strlen(evil));
    assert_int_equal(v.budget.top[1].n, 5);
    for (i = 1; i < RA_ALERT_TOP; i++) {
        assert_true(v.budget.top[i].n <= v.budget.top[i - 1].n);
    }
    /* a newcomer is said with its own count, not the one it took over */
    assert_int_equal(v.budget.top[2].n, 1);
    for (i = 0; i < RA_ALERT_TOP_SLOTS; i++) {
        assert_int_equal(top[i].n, 0);  /* emptied for the next window */
    }

    v.budget.ntop = 2;
    ra_buf_init(&b, &ra_malloc_allocator, 0, 0);
    ra_alert_summary_text(&b, &v);
    ra_buf_ch(&b, '\0');
    assert_non_null(strstr((char *) b.data, " verified=1 verified_names="));
    assert_non_null(strstr((char *) b.data, " top_clients=\"1.2.3.4%22\\x0a=7,"
                           "198.51.100.1=5\""));
    b.len = 0;
    memset(&r, 0, sizeof(r));
    r.time = T0 + 60001;
    ra_alert_summary_json(&b, &r, &v);
    assert_int_equal(ra_json_parse(ra_str(b.data, b.len - 1),
                                   keys_collect, &(keys_t) { 0 }, NULL),
                     RA_OK);
    ra_buf_ch(&b, '\0');
    assert_non_null(strstr((char *) b.data, ",\"top_clients\":["
                           "{\"client\":\"1.2.3.4\\\"\\n\",\"violations\":7},"
                           "{\"client\":\"198.51.100.1\",\"violations\":5}]}"));
    ra_buf_release(&b);
}

/* two processes share the window (the ledger's zone): it is claimed
 * once; a request that came before the window's first held line (judged
 * late) claims nothing, so no summary's time is before its since */
static void
summary_claimed_once(void **state)
{
    ra_budget_t          all;
    ra_bucket_t          site;
    ra_alert_client_t    top[RA_ALERT_TOP_SLOTS];
    ra_alert_state_t     p1, p2;
    ra_alert_budget_t    lim = { 1, 1 };
    ra_alert_summary_t   out;
    uint32_t             m = 0, c1 = 0, c2 = 0;

    (void) state;
    memset(&all, 0, sizeof(all));
    memset(&site, 0, sizeof(site));
    memset(top, 0, sizeof(top));
    memset(&p1, 0, sizeof(p1));
    p1.all = &all;
    p1.site = &site;
    p1.site_mark = &m;
    p1.verified = 1;
    p1.top = top;
    p2 = p1;
    p1.crawler_mark = &c1;
    p2.crawler_mark = &c2;

    assert_true(ra_alert_budget_take(&p1, &lim, T0));
    assert_false(ra_alert_budget_take(&p1, &lim, T0 + 10));
    /* both see the window over: the first claims it, the second finds
     * nothing held */
    assert_true(ra_alert_budget_due(&all, T0 + 1010, 1000, &out));
    assert_int_equal(out.suppressed, 1);
    assert_false(ra_alert_budget_due(&all, T0 + 1011, 1000, &out));

    /* a new window from p2's line; p1 judges a request that came before
     * it (a slow one, logged late), well past the interval of the last */
    assert_false(ra_alert_budget_take(&p2, &lim, T0 + 2000));
    assert_false(ra_alert_budget_due(&all, T0 + 1990, 1000, &out));
    assert_false(ra_alert_budget_due(&all, T0 + 2999, 1000, &out));
    assert_true(ra_alert_budget_due(&all, T0 + 3000, 1000, &out));
    assert_true(out.since <= T0 + 3000);
    assert_int_equal(out.since, T0 + 2000);
    assert_false(ra_alert_budget_due(&all, T0 + 3000, 1000, &out));
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(line_keys_are_csv_columns),
        cmocka_unit_test(line_nulls_and_cut),
        cmocka_unit_test(budget_drops_and_resets),
        cmocka_unit_test(whole_lines),
        cmocka_unit_test(failures_counted_and_said),
        cmocka_unit_test(budget_counted_per_site),
        cmocka_unit_test(summary_top_clients),
        cmocka_unit_test(summary_claimed_once),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
