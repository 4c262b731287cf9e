# SPDX-License-Identifier: BSD-2-Clause
# Sourced by bench/apache-cost.sh and bench/apache-wrk.sh (after
# bench/lib.sh): one Apache configuration for both, stock or with the
# module.  The caller sets B (its build directory, B/html the site), top
# (the repository), so (the module), mods (the stock modules' directory).
free_port() { perl -MIO::Socket::INET -e 'print IO::Socket::INET->new(LocalAddr=>"127.0.0.1",LocalPort=>0,Listen=>1)->sockport'; }
user=; [ "$(id -u)" = 0 ] && user=$'User nobody\nGroup nogroup'

# conf NAME PORT MODULE(0/1) MPM(prefork/event): B/NAME/httpd.conf; the
# event MPM as one child of 64 threads (each judges with its own engine)
conf() {
    local d=$B/$1; mkdir -p "$d"; rm -f "$d"/*.log
    # as root, Apache runs as nobody: callgrind writes its file as that
    [ -n "$user" ] && chmod 0777 "$d"
    {
        cat <<CONF
ServerRoot "$d"
DefaultRuntimeDir "$d"
PidFile "$d/httpd.pid"
ErrorLog "$d/error.log"
LogLevel warn
LoadModule mpm_$4_module $mods/mod_mpm_$4.so
LoadModule authz_core_module $mods/mod_authz_core.so
LoadModule mime_module $mods/mod_mime.so
LoadModule dir_module $mods/mod_dir.so
LoadModule rewrite_module $mods/mod_rewrite.so
TypesConfig /etc/mime.types
$user
Listen 127.0.0.1:$2
ServerName bench.test
KeepAlive On
MaxKeepAliveRequests 0
CONF
        if [ "$4" = event ]; then
            echo "StartServers 1"; echo "ServerLimit 1"; echo "ThreadsPerChild 64"
            echo "MaxRequestWorkers 64"; echo "MinSpareThreads 1"; echo "MaxSpareThreads 64"
        fi
        [ "$3" = 1 ] && echo "LoadModule robots_audit_module $so"
        [ "$3" = 1 ] && echo "RobotsAudit On"
        [ "$3" = 1 ] && [ -d "$top/../shared/data/ip-ranges" ] && \
            echo "RobotsAuditIPRanges $(ls "$top"/../shared/data/ip-ranges/*.json | tr '\n' ' ')"
        cat <<CONF
LogFormat "%h %l %u %t \"%r\" %>s %b \"%{Referer}i\" \"%{User-Agent}i\"" combined
CustomLog "$d/access.log" combined
<VirtualHost 127.0.0.1:$2>
    ServerName bench.test
    DocumentRoot "$B/html"
    <Directory "$B/html">
        Require all granted
    </Directory>
    RewriteEngine On
    RewriteCond %{DOCUMENT_ROOT}%{REQUEST_URI} !-f
    RewriteRule ^ /index.html [L]
CONF
        [ "$3" = 1 ] && echo "    RobotsAuditRobotsFile $B/html/robots.txt"
        echo "</VirtualHost>"
    } > "$d/httpd.conf"
}

wait_port() { for _ in $(seq 300); do perl -MIO::Socket::INET -e 'exit(IO::Socket::INET->new("127.0.0.1:$ARGV[0]")?0:1)' "$1" && return 0; sleep 0.1; done; return 1; }
