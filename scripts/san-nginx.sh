#!/bin/sh
# The nginx module under ASan+UBSan: builds it with gcc's sanitizers
# (scripts/nginx-module.sh, RA_NGX_EXTRA_OPT) into build/san-nginx.so and
# runs the nginx tests of t/ against it.  The stock nginx is not
# instrumented, so it runs with libasan preloaded (a wrapper that
# RA_NGINX points the harness at); leak detection is off (nginx frees its
# pools by exiting), every report goes to build/san-nginx-logs/, and any
# report fails the run.  RA_SANITIZED=1 tells the load and fault tests
# not to bound worker RSS (ASan keeps freed memory in quarantine).
# Usage: scripts/san-nginx.sh [TEST...]   (default: t/02*-nginx-*.t and the
# load and fault tests)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
asan=$(gcc -print-file-name=libasan.so)
[ -f "$asan" ] || { echo "san-nginx.sh: no libasan (gcc)" >&2; exit 1; }
so=build/san-nginx.so
if [ ! -f "$so" ] || [ -n "$(find common ngx_module config -newer "$so" | head -1)" ]; then
    RA_NGX_EXTRA_OPT="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
        scripts/nginx-module.sh /usr/share/nginx/src build/san-nginx "$so"
fi
logs=$top/build/san-nginx-logs
rm -rf "$logs"; mkdir -p "$logs"; chmod 1777 "$logs"
wrapper=$top/build/san-nginx-run
cat > "$wrapper" <<EOW
#!/bin/sh
export LD_PRELOAD=$(readlink -f "$asan")
export ASAN_OPTIONS=detect_leaks=0:log_path=$logs/asan
export UBSAN_OPTIONS=print_stacktrace=1:log_path=$logs/ubsan
exec /usr/sbin/nginx "\$@"
EOW
chmod +x "$wrapper"
[ $# -gt 0 ] || set -- t/02*-nginx-*.t t/040-load.t t/041-faults.t
rc=0
RA_SANITIZED=1 RA_NGINX=$wrapper RA_NGINX_MODULE=$top/$so prove -I t/lib "$@" || rc=1
if [ -n "$(ls -A "$logs")" ]; then
    echo "san-nginx.sh: sanitizer reports:" >&2
    head -50 "$logs"/* >&2
    rc=1
else
    echo "san-nginx.sh: no sanitizer report"
fi
exit $rc
