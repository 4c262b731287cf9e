/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * robots-audit logs: the verdicts and counters of the modules, over access
 * logs (any format ra_accesslog.h reads; plain, gzip or stdin; or a live
 * log followed across rotation).
 *
 * The audit runs over a private ledger (malloc()ed, no lock) exactly as a
 * module's runs over shared memory: each robots.txt request of the log
 * feeds ra_audit_robots() with the status the log shows (2xx, 304, 206: the
 * site's --robots file as the body; 5xx/429: unreachable; other 4xx: no
 * rules), after the file was seeded as in force from the site's first
 * line; then every line feeds ra_audit_request().  Memory is the ledger and one
 * read buffer: it does not grow with the number of lines.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "ra_accesslog.h"
#include "ra_audit.h"
#include "ra_cli_rdns.h"
#include "ra_evidence.h"
#include "ra_follow.h"
#include "ra_http.h"
#include "ra_logfilter.h"
#include "ra_ledger_file.h"
#include "ra_logread.h"
#include "ra_logs_order.h"
#include "ra_logs_read.h"
#include "ra_outcome.h"
#include "ra_pool.h"
#include "ra_ranges_dir.h"
#include "ra_report.h"

#define RA_LOGS_CMD          "logs"
#define RA_LOGS_LEDGER_MIB   32      /* default private ledger */
#define RA_LOGS_ROBOTS_MAX   64      /* --robots HOST=FILE */
#define RA_LOGS_TRUST_MAX    64      /* --real-ip-from */
#define RA_LOGS_SEEN         4096    /* sites remembered as seeded */

/* the filters' options: no short letters, so that none is taken twice */
enum {
    RA_LOGS_OPT_SINCE = 0x100,
    RA_LOGS_OPT_UNTIL,
    RA_LOGS_OPT_CRAWLER,
    RA_LOGS_OPT_STATUS,
    RA_LOGS_OPT_EXCLUDE
};

static const char  ra_logs_usage[] =
"usage: robots-audit logs --robots [HOST=]FILE... [--site HOST]\n"
"           [--log-format F | --json-fields MAP] [--real-ip-from CIDR]...\n"
"           [--ranges FILE... | --no-ranges]\n"
"           [--crawlers FILE] [--format text|json|html|prometheus|csv]\n"
"           [--html-refresh S] [--purpose P] [--ledger MIB] [--output FILE]\n"
"           [--follow [--interval S]]\n"
"           [--since TIME] [--until TIME] [--crawler NAME]...\n"
"           [--status CODE]... [--exclude-client CIDR]...\n"
"           [--alert-log FILE [--alert-purposes LIST]] [--evidence-log FILE]\n"
"           [--rdns [--resolver ADDR[:PORT]] [--rdns-cache FILE]]\n"
"           [--state FILE] LOG...\n"
"\n"
"Judges every crawler request of access logs against robots.txt, as the\n"
"server modules do, and prints the counters, the robots.txt state and\n"
"recent violations.  LOG is a file, a .gz file, or '-' for stdin.\n"
"Several are read in time order, by the time of each one's first line,\n"
"whatever order they are given in (the 24-hour and 12-hour windows\n"
"follow the log's clock); files whose times overlap are read one after\n"
"the other, with a warning.  With '-' they are read as given.\n"
"\n"
"  --robots FILE     the robots.txt every site served, in force from the\n"
"                    first line; the log's own answers to /robots.txt\n"
"                    change that (2xx, 304 or 206: this file, 5xx or\n"
"                    429: unreachable, another 3xx or 4xx: no rules)\n"
"                    when a verified crawler got them, or two clients\n"
"                    a day after the file was last served; else they\n"
"                    bind only the client that got them.  Given once.\n"
"  --robots HOST=FILE  the file of one site (repeatable); a site with none\n"
"                    takes the plain --robots FILE, or is judged 'unknown'\n"
"  --site HOST       the site of the LOGs named after it, for lines with\n"
"                    no $host or %v field (default: default); give it\n"
"                    again before other LOGs for another site (a single\n"
"                    --site after the LOGs names them all).  The report\n"
"                    shows only the sites --site names: lines that name\n"
"                    another ($host, %v) are left out (--site a --site b\n"
"                    vhosts.log: sites a and b)\n"
"  --log-format F    combined, common, vhost_combined, json, caddy,\n"
"                    traefik, cloudflare, haproxy, alb, cloudfront, iis\n"
"                    (or w3c: any #Fields: header), or an nginx\n"
"                    log_format or Apache LogFormat string (default:\n"
"                    each file's format is found from its first lines)\n"
"  --json-fields MAP JSON lines with other keys: client=KEY,time=KEY,\n"
"                    method=KEY,uri=KEY,status=KEY[,ua=KEY,host=KEY,\n"
"                    referer=KEY,bytes=KEY]; a KEY is a dotted path\n"
"                    (request.headers.User-Agent), an array standing for\n"
"                    its first value; time in epoch s, ms, us, ns or\n"
"                    ISO 8601\n"
"  --real-ip-from CIDR  a trusted proxy (repeatable): a line from it is\n"
"                    the client's last X-Forwarded-For address not in a\n"
"                    trusted range, as nginx's realip module\n"
"  --ranges FILE     a crawler operator's published IP ranges (JSON),\n"
"                    named by its base name; repeatable.  Without it,\n"
"                    the *.json files of the directory the packaged\n"
"                    timer keeps, /var/lib/robots-audit/ranges (or\n"
"                    $ROBOTS_AUDIT_RANGES_DIR), when it exists, named\n"
"                    on stderr\n"
"  --no-ranges       no published ranges, not even those\n"
"  --crawlers FILE   more crawler entries (format of data/crawlers.txt)\n"
"  --format F        text (default), json, html, prometheus, or csv (the\n"
"                    violations, one a row)\n"
"  --html-refresh S  the HTML reloads itself every S seconds (a meta\n"
"                    refresh; none by default), for a page --follow\n"
"                    rewrites\n"
"  --purpose P       show only the crawlers of this purpose and their\n"
"                    violations: search, ai-training, ai-search, ai-user,\n"
"                    seo, social-preview, monitoring, archive, feed,\n"
"                    academic, security-scanner, tool\n"
"  --since TIME      count only lines at TIME or later, and\n"
"  --until TIME      only lines before TIME (excluded): ISO 8601\n"
"                    (2026-11-28, 2026-11-28T10:00[:00], with Z or an\n"
"                    offset such as +01:00; UTC without one), or relative\n"
"                    to now: 30m, 24h, 7d\n"
"  --crawler NAME    count only this crawler's lines (repeatable): a\n"
"                    table name or robots.txt token, any case;\n"
"                    generic: the bots not in the table; impostor: the\n"
"                    clients claiming a crawler they are not\n"
"  --status CODE     count only lines of this status (repeatable): 404,\n"
"                    or a class: 5xx\n"
"  --exclude-client CIDR  leave out this client's lines (repeatable): an\n"
"                    IPv4 or IPv6 range, or an address alone\n"
"  --alert-log FILE  append the alerts the modules would raise to FILE,\n"
"                    the JSON lines of robots_audit_alert_log, on the\n"
"                    log's clock (gated and budgeted as in the modules)\n"
"  --evidence-log FILE  append one JSON line per violation to FILE, the\n"
"                    lines of robots_audit_evidence_log (no byte budget)\n"
"  --alert-purposes LIST  only these purposes alert, space- or comma-\n"
"                    separated (default all): the purposes above, and\n"
"                    generic for generic bots; violations are still\n"
"                    counted and shown\n"
"  --ledger MIB      size of the private ledger (default 32; it bounds\n"
"                    how many crawler records are kept)\n"
"  --output FILE     write the report to FILE (atomically: a temporary\n"
"                    file renamed) instead of stdout\n"
"  --follow          follow one LOG as 'tail -F' does, from its first\n"
"                    line: a LOG not there yet is waited for; rotation\n"
"                    (a new file at its path: the old one is read to\n"
"                    its end) and truncation (copytruncate: the bytes\n"
"                    not read yet are read from its copy beside it, or\n"
"                    said lost) are said on stderr.  Writes the report\n"
"                    every --interval seconds (default 60) once a line\n"
"                    was read, and on SIGTERM or SIGINT, then exits;\n"
"                    JSON adds an \"interval\" object (start, end,\n"
"                    lines, requests, crawler_requests, violations of\n"
"                    that interval), text a last line.  SIGHUP\n"
"                    re-reads the robots.txt, crawler and range files\n"
"  --rdns            verify crawlers whose ranges do not by forward-\n"
"                    confirmed reverse DNS (c-ares), each address once,\n"
"                    answered before its request is judged (files are\n"
"                    read once beforehand, 16 lookups at a time)\n"
"  --resolver ADDR[:PORT]  the DNS server (default: /etc/resolv.conf's)\n"
"  --rdns-cache FILE answers kept across runs (read, then rewritten\n"
"                    atomically; confirmed ones for 6 hours, others 1)\n"
"  --state FILE      the ledger kept across runs, as robots_audit_state\n"
"                    keeps a server's: read when it exists (a file that\n"
"                    does not fit, e.g. of another --ledger, stops the\n"
"                    run), rewritten atomically at the end\n"
"\n"
"The filters narrow what is counted and reported, not what the judge\n"
"knows: a robots.txt fetch they leave out (before --since, of another\n"
"crawler, status or client) still binds the crawler, so the lines kept\n"
"get the verdicts they get without filters; lines at or after --until,\n"
"and of sites --site does not name, are not read at all (no verdict\n"
"depends on a later line or another site).  The report states the\n"
"lines left out.  A warning says when the log's 200 answers to\n"
"/robots.txt differ in size from the --robots file (once per site).\n"
"\n"
"A line is malformed when it does not read in the format, or its client\n"
"is not an IP address, its time does not parse or its status is not\n"
"100-599.  More than 1% of a file's first 1,000 lines malformed stops the\n"
"run (exit 2) with the format tried, the first bad line and field, and\n"
"the flag that would read it.  '#' lines of W3C logs are skipped.  The\n"
"report states the lines read, malformed and skipped.  A damaged .gz\n"
"file is reported with the line it stopped at and the next file is\n"
"read.  A progress bar is drawn on stderr when it is a terminal.\n"
"\n"
"exit status: 0 report written, 2 usage or input error (a damaged .gz:\n"
"the report of what was read is still written; too many malformed\n"
"lines: none)\n";

