#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The ledger as it fills: bench/ledger.c formats a large
# region of heap memory (1024 MiB unless LEDGER_MIB says otherwise) as a
# zone is formatted and feeds it requests of bots with a new User-Agent
# each through ra_audit_request(), then prints the throughput empty, at
# 90 % and while evicting.  Then 'robots-audit logs' on a 5,000,000-line
# combined log whose every line has a new bot User-Agent (lines/s).
# Needs `make`.  Usage: bench/ledger.sh [LINES]
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
B=build/bench
[ -x build/robots-audit ] && [ -f build/libra.a ] || { echo "bench: run 'make' first" >&2; exit 1; }
mkdir -p $B
make -s --no-print-directory $B/ledger

echo "== ledger: ${LEDGER_MIB:-1024} MiB filling with new bot names"
$B/ledger "${LEDGER_MIB:-1024}" "${LEDGER_SECONDS:-120}" | tee $B/ledger.out
bench_row ledger "the ledger filling with new bot names, a ${LEDGER_MIB:-1024} MiB region fed through \`ra_audit_request()\` (bench/ledger.sh)" \
    "$(awk '/^empty:/ { printf "%s req/s empty", $2 }
            /^at .* area:/ { pct = $2; sub(/.*area: /, ""); printf "; at %s of the area: %s %s", pct, $1, $2 }
            /^area full/ { sub(/.*evicting: /, ""); printf "; evicting: %s %s", $1, $2 }' $B/ledger.out)" "-" "-"

LINES=${1:-5000000}
LOG=$B/unique-ua-$LINES.log
if [ ! -f $LOG ]; then
    perl -e '
        my $n = shift;
        for my $i (1 .. $n) {
            my $s = 10 * 3600 + int($i / 1000);
            printf("83.149.9.%d - - [17/May/2015:%02d:%02d:%02d +0000] \"GET /presentations/logstash-monitorama-2013/images/kibana-search.png HTTP/1.1\" 200 203023 \"-\" \"Mozilla/5.0 (compatible; ScanBot%d/1.0; +http://example.com/bot)\"\n",
                   $i % 250 + 1, int($s / 3600) % 24, int($s / 60) % 60, $s % 60, $i);
        }' "$LINES" > $LOG.tmp
    mv $LOG.tmp $LOG
fi
printf 'User-agent: *\nDisallow: /private\n' > $B/robots-bench.txt
echo
echo "== robots-audit logs: $LINES lines, a new bot User-Agent on each"
s=$(date +%s.%N)
build/robots-audit logs --robots $B/robots-bench.txt $LOG > /dev/null
e=$(date +%s.%N)
r=$(echo "$s $e $LINES" | awk '{ printf("%.2f s, %.0f lines/s", $2 - $1, $3 / ($2 - $1)) }')
echo "$r"
bench_row ledger "\`robots-audit logs\`, $LINES lines, a new bot User-Agent on each (bench/ledger.sh)" "$r" "-" "-"
