# SPDX-License-Identifier: BSD-2-Clause
package RA::Scenario::Rdns;

# Forward-confirmed reverse DNS, on nginx and Apache alike, against a DNS
# server on loopback (RA::DNS).  YandexBot publishes no ranges, only its
# reverse-DNS domains (yandex.ru, yandex.net, yandex.com).  From four
# loopback addresses:
#
#   127.0.0.1  PTR bot-1.crawl.yandex.net, which resolves back: verified
#   127.0.1.2  PTR vm-2.cloud.example, outside Yandex's domains: impostor
#   127.0.2.3  PTR fake.yandex.ru, which resolves to another address:
#              impostor
#   127.0.3.4  no answer at all (the server drops the query): unverifiable
#
# The first request from each is judged before its answer arrives (the
# server holds its answers until then) and
# counts as unverifiable (docs/design.md, "Reverse DNS"); once answered,
# the next one is judged by the cached answer, with no new query.  The
# status page's JSON counts the lookups.
#
#   RA::Scenario::Rdns->run($server);

use strict;
use warnings;

use JSON::PP;
use Test::More;
use Time::HiRes qw(sleep time);
use RA::DNS;
use RA::Scenario qw(run_variants);

our $YANDEX = 'Mozilla/5.0 (compatible; YandexBot/3.0; '
            . '+http://yandex.com/bots)';

sub run {
    my ($class, $server) = @_;
    run_variants($server, \&scenario);
    done_testing;
}

sub get_from {
    my ($h, $from, $path) = @_;
    return $h->get($path, from => $from, ua => $YANDEX)->{status};
}

sub scenario {
    my ($ad, $v) = @_;
    my $dns = RA::DNS->new(
        ptr  => { '127.0.0.1' => 'bot-1.crawl.yandex.net',
                  '127.0.1.2' => 'vm-2.cloud.example',
                  '127.0.2.3' => 'fake.yandex.ru' },
        a    => { 'bot-1.crawl.yandex.net' => [ '127.0.0.1' ],
                  'vm-2.cloud.example'     => [ '127.0.1.2' ],
                  'fake.yandex.ru'         => [ '127.0.9.9' ] },
        drop => [ '127.0.3.4' ],
        hold => 1);
    my $h = $ad->harness($v, {
            audit          => 1,
            robots_file    => '%%DIR%%/htdocs/robots.txt',
            resolver       => '127.0.0.1:' . $dns->port,
            alert_interval => 0,
        },
        workers => 1,
        files => {
            'htdocs/robots.txt' => "User-agent: *\nDisallow: /private\n",
            'htdocs/index.html' => "home\n",
            'htdocs/private'    => "private\n",
        },
    );
    $h->start;

    # first requests: judged before the answers arrive
    for my $from (qw(127.0.0.1 127.0.1.2 127.0.2.3 127.0.3.4)) {
        is get_from($h, $from, '/index.html'), 200,
            "YandexBot from $from, answered at once";
    }
    my $j = $h->status_json;
    my $u = $h->crawler_stats($j, 'localhost', 'YandexBot', 'unverifiable');
    is $u->{requests}, 4, 'judged while the lookups were pending: '
                        . 'unverifiable';
    ok !$h->crawler_stats($j, 'localhost', 'YandexBot', 'verified'),
        '... none verified yet';
    $dns->release;

    # the answers: three addresses answered, one never (the resolver's
    # timeout ends it)
    my $answered = $h->wait_for(sub {
        my $s = $h->status_json;
        ($s->{rdns}{verified} // 0) + ($s->{rdns}{failed} // 0) >= 3
            ? $s : undef }, 15);
    ok $answered, 'three lookups answered';
    is $answered && $answered->{rdns}{verified}, 1, '... one verified';
    my $queries = () = $dns->queries;

    # second requests: judged by the cached answers
    is get_from($h, '127.0.0.1', '/private'), 200, 'genuine YandexBot';
    is get_from($h, '127.0.1.2', '/private'), 200, 'PTR outside Yandex';
    is get_from($h, '127.0.2.3', '/private'), 200,
        'PTR inside Yandex, not resolving back';
    $j = $h->status_json;
    my $ok = $h->crawler_stats($j, 'localhost', 'YandexBot', 'verified');
    is $ok->{requests}, 1, 'forward-confirmed: verified';
    is $ok->{violation}, 1, '... and judged as the real crawler';
    my $imp = $h->crawler_stats($j, 'localhost', 'YandexBot', 'impostor');
    is $imp->{requests}, 2, 'a PTR outside the domains, or one that does '
                          . 'not resolve back: impostor';
    is scalar(() = $dns->queries), $queries,
        'cached answers: no new query';
    my $err = $h->wait_for(sub {
        my $l = $h->error_log; $l =~ /\[RA102\].*client=127\.0\.2\.3/s ? $l
                                                                      : '' });
    like $err, qr/\[RA102\] violation site="localhost" crawler="YandexBot" verification=impostor client=127\.0\.1\.2 /,
        'RA102 for the PTR outside the domains';
    like $err, qr/\[RA102\] violation site="localhost" crawler="YandexBot" verification=impostor client=127\.0\.2\.3 /,
        'RA102 for the name that does not resolve back';
    like $err, qr/\[RA100\] violation site="localhost" crawler="YandexBot" verification=verified client=127\.0\.0\.1 /,
        'RA100 for the real one';

    # no answer at all: a failed lookup, unverifiable, not an impostor
    my $failed = $h->wait_for(sub {
        my $s = $h->status_json;
        ($s->{rdns}{failed} // 0) >= 3 ? $s : undef }, 20);
    ok $failed, 'the unanswered lookup failed';
    is get_from($h, '127.0.3.4', '/private'), 200,
        'YandexBot from the address without an answer';
    $j = $h->status_json;
    $u = $h->crawler_stats($j, 'localhost', 'YandexBot', 'unverifiable');
    is $u->{requests}, 5, '... unverifiable';
    is $j->{rdns}{pending}, 0, 'no lookup pending';

    $h->stop;
    unlike $h->error_log, $ad->crash_re, 'no crash';
}

1;
