/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The tokenizer, rule by rule (docs/robots-txt.md, sections A, B and E).
 * Names:
 * rfc9309_* for the RFC's rules, google_* for the reference library's
 * leniencies, ra_* for our own additions.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ra_test.h"
#include "ra_parse.h"

#define MAX_LINES  64

typedef struct {
    ra_line_t        lines[MAX_LINES];
    char             values[MAX_LINES][64];
    char             keys[MAX_LINES][32];
    size_t           n;
    ra_line_t        last;
    ra_parse_info_t  info;
} events_t;

static int
collect(void *ctx, const ra_line_t *ln)
{
    events_t  *ev = ctx;
    size_t     n;

    ev->last = *ln;
    if (ev->n < MAX_LINES) {
        ev->lines[ev->n] = *ln;
        n = ln->value.len < 63 ? ln->value.len : 63;
        if (n) {
            memcpy(ev->values[ev->n], ln->value.data, n);
        }
        ev->values[ev->n][n] = '\0';
        n = ln->key_text.len < 31 ? ln->key_text.len : 31;
        if (n) {
            memcpy(ev->keys[ev->n], ln->key_text.data, n);
        }
        ev->keys[ev->n][n] = '\0';
    }
    ev->n++;
    return RA_OK;
}

static events_t *
parse_bytes(const void *body, size_t len)
{
    static events_t  ev;
    ra_str_t         s = ra_test_exact(body, len);

    memset(&ev, 0, sizeof(ev));
    assert_int_equal(ra_parse(s, collect, &ev, &ev.info), RA_OK);
    ra_test_exact_free(s);
    return &ev;
}

#define parse(lit)  parse_bytes(lit, sizeof(lit) - 1)

/* B.11: key, colon, value; blanks around each; keys case-insensitive */
static void
rfc9309_line_form_key_colon_value(void **state)
{
    events_t  *ev;

    (void) state;
    ev = parse(" \tDISALLOW \t: \t/a b \t\nUser-Agent:x\n");
    assert_int_equal(ev->lines[0].kind, RA_LINE_DIRECTIVE);
    assert_int_equal(ev->lines[0].key, RA_KEY_DISALLOW);
    assert_string_equal(ev->values[0], "/a b");
    assert_string_equal(ev->keys[0], "DISALLOW");
    assert_int_equal(ev->lines[1].key, RA_KEY_USER_AGENT);
    assert_string_equal(ev->values[1], "x");
    assert_int_equal(ev->lines[0].flags & (RA_LF_TYPO | RA_LF_NO_COLON), 0);
}

/* B.12: CR, LF and CRLF all end a line; mixed files count lines right */
static void
rfc9309_line_ends_cr_lf_crlf(void **state)
{
    events_t  *ev;

    (void) state;
    ev = parse("a: 1\nb: 2\r\nc: 3\rd: 4\n\re: 5\r\r\nf: 6");
    /* a, b, c, d, (empty from LF CR), e, (empty from CR CRLF), f */
    assert_int_equal(ev->n, 8);
    assert_string_equal(ev->values[0], "1");
    assert_string_equal(ev->values[1], "2");
    assert_string_equal(ev->values[2], "3");
    assert_string_equal(ev->values[3], "4");
    assert_int_equal(ev->lines[4].kind, RA_LINE_EMPTY);
    assert_int_equal(ev->lines[5].line, 6);
    assert_string_equal(ev->values[5], "5");
    assert_int_equal(ev->lines[6].kind, RA_LINE_EMPTY);
    assert_int_equal(ev->lines[7].line, 8);
    assert_string_equal(ev->values[7], "6");
}

/* A final line end yields one empty last line, as the library counts */
static void
google_line_count_after_final_newline(void **state)
{
    events_t  *ev;

    (void) state;
    ev = parse("a: 1\r\n");
    assert_int_equal(ev->n, 2);
    assert_int_equal(ev->info.lines, 2);
    assert_int_equal(ev->lines[1].kind, RA_LINE_EMPTY);
    ev = parse("");
    assert_int_equal(ev->n, 1);
    assert_int_equal(ev->lines[0].kind, RA_LINE_EMPTY);
}

