/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * JSON access logs read through a map of key paths: Caddy's default
 * access log (fields nested under "request", headers as arrays), Traefik's
 * JSON access log, Cloudflare Logpush http_requests, and any other JSON
 * log through --json-fields.  A map is "kind=path,..." compiled into a
 * format's items (a path's bytes in its text); a line is read by the
 * project's JSON parser, one event at a time, and each scalar whose key
 * path matches an item fills the record, a span into the line as the
 * other formats give.
 */
#include <string.h>

#include "ra_accesslog_impl.h"
#include "ra_json.h"

/* Caddy: client_ip is the client behind trusted proxies, remote_ip the
 * peer; ts is epoch seconds with a fraction */
static const char  ra_log_caddy[] =
    "client=request.client_ip,client=request.remote_ip,time=ts,"
    "method=request.method,uri=request.uri,host=request.host,"
    "ua=request.headers.User-Agent,referer=request.headers.Referer,"
    "status=status,bytes=size";

/* Traefik: header fields are "request_<Name>" (kept when fields.headers
 * says so); StartUTC is RFC 3339 with nanoseconds */
static const char  ra_log_traefik[] =
    "client=ClientHost,client=ClientAddr,time=StartUTC,time=StartLocal,"
    "time=time,method=RequestMethod,uri=RequestPath,host=RequestHost,"
    "ua=request_User-Agent,referer=request_Referer,"
    "status=DownstreamStatus,bytes=DownstreamContentSize";

/* Cloudflare: EdgeStartTimestamp is ns, ms, s or RFC 3339 as the job's
 * timestamps option says */
static const char  ra_log_cloudflare[] =
    "client=ClientIP,time=EdgeStartTimestamp,method=ClientRequestMethod,"
    "uri=ClientRequestURI,host=ClientRequestHost,"
    "ua=ClientRequestUserAgent,referer=ClientRequestReferer,"
    "status=EdgeResponseStatus,bytes=EdgeResponseBytes";

static unsigned
ra_log_json_kind(ra_str_t n)
{
    static const struct {
        const char  *name;
        unsigned     kind;
    } kinds[] = {
        { "client", RA_LF_ADDR }, { "time", RA_LF_TIME_ANY },
        { "method", RA_LF_METHOD }, { "uri", RA_LF_URI },
        { "status", RA_LF_STATUS }, { "ua", RA_LF_UA },
        { "host", RA_LF_HOST }, { "referer", RA_LF_REFERER },
        { "bytes", RA_LF_BYTES },
    };
    size_t  i;

    for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
        if (n.len == strlen(kinds[i].name)
            && memcmp(n.data, kinds[i].name, n.len) == 0)
        {
            return kinds[i].kind;
        }
    }
    return RA_LF_SKIP;
}

int
ra_logfmt_json_fields(ra_str_t spec, ra_logfmt_t *f, const char **err)
{
    const unsigned char  *p = spec.data, *end = spec.data + spec.len;
    const unsigned char  *comma, *eq;
    ra_logitem_t         *it;
    unsigned              kind;
    size_t                tlen = 0, plen;

    memset(f, 0, sizeof(*f));
    f->format = RA_LOG_JSONMAP;
    while (p < end) {
        comma = memchr(p, ',', (size_t) (end - p));
        if (comma == NULL) {
            comma = end;
        }
        eq = memchr(p, '=', (size_t) (comma - p));
        if (eq == NULL || eq + 1 == comma) {
            *err = "each field is KIND=KEY (client, time, method, uri, "
                   "status, ua, host, referer, bytes)";
            return RA_ERROR;
        }
        kind = ra_log_json_kind(ra_str(p, (size_t) (eq - p)));
        if (kind == RA_LF_SKIP) {
            *err = "a field is one of client, time, method, uri, status, "
                   "ua, host, referer, bytes";
            return RA_ERROR;
        }
        plen = (size_t) (comma - eq - 1);
        if (f->nitems == RA_LOGFMT_ITEMS || tlen + plen > RA_LOGFMT_TEXT) {
            *err = "too many fields, or keys too long";
            return RA_ERROR;
        }
        it = &f->items[f->nitems++];
        it->kind = (uint8_t) kind;
        it->quoted = 0;
        it->off = (uint16_t) tlen;
        it->len = (uint16_t) plen;
        memcpy(f->text + tlen, eq + 1, plen);
        tlen += plen;
        f->fields |= 1u << kind;
        p = comma + 1;
    }
    if ((f->fields & (1u << RA_LF_ADDR)) == 0
        || (f->fields & (1u << RA_LF_TIME_ANY)) == 0
        || (f->fields & (1u << RA_LF_METHOD)) == 0
        || (f->fields & (1u << RA_LF_URI)) == 0
        || (f->fields & (1u << RA_LF_STATUS)) == 0)
    {
        *err = "client, time, method, uri and status are needed";
        return RA_ERROR;
    }
    return RA_OK;
}

