#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/cuda/t_copier_gdrcopy on the CUDA driver double and the gdrcopy double. A skip
# (77) is a failure here: with both doubles built every check must run.
. "${srcdir:-.}/tests/cuda/double-env.sh"
. "${srcdir:-.}/tests/cuda/gdrcopy-env.sh"
tests/cuda/t_copier_gdrcopy
rc=$?
if [ $rc -eq 77 ]; then
	echo "FAIL: t_copier_gdrcopy skipped although both doubles are built"
	exit 1
fi
exit $rc
