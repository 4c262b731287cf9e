/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A scope's crawler policy, independent of robots.txt: which purposes and
 * which crawlers it blocks, which crawlers are exceptions to those
 * blocks, and how a refused request is answered (status, body, its
 * Content-Type, Retry-After), for policy blocks and enforce refusals
 * alike.  The words of robots_audit_block, robots_audit_allow,
 * robots_audit_refuse_status and robots_audit_refuse_body (and their
 * Apache twins) are read here, so that both servers and the CLI's whatif
 * decide the same way; the engine asks ra_policy_refuses() of every
 * request judged before its content.
 */
#ifndef RA_POLICY_H
#define RA_POLICY_H

#include "ra_core.h"
#include "ra_buf.h"
#include "ra_http.h"
#include "ra_verdict.h"

/* A crawler named by a block or an allow: the crawler table's name, or a
 * generic bot's token, compared without regard to case. */
typedef struct ra_policy_name_s  ra_policy_name_t;
struct ra_policy_name_s {
    ra_str_t           name;
    ra_policy_name_t  *next;
};

/* What a scope wrote (ra_policy_t.set): each part is inherited on its own
 * where a location does not write it. */
#define RA_POLICY_SET_BLOCK     0x01u
#define RA_POLICY_SET_ALLOW     0x02u
#define RA_POLICY_SET_STATUS    0x04u
#define RA_POLICY_SET_BODY      0x08u

/* Without robots_audit_refuse_status: 403, as enforce always answered. */
#define RA_POLICY_STATUS        403
/* The largest refusal body read (robots_audit_refuse_body). */
#define RA_POLICY_BODY_MAX      (64u * 1024)
/* A 429's Retry-After, in seconds, when no Crawl-delay applies. */
#define RA_POLICY_RETRY_AFTER   60

struct ra_policy_s {
    unsigned           purposes;    /* blocked: a bit per
                                       ra_crawler_category_e and
                                       RA_ALERT_GENERIC, as
                                       ra_alert_purposes_parse() reads */
    ra_policy_name_t  *block;       /* crawlers blocked by name */
    ra_policy_name_t  *allow;       /* exceptions to the blocks */
    int                status;      /* 403, 402 or 429; 0: unset (403) */
    ra_str_t           body;        /* the refusal's body; len 0: the
                                       server's own page */
    const char        *content_type;  /* the body's, by its file name */
    unsigned           set;         /* RA_POLICY_SET_* */
};
typedef struct ra_policy_s  ra_policy_t;

/* A policy as written in a server's scope, for the status page: the
 * server's site name (the glue fills it after reading the configuration;
 * len 0: every site) and the policy. */
typedef struct ra_policy_site_s  ra_policy_site_t;
struct ra_policy_site_s {
    const ra_str_t     *site;
    const ra_policy_t  *policy;
    ra_policy_site_t   *next;
};

/* Why a policy refuses a request. */
typedef enum {
    RA_POLICY_PASS = 0,             /* it does not */
    RA_POLICY_PURPOSE,              /* its crawler's purpose is blocked */
    RA_POLICY_CRAWLER               /* its crawler is blocked by name */
} ra_policy_rule_e;

/*
 * Adds one directive's words to *p: block (allow 0) takes "purpose P..."
 * (the purposes of robots_audit_alert_purposes, a word may be a comma
 * list), "crawler NAME..." or "off" alone (nothing blocked here, none
 * inherited); allow (allow 1) takes "crawler NAME...".  Directives add
 * up.  Names are copied with a.  RA_OK; RA_ENOMEM; or RA_ERROR with *bad
 * the word at fault and *why a static phrase about it.
 */
int ra_policy_words(ra_policy_t *p, int allow, const ra_str_t *words,
    size_t n, const ra_alloc_t *a, ra_str_t *bad, const char **why);

/* robots_audit_refuse_status's word: 403, 402 or 429.  RA_OK, or
 * RA_ERROR with *why a static phrase. */
int ra_policy_status_word(ra_policy_t *p, ra_str_t word, const char **why);

/* The Content-Type of a refusal body by its file name: .json
 * application/json, .html or .htm text/html, else text/plain (each with
 * charset=utf-8 but JSON). */
const char *ra_policy_content_type(ra_str_t path);

/* Does any block stand in p (NULL: none)? */
int ra_policy_any(const ra_policy_t *p);

/* to's parts not written there taken from base (to written first). */
void ra_policy_merge(ra_policy_t *to, const ra_policy_t *base);

/*
 * Does p refuse the request judged v, and by which rule?  A browser, a
 * robots.txt fetch and a request left unjudged never are.  A crawler
 * named by an allow passes, unless it failed verification: an impostor
 * is refused as what it claims to be when that is blocked (it never gets
 * in by claiming a blocked name) and gets no exception.  A crawler named
 * by a block is refused, then one whose purpose is blocked (a generic
 * bot's purpose is "generic").
 */
ra_policy_rule_e ra_policy_refuses(const ra_policy_t *p,
    const ra_verdict_t *v);

/* The rule of ra_policy_refuses() as the log and the status page say it:
 * "block crawler Bytespider", "block purpose ai-training". */
void ra_policy_rule_text(ra_buf_t *b, ra_policy_rule_e rule,
    const ra_verdict_t *v);

/* p's answer, blocks and exceptions in the words of the directives, one
 * clause after another ("refuse 402; block purpose ai-training ai-search;
 * block crawler Bytespider; allow crawler GPTBot"): nothing when it
 * blocks nothing. */
void ra_policy_describe(ra_buf_t *b, const ra_policy_t *p);

/* How a refused request is answered (status 0: not refused). */
typedef struct {
    int                status;
    const char        *content_type;    /* NULL: no body (the server's own
                                           page for status) */
    ra_str_t           body;
    char               retry_after[24]; /* "" unless 429: the seconds of
                                           the crawler's Crawl-delay, else
                                           RA_POLICY_RETRY_AFTER */
} ra_refusal_t;

/* The answer to the request judged v, refused (v->refused) in a scope of
 * policy p (NULL: 403 and no body). */
void ra_policy_answer(const ra_policy_t *p, const ra_verdict_t *v,
    ra_refusal_t *a);

/* A refusal as the server sends it (ra_http.h): its status, its body when
 * the policy has one, and Retry-After when it has one.  Valid while a
 * is. */
void ra_refusal_reply(const ra_refusal_t *a, ra_reply_t *out);

#endif /* RA_POLICY_H */
