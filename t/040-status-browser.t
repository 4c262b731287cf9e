# SPDX-License-Identifier: BSD-2-Clause
# The HTML status page in a real browser.  nginx with the module serves a
# site that a few crawlers visit (one verified, one violating most, one
# impostor, two whose methods this server is not configured for) and a
# tool of the test's own crawler file.  The page carries no script, no
# event handler and no external resource, so it works without JavaScript
# (headless Chromium itself needs scripts on for --dump-dom and
# --screenshot).  Chromium builds its DOM, which must show the offenders
# first, the red badge of the crawlers that ignore robots.txt, what to do
# about each, why a crawler is not verified, the scripts and tools apart,
# a compliance bar per crawler, the recent violations and the meta
# refresh.  At 1400 and at 390 px the page is shown in a frame of a page
# of the test's own, whose script measures where the elements are: at
# 1400 px the crawlers' compliance, first seen and last seen lie within
# the window without scrolling sideways, at 390 px the crawler, its
# violations and its compliance do, and the page does not scroll sideways
# (tables scroll in their own box).  Screenshots at 1400 and 390 px:
# build/status-page.png and build/status-page-390.png, copied to the
# directory $RA_SCREENSHOTS names when set (RA_SCREENSHOTS=docs updates the
# pictures the README shows).
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
my $TOOL = 'FetchTool/1.0';
# the page writes &middot;, the browser's DOM the character (UTF-8)
my $DOT = qr/(?:&middot;|\xC2\xB7)/;

