# Apache: RobotsAuditEnforce answers 403 to violations and to crawling
# after a 5xx robots.txt, counts each request once, never refuses
# robots.txt, and follows <Location> scopes.
use strict;
use warnings;
use Test::More;
use RA::Harness;

my $why = RA::Harness->skip_reason('apache');
plan skip_all => $why if $why;

my $GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; '
              . '+http://www.google.com/bot.html)';
my $BROWSER = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 '
            . 'Firefox/128.0';

for my $mpm (qw(event prefork)) {
    subtest "mpm $mpm" => sub { scenario($mpm) };
}
done_testing;

sub scenario {
    my ($mpm) = @_;
    my $dead = RA::Harness::free_port();
    my $h = RA::Harness->new(
        server => 'apache', mpm => $mpm, workers => 2,
        http => <<"EOF",
RobotsAudit On
RobotsAuditEnforce On
<VirtualHost 127.0.0.1:%%PORT%%>
    ServerName down.test
    DocumentRoot "%%DIR%%/htdocs"
    ProxyPass /robots.txt http://127.0.0.1:$dead/robots.txt
</VirtualHost>
EOF
        server_conf => <<'EOF',
    <Location /private/open>
        RobotsAuditEnforce Off
    </Location>
    <Location /private/unaudited>
        RobotsAudit Off
    </Location>
EOF
        files => {
            'htdocs/robots.txt'  => "User-agent: *\nDisallow: /private\n",
            'htdocs/page.html'   => "page\n",
            'htdocs/private/x'   => "secret\n",
            'htdocs/private/open/x' => "open\n",
            'htdocs/private/unaudited/x' => "unaudited\n",
        },
    );
    $h->start;

    is $h->get('/robots.txt', ua => $GOOGLEBOT)->{status}, 200,
        'robots.txt never refused';
    is $h->get('/page.html', ua => $GOOGLEBOT)->{status}, 200,
        'allowed: 200';
    is $h->get('/private/x', ua => $GOOGLEBOT)->{status}, 403,
        'violation: 403';
    is $h->get('/private/x', ua => $BROWSER)->{status}, 200,
        'browser: 200';
    is $h->get('/private/open/x', ua => $GOOGLEBOT)->{status}, 200,
        'RobotsAuditEnforce Off in a Location: served';
    is $h->get('/private/unaudited/x', ua => $GOOGLEBOT)->{status}, 200,
        'RobotsAudit Off in a Location: served';
    is $h->get('/nope/x', ua => $GOOGLEBOT)->{status}, 404,
        'allowed and missing: 404';

    my $j = $h->status_json;
    my $c = $h->crawler_stats($j, 'localhost', 'Googlebot');
    is $c->{requests}, 5, 'each request counted once (unaudited one not)';
    is $c->{violation}, 2, 'refused and unenforced violations';
    is $c->{compliant}, 2, 'compliant';
    is $c->{robots_fetches}, 1, 'robots.txt fetch';
    like $h->access_log, qr/ 403 "GET \/private\/x /, '403 in the access log';

    # crawling after a 5xx robots.txt is refused
    is $h->get('/robots.txt', ua => $GOOGLEBOT, host => 'down.test')
        ->{status}, 503, '5xx robots.txt';
    is $h->get('/page.html', ua => $GOOGLEBOT, host => 'down.test')
        ->{status}, 403, 'crawling after 5xx: 403';
    $j = $h->status_json;
    is $h->crawler_stats($j, 'down.test', 'Googlebot')->{unreachable}, 1,
        'counted unreachable';
    my $log = $h->wait_for(sub {
        my $l = $h->error_log; $l =~ /RA101/ ? $l : '' });
    like $log, qr/\[RA100\].*uri="\/private\/x"/, 'alert for the refused one';
    like $log, qr/\[RA101\]/, 'alert for unreachable';
    $h->stop;
}
