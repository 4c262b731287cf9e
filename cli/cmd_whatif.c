/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * robots-audit whatif: replays the crawler requests of access logs under
 * two robots.txt files, the proposed one with a crawler policy if given
 * (--block, --allow: ra_policy.h), and shows, per crawler, how many
 * requests change verdict each way and which paths they hit.
 *
 * It judges with the matcher directly (rfc mode, the crawler's tokens in
 * order of preference, "ignores the * group" honoured) and keeps no
 * ledger: a change of rules is a question about paths, not about the
 * 24-hour cache grace.  Memory is bounded: one row per crawler of the
 * table, one per generic bot's token (the first RA_WI_GENERIC seen; named
 * as logs names them, ra_report_label()) and one for the generic bots
 * past those, and per row and direction a Space-Saving
 * summary of RA_WI_SLOTS paths (counts exact for any path with more hits
 * than total/RA_WI_SLOTS; others may be over-counted by at most the
 * "error" it prints).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ra_accesslog.h"
#include "ra_audit.h"
#include "ra_crawlers.h"
#include "ra_http.h"
#include "ra_logread.h"
#include "ra_logs_read.h"
#include "ra_policy.h"
#include "ra_report.h"
#include "ra_rules.h"

#define RA_WI_CMD       "whatif"
#define RA_WI_SLOTS     64
#define RA_WI_PATH_MAX  160
#define RA_WI_TOKENS    8
#define RA_WI_GENERIC   64      /* generic bots' tokens with a row each */

static const char  ra_wi_usage[] =
"usage: robots-audit whatif --current FILE [--proposed FILE]\n"
"           [--block purpose:P,... | --block crawler:NAME,...]...\n"
"           [--allow crawler:NAME,...]... [--site HOST]\n"
"           [--crawlers FILE] [--top N] [--format text|json]\n"
"           [--log-format F | --json-fields MAP] LOG...\n"
"\n"
"Replays the crawler requests of access logs (any format 'logs' reads,\n"
"each file's found from its first lines; .gz or '-' for stdin) under both\n"
"robots.txt files and shows, per crawler, how many requests change\n"
"verdict each way (allowed -> disallowed, disallowed -> allowed) and the\n"
"top paths affected (path without the query; counts of paths past the\n"
"busiest %d per row are approximate).  Matching is RFC 9309 with the\n"
"crawler's robots.txt tokens; browsers and user-triggered fetchers\n"
"(robots.txt does not apply to them) are not judged.\n"
"--log-format F or --json-fields MAP names the logs' format as for\n"
"'logs' (see 'robots-audit logs --help').\n"
"--block and --allow add a crawler policy to the proposed state, as\n"
"robots_audit_block and robots_audit_allow would (purposes: search,\n"
"ai-training, ai-search, ai-user, ..., generic); a request it would refuse\n"
"is disallowed there, user-triggered fetchers included.  A log says\n"
"nothing of verification: every claim is taken at its word.  Without\n"
"--proposed, the proposed robots.txt is the current one.\n"
"--site is only a label for the report.\n"
"\n"
"exit status: 0 no request becomes disallowed, 1 some do, 2 usage or\n"
"input error (a damaged .gz is said with its line, the next file read\n"
"and the report written)\n";

typedef struct {
    uint64_t  count;
    uint64_t  error;
    uint16_t  len;
    char      path[RA_WI_PATH_MAX];
} ra_wi_slot_t;

typedef struct {
    uint64_t       requests;
    uint64_t       changed[2];      /* 0: allowed->disallowed, 1: back */
    uint32_t       nslots[2];
    ra_wi_slot_t  *slots[2];        /* RA_WI_SLOTS each, on first use */
    uint8_t        name_len;        /* a generic bot's token */
    char           name[RA_NAME_MAX];
} ra_wi_row_t;

