#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# What the module costs nginx: instructions per request under callgrind
# (repeatable on a noisy machine), stock nginx against nginx with the
# module on, the same static site and access logging, the User-Agent and
# path mix of a real log (1,500 requests), in two configurations: the
# README's minimal one (an access log without a buffer, no realip) and one
# with realip and a buffered access log, which makes stock nginx dearer
# per request; then wrk throughput, several alternating runs (the second
# configuration).  NOCG=1: wrk only; NOWRK=1: callgrind only;
# RA_NGINX_MODULE: another build of the module.  Apache's twin:
# bench/apache-cost.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
top=$(pwd)
B=$top/build/bench/nginx-cost
so=${RA_NGINX_MODULE:-$top/build/ngx_http_robots_audit_module.so}
log=$top/../shared/data/logs/elastic-apache/apache_logs
[ -f "$so" ] || { echo "nginx-cost: build the module first (make)"; exit 1; }
[ -f "$log" ] || { echo "nginx-cost: skipped: needs ../shared/data/logs (the real log's request mix)"; exit 0; }
command -v valgrind >/dev/null || { echo "nginx-cost: skipped: no valgrind"; exit 0; }

rm -rf "$B"; mkdir -p "$B/html"
cp data/demo/site/index.html "$B/html/"; cp data/demo/robots.txt "$B/html/"
free_port() { perl -MIO::Socket::INET -e 'print IO::Socket::INET->new(LocalAddr=>"127.0.0.1",LocalPort=>0,Listen=>1)->sockport'; }

# conf NAME PORT MODULE(0/1) MASTER(0/1) [minimal|realip]
conf() {
    local d=$B/$1 setup=${5:-realip} buffer= realip=
    mkdir -p "$d/logs" "$d/tmp"
    if [ "$setup" = realip ]; then
        buffer=" buffer=64k"
        realip="        set_real_ip_from 127.0.0.1;
        real_ip_header X-Forwarded-For;"
    fi
    {
        [ "$3" = 1 ] && echo "load_module $so;"
        if [ "$4" = 1 ]; then echo "worker_processes 2;"; else echo "master_process off;"; fi
        cat <<CONF
daemon off;
pid $d/logs/nginx.pid;
error_log $d/logs/error.log warn;
events { worker_connections 512; }
http {
    default_type text/html;
    access_log $d/logs/access.log combined$buffer;
    client_body_temp_path $d/tmp/body; proxy_temp_path $d/tmp/proxy;
    fastcgi_temp_path $d/tmp/fastcgi; uwsgi_temp_path $d/tmp/uwsgi; scgi_temp_path $d/tmp/scgi;
CONF
        [ "$3" = 1 ] && echo "    robots_audit_zone ra 16m;"
        [ "$3" = 1 ] && [ -d "$top/../shared/data/ip-ranges" ] && \
            echo "    robots_audit_ip_ranges $(ls "$top"/../shared/data/ip-ranges/*.json | tr '\n' ' ');"
        cat <<CONF
    server {
        listen 127.0.0.1:$2;
        server_name bench.test;
        root $B/html;
CONF
        [ -n "$realip" ] && echo "$realip"
        [ "$3" = 1 ] && echo "        robots_audit on; robots_audit_robots_file $B/html/robots.txt;"
        cat <<CONF
        location / { try_files \$uri /index.html; }
    }
}
CONF
    } > "$d/nginx.conf"
}

wait_port() { for _ in $(seq 200); do perl -MIO::Socket::INET -e 'exit(IO::Socket::INET->new("127.0.0.1:$ARGV[0]")?0:1)' "$1" && return 0; sleep 0.1; done; return 1; }

# nginx exits (callgrind writes its counts on exit); a shutdown that
# hangs under valgrind gets a second signal
stop() {
    kill -TERM "$1" 2>/dev/null || true
    for _ in $(seq 100); do kill -0 "$1" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$1" 2>/dev/null || true
    wait "$1" 2>/dev/null || true
}

