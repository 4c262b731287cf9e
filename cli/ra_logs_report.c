/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The report of 'robots-audit logs': what the reading left to say on
 * stderr, then the ledger narrowed to what the filters kept, rendered in
 * the --format asked, and written to stdout or, whole, to --output.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "ra_logs_impl.h"
#include "ra_report.h"

int
ra_logs_summary(ra_logs_ctx_t *x, const ra_logread_t *rd)
{
    x->lines += rd->overlong;
    x->malformed += rd->overlong;
    if (x->lines && x->parsed == 0) {
        if (x->first_file != NULL) {
            ra_cli_error(RA_LOGS_CMD, "no line could be read (%s); the "
                         "first line of %s: \"%s\"", x->o->have_given
                         ? "read as given by --log-format"
                         : "tried json, vhost_combined, combined, common; "
                           "name the format with --log-format",
                         x->first_file, x->first);
        } else {
            ra_cli_error(RA_LOGS_CMD, "no line could be read: every line "
                         "is longer than %u bytes", RA_LOG_LINE_MAX);
        }
        return -1;
    }
    if (x->malformed) {
        fprintf(stderr, "robots-audit %s: %llu malformed line%s, the first "
                "at %s:%llu\n", RA_LOGS_CMD,
                (unsigned long long) x->malformed,
                x->malformed == 1 ? "" : "s",
                x->bad_file ? x->bad_file : rd->overlong_file,
                (unsigned long long) (x->bad_file ? x->bad_line
                                                  : rd->overlong_line));
        if (x->malformed * 2 > x->lines) {
            fprintf(stderr, "robots-audit %s: warning: more than half of the "
                    "lines (%llu of %llu) are malformed: is the log's format "
                    "the one it was read as? (--log-format names it)\n",
                    RA_LOGS_CMD, (unsigned long long) x->malformed,
                    (unsigned long long) x->lines);
        }
    }
    if (x->malformed || x->skipped) {
        /* the report says them too; stderr keeps a clean run quiet */
        fprintf(stderr, "robots-audit %s: %llu lines read, %llu malformed, "
                "%llu skipped\n", RA_LOGS_CMD, (unsigned long long) x->lines,
                (unsigned long long) x->malformed,
                (unsigned long long) x->skipped);
    }
    if (x->parsed && x->with_ua == 0) {
        fprintf(stderr, "robots-audit %s: warning: the log has no "
                "User-Agent field (common format?): crawlers cannot be "
                "identified; log in the combined format\n", RA_LOGS_CMD);
    }
    if (x->o->ntrusted && x->parsed && x->with_xff == 0) {
        fprintf(stderr, "robots-audit %s: warning: --real-ip-from, but the "
                "log has no X-Forwarded-For field: every client is the "
                "logged address\n", RA_LOGS_CMD);
    }
    if (x->no_robots) {
        fprintf(stderr, "robots-audit %s: %llu line%s of sites with no "
                "--robots file (the first: %s) judged with no robots.txt "
                "known\n", RA_LOGS_CMD, (unsigned long long) x->no_robots,
                x->no_robots == 1 ? "" : "s", x->no_robots_site);
    }
    if (x->unjudged) {
        fprintf(stderr, "robots-audit %s: %llu line%s with no HTTP request "
                "line (\"-\" or garbage) counted, not judged\n", RA_LOGS_CMD,
                (unsigned long long) x->unjudged,
                x->unjudged == 1 ? "" : "s");
    }
    if (x->nomem) {
        fprintf(stderr, "robots-audit %s: %llu request%s counted but not "
                "judged (out of memory)\n", RA_LOGS_CMD,
                (unsigned long long) x->nomem, x->nomem == 1 ? "" : "s");
    }

    return 0;
}

/* Writes b to path whole (ra_cli_replace()), so that a reader
 * (node_exporter, a web server) never sees half a report.  The new file
 * gets the mode path has, or 0666 less the umask for a new one. */
