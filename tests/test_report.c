/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Renderers on hand-made snapshots full of hostile strings: HTML escaped
 * and script-free, JSON strict (common/ra_json.h's parser) and valid
 * UTF-8, Prometheus checked line by line against the text exposition
 * format, text free of raw control bytes; bounds and allocation failure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ra_test.h"
#include "ra_json.h"
#include "ra_report.h"
#include "ra_crawlers.h"
#include "ra_verify.h"

static const char  hostile[] = "<script>alert(\"x\")</script>\x01\x1b[31m"
                               "\xff\xfe\xc3(\\'&\n";

#define SET(field, lenf, s)                                                 \
    do {                                                                    \
        size_t  n_ = strlen(s) < sizeof(field) ? strlen(s) : sizeof(field); \
        memcpy(field, s, n_);                                               \
        lenf = n_;                                                          \
    } while (0)

typedef struct {
    ra_snapshot_t    snap;
    ra_site_t        sites[2];
    ra_stat_t        stats[6];
    ra_violation_t   vios[3];
    ra_str_t         bodies[2];
} fixture_t;

static void
fill_stat(ra_stat_t *st, uint32_t site, const char *name, unsigned kind,
    unsigned verif, uint64_t base)
{
    unsigned  c;

    memset(st, 0, sizeof(*st));
    st->site = site;
    st->kind = (uint8_t) kind;
    st->verification = (uint8_t) verif;
    st->category = RA_CAT_SEARCH;
    SET(st->name, st->name_len, name);
    SET(st->token, st->token_len, name);
    for (c = 0; c < RA_CNT_MAX; c++) {
        st->counters[c] = base + c;
    }
    st->counters[RA_CNT_REQUESTS] = base * 10;
    st->first_seen = 1431857103000LL;
    st->last_seen = 1431857103000LL + 3600000;
    st->last_fetch = st->last_seen - 1000;
    st->last_fetch_status = 200;
}

static void
fixture(fixture_t *f)
{
    ra_site_t     *s;
    ra_version_t  *v;
    int            i;

    memset(f, 0, sizeof(*f));
    /* site 1: hostile name, a current version with a hostile type */
    s = &f->sites[0];
    SET(s->name, s->name_len, hostile);
    s->robots_status = 200;
    s->robots_date = 1431857103000LL;
    s->failures = 2;
    s->nversions = 2;
    s->current = 1;
    s->counters[RA_CNT_REQUESTS] = 123;
    s->browser_requests = 456;
    s->last_seen = 1431857103000LL + 3600000;
    v = &s->versions[1];
    v->hash = 42;
    v->answer = RA_ANSWER_RULES;
    v->status = 200;
    v->size = 33;
    v->lint_errors = 1;
    v->lint_warnings = 2;
    v->lint_infos = 3;
    v->groups = 1;
    v->rules = 2;
    SET(v->ctype, v->ctype_len, "text/html\"<b>\x7f\xc0");
    s->versions[0].hash = 41;
    s->versions[0].until = s->last_seen - 1000;   /* in force within 24 h */
    f->bodies[0] = ra_str("User-agent: *\nDisalow: /x\n", 26);

    /* site 2: plain, never fetched robots.txt */
    s = &f->sites[1];
    SET(s->name, s->name_len, "example.com");
    f->bodies[1] = ra_str("", 0);

    /* records name their site by its index + 1 in the snapshot */
    fill_stat(&f->stats[0], 1, "Googlebot", RA_UA_KNOWN, RA_VERIFY_VERIFIED,
              10);
    fill_stat(&f->stats[1], 1, "Googlebot", RA_UA_KNOWN, RA_VERIFY_IMPOSTOR,
              1);
    fill_stat(&f->stats[2], 1, hostile, RA_UA_GENERIC,
              RA_VERIFY_UNVERIFIABLE, 5);
    fill_stat(&f->stats[3], 1, "x\"bot\\", RA_UA_GENERIC,
              RA_VERIFY_UNVERIFIABLE, 7);
    fill_stat(&f->stats[4], 2, "bingbot", RA_UA_KNOWN,
              RA_VERIFY_UNVERIFIABLE, 2);
    fill_stat(&f->stats[5], 99, "orphan", RA_UA_KNOWN,
              RA_VERIFY_UNVERIFIABLE, 2);     /* site not in snapshot */
    /* lengths past the arrays: a corrupt region must not be overread */
    f->stats[3].token_len = 255;

    for (i = 0; i < 3; i++) {
        ra_violation_t  *x = &f->vios[i];

        x->time = 1431857103000LL + i;
        x->site = i == 2 ? 99 : 1;      /* 99: not in the snapshot */
        x->verdict = 3;
        x->line = 2;
        SET(x->name, x->name_len, i ? "Googlebot" : hostile);
        SET(x->method, x->method_len, "G\"ET<");
        SET(x->addr, x->addr_len, "66.249.<66>.1");
        SET(x->uri, x->uri_len, hostile);
        x->uri_full_len = 5000;
        SET(x->pattern, x->pattern_len, "/<x>");
    }
    f->vios[1].addr_len = 200;     /* corrupt: clamped to the array */

    f->snap.totals.plan.sites = 100;
    f->snap.totals.plan.stats = 1000;
    f->snap.totals.stat_evictions = 4;
    f->snap.totals.requests = 999;
    f->snap.totals.crawler_requests = 900;
    f->snap.totals.sites = 2;
    f->snap.totals.stats = 6;
    f->snap.sites = f->sites;
    f->snap.nsites = 2;
    f->snap.stats = f->stats;
    f->snap.nstats = 6;
    f->snap.violations = f->vios;
    f->snap.nviolations = 3;
    f->snap.bodies = f->bodies;
}

static char *
render(fixture_t *f, ra_report_format_e fmt, ra_report_opts_t *o,
    size_t *len)
{
    ra_buf_t  b;
    char     *s;

    ra_buf_init(&b, &ra_malloc_allocator, 0, 0);
    assert_int_equal(ra_report_render(&f->snap, fmt, o, &b), RA_OK);
    assert_false(b.failed);
    s = malloc(b.len + 1);
    assert_non_null(s);
    memcpy(s, b.data, b.len);
    s[b.len] = '\0';
    *len = b.len;
    ra_buf_release(&b);
    return s;
}

/* strict UTF-8, no C0 but \n (and \t where allowed), no DEL */
static int
utf8_clean(const unsigned char *p, size_t n, int tabs)
{
    size_t  i = 0, k, len;

    while (i < n) {
        unsigned char  c = p[i];

        if (c < 0x80) {
            if ((c < 0x20 && c != '\n' && !(tabs && c == '\t')) || c == 0x7f)
            {
                return 0;
            }
            i++;
            continue;
        }
        len = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3
              : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
        if (len == 0 || i + len > n) {
            return 0;
        }
        for (k = 1; k < len; k++) {
            if ((p[i + k] & 0xc0) != 0x80) {
                return 0;
            }
        }
        i += len;
    }
    return 1;
}

/* bidi controls and invisible characters (U+202E makes "/gpj.exe" read
 * "/exe.jpg"): shown in every format, obeyed in none */
static void
test_escapers_invisible(void **state)
{
    ra_buf_t        b;
    ra_str_t        s = ra_string("/a\xe2\x80\xaegpj.exe\xe2\x81\xa6"
                                  "\xef\xbb\xbf\xf3\xa0\x80\x81\xc3\xa9");
    const char     *bad[] = { "\xe2\x80\xae", "\xe2\x81\xa6",
                              "\xef\xbb\xbf", "\xf3\xa0\x80\x81" };
    size_t          i;

    (void) state;
    assert_int_equal(ra_utf8_invisible((const unsigned char *)
                                       "\xe2\x80\xae", 3), 0x202e);
    assert_int_equal(ra_utf8_invisible((const unsigned char *) "\xc3\xa9",
                                       2), 0);
    assert_int_equal(ra_utf8_invisible((const unsigned char *) "a", 1), 0);
    ra_buf_init(&b, &ra_malloc_allocator, 0, 0);

    ra_buf_html(&b, s);
    ra_buf_ch(&b, '\0');
    assert_string_equal((char *) b.data, "/a\\u{202e}gpj.exe\\u{2066}"
                        "\\u{feff}\\u{e0001}\xc3\xa9");

    b.len = 0;
    ra_buf_json_str(&b, s);
    ra_buf_ch(&b, '\0');
    assert_string_equal((char *) b.data, "\"/a\\u202egpj.exe\\u2066"
                        "\\ufeff\\udb40\\udc01\xc3\xa9\"");

    b.len = 0;
    ra_buf_prom_label(&b, s);
    ra_buf_ch(&b, '\0');
    assert_string_equal((char *) b.data, "/a\xef\xbf\xbdgpj.exe"
                        "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xc3\xa9");

    b.len = 0;
    ra_buf_log(&b, s);
    ra_buf_ch(&b, '\0');
    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        assert_null(strstr((char *) b.data, bad[i]));
    }
    assert_non_null(strstr((char *) b.data, "/a\\xe2\\x80\\xaegpj.exe"));
    ra_buf_release(&b);
}

