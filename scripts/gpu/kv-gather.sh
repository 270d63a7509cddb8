#!/bin/bash
# SPDX-License-Identifier: MIT
# Run on the GPU machine from the repository root ($OUT a folder; GDR_COMMIT names the commit
# when the copy has no .git): the KV-cache gather/scatter anchors of issue 46
# (scripts/gpu/kv_gather_probe.cu: a minimal gather kernel, the copy engine block by block, the
# driver's batched copy, and one contiguous copy of the same bytes), for block 16 KiB-640 KiB x
# batch 1-512. Writes $OUT/kv-gather.csv with the machine, driver, date, commit and command on
# top; then, in the same call, scripts/gpu/kv-copiers.sh: the copiers' block lists (gdr_stage_bw
# --block) on the same shapes and a table joining them with these anchors ($OUT/kv-copiers.txt;
# KV_COPIERS=0 leaves it out). Usage: scripts/gpu/kv-gather.sh [samples] [pool MiB]
set -eu
o=${OUT:-/tmp/out}
mkdir -p "$o"
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
ldconfig -p | grep -q 'libcuda.so.1 ' || export LD_LIBRARY_PATH=/usr/local/nvidia/lib64
"$nvcc" -O2 -arch="${SM_ARCH:-sm_90}" -o /tmp/kv_gather_probe scripts/gpu/kv_gather_probe.cu -lcuda
{
	echo "# machine: $(nvidia-smi --query-gpu=name,driver_version,pci.bus_id --format=csv,noheader | head -1); $(uname -srm); $(nproc) CPUs"
	echo "# date: $(date -u +%FT%TZ); commit: ${GDR_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null)}; nvcc: $("$nvcc" --version | tail -1)"
	echo "# command: scripts/gpu/kv-gather.sh ${*:-} (kv_gather_probe ${1:-200} ${2:-2048})"
	/tmp/kv_gather_probe "${1:-200}" "${2:-2048}"
} >"$o/kv-gather.csv" 2>&1
cat "$o/kv-gather.csv"
[ "${KV_COPIERS:-1}" = 0 ] || bash scripts/gpu/kv-copiers.sh "$o/kv-gather.csv"
