# SPDX-License-Identifier: BSD-2-Clause
# contrib/: the fleet integrations against what the product really emits.
# nginx with the module serves crawlers (verified, impostor, unverifiable,
# a request that tries to forge alert fields); its metrics must pass
# promtool check metrics and name every metric the alert rules and the
# Grafana dashboard use; the rules pass promtool check rules and their unit
# tests; fail2ban-regex with the filter bans exactly the clients it should
# in the module's real JSON alert log (impostors in modes impostor and
# aggressive: RA102), and fail2ban-client accepts the jails.  Each tool
# missing: those checks skip, saying so.
use strict;
use warnings;
use Test::More;
use JSON::PP;
use File::Temp qw(tempdir);
use RA::Harness;

my $root = RA::Harness->root;
# no default ranges directory: this machine's package is not the test's
$ENV{ROBOTS_AUDIT_RANGES_DIR} = '';
my $C = "$root/contrib";

sub tool {
    my ($name) = @_;
    my ($p) = grep { -x } map { "$_/$name" } split(/:/, $ENV{PATH}),
                                             '/usr/sbin', '/usr/bin';
    return $p;
}

# runs a command; (exit status, stdout and stderr)
sub run {
    my (@cmd) = @_;
    my $pid = open my $fh, '-|';
    die "fork: $!" unless defined $pid;
    if (!$pid) {
        open STDERR, '>&', \*STDOUT;
        exec @cmd or exit 127;
    }
    local $/;
    my $out = <$fh> // '';
    close $fh;
    return ($? >> 8, $out);
}

# metric names an expression refers to
sub metrics_in { my %m = map { $_ => 1 } $_[0] =~ /\b(robots_audit_\w+)/g;
                 return keys %m }

