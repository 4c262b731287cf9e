#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# 'robots-audit logs' vs GoAccess on the same 1,000,000-line combined log,
# built from ../shared/data/logs/elastic-apache/apache_logs repeated 100
# times, each copy 4 days after the previous one so that the log stays in
# time order (the audit's 24-hour windows follow the log's clock).
# Prints lines/s of each, the ratio and robots-audit's peak memory
# (resident, GNU time).  Needs `make` and goaccess
# (scripts/deps.sh bench).  Usage: bench/logs.sh [ROUNDS]
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
D=${RA_SHARED_DATA:-../shared/data}
B=build/bench
SRC="$D/logs/elastic-apache/apache_logs"
[ -x build/robots-audit ] || { echo "bench: run 'make' first" >&2; exit 1; }
[ -f "$SRC" ] || { echo "logs: skipped: $SRC not found"; exit 0; }
command -v goaccess >/dev/null || { echo "logs: skipped: goaccess not installed"; exit 0; }
mkdir -p $B
LOG=$B/access-1m.log
ROUNDS=${1:-100}

if [ ! -f $LOG ] || [ "$(wc -l < $LOG)" -ne $((ROUNDS * 10000)) ]; then
    perl -MTime::Local=timegm -e '
        my ($src, $rounds) = @ARGV;
        open(my $f, "<", $src) or die "$src: $!";
        my @l = <$f>;
        my %m; @m{qw(Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec)} = 0..11;
        my @n = sort { $m{$a} <=> $m{$b} } keys %m;
        for my $r (0 .. $rounds - 1) {
            for (@l) {
                my $s = $_;
                $s =~ s{\[(\d\d)/(\w\w\w)/(\d{4}):(\d\d):(\d\d):(\d\d) ([-+]\d{4})\]}{
                    my $t = timegm($6, $5, $4, $1, $m{$2}, $3) + $r * 4 * 86400;
                    my @g = gmtime($t);
                    sprintf("[%02d/%s/%04d:%02d:%02d:%02d %s]", $g[3], $n[$g[4]],
                            $g[5] + 1900, $g[2], $g[1], $g[0], $7)
                }e;
                print $s;
            }
        }' "$SRC" "$ROUNDS" > $LOG.tmp
    mv $LOG.tmp $LOG
fi
lines=$(wc -l < $LOG)

secs() {
    s=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || { echo "bench: '$*' failed" >&2; exit 1; }
    e=$(date +%s.%N); echo "$e - $s" | bc -l
}
best() { b=999999; for i in 1 2 3; do x=$(secs "$@"); b=$(echo "if ($x < $b) $x else $b" | bc -l); done; echo $b; }

echo "== access logs: robots-audit logs vs GoAccess, $lines lines ($(du -h $LOG | cut -f1))"
ours=$(best build/robots-audit logs --robots data/elastic-robots.txt --format json $LOG)
theirs=$(best goaccess $LOG --log-format=COMBINED --no-global-config -o $B/goaccess.json)
# peak memory (resident), one more run: GNU time's %M, in KiB
/usr/bin/time -f '%M' -o $B/logs.peak build/robots-audit logs \
    --robots data/elastic-robots.txt --format json $LOG > /dev/null 2>&1
peak=$(awk '{ v = $1 } END { printf "%.1f", v / 1024 }' $B/logs.peak)
printf 'robots-audit logs: %8.3f s  %10.0f lines/s  peak memory %s MiB\n' "$ours" "$(echo "$lines / $ours" | bc -l)" "$peak"
printf 'goaccess:          %8.3f s  %10.0f lines/s\n' "$theirs" "$(echo "$lines / $theirs" | bc -l)"
printf 'ratio:             %8.1fx\n' "$(echo "$theirs / $ours" | bc -l)"
bench_row logs "\`robots-audit logs\`, $lines lines built from the real log (bench/logs.sh)" \
    "$(printf '%.0f lines/s (%.3f s), peak memory %s MiB' "$(echo "$lines / $ours" | bc -l)" "$ours" "$peak")" \
    "$(printf 'GoAccess: %.0f lines/s (%.2f s)' "$(echo "$lines / $theirs" | bc -l)" "$theirs")" \
    "$(printf '%.1fx' "$(echo "$theirs / $ours" | bc -l)")"
