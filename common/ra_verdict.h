/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The vocabulary of judging: what a request is (ra_request_t), what a
 * robots.txt answer is (ra_answer_t), what was decided about a request
 * (ra_verdict_e, ra_verdict_t) and why enforce refuses one (ra_refuse_e).
 * The engine that decides (ra_audit.h), the alert lines that tell of it
 * (ra_alert.h), the capture and the request tests (ra_http.h) and the
 * reports that count it (ra_report.h) all speak it, so it stands on the
 * low headers alone and includes none of theirs.  The meanings of the
 * verdicts are told in ra_audit.h.
 */
#ifndef RA_VERDICT_H
#define RA_VERDICT_H

#include "ra_core.h"
#include "ra_crawlers.h"
#include "ra_ledger.h"
#include "ra_rules.h"

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

/* What enforce refuses: a set of ra_refuse_e (below) */
typedef unsigned  ra_enforce_t;

/* The alert budgets' limits and what they held back (ra_alert.h): a
 * verdict carries the summary, so both are told here. */
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
    /* the clients with the most violations since, most first (at most
     * RA_ALERT_TOP) */
    unsigned        ntop;
    ra_alert_client_t  top[RA_ALERT_TOP];
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
    /* the scope's crawler policy (ra_policy.h), asked with enforce:
     * only before the content is served; NULL: none */
    const struct ra_policy_s  *policy;
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
    /* a violation's evidence besides the request (ra_evidence.h), as the
     * ring of recent violations keeps it: the crawler's last robots.txt
     * fetch (0: none) and the SHA-256 of the site's robots.txt in force
     * (sha_known: one is) */
    int64_t              last_fetch;
    unsigned             sha_known;
    unsigned char        robots_sha256[32];
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
 *   undeclared   a client flagged as an undeclared crawler (a browser's
 *                User-Agent, a crawler's behaviour: ra_undeclared.h) asks
 *                for a path the '*' group disallows; its other requests
 *                are served (a person behind its address still reads the
 *                site)
 * A request that two reasons refuse is refused as an impostor.  Nothing
 * else is ever refused by enforce: compliant, stale, exempt, unknown,
 * browsers but flagged ones' disallowed paths, and robots.txt itself.  The scope's policy (ra_policy.h)
 * refuses by who the crawler is, whatever robots.txt says, when enforce
 * did not (RA_REFUSE_POLICY); robots.txt itself never.
 */
typedef enum {
    RA_REFUSE_NONE = 0,
    RA_REFUSE_VIOLATION,
    RA_REFUSE_UNREACHABLE,
    RA_REFUSE_IMPOSTOR,
    RA_REFUSE_POLICY,           /* the scope's policy (ra_policy.h) */
    RA_REFUSE_UNDECLARED,       /* a flagged undeclared crawler's
                                   disallowed path (no crawler record
                                   counts it: its client's does) */
    RA_REFUSE_MAX
} ra_refuse_e;

/* The reasons a crawler record counts (ra_counter_e's refused ones) */
#define RA_REFUSE_COUNTED       RA_REFUSE_UNDECLARED

/* "violation", ..., "policy"; "none" */
const char *ra_refuse_name(ra_refuse_e r);

/* A scope (ra_enforce_t): bit 1u << r for each reason r it refuses
 * (RA_ENFORCE_OFF_WORD only records that "off" was written). */
#define RA_ENFORCE_OFF          0u
#define RA_ENFORCE_ON           (1u << RA_REFUSE_VIOLATION)
#define RA_ENFORCE_ALL          ((1u << RA_REFUSE_VIOLATION)                \
                                 | (1u << RA_REFUSE_UNREACHABLE)            \
                                 | (1u << RA_REFUSE_IMPOSTOR))
#define RA_ENFORCE_UNDECLARED   (1u << RA_REFUSE_UNDECLARED)
#define RA_ENFORCE_OFF_WORD     0x100u

/*
 * Adds one word of the directive to *scope (start from RA_ENFORCE_OFF):
 * "off", "on" (= "violation"), "violation", "unreachable", "impostor",
 * "undeclared", any case; the scope is the union of the words, and "off" stands alone.
 * RA_OK, or RA_ERROR with *why a static phrase for the server's message
 * about that word ("the words are off, on, violation, ...").
 */
int ra_enforce_word(ra_enforce_t *scope, ra_str_t word, const char **why);

/* Does the scope refuse anything ("off" does not)?  If not, requests are
 * judged after they are served, as without enforce. */
#define ra_enforce_any(scope)   (((scope) & (RA_ENFORCE_ALL                 \
                                             | RA_ENFORCE_UNDECLARED)) != 0)

/* Does scope refuse the request v was judged?  Why, or RA_REFUSE_NONE. */
ra_refuse_e ra_enforce_refuses(ra_enforce_t scope, const ra_verdict_t *v);


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

#endif /* RA_VERDICT_H */
