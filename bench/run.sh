#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Benchmarks, side by side in one run.  `make bench` runs them all: the
# matcher and `check` here, then every other executable bench/*.sh (each
# adds its rows with bench_row, bench/lib.sh), and prints one table of all
# the figures at the end, also written to build/bench/table.md, which
# scripts/bench-readme.sh copies into bench/README.md.
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
B=build/bench
mkdir -p $B
[ -x build/robots-audit ] && [ -f build/libra.a ] || { echo "bench: run 'make' first" >&2; exit 1; }
RA_BENCH_TABLE=$(pwd)/$B/table.tsv
export RA_BENCH_TABLE
: > "$RA_BENCH_TABLE"
make -s --no-print-directory $B/match

echo "== matcher: 200 rules with wildcards, 200,000 URLs"
perl bench/gen-match-data.pl $B 200000
$B/match $B/robots.txt $B/urls.txt | tee $B/match.out
get() { awk -v k="$1" 'index($0, k) == 1 { sub(/^[^:]*: */, ""); print $1; exit }' $B/match.out; }
bench_row match "match, 200 rules (a third start with \`/*\`), 200,000 URLs, the group chosen once (best of 15 rounds)" \
    "$(get 'compiled matcher') ns/URL" "naive per-rule matcher: $(get 'naive per-rule') ns/URL" \
    "$(get 'ratio naive')"
bench_row match "the same, the group chosen again for every URL" \
    "$(get '  group chosen per URL') ns/URL" "-" "-"

echo
echo "== whole process: robots-audit check vs npm robots-parser (same files)"
if [ ! -d bench/node_modules/robots-parser ]; then
    (cd bench && npm install --no-save --no-audit --no-fund --silent robots-parser@3 >/dev/null)
fi
# two harnesses for the peer: bench/robots-parser.js prints check's
# "verdict<TAB>URL" lines, bench/robots-parser-readme.js only the verdicts,
# as robots-parser's README uses it; check's output is cut to the same.
# Each whole process, its output read through a pipe, as a script that
# uses the verdicts reads them (/dev/null would leave the writes free).
ours=$(best_of 5 sh -c "build/robots-audit check --mode google $B/robots.txt FooBot < $B/urls.txt | cat > /dev/null")
theirs=$(best_of 3 sh -c "node bench/robots-parser.js $B/robots.txt FooBot $B/urls.txt | cat > /dev/null")
readme=$(best_of 3 sh -c "node bench/robots-parser-readme.js $B/robots.txt FooBot $B/urls.txt | cat > /dev/null")
build/robots-audit check --mode google $B/robots.txt FooBot < $B/urls.txt > $B/ours.txt || true
cut -f1,2 $B/ours.txt > $B/ours.2
cut -f1 $B/ours.txt > $B/ours.1
node bench/robots-parser.js $B/robots.txt FooBot $B/urls.txt > $B/theirs.txt || true
node bench/robots-parser-readme.js $B/robots.txt FooBot $B/urls.txt > $B/theirs-readme.txt || true
diffs=$(diff $B/ours.2 $B/theirs.txt | grep -c '^<' || true)
diffs2=$(diff $B/ours.1 $B/theirs-readme.txt | grep -c '^<' || true)
r1=$(echo "$theirs / $ours" | bc -l)
r2=$(echo "$readme / $ours" | bc -l)
printf 'robots-audit check:                 %8.3f s\n' "$ours"
printf 'robots-parser (bench harness):      %8.3f s  %6.1fx  (verdicts differing: %s of 200000)\n' "$theirs" "$r1" "$diffs"
printf 'robots-parser (its README usage):   %8.3f s  %6.1fx  (verdicts differing: %s of 200000)\n' "$readme" "$r2" "$diffs2"
bench_row check "\`robots-audit check\` vs npm robots-parser $(cd bench && node -p 'require("robots-parser/package.json").version'), the same 200,000 URLs, whole process, output read through a pipe (bench/robots-parser.js: check's verdict and URL lines)" \
    "$(printf '%.3f s' "$ours")" "$(printf '%.3f s' "$theirs")" \
    "$(printf '%.1fx, %s verdicts differ' "$r1" "$diffs")"
bench_row check "the same, robots-parser as its README uses it, verdicts only (bench/robots-parser-readme.js)" \
    "$(printf '%.3f s' "$ours")" "$(printf '%.3f s' "$readme")" \
    "$(printf '%.1fx, %s verdicts differ' "$r2" "$diffs2")"

# instructions, repeatable where times are not (the machine is shared)
if command -v valgrind >/dev/null; then
    irs() { awk '/^(summary|totals):/ { print $2; exit }' "$1"; }
    valgrind -q --tool=callgrind --toggle-collect=ra_rules_match_group \
        --callgrind-out-file=$B/cg.match $B/match $B/robots.txt $B/urls.txt --once >/dev/null
    valgrind -q --tool=callgrind --callgrind-out-file=$B/cg.check \
        build/robots-audit check --mode google $B/robots.txt FooBot < $B/urls.txt >/dev/null || true
    # start-up: the same command without a URL, and the shared libraries
    # the binary maps before its first instruction
    valgrind -q --tool=callgrind --callgrind-out-file=$B/cg.start \
        build/robots-audit check --mode google $B/robots.txt FooBot < /dev/null >/dev/null || true
    im=$(($(irs $B/cg.match) / 200000)); ic=$(($(irs $B/cg.check) / 200000))
    is=$(irs $B/cg.start); libs=$(ldd build/robots-audit | grep -c '=>')
    printf 'instructions per URL (callgrind): match %d, check (whole process) %d\n' "$im" "$ic"
    printf 'check start-up: %d instructions, %d shared libraries\n' "$is" "$libs"
    bench_row match "match, instructions per URL (callgrind, the group chosen once)" "$im" "-" "-"
    bench_row check "\`robots-audit check\`, instructions per URL, whole process (callgrind)" "$ic" "-" "-"
    bench_row check "\`robots-audit check\` start-up, no URL: instructions (callgrind), shared libraries (ldd)" \
        "$is, $libs libraries" "-" "-"
fi

failed=
for extra in bench/*.sh; do
    [ -x "$extra" ] && [ "$extra" != bench/run.sh ] || continue
    echo
    "$extra" || { echo "bench: $extra failed" >&2; failed="$failed $extra"; }
done

# the table: sections in a fixed order, rows as the scripts added them
echo
echo "== all figures ($(date -u +%Y-%m-%d), $(nproc) cores)"
awk -F '\t' '
    BEGIN { n = split("match check identify module logs ledger audit status", o, " ")
            for (i = 1; i <= n; i++) rank[o[i]] = i }
    { r = ($1 in rank) ? rank[$1] : 99; printf "%02d\t%06d\t%s\n", r, NR, $0 }' \
    "$RA_BENCH_TABLE" | sort | cut -f3- | awk -F '\t' '
    BEGIN { print "| what | robots-audit | compared with | ratio |"
            print "| --- | --- | --- | --- |" }
    { printf "| %s | %s | %s | %s |\n", $2, $3, $4, $5 }' > $B/table.md
cat $B/table.md
[ -z "$failed" ] || { echo "bench: failed:$failed" >&2; exit 1; }
# bench/README.md shows the figures of the last full run, never older ones
scripts/bench-readme.sh $B/table.md
exit 0
