#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The server modules built with the ledger's fault hook (RA_LEDGER_FAULT
# and RA_LEDGER_FAULT_ENV, common/ra_ledger.c): a process that finds the
# file named by $RA_LEDGER_FAULT_FILE (holding N) kills itself with
# SIGKILL at its Nth step inside a change of the ledger's structure.  For
# t/042-ledger-faults.t only: never install such a build.
#   nginx   -> build/fault-nginx.so
#   apache  -> build/fault-apache/.libs/mod_robots_audit.so
# Rebuilt when a source is newer.  Prints the module's path.
# Usage: scripts/fault-modules.sh nginx|apache
set -eu
server=${1:?usage: fault-modules.sh nginx|apache}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
opt="-DRA_LEDGER_FAULT -DRA_LEDGER_FAULT_ENV"
stale() {
    [ ! -f "$1" ] ||
        [ -n "$(find common ngx_module apache_module config -newer "$1")" ]
}

case "$server" in
nginx)
    so=$top/build/fault-nginx.so
    if stale "$so"; then
        RA_NGX_EXTRA_OPT="$opt" scripts/nginx-module.sh /usr/share/nginx/src \
            build/fault-nginx "$so" >/dev/null
    fi
    ;;
apache)
    so=$top/build/fault-apache/.libs/mod_robots_audit.so
    if stale "$so"; then
        # the core's objects of `make`, but the ledger, compiled here
        objs=$(ls common/*.c | grep -v '/ra_ledger\.c$' \
               | sed 's|^|build/obj/|; s|\.c$|.o|')
        make --no-print-directory $objs build/obj/build/gen/ra_crawlers_data.o \
            >/dev/null
        mkdir -p build/fault-apache
        rm -f build/fault-apache/*.c
        for f in apache_module/*.c common/ra_ledger.c; do
            ln -sf "../../$f" build/fault-apache/
        done
        # shellcheck disable=SC2046,SC2086
        apxs -c -o build/fault-apache/mod_robots_audit.la -Icommon \
            -Iapache_module -Wc,-std=c11 -Wc,-Wall -Wc,-Wextra -Wc,-Werror \
            -Wc,-D_GNU_SOURCE -Wc,-g $(for f in $opt; do printf -- '-Wc,%s ' "$f"; done) \
            -Wl,-Wl,--version-script=apache_module/exports.map \
            $(ls apache_module/*.c | sed 's|^apache_module/|build/fault-apache/|') \
            build/fault-apache/ra_ledger.c $objs \
            build/obj/build/gen/ra_crawlers_data.o \
            -lz -lbrotlidec -lcrypto \
            > build/fault-apache/build.log 2>&1 || { cat build/fault-apache/build.log >&2; exit 1; }
    fi
    ;;
*) echo "fault-modules.sh: nginx|apache" >&2; exit 2 ;;
esac
echo "$so"
