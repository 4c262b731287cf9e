/* SPDX-License-Identifier: BSD-2-Clause */
/* The undeclared-crawler detector (ra_undeclared.h): path kinds,
 * impossible User-Agents, each signal and the score, IPv6 by /64, the
 * window, and eviction order under a flood of addresses. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ra_test.h"
#include "ra_undeclared.h"
#include "ra_verify.h"

#define CHROME  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 " \
                "(KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"

typedef struct {
    ra_test_arena_t  *ar;
    ra_undecl_t      *t;
} fix_t;

static ra_undecl_t *
table(fix_t *f, uint32_t n, uint32_t nrec)
{
    f->ar = ra_test_arena_new();
    f->t = ra_undecl_create(ra_test_arena_alloc(f->ar), n, nrec);
    assert_non_null(f->t);
    return f->t;
}

/* One request of addr at t seconds; returns what the table says */
static ra_undecl_hit_t
see(ra_undecl_t *t, const char *addr, double sec, const char *path,
    const char *referer, const char *ua)
{
    ra_undecl_req_t  r;
    ra_undecl_hit_t  hit;
    ra_addr_t        a;

    memset(&r, 0, sizeof(r));
    assert_int_equal(ra_addr_parse(ra_str_z(addr), &a), RA_OK);
    memcpy(r.addr, a.b, 16);
    r.time_ms = (int64_t) (sec * 1000);
    r.path = ra_str_z(path);
    r.referer = ra_str_z(referer);
    r.user_agent = ra_str_z(ua != NULL ? ua : CHROME);
    ra_undecl_see(t, &r, &hit);
    return hit;
}

static void
path_kinds(void **state)
{
    (void) state;
    assert_int_equal(ra_undecl_path_kind(ra_str_z("/robots.txt")),
                     RA_UNDECL_ROBOTS);
    assert_int_equal(ra_undecl_path_kind(ra_str_z("/robots.txt?x=1")),
                     RA_UNDECL_ROBOTS);
    assert_int_equal(ra_undecl_path_kind(ra_str_z("/a/robots.txt")),
                     RA_UNDECL_OTHER);
    assert_int_equal(ra_undecl_path_kind(ra_str_z("/")), RA_UNDECL_PAGE);
    assert_int_equal(ra_undecl_path_kind(ra_str_z("/blog/post-1")),
                     RA_UNDECL_PAGE);
    assert_int_equal(ra_undecl_path_kind(ra_str_z("/index.html?q=a.css")),
                     RA_UNDECL_PAGE);
    assert_int_equal(ra_undecl_path_kind(ra_str_z("/v1.2-release-notes")),
                     RA_UNDECL_PAGE);
    assert_int_equal(ra_undecl_path_kind(ra_str_z("/s/site.CSS")),
                     RA_UNDECL_SUBRES);
    assert_int_equal(ra_undecl_path_kind(ra_str_z("/i/a.b.png?v=3")),
                     RA_UNDECL_SUBRES);
    assert_int_equal(ra_undecl_path_kind(ra_str_z("/f/x.woff2")),
                     RA_UNDECL_SUBRES);
    assert_int_equal(ra_undecl_path_kind(ra_str_z("/feed.xml")),
                     RA_UNDECL_OTHER);
    assert_int_equal(ra_undecl_path_kind(ra_str_z("")), RA_UNDECL_PAGE);
    /* the last segment's last dot decides, five bytes after it at most */
    assert_int_equal(ra_undecl_path_kind(ra_str_z("/a.css/page")),
                     RA_UNDECL_PAGE);
    assert_int_equal(ra_undecl_path_kind(ra_str_z("/a.b.c.woff2")),
                     RA_UNDECL_SUBRES);
    assert_int_equal(ra_undecl_path_kind(ra_str_z("/x.abcde")),
                     RA_UNDECL_OTHER);
    assert_int_equal(ra_undecl_path_kind(ra_str_z("/x.abcdef")),
                     RA_UNDECL_PAGE);
    assert_int_equal(ra_undecl_path_kind(ra_str_z(".css")),
                     RA_UNDECL_SUBRES);
    assert_int_equal(ra_undecl_path_kind(ra_str_z("/a.")), RA_UNDECL_OTHER);
    assert_int_equal(ra_undecl_path_kind(ra_str_z("/a./b")),
                     RA_UNDECL_PAGE);
    assert_int_equal(ra_undecl_path_kind(ra_str_z("/.htaccess")),
                     RA_UNDECL_PAGE);
    assert_int_equal(ra_undecl_path_kind(ra_str_z("/x.js#top")),
                     RA_UNDECL_SUBRES);
}

