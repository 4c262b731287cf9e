/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Alert lines (ra_alert.h).  The text line is built in two parts, the
 * "robots-audit: [tag] " prefix and the body after it; ra_alert_emit()
 * writes the prefix as ra_logf() does, and the body after it in the same
 * buffer (no printf): whoever writes it, the line is the same.
 */
#include <string.h>
#include <time.h>

#include "ra_alert.h"
#include "ra_verify.h"

/* ---- budgets ------------------------------------------------------------ */

#define RA_LINE_UNITS  60000        /* a line in a bucket: 1/60000ths */

static void
ra_bucket_refill(ra_bucket_t *b, int64_t per_min, int64_t now)
{
    int64_t  full = per_min * RA_LINE_UNITS, gap;

    if (b->last == 0 || b->level > full || b->level < 0) {
        /* new (or a limit lowered by a reload): full */
        b->level = full;
        b->last = now;
        return;
    }
    gap = now - b->last;
    if (gap > 0) {
        /* a minute refills all of it: no overflow, whatever the gap */
        b->level = gap >= RA_LINE_UNITS ? full
                   : b->level + gap * per_min < full ? b->level + gap * per_min
                   : full;
    }
    /* a clock that went back refills nothing, and does not stay back */
    b->last = now;
}

int
ra_bucket_has(ra_bucket_t *b, int64_t per_min, int64_t now)
{
    if (per_min <= 0) {
        return 1;
    }
    ra_bucket_refill(b, per_min, now);
    return b->level >= RA_LINE_UNITS;
}

int
ra_bucket_take(ra_bucket_t *b, int64_t per_min, int64_t now)
{
    if (!ra_bucket_has(b, per_min, now)) {
        return 0;
    }
    if (per_min > 0) {
        b->level -= RA_LINE_UNITS;
    }
    return 1;
}

/* The share of a limit that alerts about anyone but verified crawlers
 * may use: half, at least a line a minute; no limit stays none. */
static int64_t
ra_alert_open_share(int64_t per_min)
{
    return per_min <= 0 ? per_min : per_min / 2 > 0 ? per_min / 2 : 1;
}

/* A verified crawler held back, new in this window: named when there is
 * room (and not named already), counted in any case. */
static void
ra_alert_held_verified(ra_budget_t *a, ra_str_t name)
{
    unsigned  i, n;
    size_t    len = name.len < RA_NAME_MAX ? name.len : RA_NAME_MAX;

    n = a->verified < RA_ALERT_HELD_NAMES ? a->verified : RA_ALERT_HELD_NAMES;
    for (i = 0; i < n; i++) {
        if (a->held_len[i] == len
            && (len == 0 || memcmp(a->held[i], name.data, len) == 0))
        {
            return;
        }
    }
    if (n < RA_ALERT_HELD_NAMES) {
        a->held_len[n] = 0;
        if (len) {
            memcpy(a->held[n], name.data, len);
        }
        a->held_len[n] = (uint8_t) len;
    }
    if (a->verified < UINT32_MAX) {
        a->verified++;
    }
}

