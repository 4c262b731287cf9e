# SPDX-License-Identifier: BSD-2-Clause
# Apache: one disallowed file, 60 spellings of its path and of robots.txt
# (t/lib/RA/Scenario/Spellings.pm), with the event and the prefork MPM.
use strict;
use warnings;
use RA::Scenario::Spellings;

RA::Scenario::Spellings->run('apache');
