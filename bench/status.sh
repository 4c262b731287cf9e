#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The status page over a large zone (bench/status.c): bytes, time and
# peak memory of each format.  Part of `make bench`.
# Usage: bench/status.sh [ZONE_MB [RECORDS]]   (needs `make`)
set -eu
cd "$(dirname "$0")/.."
B=build/bench
[ -f build/libra.a ] || { echo "bench: run 'make' first" >&2; exit 1; }
mkdir -p $B
make -s --no-print-directory $B/status
echo "== status page: a large zone, every format"
$B/status "${1:-1024}" "${2:-20000}"
