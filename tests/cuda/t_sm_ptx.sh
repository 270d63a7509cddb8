#!/bin/sh
# SPDX-License-Identifier: MIT
# The committed src/staging/sm_copy.ptx is what src/staging/sm_copy.cu gives, where nvcc is
# (skips, 77, where it is not: the build itself never needs it).
cd "${srcdir:-.}" || exit 99
exec bash scripts/gpu/sm-ptx.sh --check
