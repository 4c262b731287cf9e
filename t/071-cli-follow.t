# SPDX-License-Identifier: BSD-2-Clause
# robots-audit logs --follow over a live file, with real processes and
# time: a file that appears later, no report before the first line, the
# interval object, rotation by rename, copytruncate (the copy read, or the
# loss said) while the reader is stopped, the report written by rename;
# stdin as the README's Caddy example; --html-refresh; the default ranges
# directory (ROBOTS_AUDIT_RANGES_DIR) and --no-ranges.  No server.
use strict;
use warnings;

use File::Temp qw(tempdir);
use JSON::PP;
use POSIX qw(:sys_wait_h);
use Test::More;
use Time::HiRes qw(sleep time);
use RA::Harness;

my $root = RA::Harness->root;
my $cli = "$root/build/robots-audit";
plan skip_all => "$cli is not built (make)" unless -x $cli;

my $dir = tempdir(CLEANUP => 1);
$ENV{ROBOTS_AUDIT_RANGES_DIR} = "$dir/no-such-dir";
my $gbot = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

sub put {
    my ($path, $mode, $text) = @_;
    open my $fh, $mode, $path or die "$path: $!";
    print {$fh} $text;
    close $fh or die "$path: $!";
}

sub slurp {
    my ($path) = @_;
    open my $fh, '<', $path or return '';
    local $/;
    return <$fh>;
}

# $n Googlebot requests of /private (each a violation), numbered from $i
sub lines {
    my ($i, $n) = @_;
    return join '', map {
        qq{66.249.66.1 - - [28/Nov/2026:10:00:00 +0000] "GET /private/$_ HTTP/1.1" 200 12 "-" "$gbot"\n}
    } $i .. $i + $n - 1;
}

sub wait_for {
    my ($what, $cond) = @_;
    my $end = time + 15;
    while (time < $end) {
        return 1 if $cond->();
        sleep 0.05;
    }
    diag "timed out waiting for $what";
    return 0;
}

sub start {
    my ($err, @args) = @_;
    my $pid = fork // die "fork: $!";
    if ($pid == 0) {
        open STDOUT, '>', "$dir/stdout" or die;
        open STDERR, '>', $err or die;
        exec $cli, 'logs', @args or die "exec: $!";
    }
    return $pid;
}

sub stop {
    my ($pid) = @_;
    kill 'TERM', $pid;
    waitpid $pid, 0;
    return $? >> 8;
}

sub report {
    my ($path) = @_;
    return eval { decode_json(slurp($path)) };
}

put("$dir/robots.txt", '>', "User-agent: *\nDisallow: /private\n");

# ---- a file that appears later, then rotated, truncated ---------------

my $log = "$dir/access.log";
my $out = "$dir/report.json";
my $err = "$dir/follow.err";
my $pid = start($err, '--robots', "$dir/robots.txt", '--follow',
                '--interval', '1', '--format', 'json', '--output', $out, $log);

ok wait_for('the waiting message', sub { slurp($err) =~ /does not exist: waiting/ }),
    'a missing file is waited for, said on stderr';
sleep 1.3;
ok !-e $out, 'no report before the first line';

