/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Content codings undone (ra_decode.h): zlib for gzip and deflate,
 * libbrotlidec for br.
 */
#include <limits.h>
#include <string.h>

#define ZLIB_CONST
#include <zlib.h>
#include <brotli/decode.h>

#include "ra_decode.h"

#define RA_DECODE_FIRST  8192           /* first output allocation */

typedef struct {
    const char   *name;
    ra_coding_e   coding;
} ra_coding_def_t;

static const ra_coding_def_t  ra_codings[] = {
    { "identity", RA_CODING_IDENTITY },
    { "gzip",     RA_CODING_GZIP },
    { "x-gzip",   RA_CODING_GZIP },
    { "deflate",  RA_CODING_DEFLATE },
    { "br",       RA_CODING_BR },
};

/* per coding: what went wrong, as info->error says it */
static const char  *const ra_corrupt[] = {
    "", "corrupt gzip data", "corrupt deflate data", "corrupt br data"
};
static const char  *const ra_early[] = {
    "", "the gzip data ends early", "the deflate data ends early",
    "the br data ends early"
};


const char *
ra_coding_name(ra_coding_e c)
{
    switch (c) {
    case RA_CODING_IDENTITY:
        return "identity";
    case RA_CODING_GZIP:
        return "gzip";
    case RA_CODING_DEFLATE:
        return "deflate";
    case RA_CODING_BR:
        return "br";
    default:
        return "unknown";
    }
}

static ra_coding_e
ra_coding_by_name(ra_str_t name)
{
    size_t  i;

    for (i = 0; i < sizeof(ra_codings) / sizeof(ra_codings[0]); i++) {
        if (ra_strcaseeq(name, ra_str(ra_codings[i].name,
                                      strlen(ra_codings[i].name))))
        {
            return ra_codings[i].coding;
        }
    }
    return RA_CODING_UNKNOWN;
}

int
ra_codings_parse(ra_str_t value, ra_codings_t *out)
{
    ra_coding_e           c;
    const unsigned char  *p, *end, *start, *e;

    memset(out, 0, sizeof(*out));
    p = value.data;
    end = p != NULL ? p + value.len : p;

    while (p < end) {
        while (p < end && (*p == ' ' || *p == '\t' || *p == ',')) {
            p++;
        }
        for (start = p; p < end && *p != ','; p++) {
            /* void */
        }
        for (e = p; e > start && (e[-1] == ' ' || e[-1] == '\t'); e--) {
            /* void */
        }
        if (e == start) {
            continue;
        }
        c = ra_coding_by_name(ra_str(start, (size_t) (e - start)));
        if (c == RA_CODING_IDENTITY) {
            continue;
        }
        if (c == RA_CODING_UNKNOWN || out->n == RA_DECODE_LAYERS) {
            out->bad = ra_str(start, (size_t) (e - start));
            return RA_ERROR;
        }
        out->codings[out->n++] = c;
    }
    return RA_OK;
}

int
ra_coding_is_identity(ra_str_t value)
{
    ra_codings_t  cs;

    return ra_codings_parse(value, &cs) == RA_OK && cs.n == 0;
}


/* ---- one layer -------------------------------------------------------- */

typedef struct {
    ra_coding_e        coding;
    ra_str_t           in;
    int                complete;
    size_t             max;
    const ra_alloc_t  *scratch;
    ra_buf_t          *out;
    ra_decode_info_t  *info;
} ra_layer_t;

/* Room for the decoder to write into, growing out by doubling: 0 when out
 * is at max (capped) or out of memory (out->failed). */
static size_t
ra_layer_room(ra_layer_t *ly)
{
    size_t     want;
    ra_buf_t  *b = ly->out;

    if (b->len >= ly->max) {
        return 0;
    }
    if (b->cap > b->len) {
        return b->cap - b->len;
    }
    want = b->len ? b->len : RA_DECODE_FIRST;
    if (want > ly->max - b->len) {
        want = ly->max - b->len;
    }
    if (!ra_buf_reserve(b, want)) {
        return 0;
    }
    return b->cap - b->len;
}

/* the output stops at max: with more to come, it is a prefix */
static int
ra_layer_full(ra_layer_t *ly)
{
    if (ly->out->failed) {
        return RA_ENOMEM;
    }
    ly->info->capped = 1;
    ly->info->truncated = 1;
    return RA_OK;
}

/* the input ended inside the stream */
static int
ra_layer_early(ra_layer_t *ly)
{
    if (ly->complete) {
        ly->info->error = ra_early[ly->coding];
        return RA_ERROR;
    }
    ly->info->truncated = 1;
    return RA_OK;
}

static voidpf
ra_zalloc(voidpf opaque, uInt items, uInt size)
{
    if (size != 0 && items > SIZE_MAX / size) {
        return Z_NULL;
    }
    return ra_alloc(opaque, (size_t) items * size);
}

static void
ra_zfree(voidpf opaque, voidpf p)
{
    ra_free(opaque, p);
}

/* A zlib header (RFC 1950 2.2): method 8, a window of at most 32 KiB, the
 * check bits; else "deflate" is a raw stream. */
static int
ra_zlib_wrapped(ra_str_t in)
{
    return in.len >= 2 && (in.data[0] & 0x0f) == 8 && (in.data[0] >> 4) <= 7
           && ((unsigned) in.data[0] * 256 + in.data[1]) % 31 == 0;
}