/* ra_buf_log tests 8 bytes at a time: every byte value at every place of
 * strings of 1 to 24 bytes, and two at once, against the byte rule */
static void
test_log_escaper_word_scan(void **state)
{
    unsigned char  in[24], want[24 * 4 + 1];
    size_t         len, at, at2, i, w;
    unsigned       c, c2;
    ra_buf_t       b;

    (void) state;
    ra_buf_init(&b, &ra_malloc_allocator, 128, 0);
    for (len = 1; len <= 24; len++) {
        for (at = 0; at < len; at++) {
            for (c = 0; c < 256; c++) {
                for (at2 = at; at2 < len; at2 += 5) {
                    c2 = (c * 7 + at2) & 255;
                    memset(in, 'a', len);
                    in[at2] = (unsigned char) c2;
                    in[at] = (unsigned char) c;
                    for (i = 0, w = 0; i < len; i++) {
                        if (in[i] == '"' || in[i] == '\\') {
                            memcpy(want + w, in[i] == '"' ? "%22" : "%5c", 3);
                            w += 3;
                        } else if (in[i] < 0x20 || in[i] >= 0x7f) {
                            w += (size_t) sprintf((char *) want + w, "\\x%02x",
                                                  in[i]);
                        } else {
                            want[w++] = in[i];
                        }
                    }
                    b.len = 0;
                    ra_buf_log(&b, ra_str(in, len));
                    assert_int_equal(b.len, w);
                    assert_memory_equal(b.data, want, w);
                }
            }
        }
    }
    ra_buf_release(&b);
}

static void
test_html(void **state)
{
    fixture_t         f;
    ra_report_opts_t  o;
    char             *s;
    size_t            n;

    (void) state;
    fixture(&f);
    memset(&o, 0, sizeof(o));
    o.relint = 1;
    o.title = ra_str("<i>t</i>", 8);
    s = render(&f, RA_REPORT_HTML, &o, &n);
    assert_true(utf8_clean((unsigned char *) s, n, 0));
    assert_null(strstr(s, "<script"));
    assert_null(strstr(s, "<i>"));
    assert_null(strstr(s, "<b>"));
    assert_null(strstr(s, "<66>"));
    assert_non_null(strstr(s, "&lt;script&gt;alert(&quot;x&quot;)"));
    assert_non_null(strstr(s, "<meta http-equiv=\"refresh\" content=\"30\">"));
    assert_non_null(strstr(s, "<style>"));
    assert_null(strstr(s, "src="));
    /* links: the summary's anchors and the order, nothing else here
     * (the fixture has no crawler table) */
    assert_null(strstr(s, "href=\"j"));
    assert_non_null(strstr(s, "<a href=\"#site-example.com\">"));
    assert_non_null(strstr(s, "<section id=\"site-example.com\">"));
    assert_non_null(strstr(s, "<a href=\"?sort=violations\">"));
    assert_non_null(strstr(s, "class=\"bar\""));
    /* robots.txt health beside the site's name: 2 consecutive failures */
    assert_non_null(strstr(s, "<span class=\"health h-bad\">robots.txt "
                              "failing: 200, crawlers must stop</span></h2>"));
    assert_non_null(strstr(s, "<div class=\"wide\"><table>"));
    /* the refused column: 20 + 21 + 22 after "no fetch" (18), then the
     * policy's refusals (23) apart */
    assert_non_null(strstr(s, "refused</th><th class=\"n x\" title=\"refused "
                              "by the crawler policy (robots_audit_block)\">"
                              "by policy</th><th class=\"n x\" title=\"most "
                              "requests in one minute"));
    assert_non_null(strstr(s, "<td class=\"n x\">18</td>"
                              "<td class=\"n x\">63</td>"
                              "<td class=\"n x\">23</td>"));
    /* re-linted body: the typo is a finding */
    assert_non_null(strstr(s, "<code>typo</code>"));
    assert_non_null(strstr(s, "example.com"));
    assert_non_null(strstr(s, "no violation recorded"));
    assert_null(strstr(s, "orphan"));
    free(s);
}

typedef struct {
    int       depth_max;
    int       keys;
    int       lines_key;
    int       crawler_keys;
    unsigned  last_key_lines;
    uint64_t  generic_requests;
    int       in_generic;
} json_walk_t;

static int
json_ev(void *ctx, unsigned ev, ra_str_t raw, unsigned depth)
{
    json_walk_t  *w = ctx;

    if ((int) depth > w->depth_max) {
        w->depth_max = (int) depth;
    }
    if (ev == RA_JSON_KEY) {
        w->keys++;
        w->last_key_lines = raw.len == 5 && memcmp(raw.data, "lines", 5) == 0;
        if (depth == 1 && (w->last_key_lines
                           || (raw.len == 15
                               && memcmp(raw.data, "malformed_lines", 15)
                                  == 0)))
        {
            w->lines_key++;
        }
        if (depth == 5 && raw.len == 7 && memcmp(raw.data, "crawler", 7) == 0)
        {
            w->crawler_keys++;
        }
    }
    return 0;
}


