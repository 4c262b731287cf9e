/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Page directives as the servers hand them to the engine
 * (ra_audit_page.h): which answers are read, the X-Robots-Tag values
 * with and without a user-agent prefix, the HTML head (plain and
 * gzip-coded), the conflicts recorded per site (noindex on a disallowed
 * path, header and meta disagreeing, directives a crawler ignores), the
 * bounds of the ledger's tables (ra_pages_t) and the reports' sections;
 * the readings of an answer's body recorded as the servers' filters
 * record them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ra_test.h"
#include "ra_audit.h"
#include "ra_audit_body.h"
#include "ra_audit_page.h"
#include "ra_http.h"
#include "ra_kind.h"
#include "ra_outcome.h"
#include "ra_pagedir.h"
#include "ra_report.h"

#define T0       (1700000000000LL)

#define GOOGLEBOT "Mozilla/5.0 (compatible; Googlebot/2.1; " \
                  "+http://www.google.com/bot.html)"
#define BINGBOT   "Mozilla/5.0 (compatible; bingbot/2.0; " \
                  "+http://www.bing.com/bingbot.htm)"
#define BROWSER   "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) " \
                  "Gecko/20100101 Firefox/128.0"

#define SITE      "pages.test"

typedef struct {
    ra_test_arena_t *arena;
    unsigned char   *region;
    ra_ledger_t      ledger;
    ra_audit_t      *au;
    const char      *addr;          /* the client's */
} fx_t;

static fx_t *
fx_new(void)
{
    fx_t             *f = calloc(1, sizeof(*f));
    ra_audit_conf_t   conf;
    ra_json_err_t     jerr;
    ra_ranges_t      *ranges;
    size_t            size = 4u * 1024 * 1024;
    ra_str_t          json = ra_string(
        "{\"prefixes\":[{\"ipv4Prefix\":\"203.0.113.0/24\"}]}");

    f->region = malloc(size);
    assert_int_equal(ra_ledger_format(f->region, size, T0), RA_OK);
    ra_ledger_open(&f->ledger, f->region, NULL);
    f->arena = ra_test_arena_new();
    memset(&conf, 0, sizeof(conf));
    conf.alloc = &ra_malloc_allocator;
    conf.crawlers = ra_test_builtin_table(ra_test_arena_alloc(f->arena));
    assert_non_null(conf.crawlers);
    /* Googlebot is verified from 203.0.113.0/24 only */
    ranges = ra_ranges_create(ra_test_arena_alloc(f->arena));
    assert_int_equal(ra_ranges_add_json(ranges, ra_str_z("googlebot.json"),
                                        json, &jerr), RA_OK);
    conf.ranges = ranges;
    conf.alert_interval = 60000;
    f->au = ra_audit_create(&conf, &f->ledger);
    assert_non_null(f->au);
    f->addr = "198.51.100.7";
    return f;
}

static void
fx_free(fx_t *f)
{
    ra_audit_destroy(f->au);
    ra_test_arena_free(f->arena);
    free(f->region);
    free(f);
}

static void
robots(fx_t *f, const char *body)
{
    ra_answer_t  a;

    memset(&a, 0, sizeof(a));
    a.status = 200;
    a.body = ra_str(body, strlen(body));
    a.content_type = (ra_str_t) ra_string("text/plain");
    assert_int_equal(ra_audit_robots(f->au, ra_str_z(SITE), &a, T0), RA_OK);
}

static ra_request_t
request(const fx_t *f, const char *ua, const char *uri, int64_t t)
{
    ra_request_t  r;

    memset(&r, 0, sizeof(r));
    r.site = ra_str_z(SITE);
    r.time = t;
    r.addr = ra_str_z(f->addr);
    r.user_agent = ra_str_z(ua);
    r.method = ra_str_z("GET");
    r.uri = ra_str_z(uri);
    r.status = 200;
    return r;
}

/* One answer: its X-Robots-Tag values (NULL-terminated) and its body
 * (NULL: not HTML), coded with coding when it is not NULL. */
static void
page(fx_t *f, const char *ua, const char *uri, const char *const *tags,
    const char *html, const char *coding, int64_t t)
{
    ra_str_t       v[RA_PAGE_TAGS];
    size_t         n = 0;
    ra_request_t   r = request(f, ua, uri, t);
    ra_capture_t   c;
    unsigned char  gz[8192];
    size_t         len;

    while (tags != NULL && tags[n] != NULL) {
        v[n] = ra_str_z(tags[n]);
        n++;
    }
    if (html == NULL) {
        assert_int_equal(ra_audit_page(f->au, &r, v, n, NULL), RA_OK);
        return;
    }
    ra_capture_start(&c, &ra_malloc_allocator, &ra_malloc_allocator, 200,
                     -1, coding != NULL ? ra_str_z(coding) : ra_str(NULL, 0));
    ra_capture_limit(&c, RA_PAGE_SCAN);
    if (coding != NULL) {
        len = ra_test_gzip(html, strlen(html), gz, sizeof(gz));
        ra_capture_add(&c, gz, len);
    } else {
        ra_capture_add(&c, html, strlen(html));
    }
    assert_int_equal(ra_audit_page(f->au, &r, v, n, &c), RA_OK);
    ra_buf_release(&c.body);
    ra_buf_release(&c.decoded);
}

