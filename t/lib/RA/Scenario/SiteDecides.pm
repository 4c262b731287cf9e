# SPDX-License-Identifier: BSD-2-Clause
package RA::Scenario::SiteDecides;

# Nobody but the site decides its robots.txt in force, on a site whose
# robots.txt comes from a backend (proxy_pass / ProxyPass), with enforce
# on (docs/design.md, "Whose answer binds whom"):
#
#   - a 403 that one client provokes (a User-Agent blocklist, a WAF) binds
#     that client alone: it may crawl all (stale, and enforce serves it),
#     while the site's file, a verified crawler's violations and those of
#     a bot that never fetched stay, also when a second blocked bot gets
#     it; the same 403 to verified Googlebot is the site's;
#   - the blocked client's next request, sent the moment its answer came,
#     already reads that answer (bound before the log phase);
#   - /robots.txt?query never changes the site's file; HEAD is no fetch;
#   - a file that differs on every answer cannot push out the version a
#     verified crawler read;
#   - a 503 to one client (a rate limit) opens no site-wide episode, only
#     that crawler's own window;
#   - enforce never refuses a person on a text browser;
#   - a redirect of robots.txt within the site is followed: its target's
#     answer is the file in force, and the status page says so.
#
#   RA::Scenario::SiteDecides->run($server);

use strict;
use warnings;

use Test::More;
use RA::Scenario qw($GOOGLEBOT $SURVEY run_variants);
use RA::Upstream;

