# SPDX-License-Identifier: BSD-2-Clause
# Load: wrk drives the nginx module (2 workers, 50 connections, keep-alive),
# then the Apache module (event MPM, 2 children of 4 threads, 6
# connections),
# with a mix of crawler, browser and generic-bot User-Agents over allowed
# and disallowed paths and robots.txt, twice.  Afterwards the ledger's
# request count equals the requests nginx logged (between what wrk
# completed and what it wrote), the per-site and per-verdict counters add
# up to it, the error log holds nothing above warn
# but the module's alerts, and the workers' memory (VmRSS) stays put
# between the two runs.
#   RA_LOAD_SECONDS  each nginx run's length (default 20; Apache's: half)
#   RA_SANITIZED     set by scripts/san-modules.sh: RSS is shown, not checked
use strict;
use warnings;
use Test::More;
use RA::Harness;

my $why = RA::Harness->skip_reason('nginx');
plan skip_all => $why if $why;
my ($wrk) = grep { -x } map { "$_/wrk" } split /:/, $ENV{PATH};
plan skip_all => 'no wrk (apt-get install wrk)' unless $wrk;

my $SECS = $ENV{RA_LOAD_SECONDS} || 20;
my $CONNS = 50;
# wrk's timeout is 10 s, not 2: on a loaded 2-core machine (or under
# ASan) a request may wait longer than 2 s without anything being wrong.
# Bound on a worker's RSS growth between the runs.  What a worker
# allocates is fixed once the first run has touched it: the User-Agent
# cache and the rule-set cache are allocated at start or bounded, the zone
# is shared memory whose pages the first run already touched, and request
# pools are freed per request.  1 MiB leaves room for malloc's arenas
# settling, and is far below what a per-request leak would add over
# 100,000s of requests.
my $RSS_BOUND_KB = 1024;

my $robots = "User-agent: *\nDisallow: /private\n\n"
           . "User-agent: GPTBot\nDisallow: /\n";
