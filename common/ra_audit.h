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
 * (RA_IMPOSTOR_SLOTS), not by the ledger.  A configuration may name the
 * purposes that alert (conf.alert_purposes, ra_alert_purpose_wanted()):
 * the others' violations are counted and kept, and raise no alert.
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
#include "ra_alert.h"
#include "ra_crawlers.h"
#include "ra_host.h"
#include "ra_ledger.h"
#include "ra_rdns.h"
#include "ra_rules.h"
#include "ra_verdict.h"
#include "ra_verify.h"
#include "ra_sig.h"
#include "ra_undeclared.h"

/* ms between alerts per (site, crawler), per (site, address block) for
 * generic bots, when the configuration says nothing */
#define RA_ALERT_INTERVAL_DEFAULT  60000

/* Impostor alerts are rate-limited per (site, crawler, client address) in
 * each process, by a direct-mapped table of this many slots inside the
 * engine (about 200 bytes each: no memory per request, whatever the
 * traffic).  A key that takes over another's slot starts afresh: a
 * collision can cost a line more, never one fewer. */
#define RA_IMPOSTOR_SLOTS          512

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
    unsigned              alert_purposes;   /* the purposes whose
                                               violations and impostors
                                               alert
                                               (ra_alert_purposes_parse());
                                               0: every one */
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
    /* bytes a minute the evidence log may take, every process's
     * (ra_evidence.h); 0: RA_EVIDENCE_BUDGET_DEFAULT */
    uint64_t              evidence_budget;
    /* robots_audit_undeclared off: browsers' requests go through no
     * undeclared-crawler table (ra_audit_undeclared()) */
    unsigned              undeclared_off:1;
    /* the event stream this process writes (ra_events.h); NULL: none */
    struct ra_events_s   *events;
    /* the cloud providers' ranges as one lookup (ra_cloud.h), for the
     * undeclared-crawler detector's cloud signal; NULL: none loaded */
    const struct ra_cloud_set_s  *cloud;
} ra_audit_conf_t;

typedef struct ra_audit_s  ra_audit_t;

ra_audit_t *ra_audit_create(const ra_audit_conf_t *conf, ra_ledger_t *ledger);
void ra_audit_destroy(ra_audit_t *au);

/* The crawler table the audit was created with (NULL for NULL). */
const ra_crawlers_t *ra_audit_crawlers(const ra_audit_t *au);
/* Its event stream (NULL for NULL, or none). */
struct ra_events_s *ra_audit_events(const ra_audit_t *au);
/* The IP-range lists it was created with (NULL for NULL, or none). */
const ra_ranges_t *ra_audit_ranges(const ra_audit_t *au);

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
/*
 * May the evidence line of bytes about a violation on site go out at now
 * (ra_evidence_budget_take(), under the ledger's lock: the budget is the
 * server's)?  1; or 0, the line dropped and counted for the site.
 */
int ra_audit_evidence_take(ra_audit_t *au, ra_str_t site, size_t bytes,
    int64_t now);

/* A line the log which (RA_LOGFILE_*) lost: counted; 1 when the caller is
 * to say so, *failed the lines lost since it was last said
 * (ra_ledger_log_error()); else 0. */
int ra_audit_log_error(ra_audit_t *au, unsigned which, int64_t now,
    uint64_t *failed);

/* An event line's outcome (ra_events.h; -1: no stream, not counted),
 * counted in the ledger for every process (ra_ledger_events_count()). */
void ra_audit_events_count(ra_audit_t *au, int outcome);

/* Whether the log which ends in a torn line, swapped for owed
 * (ra_ledger_log_owed()). */
int ra_audit_log_owed(ra_audit_t *au, unsigned which, int owed);

/*
 * A browser's request (v->kind RA_UA_BROWSER, v from ra_audit_request())
 * through its site's undeclared-crawler table in the ledger (one lookup
 * under the lock), judged against the '*' group of the site's robots.txt
 * in force: *u says what the detector said and, for a flagged client's
 * violation, whether the alert budgets had a line for it (u->alert); when
 * req->enforce has RA_ENFORCE_UNDECLARED, such a violation sets
 * v->refused to RA_REFUSE_UNDECLARED.  1 when the client is flagged (its
 * record copied into u->rec), else 0.
 */
int ra_audit_undeclared(ra_audit_t *au, const ra_request_t *req,
    ra_verdict_t *v, ra_undecl_out_t *u);

/* Does au run the detector: its ledger has tables and
 * conf.undeclared_off is not set? */
int ra_audit_undeclared_on(const ra_audit_t *au);

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