typedef struct {
    const char        *host;            /* NULL: the plain --robots FILE */
    ra_robots_file_t   file;            /* as the modules seed a file */
    ra_str_t           text;
    ra_lint_t          lint;
    unsigned           linted:1;
} ra_logs_robots_t;

/* the crawler and range tables of one reading of their files, in a pool
 * released when SIGHUP replaces them */
typedef struct {
    ra_pool_t   pool;
    ra_alloc_t  alloc;
} ra_logs_tables_t;

typedef struct {
    ra_audit_t        *au;
    ra_logs_tables_t  *tables;
    ra_ledger_t        ledger;
    ra_audit_conf_t    conf;
    ra_logs_robots_t   robots[RA_LOGS_ROBOTS_MAX];
    unsigned           nrobots;
    ra_logs_robots_t  *plain;           /* the plain --robots FILE */
    ra_cidr_t          trusted[RA_LOGS_TRUST_MAX];
    unsigned           ntrusted;
    ra_logfmt_t        given;           /* --log-format */
    unsigned           have_given:1;
    /* the file being read */
    ra_logs_reader_t   rd;
    ra_str_t           site;            /* --site of that file */
    unsigned           site_seeded:1;   /* x->site seeded already */
    ra_logs_robots_t  *site_rb;         /* and its file */
    ra_logs_window_t   win;             /* its first lines */
    /* the sites seeded with their --robots file */
    uint64_t           seen[RA_LOGS_SEEN];
    unsigned           nseen;
    /* the sites whose robots.txt answers were said to differ in size from
     * their --robots file */
    uint64_t           sized[RA_LOGS_SEEN];
    unsigned           nsized;
    /* --since, --until, --crawler, --status, --exclude-client, --site */
    ra_logfilter_t     filter;
    uint64_t           filtered;        /* lines the filters left out */
    int64_t            file_last;       /* the latest time of the file read */
    ra_logs_reader_t   peek;            /* ra_logs_time_of()'s */
    /* counts */
    uint64_t           lines;
    uint64_t           malformed;
    uint64_t           skipped;          /* W3C '#' directives */
    uint64_t           parsed;
    uint64_t           with_ua;
    uint64_t           with_xff;
    uint64_t           unjudged;         /* no request line to judge */
    uint64_t           nomem;
    uint64_t           no_robots;        /* lines of sites without a file */
    char               no_robots_site[RA_LOGS_SHOWN];
    const char        *bad_file;         /* the first malformed line */
    uint64_t           bad_line;
    char               first[RA_LOGS_SHOWN];  /* shown escaped */
    const char        *first_file;
    unsigned char     *esc;              /* unescaped fields */
    unsigned           purpose;          /* --purpose: category + 1 */
    FILE              *alerts;           /* --alert-log */
    const char        *alerts_path;
    ra_buf_t           alert_line;
    ra_logfile_t       evidence;         /* --evidence-log */
    int                evidence_fd;
    ra_cli_rdns_t     *dns;              /* --rdns */
    ra_host_t          dns_host;
    uint32_t           html_refresh;     /* --html-refresh seconds */
} ra_logs_ctx_t;

/* the signals of --follow */
static volatile sig_atomic_t  ra_logs_hup, ra_logs_term;

static void
ra_logs_signal(int sig)
{
    if (sig == SIGHUP) {
        ra_logs_hup = 1;
    } else {
        ra_logs_term = 1;
    }
}

static ra_logs_robots_t *
ra_logs_robots_of(ra_logs_ctx_t *x, ra_str_t site)
{
    unsigned  i;

    for (i = 0; i < x->nrobots; i++) {
        if (x->robots[i].host != NULL
            && ra_strcaseeq(site, ra_str(x->robots[i].host,
                                          strlen(x->robots[i].host))))
        {
            return &x->robots[i];
        }
    }
    return x->plain;
}

/* FNV-1a of the lower-cased name, in a set of RA_LOGS_SEEN: 1 when it
 * was there, 0 when added (or when the set is full) */
static int
ra_logs_set(uint64_t *set, unsigned *n, ra_str_t site)
{
    uint64_t  h = 0xcbf29ce484222325ULL;
    size_t    i;
    unsigned  k;

    for (i = 0; i < site.len; i++) {
        h = (h ^ (uint64_t) ra_lower(site.data[i])) * 0x100000001b3ULL;
    }
    h |= 1;                             /* 0 is an empty slot */
    for (k = (unsigned) h % RA_LOGS_SEEN, i = 0; i < RA_LOGS_SEEN;
         k = (k + 1) % RA_LOGS_SEEN, i++)
    {
        if (set[k] == h) {
            return 1;
        }
        if (set[k] == 0) {
            if (*n >= RA_LOGS_SEEN / 2) {
                return 0;       /* full: seed again (it is idempotent) */
            }
            set[k] = h;
            ++*n;
            return 0;
        }
    }
    return 0;
}

/* the sites already seeded */
static int
ra_logs_seen(ra_logs_ctx_t *x, ra_str_t site)
{
    return ra_logs_set(x->seen, &x->nseen, site);
}

/* The filters' decision for a line (ra_logfilter.h) */
static ra_logfilter_e
ra_logs_filter(ra_logs_ctx_t *x, const ra_logrec_t *rec, ra_str_t site,
    ra_str_t client, ra_str_t ua)
{
    ra_logfilter_line_t  fl;
    ra_identity_t        id;
    ra_request_t         req;
    ra_sig_verdict_t     sv;
    ra_verdict_t         vd;
    ra_judge_who_t       who;
    ra_str_t             tokens[RA_TOKENS_MAX];

    fl.time = rec->time;
    fl.site = site;
    fl.client = client;
    fl.status = rec->status;
    fl.id = NULL;
    fl.impostor = 0;
    if (ra_logfilter_wants_identity(&x->filter)) {
        ra_crawlers_identify(x->conf.crawlers, ua, &id);
        fl.id = &id;
    }
    if (fl.id != NULL && id.kind == RA_UA_KNOWN
        && ra_logfilter_wants_verification(&x->filter))
    {
        /* verified as the judge verifies it (ranges, then reverse DNS):
         * an impostor claims a crawler its address is not of */
        memset(&req, 0, sizeof(req));
        memset(&sv, 0, sizeof(sv));
        memset(&vd, 0, sizeof(vd));
        req.addr = client;
        req.time = rec->time;
        req.user_agent = ua;
        ra_audit_who(x->au, &id, &req, &sv, &vd, tokens, &who);
        fl.impostor = vd.verification == RA_VERIFY_IMPOSTOR;
    }
    return ra_logfilter_decide(&x->filter, &fl);
}

