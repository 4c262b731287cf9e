/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * robots-audit lint --page: the page-level directives of one answer (an
 * HTML file, or an HTTP response as `curl -i` saves it: headers, a blank
 * line, the body) and, given the robots.txt in force and the page's URL,
 * where they conflict with it.  The parsing is the core's
 * (ra_pagedir.h); this file reads the input and renders.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ra_decode.h"
#include "ra_pagedir.h"

#define RA_PAGE_CMD  "lint"

static const char  ra_page_usage[] =
    "usage: robots-audit lint --page FILE|- [--robots ROBOTS --url URL]\n"
    "                         [--format text|json]\n"
    "\n"
    "Reports the page-level directives of an HTML file or of an HTTP\n"
    "response saved with its headers (curl -i): every X-Robots-Tag header\n"
    "(with or without a crawler's prefix) and the <meta name=\"robots\">\n"
    "and <meta name=\"CRAWLER\"> tags of the first 16 KiB of the head\n"
    "(decoded first when Content-Encoding says so).  With --robots and\n"
    "--url, the conflicts for that URL: noindex on a path robots.txt\n"
    "disallows (error: the crawler never sees it), X-Robots-Tag and the\n"
    "meta tags disagreeing (warning), directives a named crawler does not\n"
    "honour (warning).\n"
    "\n"
    "exit status: 0 no error finding, 1 error findings, 2 usage or input "
    "error\n";

typedef struct {
    ra_str_t  headers[RA_PD_SCOPES];
    unsigned  nheaders;
    int       status;               /* 0: a bare HTML file */
    ra_str_t  coding;
    ra_str_t  body;
} ra_page_in_t;

/* The next line of *rest without its end (LF or CRLF). */
static ra_str_t
ra_page_line(ra_str_t *rest)
{
    const unsigned char  *nl = memchr(rest->data, '\n', rest->len);
    ra_str_t              l = *rest;

    if (nl == NULL) {
        rest->data += rest->len;
        rest->len = 0;
    } else {
        l.len = (size_t) (nl - l.data);
        rest->len -= l.len + 1;
        rest->data = nl + 1;
    }
    if (l.len && l.data[l.len - 1] == '\r') {
        l.len--;
    }
    return l;
}

/* An HTTP response's head (the last one, when curl -L saved several);
 * a file that starts otherwise is all body. */
static void
ra_page_read(ra_str_t in, ra_page_in_t *p)
{
    ra_str_t              rest = in, line, name, value;
    const unsigned char  *colon;

    memset(p, 0, sizeof(*p));
    p->body = in;
    while (ra_startswith_ci(rest, "HTTP/")) {
        line = ra_page_line(&rest);
        p->nheaders = 0;
        p->coding = ra_str("", 0);
        p->status = 0;
        colon = memchr(line.data, ' ', line.len);
        if (colon != NULL && (size_t) (line.data + line.len - colon) >= 4) {
            p->status = (colon[1] - '0') * 100 + (colon[2] - '0') * 10
                        + (colon[3] - '0');
        }
        while (rest.len) {
            line = ra_page_line(&rest);
            if (line.len == 0) {
                break;
            }
            colon = memchr(line.data, ':', line.len);
            if (colon == NULL) {
                continue;
            }
            name = ra_ows_trim(ra_str(line.data, (size_t) (colon - line.data)));
            value = ra_ows_trim(ra_str(colon + 1, (size_t) (line.data
                                       + line.len - colon - 1)));
            if (ra_strcaseeq(name, ra_str("X-Robots-Tag", 12))) {
                if (p->nheaders < RA_PD_SCOPES) {
                    p->headers[p->nheaders++] = value;
                }
            } else if (ra_strcaseeq(name, ra_str("Content-Encoding", 16))) {
                p->coding = value;
            }
        }
        p->body = rest;
    }
}

