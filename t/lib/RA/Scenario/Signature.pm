# SPDX-License-Identifier: BSD-2-Clause
package RA::Scenario::Signature;

# Web Bot Auth (docs/web-bot-auth.md), on nginx and Apache alike.  The
# test makes an Ed25519 key with the openssl command (Perl's core has no
# Ed25519; RA::WebBotAuth), publishes it as agent.test.json in the signature keys
# directory, and signs requests with `openssl pkeyutl -rawin`.  SignBot
# (an operator's crawler file: signature-agent https://agent.test, ranges
# covering this machine) is then:
#   - verified by its ranges when it does not sign;
#   - verified by its signature when it signs with the published key, and
#     so is a request with a browser's User-Agent carrying that signature;
#   - an impostor (RA102) when the signature is forged (another key under
#     the published key's keyid), malformed, or made for another path,
#     although its address is in its ranges;
# a forged or malformed signature with a browser's User-Agent stays a
# browser.
#
#   RA::Scenario::Signature->run($server);

use strict;
use warnings;

use File::Temp qw(tempdir);
use JSON::PP;
use Test::More;
use RA::Scenario qw($BROWSER run_variants count_re);
use RA::WebBotAuth qw(openssl_missing make_key sign signbot_files $SIGNBOT_ROBOTS);

my $ROBOTS = $SIGNBOT_ROBOTS;
my $SIGNBOT = 'SignBot/1.0 (+https://agent.test/bot)';

sub run {
    my ($class, $server) = @_;
    my $why = openssl_missing();
    plan skip_all => $why if $why;
    run_variants($server, \&scenario);
    done_testing;
}

