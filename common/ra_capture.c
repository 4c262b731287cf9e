/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The capture of a robots.txt answer as served (ra_http.h, "the capture
 * buffer"): a capped copy of the bytes the server's filter sees, counted
 * in full, decoded when they are coded, and handed over as the answer to
 * record (ra_audit_robots()).
 */
#include <string.h>

#include "ra_decode.h"
#include "ra_http.h"

#define RA_CAPTURE_FIRST  8192          /* first allocation of a capture */

void
ra_capture_start(ra_capture_t *c, const ra_alloc_t *a,
    const ra_alloc_t *scratch, int status, int64_t content_length,
    ra_str_t content_encoding)
{
    size_t  first = RA_CAPTURE_FIRST;

    if (content_length > (int64_t) first) {
        first = content_length < (int64_t) RA_ROBOTS_MAX
                ? (size_t) content_length : RA_ROBOTS_MAX;
    }
    memset(c, 0, sizeof(*c));
    /* memory is taken at the first byte: an empty answer takes none */
    ra_buf_init(&c->body, a, 0, RA_ROBOTS_MAX);
    ra_buf_init(&c->decoded, a, 0, RA_ROBOTS_MAX);
    c->scratch = scratch != NULL ? scratch : a;
    if (content_encoding.data != NULL && content_encoding.len) {
        c->coding = content_encoding;
    }
    c->status = status;
    c->first = first;
    c->max = RA_ROBOTS_MAX;
    c->active = 1;
}

void
ra_capture_limit(ra_capture_t *c, size_t max)
{
    if (max < c->max) {
        c->max = max;
        c->first = c->first < max ? c->first : max;
    }
}

unsigned char *
ra_capture_space(ra_capture_t *c, size_t n, size_t *keep)
{
    size_t  room;

    *keep = 0;
    c->size += n;
    if (!c->active || c->failed) {
        return NULL;
    }
    room = c->body.len < c->max ? c->max - c->body.len : 0;
    *keep = n < room ? n : room;
    if (*keep == 0) {
        return NULL;
    }
    /* the first allocation takes the whole answer when its length is
     * known, so a file is copied once */
    if ((c->body.cap == 0 && !ra_buf_reserve(&c->body, c->first))
        || !ra_buf_reserve(&c->body, *keep))
    {
        c->failed = 1;
        *keep = 0;
        return NULL;
    }
    return c->body.data + c->body.len;
}

void
ra_capture_commit(ra_capture_t *c, size_t copied)
{
    c->body.len += copied;
}

void
ra_capture_fail(ra_capture_t *c)
{
    c->failed = 1;
}

int
ra_capture_read(ra_capture_t *c, size_t n,
    int (*read)(void *ctx, void *dst, size_t k), void *ctx)
{
    size_t          keep;
    unsigned char  *dst = ra_capture_space(c, n, &keep);

    if (dst == NULL) {
        return RA_OK;                   /* full, or out of memory */
    }
    if (read(ctx, dst, keep) != RA_OK) {
        ra_capture_fail(c);
        return RA_ERROR;
    }
    ra_capture_commit(c, keep);
    return RA_OK;
}

int
ra_capture_skip(ra_capture_t *c, size_t n)
{
    if (!c->failed && c->body.len < c->max) {
        return 0;
    }
    c->size += n;
    return 1;
}

void
ra_capture_add(ra_capture_t *c, const void *p, size_t n)
{
    size_t          keep;
    unsigned char  *dst;

    dst = ra_capture_space(c, n, &keep);
    if (dst != NULL) {
        memcpy(dst, p, keep);
        ra_capture_commit(c, keep);
    }
}

/* The body as crawlers parse it: the coded bytes seen, decoded. */
static void
ra_capture_decode(ra_capture_t *c, ra_answer_t *ans)
{
    int                          rc;
    ra_decode_info_t             info;
    static const unsigned char   none[1];

    ans->content_encoding = c->coding;
    ra_buf_release(&c->decoded);
    rc = ra_decode(c->coding, ans->body, !ans->truncated, c->max,
                   c->body.alloc, c->scratch, &c->decoded, &info);
    if (rc == RA_OK) {
        ans->body = ra_str(c->decoded.data, c->decoded.len);
        ans->decoded = c->decoded.len;
        ans->truncated = info.truncated;
        return;
    }
    if (rc == RA_ENOMEM) {
        c->failed = 1;
        return;
    }
    /* only a body crawlers read makes an answer undecodable; that of a
     * 3xx, 4xx or 5xx says nothing either way */
    ans->body = ra_str(none, 0);
    ans->truncated = 0;
    if (ra_answer_of_status(c->status) == RA_ANSWER_RULES) {
        ans->undecodable = 1;
        ans->decode_error = info.error;
    }
}

/* does the header value already name a charset? */
static int
ra_has_charset(ra_str_t type)
{
    size_t  i;

    for (i = 0; i + 8 <= type.len; i++) {
        if (ra_startswith_ci(ra_str(type.data + i, type.len - i),
                             "charset="))
        {
            return 1;
        }
    }
    return 0;
}

int
ra_capture_answer(ra_capture_t *c, ra_str_t content_type, ra_str_t charset,
    ra_answer_t *ans)
{
    static const unsigned char  none[1];
    static const char           sep[] = "; charset=";
    unsigned char              *p;

    memset(ans, 0, sizeof(*ans));
    ans->status = c->status;
    /* the header as sent, absent included ("" is absent, never unknown) */
    ans->content_type = content_type;
    if (ans->content_type.data == NULL) {
        ans->content_type = ra_str(none, 0);
    }
    if (charset.len && content_type.len && !ra_has_charset(content_type)) {
        p = ra_alloc(c->body.alloc, content_type.len + sizeof(sep) - 1
                                    + charset.len);
        if (p != NULL) {
            memcpy(p, content_type.data, content_type.len);
            memcpy(p + content_type.len, sep, sizeof(sep) - 1);
            memcpy(p + content_type.len + sizeof(sep) - 1, charset.data,
                   charset.len);
            ans->content_type = ra_str(p, content_type.len + sizeof(sep) - 1
                                          + charset.len);
        }
    }
    ans->body = ra_str(c->body.data, c->body.len);
    ans->size = (size_t) c->size;
    ans->truncated = c->size > c->body.len;
    c->active = 0;
    if (!c->failed && !ra_coding_is_identity(c->coding)) {
        ra_capture_decode(c, ans);
    }
    return c->failed ? RA_ENOMEM : RA_OK;
}
