/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * robots-audit robots-txt: write the robots.txt block that refuses
 * purposes, merged into an existing file, or report what a file lets each
 * crawler of the table do.  The decisions are the core's
 * (ra_robotsgen.h); this file reads options and prints.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "ra_alert.h"
#include "ra_crawlers.h"
#include "ra_robotsgen.h"

static const char  ra_rt_usage[] =
    "usage: robots-audit robots-txt --disallow-purpose P[,P...]\n"
    "                  [--allow-purpose P[,P...]] [--content-signal S]\n"
    "                  [--merge FILE] [--output FILE] [--crawlers FILE]\n"
    "       robots-audit robots-txt --report FILE [--format text|json]\n"
    "                  [--crawlers FILE]\n"
    "\n"
    "Writes a robots.txt block with one group per disallowed purpose,\n"
    "listing every robots.txt token of the crawler table for it (policy\n"
    "tokens such as Google-Extended included) and 'Disallow: /'.  A token\n"
    "an allowed purpose also names is left out (allowed wins), and so is\n"
    "one a crawler of another purpose reads first; user-triggered agents,\n"
    "to which robots.txt does not apply, are named in a comment.  The\n"
    "block lies between '# BEGIN robots-audit' and '# END robots-audit'\n"
    "lines: --merge replaces it in FILE (or appends it), leaving every\n"
    "other line as it was, so running the command again changes nothing.\n"
    "The result is linted; a warning or error about the block refuses it.\n"
    "\n"
    "  --disallow-purpose P  purposes to refuse: search, ai-training,\n"
    "                     ai-search, ai-user, seo, social-preview, feed,\n"
    "                     monitoring, archive, tool, academic,\n"
    "                     security-scanner (commas or spaces; repeatable)\n"
    "  --allow-purpose P  purposes to keep open; wins over a disallow\n"
    "  --content-signal S  a Content-Signal line for every reader\n"
    "                     ('search=yes, ai-train=no')\n"
    "  --merge FILE       the robots.txt to merge the block into\n"
    "  --output FILE      write the result there (atomically), not stdout\n"
    "  --report FILE      per crawler of the table, by purpose: whether\n"
    "                     FILE allows it, partly (some paths disallowed)\n"
    "                     or not, and the group that decided\n"
    "  --format text|json  the report's form (default text)\n"
    "  --crawlers FILE    crawler entries of your own\n"
    "  -h, --help         this text\n"
    "\n"
    "exit status: 0 written / nothing disallowed, 1 the report found a\n"
    "crawler disallowed, 2 usage or input error, or a block lint refuses\n";

/* Reads a purposes option into *set; -1 after a message. */
static int
ra_rt_purposes(const char *opt, const char *arg, unsigned *set)
{
    ra_str_t     bad;
    const char  *why;

    why = ra_alert_purposes_parse(ra_str_z(arg), set, &bad);
    if (why == NULL && (*set & RA_ALERT_GENERIC)) {
        why = "is not a purpose of the table: generic bots have no token";
    }
    if (why != NULL) {
        ra_cli_error("robots-txt", "%s '%.*s' %s", opt, (int) bad.len,
                     (const char *) bad.data, why);
        return -1;
    }
    return 0;
}

static int
ra_rt_out(const char *output, ra_buf_t *b)
{
    ra_buf_t     why;
    struct stat  st;
    mode_t       mode, mask;
    int          rc;

    if (output == NULL) {
        return ra_cli_write("robots-txt", stdout, b) == 0
               && fflush(stdout) == 0 ? RA_EXIT_OK : RA_EXIT_USAGE;
    }
    /* ra_file_replace() makes the file 0600; a robots.txt is read by
     * the web server, so it keeps the mode of the file it replaces, or
     * gets the one a new file would (0666 less the umask) */
    if (stat(output, &st) == 0) {
        mode = st.st_mode & 07777;
    } else {
        mask = umask(022);
        umask(mask);
        mode = 0666 & ~mask;
    }
    ra_buf_init(&why, &ra_malloc_allocator, 128, 0);
    rc = ra_file_replace(output, b->data, b->len, &why);
    if (rc != RA_OK) {
        ra_cli_error("robots-txt", "%.*s", (int) why.len,
                     (const char *) why.data);
    } else if (chmod(output, mode) != 0) {
        ra_cli_error("robots-txt", "%s written, but its mode not set: %s",
                     output, strerror(errno));
        rc = RA_ERROR;
    }
    ra_buf_release(&why);
    return rc == RA_OK ? RA_EXIT_OK : RA_EXIT_USAGE;
}

static void
ra_rt_lint_line(void *ctx, ra_severity_e sev, ra_str_t line)
{
    (void) ctx;
    (void) sev;
    fprintf(stderr, "%.*s\n", (int) line.len, (const char *) line.data);
}

