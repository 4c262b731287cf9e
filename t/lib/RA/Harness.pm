# SPDX-License-Identifier: BSD-2-Clause
package RA::Harness;

# One harness for the nginx and Apache integration tests: a server in a
# temporary directory, raw HTTP requests, its logs and its status page.
# Core Perl only (Test::More, JSON::PP, IO::Socket::INET).

use strict;
use warnings;

use Carp qw(croak);
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use File::Path qw(make_path);
use File::Temp qw(tempdir);
use IO::Socket::INET;
use JSON::PP ();
use Time::HiRes qw(sleep time);

our $VERSION = '1';

my %BACKEND = (
    nginx  => 'RA::Server::Nginx',
    apache => 'RA::Server::Apache',
);

# The repository's root (t/lib/RA/ -> ../../..).
sub root {
    return abs_path(dirname(__FILE__) . '/../../..');
}

sub backend_class {
    my ($server) = @_;
    my $class = $BACKEND{$server} or croak "RA::Harness: unknown server '$server'";
    (my $file = "$class.pm") =~ s{::}{/}g;
    require $file;
    return $class;
}

# Why the tests of this server cannot run here, or undef when they can.
sub skip_reason {
    my ($class, $server) = @_;
    return backend_class($server)->unavailable(root());
}

sub new {
    my ($class, %a) = @_;
    my $server = $a{server} or croak 'RA::Harness->new: server => nginx|apache';
    my $self = bless {
        server      => $server,
        workers     => $a{workers} // 2,
        http        => $a{http} // '',
        server_conf => $a{server_conf} // '',
        files       => $a{files} // {},
        ports       => $a{ports} // 1,
        status_path => $a{status_path} // '/ra-status',
        timeout     => $a{timeout} // 10,
        opts        => { %a },
        root        => root(),
    }, $class;
    $self->{dir} = tempdir("ra-$server-XXXXXX", TMPDIR => 1,
                           CLEANUP => !$ENV{RA_KEEP});
    chmod 0755, $self->{dir};
    $self->{port_list} = [ map { free_port() } 1 .. $self->{ports} ];
    $self->{backend} = backend_class($server)->new($self);
    return $self;
}

sub free_port {
    my $s = IO::Socket::INET->new(LocalAddr => '127.0.0.1', LocalPort => 0,
                                  Proto => 'tcp', Listen => 1, ReuseAddr => 1)
        or die "free_port: $!";
    my $p = $s->sockport;
    close $s;
    return $p;
}

# A loopback port where nothing listens, and nothing can for as long as
# this process lives: a socket bound to it, never listening, holds it (a
# port free_port() found could be taken by another test's server before
# the backend that should be dead is dialled).
my @DEAD;
sub dead_port {
    my $s = IO::Socket::INET->new(LocalAddr => '127.0.0.1', LocalPort => 0,
                                  Proto => 'tcp')
        or die "dead_port: $!";
    push @DEAD, $s;
    return $s->sockport;
}

# The children of a process, from /proc, lowest pid first.
sub children_of {
    my ($pid) = @_;
    my @kids;
    for my $stat (glob '/proc/[0-9]*/stat') {
        open my $fh, '<', $stat or next;
        my $line = <$fh> // '';
        close $fh;
        # pid (comm) state ppid ...
        push @kids, $1 if $line =~ /^(\d+) \(.*\) \S+ (\d+) / && $2 == $pid;
    }
    @kids = sort { $a <=> $b } @kids;
    return @kids;               # a count in scalar context
}