int
ra_alert_budget_take(ra_alert_state_t *s, const ra_alert_budget_t *budget,
    int64_t now)
{
    int          site_ok, all_ok, fresh = 0;
    int64_t      site_open = ra_alert_open_share(budget->site);
    int64_t      all_open = ra_alert_open_share(budget->total);
    uint32_t     w;
    ra_budget_t  *a = s->all;

    site_ok = ra_bucket_has(s->site, budget->site, now);
    all_ok = ra_bucket_has(&a->total, budget->total, now);
    if (!s->verified) {
        /* anyone's: its share too, so that half of each bucket is left
         * for verified crawlers */
        site_ok = site_ok && (s->site_open == NULL
                              || ra_bucket_has(s->site_open, site_open, now));
        all_ok = all_ok && ra_bucket_has(&a->open_total, all_open, now);
    }
    if (site_ok && all_ok) {
        (void) ra_bucket_take(s->site, budget->site, now);
        (void) ra_bucket_take(&a->total, budget->total, now);
        if (!s->verified) {
            if (s->site_open != NULL) {
                (void) ra_bucket_take(s->site_open, site_open, now);
            }
            (void) ra_bucket_take(&a->open_total, all_open, now);
        }
        return 1;
    }

    /* held back: counted for the window's summary */
    if (a->suppressed == 0) {
        a->since = now;
        a->crawlers = 0;
        a->sites = 0;
        a->verified = 0;
        if (s->top != NULL) {
            memset(s->top, 0, RA_ALERT_TOP_SLOTS * sizeof(*s->top));
        }
    }
    if (a->suppressed < UINT32_MAX) {
        a->suppressed++;
    }
    w = a->window + 1;              /* marks of 0 are no window's */
    if (w == 0) {
        w = 1;
    }
    if (s->crawler_mark == NULL || *s->crawler_mark != w) {
        if (s->crawler_mark != NULL) {
            *s->crawler_mark = w;
        }
        a->crawlers++;
        fresh = 1;
    }
    if (fresh && s->verified) {
        ra_alert_held_verified(a, s->name);
    }
    if (s->site_mark == NULL || *s->site_mark != w) {
        if (s->site_mark != NULL) {
            *s->site_mark = w;
        }
        a->sites++;
    }
    return 0;
}

int
ra_alert_budget_due(ra_budget_t *all, int64_t now, int64_t interval,
    ra_alert_summary_t *out)
{
    unsigned  i;

    if (interval < 1000) {
        interval = 1000;
    }
    if (all->suppressed == 0) {
        return 0;
    }
    if (now < all->since) {
        /* a request that came before the window's first line held back
         * (a server judges it when it is done, after later ones): its
         * summary would come before its own since.  A clock set far
         * back begins the window anew. */
        if (all->since - now > RA_ALERT_CLOCK_BACK_MS) {
            all->since = now;
        }
        return 0;
    }
    if (now - all->since < interval) {
        return 0;
    }
    memset(out, 0, sizeof(*out));
    out->since = all->since;
    out->suppressed = all->suppressed;
    out->crawlers = all->crawlers;
    out->sites = all->sites;
    out->verified = all->verified;
    out->nheld = all->verified < RA_ALERT_HELD_NAMES ? all->verified
                                                     : RA_ALERT_HELD_NAMES;
    for (i = 0; i < out->nheld; i++) {
        out->held_len[i] = all->held_len[i] <= RA_NAME_MAX ? all->held_len[i]
                                                           : RA_NAME_MAX;
        memcpy(out->held[i], all->held[i], out->held_len[i]);
    }
    all->suppressed = 0;
    all->crawlers = 0;
    all->sites = 0;
    all->verified = 0;
    all->since = 0;
    all->window++;
    if (all->window + 1 == 0) {
        all->window = 0;
    }
    return 1;
}

void
ra_alert_budget_count(ra_alert_state_t *s)
{
    unsigned            i;
    size_t              len;
    ra_alert_client_t  *t = s->top, *least = NULL;

    if (t == NULL || !s->violation || s->all->suppressed == 0) {
        return;
    }
    len = s->client.len < RA_ADDR_TEXT_MAX ? s->client.len
                                           : RA_ADDR_TEXT_MAX;
    for (i = 0; i < RA_ALERT_TOP_SLOTS; i++) {
        if (t[i].n != 0 && t[i].len == len
            && (len == 0 || memcmp(t[i].addr, s->client.data, len) == 0))
        {
            if (t[i].n < UINT32_MAX) {
                t[i].n++;
            }
            return;
        }
        if (least == NULL || t[i].n < least->n) {
            least = &t[i];
        }
    }
    /* a free entry (n 0), or the least one's place: its count goes on
     * (over), so that a busy client that arrives late is not pushed out
     * again by the next newcomer, and is said with its own count */
    least->len = (uint8_t) len;
    if (len) {
        memcpy(least->addr, s->client.data, len);
    }
    least->over = least->n;
    if (least->n < UINT32_MAX) {
        least->n++;
    }
}

