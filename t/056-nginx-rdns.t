# SPDX-License-Identifier: BSD-2-Clause
# nginx: forward-confirmed reverse DNS, t/lib/RA/Scenario/Rdns.pm, twice;
# and without a resolver: off, said at notice (RA330), crawlers
# unverifiable.
use strict;
use warnings;
use Test::More;
use RA::Scenario qw(run_variants);
use RA::Scenario::Rdns;

run_variants('nginx', sub {
    my ($ad, $v) = @_;
    my $h = $ad->harness($v, {
            audit       => 1,
            robots_file => '%%DIR%%/htdocs/robots.txt',
        },
        workers => 2,
        files   => { 'htdocs/robots.txt' => "User-agent: *\nDisallow:\n",
                     'htdocs/index.html' => "home\n" });
    $h->start;
    is $h->get('/index.html', ua => $RA::Scenario::Rdns::YANDEX)->{status},
        200, 'YandexBot, no resolver';
    my $j = $h->status_json;
    is $h->crawler_stats($j, 'localhost', 'YandexBot',
                         'unverifiable')->{requests}, 1,
        '... unverifiable';
    is $j->{rdns}{lookups}, 0, '... and no lookup';
    $h->stop;
    my $err = $h->error_log;
    # the README's minimal setup has no resolver: said at notice (RA330),
    # below this error log's warn
    unlike $err, qr/\[RA330\]/, 'no resolver is no warning';
});

RA::Scenario::Rdns->run('nginx');
