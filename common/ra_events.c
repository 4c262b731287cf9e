/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The event stream (ra_events.h): writing a line per judged request and
 * per robots.txt answer, sending it without ever waiting, and reading it
 * back, bounded and strict, in the collector.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>

#include "ra_events.h"
#include "ra_digest.h"
#include "ra_json.h"
#include "ra_parse.h"
#include "ra_sig.h"
#include "ra_verify.h"

int
ra_events_on(const ra_events_t *w)
{
    return w != NULL && ra_logfile_open(&w->log);
}

static void
ra_events_key(ra_buf_t *b, const char *key, ra_str_t v)
{
    ra_buf_printf(b, ",\"%s\":", key);
    ra_buf_json_str(b, v);
}

static void
ra_events_sha(ra_buf_t *b, const char *key, const unsigned char *sha)
{
    char  hex[2 * RA_SHA256_LEN + 1];

    if (sha == NULL) {
        ra_buf_printf(b, ",\"%s\":null", key);
        return;
    }
    ra_hex(sha, RA_SHA256_LEN, hex);
    ra_buf_printf(b, ",\"%s\":\"%s\"", key, hex);
}

/* The fields every event has: who asked what of which site, and when. */
static void
ra_events_head(ra_buf_t *b, const char *kind, int64_t t, ra_str_t site,
    const ra_request_t *r)
{
    ra_str_t  none = ra_str("", 0);

    ra_buf_printf(b, "{\"ev\":\"%s\",\"t\":%lld", kind, (long long) t);
    ra_events_key(b, "site", site);
    ra_events_key(b, "client", r ? r->addr : none);
    ra_events_key(b, "ua", r ? r->user_agent : none);
    ra_events_key(b, "method", r ? r->method : none);
    ra_events_key(b, "uri", r ? r->uri : none);
}

void
ra_events_request_line(ra_buf_t *b, const ra_request_t *r,
    const ra_verdict_t *v)
{
    ra_events_head(b, "req", r->time, r->site, r);
    ra_events_key(b, "referer", r->referer);
    ra_buf_printf(b, ",\"status\":%d,\"rec\":%u,\"verdict\":\"%s\","
                  "\"verification\":\"%s\"", r->status, r->recorded ? 1 : 0,
                  ra_verdict_name(v->verdict),
                  ra_verify_name((int) v->verification));
    ra_events_sha(b, "robots_sha256", v->sha_known ? v->robots_sha256 : NULL);
    ra_buf_cstr(b, "}\n");
}

void
ra_events_robots_line(ra_buf_t *b, ra_str_t site, const ra_answer_t *ans,
    const unsigned char *sha, int with_body, int64_t now)
{
    size_t  n, at;

    ra_events_head(b, "robots", now, site, ans->req);
    ra_buf_printf(b, ",\"status\":%d,\"hop\":%u,\"initial\":%u", ans->status,
                  ans->hop, ans->initial ? 1 : 0);
    ra_events_key(b, "type", ans->content_type);
    ra_events_key(b, "location", ans->location);
    ra_buf_printf(b, ",\"size\":%llu,\"truncated\":%u,\"undecodable\":%u",
                  (unsigned long long) (ans->size ? ans->size
                                                  : ans->body.len),
                  ans->truncated ? 1 : 0, ans->undecodable ? 1 : 0);
    ra_events_sha(b, "sha256", sha);
    if (with_body && sha != NULL) {
        n = ans->body.len;
        ra_buf_cstr(b, ",\"body\":\"");
        if (ra_buf_reserve(b, (4 * n + 2) / 3 + 1)) {
            at = b->len;
            b->len += ra_base64url_encode(ans->body.data, n,
                                          (char *) b->data + at);
        }
        ra_buf_ch(b, '"');
    }
    ra_buf_cstr(b, "}\n");
}

/* The table's slot of the body sha. */
static unsigned
ra_events_slot(const unsigned char *sha)
{
    return (sha[0] | (unsigned) sha[1] << 8) % RA_EVENTS_BODY_SLOTS;
}