/* A 200 answer to /robots.txt whose size is not the --robots file's: the
 * file given may not be what the site served (said once per site; a
 * HEAD sends no body, and a compressed answer is smaller) */
static void
ra_logs_sized(ra_logs_ctx_t *x, const ra_logrec_t *rec, ra_str_t site,
    const ra_logs_robots_t *rb, const char *file)
{
    char     shown[RA_LOGS_SHOWN];
    int64_t  bytes = rec->bytes < 0 ? 0 : rec->bytes;
    int      json;

    /* "-" is Apache's %b for no body; a JSON line without the key says
     * nothing */
    json = x->rd.fmt.format;
    json = json == RA_LOG_JSON || json == RA_LOG_CADDY
           || json == RA_LOG_TRAEFIK || json == RA_LOG_CLOUDFLARE
           || json == RA_LOG_JSONMAP;
    if (!RA_LOGFMT_HAS(&x->rd.fmt, RA_LF_BYTES) || (json && rec->bytes < 0)
        || !ra_strcaseeq(rec->method, ra_str("GET", 3))
        || (uint64_t) bytes == (uint64_t) rb->text.len
        || ra_logs_set(x->sized, &x->nsized, site))
    {
        return;
    }
    ra_logs_show(shown, site);
    fprintf(stderr, "robots-audit %s: warning: robots.txt answers in %s were "
            "%lld bytes, --robots %s has %llu bytes (site %s): is it the file "
            "the site served? (a compressed answer is smaller)\n",
            RA_LOGS_CMD, file, (long long) bytes, rb->file.path,
            (unsigned long long) rb->text.len, shown);
}

/* The violation's evidence line, as the modules write it (the same core
 * code); a line the file did not take ends the run. */
static int
ra_logs_evidence(ra_logs_ctx_t *x, const ra_request_t *req,
    const ra_verdict_t *v)
{
    ra_totals_t  t;

    ra_outcome_evidence(x->au, NULL, req, v, &x->evidence);
    ra_ledger_totals(&x->ledger, &t);
    if (t.log_write_errors[RA_LOGFILE_EVIDENCE] != 0) {
        ra_cli_error(RA_LOGS_CMD, "--evidence-log %s: cannot write it",
                     x->evidence.name);
        return -1;
    }
    return 0;
}

static int
ra_logs_line(void *ctx, ra_str_t line, const char *file, uint64_t lineno)
{
    ra_logs_ctx_t     *x = ctx;
    ra_logs_robots_t  *rb;
    ra_logrec_t        rec;
    ra_request_t       req;
    ra_verdict_t       v;
    ra_answer_t        ans;
    ra_str_t           uri, ua, site, client;
    int                rc, wanted = 1;
    ra_logfilter_e     keep = RA_LOGFILTER_KEEP;

    x->lines++;
    rc = ra_logs_read(&x->rd, line, file, &rec);
    if (rc == 1) {
        x->skipped++;
        return 0;
    }
    if (rc != RA_OK) {
        if (x->malformed++ == 0) {
            x->bad_file = file;
            x->bad_line = lineno;
        }
        if (x->first_file == NULL) {
            x->first_file = file;
            ra_logs_show(x->first, line);
        }
    }
    if (ra_logs_window_line(&x->win, &x->rd, rc, line, &rec, lineno,
                            RA_LOGS_CMD))
    {
        return 1;
    }
    if (rc != RA_OK) {
        return 0;
    }
    x->parsed++;
    if (rec.time > x->file_last) {
        x->file_last = rec.time;
    }
    if (rec.user_agent.data != NULL) {
        x->with_ua++;
    }
    if (rec.xff.data != NULL) {
        x->with_xff++;
    }
    if (rec.method.len == 0) {
        x->unjudged++;
        return 0;
    }

    ra_logrec_decode(&rec, x->esc, &uri, &ua);

    if (rec.host.data == NULL && x->site_seeded) {
        /* the common case: a log of one site, seeded on its first line */
        site = x->site;
        rb = x->site_rb;
    } else {
        site = rec.host.data != NULL ? rec.host : x->site;
        rb = ra_logs_robots_of(x, site);
    }
    client = x->ntrusted ? ra_realip(x->trusted, x->ntrusted, rec.addr,
                                     rec.xff)
                         : rec.addr;
    if (ra_logfilter_active(&x->filter)) {
        keep = ra_logs_filter(x, &rec, site, client, ua);
        if (keep == RA_LOGFILTER_DROP) {
            x->filtered++;              /* not even the judge's */
            return 0;
        }
    }
    if (rec.host.data != NULL
        && !ra_audit_site_wanted(x->au, site, ua, rec.time))
    {
        /* a browser's line naming a site not seen: the Host is anyone's,
         * so it makes no site (counted in the total only) */
        rb = NULL;
        wanted = 0;
    } else if (rb == NULL) {
        if (x->no_robots++ == 0) {
            ra_logs_show(x->no_robots_site, site);
        }
    } else if (rec.host.data == NULL && x->site_seeded) {
        /* seeded already */
    } else {
        if (rec.host.data == NULL) {
            x->site_seeded = 1;
            x->site_rb = rb;
        }
        if (!ra_logs_seen(x, site)
            && ra_robots_file_seed(x->au, site, &rb->file, rec.time) != RA_OK)
        {
            /* --robots FILE is the file in force from the site's first
             * line; the log's own robots.txt answers change it from there */
            x->nomem++;
        }
    }

    memset(&req, 0, sizeof(req));       /* enforce, where, signature: none */
    req.site = site;
    req.time = rec.time;
    req.addr = client;
    req.user_agent = ua;
    req.method = rec.method;
    req.uri = uri;
    req.status = rec.status;
    req.referer = rec.referer.data ? rec.referer : ra_str("", 0);

    /* the robots.txt request as the audit knows it (ra_http_is_robots) */
    if (wanted && ra_http_is_robots(uri)) {
        memset(&ans, 0, sizeof(ans));
        /* 304, 206: the crawler's copy is still the file */
        ans.status = ra_http_answer_unchanged(rec.status) ? 200 : rec.status;
        ans.req = &req;
        ans.content_type = ra_str(NULL, 0);
        if (ans.status >= 200 && ans.status < 300 && rb != NULL) {
            ans.body = rb->text;
        }
        if (rec.status == 200 && rb != NULL) {
            ra_logs_sized(x, &rec, site, rb, file);
        }
        /* a site without a file: what a 2xx served is not known */
        if (rb != NULL || ans.status < 200 || ans.status >= 300) {
            if (ra_audit_robots(x->au, site, &ans, rec.time) != RA_OK) {
                x->nomem++;
            }
            req.recorded = 1;
        }
    }
    if (keep == RA_LOGFILTER_KNOW) {
        /* its robots.txt answer, if it was one, is recorded above: the
         * requests kept are judged as if nothing were left out */
        x->filtered++;
        return 0;
    }

    if (ra_audit_request(x->au, &req, &v) != RA_OK) {
        x->nomem++;
    }
    if (x->evidence.file != NULL && ra_evidence_wanted(&v)
        && ra_logs_evidence(x, &req, &v) != 0)
    {
        return -1;
    }
    if (x->alerts != NULL && (v.alert || v.summary)) {
        /* the JSON lines of the modules' alert log, as they write them */
        x->alert_line.len = 0;
        ra_alert_emit(NULL, &req, &v, &x->alert_line);
        if (fwrite(x->alert_line.data, 1, x->alert_line.len, x->alerts)
                != x->alert_line.len
            || fflush(x->alerts) != 0)
        {
            ra_cli_error(RA_LOGS_CMD, "--alert-log %s: %s", x->alerts_path,
                         strerror(errno));
            return -1;
        }
    }
    return 0;
}

