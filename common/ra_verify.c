/* SPDX-License-Identifier: BSD-2-Clause */
/* Address verification: see ra_verify.h. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <stdlib.h>
#include <string.h>

#include "ra_verify.h"

typedef struct {
    ra_str_t        name;
    ra_interval_t  *iv;
    size_t          n;
    int64_t         mtime;          /* its file's, in Unix ms; 0: unknown */
    unsigned        kind;           /* RA_RANGES_CRAWLER, RA_RANGES_CLOUD */
} ra_range_list_t;

struct ra_ranges_s {
    const ra_alloc_t  *alloc;
    ra_range_list_t    lists[RA_RANGES_MAX_LISTS];
    size_t             nlists;
};

#define RA_MAX_SECTIONS  16

/* The JSON handler's state: pass 1 counts, pass 2 stores. */
typedef struct {
    ra_interval_t  *all;            /* pass 2: the file's list */
    size_t          nall;
    ra_interval_t  *sec[RA_MAX_SECTIONS];
    size_t          nsec[RA_MAX_SECTIONS];
    ra_str_t        sec_name[RA_MAX_SECTIONS];
    size_t          nsections;
    int             cur_sec;        /* -1: not inside a section */
    int             in_sec_obj;
    uint8_t         is_obj[RA_JSON_MAX_DEPTH + 2];
    uint8_t         key_kind[RA_JSON_MAX_DEPTH + 2];
    ra_str_t        top_key;
    int             bad;            /* a prefix did not parse */
} ra_ranges_ctx_t;

#define RA_KEY_OTHER   0
#define RA_KEY_PREFIX  1            /* "ipv4Prefix", "ipv6Prefix" */
#define RA_KEY_LIST    2            /* "ipv4Prefixes", "ipv6Prefixes" */

/* The usual dotted quad without a copy or inet_pton(): four decimal
 * parts 0-255, no leading zero, nothing else.  A subset of what
 * inet_pton(AF_INET) takes, with its answer; 0 for anything else (the
 * caller asks inet_pton()). */
static int
ra_addr_quad(ra_str_t s, unsigned char v4[4])
{
    size_t     i = 0, part;
    unsigned   v, d;

    for (part = 0; part < 4; part++) {
        if (part != 0) {
            if (i == s.len || s.data[i] != '.') {
                return 0;
            }
            i++;
        }
        if (i == s.len || (v = (unsigned) s.data[i] - '0') > 9) {
            return 0;
        }
        i++;
        /* a 0 stands alone: a digit after it is no '.' below */
        if (v != 0 && i < s.len && (d = (unsigned) s.data[i] - '0') <= 9) {
            v = v * 10 + d;
            i++;
            if (i < s.len && (d = (unsigned) s.data[i] - '0') <= 9) {
                v = v * 10 + d;
                i++;
            }
        }
        if (v > 255) {
            return 0;
        }
        v4[part] = (unsigned char) v;
    }
    return i == s.len;
}

/* an IPv4 address as IPv6 holds it: ::ffff:a.b.c.d */
static void
ra_addr_mapped(ra_addr_t *out, const unsigned char v4[4])
{
    memset(out->b, 0, 10);
    out->b[10] = 0xff;
    out->b[11] = 0xff;
    memcpy(out->b + 12, v4, 4);
}

int
ra_addr_parse(ra_str_t s, ra_addr_t *out)
{
    char            buf[64];
    unsigned char   v4[4];

    if (s.len != 0 && ra_addr_quad(s, v4)) {
        ra_addr_mapped(out, v4);
        return RA_OK;
    }
    if (s.len == 0 || s.len >= sizeof(buf) || memchr(s.data, 0, s.len)) {
        return RA_ERROR;
    }
    memcpy(buf, s.data, s.len);
    buf[s.len] = '\0';
    if (inet_pton(AF_INET, buf, v4) == 1) {
        ra_addr_mapped(out, v4);
        return RA_OK;
    }
    if (inet_pton(AF_INET6, buf, out->b) == 1) {
        return RA_OK;
    }
    return RA_ERROR;
}

int
ra_addr_is_v4(const ra_addr_t *a)
{
    static const uint8_t  mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                         0xff, 0xff };

    return memcmp(a->b, mapped, 12) == 0;
}