my $HDR = "Content-Type: text/plain\r\n";
my $RULES = "User-agent: *\nDisallow: /private\n";
my $SITE = 'backend.test';
my $NIKTO = 'Mozilla/5.0 (compatible; Nikto/2.5.0)';
my $OTHER = 'OtherScan/3.1 (+https://scan.example/)';
my $W3M = 'w3m/0.5.3+git20230121';

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
            enforce   => 1,
            ip_ranges => [ '%%DIR%%/ranges/googlebot.json' ],
            http      => join('', $global{http} // '', $frag),
        },
        files => { 'htdocs/robots.txt' => "User-agent: *\nDisallow:\n",
                   'backend/static/robots.txt' =>
                       "User-agent: *\nDisallow: /moved\n",
                   'backend/private/x' => "secret\n",
                   'backend/page'      => "page\n",
                   # this machine is Googlebot
                   'ranges/googlebot.json' =>
                       '{"prefixes":[{"ipv4Prefix":"127.0.0.0/8"}]}' },
        ($global{modules} ? (modules => $global{modules}) : ()),
    );
    $h->start;
    my $get = sub {
        my ($path, $ua, %a) = @_;
        return $h->get($path, ua => $ua, host => $SITE, %a)->{status};
    };
    my $robots = sub { $h->site_json($h->status_json, $SITE)->{robots} };
    my $stats = sub {
        my ($name, $verification) = @_;
        return $h->crawler_stats($h->status_json, $SITE, $name,
                                 $verification) // {};
    };

    $up->put('site.robots', $RULES, $HDR);
    is $get->('/robots.txt', $GOOGLEBOT), 200, 'Googlebot fetches robots.txt';
    my $sha = $robots->()->{in_force}{sha256};
    ok $sha, 'the file is in force';

    # a User-Agent blocklist in front of robots.txt answers one client 403
    $up->put('site.robots', "forbidden\n", $HDR, '403 Forbidden');
    is $get->('/robots.txt', $NIKTO), 403, 'the blocked client gets a 403';
    # its next request, at once, on another connection
    isnt $get->('/private/x', $NIKTO), 403,
        '... and is served /private/x the moment after (its copy allows all)';
    $up->put('site.robots', $RULES, $HDR);
    my $rb = $robots->();
    is $rb->{status}, 200, "the site's last answer is still its file";
    is $rb->{in_force}{sha256}, $sha, '... the same version in force';
    my $n = $stats->('Nikto');
    is $n->{stale}, 1, "the blocked client's request is stale";
    is $n->{violation} // 0, 0, '... not a violation';

    is $get->('/private/x', $GOOGLEBOT), 403,
        'verified Googlebot is still refused /private/x';
    is $stats->('Googlebot', 'verified')->{violation}, 1,
        '... a violation';
    is $get->('/private/x', $SURVEY), 403,
        'a bot that never fetched robots.txt is refused too';
    my $s = $stats->('ExampleSurveyBot');
    is $s->{violation}, 1, '... a violation, not stale';

    # the same 403 to a second blocked bot, with another address and
    # User-Agent, while the file is served to others: still theirs
    $up->put('site.robots', "forbidden\n", $HDR, '403 Forbidden');
    is $h->get('/robots.txt', ua => $OTHER, host => $SITE,
               from => '127.1.0.2')->{status}, 403,
        'a second blocked bot gets the 403';
    is $robots->()->{status}, 200,
        '... which is not the site\'s answer (it serves the file to others)';
    # verified Googlebot gets it: the site's
    is $get->('/robots.txt', $GOOGLEBOT), 403, 'Googlebot gets the 403';
    is $robots->()->{status}, 403, '... which is now the site\'s answer';
    $up->put('site.robots', $RULES, $HDR);
    is $get->('/robots.txt', $GOOGLEBOT), 200, 'the file is back';
    is $robots->()->{in_force}{sha256}, $sha, '... in force again';

    # a query is not the file; HEAD is no fetch
    $up->put('site.robots', "User-agent: *\nDisallow:\n", $HDR);
    is $get->('/robots.txt?lang=de', $GOOGLEBOT), 200,
        'robots.txt?lang=de answers another body';
    $up->put('site.robots', $RULES, $HDR);
    is $robots->()->{in_force}{sha256}, $sha,
        '... which is not the site\'s file';
    my $before = $stats->('Googlebot', 'verified')->{robots_fetches};
    is $h->get('/robots.txt', ua => $GOOGLEBOT, host => $SITE,
               method => 'HEAD')->{status}, 200, 'HEAD /robots.txt';
    is $stats->('Googlebot', 'verified')->{robots_fetches}, $before,
        '... is no robots.txt fetch';

    # a rate limit's 503 to one bot is that bot's
    $up->put('site.robots', "busy\n", $HDR, '503 Service Unavailable');
    is $get->('/robots.txt', $SURVEY), 503, 'one bot gets a 503';
    $up->put('site.robots', $RULES, $HDR);
    $rb = $robots->();
    ok !defined $rb->{failing_since}, '... which starts no run of failures';
    is scalar @{ $rb->{episodes} // [] }, 0, '... and no episode';
    is $rb->{status}, 200, '... nor is it the site\'s last answer';
    is $get->('/page', $SURVEY), 200,
        'the bot crawls within 12 hours (enforce refuses violations only)';
    is $stats->('ExampleSurveyBot')->{unreachable}, 1,
        '... its request is unreachable';
    is $get->('/page', $GOOGLEBOT), 200, 'Googlebot crawls';
    is $stats->('Googlebot', 'verified')->{unreachable} // 0, 0,
        '... judged by the file, not the other bot\'s 503';

    # people on text browsers are never refused
    is $get->('/private/x', $W3M), 200, 'w3m is served /private/x';

    # a robots.txt that differs on every answer (a time stamp) cannot push
    # out the version verified Googlebot was served: what it read allows
    # /private/x, and enforce serves it
    $up->put('site.robots', "# 0\nUser-agent: *\nDisallow:\n", $HDR);
    is $get->('/robots.txt', $GOOGLEBOT), 200,
        'Googlebot reads a file that allows all';
    for my $i (1 .. 9) {
        $up->put('site.robots', "# $i\n$RULES", $HDR);
        $get->('/robots.txt', $OTHER);
    }
    is $robots->()->{versions_24h} >= 8 ? 1 : 0, 1,
        'nine more versions come into force';
    isnt $get->('/private/x', $GOOGLEBOT), 403,
        'Googlebot is served /private/x: its copy is still known';
    is $stats->('Googlebot', 'verified')->{stale}, 1, '... stale';
    $up->put('site.robots', $RULES, $HDR);
    is $get->('/robots.txt', $GOOGLEBOT), 200, 'Googlebot reads the file';

    # a redirect within the site is followed, as crawlers follow it
    $up->put('site.robots', "moved\n", "Location: /static/robots.txt\r\n",
             '301 Moved Permanently');
    $before = $stats->('Googlebot', 'verified')->{robots_fetches};
    is $get->('/robots.txt', $GOOGLEBOT), 301, 'robots.txt redirects';
    is_deeply $robots->()->{redirected_to}, [ '/static/robots.txt' ],
        '... the site says where';
    is $robots->()->{in_force}{sha256}, $sha, '... the file stays in force';
    is $get->('/static/robots.txt', $GOOGLEBOT), 200,
        'Googlebot follows the redirect';
    $rb = $robots->();
    isnt $rb->{in_force}{sha256}, $sha, '... whose answer is the file now';
    is $stats->('Googlebot', 'verified')->{robots_fetches}, $before + 2,
        '... both counted as robots.txt fetches'
        or diag explain $stats->('Googlebot', 'verified');
    is $get->('/moved/x', $GOOGLEBOT), 403,
        'its rules are enforced (Disallow: /moved)';
    isnt $get->('/private/x', $SURVEY), 403,
        '... and the old ones no longer';
    like $h->get($h->{status_path}, host => 'localhost')->{content},
        qr{redirected to}, 'the status page says "redirected to"';

    unlike $h->error_log, $ad->crash_re, 'no crash or emergency';
    $h->stop;
    $up->stop;
}

1;
