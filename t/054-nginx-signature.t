# SPDX-License-Identifier: BSD-2-Clause
# nginx: Web Bot Auth signatures, t/lib/RA/Scenario/Signature.pm.
use strict;
use warnings;
use RA::Scenario::Signature;

RA::Scenario::Signature->run('nginx');
