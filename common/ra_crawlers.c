/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The crawler table: its text format (data/crawlers.txt, which the build
 * also embeds as bytes), the merging of its files, and the queries on the
 * merged table.  Compiling it into the automaton is ra_crawlers_ac.c's,
 * and identification ra_crawlers_identify.c's.
 *
 * The loader reads the text format in two passes over each entry
 * (validate and count, then fill), so every array is allocated once at its
 * final size: the caller's allocator may be a pool that never frees.
 */
#include "ra_crawlers_impl.h"
#include "ra_origin.h"

extern const unsigned char  ra_crawlers_builtin_data[];
extern const size_t         ra_crawlers_builtin_len;

static const char  *ra_category_names[RA_CAT_MAX] = {
    "search", "ai-training", "ai-search", "ai-user", "seo",
    "social-preview", "feed", "monitoring", "archive", "tool", "academic",
    "security-scanner",
};

static const struct {
    const char  *name;
    unsigned     flag;
} ra_flag_names[] = {
    { "crawl-delay", RA_CRAWLER_CRAWL_DELAY },
    { "ignores-star", RA_CRAWLER_IGNORES_STAR },
    { "user-triggered", RA_CRAWLER_USER_TRIGGERED },
    { "token-only", RA_CRAWLER_TOKEN_ONLY },
    { "policy", RA_CRAWLER_POLICY | RA_CRAWLER_TOKEN_ONLY },
    { "library", RA_CRAWLER_LIBRARY },
    { "disabled", RA_FLAG_DISABLED },
};

const char *
ra_crawler_category_name(unsigned category)
{
    return category < RA_CAT_MAX ? ra_category_names[category] : "unknown";
}

const char *
ra_crawler_flag_name(size_t i, unsigned *bits)
{
    if (i >= RA_NELTS(ra_flag_names)) {
        return NULL;
    }
    *bits = ra_flag_names[i].flag;
    return ra_flag_names[i].name;
}

unsigned
ra_crawler_category_of(ra_str_t name)
{
    size_t  i;

    for (i = 0; i < RA_CAT_MAX; i++) {
        if (ra_strcaseeq(name, ra_str(ra_category_names[i],
                                      strlen(ra_category_names[i]))))
        {
            return (unsigned) i;
        }
    }
    if (ra_strcaseeq(name, ra_str("ai-user-triggered", 17))) {
        return RA_CAT_AI_USER;
    }
    return RA_CAT_MAX;
}

ra_crawlers_t *
ra_crawlers_create(const ra_alloc_t *a)
{
    ra_crawlers_t  *t;

    t = ra_alloc(a, sizeof(ra_crawlers_t));
    if (t == NULL) {
        return NULL;
    }
    memset(t, 0, sizeof(ra_crawlers_t));
    t->alloc = a;
    return t;
}

/* ------------------------------------------------------------ the loader */

typedef struct {
    const unsigned char  *p;
    const unsigned char  *end;
    size_t                line;
} ra_lines_t;

static int
ra_eq(ra_str_t s, const char *lit)
{
    size_t  n = strlen(lit);

    return s.len == n && memcmp(s.data, lit, n) == 0;
}

/* The next line that is neither blank nor a comment, split into its first
 * word and the trimmed rest.  1: a line; 0: end; -1: line too long. */
static int
ra_next_line(ra_lines_t *it, ra_str_t *key, ra_str_t *val)
{
    const unsigned char  *s, *e, *nl, *k;

    while (it->p < it->end) {
        s = it->p;
        nl = memchr(s, '\n', (size_t) (it->end - s));
        e = nl != NULL ? nl : it->end;
        it->p = nl != NULL ? nl + 1 : it->end;
        it->line++;

        if ((size_t) (e - s) > RA_CRAWLERS_MAX_LINE) {
            return -1;
        }
        while (s < e && (*s == ' ' || *s == '\t')) {
            s++;
        }
        while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r')) {
            e--;
        }
        if (s == e || *s == '#') {
            continue;
        }
        for (k = s; k < e && *k != ' ' && *k != '\t'; k++) { /* void */ }
        *key = ra_str(s, (size_t) (k - s));
        while (k < e && (*k == ' ' || *k == '\t')) {
            k++;
        }
        *val = ra_str(k, (size_t) (e - k));
        return 1;
    }
    return 0;
}