static int
ra_rt_write(const ra_crawlers_t *t, const ra_robotsgen_opts_t *o,
    const char *merge, const char *output)
{
    ra_buf_t     block, out, line;
    ra_str_t     file = ra_str(NULL, 0);
    ra_lint_t    l;
    const char  *why;
    size_t       start = 0, end = 0;
    long         bad;
    int          rc = RA_EXIT_USAGE;

    if (merge != NULL && ra_cli_read_file("robots-txt", merge, &file) != 0) {
        return RA_EXIT_USAGE;
    }
    ra_buf_init(&block, &ra_malloc_allocator, 16384, 0);
    ra_buf_init(&out, &ra_malloc_allocator, 16384 + file.len, 0);
    why = ra_robotsgen_block(t, o, &block);
    if (why == NULL) {
        why = ra_robotsgen_merge(file, ra_str(block.data, block.len), &out,
                                 &start, &end);
    }
    if (why != NULL) {
        ra_cli_error("robots-txt", "%s%s%s", merge ? merge : "",
                     merge ? ": " : "", why);
        goto done;
    }
    if (block.failed || out.failed) {
        ra_cli_error("robots-txt", "out of memory");
        goto done;
    }
    bad = ra_robotsgen_lint(ra_str(out.data, out.len), start, end, t,
                            &ra_malloc_allocator, &l);
    if (bad < 0) {
        ra_cli_error("robots-txt", "out of memory");
        goto done;
    }
    if (bad > 0) {
        ra_buf_init(&line, &ra_malloc_allocator, 256, 0);
        ra_lint_lines(&l, ra_str_z(merge ? merge : "(block)"), &line,
                      ra_rt_lint_line, NULL);
        ra_buf_release(&line);
        ra_cli_error("robots-txt", "lint finds %ld warnings or errors in"
                     " the block (above): nothing written", bad);
    } else {
        rc = ra_rt_out(output, &out);
    }
    ra_lint_free(&l, &ra_malloc_allocator);
done:
    ra_buf_release(&block);
    ra_buf_release(&out);
    free((void *) file.data);
    return rc;
}

static void
ra_rt_flags(ra_buf_t *b, const ra_crawler_t *c, int json)
{
    size_t       i;
    unsigned     bits;
    const char  *w, *sep = "";

    for (i = 0; (w = ra_crawler_flag_name(i, &bits)) != NULL; i++) {
        if (bits != 0 && (c->flags & bits) == bits) {
            ra_buf_printf(b, json ? "%s\"%s\"" : "%s%s", sep, w);
            sep = json ? "," : " ";
        }
    }
}

static int
ra_rt_report(const ra_crawlers_t *t, const char *path, int json)
{
    ra_str_t                body;
    ra_rules_t             *rs;
    ra_buf_t                b;
    ra_robotsgen_judged_t   j;
    const ra_crawler_t     *c;
    size_t                  i, n = ra_crawlers_count(t), first = 1;
    unsigned                cat, shown = RA_CAT_MAX, any_disallowed = 0;
    unsigned                count[3] = { 0, 0, 0 };
    int                     rc;

    if (ra_cli_read_file("robots-txt", path, &body) != 0) {
        return RA_EXIT_USAGE;
    }
    if (ra_rules_compile(body, &ra_malloc_allocator, &rs, NULL) != RA_OK) {
        free((void *) body.data);
        return ra_cli_error("robots-txt", "out of memory");
    }
    ra_buf_init(&b, &ra_malloc_allocator, 65536, 0);
    if (json) {
        ra_buf_cstr(&b, "{\"file\":");
        ra_buf_json_str(&b, ra_str_z(path));
        ra_buf_cstr(&b, ",\"crawlers\":[");
    }
    for (cat = 0; cat < RA_CAT_MAX; cat++) {
        for (i = 0; i < n; i++) {
            c = ra_crawlers_get(t, i);
            if (c->category != cat) {
                continue;
            }
            (void) ra_robotsgen_judge(rs, body, c, &ra_malloc_allocator, &j);
            count[j.verdict]++;
            any_disallowed |= j.verdict == RA_RG_DISALLOW;
            if (json) {
                ra_buf_cstr(&b, first ? "\n{\"name\":" : ",\n{\"name\":");
                ra_buf_json_str(&b, c->name);
                ra_buf_printf(&b, ",\"purpose\":\"%s\",\"verdict\":\"%s\","
                              "\"group\":", ra_crawler_category_name(cat),
                              ra_robotsgen_verdict_name(j.verdict));
                ra_buf_json_str(&b, j.group);
                ra_buf_printf(&b, ",\"line\":%u,\"flags\":[",
                              (unsigned) j.line);
                ra_rt_flags(&b, c, 1);
                ra_buf_cstr(&b, "]}");
            } else {
                if (shown != cat) {
                    /* a blank line between purposes */
                    ra_buf_cstr(&b, first ? "" : "\n");
                    shown = cat;
                }
                ra_buf_printf(&b, "%-16s %-30.*s %-11s%s%.*s",
                              ra_crawler_category_name(cat),
                              (int) c->name.len,
                              (const char *) c->name.data,
                              ra_robotsgen_verdict_name(j.verdict),
                              j.group.len ? "group=" : "group=-",
                              (int) j.group.len,
                              (const char *) j.group.data);
                if (j.line) {
                    ra_buf_printf(&b, " line=%u", (unsigned) j.line);
                }
                if (c->flags & (RA_CRAWLER_USER_TRIGGERED
                                | RA_CRAWLER_POLICY))
                {
                    ra_buf_cstr(&b, "  (");
                    ra_rt_flags(&b, c, 0);
                    ra_buf_cstr(&b, (c->flags & RA_CRAWLER_POLICY)
                                    ? ": controls use, not crawling)"
                                    : ": robots.txt does not apply)");
                }
                ra_buf_ch(&b, '\n');
            }
            first = 0;
        }
    }
    if (json) {
        ra_buf_printf(&b, "\n],\"allowed\":%u,\"partly\":%u,"
                      "\"disallowed\":%u}\n", count[0], count[1], count[2]);
    } else {
        ra_buf_printf(&b, "%s: %u crawlers allowed, %u partly, %u"
                      " disallowed\n", path, count[0], count[1], count[2]);
    }
    rc = ra_cli_write("robots-txt", stdout, &b) == 0 && fflush(stdout) == 0
         ? (any_disallowed ? RA_EXIT_FOUND : RA_EXIT_OK) : RA_EXIT_USAGE;
    ra_buf_release(&b);
    ra_rules_free(rs);
    free((void *) body.data);
    return rc;
}

