# nginx: robots_audit_enforce answers violations (and crawling while
# robots.txt is unreachable) with 403, judged once even when error_page
# redirects internally; inheritance of robots_audit / robots_audit_enforce.
use strict;
use warnings;
use Test::More;
use RA::Harness;

my $why = RA::Harness->skip_reason('nginx');
plan skip_all => $why if $why;

my $GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; '
              . '+http://www.google.com/bot.html)';
my $BROWSER = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 '
            . 'Firefox/128.0';

my $h = RA::Harness->new(
    server => 'nginx', workers => 2, ports => 2,
    http => <<'EOF2',
robots_audit on;
robots_audit_enforce on;

server {
    listen 127.0.0.1:%%PORT1%%;
    server_name down.test;
    root %%DIR%%/htdocs;
    # "return" answers in the rewrite phase, before any enforcement
    location = /robots.txt { return 500; }
}
EOF2
    server_conf => <<'EOF2',
error_page 403 /403.html;
location /open/ { robots_audit_enforce off; }
location /off/ { robots_audit off; }
EOF2
    files => {
        'htdocs/robots.txt' =>
            "User-agent: *\nDisallow: /private\nDisallow: /open/secret\n"
            . "Disallow: /off/\n",
        'htdocs/403.html'        => "refused by robots-audit\n",
        'htdocs/public.html'     => "public\n",
        'htdocs/private/x.html'  => "secret\n",
        'htdocs/open/secret.html' => "open secret\n",
        'htdocs/off/x.html'      => "off\n",
    },
);
$h->start;

sub get { my ($path, %o) = @_; return $h->get($path, ua => $GOOGLEBOT, %o) }

is get('/robots.txt')->{status}, 200, 'robots.txt is never refused';
my $r = get('/private/x.html');
is $r->{status}, 403, 'violation refused';
is $r->{content}, "refused by robots-audit\n", 'error_page served';
is get('/public.html')->{status}, 200, 'compliant request served';
is $h->get('/private/x.html', ua => $BROWSER)->{status}, 200,
    'browsers are not judged';
is get('/open/secret.html')->{status}, 200,
    'robots_audit_enforce off in a location: served';
is get('/off/x.html')->{status}, 200, 'robots_audit off: served';

my $j = $h->status_json;
my $g = $h->crawler_stats($j, 'localhost', 'Googlebot');
is $g->{requests}, 4, 'each request counted once (error_page included)';
is $g->{violation}, 2, 'refused and unrefused violations counted';
is $g->{compliant}, 1, 'compliant counted';
is $g->{robots_fetches}, 1, 'robots.txt fetch counted';
is $h->site_json($j, 'localhost')->{browser_requests}, 1,
    'browser counted once';
my @ra100 = $h->wait_for(sub {
    my @l = $h->error_log =~ /\[RA100\]/g; @l >= 1 ? @l : () });
is scalar @ra100, 1, 'one alert (rate limit)';

# robots.txt answered 500: crawling is refused as unreachable
is $h->get('/robots.txt', ua => $GOOGLEBOT, host => 'down.test',
           port => $h->port(1))->{status}, 500, 'robots.txt 500';
is $h->get('/public.html', ua => $GOOGLEBOT, host => 'down.test',
           port => $h->port(1))->{status}, 403,
    'crawling after a 500 robots.txt refused';
$g = $h->crawler_stats($h->status_json, 'down.test', 'Googlebot');
is $g->{unreachable}, 1, 'counted as unreachable';
is $g->{requests}, 2, 'each counted once';

unlike $h->error_log, qr/\[(emerg|crit|alert)\]|signal 11|exited on/,
    'no crash or emergency';
$h->stop;
done_testing;
