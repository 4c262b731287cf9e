# Apache: verdicts end to end, aggregation across children, graceful keeps
# the counters, alerts, the status page's three formats and mod_status.
use strict;
use warnings;
use Test::More;
use JSON::PP;
use IO::Socket::INET;
use RA::Harness;

my $why = RA::Harness->skip_reason('apache');
plan skip_all => $why if $why;

my $GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; '
              . '+http://www.google.com/bot.html)';
my $GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; '
           . 'GPTBot/1.2; +https://openai.com/gptbot)';
my $CHATGPT_USER = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); '
                 . 'compatible; ChatGPT-User/1.0; +https://openai.com/bot';
my $BROWSER = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 '
            . 'Firefox/128.0';

my $SURVEY = 'ExampleSurveyBot/1.0 (+https://example.com/bot)';

my $ROBOTS = <<'EOF';
User-agent: *
Disallow: /private

User-agent: GPTBot
Disallow: /
EOF

for my $mpm (qw(event prefork)) {
    subtest "mpm $mpm" => sub { scenario($mpm) };
}
done_testing;

# n requests on n connections opened at once; returns how many answered 200
sub burst {
    my ($h, $n, $path, $ua) = @_;
    my @socks = map {
        IO::Socket::INET->new(PeerAddr => '127.0.0.1', PeerPort => $h->port,
                              Proto => 'tcp', Timeout => 10) or die $!
    } 1 .. $n;
    print {$_} "GET $path HTTP/1.1\r\nHost: localhost\r\nUser-Agent: $ua\r\n"
             . "Connection: close\r\n\r\n" for @socks;
    my $ok = 0;
    for my $s (@socks) {
        local $/;
        my $resp = <$s> // '';
        $ok++ if $resp =~ m{^HTTP/1\.1 200 };
        close $s;
    }
    return $ok;
}

