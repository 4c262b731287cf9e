# SPDX-License-Identifier: BSD-2-Clause
# nginx: the status page's rule hits, time windows, 5xx/429 episodes and
# evidence (JSON and CSV) from known traffic
# (t/lib/RA/Scenario/StatusPage.pm).
use strict;
use warnings;
use RA::Scenario::StatusPage;

RA::Scenario::StatusPage->run('nginx');
