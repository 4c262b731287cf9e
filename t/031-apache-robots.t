# SPDX-License-Identifier: BSD-2-Clause
# Apache: robots.txt as crawlers get it, whatever produced the answer: a
# static file, a proxied backend, a RewriteRule, an ErrorDocument, a
# Redirect, a dead backend (5xx, then crawling is "unreachable"), and the
# configured RobotsAuditRobotsFile as the initial version.
use strict;
use warnings;
use Test::More;
use JSON::PP;
use RA::Harness;

my $why = RA::Harness->skip_reason('apache');
plan skip_all => $why if $why;

my $GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; '
              . '+http://www.google.com/bot.html)';

my $STATIC  = "User-agent: *\nDisallow: /private\n";
my $BACKEND = "# from the backend\nUser-agent: *\nDisallow: /from-backend\n";
my $ALT     = "User-agent: *\nDisallow: /alt\n";
my $INITIAL = "User-agent: *\nDisallow: /secret\n";

for my $mpm (qw(event prefork)) {
    subtest "mpm $mpm" => sub { scenario($mpm) };
}
done_testing;

sub vhost {
    my ($name, $body) = @_;
    return <<"EOF";
<VirtualHost 127.0.0.1:%%PORT%%>
    ServerName $name
    DocumentRoot "%%DIR%%/htdocs"
$body
</VirtualHost>
EOF
}

