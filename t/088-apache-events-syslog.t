# SPDX-License-Identifier: BSD-2-Clause
# Apache: RobotsAuditEvents syslog:server=... sends each event line as one
# datagram framed as nginx frames syslog, from a socket that never waits;
# a robots.txt answer too long for a datagram is not sent cut but counted
# as oversize, lines a missing peer refuses are counted as dropped, and
# the status page shows both (JSON, Prometheus, HTML).
use strict;
use warnings;

use Cwd qw(getcwd);
use File::Temp qw(tempdir);
use IO::Socket::INET;
use JSON::PP;
use RA::Loopback qw(http_get free_port spew apache_start stop_pidfiles);
use Test::More;
use Time::HiRes qw(sleep time);

my $root = getcwd;
my $HTTPD = $ENV{RA_APACHE} // '/usr/sbin/apache2';
my $SO = $ENV{RA_APACHE_MODULE} // "$root/build/mod_robots_audit.so";
my $SITE = 'events.test';
my $UA = 'Mozilla/5.0 (compatible; Googlebot/2.1; '
       . '+http://www.google.com/bot.html)';

plan skip_all => "no $HTTPD" unless -x $HTTPD;
plan skip_all => "no $SO (run make)" unless -f $SO;

my $dir = tempdir('ra-evsys-XXXXXX', TMPDIR => 1, CLEANUP => 1);
chmod 0755, $dir;
mkdir "$dir/htdocs";
chmod 0755, "$dir/htdocs";
my @pids;
END { stop_pidfiles(@pids) }

sub get {
    my ($port, $path, %h) = @_;
    return http_get($port, $path, $SITE, %h);
}

# an Apache with the module (threads: the event MPM) and its events to
# $events
sub apache {
    my ($name, $port, $events) = @_;
    push @pids, apache_start(dir => "$dir/$name", port => $port,
                             site => $SITE, docroot => "$dir/htdocs",
                             so => $SO, events => $events);
}

# the page's "events" object ({} when it has none)
sub events {
    my ($port) = @_;
    my $r = get($port, '/ra-status?format=json');
    return {} unless $r->{status} == 200;
    return JSON::PP->new->utf8->decode($r->{content})->{events} // {};
}

# waits until the page's count of outcome reaches n
sub wait_count {
    my ($port, $outcome, $n) = @_;
    my $deadline = time + 10;
    my $e;
    while (time < $deadline) {
        $e = events($port);
        return $e if ($e->{$outcome} // 0) >= $n;
        sleep 0.05;
    }
    return $e;
}

my $udp = IO::Socket::INET->new(LocalAddr => '127.0.0.1', LocalPort => 0,
                                Proto => 'udp') or die "udp: $!";
my $uport = $udp->sockport;
my ($p1, $p2) = (free_port(), free_port());

spew("$dir/htdocs/robots.txt", "User-agent: *\nDisallow: /private\n");
spew("$dir/htdocs/$_", "ok\n") for qw(a b);
mkdir "$dir/htdocs/private";
chmod 0755, "$dir/htdocs/private";
spew("$dir/htdocs/private/x", "ok\n");

apache('sent', $p1, "syslog:server=127.0.0.1:$uport,tag=ra_test");
apache('lost', $p2, "syslog:server=unix:$dir/nobody.sock");

# the datagrams that arrive within secs seconds (5), until n of them
sub receive {
    my ($n, $secs) = @_;
    my (@got, $dg);
    my $deadline = time + ($secs // 5);
    while (@got < $n && time < $deadline) {
        if (defined $udp->recv($dg, 70000) && length $dg) {
            push @got, $dg;
        } else {
            sleep 0.02;
        }
    }
    return @got;
}
$udp->blocking(0);

# a robots.txt fetch (its answer's line and the request's) and a
# violation: one datagram per line
is get($p1, '/robots.txt', 'User-Agent' => $UA)->{status}, 200,
    'robots.txt served';
is get($p1, '/private/x', 'User-Agent' => $UA)->{status}, 200,
    'a disallowed page served (audited, not enforced)';
my @lines = receive(3);
is scalar @lines, 3, 'three datagrams, one per line';
my %ev;
for my $l (@lines) {
    like $l, qr/\A<190>[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \S+ ra_test: \{.*\}\n\z/s,
        'framed as nginx frames syslog, one whole line';
    my ($json) = $l =~ /(\{.*\})/s;
    my $e = eval { JSON::PP->new->utf8->decode($json) } // {};
    $ev{"$e->{ev} $e->{uri}"} = $e;
}
ok length($ev{'robots /robots.txt'}{body} // ''),
    'the answer, with its body';
is $ev{'req /robots.txt'}{verdict}, 'fetch', 'the fetch';
is $ev{'req /private/x'}{verdict}, 'violation',
    "the violation, with the server's verdict";

my $e = wait_count($p1, 'sent', 3);
is $e->{sent}, 3, 'the page counts the lines sent';
is $e->{dropped}, 0, 'none dropped';
is $e->{oversize}, 0, 'none oversize';

# a robots.txt whose body does not fit a datagram: its answer's line is
# not sent at all (the fetch's is)
spew("$dir/htdocs/robots.txt",
     "User-agent: *\nDisallow: /private\n" . ('#' . 'x' x 78 . "\n") x 800);
is get($p1, '/robots.txt', 'User-Agent' => $UA)->{status}, 200,
    'a 64 KB robots.txt served';
$e = wait_count($p1, 'oversize', 1);
is $e->{oversize}, 1, 'its answer is counted as oversize';
is get($p1, '/b', 'User-Agent' => $UA)->{status}, 200, 'a page after it';
my @after = receive(2);
is scalar @after, 2, 'the fetch and the page arrive';
is scalar(receive(1, 0.3)), 0, 'nothing more';
like $after[0] // '', qr/"ev":"req".*"uri":"\/robots\.txt".*\}\n\z/s,
    'the fetch, whole';
like $after[1] // '', qr/"uri":"\/b".*\}\n\z/s, 'the page, whole';

my $prom = get($p1, '/ra-status?format=prometheus')->{content};
like $prom, qr/^robots_audit_events_total\{outcome="sent"\} 5$/m,
    'Prometheus: sent';
like $prom, qr/^robots_audit_events_total\{outcome="oversize"\} 1$/m,
    'Prometheus: oversize';
like get($p1, '/ra-status')->{content},
    qr/event stream: 5 lines sent, 0 dropped, 1 oversize/,
    'the HTML page says it';

# a browser's request is no event
is get($p1, '/a', 'User-Agent' => 'Mozilla/5.0 (X11; Linux x86_64) '
       . 'AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36')
       ->{status}, 200, "a browser's page";
is events($p1)->{sent}, 5, "a browser's request sends nothing";

# a peer that is not there: every line dropped and counted, none waited
# for
spew("$dir/htdocs/robots.txt", "User-agent: *\nDisallow: /private\n");
for my $path ('/robots.txt', '/a', '/private/x') {
    is get($p2, $path, 'User-Agent' => $UA)->{status}, 200, "$path served";
}
$e = wait_count($p2, 'dropped', 4);
is $e->{dropped}, 4, 'the lines the missing peer refused are counted';
is $e->{sent} // 0, 0, 'none sent';
like get($p2, '/ra-status?format=prometheus')->{content},
    qr/^robots_audit_events_total\{outcome="dropped"\} 4$/m,
    'Prometheus: dropped';
like get($p2, '/ra-status')->{content},
    qr/<p class="warn">event stream: 0 lines sent, 4 dropped, 0 oversize/,
    'the HTML page says it, in red';

stop_pidfiles(@pids);
@pids = ();
done_testing;
