/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Access-log lines: any bytes as one line.  On success every span lies in
 * the line, the request's parts lie in the request, the status is 0 or
 * 100-999, the time formats in 20 bytes and unescaping never grows a
 * field.
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
    free(copy);
    return 0;
}
