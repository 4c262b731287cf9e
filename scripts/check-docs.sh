#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# Checks that the documentation and the sources agree (run by `make test`):
#
#   (a) every log tag RAnnn in the sources of common/, ngx_module/,
#       apache_module/ and cli/ is defined in common/ra_tags.h and has a
#       heading in docs/log-tags.md, and no retired tag is still used;
#   (b) no file under common/ ngx_module/ apache_module/ cli/ tests/ fuzz/
#       bench/ scripts/ t/ contrib/ cites the team's reference notes outside
#       the repository (the contracts live in docs/ now);
#   (c) every .c .h .sh .pm .t .pl file carries the licence line
#       "SPDX-License-Identifier: BSD-2-Clause" within its first 5 lines
#       (fuzz/corpus/ and build/ excepted);
#   (d) every long option that `build/robots-audit COMMAND --help` names
#       (in its usage lines and its option list) is in that command's
#       synopsis in docs/cli.md ("Synopsis") and in docs/robots-audit.1
#       (SYNOPSIS), and those synopses name no option --help does not;
#   (e) every RA_* environment variable that scripts/, bench/, t/, tests/,
#       cli/ or common/ read is in docs/development.md;
#   (f) README.md, docs/*.md and the man page show no path of the machine
#       a sample was made on (/work/..., /home/..., /root/..., the
#       repository's own absolute path).
#   (g) docs/cli.md's table-coverage report is the one scripts/coverage.sh
#       computes from data/crawlers.txt (scripts/coverage.sh --update
#       rewrites it);
#   (h) every sample and figure the README and the docs quote is what a
#       real run prints now (scripts/doc-samples.sh: the CLI's transcripts,
#       the demo's output, the table's and the ledger's sizes);
#   (i) README.md stays a page a newcomer reads in five minutes: at most
#       300 lines;
#   (j) every relative link of README.md, docs/*.md and bench/README.md
#       names a file that exists and, after "#", a heading of that file.
#
# (d) and (h) need the built command and nginx module (`make check-docs`
# builds them first).
#
# The files checked by (b) and (c) are those git tracks plus new files not
# yet added (git ls-files --cached --others --exclude-standard), so that a
# new file is checked before its first commit.  Without git, every file
# under the directories, build/ excepted.
#
# Usage: scripts/check-docs.sh   (from anywhere; exit 0 when all pass)

set -u

top=$(cd "$(dirname "$0")/.." && pwd) || exit 2
cd "$top" || exit 2

tags_h=common/ra_tags.h
cli=build/robots-audit
cli_md=docs/cli.md
dev_md=docs/development.md
man_page=docs/robots-audit.1
commands='check lint identify logs whatif ranges robots-txt sitemap collect'
tags_md=docs/log-tags.md
spdx='SPDX-License-Identifier: BSD-2-Clause'
# the names of the two notes, written so that this file does not cite them
cited='(DESIGN|REFERENCE)[.]md'

passed=0
failed=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-docs.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT HUP INT TERM

pass() {
    echo "check-docs: $1: ok"
    passed=$((passed + 1))
}

fail() {
    echo "check-docs: $1: FAILED"
    sed 's/^/    /' "$tmp/out"
    failed=$((failed + 1))
}

# The files to look at, one per line, under the directories given.
files() {
    if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        git ls-files --cached --others --exclude-standard -- "$@"
    else
        find "$@" -type f 2>/dev/null | sed 's|^\./||'
    fi | grep -v -e '^build/' -e '^\.git/' | sort -u
}

# "TAG FILE:LINE" for every RAnnn in the files named on stdin.
tags_in() {
    while IFS= read -r f; do
        [ -f "$f" ] && awk -v f="$f" '{
            s = $0
            while (match(s, /RA[0-9][0-9][0-9]/)) {
                print substr(s, RSTART, RLENGTH), f ":" NR
                s = substr(s, RSTART + RLENGTH)
            }
        }' "$f"
    done
}


# ---- (a) log tags ------------------------------------------------------