/* --rdns over files: a first reading gathers the addresses of crawlers
 * with reverse-DNS domains that their ranges do not verify, and resolves
 * them RA_CLI_RDNS_INFLIGHT at a time, RA_CLI_RDNS_BATCH per round, so
 * that the judging pass finds every answer remembered */
typedef struct {
    ra_logs_ctx_t     *x;
    ra_logs_reader_t   rd;
    size_t             n;
    ra_addr_t          addrs[RA_CLI_RDNS_BATCH];
} ra_logs_pre_t;

static int
ra_logs_pre_line(void *ctx, ra_str_t line, const char *file, uint64_t lineno)
{
    ra_logs_pre_t       *p = ctx;
    ra_logs_ctx_t       *x = p->x;
    ra_logrec_t          rec;
    ra_identity_t        id;
    ra_str_t             ua, addr, uri;
    ra_addr_t            a;
    int                  rc;

    (void) lineno;
    rc = ra_logs_read(&p->rd, line, file, &rec);
    if (rc != RA_OK || rec.user_agent.data == NULL || rec.method.len == 0) {
        return 0;
    }
    ra_logrec_decode(&rec, x->esc, &uri, &ua);
    ra_crawlers_identify(x->conf.crawlers, ua, &id);
    if (!ra_verify_has_rdns(id.crawler)) {
        return 0;
    }
    addr = x->ntrusted ? ra_realip(x->trusted, x->ntrusted, rec.addr,
                                   rec.xff)
                       : rec.addr;
    if (ra_addr_parse(addr, &a) != RA_OK
        || ra_verify(x->conf.ranges, id.crawler, &a) == RA_VERIFY_VERIFIED)
    {
        return 0;
    }
    p->addrs[p->n++] = a;
    if (p->n == RA_CLI_RDNS_BATCH) {
        ra_cli_rdns_prefetch(x->dns, p->addrs, p->n);
        p->n = 0;
    }
    return 0;
}

static void
ra_logs_prefetch(ra_logs_ctx_t *x, char **paths, unsigned n)
{
    ra_logread_t    rd;
    ra_logs_pre_t  *p = calloc(1, sizeof(*p));
    unsigned        i;

    memset(&rd, 0, sizeof(rd));
    if (p == NULL || ra_logread_open(&rd, RA_LOGS_CMD, paths, (int) n) != 0) {
        free(p);
        return;                 /* the judging pass asks one at a time */
    }
    p->x = x;
    p->rd.given = x->rd.given;
    rd.handler = ra_logs_pre_line;
    rd.ctx = p;
    rd.progress = 0;
    for (i = 0; i < n; i++) {
        (void) ra_logread_file(&rd, paths[i]);  /* errors: said again */
    }
    ra_cli_rdns_prefetch(x->dns, p->addrs, p->n);
    ra_logread_close(&rd);
    free(p);
}

/* The time of a line, for ra_logs_order(): each file's format found
 * (or given) as when it is read */
static int
ra_logs_time_of(void *ctx, ra_str_t line, const char *file, int64_t *time)
{
    ra_logs_ctx_t  *x = ctx;
    ra_logrec_t     rec;

    if (ra_logs_read(&x->peek, line, file, &rec) != RA_OK) {
        return RA_ERROR;
    }
    *time = rec.time;
    return RA_OK;
}

/* Lints each robots file, with the crawler table once there is one (it
 * names the policy tokens) */
static void
ra_logs_robots_lint(ra_logs_ctx_t *x)
{
    ra_logs_robots_t  *rb;
    ra_lint_http_t     http;
    unsigned           i;

    for (i = 0; i < x->nrobots; i++) {
        rb = &x->robots[i];
        if (rb->linted) {
            ra_lint_free(&rb->lint, &ra_malloc_allocator);
            rb->linted = 0;
        }
        memset(&http, 0, sizeof(http));
        http.status = 200;
        http.crawlers = x->conf.crawlers;
        if (ra_lint(rb->text, &http, &ra_malloc_allocator, &rb->lint)
            == RA_OK)
        {
            rb->linted = 1;
        }
    }
}

/* Reads the robots files (again, on SIGHUP: all or none) and lints each */
static int
ra_logs_robots_load(ra_logs_ctx_t *x)
{
    ra_logs_robots_t  *rb;
    ra_str_t           text[RA_LOGS_ROBOTS_MAX];
    unsigned           i, j;

    for (i = 0; i < x->nrobots; i++) {
        if (ra_cli_read_file(RA_LOGS_CMD, x->robots[i].file.path, &text[i])
            != 0)
        {
            for (j = 0; j < i; j++) {
                free((void *) text[j].data);
            }
            return -1;
        }
    }
    for (i = 0; i < x->nrobots; i++) {
        rb = &x->robots[i];
        free((void *) rb->text.data);
        rb->text = text[i];
        rb->file.text = text[i];
        rb->file.size = text[i].len;
    }
    ra_logs_robots_lint(x);
    return 0;
}

static void *
ra_logs_pool_alloc(void *ctx, size_t size)
{
    return ra_pool_get(ctx, size);
}

static void
ra_logs_tables_free(ra_logs_tables_t *t)
{
    if (t != NULL) {
        ra_pool_release(&t->pool);
        free(t);
    }
}

static int
ra_logs_tables(ra_logs_ctx_t *x, const char *crawlers_file,
    char **ranges, unsigned nranges)
{
    ra_logs_tables_t  *t;
    ra_setup_t         setup;
    ra_audit_t        *au;
    unsigned           i;

    t = malloc(sizeof(*t));
    if (t == NULL) {
        ra_cli_error(RA_LOGS_CMD, "out of memory");
        return -1;
    }
    ra_pool_init(&t->pool, &ra_malloc_allocator);
    t->alloc.alloc = ra_logs_pool_alloc;
    t->alloc.free = NULL;
    t->alloc.ctx = &t->pool;
    ra_setup_init(&setup, &ra_cli_host, &t->alloc);
    for (i = 0; i < nranges; i++) {
        if (ra_cli_setup_file(RA_LOGS_CMD, &setup, 1, ranges[i]) != 0) {
            goto fail;
        }
    }
    if ((crawlers_file != NULL
         && ra_cli_setup_file(RA_LOGS_CMD, &setup, 0, crawlers_file) != 0)
        || ra_cli_setup_compile(RA_LOGS_CMD, &setup) != 0)
    {
        goto fail;
    }
    x->conf.alloc = &ra_malloc_allocator;
    x->conf.crawlers = setup.crawlers;
    x->conf.ranges = setup.ranges;
    x->conf.alert_interval = -1;        /* no alerts here: the default */
    /* the operator asked for every line: a log replays hours in seconds,
     * and the budget guards a server's disk from a flood, not this */
    x->conf.evidence_budget = RA_EVIDENCE_BUDGET_OFF;
    x->conf.crawler_sites = 1;          /* the log's Host values are
                                           anyone's: browsers make none */
    if (x->dns != NULL) {
        /* --rdns: each address answered before its request is judged; a
         * log replays hours in seconds, so no per-second budget */
        ra_cli_rdns_host(x->dns, &x->dns_host);
        x->dns_host.log = NULL;
        x->conf.host = &x->dns_host;
        x->conf.rdns.budget = UINT32_MAX;
    }
    au = ra_audit_create(&x->conf, &x->ledger);
    if (au == NULL) {
        ra_cli_error(RA_LOGS_CMD, "out of memory");
        goto fail;
    }
    if (x->dns != NULL) {
        ra_cli_rdns_bind(x->dns, au);
    }
    /* the ledger holds no pointer into the tables: the previous audit
     * and its tables go */
    if (x->au != NULL) {
        ra_audit_destroy(x->au);
    }
    ra_logs_tables_free(x->tables);
    x->au = au;
    x->tables = t;
    return 0;

fail:
    ra_logs_tables_free(t);
    return -1;
}

/* Writes b to path through a temporary file renamed over it, so that a
 * reader (node_exporter, a web server) never sees half a report.  The
 * temporary file is made by mkstemp() beside path (never a name another
 * user could have planted as a link) and gets the mode path has, or
 * 0666 less the umask for a new one. */
