#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Verdict cost of a site with eight 460 KiB robots.txt versions against a
# site with one small version (bench/audit.c).  Part of `make bench`.
# Usage: bench/audit.sh [REQUESTS]   (needs `make`)
set -eu
cd "$(dirname "$0")/.."
B=build/bench
[ -f build/libra.a ] || { echo "bench: run 'make' first" >&2; exit 1; }
mkdir -p $B
cc -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -g -Icommon -o $B/audit \
    bench/audit.c build/libra.a -lz -lbrotlidec -lcrypto -lm
echo "== verdicts: eight 460 KiB robots.txt versions vs one small one"
$B/audit "${1:-200000}"
