# SPDX-License-Identifier: BSD-2-Clause
package RA::Scenario::Enforce;

# Enforce, on nginx and Apache alike: violations (and crawling while
# robots.txt answers 5xx) are answered 403, a local 403 page included (an
# internal redirect, judged and counted once), robots.txt is never refused,
# browsers are not judged, audit and enforce follow locations.  nginx judges
# in the preaccess phase, Apache in fixups: the same answers.
#
#   RA::Scenario::Enforce->run($server);

use strict;
use warnings;

use Test::More;
use RA::Scenario qw($GOOGLEBOT $BROWSER run_variants);

sub run {
    my ($class, $server, %o) = @_;
    run_variants($server, sub { scenario(@_, %o) });
    done_testing;
}

sub scenario {
    my ($ad, $v, %o) = @_;
    my $h = $ad->harness($v, {
            audit          => 1,
            enforce        => 1,
            error_page_403 => '/403.html',
            locations      => [ [ '/private/open',      enforce => 0 ],
                                [ '/private/unaudited', audit   => 0 ] ],
            vhosts         => [ { name => 'down.test', robots_5xx => 1 } ],
        },
        files => {
            'htdocs/robots.txt'  => "User-agent: *\nDisallow: /private\n",
            'htdocs/403.html'    => "refused by robots-audit\n",
            'htdocs/page.html'   => "page\n",
            'htdocs/private/x'   => "secret\n",
            'htdocs/private/open/x' => "open\n",
            'htdocs/private/unaudited/x' => "unaudited\n",
        },
    );
    $h->start;

    my $get = sub {
        my ($path, %g) = @_;
        return $h->get($path, ua => $GOOGLEBOT, %g);
    };
    is $get->('/robots.txt')->{status}, 200, 'robots.txt is never refused';
    is $get->('/page.html')->{status}, 200, 'compliant request served';
    my $r = $get->('/private/x');
    is $r->{status}, 403, 'violation refused';
    is $r->{content}, "refused by robots-audit\n", 'the local 403 page served';
    is $h->get('/private/x', ua => $BROWSER)->{status}, 200,
        'browsers are not judged';
    is $get->('/private/open/x')->{status}, 200,
        'enforce off in a location: served';
    is $get->('/private/unaudited/x')->{status}, 200,
        'audit off in a location: served';
    is $get->('/nope/x')->{status}, 404, 'allowed and missing: 404';

    my $j = $h->status_json;
    my $g = $h->crawler_stats($j, 'localhost', 'Googlebot');
    is $g->{requests}, 5,
        'each request counted once (403 page included, unaudited one not)';
    is $g->{violation}, 2, 'refused and unrefused violations counted';
    is $g->{compliant}, 2, 'compliant counted';
    is $g->{robots_fetches}, 1, 'robots.txt fetch counted';
    is $h->site_json($j, 'localhost')->{browser_requests}, 1,
        'browser counted once';
    my @ra100 = $h->wait_for(sub {
        my @l = $h->error_log =~ /\[RA100\]/g; @l >= 1 ? @l : () });
    is scalar @ra100, 1, 'one alert (rate limit)';
    like $h->access_log, qr/ 403 "GET \/private\/x /, '403 in the access log';

    # robots.txt answered 5xx: crawling is refused as unreachable
    is $get->('/robots.txt', host => 'down.test')->{status},
        $ad->robots_5xx_status, 'robots.txt 5xx';
    is $get->('/page.html', host => 'down.test')->{status}, 403,
        'crawling after a 5xx robots.txt refused';
    $g = $h->crawler_stats($h->status_json, 'down.test', 'Googlebot');
    is $g->{unreachable}, 1, 'counted as unreachable';
    is $g->{requests}, 2, 'each counted once';
    my $log = $h->wait_for(sub {
        my $l = $h->error_log; $l =~ /RA101/ ? $l : '' });
    like $log, qr/\[RA100\].*uri="\/private\/x"/, 'alert for the refused one';
    like $log, qr/\[RA101\]/, 'alert for unreachable';

    unlike $h->error_log, $ad->crash_re, 'no crash or emergency';
    $h->stop;
}

1;
