#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# Re-runs every sample and recomputes every figure that README.md,
# docs/*.md and bench/README.md quote, and fails where the page no longer
# says what a real run says (run by scripts/check-docs.sh, so by make test).
#
# A sample is a fenced block right after a line
#     <!-- sample DIR -->        a transcript: the lines that start "$ " (with
#                                "\" continuations) are run by sh, from a
#                                scratch directory holding a copy of DIR's
#                                files (none for "-"), with build/ first in
#                                PATH and ../shared beside it as it is beside
#                                the repository; the other lines are what
#                                they print;
#     <!-- sample demo -->       what `make demo` prints (scripts/demo.sh run
#                                once, RA_DEMO_ONCE=1, on a free port, shown
#                                as 8088).
# A line of a sample that is "..." stands for any number of lines; "..."
# inside a line for any text.  A sample that reads ../shared is skipped,
# saying so, when ../shared/data is not beside the repository.
#
# A figure is a number written just before "<!-- figure NAME -->"; NAME is
# one of the names in figure() below, which computes it.  Thousands
# separators are ignored.
#
# Usage: scripts/doc-samples.sh [FILE...]   (default: every page above)

set -u
# the samples load no ranges but those they name, whatever this machine
# keeps in robots-audit's default ranges directory
ROBOTS_AUDIT_RANGES_DIR=
export ROBOTS_AUDIT_RANGES_DIR
top=$(cd "$(dirname "$0")/.." && pwd) || exit 2
cd "$top" || exit 2
shared=$top/../shared
tmp=$(mktemp -d "${TMPDIR:-/tmp}/doc-samples.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT HUP INT TERM
bad=0
checked=0
skipped=0

[ $# -gt 0 ] || set -- README.md docs/*.md bench/README.md

# The value of figure $1, computed afresh.
figure() {
    case $1 in
    table-entries)
        sh scripts/coverage.sh | awk -F '|' '$2 == " entries " { print $3 + 0 }' ;;
    ledger-1024-records)
        build/robots-audit logs --robots data/elastic-robots.txt --ledger 1024 \
            --format prometheus - < /dev/null 2>/dev/null |
            awk '/^robots_audit_ledger_capacity\{table="stats"\}/ { print $2 }' ;;
    referrals-*|referral-crawls-*)
        # the crawl-to-refer figures of the real elastic log, from one run
        # of logs that every such figure reads
        log=$shared/data/logs/elastic-apache/apache_logs
        [ -f "$log" ] || { echo skip; return; }
        [ -s "$tmp/elastic.json" ] ||
            build/robots-audit logs --robots data/elastic-robots.txt \
                --format json "$log" > "$tmp/elastic.json" 2>/dev/null
        perl -MJSON::PP -e '
                my ($what, $op) = $ARGV[0] =~ /^(referrals|referral-crawls)-(.*)$/;
                local $/; my $d = decode_json(<STDIN>);
                for my $r (@{ $d->{sites}[0]{referrals} }) {
                    next unless lc $r->{operator} eq $op;
                    print $what eq "referrals" ? $r->{referrals} : $r->{crawler_requests};
                }' "$1" < "$tmp/elastic.json" ;;
    *)
        echo "unknown figure" ;;
    esac
}

# Does the output $2 match the sample's expected lines $1?  Each expected
# line becomes an anchored pattern, "..." a wildcard; a line "..." skips
# any number of output lines.
matches() {
    awk -v want="$1" '
        function pat(s,   r, i, c) {
            r = ""
            while ((i = index(s, "...")) > 0) {
                r = r quote(substr(s, 1, i - 1)) ".*"
                s = substr(s, i + 3)
            }
            return "^" r quote(s) "$"
        }
        function quote(s,   out, i, c) {
            out = ""
            for (i = 1; i <= length(s); i++) {
                c = substr(s, i, 1)
                out = out (index("\\^$.[]|()*+?{}/", c) ? "\\" c : c)
            }
            return out
        }
        BEGIN { while ((getline l < want) > 0) w[++nw] = l }
        { got[++ng] = $0 }
        # a backtracking walk: w[i..] against got[j..]
        function walk(i, j,   k) {
            if (i > nw) return j > ng
            if (w[i] == "...") {
                for (k = j; k <= ng + 1; k++) if (walk(i + 1, k)) return 1
                return 0
            }
            if (j > ng) return 0
            if (got[j] !~ pat(w[i])) { if (j > far) { far = j; farw = i }; return 0 }
            return walk(i + 1, j + 1)
        }
        END {
            far = 0
            if (walk(1, 1)) exit 0
            if (far) printf "    first difference: expected  %s\n    got              %s\n", w[farw], got[far]
            exit 1
        }' "$2"
}

