# SPDX-License-Identifier: BSD-2-Clause
# Sourced by the bench/*.sh scripts.  `make bench` (bench/run.sh) collects
# one table of every figure, side by side; a script adds its rows with
#
#   bench_row SECTION WHAT OURS THEIRS RATIO
#
# SECTION orders the table (run.sh prints sections in this order: match,
# check, identify, module, logs, ledger, audit, status; others after),
# WHAT says what was measured, OURS is robots-audit's figure (or the
# module's), THEIRS what it is compared with (a peer, stock nginx or
# Apache; "-" when nothing), RATIO the comparison ("-" when none).  The
# module scripts (bench/nginx-cost.sh, bench/apache-cost.sh,
# bench/apache-wrk.sh) add their stock-against-module rows under SECTION
# "module".  Rows go to the file
# RA_BENCH_TABLE names; run alone, a script prints its figures and adds
# no row.  scripts/bench-readme.sh turns the table into bench/README.md's.
bench_row() {
    [ -n "${RA_BENCH_TABLE:-}" ] || return 0
    printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" >> "$RA_BENCH_TABLE"
}

# best_of N CMD...: the shortest wall time of N runs, in seconds; a run
# that exits with anything but 0 or 1 (all allowed / some disallowed) is a
# failure, not a time
best_of() {
    _n=$1; shift
    _b=999999
    while [ "$_n" -gt 0 ]; do
        _s=$(date +%s.%N)
        _rc=0; "$@" >/dev/null 2>&1 || _rc=$?
        _e=$(date +%s.%N)
        [ $_rc -le 1 ] || { echo "bench: '$*' failed ($_rc)" >&2; exit 1; }
        _b=$(echo "x = $_e - $_s; if (x < $_b) x else $_b" | bc -l)
        _n=$((_n - 1))
    done
    echo "$_b"
}

# wrk_mix LOG OUT: a wrk script (OUT) that sends the first 2,000 GET lines
# of a combined-format access log, each with its own path and User-Agent,
# in turn (bench/nginx-cost.sh, bench/apache-wrk.sh)
wrk_mix() {
    perl -ne 'if (m{^\S+ \S+ \S+ \[[^\]]+\] "GET (/[^"\s\\]*) [^"]*" \d+ \S+ "[^"]*" "([^"\\]*)"}) {
                  print "{\"$1\",\"$2\"},\n"; exit if ++$n == 2000 }' "$1" > "$2.part"
    { echo "local mix = {"; cat "$2.part"; cat <<'LUA'
}
local i = 0
request = function()
    i = i % #mix + 1
    return wrk.format("GET", mix[i][1], { ["User-Agent"] = mix[i][2] })
end
LUA
    } > "$2"
}