/* The site's page directives, as a snapshot copies them */
static ra_pages_t
pages_of(fx_t *f)
{
    ra_snapshot_t  snap;
    ra_pages_t     p;
    uint32_t       i;

    memset(&p, 0, sizeof(p));
    assert_int_equal(ra_ledger_snapshot(&f->ledger, &ra_malloc_allocator, 0,
                                        &snap), RA_OK);
    for (i = 0; i < snap.nsites; i++) {
        if (ra_strcaseeq(ra_str(snap.sites[i].name, snap.sites[i].name_len),
                         ra_str_z(SITE)))
        {
            p = snap.sites[i].pages;
        }
    }
    ra_snapshot_free(&snap, &ra_malloc_allocator);
    return p;
}

static int
same(ra_str_t a, ra_str_t b)
{
    return a.len == b.len && (a.len == 0 || memcmp(a.data, b.data, a.len) == 0);
}

static const ra_page_prefix_t *
prefix_of(const ra_pages_t *p, const char *prefix)
{
    uint32_t  i;

    for (i = 0; i < p->nprefixes; i++) {
        if (same(ra_str(p->prefixes[i].prefix, p->prefixes[i].len),
                      ra_str_z(prefix)))
        {
            return &p->prefixes[i];
        }
    }
    return NULL;
}

static int
bit_index(uint32_t bit)
{
    int  i = 0;

    while (bit > 1) {
        bit >>= 1;
        i++;
    }
    return i;
}

/* The count of the conflict (kind, crawler, path); 0 when absent */
static uint64_t
conflict(const ra_pages_t *p, ra_conflict_kind_e kind, const char *crawler,
    const char *path)
{
    uint32_t  i;

    for (i = 0; i < p->nconflicts; i++) {
        const ra_page_conflict_t  *c = &p->conflicts[i];

        if (c->kind == (uint8_t) kind
            && ra_strcaseeq(ra_str(c->crawler, c->crawler_len),
                            ra_str_z(crawler))
            && same(ra_str(c->path, c->path_len), ra_str_z(path)))
        {
            return c->count;
        }
    }
    return 0;
}

static const char  disallow_private[] =
    "User-agent: *\nDisallow: /private/\n";

static void
test_wanted(void **state)
{
    fx_t      *f = fx_new();
    ra_str_t   get = ra_str_z("GET"), html = ra_str_z("text/html; charset=utf-8");

    (void) state;
    assert_int_equal(ra_audit_page_wanted(f->au, get, 0, 200,
                                          ra_str_z(GOOGLEBOT), html),
                     RA_PAGE_HTML);
    assert_int_equal(ra_audit_page_wanted(f->au, get, 0, 200,
                                          ra_str_z(GOOGLEBOT),
                                          ra_str_z("application/pdf")),
                     RA_PAGE_HEADERS);
    assert_int_equal(ra_audit_page_wanted(f->au, get, 0, 200,
                                          ra_str_z(GOOGLEBOT),
                                          ra_str_z("application/xhtml+xml")),
                     RA_PAGE_HTML);
    /* never a browser's, nor an answer without a page */
    assert_int_equal(ra_audit_page_wanted(f->au, get, 0, 200,
                                          ra_str_z(BROWSER), html),
                     RA_PAGE_NONE);
    assert_int_equal(ra_audit_page_wanted(f->au, get, 0, 200, ra_str_z(""),
                                          html), RA_PAGE_NONE);
    assert_int_equal(ra_audit_page_wanted(f->au, ra_str_z("HEAD"), 0, 200,
                                          ra_str_z(GOOGLEBOT), html),
                     RA_PAGE_NONE);
    assert_int_equal(ra_audit_page_wanted(f->au, get, 0, 404,
                                          ra_str_z(GOOGLEBOT), html),
                     RA_PAGE_NONE);
    assert_int_equal(ra_audit_page_wanted(f->au, get, 0, 304,
                                          ra_str_z(GOOGLEBOT), html),
                     RA_PAGE_NONE);
    assert_int_equal(ra_audit_page_wanted(f->au, get, RA_TARGET_ROBOTS, 200,
                                          ra_str_z(GOOGLEBOT), html),
                     RA_PAGE_NONE);
    assert_int_equal(ra_audit_page_wanted(NULL, get, 0, 200,
                                          ra_str_z(GOOGLEBOT), html),
                     RA_PAGE_NONE);
    fx_free(f);
}

