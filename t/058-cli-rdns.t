# SPDX-License-Identifier: BSD-2-Clause
# The CLI's reverse DNS against a DNS server on loopback (RA::DNS):
# identify --rdns --resolver, and logs --rdns with its --rdns-cache file
# (a second run answers from the file: the server, stopped, is not asked).
use strict;
use warnings;

use File::Temp qw(tempdir);
use JSON::PP;
use Test::More;
use Time::HiRes qw(time);
use RA::DNS;

my $cli = 'build/robots-audit';
# no default ranges directory: this machine's package is not the test's
$ENV{ROBOTS_AUDIT_RANGES_DIR} = '';
plan skip_all => "$cli is not built (make)" unless -x $cli;

my $dns = RA::DNS->new(
    ptr  => { '192.0.2.1' => 'bot-1.crawl.yandex.net',
              '192.0.2.2' => 'vm-2.cloud.example',
              '192.0.2.3' => 'fake.yandex.ru',
              '2001:db8::1' => 'bot-6.crawl.yandex.net' },
    a    => { 'bot-1.crawl.yandex.net' => [ '192.0.2.1' ],
              'vm-2.cloud.example'     => [ '192.0.2.2' ],
              'fake.yandex.ru'         => [ '192.0.2.99' ] },
    aaaa => { 'bot-6.crawl.yandex.net' => [ '2001:db8::1' ] },
    drop => [ '192.0.2.4', map { "198.51.100.$_" } 1 .. 32 ]);
my $res = '127.0.0.1:' . $dns->port;
my $ua = 'Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)';

sub identify {
    my ($addr) = @_;
    my $out = `$cli identify --format json --address $addr --rdns --resolver $res '$ua'`;
    my $j = eval { decode_json($out) } // {};
    return $j->{verification} // "no answer: $out";
}

is identify('192.0.2.1'), 'verified', 'identify: forward-confirmed';
is identify('2001:db8::1'), 'verified', '... over IPv6 (AAAA)';
is identify('192.0.2.2'), 'impostor', 'identify: a PTR outside the domains';
is identify('192.0.2.3'), 'impostor', 'identify: a PTR not resolving back';
is identify('192.0.2.5'), 'impostor', 'identify: no PTR at all';
is identify('192.0.2.4'), 'unverifiable', 'identify: no answer';
like `$cli identify --address 192.0.2.1 --resolver $res '$ua' 2>&1`,
    qr/--resolver is for --rdns/, '--resolver needs --rdns';
like `$cli identify --address 192.0.2.1 --rdns --resolver not-an-address '$ua' 2>&1`,
    qr/--resolver/, 'a bad --resolver is refused';

my $dir = tempdir(CLEANUP => 1);
open my $r, '>', "$dir/robots.txt" or die;
print {$r} "User-agent: *\nDisallow: /private\n";
close $r;
open my $l, '>', "$dir/access.log" or die;
for my $ip (qw(192.0.2.1 192.0.2.1 192.0.2.2 192.0.2.3)) {
    print {$l} qq{$ip - - [23/Nov/2026:10:00:00 +0000] "GET /private HTTP/1.1" 200 5 "-" "$ua"\n};
}
close $l;

sub logs_json {
    my $out = `$cli logs --robots $dir/robots.txt --format json --rdns --resolver $res --rdns-cache $dir/rdns.cache $dir/access.log`;
    return eval { decode_json($out) } // {};
}

sub count {
    my ($j, $v) = @_;
    for my $s (@{ $j->{sites} // [] }) {
        for my $c (@{ $s->{crawlers} // [] }) {
            return $c->{requests}
                if $c->{crawler} eq 'YandexBot' && $c->{verification} eq $v;
        }
    }
    return 0;
}

my $j = logs_json();
is count($j, 'verified'), 2, 'logs --rdns: each request judged by its answer '
                            . '(none pending)';
is count($j, 'impostor'), 2, '... impostors';
is count($j, 'unverifiable'), 0, '... nothing unverifiable';
is $j->{rdns}{verified}, 1, '... one lookup verified';
ok -s "$dir/rdns.cache", 'the cache file is written';

# bounded concurrency: 32 addresses the server never answers, each
# lookup waiting out its timeouts (2 s, 2 tries), are resolved 16 at a
# time before the judging pass: two rounds, not 32 lookups in a row
open $l, '>', "$dir/silent.log" or die;
for my $i (1 .. 32) {
    print {$l} qq{198.51.100.$i - - [23/Nov/2026:10:00:00 +0000] "GET / HTTP/1.1" 200 5 "-" "$ua"\n};
}
close $l;
my $t0 = time;
my $out = `$cli logs --robots $dir/robots.txt --format json --rdns --resolver $res $dir/silent.log`;
my $took = time - $t0;
$j = eval { decode_json($out) } // {};
is count($j, 'unverifiable'), 32, '32 unanswered addresses: unverifiable';
ok $took < 30, sprintf('... resolved 16 at a time: %.1f s (one at a time: '
                       . 'over 100 s)', $took);
diag sprintf 'logs --rdns, 32 unanswered addresses: %.1f s', $took;

# a flood of distinct addresses (a hostile log: 13000 spoofed YandexBot
# requests): the run remembers 12288 answers and asks for no more, each
# address at most once; before, the 712 it could not remember were asked
# twice, the second time one at a time while judging
open $l, '>', "$dir/flood.log" or die;
for my $i (1 .. 13000) {
    my $ip = sprintf '10.%d.%d.%d', $i >> 16, ($i >> 8) & 255, $i & 255;
    print {$l} qq{$ip - - [23/Nov/2026:10:00:00 +0000] "GET / HTTP/1.1" 200 5 "-" "$ua"\n};
}
close $l;
my $before = grep { /^PTR / } $dns->queries;
$out = `$cli logs --robots $dir/robots.txt --format json --rdns --resolver $res $dir/flood.log`;
$j = eval { decode_json($out) } // {};
my @ptr = grep { /^PTR / } $dns->queries;
splice @ptr, 0, $before;
my %seen;
is scalar(grep { $seen{$_}++ } @ptr), 0,
    'a flood of 13000 addresses: none asked twice';
is scalar(@ptr), 12288, '... and no more asked than the run remembers';
is count($j, 'impostor') + count($j, 'unverifiable'), 13000,
    '... every request judged';
is count($j, 'unverifiable'), 13000 - 12288, '... those not asked: '
    . 'unverifiable';

$dns->stop;
$j = logs_json();
is count($j, 'verified'), 2, 'a second run: the same verdicts';
is count($j, 'impostor'), 2, '... from the cache file';
done_testing;
