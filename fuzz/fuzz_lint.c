/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Lint with random HTTP facts: the first bytes give the status, the
 * Content-Type (absent, unknown or a span), the size, truncation, the
 * redirects and max_per_code; the rest is the body.  Every message is
 * printable ASCII, every finding is a known code with its fixed severity
 * and a place inside the file, findings are sorted and bounded, and the
 * compiler form of each stays printable.
 */
#include "fuzz.h"
#include "ra_lint.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in_t                   in = { data, size };
    ra_lint_http_t            http;
    ra_lint_t                 out;
    ra_str_t                  body;
    ra_buf_t                  b;
    uint32_t                  i, kept[RA_LINT_NCODES], per;
    unsigned                  flags, total;
    const ra_lint_finding_t  *f, *prev;
    static const ra_str_t     file = ra_string("f\x1b<x>");

    memset(&http, 0, sizeof(http));
    flags = fz_byte(&in);
    http.status = (int) fz_u16(&in);
    if (flags & 0x01) {
        http.status = -http.status;
    }
    switch ((flags >> 1) & 3) {
    case 0:
        break;                                  /* unknown */
    case 1:
        http.content_type = ra_str("", 0);      /* absent */
        break;
    default:
        http.content_type = fz_span(&in, 255);
        if (http.content_type.data == NULL) {
            http.content_type.data = (const unsigned char *) "";
        }
    }
    http.truncated = (flags >> 3) & 1;
    http.redirects = fz_byte(&in);
    if (flags & 0x10) {
        http.redirects |= 0x80000000u;
    }
    http.size = (size_t) fz_u16(&in) << ((flags >> 5) & 7) * 4;
    http.max_per_code = fz_byte(&in) & 0x1f;
    body = ra_str(in.p, in.left);

    if (ra_lint(body, &http, &ra_malloc_allocator, &out) != RA_OK) {
        FZ_CHECK(0);
    }
    per = http.max_per_code ? http.max_per_code : RA_LINT_PER_CODE;
    memset(kept, 0, sizeof(kept));
    total = 0;
    prev = NULL;
    FZ_CHECK(out.nfindings <= (uint64_t) per * RA_LINT_NCODES);
    ra_buf_init(&b, &ra_malloc_allocator, 0, 0);
    for (i = 0; i < out.nfindings; i++) {
        f = &out.findings[i];
        FZ_CHECK(f->code < RA_LINT_NCODES);
        FZ_CHECK(f->severity == ra_lint_code_severity(f->code));
        FZ_CHECK(++kept[f->code] <= per);
        FZ_CHECK(f->message.len > 0);
        FZ_CHECK(fz_printable(f->message.data, f->message.len));
        FZ_CHECK(f->line <= out.summary.lines);
        FZ_CHECK(f->line != 0 || f->column == 0);
        FZ_CHECK(f->line == 0 || f->column >= 1);
        /* a line longer than RA_MAX_LINE_LEN still has its bytes
         * checked (encoding, control bytes): columns go to its end */
        FZ_CHECK(f->column <= body.len + 1);
        if (prev != NULL) {
            FZ_CHECK(prev->line < f->line
                     || (prev->line == f->line && prev->column <= f->column));
        }
        prev = f;
        b.len = 0;
        ra_lint_format_finding(&b, file, f);
        FZ_CHECK(!b.failed && fz_printable(b.data, b.len));
        total++;
    }
    for (i = 0; i < RA_LINT_NCODES; i++) {
        total += out.suppressed[i];
        FZ_CHECK(out.suppressed[i] == 0 || kept[i] == per);
    }
    FZ_CHECK(total == out.summary.errors + out.summary.warnings
                      + out.summary.infos);
    FZ_CHECK(out.summary.parsed <= RA_ROBOTS_MAX);
    FZ_CHECK(out.summary.rules == out.summary.allows + out.summary.disallows);
    b.len = 0;
    ra_lint_format_summary(&b, file, &out.summary);
    FZ_CHECK(!b.failed && fz_printable(b.data, b.len));
    ra_buf_release(&b);
    ra_lint_free(&out, &ra_malloc_allocator);
    return 0;
}
