/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The lint of a sitemap as a crawler fetches it: gzip undone, the
 * protocol's limits (RA_SM_MAX_URLS, RA_SM_MAX_BYTES), every URL an
 * absolute http(s) URL on the sitemap's own host and scheme, lastmod a
 * W3C datetime, and the URLs robots.txt disallows for every crawler, for
 * Googlebot and for Bingbot: a sitemap that lists them asks crawlers for
 * what robots.txt forbids.  The answer is read as it comes, piece by
 * piece (gzip undone by zlib as it streams), in memory of a fixed size:
 * a server lints a sitemap while it serves it, whatever its size.
 */
#include <zlib.h>

#include "ra_datefmt.h"
#include "ra_sitemap.h"

#define RA_SML_OUT  (16u * 1024)        /* gzip's output, at a time */

typedef struct {
    const ra_rules_t   *rules;
    ra_sm_finding_cb    cb;
    void               *ctx;
    ra_sm_summary_t    *sum;
    unsigned char       origin[RA_SM_LOC_MAX];  /* scheme://host[:port] */
    size_t              norigin;
    unsigned            have_origin:1;
} ra_sml_t;

static void
ra_sml_emit(ra_sml_t *l, ra_sm_finding_t *f)
{
    l->sum->counts[f->code]++;
    l->cb(l->ctx, f);
}

/* scheme://authority of an absolute http(s) URL; len 0 when it is none */
static ra_str_t
ra_sml_origin(ra_str_t url)
{
    size_t  i, s;

    if (ra_startswith_ci(url, "http://")) {
        s = 7;
    } else if (ra_startswith_ci(url, "https://")) {
        s = 8;
    } else {
        return ra_str(url.data, 0);
    }
    for (i = s; i < url.len && url.data[i] != '/' && url.data[i] != '?'
                && url.data[i] != '#'; i++)
    {
        /* void */
    }
    return ra_str(url.data, i == s ? 0 : i);
}

static void
ra_sml_finding(void *ctx, const ra_sm_finding_t *f)
{
    ra_sml_t  *l = ctx;

    /* the reader counted it already */
    l->cb(l->ctx, f);
}

static void
ra_sml_entry(void *ctx, const ra_sm_entry_t *e)
{
    static const ra_str_t  crawlers[] = {
        ra_string("*"), ra_string("Googlebot"), ra_string("Bingbot")
    };
    ra_sml_t         *l = ctx;
    ra_sm_finding_t   f;
    ra_str_t          origin;
    size_t            i;

    memset(&f, 0, sizeof(f));
    f.line = e->line;
    f.url = e->loc;
    if (l->sum->entries == RA_SM_MAX_URLS + 1) {
        f.code = RA_SMF_TOO_MANY;
        f.detail = ra_str_z("more than 50,000 URLs: crawlers may reject "
                            "the whole file");
        ra_sml_emit(l, &f);
        f.detail = ra_str("", 0);
    }
    if (e->lastmod.len && !ra_date_w3c(e->lastmod)) {
        f.code = RA_SMF_LASTMOD;
        f.detail = e->lastmod;
        ra_sml_emit(l, &f);
        f.detail = ra_str("", 0);
    }
    origin = ra_sml_origin(e->loc);
    if (origin.len == 0 || e->loc_cut) {
        f.code = RA_SMF_BAD_LOC;
        f.detail = ra_str_z(e->loc_cut ? "longer than 2,048 bytes"
                                       : "not an absolute http(s) URL");
        ra_sml_emit(l, &f);
        return;
    }
    if (!l->have_origin) {
        memcpy(l->origin, origin.data, origin.len);
        l->norigin = origin.len;
        l->have_origin = 1;
    } else if (!ra_strcaseeq(origin, ra_str(l->origin, l->norigin))) {
        f.code = RA_SMF_OTHER_HOST;
        f.detail = ra_str(l->origin, l->norigin);
        ra_sml_emit(l, &f);
    }
    if (l->rules == NULL) {
        return;
    }
    for (i = 0; i < sizeof(crawlers) / sizeof(crawlers[0]); i++) {
        f.crawler = crawlers[i];
        (void) ra_rules_match(l->rules, RA_MODE_GOOGLE, &crawlers[i],
                              i == 0 ? 0 : 1, ra_url_path(e->loc), NULL,
                              &f.match);
        if (!f.match.allowed) {
            f.code = RA_SMF_DISALLOWED;
            ra_sml_emit(l, &f);
        }
    }
}

