/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The audit ledger: what robots-audit knows, laid out for shared memory.
 *
 * One contiguous region holds everything: a header (magic, layout
 * version, sizes), then fixed-size tables addressed by index, never by
 * pointer, so any process that maps the region anywhere reads the same
 * thing, and a reload keeps it:
 *
 *   sites       per site (virtual host): its robots.txt answers and the
 *               versions in force during the last 24 hours
 *   stats       per (site, crawler, verification): the counters
 *               (docs/design.md, "The ledger"), what the verdicts need to
 *               know (last robots.txt fetch, previous request) and its
 *               politeness over 24 hours (ra_polite_t)
 *   violations  a ring of the most recent violations
 *   blobs       the robots.txt bodies of those versions, so that every
 *               process can compile the rules another one captured
 *
 * The layout is private to the ledger's files (common/ra_ledger*.c, through
 * ra_ledger_impl.h): this header offers operations and plain-data copies
 * (snapshots, totals), never the region's own structs.
 * Sites and stats are hash-indexed with least-recently-used eviction;
 * evictions are counted.  Counters are updated with atomics; everything
 * else changes under the caller's lock (nginx's zone mutex, an APR global
 * mutex, nothing in the CLI).  Functions whose names end in _locked are
 * called with that lock held (ra_ledger_lock()); the others take it
 * themselves or need none.  The region is the caller's memory: the ledger
 * never allocates in it.
 *
 * Sites and stat records are named by id: their index in the region + 1
 * (0 is never an id).  An id is valid until the lock is released: a
 * record may be evicted and its slot reused afterwards.
 *
 * Times are Unix milliseconds (int64_t).
 */
#ifndef RA_LEDGER_H
#define RA_LEDGER_H

#include "ra_core.h"
#include "ra_host.h"
#include "ra_logfile.h"

#define RA_SITE_NAME_MAX       128     /* bytes of a host name kept */
#define RA_REDIRECT_HOPS       5       /* robots.txt redirects followed
                                          (RFC 9309 2.3.1.2: at least
                                          five) */