static int
ra_logs_write_atomic(const char *path, ra_buf_t *b)
{
    char         tmp[4096];
    FILE        *f;
    int          fd;
    mode_t       mode, mask;
    struct stat  sb;

    if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= (int) sizeof(tmp)) {
        return ra_cli_error(RA_LOGS_CMD, "--output: path too long"), -1;
    }
    if (stat(path, &sb) == 0) {
        mode = sb.st_mode & 07777;
    } else {
        mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    fd = mkstemp(tmp);
    if (fd < 0 || fchmod(fd, mode) != 0 || (f = fdopen(fd, "w")) == NULL) {
        ra_cli_error(RA_LOGS_CMD, "%s: %s", tmp, strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(tmp);
        }
        return -1;
    }
    if (ra_cli_write(RA_LOGS_CMD, f, b) != 0 || fflush(f) != 0
        || fsync(fileno(f)) != 0)
    {
        fclose(f);
        unlink(tmp);
        return -1;
    }
    if (fclose(f) != 0 || rename(tmp, path) != 0) {
        ra_cli_error(RA_LOGS_CMD, "%s: %s", path, strerror(errno));
        unlink(tmp);
        return -1;
    }
    return 0;
}

/* The records a filter left with no request counted: crawlers known to
 * the judge only by a robots.txt fetch the filters left out */
static void
ra_logs_narrow(ra_snapshot_t *snap)
{
    uint32_t  i, n = 0, si;

    for (i = 0; i < snap->nstats; i++) {
        if (snap->stats[i].counters[RA_CNT_REQUESTS] != 0) {
            snap->stats[n++] = snap->stats[i];
            continue;
        }
        si = snap->stats[i].site;
        if (si != 0 && si <= snap->nsites && snap->sites[si - 1].stats_total) {
            snap->sites[si - 1].stats_total--;  /* "showing n of N" */
        }
    }
    snap->nstats = n;
}

/* Renders the ledger and writes it to --output or stdout; with a mark
 * (--follow), what the interval since it added, then the mark moves on */
static int
ra_logs_report(ra_logs_ctx_t *x, ra_report_format_e fmt, const char *output,
    ra_follow_mark_t *mark)
{
    ra_snapshot_t            snap;
    ra_snapshot_view_t       view;
    ra_report_opts_t         opts;
    ra_buf_t                 out;
    const ra_lint_t        **lints;
    const ra_logs_robots_t  *rb;
    unsigned                 i;
    int                      rc = 0;

    /* every record and violation, of --purpose's crawlers when given (as
     * the status page's ?purpose=); bodies: the HTML shows each
     * robots.txt in force, JSON its lines */
    memset(&view, 0, sizeof(view));
    view.every = 1;
    view.purpose = x->purpose;
    if (ra_ledger_snapshot_view(&x->ledger, &ra_malloc_allocator, 1, &view,
                                &snap) != RA_OK)
    {
        ra_cli_error(RA_LOGS_CMD, "out of memory");
        return -1;
    }
    if (ra_logfilter_active(&x->filter)) {
        ra_logs_narrow(&snap);
    }

    /* the findings of each site's file, for a site that serves it as
     * rules */
    lints = calloc(snap.nsites + 1, sizeof(ra_lint_t *));
    for (i = 0; lints != NULL && i < snap.nsites; i++) {
        const ra_site_t  *s = &snap.sites[i];

        rb = ra_logs_robots_of(x, ra_str(s->name, s->name_len));
        if (rb != NULL && rb->linted && s->nversions
            && s->current < RA_VERSIONS
            && s->versions[s->current].answer == RA_ANSWER_RULES)
        {
            lints[i] = &rb->lint;
        }
    }

    memset(&opts, 0, sizeof(opts));
    opts.lints = lints;
    opts.with_lines = 1;
    opts.lines = x->lines;
    opts.malformed_lines = x->malformed;
    opts.skipped_lines = x->skipped;
    opts.filtered_lines = x->filtered;
    opts.scratch = &ra_malloc_allocator;
    opts.crawlers = x->conf.crawlers;
    opts.standalone = 1;        /* a file: no refresh, no query links */
    ra_buf_init(&out, &ra_malloc_allocator, 64 * 1024, 0);
    opts.refresh = x->html_refresh;
    if (ra_report_render(&snap, fmt, &opts, &out) != RA_OK) {
        out.failed = 1;
    }
    if (mark != NULL) {
        ra_follow_interval(&x->ledger, x->lines, fmt, mark, &out);
    }
    if (output != NULL) {
        rc = ra_logs_write_atomic(output, &out);
    } else if (ra_cli_write(RA_LOGS_CMD, stdout, &out) != 0
               || fflush(stdout) != 0)
    {
        rc = -1;
    }
    ra_buf_release(&out);
    free(lints);
    ra_snapshot_free(&snap, &ra_malloc_allocator);
    return rc;
}

/* what --follow does between lines */
typedef struct {
    ra_logs_ctx_t       *x;
    ra_report_format_e   fmt;
    const char          *output;
    int64_t              interval;      /* ms */
    int64_t              next;
    const char          *crawlers_file;
    char               **ranges;
    unsigned             nranges;
    int                  failed;
    ra_follow_mark_t       mark;
} ra_logs_follow_t;

/* A number of seconds, 1 to a day, for option opt: 0, or -1 said */
static int
ra_logs_seconds(const char *opt, const char *arg, long *out)
{
    char  *end;

    *out = strtol(arg, &end, 10);
    if (*arg == '\0' || *end != '\0' || *out < 1 || *out > 86400) {
        ra_cli_error(RA_LOGS_CMD, "%s: '%s' is not a number of seconds "
                     "(1-86400)", opt, arg);
        return -1;
    }
    return 0;
}

static int
ra_logs_tick(void *ctx)
{
    ra_logs_follow_t  *fw = ctx;
    int64_t            now;

    if (ra_logs_hup) {
        ra_logs_hup = 0;
        if (ra_logs_robots_load(fw->x) != 0) {
            ra_cli_error(RA_LOGS_CMD, "SIGHUP: kept the robots.txt files "
                         "in force");
        } else if (ra_logs_tables(fw->x, fw->crawlers_file, fw->ranges,
                                  fw->nranges) != 0)
        {
            ra_cli_error(RA_LOGS_CMD, "SIGHUP: robots.txt files read again; "
                         "kept the crawler and range tables in force");
        } else {
            fprintf(stderr, "robots-audit %s: SIGHUP: robots.txt, crawler "
                    "and range files read again\n", RA_LOGS_CMD);
        }
        /* a site not seen yet takes its (new) file from its first line */
    }
    if (ra_logs_term) {
        return 1;
    }
    now = ra_logread_ms();
    if (now >= fw->next) {
        fw->next = now + fw->interval;
        /* no report before the first line: it would show nothing, at
         * the log clock's zero */
        if (fw->x->lines != 0
            && ra_logs_report(fw->x, fw->fmt, fw->output, &fw->mark) != 0)
        {
            fw->failed = 1;
        }
    }
    return 0;
}

/* The wall clock in ms, or RA_LOGS_NOW's time (Unix seconds or a
 * --since TIME) when set: what relative times count back from, fixed
 * for tests */
static int64_t
ra_logs_clock(void)
{
    const char  *env = getenv("RA_LOGS_NOW");
    char        *end;
    long long    sec;
    int64_t      ms;

    if (env != NULL && *env != '\0') {
        sec = strtoll(env, &end, 10);
        if (*end == '\0') {
            return (int64_t) sec * 1000;
        }
        if (ra_logfilter_time(ra_str(env, strlen(env)), 0, &ms) == RA_OK) {
            return ms;
        }
        ra_cli_error(RA_LOGS_CMD, "RA_LOGS_NOW=%s is not a time: the clock "
                     "is used", env);
    }
    return (int64_t) time(NULL) * 1000;
}

