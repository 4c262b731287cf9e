/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * robots-audit ranges: the operators' published IP-range files and the
 * signature agents' key directories, kept current.
 *
 *   ranges sources [--format text|list]
 *       the built-in publishers: the file each one writes, its URL, its
 *       kind (a crawler operator's ranges, or a cloud provider's), the
 *       crawlers of the table that use it and where the operator
 *       documents it; "list" prints "NAME URL KIND" lines, a sources
 *       file
 *   ranges update --dir DIR [--sources FILE] [--keys-dir KDIR] ...
 *       fetches every source (libcurl), validates it as the modules load
 *       it (ra_ranges_add_file: the format its name says, every prefix
 *       parses, at least one prefix), and replaces DIR/NAME atomically
 *       (a temporary file in DIR, then rename()); a source that fails leaves the previous
 *       file as it was.  "updated NAME" on stdout for each file that
 *       changed, nothing for one that did not (--verbose: "unchanged
 *       NAME"); each failure named on stderr; exit 1 when any failed.
 *
 * Only the CLI fetches, with libcurl loaded when this command starts
 * fetching (ra_curl.h); the core and the modules never fetch.
 * Everything fetched is bounded: --max-size bytes (default the modules'
 * own limit for a range file) and --timeout seconds per fetch, http and
 * https only, redirects to https only.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "ra_curl.h"
#include "ra_cloud.h"
#include "ra_crawlers.h"
#include "ra_json.h"
#include "ra_origin.h"
#include "ra_pool.h"
#include "ra_sig.h"
#include "ra_verify.h"

#define RA_RG_CMD           "ranges"
#define RA_RG_NAME_MAX      128
#define RA_RG_URL_MAX       2048
#define RA_RG_MAX_SOURCES   256
#define RA_RG_TIMEOUT       60          /* seconds per fetch */
#define RA_RG_REFRESH_DAYS  3           /* --refresh-after's default */
#define RA_RG_KEYS_MAX      (1024u * 1024)
#define RA_RG_WELL_KNOWN    "/.well-known/http-message-signatures-directory"
#define RA_RG_WHY           (3 * 4096)  /* two paths and a reason */

#ifndef RA_VERSION
#define RA_VERSION  "0.1.0"
#endif

/*
 * The built-in publishers, each from its operator's documentation (the
 * "doc" page; docs/design.md, "Range files", lists them too).  NAME is
 * the file written, as the crawler table's "ranges" lines name it; a
 * cloud provider's is cloud-PROVIDER.json or .csv, the name by which the
 * loaders know its kind and format (ra_cloud.h), and so does this
 * command (ra_rg_kind()).
 */
typedef struct {
    const char  *name;
    const char  *url;
    const char  *doc;
} ra_rg_source_t;

#define RA_RG_GOOGLE      "https://developers.google.com/static/crawling/ipranges/"
#define RA_RG_GOOGLE_DOC  "https://developers.google.com/crawling/docs/crawlers-fetchers/verify-google-requests"
#define RA_RG_GEOFEED_DOC "https://www.rfc-editor.org/rfc/rfc8805"

static const ra_rg_source_t  ra_rg_builtin[] = {
    { "common-crawlers.json", RA_RG_GOOGLE "common-crawlers.json",
      RA_RG_GOOGLE_DOC },
    { "special-crawlers.json", RA_RG_GOOGLE "special-crawlers.json",
      RA_RG_GOOGLE_DOC },
    { "user-triggered-fetchers.json",
      RA_RG_GOOGLE "user-triggered-fetchers.json", RA_RG_GOOGLE_DOC },
    { "user-triggered-fetchers-google.json",
      RA_RG_GOOGLE "user-triggered-fetchers-google.json", RA_RG_GOOGLE_DOC },
    { "user-triggered-agents.json",
      RA_RG_GOOGLE "user-triggered-agents.json", RA_RG_GOOGLE_DOC },
    { "bingbot.json", "https://www.bing.com/toolbox/bingbot.json",
      "https://www.bing.com/webmasters/help/verifying-that-bingbot-is-bingbot-3905dc26" },
    { "gptbot.json", "https://openai.com/gptbot.json",
      "https://developers.openai.com/api/docs/bots" },
    { "searchbot.json", "https://openai.com/searchbot.json",
      "https://developers.openai.com/api/docs/bots" },
    { "chatgpt-user.json", "https://openai.com/chatgpt-user.json",
      "https://developers.openai.com/api/docs/bots" },
    { "perplexitybot.json", "https://www.perplexity.ai/perplexitybot.json",
      "https://docs.perplexity.ai/docs/resources/perplexity-crawlers" },
    { "perplexity-user.json", "https://www.perplexity.ai/perplexity-user.json",
      "https://docs.perplexity.ai/docs/resources/perplexity-crawlers" },
    { "applebot.json", "https://search.developer.apple.com/applebot.json",
      "https://support.apple.com/en-us/119829" },
    { "ccbot.json", "https://index.commoncrawl.org/ccbot.json",
      "https://commoncrawl.org/ccbot" },
    { "duckduckbot.json", "https://duckduckgo.com/duckduckbot.json",
      "https://duckduckgo.com/duckduckgo-help-pages/results/duckduckbot/" },
    { "duckassistbot.json", "https://duckduckgo.com/duckassistbot.json",
      "https://duckduckgo.com/duckduckgo-help-pages/results/duckassistbot/" },
    { "claude-bots.json", "https://claude.com/crawling/bots.json",
      "https://support.claude.com/en/articles/8896518-does-anthropic-crawl-data-from-the-web-and-how-can-site-owners-block-the-crawler" },
    { "mistralai-user-ips.json", "https://mistral.ai/mistralai-user-ips.json",
      "https://docs.mistral.ai/robots" },
    { "naverbot.json", "https://searchadvisor.naver.com/doc/naverbot.json",
      "https://searchadvisor.naver.com/guide/seo-basic-firewall" },
    { "ahrefs.json", "https://api.ahrefs.com/v3/public/crawler-ip-ranges",
      "https://help.ahrefs.com/en/articles/78658-what-is-the-list-of-your-ip-ranges" },
    /* cloud providers: the undeclared-crawler detector's cloud signal */
    { "cloud-aws.json", "https://ip-ranges.amazonaws.com/ip-ranges.json",
      "https://docs.aws.amazon.com/vpc/latest/userguide/aws-ip-ranges.html" },
    { "cloud-google.json", "https://www.gstatic.com/ipranges/cloud.json",
      "https://cloud.google.com/compute/docs/faq#find_ip_range" },
    { "cloud-oracle.json",
      "https://docs.oracle.com/en-us/iaas/tools/public_ip_ranges.json",
      "https://docs.oracle.com/iaas/Content/General/Concepts/addressranges.htm" },
    /* geofeeds (RFC 8805), the providers' own feeds for geolocation
     * services: they document no page of their own for them */
    { "cloud-digitalocean.csv", "https://digitalocean.com/geo/google.csv",
      RA_RG_GEOFEED_DOC },
    { "cloud-linode.csv", "https://geoip.linode.com/", RA_RG_GEOFEED_DOC },
};

#define RA_RG_NBUILTIN  (sizeof(ra_rg_builtin) / sizeof(ra_rg_builtin[0]))

/* Signature agents whose key directories --keys-dir fetches: the origin
 * a Signature-Agent header names, and where its operator says so. */
static const ra_rg_source_t  ra_rg_agents[] = {
    { "chatgpt.com", "https://chatgpt.com",
      "https://help.openai.com/en/articles/9785974-chatgpt-user-allowlisting" },
};

#define RA_RG_NAGENTS  (sizeof(ra_rg_agents) / sizeof(ra_rg_agents[0]))

typedef struct {
    char  *name;
    char  *url;
} ra_rg_item_t;

typedef struct {
    long     timeout;
    size_t   max;
    long     refresh;           /* seconds; 0: never touch a file */
    int      verbose;
    int      failed;
    CURL    *curl;
    ra_curl_t cu;               /* libcurl, loaded on demand */
} ra_rg_ctx_t;

/* A source's kind, as the loaders tell it: by its name (ra_cloud.h). */
static const char *
ra_rg_kind(const char *name)
{
    return ra_cloud_file(ra_str(name, strlen(name)), NULL) ? "cloud"
                                                           : "crawler";
}

static void
ra_rg_usage(FILE *f)
{
    fprintf(f,
"usage: robots-audit ranges sources [--format text|list]\n"
"       robots-audit ranges update --dir DIR [--sources FILE]\n"
"           [--keys-dir KDIR] [--agent ORIGIN]... [--timeout SECONDS]\n"
"           [--max-size BYTES] [--refresh-after DAYS] [--verbose]\n\n"
"sources: the built-in publishers of IP-range files (NAME, URL, the\n"
"crawlers that use it, the operator's documentation, the kind:\n"
"'crawler', a crawler operator's ranges, or 'cloud', a cloud provider's,\n"
"for the undeclared-crawler detector); --format list prints them as a\n"
"sources file (one 'NAME URL KIND' line each).\n\n"
"update: fetches each source into DIR/NAME, validated (JSON shape,\n"
"every prefix parses, not empty) and replaced atomically; a source\n"
"that fails keeps the previous file.  --sources FILE replaces the\n"
"built-in list ('NAME URL [KIND]' lines, '#' comments; a cloud source\n"
"is named cloud-PROVIDER.json or .csv, which is how the loaders know\n"
"it).  --keys-dir also\n"
"fetches each signature agent's key directory,\n"
"  ORIGIN%s,\n"
"into KDIR/HOST.json; --agent replaces the built-in agents.\n"
"Prints 'updated NAME' for each file that changed, and 'refreshed\n"
"NAME' for one unchanged but last written --refresh-after DAYS ago or\n"
"more (default 3, 0 never), whose modification time it sets to now\n"
"(the modules take a file's age from it when they load it): any output\n"
"means a reload is due.  --verbose: also 'unchanged NAME'.  Each failure\n"
"on stderr.  Exit status: 0 all fetched, 1 some source failed, 2 usage\n"
"error.\n",
        RA_RG_WELL_KNOWN);
}

/* ---- fetching ---------------------------------------------------------- */

typedef struct {
    unsigned char  *data;
    size_t          len;
    size_t          cap;
    size_t          max;
    int             over;
} ra_rg_body_t;

static size_t
ra_rg_write(char *p, size_t size, size_t n, void *ctx)
{
    ra_rg_body_t   *b = ctx;
    size_t          len = size * n;
    unsigned char  *nd;
    size_t          ncap;

    if (len > b->max - b->len) {
        b->over = 1;
        return 0;                       /* curl stops: CURLE_WRITE_ERROR */
    }
    if (b->len + len > b->cap) {
        ncap = b->cap ? b->cap : 16384;
        while (ncap < b->len + len) {
            ncap *= 2;
        }
        if (ncap > b->max) {
            ncap = b->max;
        }
        nd = realloc(b->data, ncap);
        if (nd == NULL) {
            return 0;
        }
        b->data = nd;
        b->cap = ncap;
    }
    memcpy(b->data + b->len, p, len);
    b->len += len;
    return len;
}

/* Fetches url into b (at most ctx->max bytes); 0, or -1 with why set. */
static int
ra_rg_fetch(ra_rg_ctx_t *ctx, const char *url, const char *accept,
    ra_rg_body_t *b, char *why, size_t whylen)
{
    CURL               *c = ctx->curl;
    struct curl_slist  *hdr = NULL;
    char                errbuf[CURL_ERROR_SIZE];
    char                acc[256];
    long                status = 0;
    CURLcode            rc;

    memset(b, 0, sizeof(*b));
    b->max = ctx->max;
    errbuf[0] = '\0';
    snprintf(acc, sizeof(acc), "Accept: %s", accept);
    hdr = ctx->cu.slist_append(NULL, acc);

    ctx->cu.easy_reset(c);
    ctx->cu.easy_setopt(c, CURLOPT_URL, url);
    ctx->cu.easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    ctx->cu.easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    ctx->cu.easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "https");
    ctx->cu.easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
    ctx->cu.easy_setopt(c, CURLOPT_MAXREDIRS, 5L);
    ctx->cu.easy_setopt(c, CURLOPT_TIMEOUT, ctx->timeout);
    ctx->cu.easy_setopt(c, CURLOPT_CONNECTTIMEOUT,
                        ctx->timeout < 15 ? ctx->timeout : 15L);
    ctx->cu.easy_setopt(c, CURLOPT_MAXFILESIZE_LARGE,
                        (curl_off_t) ctx->max);
    ctx->cu.easy_setopt(c, CURLOPT_ACCEPT_ENCODING, "");
    ctx->cu.easy_setopt(c, CURLOPT_USERAGENT,
                        "robots-audit/" RA_VERSION " (ranges update)");
    ctx->cu.easy_setopt(c, CURLOPT_HTTPHEADER, hdr);
    ctx->cu.easy_setopt(c, CURLOPT_WRITEFUNCTION, ra_rg_write);
    ctx->cu.easy_setopt(c, CURLOPT_WRITEDATA, b);
    ctx->cu.easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);

    rc = ctx->cu.easy_perform(c);
    ctx->cu.easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
    ctx->cu.slist_free_all(hdr);

    if (b->over || rc == CURLE_FILESIZE_EXCEEDED) {
        snprintf(why, whylen, "larger than %zu bytes", ctx->max);
        return -1;
    }
    if (rc != CURLE_OK) {
        snprintf(why, whylen, "%s", errbuf[0] ? errbuf
                                               : ctx->cu.easy_strerror(rc));
        return -1;
    }
    if (status != 200) {
        snprintf(why, whylen, "HTTP status %ld", status);
        return -1;
    }
    if (b->len == 0) {
        snprintf(why, whylen, "empty answer");
        return -1;
    }
    return 0;
}

