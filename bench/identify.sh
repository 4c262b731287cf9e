#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Identifier vs a naive loop of PCRE2 regexes over crawler-user-agents'
# patterns, on the same User-Agent mix.  Not part of `make test`.
# Usage: bench/identify.sh [ROUNDS]   (needs `make` and libpcre2-dev)
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
D=${RA_SHARED_DATA:-../shared/data}
B=build/bench
[ -f build/libra.a ] || { echo "bench: run 'make' first" >&2; exit 1; }
[ -d "$D/useragents" ] || { echo "identify: skipped: $D/useragents not found"; exit 0; }
mkdir -p $B
cc -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -g -Icommon -o $B/identify \
    bench/identify.c build/libra.a $(pkg-config --cflags --libs libpcre2-8)
echo "== identify: one automaton pass vs a loop of PCRE2 regexes"
$B/identify "$D/useragents/crawler-user-agents/crawler-user-agents.json" \
    "$D/useragents/isbot/browsers.yml" "${1:-20}" | tee $B/identify.out
ns() { awk -v k="$1" 'index($0, k) == 1 { for (i = 1; i <= NF; i++) if ($i == "ns/UA") { print $(i - 1); exit } }' $B/identify.out; }
mix=$(awk '/^UA mix:/ { print $3, "crawler and", $7, "browser User-Agents" }' $B/identify.out)
bench_row identify "identify a User-Agent, mixed ($mix)" "$(ns 'robots-audit identifier') ns" \
    "a loop of PCRE2 regexes (crawler-user-agents' patterns): $(ns 'PCRE2 loop, interpreted') ns, JIT $(ns 'PCRE2 loop, JIT') ns" \
    "$(awk '/^PCRE2 loop, interpreted/ { print $NF }' $B/identify.out)"
bench_row identify "identify, browsers only" "$(ns '  browsers only') ns" "-" "-"
