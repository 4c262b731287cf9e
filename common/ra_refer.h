/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Crawl-to-refer: which sites send visitors on behalf of a crawler
 * operator (its search engine, its assistant).  The table is text
 * (data/referrers.txt documents the format; the build embeds it): per
 * operator, named as the crawler table's "operator" names it, the host
 * patterns of its Referers.  A browser visit whose Referer host matches
 * counts as a referral from that operator; the operator's crawlers'
 * requests are counted beside (ra_ledger_referral_locked()).
 *
 * ra_refer_t is plain data of fixed size, spans into the text it was
 * loaded from (the embedded table lives as long as the program); loading
 * allocates nothing, matching neither, and both are bounded by the
 * table's limits and RA_REFER_HOST_MAX.
 */
#ifndef RA_REFER_H
#define RA_REFER_H

#include "ra_core.h"

#define RA_REFER_OPS        24      /* operators; the ledger keeps as many
                                       counters per site */
#define RA_REFER_HOSTS      16      /* patterns per operator */
#define RA_REFER_HOST_MAX   253     /* bytes of a host name compared */
#define RA_REFER_UTMS       4       /* utm_source values per operator */

typedef struct {
    ra_str_t   name;                        /* the operator */
    ra_str_t   hosts[RA_REFER_HOSTS];       /* "example.com", "google.*" */
    unsigned   nhosts;
    /* per host pattern: its last 8 bytes (fewer when shorter) lower-cased,
     * the last in the low byte (ra_refer_match() compares them first) */
    uint64_t   tails[RA_REFER_HOSTS];
    /* bit (c & 63) for the last byte c of each of its patterns that is
     * not "NAME.*"; wild: it has one of those */
    uint64_t   lasts;
    unsigned   wild;
    /* the utm_source values the operator adds to the links it shows
     * ("chatgpt.com") */
    ra_str_t   utms[RA_REFER_UTMS];
    unsigned   nutms;
} ra_refer_op_t;

typedef struct {
    ra_refer_op_t  ops[RA_REFER_OPS];
    unsigned       nops;
} ra_refer_t;

/* Loads a table from text (kept: the spans point into it).  RA_OK, or
 * RA_ERROR with *line (1-based) and *msg (static) saying what is wrong:
 * a pattern before any operator, a key other than operator/host/utm,
 * more than RA_REFER_OPS operators, RA_REFER_HOSTS patterns or
 * RA_REFER_UTMS utm values, an empty or over-long name, a pattern that is
 * not a host name ("*" only as the last label), a utm value that is not
 * 1 to 64 bytes of letters, digits, '.', '-' or '_'. */
int ra_refer_load(ra_refer_t *t, ra_str_t text, size_t *line,
    const char **msg);

/* The table built into the binary (data/referrers.txt). */
int ra_refer_builtin(ra_refer_t *t);

/* The host of a Referer ("https://www.google.fr/search?q=x" ->
 * "www.google.fr"): after "scheme://" and any "user@", up to '/', ':',
 * '?', '#', a backslash (a browser's '/') or the end, less one final
 * '.'; len 0 when there is none, it holds a byte that is not a host
 * name's (an escape, UTF-8) or an empty label, or it is longer than
 * RA_REFER_HOST_MAX. */
ra_str_t ra_refer_host(ra_str_t referer);

/* The operator (index into t->ops) whose pattern matches the Referer's
 * host first; -1 when none does (or no host). */
int ra_refer_match(const ra_refer_t *t, ra_str_t referer);

/* The operator whose "utm" value the request target's utm_source
 * parameter holds (case-insensitive, whole value: "/a?utm_source=
 * chatgpt.com&x=1"): ChatGPT adds it to the links it cites, and its pages
 * often send no Referer.  -1 when none does, or the target has no query.
 * Reads the target once. */
int ra_refer_match_target(const ra_refer_t *t, ra_str_t target);

/* Whether a Referer is a page of the site itself: its host is the site's
 * name (the request's site, less a ":port"), any case, either with or
 * without a leading "www.".  Such a visit came from the site's own page
 * (its links keep a utm_source, a form sent back): not a new arrival,
 * whatever its target's utm_source says. */
int ra_refer_same_site(ra_str_t referer, ra_str_t site);

/* Whether a browser request answered status is a visit its Referer's
 * operator sent, once: not a redirect (301, 302, 303, 307, 308: the
 * browser asks for the target with the same Referer) nor a part of a
 * document (206: a PDF viewer reads the file it got whole in ranges, each
 * with the Referer); a revalidation (304), an error or an answer not
 * known yet (0) is. */
int ra_refer_visit(int status);

/* The index of the operator of this name (case-insensitive); -1 when the
 * table has none. */
int ra_refer_operator(const ra_refer_t *t, ra_str_t name);

#endif /* RA_REFER_H */
