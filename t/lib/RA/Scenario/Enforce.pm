# SPDX-License-Identifier: BSD-2-Clause
package RA::Scenario::Enforce;

# Enforce, on nginx and Apache alike: "on" answers violations 403, a local
# 403 page included (an internal redirect, judged and counted once),
# robots.txt is never refused, browsers are not judged, audit and enforce
# follow locations.  The scope's words: "on" is violation only (crawling
# while robots.txt answers 5xx is served), "unreachable" refuses it until
# the crawler's own robots.txt fetch gets a 2xx or 4xx again (a backend
# flipped from 503 to 200 to 503 to 404), "impostor" refuses every request
# of a fake crawler (GPTBot from outside the ranges loaded for it) that "on"
# serves.  A site whose robots.txt is unknown gets verdict unknown, never
# refused.  Every refusal is counted (JSON refused_VERDICT, Prometheus
# robots_audit_refused_total, the status page's column) and its alert says
# "refused": true.  nginx judges in the preaccess phase, Apache in fixups:
# the same answers.
#
#   RA::Scenario::Enforce->run($server);

use strict;
use warnings;

use JSON::PP;
use Test::More;
use RA::Scenario qw($GOOGLEBOT $GPTBOT $BROWSER run_variants);
use RA::Upstream;

my $ROBOTS = "User-agent: *\nDisallow: /private\n";

sub run {
    my ($class, $server, %o) = @_;
    run_variants($server, sub { scenario(@_, %o) });
    done_testing;
}