my %files = (
    'htdocs/robots.txt'  => $robots,
    'htdocs/index.html'  => "home\n",
    'htdocs/a.html'      => "a\n",
    'htdocs/private/x'   => "x\n",
    'htdocs/private/y'   => "y\n",
);
my %servers = (
    nginx => {
        http => "robots_audit on;\n",
        server_conf => "keepalive_timeout 65;\nkeepalive_requests 1000000;\n",
        status => qr{"GET /ra-status},
        conns => $CONNS,
        secs => $SECS,
        above_warn => qr/\[(error|crit|alert|emerg)\]/,
        alert => qr/robots-audit: \[RA1\d\d\]/,
    },
    apache => {
        http => "RobotsAudit On\n",
        server_conf => "KeepAlive On\nMaxKeepAliveRequests 0\n"
                     . "KeepAliveTimeout 65\n",
        status => qr{"GET /ra-status},
        # the harness's event MPM has 2 x 4 threads: more connections
        # than threads only measure Apache refusing them (AH00484)
        conns => 6,
        secs => int($SECS / 2) || 1,       # keeps make test short
        # event MPM closes idle keep-alive connections when its threads
        # are busy; wrk counts the next read on them as an error
        read_errors_ok => 1,
        above_warn => qr/\[[a-z_]+:(error|crit|alert|emerg)\]/,
        alert => qr/robots-audit: \[RA1\d\d\]/,
    },
);

for my $server (qw(nginx apache)) {
    my $skip = RA::Harness->skip_reason($server);
    if ($skip) {
        diag "$server: skipped: $skip";
        next;
    }
    my $o = $servers{$server};
    my $h = RA::Harness->new(server => $server, workers => 2,
                             http => $o->{http},
                             server_conf => $o->{server_conf},
                             files => \%files);
    $h->start;
    load($server, $h, $o);
    $h->stop;
}

sub workers_rss {
    my ($h) = @_;
    my $be = $h->backend;
    my $master = $be->{pid} // $be->read_pid($h);
    my %rss;
    for my $pid (RA::Server::Nginx->children($master)) {
        open my $fh, '<', "/proc/$pid/status" or next;
        while (my $l = <$fh>) { $rss{$pid} = $1 if $l =~ /^VmRSS:\s+(\d+) kB/ }
    }
    return \%rss;
}

sub run_wrk {
    my ($h, $conns, $secs) = @_;
    my $out = `$wrk -t2 -c$conns -d${secs}s --timeout 10s --latency -s $h->{root}/t/lib/load/mix.lua http://127.0.0.1:${\ $h->port}/ 2>&1`;
    my ($sent, $done, $us, @err) = $out =~
        /RA-LOAD sent=(\d+) completed=(\d+) duration_us=(\d+) connect=(\d+) read=(\d+) write=(\d+) status=(\d+) timeout=(\d+)/
        or die "wrk said:\n$out";
    my ($lat) = $out =~ /99%\s+(\S+)/;
    return { sent => $sent, completed => $done, secs => $us / 1e6,
             errors => \@err, p99 => $lat // '?', out => $out };
}

sub load {
    my ($server, $h, $o) = @_;
    my $w1 = run_wrk($h, $o->{conns}, $o->{secs});
    my $rss1 = workers_rss($h);
    my $w2 = run_wrk($h, $o->{conns}, $o->{secs});
    my $rss2 = workers_rss($h);

    for my $w ($w1, $w2) {
        diag sprintf "$server: wrk: %d requests completed (%d written) in %.1f s, "
            . '%.0f/s, p99 %s, socket errors %s', $w->{completed}, $w->{sent},
            $w->{secs}, $w->{completed} / $w->{secs}, $w->{p99},
            join('/', @{ $w->{errors} });
        my @e = @{ $w->{errors} };      # connect read write status timeout
        $e[1] = 0 if $o->{read_errors_ok};
        is join('/', @e), '0/0/0/0/0', "$server: no socket or HTTP errors"
            or diag $w->{out};
        cmp_ok $w->{completed}, '>', 1000, "$server: a real load";
    }

    # Every request the server handled reached the ledger.  wrk's "completed"
    # misses the requests in flight when it stops, and some it wrote never
    # reach nginx (its close() resets connections with unread data), so the
    # exact reference is the server's access log: one line per request.
    # The requests in flight when wrk stops are handled after it has
    # gone: wait until the server is quiet (two equal readings 0.5 s
    # apart) before comparing.
    my $sent = $w1->{sent} + $w2->{sent};
    my $completed = $w1->{completed} + $w2->{completed};
    my $logged_now = sub {
        scalar grep { !/$o->{status}/ } split /\n/, $h->access_log;
    };
    my ($j, $first, $logged, $prev) = (undef, -1, -1, -2);
    for (1 .. 20) {
        $j = $h->status_json;
        $first = $j->{ledger}{requests};
        $logged = $logged_now->();
        last if $first == $logged && $first == $prev;
        $prev = $first;
        select undef, undef, undef, 0.5;
    }
    is $h->status_json->{ledger}{requests}, $first,
        "$server: status page requests are not counted";
    diag "$server: ledger requests $first; access log $logged; wrk completed "
        . "$completed, wrote $sent";
    is $first, $logged, "$server: ledger requests == requests the server logged";
    cmp_ok $first, '>=', $completed, '... >= requests wrk completed';
    cmp_ok $first, '<=', $sent, '... <= requests wrk wrote';

    # per site: crawler counters + browser requests add up to the total
    my ($req, $browser, $crawl, $fetch) = (0, 0, 0, 0);
    for my $s (@{ $j->{sites} }) {
        $req += $s->{requests};
        $browser += $s->{browser_requests};
        my $c = 0;
        for my $cr (@{ $s->{crawlers} }) {
            $c += $cr->{requests};
            $fetch += $cr->{robots_fetches};
            my $v = 0;
            $v += $cr->{$_} // 0 for qw(robots_fetches compliant violation
                                        stale unreachable exempt unknown);
            is $v, $cr->{requests}, "$server: $cr->{crawler}: verdicts add up to "
                . "$cr->{requests} requests";
        }
        is $c, $s->{requests}, "$server: site $s->{site}: crawler rows add up";
        $crawl += $c;
    }
    is $req + $browser, $first, "$server: crawler ($req) + browser ($browser) requests "
        . "== ledger total";
    cmp_ok $fetch, '>', 0, "$server: robots.txt fetches counted ($fetch)";

    # the error log: nothing above warn but the module's alerts
    my @bad = grep { /$o->{above_warn}/ && !/$o->{alert}/ }
              split /\n/, $h->error_log;
    is scalar @bad, 0, "$server: no error-log line above warn but alerts"
        or diag join "\n", @bad[0 .. ($#bad < 9 ? $#bad : 9)];

    # memory: the same workers, RSS stable between the runs
    is join(',', sort keys %$rss2), join(',', sort keys %$rss1),
        "$server: the same workers served both runs";
    for my $pid (sort keys %$rss1) {
        my $d = ($rss2->{$pid} // 0) - $rss1->{$pid};
        diag "$server worker $pid: VmRSS $rss1->{$pid} kB after run 1, "
            . ($rss2->{$pid} // '?') . " kB after run 2";
        next if $ENV{RA_SANITIZED};     # ASan's quarantine holds freed memory
        cmp_ok $d, '<=', $RSS_BOUND_KB, "$server worker $pid: RSS grew by $d kB";
    }
}

done_testing;
