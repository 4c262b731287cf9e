# SPDX-License-Identifier: BSD-2-Clause
package RA::Scenario::RobotsUnchanged;

# On a server whose robots.txt comes from a backend (proxy_pass /
# ProxyPass): a 503 that is the site's (to a verified crawler: one
# unverified bot's is its own) starts the site's run of failures
# (failing_since);
# a 304 to a crawler's conditional GET (never captured: no body) ends it,
# so the 30-day phase cannot stick; a 503 to a browser does not start one
# (anyone can provoke a rate limit's 503).
#
#   RA::Scenario::RobotsUnchanged->run($server);

use strict;
use warnings;

use Test::More;
use RA::Scenario qw($GOOGLEBOT $BROWSER $SURVEY run_variants);
use RA::Upstream;

my $HDR = "Content-Type: text/plain\r\n";
my $RULES = "User-agent: *\nDisallow: /private\n";
my $SITE = 'backend.test';

sub run {
    my ($class, $server, %o) = @_;
    run_variants($server, sub { scenario(@_, %o) });
    done_testing;
}

sub scenario {
    my ($ad, $v, %o) = @_;
    my $up = RA::Upstream->new;
    my ($frag) = $ad->compressed_site(
        name => $SITE, kind => 'proxy', root => '%%DIR%%/backend',
        upstream => 'http://127.0.0.1:' . $up->port . '/site.robots',
        coding => undef);
    my %global = $ad->compressed_global;
    my $h = $ad->harness($v, {
            audit     => 1,
            ip_ranges => [ '%%DIR%%/ranges/googlebot.json' ],
            http      => join('', $global{http} // '', $frag),
        },
        files => { 'htdocs/robots.txt' => "User-agent: *\nDisallow:\n",
                   'backend/.keep' => '',
                   # this machine is Googlebot
                   'ranges/googlebot.json' =>
                       '{"prefixes":[{"ipv4Prefix":"127.0.0.0/8"}]}' },
        ($global{modules} ? (modules => $global{modules}) : ()),
    );
    $h->start;
    my $robots = sub {
        my ($ua, %hd) = @_;
        return $h->get('/robots.txt', ua => $ua, host => $SITE,
                       headers => \%hd)->{status};
    };
    my $state = sub { $h->site_json($h->status_json, $SITE)->{robots} };

    $up->put('site.robots', $RULES, $HDR);
    is $robots->($GOOGLEBOT), 200, 'robots.txt served';
    my $rb = $state->();
    is $rb->{status}, 200, 'captured';
    ok !defined $rb->{failing_since}, '... not failing';

    # a browser meets the backend's 503: not a failure of the site
    $up->put('site.robots', "busy\n", $HDR, '503 Service Unavailable');
    is $robots->($BROWSER), 503, 'a browser gets a 503';
    $rb = $state->();
    ok !defined $rb->{failing_since}, '... which starts no run of failures';
    is $rb->{status}, 200, '... nor is it the last answer';

    is $robots->($SURVEY), 503, 'an unverified bot gets a 503';
    $rb = $state->();
    ok !defined $rb->{failing_since},
        '... its own: no run of failures';
    is $robots->($GOOGLEBOT), 503, 'verified Googlebot gets it too';
    $rb = $state->();
    ok defined $rb->{failing_since}, '... the run of failures starts';
    is $rb->{status}, 503, '... the last answer';

    # the crawler's conditional GET: 304, no body, not captured
    $up->put('site.robots', '', '', '304 Not Modified');
    is $robots->($GOOGLEBOT, 'If-None-Match' => '"x"'), 304,
        'a conditional GET: 304';
    $rb = $state->();
    ok !defined $rb->{failing_since}, '... ends the run of failures';
    is $rb->{status}, 200, '... the version in force is the last answer';

    unlike $h->error_log, $ad->crash_re, 'no crash or emergency';
    $h->stop;
    $up->stop;
}

1;
