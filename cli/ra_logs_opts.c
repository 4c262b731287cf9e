/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The options of 'robots-audit logs' (ra_logs_opts.h): its --help, the
 * command line read into ra_logs_opts_t, and the checks of the options
 * against each other.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "cli.h"
#include "ra_audit.h"
#include "ra_logs_opts.h"
#include "ra_logs_read.h"
#include "ra_ranges_dir.h"

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
"           [--crawlers FILE]\n"
"           [--format text|json|html|prometheus|csv|csv-crawlers]\n"
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
"  --format F        text (default), json, html, prometheus, csv (the\n"
"                    violations, one a row) or csv-crawlers (the crawler\n"
"                    records, one a row)\n"
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

/* One filter option into o->filter (ra_logfilter.h); 0 or -1, said */
static int
ra_logs_filter_opt(ra_logs_opts_t *o, int c, const char *arg, int64_t now)
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
    err = ra_logfilter_opt(&o->filter, opts[i].opt, ra_str(arg, strlen(arg)),
                           now);
    if (err != NULL) {
        return ra_cli_error(RA_LOGS_CMD, "%s '%s' %s", opts[i].name, arg,
                            err);
    }
    return 0;
}

/* --robots [HOST=]FILE: a site's file, or the plain one, given once */
static int
ra_logs_robots_opt(ra_logs_opts_t *o, const char *arg)
{
    const char            *eq = strchr(arg, '=');
    ra_logs_robots_opt_t  *rb;
    unsigned               i;
    char                  *host;

    if (o->nrobots == RA_LOGS_ROBOTS_MAX) {
        return ra_cli_error(RA_LOGS_CMD, "--robots: more than %u files",
                            RA_LOGS_ROBOTS_MAX);
    }
    rb = &o->robots[o->nrobots];
    memset(rb, 0, sizeof(*rb));
    /* HOST=FILE when what is before '=' is a host name, not a path */
    if (eq != NULL && eq != arg && memchr(arg, '/', (size_t) (eq - arg))
        == NULL && eq[1] != '\0')
    {
        host = strndup(arg, (size_t) (eq - arg));
        if (host == NULL) {
            return ra_cli_error(RA_LOGS_CMD, "out of memory");
        }
        for (i = 0; i < o->nrobots; i++) {
            if (o->robots[i].host != NULL
                && strcasecmp(o->robots[i].host, host) == 0)
            {
                ra_cli_error(RA_LOGS_CMD, "--robots %s: a second file for "
                             "%s", arg, host);
                free(host);
                return RA_EXIT_USAGE;
            }
        }
        rb->host = host;
        rb->path = eq + 1;
    } else {
        if (o->plain >= 0) {
            return ra_cli_error(RA_LOGS_CMD, "--robots %s: a plain --robots "
                                "FILE serves every site and is given once; "
                                "name each site's file with --robots "
                                "HOST=FILE (and each log's site with --site "
                                "HOST before it, when its lines have no "
                                "$host or %%v field)", arg);
        }
        rb->path = arg;
        o->plain = (int) o->nrobots;
    }
    o->nrobots++;
    return 0;
}

/* what the command line's reading keeps between options */
typedef struct {
    const char  *site;                  /* the last --site */
    int          site_pending;          /* given after the last LOG */
    int          sites;
    int          interval_set;
    int64_t      now;                   /* relative times count back */
} ra_logs_parse_t;