# ---- the dashboard: JSON, panels, expressions --------------------------
my $dash = eval {
    local $/;
    open my $fh, '<', "$C/grafana/robots-audit.json" or die $!;
    decode_json(<$fh>);
};
ok $dash, 'Grafana dashboard is valid JSON' or diag $@;
my @exprs = map { $_->{expr} } map { @{ $_->{targets} // [] } }
            @{ $dash->{panels} // [] };
ok @{ $dash->{panels} // [] } >= 6, 'dashboard has panels';
is scalar(grep { !defined $_ || $_ eq '' } @exprs), 0,
    'every target has an expression';
my %used = map { $_ => 'dashboard' } map { metrics_in($_) } @exprs;
$used{$_} = 'rules' for metrics_in(do {
    local $/;
    open my $fh, '<', "$C/prometheus/robots-audit.rules.yml" or die $!;
    <$fh>;
});
ok scalar(keys %used) >= 5, 'rules and dashboard use robots-audit metrics: '
    . join(' ', sort keys %used);

# ---- nginx: real metrics and a real alert log --------------------------
my $GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; '
              . '+http://www.google.com/bot.html)';
my $GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; '
           . 'GPTBot/1.2; +https://openai.com/gptbot)';
my $BINGBOT = 'Mozilla/5.0 (compatible; bingbot/2.0; '
            . '+http://www.bing.com/bingbot.htm)';
my $SCRAPER = 'ExampleScraper/1.0 (+https://example.com/scraper)';
# a generic bot whose User-Agent and URI try to forge the fields the filter
# reads
my $FORGE = '","verification":"unverifiable","client":"198.51.100.66"';
my $FORGER = "x${FORGE}bot/1.0 (+https://example.com/)";

my ($metrics, $alerts);
SKIP: {
    my $why = RA::Harness->skip_reason('nginx');
    skip "nginx: $why", 8 if $why;
    my $h = RA::Harness->new(
        server => 'nginx', workers => 2,
        http => <<'EOF2',
robots_audit on;
robots_audit_alert_interval 0;
robots_audit_ip_ranges %%DIR%%/ranges/googlebot.json %%DIR%%/ranges/gptbot.json;
EOF2
        files => {
            'htdocs/robots.txt' => "User-agent: *\nDisallow: /private/\n",
            'htdocs/index.html' => "home\n",
            'ranges/googlebot.json' =>
                '{"prefixes":[{"ipv4Prefix":"127.0.0.0/8"}]}',
            'ranges/gptbot.json' =>
                '{"prefixes":[{"ipv4Prefix":"192.0.2.0/24"}]}',
        },
    );
    $h->start;
    $h->get('/robots.txt', ua => $GOOGLEBOT);
    $h->get('/', ua => $GOOGLEBOT);
    $h->get('/private/1', ua => $GOOGLEBOT);
    for my $i (1 .. 3) {
        $h->get("/private/$i", ua => $GPTBOT);
        select undef, undef, undef, 0.01;
    }
    for my $i (1 .. 2) {
        $h->get("/private/b$i", ua => $BINGBOT);
        select undef, undef, undef, 0.01;
    }
    for my $i (1 .. 2) {
        $h->get("/private/s$i", ua => $SCRAPER);
        select undef, undef, undef, 0.01;
    }
    $h->get("/private/$FORGE", ua => $FORGER);
    my $r = $h->get('/ra-status?format=prometheus');
    is $r->{status}, 200, 'metrics served';
    $metrics = $r->{content};
    my @l = split /\n/, $h->wait_for(sub {
        my $a = $h->alert_log; ($a =~ tr/\n//) >= 9 ? $a : '' });
    is scalar @l, 9, 'nine alerts: 1 verified, 5 unverifiable, 3 for '
        . 'the impostor (interval 0)' or diag $h->alert_log;
    my %by = map { my $j = decode_json($_); ($j->{crawler} => $j) } @l;
    my @imp = grep { $_->{crawler} eq 'GPTBot' } map { decode_json($_) } @l;
    is scalar @imp, 3, 'GPTBot (impostor): an alert per request';
    is join(',', map { "$_->{tag}/$_->{verification}/$_->{verdict}" } @imp),
        join(',', ('RA102/impostor/violation') x 3),
        '... RA102, verification impostor, its verdict';
    is join(',', map { $_->{client} } @imp), '127.0.0.1,127.0.0.1,127.0.0.1',
        '... with its client address';
    is $by{Googlebot}{verification}, 'verified', 'Googlebot: verified';
    is $by{bingbot}{verification}, 'unverifiable', 'bingbot: unverifiable';
    like join("\n", @l), qr/\\"verification\\":\\"unverifiable/,
        'the forger\'s quotes are escaped';
    $alerts = "$root/build/fleet-alerts.log";
    mkdir "$root/build";
    open my $fh, '>', $alerts or die "$alerts: $!";
    print $fh join("\n", @l), "\n";
    close $fh;
    $h->stop;
}

# ---- promtool ----------------------------------------------------------
SKIP: {
    my $promtool = tool('promtool');
    skip 'promtool is not installed (apt-get install prometheus)', 6
        unless $promtool;
    my ($rc, $out) = run($promtool, 'check', 'rules',
                         "$C/prometheus/robots-audit.rules.yml");
    is $rc, 0, 'promtool check rules' or diag $out;
    like $out, qr/SUCCESS: 5 rules found/, '... five rules (RobotsAuditRangesStale the fifth)';
    ($rc, $out) = run($promtool, 'test', 'rules',
                      "$C/prometheus/robots-audit.rules.test.yml");
    is $rc, 0, 'promtool test rules (unit tests of the alerts)'
        or diag $out;

    # the CLI's metrics too: the same renderer over a log
    my $dir = tempdir('ra-fleet-XXXXXX', TMPDIR => 1, CLEANUP => 1);
    # (stdout only: warnings on stderr are no metrics)
    my ($crc, $cli) = run('sh', '-c', "'$root/build/robots-audit' logs "
        . "--robots '$root/data/demo/robots.txt' --format prometheus "
        . "'$root/data/demo/traffic.log' 2>/dev/null");
    is $crc, 0, 'robots-audit logs --format prometheus' or diag $cli;
    my @sets = (['CLI', $cli]);
    push @sets, ['nginx module', $metrics] if defined $metrics;
    my $bad = '';
    for my $s (@sets) {
        my $f = "$dir/m.prom";
        open my $fh, '>', $f or die $!;
        print $fh $s->[1];
        close $fh;
        my ($mrc, $mout) = run('sh', '-c', "'$promtool' check metrics < '$f'");
        $bad .= "$s->[0]: exit $mrc: $mout" if $mrc != 0 || $mout =~ /\S/;
    }
    is $bad, '', 'promtool check metrics: '
        . join(' and ', map { $_->[0] } @sets) . ', no complaint';
    my %have = map { $_ => 1 }
               join("\n", map { $_->[1] } @sets) =~ /^# TYPE (\w+)/mg;
    my @missing = grep { !$have{$_} } sort keys %used;
    is "@missing", '', 'every metric the rules and dashboard use is emitted';
}

# ---- fail2ban ----------------------------------------------------------
SKIP: {
    my $regex = tool('fail2ban-regex');
    skip 'fail2ban-regex is not installed (apt-get install fail2ban)', 12
        unless $regex;
    skip 'no alert log (nginx tests skipped)', 12 unless $alerts;
    my $filter = "$C/fail2ban/filter.d/robots-audit.conf";
    # normal: the scraper twice and the forger; impostor: GPTBot's three
    # RA102; aggressive: all of those and bingbot twice
    my %want = (normal => 3, impostor => 3, aggressive => 8);
    for my $mode (sort keys %want) {
        my ($rc, $out) = run($regex, '--print-all-matched', $alerts,
                             "$filter\[mode=$mode]");
        is $rc, 0, "fail2ban-regex, mode=$mode" or diag $out;
        like $out, qr/^Lines: 9 lines, 0 ignored, $want{$mode} matched,/m,
            "... $want{$mode} of 9 lines matched" or diag $out;
        my ($orc, $ips) = run($regex, '-o', 'ip', $alerts,
                              "$filter\[mode=$mode]");
        is $ips, "127.0.0.1\n" x $want{$mode},
            '... each the client\'s 127.0.0.1, never the forged address';
    }
    my ($irc, $iout) = run($regex, '--print-all-matched', $alerts,
                           "$filter\[mode=impostor]");
    my ($matched) = $iout =~ /Matched line\(s\):\n(.*?)\n`-/s;
    my @m = grep { /\{/ } split /\n/, $matched // '';
    is scalar(grep { /"tag":"RA102"[^\n]*"verification":"impostor"/ } @m),
        3, 'mode=impostor matches the RA102 lines' or diag $iout;
    is scalar(grep { !/"tag":"RA102"/ } @m), 0, '... and no other'
        or diag $iout;

    # the jail: fail2ban-client's configuration test on a copy of the
    # machine's configuration (without its own jails) plus ours, enabled
    my $client = tool('fail2ban-client');
    skip 'no fail2ban-client or /etc/fail2ban', 1
        unless $client && -d '/etc/fail2ban';
    my $dir = tempdir('ra-f2b-XXXXXX', TMPDIR => 1, CLEANUP => 1);
    system('cp', '-r', '/etc/fail2ban/.', $dir) == 0 or die 'cp failed';
    unlink glob "$dir/jail.d/*";
    unlink "$dir/jail.local";
    system('cp', $filter, "$dir/filter.d/") == 0 or die 'cp failed';
    open my $in, '<', "$C/fail2ban/jail.d/robots-audit.conf" or die $!;
    open my $out, '>', "$dir/jail.d/robots-audit.conf" or die $!;
    while (<$in>) {
        s/^enabled\s*=.*/enabled = true/;
        s/^logpath\s*=.*/logpath = $alerts/;
        print $out $_;
    }
    close $out;
    my ($rc, $o) = run('timeout', '30', $client, '-c', $dir, '--test');
    is $rc, 0, 'fail2ban-client --test accepts the jails' or diag $o;
}

# ---- Grafana: datasource variable and the rules' alerts named ----------
is $dash->{templating}{list}[0]{type}, 'datasource',
    'dashboard asks for its Prometheus data source';
done_testing;
