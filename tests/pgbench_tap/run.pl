#!/usr/bin/perl
# run.pl - replay pgbench's own TAP checks against pgcliff.
#
#     run.pl PGCLIFF CLUSTER_HELPER CASEFILE...
#
# Each case in a .cases file is one pgbench invocation ported from
# src/bin/pgbench/t/001_pgbench_with_server.pl or 002_pgbench_no_server.pl
# of PostgreSQL 15: the script, pgbench's options, pgbench's exit status,
# and the regular expressions pgbench's stdout ("out:") and stderr ("err:")
# must match.  The case runs as `pgcliff run -f SCRIPT` with the same
# options against one server started through pgcliff's own cluster code,
# and must give pgbench's value or pgbench's error.
#
# Exit status: pgbench's 0 is pgcliff's 0; pgbench's 1 (an invalid script
# or option, nothing run) is 64 or 65; pgbench's 2 (a client aborted) is
# 75.  A case may say "status: N" with "why: ..." where pgcliff differs on
# purpose (it finds some run-time errors before running); "skip-out:" or
# "skip-err:" with a reason drops one pgbench regex about its own display.
# "setup: SQL" runs before the case (what the TAP script did with
# safe_psql), "check-sql: SQL" after it, and its output must match
# "check-out: REGEX".  "env: NAME=VALUE" sets an environment variable of
# pgcliff for the case (the TAP script's PGOPTIONS); "init: ARGS" runs
# `pgcliff init ARGS` first (the TAP script's pgbench -i); "script: -"
# means the case has no script file (builtins only).
#
# One line of pgcliff's stderr is taken out before the regexes: its note
# that the hypervisor stole more than 5 % of the CPU during the window.
# It says what the host did, not what pgcliff or the script did, and a
# case expecting pgbench's empty stderr failed on it (CI, 2026-12-03).
use strict;
use warnings;
use File::Temp qw(tempdir);
use IPC::Open2;

my ($pgcliff, $helper, @files) = @ARGV;
die "usage: run.pl PGCLIFF CLUSTER_HELPER CASEFILE...\n" unless @files;

# the scratch directory must be readable by the server's OS user
my $tmp = tempdir('pgcliff-tap-XXXXXX', TMPDIR => 1, CLEANUP => 1);
chmod 0755, $tmp;

my ($from_helper, $to_helper);
my $hpid = open2($from_helper, $to_helper, $helper);
my $line = <$from_helper>;
die "cluster_helper did not start\n" unless defined $line;
my ($sockdir, $user) = split ' ', $line;
my $target = "primary=host=$sockdir user=$user dbname=postgres";

my ($ncases, $nfailed, $nstatus_differs, $nskipped, $nsteal_notes) =
  (0, 0, 0, 0, 0);

