# nginx: configuration.  nginx -t with the stock binary; clear errors for
# bad values (zone size with its minimum, no zone, a crawler file's line, a
# ranges file's byte, contexts); lint findings of robots_audit_robots_file
# at nginx -t; a zone resized on reload starts over and says so.
use strict;
use warnings;
use Test::More;
use RA::Harness;

my $why = RA::Harness->skip_reason('nginx');
plan skip_all => $why if $why;

my $BAD_ROBOTS = "User-agent: *\nDisalow: /x\nCrawl-delay: 500\n"
               . "noindex: /y\nDisallow: private\n";

sub conf_test {
    my (%o) = @_;
    my $h = RA::Harness->new(server => 'nginx', workers => 1, %o);
    my ($rc, $out) = $h->config_test;
    return ($rc, $out, $h);
}

my ($rc, $out, $h);

($rc, $out) = conf_test(zone_size => '', http => '');
is $rc, 0, 'module loaded, nothing configured: nginx -t passes' or diag $out;

($rc, $out) = conf_test(http => "robots_audit on;\n");
is $rc, 0, 'a minimal configuration passes' or diag $out;
like $out, qr/test is successful/, '... test is successful';

($rc, $out) = conf_test(zone_size => '64k');
isnt $rc, 0, 'zone below the minimum refused';
like $out, qr/\[emerg\] \d+#\d+: robots_audit_zone "ra" size "64k" is out of range: the minimum is 80k/,
    '... naming the minimum';

($rc, $out) = conf_test(zone_size => 'lots');
like $out, qr/\[emerg\] \d+#\d+: invalid robots_audit_zone size "lots"/, 'bad size';

($rc, $out) = conf_test(zone_size => '', http => "robots_audit on;\n");
isnt $rc, 0, 'robots_audit on without a zone refused';
like $out, qr/need a zone: add "robots_audit_zone NAME SIZE;" to the http block/,
    '... saying what to add';

($rc, $out) = conf_test(http => "robots_audit_zone a 1m;\nrobots_audit_zone b 1m;\n");
like $out, qr/"robots_audit_zone" directive is duplicate/, 'one zone';

($rc, $out) = conf_test(http => "robots_audit maybe;\n");
like $out, qr/invalid value "maybe" in "robots_audit" directive, it must be "on" or "off"/,
    'robots_audit on|off';
($rc, $out) = conf_test(http => "robots_audit_enforce 1;\n");
like $out, qr/invalid value "1" in "robots_audit_enforce"/, 'robots_audit_enforce on|off';
($rc, $out) = conf_test(http => "robots_audit_alert_interval soon;\n");
like $out, qr/"robots_audit_alert_interval" directive invalid value/,
    'alert interval is a time';
($rc, $out) = conf_test(http => "robots_audit_robots_file %%DIR%%/r.txt;\n",
                        files => { 'r.txt' => "User-agent: *\n" });
like $out, qr/"robots_audit_robots_file" directive is not allowed here/,
    'robots_audit_robots_file is a server directive';
($rc, $out) = conf_test(server_conf => "location /x { robots_audit_crawlers %%DIR%%/c.txt; }\n");
like $out, qr/"robots_audit_crawlers" directive is not allowed here/,
    'robots_audit_crawlers is an http directive';
($rc, $out) = conf_test(server_conf => "robots_audit_status;\n");
like $out, qr/"robots_audit_status" directive is not allowed here/,
    'robots_audit_status is a location directive';

# files
($rc, $out) = conf_test(http => "robots_audit_crawlers %%DIR%%/crawlers.txt;\n",
    files => { 'crawlers.txt' => "crawler FooBot\nua FooBot\ncategory nonsense\n" });
isnt $rc, 0, 'bad crawler file refused';
like $out, qr/\[emerg\] \d+#\d+: robots-audit: \[RA303\] crawler file "[^"]*crawlers\.txt", line 3: unknown category in \S+nginx\.conf:\d+/,
    '... with the loader\'s line and the directive\'s place';

($rc, $out) = conf_test(http => "robots_audit on;\nrobots_audit_crawlers %%DIR%%/crawlers.txt;\n",
    files => { 'crawlers.txt' => "crawler FooBot\nua FooBot\ncategory seo\n" });
