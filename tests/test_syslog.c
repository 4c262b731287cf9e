/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The event stream over syslog without nginx (ra_syslog.h): the word read
 * with nginx's syntax and defaults and its mistakes refused, the header
 * framed as nginx frames it, lines sent as datagrams that the collector's
 * reader takes back, a line too long for a datagram dropped and counted
 * as oversize (never sent cut), a full socket dropping and counting, and
 * the counts in the ledger and on every format of the status page.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <unistd.h>

#include "ra_test.h"
#include "ra_digest.h"
#include "ra_events.h"
#include "ra_ledger.h"
#include "ra_report.h"
#include "ra_syslog.h"

#define T0  (1700000000000LL)

static ra_str_t
S(const char *s)
{
    return ra_str(s, strlen(s));
}

/* Does got[0..n) hold needle? */
static int
has(const unsigned char *got, size_t n, const char *needle)
{
    size_t  k = strlen(needle), i;

    for (i = 0; i + k <= n; i++) {
        if (memcmp(got + i, needle, k) == 0) {
            return 1;
        }
    }
    return 0;
}

/* parses word; the message, when it fails, in why */
static int
parse(ra_syslog_t *s, const char *word, char *why, size_t cap)
{
    ra_buf_t  msg;
    int       rc;

    ra_buf_init(&msg, &ra_malloc_allocator, 0, 1024);
    rc = ra_syslog_parse(s, S(word), "httpd", &msg);
    (void) snprintf(why, cap, "%.*s", (int) msg.len,
                    msg.data ? (const char *) msg.data : "");
    ra_buf_release(&msg);
    return rc;
}

static void
parse_words(void **state)
{
    ra_syslog_t          s;
    char                 why[256];
    struct sockaddr_in  *in = (struct sockaddr_in *) &s.addr;
    struct sockaddr_un  *un = (struct sockaddr_un *) &s.addr;

    (void) state;
    /* nginx's defaults: port 514, local7, info; the tag the caller's */
    assert_int_equal(parse(&s, "syslog:server=127.0.0.1", why, sizeof(why)),
                     RA_OK);
    assert_int_equal(in->sin_family, AF_INET);
    assert_int_equal(ntohs(in->sin_port), 514);
    assert_int_equal(s.facility, 23);
    assert_int_equal(s.severity, 6);
    assert_string_equal(s.tag, "httpd");
    assert_false(s.nohostname);
    assert_false(s.open);

    assert_int_equal(parse(&s, "syslog:server=127.0.0.1:5514,tag=robots_"
                           "audit,facility=daemon,severity=notice,nohostname",
                           why, sizeof(why)), RA_OK);
    assert_int_equal(ntohs(in->sin_port), 5514);
    assert_string_equal(s.tag, "robots_audit");
    assert_int_equal(s.facility, 3);
    assert_int_equal(s.severity, 5);
    assert_true(s.nohostname);

    assert_int_equal(parse(&s, "syslog:server=[::1]:6514", why, sizeof(why)),
                     RA_OK);
    assert_int_equal(s.addr.ss_family, AF_INET6);
    assert_int_equal(parse(&s, "SYSLOG:server=unix:/run/ra.sock", why,
                           sizeof(why)), RA_OK);
    assert_int_equal(un->sun_family, AF_UNIX);
    assert_string_equal(un->sun_path, "/run/ra.sock");

    /* refused, each with its reason */
    assert_int_equal(parse(&s, "syslog:tag=x", why, sizeof(why)), RA_ERROR);
    assert_non_null(strstr(why, "no syslog server"));
    assert_int_equal(parse(&s, "syslog:server=1.2.3.4:0", why, sizeof(why)),
                     RA_ERROR);
    assert_int_equal(parse(&s, "syslog:server=1.2.3.4:65536", why,
                           sizeof(why)), RA_ERROR);
    assert_int_equal(parse(&s, "syslog:server=1.2.3.4:x", why, sizeof(why)),
                     RA_ERROR);
    assert_int_equal(parse(&s, "syslog:server=[::1", why, sizeof(why)),
                     RA_ERROR);
    assert_int_equal(parse(&s, "syslog:server=1.2.3.4,tag=a-b", why,
                           sizeof(why)), RA_ERROR);
    assert_non_null(strstr(why, "tag"));
    assert_int_equal(parse(&s, "syslog:server=1.2.3.4,tag=aaaaaaaaaaaaaaaaa"
                           "aaaaaaaaaaaaaaaaa", why, sizeof(why)), RA_ERROR);
    assert_int_equal(parse(&s, "syslog:server=1.2.3.4,facility=local9", why,
                           sizeof(why)), RA_ERROR);
    assert_non_null(strstr(why, "local9"));
    assert_int_equal(parse(&s, "syslog:server=1.2.3.4,severity=loud", why,
                           sizeof(why)), RA_ERROR);
    assert_int_equal(parse(&s, "syslog:server=1.2.3.4,colour=red", why,
                           sizeof(why)), RA_ERROR);
    assert_non_null(strstr(why, "colour"));
    assert_int_equal(parse(&s, "/var/log/events", why, sizeof(why)),
                     RA_ERROR);
    assert_true(ra_syslog_is(S("syslog:server=x")));
    assert_false(ra_syslog_is(S("|logger")));
}