/* Rule hits, hours, episodes, evidence, CSV, order, rounding */
static void
test_issue18(void **state)
{
    fixture_t         f;
    ra_report_opts_t  o;
    ra_json_err_t     jerr;
    json_walk_t       w;
    ra_site_t        *s;
    ra_stat_t        *st;
    char             *out, *p, *q;
    size_t            n;
    int64_t           now = 1431857103000LL + 3600000;
    uint32_t          hour = (uint32_t) (now / RA_HOUR_MS);

    (void) state;
    fixture(&f);
    s = &f.sites[0];
    s->created = 1431800000000LL;
    s->rule_version = 42;               /* the version in force */
    s->rule_hits[0].line = 9;           /* past the body: no pattern */
    s->rule_hits[0].matched = 1;
    s->rule_hits[1].line = 2;
    s->rule_hits[1].matched = 3;
    s->rule_hits[1].violations = 2;
    s->rule_other_matched = 5;
    s->rule_other_violations = 1;
    s->counters[RA_CNT_COMPLIANT] = 2;
    s->counters[RA_CNT_VIOLATION] = 1;
    s->episode_next = 2;
    s->episodes[0].start = now - 7200000;
    s->episodes[0].end = now - 7110000;
    s->episodes[0].answers = 3;
    s->episodes[0].status = 503;
    s->episodes[0].ncrawlers = 1;
    SET(s->episodes[0].name[0], s->episodes[0].name_len[0], "Googlebot");
    s->episodes[0].requests[0] = 4;
    s->episodes[0].others = 2;
    s->episodes[1].start = now - 1000;
    s->episodes[1].status = 429;
    s->episodes[1].answers = 1;
    s->spark[hour % RA_HOURS].hour = hour;
    s->spark[hour % RA_HOURS].requests = 10;
    s->spark[hour % RA_HOURS].violations = 2;
    st = &f.stats[0];
    st->hours[hour % RA_HOURS].hour = hour;
    st->hours[hour % RA_HOURS].counters[RA_CNT_REQUESTS] = 7;
    st->hours[(hour - 5) % RA_HOURS].hour = hour - 5;
    st->hours[(hour - 5) % RA_HOURS].counters[RA_CNT_REQUESTS] = 3;
    st->hours[(hour - 5) % RA_HOURS].counters[RA_CNT_VIOLATION] = 1;
    st->hours[(hour - 30) % RA_HOURS].hour = hour - 30;    /* too old */
    st->hours[(hour - 30) % RA_HOURS].counters[RA_CNT_REQUESTS] = 100;
    f.vios[0].verification = RA_VERIFY_VERIFIED;
    f.vios[0].verified_by = RA_VERIFIED_BY_RANGES;
    f.vios[0].last_fetch = 1431857000000LL;
    memset(f.vios[0].robots_sha256, 0xab, 32);
    f.vios[0].purpose = RA_CAT_SEARCH + 1;     /* a table crawler's */
    SET(f.vios[1].name, f.vios[1].name_len, "=cmd|x");  /* generic: 0 */
    SET(f.vios[1].uri, f.vios[1].uri_len, "/a,\"b\"\r\n");
    f.vios[1].addr_len = 3;

    /* JSON */
    memset(&o, 0, sizeof(o));
    o.now = now;
    out = render(&f, RA_REPORT_JSON, &o, &n);
    memset(&w, 0, sizeof(w));
    assert_int_equal(ra_json_parse(ra_str(out, n), json_ev, &w, &jerr),
                     RA_OK);
    assert_non_null(strstr(out, "\"rule_hits\":[{\"line\":2,\"type\":"
                           "\"disallow\",\"pattern\":\"/x\",\"matched\":3,"
                           "\"violations\":2},{\"line\":9,\"type\":"
                           "\"disallow\",\"pattern\":null,\"matched\":1,"
                           "\"violations\":0}],\"rule_hits_lines_kept\":32,"
                           "\"rule_hits_other\":{\"matched\":5,"
                           "\"violations\":1}"));
    assert_non_null(strstr(out, "\"counting_since\":\"2015-05-16T18:13:20Z\""));
    assert_non_null(strstr(out, "\"episodes\":[{\"start\":"
                           "\"2015-05-17T11:05:02Z\",\"end\":null,"
                           "\"duration_ms\":1000,\"answers\":1,\"status\":429,"
                           "\"crawlers\":[],\"other_requests\":0},{\"start\":"
                           "\"2015-05-17T09:05:03Z\",\"end\":"
                           "\"2015-05-17T09:06:33Z\",\"duration_ms\":90000,"
                           "\"answers\":3,\"status\":503,\"crawlers\":"
                           "[{\"crawler\":\"Googlebot\",\"requests\":4}],"
                           "\"other_requests\":2}]"));
    assert_non_null(strstr(out, "\"last_hour\":{\"requests\":7,"
                           "\"robots_fetches\":0,\"compliant\":0,"
                           "\"violation\":0,"));
    assert_non_null(strstr(out, "\"last_24h\":{\"requests\":10,"
                           "\"robots_fetches\":0,\"compliant\":0,"
                           "\"violation\":1,"));
    assert_non_null(strstr(out, "\"verified_by\":\"ranges\",\"robots_sha256\":"
                           "\"abababababababababababababababababababababababab"
                           "abababababababab\",\"last_robots_fetch\":"
                           "\"2015-05-17T10:03:20Z\""));
    assert_non_null(strstr(out, "\"verified_by\":null,\"robots_sha256\":null,"
                           "\"last_robots_fetch\":null"));
    /* by name: "<script..." sorts before "example.com" */
    p = strstr(out, "\"site\":\"\\u003cscript");
    q = strstr(out, "\"site\":\"example.com\"");
    assert_true(p != NULL && q != NULL && p < q);
    free(out);
    /* most violations first: example.com gets more */
    f.sites[1].counters[RA_CNT_VIOLATION] = 5;
    o.sort_violations = 1;
    out = render(&f, RA_REPORT_JSON, &o, &n);
    p = strstr(out, "\"site\":\"\\u003cscript");
    q = strstr(out, "\"site\":\"example.com\"");
    assert_true(p != NULL && q != NULL && q < p);
    free(out);
    f.sites[1].counters[RA_CNT_VIOLATION] = 0;
    o.sort_violations = 0;

    /* a rule hit of another version is not shown */
    s->rule_version = 41;
    out = render(&f, RA_REPORT_JSON, &o, &n);
    assert_non_null(strstr(out, "\"rule_hits\":[],"));
    free(out);
    s->rule_version = 42;

    /* CSV: exact header, cells escaped, formulas defused */
    out = render(&f, RA_REPORT_CSV, &o, &n);
    assert_true(strncmp(out, "time,site,crawler,verification,verified_by,"
                        "client,method,uri,rule,line,robots_sha256,"
                        "last_robots_fetch,purpose\r\n", 106) == 0);
    assert_non_null(strstr(out, "\r\n2015-05-17T10:05:03Z,\"<script>alert"
                           "(\"\"x\"\")</script>\\x01\\x1b[31m"));
    /* the last column: the violation's purpose, empty for a generic bot */
    assert_non_null(strstr(out, ",'=cmd|x,unverifiable,,66.,\"G\"\"ET<\","
                           "\"/a,\"\"b\"\"\\x0d\\x0a\",/<x>,2,,,\r\n"));
    assert_non_null(strstr(out, "abababab,2015-05-17T10:03:20Z,search\r\n"));
    assert_non_null(strstr(out, ",verified,ranges,"));
    assert_null(strstr(out, "orphan"));
    free(out);

    /* the crawler records' CSV: every counter, JSON's names, by column */
    out = render(&f, RA_REPORT_CSV_CRAWLERS, &o, &n);
    assert_true(strncmp(out, "site,crawler,token,kind,purpose,verification,"
                        "verified_by,first_seen,last_seen,requests,"
                        "robots_fetches,compliant,violation,stale,"
                        "unreachable,exempt,crawl_delay,no_robots_fetch,"
                        "unknown,refused_violation,refused_unreachable,"
                        "refused_impostor,refused_policy,unreachable_30d,"
                        "llms_fetches\r\n", 283) == 0);
    assert_non_null(strstr(out, ",Googlebot,Googlebot,known,search,verified,"
                           ",2015-05-17T10:05:03Z,2015-05-17T11:05:03Z,100,"
                           "11,12,13,14,15,16,17,18,19,20,21,22,23,24,25"
                           "\r\n"));
    assert_non_null(strstr(out, "\r\nexample.com,bingbot,bingbot,known,"));
    /* quoted; a corrupt token length is clamped, its bytes escaped */
    assert_non_null(strstr(out, ",\"x\"\"bot\\\",\"x\"\"bot\\\\x00"));
    assert_null(strstr(out, "orphan"));
    free(out);

    /* HTML: counts beside the lines, episodes, sparkline, rounding */
    out = render(&f, RA_REPORT_HTML, &o, &n);
    assert_non_null(strstr(out, "<span class=\"ln\">2</span>Disalow: /x"
                           "<span class=\"hit bad\">3 disallowed, 2 "
                           "violations</span>\n"));
    assert_non_null(strstr(out, "robots.txt 5xx/429 episodes"));
    assert_non_null(strstr(out, "Googlebot (4), others (2)"));
    assert_non_null(strstr(out, "going on"));
    assert_non_null(strstr(out, "<svg class=\"spark\""));
    assert_non_null(strstr(out, "fill=\"#d32f2f\""));
    assert_non_null(strstr(out, "counting since 2015-05-16T18:13:20Z"));
    assert_non_null(strstr(out, "<td>67%</td>"));       /* 2 of 3 */
    assert_null(strstr(out, "66.6%"));
    assert_non_null(strstr(out, "id=\"legend\""));
    assert_non_null(strstr(out, "http-equiv=\"refresh\""));
    free(out);
    o.standalone = 1;
    out = render(&f, RA_REPORT_HTML, &o, &n);
    assert_null(strstr(out, "http-equiv=\"refresh\""));
    assert_null(strstr(out, "?sort="));
    assert_null(strstr(out, "lines that decided its requests"));
    free(out);

    /* per crawler on demand (?crawler=): the lines of its requests */
    st->rule_version = 42;
    st->rule_hits[0].line = 2;
    st->rule_hits[0].matched = 2;
    st->rule_hits[0].violations = 1;
    o.crawler_rules = 1;
    out = render(&f, RA_REPORT_JSON, &o, &n);
    assert_non_null(strstr(out, "\"rule_hits\":[{\"line\":2,\"type\":"
                           "\"disallow\",\"pattern\":\"/x\",\"matched\":2,"
                           "\"violations\":1}],\"peak_per_minute\""));
    assert_int_equal(ra_json_parse(ra_str(out, n), json_ev, &w, &jerr),
                     RA_OK);
    free(out);
    out = render(&f, RA_REPORT_HTML, &o, &n);
    assert_non_null(strstr(out, "lines that decided its requests"));
    assert_non_null(strstr(out, "<td>Googlebot</td><td>verified</td><td "
                           "class=\"n\">2</td><td><code>Disallow: /x</code>"
                           "</td><td class=\"n\">2</td><td class=\"n bad\">1"
                           "</td>"));
    free(out);
    st->rule_version = 41;          /* another version's: none shown */
    out = render(&f, RA_REPORT_JSON, &o, &n);
    assert_null(strstr(out, "\"matched\":2,\"violations\":1}],"
                            "\"peak_per_minute\""));
    free(out);
}

