#!/usr/bin/perl
# SPDX-License-Identifier: BSD-2-Clause
# Deterministic event lines for measuring `robots-audit collect`
# (docs/fleet.md, "Throughput"): one robots.txt answer with its body per
# crawler and site (six crawlers on SITES sites), then N requests of those
# crawlers spread over the sites, about 350 bytes a line, as the modules
# write them (common/ra_events.h).  With --sites A-B only the sites A..B
# (numbered from 0) are written, so that a file can be split by site for
# several collectors as a relay would split the stream.
# Usage: gen-events.pl [--sites A-B] [N] > events.log   (N: 1,000,000)
use strict;
use warnings;

my ($lo, $hi) = (0, 19);
if (@ARGV && $ARGV[0] eq '--sites') {
    shift;
    ($lo, $hi) = (shift // '') =~ /^(\d+)-(\d+)$/ or die "--sites A-B\n";
}
my $n = shift // 1_000_000;
my $nsites = 20;
my $seed = 4242;
sub rnd { $seed = ($seed * 1103515245 + 12345) % 2147483648; return $seed % $_[0]; }

my @crawlers = (
    ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', '66.249.66.%d'],
    ['Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)', '157.55.39.%d'],
    ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)', '20.171.207.%d'],
    ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)', '160.79.104.%d'],
    ['Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)', '5.255.231.%d'],
    ['Mozilla/5.0 (compatible; Applebot/0.1; +http://www.apple.com/go/applebot)', '17.241.219.%d'],
);
my @words = qw(account archive article blog cart catalog category docs
  feed forum gallery help news page private product search shop static
  tag user video);
my $robots = "User-agent: *\nDisallow: /private/\nDisallow: /cart\n"
           . "Disallow: /search\nAllow: /search/help\n"
           . "User-agent: GPTBot\nDisallow: /\n"
           . "Sitemap: https://example.com/sitemap.xml\n";

# base64url without padding, as the writer encodes a body
my @b64 = ('A'..'Z', 'a'..'z', 0..9, '-', '_');
sub b64url {
    my ($s) = @_;
    my $o = '';
    for (my $i = 0; $i < length $s; $i += 3) {
        my $c = substr($s, $i, 3);
        my $l = length $c;
        my $v = unpack('N', "\0" . $c . "\0" x (3 - $l));
        $o .= join '', map { $b64[($v >> (18 - 6 * $_)) & 63] } 0 .. $l;
    }
    return $o;
}
my $sha = do {
    open my $p, '-|', 'sh', '-c', 'printf %s "$0" | sha256sum', $robots
        or die "sha256sum: $!";
    my $h = <$p>;
    close $p;
    (split ' ', $h)[0];
};
my $body = b64url($robots);
my $t = 1764382800000;
my $len = length $robots;

for my $s ($lo .. $hi) {
    for my $c (0 .. $#crawlers) {
        my ($ua, $ip) = @{ $crawlers[$c] };
        printf '{"ev":"robots","t":%d,"site":"site%02d.example","client":"%s",'
             . '"ua":"%s","method":"GET","uri":"/robots.txt","status":200,'
             . '"hop":0,"initial":1,"type":"text/plain","location":"",'
             . '"size":%d,"truncated":0,"undecodable":0,"sha256":"%s",'
             . '"body":"%s"}' . "\n",
            $t++, $s, sprintf($ip, 1 + $c), $ua, $len, $sha, $body;
    }
}
for my $i (1 .. $n) {
    my $c = rnd(scalar @crawlers);
    my $s = rnd($nsites);
    my $uri = '/' . $words[rnd(scalar @words)] . '/'
            . $words[rnd(scalar @words)] . '-' . rnd(100000) . '.html';
    my ($ua, $ip) = @{ $crawlers[$c] };
    my $client = sprintf($ip, 1 + rnd(200));
    $t += rnd(3);
    next if $s < $lo || $s > $hi;
    printf '{"ev":"req","t":%d,"site":"site%02d.example","client":"%s",'
         . '"ua":"%s","method":"GET","uri":"%s","referer":"","status":200,'
         . '"rec":0,"verdict":"compliant","verification":"unverifiable",'
         . '"robots_sha256":"%s"}' . "\n",
        $t, $s, $client, $ua, $uri, $sha;
}