static void
header_frame(void **state)
{
    ra_syslog_t  s;
    char         why[256], head[RA_SYSLOG_HEADER_MAX];
    size_t       n;
    ra_str_t     obj;

    (void) state;
    assert_int_equal(parse(&s, "syslog:server=127.0.0.1,tag=ra", why,
                           sizeof(why)), RA_OK);
    memcpy(s.host, "web1", 5);
    /* 2023-11-14 22:13:20 UTC: the month, the day padded with a space,
     * the time, the host and the tag, as nginx writes them */
    setenv("TZ", "UTC", 1);
    n = ra_syslog_header(&s, 1700000000, head);
    assert_int_equal(n, strlen("<190>Nov 14 22:13:20 web1 ra: "));
    assert_memory_equal(head, "<190>Nov 14 22:13:20 web1 ra: ", n);
    n = ra_syslog_header(&s, 1699000000, head);
    assert_memory_equal(head, "<190>Nov  3 08:26:40 web1 ra: ", n);
    s.nohostname = 1;
    n = ra_syslog_header(&s, 1700000000, head);
    assert_memory_equal(head, "<190>Nov 14 22:13:20 ra: ", n);
    /* the collector finds the object after it */
    obj = ra_events_unframe(S("<190>Nov 14 22:13:20 ra: {\"ev\":\"req\"}"));
    assert_int_equal(obj.len, strlen("{\"ev\":\"req\"}"));
}

/* a UDP socket on loopback, its port in *port */
static int
udp_listener(unsigned *port)
{
    struct sockaddr_in  a;
    socklen_t           len = sizeof(a);
    int                 fd = socket(AF_INET, SOCK_DGRAM, 0);

    assert_true(fd >= 0);
    memset(&a, 0, sizeof(a));
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(bind(fd, (struct sockaddr *) &a, sizeof(a)), 0);
    assert_int_equal(getsockname(fd, (struct sockaddr *) &a, &len), 0);
    *port = ntohs(a.sin_port);
    return fd;
}

static void
request_of(ra_request_t *r, ra_verdict_t *v)
{
    memset(r, 0, sizeof(*r));
    memset(v, 0, sizeof(*v));
    r->time = T0;
    r->site = S("a.example");
    r->addr = S("66.249.66.1");
    r->user_agent = S("Googlebot/2.1");
    r->method = S("GET");
    r->uri = S("/private/x");
    r->status = 200;
}

/* w, an event writer through the syslog peer s of word, as a server sets
 * one up */
static void
writer_to(ra_events_t *w, ra_syslog_t *s, const char *word)
{
    char  why[256];

    assert_int_equal(parse(s, word, why, sizeof(why)), RA_OK);
    assert_int_equal(ra_syslog_open(s), RA_OK);
    memset(w, 0, sizeof(*w));
    w->log.file = s;
    w->log.write = ra_syslog_write;
    w->most = RA_EVENTS_DATAGRAM_MAX;
}

