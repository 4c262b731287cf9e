# SPDX-License-Identifier: BSD-2-Clause
package RA::Scenario::Sitemaps;

# Sitemaps, on nginx and Apache alike: robots.txt lists three; a crawler
# fetches robots.txt, then a plain sitemap listing a URL robots.txt
# disallows and a URL on another host, and a gzip sitemap (a .xml.gz
# file) listing a disallowed URL.  The status page's JSON lists the three
# with the crawler's fetches and the lint of each answer (the deciding
# rule and its line), the third never fetched; text and Prometheus say
# so too; a browser's fetch of a sitemap changes nothing.
#
#   RA::Scenario::Sitemaps->run($server);

use strict;
use warnings;

use IO::Compress::Gzip qw(gzip $GzipError);
use Test::More;
use RA::Scenario qw($GOOGLEBOT $BROWSER run_variants);

my $ROBOTS = "User-agent: *\nDisallow: /private/\n"
           . "Sitemap: http://localhost/sitemap.xml\n"
           . "Sitemap: http://localhost/b.xml.gz\n"
           . "Sitemap: http://localhost/never.xml\n";
my $PLAIN = qq(<?xml version="1.0" encoding="UTF-8"?>\n)
          . qq(<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n)
          . qq(<url><loc>http://localhost/</loc></url>\n)
          . qq(<url><loc>http://localhost/private/a</loc></url>\n)
          . qq(<url><loc>http://elsewhere.example/x</loc></url>\n)
          . qq(</urlset>\n);
my $ZIPPED = qq(<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">)
           . qq(<url><loc>http://localhost/ok</loc></url>)
           . join('', map { qq(<url><loc>http://localhost/p$_</loc></url>) }
                      1 .. 200)
           . qq(<url><loc>http://localhost/private/b</loc></url></urlset>);

sub run {
    my ($class, $server) = @_;
    run_variants($server, sub { scenario(@_) });
    done_testing;
}

sub sitemap_of {
    my ($site, $url) = @_;
    for my $m (@{ $site->{sitemaps} // [] }) {
        return $m if $m->{url} eq $url;
    }
    return undef;
}

sub scenario {
    my ($ad, $v) = @_;
    my $gz;
    gzip(\$ZIPPED => \$gz) or die "gzip: $GzipError";
    my $h = $ad->harness($v, { audit => 1 },
        files => {
            'htdocs/robots.txt'  => $ROBOTS,
            'htdocs/sitemap.xml' => $PLAIN,
            'htdocs/b.xml.gz'    => $gz,
            'htdocs/page.html'   => "page\n",
        },
    );
    $h->start;
    my $site = sub { $h->site_json($h->status_json, 'localhost') };

    is $h->get('/robots.txt', ua => $GOOGLEBOT)->{status}, 200,
        'robots.txt fetched by a crawler';
    my $s = $site->();
    is scalar @{ $s->{sitemaps} }, 3, 'its three Sitemap: lines listed';
    is $s->{sitemap_lines}, 3, '... all of them';
    ok !sitemap_of($s, 'http://localhost/sitemap.xml')->{fetched},
        '... none fetched yet';

    is $h->get('/sitemap.xml', ua => $BROWSER)->{status}, 200,
        'a browser fetches the sitemap';
    is $h->get('/page.html', ua => $GOOGLEBOT)->{status}, 200,
        'a crawler fetches a page';
    $s = $site->();
    ok !sitemap_of($s, 'http://localhost/sitemap.xml')->{fetched},
        '... neither is a crawler\'s fetch of a sitemap';

    my $r = $h->get('/sitemap.xml', ua => $GOOGLEBOT);
    is $r->{status}, 200, 'the crawler fetches the plain sitemap';
    is $h->get('/b.xml.gz', ua => $GOOGLEBOT)->{status}, 200,
        '... and the gzip one';

    my $m;
    $h->wait_for(sub {
        $m = sitemap_of($site->(), 'http://localhost/b.xml.gz');
        $m && $m->{linted};
    });
    $s = $site->();
    $m = sitemap_of($s, 'http://localhost/sitemap.xml');
    ok $m->{listed} && $m->{fetched}, 'the plain sitemap: listed, fetched';
    is $m->{fetches}, 1, '... once (the browser not counted)';
    is_deeply $m->{crawlers}, ['Googlebot'], '... by Googlebot';
    is $m->{status}, 200, '... status 200';
    is $m->{size}, length $PLAIN, '... its size';
    ok defined $m->{first_fetch} && defined $m->{last_fetch},
        '... first and last fetch';
    is $m->{kind}, 'urlset', '... a urlset';
    ok !$m->{gzip}, '... not gzip';
    is $m->{urls}, 3, '... 3 URLs';
    is $m->{findings}{disallowed}, 3,
        '... one URL disallowed for *, Googlebot and Bingbot';
    is $m->{findings}{'other-host'}, 1, '... one URL on another host';
    my ($dis) = grep { $_->{kind} eq 'disallowed' } @{ $m->{examples} };
    is $dis->{url}, 'http://localhost/private/a', '... the disallowed URL';
    is $dis->{rule}, 'Disallow: /private/', '... the deciding rule';
    is $dis->{rule_line}, 2, '... its line in robots.txt';
    is $dis->{line}, 4, '... and its line in the sitemap';
    my ($other) = grep { $_->{kind} eq 'other-host' } @{ $m->{examples} };
    is $other->{url}, 'http://elsewhere.example/x', '... the other host';

    $m = sitemap_of($s, 'http://localhost/b.xml.gz');
    ok $m->{fetched}, 'the gzip sitemap: fetched';
    ok $m->{gzip}, '... gzip';
    is $m->{size}, length $gz, '... its size as served';
    is $m->{urls}, 202, '... 202 URLs';
    is $m->{findings}{disallowed}, 3, '... one URL disallowed';
    ($dis) = grep { $_->{kind} eq 'disallowed' } @{ $m->{examples} };
    is $dis->{url}, 'http://localhost/private/b', '... that one';
    is $dis->{rule_line}, 2, '... by line 2';

    $m = sitemap_of($s, 'http://localhost/never.xml');
    ok $m->{listed} && !$m->{fetched}, 'the third: listed, never fetched';
    is $m->{status}, undef, '... no status';

    is $h->get('/sitemap.xml', ua => $BROWSER)->{status}, 200,
        'a browser fetches it again';
    is sitemap_of($site->(), 'http://localhost/sitemap.xml')->{fetches}, 1,
        '... which changes nothing';

    my $t = $h->get("$h->{status_path}?format=text")->{content};
    like $t, qr/sitemaps \(3 Sitemap: lines in robots\.txt\)/,
        'the text page lists the sitemaps';
    like $t, qr{http://localhost/never\.xml: never fetched},
        '... and the one never fetched';
    like $h->get($h->{status_path})->{content}, qr{<h3>Sitemaps</h3>},
        'the HTML page has a sitemaps part';
    my $p = $h->get("$h->{status_path}?format=prometheus")->{content};
    like $p, qr{robots_audit_sitemap_fetches_total\{site="localhost",sitemap="http://localhost/sitemap\.xml"\} 1},
        'Prometheus: the fetches';
    like $p, qr{robots_audit_sitemap_findings\{site="localhost",sitemap="http://localhost/b\.xml\.gz",kind="disallowed"\} 3},
        '... and the findings';
    unlike $h->error_log, $ad->crash_re, 'no crash';
    $h->stop;
}

1;
