# SPDX-License-Identifier: BSD-2-Clause
# Apache: two backends behind a round-robin balancer send
# RobotsAuditEvents to one `robots-audit collect` over UDP syslog, one
# through the module's own syslog socket, the other through a piped
# logger; the collector judges as one server that saw everything, the
# backends do not (t/lib/RA/Fleet.pm).
use strict;
use warnings;
use RA::Fleet;

RA::Fleet->run('apache');