/* ---- validation -------------------------------------------------------- */

static void *
ra_rg_pool_alloc(void *ctx, size_t size)
{
    return ra_pool_get(ctx, size);
}

static void
ra_rg_pool_free(void *ctx, void *p)
{
    (void) ctx;
    (void) p;
}

/* A range file as the modules load it: RA_OK and the merged interval
 * count, or -1 with why set. */
static int
ra_rg_check_ranges(const char *name, const ra_rg_body_t *b, size_t *nint,
    char *why, size_t whylen)
{
    ra_pool_t       pool;
    ra_alloc_t      a;
    ra_ranges_t    *r;
    ra_json_err_t   err;
    size_t          i;
    int             rc;

    ra_pool_init(&pool, &ra_malloc_allocator);
    a.alloc = ra_rg_pool_alloc;
    a.free = ra_rg_pool_free;
    a.ctx = &pool;
    r = ra_ranges_create(&a);
    if (r == NULL) {
        snprintf(why, whylen, "out of memory");
        ra_pool_release(&pool);
        return -1;
    }
    memset(&err, 0, sizeof(err));
    rc = ra_ranges_add_file(r, ra_str(name, strlen(name)),
                            ra_str(b->data, b->len), &err);
    if (rc != RA_OK) {
        if (rc == RA_ERROR) {
            snprintf(why, whylen, "not a range file: byte %zu: %s",
                     err.offset, err.msg ? err.msg : "invalid");
        } else if (rc == RA_ELIMIT) {
            snprintf(why, whylen, "not a range file: too many prefixes "
                     "or lists");
        } else {
            snprintf(why, whylen, "out of memory");
        }
        ra_pool_release(&pool);
        return -1;
    }
    *nint = 0;
    for (i = 0; i < ra_ranges_lists(r); i++) {
        *nint += ra_ranges_intervals(r, i);
    }
    ra_pool_release(&pool);
    return 0;
}