static void
udp_round_trip(void **state)
{
    ra_syslog_t     s;
    ra_events_t     w;
    ra_request_t    r;
    ra_verdict_t    v;
    ra_answer_t     ans;
    ra_event_t      ev;
    char            word[64];
    static unsigned char  got[70000], scratch[70000];
    unsigned char  *big;
    unsigned        port;
    ssize_t         n;
    int             fd = udp_listener(&port);

    (void) state;
    (void) snprintf(word, sizeof(word), "syslog:server=127.0.0.1:%u,tag=ra",
                    port);
    writer_to(&w, &s, word);
    request_of(&r, &v);
    assert_int_equal(ra_events_request(&w, &ra_malloc_allocator, &r, &v),
                     RA_EVENTS_SENT);
    n = recv(fd, got, sizeof(got), 0);
    assert_true(n > 0);
    assert_memory_equal(got, "<190>", 5);
    assert_true(has(got, (size_t) n, " ra: {\"ev\":\"req\""));
    /* one datagram, one line: the collector reads it as it came */
    assert_int_equal(got[n - 1], '\n');
    assert_int_equal(ra_events_read(ra_str(got, (size_t) n - 1), scratch,
                                     sizeof(scratch), &ev), RA_OK);
    assert_int_equal(ev.kind, RA_EVENT_REQUEST);
    assert_int_equal(ev.uri.len, strlen("/private/x"));

    /* a robots.txt answer whose body does not fit a datagram: not sent
     * cut, counted as oversize, and its body due again at the next */
    big = malloc(60000);
    assert_non_null(big);
    memset(big, 'a', 60000);
    memcpy(big, "User-agent: *\n#", 15);
    memset(&ans, 0, sizeof(ans));
    ans.status = 200;
    ans.req = &r;
    ans.body = ra_str(big, 60000);
    assert_int_equal(ra_events_robots(&w, &ra_malloc_allocator,
                                      S("a.example"), &ans, T0),
                     RA_EVENTS_OVERSIZE);
    assert_int_equal(w.oversize, 1);
    assert_int_equal(w.written, 1);
    assert_int_equal(recv(fd, got, sizeof(got), MSG_DONTWAIT), -1);
    /* the small answer after it goes, with its body */
    ans.body = S("User-agent: *\nDisallow: /p\n");
    assert_int_equal(ra_events_robots(&w, &ra_malloc_allocator,
                                      S("a.example"), &ans, T0 + 1),
                     RA_EVENTS_SENT);
    n = recv(fd, got, sizeof(got), 0);
    assert_true(n > 0);
    assert_true(has(got, (size_t) n, "\"body\":"));
    free(big);
    ra_syslog_close(&s);
    assert_false(s.open);
    (void) close(fd);
}

static void
full_socket_drops(void **state)
{
    ra_syslog_t         s;
    ra_events_t         w;
    ra_request_t        r;
    ra_verdict_t        v;
    char                word[128];
    char                dir[] = "/tmp/ra-syslog-XXXXXX";
    struct sockaddr_un  un;
    int                 fd, i, sent = 0, dropped = 0, rc;

    (void) state;
    assert_non_null(mkdtemp(dir));
    memset(&un, 0, sizeof(un));
    un.sun_family = AF_UNIX;
    (void) snprintf(un.sun_path, sizeof(un.sun_path), "%s/s", dir);
    (void) snprintf(word, sizeof(word), "syslog:server=unix:%s",
                    un.sun_path);
    writer_to(&w, &s, word);
    request_of(&r, &v);

    /* nobody listens yet: dropped, counted, no wait */
    assert_int_equal(ra_events_request(&w, &ra_malloc_allocator, &r, &v),
                     RA_EVENTS_DROPPED);

    /* a reader that never reads: its queue fills, and then every line is
     * dropped at once */
    fd = socket(AF_UNIX, SOCK_DGRAM, 0);
    assert_true(fd >= 0);
    assert_int_equal(bind(fd, (struct sockaddr *) &un, sizeof(un)), 0);
    for (i = 0; i < 5000; i++) {
        rc = ra_events_request(&w, &ra_malloc_allocator, &r, &v);
        sent += rc == RA_EVENTS_SENT;
        dropped += rc == RA_EVENTS_DROPPED;
    }
    assert_true(sent > 0);
    assert_true(dropped > 0);
    assert_int_equal(sent + dropped, 5000);
    assert_int_equal(w.written, (uint64_t) sent);
    assert_int_equal(w.dropped, (uint64_t) dropped + 1);
    ra_syslog_close(&s);
    (void) close(fd);
    (void) unlink(un.sun_path);
    (void) rmdir(dir);
}