sub scenario {
    my ($mpm) = @_;
    my $dead = RA::Harness::dead_port();     # nothing listens there
    my $h = RA::Harness->new(
        server => 'apache', mpm => $mpm, workers => 2, ports => 2,
        # this machine is Googlebot: its answers are the sites' (one
        # unverified client's 503 or 404 would be its own)
        http => join('', "RobotsAudit On\nRobotsAuditAlertInterval 1ms\n"
                       . "RobotsAuditIPRanges \"%%DIR%%/googlebot.json\"\n",
            vhost('proxied.test',
                "    ProxyPass /robots.txt http://127.0.0.1:%%PORT1%%/robots.txt"),
            vhost('down.test',
                "    ProxyPass /robots.txt http://127.0.0.1:$dead/robots.txt"),
            vhost('moved.test',
                "    Redirect 301 /robots.txt http://localhost/robots.txt"),
            vhost('rewrite.test',
                "    RewriteEngine On\n    RewriteRule ^/robots\\.txt\$ /alt/robots.txt [L]"),
            vhost('errdoc.test',
                "    DocumentRoot \"%%DIR%%/empty\"\n"
              . "    Alias /errors/ \"%%DIR%%/errors/\"\n"
              . "    ErrorDocument 404 /errors/404.txt"),
            vhost('initial.test',
                "    DocumentRoot \"%%DIR%%/empty\"\n"
              . "    RobotsAuditRobotsFile \"%%DIR%%/initial-robots.txt\""),
            <<'EOF'),
<VirtualHost 127.0.0.1:%%PORT1%%>
    ServerName backend.test
    DocumentRoot "%%DIR%%/backend"
    RobotsAudit Off
</VirtualHost>
<Directory "%%DIR%%">
    Require all granted
</Directory>
EOF
        files => {
            'htdocs/robots.txt'     => $STATIC,
            'htdocs/alt/robots.txt' => $ALT,
            'htdocs/page.html'      => "page\n",
            'backend/robots.txt'    => $BACKEND,
            'errors/404.txt'        => "no robots here\n",
            'empty/.keep'           => '',
            'initial-robots.txt'    => $INITIAL,
            'googlebot.json'        =>
                '{"prefixes":[{"ipv4Prefix":"127.0.0.0/8"}]}',
        },
    );
    $h->start;

    # the configured file counts before anything is captured
    $h->get('/secret/a', ua => $GOOGLEBOT, host => 'initial.test');
    my $j = $h->status_json;
    my $s = $h->site_json($j, 'initial.test');
    is $s->{robots}{status}, 200, 'initial version recorded';
    is $s->{robots}{bytes}, length $INITIAL, 'initial version size';
    is $h->crawler_stats($j, 'initial.test', 'Googlebot')->{violation}, 1,
        'initial version judges';

    my $r = $h->get('/robots.txt', ua => $GOOGLEBOT);
    is $r->{content}, $STATIC, 'static robots.txt';
    $r = $h->get('/robots.txt', ua => $GOOGLEBOT, host => 'proxied.test');
    is $r->{content}, $BACKEND, 'proxied robots.txt';
    $r = $h->get('/robots.txt', ua => $GOOGLEBOT, host => 'down.test');
    is $r->{status}, 503, 'dead backend: 503';
    $r = $h->get('/robots.txt', ua => $GOOGLEBOT, host => 'moved.test');
    is $r->{status}, 301, 'redirect';
    $r = $h->get('/robots.txt', ua => $GOOGLEBOT, host => 'rewrite.test');
    is $r->{content}, $ALT, 'rewritten robots.txt';
    $r = $h->get('/robots.txt', ua => $GOOGLEBOT, host => 'errdoc.test');
    is $r->{status}, 404, 'error document';
    # a HEAD and a conditional GET carry no body: no new version
    $h->get('/robots.txt', ua => $GOOGLEBOT, method => 'HEAD');
    $h->get('/robots.txt', ua => $GOOGLEBOT, headers => {
        'If-Modified-Since' => 'Sun, 01 Jan 2090 00:00:00 GMT' });

    $j = $h->status_json;
    $s = $h->site_json($j, 'localhost');
    is $s->{robots}{status}, 200, 'static: status';
    is $s->{robots}{bytes}, length $STATIC, 'static: size';
    is $s->{robots}{versions_24h}, 1, 'HEAD and 304 made no version';
    $s = $h->site_json($j, 'proxied.test');
    is $s->{robots}{status}, 200, 'proxied: status';
    is $s->{robots}{bytes}, length $BACKEND, 'proxied: size';
    ok !$h->site_json($j, 'backend.test'), 'backend vhost (Off) not counted';
    $s = $h->site_json($j, 'down.test');
    is $s->{robots}{status}, 503, 'dead backend: 503 recorded';
    is $s->{robots}{consecutive_failures}, 1, 'dead backend: a failure';
    ok defined $s->{robots}{unreachable_since}, 'dead backend: unreachable';
    is $h->site_json($j, 'moved.test')->{robots}{status}, 301,
        'Redirect recorded';
    is $h->site_json($j, 'rewrite.test')->{robots}{bytes}, length $ALT,
        'RewriteRule: the rewritten file recorded';
    $s = $h->site_json($j, 'errdoc.test');
    is $s->{robots}{status}, 404, 'ErrorDocument: status 404';
    is $s->{robots}{answer}, 'allow-all', 'ErrorDocument: 404 allows all';

    # rules of what was captured, not of the configured file
    $h->get('/from-backend/x', ua => $GOOGLEBOT, host => 'proxied.test');
    $h->get('/private/x', ua => $GOOGLEBOT, host => 'proxied.test');
    $h->get('/alt/x', ua => $GOOGLEBOT, host => 'rewrite.test');
    # crawling after a 5xx robots.txt: unreachable, RA101
    $h->get('/page.html', ua => $GOOGLEBOT, host => 'down.test');

    $j = $h->status_json;
    my $c = $h->crawler_stats($j, 'proxied.test', 'Googlebot');
    is $c->{violation}, 1, 'proxied rules: /from-backend disallowed';
    is $c->{compliant}, 1, 'proxied rules: /private allowed there';
    is $h->crawler_stats($j, 'rewrite.test', 'Googlebot')->{violation}, 1,
        'rewritten rules judge';
    $c = $h->crawler_stats($j, 'down.test', 'Googlebot');
    is $c->{unreachable}, 1, 'crawled after 5xx: unreachable';
    is $c->{robots_fetches}, 1, 'the 5xx fetch counted';
    my $log = $h->wait_for(sub {
        my $l = $h->error_log; $l =~ /RA101/ ? $l : '' });
    like $log, qr/\[RA101\] unreachable site="down\.test" crawler="Googlebot"/,
        'RA101 in the error log';
    my @alerts = map { decode_json($_) } split /\n/, $h->alert_log;
    ok((grep { $_->{tag} eq 'RA101' && $_->{site} eq 'down.test' } @alerts),
        'RA101 in the alert log');

    # a body over 500 KiB: truncated, size counted whole
    my $big = "User-agent: *\nDisallow: /big\n" . ("# padding line\n" x 40000);
    $h->write_file('htdocs/robots.txt', $big);
    $h->get('/robots.txt', ua => $GOOGLEBOT);
    $j = $h->status_json;
    $s = $h->site_json($j, 'localhost');
    is $s->{robots}{bytes}, length $big, 'large file: full size';
    ok $s->{robots}{truncated}, 'large file: truncated';
    is $s->{robots}{versions_24h}, 2, 'a new version';

    unlike $h->error_log, qr/\[(emerg|crit|alert)\]|AH00052/,
        'no crash or emergency';
    $h->stop;
}