/* The lists as the detector once searched them, bar-separated: the
 * kinds of every extension of up to three bytes over the bytes that
 * spell them (and a bar, a dot, a digit, a capital, a byte over 0x7f),
 * and of each listed one in either case, are what a search of them says */
static unsigned
ext_kind_by_list(const char *ext)
{
    static const char  subres[] =
        "|css|js|mjs|png|jpg|jpeg|gif|svg|webp|avif|ico|bmp|woff|woff2|ttf"
        "|otf|eot|map|json|mp4|webm|mp3|ogg|wasm|";
    static const char  page[] =
        "|html|htm|xhtml|shtml|php|asp|aspx|jsp|cgi|pl|";
    char               want[16];
    size_t             i, n = strlen(ext);

    want[0] = '|';
    for (i = 0; i < n; i++) {
        want[i + 1] = (char) ra_lower((unsigned char) ext[i]);
    }
    want[n + 1] = '|';
    want[n + 2] = '\0';
    if (strstr(subres, want) != NULL) {
        return RA_UNDECL_SUBRES;
    }
    return strstr(page, want) != NULL ? RA_UNDECL_PAGE : RA_UNDECL_OTHER;
}

static void
path_kinds_of_extensions(void **state)
{
    static const char  bytes[] = "acdefghijlmnopstvwxy0234|.A\xc3";
    static const char *listed[] = {
        "css", "js", "mjs", "png", "jpg", "jpeg", "gif", "svg", "webp",
        "avif", "ico", "bmp", "woff", "woff2", "ttf", "otf", "eot", "map",
        "json", "mp4", "webm", "mp3", "ogg", "wasm", "html", "htm", "xhtml",
        "shtml", "php", "asp", "aspx", "jsp", "cgi", "pl", "CSS", "Woff2",
        "XHTML", "PL", "js|m", "s|js", "cgi|p", "jpe", "webpp", "htmll"
    };
    char               path[16], ext[8];
    size_t             i, j, k, n = sizeof(bytes) - 1;

    (void) state;
    for (i = 0; i < n; i++) {
        for (j = 0; j <= n; j++) {
            for (k = 0; k <= n; k++) {
                if ((j == n && k != n) || bytes[i] == '.' || bytes[j] == '.'
                    || bytes[k] == '.')
                {
                    continue;
                }
                snprintf(ext, sizeof(ext), "%c%c%c", bytes[i],
                         j < n ? bytes[j] : '\0', k < n ? bytes[k] : '\0');
                snprintf(path, sizeof(path), "/x.%s", ext);
                assert_int_equal(ra_undecl_path_kind(ra_str_z(path)),
                                 ext_kind_by_list(ext));
            }
        }
    }
    for (i = 0; i < sizeof(listed) / sizeof(listed[0]); i++) {
        snprintf(path, sizeof(path), "/d/a.%s?q", listed[i]);
        assert_int_equal(ra_undecl_path_kind(ra_str_z(path)),
                         strlen(listed[i]) > 5
                         ? RA_UNDECL_PAGE : ext_kind_by_list(listed[i]));
    }
}

static void
impossible_user_agents(void **state)
{
    (void) state;
    assert_false(ra_undecl_ua_impossible(ra_str_z(CHROME)));
    assert_false(ra_undecl_ua_impossible(ra_str_z(
        "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 "
        "Firefox/133.0")));
    /* the rv: freeze at 109 */
    assert_false(ra_undecl_ua_impossible(ra_str_z(
        "Mozilla/5.0 (Windows NT 10.0; rv:109.0) Gecko/20100101 "
        "Firefox/115.0")));
    assert_true(ra_undecl_ua_impossible(ra_str_z(
        "Mozilla/5.0 (Windows NT 10.0; rv:91.0) Gecko/20100101 "
        "Firefox/133.0")));
    /* a fork's own token: not judged */
    assert_false(ra_undecl_ua_impossible(ra_str_z(
        "Mozilla/5.0 (Windows NT 6.1; rv:2.53) Gecko/20100101 "
        "Firefox/60.0 SeaMonkey/2.53.1")));
    assert_false(ra_undecl_ua_impossible(ra_str_z(
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 "
        "(KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 "
        "Edg/131.0.0.0")));
    assert_true(ra_undecl_ua_impossible(ra_str_z(
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 "
        "(KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 "
        "Edg/131.0.0.0")));
    assert_true(ra_undecl_ua_impossible(ra_str_z(
        "Mozilla/5.0 (Windows NT 10.0) AppleWebKit/605.1.15 "
        "(KHTML, like Gecko) Chrome/131.0.0.0 Safari/605.1.15")));
    assert_false(ra_undecl_ua_impossible(ra_str_z(
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) "
        "AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 "
        "Safari/605.1.15")));
    assert_true(ra_undecl_ua_impossible(ra_str_z(
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/605.1.15 "
        "(KHTML, like Gecko) Version/17.0 Safari/605.1.15")));
    assert_false(ra_undecl_ua_impossible(ra_str_z("")));
}

