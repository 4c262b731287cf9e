# SPDX-License-Identifier: BSD-2-Clause
# nginx: the configuration scenario (t/lib/RA/Scenario/Config.pm), and what
# only nginx has: a named zone that robots_audit needs, once, in http{};
# directive contexts Apache has no counterpart for.
use strict;
use warnings;
use Test::More;
use RA::Scenario::Config;

RA::Scenario::Config->run('nginx', extra => sub {
    my ($ad) = @_;
    # nginx only: the zone directive
    RA::Scenario::Config::refused($ad, 'robots_audit on without a zone',
        { zone_size => '', http => "robots_audit on;\n" },
        qr/need a zone: add "robots_audit_zone NAME SIZE;" to the http block/);
    RA::Scenario::Config::refused($ad, 'a second zone',
        { http => "robots_audit_zone a 1m;\nrobots_audit_zone b 1m;\n" },
        qr/"robots_audit_zone" directive is duplicate/);
    # nginx only: contexts (Apache allows its robots file in the server
    # config; its status page is a handler, not a directive)
    RA::Scenario::Config::refused($ad, 'robots_audit_robots_file in http{}',
        { http => "robots_audit_robots_file %%DIR%%/r.txt;\n",
          files => { 'r.txt' => "User-agent: *\n" } },
        qr/"robots_audit_robots_file" directive is not allowed here/);
    RA::Scenario::Config::refused($ad, 'robots_audit_status in server{}',
        { server_conf => "robots_audit_status;\n" },
        qr/"robots_audit_status" directive is not allowed here/);
});
