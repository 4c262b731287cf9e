#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Runs unit-test binaries; "valgrind" mode runs each under memcheck and
# fails on any error or leak.  Ends with one "N passed, N failed" line.
mode=$1; shift
passed=0; failed=0; failures=""
for t in "$@"; do
    name=$(basename "$t")
    if [ "$mode" = valgrind ]; then
        out=$(RA_UNDER_VALGRIND=1 valgrind -q --error-exitcode=99 --leak-check=full \
              --show-leak-kinds=definite,indirect,possible --errors-for-leak-kinds=definite,indirect,possible \
              "$t" 2>&1)
    else
        out=$("$t" 2>&1)
    fi
    rc=$?
    echo "$out" | grep -E '^\[  (PASSED|FAILED|  SKIP)|^==[0-9]+== [A-Z]|^skip:' || true
    if [ $rc -eq 0 ]; then
        passed=$((passed + 1))
    else
        echo "$out" | tail -40
        failed=$((failed + 1)); failures="$failures $name"
    fi
done
echo "unit ($mode): $passed passed, $failed failed"
[ $failed -eq 0 ] || { echo "failed:$failures"; exit 1; }
