# SPDX-License-Identifier: BSD-2-Clause
package RA::Scenario::Config;

# Configuration, on nginx and Apache alike: the configuration test (nginx -t,
# apache2ctl -t) passes with nothing or little configured, refuses bad
# values with a clear message (zone sizes, contexts, flags, times, a crawler
# file's line, a ranges file's byte, missing files: the core's words, tagged
# RA303, in both), accepts a missing robots.txt file, an alert interval
# of 0 and an alert budget off, lints the site's robots.txt file without failing; an operator crawler file identifies; a
# zone resized on reload starts over and says so; a broken reload is
# refused and the old generation keeps counting.
#
#   RA::Scenario::Config->run($server,
#       extra => sub { my ($ad) = @_ },  # the server's own checks
#   );
#   RA::Scenario::Config::refused($ad, $name, \%harness_opts, $message_re);

use strict;
use warnings;

use Test::More;
use RA::Harness;
use RA::Scenario ();

my $BAD_ROBOTS = "User-agent: *\nDisalow: /x\nCrawl-delay: 500\n"
               . "noindex: /y\nDisallow: private\n";

my $CRAWLER = 'Mozilla/5.0 (compatible; ExampleCrawler/3.1)';

# what the refusals read
my %FILES = (
    'good-crawlers.txt' => "crawler ExampleCrawler\nua ExampleCrawler\n"
                         . "operator Example\ncategory seo\n",
    'bad-category.txt'  => "crawler FooBot\nua FooBot\ncategory nonsense\n",
    'no-category.txt'   => "# mine\n\n# an entry without a category\n"
                         . "crawler ExampleBot\nua ExampleBot\n",
    'g.json'            => '{"prefixes":[{"ipv4Prefix":"127.0.0.0/8"}]}',
    'bad-ip.json'       => '{"prefixes":[{"ipv4Prefix":"300.0.0.0/8"}]}',
    'bad-length.json'   => '{"prefixes":[{"ipv4Prefix":"10.0.0.0/33"}]}',
    'sigkeys/bad.test.json' => '{"keys":[]}',
);

# refused by both servers; each adapter's config_refusals says how
my @REFUSED = (
    [ zone_small           => 'zone below the minimum' ],
    [ zone_not_size        => 'zone not a size' ],
    [ zone_large           => 'zone too large' ],
    [ zone_in_site         => 'zone in a site' ],
    [ crawlers_in_location => 'crawler file in a location' ],
    [ audit_flag           => 'audit neither on nor off' ],
    [ enforce_flag_1       => 'enforce "1"' ],
    [ enforce_flag_maybe   => 'enforce "violation maybe"' ],
    [ enforce_off_and      => 'enforce "off impostor"' ],
    [ enforce_none         => 'enforce without a word' ],
    [ interval_word        => 'alert interval not a time' ],
    [ budget_zero          => 'alert budget of 0 (off is the word)' ],
    [ purposes_unknown     => 'alert purposes naming no purpose' ],
    [ crawler_category     => 'crawler file with an unknown category' ],
    [ crawler_no_category  => 'crawler file without a category' ],
    [ crawler_missing      => 'missing crawler file' ],
);

# data, not configuration: both servers start and warn (RA325), and the
# crawlers those files would verify stay unverified; the same
# config_refusals entries say how to write them and what the warning says
my @WARNED = (
    [ ranges_bad_ip        => 'ranges file with a bad address' ],
    [ ranges_bad_length    => 'ranges file with a bad prefix length' ],
    [ ranges_missing       => 'missing ranges file' ],
    [ sigkeys_empty        => 'signature keys file without a key' ],
    [ sigkeys_missing      => 'missing signature keys directory' ],
);

sub run {
    my ($class, $server, %o) = @_;
    my $ad = RA::Scenario::adapter($server);
    scenario($ad);
    $o{extra}->($ad) if $o{extra};
    done_testing;
}

sub config_test {
    my ($ad, %a) = @_;
    my $h = RA::Harness->new(server => $ad->server, workers => 1,
                             files => \%FILES, %a);
    return $h->config_test;
}

# A subtest: the configuration test passes, with the warning.
sub warned {
    my ($ad, $name, $opts, $re) = @_;
    subtest "warned: $name" => sub {
        my ($rc, $out) = config_test($ad, %$opts);
        is $rc, 0, 'the configuration test passes';
        like $out, $re, 'with a warning that says why' or diag $out;
    };
}

# A subtest: the configuration test fails, with the message.
sub refused {
    my ($ad, $name, $opts, $re) = @_;
    subtest "refused: $name" => sub {
        my ($rc, $out) = config_test($ad, %$opts);
        isnt $rc, 0, 'the configuration test fails';
        like $out, $re, 'with a clear message' or diag $out;
    };
}

sub scenario {
    my ($ad) = @_;
    my ($rc, $out);

    ($rc, $out) = config_test($ad, $ad->nothing_configured);
    is $rc, 0, 'module loaded, nothing configured: the configuration test passes'
        or diag $out;
    ($rc, $out) = config_test($ad, $ad->fragments(audit => 1));
    is $rc, 0, 'a minimal configuration passes' or diag $out;
    like $out, $ad->config_ok_re, '... and says so';

    my %how = $ad->config_refusals;
    for my $case (@REFUSED) {
        my ($kind, $name) = @$case;
        my $c = $how{$kind} or die ref($ad) . ": no config_refusals $kind";
        refused($ad, $name, @$c);
    }
    for my $case (@WARNED) {
        my ($kind, $name) = @$case;
        my $c = $how{$kind} or die ref($ad) . ": no config_refusals $kind";
        warned($ad, $name, @$c);
    }

    subtest 'accepted: a missing robots file, alert interval 0, budget off'
        => \&accepted, $ad;
    subtest 'the configuration test lints the robots file' => \&lint, $ad;
    subtest 'operator crawler file; zone resized on reload' => \&resize, $ad;
}