typedef struct {
    const ra_crawlers_t  *tab;
    const ra_rules_t     *rules[2];  /* current, proposed */
    ra_policy_t           policy;    /* the proposed state's, if any */
    ra_wi_row_t          *rows;      /* crawler id; then RA_WI_GENERIC
                                        generic bots' tokens; the last:
                                        the other generic bots */
    size_t                nrows;
    size_t                ncrawlers;
    size_t                ngeneric;  /* token rows in use */
    uint64_t              lines;
    uint64_t              malformed;
    uint64_t              browsers;
    uint64_t              exempt;
    int                   nomem;
    unsigned char        *esc;
    ra_logs_reader_t      rd;        /* each file in its format */
} ra_wi_ctx_t;

static ra_wi_row_t *ra_wi_generic_row(ra_wi_ctx_t *x, ra_str_t token);

/* Space-Saving (Metwally et al.): a missing path takes the place of the
 * least counted one and inherits its count as its error. */
static int
ra_wi_add(ra_wi_row_t *row, int dir, ra_str_t path)
{
    ra_wi_slot_t  *s, *min;
    uint32_t       i;

    if (path.len > RA_WI_PATH_MAX) {
        path.len = RA_WI_PATH_MAX;
    }
    if (row->slots[dir] == NULL) {
        row->slots[dir] = calloc(RA_WI_SLOTS, sizeof(ra_wi_slot_t));
        if (row->slots[dir] == NULL) {
            return -1;
        }
    }
    s = row->slots[dir];
    for (i = 0; i < row->nslots[dir]; i++) {
        if (s[i].len == path.len && memcmp(s[i].path, path.data, path.len)
                                    == 0)
        {
            s[i].count++;
            return 0;
        }
    }
    if (row->nslots[dir] < RA_WI_SLOTS) {
        min = &s[row->nslots[dir]++];
        min->count = 0;
    } else {
        min = &s[0];
        for (i = 1; i < RA_WI_SLOTS; i++) {
            if (s[i].count < min->count) {
                min = &s[i];
            }
        }
    }
    min->error = min->count;
    min->count++;
    min->len = (uint16_t) path.len;
    memcpy(min->path, path.data, path.len);
    return 0;
}

/* as the audit judges a request (ra_judge_allows): the path as received
 * and its canonical form */
static int
ra_wi_allowed(const ra_rules_t *rs, const ra_str_t *tokens, size_t n,
    int ignores_star, ra_str_t path)
{
    ra_match_t      m;
    ra_judge_who_t  who;

    who.tokens = tokens;
    who.ntokens = n;
    who.flags = ignores_star ? RA_CRAWLER_IGNORES_STAR : 0;
    return ra_judge_allows(rs, &who, path, &ra_malloc_allocator, &m);
}

/* Would the proposed policy refuse the crawler identified as id?  Its
 * claim is taken at its word (a log cannot verify it). */
static int
ra_wi_refused(const ra_wi_ctx_t *x, const ra_identity_t *id)
{
    ra_verdict_t  v;

    if (!ra_policy_any(&x->policy)) {
        return 0;
    }
    memset(&v, 0, sizeof(v));
    v.verdict = RA_VERDICT_COMPLIANT;
    v.kind = id->kind;
    v.crawler = id->crawler;
    v.name = id->crawler != NULL ? id->crawler->name : id->token;
    v.verification = RA_VERIFY_UNVERIFIABLE;
    return ra_policy_refuses(&x->policy, &v) != RA_POLICY_PASS;
}

/* --block WHAT:LIST, --allow crawler:LIST into the policy, and the words
 * into the proposed state's label */