/* ra_sitemap_lint.c's stream: how far it came */
#define RA_SML_FIRST   0                /* no byte yet: gzip or not? */
#define RA_SML_PLAIN   1
#define RA_SML_GZIP    2
#define RA_SML_DONE    3                /* the rest is counted only */

struct ra_sm_lint_s {
    ra_sml_t           l;
    const ra_alloc_t  *a;
    ra_sm_parser_t    *parser;
    z_stream           z;
    unsigned           state;
    unsigned           zinit:1;
    unsigned           zend:1;          /* the gzip stream ended */
    unsigned char      first;           /* a first byte alone, kept */
    unsigned           have_first:1;
    unsigned char      out[RA_SML_OUT];
};

static void *
ra_sml_zalloc(void *opaque, unsigned items, unsigned size)
{
    return ra_alloc(opaque, (size_t) items * size);
}

static void
ra_sml_zfree(void *opaque, void *p)
{
    ra_free(opaque, p);
}

static void
ra_sml_fail(ra_sm_lint_t *x, ra_sm_code_e code, const char *why)
{
    ra_sm_finding_t  f;

    memset(&f, 0, sizeof(f));
    f.code = code;
    f.detail = ra_str_z(why);
    ra_sml_emit(&x->l, &f);
}

/* XML bytes (decoded) to the reader, up to the protocol's limit */
static void
ra_sml_xml(ra_sm_lint_t *x, const unsigned char *p, size_t n)
{
    size_t  room = RA_SM_MAX_BYTES - x->l.sum->bytes;

    if (n > room) {
        ra_sm_parser_feed(x->parser, p, room);
        ra_sml_fail(x, RA_SMF_TOO_BIG, "more than 50 MiB uncompressed: "
                    "crawlers may reject the whole file");
        x->state = RA_SML_DONE;
        return;
    }
    ra_sm_parser_feed(x->parser, p, n);
}

static void
ra_sml_inflate(ra_sm_lint_t *x, const unsigned char *p, size_t n)
{
    int  rc;

    x->z.next_in = (unsigned char *) p;
    x->z.avail_in = (unsigned) n;
    /* on while input is left, or output was (a full buffer) */
    do {
        x->z.next_out = x->out;
        x->z.avail_out = sizeof(x->out);
        rc = inflate(&x->z, Z_NO_FLUSH);
        if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) {
            ra_sml_fail(x, RA_SMF_UNDECODABLE,
                        x->z.msg != NULL ? x->z.msg : "corrupt gzip data");
            x->state = RA_SML_DONE;
            return;
        }
        ra_sml_xml(x, x->out, sizeof(x->out) - x->z.avail_out);
        x->zend = rc == Z_STREAM_END;
        if (rc == Z_BUF_ERROR) {
            break;
        }
    } while (x->state == RA_SML_GZIP && !x->zend
             && (x->z.avail_in > 0 || x->z.avail_out == 0));
}