sub parse_cases
{
	my ($file) = @_;
	open my $fh, '<', $file or die "$file: $!\n";
	my (@cases, $c);
	while (my $l = <$fh>)
	{
		chomp $l;
		next if !defined $c && ($l =~ /^#/ || $l eq '');
		if ($l =~ /^case: (.*)$/)
		{
			$c = { name => $1, out => [], err => [], skip => [] };
		}
		elsif ($l =~ /^(setup|check-sql|check-out|init): (.*)$/)
		{
			push @{ $c->{$1} }, $2;
		}
		elsif ($l =~ /^env: (\w+)=(.*)$/)
		{
			$c->{env}{$1} = $2;
		}
		elsif ($l =~ /^(pgbench|pgbench-status|status|why|args): ?(.*)$/)
		{
			$c->{$1} = $2;
		}
		elsif ($l =~ /^(out|err): (.*)$/)
		{
			push @{ $c->{$1} }, $2;
		}
		elsif ($l =~ /^skip-(out|err): (.*?) -- (.*)$/)
		{
			push @{ $c->{skip} }, [ $1, $2, $3 ];
		}
		elsif ($l =~ /^script: (.*)$/)
		{
			$c->{file} = $1;
			my $text = '';
			while (my $s = <$fh>)
			{
				last if $s eq "\@\@end\@\@\n";
				$text .= $s;
			}
			$c->{script} = $text;
			push @cases, $c;
			undef $c;
		}
		elsif ($l =~ /^#/ || $l eq '')
		{
		}
		else
		{
			die "$file:$.: cannot read \"$l\"\n";
		}
	}
	return @cases;
}

# pgbench's options in pgcliff's spelling; options without a meaning here
# (no vacuum is ever run, so -n) are dropped.
sub map_args
{
	my ($pgbench) = @_;
	my @out;
	for my $a (split ' ', $pgbench)
	{
		next if $a eq '-n' || $a eq '--no-vacuum';
		$a =~ s/^--client=/--clients=/;
		push @out, $a;
	}
	return @out;
}

sub psql
{
	my ($sql) = @_;
	my $out = '';
	my $pid = open my $fh, '-|';
	die "fork: $!" unless defined $pid;
	if ($pid == 0)
	{
		open STDERR, '>&', \*STDOUT;
		exec 'psql', '-X', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-h', $sockdir,
		  '-U', $user, '-d', 'postgres', '-c', $sql
		  or die "exec psql: $!";
	}
	local $/;
	$out = <$fh> // '';
	close $fh;
	die "psql failed: $sql\n$out" if $?;
	return $out;
}

sub expected_status
{
	my ($c) = @_;
	return [ split /,/, $c->{status} ] if defined $c->{status};
	my $s = $c->{'pgbench-status'};
	return [0] if $s == 0;
	return [ 64, 65 ] if $s == 1;
	return [75];
}

my @per_file;
for my $file (@files)
{
	my ($before, $failed_before) = ($ncases, $nfailed);

	for my $c (parse_cases($file))
	{
		$ncases++;
		# "script: -": the case runs builtins only (-S, -b), no file
		my @file;
		if ($c->{file} ne '-')
		{
			my $script = "$tmp/$c->{file}";
			open my $sf, '>', $script or die;
			print $sf $c->{script};
			close $sf;
			@file = ('-f', $script);
		}
		psql($_) for @{ $c->{setup} // [] };
		for my $init (@{ $c->{init} // [] })
		{
			my $pid = fork;
			die "fork: $!" unless defined $pid;
			if ($pid == 0)
			{
				open STDOUT, '>', '/dev/null';
				open STDERR, '>', '/dev/null';
				exec $pgcliff, 'init', split(' ', $init),
				  "host=$sockdir user=$user dbname=postgres";
				die "exec: $!";
			}
			waitpid $pid, 0;
			die "pgcliff init $init failed\n" if $?;
		}
		my @args = defined $c->{args} ? split(' ', $c->{args}) : map_args($c->{pgbench});
		my @cmd = ($pgcliff, 'run', @file, @args,
			'--target', $target, '--db', "$tmp/store.db");
		my $pid = open my $fh_out, '-|';
		die "fork: $!" unless defined $pid;
		if ($pid == 0)
		{
			open STDERR, '>', "$tmp/stderr" or die;
			$ENV{$_} = $c->{env}{$_} for keys %{ $c->{env} // {} };
			exec @cmd or die "exec: $!";
		}
		local $/;
		my $stdout = <$fh_out> // '';
		close $fh_out;
		my $status = $? >> 8;
		open my $ef, '<', "$tmp/stderr" or die;
		my $stderr = <$ef> // '';
		close $ef;
		my $raw_stderr = $stderr;
		$nsteal_notes++
		  if $stderr =~ s/^note: cpu steal during the windows: [^\n]*\n//mg;

		my @problems;
		my $want = expected_status($c);
		push @problems, "exit status $status, want " . join(' or ', @$want)
		  unless grep { $_ == $status } @$want;
		$nstatus_differs++ if defined $c->{status};
		for my $kind ('out', 'err')
		{
			my $text = $kind eq 'out' ? $stdout : $stderr;
			for my $re (@{ $c->{$kind} })
			{
				if (grep { $_->[0] eq $kind && $_->[1] eq $re } @{ $c->{skip} })
				{
					$nskipped++;
					next;
				}
				push @problems, "std$kind does not match $re"
				  unless $text =~ /$re/;
			}
		}
		for my $k (0 .. $#{ $c->{'check-sql'} // [] })
		{
			my $got = psql($c->{'check-sql'}[$k]);
			my $re = $c->{'check-out'}[$k];
			push @problems, "check \"$c->{'check-sql'}[$k]\" gave \"$got\", want $re"
			  unless $got =~ /$re/;
		}
		if (@problems)
		{
			$nfailed++;
			print "not ok $ncases - $c->{name}\n";
			print "#   $_\n" for @problems;
			print "#   command: @cmd\n";
			print "#   stdout: $_\n" for split /\n/, $stdout;
			print "#   stderr: $_\n" for split /\n/, $raw_stderr;
		}
		else
		{
			print "ok $ncases - $c->{name}\n";
		}
	}
	(my $base = $file) =~ s{.*/}{};
	push @per_file, sprintf "%s: %d cases, %d failed", $base,
	  $ncases - $before, $nfailed - $failed_before;
}

close $to_helper;    # the helper stops its server when its stdin closes
print "# $_\n" for @per_file;
waitpid $hpid, 0;
print "1..$ncases\n";
printf "# %d cases, %d failed; %d with pgcliff's own exit status "
  . "(documented), %d pgbench display checks skipped (documented), "
  . "%d with the host's steal note taken out of stderr\n",
  $ncases, $nfailed, $nstatus_differs, $nskipped, $nsteal_notes;
exit($nfailed ? 1 : 0);