sub scenario {
    my ($mpm) = @_;
    my $h = RA::Harness->new(
        server => 'apache', mpm => $mpm, workers => 2,
        http => <<'EOF',
RobotsAudit On
RobotsAuditIPRanges %%DIR%%/ranges/googlebot.json %%DIR%%/ranges/gptbot.json
<Location /server-status>
    SetHandler server-status
</Location>
EOF
        files => {
            'htdocs/robots.txt'       => $ROBOTS,
            'htdocs/index.html'       => "<p>home</p>\n",
            'htdocs/public.html'      => "public\n",
            'htdocs/private/x.html'   => "secret\n",
            # this machine plays Googlebot; GPTBot's ranges are elsewhere
            'ranges/googlebot.json'   =>
                '{"prefixes":[{"ipv4Prefix":"127.0.0.0/8"}]}',
            'ranges/gptbot.json'      =>
                '{"prefixes":[{"ipv4Prefix":"192.0.2.0/24"}]}',
        },
    );
    $h->start;

    is $h->get('/robots.txt', ua => $GOOGLEBOT)->{status}, 200,
        'robots.txt served';
    is $h->get('/public.html', ua => $GOOGLEBOT)->{status}, 200,
        'allowed page';
    is $h->get('/private/x.html', ua => $GOOGLEBOT)->{status}, 200,
        'disallowed page served (no enforce)';
    $h->get('/index.html', ua => $GPTBOT);
    $h->get('/private/x.html', ua => $CHATGPT_USER);
    $h->get('/index.html', ua => $BROWSER);
    $h->get('/index.html');                     # no User-Agent at all

    my $j = $h->status_json;
    my $site = $h->site_json($j, 'localhost');
    ok $site, 'site named after ServerName';
    is $site->{robots}{status}, 200, 'captured robots.txt status';
    like $site->{robots}{content_type}, qr{^text/plain}, 'captured type';
    is $site->{robots}{bytes}, length $ROBOTS, 'captured size';

    my $g = $h->crawler_stats($j, 'localhost', 'Googlebot');
    ok $g, 'Googlebot counted';
    is $g->{verification}, 'verified', 'Googlebot verified by ranges';
    is $g->{robots_fetches}, 1, 'one robots.txt fetch';
    is $g->{compliant}, 1, 'one compliant';
    is $g->{violation}, 1, 'one violation';
    is $g->{requests}, 3, 'three requests';

    my $gpt = $h->crawler_stats($j, 'localhost', 'GPTBot');
    is $gpt->{verification}, 'impostor', 'GPTBot from elsewhere: impostor';
    is $gpt->{violation}, 1, 'impostor judged under its own record';
    my $cu = $h->crawler_stats($j, 'localhost', 'ChatGPT-User');
    is $cu->{exempt}, 1, 'user-triggered crawler exempt';
    is $site->{browser_requests}, 2, 'browsers in totals only';

    # alerts: Googlebot's violation, not the impostor's
    my $err = $h->wait_for(sub {
        my $l = $h->error_log; $l =~ /\[RA100\]/ ? $l : '' });
    like $err, qr/\[robots_audit:warn\].*robots-audit: \[RA100\] violation site="localhost" crawler="Googlebot" verification=verified client=127\.0\.0\.1 method=GET uri="\/private\/x\.html" rule="disallow: \/private" line=2 suppressed=0/,
        'RA100 line in the error log';
    unlike $err, qr/crawler="GPTBot"/, 'no alert for an impostor';
    my $alerts = $h->wait_for(sub { $h->alert_log });
    my @lines = split /\n/, $alerts;
    is scalar @lines, 1, 'one JSON alert line';
    my $a = eval { decode_json($lines[0] // '') };
    ok $a, 'alert line is JSON' or diag $alerts;
    is $a->{tag}, 'RA100', 'alert tag';
    is $a->{crawler}, 'Googlebot', 'alert crawler';
    is $a->{uri}, '/private/x.html', 'alert uri';
    is $a->{line}, 2, 'alert rule line';

    # rate limit: the second violation within the interval is held back
    $h->get('/private/y', ua => $GOOGLEBOT);
    sleep 1;
    my @ra100 = $h->error_log =~ /\[RA100\]/g;
    is scalar @ra100, 1, 'second alert suppressed by the interval';

    # aggregation: bursts of parallel connections until both children have
    # served some (the MPM decides who accepts), one set of counters
    my $sent = 0;
    my %pids;
    while ($sent < 240) {
        $sent += burst($h, 8, '/public.html', $SURVEY);
        %pids = map { /^(\d+) / ? ($1 => 1) : () }
                grep { /ExampleSurveyBot/ } split /\n/, $h->access_log;
        last if keys %pids >= 2 && $sent >= 30;
    }
    cmp_ok scalar(keys %pids), '>=', 2, 'requests served by both children'
        or diag join ',', keys %pids;
    $j = $h->status_json;
    my $sb = $h->crawler_stats($j, 'localhost', 'ExampleSurveyBot');
    is $sb->{requests}, $sent, 'every child counted into one ledger';
    is $sb->{compliant}, $sent, 'generic bot judged against "*"';

    # graceful keeps the counters
    $h->reload;
    $j = $h->status_json;
    is $h->crawler_stats($j, 'localhost', 'ExampleSurveyBot')->{requests},
        $sent, 'counters kept across graceful';
    is $h->crawler_stats($j, 'localhost', 'Googlebot')->{violation}, 2,
        'violations kept across graceful';
    $h->get('/public.html', ua => $SURVEY);
    $j = $h->status_json;
    is $h->crawler_stats($j, 'localhost', 'ExampleSurveyBot')->{requests},
        $sent + 1,
        'new generation counts into the same ledger';
    unlike $h->error_log, qr/RA304/, 'no new ledger on graceful';

    # formats
    my $r = $h->get('/ra-status');
    is $r->{status}, 200, 'HTML status page';
    like $r->{headers}{'content-type'}, qr{^text/html}, 'HTML type';
    like $r->{content}, qr/Googlebot/, 'HTML names the crawler';
    $r = $h->get('/ra-status?format=json');
    like $r->{headers}{'content-type'}, qr{^application/json}, 'JSON type';
    ok eval { decode_json($r->{content}); 1 }, 'JSON parses';
    $r = $h->get('/ra-status?format=prometheus');
    like $r->{headers}{'content-type'}, qr{^text/plain; version=0\.0\.4},
        'Prometheus type';
    like $r->{content},
        qr/^robots_audit_requests_total\{site="localhost",crawler="Googlebot",verification="verified",verdict="violation"\} 2$/m,
        'Prometheus counter';
    my @bad = grep { !/^(#.*|[a-z_]+(\{[^\n]*\})? -?[0-9.e+-]+|)$/ }
              split /\n/, $r->{content};
    is_deeply \@bad, [], 'every Prometheus line is a comment or a sample';
    is $h->get('/ra-status?format=xml')->{status}, 400, 'unknown format';
    is $h->get('/ra-status', method => 'POST')->{status}, 405, 'POST refused';

    # mod_status
    $r = $h->get('/server-status?auto');
    like $r->{content}, qr/^RobotsAuditRequests: \d+$/m, '?auto section';
    like $r->{content}, qr/^RobotsAuditViolations: 3$/m, '?auto violations';
    $r = $h->get('/server-status');
    like $r->{content}, qr{<h2>robots-audit</h2>}, 'HTML section';
    like $r->{content}, qr{<td>localhost</td>}, 'HTML section site row';

    unlike $h->error_log, qr/\[(emerg|crit|alert)\]|AH00052|segfault/i,
        'no crash or emergency';
    $h->stop;
}
