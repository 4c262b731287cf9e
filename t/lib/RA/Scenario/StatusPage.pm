# SPDX-License-Identifier: BSD-2-Clause
package RA::Scenario::StatusPage;

# The status page's answers to an operator, on nginx and Apache
# alike, from known traffic on a site whose robots.txt comes from a backend
# (so that it can answer 503): per robots.txt line how often it decided
# (rule_hits), per crawler first_seen and the counters of the last hour and
# the last 24 hours, "counting since", a 5xx/429 episode with the crawlers
# that crawled during it, the violations' evidence in JSON and as CSV
# (?format=csv, ?site=), ?sort= (most violations first by default), the
# badge of the crawlers that ignore robots.txt, what to do about them, and
# 404 for a ?site= or ?crawler= that names nothing known.
#
#   RA::Scenario::StatusPage->run($server);

use strict;
use warnings;

use Digest::SHA qw(sha256_hex);
use JSON::PP;
use Test::More;
use RA::Scenario qw($GOOGLEBOT $BROWSER $SURVEY run_variants);
use RA::Upstream;

my $HDR = "Content-Type: text/plain\r\n";
my $RULES = "User-agent: *\nDisallow: /private\nAllow: /private/ok\n\n"
          . "User-agent: GPTBot\nDisallow: /\n";
my $SITE = 'status.test';
my $BINGBOT = 'Mozilla/5.0 (compatible; bingbot/2.0; '
            . '+http://www.bing.com/bingbot.htm)';
my @COUNTERS = qw(requests robots_fetches compliant violation stale
                  unreachable exempt crawl_delay no_robots_fetch unknown
                  refused_violation refused_unreachable refused_impostor
                  refused_policy
                  unreachable_30d llms_fetches);
my $ISO = qr/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

sub run {
    my ($class, $server, %o) = @_;
    run_variants($server, sub { scenario(@_, %o) });
    done_testing;
}

