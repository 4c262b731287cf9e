/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Reading an access log's lines in their format (ra_logs_read.h): the
 * format of each file, the directives of W3C logs, and why a file's first
 * lines do not read, with the flag that would read them.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "ra_logs_read.h"

int
ra_logs_format_opt(const char *cmd, const char *opt, const char *arg,
    ra_logfmt_t *given, int *have)
{
    const char  *errmsg;
    ra_str_t     a = ra_str(arg, strlen(arg));

    if (*have) {
        return ra_cli_error(cmd, "--log-format and --json-fields name one "
                            "format, given once");
    }
    if ((strcmp(opt, "--log-format") == 0
         ? ra_logfmt_compile(a, given, &errmsg)
         : ra_logfmt_json_fields(a, given, &errmsg)) != RA_OK)
    {
        return ra_cli_error(cmd, "%s '%s': %s", opt, arg, errmsg);
    }
    *have = 1;
    return 0;
}

void
ra_logs_show(char *out, ra_str_t line)
{
    static const char  hex[] = "0123456789abcdef";
    size_t             i, n = line.len < RA_LOGS_SHOW ? line.len
                                                      : RA_LOGS_SHOW;
    unsigned char      c;

    for (i = 0; i < n; i++) {
        c = line.data[i];
        if (c >= 0x20 && c < 0x7f && c != '\\') {
            *out++ = (char) c;
        } else {
            *out++ = '\\';
            *out++ = 'x';
            *out++ = hex[c >> 4];
            *out++ = hex[c & 15];
        }
    }
    *out = '\0';
}

int
ra_logs_read(ra_logs_reader_t *r, ra_str_t line, const char *file,
    ra_logrec_t *rec)
{
    if (file != r->file) {
        /* a new file: its own format, unless one is given */
        r->file = file;
        r->detected = r->given != NULL;
        r->tries = 0;
        if (r->given != NULL) {
            r->fmt = *r->given;
        }
    }
    if ((!r->detected || r->fmt.format == RA_LOG_W3C
         || r->fmt.format == RA_LOG_CLOUDFRONT)
        && ra_logfmt_directive(line, &r->fmt))
    {
        if (line.len > 8 && memcmp(line.data, "#Fields:", 8) == 0) {
            r->detected = 1;
        }
        return 1;
    }
    rec->bad = NULL;
    if (!r->detected) {
        if (r->tries++ >= RA_LOGS_DETECT
            || ra_logfmt_detect(line, &r->fmt) == RA_ERROR)
        {
            return RA_ERROR;
        }
        /* read plausibly, or read only by a format whose fields do not
         * hold (the line says why) */
        r->detected = 1;
    }
    return ra_logfmt_read(&r->fmt, &r->memo, line, rec);
}

/* The flag that would read a line the format tried did not, or what is
 * wrong with it, into out */
static void
ra_logs_hint(const ra_logs_reader_t *r, ra_str_t line, const ra_logrec_t *rec,
    char *out, size_t cap)
{
    static const char  months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
    ra_logfmt_t        f;
    ra_addr_t          a;
    ra_str_t           c, next;
    const char        *e;
    size_t             i;

    if (ra_logfmt_detect(line, &f) == RA_OK
        && (!r->detected || f.format != r->fmt.format))
    {
        snprintf(out, cap, "--log-format %s reads it", ra_logfmt_name(&f));
        return;
    }
    c = rec->bad != NULL ? rec->addr : ra_str(NULL, 0);
    if (rec->bad != NULL && strcmp(rec->bad, "client") == 0 && c.len > 0
        && c.data >= line.data && c.data + c.len <= line.data + line.len)
    {
        if (c.data[c.len - 1] == ',') {
            snprintf(out, cap, "the first field is an X-Forwarded-For list: "
                     "log the connection's address first (%%a, "
                     "$remote_addr), X-Forwarded-For last in quotes, and "
                     "give --real-ip-from for the proxies");
            return;
        }
        for (i = 0; c.len == 3 && i < 36; i += 3) {
            if (memcmp(c.data, months + i, 3) == 0) {
                snprintf(out, cap, "a syslog prefix (\"Mar 10 12:00:00 host "
                         "tag:\") comes first: HAProxy's lines are read by "
                         "--log-format haproxy; strip it from others "
                         "(sed 's/^[^:]*: //')");
                return;
            }
        }
        e = (const char *) line.data + line.len;
        next.data = c.data + c.len + 1;
        for (next.len = 0; (const char *) next.data + next.len < e
             && next.data[next.len] != ' '; next.len++) { }
        if ((const char *) next.data < e && ra_addr_parse(next, &a) == RA_OK) {
            snprintf(out, cap, "a host name comes before the client: "
                     "--log-format '$host $remote_addr - $remote_user "
                     "[$time_local] \"$request\" $status $body_bytes_sent "
                     "\"$http_referer\" \"$http_user_agent\"' (Apache: "
                     "'%%v %%h %%l %%u %%t \"%%r\" %%>s %%b "
                     "\"%%{Referer}i\" \"%%{User-Agent}i\"')");
            return;
        }
    }
    snprintf(out, cap, "name the format with --log-format (combined, common, "
             "vhost_combined, json, caddy, traefik, cloudflare, haproxy, alb, "
             "cloudfront, iis, or a log_format/LogFormat string) or, for "
             "JSON with other keys, --json-fields");
}