# no robots.txt is a legitimate state (crawlers may crawl everything), and
# an alert interval of 0 means every violation alerts: both servers accept
# them, and warn about the first (RA201)
sub accepted {
    my ($ad) = @_;
    my $h = $ad->harness(undef,
        { audit => 1, alert_interval => 0, alert_budget => 'off 300',
          robots_file => '%%DIR%%/nope.txt' });
    my ($rc, $out) = $h->config_test;
    is $rc, 0, 'the configuration test passes' or diag $out;
    like $out, qr/robots-audit: \[RA201\] cannot open "\S+nope\.txt": No such file or directory: the site starts with no robots\.txt known \(crawlers may crawl everything until it serves one\)/,
        'warning that there is no robots.txt';

    # a directory (or an unreadable file): the same warning, no failure
    $h = $ad->harness(undef, { audit => 1, robots_file => '%%DIR%%' });
    ($rc, $out) = $h->config_test;
    is $rc, 0, 'an unreadable robots file does not fail the test either'
        or diag $out;
    like $out, qr/robots-audit: \[RA201\] "\S+" is not a regular file: the site starts with no robots\.txt known/,
        '... and says why';
}

sub lint {
    my ($ad) = @_;
    my $h = $ad->harness(undef,
        { audit => 1, robots_file => '%%DIR%%/robots-lint.txt' },
        files => { 'robots-lint.txt' => $BAD_ROBOTS });
    my ($rc, $out) = $h->config_test;
    is $rc, 0, 'lint findings do not fail the configuration test'
        or diag $out;
    like $out, $ad->config_ok_re, '... which says so';
    my ($pre, $place) = ($ad->lint_prefix, $ad->lint_place);
    like $out, qr/${pre}robots-audit: \[RA200\] \S+robots-lint\.txt:2:1: warning: 'Disalow' is a misspelling[^\n]*\[typo\]$place/,
        'lint: typo, with line and column, in compiler form';
    like $out, qr/${pre}robots-audit: \[RA200\] \S+robots-lint\.txt:4:1: error: 'noindex' is not a robots\.txt rule[^\n]*\[noindex\]/,
        'lint: noindex';
    like $out, qr/${pre}robots-audit: \[RA200\] \S+robots-lint\.txt:5:11: error: [^\n]*\[path-start\]/,
        'lint: path-start';
    like $out, qr/${pre}robots-audit: \[RA200\] \S+robots-lint\.txt:3:14: warning: [^\n]*\[crawl-delay-value\]/,
        'lint: crawl-delay-value';
    like $out, qr/robots-lint\.txt: \d+ groups?, \d+ rules?.*\d+ errors?/,
        'summary line';

    # and at startup, into the error log
    $h->start;
    like $h->error_log, qr/\[RA200\] \S+robots-lint\.txt:2:1:/,
        'lint at startup in the error log';
    $h->stop;
}

sub resize {
    my ($ad) = @_;
    my %s = (audit => 1, zone => '1m',
             crawlers => [ '%%DIR%%/good-crawlers.txt' ]);
    my $h = $ad->harness(undef, \%s, files => {
        %FILES,
        'htdocs/robots.txt' => "User-agent: *\nDisallow: /x\n",
        'htdocs/a.html'     => "a\n",
    });
    my ($rc, $out) = $h->config_test;
    is $rc, 0, 'a good crawler file passes' or diag $out;
    $h->start;
    $h->get('/a.html', ua => $CRAWLER) for 1 .. 3;
    my $j = $h->status_json;
    my $c = $h->crawler_stats($j, 'localhost', 'ExampleCrawler');
    ok $c, 'the operator entry identifies';
    is $c->{category}, 'seo', 'with its category';
    is $c->{requests}, 3, 'counted before the resize';
    is $j->{ledger}{capacity}{sites} > 0, 1, 'capacity shown';
    my %cap = %{ $j->{ledger}{capacity} };

    $ad->reconfigure($h, { %s, zone => '2m' });
    $h->reload;
    like $h->error_log, $ad->resize_re, 'resize announced';
    $j = $h->status_json;
    cmp_ok $j->{ledger}{capacity}{stats}, '>', $cap{stats}, 'bigger tables';
    cmp_ok $j->{ledger}{capacity}{sites}, '>', $cap{sites},
        'with the new capacity';
    ok !$h->crawler_stats($j, 'localhost', 'ExampleCrawler'),
        'counters start over in a resized zone';
    $h->get('/a.html', ua => $CRAWLER);
    is $h->crawler_stats($h->status_json, 'localhost', 'ExampleCrawler')
        ->{requests}, 1, 'and count again';

    # a broken configuration on reload: the old one keeps serving, counting
    $ad->reconfigure($h, { %s, zone => '2m',
                           crawlers => [ '%%DIR%%/good-crawlers.txt',
                                         '%%DIR%%/nope.txt' ] });
    ok !eval { $h->reload; 1 }, 'a broken reload is refused';
    $h->get('/a.html', ua => $CRAWLER);
    is $h->crawler_stats($h->status_json, 'localhost', 'ExampleCrawler')
        ->{requests}, 2, 'the old generation keeps counting';

    unlike $h->error_log, $ad->refused_reload_logs_emerg
        ? $ad->crash_re_no_emerg : $ad->crash_re, 'no crash';
    $h->stop;
}

1;
