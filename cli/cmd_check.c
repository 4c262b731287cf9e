/* SPDX-License-Identifier: BSD-2-Clause */
/* robots-audit check: judge URLs against a robots.txt for one crawler. */
#define _GNU_SOURCE             /* F_SETPIPE_SZ */

#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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
    "  --mode rfc     RFC 9309: URL and rules %-normalised, /robots.txt\n"
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

/* bytes of a URL scheme after its first letter: ALPHA DIGIT + - . */
static const unsigned char  ra_check_scheme[256] = {
    ['+'] = 1, ['-'] = 1, ['.'] = 1,
    ['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1,
    ['6'] = 1, ['7'] = 1, ['8'] = 1, ['9'] = 1,
    ['A'] = 1, ['B'] = 1, ['C'] = 1, ['D'] = 1, ['E'] = 1, ['F'] = 1,
    ['G'] = 1, ['H'] = 1, ['I'] = 1, ['J'] = 1, ['K'] = 1, ['L'] = 1,
    ['M'] = 1, ['N'] = 1, ['O'] = 1, ['P'] = 1, ['Q'] = 1, ['R'] = 1,
    ['S'] = 1, ['T'] = 1, ['U'] = 1, ['V'] = 1, ['W'] = 1, ['X'] = 1,
    ['Y'] = 1, ['Z'] = 1,
    ['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1, ['e'] = 1, ['f'] = 1,
    ['g'] = 1, ['h'] = 1, ['i'] = 1, ['j'] = 1, ['k'] = 1, ['l'] = 1,
    ['m'] = 1, ['n'] = 1, ['o'] = 1, ['p'] = 1, ['q'] = 1, ['r'] = 1,
    ['s'] = 1, ['t'] = 1, ['u'] = 1, ['v'] = 1, ['w'] = 1, ['x'] = 1,
    ['y'] = 1, ['z'] = 1
};

/* Absolute URLs and absolute paths only: "example.com/x" is ambiguous. */
static int
ra_check_url_ok(const unsigned char *u, size_t n)
{
    size_t  i;

    if (n && u[0] == '/') {
        return 1;
    }
    if (n == 0 || !ra_isalpha(u[0])) {
        return 0;
    }
    for (i = 1; i < n && ra_check_scheme[u[i]]; i++) { /* void */ }
    return n - i >= 3 && u[i] == ':' && u[i + 1] == '/' && u[i + 2] == '/';
}

typedef struct {
    ra_str_t   tokens[8];
    size_t     n;
    int        ignores_star;
} ra_check_agent_t;

/*
 * What `check` prints after a URL depends only on how the verdict came
 * (the deciding rule's line, or why none decided): the tail of a line is
 * rendered once per key and then copied.  A small direct-mapped cache.
 */
#define RA_CHECK_TAILS  256

typedef struct {
    uint32_t        key;            /* 0: empty */
    ra_buf_t        text;
} ra_check_tail_t;

/* Bytes of a URL's scheme and authority ("https://host") kept to cut the
 * next URLs' paths by (ra_check_path()) */
#define RA_CHECK_PREFIX  128

/* The state of one run: the group chosen once, one buffered writer. */
typedef struct {
    const ra_rules_t  *rules;
    ra_mode_e          mode;
    ra_rules_group_t   group;
    int                ignores_star;
    ra_buf_t           out;
    size_t             npre;
    unsigned char      pre[RA_CHECK_PREFIX];
    ra_check_tail_t    tails[RA_CHECK_TAILS];
} ra_check_run_t;

/* Output leaves in blocks of this size: one write() per block. */
#define RA_CHECK_FLUSH  (256 * 1024)
#define RA_CHECK_PIPE   (1024 * 1024)

static void
ra_check_tail(ra_buf_t *out, const ra_match_t *m)
{
    size_t  i;

    ra_buf_ch(out, '\t');
    ra_buf_u64(out, m->line);
    ra_buf_ch(out, '\t');
    if (m->why == RA_WHY_RULE && m->line) {
        ra_buf_cstr(out, m->type == RA_RULE_ALLOW ? "allow: " : "disallow: ");
        ra_buf_log(out, m->pattern);
    } else {
        ra_buf_ch(out, '-');
    }
    /* the group that decided, as Google's parser compares tokens */
    ra_buf_cstr(out, "\tgroup=");
    if (m->group.len == 0) {
        ra_buf_ch(out, '-');
    }
    i = out->len;
    ra_buf_log(out, m->group);
    for ( /* void */ ; i < out->len; i++) {
        out->data[i] = (unsigned char) ra_lower(out->data[i]);
    }
    ra_buf_cstr(out, " line=");
    ra_buf_u64(out, m->group_line);
    ra_buf_ch(out, '\n');
}

/* bytes that end an absolute URL's authority: where its path starts */
static const unsigned char  ra_check_pathstart[256] = {
    ['/'] = 1, ['?'] = 1, [';'] = 1
};

/*
 * The path of URL u[0..n), as ra_url_path() cuts it, or a span with a
 * NULL data when u is not a URL (ra_check_url_ok()).  The URLs of one
 * list mostly share their scheme and host: the last absolute URL's
 * "scheme://authority" is kept, and a URL that begins with the same bytes
 * followed by '/', '?' or ';' has its path there (ra_url_path() finds the
 * "://" and then the first of those bytes at the same places), without
 * reading its first bytes again.  clean: u holds no '#', so no fragment
 * is to be cut.
 */
static ra_str_t
ra_check_path(ra_check_run_t *run, const unsigned char *u, size_t n,
    int clean)
{
    size_t                np = run->npre, at;
    ra_str_t              path;
    const unsigned char  *hash;

    if (np && n > np && ra_check_pathstart[u[np]]
        && memcmp(u, run->pre, np) == 0)
    {
        hash = clean ? NULL : memchr(u + np, '#', n - np);
        return ra_str(u + np, hash ? (size_t) (hash - u) - np : n - np);
    }
    if (!ra_check_url_ok(u, n)) {
        return ra_str(NULL, 0);
    }
    path = ra_url_path(ra_str(u, n));
    /* an absolute URL whose path starts at one of those bytes (not the
     * "/" of a URL without one, nor after a fragment cut short) */
    if (u[0] != '/' && path.data > u && path.data < u + n) {
        at = (size_t) (path.data - u);
        if (at <= RA_CHECK_PREFIX && ra_check_pathstart[u[at]]) {
            memcpy(run->pre, u, at);
            run->npre = at;
        }
    }
    return path;
}

/*
 * Judges one URL (path: its path, ra_check_path()) and appends its line
 * to the run's output; returns whether it is allowed.  clean: the URL
 * holds no byte that a log line escapes (ra_check_line()), and is copied
 * as it is.
 */
static int
ra_check_one(ra_check_run_t *run, const unsigned char *url, size_t len,
    ra_str_t path, int clean)
{
    uint32_t          key;
    size_t            need;
    ra_match_t        m;
    ra_check_tail_t  *t;
    unsigned char    *d;

    (void) ra_rules_match_group(run->rules, run->mode, &run->group, path,
                                &ra_malloc_allocator, &m);
    if (run->ignores_star && m.group.len == 1 && m.group.data[0] == '*') {
        m.allowed = 1;              /* e.g. AdsBot-Google: "*" is not for it */
        m.why = RA_WHY_NO_GROUP;
        m.line = 0;
        m.group.len = 0;
        m.group_line = 0;
    }

    /* the tail is a function of the key: the rule's line, or why none */
    key = m.why == RA_WHY_RULE && m.line ? m.line + 8 : (uint32_t) m.why + 1;
    t = &run->tails[key % RA_CHECK_TAILS];
    if (t->key != key) {
        t->key = key;
        t->text.len = 0;
        ra_check_tail(&t->text, &m);
        if (t->text.failed) {
            run->out.failed = 1;        /* reported at the next flush */
            t->key = 0;
        }
    }

    if (!clean) {
        ra_buf_add(&run->out, m.allowed ? "allowed\t" : "disallowed\t",
                   m.allowed ? 8 : 11);
        ra_buf_log(&run->out, ra_str(url, len));
        ra_buf_add(&run->out, t->text.data, t->text.len);
        return m.allowed;
    }
    /* the whole line at once: the verdict, the URL as it is, the tail */
    need = 11 + len + t->text.len;
    if (run->out.cap - run->out.len < need
        && !ra_buf_reserve(&run->out, need))
    {
        return m.allowed;
    }
    d = run->out.data + run->out.len;
    if (m.allowed) {
        memcpy(d, "allowed\t", 8);
        d += 8;
    } else {
        memcpy(d, "disallowed\t", 11);
        d += 11;
    }
    memcpy(d, url, len);
    d += len;
    memcpy(d, t->text.data, t->text.len);
    run->out.len = (size_t) (d + t->text.len - run->out.data);
    return m.allowed;
}

/* Writes what the run holds when it is big enough, or at the end. */
static int
ra_check_flush(ra_check_run_t *run, int all)
{
    if (!all && run->out.len < RA_CHECK_FLUSH && !run->out.failed) {
        return 0;
    }
    if (ra_cli_write("check", stdout, &run->out) != 0) {
        return -1;
    }
    run->out.len = 0;
    return 0;
}

static void
ra_check_bad_url(const unsigned char *line, size_t n)
{
    ra_buf_t  b;

    ra_buf_init(&b, &ra_malloc_allocator, 256, 0);
    ra_buf_log(&b, ra_str(line, n > 200 ? 200 : n));
    ra_cli_error("check", "'%.*s' is not a URL: give https://host/path or a"
                 " path starting with '/'", (int) b.len, (char *) b.data);
    ra_buf_release(&b);
}

/* Bytes a URL's line is checked for: C0 (the '\n' that ends it among
 * them, and '\r', NUL), DEL and above, '"' and '\\' (which a log line
 * escapes) and '#' (a fragment to cut). */
static inline int
ra_check_care(unsigned c)
{
    return c < 0x20 || c >= 0x7f || c == '"' || c == '#' || c == '\\';
}

/*
 * The length of the line that starts at p (up to its '\n', or n when
 * none comes), and in *clean whether it holds none of ra_check_care()'s
 * bytes: then it needs no escaping, has no fragment, no NUL and no '\r'.
 * One pass finds both, 16 bytes a step where the machine has SSE2 (every
 * x86-64 has): c + 1 below 0x21 as a signed byte is C0 or DEL and above.
 */
static size_t
ra_check_line(const unsigned char *p, size_t n, int *clean)
{
    size_t                i = 0;
    const unsigned char  *nl;
#if defined(__SSE2__)
    unsigned              care, end;
    __m128i               v, c;

    for ( /* void */ ; i + 16 <= n; i += 16) {
        v = _mm_loadu_si128((const __m128i *) (const void *) (p + i));
        c = _mm_cmplt_epi8(_mm_add_epi8(v, _mm_set1_epi8(0x01)),
                           _mm_set1_epi8(0x21));
        c = _mm_or_si128(c, _mm_cmpeq_epi8(v, _mm_set1_epi8('"')));
        c = _mm_or_si128(c, _mm_cmpeq_epi8(v, _mm_set1_epi8('#')));
        c = _mm_or_si128(c, _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
        care = (unsigned) _mm_movemask_epi8(c);
        if (care == 0) {
            continue;
        }
        end = (unsigned) _mm_movemask_epi8(
                  _mm_cmpeq_epi8(v, _mm_set1_epi8('\n')));
        if ((care & -care) == (end & -end)) {
            /* the first byte to care about ends the line */
            *clean = 1;
            return i + (size_t) __builtin_ctz(end);
        }
        break;
    }
#endif
    for ( /* void */ ; i < n && !ra_check_care(p[i]); i++) { /* void */ }
    if (i < n && p[i] == '\n') {
        *clean = 1;
        return i;
    }
    *clean = 0;
    nl = i < n ? memchr(p + i, '\n', n - i) : NULL;
    return nl ? (size_t) (nl - p) : n;
}

/*
 * URLs one a line from stdin, read in large blocks and judged where they
 * lie (no copy): a line that does not fit grows the block.  Returns 0, or
 * -1 after a message (a bad URL, a read or write error, no memory).
 */
static int
ra_check_stdin(ra_check_run_t *run, int *allowed_all)
{
    size_t          cap = 256 * 1024, have = 0, start, n, len;
    unsigned char  *buf, *line, *grown;
    int             eof = 0, clean;
    ra_str_t        path;

    buf = malloc(cap);
    if (buf == NULL) {
        return ra_cli_error("check", "out of memory"), -1;
    }
    while (!eof || have) {
        if (!eof) {
            n = fread(buf + have, 1, cap - have, stdin);
            have += n;
            if (n == 0) {
                if (ferror(stdin)) {
                    free(buf);
                    return ra_cli_error("check", "reading stdin failed"), -1;
                }
                eof = 1;
            }
        }
        /* every whole line; at the end, the last one too */
        for (start = 0; start < have; start += len + 1) {
            line = buf + start;
            len = ra_check_line(line, have - start, &clean);
            if (start + len == have && !eof) {
                break;                  /* no '\n' yet */
            }
            n = len;
            while (n > 0 && line[n - 1] == '\r') {
                n--;
            }
            if (n == 0) {
                continue;
            }
            path = clean || memchr(line, '\0', n) == NULL
                   ? ra_check_path(run, line, n, clean) : ra_str(NULL, 0);
            if (path.data == NULL) {
                ra_check_bad_url(line, n);
                free(buf);
                return -1;
            }
            *allowed_all &= ra_check_one(run, line, n, path, clean);
            if (ra_check_flush(run, 0) != 0) {
                free(buf);
                return -1;
            }
        }
        if (start >= have) {
            have = 0;
            continue;
        }
        /* a partial line: to the front, and room for more of it */
        memmove(buf, buf + start, have - start);
        have -= start;
        if (have == cap) {
            grown = realloc(buf, cap * 2);
            if (grown == NULL) {
                free(buf);
                return ra_cli_error("check", "out of memory"), -1;
            }
            buf = grown;
            cap *= 2;
        }
    }
    free(buf);
    return 0;
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
    size_t             n;
    ra_str_t           body;
    ra_check_run_t    *run;
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
        if (!ra_check_url_ok((unsigned char *) argv[i], strlen(argv[i]))) {
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

    run = calloc(1, sizeof(*run));
    if (run == NULL) {
        ra_rules_free(rules);
        return ra_cli_error("check", "out of memory");
    }
    run->rules = rules;
    run->mode = mode;
    run->ignores_star = ag.ignores_star;
    ra_rules_group(rules, ag.tokens, ag.n, &run->group);
    ra_buf_init(&run->out, &ra_malloc_allocator, RA_CHECK_FLUSH + 4096, 0);
    for (i = 0; i < RA_CHECK_TAILS; i++) {
        ra_buf_init(&run->tails[i].text, &ra_malloc_allocator, 64, 0);
    }
    allowed_all = 1;
    bad = 0;

    if (argc > first) {
        for (i = first; i < argc && !bad; i++) {
            n = strlen(argv[i]);
            allowed_all &= ra_check_one(run, (unsigned char *) argv[i], n,
                                        ra_check_path(run,
                                            (unsigned char *) argv[i], n, 0),
                                        0);
            bad = ra_check_flush(run, 0) != 0;
        }
    } else {
#if defined(F_SETPIPE_SZ)
        /* output read through a pipe: a pipe of RA_CHECK_PIPE bytes (where
         * the system allows it; nothing changes where it does not) takes
         * whole blocks, and neither side wakes the other at every 64 KiB */
        (void) fcntl(STDOUT_FILENO, F_SETPIPE_SZ, RA_CHECK_PIPE);
#endif
        bad = ra_check_stdin(run, &allowed_all) != 0;
    }
    /* what was judged is written, even before a bad line */
    if (ra_check_flush(run, 1) != 0) {
        bad = 1;
    }

    ra_buf_release(&run->out);
    for (i = 0; i < RA_CHECK_TAILS; i++) {
        ra_buf_release(&run->tails[i].text);
    }
    free(run);
    ra_rules_free(rules);
    if (fflush(stdout) != 0) {
        bad = 1;
    }
    if (bad) {
        return RA_EXIT_USAGE;
    }
    return allowed_all ? RA_EXIT_OK : RA_EXIT_FOUND;
}
