/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The undeclared-crawler detector under a client's control: an input is
 * a run of requests to one small table (16 clients, 4 flagged records),
 * each choosing its address among 24 (IPv4, and IPv6 sharing /64s), how
 * far time moves (past the window, too), its User-Agent (eight real
 * browsers' or its own bytes), its path and its Referer; every one is
 * judged against a fixed robots.txt, the whole window counted or not.
 * A request is an op byte (0x80: time jumps past the window; 0x08,
 * 0x10, 0x20: its own User-Agent, path, Referer follow as spans), a
 * selector (the browser and the path of the lists; 0x40: the whole
 * window judged; 0x80: a cloud address), the address's byte and the
 * time's step.  Invariants, after every request: the table still passes its own check
 * (lists and chains whole, every link in range), it holds no more
 * clients and records than it was made for, a shared address is neither
 * flagged nor judged, a verdict names a record that exists, and a
 * record keeps at most its User-Agents' bytes.
 */
#include "fuzz.h"
#include "ra_rules.h"
#include "ra_undeclared.h"

#define FZ_CLIENTS  16
#define FZ_RECORDS  4

static const char *const  fz_uas[] = {
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, "
    "like Gecko) Chrome/131.0.0.0 Safari/537.36",
    "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) Version/18.1 Safari/605.1.15",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) "
    "AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 "
    "Safari/604.1",
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, "
    "like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
    "Mozilla/5.0 (Windows NT 10.0; rv:91.0) Gecko/20100101 Firefox/133.0",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, "
    "like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/131.0.0.0",
    "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, "
    "like Gecko) Chrome/131.0.0.0 Safari/537.36",
};

static const char *const  fz_paths[] = {
    "/robots.txt", "/p/secret", "/s/site.css", "/app.js", "/a.png",
    "/article-1", "/article-2", "/feed.xml",
};

static void
fz_addr(unsigned b, uint8_t addr[16])
{
    memset(addr, 0, 16);
    if (b % 24 < 16) {
        addr[10] = addr[11] = 0xff;         /* IPv4 mapped */
        addr[12] = 198;
        addr[13] = 51;
        addr[14] = 100;
        addr[15] = (uint8_t) (b % 24);
    } else {
        addr[0] = 0x20;                     /* 2001:db8:0:N::x */
        addr[1] = 0x01;
        addr[2] = 0x0d;
        addr[3] = 0xb8;
        addr[7] = (uint8_t) (b % 3);
        addr[15] = (uint8_t) b;
    }
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char     robots[] = "User-agent: *\nDisallow: /p\n"
                                     "Allow: /p/ok\n";
    fz_in_t               in = { data, size };
    size_t                tsize = ra_undecl_size(FZ_CLIENTS, FZ_RECORDS);
    void                 *mem = aligned_alloc(64, (tsize + 63) & ~(size_t) 63);
    ra_undecl_t          *t;
    ra_rules_t           *rules = NULL;
    ra_undecl_req_t       r;
    ra_undecl_verdict_t   v;
    ra_undecl_rec_t      *rec;
    int64_t               now = 1700000000000LL;
    unsigned              op, sel, i, n = 0;
    uint32_t              k;

    FZ_CHECK(mem != NULL);
    t = ra_undecl_init(mem, tsize, FZ_CLIENTS, FZ_RECORDS);
    FZ_CHECK(t != NULL);
    FZ_CHECK(ra_rules_compile(ra_str(robots, sizeof(robots) - 1),
                              &ra_malloc_allocator, &rules, NULL) == RA_OK);

    while (in.left > 0 && n++ < 512) {
        op = fz_byte(&in);
        sel = fz_byte(&in);
        memset(&r, 0, sizeof(r));
        fz_addr(fz_byte(&in), r.addr);
        /* a second at most, or a jump past the window */
        now += (op & 0x80) ? RA_UNDECL_WINDOW_MS + fz_u16(&in)
                           : (int64_t) fz_u16(&in) / 64;
        r.time_ms = now;
        r.user_agent = (op & 0x08) ? fz_span(&in, 200)
                                   : ra_str_z(fz_uas[sel & 7]);
        r.path = (op & 0x10) ? fz_span(&in, 80)
                             : ra_str_z(fz_paths[(sel >> 3) & 7]);
        r.referer = (op & 0x20) ? fz_span(&in, 80) : ra_str("", 0);
        r.cloud = (sel & 0x80) != 0;
        ra_undecl_judge(t, rules, &r, ra_str("GET", 3), (sel & 0x40) != 0,
                        &ra_malloc_allocator, &v);

        FZ_CHECK(ra_undecl_check(mem, tsize, FZ_CLIENTS, FZ_RECORDS));
        FZ_CHECK(ra_undecl_clients(t) <= FZ_CLIENTS);
        FZ_CHECK(ra_undecl_records(t) <= FZ_RECORDS);
        FZ_CHECK(v.verdict <= RA_UNDECL_V_ROBOTS);
        if (v.shared) {
            FZ_CHECK(v.hit.rec == 0 && v.verdict == RA_UNDECL_V_NONE);
        }
        if (v.hit.rec == 0) {
            FZ_CHECK(v.verdict == RA_UNDECL_V_NONE && !v.hit.flagged_now);
            continue;
        }
        FZ_CHECK(v.hit.rec <= ra_undecl_records(t));
        rec = ra_undecl_record(t, v.hit.rec - 1);
        FZ_CHECK(rec->entry != 0 && rec->requests != 0);
        FZ_CHECK(!(rec->signals & RA_UNDECL_SIG_SHARED)
                 || rec->score >= RA_UNDECL_THRESHOLD);
        FZ_CHECK(rec->nuas <= RA_UNDECL_UAS);
        for (k = 0; k < rec->nuas; k++) {
            FZ_CHECK(rec->ua_len[k] <= RA_UNDECL_UA_MAX);
        }
    }
    /* every record's client, as shown, fits its buffer */
    for (i = 0; i < ra_undecl_records(t); i++) {
        char  client[48];

        rec = ra_undecl_record(t, i);
        FZ_CHECK(ra_undecl_client(rec->addr, client) < sizeof(client));
    }
    ra_rules_free(rules);
    free(mem);
    return 0;
}