int
ra_addr_from_sockaddr(const struct sockaddr *sa, ra_addr_t *out)
{
    memset(out, 0, sizeof(*out));
    if (sa->sa_family == AF_INET) {
        out->b[10] = out->b[11] = 0xff;
        memcpy(out->b + 12, &((const struct sockaddr_in *) sa)->sin_addr, 4);
        return RA_OK;
    }
    if (sa->sa_family == AF_INET6) {
        memcpy(out->b, &((const struct sockaddr_in6 *) sa)->sin6_addr, 16);
        return RA_OK;
    }
    return RA_ERROR;
}

size_t
ra_addr_to_sockaddr(const ra_addr_t *a, void *sa, size_t cap)
{
    struct sockaddr_in   *in = sa;
    struct sockaddr_in6  *in6 = sa;

    if (ra_addr_is_v4(a)) {
        if (cap < sizeof(*in)) {
            return 0;
        }
        memset(in, 0, sizeof(*in));
        in->sin_family = AF_INET;
        memcpy(&in->sin_addr, a->b + 12, 4);
        return sizeof(*in);
    }
    if (cap < sizeof(*in6)) {
        return 0;
    }
    memset(in6, 0, sizeof(*in6));
    in6->sin6_family = AF_INET6;
    memcpy(&in6->sin6_addr, a->b, 16);
    return sizeof(*in6);
}

static uint64_t
ra_be64(const uint8_t *p)
{
    uint64_t  v = 0;
    int       i;

    for (i = 0; i < 8; i++) {
        v = (v << 8) | p[i];
    }
    return v;
}

/* "addr/len" (len optional: a host) -> an interval. */
static int
ra_prefix_parse(ra_str_t s, int want_v4, ra_interval_t *iv)
{
    ra_addr_t   a;
    size_t      slash, i;
    unsigned    bits = 0, maxbits;
    uint64_t    hi, lo, mhi, mlo;

    for (slash = 0; slash < s.len && s.data[slash] != '/'; slash++) {
        /* void */
    }
    if (ra_addr_parse(ra_str(s.data, slash), &a) != RA_OK) {
        return RA_ERROR;
    }
    if (want_v4 >= 0 && ra_addr_is_v4(&a) != want_v4) {
        return RA_ERROR;
    }
    maxbits = ra_addr_is_v4(&a) ? 32 : 128;
    if (slash == s.len) {
        bits = maxbits;
    } else {
        if (slash + 1 == s.len || s.len - slash > 4) {
            return RA_ERROR;
        }
        for (i = slash + 1; i < s.len; i++) {
            if (!ra_isdigit(s.data[i])) {
                return RA_ERROR;
            }
            bits = bits * 10 + (s.data[i] - '0');
        }
        if (bits > maxbits) {
            return RA_ERROR;
        }
    }
    if (maxbits == 32) {
        bits += 96;
    }

    /* host mask for the last 128 - bits bits */
    mhi = bits >= 64 ? 0 : (bits == 0 ? ~0ULL : (~0ULL >> bits));
    mlo = bits >= 128 ? 0 : (bits <= 64 ? ~0ULL : (~0ULL >> (bits - 64)));
    hi = ra_be64(a.b);
    lo = ra_be64(a.b + 8);
    iv->lo_hi = hi & ~mhi;
    iv->lo_lo = lo & ~mlo;
    iv->hi_hi = hi | mhi;
    iv->hi_lo = lo | mlo;
    return RA_OK;
}

static int
ra_key_is(ra_str_t k, const char *lit)
{
    return k.len == strlen(lit) && memcmp(k.data, lit, k.len) == 0;
}

static void
ra_ranges_store(ra_ranges_ctx_t *c, const ra_interval_t *iv)
{
    if (c->all != NULL) {
        c->all[c->nall] = *iv;
    }
    c->nall++;
    if (c->cur_sec >= 0) {
        if (c->sec[c->cur_sec] != NULL) {
            c->sec[c->cur_sec][c->nsec[c->cur_sec]] = *iv;
        }
        c->nsec[c->cur_sec]++;
    }
}

