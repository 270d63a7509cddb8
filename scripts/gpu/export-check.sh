#!/bin/bash
# SPDX-License-Identifier: MIT
# Run on the GPU machine from the repository root ($OUT a folder): memory exports, the
# transport registers (issue 45). Builds with CUDA, runs tests/cuda/t_cuda_backend on the
# real driver (the export of each registration choice: auto, peermem, dma-buf, the PCIe
# mapping, data direct; a driver that refuses an export must say why), then, where the
# host has an RDMA device, registers GPU 0's memory through the verbs transport each way
# (gdr_write_bw to itself over 127.0.0.1) and keeps each side's registration line.
# Writes $OUT/export-check.txt (machine, date, commit, command at the top).
set -u
src=$PWD b=/tmp/b-export o=${OUT:-/tmp/out}
mkdir -p "$o" "$b"
R=$o/export-check.txt
{
	echo "# machine: $(nvidia-smi --query-gpu=name,driver_version,pci.bus_id --format=csv,noheader 2>/dev/null | head -1); $(uname -srm); $(nproc) CPUs"
	echo "# date: $(date -u +%FT%TZ); commit: ${GDR_COMMIT:-$(git -C "$src" rev-parse --short HEAD 2>/dev/null)}"
	echo "# command: scripts/gpu/export-check.sh"
} >"$R"
. scripts/gpu/env.sh
{
	autoreconf -fi >/dev/null 2>&1 || autoreconf -fi
	cd "$b" && "$src/configure" --enable-werror CUDA_H_PATH=/usr/local/cuda/include/cuda.h 2>&1 | tail -2
	make -j16 >make.out 2>&1 && make -j16 tests/cuda/t_cuda_backend >>make.out 2>&1
	echo "make: exit $?"
	grep -E 'error|warning' make.out | head -20
	echo "== tests/cuda/t_cuda_backend, real driver"
	env -u GDR_LIBCUDA tests/cuda/t_cuda_backend 2>&1
	echo "exit $?"
	dev=$(ibv_devices 2>/dev/null | awk 'NR > 2 && $1 != "" { print $1; exit }')
	if [ -z "$dev" ]; then
		echo "== no RDMA device: registration through the transport not run here"
		exit 0
	fi
	port=19500
	for how in "" --use_cuda_peermem --use_cuda_dmabuf --use_cuda_pcie_mapping; do
		port=$((port + 1))
		echo "== registration, --use_cuda=0 $how on $dev"
		timeout 60 ./gdr_write_bw -d "$dev" -p $port --use_cuda=0 $how -s 64K -n 100 \
			>srv.out 2>&1 &
		sleep 1
		timeout 60 ./gdr_write_bw -d "$dev" -p $port --use_cuda=0 $how -s 64K -n 100 \
			--validate 127.0.0.1 >cli.out 2>&1
		echo "client exit $?"
		wait $!
		echo "server exit $?"
		grep -hiE 'registration|error|dma-buf|peermem' srv.out cli.out | sort -u
	done
} >>"$R" 2>&1
cat "$R"