/* B.13: '#' starts a comment anywhere; "Disallow: /a#b" means /a */
static void
rfc9309_comments(void **state)
{
    events_t  *ev;

    (void) state;
    ev = parse("# whole line\nDisallow: /a#b\n   # indented\nAllow: /x # c\n#");
    assert_int_equal(ev->lines[0].kind, RA_LINE_COMMENT);
    assert_string_equal(ev->values[1], "/a");
    assert_true(ev->lines[1].flags & RA_LF_COMMENT);
    assert_int_equal(ev->lines[2].kind, RA_LINE_COMMENT);
    assert_string_equal(ev->values[3], "/x");
    assert_int_equal(ev->lines[4].kind, RA_LINE_COMMENT);
}

/* B.17: an empty value is still a directive */
static void
rfc9309_empty_value(void **state)
{
    events_t  *ev;

    (void) state;
    ev = parse("Disallow:\nDisallow:   \n");
    assert_int_equal(ev->lines[0].kind, RA_LINE_DIRECTIVE);
    assert_int_equal(ev->lines[0].value.len, 0);
    assert_int_equal(ev->lines[1].value.len, 0);
}

/* B.19: a full or partial UTF-8 BOM at the start is skipped */
static void
google_bom_full_and_partial_skipped(void **state)
{
    events_t  *ev;

    (void) state;
    ev = parse("\xef\xbb\xbfuser-agent: a\n");
    assert_int_equal(ev->lines[0].key, RA_KEY_USER_AGENT);
    assert_true(ev->lines[0].flags & RA_LF_BOM);
    assert_int_equal(ev->info.bom, 1);

    ev = parse("\xef\xbbuser-agent: a\n");
    assert_int_equal(ev->lines[0].key, RA_KEY_USER_AGENT);
    assert_true(ev->lines[0].flags & RA_LF_PARTIAL_BOM);
    assert_int_equal(ev->info.bom, 2);

    ev = parse("\xefuser-agent: a\n");
    assert_int_equal(ev->lines[0].key, RA_KEY_USER_AGENT);

    ev = parse("\xbb\xbfuser-agent: a\n");
    assert_int_equal(ev->lines[0].key, RA_KEY_UNKNOWN);
}

/* B.19: a broken BOM garbles line 1; a BOM later spoils only its line */
static void
google_bom_broken_or_late(void **state)
{
    events_t  *ev;

    (void) state;
    ev = parse("\xef\x11\xbfuser-agent: a\ndisallow: /\n");
    assert_int_equal(ev->lines[0].key, RA_KEY_UNKNOWN);
    assert_int_equal(ev->lines[1].key, RA_KEY_DISALLOW);

    ev = parse("user-agent: a\n\xef\xbb\xbf" "disallow: /\nallow: /x\n");
    assert_int_equal(ev->lines[1].key, RA_KEY_UNKNOWN);
    assert_int_equal(ev->lines[2].key, RA_KEY_ALLOW);
}

/* E.36: two blank-separated tokens stand for "key: value"; three do not */
static void
google_missing_colon_two_tokens_only(void **state)
{
    events_t  *ev;

    (void) state;
    ev = parse("disallow /x\ndisallow /x y\nuser-agent\tFoo\nkeyonly\n");
    assert_int_equal(ev->lines[0].kind, RA_LINE_DIRECTIVE);
    assert_true(ev->lines[0].flags & RA_LF_NO_COLON);
    assert_string_equal(ev->values[0], "/x");
    assert_int_equal(ev->lines[1].kind, RA_LINE_INVALID);
    assert_true(ev->lines[1].flags & RA_LF_MANY_TOKENS);
    assert_int_equal(ev->lines[2].key, RA_KEY_USER_AGENT);
    assert_string_equal(ev->values[2], "Foo");
    assert_int_equal(ev->lines[3].kind, RA_LINE_INVALID);
}

