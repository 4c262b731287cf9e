# SPDX-License-Identifier: BSD-2-Clause
# Apache: the hostile-input scenario (t/lib/RA/Scenario/Hostile.pm) with the
# event and the prefork MPM.
use strict;
use warnings;
use Test::More;
use RA::Scenario::Hostile;

RA::Scenario::Hostile->run('apache',
    # Apache only: /server-status (mod_status is loaded) still answers
    extra => sub {
        my ($h) = @_;
        like $h->get('/server-status?auto')->{content} // '', qr/.?/,
            'server-status answered';
    },
);
