# SPDX-License-Identifier: BSD-2-Clause
# Apache: forward-confirmed reverse DNS, t/lib/RA/Scenario/Rdns.pm, under
# each MPM.
use strict;
use warnings;
use RA::Scenario::Rdns;

RA::Scenario::Rdns->run('apache');
