/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The lint of a sitemap as a crawler fetches it: gzip undone, the
 * protocol's limits (RA_SM_MAX_URLS, RA_SM_MAX_BYTES), every URL an
 * absolute http(s) URL on the sitemap's own host and scheme, lastmod a
 * W3C datetime, and the URLs robots.txt disallows for every crawler, for
 * Googlebot and for Bingbot: a sitemap that lists them asks crawlers for
 * what robots.txt forbids.
 */
#include "ra_datefmt.h"
#include "ra_decode.h"
#include "ra_sitemap.h"

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

int
ra_sitemap_lint(ra_str_t body, ra_str_t url, const ra_rules_t *rules,
    const ra_alloc_t *a, ra_sm_finding_cb cb, void *ctx,
    ra_sm_summary_t *sum)
{
    ra_sml_t          l;
    ra_buf_t          dec;
    ra_decode_info_t  info;
    ra_sm_finding_t   f;
    ra_str_t          xml = body, origin;
    int               rc;

    memset(sum, 0, sizeof(*sum));
    memset(&l, 0, sizeof(l));
    memset(&f, 0, sizeof(f));
    l.rules = rules;
    l.cb = cb;
    l.ctx = ctx;
    l.sum = sum;
    sum->raw = body.len;
    origin = ra_sml_origin(url);
    if (origin.len) {
        memcpy(l.origin, origin.data, origin.len);
        l.norigin = origin.len;
        l.have_origin = 1;
    }

    ra_buf_init(&dec, a, 0, 0);
    if (body.len >= 2 && body.data[0] == 0x1f && body.data[1] == 0x8b) {
        sum->gzip = 1;
        rc = ra_decode(ra_str("gzip", 4), body, 1, RA_SM_MAX_BYTES + 1, a, a,
                       &dec, &info);
        if (rc == RA_ENOMEM) {
            return RA_ENOMEM;
        }
        if (rc == RA_ERROR) {
            f.code = RA_SMF_UNDECODABLE;
            f.detail = ra_str_z(info.error != NULL ? info.error
                                                   : "corrupt gzip data");
            ra_sml_emit(&l, &f);
            ra_buf_release(&dec);
            return RA_OK;
        }
        xml = ra_str(dec.data, dec.len);
    }
    if (xml.len > RA_SM_MAX_BYTES) {
        f.code = RA_SMF_TOO_BIG;
        f.detail = ra_str_z("more than 50 MiB uncompressed: crawlers may "
                            "reject the whole file");
        ra_sml_emit(&l, &f);
        xml.len = RA_SM_MAX_BYTES;
    }
    ra_sitemap_parse(xml, ra_sml_entry, ra_sml_finding, &l, sum);
    ra_buf_release(&dec);
    return RA_OK;
}