# instructions nginx spends for N replayed requests (one process):
# ir NAME N MODULE(0/1) SETUP
ir() {
    local name=$1 n=$2 port pid out try
    for try in 1 2 3; do
        port=$(free_port)
        conf "$name" "$port" "$3" 0 "$4"
        rm -f "$B/$name/cg.$n"
        valgrind --tool=callgrind ${CGOPTS:-} --callgrind-out-file="$B/$name/cg.$n" -q \
            /usr/sbin/nginx -p "$B/$name" -c "$B/$name/nginx.conf" 2>/dev/null &
        pid=$!
        out=
        # every request answered (replay.pl says 599 for a lost one)
        if wait_port "$port" && { [ "$n" -eq 0 ] || scripts/replay.pl --limit "$n" \
                "http://127.0.0.1:$port" "$log" 2>/dev/null | grep -qv ' 599: '; }; then
            stop "$pid"
            out=$(awk '/^(summary|totals):/ { print $2; exit }' "$B/$name/cg.$n" 2>/dev/null)
        else
            stop "$pid"
        fi
        [ -n "$out" ] && { echo "$out"; return 0; }
        echo "nginx-cost: the $name run of $n requests was cut short (try $try)" >&2
    done
    return 1
}

# cost SETUP WHAT: stock against the module in one configuration, the
# module's row with the peer measured in the same run
cost() {
    local setup=$1 what=$2 s1 s2 m1 m2 stock mod ovh
    echo "-- $what"
    s1=$(ir "stock-$setup" $n1 0 "$setup"); s2=$(ir "stock-$setup" $n2 0 "$setup")
    m1=$(ir "module-$setup" $n1 1 "$setup"); m2=$(ir "module-$setup" $n2 1 "$setup")
    stock=$(( (s2 - s1) / (n2 - n1) )); mod=$(( (m2 - m1) / (n2 - n1) ))
    printf 'stock nginx, static file + access log: %9d instructions/request\n' "$stock"
    printf 'with robots-audit on:                  %9d instructions/request\n' "$mod"
    ovh=$(printf '%+.1f %%' "$(echo "($mod - $stock) * 100 / $stock" | bc -l)")
    printf 'overhead:                              %9s\n' "$ovh"
    bench_row module "nginx module, instructions per request (callgrind, $((n2 - n1)) requests of the real log's mix, one process, $what, IP ranges loaded)" \
        "$mod" "stock nginx: $stock" "$ovh"
}

if [ -z "${NOCG:-}" ]; then
n1=${N1:-200}; n2=${N2:-1700}
echo "== instructions per request (callgrind; one nginx process; $((n2 - n1)) requests of the real log's mix)"
cost minimal "the README's minimal configuration: access log without a buffer, no realip"
cost realip "realip and a buffered access log"
fi

if [ -z "${NOWRK:-}" ] && command -v wrk >/dev/null; then
    echo
    echo "== wrk throughput, 2 workers, 50 connections, 5 s runs alternating (noisy: compare the spread)"
    wrk_mix "$log" "$B/mix.lua"
    for name in stock module; do
        p=$(free_port); eval "port_$name=$p"
        conf "$name-wrk" "$p" $([ $name = module ] && echo 1 || echo 0) 1 realip
        /usr/sbin/nginx -p "$B/$name-wrk" -c "$B/$name-wrk/nginx.conf" &
        eval "pid_$name=$!"
        wait_port "$p"
    done
    for round in 1 2 3; do
        for name in stock module; do
            eval "p=\$port_$name"
            rps=$(wrk -t2 -c50 -d5s -s "$B/mix.lua" "http://127.0.0.1:$p/" | awk '/Requests\/sec/ { print $2 }')
            printf 'round %d  %-7s %10s requests/s\n' "$round" "$name" "$rps"
        done
    done
    kill -QUIT "$pid_stock" "$pid_module"; wait "$pid_stock" "$pid_module" 2>/dev/null || true
fi