/* A key directory's shape: a JSON object whose "keys" member is an array
 * of objects, at least one.  The keys themselves are parsed where they
 * are used. */
typedef struct {
    int       in_keys;      /* 1: the next value is "keys"'; 2: inside */
    int       seen_keys;
    size_t    nkeys;
    unsigned  keys_depth;
} ra_rg_jwks_t;

#define RA_RG_BAD  1000

static int
ra_rg_jwks_event(void *ctx, unsigned ev, ra_str_t raw, unsigned depth)
{
    ra_rg_jwks_t  *j = ctx;

    if (depth == 0) {
        return ev == RA_JSON_OBJECT || ev == RA_JSON_END ? 0 : RA_RG_BAD;
    }
    if (j->in_keys == 1) {
        /* the value of "keys" */
        if (ev != RA_JSON_ARRAY) {
            return RA_RG_BAD + 1;
        }
        j->in_keys = 2;
        j->seen_keys = 1;
        return 0;
    }
    if (j->in_keys == 2) {
        if (depth == 1 && ev == RA_JSON_END) {
            j->in_keys = 0;                 /* the array ends */
        } else if (depth == 2 && ev == RA_JSON_OBJECT) {
            j->nkeys++;
        } else if (depth == 2 && ev != RA_JSON_END) {
            return RA_RG_BAD + 2;           /* a key that is no object */
        }
        return 0;
    }
    if (depth == 1 && ev == RA_JSON_KEY && raw.len == 4
        && memcmp(raw.data, "keys", 4) == 0)
    {
        j->in_keys = 1;
    }
    return 0;
}

