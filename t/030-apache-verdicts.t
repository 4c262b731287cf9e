# SPDX-License-Identifier: BSD-2-Clause
# Apache: the verdicts scenario (t/lib/RA/Scenario/Verdicts.pm) with the
# event and the prefork MPM, and mod_status's robots-audit section.
use strict;
use warnings;
use Test::More;
use RA::Scenario::Verdicts;

RA::Scenario::Verdicts->run('apache',
    http => <<'EOF2',
<Location /server-status>
    SetHandler server-status
</Location>
<Location /srv-info-elsewhere>
    SetHandler server-status
</Location>
EOF2
    # mod_status at its usual path and elsewhere (its handler says it)
    server_pages => [ '/server-status', '/server-status?auto',
                      '/srv-info-elsewhere' ],
    # Apache only: mod_status
    extra => sub {
        my ($h) = @_;
        my $r = $h->get('/server-status?auto');
        like $r->{content}, qr/^RobotsAuditRequests: \d+$/m, '?auto section';
        like $r->{content}, qr/^RobotsAuditViolations: 3$/m,
            '?auto violations';
        $r = $h->get('/server-status');
        like $r->{content}, qr{<h2>robots-audit</h2>}, 'HTML section';
        like $r->{content}, qr{<td>localhost</td>}, 'HTML section site row';
    },
);