sub dir     { $_[0]{dir} }
sub backend { $_[0]{backend} }
sub port    { my ($self, $i) = @_; return $self->{port_list}[$i // 0] }

sub path {
    my ($self, $rel) = @_;
    return "$self->{dir}/$rel";
}

# %%DIR%%, %%PORT%%, %%PORT1%%..., %%ROOT%% in fragments and files.
sub expand {
    my ($self, $text) = @_;
    $text =~ s/%%DIR%%/$self->{dir}/g;
    $text =~ s/%%ROOT%%/$self->{root}/g;
    $text =~ s/%%PORT(\d*)%%/$self->{port_list}[$1 eq '' ? 0 : $1]/g;
    return $text;
}

sub write_file {
    my ($self, $rel, $content, $raw) = @_;
    my $path = $self->path($rel);
    make_path(dirname($path), { mode => 0755 });
    open my $fh, '>:raw', $path or die "write $path: $!";
    print $fh ($raw ? $content : $self->expand($content));
    close $fh or die "write $path: $!";
    chmod 0644, $path;
    return $path;
}

sub read_file {
    my ($self, $rel) = @_;
    my $path = $rel =~ m{^/} ? $rel : $self->path($rel);
    open my $fh, '<:raw', $path or return '';
    local $/;
    my $s = <$fh>;
    return $s // '';
}

sub write_files {
    my ($self) = @_;
    make_path($self->path('htdocs'), { mode => 0755 });
    for my $rel (sort keys %{ $self->{files} }) {
        $self->write_file($rel, $self->{files}{$rel});
    }
}

# Starts the server; dies with the error log when it does not come up.
sub start {
    my ($self) = @_;
    $self->write_files;
    $self->{backend}->write_config($self);
    $self->{backend}->start($self);
    $self->{started} = 1;
    $self->wait_ready;
    return $self;
}

sub wait_ready {
    my ($self) = @_;
    my $deadline = time + $self->{timeout};
    while (time < $deadline) {
        my $s = IO::Socket::INET->new(PeerAddr => '127.0.0.1',
                                      PeerPort => $self->port, Proto => 'tcp',
                                      Timeout => 1);
        if ($s) { close $s; return 1 }
        sleep 0.05;
    }
    die "server did not come up on port " . $self->port . ":\n"
        . $self->error_log;
}

# Graceful reload (nginx -s reload, apache2 -k graceful); returns when the
# new configuration serves.
sub reload {
    my ($self) = @_;
    $self->{backend}->write_config($self);
    $self->{backend}->reload($self);
    $self->wait_ready;
    return $self;
}

sub stop {
    my ($self) = @_;
    return unless $self->{started};
    $self->{backend}->stop($self);
    $self->{started} = 0;
}

sub DESTROY {
    my ($self) = @_;
    local ($?, $@, $!);
    eval { $self->stop };
}

# `nginx -t` / `apache2ctl -t` over the written configuration:
# (exit status, combined output).
sub config_test {
    my ($self) = @_;
    $self->write_files;
    $self->{backend}->write_config($self);
    return $self->{backend}->config_test($self);
}

sub error_log  { $_[0]->read_file($_[0]{backend}->error_log_path($_[0])) }
sub alert_log  { $_[0]->read_file($_[0]{backend}->alert_log_path($_[0])) }
sub access_log { $_[0]->read_file($_[0]{backend}->access_log_path($_[0])) }

# A raw HTTP/1.1 request (Connection: close) so that anything can be sent:
# any Host, any User-Agent, bytes a client library would refuse.
#   ->get($path, ua => ..., host => ..., headers => {...}, method => ...,
#         port => ..., from => loopback address to connect from,
#         raw => "whole request")
# Returns { status, headers => { lower-case name => value }, content }.
sub get {
    my ($self, $path, %o) = @_;
    my $port = $o{port} // $self->port;
    my $req = $o{raw};
    if (!defined $req) {
        my $method = $o{method} // 'GET';
        my $host = $o{host} // 'localhost';
        $req = "$method $path HTTP/1.1\r\nHost: $host\r\n";
        $req .= "User-Agent: $o{ua}\r\n" if defined $o{ua};
        for my $k (sort keys %{ $o{headers} // {} }) {
            $req .= "$k: $o{headers}{$k}\r\n";
        }
        $req .= "Connection: close\r\n\r\n";
    }
    my $s = IO::Socket::INET->new(PeerAddr => '127.0.0.1', PeerPort => $port,
                                  Proto => 'tcp', Timeout => $self->{timeout},
                                  ($o{from} ? (LocalAddr => $o{from}) : ()))
        or die "connect to $port" . ($o{from} ? " from $o{from}" : '')
               . ": $!";
    binmode $s;
    print $s $req;
    my $resp = '';
    my $deadline = time + $self->{timeout};
    while (time < $deadline) {
        my $n = sysread($s, my $chunk, 65536);
        last if !$n;
        $resp .= $chunk;
    }
    close $s;
    return parse_response($resp, ($o{method} // 'GET') eq 'HEAD');
}

sub parse_response {
    my ($resp, $head) = @_;
    my %r = (status => 0, headers => {}, content => '', raw => $resp);
    my $i = index($resp, "\r\n\r\n");
    return \%r if $i < 0;
    my @lines = split /\r\n/, substr($resp, 0, $i);
    my $body = substr($resp, $i + 4);
    ($r{status}) = (shift(@lines) // '') =~ m{^HTTP/\d\.\d (\d{3})};
    $r{status} //= 0;
    for (@lines) {
        my ($k, $v) = /^([^:]+):\s*(.*)$/ or next;
        $k = lc $k;
        $r{headers}{$k} = exists $r{headers}{$k} ? "$r{headers}{$k}, $v" : $v;
    }
    if (!$head && ($r{headers}{'transfer-encoding'} // '') =~ /chunked/i) {
        my $out = '';
        while ($body =~ s/^([0-9a-fA-F]+)[^\r\n]*\r\n//) {
            my $n = hex $1;
            last if $n == 0;
            $out .= substr($body, 0, $n, '');
            $body =~ s/^\r\n//;
        }
        $body = $out;
    }
    $r{content} = $head ? '' : $body;
    return \%r;
}

# The status page as JSON (dies when it is not valid JSON).
sub status_json {
    my ($self, %o) = @_;
    my $r = $self->get("$self->{status_path}?format=json", %o);
    die "status page: HTTP $r->{status}\n$r->{content}" if $r->{status} != 200;
    my $cl = $r->{headers}{'content-length'};
    die sprintf("status page: %d bytes of the %s announced\n",
                length $r->{content}, $cl)
        if defined $cl && $cl != length $r->{content};
    return JSON::PP->new->utf8->decode($r->{content});
}

# Finds the counters of a (site, crawler, verification) in a status JSON.
sub crawler_stats {
    my ($self, $json, $site, $crawler, $verification) = @_;
    for my $s (@{ $json->{sites} // [] }) {
        next unless $s->{site} eq $site;
        for my $c (@{ $s->{crawlers} // [] }) {
            next unless $c->{crawler} eq $crawler;
            next if defined $verification && $c->{verification} ne $verification;
            return $c;
        }
    }
    return undef;
}

sub site_json {
    my ($self, $json, $site) = @_;
    for my $s (@{ $json->{sites} // [] }) {
        return $s if $s->{site} eq $site;
    }
    return undef;
}

# Polls until code returns true (alert lines are written after the
# response, from another process).
sub wait_for {
    my ($self, $code, $seconds) = @_;
    my $deadline = time + ($seconds // 5);
    while (time < $deadline) {
        my $v = $code->();
        return $v if $v;
        sleep 0.05;
    }
    return $code->();
}

1;

__END__

=head1 NAME

RA::Harness - run nginx or Apache with robots-audit for the t/ tests

=head1 SYNOPSIS

    use RA::Harness;
    my $why = RA::Harness->skip_reason('apache');
    plan skip_all => $why if $why;

    my $h = RA::Harness->new(
        server      => 'apache',         # or 'nginx'
        workers     => 2,                # worker processes / children
        mpm         => 'prefork',        # Apache only: event (default), prefork, worker
        http        => $global_fragment, # nginx http{} / Apache server config
        server_conf => $vhost_fragment,  # nginx server{} / Apache <VirtualHost>
        files       => { 'htdocs/robots.txt' => "User-agent: *\n..." },
        ports       => 2,                # %%PORT%%, %%PORT1%%, ...
    );
    $h->start;
    my $r = $h->get('/private', ua => 'Googlebot/2.1', host => 'localhost');
    is $r->{status}, 200;
    my $json = $h->status_json;
    $h->reload;                          # graceful
    like $h->error_log, qr/\[RA100\]/;
    $h->stop;

=head1 FRAGMENTS AND FILES

Fragments and files are written with C<%%DIR%%> (the server's temporary
directory), C<%%PORT%%> / C<%%PORTn%%> (the listening ports) and C<%%ROOT%%>
(the repository) replaced.  File names are relative to the directory;
C<htdocs/> is the main site's document root.  The directory is removed at
exit unless C<RA_KEEP=1>.

Every backend serves the status page at C</ra-status> of the main site
(C<status_path>), writes the JSON alert log to the file that C<alert_log>
reads (unless the fragment names another one) and keeps an access log
(C<access_log>) whose lines start with the serving process's pid.

=head1 METHODS

C<start>, C<reload> (graceful), C<stop>, C<config_test> (returns the exit
status and output of C<nginx -t> / C<apache2 -t>), C<port($i)>, C<dir>,
C<path($rel)>, C<write_file($rel, $text)>, C<get($path, %opts)> (a raw
HTTP/1.1 request; options C<ua>, C<host>, C<headers>, C<method>, C<port>,
C<raw> for a whole request as bytes; returns C<{status, headers, content}>),
C<status_json>, C<crawler_stats($json, $site, $crawler, $verification)>,
C<site_json($json, $site)>, C<error_log>, C<alert_log>, C<access_log>,
C<wait_for($code, $seconds)>.

=head1 SHARED SCENARIOS

A scenario both servers run is written once, in F<t/lib/RA/Scenario/>
(Verdicts, Enforce, Hostile, Config), and run per server by a short driver
(F<t/020-nginx-verdicts.t>, F<t/030-apache-verdicts.t>, ...).  It configures
the server through C<RA::Adapter> (C<< RA::Adapter->for('nginx') >>), which
turns server-neutral settings into fragments and knows what legitimately
differs between the servers (log formats, what each answers by itself).
Checks only one server has stay in its driver.

=head1 BACKEND INTERFACE

A backend is C<RA::Server::Nginx> or C<RA::Server::Apache> in
F<t/lib/RA/Server/>.  The harness calls:

=over

=item C<< Class->unavailable($root) >>

A reason to skip (the server binary or the built module is missing), or
undef.

=item C<< Class->new($harness) >>

The backend reads C<< $harness->{workers} >>, C<{http}>, C<{server_conf}>,
C<{opts}> (every option given to C<new>) and C<< $harness->expand >>.

=item C<< $b->write_config($h) >>, C<< $b->start($h) >>, C<< $b->reload($h) >>, C<< $b->stop($h) >>

C<start> returns once the master process runs (the harness then waits for
the port); C<reload> returns once the new generation serves; C<stop> once
every process has exited.

=item C<< $b->config_test($h) >>

C<($exit_status, $output)> of the server's configuration test.

=item C<< $b->error_log_path($h) >>, C<< $b->alert_log_path($h) >>, C<< $b->access_log_path($h) >>

=back

=cut