void
ra_log_json_named(ra_log_format_e which, ra_logfmt_t *f)
{
    const char  *spec, *err;

    spec = which == RA_LOG_CADDY ? ra_log_caddy
           : which == RA_LOG_TRAEFIK ? ra_log_traefik : ra_log_cloudflare;
    (void) ra_logfmt_json_fields(ra_str(spec, strlen(spec)), f, &err);
    f->format = which;
}

/* ---- reading a line ---------------------------------------------------- */

typedef struct {
    ra_str_t  key;              /* an object's current key */
    uint8_t   array;
    uint8_t   first;            /* every enclosing array at its first */
    uint32_t  n;                /* an array's values so far */
} ra_log_jframe_t;

typedef struct {
    const ra_logfmt_t  *f;
    ra_logrec_t        *rec;
    ra_log_jframe_t     fr[RA_JSON_MAX_DEPTH + 1];
    uint8_t             setby[32];      /* per kind: the item + 1 */
    unsigned            escaped;
} ra_log_jctx_t;

/* Does the path of items[i] name the value at depth d? */
static int
ra_log_jpath(const ra_log_jctx_t *j, const ra_logitem_t *it, unsigned d)
{
    const unsigned char  *p = j->f->text + it->off, *end = p + it->len, *dot;
    unsigned              l;

    for (l = 0; l < d; l++) {
        if (j->fr[l].array) {
            continue;               /* an array stands for its first */
        }
        if (p > end) {
            return 0;
        }
        dot = memchr(p, '.', (size_t) (end - p));
        if (dot == NULL) {
            dot = end;
        }
        if (!ra_strcaseeq(j->fr[l].key, ra_str(p, (size_t) (dot - p)))) {
            return 0;
        }
        p = dot + 1;
    }
    return p == end + 1;
}

/* Is the value about to start at depth d the first of every enclosing
 * array?  Counts it in its array. */
static int
ra_log_jfirst(ra_log_jctx_t *j, unsigned d)
{
    ra_log_jframe_t  *up;
    int               first;

    if (d == 0) {
        return 1;
    }
    up = &j->fr[d - 1];
    first = up->first && (!up->array || up->n == 0);
    if (up->array) {
        up->n++;
    }
    return first;
}

static int
ra_log_jevent(void *ctx, unsigned event, ra_str_t raw, unsigned depth)
{
    ra_log_jctx_t       *j = ctx;
    const ra_logitem_t  *it;
    unsigned             i, kind;
    int                  first;

    if (depth > RA_JSON_MAX_DEPTH) {
        return RA_ERROR;
    }
    switch (event) {
    case RA_JSON_OBJECT:
    case RA_JSON_ARRAY:
        first = ra_log_jfirst(j, depth);
        j->fr[depth].array = event == RA_JSON_ARRAY;
        j->fr[depth].first = (uint8_t) first;
        j->fr[depth].n = 0;
        j->fr[depth].key = ra_str(NULL, 0);
        return RA_OK;
    case RA_JSON_KEY:
        j->fr[depth - 1].key = raw;
        return RA_OK;
    case RA_JSON_END:
        return RA_OK;
    }
    if (depth == 0) {
        return RA_ERROR;                /* not an object */
    }
    if (!ra_log_jfirst(j, depth)
        || (event == RA_JSON_LITERAL && raw.len != 4)) /* true, false */
    {
        return RA_OK;
    }
    for (i = 0; i < j->f->nitems; i++) {
        it = &j->f->items[i];
        kind = it->kind;
        if ((j->setby[kind] != 0 && j->setby[kind] <= i + 1)
            || !ra_log_jpath(j, it, depth))
        {
            continue;
        }
        if (event == RA_JSON_LITERAL) {
            return RA_OK;               /* null: absent, a later key may */
        }
        if (memchr(raw.data, '\\', raw.len) != NULL) {
            j->escaped = 1;
        }
        if (ra_log_field(j->rec, kind, raw) != RA_OK) {
            return RA_ERROR;
        }
        j->setby[kind] = (uint8_t) (i + 1);
        return RA_OK;
    }
    return RA_OK;
}

int
ra_log_jsonmap(const ra_logfmt_t *f, ra_str_t line, ra_logrec_t *rec)
{
    ra_log_jctx_t  j;

    ra_log_rec_init(rec, line.data);
    memset(j.setby, 0, sizeof(j.setby));
    j.f = f;
    j.rec = rec;
    j.escaped = 0;
    if (ra_json_parse(line, ra_log_jevent, &j, NULL) != RA_OK) {
        return RA_ERROR;
    }
    rec->escaped = j.escaped;
    rec->format = f->format;
    return ra_log_finish(rec, f->fields & ~(1u << RA_LF_REQUEST));
}
