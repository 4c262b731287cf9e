# Apache: apache2ctl -t (lint of RobotsAuditRobotsFile, clear errors for
# every directive), operator crawler files, a zone that changes size on
# graceful, and the module's exported symbols.
use strict;
use warnings;
use Test::More;
use RA::Harness;

my $why = RA::Harness->skip_reason('apache');
plan skip_all => $why if $why;

my $ROOT = RA::Harness::root();
my $SO = "$ROOT/build/mod_robots_audit.so";

subtest 'exported symbols' => sub {
    my $nm = `nm -D --defined-only '$SO' 2>/dev/null`;
    plan skip_all => 'no nm' if $? != 0 || $nm eq '';
    my @names = map { (split ' ')[-1] } split /\n/, $nm;
    ok((grep { $_ eq 'robots_audit_module' } @names), 'robots_audit_module');
    my @other = grep { $_ ne 'robots_audit_module' && !/^ra_/ } @names;
    is_deeply \@other, [], 'nothing else without the ra_ prefix';
};

sub config_of {
    my (%a) = @_;
    return RA::Harness->new(server => 'apache', workers => 2, %a);
}

my $LINTME = <<'EOF';
User-agent: *
Disalow: /typo
Disallow: private
Crawl-delay: 1000
EOF

subtest 'apache2ctl -t lints RobotsAuditRobotsFile' => sub {
    my $h = config_of(
        http => "RobotsAudit On\n",
        server_conf => "    RobotsAuditRobotsFile %%DIR%%/robots-lint.txt\n",
        files => { 'robots-lint.txt' => $LINTME },
    );
    my ($rc, $out) = $h->config_test;
    is $rc, 0, 'lint findings do not fail the test';
    like $out, qr/Syntax OK/, 'Syntax OK';
    like $out, qr/robots-audit: \[RA200\] \S+robots-lint\.txt:2:1: \w+: .*\[typo\]/,
        'a finding in compiler form with its code';
    like $out, qr/robots-lint\.txt:3:\d+: \w+: .*\[path-start\]/,
        'path without a slash';
    like $out, qr/robots-lint\.txt: \d+ groups?, \d+ rules?.*\d+ errors?/,
        'summary line';

    # and at startup, into the error log
    $h->start;
    like $h->error_log, qr/\[RA200\] \S+robots-lint\.txt:2:1:/,
        'lint at startup in the error log';
    $h->stop;
};

my @bad = (
    [ 'zone below the minimum', "RobotsAuditZoneSize 32k\n",
      qr/RobotsAuditZoneSize: 32k is out of range: the minimum is 64k, the maximum 4095m/ ],
    [ 'zone not a size', "RobotsAuditZoneSize lots\n",
      qr/RobotsAuditZoneSize: 'lots' is not a size/ ],
    [ 'zone too large', "RobotsAuditZoneSize 5g\n",
      qr/RobotsAuditZoneSize: 5g is out of range: the minimum is 64k, the maximum 4095m/ ],
    [ 'crawler file without a category', "RobotsAuditCrawlers %%DIR%%/bad-crawlers.txt\n",
      qr/RobotsAuditCrawlers: crawler file "\S+bad-crawlers\.txt", line 4: / ],
    [ 'missing crawler file', "RobotsAuditCrawlers %%DIR%%/nope.txt\n",
      qr/RobotsAuditCrawlers: cannot open "\S+nope\.txt": No such file/ ],
    [ 'bad ranges JSON', "RobotsAuditIPRanges %%DIR%%/bad.json\n",
      qr/RobotsAuditIPRanges: ranges file "\S+bad\.json", byte \d+: / ],
    [ 'robots file not a regular file', "RobotsAuditRobotsFile %%DIR%%\n",
      qr/RobotsAuditRobotsFile: "\S+" is not a regular file/ ],
    [ 'bad interval', "RobotsAuditAlertInterval -5s\n",
      qr/RobotsAuditAlertInterval: '-5s' is not a time/ ],
    [ 'bad flag', "RobotsAuditEnforce maybe\n",
      qr/RobotsAuditEnforce must be On or Off/ ],
    [ 'zone in a virtual host', "<VirtualHost 127.0.0.1:%%PORT%%>\nRobotsAuditZoneSize 1m\n</VirtualHost>\n",
      qr/RobotsAuditZoneSize cannot occur within <VirtualHost> section/ ],
    [ 'alert log in a Location', "<Location /x>\nRobotsAuditAlertLog /tmp/x\n</Location>\n",
      qr/RobotsAuditAlertLog not allowed in <Location> context/ ],
);

