/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Judging crawler requests (docs/design.md, "Verdicts").
 *
 * An ra_audit_t is one process's view: the crawler table, the published
 * ranges, the ledger handle, and a cache of rule sets compiled from the
 * versions the ledger holds (keyed by version hash, so each process
 * compiles a body once, whoever captured it).  Every front end (nginx,
 * Apache, the CLI over logs) feeds the same two calls:
 *
 *   ra_audit_robots()   a robots.txt answer the site gave
 *   ra_audit_request()  any request: identify, verify, judge, count
 *
 * Verdicts, for a crawler C on site S at time t:
 *   exempt       C is user-triggered (its operator says robots.txt does
 *                not apply)
 *   compliant    (flag unreachable_30d) every robots.txt answer of S for
 *                30 days was 5xx/429 while S's other pages answered
 *                (below 500, one within the last 24 hours): crawlers then
 *                act as if there were no robots.txt (RFC 9309 2.3.1.4;
 *                Google: "if the site is generally available"), whatever
 *                C's own last fetch got
 *   unreachable  the last robots.txt answer S gave C was 5xx/429 and t is
 *                within 12 hours of it: "complete disallow" (RFC 9309
 *                2.3.1.4), whatever the rules say
 *   compliant    the current version's group for C allows the path (rfc
 *                mode)
 *   stale        the current rules disallow it, but a copy C may still use
 *                allows it: the version C last fetched (within 24 hours),
 *                or, when C fetched nothing within 24 hours, any version in
 *                force during the last 24 hours
 *   violation    no such copy exists
 * and independently the flags crawl_delay (the gap since C's previous
 * request is below the group's Crawl-delay and C honours it) and
 * no_robots_fetch (C fetched no robots.txt from S in the last 24 hours).
 * Impostors are judged and counted under verification "impostor", never
 * against the crawler they claim to be.  Every judged request of an
 * impostor (any verdict but a robots.txt fetch) raises an RA102 alert
 * carrying its verdict, instead of RA100/RA101: the lie is the offence.
 * Those alerts are rate-limited per (site, crawler, client address block:
 * /24 IPv4, /48 IPv6, ra_alert_block()) by a table in this process
 * (RA_IMPOSTOR_SLOTS), not by the ledger.
 *
 * ra_audit_request() is three steps: gather (under the ledger's lock, the
 * state below is copied out), judge (ra_judge(): a pure function of that
 * state, the crawler and the path; no ledger, no lock), count (under the
 * lock again: counters, the violation ring, the alert gate).  Tests and
 * tools call ra_judge() directly.  Only a version the judge needs and
 * this process has not compiled yet takes the lock once more, to copy
 * its body out (then compiled outside the lock and cached): a request
 * whose needed versions are compiled copies no robots.txt body, however
 * many and large the site's versions are.
 */
#ifndef RA_AUDIT_H
#define RA_AUDIT_H

#include "ra_core.h"
#include "ra_crawlers.h"
#include "ra_host.h"
#include "ra_ledger.h"
#include "ra_rdns.h"
#include "ra_rules.h"
#include "ra_verify.h"
#include "ra_sig.h"

typedef enum {
    RA_VERDICT_NONE = 0,        /* a browser: counted in totals only; or
                                   a request not judged (RA_ENOMEM) */
    RA_VERDICT_FETCH,           /* a robots.txt fetch */
    RA_VERDICT_COMPLIANT,
    RA_VERDICT_VIOLATION,
    RA_VERDICT_STALE,
    RA_VERDICT_UNREACHABLE,
    RA_VERDICT_EXEMPT,
    RA_VERDICT_UNKNOWN          /* no robots.txt known for the site (or
                                   its rules were lost): not judged */
} ra_verdict_e;

const char *ra_verdict_name(ra_verdict_e v);     /* "compliant", ... */

#define RA_FLAG_CRAWL_DELAY      0x01
#define RA_FLAG_NO_ROBOTS_FETCH  0x02
/* judged compliant because the site's robots.txt has answered only
 * 5xx/429 for RA_UNREACHABLE_30D_MS while its other pages answer (within
 * the last 24 hours): crawled as if there were no robots.txt */
#define RA_FLAG_UNREACHABLE_30D  0x04

/* ms between alerts per (site, crawler), per (site, address block) for
 * generic bots, when the configuration says nothing */
#define RA_ALERT_INTERVAL_DEFAULT  60000

/* Impostor alerts are rate-limited per (site, crawler, client address) in
 * each process, by a direct-mapped table of this many slots inside the
 * engine (about 200 bytes each: no memory per request, whatever the
 * traffic).  A key that takes over another's slot starts afresh: a
 * collision can cost a line more, never one fewer. */
#define RA_IMPOSTOR_SLOTS          512

/* What enforce refuses: a set of ra_refuse_e (below) */
typedef unsigned  ra_enforce_t;

/*
 * Alert budgets (ra_alert.h): on top of the gates above, alert lines go
 * out through a token bucket per site and one for all sites (lines a
 * minute; a bucket holds a minute's worth).  What they hold back is
 * counted and said once per alert interval (at least a second) in one
 * summary line (RA103), by the first judged request after it, which
 * names the verified crawlers among them.  Alerts about anyone but a
 * verified crawler (impostors, unverifiable names, generic bots: names
 * any client can give) may use at most half of each bucket (at least a
 * line a minute): the other half is kept for verified crawlers.  Generic
 * bots (no entry in the crawler table) pass one gate per site and client
 * address block (/24 IPv4, /48 IPv6), so that a new name per request
 * does not make a new crawler to alert about.
 */
#define RA_ALERT_SITE_PER_MIN      60
#define RA_ALERT_TOTAL_PER_MIN     300
#define RA_ALERT_BUDGET_OFF        (-1)     /* no limit */
#define RA_ALERT_BUDGET_MAX        1000000

typedef struct {
    int64_t         site;           /* lines a minute per site; 0: unset
                                       (RA_ALERT_SITE_PER_MIN);
                                       RA_ALERT_BUDGET_OFF: no limit */
    int64_t         total;          /* lines a minute in all; likewise
                                       (RA_ALERT_TOTAL_PER_MIN) */
} ra_alert_budget_t;

/* What the budgets held back: the summary line's numbers. */
typedef struct {
    int64_t         since;          /* the first line held back */
    uint32_t        suppressed;     /* lines held back */
    uint32_t        crawlers;       /* distinct crawlers they were about
                                       (a generic bots' block is one) */
    uint32_t        sites;          /* distinct sites */
    uint32_t        verified;       /* verified crawlers among crawlers */
    unsigned        nheld;          /* names of them below (at most
                                       RA_ALERT_HELD_NAMES) */
    uint8_t         held_len[RA_ALERT_HELD_NAMES];
    char            held[RA_ALERT_HELD_NAMES][RA_NAME_MAX];
    ra_alert_budget_t  budget;      /* the limits (RA_ALERT_BUDGET_OFF:
                                       none) */
} ra_alert_summary_t;

typedef struct {
    ra_str_t        site;           /* the site's name (host) */
    int64_t         time;           /* ms */
    ra_str_t        addr;           /* client address as text */
    ra_str_t        user_agent;
    ra_str_t        method;
    ra_str_t        uri;            /* request target as received */
    int             status;         /* response status (robots fetches) */
    ra_enforce_t    enforce;        /* what to refuse: only before the
                                       content is served; 0 at log time */
    void           *where;          /* the server's request, handed back
                                       to host->log; NULL in the CLI */
    ra_str_t        referer;        /* the Referer header; len 0: none
                                       (crawl-to-refer, ra_refer.h) */
    /* Web Bot Auth (ra_sig.h, docs/web-bot-auth.md): the three header
     * fields as received (len 0: absent; nothing is checked unless
     * Signature and Signature-Input are both there), and what a signature
     * base may cover besides method and uri */
    ra_str_t        signature;
    ra_str_t        signature_input;
    ra_str_t        signature_agent;
    ra_str_t        authority;      /* the Host field; len 0: site */
    ra_str_t        scheme;         /* "https" when the connection is
                                       TLS; len 0: unknown (a covered
                                       @scheme or @target-uri is then left
                                       unchecked) */
    unsigned        target_kind;    /* ra_http_target_kind(uri) with
                                       RA_TARGET_KNOWN (ra_http.h), when
                                       the glue asked already; 0: not
                                       asked (ra_http_request_kind()) */
    unsigned        recorded;       /* 1: its robots.txt answer went to
                                       ra_audit_robots(), which bound the
                                       crawler to it: counted only */
} ra_request_t;

/*
 * A verdict is plain data: the deciding rule's pattern and the group's
 * token are copies (cut to RA_PATTERN_MAX and RA_NAME_MAX bytes), so it
 * stays valid after the next call, outside any lock.  name is the crawler
 * table's name, or a generic bot's token: then a span of the request's
 * User-Agent (cut to RA_NAME_MAX), valid as long as that is.
 * ra_audit_request() sets every field but the bytes of token, pattern and
 * budget.held past their lengths (read them through those).
 */
typedef struct {
    ra_verdict_e         verdict;
    unsigned             flags;         /* RA_FLAG_* */
    unsigned             kind;          /* ra_ua_kind_e */
    unsigned             verification;  /* ra_verify_e */
    unsigned             verified_by;   /* ra_verified_by_e: what decided
                                           verification (NONE when
                                           unverifiable) */
    const ra_crawler_t  *crawler;       /* known crawlers only */
    ra_str_t             name;          /* crawler name or generic token */
    uint32_t             line;          /* deciding rule, 0 if none */
    int32_t              crawl_delay_ms;    /* the applying group's
                                               Crawl-delay; 0: none */
    ra_rule_type_e       rule_type;
    size_t               token_len;
    size_t               pattern_len;
    char                 token[RA_NAME_MAX];        /* robots.txt token
                                                       that chose the group
                                                       ("*" for the global
                                                       one) */
    char                 pattern[RA_PATTERN_MAX];   /* the deciding rule */
    /* alert now, and say how many were held back since the last one:
     * set on violations and unreachable by crawlers that are not
     * impostors, when the per-(site, crawler, verification) alert
     * interval has passed (the ledger's timer; for a generic bot, the
     * per-(site, address block) one); and on every judged request of an
     * impostor, when the per-(site, crawler, address) interval has
     * passed (this process's table); in each case only when the alert
     * budgets have a line for it */
    unsigned             alert:1;
    /* a budget summary is due (RA103): its numbers in budget */
    unsigned             summary:1;
    uint32_t             suppressed;
    /* ra_refuse_e: why the request's enforce scope refuses it (set by
     * ra_audit_request(), counted there, and marked in its alert) */
    unsigned             refused;
    ra_alert_summary_t   budget;
    /* the request's Web Bot Auth signature: ra_sig_result_e, and why it
     * is not valid (static text; "" when valid or absent) */
    unsigned             sig_result;
    const char          *sig_why;
} ra_verdict_t;

/* The verdict's token and pattern as spans of the verdict itself. */
ra_str_t ra_verdict_token(const ra_verdict_t *v);
ra_str_t ra_verdict_pattern(const ra_verdict_t *v);


/* ---- enforce ------------------------------------------------------------ */

/*
 * What enforce refuses a request for (robots_audit_enforce,
 * RobotsAuditEnforce: docs/design.md, "Data flow", Enforce):
 *   violation    the verdict is violation
 *   unreachable  the verdict is unreachable: the crawler's own last
 *                robots.txt answer was 5xx/429, less than 12 hours ago (its
 *                own later 2xx/4xx fetch ends that)
 *   impostor     the client claims a crawler whose published ranges it is
 *                outside: every request it makes, whatever the verdict
 *                (the lie is the offence, as for RA102), but for
 *                robots.txt and a request left unjudged
 * A request that two reasons refuse is refused as an impostor.  Nothing
 * else is ever refused: compliant, stale, exempt, unknown, browsers, and
 * robots.txt itself.
 */
typedef enum {
    RA_REFUSE_NONE = 0,
    RA_REFUSE_VIOLATION,
    RA_REFUSE_UNREACHABLE,
    RA_REFUSE_IMPOSTOR,
    RA_REFUSE_MAX
} ra_refuse_e;

const char *ra_refuse_name(ra_refuse_e r);  /* "violation", ...; "none" */

/* A scope (ra_enforce_t): bit 1u << r for each reason r it refuses
 * (RA_ENFORCE_OFF_WORD only records that "off" was written). */
#define RA_ENFORCE_OFF          0u
#define RA_ENFORCE_ON           (1u << RA_REFUSE_VIOLATION)
#define RA_ENFORCE_ALL          ((1u << RA_REFUSE_VIOLATION)                \
                                 | (1u << RA_REFUSE_UNREACHABLE)            \
                                 | (1u << RA_REFUSE_IMPOSTOR))