static int
ra_layer_zlib(ra_layer_t *ly)
{
    int        zrc, rc;
    size_t     room;
    z_stream   z;

    memset(&z, 0, sizeof(z));
    z.zalloc = ra_zalloc;
    z.zfree = ra_zfree;
    z.opaque = (voidpf) ly->scratch;

    zrc = inflateInit2(&z, ly->coding == RA_CODING_GZIP ? 16 + MAX_WBITS
                           : ra_zlib_wrapped(ly->in) ? MAX_WBITS
                           : -MAX_WBITS);
    if (zrc != Z_OK) {
        return RA_ENOMEM;
    }
    /* the input is a capture's: far below 4 GiB */
    z.next_in = ly->in.data;
    z.avail_in = (uInt) (ly->in.len < UINT_MAX ? ly->in.len : UINT_MAX);

    for ( ;; ) {
        room = ra_layer_room(ly);
        if (room == 0) {
            rc = ra_layer_full(ly);
            break;
        }
        z.next_out = ly->out->data + ly->out->len;
        z.avail_out = (uInt) room;
        zrc = inflate(&z, Z_NO_FLUSH);
        ly->out->len += room - z.avail_out;

        if (zrc == Z_STREAM_END) {
            /* another gzip member follows: the same body goes on */
            if (ly->coding == RA_CODING_GZIP && z.avail_in >= 2
                && z.next_in[0] == 0x1f && z.next_in[1] == 0x8b
                && inflateReset(&z) == Z_OK)
            {
                continue;
            }
            rc = RA_OK;
            break;
        }
        if (zrc == Z_OK) {
            continue;
        }
        if (zrc == Z_BUF_ERROR && z.avail_out == 0) {
            continue;                   /* more room, then more output */
        }
        if (zrc == Z_BUF_ERROR) {
            rc = ra_layer_early(ly);    /* every byte read, no end */
            break;
        }
        if (zrc == Z_MEM_ERROR) {
            rc = RA_ENOMEM;
            break;
        }
        ly->info->error = ra_corrupt[ly->coding];
        rc = RA_ERROR;
        break;
    }
    (void) inflateEnd(&z);
    return rc;
}

static void *
ra_br_alloc(void *opaque, size_t size)
{
    return ra_alloc(opaque, size);
}

static void
ra_br_free(void *opaque, void *p)
{
    ra_free(opaque, p);
}

static int
ra_layer_br(ra_layer_t *ly)
{
    int                          rc;
    size_t                       room, avail_in, avail_out;
    uint8_t                     *next_out;
    const uint8_t               *next_in;
    BrotliDecoderState          *s;
    BrotliDecoderResult          r;
    BrotliDecoderErrorCode       e;

    s = BrotliDecoderCreateInstance(ra_br_alloc, ra_br_free,
                                    (void *) ly->scratch);
    if (s == NULL) {
        return RA_ENOMEM;
    }
    next_in = ly->in.data;
    avail_in = ly->in.len;

    for ( ;; ) {
        room = ra_layer_room(ly);
        if (room == 0) {
            rc = ra_layer_full(ly);
            break;
        }
        next_out = ly->out->data + ly->out->len;
        avail_out = room;
        r = BrotliDecoderDecompressStream(s, &avail_in, &next_in, &avail_out,
                                          &next_out, NULL);
        ly->out->len += room - avail_out;

        if (r == BROTLI_DECODER_RESULT_SUCCESS) {
            rc = RA_OK;                 /* bytes after the end: ignored */
            break;
        }
        if (r == BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT) {
            continue;
        }
        if (r == BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT) {
            rc = ra_layer_early(ly);
            break;
        }
        e = BrotliDecoderGetErrorCode(s);
        if (e <= BROTLI_DECODER_ERROR_ALLOC_CONTEXT_MODES
            && e >= BROTLI_DECODER_ERROR_ALLOC_BLOCK_TYPE_TREES)
        {
            rc = RA_ENOMEM;
            break;
        }
        ly->info->error = ra_corrupt[ly->coding];
        rc = RA_ERROR;
        break;
    }
    BrotliDecoderDestroyInstance(s);
    return rc;
}


/* ---- the codings of a header ------------------------------------------ */

int
ra_decode(ra_str_t value, ra_str_t in, int complete, size_t max,
    const ra_alloc_t *a, const ra_alloc_t *scratch, ra_buf_t *out,
    ra_decode_info_t *info)
{
    int           rc, k;
    ra_buf_t      step, prev;
    ra_layer_t    ly;
    ra_codings_t  cs;

    memset(info, 0, sizeof(*info));
    ra_buf_init(out, a, 0, max);

    if (ra_codings_parse(value, &cs) != RA_OK) {
        info->error = ra_coding_by_name(cs.bad) == RA_CODING_UNKNOWN
                      ? "unknown content coding" : "too many content codings";
        return RA_ERROR;
    }
    if (in.len == 0 || in.data == NULL) {
        return RA_OK;
    }
    if (cs.n == 0) {
        if (in.len > max) {
            in.len = max;
            info->truncated = 1;
            info->capped = 1;
        }
        ra_buf_add(out, in.data, in.len);
        return out->failed ? RA_ENOMEM : RA_OK;
    }

    ra_buf_init(&prev, a, 0, max);
    rc = RA_OK;
    /* the last coding applied is undone first */
    for (k = (int) cs.n - 1; k >= 0; k--) {
        ra_buf_init(&step, a, 0, max);
        memset(&ly, 0, sizeof(ly));
        ly.coding = cs.codings[k];
        ly.in = in;
        ly.complete = complete && !info->truncated;
        ly.max = max;
        ly.scratch = scratch;
        ly.out = &step;
        ly.info = info;

        rc = ly.coding == RA_CODING_BR ? ra_layer_br(&ly)
                                       : ra_layer_zlib(&ly);
        ra_buf_release(&prev);
        if (rc != RA_OK) {
            ra_buf_release(&step);
            return rc;
        }
        prev = step;
        in = ra_str(prev.data, prev.len);
        if (in.len == 0) {
            break;                      /* nothing left to undo */
        }
    }
    *out = prev;
    return RA_OK;
}
