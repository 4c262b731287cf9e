#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# What the module costs Apache: instructions per request under callgrind
# (repeatable on a noisy machine), stock Apache against Apache with the
# module on, one process (apache2 -X, prefork), the same static site,
# mod_rewrite and access logging, the User-Agent and path mix of a real
# log; the least of three runs of each.  Then wrk throughput on the event
# MPM (one child of 64 threads: each judges with its own engine), 64
# connections, several alternating runs.  nginx's twin: bench/nginx-cost.sh.
# NOCG=1: wrk only; NOWRK=1: callgrind only; RA_APACHE_MODULE: another build.
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
free_port() { perl -MIO::Socket::INET -e 'print IO::Socket::INET->new(LocalAddr=>"127.0.0.1",LocalPort=>0,Listen=>1)->sockport'; }
user=; [ "$(id -u)" = 0 ] && user=$'User nobody\nGroup nogroup'

# conf NAME PORT MODULE(0/1) MPM(prefork/event)
conf() {
    local d=$B/$1; mkdir -p "$d"; rm -f "$d"/*.log
    # as root, Apache runs as nobody: callgrind writes its file as that
    [ -n "$user" ] && chmod 0777 "$d"
    {
        cat <<CONF
ServerRoot "$d"
DefaultRuntimeDir "$d"
PidFile "$d/httpd.pid"
ErrorLog "$d/error.log"
LogLevel warn
LoadModule mpm_$4_module $mods/mod_mpm_$4.so
LoadModule authz_core_module $mods/mod_authz_core.so
LoadModule mime_module $mods/mod_mime.so
LoadModule dir_module $mods/mod_dir.so
LoadModule rewrite_module $mods/mod_rewrite.so
TypesConfig /etc/mime.types
$user
Listen 127.0.0.1:$2
ServerName bench.test
KeepAlive On
MaxKeepAliveRequests 0
CONF
        if [ "$4" = event ]; then
            echo "StartServers 1"; echo "ServerLimit 1"; echo "ThreadsPerChild 64"
            echo "MaxRequestWorkers 64"; echo "MinSpareThreads 1"; echo "MaxSpareThreads 64"
        fi
        [ "$3" = 1 ] && echo "LoadModule robots_audit_module $so"
        [ "$3" = 1 ] && echo "RobotsAudit On"
        [ "$3" = 1 ] && [ -d "$top/../shared/data/ip-ranges" ] && \
            echo "RobotsAuditIPRanges $(ls "$top"/../shared/data/ip-ranges/*.json | tr '\n' ' ')"
        cat <<CONF
LogFormat "%h %l %u %t \"%r\" %>s %b \"%{Referer}i\" \"%{User-Agent}i\"" combined
CustomLog "$d/access.log" combined
<VirtualHost 127.0.0.1:$2>
    ServerName bench.test
    DocumentRoot "$B/html"
    <Directory "$B/html">
        Require all granted
    </Directory>
    RewriteEngine On
    RewriteCond %{DOCUMENT_ROOT}%{REQUEST_URI} !-f
    RewriteRule ^ /index.html [L]
CONF
        [ "$3" = 1 ] && echo "    RobotsAuditRobotsFile $B/html/robots.txt"
        echo "</VirtualHost>"
    } > "$d/httpd.conf"
}

wait_port() { for _ in $(seq 300); do perl -MIO::Socket::INET -e 'exit(IO::Socket::INET->new("127.0.0.1:$ARGV[0]")?0:1)' "$1" && return 0; sleep 0.1; done; return 1; }

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

if [ -z "${NOCG:-}" ]; then
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
fi

if [ -z "${NOWRK:-}" ] && command -v wrk >/dev/null; then
    echo
    echo "== wrk throughput, event MPM (one child, 64 threads), 64 connections, 5 s runs alternating (noisy: compare the spread)"
    wrk_mix "$log" "$B/mix.lua"
    for name in stock module; do
        p=$(free_port); eval "port_$name=$p"
        conf "$name-wrk" "$p" $([ $name = module ] && echo 1 || echo 0) event
        "$httpd" -d "$B/$name-wrk" -f "$B/$name-wrk/httpd.conf" -k start
        wait_port "$p"
    done
    # warm up: every thread's first requests (the module's: its engine)
    for name in stock module; do
        eval "p=\$port_$name"
        wrk -t2 -c64 -d2s -s "$B/mix.lua" "http://127.0.0.1:$p/" >/dev/null
    done
    declare -A sum=([stock]=0 [module]=0)
    for round in 1 2 3; do
        for name in stock module; do
            eval "p=\$port_$name"
            rps=$(wrk -t2 -c64 -d5s -s "$B/mix.lua" "http://127.0.0.1:$p/" | awk '/Requests\/sec/ { print $2 }')
            printf 'round %d  %-7s %10s requests/s\n' "$round" "$name" "$rps"
            sum[$name]=$(echo "${sum[$name]} + $rps" | bc -l)
        done
    done
    printf 'module / stock, all rounds: %.1f%%\n' "$(echo "${sum[module]} * 100 / ${sum[stock]}" | bc -l)"
    for name in stock module; do
        "$httpd" -d "$B/$name-wrk" -f "$B/$name-wrk/httpd.conf" -k stop || true
    done
fi
