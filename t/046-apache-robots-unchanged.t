# SPDX-License-Identifier: BSD-2-Clause
# Apache: a 304 to a crawler ends a run of robots.txt failures, a browser's
# 503 starts none (t/lib/RA/Scenario/RobotsUnchanged.pm).
use strict;
use warnings;
use RA::Scenario::RobotsUnchanged;

RA::Scenario::RobotsUnchanged->run('apache');
