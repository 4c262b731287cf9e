/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A request's target kind (ra_http_target_kind(): robots.txt, llms.txt, a
 * server's own page), asked once a request and remembered for its later
 * phases: a server's glue keeps the word or the memo below with the
 * request, and the core decides when to ask, what to keep and when what
 * is kept is still that request's.
 */
#ifndef RA_KIND_H
#define RA_KIND_H

#include "ra_http.h"

/*
 * A kind as one word kept with a request: 0 until asked, then the kind
 * with RA_TARGET_KNOWN (what ra_request_t.target_kind takes), and
 * RA_KIND_JUDGED once the request was judged before its content
 * (robots_audit_enforce): not judged again at log time.
 */
#define RA_KIND_JUDGED  0x100u

/* The kind of target for the request whose word this is, with
 * RA_TARGET_KNOWN: asked the first time, remembered in *word. */
unsigned ra_kind_word(unsigned *word, ra_str_t target);

/* The same for a server that knows where target's path ends (its parser
 * met no '#' or dot segment and found the query, if any, at path.len):
 * path.data NULL when it does not (ra_http_path_kind()). */
unsigned ra_kind_word_path(unsigned *word, ra_str_t target, ra_str_t path);

/* What ra_request_t.target_kind takes from a word: without
 * RA_KIND_JUDGED; 0 when not asked (the core asks then). */
#define ra_kind_known(word)  ((word) & 0xffu)

/*
 * For a server that keeps no word with each request (nginx keeps none
 * before a request needs one): the last request asked, in its worker.
 * Another request may ask in between (an earlier one still being sent);
 * then the one asked first is asked again later, never given another's
 * kind: the request and its target's bytes must both match.
 */
typedef struct {
    const void           *req;      /* the request asked, compared only */
    const unsigned char  *target;   /* its target's bytes, likewise */
    unsigned              word;
} ra_kind_memo_t;

/* Asks (ra_kind_word_path()) the kind of req's target and remembers it
 * for req, in place of the request remembered before.  Inline, as the
 * take below: both run for every request. */
static inline unsigned
ra_kind_memo_ask(ra_kind_memo_t *m, const void *req, ra_str_t target,
    ra_str_t path)
{
    m->req = req;
    m->target = target.data;
    m->word = 0;
    return ra_kind_word_path(&m->word, target, path);
}

/* The kind remembered for req and target, with RA_TARGET_KNOWN, or 0;
 * forgotten either way when it was req's, so that no later request at
 * req's address finds it. */
static inline unsigned
ra_kind_memo_take(ra_kind_memo_t *m, const void *req, ra_str_t target)
{
    unsigned  kind = 0;

    if (m->req == req) {
        if (m->target == target.data) {
            kind = ra_kind_known(m->word);
        }
        m->req = NULL;
    }
    return kind;
}

#endif /* RA_KIND_H */
