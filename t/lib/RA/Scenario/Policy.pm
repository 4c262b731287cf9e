# SPDX-License-Identifier: BSD-2-Clause
package RA::Scenario::Policy;

# The crawler policy, on nginx and Apache alike, whatever robots.txt says:
# a blocked purpose (ai-training) is refused with the configured status
# (402) and body (a JSON file, typed by its name); a crawler allowed as an
# exception (CCBot, verified from its ranges) is served; an impostor of a
# blocked name (GPTBot from outside its ranges) is refused, and so is an
# impostor of the exception (no exception for who only claims it);
# robots.txt is served to all; browsers and other purposes are served; a
# location answering 429 sends Retry-After (the crawler's group's
# Crawl-delay, else 60 s).  Every refusal is counted as refused_policy,
# and the status page shows the policy and the crawlers it refused.
#
#   RA::Scenario::Policy->run($server);

use strict;
use warnings;

use Test::More;
use RA::Scenario qw($GOOGLEBOT $GPTBOT $BROWSER run_variants);

my $CLAUDEBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; '
              . 'compatible; ClaudeBot/1.0; +claudebot@anthropic.com)';
my $CCBOT = 'CCBot/2.0 (https://commoncrawl.org/faq/)';
my $ROBOTS = "User-agent: ClaudeBot\nCrawl-delay: 7\nDisallow: /private\n\n"
           . "User-agent: *\nDisallow: /private\n";
my $BODY = qq({"licence":"mailto:licensing\@example.com"}\n);

# the policy in each server's words
my %CONF = (
    nginx => join('', map { "$_\n" }
        'robots_audit_block purpose ai-training;',
        'robots_audit_block crawler GPTBot;',
        'robots_audit_allow crawler CCBot GPTBot;',
        'robots_audit_refuse_status 402;',
        'robots_audit_refuse_body %%DIR%%/licence.json;',
        'location /slow/ { robots_audit_refuse_status 429; }'),
    apache => join('', map { "    $_\n" }
        'RobotsAuditBlock purpose ai-training',
        'RobotsAuditBlock crawler GPTBot',
        'RobotsAuditAllow crawler CCBot GPTBot',
        'RobotsAuditRefuseStatus 402',
        'RobotsAuditRefuseBody %%DIR%%/licence.json',
        '<Location /slow/>',
        '    RobotsAuditRefuseStatus 429',
        '</Location>'),
);

sub run {
    my ($class, $server) = @_;
    run_variants($server, sub { scenario(@_) });
    done_testing;
}

