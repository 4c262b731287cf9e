/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Identification: which crawler a User-Agent is, or whether it is a
 * generic bot or a browser.  One pass of the main automaton finds the
 * table's pieces and the vocabularies' words; then the heuristics of
 * ra_crawlers_shape.c (a program's shape, a browser's) and the names of
 * ra_crawlers_name.c decide what the hits leave open.
 *
 * The time goes to waiting for the automaton's loads, byte after byte, so
 * ra_crawlers_identify() reads the two halves of a User-Agent as two
 * independent chains of loads and starts after the common "Mozilla/5.0 ("
 * in the state it leads to.  A browser's User-Agent has few hits, a branch
 * keeps them (ra_scan_lanes()); a bot's has many, and a mispredicted
 * branch at each would drain both chains, so those agents' lanes keep
 * every byte's state in a slot (ra_scan_slots()).
 */
#include "ra_crawlers_impl.h"

#define RA_LANES_MIN      32     /* shorter User-Agents: one chain */
#define RA_SYNC           32     /* how far lane 0 reads on to meet lane 1 */
#define RA_LANE_HITS      16     /* hits a lane keeps */
#define RA_SLOT_HITS      16     /* hits ra_scan_slots() keeps a lane */

/* "name@host.tld" around the '@' at position at. */
static int
ra_is_email(const unsigned char *p, size_t len, size_t at)
{
    size_t  i = at + 1, dots = 0, tld = 0;

    if (at == 0 || !(ra_istok(p[at - 1])) || i >= len || !ra_isalpha(p[i])) {
        return 0;
    }
    for ( ; i < len && (ra_istok(p[i])); i++) {
        if (p[i] == '.') {
            dots++;
            tld = 0;
        } else if (ra_isalpha(p[i])) {
            tld++;
        } else {
            tld = 0;
        }
    }
    return dots > 0 && tld >= 2;
}

/* Whether "KHTML" and a separator (", ", " ", "%2C ": how logs spell the
 * comma) end just before position at: only a WebKit engine's comment
 * says "(KHTML, like Gecko; ...". */
static int
ra_after_khtml(const unsigned char *p, size_t at)
{
    size_t  k = at;

    while (k > 0 && p[k - 1] == ' ') {
        k--;
    }
    if (k > 0 && p[k - 1] == ',') {
        k--;
    } else if (k >= 3 && p[k - 3] == '%' && p[k - 2] == '2'
               && (p[k - 1] == 'C' || p[k - 1] == 'c'))
    {
        k -= 3;
    }
    return k >= 5 && ra_prefix_ci(p + k - 5, 5, "khtml", 5);
}

static void
ra_scan_match(const ra_pat_t *pat, const unsigned char *p, size_t len,
    size_t end, ra_scan_t *st)
{
    size_t  start = end + 1 - pat->len;

    if ((pat->flags & RA_KW_WSTART) && start > 0 && ra_isalnum(p[start - 1]))
    {
        return;
    }
    if ((pat->flags & RA_KW_NOALPHA) && end + 1 < len
        && ra_isalpha(p[end + 1]))
    {
        return;
    }
    if ((pat->flags & (RA_KW_NOALNUM | RA_KW_DOMAIN)) && end + 1 < len
        && (ra_isalnum(p[end + 1]) || p[end + 1] == '_'))
    {
        return;
    }
    if ((pat->flags & RA_KW_DIGIT) && (end + 1 >= len
                                       || !ra_isdigit(p[end + 1])))
    {
        return;
    }

    switch (pat->kind) {

    case RA_PAT_KNOWN:
        /* the longest piece wins; between equals, the first in the UA */
        if (st->best < 0 || pat->len > st->best_len) {
            st->best = pat->value;
            st->best_len = pat->len;
        }
        return;

    case RA_PAT_GENERIC:
        if ((pat->flags & RA_KW_DOMAIN)
            && (start == 0 || !(ra_isalnum(p[start - 1])
                                || p[start - 1] == '-')))
        {
            return;
        }
        if ((pat->flags & RA_KW_EMAIL) && !ra_is_email(p, len, start)) {
            return;
        }
        if (pat->flags & RA_KW_NEXT) {
            /* "(KHTML, like Gecko; Name": a phone's own "(H11T; like
             * Gecko; Wireless)" names no program */
            if (!ra_after_khtml(p, start)) {
                return;
            }
            start = end + 1;              /* the token after it */
        }
        if (st->nhits < RA_MAX_HITS) {
            st->hit_start[st->nhits] = (uint32_t) start;
            st->hit_flags[st->nhits] = pat->flags;
            st->nhits++;
        }
        return;

    default:
        /* RA_PAT_NEUTRAL: platform words have their own automaton */
        if (st->nneutral < RA_MAX_NEUTRAL) {
            st->n_start[st->nneutral] = (uint32_t) start;
            st->n_end[st->nneutral] = (uint32_t) end;
            st->nneutral++;
        }
        return;
    }
}

