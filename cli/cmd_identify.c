/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * robots-audit identify: which crawler a User-Agent is, and whether a
 * client address is really its operator's.  Whether it is, and how that
 * was decided, is the core's answer (ra_audit_who(), through an engine of
 * the CLI's own), so that identify can never decide otherwise than the
 * modules.
 */
#include <netdb.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <netinet/in.h>

#include "cli.h"
#include "ra_audit.h"
#include "ra_crawlers.h"
#include "ra_sig.h"
#include "ra_verify.h"
#include "ra_cli_rdns.h"
#include "ra_ranges_dir.h"

#define RA_ID_CMD         "identify"
/* The engine's ledger holds nothing but the run's reverse-DNS answers:
 * 1 MiB has room for about a hundred, and identify asks about one
 * address. */
#define RA_ID_LEDGER      (1u << 20)

typedef struct {
    ra_crawlers_t  *tab;
    ra_str_t        addr;           /* --address as given; len 0: none */
    int             rdns;
    const char     *resolver;
    ra_cli_rdns_t  *dns;
    ra_audit_t     *au;
    ra_ledger_t     ledger;
    void           *region;         /* the ledger's memory */
    ra_host_t       host;           /* the engine's: the CLI's, resolving
                                       through dns with --rdns */
    int             json;
    ra_buf_t        out;
    /* Web Bot Auth: --signature-keys, --header, --request, --time */
    ra_sig_keys_t   *keys;
    ra_sig_request_t sig;
    int64_t          now;
} ra_id_ctx_t;

static void
ra_id_usage(FILE *f)
{
    fprintf(f,
"usage: robots-audit identify [--format text|json]\n"
"           [--ranges FILE... | --no-ranges]\n"
"           [--crawlers FILE] [--address IP [--rdns [--resolver ADDR[:PORT]]]]\n"
"           [--signature-keys DIR [--header 'NAME: VALUE']...\n"
"            [--request 'METHOD TARGET'] [--time SECONDS]] [USER_AGENT...]\n\n"
"Identifies each User-Agent (one a line from stdin when none is given):\n"
"a known crawler (its robots.txt tokens, category, operator), a generic\n"
"bot (the product it declares), a browser, or no user agent (an empty\n"
"one, or '-' as access logs write it).  With --address, checks\n"
"the address against the crawler's published IP ranges (JSON files\n"
"given with --ranges, named by their base name as the crawler table\n"
"names them; without --ranges, the *.json files of the directory the\n"
"packaged timer keeps, /var/lib/robots-audit/ranges or\n"
"$ROBOTS_AUDIT_RANGES_DIR, when it exists, unless --no-ranges) and,\n"
"with --rdns, by forward-confirmed reverse DNS (c-ares;\n"
"--resolver names the DNS server, else /etc/resolv.conf's).\n"
"--crawlers adds entries in the format of data/crawlers.txt.\n"
"--signature-keys (a directory of HOST.json key sets) checks the Web Bot\n"
"Auth signature the --header fields carry (Signature, Signature-Input,\n"
"Signature-Agent, Host) on a request --request (default 'GET /') made at\n"
"--time (Unix seconds; default now): a valid signature verifies the\n"
"crawler it names, a failing one makes an impostor of a crawler that\n"
"signs (docs/web-bot-auth.md).\n"
"\n"
"exit status: 0 every User-Agent identified (whatever it is), 2 usage,\n"
"input or output error\n");
}

static int
ra_id_keys(ra_setup_t *s, const char *dir)
{
    ra_buf_t  why;
    int       rc;

    ra_buf_init(&why, &ra_malloc_allocator, 0, 1024);
    rc = ra_setup_signature_keys(s, dir, &why);
    if (rc != RA_OK) {
        ra_cli_error(RA_ID_CMD, "%.*s", (int) why.len, (char *) why.data);
    }
    ra_buf_release(&why);
    return rc == RA_OK ? 0 : -1;
}

