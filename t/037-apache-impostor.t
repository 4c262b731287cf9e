# SPDX-License-Identifier: BSD-2-Clause
# Apache: impostors alert (RA102), t/lib/RA/Scenario/Impostor.pm, with the
# event and the prefork MPM.
use strict;
use warnings;
use RA::Scenario::Impostor;

RA::Scenario::Impostor->run('apache');
