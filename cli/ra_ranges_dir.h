/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The published IP ranges 'logs' and 'identify' load when no --ranges is
 * given: the directory the packaged timer keeps current
 * (contrib/systemd/robots-audit-ranges.service runs 'ranges update --dir'
 * on it), or the one ROBOTS_AUDIT_RANGES_DIR names.
 */
#ifndef RA_RANGES_DIR_H
#define RA_RANGES_DIR_H

#define RA_RANGES_DIR      "/var/lib/robots-audit/ranges"
#define RA_RANGES_DIR_ENV  "ROBOTS_AUDIT_RANGES_DIR"

/* The paths of the default directory's *.json and cloud-*.csv files (hidden ones, the
 * timer's temporary files, left out), sorted, NULL-terminated, in one
 * block to free() whole; *n their number.  When there are some, says on
 * stderr which (one line).  NULL with *n 0 when the directory does not
 * exist or holds none, or ROBOTS_AUDIT_RANGES_DIR is set empty. */
char **ra_ranges_dir_files(const char *cmd, unsigned *n);

#endif /* RA_RANGES_DIR_H */