#define RA_ENFORCE_OFF_WORD     0x100u

/*
 * Adds one word of the directive to *scope (start from RA_ENFORCE_OFF):
 * "off", "on" (= "violation"), "violation", "unreachable", "impostor",
 * any case; the scope is the union of the words, and "off" stands alone.
 * RA_OK, or RA_ERROR with *why a static phrase for the server's message
 * about that word ("the words are off, on, violation, ...").
 */
int ra_enforce_word(ra_enforce_t *scope, ra_str_t word, const char **why);

/* Does the scope refuse anything ("off" does not)?  If not, requests are
 * judged after they are served, as without enforce. */
#define ra_enforce_any(scope)   (((scope) & RA_ENFORCE_ALL) != 0)

/* Does scope refuse the request v was judged?  Why, or RA_REFUSE_NONE. */
ra_refuse_e ra_enforce_refuses(ra_enforce_t scope, const ra_verdict_t *v);


/* ---- the pure judge ---------------------------------------------------- */

/* Who asks, as the judge sees it. */
typedef struct {
    const ra_str_t      *tokens;        /* robots.txt tokens, best first */
    size_t               ntokens;
    unsigned             flags;         /* RA_CRAWLER_* (0: generic bot) */
    const void          *key;           /* names tokens for a memo (the
                                           crawler's entry); NULL: none */
} ra_judge_who_t;