static void
test_json(void **state)
{
    fixture_t         f;
    ra_report_opts_t  o;
    ra_json_err_t     err;
    json_walk_t       w;
    char             *s;
    size_t            n;

    (void) state;
    fixture(&f);
    memset(&o, 0, sizeof(o));
    o.relint = 1;
    s = render(&f, RA_REPORT_JSON, &o, &n);
    memset(&w, 0, sizeof(w));
    assert_true(n > 0 && s[n - 1] == '\n');
    if (ra_json_parse(ra_str(s, n - 1), json_ev, &w, &err) != RA_OK) {
        print_message("JSON error at %zu: %s\n%s\n", err.offset, err.msg, s);
        fail();
    }
    assert_true(utf8_clean((unsigned char *) s, n, 0));
    assert_int_equal(w.lines_key, 0);            /* modules: omitted */
    /* 5 stats of known sites + 2 violations of known sites carry
     * "crawler" at depth 5 */
    assert_int_equal(w.crawler_keys, 7);
    assert_non_null(strstr(s, "\"site\":\"\\u003cscript\\u003e"));
    assert_non_null(strstr(s, "\\ufffd"));
    assert_non_null(strstr(s, "\"requests\":100,"));
    assert_non_null(strstr(s, "\"violation\":13,"));
    /* what enforce and the policy refused, per verdict, after the other
     * counters; then the llms.txt fetches */
    assert_non_null(strstr(s, "\"unknown\":19,\"refused_violation\":20,"
                              "\"refused_unreachable\":21,"
                              "\"refused_impostor\":22,"
                              "\"refused_policy\":23,"
                              "\"unreachable_30d\":24,\"llms_fetches\":25,"
                              "\"first_seen\""));
    assert_non_null(strstr(s, "\"verification\":\"impostor\""));
    assert_non_null(strstr(s, "\"code\":\"typo\""));
    assert_non_null(strstr(s, "\"uri_truncated\":true"));
    assert_non_null(strstr(s, "\"versions_24h\":2"));
    assert_non_null(strstr(s, "\"stats\":4,\"blobs\""));     /* evictions */
    free(s);

    o.with_lines = 1;
    o.lines = 10000;
    o.malformed_lines = 1;
    s = render(&f, RA_REPORT_JSON, &o, &n);
    memset(&w, 0, sizeof(w));
    assert_int_equal(ra_json_parse(ra_str(s, n - 1), json_ev, &w, &err),
                     RA_OK);
    assert_int_equal(w.lines_key, 2);
    assert_non_null(strstr(s, "\"lines\":10000,\"malformed_lines\":1}"));
    free(s);
}

/* ---- Prometheus text exposition format 0.0.4, line by line ---------- */

static int
metric_name_ok(const char *p, size_t n)
{
    size_t  i;

    if (n == 0 || !(ra_isalpha(p[0]) || p[0] == '_' || p[0] == ':')) {
        return 0;
    }
    for (i = 1; i < n; i++) {
        if (!(ra_isalpha(p[i]) || ra_isdigit(p[i]) || p[i] == '_'
              || p[i] == ':'))
        {
            return 0;
        }
    }
    return 1;
}

typedef struct {
    char   family[128];
    char   type[16];
    char  *seen[4096];
    int    nseen;
    char   families[64][128];
    int    nfamilies;
} prom_t;

/* Checks one sample line; returns its value. */
static double
prom_sample(prom_t *pr, const char *line)
{
    const char  *p = line, *name_end, *v;
    char        *end, *series;
    double       val;
    size_t       n;
    int          i, nlabels = 0;

    while (ra_isalpha(*p) || ra_isdigit(*p) || *p == '_' || *p == ':') {
        p++;
    }
    name_end = p;
    assert_true(metric_name_ok(line, (size_t) (name_end - line)));
    /* the sample belongs to the family just declared */
    n = strlen(pr->family);
    assert_true((size_t) (name_end - line) == n
                && memcmp(line, pr->family, n) == 0);
    if (*p == '{') {
        p++;
        while (*p != '}') {
            const char  *ln = p;

            while (ra_isalpha(*p) || ra_isdigit(*p) || *p == '_') {
                p++;
            }
            assert_true(p > ln && !ra_isdigit(*ln));
            assert_true(p[0] == '=' && p[1] == '"');
            p += 2;
            while (*p != '"') {
                assert_true(*p != '\0' && *p != '\n');
                if (*p == '\\') {
                    assert_true(p[1] == '\\' || p[1] == '"' || p[1] == 'n');
                    p++;
                }
                p++;
            }
            p++;
            nlabels++;
            if (*p == ',') {
                p++;
            } else {
                assert_int_equal(*p, '}');
            }
        }
        p++;
    }
    assert_int_equal(*p, ' ');
    v = p + 1;
    val = strtod(v, &end);
    assert_true(end != v && *end == '\0');
    (void) nlabels;
    /* no duplicate series */
    n = (size_t) (p - line);
    for (i = 0; i < pr->nseen; i++) {
        if (strlen(pr->seen[i]) == n && memcmp(pr->seen[i], line, n) == 0) {
            print_message("duplicate series: %s\n", line);
            fail();
        }
    }
    series = malloc(n + 1);
    assert_non_null(series);
    memcpy(series, line, n);
    series[n] = '\0';
    assert_true(pr->nseen < 4096);
    pr->seen[pr->nseen++] = series;
    return val;
}

static void
prom_check(const char *s, size_t len, double *generic_violation)
{
    prom_t      *pr = calloc(1, sizeof(prom_t));
    char        *copy, *line, *save = NULL;
    char         name[128], type[32];
    int          i;

    assert_non_null(pr);
    assert_true(utf8_clean((const unsigned char *) s, len, 0));
    assert_true(len > 0 && s[len - 1] == '\n');
    copy = strdup(s);
    assert_non_null(copy);
    for (line = strtok_r(copy, "\n", &save); line != NULL;
         line = strtok_r(NULL, "\n", &save))
    {
        if (strncmp(line, "# HELP ", 7) == 0) {
            assert_int_equal(sscanf(line + 7, "%127s", name), 1);
            assert_true(metric_name_ok(name, strlen(name)));
            continue;
        }
        if (strncmp(line, "# TYPE ", 7) == 0) {
            assert_int_equal(sscanf(line + 7, "%127s %31s", name, type), 2);
            assert_true(strcmp(type, "counter") == 0
                        || strcmp(type, "gauge") == 0);
            /* counters end in _total, gauges do not */
            {
                size_t  n = strlen(name);
                int     total = n > 6 && strcmp(name + n - 6, "_total") == 0;

                assert_int_equal(total, strcmp(type, "counter") == 0);
            }
            for (i = 0; i < pr->nfamilies; i++) {
                assert_string_not_equal(pr->families[i], name);
            }
            assert_true(pr->nfamilies < 64);
            strcpy(pr->families[pr->nfamilies++], name);
            strcpy(pr->family, name);
            strcpy(pr->type, type);
            continue;
        }
        assert_true(line[0] != '#');
        {
            double  v = prom_sample(pr, line);

            assert_true(v >= 0);
            if (generic_violation != NULL
                && strstr(line, "robots_audit_requests_total{") == line
                && strstr(line, "crawler=\"generic\"")
                && strstr(line, "verdict=\"violation\""))
            {
                *generic_violation += v;
            }
        }
    }
    for (i = 0; i < pr->nseen; i++) {
        free(pr->seen[i]);
    }
    free(copy);
    free(pr);
}

