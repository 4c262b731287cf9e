/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The sitemap XML reader: one forward pass over the document with a
 * bounded stack of open element names, <loc> and <lastmod> text copied
 * into fixed buffers with the predefined and numeric entities undone.
 * It reads a whole document at once (ra_sitemap_parse()) or one piece
 * after another (ra_sm_parser_t): then a construct that a piece cuts (a
 * tag, a comment, an entity) waits in a bounded window for the rest, so
 * that an answer of any size is read in constant memory as it is served.
 * The lint of what it reads is in ra_sitemap_lint.c.
 */
#include "ra_sitemap.h"

#define RA_SM_LASTMOD_MAX  64u
#define RA_SM_NAME_MAX     64u          /* bytes of an element name kept */
#define RA_SM_ENTITY_MAX   16u          /* "&#x10FFFF;" and the like */

typedef struct {
    const unsigned char  *start, *p, *end;
    const unsigned char  *lp;           /* newlines counted up to here */
    uint32_t              line;
    /* open elements' names, copied: a piece's bytes are gone when the
     * next one comes (compared by length and their first bytes) */
    unsigned char         names[RA_SM_DEPTH][RA_SM_NAME_MAX];
    size_t                name_len[RA_SM_DEPTH];
    uint32_t              depth;
    unsigned              more:1;       /* more bytes follow this piece */
    unsigned              dead:1;       /* a fatal error: no more reading */
    unsigned              begun:1;      /* the byte order mark was looked
                                           for */
    int                   field;        /* 1 loc, 2 lastmod, 0 none */
    unsigned char         loc[RA_SM_LOC_MAX];
    size_t                nloc;
    unsigned              loc_cut:1;
    unsigned              has_loc:1;
    unsigned              roots;
    uint32_t              loc_line;
    unsigned char         lastmod[RA_SM_LASTMOD_MAX];
    size_t                nlastmod;
    ra_sm_entry_cb        entry;
    ra_sm_finding_cb      finding;
    void                 *ctx;
    ra_sm_summary_t      *sum;
} ra_smp_t;

struct ra_sm_parser_s {
    ra_smp_t              s;
    size_t                n;            /* bytes waiting in win */
    unsigned char         win[RA_SM_WINDOW];
};

static const char *const  ra_sm_codes[RA_SMF_NCODES] = {
    "disallowed", "other-host", "too-many-urls", "too-large", "malformed",
    "lastmod", "bad-loc", "undecodable"
};

const char *
ra_sitemap_code_name(ra_sm_code_e code)
{
    return (unsigned) code < RA_SMF_NCODES ? ra_sm_codes[code] : "unknown";
}

/* The line of p (p never moves back, so counting is linear overall). */
static uint32_t
ra_smp_line(ra_smp_t *s, const unsigned char *p)
{
    const unsigned char  *q;

    while (s->lp < p) {
        q = memchr(s->lp, '\n', (size_t) (p - s->lp));
        if (q == NULL) {
            s->lp = p;
            break;
        }
        s->line++;
        s->lp = q + 1;
    }
    return s->line;
}

static void
ra_smp_error(ra_smp_t *s, const unsigned char *at, const char *why)
{
    ra_sm_finding_t  f;

    memset(&f, 0, sizeof(f));
    f.code = RA_SMF_MALFORMED;
    f.line = ra_smp_line(s, at);
    f.detail = ra_str_z(why);
    s->sum->counts[RA_SMF_MALFORMED]++;
    if (s->finding != NULL) {
        s->finding(s->ctx, &f);
    }
}

/* After the first w at or after p, NULL when there is none. */
static const unsigned char *
ra_smp_past(const ra_smp_t *s, const unsigned char *p, const char *w)
{
    size_t  n = strlen(w);

    while (p < s->end) {
        p = memchr(p, w[0], (size_t) (s->end - p));
        if (p == NULL || (size_t) (s->end - p) < n) {
            return NULL;
        }
        if (memcmp(p, w, n) == 0) {
            return p + n;
        }
        p++;
    }
    return NULL;
}

static ra_str_t
ra_smp_local(ra_str_t qname)
{
    const unsigned char  *c = memchr(qname.data, ':', qname.len);

    if (c == NULL) {
        return qname;
    }
    return ra_str(c + 1, (size_t) (qname.data + qname.len - c - 1));
}

