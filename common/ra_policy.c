/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A scope's crawler policy (ra_policy.h): the words of the block, allow
 * and refuse directives read into a policy, the decision whether it
 * refuses an identified request and by which rule, and the answer a
 * refused request gets.  Kept apart from enforce (ra_verdict.c) because a
 * policy does not depend on robots.txt: it refuses by who the crawler is.
 */
#include <stdio.h>
#include <string.h>

#include "ra_policy.h"
#include "ra_alert.h"
#include "ra_verify.h"

static int
ra_policy_is(ra_str_t w, const char *word)
{
    return ra_strcaseeq(w, ra_str_z(word));
}

static int
ra_policy_named(const ra_policy_name_t *n, ra_str_t name)
{
    for (; n != NULL; n = n->next) {
        if (ra_strcaseeq(n->name, name)) {
            return 1;
        }
    }
    return 0;
}

/* adds names to *list, copied, in the order written */
static int
ra_policy_add_names(ra_policy_name_t **list, const ra_str_t *words,
    size_t n, const ra_alloc_t *a)
{
    size_t             i;
    unsigned char     *p;
    ra_policy_name_t  *e, **last;

    for (last = list; *last != NULL; last = &(*last)->next) {
        /* a few names: no tail kept */
    }
    for (i = 0; i < n; i++) {
        e = ra_alloc(a, sizeof(*e) + words[i].len + 1);
        if (e == NULL) {
            return RA_ENOMEM;
        }
        p = (unsigned char *) (e + 1);
        memcpy(p, words[i].data, words[i].len);
        p[words[i].len] = '\0';
        e->name = ra_str(p, words[i].len);
        e->next = NULL;
        *last = e;
        last = &e->next;
    }
    return RA_OK;
}

int
ra_policy_words(ra_policy_t *p, int allow, const ra_str_t *words,
    size_t n, const ra_alloc_t *a, ra_str_t *bad, const char **why)
{
    size_t  i;

    *bad = n > 0 ? words[0] : ra_str("", 0);
    if (!allow && n == 1 && ra_policy_is(words[0], "off")) {
        p->purposes = 0;
        p->block = NULL;
        p->set |= RA_POLICY_SET_BLOCK;
        return RA_OK;
    }
    if (n < 2) {
        *why = allow ? "the words are: crawler NAME..."
                     : "the words are: purpose P..., crawler NAME... or off";
        return RA_ERROR;
    }
    if (ra_policy_is(words[0], "crawler")) {
        p->set |= allow ? RA_POLICY_SET_ALLOW : RA_POLICY_SET_BLOCK;
        return ra_policy_add_names(allow ? &p->allow : &p->block, words + 1,
                                   n - 1, a);
    }
    if (allow || !ra_policy_is(words[0], "purpose")) {
        *why = allow ? "is not \"crawler\" (exceptions are crawlers by name)"
                     : "is not \"purpose\" or \"crawler\"";
        return RA_ERROR;
    }
    for (i = 1; i < n; i++) {
        *why = ra_alert_purposes_parse(words[i], &p->purposes, bad);
        if (*why != NULL) {
            return RA_ERROR;
        }
    }
    p->set |= RA_POLICY_SET_BLOCK;
    return RA_OK;
}

int
ra_policy_status_word(ra_policy_t *p, ra_str_t word, const char **why)
{
    static const char  *const codes[] = { "403", "402", "429" };
    size_t                     i;

    for (i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
        if (ra_policy_is(word, codes[i])) {
            p->status = 400 + (codes[i][1] - '0') * 10 + codes[i][2] - '0';
            p->set |= RA_POLICY_SET_STATUS;
            return RA_OK;
        }
    }
    *why = "is not 403, 402 or 429";
    return RA_ERROR;
}

static int
ra_policy_ends(ra_str_t path, const char *ext)
{
    size_t  n = strlen(ext);

    return path.len >= n
           && ra_strcaseeq(ra_str(path.data + path.len - n, n),
                           ra_str_z(ext));
}

const char *
ra_policy_content_type(ra_str_t path)
{
    if (ra_policy_ends(path, ".json")) {
        return "application/json";
    }
    if (ra_policy_ends(path, ".html") || ra_policy_ends(path, ".htm")) {
        return "text/html; charset=utf-8";
    }
    return "text/plain; charset=utf-8";
}

int
ra_policy_any(const ra_policy_t *p)
{
    return p != NULL && (p->purposes != 0 || p->block != NULL);
}