check_tags() {
    : > "$tmp/out"
    if [ ! -f "$tags_h" ]; then
        echo "$tags_h is missing: it defines every log tag" >> "$tmp/out"
        return 1
    fi
    if [ ! -f "$tags_md" ]; then
        echo "$tags_md is missing: it documents every log tag" >> "$tmp/out"
        return 1
    fi

    # sources on disk: a tag in a file not yet added counts too
    find common ngx_module apache_module cli -type f \( -name '*.c' \
        -o -name '*.h' \) 2>/dev/null | sort | tags_in > "$tmp/uses"

    # headings of docs/log-tags.md: "TAG" or "TAG retired"
    awk '/^#/ {
        retired = ($0 ~ /[Rr]etired/)
        s = $0
        while (match(s, /RA[0-9][0-9][0-9]/)) {
            print substr(s, RSTART, RLENGTH) (retired ? " retired" : "")
            s = substr(s, RSTART + RLENGTH)
        }
    }' "$tags_md" | sort -u > "$tmp/headings"

    echo "$tags_h" | tags_in | awk '{ print $1 }' | sort -u > "$tmp/defined"

    awk '{ print $1 }' "$tmp/uses" | sort -u | while IFS= read -r tag; do
        where=$(grep "^$tag " "$tmp/uses" | awk '{ print $2 }' | head -n 3 \
                | tr '\n' ' ' | sed 's/ $//')
        if grep -q "^$tag retired\$" "$tmp/headings"; then
            # ra_tags.h may name a retired tag, to say it is never reused
            used=$(grep "^$tag " "$tmp/uses" | awk '{ print $2 }' \
                   | grep -v "^$tags_h:" | head -n 3 | tr '\n' ' ' \
                   | sed 's/ $//')
            if [ -n "$used" ]; then
                echo "$tag is retired ($tags_md) but still used: $used" \
                    >> "$tmp/out"
            fi
            continue
        fi
        if ! grep -qx "$tag" "$tmp/defined"; then
            echo "$tag is not defined in $tags_h: $where" >> "$tmp/out"
        fi
        if ! grep -q "^$tag" "$tmp/headings"; then
            echo "$tag has no heading in $tags_md: $where" >> "$tmp/out"
        fi
    done

    [ ! -s "$tmp/out" ]
}


# ---- (b) no citation of the notes outside the repository --------------

check_citations() {
    : > "$tmp/out"
    files common ngx_module apache_module cli tests fuzz bench scripts t \
          contrib > "$tmp/list"
    while IFS= read -r f; do
        [ -f "$f" ] && grep -I -n -E -H "$cited" "$f"
    done < "$tmp/list" >> "$tmp/out"
    if [ -s "$tmp/out" ]; then
        {
            echo "cite docs/design.md or docs/robots-txt.md (by heading)" \
                 "instead:"
            cat "$tmp/out"
        } > "$tmp/out2"
        mv "$tmp/out2" "$tmp/out"
        return 1
    fi
    return 0
}


# ---- (c) licence lines ---------------------------------------------------

check_licence() {
    : > "$tmp/out"
    files . | grep -E '\.(c|h|sh|pm|t|pl)$' | grep -v '^fuzz/corpus/' \
        > "$tmp/list"
    while IFS= read -r f; do
        [ -f "$f" ] || continue
        if ! head -n 5 "$f" | grep -qF "$spdx"; then
            echo "$f" >> "$tmp/out"
        fi
    done < "$tmp/list"
    if [ -s "$tmp/out" ]; then
        {
            echo "$(wc -l < "$tmp/out" | tr -d ' ') files lack" \
                 "\"$spdx\" in their first 5 lines:"
            cat "$tmp/out"
        } > "$tmp/out2"
        mv "$tmp/out2" "$tmp/out"
        return 1
    fi
    return 0
}


# ---- (d) every option of --help in docs/cli.md and the man page -------

# The long options of a --help text on stdin: its usage lines (up to the
# first blank line) and the lines of its option list (starting with --).
help_options() {
    awk 'NR == 1 { usage = 1 }
         usage && /^[[:space:]]*$/ { usage = 0 }
         usage || /^[[:space:]]*--/ { print }' |
        grep -oE -- '--[a-z][a-z0-9-]*' | grep -vx -- '--help' | sort -u
}