static int
ra_wi_policy_opt(ra_wi_ctx_t *x, int allow, const char *arg, ra_buf_t *lab)
{
    ra_str_t     words[32], bad;
    size_t       n = 0, i, start;
    const char  *why = NULL, *colon = strchr(arg, ':');

    if (colon != NULL) {
        words[n++] = ra_str(arg, (size_t) (colon - arg));
        for (i = start = (size_t) (colon - arg) + 1; n < 32; i++) {
            if (arg[i] == ',' || arg[i] == '\0') {
                if (i > start) {
                    words[n++] = ra_str(arg + start, i - start);
                }
                start = i + 1;
                if (arg[i] == '\0') {
                    break;
                }
            }
        }
    }
    if (n < 2 || ra_policy_words(&x->policy, allow, words, n,
                                 &ra_malloc_allocator, &bad, &why) != RA_OK)
    {
        return ra_cli_error(RA_WI_CMD, "--%s '%s': %s", allow ? "allow"
                            : "block", arg, why != NULL ? why
                            : allow ? "crawler:NAME,..."
                            : "purpose:P,... or crawler:NAME,...");
    }
    ra_buf_printf(lab, " --%s %s", allow ? "allow" : "block", arg);
    return 0;
}

static void
ra_wi_policy_free(ra_policy_t *p)
{
    ra_policy_name_t  *n, *next;
    ra_policy_name_t  *lists[2] = { p->block, p->allow };
    int                i;

    for (i = 0; i < 2; i++) {
        for (n = lists[i]; n != NULL; n = next) {
            next = n->next;
            free(n);
        }
    }
}

static int
ra_wi_line(void *ctx, ra_str_t line, const char *file, uint64_t lineno)
{
    ra_wi_ctx_t         *x = ctx;
    ra_logrec_t          rec;
    ra_identity_t        id;
    ra_str_t             uri, ua, path, tokens[RA_WI_TOKENS];
    const ra_crawler_t  *c;
    ra_wi_row_t         *row;
    size_t               ntokens = 0;
    int                  star = 0, a0, a1, rc;
    const unsigned char *q;

    (void) lineno;
    x->lines++;
    rc = ra_logs_read(&x->rd, line, file, &rec);
    if (rc == 1) {
        return 0;                       /* a W3C directive */
    }
    if (rc != RA_OK || rec.method.len == 0) {
        x->malformed++;
        return 0;
    }
    ra_logrec_decode(&rec, x->esc, &uri, &ua);
    if (ra_http_server_page(uri, ra_str("", 0), 0)) {
        return 0;                       /* a server's own page: nobody's */
    }

    (void) ra_crawlers_identify(x->tab, ua, &id);
    if (id.kind == RA_UA_BROWSER) {
        x->browsers++;
        return 0;
    }
    c = id.crawler;
    if (c != NULL) {
        /* robots.txt does not apply to them; a policy does */
        if ((c->flags & RA_CRAWLER_USER_TRIGGERED)
            && !ra_policy_any(&x->policy))
        {
            x->exempt++;
            return 0;
        }
        for (ntokens = 0; ntokens < c->ntokens && ntokens < RA_WI_TOKENS;
             ntokens++)
        {
            tokens[ntokens] = c->tokens[ntokens];
        }
        star = (c->flags & RA_CRAWLER_IGNORES_STAR) != 0;
        row = &x->rows[c->id < x->ncrawlers ? c->id : x->nrows - 1];
    } else {
        if (id.token.len) {
            tokens[ntokens++] = id.token;
        }
        row = ra_wi_generic_row(x, id.token);
    }

    path = ra_http_target_path(uri);
    row->requests++;
    if (c != NULL && (c->flags & RA_CRAWLER_USER_TRIGGERED)) {
        a0 = a1 = 1;
    } else {
        a0 = ra_wi_allowed(x->rules[0], tokens, ntokens, star, path);
        a1 = ra_wi_allowed(x->rules[1], tokens, ntokens, star, path);
    }
    a1 = a1 && !ra_wi_refused(x, &id);
    if (a0 == a1) {
        return 0;
    }
    row->changed[a0 ? 0 : 1]++;
    /* the path without its query: one line per page, not per URL */
    q = memchr(path.data, '?', path.len);
    if (q != NULL) {
        path.len = (size_t) (q - path.data);
    }
    if (ra_wi_add(row, a0 ? 0 : 1, path) != 0) {
        x->nomem = 1;
        return 1;
    }
    return 0;
}

