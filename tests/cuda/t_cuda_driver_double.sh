#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/cuda/t_cuda_driver against the CUDA driver double (the real driver runs it as well),
# then the double's switches: broken ordering must be caught, injected faults reported.
. "${srcdir:-.}/tests/cuda/double-env.sh"
t=tests/cuda/t_cuda_driver
$t || exit 1
out=$(GDR_DOUBLE_UNORDERED=1 $t 2>&1)
rc=$?
if [ $rc -ne 1 ] || ! echo "$out" | grep -q "reported done at once"; then
	echo "$out"
	echo "FAIL: with GDR_DOUBLE_UNORDERED=1 t_cuda_driver must fail on the broken order (rc $rc)"
	exit 1
fi
echo "  GDR_DOUBLE_UNORDERED=1: the broken stream order was caught"
for f in alloc:1 copy:2 ctxlost:2; do
	GDR_DOUBLE_FAIL=$f $t || exit 1
done
