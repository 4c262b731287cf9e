# SPDX-License-Identifier: BSD-2-Clause
package RA::Server::Apache;

# The stock Debian Apache (/usr/sbin/apache2) with build/mod_robots_audit.so,
# in a temporary ServerRoot: no /etc/apache2, no envvars, absolute paths.

use strict;
use warnings;

use POSIX qw(WNOHANG);
use Time::HiRes qw(sleep time);

my $HTTPD = $ENV{RA_APACHE} // '/usr/sbin/apache2';
my $MODS  = $ENV{RA_APACHE_MODULES} // '/usr/lib/apache2/modules';

sub module_path {
    my ($root) = @_;
    return $ENV{RA_APACHE_MODULE} // "$root/build/mod_robots_audit.so";
}

sub unavailable {
    my ($class, $root) = @_;
    return "no $HTTPD (apt-get install apache2)" unless -x $HTTPD;
    my $so = module_path($root);
    return "no $so (run make)" unless -f $so;
    return "no $MODS/mod_mpm_event.so" unless -f "$MODS/mod_mpm_event.so";
    return undef;
}

sub new {
    my ($class, $h) = @_;
    my $mpm = $h->{opts}{mpm} // 'event';
    die "RA::Server::Apache: unknown mpm '$mpm'"
        unless $mpm =~ /^(event|worker|prefork)$/;
    return bless { mpm => $mpm }, $class;
}

sub conf_path       { $_[1]->path('httpd.conf') }
sub pid_path        { $_[1]->path('httpd.pid') }
sub error_log_path  { $_[1]->path('error.log') }
sub alert_log_path  { $_[1]->path('alert.log') }
sub access_log_path { $_[1]->path('access.log') }

sub mpm_conf {
    my ($self, $n) = @_;
    if ($self->{mpm} eq 'prefork') {
        return "StartServers $n\nMinSpareServers $n\nMaxSpareServers $n\n"
             . "ServerLimit $n\nMaxRequestWorkers $n\n";
    }
    my $threads = 4;
    my $max = $n * $threads;
    return "StartServers $n\nServerLimit $n\nThreadsPerChild $threads\n"
         . "ThreadLimit $threads\nMaxRequestWorkers $max\n"
         . "MinSpareThreads 1\nMaxSpareThreads $max\n";
}

sub write_config {
    my ($self, $h) = @_;
    my $dir = $h->dir;
    my $so = module_path($h->{root});
    my $port = $h->port;
    my $n = $h->{workers};
    my $http = $h->expand($h->{http});
    my $vhost = $h->expand($h->{server_conf});
    my $listen = join '', map { "Listen 127.0.0.1:$_\n" } @{ $h->{port_list} };
    my $user = $> == 0 ? "User nobody\nGroup nogroup\n" : '';
    my $alert = $http =~ /RobotsAuditAlertLog/
              ? '' : "RobotsAuditAlertLog \"$dir/alert.log\"\n";
    # opts modules => [ 'deflate', 'filter' ]: more of Debian's modules
    my $mods = join '', map { "LoadModule ${_}_module $MODS/mod_$_.so\n" }
        ("mpm_$self->{mpm}", qw(authz_core authz_host mime dir alias
                                 rewrite proxy proxy_http status headers),
         @{ $h->{opts}{modules} // [] });
    my $conf = <<"EOF";
# written by t/lib/RA/Server/Apache.pm
ServerRoot "$dir"
DefaultRuntimeDir "$dir"
PidFile "$dir/httpd.pid"
ErrorLog "$dir/error.log"
LogLevel warn
$mods
LoadModule robots_audit_module $so
TypesConfig /etc/mime.types
$user$listen
ServerName localhost
KeepAlive Off
Timeout 20
@{[ $self->mpm_conf($n) ]}
LogFormat "%P %>s \\"%r\\" \\"%{User-Agent}i\\"" ra
CustomLog "$dir/access.log" ra
$alert
# the main site comes first: the default for Host values no vhost names
<VirtualHost 127.0.0.1:$port>
    ServerName localhost
    DocumentRoot "$dir/htdocs"
    <Directory "$dir/htdocs">
        Require all granted
    </Directory>
    <Location $h->{status_path}>
        SetHandler robots-audit-status
    </Location>
$vhost
</VirtualHost>

$http
EOF
    open my $fh, '>', $self->conf_path($h) or die "write config: $!";
    print $fh $conf;
    close $fh;
    return $conf;
}

sub run {
    my ($self, $h, @args) = @_;
    my $cmd = join ' ', map { quotemeta } $HTTPD, '-d', $h->dir, '-f',
                                          $self->conf_path($h), @args;
    my $out = `$cmd 2>&1`;
    return ($? >> 8, $out);
}

sub read_pid {
    my ($self, $h) = @_;
    open my $fh, '<', $self->pid_path($h) or return undef;
    my $pid = <$fh>;
    close $fh;
    return $pid && $pid =~ /^(\d+)/ ? $1 : undef;
}

sub start {
    my ($self, $h) = @_;
    unlink $self->pid_path($h);
    my ($rc, $out) = $self->run($h, '-k', 'start');
    die "apache2 -k start failed ($rc):\n$out\n" . $h->error_log if $rc;
    my $deadline = time + 10;
    while (time < $deadline) {
        $self->{pid} = $self->read_pid($h);
        return 1 if $self->{pid};
        sleep 0.05;
    }
    die "apache2 wrote no pid file:\n$out\n" . $h->error_log;
}

sub generations {
    my ($self, $h) = @_;
    my @n = $h->error_log =~ /resuming normal operations/g;
    return scalar @n;
}

sub reload {
    my ($self, $h) = @_;
    my $before = $self->generations($h);
    my ($rc, $out) = $self->run($h, '-k', 'graceful');
    die "apache2 -k graceful failed ($rc):\n$out\n" . $h->error_log if $rc;
    my $deadline = time + 10;
    while (time < $deadline) {
        return 1 if $self->generations($h) > $before;
        sleep 0.05;
    }
    die "apache2 did not come back after graceful:\n" . $h->error_log;
}

sub stop {
    my ($self, $h) = @_;
    my $pid = $self->{pid} // $self->read_pid($h) or return;
    kill 'TERM', $pid;
    my $deadline = time + 10;
    while (time < $deadline && kill(0, $pid)) {
        waitpid($pid, WNOHANG);
        sleep 0.05;
    }
    kill 'KILL', $pid if kill 0, $pid;
    delete $self->{pid};
}

# apache2ctl -t, as an operator runs it: APACHE_CONFDIR points it at the
# temporary ServerRoot (no envvars there) and -f at our file.
sub config_test {
    my ($self, $h) = @_;
    my $ctl = $ENV{RA_APACHECTL} // '/usr/sbin/apache2ctl';
    return $self->run($h, '-t') unless -x $ctl;
    local $ENV{APACHE_CONFDIR} = $h->dir;
    local $ENV{APACHE_ARGUMENTS} = '-f ' . $self->conf_path($h);
    local $ENV{APACHE_HTTPD} = $HTTPD;
    my $out = `$ctl -t 2>&1`;
    return ($? >> 8, $out);
}

1;
