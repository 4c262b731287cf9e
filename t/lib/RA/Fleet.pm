# SPDX-License-Identifier: BSD-2-Clause
package RA::Fleet;

# A fleet as deployed, for t/080-nginx-collector.t and
# t/081-apache-collector.t: backends of one server kind, each with its own
# zone and an event stream to one `robots-audit collect`, behind an nginx
# load balancer (round robin), and a single server of the same kind that
# every request also reaches.  A crawler fetches robots.txt through one
# backend and crawls through the others, and robots.txt changes in the
# middle.  The collector's verdicts must equal the single server's; the
# backends' own differ (the test shows both).  Then the collector is
# restarted from its --state file and says the same.
#
#   RA::Fleet->run('nginx');    # three backends, nginx's syslog over UDP
#   RA::Fleet->run('apache');   # two backends: one sends over syslog
#                               # itself (RobotsAuditEvents syslog:...),
#                               # the other through a piped logger

use strict;
use warnings;

use Cwd qw(getcwd);
use File::Temp qw(tempdir);
use JSON::PP;
use RA::Loopback qw(http_get free_port spew apache_start stop_pidfiles);
use Test::More;
use Time::HiRes qw(sleep time);

my $root = getcwd;
my $NGINX = $ENV{RA_NGINX} // '/usr/sbin/nginx';
my $HTTPD = $ENV{RA_APACHE} // '/usr/sbin/apache2';
my $NGX_SO = $ENV{RA_NGINX_MODULE}
    // "$root/build/ngx_http_robots_audit_module.so";
my $APX_SO = $ENV{RA_APACHE_MODULE} // "$root/build/mod_robots_audit.so";
my $CLI = "$root/build/robots-audit";
my $LOGGER = '/usr/bin/logger';

my $SITE = 'fleet.test';
my $UA = 'Mozilla/5.0 (compatible; Googlebot/2.1; '
       . '+http://www.google.com/bot.html)';
my @KEYS = qw(requests robots_fetches compliant violation stale unknown
              exempt unreachable no_robots_fetch);

my ($dir, @servers, $collector_pid);
# GET with the fleet's Host: {status, content}, 599 when nothing answers
sub get {
    my ($port, $path, %h) = @_;
    return http_get($port, $path, $SITE, %h);
}


# an nginx in $dir/$name: with the module (events: the stream's
# destination), or with upstream => [ports], the load balancer
sub nginx {
    my ($name, $port, %o) = @_;
    my $d = "$dir/$name";
    mkdir $d;
    mkdir "$d/tmp";
    my $lb = $o{upstream};
    my $head = $lb ? '' : "load_module $NGX_SO;\n";
    my $http_conf = $lb
        ? "upstream backends {\n"
          . join('', map { "    server 127.0.0.1:$_;\n" } @$lb) . "}\n"
        : "robots_audit_zone ra 1m;\n"
          . ($o{events} ? "robots_audit_events $o{events};\n" : '');
    my $body = $lb
        ? "location / { proxy_pass http://backends; "
          . "proxy_set_header Host \$host; }"
        : "robots_audit on;\n        root $dir/htdocs;\n"
          . "        location = /ra-status { robots_audit_status; }";
    my $user = $> == 0 ? "user nobody nogroup;\n" : '';
    my $conf = $head . $user . <<"CONF";
daemon on;
master_process on;
worker_processes 1;
pid $d/nginx.pid;
error_log $d/error.log warn;
events { worker_connections 64; }
http {
    access_log off;
    keepalive_timeout 0;
    default_type text/plain;
    client_body_temp_path $d/tmp/body;
    proxy_temp_path $d/tmp/proxy;
    fastcgi_temp_path $d/tmp/fastcgi;
    uwsgi_temp_path $d/tmp/uwsgi;
    scgi_temp_path $d/tmp/scgi;
$http_conf
    server {
        listen 127.0.0.1:$port;
        server_name $SITE;
        $body
    }
}
CONF
    spew("$d/nginx.conf", $conf);
    my $out = `$NGINX -p $d/ -c $d/nginx.conf 2>&1`;
    die "nginx $name: $out" if $?;
    push @servers, "$d/nginx.pid";
}

# an Apache in $dir/$name with the module, events to a program
sub apache {
    my ($name, $port, %o) = @_;
    push @servers, apache_start(dir => "$dir/$name", port => $port,
                                site => $SITE, docroot => "$dir/htdocs",
                                so => $APX_SO, events => $o{events});
}

sub stop_all {
    stop_pidfiles(@servers);
    @servers = ();
}

sub collector_start {
    my (@args) = @_;
    $collector_pid = fork // die "fork: $!";
    if ($collector_pid == 0) {
        exec $CLI, 'collect', @args;
        exit 127;
    }
}

sub collector_stop {
    return unless $collector_pid;
    kill 'TERM', $collector_pid;
    waitpid $collector_pid, 0;
    $collector_pid = undef;
}