my $h = RA::Harness->new(
    server => 'nginx', workers => 2,
    http => <<'EOF2',
robots_audit on;
robots_audit_ip_ranges %%DIR%%/ranges/googlebot.json %%DIR%%/ranges/gptbot.json;
robots_audit_crawlers %%DIR%%/crawlers.txt;
EOF2
    # Chromium asks for a favicon: not a crawler, not counted
    # and the test's own frames (below) are not the site's traffic
    server_conf => "location = /favicon.ico { robots_audit off; "
                 . "return 204; }\n"
                 . "location = /probe390.html { robots_audit off; }\n"
                 . "location = /probe1400.html { robots_audit off; }\n",
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
        # a tool (the table's category tool): listed apart
        'crawlers.txt' => "crawler FetchTool\noperator Example Tools\n"
                        . "category tool\nurl https://tools.example/fetch\n",
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
$h->get('/private/tool', ua => $TOOL) for 1 .. 2;

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
# bingbot (3 violations), Googlebot and the impostor GPTBot (1 each);
# the tool's 2 are not a crawler's
like $dom, qr/localhost<span class="health h-bad">3 crawlers ignore robots\.txt</,
    'site heading: the red badge of the crawlers that ignore robots.txt';
unlike $dom, qr/robots\.txt OK/, '... not "robots.txt OK"';
my @bars = $dom =~ /<div class="bar"/g;
ok @bars >= 5, 'a compliance bar per crawler (' . scalar(@bars) . ')';
my ($crawlers) = $dom =~ m{<h3>crawlers</h3>(.*?)</table>}s;
my @order = ($crawlers // '') =~ m{<tr><td>(?:<a [^>]*>)?([^<]+)}g;
is_deeply [ @order[0 .. 2] ], [ 'bingbot', 'GPTBot', 'Googlebot' ],
    'crawlers: most violations first, ties by name'
    or diag "order: @order";
like $dom,
    qr{>Googlebot</a></td><td class="n bad">1</td><td class="nw"><div class="bar"[^>]*>.*?</div>\d+%</td><td class="x nw">[-0-9T:]+Z</td><td class="x nw">[-0-9T:]+Z</td><td class="x good">verified</td>},
    'Googlebot: violations, compliance, first and last seen, verified';
like $dom, qr{<a href="https://[^"]+" rel="noreferrer">Googlebot</a>},
    '... linked to its operator\'s documentation';
like $dom, qr{>GPTBot</a></td><td class="n bad">1</td>.*?<td class="x bad">impostor</td>},
    'GPTBot from elsewhere: impostor';
like $dom, qr{>bingbot</a></td><td class="n bad">3</td>.*?<td class="x warn">not verified here <span class="muted">\(configure <code>bingbot\.json</code> or a resolver\)</span>},
    'bingbot: not verified here (its ranges not loaded, no resolver)';
like $dom, qr{>YandexBot</a></td><td class="n">0</td>.*?not verified here <span class="muted">\(configure a resolver\)},
    'YandexBot: not verified here (no resolver)';
like $dom, qr{<dt class="warn">not verified here</dt><dd>[^<]*publishes[^<]*configure ranges/resolver},
    'the legend tells "not verified here" ...';
like $dom, qr{<dt>unverifiable</dt><dd>its operator publishes no method},
    '... from "unverifiable"';
like $dom, qr{<h4>what you can do</h4><ul class="todo"><li><strong>bingbot</strong> <span class="muted">\(unverifiable\)</span>: refuse it: nginx <code>robots_audit_enforce violation;</code>, Apache <code>RobotsAuditEnforce violation</code> $DOT ban its addresses: fail2ban jail <code>robots-audit</code> $DOT tell it in robots\.txt: <code>User-agent: bingbot<br>Disallow: /</code> $DOT its operator: <a href="https://www\.bing\.com/[^"]+" rel="noreferrer">Microsoft</a></li>},
    'what you can do about bingbot, first';
like $dom, qr{<li><strong>GPTBot</strong> <span class="muted">\(impostor\)</span>: refuse it: nginx <code>robots_audit_enforce violation impostor;</code>, Apache <code>RobotsAuditEnforce violation impostor</code> $DOT ban its addresses: fail2ban jail <code>robots-audit-impostor</code></li>},
    '... about the impostor';
my ($tools) = $dom =~ m{<h3>scripts and tools</h3>(.*?)</ul>}s;
like $tools // '', qr{>FetchTool</a></td><td class="n bad">2</td>},
    'the tool under "scripts and tools"';
like $tools // '', qr{<li><strong>FetchTool</strong>.*<a href="https://tools\.example/fetch" rel="noreferrer">Example Tools</a></li>},
    '... with what to do about it';
unlike $crawlers // '', qr{FetchTool}, '... not among the crawlers';
like $dom, qr{<span class="ln">2</span>Disallow: /private/<span class="hit bad">},
    'the robots.txt in force with counts beside its lines';
like $dom, qr{<h3>recent violations</h3>}, 'recent violations';
like $dom, qr{<code>/private/report\.pdf</code>}, '... with the URI';
like $dom, qr{<code>/search\?q=2</code>}, '... bingbot\'s too';

# The page at 390 and 1400 px, each in a frame of a page of the test's
# own (same origin), whose script measures the frame's document and
# writes what it found into the DOM that --dump-dom prints (headless
# Chromium's window is at least 500 px wide, hence the frame).  An element
# is "in view" when it has a size and lies within the window and within
# every box around it that clips or scrolls, so that it is seen without
# scrolling sideways.
my $dir = $h->root . '/build';
mkdir $dir;
my $MEASURE = <<'JS';
document.getElementById('f').addEventListener('load', function () {
  var doc = this.contentDocument, d = doc.documentElement, out = [];
  var all = doc.body.getElementsByTagName('*'), cw = d.clientWidth;
  for (var i = 0; i < all.length && out.length < 5; i++) {
    var e = all[i], r = e.getBoundingClientRect(), p = e.parentElement;
    var boxed = false;
    for (; p && p !== doc.body; p = p.parentElement) {
      var o = getComputedStyle(p).overflowX;
      if (o === 'auto' || o === 'scroll') { boxed = true; break; }
    }
    if (!boxed && r.right > cw + 0.5) {
      out.push(e.tagName + '.' + e.className + ' ' + Math.round(r.right));
    }
  }
  function inview(e) {
    var r = e.getBoundingClientRect(), right = cw, left = 0;
    if (r.width < 1 || r.height < 1) { return 0; }
    for (var p = e.parentElement; p && p !== doc.body; p = p.parentElement) {
      var o = getComputedStyle(p).overflowX;
      if (o !== 'visible') {
        var b = p.getBoundingClientRect();
        right = Math.min(right, b.right);
        left = Math.max(left, b.left);
      }
    }
    return r.left >= left - 0.5 && r.right <= right + 0.5
           && e.scrollWidth <= e.clientWidth + 1 ? 1 : 0;
  }
  var t = doc.querySelector('table.crawlers'), cols = [], first = '';
  if (t) {
    for (var k = 0; k < t.rows[0].cells.length; k++) {
      var c = t.rows[0].cells[k];
      cols.push(c.textContent + ':' + inview(c));
    }
    if (t.rows.length > 1) {
      first = t.rows[1].cells[0].textContent + ':'
              + inview(t.rows[1].cells[0]);
    }
  }
  var badge = doc.querySelector('h2 .health');
  var todo = doc.querySelector('ul.todo li');
  var body = document.body;
  body.setAttribute('data-client', cw);
  body.setAttribute('data-scroll',
      Math.max(d.scrollWidth, doc.body.scrollWidth));
  body.setAttribute('data-wide', out.join('; '));
  body.setAttribute('data-cols', cols.join(','));
  body.setAttribute('data-first', first);
  body.setAttribute('data-badge', badge ? badge.textContent + '|'
      + getComputedStyle(badge).backgroundColor + '|' + inview(badge) : '');
  body.setAttribute('data-todo', todo ? inview(todo) + '|'
      + todo.textContent : '');
});
JS
my %probe;
for my $w (390, 1400) {
    $h->write_file("htdocs/probe$w.html", <<"HTML", 1);
<!DOCTYPE html><html><head><meta charset="utf-8">
<style>html,body{margin:0;padding:0}iframe{border:0;display:block}</style>
</head><body><iframe id="f" src="/ra-status" width="$w" height="1600">
</iframe><script>
$MEASURE</script></body></html>
HTML
    $probe{$w} = 'http://127.0.0.1:' . $h->port . "/probe$w.html";
}

sub attr {
    my ($dom, $name) = @_;
    my ($v) = $dom =~ /\sdata-$name="([^"]*)"/;
    return undef unless defined $v;
    $v =~ s/&amp;/&/g;
    $v =~ s/&quot;/"/g;
    $v =~ s/&lt;/</g;
    $v =~ s/&gt;/>/g;
    return $v;
}

