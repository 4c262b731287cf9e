# nginx: verdicts end to end, verification by ranges, alerts (text and
# JSON), aggregation across two workers, reload keeps the counters, the
# status page's three formats.
use strict;
use warnings;
use Test::More;
use JSON::PP;
use RA::Harness;

my $why = RA::Harness->skip_reason('nginx');
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

my $ROBOTS = <<'EOF2';
User-agent: *
Disallow: /private

User-agent: GPTBot
Disallow: /
EOF2

# twice: a second run in a fresh server exposes state leaking between runs
for my $run (1, 2) {
    subtest "run $run" => \&scenario;
}
done_testing;

sub scenario {
    my $h = RA::Harness->new(
        server => 'nginx', workers => 2,
        http => <<'EOF2',
robots_audit on;
robots_audit_ip_ranges %%DIR%%/ranges/googlebot.json %%DIR%%/ranges/gptbot.json;
EOF2
        server_conf => <<'EOF2',
server_name localhost www.localhost;
EOF2
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
    # a name of the block: its own site; any other Host: the block's first
    $h->get('/index.html', ua => $SURVEY, host => 'www.localhost');
    $h->get('/index.html', ua => $SURVEY, host => 'random-1.example');

    my $j = $h->status_json;
    my $site = $h->site_json($j, 'localhost');
    ok $site, 'site named after server_name';
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
    is $site->{browser_requests}, 2, 'browsers in totals only';

    my $www = $h->site_json($j, 'www.localhost');
    ok $www, 'Host naming one of the block\'s names is its own site';
    is $h->crawler_stats($j, 'www.localhost', 'ExampleSurveyBot')->{requests},
        1, 'counted on www.localhost';
    ok !$h->site_json($j, 'random-1.example'), 'a random Host makes no site';
    is $h->crawler_stats($j, 'localhost', 'ExampleSurveyBot')->{requests}, 1,
        'a random Host counts on the block\'s first name';

    my @rv = @{ $site->{recent_violations} };
    is scalar @rv, 2, 'two recent violations';
    is $rv[-1]{uri}, '/private/x.html', 'oldest: Googlebot\'s URI';
    is $rv[-1]{rule}, '/private', 'deciding rule';
    is $rv[-1]{line}, 2, 'deciding rule\'s line';

    # alerts: Googlebot's violation, not the impostor's
    my $err = $h->wait_for(sub {
        my $l = $h->error_log; $l =~ /\[RA100\]/ ? $l : '' });
    like $err, qr/\[warn\] \d+#\d+: \*\d+ robots-audit: \[RA100\] violation site="localhost" crawler="Googlebot" verification=verified client=127\.0\.0\.1 method=GET uri="\/private\/x\.html" rule="disallow: \/private" line=2 suppressed=0/,
        'RA100 line in the error log at warn';
    unlike $err, qr/crawler="GPTBot"/, 'no alert for an impostor';
    my @lines = split /\n/, $h->wait_for(sub { $h->alert_log });
    is scalar @lines, 1, 'one JSON alert line';
    my $a = eval { decode_json($lines[0] // '') };
    ok $a, 'alert line is JSON' or diag explain \@lines;
    is $a->{tag}, 'RA100', 'alert tag';
    is $a->{site}, 'localhost', 'alert site';
    is $a->{crawler}, 'Googlebot', 'alert crawler';
    is $a->{client}, '127.0.0.1', 'alert client';
    is $a->{uri}, '/private/x.html', 'alert uri';
    is $a->{line}, 2, 'alert rule line';

    # rate limit: the second violation within the interval is held back
    $h->get('/private/y', ua => $GOOGLEBOT);
    select undef, undef, undef, 0.3;
    my @ra100 = $h->error_log =~ /\[RA100\]/g;
    is scalar @ra100, 1, 'second alert suppressed by the interval';

    # aggregation: many connections, both workers, one set of counters
    for (1 .. 40) {
        $h->get('/public.html', ua => $SURVEY);
    }
    my %pids = map { /^(\d+) / ? ($1 => 1) : () }
               grep { /ExampleSurveyBot/ } split /\n/, $h->access_log;
    cmp_ok scalar(keys %pids), '>=', 2, 'requests served by both workers'
        or diag join ',', keys %pids;
    $j = $h->status_json;
    my $sb = $h->crawler_stats($j, 'localhost', 'ExampleSurveyBot');
    is $sb->{requests}, 41, 'every worker counted into one ledger';
    is $sb->{compliant}, 41, 'generic bot judged against "*"';

    # reload keeps the counters
    $h->reload;
    $j = $h->status_json;
    is $h->crawler_stats($j, 'localhost', 'ExampleSurveyBot')->{requests}, 41,
        'counters kept across nginx -s reload';
    is $h->crawler_stats($j, 'localhost', 'Googlebot')->{violation}, 2,
        'violations kept across reload';
    $h->get('/public.html', ua => $SURVEY);
    $j = $h->status_json;
    is $h->crawler_stats($j, 'localhost', 'ExampleSurveyBot')->{requests}, 42,
        'new workers count into the same ledger';
    unlike $h->error_log, qr/cannot be reused|start over/,
        'no new ledger on reload';

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
        qr/^robots_audit_requests_total\{site="localhost",crawler="Googlebot",verification="verified",verdict="violation"\} 2$/m,
        'Prometheus counter';
    my @bad = grep { !/^(#.*|[a-z_]+(\{[^\n]*\})? -?[0-9.e+-]+|)$/ }
              split /\n/, $r->{content};
    is_deeply \@bad, [], 'every Prometheus line is a comment or a sample';
    is $h->get('/ra-status?format=xml')->{status}, 400, 'unknown format';
    is $h->get('/ra-status', method => 'POST')->{status}, 405, 'POST refused';
    $r = $h->get('/ra-status?format=json', method => 'HEAD');
    is $r->{status}, 200, 'HEAD';
    is $r->{content}, '', 'HEAD: no body';

    unlike $h->error_log, qr/\[(emerg|crit|alert)\]|signal 11|exited on/,
        'no crash or emergency';
    $h->stop;
}
