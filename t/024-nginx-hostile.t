# SPDX-License-Identifier: BSD-2-Clause
# nginx: the hostile-input scenario (t/lib/RA/Scenario/Hostile.pm), twice.
use strict;
use warnings;
use RA::Scenario::Hostile;

RA::Scenario::Hostile->run('nginx');