static int
ra_ranges_event(void *ctx, unsigned event, ra_str_t raw, unsigned depth)
{
    ra_ranges_ctx_t  *c = ctx;
    ra_interval_t     iv;
    unsigned char     buf[64];
    unsigned          kind;
    long              n;
    size_t            i;

    switch (event) {

    case RA_JSON_OBJECT:
    case RA_JSON_ARRAY:
        /* the container opened at depth d holds its members at d + 1 */
        c->is_obj[depth + 1] = event == RA_JSON_OBJECT;
        if (depth == 1 && event == RA_JSON_OBJECT && c->is_obj[1]) {
            /* a top-level member that is an object: a section */
            for (i = 0; i < c->nsections; i++) {
                if (ra_strcaseeq(c->sec_name[i], c->top_key)) {
                    break;
                }
            }
            if (i == c->nsections && i < RA_MAX_SECTIONS) {
                c->sec_name[c->nsections++] = c->top_key;
            }
            c->cur_sec = i < RA_MAX_SECTIONS ? (int) i : -1;
        }
        return 0;

    case RA_JSON_END:
        if (depth == 1) {
            c->cur_sec = -1;
        }
        return 0;

    case RA_JSON_KEY:
        if (depth == 1) {
            c->top_key = raw;
        }
        c->key_kind[depth] = ra_key_is(raw, "ipv4Prefix")
                             || ra_key_is(raw, "ipv6Prefix") ? RA_KEY_PREFIX
                             : ra_key_is(raw, "ipv4Prefixes")
                               || ra_key_is(raw, "ipv6Prefixes")
                             ? RA_KEY_LIST : RA_KEY_OTHER;
        return 0;

    case RA_JSON_STRING:
        if (depth == 0) {
            return 0;
        }
        if (c->is_obj[depth]) {
            kind = c->key_kind[depth] == RA_KEY_PREFIX;
        } else {
            kind = depth >= 2 && c->is_obj[depth - 1]
                   && c->key_kind[depth - 1] == RA_KEY_LIST;
        }
        if (!kind) {
            return 0;
        }
        n = ra_json_unescape(raw, buf, sizeof(buf));
        if (n < 0 || ra_prefix_parse(ra_str(buf, (size_t) n), -1, &iv)
                     != RA_OK)
        {
            c->bad = 1;
            return RA_ERROR;
        }
        if (c->nall >= RA_RANGES_MAX_PREFIXES) {
            return RA_ELIMIT;
        }
        ra_ranges_store(c, &iv);
        return 0;

    default:
        return 0;
    }
}

static int
ra_interval_cmp(const void *a, const void *b)
{
    const ra_interval_t  *x = a, *y = b;

    if (x->lo_hi != y->lo_hi) {
        return x->lo_hi < y->lo_hi ? -1 : 1;
    }
    if (x->lo_lo != y->lo_lo) {
        return x->lo_lo < y->lo_lo ? -1 : 1;
    }
    return 0;
}

/* Sorts and merges overlapping or adjacent intervals in place. */
static size_t
ra_intervals_merge(ra_interval_t *iv, size_t n)
{
    size_t  i, m = 0;

    if (n == 0) {
        return 0;
    }
    qsort(iv, n, sizeof(ra_interval_t), ra_interval_cmp);
    for (i = 1; i < n; i++) {
        ra_interval_t  *last = &iv[m];
        uint64_t        nh = last->hi_hi, nl = last->hi_lo + 1;

        if (nl == 0) {
            nh++;                  /* last->hi + 1, carried */
        }
        /* overlapping or adjacent: iv[i].lo <= last.hi + 1 (and last.hi
         * is not the very last address, where + 1 wraps to 0) */
        if ((last->hi_hi == ~0ULL && last->hi_lo == ~0ULL)
            || iv[i].lo_hi < nh || (iv[i].lo_hi == nh && iv[i].lo_lo <= nl))
        {
            if (iv[i].hi_hi > last->hi_hi
                || (iv[i].hi_hi == last->hi_hi && iv[i].hi_lo > last->hi_lo))
            {
                last->hi_hi = iv[i].hi_hi;
                last->hi_lo = iv[i].hi_lo;
            }
            continue;
        }
        iv[++m] = iv[i];
    }
    return m + 1;
}

