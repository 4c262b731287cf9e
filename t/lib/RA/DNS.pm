# SPDX-License-Identifier: BSD-2-Clause
package RA::DNS;

# A DNS server on loopback for the reverse-DNS tests, core Perl only: a
# forked process answering UDP queries from a table (PTR, A, AAAA; any
# other name is NXDOMAIN, a name in "drop" gets no answer at all).  It
# counts the queries it answers in DIR/queries (one line each: TYPE NAME),
# and stops with the object (or ->stop), the one process it started.
# With hold => 1 it answers nothing until ->release: a test can then
# judge requests while their lookups are surely pending.
#
#   my $dns = RA::DNS->new(
#       ptr  => { '127.0.0.2' => 'crawl-1.search.example' },
#       a    => { 'crawl-1.search.example' => [ '127.0.0.2' ] },
#       aaaa => { },
#       drop => [ '127.0.0.9' ]);       # no answer: the resolver times out
#   ... resolver 127.0.0.1:${\ $dns->port };

use strict;
use warnings;

use File::Temp qw(tempdir);
use IO::Select;
use IO::Socket::INET;
use POSIX qw(_exit);
use Socket qw(inet_aton);

our $VERSION = '1';

sub new {
    my ($class, %a) = @_;
    my $dir = tempdir('ra-dns-XXXXXX', TMPDIR => 1, CLEANUP => !$ENV{RA_KEEP});
    my $sock = IO::Socket::INET->new(LocalAddr => '127.0.0.1', LocalPort => 0,
                                     Proto => 'udp')
        or die "RA::DNS: bind: $!";
    my $self = bless { port => $sock->sockport, dir => $dir }, $class;
    my %ptr;
    for my $ip (keys %{ $a{ptr} // {} }) {
        $ptr{ arpa($ip) } = $a{ptr}{$ip};
    }
    my %drop = map { (arpa($_) => 1) } @{ $a{drop} // [] };
    my %a4 = map { (lc $_ => $a{a}{$_}) } keys %{ $a{a} // {} };
    my %a6 = map { (lc $_ => $a{aaaa}{$_}) } keys %{ $a{aaaa} // {} };
    my $pid = fork;
    die "RA::DNS: fork: $!" unless defined $pid;
    if ($pid == 0) {
        serve($sock, "$dir/queries", \%ptr, \%a4, \%a6, \%drop,
              $a{hold} ? "$dir/release" : undef);
        _exit(0);
    }
    close $sock;
    $self->{pid} = $pid;
    return $self;
}

sub port { $_[0]{port} }

# answers the queries held (hold => 1) and every one from now on
sub release {
    my ($self) = @_;
    open my $f, '>', "$self->{dir}/release" or die "RA::DNS: release: $!";
    close $f;
}

# the queries answered so far, as "TYPE NAME" lines
sub queries {
    my ($self) = @_;
    open my $f, '<', "$self->{dir}/queries" or return ();
    my @q = <$f>;
    chomp @q;
    return @q;
}

sub stop {
    my ($self) = @_;
    if ($self->{pid}) {
        kill 'TERM', $self->{pid};
        waitpid $self->{pid}, 0;
        delete $self->{pid};
    }
}

sub DESTROY { $_[0]->stop }

# "127.0.0.2" -> "2.0.0.127.in-addr.arpa"; IPv6 as nibbles under ip6.arpa
sub arpa {
    my ($ip) = @_;
    if ($ip =~ /^\d+\.\d+\.\d+\.\d+$/) {
        return join('.', reverse split /\./, $ip) . '.in-addr.arpa';
    }
    my $hex = unpack 'H*', ipv6($ip);
    return join('.', reverse split //, $hex) . '.ip6.arpa';
}

# 16 bytes of an IPv6 address (with "::")
sub ipv6 {
    my ($ip) = @_;
    my ($l, $r) = split /::/, $ip, 2;
    my @l = grep { length } split /:/, $l // '';
    my @r = grep { length } split /:/, $r // '';
    my @g = (@l, ('0') x (8 - @l - @r), @r);
    return pack 'n8', map { hex } @g;
}

sub name_wire {
    my ($name) = @_;
    return join('', map { chr(length $_) . $_ } split /\./, $name) . "\0";
}

sub serve {
    my ($sock, $log, $ptr, $a4, $a6, $drop, $release) = @_;
    local $SIG{TERM} = sub { _exit(0) };
    my $sel = IO::Select->new($sock);
    my @held;
    while (1) {
        my $holding = defined $release && !-e $release;
        if (!$holding && @held) {
            answer($sock, $log, $ptr, $a4, $a6, $drop, @$_) for @held;
            @held = ();
        }
        next if $holding && !$sel->can_read(0.05);
        my $peer = $sock->recv(my $q, 512);
        next unless defined $peer;
        if ($holding) {
            push @held, [ $q, $peer ];
            next;
        }
        answer($sock, $log, $ptr, $a4, $a6, $drop, $q, $peer);
    }
}

sub answer {
    my ($sock, $log, $ptr, $a4, $a6, $drop, $q, $peer) = @_;
    return unless length $q > 12;
    my ($id, $flags, $qd) = unpack 'n n n', $q;
    return unless $qd == 1;
    my ($off, @labels) = (12);
    while ($off < length $q) {
        my $n = ord substr $q, $off, 1;
        $off++;
        last if $n == 0;
        push @labels, substr $q, $off, $n;
        $off += $n;
    }
    return if $off + 4 > length $q;
    my ($type, $class) = unpack 'n n', substr $q, $off, 4;
    my $question = substr $q, 12, $off + 4 - 12;
    my $name = lc join '.', @labels;
    return if $drop->{$name};
    my $tname = $type == 12 ? 'PTR' : $type == 1 ? 'A'
              : $type == 28 ? 'AAAA' : $type;
    if (open my $f, '>>', $log) {
        print {$f} "$tname $name\n";
        close $f;
    }
    my @rr;
    my $rcode = 0;
    if ($type == 12 && exists $ptr->{$name}) {
        my $rd = name_wire($ptr->{$name});
        push @rr, pack('n n n N n', 0xc00c, 12, 1, 60, length $rd) . $rd;
    } elsif ($type == 1 && exists $a4->{$name}) {
        push @rr, pack('n n n N n', 0xc00c, 1, 1, 60, 4) . inet_aton($_)
            for @{ $a4->{$name} };
    } elsif ($type == 28 && exists $a6->{$name}) {
        push @rr, pack('n n n N n', 0xc00c, 28, 1, 60, 16) . ipv6($_)
            for @{ $a6->{$name} };
    } elsif (!exists $ptr->{$name} && !exists $a4->{$name}
             && !exists $a6->{$name})
    {
        $rcode = 3;                 # NXDOMAIN
    }
    # response, recursion desired copied, recursion available
    my $rflags = 0x8000 | ($flags & 0x0100) | 0x0080 | $rcode;
    my $ans = pack('n n n n n n', $id, $rflags, 1, scalar @rr, 0, 0)
            . $question . join('', @rr);
    $sock->send($ans, 0, $peer);
}

1;
