# SPDX-License-Identifier: BSD-2-Clause
package RA::Scenario::RangeAges;

# Range files' ages and verified_by, on nginx and Apache alike.
# Two range files, one fresh (Googlebot's, holding this machine: verified)
# and one modified 10 days before the server starts (GPTBot's, holding
# 192.0.2.0/24 only: this machine is an impostor):
#   - RA203 at warn for the stale file when the configuration loads, none
#     for the fresh one, and none per request;
#   - the status page shows each file's age: Prometheus
#     robots_audit_ranges_age_seconds{file}, JSON "ranges" (stale true for
#     the old file), a line of the HTML page;
#   - every verification shown says how it was decided: JSON
#     "verified_by":"ranges" for both crawlers (the impostor too: the
#     ranges decided it), the method label of robots_audit_requests_total,
#     the page's "verified by" column, verified_by=ranges in the text and
#     JSON alert lines.
#
#   RA::Scenario::RangeAges->run($server);

use strict;
use warnings;

use JSON::PP;
use Test::More;
use RA::Scenario qw($GOOGLEBOT $GPTBOT run_variants count_re);

my $ROBOTS = "User-agent: *\nDisallow: /checkout\n";
my $DAY = 86400;

sub run {
    my ($class, $server, %o) = @_;
    run_variants($server, sub { scenario(@_, %o) });
    done_testing;
}

