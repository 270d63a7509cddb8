#!/bin/bash
# SPDX-License-Identifier: MIT
# scripts/gpu/grace-checks.sh - issue 27's checks against the real driver: run on the GPU
# machine from the repository root, with the librdmacm-dev .deb in .carry/ and $OUT a folder.
#   1. BAR1: the GPU's sysfs resource file, gdr_doctor's pcie.bar1 line (sysfs, else NVML),
#      and nvidia-smi's BAR1 figure beside it: the two sizes must agree
#   2. CUDA 13 context creation: the entry points the driver exports (nm -D), the ones
#      gdrperf resolves (cuGetProcAddress: cuDevicePrimaryCtxRetain, never cuCtxCreate), and
#      the CUDA unit tests with the real driver
#   3. the driver's answer to the dma-buf export with and without the PCIe mapping flag
# Writes $OUT/grace-checks.txt; exit 1 when a check failed.
set -u
src=$PWD b=/tmp/b-grace o=${OUT:-/tmp/out}
mkdir -p "$o" "$b"
R=$o/grace-checks.txt
fails=0
no() { echo "FAIL: $*"; fails=$((fails + 1)); }
. scripts/gpu/env.sh
{
	echo "# machine: $(nvidia-smi --query-gpu=name,driver_version,pci.bus_id --format=csv,noheader 2>/dev/null | head -1); $(uname -srm); $(nproc) CPUs"
	echo "# date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "# command: bash scripts/gpu/grace-checks.sh"
	(autoreconf -fi >/dev/null 2>&1 || autoreconf -fi) && cd "$b" &&
		"$src/configure" --enable-werror CUDA_H_PATH=/usr/local/cuda/include/cuda.h >configure.out 2>&1 &&
		make -j16 >make.out 2>&1 && make -j16 check >check.out 2>&1
	echo "build and make check: exit $?"
	grep -E '^(# (TOTAL|PASS|SKIP|FAIL|ERROR)|FAIL:|SKIP:)' check.out
	cd "$b" || exit 1

	echo "== 1. BAR1"
	bdf=$(nvidia-smi --query-gpu=pci.bus_id --format=csv,noheader | head -1 | tr 'A-F' 'a-f' | sed 's/^0000//')
	echo "GPU $bdf; sysfs resource (lines 1-3):"
	head -3 "/sys/bus/pci/devices/$bdf/resource" 2>&1
	smi=$(nvidia-smi -q -d MEMORY | awk '/BAR1 Memory Usage/ { f = 1 } f && /Total/ { print $3; exit }')
	echo "nvidia-smi BAR1 total: ${smi:-none} MiB"
	./gdr_doctor >doctor.txt 2>&1
	line=$(grep 'BAR1' doctor.txt)
	echo "gdr_doctor: $line"
	[[ -n $smi && $line == *"BAR1 $smi MiB"* ]] || no "gdr_doctor's BAR1 differs from nvidia-smi's ($smi MiB)"

	echo "== 2. CUDA 13 context creation"
	lib=$(ldconfig -p | awk '/libcuda.so.1 / { print $NF; exit }')
	lib=${lib:-/usr/local/nvidia/lib64/libcuda.so.1}
	echo "driver library: $lib; CUDA $(nvidia-smi | grep -o 'CUDA Version: [0-9.]*')"
	echo "exported context and lookup entry points:"
	nm -D --defined-only "$lib" | awk '{ print $NF }' |
		grep -E '^(cuCtxCreate|cuDevicePrimaryCtx|cuGetProcAddress|cuInit$|cuDriverGetVersion$)' | sort | tr '\n' ' '
	echo
	nm -D --defined-only "$lib" | grep -q ' cuGetProcAddress_v2$' || no "no cuGetProcAddress_v2 exported"
	nm -D --defined-only "$lib" | grep -q ' cuDevicePrimaryCtxRetain$' || no "no cuDevicePrimaryCtxRetain exported"
	echo "the double exports:"
	nm -D --defined-only tests/cuda_double/libcuda.so.1 | awk '/ T / { print $NF }' | sort | tr '\n' ' '
	echo
	for t in tests/cuda/t_cuda_driver tests/cuda/t_cuda_backend; do
		./$t >t.out 2>&1
		rc=$?
		echo "$t with the real driver: exit $rc"
		tail -3 t.out
		[[ $rc == 0 ]] || no "$t: exit $rc"
	done

	echo "== 3. dma-buf export with the PCIe (BAR1) mapping flag (--use_cuda_pcie_mapping)"
	cat >pcie_map.c <<'C'
#include <stdio.h>
#include <unistd.h>
#include "cuda_api.h"
int main(void)
{
	const struct gdr_cuda_api *cu;
	char why[256];
	CUdevice dev;
	CUcontext ctx;
	CUdeviceptr p;
	int fd = -1;
	if (gdr_cuda_load(&cu, why, sizeof(why))) { printf("load: %s\n", why); return 1; }
	if (cu->cuDeviceGet(&dev, 0) || cu->cuDevicePrimaryCtxRetain(&ctx, dev) ||
	    cu->cuCtxSetCurrent(ctx) || cu->cuMemAlloc(&p, 2 << 20)) { printf("setup failed\n"); return 1; }
	for (unsigned long long fl = 0; fl <= GDR_DMABUF_MAPPING_PCIE; fl++) {
		CUresult r = cu->cuMemGetHandleForAddressRange(&fd, p, 2 << 20,
			CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, fl);
		printf("flags %llu: %s, fd %d\n", fl, r ? gdr_cuda_strerror(r) : "CUDA_SUCCESS", r ? -1 : fd);
		if (!r)
			close(fd);
	}
	return 0;
}
C
	gcc -std=gnu11 -DHAVE_CONFIG_H -I. -I"$src/src/memory" -I"$src/src/base" -I/usr/local/cuda/include -o pcie_map \
		pcie_map.c "$src/src/memory/cuda_api.c" "$src/src/base/dlib.c" -ldl -lpthread && ./pcie_map ||
		no "the PCIe mapping probe did not run"
	echo "fails: $fails"
} >"$R" 2>&1
cat "$R"
[[ $fails == 0 ]]
