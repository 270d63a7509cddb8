#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/cuda/t_copier_list on the CUDA driver double and the gdrcopy double: the copy
# engine's, the sm copier's and gdrcopy's block lists on CUDA memory. A skip (77), or gdrcopy's part skipped,
# is a failure here: with both doubles built every check must run.
. "${srcdir:-.}/tests/cuda/double-env.sh"
. "${srcdir:-.}/tests/cuda/gdrcopy-env.sh"
out=$(tests/cuda/t_copier_list 2>&1)
rc=$?
echo "$out"
if [ $rc -eq 77 ]; then
	echo "FAIL: t_copier_list skipped although the double is built"
	exit 1
fi
if [ $rc -eq 0 ] && ! echo "$out" | grep -q '^  gdrcopy: a list of'; then
	echo "FAIL: t_copier_list did not run gdrcopy's lists although its double is built"
	exit 1
fi
if [ $rc -eq 0 ] && ! echo "$out" | grep -q '^  sm: a list of 1024 blocks'; then
	echo "FAIL: t_copier_list did not run the sm copier's longest list"
	exit 1
fi
exit $rc
