# SPDX-License-Identifier: BSD-2-Clause
package RA::Scenario::AlertBudget;

# The alert budget, on nginx and Apache alike: the flood
# of a new generic bot name per violating request, at small scale.
# Generic bots alert once per (site, client /24) per interval, whatever
# name they give; the per-site and global buckets (here 5 and 8 lines a
# minute, kept in the shared ledger: two workers or children share them)
# bound the RA100 lines; what they hold back is said in RA103 summary
# lines (error log and JSON alert log), one per interval at most, which
# name the clients with the most violations; every request is still
# counted.  The whole 127/8 is loopback: requests come
# from 127.0.N.1 and 127.1.N.1, one /24 each.
# Review finding 2: generic bots and impostors (a fake Googlebot from 20
# /24s and from 200 addresses of one /24) may use half of each bucket at
# most; the real GPTBot (verified: 127.3.0.0/24 is its range here) still
# gets its RA100 line after the flood.
# The purposes that alert (robots_audit_alert_purposes,
# RobotsAuditAlertPurposes "search ai-training"): curl's and a Chef
# client's violations raise no line, GPTBot's does, all three are counted;
# with none given every purpose alerts.
#
#   RA::Scenario::AlertBudget->run($server);

use strict;
use warnings;

use JSON::PP;
use Test::More;
use Time::HiRes qw(sleep time);
use RA::Scenario qw($GOOGLEBOT $GPTBOT run_variants count_re);

my $ROBOTS = "User-agent: *\nDisallow: /checkout\n";
my $INTERVAL = 3;           # s: the alert interval, and the summary's
my ($SITE_MAX, $ALL_MAX) = (5, 8);
# what alerts about anyone but verified crawlers may use: half of each
my ($SITE_OPEN, $ALL_OPEN) = (int($SITE_MAX / 2), int($ALL_MAX / 2));
my $FLOOD = 2000;

sub run {
    my ($class, $server, %o) = @_;
    run_variants($server, sub { scenario(@_, %o) });
    run_variants($server, sub { purposes(@_) });
    done_testing;
}

# A GET from a loopback address for a Host; the status, 0 without one.
sub get_from {
    my ($h, $from, $host, $path, $ua) = @_;
    return $h->get($path, from => $from, host => $host, ua => $ua)->{status};
}

