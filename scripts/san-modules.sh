#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The server modules under ASan+UBSan: builds a module with gcc's
# sanitizers and runs its t/ tests against it.
#   nginx   scripts/nginx-module.sh with RA_NGX_EXTRA_OPT -> build/san-nginx.so
#   apache  apxs over the sanitizer objects of make unit-test
#           (build/san/) -> build/san-apache/.libs/mod_robots_audit.so
# The stock servers are not instrumented, so they run with libasan
# preloaded (a wrapper that RA_NGINX / RA_APACHE point the harness at);
# leak detection is off (servers free their pools by exiting), every
# report goes to build/san-SERVER-logs/ and any report fails the run.
# RA_SANITIZED=1 tells the load and fault tests not to bound worker RSS
# (ASan keeps freed memory in quarantine).
# Usage: scripts/san-modules.sh nginx|apache [TEST...]
#   (default tests: the server's t/0[23]x and t/04x tests, t/040-load.t,
#   t/041-faults.t, t/044-ledger-faults.t)
set -eu
server=${1:?usage: san-modules.sh nginx|apache [TEST...]}; shift
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
asan=$(readlink -f "$(gcc -print-file-name=libasan.so)")
[ -f "$asan" ] || { echo "san-modules.sh: no libasan (gcc)" >&2; exit 1; }
san="-fsanitize=address,undefined -fno-omit-frame-pointer"
san="$san -fno-sanitize-recover=undefined"
stale() {
    [ ! -f "$1" ] ||
        [ -n "$(find common ngx_module apache_module config -newer "$1")" ]
}

case "$server" in
nginx)
    so=$top/build/san-nginx.so
    if stale "$so"; then
        RA_NGX_EXTRA_OPT="$san" scripts/nginx-module.sh /usr/share/nginx/src \
            build/san-nginx "$so"
    fi
    bin=/usr/sbin/nginx; var=RA_NGINX; modvar=RA_NGINX_MODULE
    [ $# -gt 0 ] || set -- t/02*-nginx-*.t t/04[2-9]-nginx-*.t t/040-load.t \
        t/041-faults.t t/044-ledger-faults.t
    ;;
apache)
    so=$top/build/san-apache/.libs/mod_robots_audit.so
    if stale "$so"; then
        # the core, and the c-ares lookups of the resolver thread
        objs=$(ls common/*.c common/resolver/*.c | sed 's|^|build/san/|; s|\.c$|.o|')
        make --no-print-directory $objs build/san/build/gen/ra_crawlers_data.o \
            build/san/build/gen/ra_referrers_data.o
        mkdir -p build/san-apache
        rm -f build/san-apache/*.c
        for f in apache_module/*.c; do
            ln -sf "../../$f" build/san-apache/
        done
        # shellcheck disable=SC2046,SC2086
        apxs -c -o build/san-apache/mod_robots_audit.la -Icommon \
            -Iapache_module -Wc,-std=c11 -Wc,-Wall -Wc,-Wextra -Wc,-Werror \
            -Wc,-D_GNU_SOURCE \
            -Wc,-g $(for f in $san; do printf -- '-Wc,%s -Wl,%s ' "$f" "$f"; done) \
            -Wl,-Wl,--version-script=apache_module/exports.map \
            $(ls apache_module/*.c | sed 's|^apache_module/|build/san-apache/|') \
            $objs \
            build/san/build/gen/ra_crawlers_data.o \
            build/san/build/gen/ra_referrers_data.o \
            -lz -lbrotlidec -lcrypto -lcares \
            > build/san-apache/build.log 2>&1 || { cat build/san-apache/build.log; exit 1; }
    fi
    bin=/usr/sbin/apache2; var=RA_APACHE; modvar=RA_APACHE_MODULE
    [ $# -gt 0 ] || set -- t/03*-apache-*.t t/04[2-9]-apache-*.t t/040-load.t \
        t/041-faults.t t/044-ledger-faults.t
    ;;
*) echo "san-modules.sh: nginx|apache" >&2; exit 2 ;;
esac

logs=$top/build/san-$server-logs
rm -rf "$logs"; mkdir -p "$logs"; chmod 1777 "$logs"
wrapper=$top/build/san-$server-run
cat > "$wrapper" <<EOW
#!/bin/sh
export LD_PRELOAD=$asan
export ASAN_OPTIONS=detect_leaks=0:log_path=$logs/asan
export UBSAN_OPTIONS=print_stacktrace=1:log_path=$logs/ubsan
exec $bin "\$@"
EOW
chmod +x "$wrapper"
# reports go to the log files, or to stderr (and from there into the
# tests' output) when the runtime writes them before reading its options
out=$top/build/san-$server-prove.log
rc=0
env RA_SANITIZED=1 "$var=$wrapper" "$modvar=$so" prove -I t/lib "$@" \
    > "$out" 2>&1 || rc=1
cat "$out"
if [ -n "$(ls -A "$logs")" ] \
   || grep -Eq 'runtime error:|ERROR: AddressSanitizer' "$out"; then
    echo "san-modules.sh: $server: sanitizer reports:" >&2
    head -50 "$logs"/* >&2 2>/dev/null || true
    grep -E -A8 'runtime error:|ERROR: AddressSanitizer' "$out" | head -50 >&2
    rc=1
else
    echo "san-modules.sh: $server: no sanitizer report"
fi
exit $rc
