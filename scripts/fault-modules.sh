#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The server modules built with the ledger's fault hook (RA_LEDGER_FAULT
# and RA_LEDGER_FAULT_ENV, common/ra_ledger*.c): a process that finds the
# file named by $RA_LEDGER_FAULT_FILE (holding N) kills itself with
# SIGKILL at its Nth step inside a change of the ledger's structure.  For
# t/044-ledger-faults.t only: never install such a build.
#   nginx   -> build/fault-nginx.so
#   apache  -> build/fault-apache/.libs/mod_robots_audit.so
# Under scripts/san-modules.sh (RA_SANITIZED=1) the same with ASan+UBSan,
# into build/fault-san-nginx.so and build/fault-san-apache/.
# Rebuilt when a source is newer.  Prints the module's path.
# Usage: scripts/fault-modules.sh nginx|apache
set -eu
server=${1:?usage: fault-modules.sh nginx|apache}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
opt="-DRA_LEDGER_FAULT -DRA_LEDGER_FAULT_ENV"
tag=fault; obj=obj; san=
if [ -n "${RA_SANITIZED:-}" ]; then
    tag=fault-san; obj=san
    san="-fsanitize=address,undefined -fno-omit-frame-pointer"
    san="$san -fno-sanitize-recover=undefined"
fi
stale() {
    [ ! -f "$1" ] ||
        [ -n "$(find common ngx_module apache_module config -newer "$1")" ]
}

case "$server" in
nginx)
    so=$top/build/$tag-nginx.so
    if stale "$so"; then
        RA_NGX_EXTRA_OPT="$opt $san" scripts/nginx-module.sh \
            /usr/share/nginx/src build/$tag-nginx "$so" >/dev/null
    fi
    ;;
apache)
    d=build/$tag-apache
    so=$top/$d/.libs/mod_robots_audit.so
    if stale "$so"; then
        # the core's objects of `make` (or of make unit-test, sanitized),
        # but the ledger's files, compiled here
        objs=$(ls common/*.c common/resolver/*.c | grep -v '/ra_ledger[^/]*\.c$' \
               | sed "s|^|build/$obj/|; s|\\.c\$|.o|")
        make --no-print-directory $objs build/$obj/build/gen/ra_crawlers_data.o \
            build/$obj/build/gen/ra_referrers_data.o \
            >/dev/null
        mkdir -p $d
        rm -f $d/*.c
        for f in apache_module/*.c common/ra_ledger*.c; do
            ln -sf "../../$f" $d/
        done
        # shellcheck disable=SC2046,SC2086
        apxs -c -o $d/mod_robots_audit.la -Icommon \
            -Iapache_module -Wc,-std=c11 -Wc,-Wall -Wc,-Wextra -Wc,-Werror \
            -Wc,-D_GNU_SOURCE -Wc,-g \
            $(for f in $opt; do printf -- '-Wc,%s ' "$f"; done) \
            $(for f in $san; do printf -- '-Wc,%s -Wl,%s ' "$f" "$f"; done) \
            -Wl,-Wl,--version-script=apache_module/exports.map \
            $(ls apache_module/*.c | sed "s|^apache_module/|$d/|") \
            $d/ra_ledger*.c $objs \
            build/$obj/build/gen/ra_crawlers_data.o \
            build/$obj/build/gen/ra_referrers_data.o \
            -lz -lbrotlidec -lcrypto -lcares \
            > $d/build.log 2>&1 || { cat $d/build.log >&2; exit 1; }
    fi
    ;;
*) echo "fault-modules.sh: nginx|apache" >&2; exit 2 ;;
esac
echo "$so"
