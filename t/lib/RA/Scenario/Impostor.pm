# SPDX-License-Identifier: BSD-2-Clause
package RA::Scenario::Impostor;

# Impostors alert (RA102), on nginx and Apache alike.  This machine
# (127.0.0.1, 127.0.1.2: two /24s, two alert keys) is outside Googlebot's
# ranges and inside GPTBot's:
# a fake Googlebot crawling /checkout gets an RA102 line in the error log
# and a JSON alert-log line (verification impostor, its verdict, its
# client address); a second request from the same address within the
# alert interval is held back and the next alert counts it; another address
# alerts on its own; the real (verified) GPTBot gets its RA100 as before,
# and no impostor request counts against the real Googlebot.
#
# The impostor gate is per server process (docs/design.md, "Alerts"): one
# worker or child here, so that "within the interval" means one table.
#
#   RA::Scenario::Impostor->run($server);

use strict;
use warnings;

use JSON::PP;
use Test::More;
use Time::HiRes qw(sleep time);
use RA::Scenario qw($GOOGLEBOT $GPTBOT run_variants count_re);

my $ROBOTS = "User-agent: *\nDisallow: /checkout\n";

# ms; long enough for two requests, short enough to wait out
my $INTERVAL = 2000;

sub run {
    my ($class, $server, %o) = @_;
    run_variants($server, sub { scenario(@_, %o) });
    done_testing;
}

# A GET from another loopback address (the harness's come from 127.0.0.1);
# the status, 0 when there was no answer.
sub get_from {
    my ($h, $from, $path, $ua) = @_;
    return $h->get($path, from => $from, ua => $ua)->{status};
}

