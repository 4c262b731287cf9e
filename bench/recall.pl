#!/usr/bin/perl
# SPDX-License-Identifier: BSD-2-Clause
#
# Recall and false positives of `robots-audit identify` on User-Agent lists,
# each split in two halves by a hash of the User-Agent: "look" (the half one
# may read while tuning the table) and "held-out" (the half only measured).
# The split is deterministic: MD5 of the User-Agent, even first byte looks.
#
# usage: bench/recall.pl [--bin build/robots-audit] [--before OLD_BINARY]
#            [--verbose look] [--tune LIST]... [--not-bots REGEX]
#            [--others FILE]
#            [crawlers:FILE]... [browsers:FILE]...
#   crawlers:FILE  one crawler User-Agent a line: recall = share found
#                  (identified as a crawler or a generic bot)
#   browsers:FILE  one browser User-Agent a line, or "WEIGHT<TAB>UA" lines
#                  (a share of traffic): false positives, also weighted
# With no FILE it reads the sets of ../shared/data when present.
# --verbose look prints the misses and false positives of the look half
# only: the held-out half's are never printed.  --before OLD_BINARY (an
# earlier build of robots-audit) measures both and prints each figure as
# "before -> now".  --tune LIST (a list of User-Agents, one a line, from
# another source) measures nothing: it prints LIST's lines that are in no
# held-out half of the sets given, so that a list one tunes on never
# carries a held-out line into the table.  --not-bots REGEX (Perl, case
# blind) takes the lines it matches out of the crawler lists, for lists
# that hold browsers by mistake (myip.ms's holds 311 User-Agents of Cubot
# phones: a maker whose name holds "bot"); each set says how many went.
# --others FILE (one Perl regular expression a line, case blind: another
# project's bot patterns) says, for each set, how many of the held-out
# half's misses the patterns match (crawlers) or how many of the browsers
# taken for browsers they would take for bots: a count, never the lines,
# to tell whether the misses are bots others know without reading them.
use strict;
use warnings;
use Digest::MD5 qw(md5);
use File::Temp qw(tempfile);

my $bin = 'build/robots-audit';
my $verbose = '';
my $before;
my @sets;
my @tune;
my $notbots;
my $others;
while (@ARGV) {
    my $a = shift @ARGV;
    if ($a eq '--bin') { $bin = shift @ARGV; next; }
    if ($a eq '--verbose') { $verbose = shift @ARGV; next; }
    if ($a eq '--before') { $before = shift @ARGV; next; }
    if ($a eq '--tune') { push @tune, shift @ARGV; next; }
    if ($a eq '--not-bots') { $notbots = shift @ARGV; next; }
    if ($a eq '--others') { $others = shift @ARGV; next; }
    die "usage: $0 [--bin BIN] [--before BIN] [--verbose look] "
        . "[--tune LIST] [--not-bots REGEX] [--others FILE] "
        . "crawlers:FILE|browsers:FILE ...\n"
        unless $a =~ /^(crawlers|browsers):(.+)$/;
    push @sets, [$1, $2];
}
die "$0: --verbose takes 'look' (the held-out half is never shown)\n"
    if $verbose ne '' && $verbose ne 'look';
if (!@sets) {
    my $d = $ENV{RA_SHARED_DATA} // '../shared/data';
    die "$0: no FILE given and $d/useragents not found\n"
        unless -d "$d/useragents";
    push @sets, ['crawlers', "$d/useragents/crawler-user-agents/crawler-user-agents.json"];
    push @sets, ['browsers', "$d/useragents/isbot/browsers.yml"];
}
die "$0: $bin not found (run make)\n" unless -x $bin;
die "$0: $before not found\n" if defined $before && !-x $before;
my $other_re;
if (defined $others) {
    my @alt;
    open(my $fh, '<', $others) or die "$others: $!\n";
    while (my $l = <$fh>) {
        chomp $l;
        next if $l eq '' || $l =~ /^#/;
        push @alt, "(?:$l)" if defined eval { qr/$l/ };
    }
    die "$others: no pattern\n" unless @alt;
    $other_re = join('|', @alt);
    $other_re = qr/$other_re/i;
}