static void
test_header_counts(void **state)
{
    fx_t                    *f = fx_new();
    ra_pages_t               p;
    const ra_page_prefix_t  *row;
    static const char *const  plain[] = { "noindex, nofollow", NULL };
    static const char *const  agent[] = { "otherbot: noarchive", NULL };

    (void) state;
    robots(f, disallow_private);
    page(f, GOOGLEBOT, "/open/a.pdf", plain, NULL, NULL, T0 + 1);
    page(f, GOOGLEBOT, "/open/b.pdf?x=1", agent, NULL, NULL, T0 + 2);
    page(f, GOOGLEBOT, "/top.pdf", plain, NULL, NULL, T0 + 3);
    p = pages_of(f);
    assert_int_equal(p.answers, 3);
    assert_int_equal(p.scanned, 0);
    row = prefix_of(&p, "/open/");
    assert_non_null(row);
    assert_int_equal(row->answers, 2);
    assert_int_equal(row->counts[bit_index(RA_PD_NOINDEX)], 1);
    assert_int_equal(row->counts[bit_index(RA_PD_NOFOLLOW)], 1);
    /* a directive for one named crawler counts too */
    assert_int_equal(row->counts[bit_index(RA_PD_NOARCHIVE)], 1);
    row = prefix_of(&p, "/");
    assert_non_null(row);
    assert_int_equal(row->answers, 1);
    /* nothing conflicts on an allowed path */
    assert_int_equal(p.kind_total[RA_CONFLICT_NOINDEX_DISALLOWED], 0);
    fx_free(f);
}

static void
test_noindex_disallowed(void **state)
{
    fx_t       *f = fx_new();
    ra_pages_t  p;
    static const char *const  noindex[] = { "noindex", NULL };

    (void) state;
    robots(f, disallow_private);
    page(f, GOOGLEBOT, "/private/a.pdf", noindex, NULL, NULL, T0 + 10);
    page(f, GOOGLEBOT, "/private/a.pdf?again", noindex, NULL, NULL,
         T0 + 20);
    page(f, GOOGLEBOT, "/open/a.pdf", noindex, NULL, NULL, T0 + 30);
    p = pages_of(f);
    /* every crawler reading "*" cannot see it; the one that asked is
     * named, other crawlers alike to "*" are not */
    assert_int_equal(conflict(&p, RA_CONFLICT_NOINDEX_DISALLOWED, "*",
                              "/private/a.pdf"), 2);
    assert_int_equal(conflict(&p, RA_CONFLICT_NOINDEX_DISALLOWED,
                              "Googlebot", "/private/a.pdf"), 2);
    assert_int_equal(conflict(&p, RA_CONFLICT_NOINDEX_DISALLOWED, "Bingbot",
                              "/private/a.pdf"), 0);
    assert_int_equal(conflict(&p, RA_CONFLICT_NOINDEX_DISALLOWED, "*",
                              "/open/a.pdf"), 0);
    assert_int_equal(p.kind_total[RA_CONFLICT_NOINDEX_DISALLOWED], 4);
    assert_int_equal(p.conflicts[0].first_seen, T0 + 10);
    assert_int_equal(p.conflicts[0].last_seen, T0 + 20);
    fx_free(f);
}

static void
test_agent_prefix(void **state)
{
    fx_t       *f = fx_new();
    ra_pages_t  p;
    static const char *const  bing[] = { "bingbot: noindex", NULL };

    (void) state;
    robots(f, disallow_private);
    /* noindex for Bingbot only: (a) for Bingbot, not for "*" */
    page(f, GOOGLEBOT, "/private/b.pdf", bing, NULL, NULL, T0 + 10);
    p = pages_of(f);
    assert_int_equal(conflict(&p, RA_CONFLICT_NOINDEX_DISALLOWED, "Bingbot",
                              "/private/b.pdf"), 1);
    assert_int_equal(conflict(&p, RA_CONFLICT_NOINDEX_DISALLOWED, "*",
                              "/private/b.pdf"), 0);
    assert_int_equal(conflict(&p, RA_CONFLICT_NOINDEX_DISALLOWED,
                              "Googlebot", "/private/b.pdf"), 0);
    fx_free(f);
}

