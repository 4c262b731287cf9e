# SPDX-License-Identifier: BSD-2-Clause
# robots-audit ranges update against a loopback HTTP server (RA::Upstream)
# serving good, bad, empty, oversized and missing range files and key
# directories, driven by a sources file: what it writes, what it keeps,
# what it says and its exit status, and the packages' service (its ExecStart
# line) reloading the servers only when a file changed.  Nothing leaves
# 127.0.0.1.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);
use IO::Socket::INET;
use RA::Harness;
use RA::Upstream;

my $root = RA::Harness->root;
my $bin = "$root/build/robots-audit";
# no default ranges directory: this machine's package is not the test's
$ENV{ROBOTS_AUDIT_RANGES_DIR} = '';
plan skip_all => "$bin is not built (make)" unless -x $bin;

# loopback only, whatever proxy the environment names
delete @ENV{qw(http_proxy https_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY
               all_proxy)};
$ENV{no_proxy} = $ENV{NO_PROXY} = '*';

my $DAY = 86400;
my $tmp = tempdir('ra-ranges-XXXXXX', TMPDIR => 1, CLEANUP => !$ENV{RA_KEEP});
my $dir = "$tmp/ranges";
my $kdir = "$tmp/keys";
mkdir $_ or die "$_: $!" for $dir, $kdir;

my $up = RA::Upstream->new;
my $base = 'http://127.0.0.1:' . $up->port;
my $good = '{"creationTime":"2026-11-01T00:00:00","prefixes":'
         . '[{"ipv4Prefix":"192.0.2.0/24"},{"ipv6Prefix":"2001:db8::/32"}]}';
my $good2 = '{"prefixes":[{"ipv4Prefix":"198.51.100.0/24"}]}';
$up->put('good.json', $good, "Content-Type: application/json\r\n");
$up->put('bad.json', '{"prefixes":[{"ipv4Prefix":"192.0.2.0/24"}', '');
$up->put('badprefix.json', '{"prefixes":[{"ipv4Prefix":"300.0.2.0/24"}]}',
         '');
$up->put('none.json', '{"prefixes":[]}', '');
$up->put('empty.json', '', '');
$up->put('html.json', "<html>maintenance</html>\n", '', '503 Unavailable');
$up->put('big.json', '{"prefixes":[' . join(',',
    map { qq({"ipv4Prefix":"10.$_.0.0/16"}) } 0 .. 200) . ']}', '');

sub slurp {
    my ($p) = @_;
    open my $fh, '<:raw', $p or return undef;
    local $/;
    my $s = <$fh>;
    return $s;
}

sub spew {
    my ($p, $s) = @_;
    open my $fh, '>:raw', $p or die "$p: $!";
    print $fh $s;
    close $fh or die "$p: $!";
}