/*
 * The group each (rule set, who->key) reads, chosen once
 * (ra_rules_group()) and remembered; a slot is only a hint, its set and
 * key compared.  A who without a key (a generic bot) and one token of at
 * most RA_GROUP_MEMO_TOKEN bytes is remembered by that token, its bytes
 * compared.  Whoever releases a rule set forgets it first
 * (ra_group_memo_forget()).
 */
#define RA_GROUP_MEMO        32
#define RA_GROUP_MEMO_TOKEN  32

typedef struct {
    const ra_rules_t  *rules;           /* NULL: empty */
    const void        *key;
    ra_rules_group_t   group;
    /* key NULL: the token (group.group, when it named the group, is that
     * request's: the next one puts its own) */
    uint8_t            token_len;
    uint8_t            named;
    unsigned char      token[RA_GROUP_MEMO_TOKEN];
} ra_group_memo_slot_t;

typedef struct {
    ra_group_memo_slot_t  slot[RA_GROUP_MEMO];
} ra_group_memo_t;

void ra_group_memo_forget(ra_group_memo_t *memo, const ra_rules_t *rs);

typedef struct ra_judge_state_s  ra_judge_state_t;

/*
 * What a verdict depends on: the site's versions and the crawler's
 * history (as ra_ledger_state_locked() copies them), and the rule set of
 * each version.  Rule sets come from resolve() when it is set, asked only
 * for the versions the verdict needs (older ones only when the current
 * one disallows): RA_OK with *rs set, NULL when the version's rules are
 * unknown (its body was lost: judged as allowing nothing older); or
 * RA_ENOMEM.  Without resolve(), rules[k] is version k's set (NULL:
 * unknown).  A set must stay valid until the next call of resolve().
 */
