/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Renderers.  A ledger in a private region (64-320 KiB, so tables fill
 * and evict) is driven through ra_audit_robots() and ra_audit_request()
 * by a script read from the input: robots.txt answers (status, type,
 * body), requests (site, User-Agent, address, method, URI) and jumps in
 * time.  Everything taken from the input carries the marker "<zqx".  The
 * snapshot is rendered in every format:
 *   HTML        the marker never appears: no raw '<' from the input
 *   JSON        the strict parser (ra_json.h) accepts it
 *   Prometheus  every line is a comment or name{labels} value
 *   text        printable ASCII and newlines
 * and every alert line (text and JSON) is checked the same way, budget
 * summaries (RA103) too.
 */
#include <strings.h>

#include "fuzz.h"
#include "ra_alert.h"
#include "ra_audit.h"
#include "ra_json.h"
#include "ra_report.h"

#define FZ_MARK      "<zqx"
#define FZ_MARK_LEN  4
#define FZ_OPS       48

static ra_crawlers_t  *crawlers;
static ra_ranges_t    *ranges;

static const char  *uas[] = {
    "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
    ("Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; "
     "GPTBot/1.2; +https://openai.com/gptbot)"),
    "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
    "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0",
    "Mozilla/5.0 (compatible; ChatGPT-User/1.0; +https://openai.com/bot)",
    "python-requests/2.31",
    "ZqxCrawler/1.0 (+http://zqx.example/bot)",
};

static const char  *addrs[] = {
    "66.249.66.1", "192.0.2.7", "2001:db8::1", "::ffff:66.249.66.2",
};

static const char  *bodies[] = {
    "User-agent: *\nDisallow: /private\nCrawl-delay: 1\n",
    ("User-agent: Googlebot\nDisallow: /\nAllow: /ok$\n\nUser-agent: *\n"
     "Disallow: /" FZ_MARK "\n"),
    "User-agent: GPTBot\nDisallow: /\n",
    "",
};

/* "<zqx" + a span of the input, in buf */
static ra_str_t
marked(fz_in_t *in, unsigned char *buf, size_t cap, const char *prefix)
{
    size_t    n = strlen(prefix);
    ra_str_t  s = fz_span(in, cap - n);

    memcpy(buf, prefix, n);
    memcpy(buf + n, s.data, s.len);
    return ra_str(buf, n + s.len);
}

static int
json_ok_ev(void *ctx, unsigned ev, ra_str_t raw, unsigned depth)
{
    (void) ctx; (void) ev; (void) raw; (void) depth;
    return 0;
}

static void
check_json(const unsigned char *p, size_t n)
{
    ra_json_err_t  err;

    if (ra_json_parse(ra_str(p, n), json_ok_ev, NULL, &err) != RA_OK) {
        fprintf(stderr, "bad JSON at %zu: %s\n%.*s\n", err.offset, err.msg,
                (int) n, p);
        FZ_CHECK(0);
    }
}

static int
has_marker(const unsigned char *p, size_t n)
{
    size_t  i;

    for (i = 0; i + FZ_MARK_LEN <= n; i++) {
        if (p[i] == '<' && strncasecmp((const char *) p + i, FZ_MARK,
                                       FZ_MARK_LEN) == 0)
        {
            return 1;
        }
    }
    return 0;
}

static int
name_ch(int c, int first)
{
    return ra_isalpha(c) || c == '_' || c == ':' || (!first && ra_isdigit(c));
}

/* name{label="value",...} value  -- or a comment */
static void
check_prom_line(const unsigned char *p, size_t n)
{
    size_t  i = 0;

    if (n > 0 && p[0] == '#') {
        FZ_CHECK(n > 7 && (memcmp(p, "# HELP ", 7) == 0
                           || memcmp(p, "# TYPE ", 7) == 0));
        FZ_CHECK(fz_printable(p, n));
        return;
    }
    FZ_CHECK(n > 0 && name_ch(p[0], 1));
    while (i < n && name_ch(p[i], i == 0)) {
        i++;
    }
    if (i < n && p[i] == '{') {
        i++;
        while (i < n && p[i] != '}') {
            FZ_CHECK(name_ch(p[i], 1) && p[i] != ':');
            while (i < n && (name_ch(p[i], 0) && p[i] != ':')) {
                i++;
            }
            FZ_CHECK(i + 1 < n && p[i] == '=' && p[i + 1] == '"');
            i += 2;
            while (i < n && p[i] != '"') {
                if (p[i] == '\\') {
                    FZ_CHECK(i + 1 < n && (p[i + 1] == '\\'
                                           || p[i + 1] == '"'
                                           || p[i + 1] == 'n'));
                    i++;
                }
                i++;
            }
            FZ_CHECK(i < n);
            i++;
            if (i < n && p[i] == ',') {
                i++;
            }
        }
        FZ_CHECK(i < n);
        i++;
    }
    FZ_CHECK(i < n && p[i] == ' ');
    i++;
    FZ_CHECK(i < n);
    for ( /* void */ ; i < n; i++) {
        FZ_CHECK(ra_isdigit(p[i]) || p[i] == '.' || p[i] == 'e'
                 || p[i] == '+' || p[i] == '-');
    }
}

