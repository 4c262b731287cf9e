#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The status page over a large zone (bench/status.c): bytes, time and
# peak memory of each format.  Part of `make bench`.
# Usage: bench/status.sh [ZONE_MB [RECORDS]]   (needs `make`)
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
B=build/bench
[ -f build/libra.a ] || { echo "bench: run 'make' first" >&2; exit 1; }
mkdir -p $B
make -s --no-print-directory $B/status
echo "== status page: a large zone, every format"
$B/status "${1:-1024}" "${2:-20000}" | tee $B/status.out
bench_row status "the status page over a ${1:-1024} MiB zone (bench/status.sh): bytes, time, peak memory" \
    "$(awk '/ status [0-9]+: / { sub(/ status [0-9]+: */, ": "); gsub(/  +/, " "); printf "%s%s", sep, $0; sep = "; " }' $B/status.out)" "-" "-"
