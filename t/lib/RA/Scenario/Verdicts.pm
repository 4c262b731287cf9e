# SPDX-License-Identifier: BSD-2-Clause
package RA::Scenario::Verdicts;

# Verdicts end to end, on nginx and Apache alike: verification by ranges,
# sites named by Host, alerts (text and JSON; an impostor's is RA102) and
# their rate limit, aggregation across two workers/children, a reload
# (nginx -s reload, graceful) keeps the counters, the status page's three
# formats.
#
#   RA::Scenario::Verdicts->run($server,
#       http  => $raw,                 # more of the server's own configuration
#       server_conf => $raw,           # more of the main server's (nginx)
#       server_pages => [ $path, ...], # the server's own pages (mod_status,
#                                      # stub_status): never counted
#       extra => sub { my ($h) = @_ }, # its own checks, before the last one
#   );

use strict;
use warnings;

use JSON::PP;
use Test::More;
use Time::HiRes qw(sleep);
use RA::Scenario qw($GOOGLEBOT $GPTBOT $CHATGPT_USER $BROWSER $SURVEY
                    run_variants burst);

my $ROBOTS = <<'EOF';
User-agent: *
Disallow: /private

User-agent: GPTBot
Disallow: /
EOF

sub run {
    my ($class, $server, %o) = @_;
    run_variants($server, sub { scenario(@_, %o) });
    done_testing;
}

