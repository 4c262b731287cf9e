# Apache: hostile input and a tiny zone.  A 64 KiB User-Agent, markup and
# CR/LF in the URI, invalid percent-encoding, raw bytes, random Host
# values, more sites and crawlers than the minimum zone holds: bounded,
# escaped everywhere, valid JSON, no crash.
use strict;
use warnings;
use Test::More;
use JSON::PP;
use Time::HiRes qw(sleep);
use RA::Harness;

my $why = RA::Harness->skip_reason('apache');
plan skip_all => $why if $why;

my $GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; '
              . '+http://www.google.com/bot.html)';
my $NSITES = 24;

for my $mpm (qw(event prefork)) {
    subtest "mpm $mpm" => sub { scenario($mpm) };
}
done_testing;

sub scenario {
    my ($mpm) = @_;
    my $vhosts = join '', map { <<"EOF" } 1 .. $NSITES;
<VirtualHost 127.0.0.1:%%PORT%%>
    ServerName site$_.test
    ServerAlias www.site$_.test *.wild$_.test
    DocumentRoot "%%DIR%%/htdocs"
</VirtualHost>
EOF
    my $h = RA::Harness->new(
        server => 'apache', mpm => $mpm, workers => 2,
        http => "RobotsAudit On\nRobotsAuditZoneSize 64k\n"
              . "RobotsAuditAlertInterval 1ms\n$vhosts",
        # a vhost copies the limits in force where it starts
        server_conf => "    LimitRequestFieldSize 70000\n",
        files => {
            'htdocs/robots.txt' => "User-agent: *\nDisallow: /private\n",
            'htdocs/index.html' => "home\n",
        },
    );
    $h->start;
    $h->get('/robots.txt', ua => $GOOGLEBOT);

    # a 64 KiB User-Agent
    my $long = 'Mozilla/5.0 ' . ('A' x (64 * 1024 - 40)) . ' Googlebot/2.1';
    my $r = $h->get('/private/long', ua => $long);
    is $r->{status}, 404, '64 KiB User-Agent served';

    # markup, CR/LF attempts, bad percent-encoding, raw bytes
    $r = $h->get('/private/<script>alert(1)</script>', ua => $GOOGLEBOT);
    ok $r->{status}, 'markup in the URI answered';
    sleep 0.01;         # past RobotsAuditAlertInterval 1ms
    $h->get('/private/a%0d%0a[robots_audit:warn]FORGED', ua => $GOOGLEBOT);
    sleep 0.01;         # past RobotsAuditAlertInterval 1ms
    is $h->get('/private/%zz%4', ua => $GOOGLEBOT)->{status}, 400,
        'invalid percent-encoding: 400 from Apache';
    is $h->get("/private/\xff\x01", ua => $GOOGLEBOT)->{status}, 400,
        'raw bytes in the URI: 400 from Apache';
    $h->get('/private/z', ua => "Caf\xe9Bot/1.0 \xff\xfe (+http://x.test/\x80)");
    $r = $h->get('/', raw => "GET /private/x HTTP/1.1\r\nHost: localhost\r\n"
        . "User-Agent: Googlebot/2.1\rX-Forged: 1\r\nConnection: close\r\n\r\n");
    is $r->{status}, 400, 'bare CR in a header refused by Apache';
    is $h->get('/private/y', ua => "Bot/1.0 \x01\x7f")->{status}, 400,
        'control bytes in a header: 400 from Apache';
    $h->get('/private/y', ua => "<img src=x onerror=alert(1)>Bot/1.0");
    $h->get('/private/w', ua => '<img src=x onerror=alert(1)>');

    # random Host values make no sites; aliases count under their name
    for my $i (1 .. 40) {
        $h->get('/index.html', ua => $GOOGLEBOT, host => "rnd$i.example");
    }
    $h->get('/index.html', ua => $GOOGLEBOT, host => 'x9.wild3.test');
    my $j = $h->status_json;
    my @rnd = grep { $_->{site} =~ /rnd|wild/ } @{ $j->{sites} };
    is scalar @rnd, 0, 'no site for a random Host or a wildcard alias';

    # the escapes
    my $html = $h->get('/ra-status')->{content};
    unlike $html, qr/<script>alert/, 'no raw <script> in HTML';
    unlike $html, qr/<img src=x/, 'no raw <img> in HTML';
    like $html, qr/&lt;script&gt;/, 'markup shown escaped';
    my $raw = $h->get('/ra-status?format=json')->{content};
    ok eval { JSON::PP->new->utf8->decode($raw); 1 },
        'JSON valid with hostile bytes' or diag $@;
    my $prom = $h->get('/ra-status?format=prometheus')->{content};
    unlike $prom, qr/<img|script/, 'no User-Agent text in metrics';

    my $err = $h->wait_for(sub {
        my $l = $h->error_log; $l =~ /FORGED/ ? $l : '' });
    unlike $err, qr/^\[robots_audit:warn\] FORGED/m, 'no forged log line';
    like $err, qr/uri="\/private\/a%0d%0a\[robots_audit:warn\]FORGED"/,
        'percent-encoded CR/LF stays encoded';
    like $err, qr/uri="\/private\/%zz%4"/, 'bad percent-encoding judged';
    like $err, qr/uri="\/private\/<script>alert\(1\)<\/script>"/,
        'the alert quotes the URI';
    for my $line (split /\n/, $h->alert_log) {
        ok eval { decode_json($line); 1 }, 'alert line is JSON'
            or diag $line;
    }

    # a tiny zone: more sites and crawlers than it holds
    for my $i (1 .. $NSITES) {
        $h->get('/index.html', ua => $GOOGLEBOT, host => "site$i.test");
        $h->get('/index.html', ua => "Crawler${i}Bot/1.0", host => "site$i.test");
    }
    for my $i (1 .. 150) {
        $h->get('/index.html', ua => "Flood${i}Bot/2.0");
    }
    $j = $h->status_json;
    cmp_ok $j->{ledger}{evictions}{sites}, '>', 0, 'sites evicted';
    cmp_ok $j->{ledger}{evictions}{stats}, '>', 0, 'crawler records evicted';
    cmp_ok scalar @{ $j->{sites} }, '<=', $j->{ledger}{capacity}{sites},
        'sites bounded';
    is $h->get('/index.html', ua => $GOOGLEBOT)->{status}, 200,
        'still serving';
    like $h->get('/server-status?auto')->{content} // '', qr/.?/,
        'server-status answered';
    unlike $h->error_log, qr/\[(emerg|crit|alert)\]|AH00052|segfault/i,
        'no crash';
    $h->stop;
}