sub scenario {
    my ($ad, $v, %o) = @_;
    my $up = RA::Upstream->new;
    my $flip = sub {
        my ($status) = @_;
        $up->put('flip.robots', $status =~ /^200/ ? $ROBOTS : "down\n",
                 "Content-Type: text/plain\r\n", $status);
    };
    $flip->('503 Service Unavailable');
    my $h = $ad->harness($v, {
            audit          => 1,
            enforce        => 1,
            error_page_403 => '/403.html',
            # GPTBot's ranges are elsewhere: from here, an impostor
            ip_ranges      => [ '%%DIR%%/ranges/gptbot.json' ],
            locations      => [ [ '/private/open',      enforce => 0 ],
                                [ '/private/unaudited', audit   => 0 ] ],
            vhosts         => [
                { name => 'down.test', robots_5xx => 1,
                  enforce => 'violation unreachable' },
                { name => 'down-on.test', robots_5xx => 1 },
                { name => 'flip.test', enforce => 'unreachable',
                  robots_proxy => 'http://127.0.0.1:' . $up->port
                                  . '/flip.robots' },
                { name => 'imp.test', enforce => 'impostor' },
                { name => 'unknown.test',
                  enforce => 'Violation UNREACHABLE impostor' },
            ],
        },
        files => {
            'htdocs/robots.txt'  => $ROBOTS,
            'ranges/gptbot.json' =>
                '{"prefixes":[{"ipv4Prefix":"192.0.2.0/24"}]}',
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

    # robots.txt answered 5xx: with unreachable in the scope, crawling is
    # refused as unreachable
    is $get->('/robots.txt', host => 'down.test')->{status},
        $ad->robots_5xx_status, 'robots.txt 5xx';
    is $get->('/page.html', host => 'down.test')->{status}, 403,
        'scope "violation unreachable": crawling after a 5xx robots.txt refused';
    $g = $h->crawler_stats($h->status_json, 'down.test', 'Googlebot');
    is $g->{unreachable}, 1, 'counted as unreachable';
    is $g->{refused_unreachable}, 1, '... and as refused for it';
    is $g->{requests}, 2, 'each counted once';
    my $log = $h->wait_for(sub {
        my $l = $h->error_log; $l =~ /RA101/ ? $l : '' });
    like $log, qr/\[RA100\].*uri="\/private\/x"[^\n]* refused=true/,
        'alert for the refused one, which says so';
    like $log, qr/\[RA101\][^\n]* refused=true/, 'alert for unreachable';

    # "on" is violation only: the same 5xx does not refuse
    is $get->('/robots.txt', host => 'down-on.test')->{status},
        $ad->robots_5xx_status, 'robots.txt 5xx (enforce on)';
    is $get->('/page.html', host => 'down-on.test')->{status}, 200,
        'enforce on: crawling after a 5xx robots.txt is served';
    $g = $h->crawler_stats($h->status_json, 'down-on.test', 'Googlebot');
    is $g->{unreachable}, 1, '... judged unreachable';
    is $g->{refused_unreachable}, 0, '... not refused';

    # the crawler's own later fetch ends its unreachable window: 2xx ...
    my $flip_get = sub { $get->($_[0], host => 'flip.test')->{status} };
    is $flip_get->('/robots.txt'), 503, 'flip: robots.txt 503';
    is $flip_get->('/page.html'), 403, 'scope "unreachable": refused';
    is $flip_get->('/private/x'), 403, '... whatever the rules say';
    $flip->('200 OK');
    is $flip_get->('/robots.txt'), 200, 'flip: robots.txt 200 again';
    is $flip_get->('/page.html'), 200,
        'its own 200 ends the window: an allowed page is served';
    is $flip_get->('/private/x'), 200,
        'a violation is served: violation is not in the scope';
    # ... and 4xx
    $flip->('503 Service Unavailable');
    is $flip_get->('/robots.txt'), 503, 'flip: robots.txt 503 once more';
    is $flip_get->('/page.html'), 403, 'refused again';
    $flip->('404 Not Found');
    is $flip_get->('/robots.txt'), 404, 'flip: robots.txt 404';
    is $flip_get->('/private/x'), 200,
        'its own 404 ends the window (no rules: everything allowed)';
    $g = $h->crawler_stats($h->status_json, 'flip.test', 'Googlebot');
    is $g->{unreachable}, 3, 'flip: three requests judged unreachable';
    is $g->{refused_unreachable}, 3, '... all refused';
    is $g->{violation}, 1, 'flip: one violation, served';
    is $g->{refused_violation}, 0, '... not refused';
    is $g->{compliant}, 1, 'flip: one compliant';
    # the 404 was this crawler's alone (one unverified client): the site's
    # file stays in force, and the crawler's own copy allows all
    is $g->{stale}, 1, 'flip: /private/x after its own 404 is stale';
    is $g->{robots_fetches}, 4, 'flip: four robots.txt fetches';

    # impostors: "impostor" refuses every request of a fake GPTBot but for
    # robots.txt; "on" serves it what robots.txt allows
    is $h->get('/robots.txt', ua => $GPTBOT, host => 'imp.test')->{status},
        200, 'impostor: robots.txt is never refused';
    is $h->get('/page.html', ua => $GPTBOT, host => 'imp.test')->{status},
        403, 'scope "impostor": a fake GPTBot is refused an allowed page';
    is $h->get('/page.html', ua => $GPTBOT)->{status}, 200,
        'enforce on: the fake GPTBot is served an allowed page';
    is $h->get('/private/x', ua => $GPTBOT)->{status}, 403,
        'enforce on: ... and refused a violation';
    is $get->('/page.html', host => 'imp.test')->{status}, 200,
        'scope "impostor": Googlebot (unverifiable) is served';
    is $get->('/private/x', host => 'imp.test')->{status}, 200,
        'scope "impostor": ... even a violation';

    # no robots.txt known: unknown, counted, never compliant, never refused
    is $get->('/private/x', host => 'unknown.test')->{status}, 200,
        'no robots.txt known: served, whatever the scope';

    $j = $h->status_json;
    $g = $h->crawler_stats($j, 'imp.test', 'GPTBot', 'impostor');
    is $g->{refused_impostor}, 1, 'imp: refused as impostor, counted';
    is $g->{compliant}, 1, '... under its verdict too';
    $g = $h->crawler_stats($j, 'localhost', 'GPTBot', 'impostor');
    is $g->{refused_impostor}, 0, 'localhost: no impostor refusal';
    is $g->{refused_violation}, 1, '... its violation refused';
    $g = $h->crawler_stats($j, 'imp.test', 'Googlebot');
    is $g->{refused_violation} + $g->{refused_unreachable}
       + $g->{refused_impostor}, 0, 'imp: Googlebot never refused';
    $g = $h->crawler_stats($j, 'unknown.test', 'Googlebot');
    is $g->{unknown}, 1, 'unknown: counted';
    is $g->{compliant}, 0, 'unknown: not compliant';
    is $g->{refused_violation} + $g->{refused_unreachable}
       + $g->{refused_impostor}, 0, 'unknown: not refused';
    $g = $h->crawler_stats($j, 'localhost', 'Googlebot');
    is $g->{refused_violation}, 1, 'localhost: the refused violation counted';
    is $g->{refused_unreachable}, 0, 'localhost: nothing else';

    # Prometheus and the status page: a crawler that is not verified has
    # no series of its own (anyone can send its name), its refusals are
    # summed as crawler="unverified" (on localhost, Googlebot's refused
    # violation and another crawler's)
    my $prom = $h->get('/ra-status?format=prometheus')->{content};
    like $prom, qr/^robots_audit_refused_total\{site="localhost",crawler="unverified",verdict="violation"\} 2$/m,
        'Prometheus: refused for violation';
    like $prom, qr/^robots_audit_refused_total\{site="flip\.test",crawler="unverified",verdict="unreachable"\} 3$/m,
        'Prometheus: refused for unreachable';
    like $prom, qr/^robots_audit_refused_total\{site="imp\.test",crawler="unverified",verdict="impostor"\} 1$/m,
        'Prometheus: refused as impostor';
    unlike $prom, qr/^robots_audit_refused_total\{[^\n]*verdict="(?!violation"|unreachable"|impostor"|policy")/m,
        'Prometheus: only what can be refused';
    unlike $prom, qr/^robots_audit_refused_total\{[^\n]*verdict="policy"\} [1-9]/m,
        'Prometheus: no policy here, none refused by one';
    like $h->get('/ra-status')->{content}, qr{refused</th>},
        'the status page has a refused column';

    # the alert log marks refusals
    my @alerts = map { decode_json($_) } split /\n/, $h->wait_for(sub {
        my $l = $h->alert_log; $l =~ /"site":"imp\.test"/ ? $l : '' });
    my %seen;
    for my $a (@alerts) {
        $seen{"$a->{tag} $a->{site} " . ($a->{refused} ? 'refused' : 'served')}++;
    }
    ok $seen{'RA100 localhost refused'}, 'alert log: RA100 refused: true';
    ok $seen{'RA101 down.test refused'}, 'alert log: RA101 refused: true';
    ok $seen{'RA101 down-on.test served'}, 'alert log: RA101 refused: false (on)';
    ok $seen{'RA101 flip.test refused'}, 'alert log: flip RA101 refused: true';
    ok $seen{'RA102 imp.test refused'}, 'alert log: RA102 refused: true';
    is scalar(grep { !JSON::PP::is_bool($_->{refused}) } @alerts), 0,
        'alert log: every line says true or false';

    unlike $h->error_log, $ad->crash_re, 'no crash or emergency';
    $h->stop;
    $up->stop;
}

1;