static void
robots_txt_is_decisive(void **state)
{
    fix_t             f;
    ra_undecl_hit_t   h;
    ra_undecl_rec_t  *rec;
    char              client[48];

    (void) state;
    table(&f, 64, 8);
    h = see(f.t, "192.0.2.7", 1, "/", "", NULL);
    assert_int_equal(h.rec, 0);
    h = see(f.t, "192.0.2.7", 2, "/robots.txt", "", NULL);
    assert_int_not_equal(h.rec, 0);
    assert_true(h.flagged_now);
    rec = ra_undecl_record(f.t, h.rec - 1);
    assert_int_equal(rec->signals, RA_UNDECL_SIG_ROBOTS);
    assert_int_equal(rec->flagged_at, 2);
    assert_int_equal(rec->requests, 2);
    assert_int_equal(rec->first_ms, 1000);
    assert_int_equal(rec->nuas, 1);
    assert_memory_equal(rec->ua[0], CHROME, rec->ua_len[0]);
    ra_undecl_client(rec->addr, client);
    assert_string_equal(client, "192.0.2.7");
    /* later requests stay flagged, with each new User-Agent kept */
    h = see(f.t, "192.0.2.7", 3, "/x", "", "Other/1.0");
    assert_int_not_equal(h.rec, 0);
    assert_false(h.flagged_now);
    assert_int_equal(rec->requests, 3);
    assert_int_equal(rec->nuas, 2);
    assert_int_equal(rec->last_ms, 3000);
    /* another client is untouched */
    h = see(f.t, "192.0.2.8", 3, "/", "", NULL);
    assert_int_equal(h.rec, 0);
    assert_int_equal(ra_undecl_clients(f.t), 2);
    ra_test_arena_free(f.ar);
}

/* People behind one address (a balancer that does not pass on the
 * client's, a NAT): each its own browser, loading subresources */
static const char *const  people_uas[] = {
    CHROME,
    "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) Version/18.1 Safari/605.1.15",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) "
    "AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 "
    "Safari/604.1",
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, "
    "like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 "
    "Firefox/133.0",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, "
    "like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
    "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, "
    "like Gecko) Chrome/131.0.0.0 Safari/537.36",
};

#define PEOPLE  (sizeof(people_uas) / sizeof(people_uas[0]))

static void
people_at(ra_undecl_t *t, const char *addr, double start)
{
    size_t  i;
    char    path[32];

    for (i = 0; i < PEOPLE; i++) {
        snprintf(path, sizeof(path), "/post-%zu", i);
        see(t, addr, start + i, path, "", people_uas[i]);
        see(t, addr, start + i + 0.2, "/s/site.css", "", people_uas[i]);
        see(t, addr, start + i + 0.3, "/s/app.js", "", people_uas[i]);
    }
}

/* One person's robots.txt fetch (an extension, a curious reader) does
 * not make a crawler of everyone behind the address */