static void
ra_page_flags(ra_buf_t *b, uint32_t flags, int json)
{
    uint32_t     bit;
    const char  *name;
    int          first = 1;

    for (bit = 1; bit && bit <= RA_PD_ALL; bit <<= 1) {
        /* "none" stands for the noindex and nofollow it brings */
        if (!(flags & bit) || ((flags & RA_PD_NONE)
                               && (bit & (RA_PD_NOINDEX | RA_PD_NOFOLLOW))))
        {
            continue;
        }
        name = ra_pagedir_name(bit);
        if (json) {
            ra_buf_printf(b, "%s\"%s\"", first ? "" : ",", name);
        } else {
            ra_buf_printf(b, "%s%s", first ? "" : ", ", name);
        }
        first = 0;
    }
}

typedef struct {
    ra_buf_t    *out;
    const char  *name;
    ra_str_t     path;
    int          json;
    unsigned     n, errors, warnings;
} ra_page_ctx_t;

static void
ra_page_conflict(void *ctx, const ra_conflict_t *c)
{
    ra_page_ctx_t  *pc = ctx;
    ra_buf_t       *b = pc->out;
    int             error = c->kind == RA_CONFLICT_NOINDEX_DISALLOWED;

    if (error) {
        pc->errors++;
    } else {
        pc->warnings++;
    }
    if (pc->json) {
        ra_buf_printf(b, "%s{\"kind\":\"%s\",\"severity\":\"%s\","
                      "\"crawler\":", pc->n++ ? "," : "",
                      ra_conflict_kind_name(c->kind),
                      error ? "error" : "warning");
        ra_buf_json_str(b, c->crawler);
        ra_buf_cstr(b, ",\"path\":");
        ra_buf_json_str(b, pc->path);
        ra_buf_cstr(b, ",\"directives\":[");
        ra_page_flags(b, c->flags, 1);
        ra_buf_cstr(b, "],\"rule\":");
        if (error) {
            ra_buf_printf(b, "{\"line\":%u,\"pattern\":", c->match.line);
            ra_buf_json_str(b, c->match.pattern);
            ra_buf_ch(b, '}');
        } else {
            ra_buf_cstr(b, "null");
        }
        ra_buf_ch(b, '}');
        return;
    }
    ra_buf_printf(b, "%s: %s: ", pc->name, error ? "error" : "warning");
    ra_buf_log(b, c->crawler);
    switch (c->kind) {
    case RA_CONFLICT_NOINDEX_DISALLOWED:
        ra_buf_printf(b, ": noindex cannot be seen: robots.txt line %u "
                      "'Disallow: ", c->match.line);
        ra_buf_log(b, c->match.pattern);
        ra_buf_cstr(b, "' keeps it from ");
        ra_buf_log(b, pc->path);
        break;
    case RA_CONFLICT_HEADER_META:
        ra_buf_cstr(b, ": X-Robots-Tag and the meta tags differ on ");
        ra_page_flags(b, c->flags, 0);
        break;
    default:
        ra_buf_cstr(b, ": does not honour ");
        ra_page_flags(b, c->flags, 0);
        break;
    }
    ra_buf_printf(b, " [%s]\n", ra_conflict_kind_name(c->kind));
}

