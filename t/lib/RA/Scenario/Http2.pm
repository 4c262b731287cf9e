# SPDX-License-Identifier: BSD-2-Clause
package RA::Scenario::Http2;

# HTTP/2 deployments, on nginx and Apache alike: cleartext HTTP/2 with
# prior knowledge (h2c; the server side is the adapter's ->http2), the
# client `curl --http2-prior-knowledge`, and every answer checked to have
# come over HTTP/2 (curl's %{http_version}).  Over HTTP/2:
#   - the robots.txt a crawler fetches is captured (the status page shows
#     it in force);
#   - SignBot (verified by its ranges) and GPTBot (unverifiable: none of
#     its range files is loaded) are judged: a disallowed path is a
#     violation, an allowed one compliant;
#   - a browser is counted as a browser;
#   - the status page itself answers;
#   - a Web Bot Auth signature over @authority = the :authority curl sends
#     (localhost:PORT; HTTP/2 sends no Host) verifies, and a forged one
#     (another key under the published keyid) is an impostor.
#
#   RA::Scenario::Http2->run($server);

use strict;
use warnings;

use File::Temp qw(tempdir);
use JSON::PP;
use Test::More;
use RA::Scenario qw($GPTBOT $BROWSER run_variants count_re);
use RA::WebBotAuth qw(openssl_missing make_key sign signbot_files $SIGNBOT_ROBOTS);

my $ROBOTS = $SIGNBOT_ROBOTS;
my $SIGNBOT = 'SignBot/1.0 (+https://agent.test/bot)';

sub run {
    my ($class, $server) = @_;
    my $why = curl_missing() || openssl_missing();
    plan skip_all => $why if $why;
    run_variants($server, \&scenario);
    done_testing;
}

# why curl cannot speak HTTP/2 here, or ''
sub curl_missing {
    my $v = `curl -V 2>/dev/null` // '';
    return 'no curl command (apt-get install curl)' if $v eq '';
    return 'curl without HTTP/2 (its Features have no HTTP2)'
        unless $v =~ /^Features:.*\bHTTP2\b/m;
    return '';
}