void
ra_alert_budget_top(ra_alert_client_t *top, ra_alert_summary_t *out)
{
    unsigned            i, j;
    ra_alert_client_t   c;

    out->ntop = 0;
    if (top == NULL) {
        return;
    }
    for (i = 0; i < RA_ALERT_TOP_SLOTS; i++) {
        if (top[i].n == 0) {
            continue;
        }
        c = top[i];
        c.len = c.len <= RA_ADDR_TEXT_MAX ? c.len : RA_ADDR_TEXT_MAX;
        /* its own violations, not those of the entry it took over */
        c.n = c.over < c.n ? c.n - c.over : 1;
        c.over = 0;
        /* insertion into the first RA_ALERT_TOP, most first (a tie: the
         * entry found first) */
        for (j = out->ntop; j > 0 && out->top[j - 1].n < c.n; j--) {
            if (j < RA_ALERT_TOP) {
                out->top[j] = out->top[j - 1];
            }
        }
        if (j < RA_ALERT_TOP) {
            out->top[j] = c;
            if (out->ntop < RA_ALERT_TOP) {
                out->ntop++;
            }
        }
    }
    memset(top, 0, RA_ALERT_TOP_SLOTS * sizeof(*top));
}

int
ra_alert_gate(ra_gate_t *gates, uint64_t key, int64_t now, int64_t interval,
    uint32_t *suppressed, ra_gate_t **slot)
{
    ra_gate_t  *g = &gates[(key ^ (key >> 29)) % RA_GENERIC_GATES];

    *slot = g;
    *suppressed = 0;
    if (g->key != key) {
        /* a new key, or one whose slot another took meanwhile */
        memset(g, 0, sizeof(*g));
        g->key = key;
        g->last = now;
        return 1;
    }
    /* a clock that went back does not hold alerts back */
    if (interval <= 0 || now - g->last >= interval || now < g->last) {
        *suppressed = g->suppressed;
        g->suppressed = 0;
        g->last = now;
        return 1;
    }
    if (g->suppressed < UINT32_MAX) {
        g->suppressed++;
    }
    return 0;
}

uint64_t
ra_alert_block(ra_str_t addr)
{
    size_t          i, n;
    uint64_t        h = 0xcbf29ce484222325ULL;      /* FNV-1a */
    ra_addr_t       a;
    const uint8_t  *p;
    static const uint8_t  v4[] = { 4 }, v6[] = { 6 }, text[] = { 0 };

    if (ra_addr_parse(addr, &a) == RA_OK) {
        if (ra_addr_is_v4(&a)) {
            p = a.b + 12;           /* /24 */
            n = 3;
            h = (h ^ v4[0]) * 0x100000001b3ULL;
        } else {
            p = a.b;                /* /48 */
            n = 6;
            h = (h ^ v6[0]) * 0x100000001b3ULL;
        }
    } else {
        p = addr.data;
        n = addr.len;
        h = (h ^ text[0]) * 0x100000001b3ULL;
    }
    for (i = 0; i < n; i++) {
        h = (h ^ p[i]) * 0x100000001b3ULL;
    }
    return h != 0 ? h : 1;
}

static const char *
ra_alert_budget_one(ra_str_t s, int64_t *out)
{
    size_t   i;
    int64_t  n = 0;

    if (ra_strcaseeq(s, ra_str("off", 3))) {
        *out = RA_ALERT_BUDGET_OFF;
        return NULL;
    }
    if (s.len == 0 || s.len > 7) {
        goto bad;
    }
    for (i = 0; i < s.len; i++) {
        if (s.data[i] < '0' || s.data[i] > '9') {
            goto bad;
        }
        n = n * 10 + (s.data[i] - '0');
    }
    if (n >= 1 && n <= RA_ALERT_BUDGET_MAX) {
        *out = n;
        return NULL;
    }
bad:
    return "takes two limits of alert lines a minute, per site and in all "
           "(1 to 1000000, or off): e.g. 60 300";
}