ra_ranges_t *
ra_ranges_create(const ra_alloc_t *a)
{
    ra_ranges_t  *r = ra_alloc(a, sizeof(ra_ranges_t));

    if (r != NULL) {
        memset(r, 0, sizeof(ra_ranges_t));
        r->alloc = a;
    }
    return r;
}

static int
ra_ranges_push(ra_ranges_t *r, ra_str_t name, const char *suffix,
    ra_interval_t *iv, size_t n)
{
    ra_range_list_t  *l;
    unsigned char    *p;
    size_t            sl = suffix ? strlen(suffix) : 0;

    if (r->nlists == RA_RANGES_MAX_LISTS) {
        return RA_ELIMIT;
    }
    p = ra_alloc(r->alloc, name.len + sl);
    if (p == NULL) {
        return RA_ENOMEM;
    }
    memcpy(p, name.data, name.len);
    memcpy(p + name.len, suffix ? suffix : "", sl);
    l = &r->lists[r->nlists++];
    l->name = ra_str(p, name.len + sl);
    l->iv = iv;
    l->n = ra_intervals_merge(iv, n);
    return RA_OK;
}

int
ra_ranges_add_json(ra_ranges_t *r, ra_str_t name, ra_str_t json,
    ra_json_err_t *err)
{
    ra_ranges_ctx_t   c;
    size_t            i, nsec, total;
    int               rc;

    err->offset = 0;
    err->msg = NULL;
    if (json.len > RA_RANGES_MAX_FILE) {
        err->msg = "range file larger than 16 MiB";
        return RA_ELIMIT;
    }

    /* pass 1: validate and count */
    memset(&c, 0, sizeof(c));
    c.cur_sec = -1;
    rc = ra_json_parse(json, ra_ranges_event, &c, err);
    if (rc != RA_OK) {
        if (err->msg == NULL) {
            err->msg = c.bad ? "bad IP prefix"
                             : rc == RA_ELIMIT ? "too many prefixes" : "error";
        }
        return rc == RA_ELIMIT ? RA_ELIMIT : RA_ERROR;
    }
    if (c.nall == 0) {
        err->msg = "no ipv4Prefix/ipv6Prefix in the file";
        return RA_ERROR;
    }
    nsec = 0;
    for (i = 0; i < c.nsections; i++) {
        nsec += c.nsec[i] > 0;
    }
    if (r->nlists + 1 + nsec > RA_RANGES_MAX_LISTS) {
        err->msg = "too many range lists";
        return RA_ELIMIT;
    }

    /* pass 2: store into arrays of the counted sizes */
    total = c.nall;
    for (i = 0; i < c.nsections; i++) {
        total += c.nsec[i];
    }
    {
        ra_interval_t  *mem;
        size_t          off;
        ra_ranges_ctx_t c2;

        mem = ra_alloc(r->alloc, total * sizeof(ra_interval_t));
        if (mem == NULL) {
            return RA_ENOMEM;
        }
        memset(&c2, 0, sizeof(c2));
        c2.cur_sec = -1;
        c2.all = mem;
        off = c.nall;
        for (i = 0; i < c.nsections; i++) {
            c2.sec[i] = mem + off;
            off += c.nsec[i];
        }
        (void) ra_json_parse(json, ra_ranges_event, &c2, err);

        rc = ra_ranges_push(r, name, NULL, c2.all, c2.nall);
        for (i = 0; rc == RA_OK && i < c2.nsections; i++) {
            if (c2.nsec[i] > 0) {
                rc = ra_ranges_push(r, c2.sec_name[i], ".json", c2.sec[i],
                                    c2.nsec[i]);
            }
        }
        return rc;
    }
}

/* A walk's two passes: count (iv NULL), then store into iv. */
typedef struct {
    ra_interval_t  *iv;
    size_t          n;
    size_t          cap;            /* prefixes it may take */
} ra_ranges_walk_t;

static int
ra_ranges_walk_each(void *ctx, ra_str_t prefix, int v4)
{
    ra_ranges_walk_t  *w = ctx;
    ra_interval_t      iv;

    if (ra_prefix_parse(prefix, v4, &iv) != RA_OK) {
        return RA_ERROR;
    }
    if (w->n >= w->cap) {
        return RA_ELIMIT;
    }
    if (w->iv != NULL) {
        w->iv[w->n] = iv;
    }
    w->n++;
    return 0;
}

