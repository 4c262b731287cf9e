# SPDX-License-Identifier: BSD-2-Clause
# The Debian packages (scripts/deb.sh, `make deb`: debhelper, then lintian)
# installed into this machine's stock servers: dpkg -i, then the stock
# configuration must pass
# nginx -t and apache2ctl -t with the modules enabled the Debian way
# (modules-enabled link, a2enmod), the installed .so files serve a real
# request each (in a private configuration on a loopback port: the system
# services are left alone), man finds the page; then dpkg -r and dpkg
# --purge, and the stock configuration is as it was.  Needs root and dpkg;
# skipped when the packages are installed already (not ours to remove).
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);
use JSON::PP;
use RA::Harness;

plan skip_all => 'not root: dpkg -i needs root' if $> != 0;
for my $t (qw(dpkg dpkg-deb nginx apache2ctl)) {
    plan skip_all => "$t is not available"
        unless grep { -x "$_/$t" } split(/:/, $ENV{PATH}), '/usr/sbin';
}
my @PKGS = qw(libnginx-mod-http-robots-audit libapache2-mod-robots-audit
              robots-audit);
for my $p (@PKGS) {
    my $st = `dpkg-query -W -f='\${Status}' $p 2>/dev/null`;
    plan skip_all => "$p is installed already: not touching it"
        if $st =~ /installed|config-files/;
}
for my $s (qw(nginx apache)) {
    my $why = RA::Harness->skip_reason($s);
    plan skip_all => "$s: $why" if $why;
}
$ENV{PATH} = "$ENV{PATH}:/usr/sbin:/sbin";

my $root = RA::Harness->root;
my $LINK = '/etc/nginx/modules-enabled/50-mod-http-robots-audit.conf';
my $NGX_SO = '/usr/lib/nginx/modules/ngx_http_robots_audit_module.so';
my $APX_SO = '/usr/lib/apache2/modules/mod_robots_audit.so';
my $GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; '
              . '+http://www.google.com/bot.html)';

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

# dpkg, waiting (up to two minutes) while another process holds its lock:
# on a fresh Debian machine unattended-upgrades may, and so may another
# test run installing packages
sub dpkg {
    my (@args) = @_;
    my ($rc, $out);
    for (1 .. 120) {
        ($rc, $out) = run('dpkg', @args);
        last unless $rc != 0 && $out =~ /lock was locked by another process|database is locked/;
        sleep 1;
    }
    return ($rc, $out);
}

# what the stock configuration looks like, to compare after removal
sub etc_state {
    return join "\n", map { -l $_ ? "$_ -> " . readlink($_) : $_ }
        sort glob('/etc/nginx/modules-enabled/* /etc/apache2/mods-enabled/*'
                  . ' /etc/apache2/mods-available/robots_audit*');
}
my $before = etc_state();
my ($ngx0) = run('nginx', '-t');
my ($apx0) = run('apache2ctl', '-t');

my $dir = tempdir('ra-deb-XXXXXX', TMPDIR => 1, CLEANUP => 1);
my ($rc, $out) = run("$root/scripts/deb.sh", $dir);
is $rc, 0, 'scripts/deb.sh builds the packages with debhelper' or diag $out;
# lintian (make test installs it) finds no error and no warning
SKIP: {
    skip 'lintian is not installed', 1
        unless grep { -x "$_/lintian" } split(/:/, $ENV{PATH});
    like $out, qr/lintian: no error, no warning/, 'lintian accepts all three';
}
my %deb = map { my ($n) = m{([^/]+)_[^_]+_[^_]+\.deb$}; ($n => $_) }
          glob "$dir/*.deb";
is join(' ', sort keys %deb), join(' ', sort @PKGS), 'three packages';

# the control fields: the ABI the installed servers provide
my $nprov = `dpkg-query -W -f='\${Provides}' nginx`;
my ($abi) = $nprov =~ /(nginx-abi-[^\s,]+)/;
like `dpkg-deb -f $deb{'libnginx-mod-http-robots-audit'} Depends`,
    qr/(^|, )\Q$abi\E(,|$)/, "nginx module depends on $abi";
like `dpkg-deb -f $deb{'libapache2-mod-robots-audit'} Depends`,
    qr/(^|, )apache2-api-\d+(,|$)/, 'Apache module depends on apache2-api-*';
# the core undoes Content-Encoding with zlib and libbrotlidec
for my $p (sort keys %deb) {
    my $dep = `dpkg-deb -f $deb{$p} Depends`;
    like $dep, qr/(^|, )libbrotli1\b/, "$p depends on libbrotli1";
    like $dep, qr/(^|, )zlib1g\b/, "$p depends on zlib1g";
}
my $conffiles = `dpkg-deb -I $deb{'libapache2-mod-robots-audit'} conffiles`;
like $conffiles, qr{^/etc/apache2/mods-available/robots_audit\.load$}m,
    'mods-available files are conffiles';
