/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Lint: one positive and one negative case per check (a table), realistic
 * files that must stay silent, bounds, and every stress file of
 * ../shared/data/robots-stress with the codes its README implies.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ra_test.h"
#include "ra_crawlers.h"
#include "ra_lint.h"

/* ------------------------------------------------------------------ */
/* helpers                                                              */

typedef struct {
    ra_test_arena_t  *arena;
    ra_lint_t         lint;
    ra_str_t          body;
} lint_run_t;

static void
dump(const ra_lint_t *l)
{
    uint32_t  i;

    for (i = 0; i < l->nfindings; i++) {
        print_message("  %u:%u %s [%s] %.*s\n", l->findings[i].line,
                      l->findings[i].column,
                      ra_lint_severity_name(l->findings[i].severity),
                      ra_lint_code_name(l->findings[i].code),
                      (int) l->findings[i].message.len,
                      (const char *) l->findings[i].message.data);
    }
}

static void
run_lint(lint_run_t *r, const void *body, size_t len,
    const ra_lint_http_t *http)
{
    memset(r, 0, sizeof(*r));
    r->arena = ra_test_arena_new();
    r->body = ra_test_exact(body, len);
    assert_int_equal(ra_lint(r->body, http, ra_test_arena_alloc(r->arena),
                             &r->lint), RA_OK);
    if (getenv("RA_TEST_VERBOSE")) {
        dump(&r->lint);
    }
}

static void
run_done(lint_run_t *r)
{
    ra_test_exact_free(r->body);
    ra_test_arena_free(r->arena);
}

/* findings with code (kept + suppressed); on line when line >= 0 */
static unsigned
count_code(const ra_lint_t *l, ra_lint_code_e code, long line)
{
    uint32_t  i;
    unsigned  n = 0;

    for (i = 0; i < l->nfindings; i++) {
        if (l->findings[i].code == code
            && (line < 0 || l->findings[i].line == (uint32_t) line))
        {
            n++;
        }
    }
    return line < 0 ? n + l->suppressed[code] : n;
}

