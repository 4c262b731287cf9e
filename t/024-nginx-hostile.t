# nginx: hostile input.  A 64 KiB User-Agent, raw <script> and quotes in
# the URI, control bytes and CR/LF attempts, invalid percent-encoding,
# invalid UTF-8: every request is answered, nothing forges a log line, the
# status page escapes all of it (HTML), stays valid JSON and well-formed
# Prometheus text.
use strict;
use warnings;
use Test::More;
use JSON::PP;
use RA::Harness;

my $why = RA::Harness->skip_reason('nginx');
plan skip_all => $why if $why;

my $GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; '
              . '+http://www.google.com/bot.html)';

my $h = RA::Harness->new(
    server => 'nginx', workers => 2,
    http => <<'EOF2',
robots_audit on;
robots_audit_alert_interval 0;
large_client_header_buffers 4 128k;
EOF2
    server_conf => <<'EOF2',
location = /robots.txt {
    default_type text/plain;
    return 200 "User-agent: *\nDisallow: /private\nDisallow: /<script>alert(1)</script>\n";
}
location / { return 404; }
EOF2
);
$h->start;

# interval 0 is one alert per millisecond at most: keep requests apart
sub raw {
    my ($line, @headers) = @_;
    select undef, undef, undef, 0.01;
    my $req = "$line\r\nHost: localhost\r\n"
            . join('', map { "$_\r\n" } @headers)
            . "Connection: close\r\n\r\n";
    return $h->get('/', raw => $req);
}

is $h->get('/robots.txt', ua => $GOOGLEBOT)->{status}, 200, 'robots.txt';

# 64 KiB User-Agent (a known crawler's name inside it, and a generic one)
my $r = $h->get('/private/a', ua => $GOOGLEBOT . (' x' x 32768));
is $r->{status}, 404, '64 KiB User-Agent answered';
$r = $h->get('/index', ua => ('A' x 65536) . ' HugeBot/1.0');
is $r->{status}, 404, '64 KiB generic User-Agent answered';

# raw <script>, quotes, backslashes, bytes >= 0x80 in the request target
my @targets = (
    '/private/<script>alert(1)</script>',
    '/<script>alert(1)</script>',
    '/private/"quoted"\\back\\slash',
    "/private/\xff\xfe\xc3\x28invalid-utf8",
    '/private/%0d%0aRA100%20forged',
    '/private/%zz%G1%',
    '/private/x?%zz=%0',
);
my %answered;
for my $t (@targets) {
    my $res = raw("GET $t HTTP/1.1", "User-Agent: $GOOGLEBOT");
    $answered{$t} = $res->{status};
}
is scalar(grep { $_ >= 200 } values %answered), scalar @targets,
    'every hostile target answered' or diag explain \%answered;

# control bytes where nginx lets them through or refuses them
for my $t ("/private/\x1b[31mred", "/private/a\tb", "/private/a\x7fb") {
    my $res = raw("GET $t HTTP/1.1", "User-Agent: $GOOGLEBOT");
    ok $res->{status} >= 200, sprintf 'control byte in the target: %d',
                                      $res->{status};
}
# CR/LF: a header with a bare CR, a folded header: refused or harmless
for my $hdr ("User-Agent: $GOOGLEBOT\rX-Evil: 1",
             "User-Agent: $GOOGLEBOT\r\n RA100 forged") {
    my $res = raw('GET /private/crlf HTTP/1.1', $hdr);
    ok $res->{status} >= 200, "CR/LF header attempt answered ($res->{status})";
}

# nothing raw from the network reaches a log line
my $err = $h->wait_for(sub { my $l = $h->error_log; $l =~ /<script>/ ? $l : '' });
my @alert_lines = grep { /robots-audit: \[RA10/ } split /\n/, $err;
cmp_ok scalar @alert_lines, '>=', 5, 'alerts written (interval 0)';
is scalar(grep { /[\x00-\x08\x0b-\x1f\x7f-\xff]/ } @alert_lines), 0,
    'no control or non-ASCII byte in an alert line';
is scalar(grep { !/^\d{4}\/\d\d\/\d\d \d\d:\d\d:\d\d \[/ } split /\n/, $err), 0,
    'every error-log line starts with a timestamp (nothing forged)';
like $err, qr/uri="\/private\/\\x22quoted\\x22\\x5cback\\x5cslash"/,
    'quotes and backslashes escaped in the alert';
like $err, qr/uri="\/private\/\\xff\\xfe\\xc3\(invalid-utf8"/,
    'invalid UTF-8 escaped in the alert';

my @json = split /\n/, $h->alert_log;
cmp_ok scalar @json, '>=', 5, 'JSON alert lines';
my @bad = grep { !eval { JSON::PP->new->utf8->decode($_); 1 } } @json;
is_deeply \@bad, [], 'every alert-log line is valid UTF-8 JSON';
ok((grep { (JSON::PP->new->utf8->decode($_)->{uri} // '')
           eq '/private/<script>alert(1)</script>' } @json),
   'JSON keeps the URI as text');

# the status page: HTML escapes, JSON is valid, Prometheus is well formed
$r = $h->get('/ra-status');
is $r->{status}, 200, 'HTML page';
unlike $r->{content}, qr/<script/i, 'no <script> in the HTML';
like $r->{content}, qr/&lt;script&gt;alert\(1\)&lt;\/script&gt;/,
    'the URI shown escaped';
unlike $r->{content}, qr/[\x00-\x08\x0b\x0c\x0e-\x1f]/, 'no control bytes';

$r = $h->get('/ra-status?format=json');
my $j = eval { JSON::PP->new->utf8->decode($r->{content}) };
ok $j, 'JSON parses (strict UTF-8)' or diag $@;
my $g = $h->crawler_stats($j, 'localhost', 'Googlebot');
cmp_ok $g->{violation}, '>=', 5, 'violations counted';
ok !(grep { length($_->{crawler}) > 64 } @{ $h->site_json($j, 'localhost')->{crawlers} }),
    'crawler names bounded';
ok !(grep { length($_->{uri}) > 256 }
     @{ $h->site_json($j, 'localhost')->{recent_violations} }),
    'violation URIs bounded';

$r = $h->get('/ra-status?format=prometheus');
my @lines = split /\n/, $r->{content};
my @badp = grep {
    !/^# (HELP|TYPE) [a-z_:][a-z0-9_:]* /
    && !/^[a-z_:][a-z0-9_:]*(\{([a-z_][a-z0-9_]*="([^"\\\n]|\\["\\n])*",?)*\})? -?[0-9][0-9.e+-]*$/
} @lines;
is_deeply \@badp, [], 'every Prometheus line well formed';
ok !(grep { /<script>/ && /crawler="/ && !/crawler="(Googlebot|generic|browser)"/ } @lines),
    'no raw User-Agent text in a label';

unlike $h->error_log, qr/\[(emerg|crit|alert)\]|signal 11|exited on/,
    'no crash or emergency';
$h->stop;
done_testing;