static void
test_meta_and_header_meta(void **state)
{
    fx_t                    *f = fx_new();
    ra_pages_t               p;
    const ra_page_prefix_t  *row;
    static const char *const  noindex[] = { "noindex", NULL };
    static const char         meta_nofollow[] =
        "<html><head><title>t</title>"
        "<meta name=\"robots\" content=\"nofollow\"></head><body>x</body>";
    static const char         meta_noindex[] =
        "<html><head><meta name=\"robots\" content=\"noindex\">"
        "</head><body><meta name=\"robots\" content=\"noarchive\"></body>";

    (void) state;
    robots(f, disallow_private);
    page(f, GOOGLEBOT, "/open/both.html", noindex, meta_nofollow, NULL,
         T0 + 1);
    page(f, GOOGLEBOT, "/private/meta.html", NULL, meta_noindex, NULL,
         T0 + 2);
    page(f, GOOGLEBOT, "/private/gz.html", NULL, meta_noindex, "gzip",
         T0 + 3);
    p = pages_of(f);
    assert_int_equal(p.scanned, 3);
    assert_int_equal(p.answers, 3);
    assert_int_equal(conflict(&p, RA_CONFLICT_HEADER_META, "*",
                              "/open/both.html"), 1);
    assert_int_equal(conflict(&p, RA_CONFLICT_NOINDEX_DISALLOWED, "*",
                              "/private/meta.html"), 1);
    /* decoded before the scan */
    assert_int_equal(conflict(&p, RA_CONFLICT_NOINDEX_DISALLOWED, "*",
                              "/private/gz.html"), 1);
    row = prefix_of(&p, "/private/");
    assert_non_null(row);
    assert_int_equal(row->counts[bit_index(RA_PD_NOINDEX)], 2);
    /* the body's tags are not the head's */
    assert_int_equal(row->counts[bit_index(RA_PD_NOARCHIVE)], 0);
    fx_free(f);
}

static void
test_ignored(void **state)
{
    fx_t       *f = fx_new();
    ra_pages_t  p;
    static const char *const  after[] = {
        "unavailable_after: 25 Jun 2030 15:00:00 GMT", NULL
    };

    (void) state;
    robots(f, disallow_private);
    page(f, BINGBOT, "/open/x.pdf", after, NULL, NULL, T0 + 1);
    p = pages_of(f);
    /* Bing documents no unavailable_after; Google does */
    assert_int_equal(conflict(&p, RA_CONFLICT_IGNORED, "Bingbot",
                              "/open/x.pdf"), 1);
    assert_int_equal(conflict(&p, RA_CONFLICT_IGNORED, "Googlebot",
                              "/open/x.pdf"), 0);
    fx_free(f);
}

static void
test_noindex_crawled(void **state)
{
    fx_t       *f = fx_new();
    ra_pages_t  p;
    static const char *const  noindex[] = { "noindex", NULL };

    (void) state;
    robots(f, disallow_private);
    /* an unverified Googlebot: not the search engine's crawl */
    page(f, GOOGLEBOT, "/open/kept-out.pdf", noindex, NULL, NULL, T0 + 1);
    p = pages_of(f);
    assert_int_equal(p.kind_total[RA_CONFLICT_NOINDEX_CRAWLED], 0);
    /* the verified one, fetching it again and again */
    f->addr = "203.0.113.9";
    page(f, GOOGLEBOT, "/open/kept-out.pdf", noindex, NULL, NULL, T0 + 2);
    page(f, GOOGLEBOT, "/open/kept-out.pdf", noindex, NULL, NULL, T0 + 3);
    page(f, GOOGLEBOT, "/open/kept-out.pdf", NULL, NULL, NULL, T0 + 4);
    p = pages_of(f);
    assert_int_equal(conflict(&p, RA_CONFLICT_NOINDEX_CRAWLED, "Googlebot",
                              "/open/kept-out.pdf"), 2);
    fx_free(f);
}

static void
test_browser_not_recorded(void **state)
{
    fx_t       *f = fx_new();
    ra_pages_t  p;
    static const char *const  noindex[] = { "noindex", NULL };

    (void) state;
    robots(f, disallow_private);
    page(f, BROWSER, "/private/a.html", noindex,
         "<head><meta name=robots content=noindex></head>", NULL, T0 + 1);
    page(f, "", "/private/a.pdf", noindex, NULL, NULL, T0 + 2);
    p = pages_of(f);
    assert_int_equal(p.answers, 0);
    assert_int_equal(p.scanned, 0);
    assert_int_equal(p.nconflicts, 0);
    fx_free(f);
}

