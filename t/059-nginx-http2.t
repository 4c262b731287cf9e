# SPDX-License-Identifier: BSD-2-Clause
# nginx: the audit over HTTP/2 (h2c, curl --http2-prior-knowledge),
# t/lib/RA/Scenario/Http2.pm.
use strict;
use warnings;
use RA::Scenario::Http2;

RA::Scenario::Http2->run('nginx');