const char *
ra_alert_budget_parse(ra_str_t site, ra_str_t total, ra_alert_budget_t *out)
{
    ra_alert_budget_t  b;
    const char        *why;

    why = ra_alert_budget_one(site, &b.site);
    if (why == NULL) {
        why = ra_alert_budget_one(total, &b.total);
    }
    if (why == NULL) {
        *out = b;
    }
    return why;
}


/* ---- lines --------------------------------------------------------------- */

/* a string literal, its length known (no strlen()) */
#define RA_BUF_LIT(b, lit)  ra_buf_add(b, lit, sizeof(lit) - 1)

const char *
ra_alert_tag(const ra_verdict_t *v)
{
    /* an impostor's judged request: the lie, whatever the verdict */
    if (v->verification == RA_VERIFY_IMPOSTOR) {
        switch (v->verdict) {
        case RA_VERDICT_NONE:
        case RA_VERDICT_FETCH:
            return NULL;
        default:
            return RA_TAG_IMPOSTOR;
        }
    }

    switch (v->verdict) {
    case RA_VERDICT_VIOLATION:   return RA_TAG_VIOLATION;
    case RA_VERDICT_UNREACHABLE: return RA_TAG_UNREACHABLE;
    default:                     return NULL;
    }
}

static const char *
ra_alert_tag_any(const ra_verdict_t *v)
{
    const char  *tag = ra_alert_tag(v);

    return tag != NULL ? tag : RA_TAG_ALERT_OTHER;
}

/* A buffer over fixed memory: what does not fit is cut. */
static void
ra_alert_fixed(ra_buf_t *b, unsigned char *mem, size_t size)
{
    b->data = mem;
    b->len = 0;
    b->cap = size;
    b->limit = size;
    b->alloc = NULL;
    b->failed = 0;
    b->truncated = 0;
}

/* "disallow: /x" or "-" */
static void
ra_alert_rule(ra_buf_t *b, const ra_verdict_t *v, int json)
{
    ra_buf_t       tmp;
    unsigned char  small[RA_PATTERN_MAX + 16];

    if (v->line == 0) {
        if (json) {
            ra_buf_cstr(b, "null");
        } else {
            ra_buf_ch(b, '-');
        }
        return;
    }
    /* the rule is at most a line of robots.txt, and the pattern is cut
     * at RA_PATTERN_MAX already */
    ra_alert_fixed(&tmp, small, sizeof(small));
    ra_buf_cstr(&tmp, v->rule_type == RA_RULE_ALLOW ? "allow: "
                                                    : "disallow: ");
    ra_buf_str(&tmp, ra_verdict_pattern(v));
    if (json) {
        ra_buf_json_str(b, ra_str(tmp.data, tmp.len));
    } else {
        ra_buf_ch(b, '"');
        ra_buf_log(b, ra_str(tmp.data, tmp.len));
        ra_buf_ch(b, '"');
    }
}

static ra_str_t
ra_alert_uri(const ra_request_t *r)
{
    ra_str_t  u = r->uri;

    if (u.len > RA_ALERT_URI_MAX) {
        u.len = RA_ALERT_URI_MAX;
    }
    return u;
}

static ra_str_t
ra_alert_method(const ra_request_t *r)
{
    ra_str_t  m = r->method;

    if (m.len > RA_ALERT_METHOD_MAX) {
        m.len = RA_ALERT_METHOD_MAX;
    }
    return m;
}

/* An impostor by its Web Bot Auth signature: why the signature failed
 * (ra_sig.h's static words), ` signature="..."` or `,"signature":"..."` */
