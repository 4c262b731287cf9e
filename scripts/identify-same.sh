#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Whether two builds identify every User-Agent alike: runs
# `robots-audit identify` of both over the same User-Agents (kind,
# crawler, token and the User-Agent, one line each) and compares the
# outputs byte for byte.  For changes to the identifier that must change
# no answer.  Not part of `make test`.
# Usage: scripts/identify-same.sh OLD_BINARY [NEW_BINARY] [UA_FILE...]
#   NEW_BINARY defaults to build/robots-audit; UA files are read one
#   User-Agent a line (.json: every string; access logs: the last quoted
#   field; other files: every line, and also without a "- " list mark).
#   Without UA files: ../shared/data's User-Agent sets and access logs.
set -eu
# both builds judge without ranges, whatever this machine keeps in the
# default ranges directory (an older build reads none)
ROBOTS_AUDIT_RANGES_DIR=
export ROBOTS_AUDIT_RANGES_DIR
cd "$(dirname "$0")/.."
D=${RA_SHARED_DATA:-../shared/data}
old=${1:?usage: scripts/identify-same.sh OLD_BINARY [NEW_BINARY] [UA_FILE...]}
shift
new=build/robots-audit
if [ $# -gt 0 ] && [ -f "$1" ] && [ -x "$1" ]; then
    new=$1
    shift
fi
if [ $# -eq 0 ]; then
    for f in "$D"/useragents/*/*.json "$D"/useragents/*/*.yml \
             "$D"/logs/*/*log*; do
        [ -f "$f" ] && set -- "$@" "$f"
    done
    [ $# -gt 0 ] || { echo "identify-same: skipped: no User-Agent files" \
                           "under $D"; exit 0; }
fi
T=${TMPDIR:-/tmp}/ra-identify-same.$$
mkdir -p "$T"
trap 'rm -rf "$T"' EXIT
for f in "$@"; do
    case "$f" in
    *.json)
        perl -MJSON::PP -e '
            local $/; my $j = JSON::PP->new->decode(<STDIN>);
            my @q = ($j);
            while (@q) {
                my $v = shift @q;
                if (ref $v eq "ARRAY") { push @q, @$v }
                elsif (ref $v eq "HASH") { push @q, values %$v }
                elsif (defined $v && !ref $v) { $v =~ s/[\r\n]+/ /g; print "$v\n" }
            }' <"$f" ;;
    *log*)
        sed -n 's/.*"\([^"]*\)"[[:space:]]*$/\1/p' "$f" ;;
    *)
        cat "$f"
        sed -n 's/^[[:space:]]*- //p' "$f" ;;
    esac
done | LC_ALL=C sort -u >"$T/uas"
"$old" identify <"$T/uas" >"$T/old"
"$new" identify <"$T/uas" >"$T/new"
n=$(wc -l <"$T/uas")
if cmp -s "$T/old" "$T/new"; then
    echo "identify-same: $n User-Agents, $(wc -l <"$T/old" | tr -d ' ')" \
         "lines of output, identical"
    for k in browser crawler generic; do
        printf '  %s %s\n' "$k" "$(grep -c "^$k " "$T/old" || true)"
    done
    exit 0
fi
echo "identify-same: $n User-Agents: the outputs differ:"
diff "$T/old" "$T/new" | head -40
exit 1