/* Splits off the next blank-separated word of *v; 0 when none is left. */
static int
ra_next_word(ra_str_t *v, ra_str_t *w)
{
    size_t  i = 0, j;

    while (i < v->len && (v->data[i] == ' ' || v->data[i] == '\t')) {
        i++;
    }
    if (i == v->len) {
        return 0;
    }
    for (j = i; j < v->len && v->data[j] != ' ' && v->data[j] != '\t'; j++) {
        /* void */
    }
    *w = ra_str(v->data + i, j - i);
    v->data += j;
    v->len -= j;
    return 1;
}

static int
ra_valid_word(ra_str_t w, size_t max)
{
    size_t  i;

    if (w.len == 0 || w.len > max || !ra_isalnum(w.data[0])) {
        return 0;
    }
    for (i = 0; i < w.len; i++) {
        if (!ra_istok(w.data[i])) {
            return 0;
        }
    }
    return 1;
}

static int
ra_valid_text(ra_str_t v, size_t max)
{
    size_t  i;

    if (v.len == 0 || v.len > max) {
        return 0;
    }
    for (i = 0; i < v.len; i++) {
        if (v.data[i] < 0x20 || v.data[i] == 0x7f) {
            return 0;
        }
    }
    return 1;
}

#define ra_fail(m)  do { err->line = it->line; err->msg = (m);             \
                         return RA_ERROR; } while (0)

/*
 * Reads one entry's lines after its "crawler" line, up to the next one.
 * It validates and counts list items into *nitems; with c != NULL it
 * also fills c's scalar fields (ra_fill_list() does the lists).
 */
static int
ra_parse_entry(ra_lines_t *it, ra_str_t name, ra_crawler_t *c,
    size_t *nitems, ra_crawlers_err_t *err)
{
    ra_lines_t   save;
    ra_str_t     key, val, w;
    size_t       nua = 0, ntok = 0, seen = 0, i, first = it->line;
    unsigned     flags = 0, category = RA_CAT_MAX, bit;
    int          rc;

    if (!ra_valid_word(name, RA_CRAWLERS_MAX_NAME)) {
        ra_fail("crawler name: 1-64 letters, digits, '.', '_', '-'");
    }
    if (c != NULL) {
        memset(c, 0, sizeof(ra_crawler_t));
        c->name = name;
    }

    for ( ;; ) {
        save = *it;
        rc = ra_next_line(it, &key, &val);
        if (rc < 0) {
            ra_fail("line longer than 1024 bytes");
        }
        if (rc == 0 || ra_eq(key, "crawler")) {
            *it = save;
            break;
        }

        bit = 0;

        if (ra_eq(key, "ua")) {
            if (!ra_valid_text(val, 255)) {
                ra_fail("ua: 1-255 bytes of text, no control characters");
            }
            nua++;
            (*nitems)++;
            continue;

        } else if (ra_eq(key, "tokens") || ra_eq(key, "ranges")
                   || ra_eq(key, "rdns"))
        {
            bit = key.data[1] == 'o' ? 1 : key.data[1] == 'a' ? 2 : 4;
            if (seen & bit) {
                ra_fail("repeated key");
            }
            seen |= bit;
            while (ra_next_word(&val, &w)) {
                if (bit == 1 ? !ra_valid_word(w, RA_CRAWLERS_MAX_NAME)
                             : !ra_valid_text(w, 255))
                {
                    ra_fail("bad list item");
                }
                if (bit == 1) {
                    ntok++;
                }
                (*nitems)++;
            }
            if (bit == 1 && ntok == 0) {
                ra_fail("tokens: at least one token");
            }
            continue;

        } else if (ra_eq(key, "signature-agent")) {
            /* Web Bot Auth: the origins whose signatures are this
             * crawler's (ra_origin.h) */
            if (seen & 128) {
                ra_fail("repeated key");
            }
            seen |= 128;
            while (ra_next_word(&val, &w)) {
                ra_str_t  h;

                if (w.len > 255 || ra_origin_host(w, &h) != RA_OK) {
                    ra_fail("signature-agent: https://HOST origins");
                }
                (*nitems)++;
            }
            continue;

        } else if (ra_eq(key, "operator") || ra_eq(key, "url")
                   || ra_eq(key, "purpose"))
        {
            bit = key.data[0] == 'o' ? 8 : key.data[0] == 'u' ? 16 : 64;
            if ((seen & bit) || !ra_valid_text(val, 255)) {
                ra_fail("operator/url/purpose: once, 1-255 bytes of text");
            }
            seen |= bit;
            if (c != NULL) {
                if (bit == 8) {
                    c->operator_name = val;
                } else if (bit == 16) {
                    c->url = val;
                } else {
                    c->purpose = val;
                }
            }
            continue;

        } else if (ra_eq(key, "category")) {
            if (seen & 32) {
                ra_fail("repeated key");
            }
            seen |= 32;
            category = ra_crawler_category_of(val);
            if (category == RA_CAT_MAX) {
                ra_fail("unknown category");
            }
            continue;

        } else if (ra_eq(key, "flags")) {
            while (ra_next_word(&val, &w)) {
                for (i = 0; i < RA_NELTS(ra_flag_names); i++) {
                    if (ra_eq(w, ra_flag_names[i].name)) {
                        break;
                    }
                }
                if (i == RA_NELTS(ra_flag_names)) {
                    ra_fail("unknown flag");
                }
                flags |= ra_flag_names[i].flag;
            }
            continue;
        }

        ra_fail("unknown key");
    }

    if (!(flags & RA_FLAG_DISABLED) && category == RA_CAT_MAX) {
        err->line = first;               /* the "crawler" line */
        err->msg = "entry without a category";
        return RA_ERROR;
    }
    if (ntok == 0) {
        (*nitems)++;                       /* the name as token */
    }
    if (nua == 0 && !(flags & RA_CRAWLER_TOKEN_ONLY)) {
        (*nitems)++;                       /* the name as ua piece */
    }
    if (c == NULL) {
        return RA_OK;
    }
    c->category = category;
    c->flags = flags;
    return RA_OK;
}

