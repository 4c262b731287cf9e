# SPDX-License-Identifier: BSD-2-Clause
# A worker (nginx) or child (Apache) killed inside the ledger's lock, in
# the middle of a change of its structure: the modules built
# with the ledger's fault hook (scripts/fault-modules.sh) kill themselves
# with SIGKILL at step N of their changes, for N = 1 .. STEPS, while bots
# with new names flood a small zone (records created and evicted).  After
# each kill the next process to take the lock rebuilds the ledger (RA312,
# once per kill); nothing crashes; a Googlebot's 5 violations, recorded
# before, stay; the status page parses; requests after it are all counted.
# Then a flood of more new generic bots than the zone holds records: the
# crawler="generic" Prometheus counter rises by every one, Googlebot's
# record stays.
# RA_FAULT_STEPS overrides the number of steps (default 30).  Under
# scripts/san-modules.sh the fault build is sanitized too
# (scripts/san-modules.sh nginx t/044-ledger-faults.t).
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);
use Time::HiRes qw(sleep);
use RA::Harness;

my $ROOT = RA::Harness::root();
my $STEPS = $ENV{RA_FAULT_STEPS} // 30;
my $GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; '
              . '+http://www.google.com/bot.html)';

my %files = (
    'htdocs/robots.txt' => "User-agent: *\nDisallow: /private\n",
    'htdocs/index.html' => "home\n",
    'htdocs/private/x'  => "x\n",
);

sub googlebot {
    my ($h) = @_;
    my $j = $h->status_json;
    for my $s (@{ $j->{sites} // [] }) {
        my $c = $h->crawler_stats($j, $s->{site}, 'Googlebot');
        return $c if $c;
    }
    return undef;
}

# the workers' user (nobody, www-data) must be able to rename it away: a
# world-writable directory of its own under /tmp (not sticky: the file is
# root's)
sub fault_file {
    my $dir = tempdir('ra-fault-XXXXXX', TMPDIR => 1, CLEANUP => 1);
    chmod 0777, $dir or die "chmod $dir: $!";
    return "$dir/at";
}

sub count { my ($text, $re) = @_; return scalar(() = $text =~ /$re/g) }

sub faults {
    my ($h, $server) = @_;
    my $file = $ENV{RA_LEDGER_FAULT_FILE};

    my $ok = 0;
    $ok++ if $h->get('/robots.txt', ua => $GOOGLEBOT)->{status} == 200;
    for (1 .. 5) {
        $ok++ if $h->get('/private/x', ua => $GOOGLEBOT)->{status} == 200;
    }
    is $ok, 6, "$server: Googlebot fetched robots.txt and /private/x 5 times";
    my $gb = googlebot($h);
    is $gb && $gb->{violation}, 5, "$server: ... 5 violations recorded";

    my ($kills, $bot) = (0, 0);
    for my $step (1 .. $STEPS) {
        open my $fh, '>', "$file.tmp" or die "$file.tmp: $!";
        print $fh "$step\n";
        close $fh;
        rename "$file.tmp", $file or die "rename: $!";
        # new bots until a process took the file, died and the next one
        # rebuilt the ledger (the process that took it may be one of
        # several Apache children that gets few of these requests: up to
        # 2000 of them, a passing step stops at its kill)
        my $seen = 0;
        for (1 .. 2000) {
            $bot++;
            eval { $h->get('/private/x', ua => "FaultBot$bot/1.0") };
            if (!-e $file
                && count($h->error_log, qr/\[RA312\]/) > $kills)
            {
                $seen = 1;
                last;
            }
            sleep 0.01 unless -e $file;
        }
        if (!$seen) {
            fail "$server: step $step: no kill and rebuild seen";
            unlink $file;
            last;
        }
        $kills++;
    }
    is $kills, $STEPS, "$server: killed inside the lock at each of steps "
        . "1 .. $STEPS";
    my $log = $h->error_log;
    is count($log, qr/\[RA312\]/), $kills,
        "$server: one RA312 rebuild line per kill";
    is count($log, qr/signal (?:11|6)\b|Segmentation|SIGSEGV|SIGABRT/), 0,
        "$server: no crash (SIGSEGV, SIGABRT)";

    $gb = googlebot($h);
    is $gb && $gb->{violation}, 5,
        "$server: Googlebot still has its 5 violations";
    my $j = $h->status_json;
    ok $j && $j->{ledger}, "$server: the status page parses";

    # a flood of more new generic bots than the table holds: the generic
    # counter rises by every one of them, Googlebot stays
    my $re = qr/robots_audit_requests_total\{[^}]*crawler="generic"[^}]*verdict="violation"\} (\d+)/;
    my ($gv0) = $h->get('/ra-status?format=prometheus')->{content} =~ $re;
    my $n = $j->{ledger}{capacity}{stats} + 50;
    $ok = 0;
    for my $i (1 .. $n) {
        $ok++ if $h->get('/private/x', ua => "FloodBot$i/1.0")->{status}
                 == 200;
    }
    is $ok, $n, "$server: a flood of $n new generic bots served";
    my ($gv1) = $h->get('/ra-status?format=prometheus')->{content} =~ $re;
    is(($gv1 // 0) - ($gv0 // 0), $n,
       "$server: crawler=\"generic\" violations rose by all $n");
    $j = $h->status_json;
    cmp_ok $j->{ledger}{evictions}{stats}, '>', 0,
        "$server: generic records were evicted meanwhile "
        . "($j->{ledger}{evictions}{stats}, counted)";
    $gb = googlebot($h);
    is $gb && $gb->{violation}, 5,
        "$server: Googlebot kept its 5 violations through the flood";

    # no lock left held, every request counted
    sleep 0.5;
    my $before = $h->status_json->{ledger}{requests};
    $ok = 0;
    for my $i (1 .. 100) {
        $ok++ if $h->get('/private/x', ua => "AfterBot$i/1.0")->{status} == 200;
    }
    is $ok, 100, "$server: 100 requests after the kills all served";
    is $h->status_json->{ledger}{requests} - $before, 100,
        "$server: ... and all 100 counted";
}

