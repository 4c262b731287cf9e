# SPDX-License-Identifier: BSD-2-Clause
# nginx: the evidence log keeps every violation, whole lines on every log,
# t/lib/RA/Scenario/Evidence.pm.
use strict;
use warnings;
use RA::Scenario::Evidence;

RA::Scenario::Evidence->run('nginx');
