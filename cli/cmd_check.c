/* SPDX-License-Identifier: BSD-2-Clause */
/* robots-audit check: judge URLs against a robots.txt for one crawler. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ra_crawlers.h"
#include "ra_lint.h"
#include "ra_rules.h"

static const char  ra_check_usage[] =
    "usage: robots-audit check [--mode rfc|google] ROBOTS_FILE AGENT [URL...]\n"
    "       robots-audit check [--mode rfc|google] --user-agent UA\n"
    "                          [--crawlers FILE] ROBOTS_FILE [URL...]\n"
    "\n"
    "Judges each URL (from the arguments, or one a line from stdin) for the\n"
    "crawler whose robots.txt product token is AGENT, taken verbatim, or\n"
    "for the crawler a whole User-Agent header identifies, with its tokens\n"
    "in order of preference (Googlebot-Image, then Googlebot).\n"
    "Prints one line per URL:\n"
    "  allowed|disallowed <TAB> URL <TAB> LINE <TAB> RULE <TAB> group=G line=N\n"
    "where LINE and RULE are the deciding rule's (0 and '-' when none), G\n"
    "the token whose group applied ('*', or '-' when none did) and N that\n"
    "group's first User-agent line: a specific group replaces '*'.\n"
    "A URL is absolute (https://host/path) or a path starting with '/'.\n"
    "\n"
    "  --mode rfc     RFC 9309: URL and rules %%-normalised, /robots.txt\n"
    "                 always allowed (default)\n"
    "  --mode google  exactly what Google's reference parser decides\n"
    "  --user-agent UA  identify the crawler from a User-Agent header\n"
    "  --crawlers FILE  crawler entries of your own (with --user-agent)\n"
    "  -h, --help     this text\n"
    "\n"
    "exit status: 0 all allowed, 1 any disallowed, 2 usage or input error\n";

/* A robots.txt is text: refuse what is plainly binary (an image, an
 * archive, UTF-16) with a message instead of judging garbage; lint
 * decides what binary is. */
static const char *
ra_check_binary(ra_str_t body)
{
    if (body.len >= 2 && ((body.data[0] == 0xff && body.data[1] == 0xfe)
                          || (body.data[0] == 0xfe && body.data[1] == 0xff)))
    {
        return "UTF-16 (crawlers read it as UTF-8 and find no rules;"
               " 'robots-audit lint' explains)";
    }
    return ra_lint_binary(body);
}

/* Absolute URLs and absolute paths only: "example.com/x" is ambiguous. */
static int
ra_check_url_ok(const char *u)
{
    const char  *p;

    if (u[0] == '/') {
        return 1;
    }
    for (p = u; ra_isalpha(*p) || ra_isdigit(*p) || *p == '+' || *p == '-'
                || *p == '.'; p++) { /* void */ }
    return p > u && ra_isalpha(u[0]) && strncmp(p, "://", 3) == 0;
}

typedef struct {
    ra_str_t   tokens[8];
    size_t     n;
    int        ignores_star;
} ra_check_agent_t;

static int
ra_check_one(const ra_rules_t *rules, ra_mode_e mode,
    const ra_check_agent_t *ag, const char *url, size_t len, ra_buf_t *out)
{
    size_t      i;
    ra_match_t  m;
    ra_str_t    path;

    path = ra_url_path(ra_str(url, len));
    (void) ra_rules_match(rules, mode, ag->tokens, ag->n, path,
                          &ra_malloc_allocator, &m);
    if (ag->ignores_star && m.group.len == 1 && m.group.data[0] == '*') {
        m.allowed = 1;              /* e.g. AdsBot-Google: "*" is not for it */
        m.why = RA_WHY_NO_GROUP;
        m.line = 0;
        m.group.len = 0;
        m.group_line = 0;
    }

    out->len = 0;
    ra_buf_cstr(out, m.allowed ? "allowed\t" : "disallowed\t");
    ra_buf_log(out, ra_str(url, len));
    ra_buf_printf(out, "\t%u\t", m.line);
    if (m.why == RA_WHY_RULE && m.line) {
        ra_buf_cstr(out, m.type == RA_RULE_ALLOW ? "allow: " : "disallow: ");
        ra_buf_log(out, m.pattern);
    } else {
        ra_buf_ch(out, '-');
    }
    /* the group that decided, as Google's parser compares tokens */
    ra_buf_cstr(out, "\tgroup=");
    if (m.group.len == 0) {
        ra_buf_ch(out, '-');
    }
    i = out->len;
    ra_buf_log(out, m.group);
    for ( /* void */ ; i < out->len; i++) {
        out->data[i] = (unsigned char) ra_lower(out->data[i]);
    }
    ra_buf_printf(out, " line=%u\n", m.group_line);
    return m.allowed;
}

/* The tokens to judge for: AGENT verbatim, or the crawler that a whole
 * User-Agent header identifies, with its tokens in order of preference. */
