# SPDX-License-Identifier: BSD-2-Clause
package RA::Scenario::State;

# The state file (robots_audit_state, RobotsAuditState), on nginx and
# Apache alike: known traffic, a full stop and start, and the counters of
# ?format=json are back (RA340); a reload keeps the zone and restores
# nothing; a kill -9 after a save loses nothing the save held; a corrupt or torn file is refused with a warning (RA341) and
# the server starts with a new ledger and answers.
#
#   RA::Scenario::State->run($server);

use strict;
use warnings;

use Test::More;
use Time::HiRes qw(sleep time);
use RA::Harness;
use RA::Scenario qw($GOOGLEBOT run_variants);

my $ROBOTS = "User-agent: *\nDisallow: /private\n";

sub run {
    my ($class, $server) = @_;
    run_variants($server, sub { scenario(@_) });
    done_testing;
}

sub googlebot {
    my ($h) = @_;
    my $c = $h->crawler_stats($h->status_json, 'localhost', 'Googlebot');
    return $c ? $c : { requests => 0, violation => 0 };
}

# the error log's lines written since $from bytes
sub log_since {
    my ($h, $from) = @_;
    return substr $h->error_log, $from;
}

# the server killed as by a power cut: every process at once, nothing
# written on the way out
sub kill9 {
    my ($h) = @_;
    my $be = $h->backend;
    my $pid = $be->read_pid($h) or die 'no pid';
    my @kids = RA::Harness::children_of($pid);
    kill 'KILL', $pid, @kids;
    my $deadline = time + 10;
    while (time < $deadline && grep { kill 0, $_ } $pid, @kids) {
        waitpid $pid, 1;
        sleep 0.05;
    }
    delete $be->{pid};
    $h->{started} = 0;
}

sub scenario {
    my ($ad, $v) = @_;
    my $h = $ad->harness($v, {
            audit          => 1,
            state          => '%%DIR%%/state/ra.state',
            state_interval => '1s',
            notice_log     => 1,
        },
        files => {
            'htdocs/robots.txt' => $ROBOTS,
            'htdocs/index.html' => "home\n",
        },
    );
    # the workers' user (nobody, under root) writes the file
    mkdir $h->path('state');
    chmod 0777, $h->path('state');
    my $file = $h->path('state/ra.state');

    $h->start;
    my $mark = 0;
    is $h->get('/robots.txt', ua => $GOOGLEBOT)->{status}, 200,
        'robots.txt served';
    $h->get('/index.html', ua => $GOOGLEBOT) for 1 .. 3;
    $h->get('/private/x', ua => $GOOGLEBOT) for 1 .. 2;
    my $before = googlebot($h);
    is $before->{requests}, 6, 'six requests counted';
    is $before->{violation}, 2, '... two of them violations';
    my $site = $h->site_json($h->status_json, 'localhost');
    unlike log_since($h, $mark), qr/\[RA34[01]\]/,
        'no state file yet: nothing said';

    # a full stop and start
    $h->stop;
    ok -s $file, 'the stop saved the state file';
    $mark = length($ad->notice_log($h) // '');
    $h->start;
    my $after = googlebot($h);
    is $after->{requests}, $before->{requests},
        'after a stop and start: the requests are back';
    is $after->{violation}, $before->{violation}, '... and the violations';
    is $h->site_json($h->status_json, 'localhost')->{requests},
        $site->{requests}, "... and the site's requests";
    like substr($ad->notice_log($h), $mark), qr/robots-audit: \[RA340\] [^\n]*restored the ledger from "\Q$file\E", saved \d+ s ago: 1 sites, \d+ requests/,
        'RA340 says so';

    # a reload (graceful restart) keeps the zone: nothing is restored
    $mark = length $ad->notice_log($h);
    $h->reload;
    is googlebot($h)->{requests}, $before->{requests},
        'after a ' . $ad->reload_name . ': the same counters';
    unlike substr($ad->notice_log($h), $mark), qr/\[RA34[01]\]/,
        '... kept, not restored';

    # kill -9 after a save: what the save held is kept
    $h->get('/index.html', ua => $GOOGLEBOT) for 1 .. 4;
    my $t = time;
    my $saved = $h->wait_for(sub {
        my @st = Time::HiRes::stat($file);
        @st && $st[9] > $t + 1.2 }, 30);
    ok $saved, 'saved again within the interval (Apache: the monitor hook)';
    kill9($h);
    $mark = length $h->error_log;
    $h->start;
    is googlebot($h)->{requests}, $before->{requests} + 4,
        'after kill -9: the last save\'s counters';

    # a corrupt file: refused, a new ledger, the server answers
    $h->stop;
    my $len = -s $file;
    open my $fh, '+<', $file or die "$file: $!";
    binmode $fh;
    seek $fh, int($len / 2), 0;
    read $fh, my $byte, 1;
    seek $fh, int($len / 2), 0;
    print {$fh} chr(ord($byte) ^ 0x55);
    close $fh;
    $mark = length $h->error_log;
    $h->start;
    my $log = $h->wait_for(sub {
        my $l = log_since($h, $mark); $l =~ /\[RA341\]/ ? $l : '' });
    like $log, qr/robots-audit: \[RA341\] [^\n]*the state file "\Q$file\E" is refused \(corrupt: its SHA-256 does not match\): a new ledger starts/,
        'a corrupt file: RA341';
    like $log, qr/\[(?:\w+:)?warn(?:ing)?\][^\n]*\[RA341\]/, '... at warn';
    is $h->get('/index.html', ua => $GOOGLEBOT)->{status}, 200,
        '... and the server answers';
    is googlebot($h)->{requests}, 1, '... counting from a new ledger';

    # a torn file
    $h->stop;
    truncate $file, 1000 or die "truncate: $!";
    $mark = length $h->error_log;
    $h->start;
    like $h->wait_for(sub {
            my $l = log_since($h, $mark); $l =~ /\[RA341\]/ ? $l : '' }),
        qr/\[RA341\] [^\n]*is refused \(torn: 1000 bytes where its header says \d+\)/,
        'a torn file: RA341';
    is $h->get('/index.html', ua => $GOOGLEBOT)->{status}, 200,
        '... and the server answers';
    is googlebot($h)->{requests}, 1, '... counting from a new ledger';

    unlike $h->error_log, $ad->crash_re, 'no crash or emergency';
    unlike $h->error_log, qr/\[RA342\]/, 'every save written';
    $h->stop;
}

1;
