# SPDX-License-Identifier: BSD-2-Clause
# nginx: range files' ages (RA203, robots_audit_ranges_age_seconds, the
# status page) and verified_by, t/lib/RA/Scenario/RangeAges.pm.
use strict;
use warnings;
use RA::Scenario::RangeAges;

RA::Scenario::RangeAges->run('nginx');
