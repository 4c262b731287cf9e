#!/usr/bin/perl
# SPDX-License-Identifier: BSD-2-Clause
# Deterministic benchmark data: a 200-rule robots.txt with wildcards and
# N URLs (default 200,000) of which about a third hit a rule.
# Usage: gen-match-data.pl OUTDIR [N]
use strict;
use warnings;

my ($dir, $n) = @ARGV;
$n ||= 200000;
my $seed = 12345;
sub rnd { $seed = ($seed * 1103515245 + 12345) % 2147483648; return $seed % $_[0]; }

my @words = qw(account admin api archive article assets blog cart catalog
  category checkout comment cgi-bin data docs download feed files forum
  gallery help images img include js login media news page print private
  product profile search share shop static tag tmp user video wp-admin
  wp-content wp-includes);
my @ext = qw(html php pdf jpg png gif css js json xml txt);

open my $r, '>', "$dir/robots.txt" or die;
print $r "# generated benchmark robots.txt\nUser-agent: *\n";
my $rules = 0;
while ($rules < 200) {
    my $w = $words[rnd(scalar @words)];
    my $w2 = $words[rnd(scalar @words)];
    my $e = $ext[rnd(scalar @ext)];
    my $kind = rnd(6);
    my $pat = $kind == 0 ? "/$w/"
            : $kind == 1 ? "/$w/*/$w2"
            : $kind == 2 ? "/*.$e\$"
            : $kind == 3 ? "/$w/*?*$w2="
            : $kind == 4 ? "/$w-$rules/"
            :              "/*/$w/*.$e";
    print $r ((rnd(4) == 0 ? "Allow: " : "Disallow: "), "$pat\n");
    $rules++;
}
print $r "\nSitemap: https://example.com/sitemap.xml\n";
close $r;

open my $u, '>', "$dir/urls.txt" or die;
for my $i (1 .. $n) {
    my $depth = 1 + rnd(4);
    my $p = '';
    $p .= '/' . $words[rnd(scalar @words)] . (rnd(3) ? '' : rnd(1000)) for 1 .. $depth;
    $p .= '.' . $ext[rnd(scalar @ext)] if rnd(2);
    $p .= '?' . $words[rnd(scalar @words)] . '=' . rnd(100) if rnd(4) == 0;
    print $u "https://example.com$p\n";
}
close $u;
