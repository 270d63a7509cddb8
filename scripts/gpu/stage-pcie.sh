#!/bin/bash
# SPDX-License-Identifier: MIT
# gdr_stage_bw's fraction of the GPU's PCIe ceiling on a real GPU (issue 25): the ceiling
# line it prints (link from sysfs, MPS from config space when run as root) beside what
# lspci and sysfs say, then GPU 0 at 4 MiB..256 MiB, all directions. Run from the
# repository root on the GPU machine (librdmacm-dev .deb in .carry/ as the other scripts);
# writes $OUT/stage-pcie.txt. About a minute.
set -u
src=$PWD b=/tmp/b-stage-pcie o=${OUT:-/tmp/out}
mkdir -p "$o" "$b"
R=$o/stage-pcie.txt
. scripts/gpu/env.sh
{
	echo "# machine: $(nvidia-smi --query-gpu=name,driver_version,pci.bus_id --format=csv,noheader 2>/dev/null | head -1); $(uname -srm); user $(id -un)"
	echo "# date: $(date -u '+%Y-%m-%d %H:%M UTC'); commit: ${GDR_COMMIT:-$(git -C "$src" rev-parse --short HEAD 2>/dev/null)}"
	echo "# command: gdr_stage_bw --use_cuda=0 --sizes=4M:256M:4 --dir=all --reps=3"
	autoreconf -fi >/dev/null 2>&1
	(cd "$b" && "$src/configure" --enable-werror CUDA_H_PATH=/usr/local/cuda/include/cuda.h >conf.out 2>&1 &&
		make -j"$(nproc)" gdr_stage_bw >make.out 2>&1) || { echo "build failed"; tail -20 "$b/make.out"; }
	for g in $(nvidia-smi --query-gpu=pci.bus_id --format=csv,noheader); do
		g=$(echo "$g" | tr A-Z a-z | sed 's/^0000//')
		echo "# $g: sysfs $(cat /sys/bus/pci/devices/$g/current_link_speed) x$(cat /sys/bus/pci/devices/$g/current_link_width)" \
			"(max $(cat /sys/bus/pci/devices/$g/max_link_speed) x$(cat /sys/bus/pci/devices/$g/max_link_width));" \
			"lspci (DevCap, then DevCtl: the setting): $(lspci -vv -s "$g" 2>/dev/null | grep -o 'MaxPayload [0-9]* bytes' | paste -sd, -)"
	done
	cd "$b" && timeout 300 ./gdr_stage_bw --use_cuda=0 --sizes=4M:256M:4 --dir=all --reps=3
	echo "# exit status: $?"
} >"$R" 2>&1
cat "$R"
