/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A site's sitemaps in the ledger (ra_sitemaps_t, ra_ledger.h): the list
 * its robots.txt in force gives on Sitemap: lines, which request is a
 * fetch of one of them, and what crawlers got when they fetched one (who,
 * when, the status and size, the lint of the answer).  Everything here is
 * plain data in a set of the sitemap table (ra_sm_set_t), changed under
 * the lock.
 */
#include <string.h>

#include "ra_ledger_impl.h"

_Static_assert(RA_SITEMAPS <= 255 && RA_SITEMAP_URL_MAX <= 255
               && RA_SITEMAP_EX_URL_MAX <= 255 && RA_SITEMAP_EX_MAX <= 255,
               "lengths fit a byte");

/* The site's set, NULL when it has none (or lost it to another site). */
static ra_sm_set_t *
ra_sm_set_of(const ra_ledger_t *l, uint32_t site)
{
    ra_sm_set_t     *x;
    ra_site_slot_t  *s = ra_site_at(l, site);

    if (s == NULL || s->sitemaps == 0 || s->sitemaps > l->hdr->sm_sets) {
        return NULL;
    }
    x = &RA_SM_SETS(l)[s->sitemaps - 1];
    return x->site == site && x->epoch == s->epoch ? x : NULL;
}

/* Is the set some site's? */
static int
ra_sm_set_taken(const ra_ledger_t *l, const ra_sm_set_t *x, uint32_t id)
{
    ra_site_slot_t  *s = ra_site_at(l, x->site);

    return s != NULL && s->used && s->epoch == x->epoch && s->sitemaps == id;
}

/* The site's set, taken (a free one, else the one touched longest ago)
 * when it has none. */
static ra_sm_set_t *
ra_sm_set_take(const ra_ledger_t *l, uint32_t site, int64_t now)
{
    uint32_t         i, pick = 0;
    ra_sm_set_t     *x = ra_sm_set_of(l, site), *sets = RA_SM_SETS(l);
    ra_site_slot_t  *s = ra_site_at(l, site);

    if (x != NULL || s == NULL) {
        return x;
    }
    for (i = 0; i < l->hdr->sm_sets; i++) {
        if (!ra_sm_set_taken(l, &sets[i], i + 1)) {
            pick = i + 1;
            break;
        }
        if (pick == 0 || sets[i].touched < sets[pick - 1].touched) {
            pick = i + 1;
        }
    }
    if (pick == 0) {
        return NULL;
    }
    x = &sets[pick - 1];
    /* the owner last: a set half made is nobody's */
    x->site = 0;
    memset(&x->maps, 0, sizeof(x->maps));
    x->touched = now;
    x->epoch = s->epoch;
    x->site = site;
    s->sitemaps = pick;
    return x;
}

/* The host of an authority ("Example.com:8080" -> "Example.com"). */
static ra_str_t
ra_sm_host(ra_str_t a)
{
    size_t  i;

    if (a.len && a.data[0] == '[') {
        for (i = 0; i < a.len && a.data[i] != ']'; i++) {
            /* void */
        }
        return ra_str(a.data, i < a.len ? i + 1 : a.len);
    }
    for (i = 0; i < a.len && a.data[i] != ':'; i++) {
        /* void */
    }
    return ra_str(a.data, i);
}

/*
 * Does a request for target (origin-form, as received) with this Host
 * fetch the sitemap at url?  An absolute URL: its host (ports aside, any
 * case) and its path and query, byte for byte; a path alone (a sitemap
 * robots.txt does not list): the path.
 */
static int
ra_sm_same(ra_str_t url, ra_str_t host, ra_str_t target)
{
    size_t    s, i;
    ra_str_t  auth;

    /* the path ends the URL, and most requests are for no sitemap: their
     * paths' tails decide first ("/" alone may be a URL's empty path) */
    if (target.len > 1
        && (url.len < target.len
            || memcmp(url.data + url.len - target.len, target.data,
                      target.len) != 0))
    {
        return 0;
    }
    if (url.len && url.data[0] == '/') {
        return url.len == target.len
               && memcmp(url.data, target.data, url.len) == 0;
    }
    if (ra_startswith_ci(url, "http://")) {
        s = 7;
    } else if (ra_startswith_ci(url, "https://")) {
        s = 8;
    } else {
        return 0;
    }
    for (i = s; i < url.len && url.data[i] != '/' && url.data[i] != '?';
         i++)
    {
        /* void */
    }
    auth = ra_str(url.data + s, i - s);
    url = ra_str(url.data + i, url.len - i);
    if (url.len == 0) {
        url = ra_str("/", 1);
    }
    if (host.len && !ra_strcaseeq(ra_sm_host(auth), ra_sm_host(host))) {
        return 0;
    }
    return url.len == target.len
           && memcmp(url.data, target.data, url.len) == 0;
}

