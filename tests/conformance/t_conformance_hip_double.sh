#!/bin/sh
# SPDX-License-Identifier: MIT
# The HIP conformance case (tests/conformance/h_rules) against the HIP double, held to its
# .expect (the HIP documentation's answers: no AMD GPU has run it).
unset GDR_LIBHSA GDR_HIP_DOUBLE_FAIL GDR_HIP_DOUBLE_DEVICES GDR_HIP_DOUBLE_FIXTURE \
	GDR_HIP_DOUBLE_DELAY_US
GDR_LIBHIP=$PWD/tests/hip_double/libamdhip64.so.6
[ -f "$GDR_LIBHIP" ] || { echo "error: $GDR_LIBHIP not built (make check builds it)" >&2; exit 99; }
export GDR_LIBHIP
sh "${srcdir:-.}/tests/conformance/compare.sh" tests/conformance/h_rules \
	"${srcdir:-.}/tests/conformance/h_rules.expect"
