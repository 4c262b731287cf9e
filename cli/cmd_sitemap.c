/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Sitemaps offline: `robots-audit lint --sitemap FILE [ROBOTS]` lints a
 * sitemap as fetched (XML or gzip) against the protocol and the
 * robots.txt in force, `robots-audit sitemap check SITEMAP ROBOTS` lists
 * each URL robots.txt disallows with the deciding rule.  Both render the
 * findings of the core's ra_sitemap_lint().
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ra_sitemap.h"

static const char  ra_sitemap_lint_usage[] =
    "usage: robots-audit lint --sitemap FILE|- [--url SITEMAP_URL]\n"
    "                         [--format text|json] [ROBOTS]\n"
    "\n"
    "Lints a sitemap (a <urlset> or a <sitemapindex>, plain or gzip) as\n"
    "crawlers read it: malformed XML, more than 50,000 URLs or 50 MiB\n"
    "uncompressed, URLs that are no absolute http(s) URL or lie on another\n"
    "host than the sitemap's (--url, else that of its first URL), lastmod\n"
    "values that are no W3C datetime (warning) and, given the robots.txt in\n"
    "force, every URL it disallows for all crawlers (*), Googlebot or\n"
    "Bingbot, with the deciding rule's line.\n"
    "\n"
    "Text output: FILE:LINE: severity: message [code], then a summary.\n"
    "\n"
    "exit status: 0 no error finding, 1 error findings, 2 usage or input "
    "error\n";

static const char  ra_sitemap_usage[] =
    "usage: robots-audit sitemap check [--format text|json] SITEMAP ROBOTS\n"
    "\n"
    "Prints each URL of SITEMAP (XML or gzip) that ROBOTS disallows for all\n"
    "crawlers (*), Googlebot or Bingbot, tab-separated: the URL, the\n"
    "crawler, the deciding rule's line and the rule.\n"
    "\n"
    "exit status: 0 none disallowed, 1 some disallowed, 2 usage or input "
    "error\n";

typedef struct {
    ra_buf_t    *out;
    const char  *name;
    int          json;
    int          check;             /* sitemap check: disallowed only */
    unsigned     n, errors, warnings;
} ra_sm_ctx_t;

static int
ra_sm_is_warning(ra_sm_code_e code)
{
    return code == RA_SMF_LASTMOD;
}

static void
ra_sm_message(ra_buf_t *b, const ra_sm_finding_t *f)
{
    switch (f->code) {
    case RA_SMF_DISALLOWED:
        ra_buf_cstr(b, "robots.txt disallows ");
        ra_buf_log(b, f->url);
        ra_buf_cstr(b, " for ");
        ra_buf_log(b, f->crawler);
        ra_buf_printf(b, " (line %u: Disallow: ", f->match.line);
        ra_buf_log(b, f->match.pattern);
        ra_buf_ch(b, ')');
        return;
    case RA_SMF_OTHER_HOST:
        ra_buf_log(b, f->url);
        ra_buf_cstr(b, " is not on ");
        ra_buf_log(b, f->detail);
        ra_buf_cstr(b, ": crawlers ignore it");
        return;
    case RA_SMF_LASTMOD:
        ra_buf_cstr(b, "lastmod '");
        ra_buf_log(b, f->detail);
        ra_buf_cstr(b, "' is no W3C datetime (YYYY-MM-DD, "
                    "YYYY-MM-DDThh:mm:ss+hh:mm)");
        return;
    case RA_SMF_BAD_LOC:
        ra_buf_cstr(b, "loc '");
        ra_buf_log(b, f->url.len > 200 ? ra_str(f->url.data, 200) : f->url);
        ra_buf_cstr(b, "' is ");
        ra_buf_log(b, f->detail);
        return;
    default:
        ra_buf_log(b, f->detail);
        return;
    }
}