static int
ra_check_agent(const char *agent, const char *ua, const char *crawlers,
    ra_check_agent_t *ag)
{
    size_t               i;
    ra_identity_t        id;
    ra_crawlers_t       *tab;
    const ra_crawler_t  *c;

    memset(ag, 0, sizeof(*ag));
    if (ua == NULL) {
        ag->tokens[ag->n++] = ra_str(agent, strlen(agent));
        return 0;
    }
    tab = ra_cli_crawlers("check", crawlers);
    if (tab == NULL) {
        return -1;
    }
    (void) ra_crawlers_identify(tab, ra_str(ua, strlen(ua)), &id);
    c = id.crawler;
    if (c != NULL) {
        for (i = 0; i < c->ntokens && ag->n < 8; i++) {
            ag->tokens[ag->n++] = c->tokens[i];
        }
        ag->ignores_star = (c->flags & RA_CRAWLER_IGNORES_STAR) != 0;
        fprintf(stderr, "robots-audit check: %.*s", (int) c->name.len,
                (const char *) c->name.data);
    } else if (id.kind == RA_UA_GENERIC && id.token.len) {
        ag->tokens[ag->n++] = id.token;
        fprintf(stderr, "robots-audit check: a generic bot");
    } else {
        fprintf(stderr, "robots-audit check: no crawler (the \"*\" group"
                " applies)\n");
        return 0;
    }
    fprintf(stderr, ", tokens:");
    for (i = 0; i < ag->n; i++) {
        fprintf(stderr, " %.*s", (int) ag->tokens[i].len,
                (const char *) ag->tokens[i].data);
    }
    fputc('\n', stderr);
    return 0;
}

int
ra_cmd_check(int argc, char **argv)
{
    int                c, rc, bad, allowed_all, i, first;
    long               n;
    char              *line;
    size_t             cap;
    ra_buf_t           out;
    ra_str_t           body;
    ra_mode_e          mode;
    ra_rules_t        *rules;
    const char        *why, *ua, *crawlers;
    ra_check_agent_t   ag;

    static const struct option  opts[] = {
        { "mode", required_argument, NULL, 'm' },
        { "user-agent", required_argument, NULL, 'u' },
        { "crawlers", required_argument, NULL, 'c' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 }
    };

    mode = RA_MODE_RFC;
    ua = crawlers = NULL;
    while ((c = getopt_long(argc, argv, "+m:u:c:h", opts, NULL)) != -1) {
        switch (c) {
        case 'm':
            if (strcmp(optarg, "rfc") == 0) {
                mode = RA_MODE_RFC;
            } else if (strcmp(optarg, "google") == 0) {
                mode = RA_MODE_GOOGLE;
            } else {
                return ra_cli_error("check", "--mode takes rfc or google,"
                                    " not '%s'", optarg);
            }
            break;
        case 'u':
            ua = optarg;
            break;
        case 'c':
            crawlers = optarg;
            break;
        case 'h':
            fputs(ra_check_usage, stdout);
            return RA_EXIT_OK;
        default:
            fputs(ra_check_usage, stderr);
            return RA_EXIT_USAGE;
        }
    }

    /* ROBOTS_FILE, then AGENT unless --user-agent, then URLs */
    first = optind + (ua ? 1 : 2);
    if (argc < first) {
        fputs(ra_check_usage, stderr);
        return RA_EXIT_USAGE;
    }
    if (ua == NULL && argv[optind + 1][0] == '\0') {
        return ra_cli_error("check", "AGENT is empty: give the crawler's"
                            " product token, e.g. Googlebot");
    }
    if (ua != NULL && ua[0] == '\0') {
        return ra_cli_error("check", "--user-agent is empty");
    }
    for (i = first; i < argc; i++) {
        if (!ra_check_url_ok(argv[i])) {
            return ra_cli_error("check", "'%s' is not a URL: give"
                                " https://host/path or a path starting"
                                " with '/'", argv[i]);
        }
    }

    if (ra_cli_read_file("check", argv[optind], &body) != 0) {
        return RA_EXIT_USAGE;
    }
    why = ra_check_binary(body);
    if (why != NULL) {
        free((void *) body.data);
        return ra_cli_error("check", "%s: not a robots.txt: it is %s",
                            argv[optind], why);
    }
    rc = ra_rules_compile(body, &ra_malloc_allocator, &rules, NULL);
    free((void *) body.data);
    if (rc != RA_OK) {
        return ra_cli_error("check", "out of memory");
    }
    if (ra_check_agent(argv[optind + 1], ua, crawlers, &ag) != 0) {
        ra_rules_free(rules);
        return RA_EXIT_USAGE;
    }

    ra_buf_init(&out, &ra_malloc_allocator, 512, 0);
    allowed_all = 1;
    bad = 0;

    if (argc > first) {
        for (i = first; i < argc && !bad; i++) {
            allowed_all &= ra_check_one(rules, mode, &ag, argv[i],
                                        strlen(argv[i]), &out);
            bad = ra_cli_write("check", stdout, &out) != 0;
        }
    } else {
        line = NULL;
        cap = 0;
        while (!bad && (n = ra_cli_getline(stdin, &line, &cap)) >= 0) {
            if (n == 0) {
                continue;
            }
            if (memchr(line, '\0', (size_t) n) != NULL
                || !ra_check_url_ok(line))
            {
                out.len = 0;
                ra_buf_log(&out, ra_str(line, (size_t) n > 200 ? 200
                                                                : (size_t) n));
                ra_cli_error("check", "'%.*s' is not a URL: give"
                             " https://host/path or a path starting"
                             " with '/'", (int) out.len, (char *) out.data);
                bad = 1;
                break;
            }
            allowed_all &= ra_check_one(rules, mode, &ag, line, (size_t) n,
                                        &out);
            bad = ra_cli_write("check", stdout, &out) != 0;
        }
        free(line);
    }

    ra_buf_release(&out);
    ra_rules_free(rules);
    if (fflush(stdout) != 0) {
        bad = 1;
    }
    if (bad) {
        return RA_EXIT_USAGE;
    }
    return allowed_all ? RA_EXIT_OK : RA_EXIT_FOUND;
}
