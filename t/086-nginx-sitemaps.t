# SPDX-License-Identifier: BSD-2-Clause
# nginx: sitemaps listed by robots.txt, crawlers' fetches of them captured and
# linted (plain and gzip), t/lib/RA/Scenario/Sitemaps.pm.
use strict;
use warnings;
use RA::Scenario::Sitemaps;

RA::Scenario::Sitemaps->run('nginx');
