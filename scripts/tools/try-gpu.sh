#!/bin/bash
# SPDX-License-Identifier: MIT
#
# try-gpu.sh [OUTDIR] - gdrperf on "GPU memory" with no GPU and no RDMA NIC, in one command:
# `gdr_write_bw --compare` (host, direct, staged and gpu-proxy paths) and `gdr_write_bw
# --matrix` (every GPU x NIC port, the measured pairing) in the Soft-RoCE VM of
# scripts/ci/rxe-vm.sh, with the CUDA driver double standing in for the GPU driver.
#
# On a fresh Debian 12 machine (as root, for apt-get) it:
#   1. installs the missing packages of scripts/ci/deps.sh's groups `build` and `vm`
#      (compiler, autotools, rdma-core headers; qemu-system-x86, linux-image-amd64,
#      busybox-static, rdma-core, ibverbs-providers, iproute2, kmod, ...);
#   2. finds cuda.h (the header only; no CUDA library is linked): CUDA_H_PATH, else
#      /usr/local/cuda/include/cuda.h, else /usr/include/cuda.h (Debian's nvidia-cuda-dev,
#      in non-free); none: one line says how to get it, exit 1;
#   3. builds into build/try (autogen, configure, make) and the CUDA driver double,
#      `make tests/cuda_double/libcuda.so.1` (the target `make check` builds; never
#      installed), which the programs load through GDR_LIBCUDA=.../libcuda.so.1;
#   4. boots the VM and, inside, adds a second Soft-RoCE NIC for --matrix (rxe1 on veth1,
#      10.9.0.2: `ip addr add 10.9.0.2/24 dev veth1; rdma link add rxe1 type rxe netdev
#      veth1`), then runs --compare (a server on rxe0, a client on the double's GPU 0) and
#      --matrix=rxe0,rxe1 on the double's two GPUs, and prints both.
# Steps already done are skipped. OUTDIR (default build/try/out) keeps the outputs:
# compare.txt, matrix.txt, matrix.csv, matrix.json, pairing.txt.
#
# Every figure it prints is the CUDA double's (host memory in place of a GPU) over Soft-RoCE
# under software emulation: it shows what the tool does, never what a GPU or a NIC does.
# The rows say so too (gpu_name "gdrperf CUDA double (test tool, not a GPU)").
#
# Environment: CUDA_H_PATH (cuda.h), TRY_GPU_BUILD (a build folder to use instead of
# build/try: configured already, it is only brought up to date), TRY_GPU_SIZE (message
# size, default 64K), TRY_GPU_TIME (--matrix_time, default 2 s: shorter, a loaded host may time no message), RXE_VM_TIMEOUT (900 s).
# Exit status: 0 when both ran, else the first failure's.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
size=${TRY_GPU_SIZE:-64K}
mtime=${TRY_GPU_TIME:-2}
NOTE="(the CUDA double's host memory standing in for a GPU, Soft-RoCE under emulation: figures of the tool, not of a GPU or a NIC)"

# ---- inside the VM (rxe-vm.sh runs this script again with TRY_GPU_BIN set) ----
if [[ -n ${TRY_GPU_BIN:-} ]]; then
	bin=$TRY_GPU_BIN
	export GDR_LIBCUDA=$bin/tests/cuda_double/libcuda.so.1
	cd "$RXE_VM_OUT" || exit 1
	if [[ ! -e /sys/class/infiniband/rxe1 ]]; then # the second NIC --matrix pairs against
		if ! { ip addr add 10.9.0.2/24 dev veth1 && rdma link add rxe1 type rxe netdev veth1; }; then
			echo "try-gpu: error: cannot add rxe1 on veth1" >&2
			exit 1
		fi
	fi
	rc=0
	echo "== gdr_write_bw --compare, client on GPU 0 $NOTE"
	timeout 120 "$bin/gdr_write_bw" -d rxe0 --listen_timeout 60 >compare-server.txt 2>&1 &
	spid=$!
	timeout 120 "$bin/gdr_write_bw" -d rxe0 --use_cuda=0 --compare -s "$size" -D 1 \
		--connect_timeout 30 10.9.0.1 >compare.txt 2>&1
	rc=$?
	wait $spid
	s=$?
	[[ $rc -ne 0 ]] || rc=$s
	cat compare.txt
	echo
	echo "== gdr_write_bw --matrix=rxe0,rxe1, 2 GPUs $NOTE"
	GDR_DOUBLE_DEVICES=2 timeout 600 "$bin/gdr_write_bw" --matrix=rxe0,rxe1 -s "$size" \
		--matrix_time "$mtime" --pairing=pairing.txt --csv=matrix.csv --json=matrix.json \
		>matrix.txt 2>&1
	s=$?
	[[ $rc -ne 0 ]] || rc=$s
	cat matrix.txt
	exit $rc
fi

# ---- on the host ----
step() { echo "try-gpu: $*"; }
b=${TRY_GPU_BUILD:-$top/build/try}
b=$(mkdir -p "$b" && cd "$b" && pwd) || exit 1
out=${1:-$b/out}
step "1/4 packages (scripts/ci/deps.sh build vm)"
# shellcheck source=scripts/ci/deps.sh
. "$top/scripts/ci/deps.sh"
gdr_deps "build vm" || exit 1

step "2/4 cuda.h"
cuda_h=${CUDA_H_PATH:-}
for h in /usr/local/cuda/include/cuda.h /usr/include/cuda.h; do
	[[ -n $cuda_h ]] || { [[ -f $h ]] && cuda_h=$h; }
done
[[ -n $cuda_h && -f $cuda_h ]] || {
	echo "try-gpu: error: no cuda.h: install Debian's nvidia-cuda-dev (non-free) or NVIDIA's cuda-driver-dev, or set CUDA_H_PATH" >&2
	exit 1
}

step "3/4 build into $b, and the CUDA driver double"
if [[ ! -x $top/configure ]]; then
	(cd "$top" && ./autogen.sh) >"$b/autogen.log" 2>&1 || {
		echo "try-gpu: error: autogen.sh failed: $b/autogen.log" >&2
		exit 1
	}
fi
if [[ ! -f $b/Makefile ]]; then
	(cd "$b" && "$top/configure" CUDA_H_PATH="$cuda_h") >"$b/configure.log" 2>&1 || {
		echo "try-gpu: error: configure failed: $b/configure.log" >&2
		exit 1
	}
fi
jobs=$(nproc 2>/dev/null || echo 2)
(cd "$b" && make -j"$jobs" && make -j"$jobs" tests/cuda_double/libcuda.so.1) >"$b/make.log" 2>&1 || {
	echo "try-gpu: error: the build failed: $b/make.log" >&2
	exit 1
}

step "4/4 the VM: a second Soft-RoCE NIC, --compare and --matrix (outputs in $out)"
mkdir -p "$out" || exit 1
TRY_GPU_BIN=$b TRY_GPU_SIZE=$size TRY_GPU_TIME=$mtime RXE_VM_TIMEOUT=${RXE_VM_TIMEOUT:-900} \
	RXE_VM_ENV="TRY_GPU_BIN TRY_GPU_SIZE TRY_GPU_TIME" \
	bash "$top/scripts/ci/rxe-vm.sh" "$here/try-gpu.sh" "$out"
