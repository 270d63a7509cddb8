#!/bin/bash
# SPDX-License-Identifier: MIT
# Kernel variants of the sm copier against the anchor, in one device call on one GPU (issue
# 33): builds sm_bench once, writes one PTX per variant (scripts/gpu/sm-ptx.sh with
# SM_PTX_FLAGS: -D overrides of sm_proto.h's tunables) and runs scripts/gpu/sm-anchor.sh for
# each, the product loading that PTX through GDR_SM_PTX, the anchor measured again beside it.
# Usage (repository root, on the GPU machine, librdmacm-dev .deb in .carry/ as sm-bench.sh):
#   sm-variants.sh [ITERATIONS] NAME=FLAGS...   e.g. off=-DGDR_SM_IDLE_NS=~0ULL default=
# PROBES: the anchor's folder (as sm-anchor.sh). Writes $OUT/sm-variants.txt and prints it.
set -u
n=${1:-10000}
shift
# SMV_BUILD: a build folder that already holds tests/cuda/sm_bench (no configure, no make)
src=$PWD b=${SMV_BUILD:-/tmp/b-smv} o=${OUT:-/tmp/out}
mkdir -p "$o" "$b"
R=$o/sm-variants.txt
{ echo "# machine: $(nvidia-smi --query-gpu=name,driver_version,pci.bus_id --format=csv,noheader 2>/dev/null | head -1); $(uname -srm); $(nproc) CPUs"
  echo "# date: $(date -u +%FT%TZ); commit: ${GDR_COMMIT:-$(git -C "$src" rev-parse --short HEAD 2>/dev/null)}"
  echo "# command: scripts/gpu/sm-variants.sh $n $*"; } >"$R"
. scripts/gpu/env.sh
[ -x "$b/tests/cuda/sm_bench" ] || { autoreconf -fi >/dev/null 2>&1 || autoreconf -fi
  (cd "$b" && "$src/configure" --enable-werror CUDA_H_PATH=/usr/local/cuda/include/cuda.h >conf.out 2>&1 &&
	make -j16 tests/cuda/sm_bench >make.out 2>&1)
  echo "build: exit $?"; grep -E 'error|warning' "$b/make.out" | head -20; } >>"$R" 2>&1
for v in "$@"; do
	name=${v%%=*} flags=${v#*=}
	{ echo; echo "== variant $name: ${flags:-(the committed tunables)}"
	  SM_PTX_FLAGS=$flags SM_PTX_OUT=$b/$name.ptx bash scripts/gpu/sm-ptx.sh &&
		GDR_SM_PTX=$b/$name.ptx timeout 200 bash scripts/gpu/sm-anchor.sh "$b/tests/cuda/sm_bench" "$n"
	  echo "exit $?"; } >>"$R" 2>&1
done
cat "$R"