static void
shared_address_is_not_one_crawler(void **state)
{
    fix_t            f;
    ra_undecl_hit_t  h;

    (void) state;
    table(&f, 64, 8);
    people_at(f.t, "198.51.100.1", 1);
    h = see(f.t, "198.51.100.1", 20, "/robots.txt", "", people_uas[3]);
    assert_int_equal(h.rec, 0);
    assert_false(h.flagged_now);
    h = see(f.t, "198.51.100.1", 21, "/robots.txt", "", people_uas[5]);
    assert_int_equal(h.rec, 0);
    assert_int_equal(ra_undecl_records(f.t), 0);

    /* a bot that rotates User-Agents but loads nothing a page needs is
     * still one client */
    for (size_t i = 0; i < PEOPLE; i++) {
        char  path[32];

        snprintf(path, sizeof(path), "/p-%zu", i);
        h = see(f.t, "203.0.113.4", 1 + i, path, "", people_uas[i]);
        assert_int_equal(h.rec, 0);
    }
    h = see(f.t, "203.0.113.4", 20, "/robots.txt", "", people_uas[0]);
    assert_int_not_equal(h.rec, 0);
    assert_true(h.flagged_now);
    ra_test_arena_free(f.ar);
}

/* A client flagged before its address showed people behind it lets go
 * of its record, which stays as the evidence of what it did, marked
 * shared; the address is not flagged again while the table holds it */
static void
flagged_client_found_shared_keeps_its_record(void **state)
{
    fix_t             f;
    ra_undecl_hit_t   h;
    ra_undecl_rec_t  *rec;

    (void) state;
    table(&f, 64, 8);
    h = see(f.t, "198.51.100.2", 1, "/robots.txt", "", NULL);
    assert_true(h.flagged_now);
    rec = ra_undecl_record(f.t, h.rec - 1);
    people_at(f.t, "198.51.100.2", 2);
    h = see(f.t, "198.51.100.2", 30, "/post-1", "", NULL);
    assert_int_equal(h.rec, 0);
    assert_int_equal(ra_undecl_records(f.t), 1);
    assert_int_equal(rec->signals,
                     RA_UNDECL_SIG_ROBOTS | RA_UNDECL_SIG_SHARED);
    assert_true(rec->requests >= 2);
    assert_true(rec->requests < 1 + 3 * PEOPLE);
    assert_int_equal(rec->entry, 0);
    assert_string_equal(ra_undecl_signal_name(RA_UNDECL_SIG_SHARED),
                        "shared");
    h = see(f.t, "198.51.100.2", 31, "/robots.txt", "", NULL);
    assert_int_equal(h.rec, 0);
    assert_int_equal(ra_undecl_records(f.t), 1);
    /* idle for a whole window, the address is still people's: a
     * balancer's quiet night does not let its first request flag it */
    h = see(f.t, "198.51.100.2", 32 + RA_UNDECL_WINDOW_MS / 1000,
            "/robots.txt", "", NULL);
    assert_int_equal(h.rec, 0);
    assert_int_equal(ra_undecl_records(f.t), 1);
    ra_test_arena_free(f.ar);
}

/* A person: a page, its subresources, then pages reached by links */
static void
person(ra_undecl_t *t, const char *addr, int pages, double start)
{
    int   i;
    char  path[64], ref[96];

    for (i = 0; i < pages; i++) {
        snprintf(path, sizeof(path), "/article-%d", i);
        snprintf(ref, sizeof(ref), "https://example.org/article-%d", i - 1);
        assert_int_equal(see(t, addr, start + i * 40.0, path,
                             i ? ref : "https://www.google.com/", NULL).rec,
                         0);
        assert_int_equal(see(t, addr, start + i * 40.0 + 0.3,
                             "/static/site.css", ref, NULL).rec, 0);
        assert_int_equal(see(t, addr, start + i * 40.0 + 0.4,
                             "/static/hero.jpg", ref, NULL).rec, 0);
    }
}

static void
behaviour_flags_a_disguised_crawler(void **state)
{
    fix_t             f;
    ra_undecl_hit_t   h;
    ra_undecl_rec_t  *rec;
    int               i, at = 0;
    char              path[64];

    (void) state;
    table(&f, 64, 8);
    person(f.t, "198.51.100.1", 30, 0);
    /* a person with a warm cache: links, no subresources */
    for (i = 0; i < 30; i++) {
        snprintf(path, sizeof(path), "/post/%d", i);
        h = see(f.t, "198.51.100.2", i * 25.0, path,
                i ? "https://example.org/post/0" : "", NULL);
        assert_int_equal(h.rec, 0);
    }
    /* a crawler: distinct pages, no Referer, every 3 s */
    for (i = 0; i < 50 && at == 0; i++) {
        snprintf(path, sizeof(path), "/doc/%d", i);
        h = see(f.t, "203.0.113.9", i * 3.0, path, "", NULL);
        if (h.rec) {
            at = i + 1;
        }
    }
    assert_int_equal(at, 12);
    rec = ra_undecl_record(f.t, h.rec - 1);
    assert_int_equal(rec->signals, RA_UNDECL_SIG_NO_SUBRES
                                   | RA_UNDECL_SIG_NO_REFERER
                                   | RA_UNDECL_SIG_REGULAR);
    assert_true(rec->score >= RA_UNDECL_THRESHOLD);
    assert_int_equal(ra_undecl_records(f.t), 1);
    ra_test_arena_free(f.ar);
}

