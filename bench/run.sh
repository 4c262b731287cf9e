#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Benchmarks, side by side in one run.  `make bench` runs them all.
set -eu
cd "$(dirname "$0")/.."
B=build/bench
mkdir -p $B
[ -x build/robots-audit ] && [ -f build/libra.a ] || { echo "bench: run 'make' first" >&2; exit 1; }
cc -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -g -Icommon -o $B/match bench/match.c build/libra.a

echo "== matcher: 200 rules with wildcards, 200,000 URLs"
perl bench/gen-match-data.pl $B 200000
$B/match $B/robots.txt $B/urls.txt

echo
echo "== whole process: robots-audit check vs npm robots-parser (same files)"
if [ ! -d bench/node_modules/robots-parser ]; then
    (cd bench && npm install --no-save --no-audit --no-fund --silent robots-parser@3 >/dev/null)
fi
# a run that exits with anything but 0 or 1 (all allowed / some disallowed)
# is a failure, not a time
t() {
    s=$(date +%s.%N)
    rc=0; "$@" >/dev/null || rc=$?
    [ $rc -le 1 ] || { echo "bench: '$*' failed ($rc)" >&2; exit 1; }
    e=$(date +%s.%N); echo "$e - $s" | bc -l
}
best() { b=999999; for i in 1 2 3; do x=$(t "$@"); b=$(echo "if ($x < $b) $x else $b" | bc -l); done; echo $b; }
ours=$(best sh -c "build/robots-audit check --mode google $B/robots.txt FooBot < $B/urls.txt")
theirs=$(best node bench/robots-parser.js $B/robots.txt FooBot $B/urls.txt)
# the verdicts agree, line for line
build/robots-audit check --mode google $B/robots.txt FooBot < $B/urls.txt | cut -f1,2 > $B/ours.txt || true
node bench/robots-parser.js $B/robots.txt FooBot $B/urls.txt > $B/theirs.txt || true
diffs=$(diff $B/ours.txt $B/theirs.txt | grep -c '^<' || true)
printf 'robots-audit check:   %8.3f s\n' "$ours"
printf 'robots-parser (node): %8.3f s\n' "$theirs"
printf 'ratio:                %8.1fx  (verdicts differing: %s of 200000)\n' "$(echo "$theirs / $ours" | bc -l)" "$diffs"

for extra in bench/*.sh; do
    [ -x "$extra" ] && [ "$extra" != bench/run.sh ] && { echo; "$extra"; }
done
exit 0