static void
ra_sm_finding(void *ctx, const ra_sm_finding_t *f)
{
    ra_sm_ctx_t  *c = ctx;
    ra_buf_t     *b = c->out;
    int           warn = ra_sm_is_warning(f->code);

    if (c->check) {
        if (f->code != RA_SMF_DISALLOWED) {
            return;
        }
        c->errors++;
        if (c->json) {
            ra_buf_cstr(b, c->n++ ? "," : "");
            ra_buf_cstr(b, "{\"url\":");
            ra_buf_json_str(b, f->url);
            ra_buf_cstr(b, ",\"crawler\":");
            ra_buf_json_str(b, f->crawler);
            ra_buf_printf(b, ",\"sitemap_line\":%u,\"line\":%u,\"rule\":",
                          f->line, f->match.line);
            ra_buf_json_str(b, f->match.pattern);
            ra_buf_ch(b, '}');
        } else {
            ra_buf_log(b, f->url);
            ra_buf_ch(b, '\t');
            ra_buf_log(b, f->crawler);
            ra_buf_printf(b, "\t%u\tdisallow: ", f->match.line);
            ra_buf_log(b, f->match.pattern);
            ra_buf_ch(b, '\n');
        }
        return;
    }
    if (warn) {
        c->warnings++;
    } else {
        c->errors++;
    }
    if (c->json) {
        ra_buf_printf(b, "%s{\"line\":%u,\"severity\":\"%s\",\"code\":\"%s\","
                      "\"url\":", c->n++ ? "," : "", f->line,
                      warn ? "warning" : "error",
                      ra_sitemap_code_name(f->code));
        if (f->url.len) {
            ra_buf_json_str(b, f->url);
        } else {
            ra_buf_cstr(b, "null");
        }
        if (f->code == RA_SMF_DISALLOWED) {
            ra_buf_cstr(b, ",\"crawler\":");
            ra_buf_json_str(b, f->crawler);
            ra_buf_printf(b, ",\"rule\":{\"line\":%u,\"pattern\":",
                          f->match.line);
            ra_buf_json_str(b, f->match.pattern);
            ra_buf_ch(b, '}');
        }
        ra_buf_cstr(b, ",\"message\":");
        {
            ra_buf_t  m;

            ra_buf_init(&m, &ra_malloc_allocator, 256, 0);
            ra_sm_message(&m, f);
            ra_buf_json_str(b, ra_str(m.data, m.len));
            ra_buf_release(&m);
        }
        ra_buf_ch(b, '}');
        return;
    }
    ra_buf_printf(b, "%s:%u: %s: ", c->name, f->line,
                  warn ? "warning" : "error");
    ra_sm_message(b, f);
    ra_buf_printf(b, " [%s]\n", ra_sitemap_code_name(f->code));
}

static const char *
ra_sm_kind(ra_sm_kind_e k)
{
    return k == RA_SM_URLSET ? "urlset"
           : k == RA_SM_INDEX ? "sitemapindex" : "unknown";
}

/*
 * Lints file against robots (NULL: none) and renders: check 1 lists the
 * disallowed URLs only (sitemap check).  The exit status.
 */
static int
ra_sm_run(const char *cmd, const char *file, const char *robots,
    const char *url, int json, int check)
{
    ra_str_t         in, rb;
    ra_rules_t      *rules = NULL;
    ra_buf_t         out;
    ra_sm_ctx_t      c;
    ra_sm_summary_t  sum;
    int              rc;

    if (robots != NULL) {
        if (ra_cli_read_file(cmd, robots, &rb) != 0) {
            return RA_EXIT_USAGE;
        }
        rc = ra_rules_compile(rb, &ra_malloc_allocator, &rules, NULL);
        free((void *) rb.data);
        if (rc != RA_OK) {
            return ra_cli_error(cmd, "%s: out of memory", robots);
        }
    }
    if (ra_cli_read_file(cmd, file, &in) != 0) {
        ra_rules_free(rules);
        return RA_EXIT_USAGE;
    }
    memset(&c, 0, sizeof(c));
    ra_buf_init(&out, &ra_malloc_allocator, 4096, 0);
    c.out = &out;
    c.name = strcmp(file, "-") == 0 ? "<stdin>" : file;
    c.json = json;
    c.check = check;
    if (json) {
        ra_buf_cstr(&out, "{\"file\":");
        ra_buf_json_str(&out, ra_str_z(c.name));
        ra_buf_cstr(&out, check ? ",\"disallowed\":[" : ",\"findings\":[");
    }
    rc = ra_sitemap_lint(in, ra_str_z(url), rules, &ra_malloc_allocator,
                         ra_sm_finding, &c, &sum);
    free((void *) in.data);
    ra_rules_free(rules);
    if (rc != RA_OK) {
        ra_buf_release(&out);
        return ra_cli_error(cmd, "%s: out of memory", file);
    }
    if (json) {
        ra_buf_printf(&out, "],\"kind\":\"%s\",\"gzip\":%s,\"urls\":%u,"
                      "\"bytes\":%zu,\"complete\":%s,\"errors\":%u,"
                      "\"warnings\":%u}\n", ra_sm_kind(sum.kind),
                      sum.gzip ? "true" : "false", sum.entries, sum.bytes,
                      sum.complete ? "true" : "false", c.errors,
                      c.warnings);
    } else if (!check) {
        ra_buf_printf(&out, "%s: %s%s, %u URL%s, %zu bytes: %u error%s, "
                      "%u warning%s\n", c.name, ra_sm_kind(sum.kind),
                      sum.gzip ? " (gzip)" : "", sum.entries,
                      sum.entries == 1 ? "" : "s", sum.bytes, c.errors,
                      c.errors == 1 ? "" : "s", c.warnings,
                      c.warnings == 1 ? "" : "s");
    }
    rc = c.errors ? RA_EXIT_FOUND : RA_EXIT_OK;
    if (ra_cli_write(cmd, stdout, &out) != 0 || fflush(stdout) != 0) {
        rc = RA_EXIT_USAGE;
    }
    ra_buf_release(&out);
    return rc;
}

