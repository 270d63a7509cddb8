#!/bin/bash
# SPDX-License-Identifier: MIT
# The sm copier against its anchor, side by side, in one run on one GPU (issue 33): the minimal
# persistent copy kernel of ../shared/probes (sm_percopy_probe.cu: one doorbell, one copy, one
# ack) and gdrperf's sm copier (tests/cuda/sm_bench with GDR_SM_BENCH=percopy: the same one copy
# at a time, doorbell to acknowledgement, through the copier interface the staged path uses),
# median and p99 per copy at 8 B..64 KiB, host-to-device and device-to-host, with the ratios and
# the copy engine's per-copy time from the same sm_bench run.
# Usage: sm-anchor.sh SM_BENCH_BINARY [ITERATIONS]   (PROBES=dir of sm_percopy_probe.cu,
# default ../shared/probes; NVCC, SM_ARCH as anchors.sh). Prints the table last; a line
# "sm-anchor: ..." per criterion: median within 1.1x and p99 within 1.3x of the anchor's at
# 8 B-4 KiB, and not slower than the copy engine at 16-64 KiB.
set -u
bench=${1:?usage: sm-anchor.sh SM_BENCH_BINARY [ITERATIONS]}
n=${2:-20000}
probes=${PROBES:-../shared/probes}
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
arch=${SM_ARCH:-sm_90}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
ldconfig -p | grep -q 'libcuda.so.1 ' || export LD_LIBRARY_PATH=/usr/local/nvidia/lib64
echo "# $(nvidia-smi --query-gpu=name,driver_version,pci.bus_id --format=csv,noheader 2>/dev/null | head -1); $(date -u '+%Y-%m-%d %H:%M UTC')"
"$nvcc" -O2 -arch="$arch" -o "$tmp/probe" "$probes/sm_percopy_probe.cu" || exit 1
"$tmp/probe" "$n" >"$tmp/anchor.csv" || { cat "$tmp/anchor.csv"; exit 1; }
GDR_SM_BENCH=percopy "$bench" "$n" >"$tmp/product.csv" || { cat "$tmp/product.csv"; exit 1; }
sed 's/^/# anchor: /' "$tmp/anchor.csv"
sed 's/^/# product: /' "$tmp/product.csv"
awk -F, '
	FNR == NR { if ($2 == "sm" && ($3 == "h2d" || $3 == "d2h")) { am[$1 "," $3] = $4; ap[$1 "," $3] = $5 } next }
	$1 == "percopy" && $2 ~ /^[0-9]+$/ {
		k = $2 "," $3
		if (!(k in am)) next
		rm = $4 / am[k]; rp = $5 / ap[k]
		printf "%-7s %-4s %9.2f %9.2f %6.2f %9.2f %9.2f %6.2f %9.2f\n", $2, $3, am[k], $4, rm, ap[k], $5, rp, $6
		if ($2 <= 4096) {
			if (rm > 1.1 || rp > 1.3) bad++
			small++
		} else {
			if ($4 > $6) slow++
			big++
		}
	}
	BEGIN { printf "%-7s %-4s %9s %9s %6s %9s %9s %6s %9s\n", "#bytes", "dir", "anchor_med", "sm_med", "ratio", "anchor_p99", "sm_p99", "ratio", "ce_med" }
	END {
		printf "sm-anchor: 8 B-4 KiB, median <= 1.1x and p99 <= 1.3x the anchor: %s (%d of %d rows outside)\n", small && !bad ? "yes" : "NO", bad, small
		printf "sm-anchor: 16-64 KiB, sm median <= copy engine median: %s (%d of %d rows slower)\n", big && !slow ? "yes" : "NO", slow, big
		exit (!small || bad || !big || slow) ? 1 : 0
	}' "$tmp/anchor.csv" "$tmp/product.csv"