static void
other_signals_add_up(void **state)
{
    fix_t             f;
    ra_undecl_req_t   r;
    ra_undecl_hit_t   h;
    ra_addr_t         a;

    (void) state;
    table(&f, 64, 8);
    /* one disallowed path alone: a person may follow a link there */
    memset(&r, 0, sizeof(r));
    assert_int_equal(ra_addr_parse(ra_str_z("192.0.2.50"), &a), RA_OK);
    memcpy(r.addr, a.b, 16);
    r.path = ra_str_z("/private/");
    r.user_agent = ra_str_z(CHROME);
    r.disallowed = 1;
    ra_undecl_see(f.t, &r, &h);
    assert_int_equal(h.rec, 0);
    assert_int_equal(h.score, 50);
    /* from a cloud address, with an impossible User-Agent */
    r.disallowed = 0;
    r.cloud = 1;
    r.time_ms = 1000;
    r.user_agent = ra_str_z("Mozilla/5.0 (X11; rv:91.0) Gecko/20100101 "
                            "Firefox/133.0");
    ra_undecl_see(f.t, &r, &h);
    assert_int_not_equal(h.rec, 0);
    assert_int_equal(h.score, 130);
    assert_int_equal(ra_undecl_record(f.t, h.rec - 1)->signals,
                     RA_UNDECL_SIG_DISALLOWED | RA_UNDECL_SIG_CLOUD
                     | RA_UNDECL_SIG_IMPOSSIBLE_UA);
    ra_test_arena_free(f.ar);
}

static void
ipv6_by_64(void **state)
{
    fix_t             f;
    ra_undecl_hit_t   h;
    char              client[48];

    (void) state;
    table(&f, 64, 8);
    see(f.t, "2001:db8:1:2::10", 1, "/", "", NULL);
    h = see(f.t, "2001:db8:1:2:ffff::1", 2, "/robots.txt", "", NULL);
    assert_int_not_equal(h.rec, 0);
    assert_int_equal(ra_undecl_record(f.t, h.rec - 1)->requests, 2);
    assert_int_equal(ra_undecl_clients(f.t), 1);
    ra_undecl_client(ra_undecl_record(f.t, h.rec - 1)->addr, client);
    assert_string_equal(client, "2001:db8:1:2::/64");
    h = see(f.t, "2001:db8:1:3::10", 3, "/", "", NULL);
    assert_int_equal(h.rec, 0);
    ra_test_arena_free(f.ar);
}

static void
window_forgets_idle_clients(void **state)
{
    fix_t             f;
    ra_undecl_hit_t   h;
    int               i;
    char              path[64];

    (void) state;
    table(&f, 64, 8);
    /* 11 crawler-like pages, then 11 minutes of silence: starts over */
    for (i = 0; i < 11; i++) {
        snprintf(path, sizeof(path), "/a/%d", i);
        h = see(f.t, "192.0.2.9", i * 3.0, path, "", NULL);
        assert_int_equal(h.rec, 0);
    }
    h = see(f.t, "192.0.2.9", 33 + 660, "/a/11", "", NULL);
    assert_int_equal(h.rec, 0);
    assert_int_equal(h.score, 0);
    ra_test_arena_free(f.ar);
}