static void
test_prometheus(void **state)
{
    fixture_t         f;
    ra_report_opts_t  o;
    char             *s;
    size_t            n;
    double            gv = 0;

    (void) state;
    fixture(&f);
    memset(&o, 0, sizeof(o));
    s = render(&f, RA_REPORT_PROMETHEUS, &o, &n);
    prom_check(s, n, &gv);
    /* both generic bots in one bounded series: 5+3 and 7+3 */
    assert_true(gv == 18);
    assert_null(strstr(s, "x\\\"bot"));
    assert_non_null(strstr(s, "robots_audit_robots_findings{site=\"<script>"
                              "alert(\\\"x\\\")</script>??[31m"));
    assert_non_null(strstr(s, "robots_audit_evictions_total{table=\"stats\"}"
                              " 4\n"));
    assert_non_null(strstr(s, "# TYPE robots_audit_robots_info gauge\n"));
    assert_non_null(strstr(s, "status=\"all\"} 11\n"));  /* no impostor */
    /* refusals per (site, crawler): the verified record under its name,
     * the impostor's under "unverified" (a name anyone can send) */
    assert_non_null(strstr(s, "# TYPE robots_audit_refused_total counter\n"));
    assert_non_null(strstr(s, ",crawler=\"Googlebot\",verdict=\"violation\"}"
                              " 20\n"));
    assert_non_null(strstr(s, ",crawler=\"Googlebot\",verdict=\"unreachable\"}"
                              " 21\n"));
    assert_non_null(strstr(s, ",crawler=\"Googlebot\",verdict=\"impostor\"}"
                              " 22\n"));
    assert_non_null(strstr(s, ",crawler=\"unverified\",verdict=\"violation\"}"
                              " 11\n"));
    assert_null(strstr(s, "crawler=\"bingbot\""));
    {
        /* only what enforce and the policy can refuse for, four per
         * (site, crawler) */
        const char  *p = s, *q;
        char         line[512];
        int          lines = 0;

        while ((p = strstr(p, "\nrobots_audit_refused_total{")) != NULL) {
            p++;
            q = strchr(p, '\n');
            assert_non_null(q);
            assert_true((size_t) (q - p) < sizeof(line));
            memcpy(line, p, (size_t) (q - p));
            line[q - p] = '\0';
            assert_true(strstr(line, "verdict=\"violation\"} ") != NULL
                        || strstr(line, "verdict=\"unreachable\"} ") != NULL
                        || strstr(line, "verdict=\"impostor\"} ") != NULL
                        || strstr(line, "verdict=\"policy\"} ") != NULL);
            lines++;
        }
        /* Googlebot, generic, unverified on two sites */
        assert_int_equal(lines, 4 * 4);
    }
    assert_null(strstr(s, "orphan"));
    free(s);

    o.with_lines = 1;
    o.lines = 5;
    o.malformed_lines = 2;
    s = render(&f, RA_REPORT_PROMETHEUS, &o, &n);
    prom_check(s, n, NULL);
    assert_non_null(strstr(s, "robots_audit_log_lines_total{result=\"parsed\"}"
                              " 3\n"));
    free(s);
}

/* Robots_info's labels do not change with the file
 * (its size and age are gauges of their own); "requests judged" counts
 * crawlers' */
/* How each verification was decided: "verified_by" per
 * crawler in JSON, the method label of robots_audit_requests_total, the
 * status page's column; none decided: null, "none", a dash. */
static void
test_verified_by(void **state)
{
    fixture_t         f;
    ra_report_opts_t  o;
    char             *s;
    size_t            n;

    (void) state;
    fixture(&f);
    f.stats[0].verified_by = RA_VERIFIED_BY_RANGES;
    f.stats[1].verified_by = RA_VERIFIED_BY_RDNS;
    f.stats[4].verified_by = 200;                   /* corrupt: none */
    f.vios[1].verification = RA_VERIFY_VERIFIED;
    f.vios[1].verified_by = RA_VERIFIED_BY_RANGES;
    memset(&o, 0, sizeof(o));
    s = render(&f, RA_REPORT_JSON, &o, &n);
    assert_non_null(strstr(s, "\"verification\":\"verified\","
                              "\"verified_by\":\"ranges\","));
    assert_non_null(strstr(s, "\"verification\":\"impostor\","
                              "\"verified_by\":\"rdns\","));
    assert_non_null(strstr(s, "\"verification\":\"unverifiable\","
                              "\"verified_by\":null,"));
    assert_null(strstr(s, "\"verified_by\":\"\""));
    /* recent violations: the method that decided it, last */
    assert_non_null(strstr(s, "\"line\":2,\"verified_by\":\"ranges\",\"robots_sha256\":"));
    assert_non_null(strstr(s, "\"line\":2,\"verified_by\":null,\"robots_sha256\":"));
    free(s);

    s = render(&f, RA_REPORT_PROMETHEUS, &o, &n);
    prom_check(s, n, NULL);
    assert_non_null(strstr(s, ",crawler=\"Googlebot\",verification=\""
                              "verified\",method=\"ranges\",verdict=\""
                              "violation\"} 13\n"));
    /* sums of records have no one method */
    assert_non_null(strstr(s, ",crawler=\"unverified\",verification=\""
                              "impostor\",method=\"none\",verdict=\""
                              "violation\"} 4\n"));
    assert_non_null(strstr(s, ",crawler=\"unverified\",verification=\""
                              "unverifiable\",method=\"none\",verdict=\""));
    free(s);

    s = render(&f, RA_REPORT_HTML, &o, &n);
    assert_non_null(strstr(s, "<th class=\"x\">verification</th><th "
                              "class=\"x\" title=\"how the verification "
                              "was decided\">verified by</th>"));
    assert_non_null(strstr(s, ">verified</td><td class=\"x\">ranges</td>"));
    assert_non_null(strstr(s, ">impostor</td><td class=\"x\">rdns</td>"));
    assert_non_null(strstr(s, ">unverifiable</td><td class=\"x muted\">"
                              "&ndash;</td>"));
    assert_non_null(strstr(s, "<span class=\"muted\">verified (ranges)"
                              "</span>"));
    assert_non_null(strstr(s, "<span class=\"muted\">unverifiable</span>"));
    free(s);
}

static ra_str_t
lit(const char *s)
{
    return ra_str(s, strlen(s));
}

/* Each loaded range file's age, at opts.now: a gauge per
 * file, JSON "ranges", a line of the page with the stale ones marked; a
 * file of unknown time has no sample and null ages. */
