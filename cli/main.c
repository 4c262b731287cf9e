/* SPDX-License-Identifier: BSD-2-Clause */
/* robots-audit: the command-line front end of the core. */
#include <string.h>

#include "cli.h"

#ifndef RA_VERSION
#define RA_VERSION  "0.1.0"
#endif

static const ra_cli_command_t  ra_commands[] = {
    { "check",    ra_cmd_check,
      "judge URLs against a robots.txt for one crawler" },
    { "lint",     ra_cmd_lint, "what crawlers will make of a robots.txt" },
    { "identify", ra_cmd_identify, "name the crawler behind a User-Agent" },
    { "logs",     ra_cmd_logs, "audit crawlers in access logs" },
    { "whatif",   ra_cmd_whatif, "replay logs under a proposed robots.txt" },
    { "ranges",   ra_cmd_ranges,
      "fetch the published IP-range files and agents' keys" },
    { "robots-txt", ra_cmd_robotstxt,
      "write the robots.txt that refuses purposes, or report on one" },
    { "sitemap",  ra_cmd_sitemap,
      "list the URLs of a sitemap that robots.txt disallows" },
    { "collect",  ra_cmd_collect,
      "judge the event stream of a fleet of servers" },
    /* further commands are added here, one line each */
};

#define RA_NCOMMANDS  (sizeof(ra_commands) / sizeof(ra_commands[0]))

static void
ra_usage(FILE *f)
{
    size_t  i;

    fprintf(f, "usage: robots-audit COMMAND [OPTIONS] [ARGS]\n\n"
               "Audits robots.txt files and crawler behaviour.\n\n"
               "commands:\n");
    for (i = 0; i < RA_NCOMMANDS; i++) {
        fprintf(f, "  %-10s %s\n", ra_commands[i].name, ra_commands[i].summary);
    }
    fprintf(f, "\n'robots-audit COMMAND --help' describes a command.\n"
               "exit status: 0 ok, 1 something found (disallowed URL, "
               "error finding), 2 usage or input error\n");
}

int
main(int argc, char **argv)
{
    size_t  i;

    if (argc < 2) {
        ra_usage(stderr);
        return RA_EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0
        || strcmp(argv[1], "help") == 0)
    {
        ra_usage(stdout);
        return RA_EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("robots-audit %s\n", RA_VERSION);
        return RA_EXIT_OK;
    }
    for (i = 0; i < RA_NCOMMANDS; i++) {
        if (strcmp(argv[1], ra_commands[i].name) == 0) {
            return ra_commands[i].run(argc - 1, argv + 1);
        }
    }
    fprintf(stderr, "robots-audit: unknown command '%s'\n\n", argv[1]);
    ra_usage(stderr);
    return RA_EXIT_USAGE;
}
