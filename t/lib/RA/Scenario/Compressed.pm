# SPDX-License-Identifier: BSD-2-Clause
package RA::Scenario::Compressed;

# Compressed robots.txt, on nginx and Apache alike: a crawler
# sends Accept-Encoding: gzip, br and gets robots.txt compressed, by the
# server itself (nginx gzip on, Apache's mod_deflate as Debian enables
# it), as a precompressed file (nginx gzip_static, Apache AddEncoding), or
# from a backend that answers gzip, br or "gzip, br" (a core-Perl upstream
# behind proxy_pass / ProxyPass).  Each site's rules must be the file's,
# and a disallowed path a violation.  A backend's corrupt gzip keeps the
# last good version in force and shows the finding.  The status page says
# which coding each capture saw (content_encoding: null when the server
# compressed after the capture) and both sizes.
#
#   RA::Scenario::Compressed->run($server);

use strict;
use warnings;

use IO::Compress::Gzip qw(gzip $GzipError);
use Test::More;
use RA::Scenario qw($GOOGLEBOT run_variants);
use RA::Upstream;
use Digest::SHA ();

# two groups, three rules; each site gets its own first line
sub rules {
    my ($site) = @_;
    return "# $site\nUser-agent: *\nDisallow: /private\n\n"
         . "User-agent: Googlebot\nDisallow: /nogoogle\n"
         . "Allow: /nogoogle/ok\n";
}

sub gz {
    my ($plain) = @_;
    gzip(\$plain => \my $out, Minimal => 1) or die "gzip: $GzipError";
    return $out;
}

# br with Debian's brotli command; undef when it is not installed
sub br {
    my ($dir, $plain) = @_;
    return undef unless grep { -x "$_/brotli" } split /:/, $ENV{PATH};
    my $in = "$dir/br-in.txt";
    open my $fh, '>:raw', $in or die "$in: $!";
    print $fh $plain;
    close $fh;
    unlink "$in.br";
    system('brotli', '-q', '11', '-o', "$in.br", $in) == 0 or return undef;
    open $fh, '<:raw', "$in.br" or return undef;
    local $/;
    my $out = <$fh>;
    close $fh;
    return $out;
}

my $HDR = "Content-Type: text/plain\r\n";

sub run {
    my ($class, $server, %o) = @_;
    run_variants($server, sub { scenario(@_, %o) });
    done_testing;
}