static void
test_range_ages(void **state)
{
    fixture_t         f;
    ra_report_opts_t  o;
    ra_test_arena_t  *ar = ra_test_arena_new();
    ra_ranges_t      *rg = ra_ranges_create(ra_test_arena_alloc(ar));
    ra_json_err_t     err;
    json_walk_t       w;
    char             *s;
    size_t            n;
    int64_t           now = 1431857103000LL + 10 * 86400000LL;

    (void) state;
    assert_non_null(rg);
    assert_int_equal(ra_ranges_add_json(rg, ra_str("fresh.json", 10),
        lit("{\"prefixes\":[{\"ipv4Prefix\":\"192.0.2.0/24\"}]}"),
        &err), RA_OK);
    ra_ranges_set_mtime(rg, 0, now - 3600000);
    assert_int_equal(ra_ranges_add_json(rg, ra_str("o\"ld<.json", 10),
        lit("{\"prefixes\":[{\"ipv4Prefix\":\"10.0.0.0/8\"},"
                         "{\"ipv4Prefix\":\"12.0.0.0/8\"}]}"), &err), RA_OK);
    ra_ranges_set_mtime(rg, 1, now - 9 * 86400000LL);
    assert_int_equal(ra_ranges_add_json(rg, ra_str("unknown.json", 12),
        lit("{\"prefixes\":[{\"ipv4Prefix\":\"11.0.0.0/8\"}]}"),
        &err), RA_OK);

    fixture(&f);
    memset(&o, 0, sizeof(o));
    o.now = now;
    o.ranges = rg;
    s = render(&f, RA_REPORT_PROMETHEUS, &o, &n);
    prom_check(s, n, NULL);
    assert_non_null(strstr(s, "# TYPE robots_audit_ranges_age_seconds gauge\n"
                              "robots_audit_ranges_age_seconds{file=\""
                              "fresh.json\"} 3600\n"
                              "robots_audit_ranges_age_seconds{file=\""
                              "o\\\"ld<.json\"} 777600\n#"));
    assert_null(strstr(s, "unknown.json"));
    free(s);

    s = render(&f, RA_REPORT_JSON, &o, &n);
    memset(&w, 0, sizeof(w));
    assert_int_equal(ra_json_parse(ra_str(s, n - 1), json_ev, &w, &err),
                     RA_OK);
    assert_non_null(strstr(s, "\"ranges\":[{\"file\":\"fresh.json\","
                              "\"intervals\":1,\"modified\":\"2015-05-27T"));
    assert_non_null(strstr(s, "\"age_seconds\":3600,\"stale\":false},"
                              "{\"file\":\"o\\\"ld\\u003c.json\","
                              "\"intervals\":2,"));
    assert_non_null(strstr(s, "\"age_seconds\":777600,\"stale\":true},"
                              "{\"file\":\"unknown.json\",\"intervals\":1,"
                              "\"modified\":null,\"age_seconds\":null,"
                              "\"stale\":false}],\"sites\":["));
    free(s);

    s = render(&f, RA_REPORT_HTML, &o, &n);
    assert_non_null(strstr(s, "<p class=\"muted\">IP-range files: <code>"
                              "fresh.json</code> 1 h old, <code>o&quot;ld"
                              "&lt;.json</code> <span class=\"bad\""));
    assert_non_null(strstr(s, ">9 days old</span>, <code>unknown.json</code>"
                              " (age unknown)</p>"));
    free(s);

    /* none given: nothing of it */
    o.ranges = NULL;
    s = render(&f, RA_REPORT_PROMETHEUS, &o, &n);
    assert_null(strstr(s, "robots_audit_ranges_age_seconds"));
    free(s);
    ra_test_arena_free(ar);
}

static void
test_metrics_stable(void **state)
{
    fixture_t         f;
    ra_report_opts_t  o;
    char             *s, *t;
    size_t            n;

    (void) state;
    fixture(&f);
    memset(&o, 0, sizeof(o));
    o.now = f.sites[0].last_seen;
    f.sites[0].versions[1].first_seen = o.now - 90000;
    s = render(&f, RA_REPORT_PROMETHEUS, &o, &n);
    prom_check(s, n, NULL);
    assert_null(strstr(s, "bytes=\""));
    assert_non_null(strstr(s, ",status=\"200\",content_type=\"text/html"));
    t = strstr(s, "\nrobots_audit_robots_bytes{site=\"<script>");
    assert_non_null(t);
    assert_non_null(strstr(t, "} 33\n"));
    assert_non_null(strstr(s, "\nrobots_audit_robots_version_age_seconds{"
                              "site=\"<script>"));
    assert_non_null(strstr(s, "\"} 90\n"));
    assert_non_null(strstr(s, "robots_audit_robots_unreachable_30d{site=\""
                              "example.com\"} 0\n"));
    assert_non_null(strstr(s, "robots_audit_judged_requests_total 900\n"));
    /* another edit of the file: the same series */
    f.sites[0].versions[1].size = 285;
    t = render(&f, RA_REPORT_PROMETHEUS, &o, &n);
    {
        const char  *a = strstr(s, "\nrobots_audit_robots_info{");
        const char  *b = strstr(t, "\nrobots_audit_robots_info{");

        assert_non_null(a);
        assert_non_null(b);
        assert_int_equal(strcspn(a + 1, "\n"), strcspn(b + 1, "\n"));
        assert_memory_equal(a, b, strcspn(a + 1, "\n"));
    }
    free(t);
    free(s);

    s = render(&f, RA_REPORT_HTML, &o, &n);
    assert_non_null(strstr(s, "900 crawler requests judged (999 requests in "
                              "all)"));
    free(s);
    s = render(&f, RA_REPORT_JSON, &o, &n);
    assert_non_null(strstr(s, "\"ledger\":{\"requests\":999,"
                              "\"crawler_requests\":900,"));
    free(s);
}

/* The 30-day phase on the status page, and
 * politeness beside the Crawl-delay in every format */
static void
test_phase_and_politeness(void **state)
{
    fixture_t         f;
    ra_report_opts_t  o;
    char             *s;
    size_t            n;
    int               i;
    int64_t           now;

    (void) state;
    fixture(&f);
    memset(&o, 0, sizeof(o));
    now = f.sites[0].last_seen;
    now -= now % 60000;
    o.now = now + 8000;
    f.sites[1].robots_status = 503;
    f.sites[1].failing_since = now - RA_UNREACHABLE_30D_MS - 1;
    f.sites[1].pages_answered = now - 1000;
    f.sites[1].failures = 40;
    /* bingbot: 3 requests 4 s apart in one minute; Crawl-delay 10 s; the
     * median of gaps in [4 s, 8 s) reads within that bin */
    for (i = 0; i < 3; i++) {
        ra_polite_add(&f.stats[4].polite, now + i * 4000);
    }
    f.stats[4].crawl_delay_ms = 10000;
    /* crawlers that ignore robots.txt would outrank the phase's badge */
    f.stats[4].counters[RA_CNT_VIOLATION] = 0;

    s = render(&f, RA_REPORT_JSON, &o, &n);
    assert_non_null(strstr(s, "\"unreachable_30d\":true"));
    assert_non_null(strstr(s, "\"unreachable_30d\":false"));
    assert_non_null(strstr(s, "\"crawler\":\"bingbot\""));
    assert_non_null(strstr(s, "\"peak_per_minute\":3,\"median_gap_ms\":5333,"));
    assert_non_null(strstr(s, "\"crawl_delay_ms\":10000"));
    assert_non_null(strstr(s, "\"peak_per_minute\":0,\"median_gap_ms\":null,"
                              "\"crawl_delay_ms\":null"));
    free(s);

    s = render(&f, RA_REPORT_HTML, &o, &n);
    assert_non_null(strstr(s, "unreachable_30d: robots.txt failing (503) for "
                              "30 days"));
    assert_non_null(strstr(s, "median gap</th>"));
    assert_non_null(strstr(s, "<td class=\"n x\">3</td><td class=\"n x "
                              "bad\">"));
    assert_non_null(strstr(s, "</td><td class=\"n x\">10.0s</td>"));
    free(s);

    s = render(&f, RA_REPORT_TEXT, &o, &n);
    assert_non_null(strstr(s, "unreachable_30d: robots.txt has failed since"));
    assert_non_null(strstr(s, "peak/min gap        crawl-delay\n"));
    assert_non_null(strstr(s, "        3 5.3s      10.0s\n"));
    assert_non_null(strstr(s, "10.0s\n"));
    free(s);

    /* its pages silent for a day: not the phase */
    f.sites[1].pages_answered = o.now - 24 * 3600000LL;
    s = render(&f, RA_REPORT_JSON, &o, &n);
    assert_null(strstr(s, "\"unreachable_30d\":true"));
    free(s);
}

static void
test_text(void **state)
{
    fixture_t         f;
    ra_report_opts_t  o;
    char             *s;
    size_t            n;

    (void) state;
    fixture(&f);
    memset(&o, 0, sizeof(o));
    o.relint = 1;
    o.with_lines = 1;
    o.lines = 7;
    s = render(&f, RA_REPORT_TEXT, &o, &n);
    assert_true(utf8_clean((unsigned char *) s, n, 0));
    assert_null(strchr(s, '\x1b'));
    assert_non_null(strstr(s, "\\x1b[31m\\xff\\xfe"));
    assert_non_null(strstr(s, "7 lines, 0 malformed"));
    assert_non_null(strstr(s, "never fetched"));
    assert_non_null(strstr(s, "2 consecutive failures"));
    free(s);

    /* one crawler row, the rest summed */
    o.max_crawlers = 1;
    s = render(&f, RA_REPORT_TEXT, &o, &n);
    assert_non_null(strstr(s, "(3 others)"));
    free(s);
}

