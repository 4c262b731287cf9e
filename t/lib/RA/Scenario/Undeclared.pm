# SPDX-License-Identifier: BSD-2-Clause
package RA::Scenario::Undeclared;

# Undeclared crawlers, on nginx and Apache alike: a client with a Chrome
# User-Agent that reads /robots.txt is flagged (it is served robots.txt
# as anyone); its request for a path the '*' group disallows is an RA104
# alert in the alert log and an evidence line with crawler "undeclared",
# and enforce's word "undeclared" refuses it (403) while its allowed
# request is served; the status page lists it in JSON sites[].undeclared[]
# with its signals and counts, in text under its own heading, and in
# Prometheus.  A person's browsing from another address (pages with their
# CSS and scripts, Referers from page to page, and once a disallowed page)
# is never flagged and never refused.
#
#   RA::Scenario::Undeclared->run($server);

use strict;
use warnings;

use FindBin;
use JSON::PP;
use Test::More;
use RA::Scenario qw($BROWSER run_variants);

my $CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 '
           . '(KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
my $ROBOTS = "User-agent: *\nDisallow: /private\n";
my $CRAWLER = '127.0.0.2';
my $PERSON = '127.0.0.3';

sub run {
    my ($class, $server) = @_;
    run_variants($server, sub { scenario(@_) });
    done_testing;
}

sub scenario {
    my ($ad, $v) = @_;
    my %files = ('htdocs/robots.txt' => $ROBOTS, 'robots.txt' => $ROBOTS,
                 'htdocs/style.css' => "p{}\n", 'htdocs/app.js' => "1;\n",
                 'htdocs/private/x.html' => "private\n",
                 'htdocs/open.html' => "open\n");
    $files{"htdocs/$_.html"} = "page $_\n" for qw(a b c d e f);
    my $h = $ad->harness($v, {
            audit        => 1,
            enforce      => 'undeclared',
            robots_file  => '%%DIR%%/robots.txt',
            alert_log    => '%%DIR%%/alert.log',
            evidence_log => '%%DIR%%/evidence.log',
        },
        files => \%files,
    );
    $h->start;
    my $base = "http://localhost:" . $h->port;

    # a person: pages, each with its subresources, reached by links
    my ($prev, $refused) = (undef, 0);
    for my $p (qw(a b c d e f)) {
        my %ref = $prev ? (Referer => "$base/$prev.html") : ();
        $refused++ if $h->get("/$p.html", from => $PERSON, ua => $BROWSER,
                              headers => \%ref)->{status} != 200;
        for my $sub (qw(style.css app.js)) {
            $refused++ if $h->get("/$sub", from => $PERSON, ua => $BROWSER,
                headers => { Referer => "$base/$p.html" })->{status} != 200;
        }
        $prev = $p;
    }
    is $h->get('/private/x.html', from => $PERSON, ua => $BROWSER,
               headers => { Referer => "$base/f.html" })->{status}, 200,
        "a person's disallowed page is served (never flagged)";
    is $refused, 0, "a person's pages and subresources are all served";

    # a crawler in a browser's clothes
    is $h->get('/robots.txt', from => $CRAWLER, ua => $CHROME)->{status},
        200, 'robots.txt is served to the disguised crawler';
    is $h->get('/private/x.html', from => $CRAWLER, ua => $CHROME)->{status},
        403, "enforce undeclared: its disallowed request is refused";
    is $h->get('/open.html', from => $CRAWLER, ua => $CHROME)->{status},
        200, '... its allowed request is served';

    my ($alert) = grep { /"tag":"RA104"/ } split /\n/, $h->read_file('alert.log');
    ok $alert, 'an RA104 line in the alert log';
    my $a = $alert ? decode_json($alert) : {};
    is $a->{crawler}, 'undeclared', '... crawler "undeclared"';
    is $a->{client}, $CRAWLER, '... its client';
    is $a->{uri}, '/private/x.html', '... the refused path';
    ok((grep { $_ eq 'robots.txt' } @{ $a->{signals} // [] }),
        '... the signal that decided');
    SKIP: {
        my ($f2b) = grep { -x } map { "$_/fail2ban-regex" }
                    split(/:/, $ENV{PATH}), '/usr/bin';
        skip 'fail2ban-regex is not installed', 1 unless $f2b;
        my $filter = "$FindBin::Bin/../contrib/fail2ban/filter.d/"
                   . 'robots-audit.conf';
        my $log = $h->path('alert.log');
        is scalar(`'$f2b' -o ip '$log' '$filter\[mode=undeclared]' 2>&1`),
            "$CRAWLER\n", 'fail2ban mode=undeclared bans its address alone';
    }
    my @ev = grep { /"crawler":"undeclared"/ }
             split /\n/, $h->read_file('evidence.log');
    is scalar(@ev), 1, 'one evidence line with crawler "undeclared"';

    my $site = $h->site_json($h->status_json, 'localhost') // {};
    my @u = @{ $site->{undeclared} // [] };
    is scalar(@u), 1, 'JSON sites[].undeclared[]: the crawler alone';
    my $c = $u[0] // {};
    is $c->{client}, $CRAWLER, '... its client';
    is_deeply $c->{user_agents}, [ $CHROME ], '... its User-Agent';
    ok((grep { $_ eq 'robots.txt' } @{ $c->{signals} // [] }),
        '... its signals');
    ok(($c->{score} // 0) >= 100, '... its score');
    is $c->{requests}, 3, '... its requests';
    is $c->{violation}, 1, '... one violation';
    is $c->{compliant}, 1, '... one compliant request';
    like $c->{first_seen} // '', qr/^\d{4}-\d\d-\d\dT/, '... first seen';

    like $h->get("$h->{status_path}?format=text")->{content},
        qr/undeclared crawlers.*\Q$CRAWLER\E/s,
        'the text status page lists it under its own heading';
    like $h->get("$h->{status_path}?format=prometheus")->{content},
        qr/robots_audit_undeclared_clients\{site="localhost"\} 1/,
        'Prometheus: robots_audit_undeclared_clients';
    unlike $h->error_log, $ad->crash_re, 'no crash';
}

1;
