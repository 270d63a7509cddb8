#!/bin/sh
# SPDX-License-Identifier: MIT
# The conformance case c_timeslice against the CUDA driver double, held to its .expect. It times
# hand-offs between the double's kernels, which are threads: on a host too busy to time them
# the case skips (77, said) and so does this test.
. "${srcdir:-.}/tests/cuda/double-env.sh"
sh "${srcdir:-.}/tests/conformance/compare.sh" tests/conformance/c_timeslice \
	"${srcdir:-.}/tests/conformance/c_timeslice.expect"
