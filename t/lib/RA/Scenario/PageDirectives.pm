# SPDX-License-Identifier: BSD-2-Clause
package RA::Scenario::PageDirectives;

# Page directives from the answers crawlers get, on nginx and Apache
# alike (docs/page-directives.md): noindex in an X-Robots-Tag header (a
# backend's, passed on by the proxy) and in a robots meta tag (a static
# file, and a backend's gzip-coded page), under a path robots.txt allows
# and one it disallows, fetched by Googlebot.  The status page counts
# them per path prefix (sites[].page_directives) and lists the conflicts
# (sites[].conflicts[]): noindex-disallowed under the disallowed path,
# header-meta where the header and the meta tag disagree; Prometheus has
# robots_audit_conflicts{site,kind}.  The same pages fetched by a browser
# change nothing: its answers are not read.
#
#   RA::Scenario::PageDirectives->run($server);

use strict;
use warnings;

use Test::More;
use RA::Scenario qw($GOOGLEBOT $BROWSER run_variants);
use RA::Scenario::Compressed ();
use RA::Upstream;

my $ROBOTS = "User-agent: *\nDisallow: /private/\n";
my $META_NOINDEX = "<!doctype html><html><head><title>t</title>\n"
                 . qq(<meta name="robots" content="noindex">\n)
                 . "</head><body>page</body></html>\n";
my $META_NOFOLLOW = "<html><head>\n"
                  . qq(<meta name="robots" content="nofollow">\n)
                  . "</head><body>page</body></html>\n";
my $PLAIN = "<html><head><title>no meta</title></head><body>x</body></html>\n";
my $HTML = "Content-Type: text/html; charset=utf-8\r\n";

# the backend under /open/up/ and /private/up/, in each server's words
sub conf {
    my ($server, $url) = @_;
    return join '', map {
        $server eq 'nginx'
            ? "location /$_/up/ { proxy_pass $url/; }\n"
            : "    ProxyPass /$_/up/ $url/\n"
    } qw(open private);
}

sub run {
    my ($class, $server) = @_;
    run_variants($server, sub { scenario(@_) });
    done_testing;
}

sub scenario {
    my ($ad, $v) = @_;
    my $up = RA::Upstream->new;
    my $url = 'http://127.0.0.1:' . $up->port;
    $up->put('hdr.html', $PLAIN, "${HTML}X-Robots-Tag: noindex\r\n");
    $up->put('both.html', $META_NOFOLLOW, "${HTML}X-Robots-Tag: noindex\r\n");
    $up->put('gz.html', RA::Scenario::Compressed::gz($META_NOINDEX),
             "${HTML}Content-Encoding: gzip\r\n");

    my $h = $ad->harness($v, {
            audit       => 1,
            server_conf => conf($ad->server, $url),
        },
        files => {
            'htdocs/robots.txt'          => $ROBOTS,
            'htdocs/open/meta.html'      => $META_NOINDEX,
            'htdocs/private/meta.html'   => $META_NOINDEX,
        },
    );
    $h->start;

    my @pages = qw(/open/meta.html /private/meta.html /open/up/hdr.html
                   /private/up/hdr.html /open/up/both.html /open/up/gz.html
                   /private/up/gz.html);
    my $get = sub {
        my ($path, $ua) = @_;
        return $h->get($path, ua => $ua,
                       headers => { 'Accept-Encoding' => 'gzip' });
    };

    is $get->('/robots.txt', $GOOGLEBOT)->{status}, 200, 'robots.txt';
    for my $p (@pages) {
        is $get->($p, $GOOGLEBOT)->{status}, 200, "Googlebot gets $p";
    }
    my $r = $get->('/private/up/gz.html', $GOOGLEBOT);
    is $r->{headers}{'content-encoding'}, 'gzip', '... coded as served';

    my $pd;
    my $site = $h->wait_for(sub {
        my $s = $h->site_json($h->status_json, 'localhost');
        $pd = $s && $s->{page_directives};
        return $pd && $pd->{answers} >= 8 ? $s : undef;
    });
    ok $site, 'the site has page directives';
    my %px = map { $_->{prefix} => $_ } @{ $pd->{prefixes} // [] };
    is $pd->{answers}, 8, 'every answer with a directive counted';
    is $pd->{html_scanned}, 8, '... each HTML head read once';
    is $px{'/open/'}{directives}{noindex}, 4,
        'noindex under /open/: header, meta, gzip-coded meta';
    is $px{'/open/'}{directives}{nofollow}, 1, '... nofollow in the meta';
    is $px{'/private/'}{directives}{noindex}, 4, 'noindex under /private/';

    my %c;
    for my $c (@{ $site->{conflicts} // [] }) {
        $c{"$c->{kind} $c->{crawler} $c->{path}"} = $c;
    }
    for my $p (qw(/private/meta.html /private/up/hdr.html
                  /private/up/gz.html))
    {
        ok $c{"noindex-disallowed * $p"},
            "noindex-disallowed: $p (robots.txt keeps crawlers out)";
        ok $c{"noindex-disallowed Googlebot $p"},
            '... and for the crawler that got it';
    }
    is $c{'noindex-disallowed * /private/up/gz.html'}{count}, 2,
        '... counted per fetch';
    like $c{'noindex-disallowed * /private/meta.html'}{first_seen} // '',
        qr/^\d{4}-\d\d-\d\dT/, '... with first_seen';
    ok !grep({ /^noindex-disallowed .* \/open\// } keys %c),
        'no conflict under the allowed path';
    is_deeply $c{'header-meta * /open/up/both.html'}{directives},
        [ 'noindex', 'nofollow' ], 'header-meta: header and meta disagree';
    is $pd->{conflicts_total}{'noindex-disallowed'}, 8,
        'conflicts_total by kind';

    my $prom = $h->get("$h->{status_path}?format=prometheus")->{content};
    like $prom,
        qr/^robots_audit_conflicts\{site="localhost",kind="noindex-disallowed"\} 8$/m,
        'Prometheus: robots_audit_conflicts{kind="noindex-disallowed"}';
    like $prom,
        qr/^robots_audit_conflicts\{site="localhost",kind="header-meta"\} 2$/m,
        '... {kind="header-meta"}';
    like $h->get($h->{status_path})->{content}, qr/Page directives/,
        'the status page has a page directives section';

    # a browser's answers are not read
    for my $p (@pages) {
        is $get->($p, $BROWSER)->{status}, 200, "a browser gets $p";
    }
    my $after = $h->site_json($h->status_json, 'localhost');
    is $after->{page_directives}{answers}, 8, '... nothing counted';
    is $after->{page_directives}{html_scanned}, 8, '... nothing scanned';
    is scalar @{ $after->{conflicts} }, scalar @{ $site->{conflicts} },
        '... no conflict';
    unlike $h->error_log, $ad->crash_re, 'no crash';
}

1;
