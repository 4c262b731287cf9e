/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The automata's builder.  ra_crawlers_compile() merges the table's
 * entries (a later file's entry replaces an earlier one of the same name)
 * and builds one Aho-Corasick automaton of every User-Agent piece
 * of the table plus the generic and neutral vocabularies, and a second,
 * small one of the platform words (ra_crawlers_words.c).
 *
 * Each automaton is a full DFA over byte classes (letters folded to lower
 * case; bytes no pattern uses share class 0) whose entries are the offsets
 * of the next row, so that a byte costs one load (see ra_ac_t); the scan
 * that runs it is ra_crawlers_identify.c's.
 */
#include "ra_crawlers_impl.h"

/*
 * The automata are built in a scratch trie of 16-bit states (the limit is
 * RA_CRAWLERS_MAX_STATES) and then written out as ra_ac_t rows.  A pass of
 * ra_each_pattern() takes the patterns whose kind is in mask.
 */
typedef struct {
    unsigned        mask;            /* 1 << RA_PAT_* */
    size_t          bytes;
    size_t          npats;
    uint8_t         used[256];

    const uint8_t  *cls;
    size_t          ncls;
    size_t          nstates;
    uint16_t       *trie;            /* nstates * ncls */
    uint16_t       *out;             /* first pattern ending here, +1 */
    ra_pat_t       *pats;            /* NULL: the words' identity is moot */
} ra_build_t;

static int
ra_count_pattern(ra_crawlers_t *t, const ra_pat_src_t *p, void *ctx)
{
    ra_build_t  *b = ctx;
    size_t       i;

    (void) t;
    if (!(b->mask & (1u << p->kind))) {
        return RA_OK;
    }
    for (i = 0; i < p->s.len; i++) {
        b->used[ra_lower(p->s.data[i])] = 1;
    }
    b->bytes += p->s.len;
    b->npats++;
    return RA_OK;
}

static int
ra_insert_pattern(ra_crawlers_t *t, const ra_pat_src_t *p, void *ctx)
{
    ra_build_t  *b = ctx;
    size_t       i, s = 0, c;
    uint16_t     next;
    ra_pat_t    *pat;

    (void) t;
    if (!(b->mask & (1u << p->kind))) {
        return RA_OK;
    }
    for (i = 0; i < p->s.len; i++) {
        c = b->cls[ra_lower(p->s.data[i])];
        next = b->trie[s * b->ncls + c];
        if (next == 0) {
            if (b->nstates >= RA_CRAWLERS_MAX_STATES) {
                return RA_ELIMIT;
            }
            next = (uint16_t) b->nstates++;
            b->trie[s * b->ncls + c] = next;
        }
        s = next;
    }
    if (b->pats == NULL) {
        b->out[s] = 1;
        return RA_OK;
    }
    pat = &b->pats[b->npats];
    pat->len = (uint16_t) p->s.len;
    pat->kind = p->kind;
    pat->flags = p->flags;
    pat->value = p->value;
    pat->next = b->out[s];
    b->out[s] = (uint16_t) ++b->npats;
    return RA_OK;
}

/* One step of the automaton, off the hot loops. */
static size_t
ra_ac_next(const ra_ac_t *ac, size_t s, unsigned char ch)
{
    size_t  c = ac->cls[ch];

    return ac->t16 != NULL ? ac->t16[s * 4 + c] : ac->t32[s + c];
}

/*
 * Builds the Aho-Corasick automaton of the patterns of the kinds in mask
 * into ac; with pats != NULL the patterns are stored there (t->npats).
 */
static int
ra_ac_build(ra_crawlers_t *t, ra_ac_t *ac, unsigned mask, ra_pat_t *pats)
{
    ra_build_t   b;
    size_t       i, k, c, n, w, e, unit, maxstates, head, tail;
    size_t       nhit, nout, nfree;
    uint16_t    *fail, *dict, *queue, *num, s, u, v;
    int          rc;

    memset(&b, 0, sizeof(ra_build_t));
    b.mask = mask;
    (void) ra_each_pattern(t, ra_count_pattern, &b);

    /* class 0: bytes no pattern uses; letters share their lower case */
    memset(ac->cls, 0, sizeof(ac->cls));
    n = 1;
    for (i = 0; i < 256; i++) {
        if (b.used[i]) {
            ac->cls[i] = (uint8_t) n++;
        }
    }
    for (i = 'A'; i <= 'Z'; i++) {
        ac->cls[i] = ac->cls[i | 0x20];
    }

    /* a trie has at most one state per pattern byte, plus the root */
    maxstates = b.bytes + 1;
    if (maxstates > RA_CRAWLERS_MAX_STATES) {
        maxstates = RA_CRAWLERS_MAX_STATES;
    }
    if (b.npats > 65535) {
        return RA_ELIMIT;
    }

    b.cls = ac->cls;
    b.ncls = n;
    b.nstates = 1;
    b.pats = pats;
    b.npats = 0;
    b.trie = ra_alloc(t->alloc, maxstates * n * sizeof(uint16_t));
    b.out = ra_alloc(t->alloc, maxstates * sizeof(uint16_t));
    fail = ra_alloc(t->alloc, maxstates * sizeof(uint16_t));
    dict = ra_alloc(t->alloc, maxstates * sizeof(uint16_t));
    queue = ra_alloc(t->alloc, maxstates * sizeof(uint16_t));
    num = ra_alloc(t->alloc, maxstates * sizeof(uint16_t));
    if (b.trie == NULL || b.out == NULL || fail == NULL || dict == NULL
        || queue == NULL || num == NULL)
    {
        rc = RA_ENOMEM;
        goto done;
    }
    memset(b.trie, 0, maxstates * n * sizeof(uint16_t));
    memset(b.out, 0, maxstates * sizeof(uint16_t));
    memset(fail, 0, maxstates * sizeof(uint16_t));
    memset(dict, 0, maxstates * sizeof(uint16_t));

    rc = ra_each_pattern(t, ra_insert_pattern, &b);
    if (rc != RA_OK) {
        goto done;
    }
    if (pats != NULL) {
        t->npats = b.npats;
    }

    /*
     * Breadth first: a state's row is completed (missing edges take the
     * failure state's edge) only when the state is dequeued, so a non-zero
     * entry of an unvisited row is still a trie edge (no edge leads back
     * to the root).
     */
    head = tail = 0;
    for (c = 0; c < n; c++) {
        u = b.trie[c];
        if (u != 0) {
            fail[u] = 0;
            queue[tail++] = u;
        }
    }
    while (head < tail) {
        s = queue[head++];
        dict[s] = b.out[fail[s]] ? fail[s] : dict[fail[s]];
        for (c = 0; c < n; c++) {
            u = b.trie[s * n + c];
            v = b.trie[fail[s] * n + c];
            if (u != 0) {
                fail[u] = v;
                queue[tail++] = u;
            } else {
                b.trie[s * n + c] = v;
            }
        }
    }

    /*
     * Number the states breadth first, so the shallow states where a
     * browser's bytes spend nearly all their time share a few cache lines
     * of rows at the start of the table; but the states where a pattern
     * ends go last, so that "a pattern ends here" is "row >= ac->hit", a
     * test off the chain of dependent loads.
     */
    nhit = b.nstates;
    for (i = 0; i < tail; i++) {
        nhit -= b.out[queue[i]] || dict[queue[i]];
    }
    num[0] = 0;
    nfree = 1;
    nout = nhit;
    for (i = 0; i < tail; i++) {
        s = queue[i];
        num[s] = (uint16_t) (b.out[s] || dict[s] ? nout++ : nfree++);
    }

    ac->ncls = n;
    ac->nstates = b.nstates;
    ac->t16 = NULL;
    ac->t32 = NULL;
    w = (n + 2 + 3) & ~(size_t) 3;
    if (b.nstates * w * sizeof(uint16_t) <= RA_AC_T16_MAX) {
        ac->width = w;
        unit = w / 4;
        ac->t16 = ra_alloc(t->alloc, b.nstates * w * sizeof(uint16_t));
    } else {
        ac->width = w = n + 2;
        unit = w;
        ac->t32 = ra_alloc(t->alloc, b.nstates * w * sizeof(uint32_t));
    }
    if (ac->t16 == NULL && ac->t32 == NULL) {
        rc = RA_ENOMEM;
        goto done;
    }
    ac->hit = nhit * unit;
    for (i = 0; i < 256; i++) {
        ac->col[i] = ac->t16 != NULL ? ac->t16 + ac->cls[i] : NULL;
    }

    for (i = 0; i < b.nstates; i++) {
        for (c = 0; c < w; c++) {
            if (c < n) {
                e = num[b.trie[i * n + c]] * unit;
            } else if (c == n) {
                e = b.out[i];
            } else if (c == n + 1 && dict[i] != 0) {
                e = num[dict[i]] * unit;
            } else {
                e = 0;                      /* padding */
            }
            if (ac->t16 != NULL) {
                ac->t16[num[i] * w + c] = (uint16_t) e;
            } else {
                ac->t32[num[i] * w + c] = (uint32_t) e;
            }
        }
    }

    /* where the common prefixes lead (see ra_ua_prefix()) */
    for (k = 0; k < RA_NPREFIX; k++) {
        e = 0;
        for (i = 0; i < ra_ua_prefix(k)->len && e < ac->hit; i++) {
            e = ra_ac_next(ac, e, (unsigned char) ra_ua_prefix(k)->text[i]);
        }
        ac->pre[k] = e < ac->hit ? e : RA_PRE_HIT;
    }
    rc = RA_OK;

done:
    ra_free(t->alloc, b.trie);
    ra_free(t->alloc, b.out);
    ra_free(t->alloc, fail);
    ra_free(t->alloc, dict);
    ra_free(t->alloc, queue);
    ra_free(t->alloc, num);
    return rc;
}

/* The library entries' pieces, compared apart (ra_crawlers_identify()),
 * bucketed by first byte in lower case: a counting sort, which keeps the
 * table's order within a bucket, so that the first of two equally long
 * pieces still wins. */
static int
ra_crawlers_libs(ra_crawlers_t *t)
{
    const ra_crawler_t  *c;
    size_t               i, j, n = 0;
    uint32_t             at[257];
    unsigned             b;

    memset(t->lib_at, 0, sizeof(t->lib_at));
    for (i = 0; i < t->n; i++) {
        c = &t->crawlers[i];
        for (j = 0; (c->flags & RA_CRAWLER_LIBRARY) && j < c->nua; j++) {
            if (c->ua[j].len != 0) {
                t->lib_at[ra_lower(c->ua[j].data[0]) + 1]++;
                n++;
            }
        }
    }
    t->nlibs = n;
    t->lib_pieces = ra_alloc(t->alloc, (n ? n : 1) * sizeof(ra_lib_piece_t));
    if (t->lib_pieces == NULL) {
        return RA_ENOMEM;
    }
    for (b = 1; b <= 256; b++) {
        t->lib_at[b] += t->lib_at[b - 1];
    }
    memcpy(at, t->lib_at, sizeof(at));
    for (i = 0; i < t->n; i++) {
        c = &t->crawlers[i];
        for (j = 0; (c->flags & RA_CRAWLER_LIBRARY) && j < c->nua; j++) {
            if (c->ua[j].len != 0) {
                b = ra_lower(c->ua[j].data[0]);
                t->lib_pieces[at[b]].crawler = (uint16_t) i;
                t->lib_pieces[at[b]++].ua = (uint16_t) j;
            }
        }
    }
    return RA_OK;
}

static int
ra_crawlers_build(ra_crawlers_t *t)
{
    ra_build_t  b;
    int         rc;

    memset(&b, 0, sizeof(ra_build_t));
    b.mask = 1u << RA_PAT_KNOWN | 1u << RA_PAT_GENERIC | 1u << RA_PAT_NEUTRAL;
    (void) ra_each_pattern(t, ra_count_pattern, &b);
    if (b.npats > 65535) {
        return RA_ELIMIT;
    }
    t->pats = ra_alloc(t->alloc, (b.npats ? b.npats : 1) * sizeof(ra_pat_t));
    if (t->pats == NULL) {
        return RA_ENOMEM;
    }
    rc = ra_ac_build(t, &t->ac, b.mask, t->pats);
    if (rc != RA_OK) {
        return rc;
    }
    return ra_ac_build(t, &t->plat, 1u << RA_PAT_PLATFORM, NULL);
}

int
ra_crawlers_compile(ra_crawlers_t *t, ra_crawlers_err_t *err)
{
    ra_crawlers_src_t  *src;
    ra_crawler_t       *e;
    size_t              i, j, n = 0;
    int                 rc;

    err->line = 0;
    err->msg = NULL;
    if (t->compiled) {
        err->msg = "table already compiled";
        return RA_ERROR;
    }

    t->crawlers = ra_alloc(t->alloc, (t->nentries ? t->nentries : 1)
                                     * sizeof(ra_crawler_t));
    if (t->crawlers == NULL) {
        return RA_ENOMEM;
    }

    /* later files replace earlier entries of the same name in place, so
     * the built-in ids stay put; "disabled" removes the name */
    for (src = t->first; src != NULL; src = src->next) {
        for (i = 0; i < src->n; i++) {
            e = &src->entries[i];
            for (j = 0; j < n; j++) {
                if (ra_strcaseeq(t->crawlers[j].name, e->name)) {
                    break;
                }
            }
            if (e->flags & RA_FLAG_DISABLED) {
                if (j < n) {
                    memmove(&t->crawlers[j], &t->crawlers[j + 1],
                            (n - j - 1) * sizeof(ra_crawler_t));
                    n--;
                }
                continue;
            }
            t->crawlers[j] = *e;
            if (j == n) {
                n++;
            }
        }
    }
    t->n = n;
    for (i = 0; i < n; i++) {
        t->crawlers[i].id = (unsigned) i;
    }
    rc = ra_crawlers_libs(t);
    if (rc != RA_OK) {
        return rc;
    }

    rc = ra_crawlers_build(t);
    if (rc != RA_OK) {
        err->msg = rc == RA_ELIMIT ? "crawler patterns too large" : NULL;
        return rc;
    }
    t->compiled = 1;
    return RA_OK;
}

size_t
ra_crawlers_automaton_size(const ra_crawlers_t *t)
{
    return (t->ac.nstates * t->ac.width
            * (t->ac.t16 != NULL ? sizeof(uint16_t) : sizeof(uint32_t)))
           + (t->plat.nstates * t->plat.width
              * (t->plat.t16 != NULL ? sizeof(uint16_t) : sizeof(uint32_t)))
           + t->npats * sizeof(ra_pat_t) + sizeof(t->ac.cls)
           + sizeof(t->plat.cls);
}