static void
test_bounds(void **state)
{
    fx_t                    *f = fx_new();
    ra_pages_t               p;
    char                     uri[64];
    unsigned                 i;
    uint64_t                 sum = 0;
    static const char *const  noindex[] = { "noindex", NULL };

    (void) state;
    robots(f, disallow_private);
    /* the first prefixes keep their rows; later ones add to "other" */
    for (i = 0; i < 40; i++) {
        snprintf(uri, sizeof(uri), "/dir%u/page.pdf", i);
        page(f, GOOGLEBOT, uri, noindex, NULL, NULL, T0 + i);
    }
    /* a flood of disallowed paths cannot push the first ones out */
    for (i = 0; i < 100; i++) {
        snprintf(uri, sizeof(uri), "/private/%u.pdf", i);
        page(f, GOOGLEBOT, uri, noindex, NULL, NULL, T0 + 100 + i);
    }
    p = pages_of(f);
    assert_int_equal(p.nprefixes, RA_PAGE_PREFIXES);
    assert_non_null(prefix_of(&p, "/dir0/"));
    assert_null(prefix_of(&p, "/private/"));
    assert_int_equal(p.prefixes[RA_PAGE_PREFIXES].answers,
                     40 - RA_PAGE_PREFIXES + 100);
    for (i = 0; i <= RA_PAGE_PREFIXES; i++) {
        sum += p.prefixes[i].answers;
    }
    assert_int_equal(sum, 140);
    assert_int_equal(p.nconflicts, RA_PAGE_CONFLICTS);
    assert_int_equal(conflict(&p, RA_CONFLICT_NOINDEX_DISALLOWED, "*",
                              "/private/0.pdf"), 1);
    assert_int_equal(p.kind_total[RA_CONFLICT_NOINDEX_DISALLOWED], 200);
    assert_int_equal(p.conflicts_unkept[RA_CONFLICT_NOINDEX_DISALLOWED],
                     200 - RA_PAGE_CONFLICTS);
    /* a kept key still counts */
    page(f, GOOGLEBOT, "/private/0.pdf", noindex, NULL, NULL, T0 + 1000);
    p = pages_of(f);
    assert_int_equal(conflict(&p, RA_CONFLICT_NOINDEX_DISALLOWED, "*",
                              "/private/0.pdf"), 2);
    fx_free(f);
}

static void
test_prefix(void **state)
{
    (void) state;
    assert_true(same(ra_page_prefix(ra_str_z("/a/b/c")),
                          ra_str_z("/a/")));
    assert_true(same(ra_page_prefix(ra_str_z("/a.html")),
                          ra_str_z("/")));
    assert_true(same(ra_page_prefix(ra_str_z("/a?x=/y/")),
                          ra_str_z("/")));
    assert_true(same(ra_page_prefix(ra_str_z("")), ra_str_z("/")));
    assert_int_equal(ra_page_prefix(ra_str_z(
        "/a-very-long-first-segment-beyond-the-bound/x")).len,
        RA_PAGE_PREFIX_MAX);
}

static char *
render(fx_t *f, ra_report_format_e fmt)
{
    ra_snapshot_t  snap;
    ra_buf_t       b;
    char          *s;

    assert_int_equal(ra_ledger_snapshot(&f->ledger, &ra_malloc_allocator, 0,
                                        &snap), RA_OK);
    ra_buf_init(&b, &ra_malloc_allocator, 0, 1u << 22);
    assert_int_equal(ra_report_render(&snap, fmt, NULL, &b), RA_OK);
    s = malloc(b.len + 1);
    memcpy(s, b.data, b.len);
    s[b.len] = '\0';
    ra_buf_release(&b);
    ra_snapshot_free(&snap, &ra_malloc_allocator);
    return s;
}

static void
test_reports(void **state)
{
    fx_t     *f = fx_new();
    char     *s;
    static const char *const  noindex[] = { "noindex", NULL };

    (void) state;
    robots(f, disallow_private);
    page(f, GOOGLEBOT, "/private/<b>\"q\".pdf", noindex, NULL, NULL, T0 + 1);

    s = render(f, RA_REPORT_JSON);
    assert_non_null(strstr(s, "\"page_directives\":{\"answers\":1,"));
    assert_non_null(strstr(s, "{\"prefix\":\"/private/\",\"answers\":1,"
                              "\"directives\":{\"noindex\":1}}"));
    assert_non_null(strstr(s, "\"conflicts\":[{\"kind\":"
                              "\"noindex-disallowed\",\"crawler\":\"*\","
                              "\"path\":\"/private/\\u003cb\\u003e\\\"q\\\".pdf\","
                              "\"directives\":[\"noindex\"],\"count\":1,"));
    free(s);

    s = render(f, RA_REPORT_PROMETHEUS);
    assert_non_null(strstr(s, "robots_audit_conflicts{site=\"" SITE "\","
                              "kind=\"noindex-disallowed\"} 2\n"));
    assert_non_null(strstr(s, "robots_audit_conflicts{site=\"" SITE "\","
                              "kind=\"header-meta\"} 0\n"));
    free(s);

    s = render(f, RA_REPORT_HTML);
    assert_non_null(strstr(s, "<h3>Page directives</h3>"));
    assert_non_null(strstr(s, "/private/&lt;b&gt;"));
    assert_null(strstr(s, "/private/<b>"));
    free(s);

    s = render(f, RA_REPORT_TEXT);
    assert_non_null(strstr(s, "page directives"));
    assert_non_null(strstr(s, "conflict noindex-disallowed: *"));
    free(s);
    fx_free(f);
}

/* A "file" for the body stream's reads: the bytes at off of a piece */
static int
file_read(void *ctx, void *dst, size_t k, size_t off)
{
    memcpy(dst, (const unsigned char *) ctx + off, k);
    return RA_OK;
}

