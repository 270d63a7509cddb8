#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/cuda/t_sm_list_proto on the CUDA driver double: the sm kernel's block-list
# descriptor by hand; the double must fault on a list rung without its table written again
# (it spoils each table it has read), not copy stale blocks quietly. A skip (77) fails here.
. "${srcdir:-.}/tests/cuda/double-env.sh"
export GDR_DOUBLE_DELAY_US=20
out=$(tests/cuda/t_sm_list_proto 2>&1)
rc=$?
echo "$out"
if [ $rc -eq 77 ]; then
	echo "FAIL: t_sm_list_proto skipped although the double is built"
	exit 1
fi
if [ $rc -eq 0 ] && ! echo "$out" | grep -q 'without its table written: the kernel faulted$'; then
	echo "FAIL: the double copied a list rung without its table written"
	exit 1
fi
exit $rc
