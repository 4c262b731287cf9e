# SPDX-License-Identifier: BSD-2-Clause
# Apache: undeclared crawlers (a browser's User-Agent, a crawler's behaviour):
# flagged, alerted (RA104), refused by enforce undeclared, shown on the
# status page; a person never, t/lib/RA/Scenario/Undeclared.pm.
use strict;
use warnings;
use RA::Scenario::Undeclared;

RA::Scenario::Undeclared->run('apache');
