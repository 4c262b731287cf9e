# SPDX-License-Identifier: BSD-2-Clause
package RA::Adapter;

# What differs between nginx and Apache for the scenarios that both servers
# run (t/lib/RA/Scenario/*.pm): how to write a configuration from a few
# server-neutral settings, how each server's logs and messages look, and
# what each one answers by itself.  Core Perl only.
#
#   my $ad = RA::Adapter->for('nginx');          # or 'apache'
#   for my $v ($ad->variants) {                  # fresh servers to run on
#       my $h = $ad->harness($v, { audit => 1, enforce => 1,
#                                  robots_file => '%%DIR%%/r.txt' },
#                            files => {...});
#   }
#
# Subclasses: RA::Adapter::Nginx, RA::Adapter::Apache.  See SETTINGS below
# for the configuration vocabulary.

use strict;
use warnings;

use Carp qw(croak);
use RA::Harness;

our $VERSION = '1';

my %CLASS = (
    nginx  => 'RA::Adapter::Nginx',
    apache => 'RA::Adapter::Apache',
);

sub for {
    my ($class, $server) = @_;
    my $sub = $CLASS{$server} or croak "RA::Adapter: unknown server '$server'";
    (my $file = "$sub.pm") =~ s{::}{/}g;
    require $file;
    return $sub->new;
}

sub new { my ($class) = @_; return bless {}, $class }

sub skip_reason { RA::Harness->skip_reason($_[0]->server) }

# A harness for one variant, configured from the settings; %a are further
# options of RA::Harness->new (files, workers, ...).
sub harness {
    my ($self, $variant, $settings, %a) = @_;
    my %frag = $self->fragments(%{ $settings // {} });
    return RA::Harness->new(server => $self->server, workers => 2,
                            %{ $variant->{opts} // {} }, %frag, %a);
}

# Both servers' crashes and emergencies, one pattern: nginx writes
# "[alert] ... exited on signal 11", Apache "[core:alert]" and AH00052.
sub crash_re {
    return qr/\[(?:\w+:)?(?:emerg|crit|alert)\]|signal 11|exited on|AH00052|segfault/i;
}

# The same without emergencies (a refused reload writes one).
sub crash_re_no_emerg {
    return qr/\[(?:\w+:)?(?:crit|alert)\]|signal 11|exited on|AH00052|segfault/i;
}

# Points a started harness at new settings (for ->reload).
sub reconfigure {
    my ($self, $h, $settings) = @_;
    my %frag = $self->fragments(%$settings);
    $h->{http} = delete $frag{http};
    $h->{server_conf} = delete $frag{server_conf};
    $h->{opts}{$_} = $frag{$_} for keys %frag;
    return $h;
}

# Text as it appears in the error log: the server may escape it once more.
sub errlog_text { $_[1] }

# An enforce setting as the directive's words: 1 is "on", 0 "off", a string
# its words ("violation unreachable").
sub enforce_words {
    my ($self, $e) = @_;
    return $e eq '1' ? 'on' : $e eq '0' ? 'off' : $e;
}

1;

__END__

=head1 NAME

RA::Adapter - what the shared t/ scenarios need to know about each server

=head1 SETTINGS

C<fragments(%settings)> returns RA::Harness options (C<http>,
C<server_conf>, and C<zone_size> for nginx) for:

=over

=item C<audit>, C<enforce>

On globally (C<robots_audit on> / C<RobotsAudit On>, ...); C<enforce> may
also be the directive's words (C<'violation unreachable'>), everywhere it
is taken.

=item C<zone>

The shared zone's size (C<robots_audit_zone ra SIZE> / C<RobotsAuditZoneSize>).

=item C<ip_ranges> (list), C<crawlers> (list), C<signature_keys>, C<alert_interval>, C<alert_log>, C<alert_budget>, C<alert_purposes>, C<evidence_log>, C<evidence_budget>

The global files and settings (C<signature_keys>: a directory of Web Bot
Auth key sets).

=item C<state>, C<state_interval>

The ledger's state file and the time between two saves
(C<robots_audit_state> / C<RobotsAuditState>, ...).

=item C<notice_log>

The module's lines at C<notice> written too (the harness's error log is at
C<warn>); C<< $ad->notice_log($h) >> reads them.

=item C<resolver>

C<ADDR:PORT> of the DNS server reverse DNS asks (C<resolver> /
C<RobotsAuditResolver>).

=item C<robots_file>, C<aliases> (list), C<error_page_403>, C<locations>

The main site's: its robots.txt file, more names (C<server_name> /
C<ServerAlias>), a local page answering 403s, and
C<[ [ '/path', audit =E<gt> 0 ], [ '/other', enforce =E<gt> 0 ] ]>.

=item C<vhosts>

C<[ { name =E<gt> 'a.test', aliases =E<gt> [...], robots_5xx =E<gt> 1 } ]>:
more sites on the main port, serving F<htdocs/>; C<robots_5xx> makes their
robots.txt answer 5xx (C<robots_5xx_status>), C<robots_proxy =E<gt> URL>
passes their robots.txt to a backend (RA::Upstream), C<enforce> is the
site's own enforce setting.

=item C<large_headers>

Header lines of 64 KiB and more accepted.

=item C<quiet_not_found>

Missing files not logged at C<warn> and above (nginx logs them at
C<error>, with the decoded URI's raw bytes).

=item C<http>, C<server_conf>

Raw text appended to the server's own fragments.

=back

=head1 PER-SERVER FACTS

C<server>, C<variants> (C<{ name, opts }>: the fresh servers every scenario
runs on), C<reload_name>, C<site_name_directive>, C<alert_prefix> (a pattern
for what precedes C<robots-audit: [RA100]> on an alert's error-log line),
C<log_line_re> (how every error-log line starts), C<errlog_text($s)> (C<$s>
as the error log shows it), C<crash_re>, C<crash_re_no_emerg>,
C<min_interval>, C<min_zone>, C<robots_5xx_status>.

For RA::Scenario::Http2: C<http2($variant)>, cleartext HTTP/2 with prior
knowledge on the main site: C<server_conf> (the fragment), C<opts> (more
RA::Harness options), C<port> (the index of the port that speaks it), or
C<skip> (why this variant cannot).

What the server's own HTTP parser does: C<ctl_header_status> (the status and
the check's name for control bytes in a header value),
C<judges_refused_target> (whether a request target refused with 400 is
still judged: Apache reads the headers first, nginx does not).

For RA::Scenario::Config: C<config_ok_re>, C<nothing_configured>,
C<lint_prefix>, C<lint_place>, C<resize_re>, C<refused_reload_logs_emerg>,
C<config_refusals> (kind =E<gt> [ RA::Harness options, message ], one for
each refusal kind the scenario lists), and C<reconfigure($h, \%settings)>
before C<< $h->reload >>.

=cut
