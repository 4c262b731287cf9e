#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# What the module costs Apache in throughput on the event MPM: wrk with 64
# keep-alive connections (2 threads) against one child of 64 threads, stock
# Apache and Apache with the module on (each thread judges with its own
# engine), the same static site, mod_rewrite and access logging as
# bench/apache-cost.sh, the User-Agent and path mix of a real log.  Rounds
# alternate stock and module (ROUNDS, default 5; SECONDS_EACH, default 5)
# after a warm-up; it prints every round, the ratio of the sums, the median
# of the rounds' ratios (each round's pair ran back to back) and the
# server's CPU time per request (from /proc: steadier than requests/s when
# other work shares the machine).  Times move with the machine's load: the
# load average is printed before and after.  RA_APACHE_MODULE: another
# build of the module.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
top=$(pwd)
B=$top/build/bench/apache-wrk
so=${RA_APACHE_MODULE:-$top/build/mod_robots_audit.so}
log=$top/../shared/data/logs/elastic-apache/apache_logs
httpd=${RA_APACHE:-/usr/sbin/apache2}
mods=${RA_APACHE_MODULES:-/usr/lib/apache2/modules}
rounds=${ROUNDS:-5}; secs=${SECONDS_EACH:-5}
[ -f "$so" ] || { echo "apache-wrk: build the module first (make)"; exit 1; }
[ -f "$log" ] || { echo "apache-wrk: skipped: needs ../shared/data/logs (the real log's request mix)"; exit 0; }
[ -x "$httpd" ] || { echo "apache-wrk: skipped: no $httpd"; exit 0; }
[ -f "$mods/mod_mpm_event.so" ] || { echo "apache-wrk: skipped: no $mods/mod_mpm_event.so"; exit 0; }
command -v wrk >/dev/null || { echo "apache-wrk: skipped: no wrk"; exit 0; }

rm -rf "$B"; mkdir -p "$B/html"
cp data/demo/site/index.html "$B/html/"; cp data/demo/robots.txt "$B/html/"
. bench/apache-lib.sh

started=
stop_all() {
    for name in $started; do
        "$httpd" -d "$B/$name" -f "$B/$name/httpd.conf" -k stop 2>/dev/null || true
    done
}
trap stop_all EXIT

echo "== wrk throughput, Apache event MPM (one child, 64 threads), 64 connections, $rounds x ${secs} s alternating"
echo "load before: $(uptime | sed 's/.*load average/load average/')"
wrk_mix "$log" "$B/mix.lua"
for name in stock module; do
    p=$(free_port); eval "port_$name=$p"
    conf "$name" "$p" $([ $name = module ] && echo 1 || echo 0) event
    "$httpd" -d "$B/$name" -f "$B/$name/httpd.conf" -k start
    started="$started $name"
    wait_port "$p" || { echo "apache-wrk: the $name server did not start ($B/$name/error.log)" >&2; exit 1; }
done
# warm-up: every thread's first requests (the module's: its engine)
for name in stock module; do
    eval "p=\$port_$name"
    wrk -t2 -c64 -d2s -s "$B/mix.lua" "http://127.0.0.1:$p/" >/dev/null
done

# CPU time the server has used so far (its parent and children, all
# threads), in clock ticks
ticks() {
    local pp; pp=$(cat "$B/$1/httpd.pid")
    for p in $pp $(pgrep -P "$pp"); do cat "/proc/$p/stat" 2>/dev/null; done |
        awk '{ t += $14 + $15 } END { print t + 0 }'
}
hz=$(getconf CLK_TCK)

# one run: requests/s and requests served, then what wrk counted amiss
# (socket errors, answers other than 2xx/3xx: the same mix gets the same
# answers from both)
run() {
    wrk -t2 -c64 -d"${secs}s" -s "$B/mix.lua" "http://127.0.0.1:$1/" | awk '
        /Socket errors|Non-2xx or 3xx/ { sub(/^ +/, ""); amiss = amiss " (" $0 ")" }
        / requests in / { n = $1 }
        /Requests\/sec/ { rps = $2 }
        END { print rps, n amiss }'
}
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
tr=(); cr=()
declare -A sum=([stock]=0 [module]=0) cpu=([stock]=0 [module]=0) reqs=([stock]=0 [module]=0)
for round in $(seq "$rounds"); do
    for name in stock module; do
        eval "p=\$port_$name"
        t0=$(ticks "$name")
        out=$(run "$p"); rps=${out%% *}; rest=${out#* }; n=${rest%% *}
        t1=$(ticks "$name")
        [ -n "$rps" ] && [ -n "$n" ] || { echo "apache-wrk: round $round, $name: wrk gave no figure" >&2; exit 1; }
        printf 'round %d  %-7s %10s requests/s  %6.1f us CPU/request%s\n' "$round" "$name" "$rps" \
            "$(echo "($t1 - $t0) * 1000000 / $hz / $n" | bc -l)" "${rest#"$n"}"
        sum[$name]=$(echo "${sum[$name]} + $rps" | bc -l)
        cpu[$name]=$(( ${cpu[$name]} + t1 - t0 )); reqs[$name]=$(( ${reqs[$name]} + n ))
        eval "rps_$name=$rps; us_$name=$(echo "($t1 - $t0) * 1000000 / $hz / $n" | bc -l)"
    done
    # each round's pair ran back to back: its ratios see the same load
    tr+=("$(echo "$rps_module * 100 / $rps_stock" | bc -l)")
    cr+=("$(echo "($us_module - $us_stock) * 100 / $us_stock" | bc -l)")
done
echo "load after:  $(uptime | sed 's/.*load average/load average/')"
stock=$(echo "${sum[stock]} / $rounds" | bc -l); mod=$(echo "${sum[module]} / $rounds" | bc -l)
ratio=$(echo "${sum[module]} * 100 / ${sum[stock]}" | bc -l)
cs=$(echo "${cpu[stock]} * 1000000 / $hz / ${reqs[stock]}" | bc -l)
cm=$(echo "${cpu[module]} * 1000000 / $hz / ${reqs[module]}" | bc -l)
printf 'stock Apache:          %10.0f requests/s (mean of %d rounds), %6.1f us CPU/request\n' "$stock" "$rounds" "$cs"
printf 'with robots-audit on:  %10.0f requests/s (mean of %d rounds), %6.1f us CPU/request\n' "$mod" "$rounds" "$cm"
printf 'module / stock:        %9.1f %% of the throughput, %+.1f %% CPU per request\n' "$ratio" \
    "$(echo "($cm - $cs) * 100 / $cs" | bc -l)"
printf 'median of the rounds:  %9.1f %% of the throughput, %+.1f %% CPU per request\n' "$(median "${tr[@]}")" \
    "$(median "${cr[@]}")"
bench_row module "Apache module, requests/s under wrk (event MPM, one child of 64 threads, 64 connections, mean of $rounds alternating ${secs} s rounds; noisy)" \
    "$(printf '%.0f' "$mod")" "stock Apache: $(printf '%.0f' "$stock")" "$(printf '%.1f %% (median of the rounds: %.1f %%)' "$ratio" "$(median "${tr[@]}")")"
bench_row module "the same, the server's CPU time per request (all its processes and threads)" \
    "$(printf '%.1f us' "$cm")" "stock Apache: $(printf '%.1f us' "$cs")" \
    "$(printf '%+.1f %% (median of the rounds: %+.1f %%)' "$(echo "($cm - $cs) * 100 / $cs" | bc -l)" "$(median "${cr[@]}")")"
