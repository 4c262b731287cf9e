/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Every log tag robots-audit writes, defined once (docs/log-tags.md says
 * what each means and what to do about it).  A line reads
 *
 *     robots-audit: [RA311] out of memory, request counted but not judged
 *
 * whatever wrote it: nginx, Apache or the CLI.  RA1xx are alerts about
 * crawlers, RA2xx robots.txt findings, RA3xx the module's own state.
 * Tags are a contract (fail2ban filters, log alerting): a tag keeps its
 * meaning forever; a retired one is never reused.
 */
#ifndef RA_TAGS_H
#define RA_TAGS_H

#define RA_LOG_PREFIX           "robots-audit: "

/* alerts: one line per alerting request (ra_alert.h) */
#define RA_TAG_VIOLATION        "RA100"     /* crawled a disallowed path */
#define RA_TAG_UNREACHABLE      "RA101"     /* crawled during a 5xx/429 */
#define RA_TAG_IMPOSTOR         "RA102"     /* a crawler's name from outside
                                               its published ranges */
#define RA_TAG_ALERT_BUDGET     "RA103"     /* the alert budget held lines
                                               back: how many, for whom */
#define RA_TAG_UNDECLARED       "RA104"     /* a client flagged as an
                                               undeclared crawler (a
                                               browser's User-Agent, a
                                               crawler's behaviour)
                                               crawled a disallowed path */
#define RA_TAG_ALERT_OTHER      "RA199"     /* a verdict without a tag */

/* robots.txt */
#define RA_TAG_LINT             "RA200"     /* a finding of the configured
                                               file, at start and -t */
#define RA_TAG_ROBOTS_UNREAD    "RA201"     /* the configured file is
                                               absent or unreadable */
#define RA_TAG_UNDECODABLE      "RA202"     /* a served robots.txt whose
                                               Content-Encoding cannot be
                                               undone */
#define RA_TAG_RANGES_STALE     "RA203"     /* a loaded IP-range file is
                                               older than 7 days */

/* the module */
#define RA_TAG_MUTEX            "RA300"     /* a lock cannot be created */
#define RA_TAG_LOCK             "RA301"     /* the ledger lock fails */
#define RA_TAG_CRAWLERS         "RA302"     /* crawler table does not load */
#define RA_TAG_CONFIG_FILE      "RA303"     /* a configured file is refused */
#define RA_TAG_NEW_LEDGER       "RA304"     /* counters start over */
#define RA_TAG_ZONE_CREATE      "RA305"     /* no shared memory */
#define RA_TAG_ZONE_LAYOUT      "RA306"     /* no ledger fits the zone */
#define RA_TAG_ALERT_LOG        "RA307"     /* the alert log cannot open
                                               or be written */
#define RA_TAG_KEPT_LEDGER      "RA308"     /* counters kept (restart) */
#define RA_TAG_CHILD_ATTACH     "RA310"     /* a child cannot attach */
#define RA_TAG_NOMEM            "RA311"     /* out of memory */
#define RA_TAG_LEDGER_REBUILT   "RA312"     /* a process died inside the
                                               ledger lock: rebuilt */
#define RA_TAG_EVIDENCE_LOG     "RA313"     /* the evidence log cannot open
                                               or be written */
#define RA_TAG_EVENTS           "RA350"     /* the event stream cannot
                                               open */
#define RA_TAG_ZONE_REFUSED     "RA320"     /* a zone cannot be reused */
#define RA_TAG_ZONE_FULL        "RA321"     /* evictions happen */
#define RA_TAG_CAPTURE          "RA323"     /* an answer cannot be read */
#define RA_TAG_ENFORCED         "RA324"     /* enforce refused a request */
#define RA_TAG_DATA_FILE        "RA325"     /* a range or key file is
                                               missing or invalid: what
                                               it verifies stays
                                               unverified */
#define RA_TAG_UNDECL_RESET     "RA326"     /* an undeclared-crawler table
                                               was left half-written:
                                               made anew */
#define RA_TAG_RDNS_OFF         "RA330"     /* reverse DNS is off: no
                                               resolver, or it cannot
                                               start */
#define RA_TAG_STATE_RESTORED   "RA340"     /* counters restored from the
                                               state file at start */
#define RA_TAG_STATE_REFUSED    "RA341"     /* the state file is torn,
                                               foreign or corrupt: a new
                                               ledger */
#define RA_TAG_STATE_UNSAVED    "RA342"     /* the state file cannot be
                                               written */

#endif /* RA_TAGS_H */