/* the ledger counts every process's lines, and each page shows them */
static void
ledger_and_pages(void **state)
{
    size_t             size = 256 * 1024;
    unsigned char     *region = malloc(size);
    ra_ledger_t        l;
    ra_totals_t        t;
    ra_snapshot_t      snap;
    ra_report_opts_t   o;
    ra_buf_t           b;
    unsigned           k;
    static const ra_report_format_e  fmts[] = {
        RA_REPORT_JSON, RA_REPORT_PROMETHEUS, RA_REPORT_HTML, RA_REPORT_TEXT
    };
    static const char  *const want[] = {
        "\"events\":{\"sent\":3,\"dropped\":2,\"oversize\":1}",
        "robots_audit_events_total{outcome=\"dropped\"} 2\n",
        "3 lines sent, 2 dropped, 1 oversize",
        "event stream: sent 3, dropped 2, oversize 1"
    };

    (void) state;
    assert_non_null(region);
    assert_int_equal(ra_ledger_format(region, size, T0), RA_OK);
    ra_ledger_open(&l, region, NULL);
    memset(&o, 0, sizeof(o));

    /* no stream: the pages are as they were */
    assert_int_equal(ra_ledger_snapshot(&l, &ra_malloc_allocator, 0, &snap),
                     RA_OK);
    ra_buf_init(&b, &ra_malloc_allocator, 0, 1 << 20);
    assert_int_equal(ra_report_render(&snap, RA_REPORT_PROMETHEUS, &o, &b),
                     RA_OK);
    ra_buf_ch(&b, '\0');
    assert_null(strstr((char *) b.data, "robots_audit_events_total"));
    ra_buf_release(&b);
    ra_snapshot_free(&snap, &ra_malloc_allocator);

    for (k = 0; k < 3; k++) {
        ra_ledger_events_count(&l, RA_EVENTS_SENT);
    }
    ra_ledger_events_count(&l, RA_EVENTS_DROPPED);
    ra_ledger_events_count(&l, RA_EVENTS_DROPPED);
    ra_ledger_events_count(&l, RA_EVENTS_OVERSIZE);
    ra_ledger_events_count(&l, 7);          /* no such outcome: ignored */
    ra_ledger_totals(&l, &t);
    assert_int_equal(t.events.lines[RA_EVENTS_SENT], 3);
    assert_int_equal(t.events.lines[RA_EVENTS_DROPPED], 2);
    assert_int_equal(t.events.lines[RA_EVENTS_OVERSIZE], 1);

    assert_int_equal(ra_ledger_snapshot(&l, &ra_malloc_allocator, 0, &snap),
                     RA_OK);
    for (k = 0; k < sizeof(fmts) / sizeof(fmts[0]); k++) {
        ra_buf_init(&b, &ra_malloc_allocator, 0, 1 << 20);
        assert_int_equal(ra_report_render(&snap, fmts[k], &o, &b), RA_OK);
        ra_buf_ch(&b, '\0');
        if (strstr((char *) b.data, want[k]) == NULL) {
            print_message("format %u lacks %s:\n%s\n", k, want[k],
                          (char *) b.data);
            fail();
        }
        ra_buf_release(&b);
    }
    ra_snapshot_free(&snap, &ra_malloc_allocator);
    free(region);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parse_words),
        cmocka_unit_test(header_frame),
        cmocka_unit_test(udp_round_trip),
        cmocka_unit_test(full_socket_drops),
        cmocka_unit_test(ledger_and_pages),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