/* messages are spans, not C strings */
static int
msg_has(const ra_lint_finding_t *f, const char *needle)
{
    size_t  i, n = strlen(needle);

    for (i = 0; i + n <= f->message.len; i++) {
        if (memcmp(f->message.data + i, needle, n) == 0) {
            return 1;
        }
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* one case per row: body + answer -> code present (on line) or absent */

typedef struct {
    const char      *name;
    const char      *body;
    size_t           len;           /* 0: strlen(body) */
    int              status;
    const char      *ctype;         /* NULL: unknown */
    unsigned         redirects;
    unsigned         truncated;
    ra_lint_code_e   code;
    int              present;
    long             line;          /* -1: any */
    long             column;        /* -1: any */
} lint_case_t;

#define UA  "User-agent: *\n"

static const lint_case_t  cases[] = {
    /* the answer */
    { "status_503", UA "Disallow: /x\n", 0, 503, NULL, 0, 0,
      RA_LC_STATUS_UNREACHABLE, 1, 0, 0 },
    { "status_429", "", 0, 429, NULL, 0, 0,
      RA_LC_STATUS_UNREACHABLE, 1, 0, 0 },
    { "status_200_not_unreachable", UA "Disallow: /x\n", 0, 200, NULL, 0, 0,
      RA_LC_STATUS_UNREACHABLE, 0, -1, -1 },
    { "status_403", "", 0, 403, NULL, 0, 0, RA_LC_STATUS_FORBIDDEN, 1, 0, 0 },
    { "status_401", "", 0, 401, NULL, 0, 0, RA_LC_STATUS_FORBIDDEN, 1, 0, 0 },
    { "status_404_not_forbidden", "", 0, 404, NULL, 0, 0,
      RA_LC_STATUS_FORBIDDEN, 0, -1, -1 },
    { "status_404", "", 0, 404, NULL, 0, 0, RA_LC_STATUS_MISSING, 1, 0, 0 },
    { "status_410", "", 0, 410, NULL, 0, 0, RA_LC_STATUS_MISSING, 1, 0, 0 },
    { "status_400", "", 0, 400, NULL, 0, 0,
      RA_LC_STATUS_CLIENT_ERROR, 1, 0, 0 },
    { "status_429_not_client_error", "", 0, 429, NULL, 0, 0,
      RA_LC_STATUS_CLIENT_ERROR, 0, -1, -1 },
    { "status_301", "", 0, 301, NULL, 0, 0, RA_LC_STATUS_REDIRECT, 1, 0, 0 },
    { "status_150", "", 0, 150, NULL, 0, 0, RA_LC_STATUS_UNUSUAL, 1, 0, 0 },
    { "status_204_fine", "", 0, 204, NULL, 0, 0,
      RA_LC_STATUS_UNUSUAL, 0, -1, -1 },
    { "redirects_6", UA "Disallow: /x\n", 0, 200, NULL, 6, 0,
      RA_LC_REDIRECT_LIMIT, 1, 0, 0 },
    { "redirects_5_within_limit", UA "Disallow: /x\n", 0, 200, NULL, 5, 0,
      RA_LC_REDIRECT_LIMIT, 0, -1, -1 },
    { "redirects_5_info", UA "Disallow: /x\n", 0, 200, NULL, 5, 0,
      RA_LC_REDIRECTS, 1, 0, 0 },
    { "redirects_0", UA "Disallow: /x\n", 0, 200, NULL, 0, 0,
      RA_LC_REDIRECTS, 0, -1, -1 },
    { "ctype_html", UA "Disallow: /x\n", 0, 200, "text/html", 0, 0,
      RA_LC_CONTENT_TYPE, 1, 0, 0 },
    { "ctype_octet", UA "Disallow: /x\n", 0, 200,
      "application/octet-stream", 0, 0, RA_LC_CONTENT_TYPE, 1, 0, 0 },
    { "ctype_absent", UA "Disallow: /x\n", 0, 200, "", 0, 0,
      RA_LC_CONTENT_TYPE, 1, 0, 0 },
    { "ctype_plain", UA "Disallow: /x\n", 0, 200,
      "Text/Plain; charset=UTF-8", 0, 0, RA_LC_CONTENT_TYPE, 0, -1, -1 },
    { "charset_latin1", UA "Disallow: /x\n", 0, 200,
      "text/plain; charset=ISO-8859-1", 0, 0, RA_LC_CHARSET, 1, 0, 0 },
    { "charset_utf8_quoted", UA "Disallow: /x\n", 0, 200,
      "text/plain;charset=\"utf-8\"", 0, 0, RA_LC_CHARSET, 0, -1, -1 },
    { "truncated", UA "Disallow: /x\n", 0, 200, NULL, 0, 1,
      RA_LC_TRUNCATED_BODY, 1, 0, 0 },
    { "not_truncated", UA "Disallow: /x\n", 0, 200, NULL, 0, 0,
      RA_LC_TRUNCATED_BODY, 0, -1, -1 },
    { "empty", "", 0, 0, NULL, 0, 0, RA_LC_EMPTY, 1, 0, 0 },
    { "empty_comments", "# nothing here\n\n", 0, 0, NULL, 0, 0,
      RA_LC_EMPTY, 1, 0, 0 },
    { "allow_all_not_empty", UA "Disallow:\n", 0, 0, NULL, 0, 0,
      RA_LC_EMPTY, 0, -1, -1 },

    /* what the body is */
    { "html", "<!DOCTYPE html>\n<html><body>Disallow: /</body></html>\n", 0,
      200, NULL, 0, 0, RA_LC_HTML, 1, 1, 1 },
    { "html_after_blank_lines", "\n\r\n  <HTML>\n", 0, 0, NULL, 0, 0,
      RA_LC_HTML, 1, 3, 1 },
    { "html_not_a_path", UA "Disallow: /<html>\n", 0, 0, NULL, 0, 0,
      RA_LC_HTML, 0, -1, -1 },
    { "utf16le_bom", "\xff\xfeU\0s\0e\0r\0", 10, 0, NULL, 0, 0,
      RA_LC_ENCODING, 1, 1, 1 },
    { "utf16be_no_bom", "\0U\0s\0e\0r\0-\0a\0g\0e\0n\0t\0:\0 \0*\0\n", 28,
      0, NULL, 0, 0, RA_LC_ENCODING, 1, 1, 1 },
    { "utf8_not_utf16", UA "Disallow: /x\n", 0, 0, NULL, 0, 0,
      RA_LC_ENCODING, 0, -1, -1 },

    /* bytes */
    { "bom", "\xef\xbb\xbf" UA "Disallow: /x\n", 0, 0, NULL, 0, 0,
      RA_LC_BOM, 1, 1, 1 },
    { "bom_partial", "\xef\xbb" UA "Disallow: /x\n", 0, 0, NULL, 0, 0,
      RA_LC_BOM, 1, 1, 1 },
    { "no_bom", UA "Disallow: /x\n", 0, 0, NULL, 0, 0, RA_LC_BOM, 0, -1, -1 },
    { "bom_inside", UA "\xef\xbb\xbf" "Disallow: /x\n", 0, 0, NULL, 0, 0,
      RA_LC_BOM_INSIDE, 1, 2, 1 },
    { "bom_start_not_inside", "\xef\xbb\xbf" UA, 0, 0, NULL, 0, 0,
      RA_LC_BOM_INSIDE, 0, -1, -1 },
    { "invalid_utf8", UA "Disallow: /caf\xe9\n", 0, 0, NULL, 0, 0,
      RA_LC_INVALID_UTF8, 1, 2, 15 },
    { "valid_utf8", UA "Disallow: /caf\xc3\xa9\n", 0, 0, NULL, 0, 0,
      RA_LC_INVALID_UTF8, 0, -1, -1 },
    { "nul", UA "Disallow: /a\0b\n", 29, 0, NULL, 0, 0, RA_LC_NUL, 1, 2, 13 },
    { "no_nul", UA "Disallow: /ab\n", 0, 0, NULL, 0, 0, RA_LC_NUL, 0, -1, -1 },
    { "control_esc", UA "Disallow: /a\x1b[31m\n", 0, 0, NULL, 0, 0,
      RA_LC_CONTROL_CHAR, 1, 2, 13 },
    { "tab_not_control", UA "Disallow:\t/a\t# c\n", 0, 0, NULL, 0, 0,
      RA_LC_CONTROL_CHAR, 0, -1, -1 },

    /* lines and keys */
    { "invalid_three_words", UA "Disallow /a b\n", 0, 0, NULL, 0, 0,
      RA_LC_INVALID_LINE, 1, 2, 1 },
    { "valid_line", UA "Disallow: /a b\n", 0, 0, NULL, 0, 0,
      RA_LC_INVALID_LINE, 0, -1, -1 },
    { "no_colon", UA "Disallow /a\n", 0, 0, NULL, 0, 0,
      RA_LC_NO_COLON, 1, 2, 1 },
    { "colon", UA "Disallow : /a\n", 0, 0, NULL, 0, 0,
      RA_LC_NO_COLON, 0, -1, -1 },
    { "typo", UA "Dissallow: /a\n", 0, 0, NULL, 0, 0, RA_LC_TYPO, 1, 2, 1 },
    { "no_typo", UA "DISALLOW: /a\n", 0, 0, NULL, 0, 0,
      RA_LC_TYPO, 0, -1, -1 },
    { "key_prefix", UA "Disallowed: /a\n", 0, 0, NULL, 0, 0,
      RA_LC_KEY_PREFIX, 1, 2, 1 },
    { "no_key_prefix", UA "disallow: /a\n", 0, 0, NULL, 0, 0,
      RA_LC_KEY_PREFIX, 0, -1, -1 },
    { "unknown_key", UA "Foo: bar\n", 0, 0, NULL, 0, 0,
      RA_LC_UNKNOWN_KEY, 1, 2, 1 },
    { "crawl_delay_not_unknown", UA "Crawl-delay: 5\n", 0, 0, NULL, 0, 0,
      RA_LC_UNKNOWN_KEY, 0, -1, -1 },
    { "noindex", UA "Noindex: /private/\n", 0, 0, NULL, 0, 0,
      RA_LC_NOINDEX, 1, 2, 1 },
    { "no_noindex", UA "Disallow: /noindex/\n", 0, 0, NULL, 0, 0,
      RA_LC_NOINDEX, 0, -1, -1 },
    { "host", UA "Host: www.example.com\n", 0, 0, NULL, 0, 0,
      RA_LC_NONSTANDARD_KEY, 1, 2, 1 },
    { "clean_param", UA "Clean-param: ref /a/\n", 0, 0, NULL, 0, 0,
      RA_LC_NONSTANDARD_KEY, 1, 2, 1 },
    { "hostname_unknown", UA "Hostname: x\n", 0, 0, NULL, 0, 0,
      RA_LC_NONSTANDARD_KEY, 0, -1, -1 },
    { "crawl_delay", UA "Crawl-delay: 5\n", 0, 0, NULL, 0, 0,
      RA_LC_CRAWL_DELAY, 1, 2, 14 },
    { "crawl_delay_fraction", UA "Crawl-delay: 0.5\n", 0, 0, NULL, 0, 0,
      RA_LC_CRAWL_DELAY_VALUE, 0, -1, -1 },
    { "crawl_delay_nan", UA "Crawl-delay: soon\n", 0, 0, NULL, 0, 0,
      RA_LC_CRAWL_DELAY_VALUE, 1, 2, 14 },
    { "crawl_delay_huge", UA "Crawl-delay: 3600\n", 0, 0, NULL, 0, 0,
      RA_LC_CRAWL_DELAY_VALUE, 1, 2, 14 },
    { "crawl_delay_60_fine", UA "Crawl-delay: 60\n", 0, 0, NULL, 0, 0,
      RA_LC_CRAWL_DELAY_VALUE, 0, -1, -1 },
    { "outside_group", "Disallow: /x\n" UA "Disallow: /y\n", 0, 0, NULL, 0, 0,
      RA_LC_OUTSIDE_GROUP, 1, 1, 1 },
    { "sitemap_before_group_fine",
      "Sitemap: https://example.com/s.xml\n" UA "Disallow: /y\n", 0, 0, NULL,
      0, 0, RA_LC_OUTSIDE_GROUP, 0, -1, -1 },

    /* user-agent values */
    { "ua_empty", "User-agent:\nDisallow: /x\n", 0, 0, NULL, 0, 0,
      RA_LC_UA_EMPTY, 1, 1, 1 },
    { "ua_star_not_empty", UA "Disallow: /x\n", 0, 0, NULL, 0, 0,
      RA_LC_UA_EMPTY, 0, -1, -1 },
    { "ua_digits", "User-agent: MJ12bot\nDisallow: /\n", 0, 0, NULL, 0, 0,
      RA_LC_UA_TOKEN, 1, 1, 13 },
    { "ua_star_prefix", "User-agent: *bot\nDisallow: /\n", 0, 0, NULL, 0, 0,
      RA_LC_UA_TOKEN, 1, 1, 13 },
    { "ua_hyphen_fine", "User-agent: Googlebot-News\nDisallow: /\n", 0, 0,
      NULL, 0, 0, RA_LC_UA_TOKEN, 0, -1, -1 },
    { "ua_version", "User-agent: FooBot/1.0\nDisallow: /\n", 0, 0, NULL, 0,
      0, RA_LC_UA_VERSION, 1, 1, 13 },
    { "ua_no_version", "User-agent: FooBot\nDisallow: /\n", 0, 0, NULL, 0, 0,
      RA_LC_UA_VERSION, 0, -1, -1 },

    /* patterns */
    { "path_start", UA "Disallow: private/\n", 0, 0, NULL, 0, 0,
      RA_LC_PATH_START, 1, 2, 11 },
    { "path_star_fine", UA "Disallow: *.gif$\n", 0, 0, NULL, 0, 0,
      RA_LC_PATH_START, 0, -1, -1 },
    { "path_space", UA "Disallow: /a b\n", 0, 0, NULL, 0, 0,
      RA_LC_PATH_SPACE, 1, 2, 13 },
    { "path_percent20_fine", UA "Disallow: /a%20b\n", 0, 0, NULL, 0, 0,
      RA_LC_PATH_SPACE, 0, -1, -1 },
    { "dollar_middle", UA "Disallow: /a$b\n", 0, 0, NULL, 0, 0,
      RA_LC_DOLLAR_MIDDLE, 1, 2, 13 },
    { "dollar_end", UA "Disallow: /*.pdf$\n", 0, 0, NULL, 0, 0,
      RA_LC_DOLLAR_MIDDLE, 0, -1, -1 },
    { "bad_percent", UA "Disallow: /%zz\n", 0, 0, NULL, 0, 0,
      RA_LC_BAD_PERCENT, 1, 2, 12 },
    { "bad_percent_at_end", UA "Disallow: /a%\n", 0, 0, NULL, 0, 0,
      RA_LC_BAD_PERCENT, 1, 2, 13 },
    { "good_percent", UA "Disallow: /a%2Fb\n", 0, 0, NULL, 0, 0,
      RA_LC_BAD_PERCENT, 0, -1, -1 },
    { "sitemap_relative", "Sitemap: /sitemap.xml\n", 0, 0, NULL, 0, 0,
      RA_LC_SITEMAP_URL, 1, 1, 10 },
    { "sitemap_ftp", "Sitemap: ftp://example.com/s.xml\n", 0, 0, NULL, 0, 0,
      RA_LC_SITEMAP_URL, 1, 1, 10 },
    { "sitemap_empty", "Sitemap:\n", 0, 0, NULL, 0, 0,
      RA_LC_SITEMAP_URL, 1, 1, 1 },
    { "sitemap_ok", "SITEMAP: HTTPS://example.com/s.xml\n", 0, 0, NULL, 0, 0,
      RA_LC_SITEMAP_URL, 0, -1, -1 },
    { "diff_unreserved_escape", UA "Disallow: /%7Euser\n", 0, 0, NULL, 0, 0,
      RA_LC_RFC_GOOGLE_DIFF, 1, 2, 12 },
    { "diff_star_escape", UA "Disallow: /a%2A\n", 0, 0, NULL, 0, 0,
      RA_LC_RFC_GOOGLE_DIFF, 1, 2, 13 },
    { "diff_non_ascii", UA "Disallow: /caf\xc3\xa9\n", 0, 0, NULL, 0, 0,
      RA_LC_RFC_GOOGLE_DIFF, 1, 2, 15 },
    { "no_diff_reserved_escape", UA "Disallow: /a%2Fb\n", 0, 0, NULL, 0, 0,
      RA_LC_RFC_GOOGLE_DIFF, 0, -1, -1 },
    { "robots_txt_rule", UA "Disallow: /robots.txt\n", 0, 0, NULL, 0, 0,
      RA_LC_ROBOTS_TXT_RULE, 1, 2, 11 },
    { "robots_txt_allow_fine", UA "Allow: /robots.txt\n", 0, 0, NULL, 0, 0,
      RA_LC_ROBOTS_TXT_RULE, 0, -1, -1 },

    /* groups */
    { "disallow_all", UA "Disallow: /\n", 0, 0, NULL, 0, 0,
      RA_LC_DISALLOW_ALL, 1, 2, 1 },
    { "disallow_all_star", UA "Disallow: /*\n", 0, 0, NULL, 0, 0,
      RA_LC_DISALLOW_ALL, 1, 2, 1 },
    { "disallow_all_with_allowlist", UA "Disallow: /\nAllow: /public/\n", 0,
      0, NULL, 0, 0, RA_LC_DISALLOW_ALL, 0, -1, -1 },
    { "disallow_all_one_bot", "User-agent: GPTBot\nDisallow: /\n", 0, 0,
      NULL, 0, 0, RA_LC_DISALLOW_ALL, 0, -1, -1 },
    { "same_pattern", UA "Allow: /x\nDisallow: /x\n", 0, 0, NULL, 0, 0,
      RA_LC_SAME_PATTERN, 1, 3, 11 },
    { "same_pattern_after_normalising", UA "Allow: /%7e\nDisallow: /%7E\n",
      0, 0, NULL, 0, 0, RA_LC_SAME_PATTERN, 1, 3, 11 },
    { "different_patterns", UA "Allow: /x/\nDisallow: /x\n", 0, 0, NULL, 0,
      0, RA_LC_SAME_PATTERN, 0, -1, -1 },
    { "duplicate", UA "Disallow: /x\nDisallow: /y\nDisallow: /x\n", 0, 0,
      NULL, 0, 0, RA_LC_DUPLICATE_RULE, 1, 4, 11 },
    { "duplicate_other_group",
      UA "Disallow: /x\n\nUser-agent: b\nDisallow: /x\n", 0, 0, NULL, 0, 0,
      RA_LC_DUPLICATE_RULE, 0, -1, -1 },
    { "shadowed_longer_allow", UA "Disallow: /a\nAllow: /a*\n", 0, 0, NULL,
      0, 0, RA_LC_SHADOWED_RULE, 1, 2, 11 },
    { "shadowed_tie_allow_wins", UA "Disallow: /x.php\nAllow: /*.php\n", 0,
      0, NULL, 0, 0, RA_LC_SHADOWED_RULE, 1, 2, 11 },
    { "shadowed_allow_by_longer_disallow",
      UA "Allow: /shop\nDisallow: /shop**\n", 0, 0, NULL, 0, 0,
      RA_LC_SHADOWED_RULE, 1, 2, 8 },
    { "not_shadowed_tie_disallow", UA "Allow: /x.php\nDisallow: /*.php\n", 0,
      0, NULL, 0, 0, RA_LC_SHADOWED_RULE, 0, -1, -1 },
    { "not_shadowed_exception", UA "Disallow: /a/\nAllow: /a/b\n", 0, 0,
      NULL, 0, 0, RA_LC_SHADOWED_RULE, 0, -1, -1 },
    { "not_shadowed_anchored", UA "Disallow: /a\nAllow: /a*$\n", 0, 0, NULL,
      0, 0, RA_LC_SHADOWED_RULE, 0, -1, -1 },
    { "not_shadowed_partial_cover", UA "Disallow: /*.php\nAllow: /a*.php\n",
      0, 0, NULL, 0, 0, RA_LC_SHADOWED_RULE, 0, -1, -1 },
    { "blocks_css", UA "Disallow: /*.css$\n", 0, 0, NULL, 0, 0,
      RA_LC_BLOCKS_ASSETS, 1, 2, 1 },
    { "blocks_wp_includes", UA "Disallow: /wp-includes/\n", 0, 0, NULL, 0, 0,
      RA_LC_BLOCKS_ASSETS, 1, 2, 1 },
    { "blocks_js_for_googlebot_only",
      "User-agent: Googlebot\nDisallow: /assets/\n", 0, 0, NULL, 0, 0,
      RA_LC_BLOCKS_ASSETS, 1, 2, 1 },
    { "short_prefix_not_assets", UA "Disallow: /a\nDisallow: /c\n", 0, 0,
      NULL, 0, 0, RA_LC_BLOCKS_ASSETS, 0, -1, -1 },
    { "assets_for_other_bot", "User-agent: Bingbot\nDisallow: /*.js$\n", 0,
      0, NULL, 0, 0, RA_LC_BLOCKS_ASSETS, 0, -1, -1 },
    { "assets_allowed_back", UA "Disallow: /core/\nAllow: /core/*.js$\n", 0,
      0, NULL, 0, 0, RA_LC_BLOCKS_ASSETS, 0, -1, -1 },
    { "group_replaces_star", "User-agent: *\nDisallow: /private/\n\n"
      "User-agent: Googlebot\nDisallow: /tmp/\n", 0, 0, NULL, 0, 0,
      RA_LC_GROUP_REPLACES_STAR, 1, 4, 13 },
    { "group_replaces_star_allow_root",
      "User-agent: *\nDisallow: /private/\nUser-agent: b\nAllow: /\n"
      "Disallow: /x\n", 0, 0, NULL, 0, 0, RA_LC_GROUP_REPLACES_STAR, 1, 3,
      13 },
    { "group_repeats_star_rule", "User-agent: *\nDisallow: /private/\n\n"
      "User-agent: Googlebot\nDisallow: /tmp/\nDisallow: /private/\n", 0,
      0, NULL, 0, 0, RA_LC_GROUP_REPLACES_STAR, 0, -1, -1 },
    { "group_covers_star_rule", "User-agent: *\nDisallow: /private/x\n"
      "Disallow: /*.pdf$\n\nUser-agent: b\nDisallow: /priv\n"
      "Disallow: /*.pdf\n", 0, 0, NULL, 0, 0, RA_LC_GROUP_REPLACES_STAR, 0,
      -1, -1 },
    { "group_allows_star_rule_on_purpose",
      "User-agent: *\nDisallow: /private/\n\nUser-agent: b\n"
      "Allow: /private/\nDisallow: /tmp/\n", 0, 0, NULL, 0, 0,
      RA_LC_GROUP_REPLACES_STAR, 0, -1, -1 },
    { "group_allows_everything_on_purpose",
      "User-agent: *\nDisallow: /private/\n\nUser-agent: b\nDisallow:\n",
      0, 0, NULL, 0, 0, RA_LC_GROUP_REPLACES_STAR, 0, -1, -1 },
    { "group_replaces_star_closed_site",
      "User-agent: *\nDisallow: /\n\nUser-agent: b\nDisallow: /x\n", 0, 0,
      NULL, 0, 0, RA_LC_GROUP_REPLACES_STAR, 0, -1, -1 },
    { "group_merged_has_star_rule", "User-agent: *\nDisallow: /a/\n\n"
      "User-agent: b\nDisallow: /x\n\nUser-agent: B\nDisallow: /a/\n", 0,
      0, NULL, 0, 0, RA_LC_GROUP_REPLACES_STAR, 0, -1, -1 },
    { "group_shares_star_group", "User-agent: *\nUser-agent: b\n"
      "Disallow: /a/\n", 0, 0, NULL, 0, 0, RA_LC_GROUP_REPLACES_STAR, 0, -1,
      -1 },
    { "binary_gzip", "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", 10, 0,
      NULL, 0, 0, RA_LC_BINARY, 1, 1, 1 },
    { "binary_nul_heavy", "User-agent: *\0\0\0\0\x01\x02\x03\x04\x05"
      "\x06\x07\x0e\x0f\x10\x11\nDisallow: /\n", 41, 0, NULL, 0, 0,
      RA_LC_BINARY, 1, 1, 1 },
    { "binary_png", "\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16, 0, NULL, 0, 0,
      RA_LC_BINARY, 1, 1, 1 },
    { "latin1_text_not_binary", UA "Disallow: /caf\xe9\nDisallow: /\xe0\xe9"
      "\xe8\xf4\xfc\xe7\xe2\xea\n", 0, 0, NULL, 0, 0, RA_LC_BINARY, 0, -1,
      -1 },
    { "few_controls_not_binary", UA "Disallow: /a\x01b\nDisallow: /\0c\n",
      0, 0, NULL, 0, 0, RA_LC_BINARY, 0, -1, -1 },
    { "bzh_word_not_binary", "BZh: x\n" UA "Disallow: /x\n", 0, 0, NULL, 0,
      0, RA_LC_BINARY, 0, -1, -1 },
};

static void
test_case(void **state)
{
    const lint_case_t  *c = *state;
    lint_run_t          r;
    ra_lint_http_t      h;
    unsigned            n;
    uint32_t            i;

    memset(&h, 0, sizeof(h));
    h.status = c->status;
    h.redirects = c->redirects;
    h.truncated = c->truncated;
    if (c->ctype != NULL) {
        h.content_type = ra_str(c->ctype, strlen(c->ctype));
    }
    run_lint(&r, c->body, c->len ? c->len : strlen(c->body), &h);

    n = count_code(&r.lint, c->code, c->line);
    if (c->present ? n == 0 : n != 0) {
        print_message("%s: [%s] expected %s\n", c->name,
                      ra_lint_code_name(c->code),
                      c->present ? "present" : "absent");
        dump(&r.lint);
        fail();
    }
    if (c->present && c->column >= 0) {
        for (i = 0; i < r.lint.nfindings; i++) {
            if (r.lint.findings[i].code == c->code) {
                if (r.lint.findings[i].column != (uint32_t) c->column) {
                    dump(&r.lint);
                }
                assert_int_equal(r.lint.findings[i].column, c->column);
                break;
            }
        }
    }
    /* every finding's severity is the one its code documents */
    for (i = 0; i < r.lint.nfindings; i++) {
        assert_int_equal(r.lint.findings[i].severity,
                         ra_lint_code_severity(r.lint.findings[i].code));
    }
    run_done(&r);
}

/* ------------------------------------------------------------------ */
/* realistic files: no warning, no error                                */

static const char  wordpress[] =
    "# WordPress with WooCommerce and Yoast\n"
    "User-agent: *\n"
    "Disallow: /wp-admin/\n"
    "Allow: /wp-admin/admin-ajax.php\n"
    "Disallow: /wp-login.php\n"
    "Disallow: /?s=\n"
    "Disallow: /search/\n"
    "Disallow: /cart/\n"
    "Disallow: /checkout/\n"
    "Disallow: /my-account/\n"
    "Disallow: /*?add-to-cart=\n"
    "Disallow: /*?orderby=\n"
    "\n"
    "Sitemap: https://www.example.com/sitemap_index.xml\n";

static const char  news[] =
    "# Example News robots.txt\r\n"
    "User-agent: *\r\n"
    "Disallow: /search\r\n"
    "Disallow: /*?*query=\r\n"
    "Disallow: /preview/\r\n"
    "Disallow: /api/\r\n"
    "Allow: /api/public/\r\n"
    "Disallow: /ads/\r\n"
    "Allow: /ads/public/\r\n"
    "Disallow: /newsletters/confirm\r\n"
    "Disallow: /*.json$\r\n"
    "Disallow: /print/\r\n"
    "Disallow: /login\r\n"
    "Disallow: /subscribe/checkout\r\n"
    "\r\n"
    "User-agent: Googlebot-News\r\n"
    "Disallow: /opinion/drafts/\r\n"
    "Disallow: /live/archive/\r\n"
    "\r\n"
    "User-agent: Mediapartners-Google\r\n"
    "Disallow:\r\n"
    "\r\n"
    "User-agent: GPTBot\r\n"
    "User-agent: CCBot\r\n"
    "User-agent: Google-Extended\r\n"
    "User-agent: anthropic-ai\r\n"
    "Disallow: /\r\n"
    "\r\n"
    "Sitemap: https://www.example-news.com/sitemaps/news.xml\r\n"
    "Sitemap: https://www.example-news.com/sitemaps/sections.xml\r\n"
    "Sitemap: https://www.example-news.com/sitemaps/video.xml\r\n";

static const char  googlestyle[] =
    "User-agent: *\n"
    "Disallow: /search\n"
    "Allow: /search/about\n"
    "Allow: /search/static\n"
    "Allow: /search/howsearchworks\n"
    "Disallow: /sdch\n"
    "Disallow: /groups\n"
    "Disallow: /index.html?\n"
    "Disallow: /?\n"
    "Allow: /?hl=\n"
    "Disallow: /?hl=*&\n"
    "Allow: /?hl=*&gws_rd=ssl$\n"
    "Disallow: /imgres\n"
    "Disallow: /u/\n"
    "Disallow: /setprefs\n"
    "Disallow: /m?\n"
    "Allow: /m/finance\n"
    "Disallow: /maps/api/js/\n"
    "Allow: /maps/api/js\n"
    "Disallow: /maps/api/js/DirectionsService.Route\n"
    "Disallow: /shopping/product/\n"
    "Allow: /shopping/product/*/reviews$\n"
    "\n"
    "# AdsBot\n"
    "User-agent: AdsBot-Google\n"
    "Disallow: /maps/api/js/\n"
    "\n"
    "User-agent: Twitterbot\n"
    "Allow: /imgres\n"
    "\n"
    "User-agent: facebookexternalhit\n"
    "Allow: /imgres\n"
    "\n"
    "Sitemap: https://www.example.com/sitemap.xml\n"
    "Sitemap: https://www.example.com/maps/sitemap.xml\n";

static const char  drupal[] =
    "#\n# robots.txt (Drupal default, shortened)\n#\n"
    "User-agent: *\n"
    "# CSS, JS, Images\n"
    "Allow: /core/*.css$\n"
    "Allow: /core/*.css?\n"
    "Allow: /core/*.js$\n"
    "Allow: /core/*.js?\n"
    "Allow: /core/*.gif\n"
    "Allow: /core/*.jpg\n"
    "Allow: /core/*.png\n"
    "Allow: /core/*.svg\n"
    "Allow: /profiles/*.css$\n"
    "Allow: /profiles/*.js$\n"
    "# Directories\n"
    "Disallow: /core/\n"
    "Disallow: /profiles/\n"
    "# Files\n"
    "Disallow: /README.md\n"
    "Disallow: /web.config\n"
    "# Paths (clean URLs)\n"
    "Disallow: /admin/\n"
    "Disallow: /comment/reply/\n"
    "Disallow: /filter/tips\n"
    "Disallow: /node/add/\n"
    "Disallow: /search/\n"
    "Disallow: /user/register\n"
    "Disallow: /user/password\n"
    "Disallow: /user/login\n"
    "Disallow: /user/logout\n"
    "# Paths (no clean URLs)\n"
    "Disallow: /index.php/admin/\n"
    "Disallow: /index.php/comment/reply/\n"
    "Disallow: /index.php/user/login\n";

static const char  minimal[] = "User-agent: *\nDisallow:\n";

/* a last group with user-agent lines and no rules allows everything: fine */
static const char  trailing_group[] =
    "User-agent: *\nDisallow: /private/\n\nUser-agent: FriendlyBot\n"
    "User-agent: OtherBot\n";

static void
check_clean(const char *name, const char *text, const char *ctype)
{
    lint_run_t      r;
    ra_lint_http_t  h;

    memset(&h, 0, sizeof(h));
    h.status = 200;
    h.content_type = ra_str(ctype, strlen(ctype));
    run_lint(&r, text, strlen(text), &h);
    if (r.lint.summary.errors || r.lint.summary.warnings) {
        print_message("%s is not clean:\n", name);
        dump(&r.lint);
    }
    assert_int_equal(r.lint.summary.errors, 0);
    assert_int_equal(r.lint.summary.warnings, 0);
    run_done(&r);
}

/* A file clean but for code, found count times, at warning severity. */
static void
check_clean_but(const char *name, const char *text, const char *ctype,
    ra_lint_code_e code, unsigned count)
{
    lint_run_t      r;
    ra_lint_http_t  h;

    memset(&h, 0, sizeof(h));
    h.status = 200;
    h.content_type = ra_str(ctype, strlen(ctype));
    run_lint(&r, text, strlen(text), &h);
    if (r.lint.summary.errors || r.lint.summary.warnings != count
        || count_code(&r.lint, code, -1) != count)
    {
        print_message("%s: expected only %u [%s]:\n", name, count,
                      ra_lint_code_name(code));
        dump(&r.lint);
    }
    assert_int_equal(r.lint.summary.errors, 0);
    assert_int_equal(r.lint.summary.warnings, count);
    assert_int_equal(count_code(&r.lint, code, -1), count);
    run_done(&r);
}

static void
test_clean_files(void **state)
{
    lint_run_t  r;

    (void) state;
    check_clean("wordpress", wordpress, "text/plain; charset=UTF-8");
    /* clean but for the classic mistake: groups that drop the rules of
     * '*' (Googlebot-News; AdsBot-Google, and Twitterbot and
     * facebookexternalhit whose 'Allow: /imgres' opens the whole site to
     * them); Mediapartners-Google's 'Disallow:' is deliberate */
    check_clean_but("news", news, "text/plain", RA_LC_GROUP_REPLACES_STAR,
                    1);
    check_clean_but("googlestyle", googlestyle, "text/plain; charset=utf-8",
                    RA_LC_GROUP_REPLACES_STAR, 3);
    check_clean("drupal", drupal, "text/plain");
    check_clean("minimal", minimal, "text/plain");
    check_clean("trailing_group", trailing_group, "text/plain");

    /* and they are not silent because nothing was read */
    run_lint(&r, news, strlen(news), NULL);
    assert_int_equal(r.lint.summary.groups, 4);
    assert_int_equal(r.lint.summary.agents, 7);
    assert_int_equal(r.lint.summary.rules, 15);
    assert_int_equal(r.lint.summary.allows, 2);
    assert_int_equal(r.lint.summary.sitemaps, 3);
    assert_int_equal(r.lint.summary.bytes, strlen(news));
    assert_int_equal(r.lint.nfindings, 1);      /* group-replaces-star */
    run_done(&r);
}

/* ------------------------------------------------------------------ */
/* size limit, bounds, API                                              */

static char *
big_body(size_t min, size_t *len, unsigned *rules)
{
    size_t  cap = min + 64, n = 0;
    char   *b = malloc(cap);

    assert_non_null(b);
    n += (size_t) sprintf(b, "User-agent: *\n");
    *rules = 0;
    while (n < min) {
        n += (size_t) sprintf(b + n, "Disallow: /p%07u\n", (*rules)++);
    }
    *len = n;
    return b;
}

static void
test_size_limit(void **state)
{
    /* each rule line is 20 bytes after a 14-byte first line: byte 512000
     * falls 6 bytes into rule 25599 (line 25601, "Disall|ow") */
    size_t      len;
    unsigned    rules, i;
    char       *b = big_body(600000, &len, &rules);
    lint_run_t  r;
    const ra_lint_finding_t  *f = NULL;

    (void) state;
    run_lint(&r, b, len, NULL);
    for (i = 0; i < r.lint.nfindings; i++) {
        if (r.lint.findings[i].code == RA_LC_SIZE_LIMIT) {
            f = &r.lint.findings[i];
        }
    }
    assert_non_null(f);
    assert_int_equal(f->severity, RA_SEV_ERROR);
    assert_int_equal(f->line, 25601);
    assert_int_equal(f->column, 512000 - (14 + 25599 * 20) + 1);
    /* the cut rule and all after it */
    assert_int_equal(f->lost_rules, rules - 25599);
    assert_int_equal(r.lint.summary.lost_rules, rules - 25599);
    assert_int_equal(r.lint.summary.rules, 25599);
    assert_int_equal(r.lint.summary.parsed, 512000);
    /* cut inside the key: no shorter rule to warn about */
    assert_false(msg_has(f, "cuts this line"));
    run_done(&r);

    /* exactly 512000 bytes: nothing lost */
    run_lint(&r, b, 512000, NULL);
    assert_int_equal(count_code(&r.lint, RA_LC_SIZE_LIMIT, -1), 0);
    run_done(&r);

    /* 512001 bytes: the cut at a line start loses nothing but a
     * fragment */
    free(b);

    /* far past the limit: windows of the rest are counted too */
    b = big_body(3 * 512000 + 1000, &len, &rules);
    run_lint(&r, b, len, NULL);
    assert_int_equal(count_code(&r.lint, RA_LC_SIZE_LIMIT, -1), 1);
    assert_int_equal(r.lint.summary.rules + r.lint.summary.lost_rules,
                     rules);
    run_done(&r);
    free(b);
}

static void
test_bounded_findings(void **state)
{
    /* 20,000 bad lines give at most RA_LINT_PER_CODE findings per code,
     * the rest counted */
    size_t      n = 0, i, kept;
    char       *b = malloc(20000 * 16 + 32);
    lint_run_t  r;
    ra_lint_http_t  h;

    (void) state;
    assert_non_null(b);
    n += (size_t) sprintf(b, "User-agent: *\n");
    for (i = 0; i < 20000; i++) {
        n += (size_t) sprintf(b + n, "Disallow x%05zu\n", i);
    }
    run_lint(&r, b, n, NULL);
    assert_int_equal(count_code(&r.lint, RA_LC_NO_COLON, -1), 20000);
    assert_int_equal(r.lint.suppressed[RA_LC_NO_COLON],
                     20000 - RA_LINT_PER_CODE);
    assert_true(r.lint.nfindings <= 3 * RA_LINT_PER_CODE);
    assert_int_equal(r.lint.summary.warnings, 20000);
    assert_int_equal(r.lint.summary.errors, 20000);     /* path-start */
    for (i = 0, kept = 0; i < r.lint.nfindings; i++) {
        kept += sizeof(ra_lint_finding_t) + r.lint.findings[i].message.len;
    }
    assert_true(kept < 16 * 1024);
    run_done(&r);

    memset(&h, 0, sizeof(h));
    h.max_per_code = 3;
    run_lint(&r, b, n, &h);
    assert_int_equal(r.lint.suppressed[RA_LC_NO_COLON], 20000 - 3);
    run_done(&r);
    free(b);
}

static void
test_shadow_budget(void **state)
{
    /* 3000 allows and 3000 disallows, none covering another: the
     * analysis stops at its budget and says so, quickly */
    size_t      n = 0, i;
    char       *b = malloc(6000 * 24 + 32);
    lint_run_t  r;

    (void) state;
    assert_non_null(b);
    n += (size_t) sprintf(b, "User-agent: *\n");
    for (i = 0; i < 3000; i++) {
        n += (size_t) sprintf(b + n, "Allow: /a%05zu/x\n", i);
        n += (size_t) sprintf(b + n, "Disallow: /d%05zu/\n", i);
    }
    run_lint(&r, b, n, NULL);
    assert_int_equal(count_code(&r.lint, RA_LC_ANALYSIS_LIMIT, -1), 1);
    assert_int_equal(count_code(&r.lint, RA_LC_SHADOWED_RULE, -1), 0);
    run_done(&r);

    /* a few hundred rules stay within it */
    run_lint(&r, b, 300 * 33, NULL);
    assert_int_equal(count_code(&r.lint, RA_LC_ANALYSIS_LIMIT, -1), 0);
    run_done(&r);
    free(b);
}

static void
test_hostile_quotes(void **state)
{
    /* an escape sequence in a key never reaches a message raw */
    static const char  body[] = "User-agent: *\n\x1b]0;pwn\x07: x\n";
    lint_run_t         r;
    uint32_t           i;
    size_t             k;

    (void) state;
    run_lint(&r, body, sizeof(body) - 1, NULL);
    assert_true(r.lint.nfindings > 0);
    for (i = 0; i < r.lint.nfindings; i++) {
        for (k = 0; k < r.lint.findings[i].message.len; k++) {
            unsigned char  c = r.lint.findings[i].message.data[k];

            assert_true(c >= 0x20 && c < 0x7f);
        }
    }
    run_done(&r);
}

static void
test_not_linted_status(void **state)
{
    /* a 5xx body is an error page: crawlers do not read it */
    lint_run_t      r;
    ra_lint_http_t  h;

    (void) state;
    memset(&h, 0, sizeof(h));
    h.status = 503;
    run_lint(&r, "Dissallow /x\n", 13, &h);
    assert_int_equal(r.lint.nfindings, 1);
    assert_int_equal(r.lint.findings[0].code, RA_LC_STATUS_UNREACHABLE);
    assert_int_equal(r.lint.findings[0].line, 0);
    assert_int_equal(r.lint.summary.errors, 1);
    assert_false(r.lint.summary.body_linted);
    run_done(&r);
}

static void
test_codes_api(void **state)
{
    size_t    i, j;
    ra_str_t  s;

    (void) state;
    for (i = 0; i < RA_LINT_NCODES; i++) {
        const char  *n = ra_lint_code_name((ra_lint_code_e) i);

        assert_true(strlen(n) > 2);
        for (j = 0; n[j]; j++) {
            assert_true((n[j] >= 'a' && n[j] <= 'z') || n[j] == '-'
                        || (n[j] >= '0' && n[j] <= '9'));
        }
        s = ra_str(n, strlen(n));
        assert_int_equal(ra_lint_code_by_name(s), i);
        for (j = 0; j < i; j++) {
            assert_string_not_equal(n,
                ra_lint_code_name((ra_lint_code_e) j));
        }
    }
    s = ra_str("no-such-code", 12);
    assert_int_equal(ra_lint_code_by_name(s), RA_LINT_NCODES);
    assert_string_equal(ra_lint_severity_name(RA_SEV_ERROR), "error");
    assert_string_equal(ra_lint_severity_name(RA_SEV_WARNING), "warning");
    assert_string_equal(ra_lint_severity_name(RA_SEV_INFO), "info");
}

static void
test_malloc_allocator(void **state)
{
    /* ra_lint_free() returns everything to a freeing allocator (valgrind
     * and ASan catch a leak) */
    ra_lint_t  l;
    ra_str_t   b = RA_TEST_STR(UA "Disallow: /%7e\nAllow: /%7E\n"
                               "Dissallow x\nFoo: bar\n");

    (void) state;
    assert_int_equal(ra_lint(b, NULL, &ra_malloc_allocator, &l), RA_OK);
    assert_true(l.nfindings >= 3);
    ra_lint_free(&l, &ra_malloc_allocator);
    ra_test_exact_free(b);
}

static int      fail_after;

static void *
failing_alloc(void *ctx, size_t size)
{
    (void) ctx;
    if (fail_after-- <= 0) {
        return NULL;
    }
    return malloc(size);
}

static void
failing_free(void *ctx, void *p)
{
    (void) ctx;
    free(p);
}

static void
test_enomem(void **state)
{
    /* every allocation failure is reported, and nothing leaks */
    ra_alloc_t  a = { failing_alloc, failing_free, NULL };
    ra_lint_t   l;
    ra_str_t    b = ra_test_exact(news, strlen(news) - 0);
    int         i, rc, saw_ok = 0;

    (void) state;
    for (i = 0; i < 400 && !saw_ok; i++) {
        fail_after = i;
        rc = ra_lint(b, NULL, &a, &l);
        assert_true(rc == RA_OK || rc == RA_ENOMEM);
        saw_ok = rc == RA_OK;
        ra_lint_free(&l, &a);
    }
    assert_true(saw_ok);
    ra_test_exact_free(b);
}

/* The classic mistake, as the issue tells it: one warning that names the
 * rules of "*" the group drops; a group that allows everything in so many
 * words is left alone. */
static void
test_group_replaces_star(void **state)
{
    lint_run_t  r;
    static const char  mistake[] =
        "User-agent: *\nDisallow: /private/\n\n"
        "User-agent: Googlebot\nDisallow: /tmp/\n";

    (void) state;
    run_lint(&r, mistake, sizeof(mistake) - 1, NULL);
    assert_int_equal(r.lint.summary.errors, 0);
    assert_int_equal(r.lint.summary.warnings, 1);
    assert_int_equal(r.lint.nfindings, 1);
    assert_int_equal(r.lint.findings[0].code, RA_LC_GROUP_REPLACES_STAR);
    assert_true(msg_has(&r.lint.findings[0], "'Googlebot'"));
    assert_true(msg_has(&r.lint.findings[0],
                        "'Disallow: /private/' (line 2)"));
    run_done(&r);

    /* news: Googlebot-News drops ten rules, three named; nothing else */
    run_lint(&r, news, strlen(news), NULL);
    assert_int_equal(r.lint.summary.errors, 0);
    assert_int_equal(r.lint.summary.warnings, 1);
    assert_int_equal(r.lint.nfindings, 1);
    assert_int_equal(count_code(&r.lint, RA_LC_GROUP_REPLACES_STAR, 16), 1);
    assert_true(msg_has(&r.lint.findings[0], "'Googlebot-News'"));
    assert_true(msg_has(&r.lint.findings[0], "'Disallow: /search' (line 3)"));
    assert_true(msg_has(&r.lint.findings[0], " and 7 more"));
    run_done(&r);
}

/* A compressed or binary file is one error that says what it is, not
 * "0 rules" and a screenful of warnings. */
static void
test_binary(void **state)
{
    lint_run_t      r;
    unsigned char   junk[2048];
    uint32_t        i, x = 12345;
    static const unsigned char  gz[] = {
        0x1f, 0x8b, 0x08, 0x08, 0x6b, 0x2e, 0x3e, 0x65, 0x00, 0x03, 0x72,
        0x6f, 0x62, 0x6f, 0x74, 0x73, 0x2e, 0x74, 0x78, 0x74, 0x00, 0x0b,
        0x2d, 0x4e, 0x2d, 0xd2, 0x4d, 0x4c, 0x4f, 0xcd, 0x2b, 0xb1, 0x52,
        0xd0, 0xe2, 0x72, 0xc9, 0x2c, 0x2e, 0x4e, 0xcc, 0xc9, 0xc9, 0x2f,
        0xb7, 0x52, 0xd0, 0x2f, 0x28, 0xca, 0x2c, 0x4b, 0x2c, 0x49, 0xd5,
        0xe7, 0x02, 0x00, 0x0a, 0x0d, 0x0a, 0x83, 0x26, 0x00, 0x00, 0x00 };

    (void) state;
    run_lint(&r, gz, sizeof(gz), NULL);
    assert_int_equal(r.lint.nfindings, 1);
    assert_int_equal(r.lint.summary.errors, 1);
    assert_int_equal(r.lint.summary.warnings, 0);
    assert_int_equal(r.lint.findings[0].code, RA_LC_BINARY);
    assert_true(msg_has(&r.lint.findings[0], "gzip-compressed"));
    assert_true(msg_has(&r.lint.findings[0], "Content-Encoding: gzip"));
    run_done(&r);

    /* random bytes without a magic number: compressed data looks so */
    for (i = 0; i < sizeof(junk); i++) {
        x = x * 1103515245u + 12345u;
        junk[i] = (unsigned char) (x >> 16);
    }
    run_lint(&r, junk, sizeof(junk), NULL);
    assert_int_equal(r.lint.summary.errors, 1);
    assert_int_equal(r.lint.summary.warnings, 0);
    assert_int_equal(count_code(&r.lint, RA_LC_BINARY, 1), 1);
    assert_true(msg_has(&r.lint.findings[0], "binary data"));
    run_done(&r);

    assert_non_null(ra_lint_binary(ra_str(gz, sizeof(gz))));
    assert_null(ra_lint_binary(ra_str(news, strlen(news))));
    assert_null(ra_lint_binary(ra_str("", 0)));
}

/* Syntax errors say that strict 1997-draft parsers drop the whole file;
 * other findings do not. */
static void
test_syntax_errors_say_strict_crawlers_drop_file(void **state)
{
    lint_run_t  r;
    uint32_t    i, syntax = 0;
    static const char  body[] =
        "Disallow: /early\n"                   /* outside-group */
        "User-agent: *\n"
        "Disallow /nocolon\n"                  /* no-colon */
        "this is not a line\n"                 /* invalid-line */
        "Dissallow: /typo\n";                  /* typo: not syntax */

    (void) state;
    run_lint(&r, body, sizeof(body) - 1, NULL);
    for (i = 0; i < r.lint.nfindings; i++) {
        const ra_lint_finding_t  *f = &r.lint.findings[i];
        int  is = f->code == RA_LC_OUTSIDE_GROUP || f->code == RA_LC_NO_COLON
                  || f->code == RA_LC_INVALID_LINE;

        assert_int_equal(msg_has(f, "1997 robots.txt draft strictly"), is);
        assert_int_equal(msg_has(f, "ignore a file with syntax errors "
                                    "entirely"), is);
        syntax += is;
    }
    assert_int_equal(syntax, 3);
    assert_int_equal(count_code(&r.lint, RA_LC_TYPO, 5), 1);
    run_done(&r);
}

/* ------------------------------------------------------------------ */
/* ../shared/data/robots-stress: what each file stresses (its README)  */

typedef struct {
    const char      *file;
    ra_lint_code_e   codes[6];      /* expected; RA_LINT_NCODES ends */
    int              max_errors;    /* -1: any */
    int              max_warnings;  /* -1: any */
} stress_t;

#define E  RA_LINT_NCODES

static const stress_t  stress[] = {
    { "01_empty.txt", { RA_LC_EMPTY, E }, 0, 0 },
    { "02_only_bom.txt", { RA_LC_BOM, RA_LC_EMPTY, E }, 0, 1 },
    { "03_bom_crlf.txt", { RA_LC_BOM, E }, 0, 1 },
    /* lines ended by CR alone: FooBot's group (line 4) drops '*''s
     * 'Disallow: /a' (line 2) */
    { "04_cr_only.txt", { RA_LC_GROUP_REPLACES_STAR, E }, 0, 1 },
    { "05_mixed_endings.txt", { E }, 0, 0 },
    { "06_nul_bytes.txt", { RA_LC_NUL, RA_LC_INVALID_LINE, E }, 0, -1 },
    { "07_invalid_utf8.txt", { RA_LC_INVALID_UTF8, E }, 0, -1 },
    { "08_line_len_boundaries.txt", { RA_LC_LINE_TOO_LONG, E }, 3, 0 },
    { "09_huge_line_1mib.txt", { RA_LC_SIZE_LIMIT, E }, 1, 0 },
    { "10_600kib.txt", { RA_LC_SIZE_LIMIT, E }, 1, 0 },
    { "11_500kib_boundary.txt", { RA_LC_SIZE_LIMIT, E }, 1, 0 },
    { "12_10k_rules.txt", { E }, 0, 0 },
    /* every group is 'bot' to Google: merged, it lacks '*''s /star/ */
    { "13_10k_groups.txt", { RA_LC_UA_TOKEN, RA_LC_GROUP_REPLACES_STAR, E },
      0, -1 },
    { "14_10k_ua_lines.txt", { E }, 0, 0 },
    { "15_wildcard_aaab.txt", { E }, 0, 0 },
    { "16_many_stars.txt", { E }, 0, 0 },
    { "17_wildcard_500kib_bomb.txt", { E }, 0, 0 },
    { "18_dollar_variants.txt", { RA_LC_DOLLAR_MIDDLE, RA_LC_PATH_START, E },
      -1, -1 },
    { "19_percent_edge.txt", { RA_LC_BAD_PERCENT, RA_LC_RFC_GOOGLE_DIFF, E },
      0, -1 },
    { "20_comments_everywhere.txt", { RA_LC_INVALID_LINE, E }, 0, -1 },
    { "21_whitespace_weird.txt", { RA_LC_CONTROL_CHAR, RA_LC_PATH_SPACE,
      RA_LC_PATH_START, E }, -1, -1 },
    { "22_missing_colon.txt", { RA_LC_NO_COLON, RA_LC_INVALID_LINE, E },
      0, -1 },
    { "23_typos.txt", { RA_LC_TYPO, RA_LC_UNKNOWN_KEY, E }, 0, -1 },
    { "24_key_prefix.txt", { RA_LC_KEY_PREFIX, E }, 0, -1 },
    { "25_html_page.txt", { RA_LC_HTML, E }, 1, 0 },
    { "26_ua_weird.txt", { RA_LC_UA_TOKEN, RA_LC_UA_VERSION, RA_LC_UA_EMPTY,
      RA_LC_GROUP_REPLACES_STAR, E }, 0, -1 },
    { "27_rules_before_ua.txt", { RA_LC_OUTSIDE_GROUP,
      RA_LC_NONSTANDARD_KEY, E }, -1, 0 },
    { "28_long_ua_value.txt", { RA_LC_LINE_TOO_LONG, E }, 1, 0 },
    { "29_same_ua_5000_groups.txt", { E }, 0, 0 },
    { "30_utf16le.txt", { RA_LC_ENCODING, E }, 1, 0 },
    { "31_300k_crlf_lines.txt", { RA_LC_SIZE_LIMIT, E }, 1, 0 },
    { "32_control_chars.txt", { RA_LC_CONTROL_CHAR, E }, 0, -1 },
    { "33_star_500kib_bomb.txt", { E }, 0, 0 },
};

static void
test_stress_files(void **state)
{
    size_t        i, k;
    char          path[512];
    ra_str_t      raw;
    lint_run_t    r;
    const char   *dir;
    unsigned      seen;

    (void) state;
    RA_TEST_NEED_SHARED();
    dir = ra_test_shared();

    for (i = 0; i < sizeof(stress) / sizeof(stress[0]); i++) {
        const stress_t  *s = &stress[i];

        snprintf(path, sizeof(path), "%s/robots-stress/%s", dir, s->file);
        if (ra_test_read_file(path, &raw) != 0) {
            print_message("cannot read %s\n", path);
            fail();
        }
        run_lint(&r, raw.data, raw.len, NULL);
        free((void *) raw.data);

        for (k = 0; s->codes[k] != E; k++) {
            if (count_code(&r.lint, s->codes[k], -1) == 0) {
                print_message("%s: expected [%s]\n", s->file,
                              ra_lint_code_name(s->codes[k]));
                dump(&r.lint);
                fail();
            }
        }
        /* nothing but the expected codes at warning or error */
        for (k = 0; k < r.lint.nfindings; k++) {
            size_t  e;

            if (r.lint.findings[k].severity == RA_SEV_INFO) {
                continue;
            }
            for (e = 0, seen = 0; s->codes[e] != E; e++) {
                seen |= s->codes[e] == r.lint.findings[k].code;
            }
            if (!seen) {
                print_message("%s: unexpected [%s]\n", s->file,
                    ra_lint_code_name(r.lint.findings[k].code));
                dump(&r.lint);
                fail();
            }
        }
        if ((s->max_errors >= 0
             && r.lint.summary.errors > (unsigned) s->max_errors)
            || (s->max_warnings >= 0
                && r.lint.summary.warnings > (unsigned) s->max_warnings))
        {
            print_message("%s: %u errors, %u warnings\n", s->file,
                          r.lint.summary.errors, r.lint.summary.warnings);
            dump(&r.lint);
            fail();
        }
        run_done(&r);
    }
}

static void
test_stress_details(void **state)
{
    char        path[512];
    ra_str_t    raw;
    lint_run_t  r;
    uint32_t    i;

    (void) state;
    RA_TEST_NEED_SHARED();

    /* 10: the cut falls inside a rule; 'Disallow: /beyond-500kib' and the
     * rest are counted as lost; the kept rules stop before the cut */
    snprintf(path, sizeof(path), "%s/robots-stress/10_600kib.txt",
             ra_test_shared());
    assert_int_equal(ra_test_read_file(path, &raw), 0);
    run_lint(&r, raw.data, raw.len, NULL);
    free((void *) raw.data);
    for (i = 0; i < r.lint.nfindings; i++) {
        if (r.lint.findings[i].code == RA_LC_SIZE_LIMIT) {
            assert_true(r.lint.findings[i].lost_rules > 1);
            assert_int_equal(r.lint.findings[i].lost_rules
                             + r.lint.summary.rules, 24577);
        }
    }
    run_done(&r);

    /* 11: the straddling rule is the one rule lost */
    snprintf(path, sizeof(path), "%s/robots-stress/11_500kib_boundary.txt",
             ra_test_shared());
    assert_int_equal(ra_test_read_file(path, &raw), 0);
    run_lint(&r, raw.data, raw.len, NULL);
    free((void *) raw.data);
    assert_int_equal(r.lint.summary.lost_rules, 1);
    assert_int_equal(count_code(&r.lint, RA_LC_SIZE_LIMIT, -1), 1);
    assert_true(msg_has(&r.lint.findings[0], "/straddle'"));
    run_done(&r);

    /* 08: lines of 16662 and 16663 bytes survive, 16664.. are cut */
    snprintf(path, sizeof(path), "%s/robots-stress/08_line_len_boundaries.txt",
             ra_test_shared());
    assert_int_equal(ra_test_read_file(path, &raw), 0);
    run_lint(&r, raw.data, raw.len, NULL);
    free((void *) raw.data);
    assert_int_equal(count_code(&r.lint, RA_LC_LINE_TOO_LONG, 2), 0);
    assert_int_equal(count_code(&r.lint, RA_LC_LINE_TOO_LONG, 3), 0);
    assert_int_equal(count_code(&r.lint, RA_LC_LINE_TOO_LONG, 4), 1);
    assert_int_equal(count_code(&r.lint, RA_LC_LINE_TOO_LONG, 6), 1);
    run_done(&r);
}

/* ------------------------------------------------------------------ */
/* AI preferences and policy tokens                                     */

/* the first finding with code on line, or NULL */
static const ra_lint_finding_t *
finding_at(const ra_lint_t *l, ra_lint_code_e code, uint32_t line)
{
    uint32_t  i;

    for (i = 0; i < l->nfindings; i++) {
        if (l->findings[i].code == code && l->findings[i].line == line) {
            return &l->findings[i];
        }
    }
    return NULL;
}

static void
test_content_signal(void **state)
{
    static const char  body[] =
        "User-Agent: *\n"                                       /* 1 */
        "Content-Signal: search=yes, ai-train=no\n"            /* 2 */
        "Allow: /\n"                                            /* 3 */
        "\n"
        "User-agent: FooBot\n"                                  /* 5 */
        "Content-Signal: ai-input=maybe, train=no, search=no\n" /* 6 */
        "Content-Signal: search=yes\n"                          /* 7 */
        "Content-Signal:\n"                                     /* 8 */
        "Disallow: /x\n";
    static const char  outside[] =
        "Content-Signal: ai-train=no\n"
        "User-agent: *\n"
        "Disallow:\n";
    lint_run_t                r;
    const ra_lint_finding_t  *f;

    (void) state;
    run_lint(&r, body, sizeof(body) - 1, NULL);
    /* a good line: what it states, kept for the reports */
    f = finding_at(&r.lint, RA_LC_AI_PREFERENCE, 2);
    assert_non_null(f);
    assert_true(msg_has(f, "search allowed, ai-train not allowed"));
    assert_true(msg_has(f, "not stated: ai-input"));
    assert_true(msg_has(f, "'*'"));
    assert_int_equal(count_code(&r.lint, RA_LC_CONTENT_SIGNAL, 2), 0);
    /* never an unknown key */
    assert_int_equal(count_code(&r.lint, RA_LC_UNKNOWN_KEY, -1), 0);
    /* bad value, unknown category */
    f = finding_at(&r.lint, RA_LC_CONTENT_SIGNAL, 6);
    assert_non_null(f);
    assert_int_equal(count_code(&r.lint, RA_LC_CONTENT_SIGNAL, 6), 2);
    assert_true(msg_has(f, "ai-input='maybe'"));
    /* search twice in one group */
    f = finding_at(&r.lint, RA_LC_CONTENT_SIGNAL, 7);
    assert_non_null(f);
    assert_true(msg_has(f, "'search' given twice"));
    /* no signal at all */
    assert_non_null(finding_at(&r.lint, RA_LC_CONTENT_SIGNAL, 8));
    /* the reports' record: lines 2, 6 (search=no), 7 */
    assert_int_equal(r.lint.nprefs, 3);
    assert_int_equal(r.lint.prefs[0].kind, RA_LINT_PREF_SIGNAL);
    assert_int_equal(r.lint.prefs[0].line, 2);
    assert_string_equal(r.lint.prefs[0].agent, "*");
    assert_string_equal(r.lint.prefs[0].text, "search=yes, ai-train=no");
    assert_string_equal(r.lint.prefs[1].agent, "FooBot");
    assert_int_equal(r.lint.summary.errors, 0);
    run_done(&r);

    run_lint(&r, outside, sizeof(outside) - 1, NULL);
    f = finding_at(&r.lint, RA_LC_CONTENT_SIGNAL, 1);
    assert_non_null(f);
    assert_true(msg_has(f, "before any User-agent"));
    assert_int_equal(count_code(&r.lint, RA_LC_OUTSIDE_GROUP, -1), 0);
    run_done(&r);
}

static void
test_content_usage(void **state)
{
    static const char  body[] =
        "User-Agent: *\n"                                       /* 1 */
        "Content-Usage: train-ai=n\n"                           /* 2 */
        "Content-Usage: /blog/ train-ai=y;note=\"x\", search=y\n" /* 3 */
        "Content-Usage: Train-AI=n\n"                           /* 4 */
        "Content-Usage: train-ai=yes, bots=n\n"                 /* 5 */
        "Content-Usage: search=n, search=y\n"                   /* 6 */
        "Content-Usage: /only-a-path\n"                         /* 7 */
        "Allow: /\n";
    static const char  outside[] = "Content-Usage: train-ai=n\n";
    lint_run_t                r;
    const ra_lint_finding_t  *f;

    (void) state;
    run_lint(&r, body, sizeof(body) - 1, NULL);
    f = finding_at(&r.lint, RA_LC_AI_PREFERENCE, 2);
    assert_non_null(f);
    assert_true(msg_has(f, "AI model training not allowed"));
    /* a path, a parameter (ignored), two categories */
    f = finding_at(&r.lint, RA_LC_AI_PREFERENCE, 3);
    assert_non_null(f);
    assert_true(msg_has(f, "on /blog/"));
    assert_true(msg_has(f, "AI model training allowed, search allowed"));
    assert_int_equal(count_code(&r.lint, RA_LC_CONTENT_USAGE, 3), 0);
    /* case-sensitive: the whole line is unknown */
    f = finding_at(&r.lint, RA_LC_CONTENT_USAGE, 4);
    assert_non_null(f);
    assert_true(msg_has(f, "case-sensitive"));
    assert_null(finding_at(&r.lint, RA_LC_AI_PREFERENCE, 4));
    /* y or n only; unknown categories are ignored */
    assert_int_equal(count_code(&r.lint, RA_LC_CONTENT_USAGE, 5), 2);
    assert_null(finding_at(&r.lint, RA_LC_AI_PREFERENCE, 5));
    /* the last of a repeated label wins */
    f = finding_at(&r.lint, RA_LC_CONTENT_USAGE, 6);
    assert_non_null(f);
    assert_true(msg_has(f, "only the last one applies"));
    f = finding_at(&r.lint, RA_LC_AI_PREFERENCE, 6);
    assert_non_null(f);
    assert_true(msg_has(f, "search allowed"));
    assert_false(msg_has(f, "search not allowed"));
    assert_non_null(finding_at(&r.lint, RA_LC_CONTENT_USAGE, 7));
    assert_int_equal(count_code(&r.lint, RA_LC_UNKNOWN_KEY, -1), 0);
    assert_int_equal(r.lint.nprefs, 3);          /* lines 2, 3, 6 */
    assert_int_equal(r.lint.prefs[1].kind, RA_LINT_PREF_USAGE);
    assert_int_equal(r.lint.prefs[1].line, 3);
    run_done(&r);

    run_lint(&r, outside, sizeof(outside) - 1, NULL);
    assert_non_null(finding_at(&r.lint, RA_LC_CONTENT_USAGE, 1));
    assert_int_equal(r.lint.nprefs, 0);
    run_done(&r);
}

/* A Content-Usage value is a Structured Fields dictionary (RFC 9651): a
 * line that does not parse states nothing, however readable; one that
 * parses is read member by member (a ',' inside a string splits none);
 * rules for the same path combine; each vocabulary's words in the other's
 * line are named */
static void
test_content_usage_syntax(void **state)
{
    static const char  body[] =
        "User-Agent: *\n"                                       /* 1 */
        "Content-Usage: train-ai = n\n"                         /* 2 */
        "Content-Usage: /a train-ai=n,\n"                       /* 3 */
        "Content-Usage: /b search=y;\n"                         /* 4 */
        "Content-Usage: /c 9x=n, train-ai=n\n"                  /* 5 */
        "Content-Usage: /d train-ai=n search=y\n"               /* 6 */
        "Content-Usage: /e foo=\"a,b\", train-ai=n\n"           /* 7 */
        "Content-Usage: /f train-ai=?1\n"                       /* 8 */
        "Content-Usage: /g *x=y, train-ai=n;a;b=?0, search=n\n" /* 9 */
        "Content-Usage: /h ai-train=n\n"                        /* 10 */
        "Content-Usage: /k x=%\"a\\b\", train-ai=n\n"            /* 11 */
        "Content-Usage: /l x=%\"caf%c3%a9\", train-ai=n\n"         /* 12 */
        "Disallow: /z\n";
    static const char  again[] =
        "User-Agent: *\n"                                       /* 1 */
        "Content-Usage: /x train-ai=n\n"                        /* 2 */
        "Content-Usage: /x train-ai=y, search=y\n"              /* 3 */
        "Content-Usage: /x search=y\n"                          /* 4 */
        "Content-Usage: train-ai=n\n"                           /* 5 */
        "Content-Usage: search=y\n"                             /* 6 */
        "Disallow: /z\n"                                        /* 7 */
        "Content-Usage: /i train-ai=no\n"                       /* 8 */
        "Content-Usage: /j x=(a b;c \"d\"), search=y\n"         /* 9 */
        "\n"
        "User-agent: b\n"                                       /* 11 */
        "Content-Usage: /x train-ai=y\n"                        /* 12 */
        "Content-Signal: train-ai=no, search=n\n"               /* 13 */
        "Disallow: /z\n";
    /* 11: a display string holds no backslash (RFC 9651 3.3.8) */
    static const unsigned  broken[] = { 2, 3, 4, 5, 6, 11 };
    lint_run_t                r;
    const ra_lint_finding_t  *f;
    size_t                    i;

    (void) state;
    run_lint(&r, body, sizeof(body) - 1, NULL);
    /* does not parse: one warning, nothing stated, nothing kept */
    for (i = 0; i < sizeof(broken) / sizeof(broken[0]); i++) {
        f = finding_at(&r.lint, RA_LC_CONTENT_USAGE, broken[i]);
        assert_non_null(f);
        assert_true(msg_has(f, "does not parse"));
        assert_true(msg_has(f, "every category stays unknown"));
        assert_int_equal(count_code(&r.lint, RA_LC_CONTENT_USAGE,
                                    broken[i]), 1);
        assert_null(finding_at(&r.lint, RA_LC_AI_PREFERENCE, broken[i]));
    }
    assert_true(msg_has(finding_at(&r.lint, RA_LC_CONTENT_USAGE, 2),
                        "space"));
    assert_true(msg_has(finding_at(&r.lint, RA_LC_CONTENT_USAGE, 3),
                        "trailing ','"));
    /* a ',' in a string: one unknown label, training not allowed */
    assert_int_equal(count_code(&r.lint, RA_LC_CONTENT_USAGE, 7), 1);
    assert_true(msg_has(finding_at(&r.lint, RA_LC_CONTENT_USAGE, 7),
                        "'foo'"));
    assert_true(msg_has(finding_at(&r.lint, RA_LC_AI_PREFERENCE, 7),
                        "AI model training not allowed"));
    /* a boolean is no y or n */
    assert_true(msg_has(finding_at(&r.lint, RA_LC_CONTENT_USAGE, 8),
                        "train-ai='?1'"));
    /* labels from '*', parameters of any kind */
    f = finding_at(&r.lint, RA_LC_AI_PREFERENCE, 9);
    assert_non_null(f);
    assert_true(msg_has(f, "AI model training not allowed, search not "
                           "allowed"));
    assert_int_equal(count_code(&r.lint, RA_LC_CONTENT_USAGE, 9), 1);
    assert_true(msg_has(finding_at(&r.lint, RA_LC_CONTENT_USAGE, 9),
                        "'*x'"));
    /* Content-Signal's word in a Content-Usage line */
    f = finding_at(&r.lint, RA_LC_CONTENT_USAGE, 10);
    assert_non_null(f);
    assert_true(msg_has(f, "Content-Signal's name; Content-Usage's is "
                           "train-ai"));
    assert_int_equal(count_code(&r.lint, RA_LC_UNKNOWN_KEY, -1), 0);
    /* a display string, escapes in lower case */
    assert_true(msg_has(finding_at(&r.lint, RA_LC_AI_PREFERENCE, 12),
                        "AI model training not allowed"));
    assert_int_equal(r.lint.nprefs, 3);          /* lines 7, 9, 12 */
    run_done(&r);

    run_lint(&r, again, sizeof(again) - 1, NULL);
    /* a category stated twice for one path of a group: the rules
     * combine, the most restrictive applies; another category, another
     * path or another group's rule is no repeat */
    assert_null(finding_at(&r.lint, RA_LC_CONTENT_USAGE, 2));
    f = finding_at(&r.lint, RA_LC_CONTENT_USAGE, 3);
    assert_non_null(f);
    assert_int_equal(count_code(&r.lint, RA_LC_CONTENT_USAGE, 3), 1);
    assert_true(msg_has(f, "'train-ai' is stated for '/x' on line 2"));
    assert_true(msg_has(f, "most restrictive"));
    assert_true(msg_has(f, "AI model training not allowed"));
    f = finding_at(&r.lint, RA_LC_CONTENT_USAGE, 4);
    assert_non_null(f);
    assert_true(msg_has(f, "'search' is stated for '/x' on line 2"));
    assert_true(msg_has(f, "search allowed"));
    assert_null(finding_at(&r.lint, RA_LC_CONTENT_USAGE, 5));
    assert_null(finding_at(&r.lint, RA_LC_CONTENT_USAGE, 6));
    assert_null(finding_at(&r.lint, RA_LC_CONTENT_USAGE, 12));
    /* y and n, not yes and no */
    assert_true(msg_has(finding_at(&r.lint, RA_LC_CONTENT_USAGE, 8),
                        "yes and no are Content-Signal's"));
    /* an inner list */
    assert_int_equal(count_code(&r.lint, RA_LC_CONTENT_USAGE, 9), 1);
    assert_true(msg_has(finding_at(&r.lint, RA_LC_AI_PREFERENCE, 9),
                        "search allowed"));
    /* Content-Usage's words in a Content-Signal line */
    assert_int_equal(count_code(&r.lint, RA_LC_CONTENT_SIGNAL, 13), 2);
    f = finding_at(&r.lint, RA_LC_CONTENT_SIGNAL, 13);
    assert_true(msg_has(f, "Content-Usage's name; Content-Signal's is "
                           "ai-train"));
    assert_true(msg_has(&r.lint.findings[f - r.lint.findings + 1],
                        "y and n are Content-Usage's"));
    run_done(&r);
}

/* A group written only to state preferences for a crawler has no rule:
 * the crawler follows it and not '*', so every rule of '*' is dropped for
 * it (Content-Signal and Content-Usage lines are no Allow or Disallow);
 * a group with no line at all is left alone (it merges with the next, or
 * allows everything on purpose) */
static void
test_pref_group_drops_star(void **state)
{
    static const char  body[] =
        "User-agent: *\n"                                       /* 1 */
        "Disallow: /private/\n"                                 /* 2 */
        "\n"
        "User-agent: ClaudeBot\n"                               /* 4 */
        "Disallow:\n"                                           /* 5 */
        "Content-Usage: train-ai=n\n"                           /* 6 */
        "\n"
        "User-agent: BarBot\n"                                  /* 8 */
        "Disallow: /private/\n"                                 /* 9 */
        "Content-Usage: train-ai=n\n"                           /* 10 */
        "\n"
        "User-agent: GPTBot\n"                                  /* 12 */
        "Content-Signal: ai-train=no\n";                        /* 13 */
    lint_run_t                r;
    const ra_lint_finding_t  *f;

    (void) state;
    run_lint(&r, body, sizeof(body) - 1, NULL);
    f = finding_at(&r.lint, RA_LC_GROUP_REPLACES_STAR, 12);
    assert_non_null(f);
    assert_true(msg_has(f, "'Disallow: /private/' (line 2)"));
    assert_true(msg_has(f, "no Allow or Disallow"));
    /* "Disallow:" allows everything in so many words: meant; BarBot's
     * group repeats the rule */
    assert_int_equal(count_code(&r.lint, RA_LC_GROUP_REPLACES_STAR, -1), 1);
    run_done(&r);
}

static void
test_policy_tokens(void **state)
{
    static const char  body[] =
        "User-agent: Googlebot\n"                   /* 1 */
        "User-agent: Google-Extended\n"             /* 2 */
        "Disallow: /\n"
        "\n"
        "User-agent: applebot-extended\n"           /* 5 */
        "Disallow: /private/\n";
    ra_test_arena_t    *ar = ra_test_arena_new();
    ra_crawlers_t      *t = ra_crawlers_create(ra_test_arena_alloc(ar));
    ra_crawlers_err_t   err;
    ra_lint_http_t      h;
    lint_run_t          r;
    const ra_lint_finding_t  *f;

    (void) state;
    assert_int_equal(ra_crawlers_add_builtin(t, &err), RA_OK);
    assert_int_equal(ra_crawlers_compile(t, &err), RA_OK);
    memset(&h, 0, sizeof(h));
    h.crawlers = t;
    run_lint(&r, body, sizeof(body) - 1, &h);
    assert_null(finding_at(&r.lint, RA_LC_POLICY_TOKEN, 1));
    f = finding_at(&r.lint, RA_LC_POLICY_TOKEN, 2);
    assert_non_null(f);
    assert_true(msg_has(f, "controls use of content for training Gemini"));
    assert_true(msg_has(f, "no crawler fetches with this name"));
    f = finding_at(&r.lint, RA_LC_POLICY_TOKEN, 5);
    assert_non_null(f);
    assert_true(msg_has(f, "of Apple"));
    assert_int_equal(r.lint.nprefs, 2);
    assert_int_equal(r.lint.prefs[0].kind, RA_LINT_PREF_POLICY);
    assert_string_equal(r.lint.prefs[0].agent, "Google-Extended");
    assert_string_equal(r.lint.prefs[1].agent, "Applebot-Extended");
    run_done(&r);

    /* a policy token fetches nothing: its group drops no rule of '*' for
     * a crawler (GPTBot's does) */
    {
        static const char  star[] =
            "User-agent: *\nDisallow: /private/\n\n"
            "User-agent: Google-Extended\nDisallow: /x\n\n"
            "User-agent: GPTBot\nDisallow: /x\n";

        run_lint(&r, star, sizeof(star) - 1, &h);
        assert_int_equal(count_code(&r.lint, RA_LC_GROUP_REPLACES_STAR, 4),
                         0);
        assert_int_equal(count_code(&r.lint, RA_LC_GROUP_REPLACES_STAR, 7),
                         1);
        assert_int_equal(count_code(&r.lint, RA_LC_POLICY_TOKEN, 4), 1);
        run_done(&r);
    }

    /* no table: no such finding */
    run_lint(&r, body, sizeof(body) - 1, NULL);
    assert_int_equal(count_code(&r.lint, RA_LC_POLICY_TOKEN, -1), 0);
    run_done(&r);
    ra_test_arena_free(ar);
}

/* more lines than the record holds: counted, not kept */
static void
test_prefs_bounded(void **state)
{
    char        body[4096];
    size_t      n = 0;
    unsigned    i;
    lint_run_t  r;

    (void) state;
    n += (size_t) snprintf(body + n, sizeof(body) - n, "User-agent: *\n");
    for (i = 0; i < RA_LINT_MAX_PREFS + 5; i++) {
        n += (size_t) snprintf(body + n, sizeof(body) - n,
                               "Content-Usage: /p%u train-ai=n\n", i);
    }
    /* a value longer than the record: cut, printable */
    n += (size_t) snprintf(body + n, sizeof(body) - n,
                           "Content-Usage: /%0300d\x01 search=n\n", 0);
    run_lint(&r, body, n, NULL);
    assert_int_equal(r.lint.nprefs, RA_LINT_MAX_PREFS);
    assert_int_equal(r.lint.more_prefs, 6);
    for (i = 0; i < r.lint.nprefs; i++) {
        assert_true(strlen(r.lint.prefs[i].text) < RA_LINT_PREF_TEXT);
    }
    run_done(&r);
}

int
main(void)
{
    size_t  i, n = sizeof(cases) / sizeof(cases[0]);
    int     rc;
    struct CMUnitTest  *t;
    static const struct CMUnitTest  fixed[] = {
        cmocka_unit_test(test_clean_files),
        cmocka_unit_test(test_size_limit),
        cmocka_unit_test(test_bounded_findings),
        cmocka_unit_test(test_shadow_budget),
        cmocka_unit_test(test_hostile_quotes),
        cmocka_unit_test(test_not_linted_status),
        cmocka_unit_test(test_codes_api),
        cmocka_unit_test(test_group_replaces_star),
        cmocka_unit_test(test_binary),
        cmocka_unit_test(test_syntax_errors_say_strict_crawlers_drop_file),
        cmocka_unit_test(test_malloc_allocator),
        cmocka_unit_test(test_enomem),
        cmocka_unit_test(test_stress_files),
        cmocka_unit_test(test_stress_details),
        cmocka_unit_test(test_content_signal),
        cmocka_unit_test(test_content_usage),
        cmocka_unit_test(test_content_usage_syntax),
        cmocka_unit_test(test_pref_group_drops_star),
        cmocka_unit_test(test_policy_tokens),
        cmocka_unit_test(test_prefs_bounded),
    };
    size_t  nfixed = sizeof(fixed) / sizeof(fixed[0]);

    t = calloc(n + nfixed, sizeof(*t));
    if (t == NULL) {
        return 1;
    }
    for (i = 0; i < n; i++) {
        t[i].name = cases[i].name;
        t[i].test_func = test_case;
        t[i].initial_state = (void *) &cases[i];
    }
    memcpy(t + n, fixed, sizeof(fixed));
    rc = _cmocka_run_group_tests("lint", t, n + nfixed, NULL, NULL);
    free(t);
    return rc;
}