int
ra_events_body_due(ra_events_t *w, const unsigned char *sha, int64_t now)
{
    unsigned  k = ra_events_slot(sha);
    int       due = 1;

    /* one thread at the table; another sends the body again (a few bytes
     * more on the wire) rather than wait for it */
    if (__atomic_exchange_n(&w->busy, 1, __ATOMIC_ACQUIRE)) {
        return 1;
    }
    if (w->sent_at[k] != 0 && memcmp(w->sent[k], sha, 32) == 0
        && now - w->sent_at[k] < RA_EVENTS_BODY_RESEND)
    {
        due = 0;
    } else {
        memcpy(w->sent[k], sha, 32);
        w->sent_at[k] = now ? now : 1;
    }
    __atomic_store_n(&w->busy, 0, __ATOMIC_RELEASE);
    return due;
}

/* The body sha did not go out after all: due at the next answer. */
static void
ra_events_body_unsent(ra_events_t *w, const unsigned char *sha)
{
    unsigned  k = ra_events_slot(sha);

    if (__atomic_exchange_n(&w->busy, 1, __ATOMIC_ACQUIRE)) {
        return;
    }
    if (memcmp(w->sent[k], sha, 32) == 0) {
        w->sent_at[k] = 0;
    }
    __atomic_store_n(&w->busy, 0, __ATOMIC_RELEASE);
}

void
ra_events_begin(ra_buf_t *b)
{
    if (ra_buf_reserve(b, RA_EVENTS_HEADROOM + 1)) {
        memset(b->data, ' ', RA_EVENTS_HEADROOM);
        b->len = RA_EVENTS_HEADROOM;
    }
}

const char *
ra_events_outcome_name(unsigned outcome)
{
    static const char  *const names[] = { "sent", "dropped", "oversize" };

    return outcome < 3 ? names[outcome] : "";
}

/* Counts outcome in w's own numbers, which threads share. */
static unsigned
ra_events_tally(ra_events_t *w, unsigned outcome)
{
    uint64_t  *n = outcome == RA_EVENTS_SENT ? &w->written
                   : outcome == RA_EVENTS_OVERSIZE ? &w->oversize
                   : &w->dropped;

    __atomic_fetch_add(n, 1, __ATOMIC_RELAXED);
    return outcome;
}

unsigned
ra_events_put(ra_events_t *w, ra_buf_t *b)
{
    unsigned char  *p;
    size_t          n, want;
    int             err, owed;

    if (b->failed || b->truncated || b->len <= RA_EVENTS_HEADROOM) {
        return ra_events_tally(w, RA_EVENTS_DROPPED);
    }
    p = b->data + RA_EVENTS_HEADROOM;
    want = b->len - RA_EVENTS_HEADROOM;
    if (w->most != 0 && want > w->most) {
        /* a datagram would refuse it or a relay cut it: broken JSON at
         * the collector either way */
        return ra_events_tally(w, RA_EVENTS_OVERSIZE);
    }
    owed = __atomic_exchange_n(&w->owed, 0, __ATOMIC_ACQ_REL);
    if (owed) {
        /* the torn line before ends here, so that this one reads whole;
         * the headroom has a byte for it */
        *--p = '\n';
        want++;
    }
    n = want;
    err = w->log.write(w->log.file, p, &n);
    if (err == EINTR) {
        n = want;
        err = w->log.write(w->log.file, p, &n);
    }
    if (err == 0 && n == want) {
        return ra_events_tally(w, RA_EVENTS_SENT);
    }
    /* a full socket or pipe: the line is lost, never waited for; a part
     * written leaves a torn line the reader refuses, and a newline owed
     * and not written is owed still */
    if ((err == 0 && n > 0) || owed) {
        __atomic_store_n(&w->owed, 1, __ATOMIC_RELEASE);
    }
    return ra_events_tally(w, RA_EVENTS_DROPPED);
}

int
ra_events_send(ra_events_t *w, ra_buf_t *b, unsigned *lost)
{
    if (ra_events_put(w, b) == RA_EVENTS_SENT) {
        return RA_OK;
    }
    if (lost != NULL) {
        (*lost)++;
    }
    return RA_ERROR;
}