/* Every pattern ending at position end, where the automaton is in s. */
static void
ra_scan_hit(const ra_crawlers_t *t, const unsigned char *p, size_t len,
    size_t end, size_t s, ra_scan_t *st)
{
    const ra_pat_t  *pat;
    size_t           q, pi;

    for (q = s; q != 0; q = ra_ac_slot(&t->ac, q, 1)) {
        for (pi = ra_ac_slot(&t->ac, q, 0); pi != 0; pi = pat->next) {
            pat = &t->pats[pi - 1];
            ra_scan_match(pat, p, len, end, st);
        }
    }
}

/* One step of a 16-bit table: the load scales the state by 8 itself. */
#define ra_step16(col, ch, s)  (col)[ch][(s) * 4]

/* One chain of dependent loads over the User-Agent from byte i, where
 * the automaton is in state s. */
static void
ra_scan_serial(const ra_crawlers_t *t, const unsigned char *p, size_t len,
    size_t i, size_t s, ra_scan_t *st)
{
    const uint16_t *const  *col = t->ac.col;
    const uint32_t         *t32 = t->ac.t32;
    const uint8_t          *cls = t->ac.cls;
    size_t                  hit = t->ac.hit;

    if (t->ac.t16 != NULL) {
        for ( ; i < len; i++) {
            s = ra_step16(col, p[i], s);
            if (s >= hit) {
                ra_scan_hit(t, p, len, i, s, st);
            }
        }
        return;
    }

    for ( ; i < len; i++) {
        s = t32[s + cls[p[i]]];
        if (s >= hit) {
            ra_scan_hit(t, p, len, i, s, st);
        }
    }
}

/*
 * A lane's hits.  A hit is rare (a browser's User-Agent has none or one
 * or two), so a branch keeps it: a byte costs its step and one compare,
 * and the few mispredictions cost less than writing a slot for every
 * byte.  A lane keeps its first RA_LANE_HITS hits and counts the others:
 * more make the lanes' result moot.  User-Agents up to RA_LANES_MAX bytes
 * take the lanes, so an end fits in 16 bits.
 */
#define RA_LANES_MAX  1024

typedef struct {
    size_t     n;
    uint32_t   hit[RA_LANE_HITS];       /* end << 16 | state */
} ra_lane_t;

#define ra_lane_keep(l, end, s)                                              \
    do {                                                                      \
        if (__builtin_expect((s) >= hit, 0)) {                                \
            if ((l).n < RA_LANE_HITS) {                                       \
                (l).hit[(l).n] = (uint32_t) ((end) << 16 | (s));              \
            }                                                                 \
            (l).n++;                                                          \
        }                                                                     \
    } while (0)

/*
 * The hits two lanes kept, in the order of one chain: lane 0's before the
 * byte where the lanes met, lane 1's from it on (ends counted from a).
 */
static void
ra_lanes_report(const ra_crawlers_t *t, const unsigned char *p, size_t len,
    size_t a, const uint32_t *h0, size_t n0, const uint32_t *h1, size_t n1,
    size_t meet, ra_scan_t *st)
{
    size_t  j;

    for (j = 0; j < n0; j++) {
        ra_scan_hit(t, p, len, a + (h0[j] >> 16), h0[j] & 0xffff, st);
    }
    for (j = 0; j < n1; j++) {
        if (h1[j] >> 16 >= meet) {
            ra_scan_hit(t, p, len, a + (h1[j] >> 16), h1[j] & 0xffff, st);
        }
    }
}

/*
 * Two chains of dependent loads, one per half of the User-Agent, so that
 * each load's latency hides the other's (one chain waits on memory for
 * nearly all of its time).  Lane 1 starts at the root at the half and
 * keeps its first states.  Then lane 0 reads on into the second half
 * until its state is lane 1's at the same byte: from there on both are the
 * same automaton on the same bytes, so lane 1's hits stand from that byte
 * on, and the hits come out in the order of one chain.  0 when lane 0 did
 * not meet lane 1 within RA_SYNC bytes or a lane kept too many hits:
 * nothing was reported, the caller reads the User-Agent again with one
 * chain.  The scan starts at byte a in state s; a hit's end (16 bits) is
 * counted from a until it is reported.
 */
