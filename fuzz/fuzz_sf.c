/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Structured Field Values (ra_sf.h).  The first byte picks the flags and
 * whether the rest is a Dictionary or a List.  Invariants: every member's
 * spans lie in the input, in order; a failure says why and stops inside
 * the input; the whole-field form agrees with the walk; and what parsed
 * serialises to text that parses again into the same serialisation.
 */
#include "fuzz.h"
#include "ra_sf.h"

#define FZ_SF_OUT  (1u << 16)

/* A member serialised as the RFC would write it (params kept up to 16) */
static void
put_member(ra_sf_out_t *o, const ra_sf_member_t *m, unsigned flags)
{
    ra_sf_cur_t    c;
    ra_sf_item_t   items[16];
    ra_sf_param_t  params[16];
    ra_sf_bare_t   v;
    unsigned       n = 0, np = 0, i;
    int            rc;

    ra_sf_put(o, m->key.data, m->key.len);
    ra_sf_init_member(&c, m, flags);
    if (!m->bare) {
        if (m->key.len) {
            ra_sf_put(o, "=", 1);
        }
        if (m->list) {
            rc = ra_sf_inner(&c, items, 16, &n);
            FZ_CHECK(rc == RA_OK || rc == RA_ELIMIT);
            if (rc != RA_OK) {
                o->over = 1;            /* too many to write again */
                return;
            }
            ra_sf_put(o, "(", 1);
            for (i = 0; i < n; i++) {
                ra_sf_put(o, " ", i ? 1 : 0);
                ra_sf_put_item(o, &items[i]);
            }
            ra_sf_put(o, ")", 1);
        } else {
            FZ_CHECK(ra_sf_bare(&c, &v) == RA_OK);
            ra_sf_put_bare(o, &v);
        }
    }
    rc = ra_sf_params(&c, params, 16, &np);
    FZ_CHECK(rc == RA_OK || rc == RA_ELIMIT);
    if (rc != RA_OK) {
        o->over = 1;
        return;
    }
    FZ_CHECK(c.p == c.end);
    ra_sf_put_params(o, params, np);
}

/* Walks the field; its serialisation into o (over when it did not
 * parse or fit).  Returns the walk's result and count. */
static int
walk(ra_str_t s, unsigned flags, int dict, ra_sf_out_t *o, unsigned *count)
{
    ra_sf_cur_t           c;
    ra_sf_member_t        m;
    const unsigned char  *last;
    int                   rc;

    ra_sf_init(&c, s, flags);
    last = s.data;
    while ((rc = dict ? ra_sf_dict_next(&c, &m) : ra_sf_list_next(&c, &m))
           == 1)
    {
        FZ_CHECK(fz_within(m.key, s.data, s.len));
        FZ_CHECK(fz_within(m.value, s.data, s.len));
        FZ_CHECK(fz_within(m.params, s.data, s.len));
        FZ_CHECK(m.key.len > 0 || !dict);
        FZ_CHECK(m.value.data >= last
                 && m.params.data == m.value.data + m.value.len);
        last = m.params.data + m.params.len;
        FZ_CHECK(c.p == last);
        ra_sf_put(o, ", ", c.members > 1 ? 2 : 0);
        put_member(o, &m, flags);
    }
    FZ_CHECK(rc == 0 || (rc == RA_ERROR && c.why != NULL));
    FZ_CHECK(c.p >= c.start && c.p <= c.end);
    *count = c.members;
    if (rc != 0) {
        o->over = 1;
    }
    return rc;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static unsigned char  a[FZ_SF_OUT], b[FZ_SF_OUT];
    ra_sf_out_t           oa = { a, 0, sizeof(a), 0 };
    ra_sf_out_t           ob = { b, 0, sizeof(b), 0 };
    ra_sf_member_t        m[4];
    unsigned              flags, n = 0, count, again;
    int                   dict, rc;
    ra_str_t              s;

    if (size == 0) {
        return 0;
    }
    flags = data[0] & (RA_SF_9651 | RA_SF_BOUNDED);
    dict = !(data[0] & 0x80);
    s = ra_str(data + 1, size - 1);

    rc = walk(s, flags, dict, &oa, &count);
    if (dict) {
        int  whole = ra_sf_dict(s, flags, m, 4, &n);

        if (rc == 0 && count > 0) {
            FZ_CHECK(count <= 4 ? whole == RA_OK && n == count
                                : whole == RA_ELIMIT);
        } else {
            FZ_CHECK(whole == RA_ERROR
                     || (whole == RA_ELIMIT && count >= 4));
        }
    }
    if (oa.over) {
        return 0;
    }
    /* written again, it reads the same */
    rc = walk(ra_str(a, oa.len), flags, dict, &ob, &again);
    FZ_CHECK(rc == 0 && again == count);
    FZ_CHECK(!ob.over && ob.len == oa.len && memcmp(a, b, oa.len) == 0);
    return 0;
}