void
ra_events_nowait(int fd)
{
    int  fl = fcntl(fd, F_GETFL);

    if (fl != -1) {
        (void) fcntl(fd, F_SETFL, fl | O_NONBLOCK);
    }
}

int
ra_events_request(ra_events_t *w, const ra_alloc_t *a, const ra_request_t *r,
    const ra_verdict_t *v)
{
    ra_buf_t  b;
    unsigned  outcome;

    if (!ra_events_on(w)) {
        return -1;
    }
    ra_buf_init(&b, a, 1024, RA_EVENTS_HEADROOM + RA_EVENTS_LINE_MAX);
    ra_events_begin(&b);
    ra_events_request_line(&b, r, v);
    outcome = ra_events_put(w, &b);
    ra_buf_release(&b);
    return (int) outcome;
}

int
ra_events_robots(ra_events_t *w, const ra_alloc_t *a, ra_str_t site,
    const ra_answer_t *ans, int64_t now)
{
    ra_buf_t        b;
    unsigned char   sha[RA_SHA256_LEN];
    int             known, body;
    unsigned        outcome;

    if (!ra_events_on(w)) {
        return -1;
    }
    known = ra_sha256(ans->body, sha) == RA_OK;
    body = known && ans->status >= 200 && ans->status < 300
           && !ans->undecodable && ra_events_body_due(w, sha, now);
    ra_buf_init(&b, a, 1024 + ans->body.len / 3 * 4,
                RA_EVENTS_HEADROOM + RA_EVENTS_LINE_MAX);
    ra_events_begin(&b);
    ra_events_robots_line(&b, site, ans, known ? sha : NULL, body, now);
    outcome = ra_events_put(w, &b);
    ra_buf_release(&b);
    if (body && outcome != RA_EVENTS_SENT) {
        ra_events_body_unsent(w, sha);
    }
    return (int) outcome;
}


/* ---- reading ------------------------------------------------------------ */

typedef enum {
    RA_EVF_EV = 0, RA_EVF_T, RA_EVF_SITE, RA_EVF_CLIENT, RA_EVF_UA,
    RA_EVF_METHOD, RA_EVF_URI, RA_EVF_REFERER, RA_EVF_STATUS, RA_EVF_REC,
    RA_EVF_VERDICT, RA_EVF_VERIFICATION, RA_EVF_ROBOTS_SHA, RA_EVF_HOP,
    RA_EVF_INITIAL, RA_EVF_TYPE, RA_EVF_LOCATION, RA_EVF_SIZE,
    RA_EVF_TRUNCATED, RA_EVF_UNDECODABLE, RA_EVF_SHA, RA_EVF_BODY,
    RA_EVF_N
} ra_events_field_e;

static const ra_str_t  ra_events_fields[RA_EVF_N] = {
    ra_string("ev"), ra_string("t"), ra_string("site"), ra_string("client"),
    ra_string("ua"), ra_string("method"), ra_string("uri"),
    ra_string("referer"), ra_string("status"), ra_string("rec"),
    ra_string("verdict"), ra_string("verification"),
    ra_string("robots_sha256"), ra_string("hop"), ra_string("initial"),
    ra_string("type"), ra_string("location"), ra_string("size"),
    ra_string("truncated"), ra_string("undecodable"), ra_string("sha256"),
    ra_string("body")
};

typedef struct {
    ra_event_t     *ev;
    unsigned char  *out;                /* the scratch's free part */
    unsigned char  *end;
    int             field;              /* the key just read; -1: none */
    int             next;               /* the field a writer puts next */
    uint32_t        seen;               /* fields given, one bit each */
} ra_events_reader_t;

