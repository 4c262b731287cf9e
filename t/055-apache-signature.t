# SPDX-License-Identifier: BSD-2-Clause
# Apache: Web Bot Auth signatures, t/lib/RA/Scenario/Signature.pm, with the
# event and the prefork MPM.
use strict;
use warnings;
use RA::Scenario::Signature;

RA::Scenario::Signature->run('apache');
