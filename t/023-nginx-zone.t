# SPDX-License-Identifier: BSD-2-Clause
# nginx: the smallest zone, exhausted: least recently used sites and
# crawler records are evicted and counted, one log line about it per
# minute at most, nothing crashes; random Host values create no sites.
use strict;
use warnings;
use Test::More;
use JSON::PP;
use RA::Harness;

my $why = RA::Harness->skip_reason('nginx');
plan skip_all => $why if $why;

my $GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; '
              . '+http://www.google.com/bot.html)';
my $NAMES = join ' ', map { "s$_.test" } 1 .. 40;

my $h = RA::Harness->new(
    server => 'nginx', workers => 2,
    http => <<'EOF2',
robots_audit_zone tiny 80k;
robots_audit on;
EOF2
    server_conf => "server_name localhost $NAMES;\n",
    files => {
        'htdocs/robots.txt' => "User-agent: *\nDisallow: /private\n",
        'htdocs/index.html' => "home\n",
    },
);
$h->start;

my $j = $h->status_json;
my $cap = $j->{ledger}{capacity};
cmp_ok $cap->{sites}, '<', 40, "a small zone: $cap->{sites} sites";
cmp_ok $cap->{stats}, '<', 300, "... and $cap->{stats} crawler records";

# random Host values: all of them count on the block's first name
for my $i (1 .. 100) {
    $h->get('/index.html', ua => $GOOGLEBOT, host => "flood-$i-" . int(rand 1e9));
}
$j = $h->status_json;
is scalar @{ $j->{sites} }, 1, 'a Host flood makes no sites';
is $j->{ledger}{evictions}{sites}, 0, '... and evicts nothing';
is $h->crawler_stats($j, 'localhost', 'Googlebot')->{requests}, 100,
    '... and counts on the block\'s name';

# more sites than the zone holds
my $fail = 0;
for my $i (1 .. 40) {
    $fail++ if $h->get('/robots.txt', ua => $GOOGLEBOT,
                       host => "s$i.test")->{status} != 200;
    $fail++ if $h->get('/private/x', ua => $GOOGLEBOT,
                       host => "s$i.test")->{status} != 404;
}
is $fail, 0, 'every request answered while the zone is full';

# more crawler records than the zone holds
for my $i (1 .. 300) {
    $fail++ if $h->get('/index.html', host => 's40.test',
                       ua => "Survey${i}Bot/1.0 (+https://example.com/bot)")
                 ->{status} != 200;
}
is $fail, 0, 'every request answered while the table is full';

$j = $h->status_json;
my $ev = $j->{ledger}{evictions};
cmp_ok $ev->{sites}, '>', 0, "site evictions counted ($ev->{sites})";
cmp_ok $ev->{stats}, '>', 0, "crawler record evictions counted ($ev->{stats})";
cmp_ok scalar @{ $j->{sites} }, '<=', $cap->{sites}, 'sites stay bounded';
ok $h->site_json($j, 's40.test'), 'the most recent site is kept';
ok !$h->site_json($j, 's1.test'), 'the least recent site was evicted';
ok $h->crawler_stats($j, 's40.test', 'Survey300Bot'),
    'the most recent record is kept';

my @full = $h->wait_for(sub { my @l = $h->error_log =~ /is full/g; @l });
is scalar @full, 1, 'one "zone is full" line (a minute must pass)';
like $h->error_log, qr/robots-audit: \[RA321\] robots_audit_zone "tiny" is full: \d+ sites and \d+ crawler records evicted/,
    'it names the zone and the counts';

for my $fmt (qw(json prometheus html)) {
    is $h->get("/ra-status?format=$fmt")->{status}, 200,
        "status page ($fmt) on a full zone";
}
# a bounded view: one site, five records, and it says so
my $r = $h->get('/ra-status?format=json&site=S40.test&limit=5');
is $r->{status}, 200, 'status page with ?site= and ?limit=';
my $v = JSON::PP->new->utf8->decode($r->{content});
is_deeply [ map { $_->{site} } @{ $v->{sites} } ], ['s40.test'],
    '... shows that site only';
ok $v->{truncated} && $v->{sites}[0]{crawlers_shown} == 5
   && @{ $v->{sites}[0]{crawlers} } == 5
   && $v->{sites}[0]{crawlers_total} > 5,
    "... its 5 busiest records of $v->{sites}[0]{crawlers_total}, truncated";
like $h->get('/ra-status?site=s40.test&limit=5')->{content},
    qr/showing 5 of \d+ crawler records/, '... and the HTML page says so';
is $h->get('/ra-status?limit=0')->{status}, 400, 'a bad limit: 400';

like $h->get('/ra-status?format=prometheus')->{content},
    qr/^robots_audit_evictions_total\{table="sites"\} [1-9]\d*$/m,
    'evictions in Prometheus';

unlike $h->error_log, qr/\[(emerg|crit|alert)\]|signal 11|exited on/,
    'no crash, no slab "no memory" line';
$h->stop;
done_testing;