struct ra_judge_state_s {
    ra_ledger_state_t    facts;
    int                (*resolve)(const ra_judge_state_t *g, unsigned k,
                                  const ra_rules_t **rs);
    void                *ctx;           /* resolve()'s */
    const ra_rules_t    *rules[RA_VERSIONS];
    const ra_alloc_t    *scratch;       /* the matcher's, for paths over
                                           RA_MATCH_STACK; may be NULL */
    ra_group_memo_t     *memo;          /* may be NULL: the group chosen
                                           for every path */
};

/*
 * Judges a request for path (the request target as rules read it:
 * ra_http_target_path()) at now.  A rule set allows the request when it
 * allows both the path as received and its canonical form
 * (ra_http_canon(): what the server maps to a resource), so "//private/x"
 * is judged as "/private/x" and "/%2570" as itself: the stricter verdict
 * wins, and an older copy excuses a request only when it allows both.
 * Sets out's verdict, flags, line, rule_type, token, pattern (the
 * disallowing spelling's rule) and crawl_delay_ms, and nothing else.  RA_OK, or RA_ENOMEM (a
 * rule set could not be had: verdict RA_VERDICT_NONE, the request is not
 * judged).  Paths up to RA_MATCH_STACK bytes take no memory; longer ones
 * take their canonical form's from g->scratch.
 */
