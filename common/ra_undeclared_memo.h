/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What one process keeps between browsers' requests for the
 * undeclared-crawler step (ra_audit_undeclared()), so that a request finds
 * its site, the robots.txt version in force there and the site's table in
 * the ledger's region by a compare each, not by a lower-casing, a hash and
 * a walk under the lock every time; and its client's address without
 * parsing it and searching the cloud ranges again; and the paths the
 * robots.txt in force allowed, without matching them again.  Every entry is
 * checked against what the ledger says now before it is believed (the
 * site's epoch, its change count, the table slot's generation), so that a
 * change another process made is seen at once.  Private to the engine: the
 * engine's own header (ra_audit_impl.h) holds it in ra_audit_t.
 */
#ifndef RA_UNDECLARED_MEMO_H
#define RA_UNDECLARED_MEMO_H

#include "ra_ledger.h"
#include "ra_verify.h"

#define RA_UNDECL_MEMO_SITES    4       /* a power of two */
#define RA_UNDECL_MEMO_ADDRS    8       /* a power of two */
#define RA_UNDECL_MEMO_TEXT     46      /* INET6_ADDRSTRLEN - 1 */
#define RA_UNDECL_MEMO_PATHS    64      /* a power of two */
#define RA_UNDECL_MEMO_PATH     128     /* bytes of a path kept (longer
                                           ones are matched each time) */

/* A site as this process found it last, by the name's bytes as requests
 * give it */
typedef struct {
    uint32_t           site;            /* the ledger's id; 0: none */
    uint32_t           epoch;           /* ra_ledger_site_epoch_locked() */
    uint32_t           facts_at;        /* the site's change count at which
                                           current was read
                                           (ra_ledger_site_facts_at_locked());
                                           0: not read */
    uint32_t           slot;            /* its table's slot ... */
    uint32_t           slot_gen;        /* ... and generation; 0: none */
    uint16_t           len;             /* 0: empty */
    ra_version_fact_t  current;         /* the version in force; hash 0:
                                           none */
    unsigned char      name[RA_SITE_NAME_MAX];
} ra_undecl_memo_site_t;

/* A client's address as requests give it, parsed, and whether it lies in
 * the cloud ranges (the engine's: they do not change while it lives) */
typedef struct {
    ra_addr_t      addr;
    uint8_t        len;                 /* 0: empty */
    uint8_t        cloud;
    unsigned char  text[RA_UNDECL_MEMO_TEXT];
} ra_undecl_memo_addr_t;

/* A path the '*' group of a version allowed (the version's hash names
 * its bytes, so that another site's same file answers alike): its match
 * is not made again.  A disallowed path is matched each time, for the
 * rule and line its evidence names.  The path's bytes are kept and
 * compared, not its hash alone: a client could choose a disallowed path
 * whose hash is an allowed one's, and be judged compliant. */
typedef struct {
    uint64_t       version;             /* 0: empty */
    uint64_t       hash;                /* ra_ua_hash() of the path */
    uint16_t       len;
    unsigned char  text[RA_UNDECL_MEMO_PATH];
} ra_undecl_memo_path_t;

typedef struct {
    ra_undecl_memo_site_t  site[RA_UNDECL_MEMO_SITES];
    ra_undecl_memo_addr_t  addr[RA_UNDECL_MEMO_ADDRS];
    ra_undecl_memo_path_t  path[RA_UNDECL_MEMO_PATHS];
} ra_undecl_memo_t;

#endif /* RA_UNDECLARED_MEMO_H */
