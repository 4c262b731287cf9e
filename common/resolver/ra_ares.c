/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Forward-confirmed reverse-DNS lookups with c-ares (ra_ares.h): a
 * batch of PTR queries, each followed by its name's A and AAAA
 * addresses, run on one channel with a bounded number in flight.
 */
#include <ares.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "ra_ares.h"
#include "ra_rdns.h"

struct ra_ares_s {
    ares_channel  ch;
};

/* a batch of lookups, at most max in flight: each a PTR query, then,
 * for a name, its A and AAAA addresses */
typedef struct ra_ares_batch_s  ra_ares_batch_t;

typedef struct {
    ra_ares_batch_t   *b;
    ra_addr_t          a;
    ra_ares_result_t  *res;
} ra_ares_job_t;

struct ra_ares_batch_s {
    ra_ares_t         *r;
    ra_ares_job_t     *jobs;
    size_t             n, next, done;
    unsigned           inflight, max;
};

static void ra_ares_next(ra_ares_batch_t *b);

ra_ares_t *
ra_ares_create(const char *server, int timeout_ms, char *err, size_t errlen)
{
    ra_ares_t            *r;
    struct ares_options   o;
    int                   rc;
    char                  lookups[] = "b";

    /* reference-counted by c-ares: one per channel */
    if (ares_library_init(ARES_LIB_INIT_ALL) != ARES_SUCCESS) {
        snprintf(err, errlen, "cannot initialise c-ares");
        return NULL;
    }
    r = calloc(1, sizeof(*r));
    if (r == NULL) {
        ares_library_cleanup();
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    memset(&o, 0, sizeof(o));
    o.timeout = timeout_ms > 0 ? timeout_ms : 2000;
    o.tries = 2;
    o.flags = ARES_FLAG_NOSEARCH | ARES_FLAG_NOALIASES;
    o.lookups = lookups;
    rc = ares_init_options(&r->ch, &o, ARES_OPT_TIMEOUTMS | ARES_OPT_TRIES
                                       | ARES_OPT_FLAGS | ARES_OPT_LOOKUPS);
    if (rc != ARES_SUCCESS) {
        snprintf(err, errlen, "c-ares: %s", ares_strerror(rc));
        free(r);
        ares_library_cleanup();
        return NULL;
    }
    if (server != NULL && server[0] != '\0') {
        rc = ares_set_servers_ports_csv(r->ch, server);
        if (rc != ARES_SUCCESS) {
            snprintf(err, errlen, "bad resolver address '%s' (ADDR, "
                     "ADDR:PORT or [IPV6]:PORT): %s", server,
                     ares_strerror(rc));
            ares_destroy(r->ch);
            free(r);
            ares_library_cleanup();
            return NULL;
        }
    }
    return r;
}

void
ra_ares_destroy(ra_ares_t *r)
{
    if (r != NULL) {
        ares_destroy(r->ch);
        free(r);
        ares_library_cleanup();
    }
}

int
ra_ares_check(const char *server, char *err, size_t errlen)
{
    ra_ares_t  *r = ra_ares_create(server, 1000, err, errlen);

    ra_ares_destroy(r);
    return r != NULL ? RA_OK : RA_ERROR;
}

/* runs the channel until the batch is done or nothing is left */
static void
ra_ares_run(ra_ares_t *r, ra_ares_batch_t *q)
{
    ares_socket_t   socks[ARES_GETSOCK_MAXNUM];
    struct pollfd   pfd[ARES_GETSOCK_MAXNUM];
    struct timeval  tv, *tvp;
    int             bits, i, n, ms;
    unsigned        rd, wr;

    while (q->done < q->n) {
        bits = ares_getsock(r->ch, socks, ARES_GETSOCK_MAXNUM);
        n = 0;
        /* c-ares's ARES_GETSOCK_WRITABLE(bits, 15) shifts an int by
         * 31: the bits are read unsigned here */
        for (i = 0; i < ARES_GETSOCK_MAXNUM; i++) {
            rd = ((unsigned) bits >> i) & 1u;
            wr = ((unsigned) bits >> (i + ARES_GETSOCK_MAXNUM)) & 1u;
            if (!rd && !wr) {
                continue;
            }
            pfd[n].fd = socks[i];
            pfd[n].events = (short) ((rd ? POLLIN : 0) | (wr ? POLLOUT : 0));
            pfd[n].revents = 0;
            n++;
        }
        tvp = ares_timeout(r->ch, NULL, &tv);
        if (n == 0 && tvp == NULL) {
            break;                      /* nothing in flight */
        }
        ms = tvp ? (int) (tvp->tv_sec * 1000 + tvp->tv_usec / 1000) : 1000;
        (void) poll(pfd, (nfds_t) n, ms);
        for (i = 0; i < n; i++) {
            ares_process_fd(r->ch,
                (pfd[i].revents & (POLLIN | POLLERR | POLLHUP))
                    ? pfd[i].fd : ARES_SOCKET_BAD,
                (pfd[i].revents & POLLOUT) ? pfd[i].fd : ARES_SOCKET_BAD);
        }
        if (n == 0) {
            ares_process_fd(r->ch, ARES_SOCKET_BAD, ARES_SOCKET_BAD);
        }
    }
}

static void
ra_ares_job_done(ra_ares_job_t *j)
{
    j->b->done++;
    j->b->inflight--;
    ra_ares_next(j->b);
}

static void
ra_ares_ai_cb(void *arg, int status, int timeouts,
    struct ares_addrinfo *ai)
{
    ra_ares_job_t              *j = arg;
    struct ares_addrinfo_node  *nd;

    (void) timeouts;
    if (status != ARES_SUCCESS || ai == NULL) {
        ra_rdns_lookup_reply(j->res, status == ARES_ENOTFOUND
                                     || status == ARES_ENODATA
                                     ? RA_RDNS_NO_RECORD : RA_RDNS_NO_ANSWER);
    } else {
        for (nd = ai->nodes; nd != NULL; nd = nd->ai_next) {
            ra_rdns_lookup_fwd(j->res, nd->ai_addr);
        }
    }
    if (ai != NULL) {
        ares_freeaddrinfo(ai);
    }
    ra_ares_job_done(j);
}

/* the PTR answer: ares_query() keeps "no answer" (timeout, refused,
 * SERVFAIL) apart from "no PTR" (NXDOMAIN, NODATA), which
 * ares_gethostbyaddr() folds together; a name is then resolved forward
 * when ra_rdns_ptr_forward() says so, absolute (no search list) */
static void
ra_ares_ptr_cb(void *arg, int status, int timeouts, unsigned char *abuf,
    int alen)
{
    ra_ares_job_t               *j = arg;
    ra_ares_result_t            *res = j->res;
    struct hostent              *h = NULL;
    struct ares_addrinfo_hints   hints;
    ra_rdns_reply_e              reply = RA_RDNS_NO_ANSWER;
    int                          fwd;
    char                         fq[258];

    (void) timeouts;
    if (status == ARES_ENOTFOUND || status == ARES_ENODATA) {
        reply = RA_RDNS_NO_RECORD;      /* an answer: no PTR */
    } else if (status == ARES_SUCCESS) {
        status = ares_parse_ptr_reply(abuf, alen, NULL, 0, AF_INET, &h);
        if (status == ARES_SUCCESS && h != NULL && h->h_name != NULL) {
            reply = RA_RDNS_RECORD;
        } else if (status == ARES_ENODATA) {
            reply = RA_RDNS_NO_RECORD;
        }
    }
    fwd = ra_rdns_lookup_ptr(res, reply, reply == RA_RDNS_RECORD
                             ? ra_str_z(h->h_name) : ra_str(NULL, 0));
    if (h != NULL) {
        ares_free_hostent(h);
    }
    if (!fwd) {
        ra_ares_job_done(j);
        return;
    }
    snprintf(fq, sizeof(fq), "%s%s", res->name,
             res->name[strlen(res->name) - 1] == '.' ? "" : ".");
    memset(&hints, 0, sizeof(hints));
    hints.ai_family = AF_UNSPEC;
    hints.ai_flags = ARES_AI_NOSORT;
    ares_getaddrinfo(j->b->r->ch, fq, NULL, &hints, ra_ares_ai_cb, j);
}

/* "4.3.2.1.in-addr.arpa", "b.a.9...ip6.arpa" */
static void
ra_ares_arpa(const ra_addr_t *a, char *out, size_t cap)
{
    static const char  hex[] = "0123456789abcdef";
    size_t             o = 0;
    int                i;

    if (ra_addr_is_v4(a)) {
        snprintf(out, cap, "%u.%u.%u.%u.in-addr.arpa", a->b[15], a->b[14],
                 a->b[13], a->b[12]);
        return;
    }
    for (i = 15; i >= 0 && o + 4 < cap; i--) {
        out[o++] = hex[a->b[i] & 15];
        out[o++] = '.';
        out[o++] = hex[a->b[i] >> 4];
        out[o++] = '.';
    }
    snprintf(out + o, cap - o, "ip6.arpa");
}

/* starts jobs while there is room (a job's callback may run at once,
 * inside ares_query(): the counts move before the call) */
static void
ra_ares_next(ra_ares_batch_t *b)
{
    ra_ares_job_t  *j;
    char            arpa[80];

    while (b->inflight < b->max && b->next < b->n) {
        j = &b->jobs[b->next++];
        b->inflight++;
        ra_rdns_lookup_start(j->res, j->a.b);
        ra_ares_arpa(&j->a, arpa, sizeof(arpa));
        ares_query(b->r->ch, arpa, 1 /* C_IN */, 12 /* T_PTR */,
                   ra_ares_ptr_cb, j);
    }
}

int
ra_ares_lookup_many(ra_ares_t *r, const ra_addr_t *a, size_t n,
    ra_ares_result_t *res, unsigned max)
{
    ra_ares_batch_t  b;
    size_t           i;

    if (n == 0) {
        return RA_OK;
    }
    b.jobs = calloc(n, sizeof(*b.jobs));
    if (b.jobs == NULL) {
        return RA_ENOMEM;
    }
    b.r = r;
    b.n = n;
    b.next = b.done = 0;
    b.inflight = 0;
    b.max = max ? max : 1;
    for (i = 0; i < n; i++) {
        b.jobs[i].b = &b;
        b.jobs[i].a = a[i];
        b.jobs[i].res = &res[i];
    }
    ra_ares_next(&b);
    ra_ares_run(r, &b);
    if (b.done < b.n) {
        b.next = b.n;                   /* start nothing more */
        ares_cancel(r->ch);             /* callbacks run: jobs end */
    }
    free(b.jobs);
    return RA_OK;
}

void
ra_ares_lookup(ra_ares_t *r, const ra_addr_t *a, ra_ares_result_t *res)
{
    ra_rdns_lookup_start(res, a->b);
    (void) ra_ares_lookup_many(r, a, 1, res, 1);
}
