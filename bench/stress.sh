#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The linear worst case (bench/stress.c): every file of the robots-stress
# set against 64 KiB URLs, the slowest judgement and compile; then lint
# over all of them, the whole process.  Part of `make bench`.
# Usage: bench/stress.sh   (needs `make` and ../shared/data/robots-stress)
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
D=${RA_SHARED_DATA:-../shared/data}
B=build/bench
[ -f build/libra.a ] || { echo "bench: run 'make' first" >&2; exit 1; }
[ -d "$D/robots-stress" ] || { echo "stress: skipped: $D/robots-stress not found"; exit 0; }
mkdir -p $B
make -s --no-print-directory $B/stress
echo "== stress set: 64 KiB URLs against every file, both modes"
$B/stress "$D/robots-stress" | tee $B/stress.out
n=$(awk '/^files:/ { print $2 }' $B/stress.out)
ms=$(awk '/^slowest 64 KiB/ { print $5, $6, $7 }' $B/stress.out)
lint=$(best_of 3 sh -c "for f in $D/robots-stress/*.txt; do build/robots-audit lint \"\$f\" >/dev/null 2>&1 || [ \$? -le 1 ]; done")
printf 'lint, all %s files, one process each: %6.2f s\n' "$n" "$lint"
bench_row match "slowest judgement of a 64 KiB URL, any of the $n files of the robots-stress set, both modes" \
    "$ms" "-" "-"
bench_row match "\`lint\` over all $n stress files (one process each)" "$(printf '%.2f s' "$lint")" "-" "-"
