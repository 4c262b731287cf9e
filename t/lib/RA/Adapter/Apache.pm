# SPDX-License-Identifier: BSD-2-Clause
package RA::Adapter::Apache;

# Apache for the shared scenarios (see RA::Adapter): global directives in the
# server config, the main site's in its <VirtualHost>; error-log lines
# "[Www Mmm dd hh:mm:ss.usec yyyy] [module:level] ...".  Apache's zone needs
# no directive (RobotsAudit On makes an 8m ledger).

use strict;
use warnings;

use parent 'RA::Adapter';
use RA::Harness;

sub server      { 'apache' }
sub reload_name { 'graceful' }

# the threaded and the forking MPM
sub variants {
    return ({ name => 'mpm event',   opts => { mpm => 'event' } },
            { name => 'mpm prefork', opts => { mpm => 'prefork' } });
}

sub site_name_directive { 'ServerName' }

# mod_proxy to a port where nothing listens
sub robots_5xx_status { 503 }

# RobotsAuditAlertInterval 0: every violation alerts
sub min_interval { '0' }

# RA_LEDGER_MIN_SIZE
sub min_zone { '64k' }

sub ctl_header_status { (400, 'control bytes in a header: 400 from Apache') }

# A request target Apache refuses (invalid percent-encoding) is refused
# after the headers are read: judged and alerted like any other.
sub judges_refused_target { 1 }

