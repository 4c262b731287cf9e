# SPDX-License-Identifier: BSD-2-Clause
package RA::Scenario::Spellings;

# One resource, many spellings, on nginx and Apache alike.
# robots.txt says "Disallow: /private/" and htdocs/private/x exists; a
# crawler asks for it as //private/x, /./private/x, /a/../private/x,
# /%2Fprivate/x, /a/%2e%2e/private/x, /robots.txt/../private/x, in the
# absolute form, 5 KiB long, and so on: 46 spellings of the file, 13 of
# robots.txt and 2 of a public page, raw request lines all of them, with
# a crawler's User-Agent.  The servers merge slashes, remove dot segments
# and decode %-escapes before they map a path to a file; the module
# judges the path as received and its canonical form, and the stricter
# verdict wins.  For each spelling the scenario records what the server
# did (status, whether the private file's content came back) and what the
# module judged (the counter that moved), first with enforce off, then
# on, and checks:
#
#   - a spelling the server answered with the private file was judged a
#     violation; with enforce on, no spelling reaches the private file;
#   - a spelling of /robots.txt the server answered with the robots.txt
#     file was counted as a robots.txt fetch, and one it did not answer
#     with the file was not (an encoded slash never is: Apache refuses it
#     with 404, nginx decodes it; such a request is judged as any other);
#   - no answer to another spelling replaced the site's robots.txt;
#   - the alerts and the violation ring keep the target as received.
#
# Spellings the server refuses by itself (400, 404) may be judged anything.
# The table (spelling, status and verdict with enforce off and on) is
# printed with note().
#
#   RA::Scenario::Spellings->run($server);

use strict;
use warnings;

use JSON::PP;
use Test::More;
use RA::Scenario qw($GOOGLEBOT run_variants);

my $PRIVATE = "private file: not for crawlers\n";
my $ROBOTS  = "User-agent: *\nDisallow: /private/\n";
my $PUBLIC  = "public page\n";

# [ target, what it names ]: 'private' (htdocs/private/x), 'robots'
# (htdocs/robots.txt) or 'other'
my @SPELLINGS = (
    [ '/robots.txt',                          'robots' ],
    [ '/private/x',                           'private' ],
    [ '//private/x',                          'private' ],
    [ '///private/x',                         'private' ],
    [ '/./private/x',                         'private' ],
    [ '/private/./x',                         'private' ],
    [ '/private//x',                          'private' ],
    [ '/a/../private/x',                      'private' ],
    [ '/a/b/../../private/x',                 'private' ],
    [ '/private/y/../x',                      'private' ],
    [ '//./private/../private/x',             'private' ],
    [ '/%2Fprivate/x',                        'private' ],
    [ '/%2fprivate/x',                        'private' ],
    [ '/private%2Fx',                         'private' ],
    [ '/%2e/private/x',                       'private' ],
    [ '/%2E/private/x',                       'private' ],
    [ '/private/%2e/x',                       'private' ],
    [ '/a/%2e%2e/private/x',                  'private' ],
    [ '/a/%2E%2E/private/x',                  'private' ],
    [ '/a/.%2e/private/x',                    'private' ],
    [ '/a/%2e./private/x',                    'private' ],
    [ '/a/..%2fprivate/x',                    'private' ],
    [ '/.%2fprivate/x',                       'private' ],
    [ '/robots.txt/../private/x',             'private' ],
    [ '/%70rivate/x',                         'private' ],
    [ '/priv%61te/%78',                       'private' ],
    [ '/private/x?q=1',                       'private' ],
    [ '/private/x#fragment',                  'private' ],
    [ '/private/./x?a=1#b',                   'private' ],
    [ 'http://localhost/private/x',           'private' ],
    [ 'http://localhost//private/x',          'private' ],
    [ 'http://localhost/./private/x',         'private' ],
    [ 'http://localhost/a/../private/x',      'private' ],
    [ 'http://localhost/%2e/private/x',       'private' ],
    [ 'http://localhost/%2Fprivate/x',        'private' ],
    [ 'http://localhost:%%PORT%%//private/x', 'private' ],
    [ '/' . ('a/../' x 1000) . 'private/x',   'private' ],
    [ '/' . ('./' x 3000) . 'private/x',      'private' ],
    [ '/../private/x',                        'private' ],
    [ '/a/../../private/x',                   'private' ],
    [ '/%2e%2e/private/x',                    'private' ],
    [ '/private/x/.',                         'private' ],
    [ '/private/x/',                          'private' ],
    [ '/private/x;p=1',                       'private' ],
    [ '/private/x%00',                        'private' ],
    [ '/private%252fx',                       'private' ],
    [ '/PRIVATE/x',                           'private' ],
    [ '/public.html',                         'other' ],
    [ '/a/../public.html',                    'other' ],
    [ '//robots.txt',                         'robots' ],
    [ '/./robots.txt',                        'robots' ],
    [ '/robots.txt/../robots.txt',            'robots' ],
    [ '/%72obots.txt',                        'robots' ],
    [ '/robots%2etxt',                        'robots' ],
    [ '/robots.txt?x=1',                      'robots' ],
    [ 'http://localhost//robots.txt',         'robots' ],
    [ '/%2Frobots.txt',                       'robots' ],
    [ '/robots.txt/.',                        'robots' ],
    [ '/robots.txt%3F',                       'robots' ],
    [ '/ROBOTS.TXT',                          'robots' ],
    [ '/../robots.txt',                       'robots' ],
);

