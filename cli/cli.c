#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "ra_crawlers.h"

int
ra_cli_error(const char *cmd, const char *fmt, ...)
{
    va_list  ap;

    fprintf(stderr, "robots-audit %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return RA_EXIT_USAGE;
}

int
ra_cli_read_file(const char *cmd, const char *path, ra_str_t *out)
{
    FILE         *f;
    size_t        len, cap, n;
    unsigned char *buf, *nbuf;
    struct stat   st;
    int           is_stdin;

    is_stdin = strcmp(path, "-") == 0;
    if (is_stdin) {
        f = stdin;
    } else {
        if (stat(path, &st) != 0) {
            ra_cli_error(cmd, "%s: %s", path, strerror(errno));
            return -1;
        }
        if (S_ISDIR(st.st_mode)) {
            ra_cli_error(cmd, "%s: is a directory", path);
            return -1;
        }
        f = fopen(path, "rb");
        if (f == NULL) {
            ra_cli_error(cmd, "%s: %s", path, strerror(errno));
            return -1;
        }
    }

    len = 0;
    cap = 64 * 1024;
    buf = malloc(cap);
    if (buf == NULL) {
        goto nomem;
    }
    for ( ;; ) {
        if (len == cap) {
            if (cap >= RA_CLI_MAX_INPUT) {
                ra_cli_error(cmd, "%s: larger than %u MiB", path,
                             RA_CLI_MAX_INPUT >> 20);
                goto fail;
            }
            cap *= 2;
            nbuf = realloc(buf, cap);
            if (nbuf == NULL) {
                goto nomem;
            }
            buf = nbuf;
        }
        n = fread(buf + len, 1, cap - len, f);
        len += n;
        if (n == 0) {
            break;
        }
    }
    if (ferror(f)) {
        ra_cli_error(cmd, "%s: read error: %s", path, strerror(errno));
        goto fail;
    }
    if (!is_stdin) {
        fclose(f);
    }
    *out = ra_str(buf, len);
    return 0;

nomem:
    ra_cli_error(cmd, "%s: out of memory", path);
fail:
    free(buf);
    if (!is_stdin) {
        fclose(f);
    }
    return -1;
}

int
ra_cli_write(const char *cmd, FILE *f, ra_buf_t *b)
{
    if (b->failed) {
        ra_cli_error(cmd, "out of memory");
        return -1;
    }
    if (b->len && fwrite(b->data, 1, b->len, f) != b->len) {
        ra_cli_error(cmd, "write error: %s", strerror(errno));
        return -1;
    }
    return 0;
}

long
ra_cli_getline(FILE *f, char **line, size_t *cap)
{
    ssize_t  n;

    n = getline(line, cap, f);
    if (n < 0) {
        return -1;
    }
    while (n > 0 && ((*line)[n - 1] == '\n' || (*line)[n - 1] == '\r')) {
        n--;
    }
    return (long) n;
}

ra_crawlers_t *
ra_cli_crawlers(const char *cmd, const char *path)
{
    int                 rc;
    ra_str_t            text;
    ra_crawlers_t      *tab;
    ra_crawlers_err_t   err;

    tab = ra_crawlers_create(&ra_malloc_allocator);
    if (tab == NULL) {
        ra_cli_error(cmd, "out of memory");
        return NULL;
    }
    if (ra_crawlers_add_builtin(tab, &err) != RA_OK) {
        ra_cli_error(cmd, "built-in crawler table: line %zu: %s", err.line,
                     err.msg ? err.msg : "out of memory");
        return NULL;
    }
    if (path != NULL) {
        if (ra_cli_read_file(cmd, path, &text) != 0) {
            return NULL;
        }
        rc = ra_crawlers_add(tab, text, &err);
        free((void *) text.data);
        if (rc != RA_OK) {
            ra_cli_error(cmd, "%s:%zu: %s", path, err.line,
                         err.msg ? err.msg : "out of memory");
            return NULL;
        }
    }
    if (ra_crawlers_compile(tab, &err) != RA_OK) {
        ra_cli_error(cmd, "crawler table: %s",
                     err.msg ? err.msg : "out of memory");
        return NULL;
    }
    return tab;
}
