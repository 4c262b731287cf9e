/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The ledger's page directives: per site, how many answers to crawlers
 * carried each directive under each path prefix, and the conflicts those
 * answers showed, in the bounded tables of ra_pages_t.  The tables keep
 * what came first and count what did not fit, so that a client sending
 * new paths can add to the counts but never push evidence out.
 */
#include "ra_ledger_impl.h"

ra_str_t
ra_page_prefix(ra_str_t path)
{
    size_t  i, end = path.len;

    for (i = 0; i < path.len; i++) {
        if (path.data[i] == '?' || path.data[i] == '#') {
            end = i;
            break;
        }
    }
    if (end == 0 || path.data[0] != '/') {
        return ra_str("/", 1);
    }
    /* the first segment with its slash, when a second one follows */
    for (i = 1; i < end; i++) {
        if (path.data[i] == '/') {
            end = i + 1;
            return ra_str(path.data, end < RA_PAGE_PREFIX_MAX
                                     ? end : RA_PAGE_PREFIX_MAX);
        }
    }
    return ra_str("/", 1);
}

static ra_page_prefix_t *
ra_page_row(ra_pages_t *p, ra_str_t prefix)
{
    uint32_t           i;
    ra_page_prefix_t  *row;

    for (i = 0; i < p->nprefixes && i < RA_PAGE_PREFIXES; i++) {
        row = &p->prefixes[i];
        if (row->len == prefix.len
            && memcmp(row->prefix, prefix.data, prefix.len) == 0)
        {
            return row;
        }
    }
    if (p->nprefixes >= RA_PAGE_PREFIXES) {
        return &p->prefixes[RA_PAGE_PREFIXES];      /* "other" */
    }
    row = &p->prefixes[p->nprefixes++];
    row->len = (uint8_t) prefix.len;
    memcpy(row->prefix, prefix.data, prefix.len);
    return row;
}

static void
ra_page_conflict(ra_pages_t *p, const ra_page_event_t *ev, ra_str_t path,
    int64_t now)
{
    uint32_t             i;
    size_t               clen, plen;
    ra_page_conflict_t  *c;

    if (ev->kind >= RA_PAGE_KINDS) {
        return;
    }
    clen = ev->crawler.len < RA_PAGE_CRAWLER_MAX ? ev->crawler.len
                                                 : RA_PAGE_CRAWLER_MAX;
    plen = path.len < RA_PAGE_PATH_MAX ? path.len : RA_PAGE_PATH_MAX;
    p->kind_total[ev->kind]++;
    for (i = 0; i < p->nconflicts && i < RA_PAGE_CONFLICTS; i++) {
        c = &p->conflicts[i];
        if (c->kind == ev->kind && c->crawler_len == clen
            && c->path_len == plen
            && ra_strcaseeq(ra_str(c->crawler, clen),
                            ra_str(ev->crawler.data, clen))
            && memcmp(c->path, path.data, plen) == 0)
        {
            c->count++;
            c->flags |= ev->flags;
            c->last_seen = now;
            return;
        }
    }
    if (p->nconflicts >= RA_PAGE_CONFLICTS) {
        p->conflicts_unkept[ev->kind]++;
        return;
    }
    c = &p->conflicts[p->nconflicts++];
    memset(c, 0, sizeof(*c));
    c->kind = (uint8_t) ev->kind;
    c->crawler_len = (uint8_t) clen;
    memcpy(c->crawler, ev->crawler.data, clen);
    c->path_len = (uint8_t) plen;
    memcpy(c->path, path.data, plen);
    c->flags = ev->flags;
    c->count = 1;
    c->first_seen = now;
    c->last_seen = now;
}

void
ra_ledger_pages_locked(ra_ledger_t *l, uint32_t site, ra_str_t path,
    uint32_t flags, int scanned, const ra_page_event_t *ev, size_t nev,
    int64_t now)
{
    unsigned           b;
    size_t             i, end;
    ra_site_slot_t    *s = ra_site_at(l, site);
    ra_pages_t        *p;
    ra_page_prefix_t  *row;

    if (s == NULL) {
        return;
    }
    p = &s->pages;
    if (scanned) {
        p->scanned++;
    }
    /* the path without its query: one page, whatever it is asked with */
    for (end = 0; end < path.len && path.data[end] != '?'
                  && path.data[end] != '#'; end++)
    {
        /* nothing */
    }
    path.len = end;
    if (flags != 0) {
        p->answers++;
        row = ra_page_row(p, ra_page_prefix(path));
        row->answers++;
        for (b = 0; b < RA_PAGE_DIRECTIVES; b++) {
            if (flags & (1u << b)) {
                row->counts[b]++;
            }
        }
    }
    for (i = 0; i < nev; i++) {
        ra_page_conflict(p, &ev[i], path, now);
    }
}