static int
ra_rg_check_jwks(const ra_rg_body_t *b, size_t *nkeys, char *why,
    size_t whylen)
{
    ra_rg_jwks_t   j;
    ra_json_err_t  err;
    int            rc;

    memset(&j, 0, sizeof(j));
    memset(&err, 0, sizeof(err));
    rc = ra_json_parse(ra_str(b->data, b->len), ra_rg_jwks_event, &j, &err);
    if (rc == RA_ERROR) {
        snprintf(why, whylen, "not JSON: byte %zu: %s", err.offset,
                 err.msg ? err.msg : "invalid");
        return -1;
    }
    if (rc == RA_RG_BAD) {
        snprintf(why, whylen, "not a key directory: not a JSON object");
        return -1;
    }
    if (rc == RA_RG_BAD + 1) {
        snprintf(why, whylen, "not a key directory: \"keys\" is not an "
                 "array");
        return -1;
    }
    if (rc == RA_RG_BAD + 2) {
        snprintf(why, whylen, "not a key directory: a key is not an "
                 "object");
        return -1;
    }
    if (!j.seen_keys || j.nkeys == 0) {
        snprintf(why, whylen, "not a key directory: no \"keys\"");
        return -1;
    }
    *nkeys = j.nkeys;
    return 0;
}

/* The keys as the modules load them (RobotsAuditSignatureKeys,
 * robots_audit_signature_keys: ra_setup_signature_keys()), which refuse
 * the whole configuration for a set with no Ed25519 key or a bad one: a
 * file written that they refuse would fail the reload this command
 * announces, and the next start.  0, or -1 with why set. */
static int
ra_rg_check_sigkeys(const char *host, const ra_rg_body_t *b, char *why,
    size_t whylen)
{
    ra_host_t       h;
    ra_pool_t       pool;
    ra_alloc_t      a;
    ra_sig_keys_t  *k;
    const char     *err = NULL;
    int             rc = RA_ENOMEM;

    memset(&h, 0, sizeof(h));
    h.heap = ra_malloc_allocator;
    ra_host_crypto_libcrypto(&h);
    ra_pool_init(&pool, &ra_malloc_allocator);
    a.alloc = ra_rg_pool_alloc;
    a.free = ra_rg_pool_free;
    a.ctx = &pool;
    k = ra_sig_keys_create(&a);
    if (k != NULL) {
        rc = ra_sig_keys_add_jwks(k, &h, ra_str(host, strlen(host)),
                                  ra_str(b->data, b->len), NULL, &err);
    }
    ra_pool_release(&pool);
    if (rc == RA_ENOMEM) {
        snprintf(why, whylen, "out of memory");
        return -1;
    }
    if (rc != RA_OK) {
        snprintf(why, whylen, "not a key directory the modules load: %s",
                 err != NULL ? err : "invalid");
        return -1;
    }
    return 0;
}

/* ---- writing ------------------------------------------------------------ */

/* 1 when path holds exactly b's bytes (*mtime: its modification time). */
static int
ra_rg_same(const char *path, const ra_rg_body_t *b, time_t *mtime)
{
    struct stat     st;
    unsigned char   buf[65536];
    size_t          off = 0;
    ssize_t         n;
    int             fd, same = 1;

    fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) {
        return 0;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)
        || (size_t) st.st_size != b->len)
    {
        close(fd);
        return 0;
    }
    *mtime = st.st_mtime;
    while (same && (n = read(fd, buf, sizeof(buf))) > 0) {
        if ((size_t) n > b->len - off
            || memcmp(buf, b->data + off, (size_t) n) != 0)
        {
            same = 0;
        }
        off += (size_t) n;
    }
    close(fd);
    return same && off == b->len;
}

/* Writes b to dir/name, mode 0644, whole (ra_cli_replace()): readers see
 * the old file or the new one, never a part.  0; 1 when the
 * file already held these bytes; 2 when it did but was last written at
 * least refresh seconds ago (0: never), and its modification time is now
 * (its age in days in *days): the modules take a file's age from its
 * modification time when they load it, so a file confirmed unchanged
 * reads as fresh again at the next reload; -1 with why set. */