for my $w (390, 1400) {
    my $probed;
    ($rc, $probed) = chromium('--dump-dom', '--window-size='
                              . ($w < 500 ? 800 : $w + 100) . ',900',
                              $probe{$w});
    is $rc, 0, "chromium --dump-dom of the page in a $w px frame";
    my ($client, $scroll, $wide) = map { attr($probed, $_) }
                                   qw(client scroll wide);
    is $client, $w, "the frame is $w px wide";
    ok defined $scroll && $scroll <= $client,
        "no horizontal scroll of the page at $w px"
        or diag "document ${\($scroll // '?')} px wide; wider: "
                . ($wide // '?');
    is $wide, '', "$w px: nothing sticks out but inside boxes that scroll";
    is attr($probed, 'first'), 'bingbot:1',
        "$w px: the offender first, in view";
    like attr($probed, 'badge') // '',
        qr/^3 crawlers ignore robots\.txt\|rgb\((\d+), 0, (\d+)\)\|1$/,
        "$w px: the red badge, in view";
    my ($red) = (attr($probed, 'badge') // '') =~ /rgb\((\d+)/;
    ok defined $red && $red >= 150, '... red';
    like attr($probed, 'todo') // '',
        qr/^1\|bingbot \(unverifiable\): refuse it: nginx robots_audit_enforce violation;, Apache RobotsAuditEnforce violation .* fail2ban jail robots-audit .* User-agent: bingbotDisallow: \/ .* its operator: Microsoft$/,
        "$w px: what you can do about it, in view";
    my %col = map { /^(.*):(\d)$/ ? ($1 => $2) : () }
              split /,/, attr($probed, 'cols') // '';
    my @want = $w < 500 ? ('crawler', 'violations', 'compliance')
                        : ('compliance', 'first seen', 'last seen');
    is_deeply [ map { "$_:" . ($col{$_} // '-') } @want ],
        [ map { "$_:1" } @want ],
        "$w px: columns in view without scrolling sideways: @want"
        or diag attr($probed, 'cols');
    if ($w < 500) {
        is $col{'first seen'}, 0, '... the others folded away';
    }
}
my $probe = $probe{390};

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