static void
flood_evicts_unflagged_first(void **state)
{
    fix_t             f;
    ra_undecl_hit_t   h;
    uint64_t          flagged;
    int               i;
    char              addr[32];

    (void) state;
    table(&f, 16, 8);
    h = see(f.t, "192.0.2.1", 0, "/robots.txt", "", NULL);
    assert_int_not_equal(h.rec, 0);
    for (i = 0; i < 1000; i++) {
        snprintf(addr, sizeof(addr), "10.0.%d.%d", i / 256, i % 256);
        see(f.t, addr, 1 + i, "/", "", NULL);
    }
    assert_int_equal(ra_undecl_clients(f.t), 16);
    assert_int_equal(ra_undecl_evictions(f.t, &flagged), 1000 - 15);
    assert_int_equal(flagged, 0);
    /* the flagged client is still there: its next request counts */
    h = see(f.t, "192.0.2.1", 2000, "/x", "", NULL);
    assert_int_not_equal(h.rec, 0);
    assert_false(h.flagged_now);
    assert_int_equal(ra_undecl_record(f.t, h.rec - 1)->requests, 2);
    ra_test_arena_free(f.ar);
}

static void
all_flagged_evicts_oldest_flagged(void **state)
{
    fix_t             f;
    ra_undecl_hit_t   h;
    uint64_t          flagged;
    int               i;
    char              addr[32];

    (void) state;
    table(&f, 4, 4);
    for (i = 0; i < 6; i++) {
        snprintf(addr, sizeof(addr), "192.0.2.%d", i + 1);
        h = see(f.t, addr, i, "/robots.txt", "", NULL);
        assert_int_not_equal(h.rec, 0);
    }
    assert_int_equal(ra_undecl_clients(f.t), 4);
    assert_int_equal(ra_undecl_evictions(f.t, &flagged), 2);
    assert_int_equal(flagged, 2);
    assert_int_equal(ra_undecl_records(f.t), 4);
    /* the first client's record went to a later one: the oldest */
    for (i = 0; i < 4; i++) {
        assert_int_not_equal(ra_undecl_record(f.t, (uint32_t) i)->addr[15], 1);
    }
    ra_test_arena_free(f.ar);
}

static void
table_is_position_independent(void **state)
{
    size_t            size = ra_undecl_size(32, 4);
    unsigned char    *a = malloc(size), *b = malloc(size);
    ra_undecl_t      *t;
    ra_undecl_hit_t   h;

    (void) state;
    assert_true(size > 0);
    assert_int_equal(ra_undecl_size(0, 4), 0);
    assert_null(ra_undecl_init(a, size - 1, 32, 4));
    t = ra_undecl_init(a, size, 32, 4);
    assert_non_null(t);
    see(t, "192.0.2.1", 0, "/", "", NULL);
    /* the block moved, as shared memory mapped elsewhere would be */
    memcpy(b, a, size);
    memset(a, 0xa5, size);
    t = (ra_undecl_t *) (void *) b;
    h = see(t, "192.0.2.1", 1, "/robots.txt", "", NULL);
    assert_int_not_equal(h.rec, 0);
    assert_int_equal(ra_undecl_record(t, h.rec - 1)->requests, 2);
    assert_int_equal(ra_undecl_clients(t), 1);
    free(a);
    free(b);
}