/* The name of the open element at depth d, as kept. */
static ra_str_t
ra_smp_name(const ra_smp_t *s, uint32_t d)
{
    return ra_str(s->names[d], s->name_len[d] < RA_SM_NAME_MAX
                               ? s->name_len[d] : RA_SM_NAME_MAX);
}

static int
ra_smp_is(ra_str_t s, const char *w)
{
    size_t  n = strlen(w);

    return s.len == n && memcmp(s.data, w, n) == 0;
}

static void
ra_smp_put(ra_smp_t *s, const unsigned char *p, size_t n)
{
    size_t  room;

    if (s->field == 1) {
        room = RA_SM_LOC_MAX - s->nloc;
        if (n > room) {
            n = room;
            s->loc_cut = 1;
        }
        memcpy(s->loc + s->nloc, p, n);
        s->nloc += n;
    } else if (s->field == 2) {
        room = RA_SM_LASTMOD_MAX - s->nlastmod;
        memcpy(s->lastmod + s->nlastmod, p, n > room ? room : n);
        s->nlastmod += n > room ? room : n;
    }
}

/* An entity at p ('&'); returns what follows it, NULL when it is none
 * (a malformed document). */
static const unsigned char *
ra_smp_entity(ra_smp_t *s, const unsigned char *p, const unsigned char *end)
{
    static const struct {
        const char  *name;
        char         ch;
    } named[] = {
        { "amp;", '&' }, { "lt;", '<' }, { "gt;", '>' }, { "quot;", '"' },
        { "apos;", '\'' }
    };
    size_t         i, n, k;
    uint32_t       cp = 0;
    unsigned char  u[4];

    p++;
    for (i = 0; i < sizeof(named) / sizeof(named[0]); i++) {
        n = strlen(named[i].name);
        if ((size_t) (end - p) >= n && memcmp(p, named[i].name, n) == 0) {
            ra_smp_put(s, (const unsigned char *) &named[i].ch, 1);
            return p + n;
        }
    }
    if (p >= end || *p != '#') {
        return NULL;
    }
    p++;
    if (p < end && *p == 'x') {
        for (p++, k = 0; p < end && ra_isxdigit(*p) && k < 8; p++, k++) {
            cp = cp * 16 + (uint32_t) ra_hexval(*p);
        }
    } else {
        for (k = 0; p < end && ra_isdigit(*p) && k < 8; p++, k++) {
            cp = cp * 10 + (uint32_t) (*p - '0');
        }
    }
    if (k == 0 || p >= end || *p != ';' || cp == 0 || cp > 0x10ffff
        || (cp >= 0xd800 && cp <= 0xdfff))
    {
        return NULL;
    }
    if (cp < 0x80) {
        u[0] = (unsigned char) cp;
        n = 1;
    } else if (cp < 0x800) {
        u[0] = (unsigned char) (0xc0 | (cp >> 6));
        u[1] = (unsigned char) (0x80 | (cp & 0x3f));
        n = 2;
    } else if (cp < 0x10000) {
        u[0] = (unsigned char) (0xe0 | (cp >> 12));
        u[1] = (unsigned char) (0x80 | ((cp >> 6) & 0x3f));
        u[2] = (unsigned char) (0x80 | (cp & 0x3f));
        n = 3;
    } else {
        u[0] = (unsigned char) (0xf0 | (cp >> 18));
        u[1] = (unsigned char) (0x80 | ((cp >> 12) & 0x3f));
        u[2] = (unsigned char) (0x80 | ((cp >> 6) & 0x3f));
        u[3] = (unsigned char) (0x80 | (cp & 0x3f));
        n = 4;
    }
    ra_smp_put(s, u, n);
    return p + 1;
}

/* Text between tags, [p, end): kept in a field, else only white space is
 * allowed outside the root.  0 on a fatal error. */
static int
ra_smp_text(ra_smp_t *s, const unsigned char *p, const unsigned char *end)
{
    const unsigned char  *amp;

    if (s->depth == 0) {
        for ( /* void */ ; p < end; p++) {
            if (!ra_isspace(*p)) {
                ra_smp_error(s, p, "text outside the root element");
                return 0;
            }
        }
        return 1;
    }
    while (p < end) {
        amp = memchr(p, '&', (size_t) (end - p));
        if (amp == NULL) {
            ra_smp_put(s, p, (size_t) (end - p));
            return 1;
        }
        ra_smp_put(s, p, (size_t) (amp - p));
        p = ra_smp_entity(s, amp, end);
        if (p == NULL) {
            ra_smp_error(s, amp, "an '&' that starts no entity");
            return 0;
        }
    }
    return 1;
}

