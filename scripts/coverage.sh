#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The crawler table's verification coverage, computed from
# data/crawlers.txt: how many entries can be verified, by
# which method (published IP ranges, forward-confirmed reverse DNS, Web
# Bot Auth signatures), and which operators publish nothing.  Prints the
# Markdown that docs/cli.md holds between the "coverage" markers;
#   scripts/coverage.sh --update   rewrites that part of docs/cli.md
#   scripts/coverage.sh --check    exits 1 when docs/cli.md is not current
# (scripts/check-docs.sh runs --check).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
table="$root/data/crawlers.txt"
readme="$root/docs/cli.md"
begin='<!-- coverage: begin (scripts/coverage.sh --update writes this part) -->'
end='<!-- coverage: end -->'

report() {
    awk '
    function flush() {
        if (name == "") return
        n++
        tool = (op == "" || op == "unknown" || op ~ /\(open source/ \
                || op ~ /open source\)/ || flags ~ /(^| )library( |$)/)
        policy = (flags ~ /(^| )(policy|token-only)( |$)/)
        if (policy) { npolicy++ }
        else if (r || d || s) {
            nver++
            if (r) nr++
            if (d) nd++
            if (s) ns++
            if (r && d) nrd++
            if (!r && d && !s) nonly_d++
            if (r && !d && !s) nonly_r++
            verified_op[op] = 1
        } else if (tool) { ntool++ }
        else { nnone++; none_op[op]++ }
        name = ""; op = ""; flags = ""; r = d = s = 0
    }
    /^[ \t]*#/ || /^[ \t]*$/ { next }
    { sub(/^[ \t]+/, "") }
    $1 == "crawler" { flush(); name = $2; next }
    $1 == "operator" { op = $0; sub(/^operator[ \t]+/, "", op); next }
    $1 == "flags" { flags = $0; next }
    $1 == "ranges" { r = 1; next }
    $1 == "rdns" { d = 1; next }
    $1 == "signature-agent" { s = 1; next }
    END {
        flush()
        fetching = n - npolicy
        printf "| the crawler table (`data/crawlers.txt`) | entries |\n"
        printf "|---|---:|\n"
        printf "| entries | %d |\n", n
        printf "| policy and token-only entries (no crawler fetches with them: nothing to verify) | %d |\n", npolicy
        printf "| crawlers | %d |\n", fetching
        printf "| **verifiable by at least one method** | **%d** (%d%% of the crawlers) |\n", nver, fetching ? int(100 * nver / fetching + 0.5) : 0
        printf "| &nbsp;&nbsp;by published IP ranges (`ranges`) | %d |\n", nr
        printf "| &nbsp;&nbsp;by forward-confirmed reverse DNS (`rdns`) | %d |\n", nd
        printf "| &nbsp;&nbsp;by Web Bot Auth signature (`signature-agent`) | %d |\n", ns
        printf "| &nbsp;&nbsp;by both ranges and reverse DNS | %d |\n", nrd
        printf "| &nbsp;&nbsp;by reverse DNS only | %d |\n", nonly_d
        printf "| &nbsp;&nbsp;by ranges only | %d |\n", nonly_r
        printf "| tools anyone can run (open source, operator unknown): unverifiable by nature | %d |\n", ntool
        printf "| **not verifiable: the operator publishes nothing** | **%d** |\n", nnone
        k = 0
        for (o in none_op) if (!(o in verified_op)) names[++k] = o
        # sort the names (insertion sort: a few hundred at most)
        for (i = 2; i <= k; i++) {
            v = names[i]
            for (j = i - 1; j > 0 && tolower(names[j]) > tolower(v); j--)
                names[j + 1] = names[j]
            names[j + 1] = v
        }
        printf "\nOperators for none of whose entries the table records a range file, a reverse-DNS name or a signing key (%d; some publish a list in prose, an HTML page or an ASN, which the modules cannot load): ", k
        for (i = 1; i <= k; i++) printf "%s%s", names[i], i < k ? ", " : ".\n"
        if (k == 0) printf "none.\n"
    }' "$table"
}

case "${1:-}" in
"")
    report ;;
--update|--check)
    grep -qxF "$begin" "$readme" && grep -qxF "$end" "$readme" || {
        echo "coverage.sh: docs/cli.md has no coverage markers" >&2; exit 1; }
    tmp=$(mktemp)
    trap 'rm -f "$tmp" "$tmp.r"' EXIT
    report > "$tmp.r"
    awk -v b="$begin" -v e="$end" -v f="$tmp.r" '
        $0 == b { print; while ((getline l < f) > 0) print l; skip = 1; next }
        $0 == e { skip = 0 }
        !skip { print }' "$readme" > "$tmp"
    if [ "$1" = --check ]; then
        if ! cmp -s "$tmp" "$readme"; then
            echo "docs/cli.md's coverage report is not that of data/crawlers.txt: run scripts/coverage.sh --update" >&2
            diff "$readme" "$tmp" >&2 || true
            exit 1
        fi
    else
        cat "$tmp" > "$readme"
    fi ;;
*)
    echo "usage: scripts/coverage.sh [--update|--check]" >&2; exit 2 ;;
esac