static void
judged_against_the_star_group(void **state)
{
    fix_t                 f;
    ra_rules_t           *rules;
    ra_undecl_req_t       r;
    ra_undecl_verdict_t   v;
    ra_undecl_rec_t      *rec;
    ra_addr_t             a;
    ra_buf_t              b;
    const ra_undecl_viol_t *viol;
    static const char     robots[] =
        "User-agent: Googlebot\nDisallow: /\n\n"
        "User-agent: *\nDisallow: /private/\n";

    (void) state;
    table(&f, 64, 8);
    assert_int_equal(ra_rules_compile(ra_str(robots, sizeof(robots) - 1),
                                      ra_test_arena_alloc(f.ar), &rules,
                                      NULL), RA_OK);
    memset(&r, 0, sizeof(r));
    assert_int_equal(ra_addr_parse(ra_str_z("192.0.2.77"), &a), RA_OK);
    memcpy(r.addr, a.b, 16);
    r.user_agent = ra_str_z(CHROME);
    /* before flagging: a disallowed path is a signal, not a verdict */
    r.path = ra_str_z("/private/a");
    ra_undecl_judge(f.t, rules, &r, ra_str_z("GET"), 1, NULL, &v);
    assert_int_equal(v.verdict, RA_UNDECL_V_NONE);
    assert_true(r.disallowed);
    assert_int_equal(v.hit.score, 50);
    r.path = ra_str_z("/public");
    r.time_ms = 1000;
    ra_undecl_judge(f.t, rules, &r, ra_str_z("GET"), 1, NULL, &v);
    assert_false(r.disallowed);
    assert_int_equal(v.verdict, RA_UNDECL_V_NONE);
    /* robots.txt flags it: its whole window is judged */
    r.path = ra_str_z("/robots.txt");
    r.time_ms = 2000;
    ra_undecl_judge(f.t, rules, &r, ra_str_z("GET"), 1, NULL, &v);
    assert_int_equal(v.verdict, RA_UNDECL_V_ROBOTS);
    rec = ra_undecl_record(f.t, v.hit.rec - 1);
    assert_int_equal(rec->violation, 1);
    assert_int_equal(rec->compliant, 1);
    assert_int_equal(rec->signals, RA_UNDECL_SIG_ROBOTS
                                   | RA_UNDECL_SIG_DISALLOWED);
    /* then each request, against '*' (not Googlebot's group) */
    r.path = ra_str_z("/private/b?x=1");
    r.time_ms = 3000;
    ra_undecl_judge(f.t, rules, &r, ra_str_z("GET"), 1, NULL, &v);
    assert_int_equal(v.verdict, RA_UNDECL_V_VIOLATION);
    assert_int_equal(v.match.line, 5);
    assert_int_equal(rec->violation, 2);
    r.path = ra_str_z("/ok");
    ra_undecl_judge(f.t, rules, &r, ra_str_z("GET"), 1, NULL, &v);
    assert_int_equal(v.verdict, RA_UNDECL_V_COMPLIANT);
    assert_int_equal(rec->compliant, 2);
    viol = ra_undecl_recent(f.t, 0);
    assert_non_null(viol);
    assert_int_equal(viol->time_ms, 3000);
    assert_int_equal(viol->line, 5);
    assert_memory_equal(viol->uri, "/private/b?x=1", viol->uri_len);
    assert_memory_equal(viol->rule, "/private/", viol->rule_len);
    assert_null(ra_undecl_recent(f.t, 1));
    /* the alert line */
    ra_buf_init(&b, &ra_malloc_allocator, 256, 0);
    r.path = ra_str_z("/private/\"x");
    r.user_agent = ra_str_z("Evil\n\"UA");
    ra_undecl_judge(f.t, rules, &r, ra_str_z("GET"), 1, NULL, &v);
    assert_int_equal(v.verdict, RA_UNDECL_V_VIOLATION);
    assert_int_equal(rec->nuas, 2);
    ra_undecl_alert(&b, 0, ra_str_z("example.org"), rec, &r,
                    ra_str_z("GET"), &v.match);
    ra_buf_ch(&b, 0);
    assert_string_equal((char *) b.data,
        "robots-audit: [RA104] violation site=\"example.org\" "
        "crawler=\"undeclared\" client=192.0.2.77 method=GET "
        "uri=\"/private/%22x\" rule=\"disallow: /private/\" line=5 "
        "score=150 "
        "signals=robots.txt,disallowed");
    b.len = 0;
    ra_undecl_alert(&b, 1, ra_str_z("example.org"), rec, &r,
                    ra_str_z("GET"), &v.match);
    ra_buf_ch(&b, 0);
    assert_non_null(strstr((char *) b.data, "\"tag\":\"RA104\""));
    assert_non_null(strstr((char *) b.data,
                           "\"signals\":[\"robots.txt\",\"disallowed\"]"));
    assert_non_null(strstr((char *) b.data,
                           "\"user_agent\":\"Evil\\n\\\"UA\"}\n"));
    ra_buf_release(&b);
    ra_test_arena_free(f.ar);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(path_kinds),
        cmocka_unit_test(path_kinds_of_extensions),
        cmocka_unit_test(impossible_user_agents),
        cmocka_unit_test(robots_txt_is_decisive),
        cmocka_unit_test(shared_address_is_not_one_crawler),
        cmocka_unit_test(flagged_client_found_shared_keeps_its_record),
        cmocka_unit_test(behaviour_flags_a_disguised_crawler),
        cmocka_unit_test(other_signals_add_up),
        cmocka_unit_test(ipv6_by_64),
        cmocka_unit_test(window_forgets_idle_clients),
        cmocka_unit_test(flood_evicts_unflagged_first),
        cmocka_unit_test(all_flagged_evicts_oldest_flagged),
        cmocka_unit_test(table_is_position_independent),
        cmocka_unit_test(judged_against_the_star_group),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