/* An element opens at depth (after the push). */
static int
ra_smp_open(ra_smp_t *s, ra_str_t qname, const unsigned char *at)
{
    ra_str_t  local = ra_smp_local(qname);

    if (s->depth == RA_SM_DEPTH) {
        ra_smp_error(s, at, "elements nested too deep");
        return 0;
    }
    memcpy(s->names[s->depth], qname.data,
           qname.len < RA_SM_NAME_MAX ? qname.len : RA_SM_NAME_MAX);
    s->name_len[s->depth++] = qname.len;
    if (s->depth == 1) {
        if (s->roots++ != 0) {
            ra_smp_error(s, at, "a second root element");
            return 0;
        }
        if (ra_smp_is(local, "urlset")) {
            s->sum->kind = RA_SM_URLSET;
        } else if (ra_smp_is(local, "sitemapindex")) {
            s->sum->kind = RA_SM_INDEX;
        } else {
            ra_smp_error(s, at, "the root is neither <urlset> nor "
                         "<sitemapindex>");
            return 0;
        }
    } else if (s->depth == 2) {
        s->nloc = s->nlastmod = 0;
        s->loc_cut = s->has_loc = 0;
    } else if (s->depth == 3) {
        if (ra_smp_is(local, "loc")) {
            s->field = 1;
            s->nloc = 0;
            s->has_loc = 1;
            s->loc_line = ra_smp_line(s, at);
        } else if (ra_smp_is(local, "lastmod")) {
            s->field = 2;
            s->nlastmod = 0;
        }
    }
    return 1;
}

static void
ra_smp_entry(ra_smp_t *s, const unsigned char *at)
{
    ra_sm_entry_t  e;
    ra_str_t       local = ra_smp_local(ra_smp_name(s, 1));

    if (!(s->sum->kind == RA_SM_URLSET ? ra_smp_is(local, "url")
                                       : ra_smp_is(local, "sitemap")))
    {
        return;                 /* an extension's element */
    }
    if (!s->has_loc) {
        ra_smp_error(s, at, s->sum->kind == RA_SM_URLSET
                            ? "a <url> without <loc>"
                            : "a <sitemap> without <loc>");
        return;
    }
    s->sum->entries++;
    if (s->entry != NULL) {
        e.loc = ra_space_trim(ra_str(s->loc, s->nloc));
        e.lastmod = ra_space_trim(ra_str(s->lastmod, s->nlastmod));
        e.line = s->loc_line;
        e.loc_cut = s->loc_cut;
        s->entry(s->ctx, &e);
    }
}

/* A tag at lt ('<'); returns what follows it, NULL on a fatal error. */
static const unsigned char *
ra_smp_tag(ra_smp_t *s, const unsigned char *lt)
{
    const unsigned char  *p = lt + 1, *n, *q;
    ra_str_t              qname;
    int                   close = 0, empty = 0;

    if (p < s->end && *p == '/') {
        close = 1;
        p++;
    }
    n = p;
    while (p < s->end && !ra_isspace(*p) && *p != '>' && *p != '/') {
        p++;
    }
    qname = ra_str(n, (size_t) (p - n));
    if (qname.len == 0) {
        ra_smp_error(s, lt, "a '<' that starts no tag");
        return NULL;
    }
    /* attributes: quoted values may hold '>' */
    while (p < s->end && *p != '>') {
        if (*p == '"' || *p == '\'') {
            q = memchr(p + 1, *p, (size_t) (s->end - p - 1));
            if (q == NULL) {
                break;
            }
            p = q + 1;
            continue;
        }
        empty = *p == '/';
        p++;
    }
    if (p >= s->end) {
        ra_smp_error(s, lt, "a tag that does not end");
        return NULL;
    }
    if (close) {
        if (s->depth == 0 || qname.len != s->name_len[s->depth - 1]
            || memcmp(qname.data, s->names[s->depth - 1],
                      ra_smp_name(s, s->depth - 1).len))
        {
            ra_smp_error(s, lt, "a closing tag that closes no open element");
            return NULL;
        }
        if (s->depth == 3) {
            s->field = 0;
        } else if (s->depth == 2) {
            ra_smp_entry(s, lt);
        }
        s->depth--;
        return p + 1;
    }
    if (!ra_smp_open(s, qname, lt)) {
        return NULL;
    }
    if (empty) {
        s->field = 0;
        if (s->depth == 2) {
            ra_smp_entry(s, lt);
        }
        s->depth--;
    }
    return p + 1;
}

