#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Runs unit-test binaries; "valgrind" mode runs each under memcheck and
# fails on any error or leak.  The suites are independent processes, so
# they run RA_UNIT_JOBS at a time (default: one per CPU); each one's
# output is shown whole and in the order given.  Ends with one
# "N passed, N failed" line.
# Usage: run-unit.sh san|valgrind TEST...
mode=$1; shift

# one suite (run by xargs): its output and exit status into the folder
if [ "$mode" = one ]; then
    dir=$1; how=$2; t=$3; name=$(basename "$t")
    if [ "$how" = valgrind ]; then
        RA_UNDER_VALGRIND=1 valgrind -q --error-exitcode=99 --leak-check=full \
            --show-leak-kinds=definite,indirect,possible \
            --errors-for-leak-kinds=definite,indirect,possible \
            "$t" > "$dir/$name.out" 2>&1
    else
        "$t" > "$dir/$name.out" 2>&1
    fi
    echo $? > "$dir/$name.rc"
    exit 0
fi

jobs=${RA_UNIT_JOBS:-$(nproc 2>/dev/null || echo 1)}
dir=$(mktemp -d "${TMPDIR:-/tmp}/ra-unit-XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT INT TERM
printf '%s\n' "$@" | xargs -P "$jobs" -I '{}' sh "$0" one "$dir" "$mode" '{}'

passed=0; failed=0; failures=""
for t in "$@"; do
    name=$(basename "$t")
    rc=$(cat "$dir/$name.rc" 2>/dev/null || echo 127)
    grep -E '^\[  (PASSED|FAILED|  SKIP)|^==[0-9]+== [A-Z]|^skip:' \
        "$dir/$name.out" 2>/dev/null || true
    if [ "$rc" -eq 0 ]; then
        passed=$((passed + 1))
    else
        tail -40 "$dir/$name.out" 2>/dev/null
        failed=$((failed + 1)); failures="$failures $name"
    fi
done
echo "unit ($mode): $passed passed, $failed failed"
[ $failed -eq 0 ] || { echo "failed:$failures"; exit 1; }
