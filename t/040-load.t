# Load: wrk drives the nginx module (2 workers, 50 connections, keep-alive)
# with a mix of crawler, browser and generic-bot User-Agents over allowed
# and disallowed paths and robots.txt, twice.  Afterwards the ledger's
# request count equals the requests nginx logged (between what wrk
# completed and what it wrote), the per-site and per-verdict counters add
# up to it, the error log holds nothing above warn
# but the module's alerts, and the workers' memory (VmRSS) stays put
# between the two runs.
#   RA_LOAD_SECONDS  each run's length (default 20)
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
my $h = RA::Harness->new(
    server => 'nginx', workers => 2,
    http => "robots_audit on;\n",
    server_conf => "keepalive_timeout 65;\nkeepalive_requests 1000000;\n",
    files => {
        'htdocs/robots.txt'  => $robots,
        'htdocs/index.html'  => "home\n",
        'htdocs/a.html'      => "a\n",
        'htdocs/private/x'   => "x\n",
        'htdocs/private/y'   => "y\n",
    },
);
$h->start;

sub workers_rss {
    my %rss;
    for my $pid ($h->backend->children($h->backend->{pid})) {
        open my $fh, '<', "/proc/$pid/status" or next;
        while (<$fh>) { $rss{$pid} = $1 if /^VmRSS:\s+(\d+) kB/ }
    }
    return \%rss;
}

sub run_wrk {
    my $out = `$wrk -t2 -c$CONNS -d${SECS}s --latency -s $h->{root}/t/lib/load/mix.lua http://127.0.0.1:${\ $h->port}/ 2>&1`;
    my ($sent, $done, $us, @err) = $out =~
        /RA-LOAD sent=(\d+) completed=(\d+) duration_us=(\d+) connect=(\d+) read=(\d+) write=(\d+) status=(\d+) timeout=(\d+)/
        or die "wrk said:\n$out";
    my ($lat) = $out =~ /99%\s+(\S+)/;
    return { sent => $sent, completed => $done, secs => $us / 1e6,
             errors => \@err, p99 => $lat // '?', out => $out };
}

my $w1 = run_wrk();
my $rss1 = workers_rss();
my $w2 = run_wrk();
my $rss2 = workers_rss();

for my $w ($w1, $w2) {
    diag sprintf 'wrk: %d requests completed (%d written) in %.1f s, '
        . '%.0f/s, p99 %s, socket errors %s', $w->{completed}, $w->{sent},
        $w->{secs}, $w->{completed} / $w->{secs}, $w->{p99},
        join('/', @{ $w->{errors} });
    is join('/', @{ $w->{errors} }), '0/0/0/0/0', 'no socket or HTTP errors'
        or diag $w->{out};
    cmp_ok $w->{completed}, '>', 1000, 'a real load';
}

# Every request nginx handled reached the ledger.  wrk's "completed"
# misses the requests in flight when it stops, and some it wrote never
# reach nginx (its close() resets connections with unread data), so the
# exact reference is nginx's access log: one line per request handled.
my $sent = $w1->{sent} + $w2->{sent};
my $completed = $w1->{completed} + $w2->{completed};
my $j = $h->status_json;
my $first = $j->{ledger}{requests};
is $h->status_json->{ledger}{requests}, $first,
    'status page requests are not counted';
my $logged = grep { !m{"GET /ra-status} } split /\n/, $h->access_log;
diag "ledger requests $first; access log $logged; wrk completed "
    . "$completed, wrote $sent";
is $first, $logged, 'ledger requests == requests nginx logged';
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
        $v += $cr->{$_} for qw(robots_fetches compliant violation stale
                               unreachable exempt);
        is $v, $cr->{requests}, "$cr->{crawler}: verdicts add up to "
            . "$cr->{requests} requests";
    }
    is $c, $s->{requests}, "site $s->{site}: crawler rows add up";
    $crawl += $c;
}
is $req + $browser, $first, "crawler ($req) + browser ($browser) requests "
    . "== ledger total";
cmp_ok $fetch, '>', 0, "robots.txt fetches counted ($fetch)";

# the error log: nothing above warn but the module's alerts
my @bad = grep { /\[(error|crit|alert|emerg)\]/ && !/robots-audit: \[RA1\d\d\]/ }
          split /\n/, $h->error_log;
is scalar @bad, 0, 'no error-log line above warn but alerts'
    or diag join "\n", @bad[0 .. ($#bad < 9 ? $#bad : 9)];

# memory: the same workers, RSS stable between the runs
is join(',', sort keys %$rss2), join(',', sort keys %$rss1),
    'the same workers served both runs';
for my $pid (sort keys %$rss1) {
    my $d = ($rss2->{$pid} // 0) - $rss1->{$pid};
    diag "worker $pid: VmRSS $rss1->{$pid} kB after run 1, "
        . ($rss2->{$pid} // '?') . " kB after run 2";
    cmp_ok $d, '<=', $RSS_BOUND_KB, "worker $pid: RSS grew by $d kB";
}

$h->stop;
done_testing;