/* One answer as a server streams it to the core (ra_audit_body.h): in
 * pieces of piece bytes (0: one), in memory or from a file, coded with
 * gzip when gz; the page is recorded as soon as the stream says its head
 * is read.  Returns how many bytes the head's copy took. */
static size_t
page_body(fx_t *f, const char *uri, const char *const *tags,
    const char *html, size_t piece, int file, int gz, int64_t t)
{
    ra_str_t       v[RA_PAGE_TAGS];
    size_t         n = 0, len, off, k, kept;
    unsigned       done, pages = 0;
    ra_body_t      b;
    ra_identity_t  id;
    ra_request_t   r = request(f, GOOGLEBOT, uri, t);
    unsigned char  buf[8192];
    const unsigned char  *p = (const unsigned char *) html;

    while (tags != NULL && tags[n] != NULL) {
        v[n] = ra_str_z(tags[n]);
        n++;
    }
    len = strlen(html);
    if (gz) {
        len = ra_test_gzip(html, len, buf, sizeof(buf));
        p = buf;
    }
    assert_int_equal(ra_audit_crawler(f->au, r.user_agent, &id), 1);
    ra_body_init(&b, &id);
    ra_body_page(&b, &ra_malloc_allocator, -1,
                 gz ? ra_str_z("gzip") : ra_str(NULL, 0), v, n);
    for (off = 0; b.want != 0; off += k) {
        k = piece == 0 || len - off < piece ? len - off : piece;
        done = file ? ra_body_read(&b, k, file_read, (void *) (p + off),
                                   off + k == len)
                    : ra_body_feed(&b, p + off, k, off + k == len);
        if (done & RA_BODY_PAGE) {
            assert_int_equal(ra_audit_page_body(f->au, &r, &b), RA_OK);
            pages++;
        }
    }
    assert_int_equal(pages, 1);
    kept = b.cap.body.cap;
    ra_buf_release(&b.cap.body);
    ra_buf_release(&b.cap.decoded);
    return kept;
}

/* The body stream records what ra_audit_page() records, however the
 * answer comes: a head in one buffer is read in place (no copy), one
 * spread over buffers, from a file or coded is copied. */
static void
test_body_stream(void **state)
{
    static const char *const  nofollow[] = { "googlebot: nofollow", NULL };
    static const char  short_head[] =
        "<html><head><meta name=robots content=noindex></head>"
        "<body><meta name=robots content=noarchive></body></html>";
    static const char  no_end[] =
        "<html><head><!-- <body> --><meta name=\"googlebot\" "
        "content=\"nosnippet\"><meta name=robots content='noindex'>";
    char       *long_head = malloc(RA_PAGE_SCAN + 200);
    ra_pages_t  want, got;
    size_t      i, k;
    fx_t       *f;
    struct {
        const char  *html;
        size_t       piece;
        int          file, gz, copied;
    } const  c[] = {
        { short_head, 0, 0, 0, 0 },     /* in place */
        { short_head, 7, 0, 0, 1 },     /* the head over buffers */
        { short_head, 0, 1, 0, 1 },     /* from a file */
        { short_head, 0, 0, 1, 1 },     /* coded */
        { no_end, 0, 0, 0, 0 },         /* the whole body, in place */
        { no_end, 20, 0, 0, 1 },
        { no_end, 13, 1, 0, 1 },
        { NULL, 0, 0, 0, 0 },           /* past the window, in place */
        { NULL, 1000, 0, 0, 1 },
    };

    (void) state;
    memset(long_head, ' ', RA_PAGE_SCAN + 199);
    memcpy(long_head, "<head><meta name=robots content=noindex>", 40);
    memcpy(long_head + RA_PAGE_SCAN - 20, "<meta name=x content=noai>", 26);
    long_head[RA_PAGE_SCAN + 199] = '\0';
    for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
        const char  *html = c[i].html != NULL ? c[i].html : long_head;

        /* the reference: the page as ra_audit_page() reads it */
        f = fx_new();
        robots(f, disallow_private);
        page(f, GOOGLEBOT, "/private/p.html", nofollow, html, NULL, T0 + 1);
        want = pages_of(f);
        fx_free(f);

        f = fx_new();
        robots(f, disallow_private);
        k = page_body(f, "/private/p.html", nofollow, html, c[i].piece,
                      c[i].file, c[i].gz, T0 + 1);
        got = pages_of(f);
        fx_free(f);
        if (c[i].copied) {
            assert_true(k > 0);
        } else {
            assert_int_equal(k, 0);     /* no memory taken */
        }
        assert_int_equal(got.scanned, 1);
        assert_int_equal(got.answers, want.answers);
        assert_int_equal(got.nconflicts, want.nconflicts);
        assert_memory_equal(got.kind_total, want.kind_total,
                            sizeof(want.kind_total));
        assert_memory_equal(got.prefixes, want.prefixes,
                            sizeof(want.prefixes));
        assert_memory_equal(got.conflicts, want.conflicts,
                            sizeof(want.conflicts));
    }
    free(long_head);
}

