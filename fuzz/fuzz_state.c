/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The state file's reader (ra_ledger_file_read()).  A busy ledger (sites,
 * crawler records, robots.txt versions, violations) is saved once; each
 * input patches bytes of that file, header or body, and most often puts
 * the SHA-256 right again, so that the ledger's own structural checks
 * (ra_ledger_check(), ra_ledger_verify()) are what stands between a
 * damaged file and the zone.  Then:
 *   refused   the new region is untouched, byte for byte;
 *   accepted  the ledger verifies, its snapshot renders as JSON and
 *             HTML, and after more requests are counted into it (records
 *             created, found, evicted) it still verifies.
 */
#include <unistd.h>

#include "fuzz.h"
#include "ra_audit.h"
#include "ra_digest.h"
#include "ra_ledger.h"
#include "ra_ledger_file.h"
#include "ra_report.h"

#define FZ_SIZE     (128u * 1024)
#define FZ_HDR      RA_LEDGER_FILE_HEADER
#define FZ_T0       1431857103000LL
#define FZ_PATCHES  16

static ra_crawlers_t  *crawlers;
static unsigned char  *saved;           /* the file as saved */
static size_t          saved_len;
static char            path[64];

static const char  *uas[] = {
    "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
    "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
    "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0",
    "Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)",
};

static int64_t
fz_now(const ra_host_t *h)
{
    (void) h;
    return FZ_T0;
}

static void
fz_quiet(const ra_host_t *h, void *where, ra_log_level_e level,
    ra_str_t line)
{
    (void) h; (void) where; (void) level; (void) line;
}

static ra_audit_t *
engine(ra_ledger_t *l)
{
    ra_audit_conf_t  conf;

    memset(&conf, 0, sizeof(conf));
    conf.alloc = &ra_malloc_allocator;
    conf.crawlers = crawlers;
    conf.alert_interval = -1;
    return ra_audit_create(&conf, l);
}

/* n requests of bots named from seed (new records in a small zone: some
 * are evicted), with a robots.txt answer now and then */
static void
drive(ra_audit_t *au, unsigned seed, unsigned n, int64_t now)
{
    char          site[32], ua[64], uri[32];
    unsigned      i;
    ra_answer_t   ans;
    ra_request_t  req;
    ra_verdict_t  v;
    static const char  body[] = "User-agent: *\nDisallow: /private\n";

    for (i = 0; i < n; i++) {
        snprintf(site, sizeof(site), "s%u.example", (seed + i) % 7);
        if (i % 9 == 0) {
            memset(&ans, 0, sizeof(ans));
            ans.status = 200;
            ans.body = ra_str(body, sizeof(body) - 1 - (i % 3));
            FZ_CHECK(ra_audit_robots(au, ra_str(site, strlen(site)), &ans,
                                     now) == RA_OK);
        }
        if (i % 4 == 3) {
            snprintf(ua, sizeof(ua), "Zq%uBot/1.0", seed * 131 + i);
        } else {
            snprintf(ua, sizeof(ua), "%s", uas[i % 4]);
        }
        snprintf(uri, sizeof(uri), "/%s/%u", i & 1 ? "private" : "p", i);
        memset(&req, 0, sizeof(req));
        req.site = ra_str(site, strlen(site));
        req.time = now + i;
        req.addr = ra_str("192.0.2.7", 9);
        req.user_agent = ra_str(ua, strlen(ua));
        req.method = ra_str("GET", 3);
        req.uri = ra_str(uri, strlen(uri));
        req.referer = ra_str("", 0);
        req.status = 200;
        FZ_CHECK(ra_audit_request(au, &req, &v) == RA_OK);
    }
}

static void
spill(const unsigned char *p, size_t n)
{
    FILE  *f = fopen(path, "wb");

    FZ_CHECK(f != NULL);
    FZ_CHECK(fwrite(p, 1, n, f) == n);
    FZ_CHECK(fclose(f) == 0);
}

static void
unspill(void)
{
    (void) unlink(path);
}

