# SPDX-License-Identifier: BSD-2-Clause
# docs/robots-audit.1: man renders it without a warning, it names the
# version robots-audit --version prints, every command and the exit
# statuses.
use strict;
use warnings;
use Test::More;
use RA::Harness;

my $root = RA::Harness->root;
my $page = "$root/docs/robots-audit.1";
my ($man) = grep { -x } map { "$_/man" } split /:/, $ENV{PATH};
plan skip_all => 'man is not installed (apt-get install man-db)' unless $man;

my $err = `MANWIDTH=80 '$man' --warnings -l '$page' 2>&1 >/dev/null`;
is $?, 0, 'man -l renders the page';
is $err, '', 'no warning from man --warnings' or diag $err;
my $text = `MANWIDTH=80 MAN_KEEP_FORMATTING= '$man' -l '$page' 2>/dev/null`;
$text =~ s/.\x08//g;
like $text, qr/^NAME\n\s+robots-audit\s+-\s+/m, 'NAME section';
for my $c (qw(check lint identify logs whatif ranges)) {
    like $text, qr/^   $c$/m, "command $c described";
}
like $text,
    qr/^EXIT STATUS\n\s+0\s+success.*^\s+1\s+something.*^\s+2\s+a usage/ms,
    'exit statuses 0, 1, 2';
my @long = grep { length > 80 } split /\n/, $text;
is scalar @long, 0, 'fits 80 columns' or diag join "\n", @long;

my $version = `'$root/build/robots-audit' --version`;
chomp $version;
like $version, qr/^robots-audit \d+\.\d+\.\d+$/, '--version';
open my $fh, '<', $page or die "$page: $!";
my ($th) = grep { /^\.TH / } <$fh>;
like $th, qr/"\Q$version\E"/, 'the page names that version';
done_testing;
