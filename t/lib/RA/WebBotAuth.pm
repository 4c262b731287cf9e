# SPDX-License-Identifier: BSD-2-Clause
package RA::WebBotAuth;

# Web Bot Auth for the t/ scenarios (RA::Scenario::Signature,
# RA::Scenario::Http2): Ed25519 keys made with the openssl command (Perl's
# core has no Ed25519) and requests signed with `openssl pkeyutl -rawin`.
#
#   my $why = openssl_missing();            # '' when openssl can sign
#   my $key = make_key($dir, 'agent');      # { pem, x, kid }
#   my $hdrs = sign($dir, $key, $key->{kid}, '/path', 'localhost:8080');
#   files => { signbot_files($key) }        # the site, SignBot, its ranges
#                                           # and agent.test's key set

use strict;
use warnings;

use Digest::SHA qw(sha256);
use Exporter 'import';
use MIME::Base64 qw(encode_base64);

our $VERSION = '1';
our @EXPORT_OK = qw(openssl_missing b64url make_key sign signbot_files $SIGNBOT_ROBOTS);

sub openssl_missing {
    my $v = `openssl version 2>/dev/null` // '';
    return 'no openssl command' unless $v =~ /^OpenSSL (\d+)/;
    return "openssl $1: pkeyutl -rawin needs 3" if $1 < 3;
    return '';
}

# The site both scenarios serve: /checkout disallowed to everyone.
our $SIGNBOT_ROBOTS = "User-agent: *\nDisallow: /checkout\n";

# The harness files of a site whose crawler SignBot signs as
# https://agent.test with key, and whose ranges (127.0.0.0/8) hold it.
sub signbot_files {
    my ($key) = @_;
    return (
        'htdocs/robots.txt'   => $SIGNBOT_ROBOTS,
        'htdocs/index.html'   => "home\n",
        'htdocs/checkout'     => "pay here\n",
        'signbot.txt'         => "crawler SignBot\nua SignBot\n"
            . "operator Test\ncategory ai-user-triggered\n"
            . "signature-agent https://agent.test\n"
            . "ranges signbot.json\n",
        'ranges/signbot.json' => '{"prefixes":[{"ipv4Prefix":"127.0.0.0/8"}]}',
        'sigkeys/agent.test.json' => qq({"keys":[{"kty":"OKP",)
            . qq("crv":"Ed25519","kid":"$key->{kid}","x":"$key->{x}",)
            . qq("use":"sig"}]}),
    );
}

sub b64url { (my $s = encode_base64($_[0], '')) =~ tr{+/}{-_}; $s =~ s/=+$//; $s }

sub slurp {
    my ($f) = @_;
    open my $fh, '<:raw', $f or die "$f: $!";
    local $/;
    return scalar <$fh>;
}

# A key: its PEM file, its JWK's x and its RFC 7638 thumbprint.
sub make_key {
    my ($dir, $name) = @_;
    my $pem = "$dir/$name.pem";
    system('openssl', 'genpkey', '-algorithm', 'ed25519', '-out', $pem) == 0
        or die 'openssl genpkey failed';
    system("openssl pkey -in $pem -pubout -outform DER -out $pem.pub") == 0
        or die 'openssl pkey failed';
    my $x = b64url(substr(slurp("$pem.pub"), -32));
    my $kid = b64url(sha256(qq({"crv":"Ed25519","kty":"OKP","x":"$x"})));
    return { pem => $pem, x => $x, kid => $kid };
}

# The three header fields of a request signed with $key under $keyid
sub sign {
    my ($dir, $key, $keyid, $path, $authority) = @_;
    my $now = time;
    $authority //= 'localhost';
    my $params = qq{("\@method" "\@authority" "\@path" }
               . qq{"signature-agent";key="sig1");created=} . ($now - 5)
               . ';expires=' . ($now + 300) . qq{;keyid="$keyid"}
               . ';tag="web-bot-auth"';
    my $base = qq{"\@method": GET\n"\@authority": $authority\n}
             . qq{"\@path": $path\n}
             . qq{"signature-agent";key="sig1": "https://agent.test"\n}
             . qq{"\@signature-params": $params};
    open my $fh, '>:raw', "$dir/base" or die $!;
    print $fh $base;
    close $fh;
    system('openssl', 'pkeyutl', '-sign', '-inkey', $key->{pem}, '-rawin',
           '-in', "$dir/base", '-out', "$dir/sig") == 0
        or die 'openssl pkeyutl failed';
    return {
        'Signature-Agent' => 'sig1="https://agent.test"',
        'Signature-Input' => "sig1=$params",
        'Signature'       => 'sig1=:' . encode_base64(slurp("$dir/sig"), '')
                             . ':',
    };
}

1;