sub scenario {
    my ($ad, $v, %o) = @_;
    my $h = $ad->harness($v, {
            audit          => 1,
            ip_ranges      => [ '%%DIR%%/ranges/googlebot.json',
                                '%%DIR%%/ranges/gptbot.json' ],
            alert_interval => "${INTERVAL}ms",
        },
        workers => 1,
        files => {
            'htdocs/robots.txt'    => $ROBOTS,
            'htdocs/index.html'    => "home\n",
            'htdocs/checkout'      => "pay here\n",
            # Googlebot's ranges are elsewhere: this machine is a fake
            # Googlebot, and the real GPTBot
            'ranges/googlebot.json' =>
                '{"prefixes":[{"ipv4Prefix":"192.0.2.0/24"}]}',
            'ranges/gptbot.json'    =>
                '{"prefixes":[{"ipv4Prefix":"127.0.0.0/8"}]}',
        },
    );
    $h->start;
    my $pre = $ad->alert_prefix;

    # robots.txt is a fetch, not judged: no alert
    is $h->get('/robots.txt', ua => $GOOGLEBOT)->{status}, 200,
        'fake Googlebot fetches robots.txt';
    my $t0 = time;
    is $h->get('/checkout', ua => $GOOGLEBOT)->{status}, 200,
        'fake Googlebot crawls /checkout (no enforce)';
    my $err = $h->wait_for(sub {
        my $l = $h->error_log; $l =~ /\[RA102\]/ ? $l : '' });
    like $err, qr/${pre}robots-audit: \[RA102\] violation site="localhost" crawler="Googlebot" verification=impostor client=127\.0\.0\.1 method=GET uri="\/checkout" rule="disallow: \/checkout" line=2 suppressed=0/,
        'RA102 line in the error log at warn, with the verdict';
    unlike $err, qr/\[RA10[01]\]/, 'no RA100 for the impostor';
    my @l = split /\n/, $h->wait_for(sub { $h->alert_log });
    is scalar @l, 1, 'one JSON alert line';
    my $a = eval { decode_json($l[0] // '') } // {};
    is $a->{tag}, 'RA102', '... tag RA102';
    is $a->{verification}, 'impostor', '... verification impostor';
    is $a->{verdict}, 'violation', '... its verdict';
    is $a->{client}, '127.0.0.1', '... its client address';
    is $a->{crawler}, 'Googlebot', '... the crawler it claims to be';
    is $a->{uri}, '/checkout', '... the URI';
    is $a->{suppressed}, 0, '... nothing held back yet';

    # the same address within the interval: held back, whatever the verdict
    $h->get('/checkout', ua => $GOOGLEBOT);
    $h->get('/index.html', ua => $GOOGLEBOT);
    # another address: its own alert
    is get_from($h, '127.0.1.2', '/checkout', $GOOGLEBOT), 200,
        'fake Googlebot from 127.0.1.2';
    # the real GPTBot: RA100, its own timer
    $h->get('/checkout', ua => $GPTBOT);
    $h->get('/checkout', ua => $GPTBOT);
    my $within = time - $t0 < $INTERVAL / 1000;

    my $j = $h->status_json;               # every request above was counted
    my $imp = $h->crawler_stats($j, 'localhost', 'Googlebot', 'impostor');
    is $imp->{requests}, 5, 'the impostor\'s requests, counted';
    is $imp->{violation}, 3, '... under verification impostor';
    is $imp->{compliant}, 1, '... every verdict';
    ok !$h->crawler_stats($j, 'localhost', 'Googlebot', 'verified'),
        'nothing counted against the real Googlebot';
    my $gpt = $h->crawler_stats($j, 'localhost', 'GPTBot', 'verified');
    is $gpt->{violation}, 2, 'real GPTBot counted as verified';

    @l = split /\n/, $h->wait_for(sub {
        my $l = $h->alert_log; ($l =~ tr/\n//) >= 3 ? $l : '' });
    sleep 0.3;                              # nothing more comes
    $err = $h->error_log;
    @l = map { decode_json($_) } split /\n/, $h->alert_log;
    SKIP: {
        skip 'this machine took longer than the alert interval', 2
            unless $within;
        is count_re(qr/\[RA102\][^\n]*client=127\.0\.0\.1 /, $err), 1,
            'the same address within the interval: held back';
        is scalar(grep { $_->{tag} eq 'RA102' && $_->{client} eq '127.0.0.1' }
                  @l), 1, '... in the alert log too';
    }
    like $err, qr/${pre}robots-audit: \[RA102\] violation site="localhost" crawler="Googlebot" verification=impostor client=127\.0\.1\.2 method=GET uri="\/checkout" [^\n]*suppressed=0/,
        'another address alerts on its own';
    is scalar(grep { $_->{tag} eq 'RA102' && $_->{client} eq '127.0.1.2' }
              @l), 1, '... in the alert log too';
    like $err, qr/${pre}robots-audit: \[RA100\] violation site="localhost" crawler="GPTBot" verification=verified client=127\.0\.0\.1 method=GET uri="\/checkout" rule="disallow: \/checkout" line=2 suppressed=0/,
        'the real GPTBot: RA100 as before';
    SKIP: {
        skip 'this machine took longer than the alert interval', 1
            unless $within;
        is count_re(qr/\[RA100\]/, $err), 1, '... rate-limited as before';
    }
    unlike $err, qr/\[RA10[01]\][^\n]*verification=impostor/,
        'no RA100 or RA101 for an impostor';

    # the interval passed: the next alert counts what was held back
    sleep $INTERVAL / 1000 + 0.2;
    $h->get('/checkout/more', ua => $GOOGLEBOT);
    $err = $h->wait_for(sub {
        my $l = $h->error_log;
        $l =~ /\[RA102\][^\n]*uri="\/checkout\/more"/ ? $l : '' });
    like $err, qr/\[RA102\] violation site="localhost" crawler="Googlebot" verification=impostor client=127\.0\.0\.1 method=GET uri="\/checkout\/more" [^\n]*suppressed=2/,
        'after the interval: alerts again, suppressed=2'
        if $within;
    my ($last) = grep { ($_->{uri} // '') eq '/checkout/more' }
                 map { decode_json($_) } split /\n/, $h->wait_for(sub {
                     my $l = $h->alert_log;
                     $l =~ /checkout\/more/ ? $l : '' });
    is $last->{tag}, 'RA102', '... JSON line RA102';
    is $last->{suppressed}, 2, '... suppressed 2' if $within;

    unlike $h->error_log, $ad->crash_re, 'no crash or emergency';
    $h->stop;
}

1;