static void
ra_alert_sig(ra_buf_t *b, const ra_verdict_t *v, int json)
{
    if (v->verified_by != RA_VERIFIED_BY_SIGNATURE
        || v->verification != RA_VERIFY_IMPOSTOR || v->sig_why == NULL)
    {
        return;
    }
    ra_buf_cstr(b, json ? ",\"signature\":" : " signature=");
    ra_buf_json_str(b, ra_str(v->sig_why, strlen(v->sig_why)));
}

/* How the verification was decided: text " verified_by=ranges"
 * ("none" when nothing decided it), JSON ,"verified_by":"ranges" (null);
 * last in both, so that filters written for the fields before it (the
 * fail2ban filter's "verification" then "client") still match. */
static void
ra_alert_verified_by(ra_buf_t *b, const ra_verdict_t *v, int json)
{
    const char  *m = ra_verified_by_name((int) v->verified_by);

    if (json) {
        if (*m) {
            ra_buf_printf(b, ",\"verified_by\":\"%s\"", m);
        } else {
            ra_buf_cstr(b, ",\"verified_by\":null");
        }
    } else {
        RA_BUF_LIT(b, " verified_by=");
        ra_buf_cstr(b, *m ? m : "none");
    }
}

/* The text line after "robots-audit: [tag] ". */
static void
ra_alert_body(ra_buf_t *b, const ra_request_t *r, const ra_verdict_t *v)
{
    /* no printf: a line's numbers through ra_buf_u64() */
    ra_buf_cstr(b, ra_verdict_name(v->verdict));
    RA_BUF_LIT(b, " site=\"");
    ra_buf_log(b, r->site);
    RA_BUF_LIT(b, "\" crawler=\"");
    ra_buf_log(b, v->name);
    RA_BUF_LIT(b, "\" verification=");
    ra_buf_cstr(b, ra_verify_name((int) v->verification));
    RA_BUF_LIT(b, " client=");
    ra_buf_log(b, r->addr);
    RA_BUF_LIT(b, " method=");
    ra_buf_log(b, ra_alert_method(r));
    RA_BUF_LIT(b, " uri=\"");
    ra_buf_log(b, ra_alert_uri(r));
    ra_buf_ch(b, '"');
    if (r->uri.len > RA_ALERT_URI_MAX) {
        RA_BUF_LIT(b, " uri_bytes=");
        ra_buf_u64(b, r->uri.len);
    }
    RA_BUF_LIT(b, " rule=");
    ra_alert_rule(b, v, 0);
    RA_BUF_LIT(b, " line=");
    ra_buf_u64(b, v->line);
    RA_BUF_LIT(b, " suppressed=");
    ra_buf_u64(b, v->suppressed);
    if (v->refused) {
        RA_BUF_LIT(b, " refused=true");
    }
    ra_alert_sig(b, v, 0);
    ra_alert_verified_by(b, v, 0);
}

void
ra_alert_text(ra_buf_t *b, const ra_request_t *r, const ra_verdict_t *v)
{
    ra_buf_printf(b, RA_LOG_PREFIX "[%s] ", ra_alert_tag_any(v));
    ra_alert_body(b, r, v);
}

void
ra_alert_json(ra_buf_t *b, const ra_request_t *r, const ra_verdict_t *v)
{
    time_t       sec = (time_t) (r->time / 1000);
    struct tm    tm;
    char         when[32];

    gmtime_r(&sec, &tm);
    strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S", &tm);
    ra_buf_printf(b, "{\"time\":\"%s.%03dZ\",\"tag\":\"%s\","
                  "\"verdict\":\"%s\",\"site\":", when, (int) (r->time % 1000),
                  ra_alert_tag_any(v), ra_verdict_name(v->verdict));
    ra_buf_json_str(b, r->site);
    ra_buf_cstr(b, ",\"crawler\":");
    ra_buf_json_str(b, v->name);
    ra_buf_cstr(b, ",\"token\":");
    ra_buf_json_str(b, ra_verdict_token(v));
    ra_buf_printf(b, ",\"verification\":\"%s\",\"client\":",
                  ra_verify_name((int) v->verification));
    ra_buf_json_str(b, r->addr);
    ra_buf_cstr(b, ",\"method\":");
    ra_buf_json_str(b, ra_alert_method(r));
    ra_buf_cstr(b, ",\"uri\":");
    ra_buf_json_str(b, ra_alert_uri(r));
    if (r->uri.len > RA_ALERT_URI_MAX) {
        ra_buf_printf(b, ",\"uri_bytes\":%zu", r->uri.len);
    }
    ra_buf_cstr(b, ",\"rule\":");
    ra_alert_rule(b, v, 1);
    ra_buf_printf(b, ",\"line\":%u,\"suppressed\":%u,\"refused\":%s",
                  v->line, v->suppressed, v->refused ? "true" : "false");
    ra_alert_sig(b, v, 1);
    ra_alert_verified_by(b, v, 1);
    ra_buf_cstr(b, "}\n");
}

