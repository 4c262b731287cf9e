# SPDX-License-Identifier: BSD-2-Clause
# nginx: the enforce scenario (t/lib/RA/Scenario/Enforce.pm), twice.
use strict;
use warnings;
use RA::Scenario::Enforce;

RA::Scenario::Enforce->run('nginx');