static void
check_lines(const ra_buf_t *b, int prom)
{
    size_t               i, start = 0;

    FZ_CHECK(!b->failed);
    for (i = 0; i < b->len; i++) {
        if (b->data[i] == '\n') {
            if (prom) {
                check_prom_line(b->data + start, i - start);
            } else {
                FZ_CHECK(fz_printable(b->data + start, i - start));
            }
            start = i + 1;
        }
    }
    FZ_CHECK(start == b->len);      /* ends with a newline */
}

static void
check_alert(const ra_request_t *r, const ra_verdict_t *v)
{
    ra_buf_t  b;

    ra_buf_init(&b, &ra_malloc_allocator, 0, 0);
    ra_alert_text(&b, r, v);
    FZ_CHECK(!b.failed && fz_printable(b.data, b.len));
    b.len = 0;
    ra_alert_json(&b, r, v);
    FZ_CHECK(!b.failed && b.len > 0 && b.data[b.len - 1] == '\n');
    FZ_CHECK(memchr(b.data, '\n', b.len) == b.data + b.len - 1);
    check_json(b.data, b.len - 1);
    ra_buf_release(&b);
}

/* a budget summary: printable, valid JSON, numbers that hold together */
static void
check_summary(const ra_request_t *r, const ra_verdict_t *v)
{
    ra_buf_t  b;

    FZ_CHECK(v->budget.suppressed >= 1);
    FZ_CHECK(v->budget.crawlers >= 1
             && v->budget.crawlers <= v->budget.suppressed);
    FZ_CHECK(v->budget.sites >= 1 && v->budget.sites <= v->budget.suppressed);
    ra_buf_init(&b, &ra_malloc_allocator, 0, 0);
    ra_alert_summary_text(&b, v);
    FZ_CHECK(!b.failed && fz_printable(b.data, b.len));
    b.len = 0;
    ra_alert_summary_json(&b, r, v);
    FZ_CHECK(!b.failed && b.len > 0 && b.data[b.len - 1] == '\n');
    check_json(b.data, b.len - 1);
    ra_buf_release(&b);
}

static void
init(void)
{
    ra_crawlers_err_t  cerr;
    ra_json_err_t      jerr;
    static const ra_str_t  json = ra_string(
        "{\"prefixes\":[{\"ipv4Prefix\":\"66.249.64.0/19\"}]}");

    crawlers = ra_crawlers_create(&ra_malloc_allocator);
    FZ_CHECK(crawlers != NULL);
    FZ_CHECK(ra_crawlers_add_builtin(crawlers, &cerr) == RA_OK);
    FZ_CHECK(ra_crawlers_compile(crawlers, &cerr) == RA_OK);
    ranges = ra_ranges_create(&ra_malloc_allocator);
    FZ_CHECK(ranges != NULL);
    FZ_CHECK(ra_ranges_add_json(ranges, ra_str("googlebot.json", 14), json,
                                &jerr) == RA_OK);
}

/* Prometheus without the last-fetch gauge: between records fetched at
 * the same instant, which one's status it shows is not an order the
 * renderer promises */
static size_t
prom_strip(const ra_buf_t *b, unsigned char *out)
{
    size_t  i = 0, j, n = 0;
    static const char  gauge[] = "robots_audit_robots_last_fetch_status{";

    while (i < b->len) {
        for (j = i; j < b->len && b->data[j] != '\n'; j++) {
            /* void */
        }
        if (j < b->len) {
            j++;
        }
        if (!(j - i >= sizeof(gauge) - 1
              && memcmp(b->data + i, gauge, sizeof(gauge) - 1) == 0))
        {
            memcpy(out + n, b->data + i, j - i);
            n += j - i;
        }
        i = j;
    }
    return n;
}

