#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Builds the Debian packages with dpkg-deb, in the style of Debian's own
# libnginx-mod-* and libapache2-mod-* packages:
#   libnginx-mod-http-robots-audit  the nginx module, its modules-available
#                                   file and the modules-enabled link
#   libapache2-mod-robots-audit     the Apache module and its mods-available
#                                   files (enabled with a2enmod on install)
#   robots-audit                    the command, its man page, contrib/
# The ABI dependencies are what this machine's servers provide (nginx-abi-*
# from nginx, apache2-api-* from apache2-bin): a module only loads into the
# server it was built for.
# Usage: scripts/deb.sh BUILD_DIR OUT_DIR  (BUILD_DIR holds the built files)
set -eu

b=${1:-build}
out=${2:-$b/deb}
root=$(cd "$(dirname "$0")/.." && pwd)
for f in robots-audit ngx_http_robots_audit_module.so mod_robots_audit.so; do
    [ -f "$b/$f" ] || { echo "deb.sh: $b/$f is not built (make)" >&2; exit 1; }
done

version=$("$b/robots-audit" --version | sed -n 's/^robots-audit //p')
arch=$(dpkg --print-architecture)
maint="robots-audit developers <robots-audit@localhost>"

provides() {
    dpkg-query -W -f='${Provides}' "$1" 2>/dev/null | tr ',' '\n' |
        sed -n "s/^ *\($2[^ (]*\).*/\1/p" | head -n 1
}
nginx_abi=$(provides nginx 'nginx-abi-')
[ -n "$nginx_abi" ] || nginx_abi=$(provides nginx-core 'nginx-abi-')
apache_api=$(provides apache2-bin 'apache2-api-[0-9]*$')
[ -n "$apache_api" ] || apache_api=$(provides apache2-bin 'apache2-api-')
die() { echo "deb.sh: $*" >&2; exit 1; }
[ -n "$nginx_abi" ] || die "no nginx-abi-* (is nginx installed?)"
[ -n "$apache_api" ] || die "no apache2-api-* (is apache2-bin installed?)"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# shared-library dependencies of ELF files, as dpkg-shlibdeps reads them;
# without it, what every binary links: libc, and zlib and libbrotlidec for
# the core's Content-Encoding decoder, c-ares for reverse DNS (the CLI, and
# Apache's resolver thread)
libs="libc6, zlib1g, libbrotli1, libc-ares2"
shlibdeps() {
    mkdir -p "$work/shl/debian"
    printf 'Source: %s\n\nPackage: %s\nArchitecture: any\n' \
        robots-audit robots-audit > "$work/shl/debian/control"
    (cd "$work/shl" && dpkg-shlibdeps -O "$@" 2>/dev/null) |
        sed -n 's/^shlibs:Depends=//p'
}

# pkg NAME DEPENDS DESCRIPTION: writes DEBIAN/control into $work/NAME and
# builds OUT/NAME_VERSION_ARCH.deb
pkg() {
    d="$work/$1"
    size=$(du -sk --exclude=DEBIAN "$d" | cut -f1)
    mkdir -p "$d/DEBIAN"
    {
        echo "Package: $1"
        echo "Version: $version"
        echo "Architecture: $arch"
        echo "Maintainer: $maint"
        echo "Installed-Size: $size"
        echo "Depends: $2"
        echo "Section: $4"
        echo "Priority: optional"
        printf 'Description: %s\n' "$3"
    } > "$d/DEBIAN/control"
    if [ -d "$d/etc" ]; then
        (cd "$d" && find etc -type f | sed 's|^|/|') > "$d/DEBIAN/conffiles"
    fi
    for s in postinst prerm postrm; do
        [ -f "$d/DEBIAN/$s" ] && chmod 0755 "$d/DEBIAN/$s"
    done
    mkdir -p "$out"
    dpkg-deb --root-owner-group -Zxz --build "$d" \
        "$out/${1}_${version}_$arch.deb" >/dev/null
    echo "$out/${1}_${version}_$arch.deb"
}

doc() {   # doc PKG: the package's copyright-less doc directory
    mkdir -p "$work/$1/usr/share/doc/$1"
    gzip -9n < "$work/changelog" > "$work/$1/usr/share/doc/$1/changelog.gz"
}
printf 'robots-audit (%s)\n\n  * Built from %s on %s.\n' "$version" \
    "$(cd "$root" && git rev-parse --short HEAD 2>/dev/null || echo sources)" \
    "$(date -u +%Y-%m-%d)" > "$work/changelog"

# ---- libnginx-mod-http-robots-audit ------------------------------------
n=libnginx-mod-http-robots-audit
d="$work/$n"
so="$d/usr/lib/nginx/modules/ngx_http_robots_audit_module.so"
install -D -m 0644 "$b/ngx_http_robots_audit_module.so" "$so"
strip --strip-unneeded "$so"
mkdir -p "$d/usr/share/nginx/modules-available"
echo 'load_module modules/ngx_http_robots_audit_module.so;' \
    > "$d/usr/share/nginx/modules-available/mod-http-robots-audit.conf"
