# SPDX-License-Identifier: BSD-2-Clause
package RA::Scenario::Evidence;

# The evidence log, on nginx and Apache alike: no violation vanishes
# without a trace, and no line is torn.
# A scraper that tries to erase its own evidence: 80 junk violations with
# invented bot names (one /24 each) spend the alert share of unverified
# crawlers, so the scraper's own violation writes no RA100 line; 2,500
# more requests with invented names then push its record and its ring
# entry out of a small ledger.  Its violation is still in the evidence
# log, written when it was counted; every line of the evidence and alert
# logs parses as JSON, with the CSV report's columns as keys; the budget
# summary (RA103) names the clients with the most violations, and its
# time is never before its since.
# A log that cannot be written (/dev/full): the lines lost are counted
# (robots_audit_log_write_errors_total{log=...}) and said once a minute
# per log (RA307, RA313) by both servers.
# Both logs on a 64 KiB tmpfs that fills in the middle of a line and is
# freed again (as root; skipped otherwise): no line is glued to another,
# every line the counters do not call lost is whole JSON, and the lines
# after the space came back are whole.
#
#   RA::Scenario::Evidence->run($server);

use strict;
use warnings;

use JSON::PP;
use Test::More;
use Time::HiRes qw(sleep time);
use RA::Scenario qw(run_variants);

my $ROBOTS = "User-agent: *\nDisallow: /checkout\n";
my $INTERVAL = 3;           # s: the alert interval, and the summary's
my $JUNK = 80;
my $FLOOD = 2500;
my $SCRAPER = 'ScraperBot/1.0 (+http://scraper.test/)';
my @CSV = qw(time site crawler verification verified_by client method uri
             rule line robots_sha256 last_robots_fetch purpose);

sub run {
    my ($class, $server) = @_;
    run_variants($server, sub { flood(@_) });
    run_variants($server, sub { full(@_) });
    run_variants($server, sub { tmpfs(@_) });
    done_testing;
}

sub get_from {
    my ($h, $from, $path, $ua) = @_;
    return $h->get($path, from => $from, ua => $ua)->{status};
}

# The lines of a log, each decoded (undef: not JSON).
sub json_lines {
    my ($text) = @_;
    return map { my $l = $_; my $j = eval { decode_json($l) }; $j }
           split /\n/, $text;
}

