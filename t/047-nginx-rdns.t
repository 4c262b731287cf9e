# SPDX-License-Identifier: BSD-2-Clause
# nginx: forward-confirmed reverse DNS, t/lib/RA/Scenario/Rdns.pm, twice.
use strict;
use warnings;
use RA::Scenario::Rdns;

RA::Scenario::Rdns->run('nginx');