static int
ra_rg_replace(const char *dir, const char *name, const ra_rg_body_t *b,
    long refresh, long *days, char *why, size_t whylen)
{
    char     path[4096];
    time_t   mtime = 0, now;

    if ((size_t) snprintf(path, sizeof(path), "%s/%s", dir, name)
        >= sizeof(path))
    {
        snprintf(why, whylen, "path too long");
        return -1;
    }
    if (ra_rg_same(path, b, &mtime)) {
        now = time(NULL);
        if (refresh > 0 && now - mtime >= refresh
            && utimensat(AT_FDCWD, path, NULL, AT_SYMLINK_NOFOLLOW) == 0)
        {
            *days = (long) ((now - mtime) / 86400);
            return 2;
        }
        return 1;
    }
    return ra_cli_replace(path, b->data, b->len, 0644, why, whylen);
}

/* ---- sources ------------------------------------------------------------ */

/* A file name: letters, digits, '.', '-', '_', not starting with '.'. */
static int
ra_rg_name_ok(const char *s)
{
    size_t  i, n = strlen(s);

    if (n == 0 || n > RA_RG_NAME_MAX || s[0] == '.') {
        return 0;
    }
    for (i = 0; i < n; i++) {
        unsigned char  c = (unsigned char) s[i];

        if (!(ra_isalpha(c) || ra_isdigit(c) || c == '.' || c == '-'
              || c == '_'))
        {
            return 0;
        }
    }
    return 1;
}

static int
ra_rg_url_ok(const char *u)
{
    size_t  i, n = strlen(u);

    if (n > RA_RG_URL_MAX
        || (strncmp(u, "http://", 7) != 0 && strncmp(u, "https://", 8) != 0))
    {
        return 0;
    }
    for (i = 0; i < n; i++) {
        if ((unsigned char) u[i] <= 0x20 || (unsigned char) u[i] >= 0x7f) {
            return 0;
        }
    }
    return 1;
}

/*
 * Reads a sources file: "NAME URL [KIND]" lines, blank lines and '#'
 * comments.  KIND, "crawler" or "cloud", is what the name says already
 * (ra_rg_kind()): given, it must agree, so that a cloud provider's file
 * named as a crawler publisher's (or the reverse) is refused here rather
 * than loaded as the wrong kind by every server.  The count, or -1 with
 * a message printed.
 */
static long
ra_rg_read_sources(const char *path, ra_rg_item_t *items, size_t max)
{
    ra_str_t     text;
    const char  *p, *end, *eol;
    char         line[RA_RG_NAME_MAX + RA_RG_URL_MAX + 64];
    char         name[RA_RG_NAME_MAX + 2], url[RA_RG_URL_MAX + 2];
    char         kind[16];
    size_t       n = 0, lineno = 0, len, j;
    char         extra;
    int          fields;

    if (ra_cli_read_file(RA_RG_CMD, path, &text) != 0) {
        return -1;
    }
    p = (const char *) text.data;
    end = p + text.len;
    while (p < end) {
        eol = memchr(p, '\n', (size_t) (end - p));
        if (eol == NULL) {
            eol = end;
        }
        len = (size_t) (eol - p);
        lineno++;
        if (len >= sizeof(line)) {
            ra_cli_error(RA_RG_CMD, "%s, line %zu: too long", path, lineno);
            goto fail;
        }
        memcpy(line, p, len);
        line[len] = '\0';
        p = eol + 1;
        for (j = 0; line[j] == ' ' || line[j] == '\t'; j++) { }
        if (line[j] == '\0' || line[j] == '#' || line[j] == '\r') {
            continue;
        }
        fields = sscanf(line, "%129s %2049s %15s %c", name, url, kind,
                        &extra);
        if (fields != 2 && fields != 3) {
            ra_cli_error(RA_RG_CMD, "%s, line %zu: expected 'NAME URL' or "
                         "'NAME URL KIND'", path, lineno);
            goto fail;
        }
        if (fields == 3 && strcmp(kind, "crawler") != 0
            && strcmp(kind, "cloud") != 0)
        {
            ra_cli_error(RA_RG_CMD, "%s, line %zu: kind '%s': 'crawler' or "
                         "'cloud'", path, lineno, kind);
            goto fail;
        }
        if (fields == 3 && strcmp(kind, ra_rg_kind(name)) != 0) {
            ra_cli_error(RA_RG_CMD, "%s, line %zu: '%s' is a %s file's name; "
                         "a cloud provider's is cloud-PROVIDER.json or "
                         "cloud-PROVIDER.csv, and only it", path, lineno,
                         name, ra_rg_kind(name));
            goto fail;
        }
        if (!ra_rg_name_ok(name)) {
            ra_cli_error(RA_RG_CMD, "%s, line %zu: '%s' is not a file name "
                         "(letters, digits, '.', '-', '_')", path, lineno,
                         name);
            goto fail;
        }
        if (!ra_rg_url_ok(url)) {
            ra_cli_error(RA_RG_CMD, "%s, line %zu: not an http or https "
                         "URL", path, lineno);
            goto fail;
        }
        for (j = 0; j < n; j++) {
            if (strcmp(items[j].name, name) == 0) {
                ra_cli_error(RA_RG_CMD, "%s, line %zu: '%s' named twice",
                             path, lineno, name);
                goto fail;
            }
        }
        if (n == max) {
            ra_cli_error(RA_RG_CMD, "%s: more than %zu sources", path, max);
            goto fail;
        }
        items[n].name = strdup(name);
        items[n].url = strdup(url);
        if (items[n].name == NULL || items[n].url == NULL) {
            ra_cli_error(RA_RG_CMD, "out of memory");
            n++;
            goto fail;
        }
        n++;
    }
    free((void *) text.data);
    return (long) n;

fail:
    free((void *) text.data);
    for (j = 0; j < n; j++) {
        free(items[j].name);
        free(items[j].url);
    }
    return -1;
}