int ra_judge(const ra_judge_state_t *g, const ra_judge_who_t *who,
    ra_str_t path, int64_t now, ra_verdict_t *out);

/* Does rs allow who the request for path, both spellings, as ra_judge()
 * decides (whatif asks it of two files)?  m: the deciding match, the
 * disallowing spelling's when one is disallowed.  scratch as in
 * ra_judge_state_t. */
int ra_judge_allows(const ra_rules_t *rs, const ra_judge_who_t *who,
    ra_str_t path, const ra_alloc_t *scratch, ra_match_t *m);


/* ---- the engine -------------------------------------------------------- */

typedef struct {
    const ra_alloc_t     *alloc;        /* for the rule-set cache */
    const ra_crawlers_t  *crawlers;     /* compiled table */
    const ra_ranges_t    *ranges;       /* may be NULL */
    const ra_host_t      *host;         /* where lines go; NULL: nowhere.
                                           Must outlive the engine */
    ra_str_t              zone_name;    /* names the ledger in messages,
                                           e.g. robots_audit_zone "tiny"
                                           (copied) */
    int64_t               alert_interval;  /* ms between alerts per
                                              (site, crawler), and per
                                              (site, crawler, address) for
                                              impostors; < 0: unset
                                              (RA_ALERT_INTERVAL_DEFAULT);
                                              0: every one alerts */
    size_t                cache_bytes;  /* rule-set cache budget; 0: 64 MiB */
    ra_alert_budget_t     alert_budget; /* zeros: the defaults */
    unsigned              crawler_sites:1;  /* sites are created by
                                               crawlers' requests and
                                               robots.txt answers only: a
                                               browser's (or no User-Agent)
                                               request for a site not yet
                                               seen is counted in the
                                               totals only (the CLI, whose
                                               sites are the log's Host
                                               values, anyone's) */
    /* Web Bot Auth keys (robots_audit_signature_keys DIR); NULL: none,
     * every signature is left unchecked */
    const ra_sig_keys_t  *sig_keys;
    int64_t               sig_max_age;  /* ms; 0: RA_SIG_MAX_AGE_DEFAULT */
    int64_t               sig_skew;     /* ms of clock skew allowed; 0:
                                           RA_SIG_SKEW_DEFAULT */
    uint32_t              sig_verify_per_sec;   /* Ed25519 verifications a
                                                   second in this process;
                                                   0: RA_SIG_VERIFY_PER_SEC */
    ra_rdns_conf_t        rdns;         /* reverse-DNS budget and TTLs
                                           (zeros: ra_rdns.h's); used
                                           when host->rdns_start is set */
    /* One engine per thread (Apache's threaded MPMs: no lock around
     * ra_audit_request()): the impostor alert gate (RA_IMPOSTOR_SLOTS) is
     * still one per process, impostors_of's, shared by every engine made
     * with it (which must outlive them) and taken under impostors_lock;
     * NULL: the engine's own, and no lock.  Everything else (the
     * User-Agent cache, compiled rule sets, site hints) is the engine's. */
    struct ra_audit_s    *impostors_of;
    ra_lock_t             impostors_lock;
} ra_audit_conf_t;

