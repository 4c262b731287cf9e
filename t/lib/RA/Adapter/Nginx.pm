# SPDX-License-Identifier: BSD-2-Clause
package RA::Adapter::Nginx;

# nginx for the shared scenarios (see RA::Adapter): directives in http{} and
# in the main server{}, error-log lines "YYYY/MM/DD HH:MM:SS [level] pid#tid:".

use strict;
use warnings;

use parent 'RA::Adapter';

sub server      { 'nginx' }
sub reload_name { 'nginx -s reload' }

# twice: a second run in a fresh server exposes state leaking between runs
sub variants {
    return ({ name => 'run 1', opts => {} }, { name => 'run 2', opts => {} });
}

sub site_name_directive { 'server_name' }

# nginx's 500 from "return", answered in the rewrite phase: before any
# enforcement
sub robots_5xx_status { 500 }

# robots_audit_alert_interval 0: every violation alerts
sub min_interval { '0' }

# the ledger's 64 KiB plus the slab allocator's pages
sub min_zone { '80k' }

# nginx passes control bytes in a header value on: the request is served
sub ctl_header_status { (404, 'control bytes in a header: served by nginx') }

# A request target nginx refuses (invalid percent-encoding) is refused while
# the request line is read, before any header: no User-Agent to judge.
sub judges_refused_target { 0 }