static int
ra_wi_slot_cmp(const void *a, const void *b)
{
    const ra_wi_slot_t  *x = a, *y = b;

    if (x->count != y->count) {
        return x->count > y->count ? -1 : 1;
    }
    return x->len != y->len ? (x->len < y->len ? -1 : 1)
                            : memcmp(x->path, y->path, x->len);
}

/* rows with the most changes first, then the busiest */
static int
ra_wi_row_cmp(const void *a, const void *b)
{
    const ra_wi_row_t  *x = *(ra_wi_row_t *const *) a;
    const ra_wi_row_t  *y = *(ra_wi_row_t *const *) b;
    uint64_t            cx = x->changed[0] + x->changed[1];
    uint64_t            cy = y->changed[0] + y->changed[1];

    if (cx != cy) {
        return cx > cy ? -1 : 1;
    }
    if (x->requests != y->requests) {
        return x->requests > y->requests ? -1 : 1;
    }
    return x < y ? -1 : x > y;
}

/* The row of a generic bot's token, as the ledger keys it (cut to
 * RA_NAME_MAX, in any case: ra_stat_is(); "generic" when it declared
 * none). */
static ra_wi_row_t *
ra_wi_generic_row(ra_wi_ctx_t *x, ra_str_t token)
{
    size_t        i;
    ra_wi_row_t  *row;

    if (token.len == 0) {
        token = ra_str("generic", 7);
    }
    if (token.len > RA_NAME_MAX) {
        token.len = RA_NAME_MAX;
    }
    for (i = 0; i < x->ngeneric; i++) {
        row = &x->rows[x->ncrawlers + i];
        if (ra_strcaseeq(ra_str(row->name, row->name_len), token)) {
            return row;
        }
    }
    if (x->ngeneric == RA_WI_GENERIC) {
        return &x->rows[x->nrows - 1];
    }
    row = &x->rows[x->ncrawlers + x->ngeneric++];
    row->name_len = (uint8_t) token.len;
    memcpy(row->name, token.data, token.len);
    return row;
}

/* Its name in JSON (the crawler, or the generic bot's token), and its
 * kind. */
static ra_str_t
ra_wi_row_name(const ra_wi_ctx_t *x, size_t i, const char **kind)
{
    const ra_crawler_t  *c;

    *kind = "generic";
    if (i == x->nrows - 1) {
        return ra_str("other generic bots", 18);
    }
    if (i >= x->ncrawlers) {
        return ra_str(x->rows[i].name, x->rows[i].name_len);
    }
    *kind = "known";
    c = ra_crawlers_get(x->tab, i);
    return c != NULL ? c->name : ra_str("?", 1);
}