sub scenario {
    my ($ad, $v) = @_;
    my $tmp = tempdir(CLEANUP => 1);
    my $key = make_key($tmp, 'agent');
    my $other = make_key($tmp, 'other');
    my $h = $ad->harness($v, {
            audit          => 1,
            crawlers       => [ '%%DIR%%/signbot.txt' ],
            ip_ranges      => [ '%%DIR%%/ranges/signbot.json' ],
            signature_keys => '%%DIR%%/sigkeys',
            alert_interval => '0',
        },
        workers => 1,
        files => { signbot_files($key) },
    );
    $h->start;
    my $pre = $ad->alert_prefix;

    # unsigned: its ranges verify it (robots.txt first, so that its later
    # requests are judged against the file it read)
    is $h->get('/robots.txt', ua => $SIGNBOT)->{status}, 200,
        'unsigned SignBot fetches robots.txt';
    is $h->get('/index.html', ua => $SIGNBOT)->{status}, 200,
        'unsigned SignBot';
    # signed with the published key
    is $h->get('/checkout', ua => $SIGNBOT,
               headers => sign($tmp, $key, $key->{kid}, '/checkout'))
           ->{status}, 200, 'signed SignBot';
    # a browser's User-Agent with a valid signature of agent.test
    is $h->get('/checkout', ua => $BROWSER,
               headers => sign($tmp, $key, $key->{kid}, '/checkout'))
           ->{status}, 200, 'signed request with a browser User-Agent';
    # Signature-Input in two field lines (one list, RFC 9110 5.3): another
    # signature first, then SignBot's
    {
        my $s = sign($tmp, $key, $key->{kid}, '/checkout');
        my $raw = "GET /checkout HTTP/1.1\r\nHost: localhost\r\n"
                . "User-Agent: $SIGNBOT\r\nConnection: close\r\n"
                . "Signature-Input: other=(\"\@authority\");tag=\"x\"\r\n"
                . "Signature-Input: $s->{'Signature-Input'}\r\n"
                . "Signature-Agent: $s->{'Signature-Agent'}\r\n"
                . "Signature: $s->{Signature}\r\n\r\n";
        is $h->get('/checkout', raw => $raw)->{status}, 200,
            'signed SignBot, Signature-Input in two lines';
    }
    # forged: another key under the published key's keyid
    my $forged = sign($tmp, $other, $key->{kid}, '/checkout');
    is $h->get('/checkout', ua => $SIGNBOT, headers => $forged)->{status},
        200, 'forged SignBot';
    is $h->get('/index.html', ua => $BROWSER, headers => $forged)->{status},
        200, 'forged signature with a browser User-Agent';
    # hostile fields: malformed, and 6 KiB of them
    my $junk = { 'Signature-Input' => 'sig1=((("' . ("\\" x 3000),
                 'Signature' => 'sig1=:' . ('A' x 6000),
                 'Signature-Agent' => 'sig1="https://agent.test"' };
    is $h->get('/index.html', ua => $SIGNBOT, headers => $junk)->{status},
        200, 'SignBot with malformed signature fields';
    is $h->get('/index.html', ua => $BROWSER, headers => $junk)->{status},
        200, 'a browser with malformed signature fields';
    # signed for another path: the signature covers @path
    is $h->get('/index.html', ua => $SIGNBOT,
               headers => sign($tmp, $key, $key->{kid}, '/checkout'))
           ->{status}, 200, 'a signature for another path';

    # a signature made for another site (the agent visited the attacker's
    # elsewhere.test) replayed here with the request line naming this
    # site, and elsewhere.test's Host: the request is for localhost (RFC
    # 9112 3.2.2), whose authority the signature does not cover
    {
        my $s = sign($tmp, $key, $key->{kid}, '/checkout', 'elsewhere.test');
        my $raw = "GET http://localhost/checkout HTTP/1.1\r\n"
                . "Host: elsewhere.test\r\n"
                . "User-Agent: $SIGNBOT\r\nConnection: close\r\n"
                . "Signature-Input: $s->{'Signature-Input'}\r\n"
                . "Signature-Agent: $s->{'Signature-Agent'}\r\n"
                . "Signature: $s->{Signature}\r\n\r\n";
        is $h->get('/checkout', raw => $raw)->{status}, 200,
            'a signature for another authority, replayed in absolute form';
    }

    # a genuine signature in absolute form with the port in the target:
    # its authority is the target's, port included
    {
        my $auth = 'localhost:' . $h->port;
        my $s = sign($tmp, $key, $key->{kid}, '/checkout', $auth);
        my $raw = "GET http://$auth/checkout HTTP/1.1\r\n"
                . "Host: $auth\r\n"
                . "User-Agent: $SIGNBOT\r\nConnection: close\r\n"
                . "Signature-Input: $s->{'Signature-Input'}\r\n"
                . "Signature-Agent: $s->{'Signature-Agent'}\r\n"
                . "Signature: $s->{Signature}\r\n\r\n";
        is $h->get('/checkout', raw => $raw)->{status}, 200,
            'signed SignBot in absolute form, the port in the target';
    }

    my $j = $h->status_json;
    my $ok = $h->crawler_stats($j, 'localhost', 'SignBot', 'verified') // {};
    is $ok->{requests}, 6, 'SignBot verified: unsigned (ranges: robots.txt '
        . 'and a page), signed (one field in one line and in two, and in '
        . 'absolute form with a port), and signed with a browser User-Agent';
    is $ok->{violation}, 4, '... its four signed /checkout requests';
    my $imp = $h->crawler_stats($j, 'localhost', 'SignBot', 'impostor') // {};
    is $imp->{requests}, 4, 'SignBot impostor: the forged signature, the '
        . 'malformed one, the one for another path and the one for another '
        . 'authority, from inside its ranges';
    is $h->site_json($j, 'localhost')->{browser_requests}, 2,
        'the forged and the malformed signature with a browser User-Agent: '
        . 'browsers';

    my $err = $h->wait_for(sub {
        my $l = $h->error_log; $l =~ /\[RA102\]/ ? $l : '' });
    like $err, qr/${pre}robots-audit: \[RA102\] violation site="localhost" crawler="SignBot" verification=impostor client=127\.0\.0\.1 method=GET uri="\/checkout" [^\n]* signature="the signature does not verify"/,
        'RA102 for the forged signature, saying why';
    is count_re(qr/\[RA100\][^\n]*crawler="SignBot" verification=verified/,
                $err), 4, 'RA100 for the four genuine signed violations';
    unlike $err, $ad->crash_re, 'no crash or emergency';
    $h->stop;
}

1;