static int __attribute__((noinline))
ra_scan_lanes(const ra_crawlers_t *t, const unsigned char *p, size_t len,
    size_t a, size_t s, ra_scan_t *st)
{
    const uint16_t *const  *col = t->ac.col;
    const unsigned char    *p1;
    ra_lane_t               lane[2];
    uint16_t                seen[RA_SYNC];
    size_t                  s0, s1, i, m, w;
    size_t                  hit = t->ac.hit;

    m = (len - a) / 2;
    w = (m < RA_SYNC ? m : RA_SYNC) & ~(size_t) 1;
    p += a;
    p1 = p + m;
    s0 = s;
    s1 = 0;
    lane[0].n = 0;
    lane[1].n = 0;

    /*
     * Two bytes a lane at a time, and the four states tested at once: an
     * OR of states below hit reaches hit only now and then (the shallow
     * states, where a browser's bytes spend their time, are numbered
     * first), and then each is tested alone.
     */
    for (i = 0; i < w; i += 2) {
        s0 = ra_step16(col, p[i], s0);
        ra_lane_keep(lane[0], i, s0);
        s1 = ra_step16(col, p1[i], s1);
        ra_lane_keep(lane[1], m + i, s1);
        seen[i] = (uint16_t) s1;
        s0 = ra_step16(col, p[i + 1], s0);
        ra_lane_keep(lane[0], i + 1, s0);
        s1 = ra_step16(col, p1[i + 1], s1);
        ra_lane_keep(lane[1], m + i + 1, s1);
        seen[i + 1] = (uint16_t) s1;
    }
    for ( ; i + 2 <= m; i += 2) {
        s0 = ra_step16(col, p[i], s0);
        ra_lane_keep(lane[0], i, s0);
        s1 = ra_step16(col, p1[i], s1);
        ra_lane_keep(lane[1], m + i, s1);
        s0 = ra_step16(col, p[i + 1], s0);
        ra_lane_keep(lane[0], i + 1, s0);
        s1 = ra_step16(col, p1[i + 1], s1);
        ra_lane_keep(lane[1], m + i + 1, s1);
    }
    if (i < m) {
        s0 = ra_step16(col, p[i], s0);
        s1 = ra_step16(col, p1[i], s1);
        ra_lane_keep(lane[0], i, s0);
        ra_lane_keep(lane[1], m + i, s1);
    }
    for (i = 2 * m; i < len - a; i++) {
        s1 = ra_step16(col, p[i], s1);
        ra_lane_keep(lane[1], i, s1);
    }

    for (i = 0; i < w; i++) {
        s0 = ra_step16(col, p1[i], s0);
        if (s0 == seen[i]) {
            break;
        }
        ra_lane_keep(lane[0], m + i, s0);
    }
    p -= a;

    if (i == w || lane[0].n > RA_LANE_HITS || lane[1].n > RA_LANE_HITS) {
        return 0;
    }
    ra_lanes_report(t, p, len, a, lane[0].hit, lane[0].n, lane[1].hit,
                    lane[1].n, m + i, st);
    return 1;
}

/*
 * ra_scan_lanes() for User-Agents that likely hold several hits (see
 * ra_crawlers_identify()).  A lane's hits, kept without a branch (a mispredicted one, at every hit,
 * would drain both lanes): every byte writes its end and state to the
 * next slot, and "n" counts the slot in only when the state is a hit.
 * There is a slot for every byte a lane reads (User-Agents up to
 * RA_LANES_MAX bytes take the lanes), so no bound is checked per byte;
 * more than RA_SLOT_HITS hits make the lanes' result moot.
 */
#define RA_LANE_SLOTS (RA_LANES_MAX / 2 + RA_SYNC + 2)

typedef struct {
    size_t     n;
    uint32_t   hit[RA_LANE_SLOTS];      /* end << 16 | state */
} ra_slots_t;

#define ra_slot_keep(l, end, s)                                              \
    do {                                                                      \
        (l).hit[(l).n] = (uint32_t) ((end) << 16 | (s));                      \
        (l).n += (s) >= hit;                                                  \
    } while (0)