static int
ra_logs_write_atomic(const char *path, ra_buf_t *b)
{
    char         why[512];
    mode_t       mode, mask;
    struct stat  sb;

    if (stat(path, &sb) == 0) {
        mode = sb.st_mode & 07777;
    } else {
        mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    if (b->failed) {
        return ra_cli_error(RA_LOGS_CMD, "out of memory"), -1;
    }
    if (ra_cli_replace(path, b->data, b->len, (unsigned) mode, why,
                       sizeof(why)) != 0)
    {
        return ra_cli_error(RA_LOGS_CMD, "--output %s: %s", path, why), -1;
    }
    return 0;
}

/* The records a filter left with no request counted: crawlers known to
 * the judge only by a robots.txt fetch the filters left out */
static void
ra_logs_narrow(ra_snapshot_t *snap)
{
    uint32_t  i, n = 0, si;

    for (i = 0; i < snap->nstats; i++) {
        if (snap->stats[i].counters[RA_CNT_REQUESTS] != 0) {
            snap->stats[n++] = snap->stats[i];
            continue;
        }
        si = snap->stats[i].site;
        if (si != 0 && si <= snap->nsites && snap->sites[si - 1].stats_total) {
            snap->sites[si - 1].stats_total--;  /* "showing n of N" */
        }
    }
    snap->nstats = n;
}

int
ra_logs_report(ra_logs_ctx_t *x, ra_follow_mark_t *mark)
{
    ra_snapshot_t            snap;
    ra_snapshot_view_t       view;
    ra_report_opts_t         opts;
    ra_buf_t                 out;
    const ra_lint_t        **lints;
    const ra_logs_robots_t  *rb;
    unsigned                 i;
    int                      rc = 0;

    /* every record and violation, of --purpose's crawlers when given (as
     * the status page's ?purpose=); bodies: the HTML shows each
     * robots.txt in force, JSON its lines */
    memset(&view, 0, sizeof(view));
    view.every = 1;
    view.purpose = x->o->purpose;
    if (ra_ledger_snapshot_view(&x->ledger, &ra_malloc_allocator, 1, &view,
                                &snap) != RA_OK)
    {
        ra_cli_error(RA_LOGS_CMD, "out of memory");
        return -1;
    }
    if (ra_logfilter_active(&x->o->filter)) {
        ra_logs_narrow(&snap);
    }

    /* the findings of each site's file, for a site that serves it as
     * rules */
    lints = calloc(snap.nsites + 1, sizeof(ra_lint_t *));
    for (i = 0; lints != NULL && i < snap.nsites; i++) {
        const ra_site_t  *s = &snap.sites[i];

        rb = ra_logs_robots_of(x, ra_str(s->name, s->name_len));
        if (rb != NULL && rb->linted && s->nversions
            && s->current < RA_VERSIONS
            && s->versions[s->current].answer == RA_ANSWER_RULES)
        {
            lints[i] = &rb->lint;
        }
    }

    memset(&opts, 0, sizeof(opts));
    opts.lints = lints;
    opts.with_lines = 1;
    opts.lines = x->lines;
    opts.malformed_lines = x->malformed;
    opts.skipped_lines = x->skipped;
    opts.filtered_lines = x->filtered;
    opts.scratch = &ra_malloc_allocator;
    opts.crawlers = x->conf.crawlers;
    opts.undeclared = ra_logs_undeclared_sites(x);
    opts.standalone = 1;        /* a file: no refresh, no query links */
    ra_buf_init(&out, &ra_malloc_allocator, 64 * 1024, 0);
    opts.refresh = x->o->html_refresh;
    if (ra_report_render(&snap, x->o->fmt, &opts, &out) != RA_OK) {
        out.failed = 1;
    }
    if (mark != NULL) {
        ra_follow_interval(&x->ledger, x->lines, x->o->fmt, mark, &out);
    }
    if (x->o->output != NULL) {
        rc = ra_logs_write_atomic(x->o->output, &out);
    } else if (ra_cli_write(RA_LOGS_CMD, stdout, &out) != 0
               || fflush(stdout) != 0)
    {
        rc = -1;
    }
    ra_buf_release(&out);
    free(lints);
    ra_snapshot_free(&snap, &ra_malloc_allocator);
    return rc;
}
