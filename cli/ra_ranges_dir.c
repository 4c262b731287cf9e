/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The default published-range files of 'logs' and 'identify' (see
 * ra_ranges_dir.h): a server that runs the packaged timer has current
 * ranges, and a report made without them would call every crawler
 * unverifiable, so they are loaded unless --ranges or --no-ranges says
 * otherwise, and the user is told which.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ra_cloud.h"
#include "ra_ranges_dir.h"

static int
ra_ranges_dir_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *) a, *(char *const *) b);
}

/* a range file: NAME.json, or a cloud provider's geofeed,
 * cloud-PROVIDER.csv (ra_cloud.h) */
static int
ra_ranges_dir_json(const char *name)
{
    size_t  n = strlen(name);

    return name[0] != '.'
           && ((n > 5 && strcmp(name + n - 5, ".json") == 0)
               || (n > 4 && strcmp(name + n - 4, ".csv") == 0
                   && ra_cloud_file(ra_str(name, n), NULL)));
}

char **
ra_ranges_dir_files(const char *cmd, unsigned *n)
{
    const char     *dir = getenv(RA_RANGES_DIR_ENV);
    DIR            *d;
    struct dirent  *e;
    size_t          count = 0, bytes = 0, dlen;
    char          **list = NULL, *at;
    unsigned        i;

    *n = 0;
    if (dir == NULL) {
        dir = RA_RANGES_DIR;
    }
    if (dir[0] == '\0' || (d = opendir(dir)) == NULL) {
        return NULL;
    }
    /* one pass to size the block, one to fill it; a file the timer adds
     * between them is left for the next run */
    dlen = strlen(dir);
    while ((e = readdir(d)) != NULL) {
        if (ra_ranges_dir_json(e->d_name)) {
            count++;
            bytes += dlen + 1 + strlen(e->d_name) + 1;
        }
    }
    if (count == 0
        || (list = malloc((count + 1) * sizeof(char *) + bytes)) == NULL)
    {
        closedir(d);
        return NULL;
    }
    at = (char *) (list + count + 1);
    rewinddir(d);
    while ((e = readdir(d)) != NULL && *n < count) {
        size_t  need = dlen + 1 + strlen(e->d_name) + 1;

        if (!ra_ranges_dir_json(e->d_name)
            || at + need > (char *) (list + count + 1) + bytes)
        {
            continue;
        }
        list[(*n)++] = at;
        at += sprintf(at, "%s/%s", dir, e->d_name) + 1;
    }
    closedir(d);
    list[*n] = NULL;
    if (*n == 0) {
        free(list);
        return NULL;
    }
    qsort(list, *n, sizeof(char *), ra_ranges_dir_cmp);
    fprintf(stderr, "robots-audit %s: ranges from %s:", cmd, dir);
    for (i = 0; i < *n; i++) {
        fprintf(stderr, " %s", list[i] + dlen + 1);
    }
    fprintf(stderr, " (--ranges FILE chooses others, --no-ranges none)\n");
    return list;
}