/* One filter option into x->filter (ra_logfilter.h); 0 or -1, said */
static int
ra_logs_filter_opt(ra_logs_ctx_t *x, int c, const char *arg, int64_t now)
{
    static const struct {
        int                  c;
        ra_logfilter_opt_e   opt;
        const char          *name;
    } opts[] = {
        { RA_LOGS_OPT_SINCE, RA_LOGFILTER_SINCE, "--since" },
        { RA_LOGS_OPT_UNTIL, RA_LOGFILTER_UNTIL, "--until" },
        { RA_LOGS_OPT_CRAWLER, RA_LOGFILTER_CRAWLER, "--crawler" },
        { RA_LOGS_OPT_STATUS, RA_LOGFILTER_STATUS, "--status" },
        { RA_LOGS_OPT_EXCLUDE, RA_LOGFILTER_EXCLUDE_CLIENT,
          "--exclude-client" },
        { 's', RA_LOGFILTER_SITE, "--site" }
    };
    const char  *err;
    unsigned     i;

    for (i = 0; opts[i].c != c; i++) { }
    err = ra_logfilter_opt(&x->filter, opts[i].opt, ra_str(arg, strlen(arg)),
                           now);
    if (err != NULL) {
        return ra_cli_error(RA_LOGS_CMD, "%s '%s' %s", opts[i].name, arg,
                            err);
    }
    return 0;
}

static int
ra_logs_robots_opt(ra_logs_ctx_t *x, const char *arg)
{
    const char        *eq = strchr(arg, '=');
    ra_logs_robots_t  *rb;
    unsigned           i;
    char              *host;

    if (x->nrobots == RA_LOGS_ROBOTS_MAX) {
        return ra_cli_error(RA_LOGS_CMD, "--robots: more than %u files",
                            RA_LOGS_ROBOTS_MAX);
    }
    rb = &x->robots[x->nrobots];
    memset(rb, 0, sizeof(*rb));
    /* HOST=FILE when what is before '=' is a host name, not a path */
    if (eq != NULL && eq != arg && memchr(arg, '/', (size_t) (eq - arg))
        == NULL && eq[1] != '\0')
    {
        host = strndup(arg, (size_t) (eq - arg));
        if (host == NULL) {
            return ra_cli_error(RA_LOGS_CMD, "out of memory");
        }
        for (i = 0; i < x->nrobots; i++) {
            if (x->robots[i].host != NULL
                && strcasecmp(x->robots[i].host, host) == 0)
            {
                ra_cli_error(RA_LOGS_CMD, "--robots %s: a second file for "
                             "%s", arg, host);
                free(host);
                return RA_EXIT_USAGE;
            }
        }
        rb->host = host;
        rb->file.path = eq + 1;
    } else {
        if (x->plain != NULL) {
            return ra_cli_error(RA_LOGS_CMD, "--robots %s: a plain --robots "
                                "FILE serves every site and is given once; "
                                "name each site's file with --robots "
                                "HOST=FILE (and each log's site with --site "
                                "HOST before it, when its lines have no "
                                "$host or %%v field)", arg);
        }
        rb->file.path = arg;
        x->plain = rb;
    }
    x->nrobots++;
    return 0;
}

