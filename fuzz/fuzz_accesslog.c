/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Access-log lines: any bytes as one line.  On success every span lies in
 * the line, the request's parts lie in the request, the status is 0 or
 * 100-999, the time formats in 20 bytes and unescaping never grows a
 * field.  The same for the format that ra_logfmt_detect() finds for the
 * bytes, and, when they hold a newline, for the bytes after it read in
 * the format (nginx log_format or Apache LogFormat string) before it:
 * the plan compiler and reader; or a --json-fields map ("json:MAP") or a
 * W3C "#Fields:" line before it.  A line read in a format has a client
 * that is an IP address, a time and a status of 100-599.  The client
 * ra_realip() picks lies in the address or in the X-Forwarded-For field.
 */
#include "fuzz.h"
#include "ra_accesslog.h"

static void
unescape(ra_str_t s)
{
    unsigned char  *buf;
    size_t          n;

    if (s.data == NULL) {
        return;
    }
    buf = malloc(s.len ? s.len : 1);
    FZ_CHECK(buf != NULL);
    n = ra_accesslog_unescape(s, buf);
    FZ_CHECK(n <= s.len);
    free(buf);
}

static void
check_rec(const ra_logrec_t *rec, const uint8_t *copy, size_t size)
{
    static const char  *const nets[] = { "10.0.0.0/8", "::1", "2001:db8::/33",
                                         "0.0.0.0/0" };
    ra_cidr_t           t[4];
    ra_str_t            c;
    char                iso[21];
    size_t              i;
    unsigned char      *dec;
    ra_str_t            du, da;

    FZ_CHECK(fz_within(rec->addr, copy, size));
    FZ_CHECK(rec->addr.len > 0);
    FZ_CHECK(fz_within(rec->user, copy, size));
    FZ_CHECK(fz_within(rec->method, copy, size));
    FZ_CHECK(fz_within(rec->target, copy, size));
    FZ_CHECK(fz_within(rec->protocol, copy, size));
    FZ_CHECK(rec->method.len > 0 || rec->target.len == 0);
    FZ_CHECK(rec->status == 0 || (rec->status >= 100 && rec->status <= 999));
    FZ_CHECK(rec->status >= 100 && rec->status <= 599);
    FZ_CHECK(rec->query.data == NULL || fz_within(rec->query, copy, size));
    /* decoded, the target (with its query) and the User-Agent take no
     * more than the line */
    dec = malloc(size + 1);
    FZ_CHECK(dec != NULL);
    ra_logrec_decode(rec, dec, &du, &da);
    FZ_CHECK(du.len <= size + 1 && da.len <= size);
    free(dec);
    FZ_CHECK(rec->bytes >= -1);
    if (rec->user_agent.data != NULL) {
        FZ_CHECK(fz_within(rec->user_agent, copy, size));
        unescape(rec->user_agent);
    }
    if (rec->referer.data != NULL) {
        FZ_CHECK(fz_within(rec->referer, copy, size));
    }
    if (rec->host.data != NULL) {
        FZ_CHECK(fz_within(rec->host, copy, size));
    }
    if (rec->xff.data != NULL) {
        FZ_CHECK(fz_within(rec->xff, copy, size));
    }
    FZ_CHECK(ra_time_iso(rec->time, iso) == 20);
    unescape(rec->target);

    for (i = 0; i < 4; i++) {
        FZ_CHECK(ra_cidr_parse(ra_str(nets[i], strlen(nets[i])), &t[i])
                 == RA_OK);
    }
    c = ra_realip(t, 4, rec->addr, rec->xff);
    FZ_CHECK((c.data == rec->addr.data && c.len == rec->addr.len)
             || (rec->xff.data != NULL && fz_within(c, rec->xff.data,
                                                    rec->xff.len)));
    FZ_CHECK(c.len > 0 || rec->xff.data != NULL);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ra_logrec_t  rec;
    ra_str_t     line;
    char         iso[21];
    uint8_t     *copy;

    if (size > RA_LOG_LINE_MAX) {
        return 0;
    }
    /* a private copy, exactly sized, so that ASan sees any overread */
    copy = malloc(size ? size : 1);
    FZ_CHECK(copy != NULL);
    memcpy(copy, data, size);
    line = ra_str(copy, size);

    if (ra_accesslog_parse(line, &rec) == RA_OK) {
        FZ_CHECK(fz_within(rec.addr, copy, size));
        FZ_CHECK(fz_within(rec.user, copy, size));
        FZ_CHECK(fz_within(rec.request, copy, size));
        FZ_CHECK(fz_within(rec.method, rec.request.data, rec.request.len));
        FZ_CHECK(fz_within(rec.target, rec.request.data, rec.request.len));
        FZ_CHECK(fz_within(rec.protocol, rec.request.data,
                           rec.request.len));
        FZ_CHECK(rec.method.len > 0 || rec.target.len == 0);
        FZ_CHECK(rec.status == 0
                 || (rec.status >= 100 && rec.status <= 999));
        FZ_CHECK(rec.bytes >= -1);
        FZ_CHECK(rec.format == RA_LOG_COMMON || rec.format == RA_LOG_COMBINED);
        if (rec.format == RA_LOG_COMBINED) {
            FZ_CHECK(fz_within(rec.referer, copy, size));
            FZ_CHECK(fz_within(rec.user_agent, copy, size));
            FZ_CHECK(rec.user_agent.data != NULL);
        } else {
            FZ_CHECK(rec.user_agent.data == NULL);
        }
        FZ_CHECK(ra_time_iso(rec.time, iso) == 20);
        FZ_CHECK(strlen(iso) == 20);
        unescape(rec.request);
        unescape(rec.referer);
        unescape(rec.user_agent);
    }
    /* the unescaper on raw bytes too */
    unescape(line);

    /* the format a log's first line shows */
    {
        ra_logfmt_t   f;
        const char   *err = NULL;
        uint8_t      *nl;
        size_t        k;

        if (ra_logfmt_detect(line, &f) == RA_OK) {
            FZ_CHECK(ra_logfmt_parse(&f, line, &rec) == RA_OK);
            check_rec(&rec, copy, size);
        }
        /* "FORMAT\nLINE": a plan compiled (or a --json-fields map, or a
         * W3C "#Fields:" line), then a line read with it */
        nl = memchr(copy, '\n', size);
        if (nl != NULL) {
            k = (size_t) (nl - copy);
            if (k > 5 && memcmp(copy, "json:", 5) == 0) {
                if (ra_logfmt_json_fields(ra_str(copy + 5, k - 5), &f, &err)
                    == RA_OK)
                {
                    FZ_CHECK(f.nitems <= RA_LOGFMT_ITEMS);
                    if (ra_logfmt_parse(&f, ra_str(nl + 1, size - k - 1),
                                        &rec) == RA_OK)
                    {
                        check_rec(&rec, copy, size);
                    }
                } else {
                    FZ_CHECK(err != NULL);
                }
            } else if (k > 0 && copy[0] == '#') {
                ra_logfmt_named(RA_LOG_W3C, &f);
                FZ_CHECK(ra_logfmt_directive(ra_str(copy, k), &f) == 1);
                FZ_CHECK(f.nitems <= RA_LOGFMT_ITEMS);
                if (ra_logfmt_parse(&f, ra_str(nl + 1, size - k - 1), &rec)
                    == RA_OK)
                {
                    check_rec(&rec, copy, size);
                }
            } else if (ra_logfmt_compile(ra_str(copy, k), &f, &err)
                       == RA_OK)
            {
                FZ_CHECK(f.nitems <= RA_LOGFMT_ITEMS);
                if (ra_logfmt_parse(&f, ra_str(nl + 1, size - k - 1), &rec)
                    == RA_OK)
                {
                    check_rec(&rec, copy, size);
                }
            } else {
                FZ_CHECK(err != NULL);
            }
        }
    }
    free(copy);
    return 0;
}
