# SPDX-License-Identifier: BSD-2-Clause
# Apache: page directives from the answers crawlers get (X-Robots-Tag, robots
# meta tags, plain and gzip-coded), counted per path prefix, and their
# conflicts with robots.txt; a browser's answers are not read,
# t/lib/RA/Scenario/PageDirectives.pm.
use strict;
use warnings;
use RA::Scenario::PageDirectives;

RA::Scenario::PageDirectives->run('apache');
