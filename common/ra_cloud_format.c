/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The cloud providers' range-file formats (ra_cloud.h): one reader per
 * format, each handing its prefixes to ra_ranges_add_walk(), which parses,
 * merges and stores them as every range list is; and the choice of a
 * reader by a file's name.  The JSON formats differ only in the members
 * that hold a prefix, so one JSON reader serves them, told the members;
 * the geofeed (RFC 8805) is CSV and has its own.
 */
#include <string.h>

#include "ra_cloud.h"

/* ---- JSON: a prefix is the string value of named members ------------- */

typedef struct {
    const char  *key;
    int          v4;                /* 1 IPv4, 0 IPv6, -1 either */
} ra_cloud_key_t;

typedef struct {
    ra_cloud_key_t  keys[3];        /* up to a NULL key */
} ra_cloud_json_t;

/* AWS ip-ranges.json: prefixes[].ip_prefix, ipv6_prefixes[].ipv6_prefix */
static const ra_cloud_json_t  ra_cloud_aws = {
    { { "ip_prefix", 1 }, { "ipv6_prefix", 0 }, { NULL, 0 } }
};

/* Google Cloud cloud.json, and the crawler publishers' shape:
 * prefixes[].ipv4Prefix, prefixes[].ipv6Prefix */
static const ra_cloud_json_t  ra_cloud_google = {
    { { "ipv4Prefix", 1 }, { "ipv6Prefix", 0 }, { NULL, 0 } }
};

/* Oracle Cloud public_ip_ranges.json: regions[].cidrs[].cidr */
static const ra_cloud_json_t  ra_cloud_oracle = {
    { { "cidr", -1 }, { NULL, 0 }, { NULL, 0 } }
};

typedef struct {
    const ra_cloud_json_t  *how;
    ra_ranges_each_pt       each;
    void                   *ctx;
    ra_json_err_t          *err;
    const unsigned char    *start;
    uint8_t                 is_obj[RA_JSON_MAX_DEPTH + 2];
    int8_t                  key[RA_JSON_MAX_DEPTH + 2];  /* -1: none */
} ra_cloud_json_ctx_t;

static int
ra_cloud_json_fail(ra_cloud_json_ctx_t *c, ra_str_t raw, const char *msg)
{
    c->err->offset = raw.data != NULL ? (size_t) (raw.data - c->start) : 0;
    c->err->msg = msg;
    return RA_ERROR;
}

static int
ra_cloud_json_event(void *ctx, unsigned event, ra_str_t raw, unsigned depth)
{
    ra_cloud_json_ctx_t  *c = ctx;
    const ra_cloud_key_t *k;
    unsigned char         buf[64];
    long                  n;
    int                   i, rc;

    if (depth == 0) {
        return event == RA_JSON_OBJECT || event == RA_JSON_END
               ? (c->is_obj[1] = 1, c->key[1] = -1, 0)
               : ra_cloud_json_fail(c, raw, "not a JSON object");
    }
    if (event == RA_JSON_KEY) {
        c->key[depth] = -1;
        for (i = 0; c->how->keys[i].key != NULL; i++) {
            if (raw.len == strlen(c->how->keys[i].key)
                && memcmp(raw.data, c->how->keys[i].key, raw.len) == 0)
            {
                c->key[depth] = (int8_t) i;
            }
        }
        return 0;
    }
    if (event == RA_JSON_END) {
        return 0;
    }
    /* a value: a prefix when it is a named member's */
    if (!c->is_obj[depth] || c->key[depth] < 0) {
        if (event == RA_JSON_OBJECT || event == RA_JSON_ARRAY) {
            c->is_obj[depth + 1] = event == RA_JSON_OBJECT;
            c->key[depth + 1] = -1;
        }
        return 0;
    }
    k = &c->how->keys[c->key[depth]];
    if (event != RA_JSON_STRING) {
        return ra_cloud_json_fail(c, raw, "a prefix is not a string");
    }
    n = ra_json_unescape(raw, buf, sizeof(buf));
    rc = n < 0 ? RA_ERROR : c->each(c->ctx, ra_str(buf, (size_t) n), k->v4);
    if (rc != 0) {
        c->err->offset = (size_t) (raw.data - c->start);
        c->err->msg = rc == RA_ELIMIT ? "too many prefixes"
                      : k->v4 == 1 ? "bad IPv4 prefix"
                      : k->v4 == 0 ? "bad IPv6 prefix" : "bad IP prefix";
    }
    return rc;
}

static int
ra_cloud_json_walk(const void *how, ra_str_t text, ra_ranges_each_pt each,
    void *ctx, ra_json_err_t *err)
{
    ra_cloud_json_ctx_t  c;
    int                  rc;

    memset(&c, 0, sizeof(c));
    c.how = how;
    c.each = each;
    c.ctx = ctx;
    c.err = err;
    c.start = text.data;
    rc = ra_json_parse(text, ra_cloud_json_event, &c, err);
    if (rc != RA_OK && err->msg == NULL) {
        err->msg = "invalid";
    }
    return rc;
}