sub iso_ms {
    my ($s) = @_;
    my ($y, $mo, $d, $h, $mi, $se) =
        $s =~ /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)Z$/ or return;
    require Time::Local;
    return Time::Local::timegm($se, $mi, $h, $d, $mo - 1, $y) * 1000;
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
        files => {
            'htdocs/robots.txt' => "User-agent: *\nDisallow:\n",
            'backend/index.html' => "home\n",
            'backend/private/a' => "a\n",
            'backend/private/b' => "b\n",
            'backend/private/ok' => "ok\n",
            # this machine plays Googlebot
            'ranges/googlebot.json' =>
                '{"prefixes":[{"ipv4Prefix":"127.0.0.0/8"}]}',
        },
        ($global{modules} ? (modules => $global{modules}) : ()),
    );
    $h->start;
    my $get = sub {
        my ($path, $ua) = @_;
        return $h->get($path, ua => $ua, host => $SITE)->{status};
    };
    my $t0 = time;

    # known traffic
    $up->put('site.robots', $RULES, $HDR);
    is $get->('/robots.txt', $GOOGLEBOT), 200, 'Googlebot fetches robots.txt';
    $get->('/', $GOOGLEBOT) for 1 .. 3;             # no line decides
    $get->('/private/a', $GOOGLEBOT) for 1 .. 2;    # line 2: violations
    $get->('/private/ok', $GOOGLEBOT);              # line 3: allowed
    $get->('/private/b', $BINGBOT);                 # line 2: violation
    $get->('/private/b', $SURVEY);                  # a generic bot's too
    $get->('/', $BROWSER);

    # an episode: robots.txt answers 503 to Googlebot, who crawls on, and
    # bingbot crawls too; then 200 again (the same file)
    $up->put('site.robots', "busy\n", $HDR, '503 Service Unavailable');
    is $get->('/robots.txt', $GOOGLEBOT), 503, 'robots.txt answers 503';
    $get->('/', $GOOGLEBOT) for 1 .. 2;
    $get->('/', $BINGBOT);
    $up->put('site.robots', $RULES, $HDR);
    is $get->('/robots.txt', $GOOGLEBOT), 200, 'robots.txt answers 200 again';

    my $j = $h->status_json;
    my $s = $h->site_json($j, $SITE);
    ok $s, 'the site on the page' or return;

    # 1. rule hits of the version in force
    my $rb = $s->{robots};
    is_deeply $rb->{rule_hits}, [
        { line => 2, type => 'disallow', pattern => '/private',
          matched => 4, violations => 4 },
        { line => 3, type => 'allow', pattern => '/private/ok',
          matched => 1, violations => 0 },
    ], 'rule_hits: per line, how often it decided, and the violations';
    is $rb->{rule_hits_lines_kept}, 32, 'rule_hits_lines_kept';
    is_deeply $rb->{rule_hits_other}, { matched => 0, violations => 0 },
        'rule_hits_other: none';
    is $rb->{in_force}{sha256}, sha256_hex($RULES), 'sha256 of the file';

    # ... per crawler on demand: ?crawler=NAME
    my $r = $h->get("$h->{status_path}?format=json&crawler=Googlebot");
    is $r->{status}, 200, '?crawler=Googlebot';
    my $cj = JSON::PP->new->utf8->decode($r->{content});
    my @cc = @{ ($h->site_json($cj, $SITE) // {})->{crawlers} // [] };
    is_deeply [ map { "$_->{crawler}/$_->{verification}" } @cc ],
        [ 'Googlebot/verified' ], '... its record only';
    is_deeply $cc[0]{rule_hits}, [
        { line => 2, type => 'disallow', pattern => '/private',
          matched => 2, violations => 2 },
        { line => 3, type => 'allow', pattern => '/private/ok',
          matched => 1, violations => 0 },
    ], '... the lines that decided its requests';
    ok !grep({ $_->{crawler} ne 'Googlebot' }
             @{ $h->site_json($cj, $SITE)->{recent_violations} }),
        '... its violations only';
    ok !exists $h->crawler_stats($j, $SITE, 'Googlebot')->{rule_hits},
        'without ?crawler= no rule_hits per crawler';

    # 2. time
    like $s->{counting_since}, $ISO, 'counting_since';
    my $since = iso_ms($s->{counting_since});
    ok $since <= time * 1000 && $since >= ($t0 - 1) * 1000,
        '... when the traffic began';
    my $g = $h->crawler_stats($j, $SITE, 'Googlebot', 'verified');
    my $b = $h->crawler_stats($j, $SITE, 'bingbot');
    ok $g && $b, 'Googlebot (verified) and bingbot counted' or return;
    is $g->{requests}, 11, 'Googlebot: 11 requests';
    is $g->{violation}, 2, '... 2 violations';
    is $g->{unreachable}, 2, '... 2 while its robots.txt answered 503';
    like $g->{first_seen}, $ISO, 'first_seen';
    ok iso_ms($g->{first_seen}) >= ($t0 - 1) * 1000, '... this run\'s';
    for my $c ($g, $b) {
        is_deeply [ sort keys %{ $c->{last_24h} } ], [ sort @COUNTERS ],
            "$c->{crawler}: last_24h has the counters' names";
        is_deeply [ sort keys %{ $c->{last_hour} } ], [ sort @COUNTERS ],
            "$c->{crawler}: last_hour has the counters' names";
        is_deeply $c->{last_24h}, { map { $_ => $c->{$_} } @COUNTERS },
            "$c->{crawler}: last_24h holds everything counted";
    }
    # the current clock hour: all of it unless the run crossed an hour
    if (int($t0 / 3600) == int(time / 3600)) {
        is_deeply $g->{last_hour}, { map { $_ => $g->{$_} } @COUNTERS },
            'last_hour holds everything counted this hour';
    } else {
        ok $g->{last_hour}{requests} <= $g->{requests},
            'last_hour: the run crossed an hour, part of it';
    }

    # 3. the episode
    my @ep = @{ $s->{episodes} // [] };
    is scalar @ep, 1, 'one 5xx/429 episode';
    my $e = $ep[0] // {};
    like $e->{start}, $ISO, 'episode start';
    like $e->{end} // '', $ISO, 'episode end';
    is $e->{duration_ms} >= 0
       && $e->{duration_ms} <= 1000 * (time - $t0 + 1) ? 1 : 0, 1,
        'duration_ms within the run';
    is $e->{answers}, 1, 'one 503 answer';
    is $e->{status}, 503, 'its status';
    my %during = map { $_->{crawler} => $_->{requests} }
                 @{ $e->{crawlers} // [] };
    is $during{bingbot}, 1, 'bingbot crawled once during it';
    # the 503 fetch itself and two pages
    is $during{Googlebot}, 3, 'Googlebot three times (its fetch, 2 pages)';
    is $e->{other_requests}, 0, 'nobody else';

    # 5. evidence: JSON
    my @rv = @{ $s->{recent_violations} };
    my @gv = grep { $_->{crawler} eq 'Googlebot' && $_->{verdict} eq 'violation' } @rv;
    my @bv = grep { $_->{crawler} eq 'bingbot' } @rv;
    is scalar @gv, 2, 'Googlebot\'s two violations';
    is $gv[0]{verified_by}, 'ranges', '... verified_by ranges';
    is $gv[0]{robots_sha256}, sha256_hex($RULES), '... robots_sha256';
    like $gv[0]{last_robots_fetch}, $ISO, '... last_robots_fetch';
    is $bv[0]{verified_by}, undef, 'bingbot: no verified_by';
    is $bv[0]{last_robots_fetch}, undef, '... never fetched robots.txt';
    is $bv[0]{robots_sha256}, sha256_hex($RULES), '... robots_sha256';

    # 5. evidence: CSV
    for my $q ('format=csv', "format=csv&site=$SITE") {
        my $r = $h->get("$h->{status_path}?$q");
        is $r->{status}, 200, "?$q";
        like $r->{headers}{'content-type'}, qr{^text/csv}, '... text/csv';
        my @rows = split /\r\n/, $r->{content};
        is shift(@rows), 'time,site,crawler,verification,verified_by,'
            . 'client,method,uri,rule,line,robots_sha256,last_robots_fetch,'
            . 'purpose', '... the header';
        my @mine = grep { (split /,/)[1] eq $SITE } @rows;
        is scalar @mine, 4, '... four violations of the site (no '
            . 'unreachable verdict)';
        my %n;
        for (@mine) {
            my @f = split /,/, $_, -1;
            is scalar @f, 13, '... 13 cells';
            like $f[0], $ISO, '... time';
            is "@f[5,6,8,9,10]", join(' ', '127.0.0.1', 'GET', '/private',
                                      2, sha256_hex($RULES)),
                '... client, method, rule, line, robots_sha256';
            $n{"$f[2] $f[3] $f[4] $f[7]" . ($f[11] =~ $ISO ? ' fetched'
                                            : $f[11] eq '' ? '' : ' ?')
               . " purpose=$f[12]"}++;
        }
        # the purpose: the table crawler's category, a generic bot's empty
        is_deeply \%n, {
            'Googlebot verified ranges /private/a fetched purpose=search' => 2,
            'bingbot unverifiable  /private/b purpose=search' => 1,
            'ExampleSurveyBot unverifiable  /private/b purpose=' => 1,
        }, '... crawler, verification, verified_by, uri, last fetch, '
            . 'purpose';
        if ($q !~ /site=/) {
            is scalar @rows, scalar @mine, 'only this site has violations';
        }
    }
    # a name that matches nothing is a wrong address: 404, every format
    for my $q ('format=csv&site=nowhere.test', 'site=nowhere.test',
               'format=json&site=nowhere.test', 'crawler=NoSuchBot',
               'format=json&crawler=NoSuchBot') {
        my $r = $h->get("$h->{status_path}?$q");
        is $r->{status}, 404, "?$q: 404";
        like $r->{content}, qr/^robots-audit: no (site|crawler) of that name/,
            '... saying which';
    }
    is $h->get("$h->{status_path}?crawler=ExampleSurveyBot")->{status}, 200,
        '?crawler= a generic bot the ledger counted: 200';
    is $h->get("$h->{status_path}?crawler=YandexBot")->{status}, 200,
        '?crawler= a crawler of the table not seen yet: 200';

    # 4. order and navigation: most violations first (ties by name), or
    # by name
    my %order = (
        ''                  => [ 'Googlebot', 'ExampleSurveyBot', 'bingbot' ],
        '&sort=violations'  => [ 'Googlebot', 'ExampleSurveyBot', 'bingbot' ],
        '&sort=name'        => [ 'ExampleSurveyBot', 'Googlebot', 'bingbot' ],
    );
    for my $q (sort keys %order) {
        my $r = $h->get("$h->{status_path}?format=json&site=$SITE$q");
        is $r->{status}, 200, "?format=json$q";
        my $oj = JSON::PP->new->utf8->decode($r->{content});
        my @names = map { $_->{crawler} }
                    @{ ($h->site_json($oj, $SITE) // {})->{crawlers} // [] };
        my %seen;
        is_deeply [ grep { !$seen{$_}++ } @names ], $order{$q},
            "... crawlers in order: @{ $order{$q} }";
    }
    is $h->get("$h->{status_path}?sort=size")->{status}, 400,
        '?sort= anything else: 400';
    my $html = $h->get($h->{status_path})->{content};
    like $html, qr{status\.test<span class="health h-bad">3 crawlers ignore robots\.txt</span>},
        'the badge: the crawlers that ignore robots.txt';
    like $html, qr{<h4>what you can do</h4><ul class="todo"><li><strong>Googlebot</strong> <span class="muted">\(verified\)</span>: refuse it: nginx <code>robots_audit_enforce violation;</code>, Apache <code>RobotsAuditEnforce violation</code> &middot; tell it in robots\.txt: <code>User-agent: Googlebot<br>Disallow: /</code> &middot; its operator: <a href="https://[^"]+" rel="noreferrer">Google</a></li>},
        'what you can do about the first offender';
    like $html, qr{bingbot</a></td><td class="n bad">1</td>.*?<td class="x warn">not verified here <span class="muted">\(configure <code>bingbot\.json</code> or a resolver\)</span>},
        'bingbot: not verified here';
    like $html, qr{<a href="#site-status\.test">status\.test</a>},
        'summary: the site links to its section';
    like $html, qr{<section id="site-status\.test">}, '... its anchor';
    like $html, qr{<span class="ln">2</span>Disallow: /private<span class="hit bad">4 disallowed, 4 violations</span>},
        'robots.txt in force, line 2 with its counts';
    like $html, qr{<span class="ln">3</span>Allow: /private/ok<span class="hit">1 allowed</span>},
        '... line 3';
    like $html, qr{<svg class="spark"}, 'sparkline';
    like $html, qr{robots\.txt 5xx/429 episodes}, 'episodes';
    like $html, qr{id="legend"}, 'legend';
    (my $shown = $html) =~ s/ style="[^"]*"//g;     # bars' widths
    unlike $shown, qr/\d\.\d%/, 'percentages rounded';
    like $shown, qr{<td>45%</td>}, '... 5 of 11 judged compliant: 45%';

    unlike $h->error_log, $ad->crash_re, 'no crash or emergency';
    $h->stop;
    $up->stop;
}

1;
