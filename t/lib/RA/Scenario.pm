# SPDX-License-Identifier: BSD-2-Clause
package RA::Scenario;

# What the scenarios in t/lib/RA/Scenario/ share: the User-Agents, running a
# scenario on each of a server's variants, bursts of parallel connections.
# A scenario is written once and run by a driver per server:
#
#   # t/020-nginx-verdicts.t
#   use RA::Scenario::Verdicts;
#   RA::Scenario::Verdicts->run('nginx');
#
# Checks that only one server has stay in that server's driver (passed as
# hooks) or in its adapter (RA::Adapter::Nginx, RA::Adapter::Apache).  Where
# the servers disagree on a check the scenario makes on both, the scenario
# marks it TODO for the failing server, naming the defect.

use strict;
use warnings;

use Exporter 'import';
use IO::Socket::INET;
use Test::More;
use RA::Adapter;

our $VERSION = '1';
our @EXPORT_OK = qw($GOOGLEBOT $GPTBOT $CHATGPT_USER $BROWSER $SURVEY
                    run_variants burst count_re);

our $GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; '
               . '+http://www.google.com/bot.html)';
our $GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; '
            . 'compatible; GPTBot/1.2; +https://openai.com/gptbot)';
our $CHATGPT_USER = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); '
                  . 'compatible; ChatGPT-User/1.0; +https://openai.com/bot';
our $BROWSER = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 '
             . 'Firefox/128.0';
our $SURVEY = 'ExampleSurveyBot/1.0 (+https://example.com/bot)';

# The adapter of $server, or a skip_all when the server cannot run here.
sub adapter {
    my ($server) = @_;
    my $ad = RA::Adapter->for($server);
    my $why = $ad->skip_reason;
    plan skip_all => $why if $why;
    return $ad;
}

# $code->($adapter, $variant) in a subtest per variant of the server (nginx:
# two fresh servers, Apache: the event and the prefork MPM).
sub run_variants {
    my ($server, $code) = @_;
    my $ad = adapter($server);
    for my $v ($ad->variants) {
        subtest $v->{name} => sub { $code->($ad, $v) };
    }
}

# how many times the pattern matches the text
sub count_re { my ($re, $s) = @_; return scalar(() = $s =~ /$re/g) }

# n requests on n connections opened at once; returns how many answered 200
sub burst {
    my ($h, $n, $path, $ua) = @_;
    my @socks = map {
        IO::Socket::INET->new(PeerAddr => '127.0.0.1', PeerPort => $h->port,
                              Proto => 'tcp', Timeout => 10) or die $!
    } 1 .. $n;
    print {$_} "GET $path HTTP/1.1\r\nHost: localhost\r\nUser-Agent: $ua\r\n"
             . "Connection: close\r\n\r\n" for @socks;
    my $ok = 0;
    for my $s (@socks) {
        local $/;
        my $resp = <$s> // '';
        $ok++ if $resp =~ m{^HTTP/1\.1 200 };
        close $s;
    }
    return $ok;
}

1;