sub scenario {
    my ($ad, $v, %o) = @_;
    my $up = RA::Upstream->new;
    my $updir = $up->dir;
    my $upurl = 'http://127.0.0.1:' . $up->port;

    my $brotli = br($updir, 'x');
    # sent: the Content-Encoding the crawler gets; what the capture sees
    # is the adapter's to say (where its filter sits)
    my @cases = (
        { site => 'server-gzip.test', kind => 'server_gzip', sent => 'gzip' },
        { site => 'server-gzip-set.test', kind => 'server_gzip_set',
          sent => 'gzip' },
        { site => 'precompressed.test', kind => 'precompressed',
          sent => 'gzip' },
        { site => 'proxy-gzip.test', kind => 'proxy', coding => 'gzip',
          sent => 'gzip' },
        { site => 'proxy-br.test', kind => 'proxy', coding => 'br',
          sent => 'br', br => 1 },
        { site => 'proxy-stacked.test', kind => 'proxy',
          coding => 'gzip, br', sent => 'gzip, br', br => 1 },
    );

    my (%files, @sites);
    for my $c (@cases) {
        (my $root = $c->{site}) =~ s/\.test$//;
        $c->{root} = "%%DIR%%/$root";
        $c->{plain} = rules($c->{site});
        my ($frag, $seen) = $ad->compressed_site(
            name => $c->{site}, kind => $c->{kind}, root => $c->{root},
            upstream => "$upurl/$root.robots", coding => $c->{coding});
        $c->{seen} = $seen;
        if (!defined $frag) {
            $c->{skip} = "no $c->{kind} on " . $ad->server;
            next;
        }
        if ($c->{br} && !defined $brotli) {
            $c->{skip} = 'no brotli command (apt-get install brotli)';
            next;
        }
        push @sites, $frag;
        $files{"$root/.keep"} = '';
        if ($c->{kind} =~ /^server_gzip/) {
            $files{"$root/robots.txt"} = $c->{plain};
        } elsif ($c->{kind} eq 'precompressed') {
            $c->{raw} = gz($c->{plain});            # written raw below
            $c->{file} = "$root/robots.txt.gz";
        } else {
            my $body = $c->{plain};
            for my $k (split /,\s*/, $c->{coding}) {
                $body = $k eq 'gzip' ? gz($body) : br($updir, $body);
            }
            $c->{raw} = $body;
            $up->put("$root.robots", $body,
                     "${HDR}Content-Encoding: $c->{coding}\r\n");
        }
    }

    # a backend whose gzip goes bad after a good answer
    my $corrupt = { site => 'corrupt.test', plain => rules('corrupt.test') };
    my ($frag) = $ad->compressed_site(
        name => 'corrupt.test', kind => 'proxy', root => '%%DIR%%/corrupt',
        upstream => "$upurl/corrupt.robots", coding => 'gzip');
    push @sites, $frag;
    $files{'corrupt/.keep'} = '';
    $up->put('corrupt.robots', gz($corrupt->{plain}),
             "${HDR}Content-Encoding: gzip\r\n");

    # robots.txt.gz served as /robots.txt without Content-Encoding: the
    # capture sees gzip bytes as text, which lint says it is (binary)
    my $plaingz = { site => 'plaingz.test', plain => rules('plaingz.test') };
    ($frag) = $ad->compressed_site(
        name => 'plaingz.test', kind => 'proxy', root => '%%DIR%%/plaingz',
        upstream => "$upurl/plaingz.robots", coding => undef);
    push @sites, $frag;
    $files{'plaingz/.keep'} = '';
    $up->put('plaingz.robots', gz($plaingz->{plain}), $HDR);

    my %global = $ad->compressed_global;
    my $h = $ad->harness($v, {
            audit     => 1,
            # this machine is Googlebot: its answers are the sites'
            ip_ranges => [ '%%DIR%%/ranges/googlebot.json' ],
            http      => join('', $global{http} // '', @sites),
        },
        files => { 'htdocs/robots.txt' => "User-agent: *\nDisallow:\n",
                   'ranges/googlebot.json' =>
                       '{"prefixes":[{"ipv4Prefix":"127.0.0.0/8"}]}',
                   %files },
        ($global{modules} ? (modules => $global{modules}) : ()),
    );
    for my $c (grep { $_->{file} } @cases) {
        $h->write_file($c->{file}, $c->{raw}, 1);
    }
    $h->start;

    my $fetch = sub {
        my ($site) = @_;
        return $h->get('/robots.txt', ua => $GOOGLEBOT, host => $site,
                       headers => { 'Accept-Encoding' => 'gzip, br' });
    };

    for my $c (@cases) {
        subtest $c->{site} => sub {
            plan skip_all => $c->{skip} if $c->{skip};
            my $r = $fetch->($c->{site});
            is $r->{status}, 200, 'robots.txt served';
            is $r->{headers}{'content-encoding'}, $c->{sent},
                "sent with Content-Encoding: $c->{sent}";
            my $s = $h->site_json($h->status_json, $c->{site});
            ok $s, 'the site is on the status page' or return;
            my $rb = $s->{robots};
            is $rb->{groups}, 2, 'its groups, decoded';
            is $rb->{rules}, 3, 'its rules, decoded';
            is $rb->{errors}, 0, 'no lint error';
            is $rb->{undecodable}, undef, 'decodable';
            is $rb->{content_encoding}, $c->{seen},
                'the capture saw ' . ($c->{seen} // 'plain bytes');
            is $rb->{decoded_bytes}, length $c->{plain}, 'decoded size';
            my $raw = defined $c->{raw} ? $c->{raw} : $r->{content};
            is $rb->{bytes},
                defined $c->{seen} ? length $raw : length $c->{plain},
                'size as the capture saw it';
            $h->get('/nogoogle/x', ua => $GOOGLEBOT, host => $c->{site});
            $h->get('/nogoogle/ok', ua => $GOOGLEBOT, host => $c->{site});
            my $g = $h->crawler_stats($h->status_json, $c->{site},
                                      'Googlebot');
            is $g->{violation}, 1, 'a disallowed path is a violation';
            is $g->{compliant}, 1, 'an allowed one compliant';
            note "$c->{site}: the capture saw "
               . ($c->{seen} // 'plain bytes') . ", $rb->{bytes} bytes";
        };
    }

    subtest 'corrupt gzip keeps the last good version' => sub {
        my $site = 'corrupt.test';
        is $fetch->($site)->{status}, 200, 'good gzip served';
        my $rb = $h->site_json($h->status_json, $site)->{robots};
        is $rb->{rules}, 3, 'its rules';

        my $bad = gz($corrupt->{plain});
        substr($bad, length($bad) / 2, 4) ^= "\x55\xaa\x55\xaa";
        $up->put('corrupt.robots', $bad,
                 "${HDR}Content-Encoding: gzip\r\n");
        is $fetch->($site)->{status}, 200, 'corrupt gzip served';
        my $s = $h->site_json($h->status_json, $site);
        $rb = $s->{robots};
        is $rb->{rules}, 3, 'the rules stay in force';
        is $rb->{groups}, 2, 'the groups too';
        is $rb->{status}, 200, 'the last answer: 200';
        is $rb->{undecodable}{content_encoding}, 'gzip',
            'the site is undecodable: gzip';
        is $rb->{errors}, 1, 'one lint error';
        like $h->get("$h->{status_path}?site=$site")->{content},
            qr/health h-warn">robots\.txt could not be decoded \(Content-Encoding: gzip\)/,
            'amber badge';
        $h->get('/nogoogle/y', ua => $GOOGLEBOT, host => $site);
        my $g = $h->crawler_stats($h->status_json, $site, 'Googlebot');
        is $g->{violation}, 1, 'still judged by the last good version';

        my $html = $h->get($h->{status_path})->{content};
        like $html, qr/\Q$site\E<span class="health h-bad">1 crawler ignores robots\.txt</,
            '... then the red badge of a crawler that ignores robots.txt';
        like $html, qr/robots\.txt sent with Content-Encoding (?:'|&#39;)gzip(?:'|&#39;) that could not be decoded.*<code>content-encoding<\/code>/s,
            'the lint finding';
        my $log = $h->wait_for(sub {
            my $l = $h->error_log; $l =~ /RA202/ ? $l : '' });
        like $log, qr/\[RA202\] site="corrupt\.test" robots\.txt sent with Content-Encoding "gzip" could not be decoded \(corrupt gzip data\): the previous version stays in force/,
            'RA202 in the error log';

        # fixed: decoded again
        $up->put('corrupt.robots', gz($corrupt->{plain} . "Disallow: /z\n"),
                 "${HDR}Content-Encoding: gzip\r\n");
        $fetch->($site);
        $rb = $h->site_json($h->status_json, $site)->{robots};
        is $rb->{undecodable}, undef, 'decodable again';
        is $rb->{rules}, 4, 'the new version';
        is $rb->{errors}, 0, 'no lint error';

        # a 5xx episode: the answer as it was, the version in force apart
        my $good = $corrupt->{plain} . "Disallow: /z\n";
        my $page = "<html><body>down for maintenance</body></html>\n";
        $up->put('corrupt.robots', $page,
                 "Content-Type: text/html\r\n", '503 Service Unavailable');
        is $fetch->($site)->{status}, 503,
            'robots.txt answers 503 (to verified Googlebot: the site\'s)';
        $rb = $h->site_json($h->status_json, $site)->{robots};
        is $rb->{status}, 503, 'last answer: 503';
        is $rb->{answer}, 'unreachable', '... read as unreachable';
        like $rb->{content_type}, qr{^text/html}, '... its own Content-Type';
        is $rb->{bytes}, length $page, '... and its own size';
        my $f = $rb->{in_force};
        ok $f, 'the version in force is shown apart' or return;
        is $f->{status}, 200, 'in force: the last good answer';
        is $f->{decoded_bytes}, length $good, 'in force: its size';
        is $f->{sha256}, Digest::SHA::sha256_hex($good),
            'in force: its SHA-256';
        like $f->{since}, qr/^\d{4}-\d\d-\d\dT/, 'in force: since when';
        is $rb->{rules}, 4, 'its rules';
        $html = $h->get($h->{status_path})->{content};
        like $html, qr{<dt>last answer</dt><dd>503 <span class="muted">\(unreachable\)</span>, <code>text/html},
            'the page: the last answer as it was';
        like $html, qr{<dt>in force</dt><dd>200 <span class="muted">\(rules\)</span> since .*sha256 <code title="[0-9a-f]{64}">[0-9a-f]{12}</code>},
            'the page: the version in force';
    };

    subtest 'gzip bytes without Content-Encoding are binary' => sub {
        my $site = 'plaingz.test';
        my $r = $fetch->($site);
        is $r->{status}, 200, 'robots.txt served';
        # Apache's mod_deflate (text/plain) compresses them once more:
        # decoded, they are the gzip bytes again
        my $sent = $r->{headers}{'content-encoding'};
        ok !defined $sent || $sent eq 'gzip',
            'sent as is, or gzipped once more by the server';
        my $rb = $h->site_json($h->status_json, $site)->{robots};
        is $rb->{content_encoding}, $sent, 'the capture saw the same';
        is $rb->{decoded_bytes}, length gz($plaingz->{plain}),
            'decoded: the gzip bytes';
        is $rb->{rules}, 0, 'crawlers find no rules in it';
        is $rb->{errors}, 1, 'one lint error';
        is $rb->{warnings}, 0, 'and no screenful of warnings';
        my $html = $h->get($h->{status_path})->{content};
        like $html, qr/the file is gzip-compressed data \(it starts with 1F 8B\).*<code>binary<\/code>/s,
            'the lint finding says what it is';
    };

    unlike $h->error_log, $ad->crash_re, 'no crash or emergency';
    $h->stop;
    $up->stop;
}

1;