/* ---- update ------------------------------------------------------------- */

static void
ra_rg_fail(ra_rg_ctx_t *ctx, const char *what, const char *name,
    const char *url, const char *why)
{
    fprintf(stderr, "robots-audit ranges: %s %s (%s): %s; the previous file "
            "is kept\n", what, name, url, why);
    ctx->failed++;
}

/* Puts a checked body in place as dir/name (ra_rg_replace()), says what
 * happened ("updated NAME (N UNIT)", "refreshed", "unchanged" with
 * --verbose, or the failure), and frees it. */
static void
ra_rg_store(ra_rg_ctx_t *ctx, const char *what, const char *dir,
    const char *name, const char *url, ra_rg_body_t *b, size_t n,
    const char *unit)
{
    char  why[RA_RG_WHY];
    long  days = 0;
    int   rc;

    rc = ra_rg_replace(dir, name, b, ctx->refresh, &days, why, sizeof(why));
    if (rc < 0) {
        ra_rg_fail(ctx, what, name, url, why);
    } else if (rc == 0) {
        printf("updated %s (%zu %s)\n", name, n, unit);
    } else if (rc == 2) {
        printf("refreshed %s (unchanged for %ld days)\n", name, days);
    } else if (ctx->verbose) {
        printf("unchanged %s\n", name);
    }
    free(b->data);
}

static void
ra_rg_update_one(ra_rg_ctx_t *ctx, const char *dir, const char *name,
    const char *url)
{
    ra_rg_body_t  b;
    char          why[RA_RG_WHY];
    size_t        nint = 0, n = strlen(name);
    /* a geofeed is CSV (RFC 8805), every other range file JSON */
    const char   *accept = n > 4 && strcmp(name + n - 4, ".csv") == 0
                           ? "text/csv, text/plain;q=0.9, */*;q=0.1"
                           : "application/json";

    if (ra_rg_fetch(ctx, url, accept, &b, why, sizeof(why)) != 0
        || ra_rg_check_ranges(name, &b, &nint, why, sizeof(why)) != 0)
    {
        ra_rg_fail(ctx, "range file", name, url, why);
        free(b.data);
        return;
    }
    ra_rg_store(ctx, "range file", dir, name, url, &b, nint, "intervals");
}

/* Whether host is this machine's: nothing on a network can alter what an
 * http fetch from it returns, so tests may serve keys there in clear. */
static int
ra_rg_loopback(ra_str_t host)
{
    size_t  i;

    if (ra_strcaseeq(host, ra_str("localhost", 9))) {
        return 1;
    }
    if (!ra_startswith_ci(host, "127.")) {
        return 0;
    }
    for (i = 4; i < host.len; i++) {
        if (!ra_isdigit(host.data[i]) && host.data[i] != '.') {
            return 0;
        }
    }
    return 1;
}

/*
 * An agent's origin as the modules read a Signature-Agent
 * (ra_origin_parse(): "https://HOST[:PORT]"), so that the keys fetched are
 * those of the host a signature names, into host (the file's name, less
 * ".json") and url (its key directory's).  http only from a loopback
 * host (ra_rg_loopback()); no path but "/", since the directory is at the
 * origin's root.  NULL, or why it is not one.
 */
static const char *
ra_rg_origin(const char *origin, char *host, size_t cap, char *url,
    size_t ucap)
{
    ra_origin_t  o;
    int          n;

    if (ra_origin_parse(ra_str(origin, strlen(origin)), &o) != RA_OK) {
        return "not an origin (https://HOST[:PORT])";
    }
    if (!o.https && !ra_rg_loopback(o.host)) {
        return "not an https origin (https://HOST[:PORT])";
    }
    if (o.rest.len > 1 || (o.rest.len == 1 && o.rest.data[0] != '/')) {
        return "an origin has no path (https://HOST[:PORT])";
    }
    if (o.host.len >= cap) {
        return "the host name is too long for a file name";
    }
    memcpy(host, o.host.data, o.host.len);
    host[o.host.len] = '\0';
    if (!ra_rg_name_ok(host)) {
        return "the host name is not a file name";
    }
    n = snprintf(url, ucap, "%s://%s%s%.*s%s", o.https ? "https" : "http",
                 host, o.port.len ? ":" : "", (int) o.port.len,
                 (const char *) o.port.data, RA_RG_WELL_KNOWN);
    return n < 0 || (size_t) n >= ucap ? "not an origin (a port too long)"
                                       : NULL;
}