/*
 * ra_scan_lanes() with the hits kept in slots (the two chains, their
 * meeting and the answer are the same): for User-Agents that likely hold
 * several hits.
 */
static int __attribute__((noinline))
ra_scan_slots(const ra_crawlers_t *t, const unsigned char *p, size_t len,
    size_t a, size_t s, ra_scan_t *st)
{
    const uint16_t *const  *col = t->ac.col;
    const unsigned char    *p1;
    ra_slots_t               lane[2];
    uint16_t                seen[RA_SYNC];
    size_t                  s0, s1, i, m, w;
    size_t                  hit = t->ac.hit;

    m = (len - a) / 2;
    w = m < RA_SYNC ? m : RA_SYNC;
    p += a;
    p1 = p + m;
    s0 = s;
    s1 = 0;
    lane[0].n = 0;
    lane[1].n = 0;

    for (i = 0; i < w; i++) {
        s0 = ra_step16(col, p[i], s0);
        s1 = ra_step16(col, p1[i], s1);
        seen[i] = (uint16_t) s1;
        ra_slot_keep(lane[0], i, s0);
        ra_slot_keep(lane[1], m + i, s1);
    }
    for ( ; i < m; i++) {
        s0 = ra_step16(col, p[i], s0);
        s1 = ra_step16(col, p1[i], s1);
        ra_slot_keep(lane[0], i, s0);
        ra_slot_keep(lane[1], m + i, s1);
    }
    for (i = 2 * m; i < len - a; i++) {
        s1 = ra_step16(col, p[i], s1);
        ra_slot_keep(lane[1], i, s1);
    }

    for (i = 0; i < w; i++) {
        s0 = ra_step16(col, p1[i], s0);
        if (s0 == seen[i]) {
            break;
        }
        ra_slot_keep(lane[0], m + i, s0);
    }
    p -= a;

    if (i == w || lane[0].n > RA_SLOT_HITS || lane[1].n > RA_SLOT_HITS) {
        return 0;
    }
    ra_lanes_report(t, p, len, a, lane[0].hit, lane[0].n, lane[1].hit,
                    lane[1].n, m + i, st);
    return 1;
}

/* Whether some platform word occurs; it stops at the first.  The
 * User-Agent starts with ra_ua_prefix[k] (none: k == RA_NPREFIX). */
static int
ra_has_platform(const ra_ac_t *ac, const unsigned char *p, size_t len,
    size_t k)
{
    size_t  i = 0, s = 0;

    if (k < RA_NPREFIX) {
        if (ac->pre[k] == RA_PRE_HIT) {
            return 1;
        }
        s = ac->pre[k];
        i = ra_ua_prefix(k)->len;
    }

    if (ac->t16 != NULL) {
        for ( ; i < len; i++) {
            s = ra_step16(ac->col, p[i], s);
            if (s >= ac->hit) {
                return 1;
            }
        }
        return 0;
    }

    for ( ; i < len; i++) {
        s = ac->t32[s + ac->cls[p[i]]];
        if (s >= ac->hit) {
            return 1;
        }
    }
    return 0;
}

/* Which of ra_ua_prefix() the User-Agent starts with; RA_NPREFIX: none. */
static size_t
ra_which_prefix(const unsigned char *p, size_t len)
{
    size_t  k;

    for (k = 0; k < RA_NPREFIX; k++) {
        if (len >= ra_ua_prefix(k)->len
            && memcmp(p, ra_ua_prefix(k)->text, ra_ua_prefix(k)->len) == 0)
        {
            return k;
        }
    }
    return RA_NPREFIX;
}

/*
 * The library entry (RA_CRAWLER_LIBRARY) a generic bot's User-Agent is:
 * one of its pieces is the User-Agent's first product, a whole word ("Ruby"
 * is not "RubyBot"), at its start ("curl/8.5.0", "Ruby") or right after
 * "Mozilla/5.0 (compatible; ".  A crawler built on a library names
 * itself first ("cobweb/1.2.0 (ruby/2.5.1)", "LinkedInBot/1.0 (...;
 * Apache-HttpClient ...)"): that crawler, not its library, is the client.
 * The longest piece wins; NULL when none.  Libraries are few and only
 * generic bots are compared, so the automaton, whose 16-bit table has no
 * room to spare, does not hold their pieces.
 */
