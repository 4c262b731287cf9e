# SPDX-License-Identifier: BSD-2-Clause
# Apache: the configuration scenario (t/lib/RA/Scenario/Config.pm), and what
# only Apache has: the module's exported symbols, an alert log outside the
# server config refused, a piped alert log, the
# status page without RobotsAudit On anywhere.
use strict;
use warnings;
use Test::More;
use RA::Harness;
use RA::Scenario::Config;

RA::Scenario::Config->run('apache', extra => sub {
    my ($ad) = @_;

    subtest 'exported symbols' => sub {
        my $so = RA::Harness::root() . '/build/mod_robots_audit.so';
        my $nm = `nm -D --defined-only '$so' 2>/dev/null`;
        plan skip_all => 'no nm' if $? != 0 || $nm eq '';
        my @names = map { (split ' ')[-1] } split /\n/, $nm;
        ok((grep { $_ eq 'robots_audit_module' } @names),
           'robots_audit_module');
        my @other = grep { $_ ne 'robots_audit_module' && !/^ra_/ } @names;
        is_deeply \@other, [], 'nothing else without the ra_ prefix';
    };

    # Apache only (nginx's alert log may differ per location)
    RA::Scenario::Config::refused($ad, 'alert log in a Location',
        { http => "RobotsAudit On\n<Location /x>\nRobotsAuditAlertLog /tmp/x\n</Location>\n" },
        qr/RobotsAuditAlertLog not allowed in <Location> context/);

    subtest 'piped alert log' => sub {
        my $h = RA::Harness->new(server => 'apache', workers => 2,
            http => "RobotsAudit On\n"
                  . "RobotsAuditAlertLog \"|/bin/sh -c 'cat >> %%DIR%%/piped.log'\"\n",
            files => { 'htdocs/robots.txt' => "User-agent: *\nDisallow: /x\n" },
        );
        $h->start;
        $h->get('/robots.txt', ua => 'Googlebot/2.1');
        $h->get('/x', ua => 'Googlebot/2.1');
        my $log = $h->wait_for(sub { $h->read_file('piped.log') });
        like $log, qr/^\{"time":"[^"]+","tag":"RA100".*"uri":"\/x".*\}\n\z/,
            'one JSON line through the pipe';
        $h->stop;
    };

    subtest 'no RobotsAudit On anywhere' => sub {
        my $h = RA::Harness->new(server => 'apache', workers => 2,
                                 http => '');
        $h->start;
        my $r = $h->get('/ra-status');
        is $r->{status}, 503, 'status page: 503 without a ledger';
        like $r->{content},
            qr/no ledger: auditing is not on anywhere in the configuration/,
            'saying why';
        $h->stop;
    };
});
