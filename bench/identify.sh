#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Identifier vs a naive loop of PCRE2 regexes over crawler-user-agents'
# patterns, on the same User-Agent mix.  Not part of `make test`.
# Usage: bench/identify.sh [ROUNDS]   (needs `make` and libpcre2-dev)
set -eu
cd "$(dirname "$0")/.."
D=${RA_SHARED_DATA:-../shared/data}
B=build/bench
[ -f build/libra.a ] || { echo "bench: run 'make' first" >&2; exit 1; }
[ -d "$D/useragents" ] || { echo "bench: $D/useragents not found" >&2; exit 1; }
mkdir -p $B
cc -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -g -Icommon -o $B/identify \
    bench/identify.c build/libra.a $(pkg-config --cflags --libs libpcre2-8)
echo "== identify: one automaton pass vs a loop of PCRE2 regexes"
$B/identify "$D/useragents/crawler-user-agents/crawler-user-agents.json" \
    "$D/useragents/isbot/browsers.yml" "${1:-20}"