sub scenario {
    my ($ad, $v, %o) = @_;
    my $h = $ad->harness($v, {
            audit          => 1,
            alert_interval => "${INTERVAL}s",
            alert_budget   => "$SITE_MAX $ALL_MAX",
            vhosts         => [ { name => 'site2.test' } ],
            ip_ranges      => [ '%%DIR%%/ranges/googlebot.json',
                                '%%DIR%%/ranges/gptbot.json' ],
        },
        files => {
            'htdocs/robots.txt' => $ROBOTS,
            'htdocs/checkout'   => "pay here\n",
            'ranges/googlebot.json' =>
                '{"prefixes":[{"ipv4Prefix":"192.0.2.0/24"}]}',
            'ranges/gptbot.json'    =>
                '{"prefixes":[{"ipv4Prefix":"127.3.0.0/24"}]}',
        },
    );
    $h->start;
    my $pre = $ad->alert_prefix;
    my $sent = 0;

    for my $site ('localhost', 'site2.test') {
        is get_from($h, '127.0.0.1', $site, '/robots.txt', 'FetchBot/1.0'),
            200, "$site serves robots.txt";
    }
    my $t0 = time;

    # 20 /24s on one site: the site's budget lets its half out
    for my $n (1 .. 20) {
        get_from($h, "127.0.$n.1", 'localhost', '/checkout', "Gen${n}Bot/1.0");
        $sent++;
    }
    # 10 on another: what is left of the global half
    for my $n (1 .. 10) {
        get_from($h, "127.1.$n.1", 'site2.test', '/checkout',
                 "Other${n}Bot/1.0");
        $sent++;
    }
    my $fast = time - $t0 < $INTERVAL;
    # the flood: a new generic name per request, one /24
    my $tf = time;
    for my $i (1 .. $FLOOD) {
        get_from($h, '127.0.0.1', 'localhost', '/checkout',
                 "Flood${i}Bot/1.0 (+http://x.test/$i)");
        $sent++;
    }
    my $flood_s = time - $tf;
    # a fake Googlebot: 20 /24s, then 200 addresses of one /24 (one key)
    for my $n (1 .. 20) {
        get_from($h, "127.4.$n.1", 'localhost', '/checkout', $GOOGLEBOT);
        $sent++;
    }
    for my $n (1 .. 200) {
        get_from($h, "127.5.0.$n", 'localhost', '/checkout', $GOOGLEBOT);
        $sent++;
    }
    # the real GPTBot crawls /checkout: its line is written
    get_from($h, '127.3.0.1', 'localhost', '/checkout', $GPTBOT);
    $sent++;
    # an interval later, a request closes the window: a summary is due
    sleep $INTERVAL + 0.3;
    get_from($h, '127.2.0.1', 'localhost', '/checkout', 'LastBot/1.0');
    $sent++;
    my $elapsed = time - $t0;
    diag sprintf '%d flood requests in %.1f s; %.1f s in all', $FLOOD,
                 $flood_s, $elapsed;

    my $err = $h->wait_for(sub {
        my $l = $h->error_log; $l =~ /\[RA103\]/ ? $l : '' });
    my @ra100 = $err =~ /^(.*\[RA100\].*)$/mg;
    my @ra103 = $err =~ /^(.*\[RA103\].*)$/mg;
    my @ra102 = $err =~ /^(.*\[RA102\].*)$/mg;
    # refills during the run: one line a 60/4 s in all
    my $bound = $ALL_OPEN + int($elapsed * $ALL_OPEN / 60) + 1;
    cmp_ok scalar(grep { !/verification=verified/ } @ra100, @ra102), '<=',
        $bound, "generic bots' and impostors' lines bounded by half the "
        . "budget ($bound)";
    cmp_ok scalar @ra100, '>=', $ALL_OPEN, '... and that half was used';
    like $err, qr/${pre}robots-audit: \[RA100\] violation site="localhost" crawler="GPTBot" verification=verified client=127\.3\.0\.1 /,
        'the verified crawler\'s line is written after the flood';
    SKIP: {
        skip 'this machine took longer than the alert interval', 2
            unless $fast;
        cmp_ok count_re(qr/\[RA100\][^\n]*site="localhost"[^\n]*verification=unverifiable/, $err), '>=',
            $SITE_OPEN, "the first site: its $SITE_OPEN";
        cmp_ok count_re(qr/\[RA100\][^\n]*site="site2\.test"/, $err), '>=',
            $ALL_OPEN - $SITE_OPEN, '... the second: what is left in all';
    }
    cmp_ok scalar(grep { /crawler="Flood\d+Bot"/ } @ra100), '<=',
        int($flood_s / $INTERVAL) + 1,
        'the flood: at most one line per interval (its /24)';
    like $err, qr/${pre}robots-audit: \[RA100\] violation site="localhost" crawler="Gen1Bot" verification=unverifiable client=127\.0\.1\.1 method=GET uri="\/checkout" rule="disallow: \/checkout" line=2 suppressed=0/,
        'a generic bot\'s RA100 line';

    cmp_ok scalar @ra103, '>=', 1, 'a summary line';
    cmp_ok scalar @ra103, '<=', int($elapsed / $INTERVAL) + 1,
        '... at most one per interval';
    like $ra103[0], qr/${pre}robots-audit: \[RA103\] alert budget spent: suppressed=\d+ crawlers=\d+ sites=\d+ since=\d{4}-\d\d-\d\dT[\d:.]+Z per_site=$SITE_MAX total=$ALL_MAX verified=0 top_clients="[\d.=,]+"$/,
        '... its format';
    ok scalar(grep { /top_clients="127\.0\.0\.1=\d+/ } @ra103),
        '... naming the flood\'s client first';
    my ($sup, $cr) = (0, 0);
    for (@ra103) { /suppressed=(\d+) crawlers=(\d+)/; $sup += $1; $cr += $2 }
    # 15 held on the first site, 7 on the second, the flood's
    cmp_ok $sup, '>=', 20 + 10 - $ALL_OPEN, 'held-back alerts counted';
    cmp_ok $cr, '>=', 20 + 10 - $ALL_OPEN, '... for as many crawlers';
    cmp_ok $sup, '<', 150, '... not one per flood request (one /24)';

    my @json = map { decode_json($_) } split /\n/, $h->wait_for(sub {
        my $l = $h->alert_log; $l =~ /RA103/ ? $l : '' });
    my @j103 = grep { $_->{tag} eq 'RA103' } @json;
    is scalar(grep { $_->{tag} eq 'RA100' } @json), scalar @ra100,
        'as many RA100 lines in the alert log';
    is scalar @j103, scalar @ra103, 'the summaries in the alert log';
    my $js = 0;
    $js += $_->{suppressed} for @j103;
    is $js, $sup, '... with the same numbers';
    is $j103[0]{per_site}, $SITE_MAX, '... and the limits';
    is $j103[0]{total}, $ALL_MAX, '...';
    is $j103[0]{verified}, 0, '... no verified crawler held back';
    is_deeply $j103[0]{verified_names}, [], '...';
    ok scalar(grep { ($_->{top_clients}[0]{client} // '') eq '127.0.0.1' }
              @j103), '... the flood\'s client first among the top clients';

    # every request counted
    my $j = $h->status_json;
    is $j->{ledger}{violations}, $sent, "all $sent violations counted";
    is $h->site_json($j, 'localhost')->{requests}, $sent - 10 + 1,
        '... on their sites';

    unlike $err, $ad->crash_re, 'no crash or emergency';
    $h->stop;
}

# The purposes that alert: with "search ai-training" a tool's violation
# (curl, a Chef client) is counted and says nothing, GPTBot's alerts in
# both logs; without the directive every one alerts.
sub purposes {
    my ($ad, $v) = @_;
    my $CURL = 'curl/8.5.0';
    my $CHEF = 'Chef Client/10.18.2 (ruby-1.9.3-p327; ohai-6.16.0; '
             . 'x86_64-linux; +http://opscode.com)';
    for my $list ('search ai-training', undef) {
        my $h = $ad->harness($v, {
                audit          => 1,
                alert_interval => $ad->min_interval,
                (defined $list ? (alert_purposes => $list) : ()),
            },
            files => { 'htdocs/robots.txt' => $ROBOTS,
                       'htdocs/checkout'   => "pay here\n" },
        );
        $h->start;
        my $name = $list // 'none given';
        # the site's robots.txt, served to a crawler: the version judged
        is get_from($h, '127.0.0.1', 'localhost', '/robots.txt',
                    'FetchBot/1.0'), 200, "$name: robots.txt served";
        is get_from($h, '127.0.0.1', 'localhost', '/checkout', $CURL), 200,
            "$name: curl fetches /checkout";
        get_from($h, '127.0.0.1', 'localhost', '/checkout', $CHEF);
        get_from($h, '127.0.0.1', 'localhost', '/checkout', $GPTBOT);
        my $err = $h->wait_for(sub {
            my $l = $h->error_log; $l =~ /crawler="GPTBot"/ ? $l : '' });
        like $err, qr/\[RA100\] violation site="localhost" crawler="GPTBot" /,
            "$name: GPTBot's violation alerts";
        my @json = map { decode_json($_) } split /\n/, $h->wait_for(sub {
            my $l = $h->alert_log; $l =~ /GPTBot/ ? $l : '' });
        ok scalar(grep { $_->{crawler} eq 'GPTBot' } @json),
            "$name: ... in the alert log too";
        sleep 0.3;                  # a worker's line still on its way
        $err = $h->error_log;
        @json = map { decode_json($_) } split /\n/, $h->alert_log;
        my @tools = grep { ($_->{crawler} // "") =~ /^(curl|ruby|Chef)$/i } @json;
        if (defined $list) {
            unlike $err, qr/\[RA100\][^\n]*crawler="(curl|ruby|Chef)"/i,
                "$name: no alert line for curl or the Chef client";
            is scalar @tools, 0, "$name: ... nor in the alert log";
        } else {
            is count_re(qr/\[RA100\][^\n]*crawler="(curl|ruby|Chef)"/i, $err),
                2, "$name: curl and the Chef client alert";
            is scalar @tools, 2, "$name: ... in the alert log too";
        }
        is $h->status_json->{ledger}{violations}, 3,
            "$name: the three violations are counted";
        unlike $err, $ad->crash_re, "$name: no crash or emergency";
        $h->stop;
    }
}

1;
