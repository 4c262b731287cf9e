#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Builds the Debian packages the Debian way (debhelper, debian/) into
# OUT_DIR, then holds them against lintian when it is installed:
#   libnginx-mod-http-robots-audit  the nginx module; dh_nginx writes its
#                                   load file and the modules-enabled link
#   libapache2-mod-robots-audit     the Apache module; dh_apache2 enables it
#   robots-audit                    the command, its man page, contrib/ as
#                                   examples, the ranges timer (not enabled)
# The modules depend on the ABI of this machine's servers (nginx-abi-*,
# apache2-api-*): a module only loads into the server it was built for.
# The build runs in a copy of the sources, so the tree's build/ is left
# alone.  Exit status 1 when the build fails or lintian finds an error or
# a warning.
# Usage: scripts/deb.sh [OUT_DIR]   (default build/deb)
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/build/deb}
case $out in /*) ;; *) out=$(pwd)/$out ;; esac
command -v dpkg-buildpackage >/dev/null ||
    { echo "deb.sh: dpkg-buildpackage is missing (apt-get install dpkg-dev debhelper)" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
src=$work/robots-audit
mkdir -p "$src"
tar -C "$root" --exclude=./build --exclude=./.git -cf - . | tar -C "$src" -xf -

echo "deb.sh: dpkg-buildpackage (log: $out/build.log)"
mkdir -p "$out"
if ! (cd "$src" && dpkg-buildpackage -us -uc -b -J) > "$out/build.log" 2>&1; then
    tail -n 30 "$out/build.log" >&2
    echo "deb.sh: dpkg-buildpackage failed (see $out/build.log)" >&2
    exit 1
fi
# the packages, and apart the debug symbols debhelper splits off
rm -rf "$out"/*.deb "$out/dbgsym"
mkdir -p "$out/dbgsym"
for deb in "$work"/*.deb; do
    case $deb in
    *-dbgsym_*) cp "$deb" "$out/dbgsym/" ;;
    *) cp "$deb" "$out/" ;;
    esac
done
ls "$out"/*.deb

if command -v lintian >/dev/null; then
    # every tag of error or warning severity fails the build; the
    # informational ones are shown
    if ! lintian --fail-on error,warning "$work"/*.changes \
            > "$out/lintian.log" 2>&1; then
        cat "$out/lintian.log" >&2
        echo "deb.sh: lintian found errors or warnings" >&2
        exit 1
    fi
    echo "deb.sh: lintian: no error, no warning"
else
    echo "deb.sh: lintian is not installed: the packages were not checked"
fi