/* A hex digit's value + 1; 0 for any other byte. */
static const unsigned char  ra_events_hexval[256] = {
    ['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6,
    ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
    ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
    ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16
};

static int
ra_events_hex32(ra_str_t s, unsigned char *out)
{
    size_t  i;
    int     hi, lo;

    if (s.len != 64) {
        return RA_ERROR;
    }
    for (i = 0; i < 32; i++) {
        hi = ra_events_hexval[s.data[2 * i]] - 1;
        lo = ra_events_hexval[s.data[2 * i + 1]] - 1;
        if (hi < 0 || lo < 0) {
            return RA_ERROR;
        }
        out[i] = (unsigned char) (hi << 4 | lo);
    }
    return RA_OK;
}

/* A JSON number that is a non-negative integer below 2^53. */
static int
ra_events_int(ra_str_t raw, int64_t *v)
{
    size_t   i;
    int64_t  n = 0;

    if (raw.len == 0 || raw.len > 15) {
        return RA_ERROR;
    }
    for (i = 0; i < raw.len; i++) {
        if (!ra_isdigit(raw.data[i])) {
            return RA_ERROR;
        }
        n = n * 10 + (raw.data[i] - '0');
    }
    *v = n;
    return RA_OK;
}

static ra_str_t *
ra_events_string_field(ra_event_t *ev, int f)
{
    switch (f) {
    case RA_EVF_SITE:         return &ev->site;
    case RA_EVF_CLIENT:       return &ev->client;
    case RA_EVF_UA:           return &ev->user_agent;
    case RA_EVF_METHOD:       return &ev->method;
    case RA_EVF_URI:          return &ev->uri;
    case RA_EVF_REFERER:      return &ev->referer;
    case RA_EVF_VERDICT:      return &ev->verdict;
    case RA_EVF_VERIFICATION: return &ev->verification;
    case RA_EVF_TYPE:         return &ev->content_type;
    case RA_EVF_LOCATION:     return &ev->location;
    default:                  return NULL;
    }
}

static int
ra_events_string(ra_events_reader_t *x, ra_str_t raw)
{
    ra_event_t  *ev = x->ev;
    ra_str_t    *to;
    long         n;

    if (x->field == RA_EVF_EV) {
        if (raw.len == 3 && memcmp(raw.data, "req", 3) == 0) {
            ev->kind = RA_EVENT_REQUEST;
        } else if (raw.len == 6 && memcmp(raw.data, "robots", 6) == 0) {
            ev->kind = RA_EVENT_ROBOTS;
        } else {
            return RA_ERROR;
        }
        return RA_OK;
    }
    if (x->field == RA_EVF_SHA || x->field == RA_EVF_ROBOTS_SHA) {
        ev->sha_known = 1;
        return ra_events_hex32(raw, ev->sha256);
    }
    if (x->field == RA_EVF_BODY) {
        n = ra_b64_decode(raw, 1, x->out, (size_t) (x->end - x->out));
        if (n < 0 || (size_t) n > RA_ROBOTS_MAX) {
            return RA_ERROR;
        }
        ev->body = ra_str(x->out, (size_t) n);
        ev->has_body = 1;
        x->out += n;
        return RA_OK;
    }
    to = ra_events_string_field(ev, x->field);
    if (to == NULL || raw.len > 6 * RA_EVENTS_FIELD_MAX) {
        return RA_ERROR;
    }
    n = ra_json_unescape(raw, x->out, (size_t) (x->end - x->out));
    if (n < 0 || n > RA_EVENTS_FIELD_MAX) {
        return RA_ERROR;
    }
    *to = ra_str(x->out, (size_t) n);
    x->out += n;
    return RA_OK;
}

static int
ra_events_number(ra_events_reader_t *x, ra_str_t raw)
{
    ra_event_t  *ev = x->ev;
    int64_t      v;

    if (ra_events_int(raw, &v) != RA_OK) {
        return RA_ERROR;
    }
    switch (x->field) {
    case RA_EVF_T:           ev->time = v; break;
    case RA_EVF_STATUS:      if (v > 999) return RA_ERROR;
                             ev->status = (int) v; break;
    case RA_EVF_REC:         ev->recorded = v != 0; break;
    case RA_EVF_HOP:         if (v > 16) return RA_ERROR;
                             ev->hop = (unsigned) v; break;
    case RA_EVF_INITIAL:     break;
    case RA_EVF_SIZE:        ev->size = (size_t) v; break;
    case RA_EVF_TRUNCATED:   ev->truncated = v != 0; break;
    case RA_EVF_UNDECODABLE: ev->undecodable = v != 0; break;
    default:                 return RA_ERROR;
    }
    return RA_OK;
}

static int
ra_events_handler(void *ctx, unsigned event, ra_str_t raw, unsigned depth)
{
    ra_events_reader_t  *x = ctx;
    int                  f, rc;

    if (event == RA_JSON_OBJECT && depth == 0) {
        return RA_OK;
    }
    if (event == RA_JSON_END && depth == 0) {
        return RA_OK;
    }
    if (depth != 1) {
        return RA_ERROR;                /* nothing nested */
    }
    if (event == RA_JSON_KEY) {
        /* a writer puts the keys in the order of the table: the one after
         * the last is tried first, then all of them */
        f = x->next;
        if (f >= RA_EVF_N || ra_events_fields[f].len != raw.len
            || memcmp(ra_events_fields[f].data, raw.data, raw.len) != 0)
        {
            for (f = 0; f < RA_EVF_N; f++) {
                if (ra_events_fields[f].len == raw.len
                    && memcmp(ra_events_fields[f].data, raw.data, raw.len)
                       == 0)
                {
                    break;
                }
            }
        }
        x->next = f + 1;
        /* an unknown key is skipped (a newer writer's), a repeated one
         * refused */
        if (f < RA_EVF_N && (x->seen & (1u << f))) {
            return RA_ERROR;
        }
        if (f < RA_EVF_N) {
            x->seen |= 1u << f;
        }
        x->field = f < RA_EVF_N ? f : -1;
        return RA_OK;
    }
    if (x->field < 0) {
        return event == RA_JSON_OBJECT || event == RA_JSON_ARRAY
               ? RA_ERROR : RA_OK;
    }
    f = x->field;
    switch (event) {
    case RA_JSON_STRING:
        rc = ra_events_string(x, raw);
        break;
    case RA_JSON_NUMBER:
        rc = ra_events_number(x, raw);
        break;
    case RA_JSON_LITERAL:
        /* null: not given (a SHA-256 not known, no body) */
        rc = raw.len == 4 && memcmp(raw.data, "null", 4) == 0
             ? RA_OK : RA_ERROR;
        if (rc == RA_OK) {
            x->seen &= ~(1u << f);
        }
        break;
    default:
        rc = RA_ERROR;
    }
    x->field = -1;
    return rc;
}

ra_str_t
ra_events_unframe(ra_str_t line)
{
    const unsigned char  *p;

    while (line.len && (line.data[line.len - 1] == '\r'
                        || line.data[line.len - 1] == '\n'))
    {
        line.len--;
    }
    if (line.len == 0) {
        return line;
    }
    p = memchr(line.data, '{', line.len);
    if (p == NULL) {
        return ra_str(line.data, 0);
    }
    return ra_str(p, (size_t) (line.data + line.len - p));
}

int
ra_events_read(ra_str_t line, unsigned char *scratch, size_t cap,
    ra_event_t *ev)
{
    ra_events_reader_t  x;
    const uint32_t      need = 1u << RA_EVF_EV | 1u << RA_EVF_T
                               | 1u << RA_EVF_SITE | 1u << RA_EVF_STATUS;

    memset(ev, 0, sizeof(*ev));
    if (line.len > RA_EVENTS_LINE_MAX) {
        return RA_ELIMIT;
    }
    line = ra_events_unframe(line);
    if (line.len == 0 || cap < line.len) {
        return RA_ERROR;
    }
    x.ev = ev;
    x.out = scratch;
    x.end = scratch + cap;
    x.field = -1;
    x.next = 0;
    x.seen = 0;
    if (ra_json_parse(line, ra_events_handler, &x, NULL) != RA_OK
        || (x.seen & need) != need || ev->site.len == 0
        || (ev->kind == RA_EVENT_REQUEST && ev->uri.len == 0))
    {
        memset(ev, 0, sizeof(*ev));
        return RA_ERROR;
    }
    return RA_OK;
}