# Lines of a file: plain lines, the "instances" strings of
# crawler-user-agents.json, or the "- UA" items of isbot's YAML.
sub read_uas {
    my ($kind, $file) = @_;
    open(my $fh, '<', $file) or die "$file: $!\n";
    my @out;
    my $skip = 0;
    if ($file =~ /\.json$/) {
        local $/;
        my $t = <$fh>;
        while ($t =~ /"instances"\s*:\s*\[(.*?)\]/sg) {
            my $list = $1;
            while ($list =~ /"((?:[^"\\]|\\.)*)"/g) {
                my $s = $1;
                $s =~ s/\\u([0-9a-fA-F]{4})/chr(hex($1))/ge;
                $s =~ s/\\(.)/$1/g;
                push @out, [1, $s];
            }
        }
        return @out;
    }
    while (my $l = <$fh>) {
        chomp $l;
        $l =~ s/\r$//;
        if ($file =~ /\.ya?ml$/) {
            # isbot's browsers.yml: its "very low appearance rate" section
            # holds bots, skipped (as tests/test_crawlers.c does)
            if ($l =~ /^\S/) { $skip = $l =~ /very low appearance rate/; next; }
            next if $skip;
            next unless $l =~ /^\s+-\s+(.*)$/;
            my $s = $1;
            $s =~ s/^"(.*)"$/$1/ and $s =~ s/\\(.)/$1/g;
            $s =~ s/^'(.*)'$/$1/ and $s =~ s/''/'/g;
            # a documented crawler, Lucidworks Fusion's web crawler
            # (Anda); scanners and injection probes isbot lists in its
            # "Glitches" section (tests/test_crawlers.c)
            next if $s =~ m{Amzn-User/|Lucidworks-Anda/|Assetnote/|Laravel Reaver|PG_SLEEP\(|"<\?=print\(};
            push @out, [1, $s];
            next;
        }
        next if $l eq '';
        if ($kind eq 'browsers' && $l =~ /^([0-9.eE-]+)\t(.*)$/) {
            push @out, [$1, $2];
        } else {
            push @out, [1, $l];
        }
    }
    return @out;
}

# --tune: the lines of each LIST that no held-out half holds, once each.
if (@tune) {
    my %held;
    for my $set (@sets) {
        for my $u (read_uas(@$set)) {
            $held{$u->[1]} = 1 if ord(md5($u->[1])) % 2 == 1;
        }
    }
    my (%seen, $dropped);
    for my $file (@tune) {
        open(my $fh, '<', $file) or die "$file: $!\n";
        while (my $l = <$fh>) {
            chomp $l;
            $l =~ s/\r$//;
            next if $l eq '' || $l =~ /[\x00-\x1f]/ || $seen{$l}++;
            if ($held{$l}) { $dropped++; next; }
            print "$l\n";
        }
    }
    printf STDERR "%d held-out lines left out\n", $dropped // 0;
    exit 0;
}

# One answer a line of `identify --format text` for each User-Agent: 1 when
# it is a bot (a known crawler or a generic bot), 0 for a browser.
sub answers {
    my ($prog, $uas, $file) = @_;
    my ($fh, $tmp) = tempfile(UNLINK => 1);
    print $fh "$_->[1]\n" for @$uas;
    close $fh;
    open(my $save, '<&', \*STDIN) or die "stdin: $!\n";
    open(STDIN, '<', $tmp) or die "$tmp: $!\n";
    open(my $id, '-|', $prog, 'identify', '--format', 'text')
        or die "$prog: $!\n";
    open(STDIN, '<&', $save) or die "stdin: $!\n";
    my @res = <$id>;
    close $id;
    die "$file: " . scalar(@$uas) . " agents, " . scalar(@res) . " answers\n"
        if @res != @$uas;
    return [map { /^browser / ? 0 : 1 } @res];
}

for my $set (@sets) {
    my ($kind, $file) = @$set;
    my @uas = grep { $_->[1] ne '' && $_->[1] !~ /[\x00-\x1f]/ } read_uas($kind, $file);
    my $gone = 0;
    if (defined $notbots && $kind eq 'crawlers') {
        my $n = @uas;
        @uas = grep { $_->[1] !~ /$notbots/i } @uas;
        $gone = $n - @uas;
    }
    my @runs = ((defined $before ? answers($before, \@uas, $file) : ()),
                answers($bin, \@uas, $file));
    my %n = (look => 0, held => 0);
    my %other = (look => 0, held => 0);
    my %w = (look => 0, held => 0);
    my @hit = map { { look => 0, held => 0 } } @runs;
    my @whit = map { { look => 0, held => 0 } } @runs;
    for my $i (0 .. $#uas) {
        my ($weight, $ua) = @{$uas[$i]};
        my $half = (ord(md5($ua)) % 2 == 0) ? 'look' : 'held';
        $n{$half}++;
        $w{$half} += $weight;
        for my $r (0 .. $#runs) {
            next unless $runs[$r][$i];
            $hit[$r]{$half}++;
            $whit[$r]{$half} += $weight;
        }
        my $bot = $runs[-1][$i];
        if (defined $other_re && ($kind eq 'browsers' || $half eq 'held')
            && !$bot && $ua =~ $other_re)
        {
            $other{$half}++;
        }
        if ($verbose eq 'look' && $half eq 'look'
            && ($kind eq 'crawlers' ? !$bot : $bot))
        {
            print "  ", ($kind eq 'crawlers' ? 'missed' : 'false positive'),
                ": $ua\n";
        }
    }
    for my $half ('look', 'held') {
        my $label = $half eq 'look' ? 'look    ' : 'held-out';
        next unless $n{$half};
        my @fig;
        for my $r (0 .. $#runs) {
            if ($kind eq 'crawlers') {
                push @fig, sprintf("found %5d  recall %6.2f%%",
                                   $hit[$r]{$half},
                                   100 * $hit[$r]{$half} / $n{$half});
            } else {
                push @fig, sprintf("false positives %4d (%.2f%%)"
                                   . "  weighted by traffic %.4f%%",
                                   $hit[$r]{$half},
                                   100 * $hit[$r]{$half} / $n{$half},
                                   $w{$half} ? 100 * $whit[$r]{$half}
                                               / $w{$half} : 0);
            }
        }
        printf "%-9s %s  %5d %s  %s\n", $kind, $label, $n{$half},
            ($kind eq 'crawlers' ? 'crawlers' : 'browsers'),
            join('  ->  ', @fig);
    }
    if (defined $other_re) {
        my $missed = $n{held} - $hit[-1]{held};
        printf "  --others: %s\n", $kind eq 'crawlers'
            ? "match $other{held} of the held-out half's $missed misses"
            : sprintf("would take %d of the %d browsers for bots",
                      $other{look} + $other{held},
                      $n{look} + $n{held} - $hit[-1]{look} - $hit[-1]{held});
    }
    print "  ($file", ($gone ? ", $gone lines matching --not-bots left out" : ''), ")\n";
}