static void
test_empty_and_limits(void **state)
{
    ra_snapshot_t     snap;
    fixture_t         f;
    ra_buf_t          b;
    ra_report_format_e fmt;
    char             *s;
    size_t            n;

    (void) state;
    memset(&snap, 0, sizeof(snap));
    memset(&f, 0, sizeof(f));
    f.snap = snap;
    for (fmt = RA_REPORT_TEXT; fmt <= RA_REPORT_PROMETHEUS; fmt++) {
        s = render(&f, fmt, NULL, &n);
        assert_true(n > 0);
        if (fmt == RA_REPORT_PROMETHEUS) {
            prom_check(s, n, NULL);
        }
        free(s);
    }

    /* a capped buffer says so and stays within its limit */
    fixture(&f);
    ra_buf_init(&b, &ra_malloc_allocator, 0, 300);
    assert_int_equal(ra_report_render(&f.snap, RA_REPORT_HTML, NULL, &b),
                     RA_OK);
    assert_true(b.truncated);
    assert_true(b.len <= 300);
    ra_buf_release(&b);

    assert_int_equal(ra_report_render(&f.snap, (ra_report_format_e) 9, NULL,
                                      &b), RA_ERROR);
    assert_int_equal(ra_report_format_by_name(ra_str("prometheus", 10),
                                              &fmt), RA_OK);
    assert_int_equal(fmt, RA_REPORT_PROMETHEUS);
    assert_int_equal(ra_report_format_by_name(ra_str("xml", 3), &fmt),
                     RA_ERROR);
    assert_non_null(strstr(ra_report_content_type(RA_REPORT_PROMETHEUS),
                           "version=0.0.4"));
}

/* An allocator that fails after a number of allocations. */
typedef struct {
    int  left;
} failing_t;

static void *
failing_alloc(void *ctx, size_t size)
{
    failing_t  *f = ctx;

    if (f->left-- <= 0) {
        return NULL;
    }
    return malloc(size);
}

static void
failing_free(void *ctx, void *p)
{
    (void) ctx;
    free(p);
}

static void
test_enomem(void **state)
{
    fixture_t          f;
    failing_t          fl;
    ra_alloc_t         a = { failing_alloc, failing_free, &fl };
    ra_report_opts_t   o;
    ra_buf_t           b;
    int                i, rc, fmt, ok = 0;

    (void) state;
    fixture(&f);
    for (fmt = 0; fmt < 4; fmt++) {
        for (i = 0; i < 40; i++) {
            memset(&o, 0, sizeof(o));
            o.relint = 1;
            o.scratch = &a;
            fl.left = i;
            ra_buf_init(&b, &ra_malloc_allocator, 0, 0);
            rc = ra_report_render(&f.snap, (ra_report_format_e) fmt, &o, &b);
            assert_true(rc == RA_OK || rc == RA_ENOMEM);
            ok += rc == RA_OK;
            ra_buf_release(&b);
        }
    }
    assert_true(ok > 0);
}


/* mod_status: the ?auto lines, from totals alone or a snapshot */
static void
test_status_kv(void **state)
{
    fixture_t         f;
    ra_totals_t       t;
    ra_buf_t          b;
    char             *s;
    size_t            n;

    (void) state;
    memset(&t, 0, sizeof(t));
    t.requests = 12345678901ULL;
    t.violations_total = 7;
    t.sites = 3;
    t.stats = 41;
    t.site_evictions = 2;
    t.stat_evictions = 5;
    ra_buf_init(&b, &ra_malloc_allocator, 0, 0);
    ra_report_status_kv(&t, &b);
    assert_false(b.failed);
    ra_buf_ch(&b, '\0');
    assert_string_equal((char *) b.data,
                        "RobotsAuditRequests: 12345678901\n"
                        "RobotsAuditCrawlerRequests: 0\n"
                        "RobotsAuditViolations: 7\n"
                        "RobotsAuditSites: 3\n"
                        "RobotsAuditCrawlerRecords: 41\n"
                        "RobotsAuditSiteEvictions: 2\n"
                        "RobotsAuditCrawlerEvictions: 5\n");
    ra_buf_release(&b);

    fixture(&f);
    s = render(&f, RA_REPORT_STATUS_KV, NULL, &n);
    assert_string_equal(s, "RobotsAuditRequests: 999\n"
                           "RobotsAuditCrawlerRequests: 900\n"
                           "RobotsAuditViolations: 0\n"
                           "RobotsAuditSites: 2\n"
                           "RobotsAuditCrawlerRecords: 6\n"
                           "RobotsAuditSiteEvictions: 0\n"
                           "RobotsAuditCrawlerEvictions: 4\n");
    free(s);
}

/* mod_status: the HTML fragment, site names escaped */
static void
test_status_html(void **state)
{
    fixture_t         f;
    ra_report_opts_t  o;
    char             *s;
    size_t            n;

    (void) state;
    fixture(&f);
    s = render(&f, RA_REPORT_STATUS_HTML, NULL, &n);
    assert_true(utf8_clean((unsigned char *) s, n, 0));
    assert_null(strstr(s, "<script"));
    assert_string_equal(s,
        "<hr /><h2>robots-audit</h2>\n"
        "<dl><dt>900 crawler requests judged (999 in all), 0 violations, "
        "2 sites, 6 crawler "
        "records; evictions: 0 sites, 4 crawler records</dt></dl>\n"
        "<table border=\"0\"><tr><th>site</th><th>robots.txt</th>"
        "<th>crawler requests</th><th>compliant</th><th>violation</th>"
        "<th>stale</th><th>unreachable</th><th>browser requests</th></tr>\n"
        "<tr><td>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;\\x01"
        "\\x1b[31m\\xff\\xfe\\xc3(\\&#39;&amp;\\x0a</td><td>200</td>"
        "<td>123</td><td>0</td><td>0</td><td>0</td><td>0</td><td>456</td>"
        "</tr>\n"
        "<tr><td>example.com</td><td>0</td><td>0</td><td>0</td><td>0</td>"
        "<td>0</td><td>0</td><td>0</td></tr>\n"
        "</table>\n");
    free(s);

    /* ?notable: the totals only */
    memset(&o, 0, sizeof(o));
    o.no_table = 1;
    s = render(&f, RA_REPORT_STATUS_HTML, &o, &n);
    assert_null(strstr(s, "<table"));
    assert_non_null(strstr(s, "crawler records</dt></dl>\n"));
    free(s);

    /* neither is a status-page format */
    assert_int_equal(ra_report_format_by_name(ra_str("status_kv", 9),
                                              &(ra_report_format_e) { 0 }),
                     RA_ERROR);
    assert_int_equal(ra_report_format_by_name(ra_str("auto", 4),
                                              &(ra_report_format_e) { 0 }),
                     RA_ERROR);
    assert_int_equal(ra_report_format_by_name(ra_str("status", 6),
                                              &(ra_report_format_e) { 0 }),
                     RA_ERROR);
}

/* AI-preference lines and policy tokens, per site, as policy */
static void
test_prefs(void **state)
{
    static const char   body[] =
        "User-agent: *\nContent-Signal: search=yes, ai-train=no\n"
        "Content-Usage: /<script>x train-ai=n\nDisallow: /x\n\n"
        "User-agent: Google-Extended\nDisallow: /\n";
    fixture_t           f;
    ra_report_opts_t    o;
    ra_test_arena_t    *ar = ra_test_arena_new();
    ra_crawlers_t      *t = ra_crawlers_create(ra_test_arena_alloc(ar));
    ra_crawlers_err_t   err;
    char               *s;
    size_t              n;

    (void) state;
    assert_int_equal(ra_crawlers_add_builtin(t, &err), RA_OK);
    assert_int_equal(ra_crawlers_compile(t, &err), RA_OK);
    fixture(&f);
    f.bodies[0] = ra_str(body, sizeof(body) - 1);
    memset(&o, 0, sizeof(o));
    o.relint = 1;
    o.crawlers = t;
    s = render(&f, RA_REPORT_HTML, &o, &n);
    assert_non_null(strstr(s, "<dt>AI preferences</dt><dd><code>"
                              "Content-Signal: search=yes, ai-train=no"
                              "</code>"));
    assert_non_null(strstr(s, "Content-Usage: /&lt;script&gt;x "
                              "train-ai=n"));
    assert_null(strstr(s, "<script>"));
    assert_non_null(strstr(s, "<dt>policy tokens</dt><dd><code>"
                              "Google-Extended</code>"));
    assert_non_null(strstr(s, "policy, controls use of content for "
                              "training Gemini"));
    free(s);
    s = render(&f, RA_REPORT_TEXT, &o, &n);
    assert_non_null(strstr(s, "  AI preferences: Content-Signal: "
                              "search=yes, ai-train=no for * (line 2)"));
    assert_non_null(strstr(s, "  policy tokens (no crawler fetches with "
                              "them): Google-Extended (line 6)"));
    free(s);

    /* without a table the policy token is not named, the lines still are */
    o.crawlers = NULL;
    s = render(&f, RA_REPORT_TEXT, &o, &n);
    assert_non_null(strstr(s, "AI preferences: "));
    assert_null(strstr(s, "policy tokens"));
    free(s);
    ra_test_arena_free(ar);
}

