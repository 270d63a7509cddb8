#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/cuda/t_copier_list on the CUDA driver double: the copy engine's block lists on CUDA
# memory. A skip (77) is a failure here: with the double built every check must run.
. "${srcdir:-.}/tests/cuda/double-env.sh"
tests/cuda/t_copier_list
rc=$?
if [ $rc -eq 77 ]; then
	echo "FAIL: t_copier_list skipped although the double is built"
	exit 1
fi
exit $rc
