#!/bin/sh
# SPDX-License-Identifier: MIT
# The committed src/gproxy/gp_kernel.ptx (the gpu-proxy path's kernel) says no more than the
# floor of gp_proto.h (.version, .target: older drivers refuse newer PTX) and publishes with no
# sequentially consistent system fence, everywhere; and, where nvcc is, it is what
# src/gproxy/gp_kernel.cu gives (skips, 77, where nvcc is not: the build never needs it).
cd "${srcdir:-.}" || exit 99
bash scripts/gpu/sm-ptx.sh --floor gp || exit 1
if grep -nE '^[[:space:]]*(membar\.sys|fence\.sc\.sys)' src/gproxy/gp_kernel.ptx; then
	echo "t_gp_ptx: src/gproxy/gp_kernel.ptx fences with a sequentially consistent system fence; fence.acq_rel.sys suffices" >&2
	exit 1
fi
exec bash scripts/gpu/sm-ptx.sh --check gp