sub scenario {
    my ($ad, $v) = @_;
    my $h = $ad->harness($v, {
            audit     => 1,
            ip_ranges => [ '%%DIR%%/ranges/common-crawlers.json',
                           '%%DIR%%/ranges/gptbot.json' ],
        },
        workers => 1,
        files => {
            'htdocs/robots.txt'  => $ROBOTS,
            'htdocs/index.html'  => "home\n",
            'htdocs/checkout'    => "pay here\n",
            'ranges/common-crawlers.json' =>
                '{"prefixes":[{"ipv4Prefix":"127.0.0.0/8"}]}',
        },
    );
    # written before start (which writes the files above afresh), then
    # aged: the modules read the modification time when they load it
    my $old = $h->write_file('ranges/gptbot.json',
                             '{"prefixes":[{"ipv4Prefix":"192.0.2.0/24"}]}');
    my $then = time - 10 * $DAY;
    utime $then, $then, $old or die "utime $old: $!";
    # at configuration time, as nginx -t and apachectl -t show it
    my ($rc, $out) = $h->config_test;
    is $rc, 0, 'a stale file does not fail the configuration' or diag $out;
    my ($lpre, $place) = ($ad->lint_prefix, $ad->lint_place);
    like $out, qr/${lpre}robots-audit: \[RA203\] ranges file "\Q$old\E" is 10 days old \(older than 7\): [^\n]*robots-audit ranges update`? refreshes it$place/m,
        'RA203 for the stale file at warn' or diag $out;
    unlike $out, qr/\[RA203\][^\n]*common-crawlers\.json/,
        'none for the fresh file';
    $h->start;
    my $pre = $ad->alert_prefix;
    my $err = $h->error_log;
    my $n203 = count_re(qr/\[RA203\]/, $err);

    is $h->get('/robots.txt', ua => $GOOGLEBOT)->{status}, 200,
        'Googlebot fetches robots.txt';
    $h->get('/checkout', ua => $GOOGLEBOT);
    $h->get('/checkout', ua => $GPTBOT);
    $h->get('/index.html', ua => $GPTBOT);

    my $j = $h->status_json;
    my $g = $h->crawler_stats($j, 'localhost', 'Googlebot', 'verified');
    is $g->{verified_by}, 'ranges', 'JSON: Googlebot verified_by ranges';
    my $i = $h->crawler_stats($j, 'localhost', 'GPTBot', 'impostor');
    is $i->{requests}, 2, 'GPTBot from outside its (stale) ranges: impostor';
    is $i->{verified_by}, 'ranges', '... decided by the ranges';
    my $site = $h->site_json($j, 'localhost');
    is_deeply [ sort map { "$_->{crawler}:$_->{verification}:$_->{verified_by}" }
                @{ $site->{recent_violations} // [] } ],
        [ 'GPTBot:impostor:ranges', 'Googlebot:verified:ranges' ],
        'recent violations: verified_by';
    my %r = map { $_->{file} => $_ } @{ $j->{ranges} // [] };
    is_deeply [ sort keys %r ], [ 'common-crawlers.json', 'gptbot.json' ],
        'JSON "ranges": both files';
    ok !$r{'common-crawlers.json'}{stale}, '... the fresh one not stale';
    cmp_ok $r{'common-crawlers.json'}{age_seconds}, '<', 600, '... minutes old';
    ok $r{'gptbot.json'}{stale}, '... the old one stale';
    cmp_ok abs($r{'gptbot.json'}{age_seconds} - 10 * $DAY), '<', 600,
        '... 10 days old';
    is $r{'gptbot.json'}{intervals}, 1, '... its intervals';

    my $p = $h->get($h->{status_path} . '?format=prometheus');
    is $p->{status}, 200, 'Prometheus page';
    like $p->{content}, qr/^robots_audit_ranges_age_seconds\{file="gptbot\.json"\} (\d+)$/m,
        'robots_audit_ranges_age_seconds for the stale file';
    my ($age) = $p->{content} =~ /^robots_audit_ranges_age_seconds\{file="gptbot\.json"\} (\d+)$/m;
    cmp_ok abs(($age // 0) - 10 * $DAY), '<', 600, '... 10 days';
    like $p->{content}, qr/^robots_audit_ranges_age_seconds\{file="common-crawlers\.json"\} \d{1,3}$/m,
        '... and the fresh one';
    like $p->{content}, qr/^robots_audit_requests_total\{site="localhost",crawler="Googlebot",verification="verified",method="ranges",verdict="violation"\} 1$/m,
        'the method label on the request counters';
    # an impostor has no series of its own (anyone can send a name): its
    # requests are summed as crawler="unverified", whatever decided
    like $p->{content}, qr/^robots_audit_requests_total\{site="localhost",crawler="unverified",verification="impostor",method="none",verdict="violation"\} 1$/m,
        '... the impostor\'s summed';

    my $html = $h->get($h->{status_path})->{content};
    like $html, qr/IP-range files: <code>common-crawlers\.json<\/code> 0 h old, <code>gptbot\.json<\/code> <span class="bad"[^>]*>10 days old<\/span>/,
        'the page lists the files and their ages, the stale one marked';
    like $html, qr/verified by<\/th>/, 'the page has a "verified by" column';
    like $html, qr/>verified<\/td><td class="x">ranges<\/td>/, '... saying ranges';

    $err = $h->wait_for(sub {
        my $l = $h->error_log;
        $l =~ /\[RA102\]/ && $l =~ /\[RA100\]/ ? $l : '' });
    like $err, qr/\[RA100\] violation site="localhost" crawler="Googlebot" verification=verified client=127\.0\.0\.1 [^\n]* suppressed=0 verified_by=ranges$/m,
        'text alert: verified_by=ranges';
    like $err, qr/\[RA102\] violation site="localhost" crawler="GPTBot" verification=impostor [^\n]* verified_by=ranges$/m,
        '... for the impostor too';
    my @a = map { decode_json($_) } split /\n/,
            $h->wait_for(sub { my $l = $h->alert_log;
                               ($l =~ tr/\n//) >= 2 ? $l : '' });
    is_deeply [ sort map { "$_->{crawler}:$_->{verified_by}" } @a ],
        [ 'GPTBot:ranges', 'Googlebot:ranges' ], 'JSON alerts: verified_by';
    is count_re(qr/\[RA203\]/, $h->error_log), $n203,
        'RA203 not repeated by requests';

    unlike $h->error_log, $ad->crash_re, 'no crash or emergency';
    $h->stop;
}

1;
