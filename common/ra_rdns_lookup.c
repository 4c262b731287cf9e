/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * One reverse-DNS lookup's steps (ra_rdns_lookup.h), the same for
 * nginx's resolver and c-ares: the PTR reply, the forward reply and its
 * addresses, and the result to the engine.
 */
#include <string.h>

#include "ra_rdns_lookup.h"
#include "ra_rdns.h"

void
ra_rdns_lookup_start(ra_rdns_lookup_t *q, const uint8_t addr[16])
{
    memset(q, 0, sizeof(*q));
    memcpy(q->addr, addr, 16);
}

int
ra_rdns_lookup_ptr(ra_rdns_lookup_t *q, ra_rdns_reply_e reply,
    ra_str_t name)
{
    q->ok = reply != RA_RDNS_NO_ANSWER;
    if (reply == RA_RDNS_RECORD && name.len < sizeof(q->name)) {
        memcpy(q->name, name.data, name.len);
        q->name[name.len] = '\0';
    }
    return q->ok && ra_rdns_ptr_forward(ra_str_z(q->name));
}

void
ra_rdns_lookup_reply(ra_rdns_lookup_t *q, ra_rdns_reply_e reply)
{
    if (reply == RA_RDNS_NO_ANSWER) {
        q->ok = 0;                      /* no answer: not a "no" */
    }
}

void
ra_rdns_lookup_fwd(ra_rdns_lookup_t *q, const struct sockaddr *sa)
{
    if (q->nfwd < RA_RDNS_FWD_MAX
        && ra_addr_from_sockaddr(sa, &q->fwd[q->nfwd]) == RA_OK)
    {
        q->nfwd++;
    }
}

void
ra_rdns_lookup_end(const ra_rdns_lookup_t *q, ra_audit_t *au)
{
    if (au != NULL) {
        ra_audit_rdns_done(au, q->addr, q->ok, ra_str_z(q->name), q->fwd,
                           q->nfwd);
    }
}