/* ": value" has no key */
static void
ra_colon_without_key_is_invalid(void **state)
{
    events_t  *ev;

    (void) state;
    ev = parse("  : /x\n");
    assert_int_equal(ev->lines[0].kind, RA_LINE_INVALID);
    assert_true(ev->lines[0].flags & RA_LF_NO_KEY);
}

/* E.37: Google's accepted misspellings; none for allow */
static void
google_accepted_misspellings(void **state)
{
    static const struct { const char *line; ra_key_e key; } cases[] = {
        { "useragent: a", RA_KEY_USER_AGENT },
        { "user agent: a", RA_KEY_USER_AGENT },
        { "dissallow: /", RA_KEY_DISALLOW },
        { "dissalow: /", RA_KEY_DISALLOW },
        { "disalow: /", RA_KEY_DISALLOW },
        { "diasllow: /", RA_KEY_DISALLOW },
        { "disallaw: /", RA_KEY_DISALLOW },
        { "site-map: http://x/s.xml", RA_KEY_SITEMAP },
    };
    events_t  *ev;
    size_t     i;

    (void) state;
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        ev = parse_bytes(cases[i].line, strlen(cases[i].line));
        assert_int_equal(ev->lines[0].key, cases[i].key);
        assert_true(ev->lines[0].flags & RA_LF_TYPO);
    }
    ev = parse("alow: /x\n");
    assert_int_equal(ev->lines[0].key, RA_KEY_UNKNOWN);
}

/* E.38: keys match by prefix */
static void
google_keys_match_by_prefix(void **state)
{
    events_t  *ev;

    (void) state;
    ev = parse("Disallowed: /a\nAllowance: /b\nUser-agents: c\nSitemaps: d\n");
    assert_int_equal(ev->lines[0].key, RA_KEY_DISALLOW);
    assert_int_equal(ev->lines[1].key, RA_KEY_ALLOW);
    assert_int_equal(ev->lines[2].key, RA_KEY_USER_AGENT);
    assert_int_equal(ev->lines[3].key, RA_KEY_SITEMAP);
    assert_true(ev->lines[0].flags & RA_LF_KEY_PREFIX);
    assert_false(ev->lines[0].flags & RA_LF_TYPO);
}

/* E.40: only the first 16,663 bytes of a line are kept */
static void
google_line_cut_at_16663_bytes(void **state)
{
    size_t     len = 20000, i;
    char      *b = malloc(len);
    events_t  *ev;

    (void) state;
    memcpy(b, "Disallow: /", 11);
    for (i = 11; i < len; i++) {
        b[i] = 'a';
    }
    ev = parse_bytes(b, len);
    assert_true(ev->lines[0].flags & RA_LF_TOO_LONG);
    assert_int_equal(ev->lines[0].value.len, RA_MAX_LINE_LEN - 10);
    assert_int_equal(ev->lines[0].raw.len, len);

    ev = parse_bytes(b, RA_MAX_LINE_LEN);
    assert_false(ev->lines[0].flags & RA_LF_TOO_LONG);
    free(b);
}

/* E.41: a NUL ends the line's text */
static void
google_nul_ends_line(void **state)
{
    events_t  *ev;

    (void) state;
    ev = parse("Disallow: /a\0b\nAll\0ow: /c\n\0\0\n");
    assert_string_equal(ev->values[0], "/a");
    assert_true(ev->lines[0].flags & RA_LF_NUL);
    assert_int_equal(ev->lines[1].kind, RA_LINE_INVALID);
    assert_int_equal(ev->lines[2].kind, RA_LINE_EMPTY);
}

