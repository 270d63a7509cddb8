#!/bin/sh
# SPDX-License-Identifier: MIT
# Every CUDA conformance case (tests/conformance/c_*) but c_timeslice (its own test,
# t_conformance_timeslice_double.sh: it may skip on a busy host) against the CUDA driver double, held to
# its .expect (what the real driver says; scripts/gpu/conformance.sh runs them on the GPU
# machine against both). A disagreement fails with a diff. Then the suite is shown able to
# fail: the double with its ordering broken on purpose (GDR_DOUBLE_UNORDERED=1) must make
# c_stream_order DISAGREE.
. "${srcdir:-.}/tests/cuda/double-env.sh"
d=${srcdir:-.}/tests/conformance
fail=0
for c in fork stream_order ctx_thread errors attrs dmabuf batch; do
	sh "$d/compare.sh" tests/conformance/c_$c "$d/c_$c.expect" || fail=1
done
out=$(GDR_DOUBLE_UNORDERED=1 sh "$d/compare.sh" tests/conformance/c_stream_order \
	"$d/c_stream_order.expect")
rc=$?
if [ $rc -ne 1 ] || ! echo "$out" | grep -q '^c_stream_order: DISAGREE'; then
	echo "$out"
	echo "FAIL: with GDR_DOUBLE_UNORDERED=1 c_stream_order must DISAGREE (exit $rc)"
	fail=1
else
	echo "GDR_DOUBLE_UNORDERED=1: c_stream_order disagrees, as it must:"
	echo "$out" | sed 's/^/  /'
fi
exit $fail
