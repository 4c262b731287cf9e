#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# What the module costs Apache: instructions per request under callgrind
# (repeatable on a noisy machine), stock Apache against Apache with the
# module on, one process (apache2 -X, prefork), the same static site,
# mod_rewrite and access logging, the User-Agent and path mix of a real
# log; the least of three runs of each (RUNS=N: of N).  Throughput on the
# event MPM under wrk: bench/apache-wrk.sh.  nginx's twin:
# bench/nginx-cost.sh.  RA_APACHE_MODULE: another build of the module.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
top=$(pwd)
B=$top/build/bench/apache-cost
so=${RA_APACHE_MODULE:-$top/build/mod_robots_audit.so}
log=$top/../shared/data/logs/elastic-apache/apache_logs
httpd=${RA_APACHE:-/usr/sbin/apache2}
mods=${RA_APACHE_MODULES:-/usr/lib/apache2/modules}
[ -f "$so" ] || { echo "apache-cost: build the module first (make)"; exit 1; }
[ -f "$log" ] || { echo "apache-cost: skipped: needs ../shared/data/logs (the real log's request mix)"; exit 0; }
[ -x "$httpd" ] || { echo "apache-cost: skipped: no $httpd"; exit 0; }
command -v valgrind >/dev/null || { echo "apache-cost: skipped: no valgrind"; exit 0; }

rm -rf "$B"; mkdir -p "$B/html"
cp data/demo/site/index.html "$B/html/"; cp data/demo/robots.txt "$B/html/"
. bench/apache-lib.sh

# apache2 -X exits on SIGTERM (callgrind writes its counts then); a
# shutdown that hangs gets a second signal
stop() {
    kill -TERM "$1" 2>/dev/null || true
    for _ in $(seq 100); do kill -0 "$1" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$1" 2>/dev/null || true
    wait "$1" 2>/dev/null || true
}

# instructions Apache spends for N replayed requests (one process)
ir() {
    local name=$1 n=$2 port pid out try
    for try in 1 2 3; do
        port=$(free_port)
        conf "$name" "$port" "$3" prefork
        rm -f "$B/$name/cg.$n"
        # callgrind makes the file as root and writes it at exit as nobody
        [ -n "$user" ] && : > "$B/$name/cg.$n" && chown nobody "$B/$name/cg.$n"
        valgrind --tool=callgrind ${CGOPTS:-} --callgrind-out-file="$B/$name/cg.$n" -q \
            "$httpd" -X -d "$B/$name" -f "$B/$name/httpd.conf" 2>/dev/null &
        pid=$!
        out=
        if wait_port "$port" && { [ "$n" -eq 0 ] || scripts/replay.pl --limit "$n" \
                "http://127.0.0.1:$port" "$log" 2>/dev/null | grep -qv ' 599: '; }; then
            stop "$pid"
            out=$(awk '/^(summary|totals):/ { print $2; exit }' "$B/$name/cg.$n" 2>/dev/null)
        else
            stop "$pid"
        fi
        [ -n "$out" ] && { echo "$out"; return 0; }
        echo "apache-cost: the $name run of $n requests was cut short (try $try)" >&2
    done
    return 1
}

n1=${N1:-200}; n2=${N2:-1700}; runs=${RUNS:-3}
echo "== instructions per request (callgrind; apache2 -X, prefork, mod_rewrite; $((n2 - n1)) requests of the real log's mix; least of $runs runs)"
least() { local best=; for v in "$@"; do [ -z "$best" ] || [ "$v" -lt "$best" ] && best=$v; done; echo "$best"; }
ss=(); ms=()
for _ in $(seq "$runs"); do
    s1=$(ir stock "$n1" 0); s2=$(ir stock "$n2" 0)
    m1=$(ir module "$n1" 1); m2=$(ir module "$n2" 1)
    ss+=($(( (s2 - s1) / (n2 - n1) ))); ms+=($(( (m2 - m1) / (n2 - n1) )))
done
stock=$(least "${ss[@]}"); mod=$(least "${ms[@]}")
printf 'stock Apache, static file + rewrite + access log: %9d instructions/request  (runs: %s)\n' "$stock" "${ss[*]}"
printf 'with robots-audit on:                             %9d instructions/request  (runs: %s)\n' "$mod" "${ms[*]}"
ovh=$(printf '%+.1f %%' "$(echo "($mod - $stock) * 100 / $stock" | bc -l)")
printf 'overhead:                                         %9s\n' "$ovh"
bench_row module "Apache module, instructions per request (callgrind, apache2 -X prefork, mod_rewrite, access log, least of three runs)" \
    "$mod" "stock Apache: $stock" "$ovh"
