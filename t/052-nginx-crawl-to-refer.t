# SPDX-License-Identifier: BSD-2-Clause
# nginx: crawl-to-refer, purposes, llms.txt fetches and AI-preference lines
# (t/lib/RA/Scenario/CrawlToRefer.pm).
use strict;
use warnings;
use RA::Scenario::CrawlToRefer;

RA::Scenario::CrawlToRefer->run('nginx');