/* Second reading of an entry: fills the lists of key "k" from the pool. */
static void
ra_fill_list(ra_lines_t it, const char *k, ra_str_t **pool,
    const ra_str_t **list, size_t *n)
{
    ra_str_t  key, val, w;

    *list = *pool;
    *n = 0;
    while (ra_next_line(&it, &key, &val) == 1 && !ra_eq(key, "crawler")) {
        if (!ra_eq(key, k)) {
            continue;
        }
        if (k[0] == 'u') {
            (*pool)[(*n)++] = val;
            continue;
        }
        while (ra_next_word(&val, &w)) {
            (*pool)[(*n)++] = w;
        }
    }
    *pool += *n;
}

static int
ra_crawlers_parse(ra_crawlers_t *t, const unsigned char *p, size_t len,
    ra_crawlers_err_t *err)
{
    ra_lines_t          it, body;
    ra_str_t            key, val, *pool;
    ra_crawler_t       *c;
    ra_crawlers_src_t  *src;
    size_t              nentries = 0, nitems = 0, i;
    int                 rc;

    /* pass 1: validate and count */
    it.p = p;
    it.end = p + len;
    it.line = 0;
    for ( ;; ) {
        rc = ra_next_line(&it, &key, &val);
        if (rc < 0) {
            err->line = it.line;
            err->msg = "line longer than 1024 bytes";
            return RA_ERROR;
        }
        if (rc == 0) {
            break;
        }
        if (!ra_eq(key, "crawler")) {
            err->line = it.line;
            err->msg = "expected \"crawler NAME\" to start an entry";
            return RA_ERROR;
        }
        if (++nentries + t->nentries > RA_CRAWLERS_MAX_ENTRIES) {
            err->line = it.line;
            err->msg = "too many entries";
            return RA_ELIMIT;
        }
        rc = ra_parse_entry(&it, val, NULL, &nitems, err);
        if (rc != RA_OK) {
            return rc;
        }
    }

    src = ra_alloc(t->alloc, sizeof(ra_crawlers_src_t)
                             + nentries * sizeof(ra_crawler_t)
                             + nitems * sizeof(ra_str_t));
    if (src == NULL) {
        return RA_ENOMEM;
    }
    src->next = NULL;
    src->n = nentries;
    src->entries = (ra_crawler_t *) (src + 1);
    pool = (ra_str_t *) (src->entries + nentries);

    /* pass 2: fill; the text is known to be valid */
    it.p = p;
    it.line = 0;
    for (i = 0; i < nentries; i++) {
        c = &src->entries[i];
        (void) ra_next_line(&it, &key, &val);
        body = it;
        (void) ra_parse_entry(&it, val, c, &nitems, err);

        ra_fill_list(body, "tokens", &pool, &c->tokens, &c->ntokens);
        if (c->ntokens == 0) {
            *pool = c->name;
            c->tokens = pool++;
            c->ntokens = 1;
        }
        ra_fill_list(body, "ua", &pool, &c->ua, &c->nua);
        if (c->nua == 0 && !(c->flags & RA_CRAWLER_TOKEN_ONLY)) {
            *pool = c->name;
            c->ua = pool++;
            c->nua = 1;
        }
        if (c->flags & RA_CRAWLER_TOKEN_ONLY) {
            c->nua = 0;
        }
        ra_fill_list(body, "ranges", &pool, &c->ranges, &c->nranges);
        ra_fill_list(body, "rdns", &pool, &c->rdns, &c->nrdns);
        ra_fill_list(body, "signature-agent", &pool, &c->sig_agents,
                     &c->nsig_agents);
    }

    if (t->last != NULL) {
        t->last->next = src;
    } else {
        t->first = src;
    }
    t->last = src;
    t->nentries += nentries;
    return RA_OK;
}