sub alert_prefix { qr/\[robots_audit:warn\].*/ }
sub log_line_re  { qr/^\[\w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d\.\d+ \d{4}\] \[/ }

# httpd escapes every error-log message itself: the module hands it raw
# the bytes it escapes (ra_host_t.log_escapes), so a line reads as nginx's
# but for the five bytes httpd writes as C escapes (\n for \x0a)
sub errlog_text {
    my ($self, $s) = @_;
    my %c = ('08' => 'b', '09' => 't', '0a' => 'n', '0b' => 'v', '0d' => 'r');
    $s =~ s/\\x(0[89abd])/\\$c{$1}/g;
    return $s;
}

sub fragments {
    my ($self, %c) = @_;
    my (@http, @srv);
    push @http, 'RobotsAudit On' if $c{audit};
    push @http, 'RobotsAuditEnforce ' . ($c{enforce} eq '1' ? 'On'
                                          : $self->enforce_words($c{enforce}))
        if $c{enforce};
    push @http, "RobotsAuditZoneSize $c{zone}" if defined $c{zone};
    push @http, "RobotsAuditIPRanges @{ $c{ip_ranges} }" if $c{ip_ranges};
    push @http, "RobotsAuditCrawlers $_" for @{ $c{crawlers} // [] };
    push @http, "RobotsAuditSignatureKeys $c{signature_keys}"
        if $c{signature_keys};
    push @http, "RobotsAuditAlertInterval $c{alert_interval}"
        if defined $c{alert_interval};
    push @http, "RobotsAuditAlertLog $c{alert_log}" if $c{alert_log};
    push @http, "RobotsAuditEvidenceLog $c{evidence_log}"
        if $c{evidence_log};
    push @http, "RobotsAuditEvidenceBudget $c{evidence_budget}"
        if defined $c{evidence_budget};
    push @http, "RobotsAuditResolver $c{resolver}" if $c{resolver};
    push @http, "RobotsAuditAlertBudget $c{alert_budget}"
        if defined $c{alert_budget};
    push @http, "RobotsAuditAlertPurposes $c{alert_purposes}"
        if defined $c{alert_purposes};
    push @http, 'LogLevel warn robots_audit:notice' if $c{notice_log};
    push @http, "RobotsAuditState $c{state}" if $c{state};
    push @http, "RobotsAuditStateInterval $c{state_interval}"
        if $c{state_interval};
    for my $v (@{ $c{vhosts} // [] }) {
        my $aliases = @{ $v->{aliases} // [] }
            ? "\n    ServerAlias @{ $v->{aliases} }" : '';
        my $robots = '';
        if ($v->{robots_5xx}) {
            my $dead = RA::Harness::dead_port();   # nothing listens there
            $robots = "\n    ProxyPass /robots.txt http://127.0.0.1:$dead/robots.txt";
        }
        $robots .= "\n    ProxyPass /robots.txt $v->{robots_proxy}"
            if $v->{robots_proxy};
        $robots .= "\n    RobotsAuditEnforce " . $self->enforce_words($v->{enforce})
            if defined $v->{enforce};
        push @http, <<"EOF";
<VirtualHost 127.0.0.1:%%PORT%%>
    ServerName $v->{name}$aliases
    DocumentRoot "%%DIR%%/htdocs"$robots
</VirtualHost>
EOF
    }
    # a vhost copies the limits in force where it starts
    push @srv, '    LimitRequestFieldSize 70000' if $c{large_headers};
    push @srv, "    ServerAlias @{ $c{aliases} }" if $c{aliases};
    push @srv, "    RobotsAuditRobotsFile $c{robots_file}" if $c{robots_file};
    push @srv, "    ErrorDocument 403 $c{error_page_403}"
        if $c{error_page_403};
    for my $l (@{ $c{locations} // [] }) {
        my ($path, %d) = @$l;
        push @srv, "    <Location $path>",
            (exists $d{audit}
                ? '        RobotsAudit ' . ($d{audit} ? 'On' : 'Off') : ()),
            (exists $d{enforce}
                ? '        RobotsAuditEnforce ' . ($d{enforce} eq '0' ? 'Off'
                    : $d{enforce} eq '1' ? 'On' : $d{enforce}) : ()),
            '    </Location>';
    }
    # Apache logs missing files at info, below the harness's LogLevel warn:
    # quiet_not_found needs nothing
    return (
        http        => join('', map { "$_\n" } @http) . ($c{http} // ''),
        server_conf => join('', map { "$_\n" } @srv) . ($c{server_conf} // ''),
    );
}

# the lines at notice and above (setting notice_log): the module's are
# in the error log
sub notice_log { $_[1]->error_log }

# HTTP/2 (RA::Scenario::Http2): mod_http2, h2c beside HTTP/1.1 on the
# main site's port; mod_http2 refuses to serve h2 under mpm_prefork
sub http2 {
    my ($self, $v) = @_;
    return (skip => 'mod_http2 does not serve HTTP/2 with mpm_prefork')
        if ($v->{opts}{mpm} // '') eq 'prefork';
    my $mods = $ENV{RA_APACHE_MODULES} // '/usr/lib/apache2/modules';
    return (skip => "no $mods/mod_http2.so") unless -f "$mods/mod_http2.so";
    return (server_conf => "    Protocols h2c http/1.1\n",
            opts => { modules => [ 'http2' ] }, port => 0);
}

# compressed robots.txt (RA::Scenario::Compressed): a site on the main port
# whose robots.txt gets its Content-Encoding one way (kind), and the
# coding our capture sees it with.  mod_deflate registers DEFLATE with our
# filter's type (AP_FTYPE_CONTENT_SET) and it is inserted first, by
# mod_filter or by the core: it runs before our capture, which sees gzip
# and the Content-Encoding DEFLATE set.
#   server_gzip      mod_deflate as Debian enables it (compressed_global:
#                    AddOutputFilterByType DEFLATE text/plain ...)
#   server_gzip_set  SetOutputFilter DEFLATE (the by-type chain cleared:
#                    FilterChain !)
#   precompressed    robots.txt.gz for clients that take gzip (a
#                    RewriteRule), its coding from mod_mime (AddEncoding:
#                    r->content_encoding)
#   proxy            a backend's coded answer passed on (ProxyPass)
sub compressed_site {
    my ($self, %c) = @_;
    my %how = (
        server_gzip     => [ '', 'gzip' ],
        server_gzip_set => [ "    FilterChain !\n"
                           . "    SetOutputFilter DEFLATE\n", 'gzip' ],
        precompressed   => [ "    RewriteEngine On\n"
                           . "    RewriteCond %{HTTP:Accept-Encoding} gzip\n"
                           . "    RewriteRule ^/robots\\.txt\$ /robots.txt.gz [L]\n"
                           . "    AddEncoding gzip .gz\n", 'gzip' ],
        proxy           => [ "    ProxyPass /robots.txt $c{upstream}\n",
                             $c{coding} ],
    );
    my $how = $how{ $c{kind} } // return ();
    return (<<"EOF", $how->[1]);
<VirtualHost 127.0.0.1:%%PORT%%>
    ServerName $c{name}
    DocumentRoot "$c{root}"
$how->[0]</VirtualHost>
EOF
}

# mod_deflate and mod_filter loaded, and Debian's deflate.conf (the
# package's own file when it is installed: AddOutputFilterByType DEFLATE
# text/html text/plain ...) for every site
sub compressed_global {
    my $conf = '/etc/apache2/mods-available/deflate.conf';
    my $deflate = -r $conf ? "Include $conf\n"
        : "<IfModule mod_filter.c>\n"
        . "    AddOutputFilterByType DEFLATE text/html text/plain text/xml "
        . "text/css text/javascript\n</IfModule>\n";
    return (modules => [ 'filter', 'deflate' ],
            http => $deflate . "<Directory \"%%DIR%%\">\n"
                  . "    Require all granted\n</Directory>\n");
}

# configuration (RA::Scenario::Config)
sub config_ok_re { qr/Syntax OK/ }

# the module loaded, nothing configured
sub nothing_configured { (http => '') }

# lint findings: "[robots_audit:warn] [pid N:tid N] robots-audit: [RA200]
# FILE:L:C: ... [code]", the end of the line
sub lint_prefix { qr/\[robots_audit:warn\] \[pid \d+(?::tid \d+)?\] / }
sub lint_place  { qr/$/m }

sub resize_re {
    return qr/\[RA304\] the ledger \(RobotsAuditZoneSize\): a new ledger replaces the old one \(the size changed from 1048576 to 2097152\): its counters start over/;
}

# apache2 -k graceful checks the configuration first: nothing reaches the
# running server's error log
sub refused_reload_logs_emerg { 0 }

# kind => [ RA::Harness options, message ]; the kinds are
# RA::Scenario::Config's.  Every case has RobotsAudit On.
sub config_refusals {
    my $F = qr/robots-audit: \[RA303\] /;     # a configured file
    my $W = qr/robots-audit: \[RA325\] /;     # a data file: a warning
    my %c = (
        zone_small => [ "RobotsAuditZoneSize 32k\n",
            qr/RobotsAuditZoneSize: 32k is out of range: the minimum is 64k, the maximum 4095m/ ],
        zone_not_size => [ "RobotsAuditZoneSize lots\n",
            qr/RobotsAuditZoneSize: 'lots' is not a size/ ],
        zone_large => [ "RobotsAuditZoneSize 5g\n",
            qr/RobotsAuditZoneSize: 5g is out of range: the minimum is 64k, the maximum 4095m/ ],
        zone_in_site => [ "<VirtualHost 127.0.0.1:%%PORT%%>\nRobotsAuditZoneSize 1m\n</VirtualHost>\n",
            qr/RobotsAuditZoneSize cannot occur within <VirtualHost> section/ ],
        crawlers_in_location => [ "<Location /x>\nRobotsAuditCrawlers %%DIR%%/good-crawlers.txt\n</Location>\n",
            qr/RobotsAuditCrawlers not allowed in <Location> context/ ],
        audit_flag => [ "RobotsAudit maybe\n",
            qr/RobotsAudit must be On or Off/ ],
        enforce_flag_1 => [ "RobotsAuditEnforce 1\n",
            qr/RobotsAuditEnforce: '1': the words are off, on, or any of violation, unreachable, impostor/ ],
        enforce_flag_maybe => [ "RobotsAuditEnforce violation maybe\n",
            qr/RobotsAuditEnforce: 'maybe': the words are off, on, or any of violation, unreachable, impostor/ ],
        enforce_off_and => [ "RobotsAuditEnforce Off impostor\n",
            qr/RobotsAuditEnforce: 'impostor': "off" stands alone/ ],
        enforce_none => [ "RobotsAuditEnforce\n",
            qr/RobotsAuditEnforce requires at least one argument/ ],
        interval_word => [ "RobotsAuditAlertInterval soon\n",
            qr/RobotsAuditAlertInterval: 'soon' is not a time \(250ms, 30s, 5m, 1h, 1d, 1m30s; a bare number is seconds\)/ ],
        purposes_unknown => [ "RobotsAuditAlertPurposes search scraper\n",
            qr/RobotsAuditAlertPurposes: 'scraper' is not a purpose: search, ai-training, .*tool, academic, security-scanner or generic/ ],
        budget_zero => [ "RobotsAuditAlertBudget 0 300\n",
            qr/RobotsAuditAlertBudget takes two limits of alert lines a minute, per site and in all \(1 to 1000000, or off\): e\.g\. 60 300/ ],
        crawler_category => [ "RobotsAuditCrawlers %%DIR%%/bad-category.txt\n",
            qr/RobotsAuditCrawlers: ${F}crawler file "\S+bad-category\.txt", line 3: unknown category/ ],
        crawler_no_category => [ "RobotsAuditCrawlers %%DIR%%/no-category.txt\n",
            qr/RobotsAuditCrawlers: ${F}crawler file "\S+no-category\.txt", line 4: entry without a category/ ],
        crawler_missing => [ "RobotsAuditCrawlers %%DIR%%/nope.txt\n",
            qr/RobotsAuditCrawlers: ${F}cannot open "\S+nope\.txt": No such file or directory/ ],
        ranges_bad_ip => [ "RobotsAuditIPRanges %%DIR%%/g.json %%DIR%%/bad-ip.json\n",
            qr/${W}ranges file "\S+bad-ip\.json", byte \d+: [^\n]*: the crawlers it would verify stay unverified/ ],
        ranges_bad_length => [ "RobotsAuditIPRanges %%DIR%%/bad-length.json\n",
            qr/${W}ranges file "\S+bad-length\.json", byte \d+: / ],
        ranges_missing => [ "RobotsAuditIPRanges %%DIR%%/missing.json\n",
            qr/${W}cannot open "\S+missing\.json": No such file or directory: the crawlers it would verify stay unverified/ ],
        sigkeys_empty => [ "RobotsAuditSignatureKeys %%DIR%%/sigkeys\n",
            qr/${W}signature keys file "\S+bad\.test\.json": no Ed25519 key/ ],
        sigkeys_missing => [ "RobotsAuditSignatureKeys %%DIR%%/nokeys\n",
            qr/${W}signature keys directory "\S+nokeys": No such file or directory/ ],
    );
    return map { $_ => [ { http => "RobotsAudit On\n$c{$_}[0]" }, $c{$_}[1] ] }
           keys %c;
}

1;