static void
ra_alert_when(ra_buf_t *b, int64_t ms)
{
    time_t     sec = (time_t) (ms / 1000);
    struct tm  tm;
    char       when[32];

    gmtime_r(&sec, &tm);
    strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S", &tm);
    ra_buf_printf(b, "%s.%03dZ", when, (int) (ms % 1000));
}

static void
ra_alert_limit(ra_buf_t *b, const char *name, int64_t n, int json)
{
    if (n > 0) {
        ra_buf_printf(b, json ? ",\"%s\":%lld" : " %s=%lld", name,
                      (long long) n);
    } else {
        ra_buf_printf(b, json ? ",\"%s\":null" : " %s=off", name);
    }
}

/* The verified crawlers held back: how many, the first names, how many
 * more.  Text: verified=N [verified_names="a,b,c" [verified_more=N]];
 * JSON: "verified":N,"verified_names":[...],"verified_more":N. */
static void
ra_alert_held(ra_buf_t *b, const ra_alert_summary_t *s, int json)
{
    unsigned  i, n = s->nheld <= RA_ALERT_HELD_NAMES ? s->nheld
                                                     : RA_ALERT_HELD_NAMES;
    uint32_t  more = s->verified > n ? s->verified - n : 0;

    if (json) {
        ra_buf_printf(b, ",\"verified\":%u,\"verified_names\":[",
                      s->verified);
        for (i = 0; i < n; i++) {
            if (i) {
                ra_buf_ch(b, ',');
            }
            ra_buf_json_str(b, ra_str(s->held[i], s->held_len[i]));
        }
        ra_buf_printf(b, "],\"verified_more\":%u", more);
        return;
    }
    ra_buf_printf(b, " verified=%u", s->verified);
    if (n == 0) {
        return;
    }
    ra_buf_cstr(b, " verified_names=\"");
    for (i = 0; i < n; i++) {
        if (i) {
            ra_buf_ch(b, ',');
        }
        ra_buf_log(b, ra_str(s->held[i], s->held_len[i]));
    }
    ra_buf_ch(b, '"');
    if (more) {
        ra_buf_printf(b, " verified_more=%u", more);
    }
}

/* The clients with the most violations: text top_clients="A=N,B=N"
 * (nothing when none), JSON "top_clients":[{"client":A,"violations":N}]. */
static void
ra_alert_top(ra_buf_t *b, const ra_alert_summary_t *s, int json)
{
    unsigned  i, n = s->ntop <= RA_ALERT_TOP ? s->ntop : RA_ALERT_TOP;

    if (json) {
        ra_buf_cstr(b, ",\"top_clients\":[");
        for (i = 0; i < n; i++) {
            ra_buf_cstr(b, i ? ",{\"client\":" : "{\"client\":");
            ra_buf_json_str(b, ra_str(s->top[i].addr, s->top[i].len));
            ra_buf_printf(b, ",\"violations\":%u}", s->top[i].n);
        }
        ra_buf_ch(b, ']');
        return;
    }
    if (n == 0) {
        return;
    }
    ra_buf_cstr(b, " top_clients=\"");
    for (i = 0; i < n; i++) {
        if (i) {
            ra_buf_ch(b, ',');
        }
        ra_buf_log(b, ra_str(s->top[i].addr, s->top[i].len));
        ra_buf_printf(b, "=%u", s->top[i].n);
    }
    ra_buf_ch(b, '"');
}

