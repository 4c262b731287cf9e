/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The robots meta tags of an HTML head, found by one bounded scan: at
 * most RA_PD_SCAN bytes, each looked at a small constant number of times
 * (comments, scripts and styles are skipped by a forward search for
 * their end, tags are read attribute by attribute), so that a hostile
 * page costs no more than a plain one of the same size.  No tree is
 * built and nothing is allocated; the lists found are parsed by
 * ra_pagedir.c.
 */
#include "ra_pagedir.h"

typedef struct {
    const unsigned char  *p, *end;
} ra_hcur_t;

/* Does the text at p start with the lower-case word w of n bytes (any
 * case)?  The length is the caller's (RA_H_IS()): no strlen a test. */
static int
ra_h_is(const ra_hcur_t *c, const unsigned char *p, const char *w, size_t n)
{
    size_t  i;

    if ((size_t) (c->end - p) < n) {
        return 0;
    }
    for (i = 0; i < n; i++) {
        if (ra_lower(p[i]) != (unsigned char) w[i]) {
            return 0;
        }
    }
    return 1;
}

#define RA_H_IS(c, p, w)  ra_h_is(c, p, w, sizeof(w) - 1)

/* After the first occurrence of w (lower case, any case in the text) at
 * or after p; the end when there is none. */
static const unsigned char *
ra_h_past(const ra_hcur_t *c, const unsigned char *p, const char *w,
    size_t n)
{
    const unsigned char  *q;

    for (q = p; q < c->end; q++) {
        q = memchr(q, w[0], (size_t) (c->end - q));
        if (q == NULL) {
            break;
        }
        if (ra_h_is(c, q, w, n)) {
            return q + n;
        }
    }
    return c->end;
}

/* Does a tag name end at p (white space, '/', '>' or the end)? */
static int
ra_h_name_end(const ra_hcur_t *c, const unsigned char *p)
{
    return p >= c->end || ra_isspace(*p) || *p == '/' || *p == '>';
}

/*
 * Reads the attributes of a tag from c->p up to its '>' (c->p is left
 * after it); name and content of a meta tag are kept.
 */
static void
ra_h_attrs(ra_hcur_t *c, ra_str_t *name, ra_str_t *content)
{
    const unsigned char  *p = c->p, *a, *v;
    size_t                alen;
    ra_str_t              value;

    for (;;) {
        while (p < c->end && (ra_isspace(*p) || *p == '/')) {
            p++;
        }
        if (p >= c->end || *p == '>') {
            break;
        }
        a = p;
        while (p < c->end && !ra_isspace(*p) && *p != '=' && *p != '>'
               && *p != '/')
        {
            p++;
        }
        alen = (size_t) (p - a);
        while (p < c->end && ra_isspace(*p)) {
            p++;
        }
        value = ra_str("", 0);
        if (p < c->end && *p == '=') {
            p++;
            while (p < c->end && ra_isspace(*p)) {
                p++;
            }
            if (p < c->end && (*p == '"' || *p == '\'')) {
                int  q = *p++;

                v = p;
                p = memchr(p, q, (size_t) (c->end - p));
                if (p == NULL) {
                    p = c->end;
                }
                value = ra_str(v, (size_t) (p - v));
                if (p < c->end) {
                    p++;
                }
            } else {
                v = p;
                while (p < c->end && !ra_isspace(*p) && *p != '>') {
                    p++;
                }
                value = ra_str(v, (size_t) (p - v));
                if (value.len && p < c->end && *p == '>'
                    && v[value.len - 1] == '/')
                {
                    value.len--;        /* content=noindex/> */
                }
            }
        }
        if (alen == 4 && RA_H_IS(c, a, "name")) {
            *name = value;
        } else if (alen == 7 && RA_H_IS(c, a, "content")) {
            *content = value;
        }
    }
    c->p = p < c->end ? p + 1 : c->end;
}

/* Is list made of directives only (and at least one)? */
static int
ra_h_directives_only(ra_str_t list)
{
    ra_pd_set_t  set;

    memset(&set, 0, sizeof(set));
    ra_pagedir_list(&set, list);
    return set.flags != 0 && set.unknown == 0;
}

static void
ra_h_meta(ra_pagedir_t *pd, ra_str_t name, ra_str_t content)
{
    size_t  i;

    name = ra_space_trim(name);
    if (name.len == 0 || content.data == NULL) {
        return;
    }
    if (ra_strcaseeq(name, ra_str("robots", 6))) {
        pd->metas++;
        (void) ra_pagedir_add(pd, RA_PD_META, ra_str("", 0), content);
        return;
    }
    for (i = 0; i < name.len; i++) {
        if (!ra_isalpha(name.data[i]) && !ra_isdigit(name.data[i])
            && name.data[i] != '-' && name.data[i] != '_')
        {
            return;
        }
    }
    if (ra_h_directives_only(content)) {
        pd->metas++;
        (void) ra_pagedir_add(pd, RA_PD_META, name, content);
    }
}

/* Skips past the end of what w (a literal) opens: a comment, a script,
 * a style. */
#define RA_H_PAST(c, p, w)  ra_h_past(c, p, w, sizeof(w) - 1)

int
ra_pagedir_html(ra_pagedir_t *pd, ra_str_t html)
{
    ra_hcur_t             c;
    const unsigned char  *lt;
    ra_str_t              name, content;

    c.p = html.data;
    c.end = html.data + (html.len > RA_PD_SCAN ? RA_PD_SCAN : html.len);
    while (c.p < c.end) {
        lt = memchr(c.p, '<', (size_t) (c.end - c.p));
        if (lt == NULL) {
            break;
        }
        c.p = lt + 1;
        /* the byte after '<' picks the one or two words to test */
        switch (c.p < c.end ? ra_lower(*c.p) : 0) {
        case '!':
            if (RA_H_IS(&c, c.p, "!--")) {
                c.p = RA_H_PAST(&c, c.p + 3, "-->");
            }
            break;
        case '/':
            if (RA_H_IS(&c, c.p, "/head")) {
                return 1;
            }
            break;
        case 'b':
            if (RA_H_IS(&c, c.p, "body") && ra_h_name_end(&c, c.p + 4)) {
                return 1;
            }
            break;
        case 'm':
            if (RA_H_IS(&c, c.p, "meta") && ra_h_name_end(&c, c.p + 4)) {
                c.p += 4;
                name = ra_str(NULL, 0);
                content = ra_str(NULL, 0);
                ra_h_attrs(&c, &name, &content);
                if (content.data == NULL) {
                    content = ra_str("", 0);
                }
                ra_h_meta(pd, name, content);
            }
            break;
        case 's':
            if (RA_H_IS(&c, c.p, "script") && ra_h_name_end(&c, c.p + 6)) {
                c.p = RA_H_PAST(&c, c.p + 6, "</script");
            } else if (RA_H_IS(&c, c.p, "style")
                       && ra_h_name_end(&c, c.p + 5))
            {
                c.p = RA_H_PAST(&c, c.p + 5, "</style");
            }
            break;
        }
    }
    if (html.len > RA_PD_SCAN) {
        pd->scan_cut = 1;
    }
    return 0;
}