# the Googlebot record of a status page: {} when there is none yet, undef
# when the page does not answer
sub googlebot {
    my ($port, $path) = @_;
    my $r = get($port, "$path?format=json");
    return undef unless $r->{status} == 200;
    my $j = JSON::PP->new->utf8->decode($r->{content});
    for my $s (@{ $j->{sites} // [] }) {
        next unless $s->{site} eq $SITE;
        for my $c (@{ $s->{crawlers} // [] }) {
            return $c if $c->{crawler} eq 'Googlebot';
        }
    }
    return {};
}

# the event stream's counts on a backend's status page ({} when none)
sub events_of {
    my ($port) = @_;
    my $r = get($port, '/ra-status?format=json');
    return {} unless $r->{status} == 200;
    return JSON::PP->new->utf8->decode($r->{content})->{events} // {};
}

sub verdicts {
    my ($c) = @_;
    return join ' ', map { "$_=" . ($c->{$_} // 0) } @KEYS;
}

sub wait_page {
    my ($port) = @_;
    my $deadline = time + 10;
    sleep 0.05 until time > $deadline || defined googlebot($port, '/');
    return defined googlebot($port, '/');
}

# the crawl, each request through the balancer and to the single server;
# the single server's verdicts
sub crawl {
    my ($kind, $n, $lb, $single, $page, $bport) = @_;
    my $get = sub {
        my ($path) = @_;
        for my $port ($lb, $single) {
            my $r = get($port, $path, 'User-Agent' => $UA);
            die "GET $path on $port: $r->{status} $r->{content}"
                if $r->{status} != 200;
        }
    };
    # round robin over $n backends: robots.txt always through the first,
    # the pages through the others
    my @v1 = $n == 3 ? qw(/private/a /public/b /private/c /public/d
                          /private/e)
                     : qw(/private/a /public/b /private/c);
    my @v2 = $n == 3 ? qw(/public/f /private/g) : qw(/public/f);
    spew("$dir/htdocs/robots.txt", "User-agent: *\nDisallow: /private\n");
    $get->($_) for '/robots.txt', @v1;
    spew("$dir/htdocs/robots.txt", "User-agent: *\nDisallow: /public\n");
    $get->($_) for '/robots.txt', @v2;
    my $total = 2 + @v1 + @v2;

    my $want = googlebot($single, '/ra-status');
    is $want->{requests}, $total, 'the single server saw every request';

    # the events arrive after the responses: polled
    my $deadline = time + 10;
    my $got;
    while (time < $deadline) {
        $got = googlebot($page, '/');
        last if ($got->{requests} // 0) >= $total;
        sleep 0.05;
    }
    is verdicts($got), verdicts($want),
        'the collector judges as the single server: ' . verdicts($want);

    my (%sum, %lines);
    for my $i (1 .. $n) {
        my $c = googlebot($bport->[$i - 1], '/ra-status') // {};
        diag "$kind backend $i: " . verdicts($c);
        $sum{$_} += $c->{$_} // 0 for @KEYS;
        my $e = events_of($bport->[$i - 1]);
        $lines{$_} += $e->{$_} // 0 for qw(sent dropped oversize);
    }
    is $sum{requests}, $total, 'the backends saw every request between them';
    # a line per request, and one more per robots.txt answer
    is "$lines{sent} $lines{dropped} $lines{oversize}", ($total + 2) . ' 0 0',
        "the backends' pages count every line they sent";
    isnt verdicts(\%sum), verdicts($want),
        "the backends' own verdicts differ: " . verdicts(\%sum);
    ok $sum{unknown} > 0,
        'backends that never served robots.txt could not judge';
    return verdicts($want);
}

sub run {
    my ($class, $kind) = @_;
    my $so = $kind eq 'nginx' ? $NGX_SO : $APX_SO;
    my $bin = $kind eq 'nginx' ? $NGINX : $HTTPD;
    plan skip_all => "no $NGINX" unless -x $NGINX;
    plan skip_all => "no $bin" unless -x $bin;
    plan skip_all => "no $so (run make)" unless -f $so;
    plan skip_all => "no $CLI (run make)" unless -x $CLI;
    plan skip_all => "no $LOGGER" if $kind eq 'apache' && !-x $LOGGER;

    $dir = tempdir('ra-fleet-XXXXXX', TMPDIR => 1, CLEANUP => 1);
    chmod 0755, $dir;
    for my $sub (qw(htdocs htdocs/private htdocs/public)) {
        mkdir "$dir/$sub";
        chmod 0755, "$dir/$sub";
    }
    spew("$dir/htdocs/$_", "ok\n") for qw(private/a public/b private/c
        public/d private/e public/f private/g);

    my $syslog = free_port('udp');
    my $page = free_port();
    my $n = $kind eq 'nginx' ? 3 : 2;
    my @bport = map { free_port() } 1 .. $n;
    my ($lb, $single) = (free_port(), free_port());
    my $state = "$dir/collect.state";

    collector_start('--syslog-udp', "127.0.0.1:$syslog", '--listen',
                    "127.0.0.1:$page", '--state', $state);
    my $want;
    my $ok = eval {
        ok wait_page($page), 'the collector serves its page';
        for my $i (1 .. $n) {
            if ($kind eq 'nginx') {
                nginx("b$i", $bport[$i - 1],
                      events => "syslog:server=127.0.0.1:$syslog,tag=ra");
            } elsif ($i == 1) {
                apache("b$i", $bport[$i - 1],
                       events => "syslog:server=127.0.0.1:$syslog,tag=ra");
            } else {
                apache("b$i", $bport[$i - 1],
                       events => "|$LOGGER -d -n 127.0.0.1 -P $syslog "
                                 . "--rfc3164 --size 65000 -t ra");
            }
        }
        $kind eq 'nginx' ? nginx('single', $single)
                         : apache('single', $single);
        nginx('lb', $lb, upstream => \@bport);
        $want = crawl($kind, $n, $lb, $single, $page, \@bport);
        1;
    };
    my $err = $@;
    stop_all();
    collector_stop();
    die $err unless $ok;

    # the collector alone, restored from its state file
    ok -s $state, 'the collector saved its ledger at SIGTERM';
    collector_start('--listen', "127.0.0.1:$page", '--state', $state);
    ok wait_page($page), 'the collector serves its page again';
    is verdicts(googlebot($page, '/')), $want,
        'restored from --state: the same verdicts';
    collector_stop();
    done_testing;
}

END {
    stop_all();
    collector_stop();
}

1;