doc "$n"
mkdir -p "$d/DEBIAN"
# the modules-enabled link, made and removed as Debian's libnginx-mod-*
# packages do (a link is not a conffile: the maintainer scripts own it)
cat > "$d/DEBIAN/postinst" <<'EOF'
#!/bin/sh
set -e
link=/etc/nginx/modules-enabled/50-mod-http-robots-audit.conf
if [ "$1" = configure ] && [ -z "$2" ] && [ ! -e "$link" ] \
   && [ ! -L "$link" ]; then
    mkdir -p /etc/nginx/modules-enabled
    ln -s /usr/share/nginx/modules-available/mod-http-robots-audit.conf "$link"
fi
exit 0
EOF
cat > "$d/DEBIAN/postrm" <<'EOF'
#!/bin/sh
set -e
link=/etc/nginx/modules-enabled/50-mod-http-robots-audit.conf
if [ "$1" = remove ] || [ "$1" = purge ]; then
    if [ -L "$link" ]; then
        rm -f "$link"
    fi
fi
exit 0
EOF
dep=$(shlibdeps -e"$so")
pkg "$n" "$nginx_abi, ${dep:-$libs}" "robots.txt audit module for nginx
 Judges every crawler request against the robots.txt the site serves
 (RFC 9309 and Google's reading), verifies crawlers by their published
 IP ranges, lints robots.txt, and serves a status page in HTML, JSON and
 Prometheus formats (robots_audit_* directives)." httpd

# ---- libapache2-mod-robots-audit ---------------------------------------
n=libapache2-mod-robots-audit
d="$work/$n"
install -D -m 0644 "$b/mod_robots_audit.so" \
    "$d/usr/lib/apache2/modules/mod_robots_audit.so"
strip --strip-unneeded "$d/usr/lib/apache2/modules/mod_robots_audit.so"
install -D -m 0644 "$root/apache_module/robots_audit.load" \
    "$d/etc/apache2/mods-available/robots_audit.load"
install -D -m 0644 "$root/apache_module/robots_audit.conf" \
    "$d/etc/apache2/mods-available/robots_audit.conf"
doc "$n"
mkdir -p "$d/DEBIAN"
# as dh_apache2 writes them: enable on install, disable on removal
cat > "$d/DEBIAN/postinst" <<'EOF'
#!/bin/sh
set -e
helper=/usr/share/apache2/apache2-maintscript-helper
if [ "$1" = configure ] && [ -e "$helper" ]; then
    . "$helper"
    apache2_invoke enmod robots_audit || exit 1
fi
exit 0
EOF
cat > "$d/DEBIAN/prerm" <<'EOF'
#!/bin/sh
set -e
helper=/usr/share/apache2/apache2-maintscript-helper
if [ "$1" = remove ] && [ -e "$helper" ]; then
    . "$helper"
    apache2_invoke dismod robots_audit || exit 1
fi
exit 0
EOF
cat > "$d/DEBIAN/postrm" <<'EOF'
#!/bin/sh
set -e
helper=/usr/share/apache2/apache2-maintscript-helper
if [ "$1" = purge ] && [ -e "$helper" ]; then
    . "$helper"
    apache2_invoke dismod robots_audit || exit 1
fi
exit 0
EOF
dep=$(shlibdeps -e"$d/usr/lib/apache2/modules/mod_robots_audit.so")
pkg "$n" "$apache_api, ${dep:-$libs}" "robots.txt audit module for Apache httpd
 Judges every crawler request against the robots.txt the site serves
 (RFC 9309 and Google's reading), verifies crawlers by their published
 IP ranges, lints robots.txt, and serves a status page in HTML, JSON and
 Prometheus formats (RobotsAudit* directives)." httpd

# ---- robots-audit ------------------------------------------------------
n=robots-audit
d="$work/$n"
install -D -m 0755 "$b/robots-audit" "$d/usr/bin/robots-audit"
strip --strip-unneeded "$d/usr/bin/robots-audit"
mkdir -p "$d/usr/share/man/man1"
gzip -9n < "$root/docs/robots-audit.1" \
    > "$d/usr/share/man/man1/robots-audit.1.gz"
doc "$n"
mkdir -p "$d/usr/share/doc/$n/examples"
cp -R "$root/contrib/." "$d/usr/share/doc/$n/examples/"
find "$d/usr/share/doc/$n/examples" -type f -exec chmod 0644 {} +
# the daily refresh of the published IP ranges: installed, not
# enabled (systemctl enable --now robots-audit-ranges.timer); its
# environment file is a conffile
for u in robots-audit-ranges.service robots-audit-ranges.timer; do
    install -D -m 0644 "$root/contrib/systemd/$u" "$d/lib/systemd/system/$u"
done
install -D -m 0644 "$root/contrib/systemd/robots-audit-ranges.default" \
    "$d/etc/default/robots-audit-ranges"
dep=$(shlibdeps -e"$d/usr/bin/robots-audit")
pkg "$n" "${dep:-$libs}" "check robots.txt files, audit crawlers in access logs
 robots-audit checks URLs against a robots.txt the way crawlers read it
 (RFC 9309 and Google's reference parser), lints robots.txt, identifies
 crawlers by User-Agent and published IP ranges, and audits access logs:
 which crawlers fetched what robots.txt disallows them.  Examples for
 Prometheus, Grafana and fail2ban are in /usr/share/doc/robots-audit." web