/* --header 'Signature-Input: sig1=(...)' */
static int
ra_id_header(ra_sig_request_t *r, const char *arg)
{
    const char  *colon = strchr(arg, ':'), *v;
    ra_str_t     name, value;

    if (colon == NULL || colon == arg) {
        return -1;
    }
    name = ra_str(arg, (size_t) (colon - arg));
    for (v = colon + 1; *v == ' ' || *v == '\t'; v++) { /* void */ }
    value = ra_str(v, strlen(v));
    if (ra_strcaseeq(name, (ra_str_t) ra_string("Signature"))) {
        r->signature = value;
    } else if (ra_strcaseeq(name, (ra_str_t) ra_string("Signature-Input"))) {
        r->signature_input = value;
    } else if (ra_strcaseeq(name, (ra_str_t) ra_string("Signature-Agent"))) {
        r->signature_agent = value;
    } else if (ra_strcaseeq(name, (ra_str_t) ra_string("Host"))) {
        r->authority = value;
    } else {
        return -1;
    }
    return 0;
}

static void
ra_id_one(ra_id_ctx_t *x, ra_str_t ua)
{
    ra_identity_t        id;
    const ra_crawler_t  *c;
    ra_buf_t            *b = &x->out;
    size_t               i;
    int                  v = -1, f, absent;
    const char          *flag;
    unsigned             bits;
    ra_sig_verdict_t     sv;
    ra_request_t         req;
    ra_verdict_t         vd;
    ra_judge_who_t       who;
    ra_str_t             tokens[RA_TOKENS_MAX];
    int                  by;            /* how v was decided */

    memset(&sv, 0, sizeof(sv));
    sv.result = RA_SIG_NONE;
    sv.why = "";

    ra_crawlers_identify(x->tab, ua, &id);
    absent = ra_ua_absent(ua);
    if (absent) {
        id.kind = RA_UA_BROWSER;    /* "-" names no product */
        id.crawler = NULL;
        id.token.len = 0;
    }
    c = id.crawler;
    if (ra_sig_present(&x->sig)) {
        ra_sig_window_t  w = { x->now, 0, -1 };

        (void) ra_sig_verify(x->keys, &ra_cli_host, &x->sig, &w, NULL, &sv);
        if (c == NULL && (c = ra_sig_crawler(x->tab, &sv)) != NULL) {
            id.kind = RA_UA_KNOWN;
            id.crawler = c;
            id.token = c->tokens[0];
            absent = 0;
        }
    }

    /* the signature, the ranges, then reverse DNS, as the modules ask
     * them; a verification is shown when it was asked for (an address
     * given) or a signature decided it */
    memset(&req, 0, sizeof(req));
    req.addr = x->addr;
    req.time = ra_host_now(&x->host);
    memset(&vd, 0, sizeof(vd));
    ra_audit_who(x->au, &id, &req, &sv, &vd, tokens, &who);
    by = (int) vd.verified_by;
    if (x->addr.len != 0 || by == RA_VERIFIED_BY_SIGNATURE) {
        v = (int) vd.verification;
    }

    if (!x->json) {
        ra_buf_cstr(b, absent ? "no user agent"
                       : id.kind == RA_UA_KNOWN ? "crawler "
                       : id.kind == RA_UA_GENERIC ? "generic " : "browser");
        if (c != NULL) {
            ra_buf_log(b, c->name);
            ra_buf_cstr(b, " token=");
            ra_buf_log(b, id.token);
            for (i = 1; i < c->ntokens; i++) {
                ra_buf_ch(b, ',');
                ra_buf_log(b, c->tokens[i]);
            }
            ra_buf_printf(b, " category=%s",
                          ra_crawler_category_name(c->category));
            ra_buf_cstr(b, " operator=\"");
            ra_buf_log(b, c->operator_name);
            ra_buf_ch(b, '"');
        } else if (id.kind == RA_UA_GENERIC) {
            ra_buf_cstr(b, "token=");
            if (id.token.len) {
                ra_buf_log(b, id.token);
            } else {
                ra_buf_ch(b, '-');
            }
        }
        if (v >= 0) {
            ra_buf_printf(b, " verification=%s", ra_verify_name(v));
            if (by != RA_VERIFIED_BY_NONE) {
                ra_buf_printf(b, " verified_by=%s", ra_verified_by_name(by));
            }
        }
        if (sv.result != RA_SIG_NONE) {
            ra_buf_printf(b, " signature=%s", ra_sig_result_name(sv.result));
            if (sv.origin.len) {
                ra_buf_cstr(b, " origin=");
                ra_buf_log(b, sv.origin);
            }
            if (sv.result != RA_SIG_VALID) {
                ra_buf_printf(b, " why=\"%s\"", sv.why);
            }
        }
        ra_buf_cstr(b, " ua=\"");
        ra_buf_log(b, ua);
        ra_buf_cstr(b, "\"\n");
        return;
    }

    ra_buf_cstr(b, "{\"user_agent\":");
    ra_buf_json_str(b, ua);
    ra_buf_cstr(b, ",\"crawler\":");
    if (c != NULL) {
        ra_buf_json_str(b, c->name);
    } else {
        ra_buf_cstr(b, "null");
    }
    ra_buf_cstr(b, ",\"token\":");
    if (id.token.len) {
        ra_buf_json_str(b, id.token);
    } else {
        ra_buf_cstr(b, "null");
    }
    ra_buf_cstr(b, ",\"category\":");
    if (c != NULL) {
        ra_buf_printf(b, "\"%s\",\"operator\":",
                      ra_crawler_category_name(c->category));
        ra_buf_json_str(b, c->operator_name);
        ra_buf_cstr(b, ",\"tokens\":[");
        for (i = 0; i < c->ntokens; i++) {
            if (i) {
                ra_buf_ch(b, ',');
            }
            ra_buf_json_str(b, c->tokens[i]);
        }
        ra_buf_cstr(b, "],\"flags\":[");
        for (i = 0, f = 0; (flag = ra_crawler_flag_name(i, &bits)); i++) {
            if ((c->flags & bits) == bits) {
                ra_buf_printf(b, "%s\"%s\"", f++ ? "," : "", flag);
            }
        }
        ra_buf_ch(b, ']');
    } else {
        ra_buf_cstr(b, "null,\"operator\":null,\"tokens\":[");
        if (id.token.len) {
            ra_buf_json_str(b, id.token);
        }
        ra_buf_cstr(b, "],\"flags\":[]");
    }
    ra_buf_printf(b, ",\"generic\":%s,\"no_user_agent\":%s,"
                  "\"verification\":",
                  id.kind == RA_UA_GENERIC ? "true" : "false",
                  absent ? "true" : "false");
    if (v >= 0) {
        ra_buf_printf(b, "\"%s\"", ra_verify_name(v));
    } else {
        ra_buf_cstr(b, "null");
    }
    if (sv.result != RA_SIG_NONE) {
        ra_buf_printf(b, ",\"signature\":{\"result\":\"%s\",\"origin\":",
                      ra_sig_result_name(sv.result));
        if (sv.origin.len) {
            ra_buf_json_str(b, sv.origin);
        } else {
            ra_buf_cstr(b, "null");
        }
        ra_buf_printf(b, ",\"why\":\"%s\"}", sv.why);
    }
    if (by != RA_VERIFIED_BY_NONE) {
        ra_buf_printf(b, ",\"verified_by\":\"%s\"}\n",
                      ra_verified_by_name(by));
    } else {
        ra_buf_cstr(b, ",\"verified_by\":null}\n");
    }
}

