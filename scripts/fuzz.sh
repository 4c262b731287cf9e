#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Runs the libFuzzer targets built by `make fuzz` (build/fuzz/fuzz_*).
#
#   scripts/fuzz.sh smoke SECONDS BIN...  each target for SECONDS on its
#       committed corpus (fuzz/corpus/NAME, read only: new inputs go to a
#       temporary directory) and, when ../shared/data is there (CI clones
#       it beside the repository), the same slices of it as the long run;
#       fails on the first crash
#   scripts/fuzz.sh run SECONDS BIN...    the long run: corpus
#       build/fuzz/corpus/NAME, seeded from fuzz/corpus/NAME and small
#       slices of ../shared/data (never committed); crashes go to
#       build/fuzz/crash/NAME/, the log to build/fuzz/run/NAME/fuzz-0.log
set -eu
mode=$1; secs=$2; shift 2
shared=${RA_SHARED_DATA:-../shared/data}
top=$(pwd)

# seed_NAME DIR: small slices of the shared data, when present
seed_robots() {     # robots-stress bodies, cut to 64 KiB
    [ -d "$shared/robots-stress" ] || return 0
    for f in "$shared"/robots-stress/*.txt; do
        head -c 65536 "$f" > "$1/stress-$(basename "$f")"
    done
}
seed_fuzz_parse() { seed_robots "$1"; }
seed_fuzz_lint() {  # 6 bytes of HTTP facts (200, text/plain) + a body
    seed_robots "$1"
    for f in "$1"/stress-*; do
        { printf '\004\000\310\012text/plain\000\000\000\000'; cat "$f"; } \
            > "$f.lint" && mv "$f.lint" "$f"
    done
}
seed_fuzz_match() { # AGENT \n URL \n BODY
    seed_robots "$1"
    for f in "$1"/stress-*; do
        { printf 'Googlebot\n/a/b.html?q=1\n'; cat "$f"; } > "$f.m" &&
            mv "$f.m" "$f"
    done
}
seed_fuzz_crawlers() {  # real User-Agents, one a file
    ua="$shared/useragents/isbot/browsers.yml"
    [ -f "$ua" ] || return 0
    sed -n 's/^ *- *//p' "$ua" | head -100 | awk -v d="$1" \
        '{ f = d "/browser-" NR; printf "%s", $0 > f; close(f) }'
    cj="$shared/useragents/crawler-user-agents/crawler-user-agents.json"
    [ -f "$cj" ] || return 0
    perl -MJSON::PP -e 'local $/; my $j = decode_json(<STDIN>); my $n = 0;
        for my $e (@$j) { for my $i (@{$e->{instances} || []}) {
            last if $n >= 300; open my $o, ">", "$ARGV[0]/crawler-" . $n++;
            print $o $i; } }' "$1" < "$cj"
}
seed_fuzz_accesslog() { # the first lines of the real logs, one a file
    for f in "$shared"/logs/*/*; do
        [ -f "$f" ] || continue
        head -150 "$f" | awk -v d="$1" -v b="$(basename "$f")" \
            '{ f = d "/" b "-" NR; printf "%s", $0 > f; close(f) }'
    done
}
seed_fuzz_ranges() {  # the crawler publishers' files, loaded as such
    for f in "$shared"/ip-ranges/*.json; do
        [ -f "$f" ] || continue
        { printf '\000'; head -c 65536 "$f"; } > "$1/$(basename "$f")"
    done
}
seed_fuzz_report() { :; }
seed_fuzz_sig() { :; }     # the committed vectors are its seeds
seed_fuzz_sf() { :; }      # the committed fields are its seeds
seed_fuzz_state() { :; }   # the saved ledger is in the target itself
seed_fuzz_pagedir() { :; }     # the committed pages are its seeds
seed_fuzz_sitemap() { :; }     # the committed sitemaps are its seeds
seed_fuzz_undeclared() { :; }  # the committed request runs are its seeds

fail=0
for bin in "$@"; do
    name=$(basename "$bin")
    seeds="$top/fuzz/corpus/$name"
    mkdir -p "$seeds"
    case "$mode" in
    smoke)
        tmp=$(mktemp -d)
        mkdir "$tmp/new" "$tmp/shared"
        if [ -d "$shared" ]; then
            "seed_$name" "$tmp/shared" 2>/dev/null || true
        elif [ -z "${said_absent:-}" ]; then
            said_absent=1
            echo "fuzz-smoke: $shared absent: committed corpora only"
        fi
        if ! "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
                -artifact_prefix="$tmp/" "$tmp/new" "$seeds" "$tmp/shared" \
                > "$tmp/log" 2>&1; then
            tail -40 "$tmp/log"
            mkdir -p build/fuzz/crash/smoke
            cp "$tmp"/crash-* "$tmp"/leak-* "$tmp"/timeout-* "$tmp"/oom-* \
                build/fuzz/crash/smoke/ 2>/dev/null || true
            echo "fuzz-smoke: $name FAILED" >&2; fail=1
        else
            echo "fuzz-smoke: $name ok, $(grep -o 'Done [0-9]* runs' \
                "$tmp/log" | tail -1)"
        fi
        rm -rf "$tmp"
        ;;
    run)
        # -jobs=1 writes fuzz-0.log into the working directory
        run=$top/build/fuzz/run/$name
        corpus=$top/build/fuzz/corpus/$name; crash=$top/build/fuzz/crash/$name
        mkdir -p "$run" "$corpus" "$crash"
        cp "$seeds"/* "$corpus"/ 2>/dev/null || true
        "seed_$name" "$corpus" 2>/dev/null || true
        bin=$(cd "$(dirname "$bin")" && pwd)/$name
        (cd "$run" && "$bin" -max_total_time="$secs" -jobs=1 -timeout=10 \
            -rss_limit_mb=2048 -max_len=70000 -artifact_prefix="$crash/" \
            "$corpus" > "$top/build/fuzz/$name.log" 2>&1) || fail=1
        ;;
    *) echo "fuzz.sh: smoke|run SECONDS BIN..." >&2; exit 2 ;;
    esac
done
exit $fail
