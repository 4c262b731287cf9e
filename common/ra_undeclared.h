/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Undeclared crawlers: clients whose User-Agent is a browser's but whose
 * behaviour over a sliding window is a crawler's.  This header is the
 * detector: a bounded table per site keyed by client address (IPv4 by
 * address, IPv6 by its /64), the signals each request adds, the score
 * that decides, and the record each flagged client keeps.
 *
 * The table is one block of memory holding only indices and offsets, never
 * pointers, so that a server can place it in shared memory and every
 * process reads the same one.  A request costs one hash lookup of its
 * client; signals are counters in the client's entry.
 *
 * The score (docs/design.md gives the reasoning):
 *
 *   robots.txt fetched                                   100 (decisive);
 *                               75 after two subresource loads
 *   a disallowed path asked for (the '*' group)           50
 *   an impossible browser version pair in the User-Agent  50
 *   >= 4 distinct pages, fewer than one subresource
 *   (CSS, JS, image, font) per four of them               35; >= 12: 50
 *   >= 4 distinct pages, none reached from a page it
 *   fetched (its Referer names none of its last pages)    25; >= 12: 50
 *   >= 8 distinct pages at a machine-regular pace (gaps
 *   varying by under half their mean, or under 2 s)       30
 *   the address lies in a cloud provider's ranges         30
 *
 * and a client is flagged when its score reaches RA_UNDECL_THRESHOLD
 * (100).  No behavioural signal alone reaches it, and a person's browsing
 * never shows the two that together do: with a cold cache it loads
 * subresources, and with a warm one it still follows links.
 *
 * An address that sends RA_UNDECL_SHARED_UAS or more distinct User-Agents
 * and loads subresources is people's, behind one balancer or NAT: it is
 * not flagged while its entry lasts, and a client flagged before that
 * showed lets go of its record (kept, its signals marked "shared").
 */
#ifndef RA_UNDECLARED_H
#define RA_UNDECLARED_H

#include "ra_buf.h"
#include "ra_rules.h"

#define RA_UNDECL_WINDOW_MS     (10 * 60 * 1000)    /* the sliding window */
#define RA_UNDECL_THRESHOLD     100
#define RA_UNDECL_UAS           3       /* User-Agents a record keeps */
#define RA_UNDECL_UA_MAX        160     /* bytes kept of each */
#define RA_UNDECL_RING          8       /* pages remembered for Referers */
#define RA_UNDECL_SHARED_UAS    4       /* an address people share */

/* the signals, as bits of ra_undecl_rec_t.signals */
#define RA_UNDECL_SIG_ROBOTS        0x01u
#define RA_UNDECL_SIG_DISALLOWED    0x02u
#define RA_UNDECL_SIG_IMPOSSIBLE_UA 0x04u
#define RA_UNDECL_SIG_NO_SUBRES     0x08u
#define RA_UNDECL_SIG_NO_REFERER    0x10u
#define RA_UNDECL_SIG_REGULAR       0x20u
#define RA_UNDECL_SIG_CLOUD         0x40u
#define RA_UNDECL_SIG_SHARED        0x80u   /* not a signal: released */
#define RA_UNDECL_SIGNALS           8

/* what a request's path is to the detector (ra_undecl_path_kind()) */
#define RA_UNDECL_PAGE      0       /* a document a person reads */
#define RA_UNDECL_SUBRES    1       /* CSS, JS, image, font, ... */
#define RA_UNDECL_ROBOTS    2       /* /robots.txt */
#define RA_UNDECL_OTHER     3       /* feeds, downloads, anything else */

/* One request of a client with a browser's User-Agent. */
typedef struct {
    uint8_t    addr[16];        /* ra_addr_t's bytes: IPv4 mapped */
    int64_t    time_ms;
    ra_str_t   path;            /* the target's path (a query is ignored) */
    ra_str_t   referer;         /* empty: none */
    ra_str_t   user_agent;
    unsigned   disallowed:1;    /* the '*' group disallows the path */
    unsigned   cloud:1;         /* the address is in a 'cloud' range */
} ra_undecl_req_t;

