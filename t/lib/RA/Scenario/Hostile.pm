# SPDX-License-Identifier: BSD-2-Clause
package RA::Scenario::Hostile;

# Hostile input and a tiny zone, on nginx and Apache alike.  64 KiB
# User-Agents, raw <script>, quotes and backslashes in the URI, control
# bytes and CR/LF attempts, invalid percent-encoding, invalid UTF-8, markup
# and raw bytes in User-Agents, random Host values, more sites and crawlers
# than the smallest zone holds: every request is answered, nothing forges a
# log line, the status page escapes all of it (HTML), stays valid JSON and
# well-formed Prometheus text, everything stays bounded.
#
#   RA::Scenario::Hostile->run($server,
#       extra => sub { my ($h) = @_ },   # the server's own checks, at the end
#   );
#
# What each server's HTTP parser refuses by itself (400) differs: see
# ctl_header_status and judges_refused_target in RA::Adapter::*.

use strict;
use warnings;

use JSON::PP;
use Test::More;
use Time::HiRes qw(sleep);
use RA::Scenario qw($GOOGLEBOT run_variants);

my $NSITES = 24;

sub run {
    my ($class, $server, %o) = @_;
    run_variants($server, sub { scenario(@_, %o) });
    done_testing;
}

sub scenario {
    my ($ad, $v, %o) = @_;
    my @vhosts = map {
        { name => "site$_.test", aliases => [ "www.site$_.test", "*.wild$_.test" ] }
    } 1 .. $NSITES;
    my $h = $ad->harness($v, {
            audit           => 1,
            # the smallest zone there is: more sites and crawlers than it holds
            zone            => $ad->min_zone,
            # at most one alert per millisecond: keep requests apart
            alert_interval  => $ad->min_interval,
            large_headers   => 1,
            quiet_not_found => 1,
            vhosts          => \@vhosts,
        },
        files => {
            'htdocs/robots.txt' => "User-agent: *\nDisallow: /private\n"
                                 . "Disallow: /<script>alert(1)</script>\n",
            'htdocs/index.html' => "home\n",
        },
    );
    $h->start;

    my $get = sub {
        my ($path, %g) = @_;
        sleep 0.01;                         # past the alert interval
        return $h->get($path, %g);
    };
    my $raw = sub {
        my ($line, @headers) = @_;
        my $req = "$line\r\nHost: localhost\r\n"
                . join('', map { "$_\r\n" } @headers)
                . "Connection: close\r\n\r\n";
        return $get->('/', raw => $req);
    };

    is $get->('/robots.txt', ua => $GOOGLEBOT)->{status}, 200, 'robots.txt';

    # 64 KiB User-Agents: a known crawler's name first, last, and a generic one
    my $r = $get->('/private/a', ua => $GOOGLEBOT . (' x' x 32768));
    is $r->{status}, 404, '64 KiB User-Agent answered';
    $r = $get->('/index', ua => ('A' x 65536) . ' HugeBot/1.0');
    is $r->{status}, 404, '64 KiB generic User-Agent answered';
    my $long = 'Mozilla/5.0 ' . ('A' x (64 * 1024 - 40)) . ' Googlebot/2.1';
    $r = $get->('/private/long', ua => $long);
    is $r->{status}, 404, '64 KiB User-Agent, the crawler\'s name last, served';

    # a 5,000-byte method: cut in the alert, the rest of the line kept
    # (before the targets: the smallest zone's ring of violations keeps
    # the last dozen, which the checks below read)
    my $lm = $raw->(('M' x 5000) . ' /private/longmethod HTTP/1.1',
                    "User-Agent: $GOOGLEBOT");
    ok $lm->{status} >= 200, "5,000-byte method answered ($lm->{status})";

    # raw <script>, quotes, backslashes, bytes >= 0x80, CR/LF and invalid
    # percent-encoding in the request target
    my @targets = (
        '/private/<script>alert(1)</script>',
        '/<script>alert(1)</script>',
        '/private/"quoted"\\back\\slash',
        "/private/\xff\xfe\xc3\x28invalid-utf8",
        '/private/%0d%0aRA100%20forged',
        '/private/a%0d%0a[robots_audit:warn]FORGED',
        '/private/%zz%G1%',
        '/private/x?%zz=%0',
        '/private/%zz%4',
        "/private/\xff\x01",
        # U+202E RIGHT-TO-LEFT OVERRIDE: "gpj.exe" would read "exe.jpg"
        "/private/\xe2\x80\xaegpj.exe",
    );
    my %answered;
    for my $t (@targets) {
        my $res = $raw->("GET $t HTTP/1.1", "User-Agent: $GOOGLEBOT");
        $answered{$t} = $res->{status};
    }
    is scalar(grep { $_ >= 200 } values %answered), scalar @targets,
        'every hostile target answered' or diag explain \%answered;
    ok $answered{'/private/<script>alert(1)</script>'},
        'markup in the URI answered';
    is $answered{'/private/%zz%4'}, 400,
        'invalid percent-encoding: 400 from the server';
    is $answered{"/private/\xff\x01"}, 400,
        'raw bytes in the URI: 400 from the server';

    # control bytes where the server lets them through or refuses them
    for my $t ("/private/\x1b[31mred", "/private/a\tb", "/private/a\x7fb") {
        my $res = $raw->("GET $t HTTP/1.1", "User-Agent: $GOOGLEBOT");
        ok $res->{status} >= 200, sprintf 'control byte in the target: %d',
                                          $res->{status};
    }
    # CR/LF: a header with a bare CR, a folded header: refused or harmless
    for my $hdr ("User-Agent: $GOOGLEBOT\rX-Evil: 1",
                 "User-Agent: $GOOGLEBOT\r\n RA100 forged") {
        my $res = $raw->('GET /private/crlf HTTP/1.1', $hdr);
        ok $res->{status} >= 200,
            "CR/LF header attempt answered ($res->{status})";
    }
    $r = $raw->('GET /private/x HTTP/1.1',
                "User-Agent: Googlebot/2.1\rX-Forged: 1");
    is $r->{status}, 400, 'bare CR in a header refused by the server';

    # raw bytes, control bytes and markup in User-Agents
    $get->('/private/z', ua => "Caf\xe9Bot/1.0 \xff\xfe (+http://x.test/\x80)");
    my ($status, $name) = $ad->ctl_header_status;
    is $get->('/private/y', ua => "Bot/1.0 \x01\x7f")->{status}, $status,
        $name;
    $get->('/private/y', ua => "<img src=x onerror=alert(1)>Bot/1.0");
    # markup alone is a scanner's payload, a generic bot: on an allowed
    # path, so that the page's recent violations still hold the <script> URI
    $get->('/w', ua => '<img src=x onerror=alert(1)>');

    # random Host values make no sites; aliases count under their name
    for my $i (1 .. 40) {
        $h->get('/index.html', ua => $GOOGLEBOT, host => "rnd$i.example");
    }
    $h->get('/index.html', ua => $GOOGLEBOT, host => 'x9.wild3.test');
    my $j = $h->status_json;
    my @rnd = grep { $_->{site} =~ /rnd|wild/ } @{ $j->{sites} };
    is scalar @rnd, 0, 'no site for a random Host or a wildcard alias';

    # nothing raw from the network reaches a log line
    my $err = $h->wait_for(sub {
        my $l = $h->error_log; $l =~ /<script>/ && $l =~ /FORGED/ ? $l : '' });
    my @alert_lines = grep { /robots-audit: \[RA10/ } split /\n/, $err;
    cmp_ok scalar @alert_lines, '>=', 5, 'alerts written (smallest interval)';
    is scalar(grep { /[\x00-\x08\x0b-\x1f\x7f-\xff]/ } @alert_lines), 0,
        'no control or non-ASCII byte in an alert line';
    my $start = $ad->log_line_re;
    is scalar(grep { !/$start/ } split /\n/, $err), 0,
        'every error-log line starts with a timestamp (nothing forged)';
    unlike $err, qr/^\[robots_audit:warn\] ?FORGED/m, 'no forged log line';
    # the module's escapes, as the server's error log shows them
    my $uri = sub { my $u = 'uri="' . $ad->errlog_text($_[0]) . '"'; qr/\Q$u\E/ };
    # the same text in nginx's and Apache's error logs: no backslash that
    # httpd would double
    like $err, qr/\Quri="\/private\/%22quoted%22%5cback%5cslash"\E/,
        'quotes and backslashes escaped in the alert, as on every server';
    like $err, $uri->('/private/\xff\xfe\xc3(invalid-utf8'),
        'invalid UTF-8 escaped in the alert';
    like $err, qr/uri="\/private\/a%0d%0a\[robots_audit:warn\]FORGED"/,
        'percent-encoded CR/LF stays encoded';
    if ($ad->judges_refused_target) {
        like $err, qr/uri="\/private\/%zz%4"/, 'bad percent-encoding judged';
    } else {
        unlike $err, qr/uri="\/private\/%zz%4"/,
            'bad percent-encoding refused before the headers: not judged';
    }
    like $err, qr/uri="\/private\/<script>alert\(1\)<\/script>"/,
        'the alert quotes the URI';
    like $err, qr/ method=M{32} uri="\/private\/longmethod" rule="disallow: \/private" line=2 suppressed=\d+ verified_by=[a-z]+$/m,
        'a 5,000-byte method is cut at 32 bytes, rule and line kept';

    my @json = split /\n/, $h->alert_log;
    cmp_ok scalar @json, '>=', 5, 'JSON alert lines';
    my @bad = grep { !eval { JSON::PP->new->utf8->decode($_); 1 } } @json;
    is_deeply \@bad, [], 'every alert-log line is valid UTF-8 JSON';
    for my $line (@json) {
        ok eval { decode_json($line); 1 }, 'alert line is JSON'
            or diag $line;
    }
    ok((grep { (JSON::PP->new->utf8->decode($_)->{uri} // '')
               eq '/private/<script>alert(1)</script>' } @json),
       'JSON keeps the URI as text');

    # the status page: HTML escapes, JSON is valid, Prometheus is well formed
    $r = $h->get('/ra-status');
    is $r->{status}, 200, 'HTML page';
    my $html = $r->{content};
    unlike $html, qr/<script/i, 'no <script> in the HTML';
    unlike $html, qr/<script>alert/, 'no raw <script> in HTML';
    unlike $html, qr/<img src=x/, 'no raw <img> in HTML';
    like $html, qr/&lt;script&gt;alert\(1\)&lt;\/script&gt;/,
        'the URI shown escaped';
    like $html, qr/&lt;script&gt;/, 'markup shown escaped';
    unlike $html, qr/[\x00-\x08\x0b\x0c\x0e-\x1f]/, 'no control bytes';
    unlike $html, qr/\xe2\x80\xae/, 'no raw U+202E (bidi override) in HTML';
    like $html, qr/\/private\/\\u\{202e\}gpj\.exe/, '... it is shown';

    $r = $h->get('/ra-status?format=json');
    ok eval { JSON::PP->new->utf8->decode($r->{content}); 1 },
        'JSON valid with hostile bytes' or diag $@;
    unlike $r->{content}, qr/\xe2\x80\xae/, 'no raw U+202E in JSON';
    like $r->{content}, qr/\\u202egpj\.exe/, '... escaped (same string)';
    $j = eval { JSON::PP->new->utf8->decode($r->{content}) };
    ok $j, 'JSON parses (strict UTF-8)' or diag $@;
    my $g = $h->crawler_stats($j, 'localhost', 'Googlebot');
    cmp_ok $g->{violation}, '>=', 5, 'violations counted';
    ok !(grep { length($_->{crawler}) > 64 }
         @{ $h->site_json($j, 'localhost')->{crawlers} }),
        'crawler names bounded';
    ok !(grep { length($_->{uri}) > 256 }
         @{ $h->site_json($j, 'localhost')->{recent_violations} }),
        'violation URIs bounded';

    $r = $h->get('/ra-status?format=prometheus');
    my $prom = $r->{content};
    my @lines = split /\n/, $prom;
    my @badp = grep {
        !/^# (HELP|TYPE) [a-z_:][a-z0-9_:]* /
        && !/^[a-z_:][a-z0-9_:]*(\{([a-z_][a-z0-9_]*="([^"\\\n]|\\["\\n])*",?)*\})? -?[0-9][0-9.e+-]*$/
    } @lines;
    is_deeply \@badp, [], 'every Prometheus line well formed';
    ok !(grep { /<script>/ && /crawler="/
                && !/crawler="(Googlebot|generic|browser)"/ } @lines),
        'no raw User-Agent text in a label';
    unlike $prom, qr/<img|script/, 'no User-Agent text in metrics';

    # the smallest zone: more sites and crawlers than it holds
    for my $i (1 .. $NSITES) {
        $h->get('/index.html', ua => $GOOGLEBOT, host => "site$i.test");
        $h->get('/index.html', ua => "Crawler${i}Bot/1.0",
                host => "site$i.test");
    }
    for my $i (1 .. 150) {
        $h->get('/index.html', ua => "Flood${i}Bot/2.0");
    }
    $j = $h->status_json;
    cmp_ok $j->{ledger}{evictions}{sites}, '>', 0, 'sites evicted';
    cmp_ok $j->{ledger}{evictions}{stats}, '>', 0, 'crawler records evicted';
    cmp_ok scalar @{ $j->{sites} }, '<=', $j->{ledger}{capacity}{sites},
        'sites bounded';
    is $h->get('/index.html', ua => $GOOGLEBOT)->{status}, 200,
        'still serving';

    $o{extra}->($h) if $o{extra};

    unlike $h->error_log, $ad->crash_re, 'no crash or emergency';
    $h->stop;
}

1;
