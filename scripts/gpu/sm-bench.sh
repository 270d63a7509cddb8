#!/bin/bash
# SPDX-License-Identifier: MIT
# The sm copier on the GPU (issue 28), in one device call: the committed PTX checked against
# its source (sm-ptx.sh --check, where nvcc is), t_copier_sm with the real driver (the kernel
# itself: data byte for byte at 1 B..4 MiB and odd offsets, thousands of doorbells on every
# lane, stop, a copy after stop, a copy after 50 ms idle) at 1, 4 and 8 blocks per lane, its
# three runs (the module loaded once), the same test against the
# CUDA driver double, then sm_bench: H2D+D2H round trips per size 8 B..1 MiB through the sm
# copier and through the copy engine (cuMemcpyAsync pair + stream sync), median and p99.
# Run on the H100 machine from the repository root (librdmacm-dev .deb in .carry/, as
# scripts/gpu/stager.sh); writes $OUT/h100-sm.txt. About 1-2 minutes.
set -u
src=$PWD b=/tmp/b-sm o=${OUT:-/tmp/out} iters=${SM_BENCH_ITERS:-20000}
mkdir -p "$o" "$b"
R=$o/h100-sm.txt
{ echo "# machine: $(nvidia-smi --query-gpu=name,driver_version,pci.bus_id --format=csv,noheader 2>/dev/null | head -1); $(uname -srm); $(nproc) CPUs"
  echo "# date: $(date -u +%FT%TZ); commit: ${GDR_COMMIT:-$(git -C "$src" rev-parse --short HEAD 2>/dev/null)}"
  echo "# command: scripts/gpu/sm-bench.sh (sm-ptx.sh --check; t_copier_sm real driver with GDR_SM_BLOCKS=1,4,8;"
  echo "#          t_copier_sm_double.sh; sm_bench $iters with GDR_SM_BLOCKS=1,4,8)"; } >"$R"
. scripts/gpu/env.sh
{ echo "== scripts/gpu/sm-ptx.sh --check"; bash scripts/gpu/sm-ptx.sh --check; echo "exit $?"
  autoreconf -fi >/dev/null 2>&1 || autoreconf -fi
  cd "$b" && "$src/configure" --enable-werror CUDA_H_PATH=/usr/local/cuda/include/cuda.h >conf.out 2>&1
  make -j16 tests/cuda/t_copier_sm tests/cuda/sm_bench tests/cuda_double/libcuda.so.1 >make.out 2>&1
  echo "build: exit $?"; grep -E 'error|warning' make.out | head -20; } >>"$R" 2>&1
cd "$b" || exit 1
for n in 1 4 8; do
	{ echo; echo "== tests/cuda/t_copier_sm, real driver, GDR_SM_BLOCKS=$n"
	  env -u GDR_LIBCUDA GDR_SM_BLOCKS=$n timeout 120 tests/cuda/t_copier_sm; echo "exit $?"; } >>"$R" 2>&1
done
{ echo; echo "== tests/cuda/t_copier_sm runs, real driver (three runs that each take and give back the GPU)"
  env -u GDR_LIBCUDA timeout 120 tests/cuda/t_copier_sm runs; echo "exit $?"; } >>"$R" 2>&1
{ echo; echo "== tests/cuda/t_copier_sm_double.sh (the CUDA driver double: the protocol, not the kernel)"
  srcdir=$src timeout 120 sh "$src/tests/cuda/t_copier_sm_double.sh"; echo "exit $?"; } >>"$R" 2>&1
for n in 1 4 8; do
	{ echo; echo "== tests/cuda/sm_bench $iters, GDR_SM_BLOCKS=$n"
	  env -u GDR_LIBCUDA GDR_SM_BLOCKS=$n timeout 150 tests/cuda/sm_bench "$iters"; echo "exit $?"; } >>"$R" 2>&1
done
{ echo; echo "sm-bench.sh: t_copier_sm passed $(grep -c '^t_copier_sm: all checks passed' "$R") of 9 runs" \
	"(4 real driver, 5 double); sm_bench tables: $(grep -c '^#bytes' "$R") of 3"; } >>"$R"
cat "$R"
