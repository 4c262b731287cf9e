/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The page directives in the reports (docs/page-directives.md): per site,
 * the directives the answers to crawlers carried, counted by path prefix,
 * and the conflicts they showed with robots.txt and between their
 * sources, in each format: sites[].page_directives and sites[].conflicts[]
 * in JSON, a "page directives" heading in text and HTML, the family
 * robots_audit_conflicts in Prometheus.  Each format's report calls its
 * function here at one place.  Everything printed comes from the ledger's
 * bounded tables (ra_pages_t), so the output is bounded too.
 */
#include "ra_report_impl.h"
#include "ra_pagedir.h"

static int
ra_rep_pages_any(const ra_pages_t *p)
{
    return p->answers != 0 || p->scanned != 0 || p->nconflicts != 0;
}

static uint32_t
ra_rep_pages_nconflicts(const ra_pages_t *p)
{
    return p->nconflicts < RA_PAGE_CONFLICTS ? p->nconflicts
                                             : RA_PAGE_CONFLICTS;
}

/* Row i of the prefixes (i == RA_PAGE_PREFIXES: "other"), NULL when it
 * counted nothing */
static const ra_page_prefix_t *
ra_rep_pages_row(const ra_pages_t *p, uint32_t i, ra_str_t *prefix)
{
    const ra_page_prefix_t  *row = &p->prefixes[i];

    if (row->answers == 0) {
        return NULL;
    }
    *prefix = i == RA_PAGE_PREFIXES
              ? ra_str("other", 5)
              : ra_str(row->prefix, row->len < RA_PAGE_PREFIX_MAX
                                    ? row->len : RA_PAGE_PREFIX_MAX);
    return row;
}

static ra_str_t
ra_rep_pages_crawler(const ra_page_conflict_t *c)
{
    return ra_str(c->crawler, c->crawler_len < RA_PAGE_CRAWLER_MAX
                              ? c->crawler_len : RA_PAGE_CRAWLER_MAX);
}

static ra_str_t
ra_rep_pages_path(const ra_page_conflict_t *c)
{
    return ra_str(c->path, c->path_len < RA_PAGE_PATH_MAX
                           ? c->path_len : RA_PAGE_PATH_MAX);
}

/*
 * How one format writes the two tables' rows: the literal pieces around
 * each field, and how text is escaped.  The three formats print the same
 * fields in the same order, so one printer serves them all.
 */
typedef struct {
    const char  *row[4];        /* prefix rows: before the prefix, before
                                   the answers, before the directives, at
                                   the end */
    const char  *count_sep;     /* a directive's name and count */
    const char  *row_sep;       /* between two directives of a row */
    const char  *name_sep;      /* between two directives of a conflict */
    const char  *conflict[8];   /* conflict rows: before the kind, the
                                   crawler, the path, the directives, the
                                   count, first_seen, last_seen; the end */
    int          quoted;        /* names in quotes (JSON) */
    void       (*esc)(ra_buf_t *b, ra_str_t s);
} ra_rep_pages_fmt_t;

static const ra_rep_pages_fmt_t  ra_rep_pages_json_fmt = {
    { "{\"prefix\":", ",\"answers\":", ",\"directives\":{", "}}" },
    ":", ",", ",",
    { "{\"kind\":\"", "\",\"crawler\":", ",\"path\":", ",\"directives\":[",
      "],\"count\":", ",\"first_seen\":\"", "\",\"last_seen\":\"", "\"}" },
    1, ra_buf_json_str
};

static const ra_rep_pages_fmt_t  ra_rep_pages_text_fmt = {
    { "    ", "  answers ", ": ", "\n" },
    " ", " ", ", ",
    { "    conflict ", ": ", " ", " (", ") count ", ", first ", ", last ",
      "\n" },
    0, ra_buf_log
};

static const ra_rep_pages_fmt_t  ra_rep_pages_html_fmt = {
    { "<tr><td>", "</td><td>", "</td><td>", "</td></tr>" },
    " ", ", ", ", ",
    { "<tr><td>", "</td><td>", "</td><td>", "</td><td>", "</td><td>",
      "</td><td>", "</td><td>", "</td></tr>" },
    0, ra_buf_html
};