/* A flagged client: what decided it and what it did since. */
typedef struct {
    uint8_t    addr[16];        /* IPv6: the /64, its low half zero */
    int64_t    first_ms;        /* its first request in the window */
    int64_t    last_ms;
    int64_t    flagged_ms;
    uint64_t   requests;        /* all of its requests in the window */
    uint64_t   flagged_at;      /* its request number that flagged it */
    uint64_t   violation;       /* its verdicts (ra_undecl_judge()) */
    uint64_t   compliant;
    uint64_t   before_violation;    /* the window's before it was */
    uint64_t   before_compliant;    /* flagged, judged against '*' */
    uint32_t   signals;         /* RA_UNDECL_SIG_* that decided it */
    int32_t    score;
    uint32_t   entry;           /* its table entry + 1; 0: evicted */
    uint32_t   nuas;
    uint32_t   ua_hash[RA_UNDECL_UAS];
    uint16_t   ua_len[RA_UNDECL_UAS];
    char       ua[RA_UNDECL_UAS][RA_UNDECL_UA_MAX];
} ra_undecl_rec_t;

/* One of the latest violations of flagged clients, as evidence. */
#define RA_UNDECL_RECENT        32
#define RA_UNDECL_URI_MAX       256
#define RA_UNDECL_RULE_MAX      96

typedef struct {
    int64_t    time_ms;
    uint8_t    addr[16];
    uint32_t   line;            /* of the deciding rule; 0: none */
    uint16_t   uri_len;         /* cut at RA_UNDECL_URI_MAX */
    uint16_t   rule_len;
    uint16_t   method_len;
    char       method[16];
    char       uri[RA_UNDECL_URI_MAX];
    char       rule[RA_UNDECL_RULE_MAX];    /* the deciding pattern */
} ra_undecl_viol_t;

typedef struct ra_undecl_s  ra_undecl_t;

/* What ra_undecl_see() says of a request */
typedef struct {
    uint32_t   rec;             /* the client's record + 1; 0: not flagged */
    unsigned   flagged_now:1;   /* this request flagged it */
    int32_t    score;           /* the client's score after it */
} ra_undecl_hit_t;

/* Bytes of a table of nentries clients and nrecords flagged ones
 * (0 when the counts are 0 or too large). */
size_t ra_undecl_size(uint32_t nentries, uint32_t nrecords);

/* Lays a table out in mem (size bytes, aligned for any object, from
 * ra_undecl_size()); NULL when it does not fit. */
ra_undecl_t *ra_undecl_init(void *mem, size_t size, uint32_t nentries,
    uint32_t nrecords);

/* Does mem (size bytes) hold a table of nentries clients and nrecords
 * flagged ones whose header and links all lie where that layout puts
 * them?  1, else 0: a table a process left half-made, or another
 * layout's, which the caller makes anew (ra_undecl_init()).  It reads
 * the header and walks the lists and chains, each bounded. */
int ra_undecl_check(const void *mem, size_t size, uint32_t nentries,
    uint32_t nrecords);

/* The same in memory from a; NULL when a has none. */
ra_undecl_t *ra_undecl_create(const ra_alloc_t *a, uint32_t nentries,
    uint32_t nrecords);

/* Counts one request of a browser's User-Agent; hit says whether its
 * client is flagged (NULL: not asked).  ra_undecl_see_kind() is the
 * same for a caller that knows the path's ra_undecl_path_kind(). */
void ra_undecl_see(ra_undecl_t *t, const ra_undecl_req_t *r,
    ra_undecl_hit_t *hit);
void ra_undecl_see_kind(ra_undecl_t *t, const ra_undecl_req_t *r,
    unsigned kind, ra_undecl_hit_t *hit);

/* ra_undecl_see_kind() in two steps, for a caller with work to spare
 * when people share the client's address: ra_undecl_count_client()
 * finds or makes the entry of r's client and counts the request (its
 * link; *shared when people share the address, and then nothing of the
 * request is a signal); ra_undecl_see_entry() counts the signals.
 * Nothing may change the table in between. */
uint32_t ra_undecl_count_client(ra_undecl_t *t, const ra_undecl_req_t *r,
    int *shared);
void ra_undecl_see_entry(ra_undecl_t *t, uint32_t link,
    const ra_undecl_req_t *r, unsigned kind, ra_undecl_hit_t *hit);

/* The flagged records: ra_undecl_records() of them, by index; a record
 * whose requests are 0 is unused. */
uint32_t ra_undecl_records(const ra_undecl_t *t);
ra_undecl_rec_t *ra_undecl_record(ra_undecl_t *t, uint32_t i);