put($log, '>', lines(0, 10));
my $r;
ok wait_for('10 lines', sub { (($r = report($out)) // {})->{lines} // 0 }),
    'the file read once it appears';
is $r->{lines}, 10, 'the report counts its lines';
is $r->{interval}{lines}, 10, 'the first interval holds them';
is $r->{interval}{violations}, 10, '... and their violations';
like $r->{interval}{start}, qr/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/, 'interval start';
like $r->{interval}{end}, qr/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/, 'interval end';
my $ino = (stat $out)[1];

put($log, '>>', lines(10, 5));
# the first report that shows them: the interval they came in
ok wait_for('15 lines', sub { ((($r = report($out)) // {})->{lines} // 0) == 15 }),
    'cumulative lines';
is_deeply [ @{$r->{interval}}{qw(lines requests crawler_requests violations)} ],
    [ 5, 5, 5, 5 ], 'the interval: its own lines, requests, crawler requests, violations';
isnt +(stat $out)[1], $ino, 'the report is a new file each time (renamed into place)';
my @tmp = glob "$out.*";
is scalar @tmp, 0, 'no temporary file left beside it';

# rotation by rename: the old file gets more lines before the writer
# reopens; the new one is read from its start
rename $log, "$log.1" or die;
put("$log.1", '>>', lines(15, 3));
put($log, '>', lines(18, 4));
ok wait_for('22 lines', sub { ((report($out) // {})->{lines} // 0) == 22 }),
    'rename rotation: the old file read to its end, the new one from its start';
like slurp($err), qr/rotated \(a new file at its path\)/, 'rotation said on stderr';

# copytruncate while the reader is stopped: the copy beside the file
# holds what it had not read yet
kill 'STOP', $pid;
put($log, '>>', lines(22, 6));
system('cp', $log, "$log.2") == 0 or die;
put($log, '>', '');
put($log, '>>', lines(28, 2));
kill 'CONT', $pid;
ok wait_for('30 lines', sub { ((report($out) // {})->{lines} // 0) == 30 }),
    'copytruncate: no line lost, the rest read from the copy';
like slurp($err), qr/truncated after \d+ bytes were read; \d+ bytes of the old file not read yet were read from its copy \Q$log.2\E/,
    'copytruncate said, with the bytes read from the copy';

# the same without a copy beside it: the loss is said
kill 'STOP', $pid;
put($log, '>>', lines(30, 3));
mkdir "$dir/elsewhere";
system('cp', $log, "$dir/elsewhere/copy") == 0 or die;
put($log, '>', '');
sleep 0.3;
put($log, '>>', lines(33, 1));
kill 'CONT', $pid;
ok wait_for('31 lines', sub { ((report($out) // {})->{lines} // 0) == 31 }),
    'copytruncate without a copy: the new lines read';
like slurp($err), qr/truncated after (\d+) bytes were read: \d+ bytes of the old file could not be read, and whatever was written to it after it was last looked at \([\d.]+ s before\): those lines are lost/,
    'the lost bytes said on stderr';

is stop($pid), 0, 'SIGTERM: exit 0';
$r = report($out);
is $r->{lines}, 31, 'the last report';
ok exists $r->{interval}, '... with its interval';

# ---- no line at all: no report ---------------------------------------

$pid = start("$dir/none.err", '--robots', "$dir/robots.txt", '--follow',
             '--interval', '1', '--output', "$dir/none.txt", "$dir/never.log");
ok wait_for('waiting', sub { slurp("$dir/none.err") =~ /waiting/ }), 'waiting';
sleep 1.2;
is stop($pid), 0, 'stopped before any line: exit 0';
ok !-e "$dir/none.txt", 'no report without a line';
like slurp("$dir/none.err"), qr/no line was read: no report/, 'said so';

# ---- stdin: the README's Caddy example, a pipe kept open --------------

my $caddy = slurp("$root/tests/data/logfmt/caddy.log");
open my $pipe, '|-', $cli, 'logs', '--robots', "$dir/robots.txt", '--follow',
    '--interval', '1', '--format', 'json', '--output', "$dir/caddy.json", '-'
    or die "$cli: $!";
$pipe->autoflush(1);
print {$pipe} $caddy;
ok wait_for('the caddy report', sub { -e "$dir/caddy.json" }),
    'follow -: a report while stdin stays open';
my $n = () = $caddy =~ /\n/g;
is +(report("$dir/caddy.json") // {})->{lines}, $n, 'every caddy line read';
close $pipe;
is $? >> 8, 0, 'the end of stdin ends it: exit 0';

# ---- --html-refresh ---------------------------------------------------

put("$dir/one.log", '>', lines(0, 1));
system($cli, 'logs', '--robots', "$dir/robots.txt", '--format', 'html',
       '--html-refresh', '7', '--output', "$dir/r.html", "$dir/one.log");
like slurp("$dir/r.html"), qr/<meta http-equiv="refresh" content="7">/,
    '--html-refresh: a meta refresh';
system($cli, 'logs', '--robots', "$dir/robots.txt", '--format', 'html',
       '--output', "$dir/r.html", "$dir/one.log");
unlike slurp("$dir/r.html"), qr/http-equiv="refresh"/, 'none by default';
my $msg = `'$cli' logs --robots '$dir/robots.txt' --html-refresh 7 '$dir/one.log' 2>&1`;
is $? >> 8, 2, '--html-refresh without --format html: exit 2';
like $msg, qr/--html-refresh is for --format html/, '... said';

# ---- the default ranges directory --------------------------------------

mkdir "$dir/ranges";
put("$dir/ranges/common-crawlers.json", '>',
    '{"creationTime":"2026-11-28T00:00:00","prefixes":[{"ipv4Prefix":"66.249.64.0/19"}]}');
put("$dir/ranges/.common-crawlers.json.tmp", '>', 'not JSON');

sub verification {
    my ($json) = @_;
    my $j = eval { decode_json($json) } // {};
    return $j->{sites}[0]{crawlers}[0]{verification} // "no report: $json";
}

{
    local $ENV{ROBOTS_AUDIT_RANGES_DIR} = "$dir/ranges";
    my $json = `'$cli' logs --robots '$dir/robots.txt' --format json '$dir/one.log' 2>'$dir/rg.err'`;
    is verification($json), 'verified', 'logs: the default directory\'s ranges verify';
    is slurp("$dir/rg.err"),
        "robots-audit logs: ranges from $dir/ranges: common-crawlers.json (--ranges FILE chooses others, --no-ranges none)\n",
        '... and stderr names them in one line';
    $json = `'$cli' logs --robots '$dir/robots.txt' --format json --no-ranges '$dir/one.log' 2>'$dir/rg.err'`;
    is verification($json), 'unverifiable', 'logs --no-ranges: none';
    is slurp("$dir/rg.err"), '', '... and nothing said';
    $json = `'$cli' identify --format json --address 66.249.66.1 '$gbot' 2>/dev/null`;
    like $json, qr/"verification":"verified"/, 'identify: the default directory too';
    $json = `'$cli' identify --format json --no-ranges --address 66.249.66.1 '$gbot' 2>/dev/null`;
    like $json, qr/"verification":"unverifiable"/, 'identify --no-ranges';
    $msg = `'$cli' logs --robots '$dir/robots.txt' --no-ranges --ranges '$dir/ranges/common-crawlers.json' '$dir/one.log' 2>&1`;
    is $? >> 8, 2, '--no-ranges with --ranges: exit 2';
}
{
    local $ENV{ROBOTS_AUDIT_RANGES_DIR} = '';
    my $json = `'$cli' logs --robots '$dir/robots.txt' --format json '$dir/one.log' 2>&1`;
    is verification($json), 'unverifiable', 'ROBOTS_AUDIT_RANGES_DIR empty: no default';
}

done_testing;