static void
ra_rg_update_keys(ra_rg_ctx_t *ctx, const char *kdir, const char *origin)
{
    ra_rg_body_t  b;
    char          host[RA_RG_NAME_MAX + 1], name[RA_RG_NAME_MAX + 8];
    char          url[RA_RG_URL_MAX + 64];
    char          why[RA_RG_WHY];
    const char   *bad;
    size_t        nkeys = 0;

    bad = ra_rg_origin(origin, host, sizeof(host), url, sizeof(url));
    if (bad != NULL) {
        ra_rg_fail(ctx, "key directory", origin, origin, bad);
        return;
    }
    snprintf(name, sizeof(name), "%s.json", host);
    memset(&b, 0, sizeof(b));
    if (ra_rg_fetch(ctx, url, "application/http-message-signatures-"
                    "directory+json, application/json", &b, why,
                    sizeof(why)) != 0
        || ra_rg_check_jwks(&b, &nkeys, why, sizeof(why)) != 0
        || ra_rg_check_sigkeys(host, &b, why, sizeof(why)) != 0)
    {
        ra_rg_fail(ctx, "key directory", name, url, why);
        free(b.data);
        return;
    }
    ra_rg_store(ctx, "key directory", kdir, name, url, &b, nkeys, "keys");
}

static int
ra_rg_dir_ok(const char *opt, const char *dir)
{
    struct stat  st;

    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        ra_cli_error(RA_RG_CMD, "%s %s: not a directory", opt, dir);
        return 0;
    }
    return 1;
}

static int
ra_rg_update(int argc, char **argv)
{
    ra_rg_ctx_t    ctx;
    ra_rg_item_t  *items = NULL;
    const char    *dir = NULL, *sources = NULL, *kdir = NULL;
    const char   **agents = NULL;
    size_t         nagents = 0, i;
    long           n = 0;
    int            k, rc = RA_EXIT_USAGE;
    char          *end;
    char           why[256];

    memset(&ctx, 0, sizeof(ctx));
    ctx.timeout = RA_RG_TIMEOUT;
    ctx.max = RA_RANGES_MAX_FILE;
    ctx.refresh = RA_RG_REFRESH_DAYS * 86400L;
    agents = calloc((size_t) argc + 1, sizeof(*agents));
    if (agents == NULL) {
        return ra_cli_error(RA_RG_CMD, "out of memory");
    }
    for (k = 1; k < argc; k++) {
        const char  *a = argv[k];

        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            ra_rg_usage(stdout);
            free(agents);
            return RA_EXIT_OK;
        }
        if (strcmp(a, "--verbose") == 0 || strcmp(a, "-v") == 0) {
            ctx.verbose = 1;
            continue;
        }
        if (k + 1 >= argc) {
            ra_cli_error(RA_RG_CMD, "unknown option or missing value: '%s'",
                         a);
            goto usage;
        }
        if (strcmp(a, "--dir") == 0) {
            dir = argv[++k];
        } else if (strcmp(a, "--sources") == 0) {
            sources = argv[++k];
        } else if (strcmp(a, "--keys-dir") == 0) {
            kdir = argv[++k];
        } else if (strcmp(a, "--agent") == 0) {
            agents[nagents++] = argv[++k];
        } else if (strcmp(a, "--timeout") == 0) {
            errno = 0;
            ctx.timeout = strtol(argv[++k], &end, 10);
            if (errno || *end || ctx.timeout < 1 || ctx.timeout > 3600) {
                ra_cli_error(RA_RG_CMD, "--timeout: 1 to 3600 seconds");
                goto usage;
            }
        } else if (strcmp(a, "--refresh-after") == 0) {
            errno = 0;
            ctx.refresh = strtol(argv[++k], &end, 10);
            if (errno || *end || argv[k][0] == '\0' || ctx.refresh < 0
                || ctx.refresh > 3650)
            {
                ra_cli_error(RA_RG_CMD, "--refresh-after: 0 to 3650 days");
                goto usage;
            }
            ctx.refresh *= 86400L;
        } else if (strcmp(a, "--max-size") == 0) {
            uint64_t  sz;

            if (ra_parse_size(ra_str(argv[k + 1], strlen(argv[k + 1])), &sz)
                    != RA_OK
                || sz < 1 || sz > RA_RANGES_MAX_FILE)
            {
                ra_cli_error(RA_RG_CMD, "--max-size: 1 to %u bytes (k, m "
                             "allowed)", RA_RANGES_MAX_FILE);
                goto usage;
            }
            ctx.max = (size_t) sz;
            k++;
        } else {
            ra_cli_error(RA_RG_CMD, "unknown option '%s'", a);
            goto usage;
        }
    }
    if (dir == NULL) {
        ra_cli_error(RA_RG_CMD, "update needs --dir DIR");
        goto usage;
    }
    if (nagents && kdir == NULL) {
        ra_cli_error(RA_RG_CMD, "--agent needs --keys-dir");
        goto usage;
    }
    if (!ra_rg_dir_ok("--dir", dir) || (kdir && !ra_rg_dir_ok("--keys-dir",
                                                              kdir)))
    {
        goto out;
    }
    if (sources) {
        items = calloc(RA_RG_MAX_SOURCES, sizeof(*items));
        if (items == NULL) {
            ra_cli_error(RA_RG_CMD, "out of memory");
            goto out;
        }
        n = ra_rg_read_sources(sources, items, RA_RG_MAX_SOURCES);
        if (n < 0) {
            goto out;
        }
    }
    if (ra_curl_open(&ctx.cu, why, sizeof(why)) != 0) {
        ra_cli_error(RA_RG_CMD, "libcurl failed to load: %s", why);
        goto out;
    }
    if (ctx.cu.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK
        || (ctx.curl = ctx.cu.easy_init()) == NULL)
    {
        ra_cli_error(RA_RG_CMD, "libcurl failed to start");
        ra_curl_close(&ctx.cu);
        goto out;
    }
    if (sources) {
        for (k = 0; k < n; k++) {
            ra_rg_update_one(&ctx, dir, items[k].name, items[k].url);
        }
    } else {
        for (i = 0; i < RA_RG_NBUILTIN; i++) {
            ra_rg_update_one(&ctx, dir, ra_rg_builtin[i].name,
                             ra_rg_builtin[i].url);
        }
    }
    if (kdir) {
        if (nagents) {
            for (i = 0; i < nagents; i++) {
                ra_rg_update_keys(&ctx, kdir, agents[i]);
            }
        } else {
            for (i = 0; i < RA_RG_NAGENTS; i++) {
                ra_rg_update_keys(&ctx, kdir, ra_rg_agents[i].url);
            }
        }
    }
    fflush(stdout);
    ctx.cu.easy_cleanup(ctx.curl);
    ctx.cu.global_cleanup();
    ra_curl_close(&ctx.cu);
    rc = ctx.failed ? RA_EXIT_FOUND : RA_EXIT_OK;
    goto out;