static const ra_crawler_t *
ra_library_of(const ra_crawlers_t *t, const unsigned char *p, size_t len)
{
    const ra_ua_prefix_t  *pre = ra_ua_prefix(0);
    const ra_crawler_t    *c, *best = NULL;
    size_t                 i, end, k, at = 0, best_len = 0;
    ra_str_t               u;

    if (len > pre->len && memcmp(p, pre->text, pre->len) == 0) {
        at = pre->len;
    }
    if (at == len) {
        return NULL;
    }
    end = t->lib_at[ra_lower(p[at]) + 1];
    for (i = t->lib_at[ra_lower(p[at])]; i < end; i++) {
        c = &t->crawlers[t->lib_pieces[i].crawler];
        u = c->ua[t->lib_pieces[i].ua];
        if (u.len > len - at || u.len <= best_len) {
            continue;
        }
        for (k = 1; k < u.len
                    && ra_lower(p[at + k]) == ra_lower(u.data[k]); k++)
        {
            /* the piece, in any case (its first byte is the bucket's) */
        }
        if (k == u.len
            && !(ra_isalnum(u.data[k - 1]) && at + k < len
                 && ra_isalnum(p[at + k])))
        {
            best = c;
            best_len = u.len;
        }
    }
    return best;
}

int
ra_crawlers_identify(const ra_crawlers_t *t, ra_str_t ua, ra_identity_t *out)
{
    const unsigned char  *p = ua.data;
    ra_scan_t             st;
    ra_str_t              tok;
    size_t                len, k, pk, a, s;
    unsigned              j, h, covered;

    len = ua.len < RA_CRAWLERS_MAX_UA ? ua.len : RA_CRAWLERS_MAX_UA;
    st.best = -1;
    st.best_len = 0;
    st.nhits = 0;
    st.nneutral = 0;

    pk = ra_which_prefix(p, len);
    a = 0;
    s = 0;
    if (pk < RA_NPREFIX && t->ac.pre[pk] != RA_PRE_HIT) {
        a = ra_ua_prefix(pk)->len;
        s = t->ac.pre[pk];
    }
    if (t->ac.t16 == NULL || len - a < RA_LANES_MIN || len - a > RA_LANES_MAX
        || !(pk == RA_PRE_BROWSER ? ra_scan_lanes(t, p, len, a, s, &st)
                                  : ra_scan_slots(t, p, len, a, s, &st)))
    {
        ra_scan_serial(t, p, len, a, s, &st);
    }

    out->crawler = NULL;
    out->token = ra_str(p, 0);

    if (st.best >= 0) {
        out->kind = RA_UA_KNOWN;
        out->crawler = &t->crawlers[st.best];
        out->token = out->crawler->tokens[0];
        return RA_UA_KNOWN;
    }

    for (h = 0, covered = 0; h < st.nhits; h++) {
        for (j = 0; j < st.nneutral; j++) {
            if (st.hit_start[h] >= st.n_start[j]
                && st.hit_start[h] <= st.n_end[j])
            {
                break;
            }
        }
        if (j < st.nneutral) {
            covered++;
            st.hit_flags[h] = 0xff;        /* masked */
            continue;
        }
        if (out->token.len == 0 && !(st.hit_flags[h] & RA_KW_URL)) {
            k = st.hit_start[h];
            tok = (st.hit_flags[h] & RA_KW_NEXT) ? ra_next_token(p, len, k)
                                                  : ra_name_at(p, len, k);
            if (tok.len) {
                out->token = tok;
            }
        }
    }

    if (st.nhits > covered
        || (!ra_has_platform(&t->plat, p, len, pk)
            && (ra_program_shape(p, len)
                || ra_first_compatible(p, len, 0, &out->token)))
        || (pk != RA_PRE_BROWSER && len > 0 && p[len - 1] == ')'
            && ra_first_compatible(p, len, 1, &out->token))
        || ra_odd_browser(p, len, &out->token))
    {
        out->kind = RA_UA_GENERIC;
        out->token = out->token.len ? ra_own_product(p, len, out->token)
                                    : ra_declared_name(p, len, &st);
        out->token = ra_token_name(out->token);
        if (ra_bare_word(out->token)) {
            out->token = ra_token_name(ra_bare_name(p, len, &st, out->token));
        }
        if (t->nlibs != 0 && (out->crawler = ra_library_of(t, p, len))) {
            out->kind = RA_UA_KNOWN;
            out->token = out->crawler->tokens[0];
            return RA_UA_KNOWN;
        }
        return RA_UA_GENERIC;
    }

    out->kind = RA_UA_BROWSER;
    return RA_UA_BROWSER;
}