int
ra_cmd_logs(int argc, char **argv)
{
    int                  c, rc = RA_EXIT_USAGE, damaged = 0, follow = 0;
    int                  site_pending = 0, sites = 0, interval_set = 0;
    long                 mib = RA_LOGS_LEDGER_MIB, interval = 60, refresh;
    unsigned             i, ninputs = 0, nranges = 0;
    char                *end;
    const char          *crawlers_file = NULL, *output = NULL, *errmsg;
    ra_str_t             bad;
    const char          *site = "default";
    const char          *resolver = NULL, *rdns_cache = NULL;
    const char          *state = NULL;
    int                  rdns = 0, no_ranges = 0;
    void                *region = NULL;
    char               **dflt = NULL;
    size_t               size;
    ra_logread_t         rd;
    ra_logs_ctx_t       *x;
    ra_logs_input_t     *inputs = NULL;
    char               **ranges = NULL, **paths = NULL;
    ra_report_format_e   fmt = RA_REPORT_TEXT;
    ra_logs_follow_t     fw;
    struct sigaction     sa;
    int64_t              now, last = INT64_MIN;
    unsigned             last_of = 0;

    static const struct option  opts_long[] = {
        { "robots", required_argument, NULL, 'r' },
        { "site", required_argument, NULL, 's' },
        { "ranges", required_argument, NULL, 'R' },
        { "crawlers", required_argument, NULL, 'c' },
        { "format", required_argument, NULL, 'f' },
        { "purpose", required_argument, NULL, 'P' },
        { "alert-log", required_argument, NULL, 'A' },
        { "alert-purposes", required_argument, NULL, 'U' },
        { "evidence-log", required_argument, NULL, 'E' },
        { "ledger", required_argument, NULL, 'L' },
        { "log-format", required_argument, NULL, 'F' },
        { "json-fields", required_argument, NULL, 'J' },
        { "real-ip-from", required_argument, NULL, 'I' },
        { "output", required_argument, NULL, 'o' },
        { "follow", no_argument, NULL, 'w' },
        { "interval", required_argument, NULL, 'i' },
        { "rdns", no_argument, NULL, 'D' },
        { "resolver", required_argument, NULL, 'N' },
        { "rdns-cache", required_argument, NULL, 'C' },
        { "since", required_argument, NULL, RA_LOGS_OPT_SINCE },
        { "until", required_argument, NULL, RA_LOGS_OPT_UNTIL },
        { "crawler", required_argument, NULL, RA_LOGS_OPT_CRAWLER },
        { "status", required_argument, NULL, RA_LOGS_OPT_STATUS },
        { "exclude-client", required_argument, NULL, RA_LOGS_OPT_EXCLUDE },
        { "no-ranges", no_argument, NULL, 'n' },
        { "html-refresh", required_argument, NULL, 'H' },
        { "state", required_argument, NULL, 'S' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 }
    };

    x = calloc(1, sizeof(*x));
    inputs = calloc((size_t) argc + 1, sizeof(*inputs));
    ranges = calloc((size_t) argc + 1, sizeof(*ranges));
    paths = calloc((size_t) argc + 1, sizeof(*paths));
    if (x == NULL || inputs == NULL || ranges == NULL || paths == NULL) {
        ra_cli_error(RA_LOGS_CMD, "out of memory");
        goto fail;
    }
    memset(&rd, 0, sizeof(rd));
    ra_logfilter_init(&x->filter);
    now = ra_logs_clock();

    /* '-': LOGs come back in order, each with the --site before it */
    optind = 1;
    while ((c = getopt_long(argc, argv, "-h", opts_long, NULL)) != -1) {
        switch (c) {
        case 1:
            inputs[ninputs].path = optarg;
            inputs[ninputs].site = site;
            paths[ninputs++] = optarg;
            site_pending = 0;
            break;
        case 'r':
            if (ra_logs_robots_opt(x, optarg) != 0) {
                goto fail;
            }
            break;
        case 's':
            if (optarg[0] == '\0') {
                ra_cli_error(RA_LOGS_CMD, "--site: empty host name");
                goto fail;
            }
            if (ra_logs_filter_opt(x, c, optarg, now) != 0) {
                goto fail;
            }
            /* the last --site before a LOG names its lines' site; every
             * one narrows the report (ra_logs_filter()) */
            site = optarg;
            site_pending = 1;
            sites++;
            break;
        case 'R':
            ranges[nranges++] = optarg;
            break;
        case 'c':
            crawlers_file = optarg;
            break;
        case 'f':
            if (ra_report_format_by_name(ra_str(optarg, strlen(optarg)), &fmt)
                != RA_OK)
            {
                ra_cli_error(RA_LOGS_CMD, "--format: text, json, html, "
                             "prometheus or csv, not '%s'", optarg);
                goto fail;
            }
            break;
        case 'P':
            x->purpose = ra_crawler_category_of(ra_str(optarg,
                                                       strlen(optarg))) + 1;
            if (x->purpose > RA_CAT_MAX) {
                ra_cli_error(RA_LOGS_CMD, "--purpose: '%s' is not a purpose "
                             "(search, ai-training, ai-search, ai-user, seo, "
                             "social-preview, monitoring, archive, feed, "
                             "academic, security-scanner, tool)", optarg);
                goto fail;
            }
            break;
        case 'A':
            x->alerts_path = optarg;
            break;
        case 'E':
            x->evidence.name = optarg;
            break;
        case 'U':
            errmsg = ra_alert_purposes_parse(ra_str(optarg, strlen(optarg)),
                                             &x->conf.alert_purposes, &bad);
            if (errmsg != NULL) {
                ra_cli_error(RA_LOGS_CMD, "--alert-purposes: '%.*s' %s",
                             (int) bad.len, (const char *) bad.data, errmsg);
                goto fail;
            }
            break;
        case 'L':
            mib = strtol(optarg, &end, 10);
            if (*optarg == '\0' || *end != '\0' || mib < 1 || mib > 4095) {
                ra_cli_error(RA_LOGS_CMD, "--ledger: '%s' is not a size in "
                             "MiB (1-4095)", optarg);
                goto fail;
            }
            break;
        case 'F':
        case 'J':
            if (x->have_given) {
                ra_cli_error(RA_LOGS_CMD, "--log-format and --json-fields "
                             "name one format, given once");
                goto fail;
            }
            if ((c == 'F' ? ra_logfmt_compile(ra_str(optarg, strlen(optarg)),
                                              &x->given, &errmsg)
                          : ra_logfmt_json_fields(ra_str(optarg,
                                                         strlen(optarg)),
                                                  &x->given, &errmsg))
                != RA_OK)
            {
                ra_cli_error(RA_LOGS_CMD, "%s '%s': %s", c == 'F'
                             ? "--log-format" : "--json-fields", optarg,
                             errmsg);
                goto fail;
            }
            x->have_given = 1;
            break;
        case 'I':
            if (x->ntrusted == RA_LOGS_TRUST_MAX
                || ra_cidr_parse(ra_str(optarg, strlen(optarg)),
                                 &x->trusted[x->ntrusted]) != RA_OK)
            {
                ra_cli_error(RA_LOGS_CMD, "--real-ip-from: '%s' is not an "
                             "address or CIDR range (at most %u)", optarg,
                             RA_LOGS_TRUST_MAX);
                goto fail;
            }
            x->ntrusted++;
            break;
        case 'o':
            output = optarg;
            break;
        case 'w':
            follow = 1;
            break;
        case 'i':
            if (ra_logs_seconds("--interval", optarg, &interval) != 0) {
                goto fail;
            }
            interval_set = 1;
            break;
        case 'D':
            rdns = 1;
            break;
        case 'n':
            no_ranges = 1;
            break;
        case 'H':
            if (ra_logs_seconds("--html-refresh", optarg, &refresh) != 0) {
                goto fail;
            }
            x->html_refresh = (uint32_t) refresh;
            break;
        case 'N':
            resolver = optarg;
            break;
        case 'C':
            rdns_cache = optarg;
            break;
        case RA_LOGS_OPT_SINCE:
        case RA_LOGS_OPT_UNTIL:
        case RA_LOGS_OPT_CRAWLER:
        case RA_LOGS_OPT_STATUS:
        case RA_LOGS_OPT_EXCLUDE:
            if (ra_logs_filter_opt(x, c, optarg, now) != 0) {
                goto fail;
            }
            break;
        case 'S':
            state = optarg;
            break;
        case 'h':
            fputs(ra_logs_usage, stdout);
            rc = RA_EXIT_OK;
            goto fail;
        default:
            fputs(ra_logs_usage, stderr);
            goto fail;
        }
    }
    if (x->have_given) {
        x->rd.given = &x->given;
        x->peek.given = &x->given;
    }
    if (x->nrobots == 0) {
        ra_cli_error(RA_LOGS_CMD, "--robots FILE is required: the robots.txt "
                     "the site served (try --help)");
        goto fail;
    }
    if (ninputs == 0) {
        ra_cli_error(RA_LOGS_CMD, "expects LOG files, or '-' for stdin (try "
                     "--help)");
        goto fail;
    }
    if (site_pending) {
        /* "LOG... --site HOST": the one --site, after the logs, is theirs
         * (as getopt's reordering made it before) */
        if (sites != 1) {
            ra_cli_error(RA_LOGS_CMD, "--site %s names no LOG: a --site "
                         "applies to the LOGs after it", site);
            goto fail;
        }
        for (i = 0; i < ninputs; i++) {
            inputs[i].site = site;
        }
    }
    if (x->filter.until <= x->filter.since) {
        ra_cli_error(RA_LOGS_CMD, "--until is not after --since: no line "
                     "would be reported");
        goto fail;
    }
    if (x->html_refresh && fmt != RA_REPORT_HTML) {
        ra_cli_error(RA_LOGS_CMD, "--html-refresh is for --format html");
        goto fail;
    }
    if (no_ranges && nranges) {
        ra_cli_error(RA_LOGS_CMD, "--no-ranges and --ranges: one or the "
                     "other");
        goto fail;
    }
    if (!no_ranges && nranges == 0
        && (dflt = ra_ranges_dir_files(RA_LOGS_CMD, &nranges)) != NULL)
    {
        free(ranges);
        ranges = dflt;
    }
    if (!follow && interval_set) {
        ra_cli_error(RA_LOGS_CMD, "--interval is for --follow");
        goto fail;
    }
    if (follow && ninputs != 1) {
        ra_cli_error(RA_LOGS_CMD, "--follow follows one LOG, not %u",
                     ninputs);
        goto fail;
    }
    if (follow && strlen(inputs[0].path) > 3
        && strcmp(inputs[0].path + strlen(inputs[0].path) - 3, ".gz") == 0)
    {
        ra_cli_error(RA_LOGS_CMD, "--follow reads a plain log, not %s",
                     inputs[0].path);
        goto fail;
    }

    if (x->conf.alert_purposes != 0 && x->alerts_path == NULL) {
        ra_cli_error(RA_LOGS_CMD, "--alert-purposes is for --alert-log: "
                     "without it no alert is written");
        goto fail;
    }
    if (x->alerts_path != NULL) {
        x->alerts = fopen(x->alerts_path, "a");
        if (x->alerts == NULL) {
            ra_cli_error(RA_LOGS_CMD, "--alert-log %s: %s", x->alerts_path,
                         strerror(errno));
            goto fail;
        }
        ra_buf_init(&x->alert_line, &ra_malloc_allocator, 0, 0);
    }
    if (x->evidence.name != NULL) {
        x->evidence_fd = open(x->evidence.name,
                              O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC,
                              0644);
        if (x->evidence_fd < 0) {
            ra_cli_error(RA_LOGS_CMD, "--evidence-log %s: %s",
                         x->evidence.name, strerror(errno));
            goto fail;
        }
        x->evidence.write = ra_logfile_write_fd;
        x->evidence.file = &x->evidence_fd;
    }
    if (!rdns && (resolver != NULL || rdns_cache != NULL)) {
        ra_cli_error(RA_LOGS_CMD, "--resolver and --rdns-cache are for "
                     "--rdns");
        goto fail;
    }
    if (rdns && (x->dns = ra_cli_rdns_open(RA_LOGS_CMD, resolver,
                                           rdns_cache)) == NULL)
    {
        goto fail;
    }
    /* a followed file may appear later: it is waited for */
    if (ra_logs_robots_load(x) != 0
        || ra_logread_open(&rd, RA_LOGS_CMD, paths,
                           follow ? 0 : (int) ninputs) != 0)
    {
        goto fail;
    }
    if (!follow) {
        ra_logs_order(RA_LOGS_CMD, inputs, paths, ninputs, ra_logs_time_of,
                      x);
    }

    size = (size_t) mib << 20;
    region = malloc(size);
    x->esc = malloc(RA_LOG_LINE_MAX);
    if (region == NULL || x->esc == NULL
        || ra_ledger_format(region, size, 0) != RA_OK)
    {
        ra_cli_error(RA_LOGS_CMD, "out of memory (ledger of %ld MiB)", mib);
        goto fail;
    }
    ra_ledger_open(&x->ledger, region, NULL);
    /* the runs before go on counting; a file refused stops the run, so
     * that the save at its end never writes over it */
    if (state != NULL) {
        c = ra_ledger_file_restore(&x->ledger, &ra_cli_host, NULL,
                                   ra_str("--state", 7), state);
        if (c != RA_OK && c != RA_EAGAIN) {
            ra_cli_error(RA_LOGS_CMD, "--state %s is left as it is: run "
                         "with the --ledger it was saved with, or without "
                         "it", state);
            goto fail;
        }
    }
    if (ra_logs_tables(x, crawlers_file, ranges, nranges) != 0) {
        goto fail;
    }
    ra_logs_robots_lint(x);
    for (i = 0; i < x->filter.ncrawlers; i++) {
        if (ra_logfilter_crawler_unknown(&x->filter, i, x->conf.crawlers)) {
            fprintf(stderr, "robots-audit %s: warning: --crawler %.*s: no "
                    "crawler of the table has this name or robots.txt "
                    "token; it matches generic bots that declare it\n",
                    RA_LOGS_CMD, (int) x->filter.crawlers[i].len,
                    (const char *) x->filter.crawlers[i].data);
        }
    }

    if (x->dns != NULL && !follow) {
        for (i = 0; i < ninputs && strcmp(paths[i], "-") != 0; i++) {
            /* void */
        }
        if (i == ninputs) {
            ra_logs_prefetch(x, paths, ninputs);  /* stdin: read once */
        }
    }
    rd.handler = ra_logs_line;
    rd.ctx = x;
    if (follow) {
        memset(&fw, 0, sizeof(fw));
        fw.x = x;
        fw.fmt = fmt;
        fw.output = output;
        fw.interval = interval * 1000;
        fw.next = ra_logread_ms() + fw.interval;
        fw.crawlers_file = crawlers_file;
        fw.ranges = ranges;
        fw.nranges = nranges;
        fw.mark.start = time(NULL);
        memset(&sa, 0, sizeof(sa));
        sa.sa_handler = ra_logs_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGHUP, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);
        sigaction(SIGINT, &sa, NULL);
        rd.tick = ra_logs_tick;
        rd.tick_ctx = &fw;
        rd.progress = 0;
        x->site = ra_str(inputs[0].site, strlen(inputs[0].site));
        if (ra_follow(&rd, inputs[0].path) < 0) {
            damaged = 1;
        }
        if (fw.failed) {
            damaged = 1;
        }
        if (x->win.stopped || ra_logs_too_bad(&x->win, RA_LOGS_CMD)) {
            goto stop;
        }
        if (x->lines == 0 && rd.overlong == 0) {
            fprintf(stderr, "robots-audit %s: no line was read: no "
                    "report\n", RA_LOGS_CMD);
            rc = damaged ? RA_EXIT_USAGE : RA_EXIT_OK;
            goto fail;
        }
    } else {
        for (i = 0; i < ninputs; i++) {
            x->site = ra_str(inputs[i].site, strlen(inputs[i].site));
            x->site_seeded = 0;
            if (i > 0) {
                ra_logs_overlap(RA_LOGS_CMD, &inputs[last_of], &inputs[i],
                                last);
            }
            x->file_last = INT64_MIN;
            c = ra_logread_file(&rd, inputs[i].path);
            if (x->file_last > last) {
                last = x->file_last;
                last_of = i;
            }
            /* a file shorter than the window: judged at its end */
            if (x->win.stopped || ra_logs_too_bad(&x->win, RA_LOGS_CMD)) {
                goto stop;
            }
            if (c < 0) {
                goto fail;
            }
            if (c > 0) {
                damaged = 1;            /* said so; on with the next */
            }
        }
    }
    ra_logread_close(&rd);

    x->lines += rd.overlong;
    x->malformed += rd.overlong;
    if (x->lines && x->parsed == 0) {
        if (x->first_file != NULL) {
            ra_cli_error(RA_LOGS_CMD, "no line could be read (%s); the "
                         "first line of %s: \"%s\"", x->have_given
                         ? "read as given by --log-format"
                         : "tried json, vhost_combined, combined, common; "
                           "name the format with --log-format",
                         x->first_file, x->first);
        } else {
            ra_cli_error(RA_LOGS_CMD, "no line could be read: every line "
                         "is longer than %u bytes", RA_LOG_LINE_MAX);
        }
        goto fail;
    }
    if (x->malformed) {
        fprintf(stderr, "robots-audit %s: %llu malformed line%s, the first "
                "at %s:%llu\n", RA_LOGS_CMD,
                (unsigned long long) x->malformed,
                x->malformed == 1 ? "" : "s",
                x->bad_file ? x->bad_file : rd.overlong_file,
                (unsigned long long) (x->bad_file ? x->bad_line
                                                  : rd.overlong_line));
        if (x->malformed * 2 > x->lines) {
            fprintf(stderr, "robots-audit %s: warning: more than half of the "
                    "lines (%llu of %llu) are malformed: is the log's format "
                    "the one it was read as? (--log-format names it)\n",
                    RA_LOGS_CMD, (unsigned long long) x->malformed,
                    (unsigned long long) x->lines);
        }
    }
    if (x->malformed || x->skipped) {
        /* the report says them too; stderr keeps a clean run quiet */
        fprintf(stderr, "robots-audit %s: %llu lines read, %llu malformed, "
                "%llu skipped\n", RA_LOGS_CMD, (unsigned long long) x->lines,
                (unsigned long long) x->malformed,
                (unsigned long long) x->skipped);
    }
    if (x->parsed && x->with_ua == 0) {
        fprintf(stderr, "robots-audit %s: warning: the log has no "
                "User-Agent field (common format?): crawlers cannot be "
                "identified; log in the combined format\n", RA_LOGS_CMD);
    }
    if (x->ntrusted && x->parsed && x->with_xff == 0) {
        fprintf(stderr, "robots-audit %s: warning: --real-ip-from, but the "
                "log has no X-Forwarded-For field: every client is the "
                "logged address\n", RA_LOGS_CMD);
    }
    if (x->no_robots) {
        fprintf(stderr, "robots-audit %s: %llu line%s of sites with no "
                "--robots file (the first: %s) judged with no robots.txt "
                "known\n", RA_LOGS_CMD, (unsigned long long) x->no_robots,
                x->no_robots == 1 ? "" : "s", x->no_robots_site);
    }
    if (x->unjudged) {
        fprintf(stderr, "robots-audit %s: %llu line%s with no HTTP request "
                "line (\"-\" or garbage) counted, not judged\n", RA_LOGS_CMD,
                (unsigned long long) x->unjudged,
                x->unjudged == 1 ? "" : "s");
    }
    if (x->nomem) {
        fprintf(stderr, "robots-audit %s: %llu request%s counted but not "
                "judged (out of memory)\n", RA_LOGS_CMD,
                (unsigned long long) x->nomem, x->nomem == 1 ? "" : "s");
    }

    rc = ra_logs_report(x, fmt, output, follow ? &fw.mark : NULL) == 0
         && !damaged ? RA_EXIT_OK : RA_EXIT_USAGE;
    if (ra_cli_rdns_close(x->dns) != 0) {
        rc = RA_EXIT_USAGE;
    }
    x->dns = NULL;