static void
ra_page_scopes(ra_buf_t *b, const char *name, const ra_pagedir_t *pd,
    int json)
{
    uint32_t              i;
    const ra_pd_scope_t  *s;

    for (i = 0; i < pd->nscopes; i++) {
        s = &pd->scopes[i];
        if (json) {
            ra_buf_printf(b, "%s{\"source\":\"%s\",\"crawler\":", i ? "," : "",
                          s->source == RA_PD_HEADER ? "header" : "meta");
            ra_buf_json_str(b, s->agent.len ? s->agent : ra_str("*", 1));
            ra_buf_cstr(b, ",\"directives\":[");
            ra_page_flags(b, s->set.flags, 1);
            ra_buf_ch(b, ']');
            if (s->set.flags & RA_PD_MAX_SNIPPET) {
                ra_buf_printf(b, ",\"max_snippet\":%d", s->set.max_snippet);
            }
            if (s->set.unavailable_after.len) {
                ra_buf_cstr(b, ",\"unavailable_after\":");
                ra_buf_json_str(b, s->set.unavailable_after);
                ra_buf_printf(b, ",\"date_ok\":%s",
                              s->set.date_ok ? "true" : "false");
            }
            ra_buf_printf(b, ",\"unknown\":%u}", s->set.unknown);
            continue;
        }
        ra_buf_printf(b, "%s: %s ", name,
                      s->source == RA_PD_HEADER ? "X-Robots-Tag" : "meta");
        ra_buf_log(b, s->agent.len ? s->agent : ra_str("*", 1));
        ra_buf_cstr(b, ": ");
        ra_page_flags(b, s->set.flags, 0);
        if (s->set.flags & RA_PD_MAX_SNIPPET) {
            ra_buf_printf(b, " (max-snippet %d)", s->set.max_snippet);
        }
        if (s->set.unavailable_after.len) {
            ra_buf_cstr(b, " (");
            ra_buf_log(b, s->set.unavailable_after);
            ra_buf_ch(b, ')');
        }
        ra_buf_ch(b, '\n');
        if (s->set.unavailable_after.len && !s->set.date_ok) {
            ra_buf_printf(b, "%s: warning: unavailable_after '", name);
            ra_buf_log(b, s->set.unavailable_after);
            ra_buf_cstr(b, "' is no date crawlers read [date]\n");
        }
        if (s->set.unknown) {
            ra_buf_printf(b, "%s: warning: %u directive(s) not understood, "
                          "such as '", name, s->set.unknown);
            ra_buf_log(b, s->set.first_unknown);
            ra_buf_cstr(b, "' [unknown]\n");
        }
    }
    if (!json && pd->nscopes == 0) {
        ra_buf_printf(b, "%s: no page-level directives\n", name);
    }
}

/* Reads --robots into a rule set; NULL with a message on failure. */
static ra_rules_t *
ra_page_rules(const char *file)
{
    ra_str_t     body;
    ra_rules_t  *rules;
    int          rc;

    if (ra_cli_read_file(RA_PAGE_CMD, file, &body) != 0) {
        return NULL;
    }
    rc = ra_rules_compile(body, &ra_malloc_allocator, &rules, NULL);
    free((void *) body.data);
    if (rc != RA_OK) {
        ra_cli_error(RA_PAGE_CMD, "%s: out of memory", file);
        return NULL;
    }
    return rules;
}

int
ra_cmd_lint_page(int argc, char **argv)
{
    int               i, json = 0, rc;
    const char       *file = NULL, *robots = NULL, *url = NULL, *opt, *val;
    ra_str_t          in;
    ra_page_in_t      page;
    ra_pagedir_t      pd;
    ra_rules_t       *rules = NULL;
    ra_buf_t          out, dec;
    ra_decode_info_t  info;
    ra_page_ctx_t     pc;
    unsigned          k;
    size_t            nlen;

#define RA_PAGE_OPT(name)                                                   \
    (nlen == sizeof(name) - 1 && memcmp(opt, name, nlen) == 0)

    /* "lint --page --help": --help wherever it stands, never a value */
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(ra_page_usage, stdout);
            return RA_EXIT_OK;
        }
    }
    for (i = 1; i < argc; i++) {
        opt = argv[i];
        val = strchr(opt, '=');
        nlen = val != NULL ? (size_t) (val - opt) : strlen(opt);
        if (strncmp(opt, "--", 2) != 0) {
            return ra_cli_error(RA_PAGE_CMD, "unexpected '%s' (try --help)",
                                opt);
        }
        if (val != NULL) {
            val++;
        } else if (i + 1 < argc) {
            val = argv[++i];
        } else {
            return ra_cli_error(RA_PAGE_CMD, "%s needs a value (try --help)",
                                opt);
        }
        if (RA_PAGE_OPT("--page")) {
            file = val;
        } else if (RA_PAGE_OPT("--robots")) {
            robots = val;
        } else if (RA_PAGE_OPT("--url")) {
            url = val;
        } else if (RA_PAGE_OPT("--format")
                   && (strcmp(val, "json") == 0 || strcmp(val, "text") == 0))
        {
            json = strcmp(val, "json") == 0;
        } else {
            return ra_cli_error(RA_PAGE_CMD, "unknown option or value '%s' "
                                "(try --help)", opt);
        }
    }
