# SPDX-License-Identifier: BSD-2-Clause
# The HTML status page in a real browser.  nginx with the module serves a
# site that a few crawlers visit (one verified, one violating, one
# impostor).  The page carries no script, no event handler and no external
# resource, so it works without JavaScript (headless Chromium itself needs
# scripts on for --dump-dom and --screenshot).  Chromium builds its DOM,
# which must show the site's robots.txt health, a compliance bar per
# crawler, the recent violations and the meta refresh.  At 390 px wide the
# page must not scroll sideways (tables scroll in their own box): a copy of
# the page with a measuring script added is loaded at that width and the
# test fails when the document is wider than the window.  Screenshots at
# 1400 and 390 px: build/status-page.png and build/status-page-390.png,
# copied to the directory $RA_SCREENSHOTS names when set
# (RA_SCREENSHOTS=docs updates the pictures the README shows).
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
    # and the test's own 390 px frame (below) is not the site's traffic
    server_conf => "location = /favicon.ico { robots_audit off; "
                 . "return 204; }\n"
                 . "location = /probe390.html { robots_audit off; }\n",
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
# a long URI without a break: its table must scroll in its box at 390 px
$h->get('/private/' . ('averyveryverylongpathsegment' x 8), ua => $BINGBOT);
$h->get('/', ua => $BROWSER) for 1 .. 5;

my $url = 'http://127.0.0.1:' . $h->port . '/ra-status';
my $raw = $h->get('/ra-status');
is $raw->{status}, 200, 'status page served';
unlike $raw->{content}, qr/<script|\son[a-z]+=|javascript:/i,
    'no JavaScript in the page: no script, no handler';
unlike $raw->{content}, qr/\ssrc=|<link|<img|<iframe|<object|<embed/i,
    'no external resource';
my @hrefs = $raw->{content} =~ /\shref="([^"]*)"/g;
ok @hrefs >= 3, 'links: the summary\'s anchors, the order, crawlers\' docs';
is_deeply [ grep { !m{^(#site-[a-z0-9._-]+|\?sort=\w+|https?://[^\s<>]+)$} }
            @hrefs ], [], '... each an anchor, an order or a web page';
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
    qr{Googlebot(</a>)?</td><td><code>Googlebot</code></td><td>search</td><td class="good">verified},
    'Googlebot verified';
like $dom, qr{<a href="https://[^"]+" rel="noreferrer">Googlebot</a>},
    '... linked to its operator\'s documentation';
like $dom,
    qr{GPTBot(</a>)?</td><td><code>GPTBot</code></td><td>ai-training</td><td class="bad">impostor},
    'GPTBot from elsewhere: impostor';
like $dom, qr{<span class="ln">2</span>Disallow: /private/<span class="hit bad">},
    'the robots.txt in force with counts beside its lines';
like $dom, qr{<h3>recent violations</h3>}, 'recent violations';
like $dom, qr{<code>/private/report\.pdf</code>}, '... with the URI';
like $dom, qr{<code>/search\?q=2</code>}, '... bingbot\'s too';

# 390 px: the page no wider than its window.  Headless Chromium's window
# is at least 500 px wide, so the page is shown in a 390 px frame of a
# page of the test's own (same origin), whose script measures the frame's
# document and writes what it found into the DOM that --dump-dom prints.
my $dir = $h->root . '/build';
mkdir $dir;
$h->write_file('htdocs/probe390.html', <<'HTML', 1);
<!DOCTYPE html><html><head><meta charset="utf-8">
<style>html,body{margin:0;padding:0}iframe{border:0;display:block}</style>
</head><body><iframe id="f" src="/ra-status" width="390" height="1600">
</iframe><script>
document.getElementById('f').addEventListener('load', function () {
  var doc = this.contentDocument, d = doc.documentElement, out = [];
  var all = doc.body.getElementsByTagName('*');
  for (var i = 0; i < all.length && out.length < 5; i++) {
    var e = all[i], r = e.getBoundingClientRect(), p = e.parentElement;
    var boxed = false;
    for (; p && p !== doc.body; p = p.parentElement) {
      var o = getComputedStyle(p).overflowX;
      if (o === 'auto' || o === 'scroll') { boxed = true; break; }
    }
    if (!boxed && r.right > d.clientWidth + 0.5) {
      out.push(e.tagName + '.' + e.className + ' ' + Math.round(r.right));
    }
  }
  document.body.setAttribute('data-client', d.clientWidth);
  document.body.setAttribute('data-scroll',
      Math.max(d.scrollWidth, doc.body.scrollWidth));
  document.body.setAttribute('data-wide', out.join('; '));
});
</script></body></html>
HTML
my $probe = 'http://127.0.0.1:' . $h->port . '/probe390.html';
my $probed;
($rc, $probed) = chromium('--dump-dom', '--window-size=800,900', $probe);
is $rc, 0, 'chromium --dump-dom of the page in a 390 px frame';
my ($client) = $probed =~ /data-client="(\d+)"/;
my ($scroll) = $probed =~ /data-scroll="(\d+)"/;
my ($wide) = $probed =~ /data-wide="([^"]*)"/;
is $client, 390, 'the frame is 390 px wide';
ok defined $scroll && $scroll <= $client,
    'no horizontal scroll of the page at 390 px'
    or diag "document ${\($scroll // '?')} px wide; wider: "
            . ($wide // '?');
is $wide, '', 'nothing sticks out but inside boxes that scroll';

my %shots = ('status-page.png' => [ 1400, 1000 ],
             'status-page-390.png' => [ 390, 1600 ]);
for my $name (sort keys %shots) {
    my ($sw, $sh) = @{ $shots{$name} };
    my $png = "$dir/$name";
    unlink $png;
    # 390 px: the frame at the window's left (the window is wider)
    ($rc) = chromium("--screenshot=$png", "--window-size=$sw,$sh",
                     $sw < 500 ? $probe : $url);
    is $rc, 0, "chromium --screenshot at $sw px";
    ok -s $png && -s $png > 10_000, '... a screenshot with something in it'
        or diag "size: " . (-s $png // 'none');
    open my $fh, '<:raw', $png or die "$png: $!";
    read $fh, my $sig, 24;
    close $fh;
    is substr($sig, 0, 8), "\x89PNG\r\n\x1a\n", '... a PNG';
    my ($w, $ht) = unpack 'NN', substr($sig, 16, 8);
    is "${w}x$ht", "${sw}x$sh", '... window-sized';
    if ($ENV{RA_SCREENSHOTS}) {
        copy($png, "$ENV{RA_SCREENSHOTS}/$name") or die "copy: $!";
        diag "screenshot copied to $ENV{RA_SCREENSHOTS}/$name";
    }
}

unlike $h->error_log, qr/\[(emerg|crit|alert)\]|signal 11|exited on/,
    'no crash or emergency';
$h->stop;
done_testing;