# ---- nginx ---------------------------------------------------------------

SKIP: {
    my $why = RA::Harness->skip_reason('nginx');
    skip "nginx: $why", 13 if $why;
    # scripts/san-modules.sh runs one server, with libasan preloaded
    skip 'nginx: a sanitized run of Apache', 13
        if $ENV{RA_SANITIZED} && !$ENV{RA_NGINX};
    my $so = `$ROOT/scripts/fault-modules.sh nginx`;
    chomp $so;
    # a build that fails is a failure, never a skip
    ok($? == 0 && -f $so, 'nginx: the fault build') or skip 'nginx: no fault build', 12;
    local $ENV{RA_NGINX_MODULE} = $so;
    my $h = RA::Harness->new(
        server => 'nginx', workers => 2,
        main => "env RA_LEDGER_FAULT_FILE;\n",
        http => "robots_audit_zone small 128k;\nrobots_audit on;\n",
        files => \%files,
    );
    local $ENV{RA_LEDGER_FAULT_FILE} = fault_file();
    $h->start;
    faults($h, 'nginx');
    $h->stop;
}

# ---- Apache ----------------------------------------------------------------

SKIP: {
    my $why = RA::Harness->skip_reason('apache');
    skip "Apache: $why", 13 if $why;
    skip 'Apache: a sanitized run of nginx', 13
        if $ENV{RA_SANITIZED} && !$ENV{RA_APACHE};
    my $so = `$ROOT/scripts/fault-modules.sh apache`;
    chomp $so;
    # a build that fails is a failure, never a skip
    ok($? == 0 && -f $so, 'Apache: the fault build') or skip 'Apache: no fault build', 12;
    local $ENV{RA_APACHE_MODULE} = $so;
    my $h = RA::Harness->new(
        server => 'apache', workers => 2,
        http => "RobotsAudit On\nRobotsAuditZoneSize 128k\n",
        files => \%files,
    );
    local $ENV{RA_LEDGER_FAULT_FILE} = fault_file();
    $h->start;
    faults($h, 'Apache');
    $h->stop;
}

done_testing;
