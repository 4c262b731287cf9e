# SPDX-License-Identifier: BSD-2-Clause
# Apache: the alert budget under a flood of generic bot names,
# t/lib/RA/Scenario/AlertBudget.pm.
use strict;
use warnings;
use RA::Scenario::AlertBudget;

RA::Scenario::AlertBudget->run('apache');