/* The engine ra_id_one() asks: the tables, and a ledger of its own for
 * reverse-DNS answers (the CLI's host answers a lookup at once, so each
 * request is decided by its answer); 0, or -1 said. */
static int
ra_id_engine(ra_id_ctx_t *x, const ra_setup_t *setup)
{
    ra_audit_conf_t  conf;

    x->host = ra_cli_host;
    if (x->dns != NULL) {
        ra_cli_rdns_host(x->dns, &x->host);
    }
    x->region = malloc(RA_ID_LEDGER);
    if (x->region == NULL
        || ra_ledger_format(x->region, RA_ID_LEDGER, 0) != RA_OK)
    {
        ra_cli_error(RA_ID_CMD, "out of memory");
        return -1;
    }
    ra_ledger_open(&x->ledger, x->region, NULL);
    memset(&conf, 0, sizeof(conf));
    conf.alloc = &ra_malloc_allocator;
    conf.crawlers = setup->crawlers;
    conf.ranges = setup->ranges;
    conf.host = &x->host;
    conf.alert_interval = -1;
    conf.rdns.budget = UINT32_MAX;      /* one address, the user's */
    x->au = ra_audit_create(&conf, &x->ledger);
    if (x->au == NULL) {
        ra_cli_error(RA_ID_CMD, "out of memory");
        return -1;
    }
    if (x->dns != NULL) {
        ra_cli_rdns_bind(x->dns, x->au);
    }
    return 0;
}