/* --format's value; -1 when it is neither text nor json */
static int
ra_sm_format(const char *v)
{
    return strcmp(v, "json") == 0 ? 1 : strcmp(v, "text") == 0 ? 0 : -1;
}

int
ra_cmd_lint_sitemap(int argc, char **argv)
{
    int          i, json = 0;
    const char  *file = NULL, *robots = NULL, *url = NULL, *opt, *val;
    size_t       nlen;

    /* "lint --sitemap --help": --help wherever it stands, no value */
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(ra_sitemap_lint_usage, stdout);
            return RA_EXIT_OK;
        }
    }
    for (i = 1; i < argc; i++) {
        opt = argv[i];
        if (opt[0] != '-' || opt[1] == '\0') {
            if (robots != NULL) {
                return ra_cli_error("lint", "expects one ROBOTS, got '%s' "
                                    "too (try --help)", opt);
            }
            robots = opt;
            continue;
        }
        val = strchr(opt, '=');
        nlen = val != NULL ? (size_t) (val - opt) : strlen(opt);
        if (val != NULL) {
            val++;
        } else if (i + 1 < argc) {
            val = argv[++i];
        } else {
            return ra_cli_error("lint", "%s needs a value (try --help)", opt);
        }
        if (nlen == 9 && memcmp(opt, "--sitemap", 9) == 0) {
            file = val;
        } else if (nlen == 5 && memcmp(opt, "--url", 5) == 0) {
            url = val;
        } else if (nlen == 8 && memcmp(opt, "--format", 8) == 0
                   && ra_sm_format(val) >= 0)
        {
            json = ra_sm_format(val);
        } else {
            return ra_cli_error("lint", "unknown option or value '%s' "
                                "(try --help)", opt);
        }
    }
    if (file == NULL) {
        return ra_cli_error("lint", "--sitemap needs a FILE (try --help)");
    }
    return ra_sm_run("lint", file, robots, url, json, 0);
}

int
ra_cmd_sitemap(int argc, char **argv)
{
    int          i, json = 0, n = 0;
    const char  *args[2] = { NULL, NULL }, *opt;

    for (i = 1; i < argc; i++) {
        opt = argv[i];
        if (strcmp(opt, "--help") == 0 || strcmp(opt, "-h") == 0) {
            fputs(ra_sitemap_usage, stdout);
            return RA_EXIT_OK;
        }
        if (strcmp(opt, "--format") == 0 && i + 1 < argc
            && ra_sm_format(argv[i + 1]) >= 0)
        {
            json = ra_sm_format(argv[++i]);
        } else if (strncmp(opt, "--format=", 9) == 0
                   && ra_sm_format(opt + 9) >= 0)
        {
            json = ra_sm_format(opt + 9);
        } else if (i == 1 && strcmp(opt, "check") == 0) {
            continue;
        } else if ((opt[0] != '-' || opt[1] == '\0') && n < 2 && i > 1) {
            args[n++] = opt;
        } else {
            fputs(ra_sitemap_usage, stderr);
            return ra_cli_error("sitemap", "unexpected '%s'", opt);
        }
    }
    if (argc < 2 || strcmp(argv[1], "check") != 0 || n != 2) {
        fputs(ra_sitemap_usage, stderr);
        return RA_EXIT_USAGE;
    }
    return ra_sm_run("sitemap", args[0], args[1], NULL, json, 1);
}
