/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The ledger kept in a file across a full stop and start (ra_ledger_file.h):
 * the region copied under the lock and written behind a checksummed
 * header, and read back at start only when every check passes, so that a
 * torn, foreign or corrupt file costs its counters and never a start.
 */
#include <string.h>

#include "ra_ledger_file.h"
#include "ra_digest.h"
#include "ra_ledger_impl.h"

#define RA_FILE_MAGIC  "RASTATE1"
#define RA_FILE_ORDER  0x01020304u

typedef struct {
    char           magic[8];
    uint32_t       order;
    uint32_t       layout;
    uint64_t       region_size;
    int64_t        saved;
    unsigned char  sha256[RA_SHA256_LEN];
} ra_file_hdr_t;

_Static_assert(sizeof(ra_file_hdr_t) == RA_LEDGER_FILE_HEADER,
               "the state file's header is 64 bytes");

int
ra_ledger_file_write(const ra_ledger_t *l, const ra_host_t *h,
    const char *path, ra_buf_t *why)
{
    int             rc;
    size_t          size = ra_ledger_size(l->base);
    unsigned char  *buf;
    ra_file_hdr_t   fh;

    if (size == 0) {
        ra_buf_cstr(why, "the zone holds no ledger");
        return RA_ERROR;
    }
    buf = ra_alloc(&h->heap, RA_LEDGER_FILE_HEADER + size);
    if (buf == NULL) {
        ra_buf_printf(why, "out of memory for a copy of %zu bytes", size);
        return RA_ENOMEM;
    }
    /* the lock only for the copy: the disk is written without it */
    ra_ledger_lock(l);
    memcpy(buf + RA_LEDGER_FILE_HEADER, l->base, size);
    ra_ledger_unlock(l);

    memset(&fh, 0, sizeof(fh));
    memcpy(fh.magic, RA_FILE_MAGIC, sizeof(fh.magic));
    fh.order = RA_FILE_ORDER;
    fh.layout = RA_LEDGER_LAYOUT;
    fh.region_size = size;
    fh.saved = ra_host_now(h);
    if (ra_sha256(ra_str(buf + RA_LEDGER_FILE_HEADER, size), fh.sha256)
        != RA_OK)
    {
        ra_free(&h->heap, buf);
        ra_buf_cstr(why, "SHA-256 failed");
        return RA_ERROR;
    }
    memcpy(buf, &fh, sizeof(fh));
    rc = ra_file_replace(path, buf, RA_LEDGER_FILE_HEADER + size, why);
    ra_free(&h->heap, buf);
    return rc;
}

/* What is wrong with a file's bytes as a ledger of size bytes, or NULL;
 * fh is its header.  The checks go from the cheapest to the dearest. */
static const char *
ra_ledger_file_refuse(ra_str_t f, size_t file_size, size_t size,
    ra_file_hdr_t *fh, ra_buf_t *why)
{
    const char     *bad;
    unsigned char   sum[RA_SHA256_LEN];
    unsigned char  *body;
    ra_ledger_t     tl;

    if (f.len < RA_LEDGER_FILE_HEADER) {
        ra_buf_printf(why, "torn: %zu bytes, less than a header",
                      file_size);
        return "";
    }
    memcpy(fh, f.data, sizeof(*fh));
    if (memcmp(fh->magic, RA_FILE_MAGIC, sizeof(fh->magic)) != 0) {
        return "it is not a robots-audit state file";
    }
    if (fh->order != RA_FILE_ORDER) {
        return "it was written on a machine of another byte order";
    }
    if (fh->layout != RA_LEDGER_LAYOUT) {
        ra_buf_printf(why, "it was written by another version of "
                      "robots-audit (ledger layout %u, this one's %u)",
                      (unsigned) fh->layout, (unsigned) RA_LEDGER_LAYOUT);
        return "";
    }
    if (fh->region_size != size) {
        ra_buf_printf(why, "its ledger has %llu bytes and the zone %zu (a "
                      "ledger is not rebuilt into another size)",
                      (unsigned long long) fh->region_size, size);
        return "";
    }
    if (file_size != RA_LEDGER_FILE_HEADER + size) {
        ra_buf_printf(why, "torn: %zu bytes where its header says %zu",
                      file_size, (size_t) RA_LEDGER_FILE_HEADER + size);
        return "";
    }
    body = (unsigned char *) f.data + RA_LEDGER_FILE_HEADER;
    if (ra_sha256(ra_str(body, size), sum) != RA_OK
        || memcmp(sum, fh->sha256, sizeof(sum)) != 0)
    {
        return "corrupt: its SHA-256 does not match";
    }
    if (ra_ledger_check(body, size, &bad) != RA_OK) {
        ra_buf_printf(why, "corrupt: %s", bad);
        return "";
    }
    ra_ledger_open(&tl, body, NULL);
    bad = ra_ledger_verify(&tl);
    if (bad != NULL) {
        ra_buf_printf(why, "corrupt: %s", bad);
        return "";
    }
    return NULL;
}

