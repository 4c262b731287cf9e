# SPDX-License-Identifier: BSD-2-Clause
# nginx: the verdicts scenario (t/lib/RA/Scenario/Verdicts.pm), twice.
use strict;
use warnings;
use RA::Scenario::Verdicts;

RA::Scenario::Verdicts->run('nginx');
