# SPDX-License-Identifier: BSD-2-Clause
package RA::Server::Nginx;

# The stock nginx (/usr/sbin/nginx) with build/ngx_http_robots_audit_module.so
# loaded by load_module, in a temporary prefix (-p DIR/ -c DIR/nginx.conf):
# daemon on, the harness's worker count, error log at warn, one server on
# the harness's first loopback port, its default server (as the Apache
# backend's first <VirtualHost>: the site of Host values no server names).
#
# Fragments: opts http => inside http{} after our defaults (more server
# blocks may go there, on %%PORT%% named by server_name, or on
# %%PORT1%%...), server_conf => inside the main
# server{}.  Our defaults give way when the fragment names the directive:
# robots_audit_zone (default "ra 1m"), robots_audit_alert_log
# (DIR/alert.log).  opts main => text before events{} (e.g. "env X;");
# opts zone_size => the default zone's size ('' for no zone and no status
# location).

use strict;
use warnings;

use Time::HiRes qw(sleep time);

my $NGINX = $ENV{RA_NGINX} // '/usr/sbin/nginx';

sub module_path {
    my ($root) = @_;
    return $ENV{RA_NGINX_MODULE}
        // "$root/build/ngx_http_robots_audit_module.so";
}

sub unavailable {
    my ($class, $root) = @_;
    return "no $NGINX (apt-get install nginx)" unless -x $NGINX;
    my $so = module_path($root);
    return "no $so (run make)" unless -f $so;
    return undef;
}

sub new {
    my ($class, $h) = @_;
    return bless {}, $class;
}

sub conf_path       { $_[1]->path('nginx.conf') }
sub pid_path        { $_[1]->path('nginx.pid') }
sub error_log_path  { $_[1]->path('error.log') }
sub alert_log_path  { $_[1]->path('alert.log') }
sub access_log_path { $_[1]->path('access.log') }

sub write_config {
    my ($self, $h) = @_;
    my $dir = $h->dir;
    my $so = module_path($h->{root});
    my $port = $h->port;
    my $n = $h->{workers};
    my $http = $h->expand($h->{http});
    my $server = $h->expand($h->{server_conf});
    my $main = $h->expand($h->{opts}{main} // '');
    my $user = $> == 0 ? "user nobody nogroup;\n" : '';
    my $zone = $http =~ /robots_audit_zone/ ? ''
             : "robots_audit_zone ra " . ($h->{opts}{zone_size} // '1m') . ";\n";
    $zone = '' if defined $h->{opts}{zone_size} && $h->{opts}{zone_size} eq '';
    my $status = defined $h->{opts}{zone_size} && $h->{opts}{zone_size} eq ''
               ? '' : "location = $h->{status_path} {\n"
                    . "            robots_audit_status;\n        }";
    my $alert = $http =~ /robots_audit_alert_log/ ? ''
              : "robots_audit_alert_log $dir/alert.log;\n";
    mkdir "$dir/tmp", 0755;
    my $conf = <<"EOF";
# written by t/lib/RA/Server/Nginx.pm
load_module $so;
${user}daemon on;
master_process on;
worker_processes $n;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
$main
events {
    worker_connections 256;
}

http {
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    log_format ra '\$pid \$status "\$request" "\$http_user_agent"';
    access_log $dir/access.log ra;
    client_body_temp_path $dir/tmp/body;
    proxy_temp_path $dir/tmp/proxy;
    fastcgi_temp_path $dir/tmp/fastcgi;
    uwsgi_temp_path $dir/tmp/uwsgi;
    scgi_temp_path $dir/tmp/scgi;
    keepalive_timeout 0;
$zone$alert
$http

    server {
        listen 127.0.0.1:$port default_server;
        server_name localhost;
        root $dir/htdocs;

        $status

$server
    }
}
EOF
    open my $fh, '>', $self->conf_path($h) or die "write config: $!";
    print $fh $conf;
    close $fh;
    return $conf;
}

sub run {
    my ($self, $h, @args) = @_;
    my $cmd = join ' ', map { quotemeta } $NGINX, '-p', $h->dir . '/', '-c',
                                          $self->conf_path($h), @args;
    my $out = `$cmd 2>&1`;
    return ($? >> 8, $out);
}

sub read_pid {
    my ($self, $h) = @_;
    open my $fh, '<', $self->pid_path($h) or return undef;
    my $pid = <$fh>;
    close $fh;
    return $pid && $pid =~ /^(\d+)/ ? $1 : undef;
}

# The master's children (workers).
sub children {
    my ($self, $pid) = @_;
    return RA::Harness::children_of($pid);
}

sub start {
    my ($self, $h) = @_;
    unlink $self->pid_path($h);
    my ($rc, $out) = $self->run($h);
    $self->{start_output} = $out;
    die "nginx failed to start ($rc):\n$out\n" . $h->error_log if $rc;
    my $deadline = time + 10;
    while (time < $deadline) {
        $self->{pid} = $self->read_pid($h);
        if ($self->{pid}
            && $self->children($self->{pid}) >= $h->{workers})
        {
            return 1;
        }
        sleep 0.05;
    }
    $self->stop($h);                # whatever did start
    die "nginx wrote no pid file or started no workers:\n$out\n"
        . $h->error_log;
}

# Returns once none of the old workers is left and the new ones run; dies
# with the error log when the master refused the new configuration.
sub reload {
    my ($self, $h) = @_;
    my $pid = $self->{pid} // $self->read_pid($h)
        or die "nginx is not running";
    my %old = map { $_ => 1 } $self->children($pid);
    my $log_before = length $h->error_log;
    my ($rc, $out) = $self->run($h, '-s', 'reload');
    die "nginx -s reload failed ($rc):\n$out" if $rc;
    my $deadline = time + 10;
    while (time < $deadline) {
        my @kids = $self->children($pid);
        my @new = grep { !$old{$_} } @kids;
        return 1 if @new >= $h->{workers} && @new == @kids;
        my $log = substr $h->error_log, $log_before;
        die "nginx refused the new configuration:\n$log"
            if $log =~ /\[emerg\]/;
        sleep 0.05;
    }
    die "nginx did not finish reloading:\n" . $h->error_log;
}

sub stop {
    my ($self, $h) = @_;
    my $pid = $self->{pid} // $self->read_pid($h) or return;
    my @kids = $self->children($pid);
    kill 'TERM', $pid;
    my $deadline = time + 10;
    while (time < $deadline && grep { kill 0, $_ } $pid, @kids) {
        sleep 0.05;
    }
    kill 'KILL', grep { kill 0, $_ } $pid, @kids;
    delete $self->{pid};
}

sub config_test {
    my ($self, $h) = @_;
    return $self->run($h, '-t');
}

1;
