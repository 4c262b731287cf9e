/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * robots-audit lint: findings in compiler form or JSON.
 *
 *   FILE:LINE:COL: severity: message [code]
 *
 * Findings about the answer as a whole (status, Content-Type, redirects,
 * an empty file) have line 0 and column 0.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ra_decode.h"
#include "ra_lint.h"

#define RA_LINT_CMD  "lint"

static const char  ra_lint_usage[] =
    "usage: robots-audit lint [--format text|json] [--status CODE]\n"
    "                         [--content-type TYPE] [--redirects N]\n"
    "                         [--content-encoding CODING] FILE|-\n"
    "       robots-audit lint --page FILE|- [--robots ROBOTS --url URL]\n"
    "                         [--format text|json]\n"
    "       robots-audit lint --sitemap FILE|- [--url SITEMAP_URL]\n"
    "                         [--format text|json] [ROBOTS]\n"
    "\n"
    "Lints a robots.txt the way crawlers read it.  --status, --content-type\n"
    "and --redirects describe how the server answered (final status, its\n"
    "Content-Type header, redirects followed before it); without them the\n"
    "file is judged on its own.  --content-encoding gives the answer's\n"
    "Content-Encoding (gzip, deflate, br, or a list such as \"gzip, br\"):\n"
    "FILE is decoded first, as crawlers decode it (curl -o saves the coded\n"
    "body when it is not given --compressed).\n"
    "\n"
    "Text output: FILE:LINE:COL: severity: message [code], then a summary.\n"
    "Line 0, column 0 is the answer as a whole.  Severities: error (crawlers\n"
    "will not do what you intend), warning (likely mistake, or crawler-\n"
    "dependent), info.\n"
    "\n"
    "--page lints a page's X-Robots-Tag headers and robots meta tags,\n"
    "--sitemap a sitemap: 'lint --page --help' and 'lint --sitemap --help'\n"
    "say more.\n"
    "\n"
    "exit status: 0 no error finding, 1 error findings, 2 usage or input "
    "error\n";

static int
ra_lint_number(const char *s, long lo, long hi, long *out)
{
    char  *end;
    long   v;

    errno = 0;
    v = strtol(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi) {
        return -1;
    }
    *out = v;
    return 0;
}

/* one line of the text report, as the modules log it at start */
static void
ra_lint_text_line(void *ctx, ra_severity_e sev, ra_str_t line)
{
    ra_buf_t  *out = ctx;

    (void) sev;
    ra_buf_str(out, line);
    ra_buf_ch(out, '\n');
}

static void
ra_lint_render_text(ra_buf_t *b, const char *name, const ra_lint_t *l)
{
    ra_buf_t  line;

    ra_buf_init(&line, &ra_malloc_allocator, 256, 0);
    ra_lint_lines(l, ra_str(name, strlen(name)), &line, ra_lint_text_line,
                  b);
    if (line.failed) {
        b->failed = 1;
    }
    ra_buf_release(&line);
}

