/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Web Bot Auth signatures (ra_sig.h; docs/web-bot-auth.md).
 *
 * The three header fields are Structured Fields (ra_sf.h) as RFC 9421
 * reads them, by RFC 8941: Dates and Display Strings are refused (nothing
 * here uses them), and an Item with more Parameters than ra_sf_item_t
 * holds fails the field.  Nothing is allocated: a dictionary is first
 * walked for its members' spans, and only the member wanted is parsed
 * again into a small fixed structure.
 */
#include <string.h>

#include "ra_sig.h"
#include "ra_origin.h"
#include "ra_sf.h"
#include "ra_verify.h"
#include "ra_digest.h"

#define RA_SIG_SF  RA_SF_BOUNDED       /* how the fields are parsed */

/* The signature base and the JWK thumbprint's input are written into
 * fixed buffers, as the serialised items are. */
#define ra_outs(o, s)  ra_sf_put(o, s, strlen(s))


/* ---- base64 ------------------------------------------------------------ */

static int
ra_b64val(int ch)
{
    if (ch >= 'A' && ch <= 'Z') return ch - 'A';
    if (ch >= 'a' && ch <= 'z') return ch - 'a' + 26;
    if (ch >= '0' && ch <= '9') return ch - '0' + 52;
    if (ch == '+' || ch == '-') return 62;
    if (ch == '/' || ch == '_') return 63;
    return -1;
}

long
ra_b64_decode(ra_str_t s, int url, unsigned char *out, size_t cap)
{
    size_t    i, n = 0, len = s.len;
    unsigned  acc = 0, bits = 0;
    int       v;

    while (len > 0 && s.data[len - 1] == '=') {
        len--;
    }
    if (s.len - len > 2 || len % 4 == 1) {
        return -1;
    }
    for (i = 0; i < len; i++) {
        v = ra_b64val(s.data[i]);
        if (v < 0
            || (url && (s.data[i] == '+' || s.data[i] == '/'))
            || (!url && (s.data[i] == '-' || s.data[i] == '_')))
        {
            return -1;
        }
        acc = (acc << 6) | (unsigned) v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            if (n == cap) {
                return -1;
            }
            out[n++] = (unsigned char) (acc >> bits);
        }
    }
    if (acc & ((1u << bits) - 1)) {
        return -1;                      /* non-canonical trailing bits */
    }
    return (long) n;
}