is $rc, 0, 'a good crawler file loads' or diag $out;

($rc, $out) = conf_test(http => "robots_audit_ip_ranges %%DIR%%/g.json %%DIR%%/bad.json;\n",
    files => { 'g.json' => '{"prefixes":[{"ipv4Prefix":"127.0.0.0/8"}]}',
               'bad.json' => '{"prefixes":[{"ipv4Prefix":"300.0.0.0/8"}]}' });
isnt $rc, 0, 'bad ranges file refused';
like $out, qr/\[emerg\] \d+#\d+: robots-audit: \[RA303\] ranges file "[^"]*bad\.json", byte \d+: /, '... with the byte';

($rc, $out) = conf_test(http => "robots_audit_ip_ranges %%DIR%%/missing.json;\n");
like $out, qr/\[emerg\] \d+#\d+: robots-audit: \[RA303\] cannot open "[^"]*missing\.json": No such file or directory in \S+nginx\.conf:\d+/, 'missing file';

# lint at nginx -t
($rc, $out) = conf_test(http => "robots_audit on;\n",
    server_conf => "robots_audit_robots_file %%DIR%%/robots.txt;\n",
    files => { 'robots.txt' => $BAD_ROBOTS });
is $rc, 0, 'lint findings do not fail nginx -t' or diag $out;
like $out, qr/\[warn\] \d+#\d+: robots-audit: \[RA200\] \S+robots\.txt:2:1: warning: 'Disalow' is a misspelling[^\n]*\[typo\] in \S+nginx\.conf:\d+/,
    'lint: typo, with line and column';
like $out, qr/\[warn\] \d+#\d+: robots-audit: \[RA200\] \S+robots\.txt:4:1: error: 'noindex' is not a robots\.txt rule[^\n]*\[noindex\]/,
    'lint: noindex';
like $out, qr/\[warn\] \d+#\d+: robots-audit: \[RA200\] \S+robots\.txt:5:11: error: [^\n]*\[path-start\]/,
    'lint: path-start';
like $out, qr/\[warn\] \d+#\d+: robots-audit: \[RA200\] \S+robots\.txt:3:14: warning: [^\n]*\[crawl-delay-value\]/,
    'lint: crawl-delay-value';

# resizing the zone on reload: a new ledger, said so; no crash
$h = RA::Harness->new(server => 'nginx', workers => 2,
                      http => "robots_audit_zone ra 1m;\nrobots_audit on;\n",
                      files => { 'htdocs/index.html' => "x\n" });
$h->start;
$h->get('/index.html', ua => 'ExampleSurveyBot/1.0') for 1 .. 3;
is $h->crawler_stats($h->status_json, 'localhost', 'ExampleSurveyBot')
    ->{requests}, 3, 'counted before the resize';
$h->{http} = "robots_audit_zone ra 2m;\nrobots_audit on;\n";
$h->reload;
like $h->error_log,
    qr/\[warn\] [^\n]*robots-audit: \[RA304\] robots_audit_zone "ra" changed size from 1048576 to 2097152: its counters start over/,
    'resize said';
my $j = $h->status_json;
ok !$h->crawler_stats($j, 'localhost', 'ExampleSurveyBot'),
    'a resized zone starts empty';
is $j->{ledger}{capacity}{sites} > 113 ? 1 : 0, 1, 'with the new capacity';
$h->get('/index.html', ua => 'ExampleSurveyBot/1.0');
is $h->crawler_stats($h->status_json, 'localhost', 'ExampleSurveyBot')
    ->{requests}, 1, 'and counts';

# a bad configuration on reload: the old one keeps serving, counters kept
$h->{http} = "robots_audit_zone ra 2m;\nrobots_audit on;\nrobots_audit_crawlers %%DIR%%/nope.txt;\n";
ok !eval { $h->reload; 1 }, 'a broken reload is refused';
$h->get('/index.html', ua => 'ExampleSurveyBot/1.0');
is $h->crawler_stats($h->status_json, 'localhost', 'ExampleSurveyBot')
    ->{requests}, 2, 'the old generation keeps counting';

unlike $h->error_log, qr/\[(crit|alert)\]|signal 11|exited on/,
    'no crash';
$h->stop;
done_testing;
