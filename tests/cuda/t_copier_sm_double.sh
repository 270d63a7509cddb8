#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/cuda/t_copier_sm against the CUDA driver double, which plays the sm copier's kernel
# on a host thread (the protocol: doorbell, copy, fence, acknowledgement, stop; only a GPU
# proves the kernel itself), with one and with eight blocks per lane; then a kernel that
# stops answering (one line, -1 within the timeout, close bounded) and a failed launch.
. "${srcdir:-.}/tests/cuda/double-env.sh"
t=tests/cuda/t_copier_sm
export GDR_DOUBLE_DELAY_US=20
for b in 1 8; do
	GDR_SM_BLOCKS=$b $t || exit 1
done
# three runs as a --persistent server's clients: the kernel's module is loaded once
# (GDR_DOUBLE_LOADS: the double's count), and still runs after each run gave its GPU back
loads=$(mktemp) || exit 99
GDR_DOUBLE_LOADS=$loads $t runs
rc=$?
rm -f "$loads"
[ $rc -eq 0 ] || exit 1

# expect MODE FAIL WHAT REGEX...: t_copier_sm MODE with GDR_DOUBLE_FAIL=FAIL must pass and
# print on stderr exactly one line matching each REGEX, and nothing else
expect()
{
	mode=$1 fail=$2 what=$3
	shift 3
	err=$(GDR_DOUBLE_FAIL=$fail $t "$mode" 2>&1 >/tmp/t_copier_sm.$$)
	rc=$?
	cat /tmp/t_copier_sm.$$
	rm -f /tmp/t_copier_sm.$$
	bad=$([ $rc -eq 0 ] || echo "exit $rc")
	for re in "$@"; do
		[ "$(echo "$err" | grep -c "$re")" -eq 1 ] || bad="$bad, not one line /$re/"
	done
	[ "$(echo "$err" | grep -c .)" -eq $# ] || bad="$bad, $(echo "$err" | grep -c .) lines"
	if [ -n "$bad" ]; then
		echo "$err"
		echo "FAIL: t_copier_sm $mode with GDR_DOUBLE_FAIL=$fail: $bad"
		exit 1
	fi
	[ -z "$err" ] || echo "$err" | sed 's/^/  stderr: /'
	echo "  GDR_DOUBLE_FAIL=$fail: $what"
}
expect stuck stuck:2 "a silent kernel: one line and -1 within the timeout; close bounded" \
	"host-to-device copy on lane 0 not acknowledged after 0.4[0-9]* s: the kernel runs but does not answer" \
	"the kernel did not stop within 0.400 s"
expect nolaunch launch "a failed launch: open says why (and prints nothing itself)"