# the CLI fetches with libcurl; its daily refresh of the range files comes
# as units (not enabled) and an environment file (a conffile)
like `dpkg-deb -f $deb{'robots-audit'} Depends`, qr/(^|, )libcurl4\b/,
    'robots-audit depends on libcurl4';
my $cli_files = `dpkg-deb -c $deb{'robots-audit'}`;
like $cli_files, qr{ \./lib/systemd/system/robots-audit-ranges\.$_$}m,
    "robots-audit-ranges.$_ installed" for qw(service timer);
like `dpkg-deb -I $deb{'robots-audit'} conffiles`,
    qr{^/etc/default/robots-audit-ranges$}m,
    '/etc/default/robots-audit-ranges is a conffile';

END {
    # whatever happened, leave the machine as it was
    if ($> == 0 && $deb{'robots-audit'}) {
        system('dpkg --purge ' . join(' ', @PKGS) . ' >/dev/null 2>&1');
    }
}

($rc, $out) = dpkg('-i', map { $deb{$_} } @PKGS);
is $rc, 0, 'dpkg -i' or diag $out;
ok -f $NGX_SO, "nginx module in $NGX_SO";
is readlink($LINK),
    '/usr/share/nginx/modules-available/mod-http-robots-audit.conf',
    'modules-enabled link, as libnginx-mod-* packages make it';
ok -l '/etc/apache2/mods-enabled/robots_audit.load'
    && -l '/etc/apache2/mods-enabled/robots_audit.conf',
    'a2enmod robots_audit done by the package';
ok -x '/usr/bin/robots-audit', 'the CLI in /usr/bin';
like `/usr/bin/robots-audit --version`, qr/^robots-audit \d/, '... runs';
($rc, $out) = run('man', '-w', 'robots-audit');
is $out, "/usr/share/man/man1/robots-audit.1.gz\n", 'man robots-audit';

SKIP: {
    skip 'stock nginx -t failed before installing', 2 if $ngx0;
    ($rc, $out) = run('nginx', '-t');
    is $rc, 0, 'stock nginx -t with the module loaded' or diag $out;
    ($rc, $out) = run('nginx', '-T');
    like $out, qr/^load_module modules\/ngx_http_robots_audit_module\.so;/m,
        '... through modules-enabled';
}
SKIP: {
    skip 'stock apache2ctl -t failed before installing', 2 if $apx0;
    ($rc, $out) = run('apache2ctl', '-t');
    is $rc, 0, 'stock apache2ctl -t with the module enabled' or diag $out;
    ($rc, $out) = run('apache2ctl', '-M');
    like $out, qr/robots_audit_module \(shared\)/, '... loaded';
}

# a real request through each installed module, private configuration
for my $s (qw(nginx apache)) {
    local $ENV{RA_NGINX_MODULE} = $NGX_SO;
    local $ENV{RA_APACHE_MODULE} = $APX_SO;
    my $h = RA::Harness->new(
        server => $s, workers => 1,
        http => $s eq 'nginx' ? "robots_audit on;\n" : "RobotsAudit On\n",
        files => { 'htdocs/robots.txt' => "User-agent: *\nDisallow: /p\n",
                   'htdocs/index.html' => "home\n" },
    );
    $h->start;
    is $h->get('/robots.txt', ua => $GOOGLEBOT)->{status}, 200,
        "$s: robots.txt served";
    $h->get('/p/x', ua => $GOOGLEBOT);
    my $g = $h->crawler_stats($h->status_json, 'localhost', 'Googlebot');
    is $g && $g->{violation}, 1, "$s: the installed module judged a request";
    $h->stop;
}

# removal: dpkg -r, then purge; the stock configuration as before
($rc, $out) = dpkg('-r', @PKGS);
is $rc, 0, 'dpkg -r' or diag $out;
ok !-e $LINK && !-l $LINK, 'modules-enabled link removed';
ok !-e '/etc/apache2/mods-enabled/robots_audit.load', 'a2dismod done';
ok !-e $NGX_SO && !-e $APX_SO && !-e '/usr/bin/robots-audit', 'files gone';
($rc, $out) = dpkg('--purge', @PKGS);
is $rc, 0, 'dpkg --purge' or diag $out;
is etc_state(), $before, 'stock configuration as it was';
($rc) = run('nginx', '-t');
is $rc, $ngx0, 'nginx -t as before';
($rc) = run('apache2ctl', '-t');
is $rc, $apx0, 'apache2ctl -t as before';
done_testing;