int
ra_ledger_file_read(void *base, size_t size, const ra_host_t *h,
    const char *path, int64_t *saved, ra_buf_t *why)
{
    int             rc;
    size_t          file_size;
    ra_str_t        f;
    const char     *bad;
    ra_file_hdr_t   fh;

    rc = ra_host_read_file(h, path, RA_LEDGER_FILE_HEADER + size, &h->heap,
                           &f, &file_size, why);
    if (rc != RA_OK) {
        return rc;
    }
    bad = ra_ledger_file_refuse(f, file_size, size, &fh, why);
    if (bad == NULL) {
        memcpy(base, f.data + RA_LEDGER_FILE_HEADER, size);
        *saved = fh.saved;
    } else if (*bad != '\0') {
        ra_buf_cstr(why, bad);
    }
    ra_free(&h->heap, (void *) f.data);
    return bad == NULL ? RA_OK : RA_ERROR;
}

int
ra_ledger_file_save(const ra_ledger_t *l, const ra_host_t *h, void *where,
    ra_str_t zone, const char *path)
{
    int       rc;
    ra_buf_t  why;

    if (path == NULL) {
        return RA_OK;
    }
    ra_buf_init(&why, &h->heap, 0, 1024);
    rc = ra_ledger_file_write(l, h, path, &why);
    if (rc != RA_OK) {
        ra_logf(h, where, RA_LOG_ERR, RA_TAG_STATE_UNSAVED, "%.*s: cannot "
                "save the ledger to \"%s\": %.*s", (int) zone.len,
                (const char *) zone.data, path, (int) why.len,
                why.data != NULL ? (const char *) why.data : "");
    }
    ra_buf_release(&why);
    return rc;
}

int
ra_ledger_file_restore(ra_ledger_t *l, const ra_host_t *h, void *where,
    ra_str_t zone, const char *path)
{
    int          rc;
    int64_t      saved = 0;
    ra_buf_t     why;
    ra_totals_t  t;

    if (path == NULL) {
        return RA_EAGAIN;
    }
    ra_buf_init(&why, &h->heap, 0, 1024);
    rc = ra_ledger_file_read(l->base, ra_ledger_size(l->base), h, path,
                             &saved, &why);
    if (rc == RA_OK) {
        ra_ledger_totals(l, &t);
        ra_logf(h, where, RA_LOG_NOTICE, RA_TAG_STATE_RESTORED, "%.*s: "
                "restored the ledger from \"%s\", saved %lld s ago: %u "
                "sites, %llu requests", (int) zone.len,
                (const char *) zone.data, path,
                (long long) (ra_host_now(h) - saved) / 1000,
                (unsigned) t.sites, (unsigned long long) t.requests);
    } else if (rc != RA_EAGAIN) {
        ra_logf(h, where, RA_LOG_WARN, RA_TAG_STATE_REFUSED, "%.*s: the "
                "state file \"%s\" is refused (%.*s): a new ledger starts",
                (int) zone.len, (const char *) zone.data, path,
                (int) why.len,
                why.data != NULL ? (const char *) why.data : "");
    }
    ra_buf_release(&why);
    return rc;
}

int
ra_ledger_saver_init(ra_ledger_saver_t *sv, const ra_ledger_t *l,
    const ra_host_t *h, ra_str_t zone, const char *path, int64_t interval)
{
    sv->ledger = l;
    sv->host = h;
    sv->zone = zone;
    sv->path = path;
    sv->every = interval != 0 ? interval : RA_LEDGER_FILE_INTERVAL;
    sv->due = 0;
    return path != NULL;
}

int
ra_ledger_saver_save(const ra_ledger_saver_t *sv)
{
    return ra_ledger_file_save(sv->ledger, sv->host, NULL, sv->zone,
                               sv->path);
}

int
ra_ledger_saver_end(void *sv)
{
    (void) ra_ledger_saver_save(sv);
    return 0;
}

void
ra_ledger_saver_tick(ra_ledger_saver_t *sv, int64_t now)
{
    if (sv->path == NULL) {
        return;
    }
    if (sv->due != 0 && now >= sv->due) {
        (void) ra_ledger_saver_save(sv);
    }
    if (sv->due == 0 || now >= sv->due) {
        sv->due = now + sv->every;
    }
}
