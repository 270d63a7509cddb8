#!/bin/sh
# SPDX-License-Identifier: MIT
# The committed src/staging/sm_copy.ptx says no more than the floor of sm_proto.h (.version,
# .target: older drivers refuse newer PTX) and publishes with no sequentially consistent
# system fence, everywhere; and, where nvcc is, it is what
# src/staging/sm_copy.cu gives (skips, 77, where nvcc is not: the build itself never needs it).
cd "${srcdir:-.}" || exit 99
bash scripts/gpu/sm-ptx.sh --floor || exit 1
# The copy is published with an acquire-release fence (as NCCL publishes to the host), never
# the sequentially consistent membar.sys / fence.sc.sys (issue 33 item 5).
if grep -nE '^[[:space:]]*(membar\.sys|fence\.sc\.sys)' src/staging/sm_copy.ptx; then
	echo "t_sm_ptx: src/staging/sm_copy.ptx publishes with a sequentially consistent system fence; fence.acq_rel.sys suffices" >&2
	exit 1
fi
exec bash scripts/gpu/sm-ptx.sh --check