stop:
    if (state != NULL
        && ra_ledger_file_save(&x->ledger, &ra_cli_host, NULL,
                               ra_str("--state", 7), state) != RA_OK)
    {
        rc = RA_EXIT_USAGE;
    }
    if (x->win.stopped) {
        fprintf(stderr, "robots-audit %s: %llu lines read, %llu malformed, "
                "%llu skipped\n", RA_LOGS_CMD, (unsigned long long) x->lines,
                (unsigned long long) x->malformed,
                (unsigned long long) x->skipped);
    }
fail:
    if (rd.buf != NULL) {
        ra_logread_close(&rd);
    }
    if (x != NULL) {
        if (x->au != NULL) {
            ra_audit_destroy(x->au);
        }
        ra_logs_tables_free(x->tables);
        for (i = 0; i < x->nrobots; i++) {
            if (x->robots[i].linted) {
                ra_lint_free(&x->robots[i].lint, &ra_malloc_allocator);
            }
            free((void *) x->robots[i].text.data);
            free((void *) x->robots[i].host);
        }
        free(x->esc);
        (void) ra_cli_rdns_close(x->dns);
        if (x->evidence.file != NULL && close(x->evidence_fd) != 0
            && rc == RA_EXIT_OK)
        {
            ra_cli_error(RA_LOGS_CMD, "--evidence-log %s: %s",
                         x->evidence.name, strerror(errno));
            rc = RA_EXIT_USAGE;
        }
        if (x->alerts != NULL) {
            ra_buf_release(&x->alert_line);
            if (fclose(x->alerts) != 0 && rc == RA_EXIT_OK) {
                ra_cli_error(RA_LOGS_CMD, "--alert-log %s: %s",
                             x->alerts_path, strerror(errno));
                rc = RA_EXIT_USAGE;
            }
        }
    }
    free(x);
    free(inputs);
    free(ranges);
    free(paths);
    free(region);
    return rc;
}