# One request with curl over h2c: { status, version, content }
sub h2get {
    my ($port, $path, %o) = @_;
    my $dir = tempdir(CLEANUP => 1);
    my @cmd = ('curl', '-sS', '--http2-prior-knowledge', '--max-time', '10',
               '--resolve', "localhost:$port:127.0.0.1",
               '-o', "$dir/body", '-w', '%{http_code} %{http_version}');
    push @cmd, '-A', $o{ua} if defined $o{ua};
    for my $k (sort keys %{ $o{headers} // {} }) {
        push @cmd, '-H', "$k: $o{headers}{$k}";
    }
    push @cmd, "http://localhost:$port$path";
    open my $fh, '-|', @cmd or die "curl: $!";
    my $out = do { local $/; <$fh> } // '';
    close $fh;
    my ($status, $version) = $out =~ /^(\d{3}) (\S+)$/ or return
        { status => 0, version => '', content => '' };
    my $content = '';
    if (open my $b, '<:raw', "$dir/body") {
        local $/;
        $content = <$b> // '';
    }
    return { status => $status, version => $version, content => $content };
}

sub scenario {
    my ($ad, $v) = @_;
    my %h2 = $ad->http2($v);
    plan skip_all => $h2{skip} if $h2{skip};
    my $tmp = tempdir(CLEANUP => 1);
    my $key = make_key($tmp, 'agent');
    my $other = make_key($tmp, 'other');
    my $h = $ad->harness($v, {
            audit          => 1,
            crawlers       => [ '%%DIR%%/signbot.txt' ],
            ip_ranges      => [ '%%DIR%%/ranges/signbot.json' ],
            signature_keys => '%%DIR%%/sigkeys',
            alert_interval => '0',
            server_conf    => $h2{server_conf},
        },
        %{ $h2{opts} // {} },
        workers => 1,
        files => { signbot_files($key) },
    );
    $h->start;
    my $port = $h->port($h2{port});
    my $pre = $ad->alert_prefix;
    my $get = sub {
        my ($what, $path, %o) = @_;
        my $r = h2get($port, $path, %o);
        is $r->{status}, 200, "$what: 200";
        is $r->{version}, '2', "$what: over HTTP/2";
        return $r;
    };

    my $r = $get->('SignBot fetches robots.txt', '/robots.txt',
                   ua => $SIGNBOT);
    is $r->{content}, $ROBOTS, '... and gets it whole';
    $get->('SignBot, an allowed page', '/index.html', ua => $SIGNBOT);
    $get->('SignBot, a disallowed page', '/checkout', ua => $SIGNBOT);
    $get->('GPTBot, an allowed page', '/index.html', ua => $GPTBOT);
    $get->('GPTBot, a disallowed page', '/checkout', ua => $GPTBOT);
    $get->('a browser', '/checkout', ua => $BROWSER);
    my $auth = "localhost:$port";
    $get->('SignBot signed over :authority', '/checkout', ua => $SIGNBOT,
           headers => sign($tmp, $key, $key->{kid}, '/checkout', $auth));
    $get->('SignBot with a forged signature', '/checkout', ua => $SIGNBOT,
           headers => sign($tmp, $other, $key->{kid}, '/checkout', $auth));

    # the status page, over HTTP/2 too
    my $s = $get->('the status page', $h->{status_path} . '?format=json');
    my $j = eval { JSON::PP->new->utf8->decode($s->{content}) } // {};
    my $site = $h->site_json($j, 'localhost') // {};
    is $site->{robots}{status}, 200, 'robots.txt captured over HTTP/2: 200';
    is $site->{robots}{bytes}, length $ROBOTS, '... its size';
    is $site->{robots}{rules}, 1, '... its rule';

    my $ok = $h->crawler_stats($j, 'localhost', 'SignBot', 'verified') // {};
    is $ok->{robots_fetches}, 1, 'SignBot: one robots.txt fetch';
    is $ok->{requests}, 4, 'SignBot verified: robots.txt, two pages by its '
        . 'ranges, one by its signature';
    is $ok->{compliant}, 1, '... the allowed page compliant';
    is $ok->{violation}, 2, '... /checkout unsigned and signed: violations';
    my $gpt = $h->crawler_stats($j, 'localhost', 'GPTBot') // {};
    is $gpt->{verification}, 'unverifiable', 'GPTBot unverifiable';
    is $gpt->{compliant}, 1, '... the allowed page compliant';
    is $gpt->{violation}, 1, '... the disallowed one a violation';
    my $imp = $h->crawler_stats($j, 'localhost', 'SignBot', 'impostor') // {};
    is $imp->{requests}, 1, 'the forged signature: an impostor';
    is $site->{browser_requests}, 1, 'the browser counted as a browser';

    my $err = $h->wait_for(sub {
        my $l = $h->error_log; $l =~ /\[RA102\]/ ? $l : '' });
    like $err, qr/${pre}robots-audit: \[RA102\] violation site="localhost" crawler="SignBot" verification=impostor [^\n]* signature="the signature does not verify"/,
        'RA102 for the forged signature, saying why';
    is count_re(qr/\[RA100\][^\n]*crawler="SignBot" verification=verified/,
                $err), 2, 'RA100 for SignBot\'s two violations';
    like $err, qr/\[RA100\][^\n]*crawler="SignBot" verification=verified [^\n]* verified_by=signature$/m,
        '... the signed one verified by its signature';
    like $err, qr/\[RA100\][^\n]*crawler="SignBot" verification=verified [^\n]* verified_by=ranges$/m,
        '... the unsigned one by its ranges';
    unlike $err, $ad->crash_re, 'no crash or emergency';
    $h->stop;
}

1;
