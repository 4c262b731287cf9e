#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# make demo: the stock nginx with the module on a loopback port, a sample
# site with a real robots.txt, crawler traffic replayed from a real access
# log, then the status page's URL and a one-screen summary.  Ctrl-C stops.
set -euo pipefail
cd "$(dirname "$0")/.."
top=$(pwd)

# one line per stage, from the first second: the first run installs and
# builds for minutes
say() { printf 'demo: %s\n' "$*"; }
say "installing what it needs that is missing (apt-get; nothing when all is there)"
scripts/deps.sh demo
say "building the CLI and the nginx module (the first time: a few minutes)"
make -s build/robots-audit build/ngx_http_robots_audit_module.so

D=$top/build/demo
rm -rf "$D"
mkdir -p "$D/conf" "$D/logs" "$D/html" "$D/tmp"
cp -r data/demo/site/. "$D/html/"
cp data/demo/robots.txt "$D/html/robots.txt"

# a free loopback port: RA_DEMO_PORT, else 8088, else whatever is free
port=${RA_DEMO_PORT:-8088}
if ! perl -MIO::Socket::INET -e 'exit(IO::Socket::INET->new(LocalAddr=>"127.0.0.1",LocalPort=>$ARGV[0],Listen=>1,ReuseAddr=>1)?0:1)' "$port"; then
    port=$(perl -MIO::Socket::INET -e 'print IO::Socket::INET->new(LocalAddr=>"127.0.0.1",LocalPort=>0,Listen=>1)->sockport')
fi

shared=$top/../shared/data
ranges=""
if [ -d "$shared/ip-ranges" ]; then
    ranges="robots_audit_ip_ranges $(ls "$shared"/ip-ranges/*.json | tr '\n' ' ');"
fi

cat > "$D/conf/nginx.conf" <<CONF
load_module $top/build/ngx_http_robots_audit_module.so;
worker_processes 2;
daemon off;
pid $D/logs/nginx.pid;
error_log $D/logs/error.log warn;
events { worker_connections 256; }
http {
    types { text/html html; text/plain txt; text/css css; image/png png; }
    default_type text/html;
    access_log $D/logs/access.log;
    client_body_temp_path $D/tmp/body;
    proxy_temp_path $D/tmp/proxy;
    fastcgi_temp_path $D/tmp/fastcgi;
    uwsgi_temp_path $D/tmp/uwsgi;
    scgi_temp_path $D/tmp/scgi;

    robots_audit_zone robots_audit 16m;
    robots_audit_alert_log $D/logs/alerts.json;
    $ranges

    server {
        listen 127.0.0.1:$port;
        server_name demo.robots-audit.test;
        root $D/html;

        # the replayed log's client addresses arrive in X-Forwarded-For
        set_real_ip_from 127.0.0.1;
        real_ip_header X-Forwarded-For;

        robots_audit on;
        robots_audit_robots_file $D/html/robots.txt;

        location = /robots.txt { }
        location / { try_files \$uri /index.html; }

        location = /robots-audit/status {
            robots_audit off;
            robots_audit_status;
            allow 127.0.0.1;
            deny all;
        }
    }
}
CONF

# the configuration test lints the robots.txt: its findings once (nginx
# repeats them when it starts, into the startup log)
say "testing the configuration; the lint of the site's robots.txt:"
if ! /usr/sbin/nginx -t -q -p "$D" -c "$D/conf/nginx.conf" \
        2> "$D/logs/test.log"
then
    cat "$D/logs/test.log" >&2
    exit 1
fi
sed -n 's/^.*robots-audit: \[RA200\] [^ ]*robots\.txt:/  robots.txt:/p' \
    "$D/logs/test.log" | sed 's/ in [^ ]*nginx\.conf:[0-9]*$//' \
    | awk '!seen[$0]++'
say "starting nginx (two workers) on 127.0.0.1:$port"
/usr/sbin/nginx -p "$D" -c "$D/conf/nginx.conf" 2> "$D/logs/startup.log" &
nginx_pid=$!
stop() { kill "$nginx_pid" 2>/dev/null || true; wait "$nginx_pid" 2>/dev/null || true; }
trap 'stop; echo; echo "demo stopped"; exit 0' INT TERM
trap stop EXIT

for _ in $(seq 50); do
    perl -MIO::Socket::INET -e 'exit(IO::Socket::INET->new("127.0.0.1:$ARGV[0]")?0:1)' "$port" && break
    sleep 0.1
done

base="http://127.0.0.1:$port"
log=$shared/logs/elastic-apache/apache_logs
if [ -f "$log" ]; then
    say "replaying the crawler requests of a real site's access log (${log#"$top"/})"
    scripts/replay.pl --crawlers-only "$base" "$log"
else
    say "no ../shared/data beside the repository: replaying the sample traffic in data/demo/traffic.log"
    scripts/replay.pl "$base" data/demo/traffic.log
fi

perl -MHTTP::Tiny -MJSON::PP -e '
    my $r = HTTP::Tiny->new->get("$ARGV[0]/robots-audit/status?format=json");
    die "status page: $r->{status} $r->{reason}\n" unless $r->{success};
    my $d = decode_json($r->{content});
    for my $s (@{ $d->{sites} }) {
        my @c = sort { $b->{requests} <=> $a->{requests} } @{ $s->{crawlers} };
        printf "\nsite %s: %d crawlers seen\n", $s->{site}, scalar @c;
        printf "  %-22s %-13s %8s %9s %9s %6s %7s\n", qw(crawler verification requests compliant violation stale exempt);
        for my $c (@c[0 .. ($#c < 14 ? $#c : 14)]) {
            printf "  %-22.22s %-13s %8d %9d %9d %6d %7d\n", @$c{qw(crawler verification requests compliant violation stale exempt)};
        }
        my $v = $s->{recent_violations} || [];
        printf "  %d recent violations, newest: %s %s %s\n", scalar @$v,
            $v->[0]{crawler} // "-", $v->[0]{method} // "", $v->[0]{uri} // "" if @$v;
    }' "$base"

cat <<MSG

status page:  $base/robots-audit/status   (also ?format=json, ?format=prometheus and ?format=csv)
alerts:       ${D#"$top"/}/logs/error.log (tag RA100) and ${D#"$top"/}/logs/alerts.json
Press Ctrl-C to stop.
MSG
# RA_DEMO_ONCE=1 (scripts/doc-samples.sh): stop here, so that what the
# docs quote of this output can be checked against a real run
[ "${RA_DEMO_ONCE:-}" = 1 ] && exit 0
wait "$nginx_pid"
