#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Web Bot Auth cost per request (bench/sig.c).  Part of `make bench`.
# Usage: bench/sig.sh [REQUESTS]   (needs `make`)
set -eu
cd "$(dirname "$0")/.."
B=build/bench
[ -f build/libra.a ] || { echo "bench: run 'make' first" >&2; exit 1; }
mkdir -p $B
make -s --no-print-directory $B/sig
echo "== Web Bot Auth: unsigned and signed requests through ra_audit_request()"
$B/sig "${1:-20000}"