void
ra_policy_merge(ra_policy_t *to, const ra_policy_t *base)
{
    if (!(to->set & RA_POLICY_SET_BLOCK)) {
        to->purposes = base->purposes;
        to->block = base->block;
    }
    if (!(to->set & RA_POLICY_SET_ALLOW)) {
        to->allow = base->allow;
    }
    if (!(to->set & RA_POLICY_SET_STATUS)) {
        to->status = base->status;
    }
    if (!(to->set & RA_POLICY_SET_BODY)) {
        to->body = base->body;
        to->content_type = base->content_type;
    }
}

ra_policy_rule_e
ra_policy_refuses(const ra_policy_t *p, const ra_verdict_t *v)
{
    unsigned  bit;

    if (!ra_policy_any(p) || v->verdict == RA_VERDICT_NONE
        || v->verdict == RA_VERDICT_FETCH || v->kind == RA_UA_BROWSER)
    {
        return RA_POLICY_PASS;
    }
    /* an exception is for the crawler itself, not for who claims it */
    if (v->verification != RA_VERIFY_IMPOSTOR
        && ra_policy_named(p->allow, v->name))
    {
        return RA_POLICY_PASS;
    }
    if (ra_policy_named(p->block, v->name)) {
        return RA_POLICY_CRAWLER;
    }
    bit = v->crawler == NULL || v->crawler->category >= RA_CAT_MAX
          ? RA_ALERT_GENERIC : 1u << v->crawler->category;
    return (p->purposes & bit) ? RA_POLICY_PURPOSE : RA_POLICY_PASS;
}

static const char *
ra_policy_purpose_name(unsigned bit)
{
    unsigned  c;

    for (c = 0; c < RA_CAT_MAX; c++) {
        if (bit == 1u << c) {
            return ra_crawler_category_name(c);
        }
    }
    return "generic";
}

void
ra_policy_rule_text(ra_buf_t *b, ra_policy_rule_e rule,
    const ra_verdict_t *v)
{
    if (rule == RA_POLICY_CRAWLER) {
        ra_buf_printf(b, "block crawler %.*s", (int) v->name.len,
                      (const char *) v->name.data);
    } else if (rule == RA_POLICY_PURPOSE) {
        ra_buf_printf(b, "block purpose %s",
                      v->crawler != NULL && v->crawler->category < RA_CAT_MAX
                      ? ra_crawler_category_name(v->crawler->category)
                      : "generic");
    }
}

static void
ra_policy_names(ra_buf_t *b, const char *what, const ra_policy_name_t *n)
{
    if (n == NULL) {
        return;
    }
    ra_buf_printf(b, "; %s crawler", what);
    for (; n != NULL; n = n->next) {
        ra_buf_printf(b, " %.*s", (int) n->name.len,
                      (const char *) n->name.data);
    }
}

void
ra_policy_describe(ra_buf_t *b, const ra_policy_t *p)
{
    unsigned  bit;

    if (!ra_policy_any(p)) {
        return;
    }
    /* the refusal first: every clause after it starts with "; " */
    ra_buf_printf(b, "refuse %d", p->status ? p->status : RA_POLICY_STATUS);
    if (p->purposes != 0) {
        ra_buf_cstr(b, "; block purpose");
        for (bit = 1; bit != 0 && bit <= RA_ALERT_GENERIC; bit <<= 1) {
            if (p->purposes & bit) {
                ra_buf_printf(b, " %s", ra_policy_purpose_name(bit));
            }
        }
    }
    ra_policy_names(b, "block", p->block);
    ra_policy_names(b, "allow", p->allow);
}

void
ra_policy_answer(const ra_policy_t *p, const ra_verdict_t *v,
    ra_refusal_t *a)
{
    int64_t  s;

    memset(a, 0, sizeof(*a));
    if (!v->refused) {
        return;
    }
    a->status = p != NULL && p->status ? p->status : RA_POLICY_STATUS;
    if (p != NULL && p->body.len) {
        a->body = p->body;
        a->content_type = p->content_type;
    }
    if (a->status == 429) {
        /* whole seconds, rounded up: never sooner than the delay */
        s = v->crawl_delay_ms > 0 ? ((int64_t) v->crawl_delay_ms + 999) / 1000
                                  : RA_POLICY_RETRY_AFTER;
        (void) snprintf(a->retry_after, sizeof(a->retry_after), "%lld",
                        (long long) s);
    }
}


void
ra_refusal_reply(const ra_refusal_t *a, ra_reply_t *out)
{
    memset(out, 0, sizeof(*out));
    out->status = a->status;
    out->content_type = a->content_type;
    out->body = a->body;
    if (a->retry_after[0] != '\0') {
        out->fields[0].name = "Retry-After";
        out->fields[0].value = a->retry_after;
    }
}