#undef RA_PAGE_OPT
    if (file == NULL || (robots != NULL) != (url != NULL)) {
        return ra_cli_error(RA_PAGE_CMD, "--page FILE, and --robots with "
                            "--url or neither (try --help)");
    }
    if (robots != NULL && (rules = ra_page_rules(robots)) == NULL) {
        return RA_EXIT_USAGE;
    }
    if (ra_cli_read_file(RA_PAGE_CMD, file, &in) != 0) {
        ra_rules_free(rules);
        return RA_EXIT_USAGE;
    }

    ra_page_read(in, &page);
    ra_pagedir_init(&pd);
    for (k = 0; k < page.nheaders; k++) {
        ra_pagedir_header(&pd, page.headers[k]);
    }
    ra_buf_init(&dec, &ra_malloc_allocator, 0, 0);
    if (page.coding.len && !ra_coding_is_identity(page.coding)) {
        /* only the window the scan reads is decoded */
        if (ra_decode(page.coding, page.body, 0, RA_PD_SCAN,
                      &ra_malloc_allocator, &ra_malloc_allocator, &dec,
                      &info) == RA_OK)
        {
            page.body = ra_str(dec.data, dec.len);
        } else {
            page.body = ra_str("", 0);
        }
    }
    ra_pagedir_html(&pd, page.body);

    memset(&pc, 0, sizeof(pc));
    ra_buf_init(&out, &ra_malloc_allocator, 4096, 0);
    pc.out = &out;
    pc.name = strcmp(file, "-") == 0 ? "<stdin>" : file;
    pc.json = json;
    pc.path = url != NULL ? ra_url_path(ra_str_z(url)) : ra_str("", 0);
    if (pc.path.len == 0 || pc.path.data[0] != '/') {
        pc.path = ra_str("/", 1);
    }
    if (json) {
        ra_buf_cstr(&out, "{\"file\":");
        ra_buf_json_str(&out, ra_str_z(pc.name));
        ra_buf_cstr(&out, ",\"status\":");
        if (page.status) {
            ra_buf_printf(&out, "%d", page.status);
        } else {
            ra_buf_cstr(&out, "null");
        }
        ra_buf_printf(&out, ",\"x_robots_tag\":%u,\"meta_tags\":%u,"
                      "\"scan_cut\":%s,\"directives\":[", pd.headers,
                      pd.metas, pd.scan_cut ? "true" : "false");
    }
    ra_page_scopes(&out, pc.name, &pd, json);
    if (json) {
        ra_buf_cstr(&out, "],\"conflicts\":");
        ra_buf_cstr(&out, rules != NULL ? "[" : "null");
    }
    if (rules != NULL) {
        ra_pagedir_conflicts(&pd, rules, pc.path, ra_page_conflict, &pc);
    }
    if (json) {
        ra_buf_cstr(&out, rules != NULL ? "]}\n" : "}\n");
    } else if (rules != NULL) {
        ra_buf_printf(&out, "%s: %u error%s, %u warning%s\n", pc.name,
                      pc.errors, pc.errors == 1 ? "" : "s", pc.warnings,
                      pc.warnings == 1 ? "" : "s");
    }
    rc = pc.errors ? RA_EXIT_FOUND : RA_EXIT_OK;
    if (ra_cli_write(RA_PAGE_CMD, stdout, &out) != 0
        || fflush(stdout) != 0)
    {
        rc = RA_EXIT_USAGE;
    }
    ra_buf_release(&out);
    ra_buf_release(&dec);
    ra_rules_free(rules);
    free((void *) in.data);
    return rc;
}
