# SPDX-License-Identifier: BSD-2-Clause
# nginx: the JSON alert log.  Inherited and turned off per location,
# reopened by nginx -s reopen (log rotation); the text status format.
use strict;
use warnings;
use Test::More;
use JSON::PP;
use RA::Harness;

my $why = RA::Harness->skip_reason('nginx');
plan skip_all => $why if $why;

my $GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; '
              . '+http://www.google.com/bot.html)';
my $YANDEX = 'Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)';
my $BINGBOT = 'Mozilla/5.0 (compatible; bingbot/2.0; '
            . '+http://www.bing.com/bingbot.htm)';

my $h = RA::Harness->new(
    server => 'nginx', workers => 2,
    http => "robots_audit on;\n",
    server_conf => <<'EOF2',
location /quiet/ { robots_audit_alert_log off; }
location = /robots.txt {
    default_type text/plain;
    return 200 "User-agent: *\nDisallow: /private\nDisallow: /quiet/\n";
}
location / { return 404; }
EOF2
);
$h->start;

$h->get('/robots.txt', ua => $GOOGLEBOT);
$h->get('/quiet/x', ua => $GOOGLEBOT);
ok $h->wait_for(sub { $h->error_log =~ /\[RA100\][^\n]*uri="\/quiet\/x"/ }),
    'alert in the error log';
is $h->alert_log, '', 'robots_audit_alert_log off in the location: no JSON';

$h->get('/private/a', ua => $BINGBOT);
my @l = split /\n/, $h->wait_for(sub { $h->alert_log });
is scalar @l, 1, 'inherited alert log written';
is decode_json($l[0])->{crawler}, 'bingbot', '... for bingbot'
    or diag $l[0];

# rotation: move the file away, reopen, the next alert goes to a new file
my $path = $h->backend->alert_log_path($h);
rename $path, "$path.1" or die "rename: $!";
my ($rc, $out) = $h->backend->run($h, '-s', 'reopen');
is $rc, 0, 'nginx -s reopen' or diag $out;
ok $h->wait_for(sub { -e $path }), 'alert log reopened';
select undef, undef, undef, 0.2;
$h->get('/private/a', ua => $YANDEX);
@l = split /\n/, $h->wait_for(sub { $h->alert_log });
is scalar @l, 1, 'the next alert in the new file';
is decode_json($l[0] // '{}')->{crawler}, 'YandexBot', '... YandexBot\'s';
is scalar(split /\n/, $h->read_file("$path.1")), 1,
    'the rotated file kept the old line';

my $r = $h->get('/ra-status?format=text');
is $r->{status}, 200, 'text format';
like $r->{headers}{'content-type'}, qr{^text/plain}, 'text/plain';
like $r->{content}, qr/Googlebot/, 'names the crawler';

unlike $h->error_log, qr/\[(emerg|crit|alert)\]|signal 11|exited on/,
    'no crash or emergency';
$h->stop;
done_testing;