int
ra_sitemaps_match(const ra_sitemaps_t *m, ra_str_t host, ra_str_t target)
{
    uint32_t  k;

    for (k = 0; k < m->n && k < RA_SITEMAPS; k++) {
        if (ra_sm_same(ra_str(m->maps[k].url,
                              m->maps[k].url_len < RA_SITEMAP_URL_MAX
                              ? m->maps[k].url_len : RA_SITEMAP_URL_MAX),
                       host, target))
        {
            return (int) k;
        }
    }
    return -1;
}

/* The well-known places crawlers try when robots.txt names none. */
static int
ra_sm_fallback(ra_str_t target)
{
    return (target.len == 12 && memcmp(target.data, "/sitemap.xml", 12) == 0)
           || (target.len == 18
               && memcmp(target.data, "/sitemap_index.xml", 18) == 0);
}

int
ra_ledger_sitemap_find_locked(ra_ledger_t *l, uint32_t site, ra_str_t host,
    ra_str_t target, ra_str_t *url, int64_t now)
{
    int             k;
    uint32_t        i;
    ra_sitemap_t   *sm;
    ra_sm_set_t    *x = ra_sm_set_of(l, site);

    k = x != NULL ? ra_sitemaps_match(&x->maps, host, target) : -1;
    if (k < 0 && ra_sm_fallback(target)) {
        for (i = 0; x != NULL && i < x->maps.n; i++) {
            if (x->maps.maps[i].listed) {
                return -1;              /* robots.txt names its own */
            }
        }
        x = ra_sm_set_take(l, site, now);
        if (x == NULL || x->maps.n >= RA_SITEMAPS) {
            return -1;
        }
        sm = &x->maps.maps[x->maps.n];
        memset(sm, 0, sizeof(*sm));
        memcpy(sm->url, target.data, target.len);
        sm->url_len = (uint8_t) target.len;
        k = (int) x->maps.n++;
    }
    if (k >= 0) {
        x->touched = now;
        sm = &x->maps.maps[k];
        *url = ra_str(sm->url, sm->url_len < RA_SITEMAP_URL_MAX
                               ? sm->url_len : RA_SITEMAP_URL_MAX);
    }
    return k;
}

int
ra_ledger_sitemaps_known_locked(const ra_ledger_t *l, uint32_t site,
    uint64_t version)
{
    ra_sm_set_t     *x = ra_sm_set_of(l, site);
    ra_site_slot_t  *s = ra_site_at(l, site);

    return s == NULL || s->nversions == 0 || s->current >= RA_VERSIONS
           || s->versions[s->current].hash != version
           || (x != NULL && x->maps.version == version);
}

void
ra_ledger_sitemaps_list_locked(ra_ledger_t *l, uint32_t site,
    uint64_t version, const ra_str_t *urls, uint32_t n, uint32_t lines,
    int64_t now)
{
    uint32_t         i, j, kept;
    ra_sitemaps_t   *m;
    ra_sitemap_t     old[RA_SITEMAPS];
    uint32_t         nold;
    ra_sm_set_t     *x = ra_sm_set_of(l, site);

    /* only the file in force lists them (a 5xx keeps the last one) */
    if (ra_ledger_sitemaps_known_locked(l, site, version)) {
        return;
    }
    if (x == NULL && n == 0) {
        return;                         /* nothing to keep: no set taken */
    }
    x = x != NULL ? x : ra_sm_set_take(l, site, now);
    if (x == NULL) {
        return;
    }
    x->touched = now;
    m = &x->maps;
    nold = m->n < RA_SITEMAPS ? m->n : RA_SITEMAPS;
    memcpy(old, m->maps, nold * sizeof(old[0]));
    kept = 0;
    /* the listed ones first, in the file's order, with what is known of
     * them; then those fetched before that are listed no more */
    for (i = 0; i < n && kept < RA_SITEMAPS; i++) {
        if (urls[i].len == 0 || urls[i].len >= RA_SITEMAP_URL_MAX) {
            continue;
        }
        for (j = 0; j < nold; j++) {
            if (old[j].url_len == urls[i].len
                && memcmp(old[j].url, urls[i].data, urls[i].len) == 0)
            {
                break;
            }
        }
        if (j < nold) {
            m->maps[kept] = old[j];
            old[j].url_len = 0;         /* taken */
        } else {
            memset(&m->maps[kept], 0, sizeof(m->maps[kept]));
            memcpy(m->maps[kept].url, urls[i].data, urls[i].len);
            m->maps[kept].url_len = (uint8_t) urls[i].len;
        }
        m->maps[kept++].listed = 1;
    }
    for (j = 0; j < nold && kept < RA_SITEMAPS; j++) {
        if (old[j].url_len && old[j].fetches) {
            m->maps[kept] = old[j];
            m->maps[kept++].listed = 0;
        }
    }
    m->n = kept;
    m->lines = lines;
    m->version = version;
}