/* No --ranges: the files of the directory the packaged timer keeps */
static int
ra_id_default_ranges(ra_setup_t *setup)
{
    char      **files;
    unsigned    i, n;
    int         rc = 0;

    files = ra_ranges_dir_files(RA_ID_CMD, &n);
    for (i = 0; i < n && rc == 0; i++) {
        rc = ra_cli_setup_file(RA_ID_CMD, setup, 1, files[i]);
    }
    free(files);
    return rc;
}

int
ra_cmd_identify(int argc, char **argv)
{
    ra_id_ctx_t         x;
    ra_setup_t          setup;
    const char         *crawlers = NULL, *address = NULL;
    char               *line = NULL;
    size_t              cap = 0;
    long                n;
    int                 i, status = RA_EXIT_OK, no_ranges = 0;
    unsigned            nranges = 0;
    ra_addr_t           addr;

    memset(&x, 0, sizeof(x));
    ra_cli_setup(&setup);
    x.sig.method = (ra_str_t) ra_string("GET");
    x.sig.target = (ra_str_t) ra_string("/");
    x.sig.scheme = (ra_str_t) ra_string("https");

    /* the core never frees piecemeal: the process exit returns it all */
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            ra_id_usage(stdout);
            return RA_EXIT_OK;
        } else if (strcmp(argv[i], "--format") == 0 && i + 1 < argc) {
            i++;
            if (strcmp(argv[i], "json") == 0) {
                x.json = 1;
            } else if (strcmp(argv[i], "text") != 0) {
                return ra_cli_error(RA_ID_CMD, "--format: text or json, "
                                    "not '%s'", argv[i]);
            }
        } else if (strcmp(argv[i], "--ranges") == 0 && i + 1 < argc) {
            if (ra_cli_setup_file(RA_ID_CMD, &setup, 1, argv[++i]) != 0) {
                return RA_EXIT_USAGE;
            }
            nranges++;
        } else if (strcmp(argv[i], "--no-ranges") == 0) {
            no_ranges = 1;
        } else if (strcmp(argv[i], "--crawlers") == 0 && i + 1 < argc) {
            crawlers = argv[++i];
        } else if (strcmp(argv[i], "--address") == 0 && i + 1 < argc) {
            address = argv[++i];
        } else if (strcmp(argv[i], "--rdns") == 0) {
            x.rdns = 1;
        } else if (strcmp(argv[i], "--signature-keys") == 0 && i + 1 < argc) {
            if (ra_id_keys(&setup, argv[++i]) != 0) {
                return RA_EXIT_USAGE;
            }
        } else if (strcmp(argv[i], "--header") == 0 && i + 1 < argc) {
            if (ra_id_header(&x.sig, argv[++i]) != 0) {
                return ra_cli_error(RA_ID_CMD, "--header: 'NAME: VALUE', "
                                    "not '%s'", argv[i]);
            }
        } else if (strcmp(argv[i], "--request") == 0 && i + 1 < argc) {
            const char  *sp = strchr(argv[++i], ' ');

            if (sp == NULL || sp == argv[i] || sp[1] == '\0') {
                return ra_cli_error(RA_ID_CMD, "--request: 'METHOD TARGET', "
                                    "not '%s'", argv[i]);
            }
            x.sig.method = ra_str(argv[i], (size_t) (sp - argv[i]));
            x.sig.target = ra_str(sp + 1, strlen(sp + 1));
        } else if (strcmp(argv[i], "--time") == 0 && i + 1 < argc) {
            char  *end;

            x.now = (int64_t) strtoll(argv[++i], &end, 10) * 1000;
            if (*end != '\0' || x.now <= 0) {
                return ra_cli_error(RA_ID_CMD, "--time: Unix seconds, not "
                                    "'%s'", argv[i]);
            }
        } else if (strcmp(argv[i], "--resolver") == 0 && i + 1 < argc) {
            x.resolver = argv[++i];
        } else if (strcmp(argv[i], "--") == 0) {
            i++;
            break;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            ra_id_usage(stderr);
            return ra_cli_error(RA_ID_CMD, "unknown or incomplete option "
                                "'%s'", argv[i]);
        } else {
            break;
        }
    }

    if (address != NULL) {
        x.addr = ra_str(address, strlen(address));
        if (x.addr.len == 0 || ra_addr_parse(x.addr, &addr) != RA_OK) {
            return ra_cli_error(RA_ID_CMD, "--address: '%s' is not an IPv4 "
                                "or IPv6 address", address);
        }
    }
    if (no_ranges && nranges) {
        return ra_cli_error(RA_ID_CMD, "--no-ranges and --ranges: one or "
                            "the other");
    }
    if (!no_ranges && nranges == 0 && ra_id_default_ranges(&setup) != 0) {
        return RA_EXIT_USAGE;
    }
    if ((crawlers != NULL
         && ra_cli_setup_file(RA_ID_CMD, &setup, 0, crawlers) != 0)
        || ra_cli_setup_compile(RA_ID_CMD, &setup) != 0)
    {
        return RA_EXIT_USAGE;
    }
    x.tab = setup.crawlers;
    x.keys = setup.sig_keys;
    if (x.now == 0) {
        x.now = ra_host_now(&ra_cli_host);
    }
    if (x.resolver != NULL && !x.rdns) {
        return ra_cli_error(RA_ID_CMD, "--resolver is for --rdns");
    }
    if (x.rdns && x.addr.len != 0
        && (x.dns = ra_cli_rdns_open(RA_ID_CMD, x.resolver, NULL)) == NULL)
    {
        return RA_EXIT_USAGE;
    }
    if (ra_id_engine(&x, &setup) != 0) {
        (void) ra_cli_rdns_close(x.dns);
        free(x.region);
        return RA_EXIT_USAGE;
    }

    ra_buf_init(&x.out, &ra_malloc_allocator, 4096, 0);
    if (i < argc) {
        for ( ; i < argc; i++) {
            ra_id_one(&x, ra_str(argv[i], strlen(argv[i])));
        }
        if (ra_cli_write(RA_ID_CMD, stdout, &x.out) != 0) {
            status = RA_EXIT_USAGE;
        }
    } else {
        while ((n = ra_cli_getline(stdin, &line, &cap)) >= 0) {
            ra_id_one(&x, ra_str(line, (size_t) n));
            if (x.out.len >= 65536) {
                if (ra_cli_write(RA_ID_CMD, stdout, &x.out) != 0) {
                    status = RA_EXIT_USAGE;
                    break;
                }
                x.out.len = 0;
            }
        }
        free(line);
        if (status == RA_EXIT_OK
            && ra_cli_write(RA_ID_CMD, stdout, &x.out) != 0)
        {
            status = RA_EXIT_USAGE;
        }
    }
    ra_buf_release(&x.out);
    (void) ra_cli_rdns_close(x.dns);
    ra_audit_destroy(x.au);
    free(x.region);
    return status;
}
