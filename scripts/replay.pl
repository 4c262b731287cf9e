#!/usr/bin/perl
# SPDX-License-Identifier: BSD-2-Clause
# Replays the requests of an access log (combined format) against a server
# on loopback: method, path and User-Agent as logged, the logged client
# address in X-Forwarded-For (for a server that trusts loopback with
# realip), in log order, over one keep-alive connection.
#
# usage: replay.pl [--crawlers-only] [--limit N] [--quiet] BASE_URL LOG...
#   BASE_URL  e.g. http://127.0.0.1:8088 (only loopback is allowed)
use strict;
use warnings;
use HTTP::Tiny;
use Getopt::Long;

my ($crawlers_only, $limit, $quiet) = (0, 0, 0);
GetOptions('crawlers-only' => \$crawlers_only, 'limit=i' => \$limit,
           'quiet' => \$quiet) or die "usage: replay.pl [--crawlers-only] [--limit N] BASE_URL LOG...\n";
my $base = shift @ARGV or die "replay.pl: BASE_URL missing\n";
$base =~ m{^http://(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?$}
    or die "replay.pl: $base is not a loopback URL\n";

my $http = HTTP::Tiny->new(keep_alive => 1, timeout => 10, max_redirect => 0);
my $bot = qr/bot|crawl|spider|slurp|feed|fetch|archive|curl|wget|python|ruby|java|libwww|http/i;
my ($sent, $status) = (0, {});

for my $file (@ARGV) {
    open my $fh, '<', $file or die "replay.pl: $file: $!\n";
    while (my $line = <$fh>) {
        my ($addr, $method, $target, $ua) = $line =~
            /^(\S+) \S+ \S+ \[[^\]]+\] "(\S+) (\S+)[^"]*" \d+ \S+ "[^"]*" "([^"]*)"/
            or next;
        next if $crawlers_only && $ua !~ $bot;
        next unless $method =~ /^(GET|HEAD)$/;
        $target = "/$target" unless $target =~ m{^/};
        my $r = $http->request($method, $base . $target, {
            headers => { 'User-Agent' => $ua, 'X-Forwarded-For' => $addr } });
        $status->{$r->{status}}++;
        $sent++;
        print STDERR "\rreplayed $sent requests" if !$quiet && -t STDERR && $sent % 100 == 0;
        last if $limit && $sent >= $limit;
    }
    close $fh;
    last if $limit && $sent >= $limit;
}
print STDERR "\r" if !$quiet && -t STDERR;
print "replayed $sent requests (", join(', ', map { "$_: $status->{$_}" } sort keys %$status), ")\n"
    unless $quiet;