int
ra_cmd_robotstxt(int argc, char **argv)
{
    int                   c, json = 0;
    const char           *merge = NULL, *output = NULL, *report = NULL;
    const char           *crawlers = NULL;
    ra_crawlers_t        *t;
    ra_robotsgen_opts_t   o;

    static const struct option  opts[] = {
        { "disallow-purpose", required_argument, NULL, 'd' },
        { "allow-purpose", required_argument, NULL, 'a' },
        { "content-signal", required_argument, NULL, 's' },
        { "merge", required_argument, NULL, 'm' },
        { "output", required_argument, NULL, 'o' },
        { "report", required_argument, NULL, 'r' },
        { "format", required_argument, NULL, 'f' },
        { "crawlers", required_argument, NULL, 'c' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 }
    };

    memset(&o, 0, sizeof(o));
    while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
        switch (c) {
        case 'd':
            if (ra_rt_purposes("--disallow-purpose", optarg, &o.disallow)
                != 0)
            {
                return RA_EXIT_USAGE;
            }
            break;
        case 'a':
            if (ra_rt_purposes("--allow-purpose", optarg, &o.allow) != 0) {
                return RA_EXIT_USAGE;
            }
            break;
        case 's':
            o.content_signal = ra_str_z(optarg);
            break;
        case 'm':
            merge = optarg;
            break;
        case 'o':
            output = optarg;
            break;
        case 'r':
            report = optarg;
            break;
        case 'f':
            if (strcmp(optarg, "json") == 0 || strcmp(optarg, "text") == 0) {
                json = optarg[0] == 'j';
                break;
            }
            return ra_cli_error("robots-txt", "--format takes text or json,"
                                " not '%s'", optarg);
        case 'c':
            crawlers = optarg;
            break;
        case 'h':
            fputs(ra_rt_usage, stdout);
            return RA_EXIT_OK;
        default:
            fputs(ra_rt_usage, stderr);
            return RA_EXIT_USAGE;
        }
    }
    if (optind != argc) {
        return ra_cli_error("robots-txt", "'%s': no arguments, only"
                            " options (see --help)", argv[optind]);
    }
    if (report != NULL && (o.disallow || o.allow || o.content_signal.data
                           || merge || output))
    {
        return ra_cli_error("robots-txt", "--report takes only --format and"
                            " --crawlers");
    }
    if (report == NULL && json) {
        return ra_cli_error("robots-txt", "--format is --report's");
    }
    t = ra_cli_crawlers("robots-txt", crawlers);
    if (t == NULL) {
        return RA_EXIT_USAGE;
    }
    if (report != NULL) {
        return ra_rt_report(t, report, json);
    }
    return ra_rt_write(t, &o, merge, output);
}