int
ra_ranges_add_walk(ra_ranges_t *r, ra_str_t name, unsigned kind,
    ra_str_t text, ra_ranges_walk_pt walk, const void *how,
    ra_json_err_t *err)
{
    ra_ranges_walk_t  w;
    size_t            counted;
    int               rc;

    err->offset = 0;
    err->msg = NULL;
    if (text.len > RA_RANGES_MAX_FILE) {
        err->msg = "range file larger than 16 MiB";
        return RA_ELIMIT;
    }
    if (r->nlists == RA_RANGES_MAX_LISTS) {
        err->msg = "too many range lists";
        return RA_ELIMIT;
    }
    memset(&w, 0, sizeof(w));
    w.cap = RA_RANGES_MAX_PREFIXES;
    rc = walk(how, text, ra_ranges_walk_each, &w, err);
    if (rc != RA_OK) {
        if (err->msg == NULL) {
            err->msg = rc == RA_ELIMIT ? "too many prefixes"
                                       : "bad IP prefix";
        }
        return rc == RA_ELIMIT || rc == RA_ENOMEM ? rc : RA_ERROR;
    }
    if (w.n == 0) {
        err->msg = "no IP prefix in the file";
        return RA_ERROR;
    }
    counted = w.n;
    w.iv = ra_alloc(r->alloc, counted * sizeof(ra_interval_t));
    if (w.iv == NULL) {
        return RA_ENOMEM;
    }
    w.n = 0;
    w.cap = counted;
    /* the same text walks the same way: only a walk that is not
     * deterministic could differ, and nothing is kept then */
    if (walk(how, text, ra_ranges_walk_each, &w, err) != RA_OK
        || w.n != counted)
    {
        ra_free(r->alloc, w.iv);
        err->msg = "the file read differently twice";
        return RA_ERROR;
    }
    rc = ra_ranges_push(r, name, NULL, w.iv, w.n);
    if (rc == RA_OK) {
        r->lists[r->nlists - 1].kind = kind;
    }
    return rc;
}

int
ra_ranges_find(const ra_ranges_t *r, ra_str_t name)
{
    size_t  i;

    if (r == NULL) {
        return -1;
    }
    /* the latest list of a name wins: a reload appends */
    for (i = r->nlists; i-- > 0; ) {
        if (ra_strcaseeq(r->lists[i].name, name)) {
            return (int) i;
        }
    }
    return -1;
}

size_t
ra_ranges_lists(const ra_ranges_t *r)
{
    return r ? r->nlists : 0;
}

ra_str_t
ra_ranges_name(const ra_ranges_t *r, size_t list)
{
    return r->lists[list].name;
}

size_t
ra_ranges_intervals(const ra_ranges_t *r, size_t list)
{
    return r->lists[list].n;
}

void
ra_ranges_set_mtime(ra_ranges_t *r, size_t from, int64_t mtime)
{
    size_t  i;

    for (i = from; i < r->nlists; i++) {
        r->lists[i].mtime = mtime;
    }
}

int64_t
ra_ranges_mtime(const ra_ranges_t *r, size_t list)
{
    return r->lists[list].mtime;
}

int64_t
ra_ranges_age(const ra_ranges_t *r, size_t list, int64_t now)
{
    int64_t  m = r->lists[list].mtime;

    if (m <= 0) {
        return -1;
    }
    return now > m ? now - m : 0;
}

int
ra_ranges_stale(const ra_ranges_t *r, size_t list, int64_t now)
{
    return ra_ranges_age(r, list, now) > RA_RANGES_STALE_MS;
}