my @COUNTERS = qw(robots_fetches violation stale compliant unreachable unknown
                  exempt);

sub run {
    my ($class, $server, %o) = @_;
    run_variants($server, sub { scenario(@_, %o) });
    done_testing;
}

# Shown in the table: long spellings abbreviated, bytes escaped.
sub shown {
    my ($t) = @_;
    $t =~ s/%%PORT%%/PORT/;
    $t =~ s/((?:a\/\.\.\/){3,})/'(a\/..\/)x' . (length($1) \/ 5)/e;
    $t =~ s/((?:\.\/){3,})/'(.\/)x' . (length($1) \/ 2)/e;
    $t =~ s/([^\x21-\x7e])/sprintf '\\x%02x', ord $1/ge;
    return $t;
}

# What the module made of the last request: the counter that moved
# ('fetch' for a robots.txt fetch), or '-' when it did not count it.
sub verdict {
    my ($h, $before) = @_;
    my $now;
    my $moved = $h->wait_for(sub {
        $now = $h->crawler_stats($h->status_json, 'localhost', 'Googlebot')
               // { requests => 0 };
        return ($now->{requests} // 0) > ($before->{requests} // 0);
    }, 1);
    my @what = grep { ($now->{$_} // 0) > ($before->{$_} // 0) } @COUNTERS;
    my $v = !$moved ? '-'
          : @what ? join('+', map { $_ eq 'robots_fetches' ? 'fetch' : $_ }
                                   @what)
          : 'counted';
    return ($v, $now);
}

# Sends every spelling; returns [ { target, status, served, verdict } ] in
# the order of @SPELLINGS.
sub run_pass {
    my ($ad, $v, $enforce) = @_;
    my $h = $ad->harness($v, {
            audit          => 1,
            enforce        => $enforce,
            alert_interval => $ad->min_interval,
            # every violation alerts: this scenario checks the evidence,
            # not the budget (an unverified crawler may use half of it)
            alert_budget   => 'off off',
        },
        files => {
            'htdocs/robots.txt'  => $ROBOTS,
            'htdocs/private/x'   => $PRIVATE,
            'htdocs/public.html' => $PUBLIC,
        },
    );
    $h->start;

    my @seen;
    my $stats = { requests => 0 };
    for my $s (@SPELLINGS) {
        my ($target, $names) = @$s;
        $target = $h->expand($target);
        my $req = "GET $target HTTP/1.1\r\nHost: localhost\r\n"
                . "User-Agent: $GOOGLEBOT\r\nConnection: close\r\n\r\n";
        my $r = $h->get('/', raw => $req);
        my $content = $r->{content} // '';
        my $served = $r->{status} == 200
            && ($content eq $PRIVATE ? 'private'
                : $content eq $ROBOTS ? 'robots'
                : $content eq $PUBLIC ? 'public' : 'other');
        my $verdict;
        ($verdict, $stats) = verdict($h, $stats);
        push @seen, { target => $target, status => $r->{status},
                      served => $served || '', verdict => $verdict };
    }

    my $json = $h->status_json;
    my $site = $h->site_json($json, 'localhost');
    is $site->{robots}{status}, 200,
        ($enforce ? 'enforce on' : 'enforce off')
        . ': no other spelling\'s answer replaced robots.txt';
    is $site->{robots}{answer}, 'rules', '... and its rules are in force';

    # the evidence keeps the target as received: nginx hands the module
    # the absolute form's path, Apache the whole target
    my %ring = map { $_->{uri} => 1 } @{ $site->{recent_violations} // [] };
    my @alerts = map { decode_json($_) } grep { /\S/ } split /\n/,
        $h->wait_for(sub {
            my $n = grep { $_->{verdict} eq 'violation' } @seen;
            my $log = $h->alert_log;
            my @l = $log =~ /"RA100"/g;
            return @l >= $n ? $log : '';
        }, 5);
    my %alerted = map { $_->{uri} => 1 } @alerts;
    my @missing;
    my %sent = map { $_->{target} => 1 } @seen;
    for my $t (map { $_->{target} }
               grep { $_->{verdict} eq 'violation' } @seen)
    {
        (my $path = $t) =~ s{^http://[^/]*}{};
        my $cut = substr $t, 0, 256;
        my $pcut = substr $path, 0, 256;
        push @missing, "ring: $t" unless $ring{$cut} || $ring{$pcut};
        next if length $t > 400;
        push @missing, "alert: $t" unless $alerted{$t} || $alerted{$path};
    }
    is_deeply \@missing, [],
        'every violation in the ring and the alert log, as received'
        or diag explain \@missing;
    for my $al (@alerts) {
        # a URI over 400 bytes is cut there, and uri_bytes says so
        my $u = $al->{uri};
        my $end = defined $al->{uri_bytes} ? '' : '$';
        ok scalar(grep { m{^(?:http://[^/]*)?\Q$u\E$end} } keys %sent),
           'alert names a target as sent: ' . shown(substr $u, 0, 60);
    }

    unlike $h->error_log, $ad->crash_re, 'no crash or emergency';
    $h->stop;
    return \@seen;
}

sub scenario {
    my ($ad, $v, %o) = @_;
    my $off = run_pass($ad, $v, 0);
    my $on = run_pass($ad, $v, 1);

    my @rows;
    for my $i (0 .. $#SPELLINGS) {
        my ($t, $names) = @{ $SPELLINGS[$i] };
        my ($x, $y) = ($off->[$i], $on->[$i]);
        my $st = shown($t);

        # a request that reached the disallowed file was judged a violation
        if ($x->{served} eq 'private') {
            is $x->{verdict}, 'violation',
                "enforce off: $st reached the private file: violation";
        }
        ok $y->{served} ne 'private',
            "enforce on: $st does not reach the private file"
            or diag explain $y;

        # robots.txt: a fetch exactly when the server served the file
        if ($names eq 'robots') {
            for my $z ([ 'off', $x ], [ 'on', $y ]) {
                my ($e, $r) = @$z;
                if ($t =~ /%2f/i) {
                    isnt $r->{verdict}, 'fetch',
                        "enforce $e: $st (an encoded slash) is no fetch";
                } elsif ($t =~ /\?/) {
                    # crawlers read /robots.txt alone: a query is another
                    # resource, whatever the server answers to it
                    is $r->{verdict}, 'counted',
                        "enforce $e: $st (a query) is counted, no fetch";
                } elsif ($r->{served} eq 'robots') {
                    is $r->{verdict}, 'fetch',
                        "enforce $e: $st served robots.txt: a fetch";
                } elsif ($r->{status} != 400) {
                    isnt $r->{verdict}, 'fetch',
                        "enforce $e: $st answered $r->{status}: no fetch";
                }
            }
        }
        push @rows, sprintf '%-34s %4s %-8s %-11s | %4s %-8s %s',
            $st, $x->{status}, $x->{served} || '-', $x->{verdict},
            $y->{status}, $y->{served} || '-', $y->{verdict};
    }
    note sprintf "%s %s: %d spellings\n%-34s %-25s | %s\n%s", $ad->server,
        $v->{name}, scalar @SPELLINGS, 'spelling',
        'enforce off: status served verdict', 'enforce on',
        join "\n", @rows;
}

1;