/* Is the construct at lt ('<') whole in this piece?  Asked only while
 * more bytes follow: else what is cut is an error, said where it is. */
static int
ra_smp_whole(ra_smp_t *s, const unsigned char *lt)
{
    const unsigned char  *p, *q;
    size_t                left = (size_t) (s->end - lt);

    if (left < 9) {
        /* too short to tell a comment or CDATA section: wait */
        return left >= 2 && lt[1] != '!' && memchr(lt, '>', left) != NULL;
    }
    if (memcmp(lt, "<!--", 4) == 0) {
        return ra_smp_past(s, lt + 4, "-->") != NULL;
    }
    if (memcmp(lt, "<![CDATA[", 9) == 0) {
        return ra_smp_past(s, lt + 9, "]]>") != NULL;
    }
    if (lt[1] == '?') {
        return ra_smp_past(s, lt + 2, "?>") != NULL;
    }
    /* a tag or a declaration: a '>' outside quoted values */
    for (p = lt + 1; p < s->end && *p != '>'; p++) {
        if (*p == '"' || *p == '\'') {
            q = memchr(p + 1, *p, (size_t) (s->end - p - 1));
            if (q == NULL) {
                return 0;
            }
            p = q;
        }
    }
    return p < s->end;
}

/* A fatal error: nothing more is read, the newlines to the end counted. */
static size_t
ra_smp_dead(ra_smp_t *s, size_t len)
{
    s->dead = 1;
    (void) ra_smp_line(s, s->end);
    return len;
}

/* The last '&' in [p, end), NULL when there is none. */
static const unsigned char *
ra_smp_last_amp(const unsigned char *p, const unsigned char *end)
{
    while (end > p) {
        if (*--end == '&') {
            return end;
        }
    }
    return NULL;
}

/*
 * Reads [data, data + len) on from the state s is in: everything when no
 * more bytes follow (s->more 0), else up to the first construct the piece
 * cuts.  Returns the bytes read; the rest must come again, first in the
 * next piece.
 */
static size_t
ra_smp_run(ra_smp_t *s, const unsigned char *data, size_t len)
{
    const unsigned char  *lt, *p, *amp;

    s->start = s->p = s->lp = data;
    s->end = data + len;
    if (!s->begun) {
        if (len < 3 && s->more) {
            return 0;
        }
        s->begun = 1;
        /* a UTF-8 byte order mark */
        if (len >= 3 && memcmp(data, "\xef\xbb\xbf", 3) == 0) {
            s->p += 3;
            s->lp = s->p;
        }
    }
    p = s->p;
    while (p < s->end) {
        lt = memchr(p, '<', (size_t) (s->end - p));
        if (lt == NULL && s->more) {
            /* an entity the piece may cut waits for the rest */
            amp = ra_smp_last_amp(p, s->end);
            lt = amp != NULL && (size_t) (s->end - amp) < RA_SM_ENTITY_MAX
                 ? amp : s->end;
            if (!ra_smp_text(s, p, lt)) {
                return ra_smp_dead(s, len);
            }
            p = lt;
            break;
        }
        if (!ra_smp_text(s, p, lt != NULL ? lt : s->end)) {
            return ra_smp_dead(s, len);
        }
        if (lt == NULL) {
            p = s->end;
            break;
        }
        if (s->more && !ra_smp_whole(s, lt)) {
            p = lt;
            break;
        }
        if ((size_t) (s->end - lt) >= 4 && memcmp(lt, "<!--", 4) == 0) {
            p = ra_smp_past(s, lt + 4, "-->");
            if (p == NULL) {
                ra_smp_error(s, lt, "a comment that does not end");
                return ra_smp_dead(s, len);
            }
        } else if ((size_t) (s->end - lt) >= 9
                   && memcmp(lt, "<![CDATA[", 9) == 0)
        {
            p = ra_smp_past(s, lt + 9, "]]>");
            if (p == NULL || s->depth == 0) {
                ra_smp_error(s, lt, "a CDATA section out of place or "
                             "without end");
                return ra_smp_dead(s, len);
            }
            ra_smp_put(s, lt + 9, (size_t) (p - 3 - lt - 9));
        } else if ((size_t) (s->end - lt) >= 2 && lt[1] == '?') {
            p = ra_smp_past(s, lt + 2, "?>");
            if (p == NULL) {
                ra_smp_error(s, lt, "a processing instruction that does "
                             "not end");
                return ra_smp_dead(s, len);
            }
        } else if ((size_t) (s->end - lt) >= 2 && lt[1] == '!') {
            /* <!DOCTYPE ...>: no internal subset is read */
            p = memchr(lt, '>', (size_t) (s->end - lt));
            if (p == NULL || s->depth != 0) {
                ra_smp_error(s, lt, "a declaration out of place or "
                             "without end");
                return ra_smp_dead(s, len);
            }
            p++;
        } else {
            p = ra_smp_tag(s, lt);
            if (p == NULL) {
                return ra_smp_dead(s, len);
            }
        }
    }
    (void) ra_smp_line(s, p);
    return (size_t) (p - data);
}

