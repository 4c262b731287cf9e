#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Versions end to end: nginx (2 workers) with the module, one site
# whose robots.txt was captured in eight versions of about 460 KiB, one
# with a single small version; wrk throughput of compliant crawler
# requests on each, alternating runs.  MODULE= picks the module (default
# build/ngx_http_robots_audit_module.so).
# Usage: bench/nginx-versions.sh [SECONDS [ROUNDS]]
set -euo pipefail
cd "$(dirname "$0")/.."
top=$(pwd)
B=$top/build/bench/nginx-versions
so=${MODULE:-$top/build/ngx_http_robots_audit_module.so}
secs=${1:-5}; rounds=${2:-3}
[ -f "$so" ] || { echo "nginx-versions: build the module first (make)"; exit 1; }
command -v wrk >/dev/null || { echo "nginx-versions: skipped: no wrk"; exit 0; }

rm -rf "$B"; mkdir -p "$B/big" "$B/small" "$B/logs" "$B/tmp"
echo home > "$B/big/index.html"; echo home > "$B/small/index.html"
printf 'User-agent: *\nDisallow: /private/\n' > "$B/small/robots.txt"
port=$(perl -MIO::Socket::INET -e 'print IO::Socket::INET->new(LocalAddr=>"127.0.0.1",LocalPort=>0,Listen=>1)->sockport')
cat > "$B/nginx.conf" <<CONF
load_module $so;
worker_processes 2;
daemon off;
pid $B/logs/nginx.pid;
error_log $B/logs/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path $B/tmp/body; proxy_temp_path $B/tmp/proxy;
    fastcgi_temp_path $B/tmp/fastcgi; uwsgi_temp_path $B/tmp/uwsgi; scgi_temp_path $B/tmp/scgi;
    robots_audit_zone ra 64m;
    server { listen 127.0.0.1:$port; server_name big.test; root $B/big; robots_audit on;
             location = /ra-status { robots_audit_status; } }
    server { listen 127.0.0.1:$port; server_name small.test; root $B/small; robots_audit on; }
}
CONF
/usr/sbin/nginx -p "$B" -c "$B/nginx.conf" 2>/dev/null &
pid=$!
trap 'kill -QUIT $pid 2>/dev/null || true; wait $pid 2>/dev/null || true' EXIT
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.1; done

UA='ExampleBot/1.0 (+https://example.com/bot)'
# eight versions of ~460 KiB, each captured by a crawler's fetch
for v in 0 1 2 3 4 5 6 7; do
    perl -e 'my ($v) = @ARGV; my $s = "User-agent: *\n"; my $i = 0;
             $s .= "Disallow: /private/v$v/section-" . $i++ . "/\n" while length $s < 460 * 1024;
             print $s' "$v" > "$B/big/robots.txt"
    curl -s -o /dev/null -H "Host: big.test" -A "$UA" "http://127.0.0.1:$port/robots.txt"
done
curl -s -o /dev/null -H "Host: small.test" -A "$UA" "http://127.0.0.1:$port/robots.txt"
versions=$(curl -s -H "Host: big.test" "http://127.0.0.1:$port/ra-status?format=json&site=big.test" |
    perl -MJSON::PP -e 'local $/; print map { $_->{robots}{versions_24h} }
                       grep { $_->{site} eq "big.test" } @{ JSON::PP->new->decode(<STDIN>)->{sites} }')
echo "big.test keeps $versions robots.txt versions"

rps() {
    wrk -t2 -c32 -d"${secs}s" -H "Host: $1" -H "User-Agent: $UA" \
        "http://127.0.0.1:$port/index.html" | awk '/^Requests\/sec/ { print $2 }'
}
echo "== nginx, 2 workers: compliant crawler requests/s ($(basename "$so"))"
for r in $(seq "$rounds"); do
    s=$(rps small.test); b=$(rps big.test)
    printf 'round %d: one small version %10.0f req/s   8 x 460 KiB versions %10.0f req/s  (%+.1f%%)\n' \
        "$r" "$s" "$b" "$(echo "($b - $s) * 100 / $s" | bc -l)"
done
