#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Builds the nginx dynamic module against the installed nginx's sources
# (Debian's nginx-dev), with the stock build's configure flags, so that the
# stock nginx binary loads it.
# Usage: scripts/nginx-module.sh NGINX_SRC BUILD_DIR OUTPUT.so
set -eu

src=$1; dir=$2; out=$3
repo=$(cd "$(dirname "$0")/.." && pwd)

[ -x "$src/configure" ] || { echo "nginx-module.sh: no nginx sources in $src (install nginx-dev)" >&2; exit 1; }

# the stock flags (they include --with-compat); configure flags only, the
# list of dynamic modules is not needed to build ours
NGX_CONF_FLAGS="--with-compat"
if [ -r "$src/conf_flags" ]; then
    # shellcheck disable=SC1091
    NGX_CONF_FLAGS=$(bash -c ". '$src/conf_flags'; printf '%s\n' \"\${NGX_CONF_FLAGS[@]}\"" | tr '\n' ' ')
fi

# the stock binary's compiler and linker options (nginx -V), less its
# -ffile-prefix-map
cc_opt="-g -O2 -fstack-protector-strong -Wformat -Werror=format-security -fPIC -Wdate-time -D_FORTIFY_SOURCE=2"
ld_opt="-Wl,-z,relro -Wl,-z,now -fPIC"
# extra options for both, e.g. a sanitizer build (scripts/san-modules.sh)
cc_opt="$cc_opt ${RA_NGX_EXTRA_OPT:-}"
ld_opt="$ld_opt ${RA_NGX_EXTRA_OPT:-}"

rm -rf "$dir"
mkdir -p "$dir"
cp -a "$src/." "$dir/"
cd "$dir"
# shellcheck disable=SC2086
./configure $NGX_CONF_FLAGS --with-cc-opt="$cc_opt" --with-ld-opt="$ld_opt" \
    --add-dynamic-module="$repo" >configure.log 2>&1 || {
    tail -30 configure.log >&2; echo "nginx-module.sh: configure failed (see $dir/configure.log)" >&2; exit 1; }
make -j"$(nproc 2>/dev/null || echo 2)" -f objs/Makefile modules >make.log 2>&1 || {
    grep -E "error|Error" make.log | head -30 >&2; echo "nginx-module.sh: make modules failed (see $dir/make.log)" >&2; exit 1; }
cd - >/dev/null
cp "$dir/objs/ngx_http_robots_audit_module.so" "$out"
echo "built $out"