static void
ra_wi_render(ra_wi_ctx_t *x, ra_buf_t *b, int json, unsigned top,
    const char *cur, const char *prop, const char *site)
{
    static const char  *dirs[2] = { "allowed_to_disallowed",
                                    "disallowed_to_allowed" };
    size_t              i, j, start;
    uint32_t            k;
    int                 d, first = 1;
    uint64_t            judged = 0;
    ra_wi_row_t       **order;
    ra_str_t            name;
    const char         *kind;
    char                label[RA_REPORT_LABEL_MAX];

    order = malloc(x->nrows * sizeof(ra_wi_row_t *));
    if (order == NULL) {
        b->failed = 1;
        return;
    }
    for (i = 0; i < x->nrows; i++) {
        order[i] = &x->rows[i];
    }
    qsort(order, x->nrows, sizeof(ra_wi_row_t *), ra_wi_row_cmp);

    for (i = 0; i < x->nrows; i++) {
        judged += x->rows[i].requests;
        for (d = 0; d < 2; d++) {
            if (x->rows[i].slots[d] != NULL) {
                qsort(x->rows[i].slots[d], x->rows[i].nslots[d],
                      sizeof(ra_wi_slot_t), ra_wi_slot_cmp);
            }
        }
    }

    if (json) {
        ra_buf_cstr(b, "{\"current\":");
        ra_buf_json_str(b, ra_str(cur, strlen(cur)));
        ra_buf_cstr(b, ",\"proposed\":");
        ra_buf_json_str(b, ra_str(prop, strlen(prop)));
        ra_buf_cstr(b, ",\"site\":");
        ra_buf_json_str(b, ra_str(site, strlen(site)));
        ra_buf_printf(b, ",\"lines\":%llu,\"malformed_lines\":%llu,"
                      "\"judged\":%llu,\"browsers\":%llu,\"exempt\":%llu,"
                      "\"crawlers\":[",
                      (unsigned long long) x->lines,
                      (unsigned long long) x->malformed,
                      (unsigned long long) judged,
                      (unsigned long long) x->browsers,
                      (unsigned long long) x->exempt);
        for (j = 0; j < x->nrows; j++) {
            const ra_wi_row_t  *r = order[j];

            i = (size_t) (r - x->rows);
            if (r->requests == 0) {
                continue;
            }
            ra_buf_cstr(b, first ? "{\"crawler\":" : ",{\"crawler\":");
            first = 0;
            ra_buf_json_str(b, ra_wi_row_name(x, i, &kind));
            ra_buf_printf(b, ",\"kind\":\"%s\",\"requests\":%llu", kind,
                          (unsigned long long) r->requests);
            for (d = 0; d < 2; d++) {
                ra_buf_printf(b, ",\"%s\":%llu,\"%s_paths\":[", dirs[d],
                              (unsigned long long) r->changed[d], dirs[d]);
                for (k = 0; k < r->nslots[d] && k < top; k++) {
                    const ra_wi_slot_t  *s = &r->slots[d][k];

                    ra_buf_cstr(b, k ? ",{\"path\":" : "{\"path\":");
                    ra_buf_json_str(b, ra_str(s->path, s->len));
                    ra_buf_printf(b, ",\"requests\":%llu,\"error\":%llu}",
                                  (unsigned long long) s->count,
                                  (unsigned long long) s->error);
                }
                ra_buf_ch(b, ']');
            }
            ra_buf_ch(b, '}');
        }
        ra_buf_cstr(b, "]}\n");
        free(order);
        return;
    }

    ra_buf_cstr(b, "whatif ");
    ra_buf_log(b, ra_str(cur, strlen(cur)));
    ra_buf_cstr(b, " -> ");
    ra_buf_log(b, ra_str(prop, strlen(prop)));
    ra_buf_cstr(b, " (site ");
    ra_buf_log(b, ra_str(site, strlen(site)));
    ra_buf_printf(b, "): %llu lines, %llu malformed, %llu crawler requests "
                  "judged (%llu from browsers, %llu user-triggered not "
                  "judged)\n\n", (unsigned long long) x->lines,
                  (unsigned long long) x->malformed,
                  (unsigned long long) judged,
                  (unsigned long long) x->browsers,
                  (unsigned long long) x->exempt);
    ra_buf_printf(b, "%-32s %10s %22s %22s\n", "crawler", "requests",
                  "allowed->disallowed", "disallowed->allowed");
    for (j = 0; j < x->nrows; j++) {
        const ra_wi_row_t  *r = order[j];

        i = (size_t) (r - x->rows);
        if (r->requests == 0) {
            continue;
        }
        start = b->len;
        name = ra_wi_row_name(x, i, &kind);
        ra_buf_log(b, i >= x->ncrawlers && i < x->nrows - 1
                      ? ra_str(label, ra_report_label(RA_UA_GENERIC, name,
                                                      label, sizeof(label)))
                      : name);
        while (b->len - start < 32 && !b->failed) {
            ra_buf_ch(b, ' ');
        }
        ra_buf_printf(b, " %10llu %22llu %22llu\n",
                      (unsigned long long) r->requests,
                      (unsigned long long) r->changed[0],
                      (unsigned long long) r->changed[1]);
        for (d = 0; d < 2; d++) {
            for (k = 0; k < r->nslots[d] && k < top; k++) {
                const ra_wi_slot_t  *s = &r->slots[d][k];

                ra_buf_printf(b, "    %s %8llu  ", d ? "+" : "-",
                              (unsigned long long) s->count);
                ra_buf_log(b, ra_str(s->path, s->len));
                if (s->error) {
                    ra_buf_printf(b, "  (+/- %llu)",
                                  (unsigned long long) s->error);
                }
                ra_buf_ch(b, '\n');
            }
        }
    }
    ra_buf_cstr(b, "\n- newly disallowed, + newly allowed (path without "
                "query)\n");
    free(order);
}

