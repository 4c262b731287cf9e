# SPDX-License-Identifier: BSD-2-Clause
# nginx: the ledger's state file across a full stop and start, a kill -9,
# a corrupt and a torn file, t/lib/RA/Scenario/State.pm.
use strict;
use warnings;
use RA::Scenario::State;

RA::Scenario::State->run('nginx');