sub scenario {
    my ($ad, $v, %o) = @_;
    my $h = $ad->harness($v, {
            audit     => 1,
            ip_ranges => [ '%%DIR%%/ranges/googlebot.json',
                           '%%DIR%%/ranges/gptbot.json' ],
            aliases   => [ 'www.localhost' ],
            http      => $o{http},
            server_conf => $o{server_conf},
        },
        files => {
            'htdocs/robots.txt'     => $ROBOTS,
            'htdocs/index.html'     => "<p>home</p>\n",
            'htdocs/public.html'    => "public\n",
            'htdocs/private/x.html' => "secret\n",
            # this machine plays Googlebot; GPTBot's ranges are elsewhere
            'ranges/googlebot.json' =>
                '{"prefixes":[{"ipv4Prefix":"127.0.0.0/8"}]}',
            'ranges/gptbot.json'    =>
                '{"prefixes":[{"ipv4Prefix":"192.0.2.0/24"}]}',
        },
    );
    $h->start;

    is $h->get('/robots.txt', ua => $GOOGLEBOT)->{status}, 200,
        'robots.txt served (static file)';
    is $h->get('/public.html', ua => $GOOGLEBOT)->{status}, 200,
        'allowed page';
    is $h->get('/private/x.html', ua => $GOOGLEBOT)->{status}, 200,
        'disallowed page served (no enforce)';
    $h->get('/index.html', ua => $GPTBOT);
    $h->get('/private/x.html', ua => $CHATGPT_USER);
    $h->get('/index.html', ua => $BROWSER);
    $h->get('/index.html');                     # no User-Agent at all
    # a name of the site: its own site; any other Host: the site's first
    $h->get('/index.html', ua => $SURVEY, host => 'www.localhost');
    $h->get('/index.html', ua => $SURVEY, host => 'random-1.example');

    my $j = $h->status_json;
    my $site = $h->site_json($j, 'localhost');
    ok $site, 'site named after ' . $ad->site_name_directive;
    is $site->{robots}{status}, 200, 'captured robots.txt status';
    like $site->{robots}{content_type}, qr{^text/plain}, 'captured type';
    is $site->{robots}{bytes}, length $ROBOTS, 'captured size';
    is $site->{robots}{rules}, 2, 'captured rules';

    my $g = $h->crawler_stats($j, 'localhost', 'Googlebot');
    ok $g, 'Googlebot counted';
    is $g->{verification}, 'verified', 'Googlebot verified by ranges';
    is $g->{robots_fetches}, 1, 'one robots.txt fetch';
    is $g->{compliant}, 1, 'one compliant';
    is $g->{violation}, 1, 'one violation';
    is $g->{requests}, 3, 'three requests';
    is $g->{no_robots_fetch}, 0, 'it fetched robots.txt';
    is $g->{last_robots_fetch}{status}, 200, 'last fetch status';

    my $gpt = $h->crawler_stats($j, 'localhost', 'GPTBot');
    is $gpt->{verification}, 'impostor', 'GPTBot from elsewhere: impostor';
    is $gpt->{violation}, 1, 'impostor judged under its own record';
    is $gpt->{no_robots_fetch}, 1, 'impostor fetched no robots.txt';
    my $cu = $h->crawler_stats($j, 'localhost', 'ChatGPT-User');
    is $cu->{exempt}, 1, 'user-triggered crawler exempt';
    is $site->{browser_requests}, 1, 'browsers in totals only';
    is $site->{no_user_agent}, 1,
        'a request without User-Agent counted apart, not as a browser';

    my $www = $h->site_json($j, 'www.localhost');
    ok $www, 'Host naming one of the site\'s names is its own site';
    is $h->crawler_stats($j, 'www.localhost', 'ExampleSurveyBot')->{requests},
        1, 'counted on www.localhost';
    ok !$h->site_json($j, 'random-1.example'), 'a random Host makes no site';
    is $h->crawler_stats($j, 'localhost', 'ExampleSurveyBot')->{requests}, 1,
        'a random Host counts on the site\'s first name';

    my @rv = @{ $site->{recent_violations} };
    is scalar @rv, 2, 'two recent violations';
    is $rv[-1]{uri}, '/private/x.html', 'oldest: Googlebot\'s URI';
    is $rv[-1]{rule}, '/private', 'deciding rule';
    is $rv[-1]{line}, 2, 'deciding rule\'s line';

    # alerts: Googlebot's violation (RA100); the impostor's request is an
    # RA102, never an RA100
    my $err = $h->wait_for(sub {
        my $l = $h->error_log;
        $l =~ /\[RA100\]/ && $l =~ /\[RA102\]/ ? $l : '' });
    my $pre = $ad->alert_prefix;
    like $err, qr/${pre}robots-audit: \[RA100\] violation site="localhost" crawler="Googlebot" verification=verified client=127\.0\.0\.1 method=GET uri="\/private\/x\.html" rule="disallow: \/private" line=2 suppressed=0/,
        'RA100 line in the error log at warn';
    unlike $err, qr/\[RA10[01]\][^\n]*crawler="GPTBot"/,
        'no RA100 or RA101 for an impostor';
    like $err, qr/${pre}robots-audit: \[RA102\] violation site="localhost" crawler="GPTBot" verification=impostor client=127\.0\.0\.1 method=GET uri="\/index\.html" rule="disallow: \/" line=5 suppressed=0/,
        'RA102 line for the impostor, with its verdict';
    my $alerts = $h->wait_for(sub {
        my $l = $h->alert_log; ($l =~ tr/\n//) >= 2 ? $l : '' });
    my @lines = grep { !/"tag":"RA102"/ } split /\n/, $alerts;
    my @imp = grep { /"tag":"RA102"/ } split /\n/, $alerts;
    is scalar @lines, 1, 'one JSON alert line for the real crawler';
    is scalar @imp, 1, 'one JSON RA102 line for the impostor';
    my $i = eval { decode_json($imp[0] // '') } // {};
    is "$i->{crawler}/$i->{verification}/$i->{verdict}/$i->{client}",
        'GPTBot/impostor/violation/127.0.0.1', '... naming it, and its client';
    my $a = eval { decode_json($lines[0] // '') };
    ok $a, 'alert line is JSON' or diag $alerts;
    is $a->{tag}, 'RA100', 'alert tag';
    is $a->{site}, 'localhost', 'alert site';
    is $a->{crawler}, 'Googlebot', 'alert crawler';
    is $a->{client}, '127.0.0.1', 'alert client';
    is $a->{uri}, '/private/x.html', 'alert uri';
    is $a->{line}, 2, 'alert rule line';

    # rate limit: the second violation within the interval is held back
    $h->get('/private/y', ua => $GOOGLEBOT);
    sleep 1;
    my @ra100 = $h->error_log =~ /\[RA100\]/g;
    is scalar @ra100, 1, 'second alert suppressed by the interval';

    # aggregation: bursts of parallel connections until both workers or
    # children have served some (the server decides who accepts), one set
    # of counters
    my $sent = 0;
    my %pids;
    while ($sent < 240) {
        $sent += burst($h, 8, '/public.html', $SURVEY);
        %pids = map { /^(\d+) / ? ($1 => 1) : () }
                grep { /ExampleSurveyBot/ } split /\n/, $h->access_log;
        last if keys %pids >= 2 && $sent >= 40;
    }
    cmp_ok scalar(keys %pids), '>=', 2,
        'requests served by both workers/children'
        or diag join ',', keys %pids;
    $j = $h->status_json;
    my $sb = $h->crawler_stats($j, 'localhost', 'ExampleSurveyBot');
    # + the one with a random Host
    is $sb->{requests}, $sent + 1, 'every worker counted into one ledger';
    is $sb->{compliant}, $sent + 1, 'generic bot judged against "*"';

    # a reload keeps the counters
    my $reload = $ad->reload_name;
    $h->reload;
    $j = $h->status_json;
    is $h->crawler_stats($j, 'localhost', 'ExampleSurveyBot')->{requests},
        $sent + 1, "counters kept across $reload";
    is $h->crawler_stats($j, 'localhost', 'Googlebot')->{violation}, 2,
        "violations kept across $reload";
    $h->get('/public.html', ua => $SURVEY);
    $j = $h->status_json;
    is $h->crawler_stats($j, 'localhost', 'ExampleSurveyBot')->{requests},
        $sent + 2, 'the new generation counts into the same ledger';
    unlike $h->error_log, qr/RA304|cannot be reused|start over/,
        "no new ledger on $reload";

    # formats
    my $r = $h->get('/ra-status');
    is $r->{status}, 200, 'HTML status page';
    like $r->{headers}{'content-type'}, qr{^text/html}, 'HTML type';
    like $r->{content}, qr/Googlebot/, 'HTML names the crawler';
    $r = $h->get('/ra-status?format=json');
    like $r->{headers}{'content-type'}, qr{^application/json}, 'JSON type';
    ok eval { JSON::PP->new->utf8->decode($r->{content}); 1 }, 'JSON parses';
    $r = $h->get('/ra-status?format=prometheus');
    like $r->{headers}{'content-type'}, qr{^text/plain; version=0\.0\.4},
        'Prometheus type';
    like $r->{content},
        qr/^robots_audit_requests_total\{site="localhost",crawler="Googlebot",verification="verified",method="ranges",verdict="violation"\} 2$/m,
        'Prometheus counter';
    # Prometheus names: [a-zA-Z_:][a-zA-Z0-9_:]*
    my @bad = grep { !/^(#.*|[a-zA-Z_:][a-zA-Z0-9_:]*(\{[^\n]*\})? -?[0-9.e+-]+|)$/ }
              split /\n/, $r->{content};
    is_deeply \@bad, [], 'every Prometheus line is a comment or a sample';
    is $h->get('/ra-status?format=xml')->{status}, 400, 'unknown format';
    is $h->get('/ra-status', method => 'POST')->{status}, 405, 'POST refused';
    $r = $h->get('/ra-status?format=json', method => 'HEAD');
    is $r->{status}, 200, 'HEAD';
    is $r->{content}, '', 'HEAD: no body';

    # a server's own pages are nobody's traffic: the status
    # page, mod_status's, stub_status's, whoever asks; totals that count
    # only crawlers say so
    $j = $h->status_json;
    my %before = (
        google  => $h->crawler_stats($j, 'localhost', 'Googlebot')->{requests},
        browser => $h->site_json($j, 'localhost')->{browser_requests},
        all     => $j->{ledger}{requests},
        crawler => $j->{ledger}{crawler_requests},
    );
    cmp_ok $before{crawler}, '<', $before{all},
        'ledger: crawler requests apart from all';
    for my $p ('/ra-status', '/ra-status?format=json',
               @{ $o{server_pages} // [] })
    {
        is $h->get($p, ua => $GOOGLEBOT)->{status}, 200, "$p answered";
        $h->get($p, ua => $BROWSER);
    }
    $j = $h->status_json;
    is $h->crawler_stats($j, 'localhost', 'Googlebot')->{requests},
        $before{google}, 'server pages: not a crawler\'s requests';
    is $h->site_json($j, 'localhost')->{browser_requests}, $before{browser},
        'server pages: not a browser\'s either';
    is $j->{ledger}{requests}, $before{all}, 'server pages: not counted';
    is $j->{ledger}{crawler_requests}, $before{crawler},
        'server pages: not crawler requests';
    $r = $h->get('/ra-status');
    like $r->{content}, qr/$before{crawler} crawler requests judged \($before{all} requests in all\)/,
        'HTML: crawler requests judged, and all';
    # politeness beside the Crawl-delay (none here), the JSON's names
    my $gj = $h->crawler_stats($j, 'localhost', 'Googlebot');
    cmp_ok $gj->{peak_per_minute}, '>=', 1, 'peak_per_minute';
    ok exists $gj->{median_gap_ms}, 'median_gap_ms';
    is $gj->{crawl_delay_ms}, undef, 'no Crawl-delay';
    like $r->{content}, qr/median gap<\/th>/, 'HTML: politeness columns';

    $o{extra}->($h) if $o{extra};

    unlike $h->error_log, $ad->crash_re, 'no crash or emergency';
    $h->stop;
}

1;