sub alert_prefix { qr/\[warn\] \d+#\d+: \*\d+ / }
sub log_line_re  { qr/^\d{4}\/\d\d\/\d\d \d\d:\d\d:\d\d \[/ }

sub fragments {
    my ($self, %c) = @_;
    my (@http, @srv, %opts);
    push @http, 'robots_audit on;' if $c{audit};
    push @http, 'robots_audit_enforce ' . $self->enforce_words($c{enforce}) . ';'
        if $c{enforce};
    $opts{zone_size} = $c{zone} if defined $c{zone};
    push @http, "robots_audit_ip_ranges @{ $c{ip_ranges} };" if $c{ip_ranges};
    push @http, "robots_audit_crawlers $_;" for @{ $c{crawlers} // [] };
    push @http, "robots_audit_signature_keys $c{signature_keys};"
        if $c{signature_keys};
    push @http, "robots_audit_alert_interval $c{alert_interval};"
        if defined $c{alert_interval};
    push @http, "robots_audit_alert_log $c{alert_log};" if $c{alert_log};
    push @http, "robots_audit_evidence_log $c{evidence_log};"
        if $c{evidence_log};
    push @http, "robots_audit_evidence_budget $c{evidence_budget};"
        if defined $c{evidence_budget};
    push @http, "robots_audit_alert_budget $c{alert_budget};"
        if defined $c{alert_budget};
    push @http, "robots_audit_alert_purposes $c{alert_purposes};"
        if defined $c{alert_purposes};
    # a second error log at notice, since the harness's is at warn
    $opts{main} = "error_log %%DIR%%/notice.log notice;" if $c{notice_log};
    push @http, "robots_audit_state $c{state};" if $c{state};
    push @http, "robots_audit_state_interval $c{state_interval};"
        if $c{state_interval};
    push @http, "resolver $c{resolver} ipv6=off;\nresolver_timeout 2s;"
        if $c{resolver};
    push @http, 'large_client_header_buffers 4 128k;' if $c{large_headers};
    push @http, 'log_not_found off;' if $c{quiet_not_found};
    for my $v (@{ $c{vhosts} // [] }) {
        my $names = join ' ', $v->{name}, @{ $v->{aliases} // [] };
        my $robots = $v->{robots_5xx}
            ? "\n    location = /robots.txt { return 500; }" : '';
        $robots .= "\n    location = /robots.txt { proxy_pass $v->{robots_proxy}; }"
            if $v->{robots_proxy};
        $robots .= "\n    robots_audit_enforce "
                 . $self->enforce_words($v->{enforce}) . ';'
            if defined $v->{enforce};
        push @http, <<"EOF";
server {
    listen 127.0.0.1:%%PORT%%;
    server_name $names;
    root %%DIR%%/htdocs;$robots
}
EOF
    }
    push @srv, "server_name localhost @{ $c{aliases} };" if $c{aliases};
    push @srv, "robots_audit_robots_file $c{robots_file};"
        if $c{robots_file};
    push @srv, "error_page 403 $c{error_page_403};" if $c{error_page_403};
    for my $l (@{ $c{locations} // [] }) {
        my ($path, %d) = @$l;
        my $body = join ' ',
            (exists $d{audit}   ? 'robots_audit ' . ($d{audit} ? 'on' : 'off') . ';' : ()),
            (exists $d{enforce} ? 'robots_audit_enforce ' . $self->enforce_words($d{enforce}) . ';' : ());
        push @srv, "location $path { $body }";
    }
    return (
        http        => join('', map { "$_\n" } @http) . ($c{http} // ''),
        server_conf => join('', map { "$_\n" } @srv) . ($c{server_conf} // ''),
        %opts,
    );
}

# the lines at notice and above (setting notice_log)
sub notice_log { $_[1]->read_file('notice.log') }

# HTTP/2 (RA::Scenario::Http2): h2c with prior knowledge on a second
# listen of the main server (nginx 1.22's "listen ... http2" without TLS
# speaks only HTTP/2, and the harness's own requests are HTTP/1.1)
sub http2 {
    return (server_conf => "listen 127.0.0.1:%%PORT1%% http2;\n",
            opts => { ports => 2 }, port => 1);
}

# compressed robots.txt (RA::Scenario::Compressed): a site on the main port
# whose robots.txt gets its Content-Encoding one way (kind), and the
# coding our capture sees it with; () when nginx has no such way:
#   server_gzip    nginx compresses it itself (gzip on): our filters run
#                  before gzip's, so the capture sees it plain
#   precompressed  robots.txt.gz served as it is (gzip_static on)
#   proxy          a backend's coded answer passed on (proxy_pass)
sub compressed_site {
    my ($self, %c) = @_;
    my %how = (
        server_gzip   => [ "root $c{root};\n    gzip on;\n"
                         . "    gzip_types text/plain;\n"
                         . "    gzip_min_length 1;", undef ],
        precompressed => [ "root $c{root};\n    gzip_static on;", 'gzip' ],
        proxy         => [ "root $c{root};\n    location = /robots.txt {\n"
                         . "        proxy_pass $c{upstream};\n    }",
                           $c{coding} ],
    );
    my $how = $how{ $c{kind} } // return ();
    return (<<"EOF", $how->[1]);
server {
    listen 127.0.0.1:%%PORT%%;
    server_name $c{name};
    $how->[0]
}
EOF
}

# what the compressed scenario's server needs besides its sites
sub compressed_global { return () }

# configuration (RA::Scenario::Config)
sub config_ok_re { qr/test is successful/ }

# the module loaded, nothing configured: no zone, no status location
sub nothing_configured { (zone_size => '', http => '') }

# lint findings: "[warn] pid#tid: robots-audit: [RA200] FILE:L:C: ... in
# nginx.conf:N" (the directive's place)
sub lint_prefix { qr/\[warn\] \d+#\d+: / }
sub lint_place  { qr/ in \S+nginx\.conf:\d+/ }

sub resize_re {
    return qr/\[warn\] [^\n]*robots-audit: \[RA304\] robots_audit_zone "ra": a new ledger replaces the old one \(the size changed from 1048576 to 2097152\): its counters start over/;
}

# nginx -s reload with a broken configuration: the master logs [emerg]
sub refused_reload_logs_emerg { 1 }

# kind => [ RA::Harness options, message ]; the kinds are
# RA::Scenario::Config's
sub config_refusals {
    my $E = qr/\[emerg\] \d+#\d+: /;
    my $F = qr/${E}robots-audit: \[RA303\] /;     # a configured file
    # a data file: a warning at the directive
    my $W = qr/\[warn\] \d+#\d+: robots-audit: \[RA325\] /;
    return (
        zone_small => [ { zone_size => '64k' },
            qr/${E}robots_audit_zone "ra" size "64k" is out of range: the minimum is 80k/ ],
        zone_not_size => [ { zone_size => 'lots' },
            qr/${E}invalid robots_audit_zone size "lots"/ ],
        # nginx's sizes have no "g"
        zone_large => [ { zone_size => '5000m' },
            qr/${E}robots_audit_zone "ra" size "5000m" is out of range: the minimum is 80k, the maximum 4095m/ ],
        zone_in_site => [ { http => "server {\n    listen 127.0.0.1:%%PORT%%;\n"
                                  . "    server_name z.test;\n"
                                  . "    robots_audit_zone b 1m;\n}\n" },
            qr/"robots_audit_zone" directive is not allowed here/ ],
        crawlers_in_location => [
            { server_conf => "location /x { robots_audit_crawlers %%DIR%%/good-crawlers.txt; }\n" },
            qr/"robots_audit_crawlers" directive is not allowed here/ ],
        audit_flag => [ { http => "robots_audit maybe;\n" },
            qr/invalid value "maybe" in "robots_audit" directive, it must be "on" or "off"/ ],
        enforce_flag_1 => [ { http => "robots_audit_enforce 1;\n" },
            qr/${E}invalid value "1" in "robots_audit_enforce" directive: the words are off, on, or any of violation, unreachable, impostor, undeclared in \S+nginx\.conf:\d+/ ],
        enforce_flag_maybe => [ { http => "robots_audit_enforce violation maybe;\n" },
            qr/${E}invalid value "maybe" in "robots_audit_enforce" directive: the words are off, on, or any of violation, unreachable, impostor, undeclared in \S+nginx\.conf:\d+/ ],
        enforce_off_and => [ { http => "robots_audit_enforce off impostor;\n" },
            qr/${E}invalid value "impostor" in "robots_audit_enforce" directive: "off" stands alone in \S+nginx\.conf:\d+/ ],
        enforce_none => [ { http => "robots_audit_enforce;\n" },
            qr/${E}invalid number of arguments in "robots_audit_enforce" directive/ ],
        interval_word => [ { http => "robots_audit_alert_interval soon;\n" },
            qr/"robots_audit_alert_interval" directive invalid value/ ],
        purposes_unknown => [ { http => "robots_audit_alert_purposes search scraper;\n" },
            qr/"robots_audit_alert_purposes": "scraper" is not a purpose: search, ai-training, .*tool, academic, security-scanner or generic/ ],
        budget_zero => [ { http => "robots_audit_alert_budget 0 300;\n" },
            qr/"robots_audit_alert_budget" directive takes two limits of alert lines a minute, per site and in all \(1 to 1000000, or off\): e\.g\. 60 300/ ],
        crawler_category => [
            { http => "robots_audit_crawlers %%DIR%%/bad-category.txt;\n" },
            qr/${F}crawler file "[^"]*bad-category\.txt", line 3: unknown category in \S+nginx\.conf:\d+/ ],
        crawler_no_category => [
            { http => "robots_audit_crawlers %%DIR%%/no-category.txt;\n" },
            qr/${F}crawler file "[^"]*no-category\.txt", line 4: entry without a category in \S+nginx\.conf:\d+/ ],
        crawler_missing => [
            { http => "robots_audit_crawlers %%DIR%%/nope.txt;\n" },
            qr/${F}cannot open "[^"]*nope\.txt": No such file or directory in \S+nginx\.conf:\d+/ ],
        ranges_bad_ip => [
            { http => "robots_audit_ip_ranges %%DIR%%/g.json %%DIR%%/bad-ip.json;\n" },
            qr/${W}ranges file "[^"]*bad-ip\.json", byte \d+: [^\n]*: the crawlers it would verify stay unverified/ ],
        ranges_bad_length => [
            { http => "robots_audit_ip_ranges %%DIR%%/bad-length.json;\n" },
            qr/${W}ranges file "[^"]*bad-length\.json", byte \d+: / ],
        ranges_missing => [
            { http => "robots_audit_ip_ranges %%DIR%%/missing.json;\n" },
            qr/${W}cannot open "[^"]*missing\.json": No such file or directory: the crawlers it would verify stay unverified [^\n]*in \S+nginx\.conf:\d+/ ],
        sigkeys_empty => [
            { http => "robots_audit_signature_keys %%DIR%%/sigkeys;\n" },
            qr/${W}signature keys file "[^"]*bad\.test\.json": no Ed25519 key [^\n]* in \S+nginx\.conf:\d+/ ],
        sigkeys_missing => [
            { http => "robots_audit_signature_keys %%DIR%%/nokeys;\n" },
            qr/${W}signature keys directory "[^"]*nokeys": No such file or directory: [^\n]*in \S+nginx\.conf:\d+/ ],
    );
}

1;