/* Purposes, crawl-to-refer, llms.txt fetches and AI-preference
 * lines in every format */
static void
test_purpose_referrals_llms(void **state)
{
    static const char   body[] =
        "User-agent: *\nContent-Signal: search=yes, ai-train=no\n"
        "Disallow: /x\n\nUser-agent: Google-Extended\nDisallow: /\n";
    fixture_t           f;
    ra_report_opts_t    o;
    ra_test_arena_t    *ar = ra_test_arena_new();
    ra_crawlers_t      *t = ra_crawlers_create(ra_test_arena_alloc(ar));
    ra_crawlers_err_t   err;
    ra_json_err_t       jerr;
    json_walk_t         w;
    char               *s;
    size_t              n;

    (void) state;
    assert_int_equal(ra_crawlers_add_builtin(t, &err), RA_OK);
    assert_int_equal(ra_crawlers_compile(t, &err), RA_OK);
    fixture(&f);
    f.stats[4].category = RA_CAT_AI_USER;            /* bingbot, here */
    /* the referrer table's operators 0 (Google) and 2 (DuckDuckGo) */
    f.sites[1].referrals[0] = 7;
    f.sites[1].referral_crawls[0] = 20;
    f.sites[1].referrals[2] = 3;
    f.sites[0].referral_crawls[1] = 5;               /* Microsoft */
    /* the sites' own sums by purpose, which the ledger keeps (the
     * records may be gone): not the records' */
    f.sites[0].purpose_requests[RA_CAT_SEARCH] = 100;
    f.sites[1].purpose_requests[RA_CAT_AI_USER] = 20;
    f.sites[1].purpose_requests[RA_CAT_FEED] = 4;
    f.bodies[1] = ra_str(body, sizeof(body) - 1);
    f.sites[1].nversions = 1;
    f.sites[1].versions[0].hash = 9;
    f.sites[1].versions[0].answer = RA_ANSWER_RULES;
    f.sites[1].versions[0].status = 200;
    memset(&o, 0, sizeof(o));
    o.relint = 1;
    o.crawlers = t;

    s = render(&f, RA_REPORT_JSON, &o, &n);
    memset(&w, 0, sizeof(w));
    assert_int_equal(ra_json_parse(ra_str(s, n - 1), json_ev, &w, &jerr),
                     RA_OK);
    assert_non_null(strstr(s, "\"crawler\":\"Googlebot\",\"token\":"
                              "\"Googlebot\",\"kind\":\"known\","
                              "\"category\":\"search\",\"purpose\":"
                              "\"search\""));
    assert_non_null(strstr(s, "\"category\":\"ai-user\",\"purpose\":"
                              "\"ai-user\""));
    assert_non_null(strstr(s, "\"kind\":\"generic\",\"category\":null,"
                              "\"purpose\":null"));
    assert_non_null(strstr(s, "\"referrals\":[{\"operator\":\"Google\","
                              "\"referrals\":7,\"crawler_requests\":20},"
                              "{\"operator\":\"DuckDuckGo\",\"referrals\""
                              ":3,\"crawler_requests\":0}]"));
    assert_non_null(strstr(s, "\"referrals\":[{\"operator\":\"Microsoft\""
                              ",\"referrals\":0,\"crawler_requests\":5}]"));
    assert_non_null(strstr(s, "\"llms_fetches\":25"));
    assert_non_null(strstr(s, "\"ai_preferences\":[{\"kind\":"
                              "\"content-signal\",\"value\":\"search=yes,"
                              " ai-train=no\",\"group\":\"*\",\"line\":2}]"
                              ",\"policy_tokens\":[{\"token\":"
                              "\"Google-Extended\",\"controls\":"
                              "\"training Gemini"));
    free(s);

    s = render(&f, RA_REPORT_HTML, &o, &n);
    assert_non_null(strstr(s, "<th class=\"x\">token</th><th class=\"x\">"
                              "purpose</th>"));
    assert_non_null(strstr(s, "</code></td><td class=\"x\">search</td>"));
    assert_non_null(strstr(s, "</code></td><td class=\"x\">ai-user</td>"));
    assert_non_null(strstr(s, "title=\"requests for /llms.txt or "
                              "/llms-full.txt\">llms.txt</th>"));
    assert_non_null(strstr(s, "<h3>crawl-to-refer</h3>"));
    assert_non_null(strstr(s, "<tr><td>Google</td><td class=\"n\">7</td>"
                              "<td class=\"n\">20</td><td class=\"n\">2.9"
                              "</td></tr>"));
    assert_non_null(strstr(s, "<tr><td>DuckDuckGo</td><td class=\"n\">3"
                              "</td><td class=\"n\">0</td><td class=\"n\">"
                              "0.0</td></tr>"));
    assert_non_null(strstr(s, "<tr><td>Microsoft</td><td class=\"n\">0"
                              "</td><td class=\"n\">5</td><td class=\"n\">"
                              "-</td></tr>"));
    free(s);

    s = render(&f, RA_REPORT_TEXT, &o, &n);
    assert_non_null(strstr(s, "  crawl-to-refer: Google 7 referrals / 20 "
                              "crawler requests, DuckDuckGo 3 referrals / 0 "
                              "crawler requests\n"));
    free(s);

    s = render(&f, RA_REPORT_PROMETHEUS, &o, &n);
    prom_check(s, n, NULL);
    assert_non_null(strstr(s, "\nrobots_audit_referrals_total{site="
                              "\"example.com\",operator=\"Google\"} 7\n"));
    assert_non_null(strstr(s, "\nrobots_audit_referral_crawler_requests_total"
                              "{site=\"example.com\",operator=\"Google\"} "
                              "20\n"));
    assert_non_null(strstr(s, ",purpose=\"search\"} 100\n"));
    assert_non_null(strstr(s, "{site=\"example.com\",purpose=\"ai-user\"} "
                              "20\n"));
    assert_non_null(strstr(s, "{site=\"example.com\",purpose=\"feed\"} "
                              "4\n"));
    /* the verified record's 25; the impostor's 16 under "unverified" */
    assert_non_null(strstr(s, ",crawler=\"Googlebot\"} 25\n"));
    assert_non_null(strstr(s, ",crawler=\"unverified\"} 16\n"));
    assert_non_null(strstr(s, "# TYPE robots_audit_llms_fetches_total "
                              "counter\n"));
    free(s);
    ra_test_arena_free(ar);
}

int
main(void)
{
    const struct CMUnitTest  tests[] = {
        cmocka_unit_test(test_escapers_invisible),
        cmocka_unit_test(test_log_escaper_word_scan),
        cmocka_unit_test(test_html),
        cmocka_unit_test(test_json),
        cmocka_unit_test(test_prometheus),
        cmocka_unit_test(test_verified_by),
        cmocka_unit_test(test_range_ages),
        cmocka_unit_test(test_text),
        cmocka_unit_test(test_metrics_stable),
        cmocka_unit_test(test_phase_and_politeness),
        cmocka_unit_test(test_empty_and_limits),
        cmocka_unit_test(test_enomem),
        cmocka_unit_test(test_status_kv),
        cmocka_unit_test(test_status_html),
        cmocka_unit_test(test_prefs),
        cmocka_unit_test(test_purpose_referrals_llms),
        cmocka_unit_test(test_issue18),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
