# SPDX-License-Identifier: BSD-2-Clause
# Apache: a flood that evicts a scraper's record leaves its violation in the
# site's evicted sums; every table User-Agent sent to 16 server names
# leaves the whole-zone Prometheus page answering 200
# (t/lib/RA/Scenario/Evicted.pm).
use strict;
use warnings;
use RA::Scenario::Evicted;

RA::Scenario::Evicted->run('apache');
