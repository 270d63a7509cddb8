#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/cuda/t_cuda_driver against the CUDA driver double (the real driver runs it as well),
# then the double's switches: broken ordering must be caught, injected faults reported,
# the fixture followed.
. "${srcdir:-.}/tests/cuda/double-env.sh"
t=tests/cuda/t_cuda_driver
$t || exit 1

# expect RC REGEX WHAT VAR=VALUE: t_cuda_driver run with VAR=VALUE must exit RC and say REGEX
expect()
{
	out=$(env "$4" $t 2>&1)
	rc=$?
	if [ $rc -ne "$1" ] || ! echo "$out" | grep -q "$2"; then
		echo "$out"
		echo "FAIL: with $4, t_cuda_driver must exit $1 and say /$2/ (exit $rc)"
		exit 1
	fi
	echo "  $4: $3"
}
expect 1 "reported done at once" "the broken stream order was caught" GDR_DOUBLE_UNORDERED=1
for f in alloc:1 copy:2 ctxlost:2; do
	expect 0 "after the fault\|OUT_OF\|GDR_DOUBLE_FAIL" "the injected fault was reported" \
		GDR_DOUBLE_FAIL=$f
done
# a platform without the HOST flush option: the double refuses the flush, as the driver does;
# an injected flush fault is reported as one
expect 0 "flush options 0: cuFlushGPUDirectRDMAWrites .*not supported" \
	"no HOST flush option: the flush is refused" GDR_DOUBLE_FLUSH_OPTIONS=0
expect 0 "flush options 1: cuFlushGPUDirectRDMAWrites succeeds" "the flush works by default" \
	GDR_DOUBLE_ORDERING=0
expect 1 "flush options 1: cuFlushGPUDirectRDMAWrites .*GDR_DOUBLE_FAIL=flush" \
	"an injected flush fault is reported" GDR_DOUBLE_FAIL=flush
expect 0 "device 1 at 0000:AF:00.0: .*NUMA node 1" "the fixture's bus ids and NUMA nodes" \
	GDR_DOUBLE_FIXTURE="${srcdir:-.}/tests/cuda_double/two-gpus.fixture"
