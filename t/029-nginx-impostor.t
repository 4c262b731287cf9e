# SPDX-License-Identifier: BSD-2-Clause
# nginx: impostors alert (RA102), t/lib/RA/Scenario/Impostor.pm, twice.
use strict;
use warnings;
use RA::Scenario::Impostor;

RA::Scenario::Impostor->run('nginx');