size_t
ra_base64url_encode(const unsigned char *in, size_t n, char *out)
{
    static const char  t[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    size_t             i, o = 0;
    uint32_t           v;

    for (i = 0; i + 2 < n; i += 3) {
        v = (uint32_t) in[i] << 16 | (uint32_t) in[i + 1] << 8 | in[i + 2];
        out[o++] = t[v >> 18];
        out[o++] = t[(v >> 12) & 63];
        out[o++] = t[(v >> 6) & 63];
        out[o++] = t[v & 63];
    }
    if (n - i == 1) {
        v = (uint32_t) in[i] << 16;
        out[o++] = t[v >> 18];
        out[o++] = t[(v >> 12) & 63];
    } else if (n - i == 2) {
        v = (uint32_t) in[i] << 16 | (uint32_t) in[i + 1] << 8;
        out[o++] = t[v >> 18];
        out[o++] = t[(v >> 12) & 63];
        out[o++] = t[(v >> 6) & 63];
    }
    out[o] = '\0';
    return o;
}


/* ---- keys -------------------------------------------------------------- */

typedef struct {
    unsigned char   host[RA_SIG_MAX_HOST];
    uint8_t         host_len;
    char            kid[RA_SIG_KEYID_LEN + 1];
    unsigned char   pub[RA_ED25519_KEY_LEN];
    int64_t         nbf;            /* ms; 0: none */
    int64_t         exp;            /* ms; 0: none */
} ra_sig_key_t;

struct ra_sig_keys_s {
    const ra_alloc_t  *alloc;
    ra_sig_key_t      *keys;
    size_t             n;
    size_t             cap;
};

ra_sig_keys_t *
ra_sig_keys_create(const ra_alloc_t *a)
{
    ra_sig_keys_t  *k = ra_alloc(a, sizeof(*k));

    if (k != NULL) {
        memset(k, 0, sizeof(*k));
        k->alloc = a;
    }
    return k;
}

size_t
ra_sig_keys_count(const ra_sig_keys_t *k)
{
    return k != NULL ? k->n : 0;
}

static int
ra_host_eq(const ra_sig_key_t *key, ra_str_t host)
{
    return key->host_len == host.len
           && ra_strcaseeq(ra_str(key->host, key->host_len), host);
}

int
ra_sig_keys_has_host(const ra_sig_keys_t *k, ra_str_t host)
{
    size_t  i;

    for (i = 0; k != NULL && i < k->n; i++) {
        if (ra_host_eq(&k->keys[i], host)) {
            return 1;
        }
    }
    return 0;
}

/* one JWK being read */
typedef struct {
    ra_sig_keys_t     *k;
    const ra_host_t   *h;
    ra_str_t           host;
    unsigned           in_keys:1;   /* inside the top "keys" array */
    unsigned           in_key:1;    /* inside one of its objects */
    unsigned           want_keys:1; /* the last top-level key was "keys" */
    ra_str_t           member;      /* the last key read in a JWK */
    ra_str_t           kty, crv, x, kid;
    int64_t            nbf, exp;
    ra_sig_key_t      *fresh;       /* the new keys (k->keys + n0 ..) */
    size_t             n0;
    size_t             kept;
    int                rc;
    const char        *why;
} ra_jwks_ctx_t;

static int
ra_raw_eq(ra_str_t raw, const char *s)
{
    return raw.len == strlen(s) && memcmp(raw.data, s, raw.len) == 0;
}

static int
ra_sig_keys_grow(ra_sig_keys_t *k)
{
    size_t         cap = k->cap ? 2 * k->cap : 8;
    ra_sig_key_t  *nk;

    if (cap > RA_SIG_MAX_KEYS) {
        cap = RA_SIG_MAX_KEYS;
    }
    if (k->n >= cap) {
        return RA_ELIMIT;
    }
    nk = ra_alloc(k->alloc, cap * sizeof(*nk));
    if (nk == NULL) {
        return RA_ENOMEM;
    }
    if (k->n) {
        memcpy(nk, k->keys, k->n * sizeof(*nk));
    }
    ra_free(k->alloc, k->keys);
    k->keys = nk;
    k->cap = cap;
    return RA_OK;
}

/* RFC 7638 3.2 with RFC 8037 A.3's members: SHA-256 of
 * {"crv":"Ed25519","kty":"OKP","x":"..."} in base64url */
static int
ra_sig_thumbprint(const ra_host_t *h, ra_str_t x, char *kid)
{
    unsigned char  buf[128], d[32];
    ra_sf_out_t    o = { buf, 0, sizeof(buf), 0 };

    ra_outs(&o, "{\"crv\":\"Ed25519\",\"kty\":\"OKP\",\"x\":\"");
    ra_sf_put(&o, x.data, x.len);
    ra_outs(&o, "\"}");
    if (o.over || h == NULL || h->sha256 == NULL
        || h->sha256(h, ra_str(buf, o.len), d) != RA_OK)
    {
        return RA_ERROR;
    }
    (void) ra_base64url_encode(d, sizeof(d), kid);
    return RA_OK;
}

static int
ra_jwks_key_end(ra_jwks_ctx_t *x)
{
    ra_sig_key_t  *key;
    unsigned char  pub[RA_ED25519_KEY_LEN + 1];
    char           kid[RA_SIG_KEYID_LEN + 1];
    int            rc;

    if (!ra_raw_eq(x->kty, "OKP") || !ra_raw_eq(x->crv, "Ed25519")) {
        return 0;                       /* another type: skipped */
    }
    if (ra_b64_decode(x->x, 1, pub, sizeof(pub)) != RA_ED25519_KEY_LEN
        || x->x.len != RA_SIG_KEYID_LEN)
    {
        x->why = "an Ed25519 key's \"x\" is not 32 bytes of base64url";
        return RA_ERROR;
    }
    if (ra_sig_thumbprint(x->h, x->x, kid) != RA_OK) {
        x->why = "cannot compute a key's thumbprint";
        return RA_ERROR;
    }
    if (x->kid.len != 0
        && (x->kid.len != RA_SIG_KEYID_LEN
            || memcmp(x->kid.data, kid, RA_SIG_KEYID_LEN) != 0))
    {
        return 0;                       /* kid is not its thumbprint */
    }
    if (x->k->n == x->k->cap) {
        rc = ra_sig_keys_grow(x->k);
        if (rc != RA_OK) {
            x->why = rc == RA_ENOMEM ? "out of memory" : "too many keys";
            return rc;
        }
    }
    key = &x->k->keys[x->k->n++];
    memset(key, 0, sizeof(*key));
    memcpy(key->host, x->host.data, x->host.len);
    key->host_len = (uint8_t) x->host.len;
    memcpy(key->kid, kid, sizeof(kid));
    memcpy(key->pub, pub, RA_ED25519_KEY_LEN);
    key->nbf = x->nbf;
    key->exp = x->exp;
    x->kept++;
    return 0;
}

static int64_t
ra_json_int(ra_str_t raw)
{
    int64_t  v = 0;
    size_t   i;

    for (i = 0; i < raw.len && i < 15 && ra_isdigit(raw.data[i]); i++) {
        v = v * 10 + (raw.data[i] - '0');
    }
    return i == raw.len ? v : 0;
}

static int
ra_jwks_event(void *ctx, unsigned ev, ra_str_t raw, unsigned depth)
{
    ra_jwks_ctx_t  *x = ctx;

    if (depth == 1 && ev == RA_JSON_KEY) {
        x->want_keys = ra_raw_eq(raw, "keys");
        return 0;
    }
    if (depth == 1 && ev == RA_JSON_ARRAY && x->want_keys) {
        x->in_keys = 1;
        return 0;
    }
    if (!x->in_keys) {
        return 0;
    }
    if (depth == 1 && ev == RA_JSON_END) {
        x->in_keys = 0;
        x->want_keys = 0;
        return 0;
    }
    if (depth == 2 && ev == RA_JSON_OBJECT) {
        x->in_key = 1;
        x->kty = x->crv = x->x = x->kid = ra_str("", 0);
        x->member = ra_str("", 0);
        x->nbf = x->exp = 0;
        return 0;
    }
    if (depth == 2 && ev == RA_JSON_END && x->in_key) {
        x->in_key = 0;
        return ra_jwks_key_end(x);
    }
    if (depth == 3 && x->in_key) {
        if (ev == RA_JSON_KEY) {
            x->member = raw;
        } else if (ev == RA_JSON_STRING) {
            if (ra_raw_eq(x->member, "kty")) {
                x->kty = raw;
            } else if (ra_raw_eq(x->member, "crv")) {
                x->crv = raw;
            } else if (ra_raw_eq(x->member, "x")) {
                x->x = raw;
            } else if (ra_raw_eq(x->member, "kid")) {
                x->kid = raw;
            }
        } else if (ev == RA_JSON_NUMBER) {
            if (ra_raw_eq(x->member, "nbf")) {
                x->nbf = ra_json_int(raw) * 1000;
            } else if (ra_raw_eq(x->member, "exp")) {
                x->exp = ra_json_int(raw) * 1000;
            }
        }
    }
    return 0;
}

int
ra_sig_keys_add_jwks(ra_sig_keys_t *k, const ra_host_t *h, ra_str_t host,
    ra_str_t json, size_t *added, const char **why)
{
    ra_jwks_ctx_t  x;
    ra_json_err_t  err;
    int            rc;

    if (added != NULL) {
        *added = 0;
    }
    if (!ra_origin_host_ok(host)) {
        *why = "the file is not named after a host name (HOST.json)";
        return RA_ERROR;
    }
    if (json.len > RA_SIG_MAX_FILE) {
        *why = "the file is larger than 1 MiB";
        return RA_ELIMIT;
    }
    memset(&x, 0, sizeof(x));
    x.k = k;
    x.h = h;
    x.host = host;
    x.n0 = k->n;
    rc = ra_json_parse(json, ra_jwks_event, &x, &err);
    if (rc == RA_ERROR && x.why == NULL) {
        x.why = err.msg;
    }
    if (rc == RA_OK && x.kept == 0) {
        rc = RA_ERROR;
        x.why = "no Ed25519 key (a JWK Set: {\"keys\":[{\"kty\":\"OKP\","
                "\"crv\":\"Ed25519\",\"x\":...}]})";
    }
    if (rc != RA_OK) {
        k->n = x.n0;                    /* nothing kept */
        *why = x.why != NULL ? x.why : "cannot load the key set";
        return rc;
    }
    if (added != NULL) {
        *added = x.kept;
    }
    return RA_OK;
}

static const ra_sig_key_t *
ra_sig_key_find(const ra_sig_keys_t *k, ra_str_t host, ra_str_t kid)
{
    size_t  i;

    if (kid.len != RA_SIG_KEYID_LEN) {
        return NULL;
    }
    for (i = 0; k != NULL && i < k->n; i++) {
        if (memcmp(k->keys[i].kid, kid.data, RA_SIG_KEYID_LEN) == 0
            && ra_host_eq(&k->keys[i], host))
        {
            return &k->keys[i];
        }
    }
    return NULL;
}


/* ---- the request ------------------------------------------------------- */

const char *
ra_sig_result_name(unsigned r)
{
    static const char  *const names[] = {
        "none", "valid", "invalid", "unchecked"
    };

    return r <= RA_SIG_UNCHECKED ? names[r] : "invalid";
}

/* the signature chosen, parsed */
typedef struct {
    ra_str_t        label;
    ra_sf_item_t    comp[RA_SIG_MAX_COMPONENTS];
    unsigned        ncomp;
    ra_sf_param_t   params[RA_SIG_MAX_PARAMS];
    unsigned        nparams;
    /* the covered Signature-Agent: its component index, the member (dict)
     * or the whole field (legacy) */
    int             agent_comp;
    ra_sf_bare_t    agent;          /* the String */
    unsigned        agent_legacy:1;
} ra_sig_parsed_t;

/* Why not, and which result it gives */
typedef struct {
    unsigned        result;
    const char     *why;
} ra_sig_fail_t;

static int
ra_fail(ra_sig_fail_t *f, unsigned result, const char *why)
{
    f->result = result;
    f->why = why;
    return RA_ERROR;
}

static ra_str_t
ra_cut(ra_str_t s)
{
    if (s.len > RA_SIG_MAX_FIELD) {
        s.len = RA_SIG_MAX_FIELD;
    }
    return s;
}

/* Finds the first web-bot-auth signature of Signature-Input and its
 * Signature-Agent.  RA_OK, or RA_ERROR with f set (RA_SIG_NONE: there is
 * none). */
static int
ra_sig_parse(const ra_sig_request_t *r, ra_sig_parsed_t *s, ra_sig_fail_t *f)
{
    ra_sf_member_t         m[RA_SIG_MAX_MEMBERS];
    unsigned               n, i, j;
    ra_sf_cur_t            c;
    const ra_sf_bare_t    *tag, *key;
    const ra_sf_member_t  *am;
    ra_str_t               field;
    int                    rc;

    memset(s, 0, sizeof(*s));
    s->agent_comp = -1;
    rc = ra_sf_dict(ra_cut(r->signature_input), RA_SIG_SF, m,
                    RA_SIG_MAX_MEMBERS, &n);
    if (rc != RA_OK) {
        return ra_fail(f, RA_SIG_INVALID, rc == RA_ELIMIT
                       ? "Signature-Input has too many members"
                       : "Signature-Input is not a Structured Field "
                         "Dictionary");
    }
    for (i = 0; i < n; i++) {
        if (!m[i].list) {
            continue;
        }
        ra_sf_init_member(&c, &m[i], RA_SIG_SF);
        if (ra_sf_inner(&c, s->comp, RA_SIG_MAX_COMPONENTS, &s->ncomp)
            != RA_OK
            || ra_sf_params(&c, s->params, RA_SIG_MAX_PARAMS, &s->nparams)
               != RA_OK)
        {
            continue;       /* over the bounds: not one this checks */
        }
        tag = ra_sf_param(s->params, s->nparams, "tag");
        if (ra_sf_is(tag, RA_SF_STRING, "web-bot-auth")) {
            s->label = m[i].key;
            break;
        }
    }
    if (i == n) {
        return ra_fail(f, RA_SIG_NONE, "no web-bot-auth signature");
    }

    /* the components: strings, none twice, the agent's found */
    for (i = 0; i < s->ncomp; i++) {
        if (s->comp[i].v.type != RA_SF_STRING) {
            return ra_fail(f, RA_SIG_INVALID,
                           "a covered component is not a String");
        }
        for (j = 0; j < i; j++) {
            if (s->comp[j].v.raw.len == s->comp[i].v.raw.len
                && memcmp(s->comp[j].v.raw.data, s->comp[i].v.raw.data,
                          s->comp[i].v.raw.len) == 0
                && s->comp[j].nparams == 0 && s->comp[i].nparams == 0)
            {
                return ra_fail(f, RA_SIG_INVALID,
                               "a component is covered twice");
            }
        }
        if (!ra_raw_eq(s->comp[i].v.raw, "signature-agent")) {
            continue;
        }
        key = ra_sf_param(s->comp[i].params, s->comp[i].nparams, "key");
        if (s->comp[i].nparams == 0) {
            if (s->agent_comp < 0) {
                s->agent_comp = (int) i;
                s->agent_legacy = 1;
            }
        } else if (s->comp[i].nparams == 1 && key != NULL
                   && key->type == RA_SF_STRING
                   && key->raw.len == s->label.len
                   && memcmp(key->raw.data, s->label.data, s->label.len)
                      == 0)
        {
            s->agent_comp = (int) i;    /* the member keyed to its label */
            s->agent_legacy = 0;
        }
    }

    /* Signature-Agent */
    field = ra_ows_trim(ra_cut(r->signature_agent));
    if (field.len == 0) {
        return ra_fail(f, RA_SIG_INVALID, "no Signature-Agent");
    }
    if (s->agent_comp < 0) {
        return ra_fail(f, RA_SIG_INVALID,
                       "the Signature-Agent member is not covered");
    }
    if (field.data[0] == '"') {         /* the legacy bare String */
        ra_sf_item_t  it;

        ra_sf_init(&c, field, RA_SIG_SF);
        if (ra_sf_item(&c, &it) != RA_OK || c.p != c.end
            || it.v.type != RA_SF_STRING || it.nparams != 0)
        {
            return ra_fail(f, RA_SIG_INVALID,
                           "Signature-Agent is not a String");
        }
        if (!s->agent_legacy) {
            return ra_fail(f, RA_SIG_INVALID,
                           "a member of a String Signature-Agent is "
                           "covered");
        }
        s->agent = it.v;
        return RA_OK;
    }
    if (s->agent_legacy) {
        /* bare "signature-agent" over a Dictionary: is there a member
         * covered by its own key too? */
        return ra_fail(f, RA_SIG_INVALID,
                       "the Signature-Agent member keyed to the label is "
                       "not covered");
    }
    if (ra_sf_dict(field, RA_SIG_SF, m, RA_SIG_MAX_MEMBERS, &n) != RA_OK) {
        return ra_fail(f, RA_SIG_INVALID,
                       "Signature-Agent is not a Structured Field "
                       "Dictionary");
    }
    am = ra_sf_dict_get(m, n, s->label);
    if (am == NULL || am->list || am->bare) {
        return ra_fail(f, RA_SIG_INVALID,
                       "Signature-Agent has no String member for the label");
    }
    {
        ra_sf_item_t  it;

        ra_sf_init_member(&c, am, RA_SIG_SF);
        if (ra_sf_item(&c, &it) != RA_OK || it.v.type != RA_SF_STRING
            || it.nparams != 0)
        {
            /* the draft: a member with parameters is ignored */
            return ra_fail(f, RA_SIG_INVALID,
                           "Signature-Agent's member for the label is not a "
                           "String without parameters");
        }
        s->agent = it.v;
    }
    return RA_OK;
}

/* the path and query of a request target (origin- or absolute-form) */
static void
ra_sig_target(ra_str_t t, ra_str_t *path, ra_str_t *query, int *has_query)
{
    const unsigned char  *p, *end = t.data + t.len, *q;

    p = t.data;
    if (t.len && t.data[0] != '/') {    /* absolute-form: skip scheme://h */
        q = memchr(t.data, ':', t.len);
        if (q != NULL && end - q >= 3 && q[1] == '/' && q[2] == '/') {
            p = q + 3;
            while (p < end && *p != '/' && *p != '?') {
                p++;
            }
        }
    }
    q = memchr(p, '?', (size_t) (end - p));
    *has_query = q != NULL;
    *path = ra_str(p, (size_t) ((q != NULL ? q : end) - p));
    *query = q != NULL ? ra_str(q + 1, (size_t) (end - q - 1))
                       : ra_str("", 0);
}

static void
ra_out_lower(ra_sf_out_t *o, ra_str_t s)
{
    size_t  i;

    for (i = 0; i < s.len && !o->over; i++) {
        unsigned char  ch = (unsigned char) ra_lower(s.data[i]);

        ra_sf_put(o, &ch, 1);
    }
}

/* The authority the request is for: an absolute-form target's own
 * ("GET https://h/ HTTP/1.1": RFC 9112 3.2.2 has the server ignore Host
 * then, and RFC 9421 2.2.3 derives @authority from the target URI), else
 * Host.  Its scheme into *scheme.  RA_ERROR when the target's authority
 * holds userinfo or is empty. */
static int
ra_sig_authority(const ra_sig_request_t *r, ra_str_t *a, ra_str_t *scheme)
{
    ra_str_t              t = ra_cut(r->target);
    const unsigned char  *q, *p, *end = t.data + t.len;

    *a = ra_ows_trim(r->authority);
    *scheme = r->scheme;
    if (t.len == 0 || t.data[0] == '/') {
        return RA_OK;
    }
    q = memchr(t.data, ':', t.len);
    if (q == NULL || end - q < 3 || q[1] != '/' || q[2] != '/') {
        return RA_OK;
    }
    *scheme = ra_str(t.data, (size_t) (q - t.data));
    p = q + 3;
    for (q = p; q < end && *q != '/' && *q != '?'; q++) {
        if (*q == '@') {
            return RA_ERROR;
        }
    }
    *a = ra_str(p, (size_t) (q - p));
    return a->len ? RA_OK : RA_ERROR;
}

/* @authority: lower case, the scheme's default port dropped */
static void
ra_out_authority(ra_sf_out_t *o, const ra_sig_request_t *r)
{
    ra_str_t  a, scheme;

    (void) ra_sig_authority(r, &a, &scheme);
    if (ra_strcaseeq(scheme, (ra_str_t) ra_string("https"))
        && a.len > 4 && memcmp(a.data + a.len - 4, ":443", 4) == 0)
    {
        a.len -= 4;
    } else if (ra_strcaseeq(scheme, (ra_str_t) ra_string("http"))
               && a.len > 3 && memcmp(a.data + a.len - 3, ":80", 3) == 0)
    {
        a.len -= 3;
    }
    ra_out_lower(o, a);
}

static int
ra_sig_build(const ra_sig_request_t *r, const ra_sig_parsed_t *s,
    unsigned char *buf, size_t cap, ra_sig_fail_t *f)
{
    ra_sf_out_t          o = { buf, 0, cap, 0 };
    const ra_sf_item_t  *it;
    ra_str_t             path, query, id, t = ra_cut(r->target);
    int                  has_query;
    unsigned             i;
    size_t               start, k;

    ra_sig_target(t, &path, &query, &has_query);
    for (i = 0; i < s->ncomp; i++) {
        it = &s->comp[i];
        id = it->v.raw;
        if ((int) i != s->agent_comp && it->nparams != 0) {
            return ra_fail(f, RA_SIG_UNCHECKED,
                           "a covered component has parameters this "
                           "verifier does not reconstruct");
        }
        ra_sf_put_item(&o, it);
        ra_outs(&o, ": ");
        start = o.len;
        if (ra_raw_eq(id, "@authority")) {
            ra_str_t  a, scheme;

            if (ra_sig_authority(r, &a, &scheme) != RA_OK) {
                return ra_fail(f, RA_SIG_INVALID, "the request target's "
                               "authority is empty or holds userinfo");
            }
            if (a.len == 0) {
                return ra_fail(f, RA_SIG_INVALID, "the request has no Host");
            }
            ra_out_authority(&o, r);
        } else if (ra_raw_eq(id, "@method")) {
            ra_sf_put(&o, r->method.data, r->method.len);
        } else if (ra_raw_eq(id, "@path")) {
            if (path.len == 0) {
                ra_outs(&o, "/");
            }
            ra_sf_put(&o, path.data, path.len);
        } else if (ra_raw_eq(id, "@query")) {
            ra_outs(&o, "?");
            ra_sf_put(&o, query.data, query.len);
        } else if (ra_raw_eq(id, "@request-target")) {
            ra_sf_put(&o, t.data, t.len);
        } else if (ra_raw_eq(id, "@scheme") || ra_raw_eq(id, "@target-uri"))
        {
            if (r->scheme.len == 0) {
                return ra_fail(f, RA_SIG_UNCHECKED,
                               "the request's scheme is not known");
            }
            ra_out_lower(&o, r->scheme);
            if (ra_raw_eq(id, "@target-uri")) {
                ra_outs(&o, "://");
                ra_out_authority(&o, r);
                if (path.len == 0) {
                    ra_outs(&o, "/");
                }
                ra_sf_put(&o, path.data, path.len);
                if (has_query) {
                    ra_outs(&o, "?");
                    ra_sf_put(&o, query.data, query.len);
                }
            }
        } else if ((int) i == s->agent_comp) {
            if (s->agent_legacy) {
                ra_str_t  v = ra_ows_trim(ra_cut(r->signature_agent));

                ra_sf_put(&o, v.data, v.len);
            } else {
                ra_sf_put_bare(&o, &s->agent);
            }
        } else {
            return ra_fail(f, RA_SIG_UNCHECKED,
                           "a covered component is not one this verifier "
                           "reconstructs");
        }
        for (k = start; k < o.len && !o.over; k++) {
            if (buf[k] == '\n' || buf[k] == '\r' || buf[k] == 0) {
                return ra_fail(f, RA_SIG_INVALID,
                               "a component value holds a line break");
            }
        }
        ra_outs(&o, "\n");
    }
    ra_outs(&o, "\"@signature-params\": (");
    for (i = 0; i < s->ncomp; i++) {
        if (i) {
            ra_outs(&o, " ");
        }
        ra_sf_put_item(&o, &s->comp[i]);
    }
    ra_outs(&o, ")");
    ra_sf_put_params(&o, s->params, s->nparams);
    if (o.over) {
        return ra_fail(f, RA_SIG_INVALID, "the signature base is too long");
    }
    return (int) o.len;
}

long
ra_sig_base(const ra_sig_request_t *r, unsigned char *buf, size_t cap,
    const char **why)
{
    ra_sig_parsed_t  s;
    ra_sig_fail_t    f;
    int              n;

    if (ra_sig_parse(r, &s, &f) != RA_OK) {
        *why = f.why;
        return -1;
    }
    n = ra_sig_build(r, &s, buf, cap, &f);
    if (n < 0) {
        *why = f.why;
        return -1;
    }
    return n;
}

/* Ed25519 over the base (after the key and the signature at buf[0..96),
 * for the cache's digest): 1, 0, or < 0 (f set) */
static int
ra_sig_ed25519(const ra_host_t *h, ra_sig_cache_t *cache, int64_t now,
    const unsigned char *buf, size_t len, ra_sig_fail_t *f)
{
    unsigned char  d[RA_SHA256_LEN];
    size_t         slot = 0;
    int            rc, cached = 0;

    if (h == NULL || h->ed25519_verify == NULL) {
        ra_fail(f, RA_SIG_UNCHECKED, "no Ed25519 verifier");
        return -1;
    }
    if (cache != NULL && h->sha256 != NULL
        && h->sha256(h, ra_str(buf, len), d) == RA_OK)
    {
        cached = 1;
        slot = ((size_t) d[0] << 8 | d[1]) % RA_SIG_CACHE_SLOTS;
        if (cache->result[slot] != 0
            && memcmp(cache->digest[slot], d + 2, 16) == 0)
        {
            cache->hits++;
            return cache->result[slot] - 1;
        }
    }
    if (cache != NULL) {
        if (now / 1000 != cache->second) {
            cache->second = now / 1000;
            cache->spent = 0;
        }
        if (cache->spent >= (cache->per_second ? cache->per_second
                                               : RA_SIG_VERIFY_PER_SEC))
        {
            cache->over_budget++;
            ra_fail(f, RA_SIG_UNCHECKED,
                    "over this process's budget of verifications a second");
            return -1;
        }
        cache->spent++;
        cache->verified++;
    }
    rc = h->ed25519_verify(h, buf, ra_str(buf + 96, len - 96), buf + 32);
    if (rc < 0) {
        ra_fail(f, RA_SIG_UNCHECKED, "the Ed25519 verifier failed");
        return -1;
    }
    if (cached) {
        memcpy(cache->digest[slot], d + 2, 16);
        cache->result[slot] = (uint8_t) (1 + (rc == 1));
    }
    return rc == 1;
}

static int
ra_sig_check(const ra_sig_keys_t *k, const ra_host_t *h,
    const ra_sig_request_t *r, const ra_sig_window_t *w, ra_sig_cache_t *cache,
    ra_sig_verdict_t *out, ra_sig_fail_t *f)
{
    ra_sig_parsed_t          s;
    const ra_sf_bare_t      *created, *expires, *keyid, *alg;
    const ra_sf_member_t    *sm;
    const ra_sig_key_t      *key;
    ra_sf_member_t           m[RA_SIG_MAX_MEMBERS];
    ra_sf_item_t             sv;
    ra_sf_cur_t              c;
    unsigned                 n, i;
    unsigned char            sig[RA_ED25519_SIG_LEN + 1];
    unsigned char            base[96 + RA_SIG_MAX_BASE];
    int64_t                  now, max_age, skew;
    int                      len, rc, authority = 0;

    if (ra_sig_parse(r, &s, f) != RA_OK) {
        if (f->result != RA_SIG_NONE) {
            out->label = s.label;
        }
        return RA_ERROR;
    }
    out->label = s.label;

    /* the profile: created, expires, keyid; ed25519 */
    created = ra_sf_param(s.params, s.nparams, "created");
    expires = ra_sf_param(s.params, s.nparams, "expires");
    keyid = ra_sf_param(s.params, s.nparams, "keyid");
    alg = ra_sf_param(s.params, s.nparams, "alg");
    if (created == NULL || created->type != RA_SF_INTEGER
        || expires == NULL || expires->type != RA_SF_INTEGER)
    {
        return ra_fail(f, RA_SIG_INVALID,
                       "created and expires are required Integers");
    }
    if (keyid == NULL || keyid->type != RA_SF_STRING) {
        return ra_fail(f, RA_SIG_INVALID, "keyid is a required String");
    }
    for (i = 0; i < s.ncomp; i++) {
        if (ra_raw_eq(s.comp[i].v.raw, "@authority")
            && s.comp[i].nparams == 0)
        {
            authority = 1;
        }
    }
    if (!authority) {
        return ra_fail(f, RA_SIG_INVALID, "@authority is not covered");
    }

    /* whose it says it is */
    if (ra_origin_host(ra_str(s.agent.raw.data, s.agent.raw.len),
                       &out->origin) != RA_OK)
    {
        out->origin = ra_str("", 0);
        return ra_fail(f, RA_SIG_INVALID,
                       "Signature-Agent is not an https URL");
    }

    /* the window, in seconds as the parameters are */
    now = w->now / 1000;
    max_age = (w->max_age > 0 ? w->max_age : RA_SIG_MAX_AGE_DEFAULT) / 1000;
    skew = (w->skew >= 0 ? w->skew : RA_SIG_SKEW_DEFAULT) / 1000;
    if (expires->i < created->i) {
        return ra_fail(f, RA_SIG_INVALID, "expires is before created");
    }
    if (created->i > now + skew) {
        return ra_fail(f, RA_SIG_INVALID, "created is in the future");
    }
    if (expires->i < now - skew) {
        return ra_fail(f, RA_SIG_INVALID, "the signature has expired");
    }
    if (now - created->i > max_age + skew) {
        return ra_fail(f, RA_SIG_INVALID,
                       "the signature is older than the maximum age");
    }

    /* whose key */
    if (alg != NULL && !ra_sf_is(alg, RA_SF_STRING, "ed25519")) {
        return ra_fail(f, RA_SIG_UNCHECKED, "an algorithm other than ed25519");
    }
    if (!ra_sig_keys_has_host(k, out->origin)) {
        return ra_fail(f, RA_SIG_UNCHECKED, "no keys for the origin");
    }
    key = ra_sig_key_find(k, out->origin, keyid->raw);
    if (key == NULL
        || (key->nbf && key->nbf > w->now) || (key->exp && key->exp < w->now))
    {
        return ra_fail(f, RA_SIG_UNCHECKED,
                       "keyid is not a current key of the origin");
    }

    /* the signature value */
    rc = ra_sf_dict(ra_cut(r->signature), RA_SIG_SF, m, RA_SIG_MAX_MEMBERS,
                    &n);
    if (rc != RA_OK) {
        return ra_fail(f, RA_SIG_INVALID,
                       "Signature is not a Structured Field Dictionary");
    }
    sm = ra_sf_dict_get(m, n, s.label);
    if (sm == NULL || sm->list || sm->bare) {
        return ra_fail(f, RA_SIG_INVALID, "Signature has no member for the "
                                          "label");
    }
    ra_sf_init_member(&c, sm, RA_SIG_SF);
    if (ra_sf_item(&c, &sv) != RA_OK || sv.v.type != RA_SF_BYTES
        || ra_b64_decode(sv.v.raw, 0, sig, sizeof(sig)) != RA_ED25519_SIG_LEN)
    {
        return ra_fail(f, RA_SIG_INVALID,
                       "the signature is not 64 bytes of base64");
    }

    /* the key, the signature, then the base: the cache's digest is over
     * all three */
    len = ra_sig_build(r, &s, base + 96, RA_SIG_MAX_BASE, f);
    if (len < 0) {
        return RA_ERROR;
    }
    memcpy(base, key->pub, RA_ED25519_KEY_LEN);
    memcpy(base + 32, sig, RA_ED25519_SIG_LEN);
    rc = ra_sig_ed25519(h, cache, w->now, base, 96 + (size_t) len, f);
    if (rc < 0) {
        return RA_ERROR;
    }
    if (rc == 0) {
        return ra_fail(f, RA_SIG_INVALID, "the signature does not verify");
    }
    return RA_OK;
}

int
ra_sig_verify(const ra_sig_keys_t *k, const ra_host_t *h,
    const ra_sig_request_t *r, const ra_sig_window_t *w, ra_sig_cache_t *cache,
    ra_sig_verdict_t *out)
{
    ra_sig_fail_t  f;

    memset(out, 0, sizeof(*out));
    if (!ra_sig_present(r)) {
        out->result = RA_SIG_NONE;
        out->why = "no signature";
        return out->result;
    }
    if (ra_sig_check(k, h, r, w, cache, out, &f) != RA_OK) {
        out->result = f.result;
        out->why = f.why;
        if (f.result == RA_SIG_NONE) {
            out->origin = ra_str("", 0);
        }
        return out->result;
    }
    out->result = RA_SIG_VALID;
    out->why = "";
    return out->result;
}

int
ra_sig_decide(const ra_crawler_t *c, const ra_sig_verdict_t *sv)
{
    if (c == NULL || c->nsig_agents == 0
        || (sv->result != RA_SIG_VALID && sv->result != RA_SIG_INVALID))
    {
        return -1;
    }
    return sv->result == RA_SIG_VALID && ra_crawler_signs_as(c, sv->origin)
           ? RA_VERIFY_VERIFIED : RA_VERIFY_IMPOSTOR;
}

const ra_crawler_t *
ra_sig_crawler(const ra_crawlers_t *t, const ra_sig_verdict_t *sv)
{
    return sv->result == RA_SIG_VALID
           ? ra_crawlers_find_signature_agent(t, sv->origin) : NULL;
}
