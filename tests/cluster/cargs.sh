#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/cluster/cargs.sh - cluster mode's usage errors come before MPI starts (issue 32.14):
# in every build (MPI or not, sanitizers or not) each case exits 2 within 5 s with its own
# one error line, outside any launcher and without MPI_Init (so without Open MPI's leaks
# for LeakSanitizer to scan at exit).
# Run from the build directory (make check does), or set top_builddir.
set -u
dir=${top_builddir:-.}
. "${srcdir:-.}/tests/lib.sh"
t_tmpdir tmp cargs
fails=0

# case WANT-REGEX ARGS...: exit want_rc (2; 3: a usage error of the option table)
want_rc=2
case_() {
	want=$1
	shift
	timeout 5 "$dir/gdr_write_bw" --cluster "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	if [ $rc -ne $want_rc ] || [ "$(wc -l <"$tmp/err")" -ne 1 ] || [ -s "$tmp/out" ] ||
		! grep -Eq "^gdr_write_bw: error: $want" "$tmp/err"; then
		echo "FAIL --cluster $*: exit $rc, want $want_rc and one line matching '$want':"
		sed 's/^/    /' "$tmp/err" "$tmp/out"
		fails=$((fails + 1))
	else
		echo "PASS --cluster $*  -> $(cat "$tmp/err")"
	fi
}

case_ "--cluster takes no server argument" 10.0.0.1
case_ "--cluster: each rank's address is its rail's" --bind 10.0.0.1
case_ "--pattern=ring: expected pairwise" --pattern=ring
case_ "--topology=lldp:x: expected ibnetdiscover:FILE" --topology=lldp:x
case_ "--topology: cannot read /nonexistent/links: No such file" --topology=links:/nonexistent/links
# --ecmp: with --topology only (a pairs file is another way to pick pairs), EPS a probability
want_rc=3
case_ "--ecmp needs --topology" --ecmp
case_ "--ecmp needs --topology" --ecmp=0.01 --pairs-file=p
case_ "--ecmp=1: expected a probability, 0 < EPS < 1" --ecmp=1 --topology=links:x
case_ "--ecmp=0.01x: expected a probability" --ecmp=0.01x --topology=links:x
case_ "--switch-counters needs --topology" --switch-counters
echo "cluster-args: $fails failure(s)"
[ $fails -eq 0 ]
