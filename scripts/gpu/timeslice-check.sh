#!/bin/bash
# SPDX-License-Identifier: MIT
# Time slicing between processes on one GPU, the real driver against the CUDA double's rule
# (docs/cuda-double.md "Time slicing between processes"; issue 43 items 2 and 10): two
# processes' gpu-proxy kernels on GPU ${TS_GPU:-0} hand a byte back and forth through mapped
# host memory (tests/cuda/ts_ping, a null NIC), 200 and 2000 hand-offs; then the same with two
# kernels of one process (gdr_proxy_bw --ping), then ts_ping against the double at its default
# slice. Without MPS the driver's figure should be milliseconds (the H200 read ~2.2 ms) and the
# one-process figure microseconds; the double's should be about GDR_DOUBLE_SLICE_US (2 ms).
# Run from the repository root on the GPU machine; writes $OUT/timeslice.txt. About a minute.
set -u
src=$PWD b=/tmp/b-ts o=${OUT:-/tmp/out} gpu=${TS_GPU:-0}
mkdir -p "$o" "$b"
R=$o/timeslice.txt
{ echo "# machine: $(nvidia-smi --query-gpu=name,driver_version,pci.bus_id --format=csv,noheader 2>/dev/null | sed -n "$((gpu + 1))p"); $(uname -srm); $(nproc) CPUs"
  echo "# date: $(date -u +%FT%TZ); commit: ${GDR_COMMIT:-$(git -C "$src" rev-parse --short HEAD 2>/dev/null)}"
  echo "# MPS: CUDA_MPS_PIPE_DIRECTORY=${CUDA_MPS_PIPE_DIRECTORY:-unset}; nvidia-cuda-mps-control running: $(pgrep -x nvidia-cuda-mps-control >/dev/null && echo yes || echo no)"
  echo "# command: scripts/gpu/timeslice-check.sh (TS_GPU=$gpu)"; } >"$R"
[ -f scripts/gpu/env.sh ] && . scripts/gpu/env.sh
{ autoreconf -fi >/dev/null 2>&1 || autoreconf -fi
  cd "$b" && "$src/configure" --enable-werror CUDA_H_PATH=/usr/local/cuda/include/cuda.h >conf.out 2>&1
  make -j16 gdr_proxy_bw tests/cuda/ts_ping tests/cuda_double/libcuda.so.1 >make.out 2>&1
  echo "build: exit $?"; grep -E 'error|warning' make.out | head -20; } >>"$R" 2>&1
cd "$b" || exit 1

# pair LABEL N ENV...: two processes, one ping-pong of N round trips; prints the first's line
pair()
{
	rm -f ${TS_FLAGS:-/dev/shm/ts-flags}
	env "${@:3}" timeout 120 tests/cuda/ts_ping ${TS_FLAGS:-/dev/shm/ts-flags} second "$2" "$gpu" >/tmp/ts-second 2>&1 &
	local p=$!
	echo "== $1: two processes on GPU $gpu, $2 round trips"
	env "${@:3}" timeout 120 tests/cuda/ts_ping ${TS_FLAGS:-/dev/shm/ts-flags} first "$2" "$gpu"
	echo "first: exit $?"
	wait $p
	echo "second: exit $?"
	cat /tmp/ts-second
}
{ pair "real driver" 200 -u GDR_LIBCUDA
  pair "real driver" 2000 -u GDR_LIBCUDA
  echo "== real driver: two kernels of one process (gdr_proxy_bw --ping; ping row: gpu_median_us per message)"
  env -u GDR_LIBCUDA timeout 120 ./gdr_proxy_bw -q -n 2000 --ping --no_rate --use_cuda="$gpu"
  echo "exit $?"
  pair "CUDA double, default slice" 200 GDR_LIBCUDA="$b/tests/cuda_double/libcuda.so.1"
} >>"$R" 2>&1
rm -f ${TS_FLAGS:-/dev/shm/ts-flags} /tmp/ts-second
grep -E '^(==|handoff_us|ping,)' "$R"