#define RA_REDIRECT_PATH_MAX   128     /* bytes of a redirect's target */
#define RA_NAME_MAX            64      /* crawler name or generic token */
#define RA_CTYPE_MAX           64      /* Content-Type kept */
#define RA_CODING_MAX          32      /* Content-Encoding kept */
#define RA_VERSIONS            8       /* robots.txt versions per site */
#define RA_URI_MAX             256     /* bytes of a violating URI kept */
#define RA_PURPOSES            12      /* RA_CAT_MAX of ra_crawlers.h */
#define RA_METHOD_MAX          16
#define RA_ADDR_TEXT_MAX       46      /* INET6_ADDRSTRLEN */
#define RA_PATTERN_MAX         96      /* bytes of the deciding rule kept */
#define RA_REFER_SLOTS         24      /* crawl-to-refer operators per site
                                          (ra_refer.h's RA_REFER_OPS) */

#define RA_DAY_MS              (24LL * 3600 * 1000)
#define RA_UNREACHABLE_MS      (12LL * 3600 * 1000)
/* robots.txt unreachable this long while the site's other pages answer:
 * crawled as if there were none (docs/design.md, "Verdicts") */
#define RA_UNREACHABLE_30D_MS  (30LL * RA_DAY_MS)

/* ra_ledger_full_note() says so at most this often, all processes */
#define RA_FULL_NOTE_MS        60000
/* ra_ledger_log_error() likewise, per log */
#define RA_LOG_ERROR_NOTE_MS   60000

/* Counters (docs/design.md, "The ledger"), per (site, crawler,
 * verification). */
typedef enum {
    RA_CNT_REQUESTS = 0,
    RA_CNT_ROBOTS_FETCHES,
    RA_CNT_COMPLIANT,
    RA_CNT_VIOLATION,
    RA_CNT_STALE,
    RA_CNT_UNREACHABLE,
    RA_CNT_EXEMPT,
    RA_CNT_CRAWL_DELAY,
    RA_CNT_NO_ROBOTS_FETCH,
    RA_CNT_UNKNOWN,             /* judged while no robots.txt was known */
    /* refused by enforce (ra_refuse_e order: violation, unreachable,
     * impostor) or by the scope's policy (ra_policy.h); each is also
     * counted under its verdict */
    RA_CNT_REFUSED_VIOLATION,
    RA_CNT_REFUSED_UNREACHABLE,
    RA_CNT_REFUSED_IMPOSTOR,
    RA_CNT_REFUSED_POLICY,
    RA_CNT_UNREACHABLE_30D,     /* judged compliant: robots.txt unreachable
                                   for 30 days, the site answering */
    RA_CNT_LLMS_FETCHES,        /* /llms.txt, /llms-full.txt (also judged) */
    RA_CNT_MAX
} ra_counter_e;

const char *ra_counter_name(ra_counter_e c);    /* "requests", ... */

/* How a robots.txt answer reads to crawlers (docs/robots-txt.md, A). */
typedef enum {
    RA_ANSWER_NONE = 0,         /* never fetched */
    RA_ANSWER_RULES,            /* 2xx: its rules apply */
    RA_ANSWER_ALLOW_ALL,        /* 4xx but 429, or > 5 redirects: none */
    RA_ANSWER_UNREACHABLE       /* 5xx, 429, no answer: disallow all */
} ra_answer_e;

ra_answer_e ra_answer_of_status(int status);

/* The 30-day phase (docs/design.md, "Verdicts"): a site whose robots.txt
 * has answered only 5xx/429 since failing_since, at least
 * RA_UNREACHABLE_30D_MS before now, while another of its pages answered
 * below 500 less than 24 hours before now (pages_answered). */
int ra_unreachable_30d(int64_t failing_since, int64_t pages_answered,
    int64_t now);

/* What identifies a version: its answer class and, for 2xx, its body.
 * Never 0. */
uint64_t ra_ledger_version_hash(int status, ra_str_t body);


/* ---- plain data: what snapshots and the operations below copy out -- */

/*
 * Politeness of one crawler on one site over the last 24 hours, fixed-size
 * (176 bytes) and plain numbers (a writer that dies leaves nothing
 * inconsistent): a ring of RA_POLITE_BUCKETS buckets of RA_POLITE_SPAN_MS
 * each (bucket b holds the span b % RA_POLITE_BUCKETS, spans counted from
 * the epoch), each with the most requests seen in one clock minute of that
 * span and a histogram of the gaps between consecutive requests.  A
 * reading covers the buckets of the last 24 hours: 20 to 24 hours, as the
 * oldest bucket leaves whole.  Bin 0 counts gaps under RA_POLITE_GAP0_MS,
 * bin k gaps in [GAP0 << (k - 1), GAP0 << k), the last bin every longer
 * one: a median read from it lies within its bin's bounds (a factor of
 * two; ra_polite_read() interpolates within the bin).  A bin about to
 * overflow halves its bucket's bins (proportions kept).
 */
#define RA_POLITE_BUCKETS      6
#define RA_POLITE_SPAN_MS      (4LL * 3600 * 1000)
#define RA_POLITE_BINS         12
#define RA_POLITE_GAP0_MS      250     /* last bin: 256 s and more */

typedef struct {
    int64_t   last;                       /* the previous request, or 0 */
    uint32_t  bucket;                     /* newest bucket's span number */
    uint32_t  minute;                     /* minute number being counted */
    uint16_t  minute_count;               /* requests in that minute */
    uint16_t  peak[RA_POLITE_BUCKETS];    /* per bucket: busiest minute */
    uint16_t  gaps[RA_POLITE_BUCKETS][RA_POLITE_BINS];
} ra_polite_t;

/* Adds a request at now (ms).  Requests older than the ring are ignored;
 * one older than the previous counts in its minute but adds no gap. */
void ra_polite_add(ra_polite_t *p, int64_t now);

/* Over the 24 hours before now: the busiest minute's requests, and the
 * median gap in ms (-1 when fewer than one gap was seen). */
void ra_polite_read(const ra_polite_t *p, int64_t now, uint32_t *peak,
    int64_t *median_gap_ms);

/* A robots.txt version: one body as served (or "no rules" for 4xx). */
typedef struct {
    uint64_t  hash;             /* of status class and body; 0: empty slot */
    int64_t   first_seen;
    int64_t   last_seen;        /* last time it was served */
    int64_t   until;            /* replaced at; 0 while current */
    uint32_t  body_len;         /* bytes kept (<= 500 KiB) */
    uint32_t  size;             /* bytes served (coded, when they were) */
    uint32_t  decoded;          /* with a coding: bytes decoded */
    uint16_t  status;
    uint8_t   answer;           /* ra_answer_e */
    uint8_t   truncated;        /* the body is a prefix of the file */
    uint8_t   body_lost;        /* the zone had no room for the body */
    uint8_t   ctype_len;
    uint8_t   coding_len;       /* 0: served without Content-Encoding */
    char      ctype[RA_CTYPE_MAX];
    char      coding[RA_CODING_MAX];
    /* lint of this version, computed once when it is recorded */
    uint16_t  lint_errors;
    uint16_t  lint_warnings;
    uint16_t  lint_infos;
    uint16_t  groups;
    uint32_t  rules;
    uint32_t  sitemaps;
    unsigned char  sha256[32];  /* of the body crawlers read (decoded) */
} ra_version_t;

/*
 * A site's sitemaps (layout 17): those its robots.txt in force lists on
 * Sitemap: lines (the first RA_SITEMAPS of them), and, when it lists
 * none, /sitemap.xml or /sitemap_index.xml once a crawler fetched it
 * (not listed).  They live in a table of their own, a set for every
 * second site (the sites that list sitemaps take them, the one touched
 * longest ago given up when none is free).  Per sitemap: the crawlers' fetches (the last few
 * crawlers, first and last time, the last answer's status and size) and
 * the lint of the last answer captured whole (ra_sitemap.h: counts per
 * finding kind and the first finding of the first kinds met).  Plain
 * data changed under the lock: a process that dies in a change leaves at
 * most one sitemap's numbers half new, never a link; lengths are clamped
 * when read.
 */
#define RA_SITEMAPS            8       /* sitemaps kept per site */
#define RA_SITEMAP_URL_MAX     160     /* bytes of a sitemap's URL */
#define RA_SITEMAP_CRAWLERS    3       /* the last crawlers that fetched */
#define RA_SITEMAP_NAME_MAX    24      /* bytes of such a crawler's name */
#define RA_SITEMAP_KINDS       8       /* RA_SMF_NCODES of ra_sitemap.h */
#define RA_SITEMAP_EXAMPLES    3       /* findings kept, one per kind */
#define RA_SITEMAP_EX_URL_MAX  96
#define RA_SITEMAP_EX_MAX      48      /* the rule, or the value at fault */

typedef struct {
    uint8_t   kind;             /* ra_sm_code_e */
    uint8_t   crawler;          /* disallowed: 1 "*", 2 Googlebot,
                                   3 Bingbot; else 0 */
    uint8_t   url_len;
    uint8_t   detail_len;
    uint32_t  line;             /* in the sitemap (decoded), 0: the file */
    uint32_t  rule_line;        /* disallowed: the deciding rule's line in
                                   robots.txt */
    char      url[RA_SITEMAP_EX_URL_MAX];
    char      detail[RA_SITEMAP_EX_MAX];  /* disallowed: "Disallow: /x" */
} ra_sitemap_example_t;

typedef struct {
    uint8_t   url_len;
    uint8_t   listed;           /* on a Sitemap: line of the file in force */
    uint8_t   ncrawlers;        /* crawlers[0] the last one */
    uint8_t   nexamples;
    uint8_t   linted;           /* an answer was linted (the numbers
                                   below are its) */
    uint8_t   gzip;
    uint8_t   complete;         /* read to its end without a fatal error */
    uint8_t   kind;             /* ra_sm_kind_e: urlset or index */
    uint16_t  status;           /* of the last fetch */
    uint32_t  urls;             /* entries of the last answer linted */
    uint64_t  fetches;          /* by crawlers, any status */
    uint64_t  size;             /* bytes served in the last fetch */
    int64_t   first;            /* first and last fetch (ms), 0: none */
    int64_t   last;
    int64_t   lint_time;        /* when the answer linted was served */
    uint32_t  counts[RA_SITEMAP_KINDS];
    uint8_t   crawler_len[RA_SITEMAP_CRAWLERS];
    char      crawlers[RA_SITEMAP_CRAWLERS][RA_SITEMAP_NAME_MAX];
    char      url[RA_SITEMAP_URL_MAX];
    ra_sitemap_example_t  examples[RA_SITEMAP_EXAMPLES];
} ra_sitemap_t;

typedef struct {
    uint64_t      version;      /* the hash of the file the list is of */
    uint32_t      lines;        /* its Sitemap: lines, kept or not */
    uint32_t      n;            /* maps[0 .. n) in use */
    ra_sitemap_t  maps[RA_SITEMAPS];
} ra_sitemaps_t;

/*
 * How often each line of a site's robots.txt in force decided a request
 * (layout 8): the first RA_RULE_LINES lines that decided one since that
 * version came into force have an entry; requests decided by any other
 * line are summed apart (rule_other_*).  A new version in force starts
 * them all again.
 */
#define RA_RULE_LINES          32

typedef struct {
    uint64_t  matched;          /* requests the line decided */
    uint64_t  violations;       /* of which violations */
    uint32_t  line;             /* 1-based; 0: free entry */
    uint8_t   allow;            /* 1: an Allow line; 0: Disallow */
} ra_rule_hit_t;

/* The same per crawler record, for the lines that decided its requests
 * (the first RA_CRAWLER_RULE_LINES of them; the status page's
 * ?crawler=NAME shows them). */
#define RA_CRAWLER_RULE_LINES  8

typedef struct {
    uint32_t  line;             /* 0: free entry */
    uint32_t  matched;
    uint32_t  violations;
    uint8_t   allow;
} ra_crawler_hit_t;

/* A crawler record's counters per clock hour (UTC) over the last 24
 * hours: bucket h % RA_HOURS holds hour h (hours since the epoch; 0:
 * empty), updated in the count step. */
#define RA_HOURS               24
#define RA_HOUR_MS             (3600LL * 1000)

typedef struct {
    uint32_t  hour;
    uint32_t  counters[RA_CNT_MAX];
} ra_hour_t;

/* A site's requests and violations per clock hour over the last 24
 * hours (the status page's sparkline), as ra_hour_t. */
typedef struct {
    uint32_t  hour;
    uint32_t  requests;
    uint32_t  violations;
} ra_spark_t;

/* Sums the buckets of the hours [now's hour - hours + 1, now's hour]
 * into out (RA_CNT_MAX numbers): hours 1 is the current clock hour, 24
 * the last 24. */
void ra_hours_sum(const ra_hour_t *h, int64_t now, unsigned hours,
    uint64_t *out);

/*
 * A 5xx/429 episode of a site's robots.txt: from the first such answer to
 * the next answer that was not one, and the crawlers that made requests
 * on the site meanwhile (the first RA_EPISODE_CRAWLERS by name, with
 * their requests; the others' requests in others).  A site keeps the last
 * RA_EPISODES in a ring.
 */
#define RA_EPISODES            8
#define RA_EPISODE_CRAWLERS    4

typedef struct {
    int64_t   start;            /* 0: empty slot */
    int64_t   end;              /* 0: still going on */
    uint32_t  answers;          /* 5xx/429 answers */
    uint16_t  status;           /* the last of them */
    uint8_t   ncrawlers;        /* names kept */
    uint8_t   name_len[RA_EPISODE_CRAWLERS];
    uint32_t  requests[RA_EPISODE_CRAWLERS];
    uint32_t  others;           /* requests of crawlers not named */
    char      name[RA_EPISODE_CRAWLERS][RA_NAME_MAX];
} ra_episode_t;

/*
 * Page directives (layout 17; ra_pagedir.h): what the answers crawlers
 * got said about the pages themselves, per site, in bounded tables.
 * Directive counts go by path prefix: the path's first segment with its
 * slash ("/private/" for "/private/a.html", "/" for "/a.html"), cut at
 * RA_PAGE_PREFIX_MAX bytes; the first RA_PAGE_PREFIXES prefixes seen
 * keep a row each and later ones add to the last row ("other"), so that
 * no request can push a row out.  Conflicts are keyed by (kind, crawler,
 * path): the first RA_PAGE_CONFLICTS keys keep a row each, with their
 * count, first and last time; the others are only counted, by kind
 * (conflicts_unkept), so that a flood of new paths cannot erase the
 * evidence kept.  kind_total counts every conflict by kind, kept or not.
 */
#define RA_PAGE_PREFIXES       12      /* prefix rows, "other" apart */
#define RA_PAGE_PREFIX_MAX     24      /* bytes of a prefix kept */
#define RA_PAGE_DIRECTIVES     18      /* RA_PD_NDIRECTIVES */
#define RA_PAGE_CONFLICTS      16      /* conflict rows per site */
#define RA_PAGE_PATH_MAX       64      /* bytes of a conflict's path */
#define RA_PAGE_CRAWLER_MAX    24      /* bytes of a conflict's crawler */
#define RA_PAGE_KINDS          4       /* RA_CONFLICT_KINDS */

typedef struct {
    uint8_t   len;                          /* 0 and answers 0: unused */
    char      prefix[RA_PAGE_PREFIX_MAX];
    uint32_t  answers;                      /* answers with directives */
    uint32_t  counts[RA_PAGE_DIRECTIVES];   /* by bit of RA_PD_* */
} ra_page_prefix_t;

typedef struct {
    uint8_t   kind;                         /* ra_conflict_kind_e */
    uint8_t   crawler_len;
    uint8_t   path_len;
    char      crawler[RA_PAGE_CRAWLER_MAX]; /* "*": every crawler */
    char      path[RA_PAGE_PATH_MAX];
    uint32_t  flags;                        /* the directives concerned */
    uint64_t  count;
    int64_t   first_seen;
    int64_t   last_seen;
} ra_page_conflict_t;

typedef struct {
    uint64_t            answers;            /* answers with directives */
    uint64_t            scanned;            /* HTML heads scanned */
    uint64_t            kind_total[RA_PAGE_KINDS];
    uint64_t            conflicts_unkept[RA_PAGE_KINDS];
    uint32_t            nprefixes;          /* rows in use, "other" apart */
    uint32_t            nconflicts;
    ra_page_prefix_t    prefixes[RA_PAGE_PREFIXES + 1];   /* the last:
                                                             "other" */
    ra_page_conflict_t  conflicts[RA_PAGE_CONFLICTS];
} ra_pages_t;

/* What the records evicted from a site had counted (ra_site_t.evicted),
 * by what they were: the table's crawlers by verification (ra_verify_e:
 * 0 unverifiable, 1 verified, 2 impostor), and generic bots (whose counts
 * the site's generic aggregate keeps too) */
#define RA_EVICTED_GENERIC     3
#define RA_EVICTED_KINDS       4

typedef struct {
    uint64_t      counters[RA_CNT_MAX];   /* site totals */
    uint64_t      generic[RA_CNT_MAX];    /* every generic bot's, summed:
                                             the site's "generic" crawler,
                                             never evicted */
    uint64_t      browser_requests;
    uint64_t      no_user_agent;          /* requests without one, or "-" */
    int64_t       created;
    int64_t       last_seen;
    int64_t       robots_date;            /* last robots.txt answer */
    int64_t       unreachable_since;      /* last 5xx/429 answer, or 0 */
    int64_t       undecodable;            /* the last answer with rules
                                             could not be decoded: since
                                             then; 0 when it could */
    uint32_t      failures;               /* consecutive 5xx/429 */
    int64_t       failing_since;          /* the first of those, or 0 */
    int64_t       pages_answered;         /* the last request for another
                                             page answered below 500 */
    uint16_t      robots_status;          /* last answer's status */
    /* the last answer as it was, which need not be the version in force
     * (a 503 keeps the last good file in force) */
    uint32_t      last_size;
    uint8_t       last_ctype_len;
    char          last_ctype[RA_CTYPE_MAX];
    uint8_t       bad_coding_len;
    char          bad_coding[RA_CODING_MAX];  /* its Content-Encoding */
    uint8_t       name_len;
    uint8_t       nversions;              /* slots in use: [0, nversions) */
    uint8_t       current;                /* index of the current version */
    char          name[RA_SITE_NAME_MAX];
    ra_version_t  versions[RA_VERSIONS];
    /* snapshot: the site's crawler records in the ledger and its entries
     * in the ring of recent violations, whether or not a view copied
     * them all (ra_snapshot_view_t) */
    uint32_t      stats_total;
    uint32_t      violations_total;
    /* crawl-to-refer, per operator of the referrer table (ra_refer.h):
     * browser visits its hosts referred, and its crawlers' requests (not
     * impostors') */
    uint64_t      referrals[RA_REFER_SLOTS];
    uint64_t      referral_crawls[RA_REFER_SLOTS];
    /* layout 8: rule hits of the version in force (its hash), episodes
     * (the newest at episode_next - 1) */
    uint64_t      rule_version;
    uint64_t      rule_other_matched;
    uint64_t      rule_other_violations;
    ra_rule_hit_t rule_hits[RA_RULE_LINES];
    uint32_t      episode_next;
    ra_episode_t  episodes[RA_EPISODES];
    ra_spark_t    spark[RA_HOURS];
    /* layout 12: the requests of the table's crawlers by their purpose
     * (ra_crawler_category_e), impostors' left out, evicted records'
     * kept: robots_audit_purpose_requests_total only rises */
    uint64_t      purpose_requests[RA_PURPOSES];
    /* layout 13: where /robots.txt redirects on the site, hop by hop
     * (ra_ledger_redirect_locked()) */
    uint8_t       redirect_n;
    uint8_t       redirect_len[RA_REDIRECT_HOPS];
    char          redirect[RA_REDIRECT_HOPS][RA_REDIRECT_PATH_MAX];
    /* layout 14: evidence lines the evidence log's byte budget dropped
     * (ra_evidence.h) */
    uint64_t      evidence_dropped;
    /* layout 15: what its records evicted so far had counted, and how
     * many there were, by RA_EVICTED_* kind: with the records still kept,
     * every count of its crawlers is somewhere, so sums over crawlers
     * never go down when records are evicted */
    uint64_t      evicted[RA_EVICTED_KINDS][RA_CNT_MAX];
    uint64_t      evicted_records[RA_EVICTED_KINDS];
    /* layout 17: its sitemaps (ra_ledger_sitemap.c) */
    ra_sitemaps_t sitemaps;
    /* layout 17: page directives (ra_pages_t above) */
    ra_pages_t    pages;
} ra_site_t;

typedef struct {
    uint64_t  counters[RA_CNT_MAX];
    int64_t   first_seen;
    int64_t   last_seen;
    int64_t   last_fetch;                 /* last robots.txt fetch, or 0 */
    uint64_t  last_fetch_version;         /* hash of what it was served */
    uint32_t  site;                       /* snapshot: index + 1 in sites */
    uint16_t  last_fetch_status;
    uint8_t   verification;               /* ra_verify_e */
    uint8_t   kind;                       /* ra_ua_kind_e */
    uint8_t   category;
    uint8_t   name_len;
    uint8_t   token_len;
    char      name[RA_NAME_MAX];          /* crawler name / generic token */
    char      token[RA_NAME_MAX];         /* robots.txt token it used */
    int32_t   crawl_delay_ms;             /* of the group that applied to
                                             its last judged request; 0:
                                             none */
    ra_polite_t  polite;
    ra_hour_t    hours[RA_HOURS];         /* layout 8 */
    uint64_t     rule_version;            /* of rule_hits: the site's */
    ra_crawler_hit_t  rule_hits[RA_CRAWLER_RULE_LINES];
    uint8_t   verified_by;                /* ra_verified_by_e: the method
                                             that last decided the
                                             record's verification */
} ra_stat_t;

typedef struct {
    int64_t   time;
    uint32_t  site;                       /* snapshot: index + 1 in sites */
    uint32_t  line;                       /* of the deciding rule */
    uint8_t   verdict;                    /* ra_verdict_e: violation or
                                             unreachable */
    uint8_t   verification;
    uint8_t   name_len;
    uint8_t   method_len;
    uint8_t   addr_len;
    uint16_t  uri_len;                    /* bytes kept */
    uint16_t  pattern_len;
    uint32_t  uri_full_len;               /* bytes of the request's URI */
    char      name[RA_NAME_MAX];
    char      method[RA_METHOD_MAX];
    char      addr[RA_ADDR_TEXT_MAX];
    char      uri[RA_URI_MAX];
    char      pattern[RA_PATTERN_MAX];
    /* layout 8: set by the caller */
    uint8_t   verified_by;                /* ra_verified_by_e */
    int64_t   last_fetch;                 /* the crawler's last robots.txt
                                             fetch, or 0 */
    /* set by the ledger: the SHA-256 of the site's version in force
     * when it was recorded (zeros: none) */
    unsigned char  robots_sha256[32];
    /* layout 12: set by the caller: the crawler's purpose, as
     * ra_snapshot_view_t.purpose counts it (0: a generic bot's) */
    uint8_t   purpose;
} ra_violation_t;

/* Capacities, chosen from the region's size by ra_ledger_plan(). */
typedef struct {
    uint32_t  sites;
    uint32_t  stats;
    uint32_t  violations;
    uint32_t  blob_bytes;
    uint32_t  rdns;             /* reverse-DNS cache entries (ra_rdns.h) */
} ra_ledger_plan_t;

/* Layout 17: the event stream's lines (ra_events.h) of every process
 * that shares the ledger, by what became of them, atomics: sent whole,
 * dropped by the transport (a full socket or pipe), oversize (longer than
 * a datagram takes, not sent). */
#define RA_EVENT_OUTCOMES  3
typedef struct {
    uint64_t  lines[RA_EVENT_OUTCOMES];   /* by RA_EVENTS_SENT, ... */
} ra_events_tally_t;

/* The ledger's totals, read without the lock (each number is exact, the
 * set is not one instant's). */
typedef struct {
    int64_t           created;
    uint64_t          requests;           /* everything counted */
    uint64_t          crawler_requests;   /* of which crawlers' (judged
                                             or robots.txt fetches) */
    uint64_t          violations_total;
    uint64_t          site_evictions;
    uint64_t          stat_evictions;
    uint64_t          blob_evictions;
    uint64_t          repairs;            /* rebuilds after a process died
                                             inside a change */
    uint32_t          sites;              /* records in use */
    uint32_t          stats;
    uint32_t          stats_generic;      /* of which generic bots' */
    uint32_t          stats_verified;     /* of which verified crawlers' */
    uint32_t          generic_max;        /* their bound */
    uint32_t          known_max;          /* table crawlers' bound */
    uint32_t          blob_free_bytes;
    ra_ledger_plan_t  plan;               /* capacities */
    /* reverse DNS (ra_rdns.h): lookups in flight now, and since the
     * ledger was made: started, verified, failed (answered otherwise or
     * not at all), refused (budget spent or no entry free) */
    uint32_t          rdns_pending;
    uint64_t          rdns_lookups;
    uint64_t          rdns_verified;
    uint64_t          rdns_failed;
    uint64_t          rdns_refused;
    /* layout 14: evidence lines the byte budget dropped, every site's
     * (evicted ones' included); lines the alert and evidence logs could
     * not write (RA_LOGFILE_*) */
    uint64_t          evidence_dropped;
    uint64_t          log_write_errors[RA_LOGFILES];
    ra_events_tally_t events;             /* layout 17 */
} ra_totals_t;


/* ---- the region ------------------------------------------------------ */

typedef struct ra_ledger_hdr_s  ra_ledger_hdr_t;     /* private */

/* A process's handle on a region: plain data, copy it freely. */
typedef struct {
    unsigned char    *base;
    ra_ledger_hdr_t  *hdr;
    ra_lock_t         lock;     /* NULL functions: no locking (CLI) */
    const ra_host_t  *host;     /* where a rebuild is told (RA312); NULL:
                                   nowhere.  ra_setup_ledger() sets it */
} ra_ledger_t;

#define RA_LEDGER_MIN_SIZE  (64u * 1024)

/* The capacities a region of size bytes gets; RA_ELIMIT when it is
 * smaller than RA_LEDGER_MIN_SIZE or larger than 4 GiB. */
int ra_ledger_plan(size_t size, ra_ledger_plan_t *plan);

/* Formats a region (all of it is overwritten). */
int ra_ledger_format(void *base, size_t size, int64_t now);

/* Is base an existing ledger of this layout and size?  RA_OK, or
 * RA_ERROR with *why set to a static sentence (for "refused" messages).
 * An accepted ledger's structure is verified too (ra_ledger_verify());
 * when it does not hold, it is marked so that the first process to take
 * the lock rebuilds it (other processes may be using it meanwhile). */
int ra_ledger_check(void *base, size_t size, const char **why);

/* Does the structure hold together (hash chains, LRU lists, free lists,
 * counts, the body heap)?  NULL, or a static sentence saying what does
 * not.  Bounded by the tables' sizes; call it with the lock held (or with
 * no other process at work). */
const char *ra_ledger_verify(const ra_ledger_t *l);

/* The size a region's ledger says it has: 0 when base holds no ledger of
 * this layout.  Read it only to bound, then check, a region a server
 * kept across a reload. */
size_t ra_ledger_size(const void *base);

/* Fills l for a region that ra_ledger_format() or _check() accepted. */
void ra_ledger_open(ra_ledger_t *l, void *base, const ra_lock_t *lock);

/* Takes the lock.  A process that died inside it in the middle of a
 * change (a record being created or evicted, a link, a count) leaves a
 * mark: the next ra_ledger_lock() rebuilds the structure from the
 * records themselves (losing at most the one being changed), and says so
 * through l->host (RA312). */
void ra_ledger_lock(const ra_ledger_t *l);
void ra_ledger_unlock(const ra_ledger_t *l);

/* The reverse-DNS cache's area (ra_rdns.h: its _locked functions take
 * the ledger's lock; entries stand alone, so a rebuild never touches
 * it). */
void *ra_ledger_rdns_area(const ra_ledger_t *l);

/*
 * The undeclared-crawler tables (ra_undeclared.h), one per site, in the
 * region (an eighth of it: docs/design.md gives the sizes).
 * ra_ledger_undecl_locked() finds the site's table, else takes a free one
 * or the one seen longest ago, made anew, and marks it as changing: NULL
 * when the region has none.  The caller changes it and then calls
 * ra_ledger_undecl_done_locked() with the same slot, before unlocking.
 * A table found marked (its changer died) is made anew and said (RA326).
 */
struct ra_undecl_s *ra_ledger_undecl_locked(ra_ledger_t *l, ra_str_t site,
    int64_t now, uint32_t *slot);
void ra_ledger_undecl_done_locked(ra_ledger_t *l, uint32_t slot);
/* The same by a process's hint: *slot and *gen name the slot where it
 * found the site's table before (*gen 0: none), believed while that slot
 * has not been taken since (its generation); else the site's table is
 * looked up as above.  Both are set to the table's slot and generation. */
struct ra_undecl_s *ra_ledger_undecl_hinted_locked(ra_ledger_t *l,
    ra_str_t site, int64_t now, uint32_t *slot, uint32_t *gen);

/* Tables the region holds (0: too small for one); tables made anew
 * since the region was made (found half-written). */
uint32_t ra_ledger_undecl_slots(const ra_ledger_t *l);
uint64_t ra_ledger_undecl_resets(const ra_ledger_t *l);

/* Copies of every site's table that holds a flagged client (the lock
 * held), in memory from a, for a report (ra_report_opts_t.undeclared);
 * RA_OK (none: out->n 0) or RA_ENOMEM (nothing).
 * ra_ledger_undecl_free() frees them. */
struct ra_undecl_sites_s;
int ra_ledger_undecl_copy_locked(ra_ledger_t *l, const ra_alloc_t *a,
    struct ra_undecl_sites_s *out);
void ra_ledger_undecl_free(const ra_alloc_t *a,
    struct ra_undecl_sites_s *out);


/* ---- lock-free ------------------------------------------------------- */

void ra_ledger_totals(const ra_ledger_t *l, ra_totals_t *t);

/*
 * "The zone is full": 1 when site or stat records were evicted since the
 * last time this answered 1, at most once per RA_FULL_NOTE_MS over every
 * process that shares the region (a compare-and-swap in the region), and
 * then *t holds the totals to report; 0 otherwise.
 */
int ra_ledger_full_note(ra_ledger_t *l, int64_t now, ra_totals_t *t);

/*
 * A line the log which (RA_LOGFILE_*) could not write: counted for every
 * process (robots_audit_log_write_errors_total).  1 when this caller is
 * to say so: at most once per RA_LOG_ERROR_NOTE_MS per log over every
 * process that shares the region (a compare-and-swap in the region),
 * with *failed the lines lost since the last time it was said (this one
 * included); else 0.
 */
int ra_ledger_log_error(ra_ledger_t *l, unsigned which, int64_t now,
    uint64_t *failed);

/* An event line of outcome (RA_EVENTS_SENT, _DROPPED, _OVERSIZE): counted
 * for every process (robots_audit_events_total). */
void ra_ledger_events_count(ra_ledger_t *l, unsigned outcome);

/* Whether the log which (RA_LOGFILE_*) ends in a torn line nobody ended
 * yet, set to owed; returns what it was (an atomic exchange, so that of
 * the processes that take it, one ends the line). */
int ra_ledger_log_owed(ra_ledger_t *l, unsigned which, int owed);


/* ---- under the lock -------------------------------------------------- */

/* Finds or creates the site named name (compared case-insensitively,
 * kept lower-cased, cut to RA_SITE_NAME_MAX), evicting the least recently
 * used one when the table is full.  Returns its id, never 0. */
uint32_t ra_ledger_site_locked(ra_ledger_t *l, ra_str_t name, int64_t now);
/* The same, but never creates one: 0 when there is no such site. */
uint32_t ra_ledger_site_find_locked(ra_ledger_t *l, ra_str_t name,
    int64_t now);
/*
 * A site found before, again by its id, without its name (a process's
 * hint: ra_audit keeps the last sites it found): the id when the slot
 * still holds the site it held when ra_ledger_site_epoch_locked() gave
 * epoch, touched as the calls above touch a site they find; else 0 (the
 * site was evicted meanwhile: look it up by name).
 */
uint32_t ra_ledger_site_again_locked(ra_ledger_t *l, uint32_t site,
    uint32_t epoch, int64_t now);
/* Which incarnation of its slot a site id names (0: none). */
uint32_t ra_ledger_site_epoch_locked(const ra_ledger_t *l, uint32_t site);

/* A stat record's key, and what a new record starts with. */
typedef struct {
    ra_str_t   name;            /* crawler name or generic token (cut to
                                   RA_NAME_MAX) */
    unsigned   verification;    /* ra_verify_e */
    /* set when the record is created; whether it is RA_UA_GENERIC is
     * part of the key (a generic bot is never a table crawler) */
    unsigned   kind;            /* ra_ua_kind_e */
    unsigned   category;        /* ra_crawler_category_e */
    ra_str_t   token;           /* robots.txt token (cut to RA_NAME_MAX) */
    /* not part of the key: the method that decided this request's
     * verification (ra_verified_by_e); a non-zero one is kept as the
     * record's verified_by */
    unsigned   verified_by;
} ra_stat_key_t;

/*
 * Finds or creates the (site, name, verification) record and marks it
 * seen at now; in O(1) (free list, LRU lists).  Records are of three
 * classes, each with its own LRU list: verified crawlers of the table,
 * generic bots, and crawlers of the table not verified (impostor,
 * unverifiable: names anyone can send).  Generic bots and those hold at
 * most half the table each (totals' generic_max) and evict their own
 * class's least recently used (the other one's when theirs is empty and
 * nothing is free), never a verified record; a verified crawler takes a
 * free slot, else one of theirs, and evicts the least recently used
 * verified one only when those hold all but a sixteenth of the table.
 * Every generic record's counts also go to its site's generic aggregate
 * (ra_site_t), which is never evicted.  Returns its id; 0 only when site is not a live
 * site or the structure does not hold (then rebuilt at the next lock).
 */
uint32_t ra_ledger_stat_locked(ra_ledger_t *l, uint32_t site,
    const ra_stat_key_t *key, int64_t now);
/* A stat record found before (an earlier hold of the lock), again: the
 * id when the slot still holds key's record of that site, touched as
 * ra_ledger_stat_locked() touches a record it finds; else that call's
 * answer. */
uint32_t ra_ledger_stat_again_locked(ra_ledger_t *l, uint32_t site,
    uint32_t stat, const ra_stat_key_t *key, int64_t now);

/*
 * Without the lock, by a process's hint (docs/design.md, "Hints"): the
 * id when the slot still holds the site of that epoch
 * (ra_ledger_site_epoch_locked()), else 0.  The answer may be stale the
 * instant after: only what a stale answer cannot spoil may rely on it.
 */
uint32_t ra_ledger_site_hint(const ra_ledger_t *l, uint32_t site,
    uint32_t epoch);

/*
 * A browser's request counted without the lock, with atomics only, on
 * the site its hint names: as ra_ledger_browser_locked(), then
 * ra_ledger_referral_locked() for op (ignored from RA_REFER_SLOTS on),
 * and ra_ledger_page_locked() for status (0: a robots.txt request, not a
 * page); the site's last_seen is moved on, not its place in the LRU list
 * (a caller takes the lock now and then to touch it).  1 when counted; 0
 * when the hint is refused (the slot holds another site or none:
 * nothing counted, look the site up under the lock).  A process that
 * dies anywhere in it leaves the ledger consistent (at most some of its
 * counts made).
 */
int ra_ledger_browser_hinted(ra_ledger_t *l, uint32_t site, uint32_t epoch,
    int no_user_agent, unsigned op, int status, int64_t now);

/* A stat record's tag (a number given at its creation, not its key's
 * hash, which another key can meet; 0: no record): with its site's id
 * and epoch, what tells a hint that the slot still holds it. */
uint32_t ra_ledger_stat_tag_locked(const ra_ledger_t *l, uint32_t stat);

/* Where a request's counts go, as found under the lock. */
typedef struct {
    uint32_t  site;
    uint32_t  epoch;            /* ra_ledger_site_epoch_locked() */
    uint32_t  stat;
    uint32_t  tag;              /* ra_ledger_stat_tag_locked() */
    /* ra_ledger_state_hinted(): 1 + the change count of the site at which
     * the caller's *out already holds the site's part (its versions,
     * current, failing_since), so that it is not copied again; 0: it
     * does not.  Set to the count read. */
    uint32_t  facts;
} ra_ledger_hint_t;

/*
 * The count step of a judged request without the lock, with atomics, when
 * only counters move: counters (a mask of 1 << ra_counter_e) on the
 * record, its hour, its site (and the site's generic aggregate) as
 * ra_ledger_count_locked() counts them, a referral of op (ignored from
 * RA_REFER_SLOTS on) as ra_ledger_referral_locked(), the politeness and
 * Crawl-delay as ra_ledger_polite_locked(), verified_by as the record's.
 * 1 when counted; 0, nothing counted, when the hint is refused (the slot
 * holds another record or site) or the count needs the lock (the hour's
 * bucket is not this hour's, the site is in a 5xx/429 episode, a budget
 * summary may be due): then count under the lock.
 */
int ra_ledger_count_hinted(ra_ledger_t *l, const ra_ledger_hint_t *hint,
    uint32_t counters, unsigned op, int64_t now, int32_t crawl_delay_ms,
    unsigned verified_by);

/* Counts a request of a browser (no_user_agent: of a client that sent no
 * User-Agent, or "-"): the site's and the ledger's totals. */
void ra_ledger_browser_locked(ra_ledger_t *l, uint32_t site,
    int no_user_agent);

/* Crawl-to-refer: a browser visit referred by operator op (crawler 0),
 * or a request of one of op's crawlers (crawler 1); op is an index into
 * the referrer table (ra_refer.h), ignored from RA_REFER_SLOTS on. */
void ra_ledger_referral_locked(ra_ledger_t *l, uint32_t site, unsigned op,
    int crawler);

/* A request for a page other than robots.txt got status: below 500 (and
 * at least 100), the site answers (the 30-day phase, "Verdicts"). */
void ra_ledger_page_locked(ra_ledger_t *l, uint32_t site, int status,
    int64_t now);

/* A crawler's request at now: its politeness (ra_polite_t), and the
 * Crawl-delay in ms of the group that applied (0: none; < 0: unchanged,
 * as for a robots.txt fetch). */
void ra_ledger_polite_locked(ra_ledger_t *l, uint32_t stat, int64_t now,
    int32_t crawl_delay_ms);

/* Counts c for the record and its site; RA_CNT_REQUESTS also counts in
 * the ledger's total. */
void ra_ledger_count_locked(ra_ledger_t *l, uint32_t site, uint32_t stat,
    ra_counter_e c);

/* A robots.txt fetch by the record's crawler, answered with status: its
 * time, status and the version served (the site's current one, unless
 * the answer was unreachable); counts a request and a fetch. */
void ra_ledger_fetch_locked(ra_ledger_t *l, uint32_t site, uint32_t stat,
    int status, int64_t now);

/*
 * What the record's crawler was served for robots.txt, and when, without
 * counting anything (ra_audit_robots() binds a crawler when its answer
 * goes out; the request is counted when it is logged): version is the
 * hash of what it got (ra_ledger_version_hash()), which need not be one
 * of the site's versions (an answer only this crawler got), or 0 for the
 * site's current one.  A 5xx/429 status binds no version: the status
 * decides.  A verified crawler's version is kept in the ledger for 24
 * hours, whatever else the site serves meanwhile.
 */
void ra_ledger_bind_locked(ra_ledger_t *l, uint32_t site, uint32_t stat,
    int status, uint64_t version, int64_t now);

/*
 * Is an answer other than 2xx (hash: ra_ledger_version_hash() of its
 * status, and its target for a redirect) given to everyone, so that it is
 * the site's robots.txt?  1 when the site gave the same answer last to
 * another client (client: a hash of its address block, ra_alert_block())
 * with another User-Agent (ua: a hash of it), no answer was recorded for
 * the site between them, and the site served its file (2xx, 304, 206) to
 * nobody in the last 24 hours; else 0, and this client's answer is the
 * one pending.  The caller records it (ra_ledger_answer_locked()) only on
 * 1, or for a verified crawler.
 */
int ra_ledger_answer_everyone_locked(ra_ledger_t *l, uint32_t site,
    uint64_t hash, uint64_t client, uint64_t ua, int64_t now);

/*
 * Redirects of a site's robots.txt, as crawlers follow them (RFC 9309
 * 2.3.1.2).  hop 0 is the answer to /robots.txt, hop k the answer to the
 * k-th redirect's target.  ra_ledger_redirect_locked() records that hop
 * redirects to path (a canonical path of the site, its query kept): the
 * chain is cut after it, and the answer to path is the site's robots.txt
 * from then on.  Returns hop + 1, or -1 when path cannot be followed (a
 * loop, a sixth hop, a path longer than RA_REDIRECT_PATH_MAX): the chain
 * then ends at hop.  ra_ledger_redirect_end_locked(): hop's answer is
 * final (not a same-site redirect), the chain ends there.
 * ra_ledger_redirect_hop_locked(): k + 1 when path is hop k's target,
 * else 0.  ra_ledger_redirects(): does any site of the ledger redirect
 * now (read without the lock: only then is a path asked)?
 */
int ra_ledger_redirect_locked(ra_ledger_t *l, uint32_t site, unsigned hop,
    ra_str_t path);
void ra_ledger_redirect_end_locked(ra_ledger_t *l, uint32_t site,
    unsigned hop);
unsigned ra_ledger_redirect_hop_locked(const ra_ledger_t *l, uint32_t site,
    ra_str_t path);
int ra_ledger_redirects(const ra_ledger_t *l);

/* A version as a verdict reads it: a ra_version_t's fields the judge
 * and its rule-set cache use, and no others (ra_ledger_find_version_locked()
 * has the rest). */
typedef struct {
    uint64_t  hash;             /* 0: no version */
    int64_t   until;
    uint32_t  body_len;
    uint16_t  status;
    uint8_t   answer;           /* ra_answer_e */
    uint8_t   body_lost;
} ra_version_fact_t;

/* What a verdict depends on, as it was before the request. */
typedef struct {
    ra_version_fact_t  versions[RA_VERSIONS];  /* the site's; hash 0:
                                                  none */
    int           current;                /* -1: no robots.txt known */
    int64_t       prev_request;           /* the crawler's previous one */
    int64_t       last_fetch;             /* of robots.txt, or 0 */
    uint64_t      last_fetch_version;
    int           last_fetch_status;
    int64_t       failing_since;          /* the site's robots.txt has
                                             answered 5xx/429 since; 0 */
    int64_t       pages_answered;         /* the site's last other page
                                             answered below 500; 0 */
} ra_ledger_state_t;

/* Copies the site's versions and the record's history into *out, then
 * makes now the record's previous request. */
void ra_ledger_state_locked(ra_ledger_t *l, uint32_t site, uint32_t stat,
    int64_t now, ra_ledger_state_t *out);

/* The site's part of it alone (versions, current, failing_since), for a
 * request that has no record: an undeclared crawler's (ra_undeclared.h). */
void ra_ledger_site_state_locked(ra_ledger_t *l, uint32_t site,
    ra_ledger_state_t *out);

/* The site's change count as ra_ledger_hint_t.facts holds it (1 + the
 * count), 0 when a change of it is under way or it is no site: what a
 * process read of the site's part at one count still holds while the
 * count stays. */
uint32_t ra_ledger_site_facts_at_locked(const ra_ledger_t *l, uint32_t site);

/*
 * The same without the lock, by a hint (ra_ledger_count_hinted()), with
 * the site's page answered as ra_ledger_page_locked() (status), the
 * record and its site seen at now (not moved in the LRU lists: the
 * caller takes the lock now and then for that) and the record's
 * verified_by (as ra_stat_key_t's): 1 when *out was read whole, between
 * two changes of what it copies (the site's part only when hint->facts
 * does not say *out holds it already); 0 when the hint is refused or a
 * change was under way (then ra_ledger_state_locked() under the lock).
 */
int ra_ledger_state_hinted(ra_ledger_t *l, ra_ledger_hint_t *hint,
    int64_t now, int status, unsigned verified_by, ra_ledger_state_t *out);

/* The body of version k of a site (empty when it has none or it was
 * lost), valid while the lock is held. */
ra_str_t ra_ledger_body_locked(const ra_ledger_t *l, uint32_t site,
    unsigned k);

/* Does the site have a version (a robots.txt answer with or without
 * rules)? */
int ra_ledger_has_version_locked(const ra_ledger_t *l, uint32_t site);

/* The site's version of this hash into *out (may be NULL): its index, or
 * -1 when the site has none. */
int ra_ledger_find_version_locked(const ra_ledger_t *l, uint32_t site,
    uint64_t hash, ra_version_t *out);

/*
 * Records a robots.txt answer for a site.  A body with a new hash becomes
 * the current version (the previous one gets "until"), versions older
 * than 24 hours are dropped, and the body is copied into the blob heap,
 * evicting the bodies of the oldest non-current versions when it is full.
 * 5xx/429 answers only update the site's state: they carry no rules.
 * Of *v, the status, size, truncated, ctype and lint members are used,
 * and hash when it is not 0: ra_ledger_version_hash(status, body) as the
 * caller computed it outside the lock (0: computed here).
 * Returns the version's index, or -1 for an unreachable answer.
 */
int ra_ledger_answer_locked(ra_ledger_t *l, uint32_t site,
    const ra_version_t *v, ra_str_t body, int64_t now);

/*
 * Records an answer that says the site's robots.txt is served unchanged
 * (ra_http_answer_unchanged(): 304, 206): the run of 5xx/429 answers is
 * over (failures, failing_since), and the site's last answer is its
 * version in force again (status, size, type, date); its versions are
 * untouched.
 */
void ra_ledger_answer_unchanged_locked(ra_ledger_t *l, uint32_t site,
    int64_t now);

/*
 * Records a 2xx answer whose Content-Encoding could not be decoded: the
 * site's last answer (date, status; failures reset) and the coding, its
 * versions untouched, so the current one stays in force.  The next
 * answer that ra_ledger_answer_locked() records clears it.  Returns 1
 * when the site was already undecodable with that coding, else 0.
 */
int ra_ledger_undecodable_locked(ra_ledger_t *l, uint32_t site, int status,
    ra_str_t coding, int64_t now);

/* A request of the record stat (0: none) decided by line (> 0) of the
 * version of this hash (its rule type allow or not); violation: its
 * verdict was one.  Counted when that version is the site's one in force
 * (ra_site_t.rule_hits, ra_stat_t.rule_hits). */
void ra_ledger_rule_hit_locked(ra_ledger_t *l, uint32_t site, uint32_t stat,
    uint64_t version, uint32_t line, int allow, int violation);

/* Appends to the ring of recent violations (v->site is ignored: the
 * entry belongs to site, and goes when the site is evicted): a verified
 * crawler's to the ring's part kept for those (a quarter), anyone else's
 * to the rest, so that a flood of those never pushes them out. */
void ra_ledger_violation_locked(ra_ledger_t *l, uint32_t site,
    const ra_violation_t *v);

/*
 * The record's alert gate: 1 when an alert may go out now (interval ms
 * have passed since the last one; 0: always), with *suppressed set to
 * how many were held back since and reset; 0 when this one is held back
 * (and counted).
 */
int ra_ledger_alert_locked(ra_ledger_t *l, uint32_t stat, int64_t now,
    int64_t interval, uint32_t *suppressed);


/* ---- alert budgets: the state lives here, ra_alert.h decides -------- */

/* A token bucket of alert lines: level in 1/60000ths of a line, so that a
 * rate of N lines a minute adds N to it per ms. */
typedef struct {
    int64_t   level;
    int64_t   last;             /* ms of the last refill; 0: never (full) */
} ra_bucket_t;

/* The alert gate of the generic bots of one address block on one site
 * (ra_alert_gate()): direct-mapped, RA_GENERIC_GATES per site. */
typedef struct {
    uint64_t  key;              /* the block's (ra_alert_block()); 0: free */
    int64_t   last;             /* ms of its last alert */
    uint32_t  suppressed;       /* held back since */
    uint32_t  mark;             /* budget window it was last counted in */
} ra_gate_t;

#define RA_GENERIC_GATES       16

/* Verified crawlers whose alerts the budgets held back, named in the
 * summary (RA103): at most this many, the others counted. */
#define RA_ALERT_HELD_NAMES    3

/* The clients with the most violations in a summary window, counted in
 * RA_ALERT_TOP_SLOTS entries (space-saving: a new client takes the
 * smallest count's place and adds one to it, so that the busiest stay;
 * what it took over is kept apart, so that what is said of a client is
 * never more than it did), the first RA_ALERT_TOP of them named in the
 * summary (RA103). */
#define RA_ALERT_TOP_SLOTS     8
#define RA_ALERT_TOP           5

typedef struct {
    uint32_t  n;                /* violations, with over; 0: free */
    uint32_t  over;             /* of them, the count taken over */
    uint8_t   len;
    char      addr[RA_ADDR_TEXT_MAX];
} ra_alert_client_t;

/* The ledger's budget: the bucket of all sites, and what it and the
 * sites' buckets held back since the first line held back of this
 * summary window. */
typedef struct {
    ra_bucket_t  total;
    int64_t      since;         /* first line held back; 0: none */
    uint32_t     window;        /* this window's number */
    uint32_t     suppressed;
    uint32_t     crawlers;      /* distinct crawlers among them */
    uint32_t     sites;         /* distinct sites */
    /* the share of total that alerts about anyone but verified crawlers
     * may use (ra_alert_budget_take()) */
    ra_bucket_t  open_total;
    /* verified crawlers among the crawlers held back, and the first
     * RA_ALERT_HELD_NAMES of their names (a length is set after its
     * bytes) */
    uint32_t     verified;
    uint8_t      held_len[RA_ALERT_HELD_NAMES];
    char         held[RA_ALERT_HELD_NAMES][RA_NAME_MAX];
} ra_budget_t;

/* Where a request's alert state is, as pointers into the region, valid
 * while the lock is held. */
typedef struct {
    ra_budget_t  *all;
    ra_bucket_t  *site;         /* the site's bucket */
    ra_bucket_t  *site_open;    /* its share for all but verified ones */
    uint32_t     *site_mark;    /* window the site was last counted in */
    uint32_t     *stat_mark;    /* the record's; NULL: no record */
    ra_gate_t    *gates;        /* the site's RA_GENERIC_GATES */
    uint32_t     *crawler_mark; /* set by the caller: stat_mark, or the
                                   gate's for a generic bot */
    int           verified;     /* set by the caller: the line is about a
                                   verified crawler */
    ra_str_t      name;         /* set by the caller: its name */
    /* the clients of the summary window's violations (ra_alert.h) */
    ra_alert_client_t  *top;    /* RA_ALERT_TOP_SLOTS of them */
    ra_str_t      client;       /* set by the caller: the request's */
    int           violation;    /* set by the caller: its verdict is a
                                   violation */
} ra_alert_state_t;

/* Fills *out for site and stat (stat may be 0); RA_ERROR for an unknown
 * site. */
int ra_ledger_alert_state_locked(ra_ledger_t *l, uint32_t site,
    uint32_t stat, ra_alert_state_t *out);


/* ---- the evidence log's budget: the state lives here, ra_evidence.h
 * decides ---------------------------------------------------------------- */

/* The bytes written in one minute, for every process. */
typedef struct {
    int64_t   minute;           /* ms / 60000 of the minute counted */
    uint64_t  bytes;
} ra_byte_window_t;

/* Where the evidence budget's state is, as pointers into the region,
 * valid while the lock is held. */
typedef struct {
    ra_byte_window_t  *window;
    uint64_t          *site_dropped;    /* NULL: no such site */
    uint64_t          *all_dropped;
} ra_evidence_state_t;

/* The SHA-256 of the site's robots.txt in force into sha256: 1, or 0
 * when it has none. */
int ra_ledger_site_sha_locked(const ra_ledger_t *l, uint32_t site,
    unsigned char sha256[32]);

/* Fills *out for site (0 or a site no longer there: only the window and
 * the count of all sites). */
void ra_ledger_evidence_state_locked(ra_ledger_t *l, uint32_t site,
    ra_evidence_state_t *out);


/* ---- sitemaps (ra_ledger_sitemap.c) ---------------------------------- */

/* 1 when ra_ledger_sitemaps_list_locked() would change nothing for
 * version whatever its lines: the list is of it already, or it is not the
 * file in force; so that the same robots.txt fetched again is not parsed
 * again for its Sitemap: lines. */
int ra_ledger_sitemaps_known_locked(const ra_ledger_t *l, uint32_t site,
    uint64_t version);

/*
 * The list of the version in force (version: its hash; nothing changes
 * when the list is of it already): urls from its Sitemap: lines (the
 * first RA_SITEMAPS that fit RA_SITEMAP_URL_MAX; lines: how many there
 * were), each keeping what is known of it; sitemaps fetched before and
 * listed no more stay, not listed, while there is room.
 */
void ra_ledger_sitemaps_list_locked(ra_ledger_t *l, uint32_t site,
    uint64_t version, const ra_str_t *urls, uint32_t n, uint32_t lines,
    int64_t now);

/* Which of m's sitemaps a request for target (origin-form) with this Host
 * (len 0: any) fetches: its index, or -1. */
int ra_sitemaps_match(const ra_sitemaps_t *m, ra_str_t host,
    ra_str_t target);

/*
 * The same for the site, where a request for /sitemap.xml or
 * /sitemap_index.xml, when robots.txt lists none, adds that sitemap (not
 * listed).  *url: the sitemap's, valid under the lock.  Index or -1.
 */
int ra_ledger_sitemap_find_locked(ra_ledger_t *l, uint32_t site,
    ra_str_t host, ra_str_t target, ra_str_t *url, int64_t now);

/* A crawler's fetch of the site's sitemap at url: got's status and size,
 * and its lint when got->linted. */
void ra_ledger_sitemap_fetch_locked(ra_ledger_t *l, uint32_t site,
    ra_str_t url, ra_str_t crawler, const ra_sitemap_t *got, int64_t now);

/* A copy of the site's sitemaps (none: n 0), every length and count
 * clamped to its bound. */
void ra_ledger_sitemaps_copy(const ra_ledger_t *l, uint32_t site,
    ra_sitemaps_t *out);

/* The body of the site's version in force when it has rules (2xx), else
 * empty; valid under the lock. */
ra_str_t ra_ledger_rules_body_locked(const ra_ledger_t *l, uint32_t site);

/* ---- page directives (ra_pages_t) -------------------------------------- */

/* One conflict of an answer, as ra_ledger_pages_locked() records it. */
typedef struct {
    unsigned   kind;                /* ra_conflict_kind_e */
    ra_str_t   crawler;
    uint32_t   flags;
} ra_page_event_t;

/*
 * Records one answer to a crawler for path (the request target, its query
 * left out): its directives (flags, RA_PD_* bits; scanned: its HTML head
 * was read) under the path's prefix, and its conflicts.
 */
void ra_ledger_pages_locked(ra_ledger_t *l, uint32_t site, ra_str_t path,
    uint32_t flags, int scanned, const ra_page_event_t *ev, size_t nev,
    int64_t now);

/* The site's version in force as a verdict reads it (hash 0: none). */
void ra_ledger_current_locked(const ra_ledger_t *l, uint32_t site,
    ra_version_fact_t *out);

/* The prefix a path counts under (see ra_pages_t), a span of path. */
ra_str_t ra_page_prefix(ra_str_t path);


/* ---- snapshots for reports ------------------------------------------- */

/*
 * A private copy of the tables, taken under the lock, for renderers.
 * Every stat's and violation's "site" is an index + 1 into this
 * snapshot's sites (0: none).  Bodies of current versions are copied when
 * with_bodies is set.
 */
typedef struct {
    ra_totals_t       totals;
    ra_site_t        *sites;        /* most recently seen first */
    uint32_t          nsites;
    ra_stat_t        *stats;        /* grouped by site, busiest first */
    uint32_t          nstats;
    ra_violation_t   *violations;   /* newest first */
    uint32_t          nviolations;
    ra_str_t         *bodies;       /* per site: current body, or empty */
    uint32_t          sites_total;  /* sites the view could show (all, or
                                       the one it names) */
    unsigned          truncated:1;  /* a view left sites, records or
                                       violations out */
} ra_snapshot_t;

/*
 * What a bounded snapshot copies (the status page's views): the work and
 * the memory of one are bounded by these numbers, not by the zone.  The
 * lock is held for one pass over the stat table (reading each record's
 * site and two counters) and one over the violation ring; only what is
 * kept is copied, and the busiest records are chosen by bounded heaps,
 * never by sorting the table.  (every: no bound, the CLI's.)
 */
typedef struct {
    ra_str_t   site;            /* data != NULL: only the site of this
                                   name (case-insensitive) */
    uint32_t   max_sites;       /* the most recently seen ones */
    uint32_t   max_crawlers;    /* per site, most requests first */
    uint32_t   max_violators;   /* per site, besides those: records with
                                   violations or unreachable verdicts,
                                   most first */
    uint32_t   max_violations;  /* per site, the newest of the ring */
    ra_str_t   crawler;         /* data != NULL: only records of this
                                   crawler name (case-insensitive) */
    unsigned   fold_generic:1;  /* generic bots' records are summed into
                                   one "generic" record per site and
                                   verification, and the table's crawlers
                                   not verified into one "unverified"
                                   (what Prometheus shows; then
                                   max_crawlers and max_violators do not
                                   apply: every verified crawler's record
                                   is kept) */
    unsigned   sites_only:1;    /* with fold_generic: no record at all,
                                   the sites alone (a Prometheus page
                                   too large for its records) */
    unsigned   purpose;         /* 0: every record; else only the table's
                                   crawlers of category purpose - 1
                                   (ra_crawler_category_e; ?purpose=,
                                   logs --purpose), and the violations
                                   recorded with that purpose */
    unsigned   every:1;         /* no bound: every record and violation,
                                   as view NULL (the CLI's), narrowed by
                                   site, crawler and purpose alone; the
                                   max_* and fold_generic do not apply */
} ra_snapshot_view_t;

/* Everything (view NULL). */
int ra_ledger_snapshot(ra_ledger_t *l, const ra_alloc_t *a, int with_bodies,
    ra_snapshot_t *snap);
/* What view keeps; view NULL: everything.  RA_OK or RA_ENOMEM. */
int ra_ledger_snapshot_view(ra_ledger_t *l, const ra_alloc_t *a,
    int with_bodies, const ra_snapshot_view_t *view, ra_snapshot_t *snap);
void ra_snapshot_free(ra_snapshot_t *snap, const ra_alloc_t *a);

/* Does a record of this kind and category have purpose (0: any; else
 * ra_crawler_category_e + 1: table crawlers of that category)?  An
 * impostor's record has the purpose of the crawler it claims to be (kept
 * as evidence), though robots_audit_purpose_requests_total leaves its
 * requests out. */
int ra_purpose_match(unsigned purpose, unsigned kind, unsigned category);

#endif /* RA_LEDGER_H */
