#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# bench/README.md's performance table, regenerated from the last `make bench`
# (build/bench/table.md, which bench/run.sh writes): the lines between the
# two "make bench" markers in bench/README.md are replaced, nothing else.
# Usage: scripts/bench-readme.sh [TABLE]
set -eu
cd "$(dirname "$0")/.."
table=${1:-build/bench/table.md}
[ -s "$table" ] || { echo "bench-readme: $table missing: run 'make bench' first" >&2; exit 1; }
begin='<!-- make bench: begin (scripts/bench-readme.sh writes this table) -->'
end='<!-- make bench: end -->'
grep -qxF "$begin" bench/README.md && grep -qxF "$end" bench/README.md ||
    { echo "bench-readme: bench/README.md lacks the markers" >&2; exit 1; }
stamp=$(date -u -r "$table" +%Y-%m-%d)
awk -v b="$begin" -v e="$end" -v t="$table" -v d="$stamp" '
    $0 == b { print; print ""; print "Measured " d " by `make bench` (the table it prints last):"; print "";
              while ((getline l < t) > 0) print l; print ""; skip = 1; next }
    $0 == e { skip = 0 }
    !skip' bench/README.md > bench/README.md.tmp
mv bench/README.md.tmp bench/README.md
echo "bench-readme: bench/README.md's table now holds $(($(wc -l < "$table") - 2)) rows of $table"
