#!/bin/bash
# SPDX-License-Identifier: MIT
# The copiers' block lists on the anchors' shapes (issue 46 item 5): gdr_stage_bw --block
# (docs/kv.md) gathers (d2h) and scatters (h2d) one block list a batch through the ce copier,
# the sm copier (one doorbell a list, its kernel's block table) and gdrcopy where it opens,
# beside one contiguous copy of the same bytes, on blocks 16K,
# 64K, 640K x batches 1, 8, 64, 512, random placement in a 2 GiB GPU pool, one lane (a batch
# issued after the last completed, as the anchors' samples); then one table joining those rows
# with the anchors' (kv-gather.csv: kernel, ce per block, the driver's batched copy, contig) on
# (dir, block_B, batch). The batch copier (one cuMemcpyBatchAsync a list) runs the ce shapes
# too where the driver has the call (else it says so in one line, exit 2). Called by scripts/gpu/kv-gather.sh after the probe (the same call);
# alone: scripts/gpu/kv-copiers.sh [kv-gather.csv]. Run from the repository root on the GPU
# machine (librdmacm-dev .deb in .carry/, as scripts/gpu/env.sh). First the sm kernel's lists
# checked byte for byte on the real driver (tests/cuda/t_copier_list, t_sm_list_proto: exit 0
# each). Writes $OUT/kv-copiers-ce.csv, $OUT/kv-copiers-sm.csv, $OUT/kv-copiers-batch.csv,
# $OUT/kv-copiers-gdrcopy.csv, $OUT/kv-copiers.txt (the joined table).
set -u
src=$PWD b=/tmp/b-kv-copiers o=${OUT:-/tmp/out}
anchors=${1:-$o/kv-gather.csv}
mkdir -p "$o" "$b"
rm -f "$o"/kv-copiers-*.csv # the join reads every one: none left from an earlier run
. scripts/gpu/env.sh
R=$o/kv-copiers.txt
{
	echo "# machine: $(nvidia-smi --query-gpu=name,driver_version,pci.bus_id --format=csv,noheader 2>/dev/null | head -1); $(uname -srm); $(nproc) CPUs"
	echo "# date: $(date -u '+%Y-%m-%d %H:%M UTC'); commit: ${GDR_COMMIT:-$(git -C "$src" rev-parse --short HEAD 2>/dev/null)}"
	echo "# command: scripts/gpu/kv-copiers.sh $anchors"
	autoreconf -fi >/dev/null 2>&1
	(cd "$b" && "$src/configure" --enable-werror CUDA_H_PATH=/usr/local/cuda/include/cuda.h >conf.out 2>&1 &&
		make -j"$(nproc)" gdr_stage_bw tests/cuda/t_copier_list tests/cuda/t_sm_list_proto \
			>make.out 2>&1) ||
		{ echo "build failed"; tail -20 "$b/make.out"; exit 1; }
	for t in t_copier_list t_sm_list_proto; do
		echo
		echo "== tests/cuda/$t (the real driver: every list byte for byte)"
		timeout 60 "$b/tests/cuda/$t"
		echo "# exit status: $? (0: passed)"
	done
	shape="--pool=2G --place=random:1 --streams=1 --dir=all"
	echo
	echo "== gdr_stage_bw --copier=ce --block=16K,64K,640K --batch=1,8,64,512 $shape --reps=5"
	# shellcheck disable=SC2086 # $shape is words
	timeout 150 "$b/gdr_stage_bw" --copier=ce --block=16K,64K,640K --batch=1,8,64,512 $shape \
		--reps=5 --csv="$o/kv-copiers-ce.csv"
	echo "# exit status: $?"
	echo
	echo "== gdr_stage_bw --copier=sm --block=16K,64K,640K --batch=1,8,64,512 $shape --reps=5"
	# shellcheck disable=SC2086
	timeout 150 "$b/gdr_stage_bw" --copier=sm --block=16K,64K,640K --batch=1,8,64,512 $shape \
		--reps=5 --csv="$o/kv-copiers-sm.csv"
	echo "# exit status: $?"
	echo
	echo "== gdr_stage_bw --copier=batch --block=16K,64K,640K --batch=1,8,64,512 $shape --reps=5"
	# shellcheck disable=SC2086 # $shape is words
	timeout 150 "$b/gdr_stage_bw" --copier=batch --block=16K,64K,640K --batch=1,8,64,512 \
		$shape --reps=5 --csv="$o/kv-copiers-batch.csv"
	echo "# exit status: $? (2 and one line: the driver lacks cuMemcpyBatchAsync)"
	# gdrcopy's reads through BAR1 are slow: small shapes, a fixed count of batches
	echo
	echo "== gdr_stage_bw --copier=gdrcopy --block=16K,64K --batch=1,8,64 $shape -n 20 --reps=3"
	# shellcheck disable=SC2086
	timeout 60 "$b/gdr_stage_bw" --copier=gdrcopy --block=16K,64K --batch=1,8,64 $shape \
		-n 20 --reps=3 --csv="$o/kv-copiers-gdrcopy.csv"
	echo "# exit status: $? (2 and one line: gdrcopy does not open here)"
	echo
	echo "== the copiers beside the anchors ($anchors), GB/s = 10^9 B/s, medians"
	if [ -f "$anchors" ]; then
		awk -F, -f "$src/scripts/gpu/kv-join.awk" "$anchors" "$o"/kv-copiers-*.csv
	else
		echo "no anchors file: run scripts/gpu/kv-gather.sh (it calls this script)"
	fi
} 2>&1 | tee "$R"
