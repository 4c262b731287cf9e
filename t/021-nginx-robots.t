# SPDX-License-Identifier: BSD-2-Clause
# nginx: every answer to /robots.txt is captured as served, whatever made
# it: a static file (sendfile on: in-file buffers; off: memory), "return",
# a proxied backend (large: spooled to a temporary file), a 5xx; the first
# 500 KiB and the full size; robots_audit_robots_file as the first version.
use strict;
use warnings;
use Test::More;
use RA::Harness;

my $why = RA::Harness->skip_reason('nginx');
plan skip_all => $why if $why;

my $GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; '
              . '+http://www.google.com/bot.html)';

# a rule at each end, padding between: "rules" == 2 proves that the whole
# body was captured, in order
sub padded {
    my ($size) = @_;
    my $head = "User-agent: *\nDisallow: /p\n";
    my $tail = "Disallow: /end\n";
    my $pad = '';
    my $i = 0;
    while (length($head) + length($pad) + length($tail) < $size) {
        $pad .= sprintf "# padding line %08d .................................\n", $i++;
    }
    return $head . $pad . $tail;
}

my $BIG = padded(300_000);
my $HUGE = padded(600_000);
my $RET = "User-agent: *\nDisallow: /r\n";

my $h = RA::Harness->new(
    server => 'nginx', workers => 2, ports => 7,
    http => <<'EOF2',
robots_audit on;
output_buffers 2 16k;

server {
    listen 127.0.0.1:%%PORT1%%;
    server_name ret.test;
    location = /robots.txt {
        default_type text/plain;
        return 200 "User-agent: *\nDisallow: /r\n";
    }
    location / { return 200 "ok\n"; }
}

server {
    listen 127.0.0.1:%%PORT2%%;
    server_name proxied.test;
    location / {
        proxy_pass http://127.0.0.1:%%PORT3%%;
        proxy_buffer_size 4k;
        proxy_buffers 4 4k;
    }
}

server {
    listen 127.0.0.1:%%PORT3%%;
    server_name backend.test;
    robots_audit off;
    root %%DIR%%/backend;
}

server {
    listen 127.0.0.1:%%PORT4%%;
    server_name flaky.test;
    location = /robots.txt { return 503; }
    location / { return 200 "ok\n"; }
}

server {
    listen 127.0.0.1:%%PORT5%%;
    server_name sendfile.test;
    sendfile on;
    charset utf-8;
    charset_types text/plain;
    root %%DIR%%/big;
}

server {
    listen 127.0.0.1:%%PORT6%%;
    server_name seeded.test;
    robots_audit_robots_file %%DIR%%/seed.txt;
    location = /robots.txt {
        default_type text/plain;
        return 200 "User-agent: *\nDisallow: /b\n";
    }
    location / { return 200 "ok\n"; }
}
EOF2
    server_conf => "sendfile off;\n",
    files => {
        'htdocs/robots.txt'  => $HUGE,
        'backend/robots.txt' => $BIG,
        'big/robots.txt'     => $BIG,
        'seed.txt'           => "User-agent: *\nDisallow: /a\n",
    },
);
$h->start;

sub fetch {
    my ($port, $host, $path, %o) = @_;
    return $h->get($path, ua => $GOOGLEBOT, host => $host,
                   port => $h->port($port), %o);
}

sub site {
    my ($name) = @_;
    return $h->site_json($h->status_json, $name);
}

# robots_audit_robots_file: rules before the first capture
my $s = site('seeded.test');
ok $s, 'configured file recorded at start';
is $s->{robots}{rules}, 1, 'its rules';
fetch(6, 'seeded.test', '/a/1');
is $h->crawler_stats($h->status_json, 'seeded.test', 'Googlebot')->{violation},
    1, 'judged against the configured file';
is fetch(6, 'seeded.test', '/robots.txt')->{content}, "User-agent: *\nDisallow: /b\n",
    'served robots.txt differs from the file';
fetch(6, 'seeded.test', '/a/2');
fetch(6, 'seeded.test', '/b/1');
my $st = $h->crawler_stats($h->status_json, 'seeded.test', 'Googlebot');
is $st->{compliant}, 1, 'capture replaced the file: /a allowed now';
is $st->{violation}, 2, 'capture replaced the file: /b disallowed now';

