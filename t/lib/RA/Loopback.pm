# SPDX-License-Identifier: BSD-2-Clause
package RA::Loopback;

# Servers a test starts by hand on loopback, outside RA::Harness (whose
# backends are one server each): a raw GET with a Host of the test's
# choosing, free ports, files written whole, an Apache with the module
# on the event MPM, and stopping what was started by its pid files.
# t/lib/RA/Fleet.pm and t/088-apache-events-syslog.t stand on it.

use strict;
use warnings;

use Exporter qw(import);
use IO::Socket::INET;
use Time::HiRes qw(sleep time);

our @EXPORT_OK = qw(http_get free_port spew apache_start stop_pidfiles);

my $HTTPD = $ENV{RA_APACHE} // '/usr/sbin/apache2';
my $MODS = $ENV{RA_APACHE_MODULES} // '/usr/lib/apache2/modules';

# GET $path from 127.0.0.1:$port with Host: $host (HTTP::Tiny refuses
# one) and the header fields %h: {status, content}, status 599 when
# nothing answers
sub http_get {
    my ($port, $path, $host, %h) = @_;
    my $s = IO::Socket::INET->new(PeerAddr => '127.0.0.1', PeerPort => $port,
                                  Proto => 'tcp', Timeout => 5)
        or return { status => 599, content => "connect: $!" };
    my $head = join '', map { "$_: $h{$_}\r\n" } sort keys %h;
    print $s "GET $path HTTP/1.0\r\nHost: $host\r\n$head\r\n";
    local $/;
    my $res = <$s> // '';
    close $s;
    my ($status) = $res =~ m{^HTTP/1\.[01] (\d{3})};
    my ($body) = $res =~ m{\r?\n\r?\n(.*)\z}s;
    return { status => $status // 599, content => $body // '' };
}

# a loopback port free now ($proto: tcp, the default, or udp)
sub free_port {
    my ($proto) = @_;
    $proto //= 'tcp';
    my $s = IO::Socket::INET->new(LocalAddr => '127.0.0.1', LocalPort => 0,
                                  Proto => $proto,
                                  $proto eq 'tcp' ? (Listen => 1) : ())
        or die "no port: $!";
    return $s->sockport;
}

sub spew {
    my ($path, $text) = @_;
    open my $fh, '>', $path or die "$path: $!";
    print $fh $text;
    close $fh;
}

# An Apache in $o{dir} (made here) with the module $o{so}: one child of
# four threads on the event MPM, one virtual host $o{site} on
# 127.0.0.1:$o{port} serving $o{docroot} with RobotsAudit On and the
# status page at /ra-status, $o{events} as RobotsAuditEvents when given.
# Returns its pid file once the page answers.
sub apache_start {
    my (%o) = @_;
    my $d = $o{dir};
    mkdir $d;
    my $mods = join '', map { "LoadModule ${_}_module $MODS/mod_$_.so\n" }
        qw(mpm_event authz_core mime);
    my $user = $> == 0 ? "User nobody\nGroup nogroup\n" : '';
    my $events = $o{events} ? "RobotsAuditEvents \"$o{events}\"\n" : '';
    spew("$d/httpd.conf", $mods . $user . <<"CONF");
ServerRoot "$d"
DefaultRuntimeDir "$d"
PidFile "$d/httpd.pid"
ErrorLog "$d/error.log"
LogLevel warn
LoadModule robots_audit_module $o{so}
TypesConfig /etc/mime.types
Listen 127.0.0.1:$o{port}
ServerName $o{site}
KeepAlive Off
StartServers 1
ServerLimit 1
ThreadsPerChild 4
ThreadLimit 4
MaxRequestWorkers 4
MinSpareThreads 1
MaxSpareThreads 4
$events
<VirtualHost 127.0.0.1:$o{port}>
    ServerName $o{site}
    DocumentRoot "$o{docroot}"
    RobotsAudit On
    <Directory "$o{docroot}">
        Require all granted
    </Directory>
    <Location /ra-status>
        SetHandler robots-audit-status
    </Location>
</VirtualHost>
CONF
    my $out = `$HTTPD -d $d -f $d/httpd.conf -k start 2>&1`;
    die "apache in $d: $out" if $?;
    # up once it answers
    my $deadline = time + 10;
    sleep 0.05 until time > $deadline
        || http_get($o{port}, '/ra-status', $o{site})->{status} != 599;
    return "$d/httpd.pid";
}

# stops the servers of these pid files, the last started first, each
# within 10 s
sub stop_pidfiles {
    for my $pidfile (reverse @_) {
        open my $fh, '<', $pidfile or next;
        my ($pid) = (<$fh> // '') =~ /^(\d+)/;
        close $fh;
        next unless $pid;
        kill 'TERM', $pid;
        my $deadline = time + 10;
        sleep 0.05 while time < $deadline && kill 0, $pid;
    }
}

1;