/* The i-th latest violation kept (0: the latest), NULL past them;
 * ra_undecl_recent_slot() takes the slot for a new one (the oldest). */
const ra_undecl_viol_t *ra_undecl_recent(const ra_undecl_t *t, uint32_t i);
ra_undecl_viol_t *ra_undecl_recent_slot(ra_undecl_t *t);

/* Clients in the table, evictions so far (of which flagged ones). */
uint32_t ra_undecl_clients(const ra_undecl_t *t);
uint64_t ra_undecl_evictions(const ra_undecl_t *t, uint64_t *flagged);

/* "robots.txt", "disallowed", "impossible-ua", "no-subresources",
 * "no-referer-chain", "regular-rate", "cloud", "shared" for one bit;
 * NULL else. */
const char *ra_undecl_signal_name(uint32_t bit);

/* RA_UNDECL_PAGE, _SUBRES, _ROBOTS or _OTHER for a path. */
unsigned ra_undecl_path_kind(ra_str_t path);

/* 1 when ua claims a browser version pair no release ever sent (a
 * Firefox whose rv: is not its version, an Edge whose Chrome is another
 * major, a Chrome of an engine it never shipped, a Safari on Windows
 * long after Apple stopped making one). */
int ra_undecl_ua_impossible(ra_str_t ua);

/* The client as shown: "192.0.2.7" or "2001:db8:1:2::/64"; the length
 * written to out (at least 48 bytes), NUL-terminated. */
size_t ra_undecl_client(const uint8_t addr[16], char *out);

/* The tables of several sites, by name, as a report reads them */
typedef struct {
    ra_str_t      name;
    ra_undecl_t  *table;
} ra_undecl_site_t;

typedef struct ra_undecl_sites_s {
    const ra_undecl_site_t  *sites;
    size_t                   n;
} ra_undecl_sites_t;

/* The table of the site named name (ASCII case ignored), or NULL */
ra_undecl_t *ra_undecl_sites_find(const ra_undecl_sites_t *s, ra_str_t name);

/* What ra_undecl_judge() says of a request */
#define RA_UNDECL_V_NONE        0   /* its client is not flagged */
#define RA_UNDECL_V_COMPLIANT   1
#define RA_UNDECL_V_VIOLATION   2
#define RA_UNDECL_V_ROBOTS      3   /* a flagged client's robots.txt */

typedef struct {
    ra_undecl_hit_t   hit;
    unsigned          verdict;
    unsigned          shared;       /* people's address: not matched */
    ra_match_t        match;        /* against '*' (allowed: no rules) */
} ra_undecl_verdict_t;

/* Judges r's path against the '*' group of rules (NULL: none, all
 * allowed), which sets r->disallowed, then counts r (ra_undecl_see());
 * once its client is flagged, counts the verdict in its record and keeps
 * a violation among the recent ones.  whole_window: at the flagging
 * request, the verdicts of the client's window before it count too (what
 * 'logs' reports; a server judges from the flagging request on). */
void ra_undecl_judge(ra_undecl_t *t, const ra_rules_t *rules,
    ra_undecl_req_t *r, ra_str_t method, int whole_window,
    const ra_alloc_t *scratch, ra_undecl_verdict_t *v);

/* A browser's request as a server judged it (ra_audit_undeclared()) or
 * the CLI did: the request, the verdict, a copy of its client's record
 * (when v.hit.rec), and what goes out about it. */
typedef struct {
    ra_undecl_req_t      r;
    ra_undecl_verdict_t  v;
    ra_undecl_rec_t      rec;
    ra_str_t             site;
    ra_str_t             method;
    unsigned             alert:1;       /* the RA104 line goes out (the
                                           alert budget had one) */
} ra_undecl_out_t;

/* The evidence line of a violation (ra_evidence.h's keys, crawler
 * "undeclared"), with its newline */
void ra_undecl_evidence(ra_buf_t *b, const ra_undecl_out_t *u);

/* The signals' names, comma-separated (json: as JSON strings) */
void ra_undecl_signals_list(ra_buf_t *b, uint32_t signals, int json);

/* The RA104 alert of a violation: text (no line end; the server adds its
 * own prefix before) or a JSON line */
void ra_undecl_alert(ra_buf_t *b, int json, ra_str_t site,
    const ra_undecl_rec_t *rec, const ra_undecl_req_t *r, ra_str_t method,
    const ra_match_t *m);

#endif /* RA_UNDECLARED_H */
