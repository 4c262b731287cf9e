# SPDX-License-Identifier: BSD-2-Clause
# nginx: the verdicts scenario (t/lib/RA/Scenario/Verdicts.pm), twice.
use strict;
use warnings;
use RA::Scenario::Verdicts;

RA::Scenario::Verdicts->run('nginx',
    # nginx's stub_status where it usually lives, and elsewhere (counted
    # there like any page: only its usual paths are known)
    server_conf  => "location = /nginx_status { stub_status; }\n",
    server_pages => [ '/nginx_status', '//nginx_status?x' ],
);
