# SPDX-License-Identifier: BSD-2-Clause
# nginx: the crawler policy (block by purpose or name, exceptions, impostors,
# 402 with a body, 429 with Retry-After), t/lib/RA/Scenario/Policy.pm.
use strict;
use warnings;
use RA::Scenario::Policy;

RA::Scenario::Policy->run('nginx');