/* ---- geofeed: RFC 8805 CSV ------------------------------------------- */

static int
ra_cloud_is_space(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

static int
ra_cloud_geofeed_walk(const void *how, ra_str_t text, ra_ranges_each_pt each,
    void *ctx, ra_json_err_t *err)
{
    const unsigned char  *p = text.data, *end = text.data + text.len;
    const unsigned char  *eol, *b, *e;
    int                   rc;

    (void) how;
    if (text.len >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0) {
        p += 3;                         /* a byte order mark */
    }
    if (text.len != 0 && memchr(text.data, '\0', text.len) != NULL) {
        err->offset = (size_t) ((const unsigned char *)
                                memchr(text.data, '\0', text.len)
                                - text.data);
        err->msg = "not a geofeed: a NUL byte";
        return RA_ERROR;
    }
    for (; p < end; p = eol + 1) {
        eol = memchr(p, '\n', (size_t) (end - p));
        if (eol == NULL) {
            eol = end;
        }
        for (b = p; b < eol && ra_cloud_is_space(*b); b++) { }
        if (b == eol || *b == '#') {
            continue;                   /* blank, or a comment */
        }
        for (e = b; e < eol && *e != ','; e++) { }
        while (e > b && ra_cloud_is_space(e[-1])) {
            e--;
        }
        rc = each(ctx, ra_str(b, (size_t) (e - b)), -1);
        if (rc != 0) {
            err->offset = (size_t) (b - text.data);
            err->msg = rc == RA_ELIMIT ? "too many prefixes"
                       : "not a geofeed: the first column is no IP prefix";
            return rc;
        }
    }
    return RA_OK;
}

/* ---- the reader for a name ------------------------------------------- */

typedef struct {
    const char         *provider;
    ra_ranges_walk_pt   walk;
    const void         *how;
} ra_cloud_format_t;

static const ra_cloud_format_t  ra_cloud_formats[] = {
    { "aws", ra_cloud_json_walk, &ra_cloud_aws },
    { "google", ra_cloud_json_walk, &ra_cloud_google },
    { "oracle", ra_cloud_json_walk, &ra_cloud_oracle },
    { "digitalocean", ra_cloud_geofeed_walk, NULL },
    { "linode", ra_cloud_geofeed_walk, NULL },
};

#define RA_CLOUD_NFORMATS \
    (sizeof(ra_cloud_formats) / sizeof(ra_cloud_formats[0]))

static int
ra_cloud_ends(ra_str_t s, const char *ext)
{
    size_t  n = strlen(ext);

    return s.len >= n
           && ra_strcaseeq(ra_str(s.data + s.len - n, n), ra_str(ext, n));
}

int
ra_cloud_file(ra_str_t name, ra_str_t *provider)
{
    size_t  pl = sizeof(RA_CLOUD_FILE_PREFIX) - 1, dot;

    if (!ra_startswith_ci(name, RA_CLOUD_FILE_PREFIX)) {
        return 0;
    }
    for (dot = name.len; dot > pl && name.data[dot - 1] != '.'; dot--) { }
    /* cloud-PROVIDER.EXT, or cloud-PROVIDER without one */
    dot = dot > pl ? dot - 1 : name.len;
    if (dot == pl || dot - pl > RA_CLOUD_NAME_MAX) {
        return 0;
    }
    if (provider != NULL) {
        *provider = ra_str(name.data + pl, dot - pl);
    }
    return 1;
}

int
ra_ranges_add_file(ra_ranges_t *r, ra_str_t name, ra_str_t text,
    ra_json_err_t *err)
{
    ra_str_t  prov;
    size_t    i;

    if (!ra_cloud_file(name, &prov)) {
        return ra_ranges_add_json(r, name, text, err);
    }
    for (i = 0; i < RA_CLOUD_NFORMATS; i++) {
        if (ra_strcaseeq(prov, ra_str(ra_cloud_formats[i].provider,
                                      strlen(ra_cloud_formats[i].provider))))
        {
            return ra_ranges_add_walk(r, name, RA_RANGES_CLOUD, text,
                                      ra_cloud_formats[i].walk,
                                      ra_cloud_formats[i].how, err);
        }
    }
    if (ra_cloud_ends(name, ".csv")) {
        return ra_ranges_add_walk(r, name, RA_RANGES_CLOUD, text,
                                  ra_cloud_geofeed_walk, NULL, err);
    }
    if (ra_cloud_ends(name, ".json")) {
        return ra_ranges_add_walk(r, name, RA_RANGES_CLOUD, text,
                                  ra_cloud_json_walk, &ra_cloud_google, err);
    }
    err->offset = 0;
    err->msg = "a cloud range file of an unknown provider is named "
               "cloud-PROVIDER.json or cloud-PROVIDER.csv";
    return RA_ERROR;
}