size_t
ra_intervals_find(const ra_interval_t *iv, size_t n, const ra_addr_t *a)
{
    size_t    lo = 0, hi = n, mid;
    uint64_t  ah = ra_be64(a->b), al = ra_be64(a->b + 8);

    /* the last interval starting at or before a */
    while (lo < hi) {
        mid = lo + (hi - lo) / 2;
        if (iv[mid].lo_hi < ah || (iv[mid].lo_hi == ah && iv[mid].lo_lo <= al))
        {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    if (lo == 0) {
        return 0;
    }
    iv += lo - 1;
    return ah < iv->hi_hi || (ah == iv->hi_hi && al <= iv->hi_lo) ? lo : 0;
}

int
ra_ranges_contains(const ra_ranges_t *r, size_t list, const ra_addr_t *a)
{
    return ra_intervals_find(r->lists[list].iv, r->lists[list].n, a) != 0;
}

const ra_interval_t *
ra_ranges_list_intervals(const ra_ranges_t *r, size_t list, size_t *n)
{
    *n = r->lists[list].n;
    return r->lists[list].iv;
}

unsigned
ra_ranges_kind(const ra_ranges_t *r, size_t list)
{
    return r->lists[list].kind;
}

int
ra_verify(const ra_ranges_t *r, const ra_crawler_t *c, const ra_addr_t *a)
{
    size_t  i;
    int     l, loaded = 0;

    if (r == NULL || c == NULL) {
        return RA_VERIFY_UNVERIFIABLE;
    }
    for (i = 0; i < c->nranges; i++) {
        l = ra_ranges_find(r, c->ranges[i]);
        if (l < 0 || r->lists[l].kind != RA_RANGES_CRAWLER) {
            continue;           /* a cloud's addresses are anyone's */
        }
        loaded = 1;
        if (ra_ranges_contains(r, (size_t) l, a)) {
            return RA_VERIFY_VERIFIED;
        }
    }
    return loaded ? RA_VERIFY_IMPOSTOR : RA_VERIFY_UNVERIFIABLE;
}

int
ra_verify_means(const ra_ranges_t *r, const ra_crawler_t *c, int resolver)
{
    size_t  i;
    int     l;

    if (c == NULL || (c->nranges == 0 && c->nrdns == 0
                      && c->nsig_agents == 0))
    {
        return RA_VERIFY_MEANS_NONE;
    }
    for (i = 0; r != NULL && i < c->nranges; i++) {
        l = ra_ranges_find(r, c->ranges[i]);
        if (l >= 0 && r->lists[l].kind == RA_RANGES_CRAWLER) {
            return RA_VERIFY_MEANS_HERE;
        }
    }
    return c->nrdns > 0 && resolver ? RA_VERIFY_MEANS_HERE
                                    : RA_VERIFY_MEANS_MISSING;
}

int
ra_verify_has_rdns(const ra_crawler_t *c)
{
    return c != NULL && c->nrdns > 0;
}

int
ra_verify_rdns_check(const ra_crawler_t *c, const ra_addr_t *client,
    ra_str_t ptr_name, const ra_addr_t *forward, size_t nforward)
{
    ra_str_t  sfx, tail;
    size_t    i;
    int       named = 0;

    if (!ra_verify_has_rdns(c)) {
        return RA_VERIFY_UNVERIFIABLE;
    }
    if (ptr_name.len && ptr_name.data[ptr_name.len - 1] == '.') {
        ptr_name.len--;
    }
    /* ".googlebot.com" and "googlebot.com" both mean the domain: the
     * name itself or any name under it */
    for (i = 0; i < c->nrdns && !named; i++) {
        sfx = c->rdns[i];
        if (sfx.len && sfx.data[0] == '.') {
            sfx.data++;
            sfx.len--;
        }
        if (sfx.len == 0 || ptr_name.len < sfx.len) {
            continue;
        }
        tail = ra_str(ptr_name.data + ptr_name.len - sfx.len, sfx.len);
        named = ra_strcaseeq(tail, sfx)
                && (ptr_name.len == sfx.len
                    || ptr_name.data[ptr_name.len - sfx.len - 1] == '.');
    }
    if (!named) {
        return RA_VERIFY_IMPOSTOR;
    }
    for (i = 0; i < nforward; i++) {
        if (memcmp(forward[i].b, client->b, 16) == 0) {
            return RA_VERIFY_VERIFIED;
        }
    }
    return RA_VERIFY_IMPOSTOR;
}

const char *
ra_verify_name(int v)
{
    return v == RA_VERIFY_VERIFIED ? "verified"
           : v == RA_VERIFY_IMPOSTOR ? "impostor" : "unverifiable";
}


const char *
ra_verified_by_name(int m)
{
    return m == RA_VERIFIED_BY_RANGES ? "ranges"
           : m == RA_VERIFIED_BY_RDNS ? "rdns"
           : m == RA_VERIFIED_BY_SIGNATURE ? "signature" : "";
}
