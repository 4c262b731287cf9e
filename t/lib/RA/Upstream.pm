# SPDX-License-Identifier: BSD-2-Clause
package RA::Upstream;

# A tiny HTTP/1.1 backend on loopback for the proxy tests, core Perl only:
# a forked process that answers every request for /NAME with the bytes of
# the file DIR/NAME (read afresh each time, so a test can change the
# answer between requests) and the header lines of DIR/NAME.headers, if
# any, after "Content-Length" and "Connection: close".  A missing file is
# a 404.  It stops with the object (or ->stop), the one process it
# started.
#
#   my $up = RA::Upstream->new(dir => "$dir/upstream");
#   my $up = RA::Upstream->new;   # a temporary directory of its own
#                                 # ($up->dir; kept when RA_KEEP is set)
#   $up->put('robots.txt', $gzipped, "Content-Type: text/plain\r\n"
#                                  . "Content-Encoding: gzip\r\n");
#   ... proxy_pass http://127.0.0.1:${\ $up->port };

use strict;
use warnings;

use File::Path qw(make_path);
use File::Temp qw(tempdir);
use IO::Socket::INET;
use POSIX qw(WNOHANG _exit);
use Time::HiRes qw(sleep time);

our $VERSION = '1';

sub new {
    my ($class, %a) = @_;
    my $dir = $a{dir} // tempdir('ra-upstream-XXXXXX', TMPDIR => 1,
                                 CLEANUP => !$ENV{RA_KEEP});
    make_path($dir, { mode => 0755 });
    my $listen = IO::Socket::INET->new(LocalAddr => '127.0.0.1',
                                       LocalPort => 0, Proto => 'tcp',
                                       Listen => 16, ReuseAddr => 1)
        or die "RA::Upstream: listen: $!";
    my $self = bless { dir => $dir, port => $listen->sockport,
                       requests => "$dir/.requests" }, $class;
    my $pid = fork;
    die "RA::Upstream: fork: $!" unless defined $pid;
    if ($pid == 0) {
        $self->serve($listen);
        _exit(0);
    }
    close $listen;
    $self->{pid} = $pid;
    return $self;
}

sub port { $_[0]{port} }
sub dir  { $_[0]{dir} }

# put(NAME, BODY, HEADER_LINES[, STATUS]): what /NAME answers from now on
# (STATUS: "503 Service Unavailable"; default "200 OK")
sub put {
    my ($self, $name, $body, $headers, $status) = @_;
    for ([ $name, $body ], [ "$name.headers", $headers // '' ],
         [ "$name.status", $status // '200 OK' ])
    {
        my $path = "$self->{dir}/$_->[0]";
        open my $fh, '>:raw', "$path.tmp" or die "write $path: $!";
        print $fh $_->[1];
        close $fh or die "write $path: $!";
        rename "$path.tmp", $path or die "rename $path: $!";
    }
    return $self;
}

# How many requests were answered (each writes a line).
sub requests {
    my ($self) = @_;
    open my $fh, '<', $self->{requests} or return 0;
    my @l = <$fh>;
    close $fh;
    return scalar @l;
}

sub slurp {
    my ($path) = @_;
    open my $fh, '<:raw', $path or return undef;
    local $/;
    my $s = <$fh>;
    close $fh;
    return $s // '';
}

sub serve {
    my ($self, $listen) = @_;
    local $SIG{TERM} = sub { _exit(0) };
    while (my $c = $listen->accept) {
        binmode $c;
        my $req = '';
        my $deadline = time + 5;
        while ($req !~ /\r\n\r\n/ && time < $deadline) {
            my $n = sysread($c, my $chunk, 4096);
            last unless $n;
            $req .= $chunk;
        }
        my ($path) = $req =~ m{^[A-Z]+ (/[^ ?]*)};
        $path //= '/';
        (my $name = $path) =~ s{^/+}{};
        $name =~ s{[^A-Za-z0-9._-]}{_}g;
        my $body = $name ne '' ? slurp("$self->{dir}/$name") : undef;
        my $resp;
        if (defined $body) {
            my $h = slurp("$self->{dir}/$name.headers") // '';
            my $st = slurp("$self->{dir}/$name.status") || '200 OK';
            $resp = "HTTP/1.1 $st\r\n$h"
                  . 'Content-Length: ' . length($body) . "\r\n"
                  . "Connection: close\r\n\r\n"
                  . ($req =~ /^HEAD / ? '' : $body);
        } else {
            $resp = "HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\n"
                  . "Content-Length: 10\r\nConnection: close\r\n\r\n"
                  . "not found\n";
        }
        print $c $resp;
        close $c;
        if (open my $log, '>>', $self->{requests}) {
            print $log "$path\n";
            close $log;
        }
    }
}

sub stop {
    my ($self) = @_;
    my $pid = delete $self->{pid} or return;
    kill 'TERM', $pid;
    my $deadline = time + 5;
    while (time < $deadline) {
        return if waitpid($pid, WNOHANG) == $pid;
        sleep 0.05;
    }
    kill 'KILL', $pid;
    waitpid($pid, 0);
}

sub DESTROY {
    my ($self) = @_;
    local ($?, $@, $!);
    $self->stop if $self->{pid};
}

1;