static void
ra_lint_render_json(ra_buf_t *b, const char *name, const char *ctype,
    const ra_lint_t *l)
{
    uint32_t                  i;
    int                       first;
    const ra_lint_summary_t  *s = &l->summary;

    ra_buf_cstr(b, "{\"file\":");
    ra_buf_json_str(b, ra_str(name, strlen(name)));
    ra_buf_printf(b, ",\"size\":%zu,\"status\":", s->bytes);
    if (s->status) {
        ra_buf_printf(b, "%d", s->status);
    } else {
        ra_buf_cstr(b, "null");
    }
    ra_buf_cstr(b, ",\"content_type\":");
    if (ctype != NULL) {
        ra_buf_json_str(b, ra_str(ctype, strlen(ctype)));
    } else {
        ra_buf_cstr(b, "null");
    }
    ra_buf_printf(b, ",\"summary\":{\"groups\":%u,\"agents\":%u,"
                  "\"rules\":%u,\"allows\":%u,\"disallows\":%u,"
                  "\"sitemaps\":%u,\"bytes\":%zu,\"parsed\":%zu,"
                  "\"lines\":%u,\"lost_rules\":%u,\"body_linted\":%s,"
                  "\"errors\":%u,\"warnings\":%u,\"infos\":%u,"
                  "\"suppressed\":%u}",
                  s->groups, s->agents, s->rules, s->allows, s->disallows,
                  s->sitemaps, s->bytes, s->parsed, s->lines, s->lost_rules,
                  s->body_linted ? "true" : "false",
                  s->errors, s->warnings, s->infos, s->suppressed);

    ra_buf_cstr(b, ",\"findings\":[");
    for (i = 0; i < l->nfindings; i++) {
        const ra_lint_finding_t  *f = &l->findings[i];

        ra_buf_printf(b, "%s{\"line\":%u,\"column\":%u,\"severity\":\"%s\","
                      "\"code\":\"%s\",\"message\":",
                      i ? "," : "", f->line, f->column,
                      ra_lint_severity_name(f->severity),
                      ra_lint_code_name(f->code));
        ra_buf_json_str(b, f->message);
        if (f->code == RA_LC_SIZE_LIMIT) {
            ra_buf_printf(b, ",\"lost_rules\":%u", f->lost_rules);
        }
        ra_buf_ch(b, '}');
    }
    ra_buf_cstr(b, "],\"suppressed\":{");
    for (i = 0, first = 1; i < RA_LINT_NCODES; i++) {
        if (l->suppressed[i]) {
            ra_buf_printf(b, "%s\"%s\":%u", first ? "" : ",",
                          ra_lint_code_name((ra_lint_code_e) i),
                          l->suppressed[i]);
            first = 0;
        }
    }
    ra_buf_cstr(b, "}}\n");
}

/*
 * --content-encoding: the file as the server sent it, decoded as crawlers
 * decode it (up to the CLI's input limit, so that size-limit sees what
 * lies past 500 KiB).  *body becomes the decoded text (in dec); one that
 * cannot be decoded makes http->undecodable.  0, or -1 out of memory.
 */
static int
ra_lint_decode(const char *coding, ra_str_t *body, ra_lint_http_t *http,
    ra_buf_t *dec)
{
    int               rc;
    ra_str_t          value = ra_str(coding, strlen(coding));
    ra_decode_info_t  info;

    if (ra_coding_is_identity(value)) {
        return 0;
    }
    http->content_encoding = value;
    rc = ra_decode(value, *body, 1, RA_CLI_MAX_INPUT, &ra_malloc_allocator,
                   &ra_malloc_allocator, dec, &info);
    if (rc == RA_ENOMEM) {
        return -1;
    }
    if (rc == RA_ERROR) {
        http->undecodable = 1;
        http->size = body->len;     /* the bytes sent, nothing decoded */
        return 0;
    }
    *body = ra_str(dec->data, dec->len);
    http->truncated = info.truncated;
    return 0;
}

