# SPDX-License-Identifier: BSD-2-Clause
# nginx: compressed robots.txt (t/lib/RA/Scenario/Compressed.pm), twice:
# gzip on, gzip_static, gzip/br/"gzip, br" backends behind proxy_pass, a
# corrupt gzip backend.
use strict;
use warnings;
use RA::Scenario::Compressed;

RA::Scenario::Compressed->run('nginx');