/* The directives of flags (a conflict's) or with a count (a row's) */
static void
ra_rep_pages_names(ra_buf_t *b, const ra_rep_pages_fmt_t *f, uint32_t flags,
    const uint32_t *counts)
{
    unsigned     k, n = 0;
    const char  *name;

    for (k = 0; k < RA_PAGE_DIRECTIVES; k++) {
        name = ra_pagedir_name(1u << k);
        if (name == NULL
            || (counts != NULL ? counts[k] == 0 : !(flags & (1u << k))))
        {
            continue;
        }
        ra_buf_printf(b, f->quoted ? "%s\"%s\"" : "%s%s",
                      n++ ? (counts != NULL ? f->row_sep : f->name_sep) : "",
                      name);
        if (counts != NULL) {
            ra_buf_printf(b, "%s%u", f->count_sep, (unsigned) counts[k]);
        }
    }
}

/* The prefix rows and the conflict rows of p, in format f; sep between
 * two rows */
static void
ra_rep_pages_rows(ra_buf_t *b, const ra_pages_t *p,
    const ra_rep_pages_fmt_t *f, const char *sep)
{
    const ra_page_prefix_t  *row;
    ra_str_t                 prefix;
    uint32_t                 i, n = 0;

    for (i = 0; i <= RA_PAGE_PREFIXES; i++) {
        if ((row = ra_rep_pages_row(p, i, &prefix)) == NULL) {
            continue;
        }
        ra_buf_cstr(b, n++ ? sep : "");
        ra_buf_cstr(b, f->row[0]);
        f->esc(b, prefix);
        ra_buf_printf(b, "%s%u%s", f->row[1], (unsigned) row->answers,
                      f->row[2]);
        ra_rep_pages_names(b, f, 0, row->counts);
        ra_buf_cstr(b, f->row[3]);
    }
}

static void
ra_rep_pages_conflicts(ra_buf_t *b, const ra_pages_t *p,
    const ra_rep_pages_fmt_t *f, const char *sep)
{
    const ra_page_conflict_t  *c;
    uint32_t                   i;

    for (i = 0; i < ra_rep_pages_nconflicts(p); i++) {
        c = &p->conflicts[i];
        ra_buf_printf(b, "%s%s%s%s", i ? sep : "", f->conflict[0],
                      ra_conflict_kind_name((ra_conflict_kind_e) c->kind),
                      f->conflict[1]);
        f->esc(b, ra_rep_pages_crawler(c));
        ra_buf_cstr(b, f->conflict[2]);
        f->esc(b, ra_rep_pages_path(c));
        ra_buf_cstr(b, f->conflict[3]);
        ra_rep_pages_names(b, f, c->flags, NULL);
        ra_buf_cstr(b, f->conflict[4]);
        ra_buf_u64(b, c->count);
        ra_buf_cstr(b, f->conflict[5]);
        ra_rep_iso(b, c->first_seen);
        ra_buf_cstr(b, f->conflict[6]);
        ra_rep_iso(b, c->last_seen);
        ra_buf_cstr(b, f->conflict[7]);
    }
}

static uint64_t
ra_rep_pages_unkept(const ra_pages_t *p)
{
    uint64_t  n = 0;
    unsigned  k;

    for (k = 0; k < RA_PAGE_KINDS; k++) {
        n += p->conflicts_unkept[k];
    }
    return n;
}

void
ra_rep_pages_json(ra_rep_t *r, uint32_t si)
{
    const ra_pages_t  *p = &r->snap->sites[si].pages;
    ra_buf_t          *b = r->b;
    unsigned           k;

    ra_buf_cstr(b, ",\"page_directives\":{\"answers\":");
    ra_buf_u64(b, p->answers);
    ra_buf_cstr(b, ",\"html_scanned\":");
    ra_buf_u64(b, p->scanned);
    ra_buf_cstr(b, ",\"prefixes\":[");
    ra_rep_pages_rows(b, p, &ra_rep_pages_json_fmt, ",");
    ra_buf_cstr(b, "],\"conflicts_total\":{");
    for (k = 0; k < RA_PAGE_KINDS; k++) {
        ra_buf_printf(b, "%s\"%s\":", k ? "," : "",
                      ra_conflict_kind_name((ra_conflict_kind_e) k));
        ra_buf_u64(b, p->kind_total[k]);
    }
    ra_buf_cstr(b, "},\"conflicts_unkept\":");
    ra_buf_u64(b, ra_rep_pages_unkept(p));
    ra_buf_cstr(b, "},\"conflicts\":[");
    ra_rep_pages_conflicts(b, p, &ra_rep_pages_json_fmt, ",");
    ra_buf_ch(b, ']');
}

