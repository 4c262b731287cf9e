#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Verdict cost of a site with eight 460 KiB robots.txt versions against a
# site with one small version (bench/audit.c).  Part of `make bench`.
# Usage: bench/audit.sh [REQUESTS]   (needs `make`)
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
B=build/bench
[ -f build/libra.a ] || { echo "bench: run 'make' first" >&2; exit 1; }
mkdir -p $B
make -s --no-print-directory $B/audit
echo "== verdicts: eight 460 KiB robots.txt versions vs one small one"
$B/audit "${1:-200000}" | tee $B/audit.out
bench_row audit "a verdict, one small robots.txt version against eight of 460 KiB (bench/audit.sh)" \
    "$(awk '/^1 small version:/ { printf "%s ns", $4 } /^8 x 460 KiB/ { printf " / %s ns %s", $6, $8 }' $B/audit.out)" "-" "-"