static int
ra_wi_compile(const char *file, ra_rules_t **out)
{
    ra_str_t  body;
    int       rc;

    if (ra_cli_read_file(RA_WI_CMD, file, &body) != 0) {
        return -1;
    }
    rc = ra_rules_compile(body, &ra_malloc_allocator, out, NULL);
    free((void *) body.data);
    if (rc != RA_OK) {
        ra_cli_error(RA_WI_CMD, "%s: out of memory", file);
        return -1;
    }
    return 0;
}

int
ra_cmd_whatif(int argc, char **argv)
{
    int                 c, i, json = 0, rc = RA_EXIT_USAGE, damaged = 0;
    long                top = 10;
    char               *end;
    const char         *cur = NULL, *prop = NULL, *site = "default";
    const char         *crawlers_file = NULL;
    ra_logfmt_t         given;
    int                 have_given = 0;
    ra_buf_t            out;
    ra_wi_ctx_t         x;
    ra_logread_t        rd;
    ra_rules_t         *rules[2] = { NULL, NULL };
    ra_buf_t            pol, label;
    ra_crawlers_t      *tab;
    size_t              k;
    uint64_t            tightened = 0;

    static const struct option  opts[] = {
        { "current", required_argument, NULL, 'a' },
        { "proposed", required_argument, NULL, 'b' },
        { "site", required_argument, NULL, 's' },
        { "crawlers", required_argument, NULL, 'c' },
        { "top", required_argument, NULL, 't' },
        { "format", required_argument, NULL, 'f' },
        { "log-format", required_argument, NULL, 'F' },
        { "json-fields", required_argument, NULL, 'J' },
        { "block", required_argument, NULL, 'B' },
        { "allow", required_argument, NULL, 'A' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 }
    };

    memset(&x, 0, sizeof(x));
    memset(&rd, 0, sizeof(rd));
    ra_buf_init(&pol, &ra_malloc_allocator, 0, 0);
    ra_buf_init(&label, &ra_malloc_allocator, 0, 0);
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'a': cur = optarg; break;
        case 'b': prop = optarg; break;
        case 's': site = optarg; break;
        case 'c': crawlers_file = optarg; break;
        case 't':
            top = strtol(optarg, &end, 10);
            if (*optarg == '\0' || *end != '\0' || top < 1
                || top > RA_WI_SLOTS)
            {
                return ra_cli_error(RA_WI_CMD, "--top: 1 to %d, not '%s'",
                                    RA_WI_SLOTS, optarg);
            }
            break;
        case 'f':
            if (strcmp(optarg, "json") == 0) {
                json = 1;
            } else if (strcmp(optarg, "text") != 0) {
                return ra_cli_error(RA_WI_CMD, "--format: text or json, "
                                    "not '%s'", optarg);
            }
            break;
        case 'F':
        case 'J':
            if (ra_logs_format_opt(RA_WI_CMD, c == 'F' ? "--log-format"
                                   : "--json-fields", optarg, &given,
                                   &have_given) != 0)
            {
                return RA_EXIT_USAGE;
            }
            x.rd.given = &given;
            break;
        case 'B':
        case 'A':
            if (ra_wi_policy_opt(&x, c == 'A', optarg, &pol) != 0) {
                goto done;
            }
            break;
        case 'h':
            printf(ra_wi_usage, RA_WI_SLOTS);
            rc = RA_EXIT_OK;
            goto done;
        default:
            fprintf(stderr, ra_wi_usage, RA_WI_SLOTS);
            goto done;
        }
    }
    if (cur == NULL || (prop == NULL && pol.len == 0)) {
        ra_cli_error(RA_WI_CMD, "--current FILE and --proposed FILE, "
                     "--block or --allow are required (try --help)");
        goto done;
    }
    if (optind >= argc) {
        ra_cli_error(RA_WI_CMD, "expects LOG files, or '-' for stdin "
                     "(try --help)");
        goto done;
    }

    tab = ra_cli_crawlers(RA_WI_CMD, crawlers_file);
    if (tab == NULL) {
        goto done;
    }

    /* the proposed state's name: its robots.txt, then its policy */
    if (pol.len != 0) {
        ra_buf_printf(&label, "%s%.*s", prop != NULL ? prop : cur,
                      (int) pol.len, (const char *) pol.data);
        ra_buf_ch(&label, '\0');
        if (label.failed || pol.failed) {
            ra_cli_error(RA_WI_CMD, "out of memory");
            goto done;
        }
    }
    if (ra_wi_compile(cur, &rules[0]) != 0
        || ra_wi_compile(prop != NULL ? prop : cur, &rules[1]) != 0
        || ra_logread_open(&rd, RA_WI_CMD, argv + optind, argc - optind)
           != 0)
    {
        goto done;
    }

    x.tab = tab;
    x.rules[0] = rules[0];
    x.rules[1] = rules[1];
    x.ncrawlers = ra_crawlers_count(tab);
    x.nrows = x.ncrawlers + RA_WI_GENERIC + 1;
    x.rows = calloc(x.nrows, sizeof(ra_wi_row_t));
    x.esc = malloc(RA_LOG_LINE_MAX);
    if (x.rows == NULL || x.esc == NULL) {
        ra_cli_error(RA_WI_CMD, "out of memory");
        goto done;
    }

    rd.handler = ra_wi_line;
    rd.ctx = &x;
    for (i = optind; i < argc; i++) {
        c = ra_logread_file(&rd, argv[i]);
        if (c > 0) {
            damaged = 1;        /* a damaged .gz, said: on with the next */
        } else if (c != 0) {
            if (x.nomem) {
                ra_cli_error(RA_WI_CMD, "out of memory");
            }
            goto done;
        }
    }
    ra_logread_close(&rd);
    x.lines += rd.overlong;
    x.malformed += rd.overlong;

    ra_buf_init(&out, &ra_malloc_allocator, 16 * 1024, 0);
    ra_wi_render(&x, &out, json, (unsigned) top, cur,
                 label.len != 0 ? (const char *) label.data : prop, site);
    for (k = 0; k < x.nrows; k++) {
        tightened += x.rows[k].changed[0];
    }
    rc = damaged ? RA_EXIT_USAGE : tightened ? RA_EXIT_FOUND : RA_EXIT_OK;
    if (ra_cli_write(RA_WI_CMD, stdout, &out) != 0 || fflush(stdout) != 0) {
        rc = RA_EXIT_USAGE;
    }
    ra_buf_release(&out);

done:
    if (rd.buf != NULL) {
        ra_logread_close(&rd);
    }
    for (k = 0; x.rows != NULL && k < x.nrows; k++) {
        free(x.rows[k].slots[0]);
        free(x.rows[k].slots[1]);
    }
    free(x.rows);
    free(x.esc);
    ra_rules_free(rules[0]);
    ra_rules_free(rules[1]);
    ra_wi_policy_free(&x.policy);
    ra_buf_release(&pol);
    ra_buf_release(&label);
    return rc;
}