int
ra_crawlers_add(ra_crawlers_t *t, ra_str_t text, ra_crawlers_err_t *err)
{
    unsigned char  *copy;

    err->line = 0;
    err->msg = NULL;
    if (t->compiled) {
        err->msg = "table already compiled";
        return RA_ERROR;
    }
    if (text.len > RA_CRAWLERS_MAX_FILE) {
        err->msg = "crawler file larger than 4 MiB";
        return RA_ELIMIT;
    }
    /* the entries point into the text: keep our own copy */
    copy = ra_alloc(t->alloc, text.len);
    if (copy == NULL) {
        return RA_ENOMEM;
    }
    if (text.len) {
        memcpy(copy, text.data, text.len);
    }
    return ra_crawlers_parse(t, copy, text.len, err);
}

int
ra_crawlers_add_builtin(ra_crawlers_t *t, ra_crawlers_err_t *err)
{
    err->line = 0;
    err->msg = NULL;
    if (t->compiled) {
        err->msg = "table already compiled";
        return RA_ERROR;
    }
    /* static bytes: no copy needed */
    return ra_crawlers_parse(t, ra_crawlers_builtin_data,
                             ra_crawlers_builtin_len, err);
}

/* ------------------------------------------------------------ queries */

size_t
ra_crawlers_count(const ra_crawlers_t *t)
{
    return t->n;
}

const ra_crawler_t *
ra_crawlers_get(const ra_crawlers_t *t, size_t id)
{
    return id < t->n ? &t->crawlers[id] : NULL;
}

const ra_crawler_t *
ra_crawlers_find(const ra_crawlers_t *t, ra_str_t name)
{
    size_t  i;

    for (i = 0; i < t->n; i++) {
        if (ra_strcaseeq(t->crawlers[i].name, name)) {
            return &t->crawlers[i];
        }
    }
    return NULL;
}

const ra_crawler_t *
ra_crawlers_find_token(const ra_crawlers_t *t, ra_str_t token)
{
    size_t  i, j;

    for (i = 0; i < t->n; i++) {
        for (j = 0; j < t->crawlers[i].ntokens; j++) {
            if (ra_strcaseeq(t->crawlers[i].tokens[j], token)) {
                return &t->crawlers[i];
            }
        }
    }
    return NULL;
}

int
ra_crawler_signs_as(const ra_crawler_t *c, ra_str_t host)
{
    ra_str_t  h;
    size_t    i;

    for (i = 0; c != NULL && i < c->nsig_agents; i++) {
        if (ra_origin_host(c->sig_agents[i], &h) == RA_OK
            && ra_strcaseeq(h, host))
        {
            return 1;
        }
    }
    return 0;
}

const ra_crawler_t *
ra_crawlers_find_signature_agent(const ra_crawlers_t *t, ra_str_t host)
{
    size_t  i;

    for (i = 0; i < t->n; i++) {
        if (ra_crawler_signs_as(&t->crawlers[i], host)) {
            return &t->crawlers[i];
        }
    }
    return NULL;
}