typedef struct ra_audit_s  ra_audit_t;

ra_audit_t *ra_audit_create(const ra_audit_conf_t *conf, ra_ledger_t *ledger);
void ra_audit_destroy(ra_audit_t *au);

/* The crawler table the audit was created with (NULL for NULL). */
const ra_crawlers_t *ra_audit_crawlers(const ra_audit_t *au);
/* The IP-range lists it was created with (NULL for NULL, or none). */
const ra_ranges_t *ra_audit_ranges(const ra_audit_t *au);

typedef struct {
    int           status;
    ra_str_t      content_type;     /* data NULL: unknown */
    ra_str_t      body;             /* the first <= 500 KiB, decoded */
    size_t        size;             /* bytes served (coded, as the
                                       capture saw them); 0: body.len */
    ra_str_t      content_encoding; /* the codings undone (ra_decode.h);
                                       len 0: none */
    size_t        decoded;          /* with content_encoding: bytes
                                       decoded (body.len, more unknown
                                       when truncated) */
    const char   *decode_error;     /* undecodable: why ("corrupt gzip
                                       data") */
    unsigned      truncated:1;      /* body is a prefix of what was
                                       served, decoded */
    unsigned      undecodable:1;    /* a 2xx whose Content-Encoding could
                                       not be undone: no body, and the
                                       site keeps its current version */
    unsigned      initial:1;        /* a configured file: recorded only
                                       when the site has no version yet,
                                       so that a reload never replaces
                                       what the server was seen to
                                       serve */
    /* the client's request this answered (status: the answer's), when
     * it answered one; NULL for what the site is configured to serve
     * (robots_audit_robots_file, logs --robots) */
    const ra_request_t  *req;
    ra_str_t      location;         /* a 3xx's Location; len 0: none */
    unsigned      hop;              /* 0: the answer to /robots.txt; k:
                                       to the target of its k-th redirect
                                       (ra_audit_robots_hop()) */
} ra_answer_t;

/*
 * Records what site answered for /robots.txt (docs/design.md, "Whose
 * answer binds whom").  With ans->req, the answer to a client's request:
 *
 *   - a target with a query ("/robots.txt?lang=de") changes nothing:
 *     crawlers read /robots.txt alone;
 *   - a 2xx is the site's file: it becomes the site's version in force;
 *   - any other answer is the site's only when the site gives it to
 *     everyone: to a verified crawler, or to a second client (another
 *     address and another User-Agent) after a first with no answer
 *     recorded between them (ra_ledger_answer_everyone_locked()); else it
 *     binds only the client that got it (a 403 to a blocked User-Agent
 *     lets that client crawl all, and moves nobody else's verdicts; a
 *     503 opens its own 12-hour window, not the site's episode);
 *   - a crawler (not a browser) is bound by what it got at once, before
 *     the request is logged, so that its next request on another
 *     connection already reads it; ra_audit_request() then only counts
 *     the request (req->recorded, which the caller sets).
 *
 * Without ans->req the answer is the site's (the configured file).  A 2xx
 * is linted and stored as the current version when it is new.  An undecodable answer changes no
 * version: the site keeps the one in force and is marked undecodable
 * (the status page's badge and lint finding, an RA202 line when it starts)
 * until an answer decodes again.  RA_OK or RA_ENOMEM (recorded without
 * its lint counts; logged through the host: RA_TAG_NOMEM). */
int ra_audit_robots(ra_audit_t *au, ra_str_t site, const ra_answer_t *ans,
    int64_t now);

