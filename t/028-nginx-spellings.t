# SPDX-License-Identifier: BSD-2-Clause
# nginx: one disallowed file, 60 spellings of its path and of robots.txt
# (t/lib/RA/Scenario/Spellings.pm), twice.
use strict;
use warnings;
use RA::Scenario::Spellings;

RA::Scenario::Spellings->run('nginx');