/* Why the first malformed line of a file is, with the flag to try */
static void
ra_logs_why(ra_logs_window_t *w, const ra_logs_reader_t *r, ra_str_t line,
    const ra_logrec_t *rec)
{
    char        shown[RA_LOGS_SHOWN], hint[400];
    const char *how;
    size_t      n;

    ra_logs_show(shown, line);
    ra_logs_hint(r, line, rec, hint, sizeof(hint));
    if (rec->bad != NULL && strcmp(rec->bad, "client") == 0) {
        how = "is not an IP address";
    } else if (rec->bad != NULL && strcmp(rec->bad, "status") == 0) {
        how = "is not 100-599";
    } else {
        how = "does not parse";
    }
    if (r->detected) {
        n = (size_t) snprintf(w->why, sizeof(w->why),
                              "(read as %s%s): ", ra_logfmt_name(&r->fmt),
                              r->given != NULL ? " as given by --log-format"
                                             : "");
    } else {
        n = (size_t) snprintf(w->why, sizeof(w->why),
                              "(no format reads it: tried json, caddy, "
                              "traefik, cloudflare, vhost_combined, "
                              "combined, common, haproxy, alb, cloudfront, "
                              "w3c): ");
    }
    if (n >= sizeof(w->why)) {
        return;
    }
    if (rec->bad != NULL && r->detected) {
        ra_str_t  v = rec->addr;
        char      val[RA_LOGS_SHOWN];

        if (strcmp(rec->bad, "client") == 0 && v.data >= line.data
            && v.data + v.len <= line.data + line.len)
        {
            ra_logs_show(val, v);
            n += (size_t) snprintf(w->why + n, sizeof(w->why) - n,
                                   "the client field \"%s\" %s", val, how);
        } else {
            n += (size_t) snprintf(w->why + n, sizeof(w->why) - n,
                                   "the %s field %s", rec->bad, how);
        }
    } else {
        n += (size_t) snprintf(w->why + n, sizeof(w->why) - n,
                               "the line does not have the format's layout");
    }
    if (n < sizeof(w->why)) {
        snprintf(w->why + n, sizeof(w->why) - n, ": \"%s\"; %s",
                 shown, hint);
    }
}

int
ra_logs_too_bad(ra_logs_window_t *w, const char *cmd)
{
    if (w->bad * 100 <= w->lines * RA_LOGS_BAD_PCT || w->stopped) {
        return w->stopped;
    }
    w->stopped = 1;
    ra_cli_error(cmd, "%s: %llu of the first %llu lines are "
                 "malformed (more than %d%%): no report; line %llu %s",
                 w->file, (unsigned long long) w->bad,
                 (unsigned long long) w->lines, RA_LOGS_BAD_PCT,
                 (unsigned long long) w->bad_line, w->why);
    return 1;
}

int
ra_logs_window_line(ra_logs_window_t *w, const ra_logs_reader_t *r,
    int rc, ra_str_t line, const ra_logrec_t *rec, uint64_t lineno,
    const char *cmd)
{
    if (w->file != r->file) {
        w->file = r->file;
        w->lines = 0;
        w->bad = 0;
    }
    if (w->lines >= RA_LOGS_WINDOW) {
        return 0;
    }
    w->lines++;
    if (rc != RA_OK && w->bad++ == 0) {
        w->bad_line = lineno;
        ra_logs_why(w, r, line, rec);
    }
    /* past the bound whatever the rest of the window holds */
    return (w->bad * 100 > RA_LOGS_WINDOW * RA_LOGS_BAD_PCT
            || w->lines == RA_LOGS_WINDOW)
           && ra_logs_too_bad(w, cmd);
}