/*
 * Redirects of robots.txt are followed as crawlers follow them (RFC 9309
 * 2.3.1.2, up to RA_REDIRECT_HOPS): a 3xx that is the site's answer and
 * whose Location is a path of the site (relative, or an absolute URL whose
 * host is the site's) records that path, and the answer to it is the
 * site's robots.txt (ans->hop > 0) from then on; a loop, a sixth hop or
 * another host's target is the final answer ("allow all", with a lint
 * finding).  ra_audit_robots_hop(): k when target is the target of the
 * site's k-th redirect, else 0.  ra_audit_redirects(): whether any site
 * ever redirected (a read, no lock): a glue asks ra_audit_robots_hop()
 * about other targets only then.
 */
unsigned ra_audit_robots_hop(ra_audit_t *au, ra_str_t site, ra_str_t target,
    int64_t now);
int ra_audit_redirects(const ra_audit_t *au);

/*
 * Judges one request and counts it (the site is found or created by
 * name, under the ledger's lock).  RA_OK, or RA_ENOMEM: the request is
 * then counted, not judged (verdict RA_VERDICT_NONE), and a line says so
 * (RA_TAG_NOMEM).  When records were evicted, a line says the ledger is
 * full (RA_TAG_ZONE_FULL), at most once a minute over all processes.
 */
int ra_audit_request(ra_audit_t *au, const ra_request_t *req,
    ra_verdict_t *out);

/* A crawler's tokens the judge reads, at most (ra_audit_who()). */
#define RA_TOKENS_MAX  8

/*
 * Who the request says it is: out's crawler, name, verification and
 * verified_by (set only when something decided: the caller zeroes out
 * first), and the tokens the judge reads (who, over a caller's
 * tokens[RA_TOKENS_MAX]).  id is the identity of its User-Agent (or of
 * its signature), sv its checked signature (result RA_SIG_NONE when it
 * has none).  A crawler whose table entry names signature-agent origins
 * is judged by its signature when it sends one that can be checked:
 * valid and of one of its origins, verified; failing, or another
 * origin's, impostor.  Else (no signature, or one that cannot be checked
 * here) by its ranges at req->addr, then by reverse DNS when those do
 * not verify it (ra_audit_rdns_done() below).  ra_audit_request() decides
 * so, and the CLI's identify calls it too, so that the two can never
 * differ.
 */
void ra_audit_who(ra_audit_t *au, const ra_identity_t *id,
    const ra_request_t *req, const ra_sig_verdict_t *sv, ra_verdict_t *out,
    ra_str_t *tokens, ra_judge_who_t *who);

/*
 * Whether a request with this User-Agent may make the site exist: 1 when
 * the site exists, the User-Agent is a crawler's or a generic bot's, or
 * the engine is not crawler_sites; 0 for a browser or no User-Agent on a
 * site not seen (then ra_audit_request() creates none, and a front end
 * records nothing under that site for the line: no seeded robots.txt, no
 * robots.txt answer).
 */
int ra_audit_site_wanted(ra_audit_t *au, ra_str_t site, ra_str_t user_agent,
    int64_t now);

/* This process's memory of signature verifications (hits, verified,
 * over_budget; ra_sig.h), NULL without signature keys. */
const ra_sig_cache_t *ra_audit_sig_cache(const ra_audit_t *au);
/*
 * Reverse DNS (docs/design.md, "Reverse DNS"): a crawler with rdns
 * suffixes whose ranges do not verify it is looked up in the ledger's
 * cache; a miss asks the host (host->rdns_start).  Until an answer
 * decides (verified_by "rdns"), the ranges' verdict stands: a request
 * judged while the lookup is pending, refused or failed is unverifiable,
 * or an impostor when C's loaded ranges do not hold the address.  The
 * host hands the answer back here: ok 0 when the resolver gave none,
 * else the PTR name (len 0: no PTR) and the name's forward addresses.
 * Touches only the ledger (under its lock) and the crawler table: a
 * resolver thread may call it while the engine judges in another.
 */
void ra_audit_rdns_done(ra_audit_t *au, const uint8_t addr[16], int ok,
    ra_str_t ptr_name, const ra_addr_t *forward, size_t nforward);

/* How many robots.txt bodies this engine has copied out of the ledger
 * (one per version compiled; tests and benchmarks read it). */
uint64_t ra_audit_body_copies(const ra_audit_t *au);

#endif /* RA_AUDIT_H */