/* Views (the status page's): Prometheus of the folded view is that of
 * the whole snapshot; a bounded view copies no more than its limits and
 * renders valid JSON within a byte budget. */
static void
check_views(ra_ledger_t *l, const ra_snapshot_t *all,
    const ra_report_opts_t *all_opts, unsigned x, unsigned y)
{
    ra_snapshot_view_t  view;
    ra_snapshot_t       vs;
    ra_report_opts_t    opts = *all_opts;
    ra_buf_t            pa, pv;
    unsigned char      *sa, *sv;
    size_t              na, nv;
    uint32_t            i, n;

    memset(&view, 0, sizeof(view));
    view.max_sites = UINT32_MAX;
    view.fold_generic = 1;
    FZ_CHECK(ra_ledger_snapshot_view(l, &ra_malloc_allocator, 0, &view, &vs)
             == RA_OK);
    FZ_CHECK(vs.nsites == all->nsites);
    ra_buf_init(&pa, &ra_malloc_allocator, 0, 0);
    ra_buf_init(&pv, &ra_malloc_allocator, 0, 0);
    FZ_CHECK(ra_report_render(all, RA_REPORT_PROMETHEUS, &opts, &pa)
             == RA_OK);
    FZ_CHECK(ra_report_render(&vs, RA_REPORT_PROMETHEUS, &opts, &pv)
             == RA_OK);
    sa = malloc(pa.len + 1);
    sv = malloc(pv.len + 1);
    FZ_CHECK(sa != NULL && sv != NULL);
    na = prom_strip(&pa, sa);
    nv = prom_strip(&pv, sv);
    if (na != nv || memcmp(sa, sv, na) != 0) {
        fprintf(stderr, "%.*s\n----\n%.*s\n", (int) na, sa, (int) nv, sv);
        FZ_CHECK(!"the folded view's metrics differ");
    }
    free(sa);
    free(sv);
    ra_buf_release(&pa);
    ra_buf_release(&pv);
    ra_snapshot_free(&vs, &ra_malloc_allocator);

    memset(&view, 0, sizeof(view));
    view.max_sites = 1 + (x & 3);
    view.max_crawlers = y & 3;
    view.max_violators = (y >> 2) & 3;
    view.max_violations = (y >> 4) & 3;
    if (x & 4) {
        view.site = ra_str("EXAMPLE.com", 11);
    }
    FZ_CHECK(ra_ledger_snapshot_view(l, &ra_malloc_allocator, 0, &view, &vs)
             == RA_OK);
    FZ_CHECK(vs.nsites <= view.max_sites && vs.nsites <= vs.sites_total);
    FZ_CHECK(vs.nstats <= vs.nsites * (view.max_crawlers
                                       + view.max_violators));
    FZ_CHECK(vs.nviolations <= vs.nsites * view.max_violations);
    for (i = 0; i < vs.nsites; i++) {
        for (n = 0; n < vs.nstats && vs.stats[n].site != i + 1; n++) {
            /* void */
        }
        FZ_CHECK(vs.sites[i].stats_total >= (n < vs.nstats ? 1u : 0u));
    }
    opts.max_bytes = (x & 8) ? 600 : 0;
    opts.max_crawlers = view.max_crawlers + view.max_violators;
    opts.max_violations = view.max_violations;
    ra_buf_init(&pv, &ra_malloc_allocator, 0, 0);
    FZ_CHECK(ra_report_render(&vs, RA_REPORT_JSON, &opts, &pv) == RA_OK);
    check_json(pv.data, pv.len);
    pv.len = 0;
    FZ_CHECK(ra_report_render(&vs, RA_REPORT_HTML, &opts, &pv) == RA_OK);
    FZ_CHECK(!pv.failed && !has_marker(pv.data, pv.len));
    ra_buf_release(&pv);
    ra_snapshot_free(&vs, &ra_malloc_allocator);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in_t            in = { data, size };
    unsigned           flags, op, i, k;
    size_t             rsize;
    unsigned char     *region;
    unsigned char      sbuf[300], ubuf[300], abuf[80], mbuf[40], tbuf[300],
                       bbuf[1100];
    int64_t            now = 1431857103000LL;
    ra_ledger_t        ledger;
    ra_audit_conf_t    conf;
    ra_audit_t        *au;
    ra_answer_t        ans;
    ra_request_t       req, areq;
    unsigned           c, hop;
    unsigned char      lbuf[300];
    static const char *locs[] = { "/", "http://example.com/", "", "//" };
    ra_verdict_t       v;
    ra_snapshot_t      snap;
    ra_report_opts_t   opts;
    ra_buf_t           b;
    ra_str_t           site;
    int                rc;
    static const int   statuses[] = { 200, 404, 500, 429, 301, 403, 200, 0 };

    if (crawlers == NULL) {
        init();
    }
    flags = fz_byte(&in);
    rsize = RA_LEDGER_MIN_SIZE + (size_t) (flags & 3) * 85 * 1024;
    region = malloc(rsize);
    FZ_CHECK(region != NULL);
    FZ_CHECK(ra_ledger_format(region, rsize, now) == RA_OK);
    ra_ledger_open(&ledger, region, NULL);
    memset(&conf, 0, sizeof(conf));
    conf.alloc = &ra_malloc_allocator;
    conf.crawlers = crawlers;
    conf.ranges = (flags & 4) ? ranges : NULL;
    conf.alert_interval = (flags & 8) ? 0 : -1;
    conf.cache_bytes = (flags & 16) ? 4096 : 0;
    if (flags & 128) {                  /* a budget soon spent */
        conf.alert_budget.site = 1;
        conf.alert_budget.total = 2;
    }
    au = ra_audit_create(&conf, &ledger);
    FZ_CHECK(au != NULL);

    for (i = 0; i < FZ_OPS && in.left > 0; i++) {
        op = fz_byte(&in);
        k = fz_byte(&in);
        site = (k & 1) ? marked(&in, sbuf, sizeof(sbuf), FZ_MARK)
                       : ra_str("example.com", 11);
        if ((k & 6) == 2) {
            site = ra_str("Example.COM.", 12);
        }
        switch (op & 3) {
        case 0:     /* a robots.txt answer */
            memset(&ans, 0, sizeof(ans));
            ans.status = statuses[(k >> 3) & 7];
            if (ans.status == 0) {
                ans.status = (int) fz_u16(&in) - 100;
            }
            if (k & 0x40) {
                ans.body = marked(&in, bbuf, sizeof(bbuf),
                                  "User-agent: *\nDisallow: /" FZ_MARK "\n");
            } else {
                ans.body = ra_str(bodies[(op >> 2) & 3],
                                  strlen(bodies[(op >> 2) & 3]));
            }
            if (op & 0x10) {
                ans.content_type = marked(&in, tbuf, sizeof(tbuf), FZ_MARK);
            }
            ans.truncated = (op >> 5) & 1;
            ans.initial = (op >> 6) & 1;
            ans.size = (op & 0x80) ? fz_u16(&in) : 0;
            /* to a client: which answers bind whom, redirects followed */
            c = fz_byte(&in);
            if (c & 1) {
                memset(&areq, 0, sizeof(areq));
                areq.site = site;
                areq.time = now;
                areq.addr = ra_str(addrs[(c >> 1) & 3],
                                   strlen(addrs[(c >> 1) & 3]));
                areq.user_agent = ra_str(uas[(c >> 3) % 7],
                                         strlen(uas[(c >> 3) % 7]));
                areq.method = (c & 0x80) ? ra_str("HEAD", 4)
                                         : ra_str("GET", 3);
                areq.uri = (c & 0x40) ? marked(&in, tbuf, sizeof(tbuf),
                                               "/robots.txt" FZ_MARK)
                                      : ra_str("/robots.txt", 11);
                areq.referer = ra_str("", 0);
                ans.req = &areq;
                ans.hop = fz_byte(&in) % (RA_REDIRECT_HOPS + 2);
                ans.location = marked(&in, lbuf, sizeof(lbuf),
                                      locs[ans.hop & 3]);
            }
            rc = ra_audit_robots(au, site, &ans, now);
            FZ_CHECK(rc == RA_OK);
            hop = ra_audit_robots_hop(au, site, ans.location, now);
            FZ_CHECK(hop <= RA_REDIRECT_HOPS);
            break;
        case 1:
        case 2:     /* a request */
            memset(&req, 0, sizeof(req));
            req.site = site;
            req.time = now;
            if ((op >> 2) % 9 < 7) {
                req.user_agent = ra_str(uas[(op >> 2) % 9],
                                        strlen(uas[(op >> 2) % 9]));
            } else {
                req.user_agent = marked(&in, ubuf, sizeof(ubuf),
                                        (op & 4) ? FZ_MARK "bot/1 "
                                                 : "Googlebot " FZ_MARK);
            }
            req.addr = (k & 0x80) ? fz_span(&in, sizeof(abuf))
                                  : ra_str(addrs[(k >> 5) & 3],
                                           strlen(addrs[(k >> 5) & 3]));
            if (req.addr.len) {
                memcpy(abuf, req.addr.data, req.addr.len);
                req.addr.data = abuf;
            }
            req.method = (k & 0x10) ? marked(&in, mbuf, sizeof(mbuf), FZ_MARK)
                                    : ra_str("GET", 3);
            switch ((k >> 2) & 3) {
            case 0:
                req.uri = ra_str("/private/x", 10);
                break;
            case 1:
                req.uri = ra_str("/robots.txt", 11);
                break;
            default:
                req.uri = marked(&in, tbuf, sizeof(tbuf), "/" FZ_MARK);
            }
            req.status = statuses[(op >> 5) & 7];
            rc = ra_audit_request(au, &req, &v);
            FZ_CHECK(rc == RA_OK);
            FZ_CHECK(v.verdict <= RA_VERDICT_UNKNOWN);
            if (ra_alert_tag(&v) != NULL) {
                check_alert(&req, &v);
            }
            if (v.summary) {
                check_summary(&req, &v);
            }
            now += (int64_t) (op >> 4) * 250;
            break;
        default:    /* time passes */
            now += (int64_t) fz_u16(&in) * ((op & 4) ? 3600000 : 1000);
        }
    }

    FZ_CHECK(ra_ledger_snapshot(&ledger, &ra_malloc_allocator, flags & 32,
                                &snap) == RA_OK);
    memset(&opts, 0, sizeof(opts));
    opts.now = (flags & 64) ? now : 0;
    opts.relint = (flags & 32) ? 1 : 0;
    opts.with_lines = (flags >> 7) & 1;
    opts.lines = 10;
    opts.max_violations = fz_byte(&in) & 7;
    opts.max_crawlers = fz_byte(&in) & 7;
    opts.max_findings = fz_byte(&in) & 7;
    if (fz_byte(&in) & 1) {
        opts.title = marked(&in, tbuf, sizeof(tbuf), FZ_MARK);
    }

    ra_buf_init(&b, &ra_malloc_allocator, 0, 0);
    FZ_CHECK(ra_report_render(&snap, RA_REPORT_HTML, &opts, &b) == RA_OK);
    FZ_CHECK(!b.failed);
    if (has_marker(b.data, b.len)) {
        fprintf(stderr, "%.*s\n", (int) b.len, b.data);
        FZ_CHECK(!"raw marker in HTML");
    }
    b.len = 0;
    FZ_CHECK(ra_report_render(&snap, RA_REPORT_JSON, &opts, &b) == RA_OK);
    FZ_CHECK(!b.failed);
    check_json(b.data, b.len);
    b.len = 0;
    FZ_CHECK(ra_report_render(&snap, RA_REPORT_PROMETHEUS, &opts, &b)
             == RA_OK);
    check_lines(&b, 1);
    b.len = 0;
    FZ_CHECK(ra_report_render(&snap, RA_REPORT_TEXT, &opts, &b) == RA_OK);
    check_lines(&b, 0);
    b.len = 0;
    FZ_CHECK(ra_report_render(&snap, RA_REPORT_STATUS_KV, &opts, &b)
             == RA_OK);
    check_lines(&b, 0);
    b.len = 0;
    opts.no_table = (flags >> 4) & 1;
    FZ_CHECK(ra_report_render(&snap, RA_REPORT_STATUS_HTML, &opts, &b)
             == RA_OK);
    FZ_CHECK(!b.failed && !has_marker(b.data, b.len));
    FZ_CHECK(b.len > 0 && b.data[b.len - 1] == '\n');
    ra_buf_release(&b);

    check_views(&ledger, &snap, &opts, fz_byte(&in), fz_byte(&in));

    ra_snapshot_free(&snap, &ra_malloc_allocator);
    ra_audit_destroy(au);
    free(region);
    return 0;
}
