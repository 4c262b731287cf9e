# SPDX-License-Identifier: BSD-2-Clause
# The HTML status page in a real browser.  nginx with the module serves a
# site that a few crawlers visit (one verified, one violating, one
# impostor).  The page carries no script, no event handler and no external
# resource, so it works without JavaScript (headless Chromium itself needs
# scripts on for --dump-dom and --screenshot).  Chromium builds its DOM,
# which must show the site's robots.txt health, a compliance bar per
# crawler, the recent violations and the meta refresh, and takes a
# screenshot: build/status-page.png, copied to $RA_SCREENSHOT when set
# (RA_SCREENSHOT=docs/status-page.png updates the README's picture).
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);
use File::Copy qw(copy);
use RA::Harness;

my $why = RA::Harness->skip_reason('nginx');
plan skip_all => $why if $why;
my ($chromium) = grep { -x } map { "$_/chromium" } split /:/, $ENV{PATH};
plan skip_all => 'chromium is not installed (apt-get install chromium)'
    unless $chromium;

my $GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; '
              . '+http://www.google.com/bot.html)';
my $BINGBOT = 'Mozilla/5.0 (compatible; bingbot/2.0; '
            . '+http://www.bing.com/bingbot.htm)';
my $GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; '
           . 'GPTBot/1.2; +https://openai.com/gptbot)';
my $YANDEX = 'Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)';
my $BROWSER = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 '
            . 'Firefox/128.0';

my $h = RA::Harness->new(
    server => 'nginx', workers => 2,
    http => <<'EOF2',
robots_audit on;
robots_audit_ip_ranges %%DIR%%/ranges/googlebot.json %%DIR%%/ranges/gptbot.json;
EOF2
    # Chromium asks for a favicon: not a crawler, not counted
    server_conf => "location = /favicon.ico { robots_audit off; "
                 . "return 204; }\n",
    files => {
        'htdocs/robots.txt' => "User-agent: *\nDisallow: /private/\n"
                             . "Disallow: /search\n\n"
                             . "User-agent: GPTBot\nDisallow: /\n",
        'htdocs/index.html' => "<p>home</p>\n",
        # this machine plays Googlebot; GPTBot's ranges are elsewhere
        'ranges/googlebot.json' =>
            '{"prefixes":[{"ipv4Prefix":"127.0.0.0/8"}]}',
        'ranges/gptbot.json' =>
            '{"prefixes":[{"ipv4Prefix":"192.0.2.0/24"}]}',
    },
);
$h->start;

$h->get('/robots.txt', ua => $GOOGLEBOT);
$h->get('/', ua => $GOOGLEBOT) for 1 .. 8;
$h->get('/private/report.pdf', ua => $GOOGLEBOT);
$h->get('/robots.txt', ua => $BINGBOT);
$h->get('/', ua => $BINGBOT) for 1 .. 3;
$h->get("/search?q=$_", ua => $BINGBOT) for 1 .. 2;
$h->get('/', ua => $YANDEX) for 1 .. 4;
$h->get('/private/', ua => $GPTBOT);
$h->get('/', ua => $BROWSER) for 1 .. 5;

my $url = 'http://127.0.0.1:' . $h->port . '/ra-status';
my $raw = $h->get('/ra-status');
is $raw->{status}, 200, 'status page served';
unlike $raw->{content}, qr/<script|\son[a-z]+=|javascript:/i,
    'no JavaScript in the page: no script, no handler';
unlike $raw->{content}, qr/\s(src|href)=/i, 'no external resource';
like $raw->{content}, qr/<meta http-equiv="refresh" content="\d+">/,
    'refreshes itself (meta refresh)';

my @flags = ('--headless', '--no-sandbox', '--disable-gpu', '--disable-quic',
             '--no-first-run', '--disable-background-networking',
             '--disable-component-update', '--disable-sync',
             '--hide-scrollbars');

sub chromium {
    my (@args) = @_;
    my $profile = tempdir('ra-chromium-XXXXXX', TMPDIR => 1, CLEANUP => 1);
    my $pid = open my $fh, '-|';
    die "fork: $!" unless defined $pid;
    if (!$pid) {
        open STDERR, '>', '/dev/null';
        exec 'timeout', '60', $chromium, @flags, "--user-data-dir=$profile",
            @args;
        exit 127;
    }
    local $/;
    my $out = <$fh> // '';
    close $fh;
    return ($? >> 8, $out);
}

# the DOM as the browser built it
my ($rc, $dom) = chromium('--dump-dom', $url);
is $rc, 0, 'chromium --dump-dom';
like $dom, qr/<meta http-equiv="refresh" content="30">/,
    'the rendered page keeps its refresh';
like $dom, qr/localhost<span class="health h-ok">robots\.txt OK/,
    'site heading with its robots.txt health';
my @bars = $dom =~ /<div class="bar"/g;
ok @bars >= 4, 'a compliance bar per crawler (' . scalar(@bars) . ')';
like $dom,
    qr{Googlebot</td><td><code>Googlebot</code></td><td>search</td><td class="good">verified},
    'Googlebot verified';
like $dom,
    qr{GPTBot</td><td><code>GPTBot</code></td><td>ai-training</td><td class="bad">impostor},
    'GPTBot from elsewhere: impostor';
like $dom, qr{<h3>recent violations</h3>}, 'recent violations';
like $dom, qr{<code>/private/report\.pdf</code>}, '... with the URI';
like $dom, qr{<code>/search\?q=2</code>}, '... bingbot\'s too';

my $dir = $h->root . '/build';
mkdir $dir;
my $png = "$dir/status-page.png";
unlink $png;
($rc) = chromium("--screenshot=$png", '--window-size=1280,900', $url);
is $rc, 0, 'chromium --screenshot';
ok -s $png && -s $png > 10_000, 'a screenshot with something in it'
    or diag "size: " . (-s $png // 'none');
open my $fh, '<:raw', $png or die "$png: $!";
read $fh, my $sig, 24;
close $fh;
is substr($sig, 0, 8), "\x89PNG\r\n\x1a\n", 'a PNG';
my ($w, $ht) = unpack 'NN', substr($sig, 16, 8);
is "${w}x$ht", '1280x900', 'window-sized';
if ($ENV{RA_SCREENSHOT}) {
    copy($png, $ENV{RA_SCREENSHOT}) or die "copy: $!";
    diag "screenshot copied to $ENV{RA_SCREENSHOT}";
}

unlike $h->error_log, qr/\[(emerg|crit|alert)\]|signal 11|exited on/,
    'no crash or emergency';
$h->stop;
done_testing;