# Runs the transcript $1 from a scratch copy of directory $2; writes the
# expected lines to $1.want and what the commands printed to $1.got.
run_transcript() {
    work=$tmp/run/w
    rm -rf "$tmp/run"
    mkdir -p "$work"
    [ "$2" = - ] || cp -R "$2/." "$work/"
    ln -s "$top/data" "$work/data"
    [ -d "$shared" ] && ln -s "$shared" "$tmp/run/shared"
    awk -v cmds="$1.sh" -v want="$1.want" '
        cont { print substr($0, 1) > cmds; cont = /\\$/; next }
        /^\$ / { print substr($0, 3) > cmds; cont = /\\$/; next }
        { print > want }' "$1"
    : >> "$1.want"
    (cd "$work" && PATH=$top/build:$PATH sh "$1.sh" > "$1.got" 2>&1) || true
}

run_demo() {
    port=$(perl -MIO::Socket::INET -e 'print IO::Socket::INET->new(LocalAddr=>"127.0.0.1",LocalPort=>0,Listen=>1)->sockport')
    cp "$1" "$1.want"
    # built first, so that a rebuild's own line is not taken for the demo's
    make -s build/robots-audit build/ngx_http_robots_audit_module.so \
        > /dev/null 2>&1
    RA_DEMO_ONCE=1 RA_DEMO_PORT=$port scripts/demo.sh 2>&1 |
        sed "s/127\.0\.0\.1:$port/127.0.0.1:8088/g" > "$1.got"
}

for page in "$@"; do
    [ -f "$page" ] || continue
    # every figure: "NAME VALUE LINE"
    awk '{
        s = $0
        while (match(s, /[0-9][0-9,.]*<!-- figure [a-z0-9-]+ -->/)) {
            f = substr(s, RSTART, RLENGTH)
            v = f; sub(/<!--.*/, "", v); gsub(/,/, "", v)
            n = f; sub(/^.*<!-- figure /, "", n); sub(/ -->$/, "", n)
            print n, v, NR
            s = substr(s, RSTART + RLENGTH)
        }
    }' "$page" > "$tmp/figures"
    while read -r name value line; do
        now=$(figure "$name")
        if [ "$now" = skip ]; then
            echo "$page:$line: figure $name skipped: no ../shared/data beside the repository"
            skipped=$((skipped + 1))
            continue
        fi
        checked=$((checked + 1))
        if [ "$now" != "$value" ]; then
            echo "$page:$line: figure $name says $value, a run says $now"
            bad=$((bad + 1))
        fi
    done < "$tmp/figures"

    # every sample: split into files s.N with a header line "DIR LINE"
    rm -f "$tmp"/s.*
    awk -v dir="$tmp" '
        /^<!-- sample [^ ]+ -->$/ { d = $3; at = NR; want = 1; next }
        want && /^```/ { n++; f = dir "/s." n; print d, at > f; inb = 1; want = 0; next }
        inb && /^```/ { inb = 0; close(f); next }
        inb { print > f }
        { want = 0 }' "$page"
    for s in "$tmp"/s.*; do
        [ -f "$s" ] || continue
        read -r dir line < "$s"
        sed 1d "$s" > "$s.body"
        if grep -q '\.\./shared' "$s.body" || [ "$dir" = demo ]; then
            if [ ! -d "$shared/data" ]; then
                echo "$page:$line: sample skipped: no ../shared/data beside the repository"
                skipped=$((skipped + 1))
                continue
            fi
        fi
        if [ "$dir" = demo ]; then
            run_demo "$s.body"
        else
            run_transcript "$s.body" "$dir"
        fi
        checked=$((checked + 1))
        if ! matches "$s.body.want" "$s.body.got" > "$s.diff"; then
            echo "$page:$line: the sample is not what a run prints now:"
            cat "$s.diff"
            bad=$((bad + 1))
        fi
    done
done

echo "doc-samples: $checked checked, $skipped skipped, $bad differ"
[ "$bad" -eq 0 ]
