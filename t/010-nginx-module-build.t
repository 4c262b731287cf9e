# SPDX-License-Identifier: BSD-2-Clause
# nginx: the built module.  It exports only its module, nginx's generated
# module tables and the core's ra_* symbols, needs no library the stock
# nginx lacks, and the stock nginx loads it (nginx -t).
use strict;
use warnings;
use Test::More;
use RA::Harness;

my $why = RA::Harness->skip_reason('nginx');
plan skip_all => $why if $why;

my $so = RA::Server::Nginx::module_path(RA::Harness->root);

SKIP: {
    skip 'no nm (binutils)', 3 if system('command -v nm >/dev/null 2>&1');
    my @syms = map { (split ' ')[-1] } grep { /\S/ }
               split /\n/, `nm -D --defined-only '$so'`;
    ok scalar @syms, 'nm lists the dynamic symbols';
    my %allowed = map { $_ => 1 } qw(ngx_http_robots_audit_module ngx_modules
                                     ngx_module_names ngx_module_order);
    my @other = grep { !/^ra_/ && !$allowed{$_} } @syms;
    is_deeply \@other, [], 'nothing exported but the module, nginx\'s '
                         . 'tables and ra_*';
    ok((grep { $_ eq 'ngx_http_robots_audit_module' } @syms),
       'the module is exported');
}

SKIP: {
    skip 'no ldd', 1 if system('command -v ldd >/dev/null 2>&1');
    my @libs = map { /^\s*(\S+)/ ? $1 : () } split /\n/, `ldd '$so'`;
    # zlib and libbrotli decode compressed robots.txt answers (ra_decode),
    # libcrypto digests versions (ra_digest)
    my @extra = grep { !/^(linux-vdso|libc\.so|\/lib64\/ld-linux|ld-linux
                            |libz\.so\.1|libbrotli(dec|common)\.so\.1
                            |libcrypto\.so\.3)/x }
                @libs;
    is_deeply \@extra, [],
        'links nothing beyond libc, zlib, libbrotli and libcrypto'
        or diag `ldd '$so'`;
}

my $h = RA::Harness->new(server => 'nginx', workers => 1,
                         http => "robots_audit on;\n");
my ($rc, $out) = $h->config_test;
is $rc, 0, 'the stock nginx loads it: nginx -t passes' or diag $out;
like $out, qr/test is successful/, 'nginx -t says so';

done_testing;