void
ra_alert_summary_text(ra_buf_t *b, const ra_verdict_t *v)
{
    const ra_alert_summary_t  *s = &v->budget;

    ra_buf_printf(b, "alert budget spent: suppressed=%u crawlers=%u sites=%u "
                  "since=", s->suppressed, s->crawlers, s->sites);
    ra_alert_when(b, s->since);
    ra_alert_limit(b, "per_site", s->budget.site, 0);
    ra_alert_limit(b, "total", s->budget.total, 0);
    ra_alert_held(b, s, 0);
    ra_alert_top(b, s, 0);
}

void
ra_alert_summary_json(ra_buf_t *b, const ra_request_t *r,
    const ra_verdict_t *v)
{
    const ra_alert_summary_t  *s = &v->budget;

    ra_buf_cstr(b, "{\"time\":\"");
    ra_alert_when(b, r->time);
    ra_buf_printf(b, "\",\"tag\":\"%s\",\"suppressed\":%u,\"crawlers\":%u,"
                  "\"sites\":%u,\"since\":\"", RA_TAG_ALERT_BUDGET,
                  s->suppressed, s->crawlers, s->sites);
    ra_alert_when(b, s->since);
    ra_buf_ch(b, '"');
    ra_alert_limit(b, "per_site", s->budget.site, 1);
    ra_alert_limit(b, "total", s->budget.total, 1);
    ra_alert_held(b, s, 1);
    ra_alert_top(b, s, 1);
    ra_buf_cstr(b, "}\n");
}

/* The longest "robots-audit: [tag] " ra_alert_emit() writes itself */
#define RA_ALERT_HEAD_MAX  (sizeof(RA_LOG_PREFIX) + 64)

/* Starts a text line in line[]: "robots-audit: [tag] " (at most
 * RA_ALERT_HEAD_MAX bytes, as ra_logf() writes it) and b over the
 * RA_HOST_LINE_MAX bytes after it for the body. */
static void
ra_alert_head(ra_buf_t *b, unsigned char *line, const char *tag)
{
    size_t  n = sizeof(RA_LOG_PREFIX) - 1, t = strlen(tag);

    if (t > RA_ALERT_HEAD_MAX - n - 3) {
        t = RA_ALERT_HEAD_MAX - n - 3;  /* the tags are words */
    }
    memcpy(line, RA_LOG_PREFIX, n);
    line[n++] = '[';
    memcpy(line + n, tag, t);
    n += t;
    line[n++] = ']';
    line[n++] = ' ';
    ra_alert_fixed(b, line + n, RA_HOST_LINE_MAX);
}

void
ra_alert_emit(const ra_host_t *h, const ra_request_t *r,
    const ra_verdict_t *v, ra_buf_t *json)
{
    ra_buf_t       b;
    unsigned char  line[RA_ALERT_HEAD_MAX + RA_HOST_LINE_MAX];

    if (v->alert) {
        if (h != NULL && h->log != NULL) {
            ra_alert_head(&b, line, ra_alert_tag_any(v));
            ra_alert_body(&b, r, v);
            ra_log_line(h, r->where, RA_LOG_WARN, line,
                        (size_t) (b.data - line) + b.len);
        }
        if (json != NULL) {
            ra_alert_json(json, r, v);
        }
    }
    if (v->summary) {
        if (h != NULL && h->log != NULL) {
            ra_alert_head(&b, line, RA_TAG_ALERT_BUDGET);
            ra_alert_summary_text(&b, v);
            ra_log_line(h, r->where, RA_LOG_WARN, line,
                        (size_t) (b.data - line) + b.len);
        }
        if (json != NULL) {
            ra_alert_summary_json(json, r, v);
        }
    }
}