static const struct option  ra_logs_long[] = {
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

/* A LOG, or a --site naming the LOGs after it */
static int
ra_logs_opt_input(ra_logs_opts_t *o, ra_logs_parse_t *st, int c,
    char *arg)
{
    if (c == 1) {
        o->inputs[o->ninputs].path = arg;
        o->inputs[o->ninputs].site = st->site;
        o->paths[o->ninputs++] = arg;
        st->site_pending = 0;
        return 0;
    }
    if (arg[0] == '\0') {
        return ra_cli_error(RA_LOGS_CMD, "--site: empty host name");
    }
    if (ra_logs_filter_opt(o, c, arg, st->now) != 0) {
        return -1;
    }
    /* the last --site before a LOG names its lines' site; every one
     * narrows the report (ra_logs_filter()) */
    st->site = arg;
    st->site_pending = 1;
    st->sites++;
    return 0;
}

/* The options of the report and of what is written besides it */
static int
ra_logs_opt_report(ra_logs_opts_t *o, int c, const char *arg)
{
    const char  *errmsg;
    ra_str_t     bad;
    long         refresh;

    switch (c) {
    case 'f':
        if (ra_report_format_by_name(ra_str(arg, strlen(arg)), &o->fmt)
            != RA_OK)
        {
            return ra_cli_error(RA_LOGS_CMD, "--format: text, json, html, "
                                "prometheus, csv or csv-crawlers, not '%s'",
                                arg);
        }
        return 0;
    case 'P':
        o->purpose = ra_crawler_category_of(ra_str(arg, strlen(arg))) + 1;
        if (o->purpose > RA_CAT_MAX) {
            return ra_cli_error(RA_LOGS_CMD, "--purpose: '%s' is not a "
                                "purpose (search, ai-training, ai-search, "
                                "ai-user, seo, social-preview, monitoring, "
                                "archive, feed, academic, security-scanner, "
                                "tool)", arg);
        }
        return 0;
    case 'U':
        errmsg = ra_alert_purposes_parse(ra_str(arg, strlen(arg)),
                                         &o->alert_purposes, &bad);
        if (errmsg != NULL) {
            return ra_cli_error(RA_LOGS_CMD, "--alert-purposes: '%.*s' %s",
                                (int) bad.len, (const char *) bad.data,
                                errmsg);
        }
        return 0;
    case 'H':
        if (ra_logs_seconds("--html-refresh", arg, &refresh) != 0) {
            return -1;
        }
        o->html_refresh = (uint32_t) refresh;
        return 0;
    case 'A': o->alerts_path = arg; return 0;
    case 'E': o->evidence_path = arg; return 0;
    case 'o': o->output = arg; return 0;
    default:  return 0;
    }
}

/* One option (getopt_long()'s c) into o: 0, or -1 said */
static int
ra_logs_opt(ra_logs_opts_t *o, ra_logs_parse_t *st, int c, char *arg)
{
    char  *end;

    switch (c) {
    case 1:
    case 's':
        return ra_logs_opt_input(o, st, c, arg);
    case 'r':
        return ra_logs_robots_opt(o, arg) != 0 ? -1 : 0;
    case 'F':
    case 'J':
        return ra_logs_format_opt(RA_LOGS_CMD, c == 'F' ? "--log-format"
                                  : "--json-fields", arg, &o->given,
                                  &o->have_given) != 0 ? -1 : 0;
    case 'f': case 'P': case 'U': case 'H': case 'A': case 'E': case 'o':
        return ra_logs_opt_report(o, c, arg);
    case 'R': o->ranges[o->nranges++] = arg; return 0;
    case 'c': o->crawlers_file = arg; return 0;
    case 'w': o->follow = 1; return 0;
    case 'D': o->rdns = 1; return 0;
    case 'n': o->no_ranges = 1; return 0;
    case 'N': o->resolver = arg; return 0;
    case 'C': o->rdns_cache = arg; return 0;
    case 'S': o->state = arg; return 0;
    case 'L':
        o->mib = strtol(arg, &end, 10);
        if (*arg == '\0' || *end != '\0' || o->mib < 1 || o->mib > 4095) {
            return ra_cli_error(RA_LOGS_CMD, "--ledger: '%s' is not a size "
                                "in MiB (1-4095)", arg);
        }
        return 0;
    case 'I':
        if (o->ntrusted == RA_LOGS_TRUST_MAX
            || ra_cidr_parse(ra_str(arg, strlen(arg)),
                             &o->trusted[o->ntrusted]) != RA_OK)
        {
            return ra_cli_error(RA_LOGS_CMD, "--real-ip-from: '%s' is not "
                                "an address or CIDR range (at most %u)", arg,
                                RA_LOGS_TRUST_MAX);
        }
        o->ntrusted++;
        return 0;
    case 'i':
        st->interval_set = 1;
        return ra_logs_seconds("--interval", arg, &o->interval);
    default:
        return ra_logs_filter_opt(o, c, arg, st->now);
    }
}

/* The LOGs and the --site after them */
static int
ra_logs_check_inputs(ra_logs_opts_t *o, const ra_logs_parse_t *st)
{
    unsigned  i;

    if (o->nrobots == 0) {
        return ra_cli_error(RA_LOGS_CMD, "--robots FILE is required: the "
                            "robots.txt the site served (try --help)");
    }
    if (o->ninputs == 0) {
        return ra_cli_error(RA_LOGS_CMD, "expects LOG files, or '-' for "
                            "stdin (try --help)");
    }
    if (st->site_pending) {
        /* "LOG... --site HOST": the one --site, after the logs, is theirs
         * (as getopt's reordering made it before) */
        if (st->sites != 1) {
            return ra_cli_error(RA_LOGS_CMD, "--site %s names no LOG: a "
                                "--site applies to the LOGs after it",
                                st->site);
        }
        for (i = 0; i < o->ninputs; i++) {
            o->inputs[i].site = st->site;
        }
    }
    return 0;
}

/* The options that need another, or exclude one */
static int
ra_logs_check(ra_logs_opts_t *o, const ra_logs_parse_t *st)
{
    char   **dflt;
    size_t   n;

    if (ra_logs_check_inputs(o, st) != 0) {
        return -1;
    }
    if (o->filter.until <= o->filter.since) {
        return ra_cli_error(RA_LOGS_CMD, "--until is not after --since: no "
                            "line would be reported");
    }
    if (o->html_refresh && o->fmt != RA_REPORT_HTML) {
        return ra_cli_error(RA_LOGS_CMD, "--html-refresh is for --format "
                            "html");
    }
    if (o->no_ranges && o->nranges) {
        return ra_cli_error(RA_LOGS_CMD, "--no-ranges and --ranges: one or "
                            "the other");
    }
    if (!o->no_ranges && o->nranges == 0
        && (dflt = ra_ranges_dir_files(RA_LOGS_CMD, &o->nranges)) != NULL)
    {
        free(o->ranges);
        o->ranges = dflt;
    }
    if (!o->follow && st->interval_set) {
        return ra_cli_error(RA_LOGS_CMD, "--interval is for --follow");
    }
    if (o->follow && o->ninputs != 1) {
        return ra_cli_error(RA_LOGS_CMD, "--follow follows one LOG, not %u",
                            o->ninputs);
    }
    n = o->follow ? strlen(o->inputs[0].path) : 0;
    if (n > 3 && strcmp(o->inputs[0].path + n - 3, ".gz") == 0) {
        return ra_cli_error(RA_LOGS_CMD, "--follow reads a plain log, not %s",
                            o->inputs[0].path);
    }
    if (o->alert_purposes != 0 && o->alerts_path == NULL) {
        return ra_cli_error(RA_LOGS_CMD, "--alert-purposes is for "
                            "--alert-log: without it no alert is written");
    }
    if (!o->rdns && (o->resolver != NULL || o->rdns_cache != NULL)) {
        return ra_cli_error(RA_LOGS_CMD, "--resolver and --rdns-cache are "
                            "for --rdns");
    }
    return 0;
}

int
ra_logs_opts_parse(ra_logs_opts_t *o, int argc, char **argv,
    int *exit_status)
{
    ra_logs_parse_t  st;
    int              c;

    memset(o, 0, sizeof(*o));
    memset(&st, 0, sizeof(st));
    *exit_status = RA_EXIT_USAGE;
    o->plain = -1;
    o->mib = RA_LOGS_LEDGER_MIB;
    o->interval = 60;
    o->fmt = RA_REPORT_TEXT;
    o->inputs = calloc((size_t) argc + 1, sizeof(*o->inputs));
    o->ranges = calloc((size_t) argc + 1, sizeof(*o->ranges));
    o->paths = calloc((size_t) argc + 1, sizeof(*o->paths));
    if (o->inputs == NULL || o->ranges == NULL || o->paths == NULL) {
        return ra_cli_error(RA_LOGS_CMD, "out of memory"), -1;
    }
    ra_logfilter_init(&o->filter);
    st.site = "default";
    st.now = ra_logs_clock();

    /* '-': LOGs come back in order, each with the --site before it */
    optind = 1;
    while ((c = getopt_long(argc, argv, "-h", ra_logs_long, NULL)) != -1) {
        if (c == 'h') {
            fputs(ra_logs_usage, stdout);
            *exit_status = RA_EXIT_OK;
            return -1;
        }
        if (c == '?' || c == ':') {
            fputs(ra_logs_usage, stderr);
            return -1;
        }
        if (ra_logs_opt(o, &st, c, optarg) != 0) {
            return -1;
        }
    }
    return ra_logs_check(o, &st) != 0 ? -1 : 0;
}

void
ra_logs_opts_free(ra_logs_opts_t *o)
{
    unsigned  i;

    for (i = 0; i < o->nrobots; i++) {
        free(o->robots[i].host);
    }
    free(o->inputs);
    free(o->ranges);
    free(o->paths);
}
