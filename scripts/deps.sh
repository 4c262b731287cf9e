#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Installs the Debian packages a make target needs; a no-op when they are
# all present.  Usage: scripts/deps.sh build|test|bench|demo
set -eu

# zlib and libbrotlidec: the core undoes Content-Encoding (common/ra_decode.c);
# their -dev packages pull in the runtime libraries (zlib1g, libbrotli1)
# c-ares: reverse DNS in the CLI and Apache's resolver thread
# (common/resolver/ra_ares.c)
pkgs="build-essential pkg-config zlib1g-dev libbrotli-dev libssl-dev libc-ares-dev"
# libcurl: the CLI's `ranges update` fetches the published range files
# (cli/cmd_ranges.c; the core and the modules do not link it)
pkgs="$pkgs libcurl4-openssl-dev"
case "${1:-build}" in
# debhelper builds the packages (make deb), lintian checks them (make test)
build) pkgs="$pkgs apache2 apache2-dev nginx nginx-dev dpkg-dev debhelper" ;;
test)  pkgs="$pkgs libcmocka-dev valgrind perl nginx nginx-dev apache2 apache2-dev"
       # the browser (t/040), promtool and fail2ban-regex (t/060), man (t/070)
       pkgs="$pkgs chromium prometheus fail2ban man-db"
       # wrk (t/040-load.t, t/041-faults.t), clang (make fuzz-smoke),
       # brotli (br answers in t/027, t/035), curl (HTTP/2 in t/059, t/061)
       pkgs="$pkgs wrk clang libclang-rt-14-dev brotli curl"
       # the Debian packages built and checked (t/050-packages.t)
       pkgs="$pkgs dpkg-dev debhelper lintian" ;;
bench) pkgs="$pkgs libpcre2-dev nodejs goaccess valgrind wrk bc perl nginx nginx-dev"
       # GNU time: peak memory in bench/logs.sh
       pkgs="$pkgs time"
       # NodeSource's nodejs carries npm and conflicts with Debian's package
       command -v npm >/dev/null || pkgs="$pkgs npm" ;;
demo)  pkgs="$pkgs nginx nginx-dev perl" ;;
fuzz)  pkgs="$pkgs clang libclang-rt-14-dev" ;;
*) echo "deps.sh: unknown target '$1'" >&2; exit 2 ;;
esac

missing=""
for p in $pkgs; do
    st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    case "$st" in
    *"install ok installed"*) ;;
    *) missing="$missing $p" ;;
    esac
done
[ -z "$missing" ] && exit 0

sudo=""
if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null || { echo "deps.sh: need root or sudo to install:$missing" >&2; exit 1; }
    sudo="sudo"
fi
echo "deps.sh: installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >&2
# shellcheck disable=SC2086
$sudo apt-get install -y -qq --no-install-recommends $missing >&2