# return 200 "..."
is fetch(1, 'ret.test', '/robots.txt')->{content}, $RET, 'return: served';
$s = site('ret.test');
is $s->{robots}{status}, 200, 'return: status';
is $s->{robots}{bytes}, length $RET, 'return: size';
like $s->{robots}{content_type}, qr{^text/plain}, 'return: type';
is $s->{robots}{rules}, 1, 'return: rules';
fetch(1, 'ret.test', '/r/x');
is $h->crawler_stats($h->status_json, 'ret.test', 'Googlebot')->{violation},
    1, 'return: its rules judge';

# a proxied backend, 300 kB through 16 kB of proxy buffers (a temp file)
my $r = fetch(2, 'proxied.test', '/robots.txt');
is length $r->{content}, length $BIG, 'proxy: served whole';
$s = site('proxied.test');
is $s->{robots}{bytes}, length $BIG, 'proxy: size';
is $s->{robots}{truncated}, JSON::PP::false, 'proxy: not truncated';
is $s->{robots}{rules}, 2, 'proxy: both ends of the body captured';
ok !site('backend.test'), 'robots_audit off on the backend';

# a static file with sendfile on: in-file buffers read back
$r = fetch(5, 'sendfile.test', '/robots.txt');
is length $r->{content}, length $BIG, 'sendfile: served whole';
$s = site('sendfile.test');
is $s->{robots}{bytes}, length $BIG, 'sendfile: size';
is $s->{robots}{rules}, 2, 'sendfile: both ends of the body captured';
is $s->{robots}{content_type}, 'text/plain; charset=utf-8',
    'the Content-Type as sent, charset included';

# HEAD and conditional requests are not versions
my $lm = $r->{headers}{'last-modified'};
ok $lm, 'static file has Last-Modified';
is fetch(5, 'sendfile.test', '/robots.txt',
         headers => { 'If-Modified-Since' => $lm })->{status}, 304, 'conditional: 304';
fetch(5, 'sendfile.test', '/robots.txt', method => 'HEAD');
is fetch(5, 'sendfile.test', '/robots.txt',
         headers => { Range => 'bytes=0-10' })->{status}, 206, 'range: 206';
$s = site('sendfile.test');
is $s->{robots}{versions_24h}, 1, 'HEAD, 304 and 206 made no version';
is $s->{robots}{bytes}, length $BIG, '... and left the size alone';
is $h->crawler_stats($h->status_json, 'sendfile.test', 'Googlebot')
    ->{robots_fetches}, 3, '... yet every GET counts as a fetch (HEAD not)';

# over 500 KiB, sendfile off: the first 512000 bytes, the full size
$r = fetch(0, 'localhost', '/robots.txt');
is length $r->{content}, length $HUGE, 'huge: served whole';
$s = site('localhost');
is $s->{robots}{bytes}, length $HUGE, 'huge: full size recorded';
is $s->{robots}{truncated}, JSON::PP::true, 'huge: truncated';
is $s->{robots}{rules}, 1, 'huge: the rule past 500 KiB is lost';
cmp_ok $s->{robots}{errors} + $s->{robots}{warnings}, '>', 0,
    'huge: lint says so';

# 5xx robots.txt, then crawling: unreachable (RA101)
is fetch(4, 'flaky.test', '/robots.txt')->{status}, 503, '503 served';
$s = site('flaky.test');
ok !defined $s->{robots}{status},
    "one unverified crawler's 503 is its own, not the site's";
fetch(4, 'flaky.test', '/page');
$st = $h->crawler_stats($h->status_json, 'flaky.test', 'Googlebot');
is $st->{unreachable}, 1, 'crawling after a 503: unreachable';
is $st->{last_robots_fetch}{status}, 503, 'last fetch status 503';
like $h->wait_for(sub { $h->error_log =~ /(\[RA101\][^\n]*)/ ? $1 : '' }),
    qr/\[RA101\] unreachable site="flaky\.test" crawler="Googlebot"/,
    'RA101 alert';

# reload: the configured file does not replace what was captured
$h->reload;
$s = site('seeded.test');
is $s->{robots}{bytes}, length "User-agent: *\nDisallow: /b\n",
    'reload: captured version kept';
fetch(6, 'seeded.test', '/a/3');
is $h->crawler_stats($h->status_json, 'seeded.test', 'Googlebot')->{compliant},
    2, 'reload: /a still allowed';

unlike $h->error_log, qr/\[(emerg|crit|alert)\]|signal 11|exited on/,
    'no crash or emergency';
$h->stop;
done_testing;