# run(ARGS...) -> (exit status, stdout, stderr)
sub run {
    my (@args) = @_;
    my $cmd = join ' ', map { "'$_'" } $bin, 'ranges', @args;
    my $out = `$cmd 2>'$tmp/stderr'`;
    my $st = $? >> 8;
    return ($st, $out, slurp("$tmp/stderr") // '');
}

sub sources {
    my ($name, @lines) = @_;
    spew("$tmp/$name", join('', map { "$_\n" } '# test sources', '',
                                @lines));
    return "$tmp/$name";
}

# libcurl is loaded when `ranges update` fetches, not linked: every other
# command starts without it and the libraries it pulls in
unlike `readelf -d '$bin'`, qr/\(NEEDED\).*libcurl/,
    'robots-audit does not link libcurl';

# ---- a good file: written, then left alone while it does not change
my $src = sources('s1', "good.json $base/good.json");
my ($st, $out, $err) = run('update', '--dir', $dir, '--sources', $src);
is $st, 0, 'good source: exit 0' or diag $err;
like $out, qr/^updated good\.json \(2 intervals\)$/m, 'says it was updated';
is slurp("$dir/good.json"), $good, 'the file holds what was served';
is((stat "$dir/good.json")[2] & 07777, 0644, 'mode 0644');
($st, $out, $err) = run('update', '--dir', $dir, '--sources', $src);
is $st, 0, 'again: exit 0';
is $out, '', 'unchanged: nothing on stdout (the timer reloads on output)';
($st, $out) = run('update', '--dir', $dir, '--sources', $src, '--verbose');
like $out, qr/^unchanged good\.json$/m, '--verbose says unchanged';
$up->put('good.json', $good2, '');
($st, $out) = run('update', '--dir', $dir, '--sources', $src);
like $out, qr/^updated good\.json \(1 intervals\)$/m, 'a new answer replaces it';
is slurp("$dir/good.json"), $good2, 'with the new bytes';

# unchanged but written long ago: its time set to now (the modules read a
# file's age from it), and said, so that the timer reloads the servers
my $ago = time - 4 * $DAY;
utime $ago, $ago, "$dir/good.json" or die;
($st, $out) = run('update', '--dir', $dir, '--sources', $src);
is $st, 0, 'unchanged for 4 days: exit 0';
like $out, qr/^refreshed good\.json \(unchanged for 4 days\)$/m,
    '... refreshed, and said';
cmp_ok abs((stat "$dir/good.json")[9] - time), '<', 60, '... its time now';
is slurp("$dir/good.json"), $good2, '... its bytes as they were';
$ago = time - 2 * $DAY;
utime $ago, $ago, "$dir/good.json" or die;
($st, $out) = run('update', '--dir', $dir, '--sources', $src);
is $out, '', 'unchanged for 2 days: left alone, nothing said';
cmp_ok abs((stat "$dir/good.json")[9] - $ago), '<', 2, '... its time kept';
($st, $out) = run('update', '--dir', $dir, '--sources', $src,
                  '--refresh-after', '1');
like $out, qr/^refreshed good\.json \(unchanged for 2 days\)$/m,
    '--refresh-after 1: refreshed';
$ago = time - 30 * $DAY;
utime $ago, $ago, "$dir/good.json" or die;
($st, $out) = run('update', '--dir', $dir, '--sources', $src,
                  '--refresh-after', '0');
is $out, '', '--refresh-after 0: never';
cmp_ok abs((stat "$dir/good.json")[9] - $ago), '<', 2, '... its time kept';
utime undef, undef, "$dir/good.json";

# ---- failures keep the previous file and are named on stderr
for my $case (
    [ 'bad.json',       qr/not a range file: byte \d+/,     'truncated JSON' ],
    [ 'badprefix.json', qr/not a range file/,               'a bad prefix' ],
    [ 'none.json',      qr/not a range file/,               'no prefix' ],
    [ 'empty.json',     qr/empty answer/,                   'an empty body' ],
    [ 'html.json',      qr/HTTP status 503/,                'a 503 page' ],
    [ 'missing.json',   qr/HTTP status 404/,                'a missing file' ],
) {
    my ($name, $why, $what) = @$case;
    spew("$dir/$name", $good);
    my $s = sources('s2', "$name $base/$name", "good.json $base/good.json");
    ($st, $out, $err) = run('update', '--dir', $dir, '--sources', $s);
    is $st, 1, "$what: exit 1";
    like $err, qr/^robots-audit ranges: range file \Q$name\E \(\Q$base\E\/\Q$name\E\): $why[^\n]*; the previous file is kept$/m,
        "$what: named on stderr";
    is slurp("$dir/$name"), $good, "$what: the previous file is kept";
    is slurp("$dir/good.json"), $good2, "$what: the other source still done";
    unlink "$dir/$name";
    ($st, $out, $err) = run('update', '--dir', $dir, '--sources', $s);
    ok !-e "$dir/$name", "$what: nothing written when there was no file";
}

# ---- cloud sources: each provider's format, told by the file's name
my $aws = '{"syncToken":"1","prefixes":[{"ip_prefix":"203.0.113.0/24",'
        . '"region":"eu-west-1","service":"EC2"}],"ipv6_prefixes":'
        . '[{"ipv6_prefix":"2001:db8:5::/48","region":"eu-west-1"}]}';
my $feed = "# a geofeed (RFC 8805)\n198.51.100.0/24,US,US-NJ,Cedar Knolls,\n"
         . "2001:db8:11::/48,DE,DE-HE,Frankfurt,\n";
$up->put('ip-ranges.json', $aws, "Content-Type: application/json\r\n");
$up->put('geo.csv', $feed, "Content-Type: text/csv\r\n");
$up->put('geo.html', "<!DOCTYPE html>\n<p>moved</p>\n",
         "Content-Type: text/html\r\n");
$src = sources('c1', "cloud-aws.json $base/ip-ranges.json cloud",
               "cloud-linode.csv $base/geo.csv");
($st, $out, $err) = run('update', '--dir', $dir, '--sources', $src);
is $st, 0, 'cloud sources: exit 0' or diag $err;
like $out, qr/^updated cloud-aws\.json \(2 intervals\)$/m,
    'the AWS file, read as AWS writes it';
like $out, qr/^updated cloud-linode\.csv \(2 intervals\)$/m,
    'the geofeed, read as CSV';
is slurp("$dir/cloud-linode.csv"), $feed, 'the geofeed as served';
# an AWS file under a crawler publisher's name is not one: refused
$up->put('aws-as-crawler.json', $aws, '');
($st, $out, $err) = run('update', '--dir', $dir, '--sources',
    sources('c2', "aws.json $base/aws-as-crawler.json"));
is $st, 1, 'AWS shape as a crawler file: exit 1';
like $err, qr/range file aws\.json .*not a range file: .*no ipv4Prefix/,
    'AWS shape as a crawler file: said so';
# an HTML page where a geofeed was: refused, the previous file kept
($st, $out, $err) = run('update', '--dir', $dir, '--sources',
    sources('c3', "cloud-linode.csv $base/geo.html"));
is $st, 1, 'HTML as a geofeed: exit 1';
like $err, qr/range file cloud-linode\.csv .*not a geofeed: the first column is no IP prefix; the previous file is kept$/m,
    'HTML as a geofeed: said so';
is slurp("$dir/cloud-linode.csv"), $feed, 'HTML as a geofeed: file kept';
# a kind that disagrees with the name: refused before any fetch
($st, $out, $err) = run('update', '--dir', $dir, '--sources',
    sources('c4', "cloud-x.json $base/ip-ranges.json crawler"));
is $st, 2, 'a cloud name of kind crawler: usage error';
like $err, qr/'cloud-x\.json' is a cloud file's name/, 'and why';
# logs loads them from the directory (the .csv too) and gives a browser
# in them the cloud signal; a crawler claimed from them is no crawler's
{
    my $log = "$tmp/access.log";
    my $chrome = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36'
               . ' (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
    spew($log, join '', map { "$_\n" }
        qq(203.0.113.9 - - [27/Nov/2026:12:00:00 +0000] "GET /robots.txt HTTP/1.1" 200 30 "-" "$chrome"),
        qq(203.0.113.9 - - [27/Nov/2026:12:00:05 +0000] "GET /a HTTP/1.1" 200 30 "-" "$chrome"),
        qq(198.51.100.7 - - [27/Nov/2026:12:00:06 +0000] "GET /b HTTP/1.1" 200 30 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"));
    spew("$tmp/robots.txt", "User-agent: *\nDisallow: /private/\n");
    local $ENV{ROBOTS_AUDIT_RANGES_DIR} = $dir;
    my $cmd = "'$bin' logs --robots '$tmp/robots.txt' --format json '$log'";
    my $json = `$cmd 2>'$tmp/stderr'`;
    like slurp("$tmp/stderr"), qr/cloud-linode\.csv/,
        'logs names the geofeed among the default files';
    like $json, qr/"client":"203\.0\.113\.9".*?"signals":\["robots\.txt","cloud"\]/,
        'a browser in a cloud range: the cloud signal';
    unlike $json, qr/"crawler":"Googlebot","verification":"verified"/,
        'Googlebot from a cloud range: not verified';
}
unlink "$dir/cloud-aws.json", "$dir/cloud-linode.csv";

# ---- bounds: size and time
$src = sources('s3', "big.json $base/big.json");
($st, $out, $err) = run('update', '--dir', $dir, '--sources', $src,
                        '--max-size', '1k');
is $st, 1, 'oversized: exit 1';
like $err, qr/big\.json .*larger than 1024 bytes/, 'oversized: said so';
ok !-e "$dir/big.json", 'oversized: not written';
($st) = run('update', '--dir', $dir, '--sources', $src);
is $st, 0, 'the same file under the default bound is taken';

# a server that accepts the connection and never answers
my $mute = IO::Socket::INET->new(LocalAddr => '127.0.0.1', LocalPort => 0,
                                 Proto => 'tcp', Listen => 4)
    or die "listen: $!";
my $mbase = 'http://127.0.0.1:' . $mute->sockport;
$src = sources('s4', "slow.json $mbase/slow.json");
my $t0 = time;
($st, $out, $err) = run('update', '--dir', $dir, '--sources', $src,
                        '--timeout', '1');
is $st, 1, 'a server that never answers: exit 1';
like $err, qr/slow\.json .*[Tt]imeout|slow\.json .*timed out/,
    'the timeout is named';
cmp_ok time - $t0, '<=', 5, 'bounded by --timeout';
close $mute;

# no temporary file is left behind
opendir my $dh, $dir or die;
my @tmp = grep { /^\./ && !/^\.\.?$/ } readdir $dh;
closedir $dh;
is_deeply \@tmp, [], 'no temporary file left in the directory';

# ---- signature agents' key directories
my $wk = '.well-known_http-message-signatures-directory';
my $jwks = '{"keys":[{"kty":"OKP","crv":"Ed25519",'
         . '"x":"JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs"}]}';
$up->put($wk, $jwks,
         "Content-Type: application/http-message-signatures-directory+json\r\n");
$src = sources('s5', "good.json $base/good.json");
($st, $out, $err) = run('update', '--dir', $dir, '--sources', $src,
                        '--keys-dir', $kdir, '--agent', $base);
is $st, 0, 'key directory: exit 0' or diag $err;
like $out, qr/^updated 127\.0\.0\.1\.json \(1 keys\)$/m,
    'written as HOST.json';
is slurp("$kdir/127.0.0.1.json"), $jwks, 'as served';
for my $bad ('{"keys":{}}', '{"keys":[1]}', '[]', '{"keys":[]}', '{"k') {
    $up->put($wk, $bad, '');
    ($st, $out, $err) = run('update', '--dir', $dir, '--sources', $src,
                            '--keys-dir', $kdir, '--agent', $base);
    is $st, 1, "key directory $bad: exit 1";
    like $err, qr/key directory 127\.0\.0\.1\.json .*: not (a key directory|JSON)/,
        "key directory $bad: named";
    is slurp("$kdir/127.0.0.1.json"), $jwks, "key directory $bad: kept";
}
# a set the modules would refuse at load time (RobotsAuditSignatureKeys
# fails the configuration: the next reload, or a restart, would fail):
# no Ed25519 key at all, or an Ed25519 key whose "x" is not 32 bytes
for my $bad ('{"keys":[{"kty":"RSA","n":"AQAB","e":"AQAB"}]}',
             '{"keys":[{"kty":"OKP","crv":"Ed25519","x":"AAAA"}]}') {
    $up->put($wk, $bad, '');
    ($st, $out, $err) = run('update', '--dir', $dir, '--sources', $src,
                            '--keys-dir', $kdir, '--agent', $base);
    is $st, 1, "key directory $bad: exit 1";
    like $err, qr/key directory 127\.0\.0\.1\.json .*: not a key directory/,
        "key directory $bad: named";
    is slurp("$kdir/127.0.0.1.json"), $jwks, "key directory $bad: kept";
}
my $idout = `'$bin' identify --signature-keys '$kdir' 'Mozilla/5.0' 2>&1`;
is $? >> 8, 0, 'the key directory written loads as the modules load it'
    or diag $idout;
$up->put($wk, $jwks, '');
($st, $out, $err) = run('update', '--dir', $dir, '--sources', $src,
                        '--keys-dir', $kdir, '--agent', "$base/path");
is $st, 1, 'an origin with a path is refused';

# ---- usage errors
($st) = run('update', '--sources', $src);
is $st, 2, 'no --dir: usage error';
($st, $out, $err) = run('update', '--dir', $dir, '--sources',
                        sources('s6', "../evil.json $base/good.json"));
is $st, 2, 'a name with a slash is refused';
like $err, qr/not a file name/, 'and said so';
($st) = run('update', '--dir', $dir, '--sources',
            sources('s7', "x.json ftp://127.0.0.1/x"));
is $st, 2, 'a non-http URL is refused';
($st) = run('update', '--dir', "$tmp/nowhere", '--sources', $src);
is $st, 2, 'a missing directory is refused';
cmp_ok $up->requests, '>', 20, 'the server answered the fetches';

# ---- the packages' service: reloads the servers only when a file changed
# (its ExecStart as systemd runs it: $$ and %% unescaped, the paths moved
# into the test's directory, systemctl replaced by a recorder)
{
    my $unit = slurp("$root/contrib/systemd/robots-audit-ranges.service");
    my ($exec) = $unit =~ /^ExecStart=\/bin\/sh -c '(.*)'$/m;
    ok defined $exec, 'the service runs one sh -c line';
    $exec //= 'exit 9';
    $exec =~ s/\$\$/\$/g;
    $exec =~ s/%%/%/g;
    $exec =~ s{/usr/bin/robots-audit}{$bin}g;
    $exec =~ s{/var/lib/robots-audit}{$tmp/state}g;
    $exec =~ s{/bin/systemctl}{$tmp/systemctl}g;
    mkdir "$tmp/state";
    mkdir "$tmp/state/$_" for qw(ranges keys);
    spew("$tmp/systemctl", "#!/bin/sh\necho \"\$*\" >> '$tmp/reloads'\n");
    chmod 0755, "$tmp/systemctl";
    # sh -c with the line as one argument, as systemd runs it
    my $svc = sub {
        my ($opts) = @_;
        unlink "$tmp/reloads";
        local $ENV{OPTIONS} = $opts;
        my $pid = open my $fh, '-|';
        die "fork: $!" unless defined $pid;
        if (!$pid) {
            open STDERR, '>', "$tmp/svc-stderr";
            exec '/bin/sh', '-c', $exec;
            exit 127;
        }
        local $/;
        my $o = <$fh>;
        close $fh;
        return ($? >> 8, slurp("$tmp/reloads") // '', $o // '');
    };
    $up->put('good.json', $good, '');
    $up->put($wk, $jwks, '');
    my $ok = sources('s8', "good.json $base/good.json");
    my ($rc, $rel, $o) = $svc->("--sources $ok --agent $base");
    is $rc, 0, 'service: exit 0';
    is $rel, "try-reload-or-restart nginx.service apache2.service\n",
        'service: new files, the servers reloaded once';
    like $o, qr/^updated good\.json/m, 'service: says what changed';
    is slurp("$tmp/state/ranges/good.json"), $good,
        'service: the file in the ranges directory';
    ok -f "$tmp/state/keys/127.0.0.1.json", 'service: keys in the keys one';
    ($rc, $rel) = $svc->("--sources $ok --agent $base");
    is $rc, 0, 'service again: exit 0';
    is $rel, '', 'service: nothing changed, no reload';
    my $mixed = sources('s9', "good.json $base/good.json",
                        "missing.json $base/missing.json");
    ($rc, $rel) = $svc->("--sources $mixed --agent $base");
    is $rc, 1, 'service: a failed source fails the unit';
    is $rel, '', '... with nothing changed, no reload';
    $up->put('good.json', $good2, '');
    ($rc, $rel) = $svc->("--sources $mixed --agent $base");
    is $rc, 1, 'service: a failed source and a changed file: exit 1';
    like $rel, qr/^try-reload-or-restart /, '... and the reload still done';
}

done_testing;
