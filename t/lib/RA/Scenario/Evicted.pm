# SPDX-License-Identifier: BSD-2-Clause
package RA::Scenario::Evicted;

# Evidence that lasts, on nginx and Apache alike.
# A scraper that spends the alert share of unverified crawlers on junk
# violations, violates once, then sends 2,500 requests under invented bot
# names evicts its own record from a small zone: its violation is still
# counted, in the site's "evicted" sums of the status page's JSON.
# One server block known by 16 names, each sent every User-Agent of the
# crawler table from one address (no range file: nobody is verified): the
# whole-zone Prometheus page answers 200, with the claims summed per site
# as crawler="unverified", never a series per claimed name.
#
#   RA::Scenario::Evicted->run($server);

use strict;
use warnings;

use IO::Socket::INET;
use JSON::PP;
use Test::More;
use RA::Harness;
use RA::Scenario qw(run_variants);

my $ROBOTS = "User-agent: *\nDisallow: /private\n";
my $SCRAPER = 'ExampleScraper/1.0 (+https://example.com/scraper)';
my $NAMES = 16;

sub run {
    my ($class, $server, %o) = @_;
    run_variants($server, sub { scraper(@_, %o) });
    run_variants($server, sub { table_names(@_, %o) });
    done_testing;
}

# The first "ua" piece (else the name) of every crawler of the table.
sub table_agents {
    my $file = RA::Harness::root() . '/data/crawlers.txt';
    open my $fh, '<', $file or die "$file: $!";
    my (@ua, $name, $piece);
    my $flush = sub {
        push @ua, "Mozilla/5.0 (compatible; " . ($piece // $name) . "/1.0)"
            if defined $name;
        ($name, $piece) = ();
    };
    while (<$fh>) {
        s/^\s+//;
        s/\s+$//;
        if (/^crawler\s+(\S+)/) {
            $flush->();
            $name = $1;
        } elsif (/^ua\s+(.+)$/ && defined $name && !defined $piece) {
            $piece = $1;
        }
    }
    $flush->();
    close $fh;
    return @ua;
}

# GETs on connections of their own (the harness's servers keep no
# connection alive), 50 opened at once; returns how many were answered.
sub send_all {
    my ($h, @reqs) = @_;
    my $n = 0;
    while (my @batch = splice(@reqs, 0, 50)) {
        my @socks = map {
            my ($host, $path, $ua) = @$_;
            my $s = IO::Socket::INET->new(PeerAddr => '127.0.0.1',
                                          PeerPort => $h->port,
                                          Proto => 'tcp', Timeout => 30)
                or die "connect: $!";
            binmode $s;
            print {$s} "GET $path HTTP/1.1\r\nHost: $host\r\n"
                     . "User-Agent: $ua\r\nConnection: close\r\n\r\n";
            $s;
        } @batch;
        for my $s (@socks) {
            local $/;
            my $resp = <$s> // '';
            $n++ if $resp =~ m{^HTTP/1\.1 \d{3} };
            close $s;
        }
    }
    return $n;
}

sub scraper {
    my ($ad, $v) = @_;
    my $h = $ad->harness($v, {
            audit          => 1,
            zone           => '1m',
            alert_interval => '60s',
        },
        files => {
            'htdocs/robots.txt' => $ROBOTS,
            'htdocs/private'    => "private\n",
            'htdocs/public'     => "public\n",
        },
    );
    $h->start;
    is $h->get('/robots.txt', ua => 'FetchBot/1.0')->{status}, 200,
        'robots.txt served';
    # junk violations: the alert share of unverified crawlers is spent
    is send_all($h, map { [ 'localhost', '/private', "Junk${_}Bot/1.0" ] }
                        1 .. 80), 80, '80 junk violations';
    is $h->get('/robots.txt', ua => $SCRAPER)->{status}, 200,
        'the scraper fetches robots.txt';
    is $h->get('/private', ua => $SCRAPER)->{status}, 200,
        'the scraper violates it';
    ok $h->crawler_stats($h->status_json, 'localhost', 'ExampleScraper'),
        'its record is there';
    # invented bot names, compliant: they evict the scraper's record
    is send_all($h, map { [ 'localhost', '/public',
                            "Inv${_}Bot/1.0 (+http://x.test/$_)" ] }
                        1 .. 2500), 2500, '2,500 invented bot names';

    # every record shown (a 1m zone holds fewer than ?limit=200)
    my $r = $h->get("$h->{status_path}?format=json&limit=200");
    is $r->{status}, 200, 'the status page answers';
    my $json = JSON::PP->new->utf8->decode($r->{content});
    my $site = $h->site_json($json, 'localhost');
    is $site->{crawlers_shown}, $site->{crawlers_total}, 'every record shown';
    ok !$h->crawler_stats($json, 'localhost', 'ExampleScraper'),
        'the flood evicted its record';
    ok $site->{evicted}{records} > 0, 'records were evicted: '
        . ($site->{evicted}{records} // 'none');
    # the 81 violations (the junk's and the scraper's) are all counted:
    # those of records still there, the others in the evicted sums,
    # the scraper's among them (its record is gone)
    my $live = 0;
    $live += $_->{violation} for @{ $site->{crawlers} };
    ok $site->{evicted}{violation} >= 1,
        "the site's evicted sums hold violations: "
        . $site->{evicted}{violation};
    is $live + $site->{evicted}{violation}, 81,
        'every violation is counted, the scraper\'s in the evicted sums';
    # and the requests (a count another process adds while the record is
    # evicted may be lost with it: within 1 %)
    my $req = $site->{evicted}{requests};
    $req += $_->{requests} for @{ $site->{crawlers} };
    ok $req <= $site->{requests} && $req >= 0.99 * $site->{requests},
        "so are the requests: $req of $site->{requests}";
    $h->stop;
}

sub table_names {
    my ($ad, $v) = @_;
    my @names = map { sprintf 'n%02d.test', $_ } 0 .. $NAMES - 1;
    my $h = $ad->harness($v, {
            audit  => 1,
            zone   => '128m',
            vhosts => [ { name => $names[0],
                          aliases => [ @names[1 .. $#names] ] } ],
        },
        files => { 'htdocs/robots.txt' => $ROBOTS },
    );
    $h->start;
    my @ua = table_agents();
    ok @ua > 300, scalar(@ua) . ' User-Agents of the table';
    my @reqs;
    for my $n (@names) {
        push @reqs, [ $n, '/robots.txt', 'FetchBot/1.0' ];
        push @reqs, map { [ $n, '/private', $_ ] } @ua;
    }
    is send_all($h, @reqs), scalar(@reqs),
        scalar(@reqs) . ' requests answered';

    my $r = $h->get("$h->{status_path}?format=prometheus");
    is $r->{status}, 200, 'the whole-zone Prometheus page answers 200';
    my $p = $r->{content};
    diag sprintf '%d bytes for %d sites x %d User-Agents', length $p,
                 $NAMES, scalar @ua;
    like $p, qr/^robots_audit_metrics_degraded 0$/m, 'with every family';
    for my $n (@names) {
        like $p, qr/^robots_audit_requests_total\{site="\Q$n\E",crawler="unverified",verification="(?:unverifiable|impostor)",method="none",verdict="violation"\} [1-9]\d*$/m,
            "$n: the claims summed";
    }
    unlike $p, qr/crawler="(?!unverified"|generic"|evicted")/,
        'no series per claimed name';
    ok length($p) < 8 * 1024 * 1024, 'under the cap';
    $h->stop;
}

1;
