/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * robots-audit identify: which crawler a User-Agent is, and whether a
 * client address is really its operator's.
 */
#include <netdb.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <netinet/in.h>

#include "cli.h"
#include "ra_crawlers.h"
#include "ra_verify.h"

#define RA_ID_CMD         "identify"
#define RA_ID_MAX_FWD     16

typedef struct {
    ra_crawlers_t  *tab;
    ra_ranges_t    *ranges;
    ra_addr_t       addr;
    int             have_addr;
    int             rdns;
    int             json;
    ra_buf_t        out;
} ra_id_ctx_t;

static void
ra_id_usage(FILE *f)
{
    fprintf(f,
"usage: robots-audit identify [--format text|json] [--ranges FILE]...\n"
"           [--crawlers FILE] [--address IP [--rdns]] [USER_AGENT...]\n\n"
"Identifies each User-Agent (one a line from stdin when none is given):\n"
"a known crawler (its robots.txt tokens, category, operator), a generic\n"
"bot (the product it declares), a browser, or no user agent (an empty\n"
"one, or '-' as access logs write it).  With --address, checks\n"
"the address against the crawler's published IP ranges (JSON files\n"
"given with --ranges, named by their base name as the crawler table\n"
"names them) and, with --rdns, by forward-confirmed reverse DNS.\n"
"--crawlers adds entries in the format of data/crawlers.txt.\n");
}

/* Forward-confirmed reverse DNS, synchronously: the modules do the same
 * lookups asynchronously and call the same decision function. */
static int
ra_id_rdns(const ra_crawler_t *c, const ra_addr_t *a)
{
    struct sockaddr_in6   sa;
    struct addrinfo       hints, *res, *ai;
    ra_addr_t             fwd[RA_ID_MAX_FWD];
    char                  host[NI_MAXHOST];
    size_t                n = 0;

    memset(&sa, 0, sizeof(sa));
    sa.sin6_family = AF_INET6;
    memcpy(&sa.sin6_addr, a->b, 16);
    if (ra_addr_is_v4(a)) {
        struct sockaddr_in  s4;

        memset(&s4, 0, sizeof(s4));
        s4.sin_family = AF_INET;
        memcpy(&s4.sin_addr, a->b + 12, 4);
        if (getnameinfo((struct sockaddr *) &s4, sizeof(s4), host,
                        sizeof(host), NULL, 0, NI_NAMEREQD) != 0)
        {
            host[0] = '\0';
        }
    } else if (getnameinfo((struct sockaddr *) &sa, sizeof(sa), host,
                           sizeof(host), NULL, 0, NI_NAMEREQD) != 0)
    {
        host[0] = '\0';
    }
    if (host[0] != '\0') {
        memset(&hints, 0, sizeof(hints));
        hints.ai_family = AF_UNSPEC;
        hints.ai_socktype = SOCK_STREAM;
        if (getaddrinfo(host, NULL, &hints, &res) == 0) {
            for (ai = res; ai != NULL && n < RA_ID_MAX_FWD; ai = ai->ai_next) {
                memset(&fwd[n], 0, sizeof(ra_addr_t));
                if (ai->ai_family == AF_INET) {
                    fwd[n].b[10] = fwd[n].b[11] = 0xff;
                    memcpy(fwd[n].b + 12,
                           &((struct sockaddr_in *) ai->ai_addr)->sin_addr, 4);
                    n++;
                } else if (ai->ai_family == AF_INET6) {
                    memcpy(fwd[n].b,
                           &((struct sockaddr_in6 *) ai->ai_addr)->sin6_addr,
                           16);
                    n++;
                }
            }
            freeaddrinfo(res);
        }
    }
    return ra_verify_rdns_check(c, a, ra_str(host, strlen(host)), fwd, n);
}

static void
ra_id_one(ra_id_ctx_t *x, ra_str_t ua)
{
    ra_identity_t        id;
    const ra_crawler_t  *c;
    ra_buf_t            *b = &x->out;
    size_t               i;
    int                  v = -1, f, absent;
    int                  by = RA_VERIFIED_BY_NONE;   /* how v was decided */
    static const char   *flags[] = { "crawl-delay", "ignores-star",
                                     "user-triggered", "token-only" };

    ra_crawlers_identify(x->tab, ua, &id);
    absent = ra_ua_absent(ua);
    if (absent) {
        id.kind = RA_UA_BROWSER;    /* "-" names no product */
        id.crawler = NULL;
        id.token.len = 0;
    }
    c = id.crawler;
    if (x->have_addr && c != NULL) {
        v = ra_verify(x->ranges, c, &x->addr);
        by = RA_VERIFIED_BY_RANGES;
        if (v != RA_VERIFY_VERIFIED && x->rdns && ra_verify_has_rdns(c)) {
            v = ra_id_rdns(c, &x->addr);
            by = RA_VERIFIED_BY_RDNS;
        }
        if (v == RA_VERIFY_UNVERIFIABLE) {
            by = RA_VERIFIED_BY_NONE;
        }
    } else if (x->have_addr) {
        v = RA_VERIFY_UNVERIFIABLE;
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
        for (i = 0, f = 0; i < 4; i++) {
            if (c->flags & (1u << i)) {
                ra_buf_printf(b, "%s\"%s\"", f++ ? "," : "", flags[i]);
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
    if (by != RA_VERIFIED_BY_NONE) {
        ra_buf_printf(b, ",\"verified_by\":\"%s\"}\n",
                      ra_verified_by_name(by));
    } else {
        ra_buf_cstr(b, ",\"verified_by\":null}\n");
    }
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
    int                 i, status = RA_EXIT_OK;

    memset(&x, 0, sizeof(x));
    ra_cli_setup(&setup);

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
        } else if (strcmp(argv[i], "--crawlers") == 0 && i + 1 < argc) {
            crawlers = argv[++i];
        } else if (strcmp(argv[i], "--address") == 0 && i + 1 < argc) {
            address = argv[++i];
        } else if (strcmp(argv[i], "--rdns") == 0) {
            x.rdns = 1;
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
        if (ra_addr_parse(ra_str(address, strlen(address)), &x.addr)
            != RA_OK)
        {
            return ra_cli_error(RA_ID_CMD, "--address: '%s' is not an IPv4 "
                                "or IPv6 address", address);
        }
        x.have_addr = 1;
    }
    if ((crawlers != NULL
         && ra_cli_setup_file(RA_ID_CMD, &setup, 0, crawlers) != 0)
        || ra_cli_setup_compile(RA_ID_CMD, &setup) != 0)
    {
        return RA_EXIT_USAGE;
    }
    x.tab = setup.crawlers;
    x.ranges = setup.ranges;

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
    return status;
}