static void
ra_sm_crawler(ra_sitemap_t *sm, ra_str_t name)
{
    unsigned  i, n = sm->ncrawlers < RA_SITEMAP_CRAWLERS ? sm->ncrawlers
                                                         : RA_SITEMAP_CRAWLERS;

    if (name.len > RA_SITEMAP_NAME_MAX) {
        name.len = RA_SITEMAP_NAME_MAX;
    }
    /* the last ones, newest first, each once */
    for (i = 0; i < n; i++) {
        if (sm->crawler_len[i] == name.len
            && memcmp(sm->crawlers[i], name.data, name.len) == 0)
        {
            break;
        }
    }
    if (i == n) {
        i = n < RA_SITEMAP_CRAWLERS ? n++ : RA_SITEMAP_CRAWLERS - 1;
    }
    memmove(sm->crawlers[1], sm->crawlers[0],
            (size_t) i * RA_SITEMAP_NAME_MAX);
    memmove(&sm->crawler_len[1], &sm->crawler_len[0], i);
    memcpy(sm->crawlers[0], name.data, name.len);
    sm->crawler_len[0] = (uint8_t) name.len;
    sm->ncrawlers = (uint8_t) n;
}

void
ra_ledger_sitemap_fetch_locked(ra_ledger_t *l, uint32_t site, ra_str_t url,
    ra_str_t crawler, const ra_sitemap_t *got, int64_t now)
{
    int              k = -1;
    uint32_t         i;
    ra_sitemap_t    *sm;
    ra_sm_set_t     *x = ra_sm_set_of(l, site);

    for (i = 0; x != NULL && i < x->maps.n && i < RA_SITEMAPS; i++) {
        if (x->maps.maps[i].url_len == url.len
            && memcmp(x->maps.maps[i].url, url.data, url.len) == 0)
        {
            k = (int) i;
            break;
        }
    }
    if (k < 0) {
        return;                 /* listed no more since the request came */
    }
    x->touched = now;
    sm = &x->maps.maps[k];
    sm->fetches++;
    if (sm->first == 0) {
        sm->first = now;
    }
    sm->last = now;
    sm->status = got->status;
    sm->size = got->size;
    ra_sm_crawler(sm, crawler);
    if (got->linted) {
        sm->linted = 1;
        sm->lint_time = now;
        sm->gzip = got->gzip;
        sm->complete = got->complete;
        sm->kind = got->kind;
        sm->urls = got->urls;
        memcpy(sm->counts, got->counts, sizeof(sm->counts));
        sm->nexamples = got->nexamples;
        memcpy(sm->examples, got->examples, sizeof(sm->examples));
    }
}

void
ra_ledger_sitemaps_copy(const ra_ledger_t *l, uint32_t site,
    ra_sitemaps_t *out)
{
    uint32_t       k, i;
    ra_sitemap_t  *sm;
    ra_sm_set_t   *x = ra_sm_set_of(l, site);

    if (x == NULL) {
        memset(out, 0, sizeof(*out));
        return;
    }
    memcpy(out, &x->maps, sizeof(*out));
    out->n = out->n < RA_SITEMAPS ? out->n : RA_SITEMAPS;
    /* a process that died in a change may have left a length too long */
    for (k = 0; k < out->n; k++) {
        sm = &out->maps[k];
        if (sm->url_len > RA_SITEMAP_URL_MAX) {
            sm->url_len = RA_SITEMAP_URL_MAX;
        }
        if (sm->ncrawlers > RA_SITEMAP_CRAWLERS) {
            sm->ncrawlers = RA_SITEMAP_CRAWLERS;
        }
        for (i = 0; i < RA_SITEMAP_CRAWLERS; i++) {
            if (sm->crawler_len[i] > RA_SITEMAP_NAME_MAX) {
                sm->crawler_len[i] = RA_SITEMAP_NAME_MAX;
            }
        }
        if (sm->nexamples > RA_SITEMAP_EXAMPLES) {
            sm->nexamples = RA_SITEMAP_EXAMPLES;
        }
        for (i = 0; i < RA_SITEMAP_EXAMPLES; i++) {
            if (sm->examples[i].url_len > RA_SITEMAP_EX_URL_MAX) {
                sm->examples[i].url_len = RA_SITEMAP_EX_URL_MAX;
            }
            if (sm->examples[i].detail_len > RA_SITEMAP_EX_MAX) {
                sm->examples[i].detail_len = RA_SITEMAP_EX_MAX;
            }
        }
    }
}

ra_str_t
ra_ledger_rules_body_locked(const ra_ledger_t *l, uint32_t site)
{
    ra_site_slot_t  *s = ra_site_at(l, site);

    if (s == NULL || s->current >= RA_VERSIONS || s->nversions == 0
        || ra_answer_of_status(s->versions[s->current].status)
           != RA_ANSWER_RULES)
    {
        return ra_str("", 0);
    }
    return ra_ledger_body_locked(l, site, s->current);
}
