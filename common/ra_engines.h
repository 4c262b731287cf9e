/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The engines of one process of a threaded server (Apache's worker and
 * event MPMs).  An engine (ra_audit_t, with its caches) is not
 * thread-safe, so each thread makes its own on its first request, sharing
 * the process's impostor alert gate under a mutex of the process
 * (ra_audit_conf_t.impostors_of); when that engine cannot be made (no
 * memory), the thread judges with the process's engine under the same
 * mutex.  The decision is made here once, so that a server's glue only
 * starts them and takes an engine and gives it back.
 */
#ifndef RA_ENGINES_H
#define RA_ENGINES_H

#include <pthread.h>

#include "ra_audit.h"

typedef struct ra_engines_s  ra_engines_t;

/* The engines of a process whose own engine is proc, made with conf (as
 * proc was) on l; proc, conf and l must outlive them.  NULL when out of
 * memory (the process then judges with proc alone, under no mutex:
 * unthreaded).  The memory is the core's heap (malloc). */
ra_engines_t *ra_engines_create(ra_audit_t *proc, const ra_audit_conf_t *conf,
    ra_ledger_t *l);

/* The engine this thread judges with: its own, or the process's, held
 * under the mutex until ra_engines_give(). */
ra_audit_t *ra_engines_take(ra_engines_t *e);
void ra_engines_give(ra_engines_t *e, ra_audit_t *au);

/* The same where a process may have no engines (unthreaded, or none could
 * be made): e's, or proc itself when e is NULL, with no thread's to look
 * up; ra_engines_give() with a NULL e then gives nothing back. */
ra_audit_t *ra_engines_take_or(ra_engines_t *e, ra_audit_t *proc);

/* A mutex a threaded process's threads queue on before a lock shared
 * with other processes, which they then reach one at a time: adaptive
 * where the C library has one (it spins a little before it sleeps, as
 * each holder keeps it only for a count).  RA_OK, or RA_ERROR. */
int ra_engines_mutex_init(pthread_mutex_t *mu);

/*
 * The ledger's lock of a process whose threads share it with other
 * processes (outer: an APR global mutex, a robust priority-inheriting one
 * whose every contended lock and unlock is a system call: with 64
 * threads, three per request, a fifth of the CPU time under wrk).  Its
 * threads queue on the process's mutex first (queue, made by
 * ra_engines_mutex_init(); queued 1 once it is), so that one thread per
 * process at most waits on outer.  A thread dies only with its process:
 * nothing to recover there.  queued 0 (unthreaded): outer alone.
 */
typedef struct {
    ra_lock_t        outer;
    pthread_mutex_t  queue;
    int              queued;
} ra_engines_lock_t;

/* A host's lock functions (ra_host_t.lock) over the ra_engines_lock_t in
 * ctx. */
void ra_engines_ledger_lock(void *ctx);
void ra_engines_ledger_unlock(void *ctx);

/* Makes lk the ledger's lock of h (ra_host_t.lock) over the server's lock
 * shared with other processes (lock, unlock and ctx: outer's); without
 * the queue until a threaded process starts its engines. */
void ra_engines_lock_init(ra_engines_lock_t *lk, ra_host_t *h,
    void (*lock)(void *ctx), void (*unlock)(void *ctx), void *ctx);

/*
 * A threaded process's engines, started the same in every threaded
 * server: its threads queue on lk's mutex before the ledger's lock, and
 * each judges with its own engine beside proc, the process's (made with
 * conf on l).  RA_OK with *e set, or NULL when the queue could not be
 * made (proc judges alone, as without threads).  RA_ERROR when the
 * engines could not be made, said through h at crit (RA_TAG_MUTEX): that
 * process does not audit, and the caller destroys proc.
 */
int ra_engines_start(ra_engines_t **e, ra_audit_t *proc,
    const ra_audit_conf_t *conf, ra_ledger_t *l, ra_engines_lock_t *lk,
    const ra_host_t *h);

/* Destroys every thread's engine (not the process's, whose gate they
 * share: destroy these first) and e.  NULL is nothing. */
void ra_engines_destroy(ra_engines_t *e);

#endif /* RA_ENGINES_H */
