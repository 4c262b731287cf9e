# SPDX-License-Identifier: BSD-2-Clause
# Apache: the enforce scenario (t/lib/RA/Scenario/Enforce.pm) with the event
# and the prefork MPM.
use strict;
use warnings;
use RA::Scenario::Enforce;

RA::Scenario::Enforce->run('apache');
