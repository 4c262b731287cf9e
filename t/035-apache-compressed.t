# SPDX-License-Identifier: BSD-2-Clause
# Apache: compressed robots.txt (t/lib/RA/Scenario/Compressed.pm) with the
# event and the prefork MPM: Debian's mod_deflate, a precompressed file
# (AddEncoding), gzip/br/"gzip, br" backends behind ProxyPass, a corrupt
# gzip backend.
use strict;
use warnings;
use RA::Scenario::Compressed;

RA::Scenario::Compressed->run('apache');
