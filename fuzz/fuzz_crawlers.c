/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Crawler identification.  The input is a User-Agent judged against the
 * built-in table, unless its first byte is 0x01: then the rest is an
 * operator's crawler file, loaded into a fresh table and compiled; when
 * accepted, its own text and a few fixed User-Agents are identified.  A
 * known crawler has an id, a name and a token; a generic bot's token is
 * a span of the User-Agent.  The same bytes are a Referer for
 * crawl-to-refer's matching (ra_refer.h) and a request target for its
 * utm_source, or, after a first byte 0x02, a
 * referrer table file.
 */
#include "fuzz.h"
#include "ra_crawlers.h"
#include "ra_refer.h"

static ra_crawlers_t  *builtin;
static ra_refer_t      refer;

/* A Referer: its host is a span of it, an operator of the table or none */
static void
referer(const ra_refer_t *t, ra_str_t r)
{
    ra_str_t  host = ra_refer_host(r);
    int       op = ra_refer_match(t, r);

    FZ_CHECK(host.len <= RA_REFER_HOST_MAX);
    FZ_CHECK(host.len == 0 || fz_within(host, r.data, r.len));
    FZ_CHECK(op >= -1 && op < (int) t->nops);
    FZ_CHECK(host.len > 0 || op == -1);
    /* a Referer is of the site its host names, and of no site without one */
    FZ_CHECK(ra_refer_same_site(r, host) == (host.len > 0));
    /* the same bytes as a request target: a utm_source names an
     * operator of the table or none, and needs a '?' */
    op = ra_refer_match_target(t, r);
    FZ_CHECK(op >= -1 && op < (int) t->nops);
    FZ_CHECK(op == -1 || memchr(r.data, '?', r.len) != NULL);
}

static void
identify(const ra_crawlers_t *t, ra_str_t ua)
{
    ra_identity_t  id;
    int            kind;

    kind = ra_crawlers_identify(t, ua, &id);
    FZ_CHECK(kind == (int) id.kind);
    switch (id.kind) {
    case RA_UA_BROWSER:
        FZ_CHECK(id.crawler == NULL);
        break;
    case RA_UA_KNOWN:
        FZ_CHECK(id.crawler != NULL);
        FZ_CHECK(id.crawler->id < ra_crawlers_count(t));
        FZ_CHECK(ra_crawlers_get(t, id.crawler->id) == id.crawler);
        FZ_CHECK(id.crawler->ntokens >= 1);
        FZ_CHECK(id.crawler->name.len > 0
                 && id.crawler->name.len <= RA_CRAWLERS_MAX_NAME);
        FZ_CHECK(id.crawler->category < RA_CAT_MAX);
        FZ_CHECK(id.token.len > 0);
        break;
    case RA_UA_GENERIC:
        FZ_CHECK(id.crawler == NULL);
        FZ_CHECK(fz_within(id.token, ua.data, ua.len));
        break;
    default:
        FZ_CHECK(0);
    }
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ra_crawlers_t      *t;
    fz_arena_t          arena;
    ra_crawlers_err_t   err;
    ra_str_t            in;
    size_t              i, n;
    int                 rc;
    static const ra_str_t  uas[] = {
        ra_string("Mozilla/5.0 (compatible; Googlebot/2.1; "
                  "+http://www.google.com/bot.html)"),
        ra_string("Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0"),
        ra_string("curl/8.0"), ra_string("")
    };

    if (refer.nops == 0) {
        FZ_CHECK(ra_refer_builtin(&refer) == RA_OK);
    }
    if (size > 0 && data[0] == 0x02) {
        ra_refer_t   own;
        size_t       line;
        const char  *msg;

        in = ra_str(data + 1, size - 1);
        rc = ra_refer_load(&own, in, &line, &msg);
        FZ_CHECK(rc == RA_OK || (rc == RA_ERROR && msg != NULL));
        if (rc == RA_OK) {
            FZ_CHECK(own.nops <= RA_REFER_OPS);
            referer(&own, in);
            referer(&own, (ra_str_t) ra_string("https://www.google.co.uk/x"));
        }
        return 0;
    }
    if (builtin == NULL) {
        builtin = ra_crawlers_create(&ra_malloc_allocator);
        FZ_CHECK(builtin != NULL);
        FZ_CHECK(ra_crawlers_add_builtin(builtin, &err) == RA_OK);
        FZ_CHECK(ra_crawlers_compile(builtin, &err) == RA_OK);
    }
    if (size == 0 || data[0] != 0x01) {
        identify(builtin, ra_str(data, size));
        referer(&refer, ra_str(data, size));
        return 0;
    }

    /* an operator's file, in a table that lives in an arena */
    in = ra_str(data + 1, size - 1);
    t = ra_crawlers_create(fz_arena_init(&arena));
    FZ_CHECK(t != NULL);
    rc = ra_crawlers_add(t, in, &err);
    FZ_CHECK(rc == RA_OK || rc == RA_ERROR || rc == RA_ELIMIT);
    if (rc != RA_OK) {
        FZ_CHECK(err.msg != NULL);
    }
    rc = ra_crawlers_compile(t, &err);
    FZ_CHECK(rc == RA_OK || rc == RA_ELIMIT);
    if (rc == RA_OK) {
        n = ra_crawlers_count(t);
        for (i = 0; i < n; i++) {
            const ra_crawler_t  *c = ra_crawlers_get(t, i);

            FZ_CHECK(c != NULL && c->id == i);
            FZ_CHECK(ra_crawlers_find(t, c->name) != NULL);
            FZ_CHECK(ra_crawlers_find_token(t, c->tokens[0]) != NULL);
        }
        identify(t, in);
        for (i = 0; i < sizeof(uas) / sizeof(uas[0]); i++) {
            identify(t, uas[i]);
        }
    }
    fz_arena_release(&arena);
    return 0;
}