void
ra_rep_pages_text(ra_rep_t *r, uint32_t si)
{
    const ra_pages_t  *p = &r->snap->sites[si].pages;
    ra_buf_t          *b = r->b;

    if (!ra_rep_pages_any(p)) {
        return;
    }
    ra_buf_cstr(b, "  page directives (answers to crawlers with any: ");
    ra_buf_u64(b, p->answers);
    ra_buf_cstr(b, "; HTML heads read: ");
    ra_buf_u64(b, p->scanned);
    ra_buf_cstr(b, "):\n");
    ra_rep_pages_rows(b, p, &ra_rep_pages_text_fmt, "");
    ra_rep_pages_conflicts(b, p, &ra_rep_pages_text_fmt, "");
    if (ra_rep_pages_unkept(p)) {
        ra_buf_cstr(b, "    conflicts not kept (the table was full): ");
        ra_buf_u64(b, ra_rep_pages_unkept(p));
        ra_buf_ch(b, '\n');
    }
}

void
ra_rep_pages_html(ra_rep_t *r, uint32_t si)
{
    const ra_pages_t  *p = &r->snap->sites[si].pages;
    ra_buf_t          *b = r->b;

    if (!ra_rep_pages_any(p)) {
        return;
    }
    ra_buf_cstr(b, "<h3>Page directives</h3><p class=\"muted\">What the "
                "answers to crawlers said about the pages themselves "
                "(X-Robots-Tag, robots meta tags), by the path's first "
                "segment, and where that conflicts with robots.txt.</p>"
                "<div class=\"scroll\"><table><tr><th>prefix</th>"
                "<th>answers</th><th>directives</th></tr>");
    ra_rep_pages_rows(b, p, &ra_rep_pages_html_fmt, "");
    ra_buf_cstr(b, "</table></div>");
    if (ra_rep_pages_nconflicts(p) == 0) {
        return;
    }
    ra_buf_cstr(b, "<div class=\"scroll\"><table><tr><th>conflict</th>"
                "<th>crawler</th><th>path</th><th>directives</th>"
                "<th>count</th><th>first seen</th><th>last seen</th></tr>");
    ra_rep_pages_conflicts(b, p, &ra_rep_pages_html_fmt, "");
    ra_buf_cstr(b, "</table></div>");
}

void
ra_rep_pages_prom(ra_rep_t *r)
{
    const ra_pages_t  *p;
    ra_buf_t          *b = r->b;
    uint32_t           i, n;
    unsigned           k;

    for (i = 0, n = 0; i < r->snap->nsites; i++) {
        p = &r->snap->sites[i].pages;
        if (!ra_rep_pages_any(p)) {
            continue;
        }
        if (n++ == 0) {
            ra_buf_cstr(b, "# HELP robots_audit_conflicts Conflicts between "
                        "page directives and robots.txt, or between their "
                        "sources, by kind.\n"
                        "# TYPE robots_audit_conflicts gauge\n");
        }
        for (k = 0; k < RA_PAGE_KINDS; k++) {
            ra_buf_cstr(b, "robots_audit_conflicts{site=\"");
            ra_buf_prom_label(b, ra_rep_site_name(&r->snap->sites[i]));
            ra_buf_printf(b, "\",kind=\"%s\"} ",
                          ra_conflict_kind_name((ra_conflict_kind_e) k));
            ra_buf_u64(b, p->kind_total[k]);
            ra_buf_ch(b, '\n');
        }
    }
}