int
ra_sitemap_lint_start(ra_sm_lint_t **out, ra_str_t url,
    const ra_rules_t *rules, const ra_alloc_t *a, ra_sm_finding_cb cb,
    void *ctx, ra_sm_summary_t *sum)
{
    ra_sm_lint_t  *x;
    ra_str_t       origin;

    *out = NULL;
    x = ra_alloc(a, sizeof(*x));
    if (x == NULL) {
        return RA_ENOMEM;
    }
    memset(x, 0, offsetof(ra_sm_lint_t, out));
    x->parser = ra_alloc(a, ra_sm_parser_size());
    if (x->parser == NULL) {
        ra_free(a, x);
        return RA_ENOMEM;
    }
    memset(sum, 0, sizeof(*sum));
    x->a = a;
    x->l.rules = rules;
    x->l.cb = cb;
    x->l.ctx = ctx;
    x->l.sum = sum;
    origin = ra_sml_origin(url);
    if (origin.len) {
        memcpy(x->l.origin, origin.data, origin.len);
        x->l.norigin = origin.len;
        x->l.have_origin = 1;
    }
    ra_sm_parser_init(x->parser, ra_sml_entry, ra_sml_finding, &x->l, sum);
    *out = x;
    return RA_OK;
}

/* The first two bytes say gzip (its magic) or not. */
static int
ra_sml_begin(ra_sm_lint_t *x, unsigned char b0, unsigned char b1)
{
    if (b0 != 0x1f || b1 != 0x8b) {
        x->state = RA_SML_PLAIN;
        return RA_OK;
    }
    x->l.sum->gzip = 1;
    x->z.zalloc = ra_sml_zalloc;
    x->z.zfree = ra_sml_zfree;
    x->z.opaque = (void *) x->a;
    if (inflateInit2(&x->z, 16 + MAX_WBITS) != Z_OK) {
        return RA_ENOMEM;
    }
    x->zinit = 1;
    x->state = RA_SML_GZIP;
    return RA_OK;
}

int
ra_sitemap_lint_feed(ra_sm_lint_t *x, const void *data, size_t n)
{
    const unsigned char  *p = data;
    unsigned char         two[2];

    x->l.sum->raw += n;
    if (n == 0) {
        return RA_OK;
    }
    if (x->state == RA_SML_FIRST) {
        if (!x->have_first && n == 1) {
            x->first = p[0];
            x->have_first = 1;
            return RA_OK;
        }
        if (ra_sml_begin(x, x->have_first ? x->first : p[0],
                         x->have_first ? p[0] : p[1]) != RA_OK)
        {
            return RA_ENOMEM;
        }
        if (x->have_first) {
            two[0] = x->first;
            x->have_first = 0;
            if (x->state == RA_SML_GZIP) {
                ra_sml_inflate(x, two, 1);
            } else {
                ra_sml_xml(x, two, 1);
            }
        }
    }
    if (x->state == RA_SML_GZIP) {
        ra_sml_inflate(x, p, n);
    } else if (x->state == RA_SML_PLAIN) {
        ra_sml_xml(x, p, n);
    }
    return RA_OK;
}

void
ra_sitemap_lint_end(ra_sm_lint_t *x)
{
    if (x->have_first) {
        x->state = RA_SML_PLAIN;
        ra_sml_xml(x, &x->first, 1);
    }
    if (x->state == RA_SML_GZIP && !x->zend) {
        ra_sml_fail(x, RA_SMF_UNDECODABLE, "the gzip data ends early");
    }
    if (x->l.sum->counts[RA_SMF_UNDECODABLE] == 0) {
        ra_sm_parser_end(x->parser);
    } else {
        ra_sm_parser_stop(x->parser);
    }
    if (x->zinit) {
        (void) inflateEnd(&x->z);
    }
    ra_free(x->a, x->parser);
    ra_free(x->a, x);
}

int
ra_sitemap_lint(ra_str_t body, ra_str_t url, const ra_rules_t *rules,
    const ra_alloc_t *a, ra_sm_finding_cb cb, void *ctx,
    ra_sm_summary_t *sum)
{
    ra_sm_lint_t  *x;

    if (ra_sitemap_lint_start(&x, url, rules, a, cb, ctx, sum) != RA_OK
        || ra_sitemap_lint_feed(x, body.data, body.len) != RA_OK)
    {
        if (x != NULL) {
            ra_sitemap_lint_end(x);
        }
        return RA_ENOMEM;
    }
    ra_sitemap_lint_end(x);
    return RA_OK;
}