/* the busy ledger, saved; its file read back into memory */
static void
init(void)
{
    ra_crawlers_err_t  cerr;
    ra_host_t          h;
    ra_ledger_t        l;
    ra_audit_t        *au;
    unsigned char     *region = malloc(FZ_SIZE);
    FILE              *f;

    crawlers = ra_crawlers_create(&ra_malloc_allocator);
    FZ_CHECK(crawlers != NULL);
    FZ_CHECK(ra_crawlers_add_builtin(crawlers, &cerr) == RA_OK);
    FZ_CHECK(ra_crawlers_compile(crawlers, &cerr) == RA_OK);
    snprintf(path, sizeof(path), "/tmp/ra-fuzz-state-%ld", (long) getpid());
    atexit(unspill);

    FZ_CHECK(region != NULL);
    FZ_CHECK(ra_ledger_format(region, FZ_SIZE, FZ_T0) == RA_OK);
    ra_ledger_open(&l, region, NULL);
    au = engine(&l);
    FZ_CHECK(au != NULL);
    drive(au, 1, 400, FZ_T0);
    ra_audit_destroy(au);

    memset(&h, 0, sizeof(h));
    h.log = fz_quiet;
    h.now = fz_now;
    h.heap = ra_malloc_allocator;
    FZ_CHECK(ra_ledger_file_save(&l, &h, NULL, ra_str("z", 1), path)
             == RA_OK);
    f = fopen(path, "rb");
    FZ_CHECK(f != NULL);
    saved = malloc(FZ_HDR + FZ_SIZE + 1);
    FZ_CHECK(saved != NULL);
    saved_len = fread(saved, 1, FZ_HDR + FZ_SIZE + 1, f);
    FZ_CHECK(saved_len == FZ_HDR + FZ_SIZE);
    fclose(f);
    free(region);
}

/* an accepted ledger is whole: it verifies, renders, and takes more */
static void
use(unsigned char *region, unsigned seed)
{
    ra_ledger_t       l;
    ra_snapshot_t     snap;
    ra_report_opts_t  opts;
    ra_buf_t          b;
    ra_audit_t       *au;
    const char       *why;

    ra_ledger_open(&l, region, NULL);
    why = ra_ledger_verify(&l);
    if (why != NULL) {
        fprintf(stderr, "accepted, but: %s\n", why);
        abort();
    }
    FZ_CHECK(ra_ledger_snapshot(&l, &ra_malloc_allocator, 0, &snap)
             == RA_OK);
    memset(&opts, 0, sizeof(opts));
    opts.now = FZ_T0;
    ra_buf_init(&b, &ra_malloc_allocator, 0, 0);
    FZ_CHECK(ra_report_render(&snap, RA_REPORT_JSON, &opts, &b) == RA_OK);
    b.len = 0;
    FZ_CHECK(ra_report_render(&snap, RA_REPORT_HTML, &opts, &b) == RA_OK);
    ra_buf_release(&b);
    ra_snapshot_free(&snap, &ra_malloc_allocator);

    au = engine(&l);
    FZ_CHECK(au != NULL);
    drive(au, seed, 60, FZ_T0 + 3600000);
    ra_audit_destroy(au);
    why = ra_ledger_verify(&l);
    if (why != NULL) {
        fprintf(stderr, "after more requests: %s\n", why);
        abort();
    }
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in_t         in = { data, size };
    unsigned        flags, i, n, off, len;
    unsigned char  *file, *region, *fresh;
    int64_t         when;
    ra_host_t       h;
    ra_buf_t        why;
    int             rc;

    if (crawlers == NULL) {
        init();
    }
    file = malloc(saved_len);
    region = malloc(FZ_SIZE);
    fresh = malloc(FZ_SIZE);
    FZ_CHECK(file != NULL && region != NULL && fresh != NULL);
    memcpy(file, saved, saved_len);

    /* patches: mostly in the body; bit 1 of flags lets them reach the
     * header, bit 0 leaves the SHA-256 as it was */
    flags = fz_byte(&in);
    for (i = 0; i < FZ_PATCHES && in.left > 0; i++) {
        off = (fz_u16(&in) << 8) | fz_byte(&in);
        off = (flags & 2) ? off % (unsigned) saved_len
                          : FZ_HDR + off % FZ_SIZE;
        len = 1 + fz_byte(&in) % 8;
        for (n = 0; n < len && off + n < saved_len; n++) {
            file[off + n] = (unsigned char) fz_byte(&in);
        }
    }
    if (!(flags & 1)) {
        FZ_CHECK(ra_sha256(ra_str(file + FZ_HDR, FZ_SIZE), file + 32)
                 == RA_OK);
    }
    spill(file, saved_len);

    FZ_CHECK(ra_ledger_format(region, FZ_SIZE, FZ_T0 + 5000) == RA_OK);
    memcpy(fresh, region, FZ_SIZE);
    memset(&h, 0, sizeof(h));
    h.log = fz_quiet;
    h.now = fz_now;
    h.heap = ra_malloc_allocator;
    ra_buf_init(&why, &ra_malloc_allocator, 0, 0);
    rc = ra_ledger_file_read(region, FZ_SIZE, &h, path, &when, &why);
    if (rc == RA_OK) {
        use(region, flags);
    } else {
        /* refused: the region untouched, and said why */
        FZ_CHECK(rc == RA_ERROR);
        FZ_CHECK(why.len > 0);
        FZ_CHECK(memcmp(region, fresh, FZ_SIZE) == 0);
    }
    ra_buf_release(&why);
    free(fresh);
    free(region);
    free(file);
    return 0;
}
