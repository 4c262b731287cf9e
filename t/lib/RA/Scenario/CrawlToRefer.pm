# SPDX-License-Identifier: BSD-2-Clause
package RA::Scenario::CrawlToRefer;

# Crawl-to-refer end to end, on nginx and Apache alike: browser visits whose
# Referer is an operator's search engine or assistant counted beside that
# operator's crawlers' requests (JSON sites[].referrals[], the status
# page's ratio column, robots_audit_referrals_total); each crawler's
# purpose (JSON, HTML, robots_audit_purpose_requests_total, ?purpose=);
# llms.txt fetches in Prometheus and HTML; the robots.txt's AI-preference
# lines and policy tokens in the JSON of one site.
#
#   RA::Scenario::CrawlToRefer->run($server);

use strict;
use warnings;

use JSON::PP;
use Test::More;
use RA::Scenario qw($GOOGLEBOT $GPTBOT $BROWSER run_variants);

my $ROBOTS = <<'EOF2';
User-agent: *
Content-Signal: search=yes, ai-train=no
Disallow: /private

User-agent: Google-Extended
Disallow: /
EOF2

sub run {
    my ($class, $server, %o) = @_;
    run_variants($server, sub { scenario(@_, %o) });
    done_testing;
}

sub scenario {
    my ($ad, $v, %o) = @_;
    my $h = $ad->harness($v, {
            audit     => 1,
            ip_ranges => [ '%%DIR%%/ranges/googlebot.json' ],
        },
        files => {
            'htdocs/robots.txt'  => $ROBOTS,
            'htdocs/index.html'  => "<p>home</p>\n",
            'htdocs/llms.txt'    => "# site\n",
            # this machine plays Googlebot
            'ranges/googlebot.json' =>
                '{"prefixes":[{"ipv4Prefix":"127.0.0.0/8"}]}',
        },
    );
    $h->start;

    my $ref = sub {
        my ($url) = @_;
        return $h->get('/index.html', ua => $BROWSER,
                       headers => { Referer => $url })->{status};
    };
    is $h->get('/robots.txt', ua => $GOOGLEBOT)->{status}, 200,
        'robots.txt served';
    $h->get('/index.html', ua => $GOOGLEBOT);
    $h->get('/llms.txt', ua => $GPTBOT);
    # every spelling the server maps to the same file counts, as for
    # robots.txt; another file does not
    for my $p ('//llms.txt', '/llms.txt?x=1', '/%6Clms.txt', '/./llms.txt',
               '/a/../llms.txt') {
        is $h->get($p, ua => $GPTBOT)->{status}, 200, "$p: the file";
    }
    $h->get('/docs/llms.txt', ua => $GPTBOT);
    $h->get('/LLMS.TXT', ua => $GPTBOT);
    is $ref->('https://www.google.de/search?q=x'), 200, 'referred visit';
    $ref->('https://www.google.com/');
    $ref->('https://gemini.google.com/app');
    $ref->('https://chatgpt.com/');
    $ref->('https://google.evil.example/');         # a look-alike
    # Referers that name another host (or none) count for no one
    $ref->('https://google.com@evil.example/');
    $ref->('https://evil.example/?q=google.com');
    $ref->('https://google.foo.com/');
    $ref->('https://evil.example\\@google.com/');
    $ref->('https://www.%67oogle.com/');
    $ref->('https://' . ('a' x 4000) . '.google.com/');
    # ChatGPT's links carry utm_source=chatgpt.com and often no Referer;
    # a longer value is not it
    is $h->get('/index.html?utm_source=chatgpt.com', ua => $BROWSER)->{status},
        200, 'a visit from a ChatGPT link';
    $h->get('/index.html?utm_source=chatgpt.com.evil.example', ua => $BROWSER);
    # nor a navigation from the site's own page that keeps the parameter
    $h->get('/index.html?utm_source=chatgpt.com', ua => $BROWSER,
            headers => { Referer => 'http://localhost/?utm_source=chatgpt.com' });
    # a crawler's own Referer is no referral
    $h->get('/index.html', ua => $GOOGLEBOT,
            headers => { Referer => 'https://www.google.com/' });

    my $site = $h->site_json($h->status_json, 'localhost');
    my %refs = map { $_->{operator} => $_ } @{ $site->{referrals} // [] };
    is $refs{Google}{referrals}, 3, 'Google: 3 referrals';
    is $refs{Google}{crawler_requests}, 3,
        'Google: 3 crawler requests beside them (robots.txt, 2 pages)';
    is $refs{OpenAI}{referrals}, 2,
        'OpenAI: 2 referrals (a Referer, a utm_source)';
    is $refs{OpenAI}{crawler_requests}, 8, 'OpenAI: GPTBot\'s requests';
    is scalar(keys %refs), 2, 'no other operator';
    my %purpose = map { $_->{crawler} => $_->{purpose} }
                  @{ $site->{crawlers} };
    is $purpose{Googlebot}, 'search', 'Googlebot: search';
    is $purpose{GPTBot}, 'ai-training', 'GPTBot: ai-training';
    my ($gpt) = grep { $_->{crawler} eq 'GPTBot' } @{ $site->{crawlers} };
    is $gpt->{llms_fetches}, 6, 'llms.txt fetches counted, every spelling';

    # ?purpose= keeps one purpose; a purpose that is none answers 400
    my $r = $h->get('/ra-status?format=json&purpose=ai-training');
    is $r->{status}, 200, '?purpose=ai-training';
    my $j = JSON::PP->new->utf8->decode($r->{content});
    my ($s2) = grep { $_->{site} eq 'localhost' } @{ $j->{sites} };
    is_deeply [ map { $_->{crawler} } @{ $s2->{crawlers} } ], [ 'GPTBot' ],
        '... only GPTBot';
    is $h->get('/ra-status?purpose=scraping')->{status}, 400,
        '?purpose=scraping: 400';

    # the robots.txt's AI-preference lines and policy tokens (one site)
    $r = $h->get('/ra-status?format=json&site=localhost');
    is $r->{status}, 200, '?site=localhost';
    $j = JSON::PP->new->utf8->decode($r->{content});
    my $rb = $j->{sites}[0]{robots};
    is_deeply $rb->{ai_preferences},
        [ { kind => 'content-signal', value => 'search=yes, ai-train=no',
            group => '*', line => 2 } ], 'ai_preferences';
    is $rb->{policy_tokens}[0]{token}, 'Google-Extended', 'policy token';
    like $rb->{policy_tokens}[0]{controls}, qr/Gemini/, '... what it controls';

    my $p = $h->get('/ra-status?format=prometheus')->{content};
    like $p, qr/^robots_audit_referrals_total\{site="localhost",operator="Google"\} 3$/m,
        'robots_audit_referrals_total';
    like $p, qr/^robots_audit_referral_crawler_requests_total\{site="localhost",operator="Google"\} 3$/m,
        'robots_audit_referral_crawler_requests_total';
    like $p, qr/^robots_audit_purpose_requests_total\{site="localhost",purpose="ai-training"\} 8$/m,
        'robots_audit_purpose_requests_total';
    # GPTBot is not verified here (no ranges loaded): summed as unverified
    like $p, qr/^robots_audit_llms_fetches_total\{site="localhost",crawler="unverified"\} 6$/m,
        'robots_audit_llms_fetches_total';

    my $html = $h->get('/ra-status')->{content};
    like $html, qr{<h3>crawl-to-refer</h3>}, 'HTML: crawl-to-refer';
    like $html, qr{<tr><td>Google</td><td class="n">3</td><td class="n">3</td><td class="n">1\.0</td></tr>},
        'HTML: Google 3 referrals, 3 crawler requests, ratio 1.0';
    like $html, qr{<td class="x">ai-training</td>}, 'HTML: purpose column';
    like $html, qr{>llms\.txt</th>}, 'HTML: llms.txt column';
    $h->stop;
}

1;