/* A browser's answer: one identification says so, and nothing is read
 * (ra_audit_page_wanted_by() agrees with ra_audit_page_wanted()). */
static void
test_body_browser(void **state)
{
    fx_t           *f = fx_new();
    ra_identity_t   id;
    ra_str_t        get = ra_str_z("GET"), html = ra_str_z("text/html");

    (void) state;
    assert_int_equal(ra_audit_crawler(f->au, ra_str_z(BROWSER), &id), 0);
    assert_int_equal(ra_audit_page_wanted_by(&id, get, 0, 200,
                                             ra_str_z(BROWSER), html),
                     RA_PAGE_NONE);
    assert_int_equal(ra_audit_crawler(f->au, ra_str_z(GOOGLEBOT), &id), 1);
    assert_int_equal(ra_audit_page_wanted_by(&id, get, 0, 200,
                                             ra_str_z(GOOGLEBOT), html),
                     RA_PAGE_HTML);
    assert_int_equal(ra_audit_page_wanted_by(&id, get, 0, 200,
                                             ra_str_z("-"), html),
                     RA_PAGE_NONE);
    assert_int_equal(ra_audit_page_wanted_by(&id, get, 0, 200,
                                             ra_str_z(GOOGLEBOT),
                                             ra_str_z("text/htmlx")),
                     RA_PAGE_HEADERS);
    fx_free(f);
}

/* The readings of an answer as a server's filter records them once
 * complete (ra_outcome_body()): a page's head as ra_audit_page() reads
 * it, a robots.txt answer handed to the engine (the request then marked
 * recorded), and a robots.txt answer whose capture failed, said and not
 * handed over. */
static void
test_body_done(void **state)
{
    static const char  html[] =
        "<html><head><meta name=robots content=noindex></head></html>";
    static const char  txt[] = "User-agent: *\nDisallow: /x\n";
    unsigned           done;
    ra_host_t          host;
    ra_body_t          b;
    ra_pages_t         want, got;
    ra_identity_t      id;
    ra_test_log_t      log;
    ra_request_t       r;
    ra_body_fields_t   fields;
    fx_t              *f;

    (void) state;
    fields.content_type = ra_str_z("text/plain");
    fields.charset = ra_str(NULL, 0);
    fields.location = ra_str(NULL, 0);
    f = fx_new();
    robots(f, disallow_private);
    page(f, GOOGLEBOT, "/private/p.html", NULL, html, NULL, T0 + 1);
    want = pages_of(f);
    fx_free(f);

    ra_test_host(&host, &log, NULL);
    f = fx_new();
    robots(f, disallow_private);
    r = request(f, GOOGLEBOT, "/private/p.html", T0 + 1);
    assert_int_equal(ra_audit_crawler(f->au, r.user_agent, &id), 1);
    ra_body_init(&b, &id);
    ra_body_page(&b, &ra_malloc_allocator, -1, ra_str(NULL, 0), NULL, 0);
    done = ra_body_feed(&b, html, strlen(html), 1);
    assert_int_equal(done, RA_BODY_PAGE);
    assert_int_equal(ra_outcome_body(f->au, &host, &b, done, &r, &fields, 0,
                                     T0 + 1), 0);
    got = pages_of(f);
    assert_int_equal(got.answers, want.answers);
    assert_int_equal(got.nconflicts, want.nconflicts);
    assert_memory_equal(got.kind_total, want.kind_total,
                        sizeof(want.kind_total));

    /* a robots.txt answer, captured whole */
    r = request(f, GOOGLEBOT, "/robots.txt", T0 + 2);
    ra_body_init(&b, NULL);
    b.want = RA_BODY_ROBOTS;
    ra_capture_start(&b.cap, &ra_malloc_allocator, &ra_malloc_allocator, 200,
                     -1, ra_str(NULL, 0));
    done = ra_body_feed(&b, txt, strlen(txt), 1);
    assert_int_equal(done, RA_BODY_ROBOTS);
    assert_int_equal(ra_outcome_body(f->au, &host, &b, done, &r, &fields, 0,
                                     T0 + 2), 1);
    assert_int_equal(log.n, 0);
    ra_buf_release(&b.cap.body);

    /* one whose capture failed: said, not recorded */
    ra_body_init(&b, NULL);
    b.want = RA_BODY_ROBOTS;
    ra_capture_start(&b.cap, &ra_malloc_allocator, &ra_malloc_allocator, 200,
                     -1, ra_str(NULL, 0));
    ra_capture_fail(&b.cap);
    done = ra_body_feed(&b, txt, strlen(txt), 1);
    assert_int_equal(done, RA_BODY_ROBOTS);
    assert_int_equal(ra_outcome_body(f->au, &host, &b, done, &r, &fields, 0,
                                     T0 + 3), 0);
    assert_int_equal(log.n, 1);
    assert_non_null(strstr(log.lines[0], "out of memory capturing"));
    fx_free(f);
}

