# SPDX-License-Identifier: BSD-2-Clause
# nginx: nobody but the site decides its robots.txt in force
# (t/lib/RA/Scenario/SiteDecides.pm).
use strict;
use warnings;
use RA::Scenario::SiteDecides;

RA::Scenario::SiteDecides->run('nginx');