usage:
    fputc('\n', stderr);
    ra_rg_usage(stderr);
out:
    if (items) {
        for (k = 0; k < n; k++) {
            free(items[k].name);
            free(items[k].url);
        }
        free(items);
    }
    free(agents);
    return rc;
}

/* ---- sources ------------------------------------------------------------ */

static int
ra_rg_sources(int argc, char **argv)
{
    ra_crawlers_t       *tab;
    const ra_crawler_t  *c;
    size_t               i, j, r, used;
    int                  list = 0, k;

    for (k = 1; k < argc; k++) {
        if (strcmp(argv[k], "--help") == 0 || strcmp(argv[k], "-h") == 0) {
            ra_rg_usage(stdout);
            return RA_EXIT_OK;
        }
        if (strcmp(argv[k], "--format") == 0 && k + 1 < argc
            && (strcmp(argv[k + 1], "text") == 0
                || strcmp(argv[k + 1], "list") == 0))
        {
            list = strcmp(argv[++k], "list") == 0;
            continue;
        }
        ra_cli_error(RA_RG_CMD, "unknown option '%s'", argv[k]);
        fputc('\n', stderr);
        ra_rg_usage(stderr);
        return RA_EXIT_USAGE;
    }
    if (list) {
        for (i = 0; i < RA_RG_NBUILTIN; i++) {
            printf("%s %s %s\n", ra_rg_builtin[i].name, ra_rg_builtin[i].url,
                   ra_rg_kind(ra_rg_builtin[i].name));
        }
        return RA_EXIT_OK;
    }
    tab = ra_cli_crawlers(RA_RG_CMD, NULL);
    if (tab == NULL) {
        return RA_EXIT_USAGE;
    }
    for (i = 0; i < RA_RG_NBUILTIN; i++) {
        size_t    nl = strlen(ra_rg_builtin[i].name);
        ra_str_t  prov;

        if (ra_cloud_file(ra_str(ra_rg_builtin[i].name, nl), &prov)) {
            /* no crawler's: the addresses of everyone who rents there */
            printf("%s\n  url:      %s\n  kind:     cloud (provider %.*s)\n"
                   "  source:   %s\n", ra_rg_builtin[i].name,
                   ra_rg_builtin[i].url, (int) prov.len,
                   (const char *) prov.data, ra_rg_builtin[i].doc);
            continue;
        }
        printf("%s\n  url:      %s\n  kind:     crawler\n  crawlers:",
               ra_rg_builtin[i].name, ra_rg_builtin[i].url);
        used = 0;
        for (j = 0; j < ra_crawlers_count(tab); j++) {
            c = ra_crawlers_get(tab, j);
            for (r = 0; r < c->nranges; r++) {
                if (c->ranges[r].len == nl
                    && memcmp(c->ranges[r].data, ra_rg_builtin[i].name, nl)
                       == 0)
                {
                    printf(" %.*s", (int) c->name.len,
                           (const char *) c->name.data);
                    used++;
                    break;
                }
            }
        }
        printf("%s\n  source:   %s\n", used ? "" : " (none)",
               ra_rg_builtin[i].doc);
    }
    printf("\nsignature agents (--keys-dir):\n");
    for (i = 0; i < RA_RG_NAGENTS; i++) {
        printf("%s.json\n  url:      %s%s\n  source:   %s\n",
               ra_rg_agents[i].name, ra_rg_agents[i].url, RA_RG_WELL_KNOWN,
               ra_rg_agents[i].doc);
    }
    return RA_EXIT_OK;
}

int
ra_cmd_ranges(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "sources") == 0) {
        return ra_rg_sources(argc - 1, argv + 1);
    }
    if (argc >= 2 && strcmp(argv[1], "update") == 0) {
        return ra_rg_update(argc - 1, argv + 1);
    }
    if (argc >= 2 && (strcmp(argv[1], "--help") == 0
                      || strcmp(argv[1], "-h") == 0))
    {
        ra_rg_usage(stdout);
        return RA_EXIT_OK;
    }
    if (argc < 2) {
        ra_cli_error(RA_RG_CMD, "sources or update?");
    } else {
        ra_cli_error(RA_RG_CMD, "unknown subcommand '%s'", argv[1]);
    }
    fputc('\n', stderr);
    ra_rg_usage(stderr);
    return RA_EXIT_USAGE;
}