/* A.10: nothing past 512,000 bytes is read; the cut line is flagged */
static void
rfc9309_parse_limit_500kib(void **state)
{
    size_t     len = RA_ROBOTS_MAX + 100, i;
    char      *b = malloc(len);
    events_t  *ev;

    (void) state;
    for (i = 0; i < len; i++) {
        b[i] = (i % 50 == 49) ? '\n' : 'x';
    }
    memcpy(b + RA_ROBOTS_MAX - 5, "ab: c", 5);
    ev = parse_bytes(b, len);
    assert_true(ev->info.truncated);
    assert_int_equal(ev->info.parsed, RA_ROBOTS_MAX);
    assert_int_equal(ev->info.bytes, len);
    assert_int_equal(ev->n, 10240);  /* the 10240th ends at the cut */
    assert_true(ev->last.flags & RA_LF_SIZE_CUT);
    assert_int_equal(ev->last.kind, RA_LINE_DIRECTIVE);
    assert_int_equal(ev->last.value.len, 1);        /* "c": cut there */
    assert_false(ev->lines[0].flags & RA_LF_SIZE_CUT);
    free(b);
}

/* B.12/B.14: 100,000 CRLF lines inside a group: counted, group kept */
static void
google_many_crlf_lines_counted(void **state)
{
    size_t     n = 100000, len = 0, i;
    char      *b = malloc(2 * n + 64);
    events_t  *ev;

    (void) state;
    len += (size_t) sprintf(b, "user-agent: a\r\n");
    for (i = 0; i < n; i++) {
        b[len++] = '\r';
        b[len++] = '\n';
    }
    len += (size_t) sprintf(b + len, "disallow: /late");
    ev = parse_bytes(b, len);
    assert_int_equal(ev->last.line, n + 2);
    assert_int_equal(ev->last.key, RA_KEY_DISALLOW);
    free(b);
}

/* Product token extraction (C.20, C.26) */
static void
google_ua_token_and_global(void **state)
{
    (void) state;
    assert_true(ra_ua_is_global((ra_str_t) ra_string("*")));
    assert_true(ra_ua_is_global((ra_str_t) ra_string("* foo")));
    assert_false(ra_ua_is_global((ra_str_t) ra_string("*bot")));
    assert_int_equal(ra_ua_token((ra_str_t) ra_string("FooBot/1.2")).len, 6);
    assert_int_equal(ra_ua_token((ra_str_t) ra_string("MJ12bot")).len, 2);
    assert_int_equal(ra_ua_token((ra_str_t) ra_string("Foo Bar")).len, 3);
    assert_int_equal(ra_ua_token((ra_str_t) ra_string("Foo_B-ar")).len, 8);
    assert_int_equal(ra_ua_token((ra_str_t) ra_string("*bot")).len, 0);
}

/* Every span points inside the line; the handler can stop the parse */
static int
stop_at_two(void *ctx, const ra_line_t *ln)
{
    (void) ctx;
    assert_true(ln->value.len == 0
                || (ln->value.data >= ln->raw.data
                    && ln->value.data + ln->value.len
                       <= ln->raw.data + ln->raw.len));
    return ln->line == 2 ? RA_ELIMIT : RA_OK;
}

static void
ra_handler_stops_parse(void **state)
{
    ra_str_t  s = RA_TEST_STR("a: 1\nb: 2\nc: 3\n");

    (void) state;
    assert_int_equal(ra_parse(s, stop_at_two, NULL, NULL), RA_ELIMIT);
    ra_test_exact_free(s);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rfc9309_line_form_key_colon_value),
        cmocka_unit_test(rfc9309_line_ends_cr_lf_crlf),
        cmocka_unit_test(google_line_count_after_final_newline),
        cmocka_unit_test(rfc9309_comments),
        cmocka_unit_test(rfc9309_empty_value),
        cmocka_unit_test(google_bom_full_and_partial_skipped),
        cmocka_unit_test(google_bom_broken_or_late),
        cmocka_unit_test(google_missing_colon_two_tokens_only),
        cmocka_unit_test(ra_colon_without_key_is_invalid),
        cmocka_unit_test(google_accepted_misspellings),
        cmocka_unit_test(google_keys_match_by_prefix),
        cmocka_unit_test(google_line_cut_at_16663_bytes),
        cmocka_unit_test(google_nul_ends_line),
        cmocka_unit_test(rfc9309_parse_limit_500kib),
        cmocka_unit_test(google_many_crlf_lines_counted),
        cmocka_unit_test(google_ua_token_and_global),
        cmocka_unit_test(ra_handler_stops_parse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