# docs/cli.md's synopsis of command $1: the lines of the first ``` block
# after "## Synopsis" that start "robots-audit $1 ", with the indented
# lines that continue them.
readme_synopsis() {
    awk -v cmd="$1" '
        /^## Synopsis/ { sect = 1; next }
        sect && /^```/ { if (inblock) exit; inblock = 1; next }
        inblock {
            if ($0 ~ "^robots-audit " cmd " ") { take = 1; print; next }
            if (take && /^[[:space:]]/) { print; next }
            take = 0
        }' "$cli_md"
}

# The man page's SYNOPSIS entries (.SY ... .YS) for command $1, with the
# roff escapes of "-", "~" and "\c" undone.
man_synopsis() {
    awk -v cmd="$1" '
        /^\.SH SYNOPSIS/ { sect = 1; next }
        sect && /^\.SH / { exit }
        sect && /^\.SY/ { n = 0; block = ""; next }
        sect && /^\.YS/ { if (mine) printf "%s", block; mine = 0; next }
        sect {
            n++
            line = $0
            gsub(/\\-/, "-", line)
            if (n == 1 && line == ".B " cmd) { mine = 1 }
            block = block $0 "\n"
        }' "$man_page" | sed -e 's/\\-/-/g' -e 's/\\~/ /g' -e 's/\\c//g'
}

check_options() {
    : > "$tmp/out"
    if [ ! -x "$cli" ]; then
        echo "$cli is not built: run make (or make check-docs)" >> "$tmp/out"
        return 1
    fi
    for c in $commands; do
        if ! "$cli" "$c" --help > "$tmp/help" 2>&1; then
            echo "'$cli $c --help' failed" >> "$tmp/out"
            continue
        fi
        help_options < "$tmp/help" > "$tmp/opts"
        if [ ! -s "$tmp/opts" ]; then
            echo "'$c --help' names no option" >> "$tmp/out"
        fi
        readme_synopsis "$c" > "$tmp/readme"
        man_synopsis "$c" > "$tmp/man"
        for where in readme man; do
            if [ ! -s "$tmp/$where" ]; then
                echo "$c: no synopsis in $where" >> "$tmp/out"
                continue
            fi
            while IFS= read -r o; do
                if ! grep -qE -- "$o([^a-z0-9-]|\$)" "$tmp/$where"; then
                    echo "$c $o (in --help) is not in the $where synopsis" \
                        >> "$tmp/out"
                fi
            done < "$tmp/opts"
            grep -oE -- '--[a-z][a-z0-9-]*' "$tmp/$where" | sort -u |
                while IFS= read -r o; do
                    if ! grep -qx -- "$o" "$tmp/opts"; then
                        echo "$c $o (in the $where synopsis) is not in" \
                             "--help" >> "$tmp/out"
                    fi
                done
        done
    done
    sed -i -e "s| readme synopsis| synopsis of $cli_md|" \
           -e "s| man synopsis| man page's SYNOPSIS ($man_page)|" "$tmp/out"
    [ ! -s "$tmp/out" ]
}


# ---- (e) environment variables documented ------------------------------

check_env() {
    : > "$tmp/out"
    {
        files scripts bench Makefile | grep -E '(\.sh|\.pl|Makefile)$' |
            while IFS= read -r f; do
                [ -f "$f" ] && grep -oE '\$\{?RA_[A-Z0-9_]+' "$f" |
                    sed 's/^\${\{0,1\}//'
            done
        files t | grep -E '\.(t|pm)$' | while IFS= read -r f; do
            [ -f "$f" ] && grep -oE 'ENV\{RA_[A-Z0-9_]+\}' "$f" |
                sed -e 's/^ENV{//' -e 's/}$//'
        done
        files tests cli common | grep -E '\.c$' | while IFS= read -r f; do
            [ -f "$f" ] && grep -oE 'getenv\("RA_[A-Z0-9_]+"' "$f" |
                sed -e 's/^getenv("//' -e 's/"$//'
        done
    } | sort -u > "$tmp/env"
    while IFS= read -r v; do
        if ! grep -qE "(^|[^A-Z0-9_])$v([^A-Z0-9_]|\$)" "$dev_md"; then
            echo "$v is read but not documented in $dev_md" \
                 "(\"Environment variables\")" >> "$tmp/out"
        fi
    done < "$tmp/env"
    if [ ! -s "$tmp/env" ]; then
        echo "no RA_* variable found: the search is broken" >> "$tmp/out"
    fi
    [ ! -s "$tmp/out" ]
}


# ---- (f) no path of the author's machine in the docs -------------------

check_paths() {
    : > "$tmp/out"
    for f in README.md docs/*.md bench/README.md "$man_page"; do
        [ -f "$f" ] || continue
        grep -n -H -E '(^|[^A-Za-z0-9_.~-])/(work|home|root)/' "$f" \
            >> "$tmp/out"
        grep -n -H -F "$top/" "$f" >> "$tmp/out"
    done
    if [ -s "$tmp/out" ]; then
        {
            echo "write repository-relative paths in samples:"
            sort -u "$tmp/out"
        } > "$tmp/out2"
        mv "$tmp/out2" "$tmp/out"
        return 1
    fi
    return 0
}


if check_tags; then
    pass "(a) log tags in ra_tags.h and docs/log-tags.md"
else
    fail "(a) log tags in ra_tags.h and docs/log-tags.md"
fi

if check_citations; then
    pass "(b) no citation of notes outside the repository"
else
    fail "(b) no citation of notes outside the repository"
fi

if check_licence; then
    pass "(c) SPDX licence line in every source file"
else
    fail "(c) SPDX licence line in every source file"
fi

if check_options; then
    pass "(d) every --help option in the docs/cli.md and man page synopses"
else
    fail "(d) every --help option in the docs/cli.md and man page synopses"
fi

if check_env; then
    pass "(e) every RA_* environment variable documented in $dev_md"
else
    fail "(e) every RA_* environment variable documented in $dev_md"
fi

if check_paths; then
    pass "(f) no path of the author's machine in the docs"
else
    fail "(f) no path of the author's machine in the docs"
fi

if sh scripts/coverage.sh --check > "$tmp/out" 2>&1; then
    pass "(g) $cli_md's coverage report is that of data/crawlers.txt"
else
    fail "(g) $cli_md's coverage report is that of data/crawlers.txt"
fi

if sh scripts/doc-samples.sh > "$tmp/out" 2>&1; then
    pass "(h) $(tail -n 1 "$tmp/out" | sed 's/^doc-samples: //')"
else
    fail "(h) every sample and figure of the docs as a run prints it"
fi

lines=$(wc -l < README.md)
if [ "$lines" -le 300 ]; then
    pass "(i) README.md is $lines lines (at most 300)"
else
    echo "README.md is $lines lines: move details to docs/" > "$tmp/out"
    fail "(i) README.md at most 300 lines"
fi


# Relative links "[text](path#anchor)": the file must exist, the anchor be
# the slug of one of its headings as the code hosts make it (lower case,
# punctuation but "-" and "_" dropped, spaces to "-").
if perl -e '
    my $bad = 0;
    sub slugs {
        my ($f) = @_; my %s; open(my $h, "<", $f) or return {};
        my $code = 0;
        while (<$h>) {
            $code = !$code if /^```/;
            next if $code or !/^#+\s+(.*?)\s*$/;
            (my $t = lc $1) =~ s/[^\w\- ]//g; $t =~ s/ /-/g; $s{$t} = 1;
        }
        return \%s;
    }
    for my $f (@ARGV) {
        open(my $h, "<", $f) or next; (my $dir = $f) =~ s{[^/]*$}{};
        my $code = 0;
        while (my $l = <$h>) {
            my $n = $.;
            $code = !$code if $l =~ /^```/;
            next if $code;
            while ($l =~ /\]\(([^()\s]+)\)/g) {
                my $t = $1; next if $t =~ m{^[a-z]+:};
                my ($path, $anchor) = split /#/, $t, 2;
                my $target = $path eq "" ? $f : $dir . $path;
                if (!-e $target) { print "$f:$n: $t: no file $target\n"; $bad++; next }
                next unless defined $anchor && $target =~ /\.md$/;
                next if slugs($target)->{$anchor};
                print "$f:$n: $t: no heading #$anchor in $target\n"; $bad++;
            }
        }
    }
    exit($bad ? 1 : 0);' README.md docs/*.md bench/README.md > "$tmp/out" 2>&1
then
    pass "(j) every relative link of the docs resolves"
else
    fail "(j) every relative link of the docs resolves"
fi

echo "check-docs: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