int
ra_cmd_lint(int argc, char **argv)
{
    int              i, json = 0, rc;
    long             v;
    const char      *file = NULL, *ctype = NULL, *coding = NULL, *opt;
    const char      *val, *name;
    void            *raw;
    ra_str_t         body;
    ra_buf_t         out;
    ra_lint_t        lint;
    ra_lint_http_t   http;
    ra_buf_t         dec;

    /* the page and sitemap lints have their own files */
    for (i = 1; i < argc; i++) {
        if (strncmp(argv[i], "--page", 6) == 0
            && (argv[i][6] == '\0' || argv[i][6] == '='))
        {
            return ra_cmd_lint_page(argc, argv);
        }
        if (strncmp(argv[i], "--sitemap", 9) == 0
            && (argv[i][9] == '\0' || argv[i][9] == '='))
        {
            return ra_cmd_lint_sitemap(argc, argv);
        }
    }

    memset(&http, 0, sizeof(http));
    ra_buf_init(&dec, &ra_malloc_allocator, 0, 0);

    for (i = 1; i < argc; i++) {
        opt = argv[i];
        if (strcmp(opt, "--help") == 0 || strcmp(opt, "-h") == 0) {
            fputs(ra_lint_usage, stdout);
            return RA_EXIT_OK;
        }
        if (strcmp(opt, "--") == 0) {
            if (i + 2 != argc || file != NULL) {
                return ra_cli_error(RA_LINT_CMD, "expects one FILE "
                                    "(try --help)");
            }
            file = argv[i + 1];
            break;
        }
        if (opt[0] != '-' || opt[1] == '\0') {
            if (file != NULL) {
                return ra_cli_error(RA_LINT_CMD, "expects one FILE, got "
                                    "'%s' too (try --help)", opt);
            }
            file = opt;
            continue;
        }

        /* --opt VALUE or --opt=VALUE */
        val = strchr(opt, '=');
        if (val != NULL) {
            val++;
        } else if (i + 1 < argc) {
            val = argv[++i];
        } else {
            return ra_cli_error(RA_LINT_CMD, "%s needs a value (try --help)",
                                opt);
        }
#define RA_OPT(o, name)                                                     \
        (strncmp(o, name, sizeof(name) - 1) == 0                            \
         && (o[sizeof(name) - 1] == '\0' || o[sizeof(name) - 1] == '='))

        if (RA_OPT(opt, "--format")) {
            if (strcmp(val, "json") == 0) {
                json = 1;
            } else if (strcmp(val, "text") == 0) {
                json = 0;
            } else {
                return ra_cli_error(RA_LINT_CMD, "--format: '%s' is not "
                                    "text or json", val);
            }
        } else if (RA_OPT(opt, "--status")) {
            if (ra_lint_number(val, 100, 599, &v) != 0) {
                return ra_cli_error(RA_LINT_CMD, "--status: '%s' is not an "
                                    "HTTP status (100-599)", val);
            }
            http.status = (int) v;
        } else if (RA_OPT(opt, "--content-type")) {
            ctype = val;
        } else if (RA_OPT(opt, "--content-encoding")) {
            coding = val;
        } else if (RA_OPT(opt, "--redirects")) {
            if (ra_lint_number(val, 0, 1000, &v) != 0) {
                return ra_cli_error(RA_LINT_CMD, "--redirects: '%s' is not "
                                    "a number of hops (0-1000)", val);
            }
            http.redirects = (unsigned) v;
        } else {
            return ra_cli_error(RA_LINT_CMD, "unknown option '%s' "
                                "(try --help)", opt);
        }
#undef RA_OPT
    }

    if (file == NULL) {
        return ra_cli_error(RA_LINT_CMD, "expects a FILE or '-' "
                            "(try --help)");
    }
    if (ra_cli_read_file(RA_LINT_CMD, file, &body) != 0) {
        return RA_EXIT_USAGE;
    }
    raw = (void *) body.data;         /* body may become the decoded text */
    if (ctype != NULL) {
        http.content_type = ra_str(ctype, strlen(ctype));
    }
    if (coding != NULL && ra_lint_decode(coding, &body, &http, &dec) != 0) {
        free(raw);
        return ra_cli_error(RA_LINT_CMD, "%s: out of memory", file);
    }

    /* the built-in table names the policy tokens (Google-Extended) */
    http.crawlers = ra_cli_crawlers(RA_LINT_CMD, NULL);
    rc = ra_lint(http.undecodable ? ra_str(NULL, 0) : body, &http,
                 &ra_malloc_allocator, &lint);
    if (rc != RA_OK) {
        ra_lint_free(&lint, &ra_malloc_allocator);
        free(raw);
        ra_buf_release(&dec);
        return ra_cli_error(RA_LINT_CMD, "%s: out of memory", file);
    }

    name = strcmp(file, "-") == 0 ? "<stdin>" : file;
    ra_buf_init(&out, &ra_malloc_allocator, 4096, 0);
    if (json) {
        ra_lint_render_json(&out, name, ctype, &lint);
    } else {
        ra_lint_render_text(&out, name, &lint);
    }
    rc = lint.summary.errors ? RA_EXIT_FOUND : RA_EXIT_OK;
    if (ra_cli_write(RA_LINT_CMD, stdout, &out) != 0
        || fflush(stdout) != 0)
    {
        rc = RA_EXIT_USAGE;
    }

    ra_buf_release(&out);
    ra_lint_free(&lint, &ra_malloc_allocator);
    free(raw);
    ra_buf_release(&dec);
    return rc;
}