/* a server's ways for ra_audit_answer(): a body it keeps, and its
 * answer's X-Robots-Tag values; counted */
typedef struct {
    ra_body_t   kept;
    int         keeps, tags;
    const char *tag;
} answer_srv_t;

static ra_body_t *
answer_keep(void *where, const ra_body_t *from, const ra_alloc_t **a)
{
    answer_srv_t  *s = where;

    s->keeps++;
    ra_body_init(&s->kept, &from->id);
    *a = &ra_malloc_allocator;
    return &s->kept;
}

static void
answer_tags(void *where, ra_body_t *b)
{
    answer_srv_t  *s = where;

    s->tags++;
    b->ntags = 1;
    b->tags[0] = ra_str_z(s->tag);
}

/* A crawler's answer once its head is known (ra_audit_answer()): an
 * HTML page's body kept by the server and read, another page recorded
 * by its headers at once (a HEAD's too, and no body kept), and nothing
 * for an answer that may not be a page. */
static void
test_answer(void **state)
{
    static const char  html[] =
        "<html><head><meta name=robots content=noindex></head></html>";
    fx_t              *f = fx_new();
    ra_body_t          b, *kept;
    ra_pages_t         p;
    ra_identity_t      id;
    ra_request_t       r;
    ra_answer_head_t   h;
    answer_srv_t       srv;

    (void) state;
    robots(f, disallow_private);
    memset(&srv, 0, sizeof(srv));
    srv.tag = "noindex";
    memset(&h, 0, sizeof(h));
    h.kind = 0;
    h.pages = 1;
    h.has_body = 1;
    h.content_length = (int64_t) strlen(html);
    h.content_type = ra_str_z("text/html");
    h.a = &ra_malloc_allocator;
    h.keep = answer_keep;
    h.tags = answer_tags;
    h.where = &srv;
    r = request(f, GOOGLEBOT, "/private/a.html", T0 + 1);
    assert_int_equal(ra_audit_crawler(f->au, r.user_agent, &id), 1);

    /* HTML: the body is the server's, read for its head */
    ra_body_init(&b, &id);
    kept = ra_audit_answer(f->au, &r, &b, &h);
    assert_ptr_equal(kept, &srv.kept);
    assert_int_equal(srv.keeps, 1);
    assert_int_equal(srv.tags, 0);
    assert_int_equal(kept->want, RA_BODY_PAGE);
    assert_int_equal(ra_body_feed(kept, html, strlen(html), 1),
                     RA_BODY_PAGE);
    assert_int_equal(ra_audit_page_body(f->au, &r, kept), RA_OK);
    assert_int_equal(pages_of(f).answers, 1);

    /* not HTML, and a HEAD of HTML: the headers, at once */
    h.content_type = ra_str_z("application/pdf");
    ra_body_init(&b, &id);
    assert_null(ra_audit_answer(f->au, &r, &b, &h));
    h.content_type = ra_str_z("text/html");
    h.header_only = 1;
    ra_body_init(&b, &id);
    assert_null(ra_audit_answer(f->au, &r, &b, &h));
    assert_int_equal(srv.keeps, 1);
    assert_int_equal(srv.tags, 2);
    p = pages_of(f);
    assert_int_equal(p.answers, 3);

    /* not a page to read */
    h.pages = 0;
    ra_body_init(&b, &id);
    assert_null(ra_audit_answer(f->au, &r, &b, &h));
    assert_int_equal(srv.tags, 2);
    assert_int_equal(pages_of(f).answers, 3);

    /* the body where the caller has it, without keep */
    h.pages = 1;
    h.header_only = 0;
    h.keep = NULL;
    ra_body_init(&b, &id);
    assert_ptr_equal(ra_audit_answer(f->au, &r, &b, &h), &b);
    assert_int_equal(b.want, RA_BODY_PAGE);
    assert_int_equal(srv.keeps, 1);
    fx_free(f);
}

int
main(void)
{
    const struct CMUnitTest  tests[] = {
        cmocka_unit_test(test_wanted),
        cmocka_unit_test(test_header_counts),
        cmocka_unit_test(test_noindex_disallowed),
        cmocka_unit_test(test_agent_prefix),
        cmocka_unit_test(test_meta_and_header_meta),
        cmocka_unit_test(test_ignored),
        cmocka_unit_test(test_noindex_crawled),
        cmocka_unit_test(test_browser_not_recorded),
        cmocka_unit_test(test_bounds),
        cmocka_unit_test(test_prefix),
        cmocka_unit_test(test_reports),
        cmocka_unit_test(test_body_stream),
        cmocka_unit_test(test_body_browser),
        cmocka_unit_test(test_body_done),
        cmocka_unit_test(test_answer),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