sub flood {
    my ($ad, $v) = @_;
    my $h = $ad->harness($v, {
            audit          => 1,
            zone           => '256k',
            alert_interval => "${INTERVAL}s",
            evidence_log   => '%%DIR%%/evidence.log',
        },
        files => { 'htdocs/robots.txt' => $ROBOTS,
                   'htdocs/checkout'   => "pay here\n" },
    );
    $h->start;
    is get_from($h, '127.0.0.1', '/robots.txt', 'FetchBot/1.0'), 200,
        'robots.txt served';
    my $sent = 0;
    # junk from 80 /24s: each passes its block's gate and spends the share
    for my $n (1 .. $JUNK) {
        get_from($h, "127.0.$n.1", '/checkout', "Junk${n}Bot/1.0");
        $sent++;
    }
    get_from($h, '127.9.0.1', '/checkout?id=1&evil="x"', $SCRAPER);
    $sent++;
    my $t0 = time;
    for my $i (1 .. $FLOOD) {
        get_from($h, '127.0.0.1', '/checkout', "Evict${i}Bot/1.0");
        $sent++;
    }
    diag sprintf '%d flood requests in %.1f s', $FLOOD, time - $t0;
    # an interval later, a request closes the summary window
    sleep $INTERVAL + 0.3;
    get_from($h, '127.2.0.1', '/checkout', 'LastBot/1.0');
    $sent++;

    my $ev = $h->wait_for(sub {
        my $l = $h->read_file('evidence.log');
        (() = $l =~ /\n/g) >= $sent ? $l : '' }, 20);
    my @lines = split /\n/, $h->read_file('evidence.log');
    is scalar @lines, $sent, "one evidence line per violation ($sent)";
    my @ev = json_lines(join "\n", @lines);
    is scalar(grep { !defined } @ev), 0, 'every evidence line is JSON';
    is scalar(grep { defined && join(',', sort keys %$_)
                                ne join(',', sort @CSV) } @ev), 0,
        '... with the CSV report\'s columns as keys';
    my @mine = grep { defined && $_->{client} eq '127.9.0.1' } @ev;
    is scalar @mine, 1, 'the scraper\'s violation is in the evidence log';
    is $mine[0]{crawler}, 'ScraperBot', '... its crawler';
    is $mine[0]{uri}, '/checkout?id=1&evil="x"', '... its path, whole';
    is $mine[0]{rule}, '/checkout', '... the rule';
    is $mine[0]{line}, 2, '... its line';
    is $mine[0]{verification}, 'unverifiable', '... its verification';
    is $mine[0]{site}, 'localhost', '... its site';
    like $mine[0]{robots_sha256}, qr/^[0-9a-f]{64}$/, '... the file judged';

    my $err = $h->error_log;
    unlike $err, qr/\[RA100\][^\n]*client=127\.9\.0\.1 /,
        'the scraper\'s violation wrote no alert (the share was spent)';
    my $j = $h->status_json;
    my $site = $h->site_json($j, 'localhost');
    my @left = grep { ($_->{client} // '') eq '127.9.0.1' }
               @{ $site->{recent_violations} // [] };
    is scalar @left, 0,
        '... though the flood pushed it out of the ring of violations';
    is $site->{evidence_dropped}, 0, 'nothing dropped by the byte budget';
    is $j->{ledger}{violations}, $sent, "all $sent violations counted";

    my $al = $h->wait_for(sub {
        my $l = $h->alert_log; $l =~ /RA103/ ? $l : '' });
    my @al = json_lines($al);
    is scalar(grep { !defined } @al), 0, 'every alert line is JSON';
    my @j103 = grep { defined && $_->{tag} eq 'RA103' } @al;
    cmp_ok scalar @j103, '>=', 1, 'a budget summary';
    is scalar(grep { $_->{time} lt $_->{since} } @j103), 0,
        '... never before its own since';
    my $top = $j103[-1]{top_clients};
    ok ref $top eq 'ARRAY' && @$top >= 1 && @$top <= 5,
        '... naming at most 5 clients';
    is $top->[0]{client}, '127.0.0.1', '... the busiest first';
    cmp_ok $top->[0]{violations}, '>=', 1, '... with its violations';
    my @t103 = $err =~ /^(.*\[RA103\].*)$/mg;
    like $t103[-1], qr/ top_clients="127\.0\.0\.1=\d+/,
        '... in the error log too';
    unlike $err, $ad->crash_re, 'no crash or emergency';
    $h->stop;
}

# Both logs on /dev/full: every failed line counted, said once a minute
# per log for the whole server.
sub full {
    my ($ad, $v) = @_;
    my $N = 6;
    my $h = $ad->harness($v, {
            audit          => 1,
            alert_interval => $ad->min_interval,
            alert_log      => '/dev/full',
            evidence_log   => '/dev/full',
        },
        files => { 'htdocs/robots.txt' => $ROBOTS,
                   'htdocs/checkout'   => "pay here\n" },
    );
    $h->start;
    is get_from($h, '127.0.0.1', '/robots.txt', 'FetchBot/1.0'), 200,
        'robots.txt served';
    for my $n (1 .. $N) {
        is get_from($h, "127.0.$n.1", '/checkout', "Full${n}Bot/1.0"), 200,
            "violation $n answered";
    }
    my $prom = $h->wait_for(sub {
        my $r = $h->get("$h->{status_path}?format=prometheus");
        $r->{content} =~ /log_write_errors_total\{log="evidence"\} $N\b/
            ? $r->{content} : '' });
    like $prom, qr/^robots_audit_log_write_errors_total\{log="evidence"\} $N$/m,
        'every evidence line lost is counted';
    like $prom, qr/^robots_audit_log_write_errors_total\{log="alert"\} [1-9]\d*$/m,
        'alert lines lost are counted';
    my $err = $h->wait_for(sub {
        my $l = $h->error_log; $l =~ /\[RA307\]/ && $l =~ /\[RA313\]/ ? $l : '' });
    like $err, qr/\[RA313\] cannot write the evidence log \/dev\/full: No space left on device \(1 line lost since the last report\)/,
        'the evidence log\'s failure is said';
    like $err, qr/\[RA307\] cannot write the alert log \/dev\/full: /,
        'the alert log\'s failure is said (on Apache too)';
    is scalar(() = $err =~ /\[RA313\]/g), 1, '... once a minute';
    is scalar(() = $err =~ /\[RA307\]/g), 1, '...';
    my $j = $h->status_json;
    is $j->{log_write_errors}{evidence}, $N, 'the JSON status says so';
    like $h->get($h->{status_path})->{content},
        qr/evidence lost: 0 evidence lines over the byte budget, [1-9]\d* alert lines not written, $N evidence lines not written/,
        '... and the status page';
    (my $rest = $err) =~ s/^.*\[RA3(?:07|13)\].*$//mg;
    unlike $rest, $ad->crash_re, 'no crash or emergency';
    $h->stop;
}

sub tmpfs {
    my ($ad, $v) = @_;
    my $TESTS = 9;
    SKIP: {
        skip 'a tmpfs needs root', $TESTS if $> != 0;
        my $h = $ad->harness($v, {
                audit          => 1,
                alert_interval => $ad->min_interval,
                alert_log      => '%%DIR%%/fs/alerts.log',
                evidence_log   => '%%DIR%%/fs/evidence.log',
            },
            files => { 'htdocs/robots.txt' => $ROBOTS,
                       'htdocs/checkout'   => "pay here\n" },
        );
        my $fs = $h->dir . '/fs';
        mkdir $fs or die "mkdir $fs: $!";
        skip 'cannot mount a tmpfs here', $TESTS
            if system('mount', '-t', 'tmpfs', '-o', 'size=64k,mode=0777',
                      'tmpfs', $fs) != 0;
        my $ok = eval { tmpfs_run($h, $ad); 1 };
        my $why = $@;
        $h->stop;
        system('umount', $fs);
        die $why unless $ok;
    }
}

sub tmpfs_run {
    my ($h, $ad) = @_;
    my $fs = $h->dir . '/fs';
    my $long = '/checkout?' . ('q' x 900);
    $h->start;
    is get_from($h, '127.0.0.1', '/robots.txt', 'FetchBot/1.0'), 200,
        'robots.txt served';
    my $n = 0;
    my $send = sub {
        my ($k) = @_;
        for (1 .. $k) {
            $n++;
            get_from($h, "127.0.$n.1", $long, "Fill${n}Bot/1.0");
        }
    };
    $send->(3);
    # fill the tmpfs to the last byte, then free one page: the next lines
    # fit, one is cut in the middle, and not even its newline goes out
    open my $fh, '>', "$fs/filler" or die "filler: $!";
    my $chunk = 'x' x 1024;
    1 while syswrite $fh, $chunk;
    close $fh;
    truncate "$fs/filler", (-s "$fs/filler") - 4096 or die "truncate: $!";
    $send->(8);
    unlink "$fs/filler" or die "unlink: $!";
    $send->(3);

    my $prom = $h->get("$h->{status_path}?format=prometheus")->{content};
    my ($lost) = $prom =~ /^robots_audit_log_write_errors_total\{log="evidence"\} (\d+)$/m;
    cmp_ok $lost // 0, '>=', 1, 'lines lost while the disk was full, counted';
    my @lines = split /\n/, $h->read_file('fs/evidence.log');
    my @bad = grep { !defined eval { decode_json($_) } } @lines;
    is scalar(grep { /\{"time".*\{"time"/ } @lines), 0,
        'no evidence line glued to another';
    cmp_ok scalar @bad, '<=', 1, 'at most the line the disk cut is torn';
    is scalar(grep { !/^\{"time":/ } @bad), 0, '... and it is a line\'s start';
    is scalar(@lines) - scalar(@bad) + $lost, $n,
        'each violation is a whole line or counted as lost';
    my @after = map { decode_json($_) } grep { defined eval { decode_json($_) } }
                @lines[-3 .. -1];
    is scalar @after, 3, 'the lines after the space came back are whole';
    my @al = split /\n/, $h->read_file('fs/alerts.log');
    is scalar(grep { /\{"time".*\{"time"/ } @al), 0,
        'no alert line glued to another';
    (my $rest = $h->error_log) =~ s/^.*\[RA3(?:07|13)\].*$//mg;
    unlike $rest, $ad->crash_re, 'no crash or emergency';
}

1;
