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

double_expect stuck:2 0 "GDR_DOUBLE_FAIL=stuck:2: a silent kernel: one line and -1 within the timeout; close bounded" \
	"$t stuck" \
	"host-to-device copy on lane 0 not acknowledged after 0.4[0-9]* s: the kernel runs but does not answer" \
	"the kernel did not end within 0.400 s"
double_expect launch 0 "GDR_DOUBLE_FAIL=launch: a failed launch: open says why (and prints nothing itself)" \
	"$t nolaunch"