sub scenario {
    my ($ad, $v) = @_;
    my $h = $ad->harness($v, {
            audit       => 1,
            # GPTBot's ranges are elsewhere, CCBot's are 127.0.0.2
            ip_ranges   => [ '%%DIR%%/ranges/gptbot.json',
                             '%%DIR%%/ranges/ccbot.json' ],
            server_conf => $CONF{ $ad->server },
        },
        files => {
            'htdocs/robots.txt'  => $ROBOTS,
            'htdocs/page.html'   => "page\n",
            'htdocs/slow/x'      => "slow\n",
            'licence.json'       => $BODY,
            'ranges/gptbot.json' =>
                '{"prefixes":[{"ipv4Prefix":"192.0.2.0/24"}]}',
            'ranges/ccbot.json'  =>
                '{"prefixes":[{"ipv4Prefix":"127.0.0.2/32"}]}',
        },
    );
    $h->start;

    my $get = sub {
        my ($path, $ua, %g) = @_;
        return $h->get($path, ua => $ua, %g);
    };

    # robots.txt first (so that ClaudeBot's group applies), to every one
    for my $ua ($CLAUDEBOT, $GPTBOT, $CCBOT) {
        is $get->('/robots.txt', $ua)->{status}, 200,
            'robots.txt is served to every crawler, blocked or not';
    }

    my $r = $get->('/page.html', $CLAUDEBOT);
    is $r->{status}, 402, 'a blocked purpose (ai-training) is refused 402';
    is $r->{content}, $BODY, '... with the configured body';
    like $r->{headers}{'content-type'} // '', qr{^application/json},
        '... typed by the file name';
    is $r->{headers}{'retry-after'}, undef, '... and no Retry-After';

    is $get->('/page.html', $CCBOT, from => '127.0.0.2')->{status}, 200,
        'an allowed exception (CCBot, verified) is served';
    is $get->('/page.html', $CCBOT)->{status}, 402,
        'an impostor of the exception gets no exception';
    $r = $get->('/page.html', $GPTBOT);
    is $r->{status}, 402, 'an impostor of a blocked name is refused';
    is $r->{content}, $BODY, '... with the body';
    is $get->('/page.html', $GOOGLEBOT)->{status}, 200,
        'another purpose is served';
    is $get->('/page.html', $BROWSER)->{status}, 200, 'a browser is served';

    $r = $get->('/slow/x', $CLAUDEBOT);
    is $r->{status}, 429, 'a location answering 429';
    is $r->{headers}{'retry-after'}, '7',
        "... Retry-After: the crawler's group's Crawl-delay";
    is $r->{content}, $BODY, '... the body inherited';
    $r = $get->('/slow/x', $CCBOT);
    is $r->{status}, 429, 'an impostor there';
    is $r->{headers}{'retry-after'}, '60', '... Retry-After 60 without one';
    is $get->('/slow/x', $GOOGLEBOT)->{status}, 200,
        '... others are served there';

    my $j = $h->status_json;
    my $c = $h->crawler_stats($j, 'localhost', 'ClaudeBot');
    is $c->{refused_policy}, 2, 'refusals counted as refused_policy';
    is $c->{robots_fetches}, 1, '... the robots.txt fetch as ever';
    $c = $h->crawler_stats($j, 'localhost', 'CCBot', 'verified');
    is $c->{refused_policy}, 0, 'the exception: none refused';
    $c = $h->crawler_stats($j, 'localhost', 'CCBot', 'impostor');
    is $c->{refused_policy}, 2, "the exception's impostor: refused";
    $c = $h->crawler_stats($j, 'localhost', 'GPTBot', 'impostor');
    is $c->{refused_policy}, 1, "the blocked name's impostor: refused";
    is $h->crawler_stats($j, 'localhost', 'Googlebot')->{refused_policy}, 0,
        'Googlebot: none refused';

    my $page = $h->get($h->{status_path})->{content};
    like $page, qr/block purpose ai-training; block crawler GPTBot; allow crawler CCBot GPTBot/,
        'the status page shows the policy';
    like $page, qr/refused by policy.*ClaudeBot/s,
        '... and the crawlers it refused';
    my $t = $h->get("$h->{status_path}?format=text")->{content};
    like $t, qr/policy: refuse 402; block purpose ai-training/,
        'the text format too';
    like $t, qr/refused by policy: [^\n]*ClaudeBot \(\w+\) 2/,
        '... with the counts';
    like $h->get("$h->{status_path}?format=prometheus")->{content},
        qr/robots_audit_refused_total\{[^}]*crawler="unverified",verdict="policy"\} 5/,
        'Prometheus: robots_audit_refused_total{verdict="policy"} (unverified ones summed)';
    my $csv = $h->get("$h->{status_path}?format=csv-crawlers")->{content};
    my ($head) = split /\r\n/, $csv;
    my @col = split /,/, $head;
    my ($ix) = grep { $col[$_] eq 'refused_policy' } 0 .. $#col;
    my ($row) = grep { /^localhost,ClaudeBot,/ } split /\r\n/, $csv;
    ok defined $ix && defined $row, 'CSV of the crawlers: a refused_policy column, a row of ClaudeBot';
    is +(split /,/, $row // '')[$ix // 0], 2, '... its refusals in it';
    unlike $h->error_log, $ad->crash_re, 'no crash';
}

1;