for my $case (@bad) {
    my ($name, $conf, $re) = @$case;
    subtest "refused: $name" => sub {
        my $h = config_of(
            http => "RobotsAudit On\n$conf",
            files => {
                'bad-crawlers.txt' => "# mine\n\n# an entry without a category\n"
                                    . "crawler ExampleBot\nua ExampleBot\n",
                'bad.json' => '{"prefixes":[{"ipv4Prefix":"10.0.0.0/33"}]}',
            },
        );
        my ($rc, $out) = $h->config_test;
        isnt $rc, 0, 'apache2ctl -t fails';
        like $out, $re, 'with a clear message' or diag $out;
    };
}

# no robots.txt is a legitimate state (crawlers may crawl everything), and
# an interval of 0 means every violation alerts
subtest 'accepted: a missing robots file, interval 0' => sub {
    my $h = config_of(http => "RobotsAudit On\nRobotsAuditAlertInterval 0\n"
                            . "RobotsAuditRobotsFile %%DIR%%/nope.txt\n");
    my ($rc, $out) = $h->config_test;
    is $rc, 0, 'apache2ctl -t passes' or diag $out;
    like $out, qr/robots-audit: \[RA200\] \S+nope\.txt does not exist: until the site serves a robots\.txt, crawlers may crawl everything/,
        'saying there is none';
};

subtest 'operator crawler file; zone resized on graceful' => sub {
    my $h = config_of(
        http => "RobotsAudit On\nRobotsAuditZoneSize 1m\n"
              . "RobotsAuditCrawlers %%DIR%%/crawlers.txt\n",
        files => {
            'crawlers.txt' => "crawler ExampleCrawler\nua ExampleCrawler\n"
                            . "operator Example\ncategory seo\n",
            'htdocs/robots.txt' => "User-agent: *\nDisallow: /x\n",
            'htdocs/a.html' => "a\n",
        },
    );
    my ($rc, $out) = $h->config_test;
    is $rc, 0, 'good crawler file passes' or diag $out;
    $h->start;
    $h->get('/a.html', ua => 'Mozilla/5.0 (compatible; ExampleCrawler/3.1)');
    my $j = $h->status_json;
    my $c = $h->crawler_stats($j, 'localhost', 'ExampleCrawler');
    ok $c, 'the operator entry identifies';
    is $c->{category}, 'seo', 'with its category';
    is $j->{ledger}{capacity}{sites} > 0, 1, 'capacity shown';
    my $cap = $j->{ledger}{capacity}{stats};

    $h->{http} =~ s/RobotsAuditZoneSize 1m/RobotsAuditZoneSize 2m/;
    $h->reload;
    like $h->error_log, qr/\[RA304\] a new ledger replaces the old one: the zone's size changed/,
        'resize announced';
    $j = $h->status_json;
    cmp_ok $j->{ledger}{capacity}{stats}, '>', $cap, 'bigger tables';
    ok !$h->crawler_stats($j, 'localhost', 'ExampleCrawler'),
        'counters start over in a resized zone';
    $h->get('/a.html', ua => 'Mozilla/5.0 (compatible; ExampleCrawler/3.1)');
    is $h->crawler_stats($h->status_json, 'localhost', 'ExampleCrawler')
        ->{requests}, 1, 'and count again';
    unlike $h->error_log, qr/\[(emerg|crit|alert)\]|AH00052/, 'no crash';
    $h->stop;
};

subtest 'piped alert log' => sub {
    my $h = config_of(
        http => "RobotsAudit On\n"
              . "RobotsAuditAlertLog \"|/bin/sh -c 'cat >> %%DIR%%/piped.log'\"\n",
        files => { 'htdocs/robots.txt' => "User-agent: *\nDisallow: /x\n" },
    );
    $h->start;
    $h->get('/robots.txt', ua => 'Googlebot/2.1');
    $h->get('/x', ua => 'Googlebot/2.1');
    my $log = $h->wait_for(sub { $h->read_file('piped.log') });
    like $log, qr/^\{"time":"[^"]+","tag":"RA100".*"uri":"\/x".*\}\n\z/,
        'one JSON line through the pipe';
    $h->stop;
};

subtest 'no RobotsAudit On anywhere' => sub {
    my $h = config_of(http => '');
    $h->start;
    my $r = $h->get('/ra-status');
    is $r->{status}, 503, 'status page: 503 without a ledger';
    like $r->{content},
        qr/no ledger: auditing is not on anywhere in the configuration/,
        'saying why';
    $h->stop;
};

done_testing;