static void
ra_smp_init(ra_smp_t *s, ra_sm_entry_cb entry, ra_sm_finding_cb finding,
    void *ctx, ra_sm_summary_t *sum)
{
    memset(s, 0, sizeof(*s));
    s->line = 1;
    s->entry = entry;
    s->finding = finding;
    s->ctx = ctx;
    s->sum = sum;
    sum->kind = RA_SM_UNKNOWN;
    sum->entries = 0;
    sum->bytes = 0;
    sum->complete = 0;
}

/* The end of the document: what is still open is an error. */
static void
ra_smp_finish(ra_smp_t *s)
{
    if (s->dead) {
        /* void */
    } else if (s->depth != 0) {
        ra_smp_error(s, s->end, "the document ends inside an element");
    } else if (s->roots == 0) {
        ra_smp_error(s, s->end, "no <urlset> or <sitemapindex>");
    } else {
        s->sum->complete = 1;
    }
    s->sum->lines = s->line;
}

/* The newlines of bytes no longer read (after a fatal error). */
static void
ra_smp_count(ra_smp_t *s, const unsigned char *p, size_t n)
{
    s->lp = s->start = p;
    s->end = p + n;
    (void) ra_smp_line(s, s->end);
}

void
ra_sitemap_parse(ra_str_t xml, ra_sm_entry_cb entry,
    ra_sm_finding_cb finding, void *ctx, ra_sm_summary_t *sum)
{
    ra_smp_t  s;

    ra_smp_init(&s, entry, finding, ctx, sum);
    sum->bytes = xml.len;
    (void) ra_smp_run(&s, xml.data, xml.len);
    ra_smp_finish(&s);
}

size_t
ra_sm_parser_size(void)
{
    return sizeof(ra_sm_parser_t);
}

void
ra_sm_parser_init(ra_sm_parser_t *p, ra_sm_entry_cb entry,
    ra_sm_finding_cb finding, void *ctx, ra_sm_summary_t *sum)
{
    ra_smp_init(&p->s, entry, finding, ctx, sum);
    p->n = 0;
}

void
ra_sm_parser_feed(ra_sm_parser_t *p, const void *data, size_t n)
{
    size_t                k, used;
    const unsigned char  *d = data;

    p->s.sum->bytes += n;
    while (n > 0) {
        if (p->s.dead) {
            ra_smp_count(&p->s, d, n);
            return;
        }
        k = n < RA_SM_WINDOW - p->n ? n : RA_SM_WINDOW - p->n;
        memcpy(p->win + p->n, d, k);
        p->n += k;
        d += k;
        n -= k;
        p->s.more = 1;
        used = ra_smp_run(&p->s, p->win, p->n);
        if (p->s.dead) {
            p->n = 0;
            continue;
        }
        memmove(p->win, p->win + used, p->n - used);
        p->n -= used;
        if (p->n == RA_SM_WINDOW) {
            p->s.start = p->s.lp = p->win;
            p->s.end = p->win + p->n;
            ra_smp_error(&p->s, p->win, "a tag, comment or CDATA section "
                         "longer than 32 KiB");
            (void) ra_smp_dead(&p->s, p->n);
            p->n = 0;
        }
    }
}

void
ra_sm_parser_stop(ra_sm_parser_t *p)
{
    /* what was read is counted: no finding names a line past it */
    p->s.dead = 1;
    p->n = 0;
    p->s.sum->lines = p->s.line;
}

void
ra_sm_parser_end(ra_sm_parser_t *p)
{
    if (!p->s.dead) {
        p->s.more = 0;
        (void) ra_smp_run(&p->s, p->win, p->n);
    }
    p->n = 0;
    ra_smp_finish(&p->s);
}
